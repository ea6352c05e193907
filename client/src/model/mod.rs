//! The UI's state and transitions, free of any web framework: engine state plus view state
//! (selection, focus, notices, dialogs), changed by events. The components only render these
//! models and turn clicks and keys into events; every rule decision comes from the engine.

#[cfg(feature = "local")]
pub mod computer;
#[cfg(feature = "local")]
pub mod game;
pub mod history;
#[cfg(feature = "local")]
pub mod meta;
#[cfg(feature = "local")]
pub mod morris;
pub mod motion;
// The room's invitation draws one, and the offers of a room paired by hand.
#[cfg(any(feature = "remote", feature = "watch", feature = "paired"))]
pub mod qr;
// The spectator's page (feature `watch`) draws what the room's page does, from its own model.
#[cfg(any(feature = "remote", feature = "watch", feature = "paired"))]
pub mod room;
pub mod rules;
#[cfg(feature = "local")]
pub mod saved;
pub mod seat;
pub mod selection;
pub mod speech;
pub mod text;
#[cfg(feature = "local")]
pub mod viewer;

use engine::morris::check_max_turns;

/// Reads a typed Morris turn limit (1–500), or the refusal.
pub fn parse_limit(text: &str) -> Result<u16, crate::i18n::Text> {
    text.trim()
        .parse::<u32>()
        .ok()
        .and_then(|n| check_max_turns(n).ok())
        .ok_or_else(|| crate::i18n::Text::of(crate::i18n::t::limit_error))
}

/// The « Nouvelle partie » confirmation, with the turn-limit field for Morris.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGameDialog {
    /// The turn limit as typed (Morris only).
    pub limit_text: String,
    /// Why the typed limit was refused.
    pub error: Option<crate::i18n::Text>,
}
