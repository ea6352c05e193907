//! Ultimate tic-tac-toe as played here (docs/rules.md).
//!
//! Nine small boards in a big one, boards and cells numbered 0–8 row by row. Playing in cell *c*
//! sends the opponent to board *c*; when that board is closed (won or full) **after** the move,
//! the opponent may play in any open board. Three won boards in a line win; every board closed
//! without such a line is a draw.
//!
//! ```
//! use engine::{Game, meta::{Cell, Meta}};
//!
//! let g = Meta::new();
//! assert_eq!(g.legal_actions().len(), 81);
//! let e5 = Cell::from_name("e5").unwrap(); // the centre of the centre board
//! let g = g.play(e5).unwrap();
//! assert_eq!(g.required_board(), Some(4));
//! assert_eq!(g.legal_actions().len(), 8);
//! ```

pub mod perft;

use crate::nav::{Bits, Direction};
use crate::{Game, GameKind, Illegal, Outcome, ParseError, Player, Reason};
use std::fmt;

/// The eight lines of a 3×3 grid, in a fixed order: rows, columns, diagonals.
pub const LINES: [[u8; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

pub(crate) const FULL: u16 = 0x1ff;

/// `WINS[mask]`: the first line of [`LINES`] fully inside the 9-bit mask, plus one (0: none).
const WINS: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut mask = 0;
    while mask < 512 {
        let mut l = 0;
        while l < 8 {
            let m = (1 << LINES[l][0]) | (1 << LINES[l][1]) | (1 << LINES[l][2]);
            if mask & m == m {
                t[mask] = l as u8 + 1;
                break;
            }
            l += 1;
        }
        mask += 1;
    }
    t
};

#[inline]
fn wins(mask: u16) -> bool {
    WINS[mask as usize] != 0
}

/// One of the 81 cells: index `board * 9 + cell`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// Number of cells.
    pub const COUNT: usize = 81;

    /// The cell with this index (0–80, `board * 9 + cell`).
    pub const fn new(index: u8) -> Option<Cell> {
        if index < 81 {
            Some(Cell(index))
        } else {
            None
        }
    }

    /// The cell `cell` (0–8) of board `board` (0–8).
    pub const fn at(board: u8, cell: u8) -> Option<Cell> {
        if board < 9 && cell < 9 {
            Some(Cell(board * 9 + cell))
        } else {
            None
        }
    }

    /// The index, `board * 9 + cell`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The small board, 0–8.
    #[inline]
    pub const fn board(self) -> u8 {
        self.0 / 9
    }

    /// The cell within its small board, 0–8.
    #[inline]
    pub const fn cell(self) -> u8 {
        self.0 % 9
    }

    /// All cells in index order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..81).map(Cell)
    }

    /// `(column, row)` on the visual 9×9 grid, from the top-left corner.
    pub const fn grid(self) -> (u8, u8) {
        let (b, c) = (self.board(), self.cell());
        ((b % 3) * 3 + c % 3, (b / 3) * 3 + c / 3)
    }

    /// The cell at `(column, row)` of the visual 9×9 grid, from the top-left corner.
    pub const fn from_grid(col: u8, row: u8) -> Option<Cell> {
        if col < 9 && row < 9 {
            Some(Cell((row / 3 * 3 + col / 3) * 9 + (row % 3) * 3 + col % 3))
        } else {
            None
        }
    }

    /// The algebraic name: files a–i left to right, ranks 1–9 bottom to top (`a9` is the
    /// top-left cell of board 0, `e5` the centre of board 4).
    pub fn name(self) -> String {
        let (col, row) = self.grid();
        format!("{}{}", (b'a' + col) as char, 9 - row)
    }

    /// The cell with this algebraic name (lowercase file a–i, rank 1–9).
    pub fn from_name(name: &str) -> Option<Cell> {
        match name.as_bytes() {
            &[f @ b'a'..=b'i', r @ b'1'..=b'9'] => Cell::from_grid(f - b'a', 8 - (r - b'1')),
            _ => None,
        }
    }

    /// The cell the focus goes to when an arrow key is pressed here, on the visual 9×9 grid,
    /// crossing small-board borders and staying put at the edge (no wrap-around).
    pub fn toward(self, dir: Direction) -> Cell {
        let (col, row) = self.grid();
        let (dx, dy) = dir.delta();
        // Grid rows grow downwards; `dy` grows upwards.
        let (c, r) = (col as i8 + dx, row as i8 - dy);
        if (0..9).contains(&c) && (0..9).contains(&r) {
            Cell::from_grid(c as u8, r as u8).unwrap_or(self)
        } else {
            self
        }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({}:{})", self.name(), self.board(), self.cell())
    }
}

impl std::str::FromStr for Cell {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Cell, ParseError> {
        Cell::from_name(s).ok_or(ParseError {
            expected: "a cell from a1 to i9, such as e5",
        })
    }
}

/// The state of one small board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SmallBoard {
    /// Still playable.
    Open,
    /// Won by this player.
    Won(Player),
    /// Full without a line: counts for nobody.
    Drawn,
}

impl SmallBoard {
    /// True when won or drawn.
    pub fn is_closed(self) -> bool {
        self != SmallBoard::Open
    }
}

/// An Ultimate tic-tac-toe game.
///
/// The marks are one 9-bit mask per player per small board; won and closed boards are 9-bit
/// masks of the big board. The whole state is `Copy`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Meta {
    marks: [[u16; 2]; 9],
    won: [u16; 2],
    closed: u16,
    to_move: Player,
    required: Option<u8>,
    moves: u8,
    last: Option<Cell>,
    outcome: Option<Outcome>,
    line: Option<[u8; 3]>,
}

impl Default for Meta {
    fn default() -> Meta {
        Meta::new()
    }
}

impl Meta {
    /// A new game: Blue (crosses) to move, free choice of board.
    pub const fn new() -> Meta {
        Meta {
            marks: [[0; 2]; 9],
            won: [0; 2],
            closed: 0,
            to_move: Player::Blue,
            required: None,
            moves: 0,
            last: None,
            outcome: None,
            line: None,
        }
    }

    /// The mark in a cell.
    pub fn piece_at(&self, cell: Cell) -> Option<Player> {
        let [blue, red] = self.marks[cell.board() as usize];
        let bit = 1 << cell.cell();
        if blue & bit != 0 {
            Some(Player::Blue)
        } else if red & bit != 0 {
            Some(Player::Red)
        } else {
            None
        }
    }

    /// The state of small board `board` (0–8).
    pub fn small_board(&self, board: u8) -> SmallBoard {
        let bit = 1 << board;
        if self.won[0] & bit != 0 {
            SmallBoard::Won(Player::Blue)
        } else if self.won[1] & bit != 0 {
            SmallBoard::Won(Player::Red)
        } else if self.closed & bit != 0 {
            SmallBoard::Drawn
        } else {
            SmallBoard::Open
        }
    }

    /// The board the player to move must play in, or `None` for a free choice (and at the end).
    pub fn required_board(&self) -> Option<u8> {
        self.required
    }

    /// True when the player to move may play in this board now.
    pub fn is_playable_board(&self, board: u8) -> bool {
        self.outcome.is_none()
            && board < 9
            && self.closed & (1 << board) == 0
            && self.required.is_none_or(|r| r == board)
    }

    /// Boards the player to move may play in now, as a 9-bit mask.
    pub fn playable_boards(&self) -> u16 {
        (0..9)
            .filter(|&b| self.is_playable_board(b))
            .fold(0, |m, b| m | 1 << b)
    }

    /// How many small boards a player has won.
    pub fn boards_won(&self, player: Player) -> u8 {
        self.won[player.index()].count_ones() as u8
    }

    /// Moves played so far.
    pub fn moves(&self) -> u8 {
        self.moves
    }

    /// The last move.
    pub fn last_move(&self) -> Option<Cell> {
        self.last
    }

    /// The three boards of the winning line, once the game is won.
    pub fn winning_line(&self) -> Option<[u8; 3]> {
        self.line
    }

    /// The three cells of a small board's winning line, if it is won.
    pub fn small_board_line(&self, board: u8) -> Option<[u8; 3]> {
        let SmallBoard::Won(p) = self.small_board(board) else {
            return None;
        };
        let w = WINS[self.marks[board as usize][p.index()] as usize];
        (w != 0).then(|| LINES[w as usize - 1])
    }

    /// The 81 cells as `.`, `X` (blue) and `O` (red), by index.
    pub fn cells_string(&self) -> String {
        Cell::all()
            .map(|c| match self.piece_at(c) {
                None => '.',
                Some(Player::Blue) => 'X',
                Some(Player::Red) => 'O',
            })
            .collect()
    }

    /// The nine small boards as `.` (open), `X`, `O` (won) and `D` (drawn).
    pub fn results_string(&self) -> String {
        (0..9)
            .map(|b| match self.small_board(b) {
                SmallBoard::Open => '.',
                SmallBoard::Won(Player::Blue) => 'X',
                SmallBoard::Won(Player::Red) => 'O',
                SmallBoard::Drawn => 'D',
            })
            .collect()
    }

    /// Number of legal moves, without listing them (perft's last ply).
    #[inline]
    pub(crate) fn count_moves(&self) -> u32 {
        let open = |b: usize| {
            let [x, o] = self.marks[b];
            (!(x | o) & FULL).count_ones()
        };
        match self.required {
            Some(b) => open(b as usize),
            None => Bits((!self.closed & FULL) as u32)
                .map(|b| open(b as usize))
                .sum(),
        }
    }

    /// Plays a move known to be legal.
    #[inline]
    pub(crate) fn play_unchecked(&mut self, board: u8, cell: u8) {
        let me = self.to_move.index();
        let b = board as usize;
        let marks = self.marks[b][me] | 1 << cell;
        self.marks[b][me] = marks;
        if wins(marks) {
            self.won[me] |= 1 << board;
            self.closed |= 1 << board;
            let line = WINS[self.won[me] as usize];
            if line != 0 {
                self.outcome = Some(Outcome {
                    winner: Some(self.to_move),
                    reason: Reason::Line,
                });
                self.line = Some(LINES[line as usize - 1]);
            }
        } else if marks | self.marks[b][1 - me] == FULL {
            self.closed |= 1 << board;
        }
        if self.outcome.is_none() && self.closed == FULL {
            self.outcome = Some(Outcome {
                winner: None,
                reason: Reason::AllClosed,
            });
        }
        self.to_move = self.to_move.opponent();
        self.moves += 1;
        self.last = Some(Cell(board * 9 + cell));
        self.required = if self.outcome.is_some() || self.closed & (1 << cell) != 0 {
            None
        } else {
            Some(cell)
        };
    }

    #[inline]
    pub(crate) fn marks(&self) -> &[[u16; 2]; 9] {
        &self.marks
    }

    #[inline]
    pub(crate) fn closed_mask(&self) -> u16 {
        self.closed
    }

    /// Boards won by each player, as 9-bit masks.
    #[inline]
    pub(crate) fn won_masks(&self) -> [u16; 2] {
        self.won
    }
}

impl fmt::Debug for Meta {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Meta")
            .field("cells", &self.cells_string())
            .field("results", &self.results_string())
            .field("to_move", &self.to_move)
            .field("required", &self.required)
            .field("moves", &self.moves)
            .field("last", &self.last)
            .field("outcome", &self.outcome)
            .field("line", &self.line)
            .finish()
    }
}

impl Game for Meta {
    type Action = Cell;
    type Turn = Cell;
    const KIND: GameKind = GameKind::Meta;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn turns(&self) -> u32 {
        self.moves as u32
    }

    fn legal_actions(&self) -> Vec<Cell> {
        Cell::all()
            .filter(|&c| self.is_playable_board(c.board()) && self.piece_at(c).is_none())
            .collect()
    }

    fn play(&self, cell: Cell) -> Result<Meta, Illegal> {
        if self.outcome.is_some() {
            return Err(Illegal::GameOver);
        }
        if cell.index() >= Cell::COUNT {
            return Err(Illegal::OutOfRange);
        }
        if self.piece_at(cell).is_some() {
            return Err(Illegal::Occupied);
        }
        if self.closed & (1 << cell.board()) != 0 {
            return Err(Illegal::BoardClosed);
        }
        if self.required.is_some_and(|r| r != cell.board()) {
            return Err(Illegal::WrongBoard);
        }
        let mut next = *self;
        next.play_unchecked(cell.board(), cell.cell());
        Ok(next)
    }

    fn legal_turns(&self) -> Vec<Cell> {
        self.legal_actions()
    }

    fn play_turn(&self, cell: Cell) -> Result<Meta, Illegal> {
        self.play(cell)
    }

    fn parse_turn(token: &str) -> Result<Cell, ParseError> {
        token.parse()
    }
}

#[cfg(test)]
mod tests;
