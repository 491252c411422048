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
//! computation stops when its time is up or when the client goes away (the engine
//! polls [`Progress::cancelled`]; [`ServeConfig::running`] counts what still runs). A
//! body must arrive within [`ServeConfig::body_timeout`] (else a JSON 408
//! `body-timeout`); a malformed `Content-Length` gets a JSON 400. Errors are
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
use nimlab_json::doc::{Nat, Pos};
use nimlab_json::reports::{BarColumnDoc, BarDoc, BarOptionDoc, ErrorDoc, GameInfoDoc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// A request that names its game: a catalog spec (`"game"`) or a pasted rules file
/// (`"rules"`), exactly one of them.
trait NamesGame {
    /// The catalog spec, e.g. `wythoff`.
    fn game(&self) -> Option<&str>;
    /// The rules file's text.
    fn rules(&self) -> Option<&str>;
}

/// A request about one position of its game.
trait NamesPosition: NamesGame {
    /// The position: text as on the command line (`"3,5"`) or an array.
    fn position(&self) -> Option<&Value>;
}

/// One endpoint's request body: `game` and `rules` and the endpoint's own fields, no
/// others (an unknown field is a `bad-request`, not silently ignored).
macro_rules! game_request {
    ($(#[$meta:meta])* $name:ident { $($(#[$fmeta:meta])* $field:ident : $ty:ty),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Deserialize, Clone)]
        #[serde(deny_unknown_fields)]
        pub(crate) struct $name {
            game: Option<String>,
            rules: Option<String>,
            $($(#[$fmeta])* $field: $ty,)*
        }

        impl NamesGame for $name {
            fn game(&self) -> Option<&str> {
                self.game.as_deref()
            }
            fn rules(&self) -> Option<&str> {
                self.rules.as_deref()
            }
        }
    };
}

mod classroom;

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
    /// Longest a client may take to send a request's headers.
    pub header_timeout: Duration,
    /// Longest a client may take to send a request's body once its headers are in.
    pub body_timeout: Duration,
    /// How many computations are running now (on their threads, a stopped one until it
    /// has really stopped): shared with whoever made the configuration, to watch the
    /// server (a supervisor, a test).
    pub running: Arc<std::sync::atomic::AtomicUsize>,
}

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            memory_limit: MemoryLimit::new(1 << 30),
            timeout: Duration::from_secs(20),
            workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            header_timeout: HEADER_TIMEOUT,
            body_timeout: BODY_TIMEOUT,
            running: Arc::default(),
        }
    }
}

struct AppState {
    config: ServeConfig,
    /// The heavy lane: as many computations as the configuration allows.
    permits: Arc<Semaphore>,
    /// The cheap lane: requests run here first, for at most [`LIGHT_SLICE`]; one that
    /// needs longer (or announces more than [`LIGHT_WORK`] units) is stopped and queued
    /// for the heavy lane, so cheap requests never wait behind heavy ones.
    light: Arc<Semaphore>,
    /// Games whose requests went heavy recently: they skip the cheap lane.
    heavy_games: std::sync::Mutex<std::collections::VecDeque<String>>,
}

/// Longest a request runs in the cheap lane before it moves to the heavy lane.
pub const LIGHT_SLICE: Duration = Duration::from_millis(150);
/// Most work (cells, positions: what the engine's progress counts) a cheap-lane
/// computation may announce.
pub const LIGHT_WORK: u64 = 1 << 18;
/// Computations the cheap lane runs at once.
pub const LIGHT_LANES: usize = 2;
/// Games remembered as heavy.
const HEAVY_MEMORY: usize = 64;
/// Longest request line (method, path, version) accepted.
pub const MAX_URI_BYTES: usize = 8 * 1024;
/// Most header bytes accepted (names and values).
pub const MAX_HEADER_BYTES: usize = 32 * 1024;
/// Most headers the HTTP layer reads: as many as [`MAX_HEADER_BYTES`] can hold (a
/// header takes at least 4 bytes, `a:\r\n`), so that only the byte limit refuses.
pub const MAX_HEADER_COUNT: usize = MAX_HEADER_BYTES / 4;
/// Default longest time a client may take to send a request's headers.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// Default longest time a client may take to send a request's body.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);

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
            Error::Input(_) | Error::OutOfRange { .. } => (StatusCode::BAD_REQUEST, "input"),
            Error::TooLarge { .. } => (StatusCode::UNPROCESSABLE_ENTITY, "too-large"),
            Error::TooLong { .. } => (StatusCode::UNPROCESSABLE_ENTITY, "too-long"),
            Error::Contract(_) => (StatusCode::INTERNAL_SERVER_ERROR, "contract"),
            // The server's disk or socket failed: not the client's fault.
            Error::Io { .. } => (StatusCode::INTERNAL_SERVER_ERROR, "io"),
            Error::Cancelled => (StatusCode::SERVICE_UNAVAILABLE, "cancelled"),
        };
        // The memory hint names the CLI flag; the server's limit is fixed.
        // A setting is named as the request's field: `"up_to": 5`.
        let message = e
            .describe(&|knob, value| format!("\"{}\": {value}", knob.id()))
            .replace(" (raise it with --max-memory)", "")
            .replace(" (use --force to run it anyway)", "");
        ApiError::new(status, kind, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorDoc::new(self.kind, self.message);
        (self.status, doc_bytes(&body)).into_response()
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

/// A typed answer document in the CLI's layout.
fn doc_bytes<T: Serialize>(doc: &T) -> JsonBody {
    json_bytes(&nimlab_json::doc::to_value(doc))
}

/// Marks a computation to stop: set when the request's time is up or its client went
/// away (the handler's future is dropped).
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The payload that unwinds a cancelled computation that ignored [`Progress::cancelled`].
struct Cancelled;

/// The payload that unwinds a cheap-lane computation that turned out heavy and ignored
/// [`Progress::cancelled`].
struct Demoted;

/// Progress that asks the computation to stop once cancelled: the engine polls
/// [`Progress::cancelled`] in its long loops and returns [`Error::Cancelled`], so a
/// stopped request leaves no work behind. In the cheap lane it also stops the
/// computation (to be rerun in the heavy lane) once its slice is over or it announces
/// heavy work.
///
/// A kernel that cannot return an error (a take-and-break period search, a formula
/// screen) does not poll; it only reports progress. For those, [`Progress::advance`]
/// after cancellation unwinds with [`std::panic::resume_unwind`] (no panic hook runs;
/// each computation owns all its state). Loops that poll never get there: they check
/// before they report.
struct CancelProgress {
    flag: Arc<AtomicBool>,
    /// The end of the cheap-lane slice, `None` in the heavy lane.
    light_until: Option<std::time::Instant>,
    /// Set once the cheap-lane computation outgrew its slice.
    demoted: AtomicBool,
}

impl CancelProgress {
    fn demoted(&self) -> bool {
        self.demoted.load(Ordering::Relaxed)
    }
}

impl Progress for CancelProgress {
    fn start(&self, total: u64, _what: &str) {
        if self.light_until.is_some() && total > LIGHT_WORK {
            self.demoted.store(true, Ordering::Relaxed);
        }
    }
    fn advance(&self, _delta: u64) {
        if self.cancelled() {
            if self.demoted() {
                std::panic::resume_unwind(Box::new(Demoted));
            }
            std::panic::resume_unwind(Box::new(Cancelled));
        }
    }
    fn cancelled(&self) -> bool {
        if self.flag.load(Ordering::Relaxed) || self.demoted() {
            return true;
        }
        if self
            .light_until
            .is_some_and(|end| std::time::Instant::now() > end)
        {
            self.demoted.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }
}

/// How a request may run: `Light` starts in the cheap lane; `Heavy` (a big table)
/// queues for the heavy lane at once.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lane {
    Light,
    Heavy,
}

/// Runs `work` on a blocking thread with a free core, the memory limit and a
/// cancellation flag; answers an error when the time is up. The work runs first in the
/// cheap lane (unless `lane` or the game's history says it is heavy) and is rerun in
/// the heavy lane when it outgrows its slice.
async fn compute<F>(state: &AppState, game_key: String, lane: Lane, work: F) -> Answer
where
    F: Fn(&TableOptions) -> Result<JsonBody, ApiError> + Send + Sync + 'static,
{
    let flag = Arc::new(AtomicBool::new(false));
    let _cancel_when_dropped = CancelOnDrop(flag.clone());
    let work = Arc::new(work);
    let known_heavy = || {
        state
            .heavy_games
            .lock()
            .map(|h| h.contains(&game_key))
            .unwrap_or(false)
    };
    let run = async {
        if lane == Lane::Light && !known_heavy() {
            let permit = state
                .light
                .clone()
                .acquire_owned()
                .await
                .map_err(|_| shutting_down())?;
            // Asked again after the wait: requests queued behind one of their game that
            // went heavy skip the cheap lane at once.
            let outcome = if known_heavy() {
                drop(permit);
                Err(Outcome::Demoted)
            } else {
                run_in_lane(
                    permit,
                    flag.clone(),
                    &state.config,
                    Some(LIGHT_SLICE),
                    work.clone(),
                )
                .await
            };
            match outcome {
                Err(Outcome::Demoted) => {
                    if let Ok(mut h) = state.heavy_games.lock()
                        && !h.contains(&game_key)
                    {
                        if h.len() >= HEAVY_MEMORY {
                            h.pop_front();
                        }
                        h.push_back(game_key.clone());
                    }
                }
                other => return finish(other),
            }
        }
        let permit = state
            .permits
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| shutting_down())?;
        finish(run_in_lane(permit, flag.clone(), &state.config, None, work).await)
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

/// How a lane's run ended, besides an answer.
enum Outcome {
    Demoted,
    Cancelled,
    Failed,
}

fn shutting_down() -> ApiError {
    ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "busy", "shutting down")
}

fn finish(r: Result<Answer, Outcome>) -> Answer {
    match r {
        Ok(answer) => answer,
        Err(Outcome::Cancelled | Outcome::Demoted) => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "cancelled",
            "the computation was stopped",
        )),
        Err(Outcome::Failed) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "the computation failed",
        )),
    }
}

/// One run of `work` on a blocking thread holding `permit` until the work ends (even
/// after a time-out: the permit counts threads that really compute). The work runs
/// while [`ServeConfig::running`] counts it.
async fn run_in_lane<F>(
    permit: tokio::sync::OwnedSemaphorePermit,
    flag: Arc<AtomicBool>,
    config: &ServeConfig,
    slice: Option<Duration>,
    work: Arc<F>,
) -> Result<Answer, Outcome>
where
    F: Fn(&TableOptions) -> Result<JsonBody, ApiError> + Send + Sync + 'static,
{
    let limit = config.memory_limit;
    let running = config.running.clone();
    let handle = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let progress = CancelProgress {
            flag,
            light_until: slice.map(|d| std::time::Instant::now() + d),
            demoted: AtomicBool::new(false),
        };
        let opts = TableOptions {
            memory_limit: limit,
            progress: &progress,
            force: false,
        };
        running.fetch_add(1, Ordering::SeqCst);
        let _done = Running(running);
        // Checked once before the work too: a request cancelled while it queued.
        if progress.cancelled() {
            return Err(if progress.demoted() {
                Outcome::Demoted
            } else {
                Outcome::Cancelled
            });
        }
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&opts)))
            .map_err(|payload| {
                if payload.is::<Demoted>() {
                    Outcome::Demoted
                } else if payload.is::<Cancelled>() {
                    Outcome::Cancelled
                } else {
                    // A panic is a fault of the server: a 500.
                    Outcome::Failed
                }
            })?;
        match answer {
            // Whatever error a stopped computation returns (the engine's
            // `Error::Cancelled`, or a message that wraps it), it was stopped.
            Err(_) if progress.demoted() => Err(Outcome::Demoted),
            Err(_) if progress.flag.load(Ordering::Relaxed) => Err(Outcome::Cancelled),
            other => Ok(other),
        }
    });
    match handle.await {
        Ok(outcome) => outcome,
        Err(_) => Err(Outcome::Failed),
    }
}

/// Counts a computation in [`ServeConfig::running`] until it is dropped.
struct Running(Arc<std::sync::atomic::AtomicUsize>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

game_request!(
    /// `/api/game`: the game alone.
    GameOnly {}
);

game_request!(
    /// `/api/value`, `/api/moves`, `/api/bar`: a position.
    PositionRequest { position: Option<Value> }
);

impl NamesPosition for PositionRequest {
    fn position(&self) -> Option<&Value> {
        self.position.as_ref()
    }
}

game_request!(
    /// `/api/search-shard`: one shard `[i, k]` of a search split at the root, asking
    /// about the nimbers below `below` (default 4).
    SearchShardRequest { position: Option<Value>, shard: (u64, u64), below: Option<u32> }
);

impl NamesPosition for SearchShardRequest {
    fn position(&self) -> Option<&Value> {
        self.position.as_ref()
    }
}

game_request!(
    /// `/api/search-merge`: the k shard documents of a split search, merged into the
    /// answer about the position.
    SearchMergeRequest {
        position: Option<Value>,
        shards: Vec<nimlab_json::search_shard::SearchShardDoc>,
    }
);

impl NamesPosition for SearchMergeRequest {
    fn position(&self) -> Option<&Value> {
        self.position.as_ref()
    }
}

game_request!(
    /// `/api/table` (the box's side) and `/api/misere-quotient` (the largest heap).
    SizeRequest { size: Option<u64> }
);

game_request!(
    /// `/api/check`: a claim compared with the table of side `size`.
    CheckRequest {
        size: Option<u64>,
        formula: Option<String>,
        p_positions: Option<String>,
        /// How many mismatches to list.
        limit: Option<usize>,
    }
);

game_request!(
    /// `/api/prove`: a claim proved for every position by automata.
    ProveRequest {
        formula: Option<String>,
        p_positions: Option<String>,
        /// How the automata read numbers (`base2`, `base-B`, `fib`).
        numeration: Option<String>,
    }
);

/// What `/api/guess` looks for.
#[derive(Deserialize, Clone, Copy, Default)]
#[serde(rename_all = "snake_case")]
enum GuessClaim {
    /// Formulas for the Grundy value.
    #[default]
    Grundy,
    /// Predicates for the P-positions.
    PPositions,
}

game_request!(
    /// `/api/guess`: formulas found on a table and verified on a larger one.
    GuessBody {
        size: Option<u64>,
        /// The side of the verification window.
        verify_size: Option<u64>,
        claim: Option<GuessClaim>,
        /// Prove each formula found.
        prove: Option<bool>,
    }
);

/// How well the computer plays in `/api/play`.
#[derive(Deserialize, Clone, Copy, Default)]
#[serde(rename_all = "snake_case")]
enum LevelName {
    /// Wins whenever it can.
    #[default]
    Perfect,
    /// Half of its moves at random.
    Easy,
}

game_request!(
    /// `/api/play`: the computer's move from a position.
    PlayRequest {
        position: Option<Value>,
        level: Option<LevelName>,
        /// The random choices of the easy level.
        seed: Option<u64>,
    }
);

impl NamesPosition for PlayRequest {
    fn position(&self) -> Option<&Value> {
        self.position.as_ref()
    }
}

game_request!(
    /// `/api/certify`: write a periodicity certificate, or check the one given.
    CertifyRequest {
        up_to: Option<u64>,
        certificate: Option<Value>,
    }
);

/// A request body of type `T` (JSON, at most [`MAX_BODY_BYTES`]).
fn parse_body<T: serde::de::DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
) -> Result<T, ApiError> {
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
fn load_game(req: &impl NamesGame) -> Result<nimlab_games::source::GameSource, ApiError> {
    match (req.game(), req.rules()) {
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

/// What identifies a request's game for the lanes: its spec or its rules text.
fn game_key(req: &impl NamesGame) -> String {
    req.game().or(req.rules()).unwrap_or_default().to_string()
}

/// A table or check of `size` whose box may exceed the cheap lane's work goes heavy.
fn lane_of_size(size: Option<u64>) -> Lane {
    match size {
        Some(s) if s.saturating_mul(s) > LIGHT_WORK => Lane::Heavy,
        _ => Lane::Light,
    }
}

/// Most coordinates a request's position may have.
pub const MAX_POSITION_COORDINATES: usize = 4096;

/// The position of a request: text as on the command line (`"3,5"`) or an array, of
/// at most [`MAX_POSITION_COORDINATES`] coordinates.
fn position_text(req: &impl NamesPosition) -> Result<String, ApiError> {
    let text = position_text_unchecked(req)?;
    let coordinates = text.bytes().filter(|&b| b == b',' || b == b';').count() + 1;
    if coordinates > MAX_POSITION_COORDINATES {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "too-large",
            format!(
                "a position of {coordinates} coordinates is more than the explorer's {MAX_POSITION_COORDINATES}"
            ),
        ));
    }
    Ok(text)
}

fn position_text_unchecked(req: &impl NamesPosition) -> Result<String, ApiError> {
    match req.position() {
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
    let body_timeout = config.body_timeout;
    let state = Arc::new(AppState {
        permits: Arc::new(Semaphore::new(config.workers.max(1))),
        light: Arc::new(Semaphore::new(LIGHT_LANES)),
        heavy_games: std::sync::Mutex::new(std::collections::VecDeque::new()),
        config,
    });
    Router::new()
        .route("/", get(page))
        .route("/js/{name}", get(module))
        .route("/app.css", get(style))
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/api/games", get(games))
        .route("/api/game", post(game_info))
        .route("/api/value", post(value))
        .route("/api/moves", post(moves))
        .route("/api/search-shard", post(search_shard))
        .route("/api/search-merge", post(search_merge))
        .route("/api/misere-quotient", post(misere_quotient))
        .route("/api/table", post(table))
        .route("/api/check", post(check))
        .route("/api/prove", post(prove))
        .route("/api/guess", post(guess))
        .route("/api/play", post(play_move))
        .route("/api/bar", post(bar))
        .route("/api/certify", post(certify))
        .route("/api/sweep", post(sweep))
        .route("/api/census", post(census))
        .route("/api/explain", post(classroom::explain))
        .route("/api/challenge", post(classroom::challenge))
        .route("/api/worksheet", post(classroom::worksheet))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn_with_state(
            body_timeout,
            read_body_in_time,
        ))
        .layer(axum::middleware::from_fn(request_limits))
        .with_state(state)
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method-not-allowed",
        "this path does not take that method (the API takes POST, the page GET)",
    )
}

/// Long request lines and large headers get JSON errors (414, 431) here, below the
/// HTTP layer's own, larger limits (which answer without a body).
async fn request_limits(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    if request.uri().to_string().len() > MAX_URI_BYTES {
        return ApiError::new(
            StatusCode::URI_TOO_LONG,
            "uri-too-long",
            format!("the request path is longer than {MAX_URI_BYTES} bytes"),
        )
        .into_response();
    }
    let header_bytes: usize = request
        .headers()
        .iter()
        .map(|(k, v)| k.as_str().len() + v.len() + 4)
        .sum();
    if header_bytes > MAX_HEADER_BYTES {
        return ApiError::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "headers-too-large",
            format!("the request headers are larger than {MAX_HEADER_BYTES} bytes"),
        )
        .into_response();
    }
    next.run(request).await
}

/// Reads the request's body within [`ServeConfig::body_timeout`] (a client trickling
/// its body would otherwise hold the connection and a task forever): a JSON 408 when
/// it does not arrive in time, the JSON 413 when it is larger than [`MAX_BODY_BYTES`].
async fn read_body_in_time(
    State(timeout): State<Duration>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let (parts, body) = request.into_parts();
    match tokio::time::timeout(timeout, axum::body::to_bytes(body, MAX_BODY_BYTES)).await {
        Err(_) => {
            let mut response = ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                "body-timeout",
                format!(
                    "the request body did not arrive within {} s",
                    timeout.as_secs_f64()
                ),
            )
            .into_response();
            // The rest of the body may never come: the connection ends here.
            response.headers_mut().insert(
                header::CONNECTION,
                header::HeaderValue::from_static("close"),
            );
            response
        }
        Ok(Ok(bytes)) => {
            next.run(axum::extract::Request::from_parts(
                parts,
                axum::body::Body::from(bytes),
            ))
            .await
        }
        Ok(Err(e)) => {
            // The body was longer than the limit, or the connection failed mid-body.
            let mut cause: Option<&(dyn std::error::Error + 'static)> =
                std::error::Error::source(&e);
            let mut too_large = false;
            while let Some(c) = cause {
                too_large |= c.is::<http_body_util::LengthLimitError>();
                cause = c.source();
            }
            if too_large {
                too_large_request().into_response()
            } else {
                ApiError::bad(format!("the request body could not be read: {e}")).into_response()
            }
        }
    }
}

fn too_large_request() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "too-large-request",
        format!("the request body is larger than {MAX_BODY_BYTES} bytes"),
    )
}

async fn page() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        include_str!("../assets/index.html"),
    )
}

/// The explorer's ES modules (crates/web/assets/js), embedded in the binary: the file
/// name and its text. `main.js` imports the others.
pub const MODULES: &[(&str, &str)] = &[
    ("api.js", include_str!("../assets/js/api.js")),
    ("state.js", include_str!("../assets/js/state.js")),
    ("controls.js", include_str!("../assets/js/controls.js")),
    ("heatmap.js", include_str!("../assets/js/heatmap.js")),
    ("play.js", include_str!("../assets/js/play.js")),
    ("board.js", include_str!("../assets/js/board.js")),
    ("challenge.js", include_str!("../assets/js/challenge.js")),
    ("worksheet.js", include_str!("../assets/js/worksheet.js")),
    ("link.js", include_str!("../assets/js/link.js")),
    ("main.js", include_str!("../assets/js/main.js")),
];

/// `/js/NAME`: one of the explorer's modules.
async fn module(axum::extract::Path(name): axum::extract::Path<String>) -> Response {
    match MODULES.iter().find(|(file, _)| *file == name) {
        Some((_, text)) => (
            [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
            *text,
        )
            .into_response(),
        None => not_found().await.into_response(),
    }
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
    let req: GameOnly = parse_body(body)?;
    let source = load_game(&req)?;
    Ok(doc_bytes(&GameInfoDoc::new(&source)))
}

async fn value(State(state): State<Arc<AppState>>, body: Body) -> Answer {
    position_report(&state, body, false).await
}

async fn moves(State(state): State<Arc<AppState>>, body: Body) -> Answer {
    position_report(&state, body, true).await
}

/// `/api/search-shard`: the shard document of `nimlab value … --shard i/k`.
async fn search_shard(State(state): State<Arc<AppState>>, body: Body) -> Answer {
    let req: SearchShardRequest = parse_body(body)?;
    compute(&state, game_key(&req), Lane::Heavy, move |opts| {
        let game = load_game(&req)?.game;
        let pos = plan::read_position(&*game, &position_text(&req)?)?;
        let settings = plan::SearchSettings::default();
        let below = req.below.unwrap_or(plan::DEFAULT_SHARD_BELOW);
        let s = plan::search_shard(&*game, &pos, opts, &settings, req.shard, below)?;
        let doc = nimlab_json::search_shard::SearchShardDoc::new(&*game, &pos, &s);
        Ok(json_bytes(&nimlab_json::doc::to_value(&doc)))
    })
    .await
}

/// `/api/search-merge`: the answer of `nimlab value … --merge FILES`.
async fn search_merge(State(state): State<Arc<AppState>>, body: Body) -> Answer {
    let req: SearchMergeRequest = parse_body(body)?;
    compute(&state, game_key(&req), Lane::Light, move |_| {
        let game = load_game(&req)?.game;
        let pos = plan::read_position(&*game, &position_text(&req)?)?;
        let r = nimlab_json::search_shard::merge(&*game, &pos, &req.shards)?;
        Ok(json_bytes(&nimlab_json::report_json(&*game, &r)))
    })
    .await
}

/// Largest heap the explorer's misère quotient takes.
const MAX_QUOTIENT_HEAP: u64 = 200;

/// `{"game": …, "size": N}`: the misère quotient of the game's heaps 0..=N (default
/// 30): elements with their P-status, heap → element, and the multiplication table.
async fn misere_quotient(State(state): State<Arc<AppState>>, body: Body) -> Answer {
    let req: SizeRequest = parse_body(body)?;
    compute(
        &state,
        game_key(&req),
        Lane::Heavy,
        move |opts: &TableOptions| {
            let game = load_game(&req)?.game;
            let max_heap = req.size.unwrap_or(30);
            if max_heap > MAX_QUOTIENT_HEAP {
                return Err(ApiError::bad(format!(
                    "\"size\" (the largest heap) must be at most {MAX_QUOTIENT_HEAP}"
                )));
            }
            let limits = nimlab_engine::misere_quotient::QuotientOptions {
                memory_limit: opts.memory_limit,
                time_limit: Some(std::time::Duration::from_secs(30)),
                ..Default::default()
            };
            let q =
                nimlab_engine::misere_quotient::MisereQuotient::of_game(&*game, max_heap, &limits)?;
            Ok(json_bytes(&nimlab_json::misere_quotient_json(
                &game.spec(),
                &q,
            )))
        },
    )
    .await
}

async fn position_report(state: &AppState, body: Body, with_options: bool) -> Answer {
    let req: PositionRequest = parse_body(body)?;
    compute(state, game_key(&req), Lane::Light, move |opts| {
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
    let req: SizeRequest = parse_body(body)?;
    compute(
        &state,
        game_key(&req),
        lane_of_size(req.size),
        move |opts| {
            let game = load_game(&req)?.game;
            let dims = table_dims(&*game, req.size)?;
            let report = plan::table(&*game, &dims, opts)?;
            let mut extra = vec![
                ("method", Value::from(report.method.id())),
                ("method_detail", Value::from(report.method.detail.clone())),
            ];
            extra.extend(sequence_period(&*game, &report.table, opts));
            if let Some(r) = game.capabilities().nplayer.map(|r| r.ranking.clone()) {
                extra.push(("values_are", Value::from("class")));
                extra.push(("players", Value::from(r.players())));
                extra.push(("ranking", Value::from(r.spec())));
            }
            let mut out = Vec::new();
            nimlab_json::write_table_json(&mut out, &*game, &report.table, &extra, false)
                .map_err(|e| ApiError::bad(e.to_string()))?;
            Ok(JsonBody(out))
        },
    )
    .await
}

/// A one-heap table's period, for the explorer to wrap the strip by and to state:
/// `period`, `preperiod`, `saltus` and whether it is `period_proven` — the planner's
/// periodicity over a window of at least the table and 400 heaps (proven when the game
/// proves it). Nothing for a table of two or more coordinates, an n-player game, or a
/// game whose periodicity query fails (a heap that is not a position, work refused).
fn sequence_period(
    game: &dyn Game,
    table: &nimlab_engine::table::GrundyTable,
    opts: &TableOptions,
) -> Vec<(&'static str, Value)> {
    if game.dimension() != 1 || game.capabilities().nplayer.is_some() {
        return Vec::new();
    }
    let window = table.values().len().max(400) as u64;
    match plan::periodicity(game, Some(window), opts) {
        Ok((Some(p), _, _)) => vec![
            ("period", Value::from(p.period)),
            ("preperiod", Value::from(p.preperiod)),
            ("saltus", Value::from(p.saltus)),
            ("period_proven", Value::from(p.proof.is_some())),
        ],
        _ => Vec::new(),
    }
}

async fn check(State(state): State<Arc<AppState>>, body: Body) -> Answer {
    let req: CheckRequest = parse_body(body)?;
    compute(
        &state,
        game_key(&req),
        lane_of_size(req.size),
        move |opts| {
            let source = load_game(&req)?;
            let game = &*source.game;
            // The box within the explorer's limit, before any work.
            table_dims(game, req.size)?;
            let request = nimlab_formula::check::CheckRequest {
                formula: req.formula.clone(),
                p_positions: req.p_positions.clone(),
                size: req.size.unwrap_or(0) as usize,
                limit: req.limit.unwrap_or(1000).min(MAX_LISTED_MISMATCHES),
                want_mask: false,
            };
            let checked = request.run(game, &nimlab_json::declared(&source), opts)?;
            Ok(json_bytes(&nimlab_json::check_json(game, &checked)))
        },
    )
    .await
}

/// `/api/prove`: decides the formula (or P-position predicate) for every position with
/// automata, as `nimlab prove`; the answer is [`nimlab_json::proof_json`].
async fn prove(State(state): State<Arc<AppState>>, body: Body) -> Answer {
    use nimlab_formula::prove::{parse_numeration, prove, ProveOptions};
    let req: ProveRequest = parse_body(body)?;
    // Automata may grow large before they are minimized: the heavy lane.
    compute(
        &state,
        game_key(&req),
        Lane::Heavy,
        move |opts: &TableOptions| {
            let source = load_game(&req)?;
            let game = &*source.game;
            let (claim, text) = nimlab_formula::check::choose_claim(
                req.formula.as_deref(),
                req.p_positions.as_deref(),
                game,
                &nimlab_json::declared(&source),
            )?;
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
            let proof = prove(game, claim, &text, num, &options).map_err(|e| match e {
                nimlab_formula::prove::ProveError::Cancelled => ApiError::from(Error::Cancelled),
                nimlab_formula::prove::ProveError::TooLarge(s) => ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "too-large",
                    format!("too large: {s}"),
                ),
                e => ApiError::bad(e.to_string()),
            })?;
            Ok(json_bytes(&nimlab_json::proof_json(&proof)))
        },
    )
    .await
}

/// `/api/guess`: formulas (or P-position predicates) that fit a window, as `nimlab
/// guess`; the answer is [`nimlab_json::guess::GuessDoc`].
async fn guess(State(state): State<Arc<AppState>>, body: Body) -> Answer {
    use nimlab_formula::check::Claim;
    use nimlab_json::guess::{guess_game, GuessDoc, GuessRequest};
    let req: GuessBody = parse_body(body)?;
    let claim = match req.claim.unwrap_or_default() {
        GuessClaim::Grundy => Claim::Grundy,
        GuessClaim::PPositions => Claim::PPositions,
    };
    let side = |v: Option<u64>| v.map(|v| usize::try_from(v).unwrap_or(usize::MAX));
    let request = GuessRequest {
        claim,
        size: side(req.size),
        verify_size: side(req.verify_size),
        prove: req.prove.unwrap_or(false),
    };
    // Enumerating candidates takes seconds: the heavy lane.
    compute(
        &state,
        game_key(&req),
        Lane::Heavy,
        move |opts: &TableOptions| {
            let source = load_game(&req)?;
            let run = guess_game(&*source.game, &source.constants, &request, opts)?;
            Ok(json_bytes(&nimlab_json::doc::to_value(&GuessDoc::new(
                &run,
            ))))
        },
    )
    .await
}

async fn play_move(State(state): State<Arc<AppState>>, body: Body) -> Answer {
    let req: PlayRequest = parse_body(body)?;
    let level = match req.level.unwrap_or_default() {
        LevelName::Perfect => Level::Perfect,
        LevelName::Easy => Level::Easy {
            seed: req.seed.unwrap_or(0),
        },
    };
    compute(&state, game_key(&req), Lane::Light, move |opts| {
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

/// Certificates: `{"certificate": …}` (the file's object or text) is checked and
/// answered with the verdict (as `nimlab certify --format json`); `{"game": …,
/// "up_to": N}` answers the certificate of the game's period proven below N.
async fn certify(State(state): State<Arc<AppState>>, body: Body) -> Answer {
    let req: CertifyRequest = parse_body(body)?;
    // Writing or checking a certificate runs a period search: the heavy lane.
    compute(
        &state,
        game_key(&req),
        Lane::Heavy,
        move |opts| match &req.certificate {
            Some(cert) => {
                let text = match cert {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                let verdict = nimlab_json::certificate::check(&text, "certificate", opts)?;
                let doc = nimlab_json::doc::CertifyDoc::new("certificate", &verdict);
                Ok(json_bytes(&nimlab_json::doc::to_value(&doc)))
            }
            None => {
                let game = load_game(&req)?.game;
                let cert = nimlab_json::certificate::write(&*game, req.up_to, opts)?;
                Ok(json_bytes(&cert))
            }
        },
    )
    .await
}

/// `/api/sweep`: a family's sweep, one shard (the document of `nimlab sweep`).
#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct SweepBody {
    family: String,
    max: u64,
    set_size: u64,
    #[serde(default)]
    shard: Option<(u64, u64)>,
    #[serde(default)]
    up_to: Option<u64>,
    #[serde(default)]
    count: Option<usize>,
}

async fn sweep(State(state): State<Arc<AppState>>, body: Body) -> Answer {
    let req: SweepBody = parse_body(body)?;
    let key = format!("sweep {}", req.family);
    compute(&state, key, Lane::Heavy, move |opts| {
        let request = nimlab_games::SweepRequest {
            max: req.max,
            size: req.set_size,
            shard: req.shard.unwrap_or((0, 1)),
            up_to: req.up_to.unwrap_or(10_000_000),
        };
        let doc = nimlab_json::census::sweep(&req.family, &request, req.count, opts)?;
        let mut out = Vec::new();
        nimlab_json::write_doc(&mut out, &doc, false).map_err(|e| ApiError::bad(e.to_string()))?;
        Ok(JsonBody(out))
    })
    .await
}

/// `/api/census`: the octal census of a shape, one shard (the lines of `nimlab census
/// octal`, merged as `census merge` merges them).
#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct CensusBody {
    digits: usize,
    #[serde(default)]
    base: Option<u32>,
    #[serde(default)]
    whole: Option<Vec<u8>>,
    #[serde(default)]
    up_to: Option<u64>,
    #[serde(default)]
    shard: Option<(u64, u64)>,
}

async fn census(State(state): State<Arc<AppState>>, body: Body) -> Answer {
    let req: CensusBody = parse_body(body)?;
    compute(&state, "census".into(), Lane::Heavy, move |opts| {
        use nimlab_json::census::{CensusMerge, CensusShape, OctalCensus};
        let shape = CensusShape::new(
            req.digits,
            req.base.unwrap_or(8),
            req.whole.as_deref().unwrap_or(&[0]),
            req.shard.unwrap_or((0, 1)),
        )?;
        let census = OctalCensus::new(shape, req.up_to.unwrap_or(1 << 16))?;
        let lines = census.collect(&[], opts)?;
        let mut merged = CensusMerge::new(opts.memory_limit);
        for (i, l) in lines.iter().enumerate() {
            merged.add(l, &format!("line {i}"))?;
        }
        Ok(json_bytes(&merged.document()?))
    })
    .await
}

/// A chocolate-bar game's position as a bar, with each option's eaten squares.
async fn bar(State(state): State<Arc<AppState>>, body: Body) -> Answer {
    let req: PositionRequest = parse_body(body)?;
    compute(&state, game_key(&req), Lane::Light, move |opts| {
        let game = load_game(&req)?.game;
        let pos = small_position(&*game, &position_text(&req)?)?;
        let Some(drawer) = game.capabilities().columns_picture else {
            return Err(ApiError::bad(format!(
                "{} is not played on a chocolate bar",
                game.spec()
            )));
        };
        let picture = drawer.columns_picture(&pos)?;
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
            let next = drawer.columns_picture(&small)?;
            options.push(BarOptionDoc {
                position: Pos::of(&*game, &o.position),
                grundy: o.grundy.clone().map(Nat),
                winning: o.winning,
                eaten: picture.eaten_by(&next),
            });
        }
        Ok(doc_bytes(&BarDoc {
            game: game.spec(),
            position: Pos::of(&*game, &big),
            caption: picture.caption.clone(),
            columns: picture.columns.iter().map(BarColumnDoc::new).collect(),
            grundy: report.grundy.clone().map(Nat),
            outcome: report.outcome.as_str(),
            options,
        }))
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
        serve_listener(listener, config).await
    })
}

/// Bytes read ahead to recognise a request that is not HTTP.
const PEEK_BYTES: usize = 4096;

/// The JSON 400 answer for a connection whose first request the HTTP layer would
/// refuse with a bare 400: bytes that are not an HTTP/1 request, or a `Content-Length`
/// that is not one natural number below 2^64 (negative, not digits, 20 digits and
/// more, repeated with different values). Read ahead without consuming, waiting (at
/// most `wait`) while the head is incomplete and fits [`PEEK_BYTES`]. `None` when the
/// head is fine (or longer than that, or nothing came in time): the HTTP layer serves
/// the connection, its own limits and time-out included.
async fn malformed_request(stream: &tokio::net::TcpStream, wait: Duration) -> Option<Vec<u8>> {
    let deadline = tokio::time::Instant::now() + wait;
    let mut buf = vec![0u8; PEEK_BYTES];
    let why = loop {
        let n = tokio::time::timeout_at(deadline, stream.peek(&mut buf))
            .await
            .ok()?
            .ok()?;
        if n == 0 {
            return None;
        }
        let mut headers = [httparse::EMPTY_HEADER; 128];
        let mut request = httparse::Request::new(&mut headers);
        match request.parse(&buf[..n]) {
            Ok(httparse::Status::Complete(_)) => {
                break bad_content_length(request.headers)?;
            }
            Ok(httparse::Status::Partial) if n < PEEK_BYTES => {
                // More of the head is on its way: look again shortly.
                tokio::time::sleep(Duration::from_millis(5)).await;
                if tokio::time::Instant::now() >= deadline {
                    return None;
                }
            }
            Ok(httparse::Status::Partial) | Err(httparse::Error::TooManyHeaders) => return None,
            Err(e) => break format!("not an HTTP/1 request: {e}"),
        }
    };
    let body = doc_bytes(&ErrorDoc::new("bad-request", why)).0;
    let body = String::from_utf8_lossy(&body);
    Some(
        format!(
            "HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
             connection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

/// Why the `Content-Length` headers of a request are not one length, if they are not:
/// every value (comma-separated values too) must be the same decimal natural number
/// below 2^64, as the HTTP layer requires.
fn bad_content_length(headers: &[httparse::Header<'_>]) -> Option<String> {
    let mut length: Option<u64> = None;
    for h in headers
        .iter()
        .filter(|h| h.name.eq_ignore_ascii_case("content-length"))
    {
        for item in String::from_utf8_lossy(h.value).split(',') {
            let item = item.trim();
            let shown = nimlab_engine::big::abbreviate(item);
            let n = match item.parse::<u64>() {
                Ok(n) if item.bytes().all(|b| b.is_ascii_digit()) => n,
                _ => {
                    return Some(format!(
                        "Content-Length {shown:?} is not a length in bytes (a natural number below 2^64)"
                    ))
                }
            };
            match length {
                Some(m) if m != n => {
                    return Some(format!(
                        "the request has two different Content-Length values, {m} and {n}"
                    ))
                }
                _ => length = Some(n),
            }
        }
    }
    None
}

/// Serves the explorer on `listener` until the process ends: HTTP/1.1 with a header
/// read time-out ([`ServeConfig::header_timeout`]), so a client that never finishes
/// its headers is disconnected.
///
/// ```no_run
/// # async fn run() -> std::io::Result<()> {
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
/// nimlab_web::serve_listener(listener, nimlab_web::ServeConfig::default()).await
/// # }
/// ```
pub async fn serve_listener(
    listener: tokio::net::TcpListener,
    config: ServeConfig,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use hyper_util::service::TowerToHyperService;
    let header_timeout = config.header_timeout;
    let app = router(config);
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(c) => c,
            // Out of descriptors and the like: wait a little instead of spinning.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let service = TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let mut stream = stream;
            if let Some(reply) = malformed_request(&stream, header_timeout).await {
                use tokio::io::AsyncWriteExt;
                let _ = stream.write_all(&reply).await;
                let _ = stream.shutdown().await;
                return;
            }
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                // Many small headers within MAX_HEADER_BYTES reach `request_limits`,
                // which answers the documented JSON 431 past the limit (the HTTP
                // layer's default is 100 headers, with a bare 431).
                .max_headers(MAX_HEADER_COUNT)
                .header_read_timeout(header_timeout)
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
