//! Helpers shared by the test binaries that include this module.

/// `n` deterministic values in [-1, 1) from a linear congruential
/// sequence started at `seed`.
pub fn values(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect()
}
