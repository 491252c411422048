//! Automata in Walnut's text format, so that a reader can load them into Walnut.
//!
//! The format: a first line naming each input's numeration (`msd_2 msd_fib …`), then
//! one block per state separated by blank lines — `state output` (1 accepting, 0 not)
//! followed by lines `d₁ d₂ … -> target`. Transitions into the rejecting sink are
//! left out, as Walnut does.

use crate::dfa::{decode_letter, Dfa};
use crate::numeration::Numeration;
use std::fmt::Write;

/// The automaton as Walnut's `.txt` text. With no tracks (a closed statement) Walnut
/// expects a single state whose output is the truth value.
///
/// ```
/// use nimlab_automata::{walnut, Fo, Numeration, Rel};
/// let n = Numeration::Base(2);
/// let a = Fo::linear(vec![(0, 1), (1, -1)], 0, Rel::Eq).automaton(&n).unwrap();
/// let text = walnut::to_text(&a, &n);
/// assert!(text.starts_with("msd_2 msd_2\n"));
/// assert!(text.contains("1 1 -> 0"));
/// ```
pub fn to_text(dfa: &Dfa, num: &Numeration) -> String {
    let k = dfa.vars().len();
    let mut out = String::new();
    let names: Vec<String> = (0..k).map(|_| num.walnut_name()).collect();
    if k == 0 {
        return if dfa.is_accepting(0) {
            "true\n".into()
        } else {
            "false\n".into()
        };
    }
    out.push_str(&names.join(" "));
    out.push('\n');
    // the rejecting sink, if any: a non-accepting state looping on every letter
    let sink = (0..dfa.states())
        .find(|&q| !dfa.is_accepting(q) && (0..dfa.letters()).all(|l| dfa.next(q, l) == q))
        .filter(|&q| q != 0);
    // Walnut numbers states 0..n−1: renumber around the left-out sink
    let id = |q: usize| match sink {
        Some(s) if q > s => q - 1,
        _ => q,
    };
    let mut digits = vec![0u32; k];
    for q in 0..dfa.states() {
        if Some(q) == sink {
            continue;
        }
        let _ = write!(out, "\n{} {}\n", id(q), u8::from(dfa.is_accepting(q)));
        for l in 0..dfa.letters() {
            let t = dfa.next(q, l);
            if Some(t) == sink {
                continue;
            }
            decode_letter(dfa.base(), k, l, &mut digits);
            let ds: Vec<String> = digits.iter().map(|d| d.to_string()).collect();
            let _ = writeln!(out, "{} -> {}", ds.join(" "), id(t));
        }
    }
    out
}

/// An automaton read back from Walnut's text ([`from_text`]): what a reader of the
/// exported files sees, to check them independently of the [`Dfa`] they came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalnutAutomaton {
    /// The numeration named for each track (`msd_2` …); empty for a closed statement.
    pub numerations: Vec<String>,
    /// Output of each state (state 0 is the start).
    pub accepting: Vec<bool>,
    /// Transitions of each state: the digits of a letter (one per track) and the target.
    pub transitions: Vec<Vec<(Vec<u32>, usize)>>,
}

impl WalnutAutomaton {
    /// Whether the automaton accepts the tracks (one digit string per track, msd first,
    /// all of one length); a missing transition rejects, as in Walnut.
    pub fn accepts(&self, tracks: &[Vec<u32>]) -> bool {
        if self.numerations.is_empty() {
            return self.accepting.first().copied().unwrap_or(false);
        }
        let len = tracks.first().map_or(0, Vec::len);
        let mut q = 0;
        for i in 0..len {
            let letter: Vec<u32> = tracks.iter().map(|t| t[i]).collect();
            match self.transitions[q].iter().find(|(l, _)| *l == letter) {
                Some(&(_, t)) => q = t,
                None => return false,
            }
        }
        self.accepting[q]
    }
}

/// Reads Walnut's `.txt` format as [`to_text`] writes it.
///
/// ```
/// use nimlab_automata::{walnut, Fo, Numeration, Rel};
/// let n = Numeration::Base(2);
/// let a = Fo::linear(vec![(0, 1), (1, -1)], -1, Rel::Eq).automaton(&n).unwrap(); // x = y + 1
/// let back = walnut::from_text(&walnut::to_text(&a, &n)).unwrap();
/// assert_eq!(back.numerations, ["msd_2", "msd_2"]);
/// assert!(back.accepts(&[n.encode(6, 3), n.encode(5, 3)]));
/// assert!(!back.accepts(&[n.encode(6, 3), n.encode(6, 3)]));
/// ```
pub fn from_text(text: &str) -> Result<WalnutAutomaton, String> {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().ok_or("an empty file")?;
    if first == "true" || first == "false" {
        return Ok(WalnutAutomaton {
            numerations: vec![],
            accepting: vec![first == "true"],
            transitions: vec![vec![]],
        });
    }
    let numerations: Vec<String> = first.split_whitespace().map(str::to_string).collect();
    let mut accepting = Vec::new();
    let mut transitions: Vec<Vec<(Vec<u32>, usize)>> = Vec::new();
    for line in lines {
        if let Some((digits, target)) = line.split_once("->") {
            let letter = digits
                .split_whitespace()
                .map(|d| {
                    d.parse::<u32>()
                        .map_err(|_| format!("a bad digit in '{line}'"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            if letter.len() != numerations.len() {
                return Err(format!(
                    "'{line}' has {} digits for {} tracks",
                    letter.len(),
                    numerations.len()
                ));
            }
            let t = target
                .trim()
                .parse::<usize>()
                .map_err(|_| format!("a bad target in '{line}'"))?;
            transitions
                .last_mut()
                .ok_or("a transition before the first state")?
                .push((letter, t));
        } else {
            let mut parts = line.split_whitespace();
            let id: usize = parts
                .next()
                .and_then(|p| p.parse().ok())
                .ok_or_else(|| format!("a bad state line '{line}'"))?;
            if id != accepting.len() {
                return Err(format!("state {id} out of order"));
            }
            accepting.push(parts.next() == Some("1"));
            transitions.push(Vec::new());
        }
    }
    if transitions
        .iter()
        .flatten()
        .any(|&(_, t)| t >= accepting.len())
    {
        return Err("a transition to a state that is not listed".into());
    }
    if accepting.is_empty() {
        return Err("no state".into());
    }
    Ok(WalnutAutomaton {
        numerations,
        accepting,
        transitions,
    })
}
