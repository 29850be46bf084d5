//! Optimizer state as plain data: [`RecordState`] and [`StateFields`].
//!
//! A parameter's state (a momentum buffer, Adam's moments and step count)
//! is a small struct of tensors and scalars. [`RecordState`] flattens it
//! into named fields and rebuilds it, which is all a record needs: no
//! backend type, no serde, and the rank comes from the state's type.

use std::collections::BTreeMap;
use std::string::String;

use burn_std::Scalar;
use burn_tensor::{Device, Tensor, TensorData};

use crate::OptimError;

/// The flattened state of one parameter: tensors and typed scalars by
/// field name (`"moment_1"`, `"time"`). Nested states join names with `'.'`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StateFields {
    /// Tensor fields.
    pub tensors: BTreeMap<String, TensorData>,
    /// Scalar fields.
    pub scalars: BTreeMap<String, Scalar>,
}

impl StateFields {
    /// Removes the tensor field `key`.
    pub fn take_tensor(&mut self, key: &str) -> Result<TensorData, OptimError> {
        self.tensors
            .remove(key)
            .ok_or_else(|| OptimError::MissingField {
                key: key.into(),
                kind: "tensor",
            })
    }

    /// The scalar field `key`.
    pub fn scalar(&self, key: &str) -> Result<Scalar, OptimError> {
        self.scalars
            .get(key)
            .copied()
            .ok_or_else(|| OptimError::MissingField {
                key: key.into(),
                kind: "scalar",
            })
    }

    /// Whether any field is named `key` or lies below it (`"key.…"`).
    pub fn has_prefix(&self, key: &str) -> bool {
        let below = |name: &String| {
            name == key
                || name
                    .strip_prefix(key)
                    .is_some_and(|rest| rest.starts_with('.'))
        };
        self.tensors.keys().any(below) || self.scalars.keys().any(below)
    }
}

/// `prefix.field`, or `field` at the root.
pub fn join_key(prefix: &str, field: &str) -> String {
    if prefix.is_empty() {
        field.into()
    } else {
        format!("{prefix}.{field}")
    }
}

/// State that can be flattened into [`StateFields`], rebuilt from them, and
/// moved between devices.
///
/// Implemented for `Tensor<D>`, the scalar types optimizers count with,
/// `Option<T>` and tuples of two; a state struct implements it by calling
/// its fields' impls with [`join_key`]`(name, "field")`.
pub trait RecordState: Sized {
    /// Writes the state under `name` into `fields`.
    fn save_fields(&self, name: &str, fields: &mut StateFields);

    /// Rebuilds the state written under `name`, its tensors on `device`.
    fn load_fields(
        name: &str,
        fields: &mut StateFields,
        device: &Device,
    ) -> Result<Self, OptimError>;

    /// The state with its tensors on `device`.
    fn to_device(self, device: &Device) -> Self;
}

impl<const D: usize> RecordState for Tensor<D> {
    fn save_fields(&self, name: &str, fields: &mut StateFields) {
        fields.tensors.insert(name.into(), self.clone().into_data());
    }

    fn load_fields(
        name: &str,
        fields: &mut StateFields,
        device: &Device,
    ) -> Result<Self, OptimError> {
        let data = fields.take_tensor(name)?;
        let found = data.shape.num_dims();
        if found != D {
            return Err(OptimError::RankMismatch {
                key: name.into(),
                expected: D,
                found,
            });
        }
        let dtype = data.dtype;
        Ok(Tensor::from_data(data, (device, dtype)))
    }

    fn to_device(self, device: &Device) -> Self {
        Tensor::to_device(self, device)
    }
}

macro_rules! scalar_state {
    ($($ty:ty => $get:ident),*) => {
        $(
            impl RecordState for $ty {
                fn save_fields(&self, name: &str, fields: &mut StateFields) {
                    fields.scalars.insert(name.into(), Scalar::from(*self));
                }

                fn load_fields(
                    name: &str,
                    fields: &mut StateFields,
                    _device: &Device,
                ) -> Result<Self, OptimError> {
                    Ok(fields.scalar(name)?.$get() as $ty)
                }

                fn to_device(self, _device: &Device) -> Self {
                    self
                }
            }
        )*
    };
}

scalar_state!(u64 => to_u64, f64 => to_f64, f32 => to_f64, bool => to_bool);

impl RecordState for usize {
    fn save_fields(&self, name: &str, fields: &mut StateFields) {
        fields
            .scalars
            .insert(name.into(), Scalar::UInt(*self as u64));
    }

    fn load_fields(
        name: &str,
        fields: &mut StateFields,
        _device: &Device,
    ) -> Result<Self, OptimError> {
        Ok(fields.scalar(name)?.to_u64() as usize)
    }

    fn to_device(self, _device: &Device) -> Self {
        self
    }
}

/// `None` writes nothing; on load, the value is `Some` when any field lies
/// under `name`.
impl<T: RecordState> RecordState for Option<T> {
    fn save_fields(&self, name: &str, fields: &mut StateFields) {
        if let Some(value) = self {
            value.save_fields(name, fields);
        }
    }

    fn load_fields(
        name: &str,
        fields: &mut StateFields,
        device: &Device,
    ) -> Result<Self, OptimError> {
        if fields.has_prefix(name) {
            T::load_fields(name, fields, device).map(Some)
        } else {
            Ok(None)
        }
    }

    fn to_device(self, device: &Device) -> Self {
        self.map(|value| value.to_device(device))
    }
}

/// Two states side by side, under `name.0` and `name.1` (what
/// [`ModuleOptimizer`](crate::ModuleOptimizer) uses when an optimizer's
/// state and its own bookkeeping travel together).
impl<A: RecordState, B: RecordState> RecordState for (A, B) {
    fn save_fields(&self, name: &str, fields: &mut StateFields) {
        self.0.save_fields(&join_key(name, "0"), fields);
        self.1.save_fields(&join_key(name, "1"), fields);
    }

    fn load_fields(
        name: &str,
        fields: &mut StateFields,
        device: &Device,
    ) -> Result<Self, OptimError> {
        Ok((
            A::load_fields(&join_key(name, "0"), fields, device)?,
            B::load_fields(&join_key(name, "1"), fields, device)?,
        ))
    }

    fn to_device(self, device: &Device) -> Self {
        (self.0.to_device(device), self.1.to_device(device))
    }
}

/// Implements [`RecordState`] for a struct of fields that implement it,
/// each saved under its own name.
#[macro_export]
macro_rules! record_state {
    ($name:ident $(<$(const $g:ident: usize),*>)? { $($field:ident),* $(,)? }) => {
        impl $(<$(const $g: usize),*>)? $crate::RecordState for $name $(<$($g),*>)? {
            fn save_fields(&self, name: &str, fields: &mut $crate::StateFields) {
                $( $crate::RecordState::save_fields(
                    &self.$field, &$crate::join_key(name, stringify!($field)), fields); )*
            }

            fn load_fields(
                name: &str,
                fields: &mut $crate::StateFields,
                device: &$crate::__private::Device,
            ) -> Result<Self, $crate::OptimError> {
                Ok(Self {
                    $( $field: $crate::RecordState::load_fields(
                        &$crate::join_key(name, stringify!($field)), fields, device)?, )*
                })
            }

            fn to_device(self, device: &$crate::__private::Device) -> Self {
                Self {
                    $( $field: $crate::RecordState::to_device(self.$field, device), )*
                }
            }
        }
    };
}
