//! Flex's worker threads.
//!
//! A parallel op hands out tasks `0..count` to the calling thread and to a
//! fixed set of helper threads, which claim runs of them from a shared
//! counter. Between jobs the helpers spin for [`SPIN`] before they sleep, so
//! the next op of a training step finds them awake: waking a sleeping thread
//! costs tens of microseconds on a VM (a futex wake-up and a reschedule),
//! which a general-purpose pool that parks its workers right away pays on
//! every op (measured: 43 µs for an empty two-task region on rayon from the
//! main thread of the 2-core work machine, against well under a microsecond
//! here while the helpers spin).
//!
//! Which thread runs a task never matters: ops cut their work into tasks
//! from the sizes alone, so results are the same for any thread count.
//!
//! One job runs at a time. A parallel op started from a task of a job runs
//! its tasks on its own thread; one started on another thread while a job
//! runs waits for it to finish, then runs as usual.
//!
//! The thread count is `BURN_FLEX_THREADS` when set, else every available
//! core (`burn_std::threads::budget`, shared with burn-store's copies); [`with_threads`] changes how ops split their work on the calling
//! thread (`1`: no parallel work at all).

use core::sync::atomic::{AtomicUsize, Ordering::SeqCst};

#[cfg(feature = "threads")]
use pool::run;
#[cfg(feature = "threads")]
pub use pool::{threads, with_threads};

/// The tasks of one job: each index below `count` is claimed exactly once,
/// in runs of consecutive indices.
pub(crate) struct Tasks {
    next: AtomicUsize,
    count: usize,
    /// Threads the job is split for: a claim takes a `1 / (2 · threads)`
    /// share of what is left (at least one task), so early claims are long
    /// contiguous runs (streaming memory in order, as the hardware
    /// prefetchers like) and the last ones short (balancing the finish).
    threads: usize,
}

impl Tasks {
    fn new(count: usize, threads: usize) -> Self {
        Self {
            next: AtomicUsize::new(0),
            count,
            threads: threads.max(1),
        }
    }

    /// The next run of unclaimed tasks, if any.
    #[inline]
    pub(crate) fn claim(&self) -> Option<core::ops::Range<usize>> {
        let mut i = self.next.load(SeqCst);
        loop {
            if i >= self.count {
                return None;
            }
            let take = ((self.count - i) / (2 * self.threads)).max(1);
            match self.next.compare_exchange_weak(i, i + take, SeqCst, SeqCst) {
                Ok(_) => return Some(i..i + take),
                Err(now) => i = now,
            }
        }
    }
}

/// What every participant of a job runs: claim tasks until none are left.
type Body<'a> = dyn Fn(&Tasks) + Sync + 'a;

#[cfg(feature = "threads")]
mod pool {
    use super::{Body, Tasks};
    use core::cell::Cell;
    use core::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::SeqCst};
    use std::boxed::Box;
    use std::format;
    use std::sync::{Condvar, Mutex, OnceLock};
    use std::time::{Duration, Instant};

    /// How long an idle helper spins for the next job before it sleeps.
    const SPIN: Duration = Duration::from_micros(300);

    /// The job being run, as raw pointers: valid while the job is open (its
    /// caller waits for every helper that joined before it returns).
    #[derive(Clone, Copy)]
    struct Job {
        body: *const Body<'static>,
        tasks: *const Tasks,
    }

    // SAFETY: the pointers are only dereferenced by helpers registered in
    // `active` while the job is open; the caller keeps both alive until
    // `active` drops to zero (see `Pool::run`). `Body` is `Sync` and `Tasks`
    // holds atomics only.
    unsafe impl Send for Job {}

    struct Pool {
        /// Participants, the caller included.
        threads: usize,
        /// Taken by the caller of a job for its whole duration.
        busy: AtomicBool,
        /// Bumped when a job is posted; helpers compare it with the last seen.
        epoch: AtomicU64,
        /// Helpers inside the open job.
        active: AtomicUsize,
        /// The payload of a task that panicked on a helper.
        panicked: Mutex<Option<Box<dyn core::any::Any + Send>>>,
        /// The open job; `None` once its caller closed it.
        job: Mutex<Option<Job>>,
        /// Helpers asleep (or about to be), and their wake-up.
        sleepers: AtomicUsize,
        sleep: Mutex<()>,
        wake: Condvar,
    }

    std::thread_local! {
        /// Set while this thread runs tasks of a job (always, on helpers).
        static IN_JOB: Cell<bool> = const { Cell::new(false) };
        /// The thread count ops split their work for on this thread (0: the pool's).
        static LIMIT: Cell<usize> = const { Cell::new(0) };
    }

    fn pool() -> &'static Pool {
        static POOL: OnceLock<&'static Pool> = OnceLock::new();
        POOL.get_or_init(|| {
            // The one setting shared with the other crates that start threads.
            let threads = burn_std::threads::budget();
            let pool: &'static Pool = Box::leak(Box::new(Pool {
                threads,
                busy: AtomicBool::new(false),
                epoch: AtomicU64::new(0),
                active: AtomicUsize::new(0),
                panicked: Mutex::new(None),
                job: Mutex::new(None),
                sleepers: AtomicUsize::new(0),
                sleep: Mutex::new(()),
                wake: Condvar::new(),
            }));
            for i in 1..threads {
                let spawned = std::thread::Builder::new()
                    .name(format!("burn-flex-{i}"))
                    .spawn(move || pool.helper());
                // Without a helper the caller runs the tasks itself; that is
                // slower, never wrong.
                drop(spawned);
            }
            pool
        })
    }

    /// The number of threads ops split their work for: the pool's size, or the
    /// count set by [`with_threads`] on this thread.
    pub fn threads() -> usize {
        match LIMIT.with(Cell::get) {
            0 => pool().threads,
            n => n,
        }
    }

    /// Runs `f` with ops on this thread splitting their work for `threads`
    /// threads (`1`: every op runs on this thread alone). Results do not depend
    /// on it; tests use it to check that, and callers that run several models
    /// side by side can keep each to one thread.
    pub fn with_threads<R>(threads: usize, f: impl FnOnce() -> R) -> R {
        struct Restore(usize);
        impl Drop for Restore {
            fn drop(&mut self) {
                LIMIT.with(|l| l.set(self.0));
            }
        }
        let _restore = Restore(LIMIT.with(|l| l.replace(threads.max(1))));
        f()
    }

    /// Runs `body` on the calling thread and on every free helper, each claiming
    /// tasks `0..count` from one counter until none are left; returns when all
    /// tasks have finished. Panics if a task panicked.
    pub(crate) fn run(count: usize, body: &Body<'_>) {
        let tasks = Tasks::new(count, threads());
        if count <= 1 || threads() <= 1 || IN_JOB.with(Cell::get) {
            return body(&tasks);
        }
        let pool = pool();
        if pool.threads <= 1 {
            return body(&tasks);
        }
        // Another thread's job: wait for it (jobs are one op each).
        let mut spins = 0u32;
        while pool
            .busy
            .compare_exchange_weak(false, true, SeqCst, SeqCst)
            .is_err()
        {
            spins = spins.wrapping_add(1);
            if spins.is_multiple_of(64) {
                std::thread::yield_now();
            } else {
                core::hint::spin_loop();
            }
        }
        pool.run(&tasks, body);
    }

    impl Pool {
        fn run(&self, tasks: &Tasks, body: &Body<'_>) {
            // SAFETY (lifetime erasure): helpers dereference `body` and `tasks`
            // only while registered in `active` for this open job, and `Close`
            // below (run on return and on unwind) waits for `active` to reach
            // zero after closing the job, before this frame's borrows end.
            let body: *const Body<'static> = unsafe { core::mem::transmute(body) };
            // A payload left by a job whose caller panicked itself.
            drop(
                self.panicked
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .take(),
            );
            *self.job.lock().unwrap_or_else(|e| e.into_inner()) = Some(Job { body, tasks });
            self.epoch.fetch_add(1, SeqCst);
            if self.sleepers.load(SeqCst) > 0 {
                let _guard = self.sleep.lock().unwrap_or_else(|e| e.into_inner());
                self.wake.notify_all();
            }

            struct Close<'a>(&'a Pool);
            impl Drop for Close<'_> {
                fn drop(&mut self) {
                    let pool = self.0;
                    // Closed under the lock, `active` read after it: a
                    // helper that took the lock first (and saw the job) had
                    // registered before, so it is waited for; one that takes
                    // it later sees `None`.
                    *pool.job.lock().unwrap_or_else(|e| e.into_inner()) = None;
                    while pool.active.load(SeqCst) != 0 {
                        core::hint::spin_loop();
                    }
                    IN_JOB.with(|f| f.set(false));
                    pool.busy.store(false, SeqCst);
                }
            }
            let close = Close(self);
            IN_JOB.with(|f| f.set(true));
            // SAFETY: `body` was made from a live reference just above.
            unsafe { (*body)(tasks) };
            drop(close);
            let payload = self
                .panicked
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take();
            if let Some(payload) = payload {
                std::panic::resume_unwind(payload);
            }
        }

        fn helper(&self) {
            IN_JOB.with(|h| h.set(true));
            let mut seen = self.epoch.load(SeqCst);
            loop {
                self.wait_for_job(seen);
                seen = self.epoch.load(SeqCst);
                // Registered first, job read second: the caller closes the
                // job first and reads `active` second, so either it waits
                // for this helper or this helper finds no job.
                self.active.fetch_add(1, SeqCst);
                let job = *self.job.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(job) = job {
                    let run = std::panic::AssertUnwindSafe(|| {
                        // SAFETY: the job is open and this helper is in
                        // `active`, so its caller keeps both alive.
                        unsafe { (*job.body)(&*job.tasks) }
                    });
                    if let Err(payload) = std::panic::catch_unwind(run) {
                        *self.panicked.lock().unwrap_or_else(|e| e.into_inner()) = Some(payload);
                    }
                }
                self.active.fetch_sub(1, SeqCst);
            }
        }

        /// Returns once `epoch` differs from `seen`: spinning for [`SPIN`], then
        /// asleep until a caller wakes the helpers.
        fn wait_for_job(&self, seen: u64) {
            let start = Instant::now();
            let mut spins = 0u32;
            while self.epoch.load(SeqCst) == seen {
                core::hint::spin_loop();
                spins = spins.wrapping_add(1);
                if spins.is_multiple_of(256) && start.elapsed() > SPIN {
                    let mut guard = self.sleep.lock().unwrap_or_else(|e| e.into_inner());
                    self.sleepers.fetch_add(1, SeqCst);
                    // Counted as a sleeper first, epoch checked second: a caller
                    // bumps the epoch first and reads `sleepers` second.
                    while self.epoch.load(SeqCst) == seen {
                        guard = self.wake.wait(guard).unwrap_or_else(|e| e.into_inner());
                    }
                    self.sleepers.fetch_sub(1, SeqCst);
                    return;
                }
            }
        }
    }
}

#[cfg(not(feature = "threads"))]
fn run(count: usize, body: &Body<'_>) {
    body(&Tasks::new(count, 1))
}

/// The number of threads ops split their work for: 1 without the `threads` feature.
#[cfg(not(feature = "threads"))]
pub fn threads() -> usize {
    1
}

/// Runs `f`: without the `threads` feature every op runs on the calling thread.
#[cfg(not(feature = "threads"))]
pub fn with_threads<R>(_threads: usize, f: impl FnOnce() -> R) -> R {
    f()
}

/// Runs `f(state, task)` for every task in `0..count` across the threads,
/// with one `init()` state per participating thread, made on its first task.
pub(crate) fn for_each_init<S>(
    count: usize,
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, usize) + Sync,
) {
    run(count, &|tasks: &Tasks| {
        let mut state = None;
        while let Some(run) = tasks.claim() {
            let state = state.get_or_insert_with(&init);
            for i in run {
                f(state, i);
            }
        }
    });
}

/// Runs `f(task)` for every task in `0..count` across the threads.
pub(crate) fn for_each(count: usize, f: impl Fn(usize) + Sync) {
    run(count, &|tasks: &Tasks| {
        while let Some(run) = tasks.claim() {
            run.for_each(&f);
        }
    });
}

/// A mutable slice handed to tasks as disjoint chunks.
struct Chunks<T> {
    ptr: *mut T,
    len: usize,
    chunk: usize,
}

// SAFETY: tasks get pairwise disjoint chunks (each index is claimed once),
// so sharing the pointer is sharing `&mut [T]` pieces: needs `T: Send`.
unsafe impl<T: Send> Sync for Chunks<T> {}

impl<T> Chunks<T> {
    fn new(data: &mut [T], chunk: usize) -> Self {
        Self {
            ptr: data.as_mut_ptr(),
            len: data.len(),
            chunk: chunk.max(1),
        }
    }

    fn count(&self) -> usize {
        self.len.div_ceil(self.chunk)
    }

    /// Chunk `i`.
    ///
    /// # Safety
    /// Each `i` is taken at most once while the borrow `new` came from lives.
    #[allow(clippy::mut_from_ref)]
    unsafe fn get(&self, i: usize) -> &mut [T] {
        let start = i * self.chunk;
        let len = self.chunk.min(self.len - start);
        // SAFETY: `start + len <= self.len`, and the caller takes each chunk once.
        unsafe { core::slice::from_raw_parts_mut(self.ptr.add(start), len) }
    }
}

/// Runs `f(i, chunk)` over the chunks of `chunk` elements of `data` (the
/// last may be shorter), in parallel; `init` makes one state per thread.
pub(crate) fn chunks_mut_init<T: Send, S>(
    data: &mut [T],
    chunk: usize,
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, usize, &mut [T]) + Sync,
) {
    let chunks = Chunks::new(data, chunk);
    // SAFETY: `for_each_init` hands out each task index once.
    for_each_init(chunks.count(), init, |s, i| {
        f(s, i, unsafe { chunks.get(i) })
    });
}

/// Runs `f(i, chunk)` over the chunks of `chunk` elements of `data`, in parallel.
pub(crate) fn chunks_mut<T: Send>(
    data: &mut [T],
    chunk: usize,
    f: impl Fn(usize, &mut [T]) + Sync,
) {
    let chunks = Chunks::new(data, chunk);
    // SAFETY: `for_each` hands out each task index once.
    for_each(chunks.count(), |i| f(i, unsafe { chunks.get(i) }));
}

/// Runs `f(i, a_chunk, b_chunk)` over matching chunks of two slices (chunk
/// `i` of `a` has `chunk_a` elements, of `b` `chunk_b`), in parallel, with
/// one `init()` state per thread; the chunk count is `a`'s.
pub(crate) fn chunks_mut2_init<T: Send, U: Send, S>(
    a: &mut [T],
    chunk_a: usize,
    b: &mut [U],
    chunk_b: usize,
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, usize, &mut [T], &mut [U]) + Sync,
) {
    let (ca, cb) = (Chunks::new(a, chunk_a), Chunks::new(b, chunk_b));
    assert!(
        cb.count() >= ca.count(),
        "chunks_mut2: second slice too short"
    );
    // SAFETY: `for_each_init` hands out each task index once.
    for_each_init(ca.count(), init, |s, i| unsafe {
        f(s, i, ca.get(i), cb.get(i))
    });
}

#[cfg(all(test, feature = "threads"))]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;
    use core::sync::atomic::AtomicU32;

    /// Every task of every size runs exactly once, with and without helpers.
    #[test]
    fn each_task_runs_once() {
        for threads in [1, 2, 3] {
            for count in [0, 1, 2, 3, 7, 64, 1000] {
                let hits: Vec<AtomicU32> = (0..count).map(|_| AtomicU32::new(0)).collect();
                with_threads(threads, || {
                    for_each(count, |i| {
                        hits[i].fetch_add(1, SeqCst);
                    })
                });
                assert!(
                    hits.iter().all(|h| h.load(SeqCst) == 1),
                    "count {count}, threads {threads}"
                );
            }
        }
    }

    /// Chunks cover the slice in order, the last one shorter.
    #[test]
    fn chunks_cover_the_slice() {
        let mut data = vec![0usize; 1003];
        chunks_mut(&mut data, 10, |i, c| {
            assert!(
                c.len() == 10 || (i == 100 && c.len() == 3),
                "chunk {i}: {}",
                c.len()
            );
            for (j, x) in c.iter_mut().enumerate() {
                *x = i * 10 + j + 1;
            }
        });
        assert!(data.iter().enumerate().all(|(i, &x)| x == i + 1));

        let (mut a, mut b) = (vec![0u32; 12], vec![0u64; 6]);
        chunks_mut2_init(
            &mut a,
            4,
            &mut b,
            2,
            || 7u32,
            |s, i, ca, cb| {
                ca.fill(*s + i as u32);
                cb.fill(i as u64);
            },
        );
        assert_eq!(a, [7, 7, 7, 7, 8, 8, 8, 8, 9, 9, 9, 9]);
        assert_eq!(b, [0, 0, 1, 1, 2, 2]);
    }

    /// A parallel op inside a task, and ops from several threads at once,
    /// run (serially where the pool is taken) and finish.
    #[test]
    fn nested_and_concurrent_calls_finish() {
        let total = AtomicU32::new(0);
        for_each(8, |_| {
            for_each(8, |_| {
                total.fetch_add(1, SeqCst);
            });
        });
        assert_eq!(total.load(SeqCst), 64);

        let total = AtomicU32::new(0);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..200 {
                        for_each(5, |_| {
                            total.fetch_add(1, SeqCst);
                        });
                    }
                });
            }
        });
        assert_eq!(total.load(SeqCst), 4 * 200 * 5);
    }

    /// With one thread, every task runs on the caller.
    #[test]
    fn one_thread_runs_on_the_caller() {
        let me = std::thread::current().id();
        with_threads(1, || {
            for_each(16, |_| assert_eq!(std::thread::current().id(), me));
        });
        assert_eq!(with_threads(1, threads), 1);
        assert_eq!(with_threads(5, threads), 5);
    }

    /// A panicking task reaches the caller with its message, whichever
    /// thread ran it; the pool works afterwards.
    #[test]
    fn a_panic_reaches_the_caller() {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            for_each(64, |i| {
                if i == 37 {
                    panic!("task 37 failed");
                }
            })
        }));
        let payload = result.expect_err("the panic propagates");
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| std::string::String::from(*s))
            .or_else(|| payload.downcast_ref::<std::string::String>().cloned())
            .unwrap_or_default();
        assert_eq!(message, "task 37 failed");
        let after = AtomicU32::new(0);
        for_each(64, |_| {
            after.fetch_add(1, SeqCst);
        });
        assert_eq!(after.load(SeqCst), 64);
    }
}
