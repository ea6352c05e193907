//! Cross-crate test helpers: a relay on `127.0.0.1:0` and native `matchbox_socket` peers — the
//! very client the browser runs, built natively on webrtc-rs — so that tests drive real WebRTC
//! connections through the real relay.
//!
//! The heavy native WebRTC build lives here, not in `signaling`. The remote-play tests reuse
//! [`Relay`] and [`Peer`] to play whole games between two native peers.
//!
//! ```no_run
//! # #[tokio::main] async fn main() {
//! use integration_tests::{Peer, Relay};
//! let relay = Relay::start().await;
//! let mut host = Peer::connect(&relay.room_url("room1"));
//! let mut guest = Peer::connect(&relay.room_url("room1"));
//! let guest_id = host.wait_for_connected().await;
//! let host_id = guest.wait_for_connected().await;
//! host.send(guest_id, b"hello");
//! assert_eq!(guest.receive_one().await, (host_id, b"hello".to_vec()));
//! relay.stop().await;
//! # }
//! ```
#![forbid(unsafe_code)]

mod player;
pub use player::{probe, NativeLink, Player, Tab};

use std::{collections::VecDeque, time::Duration};

use matchbox_socket::{ChannelConfig, Error, PeerId, PeerState, RtcIceServerConfig, WebRtcSocket};
use tokio::{task::JoinHandle, time::timeout};

pub use matchbox_socket;
pub use signaling;
/// A relay on a free loopback port, inside this process: the one `signaling`'s own tests use.
pub use test_support::Relay;

/// How long a helper waits for something that takes well under a second on loopback.
pub const LIMIT: Duration = Duration::from_secs(20);
const POLL: Duration = Duration::from_millis(5);

/// A native `matchbox_socket` peer with one reliable channel, its message loop spawned on the
/// current tokio runtime.
pub struct Peer {
    /// The socket, for anything the helpers below do not cover.
    pub socket: WebRtcSocket,
    /// The socket's message loop: ends with an error if the relay refuses or drops it.
    pub message_loop: JoinHandle<Result<(), Error>>,
    /// Packets received but not yet handed out by [`Peer::receive_one`].
    inbox: VecDeque<(PeerId, Vec<u8>)>,
}

impl Peer {
    /// Connects to a room URL with an empty ICE server list (loopback needs no STUN; the
    /// default public STUN server is unreachable here and delays connecting by seconds) and a
    /// single connection attempt, so that a refusal ends the message loop at once.
    pub fn connect(room_url: &str) -> Self {
        let (socket, message_loop) = WebRtcSocket::builder(room_url)
            .ice_server(RtcIceServerConfig {
                urls: vec![],
                ..Default::default()
            })
            .reconnect_attempts(Some(1))
            .add_channel(ChannelConfig::reliable())
            .build();
        Self {
            socket,
            message_loop: tokio::spawn(message_loop),
            inbox: VecDeque::new(),
        }
    }

    /// The id the relay assigned, once known (at most [`LIMIT`]).
    pub async fn id(&mut self) -> PeerId {
        timeout(LIMIT, async {
            loop {
                if let Some(id) = self.socket.id() {
                    return id;
                }
                tokio::time::sleep(POLL).await;
            }
        })
        .await
        .expect("no id assigned")
    }

    /// Waits until a peer reaches `state` and returns it. Panics after [`LIMIT`], or if the
    /// socket's loop ends first.
    pub async fn wait_for_peer(&mut self, state: PeerState) -> PeerId {
        timeout(LIMIT, async {
            loop {
                let changes = self
                    .socket
                    .try_update_peers()
                    .expect("the socket's message loop ended");
                if let Some((id, _)) = changes.into_iter().find(|(_, s)| *s == state) {
                    return id;
                }
                tokio::time::sleep(POLL).await;
            }
        })
        .await
        .unwrap_or_else(|_| panic!("no peer became {state:?}"))
    }

    /// Waits until a peer is connected over WebRTC.
    pub async fn wait_for_connected(&mut self) -> PeerId {
        self.wait_for_peer(PeerState::Connected).await
    }

    /// Sends `data` to `peer` on the reliable channel.
    pub fn send(&mut self, peer: PeerId, data: &[u8]) {
        self.socket
            .channel_mut(0)
            .try_send(matchbox_socket::Packet::copy_from_slice(data), peer)
            .expect("send on the data channel");
    }

    /// Waits for the next packet on the reliable channel (at most [`LIMIT`]).
    pub async fn receive_one(&mut self) -> (PeerId, Vec<u8>) {
        timeout(LIMIT, async {
            loop {
                let _ = self.socket.try_update_peers();
                let packets = self.socket.channel_mut(0).receive();
                self.inbox.extend(
                    packets
                        .into_iter()
                        .map(|(peer, packet)| (peer, packet.to_vec())),
                );
                if let Some(packet) = self.inbox.pop_front() {
                    return packet;
                }
                tokio::time::sleep(POLL).await;
            }
        })
        .await
        .expect("no packet received")
    }

    /// Waits for the message loop to end and returns how it ended (at most [`LIMIT`]).
    pub async fn ended(self) -> Result<(), Error> {
        timeout(LIMIT, self.message_loop)
            .await
            .expect("the message loop did not end")
            .expect("the message loop panicked")
    }
}
