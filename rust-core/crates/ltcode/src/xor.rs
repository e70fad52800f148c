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
        }
        assert!(is_zero(&[0, 0, 0]) && !is_zero(&[0, 1]));
    }
}
