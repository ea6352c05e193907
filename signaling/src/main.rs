//! The `signaling` binary: parses flags and environment, binds, and runs [`signaling::run`] until
//! Ctrl-C or SIGTERM.

use std::{io::IsTerminal, net::SocketAddr, path::PathBuf, process::ExitCode};

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
  GET /ws/ROOM   matchbox full-mesh signalling websocket (stock matchbox_socket client)
  GET /health    200 ok
  GET /...       files from the static directory; paths without an extension serve index.html

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
}

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
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
