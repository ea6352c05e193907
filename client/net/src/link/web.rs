//! The link in the browser, on the browser's own `WebSocket` and `RTCPeerConnection`: the
//! relay's matchbox protocol ([`protocol`]) spoken directly, without `matchbox_socket`.
//!
//! As matchbox does it: the relay tells the peer already in the room about the newcomer
//! (`NewPeer`), and that peer offers. Each side makes one `RTCPeerConnection` per peer with one
//! reliable, ordered data channel, negotiated (id 0) so that neither waits for the other's; each
//! side waits until its ICE candidates are gathered and sends them inside its description (no
//! trickling: matchbox found NAT traversal worse with it), and adds the candidates a peer trickles
//! all the same. A channel that opens says [`LinkEvent::Peer`]`(id, true)`; its closing, its
//! connection failing or `PeerLeft` say `Peer(id, false)`, once. When the relay's websocket ends
//! the peers whose channel is open carry on, and the link says [`LinkEvent::Closed`] once none
//! is. Dropping the link closes the websocket and every connection it made.
//!
//! A browser without `RTCPeerConnection` ([`webrtc_available`]) joins the room all the same and
//! answers each peer it meets (`NewPeer`, or its offer) with a `NoWebRtc` signal, once per peer;
//! a peer that says so is reported as [`LinkEvent::NoWebRtc`] and its connection closed.
//!
//! A link can also be **paired by hand** ([`Link::paired`], issue #25): no websocket, one peer
//! ([`PeerId::PAIRED`]), whose description the page carries as a text ([`PairedLink`]): the host
//! makes the offer, the guest answers the offer pasted into its page, the host takes the answer
//! pasted back. It says [`LinkEvent::Joined`] at once, and ends ([`LinkEvent::Closed`]) with its
//! peer's connection: without a relay nothing can introduce them again, a new link needs a new
//! exchange of texts.
//!
//! Everything the browser calls back (websocket, channels, connections, promises) comes through
//! [`Shared::update`]; handlers are unset before their connection closes, so nothing calls into
//! a link that is gone. Malformed messages, signals of unknown peers and refused descriptions
//! are ignored or end that one peer's connection.

use super::protocol::{self, Event, Json, Signal};
use super::LinkEvent;
use crate::IceServer;
use js_sys::{Array, ArrayBuffer, Reflect, Uint8Array, JSON};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::convert::Infallible;
use std::future::{poll_fn, Future};
use std::rc::{Rc, Weak};
use std::task::{Poll, Waker};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{
    MessageEvent, RtcConfiguration, RtcDataChannel, RtcDataChannelInit, RtcDataChannelType,
    RtcIceConnectionState as Ice, RtcIceGatheringState, RtcIceServer, RtcPeerConnection,
    RtcPeerConnectionState as Conn, RtcSdpType, RtcSessionDescriptionInit, WebSocket,
};

pub use super::protocol::PeerId;

/// Players a link talks to at once: a room holds two, and a peer that left may linger a moment.
/// More are ignored.
const MAX_PEERS: usize = 4;

/// Spectators a player's link talks to at once (the relay's default cap); more are ignored.
const MAX_WATCHERS: usize = 8;

/// Bytes a spectator's channel may hold unsent: past that, the spectator reads too slowly and
/// its connection is dropped rather than waited for (the players never slow down for it).
const WATCHER_BACKLOG: u32 = 1 << 20;

/// Peers a link without WebRTC remembers having told so (a peer that reconnects comes back under
/// a new id and is told again).
const MAX_TOLD: usize = 8;

/// A function the browser calls on an event.
type Handler = Closure<dyn FnMut(JsValue)>;

/// Whether this browser can make WebRTC connections: `RTCPeerConnection` exists (a privacy
/// setting such as Firefox's `media.peerconnection.enabled=false` removes it). Asked with
/// `Reflect`: web-sys has no typed way to ask whether a global exists.
pub fn webrtc_available() -> bool {
    Reflect::get(&js_sys::global(), &"RTCPeerConnection".into()).is_ok_and(|v| v.is_function())
}

/// One connection to a room through the relay, and to the peers met there.
pub struct Link {
    shared: Rc<Shared>,
}

/// What the link and the browser's callbacks share.
struct Shared {
    me: Weak<Shared>,
    /// The relay's websocket (`None` if the browser refused the URL, or the link is paired).
    ws: Option<WebSocket>,
    /// A link paired by hand: told when our description is ready for the page to show.
    paired: Option<Rc<dyn Fn()>>,
    /// The `RTCConfiguration` of every peer connection (the ICE servers).
    config: RtcConfiguration,
    /// This browser has `RTCPeerConnection`.
    webrtc: bool,
    state: RefCell<State>,
}

#[derive(Default)]
struct State {
    /// What [`Link::next`] has to say, in order.
    events: VecDeque<LinkEvent>,
    /// The task waiting in [`Link::next`].
    reader: Option<Waker>,
    /// The task waiting for the message loop to end.
    loop_waiter: Option<Waker>,
    /// The relay's websocket is gone.
    relay_gone: bool,
    /// Everything is closed.
    closed: bool,
    peers: Vec<Peer>,
    /// The websocket's handlers, kept while the browser may call them.
    _handlers: Vec<Handler>,
    /// The key of the last peer connection made.
    last_key: u32,
    /// Without WebRTC: the peers told so, newest last.
    told: VecDeque<PeerId>,
    /// A paired link: our description, gathered, for the page to carry to the peer.
    described: Option<String>,
}

/// One peer's connection.
struct Peer {
    /// Which connection (a peer id could come back after its connection failed).
    key: u32,
    id: PeerId,
    conn: RtcPeerConnection,
    channel: RtcDataChannel,
    /// We offered (the peer came after us, or it is a spectator).
    offerer: bool,
    /// A spectator (the relay said `Watcher`): its channel says [`LinkEvent::Watcher`].
    watcher: bool,
    /// The data channel is open (and said so).
    open: bool,
    /// The offerer got its answer.
    answered: bool,
    /// The peer's description is set: its candidates can be added.
    remote_set: bool,
    /// Candidates that came before the peer's description.
    candidates: Vec<JsValue>,
    /// Our description went to the peer.
    described: bool,
    /// Its channel's and connection's handlers, kept while the browser may call them.
    _handlers: Vec<Handler>,
}

impl Peer {
    /// Closes the connection, its handlers unset first.
    fn close(&self) {
        self.channel.set_onopen(None);
        self.channel.set_onmessage(None);
        self.channel.set_onclose(None);
        self.conn.set_onconnectionstatechange(None);
        self.conn.set_oniceconnectionstatechange(None);
        self.conn.set_onicegatheringstatechange(None);
        self.channel.close();
        self.conn.close();
    }
}

impl Link {
    /// Opens a socket on a room URL (`ws(s)://host/ws/<room>`). The returned future is the
    /// socket's message loop: spawn it (`wasm_bindgen_futures::spawn_local`); it ends when the
    /// link closes, and then [`Link::next`] says [`LinkEvent::Closed`] (in the browser the
    /// callbacks do the work, so it only waits; it never fails, but says `Result` as the
    /// native link's does).
    ///
    /// An empty `ice` list means host candidates only (loopback and LANs).
    pub fn connect(
        room_url: &str,
        ice: &[IceServer],
    ) -> (Link, impl Future<Output = Result<(), Infallible>>) {
        let shared = Rc::new_cyclic(|me: &Weak<Shared>| {
            let mut state = State::default();
            let ws = WebSocket::new(room_url).ok();
            match &ws {
                Some(ws) => {
                    let message = handler(me, |s, st, e| {
                        let text = e.unchecked_into::<MessageEvent>().data().as_string();
                        let json = text.and_then(|t| JSON::parse(&t).ok());
                        if let Some(event) = json.as_ref().and_then(protocol::event) {
                            s.relay_said(st, event);
                        }
                    });
                    // An error is followed by a close: the close says both.
                    let close = handler(me, |s, st, _| s.relay_gone(st));
                    ws.set_onmessage(Some(message.as_ref().unchecked_ref()));
                    ws.set_onclose(Some(close.as_ref().unchecked_ref()));
                    state._handlers = vec![message, close];
                }
                None => state.closed = true,
            }
            Shared {
                me: me.clone(),
                ws,
                paired: None,
                config: rtc_configuration(ice),
                webrtc: webrtc_available(),
                state: RefCell::new(state),
            }
        });
        Link::run(shared)
    }

    /// A link paired by hand, with no relay: it says [`LinkEvent::Joined`] at once; the page
    /// starts the offer or answers one through its [`PairedLink`], and `ready` is called (soon
    /// after, never from inside the link) when our description is there to show. It ends with
    /// its peer's connection.
    pub fn paired(
        ice: &[IceServer],
        ready: Rc<dyn Fn()>,
    ) -> (Link, impl Future<Output = Result<(), Infallible>>) {
        let shared = Rc::new_cyclic(|me: &Weak<Shared>| {
            let state = State {
                relay_gone: true,
                events: VecDeque::from([LinkEvent::Joined]),
                ..State::default()
            };
            Shared {
                me: me.clone(),
                ws: None,
                paired: Some(ready),
                config: rtc_configuration(ice),
                webrtc: webrtc_available(),
                state: RefCell::new(state),
            }
        });
        Link::run(shared)
    }

    /// The page's hold on a link paired by hand.
    pub fn paired_link(&self) -> PairedLink {
        PairedLink(Rc::downgrade(&self.shared))
    }

    /// The link and its message loop.
    fn run(shared: Rc<Shared>) -> (Link, impl Future<Output = Result<(), Infallible>>) {
        let me = Rc::downgrade(&shared);
        let message_loop = poll_fn(move |cx| match me.upgrade() {
            Some(s) if !s.state.borrow().closed => {
                s.state.borrow_mut().loop_waiter = Some(cx.waker().clone());
                Poll::Pending
            }
            _ => Poll::Ready(Ok(())),
        });
        (Link { shared }, message_loop)
    }

    /// The next event: waits for a peer's channel to open or close, or for bytes. After
    /// [`LinkEvent::Closed`] it says `Closed` again at once.
    pub async fn next(&mut self) -> LinkEvent {
        poll_fn(|cx| {
            let mut st = self.shared.state.borrow_mut();
            if let Some(event) = st.events.pop_front() {
                return Poll::Ready(event);
            }
            if st.closed {
                return Poll::Ready(LinkEvent::Closed);
            }
            st.reader = Some(cx.waker().clone());
            Poll::Pending
        })
        .await
    }

    /// Sends bytes to a peer; false when its channel is not open.
    pub fn send(&mut self, peer: PeerId, bytes: Vec<u8>) -> bool {
        let slow = {
            let st = self.shared.state.borrow();
            let Some(p) = st.peers.iter().find(|p| p.id == peer && p.open) else {
                return false;
            };
            if !(p.watcher && p.channel.buffered_amount() > WATCHER_BACKLOG) {
                return p.channel.send_with_u8_array(&bytes).is_ok();
            }
            p.key
        };
        // A spectator that reads too slowly is dropped, not waited for.
        self.shared.update(|s, st| s.end_key(st, slow));
        false
    }
}

/// The page's hold on a link paired by hand ([`Link::paired`]): nothing once the link is gone.
#[derive(Clone)]
pub struct PairedLink(Weak<Shared>);

impl PairedLink {
    /// The host: makes the offer (once; [`PairedLink::description`] gives it once gathered).
    pub fn offer(&self) {
        self.with(|s, st| {
            if st.peers.is_empty() {
                s.add_peer(st, PeerId::PAIRED, None, false);
            }
        });
    }

    /// The guest: answers this offer (its SDP). An offer pasted anew while no channel is open
    /// replaces the attempt before.
    pub fn answer(&self, offer: String) {
        self.with(|s, st| {
            if st.peers.iter().any(|p| p.open) {
                return;
            }
            if let Some(i) = st.index_of_id(PeerId::PAIRED) {
                st.peers.remove(i).close();
            }
            st.described = None;
            s.add_peer(st, PeerId::PAIRED, Some(offer), false);
        });
    }

    /// The host: takes the guest's answer (its SDP); false when there is no offer waiting for
    /// one (none made, or already answered).
    pub fn accept(&self, answer: String) -> bool {
        let mut taken = false;
        self.with(|s, st| {
            if let Some(p) = st.index_of_id(PeerId::PAIRED).map(|i| &mut st.peers[i]) {
                if p.offerer && !p.answered {
                    p.answered = true;
                    taken = true;
                    spawn_local(accept(s.me.clone(), p.key, p.conn.clone(), answer));
                }
            }
        });
        taken
    }

    /// Our description (SDP), once its candidates are gathered.
    pub fn description(&self) -> Option<String> {
        let s = self.0.upgrade()?;
        let st = s.state.borrow();
        st.described.clone()
    }

    /// True while the link is there (not closed).
    pub fn alive(&self) -> bool {
        self.0.upgrade().is_some_and(|s| !s.state.borrow().closed)
    }

    fn with(&self, f: impl FnOnce(&Shared, &mut State)) {
        if let Some(s) = self.0.upgrade() {
            s.update(f);
        }
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        self.shared.update(Shared::close);
    }
}

/// A handler that runs `f` on the link's state, if the link is still there.
fn handler(me: &Weak<Shared>, f: impl Fn(&Shared, &mut State, JsValue) + 'static) -> Handler {
    let me = me.clone();
    Closure::new(move |e: JsValue| {
        if let Some(s) = me.upgrade() {
            s.update(|s, st| f(s, st, e));
        }
    })
}

impl Shared {
    /// Runs `f` on the state, then wakes whoever waits for what it did.
    fn update(&self, f: impl FnOnce(&Shared, &mut State)) {
        let (reader, loop_waiter) = {
            let mut st = self.state.borrow_mut();
            f(self, &mut st);
            let news = !st.events.is_empty() || st.closed;
            let reader = if news { st.reader.take() } else { None };
            let loop_waiter = if st.closed {
                st.loop_waiter.take()
            } else {
                None
            };
            (reader, loop_waiter)
        };
        for waker in [reader, loop_waiter].into_iter().flatten() {
            waker.wake();
        }
    }

    /// After an asynchronous step of peer `key`'s negotiation: if the peer is still there, `f`
    /// when the step succeeded, else the connection ends. True if the negotiation goes on.
    fn after(me: &Weak<Shared>, key: u32, ok: bool, f: fn(&Shared, &mut State, usize)) -> bool {
        let Some(s) = me.upgrade() else {
            return false;
        };
        let mut going_on = false;
        s.update(|s, st| {
            if let Some(i) = st.index_of(key) {
                if ok {
                    f(s, st, i);
                    going_on = true;
                } else {
                    s.end(st, i);
                }
            }
        });
        going_on
    }

    fn relay_said(&self, st: &mut State, event: Event) {
        match event {
            Event::IdAssigned(_) => st.events.push_back(LinkEvent::Joined),
            Event::NewPeer(id) | Event::Signal(id, Signal::Offer(_)) if !self.webrtc => {
                self.tell_no_webrtc(st, id)
            }
            Event::NewPeer(id) => self.add_peer(st, id, None, false),
            Event::Watcher(id) if self.webrtc => self.add_peer(st, id, None, true),
            Event::Watcher(_) => {}
            Event::PeerLeft(id) => {
                if let Some(i) = st.index_of_id(id) {
                    self.end(st, i);
                }
            }
            Event::Signal(id, Signal::Offer(sdp)) => self.add_peer(st, id, Some(sdp), false),
            Event::Signal(id, Signal::Answer(sdp)) => {
                if let Some(p) = st.index_of_id(id).map(|i| &mut st.peers[i]) {
                    if p.offerer && !p.answered {
                        p.answered = true;
                        spawn_local(accept(self.me.clone(), p.key, p.conn.clone(), sdp));
                    }
                }
            }
            Event::Signal(id, Signal::NoWebRtc) => {
                if let Some(i) = st.index_of_id(id) {
                    self.end(st, i);
                }
                st.events.push_back(LinkEvent::NoWebRtc(id));
            }
            Event::Signal(id, Signal::IceCandidate(json)) => {
                // The JSON of an `RTCIceCandidateInit`; `null` (no more candidates) needs nothing.
                let candidate = JSON::parse(&json).ok().filter(JsValue::is_object);
                if let (Some(i), Some(c)) = (st.index_of_id(id), candidate) {
                    let p = &mut st.peers[i];
                    if p.remote_set {
                        add_candidate(&p.conn, &c);
                    } else {
                        p.candidates.push(c);
                    }
                }
            }
        }
    }

    /// Without WebRTC: tells a peer met in the room that no connection will come from us, once.
    fn tell_no_webrtc(&self, st: &mut State, id: PeerId) {
        if st.told.contains(&id) {
            return;
        }
        if st.told.len() == MAX_TOLD {
            st.told.pop_front();
        }
        st.told.push_back(id);
        if let Some(ws) = &self.ws {
            let _ = ws.send_with_str(&protocol::signal_request(id, &Signal::NoWebRtc));
        }
    }

    /// A connection to a new peer: we offer it (`offer` is `None`), or answer its offer; a
    /// spectator (`watcher`) is offered one.
    fn add_peer(&self, st: &mut State, id: PeerId, offer: Option<String>, watcher: bool) {
        let (kind, max) = match watcher {
            true => (st.peers.iter().filter(|p| p.watcher).count(), MAX_WATCHERS),
            false => (st.peers.iter().filter(|p| !p.watcher).count(), MAX_PEERS),
        };
        if st.closed || kind >= max || st.index_of_id(id).is_some() {
            return;
        }
        let Ok(conn) = RtcPeerConnection::new_with_configuration(&self.config) else {
            return;
        };
        let init = RtcDataChannelInit::new();
        init.set_negotiated(true);
        init.set_id(0);
        init.set_ordered(true);
        let channel = conn.create_data_channel_with_data_channel_dict("matchbox_socket_0", &init);
        channel.set_binary_type(RtcDataChannelType::Arraybuffer);
        st.last_key += 1;
        let key = st.last_key;
        let me = &self.me;
        let handlers = vec![
            handler(me, move |_, st, _| st.opened(key)),
            handler(me, move |_, st, e| st.received(key, e)),
            handler(me, move |s, st, _| s.end_key(st, key)),
            handler(me, move |s, st, _| s.state_changed(st, key)),
            handler(me, move |s, st, _| s.describe_key(st, key)),
        ];
        let f = |i: usize| Some(handlers[i].as_ref().unchecked_ref());
        channel.set_onopen(f(0));
        channel.set_onmessage(f(1));
        channel.set_onclose(f(2));
        conn.set_onconnectionstatechange(f(3));
        // Also watched for browsers without `connectionState` (and Firefox, which dropped
        // connections without such a handler: matchbox's issue 36).
        conn.set_oniceconnectionstatechange(f(3));
        conn.set_onicegatheringstatechange(f(4));
        let offerer = offer.is_none();
        spawn_local(negotiate(self.me.clone(), key, conn.clone(), offer));
        st.peers.push(Peer {
            key,
            id,
            conn,
            channel,
            offerer,
            watcher,
            open: false,
            answered: false,
            remote_set: false,
            candidates: Vec::new(),
            described: false,
            _handlers: handlers,
        });
    }

    /// The peer's description is set: the candidates that came before it are added.
    fn remote_set(&self, st: &mut State, i: usize) {
        let p = &mut st.peers[i];
        p.remote_set = true;
        for c in std::mem::take(&mut p.candidates) {
            add_candidate(&p.conn, &c);
        }
    }

    fn describe_key(&self, st: &mut State, key: u32) {
        if let Some(i) = st.index_of(key) {
            self.describe(st, i);
        }
    }

    /// Once our description is set and its candidates gathered, sends it to the peer.
    fn describe(&self, st: &mut State, i: usize) {
        let p = &mut st.peers[i];
        if p.described || p.conn.ice_gathering_state() != RtcIceGatheringState::Complete {
            return;
        }
        let Some(ours) = p.conn.local_description() else {
            return;
        };
        p.described = true;
        let sdp = ours.sdp();
        if let Some(ready) = &self.paired {
            st.described = Some(sdp);
            let ready = ready.clone();
            spawn_local(async move { ready() });
            return;
        }
        let signal = if p.offerer {
            Signal::Offer(sdp)
        } else {
            Signal::Answer(sdp)
        };
        if let Some(ws) = &self.ws {
            let _ = ws.send_with_str(&protocol::signal_request(p.id, &signal));
        }
    }

    fn state_changed(&self, st: &mut State, key: u32) {
        let Some(i) = st.index_of(key) else {
            return;
        };
        let conn = &st.peers[i].conn;
        if matches!(conn.connection_state(), Conn::Failed | Conn::Closed)
            || matches!(conn.ice_connection_state(), Ice::Failed | Ice::Closed)
        {
            self.end(st, i);
        }
    }

    fn end_key(&self, st: &mut State, key: u32) {
        if let Some(i) = st.index_of(key) {
            self.end(st, i);
        }
    }

    /// A peer's connection ends: closed, and said if its channel was open. Without the relay,
    /// the link ends with its last open channel.
    fn end(&self, st: &mut State, i: usize) {
        let p = st.peers.remove(i);
        p.close();
        if p.open {
            st.events.push_back(match p.watcher {
                true => LinkEvent::Watcher(p.id, false),
                false => LinkEvent::Peer(p.id, false),
            });
        }
        if st.relay_gone && !st.peers.iter().any(|p| p.open && !p.watcher) {
            self.close(st);
        }
    }

    /// The relay's websocket closed (or failed): open channels carry on, as with matchbox; the
    /// link ends when none is.
    fn relay_gone(&self, st: &mut State) {
        st.relay_gone = true;
        if !st.peers.iter().any(|p| p.open && !p.watcher) {
            self.close(st);
        }
    }

    /// Closes the websocket and every connection, and says so.
    fn close(&self, st: &mut State) {
        if st.closed {
            return;
        }
        st.closed = true;
        for p in st.peers.drain(..) {
            p.close();
        }
        if let Some(ws) = &self.ws {
            ws.set_onmessage(None);
            ws.set_onclose(None);
            let _ = ws.close();
        }
        st.events.push_back(LinkEvent::Closed);
    }
}

impl State {
    /// Where the peer whose connection is numbered `key` is, if it is still there.
    fn index_of(&self, key: u32) -> Option<usize> {
        self.peers.iter().position(|p| p.key == key)
    }

    /// Where the peer the relay calls `id` is, if it is there.
    fn index_of_id(&self, id: PeerId) -> Option<usize> {
        self.peers.iter().position(|p| p.id == id)
    }

    fn opened(&mut self, key: u32) {
        if let Some(p) = self
            .index_of(key)
            .map(|i| &mut self.peers[i])
            .filter(|p| !p.open)
        {
            p.open = true;
            let id = p.id;
            self.events.push_back(match p.watcher {
                true => LinkEvent::Watcher(id, true),
                false => LinkEvent::Peer(id, true),
            });
        }
    }

    fn received(&mut self, key: u32, e: JsValue) {
        let Some(id) = self.index_of(key).map(|i| self.peers[i].id) else {
            return;
        };
        if let Ok(data) = e
            .unchecked_into::<MessageEvent>()
            .data()
            .dyn_into::<ArrayBuffer>()
        {
            let bytes = Uint8Array::new(&data).to_vec();
            self.events.push_back(LinkEvent::Packet(id, bytes));
        }
    }
}

/// Our side of peer `key`'s negotiation: an offer (`offer` is `None`), or the answer to its
/// offer. The description goes to the peer once its candidates are gathered
/// ([`Shared::describe`]).
async fn negotiate(me: Weak<Shared>, key: u32, conn: RtcPeerConnection, offer: Option<String>) {
    let ours = match offer {
        None => JsFuture::from(conn.create_offer()).await,
        Some(sdp) => {
            let theirs = description(RtcSdpType::Offer, &sdp);
            let set = JsFuture::from(conn.set_remote_description(&theirs)).await;
            if !Shared::after(&me, key, set.is_ok(), Shared::remote_set) {
                return;
            }
            JsFuture::from(conn.create_answer()).await
        }
    };
    let set = match ours {
        Ok(ours) => JsFuture::from(conn.set_local_description(ours.unchecked_ref()))
            .await
            .is_ok(),
        Err(_) => false,
    };
    Shared::after(&me, key, set, Shared::describe);
}

/// The offerer takes the peer's answer.
async fn accept(me: Weak<Shared>, key: u32, conn: RtcPeerConnection, sdp: String) {
    let theirs = description(RtcSdpType::Answer, &sdp);
    let set = JsFuture::from(conn.set_remote_description(&theirs)).await;
    Shared::after(&me, key, set.is_ok(), Shared::remote_set);
}

/// Adds a peer's candidate (an `RTCIceCandidateInit` as `JSON.parse` read it from the signal, so
/// already that dictionary: only cast); one the browser refuses is ignored.
fn add_candidate(conn: &RtcPeerConnection, candidate: &JsValue) {
    let added =
        conn.add_ice_candidate_with_opt_rtc_ice_candidate_init(Some(candidate.unchecked_ref()));
    let added = JsFuture::from(added);
    spawn_local(async move {
        let _ = added.await;
    });
}

/// An `RTCSessionDescriptionInit`.
fn description(kind: RtcSdpType, sdp: &str) -> RtcSessionDescriptionInit {
    let d = RtcSessionDescriptionInit::new(kind);
    d.set_sdp(sdp);
    d
}

/// The `RTCConfiguration` for a list of STUN/TURN servers, each with its own credentials.
fn rtc_configuration(ice: &[IceServer]) -> RtcConfiguration {
    // Browsers refuse an entry without URLs.
    let servers: Array = ice
        .iter()
        .filter(|s| !s.urls.is_empty())
        .map(|server| {
            let entry = RtcIceServer::new();
            let urls: Array = server.urls.iter().map(|u| JsValue::from_str(u)).collect();
            entry.set_urls(&urls);
            if let Some(username) = &server.username {
                entry.set_username(username);
            }
            if let Some(credential) = &server.credential {
                entry.set_credential(credential);
            }
            entry
        })
        .collect();
    let config = RtcConfiguration::new();
    config.set_ice_servers(&servers);
    config
}

/// The relay's messages are read from `JSON.parse`'s objects, which have no typed API: their
/// fields through `Reflect`.
impl Json for JsValue {
    fn field(&self, name: &str) -> Option<JsValue> {
        if !self.is_object() {
            return None;
        }
        Reflect::get(self, &name.into())
            .ok()
            .filter(|v| !v.is_undefined())
    }

    fn text(&self) -> Option<String> {
        self.as_string()
    }
}
