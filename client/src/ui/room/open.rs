//! Opening a room: the invitation from the URL fragment, the seat this browser keeps in that
//! room (in `localStorage`, per room), the model that opens it, and its event loop.

use super::super::browser;
use super::super::seats::{self, keep_seat, seat_key};
use super::env::{Render, Tab};
use super::errors::RoomError;
#[cfg(feature = "paired")]
use super::pairing::Pairing;
use super::web::{self, old_storage_key};
use crate::model::room::{read_invite, read_old_seat, Input, Invite, OpenError, RoomModel};
#[cfg(feature = "paired")]
use client_net::pairing::Signal;
use client_net::{PeerId, Runtime};
use engine::GameKind;
use futures_channel::mpsc::{unbounded, UnboundedReceiver, UnboundedSender};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// A room ready to run: the model, the way in for events, and the figure of the first meeting.
pub(super) struct Room {
    pub(super) model: Rc<RefCell<RoomModel<PeerId>>>,
    pub(super) inbox: UnboundedSender<Input<PeerId>>,
    pub(super) first_peer: Rc<Cell<Option<u64>>>,
    /// The loop's half, taken when the page starts it.
    pub(super) runner: RefCell<Option<UnboundedReceiver<Input<PeerId>>>>,
    /// Draws the page again (set once the page shows the room).
    pub(super) render: Render,
    /// A room paired by hand: its texts.
    #[cfg(feature = "paired")]
    pub(super) pairing: Option<Rc<Pairing>>,
}

/// What the URL says of the room to open.
#[derive(Clone)]
pub(super) struct Opening {
    pub(super) invite: Invite,
    /// Paired by hand (issue #25), with the host's offer when the URL carries one.
    #[cfg(feature = "paired")]
    pub(super) paired: Option<Option<Signal>>,
}

/// Reads the invitation in the URL; for a room paired by hand (`paired`, its own page
/// `…/sans-serveur`), the fragment is the invitation or the host's offer (`p=<offer>`), which
/// carries it.
pub(super) fn invite_in_url(kind: GameKind, paired: bool) -> Result<Opening, RoomError> {
    let hash = browser::location_hash();
    #[cfg(feature = "paired")]
    if paired {
        use crate::model::room::pairing::{read_offer, TextError};
        let Some(text) = hash.trim_start_matches('#').strip_prefix("p=") else {
            // The other game's link leads to the other game's page of the same kind.
            let invite =
                read_invite(&hash, kind).map_err(|e| match RoomError::from_open(e, "") {
                    RoomError::OtherGame(super::super::Route::Room(other), fragment) => {
                        RoomError::OtherGame(super::super::Route::Paired(other), fragment)
                    }
                    e => e,
                })?;
            return Ok(Opening {
                invite,
                paired: Some(None),
            });
        };
        return match read_offer(text, kind, None) {
            Ok((offer, invite)) => Ok(Opening {
                invite,
                paired: Some(Some(offer)),
            }),
            Err(TextError::OtherGame(other)) => Err(RoomError::OtherGame(
                super::super::Route::Paired(other),
                hash.trim_start_matches('#').to_string(),
            )),
            Err(e) => Err(RoomError::Pairing(e)),
        };
    }
    let _ = paired;
    let invite = read_invite(&hash, kind).map_err(|e| RoomError::from_open(e, ""))?;
    Ok(Opening {
        invite,
        #[cfg(feature = "paired")]
        paired: None,
    })
}

/// Reads the seat this browser keeps in the room (or the one this tab kept before), else makes
/// a new guest, and opens the room. Only the tab that holds the room's lock does this.
pub(super) fn open_room(kind: GameKind, opening: Opening) -> Result<Room, RoomError> {
    let invite = opening.invite;
    let room = invite.room_name();
    let key = seat_key(kind, &room);
    let bad = |e| RoomError::from_open(e, &key);
    let old = web::stored(old_storage_key(kind)).and_then(|t| read_old_seat(&t, &invite));
    let saved = match (seats::stored_seat(&key), old) {
        (Some(saved), _) => Some(saved.map_err(bad)?),
        (None, old) => old,
    };
    // Random bytes only for a new seat: a browser without them still opens the seat it keeps.
    let seed = if saved.is_none() {
        browser::random::<32>()
    } else {
        None
    };
    let mut model = RoomModel::open(invite, saved, seed, browser::now_ms()).map_err(bad)?;
    let parts = model.save_parts();
    let kept = keep_seat(kind, &room, &parts);
    if kept {
        web::forget(old_storage_key(kind));
        model.save_kept(parts.cursor);
    } else {
        model.seat_kept(false);
    }
    model.set_webrtc(client_net::webrtc_available());
    #[cfg(feature = "paired")]
    let pairing = opening.paired.map(|offer| {
        model.set_paired();
        let host = model.session().seat() == engine::session::Seat::Host;
        let invite = model.session().invite().clone();
        Rc::new(Pairing::new(host, invite, offer))
    });
    let (inbox, receiver) = unbounded();
    Ok(Room {
        model: Rc::new(RefCell::new(model)),
        inbox,
        first_peer: Rc::new(Cell::new(None)),
        runner: RefCell::new(Some(receiver)),
        render: Rc::default(),
        #[cfg(feature = "paired")]
        pairing,
    })
}

/// Starts the room's event loop.
pub(super) fn start(room: &Rc<Room>, kind: GameKind) {
    let Some(receiver) = room.runner.borrow_mut().take() else {
        return;
    };
    let tab = Tab {
        kind,
        render: room.render.clone(),
        first_peer: room.first_peer.clone(),
        watch: false,
        #[cfg(feature = "paired")]
        pairing: room.pairing.clone(),
    };
    let runtime = Runtime::new(tab, room.model.clone());
    wasm_bindgen_futures::spawn_local(runtime.run(receiver));
}

impl RoomError {
    /// Why the model could not open the room (`key`: where the storage keeps its seat).
    fn from_open(e: OpenError, key: &str) -> RoomError {
        match e {
            OpenError::BadRules => RoomError::BadRules,
            OpenError::OtherGame(kind, fragment) => {
                RoomError::OtherGame(super::super::Route::Room(kind), fragment)
            }
            OpenError::BadSave => RoomError::BadSave(key.to_string()),
            OpenError::NoRandom => RoomError::NoRandom,
            OpenError::Malformed | OpenError::CannotCreate => RoomError::Malformed,
        }
    }
}
