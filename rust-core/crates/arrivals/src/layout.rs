//! Where a sequence number lives: the tickets mapping of ADR 16 ("Tickets Encoding Strategy").
//!
//! Sequence numbers are cut into partitions of `PQ` consecutive numbers; each partition has
//! `NP` rows and seq goes to row `(seq / PQ) * NP + (seq % PQ) % NP`, column
//! `(seq % PQ) / NP`. Consecutive seqs therefore go round-robin over the NP rows of their
//! partition, and the row key is the row number bit-reversed (fixed 8 bytes), so those NP rows
//! sit far apart in key space: a range-partitioned store spreads live writes over NP places
//! instead of one. `NP` must divide `PQ`, which makes (row, column) <-> seq a bijection.

use serde::{Deserialize, Serialize};

use crate::arrival::Arrival;
use crate::{varlong, Error};

/// The ADR's partitioning quantum. Its sizing: a row holds at most PQ / NP = 1,562,500 cells
/// of at most 3 (column) + 9 (value) bytes plus ~9 of composite overhead, about 32 MB, under
/// the 100 MB row bound of the Cassandra practice it follows. Our values are delays (3 bytes
/// typically), so rows stay far smaller still.
pub const DEFAULT_PARTITIONING_QUANTUM: u64 = 25_000_000;
/// The ADR's rows per partition: live writes spread over 16 rows, i.e. at most 16 shards of a
/// range-partitioned store take writes at once. A power of two, so the bit-reversed row keys of
/// one partition split key space into 16 equal slices.
pub const DEFAULT_ROWS_PER_QUANTUM: u64 = 16;

/// Largest partitioning quantum accepted: keeps `row * NP` style arithmetic far from overflow.
pub const MAX_PARTITIONING_QUANTUM: u64 = 1 << 48;
/// Most rows per partition accepted: a scan holds one pointer per row of a partition.
pub const MAX_ROWS_PER_QUANTUM: u64 = 1 << 10;

/// A validated (PQ, NP) pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "LayoutConfig", into = "LayoutConfig")]
pub struct Layout {
    pq: u64,
    np: u64,
}

/// The serialized form of a [`Layout`], checked on the way in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LayoutConfig {
    pub partitioning_quantum: u64,
    pub rows_per_quantum: u64,
}

impl TryFrom<LayoutConfig> for Layout {
    type Error = Error;
    fn try_from(c: LayoutConfig) -> Result<Layout, Error> {
        Layout::new(c.partitioning_quantum, c.rows_per_quantum)
    }
}

impl From<Layout> for LayoutConfig {
    fn from(l: Layout) -> LayoutConfig {
        LayoutConfig {
            partitioning_quantum: l.pq,
            rows_per_quantum: l.np,
        }
    }
}

impl Default for Layout {
    fn default() -> Layout {
        Layout {
            pq: DEFAULT_PARTITIONING_QUANTUM,
            np: DEFAULT_ROWS_PER_QUANTUM,
        }
    }
}

/// A cell as a key-value store holds it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Cell {
    /// The bit-reversed row number, big-endian.
    pub row: [u8; 8],
    /// VAR_LONG of the column.
    pub column: Vec<u8>,
    /// VAR_LONG of the delay in microseconds, empty for "never".
    pub value: Vec<u8>,
}

impl Layout {
    pub fn new(partitioning_quantum: u64, rows_per_quantum: u64) -> Result<Layout, Error> {
        let (pq, np) = (partitioning_quantum, rows_per_quantum);
        if np == 0 {
            return Err(Error::BadLayout {
                why: "rows per quantum must be at least 1",
            });
        }
        if np > MAX_ROWS_PER_QUANTUM {
            return Err(Error::BadLayout {
                why: "rows per quantum above 1024",
            });
        }
        if pq > MAX_PARTITIONING_QUANTUM {
            return Err(Error::BadLayout {
                why: "partitioning quantum above 2^48",
            });
        }
        if pq < np || pq % np != 0 {
            return Err(Error::BadLayout {
                why: "rows per quantum must divide the partitioning quantum",
            });
        }
        Ok(Layout { pq, np })
    }

    pub fn partitioning_quantum(&self) -> u64 {
        self.pq
    }
    pub fn rows_per_quantum(&self) -> u64 {
        self.np
    }
    /// Columns in one row: PQ / NP.
    pub fn columns_per_row(&self) -> u64 {
        self.pq / self.np
    }

    /// The row number of `seq` (never above `seq`, so it cannot overflow).
    pub fn row(&self, seq: u64) -> u64 {
        (seq / self.pq) * self.np + (seq % self.pq) % self.np
    }
    /// The column of `seq` within its row.
    pub fn column(&self, seq: u64) -> u64 {
        (seq % self.pq) / self.np
    }
    /// The sequence number at (row, column), checked.
    pub fn seq(&self, row: u64, column: u64) -> Result<u64, Error> {
        let columns = self.columns_per_row();
        if column >= columns {
            return Err(Error::ColumnOutOfRange { column, columns });
        }
        (row / self.np)
            .checked_mul(self.pq)
            .and_then(|base| base.checked_add(column * self.np + row % self.np))
            .ok_or(Error::SeqOverflow)
    }

    /// The whole cell for one record.
    pub fn encode_cell(&self, seq: u64, arrival: Arrival) -> Cell {
        Cell {
            row: row_key(self.row(seq)),
            column: varlong::encode(self.column(seq)),
            value: arrival.encode(),
        }
    }
    /// The record a stored cell holds; any malformed part is an error.
    pub fn decode_cell(
        &self,
        row: &[u8],
        column: &[u8],
        value: &[u8],
    ) -> Result<(u64, Arrival), Error> {
        let row = row_from_key(row)?;
        let column = varlong::decode(column, "column")?;
        Ok((self.seq(row, column)?, Arrival::decode(value)?))
    }
}

/// The fixed 8-byte row key: the row number with its bits reversed, big-endian. Reversing puts
/// the fast-changing low bits (which of the NP rows) at the top of the key.
pub fn row_key(row: u64) -> [u8; 8] {
    row.reverse_bits().to_be_bytes()
}

/// The row number behind a row key.
pub fn row_from_key(key: &[u8]) -> Result<u64, Error> {
    let bytes: [u8; 8] = key.try_into().map_err(|_| Error::RowKeyLength(key.len()))?;
    Ok(u64::from_be_bytes(bytes).reverse_bits())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follows_the_adr_formulas() {
        // The ADR's illustration: PQ = 1,000,000, NP = 100.
        let l = Layout::new(1_000_000, 100).unwrap();
        let seq = 3_141_592;
        assert_eq!(l.row(seq), 3 * 100 + 92);
        assert_eq!(l.column(seq), 141_592 / 100);
        assert_eq!(l.seq(l.row(seq), l.column(seq)), Ok(seq));
    }

    #[test]
    fn rejects_bad_layouts_and_cells() {
        assert!(Layout::new(10, 0).is_err());
        assert!(Layout::new(10, 3).is_err());
        assert!(Layout::new(4, 8).is_err());
        assert!(Layout::new(1 << 50, 16).is_err());
        let l = Layout::default();
        assert_eq!(
            l.seq(0, l.columns_per_row()),
            Err(Error::ColumnOutOfRange {
                column: 1_562_500,
                columns: 1_562_500
            })
        );
        assert_eq!(l.seq(u64::MAX, 0), Err(Error::SeqOverflow));
        assert_eq!(row_from_key(&[1, 2, 3]), Err(Error::RowKeyLength(3)));
    }

    #[test]
    fn consecutive_rows_land_far_apart_in_key_space() {
        let keys: Vec<u64> = (0..16).map(|r| u64::from_be_bytes(row_key(r))).collect();
        // Rows 0..16 of partition 0 use the top four key bits, one sixteenth of key space each.
        let mut tops: Vec<u64> = keys.iter().map(|k| k >> 60).collect();
        tops.sort_unstable();
        assert_eq!(tops, (0..16).collect::<Vec<u64>>());
    }

    #[test]
    fn layout_config_is_validated_on_deserialize() {
        let ok: Layout =
            serde_json::from_str(r#"{"partitioning_quantum":64,"rows_per_quantum":8}"#).unwrap();
        assert_eq!(ok, Layout::new(64, 8).unwrap());
        assert!(serde_json::from_str::<Layout>(
            r#"{"partitioning_quantum":64,"rows_per_quantum":7}"#
        )
        .is_err());
    }
}
