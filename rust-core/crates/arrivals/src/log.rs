//! The arrival log of one node: the `_transactions2`-shaped table held in memory, with the
//! ADR's operations: put-unless-exists, get, batched multi-get, and range scans (scan.rs).
//!
//! Rows are indexed in memory by row number, so a scan finds a partition's NP rows directly;
//! their stored keys (bit-reversed) and cells come out of [`ArrivalLog::cells`] and the export.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::arrival::Arrival;
use crate::layout::Layout;
use crate::row::Row;
use crate::Error;

/// The most seqs one [`ArrivalLog::fill_never`] call walks (each costs a 4-byte slot).
pub const FILL_LIMIT: u64 = 1 << 28;

/// What a put-unless-exists did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Put {
    /// The seq had no cell: this is its first arrival.
    Inserted,
    /// The seq already had a cell, which is kept; the put was counted as a duplicate.
    Duplicate { kept: Arrival },
}

/// Totals of a batched put.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PutSummary {
    pub inserted: u64,
    pub duplicates: u64,
}

#[derive(Clone, Debug, Default)]
pub struct ArrivalLog {
    layout: Layout,
    pub(crate) rows: BTreeMap<u64, Row>,
    records: u64,
    duplicates: u64,
    /// Cell slots allocated over all rows.
    slots: u64,
}

impl ArrivalLog {
    pub fn new(layout: Layout) -> ArrivalLog {
        ArrivalLog {
            layout,
            rows: BTreeMap::new(),
            records: 0,
            duplicates: 0,
            slots: 0,
        }
    }

    pub fn layout(&self) -> Layout {
        self.layout
    }
    /// Cells stored (arrivals and "never"s).
    pub fn len(&self) -> u64 {
        self.records
    }
    pub fn is_empty(&self) -> bool {
        self.records == 0
    }
    /// Puts refused because the seq already had a cell: later arrivals of the same tx.
    pub fn duplicates(&self) -> u64 {
        self.duplicates
    }
    /// Bytes of cell storage held: 4 per column slot; a chunk of 256 columns is allocated
    /// where a cell lands and grows by doubling up to its highest column.
    pub fn memory_bytes(&self) -> u64 {
        self.slots * 4
    }
    /// Rows holding at least one cell.
    pub fn row_count(&self) -> usize {
        self.rows.len()
    }

    /// Records the arrival of `seq` unless it has one: the first arrival wins.
    pub fn put_unless_exists(&mut self, seq: u64, arrival: Arrival) -> Put {
        let column = self.layout.column(seq);
        let row = self.rows.entry(self.layout.row(seq)).or_default();
        let slots_before = row.slots;
        let outcome = row.put_unless_exists(column, arrival);
        self.slots += row.slots - slots_before;
        match outcome {
            Ok(()) => {
                self.records += 1;
                Put::Inserted
            }
            Err(kept) => {
                self.duplicates = self.duplicates.saturating_add(1);
                Put::Duplicate { kept }
            }
        }
    }

    /// Put-unless-exists of many records, each judged on its own (the ADR's multi-column
    /// put_unless_exists: a cell is written when its own column is free).
    pub fn put_many(&mut self, records: &[(u64, Arrival)]) -> PutSummary {
        let mut summary = PutSummary::default();
        for &(seq, arrival) in records {
            match self.put_unless_exists(seq, arrival) {
                Put::Inserted => summary.inserted += 1,
                Put::Duplicate { .. } => summary.duplicates += 1,
            }
        }
        summary
    }

    /// The cell of `seq`: None while the tx has not arrived (and the log is not closed).
    pub fn get(&self, seq: u64) -> Option<Arrival> {
        self.rows
            .get(&self.layout.row(seq))?
            .get(self.layout.column(seq))
    }

    /// Batched get, answers in the order asked. Lookups are grouped by row, as the ADR's
    /// multiget_multislice groups cells, so each row is found once.
    pub fn get_many(&self, seqs: &[u64]) -> Vec<Option<Arrival>> {
        let mut order: Vec<(u64, u64, usize)> = seqs
            .iter()
            .enumerate()
            .map(|(i, &s)| (self.layout.row(s), self.layout.column(s), i))
            .collect();
        order.sort_unstable();
        let mut out = vec![None; seqs.len()];
        let mut current: Option<(u64, Option<&Row>)> = None;
        for (row, column, i) in order {
            let found = match current {
                Some((r, found)) if r == row => found,
                _ => {
                    let found = self.rows.get(&row);
                    current = Some((row, found));
                    found
                }
            };
            out[i] = found.and_then(|r| r.get(column));
        }
        out
    }

    /// Closes a range of the log: every seq in `seqs` without a cell gets "never".
    /// Returns how many were written.
    pub fn fill_never(&mut self, seqs: Range<u64>) -> Result<u64, Error> {
        let len = seqs.end.saturating_sub(seqs.start);
        if len > FILL_LIMIT {
            return Err(Error::RangeTooLong {
                len,
                limit: FILL_LIMIT,
            });
        }
        let mut written = 0;
        for seq in seqs {
            let column = self.layout.column(seq);
            let row = self.rows.entry(self.layout.row(seq)).or_default();
            let slots_before = row.slots;
            // A refused put here is not a duplicate arrival: the seq simply had its cell.
            if row.put_unless_exists(column, Arrival::Never).is_ok() {
                written += 1;
            }
            self.slots += row.slots - slots_before;
        }
        self.records += written;
        Ok(written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_arrival_wins_and_duplicates_are_counted() {
        let mut log = ArrivalLog::new(Layout::default());
        assert_eq!(
            log.put_unless_exists(5, Arrival::AfterUs(300)),
            Put::Inserted
        );
        assert_eq!(
            log.put_unless_exists(5, Arrival::AfterUs(200)),
            Put::Duplicate {
                kept: Arrival::AfterUs(300)
            }
        );
        assert_eq!(log.get(5), Some(Arrival::AfterUs(300)));
        assert_eq!(log.len(), 1);
        assert_eq!(log.duplicates(), 1);
        let s = log.put_many(&[(6, Arrival::AfterUs(1)), (5, Arrival::Never)]);
        assert_eq!(
            s,
            PutSummary {
                inserted: 1,
                duplicates: 1
            }
        );
        assert_eq!(log.duplicates(), 2);
    }

    #[test]
    fn fill_never_only_touches_missing_seqs() {
        let mut log = ArrivalLog::new(Layout::new(64, 4).unwrap());
        log.put_unless_exists(2, Arrival::AfterUs(9));
        assert_eq!(log.fill_never(0..5), Ok(4));
        assert_eq!(log.get(2), Some(Arrival::AfterUs(9)));
        assert_eq!(log.get(4), Some(Arrival::Never));
        assert_eq!(log.get(5), None);
        assert_eq!(log.len(), 5);
        assert_eq!(log.duplicates(), 0);
        assert!(log.fill_never(0..FILL_LIMIT + 1).is_err());
    }

    #[test]
    fn get_many_answers_in_the_order_asked() {
        let mut log = ArrivalLog::new(Layout::new(8, 2).unwrap());
        for s in [1u64, 4, 9, 30] {
            log.put_unless_exists(s, Arrival::AfterUs(s * 10));
        }
        let got = log.get_many(&[30, 2, 1, 30, 9]);
        let want = [Some(300), None, Some(10), Some(300), Some(90)];
        assert_eq!(got, want.map(|w| w.map(Arrival::AfterUs)).to_vec());
    }
}
