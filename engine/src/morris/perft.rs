//! Perft: the number of positions reached after exactly `depth` complete turns.
//!
//! A capturing turn counts once per capture target; a game that ends before `depth` contributes
//! nothing (one that ends exactly at `depth` counts). This is the engine's speed test and a check
//! of the rules against known counts.
//!
//! The search copies a small bitboard [`Position`] instead of the full [`Morris`] state, keeps the
//! positions seen since the last irreversible turn on a stack for repetition, and counts the last
//! turn without playing it.

use super::{capturable, closes_mill, Morris, Phase, Position, MILLS};
use crate::nav::Bits;

/// Counts the positions after exactly `depth` complete turns from `game`.
///
/// From a state with a pending capture, the first turn is the completion of the turn in progress.
///
/// ```
/// use engine::morris::{perft::perft, Morris};
/// assert_eq!(perft(&Morris::new(), 2), 552);
/// ```
pub fn perft(game: &Morris, depth: u32) -> u64 {
    let mut search = Search {
        max_turns: game.max_turns,
        seen: game.seen().to_vec(),
        segment: 0,
    };
    match game.phase() {
        _ if depth == 0 => 1,
        Phase::Over => 0,
        Phase::Play => search.perft(game.position(), game.turns, depth),
        Phase::Capture => {
            let pos = game.position();
            let opp = pos.to_move.opponent().index();
            Bits(capturable(pos.pieces[opp]))
                .map(|c| {
                    let mut child = pos;
                    child.pieces[opp] &= !(1 << c);
                    search.after_turn(child, game.turns, depth, true)
                })
                .sum()
        }
    }
}

struct Search {
    max_turns: u16,
    /// Keys of positions after completed turns; `seen[segment..]` are those since the last
    /// irreversible turn, the only ones the current position can repeat.
    seen: Vec<u64>,
    segment: usize,
}

impl Search {
    /// `pos` is at a turn boundary, the game not over, `depth >= 1`.
    fn perft(&mut self, pos: Position, turns: u16, depth: u32) -> u64 {
        if depth == 1 {
            return count_turns(&pos);
        }
        let me = pos.to_move.index();
        let mine = pos.pieces[me];
        let theirs = pos.pieces[1 - me];
        let empty = pos.empty();
        let caps = capturable(theirs);
        let mut total = 0;
        if pos.reserves[me] > 0 {
            for to in Bits(empty) {
                let mut child = pos;
                child.pieces[me] = mine | 1 << to;
                child.reserves[me] -= 1;
                total += self.complete(child, turns, depth, to, caps, true);
            }
        } else {
            for from in Bits(mine) {
                for to in Bits(pos.destinations(pos.to_move, from)) {
                    let mut child = pos;
                    child.pieces[me] = mine ^ (1 << from | 1 << to);
                    total += self.complete(child, turns, depth, to, caps, false);
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
        turns: u16,
        depth: u32,
        to: u32,
        caps: u32,
        placed: bool,
    ) -> u64 {
        let me = child.to_move.index();
        if closes_mill(child.pieces[me], to) && caps != 0 {
            let mut total = 0;
            for c in Bits(caps) {
                let mut captured = child;
                captured.pieces[1 - me] &= !(1 << c);
                total += self.after_turn(captured, turns, depth, true);
            }
            total
        } else {
            self.after_turn(child, turns, depth, placed)
        }
    }

    /// Passes the move, records the position, and searches on unless the game ended.
    #[inline]
    fn after_turn(
        &mut self,
        mut child: Position,
        turns: u16,
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
            .outcome_after_turn(turns, self.max_turns, reps)
            .is_some()
        {
            u64::from(depth == 1)
        } else if depth == 1 {
            1
        } else {
            self.perft(child, turns, depth - 1)
        };
        self.seen.pop();
        self.segment = saved_segment;
        count
    }
}

/// The number of complete turns available in `pos` (not over), without playing them.
#[inline]
fn count_turns(pos: &Position) -> u64 {
    let me = pos.to_move.index();
    let mine = pos.pieces[me];
    let theirs = pos.pieces[1 - me];
    let empty = pos.empty();
    // Each mill-closing step is worth one turn per capture target (at least one when the
    // opponent has a piece on the board, since protection lifts when all are in mills).
    let extra = (capturable(theirs).count_ones() as u64).saturating_sub(1);
    if pos.reserves[me] > 0 {
        let mut closing = 0;
        for m in MILLS {
            let open = m & !mine;
            if open.count_ones() == 1 {
                closing |= open;
            }
        }
        closing &= empty;
        empty.count_ones() as u64 + closing.count_ones() as u64 * extra
    } else {
        let mut n = 0;
        for from in Bits(mine) {
            let dests = pos.destinations(pos.to_move, from);
            n += dests.count_ones() as u64;
            if extra > 0 {
                let without = mine & !(1 << from);
                for to in Bits(dests) {
                    if closes_mill(without | 1 << to, to) {
                        n += extra;
                    }
                }
            }
        }
        n
    }
}
