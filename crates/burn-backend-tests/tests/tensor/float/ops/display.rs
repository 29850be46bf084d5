use crate::common::*;

fn dtype_name() -> &'static str {
    <FloatElem as Element>::DTYPE.name()
}

#[test]
fn should_display_float_tensor() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.5]], &device);

    let text = format!("{tensor}");

    let head = "Tensor {\n  data:\n[[1.0, 2.0],\n [3.0, 4.5]],\n  shape:  [2, 2],\n  device:  ";
    assert!(text.starts_with(head), "{text}");
    assert!(text.contains("  kind:  \"Float\",\n"), "{text}");
    assert!(
        text.ends_with(&format!("  dtype:  \"{}\",\n}}", dtype_name())),
        "{text}"
    );
}

#[test]
fn should_display_with_precision() {
    let device = device();
    let tensor = Tensor::<1>::from_data([1.0, 0.125, -2.0], &device);

    let text = format!("{tensor:.2}");

    assert!(text.contains("[1.00, 0.12, -2.00]"), "{text}");
}

#[test]
fn should_display_int_bool_and_rank3() {
    let device = device();
    let ints = Tensor::<3, Int>::from_data([[[1, -2]], [[3, 4]]], &device);
    let bools = Tensor::<1, Bool>::from_data([true, false], &device);

    let int_text = format!("{ints}");
    let bool_text = format!("{bools}");

    assert!(
        int_text.contains("data:\n[[[1, -2]],\n [[3, 4]]],\n"),
        "{int_text}"
    );
    assert!(int_text.contains("kind:  \"Int\""), "{int_text}");
    assert!(bool_text.contains("data:\n[true, false],\n"), "{bool_text}");
    assert!(bool_text.contains("kind:  \"Bool\""), "{bool_text}");
}

#[test]
fn should_display_transposed_tensor_in_logical_order() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &device).transpose();

    let text = format!("{tensor}");

    assert!(text.contains("[[1.0, 3.0],\n [2.0, 4.0]]"), "{text}");
}

#[test]
fn should_summarize_large_tensor() {
    let tensor = Tensor::<1, Int>::arange(0..2000, &device());

    let text = format!("{tensor}");

    assert!(
        text.contains("data:\n[0, 1, 2, ..., 1997, 1998, 1999],\n"),
        "{text}"
    );
    assert!(text.contains("shape:  [2000],"), "{text}");
}
