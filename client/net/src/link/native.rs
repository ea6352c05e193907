//! The link off the browser: one `matchbox_socket` to a room (webrtc-rs), as the native
//! integration tests run it. The only code that touches matchbox.

use super::LinkEvent;
use crate::IceServer;
use futures_core::Stream;
use matchbox_socket::{ChannelConfig, PeerState, RtcIceServerConfig, WebRtcChannel, WebRtcSocket};
use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::task::Poll;

pub use matchbox_socket::PeerId;

/// Whether this process can make WebRTC connections: natively, webrtc-rs always can.
pub fn webrtc_available() -> bool {
    true
}

/// One connection to a room through the relay, and to the peers met there.
pub struct Link {
    socket: WebRtcSocket,
    channel: WebRtcChannel,
    joined: bool,
    closed: bool,
}

impl Link {
    /// Opens a socket on a room URL (`ws(s)://host/ws/<room>`). The returned future is the
    /// socket's message loop: spawn it (`wasm_bindgen_futures::spawn_local`, `tokio::spawn`…);
    /// when it ends, [`Link::next`] says [`LinkEvent::Closed`].
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
        let (mut socket, message_loop) = WebRtcSocket::builder(room_url)
            .ice_server(config)
            .reconnect_attempts(Some(2))
            .add_channel(ChannelConfig::reliable())
            .build();
        let channel = socket.take_channel(0).expect("the socket has one channel");
        (
            Link {
                socket,
                channel,
                joined: false,
                closed: false,
            },
            message_loop,
        )
    }

    /// The next event: waits for a peer's channel to open or close, or for bytes. After
    /// [`LinkEvent::Closed`] it says `Closed` again at once.
    pub async fn next(&mut self) -> LinkEvent {
        poll_fn(|cx| {
            if self.closed {
                return Poll::Ready(LinkEvent::Closed);
            }
            // Peer states first: a peer's packets come after its channel opened.
            match Stream::poll_next(Pin::new(&mut self.socket), cx) {
                Poll::Ready(Some((id, state))) => {
                    return Poll::Ready(LinkEvent::Peer(id, state == PeerState::Connected))
                }
                Poll::Ready(None) => {
                    self.closed = true;
                    return Poll::Ready(LinkEvent::Closed);
                }
                Poll::Pending => {}
            }
            match Stream::poll_next(Pin::new(&mut self.channel), cx) {
                Poll::Ready(Some((id, packet))) => {
                    Poll::Ready(LinkEvent::Packet(id, packet.to_vec()))
                }
                Poll::Ready(None) => {
                    self.closed = true;
                    Poll::Ready(LinkEvent::Closed)
                }
                Poll::Pending => Poll::Pending,
            }
        })
        .await
    }

    /// True the first time it is called after the relay admitted the socket to the room (it
    /// assigned an id). The relay says so without waking anyone: call it after each event and
    /// wake-up.
    pub fn newly_joined(&mut self) -> bool {
        if self.joined || self.socket.id().is_none() {
            return false;
        }
        self.joined = true;
        true
    }

    /// Sends bytes to a peer; false when the channel is gone.
    pub fn send(&mut self, peer: PeerId, bytes: Vec<u8>) -> bool {
        self.channel.try_send(bytes.into(), peer).is_ok()
    }
}
