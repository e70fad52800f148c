//! What a cell says about one tx at one node: when it arrived, as a delay after the tx's
//! creation, or that it never did. Storing the delay rather than the arrival time is the ADR's
//! delta encoding of commit timestamps: a few hundred milliseconds takes 3 bytes where an
//! absolute time takes 4 to 5, and "never" is an empty value instead of a 10-byte -1.

use crate::{varlong, Error};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Arrival {
    /// First arrival this many microseconds after the tx was created.
    AfterUs(u64),
    /// The node never got the tx (written when its log is closed).
    Never,
}

impl Arrival {
    /// The arrival of a tx created at `creation_us` that arrived at `arrival_us` (same clock).
    pub fn from_times(creation_us: u64, arrival_us: u64) -> Result<Arrival, Error> {
        arrival_us
            .checked_sub(creation_us)
            .map(Arrival::AfterUs)
            .ok_or(Error::ArrivalBeforeCreation {
                creation_us,
                arrival_us,
            })
    }

    /// The absolute arrival time given the creation time; None for "never" or past 2^64.
    pub fn at(self, creation_us: u64) -> Option<u64> {
        match self {
            Arrival::AfterUs(d) => creation_us.checked_add(d),
            Arrival::Never => None,
        }
    }

    /// The cell value: VAR_LONG of the delay, or empty for "never".
    pub fn encode(self) -> Vec<u8> {
        match self {
            Arrival::AfterUs(d) => varlong::encode(d),
            Arrival::Never => Vec::new(),
        }
    }

    /// Bytes of the cell value.
    pub fn encoded_len(self) -> usize {
        match self {
            Arrival::AfterUs(d) => varlong::len(d),
            Arrival::Never => 0,
        }
    }

    pub fn decode(value: &[u8]) -> Result<Arrival, Error> {
        if value.is_empty() {
            return Ok(Arrival::Never);
        }
        varlong::decode(value, "value").map(Arrival::AfterUs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delta_and_never() {
        let a = Arrival::from_times(1_000_000, 1_300_000).unwrap();
        assert_eq!(a, Arrival::AfterUs(300_000));
        assert_eq!(a.at(1_000_000), Some(1_300_000));
        assert_eq!(a.encode().len(), 3);
        assert_eq!(Arrival::decode(&a.encode()), Ok(a));
        assert_eq!(Arrival::decode(&[]), Ok(Arrival::Never));
        assert!(Arrival::from_times(5, 4).is_err());
        assert_eq!(Arrival::AfterUs(1).at(u64::MAX), None);
    }
}
