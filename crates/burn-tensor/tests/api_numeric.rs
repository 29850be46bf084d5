#![cfg(feature = "flex")]
//! Numeric, float, int and activation API of `Tensor`, on the Flex device,
//! against hand-worked values. The float references (softmax, gelu, var, …)
//! come from `tests/reference/api_numeric.py`, which uses Python's `math`
//! module only; its output is quoted next to each test.

use std::f64::consts::LN_2;

use burn_tensor::{Bool, Device, Distribution, Int, Tensor, activation};

fn dev() -> Device {
    Device::flex()
}

fn floats<const D: usize>(t: Tensor<D>) -> Vec<f32> {
    t.into_data().to_vec::<f32>().unwrap()
}

fn ints<const D: usize>(t: Tensor<D, Int>) -> Vec<i64> {
    t.into_data().to_vec::<i64>().unwrap()
}

fn bools<const D: usize>(t: Tensor<D, Bool>) -> Vec<bool> {
    t.into_data().to_vec::<bool>().unwrap()
}

#[track_caller]
fn assert_close(actual: &[f32], expected: &[f64], tol: f64) {
    assert_eq!(actual.len(), expected.len(), "{actual:?} vs {expected:?}");
    for (i, (&a, &e)) in actual.iter().zip(expected).enumerate() {
        assert!(
            (a as f64 - e).abs() <= tol * (1.0 + e.abs()),
            "element {i}: got {a}, expected {e} (actual {actual:?})"
        );
    }
}

fn t1(values: &[f32]) -> Tensor<1> {
    Tensor::from_data(
        burn_tensor::TensorData::new(values.to_vec(), [values.len()]),
        &dev(),
    )
}

fn i1(values: &[i64]) -> Tensor<1, Int> {
    Tensor::from_data(
        burn_tensor::TensorData::new(values.to_vec(), [values.len()]),
        &dev(),
    )
}

// ------------------------------------------------------------------ arithmetic

#[test]
fn add_broadcasts_column_and_row() {
    let col = Tensor::<2>::from_data([[1.0], [2.0]], &dev());
    let row = Tensor::<2>::from_data([[10.0, 20.0, 30.0]], &dev());
    let y = col.add(row);
    assert_eq!(y.dims(), [2, 3]);
    assert_eq!(floats(y), vec![11.0, 21.0, 31.0, 12.0, 22.0, 32.0]);
}

#[test]
fn sub_mul_div_broadcast() {
    let x = Tensor::<2>::from_data([[2.0, 4.0], [6.0, 8.0]], &dev());
    let row = Tensor::<2>::from_data([[1.0, 2.0]], &dev());
    assert_eq!(floats(x.clone().sub(row.clone())), vec![1.0, 2.0, 5.0, 6.0]);
    assert_eq!(
        floats(x.clone().mul(row.clone())),
        vec![2.0, 8.0, 6.0, 16.0]
    );
    assert_eq!(floats(x.div(row)), vec![2.0, 2.0, 6.0, 4.0]);
}

#[test]
#[should_panic(expected = "add: shapes [2, 3] and [2, 2] cannot be broadcast together")]
fn add_incompatible_shapes_panics() {
    let a = Tensor::<2>::zeros([2, 3], &dev());
    let b = Tensor::<2>::zeros([2, 2], &dev());
    let _ = a + b;
}

#[test]
#[should_panic(expected = "greater: shapes [3] and [2] cannot be broadcast together")]
fn compare_incompatible_shapes_panics() {
    let _ = t1(&[1.0, 2.0, 3.0]).greater(t1(&[1.0, 2.0]));
}

#[test]
fn tensor_tensor_operators() {
    let a = t1(&[6.0, 8.0]);
    let b = t1(&[2.0, 4.0]);
    assert_eq!(floats(a.clone() + b.clone()), vec![8.0, 12.0]);
    assert_eq!(floats(a.clone() - b.clone()), vec![4.0, 4.0]);
    assert_eq!(floats(a.clone() * b.clone()), vec![12.0, 32.0]);
    assert_eq!(floats(a.clone() / b.clone()), vec![3.0, 2.0]);
    assert_eq!(floats(a % b), vec![0.0, 0.0]);
}

#[test]
fn scalar_on_the_right() {
    let x = t1(&[1.0, 2.0, 3.0]);
    assert_eq!(floats(x.clone() + 1.5), vec![2.5, 3.5, 4.5]);
    assert_eq!(floats(x.clone() - 1), vec![0.0, 1.0, 2.0]);
    assert_eq!(floats(x.clone() * 2), vec![2.0, 4.0, 6.0]);
    assert_eq!(floats(x.clone() / 2.0f32), vec![0.5, 1.0, 1.5]);
    assert_eq!(floats(x % 2), vec![1.0, 0.0, 1.0]);
}

#[test]
fn scalar_on_the_left() {
    let x = t1(&[1.0, 2.0, 4.0]);
    assert_eq!(floats(2.0 * x.clone()), vec![2.0, 4.0, 8.0]);
    assert_eq!(floats(1.0f32 + x.clone()), vec![2.0, 3.0, 5.0]);
    assert_eq!(floats(1 - x.clone()), vec![0.0, -1.0, -3.0]);
    assert_eq!(floats(8.0 / x.clone()), vec![8.0, 4.0, 2.0]);
    // Python: 5 % 1, 5 % 2, 5 % 4
    assert_eq!(floats(5i64 % x), vec![0.0, 1.0, 1.0]);

    let n = i1(&[1, 2, -3]);
    assert_eq!(ints(10i32 - n.clone()), vec![9, 8, 13]);
    assert_eq!(ints(3i64 * n.clone()), vec![3, 6, -9]);
    // Python: 7 // 1, 7 // 2, 7 // -3 = 7, 3, -3
    assert_eq!(ints(7i64 / n.clone()), vec![7, 3, -3]);
    // Python: 7 % -3 = -2
    assert_eq!(ints(7i32 % n), vec![0, 1, -2]);
}

#[test]
fn neg_operator_and_method() {
    assert_eq!(floats(-t1(&[1.0, -2.0, 0.0])), vec![-1.0, 2.0, 0.0]);
    assert_eq!(ints(-i1(&[3, -4])), vec![-3, 4]);
    assert_eq!(ints(i1(&[5]).neg()), vec![-5]);
}

#[test]
fn int_floor_division_signs() {
    // Python: 7 // 3 = 2, -7 // 3 = -3, 7 // -3 = -3, -7 // -3 = 2
    let a = i1(&[7, -7, 7, -7]);
    let b = i1(&[3, 3, -3, -3]);
    assert_eq!(ints(a.clone().div(b)), vec![2, -3, -3, 2]);
    assert_eq!(ints(a.div_scalar(3)), vec![2, -3, 2, -3]);
}

#[test]
fn int_remainder_takes_sign_of_divisor() {
    // Python: 7 % 3 = 1, -7 % 3 = 2, 7 % -3 = -2, -7 % -3 = -1
    let a = i1(&[7, -7, 7, -7]);
    let b = i1(&[3, 3, -3, -3]);
    assert_eq!(ints(a.clone().remainder(b)), vec![1, 2, -2, -1]);
    assert_eq!(ints(a.clone().remainder_scalar(-3)), vec![-2, -1, -2, -1]);
    assert_eq!(ints(a % 3), vec![1, 2, 1, 2]);
}

#[test]
fn float_remainder_takes_sign_of_divisor() {
    // Python: 5.5 % -2 = -0.5, -5.5 % 2 = 0.5
    let a = t1(&[5.5, -5.5]);
    let b = t1(&[-2.0, 2.0]);
    assert_eq!(floats(a.remainder(b)), vec![-0.5, 0.5]);
}

#[test]
fn abs_sign() {
    let x = t1(&[-2.5, 0.0, 3.0]);
    assert_eq!(floats(x.clone().abs()), vec![2.5, 0.0, 3.0]);
    assert_eq!(floats(x.sign()), vec![-1.0, 0.0, 1.0]);
    assert_eq!(ints(i1(&[-4, 0, 9]).sign()), vec![-1, 0, 1]);
    assert_eq!(ints(i1(&[-4, 0, 9]).abs()), vec![4, 0, 9]);
}

#[test]
fn powers() {
    let x = t1(&[2.0, -3.0, 4.0]);
    assert_eq!(floats(x.clone().powi_scalar(3)), vec![8.0, -27.0, 64.0]);
    assert_eq!(
        floats(x.clone().powi(i1(&[0, 2, -1]))),
        vec![1.0, 9.0, 0.25]
    );
    assert_eq!(floats(x.clone().square()), vec![4.0, 9.0, 16.0]);
    assert_close(&floats(t1(&[4.0, 9.0]).powf_scalar(0.5)), &[2.0, 3.0], 1e-6);
    assert_close(
        &floats(t1(&[2.0, 9.0]).powf(t1(&[3.0, 0.5]))),
        &[8.0, 3.0],
        1e-6,
    );
    assert_eq!(ints(i1(&[2, -3, 5]).powi_scalar(3)), vec![8, -27, 125]);
    assert_eq!(ints(i1(&[2, 3]).powi(i1(&[10, 3]))), vec![1024, 27]);
}

#[test]
fn clamp_variants() {
    let x = t1(&[-2.0, 0.5, 3.0]);
    assert_eq!(floats(x.clone().clamp(-1.0, 1.0)), vec![-1.0, 0.5, 1.0]);
    assert_eq!(floats(x.clone().clamp_min(0.0)), vec![0.0, 0.5, 3.0]);
    assert_eq!(floats(x.clamp_max(0)), vec![-2.0, 0.0, 0.0]);
    assert_eq!(ints(i1(&[-5, 2, 9]).clamp(0, 4)), vec![0, 2, 4]);
}

#[test]
fn max_min_pair() {
    let a = t1(&[1.0, 5.0, -2.0]);
    let b = t1(&[3.0, 4.0, -2.0]);
    assert_eq!(floats(a.clone().max_pair(b.clone())), vec![3.0, 5.0, -2.0]);
    assert_eq!(floats(a.min_pair(b)), vec![1.0, 4.0, -2.0]);
}

// ----------------------------------------------------------------- comparisons

#[test]
fn comparisons_tensor_and_elem() {
    let a = t1(&[1.0, 2.0, 3.0]);
    let b = t1(&[2.0, 2.0, 2.0]);
    assert_eq!(
        bools(a.clone().greater(b.clone())),
        vec![false, false, true]
    );
    assert_eq!(
        bools(a.clone().greater_equal(b.clone())),
        vec![false, true, true]
    );
    assert_eq!(bools(a.clone().lower(b.clone())), vec![true, false, false]);
    assert_eq!(bools(a.clone().lower_equal(b)), vec![true, true, false]);
    assert_eq!(bools(a.clone().greater_elem(2)), vec![false, false, true]);
    assert_eq!(
        bools(a.clone().greater_equal_elem(2.0)),
        vec![false, true, true]
    );
    assert_eq!(bools(a.clone().lower_elem(2)), vec![true, false, false]);
    assert_eq!(bools(a.lower_equal_elem(2)), vec![true, true, false]);
    assert_eq!(bools(i1(&[1, 5]).greater_elem(3)), vec![false, true]);
}

// ------------------------------------------------------------------ reductions

#[test]
fn sum_with_and_without_dim() {
    let x = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &dev());
    let total = x.clone().sum();
    assert_eq!(total.dims(), [1]);
    assert_eq!(floats(total), vec![21.0]);
    let cols = x.clone().sum_dim(0);
    assert_eq!(cols.dims(), [1, 3]);
    assert_eq!(floats(cols), vec![5.0, 7.0, 9.0]);
    let rows = x.sum_dim(1);
    assert_eq!(rows.dims(), [2, 1]);
    assert_eq!(floats(rows), vec![6.0, 15.0]);
}

#[test]
fn mean_and_prod() {
    let x = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 6.0]], &dev());
    assert_eq!(floats(x.clone().mean()), vec![3.0]);
    assert_eq!(floats(x.clone().mean_dim(1)), vec![1.5, 4.5]);
    assert_eq!(floats(x.clone().prod()), vec![36.0]);
    assert_eq!(floats(x.prod_dim(0)), vec![3.0, 12.0]);
    // Int mean floors: (1 + 2) // 2 = 1, (-1 + -2) // 2 = -2
    let n = Tensor::<2, Int>::from_data([[1, 2], [-1, -2]], &dev());
    assert_eq!(ints(n.clone().mean_dim(1)), vec![1, -2]);
    assert_eq!(ints(n.sum()), vec![0]);
}

#[test]
fn max_min_with_and_without_dim() {
    let x = Tensor::<2>::from_data([[1.0, 9.0, -3.0], [4.0, -8.0, 6.0]], &dev());
    assert_eq!(floats(x.clone().max()), vec![9.0]);
    assert_eq!(floats(x.clone().min()), vec![-8.0]);
    assert_eq!(floats(x.clone().max_dim(1)), vec![9.0, 6.0]);
    assert_eq!(floats(x.clone().min_dim(0)), vec![1.0, -8.0, -3.0]);
    assert_eq!(floats(x.clone().max_abs()), vec![9.0]);
    assert_eq!(floats(x.max_abs_dim(0)), vec![4.0, 9.0, 6.0]);
}

#[test]
fn max_min_dim_with_indices() {
    let x = Tensor::<2>::from_data([[1.0, 9.0, -3.0], [4.0, -8.0, 6.0]], &dev());
    let (values, indices) = x.clone().max_dim_with_indices(1);
    assert_eq!(values.dims(), [2, 1]);
    assert_eq!(floats(values), vec![9.0, 6.0]);
    assert_eq!(ints(indices), vec![1, 2]);
    let (values, indices) = x.min_dim_with_indices(0);
    assert_eq!(floats(values), vec![1.0, -8.0, -3.0]);
    assert_eq!(ints(indices), vec![0, 1, 0]);
}

#[test]
fn argmax_argmin_take_first_on_ties() {
    let x = Tensor::<2>::from_data([[2.0, 7.0, 7.0, 1.0], [0.0, 0.0, -1.0, -1.0]], &dev());
    let i = x.clone().argmax(1);
    assert_eq!(i.dims(), [2, 1]);
    assert_eq!(ints(i), vec![1, 0]);
    assert_eq!(ints(x.argmin(1)), vec![3, 2]);
    assert_eq!(ints(i1(&[3, 1, 3, 1]).argmax(0)), vec![0]);
    assert_eq!(ints(i1(&[3, 1, 3, 1]).argmin(0)), vec![1]);
}

#[test]
#[should_panic(expected = "sum_dim: dim 2 is out of range for a tensor of shape [2, 3] (rank 2)")]
fn reduction_dim_out_of_range_panics() {
    let _ = Tensor::<2>::zeros([2, 3], &dev()).sum_dim(2);
}

#[test]
fn variance_unbiased_and_biased() {
    // Python: var([1,2,3,4]) = 1.6666666666666667 (n - 1), var_bias = 1.25;
    //         var([2,4,6,8]) = 6.666666666666667, var_bias = 5.0
    let x = Tensor::<2>::from_data([[1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 6.0, 8.0]], &dev());
    let v = x.clone().var(1);
    assert_eq!(v.dims(), [2, 1]);
    assert_close(&floats(v), &[5.0 / 3.0, 20.0 / 3.0], 1e-6);
    assert_close(&floats(x.clone().var_bias(1)), &[1.25, 5.0], 1e-6);
    let (var, mean) = x.clone().var_mean(1);
    assert_close(&floats(var), &[1.6666666666666667, 6.666666666666667], 1e-6);
    assert_close(&floats(mean), &[2.5, 5.0], 1e-6);
    let (var, mean) = x.var_mean_bias(0);
    // columns: (1,2) (2,4) (3,6) (4,8): biased var = (d/2)^2 with d = 1, 2, 3, 4
    assert_close(&floats(var), &[0.25, 1.0, 2.25, 4.0], 1e-6);
    assert_close(&floats(mean), &[1.5, 3.0, 4.5, 6.0], 1e-6);
}

// ------------------------------------------------------------------ cumulative

#[test]
fn cumulative_sum_along_each_dim() {
    let x = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &dev());
    assert_eq!(
        floats(x.clone().cumsum(1)),
        vec![1.0, 3.0, 6.0, 4.0, 9.0, 15.0]
    );
    assert_eq!(floats(x.cumsum(0)), vec![1.0, 2.0, 3.0, 5.0, 7.0, 9.0]);
    assert_eq!(ints(i1(&[1, -2, 3]).cumsum(0)), vec![1, -1, 2]);
}

#[test]
fn cumulative_prod_min_max() {
    let x = t1(&[2.0, -1.0, 3.0, -4.0]);
    assert_eq!(floats(x.clone().cumprod(0)), vec![2.0, -2.0, -6.0, 24.0]);
    assert_eq!(floats(x.clone().cummax(0)), vec![2.0, 2.0, 3.0, 3.0]);
    assert_eq!(floats(x.cummin(0)), vec![2.0, -1.0, -1.0, -4.0]);
}

// ------------------------------------------------------------------------ sort

#[test]
fn sort_ascending_and_descending() {
    let x = Tensor::<2>::from_data([[3.0, 1.0, 2.0], [0.0, -5.0, 9.0]], &dev());
    assert_eq!(
        floats(x.clone().sort(1)),
        vec![1.0, 2.0, 3.0, -5.0, 0.0, 9.0]
    );
    assert_eq!(
        floats(x.clone().sort_descending(1)),
        vec![3.0, 2.0, 1.0, 9.0, 0.0, -5.0]
    );
    assert_eq!(floats(x.sort(0)), vec![0.0, -5.0, 2.0, 3.0, 1.0, 9.0]);
}

#[test]
fn sort_with_indices_and_argsort_are_stable() {
    let x = t1(&[2.0, 1.0, 2.0, 0.0]);
    let (values, indices) = x.clone().sort_with_indices(0);
    assert_eq!(floats(values), vec![0.0, 1.0, 2.0, 2.0]);
    assert_eq!(ints(indices), vec![3, 1, 0, 2]);
    let (values, indices) = x.clone().sort_descending_with_indices(0);
    assert_eq!(floats(values), vec![2.0, 2.0, 1.0, 0.0]);
    assert_eq!(ints(indices), vec![0, 2, 1, 3]);
    assert_eq!(ints(x.clone().argsort(0)), vec![3, 1, 0, 2]);
    assert_eq!(ints(x.argsort_descending(0)), vec![0, 2, 1, 3]);
    assert_eq!(ints(i1(&[5, -1, 3]).sort(0)), vec![-1, 3, 5]);
}

#[test]
fn topk_values_and_indices() {
    let x = Tensor::<2>::from_data([[1.0, 7.0, 3.0, 5.0], [8.0, 2.0, 6.0, 4.0]], &dev());
    let (values, indices) = x.clone().topk_with_indices(2, 1);
    assert_eq!(values.dims(), [2, 2]);
    assert_eq!(floats(values), vec![7.0, 5.0, 8.0, 6.0]);
    assert_eq!(ints(indices), vec![1, 3, 0, 2]);
    assert_eq!(floats(x.topk(1, 0)), vec![8.0, 7.0, 6.0, 5.0]);
}

#[test]
#[should_panic(expected = "topk: k = 5 is larger than dim 1 (size 4) of shape [2, 4]")]
fn topk_k_larger_than_dim_panics() {
    let _ = Tensor::<2>::zeros([2, 4], &dev()).topk(5, 1);
}

// ------------------------------------------------------------------- triangles

#[test]
fn tril_and_triu() {
    let x = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], &dev());
    assert_eq!(
        floats(x.clone().tril(0)),
        vec![1.0, 0.0, 0.0, 4.0, 5.0, 0.0, 7.0, 8.0, 9.0]
    );
    assert_eq!(
        floats(x.clone().tril(-1)),
        vec![0.0, 0.0, 0.0, 4.0, 0.0, 0.0, 7.0, 8.0, 0.0]
    );
    assert_eq!(
        floats(x.clone().triu(0)),
        vec![1.0, 2.0, 3.0, 0.0, 5.0, 6.0, 0.0, 0.0, 9.0]
    );
    assert_eq!(
        floats(x.triu(1)),
        vec![0.0, 2.0, 3.0, 0.0, 0.0, 6.0, 0.0, 0.0, 0.0]
    );
    let n = Tensor::<2, Int>::from_data([[1, 2], [3, 4]], &dev());
    assert_eq!(ints(n.tril(0)), vec![1, 0, 3, 4]);
}

#[test]
#[should_panic(expected = "tril: needs a tensor of at least 2 dims")]
fn tril_of_a_vector_panics() {
    let _ = t1(&[1.0, 2.0]).tril(0);
}

// -------------------------------------------------------------------- indexing

#[test]
fn scatter_adds_values() {
    let x = Tensor::<2>::zeros([2, 3], &dev());
    let indices = Tensor::<2, Int>::from_data([[0, 2, 0], [1, 1, 1]], &dev());
    let values = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &dev());
    // Row 0: 1 and 3 land on column 0, 2 on column 2. Row 1: all on column 1.
    assert_eq!(
        floats(x.scatter(1, indices, values)),
        vec![4.0, 0.0, 2.0, 0.0, 15.0, 0.0]
    );
}

#[test]
fn select_assign_adds_slices() {
    let x = Tensor::<2>::ones([3, 2], &dev());
    let values = Tensor::<2>::from_data([[10.0, 20.0], [30.0, 40.0]], &dev());
    let y = x.select_assign(0, i1(&[2, 2]), values);
    assert_eq!(floats(y), vec![1.0, 1.0, 1.0, 1.0, 41.0, 61.0]);
}

// ------------------------------------------------------------------ float only

#[test]
fn float_unary_functions() {
    assert_close(
        &floats(t1(&[0.0, 1.0]).exp()),
        &[1.0, std::f64::consts::E],
        1e-6,
    );
    assert_close(
        &floats(t1(&[1.0, std::f32::consts::E]).log()),
        &[0.0, 1.0],
        1e-6,
    );
    assert_close(&floats(t1(&[4.0, 0.25]).sqrt()), &[2.0, 0.5], 1e-6);
    assert_close(&floats(t1(&[2.0, 4.0]).recip()), &[0.5, 0.25], 1e-6);
    assert_close(&floats(t1(&[0.0]).cos()), &[1.0], 1e-6);
    // Python: math.atan2(1, -1) = 2.356194490192345
    assert_close(
        &floats(t1(&[1.0]).atan2(t1(&[-1.0]))),
        &[2.356194490192345],
        1e-6,
    );
}

#[test]
fn rounding_functions() {
    let x = t1(&[-1.5, -0.5, 0.5, 1.5, 2.5, 2.7]);
    // Half to even, as PyTorch.
    assert_eq!(
        floats(x.clone().round()),
        vec![-2.0, -0.0, 0.0, 2.0, 2.0, 3.0]
    );
    assert_eq!(
        floats(x.clone().floor()),
        vec![-2.0, -1.0, 0.0, 1.0, 2.0, 2.0]
    );
    assert_eq!(
        floats(x.clone().ceil()),
        vec![-1.0, -0.0, 1.0, 2.0, 3.0, 3.0]
    );
    assert_eq!(floats(x.trunc()), vec![-1.0, -0.0, 0.0, 1.0, 2.0, 2.0]);
}

#[test]
fn nan_inf_and_closeness() {
    let x = t1(&[1.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY]);
    assert_eq!(bools(x.clone().is_nan()), vec![false, true, false, false]);
    assert_eq!(bools(x.clone().is_inf()), vec![false, false, true, true]);
    assert_eq!(bools(x.contains_nan()), vec![true]);
    assert_eq!(bools(t1(&[1.0, 2.0]).contains_nan()), vec![false]);

    let a = t1(&[1.0, 100.0, f32::INFINITY]);
    let b = t1(&[1.000001, 100.01, f32::INFINITY]);
    assert_eq!(
        bools(a.clone().is_close(b.clone(), None, None)),
        vec![true, false, true]
    );
    assert!(!a.clone().all_close(b.clone(), None, None));
    assert!(a.all_close(b, Some(1e-3), None));
}

#[test]
fn float_int_conversions() {
    let i = t1(&[2.9, -2.9, 0.4]).int();
    assert_eq!(i.dtype(), dev().settings().int_dtype);
    assert_eq!(ints(i.clone()), vec![2, -2, 0]);
    let f = i.float();
    assert_eq!(f.dtype(), dev().settings().float_dtype);
    assert_eq!(floats(f), vec![2.0, -2.0, 0.0]);
    assert_eq!(
        floats(Tensor::<1>::from_floats([1.5, 2.5], &dev())),
        vec![1.5, 2.5]
    );
    assert_eq!(
        ints(Tensor::<1, Int>::from_ints([1, 2], &dev())),
        vec![1, 2]
    );
}

#[test]
fn plain_tensors_carry_no_autodiff_context() {
    // A tensor on a plain device: no graph, and `detach` / `set_require_grad(false)`
    // leave its values alone.
    let x = t1(&[1.0, 2.0]);
    assert!(!x.is_require_grad());
    assert!(!x.is_autodiff());
    assert!(!x.is_tracked());
    assert_eq!(floats(x.set_require_grad(false).detach()), vec![1.0, 2.0]);
}

#[test]
#[should_panic(expected = "require_grad")]
fn require_grad_on_a_plain_tensor_is_refused() {
    // With the `autodiff` feature, marking a tensor that has no autodiff
    // context is an error naming the op; without it, this build has no
    // autodiff at all and refuses the same call.
    let _ = t1(&[1.0, 2.0]).require_grad();
}

#[test]
fn random_float_and_int() {
    let device = dev();
    let x = Tensor::<2>::random([4, 8], Distribution::Uniform(-1.0, 1.0), &device);
    assert_eq!(x.dims(), [4, 8]);
    assert!(floats(x).iter().all(|v| (-1.0..1.0).contains(v)));
    let n = Tensor::<1, Int>::random([100], Distribution::Uniform(0.0, 5.0), &device);
    assert!(ints(n).iter().all(|v| (0..5).contains(v)));
    let b = Tensor::<1>::random([50], Distribution::Bernoulli(1.0), &device);
    assert_eq!(floats(b), vec![1.0; 50]);
}

// -------------------------------------------------------------------- int only

#[test]
fn arange_step_values() {
    assert_eq!(
        ints(Tensor::<1, Int>::arange_step(0..10, 3, &dev())),
        vec![0, 3, 6, 9]
    );
    assert_eq!(
        ints(Tensor::<1, Int>::arange_step(-2..3, 2, &dev())),
        vec![-2, 0, 2]
    );
}

#[test]
#[should_panic(expected = "arange_step: step must be positive")]
fn arange_step_zero_panics() {
    let _ = Tensor::<1, Int>::arange_step(0..4, 0, &dev());
}

#[test]
fn int_matmul() {
    let a = Tensor::<2, Int>::from_data([[1, 2], [3, 4]], &dev());
    let b = Tensor::<2, Int>::from_data([[5, 6], [7, 8]], &dev());
    assert_eq!(ints(a.matmul(b)), vec![19, 22, 43, 50]);
}

#[test]
fn bitwise_ops() {
    // Python: 12 & 10 = 8, 12 | 10 = 14, 12 ^ 10 = 6, ~5 = -6, 3 << 2 = 12, -16 >> 2 = -4
    let a = i1(&[12, 5]);
    let b = i1(&[10, 10]);
    assert_eq!(ints(a.clone().bitwise_and(b.clone())), vec![8, 0]);
    assert_eq!(ints(a.clone().bitwise_or(b.clone())), vec![14, 15]);
    assert_eq!(ints(a.clone().bitwise_xor(b)), vec![6, 15]);
    assert_eq!(ints(a.clone().bitwise_not()), vec![-13, -6]);
    assert_eq!(ints(a.clone().bitwise_and_scalar(10)), vec![8, 0]);
    assert_eq!(ints(a.clone().bitwise_or_scalar(10)), vec![14, 15]);
    assert_eq!(ints(a.bitwise_xor_scalar(10)), vec![6, 15]);
    assert_eq!(
        ints(i1(&[3, 1]).bitwise_left_shift(i1(&[2, 4]))),
        vec![12, 16]
    );
    assert_eq!(
        ints(i1(&[-16, 16]).bitwise_right_shift(i1(&[2, 2]))),
        vec![-4, 4]
    );
}

// ----------------------------------------------------------------- activations

#[test]
fn softmax_values() {
    // Python: softmax([1,2,3]) = [0.09003057317038046, 0.24472847105479764, 0.6652409557748218]
    let x = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]], &dev());
    let expected = [0.09003057317038046, 0.24472847105479764, 0.6652409557748218];
    let p = floats(activation::softmax(x.clone(), 1));
    assert_close(&p, &[expected, expected].concat(), 1e-6);
    // Along dim 0 both rows are equal: 1/2 everywhere.
    assert_close(&floats(activation::softmax(x, 0)), &[0.5; 6], 1e-6);
}

#[test]
fn softmax_is_stable_for_large_inputs() {
    // Python: softmax([1000, 1001]) = [0.2689414213699951, 0.7310585786300049]
    let p = floats(activation::softmax(t1(&[1000.0, 1001.0]), 0));
    assert_close(&p, &[0.2689414213699951, 0.7310585786300049], 1e-6);
}

#[test]
fn log_softmax_and_softmin_values() {
    // Python: log_softmax([1,2,3]) = [-2.4076059644443806, -1.4076059644443806, -0.4076059644443806]
    let x = t1(&[1.0, 2.0, 3.0]);
    assert_close(
        &floats(activation::log_softmax(x.clone(), 0)),
        &[
            -2.4076059644443806,
            -1.4076059644443806,
            -0.4076059644443806,
        ],
        1e-6,
    );
    // Python: softmax([-1,-2,-3])
    assert_close(
        &floats(activation::softmin(x, 0)),
        &[0.6652409557748218, 0.24472847105479764, 0.09003057317038046],
        1e-6,
    );
}

#[test]
#[should_panic(expected = "softmax: dim 1 is out of range")]
fn softmax_dim_out_of_range_panics() {
    let _ = activation::softmax(t1(&[1.0]), 1);
}

#[test]
fn gelu_values() {
    // Python: x * 0.5 * (1 + erf(x / sqrt(2))) for [-1, 0, 0.5, 2]
    let y = floats(activation::gelu(t1(&[-1.0, 0.0, 0.5, 2.0])));
    assert_close(
        &y,
        &[
            -0.15865525393145707,
            0.0,
            0.34573123063700656,
            1.9544997361036416,
        ],
        1e-5,
    );
}

#[test]
fn sigmoid_family_values() {
    let x = t1(&[-2.0, 0.0, 3.0]);
    // Python: 1 / (1 + exp(-x))
    assert_close(
        &floats(activation::sigmoid(x.clone())),
        &[0.11920292202211755, 0.5, 0.9525741268224334],
        1e-6,
    );
    assert_close(
        &floats(activation::log_sigmoid(x.clone())),
        &[
            -2.1269280110429727,
            -LN_2, // -0.6931471805599453
            -0.04858735157374191,
        ],
        1e-6,
    );
    assert_close(
        &floats(activation::silu(x.clone())),
        &[-0.2384058440442351, 0.0, 2.8577223804673],
        1e-6,
    );
    // clamp(x / 6 + 0.5, 0, 1)
    assert_close(
        &floats(activation::hard_sigmoid(x, 1.0 / 6.0, 0.5)),
        &[1.0 / 6.0, 0.5, 1.0],
        1e-6,
    );
}

#[test]
fn softplus_values_and_threshold() {
    // Python: softplus([-1, 0, 1, 30]) = [0.31326168751822286, 0.6931471805599453, 1.3132616875182228, 30.0]
    let y = floats(activation::softplus(t1(&[-1.0, 0.0, 1.0, 30.0]), 1.0));
    assert_close(
        &y,
        &[
            0.31326168751822286,
            LN_2, // 0.6931471805599453
            1.3132616875182228,
            30.0,
        ],
        1e-6,
    );
    // beta = 2: log1p(e^1) / 2 = 0.6566308437591114; 2 * 15 > 20 returns x.
    let y = floats(activation::softplus(t1(&[0.5, 15.0]), 2.0));
    assert_close(&y, &[0.6566308437591114, 15.0], 1e-6);
    // Large inputs stay finite.
    assert_eq!(floats(activation::softplus(t1(&[1.0e4]), 1.0)), vec![1.0e4]);
}

#[test]
fn mish_and_tanh_values() {
    // Python: x * tanh(softplus(x)) for [-1, 0, 1]
    let y = floats(activation::mish(t1(&[-1.0, 0.0, 1.0])));
    assert_close(&y, &[-0.30340146137410895, 0.0, 0.8650983882673103], 1e-6);
    assert_close(
        &floats(activation::tanh(t1(&[0.0, 100.0]))),
        &[0.0, 1.0],
        1e-6,
    );
}

#[test]
fn relu_family() {
    let x = t1(&[-2.0, 0.0, 3.0]);
    assert_eq!(floats(activation::relu(x.clone())), vec![0.0, 0.0, 3.0]);
    assert_eq!(
        floats(activation::leaky_relu(x.clone(), 0.1)),
        vec![-0.2, 0.0, 3.0]
    );
    assert_eq!(
        floats(activation::prelu(x, t1(&[0.5]))),
        vec![-1.0, 0.0, 3.0]
    );
    // One alpha per channel (dim 1).
    let x = Tensor::<3>::from_data([[[-1.0, 2.0], [-4.0, -8.0]]], &dev());
    assert_eq!(
        floats(activation::prelu(x, t1(&[0.5, 0.25]))),
        vec![-0.5, 2.0, -1.0, -2.0]
    );
}

#[test]
#[should_panic(
    expected = "prelu: alpha [3] must hold 1 value or one per channel (dim 1) of the input [1, 2, 2]"
)]
fn prelu_wrong_alpha_panics() {
    let x = Tensor::<3>::zeros([1, 2, 2], &dev());
    let _ = activation::prelu(x, t1(&[0.1, 0.2, 0.3]));
}
