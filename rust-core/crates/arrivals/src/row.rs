//! One row held in memory: its cells by column, packed for dense logs.
//!
//! A node records nearly every seq, so a row's columns are dense. Columns are grouped in
//! chunks of [`CHUNK`] 4-byte slots, allocated only where a cell exists: a dense log costs about
//! 4 bytes a record, and a hostile import cannot make one cell allocate more than one chunk.
//! A delay too large for a slot (over ~71 minutes) goes to a side map.

use std::collections::BTreeMap;

use crate::arrival::Arrival;

/// Columns per chunk.
pub(crate) const CHUNK: u64 = 256;
pub(crate) type Chunk = [u32; CHUNK as usize];

/// Slot values: no cell, "never", a delay too large to inline, or `DELAY_BASE + delay_us`.
pub(crate) const ABSENT: u32 = 0;
const NEVER: u32 = 1;
const DELAY_BASE: u32 = 2;
const WIDE: u32 = u32::MAX;
const MAX_INLINE_DELAY_US: u64 = (WIDE - 1 - DELAY_BASE) as u64;

#[derive(Clone, Debug, Default)]
pub(crate) struct Row {
    pub(crate) chunks: BTreeMap<u64, Box<Chunk>>,
    wide: BTreeMap<u64, u64>,
}

impl Row {
    /// The cell at `column`, if any.
    pub(crate) fn get(&self, column: u64) -> Option<Arrival> {
        let chunk = self.chunks.get(&(column / CHUNK))?;
        self.decode(column, chunk[(column % CHUNK) as usize])
    }

    /// What a slot read from this row's chunk at `column` means.
    pub(crate) fn decode(&self, column: u64, slot: u32) -> Option<Arrival> {
        match slot {
            ABSENT => None,
            NEVER => Some(Arrival::Never),
            WIDE => self.wide.get(&column).map(|&d| Arrival::AfterUs(d)),
            s => Some(Arrival::AfterUs(u64::from(s - DELAY_BASE))),
        }
    }

    /// Writes the cell unless one exists; returns the one kept when it does.
    pub(crate) fn put_unless_exists(
        &mut self,
        column: u64,
        arrival: Arrival,
    ) -> Result<(), Arrival> {
        let chunk = self
            .chunks
            .entry(column / CHUNK)
            .or_insert_with(|| Box::new([ABSENT; CHUNK as usize]));
        let slot = &mut chunk[(column % CHUNK) as usize];
        if *slot != ABSENT {
            let kept = *slot;
            return Err(self.decode(column, kept).unwrap_or(Arrival::Never));
        }
        *slot = match arrival {
            Arrival::Never => NEVER,
            Arrival::AfterUs(d) if d <= MAX_INLINE_DELAY_US => DELAY_BASE + d as u32,
            Arrival::AfterUs(d) => {
                self.wide.insert(column, d);
                WIDE
            }
        };
        Ok(())
    }

    /// All cells in column order.
    pub(crate) fn cells(&self) -> impl Iterator<Item = (u64, Arrival)> + '_ {
        self.chunks.iter().flat_map(move |(&index, chunk)| {
            chunk.iter().enumerate().filter_map(move |(i, &slot)| {
                let column = index * CHUNK + i as u64;
                self.decode(column, slot).map(|a| (column, a))
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_wide_and_never_slots() {
        let mut row = Row::default();
        let big = MAX_INLINE_DELAY_US + 1;
        assert_eq!(row.put_unless_exists(3, Arrival::AfterUs(7)), Ok(()));
        assert_eq!(row.put_unless_exists(300, Arrival::AfterUs(big)), Ok(()));
        assert_eq!(
            row.put_unless_exists(301, Arrival::AfterUs(MAX_INLINE_DELAY_US)),
            Ok(())
        );
        assert_eq!(row.put_unless_exists(9, Arrival::Never), Ok(()));
        assert_eq!(
            row.put_unless_exists(300, Arrival::AfterUs(1)),
            Err(Arrival::AfterUs(big))
        );
        assert_eq!(row.get(300), Some(Arrival::AfterUs(big)));
        assert_eq!(row.get(301), Some(Arrival::AfterUs(MAX_INLINE_DELAY_US)));
        assert_eq!(row.get(4), None);
        let all: Vec<u64> = row.cells().map(|(c, _)| c).collect();
        assert_eq!(all, [3, 9, 300, 301]);
    }
}
