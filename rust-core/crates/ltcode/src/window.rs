//! The node's FIFO coding window (§4.1): the k most recent transactions it received or
//! created, as values (their bytes, or stand-ins: see `form`) with the names short IDs hash.
//! One window per node; every link's encoder draws from it.

use crate::digest::{Digest, DIGEST_LEN};
use crate::form::Form;
use crate::params::{ParamError, Params};
use crate::prefetch::warm;
use crate::shortid::{common_id, ShortId};

#[derive(Clone, Debug)]
pub struct CodingWindow {
    capacity: usize,
    form: Form,
    symbol_len: usize,
    value_len: usize,
    /// `capacity * value_len` bytes; member at position p is `data[p*v..(p+1)*v]`.
    data: Vec<u8>,
    /// Each member's digest (`Form::DigestedBytes` only: the other forms' values hold their
    /// names).
    digests: Vec<Digest>,
    /// Each member's common ID (`Form::StandIn` only: see `shortid`), taken once as it enters
    /// rather than by every link for every codeword naming it.
    common_ids: Vec<ShortId>,
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
            form: params.form,
            symbol_len: params.symbol_len,
            value_len: params.value_len(),
            data: Vec::with_capacity(params.window * params.value_len()),
            digests: Vec::new(),
            common_ids: Vec::new(),
            pushed: 0,
        })
    }

    /// Adds a value, evicting the oldest once k are held.
    pub fn push(&mut self, value: &[u8]) -> Result<(), WrongLength> {
        self.push_digested(value, None)
    }

    /// Adds a value whose digest the caller may have already (the decoder's `digest(seq)`),
    /// so it is not taken twice.
    pub fn push_digested(
        &mut self,
        value: &[u8],
        digest: Option<&Digest>,
    ) -> Result<(), WrongLength> {
        self.check(value)?;
        let digest = match self.form {
            Form::DigestedBytes => Some(digest.copied().unwrap_or_else(|| self.form.digest(value))),
            Form::Bytes | Form::StandIn => None,
        };
        self.put(value, digest);
        Ok(())
    }

    fn check(&self, value: &[u8]) -> Result<(), WrongLength> {
        match value.len() == self.value_len {
            true => Ok(()),
            false => Err(WrongLength {
                expected: self.value_len,
                got: value.len(),
            }),
        }
    }

    fn put(&mut self, value: &[u8], digest: Option<Digest>) {
        let seq = self.pushed;
        self.pushed += 1;
        let common_id = (self.form == Form::StandIn).then(|| common_id(&self.form.digest(value)));
        if seq < self.capacity as u64 {
            self.digests.extend(digest);
            self.common_ids.extend(common_id);
            self.data.extend_from_slice(value);
        } else {
            let pos = (seq % self.capacity as u64) as usize;
            let v = self.value_len;
            if let Some(digest) = digest {
                self.digests[pos] = digest;
            }
            if let Some(id) = common_id {
                self.common_ids[pos] = id;
            }
            self.data[pos * v..(pos + 1) * v].copy_from_slice(value);
        }
    }

    /// Members currently held (k once full).
    pub fn len(&self) -> usize {
        self.pushed.min(self.capacity as u64) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.pushed == 0
    }

    pub fn symbol_len(&self) -> usize {
        self.symbol_len
    }

    pub fn form(&self) -> Form {
        self.form
    }

    pub fn value_len(&self) -> usize {
        self.value_len
    }

    /// Members held once full (k).
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Where the member with sequence number `seq` is (or was) held.
    pub fn position(&self, seq: u64) -> usize {
        (seq % self.capacity as u64) as usize
    }

    /// Symbols pushed so far.
    pub fn pushed(&self) -> u64 {
        self.pushed
    }

    /// The value of the member at `pos` (< len); positions are stable while the member stays.
    pub fn member(&self, pos: usize) -> &[u8] {
        &self.data[pos * self.value_len..(pos + 1) * self.value_len]
    }

    /// Starts loading the member at `pos` (its first line: one prefetch a member, as where the
    /// window is cached every one is a cost) and its common ID, if kept.
    pub fn warm(&self, pos: usize) {
        if let Some(first) = self.member(pos).first() {
            warm(first);
        }
        if let Some(id) = self.common_ids.get(pos) {
            warm(id);
        }
    }

    /// The common ID of the member at `pos` (< len) in the stand-in form: `common_id` of its
    /// name, kept from when it entered. None in the other forms.
    #[inline]
    pub fn common_id(&self, pos: usize) -> Option<ShortId> {
        self.common_ids.get(pos).copied()
    }

    /// What short IDs hash for the member at `pos`: its bytes, or its digest (see `form`).
    pub fn name(&self, pos: usize) -> &[u8] {
        match self.form {
            Form::Bytes => self.member(pos),
            Form::DigestedBytes => &self.digests[pos],
            Form::StandIn => &self.member(pos)[..DIGEST_LEN],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::form::{stand_in, TAG_LEN};

    /// In the stand-in form each member's common ID is that of its name, also after newer
    /// members take older ones' positions; the other forms keep none.
    #[test]
    fn stand_ins_keep_the_common_id_of_their_name() {
        for form in [Form::StandIn, Form::Bytes, Form::DigestedBytes] {
            let params = Params {
                window: 5,
                symbol_len: 16,
                form,
                ..Params::default()
            };
            let mut window = CodingWindow::new(&params).expect("valid");
            for i in 0..12u8 {
                let symbol = [i; 16];
                let value = match form {
                    Form::StandIn => stand_in(&symbol, &[i; TAG_LEN]).to_vec(),
                    _ => symbol.to_vec(),
                };
                window.push(&value).expect("right length");
                for pos in 0..window.len() {
                    let expected = (form == Form::StandIn).then(|| common_id(window.name(pos)));
                    assert_eq!(
                        window.common_id(pos),
                        expected,
                        "{form:?} after {i}, pos {pos}"
                    );
                }
            }
        }
    }
}
