//! The relay over real sockets: each test binds `127.0.0.1:0`, runs [`signaling::run`] on a
//! temporary static directory, and talks to it with a bare HTTP/1.1 client and
//! `tokio-tungstenite`.

use std::{
    io::Read,
    net::SocketAddr,
    path::{Path, PathBuf},
    str::FromStr,
    sync::atomic::{AtomicUsize, Ordering},
    time::Duration,
};

use futures::{SinkExt, StreamExt};
use matchbox_protocol::{JsonPeerEvent, PeerId};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
    sync::oneshot,
    task::JoinHandle,
    time::timeout,
};
use tokio_tungstenite::{
    connect_async,
    tungstenite::{protocol::frame::coding::CloseCode, Message},
    MaybeTlsStream, WebSocketStream,
};

const LIMIT: Duration = Duration::from_secs(10);
const JS: &str = "client-0123456789abcdef.js";
const WASM: &str = "client-0123456789abcdef_bg.wasm";

// --- a temporary client build -------------------------------------------------------------------

/// A directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "signaling-test-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&path).unwrap();
        Self(path)
    }

    /// A path inside that does not exist.
    fn missing(&self) -> PathBuf {
        self.0.join("not-built")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn index_html() -> String {
    format!(
        "<!doctype html><html><head><script type=module src=/{JS}></script></head><body>{}</body></html>",
        "<p>Jeu du moulin</p>".repeat(20)
    )
}

fn js() -> String {
    "export function start() { console.log('moulin'); }\n".repeat(40)
}

fn wasm() -> Vec<u8> {
    let mut bytes = b"\0asm\x01\0\0\0".to_vec();
    bytes.extend((0..8192u32).map(|i| (i % 7) as u8));
    bytes
}

/// A fake client build: what `client/dist` will hold.
fn client_build() -> TempDir {
    let dir = TempDir::new();
    let write = |name: &str, bytes: &[u8]| std::fs::write(dir.0.join(name), bytes).unwrap();
    write("index.html", index_html().as_bytes());
    write(JS, js().as_bytes());
    write(WASM, &wasm());
    write("style.css", b"body { color: #2365a0; }\n");
    write(
        "logo.svg",
        br#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>"#,
    );
    write("favicon.png", b"\x89PNG\r\n\x1a\n");
    write("robots.txt", b"User-agent: *\n");
    dir
}

// --- the server under test ----------------------------------------------------------------------

struct Server {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<std::io::Result<()>>,
}

impl Server {
    async fn start(static_dir: &Path) -> Self {
        Self::start_with_drain(static_dir, Duration::from_secs(3)).await
    }

    async fn start_with_drain(static_dir: &Path, drain_timeout: Duration) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let mut config = signaling::Config::default();
        config.static_dir = static_dir.to_owned();
        config.drain_timeout = drain_timeout;
        let task = tokio::spawn(signaling::run(listener, config, async {
            let _ = stopped.await;
        }));
        Self {
            addr,
            stop: Some(stop),
            task,
        }
    }

    /// Triggers the shutdown and waits for `run` to return.
    async fn stop(mut self) -> std::io::Result<()> {
        let _ = self.stop.take().unwrap().send(());
        timeout(LIMIT, &mut self.task)
            .await
            .expect("run did not return after shutdown")
            .unwrap()
    }

    fn ws_url(&self, room: &str) -> String {
        format!("ws://{}/ws/{room}", self.addr)
    }
}

// --- a bare HTTP/1.1 client ---------------------------------------------------------------------

#[derive(Debug)]
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn text(&self) -> String {
        String::from_utf8(self.body.clone()).unwrap()
    }
}

async fn get(addr: SocketAddr, path: &str, headers: &[(&str, &str)]) -> Reply {
    request(addr, "GET", path, headers).await
}

async fn request(addr: SocketAddr, method: &str, path: &str, headers: &[(&str, &str)]) -> Reply {
    timeout(LIMIT, async {
        let mut stream = TcpStream::connect(addr).await.unwrap();
        let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes()).await.unwrap();
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).await.unwrap();
        parse_reply(&raw)
    })
    .await
    .expect("HTTP request timed out")
}

fn parse_reply(raw: &[u8]) -> Reply {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("no end of headers");
    let head = std::str::from_utf8(&raw[..end]).unwrap();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .map(|line| {
            let (name, value) = line.split_once(':').unwrap();
            (name.trim().to_owned(), value.trim().to_owned())
        })
        .collect();
    let mut reply = Reply {
        status,
        headers,
        body: raw[end + 4..].to_vec(),
    };
    if reply.header("transfer-encoding") == Some("chunked") {
        reply.body = dechunk(&reply.body);
    }
    reply
}

fn dechunk(mut chunked: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    loop {
        let line_end = chunked.windows(2).position(|w| w == b"\r\n").unwrap();
        let size_field = std::str::from_utf8(&chunked[..line_end]).unwrap();
        let size = usize::from_str_radix(size_field.split(';').next().unwrap().trim(), 16).unwrap();
        chunked = &chunked[line_end + 2..];
        if size == 0 {
            return body;
        }
        body.extend_from_slice(&chunked[..size]);
        chunked = &chunked[size + 2..];
    }
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap();
    out
}

// --- websocket helpers --------------------------------------------------------------------------

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

async fn next_event(ws: &mut Ws) -> JsonPeerEvent {
    let message = timeout(LIMIT, ws.next())
        .await
        .expect("no event from the relay")
        .expect("websocket ended")
        .unwrap();
    match message {
        Message::Text(text) => JsonPeerEvent::from_str(&text).unwrap(),
        other => panic!("expected a JSON event, got {other:?}"),
    }
}

/// Connects a peer and returns it with the id the relay assigned.
async fn join(url: &str) -> (Ws, PeerId) {
    let (mut ws, response) = timeout(LIMIT, connect_async(url))
        .await
        .expect("websocket connect timed out")
        .expect("websocket upgrade refused");
    assert_eq!(response.status(), 101);
    match next_event(&mut ws).await {
        JsonPeerEvent::IdAssigned(id) => (ws, id),
        other => panic!("first event should be IdAssigned, got {other:?}"),
    }
}

// --- static files -------------------------------------------------------------------------------

#[tokio::test]
async fn index_is_served_and_never_cached_stale() {
    let build = client_build();
    let server = Server::start(&build.0).await;
    for path in ["/", "/index.html"] {
        let reply = get(server.addr, path, &[]).await;
        assert_eq!(reply.status, 200, "{path}");
        assert!(
            reply
                .header("content-type")
                .unwrap()
                .starts_with("text/html"),
            "{path}"
        );
        assert_eq!(reply.header("cache-control"), Some("no-cache"), "{path}");
        assert_eq!(reply.text(), index_html(), "{path}");
    }
    server.stop().await.unwrap();
}

#[tokio::test]
async fn hashed_assets_have_their_mime_type_and_are_immutable() {
    let build = client_build();
    let server = Server::start(&build.0).await;

    let reply = get(server.addr, &format!("/{WASM}"), &[]).await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("application/wasm"));
    assert_eq!(
        reply.header("cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    assert_eq!(reply.header("content-encoding"), None, "not asked for");
    assert_eq!(reply.body, wasm());

    let reply = get(server.addr, &format!("/{JS}"), &[]).await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("text/javascript"));
    assert_eq!(
        reply.header("cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    server.stop().await.unwrap();
}

#[tokio::test]
async fn other_files_have_their_mime_type_and_a_short_cache() {
    let build = client_build();
    let server = Server::start(&build.0).await;
    for (path, mime) in [
        ("/style.css", "text/css"),
        ("/logo.svg", "image/svg+xml"),
        ("/favicon.png", "image/png"),
        ("/robots.txt", "text/plain"),
    ] {
        let reply = get(server.addr, path, &[]).await;
        assert_eq!(reply.status, 200, "{path}");
        assert!(
            reply.header("content-type").unwrap().starts_with(mime),
            "{path}: {reply:?}"
        );
        assert_eq!(
            reply.header("cache-control"),
            Some("public, max-age=3600"),
            "{path}"
        );
    }
    server.stop().await.unwrap();
}

#[tokio::test]
async fn compresses_wasm_js_and_html_on_request() {
    let build = client_build();
    let server = Server::start(&build.0).await;

    let reply = get(
        server.addr,
        &format!("/{WASM}"),
        &[("Accept-Encoding", "gzip")],
    )
    .await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-encoding"), Some("gzip"));
    assert_eq!(reply.header("content-type"), Some("application/wasm"));
    assert_eq!(reply.header("vary"), Some("accept-encoding"));
    assert!(
        reply.header("etag").unwrap().starts_with("W/"),
        "a compressed body has a weak ETag"
    );
    assert!(reply.body.len() < wasm().len());
    assert_eq!(gunzip(&reply.body), wasm());

    let reply = get(server.addr, &format!("/{JS}"), &[("Accept-Encoding", "br")]).await;
    assert_eq!(reply.header("content-encoding"), Some("br"));
    assert!(reply.body.len() < js().len());

    let reply = get(server.addr, "/", &[("Accept-Encoding", "br;q=0.5, gzip")]).await;
    assert_eq!(reply.header("content-encoding"), Some("gzip"));
    assert_eq!(gunzip(&reply.body), index_html().as_bytes());
    assert_eq!(reply.header("cache-control"), Some("no-cache"));
    server.stop().await.unwrap();
}

#[tokio::test]
async fn client_routes_serve_index() {
    let build = client_build();
    let server = Server::start(&build.0).await;
    for path in [
        "/moulin",
        "/meta-morpion",
        "/moulin/salon/abc",
        "/moulin/?x=1",
    ] {
        let reply = get(server.addr, path, &[]).await;
        assert_eq!(reply.status, 200, "{path}");
        assert!(
            reply
                .header("content-type")
                .unwrap()
                .starts_with("text/html"),
            "{path}"
        );
        assert_eq!(reply.header("cache-control"), Some("no-cache"), "{path}");
        assert_eq!(reply.text(), index_html(), "{path}");
    }
    let reply = request(server.addr, "HEAD", "/moulin", &[]).await;
    assert_eq!(reply.status, 200);
    server.stop().await.unwrap();
}

#[tokio::test]
async fn missing_files_and_relay_paths_are_not_found() {
    let build = client_build();
    let server = Server::start(&build.0).await;
    for path in [
        "/missing.js",
        "/moulin/missing.wasm",
        "/ws",
        "/ws/",
        "/ws/a/b",
        "/health/x",
    ] {
        let reply = get(server.addr, path, &[]).await;
        assert_eq!(reply.status, 404, "{path}");
        assert!(reply.header("cache-control").is_none(), "{path}");
    }
    server.stop().await.unwrap();
}

#[tokio::test]
async fn missing_static_dir_answers_503_but_the_relay_works() {
    let parent = TempDir::new();
    let server = Server::start(&parent.missing()).await;
    for path in ["/", "/moulin", "/index.html", &format!("/{WASM}")] {
        let reply = get(server.addr, path, &[]).await;
        assert_eq!(reply.status, 503, "{path}");
        assert!(
            reply.text().contains("not built"),
            "{path}: {}",
            reply.text()
        );
    }
    assert_eq!(get(server.addr, "/health", &[]).await.status, 200);
    drop(join(&server.ws_url("room1")).await);

    // Building the client while the relay runs is enough.
    std::fs::create_dir(parent.missing()).unwrap();
    std::fs::write(parent.missing().join("index.html"), index_html()).unwrap();
    assert_eq!(get(server.addr, "/moulin", &[]).await.status, 200);
    server.stop().await.unwrap();
}

#[tokio::test]
async fn health() {
    let parent = TempDir::new();
    let server = Server::start(&parent.missing()).await;
    let reply = get(server.addr, "/health", &[]).await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.text(), "ok");
    server.stop().await.unwrap();
}

// --- signalling ---------------------------------------------------------------------------------

#[tokio::test]
async fn websocket_assigns_an_id_first() {
    let build = client_build();
    let server = Server::start(&build.0).await;
    let (ws, _id) = join(&server.ws_url("room1")).await;
    drop(ws);
    server.stop().await.unwrap();
}

#[tokio::test]
async fn peers_in_a_room_meet_and_signal_each_other() {
    let build = client_build();
    let server = Server::start(&build.0).await;
    let (mut host, host_id) = join(&server.ws_url("room1")).await;
    let (mut other_room, _) = join(&server.ws_url("room2")).await;
    let (mut guest, guest_id) = join(&server.ws_url("room1")).await;
    assert_ne!(host_id, guest_id);

    assert_eq!(
        next_event(&mut host).await,
        JsonPeerEvent::NewPeer(guest_id)
    );

    // What matchbox_socket sends: a JSON `PeerRequest::Signal`.
    let offer =
        serde_json::json!({ "Signal": { "receiver": host_id, "data": { "Offer": "sdp" } } });
    guest.send(Message::text(offer.to_string())).await.unwrap();
    assert_eq!(
        next_event(&mut host).await,
        JsonPeerEvent::Signal {
            sender: guest_id,
            data: serde_json::json!({ "Offer": "sdp" }),
        }
    );
    guest.send(Message::text(r#""KeepAlive""#)).await.unwrap();

    guest.close(None).await.unwrap();
    assert_eq!(
        next_event(&mut host).await,
        JsonPeerEvent::PeerLeft(guest_id)
    );

    // Rooms are isolated: the peer in room2 heard nothing.
    assert!(
        timeout(Duration::from_millis(200), other_room.next())
            .await
            .is_err(),
        "room2 received an event from room1"
    );
    drop((host, other_room));
    server.stop().await.unwrap();
}

// --- shutdown -----------------------------------------------------------------------------------

#[tokio::test]
async fn shutdown_closes_websockets_and_returns() {
    let build = client_build();
    let server = Server::start(&build.0).await;
    let addr = server.addr;
    let (mut ws, _) = join(&server.ws_url("room1")).await;

    let stopped = tokio::spawn(server.stop());
    let close = timeout(LIMIT, ws.next())
        .await
        .expect("the relay did not close the websocket");
    match close {
        Some(Ok(Message::Close(Some(frame)))) => assert_eq!(frame.code, CloseCode::Away),
        other => panic!("expected a close frame, got {other:?}"),
    }
    // The peer answers the close (tungstenite does it when polled), then `run` returns.
    assert!(timeout(LIMIT, ws.next()).await.unwrap().is_none());
    stopped.await.unwrap().unwrap();

    assert!(
        TcpStream::connect(addr).await.is_err(),
        "still accepting connections after shutdown"
    );
}

#[tokio::test]
async fn shutdown_with_nothing_connected_is_immediate() {
    let parent = TempDir::new();
    let server = Server::start(&parent.missing()).await;
    let started = std::time::Instant::now();
    server.stop().await.unwrap();
    assert!(started.elapsed() < Duration::from_secs(1));
}

#[tokio::test]
async fn shutdown_gives_up_on_peers_that_never_answer_the_close() {
    let build = client_build();
    let drain = Duration::from_millis(300);
    let server = Server::start_with_drain(&build.0, drain).await;
    // Connected, but never polled again: it cannot answer the close frame.
    let (_silent, _) = join(&server.ws_url("room1")).await;
    let started = std::time::Instant::now();
    server.stop().await.unwrap();
    let took = started.elapsed();
    assert!(
        took >= drain && took < drain * 4,
        "run returned after {took:?}"
    );
}
