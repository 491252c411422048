//! `nimlab certify FILE`: re-checks an octal periodicity certificate with the
//! independent checker ([`nimlab_octal::check`]).

use super::{Context, OutputArgs, PlainFormat};
use crate::Status;
use nimlab_engine::Result;
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
    // Read within the memory limit: `certify /dev/zero` must not fill memory first.
    let text = super::read_input(&args.file, ctx.memory_limit)?;
    let verdict = nimlab_json::certificate::check(&text, &name, &ctx.table_options())?;
    let doc = nimlab_json::doc::CertifyDoc::new(&name, &verdict);
    let claim = &verdict.certificate.claim;
    let bound = verdict.bound;
    args.out.emit(|out| match format {
        PlainFormat::Json => ctx.print_json(out, &nimlab_json::doc::to_value(&doc)),
        PlainFormat::Text => match &verdict.refuted {
            None => writeln!(
                out,
                "{name}: holds — {}: preperiod {}, period {} (least), every value checked below the Guy–Smith bound {bound}",
                doc.game, claim.preperiod, claim.period
            ),
            Some(why) => writeln!(out, "{name}: FALSE — {}: {why}", doc.game),
        },
    })?;
    Ok(if doc.holds {
        Status::Ok
    } else {
        Status::Failed
    })
}
