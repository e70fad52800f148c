//! Codeword generation (§4.1): pick a degree from the Robust Soliton distribution, then that
//! many distinct window members uniformly; header = their short IDs under the link's key,
//! payload = XOR of their values (bytes, or stand-ins: see `form`).
//!
//! One departure from the paper, for a link that carries a whole stream: drawn uniformly, a
//! member can leave the window without any codeword of the link naming it (at 1.4 codewords
//! per symbol and k = 50, about 6 in 10,000), and then no receiver that only hears this link can
//! ever decode it. So while a link sends one to three codewords per symbol entering the window,
//! each codeword sent after a new symbol entered names the oldest member the link has not named
//! yet, in place of one of its drawn members (the degree stays the soliton's). Other links
//! sample uniformly, as the paper and its reference encoder do: one sending fewer codewords
//! than symbols (a node with many peers, as in the paper's networks) could not name every
//! member anyway and its receiver hears the rest from other peers, and one sending more names
//! them all by chance, where a forced old member, often one the receiver has from elsewhere,
//! would only take the place of a useful draw.

use crate::form::Form;
use crate::named::Named;
use crate::params::{ParamError, Params};
use crate::prefetch::prefetch;
use crate::rng::{below, CodecRng};
use crate::shortid::{LinkKey, ShortId, ShortIdHasher};
use crate::soliton::RobustSoliton;
use crate::window::CodingWindow;
use crate::xor::{xor_into, xor_pair_into};

/// One codeword: the short IDs of its source symbols and the XOR of their values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Codeword {
    pub ids: Vec<ShortId>,
    pub payload: Vec<u8>,
    /// For a codeword of stand-ins, the symbol length l its payload stands for (what the
    /// wire carries); 0 for a codeword of bytes.
    pub stands_for: usize,
}

impl Codeword {
    /// A codeword of bytes with these short IDs and payload.
    pub fn new(ids: Vec<ShortId>, payload: Vec<u8>) -> Codeword {
        Codeword {
            ids,
            payload,
            stands_for: 0,
        }
    }

    pub fn degree(&self) -> usize {
        self.ids.len()
    }

    /// Payload bytes on the wire: l for a codeword of stand-ins.
    pub fn wire_payload_len(&self) -> usize {
        match self.stands_for {
            0 => self.payload.len(),
            l => l,
        }
    }
}

/// The sending side of one link direction: the receiver's key, which window members its
/// codewords have named, and (where naming a member means hashing it) their short IDs, so each
/// member is hashed once per link, not per codeword.
#[derive(Clone, Debug)]
pub struct LinkEncoder {
    hasher: ShortIdHasher,
    key: LinkKey,
    named: Named,
    /// Per window position, the short ID of the member there if `named` says it was named;
    /// empty where IDs cost no hash (stand-ins: `shortid`).
    ids: Vec<ShortId>,
    /// Every member older than this sequence number has been named on this link (or left).
    unnamed_from: u64,
    /// `window.pushed()` when this link last encoded.
    pushed_at_last: u64,
    /// Symbols entering the window per codeword of this link, in 1/256ths, averaged over
    /// about its last eight codewords.
    pace: u64,
}

/// `pace` of one symbol per codeword.
const PACE_ONE: u64 = 256;
/// `pace` of a new link: slow (16 symbols per codeword) until its codewords show otherwise.
const START_PACE: u64 = 16 * PACE_ONE;
/// `pace` of one and of three codewords per entering symbol: the links that name the oldest
/// unnamed member. Below one a link cannot name every member; above three uniform draws
/// already do (each member is named about 15 times at k = 50, all but 3 in 10 million).
const ONE_PER_SYMBOL: u64 = PACE_ONE;
const THREE_PER_SYMBOL: u64 = PACE_ONE / 3;

impl LinkEncoder {
    /// The stream to a receiver that sent `key`, naming symbols as a codec of `form` does.
    pub fn new(key: LinkKey, form: Form) -> LinkEncoder {
        LinkEncoder {
            hasher: ShortIdHasher::for_form(&key, form),
            key,
            named: Named::default(),
            ids: Vec::new(),
            unnamed_from: 0,
            pushed_at_last: 0,
            pace: START_PACE,
        }
    }

    pub fn key(&self) -> &LinkKey {
        &self.key
    }

    /// Short ID of window member `pos` under this link's key; the member counts as named.
    pub fn id_of(&mut self, window: &CodingWindow, pos: usize) -> ShortId {
        self.catch_up(window);
        self.id_of_caught_up(window, pos)
    }

    /// Brings the named bits and the ID cache up to the window's members: once per codeword,
    /// not once per member.
    fn catch_up(&mut self, window: &CodingWindow) {
        self.named.sync(window);
        if self.hasher.mask().is_none() && self.ids.len() < window.len() {
            self.ids.resize(window.len(), 0);
        }
    }

    /// `id_of` for a window this link has caught up with.
    #[inline(always)]
    fn id_of_caught_up(&mut self, window: &CodingWindow, pos: usize) -> ShortId {
        let named = self.named.get(pos);
        self.named.set(pos);
        if let Some(mask) = self.hasher.mask() {
            return match window.common_id(pos) {
                Some(common) => common ^ mask,
                None => self.hasher.id(window.name(pos)),
            };
        }
        if !named {
            self.ids[pos] = self.hasher.id(window.name(pos));
        }
        self.ids[pos]
    }

    /// Starts loading the cached short ID of window member `pos`, if IDs are cached.
    #[cfg(not(target_arch = "wasm32"))]
    fn warm(&self, pos: usize) {
        if let Some(id) = self.ids.get(pos) {
            crate::prefetch::warm(id);
        }
    }

    /// Called once per codeword: the position of the oldest member this link has not named,
    /// if a symbol entered since its last codeword and it keeps up with the window (see the
    /// module's comment).
    fn overdue(&mut self, window: &CodingWindow) -> Option<usize> {
        let end = window.pushed();
        let entered = end
            .saturating_sub(self.pushed_at_last)
            .min(window.capacity() as u64);
        self.pushed_at_last = end;
        self.pace = (7 * self.pace + PACE_ONE * entered) / 8;
        let keeps_up = (THREE_PER_SYMBOL..=ONE_PER_SYMBOL).contains(&self.pace);
        // Until the window is full nothing leaves it.
        if entered == 0 || !keeps_up || window.len() < window.capacity() {
            return None;
        }
        self.named.sync(window);
        let mut seq = self.unnamed_from.max(end - window.len() as u64);
        while seq < end && self.named.get(window.position(seq)) {
            seq += 1;
        }
        self.unnamed_from = seq;
        (seq < end).then(|| window.position(seq))
    }
}

/// Degree sampling and scratch space, shared by all links of a node.
#[derive(Clone, Debug)]
pub struct Encoder {
    soliton: RobustSoliton,
    picked: Vec<u64>,
    positions: Vec<usize>,
}

impl Encoder {
    pub fn new(params: &Params) -> Result<Encoder, ParamError> {
        params.validate()?;
        Ok(Encoder {
            soliton: RobustSoliton::shared(params.window, params.c, params.delta),
            picked: Vec::new(),
            positions: Vec::new(),
        })
    }

    /// Starts loading what drawing a codeword's members reads and writes first: the degree
    /// table and the scratch lists (in a large network they are cold by a node's next codeword).
    pub fn warm(&self) {
        self.soliton.warm();
        prefetch(self.picked.as_ptr());
        prefetch(self.positions.as_ptr());
    }

    pub fn soliton(&self) -> &RobustSoliton {
        &self.soliton
    }

    /// Writes a fresh codeword for `link` into `out` (buffers reused). Returns false, leaving
    /// `out` empty, when the window is empty. While the window holds fewer than k members the
    /// sampled degree is capped at the window size. A link keeping up with the window names
    /// its oldest unnamed member (see the module's comment).
    pub fn encode(
        &mut self,
        window: &CodingWindow,
        link: &mut LinkEncoder,
        rng: &mut (impl CodecRng + ?Sized),
        out: &mut Codeword,
    ) -> bool {
        let members = window.len();
        if members == 0 {
            out.ids.clear();
            out.payload.clear();
            return false;
        }
        let degree = self.soliton.sample(rng).min(members);
        self.pick_distinct(members, degree, rng);
        if let Some(pos) = link.overdue(window) {
            if self.picked[pos / 64] >> (pos % 64) & 1 == 0 {
                // Dropping a uniformly chosen one of a uniform d-set leaves a uniform
                // (d-1)-set. Not the last drawn: the draws before it never hold position n-1.
                let dropped = below(rng, self.positions.len() as u64) as usize;
                self.positions[dropped] = pos;
            }
        }
        let positions = std::mem::take(&mut self.positions);
        self.encode_members(window, link, &positions, out);
        self.positions = positions;
        true
    }

    /// Writes the codeword of exactly these window positions (tests and adversaries use it).
    pub fn encode_members(
        &mut self,
        window: &CodingWindow,
        link: &mut LinkEncoder,
        positions: &[usize],
        out: &mut Codeword,
    ) {
        out.ids.clear();
        out.stands_for = match window.form() {
            Form::Bytes | Form::DigestedBytes => 0,
            Form::StandIn => window.symbol_len(),
        };
        // A link's cache is cold by its next codeword, and in a large network so is the
        // window: their misses overlap when warmed first. Not in WebAssembly, where a warm is a
        // load: the encode bench ran 4-8% slower with it, Strokkur's 250 nodes no faster.
        #[cfg(not(target_arch = "wasm32"))]
        for &pos in positions {
            link.warm(pos);
            window.warm(pos);
        }
        link.catch_up(window);
        for &pos in positions {
            out.ids.push(link.id_of_caught_up(window, pos));
        }
        // The first two members are XORed into the payload in one pass (the buffer's old bytes
        // are all overwritten), not copied onto zeros or copied then XORed.
        match positions {
            [first, second, rest @ ..] => {
                out.payload.resize(window.value_len(), 0);
                let payload = &mut out.payload;
                xor_pair_into(payload, window.member(*first), window.member(*second));
                for &pos in rest {
                    xor_into(payload, window.member(pos));
                }
            }
            [only] => {
                out.payload.clear();
                out.payload.extend_from_slice(window.member(*only));
            }
            [] => {
                out.payload.clear();
                out.payload.resize(window.value_len(), 0);
            }
        }
    }

    /// Floyd's algorithm: `count` distinct values of `0..n`, uniformly, in O(count) draws.
    fn pick_distinct(&mut self, n: usize, count: usize, rng: &mut (impl CodecRng + ?Sized)) {
        self.picked.clear();
        self.picked.resize(n.div_ceil(64), 0);
        self.positions.clear();
        for j in (n - count)..n {
            let mut t = below(rng, j as u64 + 1) as usize;
            if self.picked[t / 64] >> (t % 64) & 1 == 1 {
                t = j;
            }
            self.picked[t / 64] |= 1 << (t % 64);
            self.positions.push(t);
        }
    }
}
