//! Cost of the peer protocol on a long game: `cargo bench -p engine --bench session`.
//! A 200-odd-turn Morris game is played between two sessions; the benches measure playing a move
//! (sign, check, fold, and the text the tab saves), receiving one new entry at that length
//! (checked and folded) and verifying the whole exported transcript.
//!
//! As the browser builds it (size-optimised, without ed25519's precomputed tables):
//! `cargo bench -p engine --bench session --profile wasm-release --no-default-features`.

use criterion::{criterion_group, criterion_main, Criterion};
use engine::session::{Command, Loopback, Seat, Session};
use engine::{AnyGame, Game, GameKind, Step};
use std::hint::black_box;

/// The host after a long random game, the guest just before the host's last move reached it,
/// that last message, and the side to move now.
fn long_game() -> (Session, Session, Vec<u8>, Session) {
    let mut net = Loopback::new(GameKind::Morris, 500);
    let (mut pick, mut last, mut guest_before) = (1usize, Vec::new(), net.guest().clone());
    while let Some(seat) = net.mover() {
        let Some(AnyGame::Morris(g)) = net.host().game() else {
            break;
        };
        if g.turns() > 200 {
            break;
        }
        let actions = g.legal_actions();
        pick = pick.wrapping_mul(31).wrapping_add(7) % 1_000_003;
        let step = Step::from_morris(actions[pick % actions.len()]);
        net.act(seat, Command::Play(step)).unwrap();
        if seat == Seat::Host {
            last = net.sent().last().expect("the move was sent").1.clone();
            guest_before = net.guest().clone();
        }
        net.settle();
    }
    let mover = net.side(net.mover().expect("a game in progress")).clone();
    (net.host().clone(), guest_before, last, mover)
}

fn bench(c: &mut Criterion) {
    let (host, guest, last, mover) = long_game();
    let entries = host.entries().len();
    let text = host.export();
    let mut group = c.benchmark_group("session");
    group.sample_size(20);
    let step = Step::legal(mover.game().unwrap())[0];
    group.bench_function(format!("play a move at {entries} entries, and save"), |b| {
        b.iter_batched(
            || mover.clone(),
            |mut s| {
                s.act(Command::Play(black_box(step)), 3).unwrap();
                s.save().to_text()
            },
            criterion::BatchSize::SmallInput,
        )
    });
    group.bench_function(format!("the text a tab saves at {entries} entries"), |b| {
        b.iter(|| black_box(&host).save_text())
    });
    group.bench_function(format!("receive a new entry at {entries} entries"), |b| {
        b.iter_batched(
            || guest.clone(),
            |mut g| g.receive(black_box(&last), 3),
            criterion::BatchSize::SmallInput,
        )
    });
    group.bench_function(format!("verify a transcript of {entries} entries"), |b| {
        b.iter(|| engine::session::transcript::verify(black_box(&text)).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
