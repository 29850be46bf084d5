use burn_std::{DType, Element, ElementConversion, Scalar, bf16, f16};

#[test]
fn float_to_int_saturates_and_nan_is_zero() {
    assert_eq!(i8::from_f64(1000.0), i8::MAX);
    assert_eq!(i8::from_f64(-1000.0), i8::MIN);
    assert_eq!(u8::from_f64(-3.0), 0);
    assert_eq!(i32::from_f64(f64::NAN), 0);
    assert_eq!(u64::from_f64(f64::INFINITY), u64::MAX);
    assert_eq!(i32::from_f64(-2.9), -2);
    assert_eq!(3.7f32.elem::<i32>(), 3);
}

#[test]
fn int_to_int_saturates() {
    assert_eq!(i8::from_i64(300), i8::MAX);
    assert_eq!(i8::from_i64(-300), i8::MIN);
    assert_eq!(u16::from_i64(-1), 0);
    assert_eq!(i64::from_u64(u64::MAX), i64::MAX);
    assert_eq!((-5i32).to_u64(), 0);
    assert_eq!(u64::MAX.to_i64(), i64::MAX);
    assert_eq!(300i32.elem::<u8>(), u8::MAX);
    assert_eq!((-1i64).elem::<u32>(), 0);
}

#[test]
fn wide_integers_round_trip_exactly() {
    let big = i64::MAX - 1;
    assert_eq!(big.elem::<i64>(), big);
    assert_eq!((u64::MAX - 1).elem::<u64>(), u64::MAX - 1);
    assert_eq!(i64::MIN.elem::<i64>(), i64::MIN);
    // 2^53 + 1 is not representable in f64: going through i64 keeps it.
    let odd = (1i64 << 53) + 1;
    assert_eq!(odd.elem::<u64>(), odd as u64);
}

#[test]
fn half_precision_round_trips() {
    for v in [0.0f32, 1.0, -2.5, 0.125, 65504.0, -1024.0] {
        assert_eq!(f16::from_f32(v).elem::<f32>(), v);
        assert_eq!(v.elem::<f16>(), f16::from_f32(v));
    }
    for v in [0.0f32, 1.0, -3.0, 0.5, 256.0, 2.0f32.powi(100)] {
        assert_eq!(bf16::from_f32(v).elem::<f32>(), v);
        assert_eq!(v.elem::<bf16>().to_f32(), v);
    }
    assert!(f16::from_f64(f64::NAN).is_nan());
    assert_eq!(f16::max_value().to_f64(), f64::INFINITY);
    assert_eq!(bf16::min_value().to_f64(), f64::NEG_INFINITY);
}

#[test]
fn element_constants_and_bool() {
    assert_eq!(f32::min_value(), f32::NEG_INFINITY);
    assert_eq!(f64::max_value(), f64::INFINITY);
    assert_eq!(<i16 as Element>::min_value(), i16::MIN);
    assert_eq!(<u32 as Element>::max_value(), u32::MAX);
    assert_eq!(f16::one().to_f64(), 1.0);
    assert_eq!(bf16::zero().to_f64(), 0.0);
    assert!(!i32::MAX.is_nan() && f32::NAN.is_nan());
    assert!(2.0f64.to_bool() && !0i8.to_bool());
    assert_eq!(true.elem::<f32>(), 1.0);
    assert_eq!(false.elem::<i64>(), 0);
    assert!(0.5f32.elem::<bool>());
    assert!(!0u8.elem::<bool>());
    assert_eq!(bool::DTYPE, DType::Bool(burn_std::BoolStore::Native));
    assert_eq!(bf16::DTYPE, DType::BF16);
}

#[test]
fn element_bytes_round_trip() {
    let bytes = i16::vec_into_bytes(vec![1, -2, 300]);
    assert_eq!(bytes.len(), 6);
    assert_eq!(&*i16::read_slice(&bytes), &[1, -2, 300]);
    let bools = bool::vec_into_bytes(vec![true, false, true]);
    assert_eq!(&*bools, &[1, 0, 1]);
    assert_eq!(&*bool::read_slice(&bools), &[true, false, true]);
    // Unaligned input is copied rather than rejected.
    let raw = [0u8, 1, 0, 0, 0];
    assert_eq!(&*u32::read_slice(&raw[1..]), &[1]);
}

#[test]
fn scalar_conversions() {
    assert_eq!(Scalar::from(2.5f32), Scalar::Float(2.5));
    assert_eq!(Scalar::from(f16::from_f32(1.5)), Scalar::Float(1.5));
    assert_eq!(Scalar::from(bf16::from_f32(2.0)), Scalar::Float(2.0));
    assert_eq!(Scalar::from(-3i8), Scalar::Int(-3));
    assert_eq!(Scalar::from(7u16), Scalar::UInt(7));
    assert_eq!(Scalar::from(true), Scalar::Bool(true));
    assert_eq!(Scalar::Float(-1.5).to_i64(), -1);
    assert_eq!(Scalar::Int(-1).to_u64(), 0);
    assert_eq!(Scalar::UInt(u64::MAX).to_u64(), u64::MAX);
    assert_eq!(Scalar::Bool(true).to_f64(), 1.0);
    assert!(Scalar::Int(3).to_bool());
    assert_eq!(Scalar::Int(500).elem::<i8>(), i8::MAX);
    assert_eq!(Scalar::Float(0.5).elem::<f16>(), f16::from_f32(0.5));
    let json = serde_json::to_string(&Scalar::Int(4)).unwrap();
    assert_eq!(json, "{\"Int\":4}");
    assert_eq!(
        serde_json::from_str::<Scalar>(&json).unwrap(),
        Scalar::Int(4)
    );
}
