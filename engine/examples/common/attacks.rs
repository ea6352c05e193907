//! The attacks' building blocks, shared by `examples/hostile.rs` (which times them natively),
//! `tests/session_costs.rs` (which counts their steps) and the integration tests' `hostile-peer`
//! (which sends them to a real room page, `tests/e2e/hostile.test.mjs`): a long honest room, a
//! seat's entries, entries signed by hand after them, and the live attacks' messages.

// Each includer uses what it needs of these.
#![allow(dead_code)]

use ed25519_dalek::SigningKey;
use engine::session::wire::{self, Digest32, Header, Heads, Message};
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
            wire::encode_message(&Message::Entries(vec![last.clone()]))
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

/// The live attacks, by name (`examples/hostile.rs` describes each).
pub const LIVE: [&str; 7] = [
    "crossing",
    "void",
    "heads",
    "challenge",
    "proof",
    "knock",
    "tiny",
];

/// The live attack `name` against a room like `base`: the victim's session as it stands when the
/// attack starts, and the `count` messages the attacker sends it, in order (`None` for an unknown
/// name).
pub fn live(name: &str, base: &Loopback, count: usize) -> Option<(Session, Vec<Vec<u8>>)> {
    Some(match name {
        "crossing" => crossing(base, count),
        "void" => void(base, count),
        "heads" => (base.host().clone(), vec![heads_of_nothing(); count]),
        "challenge" => (base.host().clone(), challenges(count, wire::encode_message)),
        "tiny" => (
            base.host().clone(),
            challenges(count, wire::encode::<Message>),
        ),
        "proof" => (reconnected(base.host()), vec![bad_proof(); count]),
        "knock" => {
            let victim = reconnected(base.host());
            let knocks = knocks(&victim, count);
            (victim, knocks)
        }
        _ => return None,
    })
}

/// The guest's draw offer expires (its session withdraws it); the host answers it again and
/// again, declaring that withdrawal unseen: each answer folds before it.
fn crossing(base: &Loopback, count: usize) -> (Session, Vec<Vec<u8>>) {
    let mut net = base.clone();
    net.exchange(Seat::Guest, Command::Propose(Proposal::Draw));
    let offer = net.guest().room().open[1].unwrap().seq;
    let seen = of(net.guest(), Seat::Guest).last().unwrap().hash();
    net.advance(61_000);
    let victim = net.guest().clone();
    let reply = Body::Reply {
        proposal: offer,
        accept: true,
    };
    let messages = chained(&of(&victim, Seat::Host), Seat::Host, seen, count, reply);
    (victim, messages)
}

/// The guest answers no proposal, again and again, up to date.
fn void(base: &Loopback, count: usize) -> (Session, Vec<Vec<u8>>) {
    let victim = base.host().clone();
    let seen = of(&victim, Seat::Host).last().unwrap().hash();
    let no = Body::Reply {
        proposal: 9_999,
        accept: true,
    };
    let messages = chained(&of(&victim, Seat::Guest), Seat::Guest, seen, count, no);
    (victim, messages)
}

/// « Send me everything ».
fn heads_of_nothing() -> Vec<u8> {
    wire::encode_message(&Message::Heads(Heads {
        count: [0, 0],
        last: [Digest32::ZERO, Digest32::ZERO],
    }))
}

/// A new challenge each time, each asking for a signature, encoded by `encode`: padded as the
/// protocol asks, or bare (17 bytes: the tiniest message of all, refused unread).
fn challenges(count: usize, encode: impl Fn(&Message) -> Vec<u8>) -> Vec<Vec<u8>> {
    (0..count as u64)
        .map(|i| {
            let mut c = [0u8; 16];
            c[..8].copy_from_slice(&i.to_le_bytes());
            encode(&Message::Challenge(c))
        })
        .collect()
}

/// A proof that proves nothing.
fn bad_proof() -> Vec<u8> {
    wire::encode_message(&Message::Proof {
        seat: Seat::Guest,
        sig: wire::Sig([3; 32], [4; 32]),
    })
}

/// A device with the room secret (and a new key each time) knocks, badly signed, while the
/// guest's seat is away.
fn knocks(victim: &Session, count: usize) -> Vec<Vec<u8>> {
    let invite = victim.invite().clone();
    (0..count as u64)
        .map(|i| {
            let mut seed = [9u8; 32];
            seed[..8].copy_from_slice(&i.to_le_bytes());
            let key = SigningKey::from_bytes(&seed).verifying_key().to_bytes();
            wire::encode_message(&Message::Knock {
                key,
                proof: wire::join_proof(invite.room, &invite.secret, &key),
                sig: wire::Sig([3; 32], [4; 32]),
            })
        })
        .collect()
}

/// The session after its peer left and a new connection came (whoever it is).
fn reconnected(s: &Session) -> Session {
    let mut s = s.clone();
    s.peer_disconnected(1_760_000_000_000);
    s.peer_connected(1_760_000_000_000);
    s
}
