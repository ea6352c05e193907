//! The UI's state and transitions, free of any web framework: engine state plus view state
//! (selection, focus, notices, dialogs), changed by events. The components only render these
//! models and turn clicks and keys into events; every rule decision comes from the engine.

pub mod computer;
pub mod history;
pub mod meta;
pub mod morris;
#[cfg(feature = "remote")]
pub mod room;
pub mod selection;
pub mod speech;
pub mod text;
pub mod viewer;

use engine::morris::check_max_turns;

/// Reads a typed Morris turn limit (1–500), or the French refusal.
pub fn parse_limit(text: &str) -> Result<u16, String> {
    text.trim()
        .parse::<u32>()
        .ok()
        .and_then(|n| check_max_turns(n).ok())
        .ok_or_else(|| text::LIMIT_ERROR.to_string())
}

/// The « Nouvelle partie » confirmation, with the turn-limit field for Morris.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGameDialog {
    /// The turn limit as typed (Morris only).
    pub limit_text: String,
    /// Why the typed limit was refused.
    pub error: Option<String>,
}
