#![cfg(feature = "flex")]
//! End-to-end tests of the kind-generic tensor API (`tensor/api/base.rs`),
//! the bool API, slicing (`s!`) and `Display`, on the Flex device.

use burn_tensor::{Bool, DType, Device, Int, Shape, Slice, Tensor, TensorData, s};

#[path = "api_base/properties.rs"]
mod properties;
#[path = "api_base/sizes.rs"]
mod sizes;

fn dev() -> Device {
    Device::flex()
}

fn floats<const D: usize>(t: Tensor<D>) -> Vec<f32> {
    t.into_data().to_vec::<f32>().unwrap()
}

fn ints<const D: usize>(t: Tensor<D, Int>) -> Vec<i64> {
    t.into_data().to_vec::<i64>().unwrap()
}

fn bools<const D: usize>(t: Tensor<D, Bool>) -> Vec<bool> {
    t.into_data().to_vec::<bool>().unwrap()
}

/// `[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]`.
fn grid() -> Tensor<2, Int> {
    Tensor::<1, Int>::arange(0..12, &dev()).reshape([3, 4])
}

// ------------------------------------------------------------------ creation

#[test]
fn creation_default_dtypes() {
    let device = dev();
    let z = Tensor::<2>::zeros([2, 3], &device);
    assert_eq!(z.dims(), [2, 3]);
    assert_eq!(z.dtype(), device.settings().float_dtype);
    assert_eq!(floats(z), vec![0.0; 6]);

    let o = Tensor::<1, Int>::ones([3], &device);
    assert_eq!(o.dtype(), device.settings().int_dtype);
    assert_eq!(ints(o), vec![1, 1, 1]);

    let b = Tensor::<2, Bool>::ones([1, 2], &device);
    assert_eq!(b.dtype(), DType::Bool(burn_tensor::BoolStore::Native));
    assert_eq!(bools(b), vec![true, true]);
    assert_eq!(
        bools(Tensor::<1, Bool>::zeros([2], &device)),
        vec![false, false]
    );

    let e = Tensor::<3>::empty([2, 1, 4], &device);
    assert_eq!(e.shape(), Shape::new([2, 1, 4]));
    assert_eq!(e.rank(), 3);
    assert_eq!(e.num_elements(), 8);
}

#[test]
fn creation_explicit_dtype() {
    let device = dev();
    let f = Tensor::<1>::full([3], 2.5, (&device, DType::F64));
    assert_eq!(f.dtype(), DType::F64);
    assert_eq!(f.into_data().to_vec::<f64>().unwrap(), vec![2.5; 3]);

    let i = Tensor::<2, Int>::full([2, 2], 7, (&device, DType::I32));
    assert_eq!(i.dtype(), DType::I32);
    assert_eq!(i.into_data().to_vec::<i32>().unwrap(), vec![7; 4]);

    let b = Tensor::<1, Bool>::full([2], true, &device);
    assert_eq!(bools(b), vec![true, true]);

    let d = Tensor::<1>::from_data([1.0, 2.0], (&device, DType::F64));
    assert_eq!(d.dtype(), DType::F64);
}

#[test]
#[should_panic(expected = "zeros: dtype i32 is not a float dtype")]
fn creation_rejects_dtype_of_other_kind() {
    let _ = Tensor::<1>::zeros([2], (&dev(), DType::I32));
}

#[test]
fn creation_like() {
    let x = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], (&dev(), DType::F64));
    let z = x.zeros_like();
    assert_eq!(z.dtype(), DType::F64);
    assert_eq!(z.into_data().to_vec::<f64>().unwrap(), vec![0.0; 4]);
    assert_eq!(
        x.ones_like().into_data().to_vec::<f64>().unwrap(),
        vec![1.0; 4]
    );
    let f = x.full_like(-3);
    assert_eq!(f.dims(), [2, 2]);
    assert_eq!(f.into_data().to_vec::<f64>().unwrap(), vec![-3.0; 4]);
}

#[test]
fn data_conversions() {
    let x = Tensor::<1>::from_data([1.5, -2.0], &dev());
    assert_eq!(x.clone().try_into_vec_as::<i64>().unwrap(), vec![1, -2]);
    assert_eq!(x.clone().try_into_vec_as::<f64>().unwrap(), vec![1.5, -2.0]);
    assert_eq!(x.to_data().shape, Shape::new([2]));

    let s = Tensor::<2, Int>::from_data([[42]], &dev());
    assert_eq!(s.clone().into_scalar::<i64>(), 42);
    assert_eq!(s.into_scalar::<f32>(), 42.0);
    let b = Tensor::<1, Bool>::from_data([true], &dev());
    assert!(b.into_scalar::<bool>());
}

#[test]
#[should_panic(expected = "into_scalar: expected a tensor of exactly one element, got shape [2]")]
fn into_scalar_needs_one_element() {
    let _ = Tensor::<1>::from_data([1.0, 2.0], &dev()).into_scalar::<f32>();
}

#[test]
fn cast_within_kind() {
    let x = Tensor::<1>::from_data([1.25, 2.5], &dev());
    let y = x.cast(DType::F64);
    assert_eq!(y.dtype(), DType::F64);
    assert_eq!(y.into_data().to_vec::<f64>().unwrap(), vec![1.25, 2.5]);

    let i = Tensor::<1, Int>::from_data([1, -2], &dev()).cast(DType::I32);
    assert_eq!(i.into_data().to_vec::<i32>().unwrap(), vec![1, -2]);

    let b = Tensor::<1, Bool>::from_data([true], &dev());
    assert_eq!(b.clone().cast(DType::F32).dtype(), b.dtype());
}

#[test]
#[should_panic(expected = "cast: expected a float dtype, got i64")]
fn cast_float_to_int_dtype_panics() {
    let _ = Tensor::<1>::from_data([1.0], &dev()).cast(DType::I64);
}

// ------------------------------------------------------------------- shapes

#[test]
fn reshape_infers_and_keeps() {
    let x = Tensor::<1, Int>::arange(0..24, &dev());
    let y = x.reshape([2, -1, 4]);
    assert_eq!(y.dims(), [2, 3, 4]);
    let z = y.clone().reshape([0, 0, 2, 2]);
    assert_eq!(z.dims(), [2, 3, 2, 2]);
    let w: Tensor<2, Int> = y.reshape(Shape::new([6, 4]));
    assert_eq!(w.dims(), [6, 4]);
    let v = w.reshape([-1i64]);
    assert_eq!(ints(v), (0..24).collect::<Vec<_>>());
}

#[test]
#[should_panic(expected = "reshape: cannot reshape [3, 4] (12 elements) into [5, 2] (10 elements)")]
fn reshape_wrong_count_panics() {
    let _ = grid().reshape([5usize, 2]);
}

#[test]
#[should_panic(expected = "reshape: only one dim can be -1")]
fn reshape_two_inferred_panics() {
    let _ = grid().reshape([-1, -1]);
}

#[test]
fn permute_and_transpose() {
    // [2, 3] -> transpose -> [3, 2]
    let x = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &dev());
    let t = x.clone().transpose();
    assert_eq!(t.dims(), [3, 2]);
    assert_eq!(floats(t), vec![1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);

    let y = Tensor::<1, Int>::arange(0..6, &dev()).reshape([1, 2, 3]);
    let p = y.clone().permute([2, 0, 1]);
    assert_eq!(p.dims(), [3, 1, 2]);
    assert_eq!(ints(p), vec![0, 3, 1, 4, 2, 5]);
    // Negative axes count from the end.
    let q = y.clone().permute([-1, 0, -2]);
    assert_eq!(q.dims(), [3, 1, 2]);
    let s = y.swap_dims(0, -1);
    assert_eq!(s.dims(), [3, 2, 1]);
    assert_eq!(ints(s), vec![0, 3, 1, 4, 2, 5]);
}

#[test]
#[should_panic(expected = "permute: [0, 0] is not a permutation")]
fn permute_repeated_axis_panics() {
    let _ = grid().permute([0, 0]);
}

#[test]
fn flip_axes() {
    let g = grid();
    assert_eq!(
        ints(g.clone().flip([0])),
        vec![8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3]
    );
    assert_eq!(
        ints(g.clone().flip([-1])),
        vec![3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8]
    );
    assert_eq!(ints(g.flip([0, 1])), (0..12).rev().collect::<Vec<_>>());
}

#[test]
fn expand_broadcasts() {
    let x = Tensor::<2>::from_data([[1.0], [2.0]], &dev());
    let y = x.clone().expand([2, 3]);
    assert_eq!(floats(y), vec![1.0, 1.0, 1.0, 2.0, 2.0, 2.0]);
    let z = x.clone().expand([2, -1, 2]);
    assert_eq!(z.dims(), [2, 2, 2]);
    assert_eq!(floats(z), vec![1.0, 1.0, 2.0, 2.0, 1.0, 1.0, 2.0, 2.0]);
    let w: Tensor<2> = x.expand(Shape::new([2, 4]));
    assert_eq!(w.dims(), [2, 4]);
}

#[test]
#[should_panic(expected = "expand: cannot expand shape [2, 1] to [3, 1]")]
fn expand_non_unit_dim_panics() {
    let _ = Tensor::<2>::zeros([2, 1], &dev()).expand([3usize, 1]);
}

#[test]
fn unsqueeze_and_squeeze() {
    let x = Tensor::<2>::zeros([2, 3], &dev());
    assert_eq!(x.clone().unsqueeze::<4>().dims(), [1, 1, 2, 3]);
    assert_eq!(x.clone().unsqueeze_dim::<3>(1).dims(), [2, 1, 3]);
    assert_eq!(x.clone().unsqueeze_dim::<3>(2).dims(), [2, 3, 1]);
    assert_eq!(x.clone().unsqueeze_dims::<4>(&[0, -1]).dims(), [1, 2, 3, 1]);
    assert_eq!(x.unsqueeze_dims::<5>(&[1, 3, 4]).dims(), [2, 1, 3, 1, 1]);

    let y = Tensor::<4>::zeros([1, 2, 1, 3], &dev());
    assert_eq!(y.clone().squeeze_dim::<3>(2).dims(), [1, 2, 3]);
    assert_eq!(y.squeeze::<2>().dims(), [2, 3]);
    assert_eq!(
        Tensor::<2>::zeros([1, 1], &dev()).squeeze::<1>().dims(),
        [1]
    );
}

#[test]
#[should_panic(expected = "squeeze_dim: dim 1 of shape [1, 2, 3] has size 2, not 1")]
fn squeeze_dim_non_unit_panics() {
    let _ = Tensor::<3>::zeros([1, 2, 3], &dev()).squeeze_dim::<2>(1);
}

#[test]
#[should_panic(
    expected = "squeeze: removing the size-1 dims of shape [1, 2, 3] leaves rank 2, not 1"
)]
fn squeeze_rank_mismatch_panics() {
    let _ = Tensor::<3>::zeros([1, 2, 3], &dev()).squeeze::<1>();
}

#[test]
#[should_panic(expected = "unsqueeze_dim: the output rank must be 3 for shape [2, 3], got 4")]
fn unsqueeze_dim_rank_mismatch_panics() {
    let _ = Tensor::<2>::zeros([2, 3], &dev()).unsqueeze_dim::<4>(0);
}

#[test]
fn flatten_dims() {
    let x = Tensor::<1, Int>::arange(0..24, &dev()).reshape([2, 3, 4]);
    assert_eq!(x.clone().flatten::<2>(0, 1).dims(), [6, 4]);
    assert_eq!(x.clone().flatten::<2>(1, 2).dims(), [2, 12]);
    let flat = x.flatten::<1>(0, 2);
    assert_eq!(ints(flat), (0..24).collect::<Vec<_>>());
}

#[test]
#[should_panic(expected = "flatten: dim 3 is out of range for a tensor of shape [2, 3, 4]")]
fn flatten_dim_out_of_range_panics() {
    let _ = Tensor::<3>::zeros([2, 3, 4], &dev()).flatten::<1>(0, 3);
}

// ------------------------------------------------------------------ slicing

#[test]
fn slice_with_ranges_and_vec() {
    let g = grid();
    assert_eq!(ints(g.clone().slice([0..2, 1..3])), vec![1, 2, 5, 6]);
    // Fewer ranges than dims: trailing dims whole.
    assert_eq!(ints(g.clone().slice(2..3)), vec![8, 9, 10, 11]);
    let v = vec![Slice::index(1), Slice::new(0, None, 2)];
    let y = g.slice(v);
    assert_eq!(y.dims(), [1, 2]);
    assert_eq!(ints(y), vec![4, 6]);
}

#[test]
fn slice_macro_steps_and_negatives() {
    let g = grid();
    // Index keeps the dim with size 1.
    let row = g.clone().slice(s![1, ..]);
    assert_eq!(row.dims(), [1, 4]);
    assert_eq!(ints(row), vec![4, 5, 6, 7]);
    // Steps.
    assert_eq!(
        ints(g.clone().slice(s![.., 1..;2])),
        vec![1, 3, 5, 7, 9, 11]
    );
    // Negative bounds: last row, all but the last column.
    assert_eq!(ints(g.clone().slice(s![-1, ..-1])), vec![8, 9, 10]);
    // Negative step reverses: rows reversed, columns 0 and 2 of each.
    assert_eq!(
        ints(g.clone().slice(s![..;-1, 0..3;2])),
        vec![8, 10, 4, 6, 0, 2]
    );
    // `..-1;-1` drops the last column and walks the rest backwards.
    assert_eq!(
        ints(g.clone().slice(s![0..2, ..-1;-1])),
        vec![2, 1, 0, 6, 5, 4]
    );
    // Inclusive ranges.
    assert_eq!(ints(g.slice(s![0..=1, ..=1])), vec![0, 1, 4, 5]);
}

#[test]
#[should_panic(expected = "slice: 3 slices given for a tensor of shape [3, 4] (rank 2)")]
fn slice_too_many_ranges_panics() {
    let _ = grid().slice(s![0, 0, 0]);
}

#[test]
#[should_panic(expected = "slice: dim 1 of shape [3, 4]")]
fn slice_out_of_range_panics() {
    let _ = grid().slice([0..1, 0..5]);
}

#[test]
fn slice_assign_and_fill() {
    let x = Tensor::<2>::zeros([2, 3], &dev());
    let v = Tensor::<2>::from_data([[1.0, 2.0]], &dev());
    let y = x.clone().slice_assign(s![1, 1..], v);
    assert_eq!(floats(y), vec![0.0, 0.0, 0.0, 0.0, 1.0, 2.0]);

    let z = x.slice_fill(s![.., -1], 5.0);
    assert_eq!(floats(z), vec![0.0, 0.0, 5.0, 0.0, 0.0, 5.0]);

    let b = Tensor::<1, Bool>::zeros([4], &dev()).slice_fill(1..3, true);
    assert_eq!(bools(b), vec![false, true, true, false]);
}

#[test]
#[should_panic(
    expected = "slice_assign: values of shape [1, 3] do not match the selected region of shape [1, 2]"
)]
fn slice_assign_shape_mismatch_panics() {
    let x = Tensor::<2>::zeros([2, 3], &dev());
    let _ = x.slice_assign(s![0, 1..], Tensor::<2>::ones([1, 3], &dev()));
}

#[test]
fn narrow_chunk_split() {
    let g = grid();
    assert_eq!(ints(g.clone().narrow(1, 1, 2)), vec![1, 2, 5, 6, 9, 10]);

    let x = Tensor::<1, Int>::arange(0..5, &dev());
    let chunks = x.clone().chunk(3, 0);
    let chunks: Vec<Vec<i64>> = chunks.into_iter().map(ints).collect();
    assert_eq!(chunks, vec![vec![0, 1], vec![2, 3], vec![4]]);

    let parts: Vec<Vec<i64>> = x.clone().split(2, 0).into_iter().map(ints).collect();
    assert_eq!(parts, vec![vec![0, 1], vec![2, 3], vec![4]]);

    let sized: Vec<Vec<i64>> = x
        .split_with_sizes(vec![1, 4], 0)
        .into_iter()
        .map(ints)
        .collect();
    assert_eq!(sized, vec![vec![0], vec![1, 2, 3, 4]]);

    let cols = g.chunk(2, 1);
    assert_eq!(cols.len(), 2);
    assert_eq!(cols[0].dims(), [3, 2]);
}

#[test]
#[should_panic(expected = "narrow: start 2 + length 3 exceeds the size 4 of dim 1")]
fn narrow_out_of_range_panics() {
    let _ = grid().narrow(1, 2, 3);
}

#[test]
fn cat_and_stack() {
    let a = Tensor::<2>::from_data([[1.0, 2.0]], &dev());
    let b = Tensor::<2>::from_data([[3.0, 4.0], [5.0, 6.0]], &dev());
    let c = Tensor::cat(vec![a.clone(), b], 0);
    assert_eq!(c.dims(), [3, 2]);
    assert_eq!(floats(c), vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);

    let d = Tensor::cat(vec![a.clone(), a.clone()], 1);
    assert_eq!(floats(d), vec![1.0, 2.0, 1.0, 2.0]);

    let s0 = Tensor::stack::<3>(vec![a.clone(), a.clone().ones_like()], 0);
    assert_eq!(s0.dims(), [2, 1, 2]);
    assert_eq!(floats(s0), vec![1.0, 2.0, 1.0, 1.0]);
    let s2 = Tensor::stack::<3>(vec![a.clone(), a.ones_like()], 2);
    assert_eq!(s2.dims(), [1, 2, 2]);
    assert_eq!(floats(s2), vec![1.0, 1.0, 2.0, 1.0]);

    let bools_cat = Tensor::cat(
        vec![
            Tensor::<1, Bool>::ones([1], &dev()),
            Tensor::<1, Bool>::zeros([2], &dev()),
        ],
        0,
    );
    assert_eq!(bools(bools_cat), vec![true, false, false]);
}

#[test]
#[should_panic(expected = "cat: shapes [1, 2] and [1, 3] differ outside dim 0")]
fn cat_incompatible_shapes_panics() {
    let _ = Tensor::cat(
        vec![
            Tensor::<2>::zeros([1, 2], &dev()),
            Tensor::<2>::zeros([1, 3], &dev()),
        ],
        0,
    );
}

#[test]
#[should_panic(expected = "cat: dim 2 is out of range for a tensor of shape [1, 2] (rank 2)")]
fn cat_dim_out_of_range_panics() {
    let _ = Tensor::cat(vec![Tensor::<2>::zeros([1, 2], &dev())], 2);
}

#[test]
#[should_panic(expected = "stack: all tensors must have the same shape, got [2] and [3]")]
fn stack_different_shapes_panics() {
    let _ = Tensor::stack::<2>(
        vec![
            Tensor::<1>::zeros([2], &dev()),
            Tensor::<1>::zeros([3], &dev()),
        ],
        0,
    );
}

#[test]
fn repeat_ops() {
    let x = Tensor::<2, Int>::from_data([[1, 2]], &dev());
    let r = x.clone().repeat_dim(0, 2);
    assert_eq!(r.dims(), [2, 2]);
    assert_eq!(ints(r), vec![1, 2, 1, 2]);
    let r2 = x.repeat(&[2, 2]);
    assert_eq!(r2.dims(), [2, 4]);
    assert_eq!(ints(r2), vec![1, 2, 1, 2, 1, 2, 1, 2]);
}

// ----------------------------------------------------------------- indexing

#[test]
fn select_and_gather() {
    let g = grid();
    let idx = Tensor::<1, Int>::from_data([2, 0, 2], &dev());
    let rows = g.clone().select(0, idx.clone());
    assert_eq!(rows.dims(), [3, 4]);
    assert_eq!(ints(rows), vec![8, 9, 10, 11, 0, 1, 2, 3, 8, 9, 10, 11]);
    let cols = g.clone().select(1, idx);
    assert_eq!(ints(cols), vec![2, 0, 2, 6, 4, 6, 10, 8, 10]);

    let x = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &dev());
    let gi = Tensor::<2, Int>::from_data([[1, 0], [0, 0]], &dev());
    assert_eq!(floats(x.gather(1, gi)), vec![2.0, 1.0, 3.0, 3.0]);

    let b = Tensor::<1, Bool>::from_data([true, false], &dev());
    let bi = Tensor::<1, Int>::from_data([1, 1, 0], &dev());
    assert_eq!(bools(b.select(0, bi)), vec![false, false, true]);
}

#[test]
#[should_panic(expected = "select: dim 2 is out of range for a tensor of shape [3, 4] (rank 2)")]
fn select_dim_out_of_range_panics() {
    let _ = grid().select(2, Tensor::<1, Int>::from_data([0], &dev()));
}

#[test]
fn mask_ops() {
    let x = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &dev());
    let mask = Tensor::<2, Bool>::from_data([[true, false], [false, true]], &dev());
    let v = Tensor::<2>::from_data([[9.0, 8.0], [7.0, 6.0]], &dev());
    assert_eq!(
        floats(x.clone().mask_where(mask.clone(), v)),
        vec![9.0, 2.0, 3.0, 6.0]
    );
    assert_eq!(
        floats(x.clone().mask_fill(mask.clone(), -1.0)),
        vec![-1.0, 2.0, 3.0, -1.0]
    );
    // A row mask broadcasts over the rows.
    let row = Tensor::<2, Bool>::from_data([[false, true]], &dev());
    assert_eq!(floats(x.mask_fill(row, 0)), vec![1.0, 0.0, 3.0, 0.0]);

    let i = Tensor::<2, Int>::from_data([[1, 2], [3, 4]], &dev());
    assert_eq!(ints(i.mask_fill(mask.clone(), 0)), vec![0, 2, 3, 0]);

    let b = Tensor::<2, Bool>::from_data([[false, false], [true, true]], &dev());
    assert_eq!(
        bools(b.clone().mask_fill(mask.clone(), true)),
        vec![true, false, true, true]
    );
    assert_eq!(
        bools(b.mask_where(mask.clone(), mask.bool_not())),
        vec![false, false, true, false]
    );
}

#[test]
#[should_panic(
    expected = "mask_fill: mask of shape [2, 3] cannot be broadcast to the tensor's shape [1, 3]"
)]
fn mask_fill_larger_mask_panics() {
    let _ =
        Tensor::<2>::zeros([1, 3], &dev()).mask_fill(Tensor::<2, Bool>::ones([2, 3], &dev()), 1.0);
}

#[test]
fn equality_all_kinds() {
    let a = Tensor::<1>::from_data([1.0, 2.0, 3.0], &dev());
    let b = Tensor::<1>::from_data([1.0, 0.0, 3.0], &dev());
    assert_eq!(bools(a.clone().equal(b.clone())), vec![true, false, true]);
    assert_eq!(bools(a.clone().not_equal(b)), vec![false, true, false]);
    assert_eq!(bools(a.clone().equal_elem(2.0)), vec![false, true, false]);
    assert_eq!(bools(a.not_equal_elem(2)), vec![true, false, true]);

    let i = Tensor::<1, Int>::from_data([1, 2], &dev());
    assert_eq!(
        bools(i.clone().equal(i.clone().flip([0]))),
        vec![false, false]
    );
    assert_eq!(bools(i.equal_elem(2)), vec![false, true]);

    let p = Tensor::<1, Bool>::from_data([true, false], &dev());
    let q = Tensor::<1, Bool>::from_data([true, true], &dev());
    assert_eq!(bools(p.clone().equal(q.clone())), vec![true, false]);
    assert_eq!(bools(p.clone().not_equal(q)), vec![false, true]);
    assert_eq!(bools(p.clone().equal_elem(false)), vec![false, true]);
    assert_eq!(bools(p.clone().equal_elem(true)), vec![true, false]);
    assert_eq!(bools(p.not_equal_elem(true)), vec![false, true]);
}

#[test]
#[should_panic(expected = "equal: shapes [2] and [3] cannot be broadcast together")]
fn equal_incompatible_shapes_panics() {
    let _ = Tensor::<1>::zeros([2], &dev()).equal(Tensor::<1>::zeros([3], &dev()));
}

// --------------------------------------------------------------------- bool

#[test]
fn bool_logic() {
    let a = Tensor::<1, Bool>::from_data([true, true, false, false], &dev());
    let b = Tensor::<1, Bool>::from_data([true, false, true, false], &dev());
    assert_eq!(
        bools(a.clone().bool_and(b.clone())),
        vec![true, false, false, false]
    );
    assert_eq!(
        bools(a.clone().bool_or(b.clone())),
        vec![true, true, true, false]
    );
    assert_eq!(bools(a.clone().bool_xor(b)), vec![false, true, true, false]);
    assert_eq!(bools(a.clone().bool_not()), vec![false, false, true, true]);
    assert_eq!(ints(a.clone().int()), vec![1, 1, 0, 0]);
    assert_eq!(floats(a.clone().float()), vec![1.0, 1.0, 0.0, 0.0]);
    assert_eq!(a.clone().int().dtype(), dev().settings().int_dtype);
    assert_eq!(a.float().dtype(), dev().settings().float_dtype);
}

#[test]
fn bool_reductions() {
    let m = Tensor::<2, Bool>::from_data([[true, false], [true, true]], &dev());
    assert_eq!(bools(m.clone().any()), vec![true]);
    assert_eq!(bools(m.clone().all()), vec![false]);
    let any0 = m.clone().any_dim(1);
    assert_eq!(any0.dims(), [2, 1]);
    assert_eq!(bools(any0), vec![true, true]);
    assert_eq!(bools(m.clone().all_dim(1)), vec![false, true]);
    assert_eq!(bools(m.all_dim(0)), vec![true, false]);
    assert_eq!(
        bools(Tensor::<1, Bool>::zeros([3], &dev()).any()),
        vec![false]
    );
}

#[test]
fn bool_argwhere_nonzero() {
    let m = Tensor::<2, Bool>::from_data([[false, true, false], [true, false, true]], &dev());
    let coords = m.clone().argwhere();
    assert_eq!(coords.dims(), [3, 2]);
    assert_eq!(ints(coords), vec![0, 1, 1, 0, 1, 2]);
    let nz: Vec<Vec<i64>> = m.nonzero().into_iter().map(ints).collect();
    assert_eq!(nz, vec![vec![0, 1, 1], vec![1, 0, 2]]);

    let from = Tensor::<1, Bool>::from_bool(TensorData::from([0i32, 3, 0]), &dev());
    assert_eq!(bools(from), vec![false, true, false]);
}

#[test]
fn triangular_masks() {
    let device = dev();
    let tril = Tensor::<2, Bool>::tril_mask([3, 3], 0, &device);
    assert_eq!(
        bools(tril),
        vec![false, true, true, false, false, true, false, false, false]
    );
    let triu = Tensor::<2, Bool>::triu_mask([3, 3], 1, &device);
    assert_eq!(
        bools(triu),
        vec![true, false, false, true, true, false, true, true, true]
    );
    let diag = Tensor::<2, Bool>::diag_mask([2, 3], 0, &device);
    assert_eq!(bools(diag), vec![false, true, true, true, false, true]);
    let batched = Tensor::<3, Bool>::tril_mask([2, 2, 2], 0, &device);
    assert_eq!(batched.dims(), [2, 2, 2]);
    assert_eq!(
        bools(batched),
        vec![false, true, false, false, false, true, false, false]
    );
}

// ------------------------------------------------------------------ display

#[test]
fn display_small_float_tensor() {
    let x = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &dev());
    let expected = "Tensor {
  data:
[[1.0, 2.0],
 [3.0, 4.0]],
  shape:  [2, 2],
  device:  Flex(FlexDevice),
  backend:  \"{BACKEND}\",
  kind:  \"Float\",
  dtype:  \"f32\",
}";
    // The backend line names the backend the device runs: Flex, or Flex
    // behind the fusion client when the `fusion` feature is on.
    const BACKEND: &str = if cfg!(feature = "fusion") {
        "fusion<flex>"
    } else {
        "flex"
    };
    let expected = expected.replace("{BACKEND}", BACKEND);
    assert_eq!(format!("{x}"), expected);
    assert_eq!(format!("{x:?}"), expected);
}

#[test]
fn display_precision_and_kinds() {
    let x = Tensor::<1>::from_data([1.0, 2.5], &dev());
    let text = format!("{x:.2}");
    assert!(text.contains("[1.00, 2.50]"), "{text}");

    let b = Tensor::<3, Bool>::from_data([[[true], [false]]], &dev());
    let text = b.to_string();
    assert!(
        text.contains("  data:\n[[[true],\n  [false]]],\n"),
        "{text}"
    );
    assert!(text.contains("kind:  \"Bool\""), "{text}");
    assert!(text.contains("dtype:  \"bool\""), "{text}");

    let i = Tensor::<1, Int>::from_data([1, -2], (&dev(), DType::I32));
    let text = i.to_string();
    assert!(text.contains("[1, -2]"), "{text}");
    assert!(text.contains("dtype:  \"i32\""), "{text}");
}

#[test]
fn display_summarizes_large_tensors() {
    let x = Tensor::<1, Int>::arange(0..2000, &dev()).reshape([40, 50]);
    let text = x.to_string();
    let data = text.split("  shape:").next().unwrap();
    assert!(
        data.starts_with(
            "Tensor {\n  data:\n[[0, 1, 2, ..., 47, 48, 49],\n [50, 51, 52, ..., 97, 98, 99],"
        ),
        "{data}"
    );
    assert!(data.contains("\n ...,\n [1850,"), "{data}");
    assert!(
        data.ends_with("[1950, 1951, 1952, ..., 1997, 1998, 1999]],\n"),
        "{data}"
    );
}

// ------------------------------------------------------------ rank checks

#[test]
#[should_panic(expected = "from_data: expected a shape of rank 2, got [3]")]
fn from_data_rank_mismatch_panics() {
    let _ = Tensor::<2>::from_data([1.0, 2.0, 3.0], &dev());
}

#[test]
#[should_panic(expected = "reshape: expected a shape of rank 3, got [2, 2]")]
fn reshape_rank_mismatch_panics() {
    let _: Tensor<3> = Tensor::<1>::zeros([4], &dev()).reshape(Shape::new([2, 2]));
}

#[test]
#[should_panic(expected = "swap_dims: dim 2 is out of range for a tensor of rank 2")]
fn swap_dims_out_of_range_panics() {
    let _ = grid().swap_dims(0, 2);
}

#[test]
fn argwhere_of_all_false_is_empty() {
    let m = Tensor::<2, Bool>::zeros([2, 2], &dev());
    assert_eq!(m.clone().argwhere().dims(), [0, 2]);
    let nz = m.nonzero();
    assert_eq!(nz.len(), 2);
    assert!(nz.into_iter().all(|t| t.dims() == [0]));
}
