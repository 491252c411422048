//! Times misère quotients of a few games (the speed goals of docs/misere.md):
//! `cargo run --release -p nimlab-games --example misere_quotient_bench [CODE MAX_HEAP]…`
//! Without arguments: Dawson's Kayles (0.07) to heaps 20 and 25, Kayles (0.77) to 60.

use nimlab_engine::misere_quotient::{MisereQuotient, QuotientOptions};
use nimlab_games::parse_game;

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
            ("0.07".into(), 20),
            ("0.07".into(), 25),
            ("0.77".into(), 60),
        ]
    };
    for (code, max) in runs {
        let game = parse_game(&format!("octal(code={code})")).expect("an octal code");
        let t = std::time::Instant::now();
        let q = MisereQuotient::of_game(game.as_ref(), max, &QuotientOptions::default());
        let s = t.elapsed().as_secs_f64();
        match q {
            Ok(q) => println!(
                "{code} to heap {max}: |Q| = {}, |P| = {}, changes at {:?}: {s:.3} s",
                q.size(),
                q.p_size(),
                q.changes
            ),
            Err(e) => println!("{code} to heap {max}: {e} ({s:.3} s)"),
        }
    }
}
