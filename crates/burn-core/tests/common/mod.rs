//! Modules shared by the integration tests: one of every shape the derive
//! supports, on the Flex device.

#![allow(dead_code)]

use burn::module::{Flag, Ignored, Module, ModulePath, ModuleVisitor, Param};
use burn::tensor::{Bool, Device, Int, Tensor, TensorData};

pub fn device() -> Device {
    Device::flex()
}

/// A layer with Burn's `Linear` layout: weight `[d_input, d_output]`, optional bias.
#[derive(Module, Debug)]
pub struct Linear {
    pub weight: Param<Tensor<2>>,
    pub bias: Option<Param<Tensor<1>>>,
}

impl Linear {
    /// Weights filled with `value`, bias with `-value`.
    pub fn filled(d_input: usize, d_output: usize, bias: bool, value: f32) -> Self {
        Self::filled_on(&device(), d_input, d_output, bias, value)
    }

    /// As `filled`, on `device`.
    pub fn filled_on(
        device: &Device,
        d_input: usize,
        d_output: usize,
        bias: bool,
        value: f32,
    ) -> Self {
        Self {
            weight: Param::from_tensor(Tensor::full([d_input, d_output], value, device)),
            bias: bias.then(|| Param::from_tensor(Tensor::full([d_output], -value, device))),
        }
    }
}

/// A tuple struct.
#[derive(Module, Debug)]
pub struct Pair(pub Linear, pub Linear);

/// A generic module, with a constant beside the submodule.
#[derive(Module, Debug)]
pub struct Residual<M: Module> {
    pub inner: M,
    pub scale: f32,
}

/// An enum of modules: newtype, struct-like and unit variants.
#[allow(clippy::large_enum_variant)] // a fixture: sizes do not matter here
#[derive(Module, Debug)]
pub enum Block {
    Dense(Linear),
    Stacked { first: Linear, second: Linear },
    Identity,
}

/// A unit struct: a module without parameters (an activation).
#[derive(Module, Debug, PartialEq)]
pub struct Relu;

/// Not a module: carried with `#[module(skip)]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Vocabulary(pub Vec<String>);

/// A model using every kind of field.
#[derive(Module, Debug)]
pub struct Net {
    pub blocks: Vec<Block>,
    pub heads: [Linear; 2],
    pub residual: Option<Residual<Pair>>,
    pub absent: Option<Linear>,
    pub counts: Param<Tensor<1, Int>>,
    pub mask: Param<Tensor<2, Bool>>,
    pub training: Param<Flag>,
    pub activation: Relu,
    pub name: String,
    pub table: Tensor<1>,
    pub labels: Ignored<Vec<&'static str>>,
    #[module(skip)]
    pub vocabulary: Vocabulary,
}

impl Net {
    /// Every float weight filled with `value` (biases `-value`); int, bool
    /// and constant fields fixed.
    pub fn new(value: f32) -> Self {
        let device = device();
        Self {
            blocks: vec![
                Block::Dense(Linear::filled(2, 3, true, value)),
                Block::Stacked {
                    first: Linear::filled(3, 3, false, value),
                    second: Linear::filled(3, 2, true, value),
                },
                Block::Identity,
            ],
            heads: [
                Linear::filled(2, 1, true, value),
                Linear::filled(2, 4, false, value),
            ],
            residual: Some(Residual {
                inner: Pair(
                    Linear::filled(2, 2, true, value),
                    Linear::filled(2, 2, false, value),
                ),
                scale: 0.5,
            }),
            absent: None,
            counts: Param::from_data(TensorData::from([1i64, 2, 3]), &device),
            mask: Param::from_data(TensorData::from([[true, false], [false, true]]), &device),
            training: Param::from_bool(true),
            activation: Relu,
            name: "net".to_string(),
            table: Tensor::from_data([10.0, 20.0], &device),
            labels: Ignored(vec!["cat", "dog"]),
            vocabulary: Vocabulary(vec!["a".into(), "b".into()]),
        }
    }
}

/// Every parameter the visitor sees, as `(kind, path, shape or value)`.
#[derive(Default)]
pub struct Listing {
    path: ModulePath,
    pub items: Vec<(&'static str, String, String)>,
}

impl Listing {
    pub fn of<M: Module>(module: &M) -> Vec<(&'static str, String, String)> {
        let mut listing = Self::default();
        module.visit(&mut listing);
        listing.items
    }

    fn push(&mut self, kind: &'static str, detail: String) {
        self.items.push((kind, self.path.to_string(), detail));
    }
}

impl ModuleVisitor for Listing {
    fn enter_module(&mut self, name: &str, _container_type: &str) {
        self.path.enter(name);
    }

    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        self.path.exit();
    }

    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.push("float", param.shape().to_string());
    }

    fn visit_int<const D: usize>(&mut self, param: &Param<Tensor<D, Int>>) {
        self.push("int", param.shape().to_string());
    }

    fn visit_bool<const D: usize>(&mut self, param: &Param<Tensor<D, Bool>>) {
        self.push("bool", param.shape().to_string());
    }

    fn visit_flag(&mut self, param: &Param<Flag>) {
        self.push("flag", param.val().to_string());
    }
}

impl Linear {
    /// `input @ weight + bias`.
    pub fn forward(&self, input: Tensor<2>) -> Tensor<2> {
        let output = input.matmul(self.weight.val());
        match &self.bias {
            Some(bias) => output + bias.val().unsqueeze(),
            None => output,
        }
    }
}

/// The values of a float parameter.
pub fn values<const D: usize>(param: &Param<Tensor<D>>) -> Vec<f32> {
    param.val().into_data().to_vec::<f32>().unwrap()
}
