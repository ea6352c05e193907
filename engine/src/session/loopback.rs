//! Two sessions wired in memory, with faults: the one harness the protocol's tests, property
//! tests, benches, the command line's tests and the client's model tests drive the protocol
//! with. Messages in flight can be dropped, duplicated, reordered, delayed or damaged; either
//! side can reload from its save; time only moves when the test says so. A side is a
//! [`Session`], or anything that owns one and drives it as a page does ([`Side`]: the client's
//! room model, whose tests then click on both pages through the same faults).

use super::wire::{encode_message, Entry, Message};
use super::{Command, CommandError, Config, Effect, Event, Invite, Seat, Session};
use crate::GameKind;
use std::collections::VecDeque;

/// The host's key seed in [`Loopback::new`] (a test can sign as the host with it).
pub const HOST_SEED: [u8; 32] = [1; 32];
/// The guest's key seed in [`Loopback::new`].
pub const GUEST_SEED: [u8; 32] = [2; 32];

/// Something that happens to the next message in flight towards a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// It is lost.
    Drop,
    /// It arrives twice.
    Duplicate,
    /// It arrives after the others in flight.
    Reorder,
    /// It arrives this many milliseconds later.
    Delay(u64),
    /// One bit of it is flipped (the bit's index, modulo the message's length).
    Flip(usize),
}

/// What a [`Loopback`] wires together: a [`Session`], or something that owns one and carries
/// its effects as a page does (the client's room model, with its connection driver). What it
/// returns is routed by the loopback: bytes go in flight, events are kept.
pub trait Side: Sized {
    /// The session inside.
    fn session(&self) -> &Session;
    /// Bytes from the other side.
    fn receive(&mut self, bytes: &[u8], now: u64) -> Vec<Effect>;
    /// The time [`Side::next_wakeup`] asked for came.
    fn tick(&mut self, now: u64) -> Vec<Effect>;
    /// When [`Side::tick`] is due next.
    fn next_wakeup(&self) -> Option<u64>;
    /// The data channel to the other side opened.
    fn peer_connected(&mut self, now: u64) -> Vec<Effect>;
    /// The data channel to the other side closed.
    fn peer_disconnected(&mut self, now: u64) -> Vec<Effect>;
    /// The same side after a reload: back from its save, with nothing else.
    fn reload(&self) -> Self;
}

impl Side for Session {
    fn session(&self) -> &Session {
        self
    }
    fn receive(&mut self, bytes: &[u8], now: u64) -> Vec<Effect> {
        Session::receive(self, bytes, now)
    }
    fn tick(&mut self, now: u64) -> Vec<Effect> {
        Session::tick(self, now)
    }
    fn next_wakeup(&self) -> Option<u64> {
        Session::next_wakeup(self)
    }
    fn peer_connected(&mut self, now: u64) -> Vec<Effect> {
        Session::peer_connected(self, now)
    }
    fn peer_disconnected(&mut self, now: u64) -> Vec<Effect> {
        Session::peer_disconnected(self, now)
    }
    fn reload(&self) -> Session {
        Session::restore(self.save()).expect("a session restores its save")
    }
}

#[derive(Clone)]
struct Flight {
    bytes: Vec<u8>,
    due: u64,
}

/// Two sessions (or two [`Side`]s) joined by an in-memory channel under the test's control: what is in flight can
/// be dropped, duplicated, reordered, delayed or damaged, either side can reload from its save,
/// and time moves only when the test says so.
///
/// ```
/// use engine::session::{Command, Fault, Loopback, Seat, Step};
/// use engine::GameKind;
///
/// let mut net = Loopback::new(GameKind::Meta, 100); // both hellos exchanged
/// net.act(Seat::Host, Command::Play(Step::Cell(40))).unwrap(); // e5, not delivered yet
/// net.fault(Seat::Guest, Fault::Drop); // lost on the way
/// net.settle();
/// assert_eq!(net.guest().game().unwrap().turns(), 0);
/// net.advance(2_000); // the next heartbeat resynchronises
/// net.settle();
/// assert_eq!(net.guest().game().unwrap().turns(), 1);
/// net.restart(Seat::Guest); // a reload: restored from its save
/// net.connect();
/// net.settle();
/// assert!(net.in_sync());
/// ```
#[derive(Clone)]
pub struct Loopback<S = Session> {
    sides: [S; 2],
    now: u64,
    /// Messages on their way towards each side (host, guest).
    in_flight: [VecDeque<Flight>; 2],
    /// Every message ever sent, and towards which side (for replays).
    sent: Vec<(Seat, Vec<u8>)>,
    connected: bool,
    /// Sides whose process is frozen: they run no timer and everything sent to them is lost.
    frozen: [bool; 2],
    events: Vec<(Seat, Event)>,
    /// Random faults: the generator's state and the chance of a fault per message, in percent.
    random: Option<(u64, u8)>,
}

fn index(seat: Seat) -> usize {
    seat.index()
}

impl Loopback {
    /// A room of this game with fixed keys, both sides connected and their hellos exchanged.
    pub fn new(kind: GameKind, max_turns: u16) -> Loopback {
        let invite = Invite::new(kind, max_turns, [9; 16], HOST_SEED, [5; 16]);
        Loopback::with_invites(invite.clone(), invite)
    }

    /// The host with its invitation (which must be keyed by the host seed `[1; 32]`), the guest
    /// (seed `[2; 32]`) with what it got — the same, the link, or a code — connected.
    pub fn with_invites(host: Invite, guest: Invite) -> Loopback {
        let host = Session::host(host, HOST_SEED, Config::default(), 0)
            .expect("the host invitation is keyed by the host seed");
        let guest = Session::guest(guest, GUEST_SEED, Config::default(), 0);
        Loopback::with_sessions(host, guest)
    }

    /// Two given sessions, connected, everything delivered.
    pub fn with_sessions(host: Session, guest: Session) -> Loopback {
        Loopback::with_sides(host, guest)
    }

    /// A side does what its player asked; its messages go in flight (call [`Loopback::settle`]
    /// to deliver them).
    pub fn act(&mut self, seat: Seat, command: Command) -> Result<(), CommandError> {
        let now = self.now;
        let out = self.sides[index(seat)].act(command, now)?;
        self.route(seat, out);
        Ok(())
    }

    /// Acts (the command must be accepted) and delivers everything it caused.
    pub fn exchange(&mut self, seat: Seat, command: Command) {
        if let Err(e) = self.act(seat, command) {
            panic!("{seat:?} could not {command:?}: {e}");
        }
        self.settle();
    }
}

impl<S: Side> Loopback<S> {
    /// Two given sides, connected, everything delivered.
    pub fn with_sides(host: S, guest: S) -> Loopback<S> {
        let mut net = Loopback {
            sides: [host, guest],
            now: 0,
            in_flight: [VecDeque::new(), VecDeque::new()],
            sent: Vec::new(),
            connected: false,
            frozen: [false; 2],
            events: Vec::new(),
            random: None,
        };
        net.connect();
        net.settle();
        net
    }

    /// The host's side.
    pub fn host(&self) -> &S {
        &self.sides[0]
    }

    /// The guest's side.
    pub fn guest(&self) -> &S {
        &self.sides[1]
    }

    /// One side.
    pub fn side(&self, seat: Seat) -> &S {
        &self.sides[index(seat)]
    }

    /// One side, to drive it by hand (what it returns is not routed) or to replace it.
    pub fn side_mut(&mut self, seat: Seat) -> &mut S {
        &mut self.sides[index(seat)]
    }

    /// The time both sides see (ms).
    pub fn now(&self) -> u64 {
        self.now
    }

    /// Sets the clock (it never goes back); nothing runs.
    pub fn set_now(&mut self, now: u64) {
        self.now = self.now.max(now);
    }

    /// True while the data channel is open.
    pub fn is_connected(&self) -> bool {
        self.connected
    }

    /// Every event either side reported so far, oldest first.
    pub fn events(&self) -> &[(Seat, Event)] {
        &self.events
    }

    /// The events reported since the last call.
    pub fn take_events(&mut self) -> Vec<(Seat, Event)> {
        std::mem::take(&mut self.events)
    }

    /// Every message ever sent, with the side it was sent to.
    pub fn sent(&self) -> &[(Seat, Vec<u8>)] {
        &self.sent
    }

    /// Messages in flight towards a side.
    pub fn in_flight(&self, to: Seat) -> usize {
        self.in_flight[index(to)].len()
    }

    /// From now on, each message sent suffers a random fault (drop, duplicate, reorder or a
    /// delay of up to 3 s) with this chance in percent; `seed` makes it repeatable.
    pub fn random_faults(&mut self, seed: u64, percent: u8) {
        self.random = Some((seed | 1, percent.min(100)));
    }

    /// Carries out a side's effects: what it sends goes in flight (if connected), events are
    /// kept.
    pub fn route(&mut self, from: Seat, effects: Vec<Effect>) {
        let to = from.other();
        for e in effects {
            match e {
                Effect::Send(bytes) => {
                    if self.connected && !self.frozen[index(to)] {
                        self.sent.push((to, bytes.clone()));
                        self.in_flight[index(to)].push_back(Flight {
                            bytes,
                            due: self.now,
                        });
                        self.random_fault(to);
                    }
                }
                Effect::Save => {}
                Effect::Event(ev) => self.events.push((from, ev)),
            }
        }
    }

    fn random_fault(&mut self, to: Seat) {
        let Some((mut state, percent)) = self.random else {
            return;
        };
        // xorshift64*
        let mut next = || {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32
        };
        let hit = next() % 100 < percent as u64;
        let (kind, delay) = (next() % 4, next() % 3_000);
        self.random = Some((state, percent));
        if !hit {
            return;
        }
        // The message just sent is the last one in flight.
        let queue = &mut self.in_flight[index(to)];
        let Some(mut m) = queue.pop_back() else {
            return;
        };
        match kind {
            0 => {} // dropped
            1 => {
                queue.push_back(m.clone());
                queue.push_back(m);
            }
            // Overtakes the message sent before it.
            2 => queue.insert(queue.len().saturating_sub(1), m),
            _ => {
                m.due += delay;
                queue.push_back(m);
            }
        }
    }

    /// Applies a fault to the next message in flight towards `to` (nothing if there is none).
    pub fn fault(&mut self, to: Seat, fault: Fault) {
        let queue = &mut self.in_flight[index(to)];
        let Some(mut m) = queue.pop_front() else {
            return;
        };
        match fault {
            Fault::Drop => {}
            Fault::Duplicate => {
                queue.push_front(Flight {
                    bytes: m.bytes.clone(),
                    due: m.due,
                });
                queue.push_front(m);
            }
            Fault::Reorder => queue.push_back(m),
            Fault::Delay(ms) => {
                m.due = m.due.max(self.now) + ms;
                queue.push_front(m);
            }
            Fault::Flip(bit) => {
                if !m.bytes.is_empty() {
                    let bit = bit % (m.bytes.len() * 8);
                    m.bytes[bit / 8] ^= 1 << (bit % 8);
                }
                queue.push_front(m);
            }
        }
    }

    /// A side's process freezes (a stopped tab with its connection still open): it runs no
    /// timer, and what is sent to it is lost — the other side only notices the silence.
    pub fn freeze(&mut self, seat: Seat) {
        self.frozen[index(seat)] = true;
        self.in_flight[index(seat)].clear();
    }

    /// A frozen side runs again.
    pub fn thaw(&mut self, seat: Seat) {
        self.frozen[index(seat)] = false;
    }

    /// Drops everything in flight towards a side.
    pub fn clear(&mut self, to: Seat) {
        self.in_flight[index(to)].clear();
    }

    /// Puts bytes in flight towards a side, as if the other had sent them (a forgery, a replay).
    pub fn inject(&mut self, to: Seat, bytes: Vec<u8>) {
        self.in_flight[index(to)].push_back(Flight {
            bytes,
            due: self.now,
        });
    }

    /// Delivers these entries to a side at once, as one message, and routes its answer.
    pub fn deliver_entries(&mut self, to: Seat, entries: Vec<Entry>) {
        let bytes = encode_message(&Message::Entries(entries));
        self.deliver_bytes(to, &bytes);
    }

    /// Delivers bytes to a side at once and routes its answer.
    pub fn deliver_bytes(&mut self, to: Seat, bytes: &[u8]) {
        let now = self.now;
        let out = self.sides[index(to)].receive(bytes, now);
        self.route(to, out);
    }

    /// Delivers the next message due towards a side; false when none is due.
    pub fn deliver(&mut self, to: Seat) -> bool {
        let queue = &mut self.in_flight[index(to)];
        let Some(i) = queue.iter().position(|m| m.due <= self.now) else {
            return false;
        };
        let m = queue.remove(i).expect("found");
        self.deliver_bytes(to, &m.bytes);
        true
    }

    /// Delivers every message due, alternately to each side, until none is left. Panics if the
    /// sides never go quiet (a message loop is a protocol bug).
    pub fn settle(&mut self) {
        assert!(
            self.settle_within(100_000),
            "the two sessions never went quiet"
        );
    }

    /// Delivers at most `n` messages due; true if none is left then.
    pub fn settle_within(&mut self, n: usize) -> bool {
        for _ in 0..n {
            let a = self.deliver(Seat::Guest);
            let b = self.deliver(Seat::Host);
            if !a && !b {
                return true;
            }
        }
        !self.in_flight.iter().flatten().any(|m| m.due <= self.now)
    }

    /// A side does something through its own interface now (a page's click, say); what it
    /// returns is routed, its messages go in flight (call [`Loopback::settle`] to deliver them).
    pub fn drive(&mut self, seat: Seat, f: impl FnOnce(&mut S, u64) -> Vec<Effect>) {
        let now = self.now;
        let out = f(&mut self.sides[index(seat)], now);
        self.route(seat, out);
    }

    /// Runs a side's timers now.
    pub fn tick(&mut self, seat: Seat) {
        let now = self.now;
        let out = self.sides[index(seat)].tick(now);
        self.route(seat, out);
    }

    /// Lets `ms` pass: each side's timers run when due (in time order), and delayed messages
    /// arrive when due. Messages sent meanwhile are delivered.
    pub fn advance(&mut self, ms: u64) {
        let end = self.now + ms;
        loop {
            let next = [Seat::Host, Seat::Guest]
                .iter()
                .filter(|&&s| !self.frozen[index(s)])
                .filter_map(|&s| self.side(s).next_wakeup())
                .chain(self.in_flight.iter().flatten().map(|m| m.due))
                .filter(|&t| t > self.now && t <= end)
                .min();
            match next {
                Some(t) => {
                    self.now = t;
                    self.tick_due(t);
                    self.settle();
                }
                None => {
                    self.now = end;
                    self.tick_due(end);
                    self.settle();
                    return;
                }
            }
        }
    }

    fn tick_due(&mut self, t: u64) {
        for seat in [Seat::Host, Seat::Guest] {
            let due = self.side(seat).next_wakeup().is_some_and(|w| w <= t);
            if due && !self.frozen[index(seat)] {
                self.tick(seat);
            }
        }
    }

    /// The data channel opens (or reopens): both sides offer their heads.
    pub fn connect(&mut self) {
        self.connected = true;
        let now = self.now;
        for seat in [Seat::Host, Seat::Guest] {
            let out = self.sides[index(seat)].peer_connected(now);
            self.route(seat, out);
        }
    }

    /// The data channel closes: what was in flight is lost, both sides see the other go.
    pub fn disconnect(&mut self) {
        self.connected = false;
        self.in_flight = [VecDeque::new(), VecDeque::new()];
        let now = self.now;
        for seat in [Seat::Host, Seat::Guest] {
            let out = self.sides[index(seat)].peer_disconnected(now);
            self.route(seat, out);
        }
    }

    /// A side reloads its tab: the connection drops (what was in flight is lost) and the side
    /// comes back from its save, with nothing else. Call [`Loopback::connect`] to meet again.
    pub fn restart(&mut self, seat: Seat) {
        if self.connected {
            self.disconnect();
        }
        self.sides[index(seat)] = self.side(seat).reload();
    }

    /// The seat whose step it is in the current game (as the host sees it).
    pub fn mover(&self) -> Option<Seat> {
        let room = self.host().session().room();
        let g = room.game()?;
        (room.in_progress()).then(|| room.seat_of(g.to_move()))
    }

    /// True when both sides hold the same transcript and the same room.
    pub fn in_sync(&self) -> bool {
        let (host, guest) = (self.host().session(), self.guest().session());
        host.room() == guest.room() && host.entries() == guest.entries()
    }
}
