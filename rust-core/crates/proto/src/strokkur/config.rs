//! Strokkur's parameters: Table 1 of seed `004` and the reference node's defaults (seeds
//! README), plus the bounds txcast adds on what a peer can make a node do.

use ltcode::fragment::FragmentParams;
use ltcode::Params;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct StrokkurConfig {
    /// k: the coding window holds the node's k most recent symbols; the largest codeword degree.
    pub window_symbols: u32,
    /// m: the decoder peels with the last m symbols it learned (reference: 262,144).
    pub peel_window_symbols: u32,
    /// Robust Soliton c.
    pub soliton_c: f64,
    /// Robust Soliton delta.
    pub soliton_delta: f64,
    /// tau: a codeword not decoded this long after arrival is a loss for its sender.
    pub decode_timeout_ms: f64,
    /// gamma: the loss rate each sender aims for at each peer.
    pub target_loss: f64,
    /// alpha: every codeword sent lowers the rate by alpha*gamma codewords/s, every loss
    /// reported raises it by alpha (the reference node's steps; per second that is the paper's
    /// r * alpha * (P_loss - gamma)).
    pub rate_step: f64,
    /// Scale both steps by the current rate (r*alpha*gamma per codeword, r*alpha per loss), as
    /// the §4.2 prose reads. Off by default: per second that moves the rate r times faster
    /// than the paper's own fluid model, and the network swings (see `rate`).
    pub proportional_steps: bool,
    /// Floor of the per-peer codeword rate.
    pub min_rate_per_s: f64,
    /// Per-peer codeword rate when the peer's key arrives. Not given by the paper or the seeds
    /// README; a start below what the load needs loses txs until enough losses have raised it
    /// (measured: a quarter of the first seconds' txs from 10/s), a start above it costs
    /// bandwidth until sending has lowered it.
    pub initial_rate_per_s: f64,
    /// Ceiling of the per-peer rate (keeps a runaway controller finite).
    pub max_rate_per_s: f64,
    /// Reported losses cannot push the rate to a peer above this multiple of the rate new
    /// symbols enter the node's window: what that peer would need if it heard from nobody else
    /// (`004` §4.2, the bound on peers that lie about losses). 0 = no bound.
    pub rate_cap_per_inflow: f64,
    /// l: bytes per symbol. A tx of exactly this size travels as one symbol; other sizes are
    /// split into fragments of this size (§4.4).
    pub symbol_bytes: u32,
    /// Longest tx, in fragments, that a node reassembles.
    pub max_fragments: u32,
    /// Undecoded codewords held at most (oldest dropped as losses).
    pub max_pending_codewords: u32,
    /// Undecoded codewords held at most from one peer (beyond, its newest is dropped as a
    /// loss): a peer sending codewords that never decode cannot crowd out the others.
    pub max_pending_codewords_per_peer: u32,
    /// A peer that connects gets the newest this many symbols of the peeling window hashed
    /// under its key (an older one it codes is decoded again, `strokkur.relearned`): bounds
    /// the work each connection costs (m hashes otherwise).
    pub rekey_symbols: u32,
    /// Txs remembered as known; beyond this the oldest are forgotten (one decoded again
    /// later is delivered again).
    pub max_known_txs: u32,
    /// Pause codeword streams once no new symbol entered the window for this long, and resume
    /// with the next one (txcast's addition: the paper's nodes keep coding a stale window).
    /// 0 = never pause.
    pub idle_after_ms: f64,
}

impl Default for StrokkurConfig {
    fn default() -> Self {
        StrokkurConfig {
            window_symbols: 50,
            peel_window_symbols: 262_144,
            soliton_c: 0.03,
            soliton_delta: 0.5,
            decode_timeout_ms: 500.0,
            target_loss: 0.02,
            rate_step: 0.1,
            proportional_steps: false,
            min_rate_per_s: 1.0,
            initial_rate_per_s: 100.0,
            max_rate_per_s: 100_000.0,
            rate_cap_per_inflow: 3.0,
            symbol_bytes: 128,
            max_fragments: 1024,
            max_pending_codewords: 65_536,
            max_pending_codewords_per_peer: 65_536,
            rekey_symbols: 262_144,
            max_known_txs: 1 << 18,
            idle_after_ms: 500.0,
        }
    }
}

/// A config value out of range: the field and why.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigError {
    pub field: &'static str,
    pub why: String,
}

impl StrokkurConfig {
    /// The codec parameters these settings give.
    pub fn params(&self) -> Params {
        Params {
            window: self.window_symbols as usize,
            c: self.soliton_c,
            delta: self.soliton_delta,
            peel_window: self.peel_window_symbols as usize,
            timeout_us: (self.decode_timeout_ms.max(0.0) * 1000.0).round() as u64,
            symbol_len: self.symbol_bytes as usize,
            max_pending: self.max_pending_codewords as usize,
            form: ltcode::Form::Bytes,
            max_pending_per_sender: self.max_pending_codewords_per_peer as usize,
            rekey_window: self.rekey_symbols as usize,
        }
    }

    pub fn fragment_params(&self) -> FragmentParams {
        FragmentParams {
            symbol_len: self.symbol_bytes as usize,
            max_fragments: self.max_fragments as usize,
            // Enough room for a few windows' worth of partly decoded txs.
            capacity: (self.window_symbols as usize * 64).max(1024),
        }
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        let bad = |field: &'static str, why: &str| {
            Err(ConfigError {
                field,
                why: why.to_string(),
            })
        };
        if !(self.decode_timeout_ms.is_finite() && self.decode_timeout_ms > 0.0) {
            return bad("decode_timeout_ms", "must be a positive number");
        }
        if !(self.target_loss > 0.0 && self.target_loss < 1.0) {
            return bad("target_loss", "must be in (0, 1)");
        }
        if !(self.rate_step > 0.0 && self.rate_step < 1.0) {
            return bad("rate_step", "must be in (0, 1)");
        }
        let rates = [
            ("min_rate_per_s", self.min_rate_per_s),
            ("initial_rate_per_s", self.initial_rate_per_s),
            ("max_rate_per_s", self.max_rate_per_s),
        ];
        if let Some((field, _)) = rates.iter().find(|(_, r)| !(r.is_finite() && *r > 0.0)) {
            return bad(field, "rates must be positive numbers");
        }
        if self.min_rate_per_s > self.max_rate_per_s || self.max_rate_per_s > 1e6 {
            return bad(
                "max_rate_per_s",
                "must be at least min_rate_per_s and at most 1e6",
            );
        }
        if !(self.rate_cap_per_inflow.is_finite() && self.rate_cap_per_inflow >= 0.0) {
            return bad("rate_cap_per_inflow", "must be a number >= 0");
        }
        if !(self.idle_after_ms.is_finite() && self.idle_after_ms >= 0.0) {
            return bad("idle_after_ms", "must be a number >= 0");
        }
        if self.max_fragments == 0 {
            return bad("max_fragments", "must be at least 1");
        }
        if self.max_pending_codewords_per_peer == 0 {
            return bad("max_pending_codewords_per_peer", "must be at least 1");
        }
        if self.max_known_txs == 0 {
            return bad("max_known_txs", "must be at least 1");
        }
        if let Err(e) = self.params().validate() {
            return Err(ConfigError {
                field: "window_symbols",
                why: e.to_string(),
            });
        }
        if self.symbol_bytes as usize <= ltcode::fragment::HEADER_LEN {
            return bad("symbol_bytes", "must exceed the 35-byte fragment header");
        }
        Ok(())
    }
}
