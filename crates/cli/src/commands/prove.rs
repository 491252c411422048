//! `nimlab prove`: decide a Grundy formula or a P-position predicate for every position,
//! with automata (nimlab_formula::prove).

use super::check::ClaimArgs;
use super::{Context, OutputArgs, PlainFormat};
use crate::Status;
use nimlab_engine::{plan, Error, Result};
use nimlab_formula::check::Claim;
use nimlab_formula::prove::{prove, Numeration, Proof, ProveError, ProveOptions, Verdict};
use nimlab_games::source as game_source;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Prove a formula or a P-position predicate for ALL positions, by automata (the
/// Walnut method); the game must declare its move relation. Exit 0: proved; 1: false
/// (the least counterexample, re-checked by the solver); 2: bad input or not
/// expressible.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
nimlab prove nim --formula 'x xor y'\n  \
nimlab prove 'ryuoh(p=3)' --formula '(x+y)%3 + 3*((x/3) xor (y/3))'\n  \
nimlab prove 'subtraction(s={1,2,3})' --formula 'n % 4'\n  \
nimlab prove 'fibonacci-nim(k=2)' --p-positions 'heap == 0 || zeck_low(heap) > limit' --numeration fib\n  \
nimlab prove wythoff --p-positions 'min(x,y) == floor_phi(abs(x-y))' --numeration fib --walnut out/\n  \
nimlab prove 'takeaway(dim=2, moves=Cbeta(beta=[(2,3)..]))' --formula 'sigma(beta=[(2,3)..], x, y)' --numeration 'mixed([(2,3)..])'\n\n\
Expressible: + - constants, * / % << >> by constants, comparisons, && || ! if, min max abs;\n\
xor & | in base 2; nimsum_b(b, …) in base b; sigma(beta=[β0,…,b..]) in base b and\n\
sigma(beta=[β0,…,(b0,…,bp)..]) in base b0⋯bp ≤ 16 (= mixed(beta));\n\
zeck_low and floor_phi in Zeckendorf (fib).")]
pub struct ProveArgs {
    #[command(flatten)]
    claim: ClaimArgs,
    /// How the automata read numbers: base2 (default), base-B (B = 2..16), fib
    /// (Zeckendorf: 1, 2, 3, 5, 8, …), mixed(BETA) for an eventually periodic mixed
    /// radix (e.g. mixed([2,3..]) read in base 3, mixed([2,(2,3)..]) in base 6: one
    /// repeating block per digit, the prefix by division).
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
    nimlab_formula::prove::parse_numeration(text)
}

pub fn run(ctx: &Context, args: ProveArgs) -> Result<Status> {
    let format = args.out.format(args.format, PlainFormat::Text)?;
    let source = game_source::load(args.claim.game.as_deref(), args.claim.rules.as_deref())?;
    let game = &*source.game;
    let (claim, text) = nimlab_formula::check::choose_claim(
        args.claim.formula.as_deref(),
        args.claim.p_positions.as_deref(),
        game,
        &nimlab_json::declared(&source),
    )?;
    // Before the proof: a --walnut path that exists must be a directory.
    if let Some(dir) = &args.walnut
        && dir.exists()
        && !dir.is_dir()
    {
        return Err(Error::input(format!(
            "cannot write the Walnut files to {}: it is not a directory (--walnut DIR \
             takes a directory, created if missing)",
            dir.display()
        )));
    }
    let opts = ProveOptions {
        table: ctx.table_options(),
        constants: source.constants.clone(),
    };
    let proof = prove(game, claim, &text, args.numeration, &opts).map_err(|e| match e {
        ProveError::TooLarge(s) => Error::input(format!("too large: {s}")),
        ProveError::Cancelled => Error::Cancelled,
        e => Error::input(e.to_string()),
    })?;
    if let Some(dir) = &args.walnut {
        write_walnut(dir, &proof)?;
    }
    match format {
        PlainFormat::Json => {
            let value = nimlab_json::proof_json(&proof);
            args.out.emit(|out| ctx.print_json(out, &value))?;
        }
        PlainFormat::Text => args
            .out
            .emit(|out| write_text(out, &proof, args.walnut.as_deref()))?,
    }
    Ok(match proof.verdict {
        Verdict::Proved => Status::Ok,
        Verdict::False(_) => Status::Failed,
        Verdict::Unconfirmed(_) => Status::Unconfirmed,
    })
}

fn write_walnut(dir: &Path, proof: &Proof) -> Result<()> {
    let io =
        |what: &Path, e: std::io::Error| Error::io(format!("cannot write {}", what.display()), e);
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
        nimlab_formula::prove::numeration_name(&p.numeration)
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
            if let Some((at, why)) = &c.confirmed {
                writeln!(out, "re-check:   at {}: {why}", plan::position_text(at))?
            }
        }
        Verdict::Unconfirmed(c) => {
            writeln!(
                out,
                "result:     unconfirmed ({}): the automata report {}, but neither the solver nor exact arithmetic could confirm it, so nothing is claimed",
                c.statement, c.explanation
            )?;
            writeln!(out, "re-check:   {}", c.recheck_note)?;
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
