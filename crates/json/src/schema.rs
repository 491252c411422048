//! The JSON Schema of the answer documents, generated from their types: one schema per
//! answer, sharing the definitions of the parts (`Nat`, `Pos`, …). `docs/schema.json`
//! holds it; a test keeps the file equal to what the types generate, and the Python
//! package's tests check its `.pyi` and real answers against it.
//!
//! ```
//! let schema = nimlab_json::schema::answer_schemas();
//! assert!(schema["answers"]["PositionDoc"].is_object());
//! assert!(schema["$defs"]["Nat"].is_object());
//! ```

use schemars::generate::SchemaSettings;
use serde_json::{Map, Value};

/// Every answer document's schema: `{"answers": {name: schema}, "$defs": {…}}`, each
/// answer's `$ref`s pointing into the shared `$defs`.
pub fn answer_schemas() -> Value {
    let mut generator = SchemaSettings::draft2020_12().into_generator();
    let mut answers = Map::new();
    let mut add = |name: &str, schema: schemars::Schema| {
        answers.insert(name.to_string(), schema.to_value());
    };
    macro_rules! answers {
        ($($t:ty),* $(,)?) => {
            $(add(stringify!($t).rsplit("::").next().unwrap_or_default(), generator.subschema_for::<$t>());)*
        };
    }
    use crate::{classroom, doc, guess, reports, search_shard};
    answers!(
        doc::PositionDoc,
        doc::MoveDoc,
        doc::CatalogDoc,
        doc::TheoremsDoc,
        doc::VerifyDoc,
        doc::CheckDoc,
        doc::PeriodicityDoc,
        doc::RowsDoc,
        doc::CertifyDoc,
        guess::GuessDoc,
        classroom::ExplanationDoc,
        classroom::ChallengesDoc,
        reports::ErrorDoc,
        reports::WythoffPairDoc,
        reports::ChocolateConditionDoc,
        reports::SgSystemDoc,
        reports::TheoremProofsDoc,
        reports::GameInfoDoc,
        reports::BarDoc,
        reports::WorksheetDoc,
        reports::MisereQuotientDoc,
        reports::ProofDoc,
        search_shard::SearchShardDoc,
    );
    let defs: Map<String, Value> = generator.take_definitions(true).into_iter().collect();
    let mut out = Map::new();
    out.insert(
        "$schema".into(),
        "https://json-schema.org/draft/2020-12/schema".into(),
    );
    out.insert(
        "description".into(),
        "nimlab's answer documents (generated from nimlab-json's types; every object \
         answer also starts with \"schema\": 1)"
            .into(),
    );
    out.insert("answers".into(), Value::Object(answers));
    out.insert("$defs".into(), Value::Object(defs));
    Value::Object(out)
}

/// The schema as the text of `docs/schema.json` (indented, one final newline).
pub fn answer_schemas_text() -> String {
    let mut text = serde_json::to_string_pretty(&answer_schemas()).expect("a schema is JSON");
    text.push('\n');
    text
}
