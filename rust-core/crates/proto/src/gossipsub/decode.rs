//! Decoding GossipSub RPCs from untrusted bytes. Everything is bounded: the frame length,
//! the number of entries, the ids per entry, the length of every field. Unknown fields are
//! skipped as protobuf requires; entries for other topics are counted and dropped. A frame
//! that breaks the rules is a typed `WireError`, never a panic.

use super::rpc::{field, parse_message_id, Rpc, MSG_ID_LEN, TOPIC};
use crate::wire::{Reader, WireError};
use crate::{Tx, TxId};

/// Caps on what one frame may contain.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Largest RPC body (go-libp2p default 1 MiB; large-message networks raise it).
    pub max_rpc_bytes: u64,
    /// Most entries (subscriptions, messages, control items) in one RPC.
    pub max_entries: usize,
    /// Most message ids in one IHAVE / IWANT / IDONTWANT.
    pub max_ids: usize,
    /// Longest topic string.
    pub max_topic_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_rpc_bytes: 16 << 20,
            max_entries: 1_024,
            max_ids: 5_000,
            max_topic_bytes: 256,
        }
    }
}

/// What decoding one frame produced besides the entries.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DecodeReport {
    /// Bytes of the frame, prefix included.
    pub consumed: usize,
    /// Entries dropped because they name another topic.
    pub foreign_topic: u32,
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

fn len_delimited<'a>(
    r: &mut Reader<'a>,
    wire_type: u64,
    name: &'static str,
    max: u64,
) -> Result<&'a [u8], WireError> {
    if wire_type != 2 {
        return Err(WireError::Invalid {
            field: name,
            why: "expected a length-delimited field",
        });
    }
    let n = r.bounded(name, max)?;
    r.take(n as usize, name)
}

fn msg_id(r: &mut Reader<'_>, wire_type: u64) -> Result<TxId, WireError> {
    let bytes = len_delimited(r, wire_type, "message id", MSG_ID_LEN as u64)?;
    parse_message_id(bytes).ok_or(WireError::Invalid {
        field: "message id",
        why: "not a txcast message id",
    })
}

/// Collects what a control item or subscription says about its topic.
struct TopicCheck {
    seen: bool,
    ours: bool,
}

impl TopicCheck {
    fn new() -> Self {
        TopicCheck {
            seen: false,
            ours: false,
        }
    }
    fn read(
        &mut self,
        r: &mut Reader<'_>,
        wire_type: u64,
        limits: &Limits,
    ) -> Result<(), WireError> {
        let t = len_delimited(r, wire_type, "topic", limits.max_topic_bytes)?;
        self.seen = true;
        self.ours = t == TOPIC.as_bytes();
        Ok(())
    }
    /// Whether the entry belongs to our topic (a missing topic field is not ours).
    fn ours(&self) -> bool {
        self.seen && self.ours
    }
}

struct Sink<'o> {
    out: &'o mut Vec<Rpc>,
    entries: usize,
    max: usize,
    report: DecodeReport,
}

impl Sink<'_> {
    fn count(&mut self) -> Result<(), WireError> {
        self.entries += 1;
        if self.entries > self.max {
            return Err(WireError::TooLong {
                field: "rpc entries",
                len: self.entries as u64,
                max: self.max as u64,
            });
        }
        Ok(())
    }
    fn push(&mut self, ours: bool, rpc: Rpc) {
        if ours {
            self.out.push(rpc);
        } else {
            self.report.foreign_topic += 1;
        }
    }
}

/// Decodes one frame at the start of `bytes` and appends its entries to `out`.
/// `scratch` is reused to check message bodies.
pub fn decode_frame(
    bytes: &[u8],
    limits: &Limits,
    out: &mut Vec<Rpc>,
    scratch: &mut Vec<u8>,
) -> Result<DecodeReport, WireError> {
    let mut r = Reader::new(bytes);
    let len = r.bounded("rpc length", limits.max_rpc_bytes)? as usize;
    let prefix = bytes.len() - r.remaining();
    let body = r.take(len, "rpc")?;
    let start = out.len();
    let mut sink = Sink {
        out,
        entries: 0,
        max: limits.max_entries,
        report: DecodeReport::default(),
    };
    let result = decode_body(body, limits, &mut sink, scratch);
    if let Err(e) = result {
        sink.out.truncate(start);
        return Err(e);
    }
    sink.report.consumed = prefix + len;
    Ok(sink.report)
}

fn decode_body(
    body: &[u8],
    limits: &Limits,
    sink: &mut Sink<'_>,
    scratch: &mut Vec<u8>,
) -> Result<(), WireError> {
    let mut r = Reader::new(body);
    while r.remaining() > 0 {
        let (f, wt) = key(&mut r)?;
        match f {
            field::RPC_SUBSCRIPTIONS => {
                let b = len_delimited(&mut r, wt, "subscription", limits.max_rpc_bytes)?;
                sink.count()?;
                decode_subscription(b, limits, sink)?;
            }
            field::RPC_PUBLISH => {
                let b = len_delimited(&mut r, wt, "message", limits.max_rpc_bytes)?;
                sink.count()?;
                decode_message(b, limits, sink, scratch)?;
            }
            field::RPC_CONTROL => {
                let b = len_delimited(&mut r, wt, "control", limits.max_rpc_bytes)?;
                decode_control(b, limits, sink)?;
            }
            _ => skip(&mut r, wt)?,
        }
    }
    Ok(())
}

fn decode_subscription(b: &[u8], limits: &Limits, sink: &mut Sink<'_>) -> Result<(), WireError> {
    let mut r = Reader::new(b);
    let mut topic = TopicCheck::new();
    let mut subscribe = false;
    while r.remaining() > 0 {
        let (f, wt) = key(&mut r)?;
        match (f, wt) {
            (field::SUB_SUBSCRIBE, 0) => subscribe = r.varint("subscribe")? != 0,
            (field::SUB_TOPIC, _) => topic.read(&mut r, wt, limits)?,
            _ => skip(&mut r, wt)?,
        }
    }
    sink.push(topic.ours(), Rpc::Subscribe { subscribe });
    Ok(())
}

fn decode_message(
    b: &[u8],
    limits: &Limits,
    sink: &mut Sink<'_>,
    scratch: &mut Vec<u8>,
) -> Result<(), WireError> {
    let mut r = Reader::new(b);
    let mut topic = TopicCheck::new();
    let mut data: Option<&[u8]> = None;
    while r.remaining() > 0 {
        let (f, wt) = key(&mut r)?;
        match f {
            field::MSG_DATA => {
                data = Some(len_delimited(&mut r, wt, "data", limits.max_rpc_bytes)?)
            }
            field::MSG_TOPIC => topic.read(&mut r, wt, limits)?,
            _ => skip(&mut r, wt)?,
        }
    }
    let data = data.ok_or(WireError::Invalid {
        field: "message",
        why: "no data",
    })?;
    if data.len() < 8 {
        return Err(WireError::Invalid {
            field: "data",
            why: "shorter than the 8-byte tx id",
        });
    }
    let len = u32::try_from(data.len()).map_err(|_| WireError::Invalid {
        field: "data",
        why: "over 4 GiB",
    })?;
    let mut head = [0u8; 8];
    head.copy_from_slice(&data[..8]);
    let tx = Tx {
        id: TxId(u64::from_le_bytes(head)),
        len,
    };
    // Application validation: the body must be the one its id determines.
    tx.fill_body(scratch);
    let valid = scratch[..] == *data;
    sink.push(topic.ours(), Rpc::Publish { tx, valid });
    Ok(())
}

/// A field number no message uses: GRAFT has a topic and no ids.
const NO_IDS: u64 = u64::MAX;

fn decode_ids(
    b: &[u8],
    ids_field: u64,
    limits: &Limits,
    topic: &mut TopicCheck,
) -> Result<Vec<TxId>, WireError> {
    let mut r = Reader::new(b);
    let mut ids = Vec::new();
    while r.remaining() > 0 {
        let (f, wt) = key(&mut r)?;
        if f == ids_field {
            if ids.len() >= limits.max_ids {
                return Err(WireError::TooLong {
                    field: "message ids",
                    len: ids.len() as u64 + 1,
                    max: limits.max_ids as u64,
                });
            }
            ids.push(msg_id(&mut r, wt)?);
        } else if f == field::ITEM_TOPIC {
            topic.read(&mut r, wt, limits)?;
        } else {
            skip(&mut r, wt)?;
        }
    }
    Ok(ids)
}

fn decode_control(b: &[u8], limits: &Limits, sink: &mut Sink<'_>) -> Result<(), WireError> {
    let mut r = Reader::new(b);
    while r.remaining() > 0 {
        let (f, wt) = key(&mut r)?;
        if !(field::CTRL_IHAVE..=field::CTRL_INEED).contains(&f) {
            skip(&mut r, wt)?;
            continue;
        }
        let item = len_delimited(&mut r, wt, "control item", limits.max_rpc_bytes)?;
        sink.count()?;
        let mut topic = TopicCheck::new();
        match f {
            field::CTRL_IHAVE => {
                let ids = decode_ids(item, field::IHAVE_IDS, limits, &mut topic)?;
                sink.push(topic.ours(), Rpc::IHave(ids));
            }
            field::CTRL_IWANT => {
                let ids = decode_ids(item, field::IWANT_IDS, limits, &mut topic)?;
                sink.push(true, Rpc::IWant(ids));
            }
            field::CTRL_IDONTWANT => {
                let ids = decode_ids(item, field::IDONTWANT_IDS, limits, &mut topic)?;
                sink.entries += ids.len().saturating_sub(1);
                if sink.entries > sink.max {
                    return Err(WireError::TooLong {
                        field: "rpc entries",
                        len: sink.entries as u64,
                        max: sink.max as u64,
                    });
                }
                for id in ids {
                    sink.push(true, Rpc::IDontWant(id));
                }
            }
            field::CTRL_GRAFT => {
                decode_ids(item, NO_IDS, limits, &mut topic)?;
                sink.push(topic.ours(), Rpc::Graft);
            }
            field::CTRL_PRUNE => {
                let backoff_s = decode_prune(item, limits, &mut topic)?;
                sink.push(topic.ours(), Rpc::Prune { backoff_s });
            }
            field::CTRL_IANNOUNCE | field::CTRL_INEED => {
                let ids = decode_ids(item, field::ANNOUNCE_ID, limits, &mut topic)?;
                let [id] = ids[..] else {
                    return Err(WireError::Invalid {
                        field: "announce",
                        why: "needs exactly one message id",
                    });
                };
                if f == field::CTRL_IANNOUNCE {
                    sink.push(topic.ours(), Rpc::IAnnounce(id));
                } else {
                    sink.push(true, Rpc::INeed(id));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn decode_prune(
    b: &[u8],
    limits: &Limits,
    topic: &mut TopicCheck,
) -> Result<Option<u64>, WireError> {
    let mut r = Reader::new(b);
    let mut backoff = None;
    while r.remaining() > 0 {
        let (f, wt) = key(&mut r)?;
        match (f, wt) {
            (field::ITEM_TOPIC, _) => topic.read(&mut r, wt, limits)?,
            (field::PRUNE_BACKOFF, 0) => backoff = Some(r.varint("backoff")?),
            // PX peer records (field 2) are not used: txcast has no peer discovery to feed.
            _ => skip(&mut r, wt)?,
        }
    }
    Ok(backoff)
}
