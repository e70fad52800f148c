//! Transactions as symbols and back (§4.4). A tx of exactly l bytes is one symbol; any other
//! size travels as l-byte fragments chained by BLAKE2b hashes (`ltcode::fragment`).
//!
//! A decoded symbol is first tried as a whole tx, then as a fragment. Whether bytes are a tx is
//! the node's content's call (`Content::admit`): on a live node any bytes are, under the id
//! their hash gives; in the simulator only the exact body of the id in its first 8 bytes is (a
//! stricter check than comparing hashes, and what a real node's validity check stands in for).
//! Garbage that slipped through the decoder's 4-byte check fails here.

use super::config::StrokkurConfig;
use crate::{Content, Tx};
use ltcode::fragment::{fragment, parse, FragmentError, FragmentParams, Reassembler};

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
    symbol_len: usize,
    params: FragmentParams,
    reassembler: Option<Reassembler>,
    body: Vec<u8>,
}

impl Symbols {
    pub fn new(cfg: &StrokkurConfig) -> Symbols {
        let params = cfg.fragment_params();
        Symbols {
            symbol_len: cfg.symbol_bytes as usize,
            params,
            reassembler: Reassembler::new(params).ok(),
            body: Vec::new(),
        }
    }

    /// The symbols that carry `tx`, first to last, into `out` (cleared first).
    /// `Ok(false)` if the node does not hold the tx's bytes.
    pub fn split(
        &mut self,
        tx: Tx,
        content: &dyn Content,
        out: &mut Vec<Vec<u8>>,
    ) -> Result<bool, FragmentError> {
        out.clear();
        if !content.body(tx, &mut self.body) {
            return Ok(false);
        }
        if self.body.len() == self.symbol_len && !self.is_fragment(&self.body) {
            out.push(self.body.clone());
            return Ok(true);
        }
        *out = fragment(&self.body, &self.params)?;
        Ok(true)
    }

    fn is_fragment(&self, symbol: &[u8]) -> bool {
        parse(symbol, &self.params).is_ok()
    }

    /// Classifies a decoded symbol; txs completed by a fragment are appended to `done`.
    pub fn identify(
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
        let mut s = Symbols::new(&StrokkurConfig::default());
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
        let mut s = Symbols::new(&StrokkurConfig::default());
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
        let mut s = Symbols::new(&cfg);
        assert!(s.split(tx(1, 1000), &Synthetic, &mut Vec::new()).is_err());
    }

    #[test]
    fn live_bytes_of_symbol_size_that_look_like_a_fragment_travel_as_fragments() {
        let cfg = StrokkurConfig::default();
        let mut sender = crate::TxStore::default();
        let mut receiver = crate::TxStore::default();
        let mut s = Symbols::new(&cfg);
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
