//! slice (views with steps, incl. negative) and slice_assign.
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

fn arange(shape: &[usize]) -> FlexTensor {
    let n: usize = shape.iter().product();
    Flex::float_from_data(
        TensorData::new((0..n).map(|i| i as f32).collect::<Vec<_>>(), shape.to_vec()),
        &DEV,
    )
}

fn floats(values: Vec<f32>, shape: &[usize]) -> FlexTensor {
    Flex::float_from_data(TensorData::new(values, shape.to_vec()), &DEV)
}

fn check(t: FlexTensor, expected: Vec<f32>, shape: &[usize]) {
    read(t).assert_eq(&TensorData::new(expected, shape.to_vec()), true);
}

// ------------------------------------------------------------------ slice

#[test]
fn slice_ranges_and_trailing_dims_whole() {
    // arange [3, 4]: rows 1..3, cols 0..2; then only the first dim given.
    check(
        Flex::float_slice(arange(&[3, 4]), &[Slice::from(1..3), Slice::from(0..2)]),
        vec![4., 5., 8., 9.],
        &[2, 2],
    );
    check(
        Flex::float_slice(arange(&[3, 4]), &[Slice::from(2..3)]),
        vec![8., 9., 10., 11.],
        &[1, 4],
    );
}

#[test]
fn slice_negative_bounds_count_from_end() {
    // cols -3..-1 = 1..3; row -1 = 2.
    let t = Flex::float_slice(
        arange(&[3, 4]),
        &[Slice::index(-1), Slice::new(-3, Some(-1), 1)],
    );
    check(t, vec![9., 10.], &[1, 2]);
}

#[test]
fn slice_positive_and_negative_steps() {
    check(
        Flex::float_slice(arange(&[7]), &[Slice::new(1, None, 2)]),
        vec![1., 3., 5.],
        &[3],
    );
    // A negative step walks the same range backwards from its end: 0..5 step -2 -> 4, 2, 0.
    check(
        Flex::float_slice(arange(&[7]), &[Slice::new(0, Some(5), -2)]),
        vec![4., 2., 0.],
        &[3],
    );
    check(
        Flex::float_slice(arange(&[4]), &[Slice::new(0, None, -1)]),
        vec![3., 2., 1., 0.],
        &[4],
    );
    // 1..6 step -3 -> 5, 2.
    check(
        Flex::float_slice(arange(&[7]), &[Slice::new(1, Some(6), -3)]),
        vec![5., 2.],
        &[2],
    );
}

#[test]
fn slice_2d_with_steps_on_both_dims() {
    // arange [4, 5]: rows 3, 1 (step -2), cols 0, 3 (step 3).
    let t = Flex::float_slice(
        arange(&[4, 5]),
        &[Slice::new(0, None, -2), Slice::new(0, None, 3)],
    );
    check(t, vec![15., 18., 5., 8.], &[2, 2]);
}

#[test]
fn slice_of_permuted() {
    // arange [3, 4] transposed -> [4, 3]; rows 1..3, cols 1.. -> [[5, 9], [6, 10]].
    let t = Flex::float_permute(arange(&[3, 4]), &[1, 0]);
    check(
        Flex::float_slice(t, &[Slice::from(1..3), Slice::from(1..)]),
        vec![5., 9., 6., 10.],
        &[2, 2],
    );
}

#[test]
fn slice_of_slice_with_steps() {
    // [0..10] step 2 -> [0, 2, 4, 6, 8]; then 1..5 step -2 -> [8, 4]; then reversed -> [4, 8].
    let t = Flex::float_slice(arange(&[10]), &[Slice::new(0, None, 2)]);
    let t = Flex::float_slice(t, &[Slice::new(1, None, -2)]);
    check(t.clone(), vec![8., 4.], &[2]);
    check(
        Flex::float_slice(t, &[Slice::new(0, None, -1)]),
        vec![4., 8.],
        &[2],
    );
}

#[test]
fn narrow_composite_and_empty_slice() {
    check(
        Flex::float_narrow(arange(&[2, 5]), 1, 1, 3),
        vec![1., 2., 3., 6., 7., 8.],
        &[2, 3],
    );
    check(
        Flex::float_slice(arange(&[2, 5]), &[Slice::full(), Slice::from(2..2)]),
        vec![],
        &[2, 0],
    );
    check(
        Flex::float_slice(arange(&[2, 5]), &[Slice::new(1, Some(1), -1)]),
        vec![],
        &[0, 5],
    );
}

#[test]
fn slice_int_and_bool() {
    let i = Flex::int_from_data(TensorData::from([[1i16, 2, 3], [4, 5, 6]]), &DEV);
    read(Flex::int_slice(
        i,
        &[Slice::new(0, None, -1), Slice::new(0, None, 2)],
    ))
    .assert_eq(&TensorData::from([[4i16, 6], [1, 3]]), true);
    let b = Flex::bool_from_data(TensorData::from([true, false, true, true]), &DEV);
    read(Flex::bool_slice(b, &[Slice::new(1, None, 2)]))
        .assert_eq(&TensorData::from([false, true]), true);
}

#[test]
#[should_panic(
    expected = "slice: dim 1 of shape [2, 3]: slice 0..4 is out of range for a dimension of size 3"
)]
fn slice_out_of_range_panics() {
    Flex::float_slice(arange(&[2, 3]), &[Slice::full(), Slice::from(0..4)]);
}

#[test]
#[should_panic(expected = "has a step of zero")]
fn slice_zero_step_panics() {
    Flex::float_slice(arange(&[3]), &[Slice::new(0, None, 0)]);
}

#[test]
#[should_panic(expected = "slice: 3 slices given for a tensor of shape [2, 3]")]
fn slice_too_many_panics() {
    Flex::float_slice(
        arange(&[2, 3]),
        &[Slice::full(), Slice::full(), Slice::full()],
    );
}

// ----------------------------------------------------------- slice_assign

#[test]
fn slice_assign_rows_with_step() {
    // rows 0 and 2, cols 1..3 of arange [3, 4].
    let v = floats(vec![100., 101., 102., 103.], &[2, 2]);
    let t = Flex::float_slice_assign(
        arange(&[3, 4]),
        &[Slice::new(0, None, 2), Slice::from(1..3)],
        v,
    );
    check(
        t,
        vec![0., 100., 101., 3., 4., 5., 6., 7., 8., 102., 103., 11.],
        &[3, 4],
    );
}

#[test]
fn slice_assign_negative_step_writes_in_walk_order() {
    // Slice 0.. step -2 over 5 elements visits 4, 2, 0.
    let v = floats(vec![10., 20., 30.], &[3]);
    let t = Flex::float_slice_assign(arange(&[5]), &[Slice::new(0, None, -2)], v);
    check(t, vec![30., 1., 20., 3., 10.], &[5]);
}

#[test]
fn slice_assign_leaves_shared_buffers_untouched() {
    let t = arange(&[4]);
    let keep = t.clone();
    let view = Flex::float_slice(t.clone(), &[Slice::from(0..2)]);
    let out = Flex::float_slice_assign(t, &[Slice::from(1..2)], floats(vec![9.], &[1]));
    check(out, vec![0., 9., 2., 3.], &[4]);
    check(keep, vec![0., 1., 2., 3.], &[4]);
    check(view, vec![0., 1.], &[2]);
}

#[test]
fn slice_assign_value_from_same_buffer() {
    // Copy the first half over the second half, reading from a view of the same tensor.
    let t = arange(&[6]);
    let first = Flex::float_slice(t.clone(), &[Slice::from(0..3)]);
    let out = Flex::float_slice_assign(t, &[Slice::from(3..6)], first);
    check(out, vec![0., 1., 2., 0., 1., 2.], &[6]);
}

#[test]
fn slice_assign_into_permuted_tensor() {
    // arange [2, 3] transposed: [[0, 3], [1, 4], [2, 5]]; rows 1..3 of col 0 := [7, 8].
    let t = Flex::float_permute(arange(&[2, 3]), &[1, 0]);
    let t = Flex::float_slice_assign(
        t,
        &[Slice::from(1..3), Slice::from(0..1)],
        floats(vec![7., 8.], &[2, 1]),
    );
    check(t, vec![0., 3., 7., 4., 8., 5.], &[3, 2]);
}

#[test]
fn slice_assign_strided_value() {
    // value = [[1, 2], [3, 4]] flipped on dim 1 -> [[2, 1], [4, 3]], then transposed -> [[2, 4], [1, 3]].
    let value = Flex::float_permute(
        Flex::float_flip(floats(vec![1., 2., 3., 4.], &[2, 2]), &[1]),
        &[1, 0],
    );
    let zeros = floats(vec![0.; 6], &[2, 3]);
    let t = Flex::float_slice_assign(zeros, &[Slice::full(), Slice::new(0, Some(3), -2)], value);
    // cols visited 2, 0: out[:, 2] = [2, 1], out[:, 0] = [4, 3].
    check(t, vec![4., 0., 2., 3., 0., 1.], &[2, 3]);
}

#[test]
fn slice_assign_expanded_value() {
    let value = Flex::float_expand(floats(vec![5.], &[1, 1]), Shape::new([2, 2]));
    let t = Flex::float_slice_assign(
        arange(&[3, 3]),
        &[Slice::from(1..3), Slice::from(0..2)],
        value,
    );
    check(t, vec![0., 1., 2., 5., 5., 5., 5., 5., 8.], &[3, 3]);
}

#[test]
fn slice_assign_empty_region() {
    let value = floats(vec![], &[0, 3]);
    let t = Flex::float_slice_assign(arange(&[2, 3]), &[Slice::from(1..1)], value);
    check(t, vec![0., 1., 2., 3., 4., 5.], &[2, 3]);
}

#[test]
fn slice_assign_int_and_bool() {
    let i = Flex::int_from_data(TensorData::from([1u64, 2, 3, 4]), &DEV);
    let v = Flex::int_from_data(TensorData::from([u64::MAX, 7]), &DEV);
    read(Flex::int_slice_assign(i, &[Slice::new(1, None, 2)], v))
        .assert_eq(&TensorData::from([1u64, u64::MAX, 3, 7]), true);
    let b = Flex::bool_from_data(TensorData::from([[false, false], [false, false]]), &DEV);
    let v = Flex::bool_from_data(TensorData::from([[true], [true]]), &DEV);
    read(Flex::bool_slice_assign(
        b,
        &[Slice::full(), Slice::from(1..2)],
        v,
    ))
    .assert_eq(&TensorData::from([[false, true], [false, true]]), true);
}

#[test]
fn slice_and_slice_assign_every_dtype() {
    for dtype in DType::ALL {
        let data = |values: Vec<i64>, shape: Vec<usize>| {
            TensorData::new(values, shape).convert_dtype(dtype)
        };
        let t = tensor(data(vec![1, 0, 3, 4, 0, 6], vec![2, 3]));
        let v = tensor(data(vec![9, 0], vec![2, 1]));
        let slices = [Slice::new(0, None, -1), Slice::index(1)];
        let (out, sliced) = if dtype.is_float() {
            (
                Flex::float_slice_assign(t.clone(), &slices, v),
                Flex::float_slice(t, &[Slice::new(0, None, 2)]),
            )
        } else if dtype.is_int() {
            (
                Flex::int_slice_assign(t.clone(), &slices, v),
                Flex::int_slice(t, &[Slice::new(0, None, 2)]),
            )
        } else {
            (
                Flex::bool_slice_assign(t.clone(), &slices, v),
                Flex::bool_slice(t, &[Slice::new(0, None, 2)]),
            )
        };
        // Rows visited 1, 0: out[1][1] = 9, out[0][1] = 0.
        read(out).assert_eq(&data(vec![1, 0, 3, 4, 9, 6], vec![2, 3]), true);
        read(sliced).assert_eq(&data(vec![1, 0, 3], vec![1, 3]), true);
    }
}

#[test]
fn slice_assign_large_matches_formula() {
    // Every third column of a [300, 240] tensor (72000 elements) := -value.
    let (r, c) = (300usize, 240usize);
    let value = column_values(r, c);
    let t = Flex::float_slice_assign(
        arange(&[r, c]),
        &[Slice::full(), Slice::new(0, None, 3)],
        value,
    );
    let values = read(t).to_vec::<f32>().unwrap();
    for (idx, &v) in values.iter().enumerate() {
        let (i, j) = (idx / c, idx % c);
        let expected = if j % 3 == 0 {
            -((i * 1000 + j / 3) as f32)
        } else {
            idx as f32
        };
        assert_eq!(v, expected, "at {idx}");
    }
}

/// Value `-(1000 i + k)` for the `k`-th assigned column of row `i`.
fn column_values(r: usize, c: usize) -> FlexTensor {
    let k = c.div_ceil(3);
    let values = (0..r * k)
        .map(|x| -(((x / k) * 1000 + x % k) as f32))
        .collect::<Vec<_>>();
    floats(values, &[r, k])
}

#[test]
#[should_panic(
    expected = "slice_assign: value of shape [2, 2] does not match the region [2, 1] selected from a tensor of shape [3, 4]"
)]
fn slice_assign_shape_mismatch_panics() {
    Flex::float_slice_assign(
        arange(&[3, 4]),
        &[Slice::from(0..2), Slice::from(1..2)],
        arange(&[2, 2]),
    );
}

#[test]
#[should_panic(expected = "slice_assign: operands have different dtypes f32 and f64")]
fn slice_assign_dtype_mismatch_panics() {
    let v = Flex::float_from_data(TensorData::from([1.0f64]), &DEV);
    Flex::float_slice_assign(arange(&[3]), &[Slice::from(0..1)], v);
}
