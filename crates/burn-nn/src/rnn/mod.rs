//! Recurrent layers over `[batch, seq, features]` sequences: [`Rnn`],
//! [`Lstm`], [`BiLstm`], [`Gru`].
//!
//! Each gate is a [`GateController`]: a projection of the input plus one of
//! the previous hidden state, both with their own bias (PyTorch's `b_ih` and
//! `b_hh`), so PyTorch weights map one to one. The time loop runs over
//! tensor ops, so gradients flow through every step.

mod gru;
mod lstm;

pub use gru::{Gru, GruConfig};
pub use lstm::{BiLstm, BiLstmConfig, Lstm, LstmConfig, LstmState};

use burn::config::Config;
use burn::module::Module;
use burn::tensor::{Device, Tensor, activation};

use crate::{Initializer, Linear, LinearConfig};

/// A gate's pre-activation: `x·W_x + b_x + h·W_h + b_h`.
///
/// Parameters: `input_transform` (`d_input → d_output`) and
/// `hidden_transform` (`d_output → d_output`).
#[derive(Module, Debug)]
pub struct GateController {
    /// Projection of the input.
    pub input_transform: Linear,
    /// Projection of the previous hidden state.
    pub hidden_transform: Linear,
}

impl GateController {
    /// A gate for inputs of `d_input` features and a state of `d_output`.
    pub fn new(
        d_input: usize,
        d_output: usize,
        bias: bool,
        initializer: Initializer,
        device: &Device,
    ) -> Self {
        let linear = |d_in| {
            LinearConfig::new(d_in, d_output)
                .with_bias(bias)
                .with_initializer(initializer.clone())
                .init(device)
        };
        Self {
            input_transform: linear(d_input),
            hidden_transform: linear(d_output),
        }
    }

    /// `x·W_x + b_x + h·W_h + b_h` for `x` `[batch, d_input]`, `h` `[batch, d_output]`.
    pub fn gate_product(&self, input: Tensor<2>, hidden: Tensor<2>) -> Tensor<2> {
        self.input_transform.forward(input) + self.hidden_transform.forward(hidden)
    }
}

/// Time step `t` of `[batch, seq, d]` as `[batch, d]`.
pub(crate) fn step(input: &Tensor<3>, t: usize) -> Tensor<2> {
    let [batch, _, d] = input.dims();
    input.clone().narrow(1, t, 1).reshape([batch, d])
}

/// The hidden states of each step, `[batch, d]` each, as `[batch, seq, d]`.
pub(crate) fn stack_steps(steps: Vec<Tensor<2>>) -> Tensor<3> {
    Tensor::stack(steps, 1)
}

/// Checks `input` is `[batch, seq, d_input]` with at least one step.
#[track_caller]
pub(crate) fn check_input(name: &str, input: &Tensor<3>, d_input: usize) {
    let [_, seq, d] = input.dims();
    assert!(
        d == d_input && seq > 0,
        "{name}::forward: expected [batch, seq > 0, {d_input}], got {}",
        input.shape()
    );
}

/// Configuration of an [`Rnn`].
#[derive(Config, Debug)]
pub struct RnnConfig {
    /// Size of each input step.
    pub d_input: usize,
    /// Size of the hidden state.
    pub d_hidden: usize,
    /// Whether the projections have biases.
    #[config(default = true)]
    pub bias: bool,
    /// How the projections are drawn.
    #[config(default = "Initializer::XavierNormal { gain: 1.0 }")]
    pub initializer: Initializer,
}

/// Elman recurrent layer: `h_t = tanh(x_t·W_x + b_x + h_{t−1}·W_h + b_h)`.
///
/// Parameters: `gate` (a [`GateController`]).
#[derive(Module, Debug)]
pub struct Rnn {
    /// The recurrence.
    pub gate: GateController,
    /// Size of the hidden state.
    pub d_hidden: usize,
}

impl RnnConfig {
    /// Builds the layer on `device`.
    pub fn init(&self, device: &Device) -> Rnn {
        Rnn {
            gate: GateController::new(
                self.d_input,
                self.d_hidden,
                self.bias,
                self.initializer.clone(),
                device,
            ),
            d_hidden: self.d_hidden,
        }
    }
}

impl Rnn {
    /// The hidden state after each step, `[batch, seq, d_hidden]`, from
    /// `input` `[batch, seq, d_input]` and an initial state `[batch,
    /// d_hidden]` (zeros if `None`). The last step is the final state.
    pub fn forward(&self, input: Tensor<3>, state: Option<Tensor<2>>) -> Tensor<3> {
        let d_input = self.gate.input_transform.weight.shape().dims[0];
        check_input("Rnn", &input, d_input);
        let [batch, seq, _] = input.dims();
        let mut hidden = state.unwrap_or_else(|| {
            Tensor::zeros([batch, self.d_hidden], (&input.device(), input.dtype()))
        });
        let mut steps = Vec::with_capacity(seq);
        for t in 0..seq {
            hidden = activation::tanh(self.gate.gate_product(step(&input, t), hidden));
            steps.push(hidden.clone());
        }
        stack_steps(steps)
    }
}
