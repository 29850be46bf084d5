//! `cargo run --release -p guide [-- OPTIONS]`: trains a small CNN on
//! handwritten digits, prints the test accuracy and where the model was
//! saved, then loads it back and classifies a test image.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use burn::data::dataset::Dataset;
use burn::optim::AdamConfig;
use burn::prelude::*;
use guide::data::{self, Images, Source};
use guide::inference;
use guide::model::ModelConfig;
use guide::training::{self, Display, TrainingConfig};

const USAGE: &str = "\
usage: cargo run --release -p guide -- [OPTIONS]

  --dataset auto|mnist|digits  auto (default): MNIST if it can be read or
                               downloaded, else the 8x8 digits shipped here
  --epochs N                   epochs (default 12)
  --artifacts DIR              where logs, checkpoints and the model go
                               (default: <temp dir>/burn-guide)
  --resume EPOCH               continue from that epoch's checkpoint
  --tui | --text               the dashboard or plain text (default: the
                               dashboard on a terminal, text otherwise)
";

struct Options {
    dataset: String,
    epochs: Option<usize>,
    artifacts: PathBuf,
    resume: Option<usize>,
    display: Display,
}

fn parse() -> Result<Options, String> {
    let mut options = Options {
        dataset: "auto".into(),
        epochs: None,
        artifacts: std::env::temp_dir().join("burn-guide"),
        resume: None,
        display: Display::Auto,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--dataset" => options.dataset = value("--dataset")?,
            "--epochs" => {
                options.epochs = Some(
                    value("--epochs")?
                        .parse()
                        .map_err(|e| format!("--epochs: {e}"))?,
                )
            }
            "--artifacts" => options.artifacts = value("--artifacts")?.into(),
            "--resume" => {
                options.resume = Some(
                    value("--resume")?
                        .parse()
                        .map_err(|e| format!("--resume: {e}"))?,
                )
            }
            "--tui" => options.display = Display::Dashboard,
            "--text" => options.display = Display::Text,
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown option {other:?}")),
        }
    }
    Ok(options)
}

fn load_images(choice: &str) -> Result<Images, String> {
    match choice {
        "digits" => Ok(data::digits()),
        "mnist" => data::mnist().map_err(|e| format!("MNIST is not available: {e}")),
        "auto" => Ok(data::mnist().unwrap_or_else(|reason| {
            let first = reason.lines().next().unwrap_or_default();
            println!("MNIST could not be read or downloaded ({first}).");
            println!("Falling back to the handwritten digits shipped in the repository.");
            data::digits()
        })),
        other => Err(format!(
            "--dataset must be auto, mnist or digits, not {other:?}"
        )),
    }
}

fn main() -> ExitCode {
    let options = match parse() {
        Ok(options) => options,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("error: {message}\n");
            }
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let images = match load_images(&options.dataset) {
        Ok(images) => images,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::FAILURE;
        }
    };
    let side = images.source.side();
    let device = Device::default();
    // MNIST is 40 times larger: two epochs already reach about 98 %.
    let default_epochs = match images.source {
        Source::Mnist => 2,
        Source::Digits => 12,
    };
    // ANCHOR: config
    let config = TrainingConfig::new(ModelConfig::new(), AdamConfig::new())
        .with_num_epochs(options.epochs.unwrap_or(default_epochs));
    // ANCHOR_END: config

    println!("Data set: {}", images.source.describe());
    println!(
        "Model: a CNN (2 conv 3x3 + max pool + 2 linear) on {:?}; {} epochs, batch {}",
        device, config.num_epochs, config.batch_size
    );
    println!("Artifacts: {}", options.artifacts.display());

    let started = Instant::now();
    let times = training::EpochTimes::default();
    let result = training::train(
        &options.artifacts,
        &config,
        &images,
        &device,
        options.display,
        options.resume,
        times.clone(),
    );
    if let Some(error) = &result.error {
        eprintln!("error: training failed: {error}");
        return ExitCode::FAILURE;
    }
    let seconds = started.elapsed().as_secs_f64();
    let times = times.lock().expect("the timer's lock").clone();
    let last_epoch = times.last().map_or(0, |&(epoch, _, _)| epoch);
    if let Some(interruption) = &result.interrupted {
        println!(
            "Training stopped ({}) in epoch {last_epoch}; the checkpoints of the finished epochs are in {}",
            interruption.reason.as_deref().unwrap_or("by request"),
            options.artifacts.join("checkpoint").display()
        );
    } else {
        println!(
            "Training done: {} epoch(s) run, up to epoch {last_epoch}, in {seconds:.1} s",
            times.len()
        );
    }
    for &(epoch, secs, items) in &times {
        println!(
            "  epoch {epoch}: {secs:.2} s, {:.0} images/s",
            items as f64 / secs
        );
    }

    // ANCHOR: save
    let model_path = training::model_path(&options.artifacts);
    if let Err(error) = result.model.save_file(&model_path) {
        eprintln!("error: the model could not be saved: {error}");
        return ExitCode::FAILURE;
    }
    let (correct, total) = inference::evaluate(&result.model, &images.test, side, &device);
    // ANCHOR_END: save
    println!(
        "Test accuracy: {:.2} % ({correct}/{total} test images of {})",
        100.0 * correct as f64 / total as f64,
        match images.source {
            Source::Mnist => "MNIST",
            Source::Digits => "the shipped 8x8 digits",
        }
    );
    println!("Model saved to {}", model_path.display());

    // ANCHOR: reload
    // Inference from the file, as a separate program would do it.
    let model = match inference::load(&config.model, &model_path, &device) {
        Ok(model) => model,
        Err(error) => {
            eprintln!("error: the saved model could not be loaded: {error}");
            return ExitCode::FAILURE;
        }
    };
    let index = 7;
    let item = images
        .test
        .get(index)
        .expect("the test set has more than 7 images");
    let predicted = inference::classify(&model, &item, side, &device);
    // ANCHOR_END: reload
    println!(
        "Loaded the model back; test image #{index} (label {}):",
        item.label
    );
    print!("{}", inference::ascii(&item, side));
    println!(
        "Predicted: {predicted} ({})",
        if predicted == usize::from(item.label) {
            "correct"
        } else {
            "wrong"
        }
    );
    ExitCode::SUCCESS
}
