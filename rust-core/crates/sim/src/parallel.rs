//! Independent runs on a few threads, for the native tools (`txsim run`, `reproduce`): each
//! run is a world of its own, so only the order results come back in needs care. A page's
//! parallelism is its Web Workers, not this.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Calls `work(i)` for each `i` of `order`, taken in that order by `threads` threads, and
/// returns the results indexed by `i` (`order` must hold each of `0..order.len()` once). A
/// slot stays `None` only if its thread panicked.
pub fn map_on_threads<T: Send>(
    threads: usize,
    order: &[usize],
    work: impl Fn(usize) -> T + Sync,
) -> Vec<Option<T>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<T>>> = Mutex::new((0..order.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, order.len().max(1)) {
            scope.spawn(|| {
                while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let result = work(i);
                    lock(&results)[i] = Some(result);
                    give_back_freed_memory();
                }
            });
        }
    });
    results.into_inner().unwrap_or_else(|p| p.into_inner())
}

/// Returns the memory of a finished run to the system. glibc keeps freed memory in the
/// arena of the thread that freed it, so without this a run's tables stayed resident while
/// the next runs used other memory, and the peak was that of runs long finished.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn give_back_freed_memory() {
    extern "C" {
        fn malloc_trim(pad: usize) -> i32;
    }
    // SAFETY: glibc's malloc_trim takes no pointers and may be called at any time from
    // any thread; it only releases free memory.
    unsafe {
        malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn give_back_freed_memory() {}

/// A poisoned lock only means another run panicked; its slot stays empty.
pub fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_index_order_whatever_order_they_ran_in() {
        let order = [3, 0, 4, 1, 2];
        let ran = Mutex::new(Vec::new());
        let out = map_on_threads(2, &order, |i| {
            lock(&ran).push(i);
            i * 10
        });
        assert_eq!(out, vec![Some(0), Some(10), Some(20), Some(30), Some(40)]);
        assert_eq!(lock(&ran).len(), 5);
        assert!(map_on_threads(4, &[], |i| i).is_empty());
    }
}
