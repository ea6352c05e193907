//! What the relay's tests share (`signaling/tests`, `tests/integration`): a relay serving on a
//! free loopback port inside the test's process ([`Relay`]), and a bare HTTP/1.1 client to ask it
//! things ([`get`], [`request`], [`try_get`], and [`get_blocking`] for tests without a runtime).
//!
//! ```no_run
//! # #[tokio::main(flavor = "current_thread")] async fn main() {
//! use test_support::{get, Relay};
//! let relay = Relay::start().await;
//! let reply = get(relay.addr, "/ws/room1", &[]).await;
//! assert_eq!((reply.status, reply.text().as_str()), (200, r#"{"peers":0}"#));
//! relay.stop().await;
//! # }
//! ```
#![forbid(unsafe_code)]

mod http;

pub use http::{get, get_blocking, request, try_get, Reply};

use std::{net::SocketAddr, time::Duration};

use tokio::{net::TcpListener, sync::oneshot, task::JoinHandle, time::timeout};

/// How long a helper waits for something that takes well under a second on loopback.
pub const LIMIT: Duration = Duration::from_secs(20);

/// A relay serving on a loopback port, inside this process, until [`Relay::stop`].
pub struct Relay {
    /// Where it listens.
    pub addr: SocketAddr,
    stats: signaling::Stats,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<std::io::Result<()>>,
}

impl Relay {
    /// A relay with the default settings, serving no web client (its static directory does not
    /// exist), and a drain of 2 s.
    pub async fn start() -> Self {
        Self::start_with(|_| {}).await
    }

    /// The same on a given address (to restart one where it was).
    pub async fn start_at(addr: SocketAddr) -> Self {
        let listener = TcpListener::bind(addr)
            .await
            .expect("bind the same address again");
        Self::serve(listener, |_| {})
    }

    /// The same with the settings changed by `adjust`.
    pub async fn start_with(adjust: impl FnOnce(&mut signaling::Config)) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind 127.0.0.1:0");
        Self::serve(listener, adjust)
    }

    fn serve(listener: TcpListener, adjust: impl FnOnce(&mut signaling::Config)) -> Self {
        let addr = listener.local_addr().expect("bound address");
        let mut config = signaling::Config::default();
        config.static_dir = std::env::temp_dir().join("relay-tests-no-client");
        config.drain_timeout = Duration::from_secs(2);
        adjust(&mut config);
        let server = signaling::Server::new(config);
        let stats = server.stats();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(server.run(listener, async {
            let _ = stopped.await;
        }));
        Self {
            addr,
            stats,
            stop: Some(stop),
            task,
        }
    }

    /// `ws://ADDR/ws/ROOM`, the URL a peer joins `room` with.
    pub fn room_url(&self, room: &str) -> String {
        format!("ws://{}/ws/{room}", self.addr)
    }

    /// `http://ADDR`.
    pub fn http_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// What the relay holds now.
    pub fn counts(&self) -> signaling::Counts {
        self.stats.counts()
    }

    /// Waits (at most [`LIMIT`]) until the relay's counts satisfy `want`; panics otherwise.
    pub async fn wait_for_counts(&self, want: impl Fn(signaling::Counts) -> bool) {
        let settled = timeout(LIMIT, async {
            while !want(self.counts()) {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
        .await;
        assert!(
            settled.is_ok(),
            "counts did not settle: {:?}",
            self.counts()
        );
    }

    /// Shuts the relay down and waits for [`signaling::Server::run`] to return (closing every
    /// socket); panics if it does not within [`LIMIT`], or fails.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        timeout(LIMIT, &mut self.task)
            .await
            .expect("the relay did not stop")
            .expect("the relay task panicked")
            .expect("the relay failed");
    }
}
