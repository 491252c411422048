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
