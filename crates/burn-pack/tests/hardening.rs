//! Files that lie: each is refused with the error that names the lie.

mod common;

use burn_pack::{Error, ReadLimits, Reader};
use common::assemble;
use common::cbor::{array, descriptor, head, text, tmap, uint};

fn read(file: Vec<u8>) -> Result<Reader, Error> {
    Reader::from_bytes(file.into())
}

fn one_tensor(desc: Vec<u8>, blocks: &[(usize, &[u8])]) -> Vec<u8> {
    assemble(&tmap(&[("tensors", tmap(&[("t", desc)]))]), blocks)
}

#[test]
fn metadata_length_past_the_end_is_truncation() {
    let mut file = one_tensor(descriptor(text("U8"), &[1], 0, 1), &[(0, &[1])]);
    let real = u32::from_le_bytes(file[6..10].try_into().unwrap());
    file.truncate(10 + real as usize - 1);
    assert!(matches!(
        read(file),
        Err(Error::Truncated { part: "metadata", needed, available }) if needed == 10 + u64::from(real) && available == needed - 1
    ));
}

#[test]
fn metadata_over_the_limit_is_refused_before_reading_it() {
    let mut file = one_tensor(descriptor(text("U8"), &[1], 0, 1), &[(0, &[1])]);
    file[6..10].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(
        read(file.clone()),
        Err(Error::MetadataTooLarge { size, limit }) if size == u64::from(u32::MAX) && limit == 100 << 20
    ));
    let limits = ReadLimits {
        max_metadata_bytes: 16,
        ..ReadLimits::default()
    };
    let small = one_tensor(descriptor(text("U8"), &[1], 0, 1), &[(0, &[1])]);
    assert!(matches!(
        Reader::from_bytes_with_limits(small.into(), &limits),
        Err(Error::MetadataTooLarge { limit: 16, .. })
    ));
}

#[test]
fn unknown_dtypes_are_named() {
    let file = one_tensor(descriptor(text("QFloat"), &[1], 0, 1), &[(0, &[1])]);
    assert!(
        matches!(read(file), Err(Error::UnknownDType { name, dtype }) if name == "t" && dtype == "\"QFloat\"")
    );
    let file = one_tensor(
        descriptor(tmap(&[("Bool", text("U16"))]), &[1], 0, 1),
        &[(0, &[1])],
    );
    assert!(matches!(read(file), Err(Error::UnknownDType { dtype, .. }) if dtype.contains("U16")));
    // Lower-case spelling is not the serde form.
    let file = one_tensor(descriptor(text("f32"), &[1], 0, 4), &[(0, &[0; 4])]);
    assert!(matches!(read(file), Err(Error::UnknownDType { .. })));
}

#[test]
fn offsets_must_be_ordered_and_match_the_shape() {
    let file = one_tensor(descriptor(text("U8"), &[1], 9, 8), &[(0, &[0; 9])]);
    assert!(matches!(
        read(file),
        Err(Error::ReversedOffsets {
            start: 9,
            end: 8,
            ..
        })
    ));

    let file = one_tensor(descriptor(text("F32"), &[2, 2], 0, 12), &[(0, &[0; 12])]);
    assert!(matches!(
        read(file),
        Err(Error::LengthMismatch { expected: 16, found: 12, ref shape, .. }) if *shape == [2, 2]
    ));

    // A shape whose size overflows 64 bits.
    let file = one_tensor(
        descriptor(text("F64"), &[1 << 40, 1 << 40], 0, 8),
        &[(0, &[0; 8])],
    );
    assert!(matches!(read(file), Err(Error::SizeOverflow { .. })));

    // 2^63 bytes fit 64 bits but no buffer (more than `isize::MAX`): the
    // shape is refused as too large, not as a length that differs.
    let file = one_tensor(descriptor(text("F32"), &[1 << 61], 0, 8), &[(0, &[0; 8])]);
    assert!(matches!(
        read(file),
        Err(Error::SizeOverflow { ref shape, .. }) if *shape == [1 << 61]
    ));
}

#[test]
fn offsets_past_the_end_of_the_file_are_refused() {
    // Claims 64 bytes, file holds 63.
    let file = one_tensor(descriptor(text("U8"), &[64], 0, 64), &[(0, &[0; 63])]);
    match read(file.clone()) {
        Err(Error::OutOfBounds {
            name,
            start: 0,
            data_end: 64,
            data_start,
            end,
            file_len,
        }) => {
            assert_eq!(name, "t");
            assert_eq!(end, data_start + 64);
            assert_eq!(file_len, file.len() as u64);
        }
        other => panic!("unexpected {other:?}"),
    }
    // Offsets near u64::MAX must not overflow anything.
    let file = one_tensor(
        descriptor(text("U8"), &[1], u64::MAX - 1, u64::MAX),
        &[(0, &[0])],
    );
    assert!(matches!(
        read(file),
        Err(Error::OutOfBounds { end: u64::MAX, .. })
    ));
    // An empty tensor far past the data.
    let file = one_tensor(descriptor(text("U8"), &[0], 1 << 40, 1 << 40), &[(0, &[0])]);
    assert!(matches!(read(file), Err(Error::OutOfBounds { .. })));
    // Data but no data section at all (file ends inside the padding).
    let file = one_tensor(descriptor(text("U8"), &[1], 0, 1), &[]);
    assert!(matches!(read(file), Err(Error::OutOfBounds { .. })));
}

#[test]
fn overlapping_tensors_are_refused() {
    let metadata = tmap(&[(
        "tensors",
        tmap(&[
            ("a", descriptor(text("U8"), &[8], 0, 8)),
            ("b", descriptor(text("U8"), &[8], 4, 12)),
        ]),
    )]);
    let file = assemble(&metadata, &[(0, &[0; 12])]);
    assert!(matches!(
        read(file),
        Err(Error::Overlap { first, second, first_start: 0, first_end: 8, second_start: 4, second_end: 12 })
            if first == "a" && second == "b"
    ));
    // Two names for the same bytes.
    let metadata = tmap(&[(
        "tensors",
        tmap(&[
            ("a", descriptor(text("U8"), &[8], 0, 8)),
            ("b", descriptor(text("U8"), &[8], 0, 8)),
        ]),
    )]);
    assert!(matches!(
        read(assemble(&metadata, &[(0, &[0; 8])])),
        Err(Error::Overlap { .. })
    ));
}

#[test]
fn repeated_keys_are_refused() {
    let metadata = tmap(&[(
        "tensors",
        tmap(&[
            ("a", descriptor(text("U8"), &[1], 0, 1)),
            ("a", descriptor(text("U8"), &[1], 256, 257)),
        ]),
    )]);
    let file = assemble(&metadata, &[(0, &[1]), (256, &[2])]);
    assert!(matches!(read(file), Err(Error::DuplicateTensor { name }) if name == "a"));

    let metadata = tmap(&[
        ("tensors", tmap(&[])),
        ("metadata", tmap(&[("k", text("1")), ("k", text("2"))])),
    ]);
    assert!(matches!(
        read(assemble(&metadata, &[])),
        Err(Error::MetadataDecode { .. })
    ));

    let metadata = tmap(&[("tensors", tmap(&[])), ("tensors", tmap(&[]))]);
    assert!(matches!(
        read(assemble(&metadata, &[])),
        Err(Error::MetadataDecode { .. })
    ));
}

#[test]
fn tensor_count_is_checked_before_allocating() {
    let limits = ReadLimits {
        max_tensor_count: 2,
        ..ReadLimits::default()
    };
    let entries: Vec<_> = (0..3)
        .map(|i| (text(&format!("t{i}")), descriptor(text("U8"), &[0], 0, 0)))
        .collect();
    let mut tensors = head(5, 3);
    entries.iter().for_each(|(k, v)| {
        tensors.extend(k);
        tensors.extend(v);
    });
    let metadata = tmap(&[("tensors", tensors.clone())]);
    assert!(matches!(
        Reader::from_bytes_with_limits(assemble(&metadata, &[]).into(), &limits),
        Err(Error::TooManyTensors { found: 3, limit: 2 })
    ));

    // A definite map that claims 2^40 entries, with nothing after it: refused
    // on the claim (the default limit), without reserving memory for it.
    let mut huge = text("tensors");
    huge.extend(head(5, 1 << 40));
    let mut metadata = head(5, 1);
    metadata.extend(huge);
    assert!(matches!(
        read(assemble(&metadata, &[])),
        Err(Error::TooManyTensors { found, limit: 100_000 }) if found == 1 << 40
    ));

    // Indefinite-length map (0xBF ... 0xFF): counted as it is read.
    let mut indefinite = vec![0xBF];
    entries.iter().for_each(|(k, v)| {
        indefinite.extend(k);
        indefinite.extend(v);
    });
    indefinite.push(0xFF);
    let metadata = tmap(&[("tensors", indefinite)]);
    assert!(matches!(
        Reader::from_bytes_with_limits(assemble(&metadata, &[]).into(), &limits),
        Err(Error::TooManyTensors { found: 3, limit: 2 })
    ));
    // Within the limit, the indefinite map is fine.
    assert_eq!(read(assemble(&metadata, &[])).map(|r| r.len()).unwrap(), 3);
}

#[test]
fn tensor_size_limit_applies_to_the_declared_span() {
    let limits = ReadLimits {
        max_tensor_bytes: 1024,
        ..ReadLimits::default()
    };
    let file = one_tensor(descriptor(text("U8"), &[2048], 0, 2048), &[(0, &[0; 2048])]);
    assert!(matches!(
        Reader::from_bytes_with_limits(file.clone().into(), &limits),
        Err(Error::TensorTooLarge {
            size: 2048,
            limit: 1024,
            ..
        })
    ));
    assert!(read(file).is_ok());
}

#[test]
fn deep_nesting_is_refused_without_recursing_forever() {
    // 100 000 nested one-element arrays in an unknown key: far deeper than
    // any stack would survive without the limit.
    let depth = 100_000;
    let mut nested = vec![0x81; depth];
    nested.push(0x00);
    let metadata = tmap(&[("tensors", tmap(&[])), ("junk", nested)]);
    assert!(matches!(
        read(assemble(&metadata, &[])),
        Err(Error::MetadataTooDeep { limit: 64 })
    ));

    // Within the limit, unknown nested values are skipped.
    let metadata = tmap(&[
        ("tensors", tmap(&[])),
        ("junk", array(&[array(&[uint(1)])])),
    ]);
    assert!(read(assemble(&metadata, &[])).is_ok());
}

#[test]
fn lying_string_lengths_hit_the_end_of_the_metadata() {
    // A text head claiming 2^62 bytes where a tensor name should be.
    let mut tensors = head(5, 1);
    tensors.extend(head(3, 1 << 62));
    tensors.extend(b"abc");
    let mut metadata = head(5, 1);
    metadata.extend(text("tensors"));
    metadata.extend(tensors);
    assert!(matches!(
        read(assemble(&metadata, &[])),
        Err(Error::MetadataDecode { .. })
    ));
}

#[test]
fn garbage_and_trailing_metadata_bytes_are_refused() {
    // Not CBOR at all.
    assert!(matches!(
        read(assemble(&[0xFF, 0xFF, 0xFF], &[])),
        Err(Error::MetadataDecode { .. })
    ));
    // CBOR, but not a map.
    assert!(matches!(
        read(assemble(&uint(3), &[])),
        Err(Error::MetadataDecode { .. })
    ));
    // `tensors` missing.
    assert!(matches!(
        read(assemble(&tmap(&[]), &[])),
        Err(Error::MetadataDecode { .. })
    ));
    // A valid document followed by bytes the header counts as metadata.
    let mut metadata = tmap(&[("tensors", tmap(&[]))]);
    metadata.extend([0, 0]);
    assert!(matches!(
        read(assemble(&metadata, &[])),
        Err(Error::MetadataTrailingBytes { unused: 2, .. })
    ));
    // Negative offsets, a string shape, a missing field.
    for bad in [
        tmap(&[
            ("dtype", text("U8")),
            ("shape", array(&[uint(1)])),
            ("data_offsets", array(&[head(1, 0), uint(1)])),
        ]),
        tmap(&[
            ("dtype", text("U8")),
            ("shape", text("1")),
            ("data_offsets", array(&[uint(0), uint(1)])),
        ]),
        tmap(&[("dtype", text("U8")), ("shape", array(&[uint(1)]))]),
        tmap(&[
            ("dtype", text("U8")),
            ("shape", array(&[uint(1)])),
            ("data_offsets", array(&[uint(0)])),
        ]),
    ] {
        assert!(matches!(
            read(one_tensor(bad, &[(0, &[1])])),
            Err(Error::MetadataDecode { .. })
        ));
    }
}
