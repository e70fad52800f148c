//! The one time-ordered queue every host uses (the simulator's engine, the light node's
//! `Driver`, the test network): a calendar queue ordered by (time, sequence), so ties break
//! in insertion order. Events within the ring's horizon go to fixed-width buckets (O(1) push); a bucket is
//! sorted once when time reaches it. Events beyond the horizon wait in an overflow heap.
//!
//! A bucket receives its events in sequence order (overflow arrivals, which are older, come
//! first and in (time, sequence) order), so a stable sort on time alone gives the (time,
//! sequence) order: a counting sort on the time's low bits that scatters the bucket's entries
//! straight into place, O(n). Entries need no sequence number except in the overflow heap.
//!
//! Buckets are lists of small fixed-size blocks taken from a LIFO free list. Pushes land in
//! hundreds of buckets at once; a block freed by the bucket just drained is still in cache, so
//! writing a new entry rarely has to fetch a cold cache line first (as a bucket's own growing
//! buffer would).

use crate::prefetch::prefetch;
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
/// How many blocks ahead the counting sort starts loading.
const PREFETCH_BLOCKS: usize = 2;
/// Buckets with fewer entries than this are sorted by comparison: cheaper than clearing and
/// summing WIDTH counters.
const SMALL_BUCKET: usize = 64;

pub struct EventQueue<E> {
    /// Absolute index of the bucket being drained (time >> SHIFT).
    cursor: u64,
    /// The bucket being drained in (time, sequence) order: `current[head..]` are still to
    /// come (each `Some`), the ones before `head` were taken.
    current: Vec<Option<Entry<E>>>,
    head: usize,
    ring: Vec<Bucket<E>>,
    in_ring: usize,
    /// Events beyond the ring's horizon, as a min-heap on (time, seq).
    overflow: BinaryHeap<Reverse<Far<E>>>,
    /// Insertion order among overflow entries (the only ones that need it).
    overflow_seq: u64,
    /// Empty blocks (capacity BLOCK), most recently freed last.
    free: Vec<Block<E>>,
    /// Emptied lists of full blocks, for the next bucket that fills more than one block. A
    /// bucket gives its list back when drained rather than keeping it for its next turn: every
    /// one of the ring's buckets would otherwise keep room for the most it ever held (with a
    /// second of timers spread over a thousand buckets, over 100 MB of idle lists).
    spare_lists: Vec<Vec<Block<E>>>,
    /// Counting-sort scratch: per time offset in the bucket, where its next entry goes.
    counts: Vec<u32>,
}

type Block<E> = Vec<Entry<E>>;

/// A bucket of the ring: full blocks in push order, then the block being filled (held
/// inline, so a push reads one header next to the ring's other hot ones).
struct Bucket<E> {
    full: Vec<Block<E>>,
    tail: Block<E>,
}

impl<E> Bucket<E> {
    fn blocks(&self) -> impl Iterator<Item = &Block<E>> {
        self.full.iter().chain(std::iter::once(&self.tail))
    }
}

/// Starts loading every cache line of a block's entries.
#[inline(always)]
fn prefetch_block<E>(block: &Block<E>) {
    let bytes = block.len() * std::mem::size_of::<Entry<E>>();
    let start = block.as_ptr().cast::<u8>();
    for at in (0..bytes).step_by(64) {
        prefetch(start.wrapping_add(at));
    }
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
            head: 0,
            ring: (0..RING)
                .map(|_| Bucket {
                    full: Vec::new(),
                    tail: Vec::new(),
                })
                .collect(),
            in_ring: 0,
            overflow: BinaryHeap::new(),
            overflow_seq: 0,
            free: Vec::new(),
            spare_lists: Vec::new(),
            counts: vec![0; WIDTH],
        }
    }

    /// Schedule `event` at `time`. A time before the bucket being drained (a host that peeked
    /// at the next deadline, which moves the cursor ahead, then scheduled something sooner)
    /// joins that bucket's entries in order: every entry still to come is later.
    #[inline(always)]
    pub fn push(&mut self, time: u64, event: E) {
        let bucket = time >> SHIFT;
        let entry = Entry { time, event };
        // The common case first: a later bucket within the horizon.
        if bucket.wrapping_sub(self.cursor + 1) < RING - 1 {
            self.file(entry);
        } else if bucket <= self.cursor {
            // The new entry has the highest seq: it goes after every entry due no later.
            let at = self.head
                + self.current[self.head..]
                    .partition_point(|e| e.as_ref().is_some_and(|e| e.time <= time));
            self.current.insert(at, Some(entry));
        } else {
            let seq = self.overflow_seq;
            self.overflow_seq += 1;
            self.overflow.push(Reverse(Far { seq, entry }));
        }
    }

    /// The next event and its time, if that time is at most `limit`.
    #[inline]
    pub fn pop_until(&mut self, limit: u64) -> Option<(u64, E)> {
        if self.head == self.current.len() && !self.advance() {
            return None;
        }
        let next = self.current.get_mut(self.head)?;
        if next.as_ref()?.time > limit {
            return None;
        }
        self.head += 1;
        next.take().map(|e| (e.time, e.event))
    }

    /// The event `d` places after the next one, if it is in the bucket being drained.
    #[inline]
    pub fn peek_ahead(&self, d: usize) -> Option<&E> {
        self.current
            .get(self.head + d)
            .and_then(|e| e.as_ref())
            .map(|e| &e.event)
    }

    /// Time of the next event, without taking it.
    #[inline]
    pub fn peek_time(&mut self) -> Option<u64> {
        if self.head == self.current.len() && !self.advance() {
            return None;
        }
        self.current.get(self.head)?.as_ref().map(|e| e.time)
    }

    /// Drops every event still to come that `keep` refuses (a link going down takes what was
    /// in flight on it). The rest keep their order. It visits every entry: for rare changes,
    /// not for the hot path.
    pub fn retain(&mut self, mut keep: impl FnMut(&E) -> bool) {
        self.current.drain(..self.head);
        self.head = 0;
        self.current
            .retain(|e| e.as_ref().is_some_and(|e| keep(&e.event)));
        for bucket in &mut self.ring {
            for block in bucket
                .full
                .iter_mut()
                .chain(std::iter::once(&mut bucket.tail))
            {
                let before = block.len();
                block.retain(|e| keep(&e.event));
                self.in_ring -= before - block.len();
            }
        }
        self.overflow.retain(|Reverse(far)| keep(&far.entry.event));
    }

    /// Files an entry in its bucket of the ring (its time is within the horizon).
    #[inline(always)]
    fn file(&mut self, entry: Entry<E>) {
        let bucket = &mut self.ring[((entry.time >> SHIFT) & (RING - 1)) as usize];
        if bucket.tail.len() == bucket.tail.capacity() {
            Self::next_block(bucket, &mut self.free, &mut self.spare_lists);
        }
        bucket.tail.push(entry);
        self.in_ring += 1;
    }

    /// Gives a bucket a fresh tail block (from the free ones), filing the full one in its list
    /// (taken from the spare ones when it has none).
    #[cold]
    #[inline(never)]
    fn next_block(
        bucket: &mut Bucket<E>,
        free: &mut Vec<Block<E>>,
        spare_lists: &mut Vec<Vec<Block<E>>>,
    ) {
        let fresh = free.pop().unwrap_or_else(|| Vec::with_capacity(BLOCK));
        let done = std::mem::replace(&mut bucket.tail, fresh);
        if done.is_empty() {
            return;
        }
        if bucket.full.capacity() == 0 {
            bucket.full = spare_lists.pop().unwrap_or_default();
        }
        bucket.full.push(done);
    }

    /// Move the cursor to the next bucket that holds anything and lay it out in order in
    /// `current`; false when all is empty. Called only once `current` is used up.
    fn advance(&mut self) -> bool {
        loop {
            if self.in_ring == 0 {
                match self.overflow.peek() {
                    None => return false,
                    // Nothing within the horizon: jump straight to the overflow's earliest bucket.
                    Some(Reverse(far)) => self.cursor = far.entry.time >> SHIFT,
                }
            } else {
                self.cursor += 1;
            }
            self.current.clear();
            self.head = 0;
            let idx = (self.cursor & (RING - 1)) as usize;
            // Overflow entries that now fall within the ring's horizon. They are older than
            // anything pushed into their bucket directly and come out in (time, seq) order,
            // so every bucket stays in sequence order.
            let horizon = (self.cursor + RING) << SHIFT;
            while self
                .overflow
                .peek()
                .is_some_and(|Reverse(far)| far.entry.time < horizon)
            {
                let Some(Reverse(Far { entry, .. })) = self.overflow.pop() else {
                    break;
                };
                self.file(entry);
            }
            let bucket = std::mem::replace(
                &mut self.ring[idx],
                Bucket {
                    full: Vec::new(),
                    tail: Vec::new(),
                },
            );
            if self.lay_out(bucket) {
                return true;
            }
        }
    }

    /// Moves a bucket's entries into `current` in (time, sequence) order and recycles its
    /// blocks; false if it was empty.
    fn lay_out(&mut self, mut bucket: Bucket<E>) -> bool {
        let n: usize = bucket.blocks().map(Vec::len).sum();
        self.in_ring -= n;
        let base = self.cursor << SHIFT;
        let offset = |e: &Entry<E>| (e.time - base) as usize;
        if n >= SMALL_BUCKET {
            // Counting sort: count per offset, turn counts into start positions, scatter.
            let counts = &mut self.counts;
            counts.fill(0);
            for (i, block) in bucket.blocks().enumerate() {
                // Full blocks are scattered and, in a big run, cold: start loading one a few
                // ahead (the tail block was written last, so it is still cached).
                if let Some(ahead) = bucket.full.get(i + PREFETCH_BLOCKS) {
                    prefetch_block(ahead);
                }
                for e in block {
                    counts[offset(e)] += 1;
                }
            }
            let mut start = 0;
            for c in counts.iter_mut() {
                let k = *c;
                *c = start;
                start += k;
            }
            self.current.resize_with(n, || None);
            for block in bucket
                .full
                .iter_mut()
                .chain(std::iter::once(&mut bucket.tail))
            {
                for e in block.drain(..) {
                    let slot = &mut counts[offset(&e)];
                    self.current[*slot as usize] = Some(e);
                    *slot += 1;
                }
            }
        } else {
            for block in bucket
                .full
                .iter_mut()
                .chain(std::iter::once(&mut bucket.tail))
            {
                self.current.extend(block.drain(..).map(Some));
            }
            // Stable: equal times keep their sequence order.
            self.current
                .sort_by_key(|e| e.as_ref().map_or(u64::MAX, |e| e.time));
        }
        for block in bucket.full.drain(..).chain(std::iter::once(bucket.tail)) {
            if block.capacity() != 0 && self.free.len() < MAX_FREE_BLOCKS {
                self.free.push(block);
            }
        }
        if bucket.full.capacity() != 0 {
            self.spare_lists.push(bucket.full);
        }
        n > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Pops come out in (time, insertion) order, like a sorted list, however pushes, pops
        /// and peeks (which move the cursor ahead of the last pop) interleave.
        #[test]
        fn matches_a_sorted_reference(ops in proptest::collection::vec((0u64..20_000_000, 0u8..3), 1..400)) {
            let mut q = EventQueue::new();
            let mut reference: Vec<(u64, u64)> = Vec::new();
            let mut now = 0u64;
            let mut seq = 0u64;
            for (dt, op) in ops {
                if op == 2 {
                    reference.sort();
                    prop_assert_eq!(q.peek_time(), reference.first().map(|e| e.0));
                } else if op == 1 {
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
        let mut rng = crate::rng::Rng::from_seed(7);
        let mut next = |m: u64| rng.below(m);
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

    /// A host that peeks at the next deadline (moving the cursor to it) and then schedules
    /// something sooner gets it at its own time, first.
    #[test]
    fn a_push_before_the_peeked_deadline_comes_first_at_its_time() {
        let mut q = EventQueue::new();
        q.push(5_000_000, 'h');
        assert_eq!(q.peek_time(), Some(5_000_000));
        q.push(10_000, 'a');
        q.push(10_000, 'b');
        q.push(5_000_000, 'i');
        q.push(3_000, 'c');
        let order: Vec<(u64, char)> = std::iter::from_fn(|| q.pop_until(u64::MAX)).collect();
        assert_eq!(
            order,
            vec![
                (3_000, 'c'),
                (10_000, 'a'),
                (10_000, 'b'),
                (5_000_000, 'h'),
                (5_000_000, 'i')
            ]
        );
    }

    /// Dropping events keeps the others in (time, insertion) order, wherever they wait: in
    /// the bucket being drained, in the ring, in the overflow.
    #[test]
    fn retain_keeps_the_rest_in_order() {
        let mut q = EventQueue::new();
        let mut reference: Vec<(u64, u64)> = Vec::new();
        for i in 0..600u64 {
            let t = (i * 7_919) % 9_000_000 + if i % 5 == 0 { 2_000 } else { 0 };
            q.push(t, i);
            reference.push((t, i));
        }
        reference.sort();
        // Take a few (the cursor moves into the first bucket), then drop every third.
        for want in reference.drain(..10) {
            assert_eq!(q.pop_until(u64::MAX), Some(want));
        }
        q.retain(|&i| i % 3 != 0);
        reference.retain(|&(_, i)| i % 3 != 0);
        q.push(reference[0].0, 1_000);
        reference.push((reference[0].0, 1_000));
        // Insertion order is the order of the numbers pushed.
        reference.sort();
        let order: Vec<(u64, u64)> = std::iter::from_fn(|| q.pop_until(u64::MAX)).collect();
        assert_eq!(order, reference);
    }

    /// Drained buckets hand their lists of full blocks to the pool: the ring does not keep,
    /// bucket by bucket, room for the most it ever held.
    #[test]
    fn drained_buckets_keep_no_lists() {
        let mut q = EventQueue::new();
        // 200 crowded buckets of 1,000 entries each (63 blocks), drained.
        for t in 0..200_000u64 {
            q.push((t % 200) << SHIFT, t);
        }
        while q.pop_until(u64::MAX).is_some() {}
        assert!(q.ring.iter().all(|b| b.full.capacity() == 0));
        assert!(q.spare_lists.len() <= 200, "{}", q.spare_lists.len());
        // Refilled, they take lists from the pool rather than making new ones.
        for t in 0..200_000u64 {
            q.push(((t % 200) + 400) << SHIFT, t);
        }
        let lists = q.spare_lists.len() + q.ring.iter().filter(|b| b.full.capacity() != 0).count();
        assert!(lists <= 200, "{lists}");
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
