//! Seats are keys: presence means a proven key, and a seat moves to another device only with the
//! present player's signed consent. A device that cannot prove the other seat's key is a
//! stranger (the seat counts as away); a new device with the room secret knocks, the present
//! player accepts or refuses, and an accepted hand-over is an entry `engine verify` checks.

mod common;
use common::{entries_of, lying, signed, META_GAME};
use ed25519_dalek::SigningKey;
use engine::session::transcript;
use engine::session::wire::{encode_message, join_proof, Header, Sig};
use engine::session::{
    room, Body, Command, CommandError, Config, Digest32, Effect, Ending, Entry, Event, Finish,
    Loopback, Message, Presence, Proposal, Refusal, RoomEvent, Seat, Session, Standing, Step, Void,
    GUEST_SEED, HOST_SEED,
};
use engine::{GameKind, Player, Reason};

const NEW_DEVICE: [u8; 32] = [7; 32];

fn play(net: &mut Loopback, n: usize) {
    for i in 0..n {
        let Some(seat) = net.mover() else { return };
        let steps = Step::legal(net.host().game().unwrap());
        net.exchange(seat, Command::Play(steps[(i * 7 + 3) % steps.len()]));
    }
}

fn has(net: &Loopback, side: Seat, want: impl Fn(&Event) -> bool) -> bool {
    net.events().iter().any(|(s, e)| *s == side && want(e))
}

fn sends(effects: Vec<Effect>) -> Vec<Vec<u8>> {
    effects
        .into_iter()
        .filter_map(|e| match e {
            Effect::Send(bytes) => Some(bytes),
            _ => None,
        })
        .collect()
}

/// A game under way; then the guest's device goes, and a new device opens the same link and
/// meets the host (in the guest's slot of the returned loopback).
fn new_device_meets_the_host(kind: GameKind) -> (Loopback, Session) {
    let mut net = Loopback::new(kind, 100);
    play(&mut net, 4);
    net.disconnect();
    net.advance(10_000);
    let old_guest = net.guest().clone();
    let newcomer = Session::guest(
        net.host().invite().clone(),
        NEW_DEVICE,
        Config::default(),
        net.now(),
    );
    let host = net.host().clone();
    let mut net = Loopback::with_sessions(host, newcomer);
    net.set_now(old_guest.entries().last().unwrap().header.time + 10_000);
    (net, old_guest)
}

#[test]
fn a_device_that_cannot_prove_the_seat_is_a_stranger_and_the_seat_stays_away() {
    let (mut net, _) = new_device_meets_the_host(GameKind::Meta);
    // The host sees someone, but not its guest: still away, the reservation still running.
    assert!(net.host().stranger());
    assert!(matches!(net.host().presence(), Presence::Away { .. }));
    assert!(!net.host().my_turn() && !net.guest().my_turn());
    assert!(has(&net, Seat::Host, |e| *e == Event::Stranger));
    // The newcomer learnt that another key holds the guest seat, and asked for it at once.
    assert!(has(&net, Seat::Guest, |e| matches!(
        e,
        Event::Refused {
            seat: Seat::Guest,
            why: Refusal::Intruder,
            ..
        }
    )));
    assert!(matches!(net.guest().standing(), Standing::Knocking { .. }));
    // It holds the real transcript now, not its own refused hello.
    assert_eq!(net.guest().entries(), net.host().entries());
    // While it waits, it can do nothing but wait.
    for c in [Command::Resign, Command::Leave, Command::Withdraw] {
        assert_eq!(net.act(Seat::Guest, c), Err(CommandError::NotSeated));
    }
    // Nobody answers: the knock lapses, and the reservation runs out though a device is
    // connected: the host may claim the game.
    net.advance(300_000);
    assert!(net.host().knock().is_none());
    assert_eq!(net.act(Seat::Host, Command::ClaimWin), Ok(()));
}

#[test]
fn a_new_device_takes_the_away_seat_only_with_the_present_players_consent() {
    let (mut net, old_guest) = new_device_meets_the_host(GameKind::Morris);
    assert!(has(&net, Seat::Host, |e| *e == Event::Knock(Seat::Guest)));
    let (knock, due) = net.host().knock().expect("the host is asked");
    assert_eq!(knock.seat, Seat::Guest);
    assert_eq!(due, knock.since + Config::default().proposal_ms);
    assert_eq!(
        knock.key,
        SigningKey::from_bytes(&NEW_DEVICE)
            .verifying_key()
            .to_bytes()
    );
    let turns = net.host().game().unwrap().turns();
    net.exchange(Seat::Host, Command::Handover { accept: true });
    assert_eq!(net.guest().standing(), Standing::Seated);
    assert_eq!(net.guest().seat(), Seat::Guest);
    assert_eq!(
        net.host().presence(),
        Presence::Here,
        "it proved the new key"
    );
    assert_eq!(net.guest().presence(), Presence::Here);
    assert!(!net.host().stranger());
    assert!(has(&net, Seat::Guest, |e| *e
        == Event::Room(RoomEvent::HandedOver(Seat::Guest))));
    assert!(net.in_sync());
    assert_eq!(
        net.guest().game().unwrap().turns(),
        turns,
        "the game goes on"
    );
    // It plays on; the transcript, hand-over included, verifies to the same game.
    play(&mut net, 6);
    assert!(net.in_sync());
    assert_eq!(net.host().game().unwrap().turns(), turns + 6);
    let v = transcript::verify(&net.host().export()).unwrap();
    assert_eq!(v.game(), net.host().game());
    assert!(v.faults.is_empty());
    // The old device's key no longer writes for the seat: what it writes unaware, where the new
    // device wrote, is refused.
    let mut old = old_guest;
    let _ = old.peer_connected(net.now());
    let resign = old
        .act(Command::Resign, net.now())
        .expect("its own session still thinks the seat is its");
    let before = net.host().room().clone();
    net.take_events();
    for bytes in sends(resign) {
        net.deliver_bytes(Seat::Host, &bytes);
    }
    assert_eq!(net.host().room(), &before, "the old key changes nothing");
    assert!(has(&net, Seat::Host, |e| matches!(
        e,
        Event::Refused {
            seat: Seat::Guest,
            why: Refusal::Superseded,
            ..
        }
    )));
    // Told of the hand-over, the old device learns its seat went elsewhere. Nothing it wrote is
    // undone, not even there: its resignation, signed before it knew, stays in its transcript,
    // and the new device's entry with that number is a fork there (two devices wrote for the
    // seat), with no alarm about the hand-over itself: it was away.
    let mut back = Vec::new();
    for bytes in sends(net.side_mut(Seat::Host).peer_connected(0)) {
        back.extend(old.receive(&bytes, 0));
    }
    // (Twice: what follows the hand-over comes again with the next heads.)
    for _ in 0..2 {
        for m in net.host().entries().chunks(40) {
            back.extend(old.receive(&encode_message(&Message::Entries(m.to_vec())), 0));
        }
    }
    assert_eq!(old.standing(), Standing::HandedAway);
    assert!(back.contains(&Effect::Event(Event::Standing(Standing::HandedAway))));
    assert!(!back
        .iter()
        .any(|e| matches!(e, Effect::Event(Event::HandedOverWhileHere { .. }))));
    assert!(old
        .entries()
        .iter()
        .any(|e| e.seat() == Seat::Guest && e.body == Body::Resign));
    assert_eq!(old.forked_seat(), Some(Seat::Guest));
    assert_eq!(old.act(Command::Resign, 0), Err(CommandError::NotSeated));
    // And it restores as what it is now.
    let restored = Session::restore(old.save()).unwrap();
    assert_eq!(restored.standing(), Standing::HandedAway);
    // The new device reloads into its seat.
    net.restart(Seat::Guest);
    net.connect();
    net.settle();
    assert_eq!(net.guest().seat(), Seat::Guest);
    assert_eq!(net.guest().standing(), Standing::Seated);
    assert_eq!(net.host().presence(), Presence::Here);
    play(&mut net, 2);
    assert!(net.in_sync());
}

#[test]
fn the_hosts_seat_moves_too_when_the_guest_is_the_one_present() {
    // The host's device goes; a device with the link (no saved seat: it comes as a guest)
    // meets the guest, is refused the guest seat, and asks for the host's.
    let mut net = Loopback::new(GameKind::Meta, 100);
    play(&mut net, 3);
    net.disconnect();
    net.advance(7_000);
    let newcomer = Session::guest(
        net.host().invite().clone(),
        NEW_DEVICE,
        Config::default(),
        net.now(),
    );
    let guest = net.guest().clone();
    // The newcomer sits in the host's slot of the loopback.
    let mut net = Loopback::with_sessions(newcomer, guest);
    net.set_now(net.guest().entries().last().unwrap().header.time + 7_000);
    assert!(matches!(net.host().standing(), Standing::Knocking { .. }));
    assert_eq!(net.guest().knock().unwrap().0.seat, Seat::Host);
    net.exchange(Seat::Guest, Command::Handover { accept: true });
    assert_eq!(
        net.host().seat(),
        Seat::Host,
        "the newcomer is the host now"
    );
    assert_eq!(net.host().standing(), Standing::Seated);
    assert_eq!(net.guest().presence(), Presence::Here);
    play(&mut net, 4);
    assert!(net.in_sync());
    let v = transcript::verify(&net.guest().export()).unwrap();
    assert_eq!(v.game(), net.guest().game());
    assert_eq!(v.game().unwrap().turns(), 7);
}

#[test]
fn a_refused_or_unanswered_knock_leaves_the_seat_with_its_key() {
    let (mut net, _) = new_device_meets_the_host(GameKind::Meta);
    net.exchange(Seat::Host, Command::Handover { accept: false });
    assert_eq!(
        net.guest().standing(),
        Standing::Refused {
            expired: false,
            at: net.now()
        }
    );
    assert!(net.host().knock().is_none());
    assert_eq!(
        net.act(Seat::Host, Command::Handover { accept: true }),
        Err(CommandError::NoKnock)
    );
    // Asking again at once is refused, and says until when.
    assert_eq!(
        net.act(Seat::Guest, Command::Knock),
        Err(CommandError::Refused(Void::CoolingDown))
    );
    assert_eq!(
        net.guest().knock_again_at(),
        Some(net.now() + room::COOLDOWN_MS)
    );
    net.advance(room::COOLDOWN_MS);
    net.exchange(Seat::Guest, Command::Knock);
    assert!(net.host().knock().is_some());
    // A knock unanswered for a minute lapses, and the device is told.
    net.advance(60_000);
    assert!(net.host().knock().is_none());
    assert!(matches!(
        net.guest().standing(),
        Standing::Refused { expired: true, .. }
    ));
    assert_eq!(
        net.act(Seat::Host, Command::Handover { accept: true }),
        Err(CommandError::NoKnock)
    );
    assert_eq!(
        transcript::verify(&net.host().export()).unwrap().game(),
        net.host().game()
    );
    // The seated side has nothing to ask for.
    assert_eq!(
        net.act(Seat::Host, Command::Knock),
        Err(CommandError::Seated)
    );
}

#[test]
fn the_hand_over_survives_lost_duplicated_and_reordered_messages() {
    for seed in 1..=40u64 {
        let (mut net, _) = new_device_meets_the_host(GameKind::Morris);
        net.random_faults(seed, 30);
        // The knock may have been lost on the way in: the device asks until it is heard.
        for _ in 0..50 {
            if net.host().knock().is_some() {
                break;
            }
            net.disconnect();
            net.connect();
            net.advance(2_000);
        }
        assert!(net.host().knock().is_some(), "seed {seed}: knock heard");
        net.act(Seat::Host, Command::Handover { accept: true })
            .unwrap();
        for _ in 0..200 {
            if net.guest().standing() == Standing::Seated
                && net.host().presence() == Presence::Here
                && net.in_sync()
            {
                break;
            }
            net.advance(1_000);
        }
        assert_eq!(net.guest().standing(), Standing::Seated, "seed {seed}");
        assert_eq!(net.host().presence(), Presence::Here, "seed {seed}");
        assert!(net.in_sync(), "seed {seed}");
        let v = transcript::verify(&net.host().export()).unwrap();
        assert!(v.faults.is_empty(), "seed {seed}");
    }
}

/// Signs `body` as the next guest entry with `seed`'s key, after what the host holds.
fn next_guest_entry(host: &Session, seed: [u8; 32], body: Body, time: u64) -> Entry {
    let last = |seat| host.entries().into_iter().rev().find(|e| e.seat() == seat);
    let guest = last(Seat::Guest).unwrap();
    let header = Header {
        room: host.invite().room,
        seat: Seat::Guest,
        seq: guest.seq() + 1,
        time,
        prev: guest.hash(),
        seen: last(Seat::Host).map_or(Digest32::ZERO, |e| e.hash()),
    };
    Entry::sign(&SigningKey::from_bytes(&seed), header, body)
}

#[test]
fn an_unapproved_key_never_plays() {
    let (mut net, _) = new_device_meets_the_host(GameKind::Meta);
    let step = Step::legal(net.host().game().unwrap())[0];
    let forged = next_guest_entry(
        net.host(),
        NEW_DEVICE,
        Body::Play { game: 0, step },
        net.now(),
    );
    let before = net.host().room().clone();
    net.take_events();
    net.deliver_bytes(Seat::Host, &encode_message(&Message::Entries(vec![forged])));
    assert_eq!(net.host().room(), &before);
    assert!(has(&net, Seat::Host, |e| matches!(
        e,
        Event::Refused {
            why: Refusal::BadSignature,
            ..
        }
    )));
}

#[test]
fn a_seat_cannot_hand_itself_over_nor_to_a_key_without_the_secret() {
    let mut net = Loopback::new(GameKind::Meta, 100);
    play(&mut net, 2);
    let room = net.host().invite().room;
    let secret = net.host().invite().secret;
    let key = SigningKey::from_bytes(&NEW_DEVICE)
        .verifying_key()
        .to_bytes();
    let host_key = SigningKey::from_bytes(&HOST_SEED)
        .verifying_key()
        .to_bytes();
    let guest_key = SigningKey::from_bytes(&GUEST_SEED)
        .verifying_key()
        .to_bytes();
    let cases = [
        // The guest hands its own seat to a key it chose: a seat moves only by the other's
        // consent.
        (
            Seat::Guest,
            key,
            join_proof(room, &secret, &key),
            Refusal::BadHandover,
        ),
        // The host's seat to the guest's own key: one key for both seats.
        (
            Seat::Host,
            guest_key,
            join_proof(room, &secret, &guest_key),
            Refusal::BadHandover,
        ),
        // The host's seat to its current key: nothing moves.
        (
            Seat::Host,
            host_key,
            join_proof(room, &secret, &host_key),
            Refusal::BadHandover,
        ),
        // A key that does not prove the room secret.
        (Seat::Host, key, [0; 32], Refusal::BadProof),
    ];
    for (seat, key, proof, why) in cases {
        let e = next_guest_entry(
            net.host(),
            GUEST_SEED,
            Body::Handover { seat, key, proof },
            net.now(),
        );
        let before = net.host().entries();
        net.take_events();
        net.deliver_entries(Seat::Host, vec![e]);
        assert_eq!(net.host().entries(), before, "{why:?}");
        assert!(
            has(
                &net,
                Seat::Host,
                |e| matches!(e, Event::Refused { why: w, .. } if *w == why)
            ),
            "{why:?}"
        );
    }
    // The host, present, is asked nothing and keeps its seat.
    assert_eq!(net.host().standing(), Standing::Seated);
    assert_eq!(net.host().presence(), Presence::Here);
}

#[test]
fn presence_needs_a_fresh_proof_on_each_connection() {
    let mut net = Loopback::new(GameKind::Meta, 100);
    play(&mut net, 2);
    assert_eq!(net.host().presence(), Presence::Here);
    // A proof the guest gave on an earlier connection, replayed on a new one, proves nothing.
    let old_proof = net
        .sent()
        .iter()
        .find(|(to, bytes)| {
            *to == Seat::Host
                && matches!(
                    engine::session::wire::decode_message(bytes),
                    Ok(Message::Proof { .. })
                )
        })
        .map(|(_, b)| b.clone())
        .expect("the guest proved its seat");
    net.disconnect();
    net.advance(1_000);
    let mut host = net.host().clone();
    let mut events = host.peer_connected(net.now());
    events.extend(host.receive(&old_proof, net.now()));
    assert!(matches!(host.presence(), Presence::Away { .. }));
    assert!(host.stranger());
    // Nor does a signature by a key that is not the guest's.
    let mut host = net.host().clone();
    let challenge = sends(host.peer_connected(net.now()))
        .into_iter()
        .find_map(|b| match engine::session::wire::decode_message(&b) {
            Ok(Message::Challenge(c)) => Some(c),
            _ => None,
        })
        .unwrap();
    let sig = Sig::sign(
        &SigningKey::from_bytes(&NEW_DEVICE),
        &engine::session::wire::presence_bytes(host.invite().room, &challenge, Seat::Guest),
    );
    host.receive(
        &encode_message(&Message::Proof {
            seat: Seat::Guest,
            sig,
        }),
        net.now(),
    );
    assert!(host.stranger());
    assert!(matches!(host.presence(), Presence::Away { .. }));
    // A device that says nothing is a stranger after the silence limit.
    let mut host = net.host().clone();
    let _ = host.peer_connected(net.now());
    assert!(!host.stranger());
    let since = net.now();
    loop {
        let t = host.next_wakeup().unwrap();
        let out = host.tick(t);
        if out.contains(&Effect::Event(Event::Stranger)) {
            assert_eq!(t, since + Config::default().silence_ms);
            break;
        }
        // Meanwhile it is asked again, in case the challenge was lost.
        assert!(sends(out).iter().any(|b| matches!(
            engine::session::wire::decode_message(b),
            Ok(Message::Challenge(_))
        )));
    }
    assert!(host.stranger());
}

#[test]
fn a_forged_guest_hello_does_not_unseat_a_guest_that_played() {
    let mut net = Loopback::new(GameKind::Meta, 100);
    play(&mut net, 2);
    // The host signs a guest hello for a key of its own and sends it to the real guest.
    let key = SigningKey::from_bytes(&NEW_DEVICE);
    let header = Header {
        room: net.host().invite().room,
        seat: Seat::Guest,
        seq: 0,
        time: 0,
        prev: Digest32::ZERO,
        seen: Digest32::ZERO,
    };
    let public = key.verifying_key().to_bytes();
    let body = Body::Hello {
        protocol: engine::session::wire::PROTOCOL_VERSION,
        rules: net.host().invite().rules,
        key: public,
        proof: join_proof(header.room, &net.host().invite().secret, &public),
    };
    let forged = Entry::sign(&key, header, body);
    net.deliver_entries(Seat::Guest, vec![forged]);
    assert_eq!(net.guest().standing(), Standing::Seated);
    play(&mut net, 2);
    assert!(net.in_sync());
}

#[test]
fn a_device_with_the_link_cannot_unseat_a_guest_that_has_not_moved() {
    // The host plays first, then is away; the guest has written nothing but its hello. Another
    // device with the link (the host on a phone, the friend's messaging-app browser) meets the
    // guest, and the heads exchange swaps both hellos.
    let mut net = Loopback::new(GameKind::Meta, 100);
    play(&mut net, 1);
    net.disconnect();
    net.advance(7_000);
    let guest = net.guest().clone();
    let guest_entries = guest.entries();
    assert_eq!(guest_entries.len(), 3, "two hellos and the host's move");
    let newcomer = Session::guest(
        net.host().invite().clone(),
        NEW_DEVICE,
        Config::default(),
        net.now(),
    );
    let mut net = Loopback::with_sessions(newcomer, guest);
    net.set_now(net.guest().entries().last().unwrap().header.time + 7_000);
    // The host's move saw the guest's hello: the guest seat is the guest's, whatever hello of
    // another key comes. The guest stays seated and the newcomer is the one that asks.
    // (Its hello is refused, as any second guest hello is.)
    assert_eq!(net.guest().standing(), Standing::Seated);
    assert!(!has(&net, Seat::Guest, |e| matches!(e, Event::Standing(_))));
    assert_eq!(
        net.guest().entries()[..3],
        guest_entries[..],
        "its own hello stays in its transcript"
    );
    assert!(matches!(net.host().standing(), Standing::Knocking { .. }));
    assert!(net.guest().stranger(), "the newcomer proves no seat");
    assert_eq!(net.guest().knock().unwrap().0.seat, Seat::Host);
    // The guest may let it take the host's seat, which is away, and the game goes on.
    net.exchange(Seat::Guest, Command::Handover { accept: true });
    assert_eq!(net.host().seat(), Seat::Host);
    assert_eq!(net.host().standing(), Standing::Seated);
    play(&mut net, 3);
    assert!(net.in_sync());
    assert_eq!(net.guest().game().unwrap().turns(), 4);
}

#[test]
fn a_guest_hello_only_the_other_guest_holds_unseats_nobody() {
    // Two devices with the link meet while the host is away; the host acknowledged neither.
    let mut net = Loopback::new(GameKind::Meta, 100);
    let invite = net.host().invite().clone();
    net.disconnect();
    let mut first = Session::guest(invite.clone(), [21; 32], Config::default(), 0);
    let host_hello: Vec<Entry> = net
        .host()
        .entries()
        .into_iter()
        .filter(|e| e.seat() == Seat::Host)
        .collect();
    let _ = first.receive(&encode_message(&Message::Entries(host_hello)), 0);
    let second = Session::guest(invite, [22; 32], Config::default(), 0);
    let mut net = Loopback::with_sessions(first, second);
    net.advance(10_000);
    // Neither hello is acknowledged by the host: neither device gives way to the other.
    assert_eq!(net.host().standing(), Standing::Seated);
    assert_eq!(net.guest().standing(), Standing::Seated);
    assert!(!has(&net, Seat::Host, |e| matches!(e, Event::Standing(_))));
    assert!(!has(&net, Seat::Guest, |e| matches!(e, Event::Standing(_))));
}

#[test]
fn a_friend_meeting_the_host_that_bound_another_key_gives_way_and_knocks() {
    // The host tried its own link first: the guest seat is bound to that tab's key, and the
    // host wrote nothing since. The friend's device meets the host, which proves the host key.
    let net = Loopback::new(GameKind::Morris, 100);
    let host = net.host().clone();
    assert_eq!(
        host.entries()
            .iter()
            .filter(|e| e.seat() == Seat::Host)
            .count(),
        1
    );
    let friend = Session::guest(host.invite().clone(), NEW_DEVICE, Config::default(), 0);
    let net = Loopback::with_sessions(host, friend);
    assert!(matches!(net.guest().standing(), Standing::Knocking { .. }));
    assert!(has(&net, Seat::Guest, |e| matches!(
        e,
        Event::Refused {
            why: Refusal::Intruder,
            ..
        }
    )));
    assert_eq!(net.guest().entries(), net.host().entries());
}

/// A hand-over of `seat` to the new device's key, as the other seat would sign it.
fn handover_of(net: &Loopback, seat: Seat) -> Body {
    let invite = net.host().invite();
    let key = SigningKey::from_bytes(&NEW_DEVICE)
        .verifying_key()
        .to_bytes();
    Body::Handover {
        seat,
        key,
        proof: join_proof(invite.room, &invite.secret, &key),
    }
}

fn meta_step(token: &str) -> Step {
    Step::from_cell(engine::meta::Cell::from_name(token).unwrap())
}

fn play_meta(net: &mut Loopback, tokens: &[&str]) {
    for t in tokens {
        let seat = net.mover().unwrap();
        net.exchange(seat, Command::Play(meta_step(t)));
    }
}

#[test]
fn a_hand_over_with_an_out_of_date_seen_cannot_overturn_a_won_game() {
    let mut net = Loopback::new(GameKind::Meta, 0);
    let tokens: Vec<&str> = META_GAME.split(' ').collect();
    play_meta(&mut net, &tokens);
    let guest = net.guest();
    assert_eq!(
        guest.room().winner(),
        Some(Player::Red),
        "Red (the guest) won"
    );
    let win = entries_of(guest, Seat::Guest).last().unwrap().clone();
    // The guest is here, proved. The host signs a hand-over of the guest's seat to a key of its
    // own, declaring it had not seen the winning move, then that key resigns for the guest.
    let unseen = win.seq() as usize;
    let handover = lying(&net, Seat::Host, handover_of(&net, Seat::Guest), unseen);
    net.take_events();
    net.deliver_entries(Seat::Guest, vec![handover.clone()]);
    // The puppet continues the chain as the host last held it (the win unseen).
    let mut chain = entries_of(net.host(), Seat::Guest);
    chain.truncate(unseen);
    let header = Header {
        room: net.host().invite().room,
        seat: Seat::Guest,
        seq: unseen as u32,
        time: net.now() + 1,
        prev: chain.last().unwrap().hash(),
        seen: handover.hash(),
    };
    let resign = Entry::sign(&SigningKey::from_bytes(&NEW_DEVICE), header, Body::Resign);
    net.deliver_entries(Seat::Guest, vec![resign.clone()]);
    net.clear(Seat::Host);
    let guest = net.guest();
    // The win stands, and stays in the winner's own transcript.
    assert_eq!(guest.room().winner(), Some(Player::Red));
    assert_eq!(guest.room().ending, None);
    assert!(guest.entries().contains(&win));
    // The guest's seat is gone from this device, and it says the seat was taken while it was
    // here; the new key's conflicting entry is a fork, kept as proof.
    assert_eq!(guest.standing(), Standing::HandedAway);
    assert!(guest.handed_over_while_here());
    assert!(has(&net, Seat::Guest, |e| *e
        == Event::HandedOverWhileHere {
            handover: handover.seq(),
            crossed: 1
        }));
    assert!(has(&net, Seat::Guest, |e| *e == Event::Fork(Seat::Guest)));
    assert_eq!(guest.fork_proofs()[0], (win.clone(), resign));
    // Its export verifies as Red's win and names the hand-over, who signed it, and the entry
    // it had not seen.
    let v = transcript::verify(&guest.export()).unwrap();
    assert_eq!(
        v.room.games()[0].result,
        Some((Some(Player::Red), Finish::Rules(Reason::Line)))
    );
    assert_eq!(v.handovers.len(), 1);
    assert_eq!(
        (v.handovers[0].seat, v.handovers[0].crossed),
        (Seat::Guest, 1)
    );
    assert!(
        v.verdict().contains("the host signed entry")
            && v.verdict().contains("gave the guest's seat (Red)")
            && v.verdict()
                .contains("1 entry of the guest it had not seen stands"),
        "{}",
        v.verdict()
    );
}

#[test]
fn a_present_seat_taken_by_a_hand_over_is_reported_and_named_by_verify() {
    // What a hand-over can still do against a present player who wrote nothing it had not
    // seen: take the seat for what comes next (here its new key resigns). It cannot be done
    // unseen: the victim's session says so, and verify names the hand-over and its signer.
    let mut net = Loopback::new(GameKind::Meta, 0);
    let tokens: Vec<&str> = META_GAME.split(' ').collect();
    play_meta(&mut net, &tokens[..10]);
    let seen = entries_of(net.guest(), Seat::Host).len();
    let handover = lying(&net, Seat::Guest, handover_of(&net, Seat::Host), seen);
    net.take_events();
    net.deliver_entries(Seat::Host, vec![handover.clone()]);
    net.clear(Seat::Guest);
    assert_eq!(net.host().standing(), Standing::HandedAway);
    assert!(has(&net, Seat::Host, |e| *e
        == Event::HandedOverWhileHere {
            handover: handover.seq(),
            crossed: 0
        }));
    let resign = signed(
        net.host(),
        NEW_DEVICE,
        Seat::Host,
        Body::Resign,
        entries_of(net.host(), Seat::Guest).len(),
        net.now(),
    );
    net.deliver_entries(Seat::Host, vec![resign]);
    net.clear(Seat::Guest);
    assert_eq!(net.host().room().ending, Some(Ending::Resigned(Seat::Host)));
    let v = transcript::verify(&net.host().export()).unwrap();
    assert!(
        v.verdict().contains("the guest signed entry")
            && v.verdict()
                .contains("gave the host's seat (Blue) to the key"),
        "{}",
        v.verdict()
    );
    // Had the host moved meanwhile, that move would stand: signed by the host's own key, it had
    // not seen the hand-over.
    let mut net = Loopback::new(GameKind::Meta, 0);
    play_meta(&mut net, &tokens[..10]);
    let seen = entries_of(net.guest(), Seat::Host).len();
    net.act(Seat::Host, Command::Play(meta_step(tokens[10])))
        .unwrap();
    let handover = lying(&net, Seat::Guest, handover_of(&net, Seat::Host), seen);
    net.deliver_entries(Seat::Guest, vec![handover.clone()]);
    net.deliver_entries(Seat::Host, vec![handover]);
    net.settle();
    assert!(net.in_sync());
    assert_eq!(
        net.host().game().unwrap().turns(),
        11,
        "the host's move stands"
    );
    assert_eq!(net.host().standing(), Standing::HandedAway);
    assert!(net.host().handed_over_while_here());
}

#[test]
fn verify_and_the_live_session_agree_on_an_entry_that_crossed_a_hand_over() {
    // The host moves; the guest, not having seen it, hands the host's seat over. The host's
    // move was signed by the host's own key before it knew of the hand-over: it stands, in the
    // live session whatever the order of arrival, and in an exported file.
    let mut net = Loopback::new(GameKind::Meta, 0);
    let tokens: Vec<&str> = META_GAME.split(' ').collect();
    play_meta(&mut net, &tokens[..10]);
    let seen = entries_of(net.guest(), Seat::Host).len();
    net.act(Seat::Host, Command::Play(meta_step(tokens[10])))
        .unwrap();
    net.clear(Seat::Guest);
    let handover = lying(&net, Seat::Guest, handover_of(&net, Seat::Host), seen);
    let mv = entries_of(net.host(), Seat::Host).last().unwrap().clone();
    // Live, the hand-over first, then the move.
    net.deliver_entries(Seat::Guest, vec![handover.clone()]);
    net.take_events();
    net.deliver_entries(Seat::Guest, vec![mv.clone()]);
    net.clear(Seat::Host);
    assert!(!has(&net, Seat::Guest, |e| matches!(
        e,
        Event::Refused { .. }
    )));
    assert_eq!(net.guest().game().unwrap().turns(), 11);
    // Offline, in fold order (the move first): the same room.
    let mut all = net.host().entries();
    all.push(handover);
    let v = transcript::verify(&transcript::export(net.host().invite(), &all)).unwrap();
    assert_eq!(&v.room, net.guest().room());
    assert_eq!(v.entries, net.guest().entries());
    assert_eq!(v.handovers[0].crossed, 1);
}

#[test]
fn an_old_device_that_wrote_while_away_keeps_its_entry_and_suspends_nobody_else() {
    // The guest's device, disconnected, resigns; the host, not knowing, lets a new device take
    // the guest's seat. Nothing the old device wrote is undone.
    let (mut net, mut old) = new_device_meets_the_host(GameKind::Meta);
    let resign = old.act(Command::Resign, net.now()).unwrap();
    assert!(resign.iter().any(|e| matches!(e, Effect::Send(_))));
    net.exchange(Seat::Host, Command::Handover { accept: true });
    let host = net.host().clone();
    // Before the new device writes anything, the old device comes back: its resignation stands
    // (signed by its key, it had not seen the hand-over), and it learns its seat moved — with
    // no alarm, for it was away.
    let mut back = Loopback::with_sessions(host.clone(), old.clone());
    back.advance(3_000);
    assert!(back.in_sync());
    assert_eq!(
        back.host().room().ending,
        Some(Ending::Resigned(Seat::Guest))
    );
    assert_eq!(back.guest().standing(), Standing::HandedAway);
    assert!(!back.guest().handed_over_while_here());
    assert!(transcript::verify(&back.host().export())
        .unwrap()
        .faults
        .is_empty());
    // Had the new device written first, the host keeps the new device's entry with that number
    // and refuses the old one's (the seat had moved when it was written): the game goes on
    // unsuspended. The old device keeps its own, and holds the two as the proof of a fork.
    net.exchange(Seat::Guest, Command::Propose(Proposal::Draw));
    let mut clash = Loopback::with_sessions(net.host().clone(), old);
    clash.advance(3_000);
    assert!(!clash.host().forked());
    assert!(clash.host().room().open[Seat::Guest.index()].is_some());
    assert!(has(&clash, Seat::Host, |e| matches!(
        e,
        Event::Refused {
            why: Refusal::Superseded,
            ..
        }
    )));
    assert_eq!(clash.guest().standing(), Standing::HandedAway);
    assert_eq!(clash.guest().forked_seat(), Some(Seat::Guest));
    assert_eq!(
        clash.guest().room().ending,
        Some(Ending::Resigned(Seat::Guest))
    );
}
