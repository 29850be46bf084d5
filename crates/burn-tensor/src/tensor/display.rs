//! `Display` and `Debug` for `Tensor`.
//!
//! The layout follows Burn's:
//!
//! ```text
//! Tensor {
//!   data:
//! [[1.0, 2.0],
//!  [3.0, 4.0]],
//!   shape:  [2, 2],
//!   device:  Flex(FlexDevice),
//!   backend:  "flex",
//!   kind:  "Float",
//!   dtype:  "f32",
//! }
//! ```
//!
//! A precision given to the formatter (`{:.2}`) applies to float elements.
//! Tensors of more than [`THRESHOLD`] elements are summarized like PyTorch
//! does: along each dim longer than `2 * EDGE_ITEMS`, only the first and
//! last [`EDGE_ITEMS`] entries are printed, with `...` between them.
//!
//! Formatting reads the tensor, and a read runs the backend (under Fusion,
//! every queued op the tensor depends on). Two traps follow. A read that
//! fails is printed as `<error>` in place of the data, so formatting never
//! panics. And while the thread is panicking nothing is read at all: a
//! panic message is formatted inside the panic hook (`unwrap_err` on an
//! `Ok(tensor)` formats the tensor there), and any panic raised in the hook
//! aborts the process, even one the backend would catch itself (a refused
//! allocation). The shape, device and dtype are printed either way.

use core::fmt;
use std::boxed::Box;
use std::string::String;

use burn_std::{BoolStore, DType, TensorData, bf16, f16};

use crate::bridge::BridgeTensor;
use crate::bridge::ops;
use crate::tensor::error::guard;
use crate::tensor::{Tensor, TensorKind};

/// Above this many elements the data is summarized.
const THRESHOLD: usize = 1000;
/// Entries printed at each end of a summarized dim.
const EDGE_ITEMS: usize = 3;

impl<const D: usize, K: TensorKind> fmt::Display for Tensor<D, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        display_impl(&self.primitive, K::NAME, f)
    }
}

impl<const D: usize, K: TensorKind> fmt::Debug for Tensor<D, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

fn display_impl(t: &BridgeTensor, kind: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let shape = t.shape();
    let device = t.device();
    writeln!(f, "Tensor {{")?;
    writeln!(f, "  data:")?;
    if std::thread::panicking() {
        f.write_str("<not read while the thread is panicking>")?;
    } else {
        match guard(|| ops::into_data(t.clone())) {
            Ok(Ok(data)) => f.write_str(&format_data(&data, f.precision()))?,
            Ok(Err(err)) => write!(f, "<{err}>")?,
            Err(cause) => write!(f, "<{cause}>")?,
        }
    }
    writeln!(f, ",")?;
    writeln!(f, "  shape:  {:?},", shape.dims)?;
    writeln!(f, "  device:  {device:?},")?;
    writeln!(f, "  backend:  {:?},", ops::backend_name(t))?;
    writeln!(f, "  kind:  {kind:?},")?;
    writeln!(f, "  dtype:  {:?},", t.dtype().name())?;
    write!(f, "}}")
}

/// Formats the element at a flat row-major index.
type ElemFormatter<'a> = Box<dyn Fn(usize) -> String + 'a>;

fn elem_formatter(data: &TensorData, precision: Option<usize>) -> ElemFormatter<'_> {
    macro_rules! float {
        ($ty:ty) => {{
            let values = data.bytes.as_slice_of::<$ty>();
            match precision {
                Some(p) => Box::new(move |i| format!("{:.p$}", values[i])),
                None => Box::new(move |i| format!("{:?}", values[i])),
            }
        }};
    }
    macro_rules! int {
        ($ty:ty) => {{
            let values = data.bytes.as_slice_of::<$ty>();
            Box::new(move |i| format!("{}", values[i]))
        }};
    }
    match data.dtype {
        DType::F64 => float!(f64),
        DType::F32 => float!(f32),
        DType::F16 => float!(f16),
        DType::BF16 => float!(bf16),
        DType::I64 => int!(i64),
        DType::I32 => int!(i32),
        DType::I16 => int!(i16),
        DType::I8 => int!(i8),
        DType::U64 => int!(u64),
        DType::U32 => int!(u32),
        DType::U16 => int!(u16),
        DType::U8 => int!(u8),
        DType::Bool(BoolStore::Native | BoolStore::U8) => {
            let bytes: &[u8] = &data.bytes;
            Box::new(move |i| format!("{}", bytes[i] != 0))
        }
        DType::Bool(BoolStore::U32) => {
            let values = data.bytes.as_slice_of::<u32>();
            Box::new(move |i| format!("{}", values[i] != 0))
        }
        // Quantized values are shown as the floats they stand for.
        DType::QFloat(_) => {
            let values: Vec<f32> = data.iter::<f32>().collect();
            match precision {
                Some(p) => Box::new(move |i| format!("{:.p$}", values[i])),
                None => Box::new(move |i| format!("{:?}", values[i])),
            }
        }
    }
}

/// The nested-bracket text of `data`.
fn format_data(data: &TensorData, precision: Option<usize>) -> String {
    let elem = elem_formatter(data, precision);
    let dims = &data.shape.dims;
    if dims.is_empty() {
        return elem(0);
    }
    let strides = data.shape.contiguous_strides();
    let summarize = data.num_elements() > THRESHOLD;
    let mut out = String::new();
    write_level(&mut out, &*elem, dims, &strides, 0, 0, summarize);
    out
}

/// The indices of a dim of `size` to print; `None` marks the `...` gap.
fn visible(size: usize, summarize: bool) -> impl Iterator<Item = Option<usize>> {
    let cut = summarize && size > 2 * EDGE_ITEMS;
    let head = if cut { EDGE_ITEMS } else { size };
    let tail = if cut {
        size - EDGE_ITEMS..size
    } else {
        size..size
    };
    (0..head)
        .map(Some)
        .chain(cut.then_some(None))
        .chain(tail.map(Some))
}

fn write_level(
    out: &mut String,
    elem: &dyn Fn(usize) -> String,
    dims: &[usize],
    strides: &[usize],
    depth: usize,
    offset: usize,
    summarize: bool,
) {
    out.push('[');
    let last = depth + 1 == dims.len();
    for (n, index) in visible(dims[depth], summarize).enumerate() {
        if n > 0 {
            if last {
                out.push_str(", ");
            } else {
                out.push_str(",\n");
                out.extend(core::iter::repeat_n(' ', depth + 1));
            }
        }
        match index {
            None => out.push_str("..."),
            Some(i) if last => out.push_str(&elem(offset + i * strides[depth])),
            Some(i) => write_level(
                out,
                elem,
                dims,
                strides,
                depth + 1,
                offset + i * strides[depth],
                summarize,
            ),
        }
    }
    out.push(']');
}
