//! Shape ops: reshape, permute, flip, expand, repeat_dim, and views of views.
//! Expected values are worked by hand or by index formulas; the generator in
//! `reference/shape_index.py` reproduces the fixed ones.

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

macro_rules! by_kind {
    ($t:expr, $f:ident, $i:ident, $b:ident $(, $arg:expr)*) => {{
        let t = $t;
        let dtype = t.dtype();
        if dtype.is_float() {
            Flex::$f(t $(, $arg)*)
        } else if dtype.is_int() {
            Flex::$i(t $(, $arg)*)
        } else {
            Flex::$b(t $(, $arg)*)
        }
    }};
}

fn arange(shape: &[usize]) -> FlexTensor {
    let n: usize = shape.iter().product();
    Flex::float_from_data(
        TensorData::new((0..n).map(|i| i as f32).collect::<Vec<_>>(), shape.to_vec()),
        &DEV,
    )
}

fn check(t: FlexTensor, expected: Vec<f32>, shape: &[usize]) {
    read(t).assert_eq(&TensorData::new(expected, shape.to_vec()), true);
}

// ---------------------------------------------------------------- reshape

#[test]
fn reshape_contiguous_then_permute() {
    let t = Flex::float_reshape(arange(&[2, 3]), Shape::new([3, 2]));
    assert_eq!(t.shape(), Shape::new([3, 2]));
    let t = Flex::float_permute(t, &[1, 0]);
    check(t, vec![0., 2., 4., 1., 3., 5.], &[2, 3]);
}

#[test]
fn reshape_of_permuted_copies_in_logical_order() {
    let t = Flex::float_permute(arange(&[2, 3]), &[1, 0]);
    let flat = Flex::float_reshape(t.clone(), Shape::new([6]));
    check(flat, vec![0., 3., 1., 4., 2., 5.], &[6]);
    let back = Flex::float_reshape(t, Shape::new([2, 3]));
    check(back, vec![0., 3., 1., 4., 2., 5.], &[2, 3]);
}

#[test]
fn reshape_of_flipped_step_slice() {
    // [0..8] step 3 -> [0, 3, 6], flipped -> [6, 3, 0].
    let t = Flex::float_slice(arange(&[8]), &[Slice::new(0, None, 3)]);
    let t = Flex::float_flip(t, &[0]);
    let t = Flex::float_reshape(t, Shape::new([3, 1]));
    check(t, vec![6., 3., 0.], &[3, 1]);
}

#[test]
fn reshape_int_and_bool() {
    let i = Flex::int_from_data(TensorData::from([[1i32, 2, 3], [4, 5, 6]]), &DEV);
    let i = Flex::int_reshape(Flex::int_permute(i, &[1, 0]), Shape::new([2, 3]));
    read(i).assert_eq(&TensorData::from([[1i32, 4, 2], [5, 3, 6]]), true);
    let b = Flex::bool_from_data(TensorData::from([[true, false], [false, false]]), &DEV);
    let b = Flex::bool_reshape(Flex::bool_permute(b, &[1, 0]), Shape::new([4]));
    read(b).assert_eq(&TensorData::from([true, false, false, false]), true);
}

#[test]
fn reshape_empty() {
    let t = Flex::float_from_data(TensorData::new(Vec::<f32>::new(), [0, 3]), &DEV);
    let t = Flex::float_reshape(Flex::float_permute(t, &[1, 0]), Shape::new([3, 0, 2]));
    assert_eq!(t.shape(), Shape::new([3, 0, 2]));
    check(t, vec![], &[3, 0, 2]);
}

#[test]
#[should_panic(expected = "reshape: cannot reshape [2, 3] (6 elements) into [4, 2] (8 elements)")]
fn reshape_wrong_count_panics() {
    Flex::float_reshape(arange(&[2, 3]), Shape::new([4, 2]));
}

// ---------------------------------------------------------------- permute

#[test]
fn permute_rank3_matches_index_formula() {
    // in[a][b][c] = 12a + 4b + c; out = in.permute(2, 0, 1): out[i][j][k] = in[j][k][i].
    let t = Flex::float_permute(arange(&[2, 3, 4]), &[2, 0, 1]);
    let mut expected = Vec::new();
    for i in 0..4 {
        for j in 0..2 {
            for k in 0..3 {
                expected.push((12 * j + 4 * k + i) as f32);
            }
        }
    }
    check(t, expected, &[4, 2, 3]);
}

#[test]
fn swap_dims_composite_and_permute_of_permute() {
    let t = Flex::float_swap_dims(arange(&[2, 3, 4]), 0, 2); // [4, 3, 2]
    let t = Flex::float_permute(t, &[1, 2, 0]); // [3, 2, 4]: out[b][a][c] = in[a][b][c]
    let mut expected = Vec::new();
    for b in 0..3 {
        for a in 0..2 {
            for c in 0..4 {
                expected.push((12 * a + 4 * b + c) as f32);
            }
        }
    }
    check(t, expected, &[3, 2, 4]);
}

#[test]
#[should_panic(expected = "permute: [0, 0] is not a permutation")]
fn permute_repeated_axis_panics() {
    Flex::float_permute(arange(&[2, 3]), &[0, 0]);
}

#[test]
#[should_panic(
    expected = "permute: [1, 0, 2] is not a permutation of the dims of a tensor of shape [2, 3]"
)]
fn permute_wrong_rank_panics() {
    Flex::float_permute(arange(&[2, 3]), &[1, 0, 2]);
}

// ------------------------------------------------------------------- flip

#[test]
fn flip_axes() {
    check(
        Flex::float_flip(arange(&[2, 3]), &[1]),
        vec![2., 1., 0., 5., 4., 3.],
        &[2, 3],
    );
    check(
        Flex::float_flip(arange(&[2, 3]), &[0, 1]),
        vec![5., 4., 3., 2., 1., 0.],
        &[2, 3],
    );
    check(
        Flex::float_flip(arange(&[2, 3]), &[]),
        vec![0., 1., 2., 3., 4., 5.],
        &[2, 3],
    );
}

#[test]
fn flip_of_step_slice_of_permuted() {
    // arange [3, 4] transposed -> [4, 3]; rows 0..4 step 2 -> rows 0, 2 = [[0, 4, 8], [2, 6, 10]];
    // flipped on both axes -> [[10, 6, 2], [8, 4, 0]].
    let t = Flex::float_permute(arange(&[3, 4]), &[1, 0]);
    let t = Flex::float_slice(t, &[Slice::new(0, None, 2)]);
    let t = Flex::float_flip(t, &[0, 1]);
    check(t, vec![10., 6., 2., 8., 4., 0.], &[2, 3]);
}

#[test]
fn flip_empty_dim() {
    let t = Flex::float_from_data(TensorData::new(Vec::<f32>::new(), [2, 0]), &DEV);
    check(Flex::float_flip(t, &[0, 1]), vec![], &[2, 0]);
}

#[test]
#[should_panic(expected = "flip: axis 2 is out of range for a tensor of shape [2, 3]")]
fn flip_axis_out_of_range_panics() {
    Flex::float_flip(arange(&[2, 3]), &[2]);
}

#[test]
#[should_panic(expected = "flip: axis 1 appears twice")]
fn flip_repeated_axis_panics() {
    Flex::float_flip(arange(&[2, 3]), &[1, 1]);
}

// ----------------------------------------------------------------- expand

#[test]
fn expand_new_leading_dim_and_size_one() {
    let t = Flex::float_from_data(TensorData::from([[1.0f32], [2.0]]), &DEV); // [2, 1]
    let t = Flex::float_expand(t, Shape::new([2, 2, 3]));
    check(
        t,
        vec![1., 1., 1., 2., 2., 2., 1., 1., 1., 2., 2., 2.],
        &[2, 2, 3],
    );
}

#[test]
fn expand_then_slice_then_reshape() {
    // [3] -> [4, 3]; rows 1..4 step 2, cols flipped -> [[2, 1, 0], [2, 1, 0]] -> reshape [6].
    let t = Flex::float_expand(arange(&[3]), Shape::new([4, 3]));
    let t = Flex::float_slice(t, &[Slice::new(1, None, 2), Slice::new(0, None, -1)]);
    check(
        Flex::float_reshape(t, Shape::new([6])),
        vec![2., 1., 0., 2., 1., 0.],
        &[6],
    );
}

#[test]
fn expand_of_expanded_to_zero_size() {
    let t = Flex::float_expand(arange(&[1, 3]), Shape::new([1, 1, 3]));
    let t = Flex::float_expand(t, Shape::new([2, 0, 3]));
    check(t, vec![], &[2, 0, 3]);
}

#[test]
#[should_panic(expected = "expand: cannot expand shape [2, 3] to [4, 3]")]
fn expand_non_unit_dim_panics() {
    Flex::float_expand(arange(&[2, 3]), Shape::new([4, 3]));
}

// ------------------------------------------------------------- repeat_dim

#[test]
fn repeat_dim_tiles_the_whole_tensor() {
    // torch: arange(6).view(2, 3).repeat(2, 1) and .repeat(1, 2).
    check(
        Flex::float_repeat_dim(arange(&[2, 3]), 0, 2),
        vec![0., 1., 2., 3., 4., 5., 0., 1., 2., 3., 4., 5.],
        &[4, 3],
    );
    check(
        Flex::float_repeat_dim(arange(&[2, 3]), 1, 2),
        vec![0., 1., 2., 0., 1., 2., 3., 4., 5., 3., 4., 5.],
        &[2, 6],
    );
}

#[test]
fn repeat_dim_of_permuted_middle_dim() {
    // arange [2, 3] transposed -> [[0, 3], [1, 4], [2, 5]] as [3, 1, 2] via reshape,
    // repeated 3 times along dim 1.
    let t = Flex::float_reshape(
        Flex::float_permute(arange(&[2, 3]), &[1, 0]),
        Shape::new([3, 1, 2]),
    );
    let t = Flex::float_repeat_dim(t, 1, 3);
    let expected = vec![
        0., 3., 0., 3., 0., 3., 1., 4., 1., 4., 1., 4., 2., 5., 2., 5., 2., 5.,
    ];
    check(t, expected, &[3, 3, 2]);
}

#[test]
fn repeat_dim_zero_and_one_times() {
    check(
        Flex::float_repeat_dim(arange(&[2, 3]), 1, 0),
        vec![],
        &[2, 0],
    );
    check(
        Flex::float_repeat_dim(arange(&[2, 3]), 0, 1),
        vec![0., 1., 2., 3., 4., 5.],
        &[2, 3],
    );
    let i = Flex::int_from_data(TensorData::from([7i64, 8]), &DEV);
    read(Flex::int_repeat_dim(i, 0, 3)).assert_eq(&TensorData::from([7i64, 8, 7, 8, 7, 8]), true);
    let b = Flex::bool_from_data(TensorData::from([[true], [false]]), &DEV);
    read(Flex::bool_repeat_dim(b, 1, 2))
        .assert_eq(&TensorData::from([[true, true], [false, false]]), true);
}

#[test]
#[should_panic(expected = "repeat_dim: dim 2 is out of range for a tensor of shape [2, 3]")]
fn repeat_dim_bad_dim_panics() {
    Flex::float_repeat_dim(arange(&[2, 3]), 2, 2);
}

// --------------------------------------------------------- every dtype

/// `[2, 3]` values with zeros in them so bool tensors get a pattern too.
const SRC: [i64; 6] = [5, 0, 7, 9, 0, 2];

#[test]
fn view_and_copy_ops_for_every_dtype() {
    for dtype in DType::ALL {
        let data = |values: Vec<i64>, shape: Vec<usize>| {
            TensorData::new(values, shape).convert_dtype(dtype)
        };
        let t = tensor(data(SRC.to_vec(), vec![2, 3]));
        assert_eq!(t.dtype(), dtype);

        // Transpose, flip rows, copy to a flat layout.
        let p = by_kind!(t.clone(), float_permute, int_permute, bool_permute, &[1, 0]);
        let p = by_kind!(p, float_flip, int_flip, bool_flip, &[0]);
        let flat = by_kind!(p, float_reshape, int_reshape, bool_reshape, Shape::new([6]));
        read(flat).assert_eq(&data(vec![7, 2, 0, 0, 5, 9], vec![6]), true);

        // Expand a column, then repeat.
        let col = by_kind!(
            t.clone(),
            float_slice,
            int_slice,
            bool_slice,
            &[Slice::full(), Slice::from(2..3)]
        );
        let col = by_kind!(
            col,
            float_expand,
            int_expand,
            bool_expand,
            Shape::new([2, 2])
        );
        let rep = by_kind!(col, float_repeat_dim, int_repeat_dim, bool_repeat_dim, 0, 2);
        read(rep).assert_eq(&data(vec![7, 7, 2, 2, 7, 7, 2, 2], vec![4, 2]), true);

        // The input is untouched by everything above.
        read(t).assert_eq(&data(SRC.to_vec(), vec![2, 3]), true);
    }
}

// ---------------------------------------------------------- large (threads)

#[test]
fn large_transpose_copy_matches_formula() {
    // 257 x 263 = 67591 elements: above the parallel threshold, with rows
    // that straddle the fixed chunk boundaries.
    let (r, c) = (257usize, 263usize);
    let t = Flex::float_permute(arange(&[r, c]), &[1, 0]);
    let t = Flex::float_reshape(t, Shape::new([c * r]));
    let values = read(t).to_vec::<f32>().unwrap();
    for (idx, &v) in values.iter().enumerate() {
        let (i, j) = (idx / r, idx % r); // out[i][j] = in[j][i]
        assert_eq!(v, (j * c + i) as f32, "at {idx}");
    }
}

#[test]
fn large_repeat_dim_matches_formula() {
    let t = Flex::float_flip(arange(&[3, 12_000]), &[1]);
    let values = read(Flex::float_repeat_dim(t, 0, 2))
        .to_vec::<f32>()
        .unwrap();
    assert_eq!(values.len(), 72_000);
    for (idx, &v) in values.iter().enumerate() {
        let (row, col) = ((idx / 12_000) % 3, idx % 12_000);
        assert_eq!(v, (row * 12_000 + 11_999 - col) as f32, "at {idx}");
    }
}

#[test]
fn transposed_copies_every_element_size() {
    // t[a][b][c] = (7a + 3b + c) % 100, permuted to [A, C, B] and flipped on both
    // transposed axes: out[a][x][y] = t[a][B-1-y][C-1-x]. Small (one thread) and
    // large (36400 elements, planes in parallel), 1-, 2-, 4- and 8-byte elements.
    for (a_n, b_n, c_n) in [(2usize, 20usize, 37usize), (4, 130, 70)] {
        let value = |a: usize, b: usize, c: usize| ((7 * a + 3 * b + c) % 100) as i64;
        let mut src = Vec::new();
        for a in 0..a_n {
            for b in 0..b_n {
                for c in 0..c_n {
                    src.push(value(a, b, c));
                }
            }
        }
        let mut expected = Vec::new();
        for a in 0..a_n {
            for x in 0..c_n {
                for y in 0..b_n {
                    expected.push(value(a, b_n - 1 - y, c_n - 1 - x));
                }
            }
        }
        for dtype in [DType::U8, DType::F16, DType::I32, DType::F64] {
            let t = tensor(TensorData::new(src.clone(), [a_n, b_n, c_n]).convert_dtype(dtype));
            let t = by_kind!(t, float_permute, int_permute, bool_permute, &[0, 2, 1]);
            let t = by_kind!(t, float_flip, int_flip, bool_flip, &[1, 2]);
            let flat = by_kind!(
                t,
                float_reshape,
                int_reshape,
                bool_reshape,
                Shape::new([a_n * b_n * c_n])
            );
            let n = a_n * b_n * c_n;
            read(flat).assert_eq(
                &TensorData::new(expected.clone(), [n]).convert_dtype(dtype),
                true,
            );
        }
    }
}
