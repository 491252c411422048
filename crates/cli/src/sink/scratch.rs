//! Scratch directories for tests, shared by the unit tests of `sink` and the
//! integration tests (tests/common/mod.rs includes this file).

use std::path::{Path, PathBuf};

/// A fresh, empty directory `nimlab-{prefix}-{pid}-{name}` in the temporary directory.
pub fn scratch(prefix: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("nimlab-{prefix}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The names in directory `d`, sorted.
pub fn entries(d: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}
