//! Byte-wise XOR of equal-length symbols: the only arithmetic an LT code needs.

/// `dst ^= src` over the common length. Works on 8-byte words so that targets without
/// vector registers (WASM without simd128) still move a word at a time; natively LLVM
/// vectorises the word loop.
#[inline]
pub fn xor_into(dst: &mut [u8], src: &[u8]) {
    let len = dst.len().min(src.len());
    let (dst, src) = (&mut dst[..len], &src[..len]);
    let mut dst_words = dst.chunks_exact_mut(8);
    let mut src_words = src.chunks_exact(8);
    for (d, s) in (&mut dst_words).zip(&mut src_words) {
        let word = u64::from_ne_bytes(d[..8].try_into().unwrap_or([0; 8]))
            ^ u64::from_ne_bytes(s[..8].try_into().unwrap_or([0; 8]));
        d.copy_from_slice(&word.to_ne_bytes());
    }
    for (d, s) in dst_words
        .into_remainder()
        .iter_mut()
        .zip(src_words.remainder())
    {
        *d ^= *s;
    }
}

/// `dst = a ^ b` over the common length of the three, in one pass: what a copy then an XOR
/// would give, without the copy (in WebAssembly a copy of unknown length is a call out of the
/// module). Works on 16-byte blocks, which compile to one vector operation each.
#[inline]
pub fn xor_pair_into(dst: &mut [u8], a: &[u8], b: &[u8]) {
    let len = dst.len().min(a.len()).min(b.len());
    let (dst, a, b) = (&mut dst[..len], &a[..len], &b[..len]);
    let mut dst_blocks = dst.chunks_exact_mut(16);
    let (mut a_blocks, mut b_blocks) = (a.chunks_exact(16), b.chunks_exact(16));
    for ((d, x), y) in (&mut dst_blocks).zip(&mut a_blocks).zip(&mut b_blocks) {
        for i in 0..16 {
            d[i] = x[i] ^ y[i];
        }
    }
    let rest = a_blocks.remainder().iter().zip(b_blocks.remainder());
    for (d, (x, y)) in dst_blocks.into_remainder().iter_mut().zip(rest) {
        *d = x ^ y;
    }
}

pub fn is_zero(bytes: &[u8]) -> bool {
    bytes.iter().fold(0u8, |acc, b| acc | b) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xor_matches_bytewise_for_odd_lengths() {
        for len in [0usize, 1, 7, 8, 9, 31, 128, 131] {
            let a: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
            let b: Vec<u8> = (0..len).map(|i| (i * 13 + 1) as u8).collect();
            let mut out = a.clone();
            xor_into(&mut out, &b);
            let expected: Vec<u8> = a.iter().zip(&b).map(|(x, y)| x ^ y).collect();
            assert_eq!(out, expected);
            xor_into(&mut out, &b);
            assert_eq!(out, a);
            let mut pair = vec![0xAA; len];
            xor_pair_into(&mut pair, &a, &b);
            assert_eq!(pair, expected);
        }
        assert!(is_zero(&[0, 0, 0]) && !is_zero(&[0, 1]));
    }
}
