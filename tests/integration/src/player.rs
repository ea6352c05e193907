//! A native player: the browser's room loop without the browser. A [`Player`] owns a
//! [`Driver`] (the session and its connection, exactly as the page has it) and runs its effects
//! on real matchbox sockets through the real relay: it opens and drops sockets when the driver
//! says so, asks the relay why a socket closed over plain HTTP, and keeps the saved seat as a tab
//! keeps it in its storage, so that a reload restores from there.

use client_net::{Driver, Input, Link, LinkEvent, Output, PeerId, Refusal};
use engine::session::{Command, CommandError, Saved, Session};
use std::net::SocketAddr;
use std::time::Instant;
use tokio::task::JoinHandle;

/// One seat of a room, played natively.
pub struct Player {
    /// The session and its connection.
    pub driver: Driver<PeerId>,
    link: Option<Link>,
    message_loop: Option<JoinHandle<Result<(), matchbox_socket::Error>>>,
    /// A pending answer of the relay to « why did our socket close? ».
    why: Option<JoinHandle<Result<Option<Refusal>, ()>>>,
    relay: SocketAddr,
    room: String,
    /// What the tab's storage holds: the saved seat, as text.
    pub saved: String,
    /// Sockets opened so far.
    pub sockets_opened: u32,
    start: Instant,
}

impl Player {
    /// A player for this session in a room of the relay at `relay`; times count from `start`.
    pub fn new(session: Session, relay: SocketAddr, start: Instant) -> Player {
        Player {
            saved: session.save().to_text(),
            room: session.invite().room_name(),
            driver: Driver::new(session),
            link: None,
            message_loop: None,
            why: None,
            relay,
            sockets_opened: 0,
            start,
        }
    }

    /// The shared clock, in ms.
    pub fn now(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Whether the socket's message loop ended (`None`: no socket).
    pub fn loop_finished(&self) -> Option<bool> {
        self.message_loop.as_ref().map(|l| l.is_finished())
    }

    /// The session.
    pub fn session(&self) -> &Session {
        self.driver.session()
    }

    /// The next thing the socket or the relay reports (pending forever when there is none).
    pub async fn next_input(&mut self) -> Input<PeerId> {
        let (has_link, has_why) = (self.link.is_some(), self.why.is_some());
        let (link, why) = (self.link.as_mut(), self.why.as_mut());
        tokio::select! {
            e = async move { link.expect("guarded").next().await }, if has_link => match e {
                LinkEvent::Peer(id, up) => Input::Peer(id, up),
                LinkEvent::Packet(id, bytes) => Input::Packet(id, bytes),
                LinkEvent::NoWebRtc(id) => Input::NoWebRtc(id),
                LinkEvent::Closed => Input::Closed,
            },
            answer = async move { why.expect("guarded").await }, if has_why => {
                Input::Why(answer.unwrap_or(Err(())))
            }
            else => std::future::pending().await,
        }
    }

    /// Feeds one input to the driver and carries out what it says.
    pub fn feed(&mut self, input: Input<PeerId>) {
        if input == Input::Closed {
            self.link = None;
        }
        if matches!(input, Input::Why(_)) {
            self.why = None;
        }
        let now = self.now();
        let mut outputs = self.driver.input(input, now);
        if self.link.as_mut().is_some_and(Link::newly_joined) {
            outputs.extend(self.driver.input(Input::Joined, now));
        }
        self.carry(outputs);
    }

    /// The player does something.
    pub fn act(&mut self, command: Command) -> Result<(), CommandError> {
        let outputs = self.driver.act(command, self.now())?;
        self.carry(outputs);
        Ok(())
    }

    /// The tab reloads: its socket is gone and the page comes back from the storage.
    pub fn reload(&mut self) {
        self.drop_socket();
        let saved = Saved::from_text(&self.saved).expect("the storage holds a saved seat");
        self.driver = Driver::new(Session::restore(saved).expect("the saved seat restores"));
    }

    fn drop_socket(&mut self) {
        self.link = None;
        if let Some(l) = self.message_loop.take() {
            l.abort();
        }
    }

    fn carry(&mut self, outputs: Vec<Output<PeerId>>) {
        for o in outputs {
            match o {
                Output::Send(peer, bytes) => {
                    if let Some(l) = self.link.as_mut() {
                        l.send(peer, bytes);
                    }
                }
                Output::Save => self.saved = self.driver.session().save_text(),
                Output::Event(_) => {}
                Output::Connect => {
                    self.drop_socket();
                    let url = format!("ws://{}/ws/{}", self.relay, self.room);
                    let (link, message_loop) = Link::connect(&url, &[]);
                    self.link = Some(link);
                    self.message_loop = Some(tokio::spawn(message_loop));
                    self.sockets_opened += 1;
                }
                Output::Disconnect => self.drop_socket(),
                Output::AskWhy => {
                    let (relay, room) = (self.relay, self.room.clone());
                    self.why = Some(tokio::spawn(async move { probe(relay, &room).await }));
                }
            }
        }
    }
}

/// `GET /ws/<room>` over plain HTTP: what the relay refuses now, or `Err` if it does not answer.
pub async fn probe(relay: SocketAddr, room: &str) -> Result<Option<Refusal>, ()> {
    let reply = test_support::try_get(relay, &format!("/ws/{room}"), &[])
        .await
        .map_err(|_| ())?;
    Ok(Refusal::from_answer(reply.status, &reply.text()))
}
