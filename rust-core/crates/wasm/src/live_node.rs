//! The light node's protocol node: `proto::live` (the simulator's state machines on real
//! frames, built from `proto::registry`) with the page's clock and randomness. The page owns the libp2p streams and keys; it
//! hands in frames and takes out frames, deliveries and, for GossipSub, messages to validate.

use crate::guarded;
use crate::layout::MessageClass;
use proto::gossipsub::{GossipsubConfig, OwnMessage, Verdict, SEQNO_LEN};
use proto::live::{self, GossipNode, Live, Outbox, MAX_FRAME_BYTES};
use proto::registry::{Config, ConfigCheck, LiveProtocol, Visit};
use proto::{Counter, StoreLimits, Time, TxId, TxStore, Unit};
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;

/// Highest peer number the page may use (per-peer state lives in vectors).
const MAX_PEERS: u32 = 4096;
/// What a light node keeps of transaction bytes: enough for minutes of a busy network. With the
/// protocols' own budgets (LIVE_CONFIGS in web/p2p/framed.mjs) an engine stays within about
/// 64 MiB of WebAssembly memory whatever its peers send.
const STORE: StoreLimits = StoreLimits {
    max_entries: 1 << 16,
    max_bytes: 32 << 20,
    max_unbacked: 1 << 15,
};

/// Frames refused before the protocol saw them (each also counted by its reason below).
pub const MALFORMED_FRAMES: Counter = Counter {
    name: "lightnode.malformed_frames",
    unit: Unit::Messages,
    about: "Frames refused for any of the reasons counted below; none reaches the protocol.",
    effect: None,
};

pub const BAD_PEER_NUMBER: Counter = Counter {
    name: "lightnode.bad_peer_number",
    unit: Unit::Messages,
    about: "Frames the page handed in for a peer number at or above MAX_PEERS.",
    effect: None,
};

pub const OVERSIZED_FRAMES: Counter = Counter {
    name: "lightnode.oversized_frames",
    unit: Unit::Messages,
    about: "Frames above MAX_FRAME_BYTES, whatever the protocol allows.",
    effect: None,
};

pub const UNDECODABLE_FRAMES: Counter = Counter {
    name: "lightnode.undecodable_frames",
    unit: Unit::Messages,
    about: "Frames the protocol's wire codec could not decode.",
    effect: None,
};

pub const FROM_PEER_NOT_UP: Counter = Counter {
    name: "lightnode.from_peer_not_up",
    unit: Unit::Messages,
    about: "Frames handed in for a peer number that no connected peer holds (a stream that outlived its peer): a reused number starts empty.",
    effect: None,
};

pub const INTERNAL_ERRORS: Counter = Counter {
    name: "lightnode.internal_errors",
    unit: Unit::Messages,
    about: "Frames whose handling panicked inside the node, caught where a panic unwinds (natively; on WebAssembly it traps).",
    effect: None,
};

/// Counted by the host (web/p2p/live-node.mjs), which alone sees a trap: described here with
/// the others.
pub const ENGINE_REBUILT: Counter = Counter {
    name: "lightnode.engine_rebuilt",
    unit: Unit::Events,
    about: "Times the engine trapped (a panic or out of memory on WebAssembly) and the host rebuilt it in a fresh instance: its state starts empty, its peers reconnect, and the peer whose frame did it is cut off.",
    effect: None,
};

/// The light node's own counters, besides the protocol's.
pub const COUNTERS: &[&Counter] = &[
    &live::UNSENDABLE,
    &MALFORMED_FRAMES,
    &BAD_PEER_NUMBER,
    &OVERSIZED_FRAMES,
    &UNDECODABLE_FRAMES,
    &FROM_PEER_NOT_UP,
    &INTERNAL_ERRORS,
    &ENGINE_REBUILT,
];

/// Builds a light node's protocol from the registry, with its config parsed and checked.
struct LiveVisit<'a> {
    config_json: &'a str,
    seed: u64,
    store: TxStore,
}

impl Visit for LiveVisit<'_> {
    type Out = Result<Box<dyn Live>, String>;
    fn visit<P>(self, _: fn(&mut P::Config), _: ConfigCheck<P::Config>) -> Self::Out
    where
        P: proto::Protocol + 'static,
        P::Config: Config,
    {
        Err(not_live())
    }
    fn visit_live<P>(self, adjust: fn(&mut P::Config), check: ConfigCheck<P::Config>) -> Self::Out
    where
        P: LiveProtocol + 'static,
        P::Config: Config,
    {
        let mut cfg: P::Config = config(self.config_json)?;
        adjust(&mut cfg);
        check(&cfg).map_err(|(field, why)| format!("config.{field}: {why}"))?;
        Ok(P::live(&cfg, self.seed, self.store))
    }
}

/// The GossipSub node, for what only GossipSub does (topics, signing, validation).
fn gossip(node: &mut dyn Live) -> Result<&mut GossipNode, JsError> {
    node.gossip()
        .ok_or_else(|| JsError::new("only the GossipSub node publishes on topics"))
}

fn not_live() -> String {
    format!("the light node speaks {}", proto::registry::names(true))
}

fn config<C: DeserializeOwned>(json: &str) -> Result<C, String> {
    let json = if json.trim().is_empty() { "{}" } else { json };
    serde_json::from_str(json).map_err(|e| format!("config: {e}"))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A frame to send, with what it carries.
#[wasm_bindgen(getter_with_clone)]
pub struct OutFrame {
    pub peer: u32,
    pub bytes: Vec<u8>,
    /// Send ahead of frames already queued for the peer (IDONTWANT).
    pub urgent: bool,
    pub info: FrameInfo,
}

/// What a frame carries (typed, so the page never parses names).
#[wasm_bindgen(getter_with_clone)]
#[derive(Clone)]
pub struct FrameInfo {
    /// Message kinds in order: one for CAT and Strokkur, one per entry of a GossipSub RPC.
    pub kinds: Vec<String>,
    /// What each of those messages does.
    pub classes: Vec<MessageClass>,
    /// GossipSub: each entry's topic, as far as this node knows ("" if not); empty otherwise.
    pub topics: Vec<String>,
    /// Bytes of transaction payload.
    pub payload: u32,
    /// SHA-256 (hex) of each full transaction carried.
    pub txs: Vec<String>,
}

impl From<live::FrameInfo> for FrameInfo {
    fn from(i: live::FrameInfo) -> FrameInfo {
        FrameInfo {
            kinds: i.kinds.iter().map(|k| k.to_string()).collect(),
            classes: i.classes.into_iter().map(MessageClass::from).collect(),
            topics: i.topics,
            payload: i.payload,
            txs: i.txs.iter().map(|h| hex(h)).collect(),
        }
    }
}

/// A transaction accepted for the first time.
#[wasm_bindgen(getter_with_clone)]
pub struct Delivery {
    /// SHA-256 of its bytes, hex.
    pub hash: String,
    /// The GossipSub topic it came on ("" for CAT and Strokkur).
    pub topic: String,
    pub data: Vec<u8>,
}

/// A GossipSub message for the page to judge, then `validated(handle, verdict)`.
#[wasm_bindgen(getter_with_clone)]
pub struct Validation {
    pub handle: f64,
    pub topic: String,
    pub data: Vec<u8>,
    /// What a StrictSign signature covers.
    pub signable: Vec<u8>,
    pub signature: Option<Vec<u8>>,
    /// The author's peer id (multihash bytes).
    pub from: Option<Vec<u8>>,
    /// The author's public key in protobuf form, if the message names it.
    pub public_key: Option<Vec<u8>>,
}

#[wasm_bindgen]
pub struct LiveNode {
    node: Box<dyn Live>,
    out: Outbox,
    /// The page's clock at creation: protocol time counts from there.
    epoch_ms: f64,
    /// Which peer numbers a connected peer holds (peer_up to peer_down).
    up: Vec<bool>,
    /// Frames starting with these bytes make the engine panic (`set_trap_for_test`).
    trap_on: Option<Vec<u8>>,
}

#[wasm_bindgen]
impl LiveNode {
    /// `protocol` is "cat", "strokkur" or "gossipsub"; `config_json` its options (as in a
    /// scenario); `seed` comes from the page's real randomness; `now_ms` is the page's clock.
    #[wasm_bindgen(constructor)]
    pub fn new(
        protocol: &str,
        config_json: &str,
        seed: u64,
        now_ms: f64,
    ) -> Result<LiveNode, JsError> {
        guarded("LiveNode", || {
            let visit = LiveVisit {
                config_json,
                seed,
                store: TxStore::new(STORE),
            };
            let node = proto::registry::resolve(protocol, visit)
                .unwrap_or_else(|| Err(not_live()))
                .map_err(|e| format!("`{protocol}`: {e}"))?;
            Ok(LiveNode {
                node,
                out: Outbox::default(),
                epoch_ms: now_ms,
                up: Vec::new(),
                trap_on: None,
            })
        })
    }

    fn time(&self, now_ms: f64) -> Time {
        Time(((now_ms - self.epoch_ms).max(0.0) * 1000.0) as u64)
    }

    /// Runs one step on the engine and collects what it asked for.
    fn run<T>(
        &mut self,
        what: &str,
        now_ms: f64,
        f: impl FnOnce(&mut dyn Live, Time) -> Result<T, String>,
    ) -> Result<T, JsError> {
        let now = self.time(now_ms);
        let (node, out) = (&mut self.node, &mut self.out);
        guarded(what, || {
            let result = f(node.as_mut(), now);
            node.drain(out);
            result
        })
    }

    fn check_peer(peer: u32) -> Result<(), JsError> {
        if peer >= MAX_PEERS {
            return Err(JsError::new(&format!(
                "peer number {peer} is above {MAX_PEERS}"
            )));
        }
        Ok(())
    }

    /// A peer connected; `protocol_id` is the protocol its stream negotiated (GossipSub picks
    /// the version from it; "" for the engine's own).
    pub fn peer_up(&mut self, peer: u32, now_ms: f64, protocol_id: &str) -> Result<(), JsError> {
        Self::check_peer(peer)?;
        self.run("peer_up", now_ms, |e, now| {
            e.peer_up(now, peer, protocol_id)
        })?;
        self.set_up(peer, true);
        Ok(())
    }

    pub fn peer_down(&mut self, peer: u32, now_ms: f64) -> Result<(), JsError> {
        Self::check_peer(peer)?;
        self.set_up(peer, false);
        self.run("peer_down", now_ms, |e, now| {
            e.peer_down(now, peer);
            Ok(())
        })
    }

    fn set_up(&mut self, peer: u32, up: bool) {
        let i = peer as usize;
        if self.up.len() <= i {
            self.up.resize(i + 1, false);
        }
        self.up[i] = up;
    }

    fn is_up(&self, peer: u32) -> bool {
        self.up.get(peer as usize).copied().unwrap_or(false)
    }

    /// One frame from a peer: what it carries, or undefined if it is malformed or oversized
    /// (counted, never thrown).
    pub fn on_frame(&mut self, peer: u32, bytes: &[u8], now_ms: f64) -> Option<FrameInfo> {
        let bad = |out: &mut Outbox, why: &'static Counter| {
            out.count(&MALFORMED_FRAMES, 1);
            out.count(why, 1);
            None
        };
        if peer >= MAX_PEERS {
            return bad(&mut self.out, &BAD_PEER_NUMBER);
        }
        if bytes.len() > MAX_FRAME_BYTES {
            return bad(&mut self.out, &OVERSIZED_FRAMES);
        }
        if !self.is_up(peer) {
            return bad(&mut self.out, &FROM_PEER_NOT_UP);
        }
        let trap = self.trap_on.as_ref().is_some_and(|p| bytes.starts_with(p));
        let outcome = self.run("on_frame", now_ms, |e, now| {
            if trap {
                panic!("a frame asked for by set_trap_for_test");
            }
            Ok(e.frame(now, peer, bytes))
        });
        match outcome {
            Ok(Ok(info)) => Some(info.into()),
            Ok(Err(_)) => bad(&mut self.out, &UNDECODABLE_FRAMES),
            Err(_) => bad(&mut self.out, &INTERNAL_ERRORS),
        }
    }

    /// A transaction created here from its bytes (GossipSub: unsigned, on the first topic);
    /// returns its SHA-256 as hex.
    pub fn submit(&mut self, bytes: &[u8], now_ms: f64) -> Result<String, JsError> {
        self.run("submit", now_ms, |e, now| e.submit(now, bytes))
            .map(|h| hex(&h))
    }

    /// The largest transaction this node sends and accepts (its protocol's cap under its
    /// config, within the live frame cap).
    pub fn max_tx_bytes(&self) -> u32 {
        self.node.max_tx_bytes() as u32
    }

    /// From now on a frame that starts with `prefix` makes the engine panic (a trap on
    /// WebAssembly): how hosts test that they rebuild an engine that trapped and cut off the
    /// peer whose frame did it. Only the host can call this; no peer can.
    pub fn set_trap_for_test(&mut self, prefix: &[u8]) {
        self.trap_on = (!prefix.is_empty()).then(|| prefix.to_vec());
    }

    /// GossipSub: the bytes a StrictSign signature of this message covers.
    pub fn signable(
        &mut self,
        topic: &str,
        data: &[u8],
        from: &[u8],
        seqno: &[u8],
    ) -> Result<Vec<u8>, JsError> {
        Ok(gossip(self.node.as_mut())?.signable(topic, data, from, seqno))
    }

    /// GossipSub: publishes on `topic`; under StrictSign with the page's `from` (its peer id),
    /// an 8-byte `seqno` and its `signature` over `signable`. Returns the data's SHA-256 (hex).
    pub fn publish(
        &mut self,
        topic: &str,
        data: &[u8],
        now_ms: f64,
        from: Option<Vec<u8>>,
        seqno: Option<Vec<u8>>,
        signature: Option<Vec<u8>>,
    ) -> Result<String, JsError> {
        let now = self.time(now_ms);
        let signed = match (&from, &seqno, &signature) {
            (Some(from), Some(seqno), Some(signature)) => Some(OwnMessage {
                from,
                seqno: <[u8; SEQNO_LEN]>::try_from(&seqno[..])
                    .map_err(|_| JsError::new("seqno must be 8 bytes"))?,
                signature,
            }),
            (None, None, None) => None,
            _ => {
                return Err(JsError::new(
                    "a signed message needs from, seqno and signature",
                ))
            }
        };
        let gossip = gossip(self.node.as_mut())?;
        let out = &mut self.out;
        let hash = guarded("publish", || {
            let hash = gossip.publish(now, topic, data, signed);
            gossip.drain(out);
            hash
        })?;
        Ok(hex(&hash))
    }

    /// GossipSub: connected peers subscribed to a topic.
    pub fn topic_peers(&mut self, topic: &str) -> Result<u32, JsError> {
        Ok(gossip(self.node.as_mut())?.topic_peers(topic).0 as u32)
    }

    /// GossipSub: peers in our mesh for a topic.
    pub fn mesh_peers(&mut self, topic: &str) -> Result<u32, JsError> {
        Ok(gossip(self.node.as_mut())?.topic_peers(topic).1 as u32)
    }

    /// GossipSub: the page's verdict ("accept", "reject" or "ignore") on a message it was
    /// asked to validate.
    pub fn validated(&mut self, handle: f64, verdict: &str, now_ms: f64) -> Result<(), JsError> {
        let verdict = match verdict {
            "accept" => Verdict::Accept,
            "reject" => Verdict::Reject,
            "ignore" => Verdict::Ignore,
            other => {
                return Err(JsError::new(&format!(
                    "a verdict is accept, reject or ignore, not `{other}`"
                )))
            }
        };
        let now = self.time(now_ms);
        let gossip = gossip(self.node.as_mut())?;
        let out = &mut self.out;
        guarded("validated", || {
            gossip.validated(now, TxId(handle as u64), verdict);
            gossip.drain(out);
            Ok(())
        })
    }

    /// Fire timers due by `now_ms`.
    pub fn poll(&mut self, now_ms: f64) -> Result<(), JsError> {
        self.run("poll", now_ms, |e, now| {
            e.poll(now);
            Ok(())
        })
    }

    /// When to call `poll` next (page clock, ms), if anything is pending.
    pub fn next_deadline_ms(&mut self) -> Option<f64> {
        self.node
            .next_deadline()
            .map(|t| self.epoch_ms + t.0 as f64 / 1000.0)
    }

    /// Frames to send, in order.
    pub fn take_frames(&mut self) -> Vec<OutFrame> {
        self.out
            .frames
            .drain(..)
            .map(|f| OutFrame {
                peer: f.peer,
                bytes: f.bytes,
                urgent: f.urgent,
                info: f.info.into(),
            })
            .collect()
    }

    /// Transactions accepted for the first time since the last call.
    pub fn take_delivered(&mut self) -> Vec<Delivery> {
        self.out
            .delivered
            .drain(..)
            .map(|d| Delivery {
                hash: hex(&d.hash),
                topic: d.topic,
                data: d.data,
            })
            .collect()
    }

    /// GossipSub messages to validate since the last call.
    pub fn take_validations(&mut self) -> Vec<Validation> {
        self.out
            .validations
            .drain(..)
            .map(|v| Validation {
                handle: v.handle.0 as f64,
                topic: v.topic,
                data: v.data,
                signable: v.signable,
                signature: v.signature,
                from: v.from,
                public_key: v.public_key,
            })
            .collect()
    }

    /// Peers the protocol wants disconnected (for example, for oversized txs).
    pub fn take_disconnects(&mut self) -> Vec<u32> {
        std::mem::take(&mut self.out.disconnects)
    }

    /// Every counter so far, as a JSON object.
    pub fn counters(&self) -> String {
        serde_json::json!(self.out.counters).to_string()
    }
}

/// The largest frame a live node reads from a peer: hosts read streams with this limit.
#[wasm_bindgen]
pub fn max_frame_bytes() -> u32 {
    MAX_FRAME_BYTES as u32
}

/// The protocol ids a GossipSub node of this version offers, best first.
#[wasm_bindgen]
pub fn gossipsub_protocol_ids(version: &str) -> Result<Vec<String>, JsError> {
    let cfg: GossipsubConfig = config(&format!("{{\"version\": {}}}", serde_json::json!(version)))
        .map_err(|e| JsError::new(&e))?;
    Ok(cfg
        .version
        .protocol_ids()
        .into_iter()
        .map(String::from)
        .collect())
}
