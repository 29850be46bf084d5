//! The Quick start of the `burn` crate docs, as written there. The facade
//! runs it as a doctest; here a stand-in `burn` module maps the same paths
//! onto this crate and `burn-core`, so `cargo test -p burn-nn` checks it too.

mod burn {
    pub use burn_core::{module, tensor};

    pub mod nn {
        pub use burn_nn::*;
    }

    pub mod prelude {
        pub use burn_core::module::Module;
        pub use burn_core::tensor::{Device, Tensor};
    }
}

use burn::nn::{Linear, LinearConfig, Relu};
use burn::prelude::*;

#[derive(Module, Debug)]
struct Mlp {
    hidden: Linear,
    activation: Relu,
    output: Linear,
}

impl Mlp {
    fn new(device: &Device) -> Self {
        Self {
            hidden: LinearConfig::new(784, 128).init(device),
            activation: Relu::new(),
            output: LinearConfig::new(128, 10).init(device),
        }
    }

    fn forward(&self, input: Tensor<2>) -> Tensor<2> {
        let x = self.activation.forward(self.hidden.forward(input));
        self.output.forward(x)
    }
}

#[test]
fn the_quick_start_runs() {
    // An enabled backend in priority order (GPUs before CPUs), unless `BURN_DEVICE` names one.
    let device = Device::default();
    let model = Mlp::new(&device);
    let logits = model.forward(Tensor::zeros([32, 784], &device));
    assert_eq!(logits.dims(), [32, 10]);
    // Identical input rows give identical logits.
    let first = logits.clone().narrow(0, 0, 1).into_data();
    assert_eq!(logits.narrow(0, 31, 1).into_data(), first);
    assert_eq!(model.num_params(), 784 * 128 + 128 + 128 * 10 + 10);
}
