//! Spreading independent per-function work over the machine's cores.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Each worker's stack: a main thread's 8 MiB rather than Rust's 2 MiB default (or whatever
/// `RUST_MIN_STACK` says), so that work recursing to patchmap's nesting limits (types, aggregates
/// and constant expressions 256 deep) has the room it has on the command line's main thread.
/// Only the pages used are ever touched.
const WORKER_STACK_BYTES: usize = 8 << 20;

/// Runs `work` on every item and returns the results in item order. Items are handed out one at a
/// time to as many threads as there are cores (functions differ wildly in size, so fixed chunks would
/// leave cores idle), but only when there are at least `min_per_thread` items per extra thread: below
/// that the threads cost more than they save, and the work runs on the caller's thread.
pub(crate) fn map<'a, T: Sync, R: Send>(
    items: &'a [T],
    min_per_thread: usize,
    work: impl Fn(&'a T) -> R + Sync,
) -> Vec<R> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = cores.min(items.len() / min_per_thread.max(1)).max(1);
    if threads == 1 {
        return items.iter().map(work).collect();
    }
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let (work, next) = (&work, &next);
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                // As `scope.spawn`, which panics when the system cannot create a thread.
                std::thread::Builder::new()
                    .stack_size(WORKER_STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        let mut mine = Vec::new();
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(item) = items.get(i) else { break mine };
                            mine.push((i, work(item)));
                        }
                    })
                    .expect("failed to spawn a worker thread")
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    });
    done.sort_unstable_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}
