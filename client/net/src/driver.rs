//! The connection to a room as a pure state machine: it owns the [`Session`], takes what the
//! socket reports and the clock's wake-ups, and says what to do — send bytes to the peer, save
//! the transcript, open a new socket, drop a stale one, ask the relay why it closed ours. It
//! never touches a socket or a clock, so the browser page, the native integration tests and
//! plain unit tests drive exactly the same logic.
//!
//! Before each socket the relay is asked about the room (`GET /ws/<room>`): a full room or a
//! relay that does not answer is said at once, and no socket is opened for nothing. Sockets are
//! replaced, not trusted: a closed socket is reopened after a back-off (1 s doubling to 10 s); a
//! socket whose peer is gone (or silent) for [`STALE_MS`] while the socket looks open — seen
//! after a relay restart, when matchbox may keep a socket that will never meet the peer again —
//! is dropped and reopened; one that never met the peer waits [`LONELY_MS`]. A new peer in the
//! room replaces the one we had (a room holds two, so the old one left). A socket that waits
//! [`DIRECT_MS`] in the room without a data channel asks the relay again: if the other player is
//! in the room too, their networks block a direct connection ([`Driver::blocked`]) — unless one of
//! the two browsers has no WebRTC at all ([`Driver::no_webrtc`]): that browser says so to the
//! other through the relay, and neither is told to change networks for a browser setting.

use engine::session::{
    Command, CommandError, Effect, Event, Feed, Presence, SaveCursor, SaveParts, Session,
};
use relay_api::Refusal;

/// A socket that lost the peer it had for this long is replaced by a new one.
pub const STALE_MS: u64 = 4_000;
/// A socket that never met the peer waits this long in the room before it is replaced, in case
/// its relay connection died silently (the peer may come at any moment).
pub const LONELY_MS: u64 = 20_000;
/// First wait before reopening a closed socket; it doubles with each failure.
pub const FIRST_RETRY_MS: u64 = 1_000;
/// Longest wait before reopening a closed socket.
pub const MAX_RETRY_MS: u64 = 10_000;
/// Longest wait before reopening a socket dropped for a message we could not read: the first
/// waits 2 s, each one more in this page twice as long, up to this.
pub const MAX_UNREADABLE_RETRY_MS: u64 = 30_000;
/// A socket in the room without a data channel for this long asks the relay whether the other
/// player is there too (then their networks block a direct connection), and again as often.
pub const DIRECT_MS: u64 = 8_000;
/// Spectators fed at once (the relay's default cap); more are ignored.
pub const MAX_WATCHERS: usize = 8;

/// Why we asked the relay about the room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ask {
    /// Before opening a socket: is there room for us?
    BeforeConnect,
    /// Our socket closed: why?
    Why,
    /// Our socket waits in the room without a data channel: is the other player there?
    Direct,
}

/// Why the socket is down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Down {
    /// It closed; the relay has not said why yet (or it was only cut).
    Cut,
    /// The relay refuses it.
    Refused(Refusal),
    /// The relay does not answer at all.
    Unreachable,
    /// We dropped it: its peer was gone while it looked open.
    Replaced,
    /// We dropped it: its peer sent a message we could not read (a page from before the
    /// padding, or a cheater's flood), and waits longer each time.
    Unreadable,
}

/// Which browser cannot make direct (WebRTC) connections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoWebRtc {
    /// This one.
    Here,
    /// The other player's: it said so through the relay.
    There,
}

/// The state of our connection to the relay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relay {
    /// We asked the relay about the room, or a socket waits for the relay to admit it.
    Connecting,
    /// The relay admitted the socket to the room.
    Joined,
    /// No socket: a new one opens at `retry_at` (ms).
    Down {
        /// Why.
        why: Down,
        /// When the next socket opens.
        retry_at: u64,
    },
}

/// What the socket and the clock report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input<P> {
    /// The relay admitted the socket to the room.
    Joined,
    /// The data channel to a peer opened (`true`) or closed (`false`).
    Peer(P, bool),
    /// The data channel to a spectator opened (`true`) or closed (`false`).
    Watcher(P, bool),
    /// Bytes from a peer (or a spectator).
    Packet(P, Vec<u8>),
    /// A peer's browser has no WebRTC: it said so through the relay.
    NoWebRtc(P),
    /// How many players the relay counted in the room when asked (with [`Input::Why`]).
    RoomPeers(u32),
    /// The socket is gone.
    Closed,
    /// The relay's answer to [`Output::AskWhy`]: what it refuses now (`None` if nothing: there
    /// is room for us, or the socket was only cut; `Some(RoomFull)` when two are in the room),
    /// or `Err(())` when it could not be reached.
    Why(Result<Option<Refusal>, ()>),
    /// The time asked by [`Driver::next_wakeup`] came.
    Wake,
}

/// What to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output<P> {
    /// Send bytes to this peer.
    Send(P, Vec<u8>),
    /// The transcript changed: save the session now (before sending what follows).
    Save,
    /// Something to show.
    Event(Event),
    /// Open a new socket to the room.
    Connect,
    /// Drop the current socket (a new one opens later).
    Disconnect,
    /// Ask the relay about the room (`GET /ws/<room>`), then report [`Input::Why`].
    AskWhy,
}

#[derive(Clone, Debug)]
struct Socket<P> {
    /// The relay admitted it (the link said [`LinkEvent::Joined`](crate::LinkEvent::Joined)).
    joined: bool,
    peer: Option<P>,
    had_peer: bool,
    /// Since when the peer is gone or silent while this socket looks open.
    stale_since: Option<u64>,
    /// Since when this socket is in the room without a data channel.
    no_channel_since: Option<u64>,
    /// The spectators whose channel is open, and what each was sent.
    watchers: Vec<(P, Feed)>,
}

/// The session and its connection.
#[derive(Clone, Debug)]
pub struct Driver<P> {
    session: Session,
    relay: Relay,
    socket: Option<Socket<P>>,
    /// Failed sockets in a row (the back-off grows with them).
    attempts: u32,
    /// Sockets dropped in this page for a peer's unreadable message ([`Down::Unreadable`]).
    unreadable: u32,
    /// What the relay refused last, until the peer is met.
    refused: Option<Refusal>,
    /// Since when we wait alone, as a guest who never met the host (ms).
    alone_since: Option<u64>,
    /// The question to the relay we wait an answer for.
    asking: Option<Ask>,
    /// Both players are in the room but no data channel opens: their networks block it.
    blocked: bool,
    /// This browser has no WebRTC.
    no_webrtc_here: bool,
    /// The other player's browser said it has no WebRTC, and no channel opened since.
    no_webrtc_there: bool,
    /// The relay counted nobody in the room just before our socket joined it.
    room_empty: bool,
    /// The links are paired by hand, with no relay ([`Driver::set_paired`]).
    paired: bool,
    left: bool,
    /// What the last save kept holds: the next one writes what came after.
    saved: SaveCursor,
}

impl<P: Copy + Eq> Driver<P> {
    /// A driver for a session; its first [`Driver::input`] of [`Input::Wake`] opens a socket
    /// (`next_wakeup` is due at once).
    pub fn new(session: Session) -> Driver<P> {
        Driver {
            session,
            relay: Relay::Down {
                why: Down::Cut,
                retry_at: 0,
            },
            socket: None,
            attempts: 0,
            unreadable: 0,
            refused: None,
            alone_since: None,
            asking: None,
            blocked: false,
            no_webrtc_here: false,
            no_webrtc_there: false,
            room_empty: false,
            paired: false,
            left: false,
            saved: SaveCursor::default(),
        }
    }

    /// Says that the links are paired by hand, with no relay (issue #25): a link waits for its
    /// texts as long as the people take to pass them — never replaced for being alone or
    /// silent, no relay asked whether the other is there, no guest told the room may have
    /// expired. A link ends with its channel; the next one is a new exchange of texts.
    pub fn set_paired(&mut self) {
        self.paired = true;
    }

    /// True when the links are paired by hand.
    pub fn paired(&self) -> bool {
        self.paired
    }

    /// The saved seat's parts that changed since the last save kept ([`Driver::save_kept`]).
    pub fn save_parts(&self) -> SaveParts {
        self.session.save_parts(self.saved)
    }

    /// A save was kept: the next one writes only what came after it.
    pub fn save_kept(&mut self, cursor: SaveCursor) {
        self.saved = cursor;
    }

    /// True when the relay counted nobody in the room as our last socket was about to join, and
    /// no channel opened since: a guest waits for a host that is not there (a mistyped or
    /// expired code, or a host whose tab is closed), and can be told so at once.
    pub fn room_empty(&self) -> bool {
        self.room_empty
    }

    /// Says whether this browser can make WebRTC connections (`client_net::webrtc_available`);
    /// without, the link only tells the other player so, and nothing is ever blamed on the
    /// network.
    pub fn set_webrtc(&mut self, available: bool) {
        self.no_webrtc_here = !available;
    }

    /// Which browser cannot make direct connections, if one cannot (this one first).
    pub fn no_webrtc(&self) -> Option<NoWebRtc> {
        if self.no_webrtc_here {
            Some(NoWebRtc::Here)
        } else if self.no_webrtc_there {
            Some(NoWebRtc::There)
        } else {
            None
        }
    }

    /// True when the relay says both players are in the room but no data channel opened
    /// within [`DIRECT_MS`]: their networks block a direct connection (a TURN server would
    /// relay it). Cleared once a channel opens, or the relay says the other is gone. Never
    /// while a browser without WebRTC explains it ([`Driver::no_webrtc`]).
    pub fn blocked(&self) -> bool {
        self.blocked && self.no_webrtc().is_none()
    }

    /// Drops the current socket, if any, and opens a new one now (the player's « Réessayer »).
    pub fn retry(&mut self, now: u64) -> Vec<Output<P>> {
        let mut out = Vec::new();
        if self.left || self.asking == Some(Ask::BeforeConnect) {
            return out;
        }
        if self.socket.is_some() {
            self.lose_socket(now, Down::Replaced, &mut out);
            out.push(Output::Disconnect);
        }
        self.attempts = 0;
        self.relay = Relay::Down {
            why: Down::Replaced,
            retry_at: now,
        };
        self.connect_if_due(now, &mut out);
        out
    }

    /// The session.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The relay connection.
    pub fn relay(&self) -> Relay {
        self.relay
    }

    /// How many spectators watch through this browser.
    pub fn watchers(&self) -> usize {
        self.socket.as_ref().map_or(0, |s| s.watchers.len())
    }

    fn is_watcher(&self, id: P) -> bool {
        (self.socket.as_ref()).is_some_and(|s| s.watchers.iter().any(|(w, _)| *w == id))
    }

    /// Sends each spectator what the transcript gained since it was last sent some.
    fn feed_watchers(&mut self, out: &mut Vec<Output<P>>) {
        if let Some(s) = self.socket.as_mut() {
            for (id, feed) in &mut s.watchers {
                out.extend(
                    self.session
                        .feed_new(feed)
                        .into_iter()
                        .map(|b| Output::Send(*id, b)),
                );
            }
        }
    }

    /// True while the data channel to the peer is open.
    pub fn has_peer(&self) -> bool {
        self.socket.as_ref().is_some_and(|s| s.peer.is_some())
    }

    /// What the relay refused last, until the peer is met (e.g. the room is full).
    pub fn refused(&self) -> Option<Refusal> {
        self.refused
    }

    /// How long we have waited alone as a guest who never met the host (ms), if we are.
    pub fn alone_for(&self, now: u64) -> Option<u64> {
        self.alone_since.map(|t| now.saturating_sub(t))
    }

    /// True once we left the room.
    pub fn left(&self) -> bool {
        self.left
    }

    /// When [`Input::Wake`] is due next.
    pub fn next_wakeup(&self) -> Option<u64> {
        let mut t = self.session.next_wakeup();
        let mut at = |w: u64| t = Some(t.map_or(w, |t| t.min(w)));
        match (&self.socket, self.relay) {
            (Some(s), _) => {
                if let Some(since) = s.stale_since {
                    at(since + if s.had_peer { STALE_MS } else { LONELY_MS });
                }
                if let (Some(since), None) = (s.no_channel_since, self.asking) {
                    at(since + DIRECT_MS);
                }
            }
            (None, Relay::Down { retry_at, .. }) if !self.left && self.asking.is_none() => {
                at(retry_at)
            }
            _ => {}
        }
        t
    }

    /// Takes one input at time `now` (ms).
    pub fn input(&mut self, input: Input<P>, now: u64) -> Vec<Output<P>> {
        let mut out = Vec::new();
        match input {
            Input::Joined => {
                if let Some(s) = self.socket.as_mut() {
                    s.joined = true;
                    self.relay = Relay::Joined;
                }
            }
            Input::Peer(id, true) => self.peer_opened(id, now, &mut out),
            Input::Peer(id, false) => {
                if let Some(s) = self.socket.as_mut().filter(|s| s.peer == Some(id)) {
                    s.peer = None;
                    let effects = self.session.peer_disconnected(now);
                    self.route(effects, &mut out);
                }
            }
            Input::Watcher(id, up) => self.watcher(id, up),
            Input::Packet(id, bytes) if self.is_watcher(id) => {
                self.watcher_said(id, &bytes, &mut out)
            }
            Input::Packet(id, bytes) => {
                if self.socket.as_ref().is_some_and(|s| s.peer == Some(id)) {
                    let effects = self.session.receive(&bytes, now);
                    let unreadable = effects
                        .iter()
                        .any(|e| matches!(e, Effect::Event(Event::Undecodable(_))));
                    self.route(effects, &mut out);
                    if unreadable {
                        self.drop_unreadable(now, &mut out);
                    }
                }
            }
            // Before a socket: afterwards the relay counts it too.
            Input::RoomPeers(n) => {
                if self.socket.is_none() {
                    self.room_empty = n == 0;
                }
            }
            // Only while no channel is open: an open one proves the opposite.
            Input::NoWebRtc(_) => {
                if self.socket.as_ref().is_some_and(|s| s.peer.is_none()) {
                    self.no_webrtc_there = true;
                }
            }
            Input::Closed => {
                if self.socket.is_some() {
                    self.lose_socket(now, Down::Cut, &mut out);
                    if !self.left {
                        self.asking = Some(Ask::Why);
                        out.push(Output::AskWhy);
                    }
                }
            }
            Input::Why(answer) => self.answered(answer, now, &mut out),
            Input::Wake => {
                if self.session.next_wakeup().is_some_and(|t| t <= now) {
                    let effects = self.session.tick(now);
                    self.route(effects, &mut out);
                }
                self.connect_if_due(now, &mut out);
            }
        }
        self.watch(now, &mut out);
        self.feed_watchers(&mut out);
        out
    }

    /// The data channel to a peer opened.
    fn peer_opened(&mut self, id: P, now: u64, out: &mut Vec<Output<P>>) {
        let Some(s) = self.socket.as_mut() else {
            return;
        };
        self.blocked = false;
        self.no_webrtc_there = false;
        self.room_empty = false;
        s.no_channel_since = None;
        // Rooms hold two: a new peer means the old one left, even if its channel has
        // not said so yet (a frozen or half-closed connection).
        let old = s.peer.replace(id);
        s.had_peer = true;
        s.joined = true;
        self.relay = Relay::Joined;
        if old.is_some_and(|o| o != id) {
            let effects = self.session.peer_disconnected(now);
            self.route(effects, out);
        }
        let effects = self.session.peer_connected(now);
        self.route(effects, out);
    }

    /// A spectator's channel opened (`up`) or closed: it is fed from its first heads on, at most
    /// [`MAX_WATCHERS`] at once.
    fn watcher(&mut self, id: P, up: bool) {
        if let Some(s) = self.socket.as_mut() {
            let known = s.watchers.iter().position(|(w, _)| *w == id);
            match (up, known) {
                (true, None) if s.watchers.len() < MAX_WATCHERS => {
                    s.watchers.push((id, Feed::default()))
                }
                (false, Some(i)) => drop(s.watchers.remove(i)),
                _ => {}
            }
        }
    }

    /// Bytes from a spectator: its heads get what it lacks; nothing else is read.
    fn watcher_said(&mut self, id: P, bytes: &[u8], out: &mut Vec<Output<P>>) {
        let Some(s) = self.socket.as_mut() else {
            return;
        };
        if let Some((_, feed)) = s.watchers.iter_mut().find(|(w, _)| *w == id) {
            out.extend(
                self.session
                    .feed(feed, bytes)
                    .into_iter()
                    .map(|b| Output::Send(id, b)),
            );
        }
    }

    /// Does what the local player asked; `Err` says why not (nothing was sent).
    pub fn act(&mut self, command: Command, now: u64) -> Result<Vec<Output<P>>, CommandError> {
        let mut out = Vec::new();
        match self.session.act(command, now) {
            Ok(effects) => self.route(effects, &mut out),
            // Leaving a room whose host never came: there is no one to tell.
            Err(_) if command == Command::Leave && self.session.game().is_none() => {}
            Err(e) => return Err(e),
        }
        if command == Command::Leave {
            // The socket carries the goodbye while it lasts; no new one opens.
            self.left = true;
            if self.session.game().is_none() {
                self.socket = None;
                out.push(Output::Disconnect);
            }
        }
        self.watch(now, &mut out);
        self.feed_watchers(&mut out);
        Ok(out)
    }

    fn route(&mut self, effects: Vec<Effect>, out: &mut Vec<Output<P>>) {
        let peer = self.socket.as_ref().and_then(|s| s.peer);
        for e in effects {
            match e {
                // Without a peer the bytes are dropped: the heads exchange of the next meeting
                // brings it up to date.
                Effect::Send(bytes) => {
                    if let Some(p) = peer {
                        out.push(Output::Send(p, bytes));
                    }
                }
                Effect::Save => out.push(Output::Save),
                Effect::Event(e) => out.push(Output::Event(e)),
            }
        }
    }

    /// The relay's answer to our question about the room.
    fn answered(
        &mut self,
        answer: Result<Option<Refusal>, ()>,
        now: u64,
        out: &mut Vec<Output<P>>,
    ) {
        match self.asking.take() {
            Some(Ask::BeforeConnect) if self.socket.is_none() && !self.left => match answer {
                Ok(None) => {
                    self.refused = None;
                    self.socket = Some(Socket {
                        joined: false,
                        peer: None,
                        had_peer: false,
                        stale_since: None,
                        no_channel_since: None,
                        watchers: Vec::new(),
                    });
                    out.push(Output::Connect);
                }
                Ok(Some(r)) => {
                    self.refused = Some(r);
                    self.back_off(now, Down::Refused(r));
                }
                Err(()) => self.back_off(now, Down::Unreachable),
            },
            Some(Ask::Why) => {
                self.refused = answer.ok().flatten();
                if let Relay::Down { why, .. } = &mut self.relay {
                    *why = match answer {
                        Ok(Some(r)) => Down::Refused(r),
                        Ok(None) => Down::Cut,
                        Err(()) => Down::Unreachable,
                    };
                }
            }
            Some(Ask::Direct) => {
                if let Some(s) = self.socket.as_mut().filter(|s| s.peer.is_none()) {
                    // Full: our socket and the other player's, and still no channel.
                    match answer {
                        Ok(Some(Refusal::RoomFull)) => self.blocked = true,
                        // The other is gone: so is what its browser said.
                        Ok(_) => {
                            self.blocked = false;
                            self.no_webrtc_there = false;
                        }
                        Err(()) => {}
                    }
                    s.no_channel_since = Some(now);
                }
            }
            _ => {}
        }
    }

    fn connect_if_due(&mut self, now: u64, out: &mut Vec<Output<P>>) {
        let due = match self.relay {
            Relay::Down { retry_at, .. } => now >= retry_at,
            _ => false,
        };
        if self.socket.is_none() && due && !self.left && self.asking.is_none() {
            self.relay = Relay::Connecting;
            self.asking = Some(Ask::BeforeConnect);
            out.push(Output::AskWhy);
        }
    }

    /// The peer sent bytes we could not read: no message of this protocol is shorter than
    /// [`engine::session::wire::PAD_UNIT`], and what its delivery costs this page is paid
    /// before any of it is read. Reading on would let a peer make the page spend per message
    /// whatever it sends, so the socket — and the peer's connection with it — is dropped,
    /// and the next opens only after a wait that doubles with each such peer in this page
    /// (2 s to [`MAX_UNREADABLE_RETRY_MS`]): what a flood of tiny messages costs is then one
    /// connection per wait (`docs/protocol.md`, « Wire »). An honest peer of this version
    /// never sends such bytes.
    fn drop_unreadable(&mut self, now: u64, out: &mut Vec<Output<P>>) {
        self.unreadable += 1;
        self.lose_socket(now, Down::Unreadable, out);
        out.push(Output::Disconnect);
    }

    /// No socket: the next attempt waits longer after each failure.
    fn back_off(&mut self, now: u64, why: Down) {
        self.attempts += 1;
        let mut delay = (FIRST_RETRY_MS << (self.attempts - 1).min(4)).min(MAX_RETRY_MS);
        if why == Down::Unreadable {
            let more = (FIRST_RETRY_MS << self.unreadable.min(5)).min(MAX_UNREADABLE_RETRY_MS);
            delay = delay.max(more);
        }
        self.relay = Relay::Down {
            why,
            retry_at: now + delay,
        };
    }

    fn lose_socket(&mut self, now: u64, why: Down, out: &mut Vec<Output<P>>) {
        if let Some(s) = self.socket.take() {
            if s.peer.is_some() {
                let effects = self.session.peer_disconnected(now);
                self.route(effects, out);
            }
        }
        if self.asking == Some(Ask::Direct) {
            self.asking = None;
        }
        self.back_off(now, why);
    }

    /// After every input: notice a live peer, a socket gone stale, a guest waiting alone.
    fn watch(&mut self, now: u64, out: &mut Vec<Output<P>>) {
        let presence = self.session.presence();
        let Some(s) = self.socket.as_mut() else {
            return;
        };
        let live = s.peer.is_some() && presence == Presence::Here;
        if live {
            self.attempts = 0;
            self.refused = None;
        }
        // In the room without a data channel: after a while, ask whether the other is there.
        // Without a relay nobody can say; and a link paired by hand is never replaced on a timer.
        if self.paired {
            s.no_channel_since = None;
            s.stale_since = None;
            self.alone_since = None;
            return;
        }
        if s.joined && s.peer.is_none() && !self.left {
            let since = *s.no_channel_since.get_or_insert(now);
            if now >= since + DIRECT_MS && self.asking.is_none() {
                self.asking = Some(Ask::Direct);
                out.push(Output::AskWhy);
            }
        } else {
            s.no_channel_since = None;
        }
        if s.peer.is_some() {
            self.alone_since = None;
        } else if self.session.game().is_none()
            && self.session.seat() == engine::session::Seat::Guest
        {
            self.alone_since.get_or_insert(now);
        }
        // The peer we met is gone (or silent) while this socket stays open: replace the socket
        // after a short while. A device on the channel that is not the other player (it has
        // not proved the seat, or asks for it) is heard: the socket is not stale.
        let heard = s.peer.is_some() && self.session.hears_peer(now);
        if live || heard || !matches!(presence, Presence::Away { .. }) {
            s.stale_since = None;
            return;
        }
        let since = *s.stale_since.get_or_insert(now);
        let limit = if s.had_peer { STALE_MS } else { LONELY_MS };
        if now.saturating_sub(since) >= limit && !self.left {
            self.lose_socket(now, Down::Replaced, out);
            out.push(Output::Disconnect);
        }
    }
}
