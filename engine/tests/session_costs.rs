//! What a hostile peer's bytes cost the honest side (issue #21, docs/protocol.md, « Costs »),
//! counted in steps (`Session::work`, `Verifier::work`), never in time: each attack's message
//! costs the same few steps in a room of 150 entries and in one four times larger, within the
//! stated bounds; and `engine verify`'s steps on a hostile transcript grow with the file, not with
//! its square. The attacks are those of `examples/hostile.rs`, which measures them in seconds.

#[path = "../examples/common/attacks.rs"]
mod attacks;

use attacks::{chained, long_room, of};
use engine::session::transcript::{self, Verifier};
use engine::session::wire::{self, Digest32, Heads, Message};
use engine::session::{
    Body, Command, Effect, Loopback, Proposal, Seat, Session, Work, EXCUSE_REACH, SNAPSHOT_EVERY,
};
use engine::GameKind;

/// The steps the honest session spends on the messages (a second apart), and the entries it
/// sends back.
fn cost(mut victim: Session, messages: &[Vec<u8>]) -> (Work, usize) {
    let before = victim.work();
    let mut now = 1_760_000_000_000u64;
    let mut sent = 0;
    for m in messages {
        for e in victim.receive(m, now) {
            if let Effect::Send(bytes) = e {
                if let Ok(Message::Entries(es)) = wire::decode_message(&bytes) {
                    sent += es.len();
                }
            }
        }
        now += 1_000;
    }
    let after = victim.work();
    let w = Work {
        applied: after.applied - before.applied,
        merged: after.merged - before.merged,
        checked: after.checked - before.checked,
        signed: after.signed - before.signed,
        resent: after.resent - before.resent,
    };
    (w, sent)
}

const MESSAGES: usize = 60;

/// Runs `attack` against rooms of two sizes; returns the steps of each.
fn both_sizes(attack: impl Fn(&Loopback) -> (Session, Vec<Vec<u8>>)) -> [(Work, usize); 2] {
    [150, 600].map(|size| {
        let net = long_room(size);
        let (victim, messages) = attack(&net);
        assert_eq!(messages.len(), MESSAGES);
        cost(victim, &messages)
    })
}

#[test]
fn an_answer_crossing_an_expiry_costs_what_it_crossed_not_the_room() {
    // The guest's offer expires (its session withdraws it); the host answers it again and
    // again, declaring that withdrawal unseen: each answer folds before it, and is judged in the
    // state it declares. Once, each one folded the whole room again.
    // The attack as the live figures run it (examples/common/attacks.rs).
    let costs = both_sizes(|base| attacks::live("crossing", base, MESSAGES).unwrap());
    for (w, _) in costs {
        // Per entry: its own fold, what it crossed folded again (an entry or two here), the
        // way back to the copy before its place, and to the copy before the state it declares,
        // twice (to judge it, then to fold on): at most SNAPSHOT_EVERY steps each.
        let bound = (4 + 3 * SNAPSHOT_EVERY) as u64;
        assert!(w.applied <= bound * MESSAGES as u64, "{w:?}");
        assert!(
            w.checked <= MESSAGES as u64,
            "one signature per entry: {w:?}"
        );
    }
    // Whatever the room's size (the places of the copies differ, not the work per message).
    assert!(
        costs[1].0.applied.abs_diff(costs[0].0.applied) <= 4 * SNAPSHOT_EVERY as u64,
        "{costs:?}"
    );
}

#[test]
fn void_entries_cost_a_few_steps_each_whatever_the_room() {
    let costs = both_sizes(|base| attacks::live("void", base, MESSAGES).unwrap());
    for (w, _) in costs {
        // Up to date: folded once, and judged in the room's own state (a fault).
        assert!(w.applied <= 2 * MESSAGES as u64, "{w:?}");
        assert!(w.checked <= MESSAGES as u64, "{w:?}");
    }
    assert_eq!(costs[0].0.applied, costs[1].0.applied);
}

#[test]
fn entries_declaring_old_states_are_faults_beyond_the_reach_of_a_race() {
    // Void entries declaring almost nothing of the other seat seen: the state they declare is
    // the room's of long ago, never folded again (beyond EXCUSE_REACH, a fault at once).
    let costs = both_sizes(|base| {
        let victim = base.host().clone();
        let seen = of(&victim, Seat::Host)[1].hash();
        let messages = chained(
            &of(&victim, Seat::Guest),
            Seat::Guest,
            seen,
            MESSAGES,
            Body::Resign,
        );
        (victim, messages)
    });
    for (w, _) in costs {
        // Each folds before everything of the host it had not seen: one at the end (the place
        // of the guest's first one), then each after the one before.
        let bound = (EXCUSE_REACH + 2 * SNAPSHOT_EVERY + 4) as u64;
        assert!(w.applied <= bound + 4 * MESSAGES as u64, "{w:?}");
    }
}

#[test]
fn heads_asking_for_everything_cost_one_resend_per_connection() {
    let ask = wire::encode_message(&Message::Heads(Heads {
        count: [0, 0],
        last: [Digest32::ZERO, Digest32::ZERO],
    }));
    let costs = both_sizes(|base| {
        let mut victim = base.host().clone();
        victim.peer_disconnected(1_760_000_000_000);
        victim.peer_connected(1_760_000_000_000);
        (victim, vec![ask.clone(); MESSAGES])
    });
    for ((w, sent), size) in costs.iter().zip([150, 600]) {
        assert!(*sent >= size && *sent <= size + 2, "{sent}");
        assert_eq!(w.resent as usize, *sent, "the room once, then nothing");
        assert_eq!(w.signed, 0);
    }
}

#[test]
fn messages_without_their_padding_cost_no_step() {
    // Refused by their length, before anything is looked up or checked: entries as well as the
    // tiniest message (the page then drops the connection: client/net's driver).
    let costs = both_sizes(|base| attacks::live("tiny", base, MESSAGES).unwrap());
    let void = both_sizes(|base| {
        let (victim, padded) = attacks::live("void", base, MESSAGES).unwrap();
        let bare = padded
            .iter()
            .map(|m| wire::encode(&wire::decode_message(m).unwrap()))
            .collect();
        (victim, bare)
    });
    for (w, sent) in costs.iter().chain(&void) {
        assert_eq!((w.applied, w.merged, w.checked, w.signed), (0, 0, 0, 0));
        assert_eq!((w.resent, *sent), (0, 0));
    }
}

#[test]
fn challenges_get_at_most_two_proofs_per_connection() {
    let costs = both_sizes(|base| attacks::live("challenge", base, MESSAGES).unwrap());
    for (w, _) in costs {
        assert!(w.signed <= 2, "{w:?}");
    }
}

#[test]
fn bad_proofs_and_badly_signed_knocks_cost_a_bounded_number_of_checks() {
    let proofs = both_sizes(|base| attacks::live("proof", base, MESSAGES).unwrap());
    for (w, _) in proofs {
        // The same bad proof is checked once.
        assert!(w.checked <= 1, "{w:?}");
    }
    let knocks = both_sizes(|base| attacks::live("knock", base, MESSAGES).unwrap());
    for (w, _) in knocks {
        // A second apart, one knock per cooldown (10 s) is checked at most.
        assert!(w.checked <= 1 + MESSAGES as u64 / 10, "{w:?}");
    }
}

/// `engine verify`'s steps on the honest side's export after the crossing attack: a file where
/// every host entry crosses the guest's last ones.
fn verify_steps(size: usize, messages: usize) -> (usize, Work) {
    let mut net = long_room(size);
    net.exchange(Seat::Guest, Command::Propose(Proposal::Draw));
    let offer = net.guest().room().open[1].unwrap().seq;
    let seen = of(net.guest(), Seat::Guest).last().unwrap().hash();
    net.advance(61_000);
    let mut victim = net.guest().clone();
    let reply = Body::Reply {
        proposal: offer,
        accept: true,
    };
    let host = of(&victim, Seat::Host);
    for m in chained(&host, Seat::Host, seen, messages, reply) {
        victim.receive(&m, 1_760_000_000_000);
    }
    let text = victim.export();
    let lines = text.lines().count() - 4;
    let mut v = Verifier::new(text).unwrap();
    v.step(&mut || false).unwrap();
    let work = v.work();
    v.finish().unwrap();
    (lines, work)
}

#[test]
fn verify_costs_a_few_steps_per_entry_of_a_hostile_file() {
    for (size, messages) in [(150, 100), (600, 400)] {
        let (n, w) = verify_steps(size, messages);
        let n = n as u64;
        assert!(w.checked <= n + 2, "{w:?}");
        assert!(w.merged <= 2 * n, "{w:?}");
        // Each entry folded once; a void one judged from the copy before its declared state.
        assert!(
            w.applied <= n + (messages + 1) as u64 * (2 * SNAPSHOT_EVERY as u64 + 2),
            "{n} entries: {w:?}"
        );
    }
}

#[test]
fn verify_refuses_a_file_larger_than_a_room_can_write_before_reading_it() {
    let mut text = String::from("moulin-transcript v1\n");
    text.push_str(&"\n".repeat(transcript::MAX_BYTES));
    let Err(e) = Verifier::new(text) else {
        panic!("a file larger than MAX_BYTES was read");
    };
    assert!(e.message.contains("larger than"), "{e}");
    // A file of newlines within the size: its first line is refused, nothing is reserved per
    // line.
    let net = Loopback::new(GameKind::Morris, 100);
    let header: String = net
        .host()
        .export()
        .lines()
        .take(4)
        .map(|l| format!("{l}\n"))
        .collect();
    let text = format!("{header}{}", "\n".repeat(1_000_000));
    let e = transcript::verify(&text).unwrap_err();
    assert_eq!(e.entry, 0, "{e}");
}
