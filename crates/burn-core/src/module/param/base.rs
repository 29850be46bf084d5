//! [`Param<T>`]: a value with an identity, possibly not yet initialized.

use core::fmt;
use std::boxed::Box;
use std::sync::{Arc, Mutex, OnceLock};

use burn_tensor::{Device, Shape};

use super::ParamId;
use super::reparameterization::DynReparameterization;

/// A value a [`Param`] can hold: a `Tensor<D, K>` or a [`Flag`](super::Flag).
pub trait Parameter: Clone + Send + Sync + fmt::Debug + 'static {
    /// The value as a parameter with this trainability stores it. For a
    /// float tensor that carries an autodiff context: a `require_grad` leaf
    /// when `trainable` (a tracked intermediate is cut from its graph first),
    /// a constant otherwise. Every other value is returned unchanged.
    fn with_trainability(self, trainable: bool) -> Self;
}

/// A module parameter: a value (a tensor, or a [`Flag`](super::Flag)) with
/// an identity ([`ParamId`]) and a trainability setting.
///
/// A parameter may be *lazy*: built by [`uninitialized`](Param::uninitialized)
/// with the device and shape it will have and a function that makes it, run
/// the first time the value is read. Building a large model, moving it to
/// another device and loading a record into it therefore never runs the
/// initializers. Clones of a lazy parameter share the pending value, so
/// they all see the same one once it exists.
pub struct Param<T> {
    /// The parameter's identity. Kept by every transformation that does not
    /// replace the parameter (moves, loads take the record's id).
    pub id: ParamId,
    pub(crate) state: State<T>,
    /// Whether the parameter is trainable. For a tensor, what `require_grad`
    /// is set to on an autodiff device; for a [`Flag`](super::Flag), the value
    /// it is configured to have while training.
    pub(crate) require_grad: bool,
    /// What computes the effective value from the stored one (a LoRA
    /// adapter), if anything is attached; see [`val`](Param::val).
    pub(crate) reparameterization: Option<Box<dyn DynReparameterization<T>>>,
}

/// What a consumed parameter carries besides its id and value
/// ([`Param::consume`]): its trainability and any attached
/// reparameterization, so that [`Param::from_mapped_value`] rebuilds the
/// same parameter around a transformed value (Burn's `ParamMapper`).
pub struct ParamMapper<T> {
    require_grad: bool,
    reparameterization: Option<Box<dyn DynReparameterization<T>>>,
}

impl<T> ParamMapper<T> {
    /// Whether the parameter was trainable.
    pub fn is_require_grad(&self) -> bool {
        self.require_grad
    }
}

impl<T> fmt::Debug for ParamMapper<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ParamMapper")
            .field("require_grad", &self.require_grad)
            .field(
                "reparameterization",
                &self.reparameterization.as_ref().map(|r| r.name()),
            )
            .finish()
    }
}

pub(crate) enum State<T> {
    Ready(T),
    Lazy(Arc<Lazy<T>>),
}

/// The function that makes a lazy parameter's value, given its device and
/// its trainability.
type Init<T> = Box<dyn FnOnce(&Device, bool) -> T + Send>;

pub(crate) struct Lazy<T> {
    value: OnceLock<T>,
    init: Mutex<Option<Init<T>>>,
    pub(crate) device: Device,
    pub(crate) shape: Shape,
}

impl<T: Parameter> Lazy<T> {
    fn get(&self, require_grad: bool) -> &T {
        self.value.get_or_init(|| {
            let init = self
                .init
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take()
                .expect("the initializer of this lazy parameter panicked on an earlier read");
            init(&self.device, require_grad).with_trainability(require_grad)
        })
    }
}

impl<T: Parameter> Param<T> {
    /// A trainable parameter holding `value` (see
    /// [`Parameter::with_trainability`] for what that makes of a float
    /// tensor on an autodiff device).
    pub fn initialized(id: ParamId, value: T) -> Self {
        Self::ready(id, value, true)
    }

    /// A parameter holding `value` with trainability `require_grad` applied.
    pub(crate) fn ready(id: ParamId, value: T, require_grad: bool) -> Self {
        Self {
            id,
            state: State::Ready(value.with_trainability(require_grad)),
            require_grad,
            reparameterization: None,
        }
    }

    /// A parameter holding `value` exactly as given: the module transitions
    /// that deliberately leave a value as it is (`to_device` keeps a moved
    /// leaf an intermediate of the graph; `valid` makes constants).
    pub(crate) fn raw(id: ParamId, value: T, require_grad: bool) -> Self {
        Self {
            id,
            state: State::Ready(value),
            require_grad,
            reparameterization: None,
        }
    }

    /// A lazy parameter: `init(device, require_grad)` makes the value the
    /// first time it is read, which must be on `device` with `shape`. The
    /// value is then stored with its trainability applied, like
    /// [`initialized`](Self::initialized)'s.
    pub fn uninitialized<F>(
        id: ParamId,
        init: F,
        device: Device,
        require_grad: bool,
        shape: impl Into<Shape>,
    ) -> Self
    where
        F: FnOnce(&Device, bool) -> T + Send + 'static,
    {
        Self {
            id,
            state: State::Lazy(Arc::new(Lazy {
                value: OnceLock::new(),
                init: Mutex::new(Some(Box::new(init))),
                device,
                shape: shape.into(),
            })),
            require_grad,
            reparameterization: None,
        }
    }

    /// The stored value, running the initializer of a lazy parameter.
    pub fn base(&self) -> T {
        match &self.state {
            State::Ready(value) => value.clone(),
            State::Lazy(lazy) => lazy.get(self.require_grad).clone(),
        }
    }

    /// The value to compute with: the stored value, [`base`](Self::base),
    /// or, with a reparameterization attached (a LoRA adapter), the value it
    /// computes from the base (`base + scale·a·b`), built anew at each call
    /// so gradients flow into the adapter's parameters.
    ///
    /// For a trainable float parameter on an autodiff device with nothing
    /// attached this is a `require_grad` leaf: the stored value is one
    /// (every way of storing a value applies the trainability), so each read
    /// is a handle to the same leaf and `param.val().grad(&grads)` finds its
    /// gradient.
    pub fn val(&self) -> T {
        let base = self.base();
        match &self.reparameterization {
            Some(reparameterization) => reparameterization.apply(base),
            None => base,
        }
    }

    /// Whether the parameter is trainable (for a flag: the value it is
    /// configured to have while training).
    pub fn is_require_grad(&self) -> bool {
        self.require_grad
    }

    /// The parameter made trainable or not, keeping its id: a float tensor
    /// on an autodiff device becomes a `require_grad` leaf or a constant. A
    /// lazy parameter stays lazy when no clone shares it.
    pub fn set_require_grad(self, require_grad: bool) -> Self {
        let reparameterization = self.reparameterization;
        match self.state {
            State::Lazy(lazy) if lazy.value.get().is_none() && Arc::strong_count(&lazy) == 1 => {
                Self {
                    id: self.id,
                    state: State::Lazy(lazy),
                    require_grad,
                    reparameterization,
                }
            }
            state => {
                let param = Self {
                    id: self.id,
                    state,
                    require_grad,
                    reparameterization: None,
                };
                let (id, value) = param.consume_value();
                Self::ready(id, value, require_grad).with_dyn_reparameterization(reparameterization)
            }
        }
    }

    /// The value, consuming the parameter.
    pub fn into_value(self) -> T {
        match self.state {
            State::Ready(value) => value,
            State::Lazy(lazy) => match Arc::try_unwrap(lazy) {
                Ok(lazy) => {
                    let require_grad = self.require_grad;
                    lazy.get(require_grad);
                    lazy.value.into_inner().expect("initialized just above")
                }
                Err(shared) => shared.get(self.require_grad).clone(),
            },
        }
    }

    /// The id, the stored value and what else the parameter carries (its
    /// trainability, any reparameterization), consuming it; the inverse of
    /// [`from_mapped_value`](Self::from_mapped_value), for mappers that
    /// rebuild parameters around a transformed value.
    ///
    /// ```
    /// use burn_core::module::Param;
    /// use burn_core::tensor::{Device, Tensor};
    ///
    /// let param = Param::from_tensor(Tensor::<1>::from_data([1.0, 2.0], &Device::flex()));
    /// let id = param.id;
    /// let (id_out, value, mapper) = param.consume();
    /// let doubled = Param::from_mapped_value(id_out, value * 2, mapper);
    /// assert_eq!(doubled.id, id);
    /// assert_eq!(doubled.val().into_data().to_vec::<f32>().unwrap(), [2.0, 4.0]);
    /// ```
    pub fn consume(self) -> (ParamId, T, ParamMapper<T>) {
        let mapper = ParamMapper {
            require_grad: self.require_grad,
            reparameterization: None,
        };
        let reparameterization = self.reparameterization;
        let (id, value) = Self {
            reparameterization: None,
            ..self
        }
        .consume_value();
        (
            id,
            value,
            ParamMapper {
                reparameterization,
                ..mapper
            },
        )
    }

    /// A parameter of id `id` holding `value`, with the trainability and
    /// reparameterization `mapper` carries from [`consume`](Self::consume)
    /// (the trainability is applied to `value`, as
    /// [`initialized`](Self::initialized) does).
    pub fn from_mapped_value(id: ParamId, value: T, mapper: ParamMapper<T>) -> Self {
        Self::ready(id, value, mapper.require_grad)
            .with_dyn_reparameterization(mapper.reparameterization)
    }

    /// The id and the stored value.
    fn consume_value(self) -> (ParamId, T) {
        let id = self.id;
        (id, self.into_value())
    }

    /// The parameter with its value transformed by `f`, keeping its id,
    /// trainability (applied to the result, so an optimizer's updated
    /// tensor is stored as a fresh leaf) and any reparameterization (`f`
    /// sees the stored base). Initializes a lazy parameter.
    pub fn map(self, f: impl FnOnce(T) -> T) -> Self {
        let (id, value, mapper) = self.consume();
        Self::from_mapped_value(id, f(value), mapper)
    }

    /// As [`map`](Self::map), storing the result as it is.
    pub(crate) fn map_raw(self, f: impl FnOnce(T) -> T) -> Self {
        let (id, value, mapper) = self.consume();
        Self::raw(id, f(value), mapper.require_grad)
            .with_dyn_reparameterization(mapper.reparameterization)
    }

    pub(crate) fn with_dyn_reparameterization(
        mut self,
        reparameterization: Option<Box<dyn DynReparameterization<T>>>,
    ) -> Self {
        self.reparameterization = reparameterization;
        self
    }

    /// The parameter without its reparameterization (sharing the stored
    /// value), and the reparameterization.
    pub(crate) fn split_reparameterization(
        mut self,
    ) -> (Self, Option<Box<dyn DynReparameterization<T>>>) {
        let reparameterization = self.reparameterization.take();
        (self, reparameterization)
    }

    /// A clone without the reparameterization, for visitors: they see the
    /// stored base, and the attached parameters separately.
    pub(crate) fn without_reparameterization(&self) -> Self {
        Self {
            id: self.id,
            state: match &self.state {
                State::Ready(value) => State::Ready(value.clone()),
                State::Lazy(lazy) => State::Lazy(lazy.clone()),
            },
            require_grad: self.require_grad,
            reparameterization: None,
        }
    }

    /// Whether the value exists (always, unless the parameter is lazy and
    /// has not been read).
    pub fn is_initialized(&self) -> bool {
        match &self.state {
            State::Ready(_) => true,
            State::Lazy(lazy) => lazy.value.get().is_some(),
        }
    }

    /// The value if it exists, without running an initializer.
    pub(crate) fn peek(&self) -> Option<&T> {
        match &self.state {
            State::Ready(value) => Some(value),
            State::Lazy(lazy) => lazy.value.get(),
        }
    }

    /// The pending initializer of a lazy parameter, if it has not run.
    pub(crate) fn pending(&self) -> Option<&Lazy<T>> {
        match &self.state {
            State::Lazy(lazy) if lazy.value.get().is_none() => Some(lazy),
            _ => None,
        }
    }

    /// A lazy parameter that has not run, moved to `device` without running
    /// it; `Err(self)` when that is not possible: the parameter is ready, or
    /// its pending value is shared with a clone (which must keep seeing the
    /// same value, so the move has to initialize it first).
    pub(crate) fn try_move_pending(self, device: &Device) -> Result<Self, Self> {
        let Self {
            id,
            state,
            require_grad,
            reparameterization,
        } = self;
        let rebuild = |state| Self {
            id,
            state,
            require_grad,
            reparameterization,
        };
        match state {
            State::Lazy(lazy) if lazy.value.get().is_none() => match Arc::try_unwrap(lazy) {
                Ok(mut lazy) => {
                    lazy.device = device.clone();
                    Ok(rebuild(State::Lazy(Arc::new(lazy))))
                }
                Err(shared) => Err(rebuild(State::Lazy(shared))),
            },
            state => Err(rebuild(state)),
        }
    }
}

/// The stored value, as Burn's `Param` derefs: `param.dims()`. A lazy
/// parameter is initialized by the first access. What a reparameterization
/// computes is [`val`](Param::val), not this.
impl<T: Parameter> core::ops::Deref for Param<T> {
    type Target = T;

    fn deref(&self) -> &T {
        match &self.state {
            State::Ready(value) => value,
            State::Lazy(lazy) => lazy.get(self.require_grad),
        }
    }
}

impl<T: Clone> Clone for Param<T> {
    fn clone(&self) -> Self {
        Self {
            id: self.id,
            state: match &self.state {
                State::Ready(value) => State::Ready(value.clone()),
                State::Lazy(lazy) => State::Lazy(lazy.clone()),
            },
            require_grad: self.require_grad,
            reparameterization: self.reparameterization.as_ref().map(|r| r.clone_box()),
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for Param<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct("Param");
        s.field("id", &self.id);
        match &self.state {
            State::Ready(value) => s.field("value", value),
            State::Lazy(lazy) => match lazy.value.get() {
                Some(value) => s.field("value", value),
                None => s.field(
                    "value",
                    &format_args!("<uninitialized, shape {} on {}>", lazy.shape, lazy.device),
                ),
            },
        };
        s.field("require_grad", &self.require_grad);
        if let Some(reparameterization) = &self.reparameterization {
            s.field(
                reparameterization.name(),
                &format_args!("{:?}", DebugWith(&**reparameterization)),
            );
        }
        s.finish()
    }
}

/// Debug of a type-erased reparameterization.
struct DebugWith<'a, T>(&'a dyn DynReparameterization<T>);

impl<T> fmt::Debug for DebugWith<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.debug(f)
    }
}
