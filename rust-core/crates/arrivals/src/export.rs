//! The raw cells of a log, one by one (for a store that keeps cells, such as IndexedDB) or as
//! one blob (for a file export), and back. Everything read back is checked: hostile bytes give
//! an [`Error`], and counts are capped by [`ImportLimits`].
//!
//! Blob format, version 1: `b"TXAL"`, version byte `1`, VAR_LONG PQ, VAR_LONG NP, VAR_LONG row
//! count; per row in key order: 8-byte row key, VAR_LONG cell count; per cell in column order:
//! the column's VAR_LONG, one length byte (0 = "never", else 1..=10) and the value's VAR_LONG.
//! The row key is written once per row, as a wide-row store (an SSTable) keeps it.

use std::ops::RangeBounds;

use crate::arrival::Arrival;
use crate::layout::{row_from_key, row_key, Cell, Layout};
use crate::log::{ArrivalLog, Put};
use crate::{varlong, Error};

const MAGIC: &[u8; 4] = b"TXAL";
const VERSION: u8 = 1;

/// Caps on what an import may allocate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImportLimits {
    pub max_rows: u64,
    pub max_cells: u64,
    /// Cap on [`ArrivalLog::memory_bytes`]: a sparse cell can cost up to a whole chunk.
    pub max_memory_bytes: u64,
}

impl Default for ImportLimits {
    /// Room for a 1,000-node run of 100,000 txs per log and then some; 4 bytes a cell in memory.
    fn default() -> ImportLimits {
        ImportLimits {
            max_rows: 1 << 16,
            max_cells: 1 << 26,
            max_memory_bytes: 1 << 30,
        }
    }
}

impl ArrivalLog {
    /// Every cell in stored key order: by row key (bit-reversed row), then column.
    pub fn cells(&self) -> Vec<Cell> {
        let mut out = Vec::with_capacity(self.len() as usize);
        for (key, row) in self.rows_in_key_order() {
            for (column, arrival) in row.cells() {
                out.push(Cell {
                    row: key,
                    column: varlong::encode(column),
                    value: arrival.encode(),
                });
            }
        }
        out
    }

    /// The cells of the seqs in `seqs`, in seq order: what to persist after new arrivals.
    pub fn cells_in(&self, seqs: impl RangeBounds<u64>) -> Vec<Cell> {
        let layout = self.layout();
        self.scan(seqs)
            .map(|(seq, arrival)| layout.encode_cell(seq, arrival))
            .collect()
    }

    /// Loads one stored cell, put-unless-exists (a cell already present is kept and counted).
    pub fn insert_cell(&mut self, row: &[u8], column: &[u8], value: &[u8]) -> Result<Put, Error> {
        let (seq, arrival) = self.layout().decode_cell(row, column, value)?;
        Ok(self.put_unless_exists(seq, arrival))
    }

    /// The whole log as one blob (format in the module docs).
    pub fn export(&self) -> Vec<u8> {
        let layout = self.layout();
        let mut out = Vec::with_capacity(16 + self.len() as usize * 6);
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        varlong::put(&mut out, layout.partitioning_quantum());
        varlong::put(&mut out, layout.rows_per_quantum());
        varlong::put(&mut out, self.row_count() as u64);
        for (key, row) in self.rows_in_key_order() {
            out.extend_from_slice(&key);
            varlong::put(&mut out, row.cells().count() as u64);
            for (column, arrival) in row.cells() {
                varlong::put(&mut out, column);
                out.push(arrival.encoded_len() as u8);
                if let Arrival::AfterUs(d) = arrival {
                    varlong::put(&mut out, d);
                }
            }
        }
        out
    }

    /// Reads a blob written by [`ArrivalLog::export`].
    pub fn import(bytes: &[u8], limits: ImportLimits) -> Result<ArrivalLog, Error> {
        let mut r = Reader { bytes, pos: 0 };
        if r.take(4, "magic")? != MAGIC {
            return Err(Error::BadMagic);
        }
        let version = r.take(1, "version")?[0];
        if version != VERSION {
            return Err(Error::UnsupportedVersion(version));
        }
        let layout = Layout::new(r.varlong("pq")?, r.varlong("np")?)?;
        let mut log = ArrivalLog::new(layout);
        let rows = r.varlong("row count")?;
        check_limit(rows, limits.max_rows, "rows")?;
        let mut cells_total: u64 = 0;
        let mut previous_key: Option<[u8; 8]> = None;
        for _ in 0..rows {
            let mut key = [0u8; 8];
            key.copy_from_slice(r.take(8, "row key")?);
            if previous_key.is_some_and(|p| p >= key) {
                return Err(Error::NotIncreasing { what: "row keys" });
            }
            previous_key = Some(key);
            let row = row_from_key(&key)?;
            let cells = r.varlong("cell count")?;
            if cells == 0 {
                // The export never writes an empty row: one would make two blobs of one log.
                return Err(Error::EmptyRow);
            }
            cells_total = cells_total.saturating_add(cells);
            check_limit(cells_total, limits.max_cells, "cells")?;
            let mut previous_column: Option<u64> = None;
            for _ in 0..cells {
                let column = r.varlong("column")?;
                if previous_column.is_some_and(|p| p >= column) {
                    return Err(Error::NotIncreasing { what: "columns" });
                }
                previous_column = Some(column);
                let value_len = r.take(1, "value length")?[0];
                if usize::from(value_len) > varlong::MAX_LEN {
                    return Err(Error::ValueLength(value_len));
                }
                let arrival = Arrival::decode(r.take(value_len.into(), "value")?)?;
                log.put_unless_exists(layout.seq(row, column)?, arrival);
                check_limit(log.memory_bytes(), limits.max_memory_bytes, "memory bytes")?;
            }
        }
        if r.pos != bytes.len() {
            return Err(Error::Trailing {
                field: "export",
                extra: bytes.len() - r.pos,
            });
        }
        Ok(log)
    }

    fn rows_in_key_order(&self) -> Vec<([u8; 8], &crate::row::Row)> {
        let mut rows: Vec<([u8; 8], &crate::row::Row)> = self
            .rows
            .iter()
            .map(|(&r, row)| (row_key(r), row))
            .collect();
        rows.sort_unstable_by_key(|(key, _)| *key);
        rows
    }
}

fn check_limit(count: u64, limit: u64, what: &'static str) -> Result<(), Error> {
    if count > limit {
        return Err(Error::LimitExceeded { what, limit });
    }
    Ok(())
}

/// A cursor over untrusted bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, field: &'static str) -> Result<&'a [u8], Error> {
        let end = self.pos.checked_add(n).ok_or(Error::Truncated { field })?;
        let s = self
            .bytes
            .get(self.pos..end)
            .ok_or(Error::Truncated { field })?;
        self.pos = end;
        Ok(s)
    }
    fn varlong(&mut self, field: &'static str) -> Result<u64, Error> {
        let (value, used) = varlong::read(&self.bytes[self.pos..], field)?;
        self.pos += used;
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> ArrivalLog {
        let mut log = ArrivalLog::new(Layout::new(40, 4).unwrap());
        for s in 0..30u64 {
            log.put_unless_exists(s * 3, Arrival::AfterUs(s * 1_000));
        }
        log.fill_never(0..10).unwrap();
        log
    }

    #[test]
    fn export_import_round_trip() {
        let log = sample();
        let back = ArrivalLog::import(&log.export(), ImportLimits::default()).unwrap();
        assert_eq!(back.cells(), log.cells());
        assert_eq!(back.layout(), log.layout());
        assert_eq!(
            back.scan(..).collect::<Vec<_>>(),
            log.scan(..).collect::<Vec<_>>()
        );
    }

    #[test]
    fn cells_round_trip_one_by_one() {
        let log = sample();
        let cells = log.cells();
        assert!(cells.windows(2).all(|w| w[0] < w[1]), "cells in key order");
        let mut back = ArrivalLog::new(log.layout());
        for c in &cells {
            assert_eq!(
                back.insert_cell(&c.row, &c.column, &c.value),
                Ok(Put::Inserted)
            );
        }
        assert_eq!(back.cells(), cells);
        assert_eq!(log.cells_in(..).len(), cells.len());
    }

    #[test]
    fn every_truncation_is_an_error() {
        let blob = sample().export();
        for cut in 0..blob.len() {
            assert!(ArrivalLog::import(&blob[..cut], ImportLimits::default()).is_err());
        }
        let mut long = blob.clone();
        long.push(0);
        assert!(ArrivalLog::import(&long, ImportLimits::default()).is_err());
    }

    #[test]
    fn limits_and_header_are_enforced() {
        let blob = sample().export();
        let tight = ImportLimits {
            max_cells: 5,
            ..ImportLimits::default()
        };
        assert!(matches!(
            ArrivalLog::import(&blob, tight),
            Err(Error::LimitExceeded { what: "cells", .. })
        ));
        // Cells at the last column of their chunk: each costs a whole chunk (1 KiB).
        let mut sparse_log = ArrivalLog::new(Layout::new(1 << 20, 1).unwrap());
        for i in 0..8u64 {
            sparse_log.put_unless_exists(i * 256 + 255, Arrival::AfterUs(i));
        }
        assert_eq!(sparse_log.memory_bytes(), 8 * 1024);
        let sparse = ImportLimits {
            max_memory_bytes: 4_000,
            ..ImportLimits::default()
        };
        assert!(ArrivalLog::import(&blob, sparse).is_ok());
        assert!(matches!(
            ArrivalLog::import(&sparse_log.export(), sparse),
            Err(Error::LimitExceeded {
                what: "memory bytes",
                ..
            })
        ));
        let mut bad = blob.clone();
        bad[0] = b'X';
        assert_eq!(
            ArrivalLog::import(&bad, ImportLimits::default()).err(),
            Some(Error::BadMagic)
        );
        let mut bad = blob;
        bad[4] = 9;
        assert_eq!(
            ArrivalLog::import(&bad, ImportLimits::default()).err(),
            Some(Error::UnsupportedVersion(9))
        );
    }
}
