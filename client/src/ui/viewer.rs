//! `/partie`: the game viewer. A file (picker or drag-and-drop), pasted text, or the record in the
//! URL fragment (`#r=…`, the « Revoir la partie » links) goes to the [`Viewer`] model, which checks
//! it with the engine; the page shows the verdict (`data-verified`), what the file says, and the
//! game to step through. Files are refused by size before they are read.

use super::boards::{MetaBoard, MorrisBoard};
use super::history::{history_panel, use_history_keys};
use super::{browser, common::Status};
use crate::model::viewer::{Event as Input, Viewer, MAX_BYTES};
use engine::meta::Cell;
use engine::morris::Point;
use engine::{AnyGame, GameKind};
use wasm_bindgen_futures::JsFuture;
use yew::prelude::*;

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
            Some(text) => Input::Open {
                text,
                name: Some(name),
            },
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
    let model = use_mut_ref(Viewer::default);
    // How long the last check took in the page, ms (`data-check-ms`, the figure of the notes).
    let took = use_mut_ref(|| None::<f64>);
    let render = use_force_update();
    let dispatch = {
        let (model, took) = (model.clone(), took.clone());
        (*use_memo((), move |_| {
            Callback::from(move |(input, _since): (Input, f64)| {
                let opening = matches!(input, Input::Open { .. } | Input::Kind(_));
                let t = browser::performance_now();
                model.borrow_mut().update(input);
                if opening {
                    *took.borrow_mut() = Some(browser::performance_now() - t);
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
                        name: "texte collé".into(),
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
                data-check-ms={took.borrow().map(|t| format!("{t:.1}"))} role="status">{ v.text }</p>
        }
    });
    let facts = m.game.as_ref().map(|g| {
        let rows = g.facts.iter().map(|(k, v)| html! { <><dt>{ k.clone() }</dt><dd>{ v.clone() }</dd></> });
        let games = g.games.iter().map(|l| html! { <li>{ l.clone() }</li> });
        html! {
            <>
                <dl class="facts">{ for rows }</dl>
                if !g.games.is_empty() { <h2>{ "Parties du salon" }</h2><ul class="room-games">{ for games }</ul> }
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
    let status = m.shown().map(|g| {
        let text = match m.history().and_then(|h| h.browsing) {
            Some(t) => t.trim_end_matches(" : lecture seule.").to_string() + ".",
            None => match g.outcome() {
                Some(o) => crate::model::text::result(o, 0),
                None => format!(
                    "Fin de la notation : {} tours, partie non terminée.",
                    g.turns()
                ),
            },
        };
        html! { <Status result={g.outcome().map(|o| o.winner)} {text} /> }
    });
    let kind_choice = m.kind;
    html! {
        <main class="page game viewer" data-turns={m.game.as_ref().map(|g| g.turns.len().to_string())}>
            <h1>{ "Visionneuse de parties" }</h1>
            <section class="panel">
                <p>{ "Ouvrez un transcript signé (.transcript, « Exporter la partie » d'une partie à distance) : il est vérifié ici même, par le même code que « engine verify ». Ou une notation (.txt) pour la rejouer." }</p>
                <div class={classes!("drop", dragging.then_some("over"))} ondrop={on_drop} ondragover={on_over} ondragleave={on_leave}>
                    <label>{ "Choisir un fichier " }<input type="file" accept=".transcript,.txt,text/plain" onchange={on_file} data-file="" /></label>
                    <p class="hint">{ format!("ou déposez-le ici (au plus {} Mo)", MAX_BYTES / 1_000_000) }</p>
                </div>
                <label>{ "Ou collez le texte :" }<textarea ref={paste} data-paste="" spellcheck="false" /></label>
                <div class="actions">
                    <button type="button" class="button" onclick={on_paste}>{ "Ouvrir le texte collé" }</button>
                    <label>{ "Jeu d'une notation sans en-tête " }
                        <select onchange={on_kind}>
                            <option value="morris" selected={kind_choice == GameKind::Morris}>{ "Jeu du moulin" }</option>
                            <option value="meta" selected={kind_choice == GameKind::Meta}>{ "Méta Morpion" }</option>
                        </select>
                    </label>
                </div>
                if let Some(name) = m.name.clone() { <p class="hint">{ format!("Fichier : {name}") }</p> }
                { verdict.unwrap_or_default() }
                { facts.unwrap_or_default() }
            </section>
            if m.game.is_some() {
                <div class="layout">
                    <section class="board-column" aria-label="Partie">
                        { status.unwrap_or_default() }
                        <div class="board-scroll">{ board }</div>
                    </section>
                    <aside class="rules">
                        if let Some(view) = m.history() { { history_panel(view, &nav, true) } }
                    </aside>
                </div>
            }
        </main>
    }
}
