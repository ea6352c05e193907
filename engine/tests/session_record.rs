//! The room keeps the current game's record in algebraic notation (what « Exporter la partie »
//! downloads): replaying it gives the game both peers hold, through undos (including one taken
//! during a pending capture) and new games.

use engine::morris::{Morris, Phase};
use engine::session::{Command, Config, Effect, Invite, Proposal, Session, Step};
use engine::{record, AnyGame, Game, GameKind};

struct Pair {
    sides: [Session; 2],
    now: u64,
}

impl Pair {
    fn new(kind: GameKind) -> Pair {
        let invite = Invite::new(kind, 200, [9; 16], [1; 32], [2; 16]);
        let host = Session::host(invite.clone(), [1; 32], Config::default(), 0).unwrap();
        let guest = Session::guest(invite, [3; 32], Config::default(), 0);
        let mut p = Pair {
            sides: [host, guest],
            now: 1,
        };
        let a = p.sides[0].peer_connected(1);
        let b = p.sides[1].peer_connected(1);
        p.deliver(0, a);
        p.deliver(1, b);
        p
    }

    /// Delivers `from`'s effects to the other side, and a few rounds of answers back (heads
    /// answer heads, so the exchange is cut after a while).
    fn deliver(&mut self, from: usize, effects: Vec<Effect>) {
        let mut queue: std::collections::VecDeque<(usize, Vec<u8>)> = effects
            .into_iter()
            .filter_map(|e| match e {
                Effect::Send(m) => Some((1 - from, m)),
                _ => None,
            })
            .collect();
        let mut budget = 40;
        while let Some((to, m)) = queue.pop_front() {
            budget -= 1;
            if budget == 0 {
                break;
            }
            let out = self.sides[to].receive(&m, self.now);
            queue.extend(out.into_iter().filter_map(|e| match e {
                Effect::Send(m) => Some((1 - to, m)),
                _ => None,
            }));
        }
    }

    fn act(&mut self, side: usize, c: Command) {
        self.now += 1;
        let out = self.sides[side].act(c, self.now).expect("a legal command");
        self.deliver(side, out);
    }

    fn mover(&self) -> usize {
        (0..2)
            .find(|&i| self.sides[i].my_turn())
            .expect("someone to move")
    }

    fn game(&self) -> AnyGame {
        let g = self.sides[0].game().unwrap().clone();
        assert_eq!(Some(&g), self.sides[1].game());
        assert_eq!(self.sides[0].room().record(), self.sides[1].room().record());
        g
    }
}

fn morris(p: &Pair) -> Morris {
    match p.game() {
        AnyGame::Morris(g) => g,
        AnyGame::Meta(_) => unreachable!(),
    }
}

/// Replays the record from a fresh game with the same limit.
fn replayed(p: &Pair) -> Morris {
    let limit = morris(p).max_turns() as u32;
    record::replay(
        Morris::with_max_turns(limit).unwrap(),
        &p.sides[1].room().record(),
    )
    .expect("the record replays")
}

#[test]
fn the_record_replays_to_the_shared_game_through_undos_and_new_games() {
    let mut p = Pair::new(GameKind::Morris);
    let mut undone_during_capture = false;
    let mut seed = 7u64;
    for _ in 0..160 {
        let g = morris(&p);
        if g.is_over() {
            break;
        }
        if g.phase() == Phase::Capture && !undone_during_capture {
            // Take the half-played turn back: the record never held it.
            let before = p.sides[0].room().record();
            let mover = p.mover();
            p.act(1 - mover, Command::Propose(Proposal::Undo));
            p.act(mover, Command::Reply { accept: true });
            undone_during_capture = true;
            assert!(before.len() >= p.sides[0].room().record().len());
            assert_eq!(replayed(&p), morris(&p));
            continue;
        }
        let actions = g.legal_actions();
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let a = actions[(seed >> 33) as usize % actions.len()];
        let mover = p.mover();
        p.act(mover, Command::Play(Step::from_morris(a)));
        let now = morris(&p);
        if now.phase() != Phase::Capture {
            assert_eq!(replayed(&p), now, "record {}", p.sides[0].room().record());
        }
    }
    assert!(undone_during_capture, "the random game formed no mill");
    let turns = morris(&p).turns();
    assert_eq!(
        record::tokens(&p.sides[0].room().record()).count() as u32,
        turns
    );

    // An accepted undo of a whole turn drops exactly its token.
    if !morris(&p).is_over() {
        let record = p.sides[0].room().record();
        p.act(0, Command::Propose(Proposal::Undo));
        p.act(1, Command::Reply { accept: true });
        let shorter = p.sides[0].room().record();
        assert!(record.starts_with(&shorter) && shorter.len() < record.len());
        assert_eq!(replayed(&p), morris(&p));
    }

    // A new game starts an empty record.
    p.act(0, Command::Propose(Proposal::NewGame { max_turns: None }));
    p.act(1, Command::Reply { accept: true });
    assert_eq!(p.sides[0].room().record(), "");
}

#[test]
fn a_meta_record_names_the_cells_played() {
    let mut p = Pair::new(GameKind::Meta);
    for _ in 0..12 {
        let AnyGame::Meta(g) = p.game() else {
            unreachable!()
        };
        if g.is_over() {
            break;
        }
        let c = g.legal_actions()[g.turns() as usize % g.legal_actions().len()];
        let mover = p.mover();
        p.act(mover, Command::Play(Step::from_cell(c)));
    }
    let AnyGame::Meta(g) = p.game() else {
        unreachable!()
    };
    let replayed = record::replay(engine::meta::Meta::new(), &p.sides[0].room().record()).unwrap();
    assert_eq!(replayed, g);
    assert_eq!(record::tokens(&p.sides[0].room().record()).count(), 12);
}
