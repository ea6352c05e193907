//! One tab per room and browser: the page asks for the room's Web Lock before it opens the room;
//! while another tab holds it, it says so and offers to take it over.

use super::super::{browser, Route};
use super::errors::{room_error, RoomError};
use super::open::{open_room, read_invite, start, Room};
use super::parts::lobby_link;
use super::web;
use super::{RoomBody, Shared};
use engine::session::Invite;
use engine::GameKind;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

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
