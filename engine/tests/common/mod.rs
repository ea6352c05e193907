//! What the session's integration tests share: a whole game, a seat's entries, and an entry
//! signed by hand (a lying or puppet device's) with what it declares to have seen.

#![allow(dead_code)] // each test file uses its part

use ed25519_dalek::SigningKey;
use engine::session::transcript::{self, Verified};
use engine::session::wire::{Digest32, Entry, Header};
use engine::session::Command;
use engine::session::{
    wire, Body, Config, Invite, Loopback, Saved, Seat, Session, GUEST_SEED, HOST_SEED,
};
use engine::{AnyGame, GameKind, Step};

/// A Méta Morpion game Red (the guest) wins with its last move, `f4`.
pub const META_GAME: &str =
    "d2 b4 d1 b3 e9 d9 c9 h9 d7 a1 b1 d3 a7 a2 a5 b5 f6 g9 b9 d8 c4 h3 e8 e4 e2 \
     d6 a9 h7 f3 h8 d5 b6 f9 a3 g3 h5 f5 i6 i2 g5 h1 h2 d4 g2 g4 i1 g1 i5 i3 e5 e6 f4";

/// `seat`'s entries as `s` holds them.
pub fn entries_of(s: &Session, seat: Seat) -> Vec<Entry> {
    s.entries()
        .into_iter()
        .filter(|e| e.seat() == seat)
        .collect()
}

/// `seat`'s next entry, signed with `key` and chained after `holder`'s copy of that seat's
/// chain, declaring it had seen the other seat's first `seen` entries, dated `time` (never
/// before its previous entry).
pub fn signed(
    holder: &Session,
    key: [u8; 32],
    seat: Seat,
    body: Body,
    seen: usize,
    time: u64,
) -> Entry {
    let own = entries_of(holder, seat);
    let other = entries_of(holder, seat.other());
    let header = Header {
        room: holder.invite().room,
        seat,
        seq: own.len() as u32,
        time: time.max(own.last().map_or(0, |e| e.header.time)),
        prev: own.last().map_or(Digest32::ZERO, Entry::hash),
        seen: if seen == 0 {
            Digest32::ZERO
        } else {
            other[seen - 1].hash()
        },
    };
    Entry::sign(&SigningKey::from_bytes(&key), header, body)
}

/// A seat's key seed in a [`Loopback`].
pub fn seed(seat: Seat) -> [u8; 32] {
    match seat {
        Seat::Host => HOST_SEED,
        Seat::Guest => GUEST_SEED,
    }
}

/// The next entry of `seat`, correctly signed and chained, declaring it had seen only the other
/// seat's first `seen` entries (as the liar's own session holds them).
pub fn lying(net: &Loopback, seat: Seat, body: Body, seen: usize) -> Entry {
    lying_at(net, seat, body, seen, net.now())
}

/// [`lying`], dated `time` by the liar's clock (never before its previous entry).
pub fn lying_at(net: &Loopback, seat: Seat, body: Body, seen: usize, time: u64) -> Entry {
    signed(net.side(seat), seed(seat), seat, body, seen, time)
}

/// Both sides of a room whose `Hello`s say version 2 (a game under way when the page was
/// updated, restored from its saves).
pub fn version_two_room(kind: GameKind) -> Loopback {
    let invite = Invite::new(kind, 100, [9; 16], HOST_SEED, [5; 16]);
    let hello = |s: [u8; 32]| {
        let key = Invite::new(kind, 100, [9; 16], s, [5; 16])
            .host_key
            .unwrap();
        Body::Hello {
            protocol: 2,
            rules: invite.rules,
            key,
            proof: wire::join_proof(invite.room, &invite.secret, &key),
        }
    };
    let mut entries = Vec::new();
    for (seat, s) in [(Seat::Host, HOST_SEED), (Seat::Guest, GUEST_SEED)] {
        let e = signed_after(&entries, s, seat, hello(s));
        entries.push(e);
    }
    let side = |seat, seed| {
        Session::restore(Saved {
            seat,
            seed,
            invite: invite.clone(),
            config: Config::default(),
            entries: entries.clone(),
            forks: Vec::new(),
        })
        .unwrap()
    };
    Loopback::with_sessions(side(Seat::Host, HOST_SEED), side(Seat::Guest, GUEST_SEED))
}

/// An entry of `seat` chained after `entries` (the room so far), having seen all of them.
pub fn signed_after(entries: &[Entry], key: [u8; 32], seat: Seat, body: Body) -> Entry {
    let own: Vec<&Entry> = entries.iter().filter(|e| e.seat() == seat).collect();
    let other: Vec<&Entry> = entries.iter().filter(|e| e.seat() != seat).collect();
    let header = wire::Header {
        room: engine::session::RoomId([9; 16]),
        seat,
        seq: own.len() as u32,
        time: 0,
        prev: own.last().map_or(wire::Digest32::ZERO, |e| e.hash()),
        seen: other.last().map_or(wire::Digest32::ZERO, |e| e.hash()),
    };
    Entry::sign(&ed25519_dalek::SigningKey::from_bytes(&key), header, body)
}

/// Plays `tokens` (Méta cells or Morris placements), each by the seat to move.
pub fn play_tokens(net: &mut Loopback, tokens: &[&str]) {
    for t in tokens {
        let seat = net.mover().expect("the game goes on");
        let step = token_step(net, t);
        net.exchange(seat, Command::Play(step));
    }
}

/// The step a token names in the room's game (a Méta cell, or a Morris placement).
pub fn token_step(net: &Loopback, token: &str) -> Step {
    match net.host().game().unwrap() {
        AnyGame::Meta(_) => Step::from_cell(engine::meta::Cell::from_name(token).unwrap()),
        AnyGame::Morris(_) => {
            Step::Place(engine::morris::Point::from_name(token).unwrap().index() as u8)
        }
    }
}

/// What `engine verify` finds in `seat`'s export (a refusal fails the test).
pub fn verify(net: &Loopback, seat: Seat) -> Verified {
    transcript::verify(&net.side(seat).export()).unwrap_or_else(|e| panic!("{e}"))
}
