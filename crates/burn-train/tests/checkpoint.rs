//! The `Checkpoint` trait for each record type, `FileCheckpointer` and
//! `AsyncCheckpointer`.

use burn_core::module::ParamId;
use burn_core::record::ModuleRecord;
use burn_optim::{LrSchedulerRecord, OptimizerRecord};
use burn_tensor::TensorData;
use burn_train::checkpoint::{
    AsyncCheckpointer, Checkpoint, Checkpointer, CheckpointerError, FileCheckpointer,
};
use burn_train::{Interrupter, TrainingError};

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
    assert!(!dir.join("none-1.bpk").exists(), "() must not write a file");
    let () = checkpointer.restore(5).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn delete_is_idempotent_and_missing_files_are_errors() {
    let dir = temp_dir("ckpt-delete");
    let checkpointer = FileCheckpointer::new(&dir, "scheduler");
    checkpointer.save(3, LrSchedulerRecord::new()).unwrap();
    Checkpointer::<LrSchedulerRecord>::delete(&checkpointer, 3).unwrap();
    Checkpointer::<LrSchedulerRecord>::delete(&checkpointer, 3).unwrap();
    let error = Checkpointer::<LrSchedulerRecord>::restore(&checkpointer, 3).unwrap_err();
    assert!(matches!(error, CheckpointerError::Optim(_)), "{error:?}");
    assert!(error.to_string().contains("scheduler-3.bpk"), "{error}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn records_round_trip_through_bytes() {
    let record = LrSchedulerRecord::new().with_scalar("step", 5u64);
    let bytes = record.clone().checkpoint_into_bytes().unwrap();
    let back = LrSchedulerRecord::checkpoint_from_bytes(bytes).unwrap();
    assert_eq!(back, record);
}

#[test]
fn the_async_checkpointer_saves_in_order_and_restores_after_the_saves() {
    let dir = temp_dir("ckpt-async");
    let checkpointer = AsyncCheckpointer::new(FileCheckpointer::new(&dir, "scheduler"));
    for epoch in 1..=3u64 {
        checkpointer
            .save(
                epoch as usize,
                LrSchedulerRecord::new().with_scalar("step", epoch * 10),
            )
            .unwrap();
    }
    // The restore waits for the queued saves.
    let record: LrSchedulerRecord = checkpointer.restore(3).unwrap();
    assert_eq!(record.get("step").map(|s| s.elem::<u64>()), Some(30));
    checkpointer.delete(2).unwrap();
    assert!(!dir.join("scheduler-2.bpk").exists());
    drop(checkpointer);
    assert!(dir.join("scheduler-1.bpk").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_failed_async_save_stops_the_run_through_the_interrupter() {
    // A file where the directory should be: every save fails.
    let dir = temp_dir("ckpt-async-fail");
    std::fs::write(&dir, b"not a directory").unwrap();
    let interrupter = Interrupter::new();
    let checkpointer = AsyncCheckpointer::new(FileCheckpointer::new(&dir, "scheduler"))
        .with_interrupter(interrupter.clone());
    checkpointer.save(1, LrSchedulerRecord::new()).unwrap();
    drop(checkpointer); // waits for the save
    assert!(interrupter.should_stop());
    let error = interrupter.error().expect("the failure is kept");
    assert!(
        matches!(
            *error,
            TrainingError::Checkpoint(CheckpointerError::IOError(_))
        ),
        "{error}"
    );
    assert!(
        interrupter.interruption().is_none(),
        "an error is not a stop"
    );
    std::fs::remove_file(&dir).unwrap();
}
