//! The server's limits on raw TCP (127.0.0.1 only): computations stop when their
//! request is over, malformed lengths and many headers get JSON errors, and a body that
//! trickles in is cut off. No verdict depends on time: the server's own count of
//! running computations ([`nimlab_web::ServeConfig::running`]) tells whether work
//! stopped, and every wait is a hang guard.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A server on a free port of 127.0.0.1 with `config`.
async fn start(config: nimlab_web::ServeConfig) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(nimlab_web::serve_listener(listener, config));
    addr
}

fn post(path: &str, body: &str) -> Vec<u8> {
    format!(
        "POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// Reads one response (head and a body of its Content-Length): status and body. The
/// connection may stay open after it.
async fn response(s: &mut TcpStream) -> (u16, String) {
    let read = async {
        let mut buf = Vec::new();
        let mut chunk = [0u8; 4096];
        loop {
            if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&buf[..end]).to_string();
                let length: usize = head
                    .lines()
                    .find_map(|l| {
                        let (k, v) = l.split_once(':')?;
                        k.eq_ignore_ascii_case("content-length")
                            .then(|| v.trim().parse().ok())?
                    })
                    .unwrap_or(0);
                if buf.len() >= end + 4 + length {
                    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
                    let body = String::from_utf8_lossy(&buf[end + 4..end + 4 + length]);
                    return (status, body.to_string());
                }
            }
            let n = s.read(&mut chunk).await.unwrap();
            assert!(
                n > 0,
                "closed before a whole response: {:?}",
                String::from_utf8_lossy(&buf)
            );
            buf.extend_from_slice(&chunk[..n]);
        }
    };
    // A hang guard only.
    tokio::time::timeout(Duration::from_secs(60), read)
        .await
        .expect("no response")
}

/// Sends `raw` on a new connection and reads the response.
async fn exchange(addr: std::net::SocketAddr, raw: &[u8]) -> (u16, serde_json::Value) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(raw).await.unwrap();
    let (status, body) = response(&mut s).await;
    let v = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body:?}"));
    (status, v)
}

/// Waits (a hang guard of a minute) until `running` is `want`.
async fn until_running(running: &AtomicUsize, want: usize, what: &str) {
    for _ in 0..6000 {
        if running.load(Ordering::SeqCst) == want {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!(
        "{what}: {} computations running, not {want}",
        running.load(Ordering::SeqCst)
    );
}

/// `nplayer(nim,n=5)` with 50 heaps of 100: minutes of the class recursion (it kept a
/// core busy with 1 GB after its client had gone).
fn long_play() -> Vec<u8> {
    let heaps = vec!["100"; 50].join(",");
    post(
        "/api/play",
        &format!(r#"{{"game":"nplayer(nim,n=5)","position":"{heaps}"}}"#),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_computation_stops_when_its_client_goes_away() {
    let running = Arc::new(AtomicUsize::new(0));
    let addr = start(nimlab_web::ServeConfig {
        timeout: Duration::from_secs(3600),
        running: running.clone(),
        ..nimlab_web::ServeConfig::default()
    })
    .await;
    let mut client = TcpStream::connect(addr).await.unwrap();
    client.write_all(&long_play()).await.unwrap();
    until_running(&running, 1, "the long request").await;
    drop(client);
    until_running(&running, 0, "after the client went away").await;
    // And the server answers the next request.
    let (status, v) = exchange(
        addr,
        &post("/api/value", r#"{"game":"wythoff","position":"3,5"}"#),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["grundy"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_computation_stops_at_its_time_limit() {
    let running = Arc::new(AtomicUsize::new(0));
    let addr = start(nimlab_web::ServeConfig {
        timeout: Duration::from_millis(500),
        running: running.clone(),
        ..nimlab_web::ServeConfig::default()
    })
    .await;
    let (status, v) = exchange(addr, &long_play()).await;
    assert_eq!(status, 503, "{v}");
    assert_eq!(v["error"]["kind"], "timeout", "{v}");
    until_running(&running, 0, "after the 503").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_lengths_get_json_errors() {
    let addr = start(nimlab_web::ServeConfig::default()).await;
    let body = r#"{"game":"wythoff","position":"3,5"}"#;
    for length in [
        "-5".to_string(),
        "99999999999999999999".into(), // 20 digits, above 2^64
        "1e3".into(),
        format!("{}\r\nContent-Length: {}", body.len(), body.len() + 1),
        format!("{}, {}", body.len(), body.len() + 1),
    ] {
        let raw = format!(
            "POST /api/value HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\n\r\n{body}"
        );
        let (status, v) = exchange(addr, raw.as_bytes()).await;
        assert_eq!(status, 400, "{length:?}: {v}");
        assert_eq!(v["error"]["kind"], "bad-request", "{v}");
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("Content-Length"),
            "{v}"
        );
    }
    // The same length twice is one length.
    let raw = format!(
        "POST /api/value HTTP/1.1\r\nHost: x\r\nContent-Length: {0}\r\nContent-Length: {0}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let (status, v) = exchange(addr, raw.as_bytes()).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["grundy"], 0);
}

/// A request whose `count` headers (`hNNNN: 1`, 10 bytes each as the limit counts
/// them: name, value and 4) come before a small JSON body.
fn with_headers(count: usize) -> Vec<u8> {
    let body = r#"{"game":"wythoff","position":"3,5"}"#;
    let mut raw = format!(
        "POST /api/value HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for i in 0..count {
        raw.push_str(&format!("h{i:04}: 1\r\n"));
    }
    raw.push_str("\r\n");
    raw.push_str(body);
    raw.into_bytes()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_small_headers_within_the_limit_are_served() {
    let addr = start(nimlab_web::ServeConfig::default()).await;
    // 3000 headers, about 30 KB: under the 32 KiB limit.
    const { assert!(3000 * 10 < nimlab_web::MAX_HEADER_BYTES) };
    let (status, v) = exchange(addr, &with_headers(3000)).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["grundy"], 0);
    // 4000 (40 KB): over it, the documented JSON 431.
    let (status, v) = exchange(addr, &with_headers(4000)).await;
    assert_eq!(status, 431, "{v}");
    assert_eq!(v["error"]["kind"], "headers-too-large", "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trickling_body_is_timed_out() {
    let addr = start(nimlab_web::ServeConfig {
        body_timeout: Duration::from_millis(200),
        ..nimlab_web::ServeConfig::default()
    })
    .await;
    let mut s = TcpStream::connect(addr).await.unwrap();
    // Ten bytes of the hundred announced, then nothing.
    s.write_all(b"POST /api/value HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"game\":\"w")
        .await
        .unwrap();
    let (status, body) = response(&mut s).await;
    assert_eq!(status, 408, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["error"]["kind"], "body-timeout", "{v}");
    // A body that arrives in pieces within the time is served.
    let mut s = TcpStream::connect(addr).await.unwrap();
    let raw = post("/api/value", r#"{"game":"wythoff","position":"3,5"}"#);
    let split = raw.len() - 10;
    s.write_all(&raw[..split]).await.unwrap();
    s.write_all(&raw[split..]).await.unwrap();
    let (status, body) = response(&mut s).await;
    assert_eq!(status, 200, "{body}");
}
