use burn_std::{BoolStore, Bytes, DType, DataError, Shape, TensorData, Tolerance, bf16, f16};

fn round_trip<E: burn_std::Element + PartialEq>(values: Vec<E>) {
    let data = TensorData::new(values.clone(), [2, 2]);
    assert_eq!(data.dtype, E::DTYPE);
    assert_eq!(data.bytes.len(), 4 * E::DTYPE.size());
    assert_eq!(data.to_vec::<E>().unwrap(), values);
    assert_eq!(data.iter::<E>().collect::<Vec<_>>(), values);
    let json = serde_json::to_string(&data).unwrap();
    let back: TensorData = serde_json::from_str(&json).unwrap();
    assert_eq!(back, data);
    assert_eq!(back.into_vec::<E>().unwrap(), values);
}

#[test]
fn round_trip_every_dtype() {
    round_trip(vec![1.5f64, -2.0, 0.0, 1e300]);
    round_trip(vec![1.5f32, -2.0, 0.0, 3.25]);
    round_trip([1.5f32, -2.0, 0.0, 3.25].map(f16::from_f32).to_vec());
    round_trip([1.5f32, -2.0, 0.0, 3.25].map(bf16::from_f32).to_vec());
    round_trip(vec![i64::MIN, -1, 0, i64::MAX]);
    round_trip(vec![i32::MIN, -1, 0, i32::MAX]);
    round_trip(vec![i16::MIN, -1, 0, i16::MAX]);
    round_trip(vec![i8::MIN, -1, 0, i8::MAX]);
    round_trip(vec![0u64, 1, u64::MAX - 1, u64::MAX]);
    round_trip(vec![0u32, 1, 7, u32::MAX]);
    round_trip(vec![0u16, 1, 7, u16::MAX]);
    round_trip(vec![0u8, 1, 7, u8::MAX]);
    round_trip(vec![true, false, false, true]);
}

#[test]
fn slices_require_exact_dtype() {
    let mut data = TensorData::from([1.0f32, 2.0, 3.0]);
    assert_eq!(data.as_slice::<f32>().unwrap(), &[1.0, 2.0, 3.0]);
    data.as_mut_slice::<f32>().unwrap()[1] = 5.0;
    assert_eq!(data.to_vec::<f32>().unwrap(), vec![1.0, 5.0, 3.0]);
    assert_eq!(
        data.as_slice::<f64>().unwrap_err(),
        DataError::TypeMismatch {
            expected: DType::F64,
            found: DType::F32
        }
    );
    assert!(data.to_vec::<i32>().is_err());
    // Conversion on read works whatever the dtype.
    assert_eq!(data.iter::<i32>().collect::<Vec<_>>(), vec![1, 5, 3]);
}

#[test]
fn constructors() {
    let zeros = TensorData::zeros::<bf16>([2, 3]);
    assert_eq!(zeros.shape, Shape::new([2, 3]));
    assert!(zeros.iter::<f32>().all(|v| v == 0.0));
    let full = TensorData::full([3], -2i16);
    assert_eq!(full.to_vec::<i16>().unwrap(), vec![-2, -2, -2]);
    assert_eq!(
        TensorData::zeros::<bool>([2]).to_vec::<bool>().unwrap(),
        vec![false; 2]
    );

    let nested = TensorData::from([[[1u8, 2], [3, 4]], [[5, 6], [7, 8]]]);
    assert_eq!(nested.shape, Shape::new([2, 2, 2]));
    assert_eq!(nested.rank(), 3);
    assert_eq!(nested.num_elements(), 8);
    let four = TensorData::from([[[[1i32; 2]; 3]; 4]; 5]);
    assert_eq!(four.shape, Shape::new([5, 4, 3, 2]));
    assert_eq!(TensorData::from(&[1.0f64, 2.0][..]).shape, Shape::new([2]));
    assert_eq!(TensorData::from(vec![1i64, 2, 3]).shape, Shape::new([3]));
    assert_eq!(
        TensorData::from([[1.0f32, 2.0], [3.0, 4.0]])
            .to_vec::<f32>()
            .unwrap(),
        vec![1.0, 2.0, 3.0, 4.0]
    );
}

#[test]
#[should_panic(expected = "shape [2, 2] has 4 elements but 3 values")]
fn new_panics_on_length_mismatch() {
    let _ = TensorData::new(vec![1.0f32, 2.0, 3.0], [2, 2]);
}

#[test]
fn from_bytes_checks_length() {
    let bytes = Bytes::from_elems(vec![1u32, 2, 3]);
    let data = TensorData::from_bytes(bytes.clone(), [3], DType::U32).unwrap();
    assert_eq!(data.to_vec::<u32>().unwrap(), vec![1, 2, 3]);
    let err = TensorData::from_bytes(bytes, [2, 2], DType::U32).unwrap_err();
    assert_eq!(
        err,
        DataError::LengthMismatch {
            shape: Shape::new([2, 2]),
            expected_bytes: 16,
            found_bytes: 12
        }
    );
}

#[test]
fn convert_dtype_between_kinds() {
    let data = TensorData::from([-1.7f32, 0.0, 2.5, 300.0]);
    let ints = data.convert_dtype(DType::I8);
    assert_eq!(ints.to_vec::<i8>().unwrap(), vec![-1, 0, 2, i8::MAX]);
    let unsigned = data.convert::<u8>();
    assert_eq!(unsigned.to_vec::<u8>().unwrap(), vec![0, 0, 2, 255]);
    let bools = data.convert_dtype(DType::Bool(BoolStore::Native));
    assert_eq!(
        bools.to_vec::<bool>().unwrap(),
        vec![true, false, true, true]
    );
    let back = bools.convert_dtype(DType::F64);
    assert_eq!(back.to_vec::<f64>().unwrap(), vec![1.0, 0.0, 1.0, 1.0]);

    let words = data.convert_dtype(DType::Bool(BoolStore::U32));
    assert_eq!(words.dtype, DType::Bool(BoolStore::U32));
    assert_eq!(words.bytes.as_slice_of::<u32>(), &[1, 0, 1, 1]);
    assert_eq!(words.iter::<i32>().collect::<Vec<_>>(), vec![1, 0, 1, 1]);
    let bytes = words.convert_dtype(DType::Bool(BoolStore::U8));
    assert_eq!(&*bytes.bytes, &[1, 0, 1, 1]);

    let big = TensorData::from([u64::MAX, 5]);
    assert_eq!(
        big.convert::<i64>().to_vec::<i64>().unwrap(),
        vec![i64::MAX, 5]
    );
    let halves = data.convert_dtype(DType::F16).convert_dtype(DType::F32);
    let expected = [-1.7f32, 0.0, 2.5, 300.0].map(|v| f16::from_f32(v).to_f32());
    assert_eq!(halves.to_vec::<f32>().unwrap(), expected.to_vec());
    // Converting to the same dtype is an exact copy.
    assert_eq!(data.convert_dtype(DType::F32), data);
}

#[test]
fn assert_eq_strict_and_loose() {
    let a = TensorData::from([1i32, 2, 3]);
    a.assert_eq(&TensorData::from([1i32, 2, 3]), true);
    a.assert_eq(&TensorData::from([1i64, 2, 3]), false);
    a.assert_eq(&TensorData::from([1.0f32, 2.0, 3.0]), false);
    TensorData::from([f32::NAN]).assert_eq(&TensorData::from([f32::NAN]), true);
    TensorData::from([u64::MAX]).assert_eq(&TensorData::from([u64::MAX]), true);
}

#[test]
#[should_panic(expected = "dtype")]
fn assert_eq_strict_rejects_dtype() {
    TensorData::from([1i32]).assert_eq(&TensorData::from([1i64]), true);
}

#[test]
#[should_panic(expected = "index 1: 2 != 5")]
fn assert_eq_reports_mismatch() {
    TensorData::from([1i32, 2, 3]).assert_eq(&TensorData::from([1i32, 5, 3]), true);
}

#[test]
fn assert_eq_limits_report() {
    let a = TensorData::new((0..25).collect::<Vec<i32>>(), [5, 5]);
    let b = TensorData::new((100..125).collect::<Vec<i32>>(), [5, 5]);
    let message = std::panic::catch_unwind(|| a.assert_eq(&b, true))
        .unwrap_err()
        .downcast::<String>()
        .unwrap();
    assert!(message.contains("index 9: 9 != 109"), "{message}");
    assert!(!message.contains("index 10:"), "{message}");
    assert!(message.contains("and 15 more"), "{message}");
    assert!(message.contains("[5, 5]"), "{message}");
}

#[test]
#[should_panic(expected = "shape")]
fn assert_eq_rejects_shape() {
    TensorData::new(vec![1i32, 2], [2]).assert_eq(&TensorData::new(vec![1i32, 2], [1, 2]), true);
}

#[test]
fn approx_eq_passes() {
    let a = TensorData::from([1.0f32, 2.0, f32::NAN, f32::INFINITY, -f32::INFINITY]);
    let b = TensorData::from([1.000001f64, 2.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY]);
    a.assert_approx_eq::<f32>(&b, Tolerance::default());
    let c = TensorData::from([1.004f32, 2.01]);
    c.assert_approx_eq::<f32>(&TensorData::from([1.0f32, 2.0]), Tolerance::permissive());
    c.assert_approx_eq::<f32>(&TensorData::from([1.0f32, 2.0]), Tolerance::absolute(0.02));
    c.assert_approx_eq::<f32>(&TensorData::from([1.0f32, 2.0]), Tolerance::relative(0.006));
    // Defaults follow the comparison type: f16 is loose enough for f16 noise.
    let h = TensorData::from([0.1f32, 0.7]).convert_dtype(DType::F16);
    h.assert_approx_eq::<f16>(&TensorData::from([0.1f32, 0.7]), Tolerance::default());
    // Integers compare exactly by default.
    TensorData::from([1i32, 2])
        .assert_approx_eq::<i32>(&TensorData::from([1i64, 2]), Tolerance::default());
}

#[test]
#[should_panic(expected = "approximately equal")]
fn approx_eq_fails_outside_tolerance() {
    TensorData::from([1.0f32, 2.0])
        .assert_approx_eq::<f32>(&TensorData::from([1.0f32, 2.001]), Tolerance::default());
}

#[test]
#[should_panic(expected = "index 0")]
fn approx_eq_nan_vs_number_fails() {
    TensorData::from([f32::NAN])
        .assert_approx_eq::<f32>(&TensorData::from([1.0f32]), Tolerance::permissive());
}

#[test]
#[should_panic]
fn approx_eq_opposite_infinities_fail() {
    TensorData::from([f64::INFINITY]).assert_approx_eq::<f64>(
        &TensorData::from([f64::NEG_INFINITY]),
        Tolerance::permissive(),
    );
}

#[test]
#[should_panic]
fn approx_eq_strict_is_exact() {
    TensorData::from([1.0f64])
        .assert_approx_eq::<f64>(&TensorData::from([1.0f64 + 1e-12]), Tolerance::strict());
}

#[test]
fn tolerance_resolution() {
    assert_eq!(Tolerance::default().resolve::<f32>(), (1e-5, 1e-5));
    assert_eq!(Tolerance::default().resolve::<f64>(), (1e-8, 1e-8));
    assert_eq!(Tolerance::default().resolve::<bf16>(), (2e-2, 2e-2));
    assert_eq!(Tolerance::default().resolve::<i64>(), (0.0, 0.0));
    assert_eq!(Tolerance::rel_abs(0.1, 0.2).resolve::<f16>(), (0.1, 0.2));
    let partial = Tolerance {
        relative: Some(0.5),
        absolute: None,
    };
    assert_eq!(partial.resolve::<f16>(), (0.5, 1e-2));
}

#[test]
fn display_nests_brackets() {
    assert_eq!(
        TensorData::from([[1i32, 2], [3, 4]]).to_string(),
        "[[1, 2], [3, 4]]"
    );
    assert_eq!(TensorData::from([0.5f32, 1.0]).to_string(), "[0.5, 1.0]");
    assert_eq!(TensorData::from([true, false]).to_string(), "[true, false]");
    assert_eq!(TensorData::new(vec![7u8], Shape::new([])).to_string(), "7");
    assert_eq!(TensorData::zeros::<f32>([2, 0]).to_string(), "[[], []]");
    assert_eq!(TensorData::from([0.1f32]).to_string(), "[0.1]");
}

#[test]
fn random_is_reproducible() {
    use burn_std::{Distribution, Rng};
    let a = TensorData::random::<f32>(
        [4, 4],
        Distribution::Normal(0.0, 1.0),
        &mut Rng::seed_from_u64(3),
    );
    let b = TensorData::random::<f32>(
        [4, 4],
        Distribution::Normal(0.0, 1.0),
        &mut Rng::seed_from_u64(3),
    );
    a.assert_eq(&b, true);
}
