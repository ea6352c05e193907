//! `/partie`: the game viewer. A file (picker or drag-and-drop), pasted text, or the record in the
//! URL fragment (`#r=…`, the « Revoir la partie » links) goes to the [`Viewer`] model, which checks
//! it with the engine; the page shows the verdict (`data-verified`), what the file says, and the
//! game to step through. Files are refused by size before they are read; a transcript is
//! checked in slices of [`SLICE_MS`], the page saying « Vérification du transcript… » with its
//! progress meanwhile, so that a long one (a full room takes seconds) never freezes the tab.

use super::boards::{MetaBoard, MorrisBoard};
use super::history::{history_panel, use_history_keys};
use super::{browser, common::Status, use_lang, words};
use crate::i18n::t;
use crate::model::viewer::{limit_megabytes, Event as Input, Viewer, MAX_BYTES};
use engine::meta::Cell;
use engine::morris::Point;
use engine::{AnyGame, GameKind};
use wasm_bindgen_futures::JsFuture;
use yew::prelude::*;

/// How long one slice of a transcript's check may hold the page, ms: between two, the browser
/// draws the progress and answers the player.
const SLICE_MS: f64 = 25.0;

/// Reads a file the player gave: its size first, then its text.
fn read_file(file: web_sys::File, dispatch: Callback<(Input, f64)>) {
    let name = file.name();
    let bytes = file.size() as u64;
    if bytes > MAX_BYTES {
        dispatch.emit((Input::TooBig { bytes, name }, browser::performance_now()));
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        let input = match JsFuture::from(file.text())
            .await
            .ok()
            .and_then(|t| t.as_string())
        {
            Some(text) => Input::File { text, name, bytes },
            None => Input::Unreadable(name),
        };
        dispatch.emit((input, browser::performance_now()));
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

#[component]
pub fn ViewerPage() -> Html {
    use_lang();
    let model = use_mut_ref(Viewer::default);
    // How long the last check took in the page, ms (`data-check-ms`, the figure of the notes).
    let took = use_mut_ref(|| None::<f64>);
    // When the check under way began, and which slicing loop drives it (an older one stops).
    let started = use_mut_ref(|| 0.0);
    let serial = use_mut_ref(|| 0u32);
    let render = use_force_update();
    let dispatch = {
        let (model, took) = (model.clone(), took.clone());
        (*use_memo((), move |_| {
            Callback::from(move |(input, _since): (Input, f64)| {
                let opening = matches!(input, Input::Open { .. } | Input::Kind(_));
                let t = browser::performance_now();
                if matches!(input, Input::Open { .. }) {
                    *started.borrow_mut() = t;
                }
                model.borrow_mut().update(input);
                if opening {
                    *took.borrow_mut() = Some(browser::performance_now() - t);
                }
                *serial.borrow_mut() += 1;
                if model.borrow().progress().is_some() {
                    let (model, took, render) = (model.clone(), took.clone(), render.clone());
                    let (started, serial) = (started.clone(), serial.clone());
                    let mine = *serial.borrow();
                    wasm_bindgen_futures::spawn_local(async move {
                        while *serial.borrow() == mine {
                            // Let the page show where the check is, and answer the player.
                            browser::sleep(0).await;
                            if *serial.borrow() != mine {
                                break;
                            }
                            let end = browser::performance_now() + SLICE_MS;
                            let more = model
                                .borrow_mut()
                                .check(&mut || browser::performance_now() >= end);
                            if !more {
                                let t = *started.borrow();
                                *took.borrow_mut() = Some(browser::performance_now() - t);
                                *serial.borrow_mut() += 1;
                            }
                            render.force_update();
                        }
                    });
                }
                render.force_update();
            })
        }))
        .clone()
    };
    let nav = dispatch.reform(|n| (Input::History(n), 0.0));
    use_history_keys(nav.clone());
    {
        let dispatch = dispatch.clone();
        use_effect_with((), move |_| {
            if let Some(text) = fragment_record() {
                dispatch.emit((Input::Open { text, name: None }, 0.0));
            }
        });
    }
    let dragging = use_state(|| false);
    let paste = use_node_ref();
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
    let on_paste = {
        let (dispatch, paste) = (dispatch.clone(), paste.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(area) = paste.cast::<web_sys::HtmlTextAreaElement>() {
                let text = area.value();
                let input = if text.len() as u64 > MAX_BYTES {
                    Input::TooBig {
                        bytes: text.len() as u64,
                        name: t::pasted_text().into(),
                    }
                } else {
                    Input::Open { text, name: None }
                };
                dispatch.emit((input, 0.0));
            }
        })
    };
    let on_kind = dispatch.reform(|e: Event| {
        let value = e
            .target_unchecked_into::<web_sys::HtmlSelectElement>()
            .value();
        let kind = GameKind::from_name(&value).unwrap_or(GameKind::Morris);
        (Input::Kind(kind), 0.0)
    });
    let m = model.borrow();
    let verdict = m.verdict.clone().map(|v| {
        html! {
            <p class="verdict" data-verified={v.ok.to_string()}
                data-kind={if v.transcript { "transcript" } else { "record" }}
                data-check-ms={took.borrow().map(|t| format!("{t:.1}"))} role="status">{ v.text.get() }</p>
        }
    });
    let checking = m.progress().map(|(done, total)| {
        html! {
            <p class="verdict" data-checking={done.to_string()} role="status">
                { words(t::checking()) }
                <progress max={total.to_string()} value={done.to_string()} aria-label={t::checking_label()} />
            </p>
        }
    });
    let facts = m.game.as_ref().map(|g| {
        let rows = g.facts.iter().map(|(k, v)| html! { <><dt>{ k.get() }</dt><dd>{ v.get() }</dd></> });
        let games = g.games.iter().map(|l| html! { <li>{ l.get() }</li> });
        html! {
            <>
                <dl class="facts">{ for rows }</dl>
                if !g.games.is_empty() { <h2>{ words(t::room_games()) }</h2><ul class="room-games">{ for games }</ul> }
            </>
        }
    });
    let noop_point = Callback::from(|_: Point| ());
    let noop_cell = Callback::from(|_: Cell| ());
    let board = match m.shown() {
        Some(AnyGame::Morris(g)) => html! {
            <MorrisBoard game={g.clone()} selected={None} focus={Point::new(0).expect("point 0")}
                on_activate={noop_point} on_key={Callback::noop()} frozen=true node={NodeRef::default()} />
        },
        Some(AnyGame::Meta(g)) => html! {
            <MetaBoard game={*g} focus={Cell::at(4, 4).expect("centre")} on_activate={noop_cell}
                on_key={Callback::noop()} frozen=true node={NodeRef::default()} />
        },
        None => html! {},
    };
    // Built once a render: each turn's notation for the list, and the position's words.
    let history = m.history();
    let status = m.shown().map(|g| {
        let text = match history.as_ref().and_then(|h| h.browsing.clone()) {
            Some(position) => t::position_shown(&position),
            None => match g.outcome() {
                Some(o) => crate::model::text::result(o, 0),
                None => t::record_end(&g.turns().to_string()),
            },
        };
        html! { <Status result={g.outcome().map(|o| o.winner)} {text} /> }
    });
    let kind_choice = m.kind;
    html! {
        <main class="page game viewer" data-turns={m.game.as_ref().map(|g| g.turns.len().to_string())}>
            <h1>{ words(t::viewer_title()) }</h1>
            <section class="panel">
                <p>{ words(t::viewer_lead()) }</p>
                <div class={classes!("drop", dragging.then_some("over"))} ondrop={on_drop} ondragover={on_over} ondragleave={on_leave}>
                    // The browser's own file button speaks the browser's language, not the page's:
                    // it is hidden (still focusable, still the control) behind the page's words.
                    <label class="button secondary file-button">
                        <input type="file" class="sr-only" accept=".transcript,.txt,text/plain" onchange={on_file} data-file="" />
                        { words(t::choose_file()) }
                    </label>
                    <p class="hint">{ t::drop_here(&limit_megabytes()) }</p>
                </div>
                <label>{ words(t::paste_here()) }<textarea ref={paste} data-paste="" spellcheck="false" /></label>
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
                { verdict.or(checking).unwrap_or_default() }
                { facts.unwrap_or_default() }
            </section>
            if m.game.is_some() {
                <div class="layout">
                    <section class="board-column" aria-label={t::game_section()}>
                        { status.unwrap_or_default() }
                        <div class="board-scroll">{ board }</div>
                    </section>
                    <aside class="rules">
                        if let Some(view) = history { { history_panel(view, &nav) } }
                    </aside>
                </div>
            }
        </main>
    }
}
