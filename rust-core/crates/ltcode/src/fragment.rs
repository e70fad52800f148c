//! Variable-size transactions (§4.4): split into fixed-size fragments of l bytes that travel
//! as symbols, each naming the BLAKE2b-256 hash of the previous fragment of its transaction.
//!
//! ```text
//! fragment = flags:u8 prev:[u8; 32] data_len:u16le data zero-padding   (exactly l bytes)
//! flags    = FIRST (1) | LAST (2); other bits zero. FIRST has prev = 0; non-LAST are full.
//! ```
//! Reassembly starts at a LAST fragment and follows `prev` hashes back to a FIRST one. Each
//! fragment names exactly one predecessor, so a chain is determined by its last fragment:
//! conflicting fragments only start other chains (the adversary's own transactions), they
//! never splice into an honest one (that needs a BLAKE2b second preimage) and never cause a
//! search. Work is one map step per fragment per chain. Chains are canonical (only the final
//! fragment is LAST and may be short), so one byte string has exactly one chain.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use blake2::{Blake2b256, Digest};

pub const HASH_LEN: usize = 32;
pub const FIRST: u8 = 1;
pub const LAST: u8 = 2;
/// flags + prev hash + data length.
pub const HEADER_LEN: usize = 1 + HASH_LEN + 2;

pub type Hash = [u8; HASH_LEN];

/// The full (collision-resistant) hash of a transaction or fragment.
pub fn full_hash(bytes: &[u8]) -> Hash {
    Blake2b256::digest(bytes).into()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FragmentError {
    /// Fragments need l > HEADER_LEN and l - HEADER_LEN <= u16::MAX.
    SymbolLen(usize),
    TooLong {
        len: usize,
        max: usize,
    },
    WrongLength {
        expected: usize,
        got: usize,
    },
    Flags(u8),
    FirstWithPrev,
    DataLen(usize),
    Padding,
}

impl std::fmt::Display for FragmentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "fragment error: {self:?}")
    }
}

impl std::error::Error for FragmentError {}

/// Fragment size and the bounds on what a reassembler holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FragmentParams {
    /// l: every fragment is exactly this long (the codec's symbol length).
    pub symbol_len: usize,
    /// Longest transaction, in fragments.
    pub max_fragments: usize,
    /// Fragments (and, separately, waiting chains) held at most; the oldest go first.
    pub capacity: usize,
}

impl FragmentParams {
    pub fn data_per_fragment(&self) -> usize {
        self.symbol_len.saturating_sub(HEADER_LEN)
    }

    pub fn max_tx_len(&self) -> usize {
        self.data_per_fragment().saturating_mul(self.max_fragments)
    }

    fn check(&self) -> Result<(), FragmentError> {
        let data = self.data_per_fragment();
        if data == 0 || data > u16::MAX as usize {
            return Err(FragmentError::SymbolLen(self.symbol_len));
        }
        Ok(())
    }
}

/// Splits `tx` into fragments of exactly `params.symbol_len` bytes, first to last.
pub fn fragment(tx: &[u8], params: &FragmentParams) -> Result<Vec<Vec<u8>>, FragmentError> {
    params.check()?;
    let per = params.data_per_fragment();
    if tx.len() > params.max_tx_len() {
        return Err(FragmentError::TooLong {
            len: tx.len(),
            max: params.max_tx_len(),
        });
    }
    let count = tx.len().div_ceil(per).max(1);
    let mut out: Vec<Vec<u8>> = Vec::with_capacity(count);
    let mut prev = [0u8; HASH_LEN];
    for index in 0..count {
        let data = &tx[(index * per).min(tx.len())..((index + 1) * per).min(tx.len())];
        let mut flags = 0;
        if index == 0 {
            flags |= FIRST;
        }
        if index + 1 == count {
            flags |= LAST;
        }
        let mut frag = vec![0u8; params.symbol_len];
        frag[0] = flags;
        frag[1..1 + HASH_LEN].copy_from_slice(&prev);
        frag[1 + HASH_LEN..HEADER_LEN].copy_from_slice(&(data.len() as u16).to_le_bytes());
        frag[HEADER_LEN..HEADER_LEN + data.len()].copy_from_slice(data);
        prev = full_hash(&frag);
        out.push(frag);
    }
    Ok(out)
}

/// A fragment's parsed header; `data` is a range into the fragment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FragmentHeader {
    pub flags: u8,
    pub prev: Hash,
    pub data_len: usize,
}

/// Checks one fragment from untrusted bytes.
pub fn parse(frag: &[u8], params: &FragmentParams) -> Result<FragmentHeader, FragmentError> {
    params.check()?;
    if frag.len() != params.symbol_len {
        return Err(FragmentError::WrongLength {
            expected: params.symbol_len,
            got: frag.len(),
        });
    }
    let flags = frag[0];
    if flags & !(FIRST | LAST) != 0 {
        return Err(FragmentError::Flags(flags));
    }
    let mut prev = [0u8; HASH_LEN];
    prev.copy_from_slice(&frag[1..1 + HASH_LEN]);
    if flags & FIRST != 0 && prev != [0u8; HASH_LEN] {
        return Err(FragmentError::FirstWithPrev);
    }
    let data_len = u16::from_le_bytes([frag[1 + HASH_LEN], frag[2 + HASH_LEN]]) as usize;
    let per = params.data_per_fragment();
    let full_ok = flags & LAST != 0 || data_len == per;
    if data_len > per || !full_ok {
        return Err(FragmentError::DataLen(data_len));
    }
    if frag[HEADER_LEN + data_len..].iter().any(|&b| b != 0) {
        return Err(FragmentError::Padding);
    }
    Ok(FragmentHeader {
        flags,
        prev,
        data_len,
    })
}

/// Counters a node can export.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReassemblyStats {
    pub fragments: u64,
    pub duplicates: u64,
    pub completed: u64,
    /// Chains dropped for exceeding `max_fragments`.
    pub too_long: u64,
    /// Chains dropped for naming a LAST fragment as a predecessor.
    pub broken: u64,
    pub evicted: u64,
    /// Hash-chain steps taken: linear in fragments received, never a search.
    pub steps: u64,
}

/// A chain being traced back from its LAST fragment, stopped at a missing predecessor.
#[derive(Clone, Debug)]
struct Trace {
    /// Fragment hashes from the LAST one backwards.
    chain: Vec<Hash>,
}

/// Collects fragments (decoded symbols) and outputs whole transactions.
#[derive(Clone, Debug)]
pub struct Reassembler {
    params: FragmentParams,
    store: BTreeMap<Hash, Vec<u8>>,
    store_order: VecDeque<Hash>,
    waiting: BTreeMap<Hash, Vec<Trace>>,
    waiting_order: VecDeque<Hash>,
    waiting_count: usize,
    completed: BTreeSet<Hash>,
    completed_order: VecDeque<Hash>,
    stats: ReassemblyStats,
}

impl Reassembler {
    pub fn new(params: FragmentParams) -> Result<Reassembler, FragmentError> {
        params.check()?;
        Ok(Reassembler {
            params,
            store: BTreeMap::new(),
            store_order: VecDeque::new(),
            waiting: BTreeMap::new(),
            waiting_order: VecDeque::new(),
            waiting_count: 0,
            completed: BTreeSet::new(),
            completed_order: VecDeque::new(),
            stats: ReassemblyStats::default(),
        })
    }

    pub fn stats(&self) -> &ReassemblyStats {
        &self.stats
    }

    /// Takes one fragment; returns the transactions it completes (usually none or one).
    pub fn push(&mut self, frag: &[u8]) -> Result<Vec<Vec<u8>>, FragmentError> {
        let header = parse(frag, &self.params)?;
        let hash = full_hash(frag);
        if self.store.contains_key(&hash) || self.completed.contains(&hash) {
            self.stats.duplicates += 1;
            return Ok(Vec::new());
        }
        self.stats.fragments += 1;
        self.insert(hash, frag.to_vec());
        let mut done = Vec::new();
        if header.flags & LAST != 0 {
            self.trace(Trace { chain: vec![hash] }, &mut done);
        }
        if let Some(traces) = self.waiting.remove(&hash) {
            self.waiting_count -= traces.len();
            for mut trace in traces {
                trace.chain.push(hash);
                self.trace(trace, &mut done);
            }
        }
        Ok(done)
    }

    fn insert(&mut self, hash: Hash, frag: Vec<u8>) {
        self.store.insert(hash, frag);
        self.store_order.push_back(hash);
        while self.store_order.len() > self.params.capacity {
            if let Some(old) = self.store_order.pop_front() {
                self.store.remove(&old);
                self.stats.evicted += 1;
            }
        }
    }

    /// Follows `prev` links from the chain's oldest fragment until FIRST or a gap.
    fn trace(&mut self, mut trace: Trace, done: &mut Vec<Vec<u8>>) {
        loop {
            let Some(&oldest) = trace.chain.last() else {
                return;
            };
            // Present: the chain only holds hashes found in (or just added to) the store.
            let Some(frag) = self.store.get(&oldest) else {
                return;
            };
            let flags = frag[0];
            let mut prev = [0u8; HASH_LEN];
            prev.copy_from_slice(&frag[1..1 + HASH_LEN]);
            if trace.chain.len() > 1 && flags & LAST != 0 {
                // Only the final fragment may be LAST: otherwise a short LAST fragment could
                // stand in for a full one and the same bytes would reassemble from two chains.
                self.stats.broken += 1;
                return;
            }
            if flags & FIRST != 0 {
                self.complete(&trace, done);
                return;
            }
            if trace.chain.len() >= self.params.max_fragments {
                self.stats.too_long += 1;
                return;
            }
            self.stats.steps += 1;
            if self.store.contains_key(&prev) {
                trace.chain.push(prev);
            } else {
                self.wait(prev, trace);
                return;
            }
        }
    }

    fn wait(&mut self, missing: Hash, trace: Trace) {
        self.waiting.entry(missing).or_default().push(trace);
        self.waiting_order.push_back(missing);
        self.waiting_count += 1;
        if self.waiting_order.len() > 2 * self.params.capacity + 16 {
            let waiting = &self.waiting;
            self.waiting_order.retain(|hash| waiting.contains_key(hash));
        }
        while self.waiting_count > self.params.capacity {
            let Some(old) = self.waiting_order.pop_front() else {
                break;
            };
            if let Some(traces) = self.waiting.remove(&old) {
                self.waiting_count -= traces.len();
                self.stats.evicted += traces.len() as u64;
            }
        }
    }

    fn complete(&mut self, trace: &Trace, done: &mut Vec<Vec<u8>>) {
        let last = trace.chain[0];
        if !self.completed.insert(last) {
            return;
        }
        self.completed_order.push_back(last);
        while self.completed_order.len() > self.params.capacity {
            if let Some(old) = self.completed_order.pop_front() {
                self.completed.remove(&old);
            }
        }
        let mut tx = Vec::new();
        for hash in trace.chain.iter().rev() {
            let Some(frag) = self.store.get(hash) else {
                return;
            };
            let len = u16::from_le_bytes([frag[1 + HASH_LEN], frag[2 + HASH_LEN]]) as usize;
            tx.extend_from_slice(&frag[HEADER_LEN..HEADER_LEN + len]);
        }
        self.stats.completed += 1;
        done.push(tx);
    }
}
