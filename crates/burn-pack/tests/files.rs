//! File-backed reading (memory map) and the two ways of saving to a path.

mod common;

use burn_pack::{Error, Reader, Tensor, Writer};
use burn_std::{Bytes, DType};
use common::TempDir;

fn sample(tag: u8) -> Writer {
    Writer::new(vec![
        Tensor::new(
            "a",
            DType::F32,
            [4],
            Bytes::from_elems(vec![1.0f32, 2.0, 3.0, f32::from(tag)]),
        ),
        Tensor::new("b", DType::U8, [3], vec![tag; 3]).with_param_id(11),
    ])
    .with_metadata("tag", tag.to_string())
}

#[test]
fn mapped_reader_reads_lazily_and_outlives_itself() {
    let dir = TempDir::new("mmap");
    let path = dir.join("model.bpk");
    sample(5).write_to_file(&path).unwrap();

    let reader = Reader::open(&path).unwrap();
    assert!(reader.is_mapped());
    assert_eq!(reader.metadata()["tag"], "5");
    assert_eq!(
        reader.read_bytes("a").unwrap().as_slice_of::<f32>(),
        [1.0, 2.0, 3.0, 5.0]
    );
    assert_eq!(reader.get("b").unwrap().param_id, Some(11));

    // Tensors keep the mapping alive after the reader is gone.
    let tensors = reader.into_tensors();
    let b = tensors.into_iter().find(|t| t.name == "b").unwrap();
    assert_eq!(b.bytes(), Some(&[5u8, 5, 5][..]));
    let owned = b.into_bytes().unwrap();
    assert_eq!(owned.as_slice(), [5, 5, 5]);
    assert_eq!(
        owned.as_ptr() as usize % 64,
        0,
        "owned copies are 64-byte aligned"
    );

    // The same bytes through memory.
    let from_memory = Reader::from_bytes(Bytes::from_vec(std::fs::read(&path).unwrap())).unwrap();
    assert!(!from_memory.is_mapped());
    assert_eq!(
        from_memory.read_bytes("a").unwrap().as_slice_of::<f32>()[3],
        5.0
    );
}

#[test]
fn opening_bad_paths_reports_the_file() {
    let dir = TempDir::new("badpath");
    let missing = dir.join("missing.bpk");
    match Reader::open(&missing) {
        Err(Error::File {
            action: "open",
            path,
            source,
        }) => {
            assert_eq!(path, missing);
            assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
        }
        other => panic!("unexpected {other:?}"),
    }

    let short = dir.join("short.bpk");
    std::fs::write(&short, b"NRUB\x01").unwrap();
    assert!(matches!(
        Reader::open(&short),
        Err(Error::Truncated {
            part: "header",
            needed: 10,
            available: 5
        })
    ));
    std::fs::write(&short, b"").unwrap();
    assert!(matches!(
        Reader::open(&short),
        Err(Error::Truncated { available: 0, .. })
    ));
}

#[test]
fn failed_atomic_save_leaves_the_old_file_and_no_scratch() {
    let dir = TempDir::new("atomic");
    let path = dir.join("model.bpk");
    sample(1).write_to_file(&path).unwrap();
    let before = std::fs::read(&path).unwrap();

    let err = Writer::new(vec![
        Tensor::new("big", DType::U8, [1 << 20], vec![0xAB; 1 << 20]),
        Tensor::deferred("fails", DType::F32, [2], 8, || {
            Err::<Bytes, _>(std::io::Error::other("readback failed"))
        }),
    ])
    .write_to_file(&path)
    .unwrap_err();
    assert!(matches!(&err, Error::Provider { name, .. } if name == "fails"));
    assert_eq!(std::fs::read(&path).unwrap(), before, "old file untouched");
    assert_eq!(dir.entries(), ["model.bpk"], "scratch file removed");

    // A provider that lies about its length fails the same way.
    let err = Writer::new(vec![Tensor::deferred("short", DType::U8, [4], 4, || {
        Ok::<_, std::io::Error>(Bytes::zeroed(3))
    })])
    .write_to_file(&path)
    .unwrap_err();
    assert!(matches!(err, Error::ProviderLength { .. }));
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert_eq!(dir.entries(), ["model.bpk"]);

    // A provider that panics: the scratch file is removed while unwinding.
    let path2 = path.clone();
    let outcome = std::panic::catch_unwind(move || {
        Writer::new(vec![Tensor::deferred(
            "panics",
            DType::U8,
            [1],
            1,
            || -> Result<Bytes, std::io::Error> { panic!("provider bug") },
        )])
        .write_to_file(&path2)
    });
    assert!(outcome.is_err());
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert_eq!(dir.entries(), ["model.bpk"]);

    // And a successful save replaces it.
    sample(2).write_to_file(&path).unwrap();
    assert_eq!(Reader::open(&path).unwrap().metadata()["tag"], "2");
    assert_eq!(dir.entries(), ["model.bpk"]);
}

#[test]
fn planning_errors_touch_no_file() {
    let dir = TempDir::new("plan");
    let path = dir.join("model.bpk");
    sample(1).write_to_file(&path).unwrap();
    let before = std::fs::read(&path).unwrap();
    let bad = || Writer::new(vec![Tensor::new("w", DType::F64, [2], vec![0u8; 3])]);
    assert!(matches!(
        bad().write_to_file(&path),
        Err(Error::LengthMismatch { .. })
    ));
    assert!(matches!(
        bad().write_to_file_in_place(&path),
        Err(Error::LengthMismatch { .. })
    ));
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert_eq!(dir.entries(), ["model.bpk"]);
}

#[test]
fn failed_in_place_save_truncates() {
    let dir = TempDir::new("inplace");
    let path = dir.join("model.bpk");
    sample(1).write_to_file_in_place(&path).unwrap();
    assert_eq!(Reader::open(&path).unwrap().metadata()["tag"], "1");

    let err = Writer::new(vec![Tensor::deferred("fails", DType::U8, [1], 1, || {
        Err::<Bytes, _>(std::io::Error::other("nope"))
    })])
    .write_to_file_in_place(&path)
    .unwrap_err();
    assert!(matches!(err, Error::Provider { .. }));
    // The documented trade-off: what is left is not a valid pack.
    assert!(Reader::open(&path).is_err());
    assert_eq!(dir.entries(), ["model.bpk"]);
}

#[test]
fn saving_into_a_missing_directory_fails_with_its_path() {
    let dir = TempDir::new("nodir");
    let path = dir.join("no/such/dir/model.bpk");
    match sample(1).write_to_file(&path) {
        Err(Error::File {
            action: "create", ..
        }) => {}
        other => panic!("unexpected {other:?}"),
    }
    match sample(1).write_to_file_in_place(&path) {
        Err(Error::File {
            action: "create",
            path: p,
            ..
        }) => assert_eq!(p, path),
        other => panic!("unexpected {other:?}"),
    }
}
