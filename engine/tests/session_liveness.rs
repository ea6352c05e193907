//! A cheater cannot freeze a room (issue #21). Whatever a seat signs — two entries with one
//! number, an acceptance of a proposal that never was, an acceptance that crossed the offer's
//! expiry — and then silence, the other seat can still end the game: the fork counts against
//! the forker, and a claim waits for the reservation and no more. What the page shows as the
//! seat's reservation (`Session::reserved_until`) is what a claim can do, to the millisecond,
//! and the honest side's export says why the game ended.

mod common;
use common::{
    entries_of, lying, lying_at, play_tokens, signed, token_step, verify, version_two_room,
    META_GAME,
};
use engine::session::transcript;
use engine::session::{
    wire, Body, Command, CommandError, Ending, Entry, Event, Finish, Loopback, Presence, Proposal,
    Seat, Void, GUEST_SEED, HOST_SEED,
};
use engine::{GameKind, Player};

/// The host waits for the guest's reservation to run out, as its page does, and claims: refused
/// a millisecond before the time its page shows, standing at that time.
fn claim_when_the_page_says(net: &mut Loopback) {
    let until = net.host().reserved_until().expect("the guest is away");
    net.set_now(until - 1);
    assert!(!net.host().can_claim(until - 1));
    assert_eq!(
        net.act(Seat::Host, Command::ClaimWin),
        Err(CommandError::TooEarly)
    );
    net.set_now(until);
    assert!(net.host().can_claim(until), "the page offers the claim");
    net.act(Seat::Host, Command::ClaimWin)
        .unwrap_or_else(|e| panic!("the claim the page offers is refused: {e}"));
    let room = net.host().room();
    assert_eq!(room.ending, Some(Ending::Claimed(Seat::Host)));
    assert_eq!(room.winner(), Some(net.host().player()));
}

/// The guest signs two different moves with one number, sends both to the host, and is never
/// heard from again.
fn guest_forks_and_falls_silent(net: &mut Loopback, second: Body) -> (Entry, Entry) {
    let seen = entries_of(net.guest(), Seat::Host).len();
    let one = lying(
        net,
        Seat::Guest,
        Body::Play {
            game: 0,
            step: token_step(net, "d6"),
        },
        seen,
    );
    let two = lying(net, Seat::Guest, second, seen);
    assert_eq!((one.seq(), one.seat()), (two.seq(), two.seat()));
    // The guest's own session keeps the first.
    net.deliver_entries(Seat::Guest, vec![one.clone()]);
    net.freeze(Seat::Guest);
    net.deliver_entries(Seat::Host, vec![one.clone()]);
    net.deliver_entries(Seat::Host, vec![two.clone()]);
    (one, two)
}

#[test]
fn a_fork_then_silence_loses_the_game_and_the_export_names_the_forker() {
    let mut net = Loopback::new(GameKind::Morris, 100);
    play_tokens(&mut net, &["a7", "b6", "d7"]);
    let g7 = token_step(&net, "g7");
    let (one, two) = guest_forks_and_falls_silent(&mut net, Body::Play { game: 0, step: g7 });
    // The host saw the fork, wrote its proof at once, and that ended the game: the guest lost.
    let host = net.host();
    assert!(net
        .events()
        .contains(&(Seat::Host, Event::Fork(Seat::Guest))));
    assert!(!host.suspended() && host.forked());
    assert_eq!(host.room().ending, Some(Ending::Forked(Seat::Guest)));
    assert_eq!(host.room().winner(), Some(Player::Blue));
    let proof = host.entries().last().unwrap().clone();
    assert_eq!(proof.seat(), Seat::Host);
    assert_eq!(proof.body, Body::Fork(Box::new(two)));
    // The guest's later entries count for nothing (it can no longer move, nor claim).
    let after = lying(
        &net,
        Seat::Guest,
        Body::ClaimWin,
        entries_of(net.guest(), Seat::Host).len(),
    );
    assert_eq!(after.seq(), one.seq() + 1);
    net.deliver_entries(Seat::Host, vec![after]);
    assert_eq!(net.host().room().ending, Some(Ending::Forked(Seat::Guest)));
    // The export carries the proof; verify names the seat that forked and the game's end.
    let v = verify(&net, Seat::Host);
    assert_eq!(v.forks.len(), 1);
    let fork = v.forks[0];
    assert_eq!(
        (fork.seat, fork.player, fork.seq),
        (Seat::Guest, Player::Red, one.seq())
    );
    assert_eq!(v.entries[fork.entry], proof);
    assert_eq!(
        v.room.games()[0].result,
        Some((
            Some(Player::Blue),
            Finish::Ending(Ending::Forked(Seat::Guest))
        ))
    );
    assert!(
        v.verdict().starts_with(&format!(
            "authentic, but the guest (Red) signed two entries numbered {}, a fork that entry {} proves",
            one.seq(),
            fork.entry
        )),
        "{}",
        v.verdict()
    );
    // A proof is checked like any entry: one that proves nothing is refused by every reader.
    let mut text = net.host().export();
    let line = wire::hex(&wire::encode(&proof));
    let forged = Entry::sign(
        &ed25519_dalek::SigningKey::from_bytes(&HOST_SEED),
        proof.header.clone(),
        Body::Fork(Box::new(one)),
    );
    text = text.replace(&line, &wire::hex(&wire::encode(&forged)));
    let e = transcript::verify(&text).unwrap_err();
    assert!(e.message.contains("fork proof"), "{e}");
}

#[test]
fn a_fork_the_proof_cannot_carry_still_lets_the_other_claim_after_the_reservation() {
    // The second entry is itself a « proof » (a proof never holds one): the host cannot write
    // its own, and the guest counts as away from the fork on, its connection proving nothing.
    let mut net = Loopback::new(GameKind::Morris, 100);
    play_tokens(&mut net, &["a7", "b6", "d7"]);
    let junk = signed(net.guest(), GUEST_SEED, Seat::Host, Body::Resign, 0, 0);
    guest_forks_and_falls_silent(&mut net, Body::Fork(Box::new(junk)));
    assert!(net.host().forked() && net.host().room().in_progress());
    assert!(matches!(net.host().presence(), Presence::Away { .. }));
    claim_when_the_page_says(&mut net);
    let v = verify(&net, Seat::Host);
    assert_eq!(v.room.ending, Some(Ending::Claimed(Seat::Host)));
    assert!(v.faults.is_empty(), "{:?}", v.faults);
}

#[test]
fn in_a_version_two_room_a_fork_lets_the_other_claim_after_the_reservation() {
    // Version 2 has no proof entry: the forker counts as away, and the claim comes with the
    // reservation (version 2 suspended the room for good).
    let mut net = version_two_room(GameKind::Meta);
    assert_eq!(net.host().room().protocol, [2, 2]);
    let tokens: Vec<&str> = META_GAME.split(' ').collect();
    play_tokens(&mut net, &tokens[..3]);
    let seen = entries_of(net.guest(), Seat::Host).len();
    let one = lying(
        &net,
        Seat::Guest,
        Body::Play {
            game: 0,
            step: token_step(&net, tokens[3]),
        },
        seen,
    );
    let two = lying(&net, Seat::Guest, Body::Resign, seen);
    net.freeze(Seat::Guest);
    net.deliver_entries(Seat::Host, vec![one]);
    net.deliver_entries(Seat::Host, vec![two]);
    assert!(net.host().forked() && !net.host().suspended());
    assert!(net.host().room().in_progress());
    claim_when_the_page_says(&mut net);
    assert!(verify(&net, Seat::Host).faults.is_empty());
}

#[test]
fn a_crafted_acceptance_then_silence_delays_the_claim_by_the_reservation_only() {
    // The guest, losing, accepts a proposal that never was, declaring the host's last move
    // unseen, then is never heard from again. (Version 2 refused the host's claim for ever.)
    let mut net = Loopback::new(GameKind::Meta, 0);
    let tokens: Vec<&str> = META_GAME.split(' ').collect();
    play_tokens(&mut net, &tokens[..21]);
    assert_eq!(net.mover(), Some(Seat::Guest));
    let seen = entries_of(net.guest(), Seat::Host).len() - 1;
    net.set_now(net.now() + 30_000);
    let crafted = lying(
        &net,
        Seat::Guest,
        Body::Reply {
            proposal: 999,
            accept: true,
        },
        seen,
    );
    net.deliver_entries(Seat::Host, vec![crafted]);
    net.freeze(Seat::Guest);
    net.advance(10_000);
    assert!(matches!(net.host().presence(), Presence::Away { .. }));
    claim_when_the_page_says(&mut net);
    // The honest host's export says why: the crafted acceptance breaks the rules even in the
    // state it declares (the fold names the first reason it is void: it crossed the host's
    // move), and the game was claimed.
    let v = verify(&net, Seat::Host);
    assert_eq!(
        v.faults.iter().map(|f| (f.seat, f.why)).collect::<Vec<_>>(),
        [(Seat::Guest, Void::Crossed)]
    );
    assert_eq!(
        v.room.games()[0].result,
        Some((
            Some(Player::Blue),
            Finish::Ending(Ending::Claimed(Seat::Host))
        ))
    );
}

#[test]
fn an_acceptance_that_crossed_the_offers_expiry_then_silence_delays_the_claim_by_the_reservation_only(
) {
    // The host offers a draw; its minute runs out and its session withdraws it; the guest's
    // acceptance, declaring that withdrawal unseen, crossed it (a race the withdrawal wins);
    // then the guest is gone — a tab closed just after accepting in the last instant, or a
    // cheater. (Version 2 waited for the guest to see the withdrawal, with no end.)
    for honest in [true, false] {
        let mut net = Loopback::new(GameKind::Meta, 0);
        play_tokens(&mut net, &["e5", "e4"]);
        net.exchange(Seat::Host, Command::Propose(Proposal::Draw));
        let (offer, deadline) = net.host().proposals()[0].unwrap();
        let seen = entries_of(net.guest(), Seat::Host).len();
        if honest {
            // The guest accepts a moment before its own minute ends; both messages cross.
            net.set_now(deadline - 50);
            net.act(Seat::Guest, Command::Reply { accept: true })
                .unwrap();
            net.clear(Seat::Host);
            net.set_now(deadline);
            net.tick(Seat::Host);
            let acceptance = entries_of(net.guest(), Seat::Guest).last().unwrap().clone();
            net.clear(Seat::Guest);
            net.deliver_entries(Seat::Host, vec![acceptance]);
            net.disconnect();
        } else {
            net.advance(deadline - net.now() + 1);
            let late = lying_at(
                &net,
                Seat::Guest,
                Body::Reply {
                    proposal: offer.seq,
                    accept: true,
                },
                seen,
                net.now() + 600_000,
            );
            net.deliver_entries(Seat::Host, vec![late]);
            net.freeze(Seat::Guest);
            net.advance(10_000);
        }
        let room = net.host().room();
        assert!(room.in_progress(), "no draw: the withdrawal won the race");
        assert!(room.open[0].is_none());
        claim_when_the_page_says(&mut net);
        let v = verify(&net, Seat::Host);
        assert!(v.faults.is_empty(), "a race, not a fault: {:?}", v.faults);
        assert_eq!(v.void.len(), 1, "the acceptance changed nothing");
        assert_eq!(v.room.ending, Some(Ending::Claimed(Seat::Host)));
    }
}
