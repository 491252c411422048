//! Fast table kernels for families of games whose structure the engine can exploit.
//! [`crate::grundy_table`] picks a kernel by itself when a game declares the structure;
//! the generic brute force ([`crate::table::generic_table`]) stays the oracle in tests.

pub mod line;
pub(crate) mod multiset;
