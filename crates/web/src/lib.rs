//! # nimlab-web
//!
//! The web explorer behind `nimlab serve`: one page (HTML, JavaScript, CSS shipped
//! inside the binary) and a JSON API under `/api` whose answers have the command
//! line's JSON shapes ([`nimlab_json`], documented in docs/json.md). A thin surface:
//! every answer comes from the library planner ([`nimlab_engine::plan`],
//! [`nimlab_engine::play`]).
//!
//! Limits: request bodies of at most [`MAX_BODY_BYTES`], tables of at most
//! [`MAX_TABLE_CELLS`] cells, a memory limit per computation, at most as many
//! computations at once as the machine has cores, and a time limit per request. A
//! computation stops when its time is up or when the client goes away. Errors are
//! JSON, `{"schema":1,"error":{"kind":…,"message":…}}`, with a 4xx status (5xx for
//! time-outs and internal faults).
//!
//! ```
//! let app = nimlab_web::router(nimlab_web::ServeConfig::default());
//! # let _ = app;
//! ```

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use nimlab_engine::big::{to_small, BigUint};
use nimlab_engine::plan;
use nimlab_engine::play::{self, Level};
use nimlab_engine::table::cell_count;
use nimlab_engine::{Error, Game, MemoryLimit, Progress, TableOptions};
use serde::Deserialize;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// Largest request body accepted (a pasted rules file fits easily).
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// Largest table the API computes (a 1024 × 1024 heatmap).
pub const MAX_TABLE_CELLS: u64 = 1 << 20;
/// Most mismatches `/api/check` lists.
pub const MAX_LISTED_MISMATCHES: usize = 100_000;
/// Longest heap drawn as a chocolate bar or listed square by square.
pub const MAX_BAR_SQUARES: u64 = 4096;

/// How the server runs.
#[derive(Debug, Clone)]
pub struct ServeConfig {
    /// Memory limit of one computation.
    pub memory_limit: MemoryLimit,
    /// Longest a request may take (waiting for a free core included).
    pub timeout: Duration,
    /// Computations run at once (the others wait).
    pub workers: usize,
}

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            memory_limit: MemoryLimit::new(1 << 30),
            timeout: Duration::from_secs(20),
            workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
        }
    }
}

struct AppState {
    config: ServeConfig,
    permits: Arc<Semaphore>,
}

/// An API error: status, stable kind and message.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    kind: &'static str,
    message: String,
}

impl ApiError {
    fn new(status: StatusCode, kind: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            kind,
            message: message.into(),
        }
    }
    fn bad(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "bad-request", message)
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> Self {
        let (status, kind) = match &e {
            Error::Input(_) => (StatusCode::BAD_REQUEST, "input"),
            Error::TooLarge { .. } => (StatusCode::UNPROCESSABLE_ENTITY, "too-large"),
            Error::TooLong { .. } => (StatusCode::UNPROCESSABLE_ENTITY, "too-long"),
            Error::Contract(_) => (StatusCode::INTERNAL_SERVER_ERROR, "contract"),
        };
        // The memory hint names the CLI flag; the server's limit is fixed.
        let message = e
            .to_string()
            .replace(" (raise it with --max-memory)", "")
            .replace(" (use --force to run it anyway)", "");
        ApiError::new(status, kind, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({"error": {"kind": self.kind, "message": self.message}});
        (self.status, json_bytes(&body)).into_response()
    }
}

/// A JSON document in the CLI's layout (compact, `"schema":1` first).
struct JsonBody(Vec<u8>);

impl IntoResponse for JsonBody {
    fn into_response(self) -> Response {
        ([(header::CONTENT_TYPE, "application/json")], self.0).into_response()
    }
}

fn json_bytes(v: &Value) -> JsonBody {
    let mut out = Vec::new();
    nimlab_json::write(&mut out, v, false).expect("writing to memory");
    JsonBody(out)
}

/// Marks a computation to stop: set when the request's time is up or its client went
/// away (the handler's future is dropped).
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The payload that unwinds a cancelled computation.
struct Cancelled;

/// Progress that stops the computation once cancelled: the engine reports progress in
/// coarse steps, so a cancelled computation ends at its next step. It unwinds with
/// [`std::panic::resume_unwind`], which runs no panic hook, and each computation owns
/// all its state, so nothing is left half-updated.
struct CancelProgress(Arc<AtomicBool>);

impl CancelProgress {
    fn check(&self) {
        if self.0.load(Ordering::Relaxed) {
            std::panic::resume_unwind(Box::new(Cancelled));
        }
    }
}

impl Progress for CancelProgress {
    fn start(&self, _total: u64, _what: &str) {
        self.check()
    }
    fn advance(&self, _delta: u64) {
        self.check()
    }
}

/// Runs `work` on a blocking thread with a free core, the memory limit and a
/// cancellation flag; answers an error when the time is up.
async fn compute<F>(state: &AppState, work: F) -> Result<JsonBody, ApiError>
where
    F: FnOnce(&TableOptions) -> Result<JsonBody, ApiError> + Send + 'static,
{
    let flag = Arc::new(AtomicBool::new(false));
    let _cancel_when_dropped = CancelOnDrop(flag.clone());
    let limit = state.config.memory_limit;
    let permits = state.permits.clone();
    let flag_for_work = flag.clone();
    let run = async move {
        let permit = permits
            .acquire_owned()
            .await
            .map_err(|_| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "busy", "shutting down"))?;
        let handle = tokio::task::spawn_blocking(move || {
            let _permit = permit; // held until the work ends, even after a time-out
            let progress = CancelProgress(flag_for_work);
            let opts = TableOptions {
                memory_limit: limit,
                progress: &progress,
                force: false,
            };
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&opts)))
        });
        match handle.await {
            Ok(Ok(answer)) => answer,
            Ok(Err(payload)) if payload.is::<Cancelled>() => Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "cancelled",
                "the computation was stopped",
            )),
            _ => Err(ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                "the computation failed",
            )),
        }
    };
    match tokio::time::timeout(state.config.timeout, run).await {
        Ok(answer) => answer,
        Err(_) => {
            flag.store(true, Ordering::Relaxed);
            Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "timeout",
                format!(
                    "the computation took longer than {} s and was stopped; ask for less",
                    state.config.timeout.as_secs()
                ),
            ))
        }
    }
}

/// Where a request's game comes from: a catalog spec or a pasted rules file.
#[derive(Deserialize, Default, Clone)]
#[serde(deny_unknown_fields)]
struct GameRequest {
    game: Option<String>,
    rules: Option<String>,
    position: Option<Value>,
    size: Option<u64>,
    formula: Option<String>,
    p_positions: Option<String>,
    /// `/api/prove`: how the automata read numbers (`base2`, `base-B`, `fib`).
    numeration: Option<String>,
    limit: Option<usize>,
    level: Option<String>,
    seed: Option<u64>,
}

fn parse_request(body: Result<Bytes, BytesRejection>) -> Result<GameRequest, ApiError> {
    let body = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "too-large-request",
                format!("the request body is larger than {MAX_BODY_BYTES} bytes"),
            )
        } else {
            ApiError::bad(e.body_text())
        }
    })?;
    serde_json::from_slice(&body).map_err(|e| ApiError::bad(format!("malformed request: {e}")))
}

/// The game of a request and the claims its source makes (a rules file's closed form).
fn load_game(req: &GameRequest) -> Result<nimlab_games::source::GameSource, ApiError> {
    match (&req.game, &req.rules) {
        (Some(spec), None) => {
            // A spec naming a rules file would read the server's files: refused.
            if spec.to_ascii_lowercase().contains("rules") {
                return Err(ApiError::bad(
                    "rules files are not read from the server: paste the rules in the \"rules\" field",
                ));
            }
            Ok(nimlab_games::source::load(Some(spec), None)?)
        }
        (None, Some(text)) => {
            let game = nimlab_games::rules::RulesGame::from_toml(text, "the pasted rules")?;
            Ok(nimlab_games::source::GameSource {
                closed_form: game.closed_form().map(str::to_string),
                p_positions: game.p_positions().map(str::to_string),
                constants: game.params().to_vec(),
                game: Box::new(game),
            })
        }
        (Some(_), Some(_)) => Err(ApiError::bad("give either \"game\" or \"rules\", not both")),
        (None, None) => Err(ApiError::bad(
            "give \"game\" (e.g. \"wythoff\") or \"rules\"",
        )),
    }
}

/// The position of a request: text as on the command line (`"3,5"`) or an array.
fn position_text(req: &GameRequest) -> Result<String, ApiError> {
    match &req.position {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| match v {
                Value::Number(n) => Ok(n.to_string()),
                Value::String(s) => Ok(s.clone()),
                _ => Err(ApiError::bad("a position holds natural numbers")),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(|v| v.join(",")),
        Some(Value::Number(n)) => Ok(n.to_string()),
        _ => Err(ApiError::bad("give \"position\", e.g. \"3,5\"")),
    }
}

fn small_position(game: &dyn Game, text: &str) -> Result<Vec<u64>, ApiError> {
    let big = plan::read_position(game, text)?;
    let small = to_small(&big).ok_or_else(|| {
        ApiError::bad("play needs coordinates below 2^64 (value and moves take any size)")
    })?;
    game.check_position(&small)?;
    Ok(small)
}

/// The router: the page and the API.
pub fn router(config: ServeConfig) -> Router {
    let state = Arc::new(AppState {
        permits: Arc::new(Semaphore::new(config.workers.max(1))),
        config,
    });
    Router::new()
        .route("/", get(page))
        .route("/app.js", get(script))
        .route("/app.css", get(style))
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/api/games", get(games))
        .route("/api/game", post(game_info))
        .route("/api/value", post(value))
        .route("/api/moves", post(moves))
        .route("/api/table", post(table))
        .route("/api/check", post(check))
        .route("/api/prove", post(prove))
        .route("/api/play", post(play_move))
        .route("/api/bar", post(bar))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(state)
}

async fn page() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        include_str!("../assets/index.html"),
    )
}

async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        include_str!("../assets/app.js"),
    )
}

async fn style() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        include_str!("../assets/app.css"),
    )
}

async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "not-found", "no such page or API")
}

async fn games() -> JsonBody {
    json_bytes(&nimlab_json::catalog_json(&nimlab_games::catalog()))
}

type Body = Result<Bytes, BytesRejection>;
type Answer = Result<JsonBody, ApiError>;

/// What the page needs to draw a game: coordinates, capabilities, table box.
async fn game_info(body: Body) -> Answer {
    let req = parse_request(body)?;
    let source = load_game(&req)?;
    let game = &*source.game;
    let caps = game.capabilities();
    Ok(json_bytes(&json!({
        "game": game.spec(),
        "dimension": game.dimension(),
        "coordinate_names": game.coordinate_names(),
        "capabilities": caps.names(),
        "closed_form": source.closed_form,
        "p_positions": source.p_positions,
    })))
}

async fn value(State(state): State<Arc<AppState>>, body: Body) -> Answer {
    position_report(&state, body, false).await
}

async fn moves(State(state): State<Arc<AppState>>, body: Body) -> Answer {
    position_report(&state, body, true).await
}

async fn position_report(state: &AppState, body: Body, with_options: bool) -> Answer {
    let req = parse_request(body)?;
    compute(state, move |opts| {
        let game = load_game(&req)?.game;
        let pos = plan::read_position(&*game, &position_text(&req)?)?;
        let r = if with_options {
            plan::moves(&*game, &pos, opts)?
        } else {
            plan::value(&*game, &pos, opts)?
        };
        Ok(json_bytes(&nimlab_json::report_json(&*game, &r)))
    })
    .await
}

fn table_dims(game: &dyn Game, size: Option<u64>) -> Result<Vec<usize>, ApiError> {
    let size = size.ok_or_else(|| ApiError::bad("give \"size\", e.g. 16"))?;
    if size == 0 || size > MAX_TABLE_CELLS {
        return Err(ApiError::bad(format!(
            "\"size\" must be between 1 and {MAX_TABLE_CELLS}"
        )));
    }
    let dims = game.table_box(size as usize);
    let cells = cell_count(&dims)?;
    if cells > MAX_TABLE_CELLS {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "too-large",
            format!("a table of {cells} cells is more than the explorer's {MAX_TABLE_CELLS}"),
        ));
    }
    Ok(dims)
}

async fn table(State(state): State<Arc<AppState>>, body: Body) -> Answer {
    let req = parse_request(body)?;
    compute(&state, move |opts| {
        let game = load_game(&req)?.game;
        let dims = table_dims(&*game, req.size)?;
        let report = plan::table(&*game, &dims, opts)?;
        let mut extra = vec![
            ("method", Value::from(report.method.id)),
            ("method_detail", Value::from(report.method.detail.clone())),
        ];
        if let Some(r) = game.capabilities().nplayer.map(|r| r.ranking.clone()) {
            extra.push(("values_are", Value::from("class")));
            extra.push(("players", Value::from(r.players())));
            extra.push(("ranking", Value::from(r.spec())));
        }
        let mut out = Vec::new();
        nimlab_json::write_table_json(&mut out, &*game, &report.table, &extra, false)
            .map_err(|e| ApiError::bad(e.to_string()))?;
        Ok(JsonBody(out))
    })
    .await
}

async fn check(State(state): State<Arc<AppState>>, body: Body) -> Answer {
    use nimlab_formula::check::{compare, compile_for, Claim};
    let req = parse_request(body)?;
    compute(&state, move |opts| {
        let source = load_game(&req)?;
        let game = &*source.game;
        let dims = table_dims(game, req.size)?;
        let (claim, what, text) = match (&req.formula, &req.p_positions) {
            (Some(f), None) => (Claim::Grundy, "formula", f.clone()),
            (None, Some(p)) => (Claim::PPositions, "p_positions", p.clone()),
            (None, None) => match (&source.closed_form, &source.p_positions) {
                (Some(f), _) => (Claim::Grundy, "formula", f.clone()),
                (None, Some(p)) => (Claim::PPositions, "p_positions", p.clone()),
                (None, None) => return Err(ApiError::bad("give \"formula\" or \"p_positions\"")),
            },
            (Some(_), Some(_)) => {
                return Err(ApiError::bad(
                    "give \"formula\" or \"p_positions\", not both",
                ))
            }
        };
        let constants: Vec<(&str, i64)> = source
            .constants
            .iter()
            .map(|(n, v)| (n.as_str(), *v))
            .collect();
        let formula = compile_for(game, &text, &constants)
            .map_err(|e| ApiError::bad(format!("{e} (in '{text}')")))?;
        let table = plan::computed_table(game, &dims, opts)?.table;
        let limit = req.limit.unwrap_or(1000).min(MAX_LISTED_MISMATCHES);
        let report = compare(game, &table, &formula, claim, limit, false)
            .map_err(|e| ApiError::bad(format!("the formula failed: {e}")))?;
        Ok(json_bytes(&nimlab_json::check_json(
            game, what, &text, &dims, &report,
        )))
    })
    .await
}

/// `/api/prove`: decides the formula (or P-position predicate) for every position with
/// automata, as `nimlab prove`; the answer is [`nimlab_json::proof_json`].
async fn prove(State(state): State<Arc<AppState>>, body: Body) -> Answer {
    use nimlab_formula::check::Claim;
    use nimlab_formula::prove::{parse_numeration, prove, ProveOptions};
    let req = parse_request(body)?;
    compute(&state, move |opts| {
        let source = load_game(&req)?;
        let game = &*source.game;
        let (claim, text) = match (&req.formula, &req.p_positions) {
            (Some(f), None) => (Claim::Grundy, f.clone()),
            (None, Some(p)) => (Claim::PPositions, p.clone()),
            (None, None) => match (&source.closed_form, &source.p_positions) {
                (Some(f), _) => (Claim::Grundy, f.clone()),
                (None, Some(p)) => (Claim::PPositions, p.clone()),
                (None, None) => return Err(ApiError::bad("give \"formula\" or \"p_positions\"")),
            },
            (Some(_), Some(_)) => {
                return Err(ApiError::bad(
                    "give \"formula\" or \"p_positions\", not both",
                ))
            }
        };
        let num = parse_numeration(req.numeration.as_deref().unwrap_or("base2"))
            .map_err(ApiError::bad)?;
        let options = ProveOptions {
            table: TableOptions {
                memory_limit: opts.memory_limit,
                progress: opts.progress,
                force: false,
            },
            constants: source.constants.clone(),
        };
        let proof =
            prove(game, claim, &text, num, &options).map_err(|e| ApiError::bad(e.to_string()))?;
        Ok(json_bytes(&nimlab_json::proof_json(&proof)))
    })
    .await
}

async fn play_move(State(state): State<Arc<AppState>>, body: Body) -> Answer {
    let req = parse_request(body)?;
    let level = match req.level.as_deref() {
        None | Some("perfect") => Level::Perfect,
        Some("easy") => Level::Easy {
            seed: req.seed.unwrap_or(0),
        },
        Some(other) => {
            return Err(ApiError::bad(format!(
                "unknown level '{other}' (perfect, easy)"
            )))
        }
    };
    compute(&state, move |opts| {
        let game = load_game(&req)?.game;
        let pos = small_position(&*game, &position_text(&req)?)?;
        match play::computer_move(&*game, &pos, level, opts)? {
            Some(m) => Ok(json_bytes(&nimlab_json::move_json(&*game, &m))),
            None => Err(ApiError::new(
                StatusCode::CONFLICT,
                "game-over",
                "the game is over: no move is left",
            )),
        }
    })
    .await
}

/// A chocolate-bar game's position as a bar, with each option's eaten squares.
async fn bar(State(state): State<Arc<AppState>>, body: Body) -> Answer {
    let req = parse_request(body)?;
    compute(&state, move |opts| {
        let game = load_game(&req)?.game;
        let pos = small_position(&*game, &position_text(&req)?)?;
        let Some(drawer) = game.capabilities().bar else {
            return Err(ApiError::bad(format!(
                "{} is not played on a chocolate bar",
                game.spec()
            )));
        };
        let picture = drawer.bar(&pos)?;
        if picture.squares().count() as u64 > MAX_BAR_SQUARES {
            return Err(ApiError::bad(format!(
                "the bar has more than {MAX_BAR_SQUARES} squares: too big to draw"
            )));
        }
        let big: Vec<BigUint> = pos.iter().map(|&c| BigUint::from(c)).collect();
        let report = plan::moves(&*game, &big, opts)?;
        let mut options = Vec::new();
        for o in report.options.iter().flatten() {
            let Some(small) = to_small(&o.position) else {
                continue;
            };
            let next = drawer.bar(&small)?;
            options.push(json!({
                "position": nimlab_json::position_json(&*game, &o.position),
                "grundy": o.grundy.as_ref().map(nimlab_json::uint),
                "winning": o.winning,
                "eaten": picture.eaten_by(&next),
            }));
        }
        Ok(json_bytes(&json!({
            "game": game.spec(),
            "position": nimlab_json::position_json(&*game, &big),
            "caption": picture.caption,
            "columns": picture.columns.iter().map(|c| json!({
                "index": c.index, "height": c.height, "limit": c.limit,
            })).collect::<Vec<_>>(),
            "grundy": report.grundy.as_ref().map(nimlab_json::uint),
            "outcome": report.outcome.as_str(),
            "options": options,
        })))
    })
    .await
}

/// Serves the explorer on `addr` until the process ends; calls `bound` with the
/// address actually bound (port 0 picks a free port).
pub fn serve(
    addr: SocketAddr,
    config: ServeConfig,
    bound: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(config.workers.max(1) * 4)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        bound(listener.local_addr()?);
        axum::serve(listener, router(config)).await
    })
}
