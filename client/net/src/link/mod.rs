//! One socket to a room, as a stream of events ([`LinkEvent`]): the relay's websocket and the
//! WebRTC data channels it introduces. Two implementations of one API, chosen here and nowhere
//! else:
//!
//! - in the browser (`wasm32`), `web`: written on the browser's own `WebSocket` and
//!   `RTCPeerConnection` (web-sys), speaking the relay's matchbox protocol itself
//!   (`protocol`). `matchbox_socket` and what it brings into a browser build (serde_json,
//!   ws_stream_wasm, pharos, uuid, futures-util, timers) were 57 KB of the room's 243 KB
//!   gzipped wasm;
//! - natively, `native`: `matchbox_socket` on webrtc-rs, which the integration tests drive
//!   through the real relay.
//!
//! Both behave as matchbox does: the peer already in the room offers a connection to the
//! newcomer; one reliable, ordered data channel per peer, negotiated (id 0) on both sides; a
//! socket whose relay connection ends stays up while a data channel is open, and says
//! [`LinkEvent::Closed`] once none is.
//!
//! A browser without WebRTC ([`webrtc_available`] false: turned off, as Firefox's
//! `media.peerconnection.enabled=false` does, or built without it) still joins the room through
//! the relay, and tells each peer it meets there that no connection will come from it (a
//! `NoWebRtc` signal), so that both pages can say why instead of blaming the network.

#[cfg(any(target_arch = "wasm32", test))]
mod protocol;

#[cfg(not(target_arch = "wasm32"))]
mod native;
#[cfg(not(target_arch = "wasm32"))]
pub use native::{webrtc_available, Link, PairedLink, PeerId};

#[cfg(target_arch = "wasm32")]
mod web;
#[cfg(target_arch = "wasm32")]
pub use web::{webrtc_available, Link, PairedLink, PeerId};

/// What a socket reports (`P`: how it names the peers it meets).
#[derive(Debug, PartialEq, Eq)]
pub enum LinkEvent<P = PeerId> {
    /// The relay admitted the socket to the room (it assigned it an id): said once, before any
    /// peer.
    Joined,
    /// The data channel to a peer opened (`true`) or closed (`false`).
    Peer(P, bool),
    /// The data channel to a spectator opened (`true`) or closed (`false`): a player's link only
    /// (the browser's; the relay names spectators to the players, who offer them a
    /// connection). Its bytes come as [`LinkEvent::Packet`].
    Watcher(P, bool),
    /// Bytes from a peer.
    Packet(P, Vec<u8>),
    /// A peer's browser cannot make WebRTC connections (turned off or missing there): it said
    /// so through the relay, and no data channel will open with it.
    NoWebRtc(P),
    /// The socket is gone (refused by the relay, the relay gone, or its message loop ended):
    /// drop the link; a new one can be opened.
    Closed,
}
