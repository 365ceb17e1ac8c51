//! One call's independent pieces of work (the windows of a long string, the strings of a
//! long array) spread over the machine's cores, their results kept in input order.
//!
//! Only large calls are split: the callers hand over work that takes milliseconds, so the
//! threads (scoped, started per piece of work) cost little beside it. Work started from one
//! of these threads runs on it, never on further threads.

use std::cell::Cell;
use std::num::NonZeroUsize;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Most threads one call uses.
const MAX_THREADS: usize = 8;

thread_local! {
    /// This thread is running a share of [`map`]: nested work stays on it.
    static SHARING: Cell<bool> = const { Cell::new(false) };
    /// This thread was started by [`map`] and ends with it.
    static HELPER: Cell<bool> = const { Cell::new(false) };
}

/// Whether this thread was started for one piece of work and ends with it: what a thread
/// keeps for itself over many calls (a pattern's own search caches) is not made for it.
pub(crate) fn is_helper() -> bool {
    HELPER.get()
}

/// How many threads [`map`] would use now: the cores available (at most [`MAX_THREADS`]),
/// or one on a thread already running a share of it.
pub(crate) fn threads() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    if SHARING.get() {
        return 1;
    }
    *CORES.get_or_init(|| {
        std::thread::available_parallelism()
            .map_or(1, NonZeroUsize::get)
            .min(MAX_THREADS)
    })
}

/// Marks the current thread as running a share of [`map`] until dropped.
struct Sharing(bool);

impl Sharing {
    fn enter() -> Self {
        Sharing(SHARING.replace(true))
    }
}

impl Drop for Sharing {
    fn drop(&mut self) {
        SHARING.set(self.0);
    }
}

/// `f(i, &inputs[i])` for every input, in input order, computed on up to [`threads`]
/// threads (the calling one among them), which take `chunk` inputs at a time.
pub(crate) fn map<T, R, F>(inputs: &[T], chunk: usize, f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(usize, &T) -> R + Sync,
{
    filter_map(inputs, chunk, |i, x| Some(f(i, x)))
        .into_iter()
        .map(|(_, r)| r)
        .collect()
}

/// `(i, r)` for every input `i` for which `f(i, &inputs[i])` is `Some(r)`, in input order,
/// computed as [`map`] does: what is kept is only the inputs that give something.
pub(crate) fn filter_map<T, R, F>(inputs: &[T], chunk: usize, f: F) -> Vec<(usize, R)>
where
    T: Sync,
    R: Send,
    F: Fn(usize, &T) -> Option<R> + Sync,
{
    filter_map_range(inputs.len(), chunk, |i| inputs.get(i).and_then(|x| f(i, x)))
}

/// `(i, r)` for every `i` below `len` for which `f(i)` is `Some(r)`, in order, as
/// [`filter_map`] gives for a slice.
pub(crate) fn filter_map_range<R, F>(len: usize, chunk: usize, f: F) -> Vec<(usize, R)>
where
    R: Send,
    F: Fn(usize) -> Option<R> + Sync,
{
    let chunk = chunk.max(1);
    let n = threads().min(len.div_ceil(chunk));
    if n <= 1 {
        return (0..len).filter_map(|i| f(i).map(|r| (i, r))).collect();
    }
    let next = AtomicUsize::new(0);
    let share = || {
        let _sharing = Sharing::enter();
        let mut done: Vec<(usize, Vec<(usize, R)>)> = Vec::new();
        loop {
            let start = next.fetch_add(chunk, Ordering::Relaxed);
            let part = start..len.min(start.saturating_add(chunk));
            if part.is_empty() {
                return done;
            }
            let out: Vec<(usize, R)> = part.filter_map(|i| f(i).map(|r| (i, r))).collect();
            if !out.is_empty() {
                done.push((start, out));
            }
        }
    };
    let mut parts = std::thread::scope(|s| {
        let others: Vec<_> = (1..n)
            .map(|_| {
                s.spawn(|| {
                    HELPER.set(true);
                    share()
                })
            })
            .collect();
        let mut parts = share();
        for h in others {
            match h.join() {
                Ok(p) => parts.extend(p),
                Err(e) => std::panic::resume_unwind(e),
            }
        }
        parts
    });
    parts.sort_unstable_by_key(|(start, _)| *start);
    parts.into_iter().flat_map(|(_, out)| out).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_input_order() {
        let inputs: Vec<u32> = (0..1000).collect();
        for chunk in [1, 7, 64, 5000] {
            let out = map(&inputs, chunk, |i, &x| (i, x * 2));
            assert_eq!(out.len(), inputs.len());
            for (i, (at, doubled)) in out.into_iter().enumerate() {
                assert_eq!((at, doubled), (i, u32::try_from(i).unwrap() * 2));
            }
        }
        assert!(map(&[] as &[u32], 4, |_, &x| x).is_empty());
        let odd = filter_map(&inputs, 16, |i, &x| (x % 2 == 1).then_some(i));
        assert_eq!(odd.len(), 500);
        assert!(odd.iter().all(|&(i, j)| i == j && i % 2 == 1));
        assert!(odd.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn nested_work_stays_on_the_sharing_thread() {
        let outer: Vec<usize> = (0..64).collect();
        let out = map(&outer, 1, |_, &x| {
            let inner: Vec<usize> = (0..4).collect();
            (
                threads(),
                map(&inner, 1, |_, &y| x + y).into_iter().sum::<usize>(),
            )
        });
        for (i, (threads, sum)) in out.into_iter().enumerate() {
            assert_eq!(threads, 1);
            assert_eq!(sum, 4 * i + 6);
        }
        assert!(!SHARING.get());
        assert!(!is_helper());
    }
}
