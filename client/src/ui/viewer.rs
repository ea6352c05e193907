//! `/partie`: the game viewer. A file (picker or drag-and-drop), pasted text, or the record in the
//! URL fragment (`#r=…`, the « Revoir la partie » links) goes to the [`Viewer`] model, which checks
//! it with the engine; the page shows the verdict (`data-verified`), what the file says, and the
//! game to step through. Files are refused by size before they are read; a transcript is
//! checked in slices ([`crate::model::viewer::SLICE_MS`]), the page saying « Vérification du
//! transcript… » with its progress meanwhile, so that a long one (a full room takes seconds) never
//! freezes the tab: the model says which [`Slice`] is due, and the page runs it after yielding to
//! the browser, as it runs the computer's requests (`ui/computer.rs`).

use super::boards::{MetaBoard, MorrisBoard};
use super::history::{history_panel, use_history_keys};
use super::{browser, common::Status, use_lang, words};
use crate::i18n::t;
use crate::model::viewer::{limit_megabytes, Event as Given, Input, Slice, Viewer, MAX_BYTES};
use engine::meta::Cell;
use engine::morris::Point;
use engine::{AnyGame, GameKind};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen_futures::JsFuture;
use yew::prelude::*;

/// An event given now, on the page's clock.
fn given(event: Given) -> Input {
    Input::Event(event, browser::performance_now())
}

/// Reads a file the player gave: its size first, then its text; it was given before it was read.
fn read_file(file: web_sys::File, dispatch: Callback<Input>) {
    let name = file.name();
    let bytes = file.size() as u64;
    if bytes > MAX_BYTES {
        dispatch.emit(given(Given::TooBig { bytes, name }));
        return;
    }
    let at = browser::performance_now();
    wasm_bindgen_futures::spawn_local(async move {
        let event = match JsFuture::from(file.text())
            .await
            .ok()
            .and_then(|t| t.as_string())
        {
            Some(text) => Given::File { text, name, bytes },
            None => Given::Unreadable(name),
        };
        dispatch.emit(Input::Event(event, at));
    });
}

/// The record in the URL fragment, `#r=…`.
fn fragment_record() -> Option<String> {
    let hash = browser::location_hash();
    let encoded = hash.strip_prefix("#r=")?;
    js_sys::decode_uri_component(encoded)
        .ok()
        .and_then(|s| s.as_string())
}

/// The viewer's model in the page: an input updates it in place and renders the page again; the
/// check's next slice, if one is due, runs after the render ([`run_slice`]).
#[hook]
fn use_viewer() -> (Rc<RefCell<Viewer>>, Callback<Input>) {
    let model = use_mut_ref(Viewer::default);
    let due = use_mut_ref(|| None::<Slice>);
    let dispatch = {
        let (model, due, render) = (model.clone(), due.clone(), use_force_update());
        (*use_memo((), move |_| {
            Callback::from(move |input: Input| {
                *due.borrow_mut() = model.borrow_mut().input(input, &browser::performance_now);
                render.force_update();
            })
        }))
        .clone()
    };
    {
        let dispatch = dispatch.clone();
        use_effect(move || {
            if let Some(slice) = due.borrow_mut().take() {
                run_slice(slice, dispatch);
            }
        });
    }
    (model, dispatch)
}

/// The check's runner: lets the browser draw the progress and answer the player, then gives the
/// slice back to the model.
fn run_slice(slice: Slice, report: Callback<Input>) {
    wasm_bindgen_futures::spawn_local(async move {
        browser::sleep(0).await;
        report.emit(Input::Slice(slice));
    });
}

/// The file picker and the zone a file is dropped on, marked while one is dragged over it.
fn file_drop(dispatch: &Callback<Input>, dragging: &UseStateHandle<bool>) -> Html {
    let on_file = {
        let dispatch = dispatch.clone();
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<web_sys::HtmlInputElement>();
            if let Some(file) = input.files().and_then(|f| f.get(0)) {
                read_file(file, dispatch.clone());
            }
            input.set_value("");
        })
    };
    let on_drop = {
        let (dispatch, dragging) = (dispatch.clone(), dragging.clone());
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(false);
            if let Some(file) = e
                .data_transfer()
                .and_then(|d| d.files())
                .and_then(|f| f.get(0))
            {
                read_file(file, dispatch.clone());
            }
        })
    };
    let on_over = {
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(true);
        })
    };
    let on_leave = {
        let dragging = dragging.clone();
        Callback::from(move |_: DragEvent| dragging.set(false))
    };
    html! {
        <div class={classes!("drop", dragging.then_some("over"))} ondrop={on_drop} ondragover={on_over} ondragleave={on_leave}>
            // The browser's own file button speaks the browser's language, not the page's:
            // it is hidden (still focusable, still the control) behind the page's words.
            <label class="button secondary file-button">
                <input type="file" class="sr-only" accept=".transcript,.txt,text/plain" onchange={on_file} data-file="" />
                { words(t::choose_file()) }
            </label>
            <p class="hint">{ t::drop_here(&limit_megabytes()) }</p>
        </div>
    }
}

/// What the player gives the viewer: a file, pasted text, and the game of a record that does not
/// name it; then the file's name, the verdict (or the check's progress) and what the file says.
fn open_panel(
    m: &Viewer,
    dispatch: &Callback<Input>,
    paste: &NodeRef,
    dragging: &UseStateHandle<bool>,
) -> Html {
    let on_paste = {
        let (dispatch, paste) = (dispatch.clone(), paste.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(area) = paste.cast::<web_sys::HtmlTextAreaElement>() {
                let text = area.value();
                let event = if text.len() as u64 > MAX_BYTES {
                    Given::TooBig {
                        bytes: text.len() as u64,
                        name: t::pasted_text().into(),
                    }
                } else {
                    Given::Open { text, name: None }
                };
                dispatch.emit(given(event));
            }
        })
    };
    let on_kind = dispatch.reform(|e: Event| {
        let value = e
            .target_unchecked_into::<web_sys::HtmlSelectElement>()
            .value();
        given(Given::Kind(
            GameKind::from_name(&value).unwrap_or(GameKind::Morris),
        ))
    });
    let kind_choice = m.kind;
    html! {
        <section class="panel">
            <p>{ words(t::viewer_lead()) }</p>
            { file_drop(dispatch, dragging) }
            <label>{ words(t::paste_here()) }<textarea ref={paste.clone()} data-paste="" spellcheck="false" /></label>
            <div class="actions">
                <button type="button" class="button" onclick={on_paste}>{ words(t::open_pasted()) }</button>
                <label class="rules-choice">{ words(t::record_game()) }{ " " }
                    <select onchange={on_kind}>
                        <option value="morris" selected={kind_choice == GameKind::Morris}>{ words(t::game_morris()) }</option>
                        <option value="meta" selected={kind_choice == GameKind::Meta}>{ words(t::game_meta()) }</option>
                    </select>
                </label>
            </div>
            if let Some(name) = m.name.clone() { <p class="hint">{ t::file_name(&name) }</p> }
            { verdict(m) }
            { facts(m) }
        </section>
    }
}

/// The verdict, or while a transcript is checked how far the check is.
fn verdict(m: &Viewer) -> Html {
    if let Some(v) = &m.verdict {
        return html! {
            <p class="verdict" data-verified={v.ok.to_string()}
                data-kind={if v.transcript { "transcript" } else { "record" }}
                data-check-ms={m.took.map(|t| format!("{t:.1}"))} role="status">{ v.text.get() }</p>
        };
    }
    let Some((done, total)) = m.progress() else {
        return Html::default();
    };
    html! {
        <p class="verdict" data-checking={done.to_string()} role="status">
            { words(t::checking()) }
            <progress max={total.to_string()} value={done.to_string()} aria-label={t::checking_label()} />
        </p>
    }
}

/// What the file says of itself, and a room's games.
fn facts(m: &Viewer) -> Html {
    let Some(g) = &m.game else {
        return Html::default();
    };
    let rows = g
        .facts
        .iter()
        .map(|(k, v)| html! { <><dt>{ k.get() }</dt><dd>{ v.get() }</dd></> });
    let games = g.games.iter().map(|l| html! { <li>{ l.get() }</li> });
    html! {
        <>
            <dl class="facts">{ for rows }</dl>
            if !g.games.is_empty() { <h2>{ words(t::room_games()) }</h2><ul class="room-games">{ for games }</ul> }
        </>
    }
}

/// The position shown, on a board that takes no move.
fn board(shown: &AnyGame) -> Html {
    match shown {
        AnyGame::Morris(g) => html! {
            <MorrisBoard game={g.clone()} selected={None} focus={Point::new(0).expect("point 0")}
                on_activate={Callback::from(|_: Point| ())} on_key={Callback::noop()} frozen=true node={NodeRef::default()} />
        },
        AnyGame::Meta(g) => html! {
            <MetaBoard game={*g} focus={Cell::at(4, 4).expect("centre")} on_activate={Callback::from(|_: Cell| ())}
                on_key={Callback::noop()} frozen=true node={NodeRef::default()} />
        },
    }
}

/// The game opened: the position shown with its status, and the history.
fn game_layout(m: &Viewer, nav: &Callback<crate::model::history::Nav>) -> Html {
    let Some(shown) = m.shown() else {
        return Html::default();
    };
    // Built once a render: each turn's notation for the list, and the position's words.
    let history = m.history();
    let text = match history.as_ref().and_then(|h| h.browsing.clone()) {
        Some(position) => t::position_shown(&position),
        None => match shown.outcome() {
            Some(o) => crate::model::text::result(o, 0),
            None => t::record_end(&shown.turns().to_string()),
        },
    };
    html! {
        <div class="layout">
            <section class="board-column" aria-label={t::game_section()}>
                <Status result={shown.outcome().map(|o| o.winner)} {text} />
                <div class="board-scroll">{ board(shown) }</div>
            </section>
            <aside class="rules">
                if let Some(view) = history { { history_panel(view, nav) } }
            </aside>
        </div>
    }
}

#[component]
pub fn ViewerPage() -> Html {
    use_lang();
    let (model, dispatch) = use_viewer();
    let nav = dispatch.reform(|n| given(Given::History(n)));
    use_history_keys(nav.clone());
    {
        let dispatch = dispatch.clone();
        use_effect_with((), move |_| {
            if let Some(text) = fragment_record() {
                dispatch.emit(given(Given::Open { text, name: None }));
            }
        });
    }
    let paste = use_node_ref();
    let dragging = use_state(|| false);
    let m = model.borrow();
    html! {
        <main class="page game viewer" data-turns={m.game.as_ref().map(|g| g.turns.len().to_string())}>
            <h1>{ words(t::viewer_title()) }</h1>
            { open_panel(&m, &dispatch, &paste, &dragging) }
            { game_layout(&m, &nav) }
        </main>
    }
}
