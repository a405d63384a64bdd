//! SplitMix64: a small, well-known generator, so that a seed names the same test inputs and
//! stimuli on every machine (the interpreter's inputs, the pipeline testbenches).

#[derive(Debug, Clone)]
pub(crate) struct SplitMix(pub u64);

impl SplitMix {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`, as two's-complement bits.
    pub fn between(&mut self, lo: i64, hi: i64) -> u64 {
        let span = (hi as i128 - lo as i128 + 1) as u128;
        let offset = (self.next() as u128 % span) as i128;
        (lo as i128 + offset) as i64 as u64
    }

    /// True with probability `numerator / denominator`.
    pub fn chance(&mut self, numerator: u64, denominator: u64) -> bool {
        self.next() % denominator < numerator
    }
}
