//! The conventions of every answer (src/lib.rs): the schema first, big integers as strings.

use nimlab_json::{int, uint, write, MAX_SAFE};
use num_bigint::BigUint;
use serde_json::json;
use serde_json::Value;

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
