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
pub fn click(game: &Morris, selected: Option<Point>, p: Point) -> Click {
    match game.phase() {
        Phase::Over => Click::Refuse(refusal(Illegal::GameOver)),
        Phase::Capture => Click::Play(Action::Capture(p)),
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
}
