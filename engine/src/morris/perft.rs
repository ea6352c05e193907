//! Perft: the number of positions reached after exactly `depth` complete turns.
//!
//! A capturing turn counts once per capture target; a game that ends before `depth` contributes
//! nothing (one that ends exactly at `depth` counts). This is the engine's speed test and a check
//! of the rules against known counts; it follows the game's [`Rules`].
//!
//! The search copies a small bitboard [`Position`] instead of the full [`Morris`] state, keeps the
//! positions seen since the last irreversible turn on a stack for repetition, and counts the last
//! turn without playing it.

use super::{capturable, closes_mill, Geometry, Law, Morris, Phase, Position, Rules};
use crate::nav::Bits;

/// Counts the positions after exactly `depth` complete turns from `game`.
///
/// From a state with a pending capture, the first turn is the completion of the turn in progress.
///
/// ```
/// use engine::morris::{perft::perft, Morris, Rules};
/// assert_eq!(perft(&Morris::new(), 2), 552);
/// // Lasker: Blue's second turn may also slide its piece: 64 ordered pairs of linked points,
/// // with Red's piece on any of the 22 others.
/// assert_eq!(perft(&Morris::with_rules(Rules::LASKER, 100).unwrap(), 3), 12_144 + 64 * 22);
/// ```
pub fn perft(game: &Morris, depth: u32) -> u64 {
    if game.rules().is_basic() {
        perft_on::<true>(game, depth)
    } else {
        perft_on::<false>(game, depth)
    }
}

/// [`perft`] compiled for basic rules (the default's switches as constants, see
/// [`Rules::is_basic`]), so that the default rules pay nothing for the others, or for any.
fn perft_on<const BASIC: bool>(game: &Morris, depth: u32) -> u64 {
    let mut search = Search::<BASIC> {
        law: Law::new(game.rules()),
        max_turns: game.max_turns,
        seen: game.seen().to_vec(),
        segment: 0,
    };
    match game.phase() {
        _ if depth == 0 => 1,
        Phase::Over => 0,
        Phase::Play => search.perft(game.position(), (game.turns, game.quiet), depth),
        Phase::Capture => {
            let pos = game.position();
            let opp = pos.to_move.opponent().index();
            Bits(capturable(search.geo(), pos.pieces[opp]))
                .map(|c| {
                    let mut child = pos;
                    child.pieces[opp] &= !(1 << c);
                    search.after_turn(child, (game.turns, 0), depth, true)
                })
                .sum()
        }
    }
}

/// Completed turns, and those since the last capture (the `quiet` counter), before a turn.
type Clock = (u16, u16);

struct Search<const BASIC: bool> {
    law: Law<BASIC>,
    max_turns: u16,
    /// Keys of positions after completed turns; `seen[segment..]` are those since the last
    /// irreversible turn, the only ones the current position can repeat.
    seen: Vec<u64>,
    segment: usize,
}

impl<const BASIC: bool> Search<BASIC> {
    #[inline(always)]
    fn rules(&self) -> Rules {
        self.law.rules()
    }

    #[inline(always)]
    fn geo(&self) -> &'static Geometry {
        self.law.geo()
    }

    /// `pos` is at a turn boundary, the game not over, `depth >= 1`.
    fn perft(&mut self, pos: Position, clock: Clock, depth: u32) -> u64 {
        if depth == 1 {
            return self.count_turns(&pos);
        }
        let me = pos.to_move.index();
        let mine = pos.pieces[me];
        let theirs = pos.pieces[1 - me];
        let empty = pos.empty();
        let caps = capturable(self.geo(), theirs);
        let mut total = 0;
        if pos.reserves[me] > 0 {
            for to in Bits(empty) {
                let mut child = pos;
                child.pieces[me] = mine | 1 << to;
                child.reserves[me] -= 1;
                total += self.complete(child, clock, depth, to, caps, true);
            }
        }
        if pos.may_move(self.rules(), pos.to_move) {
            for from in Bits(mine) {
                for to in Bits(pos.destinations(self.rules(), self.geo(), pos.to_move, from)) {
                    let mut child = pos;
                    child.pieces[me] = mine ^ (1 << from | 1 << to);
                    total += self.complete(child, clock, depth, to, caps, false);
                }
            }
        }
        total
    }

    /// Finishes the turn whose step put a piece on `to`: once, or once per capture.
    #[inline]
    fn complete(
        &mut self,
        child: Position,
        (turns, quiet): Clock,
        depth: u32,
        to: u32,
        caps: u32,
        placed: bool,
    ) -> u64 {
        let me = child.to_move.index();
        if closes_mill(self.geo(), child.pieces[me], to) && caps != 0 {
            let mut total = 0;
            for c in Bits(caps) {
                let mut captured = child;
                captured.pieces[1 - me] &= !(1 << c);
                total += self.after_turn(captured, (turns, 0), depth, true);
            }
            total
        } else {
            self.after_turn(child, (turns, quiet + 1), depth, placed)
        }
    }

    /// Passes the move, records the position, and searches on unless the game ended. `quiet` is
    /// already the counter after this turn.
    #[inline]
    fn after_turn(
        &mut self,
        mut child: Position,
        (turns, quiet): Clock,
        depth: u32,
        irreversible: bool,
    ) -> u64 {
        child.to_move = child.to_move.opponent();
        let turns = turns + 1;
        let key = child.key();
        let saved_segment = self.segment;
        if irreversible {
            self.segment = self.seen.len();
        }
        self.seen.push(key);
        let reps = if irreversible {
            1
        } else {
            self.seen[self.segment..]
                .iter()
                .filter(|&&k| k == key)
                .count()
        };
        let count = if child
            .outcome_after_turn(
                self.rules(),
                self.geo(),
                (turns, self.max_turns),
                reps,
                quiet,
            )
            .is_some()
        {
            u64::from(depth == 1)
        } else if depth == 1 {
            1
        } else {
            self.perft(child, (turns, quiet), depth - 1)
        };
        self.seen.pop();
        self.segment = saved_segment;
        count
    }

    /// The number of complete turns available in `pos` (not over), without playing them. Always
    /// inlined, so that the board's tables are constants in it.
    #[inline(always)]
    fn count_turns(&self, pos: &Position) -> u64 {
        let (rules, geo) = (self.rules(), self.geo());
        let me = pos.to_move.index();
        let mine = pos.pieces[me];
        let theirs = pos.pieces[1 - me];
        let empty = pos.empty();
        // Each mill-closing step is worth one turn per capture target (at least one when the
        // opponent has a piece on the board, since protection lifts when all are in mills).
        let extra = (capturable(geo, theirs).count_ones() as u64).saturating_sub(1);
        let mut n = 0;
        if pos.reserves[me] > 0 {
            let mut closing = 0;
            for &m in geo.mill_masks() {
                let open = m & !mine;
                if open.count_ones() == 1 {
                    closing |= open;
                }
            }
            closing &= empty;
            n += empty.count_ones() as u64 + closing.count_ones() as u64 * extra;
        }
        if pos.may_move(rules, pos.to_move) {
            for from in Bits(mine) {
                let dests = pos.destinations(rules, geo, pos.to_move, from);
                n += dests.count_ones() as u64;
                if extra > 0 {
                    let without = mine & !(1 << from);
                    for to in Bits(dests) {
                        if closes_mill(geo, without | 1 << to, to) {
                            n += extra;
                        }
                    }
                }
            }
        }
        n
    }
}
