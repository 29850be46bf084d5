//! Forwarding of the convolutions and `unfold4d` (`burn_tensor::module`),
//! with the shape checks that give the API its error messages.

use burn_backend::{
    ConvOptions, ConvTransposeOptions, FloatTensorOps, ModuleOps, TensorMetadata, UnfoldOptions,
    check,
};
use burn_dispatch::{Dispatch, DispatchTensor};

use super::float::float;
use crate::bridge::BridgeTensor;

type Operands = (DispatchTensor, DispatchTensor, Option<DispatchTensor>);

/// Unwraps the float operands; the weight and bias follow the input's dtype.
#[track_caller]
fn operands(
    op: &str,
    x: BridgeTensor,
    weight: BridgeTensor,
    bias: Option<BridgeTensor>,
) -> Operands {
    let x = float(op, x);
    let dtype = x.dtype();
    let cast = |t: DispatchTensor| {
        if t.dtype() == dtype {
            t
        } else {
            Dispatch::float_cast(t, dtype)
        }
    };
    let weight = cast(float(op, weight));
    let bias = bias.map(|b| cast(float(op, b)));
    (x, weight, bias)
}

macro_rules! conv_fns {
    ($($name:ident => $n:literal),*) => {$(
        #[track_caller]
        pub(crate) fn $name(
            x: BridgeTensor,
            weight: BridgeTensor,
            bias: Option<BridgeTensor>,
            options: ConvOptions<$n>,
        ) -> BridgeTensor {
            let (x, weight, bias) = operands(stringify!($name), x, weight, bias);
            let o = options;
            check::conv(
                stringify!($name),
                &x.shape(),
                &weight.shape(),
                bias.as_ref().map(|b| b.shape()).as_ref(),
                &o.stride,
                &o.padding,
                &o.dilation,
                o.groups,
            );
            BridgeTensor::float(Dispatch::$name(x, weight, bias, options))
        }
    )*};
}
conv_fns!(conv1d => 1, conv2d => 2, conv3d => 3);

macro_rules! conv_transpose_fns {
    ($($name:ident => $n:literal),*) => {$(
        #[track_caller]
        pub(crate) fn $name(
            x: BridgeTensor,
            weight: BridgeTensor,
            bias: Option<BridgeTensor>,
            options: ConvTransposeOptions<$n>,
        ) -> BridgeTensor {
            let (x, weight, bias) = operands(stringify!($name), x, weight, bias);
            let o = options;
            check::conv_transpose(
                stringify!($name),
                &x.shape(),
                &weight.shape(),
                bias.as_ref().map(|b| b.shape()).as_ref(),
                &o.stride,
                &o.padding,
                &o.padding_out,
                &o.dilation,
                o.groups,
            );
            BridgeTensor::float(Dispatch::$name(x, weight, bias, options))
        }
    )*};
}
conv_transpose_fns!(conv_transpose1d => 1, conv_transpose2d => 2, conv_transpose3d => 3);

#[track_caller]
pub(crate) fn unfold4d(
    x: BridgeTensor,
    kernel_size: [usize; 2],
    options: UnfoldOptions,
) -> BridgeTensor {
    let x = float("unfold4d", x);
    let shape = x.shape();
    if shape.num_dims() != 4 {
        panic!("unfold4d: expected a 4-dim input [batch, channels, height, width], got {shape}");
    }
    // The geometry check of the equivalent convolution (one output channel
    // per input channel and kernel element).
    let [kh, kw] = kernel_size;
    let channels = shape.dims[1];
    let weight = burn_std::Shape::new([channels * kh * kw, 1, kh, kw]);
    let o = options;
    check::conv(
        "unfold4d",
        &shape,
        &weight,
        None,
        &o.stride,
        &o.padding,
        &o.dilation,
        channels.max(1),
    );
    BridgeTensor::float(Dispatch::unfold4d(x, kernel_size, options))
}
