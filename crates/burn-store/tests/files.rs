//! Files written by PyTorch (`tests/data/generate.py`): every dtype and
//! layout `torch.save` produces, in both containers and pickle protocols 2,
//! 4 and 5, and SafeTensors files; values checked exactly against what
//! PyTorch held (`tests/data/expected.json`).

mod common;

use std::collections::BTreeMap;

use burn_std::{BoolStore, DType};
use burn_store::pytorch::PytorchReader;
use burn_store::{ModuleStore, SafetensorsStore, StoreTensor};
use common::{data, expected};

fn torch_dtype(name: &str) -> DType {
    match name {
        "float32" => DType::F32,
        "float64" => DType::F64,
        "float16" => DType::F16,
        "bfloat16" => DType::BF16,
        "int64" => DType::I64,
        "int32" => DType::I32,
        "int16" => DType::I16,
        "int8" => DType::I8,
        "uint8" => DType::U8,
        "uint16" => DType::U16,
        "uint32" => DType::U32,
        "uint64" => DType::U64,
        "bool" => DType::Bool(BoolStore::Native),
        other => panic!("unknown torch dtype {other}"),
    }
}

/// Every tensor of `tensors` is the one `expected.json` lists for `file`,
/// exactly, and nothing is left over.
fn check_file(file: &str, tensors: &BTreeMap<String, StoreTensor>) {
    let all = expected();
    let listed = all[file]
        .as_object()
        .unwrap_or_else(|| panic!("{file} is not in expected.json"));
    let keys: Vec<&String> = tensors.keys().collect();
    let mut want: Vec<&String> = listed.keys().collect();
    want.sort();
    assert_eq!(keys, want, "{file}: the keys differ");
    for (key, spec) in listed {
        let tensor = &tensors[key];
        let dtype = torch_dtype(spec["dtype"].as_str().unwrap());
        assert_eq!(tensor.dtype(), dtype, "{file}: `{key}` dtype");
        let shape: Vec<usize> = spec["shape"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize)
            .collect();
        assert_eq!(tensor.shape(), shape, "{file}: `{key}` shape");
        let data = tensor
            .to_data()
            .unwrap_or_else(|e| panic!("{file}: `{key}`: {e}"));
        let values = spec["values"].as_array().unwrap();
        assert_eq!(
            data.num_elements(),
            values.len(),
            "{file}: `{key}` element count"
        );
        if dtype.is_float() {
            // Exact, bit for bit: every f16, bf16 and f32 value is an f64.
            let got: Vec<u64> = data.iter::<f64>().map(f64::to_bits).collect();
            let want: Vec<u64> = spec["f64_bits"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap())
                .collect();
            assert_eq!(got, want, "{file}: `{key}` values");
        } else if dtype.is_bool() {
            let got: Vec<i64> = data.iter::<bool>().map(i64::from).collect();
            let want: Vec<i64> = values.iter().map(|v| v.as_i64().unwrap()).collect();
            assert_eq!(got, want, "{file}: `{key}` values");
        } else {
            let got: Vec<i128> = match dtype {
                DType::U64 => data.iter::<u64>().map(i128::from).collect(),
                _ => data.iter::<i64>().map(i128::from).collect(),
            };
            let want: Vec<i128> = values
                .iter()
                .map(|v| i128::from(v.as_i64().unwrap()))
                .collect();
            assert_eq!(got, want, "{file}: `{key}` values");
        }
    }
}

fn pytorch(file: &str) -> BTreeMap<String, StoreTensor> {
    PytorchReader::new(data(file))
        .unwrap_or_else(|e| panic!("{e}"))
        .into_tensors()
}

#[test]
fn every_dtype_zip() {
    check_file("dtypes.pt", &pytorch("dtypes.pt"));
}

#[test]
fn every_dtype_legacy() {
    check_file("dtypes_legacy.pt", &pytorch("dtypes_legacy.pt"));
}

#[test]
fn views_sharing_storages_zip() {
    let tensors = pytorch("layouts.pt");
    // Transposed and sliced views are views of the map, not copies.
    assert!(tensors["transposed"].is_view() && tensors["strided"].is_view());
    check_file("layouts.pt", &tensors);
}

#[test]
fn views_sharing_storages_legacy() {
    check_file("layouts_legacy.pt", &pytorch("layouts_legacy.pt"));
}

#[test]
fn pickle_protocols_4_and_5() {
    check_file("protocol4.pt", &pytorch("protocol4.pt"));
    check_file("protocol5.pt", &pytorch("protocol5.pt"));
}

#[test]
fn nested_checkpoint_with_parameters() {
    check_file("checkpoint.pt", &pytorch("checkpoint.pt"));
    let reader =
        PytorchReader::with_top_level_key(data("checkpoint.pt"), "model_state_dict").unwrap();
    assert_eq!(reader.keys(), ["0.bias", "0.weight", "2.bias", "2.weight"]);
    let err = PytorchReader::with_top_level_key(data("checkpoint.pt"), "state_dict").unwrap_err();
    let message = err.to_string();
    assert!(
        message.contains("checkpoint.pt") && message.contains("model_state_dict"),
        "{message}"
    );
}

#[test]
fn safetensors_written_by_pytorch() {
    let mut store = SafetensorsStore::from_file(data("dtypes.safetensors"));
    let tensors = store.get_all_tensors().unwrap().clone();
    check_file("dtypes.safetensors", &tensors);
}
