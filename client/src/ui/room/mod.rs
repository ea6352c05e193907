//! `/moulin/salon#…`, `/meta-morpion/salon#…`: a remote room. The page reads the invitation and
//! this tab's saved seat, builds the [`RoomModel`], starts its event loop ([`runner`]) and renders
//! the model's [`View`]; every click goes to the loop as an event.

mod errors;
mod parts;
mod runner;
mod web;

use super::boards::{MetaBoard, MorrisBoard};
use super::common::{board_key, follow_focus, BoardKey, LimitField, PlayerCard, Status};
use super::history::{browsing_banner, history_panel, listen_keys};
use super::lobby::game_name;
use super::{browser, Route};
use crate::model::room::view::BoardView;
use crate::model::room::{Event, Input, RoomModel, View};
use client_net::PeerId;
use engine::session::{Config, Invite, Saved, Session};
use engine::{GameKind, Player};
use errors::{room_error, RoomError};
use futures_channel::mpsc::{unbounded, UnboundedReceiver, UnboundedSender};
use parts::{
    lobby_link, InvitePanel, KnockDialog, LocalDialog, ProposalBanner, ProposalDialog, RoomPanel,
    StandingPanel,
};
use runner::Runner;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use yew::prelude::*;

/// Where a tab kept its seat before seats were kept per room (this tab's storage, one seat per
/// game): still read once, so a tab open across the update keeps its seat.
pub fn old_storage_key(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Morris => "moulin-online-seat-v1",
        GameKind::Meta => "meta-morpion-online-seat-v1",
    }
}

/// The family of the browser's storage keys that hold seats of a game.
pub fn seat_prefix(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Morris => "moulin-seat-v2:",
        GameKind::Meta => "meta-morpion-seat-v2:",
    }
}

/// The browser's storage key of the seat this browser holds in a room (kept when the tab closes:
/// opening the link again rejoins the same seat).
pub fn seat_key(kind: GameKind, room: &str) -> String {
    format!("{}{room}", seat_prefix(kind))
}

/// Keeps the seat of a room in the browser's storage.
pub fn keep_seat(kind: GameKind, room: &str, text: &str) {
    web::store_lasting(seat_prefix(kind), &seat_key(kind, room), text);
}

/// A room ready to run: the model, the way in for events, and the figure of the first meeting.
struct Room {
    model: Rc<RefCell<RoomModel<PeerId>>>,
    inbox: UnboundedSender<Input<PeerId>>,
    first_peer: Rc<Cell<Option<u64>>>,
    /// The loop's half, taken when the page starts it.
    runner: RefCell<Option<UnboundedReceiver<Input<PeerId>>>>,
    /// Draws the page again (set once the page shows the room).
    render: RefCell<Option<Rc<dyn Fn()>>>,
}

/// Reads the invitation in the URL.
fn read_invite(kind: GameKind) -> Result<Invite, RoomError> {
    let fragment = browser::location_hash();
    let invite = Invite::from_fragment(&fragment).map_err(|_| RoomError::Malformed)?;
    let other = invite.rules.kind();
    if other != kind {
        let fragment = fragment.trim_start_matches('#').to_string();
        return Err(RoomError::OtherGame(other, fragment));
    }
    Ok(invite)
}

/// Reads the seat this browser keeps in the room (or the one this tab kept before), else makes
/// a new guest, and builds the session. Only the tab that holds the room's lock does this.
fn open_room(kind: GameKind, invite: Invite) -> Result<Room, RoomError> {
    let room = invite.room_name();
    let key = seat_key(kind, &room);
    let old = web::stored(old_storage_key(kind))
        .and_then(|t| Saved::from_text(&t).ok())
        .filter(|s| s.invite.room == invite.room);
    let saved = match (web::stored_lasting(&key), old) {
        (Some(t), _) => Some(Saved::from_text(&t).map_err(|_| RoomError::BadSave(key.clone()))?),
        (None, old) => old,
    };
    let session = match saved {
        Some(saved) => Session::restore(saved).map_err(|_| RoomError::BadSave(key.clone()))?,
        None => {
            let seed = browser::random::<32>().ok_or(RoomError::NoRandom)?;
            Session::guest(invite, seed, Config::default(), browser::now_ms())
        }
    };
    keep_seat(kind, &room, &session.save_text());
    web::forget(old_storage_key(kind));
    let (inbox, receiver) = unbounded();
    Ok(Room {
        model: Rc::new(RefCell::new(RoomModel::new(session))),
        inbox,
        first_peer: Rc::new(Cell::new(None)),
        runner: RefCell::new(Some(receiver)),
        render: RefCell::new(None),
    })
}

#[derive(Properties, PartialEq)]
pub struct RoomProps {
    pub kind: GameKind,
    pub go: Callback<Route>,
}

/// Where the page stands with the room's lock: a seat is played in one tab at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Asking for the lock.
    Asking,
    /// Another tab of this browser has the room open.
    Elsewhere,
    /// This tab runs the room.
    Open,
    /// Another tab took the room from this one.
    Taken,
}

/// The lock, the room once open, and why it could not open.
#[derive(Default)]
struct Guard {
    lock: RefCell<Option<web::Lock>>,
    room: RefCell<Option<Result<Rc<Room>, RoomError>>>,
}

impl Guard {
    /// Stops the room's loop (its socket closes) and lets the lock go.
    fn close(&self) {
        if let Some(Ok(room)) = self.room.borrow_mut().take() {
            room.inbox.close_channel();
        }
        self.lock.borrow_mut().take();
    }
}

/// Asks for the room's lock (taking it from another tab with `take`); the room opens once it is
/// held.
fn ask_lock(
    guard: &Rc<Guard>,
    kind: GameKind,
    invite: &Invite,
    take: bool,
    phase: UseStateSetter<Phase>,
) {
    let name = format!("moulin-room:{}", invite.room_name());
    let (g, invite) = (guard.clone(), invite.clone());
    let lock = web::lock(&name, take, move |news| match news {
        web::LockNews::Held => {
            let (g, invite, phase) = (g.clone(), invite.clone(), phase.clone());
            wasm_bindgen_futures::spawn_local(async move {
                if take {
                    // The tab it was taken from stops at once; let its last save land first.
                    browser::sleep(TAKE_OVER_MS).await;
                }
                let room = open_room(kind, invite).map(Rc::new);
                if let Ok(room) = &room {
                    start(room, kind);
                }
                *g.room.borrow_mut() = Some(room);
                phase.set(Phase::Open);
            });
        }
        web::LockNews::Busy => phase.set(Phase::Elsewhere),
        web::LockNews::Taken => {
            if let Some(Ok(room)) = g.room.borrow_mut().take() {
                room.inbox.close_channel();
            }
            phase.set(Phase::Taken);
        }
    });
    *guard.lock.borrow_mut() = Some(lock);
}

/// How long a tab that takes a room from another waits before reading the seat.
const TAKE_OVER_MS: u64 = 300;

/// Starts the room's event loop.
fn start(room: &Rc<Room>, kind: GameKind) {
    let Some(receiver) = room.runner.borrow_mut().take() else {
        return;
    };
    let page = room.clone();
    let runner = Runner {
        model: room.model.clone(),
        inbox: receiver,
        outbox: room.inbox.clone(),
        // Until the page has drawn the room, there is nothing to draw again.
        render: Rc::new(move || {
            let render = page.render.borrow().clone();
            if let Some(f) = render {
                f();
            }
        }),
        kind,
        first_peer: room.first_peer.clone(),
        later: Rc::default(),
        ice: Rc::default(),
    };
    wasm_bindgen_futures::spawn_local(runner.run());
}

/// `/moulin/salon#…`: a remote room.
#[component]
pub fn RoomPage(props: &RoomProps) -> Html {
    let kind = props.kind;
    let invite = use_memo((), move |_| read_invite(kind));
    let guard = use_memo((), |_| Rc::new(Guard::default()));
    let phase = use_state(|| Phase::Asking);
    {
        let (invite, guard, setter) = (invite.clone(), (*guard).clone(), phase.setter());
        use_effect_with((), move |_| {
            if let Ok(invite) = &*invite {
                ask_lock(&guard, kind, invite, false, setter);
            }
            // Leaving the page ends the loop, which closes the socket, and lets the lock go.
            move || guard.close()
        });
    }
    let invite = match &*invite {
        Err(e) => return room_error(e, kind, &props.go),
        Ok(invite) => invite,
    };
    let take = {
        let (guard, invite, setter) = ((*guard).clone(), invite.clone(), phase.setter());
        Callback::from(move |_: MouseEvent| {
            ask_lock(&guard, kind, &invite, true, setter.clone());
        })
    };
    match *phase {
        Phase::Asking => html! {
            <main class="page narrow"><p>{ "Ouverture du salon…" }</p></main>
        },
        Phase::Elsewhere | Phase::Taken => elsewhere(kind, *phase == Phase::Taken, take, &props.go),
        Phase::Open => match guard.room.borrow().as_ref() {
            Some(Ok(room)) => html! {
                <RoomBody room={Shared(room.clone())} {kind} go={props.go.clone()} />
            },
            Some(Err(e)) => room_error(e, kind, &props.go),
            None => html! {},
        },
    }
}

/// The room is open in another tab of this browser (`taken`: it was taken from this one).
fn elsewhere(
    kind: GameKind,
    taken: bool,
    take: Callback<MouseEvent>,
    go: &Callback<Route>,
) -> Html {
    let (title, body, button) = if taken {
        (
            "Salon ouvert dans un autre onglet",
            "Ce salon vient d'être ouvert dans un autre onglet de ce navigateur : c'est là que la partie continue. Cet onglet ne joue plus.",
            "Reprendre ici",
        )
    } else {
        (
            "Salon déjà ouvert dans un autre onglet",
            "Ce salon est déjà ouvert dans un autre onglet de ce navigateur : une place ne se joue que dans un onglet à la fois.",
            "Jouer dans cet onglet",
        )
    };
    html! {
        <main class="page narrow room-elsewhere" data-elsewhere={if taken { "taken" } else { "busy" }}>
            <h1>{ title }</h1>
            <p role="alert">{ body }</p>
            <p><button type="button" class="button" onclick={take}>{ button }</button></p>
            { lobby_link(kind, go) }
        </main>
    }
}

/// A room shared with the page: equal when it is the same room.
#[derive(Clone)]
struct Shared(Rc<Room>);

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
    room_view(view, &handlers, board, room.first_peer.get(), &props.go)
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
            <h1>{ game_name(v.kind) }<span class="mode">{ format!(" · à distance · vous êtes l'{}", v.seat) }</span></h1>
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
