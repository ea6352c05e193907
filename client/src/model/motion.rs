//! What changed between two positions a board shows, for the board to animate it (and the sound
//! to say it): the piece placed, moved or flown, the piece captured, the mark played and the small
//! board it closed. The engine decides: a change is a motion only when the engine's own last
//! turn, played on the position before, gives the position after; anything else (an undo, a new
//! game, a jump through the history) is no motion, and the board simply shows the new position.

use engine::meta::{Cell, Meta};
use engine::morris::{Action, Morris, Point};
use engine::{Game, Player};

/// How a Morris piece reached its point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Put from the reserve.
    Place(Point),
    /// Slid along a line.
    Slide {
        /// Where it stood.
        from: Point,
        /// Where it stands.
        to: Point,
    },
    /// Flown (its player had three pieces left).
    Fly {
        /// Where it stood.
        from: Point,
        /// Where it stands.
        to: Point,
    },
}

impl Step {
    /// The point the piece stands on now.
    pub fn to(self) -> Point {
        match self {
            Step::Place(to) | Step::Slide { to, .. } | Step::Fly { to, .. } => to,
        }
    }

    /// The point the piece came from, for a slide or a flight.
    pub fn from(self) -> Option<Point> {
        match self {
            Step::Place(_) => None,
            Step::Slide { from, .. } | Step::Fly { from, .. } => Some(from),
        }
    }
}

/// One Morris change: a step, a capture, or both (a whole turn arriving at once: the computer's,
/// the opponent's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MorrisMotion {
    /// Who moved.
    pub player: Player,
    /// The piece placed or moved (none when only the pending capture was played).
    pub step: Option<Step>,
    /// The point whose piece was taken.
    pub capture: Option<Point>,
}

/// What turned `before` into `after`, when the engine's last turn of `after` did.
pub fn morris(before: &Morris, after: &Morris) -> Option<MorrisMotion> {
    let last = after.last_turn()?;
    let player = before.to_move();
    // The capture that was pending in `before`.
    if let Some(at) = last.capture {
        if before.play(Action::Capture(at)).as_ref() == Ok(after) {
            return Some(MorrisMotion {
                player,
                step: None,
                capture: Some(at),
            });
        }
    }
    let mid = before.play(last.step()).ok()?;
    let capture = if &mid == after {
        None
    } else {
        let at = last.capture?;
        (mid.play(Action::Capture(at)).ok()? == *after).then_some(at)?;
        Some(at)
    };
    let step = match last.from {
        None => Step::Place(last.to),
        Some(from) if before.can_fly() => Step::Fly { from, to: last.to },
        Some(from) => Step::Slide { from, to: last.to },
    };
    Some(MorrisMotion {
        player,
        step: Some(step),
        capture,
    })
}

/// One Ultimate tic-tac-toe change: the mark played, and the small board it closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MetaMotion {
    /// Who played.
    pub player: Player,
    /// The cell played.
    pub cell: Cell,
    /// The small board this mark won or filled.
    pub closed: Option<u8>,
}

/// What turned `before` into `after`, when the engine's last move of `after` did.
pub fn meta(before: &Meta, after: &Meta) -> Option<MetaMotion> {
    let cell = after.last_move()?;
    (before.play(cell).ok()? == *after).then_some(())?;
    let b = cell.board();
    Some(MetaMotion {
        player: before.to_move(),
        cell,
        closed: (!before.small_board(b).is_closed() && after.small_board(b).is_closed())
            .then_some(b),
    })
}

/// The sound of a change: a capture, a move, or a placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sound {
    /// A piece or mark put down.
    Place,
    /// A piece moved or flown.
    Move,
    /// A piece taken, or a small board closed.
    Capture,
}

impl Sound {
    /// Its name for the page's player (`moulin.sound` in index.html).
    pub fn name(self) -> &'static str {
        match self {
            Sound::Place => "place",
            Sound::Move => "move",
            Sound::Capture => "capture",
        }
    }
}

impl MorrisMotion {
    /// What it sounds like.
    pub fn sound(self) -> Sound {
        match (self.capture, self.step) {
            (Some(_), _) => Sound::Capture,
            (None, Some(Step::Place(_))) => Sound::Place,
            _ => Sound::Move,
        }
    }
}

impl MetaMotion {
    /// What it sounds like.
    pub fn sound(self) -> Sound {
        if self.closed.is_some() {
            Sound::Capture
        } else {
            Sound::Place
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::record;

    fn p(name: &str) -> Point {
        Point::from_name(name).unwrap()
    }

    fn replay(rec: &str) -> Morris {
        record::replay(Morris::new(), rec).unwrap()
    }

    #[test]
    fn a_placement_a_pending_capture_and_a_whole_turn() {
        let before = replay("a7 b6 d7 d6");
        let pending = before.play(Action::Place(p("g7"))).unwrap();
        assert_eq!(
            morris(&before, &pending),
            Some(MorrisMotion {
                player: Player::Blue,
                step: Some(Step::Place(p("g7"))),
                capture: None
            })
        );
        let taken = pending.play(Action::Capture(p("b6"))).unwrap();
        assert_eq!(
            morris(&pending, &taken),
            Some(MorrisMotion {
                player: Player::Blue,
                step: None,
                capture: Some(p("b6"))
            }),
            "the step was shown already: only the capture"
        );
        assert_eq!(
            morris(&before, &taken),
            Some(MorrisMotion {
                player: Player::Blue,
                step: Some(Step::Place(p("g7"))),
                capture: Some(p("b6"))
            }),
            "a whole turn at once: both"
        );
        assert_eq!(morris(&before, &taken).unwrap().sound(), Sound::Capture);
        assert_eq!(morris(&before, &pending).unwrap().sound(), Sound::Place);
    }

    #[test]
    fn slides_and_flights_are_told_apart_by_the_engine() {
        let moving = replay("a7 d7 g7 a4 g4 g1 a1 d1 b6 d6 f6 b4 f4 f2 b2 d2 c5 e5");
        let slid = record::replay(moving.clone(), "c5-c4").unwrap();
        let motion = morris(&moving, &slid).unwrap();
        assert_eq!(
            motion.step,
            Some(Step::Slide {
                from: p("c5"),
                to: p("c4")
            })
        );
        assert_eq!(motion.sound(), Sound::Move);
        assert_eq!(motion.step.unwrap().from(), Some(p("c5")));
        // Captures first, until a side flies: its move is a flight.
        let mut g = Morris::new();
        while !g.can_fly() {
            let turns = g.legal_turns();
            let t = turns
                .iter()
                .find(|t| t.capture.is_some())
                .unwrap_or(&turns[0]);
            g = g.play_turn(*t).unwrap();
        }
        let t = g.legal_turns()[0];
        let flown = g.play_turn(t).unwrap();
        assert!(matches!(
            morris(&g, &flown).unwrap().step,
            Some(Step::Fly { .. })
        ));
    }

    #[test]
    fn an_undo_a_new_game_or_a_jump_is_no_motion() {
        let a = replay("a7 b6 d7");
        let b = replay("a7 b6 d7 d6");
        assert_eq!(morris(&b, &a), None, "back");
        assert_eq!(morris(&Morris::new(), &b), None, "a jump");
        assert_eq!(morris(&b, &Morris::new()), None, "a new game");
        assert_eq!(morris(&b, &b), None, "the same position");
    }

    #[test]
    fn a_meta_mark_and_the_small_board_it_closes() {
        let c = |s: &str| Cell::from_name(s).unwrap();
        let start = Meta::new();
        let one = start.play(c("e5")).unwrap();
        assert_eq!(
            meta(&start, &one),
            Some(MetaMotion {
                player: Player::Blue,
                cell: c("e5"),
                closed: None
            })
        );
        assert_eq!(meta(&one, &start), None, "an undo");
        assert_eq!(meta(&one, &one), None);
        assert_eq!(meta(&start, &one).unwrap().sound(), Sound::Place);
    }
}
