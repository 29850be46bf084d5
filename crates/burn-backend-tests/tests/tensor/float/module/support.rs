//! What the module-op forward tests share: the inputs of
//! `tests/reference/module_ops.py` and the comparison with its outputs.

use crate::common::*;

/// `ramp(shape, scale)` of the generator: element `i` (row-major) is
/// `(3^(i + 1) mod 127 - 64) / 16 * scale`. The values look shuffled, are
/// distinct for up to 126 elements (3 generates the group mod 127) and,
/// with a power-of-two `scale`, are exact in every float dtype.
pub fn ramp_data(shape: &[usize], scale: f64) -> TensorData {
    let n: usize = shape.iter().product();
    let mut power = 1u32;
    let values: Vec<f64> = (0..n)
        .map(|_| {
            power = power * 3 % 127;
            (f64::from(power) - 64.0) / 16.0 * scale
        })
        .collect();
    TensorData::new(values, shape.to_vec())
}

/// `ramp(shape, scale)` as a tensor of the executable's float dtype.
pub fn ramp<const D: usize>(shape: &[usize], scale: f64) -> Tensor<D> {
    Tensor::from_data(ramp_data(shape, scale).convert::<FloatElem>(), &device())
}

/// The input `x` of a case (scale 1). With `transposed`, the ramp of
/// `shape` with its last two dims swapped, swapped back: the same values
/// as the generator's `view_of`, read through a non-contiguous view.
pub fn input<const D: usize>(shape: &[usize], transposed: bool) -> Tensor<D> {
    if !transposed {
        return ramp(shape, 1.0);
    }
    let mut swapped = shape.to_vec();
    swapped.swap(D - 2, D - 1);
    ramp::<D>(&swapped, 1.0).swap_dims(D - 2, D - 1)
}

/// Asserts that `y` has the executable's float dtype, the reference shape
/// and the reference values within the dtype's default tolerance: the
/// inputs are exact in every dtype, so only the op's own rounding counts.
#[track_caller]
pub fn assert_output<const D: usize>(y: Tensor<D>, shape: &[usize], output: &[f64]) {
    assert_eq!(y.dims().as_slice(), shape, "output shape");
    assert_eq!(y.dtype(), <FloatElem as Element>::DTYPE, "output dtype");
    let expected = TensorData::new(output.to_vec(), shape.to_vec()).convert::<FloatElem>();
    y.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

/// Asserts max-pool indices against the reference (whatever the int dtype).
#[track_caller]
pub fn assert_indices<const D: usize>(indices: Tensor<D, Int>, shape: &[usize], want: &[i64]) {
    assert_eq!(indices.dims().as_slice(), shape, "indices shape");
    let want = TensorData::new(want.to_vec(), shape.to_vec());
    indices.into_data().assert_eq(&want, false);
}

/// The attention mask of the generator, `[2, 1, lq, lk]` (true hides a
/// key): batch 0 hides key `j > (i + 1) % lk` from query `i`, batch 1
/// hides key `i`. No query loses every key.
pub fn attention_mask(lq: usize, lk: usize) -> Tensor<4, Bool> {
    let mut values = Vec::with_capacity(2 * lq * lk);
    for batch in 0..2 {
        for i in 0..lq {
            for j in 0..lk {
                values.push(if batch == 0 { j > (i + 1) % lk } else { j == i });
            }
        }
    }
    Tensor::from_data(TensorData::new(values, [2, 1, lq, lk]), &device())
}

/// The `N` entries of an option slice of the reference data.
pub fn arr<const N: usize>(values: &[usize]) -> [usize; N] {
    values.try_into().expect("an option of the case's rank")
}
