//! Backward of `activation::softmax` (the trait's default composition, with
//! the max subtracted): d/dx_i = s_i (g_i - sum_j g_j s_j) along the dim.
//! Reference values: tests/autodiff/reference/activation.py ("softmax" blocks).

use super::expect::*;
use crate::common::*;

const X: [[f64; 4]; 2] = [[-3.0, -1.0, -0.5, 0.0], [0.5, 1.0, 2.0, 4.0]];

#[test]
fn softmax_last_dim_gradient_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let y = activation::softmax(x.clone(), 1);
        assert_values(
            y.clone(),
            [
                [
                    0.024595957905752436,
                    0.18174091277254156,
                    0.2996401086445459,
                    0.49402302067716014,
                ],
                [
                    0.024847274796909898,
                    0.04096623047659656,
                    0.11135775988499756,
                    0.8228287348414961,
                ],
            ],
        );
        let grads = weighted_sum(y).backward();
        assert_grad(
            &x,
            &grads,
            [
                [
                    -0.055662871101643425,
                    -0.2295551644250474,
                    -0.07883237374209509,
                    0.3640504092687857,
                ],
                [
                    -0.06788692796350833,
                    -0.07096039165932697,
                    -0.08153258330288773,
                    0.22037990292572224,
                ],
            ],
        );
    }
}

#[test]
fn softmax_dim0_gradient_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let grads = weighted_sum(activation::softmax(x.clone(), 0)).backward();
        assert_grad(
            &x,
            &grads,
            [
                [
                    -0.11381209551894221,
                    -0.4199743416140259,
                    -0.2804148661804327,
                    -0.07065082485316446,
                ],
                [
                    0.11381209551894282,
                    0.41997434161402686,
                    0.28041486618043227,
                    0.07065082485316443,
                ],
            ],
        );
    }
}

#[test]
fn softmax_gradient_at_large_values_matches_pytorch() {
    // bf16 spaces its values 4 apart near 1000 (8 significant bits) but
    // holds 100, 101 and 102, where exp still overflows; softmax and its
    // gradient are shift-invariant, so the reference holds for both.
    let l = match <FloatElem as Element>::DTYPE {
        DType::BF16 => 100.0,
        _ => 1000.0,
    };
    for device in devices() {
        let x = Tensor::<2>::from_data([[l, l + 1.0, l + 2.0]], &device).require_grad();
        let grads = weighted_sum(activation::softmax(x.clone(), 1)).backward();
        assert_grad(
            &x,
            &grads,
            [[
                -0.1418170936098121,
                -0.14077035746962996,
                0.28258745107944266,
            ]],
        );
    }
}
