//! A bounded load test on loopback: 2,000 requests, 50 at a time, one in five
//! malformed (bad JSON, garbage that is not HTTP, oversized bodies, clients that hang
//! up mid-request). The server must survive and answer every good request correctly.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const REQUESTS: usize = 2000;
const CONCURRENCY: usize = 50;

/// One HTTP/1.1 request on its own connection; the status and body of the answer.
async fn http(addr: std::net::SocketAddr, raw: &[u8]) -> std::io::Result<(u16, String)> {
    let mut s = TcpStream::connect(addr).await?;
    s.write_all(raw).await?;
    let mut out = Vec::new();
    s.read_to_end(&mut out).await?;
    let text = String::from_utf8_lossy(&out).to_string();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    Ok((status, body))
}

fn post(path: &str, body: &str) -> Vec<u8> {
    format!(
        "POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// The value of Wythoff's (3,5): a quick request.
fn quick() -> Vec<u8> {
    post("/api/value", r#"{"game":"wythoff","position":"3,5"}"#)
}

/// The router alone behind `axum::serve` on a loopback port; its address.
async fn serve_router(config: nimlab_web::ServeConfig) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = nimlab_web::router(config);
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    addr
}

/// The whole server (`serve_listener`) on a loopback port; its address.
async fn serve(config: nimlab_web::ServeConfig) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(nimlab_web::serve_listener(listener, config));
    addr
}

/// One worker, the given time limit, and the count of computations running.
fn one_worker(timeout: std::time::Duration) -> (nimlab_web::ServeConfig, Arc<AtomicUsize>) {
    let running = Arc::new(AtomicUsize::new(0));
    let config = nimlab_web::ServeConfig {
        workers: 1,
        timeout,
        running: running.clone(),
        ..nimlab_web::ServeConfig::default()
    };
    (config, running)
}

/// The i-th request: what to send and what a good answer must contain (`None`: a
/// malformed request, any 4xx answer or a closed connection will do).
fn request(i: usize) -> (Vec<u8>, Option<(u16, String)>) {
    let (x, y) = (i % 37, (i * 7) % 23);
    match i % 10 {
        0 => (
            post("/api/table", r#"{"game":"ryuoh(p=3)","size":32}"#),
            Some((200, "\"box\":[32,32]".into())),
        ),
        1 => (
            post(
                "/api/play",
                &format!(r#"{{"game":"nim","position":"{},{}"}}"#, x + 1, y),
            ),
            Some((200, "\"explanation\"".into())),
        ),
        2 => (
            post("/api/value", r#"{"game":"nim","position":"#),
            None, // malformed JSON
        ),
        3 => (
            b"\x16\x03\x01 this is not HTTP at all\r\n\r\n".to_vec(),
            None, // garbage
        ),
        4 if i % 20 == 4 => (
            post("/api/value", &" ".repeat(nimlab_web::MAX_BODY_BYTES + 10)),
            None, // oversized
        ),
        4 => (
            // A client that hangs up after half a request.
            b"POST /api/moves HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"ga".to_vec(),
            None,
        ),
        5 => (
            b"GET /api/games HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".to_vec(),
            Some((200, "\"wythoff\"".into())),
        ),
        _ => {
            // Wythoff's value: G(x, y) by the library itself.
            let game = nimlab_games::parse_game("wythoff").unwrap();
            let r = nimlab_engine::plan::value(
                &*game,
                &[x.into(), y.into()],
                &nimlab_engine::TableOptions::default(),
            )
            .unwrap();
            let g = r
                .grundy
                .map(|g| g.to_string())
                .unwrap_or_else(|| "null".into());
            (
                post(
                    "/api/moves",
                    &format!(r#"{{"game":"wythoff","position":"{x},{y}"}}"#),
                ),
                Some((200, format!("\"grundy\":{g},"))),
            )
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_survives_a_bounded_load() {
    let addr = serve_router(nimlab_web::ServeConfig::default()).await;

    let next = Arc::new(AtomicUsize::new(0));
    let good = Arc::new(AtomicUsize::new(0));
    let bad_answered = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut workers = Vec::new();
    for _ in 0..CONCURRENCY {
        let (next, good, bad_answered) = (next.clone(), good.clone(), bad_answered.clone());
        workers.push(tokio::spawn(async move {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= REQUESTS {
                    return;
                }
                let (raw, expect) = request(i);
                let hang_up = raw.ends_with(b"{\"ga");
                if hang_up {
                    let mut s = TcpStream::connect(addr).await.unwrap();
                    s.write_all(&raw).await.unwrap();
                    drop(s);
                    continue;
                }
                let answer = http(addr, &raw).await;
                match expect {
                    Some((status, needle)) => {
                        let (s, body) = answer.unwrap_or_else(|e| panic!("request {i}: {e}"));
                        assert_eq!(s, status, "request {i}: {body}");
                        assert!(
                            body.contains(&needle),
                            "request {i}: {needle} not in {body}"
                        );
                        good.fetch_add(1, Ordering::Relaxed);
                    }
                    None => {
                        if let Ok((s, _)) = answer {
                            assert!(s == 0 || (400..500).contains(&s), "request {i}: {s}");
                            bad_answered.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                }
            }
        }));
    }
    for w in workers {
        w.await.unwrap();
    }
    let elapsed = started.elapsed();
    let good = good.load(Ordering::Relaxed);
    assert_eq!(good, REQUESTS / 10 * 7, "every good request answered");
    eprintln!(
        "load: {REQUESTS} requests ({good} good), {CONCURRENCY} concurrent, in {:.2} s ({:.0} requests/s)",
        elapsed.as_secs_f64(),
        REQUESTS as f64 / elapsed.as_secs_f64()
    );
    // Still alive and well.
    let (s, body) = http(addr, &quick()).await.unwrap();
    assert_eq!(s, 200, "{body}");
    assert!(body.contains("\"outcome\":\"P\""));
}

/// A computation whose client hangs up stops: with one worker, a quick request after an
/// abandoned long one is answered at once instead of waiting for the long one's end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn work_stops_when_the_client_goes_away() {
    let (config, running) = one_worker(std::time::Duration::from_secs(600));
    let addr = serve_router(config).await;
    // Brute force over a 240 × 240 box of a pasted game with ~x·y options per cell and
    // no kernel: tens of seconds of work (300 × 300 takes over a minute).
    let mut a = TcpStream::connect(addr).await.unwrap();
    a.write_all(&slow_table()).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    drop(a);
    let started = Instant::now();
    let (s, body) = http(addr, &quick()).await.unwrap();
    assert_eq!(s, 200, "{body}");
    let waited = started.elapsed();
    // The quick request waits at most for the abandoned work's next progress report
    // (a figure, not a verdict: no test verdict depends on wall time).
    eprintln!("a quick request after an abandoned long one: {waited:?}");
    // The verdict: the abandoned computation is no longer running.
    until_stopped(&running).await;
}

/// Waits (a hang guard of a minute, never a verdict on speed) until no computation runs.
async fn until_stopped(running: &std::sync::atomic::AtomicUsize) {
    for _ in 0..600 {
        if running.load(std::sync::atomic::Ordering::SeqCst) == 0 {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!(
        "{} computations still running a minute after their clients left",
        running.load(std::sync::atomic::Ordering::SeqCst)
    );
}

/// The slow pasted game of `work_stops_when_the_client_goes_away`: tens of seconds of
/// brute force, reporting progress as it goes.
fn slow_table() -> Vec<u8> {
    post(
        "/api/table",
        r#"{"rules":"name = \"slow\"\ndimension = 2\nmoves = \"c0 >= 0 && c1 >= 0\"\n","size":240}"#,
    )
}

/// Heavy requests queue in their own lane: a cheap one is answered at once while they
/// run, and heavy ones that time out stop computing (their workers are free again).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cheap_requests_pass_heavy_ones_and_stopped_work_stops() {
    let (config, running) = one_worker(std::time::Duration::from_secs(2));
    let addr = serve(config).await;
    // Six heavy requests at once: one computes, five wait for the heavy lane.
    let mut heavy = Vec::new();
    for _ in 0..6 {
        heavy.push(tokio::spawn(async move { http(addr, &slow_table()).await }));
    }
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let started = Instant::now();
    let (s, body) = http(addr, &quick()).await.unwrap();
    let waited = started.elapsed();
    assert_eq!(s, 200, "{body}");
    eprintln!("a cheap request beside 6 heavy ones: {waited:?}");
    // Every heavy one is stopped at the time limit with a JSON error.
    for h in heavy {
        let (s, body) = h.await.unwrap().unwrap();
        assert_eq!(s, 503, "{body}");
        assert!(body.contains("\"kind\""), "{body}");
    }
    // The stopped work really stopped, and the one heavy worker takes a new table.
    until_stopped(&running).await;
    let started = Instant::now();
    let (s, body) = http(
        addr,
        &post("/api/table", r#"{"game":"wythoff","size":1024}"#),
    )
    .await
    .unwrap();
    assert_eq!(s, 200, "{}", &body[..body.len().min(200)]);
    let waited = started.elapsed();
    eprintln!("a heavy request after 6 stopped ones: {waited:?}");
}

/// A client that never finishes its headers is disconnected.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_headers_are_cut_off() {
    let addr = serve(nimlab_web::ServeConfig {
        header_timeout: std::time::Duration::from_millis(300),
        ..nimlab_web::ServeConfig::default()
    })
    .await;
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(b"POST /api/value HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    let mut out = Vec::new();
    // The server closes the connection (perhaps after a bare 408): read_to_end ends.
    let read =
        tokio::time::timeout(std::time::Duration::from_secs(10), s.read_to_end(&mut out)).await;
    assert!(read.is_ok(), "the connection is still open");
}

/// Bytes that are not an HTTP request get a JSON 400 like every other error (the HTTP
/// layer alone would answer a bare 400); a request sent in pieces is still served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bytes_that_are_not_http_get_a_json_400() {
    let addr = serve(nimlab_web::ServeConfig::default()).await;
    for garbage in [
        &b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03"[..],
        b"GET /\x00 HTTP/1.1\r\n\r\n",
        b"HELLO WORLD\r\n\r\n",
        "GÉT / HTTP/1.1\r\n\r\n".as_bytes(),
    ] {
        let (status, body) = http(addr, garbage).await.unwrap();
        assert_eq!(status, 400, "{garbage:?}");
        let v: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(v["error"]["kind"], "bad-request", "{body}");
        assert!(body.starts_with("{\"schema\":1,"), "{body}");
    }
    // The request line first, the rest a little later.
    let mut s = TcpStream::connect(addr).await.unwrap();
    let raw = quick();
    s.write_all(&raw[..10]).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    s.write_all(&raw[10..]).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let text = String::from_utf8_lossy(&out);
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(text.contains("\"grundy\":0"), "{text}");
}
