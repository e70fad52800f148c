//! The node's FIFO coding window (§4.1): the k most recent transactions it received or
//! created. One window per node; every link's encoder draws from it.

use crate::params::{ParamError, Params};

#[derive(Clone, Debug)]
pub struct CodingWindow {
    capacity: usize,
    symbol_len: usize,
    /// `capacity * symbol_len` bytes; member at position p is `data[p*l..(p+1)*l]`.
    data: Vec<u8>,
    /// Sequence number (0, 1, ...) of the symbol held at each position.
    seqs: Vec<u64>,
    pushed: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WrongLength {
    pub expected: usize,
    pub got: usize,
}

impl CodingWindow {
    pub fn new(params: &Params) -> Result<CodingWindow, ParamError> {
        params.validate()?;
        Ok(CodingWindow {
            capacity: params.window,
            symbol_len: params.symbol_len,
            data: Vec::with_capacity(params.window * params.symbol_len),
            seqs: Vec::with_capacity(params.window),
            pushed: 0,
        })
    }

    /// Adds a symbol, evicting the oldest once k are held.
    pub fn push(&mut self, symbol: &[u8]) -> Result<(), WrongLength> {
        if symbol.len() != self.symbol_len {
            return Err(WrongLength {
                expected: self.symbol_len,
                got: symbol.len(),
            });
        }
        let seq = self.pushed;
        self.pushed += 1;
        if self.seqs.len() < self.capacity {
            self.seqs.push(seq);
            self.data.extend_from_slice(symbol);
        } else {
            let pos = (seq % self.capacity as u64) as usize;
            self.seqs[pos] = seq;
            self.data[pos * self.symbol_len..(pos + 1) * self.symbol_len].copy_from_slice(symbol);
        }
        Ok(())
    }

    /// Members currently held (k once full).
    pub fn len(&self) -> usize {
        self.seqs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.seqs.is_empty()
    }

    pub fn symbol_len(&self) -> usize {
        self.symbol_len
    }

    /// Symbols pushed so far.
    pub fn pushed(&self) -> u64 {
        self.pushed
    }

    /// The member at `pos` (< len); positions are stable while the member stays.
    pub fn member(&self, pos: usize) -> &[u8] {
        &self.data[pos * self.symbol_len..(pos + 1) * self.symbol_len]
    }

    /// Sequence number of the member at `pos`: lets link encoders cache its short ID.
    pub fn seq(&self, pos: usize) -> u64 {
        self.seqs[pos]
    }
}
