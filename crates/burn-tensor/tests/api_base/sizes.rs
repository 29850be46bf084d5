//! Hostile sizes (issue 26): every size computed from a shape is checked,
//! and a refused allocation is an error naming the op, never a wrapped
//! count, a wrong shape or a process abort.

use std::panic::{AssertUnwindSafe, catch_unwind};

use burn_tensor::Shape;
use burn_tensor::{
    DType, Device, Int, SizeError, Tensor, TensorData, TensorError, TensorErrorCause, TensorKind,
};

fn dev() -> Device {
    Device::flex()
}

/// The message of the panic `f` raises (it must raise one).
fn panic_message(f: impl FnOnce()) -> String {
    let payload = catch_unwind(AssertUnwindSafe(f)).expect_err("the call must panic");
    match payload.downcast::<String>() {
        Ok(s) => *s,
        Err(payload) => payload
            .downcast::<&str>()
            .map(|s| s.to_string())
            .expect("a string payload"),
    }
}

/// The error of an op whose output buffer the backend refuses.
///
/// Eager Flex allocates inside the op, so the op itself returns the error.
/// Fusion only queues the op (the allocation happens when the queue runs),
/// so the op succeeds and the first read of its output fails; that read
/// names itself (`into_data`) and the output's shape, and its message
/// carries the backend's words. The overflow checks, which need no backend,
/// are eager on both (see the tests that use no helper).
fn refused<const D: usize, K: TensorKind>(
    result: Result<Tensor<D, K>, TensorError>,
) -> TensorError {
    #[cfg(not(feature = "fusion"))]
    return result.expect_err("the backend refuses the allocation");
    #[cfg(feature = "fusion")]
    return result
        .expect("fusion queues the op")
        .try_into_data()
        .expect_err("the read runs the op, which the backend refuses");
}

/// The op a refused allocation is reported by (see [`refused`]).
fn refusing_op(op: &'static str) -> &'static str {
    if cfg!(feature = "fusion") {
        "into_data"
    } else {
        op
    }
}

/// Checks a refusal by `op` (of operands `inputs`) of `bytes` for its
/// output `shape` of `dtype`. The error lists the shapes of the call that
/// reports it: the op's operands, or under Fusion the tensor read.
fn assert_refused(
    err: &TensorError,
    op: &'static str,
    inputs: &[[usize; 2]],
    bytes: usize,
    shape: [usize; 2],
    dtype: DType,
) {
    assert_eq!(err.op, refusing_op(op), "{err}");
    let shapes: Vec<Shape> = if cfg!(feature = "fusion") {
        vec![shape.into()]
    } else {
        inputs.iter().map(|&dims| dims.into()).collect()
    };
    assert_eq!(err.shapes, shapes, "{err}");
    assert_eq!(err.dtype, Some(dtype), "{err}");
    let words = format!(
        "cannot allocate {bytes} bytes for shape [{}, {}] ({dtype})",
        shape[0], shape[1]
    );
    let msg = err.to_string();
    assert!(msg.starts_with(&format!("{}: ", err.op)), "{msg}");
    assert!(msg.ends_with(&words), "{msg}");
}

#[test]
fn zeros_whose_byte_count_overflows_is_an_error_not_a_zero_byte_tensor() {
    // 2^62 elements fit, 2^64 bytes of f32 do not: this used to wrap to 0.
    let err = Tensor::<2>::try_zeros([1 << 31, 1 << 31], &dev()).unwrap_err();
    assert_eq!(err.op, "zeros");
    assert_eq!(err.shapes, vec![[1usize << 31, 1 << 31].into()]);
    assert_eq!(err.dtype, Some(DType::F32));
    assert_eq!(err.device, Some(dev()));
    assert!(matches!(
        *err.cause,
        TensorErrorCause::Size(SizeError::BytesOverflow {
            dtype: DType::F32,
            ..
        })
    ));
    let msg = panic_message(|| {
        Tensor::<2>::zeros([1 << 31, 1 << 31], &dev());
    });
    assert_eq!(msg, err.to_string());
    assert!(
        msg.starts_with("zeros: shape [2147483648, 2147483648] (f32)"),
        "{msg}"
    );
}

#[test]
fn zeros_too_large_to_allocate_is_an_error_not_an_abort() {
    // 4 TiB of f32: the allocator refuses (this used to abort the process).
    let err = refused(Tensor::<2>::try_zeros([1 << 20, 1 << 20], &dev()));
    assert_refused(
        &err,
        "zeros",
        &[[1 << 20, 1 << 20]],
        1 << 42,
        [1 << 20, 1 << 20],
        DType::F32,
    );
    #[cfg(not(feature = "fusion"))]
    assert_eq!(
        err.to_string(),
        "zeros: cannot allocate 4398046511104 bytes for shape [1048576, 1048576] (f32)"
    );
    // The panicking forms fail with the same words, at the op or the read.
    // (A fusion read names the tensor it reads by its id, which differs.)
    let msg = panic_message(|| {
        Tensor::<2>::zeros([1 << 20, 1 << 20], &dev()).into_data();
    });
    #[cfg(not(feature = "fusion"))]
    assert_eq!(msg, err.to_string());
    assert!(msg.starts_with(&format!("{}: ", err.op)), "{msg}");
    let cause = |m: &str| m.rsplit_once(": cannot").map(|(_, tail)| tail.to_string());
    assert_eq!(cause(&msg), cause(&err.to_string()), "{msg}");
    // The device is still usable afterwards.
    let x = Tensor::<1>::ones([3], &dev());
    assert_eq!(x.into_data().to_vec::<f32>().unwrap(), vec![1.0; 3]);
}

#[test]
fn ones_and_full_report_the_same_way() {
    let err = refused(Tensor::<2, Int>::try_ones(
        [1 << 20, 1 << 20],
        (&dev(), DType::I64),
    ));
    assert_refused(
        &err,
        "ones",
        &[[1 << 20, 1 << 20]],
        1 << 43,
        [1 << 20, 1 << 20],
        DType::I64,
    );
    let err = refused(Tensor::<2>::try_full([1 << 20, 1 << 20], 2.0, &dev()));
    assert_refused(
        &err,
        "full",
        &[[1 << 20, 1 << 20]],
        1 << 42,
        [1 << 20, 1 << 20],
        DType::F32,
    );
    let err = Tensor::<3>::try_full([1 << 30, 1 << 30, 1 << 30], 2.0, &dev()).unwrap_err();
    assert_eq!(err.op, "full");
    assert!(matches!(
        *err.cause,
        TensorErrorCause::Size(SizeError::ElementsOverflow { .. })
    ));
    // Rank and dtype-kind errors are `Err` too.
    let err = Tensor::<2>::try_zeros([2], &dev()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "zeros: expected a shape of rank 2, got [2]"
    );
    let err = Tensor::<1>::try_zeros([2], (&dev(), DType::I32)).unwrap_err();
    assert_eq!(err.to_string(), "zeros: dtype i32 is not a float dtype");
}

#[test]
fn zero_sized_dims_make_empty_tensors_whatever_the_other_dims() {
    let x = Tensor::<3>::try_zeros([0, 1 << 40, 1 << 40], &dev()).unwrap();
    assert_eq!(x.dims(), [0, 1 << 40, 1 << 40]);
    let data = x.into_data();
    assert_eq!(data.bytes.len(), 0);
}

#[test]
fn reshape_to_an_overflowing_shape_names_the_shape_not_a_wrapped_count() {
    let x = Tensor::<1>::zeros([4], &dev());
    let err = x.clone().try_reshape([1usize << 40, 1 << 40]).unwrap_err();
    assert_eq!(err.op, "reshape");
    assert!(matches!(
        *err.cause,
        TensorErrorCause::Size(SizeError::ElementsOverflow { .. })
    ));
    let msg = err.to_string();
    assert!(!msg.contains("(0 elements)"), "{msg}");
    assert!(msg.contains("[1099511627776, 1099511627776]"), "{msg}");
    let panicked = panic_message(|| {
        x.reshape([1usize << 40, 1 << 40]);
    });
    assert_eq!(panicked, msg);
    // An inferred dim next to overflowing known dims.
    let err = Tensor::<1>::zeros([4], &dev())
        .try_reshape([1i64 << 40, 1 << 40, -1])
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("reshape: cannot infer the -1 dim"),
        "{err}"
    );
    // A plain mismatch keeps its words.
    let err = Tensor::<1>::zeros([4], &dev())
        .try_reshape([3, 2])
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "reshape: cannot reshape [4] (4 elements) into [3, 2] (6 elements)"
    );
}

#[test]
fn expand_past_the_address_space_panics_naming_the_op() {
    let x = Tensor::<2>::zeros([1, 1], &dev());
    let msg = panic_message(|| {
        x.expand([1usize << 40, 1 << 40]).sum();
    });
    assert!(
        msg.starts_with("expand: shape [1099511627776, 1099511627776] has more elements"),
        "{msg}"
    );
}

#[test]
fn broadcasting_views_into_an_overflowing_result_panics_naming_the_op() {
    let a = Tensor::<2>::zeros([1, 1], &dev()).expand([1usize << 40, 1]);
    let b = Tensor::<2>::zeros([1, 1], &dev()).expand([1usize, 1 << 40]);
    let msg = panic_message(|| {
        let _ = a + b;
    });
    assert!(msg.contains("has more elements than fit in isize"), "{msg}");
}

#[test]
fn matmul_of_views_with_an_unaddressable_output_is_an_error() {
    let a = Tensor::<2>::zeros([1, 1], &dev()).expand([1usize << 40, 1]);
    let b = Tensor::<2>::zeros([1, 1], &dev()).expand([1usize, 1 << 40]);
    let err = a.try_matmul(b).unwrap_err();
    assert_eq!(err.op, "matmul");
    assert_eq!(err.shapes.len(), 2);
    assert!(matches!(
        *err.cause,
        TensorErrorCause::Size(SizeError::ElementsOverflow { .. })
    ));
    // Inner dims that differ are an Err too, with the usual words.
    let a = Tensor::<2, Int>::zeros([2, 3], &dev());
    let err = a.clone().try_matmul(a).unwrap_err();
    assert!(
        err.to_string().starts_with("matmul: inner dims differ"),
        "{err}"
    );
}

#[test]
fn matmul_too_large_to_allocate_is_an_error() {
    let a = Tensor::<2>::zeros([1, 1], &dev()).expand([1usize << 20, 1]);
    let b = Tensor::<2>::zeros([1, 1], &dev()).expand([1usize, 1 << 20]);
    let err = refused(a.try_matmul(b));
    assert_refused(
        &err,
        "matmul",
        &[[1 << 20, 1], [1, 1 << 20]],
        1 << 42,
        [1 << 20, 1 << 20],
        DType::F32,
    );
}

#[test]
fn cat_checks_its_summed_dim_and_its_allocation() {
    let big = Tensor::<2>::zeros([1, 1], &dev()).expand([1usize << 21, 1 << 20]);
    let err = refused(Tensor::try_cat(vec![big.clone(), big], 0));
    assert_refused(
        &err,
        "cat",
        &[[1 << 21, 1 << 20], [1 << 21, 1 << 20]],
        1 << 44,
        [1 << 22, 1 << 20],
        DType::F32,
    );
    // No elements, but 2^63 + 2^63 columns would wrap to 0.
    let a = Tensor::<2>::zeros([0, 1 << 63], &dev());
    let a2 = a.clone();
    let err = Tensor::try_cat(vec![a, a2], 1).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("cat: the sizes along dim 1 add up to more than"),
        "{err}"
    );
    let err = Tensor::<2>::try_cat(vec![], 0).unwrap_err();
    assert_eq!(err.to_string(), "cat: needs at least one tensor");
    let ok = Tensor::try_cat(
        vec![Tensor::<1>::ones([2], &dev()), Tensor::zeros([1], &dev())],
        0,
    );
    assert_eq!(
        ok.unwrap().into_data().to_vec::<f32>().unwrap(),
        vec![1.0, 1.0, 0.0]
    );
}

#[test]
fn from_data_rejects_bytes_that_do_not_match_the_shape() {
    let mut data = TensorData::from([1.0f32, 2.0]);
    data.shape = [1usize << 31, 1 << 31].into();
    let err = Tensor::<2>::try_from_data(data, &dev()).unwrap_err();
    assert_eq!(err.op, "from_data");
    assert!(matches!(
        *err.cause,
        TensorErrorCause::Size(SizeError::BytesOverflow { .. })
    ));
    let mut data = TensorData::from([1.0f32, 2.0]);
    data.shape = [3].into();
    let err = Tensor::<1>::try_from_data(data, &dev()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "from_data: shape [3] needs 12 bytes but the buffer holds 8"
    );
    let msg = panic_message(|| {
        Tensor::<2>::from_data(TensorData::from([1.0f32]), &dev());
    });
    assert_eq!(msg, "from_data: expected a shape of rank 2, got [1]");
}

#[test]
fn into_data_of_an_unallocatable_copy_is_an_error() {
    // A broadcast view of 2^40 floats has no buffer of its own: reading it
    // back needs one.
    let view = Tensor::<2>::zeros([1, 1], &dev()).expand([1usize << 20, 1 << 20]);
    let err: TensorError = view.clone().try_into_data().unwrap_err();
    assert_eq!(err.op, "into_data");
    assert!(
        err.to_string()
            .contains("cannot allocate 4398046511104 bytes"),
        "{err}"
    );
    let msg = panic_message(|| {
        view.into_data();
    });
    assert!(msg.starts_with("into_data: "), "{msg}");
}

#[test]
fn to_device_and_try_forms_succeed_on_ordinary_input() {
    let x = Tensor::<2>::try_full([2, 2], 3.0, &dev()).unwrap();
    let y = x.try_to_device(&dev()).unwrap();
    let z = y.try_reshape([4]).unwrap();
    assert_eq!(
        z.try_into_data().unwrap().to_vec::<f32>().unwrap(),
        vec![3.0; 4]
    );
}

#[test]
fn a_tensor_whose_read_fails_formats_without_panicking() {
    // Reading the view needs a 4 TiB buffer, which the backend refuses.
    let view = Tensor::<2>::zeros([1, 1], &dev()).expand([1usize << 20, 1 << 20]);
    let text = format!("{view}");
    assert!(text.contains("  data:\n<"), "{text}");
    assert!(
        text.contains("cannot allocate 4398046511104 bytes"),
        "{text}"
    );
    assert!(text.contains("shape:  [1048576, 1048576],"), "{text}");
}

#[test]
fn a_tensor_in_a_panic_message_is_not_read() {
    // `unwrap_err` on an `Ok(tensor)` formats the tensor inside the panic
    // hook. Reading it there would run the backend, whose refusal (a
    // panic, even one it catches) raised in the hook aborts the process.
    let view = Tensor::<2>::zeros([1, 1], &dev()).expand([1usize << 20, 1 << 20]);
    // (`black_box`: an `Ok` the compiler does not see, as a real result.)
    let ok: Result<Tensor<2>, TensorError> = std::hint::black_box(Ok(view));
    let msg = panic_message(|| {
        ok.unwrap_err();
    });
    assert!(
        msg.contains("<not read while the thread is panicking>"),
        "{msg}"
    );
    assert!(msg.contains("shape:  [1048576, 1048576],"), "{msg}");
}
