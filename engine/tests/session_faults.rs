//! Two protocol state machines playing random games of both games with random faults between
//! them — drops, duplicates, reordering, delays, bit flips, forged and replayed entries, a
//! disconnection and reload at a random point — must end, once the link heals, in the identical
//! state, with no entry in either transcript that its seat did not write.

use engine::session::wire::{encode, Header};
use engine::session::{
    Body, Command, Config, Effect, Entry, Invite, Message, Proposal, Seat, Session, Step,
};
use engine::{AnyGame, GameKind};
use proptest::prelude::*;
use std::collections::VecDeque;

struct Net {
    sides: [Session; 2],
    /// Messages in flight towards each side.
    inbox: [VecDeque<Vec<u8>>; 2],
    /// Everything ever sent, for replays.
    sent: Vec<(usize, Vec<u8>)>,
    /// What each side wrote itself.
    own: [Vec<Entry>; 2],
    now: u64,
}

impl Net {
    fn new(kind: GameKind, max_turns: u16) -> Net {
        let invite = Invite::new(kind, max_turns, [4; 16], [1; 32], [8; 16]);
        let host = Session::host(invite.clone(), [1; 32], Config::default(), 0).unwrap();
        let guest = Session::guest(invite, [2; 32], Config::default(), 0);
        let mut n = Net {
            sides: [host, guest],
            inbox: [VecDeque::new(), VecDeque::new()],
            sent: Vec::new(),
            own: [Vec::new(), Vec::new()],
            now: 0,
        };
        n.connect();
        n
    }

    fn route(&mut self, from: usize, effects: Vec<Effect>) {
        for e in effects {
            if let Effect::Send(m) = e {
                self.sent.push((1 - from, m.clone()));
                self.inbox[1 - from].push_back(m);
            }
        }
    }

    fn connect(&mut self) {
        for i in 0..2 {
            let out = self.sides[i].peer_connected(self.now);
            self.route(i, out);
        }
    }

    fn deliver(&mut self, to: usize) {
        if let Some(m) = self.inbox[to].pop_front() {
            let out = self.sides[to].receive(&m, self.now);
            self.route(to, out);
        }
    }

    fn heal(&mut self) {
        for _ in 0..4 {
            self.connect();
            for _ in 0..10_000 {
                if self.inbox[0].is_empty() && self.inbox[1].is_empty() {
                    break;
                }
                self.deliver(0);
                self.deliver(1);
            }
        }
    }

    fn act(&mut self, side: usize, c: Command) {
        if let Ok(out) = self.sides[side].act(c, self.now) {
            self.route(side, out);
        }
    }

    fn record_own(&mut self) {
        for i in 0..2 {
            let seat = if i == 0 { Seat::Host } else { Seat::Guest };
            self.own[i] = self.sides[i]
                .entries()
                .into_iter()
                .filter(|e| e.seat() == seat)
                .collect();
        }
    }
}

fn step_for(g: &AnyGame, pick: u32) -> Option<Step> {
    let steps = Step::legal(g);
    (!steps.is_empty()).then(|| steps[pick as usize % steps.len()])
}

fn run(kind: GameKind, ops: &[(u8, u32)]) -> Net {
    let mut n = Net::new(kind, 40);
    for &(op, arg) in ops {
        let side = (arg % 2) as usize;
        match op % 20 {
            // Mostly: the side that believes it is to move plays.
            0..=6 => {
                for i in 0..2 {
                    let s = &n.sides[i];
                    if s.my_turn() {
                        if let Some(step) = s.game().and_then(|g| step_for(g, arg)) {
                            n.act(i, Command::Play(step));
                        }
                    } else if s.game().is_some_and(|g| g.outcome().is_some()) && arg % 3 == 0 {
                        n.act(i, Command::Propose(Proposal::NewGame { max_turns: None }));
                    }
                }
            }
            7 => {
                let p = match arg % 3 {
                    0 => Proposal::Undo,
                    1 => Proposal::Draw,
                    _ => Proposal::NewGame { max_turns: None },
                };
                n.act(side, Command::Propose(p));
            }
            8 => n.act(
                side,
                Command::Reply {
                    accept: arg % 3 != 0,
                },
            ),
            9 => n.act(side, Command::Withdraw),
            10 | 11 => n.deliver(side),
            12 => {
                n.inbox[side].pop_front();
            }
            13 => {
                if let Some(m) = n.inbox[side].front().cloned() {
                    n.inbox[side].push_back(m);
                }
            }
            14 => {
                if let Some(m) = n.inbox[side].pop_front() {
                    n.inbox[side].push_back(m);
                }
            }
            15 => {
                if let Some(mut m) = n.inbox[side].pop_front() {
                    if !m.is_empty() {
                        let i = arg as usize % m.len();
                        m[i] ^= 1 << (arg % 8);
                    }
                    let out = n.sides[side].receive(&m, n.now);
                    n.route(side, out);
                }
            }
            16 => {
                // A forged entry: the other seat's next entry, signed with a stranger's key.
                let seat = if side == 0 { Seat::Guest } else { Seat::Host };
                let heads = n.sides[side].heads();
                let header = Header {
                    room: n.sides[side].invite().room,
                    seat,
                    seq: heads.count[seat.index()],
                    time: n.now,
                    prev: heads.last[seat.index()],
                    seen: heads.last[1 - seat.index()],
                };
                let key = ed25519_dalek::SigningKey::from_bytes(&[99; 32]);
                let e = Entry::sign(&key, header, Body::Resign);
                let out = n.sides[side].receive(&encode(&Message::Entries(vec![e])), n.now);
                n.route(side, out);
            }
            17 => {
                if !n.sent.is_empty() {
                    let (to, m) = n.sent[arg as usize % n.sent.len()].clone();
                    let out = n.sides[to].receive(&m, n.now);
                    n.route(to, out);
                }
            }
            18 => {
                // A reload: the side restarts from what it saved; in-flight messages to it are
                // lost; the other side sees the channel drop.
                n.record_own();
                let saved = n.sides[side].save();
                n.sides[side] = Session::restore(saved).expect("a saved session restores");
                n.inbox[side].clear();
                let out = n.sides[1 - side].peer_disconnected(n.now);
                n.route(1 - side, out);
                n.connect();
            }
            _ => {
                n.now += (arg % 70_000) as u64;
                for i in 0..2 {
                    let out = n.sides[i].tick(n.now);
                    n.route(i, out);
                }
            }
        }
    }
    n.heal();
    n
}

fn check(n: &Net) -> Result<(), TestCaseError> {
    let (h, g) = (&n.sides[0], &n.sides[1]);
    prop_assert!(!h.forked() && !g.forked(), "no fork between honest sides");
    prop_assert_eq!(h.entries(), g.entries());
    prop_assert_eq!(h.room(), g.room());
    // Every entry of a seat is one that seat wrote: nothing forged, flipped or replayed got in.
    for (i, seat) in [Seat::Host, Seat::Guest].into_iter().enumerate() {
        let written: Vec<Entry> = n.sides[i]
            .entries()
            .into_iter()
            .filter(|e| e.seat() == seat)
            .collect();
        let held: Vec<Entry> = n.sides[1 - i]
            .entries()
            .into_iter()
            .filter(|e| e.seat() == seat)
            .collect();
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
        assert!(
            n.sides[0].game().unwrap().outcome().is_some() || n.sides[0].room().game_number > 0
        );
        check(&n).unwrap();
    }
}
