//! [`Gru`]: gated recurrent unit.

use burn::config::Config;
use burn::module::Module;
use burn::tensor::{Device, Tensor, activation};

use super::{GateController, check_input, stack_steps, step};
use crate::Initializer;

/// Configuration of a [`Gru`].
#[derive(Config, Debug)]
pub struct GruConfig {
    /// Size of each input step.
    pub d_input: usize,
    /// Size of the hidden state.
    pub d_hidden: usize,
    /// Whether the gates have biases.
    pub bias: bool,
    /// Apply the reset gate after the hidden projection (PyTorch's and
    /// cuDNN's form) rather than before it (the original paper's).
    #[config(default = true)]
    pub reset_after: bool,
    /// How the gates are drawn.
    #[config(default = "Initializer::XavierNormal { gain: 1.0 }")]
    pub initializer: Initializer,
}

/// Gated recurrent unit (Cho et al.), as PyTorch's `GRU`:
///
/// ```text
/// r = σ(gate_r)   z = σ(gate_z)
/// n = tanh(x·W_n + b_n + r·(h·U_n + c_n))     (reset_after)
/// n = tanh(x·W_n + b_n + (r·h)·U_n + c_n)     (otherwise)
/// h_t = (1 − z)·n + z·h_{t−1}
/// ```
///
/// Parameters: `update_gate` (`z`), `reset_gate` (`r`), `new_gate` (`n`).
#[derive(Module, Debug)]
pub struct Gru {
    /// `z`.
    pub update_gate: GateController,
    /// `r`.
    pub reset_gate: GateController,
    /// `n`.
    pub new_gate: GateController,
    /// Size of the hidden state.
    pub d_hidden: usize,
    /// Where the reset gate applies.
    pub reset_after: bool,
}

impl GruConfig {
    /// Builds the layer on `device`.
    pub fn init(&self, device: &Device) -> Gru {
        let gate = || {
            GateController::new(
                self.d_input,
                self.d_hidden,
                self.bias,
                self.initializer.clone(),
                device,
            )
        };
        Gru {
            update_gate: gate(),
            reset_gate: gate(),
            new_gate: gate(),
            d_hidden: self.d_hidden,
            reset_after: self.reset_after,
        }
    }
}

impl Gru {
    /// The hidden state after each step, `[batch, seq, d_hidden]`, from
    /// `input` `[batch, seq, d_input]` and an initial state `[batch,
    /// d_hidden]` (zeros if `None`). The last step is the final state.
    pub fn forward(&self, input: Tensor<3>, state: Option<Tensor<2>>) -> Tensor<3> {
        let d_input = self.update_gate.input_transform.weight.shape().dims[0];
        check_input("Gru", &input, d_input);
        let [batch, seq, _] = input.dims();
        let mut hidden = state.unwrap_or_else(|| {
            Tensor::zeros([batch, self.d_hidden], (&input.device(), input.dtype()))
        });
        let mut steps = Vec::with_capacity(seq);
        for t in 0..seq {
            let x = step(&input, t);
            let r = activation::sigmoid(self.reset_gate.gate_product(x.clone(), hidden.clone()));
            let z = activation::sigmoid(self.update_gate.gate_product(x.clone(), hidden.clone()));
            let projected_input = self.new_gate.input_transform.forward(x);
            let n = if self.reset_after {
                let projected_hidden = self.new_gate.hidden_transform.forward(hidden.clone());
                activation::tanh(projected_input + r * projected_hidden)
            } else {
                let reset_hidden = self.new_gate.hidden_transform.forward(r * hidden.clone());
                activation::tanh(projected_input + reset_hidden)
            };
            // (1 − z)·n + z·h = n + z·(h − n)
            hidden = n.clone() + z * (hidden - n);
            steps.push(hidden.clone());
        }
        stack_steps(steps)
    }
}
