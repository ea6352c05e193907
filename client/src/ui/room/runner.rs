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
    /// The relay's STUN/TURN list (`None` while it is asked for: a socket waits for it).
    pub ice: Rc<RefCell<Option<Ice>>>,
}

/// The relay's STUN/TURN list, for one socket: its TURN credentials may be short-lived, so the
/// next socket gets a new one.
pub struct Ice {
    servers: Vec<IceServer>,
    /// A socket opened with it.
    spent: bool,
}

/// What woke the loop.
enum Woken {
    Link(LinkEvent),
    Inbox(Option<Input<PeerId>>),
    Timer,
}

/// The loop's connection: the socket (its WebRTC connections close with it), and whether a
/// socket waits for its STUN/TURN list.
#[derive(Default)]
struct Connection {
    link: Option<Link>,
    connect_waiting: bool,
}

impl Connection {
    /// What woke the loop, as the model's input; `None` once the page is gone (or another tab
    /// took the room): the socket and its connections close.
    fn input(&mut self, woken: Woken) -> Option<Input<PeerId>> {
        Some(match woken {
            Woken::Link(LinkEvent::Peer(id, up)) => Input::Net(Net::Peer(id, up)),
            Woken::Link(LinkEvent::Packet(id, bytes)) => Input::Net(Net::Packet(id, bytes)),
            Woken::Link(LinkEvent::NoWebRtc(id)) => Input::Net(Net::NoWebRtc(id)),
            Woken::Link(LinkEvent::Closed) => {
                self.link = None;
                Input::Net(Net::Closed)
            }
            Woken::Inbox(Some(input)) => input,
            Woken::Inbox(None) => {
                // Dropping the link closes its socket and connections.
                self.link = None;
                return None;
            }
            Woken::Timer => Input::Net(Net::Wake),
        })
    }
}

impl Runner {
    /// Runs until the page drops its end of the inbox.
    pub async fn run(mut self) {
        let room = self.model.borrow().session().invite().room_name();
        // The relay's STUN/TURN list, asked at once (and again before each further socket);
        // the page works meanwhile (a socket waits for it, nothing else does).
        self.fetch_ice(None);
        let mut conn = Connection::default();
        loop {
            // Whichever comes first: the socket's next event, the player's next action (or an
            // answer from the relay), or the room's next wake-up.
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
                    match conn.link.as_mut() {
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
            let Some(input) = conn.input(woken) else {
                return;
            };
            self.step(input, &mut conn, &room);
        }
    }

    /// Feeds one input to the room, carries out its effects (a socket opens once its STUN/TURN
    /// list is there) and renders.
    fn step(&self, input: Input<PeerId>, conn: &mut Connection, room: &str) {
        let from_peer = matches!(input, Input::Net(Net::Packet(..)));
        let now = browser::now_ms();
        let mut effects = self.model.borrow_mut().update(input, now);
        if conn.link.as_mut().is_some_and(Link::newly_joined) {
            effects.extend(self.model.borrow_mut().update(Input::Net(Net::Joined), now));
        }
        conn.connect_waiting |= self.carry(effects, from_peer, &mut conn.link);
        if conn.connect_waiting {
            if let Some(ice) = self.ice.borrow_mut().as_mut() {
                conn.link = Some(connect(room, &ice.servers));
                ice.spent = true;
                conn.connect_waiting = false;
            }
        }
        if self.first_peer.get().is_none() && self.model.borrow().has_peer() {
            self.first_peer.set(Some(browser::performance_now() as u64));
        }
        (self.render)();
    }

    /// Asks the relay for its STUN/TURN list (`old`, the previous one, serves again if the relay
    /// does not answer); when it comes, the loop wakes (a socket may wait for it).
    fn fetch_ice(&self, old: Option<Vec<IceServer>>) {
        let (ice, outbox) = (self.ice.clone(), self.outbox.clone());
        spawn_local(async move {
            let servers = web::ice_servers().await.or(old).unwrap_or_default();
            *ice.borrow_mut() = Some(Ice {
                servers,
                spent: false,
            });
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
            let kept = seats::keep_seat(kind, &room, &text);
            self.model.borrow_mut().seat_kept(kept);
            return;
        }
        let first = self.later.borrow_mut().replace(text).is_none();
        if first {
            let (later, model) = (self.later.clone(), self.model.clone());
            browser::soon(move || {
                if let Some(text) = later.borrow_mut().take() {
                    let kept = seats::keep_seat(kind, &room, &text);
                    model.borrow_mut().seat_kept(kept);
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
                    // Without a socket, the question comes before the next one: a STUN/TURN
                    // list a socket used already is asked again meanwhile, and the socket
                    // waits for the new one (its TURN credentials made a moment before).
                    let spent = matches!(&*self.ice.borrow(), Some(ice) if ice.spent);
                    if link.is_none() && spent {
                        let old = self.ice.borrow_mut().take().map(|ice| ice.servers);
                        self.fetch_ice(old);
                    }
                    let room = self.model.borrow().session().invite().room_name();
                    let outbox = self.outbox.clone();
                    spawn_local(async move {
                        let (answer, peers) = web::probe_room(&room).await;
                        if let Some(n) = peers {
                            let _ = outbox.unbounded_send(Input::Net(Net::RoomPeers(n)));
                        }
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
