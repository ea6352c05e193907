//! Game records: whitespace-separated turn tokens in algebraic notation, with header lines
//! (first non-blank character `[`) skipped. Used by `engine replay`, the tests and the export.
//!
//! ```
//! use engine::{Game, meta::Meta, record};
//!
//! let g = record::replay(Meta::new(), "[Event \"demo\"]\ne5 e4\n").unwrap();
//! assert_eq!(g.turns(), 2);
//! let err = record::replay(Meta::new(), "e5 e5").unwrap_err();
//! assert_eq!((err.index, err.token.as_str()), (1, "e5"));
//! ```

use crate::{Game, Illegal, ParseError};
use std::fmt;

/// The first bad token of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenError {
    /// 0-based index of the token among all tokens of the record (headers excluded).
    pub index: usize,
    /// The token as written.
    pub token: String,
    /// Why it was refused.
    pub kind: TokenErrorKind,
}

/// Why a token was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenErrorKind {
    /// Not valid notation for the game.
    Parse(ParseError),
    /// Well-formed but not allowed here (including any token after the end of the game).
    Illegal(Illegal),
}

impl fmt::Display for TokenErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenErrorKind::Parse(e) => e.fmt(f),
            TokenErrorKind::Illegal(e) => e.fmt(f),
        }
    }
}

impl fmt::Display for TokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "token {} ({:?}): {}", self.index, self.token, self.kind)
    }
}

impl std::error::Error for TokenError {}

/// True for the characters that separate tokens: space, tab, CR, LF and form feed.
fn is_separator(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n' | '\x0c')
}

/// The turn tokens of a record, header lines skipped.
pub fn tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split('\n')
        .filter(|line| !line.trim_start_matches(is_separator).starts_with('['))
        .flat_map(|line| line.split(is_separator).filter(|t| !t.is_empty()))
}

/// Plays one token as a whole turn (index 0 in the error).
pub fn play_token<G: Game>(game: &G, token: &str) -> Result<G, TokenError> {
    let fail = |kind| TokenError {
        index: 0,
        token: token.to_string(),
        kind,
    };
    let turn = G::parse_turn(token).map_err(|e| fail(TokenErrorKind::Parse(e)))?;
    game.play_turn(turn)
        .map_err(|e| fail(TokenErrorKind::Illegal(e)))
}

/// Replays a record from `start`; the final state, or the first bad token.
pub fn replay<G: Game>(start: G, text: &str) -> Result<G, TokenError> {
    let mut game = start;
    for (index, token) in tokens(text).enumerate() {
        game = play_token(&game, token).map_err(|e| TokenError { index, ..e })?;
    }
    Ok(game)
}

/// Writes the turns as a record: tokens separated by spaces.
pub fn write<G: Game>(turns: &[G::Turn]) -> String {
    turns
        .iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Perft through the public surface only ([`Game::legal_turns`] and [`Game::play_turn`]): slow,
/// but an independent check of each game's fast perft.
pub fn perft_by_turns<G: Game>(game: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if game.is_over() {
        return 0;
    }
    game.legal_turns()
        .into_iter()
        .map(|t| {
            let next = game.play_turn(t).expect("a listed turn is legal");
            perft_by_turns(&next, depth - 1)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::morris::Morris;

    #[test]
    fn header_lines_and_odd_whitespace_are_skipped() {
        let text = "[Event \"x\"]\r\n  [Round 1]\nd6\t\tb4\r\n\n\x0ca7  \n";
        assert_eq!(tokens(text).collect::<Vec<_>>(), ["d6", "b4", "a7"]);
        // A vertical tab is not a separator: it makes the token malformed.
        assert_eq!(tokens("d6\x0bb4").collect::<Vec<_>>(), ["d6\x0bb4"]);
    }

    #[test]
    fn errors_name_the_token_and_its_index() {
        let err = replay(Morris::new(), "[H]\nd6 b4 d6").unwrap_err();
        assert_eq!(err.index, 2);
        assert_eq!(err.token, "d6");
        assert_eq!(err.kind, TokenErrorKind::Illegal(Illegal::Occupied));
        let err = replay(Morris::new(), "d6 \"q\\").unwrap_err();
        assert_eq!((err.index, err.token.as_str()), (1, "\"q\\"));
        assert!(matches!(err.kind, TokenErrorKind::Parse(_)));
    }
}
