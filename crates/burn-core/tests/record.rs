//! `ModuleRecord`: collecting, loading, ids, every dtype, partial loads,
//! validation and dtype policies.

extern crate burn_core as burn;

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use burn::module::{Module, Param, ParamId};
use burn::record::{DTypePolicy, ModuleRecord, RecordError};
use burn::tensor::{Bool, DType, Int, Tensor, TensorData, bf16, f16};
use common::{Block, Linear, Net, device, values};

/// One parameter of every dtype.
#[derive(Module, Debug)]
struct AllDTypes {
    a_f64: Param<Tensor<1>>,
    a_f32: Param<Tensor<1>>,
    a_f16: Param<Tensor<1>>,
    a_bf16: Param<Tensor<1>>,
    a_i64: Param<Tensor<1, Int>>,
    a_i32: Param<Tensor<1, Int>>,
    a_i16: Param<Tensor<1, Int>>,
    a_i8: Param<Tensor<1, Int>>,
    a_u64: Param<Tensor<1, Int>>,
    a_u32: Param<Tensor<1, Int>>,
    a_u16: Param<Tensor<1, Int>>,
    a_u8: Param<Tensor<1, Int>>,
    a_bool: Param<Tensor<2, Bool>>,
}

/// Values at the edges of each dtype (extremes, a value f32 cannot hold
/// exactly, the largest finite halves), written out by hand.
fn edge_values() -> Vec<TensorData> {
    vec![
        TensorData::from([0.1f64, -1.0e300, f64::MIN_POSITIVE]),
        TensorData::from([0.1f32, f32::MAX, -0.0]),
        TensorData::from([f16::from_f32(0.5), f16::MAX, f16::from_f32(-1.5)]),
        TensorData::from([bf16::from_f32(1.0), bf16::MAX, bf16::from_f32(-3.0)]),
        TensorData::from([i64::MIN, 0, i64::MAX]),
        TensorData::from([i32::MIN, -1, i32::MAX]),
        TensorData::from([i16::MIN, 7, i16::MAX]),
        TensorData::from([i8::MIN, -8, i8::MAX]),
        TensorData::from([0u64, 1, u64::MAX]),
        TensorData::from([0u32, 2, u32::MAX]),
        TensorData::from([0u16, 3, u16::MAX]),
        TensorData::from([0u8, 4, u8::MAX]),
        TensorData::from([[true, false, true], [false, false, true]]),
    ]
}

impl AllDTypes {
    fn from_values(values: Vec<TensorData>) -> Self {
        let device = device();
        let mut it = values.into_iter();
        let mut float = || Param::from_data(it.next().unwrap(), &device);
        let (a_f64, a_f32, a_f16, a_bf16) = (float(), float(), float(), float());
        let mut int = || Param::from_data(it.next().unwrap(), &device);
        let (a_i64, a_i32, a_i16, a_i8) = (int(), int(), int(), int());
        let (a_u64, a_u32, a_u16, a_u8) = (int(), int(), int(), int());
        let a_bool = Param::from_data(it.next().unwrap(), &device);
        Self {
            a_f64,
            a_f32,
            a_f16,
            a_bf16,
            a_i64,
            a_i32,
            a_i16,
            a_i8,
            a_u64,
            a_u32,
            a_u16,
            a_u8,
            a_bool,
        }
    }

    /// Zeros of the device's default dtypes, shaped like `edge_values`.
    fn zeros() -> Self {
        let device = device();
        let f = || Param::from_tensor(Tensor::<1>::zeros([3], &device));
        let i = || Param::from_tensor(Tensor::<1, Int>::zeros([3], &device));
        Self {
            a_f64: f(),
            a_f32: f(),
            a_f16: f(),
            a_bf16: f(),
            a_i64: i(),
            a_i32: i(),
            a_i16: i(),
            a_i8: i(),
            a_u64: i(),
            a_u32: i(),
            a_u16: i(),
            a_u8: i(),
            a_bool: Param::from_tensor(Tensor::zeros([2, 3], &device)),
        }
    }
}

fn data_of(record: &ModuleRecord) -> Vec<TensorData> {
    record.entries().iter().map(|e| e.data.clone()).collect()
}

#[test]
fn every_dtype_round_trips_bit_for_bit_with_its_id() {
    let source = AllDTypes::from_values(edge_values());
    let record = source.clone().into_record();

    let paths: Vec<&str> = record.entries().iter().map(|e| e.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "a_f64", "a_f32", "a_f16", "a_bf16", "a_i64", "a_i32", "a_i16", "a_i8", "a_u64",
            "a_u32", "a_u16", "a_u8", "a_bool"
        ]
    );
    for (recorded, expected) in data_of(&record).iter().zip(edge_values()) {
        recorded.assert_eq(&expected, true);
    }

    let loaded = AllDTypes::zeros().load_record(record);
    let reloaded = loaded.clone().into_record();
    for (recorded, expected) in data_of(&reloaded).iter().zip(edge_values()) {
        recorded.assert_eq(&expected, true);
    }
    assert_eq!(loaded.a_bf16.dtype(), DType::BF16);
    assert_eq!(loaded.a_u16.dtype(), DType::U16);
    assert_eq!(loaded.a_f64.id, source.a_f64.id);
    assert_eq!(loaded.a_bool.id, source.a_bool.id);
}

#[test]
fn nested_optional_and_vector_submodules_round_trip() {
    let source = Net::new(0.25);
    let record = source.clone().into_record();
    assert_eq!(
        record.len(),
        13,
        "13 tensor parameters, the flag is not recorded"
    );

    let target = Net::new(-4.0);
    let target_ids: Vec<ParamId> = target
        .clone()
        .into_record()
        .entries()
        .iter()
        .map(|e| e.id)
        .collect();
    let loaded = target.load_record(record.clone());

    let Block::Stacked { second, .. } = &loaded.blocks[1] else {
        panic!("variant changed")
    };
    assert_eq!(values(&second.weight), vec![0.25; 6]);
    assert_eq!(values(second.bias.as_ref().unwrap()), vec![-0.25; 2]);
    let pair = &loaded.residual.as_ref().unwrap().inner;
    assert_eq!(values(&pair.1.weight), vec![0.25; 4]);

    // Ids come from the record, not from the module loaded into.
    let loaded_ids: Vec<ParamId> = loaded
        .into_record()
        .entries()
        .iter()
        .map(|e| e.id)
        .collect();
    let source_ids: Vec<ParamId> = record.entries().iter().map(|e| e.id).collect();
    assert_eq!(loaded_ids, source_ids);
    assert!(loaded_ids.iter().all(|id| !target_ids.contains(id)));
}

#[test]
fn a_missing_tensor_is_an_error_naming_it_unless_partial_loads_are_allowed() {
    let mut record = Linear::filled(2, 3, true, 1.0).into_record();
    record.remove("bias").unwrap();

    let err = Linear::filled(2, 3, true, 5.0)
        .try_load_record(record.clone())
        .unwrap_err();
    match &err {
        RecordError::MissingTensors { paths } => assert_eq!(paths, &["bias"]),
        other => panic!("unexpected error {other:?}"),
    }
    assert!(err.to_string().contains("bias"), "{err}");

    let loaded = Linear::filled(2, 3, true, 5.0)
        .try_load_record(record.allow_partial(true))
        .unwrap();
    assert_eq!(values(&loaded.weight), vec![1.0; 6]);
    assert_eq!(values(loaded.bias.as_ref().unwrap()), vec![-5.0; 3], "kept");
}

#[test]
fn unused_tensors_are_an_error_naming_them_unless_partial_loads_are_allowed() {
    let record = Linear::filled(2, 3, true, 1.0).into_record();
    let mut extended = record.clone();
    extended.insert("extra.weight", ParamId::new(), TensorData::from([1.0f32]));
    extended.insert("another", ParamId::new(), TensorData::from([2.0f32]));

    let err = Linear::filled(2, 3, true, 0.0)
        .try_load_record(extended.clone())
        .unwrap_err();
    match &err {
        RecordError::UnusedTensors { paths } => assert_eq!(paths, &["extra.weight", "another"]),
        other => panic!("unexpected error {other:?}"),
    }

    // A module without the optional bias: the recorded bias is unused.
    let err = Linear::filled(2, 3, false, 0.0)
        .try_load_record(record.clone())
        .unwrap_err();
    assert!(matches!(&err, RecordError::UnusedTensors { paths } if paths == &["bias"]));

    let loaded = Linear::filled(2, 3, false, 0.0)
        .try_load_record(extended.allow_partial(true))
        .unwrap();
    assert_eq!(values(&loaded.weight), vec![1.0; 6]);
}

#[test]
fn missing_tensors_are_reported_all_at_once_in_traversal_order() {
    let err = Net::new(1.0)
        .try_load_record(ModuleRecord::new())
        .unwrap_err();
    let RecordError::MissingTensors { paths } = err else {
        panic!("unexpected error {err:?}")
    };
    assert_eq!(paths.len(), 13);
    assert_eq!(paths[0], "blocks.0.Dense.weight");
    assert_eq!(paths[12], "mask");
}

#[test]
fn shape_mismatches_are_errors_unless_validation_is_off() {
    let record = Linear::filled(2, 4, true, 1.0).into_record();

    let err = Linear::filled(2, 3, true, 0.0)
        .try_load_record(record.clone())
        .unwrap_err();
    let text = err.to_string();
    assert!(
        matches!(&err, RecordError::ShapeMismatch { path, .. } if path == "weight"),
        "{err:?}"
    );
    assert!(text.contains("[2, 4]") && text.contains("[2, 3]"), "{text}");

    // Without validation the parameter takes the recorded shape.
    let loaded = Linear::filled(2, 3, true, 0.0)
        .try_load_record(record.validate(false))
        .unwrap();
    assert_eq!(loaded.weight.shape().dims, vec![2, 4]);
}

#[test]
fn validation_off_tolerates_missing_and_unused_tensors() {
    let mut record = Linear::filled(2, 3, true, 1.0).into_record();
    record.remove("bias");
    record.insert("unknown", ParamId::new(), TensorData::from([1.0f32]));
    let loaded = Linear::filled(2, 3, true, 7.0)
        .try_load_record(record.validate(false))
        .unwrap();
    assert_eq!(values(&loaded.weight), vec![1.0; 6]);
    assert_eq!(values(loaded.bias.as_ref().unwrap()), vec![-7.0; 3]);
}

#[test]
fn rank_and_kind_mismatches_are_always_errors() {
    let mut record = Linear::filled(2, 3, true, 1.0).into_record();
    record.insert(
        "bias",
        ParamId::new(),
        TensorData::from([[1.0f32, 2.0, 3.0]]),
    );
    let err = Linear::filled(2, 3, true, 0.0)
        .try_load_record(record.validate(false))
        .unwrap_err();
    assert!(
        matches!(err, RecordError::RankMismatch { ref path, expected: 1, found: 2 } if path == "bias"),
        "{err:?}"
    );

    let mut record = Linear::filled(2, 3, true, 1.0).into_record();
    record.insert("bias", ParamId::new(), TensorData::from([1i32, 2, 3]));
    let err = Linear::filled(2, 3, true, 0.0)
        .try_load_record(record.cast_to_module_dtype())
        .unwrap_err();
    assert!(
        matches!(err, RecordError::KindMismatch { ref path, expected: "float", found: DType::I32 } if path == "bias"),
        "{err:?}"
    );
    assert!(err.to_string().contains("i32"), "{err}");
}

#[test]
#[should_panic(
    expected = "load_record: the record has no tensor for these module parameters: weight, bias"
)]
fn load_record_panics_with_the_error() {
    Linear::filled(1, 1, true, 0.0).load_record(ModuleRecord::new());
}

/// A record for `Linear::filled(2, 2, true, _)` holding f16 data.
fn half_record() -> ModuleRecord {
    let mut record = ModuleRecord::new();
    let h = f16::from_f32;
    record.insert(
        "weight",
        ParamId::new(),
        TensorData::new(vec![h(0.5), h(-1.5), h(2.0), h(65504.0)], [2, 2]),
    );
    record.insert(
        "bias",
        ParamId::new(),
        TensorData::from([h(0.25), h(-0.125)]),
    );
    record
}

#[test]
fn dtype_policy_from_record_takes_the_recorded_dtype() {
    assert_eq!(half_record().dtype_policy(), DTypePolicy::FromRecord);
    let loaded = Linear::filled(2, 2, true, 0.0).load_record(half_record());
    assert_eq!(loaded.weight.dtype(), DType::F16);
    assert_eq!(loaded.bias.as_ref().unwrap().dtype(), DType::F16);
}

#[test]
fn dtype_policy_cast_to_module_keeps_the_module_dtype() {
    let module = Linear {
        weight: Param::from_tensor(Tensor::zeros([2, 2], &device()).cast(DType::F64)),
        bias: Some(Param::from_tensor(Tensor::zeros([2], &device()))),
    };
    let loaded = module.load_record(half_record().cast_to_module_dtype());
    assert_eq!(loaded.weight.dtype(), DType::F64);
    assert_eq!(
        loaded.weight.val().into_data().to_vec::<f64>().unwrap(),
        vec![0.5, -1.5, 2.0, 65504.0]
    );
    assert_eq!(loaded.bias.as_ref().unwrap().dtype(), DType::F32);
    assert_eq!(values(loaded.bias.as_ref().unwrap()), vec![0.25, -0.125]);

    // The same through `with_dtype_policy`.
    let record = half_record().with_dtype_policy(DTypePolicy::CastToModule);
    assert_eq!(record.dtype_policy(), DTypePolicy::CastToModule);
}

#[test]
fn loading_into_lazy_parameters_does_not_run_their_initializers() {
    let runs = Arc::new(AtomicUsize::new(0));
    let counter = runs.clone();
    let lazy = Param::uninitialized(
        ParamId::new(),
        move |device, _| {
            counter.fetch_add(1, Ordering::SeqCst);
            Tensor::<2>::zeros([2, 2], device)
        },
        device(),
        true,
        [2, 2],
    );
    let module = Linear {
        weight: lazy,
        bias: None,
    };
    let mut record = ModuleRecord::new();
    let id = ParamId::new();
    record.insert(
        "weight",
        id,
        TensorData::new(vec![1.0f32, 2.0, 3.0, 4.0], [2, 2]),
    );

    let loaded = module.clone().load_record(record.clone());
    assert_eq!(runs.load(Ordering::SeqCst), 0);
    assert_eq!(loaded.weight.id, id);
    assert_eq!(values(&loaded.weight), vec![1.0, 2.0, 3.0, 4.0]);

    // Casting to the module's dtype has to learn it from the initializer.
    let cast = module.load_record(record.cast_to_module_dtype());
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    assert_eq!(values(&cast.weight), vec![1.0, 2.0, 3.0, 4.0]);
}

#[test]
fn records_compare_and_rebuild_from_entries() {
    let record = Linear::filled(1, 2, true, 3.0).into_record();
    let rebuilt = ModuleRecord::from_entries(record.clone().into_entries());
    assert_eq!(rebuilt, record);

    // A later entry at the same path replaces the earlier one.
    let mut entries = record.clone().into_entries();
    let mut replacement = entries[0].clone();
    replacement.data = TensorData::new(vec![9.0f32, 9.0], [1, 2]);
    entries.push(replacement.clone());
    let rebuilt = ModuleRecord::from_entries(entries);
    assert_eq!(rebuilt.len(), 2);
    assert_eq!(rebuilt.get("weight"), Some(&replacement));
    assert!(!rebuilt.is_empty() && ModuleRecord::default().is_empty());
}

// ------------------------------------------------------------- burnpack

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("burn-core-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn every_dtype_round_trips_through_burnpack_bytes() {
    let record = AllDTypes::from_values(edge_values()).into_record();
    let bytes = record.clone().into_bytes().unwrap();
    assert_eq!(&bytes[..4], b"NRUB", "the burnpack magic, little-endian");

    let read = ModuleRecord::from_bytes(bytes).unwrap();
    assert_eq!(read, record, "paths, ids and data, in order");
    for (entry, expected) in read.entries().iter().zip(edge_values()) {
        entry.data.assert_eq(&expected, true);
    }
}

#[test]
fn save_adds_the_extension_and_load_finds_the_file() {
    let dir = temp_dir("save");
    let source = Net::new(0.75);
    let record = source.clone().into_record();
    record.clone().save(dir.join("net")).unwrap();
    assert!(dir.join("net.bpk").is_file());

    let read = ModuleRecord::load(dir.join("net")).unwrap();
    assert_eq!(read, record);
    let loaded = Net::new(0.0).load_record(read);
    assert_eq!(values(&loaded.heads[1].weight), vec![0.75; 8]);
    assert_eq!(loaded.heads[1].weight.id, source.heads[1].weight.id);

    // An extension of its own is kept.
    record.clone().save(dir.join("net.weights")).unwrap();
    assert!(dir.join("net.weights").is_file());
    assert_eq!(ModuleRecord::load(dir.join("net.weights")).unwrap(), record);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_loaded_record_has_the_default_options() {
    let bytes = Linear::filled(1, 1, true, 1.0)
        .into_record()
        .allow_partial(true)
        .validate(false)
        .cast_to_module_dtype()
        .into_bytes()
        .unwrap();
    let read = ModuleRecord::from_bytes(bytes).unwrap();
    assert!(!read.is_partial_allowed());
    assert!(read.is_validated());
    assert_eq!(read.dtype_policy(), DTypePolicy::FromRecord);
}

#[test]
fn unreadable_packs_are_errors() {
    let missing = temp_dir("missing").join("absent");
    let err = ModuleRecord::load(&missing).unwrap_err();
    assert!(matches!(err, RecordError::Pack(_)), "{err:?}");
    assert!(err.to_string().contains("absent.bpk"), "{err}");

    let err = ModuleRecord::from_bytes(vec![0u8; 64]).unwrap_err();
    assert!(err.to_string().contains("not a burnpack file"), "{err}");
}

#[test]
fn a_pack_written_by_another_tool_loads_with_fresh_ids() {
    use burn::tensor::Shape;
    // Burn's `nn::Linear` layout: weight [d_input, d_output], bias [d_output].
    let weight: Vec<f32> = vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    let bias: Vec<f32> = vec![-1.0, -2.0, -3.0];
    let pack = burn_pack::Writer::new(vec![
        burn_pack::Tensor::new(
            "weight",
            DType::F32,
            Shape::new([2, 3]),
            burn_std::Bytes::from_elems(weight.clone()),
        ),
        burn_pack::Tensor::new(
            "bias",
            DType::F32,
            Shape::new([3]),
            burn_std::Bytes::from_elems(bias.clone()),
        ),
    ])
    .into_bytes()
    .unwrap();

    let record = ModuleRecord::from_bytes(pack).unwrap();
    let (first, second) = (record.entries()[0].id, record.entries()[1].id);
    assert_ne!(first, second);
    let loaded = Linear::filled(2, 3, true, 0.0).load_record(record);
    assert_eq!(values(&loaded.weight), weight);
    assert_eq!(values(loaded.bias.as_ref().unwrap()), bias);
    assert_eq!(loaded.weight.id, first);
}

// ------------------------------------------------- streaming module saves

/// The file names in `dir`, sorted.
fn listing(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[test]
fn save_file_writes_what_into_record_would_record() {
    let dir = temp_dir("save-file");
    // Every kind of parameter, nested containers, enum variants.
    let source = Net::new(1.5);
    source.save_file(dir.join("net")).unwrap();
    assert_eq!(
        listing(&dir),
        ["net.bpk"],
        "extension added, no scratch file left"
    );

    let read = ModuleRecord::load(dir.join("net.bpk")).unwrap();
    assert_eq!(
        read,
        source.clone().into_record(),
        "paths, ids, order and data"
    );

    // The source is only borrowed; its tensors are intact.
    assert_eq!(values(&source.heads[0].weight), vec![1.5; 2]);

    let loaded = Net::new(0.0).load_file(dir.join("net"));
    assert_eq!(values(&loaded.heads[1].weight), vec![1.5; 8]);
    assert_eq!(loaded.counts.id, source.counts.id);
    assert_eq!(
        loaded.mask.val().into_data().to_vec::<bool>().unwrap(),
        vec![true, false, false, true]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn save_file_and_record_save_produce_identical_files() {
    let dir = temp_dir("save-file-bytes");
    let source = AllDTypes::from_values(edge_values());
    source.save_file(dir.join("streamed.bpk")).unwrap();
    source
        .clone()
        .into_record()
        .save(dir.join("recorded.bpk"))
        .unwrap();
    let streamed = std::fs::read(dir.join("streamed.bpk")).unwrap();
    let recorded = std::fs::read(dir.join("recorded.bpk")).unwrap();
    assert_eq!(streamed, recorded);

    let loaded = AllDTypes::zeros().load_file(dir.join("streamed.bpk"));
    for (entry, expected) in loaded.into_record().entries().iter().zip(edge_values()) {
        entry.data.assert_eq(&expected, true);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn save_file_replaces_an_existing_file_and_keeps_a_given_extension() {
    let dir = temp_dir("save-file-replace");
    let path = dir.join("linear.weights");
    Linear::filled(2, 2, true, 1.0).save_file(&path).unwrap();
    Linear::filled(2, 2, false, 2.0).save_file(&path).unwrap();
    assert_eq!(listing(&dir), ["linear.weights"]);

    let record = ModuleRecord::load(&path).unwrap();
    assert_eq!(record.len(), 1, "the second save replaced the first");
    let loaded = Linear::filled(2, 2, false, 0.0).load_record(record);
    assert_eq!(values(&loaded.weight), vec![2.0; 4]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn save_file_initializes_lazy_parameters_and_saves_their_values() {
    let dir = temp_dir("save-file-lazy");
    let id = ParamId::new();
    let lazy = Linear {
        weight: Param::uninitialized(
            id,
            |device, _| Tensor::<2>::full([2, 3], 4.0, device),
            device(),
            true,
            [2, 3],
        ),
        bias: None,
    };
    lazy.save_file(dir.join("lazy")).unwrap();
    assert!(lazy.weight.is_initialized());

    let loaded = Linear::filled(2, 3, false, 0.0).load_file(dir.join("lazy"));
    assert_eq!(values(&loaded.weight), vec![4.0; 6]);
    assert_eq!(loaded.weight.id, id);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn load_file_errors_name_the_file_or_the_mismatch() {
    let dir = temp_dir("load-file");
    let err = Linear::filled(1, 1, true, 0.0)
        .try_load_file(dir.join("absent"))
        .unwrap_err();
    assert!(matches!(err, RecordError::Pack(_)), "{err:?}");
    assert!(err.to_string().contains("absent.bpk"), "{err}");

    Linear::filled(2, 3, true, 1.0)
        .save_file(dir.join("linear"))
        .unwrap();
    let err = Linear::filled(2, 3, false, 0.0)
        .try_load_file(dir.join("linear"))
        .unwrap_err();
    assert!(matches!(&err, RecordError::UnusedTensors { paths } if paths == &["bias"]));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
#[should_panic(expected = "load_file: cannot open")]
fn load_file_panics_with_the_error() {
    // A directory that does not exist: nothing to clean up after the panic.
    let path = std::env::temp_dir()
        .join(format!("burn-core-never-created-{}", std::process::id()))
        .join("absent");
    Linear::filled(1, 1, true, 0.0).load_file(path);
}

// ------------------------------------------------------------ quantization

#[test]
fn quantized_weights_round_trip_through_burnpack_bit_exactly() {
    use burn::module::Quantizer;
    use burn::tensor::quantization::{Calibration, QuantScheme, QuantValue, ScaleDtype};

    let device = device();
    let weight: Vec<f32> = (0..64 * 32)
        .map(|i| ((i * 7 % 29) as f32 - 14.0) / 9.0)
        .collect();
    let source = Linear {
        weight: Param::from_data(TensorData::new(weight, [64, 32]), &device),
        bias: Some(Param::from_data(TensorData::from([0.5f32; 10]), &device)),
    };
    let scheme = QuantScheme::default()
        .with_value(QuantValue::Q4S)
        .per_block([32], ScaleDtype::F16);
    let mut quantizer = Quantizer::new(Calibration::MinMax, scheme);
    let quantized = source.quantize_weights(&mut quantizer);
    // The weight is quantized; the bias of 10 cannot be tiled by blocks of
    // 32 and stays float.
    assert_eq!(quantized.weight.val().dtype(), DType::QFloat(scheme));
    assert_eq!(quantized.bias.as_ref().unwrap().val().dtype(), DType::F32);

    let dir = temp_dir("quantized");
    quantized.save_file(dir.join("q")).unwrap();
    let fresh = Linear {
        weight: Param::from_data(TensorData::zeros::<f32>([64, 32]), &device),
        bias: Some(Param::from_data(TensorData::zeros::<f32>([10]), &device)),
    };
    let loaded = fresh.load_file(dir.join("q"));
    assert_eq!(
        loaded.weight.val().into_data(),
        quantized.weight.val().into_data(),
        "packed values and scales, bit for bit"
    );
    assert_eq!(loaded.weight.val().dtype(), DType::QFloat(scheme));
    std::fs::remove_dir_all(&dir).unwrap();
}
