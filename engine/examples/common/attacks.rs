//! The attacks' building blocks, shared by `examples/hostile.rs` (which times them) and
//! `tests/session_costs.rs` (which counts their steps): a long honest room, a seat's entries,
//! and entries signed by hand after them.

// Each includer uses what it needs of these.
#![allow(dead_code)]

use ed25519_dalek::SigningKey;
use engine::session::wire::{self, Digest32, Header, Message};
use engine::session::{
    Body, Command, Entry, Loopback, Proposal, Seat, Session, GUEST_SEED, HOST_SEED,
};
use engine::{AnyGame, Game, GameKind, Step};

/// A room with `entries` entries or more behind it: 200-turn Morris games one after the other
/// (each accepted as a new game when it ends), the last one in progress; both sides in sync.
pub fn long_room(entries: usize) -> Loopback {
    let mut net = Loopback::new(GameKind::Morris, 200);
    net.set_now(1_750_000_000_000);
    let mut pick = 1usize;
    let mut held = 2;
    loop {
        let Some(seat) = net.mover() else {
            net.exchange(
                Seat::Host,
                Command::Propose(Proposal::NewGame { max_turns: None }),
            );
            net.exchange(Seat::Guest, Command::Reply { accept: true });
            held += 2;
            continue;
        };
        if held >= entries {
            break;
        }
        let Some(AnyGame::Morris(g)) = net.host().game() else {
            break;
        };
        let actions = g.legal_actions();
        pick = pick.wrapping_mul(31).wrapping_add(7) % 1_000_003;
        let step = Step::from_morris(actions[pick % actions.len()]);
        net.exchange(seat, Command::Play(step));
        held += 1;
    }
    net
}

/// The next `count` entries of `seat`, chained after `own` (its entries so far), each declaring
/// `seen` (a hash of the other seat's entries) and dated a second after the one before.
pub fn chained(
    own: &[Entry],
    seat: Seat,
    seen: Digest32,
    count: usize,
    body: Body,
) -> Vec<Vec<u8>> {
    let seed = if seat == Seat::Host {
        HOST_SEED
    } else {
        GUEST_SEED
    };
    let mut last = own.last().unwrap().clone();
    (0..count)
        .map(|_| {
            let header = Header {
                room: last.header.room,
                seat,
                seq: last.header.seq + 1,
                time: last.header.time.max(1_760_000_000_000) + 1_000,
                prev: last.hash(),
                seen,
            };
            last = Entry::sign(&SigningKey::from_bytes(&seed), header, body.clone());
            wire::encode(&Message::Entries(vec![last.clone()]))
        })
        .collect()
}

/// The entries of `seat` the session holds.
pub fn of(s: &Session, seat: Seat) -> Vec<Entry> {
    s.entries()
        .into_iter()
        .filter(|e| e.seat() == seat)
        .collect()
}
