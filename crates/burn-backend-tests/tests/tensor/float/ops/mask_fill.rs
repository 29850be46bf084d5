use crate::common::*;

#[test]
fn should_mask_fill() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &device);
    let mask = Tensor::<2, Bool>::from_data([[false, true], [true, false]], &device);

    let output = tensor.mask_fill(mask, -9.5);

    let expected = TensorData::from([[1.0, -9.5], [-9.5, 4.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_mask_fill_broadcast_mask_with_infinity() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &device);
    let mask = Tensor::<2, Bool>::triu_mask([2, 3], 2, &device).slice(0..1);

    // triu_mask offset 2, row 0: [true, true, false], broadcast to both rows
    let output = tensor.mask_fill(mask, f32::NEG_INFINITY);

    let expected = TensorData::from([
        [f32::NEG_INFINITY, f32::NEG_INFINITY, 3.0],
        [f32::NEG_INFINITY, f32::NEG_INFINITY, 6.0],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_mask_fill_strided_input() {
    let device = device();
    let tensor = Tensor::<1>::from_data([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &device).slice(s![1..;2]);
    let mask = Tensor::<1, Bool>::from_data([true, false, true], &device);

    let output = tensor.mask_fill(mask, 0.0);

    let expected = TensorData::from([0.0, 4.0, 0.0]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "mask_fill: mask of shape")]
fn should_panic_when_mask_would_grow_tensor() {
    let device = device();
    let _ = Tensor::<2>::ones([1, 2], &device)
        .mask_fill(Tensor::<2, Bool>::full([3, 2], true, &device), 0.0);
}
