//! The search's speed natively, through the worker's own code (`think`), on the positions of
//! `speed-positions.txt`: « Fort » for one second each, three runs, the median rate. The browser's
//! side of the comparison is tests/e2e/computer.test.mjs; both are in docs/ai.md.
//!
//! `cargo run --release -p client-worker --example speed`

use client_worker::{think, Request};
use std::time::Instant;

fn main() {
    let positions = include_str!("../speed-positions.txt");
    let start = Instant::now();
    let mut clock = || start.elapsed().as_secs_f64() * 1000.0;
    for line in positions.lines().filter(|l| !l.starts_with('#')) {
        let (game, record) = line.split_once('|').expect("game | record");
        let (game, record) = (game.trim(), record.trim());
        let mut rates: Vec<f64> = (0..3)
            .map(|_| {
                let request = Request {
                    game,
                    max_turns: 100,
                    rules: "",
                    record,
                    pending: "",
                    level: 4,
                    seed: 1,
                    movetime_ms: 1000.0,
                };
                let reply = think(&request, &mut clock).expect("a legal position");
                reply.nodes / reply.ms * 1000.0
            })
            .collect();
        rates.sort_by(f64::total_cmp);
        let unit = if game == "morris" {
            "nodes"
        } else {
            "playouts"
        };
        println!(
            "figure: native {game} {:>3} turns: {:.0} {unit}/s (median of 3)",
            record.split_whitespace().count(),
            rates[1]
        );
    }
}
