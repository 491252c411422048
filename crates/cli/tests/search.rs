//! `nimlab value` and `moves` by pruned search: a board the planner sends to the
//! search, the search asked for, checkpoints resumed, and bad flags refused.

use crate::common::nimlab;

#[test]
fn a_big_board_is_valued_by_the_search() {
    // Rank 32: past what the planner leaves to the memoized solver. Beling's table
    // gives 4×8 the nimber 0.
    let (code, out, err) = nimlab(&["value", "cram(rows=4,cols=8)", "start", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["grundy"], 0, "{out}");
    assert_eq!(doc["method"], "search", "{out}");
}

#[test]
fn the_search_asked_for_gives_the_solvers_value_and_a_winning_move() {
    let (code, out, err) = nimlab(&["value", "cram(rows=3,cols=5)", "start", "--search"]);
    assert_eq!(code, 0, "{err}");
    let (_, solver, _) = nimlab(&["value", "cram(rows=3,cols=5)", "start"]);
    let grundy = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("grundy:"))
            .map(str::to_string)
    };
    assert_eq!(grundy(&out), grundy(&solver));
    assert!(out.contains("method:   search"), "{out}");
    assert!(out.contains("winning move (one of them)"), "{out}");
    // `moves` lists every option with its value, by the search too.
    let (code, out, err) = nimlab(&[
        "moves",
        "node-kayles(graph=path(9))",
        "start",
        "--end-rank",
        "0",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("method: search"), "{out}");
    assert!(out.contains("← winning"), "{out}");
}

#[test]
fn a_checkpoint_is_resumed_to_the_same_value() {
    let dir = std::env::temp_dir().join(format!("nimlab-cli-search-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("cram.ckpt");
    let file = file.to_str().unwrap();
    let game = "cram(rows=4,cols=5)";
    let (code, first, err) = nimlab(&["value", game, "start", "--checkpoint", file]);
    assert_eq!(code, 0, "{err}");
    let (code, again, err) = nimlab(&["value", game, "start", "--resume", file]);
    assert_eq!(code, 0, "{err}");
    assert!(again.contains("grundy:   2"), "{again}");
    assert_eq!(first.lines().nth(2), again.lines().nth(2));
    // A checkpoint of another game is refused, in one line, exit 2.
    let (code, _, err) = nimlab(&["value", "cram(rows=3,cols=5)", "start", "--resume", file]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("is a checkpoint of cram(rows=4,cols=5)"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_search_refuses_games_it_does_not_value() {
    // Misère play: a terminal position is not worth 0.
    let (code, out, err) = nimlab(&["value", "misere(cram(rows=2,cols=3))", "start", "--search"]);
    assert_eq!(code, 2, "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let (code, _, err) = nimlab(&["value", "cram(rows=2,cols=3)", "start", "--end-rank", "x"]);
    assert_eq!(code, 2, "{err}");
}
