//! The tx ids an `inv` or `getdata` names. Most name one (an announcement after its jitter, a
//! request for the one tx an announcement named), so one id is held inline: such a message
//! costs no allocation, where a vector each was a malloc and a free per message (about a tenth
//! of an INV run's time on strokkur-250).

use crate::TxId;
use std::ops::Deref;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hashes {
    One(TxId),
    Many(Vec<TxId>),
}

impl Hashes {
    /// Keeps the ids `keep` accepts, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(TxId) -> bool) {
        match self {
            Hashes::One(id) => {
                if !keep(*id) {
                    *self = Hashes::Many(Vec::new());
                }
            }
            Hashes::Many(ids) => ids.retain(|&id| keep(id)),
        }
    }
}

impl Default for Hashes {
    fn default() -> Self {
        Hashes::Many(Vec::new())
    }
}

impl Deref for Hashes {
    type Target = [TxId];

    fn deref(&self) -> &[TxId] {
        match self {
            Hashes::One(id) => std::slice::from_ref(id),
            Hashes::Many(ids) => ids,
        }
    }
}

impl From<Vec<TxId>> for Hashes {
    fn from(ids: Vec<TxId>) -> Self {
        match ids[..] {
            [id] => Hashes::One(id),
            _ => Hashes::Many(ids),
        }
    }
}

impl From<TxId> for Hashes {
    fn from(id: TxId) -> Self {
        Hashes::One(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_id_is_inline_and_reads_like_a_slice() {
        assert_eq!(std::mem::size_of::<Hashes>(), 24, "no bigger than a Vec");
        let one = Hashes::from(vec![TxId(4)]);
        assert_eq!(one, Hashes::One(TxId(4)));
        assert_eq!(&one[..], &[TxId(4)]);
        let mut many = Hashes::from(vec![TxId(1), TxId(2), TxId(3)]);
        many.retain(|id| id != TxId(2));
        assert_eq!(&many[..], &[TxId(1), TxId(3)]);
        let mut gone = Hashes::from(TxId(9));
        gone.retain(|id| id != TxId(9));
        assert!(gone.is_empty());
        assert!(Hashes::default().is_empty());
    }
}
