//! The loop that runs a connection, written once for the browser page and the native
//! integration tests: [`Runtime`] awaits whichever comes first — the link's next event, the
//! relay's answer about the room, its STUN/TURN list, the player's next input, a save put off,
//! or the machine's next wake-up —, feeds it to the state machine it drives ([`Machine`]: the
//! [`Driver`], or a page's model that wraps it) and carries out the [`Effect`]s it returns.
//!
//! What differs between the browser and tokio is an [`Env`]: the clock and its timers, the
//! storage of the saved seat, opening a link, asking the relay about a room, its ICE list. The
//! runtime owns the policies: the link's lifecycle, the one pending question to the relay, the
//! ICE list (a socket waits for it; a spent one is asked again before the next socket) and the
//! saves (what this tab wrote is kept at once, what the peer sent a moment later, once for a
//! burst).
//!
//! Other kinds of players plug in as one more implementation, not a fork of the loop: a
//! spectator, a read-only follower of the session over the same link, is another [`Machine`]
//! (it never saves nor writes); a pairing without relay, a WebRTC connection paired by offer
//! and answer copied by hand, is another [`Connection`] opened by its [`Env`] (whose question
//! about the room then answers at once).

use crate::{Driver, IceServer, Input, LinkEvent, Output, Refusal};
use engine::session::{SaveCursor, SaveParts};
use futures_core::Stream;
use std::cell::RefCell;
use std::future::{pending, poll_fn, Future};
use std::pin::{pin, Pin};
use std::rc::Rc;
use std::task::Poll;

/// A future the runtime keeps until it is ready.
pub type Pending<T> = Pin<Box<dyn Future<Output = T>>>;

/// What a machine asks the runtime to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect<P> {
    /// Send bytes to this peer.
    Send(P, Vec<u8>),
    /// Keep the saved seat before sending what follows: the parts that changed since the last
    /// save kept, asked of the machine when the save is carried out ([`Machine::save_parts`]), so
    /// that a save put off and replaced costs nothing; the machine hears whether it was kept
    /// ([`Machine::kept`]).
    Save,
    /// Forget the saved seat: we left the room.
    Forget,
    /// Open a new link to the room.
    Connect,
    /// Drop the current link.
    Disconnect,
    /// Ask the relay about the room, and report its answer ([`Input::RoomPeers`], [`Input::Why`]).
    AskWhy,
}

/// The relay's answer about a room (`GET /ws/<room>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// What it refuses now (`None`: there is room for us), or `Err` when it does not answer.
    pub refusal: Result<Option<Refusal>, ()>,
    /// How many players are in the room, when it says.
    pub peers: Option<u32>,
}

/// One link to a room: it reports what it sees, and sends to the peers it met. [`crate::Link`]
/// (a socket to the relay and the data channels it introduces) is one.
pub trait Connection {
    /// How the link names the peers it meets.
    type Peer: Copy + Eq;
    /// The next event (after [`LinkEvent::Closed`], `Closed` again at once).
    fn next(&mut self) -> impl Future<Output = LinkEvent<Self::Peer>>;
    /// Sends bytes to a peer; false when its channel is gone.
    fn send(&mut self, peer: Self::Peer, bytes: Vec<u8>) -> bool;
}

impl Connection for crate::Link {
    type Peer = crate::PeerId;

    fn next(&mut self) -> impl Future<Output = LinkEvent> {
        crate::Link::next(self)
    }

    fn send(&mut self, peer: crate::PeerId, bytes: Vec<u8>) -> bool {
        crate::Link::send(self, peer, bytes)
    }
}

/// What the runtime needs from where it runs (the browser, tokio).
pub trait Env {
    /// The links it opens.
    type Link: Connection;
    /// The clock, in ms.
    fn now(&self) -> u64;
    /// Ready `ms` from now.
    fn sleep(&self, ms: u64) -> Pending<()>;
    /// A new link to the room with these STUN/TURN servers, its message loop running.
    fn open(&mut self, room: &str, ice: &[IceServer]) -> Self::Link;
    /// Asks the relay about the room.
    fn ask(&mut self, room: &str) -> Pending<Answer>;
    /// Asks the relay for its STUN/TURN list (`None`: it did not answer with one).
    fn ice_servers(&mut self) -> Pending<Option<Vec<IceServer>>>;
    /// Keeps the saved seat of the room (in parts); false when the storage refused.
    fn keep(&mut self, room: &str, parts: &SaveParts) -> bool;
    /// Forgets the saved seat of the room.
    fn forget(&mut self, room: &str);
    /// After each input the machine took (`has_peer`: its channel to the peer is open;
    /// `from_peer`: the input was the peer's bytes, which a page may draw with the next ones):
    /// the page renders.
    fn stepped(&mut self, has_peer: bool, from_peer: bool) {
        let _ = (has_peer, from_peer);
    }
}

/// The state machine a runtime drives.
pub trait Machine {
    /// How its peers are named.
    type Peer: Copy + Eq;
    /// What it takes: at least what the link, the relay and the clock report.
    type Input: From<Input<Self::Peer>>;
    /// Takes one input at time `now` (ms).
    fn update(&mut self, input: Self::Input, now: u64) -> Vec<Effect<Self::Peer>>;
    /// When [`Input::Wake`] is due next.
    fn next_wakeup(&self, now: u64) -> Option<u64>;
    /// The room's name on the relay.
    fn room(&self) -> String;
    /// True while the data channel to the peer is open.
    fn has_peer(&self) -> bool;
    /// The saved seat's parts changed since the last save kept (`Session::save_parts`); `None`
    /// for a machine that never saves.
    fn save_parts(&self) -> Option<SaveParts>;
    /// An [`Effect::Save`] was kept (its cursor) or the storage refused it (`None`).
    fn kept(&mut self, cursor: Option<SaveCursor>);
}

impl<P: Copy + Eq> Machine for Driver<P> {
    type Peer = P;
    type Input = Input<P>;

    fn update(&mut self, input: Input<P>, now: u64) -> Vec<Effect<P>> {
        let outputs = self.input(input, now);
        self.effects(outputs)
    }

    fn next_wakeup(&self, _: u64) -> Option<u64> {
        Driver::next_wakeup(self)
    }

    fn room(&self) -> String {
        self.session().invite().room_name()
    }

    fn has_peer(&self) -> bool {
        Driver::has_peer(self)
    }

    fn save_parts(&self) -> Option<SaveParts> {
        Some(Driver::save_parts(self))
    }

    fn kept(&mut self, cursor: Option<SaveCursor>) {
        if let Some(cursor) = cursor {
            self.save_kept(cursor);
        }
    }
}

impl<P: Copy + Eq> Driver<P> {
    /// The driver's outputs as effects; events are for a page to show, and dropped.
    pub fn effects(&self, outputs: Vec<Output<P>>) -> Vec<Effect<P>> {
        outputs
            .into_iter()
            .filter_map(|o| match o {
                Output::Send(p, bytes) => Some(Effect::Send(p, bytes)),
                Output::Save => Some(Effect::Save),
                Output::Event(_) => None,
                Output::Connect => Some(Effect::Connect),
                Output::Disconnect => Some(Effect::Disconnect),
                Output::AskWhy => Some(Effect::AskWhy),
            })
            .collect()
    }
}

/// A machine shared with whoever renders it (the page).
impl<M: Machine> Machine for Rc<RefCell<M>> {
    type Peer = M::Peer;
    type Input = M::Input;

    fn update(&mut self, input: M::Input, now: u64) -> Vec<Effect<M::Peer>> {
        self.borrow_mut().update(input, now)
    }

    fn next_wakeup(&self, now: u64) -> Option<u64> {
        self.borrow().next_wakeup(now)
    }

    fn room(&self) -> String {
        self.borrow().room()
    }

    fn has_peer(&self) -> bool {
        self.borrow().has_peer()
    }

    fn save_parts(&self) -> Option<SaveParts> {
        self.borrow().save_parts()
    }

    fn kept(&mut self, cursor: Option<SaveCursor>) {
        self.borrow_mut().kept(cursor);
    }
}

/// The relay's STUN/TURN list, for one socket: its TURN credentials may be short-lived, so the
/// next socket gets a new one.
enum Ice {
    /// Asked for; the list before (if any) serves again if the relay does not answer.
    Asked(Pending<Option<Vec<IceServer>>>, Option<Vec<IceServer>>),
    /// There; `spent` once a socket opened with it.
    Ready {
        servers: Vec<IceServer>,
        spent: bool,
    },
}

/// What woke the loop.
enum Woken<P, I> {
    Link(LinkEvent<P>),
    Answer(Answer),
    Ice(Option<Vec<IceServer>>),
    Inbox(Option<I>),
    Later,
    Timer,
}

/// A connection run for a machine in an environment.
pub struct Runtime<E: Env, M> {
    env: E,
    machine: M,
    room: String,
    link: Option<E::Link>,
    /// The machine asked for a link, which waits for its ICE list.
    connect_waiting: bool,
    ice: Ice,
    /// The pending question to the relay about the room (a new one replaces it).
    asking: Option<Pending<Answer>>,
    /// A save of what the peer sent, put off until nothing else is ready (a timer at 0 ms): one
    /// for all that came meanwhile (its parts are asked for when it is kept).
    later: bool,
}

impl<E, M> Runtime<E, M>
where
    E: Env,
    M: Machine<Peer = <E::Link as Connection>::Peer>,
{
    /// A runtime for this machine; it asks the relay for its ICE list at once (the machine works
    /// meanwhile: only a socket waits for it).
    pub fn new(mut env: E, machine: M) -> Self {
        let ice = Ice::Asked(env.ice_servers(), None);
        Runtime {
            room: machine.room(),
            env,
            machine,
            link: None,
            connect_waiting: false,
            ice,
            asking: None,
            later: false,
        }
    }

    /// The machine.
    pub fn machine(&self) -> &M {
        &self.machine
    }

    /// The environment.
    pub fn env(&self) -> &E {
        &self.env
    }

    /// The environment, to change (the link and the machine are left as they are).
    pub fn env_mut(&mut self) -> &mut E {
        &mut self.env
    }

    /// Starts again with a new machine (the page reloaded; its environment remains): the link
    /// closes, the pending question and a save put off are dropped, the ICE list is asked again.
    pub fn restart(&mut self, machine: M) {
        self.link = None;
        self.connect_waiting = false;
        self.asking = None;
        self.later = false;
        self.room = machine.room();
        self.machine = machine;
        self.ice = Ice::Asked(self.env.ice_servers(), None);
    }

    /// True while a link is open.
    pub fn has_link(&self) -> bool {
        self.link.is_some()
    }

    /// Runs until `inbox` ends (the page is gone): the link then closes.
    pub async fn run(mut self, mut inbox: impl Stream<Item = M::Input> + Unpin) {
        while self.turn(&mut inbox).await {}
    }

    /// Waits for what comes first and handles it; false once `inbox` ended (the link is
    /// dropped). Cancelling it loses nothing: what was waited for is taken only when handled.
    pub async fn turn(&mut self, inbox: &mut (impl Stream<Item = M::Input> + Unpin)) -> bool {
        let woken = self.wait(inbox).await;
        self.handle(woken)
    }

    /// Feeds the machine an input now (the player did something) and carries out its effects.
    pub fn feed(&mut self, input: M::Input) {
        self.step(vec![input], false);
    }

    /// Lets `f` change the machine at the current time (the player did something it may
    /// refuse), then carries out the effects it returns.
    pub fn act<X>(
        &mut self,
        f: impl FnOnce(&mut M, u64) -> Result<Vec<Effect<M::Peer>>, X>,
    ) -> Result<(), X> {
        let effects = f(&mut self.machine, self.env.now())?;
        self.carry(effects, false);
        self.env.stepped(self.machine.has_peer(), false);
        Ok(())
    }

    async fn wait(
        &mut self,
        inbox: &mut (impl Stream<Item = M::Input> + Unpin),
    ) -> Woken<M::Peer, M::Input> {
        let now = self.env.now();
        let mut timer = self
            .machine
            .next_wakeup(now)
            .map(|t| self.env.sleep(t.saturating_sub(now)));
        let mut later = self.later.then(|| self.env.sleep(0));
        let Runtime {
            link, asking, ice, ..
        } = self;
        let mut next = pin!(async {
            match link.as_mut() {
                Some(l) => l.next().await,
                None => pending().await,
            }
        });
        poll_fn(|cx| {
            if let Poll::Ready(e) = next.as_mut().poll(cx) {
                return Poll::Ready(Woken::Link(e));
            }
            if let Some(Poll::Ready(a)) = asking.as_mut().map(|f| f.as_mut().poll(cx)) {
                return Poll::Ready(Woken::Answer(a));
            }
            if let Ice::Asked(f, _) = ice {
                if let Poll::Ready(got) = f.as_mut().poll(cx) {
                    return Poll::Ready(Woken::Ice(got));
                }
            }
            if let Poll::Ready(i) = Pin::new(&mut *inbox).poll_next(cx) {
                return Poll::Ready(Woken::Inbox(i));
            }
            if let Some(Poll::Ready(())) = later.as_mut().map(|f| f.as_mut().poll(cx)) {
                return Poll::Ready(Woken::Later);
            }
            match timer.as_mut().map(|f| f.as_mut().poll(cx)) {
                Some(Poll::Ready(())) => Poll::Ready(Woken::Timer),
                _ => Poll::Pending,
            }
        })
        .await
    }

    fn handle(&mut self, woken: Woken<M::Peer, M::Input>) -> bool {
        match woken {
            Woken::Link(event) => {
                let from_peer = matches!(event, LinkEvent::Packet(..));
                let input = match event {
                    LinkEvent::Joined => Input::Joined,
                    LinkEvent::Peer(id, up) => Input::Peer(id, up),
                    LinkEvent::Watcher(id, up) => Input::Watcher(id, up),
                    LinkEvent::Packet(id, bytes) => Input::Packet(id, bytes),
                    LinkEvent::NoWebRtc(id) => Input::NoWebRtc(id),
                    LinkEvent::Closed => {
                        self.link = None;
                        Input::Closed
                    }
                };
                self.step(vec![input.into()], from_peer);
            }
            Woken::Answer(answer) => {
                self.asking = None;
                let mut inputs = Vec::new();
                if let Some(n) = answer.peers {
                    inputs.push(Input::RoomPeers(n).into());
                }
                inputs.push(Input::Why(answer.refusal).into());
                self.step(inputs, false);
            }
            Woken::Ice(got) => {
                let old = match &mut self.ice {
                    Ice::Asked(_, old) => old.take(),
                    Ice::Ready { .. } => None,
                };
                self.ice = Ice::Ready {
                    servers: got.or(old).unwrap_or_default(),
                    spent: false,
                };
                self.open_if_waiting();
            }
            Woken::Inbox(Some(input)) => self.step(vec![input], false),
            Woken::Inbox(None) => {
                // Dropping the link closes its socket and connections.
                self.link = None;
                return false;
            }
            Woken::Later => {
                if std::mem::take(&mut self.later) {
                    self.keep();
                }
            }
            Woken::Timer => self.step(vec![Input::Wake.into()], false),
        }
        true
    }

    /// Feeds inputs to the machine, carries out its effects, and lets the page render.
    fn step(&mut self, inputs: Vec<M::Input>, from_peer: bool) {
        let now = self.env.now();
        let mut effects = Vec::new();
        for input in inputs {
            effects.extend(self.machine.update(input, now));
        }
        self.carry(effects, from_peer);
        self.env.stepped(self.machine.has_peer(), from_peer);
    }

    /// Carries out the machine's effects (`from_peer`: they follow what the peer sent); a link
    /// asked for opens once its ICE list is there.
    fn carry(&mut self, effects: Vec<Effect<M::Peer>>, from_peer: bool) {
        for e in effects {
            match e {
                Effect::Send(peer, bytes) => {
                    if let Some(l) = self.link.as_mut() {
                        l.send(peer, bytes);
                    }
                }
                Effect::Save => self.save(from_peer),
                Effect::Forget => {
                    self.later = false;
                    self.env.forget(&self.room);
                }
                Effect::Connect => {
                    self.link = None;
                    self.connect_waiting = true;
                }
                Effect::Disconnect => {
                    self.link = None;
                    self.connect_waiting = false;
                }
                Effect::AskWhy => self.ask(),
            }
        }
        self.open_if_waiting();
    }

    /// Asks the relay about the room. Without a link, the question comes before the next one:
    /// an ICE list a link used already is asked for again meanwhile, and the next link waits
    /// for the new one (its TURN credentials made a moment before).
    fn ask(&mut self) {
        if let (
            None,
            Ice::Ready {
                servers,
                spent: true,
            },
        ) = (&self.link, &mut self.ice)
        {
            let old = std::mem::take(servers);
            self.ice = Ice::Asked(self.env.ice_servers(), Some(old));
        }
        self.asking = Some(self.env.ask(&self.room));
    }

    fn open_if_waiting(&mut self) {
        if let (true, Ice::Ready { servers, spent }) = (self.connect_waiting, &mut self.ice) {
            self.link = Some(self.env.open(&self.room, servers));
            *spent = true;
            self.connect_waiting = false;
        }
    }

    /// Keeps the saved seat. What the peer sent can wait until nothing else is ready (a tab
    /// that closes meanwhile gets those entries again from the peer); anything this tab wrote
    /// is kept at once, before it is sent, and replaces a save put off.
    fn save(&mut self, from_peer: bool) {
        self.later = from_peer;
        if !from_peer {
            self.keep();
        }
    }

    fn keep(&mut self) {
        if let Some(parts) = self.machine.save_parts() {
            let kept = self.env.keep(&self.room, &parts);
            self.machine.kept(kept.then_some(parts.cursor));
        }
    }
}
