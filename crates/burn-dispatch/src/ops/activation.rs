//! Activation ops: every method of `ActivationOps` routed to the backend
//! holding the operands, so a backend's fused activation is used.

use burn_backend::{ActivationOps, FloatTensor};
use burn_backend_extension::backend_dispatch;
use burn_std::Scalar;

use crate::Dispatch;

#[backend_dispatch]
impl ActivationOps<Self> for Dispatch {
    fn relu(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn relu_backward(output: FloatTensor<Self>, grad: FloatTensor<Self>) -> FloatTensor<Self>;
    fn leaky_relu(tensor: FloatTensor<Self>, slope: Scalar) -> FloatTensor<Self>;
    fn gelu(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn gelu_backward(x: FloatTensor<Self>, grad: FloatTensor<Self>) -> FloatTensor<Self>;
    fn sigmoid(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn sigmoid_backward(output: FloatTensor<Self>, grad: FloatTensor<Self>) -> FloatTensor<Self>;
    fn hard_sigmoid(tensor: FloatTensor<Self>, alpha: Scalar, beta: Scalar) -> FloatTensor<Self>;
    fn log_sigmoid(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn log_sigmoid_backward(x: FloatTensor<Self>, grad: FloatTensor<Self>) -> FloatTensor<Self>;
    fn silu(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn softmax(tensor: FloatTensor<Self>, dim: usize) -> FloatTensor<Self>;
    fn log_softmax(tensor: FloatTensor<Self>, dim: usize) -> FloatTensor<Self>;
}
