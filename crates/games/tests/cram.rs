//! Cram: the tuft reduction and the mirror strategy against plain mex. Moved from the
//! library's unit tests (through the public API).

use nimlab_engine::board::{Board, Cells};
use nimlab_engine::capability::MirrorStrategy;
use nimlab_engine::{Game, Solver};
use nimlab_games::cram::Cram;
use std::collections::HashMap;

/// G of a set of free squares by plain mex over every domino, nothing simplified.
fn plain(cram: &Cram, free: Cells, memo: &mut HashMap<Cells, u32>) -> u32 {
    if let Some(&g) = memo.get(&free) {
        return g;
    }
    // The options straight from the rules: every domino on two free squares.
    let mut options: Vec<Cells> = Vec::new();
    cram.for_each_option(&cram.position(free), &mut |o| options.push(cram.free(o)));
    let values: Vec<u32> = options.into_iter().map(|o| plain(cram, o, memo)).collect();
    let g = (0..).find(|v| !values.contains(v)).unwrap();
    memo.insert(free, g);
    g
}

#[test]
fn tufts_and_mirrors_keep_the_plain_values() {
    // Every position of the 3×4 and 2×6 boards and many of the 4×4: the solver
    // (with the tuft reduction in its canonical form) and the mirror strategy
    // agree with plain mex.
    for (rows, cols, step) in [(3usize, 4usize, 1u128), (2, 6, 1), (4, 4, 7)] {
        let cram = Cram::new(rows, cols).unwrap();
        let board = Board::new(rows, cols).unwrap();
        let mut memo = HashMap::new();
        let mut solver = Solver::new(&cram);
        let mut x: Cells = 0;
        while x <= board.all() {
            let pos = cram.position(x);
            let want = plain(&cram, x, &mut memo);
            assert_eq!(solver.grundy(&pos).unwrap(), want, "{rows}×{cols} {x:b}");
            if cram.mirrored_p(&pos) {
                assert_eq!(want, 0, "mirror {rows}×{cols} {x:b}");
            }
            x += step;
        }
    }
    // A plus: four tufts of the centre, one stays (a domino, worth 1 as the plus).
    let cram = Cram::new(3, 3).unwrap();
    let board = Board::new(3, 3).unwrap();
    let plus = board.read("#.#/.../#.#", '.', &['#']).unwrap();
    assert_eq!(cram.without_extra_tufts(plus).count_ones(), 2);
    // Two tufts on each end of the middle row: one goes at each end.
    let h = board.read(".#./.../.#.", '.', &['#']).unwrap();
    assert_eq!(cram.without_extra_tufts(h).count_ones(), 5);
}
