//! [`BatchNorm`] and the [`RunningState`] that carries its running
//! statistics.

use std::sync::{Arc, Mutex, MutexGuard};

use burn::config::Config;
use burn::module::{Devices, Flag, Module, ModuleMapper, ModuleVisitor, Param};
use burn::tensor::{Device, Tensor};

use super::per_channel;
use crate::Initializer;

/// A non-trainable float parameter that a forward pass updates through
/// `&self`: the running statistics of [`BatchNorm`].
///
/// It is recorded, moved and mapped like any `Param<Tensor<D>>` (with
/// `require_grad` off, so optimizers leave it alone). Clones share the
/// value, so the model a training loop holds sees the updates made through
/// any handle; `valid()`, `to_device` and loading build a fresh one.
pub struct RunningState<const D: usize> {
    value: Arc<Mutex<Param<Tensor<D>>>>,
}

impl<const D: usize> RunningState<D> {
    /// A state holding `tensor`, not trainable.
    pub fn new(tensor: Tensor<D>) -> Self {
        Self::from_param(Param::from_tensor(tensor).set_require_grad(false))
    }

    fn from_param(param: Param<Tensor<D>>) -> Self {
        Self {
            value: Arc::new(Mutex::new(param)),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Param<Tensor<D>>> {
        // A panic while holding the lock cannot leave a half-written value:
        // the value is replaced whole.
        self.value.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The current value.
    pub fn value(&self) -> Tensor<D> {
        self.lock().val()
    }

    /// Replaces the value (detached from any graph), keeping the id.
    pub fn update(&self, tensor: Tensor<D>) {
        let mut guard = self.lock();
        let param = guard.clone();
        *guard = param.map(|_| tensor.detach());
    }

    fn into_param(self) -> Param<Tensor<D>> {
        match Arc::try_unwrap(self.value) {
            Ok(mutex) => mutex.into_inner().unwrap_or_else(|e| e.into_inner()),
            Err(shared) => shared.lock().unwrap_or_else(|e| e.into_inner()).clone(),
        }
    }
}

impl<const D: usize> Clone for RunningState<D> {
    fn clone(&self) -> Self {
        Self {
            value: self.value.clone(),
        }
    }
}

impl<const D: usize> core::fmt::Debug for RunningState<D> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("RunningState").field(&*self.lock()).finish()
    }
}

impl<const D: usize> Module for RunningState<D> {
    fn visit<V: ModuleVisitor>(&self, visitor: &mut V) {
        visitor.visit_float(&self.lock());
    }

    fn map<M: ModuleMapper>(self, mapper: &mut M) -> Self {
        Self::from_param(mapper.map_float(self.into_param()))
    }

    fn collect_devices(&self, devices: Devices) -> Devices {
        self.lock().collect_devices(devices)
    }

    fn to_device(self, device: &Device) -> Self {
        Self::from_param(self.into_param().to_device(device))
    }

    fn fork(self, device: &Device) -> Self {
        Self::from_param(self.into_param().fork(device))
    }
}

/// Configuration of a [`BatchNorm`].
#[derive(Config, Debug)]
pub struct BatchNormConfig {
    /// Number of channels (dim 1).
    pub num_features: usize,
    /// Added to the variance.
    #[config(default = 1e-5)]
    pub epsilon: f64,
    /// Weight of the new batch in the running statistics.
    #[config(default = 0.1)]
    pub momentum: f64,
}

/// Batch normalization (Ioffe & Szegedy), per channel (dim 1).
///
/// While training (its `training` flag on: when built and after
/// `train()`) it normalizes with the statistics of the batch (biased
/// variance) and updates the running ones, `running = (1 − momentum) ·
/// running + momentum · batch` with the unbiased variance, as PyTorch. In a
/// `valid()` snapshot it normalizes with the running statistics.
///
/// Parameters: `gamma` (ones), `beta` (zeros), and the non-trainable
/// `running_mean` (zeros) and `running_var` (ones), all `[num_features]`.
#[derive(Module, Debug)]
pub struct BatchNorm {
    /// Learned per-channel scale.
    pub gamma: Param<Tensor<1>>,
    /// Learned per-channel shift.
    pub beta: Param<Tensor<1>>,
    /// Running mean.
    pub running_mean: RunningState<1>,
    /// Running (unbiased) variance.
    pub running_var: RunningState<1>,
    /// Weight of a new batch in the running statistics.
    pub momentum: f64,
    /// Added to the variance.
    pub epsilon: f64,
    /// Whether to use and update batch statistics (module state, never recorded).
    pub training: Param<Flag>,
}

impl BatchNormConfig {
    /// Builds the layer on `device`, in training mode.
    pub fn init(&self, device: &Device) -> BatchNorm {
        let n = self.num_features;
        BatchNorm {
            gamma: Initializer::Ones.init([n], device),
            beta: Initializer::Zeros.init([n], device),
            running_mean: RunningState::new(Tensor::zeros([n], device)),
            running_var: RunningState::new(Tensor::ones([n], device)),
            momentum: self.momentum,
            epsilon: self.epsilon,
            training: Param::from_bool(true),
        }
    }
}

impl BatchNorm {
    /// Normalizes `[batch, num_features, ...]` (rank ≥ 2).
    ///
    /// # Panics
    /// If dim 1 is not `num_features`.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        let dims = input.dims();
        let channels = self.gamma.shape().dims[0];
        assert!(
            D >= 2 && dims[1] == channels,
            "BatchNorm::forward: expected [batch, {channels}, ...], got {}",
            input.shape()
        );
        let (mean, var) = if self.training.is_enabled() {
            self.batch_statistics(input.clone(), channels)
        } else {
            (self.running_mean.value(), self.running_var.value())
        };
        let normalized =
            (input - per_channel::<D>(mean)) / per_channel::<D>(var + self.epsilon).sqrt();
        normalized * per_channel::<D>(self.gamma.val()) + per_channel::<D>(self.beta.val())
    }

    /// The batch's per-channel mean and biased variance; updates the
    /// running statistics.
    fn batch_statistics<const D: usize>(
        &self,
        input: Tensor<D>,
        channels: usize,
    ) -> (Tensor<1>, Tensor<1>) {
        // [batch, C, ...] -> [C, batch · positions]
        let n = input.num_elements() / channels.max(1);
        let flat: Tensor<2> = input.swap_dims(0, 1).reshape([channels, n]);
        let (var, mean) = flat.var_mean_bias(1);
        let (mean, var) = (mean.reshape([channels]), var.reshape([channels]));

        let unbiased = var.clone().detach() * (n as f64 / (n.max(2) - 1) as f64);
        let m = self.momentum;
        self.running_mean
            .update(self.running_mean.value() * (1.0 - m) + mean.clone().detach() * m);
        self.running_var
            .update(self.running_var.value() * (1.0 - m) + unbiased * m);
        (mean, var)
    }
}
