//! Decompositions and solvers against NumPy/SciPy: values where the result
//! is unique (det, inverse, solve, Cholesky, LU, eigenvalues, singular
//! values, lstsq), reconstruction and orthogonality where it is not (QR,
//! SVD, eigenvectors); errors on singular and non-SPD input; empty input.

mod common;

use burn_linalg::*;
use burn_tensor::{DType, Tensor};
use common::*;

/// Runs `f` with the case's matrices as rank-4 `[b0, b1, n, n]` tensors
/// (leading 1s added), so every batch shape goes through one code path.
fn as4(v: &serde_json::Value, dtype: DType) -> (Tensor<4>, Vec<usize>) {
    let (shape, data) = array(v);
    let mut s = vec![1; 4 - shape.len().min(4)];
    s.extend(&shape);
    (tensor(data, &s, dtype), shape)
}

#[test]
fn square_cases_match_numpy() {
    let r = reference();
    for case in r["square"].as_array().unwrap() {
        let dtype = dtype_of(case["dtype"].as_str().unwrap());
        if dtype == DType::F64 && !has_f64() {
            continue;
        }
        let tol = tol(dtype) * 10.0;
        let (a, shape) = as4(&case["a"], dtype);
        let n = shape[shape.len() - 1];
        let what = |s: &str| format!("{s} {dtype:?} {shape:?}");
        // det: [b0, b1].
        let d = det::<4, 3, 2>(a.clone());
        assert_close(&values(d), &array(&case["det"]).1, tol, &what("det"));
        assert_close(
            &values(inverse(a.clone())),
            &array(&case["inv"]).1,
            tol,
            &what("inverse"),
        );
        let (b, _) = as4(&case["b"], dtype);
        assert_close(
            &values(solve::<4, 4, 4>(a.clone(), b)),
            &array(&case["solve"]).1,
            tol,
            &what("solve"),
        );
        // Vector rhs [b0, b1, n].
        let (bs, bv) = array(&case["bv"]);
        let mut s3 = vec![1; 3 - bs.len().min(3)];
        s3.extend(&bs);
        let bv: Tensor<3> = tensor(bv, &s3, dtype);
        let x = solve::<4, 3, 3>(a.clone(), bv);
        assert_eq!(x.dims()[2], n);
        assert_close(
            &values(x),
            &array(&case["solve_v"]).1,
            tol,
            &what("solve vector"),
        );
        // Cholesky (unique): values, and upper = Lᵀ.
        let (spd, _) = as4(&case["spd"], dtype);
        let l = cholesky(spd.clone(), false);
        assert_close(
            &values(l.clone()),
            &array(&case["chol"]).1,
            tol,
            &what("cholesky"),
        );
        assert_close(
            &values(cholesky(spd, true)),
            &values(t(l)),
            0.0,
            &what("cholesky upper"),
        );
        // eigh: values, reconstruction, orthonormality.
        let (h, _) = as4(&case["sym"], dtype);
        let (lambda, v): (Tensor<3>, Tensor<4>) = eigh(h.clone());
        assert_close(
            &values(lambda.clone()),
            &array(&case["eigvals"]).1,
            tol,
            &what("eigvals"),
        );
        let rec = (v.clone() * lambda.unsqueeze_dim::<4>(2)).matmul(t(v.clone()));
        assert_close(&values(rec), &values(h), tol, &what("eigh reconstruction"));
        assert_orthonormal_columns(v, tol, &what("eigh V"));
        // LU against SciPy (unique with partial pivoting), and A = P·L·U.
        if let Some(reference) = case.get("lu") {
            let (p, l, u) = lu::<4, 3>(a.clone());
            assert_close(
                &values(p.clone()),
                &array(&reference["p"]).1,
                0.0,
                &what("lu P"),
            );
            assert_close(
                &values(l.clone()),
                &array(&reference["l"]).1,
                tol,
                &what("lu L"),
            );
            assert_close(
                &values(u.clone()),
                &array(&reference["u"]).1,
                tol,
                &what("lu U"),
            );
        }
        let (p, l, u) = lu::<4, 3>(a.clone());
        assert_close(
            &values(p.matmul(l).matmul(u)),
            &values(a.clone()),
            tol,
            &what("P·L·U"),
        );
        // Square QR and SVD by reconstruction.
        let (q, rr) = qr(a.clone(), true);
        assert_close(
            &values(q.clone().matmul(rr.clone())),
            &values(a.clone()),
            tol,
            &what("Q·R"),
        );
        assert_close(
            &values(rr.clone().tril(-1)),
            &vec![0.0; values(rr).len()],
            0.0,
            &what("R upper"),
        );
        assert_orthonormal_columns(q, tol, &what("Q"));
    }
}

#[test]
fn rectangular_cases_match_numpy() {
    let r = reference();
    for case in r["rect"].as_array().unwrap() {
        let dtype = dtype_of(case["dtype"].as_str().unwrap());
        if dtype == DType::F64 && !has_f64() {
            continue;
        }
        let tol = tol(dtype) * 10.0;
        let (a, shape) = as4(&case["a"], dtype);
        let (m, n) = (shape[shape.len() - 2], shape[shape.len() - 1]);
        let k = m.min(n);
        let what = |s: &str| format!("{s} {dtype:?} {shape:?}");
        let (b, _) = as4(&case["b"], dtype);
        assert_close(
            &values(lstsq(a.clone(), b)),
            &array(&case["lstsq"]).1,
            tol,
            &what("lstsq"),
        );
        for reduced in [true, false] {
            let (q, rr) = qr(a.clone(), reduced);
            let qk = if reduced { k } else { m };
            assert_eq!(&q.dims()[2..], &[m, qk]);
            assert_eq!(&rr.dims()[2..], &[qk, n]);
            assert_close(
                &values(q.clone().matmul(rr.clone())),
                &values(a.clone()),
                tol,
                &what("Q·R"),
            );
            assert_orthonormal_columns(q, tol, &what("Q"));
            let len = values(rr.clone()).len();
            assert_close(&values(rr.tril(-1)), &vec![0.0; len], 0.0, &what("R upper"));
        }
        let (u, s, vh): (Tensor<4>, Tensor<3>, Tensor<4>) = svd(a.clone(), 60);
        assert_eq!(&u.dims()[2..], &[m, k]);
        assert_eq!(s.dims()[2], k);
        assert_eq!(&vh.dims()[2..], &[k, n]);
        assert_close(
            &values(s.clone()),
            &array(&case["sv"]).1,
            tol,
            &what("singular values"),
        );
        let rec = (u.clone() * s.unsqueeze_dim::<4>(2)).matmul(vh.clone());
        assert_close(&values(rec), &values(a), tol, &what("U·S·Vh"));
        assert_orthonormal_columns(u, tol, &what("U"));
        assert_orthonormal_columns(t(vh), tol, &what("V"));
    }
}

#[test]
fn solve_broadcasts_leading_dims() {
    let r = reference();
    let c = &r["broadcast"];
    for dtype in dtypes() {
        let a: Tensor<4> = load(&c["a"], dtype);
        let b: Tensor<4> = load(&c["b"], dtype);
        let (shape, x) = host(solve::<4, 4, 4>(a, b), dtype);
        assert_eq!(shape, vec![2, 4, 3, 2]);
        assert_close(&x, &array(&c["x"]).1, tol(dtype) * 10.0, "broadcast solve");
    }
}

#[test]
fn singular_and_indefinite_input_is_an_error() {
    for dtype in dtypes() {
        // Second matrix of the batch is singular (rank 1).
        let a: Tensor<3> = tensor(
            vec![2.0, 1.0, 1.0, 3.0, 1.0, 2.0, 2.0, 4.0],
            &[2, 2, 2],
            dtype,
        );
        let b: Tensor<2> = tensor(vec![1.0, 1.0, 1.0, 1.0], &[2, 2], dtype);
        match try_solve::<3, 2, 2>(a.clone(), b) {
            Err(LinalgError::Singular {
                op: "solve",
                batch: 1,
                pivot: 1,
                ..
            }) => {}
            other => panic!("expected Singular, got {:?}", other.map(|x| x.dims())),
        }
        assert!(matches!(
            try_inverse(a.clone()),
            Err(LinalgError::Singular { batch: 1, .. })
        ));
        // det of the singular one is 0, not an error.
        let d = det::<3, 2, 1>(a);
        assert!(values(d)[1].abs() < 1e-6);
        // Indefinite: eigenvalues 3 and −1; fails at column 1.
        let s: Tensor<3> = tensor(vec![1.0, 2.0, 2.0, 1.0], &[1, 2, 2], dtype);
        let err = try_cholesky(s, false).unwrap_err();
        assert_eq!(
            err,
            LinalgError::NotPositiveDefinite {
                op: "cholesky",
                shape: vec![1, 2, 2],
                batch: 0,
                column: 1
            }
        );
        assert!(err.to_string().contains("not positive definite"));
        // Rank-deficient least squares.
        let a: Tensor<2> = tensor(vec![1.0, 2.0, 2.0, 4.0, 3.0, 6.0], &[3, 2], dtype);
        let b: Tensor<1> = tensor(vec![1.0, 2.0, 3.0], &[3], dtype);
        assert!(matches!(
            try_lstsq(a, b),
            Err(LinalgError::RankDeficient { .. })
        ));
        // Shape errors.
        let r: Tensor<2> = tensor(vec![0.0; 6], &[2, 3], dtype);
        assert!(matches!(
            try_inverse(r.clone()),
            Err(LinalgError::NotSquare { .. })
        ));
        assert!(matches!(
            try_cholesky(r, false),
            Err(LinalgError::NotSquare { .. })
        ));
    }
}

#[test]
#[should_panic(expected = "solve: matrix 0 of shape [2, 2] is singular")]
fn plain_form_panics_naming_the_function() {
    let a: Tensor<2> = tensor(vec![1.0, 2.0, 2.0, 4.0], &[2, 2], DType::F32);
    let b: Tensor<1> = tensor(vec![1.0, 1.0], &[2], DType::F32);
    let _: Tensor<1> = solve(a, b);
}

#[test]
fn one_by_one_and_empty_inputs() {
    let dtype = DType::F32;
    let a: Tensor<3> = tensor(vec![4.0], &[1, 1, 1], dtype);
    let d = det::<3, 2, 1>(a.clone());
    assert_eq!(values(d), vec![4.0]);
    assert_eq!(values(cholesky(a.clone(), false)), vec![2.0]);
    assert_eq!(values(inverse(a.clone())), vec![0.25]);
    let (l, _): (Tensor<2>, Tensor<3>) = eigh(a.clone());
    assert_eq!(values(l), vec![4.0]);
    // 0 × 0 matrices and a batch of 0.
    for shape in [[2, 0, 0], [0, 3, 3]] {
        let e: Tensor<3> = tensor(vec![], &shape, dtype);
        assert_eq!(inverse(e.clone()).dims(), shape);
        assert_eq!(cholesky(e.clone(), false).dims(), shape);
        let (p, l, u) = lu::<3, 2>(e.clone());
        assert_eq!((p.dims(), l.dims(), u.dims()), (shape, shape, shape));
        let (q, r) = qr(e.clone(), true);
        assert_eq!((q.dims(), r.dims()), (shape, shape));
        let (u, s, vh): (Tensor<3>, Tensor<2>, Tensor<3>) = svd(e.clone(), 60);
        assert_eq!((u.dims(), vh.dims()), (shape, shape));
        assert_eq!(s.dims(), [shape[0], shape[1].min(shape[2])]);
        let d = det::<3, 2, 1>(e.clone());
        // The determinant of a 0 × 0 matrix is 1.
        assert_eq!(values(d), vec![1.0; shape[0]]);
        let x: Tensor<3> = solve(e.clone(), e);
        assert_eq!(x.dims(), shape);
    }
}

#[test]
fn ill_conditioned_f64_solve_keeps_backward_error_small() {
    if !has_f64() {
        return;
    }
    // Hilbert 8 × 8: cond ≈ 1.5e10; the residual stays at rounding level.
    let n = 8;
    let h: Vec<f64> = (0..n * n)
        .map(|k| 1.0 / ((k / n + k % n + 1) as f64))
        .collect();
    let a: Tensor<2> = tensor(h, &[n, n], DType::F64);
    let b: Tensor<1> = tensor(vec![1.0; n], &[n], DType::F64);
    let x: Tensor<1> = solve(a.clone(), b.clone());
    let res = matvec(a, x) - b;
    let r = values(res).iter().fold(0.0f64, |m, v| m.max(v.abs()));
    assert!(r < 1e-9, "residual {r:e}");
}

#[test]
fn large_blocked_paths_reconstruct() {
    // Sizes past the block sizes (and GEMM thresholds) exercise the blocked
    // and threaded paths.
    if !has_f64() {
        return;
    }
    let n = 150;
    let mut seed = 12345u64;
    let data: Vec<f64> = (0..n * n)
        .map(|_| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        })
        .collect();
    let a: Tensor<2> = tensor(data, &[n, n], DType::F64);
    let (p, l, u) = lu::<2, 1>(a.clone());
    assert_close(
        &values(p.matmul(l).matmul(u)),
        &values(a.clone()),
        1e-12,
        "big P·L·U",
    );
    let (q, r) = qr(a.clone(), true);
    assert_close(
        &values(q.clone().matmul(r)),
        &values(a.clone()),
        1e-12,
        "big Q·R",
    );
    assert_orthonormal_columns(q, 1e-12, "big Q");
    let spd = a.clone().matmul(t(a.clone()))
        + burn_tensor::Tensor::<2>::from_data(
            burn_tensor::TensorData::new(
                (0..n * n)
                    .map(|k| if k / n == k % n { n as f64 } else { 0.0 })
                    .collect::<Vec<f64>>(),
                [n, n],
            ),
            (&device(), DType::F64),
        );
    let l = cholesky(spd.clone(), false);
    assert_close(
        &values(l.clone().matmul(t(l))),
        &values(spd),
        1e-12,
        "big L·Lᵀ",
    );
    let b: Tensor<2> = tensor(vec![1.0; n * 3], &[n, 3], DType::F64);
    let x: Tensor<2> = solve(a.clone(), b.clone());
    assert_close(&values(a.matmul(x)), &values(b), 1e-10, "big solve");
}

/// `solve::<D, DB, DO>` with `B` of another rank than `A` (`"solve_ranks"`,
/// NumPy broadcasting): `DO` picks a vector or a matrix right-hand side.
#[test]
fn solve_output_rank_picks_the_rhs_form() {
    let r = reference();
    let c = &r["solve_ranks"];
    for dtype in dtypes() {
        let tol = tol(dtype) * 10.0;
        let check = |(shape, got): (Vec<usize>, Vec<f64>), key: &str| {
            let (want_shape, want) = array(&c[key]);
            assert_eq!(shape, want_shape, "{key} shape");
            assert_close(&got, &want, tol, key);
        };
        let a3: Tensor<3> = load(&c["a3"], dtype);
        // One matrix B [3, 2] for every A [2, 3, 3]: X [2, 3, 2].
        check(
            host(solve::<3, 2, 3>(a3.clone(), load(&c["bm"], dtype)), dtype),
            "x_matrix",
        );
        // One vector B [3] for every A: X [2, 3].
        check(
            host(solve::<3, 1, 2>(a3.clone(), load(&c["bv"], dtype)), dtype),
            "x_vector",
        );
        // B of higher rank than A: A [3, 3], B [2, 4, 3, 2] → X [2, 4, 3, 2].
        let a2: Tensor<2> = load(&c["a2"], dtype);
        check(
            host(solve::<2, 4, 4>(a2, load(&c["b4"], dtype)), dtype),
            "x_high",
        );
        // A [3, 3, 3], B [3, 3]: both forms fit, DO decides.
        let sq: Tensor<3> = load(&c["sq"], dtype);
        let sb: Tensor<2> = load(&c["sb"], dtype);
        check(
            host(solve::<3, 2, 2>(sq.clone(), sb.clone()), dtype),
            "x_batch_of_vectors",
        );
        check(host(solve::<3, 2, 3>(sq, sb), dtype), "x_one_matrix");
        // A DO that fits neither form is refused, naming the rule.
        let err = try_solve::<3, 2, 4>(a3.clone(), load(&c["bm"], dtype)).unwrap_err();
        assert!(
            matches!(err, LinalgError::ShapeMismatch { op: "solve", .. }),
            "{err}"
        );
        assert!(err.to_string().contains("output rank max(D, DB)"), "{err}");
    }
}

#[test]
fn lstsq_broadcasts_a_higher_rank_rhs() {
    // A [5, 3] against B [2, 5, 2] (DB ≥ D: matrix), X [2, 5 → 3, 2]; each
    // batch entry equals lstsq against that B alone.
    let dtype = DType::F64;
    if !has_f64() {
        return;
    }
    let a: Tensor<2> = tensor(
        (0..15).map(|v| ((v * 7) % 11) as f64).collect(),
        &[5, 3],
        dtype,
    );
    let b: Tensor<3> = tensor(
        (0..20).map(|v| ((v * 3) % 7) as f64).collect(),
        &[2, 5, 2],
        dtype,
    );
    let x = lstsq(a.clone(), b.clone());
    assert_eq!(x.dims(), [2, 3, 2]);
    for i in 0..2 {
        let bi: Tensor<2> = b.clone().narrow(0, i, 1).squeeze_dim(0);
        let xi: Tensor<2> = x.clone().narrow(0, i, 1).squeeze_dim(0);
        assert_close(
            &values(xi),
            &values(lstsq(a.clone(), bi)),
            1e-12,
            "lstsq batch",
        );
    }
}

#[test]
fn rank_parameters_are_checked() {
    let a: Tensor<3> = tensor(vec![2.0, 1.0, 1.0, 3.0], &[1, 2, 2], DType::F32);
    assert_eq!(
        try_det::<3, 1, 1>(a.clone()).unwrap_err(),
        LinalgError::RankParam {
            op: "det",
            param: "D1",
            rule: "D - 1",
            expected: 2,
            got: 1
        }
    );
    assert!(matches!(
        try_det::<3, 2, 2>(a.clone()),
        Err(LinalgError::RankParam {
            param: "D2",
            expected: 1,
            got: 2,
            ..
        })
    ));
    assert!(matches!(
        try_lu::<3, 3>(a.clone()),
        Err(LinalgError::RankParam {
            op: "lu",
            param: "D1",
            ..
        })
    ));
    assert!(matches!(
        try_svd::<3, 3>(a.clone(), 10),
        Err(LinalgError::RankParam {
            op: "svd",
            param: "D1",
            ..
        })
    ));
    // D < 3 for det: give the matrix a batch dim.
    let m: Tensor<2> = tensor(vec![2.0, 1.0, 1.0, 3.0], &[2, 2], DType::F32);
    assert!(matches!(
        try_det::<2, 1, 0>(m),
        Err(LinalgError::RankTooLow {
            op: "det",
            min: 3,
            ..
        })
    ));
}

#[test]
#[should_panic(expected = "det: generic parameter D2 = 0 must be D - 2 = 1")]
fn det_panics_on_a_wrong_rank_parameter() {
    let a: Tensor<3> = tensor(vec![2.0, 1.0, 1.0, 3.0], &[1, 2, 2], DType::F32);
    let _ = det::<3, 2, 0>(a);
}

/// `sweeps` bounds the Jacobi sweeps: 0 rotates nothing (S = the sorted
/// column norms, Vh a permutation), an unconverged result still
/// reconstructs A, and a few sweeps suffice for a small matrix.
#[test]
fn svd_sweeps_bound_the_iteration() {
    if !has_f64() {
        return;
    }
    let dtype = DType::F64;
    // Columns (1, 2, 2) (norm 3) and (0, 3, 4) (norm 5), not orthogonal.
    let a: Tensor<2> = tensor(vec![1.0, 0.0, 2.0, 3.0, 2.0, 4.0], &[3, 2], dtype);
    let (u, s, vh): (Tensor<2>, Tensor<1>, Tensor<2>) = svd(a.clone(), 0);
    assert_close(
        &values(s.clone()),
        &[5.0, 3.0],
        1e-15,
        "sweeps = 0: column norms",
    );
    assert_eq!(values(vh.clone()), vec![0.0, 1.0, 1.0, 0.0]);
    let rec = (u * s.unsqueeze_dim::<2>(0)).matmul(vh);
    assert_close(
        &values(rec),
        &values(a.clone()),
        1e-14,
        "sweeps = 0 reconstructs",
    );
    // One sweep: a 2-column matrix has one pair, so one rotation
    // diagonalizes it; the singular values match NumPy's
    // (np.linalg.svd([[1, 0], [2, 3], [2, 4]])).
    let want = [5.755390125490806, 0.9356732888155468];
    for sweeps in [1, 2, 60] {
        let (u, s, vh): (Tensor<2>, Tensor<1>, Tensor<2>) = svd(a.clone(), sweeps);
        assert_close(&values(s.clone()), &want, 1e-14, "singular values");
        assert_orthonormal_columns(u.clone(), 1e-14, "U");
        let rec = (u * s.unsqueeze_dim::<2>(0)).matmul(vh);
        assert_close(&values(rec), &values(a.clone()), 1e-14, "U·S·Vh");
    }
}
