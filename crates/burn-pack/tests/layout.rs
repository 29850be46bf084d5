//! The exact bytes of a pack, built by hand from the format description
//! (header, CBOR per RFC 8949, 256-byte alignment) and compared with what the
//! writer produces; and files other writers could produce, read back.

mod common;

use burn_pack::{Error, Reader, Tensor, Writer};
use burn_std::{BoolStore, Bytes, DType, Scalar};
use common::assemble;
use common::cbor::{array, descriptor, neg, text, tmap, uint};

fn bool_native() -> Vec<u8> {
    tmap(&[("Bool", text("Native"))])
}

/// Two tensors written `w` then `b`, user metadata and an integer scalar.
fn hand_built() -> Vec<u8> {
    // `w`: f32 [2] = [1.0, 2.0] at data offset 0..8.
    // `b`: bool [3] = [1, 0, 1], param_id 7, at the next multiple of 256: 256..259.
    let b = {
        let mut d = descriptor(bool_native(), &[3], 256, 259);
        // A map of 3 pairs becomes one of 4 with `param_id` appended.
        d[0] = 0xA4;
        d.extend(text("param_id"));
        d.extend(uint(7));
        d
    };
    let w = descriptor(text("F32"), &[2], 0, 8);
    // Keys of `tensors` sorted: "b" < "w".
    let metadata = tmap(&[
        ("tensors", tmap(&[("b", b), ("w", w)])),
        ("metadata", tmap(&[("k", text("v"))])),
        ("scalars", tmap(&[("n", tmap(&[("Int", neg(-2))]))])),
    ]);

    let w_bytes: Vec<u8> = [1.0f32, 2.0].iter().flat_map(|v| v.to_le_bytes()).collect();
    assemble(&metadata, &[(0, &w_bytes), (256, &[1, 0, 1])])
}

#[test]
fn writer_matches_hand_built_file() {
    let expected = hand_built();
    // Spot-check the hand encoder against literal bytes of the spec.
    assert_eq!(&expected[..4], b"NRUB");
    assert_eq!(&expected[4..6], &[1, 0]);
    assert_eq!(text("F32"), [0x63, b'F', b'3', b'2']);
    assert_eq!(neg(-2), [0x21]);
    assert_eq!(uint(256), [0x19, 0x01, 0x00]);

    let metadata_len = u32::from_le_bytes(expected[6..10].try_into().unwrap()) as usize;
    let data_start = (10 + metadata_len).div_ceil(256) * 256;
    assert_eq!(
        expected.len(),
        data_start + 259,
        "no padding after the last tensor"
    );

    let written = Writer::new(vec![
        Tensor::new("w", DType::F32, [2], Bytes::from_elems(vec![1.0f32, 2.0])),
        Tensor::new("b", DType::Bool(BoolStore::Native), [3], vec![1u8, 0, 1]).with_param_id(7),
    ])
    .with_metadata("k", "v")
    .with_scalar("n", -2i64)
    .into_bytes()
    .unwrap();
    assert_eq!(written.as_slice(), expected.as_slice());
}

#[test]
fn reader_reads_hand_built_file() {
    let reader = Reader::from_bytes(hand_built().into()).unwrap();
    let names: Vec<_> = reader.names().collect();
    assert_eq!(names, ["w", "b"], "file order follows the data offsets");
    let w = reader.get("w").unwrap();
    assert_eq!(w.dtype, DType::F32);
    assert_eq!(w.shape.dims, [2]);
    assert_eq!(w.param_id, None);
    assert_eq!(
        reader.read_bytes("w").unwrap().as_slice_of::<f32>(),
        [1.0, 2.0]
    );
    let b = reader.get("b").unwrap();
    assert_eq!(b.dtype, DType::Bool(BoolStore::Native));
    assert_eq!(b.param_id, Some(7));
    assert_eq!(b.bytes(), Some(&[1u8, 0, 1][..]));
    assert_eq!(reader.metadata()["k"], "v");
    assert_eq!(reader.scalar("n"), Some(Scalar::Int(-2)));
    assert!(reader.data_section_start().is_multiple_of(256));
}

#[test]
fn float_scalars_use_the_shortest_exact_width_and_any_width_reads() {
    // RFC 8949 §4.1 preferred serialization: 0.5 fits a half (0xF9 0x3800);
    // 0.1 needs a double (0xFB + 8 bytes).
    let half = [0xF9, 0x38, 0x00].to_vec();
    let mut double = vec![0xFB];
    double.extend_from_slice(&0.1f64.to_bits().to_be_bytes());
    let metadata = tmap(&[
        ("tensors", tmap(&[])),
        (
            "scalars",
            tmap(&[
                ("a", tmap(&[("Float", half)])),
                ("b", tmap(&[("Float", double)])),
            ]),
        ),
    ]);
    // No tensors: the writer still pads the file up to the data section.
    let mut expected = assemble(&metadata, &[]);
    expected.resize(expected.len().div_ceil(256) * 256, 0);

    let written = Writer::new(vec![])
        .with_scalar("a", 0.5f64)
        .with_scalar("b", 0.1f64)
        .into_bytes()
        .unwrap();
    assert_eq!(written.as_slice(), expected.as_slice());

    // A single-precision encoding of 0.5 (0xFA 0x3F000000) is valid CBOR too.
    let metadata = tmap(&[
        ("tensors", tmap(&[])),
        (
            "scalars",
            tmap(&[("a", tmap(&[("Float", vec![0xFA, 0x3F, 0, 0, 0])]))]),
        ),
    ]);
    let reader = Reader::from_bytes(assemble(&metadata, &[]).into()).unwrap();
    assert_eq!(reader.scalar("a"), Some(Scalar::Float(0.5)));
}

#[test]
fn files_without_trailing_padding_are_accepted() {
    // Metadata only, file ends right after it.
    let metadata = tmap(&[("tensors", tmap(&[]))]);
    let reader = Reader::from_bytes(assemble(&metadata, &[]).into()).unwrap();
    assert!(reader.is_empty());

    // Only an empty tensor, file ends right after the metadata.
    let metadata = tmap(&[(
        "tensors",
        tmap(&[("e", descriptor(text("F32"), &[0, 4], 0, 0))]),
    )]);
    let reader = Reader::from_bytes(assemble(&metadata, &[]).into()).unwrap();
    assert_eq!(reader.get("e").unwrap().bytes(), Some(&[][..]));

    // An empty tensor after the last data, at the aligned offset a writer
    // gives it, in a file cut right after the data.
    let metadata = tmap(&[(
        "tensors",
        tmap(&[
            ("a", descriptor(text("U8"), &[5], 0, 5)),
            ("z", descriptor(text("U8"), &[0], 256, 256)),
        ]),
    )]);
    let reader = Reader::from_bytes(assemble(&metadata, &[(0, &[1, 2, 3, 4, 5])]).into()).unwrap();
    assert_eq!(reader.names().collect::<Vec<_>>(), ["a", "z"]);
}

#[test]
fn unsorted_maps_unknown_keys_and_null_param_id_are_accepted() {
    let mut with_extra = descriptor(text("U16"), &[1], 0, 2);
    with_extra[0] = 0xA5; // 3 pairs + param_id + an unknown key
    with_extra.extend(text("param_id"));
    with_extra.push(0xF6); // null
    with_extra.extend(text("future"));
    with_extra.extend(array(&[uint(1), tmap(&[("x", uint(2))])]));
    let metadata = tmap(&[
        ("future_top_level", text("ignored")),
        (
            "tensors",
            tmap(&[
                ("z", with_extra),
                ("a", descriptor(text("I8"), &[2], 256, 258)),
            ]),
        ),
    ]);
    let file = assemble(&metadata, &[(0, &[7, 0]), (256, &[0xFF, 1])]);
    let reader = Reader::from_bytes(file.into()).unwrap();
    assert_eq!(reader.names().collect::<Vec<_>>(), ["z", "a"]);
    assert_eq!(reader.get("z").unwrap().param_id, None);
    assert_eq!(reader.get("a").unwrap().bytes(), Some(&[0xFF, 1][..]));
}

#[test]
fn header_fields_are_checked() {
    let good = hand_built();

    let mut bad_magic = good.clone();
    bad_magic[0..4].copy_from_slice(b"BURN"); // big-endian spelling is not the format
    assert!(matches!(
        Reader::from_bytes(bad_magic.into()),
        Err(Error::BadMagic {
            found: 0x4E52_5542,
            expected: 0x4255_524E
        })
    ));

    let mut version = good.clone();
    version[4..6].copy_from_slice(&2u16.to_le_bytes());
    assert!(matches!(
        Reader::from_bytes(version.into()),
        Err(Error::UnsupportedVersion {
            found: 2,
            supported: 1
        })
    ));

    assert!(matches!(
        Reader::from_bytes(good[..9].to_vec().into()),
        Err(Error::Truncated {
            part: "header",
            needed: 10,
            available: 9
        })
    ));
}
