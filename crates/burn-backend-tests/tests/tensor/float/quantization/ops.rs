//! Ops on quantized tensors: the layout ops keep them quantized, the rest
//! compute on the dequantized values and return floats.

use super::*;

fn weight() -> TensorData {
    TensorData::from([[0.5, -1.0, 2.0, 0.25], [1.5, 0.75, -0.5, 1.0]])
}

#[test]
fn reshape_keeps_values_and_quantization() {
    for scheme in [q8_tensor(), q8_block4()] {
        let q = quantized::<2>(weight(), &scheme);
        let r: Tensor<3> = q.reshape([2, 1, 4]);
        assert!(r.dtype().is_quantized(), "{scheme}");
        r.dequantize().into_data().assert_approx_eq::<FloatElem>(
            &TensorData::from([[[0.5, -1.0, 2.0, 0.25]], [[1.5, 0.75, -0.5, 1.0]]]),
            step_tolerance(&scheme, 2.0),
        );
    }
}

#[test]
fn a_reshape_the_blocks_cannot_tile_gives_floats() {
    let scheme = q8_block4();
    let r: Tensor<2> = quantized::<2>(weight(), &scheme).reshape([4, 2]);
    // Blocks of 4 do not tile rows of 2: the values come back as floats.
    assert!(!r.dtype().is_quantized());
    r.into_data().assert_approx_eq::<FloatElem>(
        &TensorData::from([[0.5, -1.0], [2.0, 0.25], [1.5, 0.75], [-0.5, 1.0]]),
        step_tolerance(&scheme, 2.0),
    );
}

#[test]
fn matmul_with_a_quantized_weight() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.0, 2.0], [-1.0, 0.5]], &device);
    for scheme in [q8_tensor(), q8_block4(), q4_block4()] {
        let w = quantized::<2>(weight(), &scheme);
        let y = x.clone().matmul(w);
        assert!(!y.dtype().is_quantized());
        // Each output sums 2 products of |x| <= 2 with weights off by at
        // most half a step.
        let tol = step_tolerance(&scheme, 2.0);
        let (_, abs) = tol.resolve::<f32>();
        y.into_data().assert_approx_eq::<FloatElem>(
            &TensorData::from([[3.5, 0.5, 1.0, 2.25], [0.25, 1.375, -2.25, 0.25]]),
            Tolerance::absolute(abs * 3.0),
        );
    }
}

#[test]
fn element_wise_ops_return_floats() {
    let scheme = q8_tensor();
    let q = quantized::<2>(weight(), &scheme);
    let y = q.clone().mul_scalar(2.0).add(q.exp());
    assert!(!y.dtype().is_quantized());
    let expected: Vec<f32> = weight().iter::<f32>().map(|v| 2.0 * v + v.exp()).collect();
    // d(2x + e^x)/dx <= 2 + e^2 < 10 times half a step.
    let (_, abs) = step_tolerance(&scheme, 2.0).resolve::<f32>();
    y.into_data().assert_approx_eq::<FloatElem>(
        &TensorData::new(expected, [2, 4]),
        Tolerance::rel_abs(1e-3, abs * 10.0),
    );
}

#[test]
fn layout_ops_keep_values() {
    let scheme = q8_tensor();
    let q = quantized::<2>(weight(), &scheme);
    let tol = step_tolerance(&scheme, 2.0);
    q.clone()
        .transpose()
        .into_data()
        .assert_approx_eq::<FloatElem>(
            &TensorData::from([[0.5, 1.5], [-1.0, 0.75], [2.0, -0.5], [0.25, 1.0]]),
            tol,
        );
    q.clone()
        .slice(s![.., 1..3])
        .into_data()
        .assert_approx_eq::<FloatElem>(&TensorData::from([[-1.0, 2.0], [0.75, -0.5]]), tol);
    Tensor::cat(vec![q.clone(), q], 0)
        .into_data()
        .assert_approx_eq::<FloatElem>(
            &TensorData::from([
                [0.5, -1.0, 2.0, 0.25],
                [1.5, 0.75, -0.5, 1.0],
                [0.5, -1.0, 2.0, 0.25],
                [1.5, 0.75, -0.5, 1.0],
            ]),
            tol,
        );
}

#[test]
fn matmul_with_a_quantized_weight_agrees_with_the_dequantized_product() {
    use burn::tensor::quantization::{QuantScheme, QuantStore, QuantValue, ScaleDtype};
    let device = device();
    // Several column tiles (one ragged), one and several rows, a batch dim.
    let (k, n) = (48, 136);
    let w: Vec<f32> = (0..k * n)
        .map(|i| ((i * 29 % 97) as f32 - 48.0) / 31.0)
        .collect();
    let w = Tensor::<2>::from_data(TensorData::new(w, [k, n]), &device);
    let schemes = [
        q8_tensor(),
        QuantScheme::default()
            .with_value(QuantValue::Q8F)
            .with_store(QuantStore::PackedU32(0))
            .per_block([8], ScaleDtype::F16),
        QuantScheme::default()
            .with_value(QuantValue::Q4S)
            .with_store(QuantStore::PackedU32(0))
            .per_block([8], ScaleDtype::F32),
        QuantScheme::default()
            .with_value(QuantValue::Q4F)
            .with_store(QuantStore::PackedU32(0))
            .per_block([8], ScaleDtype::UE8M0)
            .per_tensor(ScaleDtype::F32),
    ];
    for m in [1usize, 3] {
        let x: Vec<f32> = (0..2 * m * k)
            .map(|i| ((i * 13 % 23) as f32 - 11.0) / 7.0)
            .collect();
        let x = Tensor::<3>::from_data(TensorData::new(x, [2, m, k]), &device);
        for scheme in schemes {
            let q = w.clone().quantize_dynamic(&scheme);
            let reference = x.clone().matmul(q.clone().dequantize().unsqueeze::<3>());
            let y = x.clone().matmul(q.unsqueeze::<3>());
            assert_eq!(y.dims(), [2, m, n]);
            // Same weights, products summed in another order (and for
            // f16/bf16, the reference's weight rounded to that dtype, the
            // kernel's kept in f32): outputs reach about 30.
            y.into_data().assert_approx_eq::<FloatElem>(
                &reference.into_data(),
                dtype_tolerance(Tolerance::rel_abs(1e-3, 1e-3), 30.0),
            );
        }
    }
}
