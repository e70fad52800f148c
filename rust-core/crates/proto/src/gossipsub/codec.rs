//! The libp2p pubsub wire: RPC protobufs as other implementations (go-libp2p-pubsub,
//! js-libp2p, rust-libp2p) read and write them, translated to and from the router's entries.
//!
//! ```text
//! RPC            { repeated SubOpts subscriptions = 1; repeated Message publish = 2; ControlMessage control = 3; }
//! SubOpts        { bool subscribe = 1; string topicid = 2; }
//! Message        { bytes from = 1; bytes data = 2; bytes seqno = 3; string topic = 4; bytes signature = 5; bytes key = 6; }
//! ControlMessage { ihave = 1 {topicID = 1, messageIDs = 2*}; iwant = 2 {messageIDs = 1*};
//!                  graft = 3 {topicID = 1}; prune = 4 {topicID = 1, peers = 2*, backoff = 3};
//!                  idontwant = 5 {messageIDs = 1*};                              (v1.2)
//!                  iannounce = 6 {topicID = 1, messageID = 2}; ineed = 7 {messageID = 2}; }  (v2.0 draft)
//! ```
//!
//! Bytes are untrusted: the RPC size is checked before anything is read, entries and ids per RPC
//! are bounded, unknown fields are skipped as protobuf requires (and counted), and a frame that
//! breaks a rule is a typed `WireError`, never a panic. Message ids and messages live in the
//! node's `TxStore`: a received message is kept as it arrived, to be forwarded byte for byte.
//! A message's id derives from it (`MessageIdFn`); whether its signature holds is the host's to
//! check (`MessageParts::signable`), since the host holds the keys.

use super::config::{GossipsubConfig, MessageIdFn, SignaturePolicy};
use super::rpc::{len_field, Check, Message, Rpc};
use super::topics::{TopicId, TopicNames};
use crate::content::{sha256, MAX_KEY_BYTES};
use crate::wire::{put_varint, Reader, WireError};
use crate::{Tx, TxId, TxStore};

/// Protobuf wire types.
const VARINT: u64 = 0;
const LEN: u64 = 2;

/// Field numbers (libp2p/specs pubsub, gossipsub v1.0 to the v2.0 draft).
mod field {
    pub const RPC_SUBSCRIPTIONS: u64 = 1;
    pub const RPC_PUBLISH: u64 = 2;
    pub const RPC_CONTROL: u64 = 3;
    pub const SUB_SUBSCRIBE: u64 = 1;
    pub const SUB_TOPIC: u64 = 2;
    pub const MSG_FROM: u64 = 1;
    pub const MSG_DATA: u64 = 2;
    pub const MSG_SEQNO: u64 = 3;
    pub const MSG_TOPIC: u64 = 4;
    pub const MSG_SIGNATURE: u64 = 5;
    pub const MSG_KEY: u64 = 6;
    pub const CTRL_IHAVE: u64 = 1;
    pub const CTRL_IWANT: u64 = 2;
    pub const CTRL_GRAFT: u64 = 3;
    pub const CTRL_PRUNE: u64 = 4;
    pub const CTRL_IDONTWANT: u64 = 5;
    pub const CTRL_IANNOUNCE: u64 = 6;
    pub const CTRL_INEED: u64 = 7;
    /// Topic in IHAVE, GRAFT, PRUNE, IANNOUNCE.
    pub const ITEM_TOPIC: u64 = 1;
    /// Message ids in IHAVE, IANNOUNCE and INEED (2); IWANT and IDONTWANT (1).
    pub const IHAVE_IDS: u64 = 2;
    pub const IWANT_IDS: u64 = 1;
    pub const IDONTWANT_IDS: u64 = 1;
    pub const ANNOUNCE_ID: u64 = 2;
    pub const PRUNE_BACKOFF: u64 = 3;
}

/// What the signature covers is prefixed with this (libp2p pubsub, "Message Signing").
pub const SIGN_PREFIX: &[u8] = b"libp2p-pubsub:";
/// Bytes of a sequence number under StrictSign.
pub const SEQNO_LEN: usize = 8;
/// js-libp2p reads at most this many ids in one IDONTWANT entry; more drops its whole RPC.
const IDONTWANT_IDS_PER_ITEM: usize = 512;

/// Caps on what one RPC may hold.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Largest RPC (go-libp2p and this project's relay: 1 MiB).
    pub max_rpc_bytes: usize,
    /// Most entries (subscriptions, messages, control items) in one RPC.
    pub max_entries: usize,
    /// Most message ids in one RPC, all control items together.
    pub max_ids: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_rpc_bytes: 1 << 20,
            max_entries: 1_024,
            max_ids: 5_000,
        }
    }
}

/// What decoding one RPC found besides its entries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DecodeReport {
    /// Fields of unknown numbers skipped.
    pub unknown_fields: u32,
    /// Entries dropped: their topic did not fit the topic table, or their id or message did
    /// not fit the store.
    pub dropped: u32,
    /// Messages that break the signature policy (handed on as `Check::Invalid`).
    pub bad_messages: u32,
}

/// The fields of a message, borrowed from its bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MessageParts<'a> {
    pub from: Option<&'a [u8]>,
    pub data: Option<&'a [u8]>,
    pub seqno: Option<&'a [u8]>,
    pub topic: &'a str,
    pub signature: Option<&'a [u8]>,
    pub key: Option<&'a [u8]>,
}

/// The StrictSign fields of a message this node publishes, made by the host.
#[derive(Clone, Copy, Debug)]
pub struct OwnMessage<'a> {
    /// This node's peer id (multihash bytes).
    pub from: &'a [u8],
    pub seqno: [u8; SEQNO_LEN],
    /// The host's signature over `MessageParts::signable` of these fields.
    pub signature: &'a [u8],
}

fn put_key(out: &mut Vec<u8>, field: u64, wire_type: u64) {
    put_varint(out, (field << 3) | wire_type);
}

fn put_len(out: &mut Vec<u8>, field: u64, n: usize) {
    put_key(out, field, LEN);
    put_varint(out, n as u64);
}

fn put_bytes(out: &mut Vec<u8>, field: u64, bytes: &[u8]) {
    put_len(out, field, bytes.len());
    out.extend_from_slice(bytes);
}

fn key(r: &mut Reader<'_>) -> Result<(u64, u64), WireError> {
    let k = r.varint("field key")?;
    Ok((k >> 3, k & 7))
}

/// Skips a field of an unknown number.
fn skip(r: &mut Reader<'_>, wire_type: u64) -> Result<(), WireError> {
    match wire_type {
        0 => r.varint("unknown varint").map(|_| ()),
        1 => r.take(8, "unknown fixed64").map(|_| ()),
        2 => {
            let n = r.varint("unknown field length")?;
            let n = usize::try_from(n).map_err(|_| WireError::Truncated {
                field: "unknown field",
            })?;
            r.take(n, "unknown field").map(|_| ())
        }
        5 => r.take(4, "unknown fixed32").map(|_| ()),
        _ => Err(WireError::Invalid {
            field: "wire type",
            why: "groups and types 6, 7 are not supported",
        }),
    }
}

fn bytes_field<'a>(
    r: &mut Reader<'a>,
    wire_type: u64,
    name: &'static str,
    max: usize,
) -> Result<&'a [u8], WireError> {
    if wire_type != LEN {
        return Err(WireError::Invalid {
            field: name,
            why: "expected a length-delimited field",
        });
    }
    let n = r.bounded(name, max as u64)?;
    r.take(n as usize, name)
}

fn topic_field<'a>(r: &mut Reader<'a>, wire_type: u64) -> Result<&'a str, WireError> {
    let bytes = bytes_field(r, wire_type, "topic", super::topics::MAX_TOPIC_BYTES)?;
    std::str::from_utf8(bytes).map_err(|_| WireError::Invalid {
        field: "topic",
        why: "not UTF-8",
    })
}

impl<'a> MessageParts<'a> {
    /// Reads a `Message`'s fields (unknown ones skipped).
    pub fn parse(bytes: &'a [u8], unknown: &mut u32) -> Result<MessageParts<'a>, WireError> {
        let mut r = Reader::new(bytes);
        let mut m = MessageParts::default();
        let max = bytes.len();
        while r.remaining() > 0 {
            let (f, wt) = key(&mut r)?;
            match f {
                field::MSG_FROM => m.from = Some(bytes_field(&mut r, wt, "from", MAX_KEY_BYTES)?),
                field::MSG_DATA => m.data = Some(bytes_field(&mut r, wt, "data", max)?),
                field::MSG_SEQNO => m.seqno = Some(bytes_field(&mut r, wt, "seqno", 64)?),
                field::MSG_TOPIC => m.topic = topic_field(&mut r, wt)?,
                field::MSG_SIGNATURE => {
                    m.signature = Some(bytes_field(&mut r, wt, "signature", 1_024)?)
                }
                field::MSG_KEY => m.key = Some(bytes_field(&mut r, wt, "key", 1_024)?),
                _ => {
                    *unknown += 1;
                    skip(&mut r, wt)?
                }
            }
        }
        Ok(m)
    }

    /// Appends the canonical encoding of from, data, seqno and topic (in field order, as
    /// every implementation re-encodes them to check a signature).
    fn put_signed_fields(&self, out: &mut Vec<u8>) {
        if let Some(from) = self.from {
            put_bytes(out, field::MSG_FROM, from);
        }
        if let Some(data) = self.data {
            put_bytes(out, field::MSG_DATA, data);
        }
        if let Some(seqno) = self.seqno {
            put_bytes(out, field::MSG_SEQNO, seqno);
        }
        if !self.topic.is_empty() {
            put_bytes(out, field::MSG_TOPIC, self.topic.as_bytes());
        }
    }

    /// The bytes a StrictSign signature covers: "libp2p-pubsub:" and the message without its
    /// signature and key.
    pub fn signable(&self) -> Vec<u8> {
        let mut out = SIGN_PREFIX.to_vec();
        self.put_signed_fields(&mut out);
        out
    }

    /// Whether the message carries what the policy requires and nothing it forbids.
    pub fn follows(&self, policy: SignaturePolicy) -> bool {
        match policy {
            SignaturePolicy::StrictSign => {
                self.from.is_some()
                    && self.seqno.is_some_and(|s| s.len() == SEQNO_LEN)
                    && self.signature.is_some()
            }
            SignaturePolicy::StrictNoSign => {
                self.from.is_none()
                    && self.seqno.is_none()
                    && self.signature.is_none()
                    && self.key.is_none()
            }
        }
    }

    /// The author's public key in protobuf form: the `key` field, or the key inlined in an
    /// identity-multihash peer id (Ed25519 and other short keys).
    pub fn public_key(&self) -> Option<&'a [u8]> {
        if let Some(key) = self.key {
            return Some(key);
        }
        match self.from? {
            [0x00, len, key @ ..] if *len as usize == key.len() => Some(key),
            _ => None,
        }
    }

    /// The message id under `id_fn`, if the message has what it needs.
    pub fn id(&self, id_fn: MessageIdFn) -> Option<Vec<u8>> {
        let with_seqno = |head: &[u8]| {
            let seqno = self.seqno?;
            Some([head, seqno].concat())
        };
        match id_fn {
            MessageIdFn::Content => Some(sha256(self.data.unwrap_or_default()).to_vec()),
            MessageIdFn::FromSeqno => with_seqno(self.from?),
            MessageIdFn::KeySeqno => with_seqno(self.public_key()?),
        }
    }
}

/// One encoded RPC and the entries it carries (indices into what was encoded).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encoded {
    pub bytes: Vec<u8>,
    pub entries: Vec<usize>,
}

/// Translates between RPC bytes and the router's entries, with one signature policy and one
/// message-id function (both must match every peer's on the topic).
#[derive(Clone, Debug)]
pub struct Codec {
    pub limits: Limits,
    pub policy: SignaturePolicy,
    pub id_fn: MessageIdFn,
}

/// Counts entries and ids of one RPC against the limits.
struct Budget<'l> {
    limits: &'l Limits,
    entries: usize,
    ids: usize,
}

impl Budget<'_> {
    fn entry(&mut self) -> Result<(), WireError> {
        self.entries += 1;
        if self.entries > self.limits.max_entries {
            return Err(WireError::TooLong {
                field: "rpc entries",
                len: self.entries as u64,
                max: self.limits.max_entries as u64,
            });
        }
        Ok(())
    }
    fn id(&mut self) -> Result<(), WireError> {
        self.ids += 1;
        if self.ids > self.limits.max_ids {
            return Err(WireError::TooLong {
                field: "message ids",
                len: self.ids as u64,
                max: self.limits.max_ids as u64,
            });
        }
        Ok(())
    }
}

/// What a decoder needs to change: the topic table, the store, and where entries go.
struct Sink<'s> {
    names: &'s mut TopicNames,
    store: &'s mut TxStore,
    out: &'s mut Vec<Rpc>,
    report: DecodeReport,
}

impl Sink<'_> {
    fn topic(&mut self, name: Option<&str>) -> Option<TopicId> {
        let t = name.and_then(|n| self.names.intern(n));
        if t.is_none() {
            self.report.dropped += 1;
        }
        t
    }
    /// An id we may come to hold (announced, offered, unwanted): remembered in the store,
    /// filed under its topic when the entry names one.
    fn remembered(&mut self, id: &[u8], topic: Option<TopicId>) -> Option<TxId> {
        let t = self.store.intern(id);
        match (t, topic) {
            (None, _) => self.report.dropped += 1,
            (Some(t), Some(topic)) => self.store.tag(t, topic.0),
            _ => {}
        }
        t
    }
}

impl Codec {
    pub fn new(config: &GossipsubConfig, limits: Limits) -> Codec {
        Codec {
            limits,
            policy: config.signature_policy,
            id_fn: config.message_id,
        }
    }

    /// Decodes one RPC (without its length prefix) into entries, appended to `out` (nothing
    /// is appended if it fails). Message ids and messages go into `store`, topics into `names`.
    pub fn decode(
        &self,
        rpc: &[u8],
        names: &mut TopicNames,
        store: &mut TxStore,
        out: &mut Vec<Rpc>,
    ) -> Result<DecodeReport, WireError> {
        if rpc.len() > self.limits.max_rpc_bytes {
            return Err(WireError::TooLong {
                field: "rpc",
                len: rpc.len() as u64,
                max: self.limits.max_rpc_bytes as u64,
            });
        }
        let start = out.len();
        let mut sink = Sink {
            names,
            store,
            out,
            report: DecodeReport::default(),
        };
        let mut budget = Budget {
            limits: &self.limits,
            entries: 0,
            ids: 0,
        };
        match self.decode_rpc(rpc, &mut sink, &mut budget) {
            Ok(()) => Ok(sink.report),
            Err(e) => {
                sink.out.truncate(start);
                Err(e)
            }
        }
    }

    fn decode_rpc(
        &self,
        rpc: &[u8],
        sink: &mut Sink<'_>,
        budget: &mut Budget<'_>,
    ) -> Result<(), WireError> {
        let mut r = Reader::new(rpc);
        while r.remaining() > 0 {
            let (f, wt) = key(&mut r)?;
            match f {
                field::RPC_SUBSCRIPTIONS => {
                    let b = bytes_field(&mut r, wt, "subscription", rpc.len())?;
                    budget.entry()?;
                    self.decode_subscription(b, sink)?;
                }
                field::RPC_PUBLISH => {
                    let b = bytes_field(&mut r, wt, "message", rpc.len())?;
                    budget.entry()?;
                    self.decode_message(b, sink)?;
                }
                field::RPC_CONTROL => {
                    let b = bytes_field(&mut r, wt, "control", rpc.len())?;
                    self.decode_control(b, sink, budget)?;
                }
                _ => {
                    sink.report.unknown_fields += 1;
                    skip(&mut r, wt)?
                }
            }
        }
        Ok(())
    }

    fn decode_subscription(&self, b: &[u8], sink: &mut Sink<'_>) -> Result<(), WireError> {
        let mut r = Reader::new(b);
        let (mut topic, mut subscribe) = (None, false);
        while r.remaining() > 0 {
            let (f, wt) = key(&mut r)?;
            match (f, wt) {
                (field::SUB_SUBSCRIBE, VARINT) => subscribe = r.varint("subscribe")? != 0,
                (field::SUB_TOPIC, _) => topic = Some(topic_field(&mut r, wt)?),
                _ => {
                    sink.report.unknown_fields += 1;
                    skip(&mut r, wt)?
                }
            }
        }
        if let Some(topic) = sink.topic(topic) {
            sink.out.push(Rpc::Subscribe { topic, subscribe });
        }
        Ok(())
    }

    fn decode_message(&self, b: &[u8], sink: &mut Sink<'_>) -> Result<(), WireError> {
        let parts = MessageParts::parse(b, &mut sink.report.unknown_fields)?;
        let Some(topic) = sink.topic(Some(parts.topic)) else {
            return Ok(());
        };
        let data = parts.data.unwrap_or_default();
        let len = u32::try_from(data.len()).map_err(|_| WireError::Invalid {
            field: "data",
            why: "over 4 GiB",
        })?;
        let envelope = b
            .len()
            .saturating_sub(len_field(data.len()) + len_field(parts.topic.len()));
        let envelope = u16::try_from(envelope).unwrap_or(u16::MAX);
        let id = parts.id(self.id_fn).filter(|_| parts.follows(self.policy));
        let Some(id) = id else {
            // Breaks the policy: the sender pays (P4); nothing is stored.
            sink.report.bad_messages += 1;
            let tx = Tx {
                id: TxId::UNKNOWN,
                len,
            };
            let check = Check::Invalid;
            sink.out.push(Rpc::Publish(Message {
                tx,
                topic,
                envelope,
                check,
            }));
            return Ok(());
        };
        // Where the data sits inside the message, to find the payload later.
        let at = parts
            .data
            .map_or(0, |d| d.as_ptr() as usize - b.as_ptr() as usize);
        let Some(tx) = sink.store.insert(&id, b, (at as u32, len)) else {
            sink.report.dropped += 1;
            return Ok(());
        };
        sink.store.tag(tx.id, topic.0);
        let check = Check::Host;
        sink.out.push(Rpc::Publish(Message {
            tx,
            topic,
            envelope,
            check,
        }));
        Ok(())
    }

    fn decode_control(
        &self,
        b: &[u8],
        sink: &mut Sink<'_>,
        budget: &mut Budget<'_>,
    ) -> Result<(), WireError> {
        let mut r = Reader::new(b);
        while r.remaining() > 0 {
            let (f, wt) = key(&mut r)?;
            if !(field::CTRL_IHAVE..=field::CTRL_INEED).contains(&f) {
                sink.report.unknown_fields += 1;
                skip(&mut r, wt)?;
                continue;
            }
            let item = bytes_field(&mut r, wt, "control item", b.len())?;
            budget.entry()?;
            let item = Item::parse(f, item, budget, &mut sink.report.unknown_fields)?;
            self.control_entries(f, item, sink)?;
        }
        Ok(())
    }

    /// Turns one control item into router entries.
    fn control_entries(
        &self,
        f: u64,
        item: Item<'_>,
        sink: &mut Sink<'_>,
    ) -> Result<(), WireError> {
        let ids = item.ids;
        match f {
            field::CTRL_IHAVE => {
                let Some(topic) = sink.topic(item.topic) else {
                    return Ok(());
                };
                let ids = ids
                    .iter()
                    .filter_map(|id| sink.remembered(id, Some(topic)))
                    .collect();
                sink.out.push(Rpc::IHave { topic, ids });
            }
            field::CTRL_IWANT => {
                // Only what we hold can be served: unknown ids name nothing.
                let ids = ids.iter().filter_map(|id| sink.store.find(id)).collect();
                sink.out.push(Rpc::IWant(ids));
            }
            field::CTRL_GRAFT => {
                if let Some(topic) = sink.topic(item.topic) {
                    sink.out.push(Rpc::Graft { topic });
                }
            }
            field::CTRL_PRUNE => {
                if let Some(topic) = sink.topic(item.topic) {
                    sink.out.push(Rpc::Prune {
                        topic,
                        backoff_s: item.backoff,
                    });
                }
            }
            field::CTRL_IDONTWANT => {
                for id in ids {
                    if let Some(id) = sink.remembered(id, None) {
                        sink.out.push(Rpc::IDontWant(id));
                    }
                }
            }
            field::CTRL_IANNOUNCE | field::CTRL_INEED => {
                let [id] = ids[..] else {
                    return Err(WireError::Invalid {
                        field: "announce",
                        why: "needs exactly one message id",
                    });
                };
                if f == field::CTRL_INEED {
                    let id = sink.store.find(id).unwrap_or(TxId::UNKNOWN);
                    sink.out.push(Rpc::INeed(id));
                } else if let Some(topic) = sink.topic(item.topic) {
                    if let Some(id) = sink.remembered(id, Some(topic)) {
                        sink.out.push(Rpc::IAnnounce { topic, id });
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Encodes entries for one peer into RPCs (without length prefixes), appended to `out`,
    /// each with the indices of the entries it carries. Fields go in protobuf order:
    /// subscriptions and control in the first RPC, messages packed up to the size limit.
    /// Entries whose ids or messages the store no longer holds are left out; returns how many.
    pub fn encode(
        &self,
        entries: &[Rpc],
        names: &TopicNames,
        store: &TxStore,
        out: &mut Vec<Encoded>,
    ) -> u32 {
        let mut skipped = 0;
        // Entries other than messages all go in the first RPC.
        let mut carried = Vec::new();
        let mut subs = Vec::new();
        let mut items: Vec<(u64, Vec<u8>)> = Vec::new();
        let mut idontwant = Vec::new();
        for (i, e) in entries.iter().enumerate() {
            let ok = match e {
                Rpc::Subscribe { topic, subscribe } => names.name(*topic).map(|name| {
                    let mut sub = Vec::new();
                    put_key(&mut sub, field::SUB_SUBSCRIBE, VARINT);
                    put_varint(&mut sub, *subscribe as u64);
                    put_bytes(&mut sub, field::SUB_TOPIC, name.as_bytes());
                    put_bytes(&mut subs, field::RPC_SUBSCRIPTIONS, &sub);
                }),
                Rpc::Publish(_) => Some(()),
                Rpc::IDontWant(id) => store.key(*id).map(|k| idontwant.push(k)),
                _ => self
                    .control_item(e, names, store)
                    .map(|item| items.push(item)),
            };
            match ok {
                Some(()) if !matches!(e, Rpc::Publish(_)) => carried.push(i),
                Some(()) => {}
                None => skipped += 1,
            }
        }
        for ids in idontwant.chunks(IDONTWANT_IDS_PER_ITEM) {
            let mut item = Vec::new();
            for id in ids {
                put_bytes(&mut item, field::IDONTWANT_IDS, id);
            }
            items.push((field::CTRL_IDONTWANT, item));
        }
        items.sort_by_key(|(f, _)| *f);
        let mut control = Vec::new();
        if !items.is_empty() {
            let mut body = Vec::new();
            for (f, item) in &items {
                put_bytes(&mut body, *f, item);
            }
            put_bytes(&mut control, field::RPC_CONTROL, &body);
        }
        // The first RPC: subscriptions, the messages that fit, control.
        let mut current = subs;
        let mut reserve = control.len();
        for (i, e) in entries.iter().enumerate() {
            let Rpc::Publish(msg) = e else {
                continue;
            };
            let Some(bytes) = self.message_bytes(msg, store) else {
                skipped += 1;
                continue;
            };
            let grown = current.len() + len_field(bytes.len()) + reserve;
            if grown > self.limits.max_rpc_bytes && current.len() + reserve > 0 {
                current.append(&mut control);
                reserve = 0;
                let bytes = std::mem::take(&mut current);
                carried.sort_unstable();
                out.push(Encoded {
                    bytes,
                    entries: std::mem::take(&mut carried),
                });
            }
            put_bytes(&mut current, field::RPC_PUBLISH, &bytes);
            carried.push(i);
        }
        current.append(&mut control);
        if !current.is_empty() {
            carried.sort_unstable();
            out.push(Encoded {
                bytes: current,
                entries: carried,
            });
        }
        skipped
    }

    /// A message as stored, or spoiled if this node sends garbage (`Check::Invalid`): its data
    /// bytes flipped, so that it fails validation.
    fn message_bytes(&self, msg: &Message, store: &TxStore) -> Option<Vec<u8>> {
        let bytes = store.stored(msg.tx.id)?;
        let mut bytes = bytes.to_vec();
        if msg.check == Check::Invalid {
            let mut unknown = 0;
            let parts = MessageParts::parse(&bytes, &mut unknown).ok()?;
            let data = parts.data.unwrap_or_default();
            let at = data.as_ptr() as usize - bytes.as_ptr() as usize;
            let len = data.len();
            for b in &mut bytes[at..at + len] {
                *b ^= 0xa5;
            }
        }
        Some(bytes)
    }

    /// One control item and its field number; None if an id or topic is not known any more.
    fn control_item(&self, e: &Rpc, names: &TopicNames, store: &TxStore) -> Option<(u64, Vec<u8>)> {
        let mut item = Vec::new();
        let topic = |item: &mut Vec<u8>, t: &TopicId| -> Option<()> {
            put_bytes(item, field::ITEM_TOPIC, names.name(*t)?.as_bytes());
            Some(())
        };
        let f = match e {
            Rpc::IHave { topic: t, ids } => {
                topic(&mut item, t)?;
                for id in ids.iter().filter_map(|&id| store.key(id)) {
                    put_bytes(&mut item, field::IHAVE_IDS, id);
                }
                field::CTRL_IHAVE
            }
            Rpc::IWant(ids) => {
                for id in ids.iter().filter_map(|&id| store.key(id)) {
                    put_bytes(&mut item, field::IWANT_IDS, id);
                }
                field::CTRL_IWANT
            }
            Rpc::Graft { topic: t } => {
                topic(&mut item, t)?;
                field::CTRL_GRAFT
            }
            Rpc::Prune {
                topic: t,
                backoff_s,
            } => {
                topic(&mut item, t)?;
                if let Some(b) = backoff_s {
                    put_key(&mut item, field::PRUNE_BACKOFF, VARINT);
                    put_varint(&mut item, *b);
                }
                field::CTRL_PRUNE
            }
            Rpc::IAnnounce { topic: t, id } => {
                topic(&mut item, t)?;
                put_bytes(&mut item, field::ANNOUNCE_ID, store.key(*id)?);
                field::CTRL_IANNOUNCE
            }
            Rpc::INeed(id) => {
                put_bytes(&mut item, field::ANNOUNCE_ID, store.key(*id)?);
                field::CTRL_INEED
            }
            Rpc::Subscribe { .. } | Rpc::Publish(_) | Rpc::IDontWant(_) => return None,
        };
        Some((f, item))
    }

    /// Builds, stores and returns a message of this node: the host gives the data and, under
    /// StrictSign, the signed fields. None if the store cannot hold it or a field is missing.
    pub fn own_message(
        &self,
        topic: TopicId,
        names: &TopicNames,
        data: &[u8],
        signed: Option<OwnMessage<'_>>,
        store: &mut TxStore,
    ) -> Option<Message> {
        let name = names.name(topic)?;
        let mut parts = MessageParts {
            data: Some(data),
            topic: name,
            ..MessageParts::default()
        };
        if let Some(s) = &signed {
            parts.from = Some(s.from);
            parts.seqno = Some(&s.seqno);
            parts.signature = Some(s.signature);
        }
        if !parts.follows(self.policy) {
            return None;
        }
        let id = parts.id(self.id_fn)?;
        let mut bytes = Vec::with_capacity(data.len() + 160);
        parts.put_signed_fields(&mut bytes);
        if let Some(s) = parts.signature {
            put_bytes(&mut bytes, field::MSG_SIGNATURE, s);
        }
        let len = data.len();
        // The data field comes after `from` (if any): find it by its position.
        let at = match parts.from {
            Some(from) => len_field(from.len()),
            None => 0,
        } + (len_field(len) - len);
        let tx = store.insert(&id, &bytes, (at as u32, len as u32))?;
        store.tag(tx.id, topic.0);
        let envelope = bytes.len() - len_field(len) - len_field(name.len());
        Some(Message {
            tx,
            topic,
            envelope: u16::try_from(envelope).ok()?,
            check: Check::Valid,
        })
    }
}

/// A control item's fields, borrowed.
struct Item<'a> {
    topic: Option<&'a str>,
    ids: Vec<&'a [u8]>,
    backoff: Option<u64>,
}

impl<'a> Item<'a> {
    fn parse(
        f: u64,
        b: &'a [u8],
        budget: &mut Budget<'_>,
        unknown: &mut u32,
    ) -> Result<Item<'a>, WireError> {
        let ids_field = match f {
            field::CTRL_IHAVE | field::CTRL_IANNOUNCE | field::CTRL_INEED => field::IHAVE_IDS,
            field::CTRL_IWANT | field::CTRL_IDONTWANT => field::IWANT_IDS,
            _ => 0,
        };
        // INEED has no topic; its field 1 is unknown to us.
        let has_topic =
            f != field::CTRL_IWANT && f != field::CTRL_IDONTWANT && f != field::CTRL_INEED;
        let mut item = Item {
            topic: None,
            ids: Vec::new(),
            backoff: None,
        };
        let mut r = Reader::new(b);
        while r.remaining() > 0 {
            let (n, wt) = key(&mut r)?;
            if n == ids_field && ids_field != 0 {
                budget.id()?;
                item.ids
                    .push(bytes_field(&mut r, wt, "message id", MAX_KEY_BYTES)?);
            } else if n == field::ITEM_TOPIC && has_topic {
                item.topic = Some(topic_field(&mut r, wt)?);
            } else if f == field::CTRL_PRUNE && n == field::PRUNE_BACKOFF && wt == VARINT {
                item.backoff = Some(r.varint("backoff")?);
            } else {
                // PRUNE's peer records (field 2) among them: txcast has no discovery to feed.
                *unknown += 1;
                skip(&mut r, wt)?;
            }
        }
        Ok(item)
    }
}

#[cfg(test)]
mod tests;
