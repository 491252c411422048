//! nimlab's JSON conventions, shared by every command.
//!
//! * compact by default (one line), indented with the global `--pretty`;
//! * every top-level object starts with `"schema": 1`, the version of the output layout;
//! * integers that may exceed 2^53 (positions, Grundy values, counts) are numbers up to
//!   2^53 − 1 and strings (decimal digits) beyond, so that every JSON reader (JavaScript,
//!   jq, pandas) reads them exactly.

use num_bigint::BigUint;
use serde_json::Value;
use std::io::{self, Write};

/// Version of the JSON layout, written as `"schema"` in every top-level object.
pub const SCHEMA: u64 = 1;

/// The largest integer every JSON reader holds exactly: 2^53 − 1.
pub const MAX_SAFE: u64 = (1 << 53) - 1;

/// `n` as a JSON number when ≤ 2^53 − 1, else as a string of its decimal digits.
pub fn uint(n: &BigUint) -> Value {
    match u64::try_from(n) {
        Ok(x) => int(x),
        Err(_) => Value::String(n.to_str_radix(10)),
    }
}

/// `n` as a JSON number when ≤ 2^53 − 1, else as a string of its decimal digits.
pub fn int(n: u64) -> Value {
    if n <= MAX_SAFE {
        Value::from(n)
    } else {
        Value::String(n.to_string())
    }
}

/// Writes `value` and a newline: compact, or indented when `pretty`. A top-level
/// object gets `"schema": 1` as its first field.
pub fn write(out: &mut dyn Write, value: &Value, pretty: bool) -> io::Result<()> {
    let text = if pretty {
        serde_json::to_string_pretty(value)
    } else {
        serde_json::to_string(value)
    }
    .map_err(io::Error::other)?;
    if value.is_object() {
        out.write_all(schema_open(pretty).as_bytes())?;
        let rest = &text[1..];
        if value.as_object().is_some_and(|m| m.is_empty()) {
            out.write_all(if pretty { b"\n}" } else { b"}" })?;
        } else {
            out.write_all(b",")?;
            out.write_all(rest.as_bytes())?;
        }
    } else {
        out.write_all(text.as_bytes())?;
    }
    out.write_all(b"\n")
}

/// The start of a top-level object: `{"schema":1` (no comma after it).
pub fn schema_open(pretty: bool) -> String {
    if pretty {
        format!("{{\n  \"schema\": {SCHEMA}")
    } else {
        format!("{{\"schema\":{SCHEMA}")
    }
}

/// Writes `,"key":value` of a top-level object (`pretty`: on its own indented line).
pub fn field(out: &mut dyn Write, key: &str, value: &Value, pretty: bool) -> io::Result<()> {
    let key = serde_json::to_string(key).map_err(io::Error::other)?;
    if pretty {
        let v = serde_json::to_string_pretty(value).map_err(io::Error::other)?;
        // JSON strings hold no raw newline: every newline is layout, indent it.
        write!(out, ",\n  {key}: {}", v.replace('\n', "\n  "))
    } else {
        let v = serde_json::to_string(value).map_err(io::Error::other)?;
        write!(out, ",{key}:{v}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn text(v: &Value, pretty: bool) -> String {
        let mut out = Vec::new();
        write(&mut out, v, pretty).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn objects_start_with_the_schema() {
        assert_eq!(text(&json!({"a": 1}), false), "{\"schema\":1,\"a\":1}\n");
        assert_eq!(text(&json!({}), false), "{\"schema\":1}\n");
        assert_eq!(text(&json!([1, 2]), false), "[1,2]\n");
        let p = text(&json!({"a": [1]}), true);
        assert_eq!(p, "{\n  \"schema\": 1,\n  \"a\": [\n    1\n  ]\n}\n");
        let v: Value = serde_json::from_str(&p).unwrap();
        assert_eq!(v["schema"], 1);
    }

    #[test]
    fn big_integers_become_strings() {
        assert_eq!(int(MAX_SAFE), json!(9007199254740991u64));
        assert_eq!(int(MAX_SAFE + 1), json!("9007199254740992"));
        let big: BigUint = "123456789012345678901234567890".parse().unwrap();
        assert_eq!(uint(&big), json!("123456789012345678901234567890"));
        assert_eq!(uint(&BigUint::from(7u8)), json!(7));
    }
}
