//! A lying player gains nothing. One seat holds its real key and signs correctly chained entries,
//! but declares in `seen` that it had not seen what the other side wrote. The scenarios an
//! independent review found, then two properties over thousands of random games: honest races
//! converge whatever the delivery order, and a lie only ever changes what the lying entry
//! crossed — as if it had come a moment earlier — never what it saw, never to the liar's
//! advantage, while a lying decision is void. Transcripts are checked offline too: canonical files, the story, and the
//! proof of a cheat.

mod common;
use common::{entries_of, lying, lying_at, play_tokens, token_step, verify, META_GAME};
use ed25519_dalek::SigningKey;
use engine::session::transcript;
use engine::session::{
    Body, Command, Digest32, Ending, Entry, Finish, Loopback, Proposal, Seat, Session, Step, Void,
};
use engine::{GameKind, Player, Reason};

/// How many entries of the other seat `seat`'s last entry had seen.
fn last_seen(net: &Loopback, seat: Seat) -> usize {
    let s = net.side(seat);
    let own = entries_of(s, seat);
    let other = entries_of(s, seat.other());
    own.last().map_or(0, |e| {
        other
            .iter()
            .position(|o| o.hash() == e.header.seen)
            .map_or(0, |i| i + 1)
    })
}

/// Sends an entry its seat wrote to both sides (its own session keeps it as written), then lets
/// a few heartbeats bring everything else across.
fn send(net: &mut Loopback, e: Entry) {
    net.deliver_entries(e.seat(), vec![e.clone()]);
    net.deliver_entries(e.seat().other(), vec![e]);
    net.settle();
    net.advance(5_000);
}

#[test]
fn a_claim_cannot_overturn_a_win_it_did_not_see() {
    let mut net = Loopback::new(GameKind::Meta, 0);
    let tokens: Vec<&str> = META_GAME.split(' ').collect();
    play_tokens(&mut net, &tokens[..tokens.len() - 1]);
    // Red's winning move is on its way when the host claims the game, declaring it had not
    // seen it (the host's client would refuse: the guest is here; this host signs by hand, and
    // dates its claim five minutes on, as if the guest had long been silent).
    let seen = entries_of(net.host(), Seat::Guest).len();
    let win = token_step(&net, tokens[tokens.len() - 1]);
    net.act(Seat::Guest, Command::Play(win)).unwrap();
    let mut early = net.clone();
    net.set_now(net.now() + 300_000);
    let claim = lying(&net, Seat::Host, Body::ClaimWin, seen);
    send(&mut net, claim);
    assert!(net.in_sync());
    let room = net.host().room();
    assert_eq!(room.ending, None, "the claim is void");
    assert_eq!(room.winner(), Some(Player::Red), "Red won by the rules");
    assert_eq!(room.game().unwrap().outcome().unwrap().reason, Reason::Line);
    let v = verify(&net, Seat::Guest);
    assert!(
        v.faults.is_empty(),
        "a crossed claim is a race, not a fault"
    );
    assert_eq!(
        v.room.games()[0].result,
        Some((Some(Player::Red), Finish::Rules(Reason::Line)))
    );
    // Dated by its real clock, a moment after the guest's last move it had seen, the claim
    // breaks the rules by its own account: the guest was there less than five minutes before.
    let claim = lying(&early, Seat::Host, Body::ClaimWin, seen);
    send(&mut early, claim);
    let v = verify(&early, Seat::Guest);
    assert_eq!(early.guest().room().winner(), Some(Player::Red));
    assert_eq!(
        v.faults.iter().map(|f| (f.seat, f.why)).collect::<Vec<_>>(),
        [(Seat::Host, Void::TooSoon)]
    );
}

#[test]
fn a_withdrawn_offer_cannot_be_accepted_by_declaring_the_withdrawal_unseen() {
    let mut net = Loopback::new(GameKind::Morris, 100);
    play_tokens(&mut net, &["a7", "b6", "d7"]);
    net.exchange(Seat::Guest, Command::Propose(Proposal::Draw));
    let offer = net.guest().proposals()[0].unwrap().0.seq;
    let seen = entries_of(net.host(), Seat::Guest).len();
    net.exchange(Seat::Guest, Command::Withdraw);
    // Ten minutes later the host accepts, declaring it had not seen the withdrawal.
    net.set_now(net.now() + 600_000);
    let accept = lying(
        &net,
        Seat::Host,
        Body::Reply {
            proposal: offer,
            accept: true,
        },
        seen,
    );
    send(&mut net, accept);
    assert!(net.in_sync());
    assert_eq!(net.host().room().ending, None, "no draw");
    assert!(net.host().room().in_progress());
    // The guest's move that follows stands.
    play_tokens(&mut net, &["d6"]);
    assert_eq!(net.guest().game().unwrap().turns(), 4);
    assert!(verify(&net, Seat::Guest).faults.is_empty());
}

#[test]
fn an_agreed_draw_cannot_be_cancelled_by_a_withdrawal_dated_after_the_offers_minute() {
    let mut net = Loopback::new(GameKind::Morris, 100);
    play_tokens(&mut net, &["a7", "b6", "d7"]);
    net.exchange(Seat::Host, Command::Propose(Proposal::Draw));
    let offer = net.host().proposals()[0].unwrap().0.seq;
    let seen = entries_of(net.host(), Seat::Guest).len();
    net.exchange(Seat::Guest, Command::Reply { accept: true });
    assert_eq!(net.guest().room().ending, Some(Ending::DrawAgreed));
    // Ten minutes later the host withdraws the offer, declaring the acceptance unseen, then
    // claims the game it would have put back in play.
    net.set_now(net.now() + 600_000);
    let withdraw = lying(
        &net,
        Seat::Host,
        Body::Withdraw {
            proposal: offer,
            expired: false,
        },
        seen,
    );
    send(&mut net, withdraw);
    let claim = lying(
        &net,
        Seat::Host,
        Body::ClaimWin,
        entries_of(net.host(), Seat::Guest).len(),
    );
    send(&mut net, claim);
    assert!(net.in_sync());
    // Dated after the offer's minute, the withdrawal races nothing: it counts only for what it
    // had seen, and the acceptance it had not seen stands. The claim that follows breaks the
    // rules by its own account, and the honest guest's export names the host.
    assert_eq!(net.guest().room().ending, Some(Ending::DrawAgreed));
    let v = verify(&net, Seat::Guest);
    assert_eq!(
        v.room.games()[0].result,
        Some((None, Finish::Ending(Ending::DrawAgreed)))
    );
    assert_eq!(v.faults.len(), 1, "{:?}", v.faults);
    assert_eq!(v.faults[0].seat, Seat::Host);
    assert!(v.verdict().starts_with("authentic, but the host (Blue)"));
}

#[test]
fn a_withdrawal_within_the_minute_still_wins_a_real_race_with_an_acceptance() {
    for late_timer in [false, true] {
        let mut net = Loopback::new(GameKind::Meta, 0);
        play_tokens(&mut net, &["e5"]);
        net.exchange(Seat::Host, Command::Propose(Proposal::Draw));
        let (offer, deadline) = net.host().proposals()[0].unwrap();
        net.advance(59_000);
        // The guest accepts at the end of the minute; its answer is held up on the way.
        net.act(Seat::Guest, Command::Reply { accept: true })
            .unwrap();
        if late_timer {
            // The host's tab is asleep past the deadline: its timer runs late.
            net.freeze(Seat::Host);
            net.advance(30_000);
            net.thaw(Seat::Host);
            net.tick(Seat::Host);
        } else {
            net.fault(Seat::Host, engine::session::Fault::Delay(5_000));
            net.advance(2_000);
        }
        let expiry = entries_of(net.host(), Seat::Host).last().unwrap().clone();
        assert_eq!(
            expiry.body,
            Body::Withdraw {
                proposal: offer.seq,
                expired: true
            }
        );
        assert_eq!(expiry.header.time, deadline, "dated at the deadline");
        net.connect();
        net.advance(10_000);
        assert!(net.in_sync(), "late timer {late_timer}");
        // A real race: the withdrawal wins, on both sides, and nobody broke a rule.
        assert_eq!(net.host().room().ending, None);
        assert!(net.host().room().in_progress());
        assert!(verify(&net, Seat::Guest).faults.is_empty());
    }
}

#[test]
fn an_expired_offer_cannot_be_accepted_by_declaring_the_expiry_unseen() {
    let mut net = Loopback::new(GameKind::Meta, 0);
    play_tokens(&mut net, &["e5"]);
    net.exchange(Seat::Guest, Command::Propose(Proposal::Draw));
    let offer = net.guest().proposals()[0].unwrap().0.seq;
    let seen = entries_of(net.host(), Seat::Guest).len();
    net.advance(61_000);
    assert!(net.host().room().open[1].is_none(), "expired");
    net.set_now(net.now() + 600_000);
    let accept = lying(
        &net,
        Seat::Host,
        Body::Reply {
            proposal: offer,
            accept: true,
        },
        seen,
    );
    send(&mut net, accept);
    assert!(net.in_sync());
    assert_eq!(net.guest().room().ending, None, "no draw");
    assert!(net.guest().room().in_progress());
}

#[test]
fn no_entry_dated_after_the_offers_minute_cancels_its_acceptance() {
    // Not a withdrawal, nor a move, nor a hand-over: ten minutes later, whatever the host signs
    // declaring the acceptance unseen, the agreed draw stands.
    let mut net = Loopback::new(GameKind::Meta, 0);
    play_tokens(&mut net, &["e5", "e4"]);
    assert_eq!(net.mover(), Some(Seat::Host));
    net.exchange(Seat::Host, Command::Propose(Proposal::Draw));
    let seen = entries_of(net.host(), Seat::Guest).len();
    net.exchange(Seat::Guest, Command::Reply { accept: true });
    net.set_now(net.now() + 600_000);
    let invite = net.host().invite().clone();
    let key = SigningKey::from_bytes(&PUPPET).verifying_key().to_bytes();
    let bodies = [
        Body::Play {
            game: 0,
            step: token_step(&net, "e3"),
        },
        Body::Handover {
            seat: Seat::Guest,
            key,
            proof: engine::session::wire::join_proof(invite.room, &invite.secret, &key),
        },
        Body::Resign,
    ];
    for body in bodies {
        let mut world = net.clone();
        let late = lying(&world, Seat::Host, body.clone(), seen);
        send(&mut world, late);
        assert!(world.in_sync(), "{body:?}");
        assert_eq!(
            world.guest().room().ending,
            Some(Ending::DrawAgreed),
            "{body:?}"
        );
        assert_eq!(world.guest().game().unwrap().turns(), 2, "{body:?}");
    }
}

#[test]
fn a_stale_answer_to_an_old_proposal_undoes_nothing() {
    // The guest answers, long after, a proposal of the host's that expired, declaring it had
    // seen nothing since: the expiry was in time, so the answer is void, and the host's moves
    // since stand.
    let mut net = Loopback::new(GameKind::Meta, 0);
    play_tokens(&mut net, &["d2", "b4"]);
    net.exchange(Seat::Host, Command::Propose(Proposal::Undo));
    let offer = net.host().proposals()[0].unwrap().0.seq;
    let seen = entries_of(net.guest(), Seat::Host).len();
    net.advance(61_000);
    assert!(net.host().room().open[0].is_none(), "expired");
    play_tokens(&mut net, &["d1", "b3"]);
    net.set_now(net.now() + 600_000);
    let stale = lying(
        &net,
        Seat::Guest,
        Body::Reply {
            proposal: offer,
            accept: true,
        },
        seen,
    );
    send(&mut net, stale);
    assert!(net.in_sync());
    assert_eq!(net.host().game().unwrap().turns(), 4, "nothing taken back");
    assert!(net.host().room().in_progress());
}

#[test]
fn a_proposer_that_wrote_nothing_since_can_cancel_an_acceptance_and_no_more() {
    for version in [3, 2] {
        a_proposer_cancels_an_acceptance(version);
    }
}

fn a_proposer_cancels_an_acceptance(version: u16) {
    // What stays possible (docs/protocol.md, « Races »): a proposer that signed nothing since
    // its offer can date a withdrawal within the offer's minute, declare the acceptance unseen,
    // and no file can tell it from a real race. The acceptance is void; the game goes on.
    let mut net = match version {
        2 => common::version_two_room(GameKind::Morris),
        _ => Loopback::new(GameKind::Morris, 100),
    };
    play_tokens(&mut net, &["a7", "b6", "d7"]);
    net.exchange(Seat::Host, Command::Propose(Proposal::Draw));
    let (offer, deadline) = net.host().proposals()[0].unwrap();
    let seen = entries_of(net.host(), Seat::Guest).len();
    net.exchange(Seat::Guest, Command::Reply { accept: true });
    net.set_now(net.now() + 600_000);
    let withdraw = Body::Withdraw {
        proposal: offer.seq,
        expired: true,
    };
    let mut cancelled = net.clone();
    let backdated = lying_at(&cancelled, Seat::Host, withdraw.clone(), seen, deadline);
    send(&mut cancelled, backdated);
    assert!(cancelled.in_sync());
    assert!(cancelled.guest().room().in_progress(), "the draw is undone");
    assert!(cancelled
        .events()
        .iter()
        .any(|(seat, e)| *seat == Seat::Guest
            && matches!(
                e,
                engine::session::Event::Overtaken {
                    seat: Seat::Guest,
                    why: Void::Crossed,
                    ..
                }
            )));
    // No more than a claim of absence: the guest's acceptance is its last sign of presence,
    // so a claim dated less than five minutes after the withdrawal that had not seen it is
    // void, and a fault the guest's export names.
    let all = entries_of(cancelled.host(), Seat::Guest).len();
    let claim_at = |at| lying_at(&cancelled, Seat::Host, Body::ClaimWin, all, at);
    let mut early = cancelled.clone();
    early.deliver_entries(Seat::Guest, vec![claim_at(deadline + 299_999)]);
    assert!(early.guest().room().in_progress());
    let v = verify(&early, Seat::Guest);
    assert_eq!(
        v.faults.iter().map(|f| (f.seat, f.why)).collect::<Vec<_>>(),
        [(Seat::Host, Void::TooSoon)]
    );
    // Dated later, it stands in version 3: a transcript cannot tell a guest that walked away
    // believing the draw (whom the host must be able to claim against, or the room would
    // freeze) from one that never heard of the withdrawal. Version 2 waited for the guest to
    // write an entry that saw the withdrawal — with no end, the freeze issue #21 removed — and
    // still judges its rooms so.
    let mut claimed = cancelled.clone();
    claimed.deliver_entries(Seat::Guest, vec![claim_at(deadline + 400_000)]);
    let v = verify(&claimed, Seat::Guest);
    if version == 2 {
        assert!(claimed.guest().room().in_progress());
        assert_eq!(
            v.faults.iter().map(|f| (f.seat, f.why)).collect::<Vec<_>>(),
            [(Seat::Host, Void::Unseen)]
        );
    } else {
        assert_eq!(
            claimed.guest().room().ending,
            Some(Ending::Claimed(Seat::Host))
        );
        assert!(v.faults.is_empty(), "{:?}", v.faults);
    }
    // And a proposer that signed anything dated after the minute cannot date a withdrawal
    // before it: its clock never goes back in its chain, and a later withdrawal races nothing.
    net.exchange(
        Seat::Host,
        Command::Propose(Proposal::NewGame { max_turns: None }),
    );
    let after = entries_of(net.host(), Seat::Host)
        .last()
        .unwrap()
        .header
        .time;
    assert!(after > deadline);
    let withdraw = lying(&net, Seat::Host, withdraw, seen);
    assert!(withdraw.header.time >= after);
    send(&mut net, withdraw);
    assert_eq!(net.guest().room().ending, Some(Ending::DrawAgreed));
}

#[test]
fn a_claim_while_the_other_is_present_needs_a_false_date() {
    // The guest moved, and is there, thinking. A claim dated by the host's real clock breaks the
    // rules by its own account; dated five minutes on it stands — what stays unprovable: times
    // are each sender's own — and every later entry of the host is dated after it.
    let mut net = Loopback::new(GameKind::Meta, 0);
    play_tokens(&mut net, &["e5", "e4"]);
    let all = entries_of(net.host(), Seat::Guest).len();
    let mut honest_date = net.clone();
    let claim = lying(&honest_date, Seat::Host, Body::ClaimWin, all);
    send(&mut honest_date, claim);
    assert!(honest_date.guest().room().in_progress());
    assert_eq!(
        verify(&honest_date, Seat::Guest).faults[0].why,
        Void::TooSoon
    );
    let last = entries_of(net.host(), Seat::Host)
        .last()
        .unwrap()
        .header
        .time;
    let claim = lying_at(&net, Seat::Host, Body::ClaimWin, all, last + 300_000);
    send(&mut net, claim);
    assert_eq!(net.guest().room().ending, Some(Ending::Claimed(Seat::Host)));
    let next = lying(&net, Seat::Host, Body::Resign, all);
    assert!(next.header.time >= last + 300_000);
}

#[test]
fn an_illegal_move_cannot_hide_behind_an_out_of_date_seen() {
    let mut net = Loopback::new(GameKind::Morris, 100);
    play_tokens(&mut net, &["a7", "b6", "d7"]);
    // The guest has seen d7 but declares it had seen only up to b6's turn, and places on a7,
    // which was taken even then: illegal in the very state it claims to have seen.
    let seen = last_seen(&net, Seat::Guest);
    let a7 = token_step(&net, "a7");
    let cheat = lying(&net, Seat::Guest, Body::Play { game: 0, step: a7 }, seen);
    net.take_events();
    send(&mut net, cheat);
    assert!(
        net.events().iter().any(|(seat, e)| *seat == Seat::Host
            && matches!(
                e,
                engine::session::Event::Void {
                    seat: Seat::Guest,
                    ..
                }
            )),
        "reported: {:?}",
        net.events()
    );
    // The honest host's export is the evidence: authentic, naming the cheater and the entry.
    let v = verify(&net, Seat::Host);
    let index = v.entries.len() - 1;
    assert_eq!(
        v.faults,
        [transcript::Breach {
            entry: index,
            seat: Seat::Guest,
            player: Player::Red,
            why: Void::Illegal(engine::Illegal::Occupied),
        }]
    );
    assert!(
        v.verdict().contains("guest (Red) signed entry"),
        "{}",
        v.verdict()
    );
    // A second move in a row is caught the same way.
    play_tokens(&mut net, &["d6"]);
    let seen = last_seen(&net, Seat::Guest);
    let g7 = token_step(&net, "g7");
    let out_of_turn = lying(&net, Seat::Guest, Body::Play { game: 0, step: g7 }, seen);
    send(&mut net, out_of_turn);
    let v = verify(&net, Seat::Host);
    assert_eq!(v.faults.len(), 2, "{:?}", v.faults);
    assert_eq!(v.faults[1].why, Void::NotYourTurn);
}

#[test]
fn a_transcript_is_one_file_in_one_order() {
    let mut net = Loopback::new(GameKind::Meta, 0);
    play_tokens(&mut net, &["e5", "e4", "e2"]);
    let text = net.host().export();
    assert!(transcript::verify(&text).is_ok());
    let lines: Vec<&str> = text.lines().collect();
    // A repeated entry line.
    let mut repeated = lines.clone();
    repeated.insert(6, lines[5]);
    let err = transcript::verify(&(repeated.join("\n") + "\n")).unwrap_err();
    assert_eq!(err.entry, 2);
    assert!(err.message.contains("second copy of entry 1"), "{err}");
    // The two opening hellos did not see each other: the other order chains too, but is not the
    // fold order.
    let mut swapped = lines.clone();
    swapped.swap(4, 5);
    let err = transcript::verify(&(swapped.join("\n") + "\n")).unwrap_err();
    assert_eq!(err.entry, 0);
    assert!(err.message.contains("out of order"), "{err}");
}

#[test]
fn verifying_an_entry_at_a_time_gives_the_same_answer() {
    // A room with crossing entries, a fault (a move out of turn), a finished game and a rematch.
    let mut net = Loopback::new(GameKind::Meta, 0);
    let tokens: Vec<&str> = META_GAME.split(' ').collect();
    play_tokens(&mut net, &tokens[..6]);
    net.exchange(Seat::Host, Command::Propose(Proposal::Draw));
    net.act(Seat::Host, Command::Withdraw).unwrap();
    net.act(Seat::Guest, Command::Propose(Proposal::Undo))
        .unwrap();
    net.settle();
    let seen = last_seen(&net, Seat::Guest);
    let step = token_step(&net, "a1");
    let out_of_turn = lying(&net, Seat::Guest, Body::Play { game: 0, step }, seen);
    send(&mut net, out_of_turn);
    net.exchange(Seat::Host, Command::Resign);
    net.exchange(
        Seat::Guest,
        Command::Propose(Proposal::NewGame { max_turns: None }),
    );
    net.exchange(Seat::Host, Command::Reply { accept: true });
    play_tokens(&mut net, &["e5", "e4"]);
    let text = net.host().export();
    let lines: Vec<&str> = text.lines().collect();
    let mut files = vec![text.clone(), text.replace('\n', "\r\n"), lines.join("\n")];
    for i in (0..text.len()).step_by(97) {
        let mut b = text.as_bytes().to_vec();
        b[i] ^= 0x01;
        files.extend(String::from_utf8(b));
    }
    for (i, j) in [(4, 5), (7, 12), (9, 10)] {
        let mut l = lines.clone();
        l.swap(i, j);
        files.push(l.join("\n") + "\n");
    }
    let mut repeated = lines.clone();
    repeated.push(lines[8]);
    files.push(repeated.join("\n") + "\n");
    for file in &files {
        let whole = transcript::verify(file);
        let mut steps = 0;
        let stepped = transcript::Verifier::new(file.clone()).and_then(|mut v| {
            let mut last = v.progress();
            while !v.step(&mut || true)? {
                steps += 1;
                assert!(v.progress().0 > last.0 && v.progress().0 < v.progress().1);
                last = v.progress();
            }
            v.finish()
        });
        match (&whole, &stepped) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.entries, b.entries);
                assert_eq!(a.room, b.room);
                assert_eq!(a.faults, b.faults);
                assert_eq!(a.void, b.void);
                assert_eq!((a.host_key, a.guest_key), (b.host_key, b.guest_key));
                // Every entry read, then every entry folded, one per step.
                assert_eq!(steps, 2 * a.entries.len() - 1);
            }
            (Err(a), Err(b)) => assert_eq!(a, b),
            _ => panic!("{whole:?} but, a step at a time, {stepped:?}"),
        }
    }
    let v = transcript::verify(&text).unwrap();
    assert_eq!(v.faults.len(), 1, "{}", v.verdict());
    assert!(files[1..].iter().all(|f| transcript::verify(f).is_err()));
}

#[test]
fn verify_tells_every_game_of_the_room_with_colours_results_and_keys() {
    let mut net = Loopback::new(GameKind::Meta, 0);
    play_tokens(&mut net, &["e5"]);
    net.exchange(Seat::Guest, Command::Resign);
    net.exchange(
        Seat::Host,
        Command::Propose(Proposal::NewGame { max_turns: None }),
    );
    net.exchange(Seat::Guest, Command::Reply { accept: true });
    play_tokens(&mut net, &["e5", "e4"]);
    net.exchange(Seat::Host, Command::Propose(Proposal::Draw));
    net.exchange(Seat::Guest, Command::Reply { accept: true });
    net.exchange(
        Seat::Guest,
        Command::Propose(Proposal::NewGame { max_turns: None }),
    );
    net.exchange(Seat::Host, Command::Reply { accept: true });
    play_tokens(&mut net, &["a1"]);
    let v = verify(&net, Seat::Host);
    let games = v.room.games();
    assert_eq!(games.len(), 3);
    assert_eq!(
        (games[0].host, games[0].result, games[0].turns),
        (
            Player::Blue,
            Some((
                Some(Player::Blue),
                Finish::Ending(Ending::Resigned(Seat::Guest))
            )),
            1
        )
    );
    assert_eq!(
        (games[1].host, games[1].result, games[1].turns),
        (
            Player::Red,
            Some((None, Finish::Ending(Ending::DrawAgreed))),
            2
        )
    );
    assert_eq!(
        (games[2].host, games[2].result, games[2].turns),
        (Player::Blue, None, 1)
    );
    assert_eq!(v.host_key, net.host().invite().host_key.unwrap());
    assert_eq!(
        v.guest_key
            .map(|k| transcript::fingerprint(&k))
            .unwrap()
            .len(),
        16
    );
    assert!(v.faults.is_empty());
}

/// A small deterministic generator for the random games below.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Something a player may do; refused commands are simply not sent.
fn random_command(s: &Session, rng: &mut Rng) -> Command {
    let steps = s.game().map(Step::legal).unwrap_or_default();
    match rng.below(10) {
        0..=4 if !steps.is_empty() => Command::Play(steps[rng.below(steps.len())]),
        5 => Command::Propose(match rng.below(3) {
            0 => Proposal::Undo,
            1 => Proposal::Draw,
            _ => Proposal::NewGame { max_turns: None },
        }),
        6 | 7 => Command::Reply {
            accept: rng.below(3) != 0,
        },
        8 => Command::Withdraw,
        _ => {
            if rng.below(4) == 0 {
                Command::Resign
            } else {
                Command::Withdraw
            }
        }
    }
}

/// A random game played in step, then each side acting without having heard the other.
fn crossing(rng: &mut Rng) -> Loopback {
    crossing_up_to(rng, 3)
}

/// [`crossing`], each side acting at most `most` times without having heard the other.
fn crossing_up_to(rng: &mut Rng, most: usize) -> Loopback {
    let kind = if rng.below(2) == 0 {
        GameKind::Morris
    } else {
        GameKind::Meta
    };
    let mut net = Loopback::new(kind, 60);
    for _ in 0..rng.below(30) {
        let seat = if rng.below(2) == 0 {
            Seat::Host
        } else {
            Seat::Guest
        };
        let c = random_command(net.side(seat), rng);
        if net.act(seat, c).is_ok() {
            net.settle();
        }
    }
    // Each side acts, neither having heard the other: the mover mostly plays, the other
    // proposes, answers or withdraws.
    for seat in [Seat::Host, Seat::Guest] {
        for _ in 0..=rng.below(most) {
            let mut c = random_command(net.side(seat), rng);
            for _ in 0..8 {
                if net.side(seat).clone().act(c, net.now()).is_ok() {
                    break;
                }
                c = random_command(net.side(seat), rng);
            }
            let _ = net.act(seat, c);
        }
    }
    net
}

/// Every order of `n` things.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for p in permutations(n - 1) {
        for at in 0..=p.len() {
            let mut q = p.clone();
            q.insert(at, n - 1);
            all.push(q);
        }
    }
    all
}

/// Random games whose last entries cross both ways, each delivered in up to `orders_per_game`
/// different orders: every order in which each side may receive the other's crossing entries
/// (each side's arrivals permuted; what they send back comes after). All must end in one room,
/// the same on both sides and the same as the exported transcript's. Returns the games with crossing entries and the distinct orders run.
fn converge(games: usize, orders_per_game: usize, seed: u64) -> (usize, usize) {
    let mut rng = Rng(seed);
    let (mut crossed, mut orders) = (0, 0);
    for _ in 0..games {
        let net = crossing_up_to(&mut rng, 4);
        let (a, b) = (net.in_flight(Seat::Host), net.in_flight(Seat::Guest));
        if a == 0 || b == 0 {
            continue;
        }
        crossed += 1;
        // What is in flight is what each side sent last, in order.
        let flying = |to: Seat, n: usize| -> Vec<Vec<u8>> {
            let sent: Vec<&Vec<u8>> = net
                .sent()
                .iter()
                .filter(|(s, _)| *s == to)
                .map(|(_, m)| m)
                .collect();
            sent[sent.len() - n..].iter().map(|m| m.to_vec()).collect()
        };
        let (to_host, to_guest) = (flying(Seat::Host, a), flying(Seat::Guest, b));
        let mut pairs: Vec<(Vec<usize>, Vec<usize>)> = permutations(a)
            .into_iter()
            .flat_map(|pa| permutations(b).into_iter().map(move |pb| (pa.clone(), pb)))
            .collect();
        // A random choice of them, each once.
        for i in (1..pairs.len()).rev() {
            pairs.swap(i, rng.below(i + 1));
        }
        pairs.truncate(orders_per_game);
        let mut end = None;
        for (pa, pb) in pairs {
            let mut order = net.clone();
            order.clear(Seat::Host);
            order.clear(Seat::Guest);
            for i in pa {
                order.deliver_bytes(Seat::Host, &to_host[i]);
            }
            for i in pb {
                order.deliver_bytes(Seat::Guest, &to_guest[i]);
            }
            order.settle();
            assert!(order.in_sync(), "the two sides disagree");
            let room = order.host().room().clone();
            // Folded entry by entry as they came (fold.rs), it is the room the whole
            // transcript folds to from the start.
            assert_eq!(verify(&order, Seat::Host).room, room, "incremental fold");
            match &end {
                None => end = Some(room),
                Some(first) => assert_eq!(first, &room, "another order, another room"),
            }
            orders += 1;
        }
    }
    (crossed, orders)
}

#[test]
fn honest_races_converge_whatever_the_delivery_order() {
    let (crossed, orders) = converge(2_500, 16, 0x9e37_79b9_7f4a_7c15);
    println!(
        "honest races: {crossed} games with entries crossing both ways, {orders} distinct \
         delivery orders, each side's room identical in all of them"
    );
    assert!(orders >= 10_000, "only {orders} distinct orders");
}

/// The same, five times over (about 50 s):
/// `cargo test -p engine --test session_integrity -- --ignored`.
#[test]
#[ignore]
fn honest_races_converge_in_a_bigger_run() {
    let (crossed, orders) = converge(10_000, 32, 0x2545_f491_4f6c_dd1d);
    println!("honest races: {crossed} games with crossing entries, {orders} distinct orders");
    assert!(orders >= 50_000, "only {orders} distinct orders");
}

/// Whether each entry of a seat took effect (from the verified export).
fn results(net: &Loopback, seat: Seat) -> Vec<(u32, bool)> {
    let v = verify(net, Seat::Host);
    v.entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.seat() == seat)
        .map(|(i, e)| (e.seq(), !v.void.contains(&i)))
        .collect()
}

/// The liar's result in the current game: 2 a win, 1 a draw, 0 a loss; `None` while it goes on.
fn liar_result(room: &engine::session::Room, liar: Seat) -> Option<u8> {
    if room.in_progress() {
        return None;
    }
    Some(match room.winner() {
        Some(p) if p == room.player_of(liar) => 2,
        Some(_) => 0,
        None => 1,
    })
}

/// True when `a` had seen `b` (b is of the other seat and at or before what a names as seen).
fn saw(entries: &[Entry], a: &Entry, b: &Entry) -> bool {
    if a.seat() == b.seat() {
        return b.seq() < a.seq();
    }
    if a.header.seen == Digest32::ZERO {
        return false;
    }
    let named = entries
        .iter()
        .find(|x| x.seat() != a.seat() && x.hash() == a.header.seen)
        .map(Entry::seq);
    named.is_some_and(|n| b.seq() <= n)
}

/// A puppet key the liar may hand the honest seat to.
const PUPPET: [u8; 32] = [7; 32];

/// The body of a random entry for `liar` to write: what its player could do, or a hand-over of
/// the other seat to a key of its own.
fn lie_body(net: &Loopback, liar: Seat, rng: &mut Rng) -> Body {
    let s = net.side(liar);
    match rng.below(12) {
        0 => {
            let invite = s.invite();
            let key = SigningKey::from_bytes(&PUPPET).verifying_key().to_bytes();
            Body::Handover {
                seat: liar.other(),
                key,
                proof: engine::session::wire::join_proof(invite.room, &invite.secret, &key),
            }
        }
        1 => Body::Leave,
        _ => match random_command(s, rng) {
            Command::Play(step) => Body::Play {
                game: s.room().game_number,
                step,
            },
            Command::Propose(p) => Body::Propose(p),
            Command::Reply { accept } => match s.proposals()[1] {
                Some((open, _)) => Body::Reply {
                    proposal: open.seq,
                    accept,
                },
                None => Body::ClaimWin,
            },
            Command::Withdraw => match s.proposals()[0] {
                Some((open, _)) => Body::Withdraw {
                    proposal: open.seq,
                    expired: false,
                },
                None => Body::Resign,
            },
            _ => Body::Resign,
        },
    }
}

#[test]
fn a_lie_about_what_was_seen_never_reaches_past_it_nor_wins() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let (mut lies, mut twice, mut voided, mut handovers) = (0, 0, 0, 0);
    for round in 0..1_500 {
        let liar = if round % 2 == 0 {
            Seat::Guest
        } else {
            Seat::Host
        };
        let honest = liar.other();
        let mut net = crossing(&mut rng);
        // What the liar had really seen: everything delivered to it.
        while net.deliver(liar) {}
        net.clear(honest);
        let truth = entries_of(net.side(liar), honest).len();
        let floor = last_seen(&net, liar);
        // Nothing it had seen but did not declare already: no lie to tell.
        if truth == floor {
            continue;
        }
        let declared = floor + rng.below(truth - floor);
        let body = lie_body(&net, liar, &mut rng);
        // Sometimes a second entry follows: a claim (dated past the five minutes, so that only
        // what it declares decides), declaring at least as much as the first.
        let second = (matches!(body, Body::Withdraw { .. }) || rng.below(4) == 0)
            .then(|| declared + rng.below(truth - declared + 1));
        let mut honest_world = net.clone();
        let mut lying_world = net;
        let true_entry = lying(&honest_world, liar, body.clone(), truth);
        let lie = lying(&lying_world, liar, body.clone(), declared);
        send(&mut honest_world, true_entry);
        send(&mut lying_world, lie.clone());
        let mut lies_told = vec![lie.clone()];
        if let Some(seen) = second {
            let at = lying_world.now() + engine::session::room::CLAIM_MS + 1;
            let true_claim = lying_at(&honest_world, liar, Body::ClaimWin, truth, at);
            let claim = lying_at(&lying_world, liar, Body::ClaimWin, seen, at);
            send(&mut honest_world, true_claim);
            send(&mut lying_world, claim.clone());
            lies_told.push(claim);
            twice += 1;
        }
        if !lying_world.in_sync() {
            let (h, g) = (lying_world.host(), lying_world.guest());
            panic!(
                "round {round}: the two sides disagree after a lie {:?} declaring {declared} of {truth}\nhost {:?}\nguest {:?}\nhost entries {:?}\nguest entries {:?}",
                lie, h.room(), g.room(), h.entries(), g.entries()
            );
        }
        lies += 1;
        let (before, after) = (
            results(&honest_world, honest),
            results(&lying_world, honest),
        );
        let v = verify(&lying_world, honest);
        let crossed = |e: &Entry| {
            lies_told
                .iter()
                .any(|l| !saw(&v.entries, e, l) && !saw(&v.entries, l, e))
        };
        // The first honest entry whose effect the lies changed, if any, crossed one of them: a
        // lie can only act as if it had come first, never reach back past what it saw.
        let changed = before.iter().zip(&after).find(|(b, a)| b.1 != a.1);
        let mut decision_voided = false;
        if let Some(((seq, took), _)) = changed {
            let e = v
                .entries
                .iter()
                .find(|e| e.seat() == honest && e.seq() == *seq)
                .unwrap();
            assert!(
                crossed(e),
                "round {round}: the lie changed the honest {honest:?} entry #{seq} ({:?}) that it had seen",
                e.body
            );
            decision_voided = engine::session::chains::is_decision(&e.body) && *took;
            voided += usize::from(decision_voided);
        }
        // A hand-over changes no entry's effect, lie or not: the seat's entries it had not
        // seen keep their key and stand.
        if matches!(body, Body::Handover { .. }) {
            handovers += 1;
            assert_eq!(
                before, after,
                "round {round}: a hand-over changed an honest entry"
            );
        }
        // A lying decision that crossed anything is void.
        let lying_decision_void = lies_told.iter().any(|l| {
            engine::session::chains::is_decision(&l.body)
                && v.void
                    .contains(&v.entries.iter().position(|e| e == l).unwrap())
        });
        for l in &lies_told {
            if engine::session::chains::is_decision(&l.body)
                && v.entries
                    .iter()
                    .any(|o| o.seat() == honest && !saw(&v.entries, l, o) && !saw(&v.entries, o, l))
            {
                let index = v.entries.iter().position(|e| e == l).unwrap();
                assert!(
                    v.void.contains(&index),
                    "round {round}: a crossed decision took effect"
                );
            }
        }
        // And the liar never does better. With both games over in the same game: not a win
        // where the truth was a draw or a loss, not a draw where it was a loss. A lie that ended
        // a game the truth left going ended it by the liar's own loss. A lie that kept going a
        // game the truth ended (but for the liar's win), or changed which game is played, did
        // so because a decision that crossed it is void — an honest one, or the lying one
        // itself — since an answer or a claim counts only for what it had seen; the race rules
        // in docs/protocol.md say who wins which race.
        let (truth, told) = (
            liar_result(honest_world.host().room(), liar),
            liar_result(lying_world.host().room(), liar),
        );
        let same_game =
            lying_world.host().room().game_number == honest_world.host().room().game_number;
        match (truth, told) {
            (Some(truth), Some(told)) if same_game => assert!(
                told <= truth,
                "round {round}: the lie turned {truth} into {told} for the liar"
            ),
            (None, Some(told)) if same_game => assert_eq!(
                told, 0,
                "round {round}: the lie ended a game the truth left going, not as a loss"
            ),
            (None, None) if same_game => {}
            // The truth gave the liar the game; the lie, nothing yet.
            (Some(2), None) if same_game => {}
            _ => assert!(
                decision_voided || lying_decision_void,
                "round {round}: the lie {body:?} (then a claim: {second:?}) changed the game's course ({truth:?} → {told:?}, same game {same_game}) without voiding an honest decision"
            ),
        }
    }
    assert!(lies > 500, "only {lies} lies told");
    assert!(
        twice > 100 && handovers > 50,
        "{twice} second lies, {handovers} hand-overs"
    );
    println!(
        "{lies} lies ({twice} followed by a lying claim, {handovers} hand-overs), \
         {voided} of which voided a decision of the honest side"
    );
}

#[test]
fn no_lying_entry_of_the_loser_overturns_a_won_game() {
    // Once more as the loser, after the fixes: Red (the guest) has won; the host signs, each in
    // its own world, an entry declaring the winning move unseen — every kind it could.
    let mut net = Loopback::new(GameKind::Meta, 0);
    let tokens: Vec<&str> = META_GAME.split(' ').collect();
    play_tokens(&mut net, &tokens);
    assert_eq!(net.guest().room().winner(), Some(Player::Red));
    let unseen = entries_of(net.host(), Seat::Guest).len() - 1;
    let invite = net.host().invite().clone();
    let puppet = SigningKey::from_bytes(&PUPPET).verifying_key().to_bytes();
    let later = net.now() + engine::session::room::CLAIM_MS + 1;
    let bodies = [
        (Body::ClaimWin, later),
        (Body::Resign, net.now()),
        (Body::Leave, net.now()),
        (Body::Propose(Proposal::Undo), net.now()),
        (Body::Propose(Proposal::Draw), net.now()),
        (
            Body::Play {
                game: 0,
                step: token_step(&net, "a1"),
            },
            net.now(),
        ),
        (
            Body::Handover {
                seat: Seat::Guest,
                key: puppet,
                proof: engine::session::wire::join_proof(invite.room, &invite.secret, &puppet),
            },
            net.now(),
        ),
    ];
    for (body, time) in bodies {
        let mut world = net.clone();
        let lie = lying_at(&world, Seat::Host, body.clone(), unseen, time);
        world.deliver_entries(Seat::Guest, vec![lie.clone()]);
        world.deliver_entries(Seat::Host, vec![lie]);
        world.settle();
        // Red wins, by its move — or, when the host's own resignation or departure folds
        // first as if written a moment earlier, by that: the host loses either way.
        let guest = world.guest();
        assert_eq!(guest.room().winner(), Some(Player::Red), "{body:?}");
        let v = verify(&world, Seat::Guest);
        let result = v.room.games()[0].result.expect("the game is over");
        assert_eq!(result.0, Some(Player::Red), "{body:?}");
        if !matches!(body, Body::Resign | Body::Leave) {
            assert_eq!(result.1, Finish::Rules(Reason::Line), "{body:?}");
        }
    }
}

#[test]
fn a_device_cannot_knock_for_a_seat_whose_player_is_connected() {
    // A knock on the connection of a player who proved its seat is not considered: the present
    // player is never asked to give away a seat that is here.
    let mut net = Loopback::new(GameKind::Meta, 0);
    play_tokens(&mut net, &["e5"]);
    let key = SigningKey::from_bytes(&PUPPET);
    let public = key.verifying_key().to_bytes();
    let invite = net.host().invite().clone();
    let knock = engine::session::Message::Knock {
        key: public,
        proof: engine::session::wire::join_proof(invite.room, &invite.secret, &public),
        sig: engine::session::wire::Sig::sign(
            &key,
            &engine::session::wire::knock_bytes(invite.room, &public),
        ),
    };
    net.take_events();
    net.deliver_bytes(Seat::Host, &engine::session::wire::encode_message(&knock));
    assert!(net.host().knock().is_none());
    assert!(!net
        .events()
        .iter()
        .any(|(_, e)| matches!(e, engine::session::Event::Knock(_))));
    assert_eq!(
        net.act(Seat::Host, Command::Handover { accept: true }),
        Err(engine::session::CommandError::NoKnock)
    );
}

#[test]
fn a_crossing_entry_of_the_absent_player_refutes_a_claim() {
    let mut net = Loopback::new(GameKind::Meta, 0);
    play_tokens(&mut net, &["e5"]);
    net.freeze(Seat::Guest);
    net.advance(400_000);
    // The host claims; the guest, back, resigns at the same time without having seen it.
    net.act(Seat::Host, Command::ClaimWin).unwrap();
    net.thaw(Seat::Guest);
    net.clear(Seat::Guest);
    net.act(Seat::Guest, Command::Resign).unwrap();
    net.connect();
    net.settle();
    assert!(net.in_sync());
    assert_eq!(
        net.host().room().ending,
        Some(Ending::Resigned(Seat::Guest)),
        "the claim is void: the guest was there to resign"
    );
}

#[test]
fn every_changed_file_is_refused_bit_flips_reorders_repeats_and_splices() {
    // A room with crossing entries, a finished game and a rematch under way.
    let mut net = Loopback::new(GameKind::Meta, 0);
    let tokens: Vec<&str> = META_GAME.split(' ').collect();
    play_tokens(&mut net, &tokens[..6]);
    net.exchange(Seat::Host, Command::Propose(Proposal::Draw));
    net.act(Seat::Host, Command::Withdraw).unwrap();
    net.act(Seat::Guest, Command::Propose(Proposal::Undo))
        .unwrap();
    net.settle();
    net.exchange(Seat::Host, Command::Resign);
    net.exchange(
        Seat::Guest,
        Command::Propose(Proposal::NewGame { max_turns: None }),
    );
    net.exchange(Seat::Host, Command::Reply { accept: true });
    play_tokens(&mut net, &["e5", "e4"]);
    let text = net.host().export();
    assert!(transcript::verify(&text).is_ok());
    let head: Vec<&str> = text.lines().take(4).collect();
    let lines: Vec<&str> = text.lines().skip(4).collect();
    let file = |entries: &[&str]| format!("{}\n{}\n", head.join("\n"), entries.join("\n"));
    let refused = |t: &str| transcript::verify(t).is_err();
    // Bit flips: two bits of every third byte (every byte: see the session's own tests).
    let (mut flips, mut flips_refused) = (0, 0);
    for i in (0..text.len()).step_by(3) {
        for bit in [0x01u8, 0x20] {
            let mut b = text.as_bytes().to_vec();
            b[i] ^= bit;
            if let Ok(t) = String::from_utf8(b) {
                flips += 1;
                flips_refused += usize::from(refused(&t));
            }
        }
    }
    // Reorders: every pair of entries swapped.
    let (mut swaps, mut swaps_refused) = (0, 0);
    for i in 0..lines.len() {
        for j in i + 1..lines.len() {
            let mut l = lines.clone();
            l.swap(i, j);
            swaps += 1;
            swaps_refused += usize::from(refused(&file(&l)));
        }
    }
    // Repeats: every entry written twice, right after itself and at the end.
    let (mut repeats, mut repeats_refused) = (0, 0);
    for i in 0..lines.len() {
        for at in [i + 1, lines.len()] {
            let mut l = lines.clone();
            l.insert(at, lines[i]);
            repeats += 1;
            repeats_refused += usize::from(refused(&file(&l)));
        }
    }
    // Splices: an entry of another game of the same players in the same room (a branch where
    // the guest played another move), put in every place.
    let mut other = Loopback::new(GameKind::Meta, 0);
    play_tokens(&mut other, &tokens[..5]);
    let steps = Step::legal(other.host().game().unwrap());
    let elsewhere = *steps
        .iter()
        .find(|s| **s != token_step(&other, tokens[5]))
        .unwrap();
    other.exchange(Seat::Guest, Command::Play(elsewhere));
    let foreign_text = other.host().export();
    let foreign: Vec<&str> = foreign_text
        .lines()
        .skip(4)
        .filter(|l| !lines.contains(l))
        .collect();
    assert!(!foreign.is_empty());
    let (mut splices, mut splices_refused) = (0, 0);
    for f in &foreign {
        for at in 0..=lines.len() {
            let mut l = lines.clone();
            l.insert(at, f);
            splices += 1;
            splices_refused += usize::from(refused(&file(&l)));
        }
        for at in 0..lines.len() {
            let mut l = lines.clone();
            l[at] = f;
            splices += 1;
            splices_refused += usize::from(refused(&file(&l)));
        }
    }
    println!(
        "refused: {flips_refused}/{flips} bit flips, {swaps_refused}/{swaps} swaps, \
         {repeats_refused}/{repeats} repeats, {splices_refused}/{splices} splices"
    );
    assert_eq!(flips_refused, flips);
    assert_eq!(swaps_refused, swaps);
    assert_eq!(repeats_refused, repeats);
    assert_eq!(splices_refused, splices);
}
