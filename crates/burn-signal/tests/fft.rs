//! rfft, irfft, cfft and ifft against NumPy (`reference/fft.json`), round
//! trips, dtype and device preservation, and the bad-input panics.

mod common;

use burn_signal::{cfft, ifft, irfft, rfft};
use burn_tensor::{DType, Tensor};
use common::*;
use serde_json::Value;

/// Runs one recorded case of rank `D`; returns the worst relative error.
fn run_case<const D: usize>(case: &Value) -> f64 {
    let op = case["op"].as_str().unwrap();
    let dtype = dtype_of(case["dtype"].as_str().unwrap());
    let shape = dims(&case["shape"]);
    let dim = case["dim"].as_i64().unwrap();
    let n = case["n"].as_u64().map(|n| n as usize);
    let inputs: Vec<Tensor<D>> = case["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| tensor::<D>(floats(v), &shape, dtype))
        .collect();
    let outputs: Vec<Tensor<D>> = match op {
        "rfft" => {
            let (re, im) = rfft(inputs[0].clone(), dim, n);
            vec![re, im]
        }
        "irfft" => vec![irfft(inputs[0].clone(), inputs[1].clone(), dim, n)],
        "cfft" => {
            let (re, im) = cfft(inputs[0].clone(), inputs[1].clone(), dim, n);
            vec![re, im]
        }
        "ifft" => {
            let (re, im) = ifft(inputs[0].clone(), inputs[1].clone(), dim, n);
            vec![re, im]
        }
        other => panic!("unknown op {other}"),
    };
    let out_shape = dims(&case["out_shape"]);
    let expected = case["outputs"].as_array().unwrap();
    assert_eq!(outputs.len(), expected.len());
    // One scale for the real and imaginary parts: the imaginary part of a
    // real signal's spectrum may be all (rounded) zeros.
    let scale = expected
        .iter()
        .flat_map(floats)
        .fold(0.0f64, |m, v| m.max(v.abs()));
    let mut worst = 0.0f64;
    for (got, want) in outputs.into_iter().zip(expected) {
        let (got_shape, got) = host(got, dtype);
        assert_eq!(
            got_shape, out_shape,
            "{op} {shape:?} dim {dim} n {n:?}: shape"
        );
        let err = abs_err(&got, &floats(want)) / scale;
        assert!(
            err <= bound(dtype),
            "{op} {dtype:?} {shape:?} dim {dim} n {n:?}: relative error {err:e} > {:e}",
            bound(dtype)
        );
        worst = worst.max(err);
    }
    worst
}

/// Every recorded case of `op` in `dtype`; also checks the file has some.
fn check_reference(op: &str, dtype: &str) {
    if !supports(dtype_of(dtype), op) {
        return;
    }
    let reference = reference();
    let mut count = 0;
    let mut worst = 0.0f64;
    for case in reference["fft"].as_array().unwrap() {
        if case["op"] != op || case["dtype"] != dtype {
            continue;
        }
        count += 1;
        let err = match case["shape"].as_array().unwrap().len() {
            1 => run_case::<1>(case),
            2 => run_case::<2>(case),
            3 => run_case::<3>(case),
            rank => panic!("rank {rank} not covered"),
        };
        worst = worst.max(err);
    }
    assert!(count >= 8, "only {count} {op} {dtype} cases in fft.json");
    println!("{op} {dtype}: {count} cases, worst relative error {worst:e}");
}

#[test]
fn rfft_matches_numpy_f64() {
    check_reference("rfft", "f64");
}

#[test]
fn rfft_matches_numpy_f32() {
    check_reference("rfft", "f32");
}

#[test]
fn irfft_matches_numpy_f64() {
    check_reference("irfft", "f64");
}

#[test]
fn irfft_matches_numpy_f32() {
    check_reference("irfft", "f32");
}

#[test]
fn cfft_matches_numpy_f64() {
    check_reference("cfft", "f64");
}

#[test]
fn cfft_matches_numpy_f32() {
    check_reference("cfft", "f32");
}

#[test]
fn ifft_matches_numpy_f64() {
    check_reference("ifft", "f64");
}

#[test]
fn ifft_matches_numpy_f32() {
    check_reference("ifft", "f32");
}

fn ramp(len: usize, phase: f64) -> Vec<f64> {
    (0..len)
        .map(|i| ((i as f64 + phase) * 0.61).sin() + 0.25 * ((i * i) as f64 * 0.013).cos())
        .collect()
}

#[test]
fn irfft_of_rfft_recovers_even_odd_and_prime_lengths() {
    // 8 radix-2, 12 and 1000 mixed, 97 and 1009 Bluestein; odd lengths
    // need n passed to irfft.
    for len in [1usize, 2, 7, 8, 12, 97, 1000, 1009] {
        for dtype in [DType::F64, DType::F32] {
            if !supports(dtype, "irfft of rfft") {
                continue;
            }
            let x = tensor::<1>(ramp(len, 0.0), &[len], dtype);
            let (re, im) = rfft(x.clone(), 0, None);
            let back = irfft(re, im, 0, Some(len));
            let (_, got) = host(back, dtype);
            let (_, want) = host(x, dtype);
            let err = rel_err(&got, &want);
            assert!(err <= bound(dtype), "len {len} {dtype:?}: {err:e}");
        }
    }
}

#[test]
fn ifft_of_cfft_recovers_a_batch_along_dim_0() {
    if !supports(DType::F64, "ifft_of_cfft_recovers_a_batch_along_dim_0") {
        return;
    }
    let shape = [13, 3];
    let re = tensor::<2>(ramp(39, 0.0), &shape, DType::F64);
    let im = tensor::<2>(ramp(39, 5.0), &shape, DType::F64);
    let (fr, fi) = cfft(re.clone(), im.clone(), 0, None);
    assert_eq!(fr.dims(), shape);
    let (br, bi) = ifft(fr, fi, 0, None);
    for (got, want) in [(br, re), (bi, im)] {
        let err = rel_err(&host(got, DType::F64).1, &host(want, DType::F64).1);
        assert!(err <= 1e-14, "{err:e}");
    }
}

#[test]
fn f64_reaches_f64_accuracy_at_a_large_prime_length() {
    if !supports(
        DType::F64,
        "f64_reaches_f64_accuracy_at_a_large_prime_length",
    ) {
        return;
    }
    // A cosine on an exact bin of a prime length: the spectrum is known in
    // closed form (n/2 at bins ±k, zero elsewhere), with no reference file.
    let n = 10_007;
    let k = 1234;
    let x: Vec<f64> = (0..n)
        .map(|j| (2.0 * std::f64::consts::PI * ((j * k) % n) as f64 / n as f64).cos())
        .collect();
    let (re, im) = rfft(tensor::<1>(x, &[n], DType::F64), 0, None);
    let (_, re) = host(re, DType::F64);
    let (_, im) = host(im, DType::F64);
    let mut expected = vec![0.0; n / 2 + 1];
    expected[k] = n as f64 / 2.0;
    let err = rel_err(&re, &expected);
    let im_err = im.iter().fold(0.0f64, |m, v| m.max(v.abs())) / (n as f64 / 2.0);
    assert!(err < 1e-12 && im_err < 1e-12, "re {err:e}, im {im_err:e}");
}

#[test]
fn outputs_keep_the_input_dtype_and_shape() {
    if !supports(DType::F64, "outputs_keep_the_input_dtype_and_shape") {
        return;
    }
    let x = tensor::<3>(ramp(2 * 5 * 3, 0.0), &[2, 5, 3], DType::F64);
    let (re, im) = rfft(x.clone(), 1, Some(9));
    assert_eq!((re.dims(), im.dims()), ([2, 5, 3], [2, 5, 3]));
    assert_eq!((re.dtype(), im.dtype()), (DType::F64, DType::F64));
    let y = irfft(re, im, 1, Some(9));
    assert_eq!(y.dims(), [2, 9, 3]);
    assert_eq!(y.dtype(), DType::F64);
}

#[test]
fn negative_dim_counts_from_the_end() {
    if !supports(DType::F64, "negative_dim_counts_from_the_end") {
        return;
    }
    let x = tensor::<2>(ramp(12, 0.0), &[3, 4], DType::F64);
    let (a, _) = rfft(x.clone(), -1, None);
    let (b, _) = rfft(x, 1, None);
    assert_eq!(host(a, DType::F64), host(b, DType::F64));
}

#[test]
#[should_panic(expected = "rfft: cannot transform an empty tensor of shape [0]")]
fn rfft_rejects_an_empty_tensor() {
    rfft(tensor::<1>(vec![], &[0], DType::F32), 0, None);
}

#[test]
#[should_panic(expected = "cfft: cannot transform an empty tensor of shape [3, 0]")]
fn cfft_rejects_an_empty_batch() {
    let t = tensor::<2>(vec![], &[3, 0], DType::F32);
    cfft(t.clone(), t, 0, None);
}

#[test]
#[should_panic(expected = "rfft: n must be positive (got n = 0 for a tensor of shape [4])")]
fn rfft_rejects_n_zero() {
    rfft(tensor::<1>(vec![1.0; 4], &[4], DType::F32), 0, Some(0));
}

#[test]
#[should_panic(expected = "ifft: dim 2 is out of range for a tensor of shape [2, 2]")]
fn ifft_rejects_a_dim_out_of_range() {
    let t = tensor::<2>(vec![1.0; 4], &[2, 2], DType::F32);
    ifft(t.clone(), t, 2, None);
}

#[test]
#[should_panic(expected = "irfft: real part of shape [3] and imaginary part of shape [4] differ")]
fn irfft_rejects_mismatched_parts() {
    irfft(
        tensor::<1>(vec![1.0; 3], &[3], DType::F32),
        tensor::<1>(vec![1.0; 4], &[4], DType::F32),
        0,
        None,
    );
}

#[test]
#[should_panic(expected = "irfft: a spectrum of shape [1] has 1 bin along dim 0")]
fn irfft_of_one_bin_needs_n() {
    let t = tensor::<1>(vec![1.0], &[1], DType::F32);
    irfft(t.clone(), t, 0, None);
}

#[test]
fn half_precision_is_computed_in_f32_and_returned_in_its_dtype() {
    for dtype in [DType::F16, DType::BF16] {
        if !supports(dtype, "half precision") || !supports(DType::F64, "half precision") {
            continue;
        }
        let x = tensor::<1>(ramp(24, 0.0), &[24], dtype);
        // The reference is the f64 transform of the same (rounded) samples.
        let (_, rounded) = host(x.clone(), dtype);
        let (want_re, want_im) = rfft(tensor::<1>(rounded, &[24], DType::F64), 0, None);
        let (re, im) = rfft(x, 0, None);
        let scale = host(want_re.clone(), DType::F64)
            .1
            .iter()
            .fold(0.0f64, |m, v| m.max(v.abs()));
        // Only the final rounding to the half dtype is lost.
        let tol = if dtype == DType::F16 { 1e-3 } else { 8e-3 };
        for (got, want) in [(re, want_re), (im, want_im)] {
            let err = abs_err(&host(got, dtype).1, &host(want, DType::F64).1) / scale;
            assert!(err <= tol, "{dtype:?}: {err:e}");
        }
    }
}

#[test]
fn try_forms_return_structured_errors() {
    use burn_signal::{SignalError, try_cfft, try_irfft, try_rfft};
    let x = tensor::<2>(vec![1.0; 6], &[2, 3], DType::F32);
    assert_eq!(
        try_rfft(x.clone(), -3, None).err(),
        Some(SignalError::DimOutOfRange {
            op: "rfft",
            dim: -3,
            shape: vec![2, 3]
        })
    );
    assert_eq!(
        try_cfft(x.clone(), x.clone(), 1, Some(0)).err(),
        Some(SignalError::ZeroLength {
            op: "cfft",
            shape: vec![2, 3]
        })
    );
    let one_bin = tensor::<2>(vec![1.0; 2], &[2, 1], DType::F32);
    assert_eq!(
        try_irfft(one_bin.clone(), one_bin, 1, None).err(),
        Some(SignalError::OneBin {
            op: "irfft",
            dim: 1,
            shape: vec![2, 1]
        })
    );
    let (re, im) = try_rfft(x, 1, None).expect("valid input");
    assert_eq!((re.dims(), im.dims()), ([2, 2], [2, 2]));
}

#[test]
fn rfft_of_a_million_and_three_points() {
    if !supports(DType::F64, "rfft_of_a_million_and_three_points") {
        return;
    }
    // The large-prime benchmark length, checked for correctness: a
    // cosine on exact bin k has spectrum n/2 at bin k and 0 elsewhere.
    let n = 1_000_003;
    let k = 250_001;
    let x: Vec<f64> = (0..n)
        .map(|j| (2.0 * std::f64::consts::PI * ((j * k) % n) as f64 / n as f64).cos())
        .collect();
    let (re, im) = rfft(tensor::<1>(x, &[n], DType::F64), 0, None);
    let (_, re) = host(re, DType::F64);
    let (_, im) = host(im, DType::F64);
    let peak = n as f64 / 2.0;
    let mut expected = vec![0.0; n / 2 + 1];
    expected[k] = peak;
    let re_err = abs_err(&re, &expected) / peak;
    let im_err = im.iter().fold(0.0f64, |m, v| m.max(v.abs())) / peak;
    assert!(
        re_err < 1e-12 && im_err < 1e-12,
        "re {re_err:e}, im {im_err:e}"
    );
}

#[test]
fn tracked_inputs_are_refused_not_silently_detached() {
    use burn_signal::{SignalError, try_rfft};
    let device = device().autodiff();
    let x = Tensor::<1>::from_floats([1.0, 2.0, 3.0], &device).require_grad();
    assert_eq!(
        try_rfft(x.clone(), 0, None).err(),
        Some(SignalError::Tracked {
            op: "rfft",
            shape: vec![3]
        })
    );
    // Detached, the same values transform.
    let (re, _) = rfft(x.detach(), 0, None);
    assert_eq!(re.dims(), [2]);
}
