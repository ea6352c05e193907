//! One tab per room and browser: the page asks for the room's Web Lock before it opens the room;
//! while another tab holds it, it says so and offers to take it over.

use super::super::{browser, use_lang, words, Route};
use super::body::{RoomBody, Shared};
use super::errors::{room_error, RoomError};
use super::open::{invite_in_url, open_room, start, Opening, Room};
use super::parts::lobby_link;
use super::web;
use crate::i18n::t;
use engine::GameKind;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct RoomProps {
    pub kind: GameKind,
    /// A room paired by hand (`/moulin/sans-serveur#…`, issue #25): the same page, its links
    /// paired ones.
    #[prop_or_default]
    pub paired: bool,
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
    /// Counts the asks for the lock: news of an older ask (a lock this tab stole from itself,
    /// a room still opening when the lock was taken) changes nothing.
    ask: Cell<u32>,
}

impl Guard {
    /// Stops the room's loop (its socket closes) and lets the lock go.
    fn close(&self) {
        self.ask.set(self.ask.get() + 1);
        self.close_room();
        self.lock.borrow_mut().take();
    }

    /// Stops the room's loop, if one runs: its socket and connections close.
    fn close_room(&self) {
        if let Some(Ok(room)) = self.room.borrow_mut().take() {
            room.inbox.close_channel();
        }
    }
}

/// Asks for the room's lock (taking it from another tab with `take`); the room opens once it is
/// held.
fn ask_lock(
    guard: &Rc<Guard>,
    kind: GameKind,
    opening: &Opening,
    take: bool,
    phase: UseStateSetter<Phase>,
) {
    let ask = guard.ask.get() + 1;
    guard.ask.set(ask);
    let name = format!("moulin-room:{}", opening.invite.room_name());
    let (g, invite) = (guard.clone(), opening.clone());
    let lock = web::lock(&name, take, move |news| {
        if g.ask.get() != ask {
            return;
        }
        match news {
            web::LockNews::Held => {
                let (g, invite, phase) = (g.clone(), invite.clone(), phase.clone());
                wasm_bindgen_futures::spawn_local(async move {
                    if take {
                        // The tab it was taken from stops at once; let its last save land first.
                        browser::sleep(TAKE_OVER_MS).await;
                    }
                    // Taken meanwhile, or asked again: that ask opens the room, not this one.
                    if g.ask.get() != ask {
                        return;
                    }
                    let room = open_room(kind, invite).map(Rc::new);
                    if let Ok(room) = &room {
                        start(room, kind);
                    }
                    g.close_room();
                    *g.room.borrow_mut() = Some(room);
                    phase.set(Phase::Open);
                });
            }
            web::LockNews::Busy => phase.set(Phase::Elsewhere),
            web::LockNews::Taken => {
                g.ask.set(ask + 1);
                g.close_room();
                phase.set(Phase::Taken);
            }
        }
    });
    *guard.lock.borrow_mut() = Some(lock);
}

/// How long a tab that takes a room from another waits before reading the seat.
const TAKE_OVER_MS: u64 = 300;

/// `/moulin/salon#…`: a remote room; `/moulin/sans-serveur#…`: one paired by hand.
#[component]
pub fn RoomPage(props: &RoomProps) -> Html {
    use_lang();
    let kind = props.kind;
    let paired = props.paired;
    let invite = use_memo((), move |_| invite_in_url(kind, paired));
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
            // The button goes while the room opens: a second click cannot ask again.
            setter.set(Phase::Asking);
            ask_lock(&guard, kind, &invite, true, setter.clone());
        })
    };
    match *phase {
        Phase::Asking => html! {
            <main class="page narrow"><p>{ words(t::opening()) }</p></main>
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
        (t::taken_title(), t::taken_text(), t::take_back())
    } else {
        (t::busy_title(), t::busy_text(), t::play_here())
    };
    html! {
        <main class="page narrow room-elsewhere" data-elsewhere={if taken { "taken" } else { "busy" }}>
            <h1>{ words(title) }</h1>
            <p role="alert">{ words(body) }</p>
            <p><button type="button" class="button" onclick={take}>{ words(button) }</button></p>
            { lobby_link(kind, go) }
        </main>
    }
}
