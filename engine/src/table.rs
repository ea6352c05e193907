//! A game with its history, the one undo stack every mode uses: the hot-seat pages, the remote
//! room (`session::Room`), and the computer mode. It keeps the state at the start of every turn
//! played (completed, or in progress while a Morris capture is pending) and the completed turns,
//! so that undo goes back a whole turn — a Morris place/move with its capture — with the
//! repetition counts, and the record of the game is always at hand.
//!
//! ```
//! use engine::morris::{Action, Morris, Point};
//! use engine::table::Table;
//!
//! let mut t = Table::new(Morris::new());
//! for name in ["a7", "b6", "d7", "d6", "g7"] {
//!     t.play(Action::Place(Point::from_name(name).unwrap())).unwrap();
//! }
//! // g7 closed the top mill: the capture is pending and the turn not recorded yet.
//! assert_eq!(t.record(), "a7 b6 d7 d6");
//! t.play(Action::Capture(Point::from_name("b6").unwrap())).unwrap();
//! assert_eq!(t.record(), "a7 b6 d7 d6 g7xb6");
//! assert!(t.undo()); // the whole turn, capture included
//! assert_eq!(t.record(), "a7 b6 d7 d6");
//! assert_eq!(t.position(2), &engine::record::replay(Morris::new(), "a7 b6").unwrap());
//! ```

use crate::meta::{Cell, Meta};
use crate::morris::{self, Morris, Phase, Point};
use crate::{AnyGame, Game, Illegal};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// What a [`Table`] needs of a game: play one step, and tell where turns begin and end.
pub trait Playable: Clone {
    /// One step, as a click produces it.
    type Step: Copy;
    /// A whole turn, as written in records.
    type Turn: Copy + fmt::Debug + fmt::Display + PartialEq;
    /// The state after one step, or why it is refused (`self` is unchanged).
    fn play_step(&self, step: Self::Step) -> Result<Self, Illegal>;
    /// True while a turn is in progress (a Morris capture is pending).
    fn mid_turn(&self) -> bool;
    /// The last completed turn (meaningful when not [`Playable::mid_turn`]).
    fn last_completed(&self) -> Option<Self::Turn>;
    /// Completed turns so far.
    fn turns_played(&self) -> u32;
}

impl Playable for Morris {
    type Step = morris::Action;
    type Turn = morris::Turn;
    fn play_step(&self, step: morris::Action) -> Result<Morris, Illegal> {
        self.play(step)
    }
    fn mid_turn(&self) -> bool {
        self.phase() == Phase::Capture
    }
    fn last_completed(&self) -> Option<morris::Turn> {
        self.last_turn()
    }
    fn turns_played(&self) -> u32 {
        self.turns()
    }
}

impl Playable for Meta {
    type Step = Cell;
    type Turn = Cell;
    fn play_step(&self, cell: Cell) -> Result<Meta, Illegal> {
        self.play(cell)
    }
    fn mid_turn(&self) -> bool {
        false
    }
    fn last_completed(&self) -> Option<Cell> {
        self.last_move()
    }
    fn turns_played(&self) -> u32 {
        self.turns()
    }
}

impl Playable for AnyGame {
    type Step = Step;
    type Turn = AnyTurn;
    /// A step of the other game, or with indices out of range, is [`Illegal::OutOfRange`].
    fn play_step(&self, step: Step) -> Result<AnyGame, Illegal> {
        match self {
            AnyGame::Morris(g) => {
                let action = step.to_morris().ok_or(Illegal::OutOfRange)?;
                g.play(action).map(AnyGame::Morris)
            }
            AnyGame::Meta(g) => {
                let cell = step.to_cell().ok_or(Illegal::OutOfRange)?;
                g.play(cell).map(AnyGame::Meta)
            }
        }
    }
    fn mid_turn(&self) -> bool {
        match self {
            AnyGame::Morris(g) => g.mid_turn(),
            AnyGame::Meta(_) => false,
        }
    }
    fn last_completed(&self) -> Option<AnyTurn> {
        match self {
            AnyGame::Morris(g) => g.last_turn().map(AnyTurn::Morris),
            AnyGame::Meta(g) => g.last_move().map(AnyTurn::Meta),
        }
    }
    fn turns_played(&self) -> u32 {
        self.turns()
    }
}

/// A game and its history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table<G: Playable> {
    game: G,
    /// The state at the start of each turn played: completed ones, and the one in progress.
    /// Shared between copies: the session's fold keeps copies of the room as it goes, and a
    /// copy then costs a pointer per turn, not a game per turn.
    starts: Vec<Arc<G>>,
    /// The completed turns, in order.
    turns: Vec<G::Turn>,
}

impl<G: Playable> Table<G> {
    /// A table with a fresh game and no history.
    pub fn new(game: G) -> Table<G> {
        Table {
            game,
            starts: Vec::new(),
            turns: Vec::new(),
        }
    }

    /// The current state.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Plays one step. A step that starts a turn keeps the state before it, so that undo goes
    /// back to the start of the turn; a step that completes a turn records it.
    pub fn play(&mut self, step: G::Step) -> Result<(), Illegal> {
        let next = self.game.play_step(step)?;
        let starts_turn = !self.game.mid_turn();
        let before = std::mem::replace(&mut self.game, next);
        if starts_turn {
            self.starts.push(Arc::new(before));
        }
        if !self.game.mid_turn() {
            if let Some(turn) = self.game.last_completed() {
                self.turns.push(turn);
            }
        }
        Ok(())
    }

    /// Goes back to the start of the last turn (also one in progress, also after the end).
    /// False when there is nothing to take back.
    pub fn undo(&mut self) -> bool {
        match self.starts.pop() {
            Some(previous) => {
                self.turns.truncate(previous.turns_played() as usize);
                self.game = Arc::try_unwrap(previous).unwrap_or_else(|shared| (*shared).clone());
                true
            }
            None => false,
        }
    }

    /// True when there is a turn to take back.
    pub fn can_undo(&self) -> bool {
        !self.starts.is_empty()
    }

    /// True before the first step of the game.
    pub fn is_untouched(&self) -> bool {
        self.starts.is_empty()
    }

    /// Starts over with `game`.
    pub fn reset(&mut self, game: G) {
        *self = Table::new(game);
    }

    /// The completed turns, in order.
    pub fn turns(&self) -> &[G::Turn] {
        &self.turns
    }

    /// The completed turns in notation, separated by spaces: what `engine replay` reads.
    pub fn record(&self) -> String {
        let mut s = String::new();
        for (i, t) in self.turns.iter().enumerate() {
            if i > 0 {
                s.push(' ');
            }
            s.push_str(&t.to_string());
        }
        s
    }

    /// The state after the first `ply` completed turns (0: the start; past the end: the
    /// current state, a pending capture included).
    pub fn position(&self, ply: usize) -> &G {
        self.starts.get(ply).map_or(&self.game, |g| g)
    }
}

/// One step of either game as indices, as the network carries it (checked when applied): the
/// [`Playable::Step`] of [`AnyGame`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Step {
    /// Morris: place on a point.
    Place(u8),
    /// Morris: move from a point to a point.
    Move(u8, u8),
    /// Morris: capture on a point.
    Capture(u8),
    /// Ultimate tic-tac-toe: play a cell (`board * 9 + cell`).
    Cell(u8),
}

impl Step {
    /// The wire form of a Morris step.
    pub fn from_morris(a: morris::Action) -> Step {
        match a {
            morris::Action::Place(p) => Step::Place(p.index() as u8),
            morris::Action::Move { from, to } => Step::Move(from.index() as u8, to.index() as u8),
            morris::Action::Capture(p) => Step::Capture(p.index() as u8),
        }
    }

    /// The wire form of an Ultimate tic-tac-toe move.
    pub fn from_cell(c: Cell) -> Step {
        Step::Cell(c.index() as u8)
    }

    /// Every step the player to move may take now, in the engine's order (none once the game
    /// is over).
    pub fn legal(game: &AnyGame) -> Vec<Step> {
        match game {
            AnyGame::Morris(m) => m
                .legal_actions()
                .into_iter()
                .map(Step::from_morris)
                .collect(),
            AnyGame::Meta(m) => m.legal_actions().into_iter().map(Step::from_cell).collect(),
        }
    }

    /// The Morris step, if this is one with valid points.
    pub fn to_morris(self) -> Option<morris::Action> {
        let p = Point::new;
        Some(match self {
            Step::Place(a) => morris::Action::Place(p(a)?),
            Step::Move(a, b) => morris::Action::Move {
                from: p(a)?,
                to: p(b)?,
            },
            Step::Capture(a) => morris::Action::Capture(p(a)?),
            Step::Cell(_) => return None,
        })
    }

    /// The cell, if this is an Ultimate tic-tac-toe move with a valid index.
    pub fn to_cell(self) -> Option<Cell> {
        match self {
            Step::Cell(c) => Cell::new(c),
            _ => None,
        }
    }
}

/// A whole turn of either game: the [`Playable::Turn`] of [`AnyGame`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyTurn {
    /// A Morris turn: place or move, with its capture.
    Morris(morris::Turn),
    /// An Ultimate tic-tac-toe move.
    Meta(Cell),
}

impl fmt::Display for AnyTurn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyTurn::Morris(t) => t.fmt(f),
            AnyTurn::Meta(c) => c.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record;

    #[test]
    fn undo_takes_back_a_pending_capture_with_its_turn_and_after_the_end() {
        let mut t = Table::new(Morris::with_max_turns(6).unwrap());
        for name in ["a7", "b6", "d7", "d6", "g7"] {
            t.play(morris::Action::Place(Point::from_name(name).unwrap()))
                .unwrap();
        }
        assert!(t.game().mid_turn());
        assert_eq!(t.turns().len(), 4);
        assert!(t.undo());
        assert_eq!(
            t.game(),
            &record::replay(Morris::with_max_turns(6).unwrap(), "a7 b6 d7 d6").unwrap()
        );
        for step in ["g7", "b6", "f6"] {
            let p = Point::from_name(step).unwrap();
            let a = if t.game().mid_turn() {
                morris::Action::Capture(p)
            } else {
                morris::Action::Place(p)
            };
            t.play(a).unwrap();
        }
        assert!(t.game().is_over(), "the limit of 6 turns");
        assert_eq!(t.record(), "a7 b6 d7 d6 g7xb6 f6");
        assert!(t.undo());
        assert!(!t.game().is_over());
        assert_eq!(t.record(), "a7 b6 d7 d6 g7xb6");
        assert_eq!(t.position(5), t.game());
        assert_eq!(t.position(0), &Morris::with_max_turns(6).unwrap());
    }

    #[test]
    fn a_refused_step_changes_nothing() {
        let mut t = Table::new(AnyGame::Meta(Meta::new()));
        t.play(Step::Cell(40)).unwrap();
        let before = t.clone();
        assert_eq!(t.play(Step::Cell(40)), Err(Illegal::Occupied));
        assert_eq!(t.play(Step::Place(3)), Err(Illegal::OutOfRange));
        assert_eq!(t, before);
        assert_eq!(t.record(), "e5");
        assert!(t.undo() && !t.undo() && t.is_untouched());
    }
}
