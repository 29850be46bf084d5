//! `cargo run --release -p burn-bench --features extension,cuda --bin
//! extension-bench [-- --quick]` (or `extension,wgpu`): a custom fused kernel
//! of a backend extension against the same op composed of primitives, in one
//! run on one device.
//!
//! The op is an embedding lookup scaled and shifted by a position table,
//! `weights.select(0, idx) * scale + pos`, which the composition runs as two
//! kernels (the gather writes its rows, then Fusion's element-wise kernel
//! reads them back with `pos`): five passes over `[n, d]` floats. The custom
//! kernel reads each gathered row and `pos` once and writes once: three
//! passes. Two custom kernels run: a portable `#[cube]` one (one float a
//! unit), and on CUDA a hand-written CUDA C++ one (`template` feature, four
//! floats a unit).
//!
//! Each figure is the median of timed iterations (burn-bench's policy), each
//! between two `device.sync()`s; the ratios are composed / custom.

#[path = "../timing.rs"]
#[allow(dead_code)]
mod timing;

use burn::backend::tensor::{FloatTensor, IntTensor};
use burn::backend::{Cube, CubeTensor, Dispatch, TensorMetadata, backend_extension};
use burn::tensor::{DType, Device, Distribution, Int, Tensor, TensorData, Tolerance};
use timing::{Policy, measure};

mod kernel {
    use burn::backend::{CubeLaunch, CubeTensor, launch_dims};
    use burn::cubecl;
    use cubecl::prelude::*;

    /// `out[r, c] = weights[idx[r], c] * scale + pos[r, c]`, one float a unit.
    #[cube(launch_unchecked)]
    #[allow(clippy::too_many_arguments)]
    fn gather_scale_add(
        weights: &Tensor<f32>,
        idx: &Tensor<i32>,
        pos: &Tensor<f32>,
        out: &mut Tensor<f32>,
        weights_offset: usize,
        idx_offset: usize,
        pos_offset: usize,
        cols: usize,
        len: usize,
        scale: f32,
    ) {
        if ABSOLUTE_POS >= len {
            terminate!();
        }
        let row = ABSOLUTE_POS / cols;
        let col = ABSOLUTE_POS % cols;
        let src = usize::cast_from(idx[idx_offset + row]);
        out[ABSOLUTE_POS] =
            weights[weights_offset + src * cols + col] * scale + pos[pos_offset + ABSOLUTE_POS];
    }

    pub struct Portable<'a> {
        pub weights: &'a CubeTensor,
        pub idx: &'a CubeTensor,
        pub pos: &'a CubeTensor,
        pub out: &'a CubeTensor,
        pub cols: usize,
        pub scale: f32,
    }

    impl CubeLaunch for Portable<'_> {
        type Output = ();

        fn launch<R: Runtime>(self, client: &ComputeClient<R>) {
            let len = self.out.num_elements();
            let (count, dim) = launch_dims(client, len);
            // SAFETY: `out` and `pos` hold `len` elements past their offsets;
            // every index of `idx` is below the rows of `weights` (checked by
            // the caller), so the gathered reads stay inside it.
            unsafe {
                gather_scale_add::launch_unchecked::<R>(
                    client,
                    count,
                    dim,
                    self.weights.as_tensor_arg(),
                    self.idx.as_tensor_arg(),
                    self.pos.as_tensor_arg(),
                    self.out.as_tensor_arg(),
                    self.weights.offset(),
                    self.idx.offset(),
                    self.pos.offset(),
                    self.cols,
                    len,
                    self.scale,
                );
            }
        }
    }
}

/// The CUDA C++ version: four floats a unit (`cols` a multiple of 4).
#[cfg(feature = "cuda")]
mod source {
    use burn::backend::CubeTensor;
    use burn::backend::template::{
        KernelSource, SourceArgs, SourceLanguage, SourceTemplate, launch_source,
    };
    use burn::cubecl::prelude::{ComputeClient, CubeCount, CubeDim, Runtime};

    struct GatherScaleAdd;

    const CUDA: &str = r#"
typedef unsigned int uint32_t;
extern "C" __global__ void gather_scale_add(
    const float4* weights, const int* idx, const float4* pos, float4* out,
    const uint32_t* s
) {
    uint32_t i = blockIdx.x * {{ workgroup }} + threadIdx.x;
    if (i >= s[0]) {
        return;
    }
    uint32_t quads = s[1];
    uint32_t row = i / quads;
    uint32_t col = i - row * quads;
    float scale = __uint_as_float(s[2]);
    int src = idx[s[4] + row];
    float4 w = weights[s[3] + (size_t)src * quads + col];
    float4 p = pos[s[5] + i];
    out[i] = make_float4(w.x * scale + p.x, w.y * scale + p.y, w.z * scale + p.z, w.w * scale + p.w);
}
"#;

    impl KernelSource for GatherScaleAdd {
        fn language(&self) -> SourceLanguage {
            SourceLanguage::Cuda
        }
        fn source(&self) -> SourceTemplate {
            SourceTemplate::new(CUDA).register("workgroup", 256)
        }
        fn entry_point(&self) -> &'static str {
            "gather_scale_add"
        }
    }

    pub struct Vectorized<'a> {
        pub weights: &'a CubeTensor,
        pub idx: &'a CubeTensor,
        pub pos: &'a CubeTensor,
        pub out: &'a CubeTensor,
        pub cols: usize,
        pub scale: f32,
    }

    impl burn::backend::CubeLaunch for Vectorized<'_> {
        type Output = ();

        fn launch<R: Runtime>(self, client: &ComputeClient<R>) {
            let quads = self.out.num_elements() / 4;
            assert!(
                self.cols % 4 == 0 && [self.weights, self.pos].iter().all(|t| t.offset() % 4 == 0),
                "gather_scale_add: the vectorized kernel needs rows and offsets of whole float4s"
            );
            let word = |v: usize| u32::try_from(v).expect("fewer than 2^32 elements");
            let args = SourceArgs::new()
                .tensor(self.weights)
                .tensor(self.idx)
                .tensor(self.pos)
                .tensor(self.out)
                .u32(word(quads))
                .u32(word(self.cols / 4))
                .f32(self.scale)
                .u32(word(self.weights.offset() / 4))
                .u32(word(self.idx.offset()))
                .u32(word(self.pos.offset() / 4));
            // SAFETY: as the portable kernel's: `quads` float4s of `out` and
            // `pos` past their offsets, rows of `weights` named by `idx`.
            unsafe {
                launch_source(
                    client,
                    GatherScaleAdd,
                    CubeCount::Static(word(quads).div_ceil(256), 1, 1),
                    CubeDim::new_1d(256),
                    args,
                );
            }
        }
    }
}

#[backend_extension(Cube, Fusion)]
pub trait GatherBackend: burn::backend::Backend {
    /// `weights.select(0, idx) * scale + pos`, in one portable kernel.
    #[fusion(dtype = pos, shape = pos)]
    fn gather_scale_add(
        weights: FloatTensor<Self>,
        idx: IntTensor<Self>,
        pos: FloatTensor<Self>,
        scale: f32,
    ) -> FloatTensor<Self>;

    /// The same, in the hand-written CUDA kernel (CUDA only).
    #[fusion(dtype = pos, shape = pos)]
    fn gather_scale_add_cuda(
        weights: FloatTensor<Self>,
        idx: IntTensor<Self>,
        pos: FloatTensor<Self>,
        scale: f32,
    ) -> FloatTensor<Self>;
}

/// The operands checked and made contiguous, and the output.
fn prepare(
    weights: CubeTensor,
    idx: CubeTensor,
    pos: CubeTensor,
) -> (CubeTensor, CubeTensor, CubeTensor, CubeTensor, usize) {
    assert_eq!(idx.dtype(), DType::I32, "gather_scale_add: i32 indices");
    assert_eq!((weights.dtype(), pos.dtype()), (DType::F32, DType::F32));
    let cols = weights.shape().dims[1];
    assert_eq!(pos.shape().dims, vec![idx.shape().dims[0], cols]);
    let (weights, idx, pos) = (
        weights.into_contiguous(),
        idx.into_contiguous(),
        pos.into_contiguous(),
    );
    let out = pos.empty_like(pos.shape(), DType::F32);
    (weights, idx, pos, out, cols)
}

impl GatherBackend for Cube {
    fn gather_scale_add(
        weights: CubeTensor,
        idx: CubeTensor,
        pos: CubeTensor,
        scale: f32,
    ) -> CubeTensor {
        let (weights, idx, pos, out, cols) = prepare(weights, idx, pos);
        weights.client().launch(kernel::Portable {
            weights: &weights,
            idx: &idx,
            pos: &pos,
            out: &out,
            cols,
            scale,
        });
        out
    }

    fn gather_scale_add_cuda(
        weights: CubeTensor,
        idx: CubeTensor,
        pos: CubeTensor,
        scale: f32,
    ) -> CubeTensor {
        #[cfg(feature = "cuda")]
        {
            let (weights, idx, pos, out, cols) = prepare(weights, idx, pos);
            weights.client().launch(source::Vectorized {
                weights: &weights,
                idx: &idx,
                pos: &pos,
                out: &out,
                cols,
                scale,
            });
            out
        }
        #[cfg(not(feature = "cuda"))]
        {
            let _ = (weights, idx, pos, scale);
            panic!("gather_scale_add_cuda: this build has no CUDA runtime")
        }
    }
}

fn composed(weights: &Tensor<2>, idx: &Tensor<1, Int>, pos: &Tensor<2>, scale: f32) -> Tensor<2> {
    weights.clone().select(0, idx.clone()) * scale + pos.clone()
}

fn custom(
    weights: &Tensor<2>,
    idx: &Tensor<1, Int>,
    pos: &Tensor<2>,
    scale: f32,
    cuda: bool,
) -> Tensor<2> {
    let (w, i, p) = (
        weights.clone().into_dispatch(),
        idx.clone().into_dispatch(),
        pos.clone().into_dispatch(),
    );
    let out = if cuda {
        Dispatch::gather_scale_add_cuda(w, i, p, scale)
    } else {
        Dispatch::gather_scale_add(w, i, p, scale)
    };
    Tensor::from_dispatch(out)
}

fn device() -> Device {
    #[cfg(feature = "cuda")]
    return Device::cuda(0);
    #[cfg(not(feature = "cuda"))]
    Device::wgpu(Default::default())
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let policy = if quick { Policy::QUICK } else { Policy::FULL };
    let device = device();
    let vocab = 32_768;
    let cols = 1024;
    let rows_list: &[usize] = if quick { &[4096] } else { &[16_384, 262_144] };
    println!("device: {device:?}");
    println!("| rows × cols | composed | portable #[cube] | ratio | CUDA C++ | ratio |");
    println!("|---|---|---|---|---|---|");
    for &rows in rows_list {
        let weights = Tensor::<2>::random([vocab, cols], Distribution::Uniform(-1.0, 1.0), &device);
        let pos = Tensor::<2>::random([rows, cols], Distribution::Uniform(-1.0, 1.0), &device);
        let picks: Vec<i32> = (0..rows).map(|r| ((r * 7919) % vocab) as i32).collect();
        let idx =
            Tensor::<1, Int>::from_data(TensorData::new(picks, [rows]), (&device, DType::I32));
        let scale = 0.125;
        // The custom kernels agree with the composition first.
        let reference = composed(&weights, &idx, &pos, scale).into_data();
        let cuda = cfg!(feature = "cuda");
        for vectorized in [false, true].into_iter().filter(|v| !*v || cuda) {
            custom(&weights, &idx, &pos, scale, vectorized)
                .into_data()
                .assert_approx_eq::<f32>(&reference, Tolerance::default());
        }
        let time = |f: &dyn Fn() -> Tensor<2>| {
            let samples = measure(&policy, || {
                device.sync();
                let out = f();
                device.sync();
                out
            });
            samples.median().as_secs_f64() * 1e6
        };
        let base = time(&|| composed(&weights, &idx, &pos, scale));
        let portable = time(&|| custom(&weights, &idx, &pos, scale, false));
        let (cuda_us, cuda_ratio) = if cuda {
            let t = time(&|| custom(&weights, &idx, &pos, scale, true));
            (format!("{t:.1} µs"), format!("{:.2}", base / t))
        } else {
            ("-".into(), "-".into())
        };
        println!(
            "| {rows} × {cols} | {base:.1} µs | {portable:.1} µs | {:.2} | {cuda_us} | {cuda_ratio} |",
            base / portable
        );
    }
}
