//! `nimlab misere-quotient`: the misère quotient of a take-and-break game's heaps.

use super::{Context, OutputArgs, PlainFormat};
use crate::Status;
use nimlab_engine::misere_quotient::{MisereQuotient, QuotientOptions, MAX_QUOTIENT_HEAP};
use nimlab_engine::monoid::generator_name;
use nimlab_engine::{Error, Game, Progress, Result};

/// The misère quotient (Plambeck–Siegel) of a take-and-break game's heaps 0..=N: a
/// finite commutative monoid, its P-portion, and each heap's element, so that a sum of
/// heaps is a misère P-position exactly when the product of its heaps' elements lies
/// in the P-portion.
///
/// GAME is an octal or hexadecimal code (0.77, or octal(code=0.77)), grundy-game, a
/// rules file with heap options, or any of these inside misere(…). The quotient is
/// built heap by heap; --max-memory bounds its tables.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  nimlab misere-quotient 0.75\n  nimlab misere-quotient 0.77 --max-heap 60\n  nimlab misere-quotient 'octal(code=0.07)' --max-heap 30 --format json"
)]
pub struct MisereQuotientArgs {
    /// Game: an octal code such as 0.77, or a game spec.
    game: String,
    /// Largest heap taken into the quotient.
    #[arg(long, value_name = "N", default_value_t = 30)]
    max_heap: u64,
    /// Most elements of a candidate quotient before giving up.
    #[arg(long, value_name = "K", default_value_t = nimlab_engine::misere_quotient::DEFAULT_MAX_ELEMENTS)]
    max_elements: usize,
    /// Output format (default: from the --output extension, else text).
    #[arg(long, value_enum)]
    format: Option<PlainFormat>,
    #[command(flatten)]
    out: OutputArgs,
}

/// A bare code (`0.77`, `4.07`) stands for its octal game.
pub fn parse_heap_game(text: &str) -> Result<Box<dyn Game>> {
    let t = text.trim();
    let looks_like_code = t.contains('.')
        && t.chars().next().is_some_and(|c| c.is_ascii_digit())
        && t.chars().all(|c| c.is_ascii_hexdigit() || c == '.');
    if looks_like_code {
        return nimlab_games::parse_game(&format!("octal(code={t})"));
    }
    nimlab_games::parse_game(t)
}

pub fn run(ctx: &Context, args: MisereQuotientArgs) -> Result<Status> {
    let format = args.out.format(args.format, PlainFormat::Text)?;
    if args.max_heap > MAX_QUOTIENT_HEAP {
        return Err(Error::input(format!(
            "--max-heap must be at most {MAX_QUOTIENT_HEAP}, got {}",
            args.max_heap
        )));
    }
    if args.max_elements == 0 {
        return Err(Error::input("--max-elements must be at least 1"));
    }
    let game = parse_heap_game(&args.game)?;
    let limits = QuotientOptions {
        memory_limit: ctx.memory_limit,
        max_elements: args.max_elements,
        progress: &ctx.progress,
        time_limit: None,
    };
    let q = MisereQuotient::of_game(game.as_ref(), args.max_heap, &limits);
    ctx.progress.finish();
    let q = q?;
    let spec = game.spec();
    args.out.emit(|out| match format {
        PlainFormat::Json => ctx.print_json(out, &nimlab_json::misere_quotient_json(&spec, &q)),
        PlainFormat::Text => write_text(out, &spec, &q),
    })?;
    Ok(Status::Ok)
}

fn write_text(out: &mut dyn std::io::Write, spec: &str, q: &MisereQuotient) -> std::io::Result<()> {
    writeln!(out, "misère quotient of {spec}, heaps 0..{}", q.max_heap())?;
    writeln!(
        out,
        "|Q| = {}, |P| = {}, {}",
        q.size(),
        q.p_size(),
        if q.is_tame() { "tame" } else { "wild" }
    )?;
    writeln!(out, "presentation: {}", q.presentation)?;
    let gens: Vec<String> = q
        .generator_heaps
        .iter()
        .enumerate()
        .map(|(i, h)| format!("{} = heap {h}", generator_name(i)))
        .collect();
    writeln!(out, "generators: {}", list_or_none(&gens))?;
    let p: Vec<String> = (0..q.size() as u32)
        .filter(|&x| q.p_portion[x as usize])
        .map(|x| q.word(x))
        .collect();
    writeln!(out, "P-portion: {}", list_or_none(&p))?;
    let changes: Vec<String> = q.changes.iter().map(|h| h.to_string()).collect();
    writeln!(
        out,
        "presentation changed at heaps: {}",
        list_or_none(&changes)
    )?;
    writeln!(out)?;
    writeln!(out, "heap  element  outcome  nim")?;
    for (h, &x) in q.heap_elements.iter().enumerate() {
        writeln!(
            out,
            "{h:>4}  {:<7}  {:<7}  {}",
            q.word(x),
            if q.p_portion[x as usize] { "P" } else { "N" },
            q.nim_sequence[h]
        )?;
    }
    Ok(())
}

/// The items joined by commas, or `none` when there are none.
fn list_or_none(items: &[String]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.join(", ")
    }
}
