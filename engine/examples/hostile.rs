//! What a hostile peer's bytes cost the honest side (issue #21): the figures of docs/protocol.md,
//! « Costs », measured natively.
//!
//! ```sh
//! # Live attacks: the honest session's CPU per MB the attacker sends, one line per attack.
//! cargo run --release -p engine --example hostile -- live
//! # Hostile transcripts for `engine verify` (and the viewer), written to a directory:
//! cargo run --release -p engine --example hostile -- files /tmp/hostile [--mb 6]
//! for f in /tmp/hostile/*.transcript; do
//!     /usr/bin/time -f "$f %e s %M KB" target/release/engine verify < $f | cut -c1-100
//! done
//! ```
//!
//! The live attacks, each against a room with `--room` entries behind it (1 000 by default:
//! 200-turn Morris games one after the other, the last in progress):
//! - `crossing`: the host signs entries that declare the guest's latest entries unseen (they
//!   cross them and fold before them), one per message: answers to the guest's expired offer.
//! - `void`: the guest signs, one per message, entries that break the rules (answers to no
//!   proposal), each up to date.
//! - `heads`: « send me everything » (heads of nothing), once a second.
//! - `challenge`: a new challenge in every message, each asking for a signature.
//! - `tiny`: the same challenges without their padding (17 bytes each): the page reads none and
//!   drops the connection at the first (`client/net`, `Driver`); here, every one is offered.
//! - `proof`: a device that proves nothing sends proofs with bad signatures.
//! - `knock`: a device with the room secret knocks with a new key, badly signed, again and again.
//!
//! The honest side's CPU counts what its page does with each message: the session's `receive`,
//! and the save when the session asks for one.
//!
//! The files: `void` (every entry an answer to no proposal, both seats up to date), `cross`
//! (every host entry declares only the guest's hello seen, every guest entry sees one more host
//! entry than the last: each crosses all the others), `claims` (a version 2 room: claims that
//! each look back over the whole room), `newlines` (a valid header, then 9 MB of newlines).

// `--cfg before` builds it on the code before issue #21 (docs/protocol.md, « Costs »).
#![allow(unexpected_cfgs)]

#[path = "common/attacks.rs"]
mod attacks;

use attacks::long_room;
use ed25519_dalek::SigningKey;
use engine::session::wire::{self, Digest32, Header};
use engine::session::{
    Body, Effect, Entry, Invite, Proposal, Rules, Seat, Session, GUEST_SEED, HOST_SEED,
};
use engine::{AnyGame, GameKind, Step};

/// A room signed by hand, both seats' keys known: entries chained as the test says.
struct Forger {
    invite: Invite,
    chains: [Vec<(Entry, Digest32)>; 2],
    lines: Vec<String>,
    bytes: usize,
}

impl Forger {
    fn new(kind: GameKind, protocol: u16) -> Forger {
        let invite = Invite::new(kind, 100, [7; 16], HOST_SEED, [8; 16]);
        let mut f = Forger {
            invite,
            chains: [Vec::new(), Vec::new()],
            lines: Vec::new(),
            bytes: 0,
        };
        for (seat, seed) in [(Seat::Host, HOST_SEED), (Seat::Guest, GUEST_SEED)] {
            let key = SigningKey::from_bytes(&seed).verifying_key().to_bytes();
            let body = Body::Hello {
                protocol,
                rules: Rules::new(kind, if kind == GameKind::Morris { 100 } else { 0 }),
                key,
                proof: wire::join_proof(f.invite.room, &f.invite.secret, &key),
            };
            let seen = f.chains[seat.other().index()].len();
            f.push(seat, body, seen, 0);
        }
        f
    }

    /// Signs `seat`'s next entry, declaring the other seat's first `seen` entries seen.
    fn push(&mut self, seat: Seat, body: Body, seen: usize, time: u64) -> Entry {
        let (own, other) = (
            &self.chains[seat.index()],
            &self.chains[seat.other().index()],
        );
        let header = Header {
            room: self.invite.room,
            seat,
            seq: own.len() as u32,
            time,
            prev: own.last().map_or(Digest32::ZERO, |(_, h)| *h),
            seen: if seen == 0 {
                Digest32::ZERO
            } else {
                other[seen - 1].1
            },
        };
        let seed = if seat == Seat::Host {
            HOST_SEED
        } else {
            GUEST_SEED
        };
        let e = Entry::sign(&SigningKey::from_bytes(&seed), header, body);
        let bytes = wire::encode(&e);
        let hash = e.hash();
        let line = wire::hex(&bytes);
        self.bytes += line.len() + 1;
        self.lines.push(line);
        self.chains[seat.index()].push((e.clone(), hash));
        e
    }

    fn len(&self, seat: Seat) -> usize {
        self.chains[seat.index()].len()
    }

    /// The transcript: the entries were pushed in an order that is the fold order.
    fn text(&self) -> String {
        let mut s = format!(
            "moulin-transcript v1\nroom {}\nhost {}\ngame {}\n",
            wire::hex(&self.invite.room.0),
            wire::hex(&self.invite.host_key.unwrap()),
            self.invite.rules.kind().as_str()
        );
        for l in &self.lines {
            s.push_str(l);
            s.push('\n');
        }
        s
    }
}

/// A long room of legal games (100-turn Morris games, one after the other) in which, after each
/// move, the other seat answers a proposal that never was: every such entry breaks the rules
/// in the state it declares, which the verifier must establish.
fn void_file(mb: f64) -> String {
    use engine::table::Playable;
    let mut f = Forger::new(GameKind::Morris, 3);
    let no = Body::Reply {
        proposal: 9_999,
        accept: true,
    };
    let mut t = 1_750_000_000_000u64;
    let (mut game, mut number, mut pick) =
        (AnyGame::new(GameKind::Morris, 100).unwrap(), 0u32, 1usize);
    let seat_of = |p: engine::Player, number: u32| {
        if (p == engine::Player::Blue) == (number % 2 == 0) {
            Seat::Host
        } else {
            Seat::Guest
        }
    };
    let full = |f: &Forger| f.len(Seat::Host) > 9_990 || f.len(Seat::Guest) > 9_990;
    while (f.bytes as f64) < mb * 1e6 && !full(&f) {
        t += 1;
        if game.outcome().is_some() {
            let seen = f.len(Seat::Guest);
            let p = f.push(
                Seat::Host,
                Body::Propose(Proposal::NewGame { max_turns: None }),
                seen,
                t,
            );
            let seen = f.len(Seat::Host);
            f.push(
                Seat::Guest,
                Body::Reply {
                    proposal: p.seq(),
                    accept: true,
                },
                seen,
                t,
            );
            number += 1;
            game = AnyGame::new(GameKind::Morris, 100).unwrap();
            continue;
        }
        let seat = seat_of(game.to_move(), number);
        let steps = Step::legal(&game);
        pick = pick.wrapping_mul(31).wrapping_add(7) % 1_000_003;
        let step = steps[pick % steps.len()];
        game = game.play_step(step).unwrap();
        let seen = f.len(seat.other());
        f.push(seat, Body::Play { game: number, step }, seen, t);
        let seen = f.len(seat);
        f.push(seat.other(), no.clone(), seen, t);
    }
    f.text()
}

/// Every host entry declares only the guest's hello seen; each guest entry sees one more host
/// entry: every host entry crosses every guest entry after the hello but the first few. In fold
/// order the host's come first (each can: it saw only the hello), then the guest's.
fn cross_file(mb: f64) -> String {
    let mut f = Forger::new(GameKind::Morris, 3);
    let no = Body::Reply {
        proposal: 9_999,
        accept: true,
    };
    let n = ((mb * 1e6) / 2.0 / 360.0) as usize;
    let n = n.min(9_998);
    let t = 1_750_000_000_000;
    for _ in 0..n {
        f.push(Seat::Host, no.clone(), 1, t);
    }
    for i in 0..n {
        f.push(Seat::Guest, no.clone(), (2 + i).min(f.len(Seat::Host)), t);
    }
    f.text()
}

/// A version 2 room where the host's move crossed each of the guest's acceptances, then claims
/// by the host that each look at every acceptance before them.
fn claims_file(mb: f64) -> String {
    let mut f = Forger::new(GameKind::Meta, 2);
    let mut t = 1_750_000_000_000;
    let accept = Body::Reply {
        proposal: 0,
        accept: true,
    };
    // Half the room: acceptances of the guest crossed by entries of the host.
    let n = (((mb * 1e6) / 4.0 / 360.0) as usize).min(4_999);
    for _ in 0..n {
        t += 1;
        let seen = f.len(Seat::Guest);
        f.push(Seat::Host, Body::Resign, seen, t);
        let seen = f.len(Seat::Host) - 1;
        f.push(Seat::Guest, accept.clone(), seen, t);
    }
    t += 1_000_000;
    while (f.bytes as f64) < mb * 1e6 && f.len(Seat::Host) < 9_999 {
        t += 1;
        let seen = f.len(Seat::Guest);
        f.push(Seat::Host, Body::ClaimWin, seen, t);
    }
    f.text()
}

fn newlines_file() -> String {
    let f = Forger::new(GameKind::Meta, 3);
    let mut s = f.text();
    s.truncate(s.find(&f.lines[0]).unwrap());
    s.push_str(&"\n".repeat(9_000_000 - s.len()));
    s
}

fn files(dir: &str, mb: f64) {
    std::fs::create_dir_all(dir).unwrap();
    for (name, text) in [
        ("void", void_file(mb)),
        ("cross", cross_file(mb)),
        ("claims", claims_file(mb)),
        ("newlines", newlines_file()),
    ] {
        let path = format!("{dir}/{name}.transcript");
        std::fs::write(&path, &text).unwrap();
        eprintln!("{path}: {:.2} MB", text.len() as f64 / 1e6);
    }
}

/// The honest page: its session, and its last save kept.
struct Page {
    session: Session,
    #[cfg(not(before))]
    saved: engine::session::SaveCursor,
}

impl Page {
    fn new(session: Session) -> Page {
        Page {
            #[cfg(not(before))]
            saved: session
                .save_parts(engine::session::SaveCursor::default())
                .cursor,
            session,
        }
    }

    /// What the page does with a message: the session's answer, and the save it asks for (the
    /// parts changed since the last save; before issue #21, the whole text).
    fn receive(&mut self, bytes: &[u8], now: u64) -> Vec<Effect> {
        let out = self.session.receive(bytes, now);
        if out.iter().any(|e| matches!(e, Effect::Save)) {
            #[cfg(not(before))]
            {
                let parts = std::hint::black_box(self.session.save_parts(self.saved));
                self.saved = parts.cursor;
            }
            #[cfg(before)]
            std::hint::black_box(self.session.save_text());
        }
        out
    }

    /// The steps counted so far (applied, merged, checked, signed, resent), where they are.
    fn work(&self) -> [u64; 5] {
        #[cfg(not(before))]
        {
            let w = self.session.work();
            [w.applied, w.merged, w.checked, w.signed, w.resent]
        }
        #[cfg(before)]
        [0; 5]
    }
}

/// This thread's CPU time so far (ns): what the honest side spends, whatever else runs on the
/// machine.
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Runs an attack: the messages (made beforehand, the attacker's work) go to the page one
/// after the other, a second apart; prints the honest side's CPU per MB received.
fn measure(name: &str, session: Session, messages: Vec<Vec<u8>>) {
    let mut page = Page::new(session);
    let sent: usize = messages.iter().map(Vec::len).sum();
    let n = messages.len();
    let before = page.work();
    let mut now = 1_760_000_000_000u64;
    let mut answered = 0usize;
    let t = cpu_ns();
    for m in &messages {
        for e in page.receive(m, now) {
            if let Effect::Send(b) = e {
                answered += b.len();
            }
        }
        now += 1_000;
    }
    let spent = (cpu_ns() - t) as f64 / 1e9;
    let after = page.work();
    let per = |i: usize| (after[i] - before[i]) as f64 / n as f64;
    println!(
        "{name:10} {n:6} messages, {:7.3} MB sent, honest CPU {:7.3} s = {:6.3} s/MB, answered {:8.3} MB; per message: {:.1} applied, {:.1} merged, {:.2} checked, {:.2} signed, {:.1} resent",
        sent as f64 / 1e6,
        spent,
        spent / (sent as f64 / 1e6),
        answered as f64 / 1e6,
        per(0),
        per(1),
        per(2),
        per(3),
        per(4),
    );
}

fn live(count: usize, entries: usize) {
    let base = long_room(entries);
    eprintln!(
        "a room of {} entries ({} turns in the current game)",
        base.host().entries().len(),
        base.host().game().map_or(0, |g| g.turns())
    );
    for name in attacks::LIVE {
        let (victim, messages) = attacks::live(name, &base, count).expect("a live attack");
        measure(name, victim, messages);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mb = args
        .iter()
        .position(|a| a == "--mb")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(6.0);
    let count = args
        .iter()
        .position(|a| a == "--count")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000);
    match args.first().map(String::as_str) {
        Some("files") => files(args.get(1).map_or("hostile", String::as_str), mb),
        Some("live") => live(
            count,
            args.iter()
                .position(|a| a == "--room")
                .and_then(|i| args.get(i + 1))
                .and_then(|v| v.parse().ok())
                .unwrap_or(1_000),
        ),
        _ => eprintln!(
            "usage: hostile live [--count N] [--room ENTRIES] | hostile files DIR [--mb MB]"
        ),
    }
}
