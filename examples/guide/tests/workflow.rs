//! The guide's workflow on the shipped digits, shortened to two epochs:
//! training learns, the saved model loads back and predicts the same.

use burn::data::dataset::Dataset;
use burn::optim::AdamConfig;
use burn::prelude::*;
use guide::data;
use guide::inference;
use guide::model::ModelConfig;
use guide::training::{self, Display, TrainingConfig};

#[test]
fn two_epochs_learn_and_the_saved_model_predicts_the_same() {
    let images = data::digits();
    assert_eq!((images.train.len(), images.test.len()), (1438, 359));
    let artifacts = std::env::temp_dir().join(format!("guide-test-{}", std::process::id()));
    let device = Device::flex();
    let config = TrainingConfig::new(ModelConfig::new(), AdamConfig::new()).with_num_epochs(2);

    let times = training::EpochTimes::default();
    let result = training::train(
        &artifacts,
        &config,
        &images,
        &device,
        Display::Text,
        None,
        times.clone(),
    );
    assert!(result.error.is_none(), "{:?}", result.error);
    let epochs: Vec<usize> = times.lock().unwrap().iter().map(|t| t.0).collect();
    assert_eq!(epochs, [1, 2]);
    let (correct, total) = inference::evaluate(&result.model, &images.test, 8, &device);
    // Chance is 10 %; two epochs reach about 97 % (92 % after one).
    assert!(correct * 100 > total * 90, "{correct}/{total}");
    assert!(artifacts.join("checkpoint/model-2.bpk").is_file());

    let path = training::model_path(&artifacts);
    result.model.save_file(&path).unwrap();
    let loaded = inference::load(&config.model, &path, &device).unwrap();
    for index in 0..10 {
        let item = images.test.get(index).unwrap();
        assert_eq!(
            inference::classify(&loaded, &item, 8, &device),
            inference::classify(&result.model, &item, 8, &device)
        );
    }
    std::fs::remove_dir_all(&artifacts).unwrap();
}
