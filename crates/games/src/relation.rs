//! Move relations of take-away games Γ(P, C) as formulas (for `nimlab prove`): X′ is
//! an option of X iff C = X − X′ is a move of C, Σ cᵢ > 0, and X′ ∈ P.

use crate::takeaway::MoveSet;
use nimlab_engine::capability::MoveRelation;
use nimlab_engine::nimarith::MixedRadix;

/// `text` with every identifier replaced by `map(identifier)` where that is `Some`.
///
/// ```
/// use nimlab_games::relation::substitute;
/// let s = substitute("c0 + x0*2 <= p", &|w| match w {
///     "c0" => Some("(x - x_)".into()),
///     "p" => Some("(3)".into()),
///     _ => None,
/// });
/// assert_eq!(s, "(x - x_) + x0*2 <= (3)");
/// ```
pub fn substitute(text: &str, map: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if !word.is_empty() {
            // a number's digits are not an identifier
            let is_ident = !word.starts_with(|c: char| c.is_ascii_digit());
            match map(word).filter(|_| is_ident) {
                Some(r) => out.push_str(&r),
                None => out.push_str(word),
            }
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The moves of Γ(P, C), as far as they are expressible.
pub(crate) enum GammaMoves<'a> {
    /// An explicit list of move vectors.
    List(&'a [Vec<i64>]),
    /// A predicate over c0, c1, …, the coordinates and the aliases x0, x1, ….
    Predicate(&'a str),
    /// A named set.
    Named(&'a MoveSet),
}

/// The relation of Γ(P, C) over coordinates `names`, with `params` folded in. `None`
/// when the move set is not expressible (C^β and A^β whose repeating block has a
/// product above 16). A^β's relation holds an `all(…)`, which only proofs accept.
pub(crate) fn gamma_relation(
    names: &[String],
    moves: GammaMoves<'_>,
    take_and_put: bool,
    positions: Option<&str>,
    params: &[(String, i64)],
) -> Option<MoveRelation> {
    let m = names.len();
    let param = |w: &str| {
        params
            .iter()
            .find(|(n, _)| n == w)
            .map(|(_, v)| format!("({v})"))
    };
    let alias = |w: &str| -> Option<usize> {
        let i: usize = w.strip_prefix('x')?.parse().ok()?;
        (i < m && !names.iter().any(|n| n == w)).then_some(i)
    };
    let on_x = |w: &str| -> Option<String> {
        if let Some(i) = w.strip_prefix('c').and_then(|d| d.parse::<usize>().ok())
            && i < m
            && !names.iter().any(|n| n == w)
        {
            return Some(component(names, i));
        }
        alias(w).map(|i| names[i].clone()).or_else(|| param(w))
    };
    let on_y = |w: &str| -> Option<String> {
        if names.iter().any(|n| n == w) {
            return Some(format!("{w}_"));
        }
        alias(w)
            .map(|i| format!("{}_", names[i]))
            .or_else(|| param(w))
    };
    let mut parts = vec![format!("{} > 0", components(names).join(" + "))];
    let (condition, positive) = match moves {
        GammaMoves::List(list) => (list_condition(names, list), !take_and_put),
        GammaMoves::Predicate(p) => (format!("({})", substitute(p, &on_x)), !take_and_put),
        GammaMoves::Named(set) => (named_condition(names, set)?, true),
    };
    parts.push(condition);
    if positive {
        for n in names {
            parts.push(format!("{n}_ <= {n}"));
        }
    }
    if let Some(p) = positions {
        parts.push(format!("({})", substitute(p, &on_y)));
    }
    Some(MoveRelation {
        options: parts.join(" && "),
        positions: positions.map(|p| {
            substitute(p, &|w| {
                alias(w).map(|i| names[i].clone()).or_else(|| param(w))
            })
        }),
    })
}

/// c_i = (x_i − x_i′): the move's component i over the coordinates and their copies.
fn component(names: &[String], i: usize) -> String {
    format!("({} - {}_)", names[i], names[i])
}

/// Every component of the move, in order.
fn components(names: &[String]) -> Vec<String> {
    (0..names.len()).map(|i| component(names, i)).collect()
}

/// The condition of a named move set (all of them positive), `None` where it is not
/// expressible.
fn named_condition(names: &[String], set: &MoveSet) -> Option<String> {
    match set {
        MoveSet::Nim => Some(nim_condition(names)),
        MoveSet::CBeta(beta) if beta.parts().1 == [2] && beta.parts().0.iter().all(|&b| b == 2) => {
            Some(c_beta_binary_condition(names))
        }
        MoveSet::CBeta(beta) => c_beta_condition(names, beta),
        MoveSet::ABeta(beta) => a_beta_condition(names, beta),
        _ => None,
    }
}

/// The move is one of the list's vectors.
fn list_condition(names: &[String], list: &[Vec<i64>]) -> String {
    let alts: Vec<String> = list
        .iter()
        .map(|v| {
            let eqs: Vec<String> = v
                .iter()
                .enumerate()
                .map(|(i, k)| format!("{} == {k}", component(names, i)))
                .collect();
            format!("({})", eqs.join(" && "))
        })
        .collect();
    format!("({})", alts.join(" || "))
}

/// Nim: every component but one is zero.
fn nim_condition(names: &[String]) -> String {
    let alts: Vec<String> = (0..names.len())
        .map(|i| {
            let zero: Vec<String> = (0..names.len())
                .filter(|&j| j != i)
                .map(|j| format!("{} == 0", component(names, j)))
                .collect();
            if zero.is_empty() {
                "true".into()
            } else {
                format!("({})", zero.join(" && "))
            }
        })
        .collect();
    format!("({})", alts.join(" || "))
}

/// C^β for β = [2..].
fn c_beta_binary_condition(names: &[String]) -> String {
    // β = [2..]: ord₂(Σcᵢ) = minᵢ ord₂(cᵢ) over cᵢ > 0, via the lowest set bit
    // lb(n) = n − (n & (n − 1)) (n ≥ 1); a zero component stands in with lb(Σc),
    // which is never below the minimum.
    least_order_condition(names, |t| format!("({t} - ({t} & ({t} - 1)))"))
}

/// ord(Σcᵢ) = minᵢ ord(cᵢ) over cᵢ > 0, through `v`, a value increasing with the order
/// of its argument (n ≥ 1); a zero component stands in with v(Σc), which is never below
/// the minimum.
fn least_order_condition(names: &[String], v: impl Fn(&str) -> String) -> String {
    let s = format!("({})", components(names).join(" + "));
    let terms: Vec<String> = (0..names.len())
        .map(|i| {
            format!(
                "(if {} > 0 then {} else {})",
                component(names, i),
                v(&component(names, i)),
                v(&s)
            )
        })
        .collect();
    format!("{} == min({})", v(&s), terms.join(", "))
}

/// C^β for any β whose repeating block reads in one base ≤ 16.
fn c_beta_condition(names: &[String], beta: &MixedRadix) -> Option<String> {
    // β = (β₀, …, β_{k−1}, then a block B = (b₀, …, b_{p−1}) repeated):
    // ord_β(Σcᵢ) = minᵢ ord_β(cᵢ) over cᵢ > 0, through a value V(n) (n ≥ 1)
    // increasing with ord_β(n): L for the first L < k with β^{L+1} ∤ n, else
    // k − 1 + W(n / P) with P = β₀⋯β_{k−1} and W(n) = σ^{B..}(n, n − 1, …,
    // n − 1) with lcm(B) − 1 copies of n − 1: n and n − 1 differ exactly on the
    // places from ord(n) down (there n − 1 has bⱼ − 1, at ord(n) one less than
    // n), so the sum is 1 on each of those places and 0 above: Σ_{j ≤ ord} B^j.
    // For one base b that is nimsum_b(b, n, n − 1, …) = (b^{ord+1} − 1)/(b − 1).
    // Both are automatic in base b₀⋯b_{p−1} (one block per digit).
    let (prefix, period) = beta.parts();
    if period.len() > 4 || period.iter().product::<u64>() > 16 {
        return None;
    }
    let q: u64 = period.iter().product();
    let p = period.len();
    let rq = |t: &str| {
        let mut args = vec![q.to_string(), t.to_string()];
        args.extend((1..q).map(|_| format!("({t} - 1)")));
        format!("nimsum_b({})", args.join(", "))
    };
    let block: Vec<String> = period.iter().map(u64::to_string).collect();
    let lcm = period.iter().fold(1u64, |l, &b| {
        let (mut x, mut y) = (l, b);
        while y != 0 {
            (x, y) = (y, x % y);
        }
        l / x * b
    });
    let r = |t: &str| {
        if p == 1 {
            return rq(t);
        }
        let mut args = vec![t.to_string()];
        args.extend((1..lcm).map(|_| format!("({t} - 1)")));
        format!("sigma(beta=[({})..], {})", block.join(","), args.join(", "))
    };
    let mut places = vec![1u64];
    for &bl in prefix {
        places.push(places.last()?.checked_mul(bl)?);
    }
    let k = prefix.len();
    let v = |t: &str| {
        let big_p = places[k];
        let mut out = if big_p == 1 {
            r(t)
        } else {
            format!("{} + {}", k as i64 - 1, r(&format!("({t} / {big_p})")))
        };
        for l in (0..k).rev() {
            out = format!("(if {t} % {} != 0 then {l} else {out})", places[l + 1]);
        }
        format!("({out})")
    };
    Some(least_order_condition(names, v))
}

/// A^β, as a ∀ over fresh variables.
fn a_beta_condition(names: &[String], beta: &MixedRadix) -> Option<String> {
    // A^β = {C : σ^β(Z + C) ≠ σ^β(Z) for every Z ∈ N^m} (Irie, the maximum
    // positive system of σ^β): a ∀ over fresh variables, which only the automata
    // decide; σ^β is automatic when its repeating block reads in one base ≤ 16
    let (_, period) = beta.parts();
    if period.len() > 4 || period.iter().product::<u64>() > 16 {
        return None;
    }
    // bound names that no coordinate name starts with
    let mut pre = "z".to_string();
    while names.iter().any(|n| n.starts_with(&pre)) {
        pre.push('z');
    }
    let zs: Vec<String> = (0..names.len()).map(|i| format!("{pre}{i}")).collect();
    let shifted: Vec<String> = (0..names.len())
        .map(|i| format!("{} + {}", zs[i], component(names, i)))
        .collect();
    Some(format!(
        "all({}: sigma(beta={beta}, {}) != sigma(beta={beta}, {}))",
        zs.join(", "),
        shifted.join(", "),
        zs.join(", ")
    ))
}
