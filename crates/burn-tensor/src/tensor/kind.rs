//! The kinds a tensor can have: `Float`, `Int`, `Bool`.
//!
//! A kind is a type-level tag. It selects which methods exist (`exp` only on
//! float tensors, `bool_and` only on bool tensors); at run time the bridge
//! carries the same tag, so kind-generic methods need no generic body.

/// Run-time image of a kind.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KindTag {
    Float,
    Int,
    Bool,
}

mod sealed {
    pub trait Sealed {}
}

/// A tensor kind. Sealed: the set of kinds is fixed.
pub trait TensorKind:
    Clone + Copy + core::fmt::Debug + Default + Send + Sync + 'static + sealed::Sealed
{
    /// The kind's name, as printed by `Display`.
    const NAME: &'static str;
    #[doc(hidden)]
    const TAG: KindTag;
}

/// Kinds with arithmetic: `Float` and `Int`.
pub trait Numeric: TensorKind {}

/// Floating-point tensors (the default kind).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Float;
/// Integer tensors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Int;
/// Boolean tensors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bool;

impl sealed::Sealed for Float {}
impl sealed::Sealed for Int {}
impl sealed::Sealed for Bool {}

impl TensorKind for Float {
    const NAME: &'static str = "Float";
    const TAG: KindTag = KindTag::Float;
}
impl TensorKind for Int {
    const NAME: &'static str = "Int";
    const TAG: KindTag = KindTag::Int;
}
impl TensorKind for Bool {
    const NAME: &'static str = "Bool";
    const TAG: KindTag = KindTag::Bool;
}

impl Numeric for Float {}
impl Numeric for Int {}
