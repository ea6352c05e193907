//! The client's network module, and the only code that touches `matchbox_socket`: it carries
//! the peer protocol ([`engine::session`]) over a WebRTC data channel opened through the relay.
//!
//! A [`Link`] owns one socket. [`Link::pump`] moves everything one step: peer connections and
//! disconnections, incoming bytes and timers go into the [`Session`]; the bytes it wants sent go
//! to the peer; what is left (save the transcript, events for the UI) is returned. The same
//! code runs in the browser (wasm, driven by an interval) and natively (webrtc-rs, in the
//! integration tests). Seats are keys, not connections: a peer that reconnects gets a new
//! matchbox id and the session recognises it by its signed entries.
//!
//! ```no_run
//! use client_net::{IceServer, Link};
//! use engine::session::{Config, Invite, Session};
//! use engine::GameKind;
//!
//! let invite = Invite::new(GameKind::Meta, 100, [1; 16], [2; 32], [3; 16]);
//! let mut session = Session::host(invite.clone(), [2; 32], Config::default(), 0).unwrap();
//! let (mut link, message_loop) =
//!     Link::connect(&format!("ws://127.0.0.1:3536/ws/{}", invite.room_name()), &[]);
//! // Spawn `message_loop` on the runtime (wasm_bindgen_futures::spawn_local, tokio::spawn…),
//! // then call `link.pump(&mut session, now_ms)` every few tens of milliseconds.
//! # drop(message_loop);
//! let _effects = link.pump(&mut session, 0);
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use engine::session::{Command, CommandError, Effect, Session};
use matchbox_socket::{ChannelConfig, PeerId, PeerState, RtcIceServerConfig, WebRtcSocket};
use std::future::Future;

/// A STUN or TURN server, as the relay's `/ice-servers` endpoint lists them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IceServer {
    /// `stun:` or `turn:` URLs.
    pub urls: Vec<String>,
    /// TURN user name.
    pub username: Option<String>,
    /// TURN credential.
    pub credential: Option<String>,
}

/// One connection to a room through the relay, and to the peer met there.
pub struct Link {
    socket: WebRtcSocket,
    /// The matchbox id of the peer we exchange with (at most one: rooms hold two).
    peer: Option<PeerId>,
    closed: bool,
}

impl Link {
    /// Opens a socket on a room URL (`ws(s)://host/ws/<room>`). The returned future is the
    /// socket's message loop: spawn it; it ends when the relay refuses or drops the socket.
    ///
    /// An empty `ice` list means host candidates only (loopback and LANs); matchbox's default
    /// public STUN server is never used.
    pub fn connect(
        room_url: &str,
        ice: &[IceServer],
    ) -> (
        Link,
        impl Future<Output = Result<(), matchbox_socket::Error>>,
    ) {
        // matchbox takes one ICE server entry with several URLs; TURN credentials are shared.
        let config = RtcIceServerConfig {
            urls: ice.iter().flat_map(|s| s.urls.iter().cloned()).collect(),
            username: ice.iter().find_map(|s| s.username.clone()),
            credential: ice.iter().find_map(|s| s.credential.clone()),
        };
        let (socket, message_loop) = WebRtcSocket::builder(room_url)
            .ice_server(config)
            .reconnect_attempts(Some(2))
            .add_channel(ChannelConfig::reliable())
            .build();
        (
            Link {
                socket,
                peer: None,
                closed: false,
            },
            message_loop,
        )
    }

    /// True once the socket is gone (refused by the relay, the relay gone, or closed): open a
    /// new link to continue; the session keeps the game.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// True while the data channel to the peer is open.
    pub fn has_peer(&self) -> bool {
        self.peer.is_some()
    }

    /// Moves everything one step at time `now` (ms); returns the effects for the caller
    /// (`Save` and `Event`s): the `Send`s went to the peer.
    pub fn pump(&mut self, session: &mut Session, now: u64) -> Vec<Effect> {
        let mut effects = Vec::new();
        match self.socket.try_update_peers() {
            Ok(changes) => {
                for (id, state) in changes {
                    match state {
                        PeerState::Connected => {
                            // Rooms hold two: a new peer means the old one left, even if its
                            // channel has not said so yet (a frozen or half-closed connection).
                            if let Some(old) = self.peer.replace(id) {
                                if old != id {
                                    effects.extend(session.peer_disconnected(now));
                                }
                            }
                            effects.extend(session.peer_connected(now));
                        }
                        PeerState::Disconnected => {
                            if self.peer == Some(id) {
                                self.peer = None;
                                effects.extend(session.peer_disconnected(now));
                            }
                        }
                    }
                }
            }
            Err(_) => self.close(session, now, &mut effects),
        }
        if !self.closed {
            if let Ok(channel) = self.socket.get_channel_mut(0) {
                for (from, bytes) in channel.receive() {
                    if Some(from) == self.peer {
                        effects.extend(session.receive(&bytes, now));
                    }
                }
            }
        }
        if session.next_wakeup().is_some_and(|t| t <= now) {
            effects.extend(session.tick(now));
        }
        self.route(effects, session, now)
    }

    /// Does what the local player asked and sends it; the effects left for the caller.
    pub fn act(
        &mut self,
        session: &mut Session,
        command: Command,
        now: u64,
    ) -> Result<Vec<Effect>, CommandError> {
        let effects = session.act(command, now)?;
        Ok(self.route(effects, session, now))
    }

    fn close(&mut self, session: &mut Session, now: u64, effects: &mut Vec<Effect>) {
        if !self.closed {
            self.closed = true;
            if self.peer.take().is_some() {
                effects.extend(session.peer_disconnected(now));
            }
        }
    }

    /// Sends the `Send` effects to the peer (dropped when there is none: the heads exchange on
    /// the next connection brings the peer up to date) and returns the others.
    fn route(&mut self, effects: Vec<Effect>, session: &mut Session, now: u64) -> Vec<Effect> {
        let mut rest = Vec::new();
        for e in effects {
            match e {
                Effect::Send(bytes) => {
                    let sent = match (self.peer, self.socket.get_channel_mut(0)) {
                        (Some(peer), Ok(channel)) => channel.try_send(bytes.into(), peer).is_ok(),
                        _ => true,
                    };
                    if !sent {
                        // The channel died under us: the peer is gone until it reconnects.
                        if self.peer.take().is_some() {
                            rest.extend(session.peer_disconnected(now));
                        }
                    }
                }
                other => rest.push(other),
            }
        }
        rest
    }
}
