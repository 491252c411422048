//! What the suite's brute forces share: the mex, written once from the definition and
//! apart from every engine method it checks, the points of a box, the options of a
//! subtraction game, and a reproducible random stream.

pub mod rng;
pub use rng::Rng;

/// The least value not among `values` (the minimum excludant).
pub fn mex(values: impl IntoIterator<Item = u32>) -> u32 {
    let seen: std::collections::HashSet<u32> = values.into_iter().collect();
    (0..).find(|g| !seen.contains(g)).expect("a mex exists")
}

/// Calls `f` on every point of the box [0, side)^dim, the first coordinate counting
/// fastest.
pub fn for_each_point(dim: usize, side: u64, mut f: impl FnMut(&[u64])) {
    let mut x = vec![0u64; dim];
    loop {
        f(&x);
        let mut i = 0;
        while i < dim {
            x[i] += 1;
            if x[i] < side {
                break;
            }
            x[i] = 0;
            i += 1;
        }
        if i == dim {
            return;
        }
    }
}

/// The values `g[n - t]` of the options of heap `n` in the subtraction game of set `s`,
/// where `g` holds at least the values below `n`.
pub fn subtraction_option_values(s: &[u64], g: &[u32], n: usize) -> Vec<u32> {
    s.iter()
        .filter(|&&t| t as usize <= n)
        .map(|&t| g[n - t as usize])
        .collect()
}
