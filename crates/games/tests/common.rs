//! What the suite's brute forces share: the mex, written once from the definition and
//! apart from every engine method it checks.

/// The least value not among `values` (the minimum excludant).
pub fn mex(values: impl IntoIterator<Item = u32>) -> u32 {
    let seen: std::collections::HashSet<u32> = values.into_iter().collect();
    (0..).find(|g| !seen.contains(g)).expect("a mex exists")
}
