//! The relay: one HTTP server that serves the built web client and the matchbox signalling
//! endpoint that introduces two browsers to each other (docs/self-hosting.md).
//!
//! - `GET /ws/{room}` upgrades to a websocket speaking matchbox's full-mesh protocol, so the stock
//!   `matchbox_socket` client pointed at `ws://HOST/ws/ROOM` works unchanged. The relay keeps
//!   presence only (who is in which room: two players at most, and up to
//!   [`Config::max_spectators`] spectators who join with `?watch`), nothing about games. Refusals
//!   come before the upgrade, as a status and `{"error":"…"}` (see `signaling/README.md`).
//! - `GET /ice-servers` hands the client the configured STUN/TURN servers, with TURN credentials
//!   made afresh on each request when [`Config::turn_secret`] is set.
//! - `GET /health` answers `200` with the relay's counts as JSON.
//! - Everything else is a static file from [`Config::static_dir`], compressed (gzip, brotli) and
//!   with cache headers fit for content-hashed assets; an extension-less path (`/moulin`,
//!   `/meta-morpion/salon/…`) serves `index.html` so the client's router can take over.
//!
//! The binary only parses flags and signals; [`run`] is the server, and tests drive it directly.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> std::io::Result<()> {
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! let mut config = signaling::Config::default();
//! config.static_dir = "client/dist".into();
//! let server = signaling::Server::new(config);
//! let stats = server.stats(); // rooms, peers, connections: for tests and benchmarks
//! // The binary passes Ctrl-C / SIGTERM; this example stops at once.
//! server.run(listener, async {}).await?;
//! assert_eq!(stats.counts().rooms, 0);
//! # Ok(())
//! # }
//! ```
#![forbid(unsafe_code)]

mod config;
mod relay;
mod rooms;
mod static_files;
mod turn;

use std::{
    future::Future,
    io,
    net::SocketAddr,
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc,
    },
    time::Duration,
};

use axum::{
    body::Body,
    extract::{ConnectInfo, Request, State},
    http::{header, StatusCode},
    middleware::{self, Next},
    response::{IntoResponse, Response},
    routing::get,
    Router,
};
use hyper::{body::Incoming, server::conn::http1, service::service_fn};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::{
    net::TcpListener,
    sync::{watch, Semaphore},
};
use tower::ServiceExt;
use tracing::{debug, info, warn};

pub use config::{parse_ip_net, AllowedOrigins, BadIpNet, Config, IpNet};
pub use relay_api::{IceServer, Refusal};
pub use rooms::Counts;
pub use turn::{Clock, TurnSecret};

/// Serves the relay on `listener` until `shutdown` completes; see [`Server::run`].
pub async fn run(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    Server::new(config).run(listener, shutdown).await
}

/// The relay, before it runs: lets a caller keep a [`Stats`] handle.
pub struct Server {
    config: Arc<Config>,
    relay: relay::Relay,
    stop_tx: watch::Sender<bool>,
    stop_rx: watch::Receiver<bool>,
    connections: Arc<AtomicUsize>,
}

/// A live view of what a [`Server`] holds, usable while and after it runs.
#[derive(Clone)]
pub struct Stats {
    rooms: Arc<rooms::Rooms>,
    connections: Arc<AtomicUsize>,
}

impl Stats {
    /// Rooms, peers, client IPs with a peer, and open TCP connections right now.
    pub fn counts(&self) -> Counts {
        Counts {
            connections: self.connections.load(Ordering::Relaxed),
            ..self.rooms.counts()
        }
    }
}

impl Server {
    /// A relay with these settings.
    pub fn new(config: Config) -> Self {
        let config = Arc::new(config);
        // `true` once shutting down. Every connection and websocket task holds a receiver, so
        // `closed()` on the sender tells when the last one is gone (mini-redis' drain, with one
        // channel).
        let (stop_tx, stop_rx) = watch::channel(false);
        let relay = relay::Relay::new(config.clone(), stop_rx.clone());
        Self {
            config,
            relay,
            stop_tx,
            stop_rx,
            connections: Arc::default(),
        }
    }

    /// A handle on the relay's counts.
    pub fn stats(&self) -> Stats {
        Stats {
            rooms: self.relay.rooms.clone(),
            connections: self.connections.clone(),
        }
    }

    /// Serves the relay on `listener` until `shutdown` completes, then drains: stops accepting,
    /// lets HTTP requests finish, sends every websocket a close frame (`1001 going away`) and
    /// waits for the peers to go, all within [`Config::drain_timeout`].
    ///
    /// Accept errors (such as running out of file descriptors) are logged and retried, so this
    /// returns `Ok(())` after a shutdown; the `Result` leaves room for setup errors.
    pub async fn run(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()>,
    ) -> io::Result<()> {
        let Self {
            config,
            relay,
            stop_tx,
            stop_rx,
            connections,
        } = self;
        let addr = listener.local_addr()?;
        if !config.static_dir.is_dir() {
            warn!(
                static_dir = %config.static_dir.display(),
                "static directory not found: the web client is not built; pages will answer 503"
            );
        }
        let stats = Stats {
            rooms: relay.rooms.clone(),
            connections: connections.clone(),
        };
        let app = router(&config, relay, stats)?;
        log_start(&config, addr);
        accept_until(&listener, shutdown, &app, &config, &stop_rx, &connections).await;
        // Only connection and websocket tasks may hold a stop receiver from here on.
        drop((listener, app));

        info!("shutting down: draining connections");
        stop_tx.send_replace(true);
        drop(stop_rx);
        match tokio::time::timeout(config.drain_timeout, stop_tx.closed()).await {
            Ok(()) => info!("relay stopped"),
            Err(_) => warn!(
                timeout = ?config.drain_timeout,
                "connections still open after the drain timeout: dropping them"
            ),
        }
        Ok(())
    }
}

fn log_start(config: &Config, addr: SocketAddr) {
    info!(
        %addr,
        static_dir = %config.static_dir.display(),
        max_connections = config.max_connections,
        max_rooms = config.max_rooms,
        max_spectators = config.max_spectators,
        idle_timeout_ms = config.idle_timeout.as_millis() as u64,
        ice_servers = config.ice_servers.len(),
        turn_secret = config.turn_secret.is_some(),
        "relay started"
    );
}

/// Accepts connections, each served in a task of its own, until `shutdown` completes. At most
/// [`Config::max_connections`] plus [`Config::HTTP_HEADROOM`] are held at once: one more is
/// dropped at once.
async fn accept_until(
    listener: &TcpListener,
    shutdown: impl Future<Output = ()>,
    app: &Router,
    config: &Config,
    stop: &watch::Receiver<bool>,
    connections: &Arc<AtomicUsize>,
) {
    let slots = Arc::new(Semaphore::new(
        config.max_connections.saturating_add(Config::HTTP_HEADROOM),
    ));
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => return,
        };
        let (tcp, remote) = match accepted {
            Ok(accepted) => accepted,
            Err(err) => {
                // EMFILE and the like: wait for connections to go rather than spin.
                warn!(%err, "accept failed");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            debug!("connection limit reached: connection dropped");
            continue;
        };
        // Signalling messages are small and latency-bound.
        if let Err(err) = tcp.set_nodelay(true) {
            debug!(%err, "cannot set TCP_NODELAY");
        }
        connections.fetch_add(1, Ordering::Relaxed);
        let connection = Connection {
            connections: connections.clone(),
            _slot: slot,
        };
        let (app, stop) = (app.clone(), stop.clone());
        let header_read_timeout = config.header_read_timeout;
        tokio::spawn(async move {
            serve_connection(tcp, remote, app, stop, header_read_timeout).await;
            drop(connection);
        });
    }
}

/// Counts a TCP connection while it lives and holds its slot under the connection cap.
struct Connection {
    connections: Arc<AtomicUsize>,
    _slot: tokio::sync::OwnedSemaphorePermit,
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.connections.fetch_sub(1, Ordering::Relaxed);
    }
}

/// One HTTP/1.1 connection, until it closes or hands itself over to a websocket; closed
/// gracefully (after the request in flight) when the relay stops.
async fn serve_connection(
    tcp: tokio::net::TcpStream,
    remote: SocketAddr,
    app: Router,
    mut stop: watch::Receiver<bool>,
    header_read_timeout: Duration,
) {
    let service = service_fn(move |mut request: hyper::Request<Incoming>| {
        request.extensions_mut().insert(ConnectInfo(remote));
        app.clone().oneshot(request.map(Body::new))
    });
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_read_timeout);
    let connection = builder
        .serve_connection(TokioIo::new(tcp), service)
        .with_upgrades();
    tokio::pin!(connection);
    let stopping = async {
        if stop.wait_for(|stopping| *stopping).await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        result = connection.as_mut() => {
            if let Err(err) = result {
                debug!(%err, "connection ended with an error");
            }
        }
        () = stopping => {
            connection.as_mut().graceful_shutdown();
            let _ = connection.await;
        }
    }
}

/// The whole application: `/health`, `/ice-servers`, the signalling websocket, and static files
/// as fallback.
fn router(config: &Config, relay: relay::Relay, stats: Stats) -> io::Result<Router> {
    let ice = turn::IceList::new(config);
    Ok(Router::new()
        .route("/health", get(health).with_state(stats))
        .route("/ice-servers", get(ice_servers).with_state(ice))
        .route("/ws/{room}", get(relay::websocket).with_state(relay))
        .fallback_service(static_files::router(&config.static_dir))
        .layer(middleware::from_fn(log_request)))
}

/// Never cached: TURN credentials made from a secret expire, and even static ones may change
/// with the relay's settings.
async fn ice_servers(State(ice): State<turn::IceList>) -> Response {
    json_response(StatusCode::OK, &ice.now())
}

async fn health(State(stats): State<Stats>) -> Response {
    let counts = stats.counts();
    let health = relay_api::Health {
        status: "ok".into(),
        rooms: counts.rooms,
        peers: counts.peers,
        spectators: counts.spectators,
        connections: counts.connections,
    };
    json_response(StatusCode::OK, &health)
}

/// A JSON answer of the relay's (one of the `relay_api` bodies), never cached: each says what
/// holds now.
pub(crate) fn json_response(status: StatusCode, body: &impl serde::Serialize) -> Response {
    // These bodies are plain structs of strings and numbers: serialising cannot fail.
    let body = serde_json::to_string(body).unwrap_or_default();
    (
        status,
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}

/// One debug line per request. The path is redacted where it may carry a room id.
async fn log_request(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = loggable_path(request.uri().path()).to_owned();
    let start = tokio::time::Instant::now();
    let response = next.run(request).await;
    debug!(
        %method,
        path,
        status = response.status().as_u16(),
        micros = start.elapsed().as_micros() as u64,
        "request"
    );
    response
}

/// Room names never reach the logs: `/ws/…` and client routes (no extension, which may hold a
/// room id in their path) are shown by their kind only.
fn loggable_path(path: &str) -> &str {
    if path == "/ws" || path.starts_with("/ws/") {
        "/ws/{room}"
    } else if path == "/"
        || path == "/health"
        || path == "/ice-servers"
        || static_files::has_extension(path)
    {
        path
    } else {
        "{page}"
    }
}
