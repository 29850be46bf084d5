//! [`Initializer`]: how a parameter's first value is drawn.
//!
//! Every initializer returns a lazy [`Param`]: nothing is sampled until the
//! value is first read, so building a large model and then loading a record
//! into it never pays for the draws. Random initializers sample on the
//! parameter's device through `Tensor::random`, so after `device.seed(s)`
//! the same model built and read in the same order gets the same values.

use burn::config::Config;
use burn::module::{Param, ParamId};
use burn::tensor::{Device, Distribution, Shape, Tensor, TensorData};

/// How to fill a fresh float parameter.
///
/// The fan-based schemes need `fan_in` (and Xavier `fan_out`) from
/// [`init_with`](Initializer::init_with); layers pass theirs (a `Linear`
/// weight `[d_input, d_output]` has fan in `d_input`, fan out `d_output`).
#[derive(Config, Debug, PartialEq)]
pub enum Initializer {
    /// Every element `value`.
    Constant {
        /// The value.
        value: f64,
    },
    /// Every element 1.
    Ones,
    /// Every element 0.
    Zeros,
    /// Uniform on `[min, max)`.
    Uniform {
        /// Lower bound.
        min: f64,
        /// Upper bound (excluded).
        max: f64,
    },
    /// Gaussian.
    Normal {
        /// Mean.
        mean: f64,
        /// Standard deviation.
        std: f64,
    },
    /// He et al.: uniform on `±gain·√(3 / fan)`, `fan` the fan in (or the
    /// fan out with `fan_out_only`). `gain = 1/√3` gives PyTorch's default
    /// `Linear` bound `1/√fan_in`.
    KaimingUniform {
        /// Scale of the bound.
        gain: f64,
        /// Use the fan out instead of the fan in.
        fan_out_only: bool,
    },
    /// He et al.: Gaussian with std `gain / √fan`.
    KaimingNormal {
        /// Scale of the std.
        gain: f64,
        /// Use the fan out instead of the fan in.
        fan_out_only: bool,
    },
    /// Glorot & Bengio: uniform on `±gain·√(6 / (fan_in + fan_out))`.
    XavierUniform {
        /// Scale of the bound.
        gain: f64,
    },
    /// Glorot & Bengio: Gaussian with std `gain·√(2 / (fan_in + fan_out))`.
    XavierNormal {
        /// Scale of the std.
        gain: f64,
    },
    /// Saxe et al.: a (semi-)orthogonal matrix times `gain`. The shape is
    /// read as `[dims[0], product of the rest]`; rows are orthonormal when
    /// there are fewer rows than columns, columns otherwise. Needs rank ≥ 2.
    Orthogonal {
        /// Scale of the matrix.
        gain: f64,
    },
}

impl Initializer {
    /// A lazy trainable parameter of `shape` on `device`.
    ///
    /// # Panics
    /// On first read, for a fan-based scheme (which needs
    /// [`init_with`](Self::init_with)) or an orthogonal one of rank < 2.
    pub fn init<const D: usize, S: Into<Shape>>(
        &self,
        shape: S,
        device: &Device,
    ) -> Param<Tensor<D>> {
        self.init_with(shape, None, None, device)
    }

    /// A lazy trainable parameter of `shape` on `device`, with the fans the
    /// Kaiming and Xavier schemes need.
    ///
    /// ```
    /// use burn_nn::Initializer;
    /// use burn_core::tensor::{Device, Tensor};
    ///
    /// let device = Device::flex();
    /// let init = Initializer::KaimingUniform { gain: 1.0, fan_out_only: false };
    /// let weight = init.init_with::<2, _>([64, 16], Some(64), Some(16), &device);
    /// assert!(!weight.is_initialized(), "nothing is drawn before the first read");
    /// let bound = (3.0f32 / 64.0).sqrt();
    /// let values = weight.val().into_data().to_vec::<f32>().unwrap();
    /// assert!(values.iter().all(|v| v.abs() <= bound));
    /// ```
    pub fn init_with<const D: usize, S: Into<Shape>>(
        &self,
        shape: S,
        fan_in: Option<usize>,
        fan_out: Option<usize>,
        device: &Device,
    ) -> Param<Tensor<D>> {
        let shape = shape.into();
        assert_eq!(
            shape.num_dims(),
            D,
            "Initializer::init: shape {shape} does not have rank {D}"
        );
        let init = self.clone();
        let lazy_shape = shape.clone();
        Param::uninitialized(
            ParamId::new(),
            move |device: &Device, _require_grad| {
                init.sample::<D>(lazy_shape, fan_in, fan_out, device)
            },
            device.clone(),
            true,
            shape,
        )
    }

    /// The values, drawn now.
    fn sample<const D: usize>(
        &self,
        shape: Shape,
        fan_in: Option<usize>,
        fan_out: Option<usize>,
        device: &Device,
    ) -> Tensor<D> {
        match *self {
            Self::Constant { value } => Tensor::full(shape, value, device),
            Self::Ones => Tensor::ones(shape, device),
            Self::Zeros => Tensor::zeros(shape, device),
            Self::Uniform { min, max } => uniform(shape, min, max, device),
            Self::Normal { mean, std } => normal(shape, mean, std, device),
            Self::KaimingUniform { gain, fan_out_only } => {
                let fan = kaiming_fan(fan_in, fan_out, fan_out_only);
                let bound = gain * (3.0 / fan).sqrt();
                uniform(shape, -bound, bound, device)
            }
            Self::KaimingNormal { gain, fan_out_only } => {
                let fan = kaiming_fan(fan_in, fan_out, fan_out_only);
                normal(shape, 0.0, gain / fan.sqrt(), device)
            }
            Self::XavierUniform { gain } => {
                let bound = gain * (6.0 / xavier_fans(fan_in, fan_out, "XavierUniform")).sqrt();
                uniform(shape, -bound, bound, device)
            }
            Self::XavierNormal { gain } => {
                let std = gain * (2.0 / xavier_fans(fan_in, fan_out, "XavierNormal")).sqrt();
                normal(shape, 0.0, std, device)
            }
            Self::Orthogonal { gain } => {
                let gaussian: Tensor<D> = normal(shape.clone(), 0.0, 1.0, device);
                let values = gaussian
                    .into_data()
                    .convert::<f64>()
                    .into_vec::<f64>()
                    .expect("f64 data after convert");
                let data = TensorData::new(orthogonalize(values, &shape, gain), shape);
                Tensor::from_data(data.convert::<f32>(), device)
            }
        }
    }
}

fn uniform<const D: usize>(shape: Shape, min: f64, max: f64, device: &Device) -> Tensor<D> {
    Tensor::random(shape, Distribution::Uniform(min, max), device)
}

fn normal<const D: usize>(shape: Shape, mean: f64, std: f64, device: &Device) -> Tensor<D> {
    Tensor::random(shape, Distribution::Normal(mean, std), device)
}

fn kaiming_fan(fan_in: Option<usize>, fan_out: Option<usize>, fan_out_only: bool) -> f64 {
    let (fan, name) = if fan_out_only {
        (fan_out, "fan_out")
    } else {
        (fan_in, "fan_in")
    };
    let fan = fan.unwrap_or_else(|| {
        panic!("Initializer::Kaiming*: needs {name}; build the parameter with init_with")
    });
    fan as f64
}

fn xavier_fans(fan_in: Option<usize>, fan_out: Option<usize>, name: &str) -> f64 {
    match (fan_in, fan_out) {
        (Some(i), Some(o)) => (i + o) as f64,
        _ => panic!(
            "Initializer::{name}: needs fan_in and fan_out (got {fan_in:?}, {fan_out:?}); build the parameter with init_with"
        ),
    }
}

/// Gaussian `values` of `shape`, seen as `[rows, cols]` with `rows =
/// dims[0]`, made (semi-)orthogonal by Gram–Schmidt on the longer side.
///
/// Gram–Schmidt gives the QR factorization whose `R` has a positive
/// diagonal, which is the sign convention that makes the result uniformly
/// distributed (PyTorch multiplies its Householder `Q` by `sign(diag(R))`
/// for the same reason).
fn orthogonalize(values: Vec<f64>, shape: &Shape, gain: f64) -> Vec<f64> {
    assert!(
        shape.num_dims() >= 2,
        "Initializer::Orthogonal: needs a shape of rank 2 or more, got {shape}"
    );
    let rows = shape.dims[0];
    let cols = values.len() / rows.max(1);
    // Orthonormalize the `k` vectors of length `n` of the shorter side.
    let transposed = rows < cols;
    let (k, n) = if transposed {
        (rows, cols)
    } else {
        (cols, rows)
    };
    // vectors[j] is column j of the (possibly transposed) matrix.
    let mut vectors: Vec<Vec<f64>> = (0..k)
        .map(|j| {
            (0..n)
                .map(|i| {
                    if transposed {
                        values[j * cols + i]
                    } else {
                        values[i * cols + j]
                    }
                })
                .collect()
        })
        .collect();
    for j in 0..k {
        let (done, rest) = vectors.split_at_mut(j);
        let vector = &mut rest[0];
        // Modified Gram–Schmidt, twice for accuracy ("twice is enough").
        for _ in 0..2 {
            for previous in done.iter() {
                let dot: f64 = vector.iter().zip(previous).map(|(a, b)| a * b).sum();
                for (v, p) in vector.iter_mut().zip(previous) {
                    *v -= dot * p;
                }
            }
        }
        let norm = vector.iter().map(|v| v * v).sum::<f64>().sqrt();
        for v in vector.iter_mut() {
            *v /= norm;
        }
    }
    let mut out = vec![0.0; values.len()];
    for (j, vector) in vectors.iter().enumerate() {
        for (i, v) in vector.iter().enumerate() {
            let index = if transposed {
                j * cols + i
            } else {
                i * cols + j
            };
            out[index] = v * gain;
        }
    }
    out
}
