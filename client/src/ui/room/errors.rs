//! What the room page says when it cannot open: a damaged link, a link for the other game, an
//! unreadable saved seat, a browser without a secure random source.

use super::super::common::game_name;
use super::super::seats;
use super::super::{navigate_with_fragment, words, Route};
use super::parts::lobby_link;
use super::web::{self, old_storage_key};
use crate::i18n::t;
use engine::GameKind;
use yew::prelude::*;

/// Why a room page cannot open.
#[derive(Clone, Debug, PartialEq)]
pub enum RoomError {
    Malformed,
    /// The link announces Morris rules that cannot be.
    BadRules,
    /// A link for the other game: its page there (the room's, or a room paired by hand's) and
    /// the fragment to open it with.
    OtherGame(Route, String),
    /// The seat kept under this key of the browser's storage cannot be read.
    BadSave(String),
    NoRandom,
    /// The offer of a room paired by hand cannot be read.
    #[cfg(feature = "paired")]
    Pairing(crate::model::room::pairing::TextError),
}

impl RoomError {
    /// The `data-room-error` hook.
    fn name(&self) -> &'static str {
        match self {
            RoomError::Malformed => "malformed",
            RoomError::BadRules => "bad-rules",
            RoomError::OtherGame(..) => "other-game",
            RoomError::BadSave(_) => "bad-save",
            RoomError::NoRandom => "no-random",
            #[cfg(feature = "paired")]
            RoomError::Pairing(_) => "pairing",
        }
    }
}

/// The page of a room that cannot open.
pub fn room_error(e: &RoomError, kind: GameKind, go: &Callback<Route>) -> Html {
    let (title, body, fix) = match e {
        RoomError::Malformed => (t::bad_link_title(), t::bad_link().to_string(), html! {}),
        RoomError::BadRules => (
            t::bad_link_title(),
            t::bad_rules_link().to_string(),
            html! {},
        ),
        RoomError::OtherGame(to, fragment) => {
            let other = game_name(match kind {
                GameKind::Morris => GameKind::Meta,
                GameKind::Meta => GameKind::Morris,
            });
            (t::other_game_title(), t::other_game_text(other), {
                let (go, to, fragment) = (go.clone(), *to, fragment.clone());
                let href = format!("{}#{fragment}", to.path());
                let onclick = Callback::from(move |e: MouseEvent| {
                    e.prevent_default();
                    navigate_with_fragment(to, &fragment, &go);
                });
                html! { <p><a class="button" {href} {onclick}>{ t::join_other_game(other) }</a></p> }
            })
        }
        #[cfg(feature = "paired")]
        RoomError::Pairing(e) => (t::bad_link_title(), e.text().to_string(), html! {}),
        RoomError::NoRandom => (
            t::no_random_title(),
            t::no_random_room().to_string(),
            html! {},
        ),
        RoomError::BadSave(key) => (t::bad_save_title(), t::bad_save().to_string(), {
            let key = key.clone();
            let onclick = Callback::from(move |_: MouseEvent| {
                seats::forget_lasting(&key);
                web::forget(old_storage_key(kind));
                if let Some(w) = web_sys::window() {
                    let _ = w.location().reload();
                }
            });
            html! { <p><button type="button" class="button" {onclick}>{ words(t::join_as_guest()) }</button></p> }
        }),
    };
    html! {
        <main class="page narrow room-error" data-room-error={e.name()}>
            <h1>{ words(title) }</h1>
            <p role="alert">{ body }</p>
            { fix }
            { lobby_link(kind, go) }
        </main>
    }
}
