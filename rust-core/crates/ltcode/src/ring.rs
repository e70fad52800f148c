//! The peeling window's values, one after another from a cache-line boundary, so that a value
//! of 32 bytes (a stand-in) is always one line to load, never two: the allocator puts a large
//! buffer 16 bytes past a page boundary, where every other stand-in would straddle a line.

/// Bytes of a cache line.
const LINE: usize = 64;

#[derive(Clone, Debug)]
pub struct Ring {
    bytes: Vec<u8>,
    /// Where the values start in `bytes`: the first line boundary.
    start: usize,
    value_len: usize,
    /// Values it has room for.
    len: usize,
}

impl Ring {
    pub fn new(value_len: usize) -> Ring {
        Ring {
            bytes: Vec::new(),
            start: 0,
            value_len,
            len: 0,
        }
    }

    /// Values it has room for.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Makes room for `values` values (new ones are zero), keeping those held.
    pub fn grow_to(&mut self, values: usize) {
        if values <= self.len {
            return;
        }
        let held = self.len * self.value_len;
        self.len = values;
        let old_start = self.start;
        self.bytes.resize(LINE - 1 + values * self.value_len, 0);
        // A buffer moved by growing may have moved off its line boundary.
        self.start = self.bytes.as_ptr().align_offset(LINE).min(LINE - 1);
        if self.start != old_start {
            self.bytes
                .copy_within(old_start..old_start + held, self.start);
            // What the move left past the held values is theirs, not the new ones' zeros.
            self.bytes[self.start + held..].fill(0);
        }
    }

    pub fn clear(&mut self) {
        self.bytes.clear();
        self.start = 0;
        self.len = 0;
    }

    pub fn value(&self, pos: usize) -> &[u8] {
        let at = self.start + pos * self.value_len;
        &self.bytes[at..at + self.value_len]
    }

    pub fn value_mut(&mut self, pos: usize) -> &mut [u8] {
        let at = self.start + pos * self.value_len;
        &mut self.bytes[at..at + self.value_len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values keep their bytes as the ring grows (and its buffer moves), and the first starts
    /// on a line boundary.
    #[test]
    fn values_survive_growth_on_line_boundaries() {
        for value_len in [1, 32, 100, 128] {
            let mut ring = Ring::new(value_len);
            for n in 1..300 {
                ring.grow_to(n);
                ring.value_mut(n - 1).fill(n as u8);
                for pos in 0..n {
                    assert!(ring.value(pos).iter().all(|&b| b == (pos + 1) as u8));
                }
                assert_eq!(ring.len(), n);
                assert_eq!(ring.value(0).as_ptr() as usize % LINE, 0, "l = {value_len}");
            }
        }
    }

    /// A buffer the allocator handed back off its line boundary: growing moves the values
    /// back onto one, and what the move leaves behind is not read as the new values.
    #[test]
    fn a_move_onto_a_boundary_keeps_new_values_zero() {
        let mut ring = Ring::new(32);
        ring.grow_to(2);
        // The values as they would sit 16 bytes past the boundary.
        let boundary = ring.start;
        let off = boundary + 16;
        ring.start = off;
        ring.bytes.resize(off + 2 * 32 + LINE, 0);
        ring.value_mut(0).fill(1);
        ring.value_mut(1).fill(2);
        ring.grow_to(4);
        assert_eq!(ring.start, boundary);
        for (pos, byte) in [(0, 1), (1, 2), (2, 0), (3, 0)] {
            assert!(ring.value(pos).iter().all(|&b| b == byte), "value {pos}");
        }
    }
}
