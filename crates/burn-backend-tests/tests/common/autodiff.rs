//! The registry of the autodiff suite: one module per op under
//! `tests/autodiff/<op>.rs`. Each autodiff executable (`tests/autodiff.rs`,
//! `autodiff_f64.rs`, …) includes this file as its `autodiff` module, so
//! test names read `autodiff::mul::…`. The finite-difference checks,
//! `tests/autodiff/gradcheck.rs`, are registered by `tests/autodiff.rs`
//! alone (`gradcheck::…`).

#[path = "../autodiff/abs.rs"]
mod abs;
#[path = "../autodiff/acos.rs"]
mod acos;
#[path = "../autodiff/acosh.rs"]
mod acosh;
#[path = "../autodiff/add.rs"]
mod add;
#[path = "../autodiff/add_scalar.rs"]
mod add_scalar;
#[path = "../autodiff/asin.rs"]
mod asin;
#[path = "../autodiff/asinh.rs"]
mod asinh;
#[path = "../autodiff/atan.rs"]
mod atan;
#[path = "../autodiff/atan2.rs"]
mod atan2;
#[path = "../autodiff/atanh.rs"]
mod atanh;
#[path = "../autodiff/cast.rs"]
mod cast;
#[path = "../autodiff/cat.rs"]
mod cat;
#[path = "../autodiff/checkpointing.rs"]
mod checkpointing;
#[path = "../autodiff/clamp.rs"]
mod clamp;
#[path = "../autodiff/clamp_max.rs"]
mod clamp_max;
#[path = "../autodiff/clamp_min.rs"]
mod clamp_min;
#[path = "../autodiff/conv.rs"]
mod conv;
#[path = "../autodiff/conv_data.rs"]
mod conv_data;
#[path = "../autodiff/cos.rs"]
mod cos;
#[path = "../autodiff/cosh.rs"]
mod cosh;
#[path = "../autodiff/cummax.rs"]
mod cummax;
#[path = "../autodiff/cummin.rs"]
mod cummin;
#[path = "../autodiff/cumprod.rs"]
mod cumprod;
#[path = "../autodiff/cumsum.rs"]
mod cumsum;
#[path = "../autodiff/div.rs"]
mod div;
#[path = "../autodiff/div_scalar.rs"]
mod div_scalar;
#[path = "../autodiff/erf.rs"]
mod erf;
#[path = "../autodiff/exp.rs"]
mod exp;
#[path = "../autodiff/expand.rs"]
mod expand;
#[path = "../autodiff/expect.rs"]
mod expect;
#[path = "../autodiff/flip.rs"]
mod flip;
#[path = "../autodiff/gather.rs"]
mod gather;
#[path = "../autodiff/gelu.rs"]
mod gelu;
#[path = "../autodiff/graph.rs"]
mod graph;
#[path = "../autodiff/hard_sigmoid.rs"]
mod hard_sigmoid;
#[path = "../autodiff/leaky_relu.rs"]
mod leaky_relu;
#[path = "../autodiff/log.rs"]
mod log;
#[path = "../autodiff/log1p.rs"]
mod log1p;
#[path = "../autodiff/log_sigmoid.rs"]
mod log_sigmoid;
#[path = "../autodiff/log_softmax.rs"]
mod log_softmax;
#[path = "../autodiff/mask_fill.rs"]
mod mask_fill;
#[path = "../autodiff/mask_where.rs"]
mod mask_where;
#[path = "../autodiff/matmul.rs"]
mod matmul;
#[path = "../autodiff/max.rs"]
mod max;
#[path = "../autodiff/max_dim.rs"]
mod max_dim;
#[path = "../autodiff/max_dim_with_indices.rs"]
mod max_dim_with_indices;
#[path = "../autodiff/max_pair.rs"]
mod max_pair;
#[path = "../autodiff/mean.rs"]
mod mean;
#[path = "../autodiff/mean_dim.rs"]
mod mean_dim;
#[path = "../autodiff/min.rs"]
mod min;
#[path = "../autodiff/min_dim.rs"]
mod min_dim;
#[path = "../autodiff/module_data.rs"]
mod module_data;
#[path = "../autodiff/module_ops.rs"]
mod module_ops;
#[path = "../autodiff/mul.rs"]
mod mul;
#[path = "../autodiff/mul_scalar.rs"]
mod mul_scalar;
#[path = "../autodiff/narrow.rs"]
mod narrow;
#[path = "../autodiff/neg.rs"]
mod neg;
#[path = "../autodiff/permute.rs"]
mod permute;
#[path = "../autodiff/piecewise_constant.rs"]
mod piecewise_constant;
#[path = "../autodiff/powf.rs"]
mod powf;
#[path = "../autodiff/powf_scalar.rs"]
mod powf_scalar;
#[path = "../autodiff/prod.rs"]
mod prod;
#[path = "../autodiff/prod_dim.rs"]
mod prod_dim;
#[path = "../autodiff/recip.rs"]
mod recip;
#[path = "../autodiff/relu.rs"]
mod relu;
#[path = "../autodiff/remainder.rs"]
mod remainder;
#[path = "../autodiff/repeat_dim.rs"]
mod repeat_dim;
#[path = "../autodiff/reshape.rs"]
mod reshape;
#[path = "../autodiff/scatter_add.rs"]
mod scatter_add;
#[path = "../autodiff/select.rs"]
mod select;
#[path = "../autodiff/select_add.rs"]
mod select_add;
#[path = "../autodiff/sigmoid.rs"]
mod sigmoid;
#[path = "../autodiff/silu.rs"]
mod silu;
#[path = "../autodiff/sin.rs"]
mod sin;
#[path = "../autodiff/sinh.rs"]
mod sinh;
#[path = "../autodiff/slice.rs"]
mod slice;
#[path = "../autodiff/slice_assign.rs"]
mod slice_assign;
#[path = "../autodiff/softmax.rs"]
mod softmax;
#[path = "../autodiff/sort.rs"]
mod sort;
#[path = "../autodiff/sqrt.rs"]
mod sqrt;
#[path = "../autodiff/sub.rs"]
mod sub;
#[path = "../autodiff/sub_scalar.rs"]
mod sub_scalar;
#[path = "../autodiff/sum.rs"]
mod sum;
#[path = "../autodiff/sum_dim.rs"]
mod sum_dim;
#[path = "../autodiff/swap_dims.rs"]
mod swap_dims;
#[path = "../autodiff/tan.rs"]
mod tan;
#[path = "../autodiff/tanh.rs"]
mod tanh;
#[path = "../autodiff/to_device.rs"]
mod to_device;
#[path = "../autodiff/tril.rs"]
mod tril;
#[path = "../autodiff/triu.rs"]
mod triu;
