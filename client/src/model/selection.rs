//! What a click on a Morris point means, once for every mode (hot-seat, remote, against the
//! computer): place, select, change or clear the selection, move, capture — or why not. The
//! selection itself stays in the page (it is never sent anywhere).

use super::text;
use crate::i18n::{t, Text};
use engine::morris::{Action, Morris, Phase, Point};
use engine::{Game, Illegal};

/// What a click on a point asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Click {
    /// Play this step (the engine may still refuse it: see [`text::morris_refusal`]).
    Play(Action),
    /// Select this piece of the player to move; with a message when it cannot move.
    Select(Point, Option<Text>),
    /// Clear the selection (the selected piece was clicked again).
    Deselect,
    /// Nothing to play: why.
    Refuse(Text),
}

/// What clicking `p` means in `game` for the player to move, with `selected` the piece they
/// selected before.
///
/// While the player places and may also move (Lasker's rule, [`Morris::may_move`]): a click on
/// one of their pieces that can move selects it (again: deselects), a click on one of its
/// destinations moves it there, and a click on any other point places a piece there.
pub fn click(game: &Morris, selected: Option<Point>, p: Point) -> Click {
    match game.phase() {
        Phase::Over => Click::Refuse(refusal(Illegal::GameOver)),
        Phase::Capture => Click::Play(Action::Capture(p)),
        Phase::Play if game.is_placing() && game.may_move() => match selected {
            Some(s) if s == p => Click::Deselect,
            Some(from) if game.destinations(from).contains(p) => {
                Click::Play(Action::Move { from, to: p })
            }
            _ if game.movable().contains(p) => Click::Select(p, None),
            _ if game.piece_at(p) == Some(game.to_move()) => {
                Click::Refuse(Text::of(t::morris_blocked_piece))
            }
            _ => Click::Play(Action::Place(p)),
        },
        Phase::Play if game.is_placing() => Click::Play(Action::Place(p)),
        Phase::Play => match (selected, game.piece_at(p)) {
            (Some(s), _) if s == p => Click::Deselect,
            (_, Some(owner)) if owner == game.to_move() => Click::Select(
                p,
                game.destinations(p)
                    .is_empty()
                    .then(|| Text::of(t::morris_blocked_piece)),
            ),
            (Some(from), None) => Click::Play(Action::Move { from, to: p }),
            (None, None) => Click::Refuse(Text::of(t::morris_select_first)),
            (_, Some(_)) => Click::Refuse(refusal(Illegal::NotYourPiece)),
        },
    }
}

/// Why the engine refuses a step, kept to be shown.
pub fn refusal(e: Illegal) -> Text {
    Text::new(move || text::morris_refusal(e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::record;

    fn p(name: &str) -> Point {
        Point::from_name(name).unwrap()
    }

    #[test]
    fn clicks_select_deselect_move_and_say_why_not() {
        let placing = Morris::new();
        assert_eq!(
            click(&placing, None, p("d6")),
            Click::Play(Action::Place(p("d6")))
        );
        let moving = record::replay(
            Morris::new(),
            "a7 d7 g7 a4 g4 g1 a1 d1 b6 d6 f6 b4 f4 f2 b2 d2 c5 e5",
        )
        .unwrap();
        assert_eq!(click(&moving, None, p("c5")), Click::Select(p("c5"), None));
        assert_eq!(click(&moving, Some(p("c5")), p("c5")), Click::Deselect);
        assert_eq!(
            click(&moving, Some(p("c5")), p("f4")),
            Click::Select(p("f4"), None),
            "another own piece changes the selection"
        );
        assert_eq!(
            click(&moving, Some(p("c5")), p("c4")),
            Click::Play(Action::Move {
                from: p("c5"),
                to: p("c4")
            })
        );
        assert_eq!(
            click(&moving, None, p("c4")),
            Click::Refuse(Text::of(t::morris_select_first))
        );
        assert_eq!(
            click(&moving, None, p("d7")),
            Click::Refuse(refusal(Illegal::NotYourPiece))
        );
        // a7 is boxed in by d7 and a4.
        assert!(matches!(
            click(&moving, None, p("a7")),
            Click::Select(_, Some(_))
        ));
        let pending = record::replay(Morris::new(), "a7 b6 d7 d6")
            .unwrap()
            .play(Action::Place(p("g7")))
            .unwrap();
        assert_eq!(
            click(&pending, None, p("b6")),
            Click::Play(Action::Capture(p("b6")))
        );
    }

    #[test]
    fn under_lasker_a_placing_player_places_or_selects_and_slides() {
        use engine::morris::Rules;
        let lasker = Morris::with_rules(Rules::LASKER, 100).unwrap();
        // Blue a7, Red d7, Blue a4 (Blue's a7 can go nowhere: d7 and a4 hold it).
        let g = record::replay(lasker.clone(), "a7 d7 a4 g7").unwrap();
        assert!(g.is_placing() && g.may_move());
        assert_eq!(
            click(&g, None, p("d6")),
            Click::Play(Action::Place(p("d6"))),
            "an empty point places"
        );
        assert_eq!(click(&g, None, p("a4")), Click::Select(p("a4"), None));
        assert_eq!(click(&g, Some(p("a4")), p("a4")), Click::Deselect);
        assert_eq!(
            click(&g, Some(p("a4")), p("a1")),
            Click::Play(Action::Move {
                from: p("a4"),
                to: p("a1")
            }),
            "a destination slides"
        );
        assert_eq!(
            click(&g, Some(p("a4")), p("d6")),
            Click::Play(Action::Place(p("d6"))),
            "any other empty point places"
        );
        assert_eq!(
            click(&g, None, p("a7")),
            Click::Refuse(Text::of(t::morris_blocked_piece)),
            "a piece that cannot slide is not selected"
        );
        assert_eq!(
            click(&g, Some(p("a4")), p("d7")),
            Click::Play(Action::Place(p("d7"))),
            "the engine refuses the opponent's point"
        );
        // Each click plays as the engine says.
        let slid = g
            .play(Action::Move {
                from: p("a4"),
                to: p("a1"),
            })
            .unwrap();
        assert_eq!(
            slid.reserve(engine::Player::Blue),
            8,
            "a slide keeps the reserve"
        );
        // Without Lasker, the same position only places.
        let plain = record::replay(Morris::new(), "a7 d7 a4 g7").unwrap();
        assert_eq!(
            click(&plain, None, p("a4")),
            Click::Play(Action::Place(p("a4")))
        );
    }
}
