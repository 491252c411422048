//! nimlab's JSON conventions and shapes live in the `nimlab-json` crate, shared with
//! the web explorer (`nimlab serve`) so that both write the same documents.

pub use nimlab_json::*;

/// Writes `{"schema":1, <before…>, "<key>": [items…], <after…>}` streaming the items one
/// at a time, in the layout [`write`] gives the whole document (compact, or indented
/// with `pretty`): a long list is never held in memory. The fields must come in the
/// order `write` would put them (sorted by name).
pub fn write_streamed(
    out: &mut dyn std::io::Write,
    pretty: bool,
    before: &[(&str, serde_json::Value)],
    key: &str,
    items: &mut dyn Iterator<Item = serde_json::Value>,
    after: &[(&str, serde_json::Value)],
) -> std::io::Result<()> {
    let text = |v: &serde_json::Value, pretty: bool| {
        if pretty {
            serde_json::to_string_pretty(v)
        } else {
            serde_json::to_string(v)
        }
        .map_err(std::io::Error::other)
    };
    let (sep, indent) = if pretty {
        (",\n  ", "\n    ")
    } else {
        (",", "")
    };
    let colon = if pretty { ": " } else { ":" };
    out.write_all(schema_open(pretty).as_bytes())?;
    for (k, v) in before {
        let v = text(v, pretty)?.replace('\n', "\n  ");
        write!(out, "{sep}{}{colon}{v}", serde_json::Value::from(*k))?;
    }
    write!(out, "{sep}{}{colon}[", serde_json::Value::from(key))?;
    let mut any = false;
    for (i, item) in items.enumerate() {
        let t = text(&item, pretty)?;
        let t = if pretty { t.replace('\n', "\n    ") } else { t };
        write!(out, "{}{indent}{t}", if i > 0 { "," } else { "" })?;
        any = true;
    }
    out.write_all(if any && pretty { b"\n  ]" } else { b"]" })?;
    for (k, v) in after {
        let v = text(v, pretty)?.replace('\n', "\n  ");
        write!(out, "{sep}{}{colon}{v}", serde_json::Value::from(*k))?;
    }
    out.write_all(if pretty { b"\n}\n" } else { b"}\n" })
}
