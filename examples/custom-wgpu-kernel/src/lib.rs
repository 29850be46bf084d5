//! A row-wise softmax as a backend extension whose kernel is hand-written
//! WGSL (the `template` feature): one workgroup per row, each invocation
//! striding over the row with a running max and sum, then a tree reduction
//! of those pairs in workgroup shared memory (`var<workgroup>`), then one
//! more pass writing `exp(x − max) / sum`. It is not element-wise: the
//! invocations of a workgroup cooperate through shared memory and barriers,
//! which a `#[cube]` kernel can do too, but here the shader is handed to
//! wgpu as written.
//!
//! - [`SOFTMAX_WGSL`]: the shader, with `{{ workgroup }}` as its template
//!   parameter (a power of two, chosen from the row length).
//! - [`RowSoftmaxBackend`]: the trait, registered lazily under Fusion, and
//!   its implementation for Cube, which launches the shader through
//!   `launch_source`.
//! - [`softmax_last_dim`]: the function users call.
//! - [`check`]: the kernel against `burn::tensor::activation::softmax` on a
//!   device, over shapes whose rows are shorter and longer than a workgroup.

use burn::backend::template::{KernelSource, SourceArgs, SourceLanguage, SourceTemplate};
use burn::backend::tensor::FloatTensor;
use burn::backend::{
    ActivationOps, Cube, CubeLaunch, CubeTensor, Dispatch, TensorMetadata, backend_extension,
};
use burn::cubecl::prelude::{ComputeClient, CubeCount, CubeDim, Runtime};
use burn::tensor::{DType, Device, Distribution, Tensor, activation};

// ANCHOR: source
/// The shader. Bindings: the input, the output, then the scalars (`rows`,
/// `cols`, the input's offset in its buffer), every one `read_write`: the
/// runtime places tensors inside shared device buffers, and wgpu refuses a
/// buffer bound read-only and writable in one dispatch.
///
/// The running (max, sum) pairs make it two reads of the row, not three (a
/// max pass, a sum pass, an output pass): when an invocation's max grows
/// from `m` to `m'`, its sum is rescaled by `exp(m − m')`, and the tree
/// combines pairs the same way.
pub const SOFTMAX_WGSL: &str = r#"
@group(0) @binding(0) var<storage, read_write> input: array<f32>;
@group(0) @binding(1) var<storage, read_write> output: array<f32>;
@group(0) @binding(2) var<storage, read_write> scalars: array<u32>;

const WORKGROUP: u32 = {{ workgroup }}u;
// The lowest finite f32, not -inf: exp(LOWEST - LOWEST) is 1 (times a sum
// of 0), where exp(-inf - -inf) would be NaN.
const LOWEST: f32 = -3.40282347e38;

var<workgroup> maxes: array<f32, {{ workgroup }}>;
var<workgroup> sums: array<f32, {{ workgroup }}>;

@compute @workgroup_size({{ workgroup }}, 1, 1)
fn main(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) tid: u32,
) {
    let rows = scalars[0];
    let cols = scalars[1];
    // The grid is a rectangle of at least `rows` workgroups (a dimension
    // holds at most 65535): those past the last row take an empty row
    // rather than return, since every invocation must reach the barriers.
    let row = group.y * groups.x + group.x;
    let len = select(0u, cols, row < rows);
    let base = scalars[2] + row * cols;

    // Pass 1: this invocation's elements tid, tid + WORKGROUP, ...
    var m = LOWEST;
    var s = 0.0;
    for (var i = tid; i < len; i += WORKGROUP) {
        let x = input[base + i];
        let next = max(m, x);
        s = s * exp(m - next) + exp(x - next);
        m = next;
    }
    maxes[tid] = m;
    sums[tid] = s;
    workgroupBarrier();

    // The tree: log2(WORKGROUP) halvings, a barrier after each.
    for (var half = WORKGROUP / 2u; half > 0u; half = half / 2u) {
        if (tid < half) {
            let a = maxes[tid];
            let b = maxes[tid + half];
            let top = max(a, b);
            sums[tid] = sums[tid] * exp(a - top) + sums[tid + half] * exp(b - top);
            maxes[tid] = top;
        }
        workgroupBarrier();
    }
    let row_max = maxes[0];
    let scale = 1.0 / sums[0];

    // Pass 2: the output, contiguous from 0.
    for (var i = tid; i < len; i += WORKGROUP) {
        output[row * cols + i] = exp(input[base + i] - row_max) * scale;
    }
}
"#;

/// The shader for one workgroup size. Each size is its own compiled
/// kernel (the completed text is the cache key), so only a few are used.
struct RowSoftmax {
    workgroup: u32,
}

impl KernelSource for RowSoftmax {
    fn language(&self) -> SourceLanguage {
        SourceLanguage::Wgsl
    }

    fn source(&self) -> SourceTemplate {
        SourceTemplate::new(SOFTMAX_WGSL).register("workgroup", self.workgroup)
    }
}
// ANCHOR_END: source

/// The workgroup for rows of `cols`: a power of two (the tree halves it),
/// at least 32 (a workgroup narrower than the hardware's SIMD width wastes
/// lanes), at most 256, and no wider than the row needs.
pub fn workgroup_for(cols: usize) -> u32 {
    cols.next_power_of_two().clamp(32, 256) as u32
}

// ANCHOR: launch
/// The launch: `rows` workgroups over a 2D grid.
struct Launch<'a> {
    input: &'a CubeTensor,
    output: &'a CubeTensor,
    rows: u32,
    cols: u32,
}

impl CubeLaunch for Launch<'_> {
    type Output = ();

    fn launch<R: Runtime>(self, client: &ComputeClient<R>) {
        let workgroup = workgroup_for(self.cols as usize);
        let x = self.rows.min(65_535);
        let y = self.rows.div_ceil(x);
        let args = SourceArgs::new()
            .tensor(self.input)
            .tensor(self.output)
            .u32(self.rows)
            .u32(self.cols)
            .u32(u32::try_from(self.input.offset()).expect("softmax: offset below 2^32"));
        // SAFETY: workgroup `row < rows` reads `input` at offset + row·cols
        // + i and writes `output` at row·cols + i, for i < cols: inside both
        // buffers (contiguous, of `rows · cols` elements, fewer than 2^32);
        // the others touch no buffer. Every loop is bounded by `cols` or the
        // workgroup size.
        unsafe {
            burn::backend::template::launch_source(
                client,
                RowSoftmax { workgroup },
                CubeCount::Static(x, y, 1),
                CubeDim::new_1d(workgroup),
                args,
            );
        }
    }
}

#[backend_extension(Cube, Fusion)]
pub trait RowSoftmaxBackend: burn::backend::Backend {
    /// Softmax along the last dim, in one hand-written kernel.
    #[fusion(dtype = x, shape = x)]
    fn row_softmax(x: FloatTensor<Self>) -> FloatTensor<Self>;
}

/// Cube: the shader for f32 on WGPU; the backend's own softmax otherwise
/// (other dtypes, or a runtime that does not take WGSL).
impl RowSoftmaxBackend for Cube {
    fn row_softmax(x: CubeTensor) -> CubeTensor {
        let shape = x.shape();
        let last = shape.num_dims() - 1;
        if x.dtype() != DType::F32 || SourceLanguage::of(x.device()) != Some(SourceLanguage::Wgsl) {
            return Self::softmax(x, last);
        }
        let cols = shape.dims[last];
        let elements = shape.num_elements();
        let x = x.into_contiguous();
        let output = x.empty_like(shape, DType::F32);
        if elements == 0 {
            return output;
        }
        let rows = u32::try_from(elements / cols).expect("softmax: fewer than 2^32 rows");
        assert!(
            u32::try_from(elements).is_ok(),
            "softmax: the kernel indexes with u32, {elements} elements is too many"
        );
        x.client().launch(Launch {
            input: &x,
            output: &output,
            rows,
            cols: cols as u32,
        });
        output
    }
}
// ANCHOR_END: launch

// ANCHOR: api
/// Softmax along the last dim of `x`, on the CubeCL backend.
///
/// # Panics
/// If `x` has rank 0, or is on a backend the extension does not list.
pub fn softmax_last_dim<const D: usize>(x: Tensor<D>) -> Tensor<D> {
    assert!(
        D > 0,
        "softmax_last_dim: a tensor of rank 0 has no last dim"
    );
    Tensor::from_dispatch(Dispatch::row_softmax(x.into_dispatch()))
}
// ANCHOR_END: api

/// What [`check`] measured: the shapes compared, and the largest absolute
/// difference from the built-in softmax over all of them.
#[derive(Clone, Debug)]
pub struct Check {
    pub shapes: Vec<Vec<usize>>,
    pub max_diff: f32,
}

/// Why [`check`] failed.
#[derive(Debug)]
pub enum CheckError {
    /// A value outside `|got − want| ≤ ATOL + RTOL·want`.
    Mismatch {
        shape: Vec<usize>,
        index: usize,
        got: f32,
        want: f32,
    },
    /// A result could not be read back from the device.
    Read { shape: Vec<usize>, reason: String },
}

impl std::fmt::Display for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Mismatch {
                shape,
                index,
                got,
                want,
            } => write!(
                f,
                "softmax of {shape:?}: element {index} is {got}, the built-in's {want}"
            ),
            Self::Read { shape, reason } => {
                write!(f, "softmax of {shape:?}: reading back failed: {reason}")
            }
        }
    }
}

impl std::error::Error for CheckError {}

/// The two kernels sum in different orders; values are in [0, 1].
const ATOL: f32 = 1e-6;
const RTOL: f32 = 1e-4;

/// Checks the kernel on `device` (WGPU) against
/// `activation::softmax(x, last)`: a hand-worked row, rows shorter than the
/// smallest workgroup (32) and longer than the largest (256), a rank-3
/// tensor, a transposed (non-contiguous) input, more rows than one grid
/// dimension holds, and logits of ±400, whose
/// `exp` overflows f32 unless the max is subtracted.
///
/// # Errors
/// The first value out of tolerance, or a failed read.
pub fn check(device: &Device) -> Result<Check, CheckError> {
    // Worked by hand: softmax([0, ln 3]) = [1/4, 3/4].
    let x = Tensor::<2>::from_floats([[0.0, 3.0f32.ln()]], device);
    let mut max_diff = compare(softmax_last_dim(x), &[0.25, 0.75])?;
    let mut shapes = vec![vec![1, 2]];

    let uniform = Distribution::Uniform(-5.0, 5.0);
    for [rows, cols] in [[1, 1], [3, 5], [7, 33], [64, 256], [13, 1000], [5, 4099]] {
        let x = Tensor::<2>::random([rows, cols], uniform, device);
        max_diff = max_diff.max(against_builtin(x)?);
        shapes.push(vec![rows, cols]);
    }
    let x = Tensor::<3>::random([2, 3, 17], uniform, device);
    max_diff = max_diff.max(against_builtin(x)?);
    shapes.push(vec![2, 3, 17]);
    // [300, 40] as a transposed view of [40, 300]: rows of stride 1 apart.
    let x = Tensor::<2>::random([40, 300], uniform, device).transpose();
    max_diff = max_diff.max(against_builtin(x)?);
    shapes.push(vec![300, 40]);
    // More rows than a grid dimension holds (65535): a 2D grid, rounded up.
    let x = Tensor::<2>::random([70_000, 3], uniform, device);
    max_diff = max_diff.max(against_builtin(x)?);
    shapes.push(vec![70_000, 3]);
    let x = Tensor::<2>::random([9, 70], Distribution::Uniform(-400.0, 400.0), device);
    max_diff = max_diff.max(against_builtin(x)?);
    shapes.push(vec![9, 70]);
    Ok(Check { shapes, max_diff })
}

fn against_builtin<const D: usize>(x: Tensor<D>) -> Result<f32, CheckError> {
    let want = activation::softmax(x.clone(), D - 1);
    let shape = want.dims().to_vec();
    let want = want
        .try_into_vec_as::<f32>()
        .map_err(|err| CheckError::Read {
            shape,
            reason: err.to_string(),
        })?;
    compare(softmax_last_dim(x), &want)
}

/// The largest `|got − want|`, or the first element out of tolerance.
fn compare<const D: usize>(got: Tensor<D>, want: &[f32]) -> Result<f32, CheckError> {
    let shape = got.dims().to_vec();
    let got = got
        .try_into_vec_as::<f32>()
        .map_err(|err| CheckError::Read {
            shape: shape.clone(),
            reason: err.to_string(),
        })?;
    assert_eq!(
        got.len(),
        want.len(),
        "softmax of {shape:?}: lengths differ"
    );
    let mut max = 0.0f32;
    for (index, (&got, &want)) in got.iter().zip(want).enumerate() {
        let diff = (got - want).abs();
        if diff.is_nan() || diff > ATOL + RTOL * want {
            return Err(CheckError::Mismatch {
                shape,
                index,
                got,
                want,
            });
        }
        max = max.max(diff);
    }
    Ok(max)
}
