//! `Module` for containers of modules (`Option`, `Vec`, arrays, `Box`,
//! tuples) and for constants (numbers, strings, constant tensors,
//! [`Ignored`]), so that any of them can be a field of a derived module.

use core::fmt;
use core::marker::PhantomData;
use core::ops::{Deref, DerefMut};
use std::boxed::Box;
use std::string::{String, ToString};
use std::vec::Vec;

use burn_tensor::{Device, Tensor, TensorKind};

use super::param::push_unique;
use super::{Devices, Module, ModuleMapper, ModuleVisitor};

// ------------------------------------------------------------ containers

/// `None` has no parameters; `Some(m)` is `m`, with no path segment of its own.
impl<M: Module> Module for Option<M> {
    fn visit<V: ModuleVisitor>(&self, visitor: &mut V) {
        if let Some(module) = self {
            module.visit(visitor);
        }
    }

    fn map<Mp: ModuleMapper>(self, mapper: &mut Mp) -> Self {
        self.map(|module| module.map(mapper))
    }

    fn collect_devices(&self, devices: Devices) -> Devices {
        match self {
            Some(module) => module.collect_devices(devices),
            None => devices,
        }
    }

    fn to_device(self, device: &Device) -> Self {
        self.map(|module| module.to_device(device))
    }

    fn fork(self, device: &Device) -> Self {
        self.map(|module| module.fork(device))
    }
}

/// Transparent: a boxed module has the paths of the module.
impl<M: Module> Module for Box<M> {
    fn visit<V: ModuleVisitor>(&self, visitor: &mut V) {
        (**self).visit(visitor);
    }

    fn map<Mp: ModuleMapper>(self, mapper: &mut Mp) -> Self {
        Box::new((*self).map(mapper))
    }

    fn collect_devices(&self, devices: Devices) -> Devices {
        (**self).collect_devices(devices)
    }

    fn to_device(self, device: &Device) -> Self {
        Box::new((*self).to_device(device))
    }

    fn fork(self, device: &Device) -> Self {
        Box::new((*self).fork(device))
    }
}

/// Element `i` is under the path segment `"i"`.
impl<M: Module> Module for Vec<M> {
    fn visit<V: ModuleVisitor>(&self, visitor: &mut V) {
        for (i, module) in self.iter().enumerate() {
            let name = i.to_string();
            visitor.enter_module(&name, "Vec");
            module.visit(visitor);
            visitor.exit_module(&name, "Vec");
        }
    }

    fn map<Mp: ModuleMapper>(self, mapper: &mut Mp) -> Self {
        self.into_iter()
            .enumerate()
            .map(|(i, module)| {
                let name = i.to_string();
                mapper.enter_module(&name, "Vec");
                let module = module.map(mapper);
                mapper.exit_module(&name, "Vec");
                module
            })
            .collect()
    }

    fn collect_devices(&self, devices: Devices) -> Devices {
        self.iter()
            .fold(devices, |devices, module| module.collect_devices(devices))
    }

    fn to_device(self, device: &Device) -> Self {
        self.into_iter().map(|m| m.to_device(device)).collect()
    }

    fn fork(self, device: &Device) -> Self {
        self.into_iter().map(|m| m.fork(device)).collect()
    }
}

/// Element `i` is under the path segment `"i"`.
impl<M: Module, const N: usize> Module for [M; N] {
    fn visit<V: ModuleVisitor>(&self, visitor: &mut V) {
        for (i, module) in self.iter().enumerate() {
            let name = i.to_string();
            visitor.enter_module(&name, "Array");
            module.visit(visitor);
            visitor.exit_module(&name, "Array");
        }
    }

    fn map<Mp: ModuleMapper>(self, mapper: &mut Mp) -> Self {
        let mut i = 0;
        self.map(|module| {
            let name = i.to_string();
            i += 1;
            mapper.enter_module(&name, "Array");
            let module = module.map(mapper);
            mapper.exit_module(&name, "Array");
            module
        })
    }

    fn collect_devices(&self, devices: Devices) -> Devices {
        self.iter()
            .fold(devices, |devices, module| module.collect_devices(devices))
    }

    fn to_device(self, device: &Device) -> Self {
        self.map(|m| m.to_device(device))
    }

    fn fork(self, device: &Device) -> Self {
        self.map(|m| m.fork(device))
    }
}

/// Tuples: element `i` is under the path segment `"i"`.
macro_rules! tuple_module {
    ($($name:ident $index:tt),+) => {
        impl<$($name: Module),+> Module for ($($name,)+) {
            fn visit<V: ModuleVisitor>(&self, visitor: &mut V) {
                $(
                    visitor.enter_module(stringify!($index), "Tuple");
                    self.$index.visit(visitor);
                    visitor.exit_module(stringify!($index), "Tuple");
                )+
            }

            fn map<Mp: ModuleMapper>(self, mapper: &mut Mp) -> Self {
                ($({
                    mapper.enter_module(stringify!($index), "Tuple");
                    let module = self.$index.map(mapper);
                    mapper.exit_module(stringify!($index), "Tuple");
                    module
                },)+)
            }

            fn collect_devices(&self, devices: Devices) -> Devices {
                $(let devices = self.$index.collect_devices(devices);)+
                devices
            }

            fn to_device(self, device: &Device) -> Self {
                ($(self.$index.to_device(device),)+)
            }

            fn fork(self, device: &Device) -> Self {
                ($(self.$index.fork(device),)+)
            }
        }
    };
}

tuple_module!(A 0, B 1);
tuple_module!(A 0, B 1, C 2);
tuple_module!(A 0, B 1, C 2, D 3);

// ------------------------------------------------------------- constants

/// Implements [`Module`](crate::module::Module) for a constant type: one
/// with no parameter, the same on every device, carried through every
/// transformation and never recorded (Burn's `empty!`).
///
/// `burn::empty!(MyType);` writes the whole impl (the type must be
/// `Clone`, `Send` and `Debug`); `burn::empty!(module);` inside an
/// `impl Module for MyType { … }` writes only its methods. The expansion names
/// `burn::module` and `burn::tensor`, as the derives do.
///
/// ```
/// use burn_core as burn;
/// use burn::module::Module;
///
/// #[derive(Clone, Debug)]
/// struct Vocabulary(Vec<String>);
/// burn::empty!(Vocabulary);
///
/// #[derive(Module, Debug)]
/// struct Tagger {
///     vocabulary: Vocabulary,
/// }
///
/// let tagger = Tagger { vocabulary: Vocabulary(vec!["a".into()]) };
/// assert_eq!(tagger.num_params(), 0);
/// assert!(tagger.into_record().is_empty());
/// ```
#[macro_export]
macro_rules! empty {
    (module) => {
        fn visit<V: burn::module::ModuleVisitor>(&self, _visitor: &mut V) {}

        fn map<M: burn::module::ModuleMapper>(self, _mapper: &mut M) -> Self {
            self
        }

        fn collect_devices(&self, devices: burn::module::Devices) -> burn::module::Devices {
            devices
        }

        fn to_device(self, _device: &burn::tensor::Device) -> Self {
            self
        }

        fn fork(self, _device: &burn::tensor::Device) -> Self {
            self
        }
    };

    ($type:ty) => {
        impl burn::module::Module for $type {
            $crate::empty!(module);
        }
    };
}

/// A constant: no parameters, the same on every device, never recorded.
macro_rules! constant_module {
    ($($ty:ty),+ $(,)?) => {$(
        impl Module for $ty {
            fn visit<V: ModuleVisitor>(&self, _visitor: &mut V) {}

            fn map<Mp: ModuleMapper>(self, _mapper: &mut Mp) -> Self {
                self
            }

            fn collect_devices(&self, devices: Devices) -> Devices {
                devices
            }

            fn to_device(self, _device: &Device) -> Self {
                self
            }

            fn fork(self, _device: &Device) -> Self {
                self
            }
        }
    )+};
}

constant_module!(
    bool,
    char,
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    f32,
    f64,
    burn_tensor::f16,
    burn_tensor::bf16,
    String,
    &'static str,
    burn_tensor::DType,
    burn_tensor::Shape,
);

impl<T: Send> Module for PhantomData<T> {
    fn visit<V: ModuleVisitor>(&self, _visitor: &mut V) {}

    fn map<Mp: ModuleMapper>(self, _mapper: &mut Mp) -> Self {
        self
    }

    fn collect_devices(&self, devices: Devices) -> Devices {
        devices
    }

    fn to_device(self, _device: &Device) -> Self {
        self
    }

    fn fork(self, _device: &Device) -> Self {
        self
    }
}

/// A tensor field that is not a parameter (a fixed mask, a positional
/// table): it follows the module to other devices but is neither visited
/// nor recorded. Make it a `Param` to have it saved.
impl<const D: usize, K: TensorKind> Module for Tensor<D, K> {
    fn visit<V: ModuleVisitor>(&self, _visitor: &mut V) {}

    fn map<Mp: ModuleMapper>(self, _mapper: &mut Mp) -> Self {
        self
    }

    fn collect_devices(&self, devices: Devices) -> Devices {
        push_unique(devices, self.device())
    }

    fn to_device(self, device: &Device) -> Self {
        Tensor::to_device(self, device)
    }

    fn fork(self, device: &Device) -> Self {
        Tensor::to_device(self, device)
    }
}

/// A field of any `Clone + Send + Debug` type carried through a module as a
/// constant (a tokenizer, a callback, a configuration): what
/// `#[module(skip)]` does, as a type.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Ignored<T>(pub T);

impl<T: Clone + Send + fmt::Debug> Module for Ignored<T> {
    fn visit<V: ModuleVisitor>(&self, _visitor: &mut V) {}

    fn map<Mp: ModuleMapper>(self, _mapper: &mut Mp) -> Self {
        self
    }

    fn collect_devices(&self, devices: Devices) -> Devices {
        devices
    }

    fn to_device(self, _device: &Device) -> Self {
        self
    }

    fn fork(self, _device: &Device) -> Self {
        self
    }
}

impl<T> Deref for Ignored<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> DerefMut for Ignored<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

impl<T: fmt::Debug> fmt::Debug for Ignored<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}
