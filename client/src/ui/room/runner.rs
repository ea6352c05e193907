//! The room's event loop in the browser: it awaits whichever comes first — the socket's next
//! event, the player's next action (or an answer from the relay), or the room's next wake-up —
//! feeds it to the [`RoomModel`], carries out its effects and asks for a render. Nothing polls:
//! between events the page sleeps.

use super::super::browser;
use crate::model::room::{Effect, Input, RoomModel};
use client_net::{IceServer, Input as Net, Link, LinkEvent, PeerId};
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
    /// The storage key of the seat.
    pub storage_key: &'static str,
    /// When the page first had its peer (`performance.now()`), for the test suite's figures.
    pub first_peer: Rc<Cell<Option<u64>>>,
    /// A save put off until the page has shown what arrived (see [`Runner::save`]).
    pub later: Rc<RefCell<Option<String>>>,
}

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
        // The relay's STUN/TURN list, asked once; the page works meanwhile (a socket waits for
        // it, nothing else does).
        let ice: Rc<RefCell<Option<Vec<IceServer>>>> = Rc::default();
        {
            let (ice, outbox) = (ice.clone(), self.outbox.clone());
            spawn_local(async move {
                *ice.borrow_mut() = Some(browser::ice_servers().await);
                let _ = outbox.unbounded_send(Input::Net(Net::Wake));
            });
        }
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
                Woken::Link(LinkEvent::Peer(id, up)) => Input::Net(Net::Peer(id, up)),
                Woken::Link(LinkEvent::Packet(id, bytes)) => Input::Net(Net::Packet(id, bytes)),
                Woken::Link(LinkEvent::Closed) => {
                    link = None;
                    Input::Net(Net::Closed)
                }
                Woken::Inbox(Some(input)) => input,
                // The page is gone: dropping the link closes the socket.
                Woken::Inbox(None) => return,
                Woken::Timer => Input::Net(Net::Wake),
            };
            let from_peer = matches!(input, Input::Net(Net::Packet(..)));
            let now = browser::now_ms();
            let mut effects = self.model.borrow_mut().update(input, now);
            if link.as_mut().is_some_and(Link::newly_joined) {
                effects.extend(self.model.borrow_mut().update(Input::Net(Net::Joined), now));
            }
            connect_waiting |= self.carry(effects, from_peer, &mut link);
            if connect_waiting {
                if let Some(ice) = ice.borrow().as_deref() {
                    link = Some(connect(&room, ice));
                    connect_waiting = false;
                }
            }
            if self.first_peer.get().is_none() && self.model.borrow().has_peer() {
                self.first_peer.set(Some(browser::performance_now() as u64));
            }
            (self.render)();
        }
    }

    /// Keeps the saved seat. What the peer sent can wait until the page has shown it (writing
    /// the storage costs a fraction of a millisecond per move, and a tab that closes meanwhile
    /// gets those entries again from the peer); anything this tab wrote is kept at once, before
    /// it is sent. A save put off is always the newest, and one kept at once replaces it.
    fn save(&self, text: String, from_peer: bool) {
        let key = self.storage_key;
        if !from_peer {
            self.later.borrow_mut().take();
            browser::store(key, &text);
            return;
        }
        let first = self.later.borrow_mut().replace(text).is_none();
        if first {
            let later = self.later.clone();
            browser::soon(move || {
                if let Some(text) = later.borrow_mut().take() {
                    browser::store(key, &text);
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
                    browser::forget(self.storage_key);
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
                    let room = self.model.borrow().session().invite().room_name();
                    let outbox = self.outbox.clone();
                    spawn_local(async move {
                        let answer = browser::probe_room(&room).await;
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
    let (link, message_loop) = Link::connect(&browser::ws_url(room), ice);
    spawn_local(async move {
        let _ = message_loop.await;
    });
    link
}
