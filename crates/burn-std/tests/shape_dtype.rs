use burn_std::{BoolStore, DType, Shape, ShapeError};

#[test]
fn shape_constructors_agree() {
    let expected = Shape {
        dims: vec![2, 3, 4],
    };
    assert_eq!(Shape::new([2, 3, 4]), expected);
    assert_eq!(Shape::from([2, 3, 4]), expected);
    assert_eq!(Shape::from(vec![2, 3, 4]), expected);
    assert_eq!(Shape::from(&[2usize, 3, 4][..]), expected);
    assert_eq!(Shape::from(&vec![2, 3, 4]), expected);
}

#[test]
fn shape_basics() {
    let mut shape = Shape::new([2, 3, 4]);
    assert_eq!(shape.num_elements(), 24);
    assert_eq!(shape.num_dims(), 3);
    assert_eq!(shape.rank(), 3);
    assert_eq!(shape.contiguous_strides(), vec![12, 4, 1]);
    assert_eq!(shape[1], 3);
    shape[1] = 5;
    assert_eq!(shape.dims, vec![2, 5, 4]);
    assert_eq!(shape.to_string(), "[2, 5, 4]");
    assert_eq!(Shape::new([]).num_elements(), 1);
    assert_eq!(Shape::new([]).to_string(), "[]");
    assert_eq!(Shape::new([3, 0]).num_elements(), 0);
    assert!(Shape::new([]).contiguous_strides().is_empty());
}

#[test]
fn broadcast_compatible() {
    let cases: &[(&[usize], &[usize], &[usize])] = &[
        (&[2, 3], &[2, 3], &[2, 3]),
        (&[2, 1], &[1, 3], &[2, 3]),
        (&[4, 1, 3], &[5, 1], &[4, 5, 3]),
        (&[3], &[2, 3], &[2, 3]),
        (&[], &[2, 3], &[2, 3]),
        (&[0, 1], &[1, 4], &[0, 4]),
        (&[1], &[0], &[0]),
    ];
    for &(a, b, out) in cases {
        let (a, b) = (Shape::from(a), Shape::from(b));
        assert_eq!(a.broadcast(&b).unwrap(), Shape::from(out), "{a} vs {b}");
        assert_eq!(b.broadcast(&a).unwrap(), Shape::from(out), "{b} vs {a}");
    }
}

#[test]
fn broadcast_incompatible_names_both_shapes() {
    let a = Shape::new([2, 3]);
    let b = Shape::new([4, 2, 4]);
    let err = a.broadcast(&b).unwrap_err();
    assert_eq!(
        err,
        ShapeError::BroadcastIncompatible {
            lhs: a.clone(),
            rhs: b.clone(),
            axis: 0,
            lhs_dim: 3,
            rhs_dim: 4,
        }
    );
    let msg = err.to_string();
    assert!(msg.contains("[2, 3]") && msg.contains("[4, 2, 4]"), "{msg}");
    assert!(Shape::new([3]).broadcast(&Shape::new([0])).is_err());
}

#[test]
fn shape_serde_round_trip() {
    let shape = Shape::new([2, 3]);
    let json = serde_json::to_string(&shape).unwrap();
    assert_eq!(serde_json::from_str::<Shape>(&json).unwrap(), shape);
}

#[test]
fn dtype_json_uses_external_tagging() {
    assert_eq!(serde_json::to_string(&DType::F32).unwrap(), "\"F32\"");
    assert_eq!(
        serde_json::to_string(&DType::Bool(BoolStore::Native)).unwrap(),
        "{\"Bool\":\"Native\"}"
    );
    assert_eq!(
        serde_json::from_str::<DType>("{\"Bool\":\"U32\"}").unwrap(),
        DType::Bool(BoolStore::U32)
    );
    for dtype in DType::ALL {
        let json = serde_json::to_string(&dtype).unwrap();
        assert_eq!(serde_json::from_str::<DType>(&json).unwrap(), dtype);
    }
}

#[test]
fn dtype_properties() {
    use DType::*;
    let sizes = [8, 4, 2, 2, 8, 4, 2, 1, 8, 4, 2, 1, 1];
    for (dtype, size) in DType::ALL.into_iter().zip(sizes) {
        assert_eq!(dtype.size(), size, "{dtype}");
        // Every dtype is exactly one of float, int, bool.
        let kinds = [dtype.is_float(), dtype.is_int(), dtype.is_bool()];
        assert_eq!(kinds.iter().filter(|&&k| k).count(), 1, "{dtype}");
    }
    assert_eq!(Bool(BoolStore::U8).size(), 1);
    assert_eq!(Bool(BoolStore::U32).size(), 4);
    assert!(F16.is_float() && BF16.is_signed() && !BF16.is_unsigned());
    assert!(I8.is_int() && I8.is_signed() && !I8.is_unsigned());
    assert!(U16.is_int() && U16.is_unsigned() && !U16.is_signed());
    assert!(!Bool(BoolStore::Native).is_signed() && !Bool(BoolStore::Native).is_unsigned());
    assert_eq!(BF16.name(), "bf16");
    assert_eq!(Bool(BoolStore::Native).to_string(), "bool");
    assert_eq!(I64.to_string(), "i64");
}
