//! Kernels and their host-side launchers, one file per op family, each
//! implementing the kernel trait of its family (`ShapeKernels` in
//! `shape.rs`, …; see `burn_backend::kernels`), from which burn-backend's
//! adapters give `CubeBackend` the ops traits of every tensor kind. Launchers
//! take and return [`CubeTensor`](crate::CubeTensor)s.

pub mod binary;
pub mod conv;
pub mod creation;
pub mod index;
pub mod interpolate;
pub mod matmul;
pub mod pool;
pub mod reduce;
pub mod shape;
pub mod softmax;
pub mod sort;
pub mod unary;

use alloc::vec::Vec;

use burn_std::Shape;
use cubecl::prelude::*;

use crate::CubeTensor;

/// Launch geometry for `units` independent work items.
pub(crate) fn elemwise_dims<R: Runtime>(
    client: &ComputeClient<R>,
    units: usize,
) -> (CubeCount, CubeDim) {
    let cube_dim = CubeDim::new(client, units);
    let cube_count = cubecl::calculate_cube_count_elemwise(client, units, cube_dim);
    (cube_count, cube_dim)
}

/// How an element-wise kernel walks its inputs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Walk {
    /// 0: every input is contiguous with the output's shape and is read at
    /// `offset + position`; otherwise the output rank, and inputs are read
    /// through their strides.
    pub rank: usize,
    /// Elements per vector (1 on the strided walk).
    pub vector: usize,
}

/// Picks the walk for an output of `shape` over `inputs` (already broadcast
/// to `shape`, see [`broadcast_to`]).
pub(crate) fn walk<R: Runtime>(
    client: &ComputeClient<R>,
    shape: &Shape,
    elem_size: usize,
    inputs: &[&CubeTensor],
) -> Walk {
    let linear = inputs
        .iter()
        .all(|t| t.shape == *shape && t.is_contiguous());
    if !linear {
        return Walk {
            rank: shape.num_dims().max(1),
            vector: 1,
        };
    }
    let n = shape.num_elements();
    let vector = client
        .io_optimized_vector_sizes(elem_size)
        .find(|&v| n.is_multiple_of(v) && inputs.iter().all(|t| t.offset.is_multiple_of(v)))
        .unwrap_or(1);
    Walk { rank: 0, vector }
}

/// `t` seen with `shape`: dims of size 1 that `shape` widens, and missing
/// leading dims, get stride 0 (NumPy broadcasting, aligned on the last dim).
#[track_caller]
pub(crate) fn broadcast_to(t: &CubeTensor, shape: &Shape, op: &str) -> CubeTensor {
    if t.shape == *shape {
        return t.clone();
    }
    let from = t.dims();
    let to = &shape.dims;
    assert!(
        from.len() <= to.len(),
        "{op}: cannot broadcast shape {from:?} to {to:?}"
    );
    let extra = to.len() - from.len();
    let strides: Vec<usize> = to
        .iter()
        .enumerate()
        .map(|(d, &size)| {
            if d < extra {
                return 0;
            }
            let f = from[d - extra];
            assert!(
                f == size || f == 1,
                "{op}: cannot broadcast shape {from:?} to {to:?}"
            );
            if f == size { t.strides[d - extra] } else { 0 }
        })
        .collect();
    let mut view = t.clone();
    view.shape = shape.clone();
    view.strides = strides;
    view
}

/// The broadcast shape of two operands (NumPy rules).
#[track_caller]
pub(crate) fn broadcast_shape(op: &str, lhs: &CubeTensor, rhs: &CubeTensor) -> Shape {
    lhs.shape.broadcast(&rhs.shape).unwrap_or_else(|err| {
        panic!(
            "{op}: shapes {:?} and {:?} do not broadcast: {err}",
            lhs.dims(),
            rhs.dims()
        )
    })
}

pub(crate) use burn_cubecl_fusion::math::strided_offset;
