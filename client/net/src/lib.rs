//! The client's network module: it carries the peer protocol ([`engine::session`]) over a WebRTC
//! data channel opened through the relay.
//!
//! Two halves: [`Driver`], a pure state machine that owns the session and decides everything about
//! the connection (when to open a socket, when one is stale, which peer is ours, what to send), and
//! [`Link`], one socket to the relay and the data channels it introduces, which reports what it
//! sees as a stream of [`LinkEvent`]s (in the browser on its own `WebSocket` and
//! `RTCPeerConnection`, natively on `matchbox_socket`). Whoever runs them — the browser page, or
//! the native integration tests on tokio — awaits the link's next event or the driver's next
//! wake-up, feeds it to the driver and carries out its [`Output`]s. Seats are keys, not
//! connections: a peer that reconnects gets a new relay id and the session recognises it by its
//! signed entries.
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
//! driver.input(Input::Joined, 30);
//! // The guest's data channel opens: the host offers its heads to resynchronise.
//! let out = driver.input(Input::Peer(7, true), 40);
//! assert!(out.iter().any(|o| matches!(o, Output::Send(7, _))));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod driver;
mod link;

pub use driver::{
    Down, Driver, Input, NoWebRtc, Output, Relay, DIRECT_MS, FIRST_RETRY_MS, JOIN_POLL_MS,
    LONELY_MS, MAX_RETRY_MS, STALE_MS,
};
pub use link::{webrtc_available, Link, LinkEvent, PeerId};
pub use relay_api::{IceServer, Refusal};

#[cfg(test)]
mod tests;
