use crate::common::*;

#[test]
fn should_matmul_ints() {
    let device = device();
    let lhs = Tensor::<2, Int>::from_data([[1, 2, 3], [-4, 5, 6]], &device);
    let rhs = Tensor::<2, Int>::from_data([[7, 8], [9, 10], [11, -12]], &device);

    let output = lhs.matmul(rhs);

    // [1*7 + 2*9 + 3*11, 1*8 + 2*10 - 3*12], [-28 + 45 + 66, -32 + 50 - 72]
    output.into_data().assert_eq(
        &TensorData::from([[58i64, -8], [83, -54]]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_matmul_batched_transposed_ints() {
    let device = device();
    // lhs [2, 2, 2]; rhs [2, 2] transposed, broadcast over the batch.
    let lhs = Tensor::<3, Int>::from_data([[[1, 0], [0, 1]], [[2, 1], [1, 3]]], &device);
    let rhs = Tensor::<2, Int>::from_data([[1, 3], [2, 4]], &device)
        .transpose()
        .unsqueeze::<3>();

    let output = lhs.matmul(rhs);

    // rhs^T = [[1, 2], [3, 4]]
    output.into_data().assert_eq(
        &TensorData::from([[[1i64, 2], [3, 4]], [[5, 8], [10, 14]]]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_matmul_large_ints_exactly() {
    // 3_000_001^2 overflows i32 and is not representable in f32: i64
    // operands, whatever IntElem is, on devices that have i64.
    let device = device();
    if !device.supports_dtype(DType::I64) {
        return;
    }
    let lhs = Tensor::<2, Int>::from_data([[3_000_001i64, 1]], (&device, DType::I64));
    let rhs = Tensor::<2, Int>::from_data([[3_000_001i64], [-1]], (&device, DType::I64));

    let output = lhs.matmul(rhs);

    assert_eq!(output.dtype(), DType::I64);
    output
        .into_data()
        .assert_eq(&TensorData::from([[9_000_006_000_000i64]]), true);
}

#[test]
#[should_panic(expected = "matmul: inner dims differ")]
fn should_panic_when_int_matmul_inner_dims_differ() {
    let device = device();
    let _ = Tensor::<2, Int>::ones([2, 3], &device).matmul(Tensor::<2, Int>::ones([2, 2], &device));
}
