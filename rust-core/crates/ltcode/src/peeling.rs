//! Peeling as a learner watches it: the same graph the `Decoder` keeps, kept plainly (no slabs,
//! no packed entries, no peeling window) and told step by step. A node that is watched feeds it
//! the very inputs its decoder gets, in the same order, so it reaches the same symbols through
//! the same steps; the tests hold it to the decoder's events.
//!
//! Codewords name their symbols by short IDs keyed per link: the same symbol has another ID
//! under each sender's key, and a symbol not known yet is only "ID x under sender s". Once it
//! is known it is hashed under every sender's key and peeled out of each sender's codewords.

use crate::decoder::{Event, SenderId};
use crate::form::Form;
use crate::params::Params;
use crate::shortid::{LinkKey, ShortId, ShortIdHasher};
use crate::xor::{is_zero, xor_into};
use std::collections::{BTreeMap, VecDeque};

/// One step of the graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PeelStep {
    /// Codeword `cw` from `sender` names `ids`: those known already (`Some(seq)`) are XORed out
    /// at once, and `degree` unknown ones remain.
    Arrived {
        cw: u32,
        sender: SenderId,
        ids: Vec<(ShortId, Option<u64>)>,
        degree: u32,
    },
    /// The node had symbol `seq` from elsewhere (its own transaction).
    Known { seq: u64 },
    /// Codeword `cw` had one unknown left: what remains of its payload is symbol `seq`, which
    /// its sender named `id`.
    Released { cw: u32, seq: u64, id: ShortId },
    /// Symbol `seq` (named `id` by the codeword's sender) was XORed out of codeword `cw`: it
    /// now has `degree` unknown symbols.
    Reduced {
        cw: u32,
        seq: u64,
        id: ShortId,
        degree: u32,
    },
    /// Codeword `cw` had nothing left to give: every symbol in it was known.
    Redundant { cw: u32 },
    /// Codeword `cw` failed its check (corrupt payload or forged IDs).
    Corrupt { cw: u32 },
    /// Codeword `cw` was not decoded within the timeout: a loss for its sender.
    Lost { cw: u32 },
}

struct Codeword {
    sender: SenderId,
    payload: Vec<u8>,
    /// Unknown IDs left.
    unknown: Vec<ShortId>,
    live: bool,
}

enum Entry {
    Known(u64),
    /// Codewords waiting on this ID, newest first (as the decoder walks them).
    Waiting(Vec<u32>),
}

struct Sender {
    hasher: ShortIdHasher,
    ids: BTreeMap<ShortId, Entry>,
}

/// A value's short ID under `hasher`: of its digest or of its bytes, as `form` names it.
fn name_id(form: Form, hasher: &ShortIdHasher, value: &[u8]) -> ShortId {
    if form.named_by_digest() {
        hasher.id(&form.digest(value))
    } else {
        hasher.id(value)
    }
}

pub struct Peeling {
    /// Values and names as the decoder watched has them (`form`).
    form: Form,
    value_len: usize,
    timeout_us: u64,
    senders: Vec<Option<Sender>>,
    symbols: Vec<Vec<u8>>,
    codewords: Vec<Codeword>,
    expiry: VecDeque<(u32, u64)>,
    work: Vec<u32>,
    steps: Vec<PeelStep>,
}

impl Peeling {
    pub fn new(params: &Params) -> Peeling {
        Peeling {
            form: params.form,
            value_len: params.form.value_len(params.symbol_len),
            timeout_us: params.timeout_us,
            senders: Vec::new(),
            symbols: Vec::new(),
            codewords: Vec::new(),
            expiry: VecDeque::new(),
            work: Vec::new(),
            steps: Vec::new(),
        }
    }

    /// Every step so far.
    pub fn steps(&self) -> &[PeelStep] {
        &self.steps
    }

    /// Symbols known so far (the next one's `seq`).
    pub fn learned(&self) -> u64 {
        self.symbols.len() as u64
    }

    /// Symbol `seq`'s bytes.
    pub fn symbol(&self, seq: u64) -> Option<&[u8]> {
        self.symbols.get(seq as usize).map(Vec::as_slice)
    }

    /// A sender, under the handle the decoder gave it (the decoder reuses free handles).
    pub fn add_sender(&mut self, sender: SenderId, key: &LinkKey) {
        let hasher = ShortIdHasher::for_form(key, self.form);
        let ids = (0..self.symbols.len() as u64)
            .map(|seq| {
                (
                    name_id(self.form, &hasher, &self.symbols[seq as usize]),
                    Entry::Known(seq),
                )
            })
            .collect();
        let slot = sender as usize;
        if self.senders.len() <= slot {
            self.senders.resize_with(slot + 1, || None);
        }
        self.senders[slot] = Some(Sender { hasher, ids });
    }

    /// A sender left: its codewords go, without counting as losses.
    pub fn remove_sender(&mut self, sender: SenderId) {
        for cw in &mut self.codewords {
            if cw.live && cw.sender == sender {
                cw.live = false;
            }
        }
        if let Some(s) = self.senders.get_mut(sender as usize) {
            *s = None;
        }
    }

    pub fn insert_known(&mut self, symbol: &[u8], out: &mut Vec<Event>) {
        if symbol.len() != self.value_len {
            return;
        }
        let seq = self.symbols.len() as u64;
        self.symbols.push(symbol.to_vec());
        self.steps.push(PeelStep::Known { seq });
        self.announce(seq, None);
        self.drain(out);
    }

    /// Codewords past their deadline are losses.
    pub fn poll(&mut self, now_us: u64, out: &mut Vec<Event>) {
        while let Some(&(cw, deadline)) = self.expiry.front() {
            if !self.codewords[cw as usize].live {
                self.expiry.pop_front();
                continue;
            }
            if deadline > now_us {
                break;
            }
            self.expiry.pop_front();
            let c = &mut self.codewords[cw as usize];
            c.live = false;
            out.push(Event::Loss { sender: c.sender });
            self.steps.push(PeelStep::Lost { cw });
        }
    }

    /// A codeword the decoder accepted (call only for those: refused ones never touch the graph).
    pub fn receive(
        &mut self,
        sender: SenderId,
        now_us: u64,
        ids: &[ShortId],
        payload: &[u8],
        out: &mut Vec<Event>,
    ) {
        self.poll(now_us, out);
        let Some(Some(s)) = self.senders.get(sender as usize) else {
            return;
        };
        let mut payload = payload.to_vec();
        let mut named = Vec::with_capacity(ids.len());
        let mut unknown = Vec::new();
        for &id in ids {
            match s.ids.get(&id) {
                Some(&Entry::Known(seq)) => {
                    xor_into(&mut payload, &self.symbols[seq as usize]);
                    named.push((id, Some(seq)));
                }
                _ => {
                    unknown.push(id);
                    named.push((id, None));
                }
            }
        }
        let cw = self.codewords.len() as u32;
        let degree = unknown.len() as u32;
        self.steps.push(PeelStep::Arrived {
            cw,
            sender,
            ids: named,
            degree,
        });
        self.codewords.push(Codeword {
            sender,
            payload,
            unknown: unknown.clone(),
            live: true,
        });
        if unknown.len() <= 1 {
            self.resolve(cw, out);
        } else {
            let ids = &mut self.senders[sender as usize].as_mut().unwrap().ids;
            for id in unknown {
                match ids.entry(id).or_insert(Entry::Waiting(Vec::new())) {
                    Entry::Waiting(list) => list.insert(0, cw),
                    // Unreachable: known IDs were peeled above.
                    Entry::Known(_) => {}
                }
            }
            self.expiry
                .push_back((cw, now_us.saturating_add(self.timeout_us)));
        }
        self.drain(out);
    }

    fn drain(&mut self, out: &mut Vec<Event>) {
        while let Some(cw) = self.work.pop() {
            if self.codewords[cw as usize].live {
                self.resolve(cw, out);
            }
        }
    }

    /// A codeword with at most one unknown symbol left settles.
    fn resolve(&mut self, cw: u32, out: &mut Vec<Event>) {
        let c = &mut self.codewords[cw as usize];
        c.live = false;
        let sender = c.sender;
        let Some(&id) = c.unknown.first() else {
            let step = match is_zero(&c.payload) {
                true => PeelStep::Redundant { cw },
                false => {
                    out.push(Event::Corrupt { sender });
                    PeelStep::Corrupt { cw }
                }
            };
            self.steps.push(step);
            return;
        };
        let payload = std::mem::take(&mut c.payload);
        let s = self.senders[sender as usize].as_ref().unwrap();
        if name_id(self.form, &s.hasher, &payload) != id {
            out.push(Event::Corrupt { sender });
            self.steps.push(PeelStep::Corrupt { cw });
            return;
        }
        let seq = self.symbols.len() as u64;
        self.symbols.push(payload);
        out.push(Event::Decoded { seq, from: sender });
        self.steps.push(PeelStep::Released { cw, seq, id });
        self.announce(seq, Some((sender, id)));
    }

    /// Symbol `seq` is known: name it under every sender's key and peel it out of the
    /// codewords waiting on it, senders in handle order, newest codeword first.
    fn announce(&mut self, seq: u64, origin: Option<(SenderId, ShortId)>) {
        for slot in 0..self.senders.len() {
            let Some(s) = self.senders[slot].as_mut() else {
                continue;
            };
            let id = match origin {
                Some((from, id)) if from as usize == slot => id,
                _ => name_id(self.form, &s.hasher, &self.symbols[seq as usize]),
            };
            let waiting = match s.ids.insert(id, Entry::Known(seq)) {
                Some(Entry::Waiting(list)) => list,
                _ => continue,
            };
            for cw in waiting {
                let c = &mut self.codewords[cw as usize];
                if !c.live {
                    continue;
                }
                xor_into(&mut c.payload, &self.symbols[seq as usize]);
                c.unknown.retain(|&u| u != id);
                let degree = c.unknown.len() as u32;
                self.steps.push(PeelStep::Reduced {
                    cw,
                    seq,
                    id,
                    degree,
                });
                if degree <= 1 {
                    self.work.push(cw);
                }
            }
        }
    }
}
