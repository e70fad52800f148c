//! A fixed number of flags packed 64 to a word: the engine's per-edge "link is up" flags, read
//! on every send and arrival, take an eighth of the memory a `Vec<bool>` would, so they stay in
//! the CPU's caches on networks of millions of edges.

pub(crate) struct Bits {
    words: Vec<u64>,
}

impl Bits {
    /// `len` flags, all `value`.
    pub fn new(len: usize, value: bool) -> Self {
        let fill = if value { u64::MAX } else { 0 };
        Bits {
            words: vec![fill; len.div_ceil(64)],
        }
    }

    /// Flag `i`; panics past `len`, like indexing.
    #[inline(always)]
    pub fn get(&self, i: usize) -> bool {
        self.words[i / 64] & (1 << (i % 64)) != 0
    }

    pub fn set(&mut self, i: usize, value: bool) {
        let (word, bit) = (&mut self.words[i / 64], 1u64 << (i % 64));
        if value {
            *word |= bit;
        } else {
            *word &= !bit;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_set_and_clear_alone() {
        let mut b = Bits::new(130, true);
        assert!((0..130).all(|i| b.get(i)));
        b.set(64, false);
        b.set(129, false);
        assert!(!b.get(64) && !b.get(129));
        assert_eq!((0..130).filter(|&i| b.get(i)).count(), 128);
        b.set(64, true);
        assert!(b.get(64) && b.get(63) && b.get(65));
        let b = Bits::new(3, false);
        assert!(!(0..3).any(|i| b.get(i)));
    }
}
