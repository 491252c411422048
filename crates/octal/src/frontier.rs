//! The published frontier of octal games: the list of unsolved games (T. Czajka's table,
//! after A. Flammenkamp's pages; the data file `data/unsolved-octal.txt` names the
//! source), with the figures the source gives for the few it computed, and the figures
//! of a run of ours in the same layout.
//!
//! ```
//! use nimlab_octal::frontier::unsolved;
//! let list = unsolved();
//! assert_eq!(list.len(), 83); // Grundy's game and 82 octal codes
//! assert_eq!(list[0].code, "grundy");
//! assert_eq!(list[0].published.as_ref().unwrap().rare_count, 1274);
//! assert!(list.iter().any(|g| g.code == "4.007"));
//! ```

use crate::game::Octal;
use crate::takebreak::{PeriodSearch, SparseSplit};
use nimlab_engine::{Error, Result};

/// The data file, compiled in.
const DATA: &str = include_str!("../data/unsolved-octal.txt");

/// Figures a table gives for one game: how far it was computed and what the rare values
/// looked like there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Figures {
    /// Terms computed (heaps 0 … n − 1).
    pub n: u64,
    /// The first heap with the largest value.
    pub largest_index: u64,
    /// The largest value.
    pub largest: u32,
    /// The rare mask, the bits whose parity makes a value rare (hex in tables).
    pub rare_mask: u32,
    /// How many heaps have a rare value.
    pub rare_count: u64,
    /// The last heap with a rare value.
    pub last_rare: u64,
}

/// One game of the frontier list.
#[derive(Debug, Clone)]
pub struct FrontierGame {
    /// The code as the source writes it (`.6`, `4.007`), or `grundy`.
    pub code: String,
    /// What the source computed, when it says.
    pub published: Option<Figures>,
}

/// The unsolved games, in the source's order.
pub fn unsolved() -> Vec<FrontierGame> {
    DATA.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut cells = line.split_whitespace();
            let code = cells.next().expect("non-empty line").to_string();
            let rest: Vec<&str> = cells.collect();
            let published = (rest.len() == 6).then(|| {
                let num = |i: usize| rest[i].parse::<u64>().expect("data file: a number");
                Figures {
                    n: num(0),
                    largest_index: num(1),
                    largest: num(2) as u32,
                    rare_mask: u32::from_str_radix(rest[3], 16).expect("data file: hex mask"),
                    rare_count: num(4),
                    last_rare: num(5),
                }
            });
            FrontierGame { code, published }
        })
        .collect()
}

/// The game of a frontier code: `grundy` (or `grundy-game`) is Grundy's game, anything
/// else an octal code (base 8 or 16) such as `.6` or `4.007`.
///
/// ```
/// use nimlab_octal::frontier::game_of;
/// assert_eq!(game_of("grundy", 8).unwrap().spec_text(), "grundy-game");
/// assert_eq!(game_of(".1777", 8).unwrap().spec_text(), "octal(code=0.1777)");
/// assert!(game_of("0.9", 8).is_err());
/// ```
pub fn game_of(code: &str, base: u32) -> Result<Octal> {
    match code.trim() {
        "grundy" | "grundy-game" => Ok(crate::game::grundy_game()),
        c => Octal::parse(c, base),
    }
}

/// Our figures of a computed prefix in the table's layout: the largest value and where
/// it first appears, the rare mask cut to the width of the largest value (the split's
/// mask is infinite), the count (heap 0 included) and last of the rare heaps.
///
/// ```
/// use nimlab_octal::frontier::figures;
/// use nimlab_octal::takebreak::TakeBreak;
/// let grundy = TakeBreak::new(vec![4], true);
/// let found = grundy.search_period(1 << 16, &nimlab_engine::NoProgress);
/// let f = figures(&found.values, found.split, found.rare_count, found.last_rare).unwrap();
/// assert_eq!(f.n, 1 << 16);
/// assert_eq!(f.rare_mask, 0xfe); // Czajka's table: fe
/// assert_eq!(found.values[f.largest_index as usize], f.largest);
/// ```
pub fn figures(
    values: &[u32],
    split: Option<SparseSplit>,
    rare_count: usize,
    last_rare: Option<(u64, u32)>,
) -> Option<Figures> {
    let split = split?;
    let (largest_index, largest) =
        values.iter().enumerate().fold(
            (0, 0),
            |(bi, bv), (i, &v)| if v > bv { (i, v) } else { (bi, bv) },
        );
    let width = (u64::from(largest) + 1).next_power_of_two() - 1;
    // The engine's rare list starts at heap 1; the tables count heap 0 too.
    let zero_rare = values
        .first()
        .is_some_and(|&g0| (g0 & !split.cleared).count_ones() & 1 == split.rare_class);
    Some(Figures {
        n: values.len() as u64,
        largest_index: largest_index as u64,
        largest,
        rare_mask: (!split.cleared) & width as u32,
        rare_count: rare_count as u64 + u64::from(zero_rare),
        last_rare: last_rare.map_or(0, |(i, _)| i),
    })
}

/// [`figures`] of a finished search.
pub fn figures_of(found: &PeriodSearch) -> Option<Figures> {
    figures(
        &found.values,
        found.split,
        found.rare_count,
        found.last_rare,
    )
}

/// Refuses a frontier code list entry that names no game (`--codes` given by hand).
pub fn check_code(code: &str, base: u32) -> Result<()> {
    game_of(code, base).map(|_| ()).map_err(|e| match e {
        Error::Input(m) => Error::input(format!("frontier code '{code}': {m}")),
        other => other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_the_sources() {
        let list = unsolved();
        let codes: Vec<&str> = list.iter().map(|g| g.code.as_str()).collect();
        // Grundy's game, .6 and seven 2-digit codes (.04 .06 .14 .36 .64 .74 .76),
        // 61 3-digit, 13 4.xxx.
        assert_eq!(codes.len(), 83);
        let short = codes.iter().filter(|c| c.len() <= 3 && c.starts_with('.'));
        assert_eq!(short.count(), 8);
        let three = codes.iter().filter(|c| c.len() == 4 && c.starts_with('.'));
        assert_eq!(three.count(), 61);
        assert_eq!(codes.iter().filter(|c| c.starts_with("4.")).count(), 13);
        assert_eq!(list.iter().filter(|g| g.published.is_some()).count(), 4);
        for c in &codes {
            game_of(c, 8).unwrap();
        }
        let mut sorted = codes.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), codes.len(), "no code twice");
    }

    #[test]
    fn our_figures_match_the_published_ones_where_both_exist() {
        // .6 to 2^17 is cheap; Czajka's figures at 2^21 put the last rare value at 20627,
        // so by 2^17 every rare value is there.
        let six = game_of(".6", 8).unwrap();
        let found = six
            .rules()
            .search_period(1 << 17, &nimlab_engine::NoProgress);
        let ours = figures_of(&found).unwrap();
        let theirs = unsolved()[1].published.clone().unwrap();
        assert_eq!(ours.last_rare, theirs.last_rare);
        assert_eq!(ours.rare_mask, theirs.rare_mask);
        assert_eq!(ours.rare_count, theirs.rare_count);
    }
}
