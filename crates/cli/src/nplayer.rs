//! Printing the answers about n-player games (`value`, `moves`): class, every player's
//! rank and best moves instead of a Grundy value.

use crate::output::NOT_A_POSITION_RGB;
use nimlab_engine::big::BigUint;
use nimlab_engine::nplayer::ClassReport;
use nimlab_engine::plan::{write_position, PositionReport};
use nimlab_engine::Game;
use std::io::{self, Write};

/// `1st`, `2nd`, `3rd`, `4th`, …
fn ordinal(r: usize) -> String {
    let suffix = match (r % 10, r % 100) {
        (1, x) if x != 11 => "st",
        (2, x) if x != 12 => "nd",
        (3, x) if x != 13 => "rd",
        _ => "th",
    };
    format!("{r}{suffix}")
}

pub fn write_text(
    out: &mut dyn Write,
    game: &dyn Game,
    r: &PositionReport,
    np: &ClassReport,
    options: bool,
) -> io::Result<()> {
    let n = np.players;
    // Positions as people write them (the parts of a sum separated by ';').
    let position_text = |p: &[BigUint]| write_position(game, p);
    writeln!(out, "game:     {}", game.spec())?;
    writeln!(out, "position: {}", position_text(&r.position))?;
    writeln!(out, "players:  {n} (ranking {})", np.ranking)?;
    writeln!(
        out,
        "class:    {} (moves still to be played, mod {n})",
        np.class
    )?;
    writeln!(
        out,
        "rank:     {} of {n} for the player to move{}",
        ordinal(np.ranks[0]),
        if np.ranks[0] == n { " (last)" } else { "" }
    )?;
    let ranks: Vec<String> = np
        .ranks
        .iter()
        .enumerate()
        .map(|(t, &rank)| format!("P{} {}", t + 1, ordinal(rank)))
        .collect();
    writeln!(
        out,
        "ranks:    {}   (P1 moves now, P2 next, …)",
        ranks.join(", ")
    )?;
    if np.best_moves.is_empty() {
        writeln!(out, "best moves: none (no move is left)")?;
    } else {
        let w: Vec<String> = np.best_moves.iter().map(|m| position_text(m)).collect();
        writeln!(
            out,
            "best move{}: {}",
            if np.all_best_moves {
                "s"
            } else {
                " (some of them)"
            },
            w.join("  ")
        )?;
    }
    if let (true, Some(list)) = (options, &np.options) {
        writeln!(out, "options:  {}", list.len())?;
        let width = list
            .iter()
            .map(|(p, _)| position_text(p).len())
            .max()
            .unwrap_or(0);
        let best = list.iter().map(|(_, c)| np.best_rank_after(*c)).min();
        for (p, c) in list {
            let rank = np.best_rank_after(*c);
            writeln!(
                out,
                "  {:width$}  class {c}  → P1 ranks {}{}",
                position_text(p),
                ordinal(rank),
                if Some(rank) == best { "  ← best" } else { "" }
            )?;
        }
    } else if let (true, Some(note)) = (options, &r.options_note) {
        writeln!(out, "options:  {note}")?;
    }
    writeln!(out, "method:   {} — {}", r.method.id(), r.method.detail)
}

/// One colour per class (a qualitative palette, repeated past twelve players).
const CLASS_RGB: [[u8; 3]; 12] = [
    [31, 119, 180],
    [255, 127, 14],
    [44, 160, 44],
    [214, 39, 40],
    [148, 103, 189],
    [140, 86, 75],
    [227, 119, 194],
    [188, 189, 34],
    [23, 190, 207],
    [255, 187, 120],
    [152, 223, 138],
    [255, 152, 150],
];

/// The colour of class `c` ([`nimlab_engine::INVALID`]: grey).
pub fn class_colour(c: u32) -> [u8; 3] {
    if c == nimlab_engine::INVALID {
        NOT_A_POSITION_RGB
    } else {
        CLASS_RGB[c as usize % CLASS_RGB.len()]
    }
}

/// Writes a class table (one or two coordinates) as a PNG, one pixel per cell, one
/// colour per class; `(w32, h32)` from [`crate::output::png_size`].
pub fn write_class_png(
    table: &nimlab_engine::GrundyTable,
    players: usize,
    w32: u32,
    h32: u32,
    out: &mut dyn Write,
) -> io::Result<()> {
    let legend: Vec<String> = (0..players as u32)
        .map(|c| {
            let [r, g, b] = class_colour(c);
            format!("class {c} = #{r:02x}{g:02x}{b:02x}")
        })
        .collect();
    crate::output::write_cells_png(
        table,
        (w32, h32),
        format!(
            "n-player classes ({players} players): {}; grey = not a position",
            legend.join(", ")
        ),
        class_colour,
        out,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_get_distinct_colours() {
        let colours: std::collections::HashSet<[u8; 3]> = (0..12).map(class_colour).collect();
        assert_eq!(colours.len(), 12);
        assert_eq!(class_colour(nimlab_engine::INVALID), NOT_A_POSITION_RGB);
        assert_eq!(ordinal(1), "1st");
        assert_eq!(ordinal(12), "12th");
        assert_eq!(ordinal(23), "23rd");
    }
}
