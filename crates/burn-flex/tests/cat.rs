//! cat: contiguous and strided parts, empty parts, every dtype, errors.
//! Expected values worked by hand; `reference/shape_index.py` reproduces them.

use burn_backend::{BoolTensorOps, FloatTensorOps, IntTensorOps, TensorMetadata};
use burn_flex::{Flex, FlexDevice, FlexTensor};
use burn_std::{DType, Shape, Slice, TensorData};

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

fn cat(tensors: Vec<FlexTensor>, dim: usize) -> FlexTensor {
    let dtype = tensors[0].dtype();
    if dtype.is_float() {
        Flex::float_cat(tensors, dim)
    } else if dtype.is_int() {
        Flex::int_cat(tensors, dim)
    } else {
        Flex::bool_cat(tensors, dim)
    }
}

fn floats(values: Vec<f32>, shape: &[usize]) -> FlexTensor {
    Flex::float_from_data(TensorData::new(values, shape.to_vec()), &DEV)
}

fn arange(shape: &[usize], from: usize) -> FlexTensor {
    let n: usize = shape.iter().product();
    floats((from..from + n).map(|i| i as f32).collect(), shape)
}

fn check(t: FlexTensor, expected: Vec<f32>, shape: &[usize]) {
    read(t).assert_eq(&TensorData::new(expected, shape.to_vec()), true);
}

#[test]
fn cat_2d_along_each_dim() {
    let a = floats(vec![1., 2., 3., 4.], &[2, 2]);
    let b = floats(vec![5., 6.], &[1, 2]);
    check(
        Flex::float_cat(vec![a.clone(), b], 0),
        vec![1., 2., 3., 4., 5., 6.],
        &[3, 2],
    );
    let c = floats(vec![7., 8., 9., 10., 11., 12.], &[2, 3]);
    check(
        Flex::float_cat(vec![a, c], 1),
        vec![1., 2., 7., 8., 9., 3., 4., 10., 11., 12.],
        &[2, 5],
    );
}

#[test]
fn cat_three_parts_middle_dim_of_rank3() {
    // Sizes 1, 2, 1 along dim 1 of [2, _, 2].
    let a = arange(&[2, 1, 2], 0); // [[[0, 1]], [[2, 3]]]
    let b = arange(&[2, 2, 2], 10); // [[[10, 11], [12, 13]], [[14, 15], [16, 17]]]
    let c = arange(&[2, 1, 2], 20); // [[[20, 21]], [[22, 23]]]
    let expected = vec![
        0., 1., 10., 11., 12., 13., 20., 21., 2., 3., 14., 15., 16., 17., 22., 23.,
    ];
    check(Flex::float_cat(vec![a, b, c], 1), expected, &[2, 4, 2]);
}

#[test]
fn cat_strided_parts() {
    // transposed [[0, 1, 2], [3, 4, 5]] -> [[0, 3], [1, 4], [2, 5]];
    // flipped [[6, 7], [8, 9]] on dim 0 -> [[8, 9], [6, 7]];
    // an expanded row [[1, 1]]; a step slice rows 0, 2 of [[10, 11], [12, 13], [14, 15]].
    let t = Flex::float_permute(arange(&[2, 3], 0), &[1, 0]);
    let f = Flex::float_flip(arange(&[2, 2], 6), &[0]);
    let e = Flex::float_expand(floats(vec![1.], &[1, 1]), Shape::new([1, 2]));
    let s = Flex::float_slice(arange(&[3, 2], 10), &[Slice::new(0, None, 2)]);
    let out = Flex::float_cat(vec![t, f, e, s], 0);
    let expected = vec![
        0., 3., 1., 4., 2., 5., 8., 9., 6., 7., 1., 1., 10., 11., 14., 15.,
    ];
    check(out, expected, &[8, 2]);
}

#[test]
fn cat_strided_parts_along_last_dim() {
    let t = Flex::float_permute(arange(&[2, 2], 0), &[1, 0]); // [[0, 2], [1, 3]]
    let f = Flex::float_flip(arange(&[2, 3], 4), &[1]); // [[6, 5, 4], [9, 8, 7]]
    check(
        Flex::float_cat(vec![f, t], 1),
        vec![6., 5., 4., 0., 2., 9., 8., 7., 1., 3.],
        &[2, 5],
    );
}

#[test]
fn cat_with_empty_parts() {
    let empty = floats(vec![], &[0, 2]);
    let a = floats(vec![1., 2.], &[1, 2]);
    check(
        Flex::float_cat(vec![empty.clone(), a.clone(), empty.clone()], 0),
        vec![1., 2.],
        &[1, 2],
    );
    check(
        Flex::float_cat(vec![empty.clone(), empty], 0),
        vec![],
        &[0, 2],
    );
    // Empty outside the cat dim: the result is empty too.
    let z = floats(vec![], &[0, 3]);
    check(
        Flex::float_cat(vec![floats(vec![], &[0, 2]), z], 1),
        vec![],
        &[0, 5],
    );
}

#[test]
fn cat_single_part_and_int_bool() {
    check(
        Flex::float_cat(vec![arange(&[2], 3)], 0),
        vec![3., 4.],
        &[2],
    );
    let a = Flex::int_from_data(TensorData::from([[1i8], [2]]), &DEV);
    let b = Flex::int_from_data(TensorData::from([[-3i8, 4], [5, -6]]), &DEV);
    read(Flex::int_cat(vec![a, b], 1))
        .assert_eq(&TensorData::from([[1i8, -3, 4], [2, 5, -6]]), true);
    let a = Flex::bool_from_data(TensorData::from([true, false]), &DEV);
    let b = Flex::bool_from_data(TensorData::from([false, true, true]), &DEV);
    read(Flex::bool_cat(vec![a, b], 0))
        .assert_eq(&TensorData::from([true, false, false, true, true]), true);
}

#[test]
fn cat_every_dtype() {
    for dtype in DType::ALL {
        let data = |values: Vec<i64>, shape: Vec<usize>| {
            TensorData::new(values, shape).convert_dtype(dtype)
        };
        let a = tensor(data(vec![1, 0, 3, 4], vec![2, 2]));
        let b = tensor(data(vec![0, 6], vec![2, 1]));
        let a_t = if dtype.is_float() {
            Flex::float_permute(a.clone(), &[1, 0])
        } else if dtype.is_int() {
            Flex::int_permute(a.clone(), &[1, 0])
        } else {
            Flex::bool_permute(a.clone(), &[1, 0])
        };
        read(cat(vec![a, b.clone(), a_t], 1))
            .assert_eq(&data(vec![1, 0, 0, 1, 3, 3, 4, 6, 0, 4], vec![2, 5]), true);
        read(cat(vec![b.clone(), b], 0)).assert_eq(&data(vec![0, 6, 0, 6], vec![4, 1]), true);
    }
}

#[test]
fn cat_large_matches_formula() {
    // [200, 100] ++ transposed [150, 200] along dim 1 -> [200, 250] (50000 elements).
    let a = arange(&[200, 100], 0);
    let b = Flex::float_permute(arange(&[150, 200], 0), &[1, 0]);
    let values = read(Flex::float_cat(vec![a, b], 1))
        .to_vec::<f32>()
        .unwrap();
    for (idx, &v) in values.iter().enumerate() {
        let (i, j) = (idx / 250, idx % 250);
        let expected = if j < 100 {
            i * 100 + j
        } else {
            (j - 100) * 200 + i
        };
        assert_eq!(v, expected as f32, "at {idx}");
    }
}

#[test]
#[should_panic(expected = "cat: shapes [2, 2] and [2, 3] differ outside dim 0")]
fn cat_shape_mismatch_panics() {
    Flex::float_cat(vec![arange(&[2, 2], 0), arange(&[2, 3], 0)], 0);
}

#[test]
#[should_panic(expected = "cat: shapes [2] and [2, 1] differ outside dim 0")]
fn cat_rank_mismatch_panics() {
    Flex::float_cat(vec![arange(&[2], 0), arange(&[2, 1], 0)], 0);
}

#[test]
#[should_panic(expected = "cat: operands have different dtypes f32 and f16")]
fn cat_dtype_mismatch_panics() {
    let h = Flex::float_from_data(TensorData::from([half::f16::ONE]), &DEV);
    Flex::float_cat(vec![arange(&[1], 0), h], 0);
}

#[test]
#[should_panic(expected = "cat: dim 2 is out of range for a tensor of shape [2, 2]")]
fn cat_dim_out_of_range_panics() {
    Flex::float_cat(vec![arange(&[2, 2], 0), arange(&[2, 2], 0)], 2);
}

#[test]
#[should_panic(expected = "cat: needs at least one tensor")]
fn cat_nothing_panics() {
    Flex::float_cat(vec![], 0);
}
