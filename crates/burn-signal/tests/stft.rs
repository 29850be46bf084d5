//! stft against PyTorch (`reference/stft.json`), istft round trips that keep
//! the tail, and the bad-input panics.

mod common;

use burn_signal::{StftOptions, hann_window, istft, stft};
use burn_tensor::{DType, Tensor, TensorData};
use common::*;
use serde_json::Value;

fn stft_reference() -> Value {
    serde_json::from_str(include_str!("reference/stft.json")).expect("stft.json parses")
}

fn options_of(case: &Value) -> StftOptions {
    StftOptions {
        n_fft: case["n_fft"].as_u64().unwrap() as usize,
        hop_length: case["hop"].as_u64().unwrap() as usize,
        win_length: case["win_length"].as_u64().map(|w| w as usize),
        center: case["center"].as_bool().unwrap(),
        onesided: case["onesided"].as_bool().unwrap(),
    }
}

fn window_of(case: &Value, dtype: DType) -> Option<Tensor<1>> {
    case["window"].as_array().map(|_| {
        let w = floats(&case["window"]);
        let len = w.len();
        tensor::<1>(w, &[len], dtype)
    })
}

#[test]
fn stft_matches_pytorch() {
    let reference = stft_reference();
    let cases = reference["stft"].as_array().unwrap();
    assert_eq!(cases.len(), 10);
    for case in cases {
        let dtype = on_device(dtype_of(case["dtype"].as_str().unwrap()));
        let shape = dims(&case["shape"]);
        let options = options_of(case);
        let x = tensor::<2>(floats(&case["input"]), &shape, dtype);
        let spec = stft(x, window_of(case, dtype), options);
        let (got_shape, got) = host(spec, dtype);
        assert_eq!(got_shape, dims(&case["out_shape"]), "{options:?}");
        let err = rel_err(&got, &floats(&case["output"]));
        assert!(
            err <= bound(dtype),
            "{dtype:?} {shape:?} {options:?}: {err:e}"
        );
    }
}

#[test]
fn istft_inverts_every_pytorch_case_with_its_length() {
    // Each recorded configuration, inverted from our own stft: all samples
    // back, also where the length is not a multiple of the hop (301 with
    // hop 8, 50 with hop 5 and a short window, 97 uncentred with prime n_fft
    // where the first sample meets only a window zero and must be refused).
    let reference = stft_reference();
    for case in reference["stft"].as_array().unwrap() {
        let dtype = on_device(dtype_of(case["dtype"].as_str().unwrap()));
        let shape = dims(&case["shape"]);
        let options = options_of(case);
        if !options.center {
            continue; // covered by istft_refuses_samples_no_window_reaches
        }
        let input = floats(&case["input"]);
        let x = tensor::<2>(input.clone(), &shape, dtype);
        let spec = stft(x, window_of(case, dtype), options);
        let back = istft(spec, window_of(case, dtype), Some(shape[1]), options);
        let (got_shape, got) = host(back, dtype);
        assert_eq!(got_shape, shape);
        let err = rel_err(&got, &input);
        assert!(
            err <= bound(dtype),
            "{dtype:?} {shape:?} {options:?}: {err:e}"
        );
    }
}

#[test]
fn istft_without_length_stops_at_the_last_full_hop() {
    if !supports(
        DType::F64,
        "istft_without_length_stops_at_the_last_full_hop",
    ) {
        return;
    }
    let device = device();
    let samples: Vec<f64> = (0..301).map(|i| (0.1 * i as f64).cos()).collect();
    let x = Tensor::<2>::from_data(
        TensorData::new(samples.clone(), [1, 301]),
        (&device, DType::F64),
    );
    let options = StftOptions::new(32);
    let w = hann_window(32, true, (&device, DType::F64));
    let spec = stft(x, Some(w.clone()), options);
    assert_eq!(spec.dims(), [1, 38, 17, 2]); // 1 + 301 / 8 frames
    let back = istft(spec, Some(w), None, options);
    let (shape, got) = host(back, DType::F64);
    assert_eq!(shape, [1, 296]); // hop · (frames − 1), as PyTorch
    assert!(rel_err(&got, &samples[..296]) < 1e-13);
}

#[test]
#[should_panic(expected = "istft: output sample 0 of 97 is reached by no non-zero window value")]
fn istft_refuses_samples_no_window_reaches() {
    // Uncentred with a periodic Hann window: sample 0 meets only w[0] = 0.
    let device = device();
    let options = StftOptions {
        n_fft: 13,
        hop_length: 3,
        win_length: None,
        center: false,
        onesided: true,
    };
    let w = hann_window(13, true, &device);
    let spec = stft(
        Tensor::<2>::ones([1, 97], &device),
        Some(w.clone()),
        options,
    );
    istft(spec, Some(w), Some(97), options);
}

#[test]
#[should_panic(expected = "stft: cannot transform an empty signal of shape [1, 0]")]
fn stft_rejects_an_empty_signal() {
    stft(
        Tensor::<2>::zeros([1, 0], &device()),
        None,
        StftOptions::new(8),
    );
}

#[test]
#[should_panic(expected = "stft: window of shape [8] does not match win_length 16")]
fn stft_rejects_a_window_of_the_wrong_length() {
    let device = device();
    stft(
        Tensor::<2>::zeros([1, 64], &device),
        Some(hann_window(8, true, &device)),
        StftOptions::new(16),
    );
}

#[test]
#[should_panic(
    expected = "stft: reflect padding by n_fft / 2 = 8 needs a longer signal than shape [1, 8]"
)]
fn stft_rejects_a_signal_too_short_to_reflect() {
    stft(
        Tensor::<2>::zeros([1, 8], &device()),
        None,
        StftOptions::new(16),
    );
}

#[test]
#[should_panic(expected = "stft: the input of shape [1, 32] is tracked by autodiff")]
fn stft_refuses_a_tracked_signal() {
    let device = device().autodiff();
    let x = Tensor::<2>::ones([1, 32], &device).require_grad();
    stft(x, None, StftOptions::new(8));
}
