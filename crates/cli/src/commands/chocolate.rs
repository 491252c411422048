//! `nimlab chocolate condition`: condition (a) of a staircase function f, and where
//! G({y, z}) first differs from y ⊕ z — two answers the theorem says agree.

use super::{Context, OutputArgs, PlainFormat};
use crate::Status;
use nimlab_engine::Result;
use nimlab_games::chocolate_staircase::{check_condition, ConditionReport};
use nimlab_json::doc::to_value;
use nimlab_json::reports::ChocolateConditionDoc;
use std::io::Write;

/// Staircase chocolate bars CB(f, y, z).
#[derive(clap::Args)]
pub struct ChocolateArgs {
    #[command(subcommand)]
    action: Action,
}

#[derive(clap::Subcommand)]
enum Action {
    /// Test condition (a) for f on [0, N) and compare G({y,z}) with y ⊕ z for z < N;
    /// exit 1 if the two answers disagree (they never should).
    #[command(
        after_help = "Examples:\n  nimlab chocolate condition --f 't/2' --up-to 256\n  nimlab chocolate condition --f 't/3' --up-to 64 --format json\n  nimlab chocolate condition --f '2^floor_log2(max(t,1)) - 1' --up-to 1024"
    )]
    Condition {
        /// f as a formula in t, non-decreasing and ≥ 0, e.g. t/2.
        #[arg(long = "f", value_name = "EXPR", allow_hyphen_values = true)]
        f: String,
        /// The window: f on [0, N), positions with z < N (`--window` is the old
        /// spelling).
        #[arg(
            long = "up-to",
            value_name = "N",
            default_value_t = 256,
            alias = "window"
        )]
        window: u64,
        /// Output format (default: from the --output extension, else text).
        #[arg(long, value_enum)]
        format: Option<PlainFormat>,
        #[command(flatten)]
        out: OutputArgs,
    },
}

fn write_text(out: &mut dyn Write, f: &str, r: &ConditionReport) -> std::io::Result<()> {
    let shown: Vec<String> = r.values.iter().take(16).map(u64::to_string).collect();
    writeln!(out, "f(t):          {f}")?;
    writeln!(
        out,
        "window:        t < {} (f = {}{})",
        r.window,
        shown.join(" "),
        if r.values.len() > 16 { " …" } else { "" }
    )?;
    match &r.witness {
        None => writeln!(out, "condition (a): holds on [0, {})", r.window)?,
        Some(w) => writeln!(out, "condition (a): fails: {}", w.describe())?,
    }
    match r.mismatch {
        None => writeln!(
            out,
            "G = y xor z:   holds at all {} positions with z < {}",
            r.checked, r.window
        )?,
        Some((y, z, g)) => writeln!(
            out,
            "G = y xor z:   fails first at {{{y},{z}}}: G = {g}, y xor z = {}",
            y ^ z
        )?,
    }
    writeln!(
        out,
        "agreement:     {}",
        match (r.agrees(), &r.witness) {
            (true, None) => "yes: (a) holds and G = y xor z everywhere".to_string(),
            (true, Some(w)) => format!(
                "yes: (a) first fails at w = {}, the column of the first mismatch",
                w.w
            ),
            (false, _) =>
                "NO: this contradicts theorem chocolate-staircase.condition-a".to_string(),
        }
    )
}

pub fn run(ctx: &Context, args: ChocolateArgs) -> Result<Status> {
    match args.action {
        Action::Condition {
            f,
            window,
            format,
            out,
        } => {
            let format = out.format(format, PlainFormat::Text)?;
            let r = check_condition(&f, window, ctx.memory_limit)?;
            let f = f.trim();
            out.emit(|o| match format {
                PlainFormat::Json => {
                    ctx.print_json(o, &to_value(&ChocolateConditionDoc::new(f, &r)))
                }
                PlainFormat::Text => write_text(o, f, &r),
            })?;
            Ok(if r.agrees() {
                Status::Ok
            } else {
                Status::Failed
            })
        }
    }
}
