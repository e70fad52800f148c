//! The light node's arrival log: the `arrivals` crate's table (tickets encoding) behind a small
//! JS face, so the page persists exactly the cells the crate defines (IndexedDB) and exports
//! its blob. The page numbers the txs it sees 0, 1, 2, ... (its own dense sequence) and keeps
//! the map from tx id to seq itself; values are microseconds after an epoch the page chooses.
//!
//! Cells cross the boundary flattened: `[key length u8][key][value length u8][value]` repeated,
//! where key = the 8-byte row key followed by the column's VAR_LONG (one IndexedDB key per
//! cell: byte order of the key is (row, column) order, as in a wide-row store).

use arrivals::{varlong, Arrival, ArrivalLog, ImportLimits, Layout, Put};
use wasm_bindgen::prelude::*;

/// Largest seq the page may use: exact in a JS number.
const MAX_SEQ: f64 = 9_007_199_254_740_991.0;
/// Largest cell key: 8 bytes of row key and a 10-byte VAR_LONG column.
const MAX_KEY_BYTES: usize = 8 + varlong::MAX_LEN;
/// A light node's log stays far smaller than a simulated run's.
const LIGHT_LIMITS: ImportLimits = ImportLimits {
    max_rows: 1 << 12,
    max_cells: 1 << 22,
    max_memory_bytes: 1 << 26,
};

#[wasm_bindgen]
pub struct ArrivalStore {
    log: ArrivalLog,
    /// Stored cells that could not be read back (hostile or corrupted storage).
    rejected: u32,
}

fn seq_of(seq: f64) -> Result<u64, String> {
    if !((0.0..=MAX_SEQ).contains(&seq) && seq.fract() == 0.0) {
        return Err(format!("seq must be a whole number in 0..2^53, got {seq}"));
    }
    Ok(seq as u64)
}

fn push_cell(out: &mut Vec<u8>, key: &[u8], value: &[u8]) {
    // Both lengths fit a byte: a key is at most 18 bytes, a value at most 10.
    out.push(key.len() as u8);
    out.extend_from_slice(key);
    out.push(value.len() as u8);
    out.extend_from_slice(value);
}

/// Splits a cell key into the row key and the column bytes.
fn split_key(key: &[u8]) -> Result<(&[u8], &[u8]), String> {
    if key.len() <= 8 || key.len() > MAX_KEY_BYTES {
        return Err(format!(
            "stored cell key of {} bytes, expected 9 to {MAX_KEY_BYTES}",
            key.len()
        ));
    }
    Ok(key.split_at(8))
}

/// What the JS methods do, with plain-string errors (JsError exists only on wasm32).
impl ArrivalStore {
    fn with_log(log: ArrivalLog) -> ArrivalStore {
        ArrivalStore { log, rejected: 0 }
    }

    fn try_put(&mut self, seq: f64, after_us: f64) -> Result<bool, String> {
        let seq = seq_of(seq)?;
        if !(after_us.is_finite() && (0.0..=MAX_SEQ).contains(&after_us)) {
            return Err(format!(
                "arrival must be 0..2^53 us after the epoch, got {after_us}"
            ));
        }
        let arrival = Arrival::AfterUs(after_us as u64);
        Ok(self.log.put_unless_exists(seq, arrival) == Put::Inserted)
    }

    fn try_cells(&self, first: f64, end: f64) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        for cell in self.log.cells_in(seq_of(first)?..seq_of(end)?) {
            let mut key = cell.row.to_vec();
            key.extend_from_slice(&cell.column);
            push_cell(&mut out, &key, &cell.value);
        }
        Ok(out)
    }

    fn try_load_cell(&mut self, key: &[u8], value: &[u8]) -> Result<bool, String> {
        let outcome = split_key(key).and_then(|(row, column)| {
            self.log
                .insert_cell(row, column, value)
                .map_err(|e| e.to_string())
        });
        match outcome {
            Ok(put) => Ok(put == Put::Inserted),
            Err(e) => {
                self.rejected = self.rejected.saturating_add(1);
                Err(format!("stored arrival unreadable: {e}"))
            }
        }
    }

    fn try_scan(&self, first: f64, end: f64) -> Result<Vec<f64>, String> {
        let mut out = Vec::new();
        for (seq, arrival) in self.log.scan(seq_of(first)?..seq_of(end)?) {
            out.push(seq as f64);
            out.push(match arrival {
                Arrival::AfterUs(d) => d as f64,
                Arrival::Never => -1.0,
            });
        }
        Ok(out)
    }

    fn try_import(bytes: &[u8]) -> Result<ArrivalStore, String> {
        ArrivalLog::import(bytes, LIGHT_LIMITS)
            .map(ArrivalStore::with_log)
            .map_err(|e| format!("not an arrival log: {e}"))
    }
}

fn js<T>(result: Result<T, String>) -> Result<T, JsError> {
    result.map_err(|e| JsError::new(&e))
}

#[wasm_bindgen]
impl ArrivalStore {
    /// An empty log with the ADR's default layout (PQ 25,000,000, NP 16).
    #[wasm_bindgen(constructor)]
    pub fn new() -> ArrivalStore {
        ArrivalStore::with_log(ArrivalLog::new(Layout::default()))
    }

    /// Put-unless-exists: true when this is the seq's first arrival, false for a duplicate
    /// (counted; the first arrival is kept). `after_us` is microseconds after the epoch.
    pub fn put(&mut self, seq: f64, after_us: f64) -> Result<bool, JsError> {
        js(self.try_put(seq, after_us))
    }

    /// The arrival of `seq` in microseconds after the epoch; -1 for "never"; undefined if none.
    pub fn get(&self, seq: f64) -> Option<f64> {
        let seq = seq_of(seq).ok()?;
        self.log.get(seq).map(|a| match a {
            Arrival::AfterUs(d) => d as f64,
            Arrival::Never => -1.0,
        })
    }

    /// Records stored.
    pub fn len(&self) -> f64 {
        self.log.len() as f64
    }

    pub fn is_empty(&self) -> bool {
        self.log.is_empty()
    }

    /// Puts refused since this log was made or loaded: later copies of known txs.
    pub fn duplicates(&self) -> f64 {
        self.log.duplicates() as f64
    }

    /// Stored cells that failed to load.
    pub fn rejected(&self) -> u32 {
        self.rejected
    }

    /// The cells of seqs in `first..end` to write to storage, flattened (module docs).
    pub fn cells(&self, first: f64, end: f64) -> Result<Vec<u8>, JsError> {
        js(self.try_cells(first, end))
    }

    /// Loads one stored cell (IndexedDB key and value). Hostile or corrupted bytes give an
    /// error (and are counted); a cell for a seq already present is a duplicate (false).
    pub fn load_cell(&mut self, key: &[u8], value: &[u8]) -> Result<bool, JsError> {
        js(self.try_load_cell(key, value))
    }

    /// Range scan in seq order over `first..end`: flat pairs (seq, microseconds after the
    /// epoch, or -1 for "never").
    pub fn scan(&self, first: f64, end: f64) -> Result<Vec<f64>, JsError> {
        js(self.try_scan(first, end))
    }

    /// Bytes of every cell as stored: row key, column and value (no store overhead).
    pub fn stored_bytes(&self) -> f64 {
        self.log
            .cells()
            .iter()
            .map(|c| c.row.len() + c.column.len() + c.value.len())
            .sum::<usize>() as f64
    }

    /// The whole log as the crate's export blob (`TXAL`, version 1).
    pub fn export(&self) -> Vec<u8> {
        self.log.export()
    }

    /// Reads an export blob back (with a light node's limits); bad bytes give an error.
    pub fn import(bytes: &[u8]) -> Result<ArrivalStore, JsError> {
        js(ArrivalStore::try_import(bytes))
    }
}

impl Default for ArrivalStore {
    fn default() -> ArrivalStore {
        ArrivalStore::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (key, value) pairs of a flat cell buffer.
    fn split(flat: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
        let mut out = Vec::new();
        let mut at = 0;
        while at < flat.len() {
            let k = flat[at] as usize;
            let key = flat[at + 1..at + 1 + k].to_vec();
            at += 1 + k;
            let v = flat[at] as usize;
            out.push((key, flat[at + 1..at + 1 + v].to_vec()));
            at += 1 + v;
        }
        out
    }

    #[test]
    fn first_arrival_wins_and_cells_reload() {
        let mut store = ArrivalStore::new();
        for seq in 0..40u32 {
            assert!(store
                .try_put(f64::from(seq), f64::from(seq) * 1_500.0)
                .unwrap());
        }
        assert!(!store.try_put(7.0, 1.0).unwrap());
        assert_eq!(store.get(7.0), Some(10_500.0));
        assert_eq!(store.duplicates(), 1.0);
        let cells = split(&store.try_cells(0.0, 40.0).unwrap());
        assert_eq!(cells.len(), 40);
        assert_eq!(split(&store.try_cells(10.0, 20.0).unwrap()).len(), 10);
        let stored: usize = cells.iter().map(|(k, v)| k.len() + v.len()).sum();
        assert_eq!(store.stored_bytes(), stored as f64);

        let mut back = ArrivalStore::new();
        for (key, value) in cells.iter().rev() {
            assert!(back.try_load_cell(key, value).unwrap());
        }
        assert_eq!(
            back.try_scan(0.0, 1e9).unwrap(),
            store.try_scan(0.0, 1e9).unwrap(),
            "loaded in any order, scans in seq order"
        );
        assert_eq!(
            back.try_scan(5.0, 7.0).unwrap(),
            [5.0, 7_500.0, 6.0, 9_000.0]
        );
        let blob = ArrivalStore::try_import(&store.export()).unwrap();
        assert_eq!(
            blob.try_scan(0.0, 1e9).unwrap(),
            store.try_scan(0.0, 1e9).unwrap()
        );
    }

    #[test]
    fn hostile_cells_are_errors_not_panics() {
        let mut store = ArrivalStore::new();
        store.try_put(3.0, 42.0).unwrap();
        let (key, value) = split(&store.try_cells(0.0, 10.0).unwrap()).remove(0);
        let mut fresh = ArrivalStore::new();
        let bad: [(&[u8], &[u8]); 5] = [
            (&key[..8], &value),      // no column
            (&[0u8; 30], &value),     // key too long
            (&key, &[0xff, 0xc0]),    // VAR_LONG above 64 bits
            (&key, &[0x80, 0x05]),    // non-canonical
            (&[0; 9], &[0x14, 0x00]), // trailing byte
        ];
        for (k, v) in bad {
            assert!(fresh.try_load_cell(k, v).is_err());
        }
        assert_eq!(fresh.rejected(), 5);
        assert!(fresh.is_empty());
        assert!(fresh.try_load_cell(&key, &value).unwrap());
        assert!(ArrivalStore::try_import(b"TXAL\x01garbage").is_err());
        assert!(store.try_put(-1.0, 0.0).is_err());
        assert!(store.try_put(1.5, 0.0).is_err());
        assert!(store.try_put(1.0, f64::NAN).is_err());
        assert_eq!(store.get(f64::INFINITY), None);
    }
}
