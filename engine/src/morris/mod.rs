//! Nine Men's Morris as played here (docs/rules.md), under a set of [`Rules`].
//!
//! A turn places a piece (while the mover's reserve is not empty) or moves one to an adjacent
//! empty point (flying anywhere with exactly three pieces once placement is over). When the piece
//! closes a mill, the same player captures one opponent piece before the turn is counted: the state
//! is then in [`Phase::Capture`]. After each turn, in order: the opponent under three pieces
//! (reserve included) loses; a full board is a draw; the opponent without a legal turn loses;
//! the third occurrence of the same position is a draw; `quiet` turns in a row without a capture
//! are a draw (when the rules say so); reaching the turn limit is a draw.
//!
//! The rules change the board (diagonals), the pieces, flying, Lasker's slides during placement
//! and the quiet draw; [`Morris::new`] plays the defaults (`nine`):
//!
//! ```
//! use engine::{Game, morris::{Morris, Rules}};
//!
//! let twelve = Morris::with_rules(Rules::TWELVE, 100).unwrap();
//! assert_eq!(twelve.reserve(engine::Player::Blue), 12);
//! // a7, b6 and c5 make a mill on the diagonal.
//! let g = engine::record::replay(twelve, "a7 d7 b6 d6").unwrap();
//! assert!(g.play_turn(Morris::parse_turn("c5xd7").unwrap()).is_ok());
//! ```
//!
//! ```
//! use engine::{Game, Player, morris::{Action, Morris, Phase, Point}};
//!
//! let g = engine::record::replay(Morris::new(), "a7 b6 d7 d6").unwrap();
//! let g7 = Point::from_name("g7").unwrap();
//! let pending = g.play(Action::Place(g7)).unwrap(); // closes the top mill
//! assert_eq!(pending.phase(), Phase::Capture);
//! assert_eq!(pending.to_move(), Player::Blue);
//! assert_eq!(pending.turns(), 4); // not counted yet
//! let done = pending.play(Action::Capture(Point::from_name("b6").unwrap())).unwrap();
//! assert_eq!((done.turns(), done.to_move()), (5, Player::Red));
//!
//! // The same turn as a record token; a mill without its capture is refused.
//! assert!(g.play_turn(Morris::parse_turn("g7").unwrap()).is_err());
//! assert_eq!(g.play_turn(Morris::parse_turn("g7xb6").unwrap()).unwrap(), done);
//! ```

mod geometry;
pub mod perft;
mod rules;

pub(crate) use geometry::ALL;
pub use geometry::{links, mills, Geometry, Point, Points};
pub use rules::{Param, Rules, RulesError, MAX_QUIET, MAX_RULES_LEN};

use crate::nav::Bits;
use crate::{Game, GameKind, Illegal, Outcome, ParseError, Player, Reason};
use std::fmt;

/// Pieces each player starts with in reserve under the default rules ([`Rules::pieces`]).
pub const PIECES: u8 = 9;
/// Default turn limit.
pub const DEFAULT_MAX_TURNS: u16 = 100;
/// Smallest allowed turn limit.
pub const MIN_MAX_TURNS: u16 = 1;
/// Largest allowed turn limit.
pub const MAX_MAX_TURNS: u16 = 500;

/// A turn limit outside 1–500.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitOutOfRange(pub u32);

impl fmt::Display for LimitOutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "turn limit {} is out of range ({MIN_MAX_TURNS}–{MAX_MAX_TURNS})",
            self.0
        )
    }
}

impl std::error::Error for LimitOutOfRange {}

/// Checks a turn limit: 1–500.
pub fn check_max_turns(n: u32) -> Result<u16, LimitOutOfRange> {
    if (MIN_MAX_TURNS as u32..=MAX_MAX_TURNS as u32).contains(&n) {
        Ok(n as u16)
    } else {
        Err(LimitOutOfRange(n))
    }
}

/// Where a game stands between steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The player to move places or moves a piece.
    Play,
    /// The player to move closed a mill and must capture; the turn is not counted yet.
    Capture,
    /// The game is over.
    Over,
}

impl Phase {
    /// `"play"`, `"capture"` or `"over"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Phase::Play => "play",
            Phase::Capture => "capture",
            Phase::Over => "over",
        }
    }
}

/// A player's stage, as shown under their name. It is a label only: moving waits for both
/// reserves to be empty (under Lasker a placing side may also slide), and two pieces lose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// « Phase de pose (N jetons restants) »: pieces remain in reserve (under Lasker the side
    /// may also slide).
    Placing {
        /// Pieces left in reserve (at least 1).
        remaining: u8,
    },
    /// « Phase de mouvement ».
    Moving,
    /// « Phase de saut »: three pieces or fewer on the board, when the rules let a side fly.
    Flying,
}

/// One step, as a click produces it and the network carries it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Put a piece from the reserve on an empty point.
    Place(Point),
    /// Move a piece to an adjacent empty point, or any empty point when flying.
    Move {
        /// The piece's point.
        from: Point,
        /// The empty destination.
        to: Point,
    },
    /// Remove an opponent piece after closing a mill.
    Capture(Point),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Place(p) => write!(f, "{p}"),
            Action::Move { from, to } => write!(f, "{from}-{to}"),
            Action::Capture(p) => write!(f, "x{p}"),
        }
    }
}

/// A whole turn: a placement (`from` is `None`) or a move, with its capture if it closed a mill.
///
/// Notation: `d6`, `a7-d7`, `d6xb4`, `a7-d7xg1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Turn {
    /// The moved piece's point, or `None` for a placement.
    pub from: Option<Point>,
    /// The destination.
    pub to: Point,
    /// The captured opponent piece, when the turn closed a mill.
    pub capture: Option<Point>,
}

impl Turn {
    /// The place or move step of the turn.
    pub fn step(self) -> Action {
        match self.from {
            None => Action::Place(self.to),
            Some(from) => Action::Move { from, to: self.to },
        }
    }
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(from) = self.from {
            write!(f, "{from}-")?;
        }
        write!(f, "{}", self.to)?;
        if let Some(c) = self.capture {
            write!(f, "x{c}")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Turn {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Turn, ParseError> {
        const EXPECTED: &str = "a point such as d6, a move such as a7-d7, optionally with xb4";
        let err = ParseError { expected: EXPECTED };
        let point = |t: &str| Point::from_name(t).ok_or(err.clone());
        let (body, capture) = match s.split_once('x') {
            Some((body, cap)) => (body, Some(point(cap)?)),
            None => (s, None),
        };
        let (from, to) = match body.split_once('-') {
            Some((from, to)) => (Some(point(from)?), point(to)?),
            None => (None, point(body)?),
        };
        Ok(Turn { from, to, capture })
    }
}

/// The bitboard core of a position: what repetition compares, and what perft copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Position {
    pub(crate) pieces: [u32; 2],
    pub(crate) reserves: [u8; 2],
    pub(crate) to_move: Player,
}

impl Position {
    const fn start(rules: Rules) -> Position {
        Position {
            pieces: [0, 0],
            reserves: [rules.pieces(), rules.pieces()],
            to_move: Player::Blue,
        }
    }

    /// An exact key: the whole position packed in 57 bits (no hashing, no collisions).
    #[inline]
    pub(crate) fn key(&self) -> u64 {
        self.pieces[0] as u64
            | (self.pieces[1] as u64) << 24
            | (self.reserves[0] as u64) << 48
            | (self.reserves[1] as u64) << 52
            | (self.to_move as u64) << 56
    }

    #[inline]
    pub(crate) fn empty(&self) -> u32 {
        !(self.pieces[0] | self.pieces[1]) & ALL
    }

    #[inline]
    pub(crate) fn placement_over(&self) -> bool {
        self.reserves == [0, 0]
    }

    /// Flying: the rules allow it, placement is over and the player has exactly three pieces.
    #[inline]
    pub(crate) fn can_fly(&self, rules: Rules, p: Player) -> bool {
        self.placement_over() && self.pieces[p.index()].count_ones() == 3 && rules.flying()
    }

    /// True when the player's turn may move a piece: once its reserve is empty, or always under
    /// Lasker.
    #[inline]
    pub(crate) fn may_move(&self, rules: Rules, p: Player) -> bool {
        self.reserves[p.index()] == 0 || rules.lasker()
    }

    /// Empty points the piece on `from` may go to (no check that `from` holds a piece, nor that
    /// the player may move now).
    #[inline]
    pub(crate) fn destinations(&self, rules: Rules, geo: &Geometry, p: Player, from: u32) -> u32 {
        if self.can_fly(rules, p) {
            self.empty()
        } else {
            geo.adjacent[from as usize] & self.empty()
        }
    }

    /// True when the player, allowed to move, has at least one move (a slide, or a flight).
    #[inline]
    pub(crate) fn has_move(&self, rules: Rules, geo: &Geometry, p: Player) -> bool {
        let empty = self.empty();
        if self.can_fly(rules, p) {
            return empty != 0;
        }
        Bits(self.pieces[p.index()]).any(|from| geo.adjacent[from as usize] & empty != 0)
    }

    /// Outcome of a completed turn: `self` is the position after it, with the turn already
    /// passed to the opponent; `repetitions` counts this position's occurrences including now,
    /// `quiet_turns` the completed turns since the last capture.
    #[inline]
    pub(crate) fn outcome_after_turn(
        &self,
        rules: Rules,
        geo: &Geometry,
        (turns, max_turns): (u16, u16),
        repetitions: usize,
        quiet_turns: u16,
    ) -> Option<Outcome> {
        let next = self.to_move;
        let mover = next.opponent();
        let n = next.index();
        if self.pieces[n].count_ones() + (self.reserves[n] as u32) < 3 {
            return Some(Outcome {
                winner: Some(mover),
                reason: Reason::Pieces,
            });
        }
        // Only 12 pieces a side can fill the board (a constant in hot loops); one test on the
        // common path (a side placing on a board with room) for « full » and « blocked ».
        let full = rules.pieces() == 12 && self.empty() == 0;
        if self.reserves[n] == 0 || full {
            if full {
                return Some(Outcome {
                    winner: None,
                    reason: Reason::Full,
                });
            }
            // No legal turn: the board is not full, so a side with pieces in reserve could
            // place; this one must move. (Under the default rules a side's reserve empties only
            // when placement ends, so this is « no move once both reserves are empty ».)
            if !self.has_move(rules, geo, next) {
                return Some(Outcome {
                    winner: Some(mover),
                    reason: Reason::Blocked,
                });
            }
        }
        if repetitions >= 3 {
            return Some(Outcome {
                winner: None,
                reason: Reason::Repetition,
            });
        }
        // `quiet > 0 && quiet_turns >= quiet` in one comparison: 0 wraps to 65 535.
        if rules.quiet().wrapping_sub(1) < quiet_turns {
            return Some(Outcome {
                winner: None,
                reason: Reason::Quiet,
            });
        }
        if turns >= max_turns {
            return Some(Outcome {
                winner: None,
                reason: Reason::Limit,
            });
        }
        None
    }
}

/// The rules as a hot loop (perft, search) sees them. The loop is compiled twice: with `BASIC`
/// (chosen once, from [`Rules::is_basic`]) every switch but flying is a constant of the
/// compiled code and the board is the plain one, so that the default rules pay nothing for the
/// others; without it, everything is read from the rules.
#[derive(Clone, Copy)]
pub(crate) struct Law<const BASIC: bool> {
    rules: Rules,
}

impl<const BASIC: bool> Law<BASIC> {
    /// `rules` must be basic when `BASIC` is.
    pub(crate) fn new(rules: Rules) -> Law<BASIC> {
        debug_assert!(!BASIC || rules.is_basic());
        Law { rules }
    }

    /// The rules, or for basic rules their equivalent with constant switches.
    #[inline(always)]
    pub(crate) fn rules(self) -> Rules {
        if BASIC {
            Rules::basic(self.rules.flying())
        } else {
            self.rules
        }
    }

    /// The board, a constant for basic rules.
    #[inline(always)]
    pub(crate) fn geo(self) -> &'static Geometry {
        if BASIC {
            Geometry::board::<false>()
        } else {
            Geometry::of(self.rules)
        }
    }
}

/// Opponent pieces that may be captured: those outside complete mills, or all of them when every
/// one stands in a mill.
#[inline]
pub(crate) fn capturable(geo: &Geometry, theirs: u32) -> u32 {
    let mut in_mill = 0;
    for &m in geo.mill_masks() {
        if theirs & m == m {
            in_mill |= m;
        }
    }
    if in_mill == theirs {
        theirs
    } else {
        theirs & !in_mill
    }
}

/// True when the player's pieces `mine` (after the step) form a mill through `to`.
#[inline]
pub(crate) fn closes_mill(geo: &Geometry, mine: u32, to: u32) -> bool {
    let [a, b, c] = geo.through[to as usize];
    // Only a corner of the diagonal board lies on a third mill (a constant in hot loops).
    mine & a == a || mine & b == b || (geo.diagonal && mine & c == c)
}

/// A Nine Men's Morris game: its rules, the position, the phase, the turn count and limit, the
/// turns since the last capture, the last turn, the result and the positions seen since the
/// last irreversible turn (for repetition).
///
/// Values are immutable in practice: every transition returns a new `Morris`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Morris {
    rules: Rules,
    pos: Position,
    phase: Phase,
    turns: u16,
    max_turns: u16,
    /// Completed turns since the last capture (or the start): the `quiet` rule's counter.
    quiet: u16,
    /// The last completed turn, or during [`Phase::Capture`] the pending step (capture `None`).
    last: Option<Turn>,
    outcome: Option<Outcome>,
    /// Keys of the positions after each completed turn since the last placement or capture
    /// (which make every earlier position unreachable: reserves and piece counts only go down;
    /// a Lasker slide during placement is not irreversible and stays in the window), current
    /// position last.
    seen: Vec<u64>,
}

impl Default for Morris {
    fn default() -> Morris {
        Morris::new()
    }
}

impl Morris {
    /// A new game under the default rules (`nine`) with the default limit of 100 turns.
    pub fn new() -> Morris {
        Morris::start(Rules::NINE, DEFAULT_MAX_TURNS)
    }

    fn start(rules: Rules, max_turns: u16) -> Morris {
        let pos = Position::start(rules);
        Morris {
            rules,
            pos,
            phase: Phase::Play,
            turns: 0,
            max_turns,
            quiet: 0,
            last: None,
            outcome: None,
            seen: vec![pos.key()],
        }
    }

    /// A new game under the default rules with this turn limit (1–500).
    pub fn with_max_turns(max_turns: u32) -> Result<Morris, LimitOutOfRange> {
        Morris::with_rules(Rules::NINE, max_turns)
    }

    /// A new game under these rules with this turn limit (1–500).
    pub fn with_rules(rules: Rules, max_turns: u32) -> Result<Morris, LimitOutOfRange> {
        Ok(Morris::start(rules, check_max_turns(max_turns)?))
    }

    /// The rules of the game.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The board of the rules: links and mills, with the diagonals when they are in play.
    pub fn geometry(&self) -> &'static Geometry {
        Geometry::of(self.rules)
    }

    /// Completed turns since the last capture (or the start of the game): the counter of the
    /// `quiet` rule, which draws the game when it reaches [`Rules::quiet`].
    pub fn quiet_turns(&self) -> u16 {
        self.quiet
    }

    /// The phase: play, capture pending, or over.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Completed turns of both players (placements included).
    pub fn turns(&self) -> u32 {
        self.turns as u32
    }

    /// The turn limit.
    pub fn max_turns(&self) -> u16 {
        self.max_turns
    }

    /// The piece on a point.
    pub fn piece_at(&self, p: Point) -> Option<Player> {
        Player::BOTH
            .into_iter()
            .find(|pl| self.pos.pieces[pl.index()] & p.bit() != 0)
    }

    /// A player's pieces on the board.
    pub fn pieces(&self, player: Player) -> Points {
        Points(self.pos.pieces[player.index()])
    }

    /// Number of a player's pieces on the board.
    pub fn pieces_on_board(&self, player: Player) -> u8 {
        self.pos.pieces[player.index()].count_ones() as u8
    }

    /// Pieces left in a player's reserve.
    pub fn reserve(&self, player: Player) -> u8 {
        self.pos.reserves[player.index()]
    }

    /// A player's stage label (see [`Stage`]).
    pub fn stage(&self, player: Player) -> Stage {
        match self.reserve(player) {
            0 if self.rules.flying() && self.pieces_on_board(player) <= 3 => Stage::Flying,
            0 => Stage::Moving,
            remaining => Stage::Placing { remaining },
        }
    }

    /// True while the player to move still has pieces in reserve, so their turn is a placement
    /// (or, under Lasker, a placement or a slide).
    pub fn is_placing(&self) -> bool {
        self.pos.reserves[self.pos.to_move.index()] > 0
    }

    /// True when the player to move may move a piece this turn: their reserve is empty, or the
    /// rules are Lasker's.
    pub fn may_move(&self) -> bool {
        self.pos.may_move(self.rules, self.pos.to_move)
    }

    /// True when the player to move may fly (the rules allow it, placement over, exactly three
    /// pieces).
    pub fn can_fly(&self) -> bool {
        self.pos.can_fly(self.rules, self.pos.to_move)
    }

    /// The last completed turn; during a pending capture, the step that closed the mill.
    pub fn last_turn(&self) -> Option<Turn> {
        self.last
    }

    /// How many times the current position has occurred (1 for a new one).
    pub fn repetitions(&self) -> usize {
        let key = self.pos.key();
        self.seen.iter().filter(|&&k| k == key).count()
    }

    /// Where the piece on `from` may go now: empty for anything but a piece of the player to
    /// move in the play phase when they may move ([`Morris::may_move`]).
    pub fn destinations(&self, from: Point) -> Points {
        let me = self.pos.to_move;
        if self.phase != Phase::Play
            || !self.may_move()
            || self.pos.pieces[me.index()] & from.bit() == 0
        {
            return Points::EMPTY;
        }
        Points(
            self.pos
                .destinations(self.rules, self.geometry(), me, from.index() as u32),
        )
    }

    /// Pieces of the player to move that have a destination now (empty when they may not move).
    pub fn movable(&self) -> Points {
        let me = self.pos.to_move;
        Points(self.pos.pieces[me.index()])
            .iter()
            .filter(|&p| !self.destinations(p).is_empty())
            .collect()
    }

    /// Empty points where the player to move may place now (empty outside placement).
    pub fn placements(&self) -> Points {
        if self.phase == Phase::Play && self.is_placing() {
            Points(self.pos.empty())
        } else {
            Points::EMPTY
        }
    }

    /// Opponent pieces the player to move may capture now (empty unless a capture is pending).
    pub fn capturable(&self) -> Points {
        if self.phase != Phase::Capture {
            return Points::EMPTY;
        }
        Points(capturable(
            self.geometry(),
            self.pos.pieces[self.pos.to_move.opponent().index()],
        ))
    }

    /// True when the piece on `p` stands in a complete mill of its colour.
    pub fn in_mill(&self, p: Point) -> bool {
        self.piece_at(p).is_some_and(|owner| {
            let mine = self.pos.pieces[owner.index()];
            self.geometry().mills_through(p).any(|m| mine & m.0 == m.0)
        })
    }

    /// The mill or mills the last step closed: every complete mill through the point the last
    /// placed or moved piece stands on (that point was empty before the step, so these mills are
    /// new); empty when the last step closed none, or before the first.
    pub fn last_mill(&self) -> Points {
        let Some(to) = self.last.map(|t| t.to) else {
            return Points::EMPTY;
        };
        let Some(owner) = self.piece_at(to) else {
            return Points::EMPTY;
        };
        let mine = self.pos.pieces[owner.index()];
        Points(
            self.geometry()
                .mills_through(to)
                .filter(|m| mine & m.0 == m.0)
                .fold(0, |all, m| all | m.0),
        )
    }

    /// Ends the turn: counts it, passes the move, records the position, decides the result.
    /// `captured` implies `irreversible`.
    fn finish_turn(&mut self, irreversible: bool, captured: bool) {
        self.turns += 1;
        self.quiet = if captured { 0 } else { self.quiet + 1 };
        self.pos.to_move = self.pos.to_move.opponent();
        let key = self.pos.key();
        if irreversible {
            self.seen.clear();
        }
        self.seen.push(key);
        let reps = self.repetitions();
        self.outcome = self.pos.outcome_after_turn(
            self.rules,
            self.geometry(),
            (self.turns, self.max_turns),
            reps,
            self.quiet,
        );
        self.phase = if self.outcome.is_some() {
            Phase::Over
        } else {
            Phase::Play
        };
    }

    /// After a place or move step: wait for a capture if a mill closed, else end the turn.
    fn after_step(mut self, from: Option<Point>, to: Point) -> Morris {
        let me = self.pos.to_move;
        self.last = Some(Turn {
            from,
            to,
            capture: None,
        });
        let mill = closes_mill(
            self.geometry(),
            self.pos.pieces[me.index()],
            to.index() as u32,
        );
        // With no opponent piece on the board there is nothing to take (unreachable under the
        // default rules; under Lasker a side may slide while its pieces on the board are gone).
        if mill && self.pos.pieces[me.opponent().index()] != 0 {
            self.phase = Phase::Capture;
        } else {
            self.finish_turn(from.is_none(), false);
        }
        self
    }

    fn check_placement(&self, to: Point) -> Result<(), Illegal> {
        let me = self.pos.to_move.index();
        if self.pos.reserves[me] == 0 {
            Err(Illegal::MustMove)
        } else if self.pos.empty() & to.bit() == 0 {
            Err(Illegal::Occupied)
        } else {
            Ok(())
        }
    }

    fn check_move(&self, from: Point, to: Point) -> Result<(), Illegal> {
        let me = self.pos.to_move;
        if !self.may_move() {
            Err(Illegal::MustPlace)
        } else if self.pos.pieces[me.index()] & from.bit() == 0 {
            Err(Illegal::NotYourPiece)
        } else if from == to {
            Err(Illegal::SamePoint)
        } else if self.pos.empty() & to.bit() == 0 {
            Err(Illegal::Occupied)
        } else if self
            .pos
            .destinations(self.rules, self.geometry(), me, from.index() as u32)
            & to.bit()
            == 0
        {
            Err(Illegal::NotAdjacent)
        } else {
            Ok(())
        }
    }

    fn check_capture(&self, at: Point) -> Result<(), Illegal> {
        let theirs = self.pos.pieces[self.pos.to_move.opponent().index()];
        if theirs & at.bit() == 0 {
            Err(Illegal::NotOpponentPiece)
        } else if capturable(self.geometry(), theirs) & at.bit() == 0 {
            Err(Illegal::Protected)
        } else {
            Ok(())
        }
    }

    /// The ASCII board used in tests and debugging: `.` empty, `B` blue, `R` red, by index.
    pub fn board_string(&self) -> String {
        Point::all()
            .map(|p| match self.piece_at(p) {
                None => '.',
                Some(Player::Blue) => 'B',
                Some(Player::Red) => 'R',
            })
            .collect()
    }

    pub(crate) fn position(&self) -> Position {
        self.pos
    }

    pub(crate) fn seen(&self) -> &[u64] {
        &self.seen
    }

    /// A position set up directly (tests elsewhere in the crate): pieces as masks, no history.
    #[cfg(test)]
    pub(crate) fn from_parts(
        pieces: [u32; 2],
        reserves: [u8; 2],
        to_move: Player,
        turns: u16,
        max_turns: u16,
    ) -> Morris {
        Morris::from_parts_under(Rules::NINE, pieces, reserves, to_move, turns, max_turns)
    }

    /// [`Morris::from_parts`] under other rules.
    #[cfg(test)]
    pub(crate) fn from_parts_under(
        rules: Rules,
        pieces: [u32; 2],
        reserves: [u8; 2],
        to_move: Player,
        turns: u16,
        max_turns: u16,
    ) -> Morris {
        assert_eq!(pieces[0] & pieces[1], 0, "overlapping setup");
        let pos = Position {
            pieces,
            reserves,
            to_move,
        };
        Morris {
            pos,
            turns,
            max_turns,
            seen: vec![pos.key()],
            ..Morris::start(rules, max_turns)
        }
    }
}

#[cfg(test)]
impl Morris {
    /// The same state with the `quiet` counter set (tests elsewhere in the crate).
    pub(crate) fn with_quiet_turns(mut self, quiet: u16) -> Morris {
        self.quiet = quiet;
        self
    }
}

impl fmt::Debug for Morris {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Morris")
            .field("rules", &self.rules.to_string())
            .field("board", &self.board_string())
            .field("reserves", &self.pos.reserves)
            .field("to_move", &self.pos.to_move)
            .field("phase", &self.phase)
            .field("turns", &self.turns)
            .field("max_turns", &self.max_turns)
            .field("quiet", &self.quiet)
            .field("last", &self.last)
            .field("outcome", &self.outcome)
            .finish()
    }
}

impl Game for Morris {
    type Action = Action;
    type Turn = Turn;
    const KIND: GameKind = GameKind::Morris;

    fn to_move(&self) -> Player {
        self.pos.to_move
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn turns(&self) -> u32 {
        self.turns as u32
    }

    fn legal_actions(&self) -> Vec<Action> {
        match self.phase {
            Phase::Over => Vec::new(),
            Phase::Capture => self.capturable().iter().map(Action::Capture).collect(),
            // Placements first, then (once the reserve is empty, or under Lasker) moves.
            Phase::Play => self
                .placements()
                .iter()
                .map(Action::Place)
                .chain(self.pieces(self.pos.to_move).iter().flat_map(|from| {
                    self.destinations(from)
                        .iter()
                        .map(move |to| Action::Move { from, to })
                }))
                .collect(),
        }
    }

    fn play(&self, action: Action) -> Result<Morris, Illegal> {
        if self.phase == Phase::Over {
            return Err(Illegal::GameOver);
        }
        let me = self.pos.to_move.index();
        match (self.phase, action) {
            (Phase::Capture, Action::Capture(at)) => {
                self.check_capture(at)?;
                let mut next = self.clone();
                next.pos.pieces[1 - me] &= !at.bit();
                if let Some(last) = next.last.as_mut() {
                    last.capture = Some(at);
                }
                next.finish_turn(true, true);
                Ok(next)
            }
            (Phase::Capture, _) => Err(Illegal::CaptureRequired),
            (_, Action::Capture(_)) => Err(Illegal::NoCapturePending),
            (_, Action::Place(to)) => {
                self.check_placement(to)?;
                let mut next = self.clone();
                next.pos.pieces[me] |= to.bit();
                next.pos.reserves[me] -= 1;
                Ok(next.after_step(None, to))
            }
            (_, Action::Move { from, to }) => {
                self.check_move(from, to)?;
                let mut next = self.clone();
                next.pos.pieces[me] ^= from.bit() | to.bit();
                Ok(next.after_step(Some(from), to))
            }
        }
    }

    fn legal_turns(&self) -> Vec<Turn> {
        let steps = match self.phase {
            Phase::Over => return Vec::new(),
            // The turn in progress: its step is already played, only the capture is open.
            Phase::Capture => {
                let Some(last) = self.last else {
                    return Vec::new();
                };
                return self
                    .capturable()
                    .iter()
                    .map(|c| Turn {
                        capture: Some(c),
                        ..last
                    })
                    .collect();
            }
            Phase::Play => self.legal_actions(),
        };
        let mut turns = Vec::with_capacity(steps.len());
        for step in steps {
            let (from, to) = match step {
                Action::Place(to) => (None, to),
                Action::Move { from, to } => (Some(from), to),
                Action::Capture(_) => continue,
            };
            let Ok(after) = self.play(step) else { continue };
            if after.phase == Phase::Capture {
                turns.extend(after.capturable().iter().map(|c| Turn {
                    from,
                    to,
                    capture: Some(c),
                }));
            } else {
                turns.push(Turn {
                    from,
                    to,
                    capture: None,
                });
            }
        }
        turns
    }

    fn play_turn(&self, turn: Turn) -> Result<Morris, Illegal> {
        let after_step = if self.phase == Phase::Capture {
            // Completing the turn in progress: the step must be the one already played.
            match self.last {
                Some(last) if last.from == turn.from && last.to == turn.to => self.clone(),
                _ => return Err(Illegal::CaptureRequired),
            }
        } else {
            self.play(turn.step())?
        };
        match (after_step.phase, turn.capture) {
            (Phase::Capture, Some(at)) => after_step.play(Action::Capture(at)),
            (Phase::Capture, None) => Err(Illegal::MissingCapture),
            (_, Some(_)) => Err(Illegal::UnexpectedCapture),
            (_, None) => Ok(after_step),
        }
    }

    fn parse_turn(token: &str) -> Result<Turn, ParseError> {
        token.parse()
    }
}

#[cfg(test)]
mod tests;
