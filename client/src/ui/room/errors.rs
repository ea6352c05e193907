//! What the room page says when it cannot open: a damaged link, a link for the other game, an
//! unreadable saved seat, a browser without a secure random source.

use super::super::common::game_name;
use super::super::seats;
use super::super::{navigate_with_fragment, Route};
use super::open::old_storage_key;
use super::parts::lobby_link;
use super::web;
use engine::GameKind;
use yew::prelude::*;

/// Why a room page cannot open.
#[derive(Clone, Debug, PartialEq)]
pub enum RoomError {
    Malformed,
    OtherGame(GameKind, String),
    /// The seat kept under this key of the browser's storage cannot be read.
    BadSave(String),
    NoRandom,
}

impl RoomError {
    /// The `data-room-error` hook.
    fn name(&self) -> &'static str {
        match self {
            RoomError::Malformed => "malformed",
            RoomError::OtherGame(..) => "other-game",
            RoomError::BadSave(_) => "bad-save",
            RoomError::NoRandom => "no-random",
        }
    }
}

/// The page of a room that cannot open.
pub fn room_error(e: &RoomError, kind: GameKind, go: &Callback<Route>) -> Html {
    let (title, body, fix) = match e {
        RoomError::Malformed => (
            "Lien d'invitation non valable",
            "Ce lien est incomplet ou abîmé. Demandez à votre ami de vous le renvoyer, ou tapez le code du salon.".to_string(),
            html! {},
        ),
        RoomError::OtherGame(other, fragment) => (
            "Ce lien est pour l'autre jeu",
            format!("Cette invitation est pour une partie de {}.", game_name(*other)),
            {
                let (go, other, fragment) = (go.clone(), *other, fragment.clone());
                let href = format!("{}#{fragment}", Route::Room(other).path());
                let onclick = Callback::from(move |e: MouseEvent| {
                    e.prevent_default();
                    navigate_with_fragment(Route::Room(other), &fragment, &go);
                });
                html! { <p><a class="button" {href} {onclick}>{ format!("Rejoindre la partie de {}", game_name(other)) }</a></p> }
            },
        ),
        RoomError::NoRandom => (
            "Navigateur non pris en charge",
            "Ce navigateur ne fournit pas de nombres aléatoires sûrs : impossible de créer vos clés de joueur.".to_string(),
            html! {},
        ),
        RoomError::BadSave(key) => (
            "Sauvegarde illisible",
            "La place enregistrée dans ce navigateur pour ce salon est abîmée : elle ne peut pas être reprise.".to_string(),
            {
                let key = key.clone();
                let onclick = Callback::from(move |_: MouseEvent| {
                    seats::forget_lasting(&key);
                    web::forget(old_storage_key(kind));
                    if let Some(w) = web_sys::window() {
                        let _ = w.location().reload();
                    }
                });
                html! { <p><button type="button" class="button" {onclick}>{ "Rejoindre ce salon comme nouvel invité" }</button></p> }
            },
        ),
    };
    html! {
        <main class="page narrow room-error" data-room-error={e.name()}>
            <h1>{ title }</h1>
            <p role="alert">{ body }</p>
            { fix }
            { lobby_link(kind, go) }
        </main>
    }
}
