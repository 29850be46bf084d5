//! [`Linear`]: `y = x·W + b`.

use burn::config::Config;
use burn::module::{Module, Param};
use burn::tensor::{Device, Tensor};

use crate::Initializer;

/// How a [`Linear`] stores its weight.
#[derive(Config, Debug, PartialEq, Copy)]
pub enum LinearLayout {
    /// `[d_input, d_output]`, so the forward pass is `x·W` (Burn's layout).
    Row,
    /// `[d_output, d_input]`, PyTorch's layout: `x·Wᵀ`. Lets PyTorch
    /// weights load without a transpose.
    Col,
}

/// Configuration of a [`Linear`] layer.
#[derive(Config, Debug)]
pub struct LinearConfig {
    /// Size of each input sample.
    pub d_input: usize,
    /// Size of each output sample.
    pub d_output: usize,
    /// Whether to add a learned bias.
    #[config(default = true)]
    pub bias: bool,
    /// How weight and bias are drawn. The default bounds both by
    /// `1/√d_input`, as PyTorch's `nn.Linear`.
    #[config(
        default = "Initializer::KaimingUniform { gain: 1.0 / 3.0f64.sqrt(), fan_out_only: false }"
    )]
    pub initializer: Initializer,
    /// How the weight is stored.
    #[config(default = "LinearLayout::Row")]
    pub layout: LinearLayout,
}

/// An affine map on the last dimension: `y = x·W + b`.
///
/// Parameters: `weight` `[d_input, d_output]` (or `[d_output, d_input]`
/// with [`LinearLayout::Col`]) and an optional `bias` `[d_output]`.
#[derive(Module, Debug)]
pub struct Linear {
    /// The weight matrix.
    pub weight: Param<Tensor<2>>,
    /// The bias, if any.
    pub bias: Option<Param<Tensor<1>>>,
    /// How `weight` is stored (a constant, not recorded).
    #[module(skip)]
    pub layout: LinearLayout,
}

impl LinearConfig {
    /// Builds the layer on `device` (parameters drawn at first use).
    pub fn init(&self, device: &Device) -> Linear {
        let (fan_in, fan_out) = (Some(self.d_input), Some(self.d_output));
        let shape = match self.layout {
            LinearLayout::Row => [self.d_input, self.d_output],
            LinearLayout::Col => [self.d_output, self.d_input],
        };
        let weight = self.initializer.init_with(shape, fan_in, fan_out, device);
        let bias = self.bias.then(|| {
            self.initializer
                .init_with([self.d_output], fan_in, fan_out, device)
        });
        Linear {
            weight,
            bias,
            layout: self.layout,
        }
    }
}

impl Linear {
    /// Applies the layer to the last dimension of `input`.
    ///
    /// Shapes: `input [..., d_input]` → `[..., d_output]` (rank 1 included).
    ///
    /// # Panics
    /// If the last dimension of `input` is not `d_input`.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        let mut dims = input.dims();
        let d_input = dims[D - 1];
        let rows = input.num_elements() / d_input.max(1);
        let output = self.forward_2d(input.reshape([rows, d_input]));
        dims[D - 1] = output.dims()[1];
        output.reshape(dims)
    }

    // x: [rows, d_input] -> [rows, d_output]
    fn forward_2d(&self, x: Tensor<2>) -> Tensor<2> {
        let [_, d_input] = x.dims();
        let (a, b) = (self.weight.shape().dims[0], self.weight.shape().dims[1]);
        let expected = match self.layout {
            LinearLayout::Row => a,
            LinearLayout::Col => b,
        };
        assert_eq!(
            d_input, expected,
            "Linear::forward: input has {d_input} features, the layer expects {expected}"
        );
        let weight = self.weight.val();
        let weight = match self.layout {
            LinearLayout::Row => weight,
            LinearLayout::Col => weight.transpose(),
        };
        let y = x.matmul(weight);
        match &self.bias {
            Some(bias) => y + bias.val().unsqueeze::<2>(),
            None => y,
        }
    }
}
