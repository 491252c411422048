//! Game specifications: `name` or `name(key=value, …)`, values being integers, sets in
//! braces (`{1,3,4}`), lists in brackets, nested games (`pass(ryuoh(p=3))`) or bare
//! words (`0.137`).

use nimlab_engine::{Error, Result};

/// A parsed but not yet interpreted game specification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    /// The family name.
    pub name: String,
    /// Arguments in order: `(Some(key), value)` or `(None, value)` for positional ones.
    pub args: Vec<(Option<String>, String)>,
}

/// Parses `ryuoh(p=3)`, `subtraction(s={1,3,4})`, `sum(nim, wythoff)`.
///
/// ```
/// use nimlab_games::spec::parse_spec;
/// let s = parse_spec("subtraction(s={1, 3,4})").unwrap();
/// assert_eq!(s.name, "subtraction");
/// assert_eq!(s.args, vec![(Some("s".to_string()), "{1, 3,4}".to_string())]);
/// let s = parse_spec("pass(ryuoh(p=3))").unwrap();
/// assert_eq!(s.args, vec![(None, "ryuoh(p=3)".to_string())]);
/// ```
pub fn parse_spec(text: &str) -> Result<Spec> {
    let t = text.trim();
    let open = t.find('(');
    let (name, inner) = match open {
        None => (t, None),
        Some(i) => {
            if !t.ends_with(')') {
                return Err(Error::input(format!("game '{t}': missing ')' at the end")));
            }
            (&t[..i], Some(&t[i + 1..t.len() - 1]))
        }
    };
    let name = name.trim();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(Error::input(format!("'{t}' is not a game name")));
    }
    let mut args = Vec::new();
    if let Some(inner) = inner {
        for part in split_top_level(inner, t)? {
            let part = part.trim();
            if part.is_empty() {
                if inner.trim().is_empty() {
                    break;
                }
                return Err(Error::input(format!("game '{t}': empty argument")));
            }
            // `key=value` unless the '=' sits inside a nested game or set.
            let eq = part.find('=');
            let nested = part.find(['(', '{', '[']);
            match eq {
                Some(e) if nested.is_none_or(|n| e < n) => {
                    let key = part[..e].trim();
                    let value = part[e + 1..].trim();
                    if key.is_empty() || value.is_empty() {
                        return Err(Error::input(format!(
                            "game '{t}': malformed argument '{part}' (expected key=value)"
                        )));
                    }
                    args.push((Some(key.to_string()), value.to_string()));
                }
                _ => args.push((None, part.to_string())),
            }
        }
    }
    Ok(Spec {
        name: name.to_string(),
        args,
    })
}

/// Splits at commas that are not inside (), {} or [].
pub fn split_top_level<'a>(inner: &'a str, whole: &str) -> Result<Vec<&'a str>> {
    let mut parts = Vec::new();
    let mut depth: i32 = 0;
    let mut start = 0;
    for (i, c) in inner.char_indices() {
        match c {
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => {
                depth -= 1;
                if depth < 0 {
                    return Err(Error::input(format!("game '{whole}': unbalanced '{c}'")));
                }
            }
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err(Error::input(format!("game '{whole}': unbalanced brackets")));
    }
    parts.push(&inner[start..]);
    Ok(parts)
}

/// Parses an integer parameter value.
pub fn parse_int(game: &str, key: &str, value: &str) -> Result<i64> {
    value.trim().parse::<i64>().map_err(|_| {
        Error::input(format!(
            "{game}: parameter {key} must be an integer, got '{value}'"
        ))
    })
}

/// Parses `{1,3,4}` (or `[1,3,4]`) into a sorted set of naturals.
pub fn parse_set(game: &str, key: &str, value: &str) -> Result<Vec<u64>> {
    let v = value.trim();
    let inner = v
        .strip_prefix('{')
        .and_then(|s| s.strip_suffix('}'))
        .or_else(|| v.strip_prefix('[').and_then(|s| s.strip_suffix(']')))
        .ok_or_else(|| {
            Error::input(format!(
                "{game}: parameter {key} must be a set like {{1,3,4}}, got '{value}'"
            ))
        })?;
    let mut out = Vec::new();
    for item in inner.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        out.push(item.parse::<u64>().map_err(|_| {
            Error::input(format!(
                "{game}: parameter {key} must hold natural numbers, got '{item}'"
            ))
        })?);
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}
