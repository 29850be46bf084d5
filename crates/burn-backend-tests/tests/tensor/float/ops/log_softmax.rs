//! Reference values: tests/reference/float_ops.py ("log_softmax" blocks) up
//! to the dim check, tests/reference/softmax.py (PyTorch) after it; the
//! inputs are built in softmax.rs.
use super::softmax::{half_input, large, long_rows, picked, with_infinities, x3};
use crate::common::*;
use burn::tensor::{bf16, f16};

#[test]
fn should_log_softmax_last_dim() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [-1.0, 0.0, 5.0]], &device);

    let output = activation::log_softmax(tensor, 1);

    let expected = TensorData::from([
        [
            -2.4076059644443806,
            -1.4076059644443806,
            -0.4076059644443806,
        ],
        [
            -6.0091744845917345,
            -5.0091744845917345,
            -0.009174484591734533,
        ],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_log_softmax_extreme_values_stay_finite() {
    let device = device();
    let tensor = Tensor::<1>::from_data([-1000.0, 0.0, 1000.0], &device);

    let output = activation::log_softmax(tensor, 0);

    let expected = TensorData::from([-2000.0, -1000.0, 0.0]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_log_softmax_dim0_of_transposed_input() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [-1.0, 0.0, 5.0]], &device).transpose();

    let output = activation::log_softmax(tensor, 0);

    let expected = TensorData::from([
        [-2.4076059644443806, -6.0091744845917345],
        [-1.4076059644443806, -5.0091744845917345],
        [-0.4076059644443806, -0.009174484591734533],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "log_softmax: dim 1 is out of range")]
fn should_panic_when_log_softmax_dim_out_of_range() {
    let _ = activation::log_softmax(Tensor::<1>::ones([2], &device()), 1);
}

#[test]
fn should_log_softmax_every_dim_of_a_3d_tensor() {
    let expected = [
        TensorData::from([
            [
                [
                    -0.048587351573741965,
                    -0.1269280110429726,
                    -0.20141327798275246,
                    -0.048587351573741965,
                ],
                [
                    -9.500074849028628,
                    -0.00012340218972333965,
                    -3.048587351573742,
                    -0.8259394198788437,
                ],
                [
                    -0.029750418272620652,
                    -0.20141327798275246,
                    -0.004078443270570686,
                    -0.048587351573741965,
                ],
            ],
            [
                [
                    -3.048587351573742,
                    -2.1269280110429727,
                    -1.7014132779827524,
                    -3.048587351573742,
                ],
                [
                    -7.484902862921207e-05,
                    -9.000123402189724,
                    -0.048587351573741965,
                    -0.5759394198788437,
                ],
                [
                    -3.5297504182726205,
                    -1.7014132779827524,
                    -5.50407844327057,
                    -3.048587351573742,
                ],
            ],
        ]),
        TensorData::from([
            [
                [
                    -2.196734096919617,
                    -1.3265626412674705,
                    -0.8619948040582511,
                    -0.3265626412674705,
                ],
                [
                    -2.696734096919617,
                    -4.32656264126747,
                    -1.8619948040582512,
                    -4.32656264126747,
                ],
                [
                    -0.19673409691961713,
                    -0.3265626412674705,
                    -0.8619948040582511,
                    -1.3265626412674705,
                ],
            ],
            [
                [
                    -12.000033680094523,
                    -1.7014215600544238,
                    -3.5302871464417485,
                    -0.609899255028596,
                ],
                [
                    -3.368009452242156e-05,
                    -11.701421560054424,
                    -0.030287146441748618,
                    -1.359899255028596,
                ],
                [
                    -10.500033680094523,
                    -0.20142156005442372,
                    -7.530287146441749,
                    -1.609899255028596,
                ],
            ],
        ]),
        TensorData::from([
            [
                [
                    -3.4401896985611953,
                    -2.4401896985611953,
                    -1.4401896985611953,
                    -0.44018969856119533,
                ],
                [
                    -1.842349582389822,
                    -3.342349582389822,
                    -0.342349582389822,
                    -2.342349582389822,
                ],
                [
                    -1.3862943611198906,
                    -1.3862943611198906,
                    -1.3862943611198906,
                    -1.3862943611198906,
                ],
            ],
            [
                [
                    -4.120500250025209,
                    -2.1205002500252093,
                    -0.6205002500252095,
                    -1.1205002500252095,
                ],
                [
                    -0.006773253366193741,
                    -20.006773253366195,
                    -5.006773253366194,
                    -9.756773253366195,
                ],
                [
                    -2.319748225461828,
                    -0.31974822546182796,
                    -4.319748225461828,
                    -1.819748225461828,
                ],
            ],
        ]),
    ];
    for (dim, expected) in expected.iter().enumerate() {
        let output = activation::log_softmax(x3(), dim);
        output.into_data().assert_approx_eq::<FloatElem>(
            &expected.clone().convert::<FloatElem>(),
            Tolerance::default(),
        );
    }
}

#[test]
fn should_log_softmax_large_values_along_both_dims() {
    let l = large();
    let tensor = Tensor::<2>::from_data(
        [
            [l, l + 1.0, l + 2.0, l - 1.0],
            [-l, -l - 1.0, -l - 3.0, -l - 0.5],
        ],
        &device(),
    );
    // Along dim 0 the second row's share underflows: its log is the
    // difference of the two rows (-2000, -2002, -2005, -1999.5 at l = 1000).
    let expected = [
        TensorData::from([
            [0.0, 0.0, 0.0, 0.0],
            [-2.0 * l, -2.0 * l - 2.0, -2.0 * l - 5.0, -2.0 * l + 0.5],
        ]),
        TensorData::from([
            [
                -2.4401896985611953,
                -1.4401896985611953,
                -0.44018969856119533,
                -3.4401896985611953,
            ],
            [
                -0.705173162318934,
                -1.7051731623189341,
                -3.705173162318934,
                -1.2051731623189341,
            ],
        ]),
    ];
    for (dim, expected) in expected.iter().enumerate() {
        let output = activation::log_softmax(tensor.clone(), dim);
        output.into_data().assert_approx_eq::<FloatElem>(
            &expected.clone().convert::<FloatElem>(),
            Tolerance::default(),
        );
    }
}

#[test]
fn should_log_softmax_infinities_like_pytorch() {
    // -inf entries stay -inf; a row of -inf only, or holding +inf, is NaN.
    let expected = [
        TensorData::from([
            [
                f64::NAN,
                -0.6931471805599453,
                -0.6931471805599453,
                f64::NEG_INFINITY,
            ],
            [
                f64::NAN,
                f64::NEG_INFINITY,
                f64::NEG_INFINITY,
                f64::NEG_INFINITY,
            ],
            [f64::NAN, -0.6931471805599453, -0.6931471805599453, 0.0],
        ]),
        TensorData::from([
            [
                f64::NEG_INFINITY,
                -1.3132616875182228,
                -0.31326168751822286,
                f64::NEG_INFINITY,
            ],
            [f64::NAN, f64::NAN, f64::NAN, f64::NAN],
            [f64::NAN, f64::NAN, f64::NAN, f64::NAN],
        ]),
    ];
    for (dim, expected) in expected.iter().enumerate() {
        let output = activation::log_softmax(with_infinities(), dim);
        output.into_data().assert_approx_eq::<FloatElem>(
            &expected.clone().convert::<FloatElem>(),
            Tolerance::default(),
        );
    }
}

#[test]
fn should_log_softmax_long_rows() {
    let expected = TensorData::from([
        [
            -13.695422314982157,
            -13.195422314982157,
            -5.695422314982156,
            -6.695422314982156,
            -8.195422314982157,
        ],
        [
            -6.138992030711119,
            -8.138992030711119,
            -8.138992030711119,
            -6.138992030711119,
            -6.138992030711119,
        ],
    ])
    .convert::<FloatElem>();

    let output = picked(activation::log_softmax(long_rows(), 1));

    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_log_softmax_half_dtypes_within_one_rounding() {
    let device = device();
    let cases = [
        (
            DType::F16,
            0,
            TensorData::from([
                [
                    -0.341064453125,
                    -0.1051025390625,
                    -0.0650634765625,
                    -4.01953125,
                ],
                [-1.2412109375, -2.3046875, -2.765625, -0.0181427001953125],
            ]),
        ),
        (
            DType::F16,
            1,
            TensorData::from([
                [-3.439453125, -2.439453125, -1.4404296875, -0.440185546875],
                [-7.90234375, -8.203125, -7.69921875, -0.0010976791381835938],
            ]),
        ),
        (
            DType::BF16,
            0,
            TensorData::from([
                [-0.341796875, -0.10498046875, -0.06494140625, -4.03125],
                [-1.2421875, -2.3125, -2.765625, -0.0181884765625],
            ]),
        ),
        (
            DType::BF16,
            1,
            TensorData::from([
                [-3.4375, -2.4375, -1.4375, -0.439453125],
                [-7.90625, -8.1875, -7.6875, -0.0010986328125],
            ]),
        ),
    ];
    for (dtype, dim, expected) in cases {
        if !device.supports_dtype(dtype) {
            continue;
        }
        let output = activation::log_softmax(half_input().cast(dtype), dim);
        assert_eq!(output.dtype(), dtype);
        let data = output.into_data();
        if dtype == DType::F16 {
            data.assert_approx_eq::<f16>(&expected, Tolerance::rel_abs(1e-3, 1e-6));
        } else {
            data.assert_approx_eq::<bf16>(&expected, Tolerance::rel_abs(8e-3, 1e-6));
        }
    }
}
