//! A native player: the browser's room loop without the browser. A [`Player`] runs a
//! [`Driver`] (the session and its connection, exactly as the page has it) in the very
//! [`Runtime`] the page runs, on tokio: its [`Tab`] opens real matchbox sockets through the real
//! relay, asks the relay about the room over plain HTTP, and keeps the saved seat in parts as a
//! browser keeps it in its storage, so that a reload restores from there. The tab counts what
//! the runtime asked of it, for the tests of its policies.

use client_net::{
    Answer, Connection, Driver, Env, IceServer, Link, LinkEvent, PeerId, Pending, Refusal, Runtime,
};
use engine::session::{Command, CommandError, SaveCursor, SaveParts, Saved, Session};
use std::collections::BTreeMap;
use std::future::Future;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::task::{AbortHandle, JoinHandle};

/// One seat of a room, played natively.
pub struct Player {
    runtime: Runtime<Tab, Driver<PeerId>>,
}

/// The tab a [`Player`] runs in: the clock, the relay, the storage of its seat (it outlives a
/// reload), and what the runtime asked of it.
pub struct Tab {
    relay: SocketAddr,
    start: Instant,
    /// The saved seat's head, as kept.
    head: Option<String>,
    /// The saved seat's chunks, as kept.
    chunks: BTreeMap<usize, String>,
    /// Saves kept so far.
    pub saves: u32,
    /// Questions asked to the relay about the room.
    pub probes: u32,
    /// ICE lists asked for (each is told from the others by its username: `list-<n>`).
    pub ice_lists: u32,
    /// The ICE list each socket opened with, in order (its username).
    pub sockets: Vec<String>,
    /// The last socket's message loop.
    message_loop: Option<AbortHandle>,
}

/// A socket, its message loop stopped when it is dropped.
pub struct NativeLink {
    link: Link,
    message_loop: JoinHandle<Result<(), matchbox_socket::Error>>,
}

impl Drop for NativeLink {
    fn drop(&mut self) {
        self.message_loop.abort();
    }
}

impl Connection for NativeLink {
    type Peer = PeerId;

    fn next(&mut self) -> impl Future<Output = LinkEvent> {
        self.link.next()
    }

    fn send(&mut self, peer: PeerId, bytes: Vec<u8>) -> bool {
        self.link.send(peer, bytes)
    }
}

impl Env for Tab {
    type Link = NativeLink;

    fn now(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    fn sleep(&self, ms: u64) -> Pending<()> {
        Box::pin(tokio::time::sleep(Duration::from_millis(ms)))
    }

    fn open(&mut self, room: &str, ice: &[IceServer]) -> NativeLink {
        let url = format!("ws://{}/ws/{room}", self.relay);
        let (link, message_loop) = Link::connect(&url, ice);
        let message_loop = tokio::spawn(message_loop);
        self.message_loop = Some(message_loop.abort_handle());
        let list = ice.iter().find_map(|s| s.username.clone());
        self.sockets.push(list.unwrap_or_default());
        NativeLink { link, message_loop }
    }

    fn ask(&mut self, room: &str) -> Pending<Answer> {
        self.probes += 1;
        let (relay, room) = (self.relay, room.to_string());
        Box::pin(async move {
            let (refusal, peers) = probe(relay, &room).await;
            Answer { refusal, peers }
        })
    }

    fn ice_servers(&mut self) -> Pending<Option<Vec<IceServer>>> {
        self.ice_lists += 1;
        // No server: loopback needs none. The username tells the lists apart.
        let list = IceServer {
            urls: Vec::new(),
            username: Some(format!("list-{}", self.ice_lists)),
            credential: None,
        };
        Box::pin(async move { Some(vec![list]) })
    }

    fn keep(&mut self, _room: &str, parts: &SaveParts) -> bool {
        for (n, chunk) in &parts.chunks {
            self.chunks.insert(*n, chunk.clone());
        }
        self.head = Some(parts.head.clone());
        self.saves += 1;
        true
    }

    fn forget(&mut self, _room: &str) {
        self.head = None;
        self.chunks.clear();
    }
}

impl Tab {
    /// The driver of a session whose seat the tab keeps at once, whole, as the page does when
    /// it opens the room.
    fn seat(&mut self, session: Session) -> Driver<PeerId> {
        let mut driver = Driver::new(session);
        let parts = driver.session().save_parts(SaveCursor::default());
        if self.keep(&driver.session().invite().room_name(), &parts) {
            driver.save_kept(parts.cursor);
        }
        driver
    }

    /// The seat kept in the storage.
    pub fn stored(&self) -> Saved {
        let head = self
            .head
            .as_deref()
            .expect("the storage holds a saved seat");
        let count = Saved::chunks_of(head).expect("a readable head");
        let chunks: Vec<String> = (0..count).map(|n| self.chunks[&n].clone()).collect();
        Saved::from_parts(head, &chunks).expect("the saved seat reads")
    }
}

impl Player {
    /// A player for this session in a room of the relay at `relay`; times count from `start`.
    /// Its seat is kept at once, as the page keeps it when it opens the room.
    pub fn new(session: Session, relay: SocketAddr, start: Instant) -> Player {
        let mut tab = Tab {
            relay,
            start,
            head: None,
            chunks: BTreeMap::new(),
            saves: 0,
            probes: 0,
            ice_lists: 0,
            sockets: Vec::new(),
            message_loop: None,
        };
        let driver = tab.seat(session);
        Player {
            runtime: Runtime::new(tab, driver),
        }
    }

    /// The shared clock, in ms.
    pub fn now(&self) -> u64 {
        self.runtime.env().now()
    }

    /// The driver: the session and its connection.
    pub fn driver(&self) -> &Driver<PeerId> {
        self.runtime.machine()
    }

    /// The session.
    pub fn session(&self) -> &Session {
        self.driver().session()
    }

    /// The tab: its storage and what the runtime asked of it.
    pub fn tab(&self) -> &Tab {
        self.runtime.env()
    }

    /// Whether the socket's message loop ended (`None`: no socket yet).
    pub fn loop_finished(&self) -> Option<bool> {
        self.tab().message_loop.as_ref().map(|l| l.is_finished())
    }

    /// Waits for what comes first — the socket, the relay, the clock — and handles it.
    pub async fn turn(&mut self) {
        self.runtime
            .turn(&mut futures::stream::pending::<client_net::Input<PeerId>>())
            .await;
    }

    /// The player does something.
    pub fn act(&mut self, command: Command) -> Result<(), CommandError> {
        self.runtime.act(|driver, now| {
            let outputs = driver.act(command, now)?;
            Ok(driver.effects(outputs))
        })
    }

    /// The player asks for a new socket (« Réessayer »).
    pub fn retry(&mut self) {
        self.runtime
            .act(|driver, now| {
                let outputs = driver.retry(now);
                Ok::<_, ()>(driver.effects(outputs))
            })
            .expect("a retry is never refused");
    }

    /// The tab reloads: its socket is gone and the page comes back from the storage.
    pub fn reload(&mut self) {
        let tab = self.runtime.env_mut();
        let session = Session::restore(tab.stored()).expect("the saved seat restores");
        let driver = tab.seat(session);
        self.runtime.restart(driver);
    }
}

/// `GET /ws/<room>` over plain HTTP: what the relay refuses now (`Err` if it does not answer),
/// and how many players are in the room when it says.
pub async fn probe(relay: SocketAddr, room: &str) -> (Result<Option<Refusal>, ()>, Option<u32>) {
    match test_support::try_get(relay, &format!("/ws/{room}"), &[]).await {
        Ok(reply) => {
            let body = reply.text();
            (
                Ok(Refusal::from_answer(reply.status, &body)),
                relay_api::peers_from_answer(reply.status, &body),
            )
        }
        Err(_) => (Err(()), None),
    }
}
