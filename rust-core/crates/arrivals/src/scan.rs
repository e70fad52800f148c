//! Range scans over a sequence interval, in seq order.
//!
//! Bit-reversed row keys are not in seq order, so (as in the ADR) a scan does not walk key
//! space: for each partition it reads the NP rows and interleaves them column by column, since
//! seq = partition * PQ + column * NP + row-in-partition orders (partition, column, row)
//! lexicographically. Empty chunks and partitions are skipped, so a scan over a huge interval
//! costs what the stored cells cost, not what the interval spans.

use std::ops::{Bound, RangeBounds};

use crate::arrival::Arrival;
use crate::log::ArrivalLog;
use crate::row::{Chunk, Row, ABSENT, CHUNK};

/// Iterator of (seq, arrival) for the stored cells of an interval, increasing seq.
pub struct Scan<'a> {
    log: &'a ArrivalLog,
    /// Inclusive end of the interval.
    last: u64,
    done: bool,
    /// The next seq and its (partition, column, row-in-partition).
    seq: u64,
    partition: u64,
    column: u64,
    k: u64,
    /// The NP rows of `cached_partition` and their chunks at `cached_chunk`.
    cached_partition: Option<u64>,
    rows: Vec<Option<&'a Row>>,
    cached_chunk: Option<u64>,
    chunks: Vec<Option<&'a Chunk>>,
}

impl ArrivalLog {
    /// The stored cells with seq in `seqs`, in increasing seq order.
    pub fn scan(&self, seqs: impl RangeBounds<u64>) -> Scan<'_> {
        let first = match seqs.start_bound() {
            Bound::Included(&s) => Some(s),
            Bound::Excluded(&s) => s.checked_add(1),
            Bound::Unbounded => Some(0),
        };
        let last = match seqs.end_bound() {
            Bound::Included(&e) => Some(e),
            Bound::Excluded(&e) => e.checked_sub(1),
            Bound::Unbounded => Some(u64::MAX),
        };
        let np = self.layout().rows_per_quantum() as usize;
        let mut scan = Scan {
            log: self,
            last: last.unwrap_or(0),
            done: true,
            seq: 0,
            partition: 0,
            column: 0,
            k: 0,
            cached_partition: None,
            rows: vec![None; np],
            cached_chunk: None,
            chunks: vec![None; np],
        };
        if let (Some(first), Some(last)) = (first, last) {
            scan.seek(Some(first));
            scan.done = first > last;
        }
        scan
    }
}

impl<'a> Scan<'a> {
    /// Moves to `seq`, or ends the scan when there is none (past 2^64) or it is past the end.
    fn seek(&mut self, seq: Option<u64>) {
        let layout = self.log.layout();
        match seq {
            Some(seq) if seq <= self.last => {
                let (pq, np) = (layout.partitioning_quantum(), layout.rows_per_quantum());
                self.seq = seq;
                self.partition = seq / pq;
                self.column = (seq % pq) / np;
                self.k = (seq % pq) % np;
            }
            _ => self.done = true,
        }
    }

    /// Steps to the next seq; the tuple moves in step with it (the mapping keeps order).
    fn advance(&mut self) {
        if self.seq == self.last {
            self.done = true;
            return;
        }
        let layout = self.log.layout();
        self.seq += 1;
        self.k += 1;
        if self.k == layout.rows_per_quantum() {
            self.k = 0;
            self.column += 1;
            if self.column == layout.columns_per_row() {
                self.column = 0;
                self.partition += 1;
            }
        }
    }

    /// Caches the rows of the current partition; false (after moving on) when it has none.
    fn load_partition(&mut self) -> bool {
        let layout = self.log.layout();
        let (pq, np) = (layout.partitioning_quantum(), layout.rows_per_quantum());
        let first_row = self.partition * np;
        self.cached_partition = Some(self.partition);
        self.cached_chunk = None;
        self.rows.iter_mut().for_each(|r| *r = None);
        let mut any = false;
        for (&r, row) in self
            .log
            .rows
            .range(first_row..=first_row.saturating_add(np - 1))
        {
            self.rows[(r - first_row) as usize] = Some(row);
            any = true;
        }
        if !any {
            // Jump to the first partition after this one that has rows.
            let next = self
                .log
                .rows
                .range(first_row..)
                .next()
                .map(|(&r, _)| r / np);
            self.seek(next.and_then(|p| p.checked_mul(pq)));
        }
        any
    }

    /// Caches the current chunk of each row; false (after moving on) when none has it.
    fn load_chunk(&mut self) -> bool {
        let chunk = self.column / CHUNK;
        self.cached_chunk = Some(chunk);
        let mut any = false;
        for (slot, row) in self.chunks.iter_mut().zip(&self.rows) {
            *slot = row.and_then(|r| r.chunk(chunk));
            any |= slot.is_some();
        }
        if !any {
            let layout = self.log.layout();
            let (pq, np) = (layout.partitioning_quantum(), layout.rows_per_quantum());
            let next_chunk = self
                .rows
                .iter()
                .flatten()
                .filter_map(|r| r.next_chunk(chunk))
                .min();
            let base = self.partition.checked_mul(pq);
            let target = match next_chunk {
                Some(c) => base.and_then(|b| b.checked_add(c * CHUNK * np)),
                None => base.and_then(|b| b.checked_add(pq)),
            };
            self.seek(target);
        }
        any
    }
}

impl Iterator for Scan<'_> {
    type Item = (u64, Arrival);

    fn next(&mut self) -> Option<(u64, Arrival)> {
        while !self.done {
            if self.cached_partition != Some(self.partition) && !self.load_partition() {
                continue;
            }
            if self.cached_chunk != Some(self.column / CHUNK) && !self.load_chunk() {
                continue;
            }
            let (seq, column, k) = (self.seq, self.column, self.k as usize);
            let slot = self.chunks[k]
                .and_then(|c| c.get((column % CHUNK) as usize).copied())
                .unwrap_or(ABSENT);
            self.advance();
            if slot != ABSENT {
                if let Some(arrival) = self.rows[k].and_then(|r| r.decode(column, slot)) {
                    return Some((seq, arrival));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::{Arrival, ArrivalLog, Layout};

    #[test]
    fn scans_in_seq_order_across_partitions_and_gaps() {
        let mut log = ArrivalLog::new(Layout::new(12, 4).unwrap());
        let seqs = [0u64, 3, 4, 11, 12, 13, 5_000, 5_001, u64::MAX - 1, u64::MAX];
        for &s in seqs.iter().rev() {
            log.put_unless_exists(s, Arrival::AfterUs(s % 1000));
        }
        let all: Vec<u64> = log.scan(..).map(|(s, _)| s).collect();
        assert_eq!(all, seqs);
        let some: Vec<u64> = log.scan(4..5_001).map(|(s, _)| s).collect();
        assert_eq!(some, [4, 11, 12, 13, 5_000]);
        assert_eq!(log.scan(14..5_000).count(), 0);
        assert_eq!(log.scan(u64::MAX..=u64::MAX).count(), 1);
        let (high, low) = (9, 3);
        assert_eq!(log.scan(high..low).count(), 0);
    }
}
