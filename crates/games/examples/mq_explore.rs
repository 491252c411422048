use nimlab_engine::misere_quotient::{MisereQuotient, QuotientOptions};
use nimlab_games::parse_game;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let game = parse_game(&args[1]).unwrap();
    let max: u64 = args[2].parse().unwrap();
    let t = std::time::Instant::now();
    let q = MisereQuotient::of_game(game.as_ref(), max, &QuotientOptions::default());
    match q {
        Ok(q) => println!("{} to {max}: |Q|={} |P|={} changes={:?} gens={:?} {} tame={} in {:?}", args[1], q.size(), q.p_size(), q.changes, q.generator_heaps, q.presentation, q.is_tame(), t.elapsed()),
        Err(e) => println!("{} error {e} in {:?}", args[1], t.elapsed()),
    }
}
