//! The decoder's edges (a pending codeword waiting on a missing symbol's ID), stored so that
//! one codeword's edges share cache lines: a codeword takes chunks of `PER_CHUNK` edges, one
//! line each, chained when it waits on more. Freeing a codeword reads its edges again, and by
//! then the line holding them is usually still cached from the peel that settled it; edges
//! taken one by one from a free list would each be a miss of their own.
//!
//! An edge index is its chunk times `PER_CHUNK` plus its place in the chunk.

use crate::shortid::ShortId;

/// No edge or chunk.
pub const NIL: u32 = u32::MAX;
/// `prev` of an edge taken off its waiting list (peeled): distinct from `NIL`, the head's.
const UNLINKED: u32 = u32::MAX - 1;
const PER_CHUNK: usize = 4;

#[derive(Clone, Copy, Debug)]
pub struct Edge {
    /// The codeword's slot.
    pub cw: u32,
    /// The missing symbol's ID, as the codeword's table keys it.
    pub id: ShortId,
    /// Neighbours in the waiting list of `id` (`NIL` at its ends).
    pub prev: u32,
    pub next: u32,
}

impl Edge {
    /// Whether the edge is still on its waiting list.
    pub fn linked(&self) -> bool {
        self.prev != UNLINKED
    }

    pub fn unlink(&mut self) {
        self.prev = UNLINKED;
    }
}

#[repr(C, align(64))]
#[derive(Clone, Copy, Debug)]
struct Chunk([Edge; PER_CHUNK]);

const EMPTY_EDGE: Edge = Edge {
    cw: NIL,
    id: 0,
    prev: UNLINKED,
    next: NIL,
};

/// One codeword's edges: `count` of them from chunk `first` on.
#[derive(Clone, Copy, Debug)]
pub struct Block {
    pub first: u32,
    pub count: u32,
}

impl Block {
    pub const NONE: Block = Block {
        first: NIL,
        count: 0,
    };
}

/// Where a walk over a block's edges is: `next` the index of its next edge.
pub struct Walk {
    chunk: u32,
    taken: u32,
    count: u32,
}

#[derive(Clone, Debug, Default)]
pub struct Edges {
    chunks: Vec<Chunk>,
    /// The chunk after each one in its block (read only where a block has more).
    next_chunk: Vec<u32>,
    free: Vec<u32>,
}

impl Edges {
    pub fn clear(&mut self) {
        self.chunks.clear();
        self.next_chunk.clear();
        self.free.clear();
    }

    /// Takes chunks for `count` edges (their fields to be set through `get_mut`).
    pub fn alloc(&mut self, count: usize) -> Block {
        let mut first = NIL;
        let mut last = NIL;
        for _ in 0..count.div_ceil(PER_CHUNK) {
            let chunk = match self.free.pop() {
                Some(chunk) => chunk,
                None => {
                    self.chunks.push(Chunk([EMPTY_EDGE; PER_CHUNK]));
                    self.next_chunk.push(NIL);
                    (self.chunks.len() - 1) as u32
                }
            };
            match last {
                NIL => first = chunk,
                _ => self.next_chunk[last as usize] = chunk,
            }
            last = chunk;
        }
        Block {
            first,
            count: count as u32,
        }
    }

    /// Gives a block's chunks back.
    pub fn free(&mut self, block: Block) {
        let mut chunk = block.first;
        for _ in 0..(block.count as usize).div_ceil(PER_CHUNK) {
            self.free.push(chunk);
            chunk = self.next_chunk[chunk as usize];
        }
    }

    pub fn walk(&self, block: Block) -> Walk {
        Walk {
            chunk: block.first,
            taken: 0,
            count: block.count,
        }
    }

    /// The index of the walk's next edge, if any is left.
    pub fn next(&self, walk: &mut Walk) -> Option<u32> {
        if walk.taken == walk.count {
            return None;
        }
        let lane = walk.taken as usize % PER_CHUNK;
        if lane == 0 && walk.taken > 0 {
            walk.chunk = self.next_chunk[walk.chunk as usize];
        }
        walk.taken += 1;
        Some(walk.chunk * PER_CHUNK as u32 + lane as u32)
    }

    pub fn get(&self, e: u32) -> &Edge {
        let e = e as usize;
        &self.chunks[e / PER_CHUNK].0[e % PER_CHUNK]
    }

    pub fn get_mut(&mut self, e: u32) -> &mut Edge {
        let e = e as usize;
        &mut self.chunks[e / PER_CHUNK].0[e % PER_CHUNK]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks of any size walk their own edges in order, never another live block's, and
    /// freed chunks are taken again before the store grows.
    #[test]
    fn blocks_hold_their_own_edges() {
        let mut edges = Edges::default();
        let mut live: Vec<(Block, u32)> = Vec::new();
        let held = |live: &[(Block, u32)]| -> usize {
            live.iter().map(|(b, _)| b.count.div_ceil(4) as usize).sum()
        };
        let mut peak = 0;
        for step in 0..400u32 {
            if step % 3 == 2 {
                let (block, _) = live.remove((step as usize * 7) % live.len());
                edges.free(block);
            }
            let count = (step as usize * 5) % 11;
            let block = edges.alloc(count);
            let mut walk = edges.walk(block);
            let mut n = 0;
            while let Some(e) = edges.next(&mut walk) {
                *edges.get_mut(e) = Edge {
                    cw: step,
                    id: n,
                    prev: NIL,
                    next: NIL,
                };
                n += 1;
            }
            assert_eq!(n as usize, count);
            live.push((block, step));
            peak = peak.max(held(&live));
            for &(block, owner) in &live {
                let mut walk = edges.walk(block);
                let mut i = 0;
                while let Some(e) = edges.next(&mut walk) {
                    assert_eq!((edges.get(e).cw, edges.get(e).id), (owner, i));
                    i += 1;
                }
            }
        }
        // Every chunk is held or free, and the store grew only when none was free.
        assert_eq!(edges.chunks.len(), held(&live) + edges.free.len());
        assert_eq!(edges.chunks.len(), peak);
    }
}
