//! Transaction content: the bytes a transaction is, and the ids derived from them.
//!
//! Protocols name transactions by `TxId`, a handle that is cheap to copy, hash and keep in
//! bit sets. What a handle stands for lives behind [`Content`]:
//! - [`Synthetic`], in the simulator: a tx's bytes are a pure function of its id
//!   (`Tx::fill_body`), so thousands of nodes carry no bytes and the engine stays fast.
//! - [`TxStore`], on a live node: the real bytes, found by their key (SHA-256 of the bytes,
//!   or a protocol's message id), with handles given out here in arrival order. Only codecs
//!   and content checks see keys and bytes; protocol logic sees the same handles in both worlds.
//!
//! A receiver never takes an id on trust: `admit` derives it from the bytes it was handed.

use crate::{Tx, TxId};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, VecDeque};

/// Where a node finds transaction bytes. Protocols reach it through `Ctx::content`.
pub trait Content {
    /// Writes the bytes of `tx` into `out` (cleared first); false if this node does not hold them.
    fn body(&self, tx: Tx, out: &mut Vec<u8>) -> bool;
    /// The tx these bytes are, if they can be one. The id derives from the bytes, so bytes
    /// cannot be passed off under another tx's id.
    fn admit(&mut self, bytes: &[u8]) -> Option<Tx>;
}

/// The simulator's content: bytes derived from the id, nothing stored.
#[derive(Clone, Copy, Debug, Default)]
pub struct Synthetic;

impl Content for Synthetic {
    fn body(&self, tx: Tx, out: &mut Vec<u8>) -> bool {
        tx.fill_body(out);
        true
    }

    /// Bytes are a tx if they are exactly the body of the id in their first 8 bytes.
    fn admit(&mut self, bytes: &[u8]) -> Option<Tx> {
        let head: [u8; 8] = bytes.get(..8)?.try_into().ok()?;
        let tx = Tx {
            id: TxId(u64::from_le_bytes(head)),
            len: u32::try_from(bytes.len()).ok()?,
        };
        let mut expected = Vec::with_capacity(bytes.len());
        tx.fill_body(&mut expected);
        (expected == bytes).then_some(tx)
    }
}

/// The SHA-256 of `bytes`: a tx's key (CAT's tx key, ADR 009).
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// How much a [`TxStore`] holds before it forgets its oldest entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoreLimits {
    /// Entries (txs, and keys heard of whose bytes have not arrived).
    pub max_entries: usize,
    /// Bytes of bodies and keys together.
    pub max_bytes: usize,
    /// Keys heard of whose bytes have not arrived: peers can name any key, so these have a
    /// budget of their own and the oldest go first, never a tx whose bytes are here.
    pub max_unbacked: usize,
}

impl Default for StoreLimits {
    fn default() -> Self {
        StoreLimits {
            max_entries: 1 << 18,
            max_bytes: 256 << 20,
            max_unbacked: 1 << 16,
        }
    }
}

/// The longest key the store takes (message ids of other implementations included).
pub const MAX_KEY_BYTES: usize = 128;

struct Entry {
    key: Box<[u8]>,
    /// The stored bytes; `payload` is the tx inside them (all of them, except for a
    /// GossipSub message, whose envelope is kept to forward it as received).
    body: Option<Box<[u8]>>,
    payload: (u32, u32),
    /// What the protocol filed the key under, if it said (GossipSub: the message's topic).
    tag: Option<u16>,
}

impl Entry {
    fn size(&self) -> usize {
        self.key.len() + self.body.as_ref().map_or(0, |b| b.len())
    }
}

/// A live node's transactions: bytes by key, handles in arrival order, bounded in entries
/// and bytes (the oldest entries go first, and their handles are never given out again).
pub struct TxStore {
    limits: StoreLimits,
    /// The next handle to give out.
    next: u64,
    entries: BTreeMap<u64, Entry>,
    by_key: BTreeMap<Box<[u8]>, u64>,
    /// Handles of key-only entries, oldest first (some may have their bytes by now).
    unbacked: VecDeque<u64>,
    bytes: usize,
    /// Entries forgotten to stay within the limits.
    pub evicted: u64,
    /// Keys or bodies refused (too long, or bigger than the whole budget).
    pub refused: u64,
}

impl Default for TxStore {
    fn default() -> Self {
        TxStore::new(StoreLimits::default())
    }
}

impl TxStore {
    pub fn new(limits: StoreLimits) -> TxStore {
        TxStore {
            limits,
            next: 0,
            entries: BTreeMap::new(),
            by_key: BTreeMap::new(),
            unbacked: VecDeque::new(),
            bytes: 0,
            evicted: 0,
            refused: 0,
        }
    }

    fn entry(&self, id: TxId) -> Option<&Entry> {
        self.entries.get(&id.0)
    }

    fn entry_mut(&mut self, id: TxId) -> Option<&mut Entry> {
        self.entries.get_mut(&id.0)
    }

    /// The key a tx is named by on the wire.
    pub fn key(&self, id: TxId) -> Option<&[u8]> {
        self.entry(id).map(|e| &e.key[..])
    }

    /// The tx a key names, if it is known here (lookup only).
    pub fn find(&self, key: &[u8]) -> Option<TxId> {
        self.by_key.get(key).map(|&h| TxId(h))
    }

    /// The tx a key names, remembering the key if it is new (its bytes may come later).
    pub fn intern(&mut self, key: &[u8]) -> Option<TxId> {
        if let Some(id) = self.find(key) {
            return Some(id);
        }
        if key.is_empty() || key.len() > MAX_KEY_BYTES {
            self.refused += 1;
            return None;
        }
        let id = self.push(Entry {
            key: key.into(),
            body: None,
            payload: (0, 0),
            tag: None,
        });
        self.unbacked.push_back(id.0);
        self.trim_unbacked();
        Some(id)
    }

    /// Forgets the oldest keys still without bytes beyond their budget.
    fn trim_unbacked(&mut self) {
        while self.unbacked.len() > self.limits.max_unbacked {
            let Some(h) = self.unbacked.pop_front() else {
                break;
            };
            let id = TxId(h);
            if self.entry(id).is_some_and(|e| e.body.is_none()) {
                self.remove(id);
            }
        }
    }

    fn remove(&mut self, id: TxId) {
        if let Some(e) = self.entries.remove(&id.0) {
            self.bytes -= e.size();
            self.by_key.remove(&e.key);
            self.evicted += 1;
        }
    }

    /// Stores `body` under `key` (the tx is `body[payload]`); the first body for a key wins.
    /// None if it cannot be held.
    pub fn insert(&mut self, key: &[u8], body: &[u8], payload: (u32, u32)) -> Option<Tx> {
        let (start, len) = payload;
        let fits = (start as usize)
            .checked_add(len as usize)
            .is_some_and(|end| end <= body.len());
        if !fits || key.len() + body.len() > self.limits.max_bytes {
            self.refused += 1;
            return None;
        }
        let id = self.intern(key)?;
        let entry = self.entry_mut(id)?;
        if entry.body.is_none() {
            entry.body = Some(body.into());
            entry.payload = payload;
            self.bytes += body.len();
            self.trim(Some(id));
        }
        let len = self.entry(id)?.payload.1;
        Some(Tx { id, len })
    }

    /// Stores a tx's bytes under their SHA-256 (content-addressed).
    pub fn admit(&mut self, bytes: &[u8]) -> Option<Tx> {
        let len = u32::try_from(bytes.len()).ok()?;
        self.insert(&sha256(bytes), bytes, (0, len))
    }

    /// All the bytes stored for a tx (a GossipSub message's envelope included).
    pub fn stored(&self, id: TxId) -> Option<&[u8]> {
        self.entry(id)?.body.as_deref()
    }

    /// The tx's own bytes.
    pub fn payload(&self, id: TxId) -> Option<&[u8]> {
        let e = self.entry(id)?;
        let (start, len) = (e.payload.0 as usize, e.payload.1 as usize);
        e.body.as_deref()?.get(start..start + len)
    }

    /// The tx with this key and its bytes, if they are here.
    pub fn tx(&self, id: TxId) -> Option<Tx> {
        let e = self.entry(id)?;
        e.body.as_ref()?;
        Some(Tx {
            id,
            len: e.payload.1,
        })
    }

    /// Files a tx under `tag` (the first tag given sticks).
    pub fn tag(&mut self, id: TxId, tag: u16) {
        if let Some(e) = self.entry_mut(id) {
            e.tag.get_or_insert(tag);
        }
    }

    pub fn tag_of(&self, id: TxId) -> Option<u16> {
        self.entry(id)?.tag
    }

    /// Keys known (with or without their bytes).
    pub fn len(&self) -> usize {
        self.by_key.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_key.is_empty()
    }

    /// Bytes held (keys and bodies).
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    fn push(&mut self, entry: Entry) -> TxId {
        let id = TxId(self.next);
        self.next += 1;
        self.bytes += entry.size();
        self.by_key.insert(entry.key.clone(), id.0);
        self.entries.insert(id.0, entry);
        self.trim(Some(id));
        id
    }

    /// Forgets the oldest entries until the store is within its limits, never `keep`.
    fn trim(&mut self, keep: Option<TxId>) {
        while self.entries.len() > self.limits.max_entries || self.bytes > self.limits.max_bytes {
            let Some(&oldest) = self.entries.keys().next() else {
                break;
            };
            if keep == Some(TxId(oldest)) {
                break;
            }
            self.remove(TxId(oldest));
        }
    }
}

impl Content for TxStore {
    fn body(&self, tx: Tx, out: &mut Vec<u8>) -> bool {
        out.clear();
        match self.payload(tx.id) {
            Some(bytes) => {
                out.extend_from_slice(bytes);
                true
            }
            None => false,
        }
    }

    fn admit(&mut self, bytes: &[u8]) -> Option<Tx> {
        TxStore::admit(self, bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthetic_bodies_are_admitted_only_whole() {
        let tx = Tx {
            id: TxId(7),
            len: 40,
        };
        let mut body = Vec::new();
        assert!(Synthetic.body(tx, &mut body));
        assert_eq!(Synthetic.admit(&body), Some(tx));
        body[30] ^= 1;
        assert_eq!(Synthetic.admit(&body), None);
        assert_eq!(Synthetic.admit(&body[..5]), None);
    }

    #[test]
    fn the_id_derives_from_the_bytes() {
        let mut s = TxStore::default();
        let a = s.admit(b"hello").unwrap();
        assert_eq!(s.admit(b"hello"), Some(a), "the same bytes are the same tx");
        let b = s.admit(b"hello!").unwrap();
        assert_ne!(a.id, b.id);
        assert_eq!(s.key(a.id), Some(&sha256(b"hello")[..]));
        assert_eq!(s.payload(b.id), Some(&b"hello!"[..]));
        let mut out = Vec::new();
        assert!(s.body(a, &mut out));
        assert_eq!(out, b"hello");
    }

    #[test]
    fn a_key_heard_of_gets_its_bytes_later() {
        let mut s = TxStore::default();
        let key = sha256(b"tx");
        let id = s.intern(&key).unwrap();
        assert_eq!(s.tx(id), None);
        assert_eq!(s.admit(b"tx").map(|t| t.id), Some(id));
        assert_eq!(s.tx(id).map(|t| t.len), Some(2));
        assert_eq!(s.intern(&[]), None);
        assert_eq!(s.intern(&[0; MAX_KEY_BYTES + 1]), None);
        assert_eq!(s.refused, 2);
    }

    #[test]
    fn the_oldest_go_first_and_handles_are_not_reused() {
        let mut s = TxStore::new(StoreLimits {
            max_entries: 2,
            ..StoreLimits::default()
        });
        let a = s.admit(b"a").unwrap();
        let b = s.admit(b"b").unwrap();
        let c = s.admit(b"c").unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s.payload(a.id), None);
        assert_eq!(s.payload(b.id), Some(&b"b"[..]));
        assert_eq!(s.evicted, 1);
        let again = s.admit(b"a").unwrap();
        assert!(
            again.id > c.id,
            "a forgotten tx comes back under a new handle"
        );
    }

    #[test]
    fn bytes_are_bounded_and_one_body_never_exceeds_them() {
        let mut s = TxStore::new(StoreLimits {
            max_entries: 100,
            max_bytes: 200,
            max_unbacked: 10,
        });
        assert_eq!(s.admit(&[1; 300]), None);
        for i in 0..10u8 {
            s.admit(&[i; 50]).unwrap();
        }
        assert!(s.bytes() <= 200, "{}", s.bytes());
        assert_eq!(s.len(), 2);
    }

    #[test]
    fn a_flood_of_keys_never_pushes_out_a_tx() {
        let mut s = TxStore::new(StoreLimits {
            max_entries: 1_000,
            max_bytes: 1 << 20,
            max_unbacked: 100,
        });
        let tx = s.admit(b"precious").unwrap();
        for i in 0..10_000u32 {
            s.intern(&sha256(&i.to_le_bytes())).unwrap();
        }
        assert_eq!(s.payload(tx.id), Some(&b"precious"[..]));
        assert_eq!(s.len(), 101);
        // A key whose bytes arrived is a tx like any other, out of the keys' budget.
        let key = sha256(b"later");
        let id = s.intern(&key).unwrap();
        s.admit(b"later").unwrap();
        for i in 0..1_000u32 {
            s.intern(&sha256(&(i + 1_000_000).to_le_bytes())).unwrap();
        }
        assert_eq!(s.payload(id), Some(&b"later"[..]));
    }

    #[test]
    fn the_first_tag_sticks() {
        let mut s = TxStore::default();
        let id = s.intern(b"k").unwrap();
        assert_eq!(s.tag_of(id), None);
        s.tag(id, 3);
        s.tag(id, 4);
        assert_eq!(s.tag_of(id), Some(3));
        s.tag(TxId(99), 1);
        assert_eq!(s.tag_of(TxId(99)), None);
    }

    #[test]
    fn an_envelope_keeps_its_payload_apart() {
        let mut s = TxStore::default();
        let tx = s.insert(b"msg-id", b"headerDATA", (6, 4)).unwrap();
        assert_eq!(tx.len, 4);
        assert_eq!(s.payload(tx.id), Some(&b"DATA"[..]));
        assert_eq!(s.stored(tx.id), Some(&b"headerDATA"[..]));
        assert_eq!(
            s.insert(b"x", b"ab", (1, 2)),
            None,
            "a payload past the end"
        );
    }
}
