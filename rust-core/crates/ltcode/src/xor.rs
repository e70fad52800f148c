//! Byte-wise XOR of equal-length symbols: the only arithmetic an LT code needs.

/// `dst ^= src` over the common length. Written as a plain zip so LLVM vectorises it
/// (SSE2/AVX natively, SIMD128 in WASM when enabled).
#[inline]
pub fn xor_into(dst: &mut [u8], src: &[u8]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d ^= *s;
    }
}

pub fn is_zero(bytes: &[u8]) -> bool {
    bytes.iter().fold(0u8, |acc, b| acc | b) == 0
}
