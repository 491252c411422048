//! Helpers shared by the CLI tests.

use std::process::Command;

/// Runs `nimlab ARGS`: (exit code, stdout, stderr).
pub fn nimlab(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nimlab"))
        .args(args)
        .output()
        .expect("nimlab runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
