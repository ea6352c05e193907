//! Ultimate tic-tac-toe on the local pages, hot-seat or against the computer: what the page
//! model ([`super::game::Model`]) needs of the game ([`PageGame`]). A click plays the cell, if
//! the engine takes it; the page has no state or settings of its own.

use super::computer::Effect;
use super::game::{self, PageGame};
use super::text;
use super::NewGameDialog;
use crate::i18n::{t, Text};
use engine::meta::{Cell, Meta};
use engine::{Direction, Game, Player};
use std::convert::Infallible;

/// The Ultimate tic-tac-toe page's model.
pub type Model = game::Model<Meta>;
/// What the player did on the Ultimate tic-tac-toe page.
pub type Event = game::Event<Meta>;

impl PageGame for Meta {
    type Focus = Cell;
    type State = ();
    type Setting = Infallible;
    const HOT_SEAT_SETTINGS: bool = false;

    fn fresh() -> Meta {
        Meta::new()
    }
    fn state(_: &Meta) {}
    /// The centre cell.
    fn first_focus() -> Cell {
        Cell::at(4, 4).expect("centre cell")
    }
    fn toward(c: Cell, d: Direction) -> Cell {
        c.toward(d)
    }
    /// The player's move, if the engine takes it.
    fn click(m: &mut Model, cell: Cell) -> Vec<Effect> {
        let required = m.game().required_board();
        match m.table.play(cell) {
            Ok(()) => {
                m.notice = None;
                return m.computer.settle(&m.table);
            }
            Err(e) => m.notice = Some(Text::new(move || text::meta_refusal(e, required))),
        }
        Vec::new()
    }
    fn setting(_: &mut Model, setting: Infallible) -> Vec<Effect> {
        match setting {}
    }
    fn has_step(_: &()) -> bool {
        false
    }
    fn drop_step(_: &mut ()) -> bool {
        false
    }
    fn refused(_: &()) -> bool {
        false
    }
    fn open_dialog(_: &Meta, _: &mut ()) -> NewGameDialog {
        NewGameDialog {
            limit_text: String::new(),
            error: None,
        }
    }
    fn close_dialog(_: &mut ()) {}
    fn next_game(_: &mut Model) -> Option<Meta> {
        Some(Meta::new())
    }
    fn computer_step(_: &Meta) -> Option<String> {
        None
    }
    /// Whose turn and where to play.
    fn to_do(g: &Meta, human: Option<Player>) -> String {
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
    /// « · croix », « · rond ».
    fn mark(p: Player) -> String {
        let mark = match p {
            Player::Blue => t::mark_cross(),
            Player::Red => t::mark_nought(),
        };
        format!(" {mark}")
    }
    fn turn_words(c: Cell) -> String {
        t::words_meta(&c.to_string(), text::board_place(c.board()))
    }
    fn history_extra(_: &Meta) -> (Option<String>, Option<String>) {
        (None, None)
    }
}

impl Model {
    /// Who played last: the colour of the undo button.
    pub fn last_mover(&self) -> Option<Player> {
        self.game()
            .last_move()
            .map(|_| self.game().to_move().opponent())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::history::Nav;

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
