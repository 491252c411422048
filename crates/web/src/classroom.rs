//! The explorer's teaching routes: `/api/explain` (why a cell has its value),
//! `/api/challenge` (a seeded set of exercises) and `/api/worksheet` (a table with
//! blanked cells as LaTeX and SVG). Each handler reads the request and calls the
//! library ([`nimlab_engine::classroom`], [`nimlab_json::worksheet`]).

use super::{
    compute, doc_bytes, game_key, json_bytes, lane_of_size, load_game, position_text, table_dims,
    Answer, ApiError, AppState, Body, GameRequest, Lane,
};
use axum::extract::State;
use nimlab_engine::classroom::{deal, explain_value, Difficulty};
use nimlab_engine::plan;
use nimlab_json::reports::WorksheetDoc;
use nimlab_json::worksheet::{Blanks, Worksheet};
use serde::Deserialize;
use serde_json::Value;
use std::sync::Arc;

/// Challenges dealt when the request does not say.
const DEFAULT_CHALLENGES: usize = 10;

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ClassroomRequest {
    game: Option<String>,
    rules: Option<String>,
    position: Option<Value>,
    size: Option<u64>,
    seed: Option<u64>,
    difficulty: Option<String>,
    count: Option<usize>,
    blank: Option<String>,
    slice: Option<Vec<usize>>,
}

impl ClassroomRequest {
    fn game_request(&self) -> GameRequest {
        GameRequest {
            game: self.game.clone(),
            rules: self.rules.clone(),
            position: self.position.clone(),
            size: self.size,
            ..GameRequest::default()
        }
    }
}

fn parse(body: Body) -> Result<ClassroomRequest, ApiError> {
    let body = body.map_err(|e| {
        if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                e.status(),
                "too-large-request",
                format!(
                    "the request body is larger than {} bytes",
                    super::MAX_BODY_BYTES
                ),
            )
        } else {
            ApiError::bad(e.body_text())
        }
    })?;
    serde_json::from_slice(&body).map_err(|e| ApiError::bad(format!("malformed request: {e}")))
}

/// Why a position has its value: the mex worked out, a sum's nim-sum, the closed form.
pub(crate) async fn explain(State(state): State<Arc<AppState>>, body: Body) -> Answer {
    let req = parse(body)?;
    let key = game_key(&req.game_request());
    compute(&state, key, Lane::Light, move |opts| {
        let g = req.game_request();
        let game = load_game(&g)?.game;
        let pos = plan::read_position(&*game, &position_text(&g)?)?;
        let e = explain_value(&*game, &pos, opts)?;
        Ok(json_bytes(&nimlab_json::classroom::explanation_json(
            &*game, &e,
        )))
    })
    .await
}

/// A seeded set of challenges ("P or N?", "make the winning move") with the answers.
pub(crate) async fn challenge(State(state): State<Arc<AppState>>, body: Body) -> Answer {
    let req = parse(body)?;
    let key = game_key(&req.game_request());
    compute(&state, key, Lane::Light, move |opts| {
        let game = load_game(&req.game_request())?.game;
        let difficulty = Difficulty::parse(req.difficulty.as_deref().unwrap_or("easy"))?;
        let seed = req.seed.unwrap_or(1);
        let list = deal(
            &*game,
            difficulty,
            seed,
            req.count.unwrap_or(DEFAULT_CHALLENGES),
            opts,
        )?;
        Ok(json_bytes(&nimlab_json::classroom::challenges_json(
            &*game,
            difficulty.as_str(),
            seed,
            &list,
        )))
    })
    .await
}

/// The table as a worksheet: LaTeX documents (tabular and TikZ) and SVG pictures of
/// the exercise and the answers.
pub(crate) async fn worksheet(State(state): State<Arc<AppState>>, body: Body) -> Answer {
    let req = parse(body)?;
    let (key, lane) = (game_key(&req.game_request()), lane_of_size(req.size));
    compute(&state, key, lane, move |opts| {
        let source = load_game(&req.game_request())?;
        let game = &*source.game;
        let dims = table_dims(game, req.size)?;
        let table = plan::table(game, &dims, opts)?.table;
        let blanks = match req.blank.as_deref() {
            Some(spec) => Blanks::parse(spec, &table, req.seed.unwrap_or(1))?,
            None => Blanks::none(&table),
        };
        let blanked = blanks.count();
        let mut w = Worksheet::new(
            &game.spec(),
            &game.coordinate_names(),
            &table,
            req.slice.as_deref().unwrap_or(&[]),
            blanks,
        )?;
        if let Some(rules) = nimlab_games::rules_of(&game.spec()) {
            w = w.with_rules(rules);
        }
        Ok(doc_bytes(&WorksheetDoc::new(
            game.spec(),
            dims,
            blanked,
            &w,
        )))
    })
    .await
}
