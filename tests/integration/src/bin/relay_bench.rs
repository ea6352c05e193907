//! Load benchmark of the relay, side by side with the stock matchbox full-mesh server.
//!
//! For each server and each peer count it starts the server as its own process (this binary,
//! `relay-bench serve ours|stock`, so that its memory can be read from `/proc`), connects that
//! many websocket peers in rooms of two over loopback (64 handshakes in flight), measures each
//! join (TCP connect to `IdAssigned`), holds every peer idle for a few seconds while answering
//! pings, then reads the server's resident memory and counts the peers still connected. Bounded:
//! at most 10 000 peers per run and a 10-minute overall limit; it stops by itself.
//!
//! With `--spectators N` it measures spectators instead, on our relay only (the stock server has
//! none): for each count of players, a run with the players alone and a run where each room of
//! two also gets N spectators (`/ws/ROOM?watch`, joining after the players, so each player hears
//! N `Watcher` events); "per spectator" is the difference of the two loaded RSS over the number
//! of spectators.
//!
//! ```sh
//! ulimit -n 25000   # each process holds up to 10 000 sockets
//! cargo run --release -p integration-tests --bin relay-bench            # 1000,5000,10000
//! cargo run --release -p integration-tests --bin relay-bench -- 2000    # other counts
//! cargo run --release -p integration-tests --bin relay-bench -- 1000 --spectators 8
//! ```

use std::{
    process::Stdio,
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc,
    },
    time::{Duration, Instant},
};

use futures::StreamExt;
use tokio::{
    io::{AsyncBufReadExt, BufReader},
    net::TcpListener,
    process::Command,
    sync::{watch, Semaphore},
};
use tokio_tungstenite::connect_async;

const MAX_PEERS: usize = 10_000;
const IN_FLIGHT: usize = 64;
const HOLD: Duration = Duration::from_secs(6);
const OVERALL: Duration = Duration::from_secs(600);

#[tokio::main]
async fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("serve") {
        let spectators = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(0);
        serve(
            args.get(1).map(String::as_str).unwrap_or("ours"),
            spectators,
        )
        .await;
        return;
    }
    let spectators = match args.iter().position(|a| a == "--spectators") {
        Some(at) => {
            let n: usize = args
                .get(at + 1)
                .and_then(|n| n.parse().ok())
                .expect("--spectators N: spectators per room, e.g. 8");
            args.drain(at..at + 2);
            Some(n)
        }
        None => None,
    };
    let counts: Vec<usize> = match args.first() {
        Some(list) => list
            .split(',')
            .map(|n| n.trim().parse().expect("peer counts: e.g. 1000,5000,10000"))
            .collect(),
        None => vec![1_000, 5_000, 10_000],
    };
    assert!(
        counts.iter().all(|&n| (2..=MAX_PEERS).contains(&n)),
        "peer counts must be 2..={MAX_PEERS}"
    );
    if let Some(per_room) = spectators {
        assert!(
            counts.iter().all(|&n| n / 2 * (2 + per_room) <= MAX_PEERS),
            "players and spectators together must be at most {MAX_PEERS}"
        );
        let run = async {
            println!(
                "| players | spectators | held idle | join p50 | join p99 | join max | RSS base | RSS loaded | per spectator |"
            );
            println!("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
            for &count in &counts {
                let alone = measure("ours", count, 0).await;
                let watched = measure("ours", count, per_room).await;
                let spectators = watched.peers - alone.peers;
                let per_spectator =
                    watched.loaded.saturating_sub(alone.loaded) as f64 / spectators.max(1) as f64;
                println!("{} — |", alone.spectator_row(count));
                println!("{} {per_spectator:.1} KiB |", watched.spectator_row(count));
            }
        };
        if tokio::time::timeout(OVERALL, run).await.is_err() {
            eprintln!("relay-bench: gave up after {OVERALL:?}");
            std::process::exit(1);
        }
        return;
    }
    let run = async {
        println!(
            "| server | peers | held idle | join p50 | join p99 | join max | RSS base | RSS loaded | per peer |"
        );
        println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        for &count in &counts {
            for kind in ["ours", "stock"] {
                let row = measure(kind, count, 0).await;
                println!("{}", row.row(kind));
            }
        }
    };
    if tokio::time::timeout(OVERALL, run).await.is_err() {
        eprintln!("relay-bench: gave up after {OVERALL:?}");
        std::process::exit(1);
    }
}

/// The child: one server on a free loopback port, its address on stdout, until killed.
async fn serve(kind: &str, spectators: usize) {
    match kind {
        "stock" => {
            let mut server = matchbox_signaling::SignalingServer::full_mesh_builder((
                std::net::Ipv4Addr::LOCALHOST,
                0,
            ))
            .build();
            let addr = server.bind().expect("bind");
            println!("{addr}");
            server.serve().await.expect("stock server");
        }
        _ => {
            let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
            println!("{}", listener.local_addr().expect("address"));
            let mut config = signaling::Config::default();
            config.static_dir = std::env::temp_dir().join("relay-bench-no-client");
            config.max_connections = 2 * MAX_PEERS;
            config.max_connections_per_ip = 2 * MAX_PEERS;
            config.max_rooms = MAX_PEERS;
            config.max_spectators = signaling::Config::DEFAULT_MAX_SPECTATORS.max(spectators);
            signaling::run(listener, config, std::future::pending())
                .await
                .expect("relay");
        }
    }
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|line| line.starts_with("VmRSS:"))
                .and_then(|line| line.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// One run: `count` players in rooms of two, each room with `spectators` spectators too.
struct Measured {
    /// Peers connected: players and spectators.
    peers: usize,
    /// Of them, those still connected after the hold.
    held: usize,
    /// Join times, sorted.
    latencies: Vec<Duration>,
    /// Resident memory before any peer, and with every peer held, in KiB.
    base: u64,
    loaded: u64,
}

impl Measured {
    fn pick(&self, q: f64) -> f64 {
        let last = self.latencies.len().saturating_sub(1);
        self.latencies
            .get(((self.latencies.len() as f64 * q) as usize).min(last))
            .map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0)
    }

    fn columns(&self) -> String {
        format!(
            "{} | {:.2} ms | {:.2} ms | {:.2} ms | {:.1} MiB | {:.1} MiB |",
            self.held,
            self.pick(0.50),
            self.pick(0.99),
            self.pick(1.0),
            self.base as f64 / 1024.0,
            self.loaded as f64 / 1024.0,
        )
    }

    /// A row of the players-only table.
    fn row(&self, kind: &str) -> String {
        let per_peer = self.loaded.saturating_sub(self.base) as f64 / self.peers as f64;
        format!(
            "| {} | {} | {} {per_peer:.1} KiB |",
            if kind == "stock" {
                "stock matchbox full mesh"
            } else {
                "moulin relay"
            },
            self.peers,
            self.columns(),
        )
    }

    /// A row of the spectators table, without its last cell.
    fn spectator_row(&self, players: usize) -> String {
        format!(
            "| {players} | {} | {}",
            self.peers - players,
            self.columns()
        )
    }
}

/// The sockets to open: each room's two players, then its spectators.
fn room_urls(kind: &str, addr: &str, count: usize, spectators: usize) -> Vec<String> {
    (0..count / 2)
        .flat_map(|room| {
            let player = match kind {
                "stock" => format!("ws://{addr}/room-{room}"),
                _ => format!("ws://{addr}/ws/room-{room}"),
            };
            let watcher = format!("ws://{addr}/ws/room-{room}?watch");
            [player.clone(), player]
                .into_iter()
                .chain(std::iter::repeat_n(watcher, spectators))
        })
        .collect()
}

async fn measure(kind: &str, count: usize, spectators: usize) -> Measured {
    let exe = std::env::current_exe().expect("own path");
    let mut child = Command::new(exe)
        .args(["serve", kind, &spectators.to_string()])
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start the server");
    let pid = child.id().expect("server pid");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let addr = lines
        .next_line()
        .await
        .expect("server stdout")
        .expect("server address");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let base = rss_kib(pid);

    let urls = room_urls(kind, &addr, count, spectators);
    let peers = urls.len();
    let (stop_tx, stop_rx) = watch::channel(false);
    let alive = Arc::new(AtomicUsize::new(0));
    let slots = Arc::new(Semaphore::new(IN_FLIGHT));
    let mut joins = Vec::with_capacity(peers);
    for url in urls {
        let permit = slots.clone().acquire_owned().await.expect("semaphore");
        let alive = alive.clone();
        let mut stop = stop_rx.clone();
        joins.push(tokio::spawn(async move {
            let started = Instant::now();
            let (mut ws, _) = connect_async(url).await.ok()?;
            // The first message is IdAssigned.
            ws.next().await?.ok()?;
            let latency = started.elapsed();
            drop(permit);
            alive.fetch_add(1, Ordering::Relaxed);
            // Idle, but reading (NewPeer, Watcher): tungstenite answers the relay's pings.
            tokio::spawn(async move {
                tokio::select! {
                    _ = async { while let Some(Ok(_)) = ws.next().await {} } => {
                        alive.fetch_sub(1, Ordering::Relaxed);
                    }
                    _ = stop.wait_for(|s| *s) => {}
                }
            });
            Some(latency)
        }));
    }
    let mut latencies = Vec::with_capacity(peers);
    for join in joins {
        if let Ok(Some(latency)) = join.await {
            latencies.push(latency);
        }
    }
    tokio::time::sleep(HOLD).await;
    let loaded = rss_kib(pid);
    let held = alive.load(Ordering::Relaxed);
    stop_tx.send_replace(true);
    let _ = child.kill().await;

    latencies.sort();
    Measured {
        peers,
        held,
        latencies,
        base,
        loaded,
    }
}
