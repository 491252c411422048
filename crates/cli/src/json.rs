//! nimlab's JSON conventions and shapes live in the `nimlab-json` crate, shared with
//! the web explorer (`nimlab serve`) so that both write the same documents.

pub use nimlab_json::*;
