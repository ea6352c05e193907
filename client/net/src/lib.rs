//! The client's network module: it carries the peer protocol ([`engine::session`]) over a WebRTC
//! data channel opened through the relay.
//!
//! Three parts. [`Driver`], a pure state machine that owns the session and decides everything
//! about the connection (when to open a socket, when one is stale, which peer is ours, what to
//! send). [`Link`], one socket to the relay and the data channels it introduces, which reports
//! what it sees as a stream of [`LinkEvent`]s — the relay admitted it ([`LinkEvent::Joined`]), a
//! channel opened or closed, bytes — (in the browser on its own `WebSocket` and
//! `RTCPeerConnection`, natively on `matchbox_socket`). And [`Runtime`], the one loop that runs
//! them: it awaits the link's next event, the relay's answers, the inbox or the machine's next
//! wake-up, feeds it to the [`Machine`] (the driver, or the page's model that wraps it) and
//! carries out its [`Effect`]s through an [`Env`] — the browser's, or tokio's in the native
//! integration tests. A spectator is driven by [`Watching`] instead of the driver (issue #24),
//! and [`pairing`] writes a connection's offer and answer as short texts for pairing without a
//! relay (issue #25). Seats are keys, not connections: a peer that reconnects gets a new relay
//! id and the session recognises it by its signed entries.
//!
//! ```
//! use client_net::{Driver, Input, Output};
//! use engine::session::{Config, Invite, Session};
//! use engine::GameKind;
//!
//! let invite = Invite::new(GameKind::Meta, 100, [1; 16], [2; 32], [3; 16]);
//! let session = Session::host(invite, [2; 32], Config::default(), 0).unwrap();
//! let mut driver = Driver::<u32>::new(session);
//! assert_eq!(driver.next_wakeup(), Some(0)); // at once: ask the relay about the room
//! assert_eq!(driver.input(Input::Wake, 0), [Output::AskWhy]);
//! // There is room for us: open a socket.
//! assert_eq!(driver.input(Input::Why(Ok(None)), 5), [Output::Connect]);
//! // Nothing to wake for until the link says the relay admitted the socket.
//! assert_eq!(driver.next_wakeup(), None);
//! driver.input(Input::Joined, 30);
//! // The guest's data channel opens: the host offers its heads to resynchronise.
//! let out = driver.input(Input::Peer(7, true), 40);
//! assert!(out.iter().any(|o| matches!(o, Output::Send(7, _))));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod driver;
mod link;
pub mod pairing;
mod runtime;
mod watch;

pub use driver::{
    Down, Driver, Input, NoWebRtc, Output, Relay, DIRECT_MS, FIRST_RETRY_MS, LONELY_MS,
    MAX_RETRY_MS, MAX_UNREADABLE_RETRY_MS, MAX_WATCHERS, STALE_MS,
};
pub use link::{webrtc_available, Link, LinkEvent, PairedLink, PeerId};
pub use relay_api::{IceServer, Refusal};
pub use runtime::{Answer, Connection, Effect, Env, Machine, Pending, Runtime};
pub use watch::Watching;

#[cfg(test)]
mod tests;
