//! LoRA (Hu et al. 2021, "LoRA: Low-Rank Adaptation of Large Language
//! Models"): freeze a model's weights and train a low-rank correction of
//! each 2-D weight, `W + scale·A·B`, with `A` `[d_in, rank]` and `B`
//! `[rank, d_out]` (Burn's `Linear` layout, `W` `[d_in, d_out]`).

use burn_tensor::{Distribution, Tensor};

use super::param::{Reparameterization, Reparameterizer};
use super::{Module, Param, ParamGroup};

/// The adapter attached to an adapted weight: `val() = base + scale·a·b`.
///
/// Its parameters are the model's: `weight.lora.a` and `weight.lora.b` in
/// records, trained by the optimizer like any other.
#[derive(Module, Debug)]
pub struct LoraAdapter {
    /// `A`, `[d_in, rank]`, drawn from `N(0, init_std²)`.
    pub a: Param<Tensor<2>>,
    /// `B`, `[rank, d_out]`, zeros: an adapter changes nothing until trained.
    pub b: Param<Tensor<2>>,
    /// `alpha / rank`.
    pub scale: f64,
}

impl LoraAdapter {
    /// The correction `scale·a·b`, `[d_in, d_out]`.
    pub fn delta(&self) -> Tensor<2> {
        self.a.val().matmul(self.b.val()).mul_scalar(self.scale)
    }
}

impl Reparameterization for LoraAdapter {
    const NAME: &'static str = "lora";

    /// # Panics
    /// If `base` does not have the `[d_in, d_out]` shape the adapter was made for.
    fn apply<const D: usize>(&self, base: Tensor<D>) -> Tensor<D> {
        let delta = self.delta();
        assert_eq!(
            delta.shape(),
            base.shape(),
            "LoRA: the adapter's correction is {} but the weight is {}",
            delta.shape(),
            base.shape()
        );
        let shape = base.shape();
        base + delta.reshape(shape)
    }
}

/// Attaches LoRA adapters: with
/// [`Module::apply_lora`](super::Module::apply_lora), every float
/// parameter is frozen, and each 2-D one the group selects (all by
/// default) gets a trainable [`LoraAdapter`]. No model code changes: a
/// `Linear` reading `weight.val()` now computes with `W + scale·A·B`.
///
/// Flags (dropout, batch norm) are left as they are; `freeze()` the model
/// first to stop those too. `unfreeze()` afterwards unfreezes the bases as
/// well (full fine-tuning); `unfreeze_group` unfreezes a chosen subtree.
///
/// ```
/// use burn_core as burn;
/// use burn::module::{Lora, Module, Param};
/// use burn::tensor::{Device, Tensor};
///
/// #[derive(Module, Debug)]
/// struct Layer {
///     weight: Param<Tensor<2>>,
///     bias: Param<Tensor<1>>,
/// }
///
/// let device = Device::flex().autodiff();
/// let layer = Layer {
///     weight: Param::from_tensor(Tensor::ones([4, 3], &device)),
///     bias: Param::from_tensor(Tensor::zeros([3], &device)),
/// }
/// .apply_lora(Lora::new(2, 4.0));
/// let adapter = layer.weight.adapter().expect("the 2-D weight is adapted");
/// assert_eq!((adapter.a.dims(), adapter.b.dims(), adapter.scale), ([4, 2], [2, 3], 2.0));
/// // B starts at zero: the effective weight is the base.
/// assert_eq!(layer.weight.val().into_data(), layer.weight.base().into_data());
/// // The bases are frozen; only the adapter trains.
/// assert!(!layer.weight.is_require_grad() && !layer.bias.is_require_grad());
/// assert_eq!(layer.num_params(), 12 + 3 + 8 + 6);
/// ```
#[derive(Clone, Debug)]
pub struct Lora {
    /// The rank of the correction, above zero.
    pub rank: usize,
    /// The correction is scaled by `alpha / rank`.
    pub alpha: f64,
    /// The standard deviation `A` is drawn with (`1 / rank` when `None`).
    pub init_std: Option<f64>,
    /// The parameters that get an adapter (all 2-D ones by default).
    pub param_group: ParamGroup,
}

impl Lora {
    /// LoRA of `rank` and `alpha`.
    ///
    /// # Panics
    /// If `rank` is zero.
    pub fn new(rank: usize, alpha: f64) -> Self {
        assert!(rank > 0, "Lora::new: the rank must be above zero, got 0");
        Self {
            rank,
            alpha,
            init_std: None,
            param_group: ParamGroup::all(),
        }
    }

    /// Adapts only the parameters of `group` (the others are still frozen).
    pub fn set_param_group(mut self, group: ParamGroup) -> Self {
        self.param_group = group;
        self
    }
}

impl Reparameterizer for Lora {
    type Reparam = LoraAdapter;

    fn reparameterize<const D: usize>(
        &mut self,
        path: &str,
        param: Param<Tensor<D>>,
    ) -> (Param<Tensor<D>>, Option<LoraAdapter>) {
        let selected = D == 2 && self.param_group.matches(&param.id, path);
        let base = param.set_require_grad(false);
        if !selected {
            return (base, None);
        }
        let (shape, device) = (base.shape(), base.device());
        let (d_in, d_out) = (shape[0], shape[1]);
        let std = self.init_std.unwrap_or(1.0 / self.rank as f64);
        let dtype = base.dtype();
        let a = Tensor::<2>::random(
            [d_in, self.rank],
            Distribution::Normal(0.0, std),
            (&device, dtype),
        );
        let b = Tensor::<2>::zeros([self.rank, d_out], (&device, dtype));
        let adapter = LoraAdapter {
            a: Param::from_tensor(a),
            b: Param::from_tensor(b),
            scale: self.alpha / self.rank as f64,
        };
        (base, Some(adapter))
    }
}
