//! Rules files against the catalog and against brute forces written here.

use crate::common::mex;
use nimlab_engine::big::BigUint;
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

// ---------------------------------------------------------------------------------
// Take-and-break rules files (kind = "take-and-break").

/// What a take-and-break move may do, straight from the words of a rules file: remove
/// `k` tokens from one heap and leave the rest as 0, 1 or 2 non-empty heaps.
type Rule = (u64, &'static [u64]);

/// Every way to remove `k` from heap `h` and leave `parts` non-empty heaps (sorted
/// parts), per the rule's definition.
fn heap_moves(h: u64, rules: &[Rule]) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    for &(k, leaves) in rules {
        if k > h {
            continue;
        }
        let rest = h - k;
        for &parts in leaves {
            match parts {
                0 if rest == 0 && k > 0 => out.push(vec![]),
                1 if rest > 0 && k > 0 => out.push(vec![rest]),
                2 => out.extend((1..=rest / 2).map(|a| vec![a, rest - a])),
                _ => {}
            }
        }
    }
    out
}

/// G(0), …, G(len − 1) of one heap: mex over the options, an option's value the
/// nim-sum of the heaps it leaves.
fn heap_values(rules: &[Rule], len: u64) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    for h in 0..len {
        let v = mex(heap_moves(h, rules)
            .iter()
            .map(|parts| parts.iter().fold(0, |acc, &p| acc ^ g[p as usize])));
        g.push(v);
    }
    g
}

/// The value of a multiset of heaps by brute force over whole positions (no sum
/// theorem): mex over every move of every heap.
fn multiset_value(
    heaps: &[u64],
    rules: &[Rule],
    memo: &mut std::collections::HashMap<Vec<u64>, u32>,
) -> u32 {
    let mut key: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
    key.sort_unstable();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut seen = Vec::new();
    for (i, &h) in key.iter().enumerate() {
        for parts in heap_moves(h, rules) {
            let mut next = key.clone();
            next.remove(i);
            next.extend(parts);
            seen.push(multiset_value(&next, rules, memo));
        }
    }
    let v = mex(seen);
    memo.insert(key, v);
    v
}

/// Remove 1, 2 or 4 leaving 0, 1 or 2 heaps; or remove 0 leaving two heaps.
const SPLIT_124: &[Rule] = &[(0, &[2]), (1, &[0, 1, 2]), (2, &[0, 1, 2]), (4, &[0, 1, 2])];

fn grundy(game: &dyn Game, pos: &[Coord]) -> u32 {
    Solver::new(game).grundy(pos).unwrap()
}

#[test]
fn split_124_file_is_its_definition_and_octal_4_7707() {
    let three_lines = RulesGame::from_toml(
        "kind = \"take-and-break\"\nremove = [1, 2, 4]\nleave = [0, 1, 2]\nsplit = true",
        "split.toml",
    )
    .unwrap();
    let example = example("split124.toml");
    // d0 = 4 (split), d1 = d2 = d4 = 7, d3 = 0: written out by hand.
    let octal = parse_game("octal(code=4.7707)").unwrap();
    assert_eq!(three_lines.equivalent_spec(), Some("octal(code=4.7707)"));
    assert_eq!(example.equivalent_spec(), Some("octal(code=4.7707)"));
    assert_eq!(three_lines.name(), "split");
    assert_eq!(example.name(), "split-124");
    assert!(example.description().contains("split a heap"));
    let g = heap_values(SPLIT_124, 61);
    for h in 0..=60u64 {
        assert_eq!(grundy(&three_lines, &[h]), g[h as usize], "heap {h}");
        assert_eq!(grundy(&example, &[h]), g[h as usize], "heap {h}");
        assert_eq!(grundy(&*octal, &[h]), g[h as usize], "heap {h}");
    }
    let mut memo = std::collections::HashMap::new();
    for pos in [
        vec![5, 7],
        vec![3, 3],
        vec![1, 2, 3],
        vec![4, 4, 6],
        vec![2, 5, 9],
        vec![1, 1, 1, 1, 8],
        vec![6, 6, 6],
    ] {
        let want = multiset_value(&pos, SPLIT_124, &mut memo);
        assert_eq!(
            want,
            pos.iter().fold(0, |acc, &h| acc ^ g[h as usize]),
            "{pos:?}: the sum theorem"
        );
        assert_eq!(grundy(&three_lines, &pos), want, "{pos:?}");
        assert_eq!(grundy(&*octal, &pos), want, "{pos:?}");
    }
    // Options are the definition's, as multisets of heaps.
    let mut options: Vec<Vec<Coord>> = three_lines
        .options(&[6])
        .into_iter()
        .map(|mut o| {
            o.retain(|&h| h > 0);
            o.sort_unstable();
            o
        })
        .collect();
    options.sort();
    options.dedup();
    let mut want = heap_moves(6, SPLIT_124);
    want.sort();
    want.dedup();
    assert_eq!(options, want);
    // Whole tables, and the spec names the file and parses back to the same game.
    assert_eq!(table(&example, 200), table(&*octal, 200));
    let again = parse_game(&example.spec()).unwrap();
    assert!(again.spec().starts_with("rules(file="), "{}", again.spec());
    assert_eq!(table(&*again, 100), table(&*octal, 100));
}

#[test]
fn per_amount_moves_and_ranges_spell_the_same_code() {
    let code = |text: &str| {
        RulesGame::from_toml(&format!("kind = \"take-and-break\"\n{text}"), "t.toml")
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .equivalent_spec()
            .unwrap()
            .to_string()
    };
    // Dawson's Chess 0.137, per amount.
    assert_eq!(
        code("moves = [{ remove = 1, leave = [0] }, { remove = 2, leave = [0, 1] }, { remove = 3, leave = [0, 1, 2] }]"),
        "octal(code=0.137)"
    );
    // A range (both ends included), a bare number, the default leave (0 or 1 heap).
    assert_eq!(code("remove = \"1..3\""), "octal(code=0.333)");
    assert_eq!(code("remove = \"2..=3\"\nleave = 1"), "octal(code=0.022)");
    assert_eq!(
        code("remove = [\"1..2\", 5]\nleave = [2]"),
        "octal(code=0.44004)"
    );
    // Entries for one amount add up; a split as an entry of its own; split alone.
    assert_eq!(
        code("moves = [{ remove = 1, leave = [0] }, { remove = 1, leave = [2] }, { remove = 0, leave = [2] }]"),
        "octal(code=4.5)"
    );
    assert_eq!(code("split = true"), "octal(code=4.0)");
    assert_eq!(
        code("remove = 3\nleave = [1, 2]\nsplit = true"),
        "octal(code=4.006)"
    );
}

/// Values of the heaps of a row of pins when a move knocks down `width` adjacent pins
/// (any of `widths`), leaving the pins on either side: Kayles (1 or 2) and Dawson's
/// Kayles (2), from the bowling definition rather than from code digits.
fn bowling(widths: &[u64], len: u64) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    for n in 0..len {
        let mut seen = Vec::new();
        for &w in widths.iter().filter(|&&w| w <= n) {
            for left in 0..=n - w {
                seen.push(g[left as usize] ^ g[(n - w - left) as usize]);
            }
        }
        g.push(mex(seen));
    }
    g
}

/// The certified (preperiod, period) of a game with a sequence kernel.
fn certified(game: &dyn Game) -> (u64, u64) {
    let p = game
        .capabilities()
        .sequence
        .expect("a sequence kernel")
        .certified_periodicity(1 << 12, &nimlab_engine::NoProgress)
        .expect("a periodicity hook")
        .unwrap()
        .expect("a certified period");
    (p.preperiod, p.period)
}

#[test]
fn kayles_dawsons_kayles_and_dawsons_chess_as_rules_files() {
    let file = |text: &str| RulesGame::from_toml(text, "known.toml").unwrap();
    let kayles = file("kind = \"take-and-break\"\nremove = [1, 2]\nleave = [0, 1, 2]");
    let dawson_kayles = file("kind = \"take-and-break\"\nremove = 2\nleave = [0, 1, 2]");
    let dawson_chess = file(
        "kind = \"take-and-break\"\nmoves = [\n  { remove = 1, leave = [0] },\n  \
         { remove = 2, leave = [0, 1] },\n  { remove = 3, leave = [0, 1, 2] },\n]",
    );
    assert_eq!(kayles.equivalent_spec(), Some("octal(code=0.77)"));
    assert_eq!(dawson_kayles.equivalent_spec(), Some("octal(code=0.07)"));
    assert_eq!(dawson_chess.equivalent_spec(), Some("octal(code=0.137)"));

    // Kayles: Winning Ways' first values, then the bowling definition to heap 300.
    let k = bowling(&[1, 2], 300);
    assert_eq!(k[..12], [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
    // Published (Guy–Smith 1956; OEIS A002186): period 12 from n = 71, last exception 70.
    assert!((71..288).all(|n| k[n] == k[n + 12]));
    assert_ne!(k[70], k[82]);
    let dk = bowling(&[2], 300);
    // Dawson's Kayles: period 34 from n = 53; Dawson's Chess is it shifted by one.
    assert!((53..266).all(|n| dk[n] == dk[n + 34]));
    assert_ne!(dk[52], dk[86]);
    let dc: Vec<u32> = dk[1..].to_vec();
    assert_eq!(table(&kayles, 300), k);
    assert_eq!(table(&dawson_kayles, 300), dk);
    assert_eq!(table(&dawson_chess, 299), dc);
    // The published periods, certified through the rules games.
    assert_eq!(certified(&kayles), (71, 12));
    assert_eq!(certified(&dawson_kayles), (53, 34));
    assert_eq!(certified(&dawson_chess), (52, 34));
    // Heaps far past the computed values, valued by the planner from the period.
    let huge = 1_000_000_000_007u64;
    let at = |g: &[u32], a: u64, p: u64, n: u64| g[(a + (n - a) % p) as usize];
    let value = |game: &dyn Game, pos: &[u64]| {
        let big: Vec<BigUint> = pos.iter().map(|&h| BigUint::from(h)).collect();
        let r = nimlab_engine::plan::value(game, &big, &TableOptions::default()).unwrap();
        r.grundy.unwrap()
    };
    assert_eq!(value(&kayles, &[huge]), BigUint::from(at(&k, 71, 12, huge)));
    assert_eq!(
        value(&dawson_chess, &[huge, 40, 7]),
        BigUint::from(at(&dc, 52, 34, huge) ^ dc[40] ^ dc[7])
    );
}

#[test]
fn misere_of_a_take_and_break_file_is_misere_of_its_code() {
    use nimlab_engine::misere_quotient::{MisereQuotient, QuotientOptions};
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/split124.toml");
    let file = parse_game(&format!("misere(rules(file={}))", path.display())).unwrap();
    let octal = parse_game("misere(octal(code=4.7707))").unwrap();
    for pos in [
        vec![1],
        vec![2],
        vec![1, 1],
        vec![1, 1, 1],
        vec![3, 4],
        vec![2, 5, 7],
        vec![9, 9, 1],
        vec![13],
    ] {
        assert_eq!(grundy(&*file, &pos), grundy(&*octal, &pos), "{pos:?}");
    }
    // Misère Kayles from a rules file: one heap of 1 loses (G⁻ = 0), two win.
    let kayles = parse_game("misere(octal(code=0.77))").unwrap();
    let rules_kayles = nimlab_engine::transform::Misere::new(Box::new(
        RulesGame::from_toml(
            "kind = \"take-and-break\"\nremove = [1, 2]\nleave = [0, 1, 2]",
            "kayles.toml",
        )
        .unwrap(),
    ));
    assert_eq!(grundy(&rules_kayles, &[1]), 0);
    assert_ne!(grundy(&rules_kayles, &[1, 1]), 0);
    for pos in [vec![4], vec![1, 4], vec![2, 2, 3], vec![5, 6]] {
        assert_eq!(
            grundy(&rules_kayles, &pos),
            grundy(&*kayles, &pos),
            "{pos:?}"
        );
    }
    // The misère quotients, heap by heap.
    let opts = QuotientOptions::default();
    let q_file = MisereQuotient::of_game(&example("split124.toml"), 8, &opts).unwrap();
    let q_code =
        MisereQuotient::of_game(&*parse_game("octal(code=4.7707)").unwrap(), 8, &opts).unwrap();
    assert_eq!(q_file.size(), q_code.size());
    assert_eq!(
        q_file.presentation.to_string(),
        q_code.presentation.to_string()
    );
}

#[test]
fn bad_take_and_break_files_are_one_line_errors() {
    let tb = "kind = \"take-and-break\"\n";
    let cases = [
        (
            format!("{tb}remove = [1]\ncolour = 3"),
            "unknown field `colour`",
        ),
        (
            format!("{tb}remove = [0]\nleave = [0, 1, 2]"),
            "must leave two heaps",
        ),
        (format!("{tb}remove = [0, 1]"), "must leave two heaps"),
        (
            format!("{tb}remove = [1]\nleave = [3]"),
            "leaves 0, 1 or 2 heaps, not 3",
        ),
        (format!("{tb}remove = [1]\nleave = [-1]"), "not -1"),
        (format!("{tb}remove = [1000001]"), "not an amount"),
        (format!("{tb}remove = [-2]"), "not an amount"),
        (format!("{tb}remove = \"1..100000000\""), "goes past 1000"),
        (
            format!("{tb}remove = \"-100000000..-5\""),
            "-100000000 tokens is not an amount",
        ),
        (format!("{tb}remove = 2\nleave = \"-3..1\""), "not -3"),
        (format!("{tb}remove = \"1..\""), "both ends"),
        (format!("{tb}remove = \"4..2\""), "is empty"),
        (format!("{tb}remove = \"two\""), "not a number or a range"),
        (format!("{tb}remove = 1.5"), "float is not a number"),
        (format!("{tb}remove = []"), "remove is an empty list"),
        (
            format!("{tb}remove = [1]\nleave = []"),
            "leave is an empty list",
        ),
        (format!("{tb}moves = []"), "moves is an empty list"),
        (
            format!("{tb}moves = [{{ leave = [1] }}]"),
            "missing field `remove`",
        ),
        (
            format!("{tb}moves = [{{ remove = 0, leave = [1] }}]"),
            "moves[0].remove: a move that removes 0",
        ),
        (
            format!("{tb}moves = [{{ remove = 1 }}, {{ remove = 2, leave = [4] }}]"),
            "moves[1].leave",
        ),
        (
            format!("{tb}remove = [1]\nmoves = [{{ remove = 2 }}]"),
            "either remove",
        ),
        (format!("{tb}leave = [1]"), "leave needs remove"),
        (
            format!("{tb}moves = [{{ remove = 2 }}]\nleave = [1]"),
            "inside each entry",
        ),
        (tb.to_string(), "needs remove"),
        (
            format!("{tb}remove = [1]\ndimension = 1"),
            "dimension is a key of take-away",
        ),
        (format!("{tb}moves = \"c0 == 1\""), "line 2"),
        (
            format!("{tb}remove = [1]\ngrundy = \"n % 2\""),
            "grundy is a key of take-away",
        ),
        ("kind = \"octal\"\nremove = [1]".to_string(), "kind must be"),
        (
            "kind = \"take-away\"\ndimension = 1\nmoves = [[1]]\nsplit = true".to_string(),
            "split is a key of take-and-break",
        ),
        ("kind = 3\nremove = [1]".to_string(), "kind must be"),
        (
            "dimension = 1\nmoves = [[1]]\nremove = [1]".to_string(),
            "which say kind = \"take-and-break\"",
        ),
        (
            "remove = [1, 2]\nleave = [0, 1, 2]".to_string(),
            "is a key of take-and-break rules files",
        ),
        (
            "dimension = 1\nmoves = [{ remove = 1 }]".to_string(),
            "need kind = \"take-and-break\"",
        ),
    ];
    for (text, expect) in cases {
        let e = RulesGame::from_toml(&text, "bad.toml")
            .err()
            .unwrap_or_else(|| panic!("{text}"))
            .to_string();
        assert!(e.contains(expect), "{text}\n→ {e}");
        assert!(e.starts_with("rules file bad.toml: "), "{e}");
        assert!(!e.contains('\n'), "{e}");
    }
    // The take-away form with an explicit kind is still the take-away form.
    let g =
        RulesGame::from_toml("kind = \"take-away\"\ndimension = 1\nmoves = [[1]]", "t").unwrap();
    assert_eq!(g.equivalent_spec(), None);
    assert_eq!(grundy(&g, &[5]), 1);
}
