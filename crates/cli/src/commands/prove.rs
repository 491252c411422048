//! `nimlab prove`: decide a Grundy formula or a P-position predicate for every position,
//! with automata (nimlab_formula::prove).

use super::{Context, OutputArgs, PlainFormat};
use crate::Status;
use nimlab_engine::{plan, Error, Result};
use nimlab_formula::check::Claim;
use nimlab_formula::prove::{prove, Numeration, Proof, ProveError, ProveOptions, Verdict};
use nimlab_games::source as game_source;
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Prove a formula or a P-position predicate for ALL positions, by automata (the
/// Walnut method). Exit 0: proved; 1: false (the least counterexample, re-checked by
/// the solver); 2: bad input or not expressible.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
nimlab prove nim --formula 'x xor y'\n  \
nimlab prove 'ryuoh(p=3)' --formula '(x+y)%3 + 3*((x/3) xor (y/3))'\n  \
nimlab prove 'subtraction(s={1,2,3})' --formula 'n % 4'\n  \
nimlab prove 'fibonacci-nim(k=2)' --p-positions 'heap == 0 || zeck_low(heap) > limit' --numeration fib\n  \
nimlab prove wythoff --p-positions 'min(x,y) == floor_phi(abs(x-y))' --numeration fib --walnut out/\n\n\
Expressible: + - constants, * / % << >> by constants, comparisons, && || ! if, min max abs;\n\
xor & | in base 2, nimsum_b(b, …) and sigma(beta=[b..]) in base b, sigma(beta=[p,2..]) in base 2;\n\
zeck_low and floor_phi in Zeckendorf (fib).")]
pub struct ProveArgs {
    /// Game, e.g. 'ryuoh(p=4)' (it must declare its move relation).
    #[arg(required_unless_present = "rules", conflicts_with = "rules")]
    game: Option<String>,
    /// Take the game from a rules file (TOML) instead of the catalog.
    #[arg(long, value_name = "FILE")]
    rules: Option<PathBuf>,
    /// The claimed Grundy value.
    #[arg(
        long,
        value_name = "EXPR",
        conflicts_with = "p_positions",
        allow_hyphen_values = true
    )]
    formula: Option<String>,
    /// Instead of a value: a predicate claimed to hold exactly at the P-positions.
    #[arg(long = "p-positions", value_name = "PRED", allow_hyphen_values = true)]
    p_positions: Option<String>,
    /// How the automata read numbers: base2 (default), base-B (B = 2..16), fib
    /// (Zeckendorf: 1, 2, 3, 5, 8, …).
    #[arg(long, value_name = "NUM", default_value = "base2", value_parser = parse_numeration)]
    numeration: Numeration,
    /// Also write the statements as Walnut commands (prove.txt) and the automata in
    /// Walnut's format (NAME.txt) into DIR.
    #[arg(long, value_name = "DIR")]
    walnut: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum)]
    format: Option<PlainFormat>,
    #[command(flatten)]
    out: OutputArgs,
}

/// `base2`, `base-B`, `fib` (also for `theorems prove`).
pub(crate) fn parse_numeration(text: &str) -> std::result::Result<Numeration, String> {
    let t = text.trim().to_ascii_lowercase();
    let bad = || {
        format!(
            "unknown numeration '{text}': use base2, base-B with 2 ≤ B ≤ 16 (e.g. base-3), or fib"
        )
    };
    match t.as_str() {
        "fib" | "zeckendorf" | "fibonacci" => Ok(Numeration::Fib),
        _ => {
            let digits = t
                .strip_prefix("base-")
                .or_else(|| t.strip_prefix("base"))
                .ok_or_else(bad)?;
            let b: u32 = digits.parse().map_err(|_| bad())?;
            if (2..=16).contains(&b) {
                Ok(Numeration::Base(b))
            } else {
                Err(bad())
            }
        }
    }
}

fn numeration_name(n: &Numeration) -> String {
    match n {
        Numeration::Base(2) => "base2".into(),
        Numeration::Base(b) => format!("base-{b}"),
        Numeration::Fib => "fib".into(),
    }
}

pub fn run(ctx: &Context, args: ProveArgs) -> Result<Status> {
    let format = args.out.format(args.format, PlainFormat::Text)?;
    let source = game_source::load(args.game.as_deref(), args.rules.as_deref())?;
    let game = &*source.game;
    let (claim, text) = match (&args.formula, &args.p_positions) {
        (Some(f), _) => (Claim::Grundy, f.clone()),
        (None, Some(p)) => (Claim::PPositions, p.clone()),
        (None, None) => match (&source.closed_form, &source.p_positions) {
            (Some(f), _) => (Claim::Grundy, f.clone()),
            (None, Some(p)) => (Claim::PPositions, p.clone()),
            (None, None) => {
                return Err(Error::input(format!(
                    "give --formula EXPR or --p-positions PRED ({} declares no closed form)",
                    game.spec()
                )))
            }
        },
    };
    let opts = ProveOptions {
        table: ctx.table_options(),
        constants: source.constants.clone(),
    };
    let proof = prove(game, claim, &text, args.numeration, &opts).map_err(|e| match e {
        ProveError::TooLarge(s) => Error::input(format!("too large: {s}")),
        e => Error::input(e.to_string()),
    })?;
    if let Some(dir) = &args.walnut {
        write_walnut(dir, &proof)?;
    }
    match format {
        PlainFormat::Json => {
            let value = proof_json(&proof);
            args.out.emit(|out| ctx.print_json(out, &value))?;
        }
        PlainFormat::Text => args
            .out
            .emit(|out| write_text(out, &proof, args.walnut.as_deref()))?,
    }
    Ok(match proof.verdict {
        Verdict::Proved => Status::Ok,
        Verdict::False(_) => Status::Failed,
    })
}

fn write_walnut(dir: &Path, proof: &Proof) -> Result<()> {
    let io = |what: &Path, e: std::io::Error| {
        Error::input(format!("cannot write {}: {e}", what.display()))
    };
    std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let mut files = proof.walnut_automata();
    files.push(("prove.txt".into(), proof.walnut_commands()));
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| io(&path, e))?;
    }
    Ok(())
}

fn write_text(out: &mut dyn Write, p: &Proof, walnut: Option<&Path>) -> std::io::Result<()> {
    writeln!(out, "game:       {}", p.game)?;
    match p.claim {
        Claim::Grundy => writeln!(out, "claim:      G = {}", p.formula)?,
        Claim::PPositions => writeln!(out, "claim:      P iff {}", p.formula)?,
    }
    writeln!(
        out,
        "numeration: {} (msd first)",
        numeration_name(&p.numeration)
    )?;
    writeln!(out, "moves:      {}", p.relation.options)?;
    if let Some(pos) = &p.relation.positions {
        writeln!(out, "positions:  {pos}")?;
    }
    let sizes: Vec<String> = p
        .automata
        .iter()
        .map(|(n, d)| format!("{n} {} states", d.states()))
        .collect();
    writeln!(out, "automata:   {}", sizes.join(", "))?;
    for s in &p.statements {
        writeln!(
            out,
            "  {:<8} {:<6} {:>6} states  {:>8.3} s  {}",
            s.name,
            if s.holds { "holds" } else { "FAILS" },
            s.states,
            s.seconds,
            s.meaning
        )?;
    }
    match &p.verdict {
        Verdict::Proved => writeln!(
            out,
            "result:     proved for all positions ({:.3} s)",
            p.seconds
        )?,
        Verdict::False(c) => {
            writeln!(
                out,
                "result:     false ({}): {}",
                c.statement, c.explanation
            )?;
            match &c.confirmed {
                Some((at, why)) => {
                    writeln!(out, "re-check:   at {}: {why}", plan::position_text(at))?
                }
                None => writeln!(out, "re-check:   not confirmed: {}", c.recheck_note)?,
            }
        }
    }
    if let Some(dir) = walnut {
        writeln!(
            out,
            "walnut:     {} (prove.txt and {} automata)",
            dir.display(),
            p.automata.len()
        )?;
    }
    Ok(())
}

fn proof_json(p: &Proof) -> serde_json::Value {
    let statements: Vec<serde_json::Value> = p
        .statements
        .iter()
        .map(|s| {
            json!({
                "name": s.name,
                "meaning": s.meaning,
                "holds": s.holds,
                "states": s.states,
                "seconds": s.seconds,
                "walnut": s.walnut,
            })
        })
        .collect();
    let automata: Vec<serde_json::Value> = p
        .automata
        .iter()
        .zip(&p.tracks)
        .map(|((n, d), t)| json!({"name": n, "tracks": t, "states": d.states()}))
        .collect();
    let nums = |v: &[nimlab_engine::big::BigUint]| -> Vec<String> {
        v.iter().map(|b| b.to_string()).collect()
    };
    let verdict = match &p.verdict {
        Verdict::Proved => json!({"proved": true}),
        Verdict::False(c) => json!({
            "proved": false,
            "statement": c.statement,
            "position": nums(&c.position),
            "option": c.option.as_deref().map(nums),
            "value": c.value.as_ref().map(|v| v.to_string()),
            "explanation": c.explanation,
            "confirmed": c.confirmed.as_ref().map(|(at, why)| json!({"position": nums(at), "why": why})),
            "recheck": c.recheck_note,
        }),
    };
    json!({
        "game": p.game,
        "claim": match p.claim { Claim::Grundy => "formula", Claim::PPositions => "p_positions" },
        "text": p.formula,
        "numeration": numeration_name(&p.numeration),
        "moves": p.relation.options,
        "positions": p.relation.positions,
        "automata": automata,
        "statements": statements,
        "result": verdict,
        "seconds": p.seconds,
    })
}
