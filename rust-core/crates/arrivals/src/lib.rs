//! The per-node arrival log in the "tickets" encoding of AtlasDB ADR 16 (`_transactions2`),
//! seed `001_5cf2e1914b4eb330.txt`.
//!
//! Each node records, per tx, when the tx first arrived: a map from the tx's creation sequence
//! number (dense, increasing, like Atlas start timestamps) to the arrival, or "never". Stored
//! as the ADR decides:
//! - row = `(seq / PQ) * NP + (seq % PQ) % NP`, key = the row's bits reversed, 8 bytes
//!   big-endian, so the NP rows taking a partition's live writes sit far apart in key space;
//! - column = VAR_LONG of `(seq % PQ) / NP`;
//! - value = VAR_LONG of the delay (arrival - creation) in microseconds, empty for "never".
//!
//! [`ArrivalLog`] holds one node's table in memory with put-unless-exists (first arrival wins,
//! later ones are counted duplicates), get, batched get, range scans in seq order, and the raw
//! cells / a blob export for persistence. No clock, no threads, no `proto` dependency.
//! `bench::arrival_log` (the `bench` crate) measures the layout against plain VAR_LONG keys and
//! JSON.

pub mod arrival;
pub mod error;
pub mod export;
pub mod layout;
pub mod log;
mod row;
pub mod scan;
pub mod varlong;

pub use arrival::Arrival;
pub use error::Error;
pub use export::ImportLimits;
pub use layout::{row_from_key, row_key, Cell, Layout, LayoutConfig};
pub use log::{ArrivalLog, Put, PutSummary};
pub use scan::Scan;
