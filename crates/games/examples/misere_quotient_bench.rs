//! Times misère quotients of a few games (the speed goals of docs/misere.md):
//! `cargo run --release -p nimlab-games --example misere_quotient_bench [CODE MAX_HEAP]…`
//! Without arguments: Dawson's Kayles (0.07) to heaps 26, 30 and 33, Kayles (0.77) to 60.
//!
//! With `NIMLAB_MISERE_SOLVER='CMD'` set, each run is repeated as `CMD CODE MAX_HEAP`
//! (a peer program, e.g. MisereSolver behind a small driver, that prints `|Q| = …` and
//! `|P| = …`); its wall time is measured here, its answer is compared with nimlab's, and
//! the ratio nimlab / peer is printed. The peer gets `NIMLAB_PEER_TIMEOUT` seconds
//! (default 120). For whole-process timings use `farm-bench --vs`.

use nimlab_engine::misere_quotient::{MisereQuotient, QuotientOptions};
use nimlab_games::parse_game;
use std::time::{Duration, Instant};

/// Runs the peer; its wall seconds and `(|Q|, |P|)` read off its output, or why not.
fn peer(cmd: &str, code: &str, max: u64, limit: Duration) -> Result<(f64, usize, usize), String> {
    let mut words = cmd.split_whitespace();
    let prog = words.next().ok_or("empty peer command")?;
    let t = Instant::now();
    let mut child = std::process::Command::new(prog)
        .args(words)
        .arg(code)
        .arg(max.to_string())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("peer did not start: {e}"))?;
    loop {
        if child.try_wait().map_err(|e| e.to_string())?.is_some() {
            break;
        }
        if t.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("peer did not finish in {} s", limit.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let secs = t.elapsed().as_secs_f64();
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&out.stdout);
    let num = |key: &str| -> Option<usize> {
        let i = text.rfind(key)? + key.len();
        text[i..]
            .trim_start()
            .split(|c: char| !c.is_ascii_digit())
            .next()?
            .parse()
            .ok()
    };
    match (num("|Q| ="), num("|P| =")) {
        (Some(q), Some(p)) => Ok((secs, q, p)),
        _ => Err(format!("peer printed no |Q| and |P|: {}", text.trim())),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs: Vec<(String, u64)> = if args.len() >= 2 {
        args.chunks(2)
            .map(|c| {
                (
                    c[0].clone(),
                    c.get(1).and_then(|n| n.parse().ok()).unwrap_or(30),
                )
            })
            .collect()
    } else {
        vec![
            ("0.07".into(), 26),
            ("0.07".into(), 30),
            ("0.07".into(), 33),
            ("0.77".into(), 60),
        ]
    };
    let peer_cmd = std::env::var("NIMLAB_MISERE_SOLVER").ok();
    let limit = Duration::from_secs(
        std::env::var("NIMLAB_PEER_TIMEOUT")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(120),
    );
    for (code, max) in runs {
        let game = parse_game(&format!("octal(code={code})")).expect("an octal code");
        let t = Instant::now();
        let q = MisereQuotient::of_game(game.as_ref(), max, &QuotientOptions::default());
        let s = t.elapsed().as_secs_f64();
        let ours = match &q {
            Ok(q) => {
                println!(
                    "{code} to heap {max}: |Q| = {}, |P| = {}, changes at {:?}: {s:.3} s",
                    q.size(),
                    q.p_size(),
                    q.changes
                );
                Some((q.size(), q.p_size()))
            }
            Err(e) => {
                println!("{code} to heap {max}: {e} ({s:.3} s)");
                None
            }
        };
        if let Some(cmd) = &peer_cmd {
            match peer(cmd, &code, max, limit) {
                Ok((ps, pq, pp)) => {
                    let agree = match ours {
                        Some(o) if o == (pq, pp) => "same |Q|, |P|".to_string(),
                        Some(_) => format!("DIFFERENT: peer |Q| = {pq}, |P| = {pp}"),
                        None => format!("peer |Q| = {pq}, |P| = {pp}"),
                    };
                    println!(
                        "    peer: {ps:.3} s wall (with its start-up), {agree}; nimlab / peer = {:.3}",
                        s / ps
                    );
                }
                Err(e) => println!("    peer: {e}"),
            }
        }
    }
}
