//! Every transform (misère, pass, sum, n players, and their compositions) over every kind of
//! family — fixed-coordinate games, take-and-break games whose heaps split or vanish
//! (octal, hexadecimal, Grundy's game) and rules files — on random small positions,
//! against a direct recursion written here.
//!
//! The model below knows nothing of the engine's layouts, canonical forms, memo keys
//! or planner: a state is a tree (a leaf's coordinates exactly as the leaf game's
//! rules produce them, a pass flag, the parts of a sum), and the value is the plain
//! mex recursion over it (for n players, the class recursion of the normal ranking,
//! written from its definition). Only the leaf games' own move rules are shared.

use crate::common::mex;
use nimlab_engine::nplayer::{NPlayerGame, Ranking};
use nimlab_engine::plan::{self, read_position, write_position};
use nimlab_engine::transform::{Misere, Pass, Sum};
use nimlab_engine::{Coord, Game, Solver, TableOptions};
use nimlab_games::parse_game;
use nimlab_games::rules::RulesGame;
use std::collections::HashMap;

/// A game built from leaves by the transforms.
enum Model {
    Leaf(String),
    Misere(Box<Model>),
    Pass(Box<Model>),
    Sum(Vec<Model>),
    /// Played by n players, normal ranking (the last mover ranks first); outermost.
    NPlayer(Box<Model>, usize),
}

/// A position of a [`Model`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum State {
    Leaf(Vec<Coord>),
    Pass(Box<State>, bool),
    Sum(Vec<State>),
}

const RULES: &str = r#"
name = "take-one-or-two-from-two-rows"
dimension = 2
moves = "c0 >= 0 && c1 >= 0 && c0 + c1 >= 1 && c0 + c1 <= 2"
"#;

fn leaf_game(name: &str) -> Box<dyn Game> {
    match name {
        "rules" => Box::new(RulesGame::from_toml(RULES, "inline").unwrap()),
        spec => parse_game(spec).unwrap(),
    }
}

/// The library's game for a model, built with the engine's transforms.
fn build(m: &Model) -> Box<dyn Game> {
    match m {
        Model::Leaf(name) => leaf_game(name),
        Model::Misere(inner) => Box::new(Misere::new(build(inner))),
        Model::Pass(inner) => Box::new(Pass::new(build(inner))),
        Model::Sum(parts) => Box::new(Sum::new(parts.iter().map(build).collect()).unwrap()),
        Model::NPlayer(inner, n) => {
            Box::new(NPlayerGame::new(build(inner), Ranking::normal(*n).unwrap()))
        }
    }
}

fn options(m: &Model, leaves: &HashMap<String, Box<dyn Game>>, s: &State) -> Vec<State> {
    match (m, s) {
        (Model::Leaf(name), State::Leaf(p)) => {
            let game = &leaves[name];
            game.options(p)
                .into_iter()
                .map(|mut o| {
                    if !game.form().kept {
                        // Heaps are a multiset: sort them, drop empty ones (written
                        // here, independently of the engine's canonical forms).
                        o.retain(|&h| h != 0);
                        o.sort_unstable();
                        if o.is_empty() {
                            o.push(0);
                        }
                    }
                    State::Leaf(o)
                })
                .collect()
        }
        (Model::Misere(inner) | Model::NPlayer(inner, _), s) => options(inner, leaves, s),
        (Model::Pass(inner), State::Pass(p, flag)) => {
            let mut out: Vec<State> = options(inner, leaves, p)
                .into_iter()
                .map(|o| State::Pass(Box::new(o), *flag))
                .collect();
            // The pass: once, and never from a position without moves.
            if *flag && !out.is_empty() {
                out.push(State::Pass(p.clone(), false));
            }
            out
        }
        (Model::Sum(parts), State::Sum(ps)) => {
            let mut out = Vec::new();
            for (i, (g, p)) in parts.iter().zip(ps).enumerate() {
                for o in options(g, leaves, p) {
                    let mut next = ps.clone();
                    next[i] = o;
                    out.push(State::Sum(next));
                }
            }
            out
        }
        _ => unreachable!("state does not fit its model"),
    }
}

fn is_misere(m: &Model) -> bool {
    matches!(m, Model::Misere(_))
}

/// The plain recursion: mex of the options' values; a terminal position is worth 0,
/// or 1 in misère play.
fn value(
    m: &Model,
    leaves: &HashMap<String, Box<dyn Game>>,
    s: &State,
    memo: &mut HashMap<State, u32>,
) -> u32 {
    if let Some(&v) = memo.get(s) {
        return v;
    }
    let opts = options(m, leaves, s);
    if let Model::NPlayer(_, n) = m {
        // The class: moves still to be played under best play, mod n. The player to
        // move who goes to an option of class c makes move 1 of c + 1 more, so the
        // last move is its own iff c ≡ 0: under the normal ranking it ranks c + 1, and
        // it takes the least c it can.
        let v = match opts.iter().map(|o| value(m, leaves, o, memo)).min() {
            None => 0,
            Some(c) => (c + 1) % *n as u32,
        };
        memo.insert(s.clone(), v);
        return v;
    }
    let v = if opts.is_empty() {
        u32::from(is_misere(m))
    } else {
        let vals: Vec<u32> = opts.iter().map(|o| value(m, leaves, o, memo)).collect();
        mex(vals)
    };
    memo.insert(s.clone(), v);
    v
}

/// How people write a state: coordinates with commas, a pass flag last, the parts of
/// a sum separated by `;`.
fn text(s: &State) -> String {
    match s {
        State::Leaf(p) => p
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(","),
        State::Pass(p, flag) => format!("{},{}", text(p), u8::from(*flag)),
        State::Sum(ps) => ps.iter().map(text).collect::<Vec<_>>().join(";"),
    }
}

struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        // xorshift64*: deterministic, no dependency.
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) % n
    }
}

/// A random small position of a leaf: its own number of coordinates, or 1–3 heaps for
/// games whose heaps split.
fn random_leaf(game: &dyn Game, rng: &mut Rng) -> Vec<Coord> {
    let (count, below) = if game.form().kept {
        (game.dimension(), 8)
    } else {
        (1 + rng.below(3) as usize, 7)
    };
    loop {
        let p: Vec<Coord> = (0..count).map(|_| rng.below(below)).collect();
        if game.check_position(&p).is_ok() {
            return p;
        }
    }
}

fn random_state(m: &Model, leaves: &HashMap<String, Box<dyn Game>>, rng: &mut Rng) -> State {
    match m {
        Model::Leaf(name) => State::Leaf(random_leaf(&*leaves[name], rng)),
        Model::Misere(inner) | Model::NPlayer(inner, _) => random_state(inner, leaves, rng),
        Model::Pass(inner) => State::Pass(
            Box::new(random_state(inner, leaves, rng)),
            rng.below(2) == 1,
        ),
        Model::Sum(parts) => {
            State::Sum(parts.iter().map(|p| random_state(p, leaves, rng)).collect())
        }
    }
}

const LEAVES: &[&str] = &[
    "nim(heaps=2)",
    "subtraction(s={1,3})",
    "wythoff",
    "ryuoh(p=3)",
    "octal(code=0.77)",
    "octal(code=4.07)",
    "octal(code=0.137)",
    "octal(code=0.f8,base=16)",
    "grundy-game",
    "rules",
];

fn leaf(i: usize) -> Model {
    Model::Leaf(LEAVES[i % LEAVES.len()].to_string())
}

/// Every shape of transform over leaves `a` and `b`.
fn shapes(a: usize, b: usize) -> Vec<Model> {
    vec![
        Model::Misere(Box::new(leaf(a))),
        Model::Pass(Box::new(leaf(a))),
        Model::Misere(Box::new(Model::Pass(Box::new(leaf(a))))),
        Model::Sum(vec![leaf(a), leaf(b)]),
        Model::Misere(Box::new(Model::Sum(vec![leaf(a), leaf(b)]))),
        Model::Pass(Box::new(Model::Sum(vec![leaf(a), leaf(b)]))),
        Model::Sum(vec![Model::Pass(Box::new(leaf(a))), leaf(b)]),
        Model::Misere(Box::new(Model::Pass(Box::new(Model::Sum(vec![
            leaf(a),
            leaf(b),
        ]))))),
        Model::NPlayer(Box::new(leaf(a)), 3),
        Model::NPlayer(Box::new(Model::Sum(vec![leaf(a), leaf(b)])), 3),
        Model::NPlayer(Box::new(Model::Pass(Box::new(leaf(a)))), 4),
        Model::NPlayer(Box::new(Model::Misere(Box::new(leaf(a)))), 2),
    ]
}

#[test]
fn every_transform_of_every_family_agrees_with_a_direct_recursion() {
    let leaves: HashMap<String, Box<dyn Game>> = LEAVES
        .iter()
        .map(|&n| (n.to_string(), leaf_game(n)))
        .collect();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let opts = TableOptions::default();
    let mut checked = 0;
    for a in 0..LEAVES.len() {
        // Each leaf with a second leaf chosen at random, and with itself.
        for b in [a, rng.below(LEAVES.len() as u64) as usize] {
            for m in shapes(a, b) {
                let game = build(&m);
                let mut memo = HashMap::new();
                for _ in 0..4 {
                    let s = random_state(&m, &leaves, &mut rng);
                    let t = text(&s);
                    let started = std::time::Instant::now();
                    let t0 = std::time::Instant::now();
                    let expect = value(&m, &leaves, &s, &mut memo);
                    let t_model = t0.elapsed();
                    let pos = read_position(&*game, &t)
                        .unwrap_or_else(|e| panic!("{} at {t}: {e}", game.spec()));
                    let back = write_position(&*game, &pos);
                    assert_eq!(
                        read_position(&*game, &back).unwrap(),
                        pos,
                        "{} at {t}",
                        game.spec()
                    );
                    let small: Vec<Coord> = pos.iter().map(|c| c.try_into().unwrap()).collect();
                    let solved = Solver::new(&*game).grundy(&small).unwrap();
                    assert_eq!(solved, expect, "solver: {} at {t}", game.spec());
                    // The planner (components, kernels, closed forms) agrees too, and
                    // its options are the model's, each listed once.
                    let r = plan::moves(&*game, &pos, &opts).unwrap();
                    let (g, listed): (u32, Option<Vec<(_, u32)>>) = match &r.nplayer {
                        Some(c) => (c.class, c.options.as_ref().map(|l| l.to_vec())),
                        None => (
                            r.grundy.as_ref().unwrap().try_into().unwrap(),
                            r.options.as_ref().map(|l| {
                                l.iter()
                                    .map(|o| {
                                        (
                                            o.position.clone(),
                                            o.grundy.as_ref().unwrap().try_into().unwrap(),
                                        )
                                    })
                                    .collect()
                            }),
                        ),
                    };
                    assert_eq!(g, expect, "planner: {} at {t}", game.spec());
                    if let Some(list) = &listed {
                        let mut listed: Vec<u32> = list.iter().map(|(_, v)| *v).collect();
                        let mut direct: Vec<u32> = options(&m, &leaves, &s)
                            .iter()
                            .map(|o| value(&m, &leaves, o, &mut memo))
                            .collect();
                        listed.sort_unstable();
                        listed.dedup();
                        direct.sort_unstable();
                        direct.dedup();
                        assert_eq!(listed, direct, "option values: {} at {t}", game.spec());
                        let texts: Vec<String> = list
                            .iter()
                            .map(|(o, _)| write_position(&*game, o))
                            .collect();
                        let mut unique = texts.clone();
                        unique.sort();
                        unique.dedup();
                        assert_eq!(
                            unique.len(),
                            texts.len(),
                            "an option listed twice: {texts:?}"
                        );
                    }
                    if std::env::var_os("NIMLAB_TRACE").is_some() {
                        eprintln!(
                            "{:?} (model {t_model:?}, memo {}) {} at {t}",
                            started.elapsed(),
                            memo.len(),
                            game.spec()
                        );
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 900, "{checked}");
}

#[test]
fn misere_take_and_break_positions_are_canonical_multisets() {
    // 4.07: a heap of one has no move, so it is left out of memo keys; heap order
    // never matters.
    let g = parse_game("misere(octal(code=4.07))").unwrap();
    let mut s = Solver::new(&*g);
    let a = s.grundy(&[8, 5, 9, 9]).unwrap();
    let after = s.memo_len();
    assert_eq!(s.grundy(&[9, 1, 5, 9, 8, 1]).unwrap(), a);
    assert_eq!(s.memo_len(), after, "a reordering was solved again");
    // The options of a multiset are listed once each, in canonical order.
    let r = plan::moves(
        &*g,
        &read_position(&*g, "2,2").unwrap(),
        &TableOptions::default(),
    )
    .unwrap();
    let texts: Vec<String> = r
        .options
        .unwrap()
        .iter()
        .map(|o| write_position(&*g, &o.position))
        .collect();
    assert_eq!(texts, vec!["1,1,2", "2"]);
    assert!(parse_game("misere(misere(nim))").is_err());
    assert!(parse_game("misere(pass(misere(nim)))").is_err());
}
