//! The rules of **Nine Men's Morris** and **Ultimate tic-tac-toe**: the single source of truth that
//! the web client, the peer protocol, the tests and the `engine` command line all run.
//!
//! The crate is pure: no I/O, no clock, no randomness. Every state is a value; [`Game::play`]
//! returns a new state or an [`Illegal`] error and never touches the state it was called on.
//!
//! Both games have the same small surface, the [`Game`] trait, and [`AnyGame`] wraps either one so
//! that code can treat them alike:
//!
//! ```
//! use engine::{Game, morris::{Morris, Point, Action}};
//!
//! let start = Morris::new();
//! let next = start.play(Action::Place(Point::from_name("d6").unwrap())).unwrap();
//! assert_eq!(next.reserve(engine::Player::Blue), 8);
//! assert_eq!(start.reserve(engine::Player::Blue), 9); // untouched
//!
//! // Whole turns in algebraic notation, as in records.
//! let turn = Morris::parse_turn("a7").unwrap();
//! let after = next.play_turn(turn).unwrap();
//! assert_eq!(after.turns(), 2);
//! ```
//!
//! Nine Men's Morris plays in *steps* (a placement or move, then, when it closes a mill, a
//! capture by the same player) which the UI and the network exchange, and in *turns* (the step
//! with its capture) which records, perft and search use. Ultimate tic-tac-toe steps and turns
//! are the same thing.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::fmt;

pub mod ai;
pub mod meta;
pub mod morris;
pub mod nav;
pub mod record;
pub mod session;
pub mod table;

pub use nav::Direction;
pub use table::{AnyTurn, Step, Table};

/// A side. Blue (player 0) always moves first; Red is player 1.
///
/// In Ultimate tic-tac-toe Blue plays crosses and Red noughts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// Player 0, colour `#2365a0`, moves first.
    Blue = 0,
    /// Player 1, colour `#ae4433`.
    Red = 1,
}

impl Player {
    /// Both players in index order.
    pub const BOTH: [Player; 2] = [Player::Blue, Player::Red];

    /// 0 for Blue, 1 for Red.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The player with this index (0 or 1).
    pub const fn from_index(i: usize) -> Option<Player> {
        match i {
            0 => Some(Player::Blue),
            1 => Some(Player::Red),
            _ => None,
        }
    }

    /// The other side.
    #[inline]
    pub const fn opponent(self) -> Player {
        match self {
            Player::Blue => Player::Red,
            Player::Red => Player::Blue,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// Morris: the loser has fewer than three pieces, reserve included.
    Pieces,
    /// Morris: the loser has no legal turn (under the default rules: in the moving stage,
    /// no legal move).
    Blocked,
    /// Morris: the same position occurred for the third time (draw).
    Repetition,
    /// Morris: the turn limit was reached (draw).
    Limit,
    /// Morris: a completed turn left every point occupied (draw; only possible with 12 pieces).
    Full,
    /// Morris: the `quiet` rule's number of turns in a row passed without a capture (draw).
    Quiet,
    /// Ultimate tic-tac-toe: three won small boards in a line.
    Line,
    /// Ultimate tic-tac-toe: every small board is closed without a line (draw).
    AllClosed,
}

impl Reason {
    /// The lowercase name used in the command line's JSON (`"pieces"`, `"blocked"`, …).
    pub const fn as_str(self) -> &'static str {
        match self {
            Reason::Pieces => "pieces",
            Reason::Blocked => "blocked",
            Reason::Repetition => "repetition",
            Reason::Limit => "limit",
            Reason::Full => "full",
            Reason::Quiet => "quiet",
            Reason::Line => "line",
            Reason::AllClosed => "all-closed",
        }
    }
}

/// The end of a game: a winner (none for a draw) and the reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Player>,
    /// Why the game ended.
    pub reason: Reason,
}

/// Why an action was refused. The state it was offered to is unchanged.
///
/// The messages of [`fmt::Display`] are short English sentences; the client shows its own French
/// wording for each variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Illegal {
    /// The game is over.
    GameOver,
    /// Morris: a mill was closed, the same player must now capture.
    CaptureRequired,
    /// Morris: a capture was offered but no mill is waiting for one.
    NoCapturePending,
    /// Morris: the mover still has pieces in reserve and must place one.
    MustPlace,
    /// Morris: the mover's reserve is empty; pieces now move.
    MustMove,
    /// The destination point or cell is not empty.
    Occupied,
    /// Morris: the piece to move is not one of the mover's.
    NotYourPiece,
    /// Morris: the destination is not next to the piece and the mover cannot fly.
    NotAdjacent,
    /// Morris: the capture target is not an opponent piece.
    NotOpponentPiece,
    /// Morris: the capture target stands in a mill while other opponent pieces do not.
    Protected,
    /// Morris: the turn closes a mill but names no capture.
    MissingCapture,
    /// Morris: the turn names a capture but closes no mill.
    UnexpectedCapture,
    /// Morris: a move must change the piece's point.
    SamePoint,
    /// Ultimate tic-tac-toe: the small board is already won or full.
    BoardClosed,
    /// Ultimate tic-tac-toe: the move must be played in the required board.
    WrongBoard,
    /// A point or cell index out of range (only possible through unchecked construction).
    OutOfRange,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Illegal::GameOver => "the game is over",
            Illegal::CaptureRequired => "a mill was closed: capture an opponent piece first",
            Illegal::NoCapturePending => "no capture is pending",
            Illegal::MustPlace => "pieces remain in reserve: place one",
            Illegal::MustMove => "the reserve is empty: move a piece",
            Illegal::Occupied => "that point is not empty",
            Illegal::NotYourPiece => "that is not one of your pieces",
            Illegal::NotAdjacent => "that point is not adjacent and you cannot fly",
            Illegal::NotOpponentPiece => "only an opponent piece can be captured",
            Illegal::Protected => "that piece is protected by a mill",
            Illegal::MissingCapture => "this turn closes a mill and must capture",
            Illegal::UnexpectedCapture => "this turn closes no mill and cannot capture",
            Illegal::SamePoint => "a piece must move to another point",
            Illegal::BoardClosed => "that small board is closed",
            Illegal::WrongBoard => "the move must be played in the required board",
            Illegal::OutOfRange => "no such point",
        })
    }
}

impl std::error::Error for Illegal {}

/// A token that is not valid notation for the game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ParseError {
    /// What was expected, in a few words.
    pub expected: &'static str,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not valid notation: expected {}", self.expected)
    }
}

impl std::error::Error for ParseError {}

/// Which game a state, record or invitation is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Nine Men's Morris (« Jeu du moulin »).
    Morris,
    /// Ultimate tic-tac-toe (« Méta Morpion »).
    Meta,
}

impl GameKind {
    /// `"morris"` or `"meta"`, as on the command line and in JSON.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameKind::Morris => "morris",
            GameKind::Meta => "meta",
        }
    }

    /// Parses `"morris"` or `"meta"`.
    pub fn from_name(name: &str) -> Option<GameKind> {
        match name {
            "morris" => Some(GameKind::Morris),
            "meta" => Some(GameKind::Meta),
            _ => None,
        }
    }
}

/// The surface both games share.
///
/// `Action` is one step as the UI and the network exchange it; `Turn` is a whole turn as records
/// and search use it. For Ultimate tic-tac-toe they are the same.
pub trait Game: Clone + PartialEq + Eq + fmt::Debug + Sized {
    /// One step: what a click produces and what the network carries.
    type Action: Copy + PartialEq + Eq + fmt::Debug + fmt::Display;
    /// One whole turn, as written in records.
    type Turn: Copy + PartialEq + Eq + fmt::Debug + fmt::Display;

    /// Which game this is.
    const KIND: GameKind;

    /// The player whose step it is (after the end: the player who would have moved next).
    fn to_move(&self) -> Player;
    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// True once the game is over.
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }
    /// Completed turns so far.
    fn turns(&self) -> u32;
    /// Every step the player to move may take now (empty once the game is over).
    fn legal_actions(&self) -> Vec<Self::Action>;
    /// The state after one step, or why the step is refused. `self` is never changed.
    fn play(&self, action: Self::Action) -> Result<Self, Illegal>;
    /// Every whole turn the player to move may play (empty once the game is over).
    fn legal_turns(&self) -> Vec<Self::Turn>;
    /// The state after one whole turn, or why it is refused. `self` is never changed.
    fn play_turn(&self, turn: Self::Turn) -> Result<Self, Illegal>;
    /// Reads a turn in algebraic notation (syntax only; legality is checked by `play_turn`).
    fn parse_turn(token: &str) -> Result<Self::Turn, ParseError>;
}

/// Either game, forwarding every call: lets code hold "the game in this room" without generics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyGame {
    /// A Nine Men's Morris game.
    Morris(morris::Morris),
    /// An Ultimate tic-tac-toe game.
    Meta(meta::Meta),
}

impl AnyGame {
    /// A fresh game of this kind; `max_turns` (1–500) applies to Morris only.
    pub fn new(kind: GameKind, max_turns: u32) -> Result<AnyGame, morris::LimitOutOfRange> {
        Ok(match kind {
            GameKind::Morris => AnyGame::Morris(morris::Morris::with_max_turns(max_turns)?),
            GameKind::Meta => AnyGame::Meta(meta::Meta::new()),
        })
    }

    /// Which game this is.
    pub fn kind(&self) -> GameKind {
        match self {
            AnyGame::Morris(_) => GameKind::Morris,
            AnyGame::Meta(_) => GameKind::Meta,
        }
    }

    /// See [`Game::to_move`].
    pub fn to_move(&self) -> Player {
        match self {
            AnyGame::Morris(g) => g.to_move(),
            AnyGame::Meta(g) => g.to_move(),
        }
    }

    /// See [`Game::outcome`].
    pub fn outcome(&self) -> Option<Outcome> {
        match self {
            AnyGame::Morris(g) => g.outcome(),
            AnyGame::Meta(g) => g.outcome(),
        }
    }

    /// See [`Game::is_over`].
    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// See [`Game::turns`].
    pub fn turns(&self) -> u32 {
        match self {
            AnyGame::Morris(g) => g.turns(),
            AnyGame::Meta(g) => g.turns(),
        }
    }

    /// Plays one whole turn given in notation, as a record token.
    pub fn play_token(&self, token: &str) -> Result<AnyGame, record::TokenError> {
        Ok(match self {
            AnyGame::Morris(g) => AnyGame::Morris(record::play_token(g, token)?),
            AnyGame::Meta(g) => AnyGame::Meta(record::play_token(g, token)?),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_alternate() {
        assert_eq!(Player::Blue.opponent(), Player::Red);
        assert_eq!(Player::Red.opponent(), Player::Blue);
        assert_eq!(Player::from_index(1), Some(Player::Red));
        assert_eq!(Player::from_index(2), None);
    }
}
