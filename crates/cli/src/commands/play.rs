//! `nimlab play`: a game against the computer in the terminal.

use super::Context;
use crate::Status;
use nimlab_engine::big::to_small;
use nimlab_engine::plan::{self, write_position};
use nimlab_engine::play::{self, Level};
use nimlab_engine::{Error, Game, Position, Result};
use std::io::{BufRead, Write};

/// Play a game against the computer: you type the position you move to.
#[derive(clap::Args)]
#[command(
    after_help = "Commands while playing: a position to move to (e.g. 2,5), 'moves' (your options with their values), 'hint', 'undo', 'quit'.\n\nExamples:\n  nimlab play wythoff 5,8\n  nimlab play nim 3,4,5 --first computer\n  nimlab play 'fibonacci-nim(k=2)' 20 --level easy\n  nimlab play 'nplayer-nim(n=3)' 3,4,5   # you and two computer players"
)]
pub struct PlayArgs {
    /// Game, e.g. wythoff, 'ryuoh(p=3)', nim.
    #[arg(value_name = "GAME")]
    game: String,
    /// The starting position, e.g. 5,8.
    #[arg(value_name = "POSITION")]
    position: String,
    /// Who moves first.
    #[arg(long, value_enum, default_value = "me")]
    first: First,
    /// How well the computer plays: perfect (wins whenever it can, else makes the game
    /// last longest) or easy (half of its moves at random).
    #[arg(long, value_enum, default_value = "perfect")]
    level: LevelArg,
    /// Seed of the easy level's random moves (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum First {
    /// You move first.
    Me,
    /// The computer moves first.
    Computer,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum LevelArg {
    Perfect,
    Easy,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Turn {
    Human,
    Computer,
}

fn text(game: &dyn Game, p: &[u64]) -> String {
    let big: Vec<_> = p
        .iter()
        .map(|&c| c.into())
        .collect::<Vec<num_bigint::BigUint>>();
    write_position(game, &big)
}

pub fn run(ctx: &Context, args: PlayArgs) -> Result<Status> {
    let game = nimlab_games::source::load(Some(&args.game), None)?.game;
    let game = &*game;
    let big = plan::read_position(game, &args.position)?;
    let start = to_small(&big).ok_or_else(|| Error::input("play needs coordinates below 2^64"))?;
    game.check_position(&start)?;
    // n-player games: you hold one seat, the computer every other.
    let ranking = game.capabilities().nplayer.map(|r| r.ranking.clone());
    let players = ranking.as_ref().map_or(2, |r| r.players());
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    let io = |e: std::io::Error| Error::input(format!("cannot write standard output: {e}"));
    let opts = ctx.table_options();
    let level_of = |n: u64| match args.level {
        LevelArg::Perfect => Level::Perfect,
        LevelArg::Easy => Level::Easy {
            seed: seed.wrapping_add(n),
        },
    };
    // The computer's first move before the banner: a position it cannot play from (too
    // large, refused) is one error line with nothing on standard output.
    let mut first_move = None;
    if args.first == First::Computer && !play::legal_moves(game, &start).is_empty() {
        first_move = play::computer_move(game, &start, level_of(0), &opts)?;
    }
    if crate::sink::stdout_closed() {
        return Err(io(crate::sink::closed_stdout_error()));
    }
    writeln!(
        out,
        "{} from {}; {} first. Type the position you move to, or: moves, hint, undo, quit.",
        game.spec(),
        text(game, &start),
        if args.first == First::Me {
            "you move"
        } else {
            "the computer moves"
        }
    )
    .map_err(io)?;
    let mut pos: Position = game.canonical(&start).unwrap_or(start);
    // Seats in order of play; `seat` is the one to move.
    let you = match args.first {
        First::Me => 0,
        First::Computer => 1,
    };
    let mut seat = 0usize;
    let turn_of = |seat: usize| {
        if seat == you {
            Turn::Human
        } else {
            Turn::Computer
        }
    };
    // Positions before each move, with who was to move: undo goes back to the last
    // position where it was your turn.
    let mut history: Vec<(Position, usize)> = Vec::new();
    let mut computer_moves = 0u64;
    loop {
        let options = play::legal_moves(game, &pos);
        if options.is_empty() {
            if let Some(ranking) = &ranking {
                // A position with no move has class 0: read off every seat's rank.
                let ranks = ranking.ranks(0);
                let yours = ranks[(you + players - seat) % players];
                writeln!(
                    out,
                    "No move is left at {}. You rank {yours} of {players}.",
                    text(game, &pos)
                )
                .map_err(io)?;
                return Ok(Status::Ok);
            }
            let mover_wins = play::mover_wins_at_end(game);
            let you_win = (turn_of(seat) == Turn::Human) == mover_wins;
            writeln!(
                out,
                "No move is left at {}. {}",
                text(game, &pos),
                if you_win {
                    "You win."
                } else {
                    "The computer wins."
                }
            )
            .map_err(io)?;
            return Ok(Status::Ok);
        }
        if turn_of(seat) == Turn::Computer {
            let level = level_of(computer_moves);
            computer_moves += 1;
            let m = match first_move.take() {
                Some(m) => m,
                None => play::computer_move(game, &pos, level, &opts)?.ok_or_else(|| {
                    Error::Contract("no computer move from a position with options".into())
                })?,
            };
            let who = if players > 2 {
                format!("computer (player {})", seat + 1)
            } else {
                "computer".to_string()
            };
            writeln!(
                out,
                "{who}: {} -> {}   ({})",
                text(game, &m.from),
                text(game, &m.to),
                m.explanation
            )
            .map_err(io)?;
            history.push((pos.clone(), seat));
            pos = m.to;
            seat = (seat + 1) % players;
            continue;
        }
        write!(out, "your move from {}> ", text(game, &pos)).map_err(io)?;
        out.flush().map_err(io)?;
        let mut line = String::new();
        let read = input
            .read_line(&mut line)
            .map_err(|e| Error::input(format!("cannot read standard input: {e}")))?;
        if read == 0 {
            writeln!(out, "\nbye").map_err(io)?;
            return Ok(Status::Ok);
        }
        let line = line.trim();
        match line {
            "" => continue,
            "quit" | "q" | "exit" => {
                writeln!(out, "bye").map_err(io)?;
                return Ok(Status::Ok);
            }
            "help" | "?" => {
                writeln!(
                    out,
                    "Type the position you move to (e.g. {}), or: moves, hint, undo, quit.",
                    text(game, &options[0])
                )
                .map_err(io)?;
            }
            "undo" | "u" => {
                let back = history.iter().rposition(|(_, s)| *s == you);
                match back {
                    Some(i) => {
                        pos = history[i].0.clone();
                        seat = you;
                        history.truncate(i);
                        writeln!(out, "back at {}", text(game, &pos)).map_err(io)?;
                    }
                    None => writeln!(out, "nothing to undo").map_err(io)?,
                }
            }
            "moves" | "m" | "hint" | "h" => {
                let big: Vec<num_bigint::BigUint> = pos.iter().map(|&c| c.into()).collect();
                let r = plan::moves(game, &big, &opts)?;
                if line.starts_with('h') {
                    match r.winning_moves.first() {
                        Some(m) => writeln!(out, "hint: move to {}", write_position(game, m)),
                        None => writeln!(
                            out,
                            "hint: no winning move here; take little and hope for a mistake"
                        ),
                    }
                    .map_err(io)?;
                    continue;
                }
                if let Some(np) = &r.nplayer {
                    for (o, class) in np.options.iter().flatten() {
                        writeln!(
                            out,
                            "  {}  class {class}  (you would rank {})",
                            write_position(game, o),
                            np.best_rank_after(*class)
                        )
                        .map_err(io)?;
                    }
                }
                for o in r.options.iter().flatten().filter(|_| r.nplayer.is_none()) {
                    writeln!(
                        out,
                        "  {}  grundy {}{}",
                        write_position(game, &o.position),
                        o.grundy.as_ref().map_or("?".to_string(), |g| g.to_string()),
                        if o.winning { "  <- winning" } else { "" }
                    )
                    .map_err(io)?;
                }
                if let Some(note) = &r.options_note {
                    writeln!(out, "  {note}").map_err(io)?;
                }
            }
            _ => {
                let target = plan::read_position(game, line)
                    .ok()
                    .and_then(|b| to_small(&b))
                    .and_then(|t| play::find_move(game, &pos, &t));
                match target {
                    Some(to) => {
                        history.push((pos.clone(), seat));
                        pos = to;
                        seat = (seat + 1) % players;
                    }
                    None => writeln!(
                        out,
                        "'{}' is not a legal move from {} (type 'moves' to list them)",
                        line.chars().take(40).collect::<String>(),
                        text(game, &pos)
                    )
                    .map_err(io)?,
                }
            }
        }
    }
}
