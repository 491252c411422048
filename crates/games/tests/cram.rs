//! Cram: the tuft reduction and the mirror strategy against plain mex. Moved from the
//! library's unit tests (through the public API).

use nimlab_engine::board::{Board, Cells};
use nimlab_engine::capability::{Decomposition, MirrorStrategy};
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
    for (rows, cols, step, portable) in [
        (3usize, 4usize, 1u128, false),
        (2, 6, 1, false),
        (4, 4, 7, false),
        (4, 4, 5, true),
    ] {
        let cram = Cram::new(rows, cols).unwrap();
        let cram = if portable { cram.portable() } else { cram };
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

/// The parts of a set of free squares from the definitions, square by square: the
/// live squares (those with a free neighbour); of the tufts of each square s (live
/// squares whose only live neighbour is s) the first in the order east, west, south,
/// north of s kept; the regions by a plain flood fill; each region moved to the least
/// of its images under the 8 symmetries (those that fit the board), translated to the
/// top left corner.
fn plain_parts(rows: usize, cols: usize, free: u64) -> Vec<(u64, u32)> {
    let at = |r: i64, c: i64, set: u64| {
        (0..rows as i64).contains(&r)
            && (0..cols as i64).contains(&c)
            && set >> (r * cols as i64 + c) & 1 == 1
    };
    let steps = [(0i64, 1i64), (0, -1), (1, 0), (-1, 0)];
    let neighbours = |i: usize, set: u64| -> Vec<usize> {
        let (r, c) = ((i / cols) as i64, (i % cols) as i64);
        steps
            .iter()
            .filter(|(dr, dc)| at(r + dr, c + dc, set))
            .map(|(dr, dc)| ((r + dr) * cols as i64 + c + dc) as usize)
            .collect()
    };
    let cells = |set: u64| (0..64).filter(move |i| set >> i & 1 == 1);
    let live = cells(free)
        .filter(|&i| !neighbours(i, free).is_empty())
        .fold(0u64, |a, i| a | 1 << i);
    let mut dropped = 0u64;
    for s in cells(live) {
        let tufts: Vec<usize> = neighbours(s, live)
            .into_iter()
            .filter(|&t| neighbours(t, live) == [s])
            .collect();
        // `neighbours` lists east, west, south, north: the first tuft stays.
        for &t in tufts.iter().skip(1) {
            dropped |= 1 << t;
        }
    }
    let mut rest = live & !dropped;
    let mut out = Vec::new();
    while rest != 0 {
        let mut region = 1u64 << rest.trailing_zeros();
        let mut stack = vec![rest.trailing_zeros() as usize];
        while let Some(i) = stack.pop() {
            for j in neighbours(i, rest) {
                if region >> j & 1 == 0 {
                    region |= 1 << j;
                    stack.push(j);
                }
            }
        }
        rest &= !region;
        let points: Vec<(i64, i64)> = cells(region)
            .map(|i| ((i / cols) as i64, (i % cols) as i64))
            .collect();
        let mut best = u64::MAX;
        for map in 0..8 {
            let image: Vec<(i64, i64)> = points
                .iter()
                .map(|&(r, c)| {
                    let (r, c) = if map & 4 != 0 { (c, r) } else { (r, c) };
                    (
                        if map & 1 != 0 { -r } else { r },
                        if map & 2 != 0 { -c } else { c },
                    )
                })
                .collect();
            let r0 = image.iter().map(|p| p.0).min().unwrap();
            let c0 = image.iter().map(|p| p.1).min().unwrap();
            let r1 = image.iter().map(|p| p.0).max().unwrap();
            let c1 = image.iter().map(|p| p.1).max().unwrap();
            if r1 - r0 >= rows as i64 || c1 - c0 >= cols as i64 {
                continue;
            }
            let set = image.iter().fold(0u64, |a, &(r, c)| {
                a | 1 << ((r - r0) * cols as i64 + c - c0)
            });
            best = best.min(set);
        }
        out.push((best, region.count_ones()));
    }
    out
}

#[test]
fn the_one_word_fast_path_is_the_definition() {
    // Every position of small boards (square, wide, tall, and wider than 16
    // columns), random ones of bigger boards: the options and parts of the fast path
    // (`OneWord`) are those the generic methods list and those of the definitions.
    let mut x = 0x2545_f491_4f6c_dd1d_u64;
    let mut random = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let boards = [
        (3, 4, 1u64 << 12),
        (4, 3, 1 << 12),
        (2, 6, 1 << 12),
        (4, 4, 1 << 16),
        (1, 17, 2000),
        (5, 8, 400),
        (8, 8, 300),
        (6, 7, 400),
        (2, 20, 400),
    ];
    // Both copies of the hot code: the one for the processor's bit instructions
    // (when it has them) and the portable one.
    for (rows, cols, count, portable) in boards
        .into_iter()
        .flat_map(|(r, c, n)| [(r, c, n, false), (r, c, n, true)])
    {
        let cram = Cram::new(rows, cols).unwrap();
        let cram = if portable { cram.portable() } else { cram };
        let caps = cram.capabilities();
        let one = caps.one_word.expect("a board of at most 64 squares");
        let Some(Decomposition::Regions(regions)) = caps.decomposition else {
            panic!("cram falls apart into regions")
        };
        let all = Board::new(rows, cols).unwrap().all() as u64;
        let everything = count == 1 << (rows * cols);
        for k in 0..count {
            // Random positions of every density.
            let pos = if everything {
                k
            } else {
                match k % 3 {
                    0 => random(),
                    1 => random() | random(),
                    _ => !(random() & random() & random()),
                }
            } & all;
            let mut fast = Vec::new();
            one.options(pos, &mut fast);
            let mut slow = Vec::new();
            cram.for_each_option(&[pos], &mut |o| slow.push(o[0]));
            assert_eq!(fast, slow, "{rows}×{cols} {pos:b}");
            // The parts are asked for the options of a part.
            let mut parts_of_pos = Vec::new();
            regions.simplified_parts(&[pos], &mut |p| parts_of_pos.push(p[0]));
            for part in parts_of_pos {
                let mut options = Vec::new();
                one.options(part, &mut options);
                for &o in &options {
                    let mut parts = Vec::new();
                    one.parts(part, o, &mut parts);
                    let mut generic = Vec::new();
                    assert!(regions.simplified_parts(&[o], &mut |p| {
                        generic.push((p[0], cram.rank(p) as u32))
                    }));
                    generic.retain(|p| p.1 > 0);
                    assert_eq!(parts, generic, "{rows}×{cols} {part:b} {o:b}");
                    assert_eq!(parts, plain_parts(rows, cols, o), "{rows}×{cols} {o:b}");
                }
            }
        }
    }
    assert!(Cram::new(9, 8).unwrap().capabilities().one_word.is_none());
}

#[test]
fn the_mirror_check_is_its_definition() {
    // Random positions (and symmetric ones) of boards of at most 64 squares, where
    // the check runs in one word, and of bigger ones: `mirrored_p` holds exactly when
    // the live squares are their own image under the half turn about the centre of
    // their bounding box and no domino of live squares covers that centre.
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    let mut random = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut held = 0;
    for (rows, cols) in [(5, 8), (6, 7), (8, 8), (4, 4), (3, 5), (9, 9)] {
        let board = Board::new(rows, cols).unwrap();
        for portable in [false, true] {
            let cram = Cram::new(rows, cols).unwrap();
            let cram = if portable { cram.portable() } else { cram };
            for k in 0..3000 {
                let r: Cells = (random() as Cells) << 64 | random() as Cells;
                let mut free = match k % 3 {
                    0 => r,
                    1 => r | (random() as Cells) << 64 | random() as Cells,
                    _ => !(r & ((random() as Cells) << 64 | random() as Cells)),
                } & board.all();
                if k % 2 == 0 {
                    // Made symmetric under the half turn of the board.
                    let n = rows * cols;
                    free |= (0..n)
                        .filter(|&i| free >> i & 1 == 1)
                        .fold(0, |m, i| m | 1 << (n - 1 - i));
                }
                let live: Vec<(usize, usize)> = (0..rows * cols)
                    .filter(|&i| free >> i & 1 == 1)
                    .filter(|&i| board.neighbours()[i] & free != 0)
                    .map(|i| (i / cols, i % cols))
                    .collect();
                let want = live.is_empty() || {
                    let r0 = live.iter().map(|p| p.0).min().unwrap();
                    let r1 = live.iter().map(|p| p.0).max().unwrap();
                    let c0 = live.iter().map(|p| p.1).min().unwrap();
                    let c1 = live.iter().map(|p| p.1).max().unwrap();
                    let (sr, sc) = (r0 + r1, c0 + c1);
                    let has = |r: usize, c: usize| live.contains(&(r, c));
                    let symmetric = live.iter().all(|&(r, c)| has(sr - r, sc - c));
                    // A domino whose image overlaps it lies on the centre.
                    let centre = match (sr % 2, sc % 2) {
                        (0, 0) => has(sr / 2, sc / 2),
                        (0, _) => has(sr / 2, sc / 2) && has(sr / 2, sc / 2 + 1),
                        (_, 0) => has(sr / 2, sc / 2) && has(sr / 2 + 1, sc / 2),
                        _ => false,
                    };
                    symmetric && !centre
                };
                let pos = cram.position(free);
                assert_eq!(cram.mirrored_p(&pos), want, "{rows}×{cols} {free:b}");
                held += usize::from(want);
            }
        }
    }
    // Both verdicts were seen, many times.
    assert!(held > 1000, "{held}");
}
