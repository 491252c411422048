//! Octal census figures (harness = false): the long certificates `.376` and `.354`,
//! Grundy's game to 2^22, 2^24 (and 2^26 when named), and the census of every 0.??? code to 2^16.
//!
//! `cargo bench -p nimlab-bench --bench census` runs everything (minutes); set
//! `NIMLAB_BENCH=376,354,grundy22,grundy24,grundy26,census` to choose rows. The census row runs on every
//! core (rayon).

use nimlab_engine::NoProgress;
use nimlab_games::grundy_game;
use nimlab_games::octal::Octal;
use nimlab_octal::takebreak::TakeBreak;
use std::time::Instant;

fn wanted(row: &str) -> bool {
    match std::env::var("NIMLAB_BENCH") {
        Ok(list) => list.split(',').any(|r| r.trim() == row),
        Err(_) => true,
    }
}

fn certify(code: &str) {
    let game = Octal::parse(code, 8).expect("valid code");
    let t = Instant::now();
    let found = game.rules().search_period(1 << 26, &NoProgress);
    let secs = t.elapsed().as_secs_f64();
    let per = found.period.as_ref().expect("certified");
    println!(
        "{code}: certified preperiod {} period {} in {secs:.2} s ({} terms, {} rare, split {:?}, max value {})",
        per.preperiod,
        per.period,
        found.values.len(),
        found.rare_count,
        found.split,
        found.max_value
    );
    // The independent checker on the same claim (what `nimlab certify` runs).
    let claim = nimlab_octal::check::Claim {
        digits: game.rules().digits().to_vec(),
        preperiod: per.preperiod,
        period: per.period,
        values: per.values.clone(),
        mask: None,
    };
    let t = Instant::now();
    let verdict = nimlab_octal::check::check(&claim);
    println!(
        "{code}: independent check {} in {:.2} s",
        if verdict.is_ok() { "holds" } else { "FAILED" },
        t.elapsed().as_secs_f64()
    );
}

fn main() {
    if wanted("probe") {
        probe();
        return;
    }
    for code in ["0.376", "0.354"] {
        if wanted(&code[2..]) {
            certify(code);
        }
    }
    if wanted("census") {
        let codes = nimlab_octal::census::codes(3, 8, &[0]).expect("valid shape");
        let solved = std::sync::atomic::AtomicUsize::new(0);
        let t = Instant::now();
        nimlab_octal::census::run(&codes, 8, 1 << 16, &|e| {
            if e.expect("valid code").period.is_some() {
                solved.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
        });
        println!(
            "census of the {} games 0.??? to 2^16 on {} threads: {:.1} s, {} solved",
            codes.len(),
            rayon::current_num_threads(),
            t.elapsed().as_secs_f64(),
            solved.into_inner()
        );
    }
    for bits in [22u32, 24, 26] {
        // 2^26 (minutes) only when asked for by name.
        if !wanted(&format!("grundy{bits}"))
            || (bits == 26 && std::env::var("NIMLAB_BENCH").is_err())
        {
            continue;
        }
        let rules: TakeBreak = grundy_game::rules();
        let t = Instant::now();
        let seq = rules.sparse_sequence(1 << bits);
        println!(
            "grundy-game to 2^{bits}: {:.2} s, max value {}",
            t.elapsed().as_secs_f64(),
            seq.iter().max().unwrap_or(&0)
        );
    }
}

#[allow(dead_code)]
fn probe() {
    for code in ["0.376", "0.354"] {
        let game = Octal::parse(code, 8).expect("valid code");
        for bits in [16u32, 18, 20] {
            let t = Instant::now();
            let mut s = nimlab_octal::takebreak::SparseSequence::new(game.rules().clone());
            s.extend_to(1 << bits);
            println!(
                "{code} 2^{bits}: {:.2} s rare {} split {:?} max {}",
                t.elapsed().as_secs_f64(),
                s.rare_count(),
                s.split(),
                s.values().iter().max().unwrap()
            );
        }
    }
}
