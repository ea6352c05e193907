//! The relay over real sockets: each test runs a relay on `127.0.0.1:0` (`test_support::Relay`)
//! with a temporary static directory, and talks to it with a bare HTTP/1.1 client
//! (`test_support::get`) and `tokio-tungstenite`.

use std::{
    io::Read,
    path::{Path, PathBuf},
    str::FromStr,
    sync::atomic::{AtomicUsize, Ordering},
    time::Duration,
};

use futures::{SinkExt, StreamExt};
use matchbox_protocol::{JsonPeerEvent, PeerId};
use test_support::{get, request, Relay};
use tokio::{io::AsyncWriteExt, net::TcpStream, time::timeout};
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
    write("sw.js", b"self.addEventListener('fetch', () => {});\n");
    write(
        "manifest.webmanifest",
        br#"{"name": "Moulin", "start_url": "/"}"#,
    );
    dir
}

// --- the server under test ----------------------------------------------------------------------

/// A relay serving the client build in `static_dir`.
async fn serve(static_dir: &Path) -> Relay {
    serve_with_drain(static_dir, Duration::from_secs(3)).await
}

async fn serve_with_drain(static_dir: &Path, drain_timeout: Duration) -> Relay {
    Relay::start_with(|config| {
        config.static_dir = static_dir.to_owned();
        config.drain_timeout = drain_timeout;
    })
    .await
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

/// What a peer hears: matchbox's events, or (players only) `{"Watcher":ID}`, a spectator to
/// make an offer to.
#[derive(Debug, PartialEq)]
enum Heard {
    Event(JsonPeerEvent),
    Watcher(PeerId),
}

/// The next thing heard, skipping the relay's pings (tungstenite answers them as it reads).
async fn next_heard(ws: &mut Ws) -> Heard {
    loop {
        let message = timeout(LIMIT, ws.next())
            .await
            .expect("no event from the relay")
            .expect("websocket ended")
            .unwrap();
        match message {
            Message::Text(text) => {
                if let Ok(event) = JsonPeerEvent::from_str(&text) {
                    return Heard::Event(event);
                }
                let value: serde_json::Value = serde_json::from_str(&text).unwrap();
                // The wire shape the browser is written against, as matchbox's `NewPeer`.
                let id = value["Watcher"]
                    .as_str()
                    .unwrap_or_else(|| panic!("neither a matchbox event nor a Watcher: {text}"));
                return Heard::Watcher(PeerId(id.parse().unwrap()));
            }
            Message::Ping(_) => continue,
            other => panic!("expected a JSON event, got {other:?}"),
        }
    }
}

/// The next matchbox event, skipping the relay's pings.
async fn next_event(ws: &mut Ws) -> JsonPeerEvent {
    match next_heard(ws).await {
        Heard::Event(event) => event,
        other => panic!("expected a matchbox event, got {other:?}"),
    }
}

/// Hears nothing but pings for a little while.
async fn assert_silent(ws: &mut Ws, who: &str) {
    let heard = timeout(Duration::from_millis(200), async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Ping(_))) => continue,
                other => return other,
            }
        }
    })
    .await;
    assert!(heard.is_err(), "{who} heard {heard:?}");
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
    let server = serve(&build.0).await;
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
    server.stop().await;
}

#[tokio::test]
async fn the_service_worker_is_javascript_and_never_cached_stale() {
    let build = client_build();
    let server = serve(&build.0).await;
    let reply = get(server.addr, "/sw.js", &[]).await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("text/javascript"));
    assert_eq!(reply.header("cache-control"), Some("no-cache"));
    // Revalidation answers 304 with the same policy, so no proxy keeps an old worker.
    let etag = reply.header("etag").unwrap().to_owned();
    let reply = get(server.addr, "/sw.js", &[("If-None-Match", &etag)]).await;
    assert_eq!(reply.status, 304);
    assert_eq!(reply.header("cache-control"), Some("no-cache"));
    server.stop().await;
}

#[tokio::test]
async fn hashed_assets_have_their_mime_type_and_are_immutable() {
    let build = client_build();
    let server = serve(&build.0).await;

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
    server.stop().await;
}

#[tokio::test]
async fn other_files_have_their_mime_type_and_a_short_cache() {
    let build = client_build();
    let server = serve(&build.0).await;
    for (path, mime) in [
        ("/style.css", "text/css"),
        ("/logo.svg", "image/svg+xml"),
        ("/favicon.png", "image/png"),
        ("/robots.txt", "text/plain"),
        ("/manifest.webmanifest", "application/manifest+json"),
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
    server.stop().await;
}

#[tokio::test]
async fn compresses_wasm_js_and_html_on_request() {
    let build = client_build();
    let server = serve(&build.0).await;

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
    server.stop().await;
}

#[tokio::test]
async fn client_routes_serve_index() {
    let build = client_build();
    let server = serve(&build.0).await;
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
    server.stop().await;
}

#[tokio::test]
async fn missing_files_and_relay_paths_are_not_found() {
    let build = client_build();
    let server = serve(&build.0).await;
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
    server.stop().await;
}

#[tokio::test]
async fn missing_static_dir_answers_503_but_the_relay_works() {
    let parent = TempDir::new();
    let server = serve(&parent.missing()).await;
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
    drop(join(&server.room_url("room1")).await);

    // Building the client while the relay runs is enough.
    std::fs::create_dir(parent.missing()).unwrap();
    std::fs::write(parent.missing().join("index.html"), index_html()).unwrap();
    assert_eq!(get(server.addr, "/moulin", &[]).await.status, 200);
    server.stop().await;
}

#[tokio::test]
async fn health() {
    let parent = TempDir::new();
    let server = serve(&parent.missing()).await;
    let reply = get(server.addr, "/health", &[]).await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("application/json"));
    let health: serde_json::Value = serde_json::from_slice(&reply.body).unwrap();
    assert_eq!(health["status"], "ok");
    assert_eq!(health["rooms"], 0);
    assert_eq!(health["peers"], 0);
    assert_eq!(health["connections"], 1, "this request's own connection");

    let (_ws, _) = join(&server.room_url("room1")).await;
    let reply = get(server.addr, "/health", &[]).await;
    let health: serde_json::Value = serde_json::from_slice(&reply.body).unwrap();
    assert_eq!(
        (health["rooms"].as_u64(), health["peers"].as_u64()),
        (Some(1), Some(1))
    );
    server.stop().await;
}

// --- signalling ---------------------------------------------------------------------------------

#[tokio::test]
async fn websocket_assigns_an_id_first() {
    let build = client_build();
    let server = serve(&build.0).await;
    let (ws, _id) = join(&server.room_url("room1")).await;
    drop(ws);
    server.stop().await;
}

#[tokio::test]
async fn peers_in_a_room_meet_and_signal_each_other() {
    let build = client_build();
    let server = serve(&build.0).await;
    let (mut host, host_id) = join(&server.room_url("room1")).await;
    let (mut other_room, _) = join(&server.room_url("room2")).await;
    let (mut guest, guest_id) = join(&server.room_url("room1")).await;
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
    server.stop().await;
}

// --- shutdown -----------------------------------------------------------------------------------

#[tokio::test]
async fn shutdown_closes_websockets_and_returns() {
    let build = client_build();
    let server = serve(&build.0).await;
    let addr = server.addr;
    let (mut ws, _) = join(&server.room_url("room1")).await;

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
    stopped.await.unwrap();

    assert!(
        TcpStream::connect(addr).await.is_err(),
        "still accepting connections after shutdown"
    );
}

// Paused time: the clock moves only when every task waits on a timer, so an elapsed time is the
// timers the code waited for, not how busy the machine was.
#[tokio::test(start_paused = true)]
async fn shutdown_with_nothing_connected_is_immediate() {
    let parent = TempDir::new();
    let server = serve(&parent.missing()).await;
    let started = tokio::time::Instant::now();
    server.stop().await;
    assert_eq!(started.elapsed(), Duration::ZERO, "it waited on a timer");
}

#[tokio::test(start_paused = true)]
async fn shutdown_gives_up_on_peers_that_never_answer_the_close() {
    let build = client_build();
    let drain = Duration::from_millis(300);
    let server = serve_with_drain(&build.0, drain).await;
    // Connected, but never polled again: it cannot answer the close frame.
    let (_silent, _) = join(&server.room_url("room1")).await;
    let started = tokio::time::Instant::now();
    server.stop().await;
    assert_eq!(
        started.elapsed(),
        drain,
        "run returns when the drain time is up"
    );
}

// --- admission: refusals before the upgrade -----------------------------------------------------

/// Tries to join with extra request headers; a refusal comes back as its status and JSON body.
async fn try_join(url: &str, headers: &[(&str, &str)]) -> Result<(Ws, PeerId), (u16, String)> {
    use tokio_tungstenite::tungstenite::{client::IntoClientRequest, Error};
    let mut request = url.into_client_request().unwrap();
    for (name, value) in headers {
        request.headers_mut().insert(
            tokio_tungstenite::tungstenite::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
            value.parse().expect("header value"),
        );
    }
    match timeout(LIMIT, connect_async(request))
        .await
        .expect("websocket connect timed out")
    {
        Ok((mut ws, _)) => match next_event(&mut ws).await {
            JsonPeerEvent::IdAssigned(id) => Ok((ws, id)),
            other => panic!("first event should be IdAssigned, got {other:?}"),
        },
        Err(Error::Http(response)) => Err((
            response.status().as_u16(),
            String::from_utf8(response.body().clone().unwrap_or_default()).unwrap(),
        )),
        Err(other) => panic!("unexpected websocket error: {other}"),
    }
}

/// Two fresh peers meet in `room` and one signals the other: the relay still works.
async fn assert_pair_works(server: &Relay, room: &str) {
    let (mut host, host_id) = join(&server.room_url(room)).await;
    let (mut guest, guest_id) = join(&server.room_url(room)).await;
    assert_eq!(
        next_event(&mut host).await,
        JsonPeerEvent::NewPeer(guest_id)
    );
    let offer = serde_json::json!({ "Signal": { "receiver": host_id, "data": "sdp" } });
    guest.send(Message::text(offer.to_string())).await.unwrap();
    assert_eq!(
        next_event(&mut host).await,
        JsonPeerEvent::Signal {
            sender: guest_id,
            data: serde_json::json!("sdp")
        }
    );
}

/// Reads until the relay closes the socket and returns the close code, if it sent one.
async fn closed_with(ws: &mut Ws) -> Option<CloseCode> {
    timeout(LIMIT, async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Close(frame))) => return frame.map(|f| f.code),
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => return None,
            }
        }
    })
    .await
    .expect("the relay did not close the socket")
}

const ROOM_FULL: (u16, &str) = (409, r#"{"error":"room_full"}"#);

#[tokio::test]
async fn a_third_peer_is_refused_before_the_upgrade() {
    let server = Relay::start_with(|_| {}).await;
    let url = server.room_url("full");
    let (mut host, _) = join(&url).await;
    let (guest, guest_id) = join(&url).await;
    assert_eq!(
        next_event(&mut host).await,
        JsonPeerEvent::NewPeer(guest_id)
    );

    let refused = try_join(&url, &[]).await.expect_err("a third peer joined");
    assert_eq!((refused.0, refused.1.as_str()), ROOM_FULL);
    // Without upgrade headers the same URL says why, for browsers, which cannot read the status
    // of a failed websocket handshake.
    let probe = get(server.addr, "/ws/full", &[]).await;
    assert_eq!((probe.status, probe.text().as_str()), ROOM_FULL);
    assert_eq!(probe.header("content-type"), Some("application/json"));
    assert_eq!(
        get(server.addr, "/ws/empty", &[]).await.text(),
        r#"{"peers":0}"#
    );

    // The refused peer left no trace, and a seat that frees up can be taken again.
    assert_eq!(server.counts().peers, 2);
    drop(guest);
    assert_eq!(
        next_event(&mut host).await,
        JsonPeerEvent::PeerLeft(guest_id)
    );
    assert_eq!(
        get(server.addr, "/ws/full", &[]).await.text(),
        r#"{"peers":1}"#
    );
    let (_again, again_id) = join(&url).await;
    assert_eq!(
        next_event(&mut host).await,
        JsonPeerEvent::NewPeer(again_id)
    );
    server.stop().await;
}

#[tokio::test]
async fn bad_room_names_are_refused() {
    let server = Relay::start_with(|_| {}).await;
    let too_long = "a".repeat(65);
    for room in [too_long.as_str(), "a.b", "a%20b", "%C3%A9t%C3%A9", "a~b"] {
        let refused = try_join(&server.room_url(room), &[]).await.err();
        assert_eq!(
            refused,
            Some((400, r#"{"error":"bad_room"}"#.to_owned())),
            "{room}"
        );
    }
    let (_ws, _) = join(&server.room_url(&"a".repeat(64))).await;
    let (_ws, _) = join(&server.room_url("Az09_-")).await;
    server.stop().await;
}

#[tokio::test]
async fn foreign_origins_are_refused() {
    let server = Relay::start_with(|config| {
        config.allowed_origins = signaling::AllowedOrigins::from_list(&["https://games.example"]);
    })
    .await;
    let url = server.room_url("origins");
    let own = format!("http://{}", server.addr);
    let refused = try_join(&url, &[("Origin", "https://evil.example")]).await;
    assert_eq!(
        refused.err(),
        Some((403, r#"{"error":"origin_not_allowed"}"#.to_owned()))
    );
    assert_eq!(
        try_join(&url, &[("Origin", "null")]).await.err().unwrap().0,
        403
    );
    let _own = try_join(&url, &[("Origin", &own)])
        .await
        .expect("own origin");
    let _listed = try_join(&url, &[("Origin", "https://games.example")])
        .await
        .expect("listed origin");
    let third = try_join(&url, &[]).await.err();
    assert_eq!(
        third.unwrap().0,
        409,
        "no Origin (not a browser) passes the check"
    );
    server.stop().await;
}

#[tokio::test]
async fn connections_per_ip_honour_forwarded_for_only_from_trusted_proxies() {
    let server = Relay::start_with(|config| {
        config.max_connections_per_ip = 2;
        config.trusted_proxies = vec![signaling::parse_ip_net("127.0.0.1").unwrap()];
    })
    .await;
    let from = |ip: &'static str| [("X-Forwarded-For", ip)];
    let _a1 = try_join(&server.room_url("a"), &from("203.0.113.1"))
        .await
        .unwrap();
    let _a2 = try_join(&server.room_url("b"), &from("203.0.113.1"))
        .await
        .unwrap();
    let refused = try_join(&server.room_url("c"), &from("203.0.113.1"))
        .await
        .err();
    assert_eq!(
        refused,
        Some((429, r#"{"error":"too_many_connections"}"#.to_owned()))
    );
    // Another client behind the same proxy is counted apart.
    let _b = try_join(&server.room_url("c"), &from("203.0.113.2"))
        .await
        .unwrap();
    // A client cannot dodge the limit by prepending addresses: the proxy appends the real one.
    let spoofed = try_join(&server.room_url("d"), &from("198.51.100.9, 203.0.113.1")).await;
    assert_eq!(spoofed.err().unwrap().0, 429);
    assert_eq!(server.counts().client_ips, 2);
    server.stop().await;

    // Untrusted: the header is ignored and loopback itself is the client.
    let server = Relay::start_with(|config| config.max_connections_per_ip = 1).await;
    let _a = try_join(&server.room_url("a"), &from("203.0.113.1"))
        .await
        .unwrap();
    let refused = try_join(&server.room_url("b"), &from("203.0.113.2")).await;
    assert_eq!(refused.err().unwrap().0, 429);
    server.stop().await;
}

#[tokio::test]
async fn room_and_connection_caps_answer_503() {
    let server = Relay::start_with(|config| {
        config.max_rooms = 2;
        config.max_connections = 3;
    })
    .await;
    let _a = join(&server.room_url("a")).await;
    let _b = join(&server.room_url("b")).await;
    let refused = try_join(&server.room_url("c"), &[]).await.err();
    assert_eq!(
        refused,
        Some((503, r#"{"error":"too_many_rooms"}"#.to_owned()))
    );
    let _a2 = join(&server.room_url("a")).await;
    let refused = try_join(&server.room_url("b"), &[]).await.err();
    assert_eq!(refused, Some((503, r#"{"error":"relay_full"}"#.to_owned())));
    server.stop().await;
}

// --- bad input: cut off, never a crash, never a leak --------------------------------------------

#[tokio::test]
async fn an_oversized_frame_closes_the_socket_before_it_is_read() {
    let server = Relay::start_with(|config| config.max_message_size = 1024).await;
    let (mut big, _) = join(&server.room_url("big")).await;
    // A text message just over the limit.
    big.send(Message::text("x".repeat(1025))).await.unwrap();
    assert_eq!(closed_with(&mut big).await, Some(CloseCode::Size));

    // A frame header announcing 1 GiB, followed by nothing: the relay must not wait for it.
    let (mut huge, _) = join(&server.room_url("huge")).await;
    let MaybeTlsStream::Plain(tcp) = huge.get_mut() else {
        unreachable!()
    };
    let mut header = vec![0x81, 0x80 | 127];
    header.extend_from_slice(&(1u64 << 30).to_be_bytes());
    header.extend_from_slice(&[1, 2, 3, 4]); // mask
    tcp.write_all(&header).await.unwrap();
    assert_eq!(closed_with(&mut huge).await, Some(CloseCode::Size));

    assert_pair_works(&server, "pair").await;
    server.wait_for_counts(|c| c.peers == 2).await;
    server.stop().await;
}

#[tokio::test]
async fn malformed_and_binary_messages_close_the_socket_and_unknown_receivers_are_ignored() {
    let server = Relay::start_with(|_| {}).await;
    let (mut host, host_id) = join(&server.room_url("r")).await;

    let (mut malformed, _) = join(&server.room_url("m")).await;
    malformed.send(Message::text("{not json")).await.unwrap();
    assert_eq!(closed_with(&mut malformed).await, Some(CloseCode::Invalid));

    let (mut wrong_shape, _) = join(&server.room_url("w")).await;
    wrong_shape
        .send(Message::text(r#"{"Signal":{"to":1}}"#))
        .await
        .unwrap();
    assert_eq!(
        closed_with(&mut wrong_shape).await,
        Some(CloseCode::Invalid)
    );

    let (mut binary, _) = join(&server.room_url("b")).await;
    binary.send(Message::binary(vec![0u8; 16])).await.unwrap();
    assert_eq!(closed_with(&mut binary).await, Some(CloseCode::Unsupported));

    // A signal to a peer that is not in the room (or not at all) goes nowhere, and the sender
    // stays connected.
    let (mut guest, guest_id) = join(&server.room_url("r")).await;
    assert_eq!(
        next_event(&mut host).await,
        JsonPeerEvent::NewPeer(guest_id)
    );
    let (_elsewhere, elsewhere_id) = join(&server.room_url("other")).await;
    for receiver in [elsewhere_id, PeerId(uuid_nil()), guest_id] {
        let signal = serde_json::json!({ "Signal": { "receiver": receiver, "data": 1 } });
        guest.send(Message::text(signal.to_string())).await.unwrap();
    }
    let signal = serde_json::json!({ "Signal": { "receiver": host_id, "data": 2 } });
    guest.send(Message::text(signal.to_string())).await.unwrap();
    assert_eq!(
        next_event(&mut host).await,
        JsonPeerEvent::Signal {
            sender: guest_id,
            data: serde_json::json!(2)
        }
    );
    drop((malformed, wrong_shape, binary));
    server
        .wait_for_counts(|c| c.peers == 3 && c.rooms == 2)
        .await;
    server.stop().await;
}

fn uuid_nil() -> uuid::Uuid {
    uuid::Uuid::nil()
}

#[tokio::test]
async fn a_flooding_peer_is_cut_off_and_its_room_peer_told() {
    let server = Relay::start_with(|config| config.max_messages_per_second = 10).await;
    let (mut host, host_id) = join(&server.room_url("flood")).await;
    let (mut flooder, flooder_id) = join(&server.room_url("flood")).await;
    assert_eq!(
        next_event(&mut host).await,
        JsonPeerEvent::NewPeer(flooder_id)
    );
    // A burst of twice the rate passes, then the socket is closed.
    let signal = serde_json::json!({ "Signal": { "receiver": host_id, "data": 0 } }).to_string();
    for _ in 0..100 {
        if flooder.send(Message::text(signal.clone())).await.is_err() {
            break;
        }
    }
    assert_eq!(closed_with(&mut flooder).await, Some(CloseCode::Policy));
    let mut relayed = 0;
    loop {
        match next_event(&mut host).await {
            JsonPeerEvent::Signal { .. } => relayed += 1,
            JsonPeerEvent::PeerLeft(id) => {
                assert_eq!(id, flooder_id);
                break;
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    assert!((20..=21).contains(&relayed), "relayed {relayed}");
    assert_pair_works(&server, "calm").await;
    server.stop().await;
}

// --- presence: a frozen peer is noticed ---------------------------------------------------------

#[tokio::test(start_paused = true)]
async fn a_frozen_peer_is_closed_after_the_idle_timeout_and_a_live_one_is_not() {
    let server = Relay::start_with(|_| {}).await;
    let idle = signaling::Config::DEFAULT_IDLE_TIMEOUT;
    let (mut host, _) = join(&server.room_url("idle")).await;
    // Connected, then never polled again: it neither sends nor answers pings.
    let (frozen, frozen_id) = join(&server.room_url("idle")).await;
    assert_eq!(
        next_event(&mut host).await,
        JsonPeerEvent::NewPeer(frozen_id)
    );
    let started = tokio::time::Instant::now();
    // The host only reads (which answers the relay's pings): it sends no keep-alive at all.
    assert_eq!(
        next_event(&mut host).await,
        JsonPeerEvent::PeerLeft(frozen_id)
    );
    let noticed = started.elapsed();
    assert!(
        noticed >= idle && noticed < idle + Duration::from_secs(1),
        "noticed after {noticed:?}"
    );
    // Much later, the host is still there: it only ever got pings.
    let later = tokio::time::Instant::now() + idle * 3;
    while let Ok(message) = tokio::time::timeout_at(later, host.next()).await {
        assert!(
            matches!(message, Some(Ok(Message::Ping(_)))),
            "the live peer got {message:?}"
        );
    }
    assert_eq!(server.counts().peers, 1);
    drop(frozen);
    server.stop().await;
}

// --- no leaks -----------------------------------------------------------------------------------

#[tokio::test]
async fn ten_thousand_rooms_created_and_left_leave_nothing_behind() {
    const ROOMS: usize = 10_000;
    const AT_ONCE: usize = 100;
    let server = Relay::start_with(|config| {
        config.max_connections_per_ip = ROOMS;
        config.max_rooms = ROOMS;
    })
    .await;
    let base = format!("ws://{}/ws/", server.addr);
    for batch in 0..ROOMS / AT_ONCE {
        let mut peers = Vec::new();
        for i in 0..AT_ONCE {
            let (ws, _) = join(&format!("{base}room-{}", batch * AT_ONCE + i)).await;
            peers.push(ws);
        }
        // Every tenth room gets its second player too.
        let (mut guest, _) = join(&format!("{base}room-{}", batch * AT_ONCE)).await;
        assert!(matches!(
            next_event(&mut peers[0]).await,
            JsonPeerEvent::NewPeer(_)
        ));
        guest.close(None).await.unwrap();
        for mut ws in peers {
            ws.close(None).await.unwrap();
        }
    }
    server
        .wait_for_counts(|counts| counts == signaling::Counts::default())
        .await;
    server.stop().await;
}

// --- ICE servers --------------------------------------------------------------------------------

#[tokio::test]
async fn ice_servers_are_empty_by_default_and_served_as_configured() {
    let server = Relay::start_with(|_| {}).await;
    let reply = get(server.addr, "/ice-servers", &[]).await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert_eq!(reply.text(), r#"{"iceServers":[]}"#);
    server.stop().await;

    let server = Relay::start_with(|config| {
        config.ice_servers = signaling::IceServer::from_urls(
            &[
                "stun:stun.example.org:3478".to_owned(),
                "turn:turn.example.org:3478?transport=udp".to_owned(),
            ],
            Some("moulin".to_owned()),
            Some("s3cret".to_owned()),
        );
    })
    .await;
    let reply = get(server.addr, "/ice-servers", &[]).await;
    assert_eq!(reply.header("cache-control"), Some("no-store"));
    let body: serde_json::Value = serde_json::from_slice(&reply.body).unwrap();
    assert_eq!(
        body,
        serde_json::json!({ "iceServers": [
            { "urls": ["stun:stun.example.org:3478"] },
            { "urls": ["turn:turn.example.org:3478?transport=udp"],
              "username": "moulin", "credential": "s3cret" },
        ]})
    );
    server.stop().await;
}

/// With a secret shared with coturn, each request gets a user name `<now + ttl>:moulin` and the
/// credential `base64(HMAC-SHA1(secret, user name))`. The expected credentials were computed
/// apart, with Python: `base64.b64encode(hmac.new(b"north", b"1700000120:moulin",
/// hashlib.sha1).digest())`, and the same for `1700003720:moulin`.
#[tokio::test]
async fn ice_servers_from_a_turn_secret_are_fresh_on_each_request_and_never_cached() {
    use std::{
        sync::{atomic::AtomicU64, Arc},
        time::UNIX_EPOCH,
    };
    let now = Arc::new(AtomicU64::new(1_700_000_000));
    let ttl = Duration::from_secs(120);
    let server = Relay::start_with(|config| {
        config.ice_servers = signaling::IceServer::from_urls(
            &[
                "stun:turn.example.org:3478".to_owned(),
                "turn:turn.example.org:3478?transport=udp".to_owned(),
                "turns:turn.example.org:5349?transport=tcp".to_owned(),
            ],
            None,
            None,
        );
        config.turn_secret = Some(signaling::TurnSecret::new("north"));
        config.turn_ttl = ttl;
        let now = now.clone();
        config.clock = signaling::Clock::new(move || {
            UNIX_EPOCH + Duration::from_secs(now.load(Ordering::SeqCst))
        });
    })
    .await;

    let mut seen = Vec::new();
    for (clock, credential) in [
        (1_700_000_000, "YHVsLDKDw/0QbQ4HxWpUMXKU4cE="),
        (1_700_003_600, "igAsOgPQqHnk3mOJqUuIEJGZC1s="),
    ] {
        now.store(clock, Ordering::SeqCst);
        let reply = get(server.addr, "/ice-servers", &[]).await;
        assert_eq!(reply.status, 200);
        assert_eq!(reply.header("content-type"), Some("application/json"));
        assert_eq!(reply.header("cache-control"), Some("no-store"));
        let body: serde_json::Value = serde_json::from_slice(&reply.body).unwrap();
        let turn = &body["iceServers"][1];
        let username = turn["username"].as_str().unwrap().to_owned();
        let (expiry, user) = username.split_once(':').unwrap();
        assert_eq!(expiry.parse::<u64>().unwrap(), clock + ttl.as_secs());
        assert_eq!(user, "moulin");
        assert_eq!(
            body,
            serde_json::json!({ "iceServers": [
                { "urls": ["stun:turn.example.org:3478"] },
                { "urls": ["turn:turn.example.org:3478?transport=udp",
                           "turns:turn.example.org:5349?transport=tcp"],
                  "username": username, "credential": credential },
            ]})
        );
        seen.push(username);
    }
    assert_ne!(seen[0], seen[1], "a later request gets a later expiry");
    server.stop().await;
}

// --- spectators ---------------------------------------------------------------------------------

/// `ws://ADDR/ws/ROOM?watch`, the URL a spectator joins `room` with.
fn watch_url(server: &Relay, room: &str) -> String {
    format!("{}?watch", server.room_url(room))
}

const TOO_MANY_SPECTATORS: (u16, &str) = (409, r#"{"error":"too_many_spectators"}"#);

/// `n` spectators of `room`, with their ids.
async fn spectators(server: &Relay, room: &str, n: usize) -> Vec<(Ws, PeerId)> {
    let mut all = Vec::new();
    for _ in 0..n {
        all.push(join(&watch_url(server, room)).await);
    }
    all
}

#[tokio::test]
async fn a_ninth_spectator_is_refused_while_eight_watch() {
    let server = Relay::start_with(|_| {}).await;
    let probe = |path: &'static str| get(server.addr, path, &[]);
    assert_eq!(probe("/ws/show?watch").await.text(), r#"{"peers":0}"#);
    let mut eight = spectators(&server, "show", 8).await;
    let (mut host, _) = join(&server.room_url("show")).await;
    for _ in 0..8 {
        assert!(matches!(next_heard(&mut host).await, Heard::Watcher(_)));
    }

    let refused = try_join(&watch_url(&server, "show"), &[]).await.err();
    assert_eq!(
        refused
            .as_ref()
            .map(|(status, body)| (*status, body.as_str())),
        Some(TOO_MANY_SPECTATORS)
    );
    for path in [
        "/ws/show?watch",
        "/ws/show?watch=1",
        "/ws/show?lang=fr&watch",
    ] {
        let reply = probe(path).await;
        assert_eq!(
            (reply.status, reply.text().as_str()),
            TOO_MANY_SPECTATORS,
            "{path}"
        );
        assert_eq!(reply.header("content-type"), Some("application/json"));
    }
    // The players' seats are apart: a player may still join, and says there is one already.
    assert_eq!(probe("/ws/show").await.text(), r#"{"peers":1}"#);
    let health: serde_json::Value = serde_json::from_slice(&probe("/health").await.body).unwrap();
    assert_eq!(
        (health["peers"].as_u64(), health["spectators"].as_u64()),
        (Some(9), Some(8))
    );
    assert_eq!((server.counts().peers, server.counts().spectators), (9, 8));

    // One goes: the players hear it, and the place can be taken again.
    let (gone, gone_id) = eight.pop().unwrap();
    drop(gone);
    assert_eq!(
        next_event(&mut host).await,
        JsonPeerEvent::PeerLeft(gone_id)
    );
    assert_eq!(probe("/ws/show?watch").await.text(), r#"{"peers":1}"#);
    let (_again, again_id) = join(&watch_url(&server, "show")).await;
    assert_eq!(next_heard(&mut host).await, Heard::Watcher(again_id));
    server.stop().await;
}

#[tokio::test]
async fn max_spectators_sets_the_cap_and_zero_turns_spectating_off() {
    let server = Relay::start_with(|config| config.max_spectators = 2).await;
    let _two = spectators(&server, "r", 2).await;
    let refused = try_join(&watch_url(&server, "r"), &[]).await.err().unwrap();
    assert_eq!((refused.0, refused.1.as_str()), TOO_MANY_SPECTATORS);
    let _elsewhere = join(&watch_url(&server, "other")).await;
    server.stop().await;

    let server = Relay::start_with(|config| config.max_spectators = 0).await;
    let refused = try_join(&watch_url(&server, "r"), &[]).await.err().unwrap();
    assert_eq!((refused.0, refused.1.as_str()), TOO_MANY_SPECTATORS);
    let reply = get(server.addr, "/ws/r?watch", &[]).await;
    assert_eq!((reply.status, reply.text().as_str()), TOO_MANY_SPECTATORS);
    assert_pair_works(&server, "r").await;
    assert_eq!(server.counts().spectators, 0);
    server.stop().await;
}

#[tokio::test]
async fn spectators_count_for_the_relay_wide_limits() {
    let server = Relay::start_with(|config| {
        config.max_rooms = 1;
        config.max_connections = 3;
        config.max_connections_per_ip = 3;
    })
    .await;
    let (_watcher, _) = join(&watch_url(&server, "a")).await;
    let refused = try_join(&server.room_url("b"), &[]).await.err();
    assert_eq!(
        refused,
        Some((503, r#"{"error":"too_many_rooms"}"#.to_owned())),
        "a room opened by a spectator counts"
    );
    let _players = (
        join(&server.room_url("a")).await,
        join(&server.room_url("a")).await,
    );
    let refused = try_join(&watch_url(&server, "a"), &[]).await.err();
    assert_eq!(
        refused.unwrap().0,
        503,
        "spectators and players share the cap"
    );
    server.stop().await;
}

#[tokio::test]
async fn two_players_meet_and_signal_beside_eight_spectators_and_a_third_is_refused() {
    let server = Relay::start_with(|_| {}).await;
    let mut eight = spectators(&server, "full", 8).await;
    let ids: Vec<PeerId> = eight.iter().map(|(_, id)| *id).collect();

    let (mut host, host_id) = join(&server.room_url("full")).await;
    let (mut guest, guest_id) = join(&server.room_url("full")).await;
    // The host: a Watcher per spectator there before it, then the guest.
    for &id in &ids {
        assert_eq!(next_heard(&mut host).await, Heard::Watcher(id));
    }
    assert_eq!(
        next_event(&mut host).await,
        JsonPeerEvent::NewPeer(guest_id)
    );
    // The guest: no NewPeer (the host offers), a Watcher per spectator.
    for &id in &ids {
        assert_eq!(next_heard(&mut guest).await, Heard::Watcher(id));
    }
    let offer = serde_json::json!({ "Signal": { "receiver": guest_id, "data": "offer" } });
    host.send(Message::text(offer.to_string())).await.unwrap();
    assert_eq!(
        next_event(&mut guest).await,
        JsonPeerEvent::Signal {
            sender: host_id,
            data: serde_json::json!("offer")
        }
    );
    let answer = serde_json::json!({ "Signal": { "receiver": host_id, "data": "answer" } });
    guest.send(Message::text(answer.to_string())).await.unwrap();
    assert_eq!(
        next_event(&mut host).await,
        JsonPeerEvent::Signal {
            sender: guest_id,
            data: serde_json::json!("answer")
        }
    );

    let refused = try_join(&server.room_url("full"), &[]).await.err().unwrap();
    assert_eq!((refused.0, refused.1.as_str()), ROOM_FULL);
    let probe = get(server.addr, "/ws/full", &[]).await;
    assert_eq!((probe.status, probe.text().as_str()), ROOM_FULL);
    // Spectators heard nothing of the players joining: the players will offer.
    for (i, (ws, _)) in eight.iter_mut().enumerate() {
        assert_silent(ws, &format!("spectator {i}")).await;
    }
    assert_eq!((server.counts().peers, server.counts().spectators), (10, 8));
    server.stop().await;
}

#[tokio::test]
async fn a_player_hears_watcher_for_a_spectator_before_or_after_it_and_peer_left_when_it_goes() {
    let server = Relay::start_with(|_| {}).await;
    let (before, before_id) = join(&watch_url(&server, "r")).await;
    let (mut host, _) = join(&server.room_url("r")).await;
    assert_eq!(next_heard(&mut host).await, Heard::Watcher(before_id));
    let (mut after, after_id) = join(&watch_url(&server, "r")).await;
    assert_eq!(next_heard(&mut host).await, Heard::Watcher(after_id));

    drop(before);
    assert_eq!(
        next_event(&mut host).await,
        JsonPeerEvent::PeerLeft(before_id)
    );
    // Spectators never meet: the other one heard nothing of it, nor of its arrival.
    assert_silent(&mut after, "the other spectator").await;
    after.close(None).await.unwrap();
    assert_eq!(
        next_event(&mut host).await,
        JsonPeerEvent::PeerLeft(after_id)
    );
    server
        .wait_for_counts(|c| c.peers == 1 && c.spectators == 0)
        .await;
    server.stop().await;
}

#[tokio::test]
async fn spectators_signal_players_only_and_hear_a_player_leave() {
    let server = Relay::start_with(|_| {}).await;
    let (mut host, host_id) = join(&server.room_url("r")).await;
    let (mut guest, guest_id) = join(&server.room_url("r")).await;
    assert_eq!(
        next_event(&mut host).await,
        JsonPeerEvent::NewPeer(guest_id)
    );
    let (mut one, one_id) = join(&watch_url(&server, "r")).await;
    let (mut two, two_id) = join(&watch_url(&server, "r")).await;
    for player in [&mut host, &mut guest] {
        assert_eq!(next_heard(player).await, Heard::Watcher(one_id));
        assert_eq!(next_heard(player).await, Heard::Watcher(two_id));
    }
    let signal = |to: PeerId, data: &str| {
        Message::text(serde_json::json!({ "Signal": { "receiver": to, "data": data } }).to_string())
    };

    // The player offers; the spectator answers.
    host.send(signal(one_id, "offer")).await.unwrap();
    assert_eq!(
        next_event(&mut one).await,
        JsonPeerEvent::Signal {
            sender: host_id,
            data: serde_json::json!("offer")
        }
    );
    one.send(signal(host_id, "answer")).await.unwrap();
    assert_eq!(
        next_event(&mut host).await,
        JsonPeerEvent::Signal {
            sender: one_id,
            data: serde_json::json!("answer")
        }
    );
    // To another spectator, or to nobody: dropped, and the sender stays connected.
    one.send(signal(two_id, "psst")).await.unwrap();
    one.send(signal(PeerId(uuid_nil()), "void")).await.unwrap();
    one.send(signal(guest_id, "to the guest")).await.unwrap();
    assert_eq!(
        next_event(&mut guest).await,
        JsonPeerEvent::Signal {
            sender: one_id,
            data: serde_json::json!("to the guest")
        }
    );
    assert_silent(&mut two, "the other spectator").await;
    assert_silent(&mut host, "the host").await;

    // No game state: a spectator arriving now hears nothing of what passed.
    let (mut late, late_id) = join(&watch_url(&server, "r")).await;
    for player in [&mut host, &mut guest] {
        assert_eq!(next_heard(player).await, Heard::Watcher(late_id));
    }
    assert_silent(&mut late, "the late spectator").await;

    // A player goes: everyone left in the room hears it.
    host.close(None).await.unwrap();
    for ws in [&mut guest, &mut one, &mut two, &mut late] {
        assert_eq!(next_event(ws).await, JsonPeerEvent::PeerLeft(host_id));
    }
    drop((guest, one, two, late));
    server
        .wait_for_counts(|counts| counts == signaling::Counts::default())
        .await;
    server.stop().await;
}
