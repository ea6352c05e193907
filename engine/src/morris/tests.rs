//! One named test per rule of docs/rules.md, including the seed's validation list: geometry, placement,
//! captures and protection, double mill, immutability, moves, flying, re-formed mill, losses by
//! capture and by blocking, victory before the limit, limit after a capture, repetition.

use super::*;
use crate::record;

fn p(name: &str) -> Point {
    Point::from_name(name).unwrap_or_else(|| panic!("no point {name}"))
}

fn points(names: &str) -> u32 {
    names.split_whitespace().fold(0, |m, n| m | p(n).bit())
}

fn replay(rec: &str) -> Morris {
    record::replay(Morris::new(), rec).unwrap_or_else(|e| panic!("{rec}: {e}"))
}

fn turn(g: &Morris, token: &str) -> Result<Morris, Illegal> {
    g.play_turn(token.parse().unwrap())
}

/// A position in the moving stage (unless reserves say otherwise), as if reached in play.
fn setup(blue: &str, red: &str, reserves: [u8; 2], to_move: Player) -> Morris {
    let mut g = Morris::new();
    g.pos = Position {
        pieces: [points(blue), points(red)],
        reserves,
        to_move,
    };
    assert_eq!(g.pos.pieces[0] & g.pos.pieces[1], 0, "overlapping setup");
    g.turns = 40;
    g.seen = vec![g.pos.key()];
    g
}

#[test]
fn placement_alternates_and_counts_down_the_reserves() {
    let g = replay("d6 b4 a7");
    assert_eq!(g.to_move(), Player::Red);
    assert_eq!((g.reserve(Player::Blue), g.reserve(Player::Red)), (7, 8));
    assert_eq!(g.turns(), 3);
    assert_eq!(g.piece_at(p("d6")), Some(Player::Blue));
    assert_eq!(g.piece_at(p("b4")), Some(Player::Red));
    assert_eq!(g.board_string().matches('B').count(), 2);
    assert_eq!(turn(&g, "d6"), Err(Illegal::Occupied));
    assert_eq!(turn(&g, "a7-d7"), Err(Illegal::MustPlace));
    assert_eq!(g.legal_actions().len(), 21);
}

#[test]
fn moving_starts_only_when_both_reserves_are_empty() {
    // Seventeen placements without a mill: blue's reserve is empty, red still places.
    let rec = "a7 d7 g7 a4 g4 g1 a1 d1 b6 d6 f6 b4 f4 f2 b2 d2 c5";
    let g = replay(rec);
    assert_eq!(g.reserve(Player::Blue), 0);
    assert_eq!(g.reserve(Player::Red), 1);
    assert_eq!(g.to_move(), Player::Red);
    assert_eq!(g.stage(Player::Blue), Stage::Moving);
    assert_eq!(turn(&g, "d5-e5"), Err(Illegal::MustPlace));
    let g = turn(&g, "e5").unwrap();
    assert!(!g.is_placing() && g.to_move() == Player::Blue);
    assert_eq!(turn(&g, "e4"), Err(Illegal::MustMove));
    assert!(g
        .legal_actions()
        .iter()
        .all(|a| matches!(a, Action::Move { .. })));
    assert!(!g.legal_actions().is_empty());
}

#[test]
fn moves_go_to_an_adjacent_empty_point() {
    let g = setup("a7 g7 g1 b6", "d7 d1 a1 f2", [0, 0], Player::Blue);
    assert_eq!(g.destinations(p("a7")), [p("a4")].into_iter().collect());
    assert_eq!(turn(&g, "a7-d6"), Err(Illegal::NotAdjacent));
    assert_eq!(turn(&g, "a7-d7"), Err(Illegal::Occupied));
    assert_eq!(turn(&g, "d7-d6"), Err(Illegal::NotYourPiece));
    assert_eq!(turn(&g, "a4-a7"), Err(Illegal::NotYourPiece));
    let after = turn(&g, "a7-a4").unwrap();
    assert_eq!(after.piece_at(p("a4")), Some(Player::Blue));
    assert_eq!(after.piece_at(p("a7")), None);
    assert!(g.destinations(p("d7")).is_empty(), "not the mover's piece");
    assert_eq!(
        g.play(Action::Move {
            from: p("a7"),
            to: p("a7")
        }),
        Err(Illegal::SamePoint)
    );
}

#[test]
fn flying_only_with_exactly_three_pieces_after_placement() {
    // Three pieces once placement is over: any empty point.
    let g = setup("a7 g7 g1", "d7 d1 a1 f2", [0, 0], Player::Blue);
    assert!(g.can_fly());
    assert_eq!(g.stage(Player::Blue), Stage::Flying);
    assert_eq!(g.destinations(p("a7")).len(), 24 - 7);
    assert!(turn(&g, "a7-e4").is_ok());
    // Four pieces: no flying.
    let g = setup("a7 g7 g1 b6", "d7 d1 a1", [0, 0], Player::Blue);
    assert!(!g.can_fly());
    assert_eq!(turn(&g, "a7-e4"), Err(Illegal::NotAdjacent));
    // Three pieces on the board during placement: still placing, never flying.
    let g = setup("a7 g7 g1", "d7 d1 a1", [2, 2], Player::Blue);
    assert!(!g.can_fly());
    assert_eq!(g.stage(Player::Blue), Stage::Placing { remaining: 2 });
    assert_eq!(turn(&g, "a7-e4"), Err(Illegal::MustPlace));
}

#[test]
fn closing_a_mill_waits_for_a_capture_by_the_same_player() {
    let g = replay("a7 b6 d7 d6");
    let pending = g.play(Action::Place(p("g7"))).unwrap();
    assert_eq!(pending.phase(), Phase::Capture);
    assert_eq!(pending.to_move(), Player::Blue);
    assert_eq!(pending.turns(), 4, "the turn is not counted yet");
    assert_eq!(pending.capturable(), Points(points("b6 d6")));
    assert_eq!(
        pending.legal_actions(),
        vec![Action::Capture(p("b6")), Action::Capture(p("d6"))]
    );
    assert_eq!(
        pending.play(Action::Place(p("a1"))),
        Err(Illegal::CaptureRequired)
    );
    assert_eq!(
        pending.play(Action::Capture(p("a7"))),
        Err(Illegal::NotOpponentPiece)
    );
    assert_eq!(
        pending.play(Action::Capture(p("a1"))),
        Err(Illegal::NotOpponentPiece)
    );
    let done = pending.play(Action::Capture(p("d6"))).unwrap();
    assert_eq!(done.phase(), Phase::Play);
    assert_eq!((done.turns(), done.to_move()), (5, Player::Red));
    assert_eq!(done.piece_at(p("d6")), None);
    assert_eq!(
        done.last_turn(),
        Some(Turn {
            from: None,
            to: p("g7"),
            capture: Some(p("d6"))
        })
    );
    // Captured pieces never return: red's total is down to 8 (reserve 7 + 1 on the board).
    assert_eq!(
        done.reserve(Player::Red) + done.pieces_on_board(Player::Red),
        8
    );
    assert_eq!(
        g.play(Action::Capture(p("b6"))),
        Err(Illegal::NoCapturePending)
    );
}

#[test]
fn a_turn_token_must_name_its_capture_and_only_then() {
    let g = replay("a7 b6 d7 d6");
    assert_eq!(turn(&g, "g7"), Err(Illegal::MissingCapture));
    assert_eq!(turn(&g, "a1xb6"), Err(Illegal::UnexpectedCapture));
    assert_eq!(turn(&g, "g7xa7"), Err(Illegal::NotOpponentPiece));
    assert!(turn(&g, "g7xb6").is_ok());
}

#[test]
fn a_double_mill_captures_only_one_piece() {
    // Blue closes the top side and the d-file cross line with one placement on d7.
    let g = setup("a7 g7 d6 d5", "a1 d1 g1 f4 b2", [1, 1], Player::Blue);
    let pending = g.play(Action::Place(p("d7"))).unwrap();
    assert_eq!(pending.phase(), Phase::Capture);
    let done = pending.play(Action::Capture(p("f4"))).unwrap();
    assert_eq!(done.phase(), Phase::Play);
    assert_eq!(done.to_move(), Player::Red);
    assert_eq!(
        done.pieces_on_board(Player::Red),
        4,
        "exactly one piece removed"
    );
    // Every capturing turn lists one turn per target, never two captures.
    assert!(g
        .legal_turns()
        .iter()
        .filter(|t| t.to == p("d7"))
        .all(|t| t.capture.is_some()));
}

#[test]
fn pieces_in_mills_are_protected_while_others_are_not() {
    // Red's bottom side a1-d1-g1 is a mill; b2 stands alone.
    let g = setup("a7 d7 b6 d6", "a1 d1 g1 b2", [1, 1], Player::Blue);
    let pending = g.play(Action::Place(p("f6"))).unwrap();
    assert_eq!(pending.capturable(), Points(points("b2")));
    assert_eq!(
        pending.play(Action::Capture(p("d1"))),
        Err(Illegal::Protected)
    );
    assert!(pending.play(Action::Capture(p("b2"))).is_ok());
    assert!(pending.in_mill(p("a1")) && !pending.in_mill(p("b2")));
}

#[test]
fn when_every_opponent_piece_is_in_a_mill_any_may_be_taken() {
    let g = setup("a7 d7 b6 d6", "a1 d1 g1 g4 g7", [1, 1], Player::Blue);
    // Red: a1-d1-g1 and g1-g4-g7, all five pieces in mills.
    let pending = g.play(Action::Place(p("f6"))).unwrap();
    assert_eq!(pending.capturable(), Points(points("a1 d1 g1 g4 g7")));
    assert!(pending.play(Action::Capture(p("g1"))).is_ok());
}

#[test]
fn a_reformed_mill_captures_again_an_intact_one_does_not() {
    // Blue's mill a7-d7-g7 stands; red has spare pieces; moving stage.
    let g = setup("a7 d7 g7 b2", "a1 d1 f2 e3 c3", [0, 0], Player::Blue);
    // Moving another piece gives nothing: the standing mill is not "closed" again.
    let g = turn(&g, "b2-b4").unwrap();
    assert_eq!(g.phase(), Phase::Play);
    let g = turn(&g, "f2-f4").unwrap();
    // Opening the mill, then closing it again, captures.
    let g = turn(&g, "a7-a4").unwrap();
    let g = turn(&g, "f4-f2").unwrap();
    assert_eq!(turn(&g, "a4-a7"), Err(Illegal::MissingCapture));
    let g = turn(&g, "a4-a7xc3").unwrap();
    assert_eq!(g.pieces_on_board(Player::Red), 4);
}

#[test]
fn fewer_than_three_pieces_reserve_included_loses() {
    // Blue flies (three pieces) to close the top side and takes one of red's three.
    let g = setup("a7 d7 f6", "a1 g1 c3", [0, 0], Player::Blue);
    let won = turn(&g, "f6-g7xa1").unwrap();
    assert_eq!(
        won.outcome(),
        Some(Outcome {
            winner: Some(Player::Blue),
            reason: Reason::Pieces
        })
    );
    assert_eq!(won.phase(), Phase::Over);
    assert_eq!(turn(&won, "g7-f6"), Err(Illegal::GameOver));
    assert_eq!(won.play(Action::Capture(p("g1"))), Err(Illegal::GameOver));
    assert!(won.legal_actions().is_empty() && won.legal_turns().is_empty());
    // The reserve counts: two on the board plus one in reserve is still three.
    let g = setup("a7 d7 b2", "a1 g1 c3", [1, 1], Player::Blue);
    let g = turn(&g, "g7xc3").unwrap();
    assert_eq!(g.outcome(), None, "2 on the board + 1 in reserve");
}

#[test]
fn blocked_right_after_the_last_placement_loses() {
    // Blue holds the four outer corners; red's ninth piece on a4 walls them in.
    let g = setup("a7 g7 g1 a1", "d7 g4 d1", [0, 1], Player::Red);
    let end = turn(&g, "a4").unwrap();
    assert_eq!(
        end.outcome(),
        Some(Outcome {
            winner: Some(Player::Red),
            reason: Reason::Blocked
        })
    );
    // Not blocked while a piece can still slide.
    let g = setup("a7 g7 g1 a1", "d7 g4 d1", [0, 1], Player::Red);
    assert_eq!(turn(&g, "b4").unwrap().outcome(), None);
}

#[test]
fn blocked_in_the_moving_stage_loses_but_a_flying_side_is_never_blocked() {
    let g = setup("a7 g7 g1 a1", "d7 g4 d1 b4", [0, 0], Player::Red);
    let end = turn(&g, "b4-a4").unwrap();
    assert_eq!(end.outcome().map(|o| o.reason), Some(Reason::Blocked));
    assert_eq!(end.outcome().and_then(|o| o.winner), Some(Player::Red));
    // Three blue pieces walled in, but flying: the game goes on.
    let g = setup("a7 g7 g1", "d7 g4 d1 b4 f2", [0, 0], Player::Red);
    let next = turn(&g, "f2-f4").unwrap();
    assert_eq!(next.outcome(), None);
    assert!(!next.legal_actions().is_empty());
}

#[test]
fn victory_comes_before_the_limit_on_a_capturing_turn() {
    let mut g = setup("a7 d7 f6", "a1 g1 c3", [0, 0], Player::Blue);
    g.max_turns = 41;
    let end = turn(&g, "f6-g7xa1").unwrap();
    assert_eq!(end.turns(), 41);
    assert_eq!(
        end.outcome(),
        Some(Outcome {
            winner: Some(Player::Blue),
            reason: Reason::Pieces
        })
    );
}

#[test]
fn the_limit_counts_a_capturing_turn_once_and_draws_after_the_capture() {
    let mut g = setup("a7 d7 f6", "a1 g1 c3 e3", [0, 0], Player::Blue);
    g.max_turns = 41;
    let pending = g.play(Action::Move {
        from: p("f6"),
        to: p("g7"),
    });
    let pending = pending.unwrap();
    assert_eq!(
        pending.phase(),
        Phase::Capture,
        "no draw before the capture"
    );
    assert_eq!(pending.turns(), 40);
    let end = pending.play(Action::Capture(p("e3"))).unwrap();
    assert_eq!(end.turns(), 41);
    assert_eq!(
        end.outcome(),
        Some(Outcome {
            winner: None,
            reason: Reason::Limit
        })
    );
}

#[test]
fn the_default_limit_is_a_hundred_turns_and_settable_from_one_to_five_hundred() {
    assert_eq!(Morris::new().max_turns(), 100);
    assert!(Morris::with_max_turns(0).is_err());
    assert!(Morris::with_max_turns(501).is_err());
    assert_eq!(Morris::with_max_turns(500).unwrap().max_turns(), 500);
    let g = record::replay(Morris::with_max_turns(1).unwrap(), "d6").unwrap();
    assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::Limit));
    assert_eq!(g.outcome().and_then(|o| o.winner), None);
    let g = record::replay(Morris::with_max_turns(3).unwrap(), "d6 b4").unwrap();
    assert_eq!(g.outcome(), None);
}

#[test]
fn the_third_occurrence_of_a_position_is_a_draw() {
    let g = setup("a7 g7 g1 b2", "a1 d1 f2 c3", [0, 0], Player::Blue);
    let shuffle = ["b2-b4", "c3-c4", "b4-b2", "c4-c3"];
    let mut g = g;
    for (i, t) in shuffle.iter().enumerate() {
        g = turn(&g, t).unwrap();
        assert_eq!(g.outcome(), None, "after {i}");
    }
    assert_eq!(
        g.repetitions(),
        2,
        "the start position has now occurred twice"
    );
    for t in &shuffle[..3] {
        g = turn(&g, t).unwrap();
        assert_eq!(g.outcome(), None);
    }
    let before = g.clone();
    let end = turn(&g, shuffle[3]).unwrap();
    assert_eq!(end.repetitions(), 3);
    assert_eq!(
        end.outcome(),
        Some(Outcome {
            winner: None,
            reason: Reason::Repetition
        })
    );
    // Undo is a stack of states: the earlier state keeps its own counts.
    assert_eq!(before.repetitions(), 2);
    assert_eq!(before.outcome(), None);
}

#[test]
fn a_capture_or_placement_makes_earlier_positions_unreachable() {
    let g = replay("d6 b4 a7");
    assert_eq!(
        g.seen.len(),
        1,
        "placements reset the positions that can repeat"
    );
    let g = setup("a7 g7 g1 b2", "a1 d1 f2 c3", [0, 0], Player::Blue);
    let g = turn(&g, "b2-b4").unwrap();
    assert_eq!(g.seen.len(), 2);
}

#[test]
fn playing_never_changes_the_previous_state() {
    let g = replay("a7 b6 d7 d6");
    let copy = g.clone();
    let pending = g.play(Action::Place(p("g7"))).unwrap();
    let _ = pending.play(Action::Capture(p("b6"))).unwrap();
    let _ = g.play(Action::Place(p("a7")));
    assert_eq!(g, copy);
    assert_eq!(pending.phase(), Phase::Capture);
}

#[test]
fn stage_labels_follow_the_reserve_and_the_piece_count() {
    let g = Morris::new();
    assert_eq!(g.stage(Player::Blue), Stage::Placing { remaining: 9 });
    let g = setup("a7 g7 g1 b2", "a1 d1 f2", [0, 0], Player::Blue);
    assert_eq!(g.stage(Player::Blue), Stage::Moving);
    assert_eq!(g.stage(Player::Red), Stage::Flying);
    let g = setup("a7", "a1 d1", [1, 0], Player::Blue);
    assert_eq!(g.stage(Player::Blue), Stage::Placing { remaining: 1 });
    assert_eq!(g.stage(Player::Red), Stage::Flying, "a label only");
}

#[test]
fn capture_phase_turns_complete_the_turn_in_progress() {
    let g = replay("a7 b6 d7 d6");
    let pending = g.play(Action::Place(p("g7"))).unwrap();
    let turns = pending.legal_turns();
    assert_eq!(turns.len(), 2);
    assert!(turns.iter().all(|t| t.to == p("g7") && t.capture.is_some()));
    assert!(pending.play_turn(turns[0]).is_ok());
    assert_eq!(turn(&pending, "a1xb6"), Err(Illegal::CaptureRequired));
    assert_eq!(turn(&pending, "g7"), Err(Illegal::MissingCapture));
    assert_eq!(
        super::perft::perft(&pending, 1),
        2,
        "perft finishes the turn first"
    );
}

#[test]
fn a_winning_capture_leaves_the_state_the_command_line_prints() {
    let g = setup("a7 d7 f6", "a1 g1 c3", [0, 0], Player::Blue);
    let won = turn(&g, "f6-g7xa1").unwrap();
    assert_eq!(won.board_string(), "BBB.R.................R.");
    assert_eq!(
        (won.reserve(Player::Blue), won.reserve(Player::Red)),
        (0, 0)
    );
    assert_eq!(
        (won.to_move(), won.turns(), won.phase()),
        (Player::Red, 41, Phase::Over)
    );
    assert_eq!(
        won.outcome(),
        Some(Outcome {
            winner: Some(Player::Blue),
            reason: Reason::Pieces
        })
    );
}

#[test]
fn notation_round_trips_and_rejects_malformed_tokens() {
    for t in ["d6", "a7-d7", "d6xb4", "a7-d7xg1"] {
        let parsed: Turn = t.parse().unwrap();
        assert_eq!(parsed.to_string(), t);
    }
    for bad in [
        "", "D6", "d4", "h1", "a0", "a8", "x", "-", "d6x", "a7-", "a7--d7", "d6xb4xa1", "a7-d7-g7",
        "xd6", " d6", "d6 ", "é",
    ] {
        assert!(bad.parse::<Turn>().is_err(), "{bad:?} parsed");
    }
}

// ---------------------------------------------------------------------------------------------
// Rule variants (SPEC §12, docs/rules.md « Rule variants »): one or more hand-made positions per
// parameter.

fn rules(text: &str) -> Rules {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn replay_under(r: Rules, rec: &str) -> Morris {
    record::replay(Morris::with_rules(r, 100).unwrap(), rec)
        .unwrap_or_else(|e| panic!("{rec}: {e}"))
}

/// [`setup`] under other rules.
fn setup_under(r: Rules, blue: &str, red: &str, reserves: [u8; 2], to_move: Player) -> Morris {
    let mut g = Morris::with_rules(r, 100).unwrap();
    g.pos = Position {
        pieces: [points(blue), points(red)],
        reserves,
        to_move,
    };
    assert_eq!(g.pos.pieces[0] & g.pos.pieces[1], 0, "overlapping setup");
    g.turns = 40;
    g.seen = vec![g.pos.key()];
    g
}

fn outcome(g: &Morris) -> Option<(Option<Player>, Reason)> {
    g.outcome().map(|o| (o.winner, o.reason))
}

#[test]
fn pieces_sets_both_reserves() {
    for (text, n) in [
        ("nine", 9),
        ("pieces=10", 10),
        ("lasker", 10),
        ("pieces=11", 11),
        ("twelve", 12),
    ] {
        let g = Morris::with_rules(rules(text), 100).unwrap();
        assert_eq!(
            (g.reserve(Player::Blue), g.reserve(Player::Red)),
            (n, n),
            "{text}"
        );
        assert_eq!(g.stage(Player::Red), Stage::Placing { remaining: n });
        assert_eq!(g.rules(), rules(text));
    }
    // Twelve pieces: Blue's last placement is the 23rd turn, Red's the 24th.
    let rec = "e5 g7 c5 d6 d7 a7 a4 c3 e3 d5 f6 f4 g4 f2 d3 b6 b4 c4 d2 e4 b2 a1 g1";
    let g = replay_under(rules("pieces=12"), rec);
    assert_eq!((g.reserve(Player::Blue), g.reserve(Player::Red)), (0, 1));
    assert_eq!(turn(&g, "d2-d1"), Err(Illegal::MustPlace));
    assert_eq!(g.placements(), Points(points("d1")));
    assert_eq!(Morris::new().rules(), Rules::NINE);
    assert_eq!(Morris::with_max_turns(30).unwrap().rules(), Rules::NINE);
}

#[test]
fn diagonals_add_links_and_mills_that_close_and_protect() {
    let geo = Geometry::of(Rules::TWELVE);
    assert!(geo.has_diagonals() && !Geometry::of(Rules::NINE).has_diagonals());
    assert_eq!(geo.links().count(), 40);
    assert_eq!(geo.mills().count(), 20);
    assert_eq!(Geometry::of(Rules::NINE).links().count(), 32);
    assert_eq!(Geometry::of(Rules::NINE).mills().count(), 16);
    // A corner of a square lies on three mills, a middle point on two.
    for (name, n) in [
        ("a7", 3),
        ("b6", 3),
        ("c5", 3),
        ("e3", 3),
        ("d7", 2),
        ("c4", 2),
    ] {
        assert_eq!(geo.mills_through(p(name)).count(), n, "{name}");
        assert_eq!(Geometry::of(Rules::NINE).mills_through(p(name)).count(), 2);
    }
    assert!(geo.is_adjacent(p("a7"), p("b6")) && geo.is_adjacent(p("b6"), p("c5")));
    assert!(geo.is_adjacent(p("c3"), p("b2")) && !geo.is_adjacent(p("a7"), p("c5")));
    assert_eq!(geo.neighbours(p("b6")), Points(points("a7 d6 b4 c5")));

    // a7, b6 and c5 close the diagonal mill: a capture under twelve, nothing under nine.
    let g = replay_under(Rules::TWELVE, "a7 d7 b6 d6");
    assert_eq!(turn(&g, "c5"), Err(Illegal::MissingCapture));
    let done = turn(&g, "c5xd7").unwrap();
    assert_eq!(done.pieces_on_board(Player::Red), 1);
    assert!(done.in_mill(p("a7")) && done.in_mill(p("c5")));
    let plain = replay("a7 d7 b6 d6");
    assert_eq!(turn(&plain, "c5xd7"), Err(Illegal::UnexpectedCapture));
    assert!(turn(&plain, "c5").is_ok());

    // Pieces slide along a diagonal; a diagonal mill protects its pieces.
    let g = setup_under(
        Rules::TWELVE,
        "a7 d7 g7 f2",
        "a1 b2 c3 d1 e3",
        [0, 0],
        Player::Blue,
    );
    assert_eq!(g.destinations(p("a7")), Points(points("a4 b6")));
    assert_eq!(
        turn(&g, "a7-c5"),
        Err(Illegal::NotAdjacent),
        "one step at a time"
    );
    let after = turn(&g, "a7-b6").unwrap();
    assert_eq!(after.piece_at(p("b6")), Some(Player::Blue));
    // Moving along a diagonal closes a mill on the side it reaches: f6-g7 with a7 and d7.
    let g = setup_under(
        Rules::TWELVE,
        "a7 d7 f6 e5",
        "a1 b2 c3 d1 e3",
        [0, 0],
        Player::Blue,
    );
    let pending = g
        .play(Action::Move {
            from: p("f6"),
            to: p("g7"),
        })
        .unwrap();
    assert_eq!(
        pending.capturable(),
        Points(points("d1 e3")),
        "a1-b2-c3 is a mill"
    );
    assert_eq!(
        pending.play(Action::Capture(p("b2"))),
        Err(Illegal::Protected)
    );
    assert_eq!(
        setup("a7 d7 g7 f2", "a1 b2 c3 d1 e3", [0, 0], Player::Blue).destinations(p("a7")),
        Points(points("a4")),
        "no diagonal under nine"
    );
}

#[test]
fn a_lasker_slide_during_placement_closes_a_mill_and_captures() {
    // Blue still has pieces in reserve and slides g4 up to g7: a7-d7-g7 closes.
    let g = setup_under(Rules::LASKER, "a7 d7 g4", "b6 d6 c3", [6, 6], Player::Blue);
    assert!(g.is_placing() && g.may_move());
    assert_eq!(g.destinations(p("g4")), Points(points("g7 g1 f4")));
    assert_eq!(g.movable(), Points(points("a7 d7 g4")));
    assert_eq!(g.placements().len(), 18);
    assert_eq!(
        g.legal_actions().len(),
        18 + 1 + 1 + 3,
        "placements, then slides"
    );
    let pending = g
        .play(Action::Move {
            from: p("g4"),
            to: p("g7"),
        })
        .unwrap();
    assert_eq!(
        (pending.phase(), pending.to_move()),
        (Phase::Capture, Player::Blue)
    );
    let done = pending.play(Action::Capture(p("c3"))).unwrap();
    assert_eq!(done.reserve(Player::Blue), 6, "a slide keeps the reserve");
    assert_eq!(done.pieces_on_board(Player::Red), 2);
    assert_eq!(done.seen.len(), 1, "a capture is irreversible");
    assert!(g.legal_turns().contains(&"g4-g7xc3".parse().unwrap()));
    // The same slide under the default rules: the turn must place.
    let plain = setup("a7 d7 g4", "b6 d6 c3", [6, 6], Player::Blue);
    assert_eq!(turn(&plain, "g4-g7xc3"), Err(Illegal::MustPlace));
    assert!(!plain.may_move() && plain.destinations(p("g4")).is_empty());
}

#[test]
fn under_lasker_an_empty_reserve_only_slides_and_flying_waits_for_both() {
    // Blue's reserve is empty, Red's is not: Blue slides, never places, never flies.
    let g = setup_under(
        Rules::LASKER,
        "a7 g7 g1",
        "d7 d1 a1 f2",
        [0, 2],
        Player::Blue,
    );
    assert!(!g.is_placing() && g.may_move() && !g.can_fly());
    assert_eq!(turn(&g, "e4"), Err(Illegal::MustMove));
    assert_eq!(turn(&g, "a7-e4"), Err(Illegal::NotAdjacent));
    assert!(turn(&g, "a7-a4").is_ok());
    assert_eq!(
        g.stage(Player::Blue),
        Stage::Flying,
        "the label: three pieces, reserve empty"
    );
    // Both reserves empty: three pieces fly, as under the default rules.
    let g = setup_under(
        Rules::LASKER,
        "a7 g7 g1",
        "d7 d1 a1 f2",
        [0, 0],
        Player::Blue,
    );
    assert!(g.can_fly());
    assert!(turn(&g, "a7-e4").is_ok());
    // Red, with pieces in reserve, places or slides.
    let g = setup_under(
        Rules::LASKER,
        "a7 g7 g1",
        "d7 d1 a1 f2",
        [0, 2],
        Player::Red,
    );
    assert!(turn(&g, "e4").is_ok() && turn(&g, "f2-f4").is_ok());
}

#[test]
fn under_lasker_a_side_without_reserve_and_without_a_slide_is_blocked() {
    // Red places its last-but-one piece on a4 and walls in Blue's four corners while Blue,
    // its reserve empty, can only slide: Blue has no legal turn.
    let g = setup_under(
        Rules::LASKER,
        "a7 g7 g1 a1",
        "d7 g4 d1",
        [0, 2],
        Player::Red,
    );
    let end = turn(&g, "a4").unwrap();
    assert_eq!(outcome(&end), Some((Some(Player::Red), Reason::Blocked)));
    assert_eq!(
        end.reserve(Player::Red),
        1,
        "Red still had a piece to place"
    );
    // With a4 still free, Blue slides there: no loss.
    let g = setup_under(
        Rules::LASKER,
        "a7 g7 g1 a1",
        "d7 g4 d1",
        [0, 2],
        Player::Red,
    );
    assert_eq!(outcome(&turn(&g, "b4").unwrap()), None);
}

#[test]
fn under_lasker_slides_during_placement_can_repeat_a_position() {
    // Placements and captures are irreversible, Lasker's slides are not: the repetition
    // window holds the positions since the last placement or capture, slides included.
    let g = replay_under(Rules::LASKER, "a7 g1");
    assert_eq!(g.seen.len(), 1);
    let shuffle = ["a7-d7", "g1-g4", "d7-a7", "g4-g1"];
    let mut g = g;
    for t in shuffle.iter().chain(&shuffle[..3]) {
        g = turn(&g, t).unwrap();
        assert_eq!(g.outcome(), None);
    }
    assert_eq!(g.seen.len(), 8);
    let end = turn(&g, shuffle[3]).unwrap();
    assert_eq!(end.repetitions(), 3);
    assert_eq!(outcome(&end), Some((None, Reason::Repetition)));
    assert_eq!(
        (end.reserve(Player::Blue), end.reserve(Player::Red)),
        (9, 9)
    );
    // A placement in between starts a new window.
    let g = turn(&replay_under(Rules::LASKER, "a7 g1 a7-d7"), "b6").unwrap();
    assert_eq!(g.seen.len(), 1);
}

#[test]
fn a_completed_turn_that_fills_the_board_is_a_draw() {
    // Twelve pieces each and no capture: Red's last placement fills the 24th point.
    let rec = "e5 g7 c5 d6 d7 a7 a4 c3 e3 d5 f6 f4 g4 f2 d3 b6 b4 c4 d2 e4 b2 a1 g1";
    let r = rules("pieces=12");
    let g = replay_under(r, rec);
    assert_eq!(g.outcome(), None);
    let end = turn(&g, "d1").unwrap();
    assert_eq!(outcome(&end), Some((None, Reason::Full)));
    assert_eq!(end.board_string().matches('.').count(), 0);
    // Full comes before blocked: Blue, to move, would have no move on the full board.
    assert!(!end.pos.has_move(r, Geometry::of(r), Player::Blue));
    // A last placement that closes a mill captures, and the game goes on.
    let g = setup_under(
        Rules::TWELVE,
        "a7 g7 g1 a1 d6 f6 f2 b2 c3 e5 e3",
        "d7 g4 d1 a4 b6 f4 d2 b4 d5 e4 c5 c4",
        [1, 0],
        Player::Blue,
    );
    assert_eq!(g.placements(), Points(points("d3")));
    assert_eq!(
        turn(&g, "d3xg4"),
        Err(Illegal::Protected),
        "g4-f4-e4 is Red's mill"
    );
    let after = turn(&g, "d3xd1").unwrap();
    assert_eq!(after.outcome(), None);
    assert_eq!(after.placements(), Points::EMPTY, "placement is over");
    assert_eq!(after.board_string().matches('.').count(), 1);
    assert_eq!(after.piece_at(p("d1")), None);
    // The same last placement without a mill under the plain board with twelve pieces.
    let g = setup_under(
        r,
        "a7 g7 g1 a1 b6 f6 f2 b2 c5 e5 e3",
        "d7 g4 d1 a4 d6 f4 d2 b4 d5 e4 c3 c4",
        [1, 0],
        Player::Blue,
    );
    assert_eq!(
        outcome(&turn(&g, "d3").unwrap()),
        Some((None, Reason::Full))
    );
}

#[test]
fn quiet_turns_without_a_capture_draw_and_a_capture_resets_the_count() {
    let r = rules("quiet=5");
    let g = replay_under(r, "a7 b6 d7 d6");
    assert_eq!((g.quiet_turns(), g.outcome()), (4, None));
    let pending = g.play(Action::Place(p("g7"))).unwrap();
    assert_eq!(
        pending.quiet_turns(),
        4,
        "a pending capture is no completed turn"
    );
    let g = turn(&g, "g7xb6").unwrap();
    assert_eq!(g.quiet_turns(), 0);
    let g = record::replay(g, "b6 a1 d1 b2").unwrap();
    assert_eq!((g.quiet_turns(), g.outcome()), (4, None));
    let end = turn(&g, "f2").unwrap();
    assert_eq!(outcome(&end), Some((None, Reason::Quiet)));
    assert_eq!(end.turns(), 10);
    assert_eq!(turn(&end, "b4"), Err(Illegal::GameOver));
    // Without the rule the count goes on and means nothing.
    let g = replay("d6 b4 a7 c4 g1 a1");
    assert_eq!((g.quiet_turns(), g.outcome()), (6, None));
    // Quiet comes before the limit on the same turn.
    let g = record::replay(Morris::with_rules(r, 5).unwrap(), "d6 b4 a7 c4 g1").unwrap();
    assert_eq!(outcome(&g), Some((None, Reason::Quiet)));
    let g = record::replay(Morris::with_rules(r, 4).unwrap(), "d6 b4 a7 c4").unwrap();
    assert_eq!(outcome(&g), Some((None, Reason::Limit)));
}

#[test]
fn repetition_comes_before_quiet_and_the_count_is_not_in_the_repetition_key() {
    let shuffle = ["b2-b4", "c3-c4", "b4-b2", "c4-c3"];
    // The start position occurs again after 4 and 8 turns with other quiet counts, and the
    // eighth turn makes both the third occurrence and the eighth quiet turn.
    for (quiet, reason) in [
        (8, Reason::Repetition),
        (7, Reason::Quiet),
        (9, Reason::Repetition),
    ] {
        let r = rules(&format!("quiet={quiet}"));
        let mut g = setup_under(r, "a7 g7 g1 b2", "a1 d1 f2 c3", [0, 0], Player::Blue);
        let mut end = None;
        for t in shuffle.iter().chain(&shuffle) {
            g = turn(&g, t).unwrap();
            if let Some(o) = g.outcome() {
                end = Some((g.turns() - 40, o.reason));
                break;
            }
        }
        assert_eq!(end, Some((quiet.min(8), reason)), "quiet={quiet}");
    }
}

#[test]
fn without_flying_three_pieces_slide_and_can_be_blocked() {
    let g = setup_under(
        Rules::NOFLYING,
        "a7 g7 g1",
        "d7 d1 a1 f2",
        [0, 0],
        Player::Blue,
    );
    assert!(!g.can_fly());
    assert_eq!(
        g.stage(Player::Blue),
        Stage::Moving,
        "no « Phase de saut » without flying"
    );
    assert_eq!(g.destinations(p("a7")), Points(points("a4")));
    assert_eq!(turn(&g, "a7-e4"), Err(Illegal::NotAdjacent));
    // Three pieces walled in: blocked, a loss, where flying would have saved them.
    let g = setup_under(
        Rules::NOFLYING,
        "a7 g7 g1",
        "d7 g4 d1 b4 f2",
        [0, 0],
        Player::Red,
    );
    let end = turn(&g, "b4-a4").unwrap();
    assert_eq!(outcome(&end), Some((Some(Player::Red), Reason::Blocked)));
    let g = setup("a7 g7 g1", "d7 g4 d1 b4 f2", [0, 0], Player::Red);
    assert_eq!(
        outcome(&turn(&g, "b4-a4").unwrap()),
        None,
        "flying under nine"
    );
    // Three pieces slide into a mill, and two pieces still lose.
    let g = setup_under(
        Rules::NOFLYING,
        "a7 d7 g4",
        "a1 g1 c3",
        [0, 0],
        Player::Blue,
    );
    let end = turn(&g, "g4-g7xa1").unwrap();
    assert_eq!(outcome(&end), Some((Some(Player::Blue), Reason::Pieces)));
}

#[test]
fn last_mill_names_the_mills_the_last_step_closed_until_the_next_turn() {
    let g = replay("a7 b6 d7 d6");
    assert_eq!(g.last_mill(), Points::EMPTY, "no mill yet");
    let pending = g.play(Action::Place(p("g7"))).unwrap();
    assert_eq!(pending.last_mill(), Points(points("a7 d7 g7")));
    let taken = pending.play(Action::Capture(p("b6"))).unwrap();
    assert_eq!(
        taken.last_mill(),
        Points(points("a7 d7 g7")),
        "the mill stands"
    );
    let next = taken.play(Action::Place(p("b4"))).unwrap();
    assert_eq!(next.last_mill(), Points::EMPTY, "the next turn closed none");
    // A piece closing two mills at once names both.
    let double = setup("a7 d7 g4 g1", "b6 d6 f6 b4", [1, 1], Player::Blue)
        .play(Action::Place(p("g7")))
        .unwrap();
    assert_eq!(double.last_mill(), Points(points("a7 d7 g7 g4 g1")));
    assert_eq!(Morris::new().last_mill(), Points::EMPTY);
}
