//! The event queue: a calendar queue ordered by (time, sequence), so ties break in insertion
//! order. Events within the ring's horizon go to fixed-width buckets (O(1) push); a bucket is
//! sorted once when time reaches it. Events beyond the horizon wait in an overflow heap.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// An event with its place in the order. Events live inline in the buckets: sorting moves a
/// few more bytes, but popping needs no second, random memory access.
struct Entry<E> {
    time: u64,
    seq: u64,
    event: E,
}

impl<E> Entry<E> {
    #[inline]
    fn key(&self) -> (u64, u64) {
        (self.time, self.seq)
    }
}

/// Bucket width 2^SHIFT microseconds (about 1 ms) and 2^RING_BITS buckets (about 4 s ahead).
const SHIFT: u32 = 10;
const RING_BITS: u32 = 12;
const RING: u64 = 1 << RING_BITS;

pub struct EventQueue<E> {
    /// Absolute index of the bucket being drained (time >> SHIFT).
    cursor: u64,
    /// The bucket being drained, sorted so the next event is last.
    current: Vec<Entry<E>>,
    ring: Vec<Vec<Entry<E>>>,
    in_ring: usize,
    /// Events beyond the ring's horizon, as a min-heap on (time, seq).
    overflow: BinaryHeap<Reverse<Far<E>>>,
    next_seq: u64,
}

/// An overflow entry, ordered by (time, seq) only.
struct Far<E>(Entry<E>);

impl<E> PartialEq for Far<E> {
    fn eq(&self, o: &Self) -> bool {
        self.0.key() == o.0.key()
    }
}
impl<E> Eq for Far<E> {}
impl<E> PartialOrd for Far<E> {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl<E> Ord for Far<E> {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.0.key().cmp(&o.0.key())
    }
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> EventQueue<E> {
    pub fn new() -> Self {
        EventQueue {
            cursor: 0,
            current: Vec::new(),
            ring: (0..RING).map(|_| Vec::new()).collect(),
            in_ring: 0,
            overflow: BinaryHeap::new(),
            next_seq: 0,
        }
    }

    /// Schedule `event` at `time`. Times before the bucket being drained are clamped to its
    /// start (the engine never schedules into the past).
    pub fn push(&mut self, time: u64, event: E) {
        let time = time.max(self.cursor << SHIFT);
        let entry = Entry {
            time,
            seq: self.next_seq,
            event,
        };
        self.next_seq += 1;
        let bucket = time >> SHIFT;
        if bucket == self.cursor {
            // Keep `current` sorted descending; the new entry has the highest seq, so it goes
            // below every entry with an equal or later time.
            let key = entry.key();
            let at = self.current.partition_point(|e| e.key() > key);
            self.current.insert(at, entry);
        } else if bucket < self.cursor + RING {
            self.ring[(bucket & (RING - 1)) as usize].push(entry);
            self.in_ring += 1;
        } else {
            self.overflow.push(Reverse(Far(entry)));
        }
    }

    /// The next event and its time.
    pub fn pop(&mut self) -> Option<(u64, E)> {
        while self.current.is_empty() {
            if !self.advance() {
                return None;
            }
        }
        self.current.pop().map(|e| (e.time, e.event))
    }

    /// Time of the next event, without taking it.
    pub fn peek_time(&mut self) -> Option<u64> {
        while self.current.is_empty() {
            if !self.advance() {
                return None;
            }
        }
        self.current.last().map(|e| e.time)
    }

    /// Move the cursor to the next bucket that holds anything; false when all is empty.
    fn advance(&mut self) -> bool {
        if self.in_ring == 0 {
            match self.overflow.peek() {
                None => return false,
                // Nothing within the horizon: jump straight to the overflow's earliest bucket.
                Some(Reverse(far)) => self.cursor = far.0.time >> SHIFT,
            }
        } else {
            self.cursor += 1;
        }
        let idx = (self.cursor & (RING - 1)) as usize;
        std::mem::swap(&mut self.current, &mut self.ring[idx]);
        self.in_ring -= self.current.len();
        // Bring in overflow entries that now fall within the ring's horizon.
        let horizon = (self.cursor + RING) << SHIFT;
        while self
            .overflow
            .peek()
            .is_some_and(|Reverse(far)| far.0.time < horizon)
        {
            let Some(Reverse(Far(e))) = self.overflow.pop() else {
                break;
            };
            let bucket = e.time >> SHIFT;
            if bucket == self.cursor {
                self.current.push(e);
            } else {
                self.ring[(bucket & (RING - 1)) as usize].push(e);
                self.in_ring += 1;
            }
        }
        self.current.sort_unstable_by_key(|e| Reverse(e.key()));
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Pops come out in (time, insertion) order, like a sorted list, however pushes and
        /// pops interleave.
        #[test]
        fn matches_a_sorted_reference(ops in proptest::collection::vec((0u64..20_000_000, any::<bool>()), 1..400)) {
            let mut q = EventQueue::new();
            let mut reference: Vec<(u64, u64)> = Vec::new();
            let mut now = 0u64;
            let mut seq = 0u64;
            for (dt, pop) in ops {
                if pop {
                    let got = q.pop();
                    reference.sort();
                    let want = if reference.is_empty() { None } else { Some(reference.remove(0)) };
                    prop_assert_eq!(got, want);
                    if let Some((t, _)) = want { now = t; }
                } else {
                    let t = now + dt % 5_000_000 + if dt % 3 == 0 { 0 } else { dt };
                    q.push(t, seq);
                    reference.push((t, seq));
                    seq += 1;
                }
            }
            reference.sort();
            for want in reference {
                prop_assert_eq!(q.pop(), Some(want));
            }
            prop_assert!(q.pop().is_none());
        }
    }

    #[test]
    fn ties_break_in_insertion_order() {
        let mut q = EventQueue::new();
        for i in 0..5 {
            q.push(100, i);
        }
        q.push(50, 99);
        let order: Vec<u32> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, vec![99, 0, 1, 2, 3, 4]);
    }
}
