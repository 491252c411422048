//! `nimlab play` through the real binary, its standard input a pipe: illegal input is
//! asked again, undo goes back, games are played to the end, and the computer's
//! moves are perfect and explained in the game's own terms.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn play(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nimlab"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nimlab runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn a_game_of_nim_played_to_the_end_with_illegal_input() {
    // From 1,2 (N) you should move to 1,1; instead: nonsense, an illegal move, a bad
    // move (0,2), undo, then the winning line 1,1 → (computer) → 0,0.
    let input = "hello\n5,5\n1,2,3\n0,2\nundo\nmoves\nhint\n1,1\n0,0\n";
    let o = play(&["nim", "1,2"], input);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(
        text.contains("'hello' is not a legal move from 1,2"),
        "{text}"
    );
    assert!(
        text.contains("'5,5' is not a legal move from 1,2"),
        "{text}"
    );
    assert!(text.contains("'1,2,3' is not a legal move"), "{text}");
    // After 0,2 the computer wins at once by taking the heap of 2.
    assert!(text.contains("computer: 0,2 -> 0,0"), "{text}");
    assert!(
        text.contains("No move is left at 0,0. The computer wins."),
        "{text}"
    );
    assert!(
        !text.contains("back at"),
        "the first game ended before undo: {text}"
    );
}

#[test]
fn undo_goes_back_to_your_last_turn() {
    let o = play(&["nim", "3,5"], "3,1\nundo\n3,3\n");
    let text = stdout(&o);
    assert!(text.contains("back at 3,5"), "{text}");
    // The computer's moves are winning after your mistake, explained by the nim-sum.
    let first = text.lines().find(|l| l.contains("computer: 3,1")).unwrap();
    assert!(
        first.contains("-> 1,1") && first.contains("nim-sum"),
        "{text}"
    );
    // From 3,3 the computer has no winning move and makes the game last longest.
    assert!(
        text.contains("computer: 3,3 -> 2,3") || text.contains("computer: 3,3 -> 3,2"),
        "{text}"
    );
    assert!(text.contains("remoteness 5"), "{text}");
    assert!(text.contains("\nbye"), "end of input ends the game: {text}");
}

#[test]
fn the_computer_plays_first_and_wins_from_an_n_position() {
    // Ryuoh (p=3) from 4,7 is an N-position: whatever you answer (the first listed
    // move each time), the computer wins, explaining each move by Theorem 3.1.
    let mut input = String::new();
    for _ in 0..40 {
        input.push_str("0,0\n"); // illegal until the very end; then the game is over
    }
    let o = play(&["ryuoh(p=3)", "4,7", "--first", "computer"], &input);
    let text = stdout(&o);
    assert!(text.contains("computer: 4,7 -> 4,5"), "{text}");
    assert!(text.contains("Theorem 3.1"), "{text}");
    assert!(
        text.contains("'0,0' is not a legal move from 4,5"),
        "{text}"
    );
}

#[test]
fn a_whole_game_against_perfect_play_ends_with_the_winner() {
    // Wythoff from 2,2: you move to 1,2 (P); the computer cannot win (every defence
    // lasts one move), and 0,0 is then one move away whatever it did.
    let o = play(&["wythoff", "2,2"], "1,2\n0,0\n");
    let text = stdout(&o);
    assert!(text.contains("computer: 1,2 -> "), "{text}");
    assert!(text.contains("No move is left at 0,0. You win."), "{text}");
    // In a P-position the explanation says so.
    assert!(text.contains("no winning move from 1,2"), "{text}");
}

#[test]
fn easy_level_and_bad_arguments() {
    let o = play(&["nim", "4,4", "--level", "easy", "--seed", "7"], "");
    assert_eq!(o.status.code(), Some(0));
    for bad in [
        vec!["nosuchgame", "1"],
        vec!["nim", "x"],
        vec!["nim", "99999999999999999999999"],
    ] {
        let o = play(&bad, "");
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(err.starts_with("nimlab: error: "), "{bad:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{bad:?}: {err}");
    }
}

#[test]
fn three_player_nim_you_against_two_computers() {
    // You move 2,2,2 → 1,2,2; players 2 and 3 (the computer) answer, then you take the
    // rest when you can (hint), until no move is left and your rank is announced.
    let o = play(
        &["nplayer-nim(n=3)", "2,2,2", "--seed", "3"],
        "1,2,2\nhint\nmoves\n",
    );
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    let first = text
        .lines()
        .find(|l| l.contains("computer (player 2): 1,2,2 -> "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(first.contains("the 3-nim sum of"), "{first}");
    assert!(first.contains("secures rank"), "{first}");
    // The computer's reply is one of the library's best moves from 1,2,2.
    let reply = first
        .split(" -> ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    let value = Command::new(env!("CARGO_BIN_EXE_nimlab"))
        .args(["value", "nplayer-nim(n=3)", "1,2,2", "--format", "json"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&value.stdout).unwrap();
    let best: Vec<String> = json["best_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            m.as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().map_or_else(|| c.to_string(), str::to_string))
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    assert!(best.contains(&reply.to_string()), "{reply} not in {best:?}");
    assert!(text.contains("hint: move to"), "{text}");
    assert!(text.contains("you would rank"), "{text}");
}
