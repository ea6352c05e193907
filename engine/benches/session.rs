//! Cost of the peer protocol on a long game: `cargo bench -p engine --bench session`.
//! A 200-odd-turn Morris game is played between two sessions; the benches measure receiving one
//! new entry at that length (checked, then the fold is recomputed from the start) and verifying
//! the whole exported transcript.

use criterion::{criterion_group, criterion_main, Criterion};
use engine::session::{Command, Config, Effect, Invite, Session, Step};
use engine::{AnyGame, Game, GameKind};
use std::hint::black_box;

/// The host after a long random game, the guest just before the host's last move reached it,
/// and that last message.
fn long_game() -> (Session, Session, Vec<u8>) {
    let invite = Invite::new(GameKind::Morris, 500, [1; 16], [2; 32], [3; 16]);
    let mut host = Session::host(invite.clone(), [2; 32], Config::default(), 0).unwrap();
    let mut guest = Session::guest(invite, [4; 32], Config::default(), 0);
    let mut queue: Vec<(bool, Vec<u8>)> = Vec::new();
    let send = |to_guest: bool, out: Vec<Effect>, q: &mut Vec<(bool, Vec<u8>)>| {
        for e in out {
            if let Effect::Send(m) = e {
                q.push((to_guest, m));
            }
        }
    };
    send(true, host.peer_connected(0), &mut queue);
    send(false, guest.peer_connected(0), &mut queue);
    let (mut pick, mut last, mut guest_before) = (1usize, Vec::new(), guest.clone());
    loop {
        while !queue.is_empty() {
            let (to_guest, m) = queue.remove(0);
            let out = if to_guest {
                guest.receive(&m, 1)
            } else {
                host.receive(&m, 1)
            };
            send(!to_guest, out, &mut queue);
        }
        let Some(AnyGame::Morris(g)) = host.game().cloned() else {
            break;
        };
        if g.is_over() || g.turns() > 200 {
            break;
        }
        let actions = g.legal_actions();
        pick = pick.wrapping_mul(31).wrapping_add(7) % 1_000_003;
        let step = Step::from_morris(actions[pick % actions.len()]);
        let host_moves = host.my_turn();
        let side = if host_moves { &mut host } else { &mut guest };
        let out = side.act(Command::Play(step), 2).unwrap();
        if host_moves {
            if let Some(Effect::Send(m)) = out.iter().find(|e| matches!(e, Effect::Send(_))) {
                last = m.clone();
                guest_before = guest.clone();
            }
        }
        send(host_moves, out, &mut queue);
    }
    (host, guest_before, last)
}

fn bench(c: &mut Criterion) {
    let (host, guest, last) = long_game();
    let entries = host.entries().len();
    let text = host.export();
    let mut group = c.benchmark_group("session");
    group.sample_size(20);
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
