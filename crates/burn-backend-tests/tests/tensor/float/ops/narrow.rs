use crate::common::*;

fn grid() -> Tensor<2> {
    // [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]]
    Tensor::<1, Int>::arange(0..10, &device())
        .float()
        .reshape([2, 5])
}

#[test]
fn should_narrow() {
    let output = grid().narrow(1, 1, 3);

    let expected = TensorData::from([[1.0, 2.0, 3.0], [6.0, 7.0, 8.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_narrow_transposed_input() {
    let output = grid().transpose().narrow(0, 3, 2);

    let expected = TensorData::from([[3.0, 8.0], [4.0, 9.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_chunk_and_split() {
    let chunks = grid().chunk(2, 1);
    assert_eq!(chunks.len(), 2);
    assert_eq!(chunks[0].dims(), [2, 3]);
    assert_eq!(chunks[1].dims(), [2, 2]);
    let expected = TensorData::from([[3.0, 4.0], [8.0, 9.0]]).convert::<FloatElem>();
    chunks[1]
        .to_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());

    let pieces = grid().split(2, 1);
    let sizes: Vec<usize> = pieces.iter().map(|p| p.dims()[1]).collect();
    assert_eq!(sizes, vec![2, 2, 1]);
    let expected = TensorData::from([[4.0], [9.0]]).convert::<FloatElem>();
    pieces[2]
        .to_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());

    let sized = grid().split_with_sizes(vec![1, 4], 1);
    let expected =
        TensorData::from([[1.0, 2.0, 3.0, 4.0], [6.0, 7.0, 8.0, 9.0]]).convert::<FloatElem>();
    sized[1]
        .to_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_narrow_to_zero_length() {
    let output = grid().narrow(1, 5, 0);

    assert_eq!(output.dims(), [2, 0]);
}

#[test]
#[should_panic(expected = "narrow: start 3 + length 3 exceeds")]
fn should_panic_when_narrow_exceeds_dim() {
    let _ = grid().narrow(1, 3, 3);
}

#[test]
#[should_panic(expected = "split_with_sizes: sizes")]
fn should_panic_when_split_sizes_do_not_sum() {
    let _ = grid().split_with_sizes(vec![1, 1], 1);
}
