use crate::common::*;

#[test]
fn should_cat_along_dim0_and_dim1() {
    let device = device();
    let a = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &device);
    let b = Tensor::<2>::from_data([[5.0, 6.0]], &device);
    let c = Tensor::<2>::from_data([[7.0], [8.0]], &device);

    let rows = Tensor::cat(vec![a.clone(), b], 0);
    let cols = Tensor::cat(vec![a, c], 1);

    let expected = TensorData::from([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]).convert::<FloatElem>();
    rows.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([[1.0, 2.0, 7.0], [3.0, 4.0, 8.0]]).convert::<FloatElem>();
    cols.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_cat_non_contiguous_and_empty_inputs() {
    let device = device();
    let a = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &device).transpose();
    let empty = empty_floats([0, 2]);
    let b = Tensor::<2>::from_data([[9.0, 9.0], [5.0, 6.0]], &device).slice(1..2);

    let output = Tensor::cat(vec![a, empty, b], 0);

    let expected = TensorData::from([[1.0, 3.0], [2.0, 4.0], [5.0, 6.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_cat_middle_dim_of_rank3() {
    let device = device();
    let a = Tensor::<3>::from_data([[[1.0]], [[2.0]]], &device);
    let b = Tensor::<3>::from_data([[[3.0], [4.0]], [[5.0], [6.0]]], &device);

    let output = Tensor::cat(vec![a, b], 1);

    let expected =
        TensorData::from([[[1.0], [3.0], [4.0]], [[2.0], [5.0], [6.0]]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "cat: shapes")]
fn should_panic_when_cat_shapes_differ_outside_dim() {
    let device = device();
    let _ = Tensor::cat(
        vec![
            Tensor::<2>::ones([2, 2], &device),
            Tensor::<2>::ones([2, 3], &device),
        ],
        0,
    );
}

#[test]
#[should_panic(expected = "cat: needs at least one tensor")]
fn should_panic_when_cat_is_empty() {
    let _ = Tensor::<2>::cat(vec![], 0);
}
