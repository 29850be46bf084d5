//! [`RotaryEncoding`]: rotary position embedding (RoPE).

use burn::config::Config;
use burn::module::Module;
use burn::tensor::{Device, Tensor, TensorData};

/// Configuration of a [`RotaryEncoding`].
#[derive(Config, Debug)]
pub struct RotaryEncodingConfig {
    /// The longest sequence the tables cover.
    pub max_sequence_length: usize,
    /// Size of each vector rotated (even).
    pub d_model: usize,
    /// Base of the frequencies.
    #[config(default = 10000.0)]
    pub theta: f32,
}

/// Rotates each pair of features `(x[2i], x[2i+1])` of the vector at
/// position `p` by the angle `p·θ^(−2i/d_model)` (Su et al.), so that dot
/// products of queries and keys depend on their relative position.
///
/// Pairs are adjacent features (the interleaved convention of the original
/// paper and of Burn). The cosine and sine tables are constants: not
/// parameters, not recorded.
#[derive(Module, Debug)]
pub struct RotaryEncoding {
    /// `cos(angle)`, `[max_sequence_length, d_model / 2]`.
    pub cos: Tensor<2>,
    /// `sin(angle)`, `[max_sequence_length, d_model / 2]`.
    pub sin: Tensor<2>,
    /// Base of the frequencies.
    pub theta: f32,
}

impl RotaryEncodingConfig {
    /// Builds the tables on `device`.
    ///
    /// # Panics
    /// If `d_model` is odd.
    pub fn init(&self, device: &Device) -> RotaryEncoding {
        assert!(
            self.d_model.is_multiple_of(2),
            "RotaryEncodingConfig::init: d_model must be even, got {}",
            self.d_model
        );
        let half = self.d_model / 2;
        let (mut cos, mut sin) = (Vec::new(), Vec::new());
        for position in 0..self.max_sequence_length {
            for i in 0..half {
                let frequency = (self.theta as f64).powf(-2.0 * i as f64 / self.d_model as f64);
                let angle = position as f64 * frequency;
                cos.push(angle.cos() as f32);
                sin.push(angle.sin() as f32);
            }
        }
        let shape = [self.max_sequence_length, half];
        RotaryEncoding {
            cos: Tensor::from_data(TensorData::new(cos, shape), device),
            sin: Tensor::from_data(TensorData::new(sin, shape), device),
            theta: self.theta,
        }
    }
}

impl RotaryEncoding {
    /// Rotates `input` `[..., seq, d_model]` (rank ≥ 2), positions from 0.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        self.apply(input, 0)
    }

    /// Rotates `input` `[..., seq, d_model]` whose first position is
    /// `start` (for decoding with a cache).
    ///
    /// # Panics
    /// If the positions exceed the table or `d_model` differs.
    pub fn apply<const D: usize>(&self, input: Tensor<D>, start: usize) -> Tensor<D> {
        let dims = input.dims();
        assert!(D >= 2, "RotaryEncoding::apply: needs [..., seq, d_model]");
        let (seq, d_model) = (dims[D - 2], dims[D - 1]);
        let [max, half] = self.cos.dims();
        assert!(
            start + seq <= max && d_model == 2 * half,
            "RotaryEncoding::apply: positions {start}..{} of input {} do not fit the tables [{max}, {}]",
            start + seq,
            input.shape(),
            2 * half
        );
        let rows = input.num_elements() / (seq * d_model).max(1);
        // x: [rows, seq, half, 2]; cos, sin: [1, seq, half, 1]
        let x: Tensor<4> = input.reshape([rows, seq, half, 2]);
        let device = x.device();
        let table = |t: &Tensor<2>| {
            t.clone()
                .slice([start..start + seq, 0..half])
                .to_device(&device)
                .reshape([1, seq, half, 1])
        };
        let (cos, sin) = (table(&self.cos), table(&self.sin));
        let even = x.clone().narrow(3, 0, 1);
        let odd = x.narrow(3, 1, 1);
        let rotated_even = even.clone() * cos.clone() - odd.clone() * sin.clone();
        let rotated_odd = even * sin + odd * cos;
        Tensor::cat(vec![rotated_even, rotated_odd], 3).reshape(dims)
    }
}
