//! Misère take-and-break games by the solver's multiset kernel, each next to baselines
//! run in the same process: the generic solver over sorted multisets (the method
//! before the kernel) and, where it fits, the same search with positions kept in the
//! order the moves produce them (before positions had canonical forms). Run with
//! `cargo bench -p nimlab-bench --bench misere_takebreak`.
//!
//! Goals: misère Kayles up to a heap of 60, and `misere(octal(code=4.07))` on four
//! heaps ≤ 16, in seconds.

use nimlab_engine::transform::Misere;
use nimlab_engine::{Coord, Game, Solver};
use nimlab_games::parse_game;
use std::time::{Duration, Instant};

/// The game seen by the generic solver (no heap-multiset capability): over sorted
/// multisets when `sorted`, else with positions as the moves produce them.
struct Generic {
    inner: Box<dyn Game>,
    sorted: bool,
}

impl Generic {
    fn octal(code: &str, sorted: bool) -> Self {
        Generic {
            inner: parse_game(&format!("octal(code={code})")).unwrap(),
            sorted,
        }
    }
}

impl Game for Generic {
    fn spec(&self) -> String {
        format!("{} (generic solver)", self.inner.spec())
    }
    fn dimension(&self) -> usize {
        self.inner.dimension()
    }
    fn form(&self) -> nimlab_engine::position::PositionForm {
        self.inner.form()
    }
    fn rank(&self, pos: &[Coord]) -> u128 {
        self.inner.rank(pos)
    }
    fn for_each_option(&self, pos: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        self.inner.for_each_option(pos, visit)
    }
    fn simplified(&self, pos: &[Coord]) -> Option<nimlab_engine::Position> {
        if self.sorted {
            self.inner.simplified(pos)
        } else {
            None
        }
    }
}

fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let t = Instant::now();
    let v = f();
    (v, t.elapsed())
}

/// Which baselines run beside the kernel.
#[derive(Clone, Copy, PartialEq)]
enum Baseline {
    None,
    /// The generic solver over sorted multisets.
    Generic,
    /// That, and the search over positions as produced.
    Both,
}

fn run(code: &str, pos: &[Coord], baseline: Baseline) {
    let game = Misere::new(parse_game(&format!("octal(code={code})")).unwrap());
    let mut solver = Solver::new(&game);
    let (g, t) = timed(|| solver.grundy(pos).unwrap());
    let text: Vec<String> = pos.iter().map(|c| c.to_string()).collect();
    print!(
        "misere(octal(code={code})) at {}: G⁻ = {g}, {} positions, {:.3} s",
        text.join(","),
        solver.memo_len(),
        t.as_secs_f64()
    );
    if baseline != Baseline::None {
        let generic = Misere::new(Box::new(Generic::octal(code, true)));
        let mut s = Solver::new(&generic);
        let (g0, t0) = timed(|| s.grundy(pos).unwrap());
        assert_eq!(g0, g, "generic solver disagrees");
        print!(
            "   [generic solver, sorted multisets: {:.3} s, ratio {:.1}x]",
            t0.as_secs_f64(),
            t0.as_secs_f64() / t.as_secs_f64()
        );
    }
    if baseline == Baseline::Both {
        let plain = Misere::new(Box::new(Generic::octal(code, false)));
        let mut s = Solver::new(&plain);
        let (g0, t0) = timed(|| s.grundy(pos).unwrap());
        assert_eq!(g0, g, "baseline disagrees");
        print!(
            "   [positions as produced: {} positions, {:.3} s, ratio {:.0}x]",
            s.memo_len(),
            t0.as_secs_f64(),
            t0.as_secs_f64() / t.as_secs_f64()
        );
    }
    println!();
}

fn main() {
    // Misère Kayles (0.77): the baseline only where it finishes in seconds.
    run("0.77", &[20], Baseline::Both);
    run("0.77", &[26], Baseline::Both);
    run("0.77", &[34], Baseline::Generic);
    run("0.77", &[45], Baseline::Generic);
    run("0.77", &[60], Baseline::None);
    // 4.07 splits a heap without taking: many more positions per bean.
    // (The unsorted search on 8,5,9,9 passes 24 million positions and 12 GB.)
    run("4.07", &[5, 4, 4, 3], Baseline::Both);
    run("4.07", &[8, 5, 9, 9], Baseline::None);
    run("4.07", &[12, 11, 10, 9], Baseline::Generic);
    run("4.07", &[14, 13, 12, 11], Baseline::Generic);
    run("4.07", &[16, 16, 16, 16], Baseline::None);
}
