use crate::common::*;

fn arange3(dims: [usize; 3]) -> Tensor<3> {
    let n = dims.iter().product::<usize>() as i64;
    Tensor::<1, Int>::arange(0..n, &device())
        .float()
        .reshape(dims)
}

#[test]
fn should_permute_rank3() {
    // value(i, j, k) = 6 i + 2 j + k for shape [2, 3, 2]
    let output = arange3([2, 3, 2]).permute([2, 0, 1]);

    assert_eq!(output.dims(), [2, 2, 3]);
    // out[k][i][j]
    let expected = TensorData::from([
        [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]],
        [[1.0, 3.0, 5.0], [7.0, 9.0, 11.0]],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_permute_with_negative_axes() {
    let output = arange3([2, 3, 2]).permute([-1, -3, -2]);

    let expected = TensorData::from([
        [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]],
        [[1.0, 3.0, 5.0], [7.0, 9.0, 11.0]],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_compose_permutations_then_compute() {
    // Two permutations that undo each other, then an op that needs the layout.
    let tensor = arange3([2, 3, 2]);

    let output = tensor.permute([1, 2, 0]).permute([2, 0, 1]) + 1.0;

    let expected = TensorData::from([
        [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]],
        [[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "is not a permutation")]
fn should_panic_when_axes_repeat() {
    let _ = arange3([2, 3, 2]).permute([0, 0, 1]);
}
