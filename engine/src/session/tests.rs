//! The rules of the protocol, one named test each: handshake, turns, forged, replayed, reordered
//! and illegal entries, settings, consent with expiry and cooldown, rematch order, resignation
//! and draws, forks from a copied tab, presence and the seat reservation, resync, save and
//! restore, export and verification.

use super::chains::Added;
use super::invite::public_key;
use super::wire::{decode_message, encode, encode_message, Header, Heads};
use super::*;
use crate::{Game, GameKind, Player};

const HOST_SEED: [u8; 32] = [1; 32];
const GUEST_SEED: [u8; 32] = [2; 32];

/// A `Play` entry body in the first game.
pub(super) fn play(step: Step) -> Body {
    Body::Play { game: 0, step }
}

/// A legal step of the current game, chosen by `pick`.
pub(super) fn legal_step(g: &AnyGame, pick: usize) -> Step {
    let steps = Step::legal(g);
    steps[pick % steps.len()]
}

pub(super) fn play_some(p: &mut Loopback, steps: usize) {
    for i in 0..steps {
        let g = p.host().game().unwrap().clone();
        if g.outcome().is_some() {
            return;
        }
        let seat = p.mover().expect("a game in progress");
        p.exchange(seat, Command::Play(legal_step(&g, i * 7 + 3)));
    }
}

fn refused(p: &Loopback, why: Refusal) -> bool {
    p.events()
        .iter()
        .any(|(_, e)| matches!(e, Event::Refused { why: w, .. } if *w == why))
}

#[test]
fn both_sides_start_the_same_game_after_the_hellos() {
    let p = Loopback::new(GameKind::Morris, 42);
    assert!(p.in_sync());
    let g = p
        .guest()
        .game()
        .expect("the guest knows the game from the host's hello");
    assert_eq!(g.kind(), GameKind::Morris);
    assert_eq!(p.host().player(), Player::Blue);
    assert_eq!(p.guest().player(), Player::Red);
    assert!(p.host().my_turn() && !p.guest().my_turn());
    assert_eq!(p.host().presence(), Presence::Here);
    match g {
        AnyGame::Morris(m) => assert_eq!(m.max_turns(), 42),
        _ => unreachable!(),
    }
}

#[test]
fn a_whole_game_of_each_kind_stays_identical_on_both_sides() {
    for kind in [GameKind::Morris, GameKind::Meta] {
        let mut p = Loopback::new(kind, 60);
        play_some(&mut p, 500);
        assert!(p.in_sync());
        assert!(p.host().game().unwrap().outcome().is_some());
        assert!(!p
            .events()
            .iter()
            .any(|(_, e)| matches!(e, Event::Refused { .. } | Event::Void { .. })));
    }
}

#[test]
fn only_the_player_to_move_may_move() {
    let mut p = Loopback::new(GameKind::Meta, 0);
    assert_eq!(
        p.act(Seat::Guest, Command::Play(Step::Cell(40))),
        Err(CommandError::Refused(Void::NotYourTurn))
    );
    assert_eq!(
        p.act(Seat::Host, Command::Play(Step::Place(3))),
        Err(CommandError::Refused(Void::WrongGame))
    );
    p.exchange(Seat::Host, Command::Play(Step::Cell(40)));
    assert_eq!(
        p.act(Seat::Guest, Command::Play(Step::Cell(0))),
        Err(CommandError::Refused(Void::Illegal(
            crate::Illegal::WrongBoard
        )))
    );
    p.exchange(Seat::Guest, Command::Play(Step::Cell(36)));
    assert!(p.in_sync());
}

/// An entry signed by `key` as if it came from `seat`, next in that seat's chain as `holder`
/// holds it.
fn signed_next(holder: &Session, now: u64, key: [u8; 32], seat: Seat, body: Body) -> Entry {
    let c = &holder.chains;
    let header = Header {
        room: holder.invite().room,
        seat,
        seq: c.len(seat),
        time: now,
        prev: c.last_hash(seat),
        seen: c.last_hash(seat.other()),
    };
    Entry::sign(&ed25519_dalek::SigningKey::from_bytes(&key), header, body)
}

/// [`signed_next`] as the guest holds the chains.
fn forged(p: &Loopback, key: [u8; 32], seat: Seat, body: Body) -> Entry {
    signed_next(p.guest(), p.now(), key, seat, body)
}

#[test]
fn a_forged_entry_is_refused_and_changes_nothing() {
    let mut p = Loopback::new(GameKind::Meta, 0);
    let before = p.guest().room().clone();
    let e = forged(&p, [66; 32], Seat::Host, play(Step::Cell(40)));
    p.deliver_entries(Seat::Guest, vec![e]);
    assert!(refused(&p, Refusal::BadSignature));
    assert_eq!(p.guest().room(), &before);
    // Another room's entry, correctly signed, is refused too.
    let mut e = forged(&p, HOST_SEED, Seat::Host, play(Step::Cell(40)));
    e.header.room = RoomId([0; 16]);
    let e = Entry::sign(
        &ed25519_dalek::SigningKey::from_bytes(&HOST_SEED),
        e.header,
        e.body,
    );
    p.deliver_entries(Seat::Guest, vec![e]);
    assert!(refused(&p, Refusal::WrongRoom));
    assert_eq!(p.guest().room(), &before);
}

#[test]
fn replayed_and_reordered_entries_are_harmless() {
    let mut p = Loopback::new(GameKind::Meta, 0);
    let e1 = forged(&p, HOST_SEED, Seat::Host, play(Step::Cell(40)));
    let header = Header {
        seq: e1.seq() + 1,
        prev: e1.hash(),
        ..e1.header.clone()
    };
    let key = ed25519_dalek::SigningKey::from_bytes(&HOST_SEED);
    let e2 = Entry::sign(&key, header, Body::Propose(Proposal::Draw));
    p.deliver_entries(Seat::Guest, vec![e2.clone()]);
    assert_eq!(
        p.guest().game().unwrap().turns(),
        0,
        "kept aside until the gap fills"
    );
    p.deliver_entries(Seat::Guest, vec![e1.clone()]);
    assert_eq!(p.guest().game().unwrap().turns(), 1);
    assert!(
        p.guest().room().open[0].is_some(),
        "the reordered proposal followed"
    );
    let snapshot = p.guest().room().clone();
    p.deliver_entries(Seat::Guest, vec![e1, e2]);
    assert_eq!(p.guest().room(), &snapshot, "duplicates change nothing");
}

#[test]
fn an_illegal_but_signed_move_is_void_and_reported() {
    let mut p = Loopback::new(GameKind::Morris, 100);
    // The host "places" twice in a row, the second out of turn.
    let e1 = forged(&p, HOST_SEED, Seat::Host, play(Step::Place(0)));
    p.deliver_entries(Seat::Guest, vec![e1]);
    let e2 = forged(&p, HOST_SEED, Seat::Host, play(Step::Place(1)));
    p.deliver_entries(Seat::Guest, vec![e2]);
    assert_eq!(p.guest().game().unwrap().turns(), 1);
    assert!(p.events().iter().any(|(_, e)| matches!(
        e,
        Event::Void {
            seat: Seat::Host,
            why: Void::NotYourTurn,
            ..
        }
    )));
    let e3 = forged(&p, HOST_SEED, Seat::Host, play(Step::Place(99)));
    p.deliver_entries(Seat::Guest, vec![e3]);
    assert_eq!(p.guest().game().unwrap().turns(), 1);
}

#[test]
fn only_the_host_sets_options_and_only_before_the_first_move() {
    let mut p = Loopback::new(GameKind::Morris, 100);
    assert_eq!(
        p.act(Seat::Guest, Command::Settings { max_turns: 20 }),
        Err(CommandError::Refused(Void::NotHost))
    );
    assert_eq!(
        p.act(Seat::Host, Command::Settings { max_turns: 501 }),
        Err(CommandError::Refused(Void::BadRules))
    );
    p.exchange(Seat::Host, Command::Settings { max_turns: 20 });
    let limit = |s: &Session| match s.game() {
        Some(AnyGame::Morris(m)) => m.max_turns(),
        _ => 0,
    };
    assert_eq!((limit(p.host()), limit(p.guest())), (20, 20));
    play_some(&mut p, 1);
    assert_eq!(
        p.act(Seat::Host, Command::Settings { max_turns: 30 }),
        Err(CommandError::Refused(Void::TooLate))
    );
    // A forged guest settings entry is void on the host's side too.
    assert_eq!(
        p.act(
            Seat::Guest,
            Command::Propose(Proposal::NewGame { max_turns: Some(9) })
        ),
        Err(CommandError::Refused(Void::NotHost))
    );
}

#[test]
fn undo_needs_consent_and_restores_a_pending_capture_turn() {
    let mut p = Loopback::new(GameKind::Morris, 100);
    // a7 b6 d7 d6, then g7 closes a mill: the capture is pending.
    for (seat, step) in [
        (Seat::Host, Step::Place(0)),
        (Seat::Guest, Step::Place(8)),
        (Seat::Host, Step::Place(1)),
        (Seat::Guest, Step::Place(9)),
        (Seat::Host, Step::Place(2)),
    ] {
        p.exchange(seat, Command::Play(step));
    }
    let pending = p.host().game().unwrap().clone();
    assert!(matches!(&pending, AnyGame::Morris(m) if m.phase() == crate::morris::Phase::Capture));
    p.exchange(Seat::Host, Command::Propose(Proposal::Undo));
    assert!(p.guest().proposals()[1].is_some());
    p.exchange(Seat::Guest, Command::Reply { accept: false });
    assert_eq!(p.host().game(), Some(&pending), "declined: nothing changes");
    // Declined proposals cool down, doubling.
    assert_eq!(
        p.act(Seat::Host, Command::Propose(Proposal::Undo)),
        Err(CommandError::Refused(Void::CoolingDown))
    );
    p.set_now(p.now() + room::COOLDOWN_MS);
    p.exchange(Seat::Host, Command::Propose(Proposal::Undo));
    p.exchange(Seat::Guest, Command::Reply { accept: true });
    assert!(p.in_sync());
    let g = p.host().game().unwrap();
    assert_eq!(g.turns(), 4);
    assert!(
        matches!(g, AnyGame::Morris(m) if m.phase() == crate::morris::Phase::Play
        && m.piece_at(crate::morris::Point::new(2).unwrap()).is_none())
    );
    assert!(p.host().my_turn(), "the host replays its turn");
}

#[test]
fn proposals_expire_after_a_minute_and_can_be_withdrawn() {
    let mut p = Loopback::new(GameKind::Meta, 0);
    play_some(&mut p, 2);
    p.exchange(Seat::Guest, Command::Propose(Proposal::Draw));
    let deadline = p.host().proposals()[1].unwrap().1;
    assert_eq!(deadline, p.now() + 60_000);
    p.advance(59_999);
    assert!(
        p.guest().room().open[1].is_some(),
        "still open just before 60 s"
    );
    p.advance(1);
    assert!(
        p.guest().room().open[1].is_none(),
        "withdrawn by its proposer at 60 s"
    );
    assert!(p.events().iter().any(|e| matches!(
        e,
        (
            Seat::Host,
            Event::Room(RoomEvent::Withdrawn {
                seat: Seat::Guest,
                expired: true,
                proposal: Proposal::Draw,
                ..
            })
        )
    )));
    assert_eq!(
        p.act(Seat::Host, Command::Reply { accept: true }),
        Err(CommandError::NoProposal)
    );
    // Withdrawn by hand.
    p.exchange(Seat::Host, Command::Propose(Proposal::Draw));
    p.exchange(Seat::Host, Command::Withdraw);
    assert!(p.guest().room().open[0].is_none());
    assert!(p.in_sync());
}

#[test]
fn an_answer_after_our_minute_is_refused_locally() {
    let mut p = Loopback::new(GameKind::Meta, 0);
    play_some(&mut p, 1);
    p.exchange(Seat::Host, Command::Propose(Proposal::Undo));
    p.set_now(p.now() + 60_001);
    assert_eq!(
        p.act(Seat::Guest, Command::Reply { accept: true }),
        Err(CommandError::Expired)
    );
}

#[test]
fn new_games_alternate_the_first_player_and_only_accepted_ones_count() {
    let mut p = Loopback::new(GameKind::Morris, 100);
    let first = |p: &Loopback| p.host().room().seat_of(Player::Blue);
    assert_eq!(first(&p), Seat::Host);
    play_some(&mut p, 3);
    p.exchange(
        Seat::Guest,
        Command::Propose(Proposal::NewGame { max_turns: None }),
    );
    p.exchange(Seat::Host, Command::Reply { accept: false });
    assert_eq!(first(&p), Seat::Host, "a decline changes nothing");
    p.exchange(
        Seat::Host,
        Command::Propose(Proposal::NewGame {
            max_turns: Some(30),
        }),
    );
    p.exchange(Seat::Guest, Command::Reply { accept: true });
    assert!(p.in_sync());
    assert_eq!(first(&p), Seat::Guest);
    assert!(p.guest().my_turn());
    assert_eq!(p.guest().player(), Player::Blue);
    assert!(
        matches!(p.host().game(), Some(AnyGame::Morris(m)) if m.max_turns() == 30 && m.turns() == 0)
    );
    // An undo in the new game does not change the order.
    play_some(&mut p, 1);
    p.exchange(Seat::Host, Command::Propose(Proposal::Undo));
    p.exchange(Seat::Guest, Command::Reply { accept: true });
    assert_eq!(first(&p), Seat::Guest);
    p.exchange(
        Seat::Guest,
        Command::Propose(Proposal::NewGame { max_turns: None }),
    );
    p.exchange(Seat::Host, Command::Reply { accept: true });
    assert_eq!(first(&p), Seat::Host, "host, guest, host");
    assert_eq!(p.host().room().game_number, 2);
}

#[test]
fn resignation_and_agreed_draws_end_the_game() {
    let mut p = Loopback::new(GameKind::Meta, 0);
    play_some(&mut p, 3);
    p.exchange(Seat::Host, Command::Propose(Proposal::Draw));
    p.exchange(Seat::Guest, Command::Reply { accept: true });
    assert_eq!(p.guest().room().ending, Some(Ending::DrawAgreed));
    assert_eq!(p.guest().room().winner(), None);
    assert_eq!(
        p.act(Seat::Host, Command::Play(Step::Cell(0))),
        Err(CommandError::Refused(Void::GameOver))
    );
    p.exchange(
        Seat::Host,
        Command::Propose(Proposal::NewGame { max_turns: None }),
    );
    p.exchange(Seat::Guest, Command::Reply { accept: true });
    p.exchange(Seat::Host, Command::Resign);
    assert_eq!(p.guest().room().ending, Some(Ending::Resigned(Seat::Host)));
    assert_eq!(p.guest().room().winner(), Some(p.guest().player()));
    assert!(p.in_sync());
}

#[test]
fn a_stranger_cannot_take_the_guest_seat() {
    let mut p = Loopback::new(GameKind::Meta, 0);
    let refusal = |out: &[Effect], why: Refusal| {
        out.iter()
            .any(|e| matches!(e, Effect::Event(Event::Refused { why: w, .. }) if *w == why))
    };
    // A third party with the link but another key, once the guest seat is bound.
    let intruder = Session::guest(p.host().invite().clone(), [77; 32], Config::default(), 0);
    let out = p
        .side_mut(Seat::Host)
        .receive(&encode_message(&Message::Entries(intruder.entries())), 0);
    assert!(refusal(&out, Refusal::Intruder));
    // Without the room secret the proof fails, even for a free seat.
    let mut host =
        Session::host(p.host().invite().clone(), HOST_SEED, Config::default(), 0).unwrap();
    let mut wrong = p.host().invite().clone();
    wrong.secret = [0; 16];
    let impostor = Session::guest(wrong, [78; 32], Config::default(), 0);
    let out = host.receive(&encode_message(&Message::Entries(impostor.entries())), 0);
    assert!(refusal(&out, Refusal::BadProof));
    assert!(!host.room().hello[1]);
    assert!(p.in_sync());
}

/// A host `Hello` signed by `seed`, first in its chain, with this proof.
fn host_hello(room: RoomId, seed: [u8; 32], proof: [u8; 32], time: u64) -> Entry {
    let key = ed25519_dalek::SigningKey::from_bytes(&seed);
    let header = Header {
        room,
        seat: Seat::Host,
        seq: 0,
        time,
        prev: Digest32::ZERO,
        seen: Digest32::ZERO,
    };
    let body = Body::Hello {
        protocol: wire::PROTOCOL_VERSION,
        rules: Rules::new(GameKind::Meta, 0),
        key: key.verifying_key().to_bytes(),
        proof,
    };
    Entry::sign(&key, header, body)
}

#[test]
fn the_hosts_hello_proves_the_secret_and_binds_an_unknown_host_key() {
    let (room, secret) = (RoomId([9; 16]), [5; 16]);
    let proof_with = |secret: [u8; 16], seed: [u8; 32]| {
        let key = ed25519_dalek::SigningKey::from_bytes(&seed).verifying_key();
        wire::join_proof(room, &secret, &key.to_bytes())
    };
    let proof = |seed| proof_with(secret, seed);
    // A real host writes the proof.
    let invite = Invite::new(GameKind::Meta, 0, room.0, HOST_SEED, secret);
    let host = Session::host(invite, HOST_SEED, Config::default(), 0).unwrap();
    assert!(matches!(host.entries()[0].body,
        Body::Hello { proof: p, .. } if p == proof(HOST_SEED)));

    // Key unknown, secret known: a wrong proof is refused, the right one binds the key.
    let mut c = Chains::new(room, None, Some(secret));
    assert_eq!(
        c.add(host_hello(room, [70; 32], proof_with([6; 16], [70; 32]), 0)),
        Err(Refusal::BadProof)
    );
    assert_eq!(
        c.add(host_hello(room, [70; 32], [0; 32], 0)),
        Err(Refusal::BadProof)
    );
    assert_eq!(c.host_key(), None);
    assert_eq!(c.add(host.entries()[0].clone()), Ok(Added::New));
    assert_eq!(c.host_key().map(|k| k.to_bytes()), host.invite().host_key);
    // Bound: another key with a valid proof is an intruder; the same key signing a second
    // hello is a fork.
    assert_eq!(
        c.add(host_hello(room, [70; 32], proof([70; 32]), 0)),
        Err(Refusal::Intruder)
    );
    assert_eq!(
        c.add(host_hello(room, HOST_SEED, proof(HOST_SEED), 1)),
        Err(Refusal::Fork)
    );
    assert_eq!(c.forks.len(), 1);

    // Neither key nor secret: nothing can be checked, nothing is accepted.
    let mut blind = Chains::new(room, None, None);
    assert_eq!(
        blind.add(host.entries()[0].clone()),
        Err(Refusal::WrongHostKey)
    );
    // With the key known the key decides: a hello with zeros for proof is still the host's.
    let key = ed25519_dalek::SigningKey::from_bytes(&HOST_SEED).verifying_key();
    let mut known = Chains::new(room, Some(key), Some(secret));
    assert_eq!(
        known.add(host_hello(room, HOST_SEED, [0; 32], 0)),
        Ok(Added::New)
    );
}

/// A copy of the host's tab (same keys, restored from its save), connected to the guest, who
/// proved its seat to it.
fn host_copy(p: &Loopback, now: u64) -> Session {
    let mut copy = Session::restore(p.host().save()).unwrap();
    for e in copy.peer_connected(now) {
        if let Effect::Send(m) = e {
            if let Ok(Message::Challenge(c)) = decode_message(&m) {
                let bytes = wire::presence_bytes(copy.invite().room, &c, Seat::Guest);
                let sig = wire::Sig::sign(&SigningKey::from_bytes(&GUEST_SEED), &bytes);
                let proof = Message::Proof {
                    seat: Seat::Guest,
                    sig,
                };
                let _ = copy.receive(&encode_message(&proof), now);
            }
        }
    }
    assert_eq!(copy.presence(), Presence::Here);
    copy
}

/// A copy of the host's tab (same keys, restored from its save) plays a move while the host
/// plays another: the guest receives both.
pub(super) fn copied_host_tab_writes() -> Loopback {
    let mut p = Loopback::new(GameKind::Meta, 0);
    play_some(&mut p, 2);
    let mut copy = host_copy(&p, 5);
    let g = p.host().game().unwrap().clone();
    let out = copy.act(Command::Play(legal_step(&g, 0)), 5).unwrap();
    p.exchange(Seat::Host, Command::Play(legal_step(&g, 1)));
    for e in out {
        if let Effect::Send(m) = e {
            let r = p.side_mut(Seat::Guest).receive(&m, 6);
            p.route(Seat::Guest, r);
        }
    }
    p
}

#[test]
fn a_copied_tab_writing_for_the_same_seat_is_reported_as_a_fork() {
    // Once suspended the guest's room for good (only leaving, a loss, remained): the fork now
    // counts against the seat that forked. The guest writes the proof, which ends the game.
    let mut p = copied_host_tab_writes();
    assert!(p.events().contains(&(Seat::Guest, Event::Fork(Seat::Host))));
    assert!(p.guest().forked() && !p.guest().suspended());
    assert_eq!(p.guest().fork_proofs().len(), 1);
    let room = p.guest().room();
    assert_eq!(room.ending, Some(Ending::Forked(Seat::Host)));
    assert_eq!(room.winner(), Some(p.guest().player()));
    assert!(room.forked[Seat::Host.index()] && !room.in_progress());
    // The proof is an entry of the transcript: the export carries it, verify names the forker.
    let v = transcript::verify(&p.guest().export()).unwrap();
    assert_eq!(v.forks.len(), 1);
    assert_eq!(v.forks[0].seat, Seat::Host);
    assert!(
        v.verdict()
            .contains("the host (Blue) signed two entries numbered"),
        "{}",
        v.verdict()
    );
    // The real host tab receives the proof: its own key signed two histories, it is
    // suspended, and both hold the same room.
    p.settle();
    assert!(p.host().suspended());
    assert_eq!(p.host().room(), p.guest().room());
}

#[test]
fn an_absent_peer_keeps_its_seat_five_minutes_then_the_game_may_be_claimed() {
    let mut p = Loopback::new(GameKind::Meta, 0);
    play_some(&mut p, 2);
    // The guest's process freezes: nothing more arrives from it.
    p.freeze(Seat::Guest);
    p.advance(5_999);
    assert_eq!(p.host().presence(), Presence::Here);
    p.advance(1);
    assert_eq!(p.host().presence(), Presence::Away { since: 0 });
    assert_eq!(p.host().reserved_until(), Some(300_000));
    p.set_now(299_999);
    assert_eq!(
        p.act(Seat::Host, Command::ClaimWin),
        Err(CommandError::TooEarly)
    );
    p.set_now(300_000);
    p.act(Seat::Host, Command::ClaimWin).unwrap();
    assert_eq!(p.host().room().ending, Some(Ending::Claimed(Seat::Host)));
    // The guest comes back: it learns the claim by resync.
    p.thaw(Seat::Guest);
    p.connect();
    p.settle();
    assert!(p.in_sync());
    assert_eq!(p.guest().room().winner(), Some(p.host().player()));
}

#[test]
fn a_frozen_peer_that_thaws_on_the_same_connection_is_present_again() {
    let mut p = Loopback::new(GameKind::Meta, 0);
    play_some(&mut p, 2);
    p.freeze(Seat::Guest);
    p.advance(20_000);
    assert!(matches!(p.host().presence(), Presence::Away { .. }));
    // Its tab runs again (a throttled tab, a laptop waking): its next heartbeat is enough, the
    // connection proved the seat already.
    p.thaw(Seat::Guest);
    p.tick(Seat::Guest); // its overdue timer fires at once
    p.advance(2_500);
    assert_eq!(p.host().presence(), Presence::Here);
    assert_eq!(p.guest().presence(), Presence::Here);
    let turns = p.host().game().unwrap().turns();
    play_some(&mut p, 1);
    assert!(p.in_sync());
    assert_eq!(p.guest().game().unwrap().turns(), turns + 1);
}

#[test]
fn a_disconnection_then_reload_resynchronises_to_the_uninterrupted_game() {
    let mut p = Loopback::new(GameKind::Morris, 100);
    play_some(&mut p, 6);
    while p.mover().expect("a game in progress") != Seat::Host {
        play_some(&mut p, 1);
    }
    // The host plays just as the guest's tab reloads: the message is lost.
    let g = p.host().game().unwrap().clone();
    p.act(Seat::Host, Command::Play(legal_step(&g, 4))).unwrap();
    p.restart(Seat::Guest);
    assert_eq!(
        p.act(Seat::Host, Command::Propose(Proposal::Draw)),
        Err(CommandError::PeerAway),
        "the game is suspended while the other is away"
    );
    assert!(!p.host().my_turn() && !p.guest().my_turn());
    assert_ne!(p.guest().room(), p.host().room());
    p.connect();
    p.settle();
    assert!(p.in_sync());
    play_some(&mut p, 400);
    assert!(p.in_sync());
}

#[test]
fn arbitrary_bytes_never_panic_the_decoder() {
    let mut seed = 0x1234_5678_9abc_def0u64;
    let mut p = Loopback::new(GameKind::Meta, 0);
    let valid = encode_message(&Message::Entries(p.host().entries()));
    for round in 0..3000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let bytes: Vec<u8> = if round % 2 == 0 {
            (0..(seed % 300) as usize)
                .map(|i| (seed >> (i % 56)) as u8)
                .collect()
        } else {
            let mut b = valid.clone();
            let i = (seed as usize) % b.len();
            b[i] ^= 1 << (seed % 8);
            b
        };
        let _ = decode_message(&bytes);
        let out = p.side_mut(Seat::Guest).receive(&bytes, 0);
        p.route(Seat::Guest, out);
    }
    assert!(decode_message(&vec![0u8; wire::MAX_MESSAGE + 1]) == Err(DecodeError::TooLarge));
    p.clear(Seat::Host);
    play_some(&mut p, 3);
    assert!(p.in_sync());
}

#[test]
fn a_message_is_read_only_with_its_padding_of_512_bytes_per_entry() {
    let mut p = Loopback::new(GameKind::Morris, 100);
    play_some(&mut p, 40);
    let entries = p.host().entries();
    assert!(entries.len() > wire::MAX_BATCH);
    let unit = wire::PAD_UNIT;
    for n in [0, 1, 2, 7, wire::MAX_BATCH] {
        let m = Message::Entries(entries[..n].to_vec());
        let padded = encode_message(&m);
        assert_eq!(padded.len(), unit * n.max(1), "{n} entries");
        assert_eq!(decode_message(&padded), Ok(m.clone()));
        // The bare encoding (what a page from before the padding sends), a byte short, a byte
        // more, a padding byte other than zero: refused, before any signature is looked at.
        let bare = encode(&m);
        assert!(bare.len() < padded.len());
        assert_eq!(decode_message(&bare), Err(DecodeError::Unpadded));
        assert_eq!(
            decode_message(&padded[..padded.len() - 1]),
            Err(DecodeError::Unpadded)
        );
        if padded.len() < wire::MAX_MESSAGE {
            let mut longer = padded.clone();
            longer.push(0);
            assert_eq!(decode_message(&longer), Err(DecodeError::Unpadded));
        }
        let mut dirty = padded.clone();
        *dirty.last_mut().unwrap() = 1;
        assert_eq!(decode_message(&dirty), Err(DecodeError::Unpadded));
    }
    // A full batch fills the largest message exactly; one entry more is refused as such.
    assert_eq!(wire::MAX_BATCH * unit, wire::MAX_MESSAGE);
    let over = encode(&Message::Entries(entries[..wire::MAX_BATCH + 1].to_vec()));
    assert_eq!(decode_message(&over), Err(DecodeError::TooManyEntries));
    // Every other message is one unit, whatever it holds.
    for m in [
        Message::Challenge([7; 16]),
        Message::Heads(p.host().heads()),
        Message::KnockRefused { expired: true },
    ] {
        let padded = encode_message(&m);
        assert_eq!(padded.len(), unit);
        assert_eq!(decode_message(&padded), Ok(m.clone()));
        assert_eq!(decode_message(&encode(&m)), Err(DecodeError::Unpadded));
    }
    // What a session sends is padded, and its peer reads it: the room plays on.
    play_some(&mut p, 3);
    assert!(p.in_sync());
}

#[test]
fn an_exported_transcript_verifies_and_every_byte_corruption_is_caught() {
    let mut p = Loopback::new(GameKind::Morris, 100);
    play_some(&mut p, 12);
    p.exchange(Seat::Guest, Command::Propose(Proposal::Draw));
    let text = p.guest().export();
    let v = transcript::verify(&text).unwrap();
    assert_eq!(v.game(), p.host().game());
    assert_eq!(v.room, *p.host().room());
    let bytes = text.as_bytes();
    let mut checked = 0;
    for i in 0..bytes.len() {
        for flip in [0x01u8, 0x20] {
            let mut b = bytes.to_vec();
            b[i] ^= flip;
            let Ok(s) = std::str::from_utf8(&b) else {
                continue;
            };
            assert!(
                transcript::verify(s).is_err(),
                "byte {i} ^ {flip:#x} accepted"
            );
            checked += 1;
        }
    }
    assert!(checked > bytes.len());
}

#[test]
fn invitations_round_trip_and_malformed_ones_are_refused() {
    let inv = Invite::new(GameKind::Morris, 250, [3; 16], HOST_SEED, [4; 16]);
    let text = inv.to_fragment();
    assert_eq!(Invite::from_fragment(&format!("#{text}")), Ok(inv.clone()));
    for bad in [
        "",
        "g=chess&t=1&r=00&k=00&s=00",
        &text.replace("t=250", "t=501"),
        &text.replace("g=morris", "g=morris&g=meta"),
        &text[..text.len() - 1],
        &text.to_uppercase(),
        &format!("{text}&l=2"),
        &format!("{text}&l=1&l=1"),
    ] {
        assert!(Invite::from_fragment(bad).is_err(), "{bad}");
    }
    // The options a link announces: read back, and what they must be.
    let mut announced = inv.clone();
    announced.preview = Some(Preview {
        rules: crate::morris::Rules::TWELVE,
        lot: true,
    });
    let text = announced.to_fragment();
    assert!(text.ends_with("&v=twelve&l=1"), "{text}");
    assert_eq!(Invite::from_fragment(&text), Ok(announced));
    let custom = format!("{}&v=lasker,flying=0", inv.to_fragment());
    let read = Invite::from_fragment(&custom).unwrap().preview.unwrap();
    assert_eq!(read.rules, "lasker,flying=0".parse().unwrap());
    assert!(!read.lot);
    for bad in [
        format!("{}&v=pieces=13", inv.to_fragment()),
        format!("{}&v=chess", inv.to_fragment()),
        format!("{}&v={}", inv.to_fragment(), "x".repeat(5000)),
        format!(
            "{}&v=lasker",
            Invite::new(GameKind::Meta, 0, [3; 16], HOST_SEED, [4; 16]).to_fragment()
        ),
    ] {
        assert_eq!(
            Invite::from_fragment(&bad),
            Err(InviteError::BadRules),
            "{bad:.80}"
        );
    }
}

#[test]
fn new_codes_are_sixty_random_bits_in_crockford_base32() {
    assert_eq!(Invite::new_code([0; 8]), "000000000000");
    assert_eq!(Invite::new_code([0xff; 8]), "ZZZZZZZZZZZZ");
    // Big-endian, 5 bits a character: 0x0123456789abcde = 00000 10010 00110 10001 …
    let bytes = [0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef];
    assert_eq!(Invite::new_code(bytes), "04HMASW9NF6Y");
    assert_eq!(
        Invite::new_code([0xa5, 0x5a, 0xff, 0x00, 0x12, 0xc3, 0xe9, 0x1f]),
        "MNDFY00JRFMH"
    );
    // The last 4 bits are not used; every other bit changes the code.
    let mut low = bytes;
    low[7] ^= 0x0f;
    assert_eq!(Invite::new_code(low), Invite::new_code(bytes));
    for bit in 4..64 {
        let mut b = u64::from_be_bytes(bytes);
        b ^= 1 << bit;
        assert_ne!(
            Invite::new_code(b.to_be_bytes()),
            "04HMASW9NF6Y",
            "bit {bit}"
        );
    }
    let code = Invite::new_code(bytes);
    assert_eq!(Invite::normalize_code(&code), Ok(code.clone()));
    assert_eq!(Invite::format_code(&code), "04HM-ASW9-NF6Y");
}

#[test]
fn typed_codes_are_normalised_and_anything_else_is_refused() {
    let ok = |text: &str| Invite::normalize_code(text);
    let canonical = Ok("K7M2Q9XD4HPA".to_string());
    for text in [
        "K7M2Q9XD4HPA",
        "K7M2-Q9XD-4HPA",
        "k7m2-q9xd-4hpa",
        " k7m2 q9xd\t4hpa\n",
        "-K-7M2Q9X-D4HPA-",
        "K7M2\u{2013}Q9XD\u{2011}4HPA",
    ] {
        assert_eq!(ok(text), canonical, "{text:?}");
    }
    // Crockford's reading of the letters that look like digits.
    assert_eq!(ok("oOiI-lL01-abcd"), Ok("00111101ABCD".to_string()));
    assert_eq!(Invite::format_code("k7m2 q9xd 4hpa"), "K7M2-Q9XD-4HPA");
    assert_eq!(Invite::format_code("hello"), "hello");
    for bad in [
        "",
        "K7M2-Q9XD-4HP",
        "K7M2-Q9XD-4HPAX",
        "K7M2-Q9XD-4HPA-0",
        "K7M2-Q9XD-4HPU",
        "K7M2-Q9XD-4HP!",
        "K7M2-Q9XD-4HP\u{e9}",
        "K7M2_Q9XD_4HPA",
        "K7M2.Q9XD.4HPA",
        "\u{ff2b}7M2-Q9XD-4HPA",
    ] {
        assert_eq!(ok(bad), Err(InviteError::BadCode), "{bad:?}");
    }
    assert!(InviteError::BadCode.to_string().contains("12"));
}

const CODE: &str = "K7M2Q9XD4HPA";

fn refused_in(out: &[Effect], why: Refusal) -> bool {
    out.iter()
        .any(|e| matches!(e, Effect::Event(Event::Refused { why: w, .. }) if *w == why))
}

fn deliver(to: &mut Session, from: &Session, now: u64) -> Vec<Effect> {
    to.receive(&encode_message(&Message::Entries(from.entries())), now)
}

#[test]
fn a_code_and_its_hosts_link_name_one_room() {
    let host = Invite::with_code(GameKind::Morris, 42, "k7m2-q9xd-4hpa", HOST_SEED).unwrap();
    // SHA-256("moulin code room v2\0" ‖ "morris\0" ‖ code) and ("moulin code secret v1\0" ‖
    // code), cut to 16 bytes, computed independently.
    assert_eq!(host.room_name(), "7caffa89cf0917debff3314eb1c4337c");
    // The same code in the other game's lobby names another room (nobody is in it).
    let other = Invite::from_code(GameKind::Meta, CODE).unwrap();
    assert_eq!(other.room_name(), "2fe74376b42495c19e8ed94e583b6d73");
    assert_eq!(other.secret, host.secret);
    // A host seat saved before codes knew their game (its room from « moulin code room v1\0 »)
    // still restores.
    let mut old = host.clone();
    old.room = RoomId(wire::unhex_array("4d5b240106c3ba11830b3b53ef6e609a").unwrap());
    let saved = Session::host(old.clone(), HOST_SEED, Config::default(), 0)
        .unwrap()
        .save();
    assert!(Session::restore(saved).is_ok());
    old.room = RoomId([9; 16]);
    let saved = Session::host(old, HOST_SEED, Config::default(), 0)
        .unwrap()
        .save();
    assert_eq!(
        Session::restore(saved).err(),
        Some(RestoreError::KeysMismatch)
    );
    assert_eq!(wire::hex(&host.secret), "76efba659f0d4e2938318730955c3321");
    assert_eq!(host.code(), Some(CODE));
    assert_eq!(
        Invite::new(GameKind::Meta, 0, [1; 16], HOST_SEED, [2; 16]).code(),
        None
    );
    assert_eq!(host.host_key, Some(public_key(HOST_SEED)));
    assert_eq!(host.rules, Rules::new(GameKind::Morris, 42));

    let guest = Invite::from_code(GameKind::Morris, "K7M2 Q9XD 4HPA").unwrap();
    assert_eq!((guest.room, guest.secret), (host.room, host.secret));
    assert_eq!(guest.host_key, None);
    assert_eq!(guest.code(), Some(CODE));
    assert_eq!(guest.rules, Rules::new(GameKind::Morris, 100));
    assert_eq!(
        Session::host(guest.clone(), HOST_SEED, Config::default(), 0).err(),
        Some(InviteError::NotOurs)
    );

    // The host's full link: the same room, secret, key and rules (no code in it).
    let link = Invite::from_fragment(&host.to_fragment()).unwrap();
    assert_eq!(
        link,
        Invite {
            code: None,
            ..host.clone()
        }
    );
    // The guest's invitation is written in the code form and read back.
    assert_eq!(guest.to_fragment(), format!("g=morris&c={CODE}"));
    assert_eq!(
        Invite::from_fragment(&guest.to_fragment()),
        Ok(guest.clone())
    );
    assert_eq!(
        Invite::from_fragment("#g=morris&c=k7m2-q9xd-4hpa"),
        Ok(guest.clone())
    );
    assert_eq!(
        Invite::from_fragment("g=meta&c=K7M2Q9XD4HPA").map(|i| i.rules.kind()),
        Ok(GameKind::Meta)
    );
    let other = Invite::with_code(GameKind::Morris, 42, "K7M2Q9XD4HPB", HOST_SEED).unwrap();
    assert!(other.room != host.room && other.secret != host.secret);

    for (bad, why) in [
        ("g=morris&c=K7M2", InviteError::BadCode),
        ("g=morris&c=K7M2Q9XD4HPU", InviteError::BadCode),
        ("g=morris&c=", InviteError::BadCode),
        ("c=K7M2Q9XD4HPA", InviteError::Malformed),
        ("g=chess&c=K7M2Q9XD4HPA", InviteError::Malformed),
        ("g=morris&t=42&c=K7M2Q9XD4HPA", InviteError::Malformed),
        (
            "g=morris&c=K7M2Q9XD4HPA&c=K7M2Q9XD4HPA",
            InviteError::Malformed,
        ),
        (
            &format!("{}&c={CODE}", host.to_fragment()),
            InviteError::Malformed,
        ),
    ] {
        assert_eq!(Invite::from_fragment(bad), Err(why), "{bad}");
    }
    assert_eq!(
        Invite::with_code(GameKind::Meta, 0, "K7M2-Q9XD", HOST_SEED),
        Err(InviteError::BadCode)
    );
    assert_eq!(
        Invite::from_code(GameKind::Meta, "K7M2-Q9XD-4HPA-U"),
        Err(InviteError::BadCode)
    );
    // Built by hand with neither key nor code: the fragment is refused, not misread.
    let blank = Invite {
        code: None,
        ..guest
    };
    assert_eq!(
        Invite::from_fragment(&blank.to_fragment()),
        Err(InviteError::BadCode)
    );
}

#[test]
fn a_whole_game_by_code_and_the_guest_learns_the_hosts_key() {
    for kind in [GameKind::Morris, GameKind::Meta] {
        let host = Invite::with_code(kind, 60, CODE, HOST_SEED).unwrap();
        let mut p = Loopback::with_invites(host.clone(), Invite::from_code(kind, CODE).unwrap());
        assert!(p.in_sync());
        assert_eq!(p.guest().invite().host_key, Some(public_key(HOST_SEED)));
        assert_eq!(p.guest().room().rules, Some(host.rules), "the host's rules");
        assert!(p.host().room().hello == [true, true]);
        play_some(&mut p, 500);
        assert!(p.in_sync());
        assert!(p.host().game().unwrap().outcome().is_some());
        assert!(!p
            .events()
            .iter()
            .any(|(_, e)| matches!(e, Event::Refused { .. } | Event::Void { .. })));

        // The learned key is saved, so a reload keeps checking the host's entries with it.
        let saved = p.guest().save();
        assert_eq!(saved.invite.host_key, host.host_key);
        let restored = Session::restore(saved).unwrap();
        assert_eq!(restored.invite(), p.guest().invite());
        assert_eq!(restored.room(), p.guest().room());
        assert_eq!(restored.entries(), p.guest().entries());
        // A save that lost the key (written before it was learned) learns it from its entries.
        let mut keyless = p.guest().save();
        keyless.invite.host_key = None;
        let restored = Session::restore(keyless).unwrap();
        assert_eq!(restored.invite().host_key, host.host_key);

        // Both sides export the same transcript, and it verifies.
        let text = p.guest().export();
        assert_eq!(text, p.host().export());
        let v = transcript::verify(&text).unwrap();
        assert_eq!(&v.room, p.host().room());
    }
    // A guest with the host's full link joins the same code room, with the key checked.
    let host = Invite::with_code(GameKind::Meta, 0, CODE, HOST_SEED).unwrap();
    let link = Invite::from_fragment(&host.to_fragment()).unwrap();
    let mut p = Loopback::with_invites(host, link);
    play_some(&mut p, 4);
    assert!(p.in_sync());
    assert_eq!(p.host().game().unwrap().turns(), 4);
}

#[test]
fn a_guest_by_code_reloads_before_the_host_arrives() {
    let guest_invite = Invite::from_code(GameKind::Meta, CODE).unwrap();
    let early = Session::guest(guest_invite.clone(), GUEST_SEED, Config::default(), 0);
    assert_eq!(early.invite().host_key, None);
    // Exported now, the header has no host key: verify says so.
    let err = transcript::verify(&early.export()).unwrap_err();
    assert!(err.message.contains("host's key is unknown"), "{err}");
    let saved = early.save();
    // A saved invitation whose code is not its room's, or a host without its key, is refused.
    let mut wrong = saved.clone();
    wrong.invite.code = Some("K7M2Q9XD4HPB".into());
    assert!(Session::restore(wrong).is_err());
    let mut keyless_host = saved.clone();
    keyless_host.seat = Seat::Host;
    assert!(Session::restore(keyless_host).is_err());

    // The reloaded guest meets the host and learns its key then.
    let host = Invite::with_code(GameKind::Meta, 0, CODE, HOST_SEED).unwrap();
    let mut p = Loopback::with_invites(host, guest_invite);
    *p.side_mut(Seat::Guest) = Session::restore(saved).unwrap();
    assert_eq!(p.guest().invite().host_key, None);
    assert_eq!(p.guest().game(), None);
    p.connect();
    p.settle();
    assert!(p.in_sync());
    assert_eq!(p.guest().invite().host_key, Some(public_key(HOST_SEED)));
    play_some(&mut p, 3);
    assert!(p.in_sync());
    assert!(transcript::verify(&p.guest().export()).is_ok());
}

#[test]
fn without_the_code_a_stranger_takes_neither_seat_of_a_code_room() {
    let host_invite = Invite::with_code(GameKind::Meta, 0, CODE, HOST_SEED).unwrap();
    let guest_invite = Invite::from_code(GameKind::Meta, CODE).unwrap();
    // The stranger knows the room id (it is the relay's room name), not the code: it guesses
    // the secret.
    let guessed = |seed: [u8; 32]| Invite {
        rules: host_invite.rules,
        room: host_invite.room,
        host_key: Some(public_key(seed)),
        secret: [0; 16],
        code: None,
        preview: None,
    };
    let fake_host = Session::host(guessed([77; 32]), [77; 32], Config::default(), 0).unwrap();
    let mut guest = Session::guest(guest_invite, GUEST_SEED, Config::default(), 0);
    let out = deliver(&mut guest, &fake_host, 0);
    assert!(refused_in(&out, Refusal::BadProof));
    assert_eq!(guest.invite().host_key, None);
    assert!(!guest.room().hello[0] && guest.game().is_none());

    let fake_guest = Session::guest(guessed([78; 32]), [78; 32], Config::default(), 0);
    let mut host = Session::host(host_invite.clone(), HOST_SEED, Config::default(), 0).unwrap();
    let out = deliver(&mut host, &fake_guest, 0);
    assert!(refused_in(&out, Refusal::BadProof));
    assert!(!host.room().hello[1]);

    // Both still meet the real other side.
    let out = deliver(&mut guest, &host, 1);
    assert!(!out
        .iter()
        .any(|e| matches!(e, Effect::Event(Event::Refused { .. }))));
    assert_eq!(guest.invite().host_key, Some(public_key(HOST_SEED)));
    let out = deliver(&mut host, &guest, 1);
    assert!(!out
        .iter()
        .any(|e| matches!(e, Effect::Event(Event::Refused { .. }))));
    assert!(host.room().hello[1]);
}

#[test]
fn once_the_host_seat_is_bound_another_hello_is_an_intruder_or_a_fork() {
    let host_invite = Invite::with_code(GameKind::Meta, 0, CODE, HOST_SEED).unwrap();
    let mut p = Loopback::with_invites(
        host_invite.clone(),
        Invite::from_code(GameKind::Meta, CODE).unwrap(),
    );
    play_some(&mut p, 2);
    // Someone who knows the code (overheard, or brute-forced from the room id) comes too late:
    // its proof is right, but the seat is bound to the first host's key.
    let late = Invite::with_code(GameKind::Meta, 0, CODE, [77; 32]).unwrap();
    let late = Session::host(late, [77; 32], Config::default(), 0).unwrap();
    let now = p.now();
    let out = deliver(p.side_mut(Seat::Guest), &late, now);
    assert!(refused_in(&out, Refusal::Intruder));
    assert_eq!(p.guest().invite().host_key, Some(public_key(HOST_SEED)));
    assert!(!p.guest().forked());
    // The first prover wins: a fresh guest that hears the impostor first binds it, and the
    // real host is then the intruder. The code is only as strong as its secrecy.
    let mut tofu = Session::guest(
        Invite::from_code(GameKind::Meta, CODE).unwrap(),
        GUEST_SEED,
        Config::default(),
        0,
    );
    deliver(&mut tofu, &late, 0);
    assert_eq!(tofu.invite().host_key, Some(public_key([77; 32])));
    assert!(refused_in(
        &deliver(&mut tofu, p.host(), 0),
        Refusal::Intruder
    ));
    // The real host's key writing a second, different hello (a copied tab): a fork.
    let copy = Session::host(host_invite, HOST_SEED, Config::default(), 5).unwrap();
    let now = p.now();
    let out = deliver(p.side_mut(Seat::Guest), &copy, now);
    assert!(refused_in(&out, Refusal::Fork));
    assert!(p.guest().forked() && !p.guest().suspended());
    assert_eq!(p.guest().room().ending, Some(Ending::Forked(Seat::Host)));
}

/// Security review (2nd pass): each test below demonstrates one finding; a failing test is a
/// confirmed flaw. Names start with `review_`.
/// The room keeps the current game's record in algebraic notation (what « Exporter la partie »
/// downloads): replaying it gives the game both peers hold, through undos (including one taken
/// during a pending capture) and new games.
mod record {
    use super::*;
    use crate::morris::{Morris, Phase};

    fn run(p: &mut Loopback, seat: Seat, c: Command) {
        p.set_now(p.now() + 1);
        p.exchange(seat, c);
        assert!(p.in_sync());
    }

    fn morris(p: &Loopback) -> Morris {
        match p.host().game() {
            Some(AnyGame::Morris(g)) => g.clone(),
            _ => unreachable!(),
        }
    }

    /// Replays the record from a fresh game with the same limit.
    fn replayed(p: &Loopback) -> Morris {
        let limit = morris(p).max_turns() as u32;
        crate::record::replay(
            Morris::with_max_turns(limit).unwrap(),
            &p.guest().room().record(),
        )
        .expect("the record replays")
    }

    #[test]
    fn the_record_replays_to_the_shared_game_through_undos_and_new_games() {
        let mut p = Loopback::new(GameKind::Morris, 200);
        let mut undone_during_capture = false;
        let mut seed = 7u64;
        for _ in 0..160 {
            let g = morris(&p);
            if g.is_over() {
                break;
            }
            if g.phase() == Phase::Capture && !undone_during_capture {
                // Take the half-played turn back: the record never held it.
                let before = p.host().room().record();
                let mover = p.mover().expect("a game in progress");
                run(&mut p, mover.other(), Command::Propose(Proposal::Undo));
                run(&mut p, mover, Command::Reply { accept: true });
                undone_during_capture = true;
                assert!(before.len() >= p.host().room().record().len());
                assert_eq!(replayed(&p), morris(&p));
                continue;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mover = p.mover().expect("a game in progress");
            let step = legal_step(&AnyGame::Morris(g), (seed >> 33) as usize);
            run(&mut p, mover, Command::Play(step));
            let now = morris(&p);
            if now.phase() != Phase::Capture {
                assert_eq!(replayed(&p), now, "record {}", p.host().room().record());
            }
        }
        assert!(undone_during_capture, "the random game formed no mill");
        let turns = morris(&p).turns();
        assert_eq!(
            crate::record::tokens(&p.host().room().record()).count() as u32,
            turns
        );

        // An accepted undo of a whole turn drops exactly its token.
        if !morris(&p).is_over() {
            let record = p.host().room().record();
            run(&mut p, Seat::Host, Command::Propose(Proposal::Undo));
            run(&mut p, Seat::Guest, Command::Reply { accept: true });
            let shorter = p.host().room().record();
            assert!(record.starts_with(&shorter) && shorter.len() < record.len());
            assert_eq!(replayed(&p), morris(&p));
        }

        // A new game starts an empty record.
        run(
            &mut p,
            Seat::Host,
            Command::Propose(Proposal::NewGame { max_turns: None }),
        );
        run(&mut p, Seat::Guest, Command::Reply { accept: true });
        assert_eq!(p.host().room().record(), "");
    }

    #[test]
    fn a_meta_record_names_the_cells_played() {
        let mut p = Loopback::new(GameKind::Meta, 0);
        for _ in 0..12 {
            let g = p.host().game().unwrap().clone();
            if g.outcome().is_some() {
                break;
            }
            let mover = p.mover().expect("a game in progress");
            run(
                &mut p,
                mover,
                Command::Play(legal_step(&g, g.turns() as usize)),
            );
        }
        let Some(AnyGame::Meta(g)) = p.host().game() else {
            unreachable!()
        };
        let replayed =
            crate::record::replay(crate::meta::Meta::new(), &p.host().room().record()).unwrap();
        assert_eq!(&replayed, g);
        assert_eq!(crate::record::tokens(&p.host().room().record()).count(), 12);
    }
}

mod review {
    use super::*;

    /// [`signed_next`] as the host holds the chains.
    fn signed_for_host(p: &Loopback, key: [u8; 32], seat: Seat, body: Body) -> Entry {
        signed_next(p.host(), p.now(), key, seat, body)
    }

    fn voids(out: &[Effect]) -> usize {
        out.iter()
            .filter(|e| matches!(e, Effect::Event(Event::Void { .. })))
            .count()
    }

    /// A void entry is reported once (`Session::absorb` remembers it in `reported`), not again
    /// with every later `Entries` message, as the whole transcript's void entries once were.
    #[test]
    fn review_a_void_entry_is_reported_once_not_on_every_later_message() {
        let mut p = Loopback::new(GameKind::Morris, 100);
        let e1 = forged(&p, HOST_SEED, Seat::Host, play(Step::Place(0)));
        p.deliver_entries(Seat::Guest, vec![e1]);
        let e2 = forged(&p, HOST_SEED, Seat::Host, play(Step::Place(1)));
        let out = p
            .side_mut(Seat::Guest)
            .receive(&encode_message(&Message::Entries(vec![e2])), 0);
        assert_eq!(voids(&out), 1, "the out-of-turn move is reported");
        // A perfectly valid later entry of the host.
        let e3 = forged(&p, HOST_SEED, Seat::Host, Body::Propose(Proposal::Draw));
        let out = p
            .side_mut(Seat::Guest)
            .receive(&encode_message(&Message::Entries(vec![e3])), 0);
        assert!(p.guest().room().open[0].is_some());
        assert_eq!(voids(&out), 0, "the old void entry is reported again");
    }

    /// After a reload the other side's open proposal can still be answered: `Session::restore`
    /// leaves `their_proposal_seen` unstamped, so its minute starts when we are live again — not
    /// at time 0, which a real clock would always find expired.
    #[test]
    fn review_a_reloaded_tab_can_still_answer_the_open_proposal() {
        let mut p = Loopback::new(GameKind::Meta, 0);
        p.set_now(1_700_000_000_000);
        play_some(&mut p, 1);
        p.exchange(Seat::Guest, Command::Propose(Proposal::Draw));
        p.restart(Seat::Host);
        p.connect();
        p.settle();
        p.set_now(p.now() + 1_000);
        assert_eq!(p.act(Seat::Host, Command::Reply { accept: true }), Ok(()));
    }

    /// chains.rs add(): every conflicting signed entry is pushed to `forks`, even the same one
    /// again. A relay replaying one fork message grows memory without bound.
    #[test]
    fn review_replaying_a_fork_proof_does_not_grow_memory() {
        let mut p = Loopback::new(GameKind::Meta, 0);
        play_some(&mut p, 2);
        let mut copy = host_copy(&p, 5);
        let g = p.host().game().unwrap().clone();
        let out = copy.act(Command::Play(legal_step(&g, 0)), 5).unwrap();
        p.exchange(Seat::Host, Command::Play(legal_step(&g, 1)));
        let m = out
            .into_iter()
            .find_map(|e| match e {
                Effect::Send(m) => Some(m),
                _ => None,
            })
            .unwrap();
        for _ in 0..1000 {
            let _ = p.side_mut(Seat::Guest).receive(&m, 6);
        }
        assert!(p.guest().forked());
        assert!(
            p.guest().fork_proofs().len() <= 2,
            "{} copies of one fork proof held",
            p.guest().fork_proofs().len()
        );
    }

    /// mod.rs receive()/answer_heads(): once the chains fork and an entry after the fork sits in
    /// `pending`, every `Entries` makes us send heads, and the peer answers with the same entries:
    /// an endless message loop between two honest peers, each turn adding a fork proof.
    #[test]
    fn review_a_fork_followed_by_more_entries_does_not_loop_forever() {
        let mut p = Loopback::new(GameKind::Meta, 0);
        play_some(&mut p, 2);
        assert_eq!(p.mover().expect("a game in progress"), Seat::Host);
        // A copy of the host's tab (restored from its storage) plays first, and the guest hears
        // it first.
        let mut copy = host_copy(&p, p.now());
        let g = p.host().game().unwrap().clone();
        for e in copy.act(Command::Play(legal_step(&g, 0)), p.now()).unwrap() {
            if let Effect::Send(m) = e {
                let out = {
                    let now = p.now();
                    p.side_mut(Seat::Guest).receive(&m, now)
                };
                p.route(Seat::Guest, out);
            }
        }
        // The real host plays another move, then proposes a draw and withdraws it.
        p.act(Seat::Host, Command::Play(legal_step(&g, 1))).unwrap();
        p.act(Seat::Host, Command::Propose(Proposal::Draw)).unwrap();
        p.act(Seat::Host, Command::Withdraw).unwrap();
        let quiet = p.settle_within(2_000);
        let proofs = p.guest().fork_proofs().len() + p.host().fork_proofs().len();
        assert!(p.guest().forked());
        assert!(
            quiet,
            "still exchanging after 2000 messages ({proofs} fork proofs held)"
        );
    }

    /// room.rs reply(): `open[other] = None` and the decline counters are reset before the Undo
    /// can fail, so a void (and reported) Reply still changes the room.
    #[test]
    fn review_a_void_reply_changes_nothing() {
        let mut p = Loopback::new(GameKind::Meta, 0);
        play_some(&mut p, 1);
        p.exchange(Seat::Host, Command::Propose(Proposal::Undo));
        p.exchange(Seat::Guest, Command::Propose(Proposal::Undo));
        let host_undo = p.host().room().open[0]
            .expect("the host's undo is open")
            .seq;
        // The host accepts the guest's undo: that takes back the only turn and closes the
        // host's own undo, which was about the position before it.
        p.exchange(Seat::Host, Command::Reply { accept: true });
        assert!(p.host().room().open[0].is_none());
        assert_eq!(
            p.act(Seat::Guest, Command::Reply { accept: true }),
            Err(CommandError::NoProposal)
        );
        // A hostile guest sends the accept anyway.
        let before = p.host().room().clone();
        let e = signed_for_host(
            &p,
            GUEST_SEED,
            Seat::Guest,
            Body::Reply {
                proposal: host_undo,
                accept: true,
            },
        );
        let out = {
            let now = p.now();
            p.side_mut(Seat::Host)
                .receive(&encode_message(&Message::Entries(vec![e])), now)
        };
        assert_eq!(voids(&out), 1, "void and reported");
        assert_eq!(p.host().room(), &before, "a void entry changed the room");
    }

    /// Honest race: the guest offers a rematch, then plays on instead; the host accepts at the
    /// same time. It once folded as a new game whose first move was the guest's game-0 move.
    /// Now the move, which keeps the game as it stands, comes first and closes the offer; the
    /// acceptance crossed it and is void: game 0 goes on.
    #[test]
    fn review_a_move_for_the_old_game_is_not_replayed_into_the_rematch() {
        let mut p = Loopback::new(GameKind::Meta, 0);
        play_some(&mut p, 1);
        assert_eq!(p.mover().expect("a game in progress"), Seat::Guest);
        p.exchange(
            Seat::Guest,
            Command::Propose(Proposal::NewGame { max_turns: None }),
        );
        // Crossing messages: the host accepts while the guest plays its move.
        p.act(Seat::Host, Command::Reply { accept: true }).unwrap();
        let g = p.guest().game().unwrap().clone();
        p.exchange(Seat::Guest, Command::Play(legal_step(&g, 5)));
        assert!(p.in_sync());
        assert_eq!(p.host().room().game_number, 0, "no rematch");
        assert_eq!(p.host().game().unwrap().turns(), 2, "the move stands");
        assert!(p.events().iter().any(|e| matches!(
            e,
            (
                Seat::Host,
                Event::Overtaken {
                    seat: Seat::Host,
                    why: Void::Crossed,
                    ..
                }
            )
        )));
    }

    /// mod.rs restore(): `forked` is not saved, so a reload lifts the suspension. (A fork of the
    /// other seat no longer suspends anything: its proof is an entry. The reloaded tab still
    /// knows the fork, and the seat whose own key forked is still suspended.)
    #[test]
    fn review_a_fork_still_suspends_after_a_reload() {
        let mut p = copied_host_tab_writes();
        p.settle();
        assert!(p.host().suspended());
        p.restart(Seat::Guest);
        p.restart(Seat::Host);
        assert!(p.guest().forked(), "the reload forgot the fork");
        assert_eq!(p.guest().room().ending, Some(Ending::Forked(Seat::Host)));
        assert!(p.host().suspended(), "the reload forgot the fork");
    }

    /// mod.rs restore(): presence restarts at `Waiting`, so a player who reloads while the other
    /// is away can never claim the game (`reserved_until` is None for ever).
    #[test]
    fn review_a_reload_while_the_other_is_away_keeps_the_reservation_clock() {
        let mut p = Loopback::new(GameKind::Meta, 0);
        play_some(&mut p, 2);
        let out = p.side_mut(Seat::Host).peer_disconnected(1_000);
        p.route(Seat::Host, out);
        p.restart(Seat::Host);
        p.set_now(10_000_000);
        assert_eq!(
            p.host().next_wakeup(),
            Some(0),
            "a driver calls tick at once"
        );
        let _ = {
            let now = p.now();
            p.side_mut(Seat::Host).tick(now)
        };
        // The reservation counts from the reload (the tab cannot know how long it was away).
        assert_eq!(p.host().reserved_until(), Some(p.now() + 300_000));
        p.set_now(p.now() + 300_000);
        assert_eq!(p.act(Seat::Host, Command::ClaimWin), Ok(()));
    }

    /// A hostile peer cannot grow a chain without bound (`chains::MAX_ENTRIES`), and each of its
    /// messages costs what its own entries cost: they fold after everything already folded
    /// (`fold.rs`, no fold of the whole transcript) and at most one batch of them is reported.
    #[test]
    fn review_a_hostile_peer_cannot_grow_the_transcript_without_bound() {
        let mut p = Loopback::new(GameKind::Meta, 0);
        let key = ed25519_dalek::SigningKey::from_bytes(&HOST_SEED);
        let mut last_out = Vec::new();
        let mut first_ms = None;
        for batch in 0..400 {
            let mut es = Vec::new();
            for _ in 0..48 {
                let c = &p.guest().chains;
                let prev = es
                    .last()
                    .map_or(c.last_hash(Seat::Host), |e: &Entry| e.hash());
                let seq = c.len(Seat::Host) + es.len() as u32;
                let header = Header {
                    room: p.host().invite().room,
                    seat: Seat::Host,
                    seq,
                    time: 0,
                    prev,
                    seen: c.last_hash(Seat::Guest),
                };
                es.push(Entry::sign(
                    &key,
                    header,
                    Body::Withdraw {
                        proposal: 7,
                        expired: false,
                    },
                ));
            }
            let t = std::time::Instant::now();
            last_out = p
                .side_mut(Seat::Guest)
                .receive(&encode_message(&Message::Entries(es)), 0);
            if batch == 0 {
                first_ms = Some(t.elapsed().as_secs_f64() * 1e3);
            } else if batch == 399 {
                eprintln!(
                    "first batch {:.2} ms, last batch {:.2} ms, {} Void events in its output",
                    first_ms.unwrap(),
                    t.elapsed().as_secs_f64() * 1e3,
                    voids(&last_out)
                );
            }
        }
        let held = p.guest().chains.len(Seat::Host);
        assert!(held <= 10_000, "{held} void host entries held");
        assert!(voids(&last_out) <= 48);
    }

    /// A seat whose own chain is full writes nothing more: the other side would refuse the
    /// entry (`TooLong`) and the two sides would differ for good.
    #[test]
    fn a_full_chain_writes_no_entry_the_other_side_would_refuse() {
        let mut p = Loopback::new(GameKind::Meta, 0);
        p.settle();
        let host = p.side_mut(Seat::Host);
        while host.chains.len(Seat::Host) < chains::MAX_ENTRIES {
            let body = Body::Withdraw {
                proposal: 7,
                expired: false,
            };
            let e = host.entry(body, 0);
            host.chains.push_own(e);
        }
        host.fold.update(&host.chains);
        let before = host.chains.len(Seat::Host);
        assert_eq!(p.act(Seat::Host, Command::Resign), Err(CommandError::Full));
        assert_eq!(p.host().chains.len(Seat::Host), before);
        assert!(p.host().room().in_progress(), "nothing resigned");
        // The guest's own chain is not full: it plays on.
        assert_eq!(p.act(Seat::Guest, Command::Resign), Ok(()));
    }

    /// chains.rs merged() informed flag: a hostile guest that keeps `seen` at zero (allowed:
    /// it never goes backwards) makes every entry "uninformed", so even entries that can never be
    /// a race (a step of the other game, guest settings) are void silently, and `engine verify`
    /// accepts the transcript.
    #[test]
    fn review_a_hostile_guest_cannot_hide_faults_by_never_acknowledging() {
        let mut p = Loopback::new(GameKind::Meta, 0);
        play_some(&mut p, 1);
        let mut bad = Vec::new();
        for body in [play(Step::Place(3)), Body::Settings { max_turns: 7 }] {
            let mut e = signed_for_host(&p, GUEST_SEED, Seat::Guest, body.clone());
            let header = Header {
                seen: Digest32::ZERO,
                ..e.header.clone()
            };
            e = Entry::sign(
                &ed25519_dalek::SigningKey::from_bytes(&GUEST_SEED),
                header,
                body,
            );
            let now = p.now();
            let out = p
                .side_mut(Seat::Host)
                .receive(&encode_message(&Message::Entries(vec![e.clone()])), now);
            assert!(!out
                .iter()
                .any(|x| matches!(x, Effect::Event(Event::Refused { .. }))));
            bad.push(voids(&out));
        }
        assert_eq!(
            p.host().chains.len(Seat::Guest),
            3,
            "both accepted into the transcript"
        );
        let verified = transcript::verify(&p.host().export()).is_ok();
        assert_eq!(
            bad,
            vec![1, 1],
            "faults not reported; engine verify ok = {verified}"
        );
    }
}

#[test]
fn heads_asking_for_everything_get_one_full_resend_per_connection() {
    // Once, one resend a second (RESEND_MS): a 67-byte message a second sent the whole
    // transcript back each time. Now: one full resend per connection, then only what lies
    // beyond what was resent on it.
    let mut p = Loopback::new(GameKind::Morris, 100);
    play_some(&mut p, 12);
    let total = p.host().entries().len();
    let empty = Heads {
        count: [0, 0],
        last: [Digest32::ZERO, Digest32::ZERO],
    };
    let ask = encode_message(&Message::Heads(empty));
    let sent_entries = |out: &[Effect]| -> usize {
        out.iter()
            .map(|e| match e {
                Effect::Send(m) => match decode_message(m) {
                    Ok(Message::Entries(v)) => v.len(),
                    _ => 0,
                },
                _ => 0,
            })
            .sum()
    };
    let before = p.host().work().resent;
    // The connection's first heads were answered when the sides met, with the two hellos: the
    // moves since were sent as they were played, never resent, so they go once more (a
    // message lost on a connection is recovered so); then nothing more, whenever asked.
    let t = p.now() + 10;
    let first = p.side_mut(Seat::Host).receive(&ask, t);
    assert_eq!(sent_entries(&first), total - 2);
    for i in 1..100 {
        let again = p.side_mut(Seat::Host).receive(&ask, t + i * 60_000);
        assert_eq!(sent_entries(&again), 0, "request {i}");
    }
    // A new entry: a request for everything gets that entry alone.
    let g = p.host().game().unwrap().clone();
    let seat = p.mover().unwrap();
    p.act(seat, Command::Play(legal_step(&g, 1))).unwrap();
    p.clear(seat.other());
    let out = p.side_mut(seat).receive(&ask, t + 10_000_000);
    assert_eq!(sent_entries(&out), 1, "only what was never resent");
    let out = p.side_mut(seat).receive(&ask, t + 10_000_001);
    assert_eq!(sent_entries(&out), 0);
    // A new connection (the other tab may have reloaded and lost everything): one full resend.
    let now = t + 10_000_002;
    p.side_mut(Seat::Host).peer_disconnected(now);
    p.side_mut(Seat::Host).peer_connected(now);
    let first = p.side_mut(Seat::Host).receive(&ask, now);
    assert_eq!(sent_entries(&first), total + 1, "the whole transcript");
    let again = p.side_mut(Seat::Host).receive(&ask, now + 1);
    assert_eq!(sent_entries(&again), 0);
    // Counted in steps: the host resent the new entry at most, then the whole room once.
    let resent = p.host().work().resent - before;
    assert_eq!(
        resent as usize,
        total - 2 + usize::from(seat == Seat::Host) + total + 1
    );
}

#[test]
fn a_wake_up_once_served_is_never_asked_for_again() {
    // A caller that sleeps until `next_wakeup` must never be woken in the past: after the
    // reservation ran out (the claim is possible and stays so), and while a fork keeps our
    // expired proposal open, nothing more is due.
    let mut p = Loopback::new(GameKind::Meta, 0);
    play_some(&mut p, 2);
    p.exchange(Seat::Host, Command::Propose(Proposal::Draw));
    p.freeze(Seat::Guest);
    p.advance(400_000);
    let host = p.host();
    assert!(host.reserved_until().is_some_and(|t| t < p.now()));
    assert!(
        host.next_wakeup().is_none_or(|t| t > p.now()),
        "{:?} at {}",
        host.next_wakeup(),
        p.now()
    );
    let mut copy = host.clone();
    for now in [400_001, 500_000, 10_000_000] {
        copy.tick(now);
        assert!(copy.next_wakeup().is_none_or(|t| t > now));
    }
}

#[test]
fn a_save_in_parts_writes_what_changed_and_reads_back() {
    // The saved text was rebuilt whole on every message; a save in parts writes the head and
    // the chunks changed since the last save kept: one chunk for one new entry.
    let mut p = Loopback::new(GameKind::Morris, 100);
    play_some(&mut p, 30);
    let mut store: Vec<String> = Vec::new();
    let keep = |store: &mut Vec<String>, parts: &SaveParts| {
        store.resize(parts.total, String::new());
        for (n, chunk) in &parts.chunks {
            store[*n] = chunk.clone();
        }
    };
    let whole = p.guest().save_parts(SaveCursor::default());
    assert_eq!(whole.chunks.len(), whole.total);
    keep(&mut store, &whole);
    let mut cursor = whole.cursor;
    for step in 0..40 {
        let entries = p.guest().entries().len();
        play_some(&mut p, 1);
        let added = p.guest().entries().len() - entries;
        if added == 0 {
            p.exchange(
                Seat::Host,
                Command::Propose(Proposal::NewGame { max_turns: None }),
            );
            p.exchange(Seat::Guest, Command::Reply { accept: true });
            continue;
        }
        let parts = p.guest().save_parts(cursor);
        assert!(parts.chunks.len() <= added, "step {step}");
        for (_, chunk) in &parts.chunks {
            assert!(chunk.lines().count() <= SAVE_CHUNK);
        }
        // Nothing more than the head (a few hundred characters) and one chunk.
        let written = parts.head.len() + parts.chunks.iter().map(|(_, c)| c.len()).sum::<usize>();
        assert!(written < 600 + SAVE_CHUNK * 400, "step {step}: {written}");
        keep(&mut store, &parts);
        cursor = parts.cursor;
        let saved = Saved::from_parts(&parts.head, &store).unwrap();
        assert_eq!(Saved::chunks_of(&parts.head), Ok(store.len()));
        let back = Session::restore(saved).unwrap();
        assert_eq!(back.room(), p.guest().room(), "step {step}");
        assert_eq!(back.entries(), p.guest().entries());
    }
    let parts = p.guest().save_parts(cursor);
    keep(&mut store, &parts);
    cursor = parts.cursor;
    // Nothing new: only the head.
    assert!(p.guest().save_parts(cursor).chunks.is_empty());
    // A save in one text, the form kept before parts, still reads; a head is not one, and a
    // head whose chunks are missing or damaged is unreadable.
    let head = p.guest().save_parts(cursor).head;
    assert!(Saved::is_head(&head) && !Saved::is_head(&p.guest().save_text()));
    assert!(Saved::from_text(&p.guest().save_text()).is_ok());
    assert_eq!(Saved::from_text(&head), Err(RestoreError::Unreadable));
    assert_eq!(
        Saved::from_parts(&head, &store[..store.len() - 1]),
        Err(RestoreError::Unreadable)
    );
    let mut damaged = store.clone();
    damaged[0].replace_range(0..2, "zz");
    assert_eq!(
        Saved::from_parts(&head, &damaged),
        Err(RestoreError::Unreadable)
    );
}

#[test]
fn the_saved_text_reads_back_and_nothing_else_does() {
    let mut p = Loopback::new(GameKind::Morris, 100);
    play_some(&mut p, 7);
    let guest = p.guest();
    let text = guest.save_text();
    assert_eq!(
        text,
        guest.save().to_text(),
        "borrowed and owned saves agree"
    );
    let saved = Saved::from_text(&text).unwrap();
    assert_eq!(saved, guest.save());
    let back = Session::restore(saved).unwrap();
    assert_eq!(back.room(), guest.room());
    assert_eq!(back.entries(), guest.entries());
    for bad in ["", "zz", &text[..text.len() - 2], &format!("{text}00")] {
        assert_eq!(
            Saved::from_text(bad),
            Err(RestoreError::Unreadable),
            "{bad:.20}"
        );
    }
    // Readable, but the seed is not the host's any more: the keys no longer match.
    let mut wrong = guest.save();
    wrong.seat = Seat::Host;
    assert_eq!(
        Session::restore(wrong).err(),
        Some(RestoreError::KeysMismatch)
    );
}

// Version 3: the room's options (Morris rule variants, colours by lot).

fn morris_rules(s: &Session) -> crate::morris::Rules {
    match s.game() {
        Some(AnyGame::Morris(m)) => m.rules(),
        _ => panic!("a Morris game"),
    }
}

#[test]
fn the_hosts_rule_set_is_the_rooms_and_verify_reports_it() {
    use crate::morris::Rules as MorrisRules;
    let mut p = Loopback::new(GameKind::Morris, 100);
    let o = p.host().options(80, MorrisRules::LASKER, false, 0);
    assert_eq!(
        p.act(Seat::Guest, Command::Options(o)),
        Err(CommandError::Refused(Void::NotHost))
    );
    let bad = Options { max_turns: 0, ..o };
    assert_eq!(
        p.act(Seat::Host, Command::Options(bad)),
        Err(CommandError::Refused(Void::BadRules))
    );
    p.exchange(Seat::Host, Command::Options(o));
    for s in [p.host(), p.guest()] {
        assert_eq!(morris_rules(s), MorrisRules::LASKER);
        assert_eq!(s.room().options(), o);
        match s.game() {
            Some(AnyGame::Morris(m)) => {
                assert_eq!((m.max_turns(), m.reserve(Player::Blue)), (80, 10))
            }
            _ => unreachable!(),
        }
    }
    // A Lasker slide while both reserves last: a7, g7, then a7-d7.
    p.exchange(Seat::Host, Command::Play(Step::Place(0)));
    p.exchange(Seat::Guest, Command::Play(Step::Place(2)));
    p.exchange(Seat::Host, Command::Play(Step::Move(0, 1)));
    assert_eq!(p.guest().game().unwrap().turns(), 3);
    assert_eq!(
        p.act(Seat::Host, Command::Options(o)),
        Err(CommandError::Refused(Void::TooLate))
    );
    // A new game with other rules, proposed by the host; the guest cannot propose rules.
    let twelve = p.host().options(60, MorrisRules::TWELVE, false, 1);
    assert_eq!(
        p.act(Seat::Guest, Command::Propose(Proposal::NewGameWith(twelve))),
        Err(CommandError::Refused(Void::NotHost))
    );
    p.exchange(Seat::Host, Command::Propose(Proposal::NewGameWith(twelve)));
    p.exchange(Seat::Guest, Command::Reply { accept: true });
    assert!(p.in_sync());
    assert_eq!(morris_rules(p.guest()), MorrisRules::TWELVE);
    play_some(&mut p, 9);
    let v = transcript::verify(&p.guest().export()).unwrap();
    let games = v.room.games();
    assert_eq!(
        games.iter().map(|g| g.rules).collect::<Vec<_>>(),
        [Some(MorrisRules::LASKER), Some(MorrisRules::TWELVE)]
    );
    assert_eq!(v.room, *p.guest().room());
}

#[test]
fn ultimate_tic_tac_toe_takes_colours_by_lot_but_no_morris_rules() {
    let mut p = Loopback::new(GameKind::Meta, 0);
    let lasker = p.host().options(0, crate::morris::Rules::LASKER, false, 0);
    assert_eq!(
        p.act(Seat::Host, Command::Options(lasker)),
        Err(CommandError::Refused(Void::BadRules))
    );
    let o = p.host().options(0, crate::morris::Rules::NINE, true, 0);
    p.exchange(Seat::Host, Command::Options(o));
    assert!(p.in_sync());
    assert!(p.host().room().draw.unwrap().host.is_some());
}

#[test]
fn colours_by_lot_are_drawn_by_both_sessions_before_any_move_and_verified() {
    let mut p = Loopback::new(GameKind::Meta, 0);
    let o = p.host().options(0, crate::morris::Rules::NINE, true, 0);
    assert!(matches!(o.colours, Colours::Lot { from: 0, .. }));
    p.exchange(Seat::Host, Command::Options(o));
    let mut host_colours = [0; 2];
    for game in 0..16 {
        // The guest's value and the host's reveal went by themselves.
        assert!(p.in_sync());
        let room = p.host().room();
        assert_eq!(room.game_number, game);
        let host = room.draw.unwrap().host.expect("drawn");
        assert_eq!(
            (p.host().player(), p.guest().player()),
            (host, host.opponent())
        );
        host_colours[host.index()] += 1;
        let blue = room.seat_of(Player::Blue);
        assert!(p.side(blue).my_turn() && !p.side(blue.other()).my_turn());
        p.exchange(blue, Command::Play(Step::Cell(40)));
        // Either seat proposes the next game (the guest's plain proposal keeps the lot).
        let proposer = if game % 2 == 0 {
            Seat::Guest
        } else {
            Seat::Host
        };
        p.exchange(
            proposer,
            Command::Propose(Proposal::NewGame { max_turns: None }),
        );
        p.exchange(proposer.other(), Command::Reply { accept: true });
    }
    assert!(
        host_colours[0] > 0 && host_colours[1] > 0,
        "{host_colours:?}"
    );
    // `engine verify` recomputes every draw from the signed values.
    let v = transcript::verify(&p.host().export()).unwrap();
    assert_eq!(v.room.games(), p.host().room().games());
    assert!(v.room.games().iter().all(|g| g.drawn));
    assert!(v.faults.is_empty());
}

#[test]
fn a_move_before_the_draw_and_a_false_reveal_are_void_and_a_silent_host_can_be_claimed() {
    let mut p = Loopback::new(GameKind::Meta, 0);
    // The host stops right after choosing the option: its reveal never comes.
    let o = p.host().options(0, crate::morris::Rules::NINE, true, 0);
    p.act(Seat::Host, Command::Options(o)).unwrap();
    p.freeze(Seat::Host);
    p.settle();
    let guest = p.guest();
    let draw = guest.room().draw.unwrap();
    let (_, guessed) = draw.guess.expect("the guest wrote its value");
    assert_eq!(draw.host, None);
    assert!(guest.room().draw_pending() && !guest.my_turn());
    assert_eq!(
        guest.reveal_due(),
        Some(guessed + Config::default().reservation_ms)
    );
    // Forged by the host's own key: a move before the draw, a reveal that is not its value.
    let first = forged(&p, HOST_SEED, Seat::Host, play(Step::Cell(40)));
    p.deliver_entries(Seat::Guest, vec![first]);
    let wrong = forged(
        &p,
        HOST_SEED,
        Seat::Host,
        Body::LotReveal {
            game: 0,
            value: [7; 32],
        },
    );
    p.deliver_entries(Seat::Guest, vec![wrong]);
    let voids: Vec<Void> = p
        .events()
        .iter()
        .filter_map(|(_, e)| match e {
            Event::Void { why, .. } => Some(*why),
            _ => None,
        })
        .collect();
    assert_eq!(voids, [Void::DrawPending, Void::BadReveal]);
    assert!(p.guest().room().draw_pending());
    // The seat's time after its value: the guest may claim the game.
    assert_eq!(
        p.act(Seat::Guest, Command::ClaimWin),
        Err(CommandError::TooEarly)
    );
    p.set_now(guessed + Config::default().reservation_ms);
    assert!(p.guest().can_claim(p.now()));
    p.act(Seat::Guest, Command::ClaimWin).unwrap();
    assert_eq!(p.guest().room().ending, Some(Ending::Claimed(Seat::Guest)));
    let v = transcript::verify(&p.guest().export()).unwrap();
    assert_eq!(v.room.ending, Some(Ending::Claimed(Seat::Guest)));
}

/// A session that holds no entry yet, only to sign the next ones (`signed_next`).
fn empty_holder(invite: &Invite) -> Session {
    let mut holder = Session::guest(invite.clone(), GUEST_SEED, Config::default(), 0);
    let host = VerifyingKey::from_bytes(&public_key(HOST_SEED)).unwrap();
    holder.chains = Chains::new(invite.room, Some(host), Some(invite.secret));
    holder
}

/// A transcript of protocol version 2 (no options): both `Hello`s say 2.
fn version_two_room(kind: GameKind) -> (Invite, Vec<Entry>) {
    let invite = Invite::new(kind, 100, [5; 16], HOST_SEED, [6; 16]);
    let hello = |seed: [u8; 32]| {
        let key = public_key(seed);
        Body::Hello {
            protocol: 2,
            rules: invite.rules,
            key,
            proof: wire::join_proof(invite.room, &invite.secret, &key),
        }
    };
    let mut holder = empty_holder(&invite);
    let mut entries = Vec::new();
    for (seed, seat, body) in [
        (HOST_SEED, Seat::Host, hello(HOST_SEED)),
        (GUEST_SEED, Seat::Guest, hello(GUEST_SEED)),
        (HOST_SEED, Seat::Host, play(Step::Place(0))),
        (GUEST_SEED, Seat::Guest, play(Step::Place(1))),
    ] {
        let body = match (kind, body) {
            (GameKind::Meta, Body::Play { .. }) if seat == Seat::Host => play(Step::Cell(40)),
            (GameKind::Meta, Body::Play { .. }) => play(Step::Cell(36)),
            (_, b) => b,
        };
        let e = signed_next(&holder, 1, seed, seat, body);
        assert_eq!(holder.chains.add(e.clone()), Ok(Added::New), "{e:?}");
        entries.push(e);
    }
    (invite, entries)
}

#[test]
fn a_version_two_transcript_verifies_as_the_default_rules_with_alternating_colours() {
    for kind in [GameKind::Morris, GameKind::Meta] {
        let (invite, entries) = version_two_room(kind);
        let v = transcript::verify(&transcript::export(&invite, &entries)).unwrap();
        assert!(v.faults.is_empty() && v.void.is_empty(), "{kind:?}");
        let games = v.room.games();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].turns, 2);
        assert_eq!(games[0].host, Player::Blue);
        assert!(!games[0].drawn);
        let expected = (kind == GameKind::Morris).then_some(crate::morris::Rules::NINE);
        assert_eq!(games[0].rules, expected);
        assert_eq!(v.room.protocol, [2, 2]);
    }
}

#[test]
fn a_version_two_room_takes_no_options_and_a_version_two_guest_no_version_three_host() {
    let (_, entries) = version_two_room(GameKind::Morris);
    let mut room = Room::new();
    room.apply(&entries[0]).unwrap();
    room.apply(&entries[1]).unwrap();
    let holder = {
        let (invite, _) = version_two_room(GameKind::Morris);
        let mut s = empty_holder(&invite);
        for e in &entries[..2] {
            s.chains.add(e.clone()).unwrap();
        }
        s
    };
    let o = Options {
        max_turns: 100,
        rules: crate::morris::Rules::LASKER,
        colours: Colours::Alternate,
    };
    let options = signed_next(&holder, 2, HOST_SEED, Seat::Host, Body::Options(o));
    assert_eq!(room.apply(&options), Err(Void::Version));
    // A version 3 host, then a version 2 guest: the room cannot be shared.
    let mut room = Room::new();
    let mut host_hello = entries[0].clone();
    if let Body::Hello { protocol, .. } = &mut host_hello.body {
        *protocol = 3;
    }
    room.apply(&host_hello).unwrap();
    assert_eq!(room.apply(&entries[1]), Err(Void::Version));
    assert_eq!(room.incompatible, Some(Void::Version));
}
