//! `nimlab draw`: a picture of a position — a chocolate bar as the papers draw it, or a
//! two-coordinate game as a board with the piece and the P-positions.

use super::{Context, OutputArgs};
use crate::picture::scenes::{self, BarView, BoardView, CellsView, MAX_SIDE};
use crate::picture::{raster, svg, text};
use crate::Status;
use nimlab_engine::game::format_position;
use nimlab_engine::{parse_position, plan, Coord, Error, Game, Position, Result};
use std::io::Write;

/// Draw a position: a chocolate bar (squares, bitter square, staircase outline of f,
/// numbered columns and rows) or a two-coordinate game as a board (piece, P-positions).
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  nimlab draw 'chocolate-staircase(f=t/2)' 4,9\n  nimlab draw 'chocolate-staircase(f=t/4)' 3,13 --output bar.svg\n  nimlab draw 'chocolate-staircase(f=t/2)' 2,5 --move 1,3 --output move.png\n  nimlab draw chocolate 3,3,2\n  nimlab draw wythoff 5,8 --move 4,7"
)]
pub struct DrawArgs {
    /// Game, e.g. 'chocolate-staircase(f=t/2)', chocolate, wythoff, 'ryuoh(p=3)', nim.
    #[arg(value_name = "GAME")]
    game: String,
    /// Position, e.g. 4,9 (y,z of a staircase bar) or 3,5 (a board).
    #[arg(value_name = "POSITION")]
    position: String,
    /// Also show one move: the squares it eats (a bar) or its arrow (a board).
    #[arg(long = "move", value_name = "POSITION")]
    to: Option<String>,
    /// Picture format (default: from the --output extension, .svg or .png; else a
    /// text drawing).
    #[arg(long, value_enum)]
    format: Option<DrawFormat>,
    #[command(flatten)]
    out: OutputArgs,
}

/// Picture formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DrawFormat {
    /// A text drawing (two characters per square).
    Text,
    /// Scalable vector graphics.
    Svg,
    /// A PNG image (needs --output).
    Png,
}

/// What to draw.
enum Picture {
    Bar(
        nimlab_engine::picture::ColumnsPicture,
        Vec<(i64, u64)>,
        Option<String>,
    ),
    Board(BoardView),
}

fn too_large(pos: &[Coord]) -> Error {
    Error::input(format!(
        "{} is too large to draw (coordinates up to {MAX_SIDE})",
        format_position(pos)
    ))
}

/// The picture of a position written in the game's own form (a board, a bar of any
/// shape, a set of vertices), and of one move from it.
fn own_form_view(game: &dyn Game, position: &str, to: Option<&str>) -> Result<CellsView> {
    let read = |text: &str| -> Result<Position> {
        let big = plan::read_position(game, text)?;
        let small = nimlab_engine::big::to_small(&big)
            .ok_or_else(|| Error::input("not a position of this game"))?;
        game.check_position(&small)?;
        Ok(small)
    };
    let pos = read(position)?;
    let shown = |p: &[Coord]| {
        let big: Vec<nimlab_engine::big::BigUint> = p.iter().map(|&c| c.into()).collect();
        game.show_position(&big)
    };
    let next = to.map(read).transpose()?;
    if let Some(n) = &next {
        let mut found = false;
        game.for_each_option(&pos, &mut |o| found |= o == &n[..]);
        if !found {
            return Err(Error::input(format!(
                "{} is not one move from {} in {}",
                shown(n).text(),
                shown(&pos).text(),
                game.spec()
            )));
        }
    }
    CellsView::new(
        &shown(&pos),
        next.as_deref().map(&shown).as_ref(),
        format!("{} at {}", game.spec(), shown(&pos).text()),
    )
    .ok_or_else(|| {
        Error::input(format!(
            "cannot draw {}: its positions are neither pictures nor vertex sets",
            game.spec()
        ))
    })
}

/// Checks that `next` is one move from `pos`.
fn check_move(game: &dyn Game, pos: &[Coord], next: &[Coord]) -> Result<()> {
    game.check_position(next)?;
    let mut found = false;
    game.for_each_option(pos, &mut |o| found |= o == next);
    if found {
        Ok(())
    } else {
        Err(Error::input(format!(
            "{} is not one move from {} in {}",
            format_position(next),
            format_position(pos),
            game.spec()
        )))
    }
}

fn picture(ctx: &Context, game: &dyn Game, pos: &[Coord], to: Option<&[Coord]>) -> Result<Picture> {
    game.check_position(pos)?;
    if pos.iter().chain(to.unwrap_or(&[])).any(|&c| c > MAX_SIDE) {
        return Err(too_large(pos));
    }
    if let Some(next) = to {
        check_move(game, pos, next)?;
    }
    let caps = game.capabilities();
    if let Some(bars) = caps.columns_picture {
        let bar = bars.columns_picture(pos)?;
        let (eaten, caption) = match to {
            Some(next) => {
                let after = bars.columns_picture(next)?;
                let eaten = bar.eaten_by(&after);
                let n = eaten.len();
                (
                    eaten,
                    Some(format!(
                        "move to {}: eats {n} square{}",
                        format_position(next),
                        if n == 1 { "" } else { "s" }
                    )),
                )
            }
            None => (Vec::new(), None),
        };
        return Ok(Picture::Bar(bar, eaten, caption));
    }
    if pos.len() != 2 {
        return Err(Error::input(format!(
            "cannot draw {}: pictures are of chocolate bars and of two-coordinate games (boards)",
            game.spec()
        )));
    }
    let target = to.map(|t| (t[0], t[1]));
    let cols = pos[0].max(target.map_or(0, |t| t.0)) + 1;
    let rows = pos[1].max(target.map_or(0, |t| t.1)) + 1;
    let dims = [cols as usize, rows as usize];
    let table = plan::table(game, &dims, &ctx.table_options())?.table;
    let p_positions = table
        .iter()
        .filter(|(_, g)| *g == 0)
        .map(|(p, _)| (p[0], p[1]))
        .collect();
    let names = game.coordinate_names();
    let mut caption = format!("{} at {}", game.spec(), format_position(pos));
    if let Some(t) = to {
        caption.push_str(&format!(", move to {}", format_position(t)));
    }
    Ok(Picture::Board(BoardView {
        cols,
        rows,
        piece: (pos[0], pos[1]),
        target,
        p_positions,
        caption,
        names: (names[0].clone(), names[1].clone()),
    }))
}

pub fn run(ctx: &Context, args: DrawArgs) -> Result<Status> {
    let format = args.out.format(args.format, DrawFormat::Text)?;
    if format == DrawFormat::Png && args.out.output.is_none() {
        return Err(Error::input(
            "--format png writes a binary file: give it with --output FILE (or -o - for standard output)",
        ));
    }
    let game = nimlab_games::parse_game(&args.game)?;
    if !game.form().writes_numbers() {
        // A board, a shape or a graph: drawn from the position as the game shows it.
        let view = own_form_view(&*game, &args.position, args.to.as_deref())?;
        let drawing = text::cells_text(&view);
        let scene = scenes::cells_scene(&view);
        args.out.emit(|out: &mut dyn Write| match format {
            DrawFormat::Text => out.write_all(drawing.as_bytes()),
            DrawFormat::Svg => out.write_all(svg::render(&scene).as_bytes()),
            DrawFormat::Png => raster::write_png(&scene, out),
        })?;
        return Ok(Status::Ok);
    }
    let pos = parse_position(&args.position)?;
    let to: Option<Position> = args.to.as_deref().map(parse_position).transpose()?;
    let picture = picture(ctx, &*game, &pos, to.as_deref())?;
    let scene_and_text = |p: &Picture| match p {
        Picture::Bar(bar, eaten, caption) => {
            let view = BarView {
                bar,
                eaten: eaten.clone(),
                move_caption: caption.clone(),
            };
            (scenes::bar_scene(&view), text::bar_text(&view))
        }
        Picture::Board(view) => (scenes::board_scene(view), text::board_text(view)),
    };
    let (scene, drawing) = scene_and_text(&picture);
    args.out.emit(|out: &mut dyn Write| match format {
        DrawFormat::Text => out.write_all(drawing.as_bytes()),
        DrawFormat::Svg => out.write_all(svg::render(&scene).as_bytes()),
        DrawFormat::Png => raster::write_png(&scene, out),
    })?;
    Ok(Status::Ok)
}
