//! `Few`: the ids a message names (INV's `inv`/`getdata`, Shrec's announcements and
//! requests). Most name one (an announcement after its delay, a request for the one tx an
//! announcement named), so one is held inline: such a message costs no allocation, where a
//! vector each was a malloc and a free per message (a fifth of an INV run's time on
//! strokkur-250).

use std::ops::Deref;

#[derive(Clone, Debug)]
pub enum Few<T> {
    One(T),
    Many(Vec<T>),
}

impl<T: Copy> Few<T> {
    /// Adds an id at the end; the first one stays inline.
    pub fn push(&mut self, id: T) {
        match self {
            Few::Many(ids) if ids.is_empty() => *self = Few::One(id),
            Few::Many(ids) => ids.push(id),
            Few::One(first) => *self = Few::Many(vec![*first, id]),
        }
    }

    /// Keeps the ids `keep` accepts, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(T) -> bool) {
        match self {
            Few::One(id) => {
                if !keep(*id) {
                    *self = Few::Many(Vec::new());
                }
            }
            Few::Many(ids) => ids.retain(|&id| keep(id)),
        }
    }
}

impl<T> Default for Few<T> {
    fn default() -> Self {
        Few::Many(Vec::new())
    }
}

/// Equal when they name the same ids in the same order, however they hold them (a list cut
/// down to one by `retain` equals the one its decoded copy holds inline).
impl<T: PartialEq> PartialEq for Few<T> {
    fn eq(&self, other: &Self) -> bool {
        self[..] == other[..]
    }
}

impl<T: Eq> Eq for Few<T> {}

impl<T> Deref for Few<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match self {
            Few::One(id) => std::slice::from_ref(id),
            Few::Many(ids) => ids,
        }
    }
}

impl<T: Copy> From<Vec<T>> for Few<T> {
    fn from(ids: Vec<T>) -> Self {
        match ids[..] {
            [id] => Few::One(id),
            _ => Few::Many(ids),
        }
    }
}

impl<T: Copy> FromIterator<T> for Few<T> {
    fn from_iter<I: IntoIterator<Item = T>>(ids: I) -> Self {
        ids.into_iter().collect::<Vec<T>>().into()
    }
}

impl<T> From<T> for Few<T> {
    fn from(id: T) -> Self {
        Few::One(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TxId;

    #[test]
    fn one_id_is_inline_and_reads_like_a_slice() {
        assert_eq!(std::mem::size_of::<Few<TxId>>(), 24, "no bigger than a Vec");
        let one = Few::<TxId>::from(vec![TxId(4)]);
        assert!(matches!(one, Few::One(TxId(4))));
        assert_eq!(&one[..], &[TxId(4)]);
        let mut many: Few<TxId> = [TxId(1), TxId(2), TxId(3)].into_iter().collect();
        many.retain(|id| id != TxId(2));
        assert_eq!(&many[..], &[TxId(1), TxId(3)]);
        assert_eq!(many, Few::Many(vec![TxId(1), TxId(3)]));
        many.retain(|id| id != TxId(3));
        assert_eq!(
            many,
            Few::One(TxId(1)),
            "held in a list or inline, the same ids"
        );
        let mut gone = Few::from(TxId(9));
        gone.retain(|id| id != TxId(9));
        assert!(gone.is_empty());
        assert!(Few::<TxId>::default().is_empty());
        let mut pushed = Few::default();
        pushed.push(TxId(1));
        assert!(matches!(pushed, Few::One(TxId(1))));
        pushed.push(TxId(2));
        pushed.push(TxId(3));
        assert_eq!(&pushed[..], &[TxId(1), TxId(2), TxId(3)]);
    }
}
