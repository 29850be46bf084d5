//! Hostile and broken files: each is a `Result` error naming the file, the
//! tensor and the problem; nothing panics and nothing allocates what a file
//! merely claims.

mod common;

use burn::module::{Module, Param};
use burn_core as burn;
use burn_store::pytorch::PytorchReader;
use burn_store::{
    ApplyError, ModuleSnapshot, ModuleStore, PytorchStore, SafetensorsStore, StoreError,
};
use burn_tensor::{Device, Int, Tensor};
use common::craft::{
    Entry, Pickle, Spec, f32_bytes, safetensors, state_dict, torch_zip, zip, zip_with,
};
use common::{data, scratch};

/// Opens `bytes` as a PyTorch file and reads every tensor.
fn read_pt(bytes: Vec<u8>) -> Result<usize, StoreError> {
    let reader = PytorchReader::from_bytes(bytes, None)?;
    let keys = reader.keys();
    for key in &keys {
        reader.get(key).unwrap().to_data()?;
    }
    Ok(keys.len())
}

fn read_st(bytes: Vec<u8>) -> Result<usize, StoreError> {
    let mut store = SafetensorsStore::from_bytes(Some(bytes));
    let tensors = store.get_all_tensors()?;
    for tensor in tensors.values() {
        tensor.to_data()?;
    }
    Ok(tensors.len())
}

fn message(result: Result<usize, StoreError>) -> String {
    match result {
        Ok(n) => panic!("expected an error, read {n} tensors"),
        Err(e) => e.to_string(),
    }
}

fn valid_pt() -> Vec<u8> {
    let pickle = state_dict(&[Spec::f32("w", "0", 4)]);
    torch_zip(&pickle, &[("0", &f32_bytes(&[1.0, 2.0, 3.0, 4.0]))])
}

#[test]
fn the_crafted_file_is_valid() {
    assert_eq!(read_pt(valid_pt()).unwrap(), 1);
}

#[test]
fn truncated_files_are_errors() {
    for file in [
        "dtypes.pt",
        "layouts_legacy.pt",
        "dtypes.safetensors",
        "checkpoint.pt",
    ] {
        let bytes = std::fs::read(data(file)).unwrap();
        let step = (bytes.len() / 300).max(1);
        for len in (0..bytes.len()).step_by(step) {
            let cut = bytes[..len].to_vec();
            let result = if file.ends_with(".safetensors") {
                read_st(cut)
            } else {
                read_pt(cut)
            };
            assert!(result.is_err(), "{file} cut to {len} bytes was read");
        }
    }
}

#[test]
fn errors_name_the_file() {
    let dir = scratch("errors-name-the-file");
    let path = dir.join("broken.pt");
    let mut bytes = std::fs::read(data("dtypes.pt")).unwrap();
    bytes.truncate(bytes.len() / 2);
    std::fs::write(&path, bytes).unwrap();
    let err = PytorchReader::new(&path).unwrap_err().to_string();
    assert!(err.contains("broken.pt"), "{err}");
    let err = PytorchReader::new(dir.join("absent.pt"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("absent.pt") && err.contains("open"), "{err}");
}

#[test]
fn a_storage_claiming_more_than_its_entry() {
    let pickle = state_dict(&[Spec::f32("w", "0", 1_000_000)]);
    let err = message(read_pt(torch_zip(&pickle, &[("0", &[0u8; 16])])));
    assert!(
        err.contains("storage `0` declares 4000000 bytes, the file holds 16"),
        "{err}"
    );
}

#[test]
fn offsets_and_strides_past_the_storage() {
    let storage = f32_bytes(&[0.0; 4]);
    // Inside the file (the next entry's bytes follow) but past the storage.
    let offset = Spec {
        offset: 3,
        shape: vec![2],
        ..Spec::f32("shifted", "0", 4)
    };
    let err = message(read_pt(torch_zip(
        &state_dict(&[offset]),
        &[("0", &storage), ("1", &[0; 64])],
    )));
    assert!(err.contains("tensor `shifted` needs bytes"), "{err}");

    let strided = Spec {
        shape: vec![2, 2],
        stride: vec![10, 1],
        ..Spec::f32("strided", "0", 4)
    };
    let err = message(read_pt(torch_zip(
        &state_dict(&[strided]),
        &[("0", &storage), ("1", &[0; 64])],
    )));
    assert!(err.contains("`strided`"), "{err}");

    let huge = Spec {
        shape: vec![1 << 62, 1 << 62],
        stride: vec![1 << 62, 1],
        ..Spec::f32("huge", "0", 4)
    };
    let err = message(read_pt(torch_zip(&state_dict(&[huge]), &[("0", &storage)])));
    assert!(err.contains("`huge`"), "{err}");
}

#[test]
fn expanded_views_cannot_claim_unbounded_memory() {
    let spec = Spec {
        shape: vec![1 << 40],
        stride: vec![0],
        ..Spec::f32("wide", "0", 1)
    };
    let err = message(read_pt(torch_zip(
        &state_dict(&[spec]),
        &[("0", &f32_bytes(&[1.0]))],
    )));
    assert!(err.contains("`wide`") && err.contains("64 times"), "{err}");
    // A small expansion, as torch.save writes for `expand`, reads fine.
    let spec = Spec {
        shape: vec![3, 2],
        stride: vec![0, 1],
        ..Spec::f32("rows", "0", 2)
    };
    assert_eq!(
        read_pt(torch_zip(
            &state_dict(&[spec]),
            &[("0", &f32_bytes(&[1.0, 2.0]))]
        ))
        .unwrap(),
        1
    );
}

#[test]
fn overlapping_zip_entries() {
    let pickle = state_dict(&[Spec::f32("w", "0", 1)]);
    let storage = f32_bytes(&[1.0]);
    let entries = [
        Entry::stored("archive/data.pkl", &pickle),
        Entry::stored("archive/data/0", &storage),
    ];
    // The storage's central record points into the pickle's bytes.
    let bytes = zip_with(&entries, |i, offset| if i == 1 { 4 } else { offset });
    let err = message(read_pt(bytes));
    assert!(err.contains("zip"), "{err}");
    // Both records point at the same local header.
    let bytes = zip_with(&entries, |_, _| 0);
    let err = message(read_pt(bytes));
    assert!(
        err.contains("overlap") || err.contains("twice") || err.contains("declares"),
        "{err}"
    );
}

#[test]
fn compressed_entries_and_big_endian_files() {
    let pickle = state_dict(&[]);
    let bytes = zip(&[Entry {
        method: 8,
        ..Entry::stored("archive/data.pkl", &pickle)
    }]);
    assert!(message(read_pt(bytes)).contains("compressed (method 8)"));
    let bytes = zip(&[
        Entry::stored("archive/data.pkl", &pickle),
        Entry::stored("archive/byteorder", b"big"),
    ]);
    assert!(message(read_pt(bytes)).contains("big-endian"));
}

#[test]
fn deep_and_cyclic_pickles() {
    let depth = 100_000;
    let mut p = Pickle::new();
    p.0.extend(std::iter::repeat_n(b']', depth));
    p.0.extend(std::iter::repeat_n(b'a', depth - 1));
    let err = message(read_pt(torch_zip(&p.finish(), &[])));
    assert!(err.contains("deeper than 128"), "{err}");
    // d = {}; d["self"] = d
    let cyclic = Pickle::new()
        .op(b"}q\x00")
        .str("self")
        .op(b"h\x00s")
        .finish();
    let err = message(read_pt(torch_zip(&cyclic, &[])));
    assert!(err.contains("deeper than"), "{err}");
}

#[test]
fn huge_declared_lengths() {
    for op in [
        &b"X\xff\xff\xff\xff"[..],
        b"\x8d\xff\xff\xff\xff\xff\xff\xff\x7f",
        b"\x8e\0\0\0\0\0\0\0\x10",
    ] {
        let pickle = Pickle::new().op(op).finish();
        let err = message(read_pt(torch_zip(&pickle, &[])));
        assert!(err.contains("truncated"), "{err}");
    }
}

#[test]
fn other_globals_are_refused_by_name() {
    let pickle = Pickle::new()
        .global("os", "system")
        .str("echo hi")
        .op(b"\x85R")
        .finish();
    let err = message(read_pt(torch_zip(&pickle, &[])));
    assert!(err.contains("global `os.system` is refused"), "{err}");
    let pickle = Pickle::new().global("builtins", "eval").finish();
    assert!(message(read_pt(torch_zip(&pickle, &[]))).contains("builtins.eval"));
}

#[test]
fn safetensors_headers_that_lie() {
    let data = f32_bytes(&[1.0, 2.0]);
    let ok = r#"{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}"#;
    assert_eq!(read_st(safetensors(ok, &data)).unwrap(), 1);

    // A header length past the end of the file.
    let mut bytes = safetensors(ok, &data);
    bytes[..8].copy_from_slice(&(1u64 << 40).to_le_bytes());
    assert!(message(read_st(bytes)).contains("safetensors <memory>"));
    // Offsets past the data, and a shape that disagrees with them.
    let past = r#"{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,800]}}"#;
    assert!(read_st(safetensors(past, &data)).is_err());
    let shape = r#"{"w":{"dtype":"F32","shape":[1000],"data_offsets":[0,8]}}"#;
    assert!(read_st(safetensors(shape, &data)).is_err());
    // A dtype Burn has no equivalent for.
    let f8 = r#"{"w":{"dtype":"F8_E4M3","shape":[8],"data_offsets":[0,8]}}"#;
    let err = message(read_st(safetensors(f8, &data)));
    assert!(err.contains("tensor `w` has dtype F8_E4M3"), "{err}");
}

#[derive(Module, Debug)]
struct Counts {
    w: Param<Tensor<1, Int>>,
    v: Param<Tensor<1>>,
}

#[test]
fn dtypes_and_shapes_the_module_cannot_take() {
    let dir = scratch("dtypes-module-cannot-take");
    let path = dir.join("mismatch.pt");
    let pickle = state_dict(&[Spec::f32("w", "0", 4), Spec::f32("v", "1", 3)]);
    let file = torch_zip(
        &pickle,
        &[("0", &f32_bytes(&[0.0; 4])), ("1", &f32_bytes(&[0.0; 3]))],
    );
    std::fs::write(&path, file).unwrap();

    let device = Device::flex();
    let fresh = || Counts {
        w: Param::from_tensor(Tensor::zeros([4], &device)),
        v: Param::from_tensor(Tensor::zeros([4], &device)),
    };
    let err = fresh()
        .load_from(&mut PytorchStore::from_file(&path))
        .unwrap_err();
    let message = err.to_string();
    assert!(message.contains("mismatch.pt"), "{message}");
    assert!(
        message.contains("`w`: the source holds F32 data, the module parameter is a int tensor"),
        "{message}"
    );
    assert!(
        message.contains("`v`: the source holds shape [3], the module expects [4]"),
        "{message}"
    );

    // Not validated: the result lists both, the parameters keep their values.
    let mut model = fresh();
    let result = model
        .load_from(&mut PytorchStore::from_file(&path).validate(false))
        .unwrap();
    assert!(matches!(result.errors[0], ApplyError::DTypeMismatch { .. }));
    assert!(matches!(result.errors[1], ApplyError::ShapeMismatch { .. }));
    assert!(result.applied.is_empty());
}
