//! The `signaling` binary: parses flags and environment, binds, and runs [`signaling::run`] until
//! Ctrl-C or SIGTERM.

use std::{io::IsTerminal, net::SocketAddr, path::PathBuf, process::ExitCode, time::Duration};

use clap::Parser;
use tracing::{error, info};
use tracing_subscriber::{filter::LevelFilter, EnvFilter};

/// The Moulin / Méta Morpion relay: serves the web client and the matchbox signalling endpoint
/// that introduces two players' browsers to each other.
#[derive(Debug, Parser)]
#[command(
    name = "signaling",
    version,
    after_help = "\
Endpoints:
  GET /ws/ROOM      matchbox full-mesh signalling websocket (stock matchbox_socket client);
                    ROOM is 1-64 of A-Z a-z 0-9 _ -; two players per room. Refusals, before the
                    upgrade, as {\"error\":...}: 400 bad_room, 403 origin_not_allowed,
                    409 room_full, 429 too_many_connections, 503 relay_full / too_many_rooms.
                    Without upgrade headers: 200 {\"peers\":N} if joinable now, else the refusal.
  GET /ws/ROOM?watch
                    the same as a spectator, beside the two players (--max-spectators, 8 by
                    default; one more: 409 too_many_spectators). Players get {\"Watcher\":ID}
                    for each spectator and make the WebRTC offer to it; spectators never meet
                    each other and may signal only the players.
  GET /ice-servers  {\"iceServers\":[...]} (RTCIceServer entries; empty unless configured;
                    with --turn-secret, fresh TURN credentials on every request)
  GET /health       200 {\"status\":\"ok\",\"rooms\":R,\"peers\":P,\"spectators\":S,
                    \"connections\":C}; P counts every websocket, spectators (S) included
  GET /...          files from the static directory; paths without an extension serve index.html

Durations are seconds (`12`, `0.5`) or carry a unit (`500ms`, `12s`, `2m`, `1h`).
A frozen peer (no message and no pong) is closed after --idle-timeout; the relay pings every
third of it, and matchbox_socket also sends a keep-alive every 10 s.

Logs go to stderr; RUST_LOG sets the filter (default: info), e.g. RUST_LOG=signaling=debug.
Prints `Relay listening on http://ADDR/` on stdout once bound. Stops gracefully on Ctrl-C or
SIGTERM."
)]
struct Cli {
    /// Address (IP:PORT) to listen on; port 0 picks a free one.
    #[arg(long, env = "MOULIN_ADDR", default_value = "127.0.0.1:3536")]
    addr: SocketAddr,

    /// Directory of the built web client (index.html, .js, .wasm). If missing, the relay still
    /// runs and pages answer 503.
    #[arg(long, env = "MOULIN_STATIC_DIR", default_value = signaling::Config::DEFAULT_STATIC_DIR)]
    static_dir: PathBuf,

    /// Most signalling websockets open at once.
    #[arg(long, env = "MOULIN_MAX_CONNECTIONS", default_value_t = signaling::Config::DEFAULT_MAX_CONNECTIONS)]
    max_connections: usize,

    /// Most signalling websockets from one client IP (see --trusted-proxy).
    #[arg(long, env = "MOULIN_MAX_CONNECTIONS_PER_IP", default_value_t = signaling::Config::DEFAULT_MAX_CONNECTIONS_PER_IP)]
    max_connections_per_ip: usize,

    /// Most rooms open at once.
    #[arg(long, env = "MOULIN_MAX_ROOMS", default_value_t = signaling::Config::DEFAULT_MAX_ROOMS)]
    max_rooms: usize,

    /// Most spectators per room (GET /ws/ROOM?watch), beside its two players; 0 turns spectating
    /// off. Spectators count toward --max-connections, --max-connections-per-ip and --max-rooms.
    #[arg(long, env = "MOULIN_MAX_SPECTATORS", default_value_t = signaling::Config::DEFAULT_MAX_SPECTATORS)]
    max_spectators: usize,

    /// Largest websocket message, in bytes; a bigger frame closes the socket (1009) unread.
    #[arg(long, env = "MOULIN_MAX_MESSAGE_SIZE", default_value_t = signaling::Config::DEFAULT_MAX_MESSAGE_SIZE)]
    max_message_size: usize,

    /// Messages per second a peer may send on average (bursts of twice that); over it the
    /// socket is closed (1008).
    #[arg(long, env = "MOULIN_MAX_MESSAGES_PER_SECOND", default_value_t = signaling::Config::DEFAULT_MAX_MESSAGES_PER_SECOND)]
    max_messages_per_second: u32,

    /// Close a peer that sent nothing, not even a pong, for this long (1001); must exceed a
    /// third of itself plus a round trip, and should exceed matchbox_socket's 10 s keep-alive.
    #[arg(long, env = "MOULIN_IDLE_TIMEOUT", default_value = "12s", value_parser = duration)]
    idle_timeout: Duration,

    /// How long a new connection may take to send its request headers.
    #[arg(long, env = "MOULIN_HEADER_READ_TIMEOUT", default_value = "10s", value_parser = duration)]
    header_read_timeout: Duration,

    /// How long shutdown waits for connections to close.
    #[arg(long, env = "MOULIN_DRAIN_TIMEOUT", default_value = "5s", value_parser = duration)]
    drain_timeout: Duration,

    /// Page origins allowed to open a websocket besides the relay's own (Origin host = Host),
    /// e.g. https://games.example; `*` allows every origin. Repeat the flag, or separate with
    /// commas.
    #[arg(
        long = "allowed-origin",
        env = "MOULIN_ALLOWED_ORIGINS",
        value_delimiter = ','
    )]
    allowed_origins: Vec<String>,

    /// Reverse proxies (IP or CIDR) whose X-Forwarded-For is believed for the per-IP limit,
    /// e.g. 127.0.0.1 or 10.0.0.0/8. Repeat the flag, or separate with commas.
    #[arg(
        long = "trusted-proxy",
        env = "MOULIN_TRUSTED_PROXIES",
        value_delimiter = ',',
        value_parser = signaling::parse_ip_net
    )]
    trusted_proxies: Vec<signaling::IpNet>,

    /// STUN/TURN server URL handed to clients at /ice-servers, e.g. stun:stun.example.org:3478
    /// or turn:turn.example.org:3478?transport=udp. Repeat the flag, or separate with commas.
    /// None by default.
    #[arg(long = "ice-server", env = "MOULIN_ICE_SERVERS", value_delimiter = ',')]
    ice_servers: Vec<String>,

    /// User name for the turn: / turns: URLs.
    #[arg(long, env = "MOULIN_TURN_USERNAME")]
    turn_username: Option<String>,

    /// Password for the turn: / turns: URLs (prefer the environment variable: flags show in ps).
    #[arg(long, env = "MOULIN_TURN_CREDENTIAL", hide_env_values = true)]
    turn_credential: Option<String>,

    /// Secret shared with the TURN server (coturn: use-auth-secret, static-auth-secret=SECRET).
    /// Each GET /ice-servers then gives the turn: / turns: URLs the user name
    /// `<expiry>:moulin` and the password base64(HMAC-SHA1(SECRET, user name)), valid for
    /// --turn-ttl; replaces --turn-username and --turn-credential. Prefer the environment
    /// variable: flags show in ps.
    #[arg(long, env = "MOULIN_TURN_SECRET", hide_env_values = true)]
    turn_secret: Option<String>,

    /// How long the TURN credentials made from --turn-secret are valid (at least 1s).
    #[arg(long, env = "MOULIN_TURN_TTL", default_value = "1h", value_parser = duration)]
    turn_ttl: Duration,
}

impl Cli {
    /// What clap cannot check alone: each error is printed after `error: ` and exits with 2.
    fn usage_error(&self) -> Option<String> {
        if let Some(bad) = self
            .ice_servers
            .iter()
            .find(|url| !signaling::IceServer::is_valid_url(url))
        {
            return Some(format!(
                "--ice-server `{bad}` is not a stun:, stuns:, turn: or turns: URL"
            ));
        }
        let secret = self.turn_secret.as_ref()?;
        if secret.is_empty() {
            return Some("--turn-secret (MOULIN_TURN_SECRET) is empty".to_owned());
        }
        if self.turn_credential.is_some() || self.turn_username.is_some() {
            return Some(
                "--turn-secret (MOULIN_TURN_SECRET) cannot be used with --turn-credential \
                 (MOULIN_TURN_CREDENTIAL) or --turn-username (MOULIN_TURN_USERNAME): the secret \
                 makes a user name and credential for every request; give one or the other"
                    .to_owned(),
            );
        }
        if !self
            .ice_servers
            .iter()
            .any(|url| signaling::IceServer::is_turn_url(url))
        {
            return Some(
                "--turn-secret (MOULIN_TURN_SECRET) needs a turn: or turns: URL in --ice-server \
                 (MOULIN_ICE_SERVERS), e.g. turn:turn.example.org:3478?transport=udp"
                    .to_owned(),
            );
        }
        if self.turn_ttl < Duration::from_secs(1) {
            return Some(
                "--turn-ttl (MOULIN_TURN_TTL) must be at least 1s: the expiry is in whole seconds"
                    .to_owned(),
            );
        }
        None
    }
}

/// A duration: seconds (`12`, `0.5`) or with a unit (`500ms`, `12s`, `2m`, `1h`).
fn duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, scale) = if let Some(ms) = text.strip_suffix("ms") {
        (ms, 0.001)
    } else if let Some(s) = text.strip_suffix('s') {
        (s, 1.0)
    } else if let Some(m) = text.strip_suffix('m') {
        (m, 60.0)
    } else if let Some(h) = text.strip_suffix('h') {
        (h, 3600.0)
    } else {
        (text, 1.0)
    };
    number
        .trim()
        .parse::<f64>()
        .ok()
        .and_then(|n| Duration::try_from_secs_f64(n * scale).ok())
        .filter(|d| !d.is_zero())
        .ok_or_else(|| {
            format!("`{text}` is not a positive duration such as 12, 500ms, 12s, 2m or 1h")
        })
}

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(error) = cli.usage_error() {
        eprintln!("error: {error}");
        return ExitCode::from(2);
    }
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::builder()
                .with_default_directive(LevelFilter::INFO.into())
                .from_env_lossy(),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .init();

    let shutdown = match shutdown_signal() {
        Ok(shutdown) => shutdown,
        Err(err) => {
            error!(%err, "cannot install the signal handlers");
            return ExitCode::FAILURE;
        }
    };
    let listener = match tokio::net::TcpListener::bind(cli.addr).await {
        Ok(listener) => listener,
        Err(err) => {
            error!(addr = %cli.addr, %err, "cannot listen");
            return ExitCode::FAILURE;
        }
    };
    match listener.local_addr() {
        // Scripts wait for this exact line.
        Ok(addr) => println!("Relay listening on http://{addr}/"),
        Err(err) => {
            error!(%err, "cannot read the bound address");
            return ExitCode::FAILURE;
        }
    }

    let mut config = signaling::Config::default();
    config.static_dir = cli.static_dir;
    config.max_connections = cli.max_connections;
    config.max_connections_per_ip = cli.max_connections_per_ip;
    config.max_rooms = cli.max_rooms;
    config.max_spectators = cli.max_spectators;
    config.max_message_size = cli.max_message_size;
    config.max_messages_per_second = cli.max_messages_per_second;
    config.idle_timeout = cli.idle_timeout;
    config.header_read_timeout = cli.header_read_timeout;
    config.drain_timeout = cli.drain_timeout;
    config.allowed_origins = signaling::AllowedOrigins::from_list(&cli.allowed_origins);
    config.trusted_proxies = cli.trusted_proxies;
    config.ice_servers =
        signaling::IceServer::from_urls(&cli.ice_servers, cli.turn_username, cli.turn_credential);
    config.turn_secret = cli.turn_secret.map(signaling::TurnSecret::new);
    config.turn_ttl = cli.turn_ttl;
    match signaling::run(listener, config, shutdown).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            error!(%err, "relay stopped");
            ExitCode::FAILURE
        }
    }
}

/// Completes on the first Ctrl-C (SIGINT) or SIGTERM. The handlers are installed now, before the
/// "listening" line, so that a signal sent right after it is never lost.
#[cfg(unix)]
fn shutdown_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut interrupt = signal(SignalKind::interrupt())?;
    let mut terminate = signal(SignalKind::terminate())?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => info!("Ctrl-C received"),
            _ = terminate.recv() => info!("SIGTERM received"),
        }
    })
}

/// Completes on the first Ctrl-C.
#[cfg(not(unix))]
fn shutdown_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    Ok(async {
        if tokio::signal::ctrl_c().await.is_ok() {
            info!("Ctrl-C received");
        } else {
            std::future::pending::<()>().await;
        }
    })
}
