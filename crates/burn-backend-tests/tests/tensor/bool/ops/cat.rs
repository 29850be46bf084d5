use crate::common::*;

#[test]
fn should_cat_bools() {
    let device = device();
    let a = Tensor::<2, Bool>::from_data([[true, false]], &device);
    let b = Tensor::<2, Bool>::from_data([[false, false], [true, true]], &device);

    let output = Tensor::cat(vec![a, b], 0);

    output.into_data().assert_eq(
        &TensorData::from([[true, false], [false, false], [true, true]]),
        false,
    );
}

#[test]
fn should_cat_transposed_bools_along_dim1() {
    let device = device();
    // transposed: [[true], [false]]
    let a = Tensor::<2, Bool>::from_data([[true, false]], &device).transpose();
    let b = Tensor::<2, Bool>::from_data([[false, true], [true, false]], &device);

    let output = Tensor::cat(vec![a, b], 1);

    output.into_data().assert_eq(
        &TensorData::from([[true, false, true], [false, true, false]]),
        false,
    );
}

#[test]
fn should_stack_and_slice_bools() {
    let device = device();
    let a = Tensor::<1, Bool>::from_data([true, false, true], &device);
    let b = Tensor::<1, Bool>::from_data([false, false, true], &device);

    let output = Tensor::stack::<2>(vec![a, b], 1).slice(s![..;2]);

    output
        .into_data()
        .assert_eq(&TensorData::from([[true, false], [true, true]]), false);
}

#[test]
#[should_panic(expected = "cat: shapes")]
fn should_panic_when_bool_cat_shapes_differ() {
    let device = device();
    let _ = Tensor::cat(
        vec![
            Tensor::<2, Bool>::full([1, 2], true, &device),
            Tensor::<2, Bool>::full([1, 3], true, &device),
        ],
        0,
    );
}
