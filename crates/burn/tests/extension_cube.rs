//! A backend extension with a `#[cube]` kernel of its own on the CubeCL
//! backend (WGPU here: lavapipe in CI), under Fusion as the GPU runtimes
//! are by default: routed through Dispatch, recorded lazily, launched
//! through `CubeClient::launch`, and compared with the same op composed of
//! primitives.
#![cfg(all(feature = "extension", feature = "cubecl", feature = "wgpu"))]

use burn::backend::tensor::FloatTensor;
use burn::backend::{Cube, CubeTensor, Dispatch, TensorMetadata, backend_extension};
use burn::tensor::{DType, Device, DeviceKind, Distribution, Tensor, Tolerance};

// ANCHOR: kernel
/// The kernel and its launch, beside CubeCL's prelude (whose `Tensor` is
/// the kernel's view of a buffer, not the tensor API's).
mod kernel {
    use burn::backend::{CubeLaunch, CubeTensor, launch_dims};
    use burn::cubecl;
    use cubecl::prelude::*;

    /// `output[i] = input[offset + i] * scale + shift` over a contiguous input.
    #[cube(launch_unchecked)]
    fn affine_kernel(
        input: &Tensor<f32>,
        output: &mut Tensor<f32>,
        offset: usize,
        len: usize,
        scale: f32,
        shift: f32,
    ) {
        if ABSOLUTE_POS >= len {
            terminate!();
        }
        output[ABSOLUTE_POS] = input[offset + ABSOLUTE_POS] * scale + shift;
    }

    /// The launch of `affine_kernel`, written once for every CubeCL runtime.
    pub struct Affine<'a> {
        pub input: &'a CubeTensor,
        pub output: &'a CubeTensor,
        pub scale: f32,
        pub shift: f32,
    }

    impl CubeLaunch for Affine<'_> {
        type Output = ();

        fn launch<R: cubecl::Runtime>(self, client: &ComputeClient<R>) {
            let len = self.output.num_elements();
            let (count, dim) = launch_dims(client, len);
            // SAFETY: `output` holds `len` elements, and the kernel reads
            // `input` at `offset + i` for `i < len`, inside its buffer (it is
            // contiguous with the output's shape).
            unsafe {
                affine_kernel::launch_unchecked::<R>(
                    client,
                    count,
                    dim,
                    self.input.as_tensor_arg(),
                    self.output.as_tensor_arg(),
                    self.input.offset(),
                    len,
                    self.scale,
                    self.shift,
                );
            }
        }
    }
}

// ANCHOR_END: kernel

// ANCHOR: cube
#[backend_extension(Cube, Fusion)]
pub trait AffineBackend: burn::backend::Backend {
    /// `x * scale + shift`, in one kernel.
    #[fusion(dtype = x, shape = x)]
    fn affine(x: FloatTensor<Self>, scale: f32, shift: f32) -> FloatTensor<Self>;
}

impl AffineBackend for Cube {
    fn affine(x: CubeTensor, scale: f32, shift: f32) -> CubeTensor {
        assert_eq!(x.dtype(), DType::F32, "affine: the kernel is f32 only");
        let x = x.into_contiguous();
        let output = x.empty_like(x.shape(), DType::F32);
        x.client().launch(kernel::Affine {
            input: &x,
            output: &output,
            scale,
            shift,
        });
        output
    }
}

fn affine<const D: usize>(x: Tensor<D>, scale: f32, shift: f32) -> Tensor<D> {
    Tensor::from_dispatch(Dispatch::affine(x.into_dispatch(), scale, shift))
}
// ANCHOR_END: cube

#[test]
fn a_cube_kernel_runs_through_dispatch_and_fusion() {
    let device = Device::wgpu(DeviceKind::DefaultDevice);
    let x = Tensor::<2>::random([37, 53], Distribution::Uniform(-3.0, 3.0), &device);
    // A transposed view: the kernel gets it made contiguous first.
    let x = x.transpose();
    let ours = affine(x.clone(), 2.5, -1.0);
    assert_eq!(ours.dims(), [53, 37]);
    let composed = x * 2.5 - 1.0;
    ours.into_data()
        .assert_approx_eq::<f32>(&composed.into_data(), Tolerance::default());
    // Hand-worked values.
    let y = affine(
        Tensor::<1>::from_floats([0.0, 1.0, -2.0], &device),
        3.0,
        0.5,
    );
    assert_eq!(y.try_into_vec_as::<f32>().unwrap(), vec![0.5, 3.5, -5.5]);
}

/// Seed 004's "Passing structs and enums of tensors": its code block as
/// printed there (the types, the trait), with implementations for the
/// CubeCL backend (raw and under Fusion, which the build's `Cube` arm
/// holds) and Autodiff. The bodies compose primitives (they exercise the
/// routing, not a detector): `detect` takes an image's rows as boxes scored
/// by their sums, `nms` zeroes the scores below the threshold. The seed
/// declares `Operand` without an op taking it, hence `dead_code`.
#[allow(dead_code)]
mod seed_structs {
    use burn::backend::TensorMetadata;
    use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
    use burn::backend::{Autodiff, Cube, Fusion, FusionBackend};

    // The seed's code block, verbatim.
    use burn::backend::{
        ExtensionType, backend_extension,
        tensor::{FloatTensor, IntTensor},
    };

    #[derive(ExtensionType)]
    pub struct Boxes<B: Backend> {
        pub coords: FloatTensor<B>,
        pub scores: FloatTensor<B>,
        pub count: usize, // Non-tensor fields pass through unchanged.
    }

    #[derive(ExtensionType)]
    pub enum Operand<B: Backend> {
        Dense(FloatTensor<B>),
        Sparse {
            values: FloatTensor<B>,
            indices: IntTensor<B>,
        },
        Empty,
    }

    #[backend_extension(Cube, Autodiff)]
    pub trait Backend: burn::backend::Backend {
        // Struct as an output.
        fn detect(image: FloatTensor<Self>) -> Boxes<Self>;

        // Struct or enum as an input.
        fn nms(#[extension_type] boxes: Boxes<Self>, iou_threshold: f32) -> Boxes<Self>;
    }
    // End of the seed's block.

    fn detect_composed<B: Backend>(image: FloatTensor<B>) -> Boxes<B> {
        let count = image.shape().dims[0];
        let scores = B::float_sum_dim(image.clone(), 1);
        Boxes {
            coords: image,
            scores,
            count,
        }
    }

    fn nms_composed<B: Backend>(boxes: Boxes<B>, iou_threshold: f32) -> Boxes<B> {
        let below = B::float_lower_elem(boxes.scores.clone(), iou_threshold.into());
        let keep = B::bool_not(below);
        let mask = B::bool_into_float(keep, boxes.scores.dtype());
        Boxes {
            scores: B::float_mul(boxes.scores, mask),
            ..boxes
        }
    }

    impl Backend for Cube {
        fn detect(image: FloatTensor<Self>) -> Boxes<Self> {
            detect_composed::<Self>(image)
        }
        fn nms(boxes: Boxes<Self>, iou_threshold: f32) -> Boxes<Self> {
            nms_composed::<Self>(boxes, iou_threshold)
        }
    }

    impl<B: FusionBackend + Backend> Backend for Fusion<B> {
        fn detect(image: FloatTensor<Self>) -> Boxes<Self> {
            detect_composed::<Self>(image)
        }
        fn nms(boxes: Boxes<Self>, iou_threshold: f32) -> Boxes<Self> {
            nms_composed::<Self>(boxes, iou_threshold)
        }
    }

    impl<B: Backend, C: CheckpointStrategy> Backend for Autodiff<B, C> {
        fn detect(image: FloatTensor<Self>) -> Boxes<Self> {
            detect_composed::<Self>(image)
        }
        fn nms(boxes: Boxes<Self>, iou_threshold: f32) -> Boxes<Self> {
            nms_composed::<Self>(boxes, iou_threshold)
        }
    }

    use burn::backend::Dispatch;
    use burn::tensor::{Device, DeviceKind, Tensor};

    #[test]
    fn the_seed_example_runs_on_cube_and_through_autodiff() {
        for tracked in [false, true] {
            let mut device = Device::wgpu(DeviceKind::DefaultDevice);
            if tracked {
                device = device.autodiff();
            }
            let image = Tensor::<2>::from_floats([[1.0, 2.0], [0.5, 0.0], [3.0, 3.0]], &device)
                .set_require_grad(tracked);
            let boxes = Dispatch::nms(Dispatch::detect(image.clone().into_dispatch()), 2.0);
            assert_eq!(boxes.count, 3);
            let coords: Tensor<2> = Tensor::from_dispatch(boxes.coords);
            let scores: Tensor<2> = Tensor::from_dispatch(boxes.scores);
            assert_eq!(
                coords.clone().try_into_vec_as::<f32>().unwrap(),
                vec![1.0, 2.0, 0.5, 0.0, 3.0, 3.0]
            );
            assert_eq!(
                scores.clone().try_into_vec_as::<f32>().unwrap(),
                vec![3.0, 0.0, 6.0]
            );
            if tracked {
                // d(sum of kept scores)/d(image): 1 on the kept rows.
                let gradients = scores.sum().backward();
                let grad = image.grad(&gradients).unwrap();
                assert_eq!(
                    grad.try_into_vec_as::<f32>().unwrap(),
                    vec![1.0, 1.0, 0.0, 0.0, 1.0, 1.0]
                );
            }
        }
    }
}
