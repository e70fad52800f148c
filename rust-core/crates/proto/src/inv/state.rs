//! What an `inv` node knows of a tx besides its peers' marks, in one 32-bit word of the tx's
//! record: whether it holds the tx, how many copies it verified (up to 3), and once it holds
//! it, its size. The size has 29 bits (up to 512 MiB); a larger one is kept beside the record
//! (`Records::hold`), so that none is cut short.

/// Bits of the size; the largest value they hold says "kept beside the record".
const LEN_BITS: u32 = 29;
const LEN_MASK: u32 = (1 << LEN_BITS) - 1;
/// Copies verified, counted up to 3, in the two bits above the size.
const COPIES_SHIFT: u32 = LEN_BITS;
const COPIES_MASK: u32 = 0b11 << COPIES_SHIFT;
const HELD: u32 = 1 << 31;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct State(u32);

impl State {
    pub fn held(self) -> bool {
        self.0 & HELD != 0
    }

    /// The size of a held tx, or `None` if it is too long for the bits (or not held).
    pub fn len(self) -> Option<u32> {
        let len = self.0 & LEN_MASK;
        (self.held() && len != LEN_MASK).then_some(len)
    }

    /// Marks the tx held with its size; false if the size does not fit and must be kept
    /// elsewhere.
    pub fn hold(&mut self, len: u32) -> bool {
        let fits = len < LEN_MASK;
        self.0 = self.0 & COPIES_MASK | HELD | if fits { len } else { LEN_MASK };
        fits
    }

    /// Counts a verified copy; the copies counted so far, up to 3.
    pub fn add_copy(&mut self) -> u32 {
        let copies = ((self.0 & COPIES_MASK) >> COPIES_SHIFT) + 1;
        let copies = copies.min(3);
        self.0 = self.0 & !COPIES_MASK | copies << COPIES_SHIFT;
        copies
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_keep_to_their_bits() {
        for len in [0, 1, 128, 4_000_000, LEN_MASK - 1, LEN_MASK, u32::MAX] {
            let mut s = State::default();
            assert!(!s.held() && s.len().is_none());
            assert_eq!(s.add_copy(), 1);
            assert_eq!(s.hold(len), len < LEN_MASK);
            assert!(s.held());
            assert_eq!(s.len(), (len < LEN_MASK).then_some(len));
            assert_eq!([s.add_copy(), s.add_copy(), s.add_copy()], [2, 3, 3]);
            assert!(s.held());
            assert_eq!(s.len(), (len < LEN_MASK).then_some(len));
        }
    }
}
