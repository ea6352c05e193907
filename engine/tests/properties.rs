//! Property tests over random games of both games: nothing panics, every listed action applies,
//! playing never mutates the previous state, notation round-trips, a game's record replays to
//! the same state, and the fast perft agrees with the public surface from any reached position.
//! Morris games are played under every named rule set and random combinations of the rules.

use engine::meta::{self, Meta};
use engine::morris::{self, Action, Morris, Param, Phase, Rules};
use engine::{record, Game};
use proptest::prelude::*;

/// Plays a random Morris game step by step, each choice picking among the listed actions. When a
/// choice is a multiple of 3 and the mover can take back their previous move, it does: that
/// steers games into repetitions, which pure random play almost never reaches.
fn random_morris(
    rules: Rules,
    max_turns: u32,
    choices: &[u32],
) -> (Morris, Vec<morris::Turn>, Vec<Morris>) {
    let mut g = Morris::with_rules(rules, max_turns).unwrap();
    let mut turns = Vec::new();
    let mut states = vec![g.clone()];
    let mut previous: [Option<(morris::Point, morris::Point)>; 2] = [None, None];
    for &choice in choices {
        if g.is_over() {
            break;
        }
        let actions = g.legal_actions();
        assert!(
            !actions.is_empty(),
            "a live game always has an action: {g:?}"
        );
        let me = g.to_move().index();
        let back = previous[me].and_then(|(from, to)| {
            actions
                .iter()
                .copied()
                .find(|a| *a == Action::Move { from: to, to: from })
        });
        let action = match back {
            Some(a) if choice % 3 == 0 => a,
            _ => actions[choice as usize % actions.len()],
        };
        let before = g.clone();
        let next = g
            .play(action)
            .unwrap_or_else(|e| panic!("{action} listed but {e}"));
        assert_eq!(g, before, "play changed the previous state");
        if let Action::Move { from, to } = action {
            previous[me] = Some((from, to));
        }
        if next.phase() != Phase::Capture {
            turns.push(next.last_turn().expect("a completed turn is recorded"));
            states.push(next.clone());
        }
        g = next;
    }
    (g, turns, states)
}

fn random_meta(choices: &[u32]) -> (Meta, Vec<meta::Cell>, Vec<Meta>) {
    let mut g = Meta::new();
    let mut turns = Vec::new();
    let mut states = vec![g];
    for &choice in choices {
        if g.is_over() {
            break;
        }
        let actions = g.legal_actions();
        assert!(!actions.is_empty());
        let cell = actions[choice as usize % actions.len()];
        let before = g;
        let next = g.play(cell).unwrap();
        assert_eq!(g, before);
        turns.push(cell);
        states.push(next);
        g = next;
    }
    (g, turns, states)
}

/// A named rule set, or any combination (quiet often short, so that its draws come up).
fn any_rules() -> impl Strategy<Value = Rules> {
    let named = proptest::sample::select(Rules::NAMED.map(|(_, r)| r).to_vec());
    let combination = (
        9u16..=12,
        0u16..=1,
        0u16..=1,
        0u16..=1,
        prop_oneof![Just(0u16), 1u16..=30, 1u16..=500],
    )
        .prop_map(|(pieces, diagonals, flying, lasker, quiet)| {
            [pieces, diagonals, flying, lasker, quiet]
                .into_iter()
                .zip(Param::ALL)
                .try_fold(Rules::NINE, |r, (v, p)| r.with(p, v))
                .expect("values in range")
        });
    prop_oneof![named, combination]
}

fn check_turns_are_consistent<G: Game>(g: &G) {
    for t in g.legal_turns() {
        let text = t.to_string();
        assert_eq!(G::parse_turn(&text), Ok(t), "{text} does not round-trip");
        assert!(g.play_turn(t).is_ok(), "{text} listed but refused");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_morris_games_replay_from_their_record(
        rules in any_rules(),
        max_turns in prop_oneof![Just(100u32), 1u32..=500, 1u32..=30],
        choices in proptest::collection::vec(any::<u32>(), 0..400),
    ) {
        let (g, turns, states) = random_morris(rules, max_turns, &choices);
        let text = record::write::<Morris>(&turns);
        let start = Morris::with_rules(rules, max_turns).unwrap();
        let replayed = record::replay(start, &text);
        // A game stopped on a pending capture replays to the last completed turn.
        let expected = states.last().unwrap();
        prop_assert_eq!(replayed.as_ref(), Ok(expected));
        if g.phase() != Phase::Capture {
            prop_assert_eq!(&g, expected);
        }
        for t in &turns {
            prop_assert_eq!(Morris::parse_turn(&t.to_string()), Ok(*t));
        }
        check_turns_are_consistent(&g);
        prop_assert!(g.turns() <= max_turns);
        if let Some(o) = g.outcome() {
            prop_assert_eq!(g.phase(), Phase::Over);
            prop_assert!(g.legal_actions().is_empty());
            match o.reason {
                engine::Reason::Repetition => prop_assert_eq!(g.repetitions(), 3),
                engine::Reason::Quiet => prop_assert_eq!(g.quiet_turns(), rules.quiet()),
                engine::Reason::Full => prop_assert!(!g.board_string().contains('.')),
                _ => {}
            }
        } else {
            prop_assert!(rules.quiet() == 0 || g.quiet_turns() < rules.quiet());
        }
        // Each whole turn is the same as its steps, one by one (from a pending capture: the
        // capture alone completes the turn in progress).
        for t in g.legal_turns() {
            let step = if g.phase() == Phase::Capture { Ok(g.clone()) } else { g.play(t.step()) };
            let by_steps = step.and_then(|s| match t.capture {
                Some(c) => s.play(Action::Capture(c)),
                None => Ok(s),
            });
            prop_assert_eq!(g.play_turn(t), by_steps);
        }
    }

    #[test]
    fn random_meta_games_replay_from_their_record(
        choices in proptest::collection::vec(any::<u32>(), 0..90),
    ) {
        let (g, turns, _) = random_meta(&choices);
        let text = record::write::<Meta>(&turns);
        prop_assert_eq!(record::replay(Meta::new(), &text), Ok(g));
        check_turns_are_consistent(&g);
    }

    #[test]
    fn fast_morris_perft_agrees_with_the_public_surface_anywhere(
        rules in any_rules(),
        max_turns in prop_oneof![Just(100u32), 20u32..=60],
        choices in proptest::collection::vec(any::<u32>(), 0..120),
    ) {
        let (g, _, states) = random_morris(rules, max_turns, &choices);
        // The reached state, which may have a capture pending, and a few on the way.
        for s in std::iter::once(&g).chain(states.iter().rev().step_by(7).take(3)) {
            for depth in 0..=2 {
                prop_assert_eq!(
                    morris::perft::perft(s, depth),
                    record::perft_by_turns(s, depth),
                    "depth {} from {:?}", depth, s
                );
            }
        }
    }

    #[test]
    fn fast_meta_perft_agrees_with_the_public_surface_anywhere(
        choices in proptest::collection::vec(any::<u32>(), 0..80),
    ) {
        let (g, _, _) = random_meta(&choices);
        for depth in 0..=3 {
            prop_assert_eq!(meta::perft::perft(&g, depth), record::perft_by_turns(&g, depth));
        }
    }

    #[test]
    fn arbitrary_records_never_panic(text in ".{0,200}", bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let lossy = String::from_utf8_lossy(&bytes);
        for t in [text.as_str(), lossy.as_ref()] {
            if let Err(e) = record::replay(Morris::new(), t) {
                prop_assert_eq!(record::tokens(t).nth(e.index), Some(e.token.as_str()));
            }
            let _ = record::replay(Meta::new(), t);
            let _ = Morris::parse_turn(t);
            let _ = Meta::parse_turn(t);
        }
    }

    #[test]
    fn every_turn_and_step_of_either_game_applies_through_any_game(
        choices in proptest::collection::vec(any::<u32>(), 0..200),
    ) {
        use engine::table::Playable;
        use engine::{AnyGame, Step};
        let (m, _, _) = random_morris(Rules::NINE, 100, &choices);
        let (u, _, _) = random_meta(&choices);
        // Whole turns, as records write them: the same states through AnyGame as directly.
        let morris = AnyGame::Morris(m.clone());
        for t in m.legal_turns() {
            let direct = AnyGame::Morris(m.play_turn(t).unwrap());
            prop_assert_eq!(morris.play_token(&t.to_string()).unwrap(), direct);
        }
        let meta = AnyGame::Meta(u);
        for c in u.legal_turns() {
            let direct = AnyGame::Meta(u.play_turn(c).unwrap());
            prop_assert_eq!(meta.play_token(&c.to_string()).unwrap(), direct);
        }
        // Steps, as the network carries them: every legal step, and only those.
        let steps = Step::legal(&morris);
        prop_assert_eq!(steps.len(), m.legal_actions().len());
        for (step, action) in steps.iter().zip(m.legal_actions()) {
            prop_assert_eq!(morris.play_step(*step).unwrap(), AnyGame::Morris(m.play(action).unwrap()));
            prop_assert!(meta.play_step(*step).is_err(), "a Morris step is no UTTT move");
        }
        let steps = Step::legal(&meta);
        prop_assert_eq!(steps.len(), u.legal_actions().len());
        for (step, cell) in steps.iter().zip(u.legal_actions()) {
            prop_assert_eq!(meta.play_step(*step).unwrap(), AnyGame::Meta(u.play(cell).unwrap()));
            prop_assert!(morris.play_step(*step).is_err(), "a UTTT move is no Morris step");
        }
    }
}

#[test]
fn biased_random_play_reaches_every_end_reason() {
    use engine::Reason::*;
    let mut seen = std::collections::HashSet::new();
    let mut seed = 7u64;
    for game in 0..3000u32 {
        let choices: Vec<u32> = (0..600)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                (seed >> 16) as u32
            })
            .collect();
        let max_turns = if game % 10 == 0 { 30 } else { 500 };
        let (g, _, _) = random_morris(Rules::NINE, max_turns, &choices);
        if let Some(o) = g.outcome() {
            seen.insert(o.reason);
        }
        if seen.len() == 4 {
            break;
        }
    }
    assert_eq!(
        seen,
        [Pieces, Blocked, Repetition, Limit].into_iter().collect()
    );
}

#[test]
fn biased_random_play_reaches_every_end_reason_of_each_rule_set() {
    use engine::Reason::*;
    let expected = [
        ("noflying", vec![Pieces, Blocked, Repetition, Limit]),
        ("lasker", vec![Pieces, Blocked, Repetition, Limit]),
        ("twelve", vec![Pieces, Blocked, Repetition, Limit, Full]),
        ("gur9", vec![Pieces, Blocked, Repetition, Limit, Quiet]),
    ];
    let mut seed = 11u64;
    for (name, reasons) in expected {
        let rules: Rules = name.parse().unwrap();
        let mut seen = std::collections::HashSet::new();
        for game in 0..4000u32 {
            let choices: Vec<u32> = (0..600)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    (seed >> 16) as u32
                })
                .collect();
            let max_turns = if game % 10 == 0 { 30 } else { 500 };
            let (g, _, _) = random_morris(rules, max_turns, &choices);
            if let Some(o) = g.outcome() {
                seen.insert(o.reason);
            }
            if seen.len() == reasons.len() {
                break;
            }
        }
        assert_eq!(seen, reasons.into_iter().collect(), "{name}");
    }
}
