//! The JSON Schema of the answers (src/schema.rs, the `schema` feature, which the
//! dev-dependency of this crate on itself turns on).

use nimlab_json::schema::{answer_schemas, answer_schemas_text};

/// `docs/schema.json` is what the types generate. After changing a document, run
/// `NIMLAB_BLESS=1 cargo test -p nimlab-json schema` to write it again.
#[test]
fn the_checked_in_schema_is_what_the_types_generate() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/schema.json");
    let generated = answer_schemas_text();
    if std::env::var_os("NIMLAB_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("docs/schema.json is writable");
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == generated,
        "docs/schema.json is out of date: run NIMLAB_BLESS=1 cargo test -p nimlab-json schema"
    );
}

#[test]
fn a_nat_is_a_safe_integer_or_a_digit_string() {
    let schema = answer_schemas();
    let nat = &schema["$defs"]["Nat"]["anyOf"];
    assert_eq!(nat[0]["maximum"], 9007199254740991u64);
    assert_eq!(nat[1]["type"], "string");
}
