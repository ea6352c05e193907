//! The history panel of every game page (hot-seat, computer, room, viewer): each turn numbered,
//! the one the board shows marked, the buttons to step through, « Retour à la partie »; and the
//! keys ←, →, Home, End anywhere outside the board, a field or a dialog.

use super::words;
use crate::i18n::t;
use crate::model::history::{HistoryView, Nav};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The turns in notation, two a row (Blue's, Red's), each numbered and a button with `data-ply`. A function
/// rather than a component, with one click handler for the whole list.
#[inline(never)]
pub fn history_panel(v: HistoryView, on_nav: &Callback<Nav>) -> Html {
    // A click anywhere on a turn: its `data-ply`.
    let on_list = {
        let on_nav = on_nav.clone();
        Callback::from(move |e: MouseEvent| {
            let ply = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .and_then(|t| t.closest("[data-ply]").ok().flatten())
                .and_then(|t| t.get_attribute("data-ply"))
                .and_then(|p| p.parse().ok());
            if let Some(ply) = ply {
                on_nav.emit(Nav::To(ply));
            }
        })
    };
    let current = v.current;
    // Keyed, every child of the list and of its rows (a list where one is not counts as
    // unkeyed): Yew matches an unkeyed list's children from its end, so a turn added at the end
    // would rewrite every row before it (a long game's move reached the screen milliseconds
    // later); keyed, a new turn adds one button.
    // Each turn numbered as the banner, the status and the turn counter number it: « 3. d7 »
    // is turn 3, Blue's, the position « après le tour 3 ».
    let rows = v.rows.into_iter().map(|(n, items)| {
        let items = items.into_iter().flat_map(|it| {
            [
                html! { <span key={format!("n{}", it.ply)} class="num">{ it.ply }{ "." }</span> },
                html! {
                    <button type="button" key={it.ply} class={if it.player.index() == 0 { "turn blue" } else { "turn red" }}
                        data-ply={it.ply.to_string()} aria-current={(it.ply == current).then_some("step")}>{ it.text }</button>
                },
            ]
        });
        html! { <li key={n}>{ for items }</li> }
    });
    html! {
        <section class="panel history" aria-labelledby="history-title">
            <h2 id="history-title">{ words(t::history()) }</h2>
            if let Some(rules) = v.rules {
                <p class="hint history-rules" data-history-rules="">{ t::rules_in_force(&rules) }</p>
            }
            // The list scrolls from its end: the last turns, live play's, stay in view.
            <div class="turns-scroll">
                <ol class="turns" data-ply-shown={current.to_string()} onclick={on_list}>
                    <li key="start"><button type="button" class="turn start" data-ply="0"
                        aria-current={(current == 0).then_some("step")}>{ words(t::history_start()) }</button></li>
                    { for rows }
                </ol>
            </div>
            if let Some(p) = v.pending {
                <p class="pending" data-pending="">{ words(t::history_pending()) }{ " " }{ p }</p>
            }
            <p class="hint">{ words(t::history_help()) }</p>
        </section>
    }
}

/// Above the board while a past position is shown: what it is, and the way back.
#[inline(never)]
pub fn browsing_banner(v: &HistoryView, on_nav: &Callback<Nav>) -> Html {
    let Some(position) = &v.browsing else {
        return Html::default();
    };
    html! {
        <div class="browse-banner" data-browsing={v.current.to_string()} role="status">
            <span>{ t::browsing_read_only(position) }</span>
            <button type="button" class="button" onclick={on_nav.reform(|_: MouseEvent| Nav::Live)}>
                { words(t::back_to_game()) }</button>
        </div>
    }
}

/// ←, →, Home and End anywhere on the page but the board (whose arrows move its focus), a
/// field or an open dialog go through the history.
#[hook]
pub fn use_history_keys(on_nav: Callback<Nav>) {
    use_effect_with((), move |_| listen_keys(on_nav));
}

/// What a key on the page asks of the history, if anything.
fn key_nav(e: &KeyboardEvent) -> Option<Nav> {
    if e.alt_key() || e.ctrl_key() || e.meta_key() || e.shift_key() {
        return None;
    }
    let nav = match e.key().as_str() {
        "ArrowLeft" => Nav::Back,
        "ArrowRight" => Nav::Forward,
        "Home" => Nav::Start,
        "End" => Nav::Live,
        _ => return None,
    };
    let target = e.target()?.dyn_into::<web_sys::Element>().ok()?;
    let elsewhere = target
        .closest("svg.board, input, textarea, select, .backdrop")
        .ok()
        .flatten();
    elsewhere.is_none().then_some(nav)
}

/// Listens to the document's keys until the returned function is called.
#[inline(never)]
pub fn listen_keys(on_nav: Callback<Nav>) -> impl FnOnce() {
    let listener = Closure::<dyn Fn(KeyboardEvent)>::new(move |e: KeyboardEvent| {
        if let Some(nav) = key_nav(&e) {
            e.prevent_default();
            on_nav.emit(nav);
        }
    });
    let document = web_sys::window().and_then(|w| w.document());
    if let Some(d) = &document {
        let _ = d.add_event_listener_with_callback("keydown", listener.as_ref().unchecked_ref());
    }
    move || {
        if let Some(d) = document {
            let _ =
                d.remove_event_listener_with_callback("keydown", listener.as_ref().unchecked_ref());
        }
    }
}
