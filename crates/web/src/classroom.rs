//! The explorer's teaching routes: `/api/explain` (why a cell has its value),
//! `/api/challenge` (a seeded set of exercises) and `/api/worksheet` (a table with
//! blanked cells as LaTeX and SVG). Each handler reads the request and calls the
//! library ([`nimlab_engine::classroom`], [`nimlab_json::worksheet`]).

use super::{
    compute, doc_bytes, game_key, json_bytes, lane_of_size, load_game, parse_body, position_text,
    table_dims, Answer, AppState, Body, Lane, NamesGame, NamesPosition,
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

game_request!(
    /// `/api/explain`: why a position has its value.
    ExplainRequest { position: Option<Value> }
);

impl NamesPosition for ExplainRequest {
    fn position(&self) -> Option<&Value> {
        self.position.as_ref()
    }
}

game_request!(
    /// `/api/challenge`: a seeded set of exercises.
    ChallengeRequest {
        /// The random choices.
        seed: Option<u64>,
        /// `easy`, `medium` or `hard`.
        difficulty: Option<String>,
        /// How many challenges.
        count: Option<usize>,
    }
);

game_request!(
    /// `/api/worksheet`: a table with blanked cells.
    WorksheetRequest {
        size: Option<u64>,
        /// Which cells are left empty (as `nimlab table --blank`).
        blank: Option<String>,
        /// The random choices of `random=K`.
        seed: Option<u64>,
        /// The coordinates beyond the second.
        slice: Option<Vec<usize>>,
    }
);

/// Why a position has its value: the mex worked out, a sum's nim-sum, the closed form.
pub(crate) async fn explain(State(state): State<Arc<AppState>>, body: Body) -> Answer {
    let req: ExplainRequest = parse_body(body)?;
    let key = game_key(&req);
    compute(&state, key, Lane::Light, move |opts| {
        let game = load_game(&req)?.game;
        let pos = plan::read_position(&*game, &position_text(&req)?)?;
        let e = explain_value(&*game, &pos, opts)?;
        Ok(json_bytes(&nimlab_json::classroom::explanation_json(
            &*game, &e,
        )))
    })
    .await
}

/// A seeded set of challenges ("P or N?", "make the winning move") with the answers.
pub(crate) async fn challenge(State(state): State<Arc<AppState>>, body: Body) -> Answer {
    let req: ChallengeRequest = parse_body(body)?;
    let key = game_key(&req);
    compute(&state, key, Lane::Light, move |opts| {
        let game = load_game(&req)?.game;
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
    let req: WorksheetRequest = parse_body(body)?;
    let (key, lane) = (game_key(&req), lane_of_size(req.size));
    compute(&state, key, lane, move |opts| {
        let source = load_game(&req)?;
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
