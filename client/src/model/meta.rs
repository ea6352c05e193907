//! The Ultimate tic-tac-toe page as a model, hot-seat or against the computer: the game and its
//! undo stack, the keyboard focus, the last refusal, the new-game dialog, and the computer
//! ([`Computer`]: its turns, its level and side — chosen before « Commencer » — and the
//! hints). The game kept by the browser comes back through [`Model::restore`]
//! ([`super::saved`]). [`Model::update`] returns what the page must do.

use super::computer::{Computer, Effect, Input, Side};
use super::history::{Browse, HistoryView, Nav};
use super::saved;
use super::speech::Speech;
use super::text;
use super::NewGameDialog;
use crate::i18n::{t, Text};
use engine::ai::Level;
use engine::meta::{Cell, Meta};
use engine::{Direction, Game, Player, Table};

/// What the player did.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A click, or Enter/Space on the focused cell.
    Activate(Cell),
    /// An arrow key on the board.
    Arrow(Direction),
    /// « Annuler ».
    Undo,
    /// « Nouvelle partie »: opens the confirmation.
    AskNewGame,
    /// « Commencer » in the confirmation.
    ConfirmNewGame,
    /// « Reprendre la partie ».
    CancelNewGame,
    /// Against the computer, its level: in the open dialog, else before the first move.
    Level(Level),
    /// Against the computer, the player's side: in the open dialog, else before the first move.
    Side(Side),
    /// « Commencer » against the computer: the settings are chosen, the game begins.
    Start,
    /// « Suggérer un coup ».
    Hint,
    /// The worker or the timer reported.
    Computer(Input),
    /// Going back through the game (a turn clicked, ←, →, Home, End, « Retour à la partie »).
    History(Nav),
}

/// The page's whole state.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    table: Table<Meta>,
    /// The cell with the keyboard focus.
    pub focus: Cell,
    /// The last refusal, in French.
    pub notice: Option<Text>,
    /// The open « Nouvelle partie » confirmation.
    pub dialog: Option<NewGameDialog>,
    /// The computer: the opponent (computer mode) and the hints.
    pub computer: Computer<Meta>,
    /// The position shown: live, or a past one (read-only).
    pub browse: Browse,
    /// The moves in words, for the live region.
    pub speech: Speech,
    /// The game was taken back from the browser's storage (« Partie reprise »), until the
    /// player acts.
    pub resumed: bool,
}

impl Default for Model {
    fn default() -> Model {
        Model::new()
    }
}

impl Model {
    /// A fresh hot-seat game, the focus on the centre cell.
    pub fn new() -> Model {
        Model::with(Computer::hints_only(0))
    }

    /// A fresh game against the computer (« Facile », the player Blue), its settings to be
    /// chosen before « Commencer »; `seed` varies the games.
    pub fn against_computer(seed: u64) -> Model {
        Model::with(Computer::against(Level::Easy, Side::Blue, seed))
    }

    fn with(computer: Computer<Meta>) -> Model {
        Model {
            table: Table::new(Meta::new()),
            focus: Cell::at(4, 4).expect("centre cell"),
            notice: None,
            dialog: None,
            computer,
            browse: Browse::default(),
            speech: Speech::default(),
            resumed: false,
        }
    }

    /// The game.
    pub fn game(&self) -> &Meta {
        self.table.game()
    }

    /// The game with its history.
    pub fn table(&self) -> &Table<Meta> {
        &self.table
    }

    /// True when « Annuler » does something.
    pub fn can_undo(&self) -> bool {
        self.computer.can_undo(&self.table)
    }

    /// True while the settings may change on the page: until « Commencer » against the
    /// computer.
    pub fn settings_editable(&self) -> bool {
        self.computer.setting_up()
    }

    /// What the browser keeps of this page ([`saved::write`]).
    pub fn saved(&self) -> String {
        saved::write(&self.table, self.computer.opponent)
    }

    /// Who played last: the colour of the undo button.
    pub fn last_mover(&self) -> Option<Player> {
        self.game()
            .last_move()
            .map(|_| self.game().to_move().opponent())
    }

    /// The position the board shows: the live game, or a past one.
    pub fn shown(&self) -> &Meta {
        self.browse.shown(&self.table)
    }

    /// The history panel.
    pub fn history(&self) -> HistoryView {
        HistoryView::of(&self.table, None, self.browse)
    }

    /// Handles one event; says what the page must do.
    pub fn update(&mut self, event: Event) -> Vec<Effect> {
        let effects = self.handle(event);
        self.speech.heard(&self.table);
        self.browse.fit_to(&self.table);
        effects
    }

    fn handle(&mut self, event: Event) -> Vec<Effect> {
        if matches!(
            event,
            Event::Activate(_) | Event::Undo | Event::ConfirmNewGame | Event::Start
        ) {
            self.resumed = false;
        }
        match event {
            Event::History(nav) => {
                // A refusal was about the position left behind.
                self.notice = None;
                self.browse.go_on(nav, &self.table)
            }
            Event::Start if self.computer.setting_up() => {
                self.notice = None;
                self.computer.begin();
                self.speech.restart(&self.table);
                return self.computer.settle(&self.table);
            }
            Event::Start => {}
            Event::Activate(cell) => {
                self.focus = cell;
                return self.activate(cell);
            }
            Event::Arrow(d) => self.focus = self.focus.toward(d),
            Event::Undo => {
                self.notice = None;
                self.browse = Browse::default();
                return self.computer.undo(&mut self.table);
            }
            // The settings are on screen already, with « Commencer ».
            Event::AskNewGame if self.computer.setting_up() => {}
            Event::AskNewGame => {
                self.computer.open_draft();
                self.dialog = Some(NewGameDialog {
                    limit_text: String::new(),
                    error: None,
                })
            }
            Event::ConfirmNewGame => {
                if self.dialog.take().is_some() {
                    self.table.reset(Meta::new());
                    self.speech.restart(&self.table);
                    self.notice = None;
                    self.browse = Browse::default();
                    self.computer.start();
                    return self.computer.settle(&self.table);
                }
            }
            Event::CancelNewGame => {
                self.dialog = None;
                self.computer.draft = None;
            }
            Event::Level(level) => return self.setting(Some(level), None),
            Event::Side(side) => return self.setting(None, Some(side)),
            Event::Hint => return self.computer.ask_hint(&self.table),
            Event::Computer(input) => return self.computer.input(&mut self.table, input),
        }
        Vec::new()
    }

    /// A click, or Enter/Space, on `cell`: refused while a past position is shown, before
    /// « Commencer » and on the computer's turn; else the player's move, if the engine takes it.
    fn activate(&mut self, cell: Cell) -> Vec<Effect> {
        if !self.browse.is_live() {
            self.notice = Some(Text::of(t::read_only));
        } else if self.computer.setting_up() {
            self.notice = Some(Text::of(t::setup_first));
        } else if self.computer.plays(self.game()) {
            self.notice = Some(self.computer.busy());
        } else {
            let required = self.game().required_board();
            match self.table.play(cell) {
                Ok(()) => {
                    self.notice = None;
                    return self.computer.settle(&self.table);
                }
                Err(e) => self.notice = Some(Text::new(move || text::meta_refusal(e, required))),
            }
        }
        Vec::new()
    }

    /// Takes back the game the browser kept for this page ([`saved::write`]'s text, found
    /// when the page opens), when it is one for this page (a game against the computer for the
    /// computer's page): under way, it goes on (the computer plays if it is its turn);
    /// untouched, its settings are offered again. Anything else changes nothing.
    pub fn restore(&mut self, text: &str) -> Vec<Effect> {
        let Some(kept) = saved::read::<Meta>(text) else {
            return Vec::new();
        };
        if kept.opponent.is_some() != self.computer.opponent.is_some() {
            return Vec::new();
        }
        self.resumed = !kept.table.is_untouched();
        if let Some(o) = kept.opponent {
            self.computer.resume(o, self.resumed);
        }
        self.table = kept.table;
        self.notice = None;
        self.dialog = None;
        self.browse = Browse::default();
        self.speech = Speech::following(&self.table);
        if self.resumed {
            self.speech.say(t::resumed());
        }
        self.speech.flush();
        self.computer.settle(&self.table)
    }

    /// A level or side: in the open dialog, or on the page before the first move.
    fn setting(&mut self, level: Option<Level>, side: Option<Side>) -> Vec<Effect> {
        if let Some((l, s)) = self.computer.draft.as_mut() {
            *l = level.unwrap_or(*l);
            *s = side.unwrap_or(*s);
        } else if self.settings_editable() {
            self.computer.set(level, side);
            return self.computer.settle(&self.table);
        }
        Vec::new()
    }

    /// The hint: whose turn and where to play, or the result.
    pub fn status(&self) -> String {
        let g = self.game();
        if let Some(o) = g.outcome() {
            return text::result(o, 0);
        }
        if self.computer.setting_up() {
            return t::setup_status().to_string();
        }
        if self.computer.plays(g) {
            return text::computer_status(self.computer.failed).to_string();
        }
        let human = self.computer.human();
        let who = text::turn_of(g.to_move(), human);
        let what = match g.required_board() {
            Some(b) => t::who_board(&who, text::board_place(b)),
            None => t::who_free(&who),
        };
        match (human, g.last_move()) {
            (Some(_), Some(c)) => t::computer_played(&c.to_string(), &what),
            _ => what,
        }
    }

    /// The player card titles: « Bleu · croix », or with « vous » and « ordinateur (Facile) ».
    pub fn player_title(&self, p: Player) -> String {
        let mark = match p {
            Player::Blue => t::mark_cross(),
            Player::Red => t::mark_nought(),
        };
        let mark = &format!(" {mark}");
        text::player_title(p, self.computer.opponent, mark)
    }

    /// The hint in words, or why there is none.
    pub fn hint_text(&self) -> Option<String> {
        text::hint(&self.computer, |c| {
            t::words_meta(&c.to_string(), text::board_place(c.board()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(name: &str) -> Cell {
        Cell::from_name(name).unwrap()
    }

    #[test]
    fn undo_restores_position_constraint_and_results() {
        let mut m = Model::new();
        for name in ["e5", "e4", "e3"] {
            m.update(Event::Activate(c(name)));
        }
        assert_eq!(m.game().required_board(), Some(1));
        assert_eq!(m.last_mover(), Some(Player::Blue));
        m.update(Event::Undo);
        assert_eq!(m.game().required_board(), Some(7));
        assert_eq!(m.last_mover(), Some(Player::Red));
        m.update(Event::Undo);
        m.update(Event::Undo);
        assert_eq!(m.game().moves(), 0);
        assert_eq!(m.last_mover(), None);
        assert!(!m.can_undo());
    }

    #[test]
    fn a_wrong_board_is_refused_with_its_place_in_words() {
        let mut m = Model::new();
        m.update(Event::Activate(c("e5")));
        m.update(Event::Activate(c("a9")));
        assert_eq!(
            m.notice.as_ref().map(Text::get).as_deref(),
            Some("Vous devez jouer dans la grille au centre.")
        );
        assert_eq!(m.game().moves(), 1);
        assert!(m.status().contains("jouez dans la grille au centre"));
    }

    #[test]
    fn a_game_steps_through_from_the_start_read_only() {
        let mut m = Model::new();
        let record = "e5 e4 e3 d7 b3 e8 d4 a1";
        for name in record.split(' ') {
            m.update(Event::Activate(c(name)));
        }
        m.update(Event::History(Nav::Start));
        assert_eq!(m.shown(), &Meta::new());
        for ply in 1..=7 {
            m.update(Event::History(Nav::Forward));
            assert_eq!(m.shown().moves() as usize, ply);
            assert_eq!(m.history().current, ply);
        }
        m.update(Event::Activate(c("a1")));
        assert_eq!(
            m.notice.as_ref().map(Text::get).as_deref(),
            Some(t::read_only())
        );
        assert_eq!(m.table().record(), record);
        m.update(Event::History(Nav::Forward));
        assert!(m.browse.is_live());
        // A new game shows the live (empty) board.
        m.update(Event::History(Nav::To(3)));
        m.update(Event::AskNewGame);
        m.update(Event::ConfirmNewGame);
        assert!(m.browse.is_live());
    }

    #[test]
    fn new_game_asks_first_and_cancel_keeps_the_game() {
        let mut m = Model::new();
        m.update(Event::Activate(c("e5")));
        m.update(Event::AskNewGame);
        m.update(Event::CancelNewGame);
        assert_eq!(m.game().moves(), 1);
        m.update(Event::AskNewGame);
        m.update(Event::ConfirmNewGame);
        assert_eq!(m.game().moves(), 0);
        // Without an open confirmation nothing is reset.
        m.update(Event::Activate(c("e5")));
        m.update(Event::ConfirmNewGame);
        assert_eq!(m.game().moves(), 1);
    }
}
