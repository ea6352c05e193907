//! The UI's state and transitions, free of any web framework: engine state plus view state
//! (selection, focus, notices, dialogs), changed by events. The components only render these
//! models and turn clicks and keys into events; every rule decision comes from the engine.

pub mod meta;
pub mod morris;
pub mod remote;
pub mod text;

use engine::morris::check_max_turns;
use engine::{Game, Illegal};

/// Reads a typed Morris turn limit (1–500), or the French refusal.
pub fn parse_limit(text: &str) -> Result<u16, String> {
    text.trim()
        .parse::<u32>()
        .ok()
        .and_then(|n| check_max_turns(n).ok())
        .ok_or_else(|| text::LIMIT_ERROR.to_string())
}

/// A game with its undo stack: the state at the start of each completed or pending turn.
#[derive(Clone, Debug, PartialEq)]
pub struct Table<G: Game> {
    game: G,
    history: Vec<G>,
}

impl<G: Game> Table<G> {
    /// A table with a fresh game and no history.
    pub fn new(game: G) -> Table<G> {
        Table {
            game,
            history: Vec::new(),
        }
    }

    /// The current state.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Plays one step. A step that starts a turn saves the state before it, so that undo goes
    /// back to the start of the turn; a step that completes one (a capture) saves nothing.
    pub fn play(&mut self, action: G::Action, starts_turn: bool) -> Result<(), Illegal> {
        let next = self.game.play(action)?;
        if starts_turn {
            self.history.push(std::mem::replace(&mut self.game, next));
        } else {
            self.game = next;
        }
        Ok(())
    }

    /// Goes back to the start of the last turn (also one in progress, also after the end).
    pub fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some(previous) => {
                self.game = previous;
                true
            }
            None => false,
        }
    }

    /// True when there is a turn to take back.
    pub fn can_undo(&self) -> bool {
        !self.history.is_empty()
    }

    /// True before the first step of the game.
    pub fn is_untouched(&self) -> bool {
        self.history.is_empty()
    }

    /// Starts over with `game`.
    pub fn reset(&mut self, game: G) {
        *self = Table::new(game);
    }
}

/// The « Nouvelle partie » confirmation, with the turn-limit field for Morris.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGameDialog {
    /// The turn limit as typed (Morris only).
    pub limit_text: String,
    /// Why the typed limit was refused.
    pub error: Option<String>,
}
