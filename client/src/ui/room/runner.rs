//! The room's event loop in the browser: it awaits whichever comes first — the socket's next
//! event, the player's next action (or an answer from the relay), or the room's next wake-up —
//! feeds it to the [`RoomModel`], carries out its effects and asks for a render. Nothing polls:
//! between events the page sleeps.

use super::super::browser;
use super::super::seats;
use super::web;
use crate::model::room::{Effect, Input, RoomModel};
use client_net::{IceServer, Input as Net, Link, LinkEvent, PeerId};
use engine::GameKind;
use futures_channel::mpsc::{UnboundedReceiver, UnboundedSender};
use futures_core::Stream;
use std::cell::{Cell, RefCell};
use std::future::{poll_fn, Future};
use std::pin::pin;
use std::rc::Rc;
use std::task::Poll;
use wasm_bindgen_futures::spawn_local;

/// The relay's STUN/TURN list is asked again before a socket when it is older than this (its
/// TURN credentials may be short-lived).
const ICE_REFRESH_MS: u64 = 10 * 60_000;

/// What the loop needs from the page.
pub struct Runner {
    /// The room, shared with the component that renders it.
    pub model: Rc<RefCell<RoomModel<PeerId>>>,
    /// The player's actions and the relay's answers.
    pub inbox: UnboundedReceiver<Input<PeerId>>,
    /// Where the relay's answers are posted.
    pub outbox: UnboundedSender<Input<PeerId>>,
    /// Asks the page to render again.
    pub render: Rc<dyn Fn()>,
    /// The game (the seat is kept under the room's key of its family).
    pub kind: GameKind,
    /// When the page first had its peer (`performance.now()`), for the test suite's figures.
    pub first_peer: Rc<Cell<Option<u64>>>,
    /// A save put off until the page has shown what arrived (see [`Runner::save`]).
    pub later: Rc<RefCell<Option<String>>>,
    /// The relay's STUN/TURN list and when it came (`None` until it does).
    pub ice: Rc<RefCell<Option<Ice>>>,
}

/// The relay's STUN/TURN list, and when it came (ms).
pub type Ice = (u64, Vec<IceServer>);

/// What woke the loop.
enum Woken {
    Link(LinkEvent),
    Inbox(Option<Input<PeerId>>),
    Timer,
}

impl Runner {
    /// Runs until the page drops its end of the inbox.
    pub async fn run(mut self) {
        let room = self.model.borrow().session().invite().room_name();
        web::track_peer_connections();
        // The relay's STUN/TURN list, asked at once (and again when old, before a socket); the
        // page works meanwhile (a socket waits for it, nothing else does).
        self.fetch_ice();
        let mut link: Option<Link> = None;
        let mut connect_waiting = false;
        loop {
            let now = browser::now_ms();
            let wake = self.model.borrow().next_wakeup(now);
            let woken = {
                let mut timer = pin!(async {
                    match wake {
                        Some(t) => browser::sleep(t.saturating_sub(now)).await,
                        None => std::future::pending().await,
                    }
                });
                let mut next = pin!(async {
                    match link.as_mut() {
                        Some(l) => l.next().await,
                        None => std::future::pending().await,
                    }
                });
                let inbox = &mut self.inbox;
                poll_fn(|cx| {
                    if let Poll::Ready(e) = next.as_mut().poll(cx) {
                        return Poll::Ready(Woken::Link(e));
                    }
                    if let Poll::Ready(i) = std::pin::Pin::new(&mut *inbox).poll_next(cx) {
                        return Poll::Ready(Woken::Inbox(i));
                    }
                    timer.as_mut().poll(cx).map(|()| Woken::Timer)
                })
                .await
            };
            let input = match woken {
                Woken::Link(LinkEvent::Peer(id, up)) => {
                    if !up {
                        // matchbox leaves a departed peer's WebRTC connection open (it only
                        // fails, ~30 s later). A room holds two: the one that left was our only
                        // peer, and the next one's connection starts after this.
                        web::close_peer_connections();
                    }
                    Input::Net(Net::Peer(id, up))
                }
                Woken::Link(LinkEvent::Packet(id, bytes)) => Input::Net(Net::Packet(id, bytes)),
                Woken::Link(LinkEvent::Closed) => {
                    link = None;
                    Input::Net(Net::Closed)
                }
                Woken::Inbox(Some(input)) => input,
                // The page is gone (or another tab took the room): the socket and its
                // connections close.
                Woken::Inbox(None) => {
                    drop(link);
                    web::close_peer_connections();
                    return;
                }
                Woken::Timer => Input::Net(Net::Wake),
            };
            let from_peer = matches!(input, Input::Net(Net::Packet(..)));
            let now = browser::now_ms();
            let mut effects = self.model.borrow_mut().update(input, now);
            if link.as_mut().is_some_and(Link::newly_joined) {
                effects.extend(self.model.borrow_mut().update(Input::Net(Net::Joined), now));
            }
            let had_link = link.is_some();
            connect_waiting |= self.carry(effects, from_peer, &mut link);
            if had_link && link.is_none() {
                // matchbox leaves a dropped socket's WebRTC connection open.
                web::close_peer_connections();
            }
            if connect_waiting {
                if let Some((_, servers)) = self.ice.borrow().as_ref() {
                    link = Some(connect(&room, servers));
                    connect_waiting = false;
                }
            }
            if self.first_peer.get().is_none() && self.model.borrow().has_peer() {
                self.first_peer.set(Some(browser::performance_now() as u64));
            }
            (self.render)();
        }
    }

    /// Asks the relay for its STUN/TURN list; when it comes, the loop wakes (a socket may wait
    /// for it).
    fn fetch_ice(&self) {
        let (ice, outbox) = (self.ice.clone(), self.outbox.clone());
        spawn_local(async move {
            let servers = web::ice_servers().await;
            *ice.borrow_mut() = Some((browser::now_ms(), servers));
            let _ = outbox.unbounded_send(Input::Net(Net::Wake));
        });
    }

    /// Keeps the saved seat. What the peer sent can wait until the page has shown it (writing
    /// the storage costs a fraction of a millisecond per move, and a tab that closes meanwhile
    /// gets those entries again from the peer); anything this tab wrote is kept at once, before
    /// it is sent. A save put off is always the newest, and one kept at once replaces it.
    fn save(&self, text: String, from_peer: bool) {
        let kind = self.kind;
        let room = self.model.borrow().session().invite().room_name();
        if !from_peer {
            self.later.borrow_mut().take();
            seats::keep_seat(kind, &room, &text);
            return;
        }
        let first = self.later.borrow_mut().replace(text).is_none();
        if first {
            let later = self.later.clone();
            browser::soon(move || {
                if let Some(text) = later.borrow_mut().take() {
                    seats::keep_seat(kind, &room, &text);
                }
            });
        }
    }

    /// Carries out the room's effects; true when it asked for a new socket.
    fn carry(
        &self,
        effects: Vec<Effect<PeerId>>,
        from_peer: bool,
        link: &mut Option<Link>,
    ) -> bool {
        let mut connect = false;
        for e in effects {
            match e {
                Effect::Send(peer, bytes) => {
                    if let Some(l) = link.as_mut() {
                        l.send(peer, bytes);
                    }
                }
                Effect::Save(text) => self.save(text, from_peer),
                Effect::Forget => {
                    self.later.borrow_mut().take();
                    let room = self.model.borrow().session().invite().room_name();
                    seats::forget_lasting(&seats::seat_key(self.kind, &room));
                }
                Effect::Connect => {
                    *link = None;
                    connect = true;
                }
                Effect::Disconnect => {
                    *link = None;
                    connect = false;
                }
                Effect::AskWhy => {
                    // Before a socket: a STUN/TURN list too old for its credentials is asked
                    // again meanwhile.
                    let old = self
                        .ice
                        .borrow()
                        .as_ref()
                        .is_some_and(|(at, _)| browser::now_ms() >= at + ICE_REFRESH_MS);
                    if old {
                        self.fetch_ice();
                    }
                    let room = self.model.borrow().session().invite().room_name();
                    let outbox = self.outbox.clone();
                    spawn_local(async move {
                        let answer = web::probe_room(&room).await;
                        let _ = outbox.unbounded_send(Input::Net(Net::Why(answer)));
                    });
                }
            }
        }
        connect
    }
}

/// A new socket to the room, its message loop running.
fn connect(room: &str, ice: &[IceServer]) -> Link {
    let (link, message_loop) = Link::connect(&web::ws_url(room), ice);
    spawn_local(async move {
        let _ = message_loop.await;
    });
    link
}
