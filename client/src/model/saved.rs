//! A local game kept by the browser (hot-seat and against the computer, both games), so that a
//! reload — or a phone discarding the tab — finds it where it was: the game as a record, the
//! format of `engine replay` (docs/cli.md), headed with what decides it and the computer's
//! settings. Reading it back replays every turn through the engine (the undo stack comes back
//! with it); anything the engine refuses, or that is not this game's, is no saved game at all.
//! The page reads and writes the browser's storage; this module only writes and reads text.
//!
//! ```
//! use client::model::computer::{Opponent, Side};
//! use client::model::saved;
//! use engine::ai::Level;
//! use engine::morris::{Action, Morris, Point};
//! use engine::{Player, Table};
//!
//! let mut table = Table::new(Morris::with_rules("lasker".parse().unwrap(), 60).unwrap());
//! for name in ["a7", "b6", "d7", "d6", "g7"] {
//!     table.play(Action::Place(Point::from_name(name).unwrap())).unwrap();
//! }
//! let opponent = Opponent { level: Level::Medium, side: Side::Random, human: Player::Red };
//! let text = saved::write(&table, Some(opponent));
//! assert!(text.contains("[Pending \"g7\"]") && text.ends_with("a7 b6 d7 d6\n"));
//! let kept = saved::read::<Morris>(&text).unwrap();
//! assert_eq!((kept.table, kept.opponent), (table, Some(opponent)));
//! assert!(saved::read::<Morris>("[Game \"morris\"]\na7 a7\n").is_none());
//! ```

use super::computer::{Opponent, Rules as Searched, Side};
use engine::ai::Level;
use engine::meta::Meta;
use engine::morris::Morris;
use engine::record;
use engine::{AnyGame, Player, Table};

/// A game a page can keep: one of the two, with its record's start.
pub trait Kept: Searched {
    /// The game of a record's start, when it is this one.
    fn from_start(game: AnyGame) -> Option<Self>;
}

impl Kept for Morris {
    fn from_start(game: AnyGame) -> Option<Morris> {
        match game {
            AnyGame::Morris(g) => Some(g),
            AnyGame::Meta(_) => None,
        }
    }
}

impl Kept for Meta {
    fn from_start(game: AnyGame) -> Option<Meta> {
        match game {
            AnyGame::Meta(g) => Some(g),
            AnyGame::Morris(_) => None,
        }
    }
}

/// A saved game read back: the game with its history, and the computer's settings (a game
/// against the computer).
#[derive(Clone, Debug, PartialEq)]
pub struct Saved<G: Kept> {
    /// The game and its undo stack, replayed by the engine.
    pub table: Table<G>,
    /// Against the computer: its level, the side chosen and the side played.
    pub opponent: Option<Opponent>,
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Blue => "blue",
        Side::Red => "red",
        Side::Random => "random",
    }
}

/// The text that keeps `table` (and, against the computer, its settings): header lines —
/// `Game`, `MaxTurns` and `Rules` (Morris, as in records), `Level`, `Side` and `Human` (the
/// computer's settings), `Pending` (a Morris step whose capture is still to choose) — then the
/// completed turns.
pub fn write<G: Kept>(table: &Table<G>, opponent: Option<Opponent>) -> String {
    let mut s = String::new();
    let mut line = |name: &str, value: &str| {
        s.push('[');
        s.push_str(name);
        s.push_str(" \"");
        s.push_str(value);
        s.push_str("\"]\n");
    };
    let start = table.position(0);
    line("Game", G::KIND.as_str());
    if start.max_turns() > 0 {
        line("MaxTurns", &start.max_turns().to_string());
    }
    let rules = start.rules_text();
    if !rules.is_empty() {
        line("Rules", &rules);
    }
    if let Some(o) = opponent {
        line("Level", &o.level.number().to_string());
        line("Side", side_name(o.side));
        line("Human", &o.human.index().to_string());
    }
    let pending = table.game().pending();
    if !pending.is_empty() {
        line("Pending", &pending);
    }
    s.push_str(&table.record());
    s.push('\n');
    s
}

/// Reads a text [`write`] wrote, replaying every turn through the engine: `None` for anything
/// else — another game's, a header that cannot be, a turn the engine refuses, a turn written
/// without its capture, settings half there.
pub fn read<G: Kept>(text: &str) -> Option<Saved<G>> {
    let (start, tokens, pending, opponent) = parse(text, G::KIND)?;
    let mut table = Table::new(G::from_start(start)?);
    // The turns played again on a table, step by step, for its undo stack.
    for token in tokens.iter().chain(&pending) {
        let (first, capture) = G::steps(G::parse_turn(token).ok()?);
        table.play(first).ok()?;
        if let Some(c) = capture {
            table.play(c).ok()?;
        }
    }
    // Every turn whole, and the pending step only waiting for its capture.
    (table.game().mid_turn() == pending.is_some()).then_some(Saved { table, opponent })
}

/// The start, the turns, the pending step and the computer's settings of a kept game of
/// `kind`, read as the viewer reads a record (headers checked, every turn legal).
#[allow(clippy::type_complexity)]
fn parse(
    text: &str,
    kind: engine::GameKind,
) -> Option<(AnyGame, Vec<String>, Option<String>, Option<Opponent>)> {
    let replayed = record::replay_all(text, Some(kind), None).ok()?;
    let header = |name: &str| {
        record::headers(text)
            .find(|(_, n, _)| *n == name)
            .map(|(_, _, v)| v)
    };
    // A pending step is the first step of a turn, without its capture.
    let pending = header("Pending").map(str::to_string);
    if pending.as_deref().is_some_and(|p| p.contains('x')) {
        return None;
    }
    let opponent = match (header("Level"), header("Side"), header("Human")) {
        (None, None, None) => None,
        (Some(level), Some(side), Some(human)) => {
            let level = Level::from_number(level.parse().ok()?)?;
            let side = [Side::Blue, Side::Red, Side::Random]
                .into_iter()
                .find(|s| side_name(*s) == side)?;
            let human = match human {
                "0" => Player::Blue,
                "1" => Player::Red,
                _ => return None,
            };
            // A side chosen is the side played, unless drawn by lot.
            let drawn = match side {
                Side::Blue => Player::Blue,
                Side::Red => Player::Red,
                Side::Random => human,
            };
            if drawn != human {
                return None;
            }
            Some(Opponent { level, side, human })
        }
        _ => return None,
    };
    let start = replayed.positions.into_iter().next()?;
    Some((start, replayed.tokens, pending, opponent))
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::meta::Cell;
    use engine::morris::{Action, Point};
    use engine::table::Playable;

    fn morris(steps: &str, rules: &str, limit: u32) -> Table<Morris> {
        let mut t = Table::new(Morris::with_rules(rules.parse().unwrap(), limit).unwrap());
        for n in steps.split_whitespace() {
            let a = match n.split_once('-') {
                Some((f, to)) => Action::Move {
                    from: Point::from_name(f).unwrap(),
                    to: Point::from_name(to).unwrap(),
                },
                None if t.game().mid_turn() => Action::Capture(Point::from_name(n).unwrap()),
                None => Action::Place(Point::from_name(n).unwrap()),
            };
            t.play(a).unwrap();
        }
        t
    }

    #[test]
    fn a_game_comes_back_with_its_rules_limit_history_and_pending_capture() {
        let t = morris("a7 b6 d7 d6 g7 b6 f6 a4 d1 g4", "twelve,flying=0", 42);
        assert!(!t.game().mid_turn());
        let text = write(&t, None);
        assert_eq!(
            text,
            "[Game \"morris\"]\n[MaxTurns \"42\"]\n\
             [Rules \"pieces=12,diagonals=1,flying=0,lasker=0,quiet=0\"]\n\
             a7 b6 d7 d6 g7xb6 f6 a4 d1 g4\n"
        );
        let back = read::<Morris>(&text).unwrap();
        assert_eq!(
            back,
            Saved {
                table: t.clone(),
                opponent: None
            }
        );
        // The undo stack came back with it.
        let mut undone = back.table;
        assert!(undone.undo() && undone.undo());
        assert_eq!(undone.record(), "a7 b6 d7 d6 g7xb6 f6 a4");
        // A capture pending (g7 closes a7-d7-g7), and the default rules written as nothing.
        let t = morris("a7 b6 d7 d6 g7", "nine", 100);
        let text = write(&t, None);
        assert_eq!(
            text,
            "[Game \"morris\"]\n[MaxTurns \"100\"]\n[Pending \"g7\"]\na7 b6 d7 d6\n"
        );
        assert_eq!(read::<Morris>(&text).unwrap().table, t);
        // An untouched game keeps its settings only.
        let t = morris("", "lasker", 7);
        assert_eq!(read::<Morris>(&write(&t, None)).unwrap().table, t);
    }

    #[test]
    fn the_computers_settings_come_back() {
        let mut t = Table::new(Meta::new());
        for n in ["e5", "e4"] {
            t.play(Cell::from_name(n).unwrap()).unwrap();
        }
        let o = Opponent {
            level: Level::Strong,
            side: Side::Random,
            human: Player::Red,
        };
        let text = write(&t, Some(o));
        assert_eq!(
            text,
            "[Game \"meta\"]\n[Level \"4\"]\n[Side \"random\"]\n[Human \"1\"]\ne5 e4\n"
        );
        let back = read::<Meta>(&text).unwrap();
        assert_eq!((back.table, back.opponent), (t, Some(o)));
    }

    #[test]
    fn anything_else_is_no_saved_game() {
        let good = write(&morris("a7 b6", "nine", 100), None);
        assert!(read::<Morris>(&good).is_some());
        for bad in [
            // another game's, or a game the other page keeps
            "[Game \"meta\"]\ne5\n",
            // headers that cannot be
            "[Game \"morris\"]\n[MaxTurns \"0\"]\n",
            "[Game \"morris\"]\n[Rules \"ten\"]\n",
            "[Game \"morris\"]\n[Game \"morris\"]\n",
            // turns the engine refuses, or written without their capture
            "[Game \"morris\"]\na7 a7\n",
            "[Game \"morris\"]\nhello\n",
            "[Game \"morris\"]\na7 b6 d7 d6 g7\n",
            "[Game \"morris\"]\na7 b6 d7 d6 g7xa7\n",
            // a pending step that is no capture, or comes with its capture
            "[Game \"morris\"]\n[Pending \"g7\"]\na7\n",
            "[Game \"morris\"]\n[Pending \"g7xb6\"]\na7 b6 d7 d6\n",
            // the computer's settings, half there or impossible
            "[Game \"morris\"]\n[Level \"2\"]\n",
            "[Game \"morris\"]\n[Level \"9\"]\n[Side \"blue\"]\n[Human \"0\"]\n",
            "[Game \"morris\"]\n[Level \"2\"]\n[Side \"green\"]\n[Human \"0\"]\n",
            "[Game \"morris\"]\n[Level \"2\"]\n[Side \"blue\"]\n[Human \"1\"]\n",
            "[Game \"morris\"]\n[Level \"2\"]\n[Side \"red\"]\n[Human \"x\"]\n",
            // not even a record
            "{\"record\":\"a7 b6\"}",
            "\u{0}\u{ffff}",
        ] {
            assert!(read::<Morris>(bad).is_none(), "{bad:?}");
        }
        // Nothing at all reads as a fresh game with the defaults (a page then starts afresh).
        assert_eq!(read::<Morris>("").unwrap().table, Table::new(Morris::new()));
        // The other game's text.
        assert!(read::<Meta>(&good).is_none());
    }
}
