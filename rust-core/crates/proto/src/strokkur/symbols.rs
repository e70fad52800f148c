//! Transactions as symbols and back (§4.4). A tx of exactly l bytes is one symbol; any other
//! size travels as l-byte fragments chained by BLAKE2b hashes (`ltcode::fragment`).
//!
//! A decoded symbol is first tried as a whole tx, then as a fragment. In the simulator a tx is
//! recognised by its body: the first 8 bytes carry its id and `Tx::fill_body` must reproduce
//! the rest exactly (a stricter check than comparing hashes, and what a real node's signature
//! check stands in for). Garbage that slipped through the decoder's 4-byte check fails here.

use super::config::StrokkurConfig;
use crate::{Tx, TxId};
use ltcode::fragment::{fragment, FragmentError, FragmentParams, Reassembler};

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
    pub fn split(&mut self, tx: Tx, out: &mut Vec<Vec<u8>>) -> Result<(), FragmentError> {
        out.clear();
        tx.fill_body(&mut self.body);
        if self.body.len() == self.symbol_len {
            out.push(self.body.clone());
            return Ok(());
        }
        *out = fragment(&self.body, &self.params)?;
        Ok(())
    }

    /// Classifies a decoded symbol; txs completed by a fragment are appended to `done`.
    pub fn identify(&mut self, symbol: &[u8], done: &mut Vec<Tx>) -> SymbolKind {
        if let Some(tx) = self.recognise(symbol) {
            return SymbolKind::Tx(tx);
        }
        let Some(reassembler) = self.reassembler.as_mut() else {
            return SymbolKind::Invalid;
        };
        match reassembler.push(symbol) {
            Ok(txs) => {
                for bytes in txs {
                    if let Some(tx) = self.recognise(&bytes) {
                        done.push(tx);
                    }
                }
                SymbolKind::Fragment
            }
            Err(_) => SymbolKind::Invalid,
        }
    }

    /// The tx whose body is exactly `bytes`, if any.
    fn recognise(&mut self, bytes: &[u8]) -> Option<Tx> {
        let head: [u8; 8] = bytes.get(..8)?.try_into().ok()?;
        let tx = Tx {
            id: TxId(u64::from_le_bytes(head)),
            len: u32::try_from(bytes.len()).ok()?,
        };
        tx.fill_body(&mut self.body);
        (self.body == bytes).then_some(tx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tx(id: u64, len: u32) -> Tx {
        Tx { id: TxId(id), len }
    }

    #[test]
    fn a_tx_of_symbol_size_is_one_symbol_and_is_recognised() {
        let mut s = Symbols::new(&StrokkurConfig::default());
        let mut out = Vec::new();
        s.split(tx(42, 128), &mut out).unwrap();
        assert_eq!(out.len(), 1);
        let mut done = Vec::new();
        assert_eq!(s.identify(&out[0], &mut done), SymbolKind::Tx(tx(42, 128)));
        let mut garbage = out[0].clone();
        garbage[100] ^= 1;
        assert_eq!(s.identify(&garbage, &mut done), SymbolKind::Invalid);
        assert!(done.is_empty());
    }

    #[test]
    fn longer_and_shorter_txs_travel_as_fragments_in_any_order() {
        let mut s = Symbols::new(&StrokkurConfig::default());
        for t in [tx(7, 1000), tx(8, 40)] {
            let mut out = Vec::new();
            s.split(t, &mut out).unwrap();
            assert_eq!(out.len(), (t.len as usize).div_ceil(128 - 35));
            assert!(out.iter().all(|f| f.len() == 128));
            let mut done = Vec::new();
            for f in out.iter().rev() {
                assert_eq!(s.identify(f, &mut done), SymbolKind::Fragment);
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
        assert!(s.split(tx(1, 1000), &mut Vec::new()).is_err());
    }
}
