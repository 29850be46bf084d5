//! A backend extension whose kernel is hand-written source (`template`
//! feature): WGSL on WGPU (lavapipe in CI), CUDA C++ through NVRTC on CUDA,
//! launched on the CubeCL backend's buffers and checked against the same op
//! composed of primitives.
#![cfg(all(
    feature = "extension",
    feature = "template",
    any(feature = "wgpu", feature = "cuda")
))]

use burn::backend::template::{KernelSource, SourceArgs, SourceLanguage, SourceTemplate};
use burn::backend::tensor::FloatTensor;
use burn::backend::{Cube, CubeLaunch, CubeTensor, Dispatch, TensorMetadata, backend_extension};
use burn::cubecl::prelude::{ComputeClient, CubeCount, CubeDim, Runtime};
use burn::tensor::{DType, Device, Distribution, Tensor, Tolerance};

// ANCHOR: source
/// `output[i] = lhs[i] * scale + rhs[i]`, in WGSL and in CUDA C++. Both take
/// the three buffers, then the scalars: the length, the scale's bits and the
/// inputs' offsets. WGSL bindings are all `read_write`: tensors may share
/// one device buffer, which a dispatch cannot use both read-only and
/// writable.
struct ScaledAdd {
    language: SourceLanguage,
    workgroup: u32,
}

const WGSL: &str = r#"
@group(0) @binding(0) var<storage, read_write> lhs: array<f32>;
@group(0) @binding(1) var<storage, read_write> rhs: array<f32>;
@group(0) @binding(2) var<storage, read_write> output: array<f32>;
@group(0) @binding(3) var<storage, read_write> scalars: array<u32>;

@compute @workgroup_size({{ workgroup }}, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if (i >= scalars[0]) {
        return;
    }
    let scale = bitcast<f32>(scalars[1]);
    output[i] = lhs[scalars[2] + i] * scale + rhs[scalars[3] + i];
}
"#;

const CUDA: &str = r#"
typedef unsigned int uint32_t;
extern "C" __global__ void main_kernel(
    const float* lhs, const float* rhs, float* output, const uint32_t* scalars
) {
    uint32_t i = blockIdx.x * {{ workgroup }} + threadIdx.x;
    if (i >= scalars[0]) {
        return;
    }
    float scale = __uint_as_float(scalars[1]);
    output[i] = lhs[scalars[2] + i] * scale + rhs[scalars[3] + i];
}
"#;

impl KernelSource for ScaledAdd {
    fn language(&self) -> SourceLanguage {
        self.language
    }

    fn source(&self) -> SourceTemplate {
        let text = match self.language {
            SourceLanguage::Wgsl => WGSL,
            SourceLanguage::Cuda => CUDA,
        };
        SourceTemplate::new(text).register("workgroup", self.workgroup)
    }

    fn entry_point(&self) -> &'static str {
        match self.language {
            SourceLanguage::Wgsl => "main",
            SourceLanguage::Cuda => "main_kernel",
        }
    }
}
// ANCHOR_END: source

// ANCHOR: launch
struct Launch<'a> {
    lhs: &'a CubeTensor,
    rhs: &'a CubeTensor,
    output: &'a CubeTensor,
    scale: f32,
}

impl CubeLaunch for Launch<'_> {
    type Output = ();

    fn launch<R: Runtime>(self, client: &ComputeClient<R>) {
        let len = self.output.shape().num_elements();
        let language = SourceLanguage::of(self.output.device())
            .expect("scaled_add: source kernels in WGSL and CUDA C++ only");
        let workgroup = 256;
        let kernel = ScaledAdd {
            language,
            workgroup,
        };
        let args = SourceArgs::new()
            .tensor(self.lhs)
            .tensor(self.rhs)
            .tensor(self.output)
            .u32(u32::try_from(len).expect("scaled_add: fewer than 2^32 elements"))
            .f32(self.scale)
            .u32(self.lhs.offset() as u32)
            .u32(self.rhs.offset() as u32);
        let cubes = (len as u32).div_ceil(workgroup).max(1);
        // SAFETY: every thread below `len` reads `lhs` and `rhs` at their
        // offset plus its index, inside their buffers (contiguous, of the
        // output's shape), and writes `output` at its index; the others
        // return at once.
        unsafe {
            burn::backend::template::launch_source(
                client,
                kernel,
                CubeCount::Static(cubes, 1, 1),
                CubeDim::new_1d(workgroup),
                args,
            );
        }
    }
}

#[backend_extension(Cube, Fusion)]
pub trait ScaledAddBackend: burn::backend::Backend {
    /// `lhs * scale + rhs`, in one hand-written kernel.
    #[fusion(dtype = lhs, shape = lhs)]
    fn scaled_add(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>, scale: f32) -> FloatTensor<Self>;
}

impl ScaledAddBackend for Cube {
    fn scaled_add(lhs: CubeTensor, rhs: CubeTensor, scale: f32) -> CubeTensor {
        assert_eq!(
            (lhs.dtype(), rhs.dtype()),
            (DType::F32, DType::F32),
            "scaled_add: the kernel is f32 only"
        );
        assert_eq!(lhs.shape(), rhs.shape(), "scaled_add: shapes differ");
        let (lhs, rhs) = (lhs.into_contiguous(), rhs.into_contiguous());
        let output = lhs.empty_like(lhs.shape(), DType::F32);
        lhs.client().launch(Launch {
            lhs: &lhs,
            rhs: &rhs,
            output: &output,
            scale,
        });
        output
    }
}
// ANCHOR_END: launch

fn scaled_add<const D: usize>(lhs: Tensor<D>, rhs: Tensor<D>, scale: f32) -> Tensor<D> {
    Tensor::from_dispatch(Dispatch::scaled_add(
        lhs.into_dispatch(),
        rhs.into_dispatch(),
        scale,
    ))
}

fn device() -> Device {
    #[cfg(feature = "cuda")]
    return Device::cuda(0);
    #[cfg(not(feature = "cuda"))]
    Device::wgpu(Default::default())
}

#[test]
fn a_source_kernel_matches_the_composed_op() {
    let device = device();
    let lhs = Tensor::<2>::random([61, 47], Distribution::Uniform(-2.0, 2.0), &device);
    let rhs = Tensor::<2>::random([61, 47], Distribution::Uniform(-2.0, 2.0), &device);
    // A transposed view and a sliced one: made contiguous, offsets passed.
    let lhs = lhs.transpose();
    let rhs = rhs.transpose().slice([1..47, 0..61]);
    let lhs = lhs.slice([1..47, 0..61]);
    let ours = scaled_add(lhs.clone(), rhs.clone(), -1.5);
    assert_eq!(ours.dims(), [46, 61]);
    ours.into_data()
        .assert_approx_eq::<f32>(&(lhs * -1.5 + rhs).into_data(), Tolerance::default());
    // Hand-worked values, and a length that is not a multiple of the workgroup.
    let got = scaled_add(
        Tensor::<1>::from_floats([1.0, 2.0, 3.0], &device),
        Tensor::<1>::from_floats([0.5, 0.0, -1.0], &device),
        2.0,
    );
    assert_eq!(got.try_into_vec_as::<f32>().unwrap(), vec![2.5, 4.0, 5.0]);
    // Contiguous slices keep their buffer: the kernel reads from their offsets.
    let base = Tensor::<1>::from_floats([9.0, 9.0, 1.0, 2.0, 3.0, 7.0], &device);
    let got = scaled_add(base.clone().slice(2..5), base.slice(3..6), 10.0);
    assert_eq!(
        got.try_into_vec_as::<f32>().unwrap(),
        vec![12.0, 23.0, 37.0]
    );
}
