//! The trait's default tril/triu composites on Flex: a `[1, .., rows, cols]`
//! position mask (int_arange, int_reshape, int_sub, int_greater_elem /
//! int_lower_elem) broadcast by mask_fill.
//! Expected values worked by hand; `reference/shape_index.py` reproduces them.

use burn_backend::{FloatTensorOps, IntTensorOps};
use burn_flex::{Flex, FlexDevice, FlexTensor};
use burn_std::TensorData;

const DEV: FlexDevice = FlexDevice;

fn arange(shape: &[usize]) -> FlexTensor {
    let n: usize = shape.iter().product();
    Flex::float_from_data(
        TensorData::new((0..n).map(|i| i as f32).collect::<Vec<_>>(), shape.to_vec()),
        &DEV,
    )
}

fn check(t: FlexTensor, expected: Vec<f32>, shape: &[usize]) {
    Flex::float_into_data(t)
        .unwrap()
        .assert_eq(&TensorData::new(expected, shape.to_vec()), true);
}

#[test]
fn tril_square_with_diagonals() {
    check(
        Flex::float_tril(arange(&[3, 3]), 0),
        vec![0., 0., 0., 3., 4., 0., 6., 7., 8.],
        &[3, 3],
    );
    check(
        Flex::float_tril(arange(&[3, 3]), 1),
        vec![0., 1., 0., 3., 4., 5., 6., 7., 8.],
        &[3, 3],
    );
    check(
        Flex::float_tril(arange(&[3, 3]), -1),
        vec![0., 0., 0., 3., 0., 0., 6., 7., 0.],
        &[3, 3],
    );
}

#[test]
fn triu_square_with_diagonals() {
    check(
        Flex::float_triu(arange(&[3, 3]), 0),
        vec![0., 1., 2., 0., 4., 5., 0., 0., 8.],
        &[3, 3],
    );
    check(
        Flex::float_triu(arange(&[3, 3]), -1),
        vec![0., 1., 2., 3., 4., 5., 0., 7., 8.],
        &[3, 3],
    );
    check(
        Flex::float_triu(arange(&[3, 3]), 2),
        vec![0., 0., 2., 0., 0., 0., 0., 0., 0.],
        &[3, 3],
    );
}

#[test]
fn tril_batched_and_transposed() {
    // Each [2, 3] matrix keeps its elements with col <= row.
    let t = Flex::float_tril(arange(&[2, 2, 3]), 0);
    check(
        t,
        vec![0., 0., 0., 3., 4., 0., 6., 0., 0., 9., 10., 0.],
        &[2, 2, 3],
    );
    // Transposed input [[0, 3, 6], [1, 4, 7], [2, 5, 8]].
    let t = Flex::float_tril(Flex::float_permute(arange(&[3, 3]), &[1, 0]), 0);
    check(t, vec![0., 0., 0., 1., 4., 0., 2., 5., 8.], &[3, 3]);
}

#[test]
fn int_tril_and_triu_non_square() {
    let t = || Flex::int_from_data(TensorData::new((0..12).collect::<Vec<i32>>(), [3, 4]), &DEV);
    Flex::int_into_data(Flex::int_tril(t(), 0))
        .unwrap()
        .assert_eq(
            &TensorData::new(vec![0i32, 0, 0, 0, 4, 5, 0, 0, 8, 9, 10, 0], [3, 4]),
            true,
        );
    Flex::int_into_data(Flex::int_triu(t(), 1))
        .unwrap()
        .assert_eq(
            &TensorData::new(vec![0i32, 1, 2, 3, 0, 0, 6, 7, 0, 0, 0, 11], [3, 4]),
            true,
        );
}

#[test]
#[should_panic(expected = "tril: needs at least 2 dims, got shape [3]")]
fn tril_rank1_panics() {
    Flex::float_tril(arange(&[3]), 0);
}
