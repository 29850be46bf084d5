//! [`Lstm`] and [`BiLstm`].

use burn::config::Config;
use burn::module::Module;
use burn::tensor::{Device, Shape, Tensor, activation};

use super::{GateController, check_input, stack_steps, step};
use crate::Initializer;

/// Configuration of an [`Lstm`].
#[derive(Config, Debug)]
pub struct LstmConfig {
    /// Size of each input step.
    pub d_input: usize,
    /// Size of the hidden and cell states.
    pub d_hidden: usize,
    /// Whether the gates have biases.
    pub bias: bool,
    /// How the gates are drawn.
    #[config(default = "Initializer::XavierNormal { gain: 1.0 }")]
    pub initializer: Initializer,
}

/// The cell and hidden states of an LSTM: `[batch, d_hidden]` for an
/// [`Lstm`], `[2, batch, d_hidden]` (forward, reverse) for a [`BiLstm`].
#[derive(Debug, Clone)]
pub struct LstmState<const D: usize = 2> {
    /// The cell state.
    pub cell: Tensor<D>,
    /// The hidden state.
    pub hidden: Tensor<D>,
}

impl<const D: usize> LstmState<D> {
    /// A state from its cell and hidden parts.
    ///
    /// # Panics
    /// If the two shapes differ.
    pub fn new(cell: Tensor<D>, hidden: Tensor<D>) -> Self {
        assert_eq!(
            cell.shape(),
            hidden.shape(),
            "LstmState::new: the cell state is {} but the hidden state is {}",
            cell.shape(),
            hidden.shape()
        );
        Self { cell, hidden }
    }

    /// A zero state of `shape` (`[batch, d_hidden]` for an [`Lstm`],
    /// `[2, batch, d_hidden]` for a [`BiLstm`]) on `device`.
    pub fn initial(shape: impl Into<Shape>, device: &Device) -> Self {
        let cell = Tensor::zeros(shape, device);
        Self {
            hidden: cell.clone(),
            cell,
        }
    }

    /// The shape of both states.
    pub fn shape(&self) -> Shape {
        self.cell.shape()
    }

    /// The device of the states.
    pub fn device(&self) -> Device {
        self.cell.device()
    }

    /// `(cell, hidden)`, the inverse of [`new`](Self::new).
    pub fn unpack(self) -> (Tensor<D>, Tensor<D>) {
        (self.cell, self.hidden)
    }
}

/// Long short-term memory (Hochreiter & Schmidhuber), as PyTorch's `LSTM`:
///
/// ```text
/// i = σ(gate_i)   f = σ(gate_f)   g = tanh(gate_g)   o = σ(gate_o)
/// c_t = f·c_{t−1} + i·g           h_t = o·tanh(c_t)
/// ```
///
/// Parameters: `input_gate`, `forget_gate`, `output_gate`, `cell_gate`
/// (each a [`GateController`]).
#[derive(Module, Debug)]
pub struct Lstm {
    /// `i`.
    pub input_gate: GateController,
    /// `f`.
    pub forget_gate: GateController,
    /// `o`.
    pub output_gate: GateController,
    /// `g`.
    pub cell_gate: GateController,
    /// Size of the states.
    pub d_hidden: usize,
}

impl LstmConfig {
    /// Builds the layer on `device`.
    pub fn init(&self, device: &Device) -> Lstm {
        let gate = || {
            GateController::new(
                self.d_input,
                self.d_hidden,
                self.bias,
                self.initializer.clone(),
                device,
            )
        };
        Lstm {
            input_gate: gate(),
            forget_gate: gate(),
            output_gate: gate(),
            cell_gate: gate(),
            d_hidden: self.d_hidden,
        }
    }
}

impl Lstm {
    /// The hidden state after each step, `[batch, seq, d_hidden]`, and the
    /// final state, from `input` `[batch, seq, d_input]` and an initial
    /// state (zeros if `None`).
    pub fn forward(&self, input: Tensor<3>, state: Option<LstmState>) -> (Tensor<3>, LstmState) {
        let d_input = self.input_gate.input_transform.weight.shape().dims[0];
        check_input("Lstm", &input, d_input);
        let [batch, seq, _] = input.dims();
        let LstmState {
            mut cell,
            mut hidden,
        } = state.unwrap_or_else(|| {
            let zeros = Tensor::zeros([batch, self.d_hidden], (&input.device(), input.dtype()));
            LstmState::new(zeros.clone(), zeros)
        });
        let mut steps = Vec::with_capacity(seq);
        for t in 0..seq {
            let x = step(&input, t);
            let gate = |g: &GateController| g.gate_product(x.clone(), hidden.clone());
            let i = activation::sigmoid(gate(&self.input_gate));
            let f = activation::sigmoid(gate(&self.forget_gate));
            let g = activation::tanh(gate(&self.cell_gate));
            let o = activation::sigmoid(gate(&self.output_gate));
            cell = f * cell + i * g;
            hidden = o * activation::tanh(cell.clone());
            steps.push(hidden.clone());
        }
        (stack_steps(steps), LstmState::new(cell, hidden))
    }
}

/// Configuration of a [`BiLstm`].
#[derive(Config, Debug)]
pub struct BiLstmConfig {
    /// Size of each input step.
    pub d_input: usize,
    /// Size of the states of each direction.
    pub d_hidden: usize,
    /// Whether the gates have biases.
    pub bias: bool,
    /// How the gates are drawn.
    #[config(default = "Initializer::XavierNormal { gain: 1.0 }")]
    pub initializer: Initializer,
}

/// Two [`Lstm`]s, one reading the sequence forward and one backward; their
/// hidden states are concatenated at each step.
///
/// Parameters: `forward`, `reverse`.
#[derive(Module, Debug)]
pub struct BiLstm {
    /// The forward direction.
    pub forward: Lstm,
    /// The reverse direction.
    pub reverse: Lstm,
    /// Size of the states of each direction.
    pub d_hidden: usize,
}

impl BiLstmConfig {
    /// Builds the layer on `device`.
    pub fn init(&self, device: &Device) -> BiLstm {
        let lstm = LstmConfig::new(self.d_input, self.d_hidden, self.bias)
            .with_initializer(self.initializer.clone());
        BiLstm {
            forward: lstm.init(device),
            reverse: lstm.init(device),
            d_hidden: self.d_hidden,
        }
    }
}

impl BiLstm {
    /// `[batch, seq, 2·d_hidden]` (forward states, then reverse ones, at
    /// each position) and the final states `[2, batch, d_hidden]`, as
    /// PyTorch's bidirectional `LSTM`.
    pub fn forward(
        &self,
        input: Tensor<3>,
        state: Option<LstmState<3>>,
    ) -> (Tensor<3>, LstmState<3>) {
        let (state_forward, state_reverse) = match state {
            Some(LstmState { cell, hidden }) => {
                let direction = |t: &Tensor<3>, d: usize| {
                    let [_, batch, hidden] = t.dims();
                    t.clone().narrow(0, d, 1).reshape([batch, hidden])
                };
                (
                    Some(LstmState::new(direction(&cell, 0), direction(&hidden, 0))),
                    Some(LstmState::new(direction(&cell, 1), direction(&hidden, 1))),
                )
            }
            None => (None, None),
        };
        let (out_forward, final_forward) = self.forward.forward(input.clone(), state_forward);
        let (out_reverse, final_reverse) = self.reverse.forward(input.flip([1]), state_reverse);
        let output = Tensor::cat(vec![out_forward, out_reverse.flip([1])], 2);
        let state = LstmState::new(
            Tensor::stack(vec![final_forward.cell, final_reverse.cell], 0),
            Tensor::stack(vec![final_forward.hidden, final_reverse.hidden], 0),
        );
        (output, state)
    }
}
