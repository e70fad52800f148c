//! Codeword generation (§4.1): pick a degree from the Robust Soliton distribution, then that
//! many distinct window members uniformly; header = their short IDs under the link's key,
//! payload = XOR of their values (bytes, or stand-ins: see `form`).

use crate::form::Form;
use crate::params::{ParamError, Params};
use crate::rng::{below, CodecRng};
use crate::shortid::{LinkKey, ShortId, ShortIdHasher};
use crate::soliton::RobustSoliton;
use crate::window::CodingWindow;
use crate::xor::xor_into;

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

/// The sending side of one link direction: the receiver's key and the short IDs of the
/// current window members under it (each member is hashed once per link, not per codeword).
#[derive(Clone, Debug)]
pub struct LinkEncoder {
    hasher: ShortIdHasher,
    key: LinkKey,
    /// Per window position: (sequence number of the member hashed, its short ID), side by
    /// side so a lookup touches one cache line.
    cached: Vec<(u64, ShortId)>,
}

impl LinkEncoder {
    pub fn new(key: LinkKey) -> LinkEncoder {
        LinkEncoder {
            hasher: ShortIdHasher::new(&key),
            key,
            cached: Vec::new(),
        }
    }

    pub fn key(&self) -> &LinkKey {
        &self.key
    }

    /// Short ID of window member `pos` under this link's key.
    pub fn id_of(&mut self, window: &CodingWindow, pos: usize) -> ShortId {
        if self.cached.len() < window.len() {
            self.cached.resize(window.len(), (u64::MAX, 0));
        }
        let seq = window.seq(pos);
        let entry = &mut self.cached[pos];
        if entry.0 != seq {
            *entry = (seq, self.hasher.id(window.name(pos)));
        }
        entry.1
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
            soliton: RobustSoliton::new(params.window, params.c, params.delta),
            picked: Vec::new(),
            positions: Vec::new(),
        })
    }

    pub fn soliton(&self) -> &RobustSoliton {
        &self.soliton
    }

    /// Writes a fresh codeword for `link` into `out` (buffers reused). Returns false, leaving
    /// `out` empty, when the window is empty. While the window holds fewer than k members the
    /// sampled degree is capped at the window size.
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
        out.payload.clear();
        out.payload.resize(window.value_len(), 0);
        out.stands_for = match window.form() {
            Form::Bytes | Form::DigestedBytes => 0,
            Form::StandIn => window.symbol_len(),
        };
        for &pos in positions {
            out.ids.push(link.id_of(window, pos));
            xor_into(&mut out.payload, window.member(pos));
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
