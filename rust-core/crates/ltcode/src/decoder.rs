//! The peeling decoder (§4.1, §4.3): one per node, fed codewords from many senders.
//!
//! Graph: pending codewords on one side, missing symbols on the other. A missing symbol is
//! only known by its short ID under one sender's key, so the missing side is keyed by
//! (sender, short ID). When a symbol is decoded it is re-keyed: its name is hashed under
//! every sender's key, and each sender's codewords waiting on that ID are peeled.
//!
//! Symbols are values of the codec's form (`form`): their bytes, or stand-ins, named by their
//! bytes or their digest. A decoded value's digest, where it is its name, is taken once; the
//! ring keeps it beside the value (a stand-in starts with it).
//!
//! In the stand-in form a symbol's short IDs under any two keys differ by a constant (`shortid`),
//! so where every sender sees the whole peeling window (no rekey window cut) one table keyed by
//! the IDs' common part serves every sender: a decoded symbol is written once, not once per
//! sender, and the waiting codewords of all senders hang off its one entry. Both layouts queue
//! the same work in the same order, so they give the same events (`one_table_*` tests).
//!
//! A known entry names its symbol by sequence number, so whether the symbol is still in the
//! peeling window follows from the number alone (no per-sender record of the ring to read).
//!
//! Storage is flat: codewords (`pending`) and edges (`edges`) live in slabs with free lists,
//! each codeword keeps the XOR of its remaining unknown IDs (so a degree-1 codeword names its
//! last ID without a list), and edges form doubly linked lists per waiting ID; a codeword's
//! own edges sit together (used to unlink them when the codeword retires).

use std::collections::VecDeque;

use crate::digest::{Digest, DIGEST_LEN};
use crate::edges::{Edge, Edges, NIL};
use crate::form::Form;
use crate::idmap::IdMap;
use crate::params::{ParamError, Params};
use crate::pending::Codewords;
use crate::prefetch::{prefetch_all, warm};
use crate::ring::Ring;
use crate::rng::CodecRng;
use crate::shortid::{common_id, ids_into, LinkKey, ShortId, ShortIdHasher};
use crate::window::WrongLength;
use crate::xor::{is_zero, xor_into, xor_pair_into};

/// A sender's handle in this decoder (a node maps its peers to these).
pub type SenderId = u32;

/// What the decoder reports. Drain after each call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A new symbol, readable with [`Decoder::symbol`]`(seq)` while in the peeling window.
    /// `from` is the sender whose codeword yielded it.
    Decoded { seq: u64, from: SenderId },
    /// A codeword from `sender` was not decoded within tau (or was dropped at `max_pending`).
    Loss { sender: SenderId },
    /// A codeword from `sender` failed its check: the payload left for its last ID does not
    /// hash to it, or a fully peeled payload is not zero. Corrupt payload, forged header or
    /// a short-ID collision; nothing was decoded from it.
    Corrupt { sender: SenderId },
}

/// Why a codeword was refused before touching the graph (each is counted as `rejected`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reject {
    UnknownSender,
    DegreeZero,
    DegreeTooLarge { degree: usize, max: usize },
    PayloadLength { expected: usize, got: usize },
    DuplicateId,
}

impl std::fmt::Display for Reject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "codeword rejected: {self:?}")
    }
}

impl std::error::Error for Reject {}

/// Per-sender counters (codewords unless noted).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SenderStats {
    pub received: u64,
    pub rejected: u64,
    /// Codewords that yielded a new symbol.
    pub decoded: u64,
    /// Codewords whose symbols were all known by the time they resolved.
    pub redundant: u64,
    pub corrupt: u64,
    pub lost: u64,
}

/// Map entries: the top bit clear means "known: the symbol with this sequence number (mod
/// 2^31)"; set means "missing: waiting codewords' edge list starts at the edge in the low
/// bits". Known entries keep the bit clear so that none is all ones, the map's mark of an
/// empty slot (`idmap::EMPTY`), however many symbols a long-running node learns.
const WAITING: u32 = 1 << 31;

/// A known entry for symbol `seq`.
#[inline]
fn known(seq: u64) -> u32 {
    seq as u32 & !WAITING
}

/// The entry of a waiting list that starts at `edge` (the edge arena stays far below 2^31).
#[inline]
fn waiting(edge: u32) -> u32 {
    debug_assert!(
        edge < !WAITING,
        "edge index {edge} out of the entry's range"
    );
    edge | WAITING
}

/// The first edge of the waiting list an entry is, if it is one (else it is known).
#[inline]
fn waiting_head(entry: u32) -> Option<u32> {
    (entry & WAITING != 0).then_some(entry & !WAITING)
}

/// For a known entry whose symbol is still among the last `m` learned: how many symbols ago it
/// was learned (1 = the newest). Stale entries are swept before their age reaches 2^31
/// (m <= 2^30, sweeps every m/2 evictions), so the age mod 2^31 is exact.
#[inline]
fn live_age(entry: u32, learned: u64, m: usize) -> Option<u64> {
    let age = ((learned as u32).wrapping_sub(entry) & !WAITING) as u64;
    (entry & WAITING == 0 && (1..=m as u64).contains(&age)).then_some(age)
}

/// Whether `ids` names an ID twice. A filter on the IDs' low bits (512 bits up to 16 IDs,
/// else 64 or more per ID up to 8,192) sends only an ID whose bit is already set to an exact
/// scan of those before it: an honest header of d IDs makes about d^2 / (2 x the filter's
/// bits) such scans. Peers choose IDs, so after a few scans it sorts a copy instead: a hostile
/// header costs d log d. `wide` holds a longer header's filter, `sorted` the copy (scratch).
fn has_repeat(ids: &[ShortId], wide: &mut Vec<u64>, sorted: &mut Vec<ShortId>) -> bool {
    const NARROW_WORDS: usize = 8;
    const MAX_WORDS: usize = 128;
    if ids.len() <= 2 * NARROW_WORDS {
        return filtered_repeat(ids, &mut [0; NARROW_WORDS], sorted);
    }
    wide.clear();
    wide.resize(ids.len().next_power_of_two().min(MAX_WORDS), 0);
    filtered_repeat(ids, wide, sorted)
}

/// `has_repeat` with a zeroed filter of a power-of-two number of words (inlined, so that the
/// common narrow filter's size is a constant).
#[inline(always)]
fn filtered_repeat(ids: &[ShortId], seen: &mut [u64], sorted: &mut Vec<ShortId>) -> bool {
    const MAX_SCANS: usize = 4;
    let last_word = seen.len() - 1;
    let mut scans = 0;
    for (i, &id) in ids.iter().enumerate() {
        let (word, bit) = ((id >> 6) as usize & last_word, 1u64 << (id & 63));
        if seen[word] & bit != 0 {
            scans += 1;
            if scans > MAX_SCANS {
                sorted.clear();
                sorted.extend_from_slice(ids);
                sorted.sort_unstable();
                return sorted.windows(2).any(|w| w[0] == w[1]);
            }
            if ids[..i].contains(&id) {
                return true;
            }
        }
        seen[word] |= bit;
    }
    false
}

/// Writes into `dst` (all of it) a codeword's payload XOR its known symbols, at these ring
/// positions: XORed straight in, with no copy of the payload first.
fn peel_known(dst: &mut [u8], payload: &[u8], known: &[usize], ring: &Ring) {
    match known.split_first() {
        Some((&first, rest)) => {
            xor_pair_into(dst, payload, ring.value(first));
            for &pos in rest {
                xor_into(dst, ring.value(pos));
            }
        }
        None => dst.copy_from_slice(payload),
    }
}

/// Whether an entry names a symbol that left the peeling window (it may be dropped); None
/// until the window first fills, when no entry can have left it (a sweep would rebuild a
/// table to find nothing).
fn stale(learned: u64, m: usize) -> Option<impl Fn(u32) -> bool> {
    (learned > m as u64)
        .then_some(move |entry| entry & WAITING == 0 && live_age(entry, learned, m).is_none())
}

/// The table that holds `sender`'s entries: the one every sender shares, or its own.
fn table_of<'a>(shared: &'a Option<IdMap>, senders: &'a [Sender], sender: SenderId) -> &'a IdMap {
    match shared {
        Some(table) => table,
        None => &senders[sender as usize].ids,
    }
}

/// [`table_of`], to change.
fn table<'a>(
    shared: &'a mut Option<IdMap>,
    senders: &'a mut [Sender],
    sender: SenderId,
) -> &'a mut IdMap {
    match shared {
        Some(table) => table,
        None => &mut senders[sender as usize].ids,
    }
}

#[derive(Clone, Debug)]
struct Sender {
    /// Its short IDs' entries (unused where one table serves every sender).
    ids: IdMap,
    stats: SenderStats,
    active: bool,
    /// Its codewords waiting on missing symbols.
    queued: usize,
}

/// The slot of an entry in `expiry` whose codeword was resolved or lost.
const GONE: u32 = u32::MAX;

pub struct Decoder {
    form: Form,
    /// Bytes of a value: l, or a stand-in's.
    value_len: usize,
    peel_window: usize,
    max_degree: usize,
    timeout_us: u64,
    max_pending: usize,
    max_pending_per_sender: usize,
    rekey_window: usize,
    /// Secret words for the ID tables (see `idmap`).
    mix: (u64, u64),
    senders: Vec<Sender>,
    /// The table every sender shares, keyed by common IDs (stand-in form, whole window).
    shared: Option<IdMap>,
    /// Each sender's key schedule, apart so one symbol is hashed under all of them at once.
    hashers: Vec<ShortIdHasher>,
    /// Each sender's mask where one table serves them all (0 elsewhere), apart from the keys:
    /// the hint before a codeword (`warm_early`) loads one line of them, not every key.
    masks: Vec<u32>,
    /// Peeling window: ring of `peel_window` values, grown on demand.
    ring: Ring,
    /// The digest of each value in the ring (`Form::DigestedBytes` only: the other forms'
    /// values hold their names).
    digests: Vec<Digest>,
    learned: u64,
    /// Ring position of the next symbol (`learned` mod m), kept so that a lookup of a known
    /// symbol needs no 64-bit division.
    next_pos: usize,
    /// Symbols evicted since stale map entries were last swept.
    evicted: usize,
    codewords: Codewords,
    edges: Edges,
    /// Codewords waiting on missing symbols, in arrival order: (slot, deadline), the slot
    /// `GONE` once the codeword is retired. Retiring marks the entry itself, so that dropping
    /// retired entries reads no codeword: the oldest ones are no longer in the cache.
    expiry: VecDeque<(u32, u64)>,
    /// Entries taken off the front of `expiry` since it was last compacted (wrapping).
    expiry_taken: u32,
    queued_live: usize,
    work: Vec<(u32, u32)>,
    unknown: Vec<ShortId>,
    /// Ring positions of the known symbols of the codeword being received.
    known: Vec<usize>,
    /// Scratch of `has_repeat`: a long header's filter, and a sorted copy of its IDs.
    filter: Vec<u64>,
    sorted: Vec<ShortId>,
    /// The symbol being announced, hashed under each sender's key (indexed by sender).
    rekeyed: Vec<ShortId>,
    /// A codeword settled as it arrives (one ID or none unknown), peeled; one that waits is
    /// peeled straight into its slot.
    value: Vec<u8>,
    /// The pending codeword being settled.
    resolving: Vec<u8>,
}

impl Decoder {
    /// `rng` seeds the secret that protects the decoder's hash tables.
    pub fn new(params: &Params, rng: &mut (impl CodecRng + ?Sized)) -> Result<Decoder, ParamError> {
        params.validate()?;
        let mix = (rng.next_u64(), rng.next_u64());
        let one_table = params.form == Form::StandIn && params.rekey_window >= params.peel_window;
        Ok(Decoder {
            form: params.form,
            value_len: params.value_len(),
            peel_window: params.peel_window,
            max_degree: params.window,
            timeout_us: params.timeout_us,
            max_pending: params.max_pending,
            max_pending_per_sender: params.max_pending_per_sender,
            rekey_window: params.rekey_window,
            mix,
            senders: Vec::new(),
            shared: one_table.then(|| IdMap::new(mix.0, mix.1)),
            hashers: Vec::new(),
            masks: Vec::new(),
            ring: Ring::new(params.value_len()),
            digests: Vec::new(),
            learned: 0,
            next_pos: 0,
            evicted: 0,
            codewords: Codewords::new(params.value_len()),
            edges: Edges::default(),
            expiry: VecDeque::new(),
            expiry_taken: 0,
            queued_live: 0,
            work: Vec::new(),
            unknown: Vec::new(),
            known: Vec::new(),
            filter: Vec::new(),
            sorted: Vec::new(),
            rekeyed: Vec::new(),
            value: Vec::new(),
            resolving: Vec::new(),
        })
    }

    /// A decoder that keeps a table per sender even where one would serve them all: what the
    /// one-table layout is checked against.
    #[doc(hidden)]
    pub fn with_table_per_sender(
        params: &Params,
        rng: &mut (impl CodecRng + ?Sized),
    ) -> Result<Decoder, ParamError> {
        let mut decoder = Decoder::new(params, rng)?;
        decoder.shared = None;
        Ok(decoder)
    }

    /// Whether one table serves every sender (see the module's notes).
    pub fn one_table(&self) -> bool {
        self.shared.is_some()
    }

    /// Registers a sender that names symbols with `key` (the key this node sent it). The
    /// newest `rekey_window` symbols of the peeling window are hashed under the key so they
    /// peel its codewords.
    pub fn add_sender(&mut self, key: &LinkKey) -> SenderId {
        let hasher = ShortIdHasher::for_form(key, self.form);
        let mask = hasher.mask().unwrap_or(0);
        let mut sender = Sender {
            ids: IdMap::new(self.mix.0, self.mix.1),
            stats: SenderStats::default(),
            active: true,
            queued: 0,
        };
        // The shared table holds the whole window under common IDs already.
        let rekeyed = match self.shared {
            Some(_) => 0,
            None => self.peel_window.min(self.rekey_window) as u64,
        };
        for seq in self.learned.saturating_sub(rekeyed)..self.learned {
            let id = hasher.id(self.ring_name(self.ring_pos(seq)));
            sender.ids.insert(id, known(seq));
        }
        match self.senders.iter().position(|s| !s.active) {
            Some(slot) => {
                self.senders[slot] = sender;
                self.hashers[slot] = hasher;
                self.masks[slot] = mask;
                slot as SenderId
            }
            None => {
                self.senders.push(sender);
                self.hashers.push(hasher);
                self.masks.push(mask);
                (self.senders.len() - 1) as SenderId
            }
        }
    }

    /// Forgets a sender and drops its pending codewords without reporting them as losses.
    /// Its id may be handed out again by a later `add_sender`.
    pub fn remove_sender(&mut self, sender: SenderId) {
        let Some(state) = self.senders.get(sender as usize) else {
            return;
        };
        if !state.active {
            return;
        }
        for slot in 0..self.codewords.len() as u32 {
            let cw = self.codewords.get(slot);
            if cw.live && cw.sender == sender {
                self.retire(slot);
            }
        }
        let state = &mut self.senders[sender as usize];
        state.active = false;
        state.ids = IdMap::new(self.mix.0, self.mix.1);
    }

    /// Forgets every symbol and pending codeword (nothing is reported) but keeps the senders,
    /// their keys and the allocations: a fresh decoder for the same peers.
    pub fn clear(&mut self) {
        self.learned = 0;
        self.next_pos = 0;
        self.evicted = 0;
        self.ring.clear();
        self.digests.clear();
        for sender in self.senders.iter_mut().filter(|s| s.active) {
            sender.ids.clear();
            sender.queued = 0;
        }
        if let Some(shared) = self.shared.as_mut() {
            shared.clear();
        }
        self.codewords.clear();
        self.edges.clear();
        self.expiry.clear();
        self.expiry_taken = 0;
        self.queued_live = 0;
        self.work.clear();
    }

    pub fn stats(&self, sender: SenderId) -> Option<&SenderStats> {
        self.senders
            .get(sender as usize)
            .filter(|s| s.active)
            .map(|s| &s.stats)
    }

    /// Symbols that entered the peeling window so far (decoded or inserted).
    pub fn learned(&self) -> u64 {
        self.learned
    }

    /// Codewords waiting on missing symbols.
    pub fn pending(&self) -> usize {
        self.queued_live
    }

    /// Codewords of one sender waiting on missing symbols.
    pub fn pending_from(&self, sender: SenderId) -> usize {
        self.senders.get(sender as usize).map_or(0, |s| s.queued)
    }

    /// The value of symbol `seq` (its bytes, or its stand-in) if it is still in the peeling
    /// window.
    pub fn symbol(&self, seq: u64) -> Option<&[u8]> {
        self.in_window(seq)
            .then(|| self.ring.value(self.ring_pos(seq)))
    }

    /// The digest of symbol `seq` if it is still in the peeling window and the codec's form
    /// names symbols by digest.
    pub fn digest(&self, seq: u64) -> Option<Digest> {
        if !self.in_window(seq) || !self.form.named_by_digest() {
            return None;
        }
        self.ring_name(self.ring_pos(seq)).try_into().ok()
    }

    fn in_window(&self, seq: u64) -> bool {
        seq < self.learned && seq + self.peel_window as u64 >= self.learned
    }

    /// The earliest time `poll` has something to do (it may find nothing: never cancelled).
    pub fn next_deadline(&self) -> Option<u64> {
        self.expiry.front().map(|&(_, deadline)| deadline)
    }

    /// Reports codewords whose timeout passed as losses and frees them.
    pub fn poll(&mut self, now_us: u64, out: &mut Vec<Event>) {
        while let Some(&(slot, deadline)) = self.expiry.front() {
            if slot != GONE && deadline > now_us {
                break;
            }
            self.take_oldest();
            if slot != GONE {
                self.lose(slot, out);
            }
        }
    }

    /// Adds a symbol this node got elsewhere (its own transaction, or one decoded by another
    /// path), as a value of the codec's form. It peels pending codewords, which may decode
    /// more (reported in `out`). The caller must not insert a symbol twice; it returns the
    /// symbol's `seq`.
    pub fn insert_known(&mut self, value: &[u8], out: &mut Vec<Event>) -> Result<u64, WrongLength> {
        if value.len() != self.value_len {
            return Err(WrongLength {
                expected: self.value_len,
                got: value.len(),
            });
        }
        let digest = self.form.named_by_digest().then(|| self.form.digest(value));
        let (seq, pos) = self.make_room();
        self.store(pos, value, digest.as_ref());
        self.announce(seq, pos, None);
        self.drain_work(out);
        Ok(seq)
    }

    /// Takes one codeword from `sender`, arriving at `now_us`. Decoded symbols, corrupt
    /// codewords and timeouts that passed are reported in `out`.
    pub fn receive(
        &mut self,
        sender: SenderId,
        now_us: u64,
        ids: &[ShortId],
        payload: &[u8],
        out: &mut Vec<Event>,
    ) -> Result<(), Reject> {
        self.poll(now_us, out);
        let verdict = self.check(sender, ids, payload);
        let Some(state) = self.senders.get_mut(sender as usize).filter(|s| s.active) else {
            return Err(Reject::UnknownSender);
        };
        if let Err(reject) = verdict {
            state.stats.rejected += 1;
            return Err(reject);
        }
        state.stats.received += 1;

        // Peel what is known already; remember the rest.
        let l = self.value_len;
        self.unknown.clear();
        self.known.clear();
        let mask = self.mask(sender);
        let ids_table = table_of(&self.shared, &self.senders, sender);
        ids.iter().for_each(|&id| ids_table.warm(id ^ mask));
        for &id in ids {
            match ids_table.get(id ^ mask).and_then(|e| self.live_pos(e)) {
                Some(pos) => self.known.push(pos),
                None => self.unknown.push(id ^ mask),
            }
        }
        // Warm every line of the known symbols before peeling, so their misses overlap.
        for &pos in &self.known {
            let symbol = self.ring.value(pos);
            symbol.iter().step_by(64).for_each(warm);
            warm(&symbol[l - 1]);
        }
        let remaining = self.unknown.len() as u32;
        let id_xor = self.unknown.iter().fold(0, |acc, id| acc ^ id);
        if remaining <= 1 {
            // Settled at once: it never takes a slot.
            let mut value = std::mem::take(&mut self.value);
            value.resize(l, 0);
            peel_known(&mut value, payload, &self.known, &self.ring);
            self.settle(sender, remaining, id_xor, &value, out);
            self.value = value;
        } else {
            let slot = self.codewords.alloc(sender);
            let peeled = self.codewords.payload_mut(slot);
            peel_known(peeled, payload, &self.known, &self.ring);
            let cw = self.codewords.get_mut(slot);
            cw.remaining = remaining;
            cw.id_xor = id_xor;
            self.link_unknown(slot, sender);
            let queued_at = self.expiry_taken.wrapping_add(self.expiry.len() as u32);
            let cw = self.codewords.get_mut(slot);
            cw.queued = true;
            cw.queued_at = queued_at;
            self.queued_live += 1;
            self.senders[sender as usize].queued += 1;
            let deadline = now_us.saturating_add(self.timeout_us);
            self.expiry.push_back((slot, deadline));
            if self.senders[sender as usize].queued > self.max_pending_per_sender {
                self.lose(slot, out);
            }
            self.bound_pending(out);
        }
        self.drain_work(out);
        Ok(())
    }

    /// A hint before `receive` of a codeword from `sender` naming `ids`: starts loading the
    /// sender's table slots the IDs hash to (the first lookups `receive` makes; what they find
    /// is not known yet). Reads the sender's entry to find its table.
    #[inline]
    pub fn warm(&self, sender: SenderId, ids: &[ShortId]) {
        if sender as usize >= self.senders.len() {
            return;
        }
        let mask = self.mask(sender);
        let ids_table = table_of(&self.shared, &self.senders, sender);
        ids.iter().for_each(|&id| ids_table.warm(id ^ mask));
    }

    /// A hint before `warm`: starts loading every sender's mask, which `warm` reads where one
    /// table serves every sender (elsewhere it reads none).
    #[inline]
    pub fn warm_early(&self) {
        if self.shared.is_some() {
            prefetch_all(&self.masks[..]);
        }
    }

    /// What turns `sender`'s short IDs into keys of its table: its mask where the table is
    /// shared (the keys are common IDs), else nothing.
    #[inline]
    fn mask(&self, sender: SenderId) -> u32 {
        match self.shared {
            Some(_) => self.masks.get(sender as usize).copied().unwrap_or(0),
            None => 0,
        }
    }

    fn check(&mut self, sender: SenderId, ids: &[ShortId], payload: &[u8]) -> Result<(), Reject> {
        if !self.senders.get(sender as usize).is_some_and(|s| s.active) {
            return Err(Reject::UnknownSender);
        }
        if ids.is_empty() {
            return Err(Reject::DegreeZero);
        }
        if ids.len() > self.max_degree {
            return Err(Reject::DegreeTooLarge {
                degree: ids.len(),
                max: self.max_degree,
            });
        }
        if payload.len() != self.value_len {
            return Err(Reject::PayloadLength {
                expected: self.value_len,
                got: payload.len(),
            });
        }
        // A repeated ID would cancel itself in the XOR of remaining IDs: refuse it.
        if has_repeat(ids, &mut self.filter, &mut self.sorted) {
            return Err(Reject::DuplicateId);
        }
        Ok(())
    }

    /// Adds an edge per unknown ID of codeword `slot` at the head of that ID's waiting list.
    fn link_unknown(&mut self, slot: u32, sender: SenderId) {
        let ids = table(&mut self.shared, &mut self.senders, sender);
        let block = self.edges.alloc(self.unknown.len());
        let mut walk = self.edges.walk(block);
        for &id in &self.unknown {
            let Some(e) = self.edges.next(&mut walk) else {
                break;
            };
            // The ID is not live (checked by the caller): an entry is a waiting list or a
            // stale known one, which this replaces.
            let previous =
                ids.insert_or_sweep(id, waiting(e), stale(self.learned, self.peel_window));
            let next = previous.and_then(waiting_head).unwrap_or(NIL);
            *self.edges.get_mut(e) = Edge {
                cw: slot,
                id,
                prev: NIL,
                next,
            };
            if next != NIL {
                self.edges.get_mut(next).prev = e;
            }
        }
        self.codewords.get_mut(slot).edges = block;
    }

    /// Drops the oldest pending codewords (as losses) while more than `max_pending` wait.
    fn bound_pending(&mut self, out: &mut Vec<Event>) {
        while self.queued_live > self.max_pending {
            let Some(slot) = self.take_oldest() else {
                break;
            };
            if slot != GONE {
                self.lose(slot, out);
            }
        }
        // Resolved codewords leave their entries behind a live head; compact rarely.
        if self.expiry.len() > 2 * self.max_pending + 64 {
            self.expiry.retain(|&(slot, _)| slot != GONE);
            self.expiry_taken = 0;
            for (at, &(slot, _)) in self.expiry.iter().enumerate() {
                self.codewords.get_mut(slot).queued_at = at as u32;
            }
        }
    }

    /// Takes the oldest entry off `expiry`: its slot, `GONE` if retired.
    fn take_oldest(&mut self) -> Option<u32> {
        let (slot, _) = self.expiry.pop_front()?;
        self.expiry_taken = self.expiry_taken.wrapping_add(1);
        Some(slot)
    }

    fn lose(&mut self, slot: u32, out: &mut Vec<Event>) {
        let sender = self.codewords.get(slot).sender;
        self.senders[sender as usize].stats.lost += 1;
        out.push(Event::Loss { sender });
        self.retire(slot);
    }

    /// Frees a codeword: unlinks its remaining edges and returns its slot.
    fn retire(&mut self, slot: u32) {
        let cw = *self.codewords.get(slot);
        let ids = table(&mut self.shared, &mut self.senders, cw.sender);
        let mut walk = self.edges.walk(cw.edges);
        while let Some(e) = self.edges.next(&mut walk) {
            let edge = *self.edges.get(e);
            if !edge.linked() {
                continue;
            }
            if edge.prev == NIL {
                if edge.next == NIL {
                    ids.remove(edge.id);
                } else {
                    ids.insert(edge.id, waiting(edge.next));
                }
            } else {
                self.edges.get_mut(edge.prev).next = edge.next;
            }
            if edge.next != NIL {
                self.edges.get_mut(edge.next).prev = edge.prev;
            }
        }
        self.edges.free(cw.edges);
        if cw.queued {
            self.queued_live -= 1;
            self.senders[cw.sender as usize].queued -= 1;
            // Its entry is still queued unless it is being taken off (then the index is past it).
            let at = cw.queued_at.wrapping_sub(self.expiry_taken) as usize;
            if let Some(entry) = self.expiry.get_mut(at).filter(|e| e.0 == slot) {
                entry.0 = GONE;
            }
        }
        self.codewords.free(slot);
    }

    /// Settles a pending codeword left with at most one unknown symbol.
    fn resolve(&mut self, slot: u32, out: &mut Vec<Event>) {
        let cw = *self.codewords.get(slot);
        let mut value = std::mem::take(&mut self.resolving);
        value.clear();
        value.extend_from_slice(self.codewords.payload(slot));
        self.retire(slot);
        self.settle(cw.sender, cw.remaining, cw.id_xor, &value, out);
        self.resolving = value;
    }

    /// Settles a codeword from `sender` peeled down to `value` with `remaining` (at most one)
    /// unknown symbols, whose ID is `id`: a redundant codeword, a corrupt one, or a new symbol.
    fn settle(
        &mut self,
        sender: SenderId,
        remaining: u32,
        id: ShortId,
        value: &[u8],
        out: &mut Vec<Event>,
    ) {
        // If the last ID had become known meanwhile, announcing it would have peeled this
        // codeword through its edge, so remaining 1 means the ID is still missing.
        let state = &mut self.senders[sender as usize];
        if remaining == 0 {
            if is_zero(value) {
                state.stats.redundant += 1;
            } else {
                state.stats.corrupt += 1;
                out.push(Event::Corrupt { sender });
            }
            return;
        }
        let digest = self.form.named_by_digest().then(|| self.form.digest(value));
        let name = digest.as_ref().map_or(value, |d| &d[..]);
        let expected = match self.shared {
            Some(_) => common_id(name),
            None => self.hashers[sender as usize].id(name),
        };
        if expected != id {
            state.stats.corrupt += 1;
            out.push(Event::Corrupt { sender });
            return;
        }
        state.stats.decoded += 1;
        let (seq, pos) = self.make_room();
        self.store(pos, value, digest.as_ref());
        out.push(Event::Decoded { seq, from: sender });
        self.announce(seq, pos, Some((sender, id)));
    }

    fn drain_work(&mut self, out: &mut Vec<Event>) {
        while let Some((slot, generation)) = self.work.pop() {
            let cw = self.codewords.get(slot);
            if cw.live && cw.generation == generation {
                self.resolve(slot, out);
            }
        }
    }

    /// Claims the ring position for the next symbol, evicting the oldest once m are held.
    fn make_room(&mut self) -> (u64, usize) {
        let seq = self.learned;
        self.learned += 1;
        let pos = self.next_pos;
        debug_assert_eq!(pos, self.ring_pos(seq));
        self.next_pos = if pos + 1 == self.peel_window {
            0
        } else {
            pos + 1
        };
        if self.ring.len() <= pos {
            self.ring.grow_to(pos + 1);
            if self.form == Form::DigestedBytes {
                self.digests.push([0; DIGEST_LEN]);
            }
        } else {
            // The evicted symbol's map entries go stale (lookups check the age); they are
            // swept in bulk, which spares a cold random access per sender and symbol.
            self.evicted += 1;
            if self.evicted > self.peel_window / 2 {
                self.evicted = 0;
                let (learned, m) = (self.learned, self.peel_window);
                if let Some(stale) = stale(learned, m) {
                    let shared = self.shared.iter_mut();
                    let own = self
                        .senders
                        .iter_mut()
                        .filter(|s| s.active)
                        .map(|s| &mut s.ids);
                    for ids in shared.chain(own) {
                        ids.retain(|_, entry| !stale(entry));
                    }
                }
            }
        }
        (seq, pos)
    }

    /// Writes a value and its digest (where it names the value) at ring `pos`.
    fn store(&mut self, pos: usize, value: &[u8], digest: Option<&Digest>) {
        self.ring.value_mut(pos).copy_from_slice(value);
        if let (Form::DigestedBytes, Some(digest)) = (self.form, digest) {
            self.digests[pos] = *digest;
        }
    }

    /// Re-keys symbol `seq` (at ring `pos`) for every sender and peels the codewords waiting
    /// on it. `origin` carries the ID already verified for the sender it was decoded from.
    fn announce(&mut self, seq: u64, pos: usize, origin: Option<(SenderId, ShortId)>) {
        let symbol = self.ring.value(pos);
        let name = match self.form {
            Form::Bytes => symbol,
            Form::DigestedBytes => &self.digests[pos][..],
            Form::StandIn => &symbol[..DIGEST_LEN],
        };
        let stale = stale(self.learned, self.peel_window);
        if let Some(shared) = self.shared.as_mut() {
            let key = common_id(name);
            let previous = shared.insert_or_sweep(key, known(seq), stale);
            let queued_before = self.work.len();
            if let Some(head) = previous.and_then(waiting_head) {
                self.peel(head, pos, key);
            }
            // Queued as tables per sender would: by sender, each one's newest codeword first.
            let codewords = &self.codewords;
            self.work[queued_before..].sort_by_key(|&(slot, _)| codewords.get(slot).sender);
            return;
        }
        // Hash first, then touch every sender's slot, then insert: the table misses overlap.
        self.rekeyed.clear();
        self.rekeyed.resize(self.hashers.len(), 0);
        match origin {
            // The origin's ID is the one just checked.
            Some((from, id)) => {
                let from = from as usize;
                // The senders on either side of it; a lone sender has none to hash for.
                if from > 0 {
                    ids_into(&self.hashers[..from], name, &mut self.rekeyed[..from]);
                }
                if from + 1 < self.hashers.len() {
                    let after = from + 1..;
                    ids_into(&self.hashers[after.clone()], name, &mut self.rekeyed[after]);
                }
                self.rekeyed[from] = id;
            }
            None => ids_into(&self.hashers, name, &mut self.rekeyed),
        }
        for (sender, &id) in self.senders.iter().zip(&self.rekeyed) {
            if sender.active {
                sender.ids.warm(id);
            }
        }
        for index in 0..self.senders.len() {
            let sender = &mut self.senders[index];
            if !sender.active {
                continue;
            }
            let id = self.rekeyed[index];
            // A known entry (stale, or a short-ID collision inside the window): the newer
            // symbol takes the ID.
            let previous = sender.ids.insert_or_sweep(id, known(seq), stale.as_ref());
            if let Some(head) = previous.and_then(waiting_head) {
                self.peel(head, pos, id);
            }
        }
    }

    /// Peels symbol `pos` out of the codewords on the waiting list that starts at `edge`, all
    /// waiting on it under `id`, and queues those left with one unknown symbol or none.
    fn peel(&mut self, mut edge: u32, pos: usize, id: ShortId) {
        let symbol = self.ring.value(pos);
        while edge != NIL {
            let e = self.edges.get_mut(edge);
            let (next, slot) = (e.next, e.cw);
            e.unlink();
            xor_into(self.codewords.payload_mut(slot), symbol);
            let cw = self.codewords.get_mut(slot);
            cw.remaining -= 1;
            cw.id_xor ^= id;
            if cw.remaining <= 1 {
                self.work.push((slot, cw.generation));
            }
            edge = next;
        }
    }

    /// Ring position of a known entry's symbol, if it is still in the peeling window.
    #[inline]
    fn live_pos(&self, entry: u32) -> Option<usize> {
        live_age(entry, self.learned, self.peel_window).map(|age| {
            // age is in 1..=m: step back from the next position, wrapping once at most.
            let age = age as usize;
            match self.next_pos.checked_sub(age) {
                Some(pos) => pos,
                None => self.next_pos + self.peel_window - age,
            }
        })
    }

    fn ring_pos(&self, seq: u64) -> usize {
        (seq % self.peel_window as u64) as usize
    }

    /// What short IDs hash for the value at ring `pos` (see `form`).
    fn ring_name(&self, pos: usize) -> &[u8] {
        match self.form {
            Form::Bytes => self.ring.value(pos),
            Form::DigestedBytes => &self.digests[pos],
            Form::StandIn => &self.ring.value(pos)[..DIGEST_LEN],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// Past 2^31 - 1 symbols learned (a relay at 10,000 tx/s gets there in under 3 days), a
    /// known entry never takes the map's empty mark, and its age stays exact across the wraps;
    /// a waiting list's entry gives its edge back.
    #[test]
    fn known_entries_stay_distinct_from_empty_and_age_exactly() {
        let m = 16_384;
        for seq in [
            0,
            (1 << 31) - 2,
            (1 << 31) - 1,
            1 << 31,
            (1 << 32) - 1,
            1 << 32,
            (3 << 31) + 7,
        ] {
            assert_ne!(known(seq), crate::idmap::EMPTY, "seq {seq}");
            assert_eq!(waiting_head(known(seq)), None, "seq {seq} is known");
            for age in [1, 2, m as u64] {
                assert_eq!(
                    live_age(known(seq), seq + age, m),
                    Some(age),
                    "seq {seq} age {age}"
                );
            }
            assert_eq!(
                live_age(known(seq), seq + m as u64 + 1, m),
                None,
                "seq {seq} gone"
            );
            assert_eq!(
                live_age(known(seq), seq, m),
                None,
                "seq {seq} not learned yet"
            );
        }
        for edge in [0, 1, 12_345, (1 << 31) - 2] {
            assert_ne!(waiting(edge), crate::idmap::EMPTY);
            assert_eq!(waiting_head(waiting(edge)), Some(edge));
            assert_eq!(
                live_age(waiting(edge), 1 << 40, 1 << 30),
                None,
                "a waiting list is not known"
            );
        }
    }

    #[test]
    fn has_repeat_agrees_with_a_pairwise_scan() {
        let mut rng = SplitMix64::new(25);
        let (mut filter, mut sorted) = (Vec::new(), Vec::new());
        for round in 0..20_000 {
            let len = 1 + (rng.next_u64() % 300) as usize;
            // Random IDs, IDs sharing their low bits (filter hits, then the sort), and IDs
            // from a small space (real repeats).
            let (spread, multiplier) =
                [(1 << 32, 1), (1 << 20, 0x400), (300, 0x0100_0001)][round % 3];
            let ids: Vec<ShortId> = (0..len)
                .map(|_| ((rng.next_u64() % spread) as u32).wrapping_mul(multiplier))
                .collect();
            let expected = (1..ids.len()).any(|i| ids[..i].contains(&ids[i]));
            assert_eq!(
                has_repeat(&ids, &mut filter, &mut sorted),
                expected,
                "{ids:?}"
            );
        }
    }
}
