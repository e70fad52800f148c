//! The one error type of the crate: every decoder of stored or imported bytes returns it
//! instead of panicking.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// A VAR_LONG field with no bytes at all.
    Empty { field: &'static str },
    /// The bytes end before the VAR_LONG (or another field) does.
    Truncated { field: &'static str },
    /// A VAR_LONG whose length prefix announces more than 10 bytes, or a value above 64 bits.
    VarLongTooLong { field: &'static str },
    /// A VAR_LONG written in more bytes than its value needs: it would break the byte ordering.
    NonCanonical { field: &'static str },
    /// Bytes left after a field that must fill its buffer exactly.
    Trailing { field: &'static str, extra: usize },
    /// A row key that is not exactly 8 bytes.
    RowKeyLength(usize),
    /// A column past the last one of its partition (`PQ / NP`).
    ColumnOutOfRange { column: u64, columns: u64 },
    /// A (row, column) pair whose sequence number does not fit in 64 bits.
    SeqOverflow,
    /// Partitioning quantum and rows per quantum that do not make a layout.
    BadLayout { why: &'static str },
    /// An export blob that does not start with the magic bytes.
    BadMagic,
    /// An export blob of a format version this code does not read.
    UnsupportedVersion(u8),
    /// A count above the caller's import limit.
    LimitExceeded { what: &'static str, limit: u64 },
    /// Rows or columns of an export blob out of key order, or repeated.
    NotIncreasing { what: &'static str },
    /// An export blob row with no cells.
    EmptyRow,
    /// A value length byte above the 10 bytes a VAR_LONG can take.
    ValueLength(u8),
    /// An arrival time before the creation time it is measured from.
    ArrivalBeforeCreation { creation_us: u64, arrival_us: u64 },
    /// A range of sequence numbers too long to fill in one call.
    RangeTooLong { len: u64, limit: u64 },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Empty { field } => write!(f, "{field}: empty VAR_LONG"),
            Error::Truncated { field } => write!(f, "{field}: bytes end inside the field"),
            Error::VarLongTooLong { field } => write!(f, "{field}: VAR_LONG above 64 bits"),
            Error::NonCanonical { field } => {
                write!(f, "{field}: VAR_LONG longer than its value needs")
            }
            Error::Trailing { field, extra } => write!(f, "{field}: {extra} bytes after the value"),
            Error::RowKeyLength(n) => write!(f, "row key of {n} bytes, expected 8"),
            Error::ColumnOutOfRange { column, columns } => {
                write!(f, "column {column} outside the {columns} columns of a row")
            }
            Error::SeqOverflow => write!(f, "row and column give a sequence number above 2^64"),
            Error::BadLayout { why } => write!(f, "bad layout: {why}"),
            Error::BadMagic => write!(f, "not an arrival log export"),
            Error::UnsupportedVersion(v) => write!(f, "export format version {v} is not supported"),
            Error::LimitExceeded { what, limit } => write!(f, "more {what} than the limit {limit}"),
            Error::NotIncreasing { what } => write!(f, "{what} not in strictly increasing order"),
            Error::EmptyRow => write!(f, "row without cells"),
            Error::ValueLength(n) => write!(f, "value length {n} above 10 bytes"),
            Error::ArrivalBeforeCreation {
                creation_us,
                arrival_us,
            } => write!(
                f,
                "arrival at {arrival_us} us before creation at {creation_us} us"
            ),
            Error::RangeTooLong { len, limit } => {
                write!(f, "range of {len} sequence numbers above the limit {limit}")
            }
        }
    }
}

impl std::error::Error for Error {}
