//! `/moulin/distance`, `/meta-morpion/distance`: create a room (the host picks the Morris
//! limit) or join one with a short code.

use super::common::{
    game_name, ColoursField, LimitField, Link as PageLink, NoWebRtcNotice, RulesField,
};
use super::words;
use super::{browser, navigate_with_fragment, use_lang, Route};
use crate::i18n::{t, Text};
use crate::model::parse_limit;
use crate::model::rules::{RulesForm, RulesInput};
use crate::model::seat::{host_room, Invite, OpenError};
use engine::morris::{Rules, DEFAULT_MAX_TURNS};
use engine::GameKind;
use yew::prelude::*;

/// Creates the host's room ([`host_room`]) and keeps its seat in this browser under the room's
/// key. Returns the fragment of the room page, which announces its options.
fn create_room(kind: GameKind, max_turns: u16, rules: Rules, lot: bool) -> Result<String, Text> {
    let random = browser::random().zip(browser::random());
    let hosted = host_room(kind, max_turns, rules, lot, random, browser::now_ms());
    let hosted = hosted.map_err(|e| match e {
        OpenError::NoRandom => Text::of(t::no_random),
        _ => Text::of(t::cannot_create),
    })?;
    // Without its seat kept, the room page would make the host a guest of its own room.
    if !super::seats::keep_seat(kind, &hosted.room, &hosted.save) {
        return Err(Text::of(t::seat_not_kept));
    }
    Ok(hosted.fragment)
}

/// Where a code leads: a code names one room per game, so nobody in this game's room but
/// someone in the other's means it was typed in the wrong lobby. `Err` when nobody is there.
async fn find_room(kind: GameKind, code: &str) -> Result<GameKind, Text> {
    let room = |game: GameKind| Invite::from_code(game, code).map(|i| i.room_name());
    let other = match kind {
        GameKind::Morris => GameKind::Meta,
        GameKind::Meta => GameKind::Morris,
    };
    let here = match room(kind) {
        Ok(r) => browser::room_peers(&r).await,
        Err(_) => None,
    };
    let there = match (here, room(other)) {
        (Some(0), Ok(r)) => browser::room_peers(&r).await,
        _ => None,
    };
    match (here, there) {
        (Some(0), Some(n)) if n > 0 => Ok(other),
        (Some(0), _) => Err(Text::of(t::nobody_in_room)),
        // Someone is there, or the relay did not say: the room page tells.
        _ => Ok(kind),
    }
}

#[derive(Properties, PartialEq)]
pub struct LobbyProps {
    pub kind: GameKind,
    pub go: Callback<Route>,
}

/// `/moulin/distance`: create a room (the host picks the Morris limit) or join with a code.
#[component]
pub fn Lobby(props: &LobbyProps) -> Html {
    use_lang();
    let kind = props.kind;
    let hot_seat = match kind {
        GameKind::Morris => Route::Morris,
        GameKind::Meta => Route::Meta,
    };
    html! {
        <main class="page narrow lobby">
            <h1>{ game_name(kind) }<span class="mode">{ " " }{ words(t::mode_remote()) }</span></h1>
            <p class="lead">{ words(t::lobby_lead()) }</p>
            // Without WebRTC no room can ever open a channel: say so before anything is clicked
            // rather than create one that would blame the network.
            if browser::webrtc_available() {
                <CreateRoom {kind} go={props.go.clone()} />
                <JoinRoom {kind} go={props.go.clone()} />
                <OpenOffer {kind} go={props.go.clone()} />
            } else {
                <NoWebRtcNotice {kind} text={t::no_webrtc_lobby()} go={props.go.clone()} />
            }
            <p><PageLink to={hot_seat} go={props.go.clone()}>{ words(t::lobby_hot_seat()) }</PageLink></p>
        </main>
    }
}

/// « Créer un salon »: the Morris limit, then the room.
#[component]
fn CreateRoom(props: &LobbyProps) -> Html {
    use_lang();
    let kind = props.kind;
    let limit = use_state(|| DEFAULT_MAX_TURNS.to_string());
    let rules = use_state(|| RulesForm::new(Rules::NINE));
    let lot = use_state(|| false);
    let error = use_state(|| None::<Text>);
    // « Sans serveur » is the form's second submit button: the same room, paired by hand.
    let serverless = use_mut_ref(|| false);
    let on_create = {
        let (limit, error, go) = (limit.clone(), error.clone(), props.go.clone());
        let (rules, lot, serverless) = (rules.clone(), lot.clone(), serverless.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let paired = std::mem::take(&mut *serverless.borrow_mut());
            let max_turns = match kind {
                GameKind::Morris => match parse_limit(&limit) {
                    Ok(n) => n,
                    Err(e) => return error.set(Some(e)),
                },
                GameKind::Meta => DEFAULT_MAX_TURNS,
            };
            if rules.error.is_some() {
                return;
            }
            let chosen = match kind {
                GameKind::Morris => rules.rules,
                GameKind::Meta => Rules::NINE,
            };
            // A room paired by hand has its own page, in its own bundle (docs/architecture.md,
            // « Pairing without a relay »).
            let page = if paired {
                Route::Paired(kind)
            } else {
                Route::Room(kind)
            };
            match create_room(kind, max_turns, chosen, *lot) {
                Ok(fragment) => navigate_with_fragment(page, &fragment, &go),
                Err(e) => error.set(Some(e)),
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
    let on_rules = {
        let rules = rules.clone();
        Callback::from(move |input: RulesInput| {
            let mut form = (*rules).clone();
            form.apply(input);
            rules.set(form);
        })
    };
    let on_lot = {
        let lot = lot.clone();
        Callback::from(move |chosen: bool| lot.set(chosen))
    };
    html! {
        <form class="panel" onsubmit={on_create} novalidate=true>
            <h2>{ words(t::create_room()) }</h2>
            <p>{ words(t::create_room_text()) }</p>
            if kind == GameKind::Morris {
                <RulesField form={(*rules).clone()} on_input={on_rules} />
                <LimitField value={(*limit).clone()} invalid={error.is_some()} on_input={on_limit} />
            }
            <ColoursField lot={*lot} on_change={on_lot} />
            if let Some(e) = &*error {
                <p class="notice" role="alert">{ e.get() }</p>
            }
            { create_buttons(serverless) }
        </form>
    }
}

/// The create form's two submit buttons: through the relay, or « Sans serveur » (which sets
/// `serverless` for the submit that follows).
fn create_buttons(serverless: std::rc::Rc<std::cell::RefCell<bool>>) -> Html {
    html! {
        <>
            <div class="actions">
                <button type="submit" class="button">{ words(t::create_room_button()) }</button>
                <button type="submit" class="button secondary" data-serverless=""
                    onclick={move |_: MouseEvent| *serverless.borrow_mut() = true}>
                    { words(t::lobby_serverless()) }</button>
            </div>
            <p class="hint">{ words(t::lobby_serverless_hint()) }</p>
        </>
    }
}

/// « Sans serveur » for the guest: the host's offer pasted, opened in its room page (an offer
/// opened as a link goes there directly).
#[component]
fn OpenOffer(props: &LobbyProps) -> Html {
    use_lang();
    let kind = props.kind;
    // Read when the form is sent (the box is the page's, not state drawn again each key).
    let pasted = use_node_ref();
    let error = use_state(|| false);
    let on_open = {
        let (pasted, error, go) = (pasted.clone(), error.clone(), props.go.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let pasted = pasted
                .cast::<web_sys::HtmlTextAreaElement>()
                .map(|area| area.value())
                .unwrap_or_default();
            // The room page reads the offer and says what is wrong with it.
            let offer = crate::model::seat::pairing_text_in(&pasted);
            if offer.is_empty() {
                return error.set(true);
            }
            navigate_with_fragment(Route::Paired(kind), &format!("p={offer}"), &go);
        })
    };
    let on_input = {
        let error = error.clone();
        Callback::from(move |_: InputEvent| error.set(false))
    };
    html! {
        <form class="panel" onsubmit={on_open} novalidate=true>
            <h2>{ words(t::lobby_offer_title()) }</h2>
            <label class="code-field">
                { words(t::lobby_offer_label()) }
                <textarea ref={pasted} rows="3" spellcheck="false" autocomplete="off"
                    oninput={on_input} data-offer-input="" aria-invalid={error.to_string()} />
            </label>
            if *error {
                <p class="notice" role="alert">{ words(t::lobby_offer_empty()) }</p>
            }
            <div class="actions">
                <button type="submit" class="button secondary">{ words(t::lobby_open_offer()) }</button>
            </div>
        </form>
    }
}

/// « Rejoindre avec un code »: the code a friend read out, typed loosely.
#[component]
fn JoinRoom(props: &LobbyProps) -> Html {
    use_lang();
    let kind = props.kind;
    let code = use_state(String::new);
    let error = use_state(|| None::<Text>);
    let searching = use_state(|| false);
    let on_join = {
        let (code, error, go) = (code.clone(), error.clone(), props.go.clone());
        let searching = searching.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let Ok(c) = Invite::normalize_code(&code) else {
                return error.set(Some(Text::of(t::bad_code)));
            };
            if *searching {
                return;
            }
            searching.set(true);
            let (error, go, searching) = (error.clone(), go.clone(), searching.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let found = find_room(kind, &c).await;
                searching.set(false);
                match found {
                    Ok(game) => navigate_with_fragment(
                        Route::Room(game),
                        &format!("g={}&c={c}", game.as_str()),
                        &go,
                    ),
                    Err(e) => error.set(Some(e)),
                }
            });
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
            <h2>{ words(t::join_room()) }</h2>
            <label class="code-field">
                { words(t::room_code()) }{ " " }
                <input type="text" autocomplete="off" autocapitalize="characters" spellcheck="false"
                    placeholder="K7M2-Q9XD-4HPA" value={(*code).clone()} oninput={on_code}
                    aria-invalid={error.is_some().to_string()} />
            </label>
            if let Some(e) = &*error {
                <p class="notice" role="alert">{ e.get() }</p>
            }
            <div class="actions">
                <button type="submit" class="button" disabled={*searching}>{ words(t::join()) }</button>
            </div>
            <p class="hint">{ words(t::join_hint()) }</p>
        </form>
    }
}
