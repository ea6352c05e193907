//! The room's event loop in the browser is `client_net`'s [`Runtime`] (the native integration
//! tests run the very same one): this is what it needs from the browser — the clock and its
//! timers (`setTimeout`), the seat kept in `localStorage`, sockets on the browser's own
//! `WebSocket` and `RTCPeerConnection`, the relay's HTTP answers (`fetch`) — and the page's
//! render after each input (what the peer sent, at most once per [`DRAW_GAP_MS`]). Nothing
//! polls: between events the page sleeps.
//!
//! [`Runtime`]: client_net::Runtime

use super::super::browser;
use super::super::seats;
use super::web;
use crate::model::room::SaveParts;
use client_net::{Answer, Env, IceServer, Link, Pending};
use engine::GameKind;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen_futures::spawn_local;

/// The least time between two renders of what the peer sent (ms): bytes that come sooner are
/// drawn this long after the render before, with whatever else came meanwhile, so a peer that
/// sends a thousand messages a second gets some forty renders (docs/protocol.md, « Costs »).
/// The player's own input, a timer, a channel that opens or closes are drawn at once.
pub const DRAW_GAP_MS: f64 = 25.0;

/// How the page draws again (shared with the page, which sets it once it shows the room).
pub type Render = Rc<Drawing>;

/// The page's render and when it last ran.
#[derive(Default)]
pub struct Drawing {
    draw: RefCell<Option<Rc<dyn Fn()>>>,
    /// When the last render ran (`performance.now()`).
    last: Cell<f64>,
    /// A render is due later.
    due: Cell<bool>,
}

impl Drawing {
    /// How the page draws again.
    pub fn set(&self, draw: impl Fn() + 'static) {
        *self.draw.borrow_mut() = Some(Rc::new(draw));
    }

    /// Draws the page now; until the page has drawn the room, there is nothing to draw again.
    fn at_once(&self) {
        let f = self.draw.borrow().clone();
        if let Some(f) = f {
            self.last.set(browser::performance_now());
            f();
        }
    }

    /// Draws the page at once if the last render is [`DRAW_GAP_MS`] old, else once that long
    /// after it (one render for every call until then).
    fn soon(self: &Rc<Self>) {
        if self.due.get() {
            return;
        }
        let wait = self.last.get() + DRAW_GAP_MS - browser::performance_now();
        if wait <= 0.0 {
            return self.at_once();
        }
        self.due.set(true);
        let render = self.clone();
        spawn_local(async move {
            browser::sleep(wait.ceil() as u64).await;
            render.due.set(false);
            render.at_once();
        });
    }
}

/// The browser tab a room runs in.
pub struct Tab {
    /// The game (the seat is kept under the room's key of its family).
    pub kind: GameKind,
    /// Draws the page again (set once the page shows the room).
    pub render: Render,
    /// When the page first had its peer (`performance.now()`), for the test suite's figures.
    pub first_peer: Rc<Cell<Option<u64>>>,
    /// A spectator's tab: its sockets and questions to the relay say `?watch`; it keeps
    /// nothing.
    pub watch: bool,
    /// A room paired by hand (issue #25): its links are paired ones, the texts' state shared
    /// with the page, and no relay is asked anything.
    #[cfg(feature = "paired")]
    pub pairing: Option<Rc<super::pairing::Pairing>>,
}

impl Env for Tab {
    type Link = Link;

    fn now(&self) -> u64 {
        browser::now_ms()
    }

    fn sleep(&self, ms: u64) -> Pending<()> {
        Box::pin(browser::sleep(ms))
    }

    /// A new socket to the room, its message loop running; in a room paired by hand, a new
    /// paired link, attached to the texts' state.
    fn open(&mut self, room: &str, ice: &[IceServer]) -> Link {
        #[cfg(feature = "paired")]
        if let Some(pairing) = &self.pairing {
            let render = self.render.clone();
            let link = run(Link::paired(ice, Rc::new(move || render.soon())));
            pairing.attach(link.paired_link());
            return link;
        }
        // The paired bundle has no relay to open a socket to: its rooms are all paired.
        #[cfg(not(any(feature = "remote", feature = "watch")))]
        {
            let _ = room;
            unreachable!("a room without a relay opens paired links")
        }
        #[cfg(any(feature = "remote", feature = "watch"))]
        run(Link::connect(&web::ws_url(room, self.watch), ice))
    }

    fn ask(&mut self, room: &str) -> Pending<Answer> {
        // Without a relay there is nobody to ask: there is always room for our link.
        #[cfg(feature = "paired")]
        if self.pairing.is_some() {
            return Box::pin(std::future::ready(Answer {
                refusal: Ok(None),
                peers: None,
            }));
        }
        #[cfg(not(any(feature = "remote", feature = "watch")))]
        {
            let _ = room;
            unreachable!("a room without a relay asks nobody")
        }
        #[cfg(any(feature = "remote", feature = "watch"))]
        {
            let (room, watch) = (room.to_string(), self.watch);
            Box::pin(async move {
                let (refusal, peers) = web::probe_room(&room, watch).await;
                Answer { refusal, peers }
            })
        }
    }

    fn ice_servers(&mut self) -> Pending<Option<Vec<IceServer>>> {
        Box::pin(web::ice_servers())
    }

    fn keep(&mut self, room: &str, parts: &SaveParts) -> bool {
        seats::keep_seat(self.kind, room, parts)
    }

    fn forget(&mut self, room: &str) {
        seats::forget_lasting(&seats::seat_key(self.kind, room));
    }

    /// What the peer sent is drawn with whatever follows it within [`DRAW_GAP_MS`]; anything
    /// else — the player's own input first — at once.
    fn stepped(&mut self, has_peer: bool, from_peer: bool) {
        if self.first_peer.get().is_none() && has_peer {
            self.first_peer.set(Some(browser::performance_now() as u64));
        }
        match from_peer {
            true => self.render.soon(),
            false => self.render.at_once(),
        }
    }
}

/// A new link, its message loop running in the page.
fn run((link, message_loop): (Link, impl std::future::Future + 'static)) -> Link {
    spawn_local(async move {
        let _ = message_loop.await;
    });
    link
}
