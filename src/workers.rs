//! Spreading independent per-function work over the machine's cores.

/// Splits `items` into one contiguous chunk per worker thread and returns `work`'s results in chunk
/// order. Uses as many threads as there are cores, but no thread gets fewer than `min_per_thread`
/// items: below that the threads cost more than they save, and the work runs on the caller's thread.
pub(crate) fn map_chunks<'a, T: Sync, R: Send>(
    items: &'a [T],
    min_per_thread: usize,
    work: impl Fn(&'a [T]) -> R + Sync,
) -> Vec<R> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = cores.min(items.len() / min_per_thread.max(1)).max(1);
    if threads == 1 {
        return vec![work(items)];
    }
    let chunk = items.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let work = &work;
        let workers: Vec<_> = items.chunks(chunk).map(|c| scope.spawn(move || work(c))).collect();
        workers.into_iter().map(|w| w.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    })
}
