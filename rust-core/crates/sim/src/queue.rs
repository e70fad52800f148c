//! The event queue: a calendar queue ordered by (time, sequence), so ties break in insertion
//! order. Events within the ring's horizon go to fixed-width buckets (O(1) push); a bucket is
//! sorted once when time reaches it. Events beyond the horizon wait in an overflow heap.
//!
//! A bucket receives its events in sequence order (overflow arrivals, which are older, come
//! first and in (time, sequence) order), so a stable sort on time alone gives the (time,
//! sequence) order: a counting sort on the time's low bits, O(n). Entries need no sequence
//! number except in the overflow heap.
//!
//! Buckets are lists of small fixed-size blocks taken from a LIFO free list. Pushes land in
//! hundreds of buckets at once; a block freed by the bucket just drained is still in cache, so
//! writing a new entry rarely has to fetch a cold cache line first (as a bucket's own growing
//! buffer would).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// An event with its time. Events live inline in the buckets: sorting moves a few more
/// bytes, but popping needs no second, random memory access.
struct Entry<E> {
    time: u64,
    event: E,
}

/// Bucket width 2^SHIFT microseconds (about 1 ms) and 2^RING_BITS buckets (about 4 s ahead).
const SHIFT: u32 = 10;
const WIDTH: usize = 1 << SHIFT;
const RING_BITS: u32 = 12;
const RING: u64 = 1 << RING_BITS;
/// Entries per block (512 bytes for a 32-byte entry): small, so a block fills before the
/// cache forgets it was freed.
const BLOCK: usize = 16;
/// Free blocks kept for reuse at most; more are given back.
const MAX_FREE_BLOCKS: usize = 32_768;

pub struct EventQueue<E> {
    /// Absolute index of the bucket being drained (time >> SHIFT).
    cursor: u64,
    /// The bucket being drained, sorted so the next event is last.
    current: Vec<Entry<E>>,
    ring: Vec<Bucket<E>>,
    in_ring: usize,
    /// Events beyond the ring's horizon, as a min-heap on (time, seq).
    overflow: BinaryHeap<Reverse<Far<E>>>,
    next_seq: u64,
    /// Empty blocks (capacity BLOCK), most recently freed last.
    free: Vec<Block<E>>,
    /// Counting-sort scratch: per time offset in the bucket, then where each entry goes.
    counts: Vec<u32>,
    dest: Vec<u32>,
}

type Block<E> = Vec<Entry<E>>;

/// A bucket of the ring: full blocks in push order, then the block being filled (held
/// inline, so a push reads one header next to the ring's other hot ones).
struct Bucket<E> {
    full: Vec<Block<E>>,
    tail: Block<E>,
}

/// An overflow entry, ordered by (time, seq) only.
struct Far<E> {
    seq: u64,
    entry: Entry<E>,
}

impl<E> Far<E> {
    fn key(&self) -> (u64, u64) {
        (self.entry.time, self.seq)
    }
}
impl<E> PartialEq for Far<E> {
    fn eq(&self, o: &Self) -> bool {
        self.key() == o.key()
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
        self.key().cmp(&o.key())
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
            ring: (0..RING)
                .map(|_| Bucket {
                    full: Vec::new(),
                    tail: Vec::new(),
                })
                .collect(),
            in_ring: 0,
            overflow: BinaryHeap::new(),
            next_seq: 0,
            free: Vec::new(),
            counts: vec![0; WIDTH + 1],
            dest: Vec::new(),
        }
    }

    /// Schedule `event` at `time`. Times before the bucket being drained are clamped to its
    /// start (the engine never schedules into the past).
    #[inline]
    pub fn push(&mut self, time: u64, event: E) {
        let time = time.max(self.cursor << SHIFT);
        let entry = Entry { time, event };
        let seq = self.next_seq;
        self.next_seq += 1;
        let bucket = time >> SHIFT;
        if bucket == self.cursor {
            // Keep `current` sorted descending; the new entry has the highest seq, so it goes
            // below every entry with an equal or later time.
            let at = self.current.partition_point(|e| e.time > time);
            self.current.insert(at, entry);
        } else if bucket < self.cursor + RING {
            let slot = &mut self.ring[(bucket & (RING - 1)) as usize];
            Self::append(slot, &mut self.free, entry);
            self.in_ring += 1;
        } else {
            self.overflow.push(Reverse(Far { seq, entry }));
        }
    }

    /// The next event and its time, if that time is at most `limit`.
    #[inline]
    pub fn pop_until(&mut self, limit: u64) -> Option<(u64, E)> {
        while self.current.is_empty() {
            if !self.advance() {
                return None;
            }
        }
        if self.current.last()?.time > limit {
            return None;
        }
        self.current.pop().map(|e| (e.time, e.event))
    }

    /// The event `d` places after the next one, if it is in the bucket being drained.
    #[inline]
    pub fn peek_ahead(&self, d: usize) -> Option<&E> {
        let n = self.current.len();
        (d < n).then(|| &self.current[n - 1 - d].event)
    }

    /// Time of the next event, without taking it.
    #[inline]
    pub fn peek_time(&mut self) -> Option<u64> {
        while self.current.is_empty() {
            if !self.advance() {
                return None;
            }
        }
        self.current.last().map(|e| e.time)
    }

    /// Appends to a bucket's tail block, starting a new one when it is full (or none yet).
    #[inline]
    fn append(bucket: &mut Bucket<E>, free: &mut Vec<Block<E>>, entry: Entry<E>) {
        if bucket.tail.len() == bucket.tail.capacity() {
            let fresh = free.pop().unwrap_or_else(|| Vec::with_capacity(BLOCK));
            let done = std::mem::replace(&mut bucket.tail, fresh);
            if !done.is_empty() {
                bucket.full.push(done);
            }
        }
        bucket.tail.push(entry);
    }

    /// Move the cursor to the next bucket that holds anything; false when all is empty.
    fn advance(&mut self) -> bool {
        if self.in_ring == 0 {
            match self.overflow.peek() {
                None => return false,
                // Nothing within the horizon: jump straight to the overflow's earliest bucket.
                Some(Reverse(far)) => self.cursor = far.entry.time >> SHIFT,
            }
        } else {
            self.cursor += 1;
        }
        let idx = (self.cursor & (RING - 1)) as usize;
        // `current` is empty here; fill it from the bucket's blocks and free them.
        let bucket = &mut self.ring[idx];
        let tail = std::mem::take(&mut bucket.tail);
        for mut block in bucket.full.drain(..).chain(std::iter::once(tail)) {
            if block.capacity() == 0 {
                continue;
            }
            self.in_ring -= block.len();
            self.current.append(&mut block);
            if self.free.len() < MAX_FREE_BLOCKS {
                self.free.push(block);
            }
        }
        // Bring in overflow entries that now fall within the ring's horizon.
        let horizon = (self.cursor + RING) << SHIFT;
        while self
            .overflow
            .peek()
            .is_some_and(|Reverse(far)| far.entry.time < horizon)
        {
            let Some(Reverse(Far { entry, .. })) = self.overflow.pop() else {
                break;
            };
            let bucket = entry.time >> SHIFT;
            if bucket == self.cursor {
                self.current.push(entry);
            } else {
                // Overflow entries are older than anything pushed into this bucket directly,
                // and come out in (time, seq) order: the bucket stays in sequence order.
                let slot = &mut self.ring[(bucket & (RING - 1)) as usize];
                Self::append(slot, &mut self.free, entry);
                self.in_ring += 1;
            }
        }
        self.sort_current();
        true
    }

    /// Order `current` by descending time, equal times in descending arrival order (the
    /// reverse of a stable ascending sort), with a counting sort on the time's offset in the
    /// bucket and an in-place permutation.
    fn sort_current(&mut self) {
        let n = self.current.len();
        if n < 2 {
            return;
        }
        let base = self.cursor << SHIFT;
        let offset = |e: &Entry<E>| (e.time - base) as usize;
        let counts = &mut self.counts;
        counts.fill(0);
        for e in &self.current {
            counts[offset(e) + 1] += 1;
        }
        for i in 0..WIDTH {
            counts[i + 1] += counts[i];
        }
        // counts[k] is now where offset k starts in ascending order.
        self.dest.clear();
        for e in &self.current {
            let slot = &mut counts[offset(e)];
            self.dest.push((n - 1) as u32 - *slot);
            *slot += 1;
        }
        // Move every entry to its place by following the permutation's cycles.
        let dest = &mut self.dest;
        for i in 0..n {
            while dest[i] as usize != i {
                let d = dest[i] as usize;
                self.current.swap(i, d);
                dest.swap(i, d);
            }
        }
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
                    let got = q.pop_until(u64::MAX);
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
                prop_assert_eq!(q.pop_until(u64::MAX), Some(want));
            }
            prop_assert!(q.pop_until(u64::MAX).is_none());
        }
    }

    /// Crowded buckets (many blocks each), pushes into the bucket being drained and into
    /// the overflow, against a sorted reference.
    #[test]
    fn crowded_buckets_keep_the_order() {
        let mut q = EventQueue::new();
        let mut reference: Vec<(u64, u64)> = Vec::new();
        let mut z = 7u64;
        let mut next = |m: u64| {
            z = z
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (z >> 33) % m
        };
        let mut seq = 0u64;
        let mut now = 0u64;
        for round in 0..20 {
            for _ in 0..3_000 {
                let t = now
                    + if round % 4 == 3 {
                        next(9_000_000)
                    } else {
                        next(6_000)
                    };
                q.push(t, seq);
                reference.push((t, seq));
                seq += 1;
            }
            reference.sort();
            for want in reference.drain(..1_000) {
                assert_eq!(q.pop_until(u64::MAX), Some(want));
                now = want.0;
            }
        }
        for want in reference {
            assert_eq!(q.pop_until(u64::MAX), Some(want));
        }
        assert!(q.pop_until(u64::MAX).is_none());
    }

    #[test]
    fn ties_break_in_insertion_order() {
        let mut q = EventQueue::new();
        for i in 0..5 {
            q.push(100, i);
        }
        q.push(50, 99);
        let order: Vec<u32> =
            std::iter::from_fn(|| q.pop_until(u64::MAX).map(|(_, e)| e)).collect();
        assert_eq!(order, vec![99, 0, 1, 2, 3, 4]);
    }
}
