//! The codec's only source of randomness: a caller-provided stream.
//! The simulator passes its seeded `proto::Rng` (via a one-line impl in proto); tests and
//! benches here use [`SplitMix64`].

/// A stream of uniformly random 64-bit words.
pub trait CodecRng {
    fn next_u64(&mut self) -> u64;
}

impl<R: CodecRng + ?Sized> CodecRng for &mut R {
    fn next_u64(&mut self) -> u64 {
        (**self).next_u64()
    }
}

/// Uniform in `0..n` for `n > 0` (Lemire's multiply-shift with rejection, so unbiased).
/// Bounds below 2^32 (every one the codec uses) take a 32x32-bit product, which WASM has
/// natively; larger ones a 128-bit product.
pub fn below(rng: &mut (impl CodecRng + ?Sized), n: u64) -> u64 {
    let n = n.max(1);
    if let Ok(small) = u32::try_from(n) {
        loop {
            let wide = (rng.next_u64() >> 32) * small as u64;
            let low = wide as u32;
            if low >= small || low >= small.wrapping_neg() % small {
                return wide >> 32;
            }
        }
    }
    loop {
        let wide = (rng.next_u64() as u128) * (n as u128);
        let low = wide as u64;
        if low >= n || low >= n.wrapping_neg() % n {
            return (wide >> 64) as u64;
        }
    }
}

/// A small seeded generator (SplitMix64) for tests, benches and fuzzing.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// Fills `out` with random bytes.
    pub fn fill(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(8) {
            let word = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
    }
}

impl CodecRng for SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_hits_every_value() {
        let mut rng = SplitMix64::new(7);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            let v = below(&mut rng, 7);
            assert!(v < 7);
            seen[v as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
        let big = 3u64 << 40;
        let draws: Vec<u64> = (0..1000).map(|_| below(&mut rng, big)).collect();
        assert!(draws.iter().all(|&v| v < big));
        assert!(draws.iter().any(|&v| v > big / 2));
    }
}
