//! The one copy a load makes per tensor: from a buffer (usually a mapped
//! file) into the buffer the tensor will own, row-major.
//!
//! Issue 25 measured loads 3–7× slower than PyTorch's `torch.load(mmap)` +
//! `load_state_dict`. Where the time went, and what this module does
//! instead:
//!
//! - A transposed view (every PyTorch `Linear` weight, read as Burn's
//!   `[in, out]`) was gathered element by element through a bounds-checked
//!   byte slice per element. Here it goes tile by tile over typed
//!   elements, so the source and output rows a tile touches stay in cache.
//! - Its output was zero-filled first: `Bytes::zeroed` at `Bytes`' 64-byte
//!   alignment is a `memset` (the allocator's `calloc` shortcut only serves
//!   16-byte alignment), a whole extra pass over fresh memory. Here the
//!   output is allocated uninitialised ([`Bytes::from_uninit_fill`]) and
//!   written once.
//! - The output's pages, fresh from the OS, were faulted in 4 KiB at a time
//!   (a fault, a page cleared by the kernel, per 4 KiB) by one thread,
//!   while PyTorch copies into parameters that are already resident, with
//!   its worker threads. Here a large output is advised to be backed by
//!   2 MiB pages (Linux, where transparent huge pages are "madvise" or
//!   "always"), and written by a few threads, each taking a run of whole
//!   output rows, so the faults and the copy are shared out.
//!
//! Every function here writes every byte of the output it is given; the
//! `SAFETY` argument of [`build`] rests on that.

use std::mem::MaybeUninit;

use burn_std::Bytes;

/// Outputs from this size up are written by several threads: below it, a
/// thread's start (tens of microseconds on a VM) costs more than it saves.
const PARALLEL_MIN: usize = 1 << 20;

/// At most this many threads write one output: a copy is bound by memory
/// bandwidth, which a few cores saturate.
const MAX_WORKERS: usize = 4;

/// Square tiles of a strided copy: 32 × 32 elements of up to 8 bytes are an
/// 8 KiB buffer, inside any L1 cache, and runs of 32 elements are whole
/// cache lines for 2-byte elements and up.
const TILE: usize = 32;

/// A copy of `src`.
pub(crate) fn contiguous(src: &[u8]) -> Bytes {
    // Rows of one byte: the threads split the buffer anywhere.
    build(src.len(), 1, &|first, out| {
        out.write_copy_of_slice(&src[first..first + out.len()]);
    })
}

/// The elements of a strided view of `src` (`offset` bytes in, `strides`
/// in elements of `elem` bytes), row-major. The view must lie inside `src`
/// (the caller checked it when the view was made).
pub(crate) fn strided(
    src: &[u8],
    offset: usize,
    shape: &[usize],
    strides: &[usize],
    elem: usize,
) -> Bytes {
    let view = Strided::new(src, offset, shape, strides, elem);
    build(view.planes * view.rows, view.cols * elem, &|first, out| {
        view.fill(first, out)
    })
}

/// A buffer of `rows` rows of `row_bytes` bytes each, written by
/// `fill(first_row, rows_bytes)` over runs of whole rows, split across
/// threads when large.
#[allow(unsafe_code)]
fn build(
    rows: usize,
    row_bytes: usize,
    fill: &(dyn Fn(usize, &mut [MaybeUninit<u8>]) + Sync),
) -> Bytes {
    let len = rows * row_bytes;
    // SAFETY: `split` hands `fill` runs of whole rows that partition the
    // buffer (chunks of `out`, the last one shorter), and every `fill` of
    // this module writes every byte of the run it is given (the module's
    // contract, checked by its tests against a reference for each path).
    unsafe {
        Bytes::from_uninit_fill(len, |out| {
            advise_huge_pages(out);
            split(out, rows, row_bytes, fill);
        })
    }
}

fn split(
    out: &mut [MaybeUninit<u8>],
    rows: usize,
    row_bytes: usize,
    fill: &(dyn Fn(usize, &mut [MaybeUninit<u8>]) + Sync),
) {
    if out.is_empty() {
        return;
    }
    let workers = if out.len() < PARALLEL_MIN {
        1
    } else {
        std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(MAX_WORKERS)
            .min(rows)
    };
    if workers <= 1 {
        fill(0, out);
        return;
    }
    let per = rows.div_ceil(workers);
    std::thread::scope(|scope| {
        let mut chunks = out.chunks_mut(per * row_bytes).enumerate();
        let own = chunks.next();
        for (i, chunk) in chunks {
            scope.spawn(move || fill(i * per, chunk));
        }
        // The calling thread takes the first run rather than waiting idle.
        if let Some((_, chunk)) = own {
            fill(0, chunk);
        }
    });
}

/// Asks the kernel to back the 2 MiB-aligned part of a large, not yet
/// touched buffer with huge pages: 512 times fewer page faults, and the
/// kernel clears each page in one go. A hint only: where transparent huge
/// pages are off, nothing changes.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn advise_huge_pages(out: &mut [MaybeUninit<u8>]) {
    const HUGE: usize = 2 << 20;
    if out.len() < 4 * HUGE {
        return;
    }
    let begin = out.as_mut_ptr() as usize;
    let start = begin.next_multiple_of(HUGE);
    let end = (begin + out.len()) / HUGE * HUGE;
    if end > start {
        // SAFETY: `MADV_HUGEPAGE` changes only the size of the pages the
        // kernel backs the range with, never its contents or access; the
        // range lies inside `out`, memory this call borrows exclusively,
        // so no other allocation is affected. A failure (an old kernel)
        // leaves the pages as they were, which is fine for a hint.
        let _ =
            unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE) };
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_out: &mut [MaybeUninit<u8>]) {}

/// A strided view merged into `[planes, rows, cols]`: unit dimensions
/// dropped and neighbours contiguous with each other joined, so a
/// transposed or sliced view becomes as few, as long runs as possible.
struct Strided<'a> {
    src: &'a [u8],
    offset: usize,
    elem: usize,
    /// The dimensions before the last two, `(size, stride)`: their product
    /// is `planes`.
    outer: Vec<(usize, usize)>,
    planes: usize,
    rows: usize,
    row_stride: usize,
    cols: usize,
    col_stride: usize,
}

impl<'a> Strided<'a> {
    fn new(src: &'a [u8], offset: usize, shape: &[usize], strides: &[usize], elem: usize) -> Self {
        let mut dims: Vec<(usize, usize)> = Vec::with_capacity(shape.len());
        for (&dim, &stride) in shape.iter().zip(strides) {
            if dim == 1 {
                continue;
            }
            match dims.last_mut() {
                Some((outer_dim, outer_stride)) if *outer_stride == stride * dim => {
                    *outer_dim *= dim;
                    *outer_stride = stride;
                }
                _ => dims.push((dim, stride)),
            }
        }
        if shape.contains(&0) {
            dims = vec![(0, 1)];
        }
        // At least two dimensions: pad with unit ones in front.
        while dims.len() < 2 {
            dims.insert(0, (1, 0));
        }
        let rank = dims.len();
        let (rows, row_stride) = dims[rank - 2];
        let (cols, col_stride) = dims[rank - 1];
        dims.truncate(rank - 2);
        Self {
            src,
            offset,
            elem,
            planes: dims.iter().map(|&(dim, _)| dim).product(),
            outer: dims,
            rows,
            row_stride,
            cols,
            col_stride,
        }
    }

    /// Writes output rows `first..` (counted across planes) into `out`,
    /// whole rows.
    fn fill(&self, first: usize, out: &mut [MaybeUninit<u8>]) {
        let row_bytes = self.cols * self.elem;
        let count = out.len() / row_bytes;
        let mut done = 0;
        while done < count {
            let global = first + done;
            let (plane, row) = (global / self.rows, global % self.rows);
            // The rows of this plane that fall in this run.
            let n = (self.rows - row).min(count - done);
            let base = self.offset + self.plane_offset(plane);
            let dst = &mut out[done * row_bytes..(done + n) * row_bytes];
            self.copy_rows(base, row, n, dst);
            done += n;
        }
    }

    /// The byte offset of plane `plane` from the view's start.
    fn plane_offset(&self, mut plane: usize) -> usize {
        let mut elems = 0;
        for &(dim, stride) in self.outer.iter().rev() {
            elems += (plane % dim) * stride;
            plane /= dim;
        }
        elems * self.elem
    }

    /// Rows `row..row + n` of the plane starting at byte `base`.
    fn copy_rows(&self, base: usize, row: usize, n: usize, dst: &mut [MaybeUninit<u8>]) {
        let (src, elem) = (&self.src[base..], self.elem);
        let (rs, cols, cs) = (self.row_stride, self.cols, self.col_stride);
        if cs == 1 {
            let run = cols * elem;
            for (i, dst_row) in dst.chunks_exact_mut(run).enumerate() {
                let start = (row + i) * rs * elem;
                dst_row.write_copy_of_slice(&src[start..start + run]);
            }
            return;
        }
        match elem {
            1 => tiled::<1>(src, row, n, rs, cols, cs, dst),
            2 => tiled::<2>(src, row, n, rs, cols, cs, dst),
            4 => tiled::<4>(src, row, n, rs, cols, cs, dst),
            8 => tiled::<8>(src, row, n, rs, cols, cs, dst),
            _ => {
                // No dtype has another size today; kept correct, not fast.
                for (i, dst_row) in dst.chunks_exact_mut(cols * elem).enumerate() {
                    for (c, dst_elem) in dst_row.chunks_exact_mut(elem).enumerate() {
                        let s = ((row + i) * rs + c * cs) * elem;
                        dst_elem.write_copy_of_slice(&src[s..s + elem]);
                    }
                }
            }
        }
    }
}

/// Rows `row..row + n` of a plane of `N`-byte elements (`src` starts at the
/// plane), one `TILE × TILE` block at a time through a small contiguous
/// buffer: each column's source run along the rows is copied into the
/// buffer, then each output row's segment is written out of it.
///
/// Why the buffer: in a transposed `[4096, 4096]` f32 weight, consecutive
/// rows of one side are 16 KiB apart, a multiple of 4 KiB, so they all map
/// to the same set of an L1 cache (64 sets of 64 bytes). A tile read or
/// written in place across 32 such rows needs 32 lines of one 8-way set and
/// misses on nearly every access (measured: 79% of the copy's time on one
/// strided store). Through the buffer, the file and the output are only
/// touched in contiguous runs of whole cache lines, and the strided access
/// is to the buffer, which is contiguous and spans all sets.
fn tiled<const N: usize>(
    src: &[u8],
    row: usize,
    n: usize,
    row_stride: usize,
    cols: usize,
    col_stride: usize,
    dst: &mut [MaybeUninit<u8>],
) {
    // Byte arrays have alignment one, so any offset of the file works.
    let (src, _) = src.as_chunks::<N>();
    let (dst, _) = dst.as_chunks_mut::<N>();
    // `block[k][i]`: row `i0 + i`, column `c0 + k` of the tile.
    let mut block = [[[0u8; N]; TILE]; TILE];
    for i0 in (0..n).step_by(TILE) {
        let rows = (n - i0).min(TILE);
        for c0 in (0..cols).step_by(TILE) {
            let width = (cols - c0).min(TILE);
            for (k, line) in block[..width].iter_mut().enumerate() {
                let start = (row + i0) * row_stride + (c0 + k) * col_stride;
                if row_stride == 1 && rows == TILE {
                    // The transposed weight, a full tile: a contiguous run
                    // of a size known here, copied inline (a slice copy
                    // of unknown length is a call to `memmove`, which at
                    // 128 bytes costs more than the copy).
                    *line = src[start..start + TILE].try_into().expect("TILE elements");
                } else if row_stride == 1 {
                    line[..rows].copy_from_slice(&src[start..start + rows]);
                } else {
                    let line = &mut line[..rows];
                    for (i, v) in line.iter_mut().enumerate() {
                        *v = src[start + i * row_stride];
                    }
                }
            }
            for i in 0..rows {
                let out = &mut dst[(i0 + i) * cols + c0..][..width];
                if let Ok(out) = <&mut [_; TILE]>::try_from(&mut *out) {
                    // A full tile: a fixed trip count, unrolled.
                    for (k, o) in out.iter_mut().enumerate() {
                        *o = block[k][i].map(MaybeUninit::new);
                    }
                } else {
                    for (k, o) in out.iter_mut().enumerate() {
                        *o = block[k][i].map(MaybeUninit::new);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Element `index` of a view, the obvious way.
    fn reference(
        src: &[u8],
        offset: usize,
        shape: &[usize],
        strides: &[usize],
        elem: usize,
    ) -> Vec<u8> {
        let count: usize = shape.iter().product();
        let mut out = Vec::with_capacity(count * elem);
        for flat in 0..count {
            let mut rest = flat;
            let mut at = 0;
            for (&dim, &stride) in shape.iter().zip(strides).rev() {
                at += (rest % dim) * stride;
                rest /= dim;
            }
            let s = offset + at * elem;
            out.extend_from_slice(&src[s..s + elem]);
        }
        out
    }

    fn source(len: usize) -> Vec<u8> {
        // Not periodic in any small length, so a misplaced element shows.
        (0..len).map(|i| (i * 7 + i / 251) as u8).collect()
    }

    /// Row-major strides of `shape`, then permuted by `order`: the strides
    /// of a permuted view of a contiguous tensor.
    fn permuted(shape: &[usize], order: &[usize]) -> (Vec<usize>, Vec<usize>) {
        let strides = crate::tensor::contiguous_strides(shape);
        (
            order.iter().map(|&d| shape[d]).collect(),
            order.iter().map(|&d| strides[d]).collect(),
        )
    }

    fn check(src: &[u8], offset: usize, shape: &[usize], strides: &[usize], elem: usize) {
        let got = strided(src, offset, shape, strides, elem);
        let expected = reference(src, offset, shape, strides, elem);
        assert!(
            got[..] == expected[..],
            "shape {shape:?} strides {strides:?} elem {elem} offset {offset}"
        );
    }

    #[test]
    fn transposes_match_the_reference_for_odd_shapes() {
        for elem in [1, 2, 3, 4, 8] {
            for (rows, cols) in [
                (1, 1),
                (1, 7),
                (7, 1),
                (31, 33),
                (33, 31),
                (65, 3),
                (100, 97),
            ] {
                let src = source(rows * cols * elem + 5);
                let (shape, strides) = permuted(&[rows, cols], &[1, 0]);
                check(&src, 5, &shape, &strides, elem);
            }
        }
    }

    #[test]
    fn permuted_and_sliced_views_match_the_reference() {
        let dims = [3, 5, 7, 4];
        let src = source(3 * 5 * 7 * 4 * 4);
        for order in [[0, 1, 3, 2], [3, 2, 1, 0], [1, 0, 2, 3], [2, 0, 3, 1]] {
            let (shape, strides) = permuted(&dims, &order);
            check(&src, 0, &shape, &strides, 4);
            // A slice of the first and last dimension of the permuted view.
            let mut sliced = shape.clone();
            sliced[0] -= 1;
            sliced[3] -= 1;
            check(&src, strides[0] * 4, &sliced, &strides, 4);
        }
        // Empty and rank-0/1 views.
        check(&src, 0, &[], &[], 4);
        check(&src, 8, &[0, 3], &[1, 0], 4);
        check(&src, 0, &[6], &[3], 2);
    }

    #[test]
    fn large_copies_split_across_threads_match_the_reference() {
        // Over `PARALLEL_MIN` and the huge-page threshold, with row counts
        // that do not divide evenly among threads.
        let (rows, cols) = (1031, 1027);
        let src = source(rows * cols * 4 + 12);
        let (shape, strides) = permuted(&[rows, cols], &[1, 0]);
        check(&src, 12, &shape, &strides, 4);
        // Planes split mid-plane: [3, rows / 3, cols] with the last two
        // dimensions transposed.
        let (shape, strides) = permuted(&[3, 343, 1027], &[0, 2, 1]);
        check(&src, 0, &shape, &strides, 4);
        assert_eq!(&contiguous(&src[3..])[..], &src[3..]);
        assert_eq!(&contiguous(&src[..10])[..], &src[..10]);
        assert!(contiguous(&[]).is_empty());
    }
}
