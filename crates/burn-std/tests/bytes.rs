use burn_std::Bytes;

fn assert_aligned(bytes: &Bytes) {
    assert_eq!(bytes.as_ptr() as usize % Bytes::ALIGN, 0);
}

#[test]
fn buffers_are_aligned() {
    assert_eq!(Bytes::ALIGN, 64);
    for len in [0, 1, 3, 63, 64, 65, 1000] {
        assert_aligned(&Bytes::zeroed(len));
        assert_aligned(&Bytes::from_vec(vec![1; len]));
        assert_aligned(&Bytes::from_slice(&vec![2; len]));
        assert_aligned(&Bytes::zeroed(len).clone());
    }
    assert_aligned(&Bytes::from_elems(vec![1.0f64; 7]));
}

#[test]
fn contents_and_equality() {
    let mut bytes = Bytes::zeroed(4);
    assert_eq!(&*bytes, &[0, 0, 0, 0]);
    bytes[2] = 9;
    assert_eq!(bytes, Bytes::from_slice(&[0, 0, 9, 0]));
    let copy = bytes.clone();
    bytes[0] = 1;
    assert_ne!(copy, bytes, "clone must be a deep copy");
    assert!(Bytes::zeroed(0).is_empty());
    assert_eq!(Bytes::from_vec(vec![1, 2, 3]).len(), 3);
}

#[test]
fn typed_views() {
    let mut bytes = Bytes::from_elems(vec![1u32, 2, 3]);
    assert_eq!(bytes.len(), 12);
    assert_eq!(bytes.as_slice_of::<u32>(), &[1, 2, 3]);
    bytes.as_mut_slice_of::<u32>()[0] = 10;
    assert_eq!(bytes.to_vec_of::<u32>(), vec![10, 2, 3]);
    assert_eq!(bytes.as_slice_of::<u16>().len(), 6);
    assert!(Bytes::zeroed(0).as_slice_of::<f64>().is_empty());
}

#[test]
#[should_panic(expected = "not a multiple")]
fn typed_view_checks_length() {
    let _ = Bytes::zeroed(6).as_slice_of::<u32>();
}

#[test]
fn debug_is_short_and_serde_round_trips() {
    let bytes = Bytes::from_vec((0..=255).collect());
    let debug = format!("{bytes:?}");
    assert!(debug.contains("len: 256") && debug.len() < 120, "{debug}");
    let json = serde_json::to_string(&bytes).unwrap();
    assert_eq!(serde_json::from_str::<Bytes>(&json).unwrap(), bytes);
}

#[test]
fn bytes_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<Bytes>();
    check::<burn_std::TensorData>();
}
