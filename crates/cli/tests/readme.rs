//! The README's examples are a test: every `$ nimlab …` command of a `text` block of
//! README.md that shows its output is run with the built binary, and every line shown
//! must be a line of its output, in order (so the README cannot drift from what
//! nimlab prints). Lines shown are matched as they are, except:
//!
//! - a line that is only `…` or `...` stands for lines left out;
//! - a line with `…` in it stands for a line that begins with the text before the `…`;
//! - timings (`0.015 s`) match any timing.
//!
//! Commands that show no output are not run (they name long runs, files or pictures),
//! nor those in [`SKIPPED`], each with its reason. `theorems verify` verifies every
//! registered theorem (about 13 s): each line shown is checked by verifying its one
//! theorem (`--id`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Commands shown with their output but not run here, and why.
const SKIPPED: &[(&str, &str)] = &[
    (
        "nimlab certify 376.json",
        "needs the certificate of the command before it, a 6 s run to 10^7 terms",
    ),
    (
        "nimlab value 'octal(code=0.354)' 1000000000000000000000000000000",
        "an escalated period search of about 10 s (the benchmarks time it)",
    ),
];

/// One example: the command line as written, its words, the lines shown.
struct Example {
    line: String,
    words: Vec<String>,
    shown: Vec<String>,
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The words of a shell command line: single and double quotes, `#` comments.
fn words(line: &str) -> Vec<String> {
    let (mut out, mut word, mut quote, mut any) = (Vec::new(), String::new(), None, false);
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (None, '#') if !any => break,
            (None, c) if c.is_whitespace() => {
                if any {
                    out.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            (None, c) => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(word);
    }
    out
}

/// Every `$ nimlab …` of the README's `text` blocks, with the lines shown under it.
fn examples() -> Vec<Example> {
    let text = std::fs::read_to_string(repo().join("README.md")).expect("README.md");
    let mut out = Vec::new();
    let mut in_text = false;
    let mut current: Option<Example> = None;
    for line in text.lines() {
        let fence = line.trim_start().starts_with("```");
        if fence || line.starts_with("$ ") {
            out.extend(current.take());
        }
        if fence {
            in_text = !in_text && line.trim_start() == "```text";
            continue;
        }
        if !in_text {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            current = Some(Example {
                line: command
                    .split("  #")
                    .next()
                    .unwrap_or(command)
                    .trim()
                    .to_string(),
                words: words(command),
                shown: Vec::new(),
            });
        } else if let Some(e) = current.as_mut()
            && !line.trim().is_empty()
        {
            e.shown.push(line.trim_end().to_string());
        }
    }
    out.extend(current);
    out
}

/// The line with every timing (`0.015 s`, `12 s`) written `# s`.
fn without_timings(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let starts = chars[i].is_ascii_digit() && (i == 0 || !chars[i - 1].is_alphanumeric());
        if starts {
            let mut j = i;
            while j < chars.len() && (chars[j].is_ascii_digit() || chars[j] == '.') {
                j += 1;
            }
            let unit = chars.get(j) == Some(&' ')
                && chars.get(j + 1) == Some(&'s')
                && chars.get(j + 2).is_none_or(|c| !c.is_alphanumeric());
            if unit {
                out.push('#');
                i = j;
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// Whether `actual` is the line `shown` stands for.
fn matches(shown: &str, actual: &str) -> bool {
    let (shown, actual) = (without_timings(shown), without_timings(actual.trim_end()));
    match shown.split_once('…') {
        Some((before, _)) => actual.starts_with(before.trim_end()),
        None => shown == actual,
    }
}

/// Whether a shown line stands for lines left out.
fn is_gap(line: &str) -> bool {
    matches!(line.trim(), "…" | "...")
}

/// Runs `nimlab WORDS` in `dir`: standard output and error.
fn run(dir: &Path, words: &[String]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nimlab"))
        .args(words)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("nimlab runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The first line shown that is not in the output, in order; `None`: all are.
fn missing<'a>(shown: &'a [String], output: &str) -> Option<&'a str> {
    let mut actual = output.lines();
    shown
        .iter()
        .filter(|l| !is_gap(l))
        .find(|l| !actual.any(|a| matches(l, a)))
        .map(String::as_str)
}

#[test]
fn every_example_the_readme_shows_is_what_nimlab_prints() {
    // A scratch directory where `examples/` is the repository's, as the README's
    // relative paths expect, and files the examples write (`--walnut out/`) land.
    let dir = std::env::temp_dir().join(format!("nimlab-readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(repo().join("examples"), dir.join("examples")).unwrap();
    let all = examples();
    assert!(all.len() >= 40, "{} examples found", all.len());
    let mut checked = 0;
    let mut failures = Vec::new();
    for e in all.iter().filter(|e| !e.shown.is_empty()) {
        assert_eq!(e.words[0], "nimlab", "{}", e.line);
        if SKIPPED.iter().any(|(line, _)| *line == e.line) {
            continue;
        }
        if e.words[1..] == ["theorems", "verify"] {
            for line in &e.shown {
                let id = line.split(':').next().unwrap();
                let (out, err) = run(&dir, &["theorems", "verify", "--id", id].map(String::from));
                if let Some(l) = missing(std::slice::from_ref(line), &out) {
                    failures.push(format!("theorems verify --id {id}: {l}\n{out}{err}"));
                }
            }
        } else {
            let (out, err) = run(&dir, &e.words[1..]);
            if let Some(l) = missing(&e.shown, &out) {
                failures.push(format!(
                    "{}: not printed: {l}\n--- it printed:\n{out}{err}",
                    e.line
                ));
            }
        }
        checked += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(checked >= 25, "only {checked} examples checked");
}

#[test]
fn the_example_matcher_matches_what_it_should() {
    assert_eq!(
        words("nimlab check 'ryuoh(p=5)' --formula \"x y\"   # a comment"),
        ["nimlab", "check", "ryuoh(p=5)", "--formula", "x y"]
    );
    assert_eq!(
        words("nimlab value 'pass(x)' '4;1,1'"),
        ["nimlab", "value", "pass(x)", "4;1,1"]
    );
    assert_eq!(
        without_timings("checked:  9 positions (0.015 s: table 12 s) in 3x3 boxes"),
        "checked:  9 positions (# s: table # s) in 3x3 boxes"
    );
    assert!(matches(
        "result: proved (0.024 s)",
        "result: proved (1.5 s)  "
    ));
    assert!(!matches("grundy:   1", "grundy:   2"));
    assert!(matches(
        "sum: holds on [0,24)^3 for a; … ",
        "sum: holds on [0,24)^3 for a; b (9 cases)"
    ));
    let shown: Vec<String> = ["a", "…", "c"].map(String::from).to_vec();
    assert_eq!(missing(&shown, "a\nb\nc\n"), None);
    assert_eq!(missing(&shown, "c\na\n"), Some("c"));
}
