//! `ActivationOps` of the router: every activation is recorded as itself,
//! so the executing backend's own kernels (its fused softmax, say) run.

use burn_backend::{ActivationOps, TensorMetadata};
use burn_ir::{ActivationOperationIr as A, OperationIr, ScalarIr};
use burn_std::Scalar;

use super::{Recorder, binary_to, dim_to, scalar, unary_same};
use crate::{BackendRouter, RouterTensor, RunnerChannel};

type T = RouterTensor;

fn act(op: A) -> OperationIr {
    OperationIr::Activation(op)
}

/// A derivative `f'(a) · grad`, shaped as `a`.
fn backward(name: &'static str, a: T, grad: T, make: fn(burn_ir::BinaryOpIr) -> A) -> T {
    let (shape, dtype) = (a.shape(), a.dtype());
    binary_to(name, a, grad, shape, dtype, |desc| act(make(desc)))
}

/// Softmax or log-softmax along `dim`.
#[track_caller]
fn softmax_like(name: &'static str, tensor: T, dim: usize, make: fn(burn_ir::DimOpIr) -> A) -> T {
    burn_backend::check::dim(name, dim, &tensor.shape());
    let (shape, dtype) = (tensor.shape(), tensor.dtype());
    dim_to(name, tensor, dim, shape, dtype, |desc| act(make(desc)))
}

impl<C: RunnerChannel> ActivationOps<Self> for BackendRouter<C> {
    fn relu(tensor: T) -> T {
        unary_same("relu", tensor, |desc| act(A::Relu(desc)))
    }
    fn relu_backward(output: T, grad: T) -> T {
        backward("relu_backward", output, grad, A::ReluBackward)
    }
    fn leaky_relu(tensor: T, slope: Scalar) -> T {
        let dtype = tensor.dtype();
        scalar("leaky_relu", tensor, slope, dtype, |desc| {
            act(A::LeakyRelu(desc))
        })
    }
    fn gelu(tensor: T) -> T {
        unary_same("gelu", tensor, |desc| act(A::Gelu(desc)))
    }
    fn gelu_backward(x: T, grad: T) -> T {
        backward("gelu_backward", x, grad, A::GeluBackward)
    }
    fn sigmoid(tensor: T) -> T {
        unary_same("sigmoid", tensor, |desc| act(A::Sigmoid(desc)))
    }
    fn sigmoid_backward(output: T, grad: T) -> T {
        backward("sigmoid_backward", output, grad, A::SigmoidBackward)
    }
    fn hard_sigmoid(tensor: T, alpha: Scalar, beta: Scalar) -> T {
        let mut rec = Recorder::new("hard_sigmoid", &tensor);
        let out = rec.output(tensor.shape(), tensor.dtype());
        let dtype = tensor.dtype();
        let op = A::HardSigmoid {
            input: rec.input(tensor),
            alpha: ScalarIr::new(alpha, dtype),
            beta: ScalarIr::new(beta, dtype),
            out: out.ir_uninit(),
        };
        rec.register(act(op));
        out
    }
    fn log_sigmoid(tensor: T) -> T {
        unary_same("log_sigmoid", tensor, |desc| act(A::LogSigmoid(desc)))
    }
    fn log_sigmoid_backward(x: T, grad: T) -> T {
        backward("log_sigmoid_backward", x, grad, A::LogSigmoidBackward)
    }
    fn silu(tensor: T) -> T {
        unary_same("silu", tensor, |desc| act(A::Silu(desc)))
    }
    fn softmax(tensor: T, dim: usize) -> T {
        softmax_like("softmax", tensor, dim, A::Softmax)
    }
    fn log_softmax(tensor: T, dim: usize) -> T {
        softmax_like("log_softmax", tensor, dim, A::LogSoftmax)
    }
}
