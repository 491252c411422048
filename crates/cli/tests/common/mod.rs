//! Helpers shared by the CLI tests.

use std::process::{Command, Output};

/// Fresh scratch directories and their sorted entries (shared with `sink`'s unit tests).
#[path = "../../src/sink/scratch.rs"]
pub mod scratch;

/// A reproducible random stream (shared with the games suite and the benches).
#[path = "../../../games/tests/common/rng.rs"]
pub mod rng;

/// Runs `nimlab ARGS`: its whole output.
pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nimlab"))
        .args(args)
        .output()
        .expect("nimlab runs")
}

/// Runs `nimlab ARGS`: (exit code, stdout, stderr).
pub fn nimlab(args: &[&str]) -> (i32, String, String) {
    let out = run(args);
    (
        code(&out),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The exit code of a run (-1 when a signal ended it).
pub fn code(out: &Output) -> i32 {
    out.status.code().unwrap_or(-1)
}

/// Standard output of a run, read as JSON.
pub fn stdout_json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}
