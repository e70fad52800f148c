//! Backs the memory runs have filled with 2 MiB pages (Linux): a thread that twice a second
//! collapses each 2 MiB range of the process's anonymous memory that is wholly resident.
//!
//! A large simulation reads its per-node state in an order no cache predicts, so nearly every
//! read misses the TLB, and with 4 KiB pages the page walk misses the cache too. The kernel
//! here makes huge pages only where asked (`transparent_hugepage` "madvise"), and advising the
//! heaps would back whatever a fault touches with 2 MiB, also the capacity a table reserves and
//! never fills. Collapsing only ranges already resident adds no memory. Only where memory sits
//! changes, never what a run computes; a kernel that cannot collapse (before Linux 6.1) ends
//! the thread at its first refusal.
//!
//! Measured (pairs of builds, same machine): strokkur-250.json with 2 jobs 104.0 -> 96.1 s at
//! the same peak; strokkur-scale-4000-d16.json 157.7 -> 148.7 s; INV and Shrec on its network
//! 5% less CPU. Runs of a few seconds gain nothing (their memory is resident only by the time
//! they end), nor does `txsim reproduce` as a whole: 276 s either way, its user time 36 s lower
//! and its system time 28 s higher (the copies; memory freed and refilled is collapsed again).

use std::ffi::c_void;
use std::time::Duration;

const HUGE_PAGE: usize = 2 << 20;
const PAGE: usize = 4096;
/// Time between two sweeps.
const SWEEP_EVERY: Duration = Duration::from_millis(500);

extern "C" {
    fn madvise(addr: *mut c_void, len: usize, advice: i32) -> i32;
    fn mincore(addr: *mut c_void, len: usize, vec: *mut u8) -> i32;
}
const MADV_COLLAPSE: i32 = 25;
/// `errno` of an advice the kernel does not know.
const EINVAL: i32 = 22;

/// Starts the thread that collapses, for as long as the process lives and the kernel can.
pub fn collapse_in_background() {
    let sweeps = || {
        std::thread::sleep(SWEEP_EVERY);
        while sweep() != Sweep::Unsupported {
            std::thread::sleep(SWEEP_EVERY);
        }
    };
    // Without the thread runs are as fast as before, no slower.
    let _ = std::thread::Builder::new()
        .name("huge-pages".into())
        .spawn(sweeps);
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sweep {
    /// Ranges the kernel collapsed (or found huge already). One it could not collapse now
    /// (no free huge page: `ENOMEM`, `EAGAIN`) waits for the next sweep.
    Collapsed(usize),
    /// The kernel refused `MADV_COLLAPSE` as unknown.
    Unsupported,
}

/// Collapses the wholly resident ranges of every private anonymous writable mapping.
fn sweep() -> Sweep {
    let Ok(maps) = std::fs::read_to_string("/proc/self/maps") else {
        return Sweep::Collapsed(0);
    };
    let mut collapsed = 0;
    for line in maps.lines() {
        // start-end perms offset device inode [path]: anonymous memory has no path.
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [range, "rw-p", _, _, "0"] = fields[..] else {
            continue;
        };
        if let Some((start, end)) = address_range(range) {
            match collapse_resident(start, end) {
                Sweep::Collapsed(n) => collapsed += n,
                Sweep::Unsupported => return Sweep::Unsupported,
            }
        }
    }
    Sweep::Collapsed(collapsed)
}

/// A mapping's addresses as `/proc/self/maps` and `smaps` write them: `start-end` in hex.
fn address_range(text: &str) -> Option<(usize, usize)> {
    let (start, end) = text.split_once('-')?;
    Some((
        usize::from_str_radix(start, 16).ok()?,
        usize::from_str_radix(end, 16).ok()?,
    ))
}

/// Collapses the 2 MiB ranges between `start` and `end` whose every page is resident.
fn collapse_resident(start: usize, end: usize) -> Sweep {
    let mut resident = [0u8; HUGE_PAGE / PAGE];
    let mut collapsed = 0;
    // The whole huge pages inside the mapping.
    let (first, last) = (start.next_multiple_of(HUGE_PAGE), end - end % HUGE_PAGE);
    for range in (first..last).step_by(HUGE_PAGE) {
        let at = range as *mut c_void;
        // SAFETY: mincore writes one byte per page of the mapped range into `resident`, which
        // has room for all of them.
        if unsafe { mincore(at, HUGE_PAGE, resident.as_mut_ptr()) } != 0 {
            continue;
        }
        if resident.iter().any(|page| *page & 1 == 0) {
            continue;
        }
        // SAFETY: MADV_COLLAPSE copies the range's pages into one huge page: contents stay,
        // and a range it cannot collapse is left as it was.
        if unsafe { madvise(at, HUGE_PAGE, MADV_COLLAPSE) } == 0 {
            collapsed += 1;
        } else if std::io::Error::last_os_error().raw_os_error() == Some(EINVAL) {
            return Sweep::Unsupported;
        }
    }
    Sweep::Collapsed(collapsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// kB of `AnonHugePages` in the mapping that holds `addr`.
    fn huge_kb_at(addr: usize) -> u64 {
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap_or_default();
        let mut inside = false;
        for line in smaps.lines() {
            let first = line.split_whitespace().next().unwrap_or_default();
            if let Some((start, end)) = address_range(first) {
                inside = (start..end).contains(&addr);
                continue;
            }
            if let Some(kb) = line.strip_prefix("AnonHugePages:").filter(|_| inside) {
                return crate::kilobytes(kb).unwrap_or(0);
            }
        }
        0
    }

    /// A filled buffer of a few huge pages' size ends up in huge pages where the kernel says
    /// it collapsed them, and keeps its bytes.
    #[test]
    fn a_resident_buffer_is_collapsed_and_keeps_its_bytes() {
        let buffer: Vec<u8> = (0..4 * HUGE_PAGE).map(|i| (i % 251) as u8).collect();
        let start = buffer.as_ptr() as usize;
        match collapse_resident(start, start + buffer.len()) {
            Sweep::Unsupported => eprintln!("this kernel cannot collapse: nothing to check"),
            Sweep::Collapsed(0) => eprintln!("no huge page free now: nothing to check"),
            Sweep::Collapsed(_) => {
                assert!(
                    huge_kb_at(start) >= 2048,
                    "no huge page where the buffer is"
                );
                // The sweep finds the buffer's mapping in the process's maps (its ranges are
                // huge already, which the kernel counts as collapsed).
                assert_ne!(sweep(), Sweep::Collapsed(0));
            }
        }
        assert!(buffer
            .iter()
            .enumerate()
            .all(|(i, b)| *b == (i % 251) as u8));
    }
}
