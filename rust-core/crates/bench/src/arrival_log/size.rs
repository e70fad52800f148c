//! Bytes per record of three layouts of the same arrival logs.
//!
//! A record is one (node, seq) cell of a closed log: an arrival or a "never". What is counted
//! is the key and value bytes a key-value store keeps for it, nothing of the store's own
//! framing (length fields, timestamps, indexes), which all three layouts would pay alike:
//! - tickets: column VAR_LONG + value (VAR_LONG of the delay, 0 bytes for "never"), plus the
//!   8-byte row key once per row, as a wide-row store (SSTable) keeps it and as the ADR sizes
//!   it. `tickets_flat` counts the row key in every cell instead (a store of flat cell keys).
//! - varlong: the `_transactions` shape: key VAR_LONG(seq), value VAR_LONG(absolute arrival
//!   time in us since the run started), "never" as the 10-byte VAR_LONG of -1.
//! - json: one compact JSON object per node, `{"seq":arrival_us,...}` with `null` for never;
//!   its bytes divided by its records (braces included).
//!
//! Not counted in the tickets figure: the creation time table the delays are relative to, one
//! VAR_LONG per tx shared by all nodes (about 4 bytes / 1,000 nodes = 0.004 bytes a record).

use std::collections::BTreeSet;

use super::RunArrivals;
use arrivals::{varlong, Arrival, Layout};

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sizes {
    pub records: u64,
    pub tickets: u64,
    pub tickets_flat: u64,
    pub varlong: u64,
    pub json: u64,
}

impl Sizes {
    pub fn per_record(&self, bytes: u64) -> f64 {
        bytes as f64 / self.records.max(1) as f64
    }
}

/// Decimal digits of `v`.
pub fn digits(v: u64) -> u64 {
    v.checked_ilog10().map_or(1, |d| u64::from(d) + 1)
}

/// Bytes of `"seq":value` for one record of the JSON object (without the comma).
pub fn json_entry_len(seq: u64, arrival_us: Option<u64>) -> u64 {
    2 + digits(seq) + 1 + arrival_us.map_or(4, digits)
}

/// Sums the three layouts over every node of `run`.
pub fn measure(run: &dyn RunArrivals, layout: Layout) -> Sizes {
    let creation_us = run.creation_us();
    let txs = creation_us.len() as u64;
    // Per seq, the parts that do not depend on the node.
    let column_len: Vec<u8> = (0..txs)
        .map(|s| varlong::len(layout.column(s)) as u8)
        .collect();
    let seq_len: Vec<u8> = (0..txs).map(|s| varlong::len(s) as u8).collect();
    let rows = (0..txs)
        .map(|s| layout.row(s))
        .collect::<BTreeSet<u64>>()
        .len() as u64;
    let never_len = varlong::len(u64::MAX) as u64;

    let mut sizes = Sizes::default();
    let mut arrivals = Vec::new();
    for node in 0..run.nodes() {
        run.node_arrivals(node, &mut arrivals);
        let (mut cells, mut plain, mut json) = (0u64, 0u64, 0u64);
        for (seq, &arrival) in arrivals.iter().enumerate() {
            let creation = creation_us[seq];
            let absolute = arrival.at(creation);
            cells += u64::from(column_len[seq]) + arrival.encoded_len() as u64;
            plain += u64::from(seq_len[seq])
                + match absolute {
                    Some(t) => varlong::len(t) as u64,
                    None => never_len,
                };
            json += json_entry_len(seq as u64, absolute);
        }
        let n = arrivals.len() as u64;
        sizes.records += n;
        sizes.tickets += cells + rows * 8;
        sizes.tickets_flat += cells + n * 8;
        sizes.varlong += plain;
        // Braces and the commas between entries.
        sizes.json += json + 2 + n.saturating_sub(1);
    }
    sizes
}

/// The JSON of one log, as [`measure`] counts it (for checking the count).
pub fn json_of(arrivals: &[Arrival], creation_us: &[u64]) -> String {
    let mut out = String::from("{");
    for (seq, (a, &c)) in arrivals.iter().zip(creation_us).enumerate() {
        if seq > 0 {
            out.push(',');
        }
        match a.at(c) {
            Some(t) => out.push_str(&format!("\"{seq}\":{t}")),
            None => out.push_str(&format!("\"{seq}\":null")),
        }
    }
    out.push('}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arrival_log::synth::{SynthConfig, SynthRun};
    use arrivals::ArrivalLog;

    #[test]
    fn counts_match_real_encodings() {
        let run = SynthRun::generate(SynthConfig {
            nodes: 3,
            txs: 3_000,
            ..SynthConfig::default()
        });
        let layout = Layout::new(1_000, 8).unwrap();
        let sizes = measure(&run, layout);
        let (mut tickets, mut flat, mut plain, mut json) = (0, 0, 0, 0);
        let mut arrivals = Vec::new();
        for node in 0..3 {
            run.node_arrivals(node, &mut arrivals);
            let mut log = ArrivalLog::new(layout);
            for (seq, &a) in arrivals.iter().enumerate() {
                log.put_unless_exists(seq as u64, a);
            }
            let cells = log.cells();
            let rows: BTreeSet<[u8; 8]> = cells.iter().map(|c| c.row).collect();
            let cell_bytes: usize = cells.iter().map(|c| c.column.len() + c.value.len()).sum();
            tickets += cell_bytes + rows.len() * 8;
            flat += cell_bytes + cells.len() * 8;
            for (seq, &a) in arrivals.iter().enumerate() {
                let value = a.at(run.creation_us[seq]).unwrap_or(u64::MAX);
                plain += varlong::encode(seq as u64).len() + varlong::encode(value).len();
            }
            let text = json_of(&arrivals, &run.creation_us);
            assert!(text.contains("null"));
            let parsed: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(parsed.as_object().unwrap().len(), arrivals.len());
            json += text.len();
        }
        assert_eq!(sizes.records, 9_000);
        assert_eq!(sizes.tickets, tickets as u64);
        assert_eq!(sizes.tickets_flat, flat as u64);
        assert_eq!(sizes.varlong, plain as u64);
        assert_eq!(sizes.json, json as u64);
    }
}
