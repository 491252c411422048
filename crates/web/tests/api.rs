//! The explorer's API, request by request (no network: `tower::ServiceExt::oneshot`).
//! Expected answers come from the library (the CLI prints the same documents) and from
//! the seed tables.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use nimlab_engine::big::parse_big_position;
use nimlab_engine::TableOptions;
use nimlab_web::{router, ServeConfig};
use serde_json::{json, Value};
use std::time::Duration;
use tower::ServiceExt;

async fn send(
    config: ServeConfig,
    method: &str,
    path: &str,
    body: Vec<u8>,
) -> (StatusCode, Vec<u8>) {
    let req = Request::builder()
        .method(method)
        .uri(path)
        .header("content-type", "application/json")
        .body(Body::from(body))
        .unwrap();
    let res = router(config).oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes().to_vec();
    (status, bytes)
}

async fn post(path: &str, body: Value) -> (StatusCode, Value) {
    let (s, b) = send(
        ServeConfig::default(),
        "POST",
        path,
        body.to_string().into_bytes(),
    )
    .await;
    (s, serde_json::from_slice(&b).expect("every answer is JSON"))
}

fn error_kind(v: &Value) -> &str {
    v["error"]["kind"].as_str().expect("an error object")
}

#[tokio::test]
async fn the_page_and_its_assets_are_served() {
    let (s, b) = send(ServeConfig::default(), "GET", "/", vec![]).await;
    assert_eq!(s, StatusCode::OK);
    assert!(String::from_utf8(b).unwrap().contains("nimlab explorer"));
    for path in ["/js/main.js", "/app.css"] {
        let (s, b) = send(ServeConfig::default(), "GET", path, vec![]).await;
        assert_eq!(s, StatusCode::OK, "{path}");
        assert!(b.len() > 500, "{path}");
    }
    // Every module main.js imports, directly or not, is served.
    for (name, text) in nimlab_web::MODULES {
        let (s, b) = send(
            ServeConfig::default(),
            "GET",
            &format!("/js/{name}"),
            vec![],
        )
        .await;
        assert_eq!(
            (s, b.as_slice()),
            (StatusCode::OK, text.as_bytes()),
            "{name}"
        );
        for import in text.lines().filter_map(|l| l.split("from \"./").nth(1)) {
            let file = import.trim_end_matches("\";");
            assert!(
                nimlab_web::MODULES.iter().any(|(n, _)| *n == file),
                "{name} imports {file}"
            );
        }
    }
    let (s, _) = send(ServeConfig::default(), "GET", "/js/nosuch.js", vec![]).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_catalog_lists_every_family() {
    let (s, b) = send(ServeConfig::default(), "GET", "/api/games", vec![]).await;
    assert_eq!(s, StatusCode::OK);
    assert!(
        b.starts_with(b"{\"schema\":1,"),
        "the CLI's layout: schema first"
    );
    let v: Value = serde_json::from_slice(&b).unwrap();
    let names: Vec<&str> = v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), nimlab_games::catalog().len());
    assert!(names.contains(&"wythoff") && names.contains(&"ryuoh"));
}

#[tokio::test]
async fn value_and_moves_have_the_cli_shape() {
    let (s, v) = post("/api/moves", json!({"game": "wythoff", "position": "4,6"})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["winning_moves"], json!([[3, 5]]));
    assert_eq!(v["grundy"], 9);
    let game = nimlab_games::parse_game("wythoff").unwrap();
    let r = nimlab_engine::plan::moves(
        &*game,
        &parse_big_position("4,6").unwrap(),
        &TableOptions::default(),
    )
    .unwrap();
    let mut expected = nimlab_json::report_json(&*game, &r);
    expected["schema"] = json!(1);
    assert_eq!(v, expected);
    // A position as an array, numbers beyond 2^64 as text.
    let (s, v) = post(
        "/api/value",
        json!({"game": "nim", "position": [3, "100000000000000000000000"]}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["outcome"], "N");
}

#[tokio::test]
async fn a_big_board_is_valued_by_the_librarys_search() {
    // Rank 32: the planner's search route, as on the command line (Beling: 4×8 is 0).
    let (s, v) = post(
        "/api/value",
        json!({"game": "cram(rows=4,cols=8)", "position": "start"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["grundy"], 0);
    assert_eq!(v["method"], "search");
}

#[tokio::test]
async fn tables_match_the_seed() {
    // Table 1 of the Ryuoh paper (p = 3), the first rows.
    let (s, v) = post("/api/table", json!({"game": "ryuoh(p=3)", "size": 4})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["box"], json!([4, 4]));
    assert_eq!(
        v["values"],
        json!([[0, 1, 2, 3], [1, 2, 0, 4], [2, 0, 1, 5], [3, 4, 5, 0]])
    );
    let (s, v) = post("/api/table", json!({"game": "wythoff", "size": 5000})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(error_kind(&v), "too-large");
}

#[tokio::test]
async fn formulas_are_checked() {
    let (s, v) = post(
        "/api/check",
        json!({"game": "nim", "size": 32, "formula": "x xor y"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        (v["holds"].clone(), v["checked"].clone()),
        (json!(true), json!(1024))
    );
    let (_, v) = post(
        "/api/check",
        json!({"game": "wythoff", "size": 8, "p_positions": "x == y", "limit": 3}),
    )
    .await;
    assert_eq!(v["holds"], false);
    assert_eq!(v["mismatches"].as_array().unwrap().len(), 3);
    assert_eq!(v["mismatches"][0]["position"], json!([1, 1]));
    let (s, v) = post(
        "/api/check",
        json!({"game": "nim", "size": 8, "formula": "x +"}),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(error_kind(&v), "input");
    // The document is the library's, as the CLI writes it.
    let (_, v) = post(
        "/api/check",
        json!({"game": "ryuoh(p=3)", "size": 10, "formula": "x xor y", "limit": 4}),
    )
    .await;
    let game = nimlab_games::parse_game("ryuoh(p=3)").unwrap();
    let request = nimlab_formula::check::CheckRequest {
        formula: Some("x xor y".into()),
        size: 10,
        limit: 4,
        ..Default::default()
    };
    let checked = request
        .run(&*game, &Default::default(), &TableOptions::default())
        .unwrap();
    let mut expected = nimlab_json::check_json(&*game, &checked);
    expected["schema"] = json!(1);
    assert_eq!(v, expected);
}

#[tokio::test]
async fn certificates_are_written_and_checked() {
    let (s, cert) = post(
        "/api/certify",
        json!({"game": "octal(code=0.137)", "up_to": 1000}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{cert}");
    assert_eq!(
        (cert["preperiod"].clone(), cert["period"].clone()),
        (json!(52), json!(34))
    );
    let (s, v) = post("/api/certify", json!({"certificate": cert.clone()})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        (v["holds"].clone(), v["refuted"].clone()),
        (json!(true), Value::Null)
    );
    // As text too; a certificate that contradicts itself is an input error.
    let (_, t) = post("/api/certify", json!({"certificate": cert.to_string()})).await;
    assert_eq!(t, v);
    let mut edited = cert.clone();
    edited["max_take"] = json!(5);
    let (s, e) = post("/api/certify", json!({"certificate": edited})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(
        e["error"]["message"].as_str().unwrap().contains("max_take"),
        "{e}"
    );
    // No proven period below the window: the error names the request's field.
    let (s, e) = post(
        "/api/certify",
        json!({"game": "octal(code=0.137)", "up_to": 100}),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("\"up_to\": 100"),
        "{e}"
    );
}

#[tokio::test]
async fn pasted_rules_are_played() {
    let rules = "name = \"take-1-2\"\ndimension = 1\nmoves = \"c0 == 1 || c0 == 2\"\n";
    let (s, v) = post("/api/value", json!({"rules": rules, "position": "7"})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["grundy"], 1);
    let (s, v) = post("/api/play", json!({"rules": rules, "position": "7"})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["to"], json!([6]));
}

#[tokio::test]
async fn the_computer_plays_and_explains() {
    let (s, v) = post("/api/play", json!({"game": "nim", "position": "5,2"})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        (v["to"].clone(), v["winning"].clone()),
        (json!([2, 2]), json!(true))
    );
    assert!(v["explanation"].as_str().unwrap().contains("nim-sum"));
    let (_, v) = post(
        "/api/play",
        json!({"game": "ryuoh(p=3)", "position": "4,7"}),
    )
    .await;
    assert!(
        v["explanation"].as_str().unwrap().contains("Theorem 3.1"),
        "{v}"
    );
    let (_, v) = post("/api/play", json!({"game": "wythoff", "position": "4,6"})).await;
    assert!(
        v["explanation"].as_str().unwrap().contains("Zeckendorf"),
        "{v}"
    );
    let (_, v) = post("/api/play", json!({"game": "wythoff", "position": "3,5"})).await;
    assert_eq!(v["winning"], false);
    assert!(v["remoteness"].as_u64().is_some());
    let (_, v) = post(
        "/api/play",
        json!({"game": "nim", "position": "6,4", "level": "easy", "seed": 3}),
    )
    .await;
    assert!(v["to"].is_array(), "{v}");
    let (s, v) = post("/api/play", json!({"game": "nim", "position": "0,0"})).await;
    assert_eq!((s, error_kind(&v)), (StatusCode::CONFLICT, "game-over"));
    let (s, v) = post(
        "/api/play",
        json!({"game": "nim", "position": "1", "level": "hard"}),
    )
    .await;
    assert_eq!(
        (s, error_kind(&v)),
        (StatusCode::BAD_REQUEST, "bad-request")
    );
}

#[tokio::test]
async fn chocolate_bars_are_drawn_with_their_breaks() {
    let (s, v) = post(
        "/api/bar",
        json!({"game": "chocolate", "position": "1,1,0"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["columns"].as_array().unwrap().len(), 2);
    let options = v["options"].as_array().unwrap();
    assert_eq!(options.len(), 2);
    assert_eq!(options[0]["eaten"].as_array().unwrap().len(), 2);
    let (s, _) = post("/api/bar", json!({"game": "wythoff", "position": "1,1"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn bad_requests_get_json_errors() {
    let cases: Vec<(&str, Vec<u8>, StatusCode, &str)> = vec![
        (
            "/api/value",
            b"{\"game\":".to_vec(),
            StatusCode::BAD_REQUEST,
            "bad-request",
        ),
        (
            "/api/value",
            b"\xff\xfe".to_vec(),
            StatusCode::BAD_REQUEST,
            "bad-request",
        ),
        (
            "/api/value",
            br#"{"game":"wythoff","position":"3,5","x":1}"#.to_vec(),
            StatusCode::BAD_REQUEST,
            "bad-request",
        ),
        (
            "/api/value",
            br#"{"game":"nosuchgame","position":"1"}"#.to_vec(),
            StatusCode::BAD_REQUEST,
            "input",
        ),
        (
            "/api/value",
            br#"{"game":"wythoff","position":"3,x"}"#.to_vec(),
            StatusCode::BAD_REQUEST,
            "input",
        ),
        (
            "/api/value",
            "{\"game\":\"wyth\u{f6}ff\",\"position\":\"1,1\"}"
                .as_bytes()
                .to_vec(),
            StatusCode::BAD_REQUEST,
            "input",
        ),
        (
            "/api/value",
            br#"{"game":"rules(file=/etc/passwd)","position":"1"}"#.to_vec(),
            StatusCode::BAD_REQUEST,
            "bad-request",
        ),
        (
            "/api/value",
            br#"{"position":"1"}"#.to_vec(),
            StatusCode::BAD_REQUEST,
            "bad-request",
        ),
        (
            "/api/table",
            br#"{"game":"wythoff"}"#.to_vec(),
            StatusCode::BAD_REQUEST,
            "bad-request",
        ),
        (
            "/api/value",
            vec![b' '; nimlab_web::MAX_BODY_BYTES + 1],
            StatusCode::PAYLOAD_TOO_LARGE,
            "too-large-request",
        ),
        ("/api/nothing", vec![], StatusCode::NOT_FOUND, "not-found"),
    ];
    for (path, body, status, kind) in cases {
        let (s, b) = send(ServeConfig::default(), "POST", path, body).await;
        let v: Value = serde_json::from_slice(&b).expect("a JSON error");
        assert_eq!((s, error_kind(&v)), (status, kind), "{path}: {v}");
        assert!(!v["error"]["message"].as_str().unwrap().is_empty());
    }
}

#[tokio::test]
async fn long_work_is_stopped_at_the_time_limit() {
    let config = ServeConfig {
        timeout: Duration::from_millis(1),
        ..ServeConfig::default()
    };
    let body = json!({"game": "ryuoh(p=3)", "size": 1024})
        .to_string()
        .into_bytes();
    let (s, b) = send(config, "POST", "/api/table", body).await;
    let v: Value = serde_json::from_slice(&b).unwrap();
    assert_eq!(
        (s, error_kind(&v)),
        (StatusCode::SERVICE_UNAVAILABLE, "timeout")
    );
}

#[tokio::test]
async fn protocol_errors_are_json_too() {
    // 405: the API takes POST.
    let (s, b) = send(ServeConfig::default(), "GET", "/api/value", vec![]).await;
    let v: Value = serde_json::from_slice(&b).expect("a JSON 405");
    assert_eq!(
        (s, error_kind(&v)),
        (StatusCode::METHOD_NOT_ALLOWED, "method-not-allowed")
    );
    // 414: a long request line.
    let long = format!("/api/value?{}", "a".repeat(nimlab_web::MAX_URI_BYTES));
    let (s, b) = send(ServeConfig::default(), "POST", &long, b"{}".to_vec()).await;
    let v: Value = serde_json::from_slice(&b).expect("a JSON 414");
    assert_eq!(
        (s, error_kind(&v)),
        (StatusCode::URI_TOO_LONG, "uri-too-long")
    );
    // 431: large headers.
    let req = Request::builder()
        .method("POST")
        .uri("/api/value")
        .header("x-big", "b".repeat(nimlab_web::MAX_HEADER_BYTES))
        .body(Body::from("{}"))
        .unwrap();
    let res = router(ServeConfig::default()).oneshot(req).await.unwrap();
    let s = res.status();
    let b = res.into_body().collect().await.unwrap().to_bytes();
    let v: Value = serde_json::from_slice(&b).expect("a JSON 431");
    assert_eq!(
        (s, error_kind(&v)),
        (
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "headers-too-large"
        )
    );
}

#[tokio::test]
async fn positions_are_capped_and_their_answers_bounded() {
    // 20,001 heaps (a 40 KB body): refused by size, not computed.
    let many = vec!["1"; 20_001].join(",");
    for path in ["/api/value", "/api/moves"] {
        let (s, v) = post(path, json!({"game": "misere(nim)", "position": many})).await;
        assert_eq!(
            (s, error_kind(&v)),
            (StatusCode::UNPROCESSABLE_ENTITY, "too-large"),
            "{v}"
        );
    }
    // 3,001 heaps: answered, with lists within the memory limit.
    let some = vec!["1"; 3001].join(",");
    for game in ["nim", "misere(nim)", "octal(code=0.137)"] {
        let (s, v) = post("/api/moves", json!({"game": game, "position": some})).await;
        assert_eq!(s, StatusCode::OK, "{game}: {v}");
    }
}

#[tokio::test]
async fn formulas_are_proved_for_every_position() {
    let (s, v) = post(
        "/api/prove",
        json!({"game": "ryuoh(p=3)", "formula": "(x+y)%3 + 3*((x/3) xor (y/3))"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["result"]["proved"], true);
    let (_, v) = post(
        "/api/prove",
        json!({"game": "wythoff", "p_positions": "min(x,y) == floor_phi(abs(x-y))", "numeration": "fib"}),
    )
    .await;
    assert_eq!(v["result"]["proved"], true);
    let (s, v) = post(
        "/api/prove",
        json!({"game": "ryuoh(p=3)", "formula": "x xor y"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["result"]["proved"], false);
    assert_eq!(v["result"]["position"], json!(["1", "1"]));
    let (s, v) = post("/api/prove", json!({"game": "nim", "formula": "x * y"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(error_kind(&v), "bad-request");
    // a mixed radix with a repeating block, read in base 6
    let (s, v) = post(
        "/api/prove",
        json!({"game": "takeaway(dim=2, moves=Cbeta(beta=[(2,3)..]))",
               "formula": "sigma(beta=[(2,3)..], x, y)", "numeration": "mixed([(2,3)..])"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["result"]["proved"], true);
    // the explorer's button beside the formula box posts to /api/prove
    let (_, page) = send(ServeConfig::default(), "GET", "/", vec![]).await;
    assert!(String::from_utf8(page).unwrap().contains("id=\"prove\""));
    let (_, js) = send(ServeConfig::default(), "GET", "/js/heatmap.js", vec![]).await;
    assert!(String::from_utf8(js).unwrap().contains("api(\"prove\""));
}

/// A search split at the root: the shards are the library's documents, and their
/// merge is Cram 4×7's published nimber 3; shards that do not fit are refused.
#[tokio::test]
async fn a_split_search_is_the_librarys() {
    use nimlab_engine::plan::{read_position, search_shard, SearchSettings};
    let game = nimlab_games::parse_game("cram(rows=4,cols=7)").unwrap();
    let pos = read_position(&*game, "start").unwrap();
    let mut shards = Vec::new();
    for i in 0..2 {
        let (s, v) = post(
            "/api/search-shard",
            json!({"game": "cram(rows=4,cols=7)", "position": "start", "shard": [i, 2]}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let lib = search_shard(
            &*game,
            &pos,
            &TableOptions::default(),
            &SearchSettings::default(),
            (i, 2),
            4,
        )
        .unwrap();
        let mut expected = nimlab_json::doc::to_value(
            &nimlab_json::search_shard::SearchShardDoc::new(&*game, &pos, &lib),
        );
        expected["schema"] = json!(1);
        assert_eq!(v, expected);
        shards.push(v);
    }
    let (s, v) = post(
        "/api/search-merge",
        json!({"game": "cram(rows=4,cols=7)", "position": "start", "shards": shards}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["grundy"], json!(3));
    assert_eq!(v["method"], "search");
    let (s, e) = post(
        "/api/search-merge",
        json!({"game": "cram(rows=4,cols=7)", "position": "start", "shards": [shards[0]]}),
    )
    .await;
    assert_eq!((s, error_kind(&e)), (StatusCode::BAD_REQUEST, "input"));
    let (s, e) = post(
        "/api/search-shard",
        json!({"game": "cram(rows=4,cols=7)", "position": "start", "shard": [2, 2]}),
    )
    .await;
    assert_eq!((s, error_kind(&e)), (StatusCode::BAD_REQUEST, "input"));
}

/// Sweeps and censuses answer through the library the CLI runs: the same documents.
#[tokio::test]
async fn sweeps_and_censuses_are_the_librarys() {
    use nimlab_games::SweepRequest;
    let (s, v) = post(
        "/api/sweep",
        json!({"family": "subtraction", "max": 9, "set_size": 3, "shard": [1, 2]}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let request = SweepRequest {
        max: 9,
        size: 3,
        shard: (1, 2),
        up_to: 10_000_000,
    };
    let doc = nimlab_json::census::sweep("subtraction", &request, None, &TableOptions::default())
        .unwrap();
    let mut expected = nimlab_json::doc::to_value(&doc);
    expected["schema"] = json!(1);
    assert_eq!(v, expected);
    // Each row's period, from the plain definition (a repeated window).
    for row in v["results"].as_array().unwrap().iter().take(5) {
        let set: Vec<u64> = serde_json::from_value(row["s"].clone()).unwrap();
        let per = nimlab_games::subtraction::certify_period(&set, 1 << 20).unwrap();
        assert_eq!(row["period"], json!(per.period));
    }
    let (s, e) = post(
        "/api/sweep",
        json!({"family": "wythoff", "max": 9, "set_size": 3}),
    )
    .await;
    assert_eq!((s, error_kind(&e)), (StatusCode::BAD_REQUEST, "input"));
    let (s, c) = post("/api/census", json!({"digits": 1, "up_to": 1024})).await;
    assert_eq!(s, StatusCode::OK, "{c}");
    assert_eq!(c["count"], json!(7));
    let kayles_like = &c["games"].as_array().unwrap()[2]; // census order: 0.1, 0.2, 0.3
    let entry = nimlab_octal::census::solve("0.3", 8, 1024).unwrap();
    assert_eq!(kayles_like["code"], "0.3");
    assert_eq!(kayles_like["period"], json!(entry.period.unwrap().period));
    let (s, e) = post("/api/census", json!({"digits": 1, "base": 37})).await;
    assert_eq!((s, error_kind(&e)), (StatusCode::BAD_REQUEST, "input"));
    assert!(
        e["error"]["message"].as_str().unwrap().contains("base"),
        "{e}"
    );
}

#[tokio::test]
async fn each_endpoint_takes_its_own_fields_only() {
    // A field another endpoint takes is not silently ignored here.
    for (path, body) in [
        (
            "/api/value",
            json!({"game": "nim", "position": "1,2", "size": 9}),
        ),
        (
            "/api/table",
            json!({"game": "nim", "size": 4, "position": "1"}),
        ),
        ("/api/game", json!({"game": "nim", "level": "easy"})),
        (
            "/api/play",
            json!({"game": "nim", "position": "1,2", "formula": "x"}),
        ),
        (
            "/api/explain",
            json!({"game": "nim", "position": "1,2", "count": 3}),
        ),
        (
            "/api/worksheet",
            json!({"game": "nim", "size": 4, "difficulty": "easy"}),
        ),
    ] {
        let (s, v) = post(path, body).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{path}: {v}");
        assert_eq!(error_kind(&v), "bad-request", "{path}");
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("unknown field"),
            "{path}: {v}"
        );
    }
    // The choices are typed: an unknown one names the ones there are.
    let (s, v) = post(
        "/api/play",
        json!({"game": "nim", "position": "1,2", "level": "expert"}),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let message = v["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("perfect") && message.contains("easy"),
        "{message}"
    );
    let (s, v) = post("/api/guess", json!({"game": "nim", "claim": "value"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let message = v["error"]["message"].as_str().unwrap();
    assert!(message.contains("p_positions"), "{message}");
    // And the fields each takes still work.
    let (s, v) = post(
        "/api/play",
        json!({"game": "nim", "position": "1,2", "level": "easy", "seed": 3}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
}

/// A disk or socket failure is the server's fault: 500, kind "io", the cause in the message.
#[tokio::test]
async fn an_io_failure_is_the_servers_fault_with_its_cause() {
    use axum::response::IntoResponse;
    use nimlab_engine::Error;
    use nimlab_web::ApiError;
    let answer = |e: Error| async move {
        let res = ApiError::from(e).into_response();
        let status = res.status();
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        (status, serde_json::from_slice::<Value>(&bytes).unwrap())
    };
    let (status, doc) = answer(Error::io(
        "cannot write x.json",
        std::io::Error::from_raw_os_error(28),
    ))
    .await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(error_kind(&doc), "io");
    let message = doc["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("cannot write x.json: No space left on device"),
        "{message}"
    );
    let (status, _) = answer(Error::input("bad heap")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}
