//! The link off the browser: one `matchbox_socket` to a room (webrtc-rs), as the native
//! integration tests run it. The only code that touches matchbox.

use super::LinkEvent;
use crate::IceServer;
use futures_core::Stream;
use matchbox_socket::{ChannelConfig, PeerState, RtcIceServerConfig, WebRtcChannel, WebRtcSocket};
use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Poll, Waker};

pub use matchbox_socket::PeerId;

/// Whether this process can make WebRTC connections: natively, webrtc-rs always can.
pub fn webrtc_available() -> bool {
    true
}

/// One connection to a room through the relay, and to the peers met there.
pub struct Link {
    /// The socket and its channel (`None`: a link paired by hand, which natively never opens).
    socket: Option<(WebRtcSocket, WebRtcChannel)>,
    /// Wakes [`Link::next`] until it has said [`LinkEvent::Joined`].
    watch: Arc<JoinWatch>,
    closed: bool,
}

/// How the link learns that the relay admitted its socket. matchbox hands the id the relay
/// assigned (`IdAssigned`) to the socket through a private channel that only
/// `WebRtcSocket::id` reads — it takes no waker, and the socket's stream says nothing of it —
/// and its default signaller cannot be wrapped (`NativeSignallerBuilder` is private). But only
/// the message loop moves that id: the loop we hand out is wrapped so that each of its turns
/// wakes the task waiting in [`Link::next`], which then looks at `id()`, until it has seen one.
/// No timer, and no wake-up once joined.
#[derive(Default)]
struct JoinWatch {
    joined: AtomicBool,
    reader: Mutex<Option<Waker>>,
}

impl JoinWatch {
    /// After a turn of the message loop: the id may have come.
    fn turned(&self) {
        if self.joined.load(Ordering::Acquire) {
            return;
        }
        let reader = self.reader.lock().ok().and_then(|mut r| r.take());
        if let Some(waker) = reader {
            waker.wake();
        }
    }
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
        let watch = Arc::new(JoinWatch::default());
        let mut inner = message_loop;
        let turns = watch.clone();
        let message_loop = poll_fn(move |cx| {
            let done = inner.as_mut().poll(cx);
            turns.turned();
            done
        });
        (
            Link {
                socket: Some((socket, channel)),
                watch,
                closed: false,
            },
            message_loop,
        )
    }

    /// A link paired by hand, as the browser's is: natively there is none (pairing without a
    /// relay is a browser's; matchbox_socket needs a relay), so it says [`LinkEvent::Closed`]
    /// at once and its [`PairedLink`] describes nothing.
    pub fn paired(
        _ice: &[IceServer],
        _ready: std::rc::Rc<dyn Fn()>,
    ) -> (
        Link,
        impl Future<Output = Result<(), matchbox_socket::Error>>,
    ) {
        let link = Link {
            socket: None,
            watch: Arc::default(),
            closed: true,
        };
        (link, std::future::ready(Ok(())))
    }

    /// The page's hold on a link paired by hand (natively, on nothing).
    pub fn paired_link(&self) -> PairedLink {
        PairedLink
    }

    /// The next event: waits for the relay to admit the socket, for a peer's channel to open or
    /// close, or for bytes. After [`LinkEvent::Closed`] it says `Closed` again at once.
    pub async fn next(&mut self) -> LinkEvent {
        poll_fn(|cx| {
            let Some((socket, channel)) = self.socket.as_mut().filter(|_| !self.closed) else {
                return Poll::Ready(LinkEvent::Closed);
            };
            if !self.watch.joined.load(Ordering::Acquire) {
                // The waker first: a turn of the loop in between wakes us again.
                if let Ok(mut reader) = self.watch.reader.lock() {
                    *reader = Some(cx.waker().clone());
                }
                if socket.id().is_some() {
                    self.watch.joined.store(true, Ordering::Release);
                    return Poll::Ready(LinkEvent::Joined);
                }
            }
            // Peer states first: a peer's packets come after its channel opened.
            match Stream::poll_next(Pin::new(&mut *socket), cx) {
                Poll::Ready(Some((id, state))) => {
                    return Poll::Ready(LinkEvent::Peer(id, state == PeerState::Connected))
                }
                Poll::Ready(None) => {
                    self.closed = true;
                    return Poll::Ready(LinkEvent::Closed);
                }
                Poll::Pending => {}
            }
            match Stream::poll_next(Pin::new(&mut *channel), cx) {
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

    /// Sends bytes to a peer; false when the channel is gone.
    pub fn send(&mut self, peer: PeerId, bytes: Vec<u8>) -> bool {
        self.socket
            .as_mut()
            .is_some_and(|(_, channel)| channel.try_send(bytes.into(), peer).is_ok())
    }
}

/// The page's hold on a link paired by hand: natively there is none ([`Link::paired`]), so
/// it does nothing and describes nothing.
#[derive(Clone)]
pub struct PairedLink;

impl PairedLink {
    /// Nothing natively.
    pub fn offer(&self) {}

    /// Nothing natively.
    pub fn answer(&self, _offer: String) {}

    /// Nothing natively: no offer waits.
    pub fn accept(&self, _answer: String) -> bool {
        false
    }

    /// None natively.
    pub fn description(&self) -> Option<String> {
        None
    }

    /// Never natively.
    pub fn alive(&self) -> bool {
        false
    }
}
