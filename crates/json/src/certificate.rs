//! Octal periodicity certificates: the JSON file `nimlab periodicity --certificate`
//! (Python `Game.certificate`, `/api/certify` with a game) writes and `nimlab certify`
//! (Python `certify`, `/api/certify` with a certificate) checks; layout in
//! docs/certificates.md.
//!
//! The values G(0), …, G(a + p − 1) are stored as little-endian unsigned integers of
//! `width` bytes (1, 2 or 4), compressed with raw DEFLATE (RFC 1951) and encoded in
//! standard base64 (RFC 4648, with padding); `sha256` is the SHA-256 of the
//! uncompressed bytes, in lower-case hex.

use base64::Engine as _;
use nimlab_engine::periodicity::Periodicity;
use nimlab_engine::{Error, Game, Result};
use nimlab_octal::check::{guy_smith_bound, heaps_left, Claim};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::io::{Read, Write};

/// The `"certificate"` field: what kind of claim the file makes.
pub const KIND: &str = "octal-period";

/// The take-and-break digits of `game`, or why it has no certificate.
pub fn digits_of(game: &dyn Game) -> Result<Vec<u8>> {
    nimlab_octal::game::code_digits(game).ok_or_else(|| {
        Error::input(format!(
            "{} is not an octal or hexadecimal game: certificates are for take-and-break codes",
            game.spec()
        ))
    })
}

/// The values as little-endian bytes of the smallest width that holds them.
fn value_bytes(values: &[u32]) -> (usize, Vec<u8>) {
    let max = values.iter().copied().max().unwrap_or(0);
    let width = if max < 1 << 8 {
        1
    } else if max < 1 << 16 {
        2
    } else {
        4
    };
    let mut bytes = Vec::with_capacity(values.len() * width);
    for &v in values {
        bytes.extend_from_slice(&v.to_le_bytes()[..width]);
    }
    (width, bytes)
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The SHA-256 (hex) of the certificate's values, as written in the certificate.
pub fn values_hash(values: &[u32]) -> String {
    sha256_hex(&value_bytes(values).1)
}

/// The certificate of a proven period of `game`.
pub fn build(game: &dyn Game, per: &Periodicity) -> Result<Value> {
    let digits = digits_of(game)?;
    if per.proof.is_none() || per.saltus != 0 {
        return Err(Error::input(format!(
            "{}: no proven period to certify",
            game.spec()
        )));
    }
    let (width, bytes) = value_bytes(&per.values);
    let mut z = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(&bytes)
        .map_err(|e| Error::input(format!("cannot compress: {e}")))?;
    let packed = z
        .finish()
        .map_err(|e| Error::input(format!("cannot compress: {e}")))?;
    let (t, h) = shape(&digits);
    Ok(json!({
        "certificate": KIND,
        "game": game.spec(),
        "preperiod": crate::int(per.preperiod),
        "period": crate::int(per.period),
        "max_take": t,
        "max_heaps": h,
        "bound": crate::int(guy_smith_bound(&digits, per.preperiod, per.period)),
        "theorem": theorem_text(h),
        "values": {
            "count": per.values.len(),
            "width": width,
            "encoding": "deflate-base64",
            "sha256": sha256_hex(&bytes),
            "data": base64::engine::general_purpose::STANDARD.encode(packed),
        },
    }))
}

/// The largest take t and the most heaps h a move leaves, as the certificate states.
fn shape(digits: &[u8]) -> (usize, u64) {
    (digits.len().saturating_sub(1), heaps_left(digits).max(1))
}

/// The theorem a certificate cites, for a game whose moves leave at most `h` heaps.
fn theorem_text(h: u64) -> String {
    format!(
        "Guy–Smith: if G(n+p) = G(n) for a' <= n < {h}a' + {}p + t (a' = max(a,1)), \
         then for every n >= a'; checked by the mex of every n < bound",
        h.saturating_sub(1)
    )
}

/// A certificate read back: the game and the claim to check.
#[derive(Debug, Clone)]
pub struct Certificate {
    /// The game's spec.
    pub spec: String,
    /// What the checker checks.
    pub claim: Claim,
    /// The stored hash of the values.
    pub sha256: String,
}

/// Reads a certificate; any inconsistency in the file itself (not a certificate, a
/// field missing, values that do not decode or do not match their hash or count) is a
/// malformed-input error. Whether the claim is *true* is [`nimlab_octal::check`]'s
/// question.
pub fn read(text: &str, name: &str, limit: nimlab_engine::MemoryLimit) -> Result<Certificate> {
    let bad = |why: String| malformed(name, why);
    let doc: Value = serde_json::from_str(text).map_err(|e| bad(format!("not JSON ({e})")))?;
    if doc.get("schema").and_then(Value::as_u64) != Some(1) {
        return Err(bad("\"schema\" must be 1".into()));
    }
    if doc.get("certificate").and_then(Value::as_str) != Some(KIND) {
        return Err(bad(format!("\"certificate\" must be \"{KIND}\"")));
    }
    let field = |k: &str| doc.get(k).ok_or_else(|| bad(format!("no \"{k}\"")));
    let uint = |k: &str| -> Result<u64> {
        field(k)?
            .as_u64()
            .ok_or_else(|| bad(format!("\"{k}\" must be a non-negative integer")))
    };
    let spec = field("game")?
        .as_str()
        .ok_or_else(|| bad("\"game\" must be a string".into()))?
        .to_string();
    let game = nimlab_games::parse_game(&spec).map_err(|e| bad(format!("game: {e}")))?;
    let digits = digits_of(&*game).map_err(|e| bad(e.to_string()))?;
    let preperiod = uint("preperiod")?;
    let period = uint("period")?;
    if period == 0 {
        return Err(bad("\"period\" must be at least 1".into()));
    }
    let packed = PackedValues::read(field("values")?, preperiod, period, name)?;
    // The decoded values, their copy as u32 and the checker's sequence to the bound:
    // refused before anything is inflated if they do not fit.
    let bound = nimlab_octal::check::guy_smith_bound(&digits, preperiod, period);
    let needed = packed
        .bytes()
        .saturating_add(packed.count.saturating_mul(8))
        .saturating_add(bound.saturating_mul(4));
    limit.check("checking this certificate", needed)?;
    check_stated(&doc, &digits, bound, name)?;
    let values = packed.inflate(name)?;
    Ok(Certificate {
        spec,
        claim: Claim {
            digits,
            preperiod,
            period,
            values,
            mask: None,
        },
        sha256: packed.sha256,
    })
}

/// The error of a certificate `name` that is not well formed, saying `why`.
fn malformed(name: &str, why: String) -> Error {
    Error::input(format!("{name}: malformed certificate: {why}"))
}

/// The `"values"` field of a certificate, read but not yet inflated.
struct PackedValues {
    count: u64,
    width: usize,
    sha256: String,
    packed: Vec<u8>,
}

impl PackedValues {
    /// Reads the field `values` of a certificate of `preperiod` and `period`.
    fn read(values: &Value, preperiod: u64, period: u64, name: &str) -> Result<Self> {
        let bad = |why: String| malformed(name, why);
        let vfield = |k: &str| {
            values
                .get(k)
                .ok_or_else(|| bad(format!("no \"values.{k}\"")))
        };
        let count = vfield("count")?
            .as_u64()
            .ok_or_else(|| bad("\"values.count\" must be an integer".into()))?;
        if Some(count) != preperiod.checked_add(period) {
            return Err(bad(format!(
                "values.count is {count}, preperiod + period is {}",
                preperiod.saturating_add(period)
            )));
        }
        let width = vfield("width")?.as_u64().unwrap_or(0) as usize;
        if ![1, 2, 4].contains(&width) {
            return Err(bad("\"values.width\" must be 1, 2 or 4".into()));
        }
        if vfield("encoding")?.as_str() != Some("deflate-base64") {
            return Err(bad("\"values.encoding\" must be \"deflate-base64\"".into()));
        }
        let sha256 = vfield("sha256")?
            .as_str()
            .ok_or_else(|| bad("\"values.sha256\" must be a string".into()))?
            .to_ascii_lowercase();
        let data = vfield("data")?
            .as_str()
            .ok_or_else(|| bad("\"values.data\" must be a string".into()))?;
        let packed = base64::engine::general_purpose::STANDARD
            .decode(data)
            .map_err(|e| bad(format!("values.data is not base64 ({e})")))?;
        let packed = PackedValues {
            count,
            width,
            sha256,
            packed,
        };
        if packed
            .count
            .checked_mul(width as u64)
            .filter(|&b| b <= 1 << 34)
            .is_none()
        {
            return Err(bad("values.count too large".into()));
        }
        Ok(packed)
    }

    /// The bytes of the inflated values (checked not to overflow when read).
    fn bytes(&self) -> u64 {
        self.count * self.width as u64
    }

    /// The values, inflated and checked against their count and hash.
    fn inflate(&self, name: &str) -> Result<Vec<u32>> {
        let bad = |why: String| malformed(name, why);
        let (count, width, expected) = (self.count, self.width, self.bytes());
        let mut bytes = Vec::new();
        flate2::read::DeflateDecoder::new(&self.packed[..])
            .take(expected + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| bad(format!("values.data does not inflate ({e})")))?;
        if bytes.len() as u64 != expected {
            return Err(bad(format!(
                "values.data holds {} bytes, {count} values of width {width} need {expected}",
                bytes.len()
            )));
        }
        if sha256_hex(&bytes) != self.sha256 {
            return Err(bad("the values do not match values.sha256".into()));
        }
        Ok(bytes
            .chunks_exact(width)
            .map(|c| {
                let mut b = [0u8; 4];
                b[..width].copy_from_slice(c);
                u32::from_le_bytes(b)
            })
            .collect())
    }
}

/// The derived fields are recomputed from the game and the period; a file whose
/// stored copies say otherwise contradicts itself.
fn check_stated(doc: &Value, digits: &[u8], bound: u64, name: &str) -> Result<()> {
    let (t, h) = shape(digits);
    let stated: [(&str, Value); 4] = [
        ("bound", crate::int(bound)),
        ("max_take", json!(t)),
        ("max_heaps", json!(h)),
        ("theorem", json!(theorem_text(h))),
    ];
    for (key, want) in stated {
        if let Some(got) = doc.get(key)
            && *got != want
        {
            return Err(malformed(
                name,
                format!("\"{key}\" is {got}, but the game and the period give {want}"),
            ));
        }
    }
    Ok(())
}

/// Writes the certificate of the period of `game` proven below `up_to` (the planner's
/// default bound when `None`); an error when no period is proven there.
pub fn write(
    game: &dyn Game,
    up_to: Option<u64>,
    opts: &nimlab_engine::TableOptions,
) -> Result<Value> {
    digits_of(game)?;
    let (found, _, searched) = nimlab_engine::plan::periodicity(game, up_to, opts)?;
    match found {
        Some(p) if p.proof.is_some() => build(game, &p),
        _ => Err(Error::out_of_range(
            format!(
                "{}: no period proven below n = {searched}, so no certificate: the window",
                game.spec()
            ),
            searched,
            "larger",
            nimlab_engine::Knob::UpTo,
        )),
    }
}

/// The verdict on a certificate ([`crate::doc::CertifyDoc`] is its document).
#[derive(Debug, Clone)]
pub struct Verdict {
    /// The certificate read.
    pub certificate: Certificate,
    /// The Guy–Smith bound every value below was checked to.
    pub bound: u64,
    /// `None` when the claim holds; else the first failing fact.
    pub refuted: Option<String>,
}

/// Reads and checks a certificate: every value below the Guy–Smith bound is checked to
/// be the mex of its options by [`nimlab_octal::check`] (which shares no code with
/// the solver), then the period and preperiod to be the least. A malformed file is an
/// error; a false claim is a verdict with `refuted`.
///
/// ```
/// use nimlab_engine::TableOptions;
/// let g = nimlab_games::parse_game("octal(code=0.07)").unwrap();
/// let opts = TableOptions::default();
/// let cert = nimlab_json::certificate::write(&*g, Some(1000), &opts).unwrap();
/// let text = cert.to_string().replacen('{', "{\"schema\":1,", 1);
/// let v = nimlab_json::certificate::check(&text, "dawson", &opts).unwrap();
/// assert!(v.refuted.is_none());
/// let edited = text.replace("\"max_take\":2", "\"max_take\":3");
/// assert!(nimlab_json::certificate::check(&edited, "dawson", &opts).is_err());
/// ```
pub fn check(text: &str, name: &str, opts: &nimlab_engine::TableOptions) -> Result<Verdict> {
    let certificate = read(text, name, opts.memory_limit)?;
    let claim = &certificate.claim;
    let bound = guy_smith_bound(&claim.digits, claim.preperiod, claim.period);
    opts.progress.start(bound, "heaps checked");
    let mut done = 0;
    let verdict = nimlab_octal::check::check_with(claim, &mut |n, _| {
        opts.progress.advance(n - done);
        done = n;
    });
    opts.progress.finish();
    Ok(Verdict {
        refuted: verdict.err().map(|r| r.to_string()),
        bound,
        certificate,
    })
}
