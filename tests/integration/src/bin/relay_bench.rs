//! Load benchmark of the relay, side by side with the stock matchbox full-mesh server.
//!
//! For each server and each peer count it starts the server as its own process (this binary,
//! `relay-bench serve ours|stock`, so that its memory can be read from `/proc`), connects that
//! many websocket peers in rooms of two over loopback (64 handshakes in flight), measures each
//! join (TCP connect to `IdAssigned`), holds every peer idle for a few seconds while answering
//! pings, then reads the server's resident memory and counts the peers still connected. Bounded:
//! at most 10 000 peers per run and a 10-minute overall limit; it stops by itself.
//!
//! ```sh
//! ulimit -n 25000   # each process holds up to 10 000 sockets
//! cargo run --release -p integration-tests --bin relay-bench            # 1000,5000,10000
//! cargo run --release -p integration-tests --bin relay-bench -- 2000    # other counts
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
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("serve") {
        serve(args.get(1).map(String::as_str).unwrap_or("ours")).await;
        return;
    }
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
    let run = async {
        println!(
            "| server | peers | held idle | join p50 | join p99 | join max | RSS base | RSS loaded | per peer |"
        );
        println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        for &count in &counts {
            for kind in ["ours", "stock"] {
                let row = measure(kind, count).await;
                println!("{row}");
            }
        }
    };
    if tokio::time::timeout(OVERALL, run).await.is_err() {
        eprintln!("relay-bench: gave up after {OVERALL:?}");
        std::process::exit(1);
    }
}

/// The child: one server on a free loopback port, its address on stdout, until killed.
async fn serve(kind: &str) {
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

async fn measure(kind: &str, count: usize) -> String {
    let exe = std::env::current_exe().expect("own path");
    let mut child = Command::new(exe)
        .args(["serve", kind])
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

    let url = |i: usize| match kind {
        "stock" => format!("ws://{addr}/room-{}", i / 2),
        _ => format!("ws://{addr}/ws/room-{}", i / 2),
    };
    let (stop_tx, stop_rx) = watch::channel(false);
    let alive = Arc::new(AtomicUsize::new(0));
    let slots = Arc::new(Semaphore::new(IN_FLIGHT));
    let mut joins = Vec::with_capacity(count);
    for i in 0..count {
        let permit = slots.clone().acquire_owned().await.expect("semaphore");
        let url = url(i);
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
            // Idle, but reading: tungstenite answers the relay's pings.
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
    let mut latencies = Vec::with_capacity(count);
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
    let pick = |q: f64| {
        latencies
            .get(((latencies.len() as f64 * q) as usize).min(latencies.len().saturating_sub(1)))
            .map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0)
    };
    let per_peer = (loaded.saturating_sub(base)) as f64 / count as f64;
    format!(
        "| {} | {count} | {held} | {:.2} ms | {:.2} ms | {:.2} ms | {:.1} MiB | {:.1} MiB | {per_peer:.1} KiB |",
        if kind == "stock" { "stock matchbox full mesh" } else { "moulin relay" },
        pick(0.50),
        pick(0.99),
        pick(1.0),
        base as f64 / 1024.0,
        loaded as f64 / 1024.0,
    )
}
