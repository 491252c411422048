//! `nimlab certify FILE`: re-checks an octal periodicity certificate with the
//! independent checker ([`nimlab_games::octal_check`]).

use super::{Context, OutputArgs, PlainFormat};
use crate::Status;
use nimlab_engine::{Progress, Result};
use serde_json::json;
use std::path::PathBuf;

/// Re-checks a periodicity certificate written by `periodicity --certificate`.
///
/// The values are decoded and matched against their SHA-256, extended periodically
/// to the Guy–Smith bound, and every value below the bound is checked to be the mex
/// of its options by a simple checker that shares no code with the fast solver; then
/// the period and preperiod are checked to be the least. Exit 0: the certificate
/// holds; 1: it is well formed but false (the first failing fact is printed); 2: it is
/// malformed (not JSON, a field missing, values corrupted or truncated).
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  nimlab periodicity 'octal(code=0.137)' --certificate dawson.json\n  nimlab certify dawson.json"
)]
pub struct CertifyArgs {
    /// The certificate file.
    file: PathBuf,
    /// Output format (default: from the --output extension, else text).
    #[arg(long, value_enum)]
    format: Option<PlainFormat>,
    #[command(flatten)]
    out: OutputArgs,
}

pub fn run(ctx: &Context, args: CertifyArgs) -> Result<Status> {
    let format = args.out.format(args.format, PlainFormat::Text)?;
    let name = args.file.display().to_string();
    let text = super::read_input(&args.file, ctx.memory_limit)?;
    let cert = crate::certificate::read(&text, &name, ctx.memory_limit)?;
    let claim = &cert.claim;
    let bound =
        nimlab_games::octal_check::guy_smith_bound(&claim.digits, claim.preperiod, claim.period);
    ctx.progress.start(bound, "heaps checked");
    let mut done = 0;
    let verdict = nimlab_games::octal_check::check_with(claim, &mut |n, _| {
        ctx.progress.advance(n - done);
        done = n;
    });
    ctx.progress.finish();
    let holds = verdict.is_ok();
    args.out.emit(|out| match format {
        PlainFormat::Json => ctx.print_json(
            out,
            &json!({
                "file": name, "game": cert.spec, "holds": holds,
                "preperiod": crate::json::int(claim.preperiod),
                "period": crate::json::int(claim.period),
                "bound": crate::json::int(bound), "sha256": cert.sha256,
                "refuted": verdict.as_ref().err().map(|r| r.to_string()),
            }),
        ),
        PlainFormat::Text => match &verdict {
            Ok(()) => writeln!(
                out,
                "{name}: holds — {}: preperiod {}, period {} (least), every value checked below the Guy–Smith bound {bound}",
                cert.spec, claim.preperiod, claim.period
            ),
            Err(why) => writeln!(out, "{name}: FALSE — {}: {why}", cert.spec),
        },
    })?;
    Ok(if holds { Status::Ok } else { Status::Failed })
}
