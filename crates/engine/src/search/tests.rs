use super::*;
use crate::capability::Capabilities;
use crate::memory::MemoryLimit;
use crate::test_games::mex_value;
use std::collections::HashMap;

/// Node Kayles on a bit set of a small graph given by neighbour masks, with the
/// connected components as regions (no symmetry): apart from the games crate.
struct Graph {
    neighbours: Vec<u64>,
}

impl Graph {
    fn component(&self, set: u64) -> u64 {
        let mut part = set & set.wrapping_neg();
        loop {
            let mut grown = part;
            for v in 0..64 {
                if part >> v & 1 == 1 {
                    grown |= self.neighbours[v] & set;
                }
            }
            if grown == part {
                return part;
            }
            part = grown;
        }
    }
}

impl Game for Graph {
    fn spec(&self) -> String {
        format!("graph{:?}", self.neighbours)
    }
    fn dimension(&self) -> usize {
        1
    }
    fn rank(&self, p: &[Coord]) -> u128 {
        p[0].count_ones() as u128
    }
    fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        for v in 0..self.neighbours.len() {
            if p[0] >> v & 1 == 1 {
                visit(&[p[0] & !(1 << v) & !self.neighbours[v]]);
            }
        }
    }
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            decomposition: Some(Decomposition::Regions(self)),
            ..Capabilities::none()
        }
    }
}

impl Regions for Graph {
    fn regions(&self, pos: &[Coord], parts: &mut Vec<crate::game::Position>) {
        let mut rest = pos[0];
        let mut out = Vec::new();
        while rest != 0 {
            let c = self.component(rest);
            out.push(vec![c]);
            rest &= !c;
        }
        if out.len() > 1 {
            parts.extend(out);
        }
    }
}

/// A graph on `n` vertices with edges drawn by a fixed generator.
fn random_graph(n: usize, seed: u64, per_mille: u64) -> Graph {
    let mut x = seed | 1;
    let mut neighbours = vec![0u64; n];
    for u in 0..n {
        for v in u + 1..n {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if x % 1000 < per_mille {
                neighbours[u] |= 1 << v;
                neighbours[v] |= 1 << u;
            }
        }
    }
    Graph { neighbours }
}

fn grid(rows: usize, cols: usize) -> Graph {
    let mut neighbours = vec![0u64; rows * cols];
    for r in 0..rows {
        for c in 0..cols {
            let i = r * cols + c;
            if c + 1 < cols {
                neighbours[i] |= 1 << (i + 1);
                neighbours[i + 1] |= 1 << i;
            }
            if r + 1 < rows {
                neighbours[i] |= 1 << (i + cols);
                neighbours[i + cols] |= 1 << i;
            }
        }
    }
    Graph { neighbours }
}

fn all(g: &Graph) -> Vec<Coord> {
    vec![(1u64 << g.neighbours.len()) - 1]
}

#[test]
fn the_search_agrees_with_mex_on_graphs_with_and_without_the_end_database() {
    for seed in 1..40u64 {
        let g = random_graph(6 + (seed % 9) as usize, seed, 150 + 20 * (seed % 10));
        let mut memo = HashMap::new();
        for end in [0, 3, DEFAULT_END_RANK] {
            let mut s = Search::new(&g, &TableOptions::default()).with_end_rank(end);
            // The whole graph and a few subsets of it.
            for mask in [u64::MAX, 0x5555, 0x3c3c, 0x7e1] {
                let p = [all(&g)[0] & mask];
                let want = mex_value(&g, &p, &mut memo);
                assert_eq!(s.grundy(&p).unwrap(), want, "seed {seed} end {end} {p:?}");
                assert_eq!(s.is_p(&p).unwrap(), want == 0);
            }
        }
    }
}

#[test]
fn grids_agree_with_the_full_solver() {
    for (r, c) in [(2, 5), (3, 4), (3, 5), (4, 4)] {
        let g = grid(r, c);
        let want = crate::Solver::new(&g).grundy(&all(&g)).unwrap();
        let got = Search::new(&g, &TableOptions::default())
            .grundy(&all(&g))
            .unwrap();
        assert_eq!(got, want, "{r}x{c}");
    }
}

/// One heap; take any number: G(n) = n, nimbers past the 64 the table's bits hold.
struct Heap;

impl Game for Heap {
    fn spec(&self) -> String {
        "heap".into()
    }
    fn dimension(&self) -> usize {
        1
    }
    fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        for u in 0..p[0] {
            visit(&[u]);
        }
    }
}

#[test]
fn nimbers_above_64_are_found() {
    let mut s = Search::new(&Heap, &TableOptions::default()).with_end_rank(0);
    assert_eq!(s.grundy(&[70]).unwrap(), 70);
    assert!(!s.is_p(&[69]).unwrap());
    assert!(s.is_p(&[0]).unwrap());
}

#[test]
fn a_tiny_table_forgets_and_the_answers_stay_right() {
    let g = grid(3, 5);
    let want = crate::Solver::new(&g).grundy(&all(&g)).unwrap();
    let opts = TableOptions {
        memory_limit: MemoryLimit::new(1 << 10),
        ..TableOptions::default()
    };
    let mut s = Search::new(&g, &opts).with_end_rank(2);
    assert_eq!(s.grundy(&all(&g)).unwrap(), want);
    assert!(s.stats().replaced > 0);
}

#[test]
fn a_move_that_does_not_lower_the_rank_is_reported() {
    struct Stuck;
    impl Game for Stuck {
        fn spec(&self) -> String {
            "stuck".into()
        }
        fn dimension(&self) -> usize {
            1
        }
        fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
            visit(p);
        }
    }
    let err = Search::new(&Stuck, &TableOptions::default())
        .with_end_rank(0)
        .grundy(&[40])
        .unwrap_err();
    assert!(matches!(err, Error::Contract(_)));
}

#[test]
fn a_resumed_search_reaches_the_same_value() {
    let g = grid(4, 4);
    let file = std::env::temp_dir().join(format!("nimlab-search-{}.ckpt", std::process::id()));
    let mut first = Search::new(&g, &TableOptions::default())
        .with_end_rank(4)
        .with_checkpoint(&file, std::time::Duration::ZERO);
    let want = first.grundy(&all(&g)).unwrap();
    let mut again = Search::new(&g, &TableOptions::default()).with_end_rank(4);
    again.resume(&file).unwrap();
    // Every entry written is read back (the table has room for them all).
    assert_eq!(again.stats().entries, first.stats().entries);
    assert_eq!(again.grundy(&all(&g)).unwrap(), want);
    assert_eq!(again.stats().nodes, 0);
    let mut other = Search::new(&Heap, &TableOptions::default());
    assert!(matches!(other.resume(&file), Err(Error::Input(_))));
    std::fs::remove_file(&file).unwrap();
}

/// The same graphs through the one-word fast path ([`OneWord`]): options and parts in
/// one call each.
struct Fast(Graph);

impl Game for Fast {
    fn spec(&self) -> String {
        self.0.spec()
    }
    fn dimension(&self) -> usize {
        1
    }
    fn rank(&self, p: &[Coord]) -> u128 {
        self.0.rank(p)
    }
    fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        self.0.for_each_option(p, visit)
    }
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            decomposition: Some(Decomposition::Regions(&self.0)),
            one_word: Some(self),
            ..Capabilities::none()
        }
    }
}

impl OneWord for Fast {
    fn options(&self, pos: Coord, out: &mut Vec<Coord>) {
        self.0.for_each_option(&[pos], &mut |o| out.push(o[0]));
    }
    fn parts(&self, _pos: Coord, option: Coord, out: &mut Vec<(Coord, u32)>) {
        let mut rest = option;
        while rest != 0 {
            let c = self.0.component(rest);
            out.push((c, c.count_ones()));
            rest &= !c;
        }
    }
}

#[test]
fn the_one_word_fast_path_searches_the_same_tree() {
    // The same values as plain mex, and the same nodes as the generic path (the same
    // options and parts in the same order).
    for seed in 1..30u64 {
        let n = 8 + (seed % 9) as usize;
        let fast = Fast(random_graph(n, seed, 150 + 20 * (seed % 10)));
        let slow = random_graph(n, seed, 150 + 20 * (seed % 10));
        let mut memo = HashMap::new();
        for end in [0, 3, DEFAULT_END_RANK] {
            let mut f = Search::new(&fast, &TableOptions::default()).with_end_rank(end);
            let mut s = Search::new(&slow, &TableOptions::default()).with_end_rank(end);
            for mask in [u64::MAX, 0x5555, 0x3c3c, 0x7e1] {
                let p = [all(&slow)[0] & mask];
                let want = mex_value(&slow, &p, &mut memo);
                assert_eq!(f.grundy(&p).unwrap(), want, "seed {seed} end {end} {p:?}");
                assert_eq!(s.grundy(&p).unwrap(), want);
                assert_eq!(f.is_p(&p).unwrap(), want == 0);
                assert_eq!(s.is_p(&p).unwrap(), want == 0);
                assert_eq!(f.stats().nodes, s.stats().nodes, "seed {seed} end {end}");
            }
        }
    }
}

#[test]
fn a_fast_path_part_that_does_not_lower_the_rank_is_reported() {
    struct Stuck;
    impl Game for Stuck {
        fn spec(&self) -> String {
            "stuck".into()
        }
        fn dimension(&self) -> usize {
            1
        }
        fn rank(&self, p: &[Coord]) -> u128 {
            p[0].count_ones() as u128
        }
        fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
            visit(&[p[0] >> 1]);
        }
        fn capabilities(&self) -> Capabilities<'_> {
            Capabilities {
                decomposition: Some(Decomposition::Regions(self)),
                one_word: Some(self),
                ..Capabilities::none()
            }
        }
    }
    impl Regions for Stuck {
        fn regions(&self, _pos: &[Coord], _parts: &mut Vec<crate::game::Position>) {}
    }
    impl OneWord for Stuck {
        fn options(&self, pos: Coord, out: &mut Vec<Coord>) {
            out.push(pos >> 1);
        }
        fn parts(&self, pos: Coord, _option: Coord, out: &mut Vec<(Coord, u32)>) {
            // Wrongly: the position itself.
            out.push((pos, pos.count_ones()));
        }
    }
    let err = Search::new(&Stuck, &TableOptions::default())
        .with_end_rank(0)
        .grundy(&[0b1111])
        .unwrap_err();
    assert!(matches!(err, Error::Contract(_)));
}

#[test]
fn searches_sharing_a_table_on_several_threads_find_the_values_of_one() {
    // Random graphs (both listing paths) and grids, on 2–4 threads, with a roomy table
    // (it grows while the threads run: they park for it) and tiny ones (the threads
    // race for its slots and overwrite each other's entries): every value is mex's.
    for seed in 1..25u64 {
        let n = 12 + (seed % 10) as usize;
        let per_mille = 100 + 20 * (seed % 10);
        let fast = Fast(random_graph(n, seed, per_mille));
        let slow = random_graph(n, seed, per_mille);
        let mut memo = HashMap::new();
        for (threads, bytes, end) in [
            (2, None, DEFAULT_END_RANK),
            (3, Some(1 << 12), 0),
            (4, Some(1 << 16), 3),
        ] {
            let opts = TableOptions {
                memory_limit: bytes.map_or_else(MemoryLimit::default, MemoryLimit::new),
                ..TableOptions::default()
            };
            let mut f = Search::new(&fast, &opts)
                .with_end_rank(end)
                .with_threads(threads);
            let mut s = Search::new(&slow, &opts)
                .with_end_rank(end)
                .with_threads(threads);
            for mask in [u64::MAX, 0x5555_5555, 0x3c3c_3c3c, 0x7e1_7e1] {
                let p = [all(&slow)[0] & mask];
                let want = mex_value(&slow, &p, &mut memo);
                let at = format!("seed {seed}, {threads} threads, {bytes:?} bytes, {p:?}");
                assert_eq!(f.grundy(&p).unwrap(), want, "{at}");
                assert_eq!(s.grundy(&p).unwrap(), want, "{at}");
                // The table the threads left answers one search alone as well.
                assert_eq!(f.is_p(&p).unwrap(), want == 0, "{at}");
            }
        }
    }
    for (r, c) in [(3, 5), (4, 4), (4, 5)] {
        let g = grid(r, c);
        let want = crate::Solver::new(&g).grundy(&all(&g)).unwrap();
        for threads in [2, 3] {
            let got = Search::new(&g, &TableOptions::default())
                .with_threads(threads)
                .grundy(&all(&g))
                .unwrap();
            assert_eq!(got, want, "{r}x{c} on {threads} threads");
        }
    }
    // A longer search, where the threads run side by side for a while: the 5 × 6 grid
    // (no symmetry here), against one thread, with a table too small for it.
    let g = Fast(grid(5, 6));
    let mut alone = Search::new(&g, &TableOptions::default());
    let want = alone.grundy(&all(&g.0)).unwrap();
    for (threads, bytes) in [(2, 1 << 14), (4, 1 << 20), (2, 1 << 30)] {
        let opts = TableOptions {
            memory_limit: MemoryLimit::new(bytes),
            ..TableOptions::default()
        };
        let mut s = Search::new(&g, &opts).with_threads(threads);
        assert_eq!(s.grundy(&all(&g.0)).unwrap(), want, "{threads} threads");
        if bytes == 1 << 30 {
            // With room, the shared table grew to hold what the threads learnt (a
            // table stuck small would forget, and the search would redo its work).
            assert!(
                s.stats().entries * 2 >= alone.stats().entries,
                "{:?} against {:?}",
                s.stats(),
                alone.stats()
            );
        }
    }
}

#[test]
fn a_stopped_search_on_several_threads_stops_every_thread() {
    /// Stops the search at its first progress report.
    struct StopAtOnce;
    impl crate::progress::Progress for StopAtOnce {
        fn start(&self, _total: u64, _what: &str) {}
        fn advance(&self, _delta: u64) {}
        fn cancelled(&self) -> bool {
            true
        }
    }
    // Node Kayles on the 6 × 8 grid: far more nodes than the first report's.
    let g = grid(6, 8);
    let opts = TableOptions {
        progress: &StopAtOnce,
        ..TableOptions::default()
    };
    let err = Search::new(&g, &opts)
        .with_threads(2)
        .grundy(&all(&g))
        .unwrap_err();
    assert!(matches!(err, Error::Cancelled));
}

#[test]
fn a_checkpoint_of_searches_sharing_a_table_is_resumed() {
    // The threads' table written at the end is read back whole (its count of entries
    // is only about right while shared, so the file counts what it holds).
    let g = Fast(grid(4, 5));
    let file = std::env::temp_dir().join(format!("nimlab-shared-{}.ckpt", std::process::id()));
    let mut first = Search::new(&g, &TableOptions::default())
        .with_end_rank(4)
        .with_threads(2)
        .with_checkpoint(&file, std::time::Duration::ZERO);
    let want = first.grundy(&all(&g.0)).unwrap();
    let mut again = Search::new(&g, &TableOptions::default()).with_end_rank(4);
    again.resume(&file).unwrap();
    assert_eq!(again.grundy(&all(&g.0)).unwrap(), want);
    assert_eq!(again.stats().nodes, 0);
    std::fs::remove_file(&file).unwrap();
}
