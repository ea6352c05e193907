//! The hot-seat Ultimate tic-tac-toe page as a model: the game and its undo stack, the keyboard
//! focus, the last refusal and the new-game dialog.

use super::text;
use super::NewGameDialog;
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
}

/// The page's whole state.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    table: Table<Meta>,
    /// The cell with the keyboard focus.
    pub focus: Cell,
    /// The last refusal, in French.
    pub notice: Option<String>,
    /// The open « Nouvelle partie » confirmation.
    pub dialog: Option<NewGameDialog>,
}

impl Default for Model {
    fn default() -> Model {
        Model::new()
    }
}

impl Model {
    /// A fresh game, the focus on the centre cell.
    pub fn new() -> Model {
        Model {
            table: Table::new(Meta::new()),
            focus: Cell::at(4, 4).expect("centre cell"),
            notice: None,
            dialog: None,
        }
    }

    /// The game.
    pub fn game(&self) -> &Meta {
        self.table.game()
    }

    /// True when « Annuler » does something.
    pub fn can_undo(&self) -> bool {
        self.table.can_undo()
    }

    /// Who played last: the colour of the undo button.
    pub fn last_mover(&self) -> Option<Player> {
        self.game()
            .last_move()
            .map(|_| self.game().to_move().opponent())
    }

    /// Handles one event.
    pub fn update(&mut self, event: Event) {
        match event {
            Event::Activate(cell) => {
                self.focus = cell;
                let required = self.game().required_board();
                self.notice = self
                    .table
                    .play(cell)
                    .err()
                    .map(|e| text::meta_refusal(e, required));
            }
            Event::Arrow(d) => self.focus = self.focus.toward(d),
            Event::Undo => {
                self.notice = None;
                self.table.undo();
            }
            Event::AskNewGame => {
                self.dialog = Some(NewGameDialog {
                    limit_text: String::new(),
                    error: None,
                })
            }
            Event::ConfirmNewGame => {
                if self.dialog.take().is_some() {
                    self.table.reset(Meta::new());
                    self.notice = None;
                }
            }
            Event::CancelNewGame => self.dialog = None,
        }
    }

    /// The hint: whose turn and where to play, or the result.
    pub fn status(&self) -> String {
        let g = self.game();
        if let Some(o) = g.outcome() {
            return text::result(o, 0);
        }
        let who = text::player_name(g.to_move());
        match g.required_board() {
            Some(b) => format!(
                "Au tour de {who} : jouez dans la grille {}.",
                text::board_place(b)
            ),
            None => format!(
                "Au tour de {who} : choix libre, jouez dans n'importe quelle grille bordée de vert."
            ),
        }
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
            m.notice.as_deref(),
            Some("Vous devez jouer dans la grille au centre.")
        );
        assert_eq!(m.game().moves(), 1);
        assert!(m.status().contains("jouez dans la grille au centre"));
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
