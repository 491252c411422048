//! `nimlab`: the command line of the nimlab workbench. A thin surface: it parses
//! arguments, calls the engine and the catalog, and prints. It knows no algorithm.

// The doc comments here are `--help` text, where `values[y][x]` is plain text, not a
// rustdoc link.
#![allow(rustdoc::broken_intra_doc_links)]

mod commands;
mod json;
mod nplayer;
mod output;
mod picture;
mod progress;
mod sink;

use clap::{CommandFactory, Parser, Subcommand};
use std::process::ExitCode;

/// nimlab — a workbench for impartial combinatorial games: Sprague–Grundy values,
/// tables, conjecture checks and theorems.
#[derive(Parser)]
#[command(
    name = "nimlab",
    version,
    about,
    after_help = "Examples:\n  nimlab games\n  nimlab value wythoff 3,5\n  nimlab table 'ryuoh(p=3)' --size 13\n  nimlab theorems verify"
)]
struct Cli {
    /// Most memory the computation may use (tables, solvers, searches: the whole
    /// process's working memory), e.g. 512M, 8G (default: half of physical memory).
    #[arg(long, global = true, value_name = "BYTES", value_parser = parse_memory)]
    max_memory: Option<nimlab_engine::MemoryLimit>,

    /// Run brute-force work even when its estimate is very long (over ten minutes).
    #[arg(long, global = true)]
    force: bool,

    /// Indented JSON instead of one compact line.
    #[arg(long, global = true)]
    pretty: bool,

    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Games(commands::games::GamesArgs),
    Value(commands::value::ValueArgs),
    Moves(commands::value::MovesArgs),
    Table(commands::table::TableArgs),
    Theorems(commands::theorems::TheoremsArgs),
    Periodicity(commands::periodicity::PeriodicityArgs),
    Sweep(commands::sweep::SweepArgs),
    Certify(commands::certify::CertifyArgs),
    Census(commands::census::CensusArgs),
    Check(commands::check::CheckArgs),
    Guess(commands::guess::GuessArgs),
    Prove(commands::prove::ProveArgs),
    WythoffPairs(commands::wythoff_pairs::WythoffPairsArgs),
    Chocolate(commands::chocolate::ChocolateArgs),
    Draw(commands::draw::DrawArgs),
    SgSystem(commands::sg_system::SgSystemArgs),
    MisereQuotient(commands::misere_quotient::MisereQuotientArgs),
    Play(commands::play::PlayArgs),
    #[cfg(feature = "serve")]
    Serve(commands::serve::ServeArgs),
    /// Shell completions: `nimlab completions bash > /etc/bash_completion.d/nimlab`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// The manual page (roff): `nimlab man > nimlab.1; man ./nimlab.1`.
    Man,
    #[command(
        about = "The rules-file reference: every key, its type, default and an example",
        long_about = RULES_REFERENCE
    )]
    /// The rules-file reference (also `nimlab help rules`).
    Rules,
}

/// docs/rules.md, shipped in the binary.
const RULES_REFERENCE: &str = include_str!("../../../docs/rules.md");

/// Writes generated text (completions, man page, reference) to standard output.
fn print_generated(
    write: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>,
) -> nimlab_engine::Result<Status> {
    use std::io::Write;
    let mut buffer = Vec::new();
    let io = |e: std::io::Error| nimlab_engine::Error::io("cannot write standard output", e);
    write(&mut buffer).map_err(io)?;
    if sink::stdout_closed() {
        return Err(io(sink::closed_stdout_error()));
    }
    let mut out = std::io::stdout().lock();
    out.write_all(&buffer)
        .and_then(|_| out.flush())
        .map_err(io)?;
    Ok(Status::Ok)
}

/// What a command reports besides its output.
pub enum Status {
    /// Everything held (exit 0).
    Ok,
    /// A check found a counterexample or mismatch (exit 1).
    Failed,
    /// A long run was stopped by Ctrl-C or SIGTERM after saving its state (exit 130).
    Interrupted,
    /// A proof found a violation it could not confirm independently (exit 3): neither
    /// proved nor false.
    Unconfirmed,
}

fn main() -> ExitCode {
    sink::guard_standard_streams();
    sink::quiet_on_closed_pipe();
    install_panic_hook();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return argument_error(e),
    };
    let ctx = match commands::Context::new(cli.max_memory, cli.pretty) {
        Ok(c) => commands::Context {
            force: cli.force,
            ..c
        },
        Err(e) => return fail(&e),
    };
    let result = match cli.command {
        Command::Games(a) => commands::games::run(&ctx, a),
        Command::Value(a) => commands::value::run_value(&ctx, a),
        Command::Moves(a) => commands::value::run_moves(&ctx, a),
        Command::Table(a) => commands::table::run(&ctx, a),
        Command::Theorems(a) => commands::theorems::run(&ctx, a),
        Command::Periodicity(a) => commands::periodicity::run(&ctx, a),
        Command::Sweep(a) => commands::sweep::run(&ctx, a),
        Command::Certify(a) => commands::certify::run(&ctx, a),
        Command::Census(a) => commands::census::run(&ctx, a),
        Command::Check(a) => commands::check::run(&ctx, a),
        Command::Guess(a) => commands::guess::run(&ctx, a),
        Command::Prove(a) => commands::prove::run(&ctx, a),
        Command::WythoffPairs(a) => commands::wythoff_pairs::run(&ctx, a),
        Command::Chocolate(a) => commands::chocolate::run(&ctx, a),
        Command::Draw(a) => commands::draw::run(&ctx, a),
        Command::SgSystem(a) => commands::sg_system::run(&ctx, a),
        Command::MisereQuotient(a) => commands::misere_quotient::run(&ctx, a),
        Command::Play(a) => commands::play::run(&ctx, a),
        #[cfg(feature = "serve")]
        Command::Serve(a) => commands::serve::serve(&ctx, a),
        Command::Completions { shell } => print_generated(|out| {
            clap_complete::generate(shell, &mut Cli::command(), "nimlab", out);
            Ok(())
        }),
        Command::Man => print_generated(|out| clap_mangen::Man::new(Cli::command()).render(out)),
        Command::Rules => print_generated(|out| {
            use std::io::Write;
            out.write_all(RULES_REFERENCE.as_bytes())
        }),
    };
    match result {
        Ok(Status::Ok) => ExitCode::SUCCESS,
        Ok(Status::Failed) => ExitCode::from(1),
        Ok(Status::Interrupted) => ExitCode::from(130),
        Ok(Status::Unconfirmed) => ExitCode::from(3),
        Err(e) => fail(&e),
    }
}

/// `--max-memory` as clap parses it: `512M`, `4G`, `1.5GiB`.
fn parse_memory(text: &str) -> Result<nimlab_engine::MemoryLimit, String> {
    nimlab_engine::MemoryLimit::parse(text).map_err(|e| e.to_string())
}

/// Help and version go to stdout as clap writes them; an argument error becomes one
/// line on stderr (clap's message, its list of missing arguments joined) and exit 2.
fn argument_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = e.print();
        return if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        };
    }
    let text = e.render().to_string();
    // The message is everything before the usage block, on one line.
    let message: Vec<&str> = text
        .lines()
        .take_while(|l| !l.starts_with("Usage:"))
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("For more information"))
        .collect();
    let message = message.join(" ");
    let message = message.strip_prefix("error: ").unwrap_or(&message);
    error_line(&format!("{message} (see nimlab --help)"));
    ExitCode::from(2)
}

/// Writes `nimlab: error: MESSAGE` on stderr. A failed write (stderr on a full disk or
/// closed) is ignored: the exit code still tells, and `eprintln!` would panic instead.
pub fn error_line(message: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "nimlab: error: {}", tidy(message));
}

/// The message as one tidy line: a command-line argument it quotes that is long or
/// holds control characters (a 100 KB formula, an escape sequence) is abbreviated and
/// escaped as specs are (`nimlab_games::spec::show`), and any other control character
/// is escaped, so that an error never floods or drives the terminal.
fn tidy(message: &str) -> String {
    let needs_care = |a: &str| a.chars().count() > 60 || a.chars().any(char::is_control);
    let mut texts: Vec<String> = Vec::new();
    for arg in std::env::args_os().skip(1) {
        let arg = arg.to_string_lossy().into_owned();
        // `--formula=TEXT`: the message quotes TEXT.
        if arg.starts_with("--")
            && let Some((_, value)) = arg.split_once('=')
            && needs_care(value)
        {
            texts.push(value.to_string());
        }
        if needs_care(&arg) {
            texts.push(arg);
        }
    }
    texts.sort_by_key(|t| std::cmp::Reverse(t.len()));
    let mut m = message.to_string();
    for t in &texts {
        if m.contains(t.as_str()) {
            m = m.replace(t.as_str(), &nimlab_games::spec::show(t));
        }
    }
    m.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().collect()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Bad input: one line on stderr, exit code 2, nothing on stdout.
fn fail(e: &nimlab_engine::Error) -> ExitCode {
    // The library says what limit was met; the command line says how to lift it.
    let hint = match e {
        nimlab_engine::Error::TooLarge { .. } => " (raise it with --max-memory)",
        nimlab_engine::Error::TooLong { .. } => "; pass --force to run it anyway",
        _ => "",
    };
    error_line(&format!("{}{hint}", e.describe(&cli_setting)));
    // Stopped (as by Ctrl-C), not refused: the shell's code for SIGINT.
    if matches!(e, nimlab_engine::Error::Cancelled) {
        return ExitCode::from(130);
    }
    ExitCode::from(2)
}

/// A library setting as the command line spells it: `--up-to 5`.
pub fn cli_setting(knob: nimlab_engine::Knob, value: &str) -> String {
    use nimlab_engine::Knob;
    let flag = match knob {
        Knob::UpTo => "--up-to",
        Knob::Size => "--size",
        Knob::Row => "--row",
        Knob::VerifySize => "--verify-size",
        Knob::Max => "--max",
        Knob::SetSize => "--set-size",
        Knob::Base => "--base",
        Knob::Digits => "--digits",
        Knob::Shard => "--shard",
        Knob::MaxMemory => "--max-memory",
        Knob::MaxElements => "--max-elements",
        _ => return format!("{} {value}", knob.id()),
    };
    format!("{flag} {value}")
}

/// The last line of defence: every command writes through a sink that reports failed
/// writes as errors, but should a `print!` still fail (stdout on a full disk), report it
/// as the one-line error with exit code 2 instead of a panic message.
fn install_panic_hook() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if let Some(rest) = message.strip_prefix("failed printing to stdout: ") {
            error_line(&format!("cannot write standard output: {rest}"));
            std::process::exit(2);
        }
        default(info);
    }));
}
