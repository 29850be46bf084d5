//! Vector norms, cosine similarity, matrix norms and the product helpers,
//! against NumPy values and hand-worked ones.

mod common;

use burn_linalg::*;
use burn_tensor::{Bool, DType, Float, Int, Tensor};
use common::*;

#[test]
fn vector_norms_match_numpy() {
    let r = reference();
    let n = &r["norms"];
    for dtype in dtypes() {
        let x: Tensor<2> = load(&n["x"], dtype);
        let tol = tol(dtype);
        let check = |t: Tensor<2>, key: &str| {
            let (shape, got) = host(t, dtype);
            let (want_shape, want) = array(&n[key]);
            assert_eq!(shape, want_shape, "{key} shape");
            assert_close(&got, &want, tol, key);
        };
        check(l0_norm(load::<2>(&n["x0"], dtype), 1), "l0");
        check(l1_norm(x.clone(), 1), "l1");
        check(l2_norm(x.clone(), -1), "l2");
        check(vector_norm(x.clone(), Norm::L2, 1), "l2");
        check(max_abs_norm(x.clone(), 1), "linf");
        check(vector_norm(x.clone(), f64::INFINITY, 1), "linf");
        check(min_abs_norm(x.clone(), 1), "lneginf");
        check(lp_norm(x.clone(), 3.0, 1), "l3");
        check(vector_norm(x.clone(), 3, 1), "l3");
        check(l2_norm(x.clone(), 0), "l2_dim0");
        check(l2_norm_dims(x.clone(), &[0, 1]), "l2_all");
        check(
            cosine_similarity(x.clone(), load(&n["y"], dtype), 1, None),
            "cos",
        );
        // No dims: elementwise |x|.
        let (_, e) = host(l1_norm_dims::<2, Float, i32>(x.clone(), &[]), dtype);
        let (_, xs) = array(&n["x"]);
        assert_close(
            &e,
            &xs.iter().map(|v| v.abs()).collect::<Vec<_>>(),
            tol,
            "empty dims",
        );
        // Normalize: unit L2 rows.
        let u = vector_normalize(x, Norm::L2, 1, 1e-12);
        let (_, norms) = host(l2_norm(u, 1), dtype);
        assert_close(&norms, &[1.0, 1.0, 1.0], tol, "normalized");
    }
}

#[test]
fn norm_from_exponents() {
    assert_eq!(Norm::from(0), Norm::L0);
    assert_eq!(Norm::from(2.0f32), Norm::L2);
    assert_eq!(Norm::from(f64::NEG_INFINITY), Norm::LNegInf);
    assert_eq!(Norm::from(3.5), Norm::Lp(3.5));
    assert_eq!(Norm::LInf.to_exponent(), f64::INFINITY);
}

#[test]
fn matrix_norms_match_numpy() {
    let r = reference();
    let m = &r["matrix_norms"];
    for dtype in dtypes() {
        let a: Tensor<3> = load(&m["a"], dtype);
        for (norm, key) in [
            (MatrixNorm::Frobenius, "fro"),
            (MatrixNorm::Nuclear, "nuc"),
            (MatrixNorm::Spectral, "spectral"),
            (MatrixNorm::One, "one"),
            (MatrixNorm::Inf, "inf"),
        ] {
            let (shape, got) = host(matrix_norm(a.clone(), norm), dtype);
            assert_eq!(shape, vec![2, 1, 1]);
            assert_close(&got, &array(&m[key]).1, tol(dtype), key);
        }
    }
}

#[test]
fn products_by_hand() {
    let dtype = DType::F32;
    let x: Tensor<2> = tensor(vec![1.0, 2.0, 3.0, 4.0], &[2, 2], dtype);
    let y: Tensor<2> = tensor(vec![1.0, -1.0, 0.5, 2.0], &[2, 2], dtype);
    // Batched outer: [2, 2] × [2, 2] → [2, 2, 2].
    let o: Tensor<3> = outer(x.clone(), y.clone());
    assert_eq!(values(o), vec![1.0, -1.0, 2.0, -2.0, 1.5, 6.0, 2.0, 8.0]);
    // matvec: [[1, 2], [3, 4]]·[1, -1] = [-1, -1].
    let v: Tensor<1> = tensor(vec![1.0, -1.0], &[2], dtype);
    assert_eq!(values(matvec(x.clone(), v)), vec![-1.0, -1.0]);
    let d: Tensor<1> = diag(x.clone());
    assert_eq!(values(d), vec![1.0, 4.0]);
    let tr: Tensor<1> = trace(x);
    assert_eq!(values(tr), vec![5.0]);
    // Rectangular diag takes min(m, n) entries; batched trace keeps [.., 1].
    let r: Tensor<3> = tensor((0..12).map(|v| v as f64).collect(), &[2, 2, 3], dtype);
    let d: Tensor<2> = diag(r.clone());
    assert_eq!(values(d), vec![0.0, 4.0, 6.0, 10.0]);
    let tr: Tensor<2> = trace(r);
    assert_eq!(values(tr), vec![4.0, 16.0]);
}

/// The kind-generic functions on int tensors, against NumPy (`"int"` in
/// the reference file): int in, int out, exact.
#[test]
fn kind_generic_functions_take_int_tensors() {
    let r = reference();
    let c = &r["int"];
    let exact = |got: (Vec<usize>, Vec<f64>), key: &str| {
        let (shape, want) = array(&c[key]);
        assert_eq!(got.0, shape, "{key} shape");
        assert_eq!(got.1, want, "{key}");
    };
    let x: Tensor<2, Int> = load_int(&c["x"]);
    let l0 = l0_norm(x.clone(), 1);
    assert_eq!(l0.dtype(), x.dtype(), "int in, int out");
    exact(host_any(l0), "l0");
    exact(host_any(l1_norm(x.clone(), -1)), "l1");
    exact(host_any(l1_norm_dims(x.clone(), &[0, 1])), "l1_all");
    exact(host_any(max_abs_norm(x.clone(), 1)), "linf");
    exact(host_any(min_abs_norm_dims(x.clone(), &[0])), "lneginf");
    // No dims: elementwise, |x| (l1) or x ≠ 0 (l0).
    let (_, xs) = array(&c["x"]);
    let (_, e) = host_any(l0_norm_dims::<2, Int, usize>(x.clone(), &[]));
    assert_eq!(
        e,
        xs.iter()
            .map(|v| (*v != 0.0) as i32 as f64)
            .collect::<Vec<_>>()
    );

    // outer_dim along dim 1 (and -2), rhs's leading 1 broadcast: einsum
    // 'aib,ajb->aijb'.
    let lhs: Tensor<3, Int> = load_int(&c["lhs"]);
    let rhs: Tensor<3, Int> = load_int(&c["rhs"]);
    let o: Tensor<4, Int> = outer_dim(lhs.clone(), rhs.clone(), 1);
    exact(host_any(o), "outer_dim1");
    let o: Tensor<4, Int> = outer_dim(lhs.clone(), rhs.clone(), -2);
    exact(host_any(o), "outer_dim1");
    // The same in float.
    let lf: Tensor<3> = load(&c["lhs"], DType::F32);
    let rf: Tensor<3> = load(&c["rhs"], DType::F32);
    let o: Tensor<4> = outer_dim(lf, rf, 1i64);
    exact(host_any(o), "outer_dim1");
    // outer over the last dim: [2, 3] × [2, 5] → [2, 3, 5].
    let l: Tensor<2, Int> = lhs.narrow(2, 0, 1).squeeze_dim(2);
    let rr: Tensor<2, Int> = rhs.squeeze_dim::<2>(0).narrow(1, 0, 2).swap_dims(0, 1);
    let o: Tensor<3, Int> = outer(l, rr);
    exact(host_any(o), "outer_last");

    let m: Tensor<3, Int> = load_int(&c["m"]);
    let v: Tensor<2, Int> = load_int(&c["v"]);
    exact(host_any(matvec(m.clone(), v)), "matvec");
    let d: Tensor<2, Int> = diag(m);
    exact(host_any(d), "diag");
}

#[test]
fn diag_takes_bool_tensors() {
    // [[t, f, t], [f, f, t]] → diagonal [t, f].
    let m = Tensor::<2, Bool>::from_data([[true, false, true], [false, false, true]], &device());
    let d: Tensor<1, Bool> = diag(m);
    assert_eq!(d.into_data().to_vec::<bool>().unwrap(), vec![true, false]);
    // A tall batch: [2, 3, 2] keeps min(3, 2) = 2 entries per matrix.
    let m = Tensor::<3, Bool>::from_data(
        [
            [[true, true], [true, true], [false, false]],
            [[false, true], [true, false], [true, true]],
        ],
        &device(),
    );
    let d: Tensor<2, Bool> = diag(m);
    assert_eq!(
        d.into_data().to_vec::<bool>().unwrap(),
        vec![true, true, false, false]
    );
}

#[test]
#[should_panic(expected = "outer_dim: dim 3 is out of range for a tensor of rank 3")]
fn outer_dim_checks_the_dim() {
    let x: Tensor<3> = tensor(vec![0.0; 8], &[2, 2, 2], DType::F32);
    let _: Tensor<4> = outer_dim(x.clone(), x, 3);
}
