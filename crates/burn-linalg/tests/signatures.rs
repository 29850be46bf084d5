//! The published `burn_linalg` (0.23.0-pre.1) signatures, as fn pointers
//! with every generic named in Burn's order: this file compiles only while
//! ours match (same generics, same arguments, same return types).

use burn_linalg::*;
use burn_tensor::{Bool, Float, Int, Tensor};

#[test]
fn published_signatures_compile() {
    let _: fn(Tensor<3, Int>) -> Tensor<2, Int> = diag::<3, 2, Int>;
    let _: fn(Tensor<2, Bool>) -> Tensor<1, Bool> = diag::<2, 1, Bool>;
    let _: fn(Tensor<3>) -> Tensor<2> = trace::<3, 2>;
    let _: fn(Tensor<3, Int>, Tensor<2, Int>) -> Tensor<2, Int> = matvec::<3, 2, Int>;
    let _: fn(Tensor<2, Int>, Tensor<2, Int>) -> Tensor<3, Int> = outer::<2, 3, Int>;
    let _: fn(Tensor<2>, Tensor<2>, i64) -> Tensor<3> = outer_dim::<2, 3, i64, Float>;
    let _: fn(Tensor<3>) -> (Tensor<3>, Tensor<3>, Tensor<3>) = lu::<3, 2>;
    let _: fn(Tensor<3>, bool) -> (Tensor<3>, Tensor<3>) = qr::<3>;
    let _: fn(Tensor<3>, usize) -> (Tensor<3>, Tensor<2>, Tensor<3>) = svd::<3, 2>;
    let _: fn(Tensor<3>, Tensor<2>) -> Tensor<3> = solve::<3, 2, 3>;
    let _: fn(Tensor<3>, bool) -> Tensor<3> = cholesky::<3>;
    let _: fn(Tensor<3>) -> Tensor<1> = det::<3, 2, 1>;
    let _: fn(Tensor<2, Int>, i32) -> Tensor<2, Int> = l0_norm::<2, Int>;
    let _: fn(Tensor<2, Int>, &[usize]) -> Tensor<2, Int> = l0_norm_dims::<2, Int, usize>;
    let _: fn(Tensor<2, Int>, i32) -> Tensor<2, Int> = l1_norm::<2, Int>;
    let _: fn(Tensor<2, Int>, &[usize]) -> Tensor<2, Int> = l1_norm_dims::<2, Int, usize>;
    let _: fn(Tensor<2, Int>, i32) -> Tensor<2, Int> = max_abs_norm::<2, Int>;
    let _: fn(Tensor<2>, &[i32]) -> Tensor<2> = max_abs_norm_dims::<2, Float, i32>;
    let _: fn(Tensor<2, Int>, i32) -> Tensor<2, Int> = min_abs_norm::<2, Int>;
    let _: fn(Tensor<2>, &[i32]) -> Tensor<2> = min_abs_norm_dims::<2, Float, i32>;
    let _: fn(Tensor<2>, i32) -> Tensor<2> = l2_norm::<2>;
    let _: fn(Tensor<2>, Norm, i32) -> Tensor<2> = vector_norm::<2>;
    let _: fn(Tensor<2>, Norm, i32, f64) -> Tensor<2> = vector_normalize::<2, f64>;
    let _: fn(Tensor<2>, Tensor<2>, i32, Option<f64>) -> Tensor<2> = cosine_similarity::<2>;
}
