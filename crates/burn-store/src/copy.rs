//! The one copy a load makes per tensor: from a buffer (usually a mapped
//! file) into the buffer the tensor will own, row-major.
//!
//! Issue 25 measured loads 3–7× slower than PyTorch's `torch.load(mmap)` +
//! `load_state_dict`. Where the time went, and what this module does
//! instead:
//!
//! - Its output was zero-filled first: `Bytes::zeroed` at `Bytes`' 64-byte
//!   alignment is a `memset` (the allocator's `calloc` shortcut only serves
//!   16-byte alignment), a whole extra pass over fresh memory. Here the
//!   output is allocated uninitialised ([`Bytes::from_uninit_fill`]) and
//!   written once.
//! - The output's pages, fresh from the OS, were faulted in 4 KiB at a time
//!   by one thread, while PyTorch copies into parameters that are already
//!   resident, with its worker threads. Here a large output is advised to
//!   be backed by 2 MiB pages (Linux, where transparent huge pages are
//!   "madvise" or "always"), and written by up to
//!   [`burn_std::threads::budget`] threads (the budget Flex's pool uses,
//!   `BURN_FLEX_THREADS`), so the faults and the copy are shared out. The
//!   kernel still clears each fresh page before the copy lands in it; no
//!   honest load into memory the process does not hold yet avoids that.
//!   A load into parameters that are resident (an initialized module, on
//!   Flex) avoids it by copying over their buffers instead
//!   ([`contiguous_into`], [`strided_into`]): 512 MB of `Linear` weights
//!   took 0.09–0.10 s so against 0.14–0.16 s into fresh memory.
//! - The file's bytes were read through its mapping: a page-table fault
//!   per 16 pages or so of the source (the kernel's fault-around), a third
//!   of the time of a copy out of the map (512 MB into fresh memory on one
//!   thread: 0.19 s through the map, 0.13 s by `pread`). Where the buffer
//!   is a file ([`Source::File`], on Unix), a contiguous tensor is read
//!   with `pread` straight into its output (the kernel copies from its
//!   page cache, no fault on the source side), and a transposed one in
//!   strips of source rows read into a small buffer (one `preadv` a strip
//!   on Linux).
//! - A transposed view (every PyTorch `Linear` weight, read as Burn's
//!   `[in, out]`) went through 32 × 32 blocks moved element by element,
//!   2.5× a plain copy. Here it goes through [`transpose`]: strips of up
//!   to 32 source rows (output columns) in a buffer whose rows are padded
//!   off the 4 KiB stride (rows 16 KiB apart all map to one L1 set), then
//!   8 × 8 tiles transposed in registers (AVX2 for 4-byte elements, AVX
//!   for 8-byte, SSE2 for 2-byte, chosen at run time; a portable loop
//!   elsewhere), so both the file and the output are touched in runs of
//!   whole cache lines. 4-byte outputs whose rows are 32-byte aligned are
//!   written with streaming stores, whole lines at a time, which skip
//!   reading each output line before overwriting it. The threads claim
//!   strips one at a time; each strip is one contiguous range of the file.
//!
//! Every function here writes every byte of the output it is given, also
//! when a read fails (the rest is zero-filled before the error is
//! returned); the `SAFETY` argument of [`build`] rests on that.

use std::io;
use std::mem::MaybeUninit;

use burn_std::Bytes;

/// Outputs from this size up are written by several threads: below it, a
/// thread's start (tens of microseconds on a VM) costs more than it saves.
const PARALLEL_MIN: usize = 1 << 20;

/// At most this many threads write one output (within the thread budget): a
/// copy is bound by memory bandwidth, which a few cores saturate.
const MAX_WORKERS: usize = 4;

/// Square tiles of the generic strided copy: 32 × 32 elements of up to 8
/// bytes are an 8 KiB buffer, inside any L1 cache, and runs of 32 elements
/// are whole cache lines for 2-byte elements and up.
const TILE: usize = 32;

/// Source rows per strip of a transpose: 32 rows of 4-byte elements are
/// 128 bytes of each output row, two whole cache lines.
const STRIP: usize = 32;

/// The strip buffer of a transpose stays about this small (fewer rows per
/// strip for long rows, down to 8), so that it sits in L2 while the tiles
/// read it.
const STRIP_BYTES: usize = 512 << 10;

/// Where the bytes of a view are read from.
pub(crate) enum Source<'a> {
    /// Bytes in memory (or a mapping read through memory).
    Memory(&'a [u8]),
    /// A file, read with `pread` at the same offsets as `map`, its mapping
    /// (which the generic strided copy still reads through).
    #[cfg(unix)]
    File {
        file: &'a std::fs::File,
        map: &'a [u8],
    },
}

impl Source<'_> {
    fn bytes(&self) -> &[u8] {
        match self {
            Source::Memory(bytes) => bytes,
            #[cfg(unix)]
            Source::File { map, .. } => map,
        }
    }

    /// Fills `out` with the bytes at `offset..offset + out.len()`, which the
    /// caller checked lie inside the source. On an error (the file shrank
    /// or failed under us), the rest of `out` is zero-filled first, so that
    /// every byte is written either way.
    fn read_into(&self, offset: usize, out: &mut [MaybeUninit<u8>]) -> io::Result<()> {
        match self {
            Source::Memory(bytes) => {
                out.write_copy_of_slice(&bytes[offset..offset + out.len()]);
                Ok(())
            }
            #[cfg(unix)]
            Source::File { file, .. } => {
                let mut done = 0;
                while done < out.len() {
                    match pread(file, offset + done, &mut out[done..]) {
                        Ok(0) => {
                            out[done..].fill(MaybeUninit::new(0));
                            return Err(io::Error::new(
                                io::ErrorKind::UnexpectedEof,
                                format!(
                                    "the file ended at byte {} (it was changed while open)",
                                    offset + done
                                ),
                            ));
                        }
                        Ok(n) => done += n,
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => {
                            out[done..].fill(MaybeUninit::new(0));
                            return Err(e);
                        }
                    }
                }
                Ok(())
            }
        }
    }
}

/// One `pread(2)` into possibly uninitialised memory (which `read_at`'s
/// `&mut [u8]` may not be handed).
#[cfg(unix)]
#[allow(unsafe_code)]
fn pread(file: &std::fs::File, offset: usize, out: &mut [MaybeUninit<u8>]) -> io::Result<usize> {
    use std::os::fd::AsRawFd;
    let offset = libc::off_t::try_from(offset)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "offset past off_t"))?;
    // SAFETY: `out` is memory this call borrows exclusively, valid for
    // `out.len()` bytes; the kernel writes at most that many bytes into it
    // and reads nothing from it. The descriptor is open for the borrow of
    // `file`.
    let n = unsafe {
        libc::pread(
            file.as_raw_fd(),
            out.as_mut_ptr().cast::<libc::c_void>(),
            out.len(),
            offset,
        )
    };
    if n < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(n as usize)
    }
}

/// A copy of `len` bytes of `src` at `offset` (inside it: the caller
/// checked the view), in a fresh buffer.
pub(crate) fn contiguous(src: &Source<'_>, offset: usize, len: usize) -> io::Result<Bytes> {
    fresh(len, |out| contiguous_into(src, offset, out))
}

/// The same copy into `out` (its length is the length copied), memory the
/// caller already holds: a parameter's buffer, overwritten in place.
pub(crate) fn contiguous_into(
    src: &Source<'_>,
    offset: usize,
    out: &mut [MaybeUninit<u8>],
) -> io::Result<()> {
    // Rows of one byte: the threads split the buffer anywhere.
    split(out, out.len(), 1, &|first, out| {
        src.read_into(offset + first, out)
    })
}

/// The elements of a strided view of `src` (`offset` bytes in, `strides`
/// in elements of `elem` bytes), row-major, in a fresh buffer. The view
/// must lie inside `src` (the caller checked it when the view was made).
pub(crate) fn strided(
    src: &Source<'_>,
    offset: usize,
    shape: &[usize],
    strides: &[usize],
    elem: usize,
) -> io::Result<Bytes> {
    let len = shape.iter().product::<usize>() * elem;
    fresh(len, |out| {
        strided_into(src, offset, shape, strides, elem, out)
    })
}

/// The same copy into `out`, which holds exactly the view's elements.
pub(crate) fn strided_into(
    src: &Source<'_>,
    offset: usize,
    shape: &[usize],
    strides: &[usize],
    elem: usize,
    out: &mut [MaybeUninit<u8>],
) -> io::Result<()> {
    let view = Strided::new(src.bytes(), offset, shape, strides, elem);
    assert_eq!(
        out.len(),
        view.planes * view.rows * view.cols * elem,
        "strided copy: the output does not hold the view"
    );
    if view.is_transpose() {
        return transpose(src, &view, out);
    }
    split(
        out,
        view.planes * view.rows,
        view.cols * elem,
        &|first, out| {
            view.fill(first, out);
            Ok(())
        },
    )
}

/// A fresh buffer of `len` bytes written by `fill`, which (as every copy of
/// this module) writes every byte of what it is given, also on error; the
/// first error is returned.
#[allow(unsafe_code)]
fn fresh(
    len: usize,
    fill: impl FnOnce(&mut [MaybeUninit<u8>]) -> io::Result<()>,
) -> io::Result<Bytes> {
    let mut result = Ok(());
    // SAFETY: the callers' `fill`s are this module's copies, each of which
    // writes every byte of its output, on success and on error (the
    // module's contract, checked by its tests against a reference for each
    // path): `split` hands its row fills runs that partition the buffer,
    // and `transpose`'s tasks partition its columns.
    let bytes = unsafe {
        Bytes::from_uninit_fill(len, |out| {
            advise_huge_pages(out);
            result = fill(out);
        })
    };
    result.map(|()| bytes)
}

/// How many threads to split `len` bytes of output over, at most `units`.
fn workers(len: usize, units: usize) -> usize {
    if len < PARALLEL_MIN {
        return 1;
    }
    burn_std::threads::budget()
        .min(MAX_WORKERS)
        .min(units)
        .max(1)
}

/// Writes output rows `first..` into the run it is given (whole rows),
/// every byte of it, also on error.
type Fill<'a> = dyn Fn(usize, &mut [MaybeUninit<u8>]) -> io::Result<()> + Sync + 'a;

/// Bytes per task of a split copy: whole rows of about this size (a huge
/// page), claimed one at a time by the threads.
const CHUNK: usize = 2 << 20;

fn split(
    out: &mut [MaybeUninit<u8>],
    rows: usize,
    row_bytes: usize,
    fill: &Fill<'_>,
) -> io::Result<()> {
    if out.is_empty() {
        return Ok(());
    }
    let per = (CHUNK / row_bytes).clamp(1, rows);
    let workers = workers(out.len(), rows.div_ceil(per));
    if workers <= 1 {
        return fill(0, out);
    }
    // Runs of whole rows, cut where possible on the 2 MiB boundaries of
    // the output's address (the huge pages `advise_huge_pages` asked for),
    // so that two threads never fault on one page at once, one waiting
    // while the other's fault clears it.
    let begin = out.as_ptr() as usize;
    let mut chunks = Vec::new();
    let (mut rest, mut first) = (out, 0);
    while !rest.is_empty() {
        let at = begin + first * row_bytes;
        let boundary = (at + 1).next_multiple_of(CHUNK) - at;
        let take = (boundary / row_bytes).max(1).min(rest.len() / row_bytes);
        let (chunk, tail) = rest.split_at_mut(take * row_bytes);
        chunks.push((first, std::sync::Mutex::new(chunk)));
        (rest, first) = (tail, first + take);
    }
    run_tasks(
        workers,
        chunks.len(),
        || (),
        |(), i| {
            // Each index is claimed once, so the lock is never contended.
            let (first, chunk) = &chunks[i];
            let mut chunk = chunk.lock().unwrap_or_else(|e| e.into_inner());
            fill(*first, &mut chunk)
        },
    )
}

/// Runs `task(state, t)` for every `t < count` on `workers` threads (the
/// caller's included), each claiming the next index when done with its
/// last, so a thread the OS preempts (a shared machine) holds the others
/// up by one task at most, not by half the copy. `init` makes each
/// thread's scratch state. Every task runs; the first error is returned.
fn run_tasks<S>(
    workers: usize,
    count: usize,
    init: impl Fn() -> S + Sync,
    task: impl Fn(&mut S, usize) -> io::Result<()> + Sync,
) -> io::Result<()> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let work = || {
        let mut state = init();
        let mut result = Ok(());
        loop {
            let t = next.fetch_add(1, Ordering::Relaxed);
            if t >= count {
                return result;
            }
            result = result.and(task(&mut state, t));
        }
    };
    if workers <= 1 {
        return work();
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = (1..workers).map(|_| scope.spawn(work)).collect();
        // The calling thread works too rather than waiting idle.
        let mut result = work();
        for handle in handles {
            // A panic in a task is a bug here; pass it on as it was.
            let part = handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            result = result.and(part);
        }
        result
    })
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

    /// Whether [`transpose`] reads this view: output rows along the
    /// source's contiguous axis, at least one 8 × 8 tile, an element size
    /// it has tiles for.
    fn is_transpose(&self) -> bool {
        self.row_stride == 1
            && self.col_stride != 1
            && self.rows >= 8
            && self.cols >= 8
            && matches!(self.elem, 1 | 2 | 4 | 8)
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

/// The output of a transpose, shared by the threads that write its
/// columns.
#[derive(Clone, Copy)]
struct Out(*mut u8);

// SAFETY: the threads of `transpose` write disjoint sets of output columns
// through it (each its own run of strips), and nothing reads the output
// until they all finished.
#[allow(unsafe_code)]
unsafe impl Send for Out {}
#[allow(unsafe_code)]
unsafe impl Sync for Out {}

/// A view whose rows run along the source's contiguous axis (`row_stride
/// == 1`): each output column is a contiguous run of the source (a "source
/// row"), as in every transposed `Linear` weight. Read by [`transpose`]
/// into `[planes, rows, cols]` row-major.
#[allow(unsafe_code)]
fn transpose(src: &Source<'_>, view: &Strided<'_>, out: &mut [MaybeUninit<u8>]) -> io::Result<()> {
    let elem = view.elem;
    let (rows, cols, line_stride) = (view.rows, view.cols, view.col_stride * elem);
    let line = rows * elem;
    let len = view.planes * rows * cols * elem;
    // Source rows per strip, a multiple of the 8 × 8 tile.
    let strip = (STRIP_BYTES / line).clamp(8, STRIP) / 8 * 8;
    // Strip rows start on whole cache lines, and not on a multiple of 256
    // bytes, so the 32 rows a tile column walks fall in different L1 sets.
    let mut pitch = line.next_multiple_of(64);
    if pitch.is_multiple_of(256) {
        pitch += 64;
    }
    let strips = cols.div_ceil(strip);
    let workers = workers(len, strips * view.planes);
    // Task `t`: strip `t % strips` of plane `t / strips`.
    let task = |out: Out, buf: &mut Vec<u8>, t: usize| -> io::Result<()> {
        let (plane, j0) = (t / strips, t % strips * strip);
        let n = strip.min(cols - j0);
        let base = view.offset + view.plane_offset(plane);
        let read = fetch(
            src,
            base + j0 * line_stride,
            line_stride,
            line,
            n,
            pitch,
            buf,
        );
        if read.is_err() {
            // The output is still written in full (zeros; the error is
            // what the caller sees).
            buf.fill(0);
        }
        // SAFETY: output row `i` (of `rows`) of this plane starts at element
        // `(plane * rows + i) * cols`; columns `j0..j0 + n` lie inside it
        // (`j0 + n <= cols`) and belong to this task alone. `buf` holds `n`
        // rows of `line` bytes `pitch` apart, as `tiles` reads them.
        unsafe {
            let at = out.0.add((plane * rows * cols + j0) * elem);
            tiles(elem, buf, pitch, n, rows, at, cols);
        }
        read
    };
    debug_assert_eq!(out.len(), len);
    let out = Out(out.as_mut_ptr().cast::<u8>());
    // The tasks (each strip of each plane once) partition the output's
    // columns, and each writes every element of its columns, on error too
    // (zeros), through `tiles`, which writes element `(i, j0 + k)` for
    // every `i < rows`, `k < n`.
    run_tasks(
        workers,
        strips * view.planes,
        || vec![0u8; strip * pitch],
        |buf, t| task(out, buf, t),
    )
}

/// Reads `n` source rows of `line` bytes, `stride` bytes apart from byte
/// `offset` on, into `buf` at `pitch` apart. A file whose rows are packed
/// (`stride == line`) takes one `preadv` for the strip.
fn fetch(
    src: &Source<'_>,
    offset: usize,
    stride: usize,
    line: usize,
    n: usize,
    pitch: usize,
    buf: &mut [u8],
) -> io::Result<()> {
    // `preadv` where `libc` has it on every version of the OS (Linux); other
    // Unixes read row by row.
    #[cfg(target_os = "linux")]
    if let Source::File { file, .. } = src
        && stride == line
        && preadv_rows(file, offset, line, n, pitch, buf)
    {
        return Ok(());
    }
    for k in 0..n {
        src.read_into(
            offset + k * stride,
            as_uninit(&mut buf[k * pitch..][..line]),
        )?;
    }
    Ok(())
}

/// `n` packed rows of `line` bytes from `offset`, into `buf` at `pitch`
/// apart, with one `preadv`. `false` on a short read or an error, which
/// the caller's row-by-row read then reports (or completes).
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn preadv_rows(
    file: &std::fs::File,
    offset: usize,
    line: usize,
    n: usize,
    pitch: usize,
    buf: &mut [u8],
) -> bool {
    use std::os::fd::AsRawFd;
    let Ok(at) = libc::off_t::try_from(offset) else {
        return false;
    };
    assert!(n <= STRIP && (n == 0 || (n - 1) * pitch + line <= buf.len()));
    let base = buf.as_mut_ptr();
    let iov: [libc::iovec; STRIP] = std::array::from_fn(|k| libc::iovec {
        // SAFETY (of the `add`): for `k < n`, `k * pitch + line` is inside
        // `buf` (asserted above); the other entries are not passed on.
        iov_base: if k < n {
            unsafe { base.add(k * pitch) }.cast()
        } else {
            std::ptr::null_mut()
        },
        iov_len: if k < n { line } else { 0 },
    });
    // SAFETY: the first `n` entries of `iov` describe disjoint ranges of
    // `buf`, which this call borrows exclusively; the kernel writes at most
    // `n * line` bytes into them and reads nothing from them.
    let got = unsafe { libc::preadv(file.as_raw_fd(), iov.as_ptr(), n as libc::c_int, at) };
    got >= 0 && got as usize == n * line
}

/// `bytes`, as memory that may be written with initialised bytes only.
#[allow(unsafe_code)]
pub(crate) fn as_uninit(bytes: &mut [u8]) -> &mut [MaybeUninit<u8>] {
    // SAFETY: `MaybeUninit<u8>` has the layout of `u8`. Every write this
    // module makes is of initialised bytes (file contents, copies of
    // initialised memory, or zeros), so `bytes` stays initialised.
    unsafe { std::slice::from_raw_parts_mut(bytes.as_mut_ptr().cast(), bytes.len()) }
}

/// Writes the transpose of a strip: output element `(i, k)`, at
/// `out + (i * stride + k) * elem`, is source row `k`'s element `i`, at
/// `buf[k * pitch + i * elem..]`, for `i < rows`, `k < n`.
///
/// # Safety
/// `out` must be valid for writes of every such element, and `buf` hold
/// `n` rows of `rows * elem` bytes `pitch` apart.
#[allow(unsafe_code)]
unsafe fn tiles(
    elem: usize,
    buf: &[u8],
    pitch: usize,
    n: usize,
    rows: usize,
    out: *mut u8,
    stride: usize,
) {
    let src = buf.as_ptr();
    // The 8 × 8 tiles in registers where the CPU has the instructions; the
    // edges (and other CPUs) element by element.
    #[cfg(target_arch = "x86_64")]
    {
        let (full_i, full_k) = (rows / 8 * 8, n / 8 * 8);
        let done = match elem {
            4 if std::arch::is_x86_feature_detected!("avx2") => {
                // SAFETY: AVX2 is present (checked); the tiles lie inside
                // the ranges the caller vouched for.
                let stream = stream_4(out, stride);
                unsafe { x86::tiles_4(src, pitch, full_k, full_i, out, stride, stream) };
                true
            }
            8 if std::arch::is_x86_feature_detected!("avx") => {
                // SAFETY: as above, with AVX.
                unsafe { x86::tiles_8(src, pitch, full_k, full_i, out, stride) };
                true
            }
            // SSE2 is part of x86-64.
            2 => {
                // SAFETY: as above.
                unsafe { x86::tiles_2(src, pitch, full_k, full_i, out, stride) };
                true
            }
            _ => false,
        };
        if done {
            // SAFETY: the edges, inside the same ranges.
            unsafe {
                rect(elem, src, pitch, full_i..rows, 0..n, out, stride);
                rect(elem, src, pitch, 0..full_i, full_k..n, out, stride);
            }
            return;
        }
    }
    // SAFETY: the whole strip, as the caller vouched.
    unsafe { rect(elem, src, pitch, 0..rows, 0..n, out, stride) };
}

/// Whether a transpose of 4-byte elements writes with streaming stores:
/// where the output rows are 32-byte aligned (`stride` a multiple of 8
/// elements). Each output line is written whole by one strip, so reading
/// it for ownership first (what an ordinary store does) is wasted
/// traffic: measured on a 64 MB `[4096, 4096]` f32 transpose from a
/// file, 33–40 ms against 40–50 ms (minima of 8, 2-core Zen 3).
#[cfg(target_arch = "x86_64")]
fn stream_4(out: *mut u8, stride: usize) -> bool {
    stride.is_multiple_of(8) && (out as usize).is_multiple_of(32)
}

/// Element by element: output `(i, k)` for `i` in `is`, `k` in `ks`.
///
/// # Safety
/// As [`tiles`], for these ranges.
#[allow(unsafe_code)]
unsafe fn rect(
    elem: usize,
    src: *const u8,
    pitch: usize,
    is: std::ops::Range<usize>,
    ks: std::ops::Range<usize>,
    out: *mut u8,
    stride: usize,
) {
    #[allow(unsafe_code)]
    unsafe fn go<const N: usize>(
        src: *const u8,
        pitch: usize,
        is: std::ops::Range<usize>,
        ks: std::ops::Range<usize>,
        out: *mut u8,
        stride: usize,
    ) {
        for i in is {
            for k in ks.clone() {
                // SAFETY: inside the ranges the caller vouched for.
                unsafe {
                    std::ptr::copy_nonoverlapping(
                        src.add(k * pitch + i * N),
                        out.add((i * stride + k) * N),
                        N,
                    )
                };
            }
        }
    }
    // SAFETY: forwarded.
    unsafe {
        match elem {
            1 => go::<1>(src, pitch, is, ks, out, stride),
            2 => go::<2>(src, pitch, is, ks, out, stride),
            4 => go::<4>(src, pitch, is, ks, out, stride),
            _ => go::<8>(src, pitch, is, ks, out, stride),
        }
    }
}

/// The in-register tiles. Each reads 8 source rows (`pitch` bytes apart)
/// of 8 elements and writes them as 8 output rows (`stride` elements
/// apart) of 8: unpacks and shuffles move bits, so every value (NaN
/// payloads included) arrives unchanged.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86 {
    use std::arch::x86_64::*;

    /// One 8 × 8 tile of 4-byte elements: source rows `0..8` (`pitch`
    /// bytes apart from `at`), elements `0..8`, as the tile's 8 columns.
    ///
    /// # Safety
    /// AVX2 present; the 8 × 32 bytes readable.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn tile_4(at: *const u8, pitch: usize) -> [__m256; 8] {
        // SAFETY: the caller vouches for the 8 rows of 32 bytes.
        let r = |m: usize| unsafe { _mm256_loadu_ps(at.add(m * pitch).cast()) };
        let (r0, r1, r2, r3) = (r(0), r(1), r(2), r(3));
        let (r4, r5, r6, r7) = (r(4), r(5), r(6), r(7));
        // Pairs of rows interleaved: t0 = [r0₀ r1₀ r0₁ r1₁ | r0₄ r1₄ r0₅ r1₅].
        let t0 = _mm256_unpacklo_ps(r0, r1);
        let t1 = _mm256_unpackhi_ps(r0, r1);
        let t2 = _mm256_unpacklo_ps(r2, r3);
        let t3 = _mm256_unpackhi_ps(r2, r3);
        let t4 = _mm256_unpacklo_ps(r4, r5);
        let t5 = _mm256_unpackhi_ps(r4, r5);
        let t6 = _mm256_unpacklo_ps(r6, r7);
        let t7 = _mm256_unpackhi_ps(r6, r7);
        // Quads: u0 = [r0₀ r1₀ r2₀ r3₀ | r0₄ r1₄ r2₄ r3₄].
        let u0 = _mm256_shuffle_ps::<0x44>(t0, t2);
        let u1 = _mm256_shuffle_ps::<0xEE>(t0, t2);
        let u2 = _mm256_shuffle_ps::<0x44>(t1, t3);
        let u3 = _mm256_shuffle_ps::<0xEE>(t1, t3);
        let u4 = _mm256_shuffle_ps::<0x44>(t4, t6);
        let u5 = _mm256_shuffle_ps::<0xEE>(t4, t6);
        let u6 = _mm256_shuffle_ps::<0x44>(t5, t7);
        let u7 = _mm256_shuffle_ps::<0xEE>(t5, t7);
        // Halves joined: column m of the tile.
        [
            _mm256_permute2f128_ps::<0x20>(u0, u4),
            _mm256_permute2f128_ps::<0x20>(u1, u5),
            _mm256_permute2f128_ps::<0x20>(u2, u6),
            _mm256_permute2f128_ps::<0x20>(u3, u7),
            _mm256_permute2f128_ps::<0x31>(u0, u4),
            _mm256_permute2f128_ps::<0x31>(u1, u5),
            _mm256_permute2f128_ps::<0x31>(u2, u6),
            _mm256_permute2f128_ps::<0x31>(u3, u7),
        ]
    }

    /// 4-byte elements, 8 × 8 per tile, AVX2 (the float shuffles of AVX
    /// and the unaligned 256-bit moves). With `stream`, pairs of tiles
    /// side by side are written as whole 64-byte lines with streaming
    /// stores (the output is not read for ownership first), which needs
    /// 32-byte aligned output rows.
    ///
    /// # Safety
    /// AVX2 present; source rows `k < n` hold `rows` elements `pitch`
    /// bytes apart from `src`; `out` valid for `(i, k)`, `i < rows`,
    /// `k < n` (both multiples of 8); with `stream`, `out` and `stride * 4`
    /// multiples of 32.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn tiles_4(
        src: *const u8,
        pitch: usize,
        n: usize,
        rows: usize,
        out: *mut u8,
        stride: usize,
        stream: bool,
    ) {
        let out = out.cast::<f32>();
        let pairs = if stream { n / 16 * 16 } else { 0 };
        for i in (0..rows).step_by(8) {
            for k in (0..pairs).step_by(16) {
                // SAFETY: rows `k..k + 16`, elements `i..i + 8`: inside;
                // the stores are 32-byte aligned (the caller's contract,
                // `k` a multiple of 16).
                unsafe {
                    let a = tile_4(src.add(k * pitch + i * 4), pitch);
                    let b = tile_4(src.add((k + 8) * pitch + i * 4), pitch);
                    let o = out.add(i * stride + k);
                    for m in 0..8 {
                        _mm256_stream_ps(o.add(m * stride), a[m]);
                        _mm256_stream_ps(o.add(m * stride + 8), b[m]);
                    }
                }
            }
            for k in (pairs..n).step_by(8) {
                // SAFETY: rows `k..k + 8`, elements `i..i + 8`: inside.
                unsafe {
                    let t = tile_4(src.add(k * pitch + i * 4), pitch);
                    let o = out.add(i * stride + k);
                    for (m, v) in t.into_iter().enumerate() {
                        _mm256_storeu_ps(o.add(m * stride), v);
                    }
                }
            }
        }
        if stream {
            // Streaming stores are weakly ordered: drain them before the
            // thread reports its part done.
            _mm_sfence();
        }
    }

    /// 8-byte elements, 8 × 8 as four 4 × 4 tiles, AVX.
    ///
    /// # Safety
    /// As [`tiles_4`], with AVX.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn tiles_8(
        src: *const u8,
        pitch: usize,
        n: usize,
        rows: usize,
        out: *mut u8,
        stride: usize,
    ) {
        let out = out.cast::<f64>();
        for i in (0..rows).step_by(4) {
            for k in (0..n).step_by(4) {
                // SAFETY: rows `k..k + 4`, elements `i..i + 4`: inside.
                unsafe {
                    let at = src.add(k * pitch + i * 8);
                    let r = |m: usize| _mm256_loadu_pd(at.add(m * pitch).cast());
                    let (r0, r1, r2, r3) = (r(0), r(1), r(2), r(3));
                    // t0 = [r0₀ r1₀ | r0₂ r1₂], t1 = [r0₁ r1₁ | r0₃ r1₃].
                    let t0 = _mm256_unpacklo_pd(r0, r1);
                    let t1 = _mm256_unpackhi_pd(r0, r1);
                    let t2 = _mm256_unpacklo_pd(r2, r3);
                    let t3 = _mm256_unpackhi_pd(r2, r3);
                    let o = out.add(i * stride + k);
                    _mm256_storeu_pd(o, _mm256_permute2f128_pd::<0x20>(t0, t2));
                    _mm256_storeu_pd(o.add(stride), _mm256_permute2f128_pd::<0x20>(t1, t3));
                    _mm256_storeu_pd(o.add(2 * stride), _mm256_permute2f128_pd::<0x31>(t0, t2));
                    _mm256_storeu_pd(o.add(3 * stride), _mm256_permute2f128_pd::<0x31>(t1, t3));
                }
            }
        }
    }

    /// 2-byte elements (f16, bf16, i16, u16), 8 × 8 per tile, SSE2.
    ///
    /// # Safety
    /// As [`tiles_4`] (SSE2 is part of x86-64).
    #[target_feature(enable = "sse2")]
    pub(super) unsafe fn tiles_2(
        src: *const u8,
        pitch: usize,
        n: usize,
        rows: usize,
        out: *mut u8,
        stride: usize,
    ) {
        let out = out.cast::<u16>();
        for i in (0..rows).step_by(8) {
            for k in (0..n).step_by(8) {
                // SAFETY: rows `k..k + 8`, elements `i..i + 8`: inside.
                unsafe {
                    let at = src.add(k * pitch + i * 2);
                    let r = |m: usize| _mm_loadu_si128(at.add(m * pitch).cast());
                    let (r0, r1, r2, r3) = (r(0), r(1), r(2), r(3));
                    let (r4, r5, r6, r7) = (r(4), r(5), r(6), r(7));
                    // t0 = [r0₀ r1₀ r0₁ r1₁ r0₂ r1₂ r0₃ r1₃].
                    let t0 = _mm_unpacklo_epi16(r0, r1);
                    let t1 = _mm_unpackhi_epi16(r0, r1);
                    let t2 = _mm_unpacklo_epi16(r2, r3);
                    let t3 = _mm_unpackhi_epi16(r2, r3);
                    let t4 = _mm_unpacklo_epi16(r4, r5);
                    let t5 = _mm_unpackhi_epi16(r4, r5);
                    let t6 = _mm_unpacklo_epi16(r6, r7);
                    let t7 = _mm_unpackhi_epi16(r6, r7);
                    // u0 = [r0₀ r1₀ r2₀ r3₀ r0₁ r1₁ r2₁ r3₁].
                    let u0 = _mm_unpacklo_epi32(t0, t2);
                    let u1 = _mm_unpackhi_epi32(t0, t2);
                    let u2 = _mm_unpacklo_epi32(t1, t3);
                    let u3 = _mm_unpackhi_epi32(t1, t3);
                    let u4 = _mm_unpacklo_epi32(t4, t6);
                    let u5 = _mm_unpackhi_epi32(t4, t6);
                    let u6 = _mm_unpacklo_epi32(t5, t7);
                    let u7 = _mm_unpackhi_epi32(t5, t7);
                    let o = out.add(i * stride + k);
                    let w = |m: usize, v| _mm_storeu_si128(o.add(m * stride).cast(), v);
                    w(0, _mm_unpacklo_epi64(u0, u4));
                    w(1, _mm_unpackhi_epi64(u0, u4));
                    w(2, _mm_unpacklo_epi64(u1, u5));
                    w(3, _mm_unpackhi_epi64(u1, u5));
                    w(4, _mm_unpacklo_epi64(u2, u6));
                    w(5, _mm_unpackhi_epi64(u2, u6));
                    w(6, _mm_unpacklo_epi64(u3, u7));
                    w(7, _mm_unpackhi_epi64(u3, u7));
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

    /// `bytes` in a file of its own, removed when dropped.
    struct TempFile {
        path: std::path::PathBuf,
        file: std::fs::File,
    }

    impl TempFile {
        fn new(bytes: &[u8]) -> Self {
            use std::sync::atomic::{AtomicUsize, Ordering};
            static NEXT: AtomicUsize = AtomicUsize::new(0);
            let path = std::env::temp_dir().join(format!(
                "burn-store-copy-{}-{}",
                std::process::id(),
                NEXT.fetch_add(1, Ordering::Relaxed)
            ));
            std::fs::write(&path, bytes).unwrap();
            let file = std::fs::File::open(&path).unwrap();
            Self { path, file }
        }
    }

    impl Drop for TempFile {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.path);
        }
    }

    /// The view read from memory and (on Unix) from a file holding the same
    /// bytes, both against the reference.
    fn check(src: &[u8], offset: usize, shape: &[usize], strides: &[usize], elem: usize) {
        let expected = reference(src, offset, shape, strides, elem);
        let got = strided(&Source::Memory(src), offset, shape, strides, elem).unwrap();
        assert!(
            got[..] == expected[..],
            "memory: shape {shape:?} strides {strides:?} elem {elem} offset {offset}"
        );
        #[cfg(unix)]
        {
            let file = TempFile::new(src);
            let source = Source::File {
                file: &file.file,
                map: src,
            };
            let got = strided(&source, offset, shape, strides, elem).unwrap();
            assert!(
                got[..] == expected[..],
                "file: shape {shape:?} strides {strides:?} elem {elem} offset {offset}"
            );
            // Over memory that holds other bytes (a resident parameter).
            let mut over = vec![0xA5u8; expected.len()];
            strided_into(&source, offset, shape, strides, elem, as_uninit(&mut over)).unwrap();
            assert!(
                over[..] == expected[..],
                "file, in place: shape {shape:?} strides {strides:?} elem {elem} offset {offset}"
            );
        }
        let mut over = vec![0x5Au8; expected.len()];
        strided_into(
            &Source::Memory(src),
            offset,
            shape,
            strides,
            elem,
            as_uninit(&mut over),
        )
        .unwrap();
        assert!(
            over[..] == expected[..],
            "memory, in place: shape {shape:?} strides {strides:?} elem {elem} offset {offset}"
        );
    }

    #[test]
    fn transposes_match_the_reference_for_odd_shapes() {
        // Every element size, the tiles' edges (not multiples of 8 on
        // either side), fewer than 8 (the generic path) and strips cut
        // short at the end.
        for elem in [1, 2, 3, 4, 8] {
            for (rows, cols) in [
                (1, 1),
                (1, 7),
                (7, 1),
                (7, 9),
                (8, 8),
                (9, 16),
                (31, 33),
                (33, 31),
                (65, 3),
                (100, 97),
                (40, 64),
            ] {
                let src = source(rows * cols * elem + 5);
                let (shape, strides) = permuted(&[rows, cols], &[1, 0]);
                check(&src, 5, &shape, &strides, elem);
            }
        }
    }

    #[test]
    fn sliced_transposes_read_rows_apart_match_the_reference() {
        // Source rows longer than what the view takes (a narrowed weight):
        // not packed, so the file is read row by row; and a column range.
        for elem in [2, 4, 8] {
            let (rows, cols) = (37, 50);
            let src = source(rows * cols * elem);
            let (shape, strides) = permuted(&[rows, cols], &[1, 0]);
            // View [cols - 10, rows - 3] starting at source (1, 4).
            let sliced = [shape[0] - 10, shape[1] - 3];
            check(&src, (cols + 4) * elem, &sliced, &strides, elem);
        }
    }

    #[test]
    fn long_rows_take_shorter_strips() {
        // Source rows of 96 KiB: the strip shrinks to 8 rows to stay near
        // `STRIP_BYTES`, and 24 KiB rows to 16 (multiples of the tile).
        for (rows, cols) in [(12, 24 * 1024 + 3), (20, 6 * 1024 + 1)] {
            let src = source(rows * cols * 4);
            let (shape, strides) = permuted(&[rows, cols], &[1, 0]);
            check(&src, 0, &shape, &strides, 4);
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
        // Planes of transposes large enough for the tiles: [2, 9, 17]
        // with the last two dimensions swapped, every element size.
        for elem in [1, 2, 4, 8] {
            let src = source(2 * 9 * 17 * elem);
            let (shape, strides) = permuted(&[2, 9, 17], &[0, 2, 1]);
            check(&src, 0, &shape, &strides, elem);
        }
        // Empty and rank-0/1 views.
        check(&src, 0, &[], &[], 4);
        check(&src, 8, &[0, 3], &[1, 0], 4);
        check(&src, 0, &[6], &[3], 2);
    }

    #[test]
    fn large_copies_split_across_threads_match_the_reference() {
        // Over `PARALLEL_MIN` and the huge-page threshold, with row and
        // strip counts that do not divide evenly among threads.
        let (rows, cols) = (1031, 1027);
        let src = source(rows * cols * 4 + 12);
        let (shape, strides) = permuted(&[rows, cols], &[1, 0]);
        check(&src, 12, &shape, &strides, 4);
        // Planes split mid-plane: [3, rows / 3, cols] with the last two
        // dimensions transposed.
        let (shape, strides) = permuted(&[3, 343, 1027], &[0, 2, 1]);
        check(&src, 0, &shape, &strides, 4);
        // Output rows a multiple of 8 elements: the streaming stores,
        // with a last strip of 8 (ordinary stores) beside them.
        let (shape, strides) = permuted(&[1032, 1024], &[1, 0]);
        check(&src, 4, &shape, &strides, 4);
        // 16-bit, just under and just over `PARALLEL_MIN` (1 MiB).
        for (rows, cols) in [(725, 723), (725, 724)] {
            let (shape, strides) = permuted(&[rows, cols], &[1, 0]);
            check(&src, 2, &shape, &strides, 2);
        }
        #[cfg(unix)]
        let file = TempFile::new(&src);
        let all = [
            Source::Memory(&src),
            #[cfg(unix)]
            Source::File {
                file: &file.file,
                map: &src,
            },
        ];
        for s in &all {
            let at = |offset: usize, len: usize| contiguous(s, offset, len).unwrap();
            let over = |offset: usize, len: usize| {
                let mut out = vec![0xA5u8; len];
                contiguous_into(s, offset, as_uninit(&mut out)).unwrap();
                out
            };
            assert_eq!(&over(5, (3 << 20) + 3)[..], &src[5..(3 << 20) + 8]);
            assert_eq!(&at(3, src.len() - 3)[..], &src[3..]);
            assert_eq!(&at(0, 10)[..], &src[..10]);
            assert_eq!(&at(7, (1 << 20) + 1)[..], &src[7..(1 << 20) + 8]);
            assert!(at(0, 0).is_empty());
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_file_shorter_than_its_map_is_an_error_not_a_crash() {
        // The map claims more than the file now holds (a file truncated
        // after it was opened): `pread` comes back short, and the copy
        // reports it, for the contiguous read and the transpose alike.
        let bytes = source(4096 * 4);
        let file = TempFile::new(&bytes[..1000]);
        let src = Source::File {
            file: &file.file,
            map: &bytes,
        };
        let err = contiguous(&src, 0, bytes.len()).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
        let (shape, strides) = permuted(&[64, 64], &[1, 0]);
        let err = strided(&src, 0, &shape, &strides, 4).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
    }

    #[test]
    #[allow(unsafe_code)]
    fn the_portable_loop_matches_the_simd_tiles() {
        // The element-by-element loop is what CPUs without the SIMD paths
        // run for whole strips; here both write the same strip.
        for elem in [1usize, 2, 4, 8] {
            for (n, rows, stride) in [(32, 64, 40), (16, 24, 16), (24, 17, 31)] {
                let pitch = (rows * elem).next_multiple_of(64) + 64;
                let buf = source(n * pitch);
                let len = (rows - 1) * stride + n;
                let (mut simd, mut portable) = (vec![0u8; len * elem], vec![0u8; len * elem]);
                // SAFETY: `buf` holds `n` rows of `rows * elem` bytes
                // `pitch` apart, and both outputs hold element
                // `(i, k)` at `i * stride + k` for `i < rows`, `k < n`.
                unsafe {
                    tiles(elem, &buf, pitch, n, rows, simd.as_mut_ptr(), stride);
                    rect(
                        elem,
                        buf.as_ptr(),
                        pitch,
                        0..rows,
                        0..n,
                        portable.as_mut_ptr(),
                        stride,
                    );
                }
                assert!(
                    simd == portable,
                    "elem {elem} n {n} rows {rows} stride {stride}"
                );
            }
        }
    }
}
