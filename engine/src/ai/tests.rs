//! Tests of the computer opponent: legality everywhere, tactics, draw rules, the stop check and
//! determinism.

use super::Rng;
use super::*;
use crate::meta::{Cell, Meta};
use crate::morris::{Morris, Phase, Point, Rules, Turn};
use crate::{Game, Outcome, Player, Reason};
use proptest::prelude::{any, proptest, ProptestConfig};

fn points(names: &str) -> u32 {
    names
        .split_whitespace()
        .map(|n| Point::from_name(n).unwrap_or_else(|| panic!("{n}")).bit())
        .fold(0, |a, b| a | b)
}

/// A moving-stage Morris position, `turns` of `max_turns` played.
fn setup(blue: &str, red: &str, to_move: Player, turns: u16, max_turns: u16) -> Morris {
    Morris::from_parts(
        [points(blue), points(red)],
        [0, 0],
        to_move,
        turns,
        max_turns,
    )
}

fn turn(g: &Morris, token: &str) -> Morris {
    g.play_turn(token.parse().unwrap())
        .unwrap_or_else(|e| panic!("{token}: {e}"))
}

/// A stop check that says stop at its `n + 1`-th call.
fn stop_after(n: u32) -> impl FnMut() -> bool {
    let mut calls = 0;
    move || {
        calls += 1;
        calls > n
    }
}

type Answer<T> = Result<SearchResult<T>, Illegal>;
type Search<G> = fn(&G, &Limits, &mut dyn FnMut() -> bool, u64) -> Answer<<G as Game>::Turn>;

/// Every level; level 4 stopped by the caller after `polls` polls.
fn each_level<G: Game>(
    g: &G,
    search: Search<G>,
    kind: GameKind,
    levels: &[Level],
    polls: u32,
    seed: u64,
) -> Vec<(Level, Answer<G::Turn>)> {
    levels
        .iter()
        .map(|&level| {
            let limits = level.limits(kind);
            (level, search(g, &limits, &mut stop_after(polls), seed))
        })
        .collect()
}

fn morris_levels(g: &Morris, levels: &[Level], seed: u64) -> Vec<(Level, Answer<Turn>)> {
    each_level(g, search_morris, GameKind::Morris, levels, 40, seed)
}

fn meta_levels(g: &Meta, levels: &[Level], seed: u64) -> Vec<(Level, Answer<Cell>)> {
    each_level(g, search_meta, GameKind::Meta, levels, 200, seed)
}

/// The answer is one of the legal turns (or `GameOver` for a finished game), its line starts
/// with it, and playing it works.
fn assert_legal<G: Game>(g: &G, r: &Result<SearchResult<G::Turn>, Illegal>, what: &str) {
    if g.is_over() {
        assert_eq!(r.as_ref().err(), Some(&Illegal::GameOver), "{what}: {g:?}");
        return;
    }
    let r = r
        .as_ref()
        .unwrap_or_else(|e| panic!("{what}: {e} on {g:?}"));
    assert!(g.legal_turns().contains(&r.turn), "{what}: {r:?} on {g:?}");
    assert!(g.play_turn(r.turn).is_ok());
    assert_eq!(r.pv.first(), Some(&r.turn), "{what}");
}

/// Random reachable states, played step by step (so pending captures occur), with random turn
/// limits (so states near and at the limit occur); finished states included.
fn morris_positions(count: usize, seed: u64) -> Vec<Morris> {
    morris_positions_under(Rules::NINE, count, seed)
}

/// [`morris_positions`] under other rules.
fn morris_positions_under(rules: Rules, count: usize, seed: u64) -> Vec<Morris> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let limit = match rng.below(3) {
            0 => 1 + rng.below(30) as u32,
            1 => 30 + rng.below(90) as u32,
            _ => 100,
        };
        let mut g = Morris::with_rules(rules, limit).unwrap();
        loop {
            out.push(g.clone());
            let actions = g.legal_actions();
            if actions.is_empty() || out.len() >= count {
                break;
            }
            g = g
                .play(actions[rng.below(actions.len() as u64) as usize])
                .unwrap();
        }
    }
    out
}

fn meta_positions(count: usize, seed: u64) -> Vec<Meta> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut g = Meta::new();
        loop {
            out.push(g);
            let moves = g.legal_turns();
            if moves.is_empty() || out.len() >= count {
                break;
            }
            g = g
                .play(moves[rng.below(moves.len() as u64) as usize])
                .unwrap();
        }
    }
    out
}

/// The turns that win the game at once for the player to move.
fn winning_turns<G: Game>(g: &G) -> Vec<G::Turn> {
    g.legal_turns()
        .into_iter()
        .filter(|&t| {
            let after = g.play_turn(t).unwrap();
            after
                .outcome()
                .is_some_and(|o| o.winner == Some(g.to_move()))
        })
        .collect()
}

/// True when after `t` the opponent has a turn that wins at once.
fn allows_a_win<G: Game>(g: &G, t: G::Turn) -> bool {
    let after = g.play_turn(t).unwrap();
    !after.is_over() && !winning_turns(&after).is_empty()
}

#[test]
fn every_level_plays_a_legal_morris_turn_in_thousands_of_random_states() {
    let states = morris_positions(3000, 1);
    assert!(states.iter().any(|g| g.phase() == Phase::Capture));
    assert!(states.iter().any(|g| g.is_over()));
    assert!(states
        .iter()
        .any(|g| !g.is_over() && g.turns() + 1 == g.max_turns() as u32));
    for (i, g) in states.iter().enumerate() {
        let mut levels = vec![Level::Beginner, Level::Easy];
        if i % 15 == 0 {
            levels.push(Level::Medium);
        }
        if i % 5 == 0 {
            levels.push(Level::Strong);
        }
        for (level, r) in morris_levels(g, &levels, i as u64) {
            assert_legal(g, &r, &format!("morris level {level:?}"));
        }
    }
}

#[test]
fn every_level_and_the_baseline_play_legal_turns_under_every_rule_set() {
    let mut sets: Vec<Rules> = Rules::NAMED.iter().map(|&(_, r)| r).collect();
    for text in [
        "lasker,diagonals=1,flying=0,quiet=12",
        "twelve,lasker=1",
        "pieces=12,quiet=30",
    ] {
        sets.push(text.parse().unwrap());
    }
    for (k, &rules) in sets.iter().enumerate() {
        let states = morris_positions_under(rules, 700, 20 + k as u64);
        assert!(states.iter().any(|g| g.phase() == Phase::Capture));
        assert!(states.iter().any(|g| g.is_over()));
        for (i, g) in states.iter().enumerate() {
            let mut levels = vec![Level::Beginner, Level::Easy];
            if i % 25 == 0 {
                levels.push(Level::Medium);
            }
            if i % 7 == 0 {
                levels.push(Level::Strong);
            }
            for (level, r) in morris_levels(g, &levels, i as u64) {
                assert_legal(g, &r, &format!("{} level {level:?}", rules.short()));
            }
            if i % 5 == 0 {
                let r = alpha_beta_baseline(g, 2, i as u64);
                assert_legal(g, &r, &format!("{} ab2", rules.short()));
            }
        }
    }
}

#[test]
fn every_level_takes_a_win_in_one_under_every_rule_set() {
    for (k, &(name, rules)) in Rules::NAMED.iter().enumerate() {
        let mut seen = 0;
        for (i, g) in morris_positions_under(rules, 2500, 40 + k as u64)
            .iter()
            .enumerate()
        {
            let wins = winning_turns(g);
            if g.is_over() || wins.is_empty() {
                continue;
            }
            seen += 1;
            for (level, r) in morris_levels(g, &Level::ALL, i as u64) {
                let r = r.unwrap();
                assert!(
                    wins.contains(&r.turn),
                    "{name} {level:?} missed {wins:?}: {r:?}"
                );
                assert_eq!(r.score, WIN - 1, "{name} {level:?}");
            }
        }
        assert!(seen > 20, "{name}: {seen}");
    }
}

/// A moving-stage position under `rules`.
fn setup_under(rules: &str, blue: &str, red: &str, reserves: [u8; 2], to_move: Player) -> Morris {
    let rules = rules.parse().unwrap();
    let pieces = [points(blue), points(red)];
    Morris::from_parts_under(rules, pieces, reserves, to_move, 40, 100)
}

#[test]
fn under_lasker_the_computer_slides_while_the_reserves_last() {
    // Blue's reserve is empty, Red's is not: Blue only slides, and g4-g7 closes a7-d7-g7 and
    // takes Red's last piece on the board (one plus two in reserve: three, then two).
    let g = setup_under("lasker", "a7 d7 g4 b2", "c3", [0, 2], Player::Blue);
    assert!(g.legal_turns().iter().all(|t| t.from.is_some()));
    assert_eq!(winning_turns(&g), vec!["g4-g7xc3".parse().unwrap()]);
    for (level, r) in morris_levels(&g, &Level::ALL, 2) {
        let r = r.unwrap();
        assert_eq!(r.turn.to_string(), "g4-g7xc3", "{level:?}: {r:?}");
        assert_eq!(r.score, WIN - 1);
    }
    // Blue still placing: a slide into g7 wins as well as a placement there.
    let g = setup_under("lasker", "a7 d7 g4", "b6 d6 c3", [3, 0], Player::Blue);
    let wins = winning_turns(&g);
    assert_eq!(wins.iter().filter(|t| t.from.is_some()).count(), 3);
    for (level, r) in morris_levels(&g, &Level::ALL, 2) {
        let r = r.unwrap();
        assert!(wins.contains(&r.turn), "{level:?}: {r:?}");
    }
}

#[test]
fn with_diagonals_the_computer_closes_a_diagonal_mill_and_without_flying_it_slides() {
    // twelve: f6-g7 closes a7-d7-g7 only through the diagonal link f6-g7.
    let g = setup_under("twelve", "a7 d7 f6 b2", "c5 d3 c3", [0, 0], Player::Blue);
    for (level, r) in morris_levels(&g, &Level::ALL, 2) {
        let r = r.unwrap();
        assert_eq!(r.turn.to_string()[..5], *"f6-g7", "{level:?}: {r:?}");
        assert_eq!(r.score, WIN - 1);
    }
    // noflying: Red's three pieces cannot fly to block b4-b6; every answer is a slide.
    let g = setup_under(
        "noflying",
        "d6 f6 b4 e3 d3",
        "a7 g1 c3",
        [0, 0],
        Player::Red,
    );
    for t in g.legal_turns() {
        let from = t.from.unwrap();
        assert!(g.geometry().is_adjacent(from, t.to), "{t}");
    }
    for (level, r) in morris_levels(&g, &Level::ALL, 2) {
        assert_legal(&g, &r, &format!("{level:?}"));
    }
}

#[test]
fn a_losing_side_takes_a_quiet_draw_and_the_search_counts_quiet_turns() {
    // Red is far behind; with 49 quiet turns of 50 played, any turn without a capture draws.
    let g = setup_under(
        "gur9",
        "a7 g7 g1 a1 b6 f6 f2",
        "d5 e4 d3 c4",
        [0, 0],
        Player::Red,
    )
    .with_quiet_turns(49);
    for (level, r) in morris_levels(&g, &Level::ALL, 3) {
        let r = r.unwrap();
        let after = g.play_turn(r.turn).unwrap();
        assert_eq!(
            after.outcome().map(|o| o.reason),
            Some(Reason::Quiet),
            "{level:?}"
        );
        assert_eq!(r.score, 0, "{level:?}");
    }
    // Two quiet turns left: Blue, far ahead, cannot capture now, so every line draws.
    let g = setup_under(
        "quiet=10",
        "a7 g7 g1 a1 b6 f6 f2",
        "d5 e4 d3 c4",
        [0, 0],
        Player::Blue,
    )
    .with_quiet_turns(8);
    for (level, r) in morris_levels(&g, &[Level::Medium, Level::Strong], 3) {
        let r = r.unwrap();
        assert_eq!(r.score, 0, "{level:?}: {r:?}");
    }
    // Without the rule the same position is a clear win for Blue.
    let g = setup("a7 g7 g1 a1 b6 f6 f2", "d5 e4 d3 c4", Player::Blue, 40, 100);
    let r = search_morris(
        &g,
        &Level::Medium.limits(GameKind::Morris),
        &mut || false,
        3,
    );
    assert!(r.unwrap().score > 200);
}

#[test]
fn the_last_placement_that_fills_the_board_is_a_draw_in_the_search() {
    // pieces=12: Red's last placement on d1 fills the board (no mill): a draw, the only turn.
    let g = setup_under(
        "pieces=12",
        "e5 c5 d7 a4 e3 f6 g4 d3 b4 d2 b2 g1",
        "g7 d6 a7 c3 d5 f4 f2 b6 c4 e4 a1",
        [0, 1],
        Player::Red,
    );
    assert_eq!(g.legal_turns().len(), 1);
    for (level, r) in morris_levels(&g, &Level::ALL, 1) {
        let r = r.unwrap();
        assert_eq!(
            (r.turn.to_string().as_str(), r.score),
            ("d1", 0),
            "{level:?}"
        );
    }
}

#[test]
fn every_level_plays_a_legal_meta_move_in_thousands_of_random_states() {
    let states = meta_positions(2500, 2);
    assert!(states.iter().any(|g| g.is_over()));
    for (i, g) in states.iter().enumerate() {
        let mut levels = vec![Level::Beginner];
        if i % 4 == 0 {
            levels.push(Level::Easy);
        }
        if i % 30 == 0 {
            levels.push(Level::Medium);
        }
        if i % 5 == 0 {
            levels.push(Level::Strong);
        }
        for (level, r) in meta_levels(g, &levels, i as u64) {
            assert_legal(g, &r, &format!("meta level {level:?}"));
        }
    }
}

#[test]
fn every_level_takes_a_win_in_one_when_there_is_one() {
    let mut seen = [0, 0];
    for (i, g) in morris_positions(4000, 3).iter().enumerate() {
        let wins = winning_turns(g);
        if g.is_over() || wins.is_empty() {
            continue;
        }
        seen[0] += 1;
        for (level, r) in morris_levels(g, &Level::ALL, i as u64) {
            let r = r.unwrap();
            assert!(
                wins.contains(&r.turn),
                "{level:?} missed {wins:?}: {r:?} {g:?}"
            );
            assert_eq!(r.score, WIN - 1, "{level:?}");
        }
    }
    for (i, g) in meta_positions(4000, 4).iter().enumerate() {
        let wins = winning_turns(g);
        if g.is_over() || wins.is_empty() {
            continue;
        }
        seen[1] += 1;
        for (level, r) in meta_levels(g, &Level::ALL, i as u64) {
            let r = r.unwrap();
            assert!(
                wins.contains(&r.turn),
                "{level:?} missed {wins:?}: {r:?} {g:?}"
            );
        }
    }
    assert!(seen[0] > 50 && seen[1] > 50, "{seen:?}");
}

#[test]
fn stronger_levels_never_allow_a_win_in_one_they_can_prevent() {
    let mut seen = [0, 0];
    for (i, g) in morris_positions(3000, 5).iter().enumerate() {
        if g.is_over() || !winning_turns(g).is_empty() {
            continue;
        }
        let turns = g.legal_turns();
        let (bad, good): (Vec<_>, Vec<_>) = turns.iter().partition(|&&t| allows_a_win(g, t));
        if bad.is_empty() || good.is_empty() {
            continue;
        }
        seen[0] += 1;
        for (level, r) in morris_levels(g, &[Level::Medium, Level::Strong], i as u64) {
            let r = r.unwrap();
            assert!(
                good.contains(&r.turn),
                "{level:?} allows a win: {r:?} {g:?}"
            );
        }
    }
    for (i, g) in meta_positions(3000, 6).iter().enumerate() {
        if g.is_over() || !winning_turns(g).is_empty() {
            continue;
        }
        let turns = g.legal_turns();
        let (bad, good): (Vec<_>, Vec<_>) = turns.iter().partition(|&&t| allows_a_win(g, t));
        if bad.is_empty() || good.is_empty() {
            continue;
        }
        seen[1] += 1;
        let levels = [Level::Easy, Level::Medium, Level::Strong];
        for (level, r) in meta_levels(g, &levels, i as u64) {
            let r = r.unwrap();
            assert!(
                good.contains(&r.turn),
                "{level:?} allows a win: {r:?} {g:?}"
            );
        }
    }
    assert!(seen[0] > 20 && seen[1] > 20, "{seen:?}");
}

#[test]
fn a_mill_that_takes_the_third_last_piece_wins_even_on_the_last_turn() {
    // Blue closes a7-d7-g7 by g4-g7; Red, down to three, then has two.
    for (turns, max) in [(40, 100), (99, 100)] {
        let g = setup("a7 d7 g4 f2 d2", "c5 d3 c3", Player::Blue, turns, max);
        for (level, r) in morris_levels(&g, &Level::ALL, 9) {
            let r = r.unwrap();
            let after = g.play_turn(r.turn).unwrap();
            assert_eq!(
                after.outcome(),
                Some(Outcome {
                    winner: Some(Player::Blue),
                    reason: Reason::Pieces
                }),
                "{level:?} at turn {turns}: {r:?}"
            );
        }
    }
}

#[test]
fn a_move_that_blocks_the_last_free_piece_wins() {
    // Red's only move is d6-d5; Blue's c5-d5 takes it away.
    let g = setup("a4 g4 b6 f6 c5", "a7 d7 g7 d6", Player::Blue, 40, 100);
    assert_eq!(winning_turns(&g).len(), 1);
    for (level, r) in morris_levels(&g, &Level::ALL, 9) {
        let r = r.unwrap();
        assert_eq!(r.turn.to_string(), "c5-d5", "{level:?}");
        let o = g.play_turn(r.turn).unwrap().outcome().unwrap();
        assert_eq!((o.winner, o.reason), (Some(Player::Blue), Reason::Blocked));
    }
}

#[test]
fn a_flying_side_blocks_a_winning_mill_and_holds_the_limit() {
    // Red threatens b4-b6 closing b6-d6-f6, which would leave Blue two pieces. Two turns remain:
    // Blue flies into b6 and the limit draws.
    let g = setup("a7 g1 c3", "d6 f6 b4 e3 d3", Player::Blue, 98, 100);
    assert!(g.can_fly());
    for (level, r) in morris_levels(&g, &[Level::Easy, Level::Medium, Level::Strong], 5) {
        let r = r.unwrap();
        assert_eq!(
            r.turn.to,
            Point::from_name("b6").unwrap(),
            "{level:?}: {r:?}"
        );
        assert_eq!(r.score, 0, "{level:?}: the limit draws");
    }
}

/// Blue f2-f4, Red d5-c5 and back, twice, then Blue f2-f4 again: Red's c5-d5 would make the
/// start position occur a third time.
fn before_a_third_repetition(blue: &str, red: &str, shuffle: [&str; 4]) -> Morris {
    let mut g = setup(blue, red, Player::Blue, 40, 100);
    for t in shuffle.iter().chain(&shuffle).take(7) {
        g = turn(&g, t);
    }
    assert_eq!(g.repetitions(), 2);
    g
}

#[test]
fn a_losing_side_takes_a_draw_by_repetition() {
    let blue = "a7 g7 g1 a1 b6 f6 f2";
    let red = "d5 e4 d3 c4";
    let g = before_a_third_repetition(blue, red, ["f2-f4", "d5-c5", "f4-f2", "c5-d5"]);
    let draw = turn(&g, "c5-d5");
    assert_eq!(draw.outcome().map(|o| o.reason), Some(Reason::Repetition));
    for (level, r) in morris_levels(&g, &Level::ALL, 3) {
        let r = r.unwrap();
        assert_eq!(r.turn.to_string(), "c5-d5", "{level:?}: {r:?}");
        assert_eq!(r.score, 0);
    }
}

#[test]
fn a_winning_side_avoids_a_draw_by_repetition() {
    // The same shuffle with the colours of the pieces swapped: now Red has seven.
    let g = before_a_third_repetition(
        "d5 e4 d3 c4",
        "a7 g7 g1 a1 b6 f6 f2",
        ["d5-c5", "f2-f4", "c5-d5", "f4-f2"],
    );
    assert_eq!(g.to_move(), Player::Red);
    let draw = turn(&g, "f4-f2");
    assert_eq!(draw.outcome().map(|o| o.reason), Some(Reason::Repetition));
    for (level, r) in morris_levels(&g, &Level::ALL, 3) {
        let r = r.unwrap();
        assert_ne!(r.turn.to_string(), "f4-f2", "{level:?}: {r:?}");
        assert!(r.score > 100, "{level:?}: {r:?}");
    }
}

#[test]
fn a_pending_capture_is_answered_with_the_whole_turn() {
    let g = crate::record::replay(Morris::new(), "a7 b6 d7 d6").unwrap();
    let pending = g.play(crate::morris::Action::Place(
        Point::from_name("g7").unwrap(),
    ));
    let pending = pending.unwrap();
    assert_eq!(pending.phase(), Phase::Capture);
    for (level, r) in morris_levels(&pending, &Level::ALL, 1) {
        let r = r.unwrap();
        assert_eq!(r.turn.from, None, "{level:?}");
        assert_eq!(r.turn.to, Point::from_name("g7").unwrap());
        assert!(r.turn.capture.is_some());
        assert_eq!(pending.play_turn(r.turn).unwrap().turns(), 5);
    }
}

#[test]
fn a_single_legal_turn_is_played_without_searching() {
    // Red's only move is d6-d5 (see the blocking test, Red to move).
    let g = setup("a4 g4 b6 f6 e5", "a7 d7 g7 d6", Player::Red, 40, 100);
    assert_eq!(g.legal_turns().len(), 1);
    for (_, r) in morris_levels(&g, &Level::ALL, 1) {
        let r = r.unwrap();
        assert_eq!((r.turn.to_string().as_str(), r.nodes), ("d6-d5", 0));
    }
}

#[test]
fn finished_games_have_no_turn() {
    let won = setup("a4 g4 b6 f6 c5", "a7 d7 g7 d6", Player::Blue, 40, 100);
    let won = turn(&won, "c5-d5");
    assert!(won.is_over());
    for (_, r) in morris_levels(&won, &Level::ALL, 1) {
        assert_eq!(r, Err(Illegal::GameOver));
    }
    let drawn = crate::record::replay(Morris::with_max_turns(1).unwrap(), "d6").unwrap();
    let any = AnyGame::Morris(drawn);
    assert_eq!(
        choose(&any, Level::Medium, 0, &mut || false),
        Err(Illegal::GameOver)
    );
    for g in meta_positions(3000, 8)
        .iter()
        .filter(|g| g.is_over())
        .take(20)
    {
        for (_, r) in meta_levels(g, &Level::ALL, 1) {
            assert_eq!(r, Err(Illegal::GameOver));
        }
    }
}

#[test]
fn the_stop_check_ends_the_search_at_its_next_poll() {
    let morris = crate::record::replay(Morris::new(), "d6 b4 f4 d2").unwrap();
    let meta = crate::record::replay(Meta::new(), "e5 e4").unwrap();
    for n in [0, 1, 7] {
        let mut calls = 0;
        let mut stop = || {
            calls += 1;
            calls > n
        };
        let limits = Level::Strong.limits(GameKind::Morris);
        let r = search_morris(&morris, &limits, &mut stop, 1);
        assert_legal(&morris, &r, "morris");
        assert_eq!(calls, n + 1);
        let nodes = r.unwrap().nodes;
        assert!(nodes <= (n as u64 + 1) * 1024 + 16, "{n}: {nodes}");

        let mut calls = 0;
        let mut stop = || {
            calls += 1;
            calls > n
        };
        let limits = Level::Strong.limits(GameKind::Meta);
        let r = search_meta(&meta, &limits, &mut stop, 1);
        assert_legal(&meta, &r, "meta");
        assert_eq!(calls, n + 1);
        assert_eq!(r.unwrap().nodes, (n as u64 + 1) * 32);
    }
}

#[test]
fn fixed_levels_are_deterministic_for_a_seed_and_vary_with_it() {
    let mut differs = [false, false];
    for (i, g) in morris_positions(60, 11).iter().enumerate().step_by(3) {
        for level in [Level::Beginner, Level::Easy, Level::Medium] {
            let limits = level.limits(GameKind::Morris);
            let a = search_morris(g, &limits, &mut || false, i as u64);
            let b = search_morris(g, &limits, &mut || false, i as u64);
            assert_eq!(a, b, "{level:?}");
            let c = search_morris(g, &limits, &mut || false, i as u64 + 1000);
            differs[0] |= a.ok().map(|r| r.turn) != c.ok().map(|r| r.turn);
        }
    }
    for (i, g) in meta_positions(60, 12).iter().enumerate().step_by(3) {
        for level in [Level::Beginner, Level::Easy, Level::Medium] {
            let limits = level.limits(GameKind::Meta);
            let a = search_meta(g, &limits, &mut || false, i as u64);
            let b = search_meta(g, &limits, &mut || false, i as u64);
            assert_eq!(a, b, "{level:?}");
            let c = search_meta(g, &limits, &mut || false, i as u64 + 1000);
            differs[1] |= a.ok().map(|r| r.turn) != c.ok().map(|r| r.turn);
        }
    }
    assert_eq!(differs, [true, true]);
}

#[test]
fn baselines_play_legal_turns() {
    for (i, g) in morris_positions(400, 13).iter().enumerate() {
        assert_legal(g, &alpha_beta_baseline(g, 2, i as u64), "ab2");
    }
    for (i, g) in meta_positions(400, 14).iter().enumerate() {
        assert_legal(g, &uct_baseline(g, 200, i as u64), "uct200");
    }
}

#[test]
fn the_level_table_is_numbered_and_labelled() {
    let labels: Vec<_> = LEVELS.iter().map(|s| s.label).collect();
    assert_eq!(labels, ["Débutant", "Facile", "Moyen", "Fort"]);
    for (i, level) in Level::ALL.into_iter().enumerate() {
        assert_eq!(Level::from_number(i as u32 + 1), Some(level));
        assert_eq!(level.spec().level, level);
        assert_eq!(level.is_timed(), level == Level::Strong);
        // Only the timed level has no budget of its own.
        let budgeted = level.limits(GameKind::Meta).nodes < u64::MAX;
        assert_eq!(budgeted, !level.is_timed());
    }
    assert_eq!(Level::from_number(0), None);
    assert_eq!(Level::from_number(5), None);
}

#[test]
fn random_turns_are_legal_and_seeded() {
    let g = Morris::new();
    let a = random_turn(&g, &mut Rng::new(5)).unwrap();
    assert_eq!(a, random_turn(&g, &mut Rng::new(5)).unwrap());
    assert!(g.legal_turns().contains(&a));
    let mut rng = Rng::new(0);
    let mut hits = [0u32; 10];
    for _ in 0..10_000 {
        hits[rng.below(10) as usize] += 1;
    }
    assert!(hits.iter().all(|&h| (800..1200).contains(&h)), "{hits:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_reachable_state_gets_a_legal_answer_from_any_seed(
        choices in proptest::collection::vec(any::<u32>(), 0..120),
        limit in 1u32..=120,
        seed in any::<u64>(),
        level in 1u32..=3,
    ) {
        let level = Level::from_number(level).unwrap();
        let rules = Rules::NAMED[seed as usize % 5].1;
        let mut g = Morris::with_rules(rules, limit).unwrap();
        for &c in &choices {
            let a = g.legal_actions();
            if a.is_empty() {
                break;
            }
            g = g.play(a[c as usize % a.len()]).unwrap();
        }
        assert_legal(&g, &search_morris(&g, &level.limits(GameKind::Morris), &mut || false, seed), "morris");
        let mut m = Meta::new();
        for &c in &choices {
            let a = m.legal_turns();
            if a.is_empty() {
                break;
            }
            m = m.play(a[c as usize % a.len()]).unwrap();
        }
        assert_legal(&m, &search_meta(&m, &level.limits(GameKind::Meta), &mut || false, seed), "meta");
    }
}

#[test]
fn where_the_board_can_fill_forced_lines_are_followed_past_the_depth() {
    // twelve, from a game « Fort » lost as Red (docs/ai.md): after 20 turns Blue blocks Red in
    // 15 turns, no capture on the way. Both sides have one or two turns at most nodes of that
    // line, so a search of depth 6 (plus 4 capturing turns of quiescence, none here) proves it.
    let record = "e3 f4 f2 g1 g7 a1 d1 a7 a4 e4 g4 c3 b2 d2 b4 b6 c4xb6 b6 c5 f6";
    let mut g = Morris::with_rules(Rules::TWELVE, 100).unwrap();
    for t in record.split_whitespace() {
        g = turn(&g, t);
    }
    let limits = Limits {
        nodes: u64::MAX,
        depth: 6,
        memory_bits: 16,
        noise: 0,
        tactics: true,
    };
    let r = search_morris(&g, &limits, &mut || false, 1).unwrap();
    assert_eq!(WIN - r.score, 15, "a win in 15 turns: {r:?}");
    let mut end = g.clone();
    for t in &r.pv {
        assert!(t.capture.is_none(), "{t}");
        end = end.play_turn(*t).unwrap();
    }
    assert_eq!(r.pv.len(), 15);
    assert_eq!(
        end.outcome(),
        Some(Outcome {
            winner: Some(Player::Blue),
            reason: Reason::Blocked
        })
    );
}

#[test]
fn only_rules_that_fill_the_board_extend_forced_lines() {
    assert!(morris::fills_board(Rules::TWELVE));
    assert!(morris::fills_board(
        "pieces=12,diagonals=0".parse().unwrap()
    ));
    for rules in [Rules::NINE, Rules::NOFLYING, Rules::LASKER, Rules::GUR9] {
        assert!(!morris::fills_board(rules), "{rules:?}");
    }
}

#[test]
fn a_placement_against_a_mill_threat_is_forced_unless_the_mover_threatens_too() {
    let law = crate::morris::Law::<false>::new(Rules::TWELVE);
    let placing = |blue, red| setup_under("twelve", blue, red, [8, 8], Player::Blue).position();
    // Red threatens a7-d7-g7 at g7; Blue has nothing of its own: forced.
    assert!(morris::faces_threat(law, &placing("b2 f4", "a7 d7")));
    // A Red piece already on g7: no threat.
    assert!(!morris::faces_threat(law, &placing("b2 f4 g7", "a7 d7")));
    // Blue can close b2-b4-b6 itself at b6: not forced.
    assert!(!morris::faces_threat(law, &placing("b2 b4", "a7 d7")));
    // The diagonal a7-b6-c5 counts under twelve.
    assert!(morris::faces_threat(law, &placing("d2 f4", "a7 b6")));
    // Once Blue's reserve is empty (moving), never.
    let mut moving = placing("b2 f4", "a7 d7");
    moving.reserves[0] = 0;
    assert!(!morris::faces_threat(law, &moving));
}

#[test]
fn a_fork_point_makes_two_mill_threats_at_once_while_placing() {
    let law = crate::morris::Law::<false>::new(Rules::TWELVE);
    let pos =
        |blue, red, reserves| setup_under("twelve", blue, red, reserves, Player::Blue).position();
    // Blue's corners a7 and g1: g7 starts a7-d7-g7 and g1-g4-g7, a1 a7-a4-a1 and g1-d1-a1.
    let open = pos("a7 g1", "d2 e4", [8, 8]);
    assert_eq!(morris::fork_points(law, &open, 0), points("g7 a1"));
    assert_eq!(
        morris::fork_points(law, &open, 1),
        0,
        "Red's d2 and e4 share no line's point"
    );
    // A Red piece on d7 spoils one line through g7.
    assert_eq!(
        morris::fork_points(law, &pos("a7 g1", "d7 e4", [8, 8]), 0),
        points("a1")
    );
    // Two pieces on one line are a threat, not a fork: a7 d7 alone give none.
    assert_eq!(
        morris::fork_points(law, &pos("a7 d7", "d2 e4", [8, 8]), 0),
        0
    );
    // The diagonals count: a7-b6-c5 meets c5-d5-e5 at c5, a7-d7-g7 meets g7-f6-e5 at g7.
    assert_eq!(
        morris::fork_points(law, &pos("a7 e5", "d2 b4", [8, 8]), 0),
        points("c5 g7")
    );
    // One piece left in reserve: the threat made cannot be closed by placing.
    assert_eq!(
        morris::fork_points(law, &pos("a7 g1", "d2 e4", [1, 8]), 0),
        0
    );
}

/// « Fort »'s limits with a fixed depth instead of a clock, so that node counts compare.
fn strong_to_depth(depth: u32) -> Limits {
    Limits {
        depth,
        ..Level::Strong.limits(GameKind::Morris)
    }
}

#[test]
fn a_kept_table_serves_the_next_search_of_the_game() {
    for (rules, record) in [
        (Rules::NINE, "d6 b4 f4 d2 d5"),
        (Rules::TWELVE, "a7 d6 g1 b6 f6"),
    ] {
        let game = crate::record::replay(Morris::with_rules(rules, 100).unwrap(), record).unwrap();
        let limits = strong_to_depth(6);
        let mut memory = MorrisMemory::default();
        let first = search_morris_kept(&game, &limits, &mut || false, 1, &mut memory).unwrap();
        // Two turns later, on the line the first search expected.
        let [mine, theirs, ..] = first.pv[..] else {
            panic!("a line of two turns at least: {first:?}")
        };
        let later = game.play_turn(mine).unwrap().play_turn(theirs).unwrap();
        let kept = search_morris_kept(&later, &limits, &mut || false, 1, &mut memory).unwrap();
        let fresh = search_morris(&later, &limits, &mut || false, 1).unwrap();
        assert_eq!((kept.depth, fresh.depth), (6, 6), "{rules:?}");
        assert!(later.legal_turns().contains(&kept.turn), "{kept:?}");
        // The positions searched before are found again: fewer nodes for the same depth.
        assert!(
            kept.nodes * 10 < fresh.nodes * 9,
            "{rules:?}: {} nodes with the kept table, {} without",
            kept.nodes,
            fresh.nodes
        );
    }
}

#[test]
fn a_kept_table_of_another_turn_limit_or_rules_is_not_read() {
    // Ten turns before the limit of 20 the search sees the draw; with 200 it does not. A table
    // filled under the limit of 20 must not answer for the game with 200, nor one of other rules.
    let record = "d6 b4 f4 d2 d5 f6 b6 d7 a7 g4";
    let short = crate::record::replay(Morris::with_max_turns(20).unwrap(), record).unwrap();
    let long = crate::record::replay(Morris::with_max_turns(200).unwrap(), record).unwrap();
    let twelve = crate::record::replay(Morris::with_rules(Rules::TWELVE, 200).unwrap(), record);
    let limits = strong_to_depth(7);
    for earlier in [short, twelve.unwrap()] {
        let mut memory = MorrisMemory::default();
        search_morris_kept(&earlier, &limits, &mut || false, 3, &mut memory).unwrap();
        let kept = search_morris_kept(&long, &limits, &mut || false, 3, &mut memory).unwrap();
        assert_eq!(
            kept,
            search_morris(&long, &limits, &mut || false, 3).unwrap()
        );
    }
}

#[test]
fn levels_with_a_budget_answer_the_same_with_a_memory() {
    let game = AnyGame::Morris(crate::record::replay(Morris::new(), "d6 b4 f4 d2").unwrap());
    let mut memory = Memory::default();
    // « Fort » fills the memory; the other levels neither read nor change it.
    choose_kept(&game, Level::Strong, 1, &mut stop_after(20), &mut memory).unwrap();
    for level in [Level::Beginner, Level::Easy, Level::Medium] {
        let kept = choose_kept(&game, level, 5, &mut || false, &mut memory).unwrap();
        assert_eq!(
            kept,
            choose(&game, level, 5, &mut || false).unwrap(),
            "{level:?}"
        );
    }
}
