//! Reference values: tests/reference/float_ops.py ("softmax" blocks) up to
//! the dim check, tests/reference/softmax.py (PyTorch) after it.
use crate::common::*;
use burn::tensor::{bf16, f16};

#[test]
fn should_softmax_last_dim() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]], &device);

    let output = activation::softmax(tensor, 1);

    let expected = TensorData::from([
        [0.09003057317038046, 0.24472847105479764, 0.6652409557748218],
        [0.3333333333333333, 0.3333333333333333, 0.3333333333333333],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_softmax_dim0() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 0.0, 3.0]], &device);

    let output = activation::softmax(tensor, 0);

    let expected = TensorData::from([
        [0.04742587317756679, 0.8807970779778823, 0.5],
        [0.9525741268224334, 0.11920292202211755, 0.5],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_softmax_large_values_without_overflow() {
    let device = device();
    let l = large();
    let tensor = Tensor::<2>::from_data([[l, l + 1.0, l + 2.0]], &device);

    let output = activation::softmax(tensor, 1);

    let expected =
        TensorData::from([[0.09003057317038046, 0.24472847105479764, 0.6652409557748218]])
            .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_softmax_transposed_input() {
    let device = device();
    // Transposed, the rows are [1, 4] [2, 0] [3, 3]: the dim-0 case above, rotated.
    let tensor = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 0.0, 3.0]], &device).transpose();

    let output = activation::softmax(tensor, 1);

    let expected = TensorData::from([
        [0.04742587317756679, 0.9525741268224334],
        [0.8807970779778823, 0.11920292202211755],
        [0.5, 0.5],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_softmin_as_softmax_of_negation() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[-1.0, -2.0, -3.0]], &device);

    let output = activation::softmin(tensor, 1);

    let expected =
        TensorData::from([[0.09003057317038046, 0.24472847105479764, 0.6652409557748218]])
            .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "softmax: dim 2 is out of range")]
fn should_panic_when_softmax_dim_out_of_range() {
    let _ = activation::softmax(Tensor::<2>::ones([2, 2], &device()), 2);
}

/// The 3-d input of tests/reference/softmax.py (`X3`).
pub(super) fn x3() -> Tensor<3> {
    Tensor::<3>::from_data(
        [
            [
                [1.0, 2.0, 3.0, 4.0],
                [0.5, -1.0, 2.0, 0.0],
                [3.0, 3.0, 3.0, 3.0],
            ],
            [
                [-2.0, 0.0, 1.5, 1.0],
                [10.0, -10.0, 5.0, 0.25],
                [-0.5, 1.5, -2.5, 0.0],
            ],
        ],
        &device(),
    )
}

/// `INF` of tests/reference/softmax.py: a row with -inf entries, a row of
/// -inf only and a row holding +inf.
pub(super) fn with_infinities() -> Tensor<2> {
    let inf = f32::INFINITY;
    Tensor::<2>::from_data(
        [
            [-inf, 0.0, 1.0, -inf],
            [-inf, -inf, -inf, -inf],
            [inf, 0.0, 1.0, 2.0],
        ],
        &device(),
    )
}

/// `LONG` of tests/reference/softmax.py: two rows of 2001 values, longer
/// than a vector block and not a multiple of any lane count.
pub(super) fn long_rows() -> Tensor<2> {
    let row = |f: fn(usize) -> f32| (0..2001).map(f).collect::<Vec<f32>>();
    let values = [
        row(|i| (i % 17) as f32 * 0.5 - 3.0),
        row(|i| (i % 5) as f32 * -2.0),
    ]
    .concat();
    Tensor::<2>::from_data(TensorData::new(values, [2, 2001]), &device())
}

/// The columns the long-row references keep (`PICK`).
const PICK: [i64; 5] = [0, 1, 16, 1000, 2000];

pub(super) fn picked(t: Tensor<2>) -> Tensor<2> {
    t.select(1, Tensor::<1, Int>::from_data(PICK, &device()))
}

/// Results against float64 references: for f32 (and f64) relative 1e-5,
/// and an absolute bound small enough that probabilities near 1e-9 are
/// checked too; for f16 and bf16, two roundings of their 11 and 8
/// significant bits (the bounds of `should_softmax_half_dtypes_within_one_rounding`).
fn tight() -> Tolerance {
    match <FloatElem as Element>::DTYPE {
        DType::F16 => Tolerance::rel_abs(1e-3, 1e-7),
        DType::BF16 => Tolerance::rel_abs(8e-3, 1e-7),
        _ => Tolerance::rel_abs(1e-5, 1e-12),
    }
}

/// A large value for the overflow tests: 1000 (exp overflows f32 and f64
/// there), or 100 in bf16, which spaces its values 4 apart near 1000 (8
/// significant bits) but holds 100 ± 3 exactly; exp(100) still overflows
/// bf16 (whose largest value is f32's). Softmax is shift-invariant, so the
/// expected values do not change.
pub(super) fn large() -> f64 {
    match <FloatElem as Element>::DTYPE {
        DType::BF16 => 100.0,
        _ => 1000.0,
    }
}

/// `HALF` of tests/reference/softmax.py.
pub(super) fn half_input() -> Tensor<2> {
    Tensor::<2>::from_data([[1.0, 2.0, 3.0, 4.0], [0.1, -0.2, 0.3, 8.0]], &device())
}

#[test]
fn should_softmax_every_dim_of_a_3d_tensor() {
    let expected = [
        TensorData::from([
            [
                [
                    0.9525741268224334,
                    0.8807970779778823,
                    0.8175744761936437,
                    0.9525741268224334,
                ],
                [
                    7.484622751061124e-05,
                    0.9998766054240137,
                    0.04742587317756679,
                    0.4378234991142019,
                ],
                [
                    0.9706877692486436,
                    0.8175744761936437,
                    0.995929862284104,
                    0.9525741268224334,
                ],
            ],
            [
                [
                    0.04742587317756679,
                    0.11920292202211755,
                    0.18242552380635632,
                    0.04742587317756679,
                ],
                [
                    0.9999251537724895,
                    0.00012339457598623172,
                    0.9525741268224334,
                    0.5621765008857981,
                ],
                [
                    0.029312230751356316,
                    0.18242552380635632,
                    0.004070137715896127,
                    0.04742587317756679,
                ],
            ],
        ]),
        TensorData::from([
            [
                [
                    0.11116562230242114,
                    0.26538792877224193,
                    0.4223187982515182,
                    0.7213991842739687,
                ],
                [
                    0.06742535823245292,
                    0.013212886953789414,
                    0.15536240349696362,
                    0.013212886953789414,
                ],
                [
                    0.8214090194651259,
                    0.7213991842739687,
                    0.4223187982515182,
                    0.26538792877224193,
                ],
            ],
            [
                [
                    6.144005419160184e-06,
                    0.18242401295135,
                    0.029296502272748434,
                    0.5434056116997429,
                ],
                [
                    0.9999663204726456,
                    8.282037374981917e-06,
                    0.9701669135709209,
                    0.25668663553872995,
                ],
                [
                    2.753552193514804e-05,
                    0.817567705011275,
                    0.0005365841563306405,
                    0.19990775276152717,
                ],
            ],
        ]),
        TensorData::from([
            [
                [
                    0.03205860328008499,
                    0.08714431874203257,
                    0.23688281808991016,
                    0.6439142598879724,
                ],
                [
                    0.15844470951497974,
                    0.035353793408748876,
                    0.7100999228861743,
                    0.09610157419009724,
                ],
                [0.25, 0.25, 0.25, 0.25],
            ],
            [
                [
                    0.01623639015544746,
                    0.11997159770272661,
                    0.5376753981753052,
                    0.3261166139665207,
                ],
                [
                    0.9932496334125843,
                    2.047240079894118e-09,
                    0.006692463386795063,
                    5.790115338059532e-05,
                ],
                [
                    0.09829833150605485,
                    0.7263318859295215,
                    0.013303232536058382,
                    0.16206655002836517,
                ],
            ],
        ]),
    ];
    for (dim, expected) in expected.iter().enumerate() {
        let output = activation::softmax(x3(), dim);
        output
            .into_data()
            .assert_approx_eq::<FloatElem>(&expected.clone().convert::<FloatElem>(), tight());
    }
}

#[test]
fn should_softmax_every_dim_of_a_permuted_3d_tensor() {
    // The same values behind a permuted layout: [4, 2, 3] viewing X3.
    let permuted = x3().permute([2, 0, 1]);
    let expected = TensorData::from([
        [
            [
                0.11116562230242114,
                0.26538792877224193,
                0.4223187982515182,
                0.7213991842739687,
            ],
            [
                0.06742535823245292,
                0.013212886953789414,
                0.15536240349696362,
                0.013212886953789414,
            ],
            [
                0.8214090194651259,
                0.7213991842739687,
                0.4223187982515182,
                0.26538792877224193,
            ],
        ],
        [
            [
                6.144005419160184e-06,
                0.18242401295135,
                0.029296502272748434,
                0.5434056116997429,
            ],
            [
                0.9999663204726456,
                8.282037374981917e-06,
                0.9701669135709209,
                0.25668663553872995,
            ],
            [
                2.753552193514804e-05,
                0.817567705011275,
                0.0005365841563306405,
                0.19990775276152717,
            ],
        ],
    ])
    .convert::<FloatElem>();

    let output = activation::softmax(permuted, 2).permute([1, 2, 0]);

    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, tight());
}

#[test]
fn should_softmax_large_values_along_both_dims() {
    let l = large();
    let tensor = Tensor::<2>::from_data(
        [
            [l, l + 1.0, l + 2.0, l - 1.0],
            [-l, -l - 1.0, -l - 3.0, -l - 0.5],
        ],
        &device(),
    );
    let expected = [
        TensorData::from([[1.0, 1.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0]]),
        TensorData::from([
            [
                0.08714431874203257,
                0.23688281808991016,
                0.6439142598879724,
                0.03205860328008499,
            ],
            [
                0.49402302067716014,
                0.18174091277254156,
                0.024595957905752436,
                0.2996401086445459,
            ],
        ]),
    ];
    for (dim, expected) in expected.iter().enumerate() {
        let output = activation::softmax(tensor.clone(), dim);
        output
            .into_data()
            .assert_approx_eq::<FloatElem>(&expected.clone().convert::<FloatElem>(), tight());
    }
}

#[test]
fn should_softmax_infinities_like_pytorch() {
    // -inf entries get 0; a row of -inf only, or holding +inf, is NaN.
    let expected = [
        TensorData::from([
            [f64::NAN, 0.5, 0.5, 0.0],
            [f64::NAN, 0.0, 0.0, 0.0],
            [f64::NAN, 0.5, 0.5, 1.0],
        ]),
        TensorData::from([
            [0.0, 0.26894142136999516, 0.7310585786300049, 0.0],
            [f64::NAN, f64::NAN, f64::NAN, f64::NAN],
            [f64::NAN, f64::NAN, f64::NAN, f64::NAN],
        ]),
    ];
    for (dim, expected) in expected.iter().enumerate() {
        let output = activation::softmax(with_infinities(), dim);
        output
            .into_data()
            .assert_approx_eq::<FloatElem>(&expected.clone().convert::<FloatElem>(), tight());
    }
}

#[test]
fn should_softmax_long_rows() {
    let expected = TensorData::from([
        [
            1.1275963496538273e-06,
            1.8590920864380842e-06,
            0.0033613173446596736,
            0.0012365595463532772,
            0.00027591372961087646,
        ],
        [
            0.002157096810196092,
            0.0002919313077766819,
            0.0002919313077766819,
            0.002157096810196092,
            0.002157096810196092,
        ],
    ])
    .convert::<FloatElem>();

    let output = picked(activation::softmax(long_rows(), 1));

    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, tight());
}

#[test]
fn should_softmax_half_dtypes_within_one_rounding() {
    let device = device();
    // The correctly rounded results; f16 has 11 significant bits, bf16 8.
    let cases = [
        (
            DType::F16,
            0,
            TensorData::from([
                [0.7109375, 0.900390625, 0.93701171875, 0.0179901123046875],
                [0.2890625, 0.0997314453125, 0.06298828125, 0.98193359375],
            ]),
        ),
        (
            DType::F16,
            1,
            TensorData::from([
                [
                    0.03204345703125,
                    0.087158203125,
                    0.2369384765625,
                    0.64404296875,
                ],
                [
                    0.00037026405334472656,
                    0.00027441978454589844,
                    0.00045228004455566406,
                    0.9990234375,
                ],
            ]),
        ),
        (
            DType::BF16,
            0,
            TensorData::from([
                [0.7109375, 0.8984375, 0.9375, 0.0179443359375],
                [0.2890625, 0.099609375, 0.06298828125, 0.98046875],
            ]),
        ),
        (
            DType::BF16,
            1,
            TensorData::from([
                [0.031982421875, 0.0869140625, 0.2373046875, 0.64453125],
                [
                    0.000370025634765625,
                    0.000274658203125,
                    0.0004520416259765625,
                    1.0,
                ],
            ]),
        ),
    ];
    for (dtype, dim, expected) in cases {
        if !device.supports_dtype(dtype) {
            continue;
        }
        let output = activation::softmax(half_input().cast(dtype), dim);
        assert_eq!(output.dtype(), dtype);
        let data = output.into_data();
        if dtype == DType::F16 {
            data.assert_approx_eq::<f16>(&expected, Tolerance::rel_abs(1e-3, 1e-7));
        } else {
            data.assert_approx_eq::<bf16>(&expected, Tolerance::rel_abs(8e-3, 1e-7));
        }
    }
}
