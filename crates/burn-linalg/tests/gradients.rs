//! Gradients through the host decompositions, in f64: against PyTorch's
//! autograd (recorded in linalg.json) and against central finite
//! differences of the same loss. The loss of each case is `Σ W ∘ f(A, …)`
//! with recorded weights; sign-ambiguous factors enter squared.

mod common;

use burn_linalg::*;
use burn_tensor::{DType, Device, Tensor};
use common::*;
use serde_json::Value;

type Loss = fn(&Device, &[Tensor<3>], &[Value]) -> Tensor<1>;

fn w<const D: usize>(device: &Device, v: &Value) -> Tensor<D> {
    let (shape, data) = array(v);
    tensor_on(data, &shape, DType::F64, device)
}

fn wsum<const D: usize>(device: &Device, weight: &Value, out: Tensor<D>) -> Tensor<1> {
    (w::<D>(device, weight) * out).sum()
}

fn sq<const D: usize>(x: Tensor<D>) -> Tensor<D> {
    x.clone() * x
}

fn cases() -> Vec<(&'static str, Loss, bool)> {
    // (name, loss, symmetric input: finite differences along E_ij + E_ji)
    vec![
        (
            "solve",
            |d, x, ws| wsum::<3>(d, &ws[0], solve(x[0].clone(), x[1].clone())),
            false,
        ),
        (
            "solve_vector",
            |d, x, ws| {
                let b: Tensor<2> = x[1].clone().squeeze_dim(2);
                wsum::<2>(d, &ws[0], solve(x[0].clone(), b))
            },
            false,
        ),
        (
            "inverse",
            |d, x, ws| wsum(d, &ws[0], inverse(x[0].clone())),
            false,
        ),
        (
            "det",
            |d, x, ws| wsum(d, &ws[0], det::<3, 2, 1>(x[0].clone())),
            false,
        ),
        (
            "lu",
            |d, x, ws| {
                let (_, l, u) = lu::<3, 2>(x[0].clone());
                wsum(d, &ws[0], l) + wsum(d, &ws[1], u)
            },
            false,
        ),
        (
            "cholesky",
            |d, x, ws| wsum(d, &ws[0], cholesky(x[0].clone(), false)),
            true,
        ),
        (
            "cholesky_upper",
            |d, x, ws| wsum(d, &ws[0], cholesky(x[0].clone(), true)),
            true,
        ),
        (
            "qr_square",
            |d, x, ws| {
                let (q, r) = qr(x[0].clone(), true);
                wsum(d, &ws[0], sq(q)) + wsum(d, &ws[1], sq(r))
            },
            false,
        ),
        (
            "qr_tall",
            |d, x, ws| {
                let (q, r) = qr(x[0].clone(), true);
                wsum(d, &ws[0], sq(q)) + wsum(d, &ws[1], sq(r))
            },
            false,
        ),
        ("svd_tall", svd_loss, false),
        ("svd_wide", svd_loss, false),
        (
            "svdvals",
            |d, x, ws| {
                let (_, s, _): (_, Tensor<2>, _) = svd(x[0].clone(), 60);
                wsum(d, &ws[0], s)
            },
            false,
        ),
        (
            "eigh",
            |d, x, ws| {
                let (l, v): (Tensor<2>, Tensor<3>) = eigh(x[0].clone());
                wsum(d, &ws[0], l) + wsum(d, &ws[1], sq(v))
            },
            true,
        ),
        (
            "lstsq_tall",
            |d, x, ws| wsum(d, &ws[0], lstsq(x[0].clone(), x[1].clone())),
            false,
        ),
        (
            "lstsq_wide",
            |d, x, ws| wsum(d, &ws[0], lstsq(x[0].clone(), x[1].clone())),
            false,
        ),
        (
            "nuclear",
            |d, x, ws| {
                let n: Tensor<2> = matrix_norm(x[0].clone(), MatrixNorm::Nuclear).squeeze_dim(2);
                wsum::<1>(d, &ws[0], n.squeeze_dim(1))
            },
            false,
        ),
        (
            "spectral",
            |d, x, ws| {
                let n: Tensor<2> = matrix_norm(x[0].clone(), MatrixNorm::Spectral).squeeze_dim(2);
                wsum::<1>(d, &ws[0], n.squeeze_dim(1))
            },
            false,
        ),
    ]
}

fn svd_loss(d: &Device, x: &[Tensor<3>], ws: &[Value]) -> Tensor<1> {
    let (u, s, vh): (Tensor<3>, Tensor<2>, Tensor<3>) = svd(x[0].clone(), 60);
    wsum(d, &ws[0], sq(u)) + wsum(d, &ws[1], s) + wsum(d, &ws[2], sq(vh))
}

/// Inputs as rank-3 tensors (a vector rhs `[b, n]` becomes `[b, n, 1]`).
fn inputs(case: &Value, device: &Device) -> Vec<(Vec<usize>, Vec<f64>)> {
    case["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            let (mut shape, data) = array(v);
            if shape.len() == 2 {
                shape.push(1);
            }
            let _ = device;
            (shape, data)
        })
        .collect()
}

fn loss_value(loss: Loss, device: &Device, ins: &[(Vec<usize>, Vec<f64>)], ws: &[Value]) -> f64 {
    let ts: Vec<Tensor<3>> = ins
        .iter()
        .map(|(s, d)| tensor_on(d.clone(), s, DType::F64, device))
        .collect();
    values(loss(device, &ts, ws))[0]
}

#[test]
fn gradients_match_pytorch_and_finite_differences() {
    if !has_f64() {
        return;
    }
    let r = reference();
    let plain = device();
    let ad = device().autodiff();
    for (name, loss, symmetric) in cases() {
        let case = &r["grads"][name];
        let ws = case["weights"].as_array().unwrap().clone();
        let ins = inputs(case, &ad);
        let leaves: Vec<Tensor<3>> = ins
            .iter()
            .map(|(s, d)| tensor_on::<3>(d.clone(), s, DType::F64, &ad).require_grad())
            .collect();
        let l = loss(&ad, &leaves, &ws);
        // Forward value unchanged by the surrogates.
        let value = values(l.clone())[0];
        let want = case["loss"].as_f64().unwrap();
        assert!(
            (value - want).abs() <= 1e-9 * want.abs().max(1.0),
            "{name}: loss {value} vs torch {want}"
        );
        let grads = l.backward();
        for (i, leaf) in leaves.iter().enumerate() {
            let g = values(
                leaf.grad(&grads)
                    .unwrap_or_else(|| panic!("{name}: no gradient for input {i}")),
            );
            let torch = array(&case["grads"][i]).1;
            assert_close(&g, &torch, 1e-8, &format!("{name}: input {i} vs PyTorch"));
            // Central differences on the plain device.
            let (shape, base) = &ins[i];
            let n = shape[2];
            let m = shape[1];
            let h = 1e-6;
            let mut fd = Vec::new();
            let mut ours = Vec::new();
            for k in 0..base.len() {
                let (b, row, col) = (k / (m * n), (k / n) % m, k % n);
                if symmetric && col > row {
                    continue;
                }
                let mirror = b * m * n + col * n + row;
                let eval = |step: f64| {
                    let mut p = ins.clone();
                    p[i].1[k] += step;
                    if symmetric && mirror != k {
                        p[i].1[mirror] += step;
                    }
                    loss_value(loss, &plain, &p, &ws)
                };
                fd.push((eval(h) - eval(-h)) / (2.0 * h));
                ours.push(if symmetric && mirror != k {
                    g[k] + g[mirror]
                } else {
                    g[k]
                });
            }
            assert_close(
                &ours,
                &fd,
                1e-6,
                &format!("{name}: input {i} vs finite differences"),
            );
        }
    }
}

#[test]
fn f32_gradients_flow() {
    let ad = device().autodiff();
    let a: Tensor<2> =
        tensor_on::<2>(vec![3.0, 1.0, 1.0, 2.0], &[2, 2], DType::F32, &ad).require_grad();
    let b: Tensor<1> = tensor_on(vec![1.0, 1.0], &[2], DType::F32, &ad);
    let x: Tensor<1> = solve(a.clone(), b);
    let g = values(a.grad(&x.sum().backward()).unwrap());
    // d(Σx)/dA = −A⁻ᵀ·1·xᵀ with x = (0.2, 0.4), A⁻ᵀ·1 = (0.2, 0.4).
    assert_close(
        &g,
        &[-0.04, -0.08, -0.08, -0.16],
        1e-5,
        "f32 solve gradient",
    );
}

#[test]
fn cases_without_a_gradient_are_refused() {
    let ad = device().autodiff();
    let wide: Tensor<2> =
        tensor_on::<2>(vec![1.0, 2.0, 3.0, 4.0, 5.0, 7.0], &[2, 3], DType::F32, &ad).require_grad();
    assert!(matches!(
        try_qr(wide.clone(), true),
        Err(LinalgError::NotDifferentiable { op: "qr", .. })
    ));
    assert!(matches!(
        try_lu::<2, 1>(wide.clone()),
        Err(LinalgError::NotDifferentiable { op: "lu", .. })
    ));
    // Detached, they factor.
    let (q, _) = qr(wide.detach(), true);
    assert_eq!(q.dims(), [2, 2]);
}

#[test]
fn product_helpers_differentiate() {
    // d tr(A)/dA = I (rectangular: the top-left k × k identity);
    // d Σ(M·v)/dM = 1·vᵀ, d Σ(M·v)/dv = Mᵀ·1.
    let ad = device().autodiff();
    let a: Tensor<2> =
        tensor_on::<2>(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3], DType::F32, &ad).require_grad();
    let tr: Tensor<1> = trace(a.clone());
    let g = values(a.grad(&tr.sum().backward()).unwrap());
    assert_eq!(g, vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
    let v: Tensor<1> = tensor_on::<1>(vec![1.0, -1.0, 2.0], &[3], DType::F32, &ad).require_grad();
    let grads = matvec(a.clone(), v.clone()).sum().backward();
    assert_eq!(
        values(a.grad(&grads).unwrap()),
        vec![1.0, -1.0, 2.0, 1.0, -1.0, 2.0]
    );
    assert_eq!(values(v.grad(&grads).unwrap()), vec![5.0, 7.0, 9.0]);
}
