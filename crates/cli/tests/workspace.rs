//! The workspace's own hygiene, the way `cargo-machete` checks it: every dependency a
//! crate declares is used in its sources, every one is taken from the workspace table
//! (one version for the whole tree), and every crate takes up the workspace's lints.

use std::path::{Path, PathBuf};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/cli sits two levels below the root")
        .to_path_buf()
}

fn manifest(path: &Path) -> toml::Table {
    let text = std::fs::read_to_string(path).expect("a readable Cargo.toml");
    text.parse().expect("a Cargo.toml that parses")
}

/// The member crates' directories, from the root manifest.
fn members() -> Vec<PathBuf> {
    let root = workspace_root();
    let table = manifest(&root.join("Cargo.toml"));
    table["workspace"]["members"]
        .as_array()
        .expect("members")
        .iter()
        .map(|m| root.join(m.as_str().expect("a path")))
        .collect()
}

/// The text of every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut String) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push_str(&std::fs::read_to_string(&path).expect("a readable source"));
            out.push('\n');
        }
    }
}

/// Whether `ident` appears in `text` as a whole word (a path `ident::…`, a macro
/// `ident!`, a `use ident;`).
fn mentions(text: &str, ident: &str) -> bool {
    text.match_indices(ident).any(|(at, _)| {
        let word = |c: char| c.is_alphanumeric() || c == '_';
        let before = text[..at].chars().next_back().is_none_or(|c| !word(c));
        let after = text[at + ident.len()..]
            .chars()
            .next()
            .is_none_or(|c| !word(c));
        before && after
    })
}

fn tables<'a>(crate_manifest: &'a toml::Table, key: &str) -> Vec<(&'a String, &'a toml::Value)> {
    let mut out: Vec<_> = crate_manifest
        .get(key)
        .and_then(|t| t.as_table())
        .map(|t| t.iter().collect())
        .unwrap_or_default();
    // Target-specific tables: [target.'cfg(…)'.dependencies].
    if let Some(targets) = crate_manifest.get("target").and_then(|t| t.as_table()) {
        for target in targets.values() {
            if let Some(t) = target.get(key).and_then(|t| t.as_table()) {
                out.extend(t.iter());
            }
        }
    }
    out
}

#[test]
fn every_declared_dependency_is_used() {
    let mut unused = Vec::new();
    for dir in members() {
        let crate_manifest = manifest(&dir.join("Cargo.toml"));
        let mut lib = String::new();
        sources(&dir.join("src"), &mut lib);
        let mut all = lib.clone();
        for extra in ["tests", "benches", "examples"] {
            sources(&dir.join(extra), &mut all);
        }
        // As in cargo-machete: a crate may name dependencies it takes for their
        // features only (crates/python unifies the wheel's with the test build's).
        let ignored: Vec<&str> = crate_manifest
            .get("package")
            .and_then(|p| p.get("metadata"))
            .and_then(|m| m.get("cargo-machete"))
            .and_then(|m| m.get("ignored"))
            .and_then(|i| i.as_array())
            .map(|i| i.iter().filter_map(|n| n.as_str()).collect())
            .unwrap_or_default();
        for (key, text) in [("dependencies", &lib), ("dev-dependencies", &all)] {
            for (name, _) in tables(&crate_manifest, key) {
                if !ignored.contains(&name.as_str()) && !mentions(text, &name.replace('-', "_")) {
                    unused.push(format!("{}: [{key}] {name}", dir.display()));
                }
            }
        }
    }
    assert!(unused.is_empty(), "declared but not used: {unused:#?}");
}

#[test]
fn every_dependency_comes_from_the_workspace_table_and_every_crate_takes_its_lints() {
    let mut loose = Vec::new();
    for dir in members() {
        let crate_manifest = manifest(&dir.join("Cargo.toml"));
        for key in ["dependencies", "dev-dependencies", "build-dependencies"] {
            for (name, spec) in tables(&crate_manifest, key) {
                let from_workspace = spec
                    .as_table()
                    .and_then(|t| t.get("workspace"))
                    .and_then(|w| w.as_bool())
                    == Some(true);
                if !from_workspace {
                    loose.push(format!("{}: [{key}] {name}", dir.display()));
                }
            }
        }
        let lints = crate_manifest
            .get("lints")
            .and_then(|l| l.get("workspace"))
            .and_then(|w| w.as_bool());
        assert_eq!(
            lints,
            Some(true),
            "{}: add `[lints] workspace = true`",
            dir.display()
        );
    }
    assert!(
        loose.is_empty(),
        "give these through [workspace.dependencies]: {loose:#?}"
    );
}

#[test]
fn the_word_check_finds_whole_words_only() {
    assert!(mentions("use serde::Serialize;", "serde"));
    assert!(!mentions("use serde_json::Value;", "serde"));
    assert!(mentions("proptest! {", "proptest"));
    assert!(!mentions("libcx", "libc"));
}

/// Every file in a crate's tests/ is a module of that crate's one test binary,
/// tests/suite.rs: the crates set `autotests = false`, so a file left out would never run.
#[test]
fn every_test_file_is_in_its_crates_suite() {
    let mut missing = Vec::new();
    for dir in members() {
        let tests = dir.join("tests");
        let Ok(suite) = std::fs::read_to_string(tests.join("suite.rs")) else {
            continue;
        };
        for entry in std::fs::read_dir(&tests).expect("tests/ is readable") {
            let name = entry
                .expect("an entry")
                .file_name()
                .into_string()
                .expect("UTF-8 name");
            let listed = |module: &str| suite.contains(&format!("\nmod {module};"));
            if name
                .strip_suffix(".rs")
                .is_some_and(|m| m != "suite" && !listed(m))
            {
                missing.push(format!("{}/tests/{name}", dir.display()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "not in their crate's tests/suite.rs, so they never run: {missing:#?}"
    );
}
