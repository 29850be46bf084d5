//! mask_where, mask_fill and argwhere.
//! Expected values worked by hand; `reference/shape_index.py` reproduces them.

use burn_backend::kernels::IndexKernels;
use burn_backend::{BoolTensorOps, FloatTensorOps, IntTensorOps, TensorMetadata};
use burn_flex::{Flex, FlexDevice, FlexTensor};
use burn_std::{DType, Scalar, Shape, Slice, TensorData};
use half::f16;

const DEV: FlexDevice = FlexDevice;

fn tensor(data: TensorData) -> FlexTensor {
    if data.dtype.is_float() {
        Flex::float_from_data(data, &DEV)
    } else if data.dtype.is_int() {
        Flex::int_from_data(data, &DEV)
    } else {
        Flex::bool_from_data(data, &DEV)
    }
}

fn read(t: FlexTensor) -> TensorData {
    let dtype = t.dtype();
    if dtype.is_float() {
        Flex::float_into_data(t).unwrap()
    } else if dtype.is_int() {
        Flex::int_into_data(t).unwrap()
    } else {
        Flex::bool_into_data(t).unwrap()
    }
}

fn floats(values: Vec<f32>, shape: &[usize]) -> FlexTensor {
    Flex::float_from_data(TensorData::new(values, shape.to_vec()), &DEV)
}

fn bools(values: Vec<bool>, shape: &[usize]) -> FlexTensor {
    Flex::bool_from_data(TensorData::new(values, shape.to_vec()), &DEV)
}

fn arange(shape: &[usize]) -> FlexTensor {
    let n: usize = shape.iter().product();
    floats((0..n).map(|i| i as f32).collect(), shape)
}

fn check(t: FlexTensor, expected: Vec<f32>, shape: &[usize]) {
    read(t).assert_eq(&TensorData::new(expected, shape.to_vec()), true);
}

fn coords(t: FlexTensor, expected: Vec<i64>, shape: [usize; 2]) {
    read(t).assert_eq(&TensorData::new(expected, shape), true);
}

const T: bool = true;
const F: bool = false;

// ------------------------------------------------------------- mask_where

#[test]
fn mask_where_same_shape() {
    let t = floats(vec![1., 2., 3., 4.], &[2, 2]);
    let m = bools(vec![T, F, F, T], &[2, 2]);
    let v = floats(vec![10., 20., 30., 40.], &[2, 2]);
    check(
        Flex::float_mask_where(t, m, v),
        vec![10., 2., 3., 40.],
        &[2, 2],
    );
}

#[test]
fn mask_where_broadcasts_all_three() {
    // tensor [1, 3], mask [2, 1], value [3] -> [2, 3].
    let t = floats(vec![1., 2., 3.], &[1, 3]);
    let m = bools(vec![T, F], &[2, 1]);
    let v = floats(vec![7., 8., 9.], &[3]);
    check(
        Flex::float_mask_where(t, m, v),
        vec![7., 8., 9., 1., 2., 3.],
        &[2, 3],
    );
    // Only the mask is larger than the others.
    let t = floats(vec![1.], &[1]);
    let m = bools(vec![F, T, T, F], &[2, 2]);
    let v = floats(vec![5., 6.], &[2]);
    check(
        Flex::float_mask_where(t, m, v),
        vec![1., 6., 5., 1.],
        &[2, 2],
    );
}

#[test]
fn mask_where_strided_operands() {
    // tensor: arange [2, 3] transposed -> [[0, 3], [1, 4], [2, 5]];
    // mask: [[T, F], [F, F], [T, T]] flipped on dim 0 -> [[T, T], [F, F], [T, F]];
    // value: [-1, -2] expanded to [3, 2].
    let t = Flex::float_permute(arange(&[2, 3]), &[1, 0]);
    let m = Flex::bool_flip(bools(vec![T, F, F, F, T, T], &[3, 2]), &[0]);
    let v = Flex::float_expand(floats(vec![-1., -2.], &[2]), Shape::new([3, 2]));
    check(
        Flex::float_mask_where(t, m, v),
        vec![-1., -2., 1., 4., -1., 5.],
        &[3, 2],
    );
}

#[test]
fn mask_where_leaves_shared_input_untouched() {
    let t = arange(&[4]);
    let keep = t.clone();
    let out = Flex::float_mask_where(t, bools(vec![T, T, F, F], &[4]), floats(vec![9.; 4], &[4]));
    check(out, vec![9., 9., 2., 3.], &[4]);
    check(keep, vec![0., 1., 2., 3.], &[4]);
}

#[test]
fn mask_where_int_and_bool() {
    let t = Flex::int_from_data(TensorData::from([1u32, 2, 3]), &DEV);
    let v = Flex::int_from_data(TensorData::from([u32::MAX]), &DEV);
    let out = Flex::int_mask_where(t, bools(vec![F, T, F], &[3]), v);
    read(out).assert_eq(&TensorData::from([1u32, u32::MAX, 3]), true);
    let t = bools(vec![T, T, F, F], &[4]);
    let v = bools(vec![F, T, F, T], &[4]);
    let out = Flex::bool_mask_where(t, bools(vec![T, F, T, F], &[4]), v);
    read(out).assert_eq(&TensorData::from([F, T, F, F]), true);
}

#[test]
fn mask_where_every_dtype() {
    for dtype in DType::ALL {
        let data = |values: Vec<i64>, shape: Vec<usize>| {
            TensorData::new(values, shape).convert_dtype(dtype)
        };
        let t = tensor(data(vec![1, 0, 3, 4, 0, 6], vec![2, 3]));
        let v = tensor(data(vec![0, 9, 0], vec![3]));
        let m = bools(vec![T, T, F, F, T, T], &[2, 3]);
        let out = if dtype.is_float() {
            Flex::float_mask_where(t, m, v)
        } else if dtype.is_int() {
            Flex::int_mask_where(t, m, v)
        } else {
            Flex::bool_mask_where(t, m, v)
        };
        read(out).assert_eq(&data(vec![0, 9, 3, 4, 9, 0], vec![2, 3]), true);
    }
}

#[test]
fn mask_where_empty() {
    let out = Flex::float_mask_where(
        floats(vec![], &[0, 2]),
        bools(vec![T, F], &[2]),
        floats(vec![1.], &[1]),
    );
    check(out, vec![], &[0, 2]);
}

#[test]
fn mask_where_large_matches_formula() {
    // [400, 250] (100000 elements): contiguous operands, then a broadcast row mask.
    let (r, c) = (400usize, 250usize);
    let n = r * c;
    let mask: Vec<bool> = (0..n).map(|x| x % 3 == 0).collect();
    let out = Flex::float_mask_where(
        arange(&[r, c]),
        bools(mask, &[r, c]),
        floats(vec![-1.; n], &[r, c]),
    );
    let values = read(out).to_vec::<f32>().unwrap();
    for (x, &v) in values.iter().enumerate() {
        assert_eq!(v, if x % 3 == 0 { -1. } else { x as f32 }, "at {x}");
    }
    let row: Vec<bool> = (0..c).map(|j| j % 4 == 1).collect();
    let value = Flex::float_permute(arange(&[c, r]), &[1, 0]); // value[i][j] = j * r + i
    let out = Flex::float_mask_where(arange(&[r, c]), bools(row, &[c]), value);
    let values = read(out).to_vec::<f32>().unwrap();
    for (x, &v) in values.iter().enumerate() {
        let (i, j) = (x / c, x % c);
        assert_eq!(
            v,
            if j % 4 == 1 {
                (j * r + i) as f32
            } else {
                x as f32
            },
            "at {x}"
        );
    }
}

#[test]
#[should_panic(expected = "mask_where: expected a bool mask, got f32")]
fn mask_where_float_mask_panics() {
    Flex::float_mask_where(arange(&[2]), arange(&[2]), arange(&[2]));
}

#[test]
#[should_panic(expected = "mask_where: operands have different dtypes f32 and f64")]
fn mask_where_dtype_mismatch_panics() {
    let v = Flex::float_from_data(TensorData::from([1.0f64, 2.0]), &DEV);
    Flex::float_mask_where(arange(&[2]), bools(vec![T, F], &[2]), v);
}

#[test]
#[should_panic(
    expected = "mask_where: tensor [2, 3], mask [2, 2] and value [3] cannot be broadcast together"
)]
fn mask_where_incompatible_shapes_panics() {
    Flex::float_mask_where(arange(&[2, 3]), bools(vec![T; 4], &[2, 2]), arange(&[3]));
}

// -------------------------------------------------------------- mask_fill

#[test]
fn mask_fill_with_broadcast_masks() {
    let t = floats(vec![1., 2., 3., 4., 5., 6.], &[2, 3]);
    check(
        Flex::float_mask_fill(t.clone(), bools(vec![T, F, T], &[1, 3]), Scalar::Float(-1.)),
        vec![-1., 2., -1., -1., 5., -1.],
        &[2, 3],
    );
    check(
        Flex::float_mask_fill(t.clone(), bools(vec![F, T, F], &[3]), Scalar::Float(0.5)),
        vec![1., 0.5, 3., 4., 0.5, 6.],
        &[2, 3],
    );
    check(
        Flex::float_mask_fill(t, bools(vec![F, T], &[2, 1]), Scalar::Int(7)),
        vec![1., 2., 3., 7., 7., 7.],
        &[2, 3],
    );
}

#[test]
fn mask_fill_strided_tensor_and_mask() {
    // arange [2, 3] transposed -> [[0, 3], [1, 4], [2, 5]]; mask [[F, T, T], [T, F, F]] transposed
    // -> [[F, T], [T, F], [T, F]].
    let t = Flex::float_permute(arange(&[2, 3]), &[1, 0]);
    let m = Flex::bool_permute(bools(vec![F, T, T, T, F, F], &[2, 3]), &[1, 0]);
    check(
        Flex::float_mask_fill(t, m, Scalar::Float(9.)),
        vec![0., 9., 9., 4., 9., 5.],
        &[3, 2],
    );
    // A step slice of a tensor with an expanded mask.
    let t = Flex::float_slice(arange(&[6]), &[Slice::new(0, None, -2)]); // [5, 3, 1]
    let m = Flex::bool_expand(bools(vec![T], &[1]), Shape::new([3]));
    check(
        Flex::float_mask_fill(t, m, Scalar::Float(0.)),
        vec![0., 0., 0.],
        &[3],
    );
}

#[test]
fn mask_fill_leaves_shared_input_untouched() {
    let t = arange(&[3]);
    let keep = t.clone();
    check(
        Flex::float_mask_fill(t, bools(vec![F, F, T], &[3]), Scalar::Float(8.)),
        vec![0., 1., 8.],
        &[3],
    );
    check(keep, vec![0., 1., 2.], &[3]);
}

#[test]
fn mask_fill_converts_the_scalar() {
    // Saturating and truncating conversions (Burn's element rules).
    let t = Flex::int_from_data(TensorData::from([1i8, 2, 3]), &DEV);
    let out = Flex::int_mask_fill(t, bools(vec![T, F, F], &[3]), Scalar::Int(300));
    read(out).assert_eq(&TensorData::from([127i8, 2, 3]), true);
    let t = Flex::int_from_data(TensorData::from([1u16, 2]), &DEV);
    let out = Flex::int_mask_fill(t, bools(vec![T, T], &[2]), Scalar::Float(2.7));
    read(out).assert_eq(&TensorData::from([2u16, 2]), true);
    let t = Flex::float_from_data(TensorData::from([f16::ONE, f16::ONE]), &DEV);
    let out = Flex::float_mask_fill(t, bools(vec![F, T], &[2]), Scalar::Float(0.1));
    read(out).assert_eq(&TensorData::from([f16::ONE, f16::from_f64(0.1)]), true);
    let t = Flex::int_from_data(TensorData::from([5u64]), &DEV);
    let out = Flex::int_mask_fill(t, bools(vec![T], &[1]), Scalar::UInt(u64::MAX));
    read(out).assert_eq(&TensorData::from([u64::MAX]), true);
}

#[test]
fn mask_fill_every_dtype() {
    for dtype in DType::ALL {
        let data = |values: Vec<i64>, shape: Vec<usize>| {
            TensorData::new(values, shape).convert_dtype(dtype)
        };
        let t = tensor(data(vec![1, 0, 3, 4], vec![2, 2]));
        let m = bools(vec![F, T], &[2]);
        let out = if dtype.is_float() {
            Flex::float_mask_fill(t, m, Scalar::Int(5))
        } else if dtype.is_int() {
            Flex::int_mask_fill(t, m, Scalar::Int(5))
        } else {
            // The bool trait has no mask_fill; the kernel serves every dtype.
            Flex::mask_fill(t, m, Scalar::Bool(true))
        };
        read(out).assert_eq(&data(vec![1, 5, 3, 5], vec![2, 2]), true);
    }
}

#[test]
fn mask_fill_bool_tensor_with_false() {
    let t = bools(vec![T, T, F, T], &[2, 2]);
    let out = Flex::mask_fill(t, bools(vec![T, F], &[2, 1]), Scalar::Bool(false));
    read(out).assert_eq(&TensorData::from([[F, F], [F, T]]), true);
}

#[test]
#[should_panic(expected = "mask_fill: mask [2, 3] cannot be broadcast to tensor [3]")]
fn mask_fill_larger_mask_panics() {
    Flex::float_mask_fill(arange(&[3]), bools(vec![T; 6], &[2, 3]), Scalar::Float(0.));
}

#[test]
#[should_panic(expected = "mask_fill: expected a bool mask, got i64")]
fn mask_fill_int_mask_panics() {
    let m = Flex::int_from_data(TensorData::from([1i64, 0, 1]), &DEV);
    Flex::float_mask_fill(arange(&[3]), m, Scalar::Float(0.));
}

// --------------------------------------------------------------- argwhere

#[test]
fn argwhere_row_major_coordinates() {
    let m = bools(vec![T, F, T, F, T, F], &[2, 3]);
    coords(
        Flex::bool_argwhere(m.clone()),
        vec![0, 0, 0, 2, 1, 1],
        [3, 2],
    );
    // Transposed: [[T, F], [F, T], [T, F]].
    coords(
        Flex::bool_argwhere(Flex::bool_permute(m, &[1, 0])),
        vec![0, 0, 1, 1, 2, 0],
        [3, 2],
    );
}

#[test]
fn argwhere_rank3_and_flipped() {
    // True at linear positions 1, 6, 7 of [2, 2, 2]: (0,0,1), (1,1,0), (1,1,1).
    let m = bools(vec![F, T, F, F, F, F, T, T], &[2, 2, 2]);
    coords(
        Flex::bool_argwhere(m.clone()),
        vec![0, 0, 1, 1, 1, 0, 1, 1, 1],
        [3, 3],
    );
    // Flipped on dim 0: true at (0,1,0), (0,1,1), (1,0,1).
    coords(
        Flex::bool_argwhere(Flex::bool_flip(m, &[0])),
        vec![0, 1, 0, 0, 1, 1, 1, 0, 1],
        [3, 3],
    );
}

#[test]
fn argwhere_none_true_and_empty() {
    coords(
        Flex::bool_argwhere(bools(vec![F, F], &[1, 2])),
        vec![],
        [0, 2],
    );
    coords(Flex::bool_argwhere(bools(vec![], &[0, 3])), vec![], [0, 2]);
    let out = Flex::bool_argwhere(bools(vec![T, T, F], &[3]));
    assert_eq!(out.dtype(), DType::I64);
    coords(out, vec![0, 1], [2, 1]);
}

#[test]
fn argwhere_large_expanded() {
    // A [1, 3000] row pattern expanded to [40, 3000] (120000 elements).
    let row: Vec<bool> = (0..3000).map(|j| j % 7 == 3).collect();
    let m = Flex::bool_expand(bools(row, &[1, 3000]), Shape::new([40, 3000]));
    let values = read(Flex::bool_argwhere(m)).to_vec::<i64>().unwrap();
    let mut expected = Vec::new();
    for i in 0..40 {
        for j in (3..3000).step_by(7) {
            expected.push(i);
            expected.push(j);
        }
    }
    assert_eq!(values, expected);
}

#[test]
#[should_panic(expected = "argwhere: expected a bool tensor, got f32")]
fn argwhere_non_bool_panics() {
    Flex::bool_argwhere(arange(&[2]));
}
