//! Perft for Ultimate tic-tac-toe: positions after exactly `depth` moves; a game that ends
//! earlier contributes nothing. The whole state is `Copy`, so the search copies it and counts the
//! last move without playing it.

use super::{Meta, FULL};
use crate::nav::Bits;
use crate::Game;

/// Counts the positions after exactly `depth` moves from `game`.
///
/// ```
/// use engine::meta::{perft::perft, Meta};
/// assert_eq!(perft(&Meta::new(), 2), 720);
/// ```
pub fn perft(game: &Meta, depth: u32) -> u64 {
    if depth == 0 {
        1
    } else if game.is_over() {
        0
    } else {
        search(game, depth)
    }
}

/// `game` is not over and `depth >= 1`.
fn search(game: &Meta, depth: u32) -> u64 {
    if depth == 1 {
        return game.count_moves() as u64;
    }
    let boards = match game.required {
        Some(b) => 1 << b,
        None => !game.closed_mask() & FULL,
    };
    let mut total = 0;
    for b in Bits(boards as u32) {
        let [x, o] = game.marks()[b as usize];
        for c in Bits((!(x | o) & FULL) as u32) {
            let mut child = *game;
            child.play_unchecked(b as u8, c as u8);
            if !child.is_over() {
                total += search(&child, depth - 1);
            }
        }
    }
    total
}
