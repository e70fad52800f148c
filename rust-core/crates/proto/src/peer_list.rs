//! `PeerList`: peers in order, the first few held inline. A tx a node lacks is announced by a
//! handful of peers before it arrives, so the list of them (`pull::Wanted`) usually needs no
//! allocation of its own, and reading it no second cache line.

use crate::PeerIdx;

/// Peers kept inline before the list moves to the heap.
const INLINE: usize = 8;

#[derive(Debug)]
pub enum PeerList {
    Inline { len: u8, peers: [PeerIdx; INLINE] },
    Heap(Vec<PeerIdx>),
}

impl Default for PeerList {
    fn default() -> Self {
        PeerList::Inline {
            len: 0,
            peers: [PeerIdx(0); INLINE],
        }
    }
}

impl PeerList {
    pub fn as_slice(&self) -> &[PeerIdx] {
        match self {
            PeerList::Inline { len, peers } => &peers[..*len as usize],
            PeerList::Heap(v) => v,
        }
    }

    pub fn as_mut_slice(&mut self) -> &mut [PeerIdx] {
        match self {
            PeerList::Inline { len, peers } => &mut peers[..*len as usize],
            PeerList::Heap(v) => v,
        }
    }

    pub fn push(&mut self, peer: PeerIdx) {
        match self {
            PeerList::Inline { len, peers } if (*len as usize) < INLINE => {
                peers[*len as usize] = peer;
                *len += 1;
            }
            PeerList::Inline { peers, .. } => {
                let mut v = Vec::with_capacity(2 * INLINE);
                v.extend_from_slice(peers);
                v.push(peer);
                *self = PeerList::Heap(v);
            }
            PeerList::Heap(v) => v.push(peer),
        }
    }

    /// Removes the peer at `pos`, keeping the order of the rest.
    pub fn remove(&mut self, pos: usize) {
        match self {
            PeerList::Inline { len, peers } => {
                peers.copy_within(pos + 1..*len as usize, pos);
                *len -= 1;
            }
            PeerList::Heap(v) => {
                v.remove(pos);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn behaves_as_a_vec_across_the_move_to_the_heap() {
        let mut list = PeerList::default();
        let mut reference: Vec<PeerIdx> = Vec::new();
        for i in 0..40u32 {
            list.push(PeerIdx(i * 7 % 13));
            reference.push(PeerIdx(i * 7 % 13));
            if i % 3 == 2 {
                let pos = (i as usize * 5) % reference.len();
                list.remove(pos);
                reference.remove(pos);
            }
            if i % 4 == 1 {
                let n = reference.len();
                list.as_mut_slice().swap(0, n - 1);
                reference.swap(0, n - 1);
            }
            assert_eq!(list.as_slice(), reference.as_slice());
        }
        assert!(matches!(list, PeerList::Heap(_)));
    }
}
