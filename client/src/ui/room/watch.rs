//! `/moulin/regarder#w=…`, `/meta-morpion/regarder#w=…`: a spectator of a remote room (issue
//! #24). The page reads the watch link, starts the same event loop as a room
//! (`client_net::Runtime`, its environment a [`Tab`] that says `?watch` to the relay) around
//! the spectator's model ([`WatchModel`]), and draws its [`WatchView`]: read-only — no seat, no
//! button that acts, nothing kept. Reloading rejoins as a spectator: the link is the URL.

use super::super::boards::{MetaBoard, MorrisBoard};
use super::super::common::{
    heading_name, rules_in_words, viewer_link, Announcer, GameLink, PlayerCard, Status,
};
use super::super::history::{browsing_banner, history_panel, listen_keys};
use super::super::{browser, use_lang, words, Route};
use super::env::{Render, Tab};
use super::parts::{lobby_link, ExportPanel};
use crate::i18n::t;
use crate::model::room::view::BoardView;
use crate::model::room::watch::{WatchEvent, WatchInput, WatchModel, WatchView};
use client_net::{PeerId, Runtime};
use engine::session::follow::WatchLink;
use engine::GameKind;
use futures_channel::mpsc::{unbounded, UnboundedSender};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct WatchProps {
    pub kind: GameKind,
    pub go: Callback<Route>,
}

/// A spectator's loop, running: the model, the way in for the page's events, its render.
struct Watched {
    model: Rc<RefCell<WatchModel<PeerId>>>,
    inbox: UnboundedSender<WatchInput<PeerId>>,
    render: Render,
    /// When the first feeder's channel opened (`performance.now()`), for the suite's figures.
    first_peer: Rc<Cell<Option<u64>>>,
}

impl Watched {
    /// Starts watching the room the link names.
    fn start(link: WatchLink) -> Watched {
        let now = browser::now_ms();
        // The challenges need bytes a feeder cannot guess; without a random source, the clock.
        let nonce = browser::random::<16>().unwrap_or_else(|| u128::from(now).to_le_bytes());
        let model = Rc::new(RefCell::new(WatchModel::new(link, nonce)));
        let (inbox, receiver) = unbounded();
        let render = Render::default();
        let first_peer = Rc::new(Cell::new(None));
        let tab = Tab {
            kind: link.kind,
            render: render.clone(),
            first_peer: first_peer.clone(),
            watch: true,
            #[cfg(feature = "paired")]
            pairing: None,
        };
        let runtime = Runtime::new(tab, model.clone());
        wasm_bindgen_futures::spawn_local(runtime.run(receiver));
        Watched {
            model,
            inbox,
            render,
            first_peer,
        }
    }
}

/// `/moulin/regarder#w=…`: what the link lets its holder see, and nothing it could do.
#[component]
pub fn WatchPage(props: &WatchProps) -> Html {
    use_lang();
    let watched = use_memo((), |_| {
        WatchLink::from_fragment(&browser::location_hash())
            .ok()
            .map(Watched::start)
    });
    let update = use_force_update();
    {
        let (watched, update) = (watched.clone(), update.clone());
        use_effect_with((), move |_| {
            let stop = watched.as_ref().as_ref().map(|w| {
                w.render.set(move || update.force_update());
                let inbox = w.inbox.clone();
                listen_keys(Callback::from(move |nav| {
                    let _ = inbox.unbounded_send(WatchInput::Ui(WatchEvent::History(nav)));
                }))
            });
            // Leaving the page ends the loop, which closes the socket.
            let inbox = watched.as_ref().as_ref().map(|w| w.inbox.clone());
            move || {
                if let Some(stop) = stop {
                    stop();
                }
                if let Some(inbox) = inbox {
                    inbox.close_channel();
                }
            }
        });
    }
    let Some(w) = watched.as_ref() else {
        return bad_link(props.kind, &props.go);
    };
    let act = {
        let inbox = w.inbox.clone();
        Callback::from(move |e: WatchEvent| {
            let _ = inbox.unbounded_send(WatchInput::Ui(e));
        })
    };
    let view = w.model.borrow().view();
    let speech = w.model.borrow().speech().clone();
    // The tab's title: the game's name as the heading says it, in the page's language.
    let title = Route::Watch(view.kind).title_named(heading_name(view.kind, view.rules));
    use_effect_with(title, |title| {
        browser::set_title_soon(title.clone());
    });
    watch_view(view, &act, speech, w.first_peer.get(), &props.go)
}

/// A fragment that is no watch link.
fn bad_link(kind: GameKind, go: &Callback<Route>) -> Html {
    html! {
        <main class="page narrow" data-watch-error="">
            <h1>{ words(t::watch_bad_link_title()) }</h1>
            <p role="alert">{ words(t::watch_bad_link()) }</p>
            { lobby_link(kind, go) }
        </main>
    }
}

fn watch_view(
    v: WatchView,
    act: &Callback<WatchEvent>,
    speech: crate::model::speech::Speech,
    first_peer: Option<u64>,
    go: &Callback<Route>,
) -> Html {
    let nav = act.reform(WatchEvent::History);
    // Kept out, or nobody plays: only that, and the way out.
    if v.nothing && (v.refused.is_some() || v.empty) {
        let (hook, text) = match v.refused {
            Some(text) => ("refused", text),
            None => ("empty", t::watch_empty()),
        };
        return html! {
            <main class={classes!("page", "narrow", "watch", v.kind.as_str())} data-watch="">
                <h1>{ heading_name(v.kind, v.rules) }<span class="mode">{ " " }{ words(t::mode_watching()) }</span></h1>
                <section class="panel" role="alert" data-watch-refused={(hook == "refused").then_some("")}
                    data-watch-empty={(hook == "empty").then_some("")}>
                    <p>{ words(text) }</p>
                    { lobby_link(v.kind, go) }
                </section>
            </main>
        };
    }
    html! {
        <main class={classes!("page", "game", "remote", "watch", v.kind.as_str())}
            data-watch="" data-game-number={v.game_number.to_string()}
            data-first-peer-ms={first_peer.map(|t| t.to_string())}>
            <Announcer text={speech.said().to_string()} serial={speech.serial} />
            <h1>{ heading_name(v.kind, v.rules) }<span class="mode">{ " " }{ words(t::mode_watching()) }</span></h1>
            <p class="hint">{ words(t::watch_read_only()) }</p>
            if let Some(refused) = v.refused {
                <section class="panel" role="alert" data-watch-refused="">
                    <p>{ words(refused) }</p>
                    { lobby_link(v.kind, go) }
                </section>
            }
            if v.empty {
                <section class="panel" role="alert" data-watch-empty="">
                    <p>{ words(t::watch_empty()) }</p>
                    { lobby_link(v.kind, go) }
                </section>
            }
            <div class="layout">
                { board_column(&v, &nav) }
                <aside class="side">
                    { state_panel(&v, act) }
                    if let Some(h) = v.history.clone() { { history_panel(h, &nav) } }
                    if let Some(rules) = v.rules {
                        <section class="panel rules">
                            <h2>{ words(t::rules()) }</h2>
                            { rules_in_words(rules) }
                        </section>
                    }
                </aside>
            </div>
        </main>
    }
}

/// The cards, the status, the board (never playable), the history's banner.
fn board_column(v: &WatchView, nav: &Callback<crate::model::history::Nav>) -> Html {
    let players = v.players.clone().map(|[blue, red]| {
        let card = |c: crate::model::room::view::PlayerView| {
            html! { <PlayerCard player={c.player} active={c.active} title={c.title} detail={c.detail} /> }
        };
        html! { <div class="players">{ card(blue) }{ card(red) }</div> }
    });
    let board = match &v.board {
        BoardView::Morris { game, focus, .. } => html! {
            <MorrisBoard game={game.clone()} selected={None} focus={*focus} frozen=true
                on_activate={Callback::noop()} on_key={Callback::noop()} input=false
                node={NodeRef::default()} />
        },
        BoardView::Meta { game, focus, .. } => html! {
            <MetaBoard game={*game} focus={*focus} frozen=true
                on_activate={Callback::noop()} on_key={Callback::noop()} input=false
                node={NodeRef::default()} />
        },
        BoardView::Placeholder(text) => html! { <div class="board-placeholder">{ *text }</div> },
    };
    html! {
        <section class="board-column" aria-label={t::game_section()}>
            { players.unwrap_or_default() }
            <Status result={v.result} text={v.status.clone()} />
            if let Some(record) = v.review.as_deref() {
                <GameLink href={viewer_link(record)} />
            }
            <div class="board-scroll">{ board }</div>
            if let Some(h) = v.history.as_ref() { { browsing_banner(h, nav) } }
            if let Some(p) = v.progress.clone() { <p class="progress">{ p }</p> }
        </section>
    }
}

/// Who is there, the requests pending, the verdict, the export.
fn state_panel(v: &WatchView, act: &Callback<WatchEvent>) -> Html {
    let seats = v.seats.iter().zip(["host", "guest"]).map(|(s, seat)| {
        html! {
            <li class={classes!("presence", s.presence)} data-seat={seat} data-presence={s.presence}>
                { s.text.clone() }</li>
        }
    });
    let requests = v
        .requests
        .iter()
        .map(|r| html! { <p class="proposal-banner" data-request="">{ r.clone() }</p> });
    let toggle = act.reform(|_: MouseEvent| WatchEvent::ToggleExport);
    html! {
        <section class="panel room-state" aria-label={t::room()}>
            <h2>{ words(t::room()) }</h2>
            <ul class="seats">{ for seats }</ul>
            { for requests }
            if let Some(ok) = v.verified {
                <p class={classes!("verdict", (!ok).then_some("notice"))}
                    data-verified={ok.to_string()} role={(!ok).then_some("alert")}>
                    { v.verdict.clone() }</p>
            }
            if v.verified.is_some() {
                <div class="actions">
                    <button type="button" class="button secondary" onclick={toggle}>
                        { words(t::export_game()) }</button>
                </div>
            }
            if let Some(export) = v.export.clone() {
                <ExportPanel {export} />
            }
        </section>
    }
}
