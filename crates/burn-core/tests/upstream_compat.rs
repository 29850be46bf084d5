//! Files move between upstream Burn and this workspace: burnpack format
//! version 1, Burn's `nn` parameter names and layouts.
//!
//! The oracle is upstream Burn itself (`burn = "=0.23.0-pre.1"` from
//! crates.io), run from a scratch crate outside the workspace:
//! `tests/data/upstream_oracle.rs.txt` is its `main.rs`, with the commands in
//! its header. From the model below (same literals, same ids) it wrote
//!
//! - `tests/data/upstream_burnpack_store.bpk`: burn-store's `BurnpackStore`
//!   (`model.save_into(&mut store)`), which adds `format`, `producer` and
//!   `version` metadata;
//! - `tests/data/upstream_module_record.bpk`: burn-core's
//!   `Module::save_file`, no metadata;
//!
//! and it read back the file `our_file_matches_upstream_tensor_by_tensor_and_byte_for_byte`
//! leaves in `target/tmp/upstream_compat/ours.bpk`, both through
//! `BurnpackStore::load_from` and `ModuleRecord::load`, with every value and
//! id exact.

extern crate burn_core as burn;

mod common;

use std::path::{Path, PathBuf};

use burn::module::{Module, Param, ParamId};
use burn::record::ModuleRecord;
use burn::tensor::{DType, Device, Tensor};
use burn_pack::Reader;
use common::{Linear, device};

/// Burn's `nn::Embedding` layout: weight `[n_embedding, d_model]`.
#[derive(Module, Debug)]
struct Embedding {
    weight: Param<Tensor<2>>,
}

/// The oracle's model: Burn's `nn::Linear` (weight `[d_input, d_output]`,
/// bias `[d_output]`) and `nn::Embedding`.
#[derive(Module, Debug)]
struct Model {
    linear: Linear,
    embedding: Embedding,
}

// The known weights, the same literals as in the oracle. 0.1 and -0.3 are
// not exact in binary: they check that bits survive, not just round values.
const LINEAR_WEIGHT: [[f32; 2]; 3] = [[0.5, -1.0], [1.5, 0.1], [-0.3, 2.0]];
const LINEAR_BIAS: [f32; 2] = [0.25, -0.75];
const EMBEDDING_WEIGHT: [[f32; 3]; 4] = [
    [0.0, 1.0, -1.0],
    [0.125, -0.125, 3.5],
    [1.0e-3, 65504.0, -2.5e-8],
    [7.0, 8.0, 9.0],
];

// Ids above 2^63 check that a u64 keeps its top bit through CBOR.
const LINEAR_WEIGHT_ID: u64 = 0xF000_0000_0000_0001;
const LINEAR_BIAS_ID: u64 = 0x0123_4567_89AB_CDEF;
const EMBEDDING_WEIGHT_ID: u64 = 42;

fn param<const D: usize>(id: u64, tensor: Tensor<D>) -> Param<Tensor<D>> {
    Param::initialized(ParamId::from(id), tensor)
}

fn known(device: &Device) -> Model {
    Model {
        linear: Linear {
            weight: param(LINEAR_WEIGHT_ID, Tensor::from_data(LINEAR_WEIGHT, device)),
            bias: Some(param(
                LINEAR_BIAS_ID,
                Tensor::from_data(LINEAR_BIAS, device),
            )),
        },
        embedding: Embedding {
            weight: param(
                EMBEDDING_WEIGHT_ID,
                Tensor::from_data(EMBEDDING_WEIGHT, device),
            ),
        },
    }
}

/// Same shapes, zero values, fresh ids.
fn zeros(device: &Device) -> Model {
    Model {
        linear: Linear::filled_on(device, 3, 2, true, 0.0),
        embedding: Embedding {
            weight: Param::from_tensor(Tensor::zeros([4, 3], device)),
        },
    }
}

fn data_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn bits<const D: usize>(param: &Param<Tensor<D>>) -> Vec<u32> {
    let values = param.val().into_data().to_vec::<f32>().unwrap();
    values.iter().map(|v| v.to_bits()).collect()
}

fn bits_of<const N: usize>(rows: &[[f32; N]]) -> Vec<u32> {
    rows.iter().flatten().map(|v| v.to_bits()).collect()
}

/// Every value, bit for bit, and every id of `loaded` are the known ones.
fn assert_known(loaded: &Model, source: &str) {
    let bias = loaded.linear.bias.as_ref().expect("bias");
    assert_eq!(
        bits(&loaded.linear.weight),
        bits_of(&LINEAR_WEIGHT),
        "{source}"
    );
    assert_eq!(bits(bias), bits_of(&[LINEAR_BIAS]), "{source}");
    assert_eq!(
        bits(&loaded.embedding.weight),
        bits_of(&EMBEDDING_WEIGHT),
        "{source}"
    );
    assert_eq!(loaded.linear.weight.id.val(), LINEAR_WEIGHT_ID, "{source}");
    assert_eq!(bias.id.val(), LINEAR_BIAS_ID, "{source}");
    assert_eq!(
        loaded.embedding.weight.id.val(),
        EMBEDDING_WEIGHT_ID,
        "{source}"
    );
}

const UPSTREAM_FILES: [&str; 2] = ["upstream_burnpack_store.bpk", "upstream_module_record.bpk"];

#[test]
fn upstream_files_load_with_exact_values_and_ids() {
    for name in UPSTREAM_FILES {
        let path = data_file(name);
        let loaded = zeros(&device()).try_load_file(&path).unwrap();
        assert_known(&loaded, name);

        // The same through the record, which also shows what the file holds.
        let record = ModuleRecord::load(&path).unwrap();
        let described: Vec<(&str, DType, &[usize])> = record
            .entries()
            .iter()
            .map(|e| (e.path.as_str(), e.data.dtype, e.data.shape.dims.as_slice()))
            .collect();
        assert_eq!(
            described,
            [
                ("linear.weight", DType::F32, &[3, 2][..]),
                ("linear.bias", DType::F32, &[2][..]),
                ("embedding.weight", DType::F32, &[4, 3][..]),
            ],
            "{name}: file (traversal) order, Burn's nn layouts"
        );
        assert_known(&zeros(&device()).load_record(record), name);
    }
}

#[test]
fn upstream_store_metadata_is_read() {
    let reader = Reader::open(data_file("upstream_burnpack_store.bpk")).unwrap();
    let metadata: Vec<(&str, &str)> = reader
        .metadata()
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        metadata,
        [
            ("format", "burnpack"),
            ("producer", "burn"),
            ("version", "0.23.0-pre.1"),
        ]
    );
    let record_file = Reader::open(data_file("upstream_module_record.bpk")).unwrap();
    assert!(record_file.metadata().is_empty() && record_file.scalars().is_empty());
}

/// Where our file is left for the oracle's `check` (see the module docs).
fn ours_path() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("upstream_compat");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("ours.bpk")
}

/// Name, dtype, shape, param id, offset and bytes of every tensor, in file
/// order.
type Described = Vec<(String, DType, Vec<usize>, Option<u64>, u64, Vec<u8>)>;

fn describe(reader: &Reader) -> Described {
    let start = reader.data_section_start();
    reader
        .tensors()
        .map(|t| {
            let bytes = t.bytes().unwrap().to_vec();
            (
                t.name.clone(),
                t.dtype,
                t.shape.dims.clone(),
                t.param_id,
                start,
                bytes,
            )
        })
        .collect()
}

#[test]
fn our_file_matches_upstream_tensor_by_tensor_and_byte_for_byte() {
    let path = ours_path();
    known(&device()).save_file(&path).unwrap();

    let upstream_path = data_file("upstream_module_record.bpk");
    let ours = Reader::open(&path).unwrap();
    let upstream = Reader::open(&upstream_path).unwrap();
    let described = describe(&ours);
    assert_eq!(described, describe(&upstream));

    // What that comparison covered, spelled out: every tensor has its id,
    // f32 little-endian bytes, Burn's nn names and layouts, in traversal order.
    let ids: Vec<Option<u64>> = described.iter().map(|t| t.3).collect();
    assert_eq!(
        ids,
        [
            Some(LINEAR_WEIGHT_ID),
            Some(LINEAR_BIAS_ID),
            Some(EMBEDDING_WEIGHT_ID)
        ]
    );
    let le: Vec<u8> = LINEAR_BIAS.iter().flat_map(|v| v.to_le_bytes()).collect();
    assert_eq!(described[1].5, le);

    // Stronger than the format asks: the files are identical.
    assert_eq!(
        std::fs::read(&path).unwrap(),
        std::fs::read(&upstream_path).unwrap()
    );
    // The file stays for the oracle's `check`.
}

#[test]
fn our_writer_reproduces_the_upstream_store_file_from_its_reader() {
    // Reading upstream's file and writing its tensors and metadata back
    // gives upstream's bytes: same metadata encoding, order and padding.
    let path = data_file("upstream_burnpack_store.bpk");
    let reader = Reader::open(&path).unwrap();
    let metadata = reader.metadata().clone();
    let mut writer = burn_pack::Writer::new(reader.into_tensors());
    for (key, value) in metadata {
        writer = writer.with_metadata(key, value);
    }
    let rewritten = writer.into_bytes().unwrap();
    assert_eq!(&rewritten[..], &std::fs::read(&path).unwrap()[..]);
}

#[test]
fn a_record_of_the_known_model_is_upstream_record_bytes() {
    let bytes = known(&device()).into_record().into_bytes().unwrap();
    let upstream = std::fs::read(data_file("upstream_module_record.bpk")).unwrap();
    assert_eq!(&bytes[..], &upstream[..]);
}
