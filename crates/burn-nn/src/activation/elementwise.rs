//! Element-wise activations (shape in = shape out).

use burn::config::Config;
use burn::module::{Module, Param};
use burn::tensor::{Device, Tensor, activation};

use crate::Initializer;

/// Declares a parameter-free activation module: a unit struct with `new`,
/// `Default` and `forward`.
macro_rules! stateless {
    ($($(#[$doc:meta])* $name:ident => |$x:ident| $body:expr;)*) => {$(
        $(#[$doc])*
        #[derive(Module, Debug, Default)]
        pub struct $name;

        impl $name {
            /// The layer.
            pub fn new() -> Self {
                Self
            }

            /// Applies the activation element-wise.
            pub fn forward<const D: usize>(&self, $x: Tensor<D>) -> Tensor<D> {
                $body
            }
        }
    )*};
}

/// SELU's `alpha` (Klambauer et al.).
const SELU_ALPHA: f64 = 1.673_263_242_354_377_3;
/// SELU's `scale`.
const SELU_SCALE: f64 = 1.050_700_987_355_480_5;

stateless! {
    /// `max(x, 0)`.
    Relu => |x| activation::relu(x);
    /// Gaussian error linear unit, `x·Φ(x)` (exact, with `erf`).
    Gelu => |x| activation::gelu(x);
    /// `1 / (1 + e^-x)`.
    Sigmoid => |x| activation::sigmoid(x);
    /// Hyperbolic tangent.
    Tanh => |x| activation::tanh(x);
    /// `x·sigmoid(x)`, the sigmoid linear unit (also called swish).
    Silu => |x| activation::silu(x);
    /// `x·tanh(softplus(x))`.
    Mish => |x| activation::mish(x);
    /// Scaled exponential linear unit: `scale·(x)` for `x > 0`,
    /// `scale·alpha·(e^x − 1)` otherwise, with the self-normalizing constants.
    Selu => |x| elu(x, SELU_ALPHA) * SELU_SCALE;
    /// `x·hard_sigmoid(x)` with PyTorch's `alpha = 1/6, beta = 1/2`:
    /// `x·clamp(x/6 + 1/2, 0, 1)`.
    HardSwish => |x| x.clone() * activation::hard_sigmoid(x, 1.0 / 6.0, 0.5);
}

/// Swish is another name of [`Silu`].
pub type Swish = Silu;

/// `x` for `x > 0`, `alpha·(e^x − 1)` otherwise.
fn elu<const D: usize>(x: Tensor<D>, alpha: f64) -> Tensor<D> {
    // The exponential is taken of min(x, 0): for large positive x it would
    // overflow, and its infinite derivative times the zero gradient of the
    // unselected branch would make the gradient NaN.
    let negative = x.clone().clamp_max(0.0).exp().sub_scalar(1.0) * alpha;
    let mask = x.clone().lower_equal_elem(0.0);
    x.mask_where(mask, negative)
}

/// Configuration of a [`LeakyRelu`].
#[derive(Config, Debug)]
pub struct LeakyReluConfig {
    /// The slope for negative inputs.
    #[config(default = 0.01)]
    pub negative_slope: f64,
}

/// `x` for `x ≥ 0`, `negative_slope·x` otherwise.
#[derive(Module, Debug)]
pub struct LeakyRelu {
    /// The slope for negative inputs.
    pub negative_slope: f64,
}

impl LeakyReluConfig {
    /// Builds the layer.
    pub fn init(&self) -> LeakyRelu {
        LeakyRelu {
            negative_slope: self.negative_slope,
        }
    }
}

impl LeakyRelu {
    /// Applies the activation element-wise.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        activation::leaky_relu(input, self.negative_slope)
    }
}

/// Configuration of a [`PRelu`].
#[derive(Config, Debug)]
pub struct PReluConfig {
    /// Number of slopes: 1 (shared) or the number of channels (dim 1).
    #[config(default = 1)]
    pub num_parameters: usize,
    /// Initial value of every slope.
    #[config(default = 0.25)]
    pub alpha: f64,
}

/// Parametric ReLU: `x` for `x ≥ 0`, `alpha·x` otherwise, with learned
/// `alpha` (one shared, or one per channel of dim 1).
///
/// Parameter: `alpha` `[num_parameters]`.
#[derive(Module, Debug)]
pub struct PRelu {
    /// The slopes.
    pub alpha: Param<Tensor<1>>,
    /// Their initial value.
    pub alpha_value: f64,
}

impl PReluConfig {
    /// Builds the layer on `device`.
    pub fn init(&self, device: &Device) -> PRelu {
        PRelu {
            alpha: Initializer::Constant { value: self.alpha }.init([self.num_parameters], device),
            alpha_value: self.alpha,
        }
    }
}

impl PRelu {
    /// Applies the activation element-wise.
    ///
    /// # Panics
    /// If there are several slopes and dim 1 of `input` does not match.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        activation::prelu(input, self.alpha.val())
    }
}

/// Configuration of a [`Softplus`].
#[derive(Config, Debug)]
pub struct SoftplusConfig {
    /// Sharpness: `log(1 + e^(beta·x)) / beta`.
    #[config(default = 1.0)]
    pub beta: f64,
}

/// `log(1 + e^(beta·x)) / beta`, a smooth ReLU (linear where `beta·x > 20`).
#[derive(Module, Debug)]
pub struct Softplus {
    /// Sharpness.
    pub beta: f64,
}

impl SoftplusConfig {
    /// Builds the layer.
    pub fn init(&self) -> Softplus {
        Softplus { beta: self.beta }
    }
}

impl Softplus {
    /// Applies the activation element-wise.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        activation::softplus(input, self.beta)
    }
}

/// Configuration of an [`Elu`].
#[derive(Config, Debug)]
pub struct EluConfig {
    /// The value approached for large negative inputs is `-alpha`.
    #[config(default = 1.0)]
    pub alpha: f64,
}

/// Exponential linear unit: `x` for `x > 0`, `alpha·(e^x − 1)` otherwise.
#[derive(Module, Debug)]
pub struct Elu {
    /// Scale of the negative part.
    pub alpha: f64,
}

impl EluConfig {
    /// Builds the layer.
    pub fn init(&self) -> Elu {
        Elu { alpha: self.alpha }
    }
}

impl Elu {
    /// Applies the activation element-wise.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        elu(input, self.alpha)
    }
}

/// Configuration of a [`HardSigmoid`].
#[derive(Config, Debug)]
pub struct HardSigmoidConfig {
    /// Slope (ONNX's default 0.2; PyTorch's `Hardsigmoid` uses 1/6).
    #[config(default = 0.2)]
    pub alpha: f64,
    /// Offset.
    #[config(default = 0.5)]
    pub beta: f64,
}

/// `clamp(alpha·x + beta, 0, 1)`.
#[derive(Module, Debug)]
pub struct HardSigmoid {
    /// Slope.
    pub alpha: f64,
    /// Offset.
    pub beta: f64,
}

impl HardSigmoidConfig {
    /// Builds the layer.
    pub fn init(&self) -> HardSigmoid {
        HardSigmoid {
            alpha: self.alpha,
            beta: self.beta,
        }
    }
}

impl HardSigmoid {
    /// Applies the activation element-wise.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        activation::hard_sigmoid(input, self.alpha, self.beta)
    }
}
