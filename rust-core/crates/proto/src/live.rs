//! A protocol on a real network: frames in, frames out, with the same state machine as the
//! simulator behind a `Driver`. The host (the page's light node, the Node relay) owns streams,
//! keys, the clock and randomness; it hands in frames and the time, and carries out what comes
//! out (`Outbox`). Everything here is plain Rust, so it is tested natively and fuzzed; the
//! WebAssembly crate only wraps it.
//!
//! - CAT and Strokkur (`Framed`): one message per frame, content addressed by SHA-256.
//! - GossipSub (`GossipNode`): libp2p pubsub RPCs, batched per peer, with the version
//!   negotiated per peer, and validation (signatures, application rules) by the host.

use crate::cat::{Cat, CatConfig, CatMsg};
use crate::content::sha256;
use crate::gossipsub::{
    counters, Check, Codec, Gossipsub, GossipsubConfig, Limits, MessageParts, OwnMessage, Rpc,
    TopicId, TopicNames, Verdict, Version,
};
use crate::strokkur::{Strokkur, StrokkurMsg};
use crate::wire::WireError;
use crate::{
    Counter, Driver, Input, MsgClass, NodeSetup, Output, PeerIdx, Protocol, Rng, Time, Tx, TxId,
    TxStore, Unit, WireMsg,
};
use std::collections::BTreeMap;

/// Largest frame on the live path: what hosts read from a peer, and more than any frame a
/// live node sends (each protocol's largest tx is held to it, `Live::max_tx_bytes`).
pub const MAX_FRAME_BYTES: usize = 1 << 20;

/// Room kept in a frame for what surrounds a tx: CAT's framing (11 bytes at 1 MiB), a
/// GossipSub message's envelope and RPC framing (from, seqno, topic, signature, key).
const FRAME_ROOM: usize = 1024;

/// A frame to send.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    pub peer: u32,
    pub bytes: Vec<u8>,
    /// Goes ahead of frames already queued for the peer (IDONTWANT).
    pub urgent: bool,
    pub info: FrameInfo,
}

/// What a frame carries, for drawing and counting it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FrameInfo {
    /// Message kinds, in order (one for CAT and Strokkur, one per entry of an RPC).
    pub kinds: Vec<&'static str>,
    /// What each of those messages does.
    pub classes: Vec<MsgClass>,
    /// GossipSub: the topic of each entry, as far as this node knows ("" if not); empty for
    /// CAT and Strokkur.
    pub topics: Vec<String>,
    /// Bytes of transaction payload among the frame's bytes.
    pub payload: u32,
    /// The SHA-256 of each full transaction the frame carries.
    pub txs: Vec<[u8; 32]>,
}

/// A transaction accepted for the first time.
#[derive(Clone, Debug, PartialEq)]
pub struct Delivery {
    /// SHA-256 of the transaction's bytes (the same tx has the same hash on every protocol).
    pub hash: [u8; 32],
    /// The GossipSub topic it came on ("" for CAT and Strokkur).
    pub topic: String,
    pub data: Vec<u8>,
}

/// A GossipSub message the host must judge (then `GossipNode::validated`).
#[derive(Clone, Debug, PartialEq)]
pub struct Validation {
    pub handle: TxId,
    pub topic: String,
    pub data: Vec<u8>,
    /// Under StrictSign: what the signature covers, the signature, the author's peer id and
    /// its public key in protobuf form (from `key`, or inlined in the peer id).
    pub signable: Vec<u8>,
    pub signature: Option<Vec<u8>>,
    pub from: Option<Vec<u8>>,
    pub public_key: Option<Vec<u8>>,
}

/// The light node's own counter here; the protocol's come through the driver.
pub const UNSENDABLE: Counter = Counter {
    name: "lightnode.unsendable",
    unit: Unit::Messages,
    about: "Messages or RPC entries not sent: the store no longer holds the bytes they name.",
    effect: None,
};

/// What the host must carry out.
#[derive(Default)]
pub struct Outbox {
    pub frames: Vec<Frame>,
    pub delivered: Vec<Delivery>,
    pub disconnects: Vec<u32>,
    pub validations: Vec<Validation>,
    /// Counts by counter name, as reports key them.
    pub counters: BTreeMap<&'static str, u64>,
}

impl Outbox {
    pub fn count(&mut self, counter: &'static Counter, n: u64) {
        if n > 0 {
            *self.counters.entry(counter.name).or_default() += n;
        }
    }
}

/// What every live protocol does.
pub trait Live {
    /// A peer connected; `protocol_id` is the protocol its stream negotiated ("" if one).
    fn peer_up(&mut self, now: Time, peer: u32, protocol_id: &str) -> Result<(), String>;
    fn peer_down(&mut self, now: Time, peer: u32);
    /// One frame from a peer; an error if it does not decode (the host counts it).
    fn frame(&mut self, now: Time, peer: u32, bytes: &[u8]) -> Result<FrameInfo, WireError>;
    /// A transaction created here from its bytes; returns its SHA-256.
    fn submit(&mut self, now: Time, bytes: &[u8]) -> Result<[u8; 32], String>;
    /// The largest transaction this node sends and accepts: the protocol's own cap, within
    /// `MAX_FRAME_BYTES`.
    fn max_tx_bytes(&self) -> usize;
    fn poll(&mut self, now: Time);
    fn next_deadline(&mut self) -> Option<Time>;
    /// Moves what the protocol asked for since the last call into `out`.
    fn drain(&mut self, out: &mut Outbox);
    /// The GossipSub node, for what only GossipSub does (topics, signing, validation).
    fn gossip(&mut self) -> Option<&mut GossipNode> {
        None
    }
}

/// A protocol whose frames hold one message each.
pub trait OneMessagePerFrame: Protocol + Sized {
    fn decode(
        config: &Self::Config,
        bytes: &[u8],
        store: &mut TxStore,
    ) -> Result<Self::Msg, WireError>;
    /// False if the store no longer holds what the message names.
    fn encode(msg: &Self::Msg, store: &TxStore, out: &mut Vec<u8>) -> bool;
}

impl OneMessagePerFrame for Cat {
    fn decode(config: &CatConfig, bytes: &[u8], store: &mut TxStore) -> Result<CatMsg, WireError> {
        CatMsg::decode(bytes, config.max_tx_bytes, store)
    }
    fn encode(msg: &CatMsg, store: &TxStore, out: &mut Vec<u8>) -> bool {
        msg.encode(store, out)
    }
}

impl OneMessagePerFrame for Strokkur {
    fn decode(_: &Self::Config, bytes: &[u8], _: &mut TxStore) -> Result<StrokkurMsg, WireError> {
        StrokkurMsg::decode(bytes, &ltcode::wire::Limits::default())
    }
    fn encode(msg: &StrokkurMsg, _: &TxStore, out: &mut Vec<u8>) -> bool {
        msg.encode(out);
        true
    }
}

/// The hash of a tx the store holds.
fn hash_of(store: &TxStore, tx: TxId) -> Option<[u8; 32]> {
    store.payload(tx).map(sha256)
}

/// CAT or Strokkur on a real network.
pub struct Framed<P: OneMessagePerFrame> {
    driver: Driver<P>,
    config: P::Config,
}

impl Framed<Cat> {
    /// CAT on a real network: its largest tx must fit a frame (a bigger one would be refused
    /// by every receiver's stream), so the config's cap is held to that.
    pub fn cat(mut config: CatConfig, seed: u64, store: TxStore) -> Self {
        let fits = (MAX_FRAME_BYTES - FRAME_ROOM) as u32;
        config.max_tx_bytes = config.max_tx_bytes.min(fits);
        Framed::new(config, seed, store)
    }
}

impl<P: OneMessagePerFrame> Framed<P> {
    pub fn new(config: P::Config, seed: u64, store: TxStore) -> Self {
        let driver =
            Driver::with_content(&config, &NodeSetup::default(), Rng::from_seed(seed), store);
        Framed { driver, config }
    }

    pub fn driver(&self) -> &Driver<P> {
        &self.driver
    }
}

impl<P: OneMessagePerFrame> Live for Framed<P> {
    fn peer_up(&mut self, now: Time, peer: u32, _: &str) -> Result<(), String> {
        self.driver.handle_input(now, Input::PeerUp(PeerIdx(peer)));
        Ok(())
    }

    fn peer_down(&mut self, now: Time, peer: u32) {
        self.driver
            .handle_input(now, Input::PeerDown(PeerIdx(peer)));
    }

    fn frame(&mut self, now: Time, peer: u32, bytes: &[u8]) -> Result<FrameInfo, WireError> {
        let msg = P::decode(&self.config, bytes, self.driver.content_mut())?;
        let info = describe(&msg, self.driver.content());
        self.driver
            .handle_input(now, Input::Message(PeerIdx(peer), msg));
        Ok(info)
    }

    fn submit(&mut self, now: Time, bytes: &[u8]) -> Result<[u8; 32], String> {
        let max = self.max_tx_bytes();
        if bytes.is_empty() || bytes.len() > max {
            return Err(format!("a transaction here is 1 to {max} bytes"));
        }
        let tx = self
            .driver
            .content_mut()
            .admit(bytes)
            .ok_or("the transaction store cannot hold these bytes")?;
        self.driver.handle_input(now, Input::Submit(tx));
        Ok(sha256(bytes))
    }

    fn max_tx_bytes(&self) -> usize {
        P::max_tx_bytes(&self.config).unwrap_or(MAX_FRAME_BYTES - FRAME_ROOM)
    }

    fn poll(&mut self, now: Time) {
        self.driver.poll_timers(now);
    }

    fn next_deadline(&mut self) -> Option<Time> {
        self.driver.next_deadline()
    }

    fn drain(&mut self, out: &mut Outbox) {
        let outputs: Vec<_> = self.driver.drain().collect();
        let store = self.driver.content();
        for output in outputs {
            match output {
                Output::Send { to, msg } => {
                    let mut bytes = Vec::new();
                    if P::encode(&msg, store, &mut bytes) {
                        let info = describe(&msg, store);
                        out.frames.push(Frame {
                            peer: to.0,
                            bytes,
                            urgent: false,
                            info,
                        });
                    } else {
                        out.count(&UNSENDABLE, 1);
                    }
                }
                Output::Deliver(tx) => {
                    if let Some(data) = store.payload(tx.id) {
                        let delivery = Delivery {
                            hash: sha256(data),
                            topic: String::new(),
                            data: data.to_vec(),
                        };
                        out.delivered.push(delivery);
                    }
                }
                Output::Disconnect(p) => out.disconnects.push(p.0),
                Output::Count(counter, n) => out.count(counter, n),
            }
        }
    }
}

/// The topic an entry is about: named in it, or the one its message id was filed under.
fn entry_topic(e: &Rpc, store: &TxStore) -> Option<TopicId> {
    let of_id = |id: &TxId| store.tag_of(*id).map(TopicId);
    match e {
        Rpc::Subscribe { topic, .. }
        | Rpc::IHave { topic, .. }
        | Rpc::Graft { topic }
        | Rpc::Prune { topic, .. }
        | Rpc::IAnnounce { topic, .. } => Some(*topic),
        Rpc::Publish(m) => Some(m.topic),
        Rpc::IWant(ids) => ids.first().and_then(of_id),
        Rpc::IDontWant(id) | Rpc::INeed(id) => of_id(id),
    }
}

/// What a batch of GossipSub entries carries.
fn entries_info<'a>(
    entries: impl Iterator<Item = &'a Rpc>,
    names: &TopicNames,
    store: &TxStore,
) -> FrameInfo {
    let mut info = FrameInfo::default();
    for e in entries {
        info.kinds.push(e.kind());
        info.classes.push(e.class());
        let topic = entry_topic(e, store).and_then(|t| names.name(t));
        info.topics.push(topic.unwrap_or_default().to_string());
        if let Rpc::Publish(m) = e {
            info.payload += m.tx.len;
            if m.check != Check::Invalid {
                info.txs.extend(hash_of(store, m.tx.id));
            }
        }
    }
    info
}

/// One message's face.
fn describe<M: WireMsg>(msg: &M, store: &TxStore) -> FrameInfo {
    FrameInfo {
        kinds: vec![msg.kind()],
        classes: vec![msg.class()],
        topics: Vec::new(),
        payload: msg.payload_len() as u32,
        txs: msg
            .full_tx()
            .and_then(|tx| hash_of(store, tx))
            .into_iter()
            .collect(),
    }
}

/// GossipSub on a real network.
pub struct GossipNode {
    driver: Driver<Gossipsub>,
    codec: Codec,
}

impl GossipNode {
    pub fn new(config: &GossipsubConfig, seed: u64, store: TxStore, limits: Limits) -> GossipNode {
        let driver =
            Driver::with_content(config, &NodeSetup::default(), Rng::from_seed(seed), store);
        GossipNode {
            driver,
            codec: Codec::new(config, limits),
        }
    }

    pub fn driver(&self) -> &Driver<Gossipsub> {
        &self.driver
    }

    fn topic(&self, name: &str) -> Result<TopicId, String> {
        let names = self.driver.protocol().topic_names();
        names
            .find(name)
            .ok_or_else(|| format!("not a topic of this node: {name}"))
    }

    /// Connected peers subscribed to a topic, and those of them in our mesh.
    pub fn topic_peers(&self, topic: &str) -> (usize, usize) {
        let gs = self.driver.protocol();
        self.topic(topic)
            .map_or((0, 0), |t| (gs.subscribers(t), gs.mesh_of(t).len()))
    }

    /// What a StrictSign signature of this message must cover.
    pub fn signable(&self, topic: &str, data: &[u8], from: &[u8], seqno: &[u8]) -> Vec<u8> {
        let parts = MessageParts {
            from: Some(from),
            data: Some(data),
            seqno: Some(seqno),
            topic,
            signature: None,
            key: None,
        };
        parts.signable()
    }

    /// Publishes a message of this node on `topic`; `signed` under StrictSign. Returns its hash.
    pub fn publish(
        &mut self,
        now: Time,
        topic: &str,
        data: &[u8],
        signed: Option<OwnMessage<'_>>,
    ) -> Result<[u8; 32], String> {
        let max = self.max_tx_bytes();
        if data.len() > max {
            return Err(format!("a message holds at most {max} bytes"));
        }
        let t = self.topic(topic)?;
        let names = self.driver.protocol().topic_names().clone();
        let msg = self
            .codec
            .own_message(t, &names, data, signed, self.driver.content_mut())
            .ok_or("the message breaks the signature policy or does not fit the store")?;
        self.driver.call(now, |gs, cx| gs.publish(msg, cx));
        Ok(sha256(data))
    }

    /// The host's verdict on a message it was asked to validate.
    pub fn validated(&mut self, now: Time, handle: TxId, verdict: Verdict) {
        self.driver
            .call(now, |gs, cx| gs.handle_validated(handle, verdict, cx));
    }

    fn validations(&mut self, out: &mut Outbox) {
        let ids = self
            .driver
            .protocol_and_content_mut()
            .0
            .take_validation_requests();
        for handle in ids {
            let store = self.driver.content();
            let parts = store
                .stored(handle)
                .and_then(|b| MessageParts::parse(b, &mut 0).ok());
            let Some(parts) = parts else {
                // Forgotten by the store meanwhile: nothing to judge.
                self.driver.call(Time::ZERO, |gs, cx| {
                    gs.handle_validated(handle, Verdict::Ignore, cx)
                });
                continue;
            };
            out.validations.push(Validation {
                handle,
                topic: parts.topic.to_string(),
                data: parts.data.unwrap_or_default().to_vec(),
                signable: parts.signable(),
                signature: parts.signature.map(<[u8]>::to_vec),
                from: parts.from.map(<[u8]>::to_vec),
                public_key: parts.public_key().map(<[u8]>::to_vec),
            });
        }
    }

    fn encode(&self, peer: u32, entries: &[Rpc], urgent: bool, out: &mut Outbox) {
        let store = self.driver.content();
        let names = self.driver.protocol().topic_names();
        let mut rpcs = Vec::new();
        let skipped = self.codec.encode(entries, names, store, &mut rpcs);
        out.count(&UNSENDABLE, skipped as u64);
        for rpc in rpcs {
            let info = entries_info(rpc.entries.iter().map(|&i| &entries[i]), names, store);
            out.frames.push(Frame {
                peer,
                bytes: rpc.bytes,
                urgent,
                info,
            });
        }
    }
}

impl Live for GossipNode {
    fn gossip(&mut self) -> Option<&mut GossipNode> {
        Some(self)
    }

    fn peer_up(&mut self, now: Time, peer: u32, protocol_id: &str) -> Result<(), String> {
        let version = match protocol_id {
            "" => None,
            id => Some(
                Version::of_protocol_id(id)
                    .ok_or_else(|| format!("not a GossipSub protocol id: {id}"))?,
            ),
        };
        let p = PeerIdx(peer);
        self.driver.handle_input(now, Input::PeerUp(p));
        if let Some(v) = version {
            self.driver.call(now, |gs, _| gs.set_peer_version(p, v));
        }
        Ok(())
    }

    fn peer_down(&mut self, now: Time, peer: u32) {
        self.driver
            .handle_input(now, Input::PeerDown(PeerIdx(peer)));
    }

    fn frame(&mut self, now: Time, peer: u32, bytes: &[u8]) -> Result<FrameInfo, WireError> {
        let mut entries = Vec::new();
        let (gs, store) = self.driver.protocol_and_content_mut();
        let report = self
            .codec
            .decode(bytes, gs.topic_names_mut(), store, &mut entries)?;
        let info = entries_info(
            entries.iter(),
            self.driver.protocol().topic_names(),
            self.driver.content(),
        );
        let counts = [
            (&counters::UNKNOWN_FIELDS, report.unknown_fields),
            (&counters::DROPPED_ENTRIES, report.dropped),
            (&counters::POLICY_VIOLATIONS, report.bad_messages),
        ];
        self.driver.call(now, |_, cx| {
            for (counter, n) in counts {
                if n > 0 {
                    cx.count(counter, n as u64);
                }
            }
        });
        let from = PeerIdx(peer);
        for e in entries {
            self.driver.handle_input(now, Input::Message(from, e));
        }
        Ok(info)
    }

    /// Publishes unsigned on the first topic (StrictNoSign).
    fn submit(&mut self, now: Time, bytes: &[u8]) -> Result<[u8; 32], String> {
        let first = self
            .driver
            .protocol()
            .topic_names()
            .name(TopicId(0))
            .unwrap_or_default()
            .to_string();
        self.publish(now, &first, bytes, None)
    }

    /// A message and its envelope within the largest RPC.
    fn max_tx_bytes(&self) -> usize {
        self.codec.limits.max_rpc_bytes.min(MAX_FRAME_BYTES) - FRAME_ROOM
    }

    fn poll(&mut self, now: Time) {
        self.driver.poll_timers(now);
    }

    fn next_deadline(&mut self) -> Option<Time> {
        self.driver.next_deadline()
    }

    fn drain(&mut self, out: &mut Outbox) {
        self.validations(out);
        let outputs: Vec<_> = self.driver.drain().collect();
        // Entries for a peer, urgent or not, in the order the router made them.
        let mut batches: BTreeMap<(u32, bool), Vec<Rpc>> = BTreeMap::new();
        for output in outputs {
            match output {
                Output::Send { to, msg } => {
                    let urgent = matches!(msg, Rpc::IDontWant(_));
                    batches.entry((to.0, !urgent)).or_default().push(msg);
                }
                Output::Deliver(tx) => self.deliver(tx, out),
                Output::Disconnect(p) => out.disconnects.push(p.0),
                Output::Count(counter, n) => out.count(counter, n),
            }
        }
        for ((peer, not_urgent), entries) in batches {
            self.encode(peer, &entries, !not_urgent, out);
        }
    }
}

impl GossipNode {
    fn deliver(&self, tx: Tx, out: &mut Outbox) {
        let store = self.driver.content();
        let Some(parts) = store
            .stored(tx.id)
            .and_then(|b| MessageParts::parse(b, &mut 0).ok())
        else {
            return;
        };
        let data = parts.data.unwrap_or_default();
        out.delivered.push(Delivery {
            hash: sha256(data),
            topic: parts.topic.to_string(),
            data: data.to_vec(),
        });
    }
}
