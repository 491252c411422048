//! CLI tests of `periodicity --certificate`, `nimlab certify` and `nimlab census`.

use crate::common;
use common::nimlab;
use std::path::PathBuf;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("nimlab-cert-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write_certificate(d: &std::path::Path, code: &str) -> (PathBuf, serde_json::Value) {
    let path = d.join(format!("{code}.json"));
    let spec = format!("octal(code={code})");
    let (rc, _, err) = nimlab(&[
        "periodicity",
        &spec,
        "--certificate",
        path.to_str().unwrap(),
    ]);
    assert_eq!(rc, 0, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    (path, v)
}

fn certify(path: &std::path::Path) -> (i32, String, String) {
    nimlab(&["certify", path.to_str().unwrap()])
}

#[test]
fn certificates_are_written_and_hold() {
    let d = dir("hold");
    for (code, a, p) in [("0.137", 52, 34), ("0.77", 71, 12), ("0.07", 53, 34)] {
        let (path, v) = write_certificate(&d, code);
        assert_eq!(v["schema"], 1);
        assert_eq!(v["certificate"], "octal-period");
        assert_eq!(
            (
                v["preperiod"].as_u64().unwrap(),
                v["period"].as_u64().unwrap()
            ),
            (a, p)
        );
        let (rc, out, err) = certify(&path);
        assert_eq!(rc, 0, "{code}: {out}{err}");
        assert!(out.contains("holds"), "{out}");
    }
}

#[test]
fn corrupted_certificates_are_rejected() {
    let d = dir("corrupt");
    let (path, v) = write_certificate(&d, "0.137");
    let text = std::fs::read_to_string(&path).unwrap();
    let write = |name: &str, body: &str| {
        let p = d.join(name);
        std::fs::write(&p, body).unwrap();
        p
    };
    let malformed = |p: &std::path::Path| {
        let (rc, out, err) = certify(p);
        assert_eq!(rc, 2, "{}: {out}{err}", p.display());
        assert!(out.is_empty());
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(
            err.contains("malformed certificate") || err.contains("cannot read"),
            "{err}"
        );
    };
    let false_claim = |p: &std::path::Path| {
        let (rc, out, err) = certify(p);
        assert_eq!(rc, 1, "{}: {out}{err}", p.display());
        assert!(out.contains("FALSE"), "{out}");
        assert_eq!(out.trim().lines().count(), 1);
    };
    // The hash does not match.
    let mut h = v.clone();
    let sha = h["values"]["sha256"].as_str().unwrap().to_string();
    let flipped = if sha.starts_with('0') { "1" } else { "0" };
    h["values"]["sha256"] = format!("{flipped}{}", &sha[1..]).into();
    malformed(&write("hash.json", &h.to_string()));
    // A value flipped in the compressed data: it no longer inflates, or no longer
    // matches its hash.
    let mut f = v.clone();
    let data = f["values"]["data"].as_str().unwrap().to_string();
    let mut bytes = data.into_bytes();
    bytes[10] = if bytes[10] == b'A' { b'B' } else { b'A' };
    f["values"]["data"] = String::from_utf8(bytes).unwrap().into();
    malformed(&write("flip.json", &f.to_string()));
    // Truncated file.
    malformed(&write("cut.json", &text[..text.len() / 2]));
    // The period changed alone: the values no longer add up.
    let mut q = v.clone();
    q["period"] = 17.into();
    malformed(&write("period.json", &q.to_string()));
    // Preperiod and period swapped (same number of values): a false claim.
    let mut s = v.clone();
    s["preperiod"] = 34.into();
    s["period"] = 52.into();
    false_claim(&write("swap.json", &s.to_string()));
    // Dawson's Chess values claimed for 0.177 (the same largest take and heaps, so the
    // same bound): a false claim.
    let mut k = v.clone();
    k["game"] = "octal(code=0.177)".into();
    false_claim(&write("other.json", &k.to_string()));
    // Claimed for Kayles, whose largest take is 2: the stored bound and max_take
    // contradict the game, and so does every derived field edited by hand.
    let mut kayles = v.clone();
    kayles["game"] = "octal(code=0.77)".into();
    let p = write("kayles.json", &kayles.to_string());
    malformed(&p);
    assert!(certify(&p).2.contains("\"bound\" is 175"));
    for (key, wrong) in [
        ("bound", serde_json::json!(174)),
        ("max_take", serde_json::json!(2)),
        ("max_heaps", serde_json::json!(3)),
        ("theorem", serde_json::json!("Sprague–Grundy")),
    ] {
        let mut e = v.clone();
        e[key] = wrong;
        let p = write(&format!("edited-{key}.json"), &e.to_string());
        malformed(&p);
        assert!(certify(&p).2.contains(&format!("\"{key}\" is")), "{key}");
    }
    // A claim of 10^9 values (a small file can inflate to gigabytes): refused by
    // its memory estimate before anything is inflated.
    let mut big = v.clone();
    big["preperiod"] = 999_999_999u64.into();
    big["period"] = 1.into();
    big["values"]["count"] = 1_000_000_000u64.into();
    let p = write("big.json", &big.to_string());
    let (rc, out, err) = nimlab(&["--max-memory", "1G", "certify", p.to_str().unwrap()]);
    assert_eq!(rc, 2, "{out}{err}");
    assert!(
        err.contains("needs about") && err.contains("--max-memory"),
        "{err}"
    );
    // Not a certificate at all; a missing file.
    malformed(&write("empty.json", "{}"));
    malformed(&d.join("missing.json"));
}

#[test]
fn certificates_need_a_proven_octal_period() {
    let d = dir("none");
    let p = d.join("g.json");
    let (rc, _, err) = nimlab(&[
        "periodicity",
        "grundy-game",
        "--up-to",
        "1000",
        "--certificate",
        p.to_str().unwrap(),
    ]);
    assert_eq!(rc, 2, "{err}");
    assert!(err.contains("not an octal"), "{err}");
    let (rc, _, err) = nimlab(&[
        "periodicity",
        "octal(code=0.6)",
        "--up-to",
        "1000",
        "--certificate",
        p.to_str().unwrap(),
    ]);
    assert_eq!(rc, 2, "{err}");
    assert!(err.contains("no period proven"), "{err}");
    assert!(!p.exists());
}

fn lines(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn census_shards_merge_and_resume() {
    let d = dir("census");
    let full = d.join("full.jsonl");
    let f = full.to_str().unwrap();
    let (rc, _, err) = nimlab(&[
        "census", "octal", "--digits", "2", "--up-to", "4096", "-o", f,
    ]);
    assert_eq!(rc, 0, "{err}");
    let all = lines(&full);
    assert_eq!(all.len(), 63); // 0.01 … 0.77, each game once
    let kayles = all.iter().find(|l| l["code"] == "0.77").unwrap();
    assert_eq!(
        (kayles["preperiod"].as_u64(), kayles["period"].as_u64()),
        (Some(71), Some(12))
    );
    assert_eq!(kayles["status"], "solved");
    let six = all.iter().find(|l| l["code"] == "0.6").unwrap();
    assert_eq!(six["status"], "unsolved");
    assert!(six["rare"].as_u64().unwrap() > 0 && six["max_value"].as_u64().unwrap() > 0);
    // Resume: an interrupted run (last line cut) is completed, nothing is repeated.
    let text = std::fs::read_to_string(&full).unwrap();
    let keep: Vec<&str> = text.lines().take(40).collect();
    std::fs::write(&full, format!("{}\n{{\"code\":\"0.", keep.join("\n"))).unwrap();
    let (rc, _, err) = nimlab(&[
        "census", "octal", "--digits", "2", "--up-to", "4096", "-o", f,
    ]);
    assert_eq!(rc, 0, "{err}");
    let again = lines(&full);
    assert_eq!(again.len(), 63);
    // Other settings in the same file are refused.
    let (rc, _, err) = nimlab(&[
        "census", "octal", "--digits", "2", "--up-to", "512", "-o", f,
    ]);
    assert_eq!(rc, 2, "{err}");
    // Shards 0/2 and 1/2 merge into the same table.
    let a = d.join("a.jsonl");
    let b = d.join("b.jsonl");
    for (s, p) in [("0/2", &a), ("1/2", &b)] {
        let (rc, _, err) = nimlab(&[
            "census",
            "octal",
            "--digits",
            "2",
            "--up-to",
            "4096",
            "--shard",
            s,
            "-o",
            p.to_str().unwrap(),
        ]);
        assert_eq!(rc, 0, "{err}");
    }
    let merge = |files: &[&str]| {
        let mut args = vec!["census", "merge"];
        args.extend_from_slice(files);
        let (rc, out, err) = nimlab(&args);
        assert_eq!(rc, 0, "{err}");
        serde_json::from_str::<serde_json::Value>(&out).unwrap()
    };
    let from_shards = merge(&[a.to_str().unwrap(), b.to_str().unwrap()]);
    let from_full = merge(&[f]);
    assert_eq!(from_shards["games"], from_full["games"]);
    assert_eq!(from_full["count"], 63);
    let indices: Vec<u64> = from_full["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["index"].as_u64().unwrap())
        .collect();
    assert_eq!(indices, (0..63).collect::<Vec<u64>>());
    let (rc, csv, _) = nimlab(&["census", "merge", f, "--format", "csv"]);
    assert_eq!(rc, 0);
    assert_eq!(csv.lines().count(), 64);
    assert!(
        csv.lines()
            .any(|l| l.starts_with("62,0.77,8,4096,solved,71,12,")),
        "{csv}"
    );
}

#[test]
fn census_certificates_hold() {
    let d = dir("census-certs");
    let certs = d.join("certs");
    let (rc, out, err) = nimlab(&[
        "census",
        "octal",
        "--digits",
        "1",
        "--up-to",
        "4096",
        "--certificates",
        certs.to_str().unwrap(),
    ]);
    assert_eq!(rc, 0, "{err}");
    let solved: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|l| l["status"] == "solved")
        .collect();
    assert_eq!(solved.len(), 6, "{out}"); // 0.1 … 0.7 but 0.6
    for l in solved {
        let (rc, out, err) = certify(std::path::Path::new(l["certificate"].as_str().unwrap()));
        assert_eq!(rc, 0, "{out}{err}");
    }
}
