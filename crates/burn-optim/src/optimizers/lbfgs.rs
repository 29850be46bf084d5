//! L-BFGS (Liu & Nocedal 1989), with PyTorch's `torch.optim.LBFGS`
//! semantics and no line search (`line_search_fn=None`).
//!
//! L-BFGS is not a per-tensor rule: its curvature history is over the
//! vector of all parameters, and one step evaluates the loss several times.
//! So it is not an [`Optimizer`](crate::Optimizer) but its own type, whose
//! [`step`](Lbfgs::step) takes the module and a closure that evaluates the
//! loss and gradients of a module, like PyTorch's `step(closure)`.

use std::collections::VecDeque;
use std::string::String;
use std::vec::Vec;

use burn_core::config::Config;
use burn_core::module::{Module, ModuleMapper, ModuleVisitor, Param};
use burn_std::Scalar;
use burn_tensor::{Device, Tensor};

use crate::module_optimizer::outside_graph;
use crate::{GradientsParams, LearningRate, OptimError, OptimizerRecord, RecordState, StateFields};

/// The configuration of [`Lbfgs`] (PyTorch's defaults).
#[derive(Config, Debug)]
pub struct LbfgsConfig {
    /// Iterations per [`step`](Lbfgs::step).
    #[config(default = 20)]
    pub max_iter: usize,
    /// Loss evaluations per step (default `max_iter · 5 / 4`).
    pub max_eval: Option<usize>,
    /// Stop when the largest gradient element is at most this.
    #[config(default = 1e-7)]
    pub tolerance_grad: f64,
    /// Stop when the step or the loss change is at most this.
    #[config(default = 1e-9)]
    pub tolerance_change: f64,
    /// How many curvature pairs are kept.
    #[config(default = 100)]
    pub history_size: usize,
}

impl LbfgsConfig {
    /// The optimizer, with no history.
    pub fn init(&self) -> Lbfgs {
        Lbfgs {
            max_eval: self.max_eval.unwrap_or(self.max_iter * 5 / 4),
            config: self.clone(),
            state: LbfgsState::default(),
        }
    }
}

/// L-BFGS over all trainable float parameters of a module, flattened in
/// traversal order (a parameter without gradient counts as zeros).
///
/// Each [`step`](Self::step) runs up to `max_iter` iterations: the search
/// direction `d` from the two-loop recursion over the kept pairs
/// `(s, y)` (steepest descent on the very first iteration), the step
/// `θ ← θ + t·d` with `t = lr` (on the first iteration ever,
/// `t = min(1, 1/‖g‖₁)·lr`), then a new loss evaluation. It stops early on
/// PyTorch's conditions (small gradient, small step, small loss change,
/// evaluation budget).
pub struct Lbfgs {
    config: LbfgsConfig,
    max_eval: usize,
    state: LbfgsState,
}

/// What persists between steps.
#[derive(Clone, Default)]
struct LbfgsState {
    n_iter: usize,
    func_evals: usize,
    direction: Option<Tensor<1>>,
    step_size: f64,
    /// The pairs `(y, s, 1/yᵀs)`, oldest first.
    history: VecDeque<(Tensor<1>, Tensor<1>, f64)>,
    h_diag: f64,
    prev_flat_grad: Option<Tensor<1>>,
    prev_loss: f64,
}

fn dot(a: &Tensor<1>, b: &Tensor<1>) -> f64 {
    (a.clone() * b.clone()).sum().into_scalar::<f64>()
}

fn abs_max(a: &Tensor<1>) -> f64 {
    a.clone().abs().max().into_scalar::<f64>()
}

impl Lbfgs {
    /// One L-BFGS step of `module`. `closure` evaluates the loss of the
    /// module it is given and its gradients (run the forward pass,
    /// `backward`, [`GradientsParams::from_grads`]); it is called at least
    /// once. Returns the updated module and the loss of the first
    /// evaluation, as PyTorch's `step` returns it.
    pub fn step<M, F>(&mut self, lr: LearningRate, module: M, mut closure: F) -> (M, f64)
    where
        M: Module,
        F: FnMut(&M) -> (f64, GradientsParams),
    {
        let c = self.config.clone();
        let (mut loss, grads) = closure(&module);
        let orig_loss = loss;
        let mut current_evals = 1;
        self.state.func_evals += 1;
        let mut flat_grad = flatten(&module, &grads);
        if abs_max(&flat_grad) <= c.tolerance_grad {
            return (module, orig_loss);
        }
        let mut module = module;
        let mut n_iter = 0;
        let s = &mut self.state;
        while n_iter < c.max_iter {
            n_iter += 1;
            s.n_iter += 1;
            let direction = if s.n_iter == 1 {
                s.history.clear();
                s.h_diag = 1.0;
                flat_grad.clone().neg()
            } else {
                let y = flat_grad.clone()
                    - s.prev_flat_grad
                        .clone()
                        .expect("set by the previous iteration");
                let step = s
                    .direction
                    .clone()
                    .expect("set by the previous iteration")
                    .mul_scalar(s.step_size);
                let ys = dot(&y, &step);
                if ys > 1e-10 {
                    if s.history.len() == c.history_size {
                        s.history.pop_front();
                    }
                    s.h_diag = ys / dot(&y, &y);
                    s.history.push_back((y, step, 1.0 / ys));
                }
                // The two-loop recursion: q ← -g; newest to oldest
                // αᵢ = ρᵢ·sᵢᵀq, q ← q - αᵢ·yᵢ; r ← H₀·q; oldest to newest
                // βᵢ = ρᵢ·yᵢᵀr, r ← r + (αᵢ - βᵢ)·sᵢ.
                let mut q = flat_grad.clone().neg();
                let mut alphas = vec![0.0; s.history.len()];
                for (i, (y, step, rho)) in s.history.iter().enumerate().rev() {
                    alphas[i] = dot(step, &q) * rho;
                    q = q - y.clone().mul_scalar(alphas[i]);
                }
                let mut r = q.mul_scalar(s.h_diag);
                for (i, (y, step, rho)) in s.history.iter().enumerate() {
                    let beta = dot(y, &r) * rho;
                    r = r + step.clone().mul_scalar(alphas[i] - beta);
                }
                r
            };
            s.prev_flat_grad = Some(flat_grad.clone());
            s.prev_loss = loss;
            s.step_size = if s.n_iter == 1 {
                let l1 = flat_grad.clone().abs().sum().into_scalar::<f64>();
                (1.0f64).min(1.0 / l1) * lr
            } else {
                lr
            };
            s.direction = Some(direction.clone());
            let directional = dot(&flat_grad, &direction);
            if directional > -c.tolerance_change {
                break;
            }
            module = apply(module, &direction, s.step_size);
            let mut small_gradient = false;
            if n_iter != c.max_iter {
                let (new_loss, grads) = closure(&module);
                loss = new_loss;
                flat_grad = flatten(&module, &grads);
                small_gradient = abs_max(&flat_grad) <= c.tolerance_grad;
                current_evals += 1;
                s.func_evals += 1;
            }
            if n_iter == c.max_iter || current_evals >= self.max_eval || small_gradient {
                break;
            }
            if abs_max(&direction.mul_scalar(s.step_size)) <= c.tolerance_change {
                break;
            }
            if (loss - s.prev_loss).abs() < c.tolerance_change {
                break;
            }
        }
        (module, orig_loss)
    }

    /// The iterations run so far, over all steps.
    pub fn num_iterations(&self) -> usize {
        self.state.n_iter
    }

    /// The loss evaluations so far, over all steps.
    pub fn num_evaluations(&self) -> usize {
        self.state.func_evals
    }

    /// The state as a record. L-BFGS state belongs to no single parameter,
    /// so its keys are `"lbfgs.{field}"` (with `"lbfgs.history.{i}.y"`,
    /// `….s`, `….rho` for the pairs), loaded by [`load_record`](Self::load_record)
    /// and not by a [`ModuleOptimizer`](crate::ModuleOptimizer).
    pub fn to_record(&self) -> OptimizerRecord {
        let s = &self.state;
        let mut fields = StateFields::default();
        s.n_iter.save_fields("n_iter", &mut fields);
        s.func_evals.save_fields("func_evals", &mut fields);
        s.direction.save_fields("direction", &mut fields);
        s.step_size.save_fields("step_size", &mut fields);
        s.h_diag.save_fields("h_diag", &mut fields);
        s.prev_flat_grad.save_fields("prev_flat_grad", &mut fields);
        s.prev_loss.save_fields("prev_loss", &mut fields);
        s.history.len().save_fields("history_len", &mut fields);
        for (i, (y, step, rho)) in s.history.iter().enumerate() {
            y.save_fields(&format!("history.{i}.y"), &mut fields);
            step.save_fields(&format!("history.{i}.s"), &mut fields);
            rho.save_fields(&format!("history.{i}.rho"), &mut fields);
        }
        let prefixed = |name: String| format!("{LBFGS_PREFIX}.{name}");
        OptimizerRecord {
            tensors: fields
                .tensors
                .into_iter()
                .map(|(k, v)| (prefixed(k), v))
                .collect(),
            scalars: fields
                .scalars
                .into_iter()
                .map(|(k, v)| (prefixed(k), v))
                .collect::<std::collections::BTreeMap<String, Scalar>>(),
        }
    }

    /// The optimizer with the state `record` holds, its tensors on `device`
    /// (the parameters' device).
    pub fn load_record(
        mut self,
        record: OptimizerRecord,
        device: &Device,
    ) -> Result<Self, OptimError> {
        let strip = |name: String| {
            name.strip_prefix(&format!("{LBFGS_PREFIX}."))
                .map(String::from)
        };
        let mut fields = StateFields {
            tensors: record
                .tensors
                .into_iter()
                .filter_map(|(k, v)| strip(k).map(|k| (k, v)))
                .collect(),
            scalars: record
                .scalars
                .into_iter()
                .filter_map(|(k, v)| strip(k).map(|k| (k, v)))
                .collect(),
        };
        let f = &mut fields;
        let history_len = usize::load_fields("history_len", f, device)?;
        let mut history = VecDeque::with_capacity(history_len);
        for i in 0..history_len {
            history.push_back((
                Tensor::<1>::load_fields(&format!("history.{i}.y"), f, device)?,
                Tensor::<1>::load_fields(&format!("history.{i}.s"), f, device)?,
                f64::load_fields(&format!("history.{i}.rho"), f, device)?,
            ));
        }
        self.state = LbfgsState {
            n_iter: usize::load_fields("n_iter", f, device)?,
            func_evals: usize::load_fields("func_evals", f, device)?,
            direction: Option::load_fields("direction", f, device)?,
            step_size: f64::load_fields("step_size", f, device)?,
            history,
            h_diag: f64::load_fields("h_diag", f, device)?,
            prev_flat_grad: Option::load_fields("prev_flat_grad", f, device)?,
            prev_loss: f64::load_fields("prev_loss", f, device)?,
        };
        Ok(self)
    }
}

const LBFGS_PREFIX: &str = "lbfgs";

/// The gradients of the trainable float parameters, flattened and joined
/// in traversal order (zeros where a parameter has none).
fn flatten<M: Module>(module: &M, grads: &GradientsParams) -> Tensor<1> {
    struct Flatten<'a> {
        grads: &'a GradientsParams,
        parts: Vec<Tensor<1>>,
    }
    impl ModuleVisitor for Flatten<'_> {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            if !param.is_require_grad() {
                return;
            }
            let n = param.shape().num_elements();
            let part = match self.grads.get::<D>(param.id) {
                Some(grad) => grad.reshape([n]),
                None => Tensor::zeros([n], &param.device().without_autodiff()),
            };
            self.parts.push(part);
        }
    }
    let mut visitor = Flatten {
        grads,
        parts: Vec::new(),
    };
    module.visit(&mut visitor);
    assert!(
        !visitor.parts.is_empty(),
        "L-BFGS: the module has no trainable float parameter"
    );
    Tensor::cat(visitor.parts, 0)
}

/// `θ ← θ + t·d`, with `d` split over the trainable parameters as
/// [`flatten`] joined them.
fn apply<M: Module>(module: M, direction: &Tensor<1>, step_size: f64) -> M {
    struct Apply<'a> {
        direction: &'a Tensor<1>,
        step_size: f64,
        offset: usize,
    }
    impl ModuleMapper for Apply<'_> {
        fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
            if !param.is_require_grad() {
                return param;
            }
            let shape = param.shape();
            let n = shape.num_elements();
            let part = self.direction.clone().narrow(0, self.offset, n);
            self.offset += n;
            let step_size = self.step_size;
            param.map(|tensor| {
                outside_graph(tensor, |value| {
                    let part: Tensor<D> = part.to_device(&value.device()).reshape(shape);
                    value + part.mul_scalar(step_size)
                })
            })
        }
    }
    module.map(&mut Apply {
        direction,
        step_size,
        offset: 0,
    })
}
