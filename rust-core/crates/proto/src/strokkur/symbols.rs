//! Transactions as symbols and back (§4.4). A tx of exactly l bytes is one symbol; any other
//! size travels as l-byte fragments chained by BLAKE2b hashes (`ltcode::fragment`).
//!
//! A decoded symbol is first tried as a whole tx, then as a fragment. Whether bytes are a tx is
//! the node's content's call (`Content::admit`): on a live node any bytes are, under the id
//! their hash gives; in the simulator only the exact body of the id in its first 8 bytes is (a
//! stricter check than comparing hashes, and what a real node's validity check stands in for).
//! Garbage that slipped through the decoder's 4-byte check fails here.
//!
//! In the codec's stand-in form (a simulation where no one corrupts payloads, `ltcode::form`)
//! a symbol travels as a stand-in tagged with what it is (`stand_in`). A decoded stand-in of a
//! whole tx is that tx; one of a fragment is turned back into the fragment's bytes from the
//! node's content and reassembled as in the bytes form.

use super::config::StrokkurConfig;
use super::stand_in::{tag, untag, Part, MAX_FRAGMENTS};
use crate::{Content, Tx, TxId};
use ltcode::form::{self, Form};
use ltcode::fragment::{fragment, parse, FragmentError, FragmentParams, Reassembler};

/// Fragmented txs whose fragments a stand-in node keeps at hand: a tx's fragments enter a
/// sender's window together, so they are decoded close together.
const RECENT_SPLITS: usize = 8;

/// What a decoded symbol turned out to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    /// A whole tx.
    Tx(Tx),
    /// A well-formed fragment (any txs it completed are in `done`).
    Fragment,
    /// Neither: it must not be coded onward.
    Invalid,
}

pub struct Symbols {
    form: Form,
    symbol_len: usize,
    params: FragmentParams,
    reassembler: Option<Reassembler>,
    body: Vec<u8>,
    /// Stand-in form: the last few fragmented txs, with their fragments (oldest first).
    recent: Vec<(TxId, Vec<Vec<u8>>)>,
}

impl Symbols {
    pub fn new(cfg: &StrokkurConfig, form: Form) -> Symbols {
        let params = cfg.fragment_params();
        Symbols {
            form,
            symbol_len: cfg.symbol_bytes as usize,
            params,
            reassembler: Reassembler::new(params).ok(),
            body: Vec::new(),
            recent: Vec::new(),
        }
    }

    /// The values of the symbols that carry `tx` (their bytes, or stand-ins), first to last,
    /// into `out` (cleared first). `Ok(false)` if the node does not hold the tx's bytes.
    pub fn split(
        &mut self,
        tx: Tx,
        content: &dyn Content,
        out: &mut Vec<Vec<u8>>,
    ) -> Result<bool, FragmentError> {
        out.clear();
        if !self.split_bytes(tx, content, out)? {
            return Ok(false);
        }
        if self.form == Form::StandIn {
            if out.len() > MAX_FRAGMENTS {
                let max = MAX_FRAGMENTS * self.params.data_per_fragment();
                let len = tx.len as usize;
                return Err(FragmentError::TooLong { len, max });
            }
            let whole = out.len() == 1 && !self.is_fragment(&out[0]);
            for (i, symbol) in out.iter_mut().enumerate() {
                let part = match whole {
                    true => Part::Whole,
                    false => Part::Fragment(i as u16),
                };
                *symbol = form::stand_in(symbol, &tag(tx, part)).to_vec();
            }
        }
        Ok(true)
    }

    /// The bytes of the symbols that carry `tx`, into `out`.
    fn split_bytes(
        &mut self,
        tx: Tx,
        content: &dyn Content,
        out: &mut Vec<Vec<u8>>,
    ) -> Result<bool, FragmentError> {
        if !content.body(tx, &mut self.body) {
            return Ok(false);
        }
        if self.body.len() == self.symbol_len && !self.is_fragment(&self.body) {
            out.push(self.body.clone());
        } else {
            *out = fragment(&self.body, &self.params)?;
        }
        Ok(true)
    }

    /// The bytes of fragment `index` of `tx`, into `out`, if the node holds the tx's bytes.
    fn fragment_of(
        &mut self,
        tx: Tx,
        index: usize,
        content: &dyn Content,
        out: &mut Vec<u8>,
    ) -> bool {
        // A garbled tag must not make the node build a huge tx.
        if tx.len as usize > self.params.max_tx_len() {
            return false;
        }
        if !self.recent.iter().any(|(id, _)| *id == tx.id) {
            let mut split = Vec::new();
            if !matches!(self.split_bytes(tx, content, &mut split), Ok(true)) {
                return false;
            }
            if self.recent.len() == RECENT_SPLITS {
                self.recent.remove(0);
            }
            self.recent.push((tx.id, split));
        }
        let fragment = self
            .recent
            .iter()
            .find(|(id, _)| *id == tx.id)
            .and_then(|(_, symbols)| symbols.get(index));
        match fragment {
            Some(bytes) => {
                out.clear();
                out.extend_from_slice(bytes);
                true
            }
            None => false,
        }
    }

    fn is_fragment(&self, symbol: &[u8]) -> bool {
        parse(symbol, &self.params).is_ok()
    }

    /// Classifies a decoded value; txs completed by a fragment are appended to `done`.
    pub fn identify(
        &mut self,
        value: &[u8],
        content: &mut dyn Content,
        done: &mut Vec<Tx>,
    ) -> SymbolKind {
        if self.form != Form::StandIn {
            return self.identify_bytes(value, content, done);
        }
        match form::tag(value).and_then(untag) {
            Some((tx, Part::Whole)) if tx.len as usize == self.symbol_len => SymbolKind::Tx(tx),
            Some((tx, Part::Fragment(i))) => {
                let mut bytes = Vec::new();
                match self.fragment_of(tx, i as usize, content, &mut bytes) {
                    true => self.identify_bytes(&bytes, content, done),
                    false => SymbolKind::Invalid,
                }
            }
            _ => SymbolKind::Invalid,
        }
    }

    /// Classifies a decoded symbol's bytes.
    fn identify_bytes(
        &mut self,
        symbol: &[u8],
        content: &mut dyn Content,
        done: &mut Vec<Tx>,
    ) -> SymbolKind {
        // A symbol that parses as a fragment is one: a tx of exactly the symbol size that
        // would parse as one is sent as fragments (`split`), so the two never mix up.
        if !self.is_fragment(symbol) {
            return match content.admit(symbol) {
                Some(tx) => SymbolKind::Tx(tx),
                None => SymbolKind::Invalid,
            };
        }
        let Some(reassembler) = self.reassembler.as_mut() else {
            return SymbolKind::Invalid;
        };
        match reassembler.push(symbol) {
            Ok(txs) => {
                for bytes in txs {
                    if let Some(tx) = content.admit(&bytes) {
                        done.push(tx);
                    }
                }
                SymbolKind::Fragment
            }
            Err(_) => SymbolKind::Invalid,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Synthetic, TxId};

    fn tx(id: u64, len: u32) -> Tx {
        Tx { id: TxId(id), len }
    }

    #[test]
    fn a_tx_of_symbol_size_is_one_symbol_and_is_recognised() {
        let mut s = Symbols::new(&StrokkurConfig::default(), Form::Bytes);
        let mut out = Vec::new();
        assert!(s.split(tx(42, 128), &Synthetic, &mut out).unwrap());
        assert_eq!(out.len(), 1);
        let mut done = Vec::new();
        assert_eq!(
            s.identify(&out[0], &mut Synthetic, &mut done),
            SymbolKind::Tx(tx(42, 128))
        );
        let mut garbage = out[0].clone();
        garbage[100] ^= 1;
        assert_eq!(
            s.identify(&garbage, &mut Synthetic, &mut done),
            SymbolKind::Invalid
        );
        assert!(done.is_empty());
    }

    #[test]
    fn longer_and_shorter_txs_travel_as_fragments_in_any_order() {
        let mut s = Symbols::new(&StrokkurConfig::default(), Form::Bytes);
        for t in [tx(7, 1000), tx(8, 40)] {
            let mut out = Vec::new();
            s.split(t, &Synthetic, &mut out).unwrap();
            assert_eq!(out.len(), (t.len as usize).div_ceil(128 - 35));
            assert!(out.iter().all(|f| f.len() == 128));
            let mut done = Vec::new();
            for f in out.iter().rev() {
                assert_eq!(
                    s.identify(f, &mut Synthetic, &mut done),
                    SymbolKind::Fragment
                );
            }
            assert_eq!(done, vec![t]);
        }
    }

    #[test]
    fn a_tx_beyond_the_fragment_limit_is_refused() {
        let cfg = StrokkurConfig {
            max_fragments: 2,
            ..StrokkurConfig::default()
        };
        let mut s = Symbols::new(&cfg, Form::Bytes);
        assert!(s.split(tx(1, 1000), &Synthetic, &mut Vec::new()).is_err());
    }

    #[test]
    fn live_bytes_of_symbol_size_that_look_like_a_fragment_travel_as_fragments() {
        let cfg = StrokkurConfig::default();
        let mut sender = crate::TxStore::default();
        let mut receiver = crate::TxStore::default();
        let mut s = Symbols::new(&cfg, Form::Bytes);
        // A 128-byte tx that is a well-formed LAST fragment of an empty chain start.
        let mut bytes = vec![0u8; 128];
        bytes[0] = ltcode::fragment::FIRST | ltcode::fragment::LAST;
        let tx = sender.admit(&bytes).unwrap();
        let mut out = Vec::new();
        assert!(s.split(tx, &sender, &mut out).unwrap());
        assert!(out.len() > 1, "sent as fragments");
        let mut done = Vec::new();
        for f in &out {
            assert_eq!(
                s.identify(f, &mut receiver, &mut done),
                SymbolKind::Fragment
            );
        }
        assert_eq!(done.len(), 1);
        assert_eq!(receiver.payload(done[0].id), Some(&bytes[..]));
        // Any other 128 bytes are one symbol, and any bytes are a tx to a live node.
        let plain = sender.admit(&[7u8; 128]).unwrap();
        assert!(s.split(plain, &sender, &mut out).unwrap());
        assert_eq!(out.len(), 1);
        assert!(matches!(
            s.identify(&out[0], &mut receiver, &mut done),
            SymbolKind::Tx(_)
        ));
        // A tx whose bytes the node does not hold is not coded.
        let unknown = Tx {
            id: TxId(999),
            len: 128,
        };
        assert!(!s.split(unknown, &sender, &mut out).unwrap());
    }
}
