//! A symbol's digest: BLAKE2b-128 of its bytes, computed once per symbol. In a simulation every
//! link's short ID is a keyed hash of the digest (`form`, `shortid`), so re-keying a symbol for
//! another peer hashes 16 bytes, not the whole symbol. 128 bits keep the digest collision
//! resistant: two symbols with one digest would share their short ID under every key.
//!
//! BLAKE2b is written out here from RFC 7693 (unkeyed, 16-byte output): plain 64-bit code that
//! the compiler unrolls, about twice as fast natively as the general crate and four times in
//! WASM, where a simulation of real bytes takes a digest for every decoded symbol. Tests check
//! it against `blake2`.

pub const DIGEST_LEN: usize = 16;

pub type Digest = [u8; DIGEST_LEN];

const BLOCK: usize = 128;

const IV: [u64; 8] = [
    0x6a09_e667_f3bc_c908,
    0xbb67_ae85_84ca_a73b,
    0x3c6e_f372_fe94_f82b,
    0xa54f_f53a_5f1d_36f1,
    0x510e_527f_ade6_82d1,
    0x9b05_688c_2b3e_6c1f,
    0x1f83_d9ab_fb41_bd6b,
    0x5be0_cd19_137e_2179,
];

const SIGMA: [[usize; 16]; 10] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
    [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
    [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
    [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
    [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
    [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
    [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
    [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
    [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
];

/// The digest of a symbol's bytes.
pub fn digest(symbol: &[u8]) -> Digest {
    // Parameter block: digest length 16, no key, fanout and depth 1.
    let mut h = IV;
    h[0] ^= 0x0101_0000 | DIGEST_LEN as u64;
    let mut blocks = symbol.chunks(BLOCK).peekable();
    let mut done = 0u128;
    let mut last = [0u8; BLOCK];
    loop {
        let block = blocks.next().unwrap_or(&[]);
        done += block.len() as u128;
        let is_last = blocks.peek().is_none();
        let bytes: &[u8; BLOCK] = match <&[u8; BLOCK]>::try_from(block) {
            Ok(full) => full,
            Err(_) => {
                last[..block.len()].copy_from_slice(block);
                &last
            }
        };
        compress(&mut h, bytes, done, is_last);
        if is_last {
            break;
        }
    }
    let mut out = [0u8; DIGEST_LEN];
    out[..8].copy_from_slice(&h[0].to_le_bytes());
    out[8..].copy_from_slice(&h[1].to_le_bytes());
    out
}

#[inline(always)]
fn compress(h: &mut [u64; 8], block: &[u8; BLOCK], counter: u128, last: bool) {
    let m: [u64; 16] = core::array::from_fn(|i| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&block[8 * i..8 * i + 8]);
        u64::from_le_bytes(w)
    });
    let mut v = [0u64; 16];
    v[..8].copy_from_slice(h);
    v[8..].copy_from_slice(&IV);
    v[12] ^= counter as u64;
    v[13] ^= (counter >> 64) as u64;
    if last {
        v[14] = !v[14];
    }
    // Rounds by constant number, so every message index is a constant.
    round::<0>(&mut v, &m);
    round::<1>(&mut v, &m);
    round::<2>(&mut v, &m);
    round::<3>(&mut v, &m);
    round::<4>(&mut v, &m);
    round::<5>(&mut v, &m);
    round::<6>(&mut v, &m);
    round::<7>(&mut v, &m);
    round::<8>(&mut v, &m);
    round::<9>(&mut v, &m);
    round::<10>(&mut v, &m);
    round::<11>(&mut v, &m);
    for i in 0..8 {
        h[i] ^= v[i] ^ v[i + 8];
    }
}

#[inline(always)]
fn round<const R: usize>(v: &mut [u64; 16], m: &[u64; 16]) {
    let s = &SIGMA[R % 10];
    g(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
    g(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
    g(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
    g(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
    g(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
    g(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
    g(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
    g(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
}

#[inline(always)]
fn g(v: &mut [u64; 16], a: usize, b: usize, c: usize, d: usize, x: u64, y: u64) {
    v[a] = v[a].wrapping_add(v[b]).wrapping_add(x);
    v[d] = (v[d] ^ v[a]).rotate_right(32);
    v[c] = v[c].wrapping_add(v[d]);
    v[b] = (v[b] ^ v[c]).rotate_right(24);
    v[a] = v[a].wrapping_add(v[b]).wrapping_add(y);
    v[d] = (v[d] ^ v[a]).rotate_right(16);
    v[c] = v[c].wrapping_add(v[d]);
    v[b] = (v[b] ^ v[c]).rotate_right(63);
}

#[cfg(test)]
mod tests {
    use super::*;
    use blake2::digest::consts::U16;
    use blake2::{Blake2b, Digest as _};

    #[test]
    fn is_blake2b_with_a_16_byte_output() {
        // RFC 7693's test message "abc", hashed at the 16-byte output length (which BLAKE2b
        // folds into its parameter block, so this is not a prefix of BLAKE2b-512).
        assert_eq!(
            digest(b"abc"),
            [
                0xcf, 0x4a, 0xb7, 0x91, 0xc6, 0x2b, 0x8d, 0x2b, 0x21, 0x09, 0xc9, 0x02, 0x75, 0x28,
                0x78, 0x16
            ]
        );
    }

    #[test]
    fn agrees_with_the_blake2_crate_at_every_length_around_the_block_size() {
        let mut bytes = Vec::new();
        for len in 0..600 {
            let expected: Digest = Blake2b::<U16>::digest(&bytes).into();
            assert_eq!(digest(&bytes), expected, "length {len}");
            bytes.push((len as u8).wrapping_mul(31) ^ 0x5a);
        }
    }
}
