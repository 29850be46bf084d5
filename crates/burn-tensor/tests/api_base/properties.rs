//! Property tests of the tensor API on hostile input: random shapes with
//! zero-sized dims, size-1 broadcasts, dims whose products overflow,
//! negative and out-of-range dims, mismatched shapes and dtypes.
//!
//! Each property computes its expectation with a scalar reference (`u128`
//! sizes, `f64` values) and asserts that the call either returns exactly
//! that result or fails with an error (an `Err` of a `try_*` form, or a
//! panic) whose message names the op. Nothing may abort, and no call may
//! return a tensor of the wrong shape.
//!
//! `PROPTEST_CASES` sets the cases per property (default 64, for CI);
//! `PROPTEST_RNG_SEED` fixes the seed, e.g. for a long local run:
//! `PROPTEST_CASES=250000 PROPTEST_RNG_SEED=26 cargo test --release -p burn-tensor --features flex --test api_base properties`.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;

use burn_tensor::{DType, Device, Int, Shape, Tensor, TensorData, TensorError};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

fn dev() -> Device {
    Device::flex()
}

const DEFAULT_CASES: u32 = 64;

fn runner() -> TestRunner {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_CASES);
    silence_expected_panics();
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    })
}

thread_local! {
    /// Set while [`outcome`] runs a call that may panic on purpose.
    static EXPECTING_PANIC: Cell<bool> = const { Cell::new(false) };
}

/// The properties provoke thousands of panics on purpose; printing each
/// would drown the output. Only panics inside [`outcome`] are kept quiet;
/// every other panic (a failed property included) goes to the previous hook.
fn silence_expected_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !EXPECTING_PANIC.with(Cell::get) {
                previous(info);
            }
        }));
    });
}

/// What a call did: its value, or the message it failed with.
fn outcome<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    EXPECTING_PANIC.with(|e| e.set(true));
    let result = catch_unwind(AssertUnwindSafe(f));
    EXPECTING_PANIC.with(|e| e.set(false));
    result.map_err(|payload| {
        if let Some(s) = payload.downcast_ref::<String>() {
            s.clone()
        } else if let Some(s) = payload.downcast_ref::<&str>() {
            s.to_string()
        } else {
            "<no message>".to_string()
        }
    })
}

/// Flattens a `try_*` result run under [`outcome`]: an `Err` and a panic
/// both become the message.
fn flatten<T>(r: Result<Result<T, TensorError>, String>) -> Result<T, String> {
    match r {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(e.to_string()),
        Err(msg) => Err(msg),
    }
}

fn check_fails(op: &str, r: &Result<impl Sized, String>) -> Result<(), TestCaseError> {
    match r {
        Ok(_) => Err(TestCaseError::fail(format!(
            "{op}: expected an error, got a value"
        ))),
        Err(msg) if msg.starts_with(&format!("{op}: ")) => Ok(()),
        Err(msg) => Err(TestCaseError::fail(format!(
            "{op}: message does not name the op: {msg}"
        ))),
    }
}

fn product(dims: &[usize]) -> u128 {
    dims.iter()
        .fold(1u128, |acc, &d| acc.saturating_mul(d as u128))
}

const LIMIT: u128 = isize::MAX as u128;

/// Mostly small dims (0 and 1 often), sometimes a dim of 2^40..2^63 that
/// makes any shape without a 0 impossible to allocate or to count.
fn dim() -> impl Strategy<Value = usize> {
    prop_oneof![
        3 => Just(0usize),
        3 => Just(1usize),
        6 => 2usize..=4,
        2 => (40u32..=63).prop_map(|k| 1usize << k),
    ]
}

fn small_dim() -> impl Strategy<Value = usize> {
    prop_oneof![1 => Just(0usize), 2 => Just(1usize), 4 => 2usize..=4]
}

fn float_dtype() -> impl Strategy<Value = DType> {
    prop_oneof![
        Just(DType::F32),
        Just(DType::F64),
        Just(DType::F16),
        Just(DType::BF16)
    ]
}

fn int_dtype() -> impl Strategy<Value = DType> {
    prop_oneof![
        Just(DType::I64),
        Just(DType::I32),
        Just(DType::I16),
        Just(DType::I8),
        Just(DType::U8),
        Just(DType::U32)
    ]
}

/// `0, 1, .., n-1` as a float tensor of `dims` (values exact in f32).
fn iota(dims: [usize; 3]) -> (Tensor<3>, Vec<f64>) {
    let n = dims.iter().product::<usize>();
    let values: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let reference = values.iter().map(|&v| v as f64).collect();
    (
        Tensor::from_data(TensorData::new(values, dims), &dev()),
        reference,
    )
}

fn values(t: Tensor<3>) -> Vec<f64> {
    t.into_data().iter::<f64>().collect()
}

/// Creation of any size: a correct tensor, or the size error of the
/// first limit the shape breaks (elements, bytes, memory).
#[test]
fn creation_of_any_shape() {
    let strategy = (
        prop::collection::vec(dim(), 3),
        prop_oneof![float_dtype(), int_dtype()],
        0u8..3,
    );
    runner()
        .run(&strategy, |(dims, dtype, which)| {
            let dims: [usize; 3] = dims.try_into().unwrap();
            let (op, value) = match which {
                0 => ("zeros", 0.0),
                1 => ("ones", 1.0),
                _ => ("full", 3.0),
            };
            let options = (&dev(), dtype);
            let result = flatten(outcome(|| match (dtype.is_float(), which) {
                (true, 0) => Tensor::<3>::try_zeros(dims, options).map(|t| t.into_data()),
                (true, 1) => Tensor::<3>::try_ones(dims, options).map(|t| t.into_data()),
                (true, _) => Tensor::<3>::try_full(dims, value, options).map(|t| t.into_data()),
                (false, 0) => Tensor::<3, Int>::try_zeros(dims, options).map(|t| t.into_data()),
                (false, 1) => Tensor::<3, Int>::try_ones(dims, options).map(|t| t.into_data()),
                (false, _) => {
                    Tensor::<3, Int>::try_full(dims, value as i64, options).map(|t| t.into_data())
                }
            }));
            let elements = if dims.contains(&0) { 0 } else { product(&dims) };
            let bytes = elements.saturating_mul(dtype.size() as u128);
            if elements == 0 || bytes < 1 << 30 {
                let data = result.map_err(TestCaseError::fail)?;
                prop_assert_eq!(&data.shape, &Shape::new(dims));
                prop_assert_eq!(data.dtype, dtype);
                prop_assert_eq!(data.bytes.len() as u128, bytes);
                prop_assert!(data.iter::<f64>().all(|v| v == value));
            } else {
                let expected = if elements > LIMIT {
                    "has more elements than fit in isize"
                } else if bytes > LIMIT {
                    "needs more bytes than fit in isize"
                } else {
                    "cannot allocate"
                };
                // The overflow checks are the API's, before any backend. An
                // allocation is the backend's: Fusion queues the op and
                // allocates when the read runs the queue, so the read fails.
                let fails_at = if expected == "cannot allocate" && cfg!(feature = "fusion") {
                    "into_data"
                } else {
                    op
                };
                check_fails(fails_at, &result)?;
                let msg = result.unwrap_err();
                prop_assert!(msg.contains(expected), "{}", msg);
                prop_assert!(msg.contains(&Shape::new(dims).to_string()), "{}", msg);
            }
            Ok(())
        })
        .unwrap();
}

/// The shape `reshape` should resolve `spec` to for an input of `from`, or
/// `None` when it must fail (the rules of `Tensor::reshape`).
fn reference_reshape(from: &[usize; 3], spec: &[i64; 3]) -> Option<[usize; 3]> {
    let mut out = [0u128; 3];
    let mut inferred = None;
    for (i, &d) in spec.iter().enumerate() {
        out[i] = match d {
            -1 if inferred.is_some() => return None,
            -1 => {
                inferred = Some(i);
                1
            }
            0 => from[i] as u128,
            d if d < 0 => return None,
            d => d as u128,
        };
    }
    let total = product(from);
    if let Some(i) = inferred {
        let known: u128 = out.iter().product();
        if known == 0 || known > LIMIT || !total.is_multiple_of(known) {
            return None;
        }
        out[i] = total / known;
    }
    let n: u128 = out.iter().fold(1u128, |a, &b| a.saturating_mul(b));
    let n = if out.contains(&0) { 0 } else { n };
    if n > LIMIT || n != total {
        return None;
    }
    Some(out.map(|d| d as usize))
}

/// Reshape with `-1`, `0`, negative and overflowing targets.
#[test]
fn reshape_to_any_target() {
    let target = prop_oneof![
        4 => -2i64..=6,
        1 => (40u32..=62).prop_map(|k| 1i64 << k),
    ];
    let strategy = (
        prop::collection::vec(small_dim(), 3),
        prop::collection::vec(target, 3),
        any::<bool>(),
    );
    runner()
        .run(&strategy, |(from, spec, strided)| {
            let from: [usize; 3] = from.try_into().unwrap();
            let spec: [i64; 3] = spec.try_into().unwrap();
            let (x, mut reference) = iota(from);
            // A permuted input cannot be reshaped as a view: Flex copies it.
            let x = if strided {
                let y = x.swap_dims(0, 2);
                reference = values(y.clone());
                y
            } else {
                x
            };
            let from_dims = x.dims();
            let result = flatten(outcome(|| x.try_reshape(spec)));
            match reference_reshape(&from_dims, &spec) {
                Some(dims) => {
                    let y = result.map_err(TestCaseError::fail)?;
                    prop_assert_eq!(y.dims(), dims);
                    prop_assert_eq!(values(y), reference);
                }
                None => check_fails("reshape", &result)?,
            }
            Ok(())
        })
        .unwrap();
}

/// Batched matmul with size-1 batch broadcasts, zero-sized dims and
/// mismatched inner dims, against an `f64` triple loop.
#[test]
fn matmul_of_any_shapes() {
    let strategy = (
        prop::collection::vec(small_dim(), 3),
        prop::collection::vec(small_dim(), 3),
        any::<bool>(),
    );
    runner()
        .run(&strategy, |(l, r, same_k)| {
            let (b1, m, k) = (l[0], l[1], l[2]);
            let (b2, k2, n) = (r[0], if same_k { k } else { r[1] }, r[2]);
            let (a, av) = iota([b1, m, k]);
            let (b, bv) = iota([b2, k2, n]);
            let result = flatten(outcome(|| a.try_matmul(b)));
            let batch = if b1 == b2 || b2 == 1 {
                Some(b1)
            } else if b1 == 1 {
                Some(b2)
            } else {
                None
            };
            match batch {
                Some(batch) if k == k2 => {
                    let y = result.map_err(TestCaseError::fail)?;
                    prop_assert_eq!(y.dims(), [batch, m, n]);
                    let mut expected = vec![0.0f64; batch * m * n];
                    for bi in 0..batch {
                        let (ba, bb) = (if b1 == 1 { 0 } else { bi }, if b2 == 1 { 0 } else { bi });
                        for i in 0..m {
                            for j in 0..n {
                                expected[(bi * m + i) * n + j] = (0..k)
                                    .map(|p| av[(ba * m + i) * k + p] * bv[(bb * k + p) * n + j])
                                    .sum();
                            }
                        }
                    }
                    prop_assert_eq!(values(y), expected);
                }
                _ => check_fails("matmul", &result)?,
            }
            Ok(())
        })
        .unwrap();
}

/// Concatenation of 0..=3 tensors along a dim that may be out of range,
/// with shapes that may differ outside it.
#[test]
fn cat_of_any_tensors() {
    let strategy = (
        prop::collection::vec((small_dim(), small_dim()), 0..=3),
        0usize..=2,
    );
    runner()
        .run(&strategy, |(shapes, dim)| {
            let tensors: Vec<(Tensor<3>, Vec<f64>)> =
                shapes.iter().map(|&(a, b)| iota([2, a, b])).collect();
            let result = flatten(outcome(|| {
                Tensor::try_cat(tensors.iter().map(|(t, _)| t.clone()).collect(), dim)
            }));
            let rank_ok = dim < 3;
            let same = shapes
                .windows(2)
                .all(|w| (dim == 1 || w[0].0 == w[1].0) && (dim == 2 || w[0].1 == w[1].1));
            if shapes.is_empty() || !rank_ok || !same {
                return check_fails("cat", &result);
            }
            let y = result.map_err(TestCaseError::fail)?;
            // Reference: concatenate the row-major blocks.
            let mut dims = [2, shapes[0].0, shapes[0].1];
            dims[dim] = match dim {
                0 => 2 * shapes.len(),
                1 => shapes.iter().map(|s| s.0).sum(),
                _ => shapes.iter().map(|s| s.1).sum(),
            };
            prop_assert_eq!(y.dims(), dims);
            let outer: usize = dims[..dim].iter().product();
            let mut expected = Vec::new();
            for o in 0..outer {
                for (t, v) in &tensors {
                    let block: usize = t.dims()[dim..].iter().product();
                    expected.extend_from_slice(&v[o * block..(o + 1) * block]);
                }
            }
            prop_assert_eq!(values(y), expected);
            Ok(())
        })
        .unwrap();
}

/// Broadcasting add with size-1 dims, zero dims, incompatible dims and
/// mismatched float dtypes.
#[test]
fn broadcast_add_of_any_shapes() {
    let strategy = (
        prop::collection::vec(small_dim(), 3),
        prop::collection::vec(small_dim(), 3),
        float_dtype(),
        float_dtype(),
    );
    runner()
        .run(&strategy, |(l, r, dl, dr)| {
            let (l, r): ([usize; 3], [usize; 3]) = (l.try_into().unwrap(), r.try_into().unwrap());
            let (a, av) = iota(l);
            let (b, bv) = iota(r);
            let (a, b) = (a.cast(dl), b.cast(dr));
            let result = outcome(|| a + b);
            let out: Option<Vec<usize>> = (0..3)
                .map(|i| match (l[i], r[i]) {
                    (x, y) if x == y || y == 1 => Some(x),
                    (1, y) => Some(y),
                    _ => None,
                })
                .collect();
            match out {
                Some(out) if dl == dr => {
                    let y = result.map_err(TestCaseError::fail)?;
                    prop_assert_eq!(y.dims().to_vec(), out.clone());
                    let idx = |d: &[usize; 3], i: usize, j: usize, k: usize| {
                        let at = |n: usize, x: usize| if n == 1 { 0 } else { x };
                        (at(d[0], i) * d[1] + at(d[1], j)) * d[2] + at(d[2], k)
                    };
                    let mut expected = Vec::new();
                    for i in 0..out[0] {
                        for j in 0..out[1] {
                            for k in 0..out[2] {
                                expected.push(av[idx(&l, i, j, k)] + bv[idx(&r, i, j, k)]);
                            }
                        }
                    }
                    let got = values(y);
                    // f16/bf16 round the integer values above 256.
                    let exact = dl == DType::F32 || dl == DType::F64;
                    for (g, e) in got.iter().zip(&expected) {
                        prop_assert!(exact && g == e || !exact && (g - e).abs() <= e.abs() / 64.0);
                    }
                    prop_assert_eq!(got.len(), expected.len());
                }
                // Different dtypes may be refused (or promoted); a refusal names the op.
                Some(out) => match result {
                    Ok(y) => prop_assert_eq!(y.dims().to_vec(), out),
                    Err(msg) => prop_assert!(msg.starts_with("add: "), "{}", msg),
                },
                None => check_fails("add", &result)?,
            }
            Ok(())
        })
        .unwrap();
}

/// `narrow` and `swap_dims` with negative and out-of-range dims and
/// indices.
#[test]
fn indices_and_dims_out_of_range() {
    let strategy = (
        prop::collection::vec(small_dim(), 3),
        -4isize..=4,
        -4isize..=4,
        0usize..=5,
        0usize..=5,
    );
    runner()
        .run(&strategy, |(dims, d1, d2, start, len)| {
            let dims: [usize; 3] = dims.try_into().unwrap();
            let (x, xv) = iota(dims);
            let wrap = |d: isize| (-3..3).contains(&d).then(|| d.rem_euclid(3) as usize);

            let swapped = outcome(|| x.clone().swap_dims(d1, d2));
            match (wrap(d1), wrap(d2)) {
                (Some(a), Some(b)) => {
                    let y = swapped.map_err(TestCaseError::fail)?;
                    let mut expected = dims;
                    expected.swap(a, b);
                    prop_assert_eq!(y.dims(), expected);
                }
                _ => check_fails("swap_dims", &swapped)?,
            }

            let dim = d1.unsigned_abs();
            let narrowed = outcome(|| x.clone().narrow(dim, start, len));
            if dim < 3 && start + len <= dims[dim] {
                let y = narrowed.map_err(TestCaseError::fail)?;
                let mut expected_dims = dims;
                expected_dims[dim] = len;
                prop_assert_eq!(y.dims(), expected_dims);
                let mut expected = Vec::new();
                for (flat, &v) in xv.iter().enumerate() {
                    let pos = [
                        flat / (dims[1] * dims[2]),
                        flat / dims[2] % dims[1],
                        flat % dims[2],
                    ];
                    if (start..start + len).contains(&pos[dim]) {
                        expected.push(v);
                    }
                }
                prop_assert_eq!(values(y), expected);
            } else {
                check_fails("narrow", &narrowed)?;
            }
            Ok(())
        })
        .unwrap();
}
