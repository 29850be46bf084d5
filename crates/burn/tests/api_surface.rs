//! The public names of Burn 0.23 that user code reaches, used the way a
//! user writes them: a rename or a changed signature breaks this build, and
//! each use checks what the name does, not only that it exists.
//!
//! Run with a backend: `cargo test -p burn --features flex --test api_surface`
//! (`network` and `sqlite` add their sections).

#![cfg(feature = "flex")]

use std::future::Future;
use std::task::{Context, Poll, Waker};

use burn::data::dataloader::{Batcher, DataLoaderBuilder};
use burn::data::dataset::{Dataset, DatasetError, InMemDataset};
use burn::grad_clipping::GradientClippingConfig;
use burn::lr_scheduler::LrScheduler;
use burn::module::{Lora, Param};
use burn::optim::decay::WeightDecayConfig;
use burn::optim::momentum::MomentumConfig;
use burn::optim::{AdamConfig, GradientsParams, SgdConfig};
use burn::prelude::*;
use burn::tensor::{Bytes, DeviceType, flex32};

fn values<const D: usize>(tensor: Tensor<D>) -> Vec<f32> {
    tensor.into_data().to_vec::<f32>().unwrap()
}

// ---------------------------------------------------------------- data

/// `Dataset::get` is a `Result`, `iter()` yields `Result`s, and the
/// `dataloader` module re-exports the trait.
#[test]
fn datasets_return_results() {
    struct Halves(usize);
    // Written against `burn::data::dataloader::Dataset`, the re-export.
    impl burn::data::dataloader::Dataset<f32> for Halves {
        fn get(&self, index: usize) -> Result<f32, DatasetError> {
            burn::data::dataset::check_index("Halves", index, self.0);
            Ok(index as f32 / 2.0)
        }
        fn len(&self) -> usize {
            self.0
        }
    }
    let halves = Halves(3);
    assert_eq!(halves.get(2).unwrap(), 1.0);
    let all: Vec<f32> = halves.iter().collect::<Result<_, _>>().unwrap();
    assert_eq!(all, [0.0, 0.5, 1.0]);

    let words = InMemDataset::new(vec!["a".to_string(), "b".to_string()]);
    assert_eq!(words.get_many(vec![1, 0]).unwrap(), ["b", "a"]);
    let error = DatasetError::new(std::io::Error::other("unreadable"));
    assert_eq!(error.to_string(), "unreadable");
}

/// `MnistDataset::train()` / `test()` return the dataset itself.
#[test]
fn mnist_constructors_return_the_dataset() {
    use burn::data::dataset::vision::MnistDataset;
    let train: fn() -> MnistDataset = MnistDataset::train;
    let test: fn() -> MnistDataset = MnistDataset::test;
    let _ = (train, test);
}

#[derive(Clone)]
struct Stack;

impl Batcher<f32, Tensor<1>> for Stack {
    fn batch(&self, items: Vec<f32>, device: &Device) -> Tensor<1> {
        Tensor::from_floats(items.as_slice(), device)
    }
}

/// `DataLoader::iter()` yields `Result<Batch, DatasetError>`.
#[test]
fn data_loader_batches_are_results() {
    let loader = DataLoaderBuilder::new(Stack)
        .batch_size(2)
        .set_device(Device::flex())
        .build(InMemDataset::new(vec![1.0, 2.0, 3.0]));
    let mut sums = Vec::new();
    for batch in loader.iter() {
        let batch: Tensor<1> = batch.unwrap();
        sums.push(batch.sum().into_scalar::<f32>());
    }
    assert_eq!(sums, [3.0, 3.0]);
}

#[cfg(feature = "network")]
#[test]
fn the_downloader_fetches_from_a_local_server() {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let mut stream = listener.incoming().next().unwrap().unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut line = String::new();
        while reader.read_line(&mut line).unwrap() > 2 {
            line.clear();
        }
        stream
            .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nburn!")
            .unwrap();
    });
    let bytes = burn::data::network::downloader::download_file_as_bytes(
        &format!("http://{address}/file"),
        "a file",
    );
    assert_eq!(bytes, b"burn!");
}

// ---------------------------------------------------------- nn, module

/// The prelude brings `nn`; conv, pool and attention are modules.
#[test]
fn nn_through_the_prelude_and_its_modules() {
    let device = Device::flex();
    let linear: nn::Linear = nn::LinearConfig::new(2, 3).init(&device);
    assert_eq!(linear.forward(Tensor::ones([4, 2], &device)).dims(), [4, 3]);

    let conv: nn::conv::Conv2d = nn::conv::Conv2dConfig::new([1, 2], [3, 3]).init(&device);
    let image = Tensor::<4>::ones([1, 1, 5, 5], &device);
    assert_eq!(conv.forward(image.clone()).dims(), [1, 2, 3, 3]);
    let transpose = nn::conv::ConvTranspose2dConfig::new([1, 1], [2, 2]).init(&device);
    assert_eq!(transpose.forward(image.clone()).dims(), [1, 1, 6, 6]);
    let pool = nn::pool::MaxPool2dConfig::new([2, 2])
        .with_strides([2, 2])
        .init();
    assert_eq!(pool.forward(image).dims(), [1, 1, 2, 2]);

    use burn::nn::attention::{SeqLengthOption, generate_padding_mask};
    let padded = generate_padding_mask(
        0,
        vec![vec![4, 5], vec![6]],
        SeqLengthOption::Fixed(3),
        &device,
    );
    assert_eq!(padded.tensor.dims(), [2, 3]);
    let mask = padded.mask.into_data().to_vec::<bool>().unwrap();
    assert_eq!(mask, [false, false, true, false, true, true]);

    let state = nn::LstmState::initial([2, 4], &device);
    let lstm = nn::LstmConfig::new(3, 4, true).init(&device);
    let (output, _) = lstm.forward(Tensor::ones([2, 5, 3], &device), Some(state));
    assert_eq!(output.dims(), [2, 5, 4]);
}

#[derive(Clone, Debug)]
struct Vocabulary(Vec<String>);
burn::empty!(Vocabulary);

#[derive(Module, Debug)]
struct Tagger {
    weight: Param<Tensor<2>>,
    vocabulary: Vocabulary,
}

/// `empty!` makes a constant a module field; `Param::consume` and
/// `from_mapped_value` rebuild a parameter around a new value.
#[test]
fn empty_macro_and_param_round_trip() {
    let device = Device::flex();
    let tagger = Tagger {
        weight: Param::from_tensor(Tensor::ones([2, 2], &device)),
        vocabulary: Vocabulary(vec!["noun".into()]),
    };
    assert_eq!(tagger.num_params(), 4);
    assert_eq!(tagger.vocabulary.0, ["noun"]);

    let original = tagger.weight.id;
    let (id, value, mapper) = tagger.weight.consume();
    assert_eq!(id, original);
    let tripled = Param::from_mapped_value(id, value * 3, mapper);
    assert_eq!(tripled.id, original);
    assert_eq!(values(tripled.val()), [3.0; 4]);
}

#[derive(Module, Debug)]
struct Regression {
    linear: nn::Linear,
}

/// LoRA: only the adapter trains; `valid()` folds it into the weight.
#[test]
fn lora_trains_the_adapter_only() {
    let device = Device::flex().autodiff();
    let model = Regression {
        linear: nn::LinearConfig::new(3, 2).init(&device),
    };
    let base = values(model.linear.weight.val());
    let mut model = model.apply_lora(Lora::new(2, 2.0));
    let mut optimizer = SgdConfig::new().init();
    let x = Tensor::<2>::ones([4, 3], &device);
    for _ in 0..3 {
        let loss = model.linear.forward(x.clone()).square().mean();
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        model = optimizer.step(0.1, model, grads);
    }
    assert_eq!(
        values(model.linear.weight.base()),
        base,
        "the base is frozen"
    );
    let adapter = model
        .linear
        .weight
        .adapter()
        .expect("the weight is adapted");
    assert!(
        values(adapter.b.val()).iter().any(|&v| v != 0.0),
        "B trained"
    );
    let effective = values(model.linear.weight.val());
    assert_ne!(effective, base);

    let folded = model.valid();
    assert!(folded.linear.weight.adapter().is_none());
    assert_eq!(values(folded.linear.weight.val()), effective);
}

/// `AutodiffModule`, named as Burn names it: `valid()` cuts the graph,
/// `from_inner` brings a snapshot back to a module that records gradients.
#[test]
fn autodiff_module_valid_and_from_inner() {
    use burn::module::AutodiffModule;
    let device = Device::flex().autodiff();
    let model = Regression {
        linear: nn::LinearConfig::new(2, 2).init(&device),
    };
    fn snapshot<M: AutodiffModule>(module: &M) -> M {
        module.valid()
    }
    let inner = snapshot(&model);
    assert!(!inner.linear.weight.val().is_require_grad());
    let back = <Regression as AutodiffModule>::from_inner(inner);
    assert!(back.linear.weight.val().is_require_grad());
}

// ------------------------------------------------------------- optim

/// `SgdConfig::with_momentum(Some(MomentumConfig { .. }))` and a weight
/// decay: two steps of θ² by hand (θ = 1, lr = 0.1, λ = 0.5, μ = 0.9, no
/// dampening): g₁ = 2.5, θ₁ = 0.75; g₂ = 1.875, v₂ = 0.9·2.5 + 1.875 =
/// 4.125, θ₂ = 0.3375.
#[test]
fn sgd_momentum_and_weight_decay_configs() {
    #[derive(Module, Debug)]
    struct Scalar {
        theta: Param<Tensor<1>>,
    }
    let device = Device::flex().autodiff();
    let mut model = Scalar {
        theta: Param::from_tensor(Tensor::from_data([1.0], &device)),
    };
    let momentum = MomentumConfig {
        momentum: 0.9,
        dampening: 0.0,
        nesterov: false,
    };
    let mut optimizer = SgdConfig::new()
        .with_momentum(Some(momentum))
        .with_weight_decay(Some(WeightDecayConfig::new(0.5)))
        .with_gradient_clipping(None)
        .init();
    let mut trajectory = Vec::new();
    for _ in 0..2 {
        let loss = model.theta.val().square().sum();
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        model = optimizer.step(0.1, model, grads);
        trajectory.push(values(model.theta.val())[0]);
    }
    assert!((trajectory[0] - 0.75).abs() < 1e-6, "{trajectory:?}");
    assert!((trajectory[1] - 0.3375).abs() < 1e-6, "{trajectory:?}");
    assert_eq!(MomentumConfig::new().dampening, 0.1, "Burn's default");

    // Adam's first step moves each weight by about lr, decay or not.
    let mut adam = AdamConfig::new()
        .with_weight_decay(Some(WeightDecayConfig::new(0.01)))
        .with_grad_clipping(Some(GradientClippingConfig::Norm(10.0)))
        .init();
    let loss = model.theta.val().square().sum();
    let before = values(model.theta.val())[0];
    let grads = GradientsParams::from_grads(loss.backward(), &model);
    let model = adam.step(0.01, model, grads);
    assert!((before - values(model.theta.val())[0] - 0.01).abs() < 1e-4);
}

#[test]
fn gradient_clipping_config() {
    let device = Device::flex();
    let clipping = GradientClippingConfig::Norm(1.0).init();
    let clipped = clipping.clip_gradient(Tensor::<1>::from_data([3.0, 4.0], &device));
    clipped
        .into_data()
        .assert_approx_eq::<f32>(&TensorData::from([0.6, 0.8]), Tolerance::default());
    let value = GradientClippingConfig::Value(0.5).init();
    assert_eq!(
        values(value.clip_gradient(Tensor::<1>::from_data([-2.0, 0.1], &device))),
        [-0.5, 0.1]
    );
}

#[test]
fn lr_scheduler_modules_and_the_composed_config() {
    use burn::lr_scheduler::composed::ComposedLrSchedulerConfig;
    use burn::lr_scheduler::cosine::CosineAnnealingLrSchedulerConfig;
    use burn::lr_scheduler::linear::LinearLrSchedulerConfig;
    use burn::lr_scheduler::noam::NoamLrSchedulerConfig;

    // A linear factor 0 → 1 over 2 steps times a cosine from 0.1.
    let mut lr = ComposedLrSchedulerConfig::new()
        .linear(LinearLrSchedulerConfig::new(0.0, 1.0, 2))
        .cosine(CosineAnnealingLrSchedulerConfig::new(0.1, 4))
        .init()
        .unwrap();
    let rates: Vec<f64> = (0..3).map(|_| lr.step()).collect();
    assert_eq!(rates[0], 0.0);
    assert!(rates[1] > 0.0 && rates[1] < 0.1, "{rates:?}");
    let mut noam = NoamLrSchedulerConfig::new(1.0).init();
    assert!(noam.step() > 0.0);
}

// --------------------------------------------------- tensor and device

#[test]
fn device_selectors_enumeration_and_seed() {
    assert_eq!(DeviceIndex::new(2u16), DeviceIndex::Specified(2));
    assert_eq!(DeviceIndex::default(), DeviceIndex::Default);
    assert_eq!(DeviceKind::default(), DeviceKind::DefaultDevice);

    let devices = Device::enumerate(DeviceType::Flex);
    assert_eq!(devices.len(), 1);
    assert_eq!(devices[0], Device::flex());
    let twice = Device::enumerate(DeviceType::Flex | DeviceType::Flex).into_vec();
    assert_eq!(twice.len(), 2);

    let device = Device::flex();
    let draw = || {
        device.seed(7);
        values(Tensor::<1>::random([4], Distribution::Default, &device))
    };
    assert_eq!(draw(), draw());
}

#[test]
fn tensor_data_bytes_slices_and_flex32() {
    let device = Device::flex();
    let x: burn::Tensor<2> = Tensor::<1, Int>::arange(0..6, &device)
        .reshape([2, 3])
        .float();
    assert_eq!(values(x.clone().slice_dim(1, 1..3)), [1.0, 2.0, 4.0, 5.0]);
    assert_eq!(values(x.clone().slice_dim(-2, 1)), [3.0, 4.0, 5.0]);

    let data = x.into_data();
    assert_eq!(
        data.clone().try_into_vec::<f32>().unwrap(),
        [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    );
    assert!(data.try_into_vec::<i32>().is_err());

    let bytes = Bytes::from_elems(vec![1.5f32, -2.0]);
    assert_eq!(bytes.len(), 8);

    let relaxed = TensorData::from([flex32::from_f32(0.25), flex32::from_f64(4.0)]);
    let t = Tensor::<1>::from_data(relaxed, &device);
    assert_eq!(values(t * 2), [0.5, 8.0]);
}

#[test]
fn into_data_async_resolves_to_the_data() {
    let device = Device::flex();
    let tensor = Tensor::<1>::from_data([1.0, 2.0], &device);
    let mut future = std::pin::pin!(tensor.into_data_async());
    let mut context = Context::from_waker(Waker::noop());
    let Poll::Ready(data) = future.as_mut().poll(&mut context) else {
        panic!("the read completes on the first poll")
    };
    assert_eq!(data.unwrap().to_vec::<f32>().unwrap(), [1.0, 2.0]);
}

#[test]
fn runtime_config_and_serde() {
    let config = burn::runtime_config();
    assert_eq!(config.fusion().beam_search.max_blocks, 5);
    let parsed = burn::BurnConfig::from_toml("[fusion.beam_search]\nmax_blocks = 2\n").unwrap();
    assert_eq!(parsed.fusion().beam_search.max_blocks, 2);

    // A type deriving serde through `burn::serde` is a field of a config
    // (whose JSON goes through that same serde): it round-trips.
    #[derive(burn::serde::Serialize, burn::serde::Deserialize, Clone, PartialEq, Debug)]
    #[serde(crate = "burn::serde")]
    struct Point {
        x: i32,
    }
    #[derive(Config, Debug)]
    struct Placed {
        point: Point,
    }
    let placed = Placed::new(Point { x: 3 });
    let json = placed.to_json();
    assert!(json.contains("\"x\": 3"), "{json}");
    assert_eq!(Placed::from_json(&json).unwrap().point, Point { x: 3 });
}

// ---------------------------------------------------------- domain crates

/// `burn::linalg`, `burn::vision` and `burn::signal` under their published
/// paths and signatures (the generics a Burn user writes), each on a case
/// worked by hand.
#[cfg(all(feature = "linalg", feature = "vision", feature = "signal"))]
#[test]
fn domain_modules_answer_under_their_published_paths() {
    use burn::linalg::{Norm, det, solve, vector_norm};
    use burn::signal::rfft;
    use burn::vision::{ConnectedComponents, Connectivity, Nms, NmsOptions};

    let device = Device::flex();
    let a = Tensor::<3>::from_floats([[[2.0, 0.0], [0.0, 4.0]]], &device);
    let d: Tensor<1> = det::<3, 2, 1>(a.clone());
    assert_eq!(values(d), [8.0]);
    // A vector right-hand side: the output rank is D - 1.
    let x: Tensor<2> = solve::<3, 2, 2>(a, Tensor::<2>::from_floats([[2.0, 8.0]], &device));
    assert_eq!(values(x), [1.0, 2.0]);
    let n = vector_norm(Tensor::<1>::from_floats([3.0, 4.0], &device), Norm::L2, 0);
    assert_eq!(values(n), [5.0]);

    let image = Tensor::<2, Bool>::from_data(TensorData::from([[true, false, true]]), &device);
    let labels = image.connected_components(Connectivity::Four);
    let labels = labels.into_data().convert::<i64>().to_vec::<i64>().unwrap();
    assert_eq!(labels, [1, 0, 2]);
    // Boxes 0 and 1 overlap with IoU 0.81: the lower-scored one goes.
    let boxes = Tensor::<2>::from_floats(
        [
            [0.0, 0.0, 10.0, 10.0],
            [1.0, 1.0, 10.0, 10.0],
            [20.0, 20.0, 30.0, 30.0],
        ],
        &device,
    );
    let scores = Tensor::<1>::from_floats([0.9, 0.8, 0.7], &device);
    let options = NmsOptions {
        iou_threshold: 0.5,
        score_threshold: 0.0,
        max_output_boxes: 0,
    };
    let kept = boxes.nms(scores, options);
    assert_eq!(
        kept.into_data().convert::<i64>().to_vec::<i64>().unwrap(),
        [0, 2]
    );

    let (re, im) = rfft(
        Tensor::<1>::from_floats([1.0, 1.0, 1.0, 1.0], &device),
        0,
        None,
    );
    assert_eq!(
        (values(re), values(im)),
        (vec![4.0, 0.0, 0.0], vec![0.0; 3])
    );
}
