//! The `Checkpoint` trait for each record type, and `FileCheckpointer`.

use burn_core::module::ParamId;
use burn_core::record::ModuleRecord;
use burn_optim::{LrSchedulerRecord, OptimizerRecord};
use burn_tensor::TensorData;
use burn_train::checkpoint::{CheckpointError, Checkpointer, FileCheckpointer};

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("burn-train-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn module_record_round_trips_under_name_epoch() {
    let dir = temp_dir("ckpt-module");
    let checkpointer = FileCheckpointer::new(&dir, "model");
    let mut record = ModuleRecord::new();
    record.insert(
        "linear.weight",
        ParamId::from(7),
        TensorData::new(vec![1.0f32, 2.0, 3.0, 4.0], [2, 2]),
    );
    checkpointer.save(2, record.clone()).unwrap();
    assert!(dir.join("model-2.bpk").is_file());

    let loaded: ModuleRecord = checkpointer.restore(2).unwrap();
    let entry = loaded.get("linear.weight").unwrap();
    assert_eq!(entry.id, ParamId::from(7));
    assert_eq!(entry.data.to_vec::<f32>().unwrap(), [1.0, 2.0, 3.0, 4.0]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn optimizer_and_scheduler_records_round_trip() {
    let dir = temp_dir("ckpt-optim");
    let checkpointer = FileCheckpointer::new(&dir, "optim");
    let mut record = OptimizerRecord::default();
    record.tensors.insert(
        "0000000000000007.moment_1".into(),
        TensorData::new(vec![0.5f32, -0.5], [2]),
    );
    record
        .scalars
        .insert("0000000000000007.__rank".into(), 1u64.into());
    checkpointer.save(1, record.clone()).unwrap();
    let loaded: OptimizerRecord = checkpointer.restore(1).unwrap();
    assert_eq!(loaded, record);

    let checkpointer = FileCheckpointer::new(&dir, "scheduler");
    checkpointer
        .save(1, LrSchedulerRecord::new().with_scalar("step", 12u64))
        .unwrap();
    let loaded: LrSchedulerRecord = checkpointer.restore(1).unwrap();
    assert_eq!(loaded.get("step").map(|s| s.elem::<u64>()), Some(12));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unit_state_writes_nothing_and_always_loads() {
    let dir = temp_dir("ckpt-unit");
    let checkpointer = FileCheckpointer::new(&dir, "none");
    checkpointer.save(1, ()).unwrap();
    assert!(!dir.exists(), "() must not create files");
    let () = checkpointer.restore(5).unwrap();
}

#[test]
fn delete_is_idempotent_and_missing_files_are_errors() {
    let dir = temp_dir("ckpt-delete");
    let checkpointer = FileCheckpointer::new(&dir, "scheduler");
    checkpointer.save(3, LrSchedulerRecord::new()).unwrap();
    Checkpointer::<LrSchedulerRecord>::delete(&checkpointer, 3).unwrap();
    Checkpointer::<LrSchedulerRecord>::delete(&checkpointer, 3).unwrap();
    let error = Checkpointer::<LrSchedulerRecord>::restore(&checkpointer, 3).unwrap_err();
    assert!(matches!(error, CheckpointError::Optim { .. }), "{error:?}");
    assert!(error.to_string().contains("scheduler-3.bpk"), "{error}");
    let _ = std::fs::remove_dir_all(&dir);
}
