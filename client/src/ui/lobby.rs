//! `/moulin/distance`, `/meta-morpion/distance`: create a room (the host picks the Morris
//! limit) or join one with a short code.

use super::common::{game_name, LimitField, Link as PageLink};
use super::{browser, navigate_with_fragment, Route};
use crate::model::parse_limit;
use engine::morris::DEFAULT_MAX_TURNS;
use engine::session::{Config, Invite, Session};
use engine::GameKind;
use yew::prelude::*;

/// Creates the host's room: keys, code, session kept in this browser under the room's key.
/// Returns the fragment of the room page.
fn create_room(kind: GameKind, max_turns: u16) -> Result<String, &'static str> {
    const NO_RANDOM: &str = "Ce navigateur ne fournit pas de nombres aléatoires sûrs.";
    let seed: [u8; 32] = browser::random().ok_or(NO_RANDOM)?;
    let code = Invite::new_code(browser::random().ok_or(NO_RANDOM)?);
    let invite = Invite::with_code(kind, max_turns, &code, seed)
        .map_err(|_| "Impossible de créer le salon.")?;
    let session = Session::host(invite.clone(), seed, Config::default(), browser::now_ms())
        .map_err(|_| "Impossible de créer le salon.")?;
    super::seats::keep_seat(kind, &invite.room_name(), &session.save_text());
    Ok(invite.to_fragment())
}

#[derive(Properties, PartialEq)]
pub struct LobbyProps {
    pub kind: GameKind,
    pub go: Callback<Route>,
}

/// `/moulin/distance`: create a room (the host picks the Morris limit) or join with a code.
#[component]
pub fn Lobby(props: &LobbyProps) -> Html {
    let kind = props.kind;
    let hot_seat = match kind {
        GameKind::Morris => Route::Morris,
        GameKind::Meta => Route::Meta,
    };
    html! {
        <main class="page narrow lobby">
            <h1>{ game_name(kind) }<span class="mode">{ " · à distance" }</span></h1>
            <p class="lead">{ "Jouez avec un ami sur son propre appareil : vos deux navigateurs se parlent directement, sans compte ni serveur de jeu." }</p>
            <CreateRoom {kind} go={props.go.clone()} />
            <JoinRoom {kind} go={props.go.clone()} />
            <p><PageLink to={hot_seat} go={props.go.clone()}>{ "Jouer plutôt à deux sur cet appareil" }</PageLink></p>
        </main>
    }
}

/// « Créer un salon »: the Morris limit, then the room.
#[component]
fn CreateRoom(props: &LobbyProps) -> Html {
    let kind = props.kind;
    let limit = use_state(|| DEFAULT_MAX_TURNS.to_string());
    let error = use_state(|| None::<String>);
    let on_create = {
        let (limit, error, go) = (limit.clone(), error.clone(), props.go.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let max_turns = match kind {
                GameKind::Morris => match parse_limit(&limit) {
                    Ok(n) => n,
                    Err(e) => return error.set(Some(e)),
                },
                GameKind::Meta => DEFAULT_MAX_TURNS,
            };
            match create_room(kind, max_turns) {
                Ok(fragment) => navigate_with_fragment(Route::Room(kind), &fragment, &go),
                Err(e) => error.set(Some(e.to_string())),
            }
        })
    };
    let on_limit = {
        let (limit, error) = (limit.clone(), error.clone());
        Callback::from(move |text: String| {
            limit.set(text);
            error.set(None);
        })
    };
    html! {
        <form class="panel" onsubmit={on_create} novalidate=true>
            <h2>{ "Créer un salon" }</h2>
            <p>{ "Vous recevrez un lien et un code à envoyer à votre adversaire. Vous jouerez Bleu et commencerez la première partie." }</p>
            if kind == GameKind::Morris {
                <LimitField value={(*limit).clone()} invalid={error.is_some()} on_input={on_limit} />
            }
            if let Some(e) = &*error {
                <p class="notice" role="alert">{ e.clone() }</p>
            }
            <div class="actions">
                <button type="submit" class="button">{ "Créer le salon" }</button>
            </div>
        </form>
    }
}

/// « Rejoindre avec un code »: the code a friend read out, typed loosely.
#[component]
fn JoinRoom(props: &LobbyProps) -> Html {
    let kind = props.kind;
    let code = use_state(String::new);
    let error = use_state(|| None::<String>);
    let on_join = {
        let (code, error, go) = (code.clone(), error.clone(), props.go.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            match Invite::normalize_code(&code) {
                Ok(c) => navigate_with_fragment(
                    Route::Room(kind),
                    &format!("g={}&c={c}", kind.as_str()),
                    &go,
                ),
                Err(_) => error.set(Some(
                    "Ce code n'est pas valable : il compte 12 lettres ou chiffres, comme K7M2-Q9XD-4HPA."
                        .to_string(),
                )),
            }
        })
    };
    let on_code = {
        let (code, error) = (code.clone(), error.clone());
        Callback::from(move |e: InputEvent| {
            code.set(
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .value(),
            );
            error.set(None);
        })
    };
    html! {
        <form class="panel" onsubmit={on_join} novalidate=true>
            <h2>{ "Rejoindre avec un code" }</h2>
            <label class="code-field">
                { "Code du salon " }
                <input type="text" autocomplete="off" autocapitalize="characters" spellcheck="false"
                    placeholder="K7M2-Q9XD-4HPA" value={(*code).clone()} oninput={on_code}
                    aria-invalid={error.is_some().to_string()} />
            </label>
            if let Some(e) = &*error {
                <p class="notice" role="alert">{ e.clone() }</p>
            }
            <div class="actions">
                <button type="submit" class="button">{ "Rejoindre" }</button>
            </div>
            <p class="hint">{ "Vous avez reçu un lien ? Ouvrez-le simplement : il mène directement au salon." }</p>
        </form>
    }
}
