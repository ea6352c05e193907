//! A lying player gains nothing. One seat holds its real key and signs correctly chained entries,
//! but declares in `seen` that it had not seen what the other side wrote. The scenarios an
//! independent review found, then two properties over thousands of random games: honest races
//! converge whatever the delivery order, and a lie only ever changes what the lying entry
//! crossed — as if it had come a moment earlier — never what it saw, never to the liar's
//! advantage, while a lying decision is void. Transcripts are checked offline too: canonical files, the story, and the
//! proof of a cheat.

use ed25519_dalek::SigningKey;
use engine::session::transcript::{self, Verified};
use engine::session::wire::Header;
use engine::session::{
    Body, Command, Digest32, Ending, Entry, Finish, Loopback, Proposal, Seat, Session, Step, Void,
    GUEST_SEED, HOST_SEED,
};
use engine::{AnyGame, GameKind, Player, Reason};

/// A Méta Morpion game Red (the guest) wins with its last move, `f4`.
const META_GAME: &str =
    "d2 b4 d1 b3 e9 d9 c9 h9 d7 a1 b1 d3 a7 a2 a5 b5 f6 g9 b9 d8 c4 h3 e8 e4 e2 \
     d6 a9 h7 f3 h8 d5 b6 f9 a3 g3 h5 f5 i6 i2 g5 h1 h2 d4 g2 g4 i1 g1 i5 i3 e5 e6 f4";

fn seed(seat: Seat) -> [u8; 32] {
    match seat {
        Seat::Host => HOST_SEED,
        Seat::Guest => GUEST_SEED,
    }
}

fn entries_of(s: &Session, seat: Seat) -> Vec<Entry> {
    s.entries()
        .into_iter()
        .filter(|e| e.seat() == seat)
        .collect()
}

/// The next entry of `seat`, correctly signed and chained, declaring it had seen only the other
/// seat's first `seen` entries (as the liar's own session holds them).
fn lying(net: &Loopback, seat: Seat, body: Body, seen: usize) -> Entry {
    let holder = net.side(seat);
    let own = entries_of(holder, seat);
    let other = entries_of(holder, seat.other());
    let header = Header {
        room: holder.invite().room,
        seat,
        seq: own.len() as u32,
        time: net.now().max(own.last().map_or(0, |e| e.header.time)),
        prev: own.last().map_or(Digest32::ZERO, Entry::hash),
        seen: if seen == 0 {
            Digest32::ZERO
        } else {
            other[seen - 1].hash()
        },
    };
    Entry::sign(&SigningKey::from_bytes(&seed(seat)), header, body)
}

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

fn play_tokens(net: &mut Loopback, tokens: &[&str]) {
    for t in tokens {
        let seat = net.mover().expect("the game goes on");
        let step = token_step(net, t);
        net.exchange(seat, Command::Play(step));
    }
}

fn token_step(net: &Loopback, token: &str) -> Step {
    match net.host().game().unwrap() {
        AnyGame::Meta(_) => Step::from_cell(engine::meta::Cell::from_name(token).unwrap()),
        AnyGame::Morris(_) => {
            Step::Place(engine::morris::Point::from_name(token).unwrap().index() as u8)
        }
    }
}

fn verify(net: &Loopback, seat: Seat) -> Verified {
    transcript::verify(&net.side(seat).export()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_claim_cannot_overturn_a_win_it_did_not_see() {
    let mut net = Loopback::new(GameKind::Meta, 0);
    let tokens: Vec<&str> = META_GAME.split(' ').collect();
    play_tokens(&mut net, &tokens[..tokens.len() - 1]);
    // Red's winning move is on its way when the host claims the game, declaring it had not
    // seen it (the host's client would refuse: the guest is here; this host signs by hand).
    let seen = entries_of(net.host(), Seat::Guest).len();
    let win = token_step(&net, tokens[tokens.len() - 1]);
    net.act(Seat::Guest, Command::Play(win)).unwrap();
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
        for _ in 0..=rng.below(3) {
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

#[test]
fn honest_races_converge_whatever_the_delivery_order() {
    // 2 000 games × 5 delivery orders: 10 000 interleavings of crossing entries.
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut crossed = 0;
    for _ in 0..2_000 {
        let net = crossing(&mut rng);
        crossed += usize::from(net.in_flight(Seat::Host) > 0 && net.in_flight(Seat::Guest) > 0);
        let mut end = None;
        for _ in 0..5 {
            let mut order = net.clone();
            for _ in 0..rng.below(6) {
                let to = if rng.below(2) == 0 {
                    Seat::Host
                } else {
                    Seat::Guest
                };
                order.fault(to, engine::session::Fault::Reorder);
                if rng.below(2) == 0 {
                    order.deliver(to);
                }
            }
            order.settle();
            assert!(order.in_sync(), "the two sides disagree");
            let room = order.host().room().clone();
            match &end {
                None => end = Some(room),
                Some(first) => assert_eq!(first, &room, "another order, another room"),
            }
        }
    }
    assert!(
        crossed > 1_000,
        "only {crossed} games had entries crossing both ways"
    );
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

#[test]
fn a_lie_about_what_was_seen_never_reaches_past_it_nor_wins() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let (mut lies, mut voided) = (0, 0);
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
        if truth == floor {
            continue;
        }
        let declared = floor + rng.below(truth - floor);
        let body = match random_command(net.side(liar), &mut rng) {
            Command::Play(step) => Body::Play {
                game: net.side(liar).room().game_number,
                step,
            },
            Command::Propose(p) => Body::Propose(p),
            Command::Reply { accept } => match net.side(liar).proposals()[1] {
                Some((open, _)) => Body::Reply {
                    proposal: open.seq,
                    accept,
                },
                None => Body::ClaimWin,
            },
            Command::Withdraw => match net.side(liar).proposals()[0] {
                Some((open, _)) => Body::Withdraw {
                    proposal: open.seq,
                    expired: false,
                },
                None => Body::Resign,
            },
            _ => Body::Resign,
        };
        let mut honest_world = net.clone();
        let mut lying_world = net;
        let true_entry = lying(&honest_world, liar, body.clone(), truth);
        let lie = lying(&lying_world, liar, body.clone(), declared);
        send(&mut honest_world, true_entry);
        send(&mut lying_world, lie.clone());
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
        let lie_index = v.entries.iter().position(|e| *e == lie).unwrap();
        // The first honest entry whose effect the lie changed, if any, crossed the lie: the lie
        // can only act as if it had come first, never reach back past what it saw.
        if let Some(((seq, took), _)) = before.iter().zip(&after).find(|(b, a)| b.1 != a.1) {
            let e = v
                .entries
                .iter()
                .find(|e| e.seat() == honest && e.seq() == *seq)
                .unwrap();
            assert!(
                !saw(&v.entries, e, &lie) && !saw(&v.entries, &lie, e),
                "the lie changed the honest {honest:?} entry #{seq} ({:?}) that it had seen",
                e.body
            );
            if engine::session::chains::is_decision(&e.body) && *took {
                voided += 1;
            }
        }
        // A lying decision that crossed anything is void.
        if engine::session::chains::is_decision(&body)
            && v.entries.iter().any(|o| {
                o.seat() == honest && !saw(&v.entries, &lie, o) && !saw(&v.entries, o, &lie)
            })
        {
            assert!(
                v.void.contains(&lie_index),
                "a crossed decision took effect"
            );
        }
        // And the liar never does better: not a win where the truth was a draw or a loss, not a
        // draw where it was a loss (a game that goes on instead — the liar withdrew its own
        // offer « in time » — is no result at all).
        let (truth, told) = (
            liar_result(honest_world.host().room(), liar),
            liar_result(lying_world.host().room(), liar),
        );
        // (A new game the lie kept from starting was the honest side's acceptance, voided.)
        let same_game =
            lying_world.host().room().game_number == honest_world.host().room().game_number;
        if same_game {
            if let (Some(truth), Some(told)) = (truth, told) {
                assert!(
                    told <= truth,
                    "the lie turned {truth} into {told} for the liar"
                );
            }
            assert!(
                told.is_none() || truth.is_some(),
                "the lie ended a game the truth left going"
            );
        }
    }
    assert!(lies > 500, "only {lies} lies told");
    println!("{lies} lies, {voided} of which voided a decision of the honest side");
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
