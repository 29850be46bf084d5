//! select (torch.index_select) and select_add (torch.index_add).
//! Expected values worked by hand; `reference/shape_index.py` reproduces them.

use burn_backend::{BoolTensorOps, FloatTensorOps, IntTensorOps, TensorMetadata};
use burn_flex::{Flex, FlexDevice, FlexTensor};
use burn_std::{DType, TensorData};
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

fn select(t: FlexTensor, dim: usize, indices: FlexTensor) -> FlexTensor {
    let dtype = t.dtype();
    if dtype.is_float() {
        Flex::float_select(t, dim, indices)
    } else if dtype.is_int() {
        Flex::int_select(t, dim, indices)
    } else {
        Flex::bool_select(t, dim, indices)
    }
}

fn floats(values: Vec<f32>, shape: &[usize]) -> FlexTensor {
    Flex::float_from_data(TensorData::new(values, shape.to_vec()), &DEV)
}

fn ints(values: Vec<i64>) -> FlexTensor {
    let n = values.len();
    Flex::int_from_data(TensorData::new(values, [n]), &DEV)
}

fn arange(shape: &[usize]) -> FlexTensor {
    let n: usize = shape.iter().product();
    floats((0..n).map(|i| i as f32).collect(), shape)
}

fn check(t: FlexTensor, expected: Vec<f32>, shape: &[usize]) {
    read(t).assert_eq(&TensorData::new(expected, shape.to_vec()), true);
}

// ----------------------------------------------------------------- select

#[test]
fn select_rows_with_repeats() {
    check(
        Flex::float_select(arange(&[3, 2]), 0, ints(vec![2, 0, 2])),
        vec![4., 5., 0., 1., 4., 5.],
        &[3, 2],
    );
}

#[test]
fn select_last_dim_with_repeats() {
    check(
        Flex::float_select(arange(&[2, 3]), 1, ints(vec![2, 2, 0, 1])),
        vec![2., 2., 0., 1., 5., 5., 3., 4.],
        &[2, 4],
    );
}

#[test]
fn select_middle_dim_of_permuted() {
    // tp = arange [2, 3, 4] permuted (1, 0, 2): tp[b][a][c] = 12a + 4b + c, shape [3, 2, 4].
    let t = Flex::float_permute(arange(&[2, 3, 4]), &[1, 0, 2]);
    let idx = [1usize, 1, 0];
    let out = Flex::float_select(t, 1, ints(idx.iter().map(|&i| i as i64).collect()));
    let mut expected = Vec::new();
    for b in 0..3 {
        for &a in &idx {
            for c in 0..4 {
                expected.push((12 * a + 4 * b + c) as f32);
            }
        }
    }
    check(out, expected, &[3, 3, 4]);
}

#[test]
fn select_from_flipped_step_slice() {
    // arange [6] step 2 -> [0, 2, 4], flipped -> [4, 2, 0]; pick 1, 2, 0.
    let t = Flex::float_slice(arange(&[6]), &[burn_std::Slice::new(0, None, 2)]);
    let t = Flex::float_flip(t, &[0]);
    check(
        Flex::float_select(t, 0, ints(vec![1, 2, 0])),
        vec![2., 0., 4.],
        &[3],
    );
}

#[test]
fn select_with_strided_and_narrow_indices() {
    // u16 indices [2, 0, 1, 0] sliced with step 2 -> [2, 1].
    let idx = Flex::int_from_data(TensorData::from([2u16, 0, 1, 0]), &DEV);
    let idx = Flex::int_slice(idx, &[burn_std::Slice::new(0, None, 2)]);
    check(
        Flex::float_select(arange(&[3, 2]), 0, idx),
        vec![4., 5., 2., 3.],
        &[2, 2],
    );
}

#[test]
fn select_empty_indices_and_empty_tensor() {
    check(
        Flex::float_select(arange(&[3, 2]), 0, ints(vec![])),
        vec![],
        &[0, 2],
    );
    check(
        Flex::float_select(floats(vec![], &[0, 2]), 1, ints(vec![1, 0])),
        vec![],
        &[0, 2],
    );
}

#[test]
fn select_every_dtype() {
    for dtype in DType::ALL {
        let data = |values: Vec<i64>, shape: Vec<usize>| {
            TensorData::new(values, shape).convert_dtype(dtype)
        };
        let t = tensor(data(vec![1, 0, 3, 4, 0, 6], vec![2, 3]));
        read(select(t.clone(), 1, ints(vec![2, 1, 2])))
            .assert_eq(&data(vec![3, 0, 3, 6, 0, 6], vec![2, 3]), true);
        read(select(t, 0, ints(vec![1, 1, 0])))
            .assert_eq(&data(vec![4, 0, 6, 4, 0, 6, 1, 0, 3], vec![3, 3]), true);
    }
}

#[test]
fn select_large_rows_and_columns() {
    // Embedding-style lookup: [1000, 64] rows picked 2000 times (128000 elements).
    let idx: Vec<i64> = (0..2000).map(|x| (x * 37 % 1000) as i64).collect();
    let out = Flex::float_select(arange(&[1000, 64]), 0, ints(idx.clone()));
    let values = read(out).to_vec::<f32>().unwrap();
    for (x, &v) in values.iter().enumerate() {
        assert_eq!(v, (idx[x / 64] as usize * 64 + x % 64) as f32, "at {x}");
    }
    // Columns of a [100, 500] tensor, 700 picks (70000 elements).
    let idx: Vec<i64> = (0..700).map(|x| (x * 13 % 500) as i64).collect();
    let values = read(Flex::float_select(
        arange(&[100, 500]),
        1,
        ints(idx.clone()),
    ))
    .to_vec::<f32>()
    .unwrap();
    for (x, &v) in values.iter().enumerate() {
        assert_eq!(
            v,
            ((x / 700) * 500 + idx[x % 700] as usize) as f32,
            "at {x}"
        );
    }
}

#[test]
#[should_panic(expected = "select: index 3 is out of bounds for dim 0 of size 3")]
fn select_out_of_bounds_panics() {
    Flex::float_select(arange(&[3, 2]), 0, ints(vec![0, 3]));
}

#[test]
#[should_panic(expected = "select: indices must be 1-D, got shape [1, 2]")]
fn select_two_dim_indices_panics() {
    let idx = Flex::int_from_data(TensorData::from([[0i64, 1]]), &DEV);
    Flex::float_select(arange(&[3, 2]), 0, idx);
}

#[test]
#[should_panic(expected = "select: dim 2 is out of range for a tensor of shape [3, 2]")]
fn select_bad_dim_panics() {
    Flex::float_select(arange(&[3, 2]), 2, ints(vec![0]));
}

// ------------------------------------------------------------- select_add

#[test]
fn select_add_rows_with_duplicates() {
    let t = floats(vec![1.; 6], &[3, 2]);
    let v = floats(vec![1., 2., 3., 4., 5., 6.], &[3, 2]);
    check(
        Flex::float_select_add(t, 0, ints(vec![0, 2, 0]), v),
        vec![7., 9., 1., 1., 4., 5.],
        &[3, 2],
    );
}

#[test]
fn select_add_last_dim() {
    let t = floats(vec![0.; 6], &[2, 3]);
    let v = floats(vec![1., 2., 3., 4.], &[2, 2]);
    check(
        Flex::float_select_add(t, 1, ints(vec![2, 2]), v),
        vec![0., 0., 3., 0., 0., 7.],
        &[2, 3],
    );
}

#[test]
fn select_add_strided_operands_leave_shared_input_untouched() {
    // tensor: arange [2, 3] transposed -> [[0, 3], [1, 4], [2, 5]];
    // value: [[1, 2, 3], [4, 5, 6]] transposed -> [[1, 4], [2, 5], [3, 6]], added at columns 1, 0.
    let base = arange(&[2, 3]);
    let keep = base.clone();
    let t = Flex::float_permute(base, &[1, 0]);
    let v = Flex::float_permute(floats(vec![1., 2., 3., 4., 5., 6.], &[2, 3]), &[1, 0]);
    let out = Flex::float_select_add(t, 1, ints(vec![1, 0]), v);
    check(out, vec![4., 4., 6., 6., 8., 8.], &[3, 2]);
    check(keep, vec![0., 1., 2., 3., 4., 5.], &[2, 3]);
}

#[test]
fn select_add_integers_wrap() {
    let t = Flex::int_from_data(TensorData::from([32767i16, 5]), &DEV);
    let v = Flex::int_from_data(TensorData::from([1i16, 2]), &DEV);
    read(Flex::int_select_add(t, 0, ints(vec![0, 1]), v))
        .assert_eq(&TensorData::from([-32768i16, 7]), true);
}

#[test]
fn select_add_f16_rounds_once() {
    // 2048 + 4 x 1.0: per-add rounding would stay at 2048.
    let t = Flex::float_from_data(
        TensorData::from([[f16::from_f32(2048.0)], [f16::ZERO]]),
        &DEV,
    );
    let v = Flex::float_from_data(TensorData::from([[f16::ONE]; 4]), &DEV);
    let out = Flex::float_select_add(t, 0, ints(vec![0; 4]), v);
    read(out).assert_eq(
        &TensorData::from([[f16::from_f32(2052.0)], [f16::ZERO]]),
        true,
    );
}

#[test]
fn select_add_every_numeric_dtype() {
    for dtype in DType::ALL.into_iter().filter(|d| !d.is_bool()) {
        let data = |values: Vec<i64>, shape: Vec<usize>| {
            TensorData::new(values, shape).convert_dtype(dtype)
        };
        let t = tensor(data(vec![1; 6], vec![3, 2]));
        let v = tensor(data(vec![1, 2, 3, 4, 5, 6], vec![3, 2]));
        let out = if dtype.is_float() {
            Flex::float_select_add(t, 0, ints(vec![0, 2, 0]), v)
        } else {
            Flex::int_select_add(t, 0, ints(vec![0, 2, 0]), v)
        };
        read(out).assert_eq(&data(vec![7, 9, 1, 1, 4, 5], vec![3, 2]), true);
    }
}

#[test]
fn select_add_empty_indices() {
    let out = Flex::float_select_add(arange(&[2, 2]), 0, ints(vec![]), floats(vec![], &[0, 2]));
    check(out, vec![0., 1., 2., 3.], &[2, 2]);
}

#[test]
fn select_add_large_matches_formula() {
    // Rows of a [500, 100] zero tensor receive [1000, 100] value rows at index x % 500:
    // each target row gets rows r and r + 500 of arange.
    let idx: Vec<i64> = (0..1000).map(|x| (x % 500) as i64).collect();
    let out = Flex::float_select_add(
        floats(vec![0.; 50_000], &[500, 100]),
        0,
        ints(idx),
        arange(&[1000, 100]),
    );
    let values = read(out).to_vec::<f32>().unwrap();
    for (x, &v) in values.iter().enumerate() {
        let (r, c) = (x / 100, x % 100);
        assert_eq!(v, ((r * 100 + c) + ((r + 500) * 100 + c)) as f32, "at {x}");
    }
}

#[test]
#[should_panic(
    expected = "select_add: value [2, 2] must match tensor [3, 2] outside dim 0 and have 3 (the number of indices) along it"
)]
fn select_add_value_shape_panics() {
    Flex::float_select_add(arange(&[3, 2]), 0, ints(vec![0, 1, 2]), arange(&[2, 2]));
}

#[test]
#[should_panic(expected = "select_add: index -2 is out of bounds for dim 1 of size 2")]
fn select_add_out_of_bounds_panics() {
    Flex::float_select_add(arange(&[3, 2]), 1, ints(vec![-2]), arange(&[3, 1]));
}

#[test]
#[should_panic(expected = "select: index 5 is out of bounds for dim 0 of size 2")]
fn select_out_of_bounds_with_empty_output_panics() {
    // No element is read, but the index is still invalid.
    Flex::float_select(floats(vec![], &[2, 0]), 0, ints(vec![1, 5]));
}

#[test]
#[should_panic(expected = "select_add: index 7 is out of bounds for dim 0 of size 3")]
fn select_add_out_of_bounds_with_empty_value_panics() {
    Flex::float_select_add(
        floats(vec![], &[3, 0]),
        0,
        ints(vec![7]),
        floats(vec![], &[1, 0]),
    );
}
