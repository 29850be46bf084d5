//! The workloads of the suite, named as in `pytorch/bench.py`.
//!
//! Each workload builds its inputs once (outside the timing) and returns a
//! runner: one call is one timed iteration, from the input tensors to the
//! result in host memory (`into_data()`). Inputs are cloned handles, so no
//! result is cached or reused between iterations, and no op can take over
//! an input buffer in place (PyTorch's eager ops cannot either).

use burn::optim::AdamConfig;
use burn::prelude::*;
use burn::tensor::activation::softmax;
use burn::tensor::module::{ConvOptions, conv2d};
use burn::tensor::quantization::{QuantScheme, QuantStore, QuantValue, ScaleDtype};
use serde::{Deserialize, Serialize};

use crate::mlp::{self, Mlp};

/// How a workload's rate is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Compute-bound f32: GFLOP/s, and the fraction of the f32 peak.
    Matmul,
    /// Compute-bound f16/bf16: GFLOP/s only. The f32 peak does not bound
    /// it (a CPU with AMX or AVX-512 FP16 goes far past it), so no fraction.
    MatmulHalf,
    /// Memory-bound: GB/s, and the multiple of the stream time.
    Memory,
    /// A whole model step: GFLOP/s of its matmuls.
    Model,
    /// Per-op overhead on a tiny tensor: the time is the figure.
    Overhead,
}

/// One timed iteration: the outputs, already in host memory.
pub type Runner = Box<dyn FnMut() -> Vec<TensorData>>;

/// A named workload, its amount of work and how to build its runner.
pub struct Workload {
    pub name: &'static str,
    pub kind: Kind,
    /// Flops for `Matmul` and `Model`, bytes for `Memory`, 0 for `Overhead`.
    pub work: f64,
    setup: Box<dyn Fn(&Device) -> Runner>,
}

impl Workload {
    fn new(
        name: &'static str,
        kind: Kind,
        work: f64,
        setup: impl Fn(&Device) -> Runner + 'static,
    ) -> Self {
        Self {
            name,
            kind,
            work,
            setup: Box::new(setup),
        }
    }

    /// Builds the inputs on `device` and returns the runner.
    pub fn setup(&self, device: &Device) -> Runner {
        (self.setup)(device)
    }
}

// ------------------------------------------------------------------ the ops

/// The element-wise chain of the issue: four ops.
pub fn chain(x: Tensor<2>) -> Tensor<2> {
    (x * 2 + 1).exp().tanh()
}

/// Bytes the chain moves on `elements` f32 values by the stream-time
/// definition: each of its four ops reads and writes the whole tensor.
pub fn chain_bytes(elements: usize) -> f64 {
    (4 * 2 * 4 * elements) as f64
}

/// The five-op chain of the fusion issue, `((x * 2 + 1).exp().tanh() * 0.5)`.
pub fn chain5(x: Tensor<2>) -> Tensor<2> {
    (x * 2 + 1).exp().tanh() * 0.5
}

/// GELU in its tanh form, composed of primitives as a model writes it:
/// `0.5 · x · (1 + tanh(√(2/π) · (x + 0.044715 · x³)))`, eight ops on
/// three uses of `x`.
pub fn gelu_tanh(x: Tensor<2>) -> Tensor<2> {
    let cubic = x.clone().powf_scalar(3.0) * 0.044715;
    let inner = (x.clone() + cubic) * (2.0 / core::f64::consts::PI).sqrt();
    x * 0.5 * (inner.tanh() + 1)
}

/// One pass over the tensor, `x * 1` (a read and a write of every value):
/// the bandwidth an element-wise block reaches at best.
pub fn one_pass(x: Tensor<2>) -> Tensor<2> {
    x * 1
}

/// Bytes of one pass (a read and a write of every f32 value): what a fused
/// element-wise block moves, however long its chain.
pub fn pass_bytes(elements: usize) -> f64 {
    (2 * 4 * elements) as f64
}

/// Softmax over the last dimension.
pub fn softmax_last(x: Tensor<2>) -> Tensor<2> {
    softmax(x, 1)
}

/// The scores of attention: `softmax(x · 0.125 + mask)` over the last dim,
/// the mask `[1, n]` broadcast over the rows.
pub fn masked_softmax(x: Tensor<2>, mask: Tensor<2>) -> Tensor<2> {
    softmax(x * 0.125 + mask, 1)
}

/// Sum over the last dimension (kept as size 1).
pub fn sum_last(x: Tensor<2>) -> Tensor<2> {
    x.sum_dim(1)
}

// ---------------------------------------------------------- the registry

fn uniform<const D: usize>(shape: [usize; D], device: &Device) -> Tensor<D> {
    Tensor::<D>::random(shape, Distribution::Default, device)
}

fn matmul_square(name: &'static str, n: usize, dtype: DType) -> Workload {
    let kind = if dtype == DType::F32 {
        Kind::Matmul
    } else {
        Kind::MatmulHalf
    };
    Workload::new(name, kind, 2.0 * (n as f64).powi(3), move |device| {
        let lhs = uniform([n, n], device).cast(dtype);
        let rhs = uniform([n, n], device).cast(dtype);
        Box::new(move || vec![lhs.clone().matmul(rhs.clone()).into_data()])
    })
}

fn matmul_batched(name: &'static str, batch: usize, n: usize) -> Workload {
    let flops = 2.0 * batch as f64 * (n as f64).powi(3);
    Workload::new(name, Kind::Matmul, flops, move |device| {
        let lhs = uniform([batch, n, n], device);
        let rhs = uniform([batch, n, n], device);
        Box::new(move || vec![lhs.clone().matmul(rhs.clone()).into_data()])
    })
}

/// `conv2d` of `[batch, channels, size, size]` by a `3×3` kernel to the
/// same channel count, padding 1 (a ResNet stage): im2col + GEMM on Flex.
fn conv2d_3x3(name: &'static str, batch: usize, channels: usize, size: usize) -> Workload {
    let flops = 2.0 * (batch * channels * size * size * channels * 9) as f64;
    Workload::new(name, Kind::Matmul, flops, move |device| {
        let x = uniform([batch, channels, size, size], device);
        let weight = uniform([channels, channels, 3, 3], device);
        let options = ConvOptions::new([1, 1], [1, 1], [1, 1], 1);
        Box::new(move || vec![conv2d(x.clone(), weight.clone(), None, options).into_data()])
    })
}

fn unary_2d(name: &'static str, n: usize, bytes: f64, op: fn(Tensor<2>) -> Tensor<2>) -> Workload {
    Workload::new(name, Kind::Memory, bytes, move |device| {
        let x = uniform([n, n], device);
        Box::new(move || vec![op(x.clone()).into_data()])
    })
}

/// [`masked_softmax`] on `[n, n]` with its `[1, n]` mask; `synced` ends a
/// GPU iteration at the device's sync rather than the host read.
fn masked_softmax_2d(name: &'static str, n: usize, gpu: bool) -> Workload {
    Workload::new(name, Kind::Memory, pass_bytes(n * n), move |device| {
        let x = uniform([n, n], device);
        let mask = uniform([1, n], device);
        if gpu {
            synced(device, move || {
                drop(masked_softmax(x.clone(), mask.clone()))
            })
        } else {
            Box::new(move || vec![masked_softmax(x.clone(), mask.clone()).into_data()])
        }
    })
}

/// `burn::nn::LayerNorm` over the last dim of `[n, n]` (its composed
/// forward: biased variance and mean, normalize, scale and shift).
fn layer_norm_2d(name: &'static str, n: usize, gpu: bool) -> Workload {
    Workload::new(name, Kind::Memory, pass_bytes(n * n), move |device| {
        let x = uniform([n, n], device);
        let norm = burn::nn::LayerNormConfig::new(n).init(device);
        if gpu {
            synced(device, move || drop(norm.forward(x.clone())))
        } else {
            Box::new(move || vec![norm.forward(x.clone()).into_data()])
        }
    })
}

/// A weight-only quantized (or f32) matrix-vector product: `[1, k] @ [k, n]`,
/// the decoding step of a language model. The work is the weight's bytes
/// in f32 (the rate is read against the same amount for every scheme, so
/// rates compare as inverse times).
fn matvec(name: &'static str, k: usize, n: usize, scheme: Option<QuantScheme>) -> Workload {
    Workload::new(name, Kind::Memory, (4 * k * n) as f64, move |device| {
        let x = uniform([1, k], device);
        let w = uniform([k, n], device).sub_scalar(0.5);
        let w = match scheme {
            Some(scheme) => w.quantize_dynamic(&scheme),
            None => w,
        };
        Box::new(move || vec![x.clone().matmul(w.clone()).into_data()])
    })
}

/// `scheme` values per block of 32, f32 scales.
fn blocks_of_32(value: QuantValue, store: QuantStore) -> QuantScheme {
    QuantScheme::default()
        .with_value(value)
        .with_store(store)
        .per_block([32], ScaleDtype::F32)
}

fn add_tiny(name: &'static str, autodiff: bool) -> Workload {
    Workload::new(name, Kind::Overhead, 0.0, move |device| {
        let device = if autodiff {
            device.clone().autodiff()
        } else {
            device.clone()
        };
        let (mut a, mut b) = (uniform([8, 8], &device), uniform([8, 8], &device));
        if autodiff {
            (a, b) = (a.require_grad(), b.require_grad());
        }
        Box::new(move || vec![(a.clone() + b.clone()).into_data()])
    })
}

/// The 8×8 add through the router's in-process channel: the op recorded as
/// IR, then executed from it on the same Flex device (`add_f32_8x8` is the
/// direct path beside it).
fn add_tiny_router(name: &'static str) -> Workload {
    Workload::new(name, Kind::Overhead, 0.0, move |device| {
        let routed = Device::router(device);
        let (a, b) = (uniform([8, 8], &routed), uniform([8, 8], &routed));
        Box::new(move || vec![(a.clone() + b.clone()).into_data()])
    })
}

/// Ops recorded a capture scope in [`add_tiny_capture`].
pub const CAPTURED_ADDS: usize = 100;

/// Recording on a capture device: one scope of [`CAPTURED_ADDS`] 8×8 adds of
/// two tensors that enter with data; the per-op cost is the time over
/// `CAPTURED_ADDS` (the scope and the two tensors are shared by the adds).
/// Nothing is computed, so the runner returns no data.
fn add_tiny_capture(name: &'static str) -> Workload {
    Workload::new(name, Kind::Overhead, 0.0, move |device| {
        let (a, b) = (
            uniform([8, 8], device).into_data(),
            uniform([8, 8], device).into_data(),
        );
        let capture = Device::capture();
        Box::new(move || {
            let graph = capture
                .capture_scope(|scope| {
                    let x = Tensor::<2>::from_data(a.clone(), &capture);
                    let y = Tensor::<2>::from_data(b.clone(), &capture);
                    let mut last = None;
                    for _ in 0..CAPTURED_ADDS {
                        last = Some(x.clone() + y.clone());
                    }
                    let out = last.expect("at least one add").capture_id();
                    scope.complete([], [out])
                })
                .expect("the capture completes");
            assert_eq!(graph.graph.operations.len(), CAPTURED_ADDS + 2);
            Vec::new()
        })
    })
}

/// Which passes an MLP workload times.
#[derive(Clone, Copy)]
enum Pass {
    /// Forward and loss on plain tensors.
    Forward,
    /// Forward and loss with the parameters requiring gradients (graph recorded).
    ForwardAutodiff,
    /// Forward, loss, backward, and every gradient read to host memory.
    ForwardBackward,
}

fn mlp_step(name: &'static str, pass: Pass) -> Workload {
    let forward = Mlp::forward_flops(&mlp::WIDTHS, mlp::BATCH);
    let flops = match pass {
        Pass::Forward | Pass::ForwardAutodiff => forward,
        Pass::ForwardBackward => forward + Mlp::backward_flops(&mlp::WIDTHS, mlp::BATCH),
    };
    Workload::new(name, Kind::Model, flops, move |device| {
        let device = match pass {
            Pass::Forward => device.clone(),
            Pass::ForwardAutodiff | Pass::ForwardBackward => device.clone().autodiff(),
        };
        let model = Mlp::new(&mlp::WIDTHS, &device);
        let x = uniform([mlp::BATCH, mlp::WIDTHS[0]], &device);
        let targets = mlp::targets(mlp::BATCH, mlp::WIDTHS[3], &device);
        Box::new(move || {
            let loss = mlp::cross_entropy(model.forward(x.clone()), targets.clone());
            match pass {
                Pass::Forward | Pass::ForwardAutodiff => vec![loss.into_data()],
                Pass::ForwardBackward => {
                    let grads = loss.backward();
                    let mut out = model.grads_to_host(&grads);
                    out.push(loss.into_data());
                    out
                }
            }
        })
    })
}

/// Forward, loss, backward and an Adam step (defaults, lr [`mlp::LR`]) per
/// iteration, ending with the loss in host memory. The model and Adam's
/// moments carry over from one iteration to the next, as in training; the
/// flops are those of `mlp_forward_backward` (Adam's work is element-wise).
fn mlp_train_step(name: &'static str) -> Workload {
    let flops = Mlp::forward_flops(&mlp::WIDTHS, mlp::BATCH)
        + Mlp::backward_flops(&mlp::WIDTHS, mlp::BATCH);
    Workload::new(name, Kind::Model, flops, move |device| {
        let device = device.clone().autodiff();
        // An `Option` so the step can take the model by value (the update
        // may then reuse the parameters' buffers) and put the new one back.
        let mut model = Some(Mlp::new(&mlp::WIDTHS, &device));
        let mut optimizer = AdamConfig::new().init();
        let x = uniform([mlp::BATCH, mlp::WIDTHS[0]], &device);
        let targets = mlp::targets(mlp::BATCH, mlp::WIDTHS[3], &device);
        Box::new(move || {
            let current = model
                .take()
                .expect("the model is put back after every step");
            let (next, loss) = mlp::train_step(current, &mut optimizer, x.clone(), targets.clone());
            model = Some(next);
            vec![loss]
        })
    })
}

/// Every workload of the suite, in the order of the issue.
pub fn all() -> Vec<Workload> {
    const N: usize = 4096;
    let elements = N * N;
    vec![
        matmul_square("matmul_f32_256", 256, DType::F32),
        matmul_square("matmul_f32_1024", 1024, DType::F32),
        matmul_square("matmul_f32_2048", 2048, DType::F32),
        matmul_square("matmul_f32_4096", 4096, DType::F32),
        matmul_batched("matmul_f32_batched_64x128", 64, 128),
        conv2d_3x3("conv2d_f32_b16_c64_56x56_k3", 16, 64, 56),
        matmul_square("matmul_f16_1024", 1024, DType::F16),
        matmul_square("matmul_bf16_1024", 1024, DType::BF16),
        unary_2d("chain_f32_4096x4096", N, chain_bytes(elements), chain),
        // Softmax must read the input and write the output at least once.
        unary_2d(
            "softmax_last_f32_4096x4096",
            N,
            (2 * 4 * elements) as f64,
            softmax_last,
        ),
        // One read and one write of the tensor: the bound of every fused
        // block over it, beside the fused softmax, layer norm and chains.
        unary_2d("one_pass_f32_4096x4096", N, pass_bytes(elements), one_pass),
        unary_2d("chain5_f32_4096x4096", N, pass_bytes(elements), chain5),
        masked_softmax_2d("masked_softmax_f32_4096x4096", N, false),
        layer_norm_2d("layer_norm_f32_4096x4096", N, false),
        unary_2d(
            "gelu_tanh_f32_4096x4096",
            N,
            pass_bytes(elements),
            gelu_tanh,
        ),
        unary_2d(
            "sum_dim_last_f32_4096x4096",
            N,
            (4 * elements + 4 * N) as f64,
            sum_last,
        ),
        matvec("matvec_f32_1x4096x4096", N, N, None),
        matvec(
            "matvec_q8_b32_1x4096x4096",
            N,
            N,
            Some(blocks_of_32(QuantValue::Q8S, QuantStore::Native)),
        ),
        matvec(
            "matvec_q4_b32_1x4096x4096",
            N,
            N,
            Some(blocks_of_32(QuantValue::Q4S, QuantStore::PackedU32(0))),
        ),
        add_tiny("add_f32_8x8", false),
        add_tiny("add_f32_8x8_autodiff", true),
        add_tiny_router("add_f32_8x8_router"),
        add_tiny_capture("add_f32_8x8_capture_x100"),
        mlp_step("mlp_forward", Pass::Forward),
        mlp_step("mlp_forward_autodiff", Pass::ForwardAutodiff),
        mlp_step("mlp_forward_backward", Pass::ForwardBackward),
        mlp_train_step("mlp_train_step"),
    ]
}

// ------------------------------------------------------------ GPU sizes

/// A GPU iteration ends when the device has finished (`Device::sync`), not
/// with the result in host memory: reading 256 MiB back would time PCIe.
fn synced(device: &Device, run: impl Fn() + 'static) -> Runner {
    let device = device.clone();
    Box::new(move || {
        run();
        device.sync();
        Vec::new()
    })
}

fn gpu_matmul(name: &'static str, n: usize, dtype: DType) -> Workload {
    let kind = if dtype == DType::F32 {
        Kind::Matmul
    } else {
        Kind::MatmulHalf
    };
    Workload::new(name, kind, 2.0 * (n as f64).powi(3), move |device| {
        let lhs = uniform([n, n], device).cast(dtype);
        let rhs = uniform([n, n], device).cast(dtype);
        synced(device, move || drop(lhs.clone().matmul(rhs.clone())))
    })
}

/// f32 matmul with TF32 tensor cores allowed for the product only
/// (`set_allow_tf32`, reset after the launch).
#[cfg(any(feature = "cuda-plain", feature = "wgpu-plain"))]
fn gpu_matmul_tf32(name: &'static str, n: usize) -> Workload {
    Workload::new(
        name,
        Kind::MatmulHalf,
        2.0 * (n as f64).powi(3),
        move |device| {
            let lhs = uniform([n, n], device);
            let rhs = uniform([n, n], device);
            synced(device, move || {
                burn::tensor::set_allow_tf32(true);
                drop(lhs.clone().matmul(rhs.clone()));
                burn::tensor::set_allow_tf32(false);
            })
        },
    )
}

fn gpu_unary(name: &'static str, n: usize, bytes: f64, op: fn(Tensor<2>) -> Tensor<2>) -> Workload {
    Workload::new(name, Kind::Memory, bytes, move |device| {
        let x = uniform([n, n], device);
        synced(device, move || drop(op(x.clone())))
    })
}

/// [`gpu_unary`] with [`QUEUED`] launches before each sync: the device's
/// throughput on back-to-back ops (a training loop's case), without the
/// host round trip of one sync per op.
fn gpu_unary_queued(
    name: &'static str,
    n: usize,
    bytes: f64,
    op: fn(Tensor<2>) -> Tensor<2>,
) -> Workload {
    Workload::new(name, Kind::Memory, QUEUED as f64 * bytes, move |device| {
        let x = uniform([n, n], device);
        synced(device, move || {
            for _ in 0..QUEUED {
                drop(op(x.clone()));
            }
        })
    })
}

/// Launches per sync of the `_queued` GPU workloads.
const QUEUED: usize = 8;

fn gpu_conv2d(name: &'static str, batch: usize, channels: usize, size: usize) -> Workload {
    let flops = 2.0 * (batch * channels * size * size * channels * 9) as f64;
    Workload::new(name, Kind::Matmul, flops, move |device| {
        let x = uniform([batch, channels, size, size], device);
        let weight = uniform([channels, channels, 3, 3], device);
        let options = ConvOptions::new([1, 1], [1, 1], [1, 1], 1);
        synced(device, move || {
            drop(conv2d(x.clone(), weight.clone(), None, options))
        })
    })
}

/// The GPU workloads of the issue (`--device cuda|wgpu`): matmul at 4096³
/// and 8192³ in f32 (strict f32, then with TF32 allowed), f16
/// and bf16; the chain on 256M elements; softmax and sum over the last dim
/// of 16384², one op per sync and eight (`_queued`); conv2d at batch 64;
/// the MLP training step.
pub fn gpu() -> Vec<Workload> {
    const N: usize = 16384;
    let elements = N * N;
    #[allow(unused_mut)]
    let mut workloads = vec![
        gpu_matmul("gpu_matmul_f32_4096", 4096, DType::F32),
        gpu_matmul("gpu_matmul_f32_8192", 8192, DType::F32),
        gpu_matmul("gpu_matmul_f16_4096", 4096, DType::F16),
        gpu_matmul("gpu_matmul_f16_8192", 8192, DType::F16),
        gpu_matmul("gpu_matmul_bf16_4096", 4096, DType::BF16),
        gpu_matmul("gpu_matmul_bf16_8192", 8192, DType::BF16),
        gpu_unary("gpu_chain_f32_16384x16384", N, chain_bytes(elements), chain),
        // The fusion targets: the five-op chain on 16M values, GELU (tanh
        // form) on 256M, beside one pass over the 256M (bytes: one read and
        // one write, so GB/s compare with the pass directly).
        gpu_unary(
            "gpu_chain5_f32_4096x4096",
            4096,
            pass_bytes(4096 * 4096),
            chain5,
        ),
        gpu_unary(
            "gpu_gelu_tanh_f32_16384x16384",
            N,
            pass_bytes(elements),
            gelu_tanh,
        ),
        gpu_unary(
            "gpu_one_pass_f32_16384x16384",
            N,
            pass_bytes(elements),
            one_pass,
        ),
        gpu_unary(
            "gpu_softmax_last_f32_16384x16384",
            N,
            (2 * 4 * elements) as f64,
            softmax_last,
        ),
        masked_softmax_2d("gpu_masked_softmax_f32_16384x16384", N, true),
        layer_norm_2d("gpu_layer_norm_f32_16384x16384", N, true),
        gpu_unary(
            "gpu_sum_dim_last_f32_16384x16384",
            N,
            (4 * elements + 4 * N) as f64,
            sum_last,
        ),
        gpu_unary_queued(
            "gpu_softmax_last_f32_16384x16384_queued",
            N,
            (2 * 4 * elements) as f64,
            softmax_last,
        ),
        gpu_unary_queued(
            "gpu_sum_dim_last_f32_16384x16384_queued",
            N,
            (4 * elements + 4 * N) as f64,
            sum_last,
        ),
        gpu_conv2d("gpu_conv2d_f32_b64_c64_56x56_k3", 64, 64, 56),
        mlp_train_step("gpu_mlp_train_step"),
    ];
    #[cfg(any(feature = "cuda-plain", feature = "wgpu-plain"))]
    workloads.splice(
        2..2,
        [
            gpu_matmul_tf32("gpu_matmul_tf32_4096", 4096),
            gpu_matmul_tf32("gpu_matmul_tf32_8192", 8192),
        ],
    );
    workloads
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(t: Tensor<2>) -> Vec<f32> {
        t.into_data().to_vec::<f32>().unwrap()
    }

    #[test]
    fn chain_matches_hand_values() {
        let x = Tensor::<2>::from_data([[0.0, -0.5]], &Device::flex());
        // x = 0: tanh(e^1) = tanh(2.718281828) = 0.991328916
        // x = -0.5: tanh(e^0) = tanh(1) = 0.761594156
        let got = values(chain(x));
        assert!((got[0] - 0.991_328_9).abs() < 1e-6, "{got:?}");
        assert!((got[1] - 0.761_594_2).abs() < 1e-6, "{got:?}");
    }

    #[test]
    fn chain5_and_gelu_tanh_match_hand_values() {
        let x = Tensor::<2>::from_data([[0.0, -1.5]], &Device::flex());
        // 0.5 · tanh(e^1) and 0.5 · tanh(e^-2).
        let got = values(chain5(x));
        assert!((got[0] - 0.495_664_5).abs() < 1e-6, "{got:?}");
        assert!((got[1] - 0.067_257_5).abs() < 1e-6, "{got:?}");
        // 0.5 · x · (1 + tanh(√(2/π) · (x + 0.044715 x³))) at 1 and -2.
        let x = Tensor::<2>::from_data([[1.0, -2.0]], &Device::flex());
        let got = values(gelu_tanh(x));
        assert!((got[0] - 0.841_192).abs() < 1e-6, "{got:?}");
        assert!((got[1] + 0.045_402_3).abs() < 1e-6, "{got:?}");
        let x = Tensor::<2>::from_data([[3.5, -0.25]], &Device::flex());
        assert_eq!(values(one_pass(x)), vec![3.5, -0.25]);
    }

    #[test]
    fn softmax_last_normalises_each_row() {
        let x = Tensor::<2>::from_data([[0.0, 0.0], [0.0, 2f32.ln()]], &Device::flex());
        // Row 2: e^0 : e^ln2 = 1 : 2.
        let got = values(softmax_last(x));
        let want = [0.5, 0.5, 1.0 / 3.0, 2.0 / 3.0];
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 1e-6, "{got:?}");
        }
    }

    #[test]
    fn sum_last_keeps_the_reduced_dim() {
        let x = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &Device::flex());
        let out = sum_last(x);
        assert_eq!(out.dims(), [2, 1]);
        assert_eq!(values(out), vec![6.0, 15.0]);
    }

    #[test]
    fn chain_bytes_follow_the_stream_definition() {
        // 4096² f32 is 64 MiB; four ops each read and write it: 512 MiB.
        assert_eq!(chain_bytes(4096 * 4096), (512u64 << 20) as f64);
    }

    #[test]
    fn names_are_unique_and_all_in_the_pytorch_script() {
        let script = include_str!("../pytorch/bench.py");
        let mut list = all();
        list.extend(gpu());
        for (i, w) in list.iter().enumerate() {
            assert!(
                list[..i].iter().all(|o| o.name != w.name),
                "duplicate {}",
                w.name
            );
            assert!(
                script.contains(&format!("\"{}\"", w.name)),
                "{} missing from pytorch/bench.py",
                w.name
            );
        }
    }

    #[test]
    fn small_runners_return_host_data() {
        let device = Device::flex();
        let mut runner = matmul_square("m", 4, DType::F32).setup(&device);
        assert_eq!(runner()[0].num_elements(), 16);
        let mut runner = add_tiny("a", true).setup(&device);
        assert_eq!(runner()[0].num_elements(), 64);
        let mut runner = add_tiny_router("r").setup(&device);
        assert_eq!(runner()[0].num_elements(), 64);
        let mut runner = add_tiny_capture("c").setup(&device);
        assert!(runner().is_empty());
    }

    #[test]
    fn train_step_runner_carries_the_model_across_iterations() {
        // On one fixed batch a small Adam step lowers the loss each time;
        // a runner that rebuilt or failed to keep the model would repeat it.
        let mut runner = mlp_train_step("t").setup(&Device::flex());
        let losses: Vec<f32> = (0..3)
            .map(|_| {
                let out = runner();
                assert_eq!(out.len(), 1);
                out[0].to_vec::<f32>().unwrap()[0]
            })
            .collect();
        assert!(losses.windows(2).all(|w| w[1] < w[0]), "{losses:?}");
    }
}
