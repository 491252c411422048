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

/// Deepest nesting of brackets a spec may have (`pass(pass(…))`, sets, lists): the
/// games are built recursively, one level per bracket, so the depth must stay far from
/// the end of the stack.
pub const MAX_NESTING: usize = 64;

/// Shows user text in a one-line message: at most 60 characters (cut at a character,
/// never inside one) and control characters escaped.
///
/// ```
/// use nimlab_games::spec::show;
/// assert_eq!(show("nim(3)"), "nim(3)");
/// assert_eq!(show(&"€".repeat(100)), format!("{}…(100 characters)", "€".repeat(60)));
/// assert_eq!(show("a\nb"), "a\\nb");
/// ```
pub fn show(text: &str) -> String {
    nimlab_engine::error::shown(text)
}

/// Checks the brackets of a whole spec in one pass, before anything is built: balanced,
/// and nested at most [`MAX_NESTING`] deep. Also refuses control characters other than
/// the whitespace `\t`, `\n`, `\r` (which the parser reads as spaces).
fn check_brackets(t: &str) -> Result<()> {
    let mut stack: Vec<char> = Vec::new();
    for (i, c) in t.chars().enumerate() {
        match c {
            '(' | '{' | '[' => {
                stack.push(c);
                if stack.len() > MAX_NESTING {
                    return Err(Error::input(format!(
                        "game '{}': nested too deeply (more than {MAX_NESTING} levels of \
                         brackets)",
                        show(t)
                    )));
                }
            }
            ')' | '}' | ']' => {
                let open = match c {
                    ')' => '(',
                    '}' => '{',
                    _ => '[',
                };
                if stack.pop() != Some(open) {
                    return Err(Error::input(format!(
                        "game '{}': unbalanced '{c}' at character {}",
                        show(t),
                        i + 1
                    )));
                }
            }
            c if c.is_control() && !matches!(c, '\t' | '\n' | '\r') => {
                return Err(Error::input(format!(
                    "game '{}': control character U+{:04X} at character {}",
                    show(t),
                    c as u32,
                    i + 1
                )));
            }
            _ => {}
        }
    }
    if let Some(open) = stack.last() {
        let close = match open {
            '(' => ')',
            '{' => '}',
            _ => ']',
        };
        return Err(Error::input(format!(
            "game '{}': missing '{close}' at the end",
            show(t)
        )));
    }
    Ok(())
}

/// Parses `ryuoh(p=3)`, `subtraction(s={1,3,4})`, `sum(nim, wythoff)`.
///
/// The whole text is checked first (balanced brackets, at most [`MAX_NESTING`] deep),
/// so a hostile spec is refused in one linear pass; nested games are then parsed one
/// level per call by the families that hold them.
///
/// ```
/// use nimlab_games::spec::parse_spec;
/// let s = parse_spec("subtraction(s={1, 3,4})").unwrap();
/// assert_eq!(s.name, "subtraction");
/// assert_eq!(s.args, vec![(Some("s".to_string()), "{1, 3,4}".to_string())]);
/// let s = parse_spec("pass(ryuoh(p=3))").unwrap();
/// assert_eq!(s.args, vec![(None, "ryuoh(p=3)".to_string())]);
/// assert!(parse_spec(&format!("{}nim{}", "pass(".repeat(20000), ")".repeat(20000))).is_err());
/// ```
pub fn parse_spec(text: &str) -> Result<Spec> {
    check_brackets(text)?;
    // Tabs and line breaks are spaces (so no message ever spans two lines).
    let normalized;
    let text = if text.contains(['\t', '\n', '\r']) {
        normalized = text.replace(['\t', '\n', '\r'], " ");
        normalized.as_str()
    } else {
        text
    };
    let t = text.trim();
    let open = t.find('(');
    let (name, inner) = match open {
        None => (t, None),
        Some(i) => {
            if !t.ends_with(')') {
                return Err(Error::input(format!(
                    "game '{}': text after the closing ')'",
                    show(t)
                )));
            }
            (&t[..i], Some(&t[i + 1..t.len() - 1]))
        }
    };
    let name = name.trim();
    if !is_word(name) {
        return Err(Error::input(format!("'{}' is not a game name", show(t))));
    }
    let mut args = Vec::new();
    if let Some(inner) = inner {
        for part in split_top_level(inner, t)? {
            let part = part.trim();
            if part.is_empty() {
                if inner.trim().is_empty() {
                    break;
                }
                return Err(Error::input(format!("game '{}': empty argument", show(t))));
            }
            // `key=value` unless the '=' sits inside a nested game or set.
            let eq = part.find('=');
            let nested = part.find(['(', '{', '[']);
            match eq {
                Some(e) if nested.is_none_or(|n| e < n) => {
                    let key = part[..e].trim();
                    let value = part[e + 1..].trim();
                    if !is_word(key) || value.is_empty() {
                        return Err(Error::input(format!(
                            "game '{}': malformed argument '{}' (expected key=value)",
                            show(t),
                            show(part)
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

/// A game name or parameter key: ASCII letters, digits, '-' and '_'.
fn is_word(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
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
                    return Err(Error::input(format!(
                        "game '{}': unbalanced '{c}'",
                        show(whole)
                    )));
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
        return Err(Error::input(format!(
            "game '{}': unbalanced brackets",
            show(whole)
        )));
    }
    parts.push(&inner[start..]);
    Ok(parts)
}

/// Parses an integer parameter value.
pub fn parse_int(game: &str, key: &str, value: &str) -> Result<i64> {
    value.trim().parse::<i64>().map_err(|_| {
        Error::input(format!(
            "{game}: parameter {key} must be an integer, got '{}'",
            show(value)
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
                "{game}: parameter {key} must be a set like {{1,3,4}}, got '{}'",
                show(value)
            ))
        })?;
    let mut out = Vec::new();
    for item in inner.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        out.push(item.parse::<u64>().map_err(|_| {
            Error::input(format!(
                "{game}: parameter {key} must hold natural numbers, got '{}'",
                show(item)
            ))
        })?);
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}
