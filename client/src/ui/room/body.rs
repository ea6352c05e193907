//! The open room's page: its model's view drawn, every click sent to its loop.

use super::super::boards::{MetaBoard, MorrisBoard};
use super::super::common::heading_name;
use super::super::common::{
    board_key, follow_focus, rules_in_words, viewer_link, Announcer, BoardKey, GameLink,
    LimitField, NoWebRtcNotice, PlayerCard, Status,
};
use super::super::history::{browsing_banner, history_panel, listen_keys};
use super::super::{browser, use_lang, words, Route};
use super::parts::{
    lobby_link, InvitePanel, KnockDialog, LocalDialog, ProposalBanner, ProposalDialog, RoomPanel,
    StandingPanel,
};
use crate::i18n::t;
use crate::model::room::view::BoardView;
use crate::model::room::{Event, Input, View};
use client_net::PeerId;
use engine::{GameKind, Player};
use futures_channel::mpsc::UnboundedSender;
use std::rc::Rc;
use yew::prelude::*;

/// A room shared with the page: equal when it is the same room.
#[derive(Clone)]
pub(super) struct Shared(pub(super) Rc<super::open::Room>);

impl PartialEq for Shared {
    fn eq(&self, other: &Shared) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

#[derive(Properties, PartialEq)]
pub(super) struct BodyProps {
    pub(super) room: Shared,
    pub(super) kind: GameKind,
    pub(super) go: Callback<Route>,
}

/// The open room: renders its model whenever the loop says so.
#[component]
pub(super) fn RoomBody(props: &BodyProps) -> Html {
    use_lang();
    let kind = props.kind;
    let room = &props.room.0;
    let update = use_force_update();
    let board = use_node_ref();
    {
        let (room, update) = (room.clone(), update.clone());
        let inbox = room.inbox.clone();
        use_effect_with((), move |_| {
            room.render.set(move || update.force_update());
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
        let base = Route::Room(kind).title_named(heading_name(kind, view.rules));
        use_effect_with((title, base), move |(title, base)| {
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
    let invite = invitation(room, &view, &handlers.act);
    room_view(
        view,
        &handlers,
        board,
        room.first_peer.get(),
        &props.go,
        speech,
        invite,
    )
}

/// What the host passes on until the guest comes: the invitation (a room through the relay),
/// or the texts to exchange (a room paired by hand, until the channel opens and after it is
/// lost). Each is in its own bundle only.
fn invitation(room: &super::open::Room, v: &View, act: &Callback<Event>) -> Html {
    #[cfg(feature = "paired")]
    if let Some(pairing) = room.pairing.clone() {
        if room.model.borrow().has_peer() || v.left || !v.seated {
            return Html::default();
        }
        let serial = browser::now_ms();
        return html! { <super::pairing::PairingPanel {pairing} {serial} /> };
    }
    #[cfg(feature = "remote")]
    if let Some(invite) = v.invite.clone() {
        return html! { <InvitePanel {invite} act={act.clone()} /> };
    }
    let _ = (room, v, act);
    Html::default()
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
                on_activate={h.point.clone()} on_key={h.key.clone()} input={v.my_turn} {node} />
        },
        BoardView::Meta {
            game,
            focus,
            frozen,
        } => html! {
            <MetaBoard game={*game} focus={*focus} frozen={*frozen}
                on_activate={h.cell.clone()} on_key={h.key.clone()} input={v.my_turn} {node} />
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
    let label = |text: &'static str, wait: Option<u64>| match wait {
        Some(s) => Html::from(t::button_wait(text, &s.to_string())),
        None => words(text),
    };
    let [undo_wait, draw_wait, new_wait] = b.waits;
    html! {
        <div class="actions">
            <button type="button" class={classes!("button", colour)}
                disabled={!b.undo || (undo_wait.is_some() && !b.undo_clears)}
                onclick={emit(Event::Undo)}>{ label(t::undo(), undo_wait.filter(|_| !b.undo_clears)) }</button>
            <button type="button" class="button secondary" disabled={new_wait.is_some()}
                onclick={emit(Event::AskNewGame)}>{ label(t::new_game(), new_wait) }</button>
            <button type="button" class="button secondary" disabled={!b.in_progress || draw_wait.is_some()}
                onclick={emit(Event::Draw)}>{ label(t::offer_draw(), draw_wait) }</button>
            <button type="button" class="button secondary" disabled={!b.in_progress}
                onclick={emit(Event::AskResign)}>{ words(t::resign()) }</button>
            if b.claim {
                <button type="button" class="button" onclick={emit(Event::Claim)}>
                    { words(t::claim_win()) }</button>
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
                    <p class="hint">{ words(h) }</p>
                }
            </>
        }
    });
    let colours = if v.lot {
        t::colours_rule_lot()
    } else {
        t::colours_rule_alternate()
    };
    html! {
        <section class="panel rules">
            <h2>{ words(t::rules()) }</h2>
            if let Some(rules) = v.rules {
                { rules_in_words(rules) }
            }
            <p data-colours={if v.lot { "lot" } else { "alternate" }}>{ words(colours) }</p>
            <p>{ words(t::room_rules_1()) }</p>
            <p>{ words(t::room_rules_2()) }</p>
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
    invite: Html,
) -> Html {
    let act = &h.act;
    if v.full {
        return full_room(&v, go);
    }
    html! {
        <main class={classes!("page", "game", "remote", v.kind.as_str())}
            data-seat={v.seat} data-my-turn={v.my_turn.to_string()}
            data-first-peer-ms={first_peer.map(|t| t.to_string())}
            data-game-number={v.game_number.to_string()}>
            <Announcer text={speech.said().to_string()} serial={speech.serial} />
            <h1>{ heading_name(v.kind, v.rules) }<span class="mode">{ " " }{ if v.seated { Html::from(t::mode_you_are(v.seat_name)) } else { words(t::mode_no_seat()) } }</span></h1>
            // Without WebRTC nothing else can work: said first, with the games that need none.
            if v.no_webrtc == Some(client_net::NoWebRtc::Here) {
                <NoWebRtcNotice kind={v.kind} text={t::no_webrtc_room()} go={go.clone()} />
            }
            // The invitation first, above the board: the one thing the host needs until the
            // guest comes (on a phone the side panels come after the board).
            { invite }
            if let Some(standing) = v.standing.clone() {
                <StandingPanel {standing} act={act.clone()} />
            }
            <div class="layout">
                { board_column(&v, h, board) }
                <aside class="side">
                    <RoomPanel view={v.clone()} act={act.clone()} go={go.clone()} />
                    if let Some(h) = v.history.clone() { { history_panel(h, &act.reform(Event::History)) } }
                    { rules_panel(&v, act) }
                </aside>
            </div>
            { dialogs(&v, act) }
        </main>
    }
}

/// A full room: that, and the way out — nothing else is true for this tab (not even a seat it
/// restored: whoever holds it is in the room).
fn full_room(v: &View, go: &Callback<Route>) -> Html {
    html! {
        <main class={classes!("page", "game", "remote", v.kind.as_str())} data-room-full="">
            <h1>{ heading_name(v.kind, v.rules) }<span class="mode">{ " " }{ words(t::mode_remote()) }</span></h1>
            <section class="panel" role="alert">
                <h2>{ words(t::room_full_title()) }</h2>
                <p>{ words(t::room_full_long()) }</p>
                { lobby_link(v.kind, go) }
            </section>
        </main>
    }
}

/// The players, the status, the board and the game's buttons.
fn board_column(v: &View, h: &Handlers, board: NodeRef) -> Html {
    let act = &h.act;
    let players = v.players.clone().map(|cards| {
        let card = |c: crate::model::room::view::PlayerView| {
            html! { <PlayerCard player={c.player} active={c.active} title={c.title} detail={c.detail} /> }
        };
        let [blue, red] = cards;
        html! { <div class="players">{ card(blue) }{ card(red) }</div> }
    });
    html! {
        <section class="board-column" aria-label={t::game_section()}>
            { players.unwrap_or_default() }
            <Status result={v.result} text={v.status.clone()}
                notice={v.notice.clone().map(AttrValue::from)} />
            // The game is over: the next one is asked for from the result itself.
            if v.result.is_some() && v.buttons.is_some() && v.my_proposal.is_none() {
                <p class="rematch"><button type="button" class="button" data-rematch=""
                    onclick={act.reform(|_: MouseEvent| Event::AskNewGame)}>{ words(t::rematch()) }</button></p>
            }
            if let Some(text) = v.my_proposal.clone() {
                <ProposalBanner {text} act={act.clone()} />
            }
            if let Some(record) = v.review.as_deref() {
                <GameLink href={viewer_link(record)} more={Some(t::review_remote())} />
            }
            <div class="board-scroll">{ board_html(v, h, board) }</div>
            // Under the board, so that the board does not move when it comes and goes.
            if let Some(h) = v.history.as_ref() { { browsing_banner(h, &act.reform(Event::History)) } }
            { game_buttons(v, act) }
            if let Some(p) = v.progress.clone() { <p class="progress">{ p }</p> }
        </section>
    }
}

/// This tab's dialog, and the other side's proposal or a knock (one at a time).
fn dialogs(v: &View, act: &Callback<Event>) -> Html {
    html! {
        <>
            if let Some(dialog) = v.dialog.clone() {
                <LocalDialog {dialog} act={act.clone()} />
            }
            if let Some(proposal) = v.their_proposal.clone() {
                <ProposalDialog {proposal} act={act.clone()} />
            } else if let Some(knock) = v.knock.clone() {
                <KnockDialog {knock} act={act.clone()} />
            }
        </>
    }
}
