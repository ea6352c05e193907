//! The computer opponent: a search that picks a whole turn for the player to move.
//!
//! Like the rest of the crate it is pure: no clock, no threads, no OS randomness. The caller
//! passes a budget ([`Limits`]), a *stop check* polled during the search (a Web Worker reads
//! `performance.now()` in it, the command line an `Instant`, tests count calls) and a seed for
//! the search's own small generator ([`Rng`]). With a stop check that never fires, the answer
//! depends only on the game, the limits and the seed.
//!
//! - **Morris** ([`search_morris`]): iterative-deepening principal-variation alpha-beta over whole
//!   turns (a placement or move together with its capture), with a transposition table, a short
//!   capture-only quiescence, and the rules' ends (pieces, blocked, full board, threefold
//!   repetition, `quiet` turns, turn limit) applied exactly inside the search.
//! - **Ultimate tic-tac-toe** ([`search_meta`]): Monte-Carlo tree search (UCT) with a solver for
//!   proven wins, losses and draws, and playouts that take an immediate game-winning move.
//!
//! docs/ai.md explains the search, the evaluation and the measured strength of the [`Level`]s.
//!
//! ```
//! use engine::ai::{self, Level};
//! use engine::{AnyGame, GameKind};
//!
//! let game = AnyGame::new(GameKind::Morris, 100).unwrap();
//! let reply = ai::choose(&game, Level::Easy, 7, &mut || false).unwrap();
//! let next = game.play_token(&reply.turn.to_string()).unwrap();
//! assert_eq!(next.turns(), 1);
//! ```
//!
//! **A pending capture.** When a Morris game is in [`Phase::Capture`](crate::morris::Phase) the
//! turn in progress is not finished: the search answers with the whole turn, its place or move
//! step (already played) plus the capture it chooses, e.g. `g7xb6`. That is the token a record
//! holds and what [`Game::play_turn`] accepts in that state; a client that plays steps sends only
//! the capture ([`morris::Turn::capture`](crate::morris::Turn)).
//!
//! **A finished game** has no turn to play: every search returns `Err(Illegal::GameOver)`.

mod meta;
mod morris;

use crate::{AnyGame, Game, GameKind, Illegal};

pub use self::meta::{search_meta, uct_baseline};
pub use self::morris::{alpha_beta_baseline, search_morris, search_morris_kept, MorrisMemory};

/// A won game's score. Scores at or beyond `WIN - 1000` (or `-WIN + 1000`) are proven: a Morris
/// win in `WIN - score` turns (counting both players'), a loss in `WIN + score`.
pub const WIN: i32 = 30_000;

/// How far a search may go.
///
/// The stop check comes on top: the search ends at whichever comes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Work budget. Morris: turns played inside the search (nodes). Ultimate tic-tac-toe:
    /// playouts. `u64::MAX` for none.
    pub nodes: u64,
    /// Morris: deepest iteration, in whole turns (at least 1). Ignored by Ultimate tic-tac-toe.
    pub depth: u32,
    /// Memory: 2^bits transposition-table entries of 16 bytes (Morris) or at most 2^bits tree
    /// nodes of 16 bytes (Ultimate tic-tac-toe). 10–22.
    pub memory_bits: u8,
    /// Morris: every root turn is searched with a full window and its score gets a random offset
    /// in `-noise..=noise` before the best is taken (0: plain search). Makes low levels miss
    /// things on purpose.
    pub noise: i32,
    /// Safety checks at the root: in Ultimate tic-tac-toe, take a game-winning move and avoid a
    /// move that lets the opponent win at once; in Morris, the capture-only quiescence at the
    /// leaves. Off for the beginner level, which is meant to miss such things.
    pub tactics: bool,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<T> {
    /// The chosen turn, always one of the position's legal turns.
    pub turn: T,
    /// Its score for the player to move: Morris in hundredths of a piece, Ultimate
    /// tic-tac-toe `1000 × (2 × win rate − 1)`; proven results near ±[`WIN`], 0 for a proven draw.
    pub score: i32,
    /// Morris: the last completed iteration's depth in turns. Ultimate tic-tac-toe: the deepest
    /// tree node reached.
    pub depth: u32,
    /// Nodes (Morris) or playouts (Ultimate tic-tac-toe) spent.
    pub nodes: u64,
    /// The expected line, starting with `turn`.
    pub pv: Vec<T>,
}

pub use crate::table::AnyTurn;

/// The four difficulty levels offered to the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// « Débutant »: sees one turn ahead with noise; beatable by a beginner.
    Beginner = 1,
    /// « Facile ».
    Easy = 2,
    /// « Moyen ».
    Medium = 3,
    /// « Fort »: as deep as the caller's time allows.
    Strong = 4,
}

/// One row of the level table.
#[derive(Clone, Copy, Debug)]
pub struct LevelSpec {
    /// The level.
    pub level: Level,
    /// The French label shown to the player.
    pub label: &'static str,
    /// Limits for Morris.
    pub morris: Limits,
    /// Limits for Ultimate tic-tac-toe.
    pub meta: Limits,
}

const fn limits(nodes: u64, depth: u32, memory_bits: u8, noise: i32, tactics: bool) -> Limits {
    Limits {
        nodes,
        depth,
        memory_bits,
        noise,
        tactics,
    }
}

/// The levels. Levels 1–3 stop on a fixed budget, so their answer depends only on the position
/// and the seed; level 4 has no budget of its own and runs until the caller's stop check says
/// its time is up. Measured strength: docs/ai.md.
///
/// | level | Morris | Ultimate tic-tac-toe |
/// | --- | --- | --- |
/// | 1 Débutant | one turn deep, no quiescence, root scores ± 1.2 pieces of noise | 150 playouts, no tactics |
/// | 2 Facile | 3 000 nodes, at most 3 turns deep, ± 0.25 piece of noise | 1 500 playouts |
/// | 3 Moyen | 40 000 nodes | 8 000 playouts |
/// | 4 Fort | the caller's time, 2^20 table entries | the caller's time, 2^20 tree nodes |
// Arguments of `limits`: nodes (or playouts), depth, memory bits, noise, tactics.
pub const LEVELS: [LevelSpec; 4] = [
    LevelSpec {
        level: Level::Beginner,
        label: "Débutant",
        morris: limits(u64::MAX, 1, 12, 120, false),
        meta: limits(150, 0, 12, 0, false),
    },
    LevelSpec {
        level: Level::Easy,
        label: "Facile",
        morris: limits(3_000, 3, 14, 25, true),
        meta: limits(1_500, 0, 16, 0, true),
    },
    LevelSpec {
        level: Level::Medium,
        label: "Moyen",
        morris: limits(40_000, 64, 16, 0, true),
        meta: limits(8_000, 0, 18, 0, true),
    },
    LevelSpec {
        level: Level::Strong,
        label: "Fort",
        morris: limits(u64::MAX, 64, 20, 0, true),
        meta: limits(u64::MAX, 0, 20, 0, true),
    },
];

impl Level {
    /// All levels, weakest first.
    pub const ALL: [Level; 4] = [Level::Beginner, Level::Easy, Level::Medium, Level::Strong];

    /// The level numbered 1–4.
    pub fn from_number(n: u32) -> Option<Level> {
        Level::ALL.get((n as usize).checked_sub(1)?).copied()
    }

    /// Its number, 1–4.
    pub fn number(self) -> u32 {
        self as u32
    }

    /// Its row of [`LEVELS`].
    pub fn spec(self) -> &'static LevelSpec {
        &LEVELS[self as usize - 1]
    }

    /// The limits for this game.
    pub fn limits(self, kind: GameKind) -> Limits {
        match kind {
            GameKind::Morris => self.spec().morris,
            GameKind::Meta => self.spec().meta,
        }
    }

    /// True when only the caller's stop check ends the search (level 4).
    pub fn is_timed(self) -> bool {
        self == Level::Strong
    }
}

/// One game's search result, its turns as [`AnyTurn`]s.
fn wrap<T: Copy>(r: SearchResult<T>, f: fn(T) -> AnyTurn) -> SearchResult<AnyTurn> {
    SearchResult {
        turn: f(r.turn),
        score: r.score,
        depth: r.depth,
        nodes: r.nodes,
        pv: r.pv.into_iter().map(f).collect(),
    }
}

/// Searches either game with explicit limits.
pub fn search(
    game: &AnyGame,
    limits: &Limits,
    stop: &mut dyn FnMut() -> bool,
    seed: u64,
) -> Result<SearchResult<AnyTurn>, Illegal> {
    Ok(match game {
        AnyGame::Morris(g) => wrap(search_morris(g, limits, stop, seed)?, AnyTurn::Morris),
        AnyGame::Meta(g) => wrap(search_meta(g, limits, stop, seed)?, AnyTurn::Meta),
    })
}

/// Chooses a turn at a level: [`search`] with the level's limits for the game.
pub fn choose(
    game: &AnyGame,
    level: Level,
    seed: u64,
    stop: &mut dyn FnMut() -> bool,
) -> Result<SearchResult<AnyTurn>, Illegal> {
    search(game, &level.limits(game.kind()), stop, seed)
}

/// What the computer keeps from one turn to the next of a game, for « Fort »: in Morris, the
/// search's transposition table ([`search_morris_kept`]). A caller that plays a whole game
/// (`engine match`, the browser's worker) keeps one per player; `engine ai`, one process per
/// turn, does not.
#[derive(Default)]
pub struct Memory {
    morris: MorrisMemory,
}

/// [`choose`], with what `memory` kept from the earlier searches of the game. Only the timed
/// level reads and fills it (levels 1–3 stop on a budget, and their answer stays a function of
/// the position and the seed); Ultimate tic-tac-toe keeps nothing yet.
pub fn choose_kept(
    game: &AnyGame,
    level: Level,
    seed: u64,
    stop: &mut dyn FnMut() -> bool,
    memory: &mut Memory,
) -> Result<SearchResult<AnyTurn>, Illegal> {
    match game {
        AnyGame::Morris(g) if level.is_timed() => {
            let limits = level.limits(GameKind::Morris);
            let found = search_morris_kept(g, &limits, stop, seed, &mut memory.morris)?;
            Ok(wrap(found, AnyTurn::Morris))
        }
        _ => choose(game, level, seed, stop),
    }
}

/// A uniformly random legal turn (the `random` player of `engine match`).
pub fn random_turn<G: Game>(game: &G, rng: &mut Rng) -> Result<G::Turn, Illegal> {
    let turns = game.legal_turns();
    if turns.is_empty() {
        return Err(Illegal::GameOver);
    }
    Ok(turns[rng.below(turns.len() as u64) as usize])
}

/// SplitMix64: a small, fast generator seeded by the caller (no OS randomness in the crate).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed; every seed, 0 included, gives a good sequence.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix(self.0)
    }

    /// A number in `0..n` (`n > 0`), without modulo bias worth caring about.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }
}

/// The SplitMix64 finaliser: a good 64-bit mix, also used to hash positions.
#[inline]
pub(crate) fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Counts stop-check polls: the search asks the caller every `every` units of work.
pub(crate) struct Budget<'a> {
    stop: &'a mut dyn FnMut() -> bool,
    limit: u64,
    pub(crate) used: u64,
    next_poll: u64,
    every: u64,
    pub(crate) stopped: bool,
}

impl<'a> Budget<'a> {
    pub(crate) fn new(stop: &'a mut dyn FnMut() -> bool, limit: u64, every: u64) -> Budget<'a> {
        Budget {
            stop,
            limit,
            used: 0,
            next_poll: every,
            every,
            stopped: false,
        }
    }

    /// Spends one unit; true once the search must stop.
    #[inline]
    pub(crate) fn spend(&mut self) -> bool {
        self.used += 1;
        if self.used >= self.limit {
            self.stopped = true;
        } else if self.used >= self.next_poll {
            self.next_poll = self.used + self.every;
            if (self.stop)() {
                self.stopped = true;
            }
        }
        self.stopped
    }
}

#[cfg(test)]
mod tests;
