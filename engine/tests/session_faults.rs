//! Two protocol state machines playing random games of both games with random faults between
//! them — drops, duplicates, reordering, delays, bit flips, forged and replayed entries, a
//! disconnection and reload at a random point — must end, once the link heals, in the identical
//! state, with no entry in either transcript that its seat did not write.

use engine::session::wire::{encode_message, Header};
use engine::session::{Body, Command, Entry, Fault, Loopback, Message, Proposal, Seat, Step};
use engine::{AnyGame, GameKind};
use proptest::prelude::*;

/// The loopback, and what each side had written itself at its last reload (a reload must never
/// lose or change what a side already sent).
struct Net {
    net: Loopback,
    own: [Vec<Entry>; 2],
}

const SEATS: [Seat; 2] = [Seat::Host, Seat::Guest];

/// The entries of `seat` that `holder` holds.
fn held_by(net: &Loopback, holder: Seat, seat: Seat) -> Vec<Entry> {
    net.side(holder)
        .entries()
        .into_iter()
        .filter(|e| e.seat() == seat)
        .collect()
}

impl Net {
    fn record_own(&mut self) {
        for (i, seat) in SEATS.into_iter().enumerate() {
            self.own[i] = held_by(&self.net, seat, seat);
        }
    }

    /// The link heals: the channel reopens and everything is delivered, a few times over.
    fn heal(&mut self) {
        for _ in 0..4 {
            self.net.connect();
            self.net.settle();
        }
    }

    fn act(&mut self, seat: Seat, c: Command) {
        let _ = self.net.act(seat, c);
    }
}

fn step_for(g: &AnyGame, pick: u32) -> Option<Step> {
    let steps = Step::legal(g);
    (!steps.is_empty()).then(|| steps[pick as usize % steps.len()])
}

fn run(kind: GameKind, ops: &[(u8, u32)]) -> Net {
    let mut n = Net {
        net: Loopback::new(kind, 40),
        own: [Vec::new(), Vec::new()],
    };
    for &(op, arg) in ops {
        let seat = SEATS[(arg % 2) as usize];
        match op % 20 {
            // Mostly: the side that believes it is to move plays.
            0..=6 => {
                for s in SEATS {
                    let side = n.net.side(s);
                    if side.my_turn() {
                        if let Some(step) = side.game().and_then(|g| step_for(g, arg)) {
                            n.act(s, Command::Play(step));
                        }
                    } else if side.game().is_some_and(|g| g.outcome().is_some()) && arg % 3 == 0 {
                        n.act(s, Command::Propose(Proposal::NewGame { max_turns: None }));
                    }
                }
            }
            7 => {
                let p = match arg % 3 {
                    0 => Proposal::Undo,
                    1 => Proposal::Draw,
                    _ => Proposal::NewGame { max_turns: None },
                };
                n.act(seat, Command::Propose(p));
            }
            8 => n.act(
                seat,
                Command::Reply {
                    accept: arg % 3 != 0,
                },
            ),
            9 => n.act(seat, Command::Withdraw),
            10 | 11 => {
                n.net.deliver(seat);
            }
            12 => n.net.fault(seat, Fault::Drop),
            13 => n.net.fault(seat, Fault::Duplicate),
            14 => n.net.fault(seat, Fault::Reorder),
            15 => {
                n.net.fault(seat, Fault::Flip(arg as usize));
                n.net.deliver(seat);
            }
            16 => {
                // A forged entry: the other seat's next entry, signed with a stranger's key.
                let other = seat.other();
                let side = n.net.side(seat);
                let heads = side.heads();
                let header = Header {
                    room: side.invite().room,
                    seat: other,
                    seq: heads.count[other.index()],
                    time: n.net.now(),
                    prev: heads.last[other.index()],
                    seen: heads.last[seat.index()],
                };
                let key = ed25519_dalek::SigningKey::from_bytes(&[99; 32]);
                let e = Entry::sign(&key, header, Body::Resign);
                n.net
                    .deliver_bytes(seat, &encode_message(&Message::Entries(vec![e])));
            }
            17 => {
                let sent = n.net.sent();
                if !sent.is_empty() {
                    let (to, m) = sent[arg as usize % sent.len()].clone();
                    n.net.deliver_bytes(to, &m);
                }
            }
            18 => {
                // A reload: the side restarts from what it saved; in-flight messages are lost;
                // the other side sees the channel drop; then they meet again.
                n.record_own();
                n.net.restart(seat);
                n.net.connect();
            }
            19 if arg % 4 == 0 => n.net.fault(seat, Fault::Delay((arg / 4 % 5_000) as u64)),
            _ => {
                // Time passes without delivering anything (timers run, messages pile up).
                let now = n.net.now() + (arg % 70_000) as u64;
                n.net.set_now(now);
                for s in SEATS {
                    n.net.tick(s);
                }
            }
        }
    }
    n.heal();
    n
}

fn check(n: &Net) -> Result<(), TestCaseError> {
    let (h, g) = (n.net.host(), n.net.guest());
    prop_assert!(!h.forked() && !g.forked(), "no fork between honest sides");
    prop_assert_eq!(h.entries(), g.entries());
    prop_assert_eq!(h.room(), g.room());
    // Every entry of a seat is one that seat wrote: nothing forged, flipped or replayed got in.
    for (i, seat) in SEATS.into_iter().enumerate() {
        let written = held_by(&n.net, seat, seat);
        let held = held_by(&n.net, seat.other(), seat);
        prop_assert_eq!(&written, &held);
        prop_assert!(n.own[i].len() <= written.len());
        prop_assert_eq!(&written[..n.own[i].len()], &n.own[i][..]);
    }
    // The exported transcript verifies offline to the same game.
    let v = engine::session::transcript::verify(&h.export())
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(v.game(), h.game());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn morris_sides_agree_after_any_faults(ops in proptest::collection::vec((any::<u8>(), any::<u32>()), 0..400)) {
        let n = run(GameKind::Morris, &ops);
        check(&n)?;
    }

    #[test]
    fn meta_sides_agree_after_any_faults(ops in proptest::collection::vec((any::<u8>(), any::<u32>()), 0..300)) {
        let n = run(GameKind::Meta, &ops);
        check(&n)?;
    }
}

#[test]
fn faultless_random_games_reach_their_end_on_both_sides() {
    for (kind, seed) in [(GameKind::Morris, 3u32), (GameKind::Meta, 5)] {
        let ops: Vec<(u8, u32)> = (0..1500u32)
            .flat_map(|i| [(0, i.wrapping_mul(seed) ^ 0x5bd1), (10, 0), (10, 1)])
            .collect();
        let n = run(kind, &ops);
        let host = n.net.host();
        assert!(host.game().unwrap().outcome().is_some() || host.room().game_number > 0);
        check(&n).unwrap();
    }
}
