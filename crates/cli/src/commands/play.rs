//! `nimlab play`: a game against the computer in the terminal.

use super::Context;
use crate::Status;
use nimlab_engine::big::to_small;
use nimlab_engine::nplayer::Ranking;
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
    let seats = Seats {
        you: match args.first {
            First::Me => 0,
            First::Computer => 1,
        },
        players: ranking.as_ref().map_or(2, |r| r.players()),
    };
    let seed = args.seed.unwrap_or_else(clock_seed);
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    let opts = ctx.table_options();
    let level_of = |n: u64| level(args.level, seed, n);
    // The computer's first move before the banner: a position it cannot play from (too
    // large, refused) is one error line with nothing on standard output.
    let mut first_move = None;
    if args.first == First::Computer && !play::legal_moves(game, &start).is_empty() {
        first_move = play::computer_move(game, &start, level_of(0), &opts)?;
    }
    if crate::sink::stdout_closed() {
        return Err(io(crate::sink::closed_stdout_error()));
    }
    let who_first = match args.first {
        First::Me => "you move",
        First::Computer => "the computer moves",
    };
    writeln!(
        out,
        "{} from {}; {who_first} first. Type the position you move to, or: moves, hint, undo, quit.",
        game.spec(),
        text(game, &start),
    )
    .map_err(io)?;
    let mut m = Match {
        pos: game.canonical(&start).unwrap_or(start),
        seat: 0,
        history: Vec::new(),
        players: seats.players,
    };
    let mut computer_moves = 0u64;
    loop {
        let options = play::legal_moves(game, &m.pos);
        if options.is_empty() {
            writeln!(
                out,
                "{}",
                game_over(game, &m.pos, ranking.as_ref(), seats, m.seat)
            )
            .map_err(io)?;
            return Ok(Status::Ok);
        }
        if seats.turn_of(m.seat) == Turn::Computer {
            let level = level_of(computer_moves);
            computer_moves += 1;
            let choice = match first_move.take() {
                Some(choice) => choice,
                None => play::computer_move(game, &m.pos, level, &opts)?.ok_or_else(|| {
                    Error::Contract("no computer move from a position with options".into())
                })?,
            };
            writeln!(out, "{}", computer_move_line(game, seats, m.seat, &choice)).map_err(io)?;
            m.play(choice.to);
            continue;
        }
        let Some(line) = read_command(&mut input, &mut out, game, &m.pos)? else {
            writeln!(out, "\nbye").map_err(io)?;
            return Ok(Status::Ok);
        };
        if answer(
            &mut out,
            game,
            &mut m,
            seats,
            line.trim(),
            &options[0],
            &opts,
        )? {
            return Ok(Status::Ok);
        }
    }
}

/// Answers one line of yours at your turn: a command or the position you move to;
/// true when you quit.
fn answer(
    out: &mut impl Write,
    game: &dyn Game,
    m: &mut Match,
    seats: Seats,
    line: &str,
    first_option: &[u64],
    opts: &nimlab_engine::TableOptions<'_>,
) -> Result<bool> {
    match line {
        "" => {}
        "quit" | "q" | "exit" => {
            writeln!(out, "bye").map_err(io)?;
            return Ok(true);
        }
        "help" | "?" => {
            writeln!(
                out,
                "Type the position you move to (e.g. {}), or: moves, hint, undo, quit.",
                text(game, first_option)
            )
            .map_err(io)?;
        }
        "undo" | "u" => {
            if m.undo_to(seats.you) {
                writeln!(out, "back at {}", text(game, &m.pos)).map_err(io)?;
            } else {
                writeln!(out, "nothing to undo").map_err(io)?;
            }
        }
        "moves" | "m" | "hint" | "h" => {
            write_moves(out, game, &m.pos, opts, line.starts_with('h'))?;
        }
        _ => {
            let target = plan::read_position(game, line)
                .ok()
                .and_then(|b| to_small(&b))
                .and_then(|t| play::find_move(game, &m.pos, &t));
            match target {
                Some(to) => m.play(to),
                None => writeln!(
                    out,
                    "'{}' is not a legal move from {} (type 'moves' to list them)",
                    line.chars().take(40).collect::<String>(),
                    text(game, &m.pos)
                )
                .map_err(io)?,
            }
        }
    }
    Ok(false)
}

/// The game in progress: the position, the seat to move (seats in order of play), and
/// the positions before each move with who was to move then.
struct Match {
    pos: Position,
    seat: usize,
    history: Vec<(Position, usize)>,
    players: usize,
}

impl Match {
    /// The seat to move moves to `to`; the next seat is to move.
    fn play(&mut self, to: Position) {
        let from = std::mem::replace(&mut self.pos, to);
        self.history.push((from, self.seat));
        self.seat = (self.seat + 1) % self.players;
    }

    /// Back to the last position where it was `you`'s turn; false when there is none.
    fn undo_to(&mut self, you: usize) -> bool {
        match self.history.iter().rposition(|(_, s)| *s == you) {
            Some(i) => {
                (self.pos, self.seat) = (self.history[i].0.clone(), you);
                self.history.truncate(i);
                true
            }
            None => false,
        }
    }
}

/// Prompts for your move from `pos` and reads a line; `None` at the end of the input.
fn read_command(
    input: &mut impl BufRead,
    out: &mut impl Write,
    game: &dyn Game,
    pos: &[u64],
) -> Result<Option<String>> {
    write!(out, "your move from {}> ", text(game, pos)).map_err(io)?;
    out.flush().map_err(io)?;
    let mut line = String::new();
    let read = input
        .read_line(&mut line)
        .map_err(|e| Error::io("cannot read standard input", e))?;
    Ok((read > 0).then_some(line))
}

/// The computer's level for its `n`-th move (the easy level's random moves differ from
/// one move to the next).
fn level(level: LevelArg, seed: u64, n: u64) -> Level {
    match level {
        LevelArg::Perfect => Level::Perfect,
        LevelArg::Easy => Level::Easy {
            seed: seed.wrapping_add(n),
        },
    }
}

/// The line that shows the computer's move from `seat` (named by seat when more than
/// two play).
fn computer_move_line(game: &dyn Game, seats: Seats, seat: usize, m: &play::MoveChoice) -> String {
    let who = if seats.players > 2 {
        format!("computer (player {})", seat + 1)
    } else {
        "computer".to_string()
    };
    format!(
        "{who}: {} -> {}   ({})",
        text(game, &m.from),
        text(game, &m.to),
        m.explanation
    )
}

/// A failure to write the game to standard output.
fn io(e: std::io::Error) -> Error {
    Error::io("cannot write standard output", e)
}

/// The easy level's seed when none is given: from the clock.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// Who sits where: your seat and how many play.
#[derive(Clone, Copy)]
struct Seats {
    you: usize,
    players: usize,
}

impl Seats {
    fn turn_of(self, seat: usize) -> Turn {
        if seat == self.you {
            Turn::Human
        } else {
            Turn::Computer
        }
    }
}

/// The last line of a game at `pos`, where no move is left and `seat` is to move: your
/// rank with n players, else who wins.
fn game_over(
    game: &dyn Game,
    pos: &[u64],
    ranking: Option<&Ranking>,
    seats: Seats,
    seat: usize,
) -> String {
    if let Some(ranking) = ranking {
        // A position with no move has class 0: read off every seat's rank.
        let players = seats.players;
        let ranks = ranking.ranks(0);
        let yours = ranks[(seats.you + players - seat) % players];
        return format!(
            "No move is left at {}. You rank {yours} of {players}.",
            text(game, pos)
        );
    }
    let mover_wins = play::mover_wins_at_end(game);
    let you_win = (seats.turn_of(seat) == Turn::Human) == mover_wins;
    format!(
        "No move is left at {}. {}",
        text(game, pos),
        if you_win {
            "You win."
        } else {
            "The computer wins."
        }
    )
}

/// Answers 'moves' (every option with its value or class) or 'hint' (one winning move).
fn write_moves(
    out: &mut impl Write,
    game: &dyn Game,
    pos: &[u64],
    opts: &nimlab_engine::TableOptions<'_>,
    hint: bool,
) -> Result<()> {
    let big: Vec<num_bigint::BigUint> = pos.iter().map(|&c| c.into()).collect();
    let r = plan::moves(game, &big, opts)?;
    if hint {
        return match r.winning_moves.first() {
            Some(m) => writeln!(out, "hint: move to {}", write_position(game, m)),
            None => writeln!(
                out,
                "hint: no winning move here; take little and hope for a mistake"
            ),
        }
        .map_err(io);
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
    Ok(())
}
