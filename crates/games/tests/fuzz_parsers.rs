//! Property-based fuzzing of the input parsers: game specs, positions and rules files.
//! No input may panic, every error is one line, and whatever is accepted round-trips
//! (a game's canonical spec parses back to the same spec; a position prints back to the
//! same coordinates).
//!
//! More cases: `PROPTEST_CASES=200000 cargo test -p nimlab-games --release --test fuzz_parsers`.

use nimlab_engine::big::{parse_big_position, BigUint};
use nimlab_engine::game::format_position;
use nimlab_engine::{parse_position, Game};
use nimlab_games::parse_game;
use nimlab_games::rules::RulesGame;
use nimlab_games::spec::{parse_spec, MAX_NESTING};
use proptest::prelude::*;

fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// An error message is one line (so the CLI prints exactly one line on stderr).
fn one_line(e: &nimlab_engine::Error) -> Result<(), TestCaseError> {
    let msg = e.to_string();
    prop_assert!(!msg.contains(['\n', '\r']), "message spans lines: {msg:?}");
    prop_assert!(!msg.is_empty());
    Ok(())
}

/// A parsed game's spec parses back to itself.
fn round_trips(text: &str, game: &dyn Game) -> Result<(), TestCaseError> {
    let spec = game.spec();
    let again = parse_game(&spec)
        .map_err(|e| TestCaseError::fail(format!("{text:?} → {spec:?} does not parse: {e}")))?;
    prop_assert_eq!(again.spec(), spec, "from {:?}", text);
    Ok(())
}

/// Parses a spec: no panic; an error is one line; a game round-trips.
fn check_spec(text: &str) -> Result<(), TestCaseError> {
    match parse_game(text) {
        Ok(g) => round_trips(text, &*g),
        Err(e) => one_line(&e),
    }
}

// ---------------------------------------------------------------------------------------
// Game specs

/// Pieces of the spec language, plus some it does not know.
fn spec_token() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec![
            "nim", "subtraction", "wythoff", "ryuoh", "misere", "pass", "sum",
            "fibonacci-nim", "octal", "grundy-game", "chess", "(", ")", "(", ")", "{", "}",
            "[", "]", ",", "=", "heaps=", "s=", "p=", "a=", "k=", "code=", "base=", "g1=",
            "0", "1", "3", "4", "7", "16", "-1", "c", "0.", ".", "4.", "0.137", "c.1", "f",
            "18446744073709551615", "18446744073709551616", "9223372036854775807",
            "99999999999999999999999", " ", "\t", "\n", "é", "€", "𝄞", "\u{0}", "\u{7f}",
            "\u{202e}",
        ])
        .prop_map(str::to_string),
        1 => "[ -~]{1,3}",
        1 => any::<char>().prop_map(|c| c.to_string()),
    ]
}

fn random_spec_text() -> impl Strategy<Value = String> {
    prop::collection::vec(spec_token(), 0..30).prop_map(|t| t.join(""))
}

/// Well-formed specs of the catalog (every one must be accepted).
fn spec() -> impl Strategy<Value = String> {
    let set = prop::collection::vec(1u64..60, 1..6).prop_map(|s| {
        let items: Vec<String> = s.iter().map(u64::to_string).collect();
        format!("{{{}}}", items.join(", "))
    });
    let octal_code = (
        prop::sample::select(vec!["0", "4", ""]),
        prop::collection::vec(0u8..8, 0..6),
        1u8..8,
    )
        .prop_map(|(w, d, last)| {
            let frac: String = d
                .iter()
                .chain(std::iter::once(&last))
                .map(|x| char::from_digit(*x as u32, 8).unwrap())
                .collect();
            format!("{w}.{frac}")
        });
    let hex_code = (
        prop::sample::select(vec!["0", "4", "8", "c", "C"]),
        prop::collection::vec(0u8..16, 0..5),
        prop::option::of(1u8..16),
    )
        .prop_map(|(w, d, last)| {
            let frac: String = d
                .iter()
                .chain(last.iter())
                .map(|x| char::from_digit(*x as u32, 16).unwrap())
                .collect();
            if w == "0" && frac.chars().all(|c| c == '0') {
                "0.1".to_string() // a code must allow a move
            } else {
                format!("{w}.{frac}")
            }
        });
    let leaf = prop_oneof![
        Just("nim".to_string()),
        (1i64..6).prop_map(|k| format!("nim(heaps={k})")),
        (1i64..6).prop_map(|k| format!("nim( {k} )")),
        set.prop_map(|s| format!("subtraction(s={s})")),
        Just("wythoff".to_string()),
        (1i64..5).prop_map(|a| format!("wythoff(a={a})")),
        (1i64..9).prop_map(|p| format!("ryuoh(p={p})")),
        (1i64..=1024).prop_map(|p| format!("ryuoh({p})")),
        (1i64..5).prop_map(|k| format!("fibonacci-nim(k={k})")),
        octal_code.prop_map(|c| format!("octal(code={c})")),
        hex_code.prop_map(|c| format!("octal(code={c}, base=16)")),
        Just("grundy-game".to_string()),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            inner.clone().prop_map(|g| format!("pass({g})")),
            // misère applies once, to a whole game
            inner
                .clone()
                .prop_filter("normal play", |g| !g.contains("misere"))
                .prop_map(|g| format!("misere({g})")),
            // a sum of normal-play games; parts whose heaps split are placed part by
            // part, but a sum of such sums is refused
            prop::collection::vec(
                inner.prop_filter("normal play, no nested sum of heaps", |g| {
                    !g.contains("misere")
                        && !(g.contains("sum(")
                            && (g.contains("octal") || g.contains("grundy-game")))
                }),
                1..4
            )
            .prop_map(|parts| format!("sum({})", parts.join(", "))),
        ]
    })
}

/// Brackets nested `depth` deep (balanced or not), around a game.
fn nesting() -> impl Strategy<Value = (String, usize, bool)> {
    (
        prop::collection::vec(
            prop::sample::select(vec!["pass(", "misere(", "sum(nim,", "(", "{", "["]),
            0..3 * MAX_NESTING,
        ),
        any::<bool>(),
    )
        .prop_map(|(opens, balanced)| {
            let depth = opens.len();
            let mut text: String = opens.concat();
            text.push_str("nim");
            for o in opens.iter().rev() {
                text.push(match o.chars().last() {
                    Some('{') => '}',
                    Some('[') => ']',
                    _ => ')',
                });
            }
            if !balanced {
                text.pop();
            }
            (text, depth, balanced)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(3000), ..ProptestConfig::default() })]

    #[test]
    fn random_spec_text_never_panics(text in random_spec_text()) {
        check_spec(&text)?;
        if let Err(e) = parse_spec(&text) {
            one_line(&e)?;
        }
    }

    #[test]
    fn random_unicode_specs_never_panic(text in any::<String>(), name in "\\PC{0,12}") {
        check_spec(&text)?;
        check_spec(&format!("{name}({text})"))?;
        check_spec(&format!("subtraction(s={{{text}}})"))?;
        check_spec(&format!("octal(code={name})"))?;
        check_spec(&format!("octal(code={name},base=16)"))?;
    }

    #[test]
    fn well_formed_specs_are_accepted_and_round_trip(text in spec()) {
        let g = parse_game(&text)
            .map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        round_trips(&text, &*g)?;
    }

    #[test]
    fn deep_nesting_is_refused_cleanly((text, depth, balanced) in nesting()) {
        match parse_game(&text) {
            Ok(g) => {
                prop_assert!(balanced && depth <= MAX_NESTING, "{} accepted", text);
                round_trips(&text, &*g)?;
            }
            Err(e) => {
                one_line(&e)?;
                prop_assert!(e.to_string().len() < 400, "message too long: {}", e);
                if depth > MAX_NESTING {
                    prop_assert!(
                        e.to_string().contains("nested too deeply") || !balanced,
                        "{}", e
                    );
                }
            }
        }
    }
}

/// A spec nested far beyond the limit is refused at once, not by overflowing the stack.
#[test]
fn very_deep_nesting_is_refused() {
    for open in ["pass(", "(", "{", "[", "sum(nim,", "misere("] {
        let n = 200_000;
        let close = match open {
            "{" => "}",
            "[" => "]",
            _ => ")",
        };
        let text = format!("{}nim{}", open.repeat(n), close.repeat(n));
        // Refused by the one-pass bracket check before any parsing (its message), so
        // in linear time; no verdict here rests on a clock.
        let e = parse_game(&text).err().expect("refused").to_string();
        assert!(e.contains("nested too deeply"), "{e}");
        assert!(
            e.contains(&format!("more than {MAX_NESTING} levels of brackets")),
            "{e}"
        );
        assert!(e.len() < 300, "{e}");
    }
    // Exactly at the limit is fine.
    let ok = format!(
        "{}nim{}",
        "pass(".repeat(MAX_NESTING),
        ")".repeat(MAX_NESTING)
    );
    let g = parse_game(&ok).unwrap();
    assert_eq!(g.spec(), ok);
}

/// Hexadecimal codes with a whole part 8 or c (c.1) print a spec that parses back.
#[test]
fn every_octal_code_round_trips() {
    let digits = "0123456789abcdef";
    for base in [8u32, 16] {
        for w in ["0", "4", "8", "c"] {
            for a in digits.chars().take(base as usize) {
                for b in digits.chars().take(base as usize) {
                    let text = format!("octal(code={w}.{a}{b},base={base})");
                    if let Ok(g) = parse_game(&text) {
                        let again = parse_game(&g.spec()).unwrap();
                        assert_eq!(again.spec(), g.spec(), "{text}");
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Positions

fn position_token() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec![
            "0", "1", "7", "42", ",", ",", " ", "(", ")", "-", "+", "-1", "x", "é", "€",
            "\n", "\t", "\u{0}", "18446744073709551615", "18446744073709551616",
            "340282366920938463463374607431768211456", "0x10", "1e3", "٣", "１",
        ])
        .prop_map(str::to_string),
        1 => any::<char>().prop_map(|c| c.to_string()),
        1 => "[0-9]{1,60}",
    ]
}

fn big_coordinate() -> impl Strategy<Value = BigUint> {
    prop_oneof![
        any::<u64>().prop_map(BigUint::from),
        any::<u128>().prop_map(BigUint::from),
        prop::collection::vec(any::<u32>(), 0..8).prop_map(BigUint::new),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(3000), ..ProptestConfig::default() })]

    #[test]
    fn random_position_text_never_panics(
        parts in prop::collection::vec(position_token(), 0..20),
        text in any::<String>(),
    ) {
        for t in [parts.concat(), text] {
            match parse_position(&t) {
                Ok(p) => prop_assert_eq!(parse_position(&format_position(&p)).unwrap(), p),
                Err(e) => one_line(&e)?,
            }
            match parse_big_position(&t) {
                Ok(p) => {
                    let printed: Vec<String> = p.iter().map(|c| c.to_str_radix(10)).collect();
                    prop_assert_eq!(parse_big_position(&printed.join(",")).unwrap(), p);
                }
                Err(e) => one_line(&e)?,
            }
        }
    }

    #[test]
    fn well_formed_positions_round_trip(
        coords in prop::collection::vec(big_coordinate(), 1..6),
        spaces in prop::collection::vec(prop::sample::select(vec!["", " ", "  "]), 6),
        paren in any::<bool>(),
    ) {
        let items: Vec<String> = coords
            .iter()
            .zip(&spaces)
            .map(|(c, s)| format!("{s}{c}{s}"))
            .collect();
        let mut text = items.join(",");
        if paren {
            text = format!("({text})");
        }
        prop_assert_eq!(&parse_big_position(&text).unwrap(), &coords);
        let small: Option<Vec<u64>> = coords.iter().map(|c| u64::try_from(c).ok()).collect();
        match (parse_position(&text), small) {
            (Ok(p), Some(s)) => prop_assert_eq!(p, s),
            (Err(e), None) => one_line(&e)?,
            (got, want) => prop_assert!(false, "{:?} but coordinates {:?}", got, want),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Rules files

const RULES: &[&str] = &[
    "name = \"take-1-2-3\"\ndimension = 1\nmoves = [[1], [2], [3]]\ngrundy = \"n % 4\"\n",
    "name = \"ryuoh-3\"\ndescription = \"Ryuoh\"\ndimension = 2\ncoordinates = [\"x\", \"y\"]\n\
     params = { p = 3 }\npositions = \"true\"\nmoves = \"c0 == 0 || c1 == 0 || c0 + c1 <= p - 1\"\n\
     grundy = \"(x+y)%p + p*((x/p) xor (y/p))\"\n",
    "name = \"wythoff\"\ndimension = 2\nmoves = \"c0 == 0 || c1 == 0 || c0 == c1\"\n\
     p_positions = \"x == y\"\n",
    "name = \"tp\"\ndimension = 2\ntake_and_put = true\nmoves = [[2, -1], [2, 0], [0, 1]]\n",
    "name = \"three\"\ndimension = 3\nmoves = \"c0 + c1 + c2 <= x0\"\n",
];

fn rules_token() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "name",
            "dimension",
            "moves",
            "grundy",
            "params",
            "positions",
            "coordinates",
            "take_and_put",
            "p_positions",
            "description",
            " = ",
            "\"",
            "'",
            "[",
            "]",
            "{",
            "}",
            ",",
            "\n",
            "#",
            "0",
            "1",
            "7",
            "-1",
            "9223372036854775807",
            "99999999999999999999",
            "true",
            "\"\"\"",
            "x",
            "c0",
            "c1",
            "&&",
            "||",
            "(",
            ")",
            "é",
            "€",
            "\u{0}",
            "[[1]]",
            "= 1e9",
        ])
        .prop_map(str::to_string),
        "[ -~]{1,3}",
        any::<char>().prop_map(|c| c.to_string()),
    ]
}

/// A mutation of a valid rules file: replace a character range by random tokens.
fn mutated_rules() -> impl Strategy<Value = String> {
    (
        prop::sample::select(RULES.to_vec()),
        prop::collection::vec(
            (
                any::<prop::sample::Index>(),
                0usize..8,
                prop::collection::vec(rules_token(), 0..4),
            ),
            1..4,
        ),
    )
        .prop_map(|(base, edits)| {
            let mut chars: Vec<char> = base.chars().collect();
            for (at, len, insert) in edits {
                let start = at.index(chars.len() + 1);
                let end = (start + len).min(chars.len());
                let new: Vec<char> = insert.concat().chars().collect();
                chars.splice(start..end, new);
            }
            chars.into_iter().collect()
        })
}

/// Parses a rules text: no panic; an error is one line; a game plays a few positions.
fn check_rules(text: &str) -> Result<(), TestCaseError> {
    match RulesGame::from_toml(text, "inline") {
        Ok(g) => {
            prop_assert_eq!(g.spec(), "rules(file=inline)");
            let m = g.dimension();
            for pos in [vec![0; m], vec![1; m], vec![3; m]] {
                if g.check_position(&pos).is_ok() {
                    let mut count = 0usize;
                    g.for_each_option(&pos, &mut |o| {
                        count += 1;
                        assert_eq!(o.len(), m);
                    });
                }
            }
            Ok(())
        }
        Err(e) => one_line(&e),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(1500), ..ProptestConfig::default() })]

    #[test]
    fn random_rules_text_never_panics(tokens in prop::collection::vec(rules_token(), 0..40)) {
        check_rules(&tokens.concat())?;
    }

    #[test]
    fn mutated_rules_never_panic(text in mutated_rules()) {
        check_rules(&text)?;
    }
}

#[test]
fn the_rules_templates_are_valid() {
    for t in RULES {
        RulesGame::from_toml(t, "inline").unwrap();
    }
}

/// Deep TOML nesting and deep formulas are refused, not a stack overflow.
#[test]
fn deep_rules_are_refused() {
    for n in [1_000, 100_000] {
        // BEFORE, then OPEN n times, MIDDLE, CLOSE n times and AFTER.
        let deep = |before: &str, open: &str, middle: &str, close: &str, after: &str| {
            format!(
                "name = \"x\"\ndimension = 1\n{before}{}{middle}{}{after}\n",
                open.repeat(n),
                close.repeat(n)
            )
        };
        let arrays = deep("moves = ", "[", "1", "]", "");
        let tables = deep("moves = [[1]]\nparams = ", "{ a = ", "", "1 }", "");
        let formula = deep("moves = \"", "(", "c0", ")", "\"");
        let prefix = deep("moves = \"", "-", "c0\"", "", "");
        for text in [arrays, tables, formula, prefix] {
            let e = RulesGame::from_toml(&text, "inline")
                .err()
                .expect("refused");
            assert!(!e.to_string().contains('\n'), "{e}");
            assert!(e.to_string().len() < 500, "{e}");
        }
    }
}
