//! `/moulin/salon#…`, `/meta-morpion/salon#…`: a remote room (`/moulin/sans-serveur#…`, one paired
//! by hand: the same page, its links paired ones). The page reads the invitation and
//! this tab's saved seat, has the model open the room ([`RoomModel::open`]), starts its event
//! loop (`client_net::Runtime`, in the browser's environment: [`env`]) and renders the model's
//! [`View`]; every click goes to the loop as an event. `/moulin/regarder#…`: a spectator of one
//! (`watch`), the same loop around the spectator's model.
//!
//! [`RoomModel::open`]: crate::model::room::RoomModel::open
//! [`View`]: crate::model::room::View

// The room's page (feature `remote`, and `paired` for a room paired by hand: the same page, its
// links paired ones) and the spectator's (feature `watch`, its own bundle) share the browser's
// environment for the event loop and a few parts.
#[cfg(any(feature = "remote", feature = "paired"))]
mod body;
mod env;
#[cfg(any(feature = "remote", feature = "paired"))]
mod errors;
#[cfg(any(feature = "remote", feature = "paired"))]
mod open;
#[cfg(feature = "paired")]
mod pairing;
mod parts;
#[cfg(any(feature = "remote", feature = "paired"))]
mod tab;
#[cfg(feature = "watch")]
mod watch;
mod web;

#[cfg(any(feature = "remote", feature = "paired"))]
pub use tab::RoomPage;
#[cfg(feature = "watch")]
pub use watch::WatchPage;
