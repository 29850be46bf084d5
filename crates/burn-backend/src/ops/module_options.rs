//! Plain option structs of the convolution ops, one per op family, with the
//! rank of the spatial part (`N`) as a const parameter so `conv1d`, `conv2d`
//! and `conv3d` share one struct. Names and fields follow Burn's
//! `ConvOptions`, `ConvTransposeOptions` and `UnfoldOptions`.

/// Options of a convolution (`conv1d`, `conv2d`, `conv3d`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ConvOptions<const N: usize> {
    /// Step between two applications of the kernel, per spatial dim.
    #[serde(with = "array")]
    pub stride: [usize; N],
    /// Zeros added on both sides of each spatial dim.
    #[serde(with = "array")]
    pub padding: [usize; N],
    /// Spacing between kernel elements, per spatial dim (1: dense).
    #[serde(with = "array")]
    pub dilation: [usize; N],
    /// Input and output channels split into this many independent groups.
    pub groups: usize,
}

impl<const N: usize> ConvOptions<N> {
    /// Options from their fields.
    pub fn new(
        stride: [usize; N],
        padding: [usize; N],
        dilation: [usize; N],
        groups: usize,
    ) -> Self {
        Self {
            stride,
            padding,
            dilation,
            groups,
        }
    }
}

impl<const N: usize> Default for ConvOptions<N> {
    /// Stride 1, no padding, no dilation, one group.
    fn default() -> Self {
        Self::new([1; N], [0; N], [1; N], 1)
    }
}

/// Options of a transposed convolution (`conv_transpose1d/2d/3d`), the
/// gradient of a convolution with respect to its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ConvTransposeOptions<const N: usize> {
    /// Stride of the convolution this op transposes.
    #[serde(with = "array")]
    pub stride: [usize; N],
    /// Padding of the convolution this op transposes (removed from the output).
    #[serde(with = "array")]
    pub padding: [usize; N],
    /// Extra size added to one side of each output dim, to pick among the
    /// input sizes a strided convolution maps to the same output size.
    /// Must be smaller than the stride or the dilation of its dim.
    #[serde(with = "array")]
    pub padding_out: [usize; N],
    /// Spacing between kernel elements, per spatial dim (1: dense).
    #[serde(with = "array")]
    pub dilation: [usize; N],
    /// Input and output channels split into this many independent groups.
    pub groups: usize,
}

impl<const N: usize> ConvTransposeOptions<N> {
    /// Options from their fields.
    pub fn new(
        stride: [usize; N],
        padding: [usize; N],
        padding_out: [usize; N],
        dilation: [usize; N],
        groups: usize,
    ) -> Self {
        Self {
            stride,
            padding,
            padding_out,
            dilation,
            groups,
        }
    }
}

impl<const N: usize> Default for ConvTransposeOptions<N> {
    /// Stride 1, no padding, no output padding, no dilation, one group.
    fn default() -> Self {
        Self::new([1; N], [0; N], [0; N], [1; N], 1)
    }
}

/// Options of `unfold4d` (PyTorch's `unfold`/im2col): the sliding-window
/// geometry of a 2-d convolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct UnfoldOptions {
    /// Step between two windows, per spatial dim.
    pub stride: [usize; 2],
    /// Zeros added on both sides of each spatial dim.
    pub padding: [usize; 2],
    /// Spacing between window elements, per spatial dim.
    pub dilation: [usize; 2],
}

impl UnfoldOptions {
    /// Options from their fields.
    pub fn new(stride: [usize; 2], padding: [usize; 2], dilation: [usize; 2]) -> Self {
        Self {
            stride,
            padding,
            dilation,
        }
    }
}

impl Default for UnfoldOptions {
    /// Stride 1, no padding, no dilation.
    fn default() -> Self {
        Self::new([1; 2], [0; 2], [1; 2])
    }
}

/// Serde for `[usize; N]` (serde's own impls stop at fixed lengths): a
/// sequence of exactly `N` numbers.
mod array {
    use core::fmt;
    use core::marker::PhantomData;

    use serde::de::{Error, SeqAccess, Visitor};
    use serde::ser::SerializeTuple;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer, const N: usize>(
        values: &[usize; N],
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let mut tuple = serializer.serialize_tuple(N)?;
        for value in values {
            tuple.serialize_element(value)?;
        }
        tuple.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>, const N: usize>(
        deserializer: D,
    ) -> Result<[usize; N], D::Error> {
        struct Array<const N: usize>(PhantomData<[usize; N]>);

        impl<'de, const N: usize> Visitor<'de> for Array<N> {
            type Value = [usize; N];

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "a sequence of {N} integers")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<[usize; N], A::Error> {
                let mut values = [0; N];
                for (i, value) in values.iter_mut().enumerate() {
                    *value = seq
                        .next_element()?
                        .ok_or_else(|| A::Error::invalid_length(i, &self))?;
                }
                if seq.next_element::<usize>()?.is_some() {
                    return Err(A::Error::invalid_length(N + 1, &self));
                }
                Ok(values)
            }
        }

        deserializer.deserialize_tuple(N, Array::<N>(PhantomData))
    }
}
