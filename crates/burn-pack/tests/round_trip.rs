//! Write then read: every dtype, metadata and scalars, empty tensors, every
//! sink, and the writer's planning checks.

mod common;

use std::sync::{Arc, Mutex};

use burn_pack::{Error, Reader, Tensor, Writer};
use burn_std::{BoolStore, Bytes, DType, Scalar};
use common::TempDir;

/// Distinct, position-dependent bytes for a tensor of `dtype` and `shape`.
fn pattern(dtype: DType, shape: &[usize], salt: u8) -> Vec<u8> {
    let len = shape.iter().product::<usize>() * dtype.size();
    if dtype.is_bool() {
        // Valid booleans only: 0 or 1 per element, little-endian for U32.
        let elems = shape.iter().product::<usize>();
        let mut out = vec![0u8; len];
        for i in 0..elems {
            out[i * dtype.size()] = ((i + salt as usize) % 2) as u8;
        }
        return out;
    }
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(salt))
        .collect()
}

fn every_dtype() -> Vec<DType> {
    let mut all = DType::ALL.to_vec();
    all.push(DType::Bool(BoolStore::U8));
    all.push(DType::Bool(BoolStore::U32));
    all
}

#[test]
fn every_dtype_round_trips() {
    let dtypes = every_dtype();
    let shapes: [&[usize]; 3] = [&[3, 5], &[7], &[]];
    let mut tensors = Vec::new();
    let mut expected = Vec::new();
    for (i, &dtype) in dtypes.iter().enumerate() {
        let shape = shapes[i % shapes.len()];
        let bytes = pattern(dtype, shape, i as u8);
        let name = format!("t{i:02}.{}", dtype.name());
        tensors.push(
            Tensor::new(name.clone(), dtype, shape, bytes.clone()).with_param_id(i as u64 * 1000),
        );
        expected.push((name, dtype, shape.to_vec(), bytes, i as u64 * 1000));
    }

    let bytes = Writer::new(tensors).into_bytes().unwrap();
    // The reader keeps this very buffer, so addresses give file offsets.
    let base = bytes.as_ptr() as usize;
    let reader = Reader::from_bytes(bytes).unwrap();
    assert_eq!(reader.len(), expected.len());
    for (tensor, (name, dtype, shape, bytes, id)) in reader.tensors().zip(&expected) {
        assert_eq!(&tensor.name, name);
        assert_eq!(tensor.dtype, *dtype);
        assert_eq!(&tensor.shape.dims, shape);
        assert_eq!(tensor.param_id, Some(*id));
        let data = tensor.bytes().unwrap();
        assert_eq!(data, bytes.as_slice(), "{name}");
        let offset = data.as_ptr() as usize - base;
        assert_eq!(offset % 256, 0, "{name} starts at file offset {offset}");
        assert_eq!(tensor.byte_len(), bytes.len());
    }
}

#[test]
fn typed_values_survive() {
    let floats = vec![1.5f64, -0.0, f64::MAX, f64::MIN_POSITIVE];
    let ints = vec![i64::MIN, -1, 0, i64::MAX];
    let bytes = Writer::new(vec![
        Tensor::new("f", DType::F64, [2, 2], Bytes::from_elems(floats.clone())),
        Tensor::new("i", DType::I64, [4], Bytes::from_elems(ints.clone())),
    ])
    .into_bytes()
    .unwrap();
    let reader = Reader::from_bytes(bytes).unwrap();
    assert_eq!(reader.read_bytes("f").unwrap().to_vec_of::<f64>(), floats);
    assert_eq!(reader.read_bytes("i").unwrap().to_vec_of::<i64>(), ints);
}

#[test]
fn metadata_and_scalars_round_trip() {
    let bytes = Writer::new(vec![])
        .with_metadata("format", "burnpack")
        .with_metadata("empty", "")
        .with_metadata("unicode ✓", "välue")
        .with_scalar("lr", 1e-3f64)
        .with_scalar("step", 42u64)
        .with_scalar("offset", -7i64)
        .with_scalar("nan", f64::NAN)
        .with_scalar("done", true)
        .with_scalar("__rank", 2u32)
        .into_bytes()
        .unwrap();
    let reader = Reader::from_bytes(bytes).unwrap();
    assert!(reader.is_empty());
    assert_eq!(reader.metadata().len(), 3);
    assert_eq!(reader.metadata()["unicode ✓"], "välue");
    assert_eq!(reader.metadata()["empty"], "");
    assert_eq!(reader.scalar("lr"), Some(Scalar::Float(1e-3)));
    assert_eq!(reader.scalar("step"), Some(Scalar::UInt(42)));
    assert_eq!(reader.scalar("offset"), Some(Scalar::Int(-7)));
    assert!(matches!(reader.scalar("nan"), Some(Scalar::Float(v)) if v.is_nan()));
    assert_eq!(reader.scalar("done"), Some(Scalar::Bool(true)));
    assert_eq!(reader.scalar("__rank"), Some(Scalar::UInt(2)));
    assert_eq!(reader.scalar("missing"), None);
}

#[test]
fn zero_size_tensors_round_trip() {
    let bytes = Writer::new(vec![
        Tensor::new("empty_first", DType::F32, [0], Vec::new()),
        Tensor::new("a", DType::U8, [3], vec![1u8, 2, 3]),
        Tensor::new("empty_mid", DType::F16, [4, 0, 2], Vec::new()),
        Tensor::new("b", DType::U8, [1], vec![9u8]),
        Tensor::new(
            "empty_last",
            DType::Bool(BoolStore::Native),
            [0],
            Vec::new(),
        ),
    ])
    .into_bytes()
    .unwrap();
    let reader = Reader::from_bytes(bytes).unwrap();
    assert_eq!(
        reader.names().collect::<Vec<_>>(),
        ["empty_first", "a", "empty_mid", "b", "empty_last"]
    );
    assert_eq!(reader.get("empty_mid").unwrap().shape.dims, [4, 0, 2]);
    assert_eq!(reader.get("empty_mid").unwrap().bytes(), Some(&[][..]));
    assert_eq!(reader.get("b").unwrap().bytes(), Some(&[9u8][..]));
    assert!(reader.read_bytes("empty_last").unwrap().is_empty());
}

#[test]
fn every_sink_produces_the_same_bytes() {
    let make = || {
        Writer::new(vec![
            Tensor::new("x", DType::I32, [3], Bytes::from_elems(vec![1i32, -2, 3])),
            Tensor::deferred("y", DType::U16, [2], 4, || {
                Ok::<_, std::io::Error>(Bytes::from_elems(vec![7u16, 8]))
            }),
        ])
        .with_metadata("m", "1")
    };
    let size = make().size().unwrap();
    let in_memory = make().into_bytes().unwrap();
    assert_eq!(in_memory.len() as u64, size);

    let mut sunk = Vec::new();
    assert_eq!(make().write_into(&mut sunk).unwrap(), size);
    assert_eq!(sunk, in_memory.as_slice());

    let dir = TempDir::new("sinks");
    make().write_to_file(dir.join("atomic.bpk")).unwrap();
    make()
        .write_to_file_in_place(dir.join("in_place.bpk"))
        .unwrap();
    assert_eq!(
        std::fs::read(dir.join("atomic.bpk")).unwrap(),
        in_memory.as_slice()
    );
    assert_eq!(
        std::fs::read(dir.join("in_place.bpk")).unwrap(),
        in_memory.as_slice()
    );
    assert_eq!(
        dir.entries(),
        ["atomic.bpk", "in_place.bpk"],
        "no scratch file left"
    );
}

#[test]
fn providers_run_once_each_in_write_order() {
    let calls = Arc::new(Mutex::new(Vec::new()));
    let tensors = ["c", "a", "b"]
        .into_iter()
        .map(|name| {
            let calls = calls.clone();
            Tensor::deferred(name, DType::U8, [2], 2, move || {
                calls.lock().unwrap().push(name);
                Ok::<_, std::io::Error>(Bytes::from_slice(name.repeat(2).as_bytes()))
            })
        })
        .collect();
    let writer = Writer::new(tensors);
    writer.size().unwrap();
    assert!(
        calls.lock().unwrap().is_empty(),
        "planning calls no provider"
    );
    let reader = Reader::from_bytes(writer.into_bytes().unwrap()).unwrap();
    assert_eq!(*calls.lock().unwrap(), ["c", "a", "b"]);
    assert_eq!(reader.names().collect::<Vec<_>>(), ["c", "a", "b"]);
    assert_eq!(reader.get("a").unwrap().bytes(), Some(&b"aa"[..]));
}

#[test]
fn planning_rejects_lengths_that_disagree_with_shape() {
    let err = Writer::new(vec![Tensor::new("w", DType::F32, [2, 3], vec![0u8; 20])])
        .into_bytes()
        .unwrap_err();
    match err {
        Error::LengthMismatch {
            name,
            shape,
            dtype,
            expected,
            found,
        } => {
            assert_eq!(
                (name.as_str(), shape, dtype, expected, found),
                ("w", vec![2, 3], DType::F32, 24, 20)
            );
        }
        other => panic!("unexpected {other:?}"),
    }

    // A deferred tensor's declared length is checked before its provider runs.
    let called = Arc::new(Mutex::new(false));
    let flag = called.clone();
    let err = Writer::new(vec![Tensor::deferred("d", DType::U16, [4], 7, move || {
        *flag.lock().unwrap() = true;
        Ok::<_, std::io::Error>(Bytes::zeroed(7))
    })])
    .into_bytes()
    .unwrap_err();
    assert!(matches!(
        err,
        Error::LengthMismatch {
            expected: 8,
            found: 7,
            ..
        }
    ));
    assert!(!*called.lock().unwrap());
}

#[test]
fn providers_must_return_the_reserved_length() {
    let err = Writer::new(vec![Tensor::deferred("d", DType::U8, [4], 4, || {
        Ok::<_, std::io::Error>(Bytes::zeroed(5))
    })])
    .into_bytes()
    .unwrap_err();
    assert!(
        matches!(err, Error::ProviderLength { ref name, reserved: 4, found: 5 } if name == "d")
    );

    let err = Tensor::deferred("d", DType::U8, [1], 1, || {
        Ok::<_, std::io::Error>(Bytes::zeroed(0))
    })
    .into_bytes()
    .unwrap_err();
    assert!(matches!(
        err,
        Error::ProviderLength {
            reserved: 1,
            found: 0,
            ..
        }
    ));
}

#[test]
fn provider_errors_keep_their_source() {
    let err = Writer::new(vec![Tensor::deferred(
        "gpu.weight",
        DType::U8,
        [1],
        1,
        || Err::<Bytes, _>(std::io::Error::other("device lost")),
    )])
    .write_into(std::io::sink())
    .unwrap_err();
    assert!(matches!(&err, Error::Provider { name, .. } if name == "gpu.weight"));
    let source = std::error::Error::source(&err).expect("source");
    assert_eq!(source.to_string(), "device lost");
}

#[test]
fn duplicate_names_are_rejected() {
    let err = Writer::new(vec![
        Tensor::new("x", DType::U8, [1], vec![1u8]),
        Tensor::new("x", DType::U8, [1], vec![2u8]),
    ])
    .into_bytes()
    .unwrap_err();
    assert!(matches!(err, Error::DuplicateTensor { name } if name == "x"));
}

#[test]
fn read_tensors_can_be_written_again() {
    let first = Writer::new(vec![
        Tensor::new("a", DType::U8, [2], vec![1u8, 2]),
        Tensor::new("b", DType::I16, [1], vec![3u8, 4]).with_param_id(5),
    ])
    .with_scalar("s", 1u8)
    .into_bytes()
    .unwrap();
    let reader = Reader::from_bytes(first.clone()).unwrap();
    let scalars = reader.scalars().clone();
    let mut writer = Writer::new(reader.into_tensors());
    for (k, v) in scalars {
        writer = writer.with_scalar(k, v);
    }
    assert_eq!(writer.into_bytes().unwrap(), first);
}

#[test]
fn lookups_of_missing_names_fail_cleanly() {
    let reader = Reader::from_bytes(Writer::new(vec![]).into_bytes().unwrap()).unwrap();
    assert!(reader.get("nope").is_none());
    assert!(!reader.contains("nope"));
    assert!(
        matches!(reader.read_bytes("nope"), Err(Error::TensorNotFound { name }) if name == "nope")
    );
}

#[test]
fn public_types_are_thread_safe() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Tensor>();
    send_sync::<Reader>();
    send_sync::<Writer>();
    send_sync::<Error>();
}
