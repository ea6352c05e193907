//! What a screen reader hears: each move in words, in a polite live region, in every mode.
//!
//! [`Speech`] follows a game's [`Table`] from one update to the next and words what changed —
//! the turn just completed (with the end of the game), a mill waiting for its capture, a turn
//! taken back — plus what the page tells it ([`Speech::say`]: a new game, a proposal, the
//! opponent's presence). The words of a turn come from one function, [`turn_words`], fed with
//! engine facts only (the table's positions before and after the turn).
//!
//! ```
//! use client::model::speech::Speech;
//! use engine::morris::{Action, Morris, Point};
//! use engine::Table;
//!
//! let mut table = Table::new(Morris::new());
//! let mut speech = Speech::following(&table);
//! table.play(Action::Place(Point::from_name("d6").unwrap())).unwrap();
//! speech.heard(&table);
//! assert_eq!(speech.text, "Bleu pose en d6.");
//! ```

use super::text;
use crate::i18n::t;
use engine::meta::{Meta, SmallBoard};
use engine::morris::{Morris, Phase};
use engine::table::Playable;
use engine::{AnyGame, AnyTurn, Game, Player, Table};

/// A game whose turns can be told in words.
pub trait Spoken: Playable {
    /// The player to move.
    fn mover(&self) -> Player;
    /// The words of `turn`, played by `mover` from `before` to `after` (no final stop).
    fn turn_said(mover: Player, turn: Self::Turn, before: &Self, after: &Self) -> String;
    /// Mid-turn: what the mover must still do (a Morris capture).
    fn pending(&self) -> Option<String>;
    /// The result, once the game is over.
    fn result(&self) -> Option<String>;
}

impl Spoken for Morris {
    fn mover(&self) -> Player {
        self.to_move()
    }
    fn turn_said(mover: Player, turn: engine::morris::Turn, _: &Morris, _: &Morris) -> String {
        let (who, to) = (text::player_name(mover), turn.to.to_string());
        let s = match turn.from {
            None => t::said_place(who, &to),
            Some(from) => t::said_move(who, &from.to_string(), &to),
        };
        match turn.capture {
            Some(c) => t::said_capture(&s, &c.to_string()),
            None => s,
        }
    }
    fn pending(&self) -> Option<String> {
        (self.phase() == Phase::Capture).then(|| {
            let me = self.to_move();
            t::said_mill(text::player_name(me), text::colour(me.opponent()))
        })
    }
    fn result(&self) -> Option<String> {
        text::morris_result(self)
    }
}

impl Spoken for Meta {
    fn mover(&self) -> Player {
        self.to_move()
    }
    fn turn_said(mover: Player, cell: engine::meta::Cell, before: &Meta, after: &Meta) -> String {
        let mark = match mover {
            Player::Blue => t::said_cross(),
            Player::Red => t::said_nought(),
        };
        let mut s = t::said_cell(text::player_name(mover), mark, &cell.name());
        let b = cell.board();
        let (was, now) = (before.small_board(b), after.small_board(b));
        if was == SmallBoard::Open && now != SmallBoard::Open {
            let place = text::board_place(b);
            s = match now {
                SmallBoard::Drawn => t::said_board_drawn(&s, place),
                _ => t::said_board_won(&s, place),
            };
        }
        if !after.is_over() {
            s = match after.required_board() {
                Some(next) => t::said_next_board(&s, text::board_place(next)),
                None => t::said_next_free(&s),
            };
        }
        s
    }
    fn pending(&self) -> Option<String> {
        None
    }
    fn result(&self) -> Option<String> {
        self.outcome().map(|o| text::result(o, 0))
    }
}

impl Spoken for AnyGame {
    fn mover(&self) -> Player {
        self.to_move()
    }
    fn turn_said(mover: Player, turn: AnyTurn, before: &AnyGame, after: &AnyGame) -> String {
        match (turn, before, after) {
            (AnyTurn::Morris(t), AnyGame::Morris(b), AnyGame::Morris(a)) => {
                Morris::turn_said(mover, t, b, a)
            }
            (AnyTurn::Meta(c), AnyGame::Meta(b), AnyGame::Meta(a)) => {
                Meta::turn_said(mover, c, b, a)
            }
            // A table never mixes the games.
            _ => t::said_plays(text::player_name(mover), &turn.to_string()),
        }
    }
    fn pending(&self) -> Option<String> {
        match self {
            AnyGame::Morris(g) => g.pending(),
            AnyGame::Meta(g) => g.pending(),
        }
    }
    fn result(&self) -> Option<String> {
        match self {
            AnyGame::Morris(g) => g.result(),
            AnyGame::Meta(g) => g.result(),
        }
    }
}

/// The words of the completed turn number `ply` (from 0) of a table, with the result when it
/// ended the game: the one sentence every mode says for a move.
pub fn turn_words<G: Spoken>(table: &Table<G>, ply: usize) -> Option<String> {
    let turn = *table.turns().get(ply)?;
    let before = table.position(ply);
    let last = ply + 1 == table.turns().len();
    // After the last turn: the current state (without a capture begun since: none can be).
    let after = if last {
        table.game()
    } else {
        table.position(ply + 1)
    };
    let mut s = G::turn_said(before.mover(), turn, before, after);
    s.push('.');
    if let Some(r) = after.result().filter(|_| last) {
        s.push(' ');
        s.push_str(&r);
    }
    Some(s)
}

/// The live region's text, and what it has already told of a table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Speech {
    /// The last announcement.
    pub text: String,
    /// Counts the announcements: a new one replaces the region's node, so that the same words
    /// twice are read twice.
    pub serial: u32,
    /// Completed turns already told.
    seen: usize,
    /// A Morris capture was pending when last told.
    mid: bool,
    /// Said since the last announcement, waiting for [`Speech::heard`].
    queue: Vec<String>,
    /// The language of the last announcement.
    lang: crate::i18n::Lang,
}

impl Speech {
    /// What the live region holds: the last announcement, unless the page has changed language
    /// since (it was read out already; it must not stay there in the other language).
    pub fn said(&self) -> &str {
        if self.lang == crate::i18n::lang() {
            &self.text
        } else {
            ""
        }
    }

    /// Speech that has told everything on `table` so far.
    pub fn following<G: Spoken>(table: &Table<G>) -> Speech {
        let mut s = Speech::default();
        s.sync(table);
        s
    }

    fn sync<G: Spoken>(&mut self, table: &Table<G>) {
        self.seen = table.turns().len();
        self.mid = table.game().mid_turn();
    }

    /// Adds words to the next announcement.
    pub fn say(&mut self, words: impl Into<String>) {
        self.queue.push(words.into());
    }

    /// A new game on `table`: says so, and tells its turns from there.
    pub fn restart<G: Spoken>(&mut self, table: &Table<G>) {
        self.sync(table);
        self.say(t::said_new_game());
    }

    /// Words what changed on `table` since last told, after what was said, and announces it
    /// all (nothing when nothing changed).
    pub fn heard<G: Spoken>(&mut self, table: &Table<G>) {
        self.follow(table);
        self.flush();
    }

    /// Words what changed on `table` since last told, after what was said.
    pub fn follow<G: Spoken>(&mut self, table: &Table<G>) {
        let (turns, game) = (table.turns().len(), table.game());
        if turns > self.seen {
            // Several turns at once (a resynchronised room): the last one tells the position.
            if let Some(w) = turn_words(table, turns - 1) {
                self.say(w);
            }
        } else if turns < self.seen || (self.mid && !game.mid_turn()) {
            let taken = self.seen.saturating_sub(turns).max(1);
            let who = text::player_name(game.mover());
            self.say(if taken > 1 {
                t::said_undone_many(who)
            } else {
                t::said_undone_one(who)
            });
        }
        if game.mid_turn() && !(self.mid && turns == self.seen) {
            if let Some(p) = game.pending() {
                self.say(p);
            }
        }
        self.sync(table);
    }

    /// Announces what was said since the last announcement, if anything.
    pub fn flush(&mut self) {
        if !self.queue.is_empty() {
            self.text = self.queue.join(" ");
            self.lang = crate::i18n::lang();
            self.queue.clear();
            self.serial = self.serial.wrapping_add(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::meta::Cell;
    use engine::morris::{Action, Point};

    fn p(name: &str) -> Point {
        Point::from_name(name).unwrap()
    }

    /// Plays Morris steps by name (`d6`, `a7-d7`, `xg1`), telling each one.
    fn morris(speech: &mut Speech, t: &mut Table<Morris>, steps: &str) -> Vec<String> {
        steps
            .split_whitespace()
            .map(|s| {
                let action = if let Some(c) = s.strip_prefix('x') {
                    Action::Capture(p(c))
                } else if let Some((a, b)) = s.split_once('-') {
                    Action::Move {
                        from: p(a),
                        to: p(b),
                    }
                } else {
                    Action::Place(p(s))
                };
                t.play(action).unwrap();
                speech.heard(t);
                speech.text.clone()
            })
            .collect()
    }

    #[test]
    fn morris_places_mills_and_captures_are_told_in_words() {
        let mut t = Table::new(Morris::new());
        let mut s = Speech::following(&t);
        let said = morris(&mut s, &mut t, "a7 b6 d7 d6 g7 xb6");
        assert_eq!(said[0], "Bleu pose en a7.");
        assert_eq!(said[1], "Rouge pose en b6.");
        assert_eq!(
            said[4],
            "Bleu forme un moulin et doit capturer un pion rouge."
        );
        assert_eq!(said[5], "Bleu pose en g7 et capture b6.");
        assert_eq!(s.serial, 6);
    }

    #[test]
    fn a_morris_move_with_its_capture_is_one_sentence() {
        // Both reserves empty, no mill yet; then the first move with a capture that the engine
        // offers within two turns.
        let mut t = Table::new(Morris::new());
        let mut s = Speech::following(&t);
        morris(
            &mut s,
            &mut t,
            "a7 d7 g7 a4 g4 g1 a1 d1 b6 d6 f6 b4 f4 f2 b2 d2 c5 e5",
        );
        let with_capture = |g: &Morris| {
            g.legal_turns()
                .into_iter()
                .find(|t| t.from.is_some() && t.capture.is_some())
        };
        let turn = with_capture(t.game()).unwrap_or_else(|| {
            let first = t.game().legal_turns()[0];
            t.play(first.step()).unwrap();
            if let Some(c) = first.capture {
                t.play(Action::Capture(c)).unwrap();
            }
            s.heard(&t);
            with_capture(t.game()).expect("a capture within two turns")
        });
        let who = text::player_name(t.game().to_move());
        t.play(turn.step()).unwrap();
        s.heard(&t);
        assert!(s.text.starts_with(who) && s.text.contains("doit capturer"));
        t.play(Action::Capture(turn.capture.unwrap())).unwrap();
        s.heard(&t);
        let (from, to, c) = (turn.from.unwrap(), turn.to, turn.capture.unwrap());
        assert_eq!(
            s.text,
            format!("{who} déplace {from} vers {to} et capture {c}.")
        );
    }

    #[test]
    fn undo_and_a_new_game_are_told() {
        let mut t = Table::new(Morris::new());
        let mut s = Speech::following(&t);
        morris(&mut s, &mut t, "a7 b6 d7 d6 g7");
        t.undo();
        s.heard(&t);
        assert_eq!(s.text, "Dernier tour annulé. Au tour de Bleu.");
        t.undo();
        t.undo();
        s.heard(&t);
        assert_eq!(s.text, "Tours annulés. Au tour de Bleu.");
        // The same words again still make a new announcement.
        let serial = s.serial;
        t.reset(Morris::new());
        s.restart(&t);
        s.heard(&t);
        assert_eq!(
            (s.text.as_str(), s.serial),
            (t::said_new_game(), serial + 1)
        );
        s.heard(&t);
        assert_eq!(s.serial, serial + 1, "nothing new, nothing said");
    }

    #[test]
    fn the_end_of_a_game_follows_its_last_turn() {
        let mut t = Table::new(Morris::with_max_turns(1).unwrap());
        let mut s = Speech::following(&t);
        morris(&mut s, &mut t, "d6");
        assert_eq!(
            s.text,
            "Bleu pose en d6. Partie nulle : limite de 1 tours atteinte."
        );
    }

    fn meta(s: &mut Speech, t: &mut Table<Meta>, cells: &str) -> String {
        for c in cells.split_whitespace() {
            t.play(Cell::from_name(c).unwrap()).unwrap();
            s.heard(t);
        }
        s.text.clone()
    }

    #[test]
    fn meta_names_the_next_board() {
        let mut t = Table::new(Meta::new());
        let mut s = Speech::following(&t);
        let e5 = Cell::from_name("e5").unwrap();
        let next = text::board_place(e5.cell());
        assert_eq!(
            meta(&mut s, &mut t, "e5"),
            format!("Bleu (croix) joue en e5 ; prochain coup dans la grille {next}.")
        );
        assert_eq!(t.game().required_board(), Some(e5.cell()));
    }

    #[test]
    fn meta_tells_a_won_board_and_a_free_choice() {
        // Blue takes the centre board's diagonal while Red keeps sending Blue back there; the
        // last cell sends Red into that board, closed now: a free choice.
        let mut t = Table::new(Meta::new());
        let mut s = Speech::following(&t);
        let at = |b: u8, c: u8| Cell::at(b, c).unwrap().to_string();
        let moves = [at(4, 0), at(0, 4), at(4, 8), at(8, 4), at(4, 4)];
        let said = meta(&mut s, &mut t, &moves.join(" "));
        assert_eq!(t.game().small_board(4), SmallBoard::Won(Player::Blue));
        assert_eq!(
            said,
            format!(
                "Bleu (croix) joue en {} et gagne la grille au centre ; prochain coup : choix libre de la grille.",
                at(4, 4)
            )
        );
        let red = meta(&mut s, &mut t, &at(0, 0));
        assert!(
            red.starts_with(&format!("Rouge (rond) joue en {}", at(0, 0))),
            "{red}"
        );
    }
}
