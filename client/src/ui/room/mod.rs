//! `/moulin/salon#…`, `/meta-morpion/salon#…`: a remote room. The page reads the invitation and
//! this tab's saved seat, builds the [`RoomModel`], starts its event loop ([`runner`]) and renders
//! the model's [`View`]; every click goes to the loop as an event.

mod errors;
mod open;
mod parts;
mod runner;
mod tab;
mod web;

pub use tab::RoomPage;

use super::boards::{MetaBoard, MorrisBoard};
use super::common::game_name;
use super::common::{board_key, follow_focus, Announcer, BoardKey, LimitField, PlayerCard, Status};
use super::history::{browsing_banner, history_panel, listen_keys};
use super::{browser, Route};
use crate::model::room::view::BoardView;
use crate::model::room::{Event, Input, View};
use client_net::PeerId;
use engine::{GameKind, Player};
use futures_channel::mpsc::UnboundedSender;
use parts::{
    lobby_link, InvitePanel, KnockDialog, LocalDialog, ProposalBanner, ProposalDialog, RoomPanel,
    StandingPanel,
};
use std::rc::Rc;
use yew::prelude::*;

/// A room shared with the page: equal when it is the same room.
#[derive(Clone)]
struct Shared(Rc<open::Room>);

impl PartialEq for Shared {
    fn eq(&self, other: &Shared) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

#[derive(Properties, PartialEq)]
struct BodyProps {
    room: Shared,
    kind: GameKind,
    go: Callback<Route>,
}

/// The open room: renders its model whenever the loop says so.
#[component]
fn RoomBody(props: &BodyProps) -> Html {
    let kind = props.kind;
    let room = &props.room.0;
    let update = use_force_update();
    let board = use_node_ref();
    {
        let (room, update) = (room.clone(), update.clone());
        let inbox = room.inbox.clone();
        use_effect_with((), move |_| {
            *room.render.borrow_mut() = Some(Rc::new(move || update.force_update()));
            // ←, →, Home, End through the history (no hook of its own: the bundle is tight).
            listen_keys(Callback::from(move |nav| {
                let _ = inbox.unbounded_send(Input::Ui(Event::History(nav)));
            }))
        });
    }
    let view = room.model.borrow().view(browser::now_ms());
    let focus = room.model.borrow().local().clone();
    {
        let board = board.clone();
        use_effect_with((focus.point, focus.cell), move |&(point, cell)| {
            let selector = match kind {
                GameKind::Morris => format!("[data-point=\"{}\"]", point.index()),
                GameKind::Meta => format!("[data-cell=\"{}\"]", cell.index()),
            };
            follow_focus(&board, &selector);
        });
    }
    {
        // The tab's title says when the player is wanted: their move, or a proposal to answer.
        let title = view.title;
        use_effect_with(title, move |title| {
            let base = Route::Room(kind).title();
            browser::set_title_soon(title.map_or(base.to_string(), |t| format!("{t} · {base}")));
        });
    }
    // The same callbacks on every render: the parts whose view did not change are not drawn
    // again (a move must reach the screen in a few milliseconds).
    let handlers = use_memo((), {
        let inbox = room.inbox.clone();
        move |_| Handlers::new(inbox)
    });
    let speech = room.model.borrow().speech().clone();
    room_view(
        view,
        &handlers,
        board,
        room.first_peer.get(),
        &props.go,
        speech,
    )
}

/// The room's callbacks, made once.
struct Handlers {
    act: Callback<Event>,
    point: Callback<engine::morris::Point>,
    cell: Callback<engine::meta::Cell>,
    key: Callback<KeyboardEvent>,
}

impl Handlers {
    fn new(inbox: UnboundedSender<Input<PeerId>>) -> Handlers {
        let act = Callback::from(move |e: Event| {
            let _ = inbox.unbounded_send(Input::Ui(e));
        });
        let key = {
            let act = act.clone();
            Callback::from(move |e: KeyboardEvent| {
                let event = match board_key(&e) {
                    Some(BoardKey::Arrow(d)) => Event::Arrow(d),
                    Some(BoardKey::Activate) => Event::ActivateFocus,
                    None => return,
                };
                e.prevent_default();
                act.emit(event);
            })
        };
        Handlers {
            point: act.reform(Event::Point),
            cell: act.reform(Event::Cell),
            key,
            act,
        }
    }
}

fn board_html(v: &View, h: &Handlers, node: NodeRef) -> Html {
    match &v.board {
        BoardView::Morris {
            game,
            selected,
            focus,
            frozen,
        } => html! {
            <MorrisBoard game={game.clone()} selected={*selected} focus={*focus} frozen={*frozen}
                on_activate={h.point.clone()} on_key={h.key.clone()} {node} />
        },
        BoardView::Meta {
            game,
            focus,
            frozen,
        } => html! {
            <MetaBoard game={*game} focus={*focus} frozen={*frozen}
                on_activate={h.cell.clone()} on_key={h.key.clone()} {node} />
        },
        BoardView::Placeholder(text) => html! { <div class="board-placeholder">{ *text }</div> },
    }
}

fn game_buttons(v: &View, act: &Callback<Event>) -> Html {
    let Some(b) = v.buttons else {
        return html! {};
    };
    let emit = |e: Event| act.reform(move |_: MouseEvent| e.clone());
    let colour = if b.colour == Player::Blue {
        "blue"
    } else {
        "red"
    };
    // After a refusal a request waits: its button counts the seconds down.
    let label = |text: &str, wait: Option<u64>| match wait {
        Some(s) => format!("{text} ({s} s)"),
        None => text.to_string(),
    };
    let [undo_wait, draw_wait, new_wait] = b.waits;
    html! {
        <div class="actions">
            <button type="button" class={classes!("button", colour)}
                disabled={!b.undo || (undo_wait.is_some() && !b.undo_clears)}
                onclick={emit(Event::Undo)}>{ label("Annuler", undo_wait.filter(|_| !b.undo_clears)) }</button>
            <button type="button" class="button secondary" disabled={new_wait.is_some()}
                onclick={emit(Event::AskNewGame)}>{ label("Nouvelle partie", new_wait) }</button>
            <button type="button" class="button secondary" disabled={!b.in_progress || draw_wait.is_some()}
                onclick={emit(Event::Draw)}>{ label("Proposer la nulle", draw_wait) }</button>
            <button type="button" class="button secondary" disabled={!b.in_progress}
                onclick={emit(Event::AskResign)}>{ "Abandonner" }</button>
            if b.claim {
                <button type="button" class="button" onclick={emit(Event::Claim)}>
                    { "Revendiquer la victoire" }</button>
            }
        </div>
    }
}

fn rules_panel(v: &View, act: &Callback<Event>) -> Html {
    let limit = v.limit.clone().map(|l| {
        html! {
            <>
                <LimitField value={l.value} disabled={!l.editable} invalid={l.error.is_some()}
                    on_input={act.reform(Event::Limit)} />
                if let Some(e) = l.error {
                    <p class="notice" role="alert">{ e }</p>
                }
                if let Some(h) = l.hint {
                    <p class="hint">{ h }</p>
                }
            </>
        }
    });
    html! {
        <section class="panel rules">
            <h2>{ "Règles" }</h2>
            <p>{ "Chaque coup est signé et vérifié par les deux navigateurs. Annuler un tour, la nulle et une nouvelle partie demandent l'accord de l'adversaire, qui a une minute pour répondre. Le premier joueur change à chaque nouvelle partie." }</p>
            <p>{ "Si l'un de vous se déconnecte, sa place est gardée cinq minutes : recharger cet onglet reprend la même place." }</p>
            { limit.unwrap_or_default() }
        </section>
    }
}

fn room_view(
    v: View,
    h: &Handlers,
    board: NodeRef,
    first_peer: Option<u64>,
    go: &Callback<Route>,
    speech: crate::model::speech::Speech,
) -> Html {
    let act = &h.act;
    let kind_class = if v.kind == GameKind::Morris {
        "morris"
    } else {
        "meta"
    };
    if v.full {
        // A full room: that, and the way out — nothing else is true for this tab (not even a
        // seat it restored: whoever holds it is in the room).
        return html! {
            <main class={classes!("page", "game", "remote", kind_class)} data-room-full="">
                <h1>{ game_name(v.kind) }<span class="mode">{ " · à distance" }</span></h1>
                <section class="panel" role="alert">
                    <h2>{ "Salon complet" }</h2>
                    <p>{ crate::model::room::text::ROOM_FULL_LONG }</p>
                    { lobby_link(v.kind, go) }
                </section>
            </main>
        };
    }
    let players = v.players.clone().map(|cards| {
        let card = |c: crate::model::room::view::PlayerView| {
            html! { <PlayerCard player={c.player} active={c.active} title={c.title} detail={c.detail} /> }
        };
        let [blue, red] = cards;
        html! { <div class="players">{ card(blue) }{ card(red) }</div> }
    });
    html! {
        <main class={classes!("page", "game", "remote", kind_class)}
            data-seat={v.seat} data-my-turn={v.my_turn.to_string()}
            data-first-peer-ms={first_peer.map(|t| t.to_string())}
            data-game-number={v.game_number.to_string()}>
            <Announcer text={speech.text} serial={speech.serial} />
            <h1>{ game_name(v.kind) }<span class="mode">{ if v.seated { format!(" · à distance · vous êtes l'{}", v.seat) } else { " · à distance · sans place dans ce salon".to_string() } }</span></h1>
            // The invitation first, above the board: the one thing the host needs until the
            // guest comes (on a phone the side panels come after the board).
            if let Some(invite) = v.invite.clone() {
                <InvitePanel {invite} act={act.clone()} />
            }
            if let Some(standing) = v.standing.clone() {
                <StandingPanel {standing} act={act.clone()} />
            }
            <div class="layout">
                <section class="board-column" aria-label="Partie">
                    { players.unwrap_or_default() }
                    <Status result={v.result} text={v.status.clone()}
                        notice={v.notice.clone().map(AttrValue::from)} />
                    if let Some(text) = v.my_proposal.clone() {
                        <ProposalBanner {text} act={act.clone()} />
                    }
                    if v.review {
                        <p class="review"><a href="/partie" data-review="">{ "Revoir la partie dans la visionneuse" }</a>
                            { " (« Exporter la partie », puis ouvrez le transcript)" }</p>
                    }
                    if let Some(h) = v.history.as_ref() { { browsing_banner(h, &act.reform(Event::History)) } }
                    <div class="board-scroll">{ board_html(&v, h, board) }</div>
                    { game_buttons(&v, act) }
                    if let Some(p) = v.progress.clone() { <p class="progress">{ p }</p> }
                </section>
                <aside class="side">
                    <RoomPanel view={v.clone()} act={act.clone()} go={go.clone()} />
                    if let Some(h) = v.history.clone() { { history_panel(h, &act.reform(Event::History), false) } }
                    { rules_panel(&v, act) }
                </aside>
            </div>
            if let Some(dialog) = v.dialog.clone() {
                <LocalDialog {dialog} act={act.clone()} />
            }
            if let Some(proposal) = v.their_proposal.clone() {
                <ProposalDialog {proposal} act={act.clone()} />
            } else if let Some(knock) = v.knock.clone() {
                <KnockDialog {knock} act={act.clone()} />
            }
        </main>
    }
}
