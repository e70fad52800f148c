//! The light node's protocol engine: the same sans-IO state machines as the simulator, driven
//! by `proto::Driver` with the page's real clock and real randomness. The page owns the
//! libp2p streams; it hands in frames and takes out frames to send.

use crate::guarded;
use proto::cat::{Cat, CatConfig, CatMsg};
use proto::strokkur::{Strokkur, StrokkurConfig, StrokkurMsg};
use proto::wire::WireError;
use proto::{
    stream, Driver, Input, NodeSetup, Output, PeerIdx, Protocol, Rng, Time, Tx, TxId, WireMsg,
};
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;

/// Largest frame accepted from a peer, whatever the protocol allows.
const MAX_FRAME_BYTES: usize = 2 << 20;
/// Highest peer number the page may use (per-peer state lives in vectors).
const MAX_PEERS: u32 = 4096;

/// A protocol the light node can speak, with its wire codec.
trait Speaks: Protocol + Sized {
    fn decode(config: &Self::Config, bytes: &[u8]) -> Result<Self::Msg, WireError>;
    fn encode(msg: &Self::Msg, out: &mut Vec<u8>);
}

impl Speaks for Cat {
    fn decode(config: &CatConfig, bytes: &[u8]) -> Result<CatMsg, WireError> {
        CatMsg::decode(bytes, config.max_tx_bytes)
    }
    fn encode(msg: &CatMsg, out: &mut Vec<u8>) {
        msg.encode(out)
    }
}

impl Speaks for Strokkur {
    fn decode(_: &StrokkurConfig, bytes: &[u8]) -> Result<StrokkurMsg, WireError> {
        StrokkurMsg::decode(bytes, &ltcode::wire::Limits::default())
    }
    fn encode(msg: &StrokkurMsg, out: &mut Vec<u8>) {
        msg.encode(out)
    }
}

/// One protocol's driver and config, behind an object-safe face.
struct Engine<P: Speaks> {
    driver: Driver<P>,
    config: P::Config,
}

trait AnyEngine {
    fn handle(&mut self, now: Time, input: EngineInput<'_>) -> Result<(), WireError>;
    fn poll(&mut self, now: Time);
    fn next_deadline(&self) -> Option<Time>;
    fn drain(&mut self, out: &mut Outbox);
    /// What a frame carries, for drawing it: kind, payload bytes, the full tx if any.
    fn describe(&self, bytes: &[u8]) -> Option<FrameInfo>;
}

/// A decoded frame's face: enough to draw it as payload or control.
struct FrameInfo {
    kind: &'static str,
    payload: usize,
    tx: Option<TxId>,
}

enum EngineInput<'a> {
    PeerUp(u32),
    PeerDown(u32),
    Frame(u32, &'a [u8]),
    Submit(Tx),
}

impl<P: Speaks> AnyEngine for Engine<P> {
    fn handle(&mut self, now: Time, input: EngineInput<'_>) -> Result<(), WireError> {
        let input = match input {
            EngineInput::PeerUp(p) => Input::PeerUp(PeerIdx(p)),
            EngineInput::PeerDown(p) => Input::PeerDown(PeerIdx(p)),
            EngineInput::Submit(tx) => Input::Submit(tx),
            EngineInput::Frame(p, bytes) => {
                Input::Message(PeerIdx(p), P::decode(&self.config, bytes)?)
            }
        };
        self.driver.handle_input(now, input);
        Ok(())
    }
    fn poll(&mut self, now: Time) {
        self.driver.poll_timers(now);
    }
    fn next_deadline(&self) -> Option<Time> {
        self.driver.next_deadline()
    }
    fn describe(&self, bytes: &[u8]) -> Option<FrameInfo> {
        let msg = P::decode(&self.config, bytes).ok()?;
        Some(FrameInfo {
            kind: msg.kind(),
            payload: msg.payload_len(),
            tx: msg.full_tx(),
        })
    }
    fn drain(&mut self, out: &mut Outbox) {
        for output in self.driver.drain() {
            match output {
                Output::Send { to, msg } => {
                    let mut bytes = Vec::new();
                    P::encode(&msg, &mut bytes);
                    out.frames.push((to.0, bytes));
                }
                Output::Deliver(tx) => out.delivered.push(tx),
                Output::Disconnect(p) => out.disconnects.push(p.0),
                Output::Count(name, n) => *out.counters.entry(name).or_default() += n,
            }
        }
    }
}

#[derive(Default)]
struct Outbox {
    frames: Vec<(u32, Vec<u8>)>,
    delivered: Vec<Tx>,
    disconnects: Vec<u32>,
    counters: BTreeMap<&'static str, u64>,
}

fn engine<P: Speaks + 'static>(config_json: &str, seed: u64) -> Result<Box<dyn AnyEngine>, String>
where
    P::Config: DeserializeOwned,
{
    let config: P::Config = serde_json::from_str(if config_json.trim().is_empty() {
        "{}"
    } else {
        config_json
    })
    .map_err(|e| format!("config: {e}"))?;
    let driver = Driver::new(&config, &NodeSetup::default(), Rng::from_seed(seed));
    Ok(Box::new(Engine::<P> { driver, config }))
}

#[wasm_bindgen]
pub struct LightNode {
    engine: Box<dyn AnyEngine>,
    out: Outbox,
    ids: Rng,
    /// The page's clock at creation: protocol time counts from there.
    epoch_ms: f64,
}

#[wasm_bindgen]
impl LightNode {
    /// `protocol` is "cat" or "strokkur"; `config_json` its options (as in a scenario);
    /// `seed` comes from the page's real randomness; `now_ms` is the page's clock.
    #[wasm_bindgen(constructor)]
    pub fn new(
        protocol: &str,
        config_json: &str,
        seed: u64,
        now_ms: f64,
    ) -> Result<LightNode, JsError> {
        guarded("LightNode", || {
            let engine = match protocol {
                "cat" => engine::<Cat>(config_json, seed)?,
                "strokkur" => engine::<Strokkur>(config_json, seed)?,
                other => {
                    return Err(format!(
                        "the light node speaks cat or strokkur, not `{other}`"
                    ))
                }
            };
            Ok(LightNode {
                engine,
                out: Outbox::default(),
                ids: Rng::derive(seed, stream::WORKLOAD, 0),
                epoch_ms: now_ms,
            })
        })
    }

    fn time(&self, now_ms: f64) -> Time {
        Time(((now_ms - self.epoch_ms).max(0.0) * 1000.0) as u64)
    }

    fn run(&mut self, now_ms: f64, input: EngineInput<'_>) -> Result<(), WireError> {
        let now = self.time(now_ms);
        let result = self.engine.handle(now, input);
        self.engine.drain(&mut self.out);
        result
    }

    fn check_peer(peer: u32) -> Result<(), JsError> {
        if peer >= MAX_PEERS {
            return Err(JsError::new(&format!(
                "peer number {peer} is above {MAX_PEERS}"
            )));
        }
        Ok(())
    }

    pub fn peer_up(&mut self, peer: u32, now_ms: f64) -> Result<(), JsError> {
        Self::check_peer(peer)?;
        guarded("peer_up", || {
            self.run(now_ms, EngineInput::PeerUp(peer))
                .map_err(|e| e.to_string())
        })
    }

    pub fn peer_down(&mut self, peer: u32, now_ms: f64) -> Result<(), JsError> {
        Self::check_peer(peer)?;
        guarded("peer_down", || {
            self.run(now_ms, EngineInput::PeerDown(peer))
                .map_err(|e| e.to_string())
        })
    }

    /// One frame from a peer. A malformed or oversized frame is counted and dropped: returns
    /// false, never throws.
    pub fn on_frame(&mut self, peer: u32, bytes: &[u8], now_ms: f64) -> bool {
        let bad = |out: &mut Outbox, why: &'static str| {
            *out.counters
                .entry("lightnode.malformed_frames")
                .or_default() += 1;
            *out.counters.entry(why).or_default() += 1;
            false
        };
        if peer >= MAX_PEERS {
            return bad(&mut self.out, "lightnode.bad_peer_number");
        }
        if bytes.len() > MAX_FRAME_BYTES {
            return bad(&mut self.out, "lightnode.oversized_frames");
        }
        let outcome = guarded("on_frame", || {
            Ok(self.run(now_ms, EngineInput::Frame(peer, bytes)))
        });
        match outcome {
            Ok(Ok(())) => true,
            Ok(Err(_)) => bad(&mut self.out, "lightnode.undecodable_frames"),
            Err(_) => bad(&mut self.out, "lightnode.internal_errors"),
        }
    }

    /// Create a tx of `len` bytes here; returns its id as 16 hex digits.
    pub fn submit(&mut self, len: u32, now_ms: f64) -> Result<String, JsError> {
        if len == 0 || len > 1 << 20 {
            return Err(JsError::new("a tx is between 1 byte and 1 MiB"));
        }
        let tx = Tx {
            id: TxId(self.ids.next_u64()),
            len,
        };
        guarded("submit", || {
            self.run(now_ms, EngineInput::Submit(tx))
                .map_err(|e| e.to_string())
        })?;
        Ok(format!("{:016x}", tx.id.0))
    }

    /// Fire timers due by `now_ms`.
    pub fn poll(&mut self, now_ms: f64) {
        let now = self.time(now_ms);
        self.engine.poll(now);
        self.engine.drain(&mut self.out);
    }

    /// When to call `poll` next (page clock, ms), if anything is pending.
    pub fn next_deadline_ms(&self) -> Option<f64> {
        self.engine
            .next_deadline()
            .map(|t| self.epoch_ms + t.0 as f64 / 1000.0)
    }

    /// Frames to send, flattened: [peer u32 LE][length u32 LE][bytes] repeated.
    pub fn take_frames(&mut self) -> Vec<u8> {
        let mut flat = Vec::new();
        for (peer, bytes) in self.out.frames.drain(..) {
            flat.extend_from_slice(&peer.to_le_bytes());
            flat.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
            flat.extend_from_slice(&bytes);
        }
        flat
    }

    /// Txs accepted for the first time since the last call, as hex ids.
    pub fn take_delivered(&mut self) -> Vec<String> {
        self.out
            .delivered
            .drain(..)
            .map(|tx| format!("{:016x}", tx.id.0))
            .collect()
    }

    /// Peers the protocol wants disconnected (for example, for oversized txs).
    pub fn take_disconnects(&mut self) -> Vec<u32> {
        std::mem::take(&mut self.out.disconnects)
    }

    /// What a frame (as sent or received) carries: `"kind payload_bytes tx"`, with tx the full
    /// tx's hex id or `-`; empty when the frame does not decode. Never throws.
    pub fn frame_info(&self, bytes: &[u8]) -> String {
        if bytes.len() > MAX_FRAME_BYTES {
            return String::new();
        }
        let info = guarded("frame_info", || Ok(self.engine.describe(bytes)));
        match info {
            Ok(Some(f)) => {
                let tx =
                    f.tx.map_or_else(|| "-".to_string(), |id| format!("{:016x}", id.0));
                format!("{} {} {}", f.kind, f.payload, tx)
            }
            _ => String::new(),
        }
    }

    /// Every counter so far, as a JSON object.
    pub fn counters(&self) -> String {
        serde_json::json!(self.out.counters).to_string()
    }
}
