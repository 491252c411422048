//! Formula discovery on a 2-D table of side 64 (issue 16: ≤ 10 s on 2 cores).
//!
//! `cargo bench -p nimlab-bench --bench guess` (optionally `-- SIDE`). Two tables:
//! Theorem 3.1 of the Ryuoh paper for p = 3 (found) and Wythoff's Grundy values (nothing
//! fits: the whole space is screened and the nearest candidates are compared).

use nimlab_engine::{GrundyTable, NoProgress};
use nimlab_formula::check::Claim;
use nimlab_formula::guess::guess;
use std::time::Instant;

fn wythoff(side: usize) -> Vec<u32> {
    // Plain mex over the three move directions, first coordinate fastest.
    let mut g = vec![0u32; side * side];
    for y in 0..side {
        for x in 0..side {
            let mut seen = vec![false; 2 * side + 2];
            for u in 0..x {
                seen[g[y * side + u] as usize] = true;
            }
            for v in 0..y {
                seen[g[v * side + x] as usize] = true;
            }
            for k in 1..=x.min(y) {
                seen[g[(y - k) * side + x - k] as usize] = true;
            }
            g[y * side + x] = seen.iter().position(|s| !s).unwrap() as u32;
        }
    }
    g
}

fn main() {
    let side: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(64);
    let names = ["x".to_string(), "y".to_string()];
    let ryuoh: Vec<u32> = (0..side * side)
        .map(|i| {
            let (x, y) = (i % side, i / side);
            ((x + y) % 3 + 3 * ((x / 3) ^ (y / 3))) as u32
        })
        .collect();
    for (what, values) in [("ryuoh(p=3)", ryuoh), ("wythoff", wythoff(side))] {
        let table = GrundyTable::from_parts(vec![side, side], values).unwrap();
        for claim in [Claim::Grundy, Claim::PPositions] {
            let t = Instant::now();
            let g = guess(&table, &names, Some(&table), claim, &NoProgress).unwrap();
            println!(
                "{what} {side}x{side} {claim:?}: {:.3} s, {} candidates, found {:?}",
                t.elapsed().as_secs_f64(),
                g.searched,
                g.found.first().map(|f| f.formula.as_str())
            );
        }
    }
}
