//! One row held in memory: its cells by column, packed for dense logs.
//!
//! A node records nearly every seq, so a row's columns are dense. Columns are grouped in
//! chunks of [`CHUNK`] 4-byte slots, allocated only where a cell exists and grown by doubling
//! up to the highest column written: a dense log costs about 4 bytes a record, a short log
//! (a few dozen columns per row) does not pay for 256, and a hostile import cannot make one
//! cell allocate more than one chunk. The first chunk is held inline (most logs never
//! leave it), the rest in a map. A delay too large for a slot (over ~71 minutes) goes to a
//! side map.

use std::collections::BTreeMap;

use crate::arrival::Arrival;

/// Columns per chunk.
pub(crate) const CHUNK: u64 = 256;
/// A chunk's slots: column `index * CHUNK + i` at `i`, absent past the end.
pub(crate) type Chunk = [u32];

/// Slot values: no cell, "never", a delay too large to inline, or `DELAY_BASE + delay_us`.
pub(crate) const ABSENT: u32 = 0;
const NEVER: u32 = 1;
const DELAY_BASE: u32 = 2;
const WIDE: u32 = u32::MAX;
const MAX_INLINE_DELAY_US: u64 = (WIDE - 1 - DELAY_BASE) as u64;
/// Smallest allocation of a chunk, in slots.
const MIN_SLOTS: usize = 8;

#[derive(Clone, Debug, Default)]
pub(crate) struct Row {
    /// Chunk 0; empty until a cell lands there.
    head: Vec<u32>,
    /// Chunks 1 and up and wide delays, which most rows never have: boxed, a row takes 40
    /// bytes instead of 80 (a simulated node's log holds 16 rows even for a few txs).
    rare: Option<Box<Rare>>,
    /// Slots allocated over all chunks.
    pub(crate) slots: u64,
}

#[derive(Clone, Debug, Default)]
struct Rare {
    /// Chunks 1 and up.
    tail: BTreeMap<u64, Vec<u32>>,
    wide: BTreeMap<u64, u64>,
}

impl Row {
    /// The chunk holding columns `index * CHUNK ..`, if any cell is there.
    pub(crate) fn chunk(&self, index: u64) -> Option<&Chunk> {
        if index == 0 {
            return (!self.head.is_empty()).then_some(&self.head[..]);
        }
        self.rare.as_ref()?.tail.get(&index).map(|c| &c[..])
    }

    /// The first chunk index after `index` that holds anything.
    pub(crate) fn next_chunk(&self, index: u64) -> Option<u64> {
        let rare = self.rare.as_ref()?;
        rare.tail.range(index + 1..).next().map(|(&c, _)| c)
    }

    /// The cell at `column`, if any.
    pub(crate) fn get(&self, column: u64) -> Option<Arrival> {
        let chunk = self.chunk(column / CHUNK)?;
        let slot = chunk.get((column % CHUNK) as usize).copied()?;
        self.decode(column, slot)
    }

    /// What a slot read from this row's chunk at `column` means.
    pub(crate) fn decode(&self, column: u64, slot: u32) -> Option<Arrival> {
        match slot {
            ABSENT => None,
            NEVER => Some(Arrival::Never),
            WIDE => self
                .rare
                .as_ref()
                .and_then(|r| r.wide.get(&column))
                .map(|&d| Arrival::AfterUs(d)),
            s => Some(Arrival::AfterUs(u64::from(s - DELAY_BASE))),
        }
    }

    /// Writes the cell unless one exists; returns the one kept when it does.
    pub(crate) fn put_unless_exists(
        &mut self,
        column: u64,
        arrival: Arrival,
    ) -> Result<(), Arrival> {
        let index = column / CHUNK;
        let chunk = if index == 0 {
            &mut self.head
        } else {
            let rare = self.rare.get_or_insert_with(Box::default);
            rare.tail.entry(index).or_default()
        };
        let at = (column % CHUNK) as usize;
        if at >= chunk.len() {
            let grown = (at + 1)
                .next_power_of_two()
                .clamp(MIN_SLOTS, CHUNK as usize);
            self.slots += (grown - chunk.len()) as u64;
            chunk.resize(grown, ABSENT);
        }
        let kept = chunk[at];
        if kept != ABSENT {
            return Err(self.decode(column, kept).unwrap_or(Arrival::Never));
        }
        let (slot, wide) = match arrival {
            Arrival::Never => (NEVER, None),
            Arrival::AfterUs(d) if d <= MAX_INLINE_DELAY_US => (DELAY_BASE + d as u32, None),
            Arrival::AfterUs(d) => (WIDE, Some(d)),
        };
        chunk[at] = slot;
        if let Some(d) = wide {
            let rare = self.rare.get_or_insert_with(Box::default);
            rare.wide.insert(column, d);
        }
        Ok(())
    }

    /// All cells in column order.
    pub(crate) fn cells(&self) -> impl Iterator<Item = (u64, Arrival)> + '_ {
        let head = (!self.head.is_empty()).then_some((0u64, &self.head));
        head.into_iter()
            .chain(
                self.rare
                    .iter()
                    .flat_map(|r| r.tail.iter().map(|(&index, c)| (index, c))),
            )
            .flat_map(move |(index, chunk)| {
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
        // Chunk 0 grew to 16 slots for column 9; chunk 1 to 64 for column 301.
        assert_eq!(row.slots, 16 + 64);
        assert_eq!(row.chunk(0).map(|c| c.len()), Some(16));
        assert_eq!(row.next_chunk(0), Some(1));
        assert_eq!(row.next_chunk(1), None);
    }

    #[test]
    fn a_row_stays_small() {
        // Every node's log holds a row per partition row it touched: 16 for any simulated run.
        assert!(std::mem::size_of::<Row>() <= 40);
    }
}
