//! gather (torch.gather) and scatter_add (torch.scatter_add).
//! Expected values worked by hand; `reference/shape_index.py` reproduces them.

use burn_backend::{BoolTensorOps, FloatTensorOps, IntTensorOps, TensorMetadata};
use burn_flex::{Flex, FlexDevice, FlexTensor};
use burn_std::{DType, Shape, TensorData};
use half::{bf16, f16};

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

fn gather(dim: usize, t: FlexTensor, indices: FlexTensor) -> FlexTensor {
    let dtype = t.dtype();
    if dtype.is_float() {
        Flex::float_gather(dim, t, indices)
    } else if dtype.is_int() {
        Flex::int_gather(dim, t, indices)
    } else {
        Flex::bool_gather(dim, t, indices)
    }
}

fn floats(values: Vec<f32>, shape: &[usize]) -> FlexTensor {
    Flex::float_from_data(TensorData::new(values, shape.to_vec()), &DEV)
}

fn ints(values: Vec<i64>, shape: &[usize]) -> FlexTensor {
    Flex::int_from_data(TensorData::new(values, shape.to_vec()), &DEV)
}

fn arange(shape: &[usize]) -> FlexTensor {
    let n: usize = shape.iter().product();
    floats((0..n).map(|i| i as f32).collect(), shape)
}

fn check(t: FlexTensor, expected: Vec<f32>, shape: &[usize]) {
    read(t).assert_eq(&TensorData::new(expected, shape.to_vec()), true);
}

// ----------------------------------------------------------------- gather

#[test]
fn gather_dim0_and_dim1() {
    let t = floats(vec![1., 2., 3., 4.], &[2, 2]);
    let idx = ints(vec![0, 0, 1, 0], &[2, 2]);
    // dim 0: out[i][j] = t[idx[i][j]][j]; dim 1: out[i][j] = t[i][idx[i][j]].
    check(
        Flex::float_gather(0, t.clone(), idx.clone()),
        vec![1., 2., 3., 2.],
        &[2, 2],
    );
    check(Flex::float_gather(1, t, idx), vec![1., 1., 4., 3.], &[2, 2]);
}

#[test]
fn gather_indices_smaller_than_tensor() {
    // arange [3, 4].
    check(
        Flex::float_gather(1, arange(&[3, 4]), ints(vec![3, 0, 1, 1], &[2, 2])),
        vec![3., 0., 5., 5.],
        &[2, 2],
    );
    check(
        Flex::float_gather(0, arange(&[3, 4]), ints(vec![2, 1, 0], &[1, 3])),
        vec![8., 5., 2.],
        &[1, 3],
    );
}

#[test]
fn gather_strided_tensor_and_indices() {
    // tensor: arange [3, 4] transposed, tt[i][j] = 4j + i.
    // indices: i32 [[2, 0, 1, 1], [0, 2, 2, 0]] transposed -> [[2, 0], [0, 2], [1, 2], [1, 0]].
    let t = Flex::float_permute(arange(&[3, 4]), &[1, 0]);
    let idx = Flex::int_from_data(TensorData::from([[2i32, 0, 1, 1], [0, 2, 2, 0]]), &DEV);
    let idx = Flex::int_permute(idx, &[1, 0]);
    check(
        Flex::float_gather(1, t, idx),
        vec![8., 0., 1., 9., 6., 10., 7., 3.],
        &[4, 2],
    );
}

#[test]
fn gather_with_expanded_indices_rank3() {
    // t = arange [2, 3, 2]; idx [1, 1, 2] = [[[2, 0]]] expanded to [2, 1, 2]; dim 1.
    // out[a][0][c] = t[a][idx][c] = 6a + 2 idx + c.
    let idx = Flex::int_expand(ints(vec![2, 0], &[1, 1, 2]), Shape::new([2, 1, 2]));
    check(
        Flex::float_gather(1, arange(&[2, 3, 2]), idx),
        vec![4., 1., 10., 7.],
        &[2, 1, 2],
    );
}

#[test]
fn gather_every_index_dtype() {
    let t = floats(vec![1., 2., 3., 4.], &[2, 2]);
    for dtype in [
        DType::I64,
        DType::I32,
        DType::I16,
        DType::I8,
        DType::U64,
        DType::U32,
        DType::U16,
        DType::U8,
    ] {
        let idx = Flex::int_from_data(
            TensorData::from([[0i64, 0], [1, 0]]).convert_dtype(dtype),
            &DEV,
        );
        check(
            Flex::float_gather(0, t.clone(), idx),
            vec![1., 2., 3., 2.],
            &[2, 2],
        );
    }
}

#[test]
fn gather_every_dtype() {
    for dtype in DType::ALL {
        let data = |values: Vec<i64>, shape: Vec<usize>| {
            TensorData::new(values, shape).convert_dtype(dtype)
        };
        let t = tensor(data(vec![1, 0, 3, 4, 0, 6], vec![2, 3]));
        let idx = ints(vec![2, 2, 1, 0, 0, 0, 1, 2], &[2, 4]);
        // out[i][j] = t[i][idx[i][j]].
        read(gather(1, t, idx)).assert_eq(&data(vec![3, 3, 0, 1, 4, 4, 0, 6], vec![2, 4]), true);
    }
}

#[test]
fn gather_empty() {
    let out = Flex::float_gather(0, arange(&[2, 2]), ints(vec![], &[0, 2]));
    check(out, vec![], &[0, 2]);
    // A zero-size tensor dim with no indices is fine too.
    let out = Flex::float_gather(1, floats(vec![], &[2, 0]), ints(vec![], &[2, 0]));
    check(out, vec![], &[2, 0]);
}

#[test]
fn gather_large_matches_formula() {
    // [300, 200] tensor (60000 elements) gathered along dim 0 with a pseudo-random index.
    let (r, c) = (300usize, 200usize);
    let idx: Vec<i64> = (0..r * c)
        .map(|x| (((x / c) * 7 + (x % c) * 13) % r) as i64)
        .collect();
    let out = Flex::float_gather(0, arange(&[r, c]), ints(idx.clone(), &[r, c]));
    let values = read(out).to_vec::<f32>().unwrap();
    for (x, &v) in values.iter().enumerate() {
        assert_eq!(v, (idx[x] as usize * c + x % c) as f32, "at {x}");
    }
    // And along dim 1 of the transposed tensor: tt[i][j] = t[j][i] = j * c + i.
    let t = Flex::float_permute(arange(&[r, c]), &[1, 0]); // [c, r]
    let idx: Vec<i64> = (0..c * r)
        .map(|x| (((x / r) * 11 + (x % r) * 5) % r) as i64)
        .collect();
    let values = read(Flex::float_gather(1, t, ints(idx.clone(), &[c, r])))
        .to_vec::<f32>()
        .unwrap();
    for (x, &v) in values.iter().enumerate() {
        assert_eq!(v, (idx[x] as usize * c + x / r) as f32, "at {x}");
    }
}

#[test]
#[should_panic(expected = "gather: index 2 is out of bounds for dim 0 of size 2")]
fn gather_index_out_of_bounds_panics() {
    Flex::float_gather(0, arange(&[2, 2]), ints(vec![0, 2, 0, 0], &[2, 2]));
}

#[test]
#[should_panic(expected = "gather: index -1 is out of bounds for dim 1 of size 2")]
fn gather_negative_index_panics() {
    Flex::float_gather(1, arange(&[2, 2]), ints(vec![0, -1], &[1, 2]));
}

#[test]
#[should_panic(expected = "gather: indices [3, 2] exceed tensor [2, 2] at dim 0")]
fn gather_indices_too_large_panics() {
    Flex::float_gather(1, arange(&[2, 2]), ints(vec![0; 6], &[3, 2]));
}

#[test]
#[should_panic(expected = "gather: tensor [2, 2] and indices [2] must have the same rank")]
fn gather_rank_mismatch_panics() {
    Flex::float_gather(0, arange(&[2, 2]), ints(vec![0, 1], &[2]));
}

#[test]
#[should_panic(expected = "gather: expected an integer dtype, got f32")]
fn gather_float_indices_panics() {
    Flex::float_gather(0, arange(&[2]), arange(&[2]));
}

// ------------------------------------------------------------ scatter_add

#[test]
fn scatter_add_dim0_with_duplicates() {
    let t = floats(vec![1.; 6], &[3, 2]);
    let idx = ints(vec![0, 2, 0, 0], &[2, 2]);
    let v = floats(vec![10., 20., 30., 40.], &[2, 2]);
    check(
        Flex::float_scatter_add(0, t, idx, v),
        vec![41., 41., 1., 1., 1., 21.],
        &[3, 2],
    );
}

#[test]
fn scatter_add_dim1() {
    let t = floats(vec![0.; 6], &[2, 3]);
    let idx = ints(vec![0, 0, 2, 1, 1, 1], &[2, 3]);
    let v = floats(vec![1., 2., 3., 4., 5., 6.], &[2, 3]);
    check(
        Flex::float_scatter_add(1, t, idx, v),
        vec![3., 0., 3., 0., 15., 0.],
        &[2, 3],
    );
}

#[test]
fn scatter_add_value_larger_than_indices() {
    // Only value[..1][..1] is read (torch semantics).
    let t = floats(vec![0.; 4], &[2, 2]);
    let v = floats(vec![5., 6., 7., 8.], &[2, 2]);
    check(
        Flex::float_scatter_add(0, t, ints(vec![1], &[1, 1]), v),
        vec![0., 0., 5., 0.],
        &[2, 2],
    );
}

#[test]
fn scatter_add_strided_operands_leave_shared_input_untouched() {
    // tensor: arange [2, 3] transposed -> [[0, 3], [1, 4], [2, 5]] (shares the buffer with `keep`);
    // value: [[1, 2], [3, 4]] flipped on dim 0 -> [[3, 4], [1, 2]]; indices [[2, 0], [2, 1]].
    let base = arange(&[2, 3]);
    let keep = base.clone();
    let t = Flex::float_permute(base, &[1, 0]);
    let v = Flex::float_flip(floats(vec![1., 2., 3., 4.], &[2, 2]), &[0]);
    let out = Flex::float_scatter_add(0, t, ints(vec![2, 0, 2, 1], &[2, 2]), v);
    check(out, vec![0., 7., 1., 6., 6., 5.], &[3, 2]);
    check(keep, vec![0., 1., 2., 3., 4., 5.], &[2, 3]);
}

#[test]
fn scatter_add_integers_wrap() {
    let t = Flex::int_from_data(TensorData::from([127i8, 0]), &DEV);
    let v = Flex::int_from_data(TensorData::from([1i8, 1, -5]), &DEV);
    let out = Flex::int_scatter_add(0, t, ints(vec![0, 0, 1], &[3]), v);
    read(out).assert_eq(&TensorData::from([-127i8, -5]), true);
    let t = Flex::int_from_data(TensorData::from([250u8]), &DEV);
    let v = Flex::int_from_data(TensorData::from([10u8]), &DEV);
    read(Flex::int_scatter_add(0, t, ints(vec![0], &[1]), v))
        .assert_eq(&TensorData::from([4u8]), true);
}

#[test]
fn scatter_add_halves_round_once() {
    // 2048 + 1 + 1 + 1 + 1: rounding after every add would stay at 2048 (ties to even),
    // accumulating in f32 and rounding once gives 2052 (exact in f16).
    let t = Flex::float_from_data(TensorData::from([f16::from_f32(2048.0), f16::ZERO]), &DEV);
    let v = Flex::float_from_data(TensorData::from([f16::ONE; 4]), &DEV);
    let out = Flex::float_scatter_add(0, t, ints(vec![0; 4], &[4]), v);
    read(out).assert_eq(&TensorData::from([f16::from_f32(2052.0), f16::ZERO]), true);
    // Same for bf16 at 256, where the spacing is 2.
    let t = Flex::float_from_data(TensorData::from([bf16::from_f32(256.0)]), &DEV);
    let v = Flex::float_from_data(TensorData::from([bf16::ONE; 4]), &DEV);
    let out = Flex::float_scatter_add(0, t, ints(vec![0; 4], &[4]), v);
    read(out).assert_eq(&TensorData::from([bf16::from_f32(260.0)]), true);
}

#[test]
fn scatter_add_every_numeric_dtype() {
    for dtype in DType::ALL.into_iter().filter(|d| !d.is_bool()) {
        let data = |values: Vec<i64>, shape: Vec<usize>| {
            TensorData::new(values, shape).convert_dtype(dtype)
        };
        let t = tensor(data(vec![1; 6], vec![3, 2]));
        let v = tensor(data(vec![10, 20, 30, 40], vec![2, 2]));
        let idx = ints(vec![0, 2, 0, 0], &[2, 2]);
        let out = if dtype.is_float() {
            Flex::float_scatter_add(0, t, idx, v)
        } else {
            Flex::int_scatter_add(0, t, idx, v)
        };
        read(out).assert_eq(&data(vec![41, 41, 1, 1, 1, 21], vec![3, 2]), true);
    }
}

#[test]
fn scatter_add_empty_indices() {
    let out = Flex::float_scatter_add(
        1,
        arange(&[2, 2]),
        ints(vec![], &[2, 0]),
        floats(vec![], &[2, 0]),
    );
    check(out, vec![0., 1., 2., 3.], &[2, 2]);
}

#[test]
fn scatter_add_is_inverse_of_gather_on_permutation() {
    // Scattering a gathered permutation back into zeros restores the input (large, rank 3).
    let shape = [40usize, 30, 50];
    let n: usize = shape.iter().product();
    let t = arange(&shape);
    // idx[a][b][c] = (b * 7 + a + c) % 30 is a permutation of 0..30 along dim 1 for fixed a, c.
    let idx: Vec<i64> = (0..n)
        .map(|x| {
            let (a, b, c) = (x / 1500, (x / 50) % 30, x % 50);
            ((b * 7 + a + c) % 30) as i64
        })
        .collect();
    let idx = ints(idx, &shape);
    let gathered = Flex::float_gather(1, t, idx.clone());
    let zeros = floats(vec![0.; n], &shape);
    let back = Flex::float_scatter_add(1, zeros, idx, gathered);
    check(back, (0..n).map(|i| i as f32).collect(), &shape);
}

#[test]
#[should_panic(expected = "scatter_add: index 3 is out of bounds for dim 1 of size 2")]
fn scatter_add_index_out_of_bounds_panics() {
    Flex::float_scatter_add(
        1,
        arange(&[2, 2]),
        ints(vec![0, 3], &[1, 2]),
        arange(&[1, 2]),
    );
}

#[test]
#[should_panic(expected = "scatter_add: indices [2, 2] must not exceed value [1, 2] in any dim")]
fn scatter_add_value_too_small_panics() {
    Flex::float_scatter_add(
        0,
        arange(&[2, 2]),
        ints(vec![0; 4], &[2, 2]),
        arange(&[1, 2]),
    );
}

#[test]
#[should_panic(expected = "scatter_add: operands have different dtypes f32 and f64")]
fn scatter_add_dtype_mismatch_panics() {
    let v = Flex::float_from_data(TensorData::from([1.0f64]), &DEV);
    Flex::float_scatter_add(0, arange(&[2]), ints(vec![0], &[1]), v);
}

#[test]
#[should_panic(expected = "gather: index 300 is out of bounds for dim 0 of size 300")]
fn gather_bad_index_in_a_parallel_chunk_panics() {
    // 60000 elements: the bad index sits in a late chunk, checked on a worker thread.
    let mut idx = vec![0i64; 300 * 200];
    idx[59_000] = 300;
    Flex::float_gather(0, arange(&[300, 200]), ints(idx, &[300, 200]));
}
