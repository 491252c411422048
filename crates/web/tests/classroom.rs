//! The teaching routes: `/api/explain`, `/api/challenge`, `/api/worksheet`. Expected
//! values come from the plain definition (mex over the options) and from Bouton.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use nimlab_web::{router, ServeConfig};
use serde_json::{json, Value};
use tower::ServiceExt;

async fn post(path: &str, body: Value) -> (StatusCode, Value) {
    let req = Request::builder()
        .method("POST")
        .uri(path)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let res = router(ServeConfig::default()).oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&bytes).expect("JSON"))
}

/// Wythoff's values by the definition.
fn wythoff(n: usize) -> Vec<Vec<u64>> {
    let mut g = vec![vec![0u64; n]; n];
    for y in 0..n {
        for x in 0..n {
            let mut seen: Vec<u64> = (0..x).map(|u| g[y][u]).collect();
            seen.extend((0..y).map(|v| g[v][x]));
            seen.extend((1..=x.min(y)).map(|k| g[y - k][x - k]));
            g[y][x] = (0..).find(|m| !seen.contains(m)).unwrap();
        }
    }
    g
}

#[tokio::test]
async fn explain_works_the_mex_out() {
    let g = wythoff(10);
    for (x, y) in [(4usize, 6usize), (3, 5), (0, 0), (9, 2)] {
        let (s, v) = post(
            "/api/explain",
            json!({"game": "wythoff", "position": format!("{x},{y}")}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let mut values: Vec<u64> = (0..x).map(|u| g[y][u]).collect();
        values.extend((0..y).map(|w| g[w][x]));
        values.extend((1..=x.min(y)).map(|k| g[y - k][x - k]));
        values.sort();
        values.dedup();
        let got: Vec<u64> = v["sorted_values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap())
            .collect();
        assert_eq!(got, values, "({x},{y})");
        assert_eq!(v["mex"], g[y][x]);
        assert_eq!(v["grundy"], g[y][x]);
    }
    // A sum: the components' values and their nim-sum in binary.
    let (_, v) = post(
        "/api/explain",
        json!({"game": "sum(wythoff,nim(heaps=1))", "position": "4,6,2"}),
    )
    .await;
    assert_eq!(v["nim_sum"]["rows"][0]["grundy"], 9);
    assert_eq!(v["nim_sum"]["rows"][0]["binary"], "1001");
    assert_eq!(v["nim_sum"]["rows"][1]["binary"], "0010");
    assert_eq!(v["nim_sum"]["binary"], "1011");
    assert_eq!(v["mex"], 11);
    // Nim: Bouton's columns from the game itself.
    let (_, v) = post("/api/explain", json!({"game": "nim", "position": [3, 5]})).await;
    assert!(v["closed_form"]
        .as_str()
        .unwrap()
        .contains("011 ⊕ 101 = 110"));
    // n-player games have classes: refused in one line.
    let (s, v) = post(
        "/api/explain",
        json!({"game": "nplayer-nim(n=3)", "position": "2,3"}),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
}

#[tokio::test]
async fn challenges_are_seeded_and_right() {
    let body = json!({"game": "nim", "difficulty": "medium", "seed": 11, "count": 12});
    let (s, a) = post("/api/challenge", body.clone()).await;
    assert_eq!(s, StatusCode::OK, "{a}");
    let (_, b) = post("/api/challenge", body).await;
    assert_eq!(a, b, "the same seed deals the same set");
    let list = a["challenges"].as_array().unwrap();
    assert_eq!(list.len(), 12);
    for c in list {
        let p: Vec<u64> = c["position"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap())
            .collect();
        assert!(p.iter().all(|&h| h < 12));
        let sum = p.iter().fold(0, |a, h| a ^ h);
        assert_eq!(c["grundy"], sum);
        assert_eq!(c["outcome"], if sum == 0 { "P" } else { "N" });
        for m in c["winning_moves"].as_array().unwrap() {
            let m: Vec<u64> = m
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n.as_u64().unwrap())
                .collect();
            assert_eq!(m.iter().fold(0, |a, h| a ^ h), 0);
        }
    }
    for bad in [
        json!({"game": "nim", "difficulty": "impossible"}),
        json!({"game": "nim", "count": 0}),
        json!({"game": "nim", "count": 100000}),
        json!({"game": "nim", "colour": "red"}),
    ] {
        let (s, v) = post("/api/challenge", bad.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{bad}: {v}");
    }
}

#[tokio::test]
async fn worksheets_blank_the_cells_asked_for() {
    let (s, v) = post(
        "/api/worksheet",
        json!({"game": "nim", "size": 4, "blank": "P;1,0"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["blanked"], 5);
    let latex = v["latex"].as_str().unwrap();
    // Row y = 0 first: cells (0,0) and (1,0) blanked.
    assert!(
        latex.contains("0 & \\blank & \\blank & 2 & 3 \\\\"),
        "{latex}"
    );
    assert!(
        latex.contains("0 & \\answer{0} & \\answer{1} & 2 & 3 \\\\"),
        "{latex}"
    );
    assert!(v["tikz"].as_str().unwrap().contains("\\begin{tikzpicture}"));
    assert!(v["svg"].as_str().unwrap().starts_with("<svg"));
    for bad in [
        json!({"game": "nim", "size": 4, "blank": "7,7"}),
        json!({"game": "nim", "size": 4, "blank": "ünïcode"}),
        json!({"game": "nim", "size": 100, "blank": "P"}),
    ] {
        let (s, v) = post("/api/worksheet", bad.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{bad}: {v}");
    }
}

/// A heap of 30 000 decimal digits (about 100 000 binary ones) is explained without
/// its binary columns, not a 500 (a formatting width above 65 535 panicked).
#[tokio::test]
async fn huge_heaps_are_explained() {
    let nines = "9".repeat(30_000);
    let (s, v) = post(
        "/api/explain",
        json!({"game": "nim", "position": [nines.clone(), "1"]}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{}", &v.to_string()[..200]);
    // 99…9 is odd: ⊕ 1 clears its last bit.
    let want = format!("{}8", "9".repeat(29_999));
    // Large values are written as strings of digits.
    let grundy = v["grundy"].as_str().expect("a string of digits");
    assert!(grundy == want, "a value of {} digits", grundy.len());
    let words = v["closed_form"].as_str().unwrap();
    assert!(
        words.contains("binary columns (too wide to show)"),
        "{words}"
    );
    assert!(words.len() < 500, "{} characters", words.len());
    // As the components of a sum, with their nim-sum in binary, padded alike.
    let (s, v) = post(
        "/api/explain",
        json!({"game": "sum(nim(heaps=1),nim(heaps=1))", "position": [nines, "1"]}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{}", &v.to_string()[..200]);
    let rows = v["nim_sum"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    let wide = rows[0]["binary"].as_str().unwrap();
    assert_eq!(rows[1]["binary"].as_str().unwrap().len(), wide.len());
    assert!(rows[1]["binary"].as_str().unwrap().ends_with("01"));
    assert_eq!(v["nim_sum"]["binary"].as_str().unwrap().len(), wide.len());
}
