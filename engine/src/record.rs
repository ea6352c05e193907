//! Game records: whitespace-separated turn tokens in algebraic notation, with header lines
//! (first non-blank character `[`) apart. Used by `engine replay`, the tests, the export and the
//! viewer.
//!
//! Headers say what the record is, `[Name "value"]` one a line before the turns (see
//! [`header_lines`]): `Game` (`morris` or `meta`), `MaxTurns` (Morris, 1–500), `Rules` (Morris,
//! a rule set; absent means `nine`), `Blue`, `Red`, `Date`, `Result` (`1-0`, `0-1`, `1/2-1/2`,
//! `*`) and `Reason`. [`Setup::read`] checks the ones that decide the game (`Game`, `MaxTurns`,
//! `Rules`); the others are for people to read, never an error (the moves decide the result),
//! and other lines starting with `[` are skipped, as before.
//!
//! ```
//! use engine::{Game, meta::Meta, record};
//!
//! let g = record::replay(Meta::new(), "[Event \"demo\"]\ne5 e4\n").unwrap();
//! assert_eq!(g.turns(), 2);
//! let err = record::replay(Meta::new(), "e5 e5").unwrap_err();
//! assert_eq!((err.index, err.token.as_str()), (1, "e5"));
//! ```

use crate::morris::{Morris, Rules, RulesError};
use crate::{AnyGame, Game, GameKind, Illegal, ParseError, Player};
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

/// The well-formed header lines of a record, `[Name "value"]`, as (1-based line number, name,
/// value); a value without quotes is taken as written.
pub fn headers(text: &str) -> impl Iterator<Item = (usize, &str, &str)> {
    text.split('\n').enumerate().filter_map(|(i, line)| {
        let inner = line
            .trim_matches(is_separator)
            .strip_prefix('[')?
            .strip_suffix(']')?;
        let (name, value) = inner.split_once(' ')?;
        let value = value.trim_matches(is_separator);
        let value = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or(value);
        Some((i + 1, name, value))
    })
}

/// A header that contradicts the game asked for, or that no game can have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderError {
    /// 1-based line of the header in the record (0: no line, e.g. no game named anywhere).
    pub line: usize,
    /// What kind of problem: what a page says in its player's language.
    pub flaw: HeaderFlaw,
    /// What is wrong, in English (the command line's message).
    pub message: String,
}

/// The kinds of [`HeaderError`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeaderFlaw {
    /// A second header of this name (`Game`, `MaxTurns` or `Rules`).
    Twice(&'static str),
    /// A `Game` that names no game.
    UnknownGame,
    /// A `MaxTurns` outside 1–500.
    BadLimit,
    /// A `Rules` that does not read.
    BadRules(RulesError),
    /// No game named, in the record or by its reader.
    NoGame,
    /// The record's game is not the one asked for.
    OtherGame,
    /// `MaxTurns` or `Rules` for a game of Méta Morpion.
    MorrisOnly,
    /// A limit or rules other than the ones given.
    Contradiction,
}

impl fmt::Display for HeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "header line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for HeaderError {}

/// What a record's headers say about its game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    /// `[Game "morris"]`, with its line.
    pub game: Option<(GameKind, usize)>,
    /// `[MaxTurns "100"]`, with its line.
    pub max_turns: Option<(u32, usize)>,
    /// `[Rules "twelve"]` (any form of a rule set), with its line.
    pub rules: Option<(Rules, usize)>,
    /// `[Result "1-0"]`, with its line.
    pub result: Option<(String, usize)>,
    /// Every well-formed header in order (name, value), for people to read.
    pub all: Vec<(String, String)>,
}

impl Setup {
    /// Reads the headers of `text`: a `Game`, `MaxTurns` or `Rules` that cannot be, or a second
    /// one, is an error.
    pub fn read(text: &str) -> Result<Setup, HeaderError> {
        let mut s = Setup::default();
        for (line, name, value) in headers(text) {
            let bad = |flaw: HeaderFlaw, message: String| HeaderError {
                line,
                flaw,
                message,
            };
            let twice = |name: &'static str| {
                bad(HeaderFlaw::Twice(name), format!("a second {name} header"))
            };
            match name {
                "Game" if s.game.is_some() => return Err(twice("Game")),
                "Game" => {
                    let kind = GameKind::from_name(value).ok_or_else(|| {
                        bad(
                            HeaderFlaw::UnknownGame,
                            format!("unknown game {value:?} (morris or meta)"),
                        )
                    })?;
                    s.game = Some((kind, line));
                }
                "MaxTurns" if s.max_turns.is_some() => return Err(twice("MaxTurns")),
                "MaxTurns" => {
                    let n = value
                        .parse::<u32>()
                        .ok()
                        .filter(|&n| crate::morris::check_max_turns(n).is_ok())
                        .ok_or_else(|| {
                            bad(
                                HeaderFlaw::BadLimit,
                                format!("turn limit {value:?} is not 1–500"),
                            )
                        })?;
                    s.max_turns = Some((n, line));
                }
                "Rules" if s.rules.is_some() => return Err(twice("Rules")),
                "Rules" => {
                    let rules = value.parse::<Rules>().map_err(|e| {
                        let message = format!("rules {value:?}: {e}");
                        bad(HeaderFlaw::BadRules(e), message)
                    })?;
                    s.rules = Some((rules, line));
                }
                // Information only: the first well-formed one is kept for display.
                "Result"
                    if s.result.is_none() && ["1-0", "0-1", "1/2-1/2", "*"].contains(&value) =>
                {
                    s.result = Some((value.to_string(), line));
                }
                _ => {}
            }
            s.all.push((name.to_string(), value.to_string()));
        }
        Ok(s)
    }

    /// The start of the game: the headers' game, limit and rules, or the game and limit given
    /// (`kind`, `max_turns`: from the command line, or the viewer's choice). Given and written
    /// must agree; the game must be named somewhere; the Morris limit defaults to 100, the rules
    /// to `nine`.
    pub fn start(
        &self,
        kind: Option<GameKind>,
        max_turns: Option<u32>,
    ) -> Result<AnyGame, HeaderError> {
        self.start_with_rules(kind, max_turns, None)
    }

    /// [`Setup::start`] with the Morris rules given too (`--rules`): they must agree with a
    /// `Rules` header, and be given for a Morris game only.
    pub fn start_with_rules(
        &self,
        kind: Option<GameKind>,
        max_turns: Option<u32>,
        rules: Option<Rules>,
    ) -> Result<AnyGame, HeaderError> {
        let kind = self.kind(kind)?;
        let limit = self.limit(kind, max_turns)?;
        let rules = self.rules(kind, rules)?;
        let limit_error = |e: crate::morris::LimitOutOfRange| HeaderError {
            line: self.max_turns.map_or(0, |(_, l)| l),
            flaw: HeaderFlaw::BadLimit,
            message: e.to_string(),
        };
        match kind {
            GameKind::Morris => Morris::with_rules(rules, limit)
                .map(AnyGame::Morris)
                .map_err(limit_error),
            GameKind::Meta => AnyGame::new(kind, limit).map_err(limit_error),
        }
    }

    /// The game: the header's or the one given; both must agree, one must be there.
    fn kind(&self, given: Option<GameKind>) -> Result<GameKind, HeaderError> {
        match (self.game, given) {
            (Some((written, line)), Some(given)) if written != given => Err(HeaderError {
                line,
                flaw: HeaderFlaw::OtherGame,
                message: format!(
                    "the record is a {} game, not {}",
                    written.as_str(),
                    given.as_str()
                ),
            }),
            (Some((k, _)), _) | (None, Some(k)) => Ok(k),
            (None, None) => Err(HeaderError {
                line: 0,
                flaw: HeaderFlaw::NoGame,
                message: "name the game: morris or meta (or a [Game \"…\"] header)".into(),
            }),
        }
    }

    /// The turn limit: the header's or the one given (they must agree), else the default; a
    /// header only for Morris.
    fn limit(&self, kind: GameKind, given: Option<u32>) -> Result<u32, HeaderError> {
        match (self.max_turns, given) {
            (Some((_, line)), _) if kind == GameKind::Meta => Err(HeaderError {
                line,
                flaw: HeaderFlaw::MorrisOnly,
                message: "MaxTurns applies to morris only".into(),
            }),
            (Some((written, line)), Some(given)) if written != given => Err(HeaderError {
                line,
                flaw: HeaderFlaw::Contradiction,
                message: format!("the record's turn limit is {written}, not {given}"),
            }),
            (Some((n, _)), _) | (None, Some(n)) => Ok(n),
            (None, None) => Ok(u32::from(crate::morris::DEFAULT_MAX_TURNS)),
        }
    }

    /// The Morris rules: the header's or the ones given (they must agree), else `nine`; neither
    /// for a meta game.
    fn rules(&self, kind: GameKind, given: Option<Rules>) -> Result<Rules, HeaderError> {
        match (self.rules, given) {
            (Some((_, line)), _) if kind == GameKind::Meta => Err(HeaderError {
                line,
                flaw: HeaderFlaw::MorrisOnly,
                message: "Rules applies to morris only".into(),
            }),
            (None, Some(_)) if kind == GameKind::Meta => Err(HeaderError {
                line: self.game.map_or(0, |(_, l)| l),
                flaw: HeaderFlaw::MorrisOnly,
                message: "the record is a meta game: rules apply to morris only".into(),
            }),
            (Some((written, line)), Some(given)) if written != given => Err(HeaderError {
                line,
                flaw: HeaderFlaw::Contradiction,
                message: format!(
                    "the record's rules are {} ({written}), not {} ({given})",
                    written.short(),
                    given.short()
                ),
            }),
            (Some((r, _)), _) | (None, Some(r)) => Ok(r),
            (None, None) => Ok(Rules::NINE),
        }
    }
}

/// `1-0` (Blue won), `0-1` (Red won), `1/2-1/2` (a draw) or `*` (not over): `end` is the
/// winner of a finished game (`None` for a draw).
pub fn result_text(end: Option<Option<Player>>) -> &'static str {
    match end {
        None => "*",
        Some(Some(Player::Blue)) => "1-0",
        Some(Some(Player::Red)) => "0-1",
        Some(None) => "1/2-1/2",
    }
}

/// The header lines of an exported record, each ending with a newline: `Game`, `MaxTurns` for
/// Morris, `Rules` (canonical form) for Morris under other rules than `nine`, `Blue` and `Red`
/// (who played each colour), `Date` (as given, `YYYY-MM-DD`), `Result`, and `Reason` when the
/// game is over (`pieces`, `resigned`…).
pub fn header_lines(
    game: &AnyGame,
    blue: &str,
    red: &str,
    date: &str,
    result: &str,
    reason: Option<&str>,
) -> String {
    let mut s = String::new();
    let mut line = |name: &str, value: &str| {
        s.push('[');
        s.push_str(name);
        s.push_str(" \"");
        // A value cannot close its quotes, its bracket or its line.
        s.extend(value.chars().map(|c| match c {
            '"' | '\n' | '\r' | ']' => ' ',
            c => c,
        }));
        s.push_str("\"]\n");
    };
    line("Game", game.kind().as_str());
    if let AnyGame::Morris(m) = game {
        line("MaxTurns", &m.max_turns().to_string());
        if !m.rules().is_default() {
            line("Rules", &m.rules().to_string());
        }
    }
    line("Blue", blue);
    line("Red", red);
    line("Date", date);
    line("Result", result);
    if let Some(r) = reason {
        line("Reason", r);
    }
    s
}

/// A record read whole: its headers, the start and every position after each turn.
#[derive(Clone, Debug)]
pub struct Replayed {
    /// The headers.
    pub setup: Setup,
    /// The start and the state after each turn (`positions.len()` = turns + 1).
    pub positions: Vec<AnyGame>,
    /// The turns as written.
    pub tokens: Vec<String>,
}

/// Why a record cannot be replayed: a header, or a token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// A header contradicts the game, or names none.
    Header(HeaderError),
    /// A token does not parse or is not legal.
    Token(TokenError),
}

/// Replays a whole record with its headers (the game and limit given are used when the
/// headers do not say; see [`Setup::start`]), keeping every position: what the viewer steps
/// through. `engine replay` checks records the same way.
pub fn replay_all(
    text: &str,
    kind: Option<GameKind>,
    max_turns: Option<u32>,
) -> Result<Replayed, RecordError> {
    replay_all_with_rules(text, kind, max_turns, None)
}

/// [`replay_all`] with the Morris rules given too (see [`Setup::start_with_rules`]).
pub fn replay_all_with_rules(
    text: &str,
    kind: Option<GameKind>,
    max_turns: Option<u32>,
    rules: Option<Rules>,
) -> Result<Replayed, RecordError> {
    let setup = Setup::read(text).map_err(RecordError::Header)?;
    let mut game = setup
        .start_with_rules(kind, max_turns, rules)
        .map_err(RecordError::Header)?;
    let mut positions = vec![game.clone()];
    let mut written = Vec::new();
    for (index, token) in tokens(text).enumerate() {
        game = game
            .play_token(token)
            .map_err(|e| RecordError::Token(TokenError { index, ..e }))?;
        positions.push(game.clone());
        written.push(token.to_string());
    }
    Ok(Replayed {
        setup,
        positions,
        tokens: written,
    })
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
    fn headers_say_the_game_its_limit_and_result() {
        let text = "[Game \"morris\"]\n[MaxTurns \"6\"]\n[Blue \"hôte\"]\n[Result \"1/2-1/2\"]\n[Event x]\n[broken\na7 b6 d7 d6 g7xb6 f6\n";
        let r = replay_all(text, None, None).unwrap();
        assert_eq!(r.positions.len(), 7);
        assert!(r.positions[6].is_over(), "the limit of 6");
        assert_eq!(r.setup.all[2], ("Blue".to_string(), "hôte".to_string()));
        assert_eq!(r.setup.all[4], ("Event".to_string(), "x".to_string()));
        // The same moves as a meta game, or with another limit, are refused on their line.
        let e = replay_all(text, Some(GameKind::Meta), None).unwrap_err();
        assert_eq!(
            e,
            RecordError::Header(HeaderError {
                line: 1,
                flaw: HeaderFlaw::OtherGame,
                message: "the record is a morris game, not meta".into()
            })
        );
        let e = replay_all(text, None, Some(100)).unwrap_err();
        assert!(matches!(
            e,
            RecordError::Header(HeaderError { line: 2, .. })
        ));
        // The moves decide the result: a Result header is information, even a wrong one, a
        // second one or a malformed one (the first well-formed one is kept for display).
        for other in ["1-0", "*", "2-0"] {
            let lie = text.replace("1/2-1/2", other) + "[Result \"0-1\"]\n";
            let r = replay_all(&lie, None, None).unwrap();
            assert!(r.positions[6].is_over());
            let kept = if other == "2-0" { "0-1" } else { other };
            assert_eq!(r.setup.result.as_ref().map(|(v, _)| v.as_str()), Some(kept));
        }
        // Without headers the game must be given.
        assert!(matches!(
            replay_all("e5 e4", None, None),
            Err(RecordError::Header(HeaderError { line: 0, .. }))
        ));
        assert_eq!(
            replay_all("e5 e4", Some(GameKind::Meta), None)
                .unwrap()
                .tokens,
            ["e5", "e4"]
        );
        for bad in [
            "[Game \"chess\"]",
            "[MaxTurns \"0\"]",
            "[Game \"meta\"]\n[MaxTurns \"9\"]",
            "[Game \"meta\"]\n[Game \"meta\"]",
        ] {
            assert!(
                matches!(
                    replay_all(bad, Some(GameKind::Meta), None),
                    Err(RecordError::Header(_))
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn written_headers_read_back() {
        let g = AnyGame::new(GameKind::Morris, 42)
            .unwrap()
            .play_token("d6")
            .unwrap();
        let text = header_lines(
            &g,
            "hôte \"x\"",
            "invité",
            "2025-01-02",
            result_text(g.outcome().map(|o| o.winner)),
            None,
        ) + "d6\n";
        assert!(
            text.starts_with("[Game \"morris\"]\n[MaxTurns \"42\"]\n[Blue \"hôte  x \"]\n"),
            "{text}"
        );
        let r = replay_all(&text, Some(GameKind::Morris), Some(42)).unwrap();
        assert_eq!(r.positions.last(), Some(&g));
    }

    #[test]
    fn the_rules_header_sets_the_rules_and_must_agree_with_those_given() {
        let text = "[Game \"morris\"]\n[Rules \"twelve\"]\na7 d7 b6 d6 c5xd7\n";
        let r = replay_all(text, None, None).unwrap();
        let AnyGame::Morris(end) = r.positions.last().unwrap() else {
            panic!("a morris game")
        };
        assert_eq!(end.rules(), Rules::TWELVE);
        assert_eq!(end.reserve(Player::Red), 10);
        // Any spelling of the same rules agrees; other rules do not.
        let same = "pieces=12,diagonals=1".parse().ok();
        assert!(replay_all_with_rules(text, None, None, same).is_ok());
        let e = replay_all_with_rules(text, None, None, Some(Rules::LASKER)).unwrap_err();
        assert_eq!(
            e,
            RecordError::Header(HeaderError {
                line: 2,
                flaw: HeaderFlaw::Contradiction,
                message: "the record's rules are twelve (pieces=12,diagonals=1,flying=1,\
                          lasker=0,quiet=0), not lasker (pieces=10,diagonals=0,flying=1,\
                          lasker=1,quiet=0)"
                    .into()
            })
        );
        // Without a header the rules given are played, and by default nine: there the mill
        // on the diagonal does not exist.
        let bare = "a7 d7 b6 d6 c5xd7";
        let r = replay_all_with_rules(bare, Some(GameKind::Morris), None, Some(Rules::TWELVE));
        assert_eq!(r.unwrap().positions.len(), 6);
        assert!(matches!(
            replay_all(bare, Some(GameKind::Morris), None),
            Err(RecordError::Token(TokenError { index: 4, .. }))
        ));
        for (bad, line, words) in [
            ("[Rules \"ten\"]", 1, "unknown rule set"),
            ("[Rules \"\"]", 1, "no rules given"),
            (
                "[Event \"x\"]\n[Rules \"twelve,pieces=13\"]",
                2,
                "9, 10, 11 or 12",
            ),
            (
                "[Rules \"twelve\"]\n[Rules \"twelve\"]",
                2,
                "a second Rules header",
            ),
            ("[Game \"meta\"]\n[Rules \"nine\"]", 2, "morris only"),
        ] {
            let kind = (!bad.contains("meta")).then_some(GameKind::Morris);
            match replay_all(bad, kind, None) {
                Err(RecordError::Header(e)) => {
                    assert_eq!(e.line, line, "{bad}");
                    assert!(e.message.contains(words), "{bad}: {}", e.message);
                }
                other => panic!("{bad}: {other:?}"),
            }
        }
        // Rules given for a game the headers say is meta.
        let e = replay_all_with_rules("[Game \"meta\"]\ne5", None, None, Some(Rules::NINE));
        assert!(matches!(
            e,
            Err(RecordError::Header(HeaderError { line: 1, .. }))
        ));
        // A value far too long is refused without being read.
        let long = format!("[Rules \"{}\"]", "nine,".repeat(100));
        let e = replay_all(&long, Some(GameKind::Morris), None).unwrap_err();
        assert!(
            matches!(e, RecordError::Header(HeaderError { line: 1, ref message, .. })
            if message.contains("at most 200"))
        );
    }

    #[test]
    fn exported_headers_name_the_rules_unless_they_are_the_default() {
        let g = AnyGame::Morris(Morris::with_rules(Rules::GUR9, 80).unwrap());
        let text = header_lines(&g, "a", "b", "2025-01-02", "*", None);
        assert!(
            text.starts_with(
                "[Game \"morris\"]\n[MaxTurns \"80\"]\n\
                 [Rules \"pieces=9,diagonals=0,flying=1,lasker=0,quiet=50\"]\n[Blue \"a\"]\n"
            ),
            "{text}"
        );
        let r = replay_all(&text, None, None).unwrap();
        assert_eq!(r.positions[0], g);
        let plain = header_lines(&AnyGame::Morris(Morris::new()), "a", "b", "d", "*", None);
        assert!(!plain.contains("Rules"));
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
