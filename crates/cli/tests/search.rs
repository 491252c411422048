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

#[test]
fn a_search_split_into_shards_merges_to_the_published_value() {
    // Cram 4×7: nimber 3 in Beling's table. Three shards written to files, then merged.
    let dir = crate::common::scratch::scratch("cli-search", "shards");
    let game = "cram(rows=4,cols=7)";
    let files: Vec<String> = (0..3)
        .map(|i| {
            dir.join(format!("part{i}.json"))
                .to_str()
                .unwrap()
                .to_string()
        })
        .collect();
    for (i, f) in files.iter().enumerate() {
        let shard = format!("{i}/3");
        let (code, _, err) = nimlab(&["value", game, "start", "--shard", &shard, "-o", f]);
        assert_eq!(code, 0, "{err}");
    }
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&files[1]).unwrap()).unwrap();
    assert_eq!(doc["shard"], serde_json::json!([1, 3]));
    assert_eq!(doc["game"], game);
    assert_eq!(doc["below"], 4);
    let merge = |files: &[&str], extra: &[&str]| {
        let mut args = vec!["value", game, "start"];
        args.extend_from_slice(extra);
        args.push("--merge");
        args.extend_from_slice(files);
        nimlab(&args)
    };
    let all: Vec<&str> = files.iter().map(String::as_str).collect();
    let (code, out, err) = merge(&all, &["--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let merged: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(merged["grundy"], 3, "{out}");
    assert_eq!(merged["method"], "search");
    // Its winning moves are among those `moves` by one search lists.
    let (code, out, err) = nimlab(&["moves", game, "start", "--search", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let one: serde_json::Value = serde_json::from_str(&out).unwrap();
    let listed = one["winning_moves"].as_array().unwrap();
    let found = merged["winning_moves"].as_array().unwrap();
    assert!(!found.is_empty());
    assert!(found.iter().all(|m| listed.contains(m)), "{found:?}");
    // Asked below 3, the shards cannot tell a nimber of 3: said in one line, exit 2.
    for (i, f) in files.iter().enumerate() {
        let shard = format!("{i}/3");
        let (code, _, err) = nimlab(&[
            "value", game, "start", "--shard", &shard, "--below", "3", "-o", f,
        ]);
        assert_eq!(code, 0, "{err}");
    }
    let (code, _, err) = merge(&all, &[]);
    assert_eq!(code, 2);
    assert!(err.contains("the nimber is 3 or more"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    // Refused in one line with exit 2: a shard missing, one twice, another position,
    // a file that is not a shard, a shard that does not exist, `moves` of shards.
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"game\": 1}").unwrap();
    let bad = bad.to_str().unwrap();
    for (files, game_args) in [
        (vec![all[0], all[1]], None),
        (vec![all[0], all[0], all[2]], None),
        (all.clone(), Some("cram(rows=4,cols=6)")),
        (vec![bad], None),
    ] {
        let mut args = vec!["value", game_args.unwrap_or(game), "start", "--merge"];
        args.extend_from_slice(&files);
        let (code, out, err) = nimlab(&args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    for args in [
        vec!["value", game, "start", "--shard", "3/3"],
        vec!["value", game, "start", "--shard", "0/3", "--below", "0"],
        vec!["value", game, "start", "--below", "3"],
        vec!["moves", game, "start", "--shard", "0/3"],
        vec!["moves", game, "start", "--merge", all[0]],
        vec![
            "value",
            "misere(cram(rows=2,cols=3))",
            "start",
            "--shard",
            "0/2",
        ],
    ] {
        let (code, _, err) = nimlab(&args);
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_split_search_through_the_transforms() {
    // Under the pass transform the search applies (a terminal position is still worth
    // 0): one shard merged gives the memoized solver's value. Misère play, sums and n
    // players are not values the search computes: refused in one line, exit 2.
    let dir = crate::common::scratch::scratch("cli-search", "transforms");
    let file = dir.join("one.json");
    let file = file.to_str().unwrap();
    let game = "pass(cram(rows=2,cols=4))";
    let (code, _, err) = nimlab(&["value", game, "start", "--shard", "0/1", "-o", file]);
    assert_eq!(code, 0, "{err}");
    let (code, merged, err) = nimlab(&["value", game, "start", "--merge", file]);
    assert_eq!(code, 0, "{err}");
    let (_, solver, _) = nimlab(&["value", game, "start"]);
    assert_eq!(
        merged.lines().nth(2),
        solver.lines().nth(2),
        "{merged}\n{solver}"
    );
    for game in [
        "misere(cram(rows=2,cols=3))",
        "sum(cram(rows=2,cols=3),node-kayles(graph=path(5)))",
        "nplayer(cram(rows=2,cols=3),n=3)",
    ] {
        let (code, _, err) = nimlab(&["value", game, "start", "--shard", "0/2"]);
        assert_eq!(code, 2, "{game}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("the search values games of normal play"),
            "{err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
