//! The decoder's pending codewords: a slab of records with a free list, each record on a
//! cache line of its own, with the codeword's payload inside it where it fits (`INLINE`
//! bytes: a stand-in's). Peeling a symbol out of a waiting codeword changes both its count of
//! unknown IDs and its payload; with the payload apart that was two misses. Longer payloads
//! (symbols' bytes) sit whole in `long_payloads`: split in two they cost more passes than the one
//! line saves.

use crate::decoder::SenderId;
use crate::edges::Block;
use crate::shortid::ShortId;

/// Room for a payload in the record.
const INLINE: usize = 32;

#[repr(C, align(64))]
#[derive(Clone, Copy, Debug)]
pub struct Pending {
    pub sender: SenderId,
    /// Moves on each time the slot is freed, so work queued for an earlier codeword is dropped.
    pub generation: u32,
    /// Unknown IDs left, and their XOR.
    pub remaining: u32,
    pub id_xor: ShortId,
    pub edges: Block,
    /// Where its entry in the decoder's `expiry` is: the entry's index plus the entries taken
    /// off its front so far (wrapping).
    pub queued_at: u32,
    pub live: bool,
    pub queued: bool,
    /// The payload, where it fits (else it is in `Codewords::long_payloads`).
    payload: [u8; INLINE],
}

#[derive(Clone, Debug)]
pub struct Codewords {
    records: Vec<Pending>,
    /// Each slot's payload where it is too long for the record.
    long_payloads: Vec<u8>,
    value_len: usize,
    /// Whether payloads sit in the records (else in `long_payloads`).
    inline: bool,
    free: Vec<u32>,
}

impl Codewords {
    /// A slab for payloads of `value_len` bytes.
    pub fn new(value_len: usize) -> Codewords {
        Codewords {
            records: Vec::new(),
            long_payloads: Vec::new(),
            value_len,
            inline: value_len <= INLINE,
            free: Vec::new(),
        }
    }

    pub fn clear(&mut self) {
        self.records.clear();
        self.long_payloads.clear();
        self.free.clear();
    }

    /// Slots ever taken (live or free).
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Takes a slot for a live codeword from `sender` with no edges yet.
    pub fn alloc(&mut self, sender: SenderId) -> u32 {
        let slot = match self.free.pop() {
            Some(slot) => slot,
            None => {
                self.records.push(Pending {
                    sender,
                    generation: 0,
                    remaining: 0,
                    id_xor: 0,
                    edges: Block::NONE,
                    queued_at: 0,
                    live: false,
                    queued: false,
                    payload: [0; INLINE],
                });
                if !self.inline {
                    self.long_payloads
                        .resize(self.long_payloads.len() + self.value_len, 0);
                }
                (self.records.len() - 1) as u32
            }
        };
        let cw = &mut self.records[slot as usize];
        cw.sender = sender;
        cw.edges = Block::NONE;
        cw.live = true;
        cw.queued = false;
        slot
    }

    /// Gives a slot back: its record is no longer live, and its generation moves on.
    pub fn free(&mut self, slot: u32) {
        let cw = &mut self.records[slot as usize];
        cw.live = false;
        cw.queued = false;
        cw.edges = Block::NONE;
        cw.generation = cw.generation.wrapping_add(1);
        self.free.push(slot);
    }

    pub fn get(&self, slot: u32) -> &Pending {
        &self.records[slot as usize]
    }

    pub fn get_mut(&mut self, slot: u32) -> &mut Pending {
        &mut self.records[slot as usize]
    }

    /// A slot's payload (the decoder's value length).
    pub fn payload(&self, slot: u32) -> &[u8] {
        let (slot, len) = (slot as usize, self.value_len);
        match self.inline {
            true => &self.records[slot].payload[..len],
            false => &self.long_payloads[slot * len..(slot + 1) * len],
        }
    }

    pub fn payload_mut(&mut self, slot: u32) -> &mut [u8] {
        let (slot, len) = (slot as usize, self.value_len);
        match self.inline {
            true => &mut self.records[slot].payload[..len],
            false => &mut self.long_payloads[slot * len..(slot + 1) * len],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xor::xor_into;

    /// Payloads shorter than, as long as and longer than the room in a record read back as
    /// written and XORed, each slot's apart from the others', through frees and reuse.
    #[test]
    fn payloads_keep_their_bytes_in_every_length() {
        for len in [1, 16, INLINE, INLINE + 1, 128] {
            let mut codewords = Codewords::new(len);
            let pattern = |slot: u32, k: u8| -> Vec<u8> {
                (0..len)
                    .map(|i| (i as u8) ^ (slot as u8 * 31) ^ k)
                    .collect()
            };
            let slots: Vec<u32> = (0..5).map(|s| codewords.alloc(s)).collect();
            for &slot in &slots {
                codewords
                    .payload_mut(slot)
                    .copy_from_slice(&pattern(slot, 0));
            }
            codewords.free(slots[2]);
            let again = codewords.alloc(9);
            assert_eq!((again, codewords.get(again).generation), (slots[2], 1));
            codewords
                .payload_mut(again)
                .copy_from_slice(&pattern(again, 7));
            let mask = vec![0x5a; len];
            for &slot in &slots {
                xor_into(codewords.payload_mut(slot), &mask);
                let k = if slot == again { 7 } else { 0 };
                let expected: Vec<u8> = pattern(slot, k).iter().map(|b| b ^ 0x5a).collect();
                assert_eq!(
                    codewords.payload(slot),
                    expected,
                    "length {len}, slot {slot}"
                );
            }
        }
    }
}
