//! Opening a room: the invitation from the URL fragment, the seat this browser keeps in that
//! room (in `localStorage`, per room), the model, and its event loop.

use super::super::browser;
use super::super::seats::{self, keep_seat, seat_key};
use super::errors::RoomError;
use super::runner::Runner;
use super::web;
use crate::model::room::{Input, RoomModel};
use client_net::PeerId;
use engine::session::{Config, Invite, InviteError, SaveCursor, Saved, Session};
use engine::GameKind;
use futures_channel::mpsc::{unbounded, UnboundedReceiver, UnboundedSender};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// Where a tab kept its seat before seats were kept per room (this tab's storage, one seat per
/// game): still read once, so a tab open across the update keeps its seat.
pub fn old_storage_key(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Morris => "moulin-online-seat-v1",
        GameKind::Meta => "meta-morpion-online-seat-v1",
    }
}

/// A room ready to run: the model, the way in for events, and the figure of the first meeting.
pub(super) struct Room {
    pub(super) model: Rc<RefCell<RoomModel<PeerId>>>,
    pub(super) inbox: UnboundedSender<Input<PeerId>>,
    pub(super) first_peer: Rc<Cell<Option<u64>>>,
    /// The loop's half, taken when the page starts it.
    pub(super) runner: RefCell<Option<UnboundedReceiver<Input<PeerId>>>>,
    /// Draws the page again (set once the page shows the room).
    pub(super) render: RefCell<Option<Rc<dyn Fn()>>>,
}

/// Reads the invitation in the URL.
pub(super) fn read_invite(kind: GameKind) -> Result<Invite, RoomError> {
    let fragment = browser::location_hash();
    let invite = Invite::from_fragment(&fragment).map_err(|e| match e {
        InviteError::BadRules => RoomError::BadRules,
        _ => RoomError::Malformed,
    })?;
    let other = invite.rules.kind();
    if other != kind {
        let fragment = fragment.trim_start_matches('#').to_string();
        return Err(RoomError::OtherGame(other, fragment));
    }
    Ok(invite)
}

/// Reads the seat this browser keeps in the room (or the one this tab kept before), else makes
/// a new guest, and builds the session. Only the tab that holds the room's lock does this.
pub(super) fn open_room(kind: GameKind, invite: Invite) -> Result<Room, RoomError> {
    let room = invite.room_name();
    let key = seat_key(kind, &room);
    let old = web::stored(old_storage_key(kind))
        .and_then(|t| Saved::from_text(&t).ok())
        .filter(|s| s.invite.room == invite.room);
    let saved = match (seats::stored_seat(&key), old) {
        (Some(saved), _) => Some(saved.map_err(|_| RoomError::BadSave(key.clone()))?),
        (None, old) => old,
    };
    let session = match saved {
        Some(saved) => Session::restore(saved).map_err(|_| RoomError::BadSave(key.clone()))?,
        None => {
            let seed = browser::random::<32>().ok_or(RoomError::NoRandom)?;
            Session::guest(invite, seed, Config::default(), browser::now_ms())
        }
    };
    let parts = session.save_parts(SaveCursor::default());
    let kept = keep_seat(kind, &room, &parts);
    if kept {
        web::forget(old_storage_key(kind));
    }
    let mut model = RoomModel::new(session);
    model.seat_kept(kept);
    if kept {
        model.save_kept(parts.cursor);
    }
    model.set_webrtc(client_net::webrtc_available());
    let (inbox, receiver) = unbounded();
    Ok(Room {
        model: Rc::new(RefCell::new(model)),
        inbox,
        first_peer: Rc::new(Cell::new(None)),
        runner: RefCell::new(Some(receiver)),
        render: RefCell::new(None),
    })
}

/// Starts the room's event loop.
pub(super) fn start(room: &Rc<Room>, kind: GameKind) {
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
