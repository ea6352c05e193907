//! The relay: one HTTP server that serves the built web client and the matchbox signalling
//! endpoint that introduces two browsers to each other (SPEC.md §7).
//!
//! - `GET /ws/{room}` upgrades to a websocket speaking matchbox's full-mesh protocol, so the stock
//!   `matchbox_socket` client pointed at `ws://HOST/ws/ROOM` works unchanged. The relay keeps
//!   presence only (who is in which room), nothing about games.
//! - `GET /health` answers `200 ok`.
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
//! // The binary passes Ctrl-C / SIGTERM; this example stops at once.
//! signaling::run(listener, config, async {}).await
//! # }
//! ```
#![forbid(unsafe_code)]

mod relay;
mod static_files;

use std::{
    future::{Future, IntoFuture},
    io,
    net::SocketAddr,
    path::PathBuf,
    time::Duration,
};

use axum::{
    extract::Request,
    middleware::{self, Next},
    response::Response,
    routing::get,
    serve::ListenerExt,
    Router,
};
use tokio::{net::TcpListener, sync::watch};
use tracing::{debug, info, warn};

/// What a self-hoster can set. Built with [`Config::default`] then adjusted field by field, so
/// that new settings (limits, allowed origins, …) can be added without breaking callers.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Config {
    /// Directory holding the built web client (`index.html`, the hashed `.js` and `.wasm`).
    /// If it is missing the relay still runs: static requests get `503`.
    pub static_dir: PathBuf,
    /// How long shutdown waits for HTTP requests to finish and websockets to close before
    /// giving up on them.
    pub drain_timeout: Duration,
}

impl Config {
    /// Default for [`Config::static_dir`], relative to the working directory.
    pub const DEFAULT_STATIC_DIR: &'static str = "client/dist";
    /// Default for [`Config::drain_timeout`].
    pub const DEFAULT_DRAIN_TIMEOUT: Duration = Duration::from_secs(5);
}

impl Default for Config {
    fn default() -> Self {
        Self {
            static_dir: PathBuf::from(Self::DEFAULT_STATIC_DIR),
            drain_timeout: Self::DEFAULT_DRAIN_TIMEOUT,
        }
    }
}

/// Serves the relay on `listener` until `shutdown` completes, then drains: stops accepting,
/// lets HTTP requests finish, sends every websocket a close frame (`1001 going away`) and waits
/// for the peers to go, all within [`Config::drain_timeout`].
///
/// Returns `Ok(())` after a shutdown, or the listener's error if serving stops by itself.
pub async fn run(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let addr = listener.local_addr()?;
    if !config.static_dir.is_dir() {
        warn!(
            static_dir = %config.static_dir.display(),
            "static directory not found: the web client is not built; pages will answer 503"
        );
    }

    // `true` once shutting down. Every websocket task holds a receiver, so `closed()` on the
    // sender tells when the last one is gone (mini-redis' drain, with one channel).
    let (stop_tx, stop_rx) = watch::channel(false);
    let app = router(&config, stop_rx.clone());
    let listener = listener.tap_io(|tcp| {
        // Signalling messages are small and latency-bound.
        if let Err(err) = tcp.set_nodelay(true) {
            debug!(%err, "cannot set TCP_NODELAY");
        }
    });
    let mut http_stop = stop_rx;
    let server = axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async move {
        let _ = http_stop.wait_for(|stopping| *stopping).await;
    })
    .into_future();
    tokio::pin!(server);
    info!(%addr, static_dir = %config.static_dir.display(), "relay started");

    tokio::select! {
        result = &mut server => return result,
        () = shutdown => {}
    }

    info!("shutting down: draining connections");
    stop_tx.send_replace(true);
    let drained = async {
        let result = (&mut server).await;
        stop_tx.closed().await;
        result
    };
    match tokio::time::timeout(config.drain_timeout, drained).await {
        Ok(result) => {
            info!("relay stopped");
            result
        }
        Err(_) => {
            warn!(
                timeout = ?config.drain_timeout,
                "connections still open after the drain timeout: dropping them"
            );
            Ok(())
        }
    }
}

/// The whole application: `/health`, the signalling websocket, and static files as fallback.
fn router(config: &Config, stop: watch::Receiver<bool>) -> Router {
    Router::new()
        .route("/health", get(health))
        .route(
            "/ws/{room}",
            get(relay::websocket).with_state(relay::Relay::new(stop)),
        )
        .fallback_service(static_files::router(&config.static_dir))
        .layer(middleware::from_fn(log_request))
}

async fn health() -> &'static str {
    "ok"
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
    } else if path == "/" || path == "/health" || static_files::has_extension(path) {
        path
    } else {
        "{page}"
    }
}
