//! Rules files against the catalog and against brute forces written here.

use nimlab_engine::{grundy_table, Coord, Game, Solver, TableOptions};
use nimlab_games::parse_game;
use nimlab_games::rules::{load, RulesGame};
use std::path::Path;

fn example(name: &str) -> RulesGame {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(name);
    load(&path).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn table(game: &dyn Game, size: usize) -> Vec<u32> {
    grundy_table(game, &game.table_box(size), &TableOptions::default())
        .unwrap()
        .into_values()
}

#[test]
fn rules_file_ryuoh_reproduces_the_catalog_exactly() {
    let file = example("ryuoh.toml");
    let catalog = parse_game("ryuoh(p=3)").unwrap();
    assert_eq!(table(&file, 90), table(&*catalog, 90));
    // Other p, by changing the parameter; and the same predicate forced through the
    // position-dependent path (it mentions x).
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/ryuoh.toml"),
    )
    .unwrap();
    for p in [1, 2, 4, 5] {
        let t = text.replace("p = 3", &format!("p = {p}"));
        let g = RulesGame::from_toml(&t, "test").unwrap();
        let catalog = parse_game(&format!("ryuoh(p={p})")).unwrap();
        assert_eq!(table(&g, 40), table(&*catalog, 40), "p = {p}");
        let t = t.replace("c0 == 0 ||", "c0 <= x && (c0 == 0) ||");
        let g = RulesGame::from_toml(&t, "test").unwrap();
        assert_eq!(
            table(&g, 25),
            table(&*catalog, 25),
            "p = {p}, position-dependent path"
        );
    }
}

#[test]
fn chocolate_example_matches_definition_1_8() {
    // Brute force straight from docs/theory.md §5: options of {y, z} are {v, z} for v < y and
    // {min(y, f(w)), w} for w < z, with f(t) = ⌊t/2⌋.
    let f = |t: usize| t / 2;
    let n = 40;
    let mut g = vec![vec![0u32; n]; n]; // g[z][y]
    for z in 0..n {
        for y in 0..=f(z) {
            let mut seen = vec![false; 2 * n + 2];
            for v in 0..y {
                seen[g[z][v] as usize] = true;
            }
            for w in 0..z {
                seen[g[w][y.min(f(w))] as usize] = true;
            }
            g[z][y] = seen.iter().position(|s| !s).unwrap() as u32;
        }
    }
    let game = example("chocolate.toml");
    let t = grundy_table(&game, &[n, n], &TableOptions::default()).unwrap();
    for (z, column) in g.iter().enumerate() {
        for (y, &value) in column.iter().enumerate() {
            let expected = (y <= f(z)).then_some(value);
            assert_eq!(t.get(&[y as Coord, z as Coord]), expected, "{{{y},{z}}}");
        }
    }
    assert_eq!(game.closed_form(), Some("y xor z"));
}

#[test]
fn moore_example_has_moores_p_positions() {
    // Independent oracle: P iff every binary column has a multiple of 3 ones.
    let game = example("moore3.toml");
    let n = 12;
    let t = table(&game, n);
    for (i, &v) in t.iter().enumerate() {
        let (a, b, c) = (i % n, i / n % n, i / n / n);
        let moore = (0..4).all(|bit| ((a >> bit & 1) + (b >> bit & 1) + (c >> bit & 1)) % 3 == 0);
        assert_eq!(v == 0, moore, "({a},{b},{c})");
    }
}

/// Take-and-put: take 1 from heap 0, or take 2 from heap 0 and put 1 on heap 1.
struct TakeAndPut;
impl Game for TakeAndPut {
    fn spec(&self) -> String {
        "take-and-put".into()
    }
    fn dimension(&self) -> usize {
        2
    }
    fn for_each_option(&self, p: &[Coord], visit: &mut dyn FnMut(&[Coord])) {
        if p[0] >= 1 {
            visit(&[p[0] - 1, p[1]]);
        }
        if p[0] >= 2 {
            visit(&[p[0] - 2, p[1] + 1]);
        }
        if p[1] >= 1 {
            visit(&[p[0], p[1] - 1]);
        }
    }
}

#[test]
fn take_and_put_moves_list_and_predicate() {
    let list = RulesGame::from_toml(
        "name = \"tp\"\ndimension = 2\ntake_and_put = true\nmoves = [[1, 0], [2, -1], [0, 1]]",
        "test",
    )
    .unwrap();
    let pred = RulesGame::from_toml(
        "name = \"tp\"\ndimension = 2\ntake_and_put = true\nmoves = \"c0 == 1 && c1 == 0 || c0 == 2 && c1 == -1 || c0 == 0 && c1 == 1\"",
        "test",
    )
    .unwrap();
    assert!(!list.is_downward_closed());
    let mut oracle = Solver::new(&TakeAndPut);
    let expected: Vec<u32> = (0..15 * 15)
        .map(|i| {
            oracle
                .grundy(&[(i % 15) as Coord, (i / 15) as Coord])
                .unwrap()
        })
        .collect();
    assert_eq!(table(&list, 15), expected);
    assert_eq!(table(&pred, 15), expected);
}

#[test]
fn bad_rules_files_are_one_line_errors() {
    let cases = [
        (
            "name = \"x\"\ndimension = 2\nmoves = \"c0 +\"",
            "moves = 'c0 +': formula error at column 5",
        ),
        (
            "name = \"x\"\ndimension = 2\nmoves = \"c0 > 0\"\ngrundy = \"x xor q\"",
            "unknown variable 'q'",
        ),
        (
            "name = \"x\"\ndimension = 2\nmoves = [[1, 0, 0]]",
            "has 3 component(s)",
        ),
        (
            "name = \"x\"\ndimension = 2\nmoves = [[1, -1]]",
            "must take something",
        ),
        (
            "name = \"x\"\ndimension = 2\nmoves = [[2, -1]]",
            "take_and_put",
        ),
        (
            "name = \"x\"\ndimension = 0\nmoves = [[1]]",
            "dimension must be",
        ),
        (
            "name = \"x\"\ndimension = 2\nmoves = \"true\"\ncolour = 3",
            "line 4",
        ),
        (
            "name = \"x\"\ndimension = 2\nmoves = \"true\"\nparams = { p = \"a\" }",
            "parameter p must be an integer",
        ),
        (
            "name = \"x\"\ndimension = 2\nmoves = \"true\"\ncoordinates = [\"c0\", \"y\"]",
            "cannot name a coordinate",
        ),
        (
            "name = \"x\"\ndimension = 2\nmoves = \"true\"\n[[[",
            "line 4",
        ),
    ];
    // No name: the file's name stands for it (docs/rules.md).
    let named = RulesGame::from_toml("dimension = 2\nmoves = \"true\"", "bad.toml").unwrap();
    assert!(named.spec().contains("bad"), "{}", named.spec());
    for (text, expect) in cases {
        let e = RulesGame::from_toml(text, "bad.toml")
            .err()
            .unwrap_or_else(|| panic!("{text}"))
            .to_string();
        assert!(e.contains(expect), "{text}\n→ {e}");
        assert!(e.starts_with("rules file bad.toml: "), "{e}");
        assert!(!e.contains('\n'), "{e}");
    }
    assert!(load(Path::new("/nonexistent/x.toml")).is_err());
    assert!(parse_game("rules(file=/nonexistent/x.toml)").is_err());
}
