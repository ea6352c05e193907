//! A spectator's connection (issue #24): a [`Machine`] the [`Runtime`](crate::Runtime) drives
//! like the players' [`Driver`](crate::Driver), over a link opened as a spectator (the relay's
//! `/ws/<room>?watch`, which its [`Env`](crate::Env) builds).
//!
//! The relay names the spectator to the players, who offer it a data channel each; it never
//! writes, never saves and never takes a seat. To every player whose channel opens it sends its
//! heads ([`Follower::ask`]); each player's session answers with what it lacks and then forwards
//! every new entry, which the [`Follower`] checks and folds as `engine verify` would. Both
//! players feed it at once when both are there (a duplicate costs a lookup), so the host away
//! changes nothing. A feeder caught passing on an entry no honest player keeps is read no more
//! on this connection ([`Watching::caught`] says which entry, for the page's « Transcript non
//! valable »); the other player's answers go on. Each feeder is also sent a fresh challenge,
//! and answers with a proof of the seat it holds (one signature per connection): a seat is
//! *present* for the spectator while a feeder that proved it has its channel open. A closed socket is reopened after a back-off
//! (1 s doubling to 10 s), the relay asked first whether there is room for one more spectator.

use crate::runtime::{Effect, Machine};
use crate::{Input, Refusal, FIRST_RETRY_MS, MAX_RETRY_MS};
use engine::session::follow::{Caught, Followed, Follower, WatchLink};
use engine::session::{Room, SaveCursor, SaveParts, Seat, Sig};

/// A player whose channel to the spectator is open.
#[derive(Clone, Debug)]
struct Feeder<P> {
    id: P,
    /// The challenge sent it on this channel.
    challenge: [u8; 16],
    /// The seat it proved.
    seat: Option<Seat>,
    /// Its proof, while the seat's key is not known (it is checked again when the key comes),
    /// with the key it was last checked against.
    unproven: Option<(Seat, Sig, Option<[u8; 32]>)>,
}

/// A spectator of one room, and its connection.
#[derive(Clone, Debug)]
pub struct Watching<P> {
    follower: Follower,
    /// Random bytes the challenges are made of.
    nonce: [u8; 16],
    /// Challenges sent: each channel gets another.
    challenges: u32,
    /// The players whose channel is open, in the order they came.
    feeders: Vec<Feeder<P>>,
    /// Players caught on this socket: their bytes are ignored.
    distrusted: Vec<P>,
    /// The first feeder caught, with the entry: said until the spectator leaves.
    caught: Option<Caught>,
    /// A link is open (asked for, or running).
    socket: bool,
    /// The relay was asked about the room and has not answered.
    asking: bool,
    /// When the next socket may open (ms), while there is none.
    retry_at: u64,
    /// Failed sockets in a row.
    attempts: u32,
    /// What the relay refused last (too many spectators), until a socket joins.
    refused: Option<Refusal>,
    /// What the follower learnt since the page last took it.
    news: Vec<Followed>,
}

impl<P: Copy + Eq> Watching<P> {
    /// A spectator of the room the link names; its first wake-up asks the relay about it.
    /// `nonce`: random bytes, the challenges' (a feeder must not guess them).
    pub fn new(link: WatchLink, nonce: [u8; 16]) -> Watching<P> {
        Watching {
            follower: Follower::new(link),
            nonce,
            challenges: 0,
            feeders: Vec::new(),
            distrusted: Vec::new(),
            caught: None,
            socket: false,
            asking: false,
            retry_at: 0,
            attempts: 0,
            refused: None,
            news: Vec::new(),
        }
    }

    /// The room as the checked entries fold.
    pub fn room(&self) -> &Room {
        self.follower.room()
    }

    /// The follower: what was checked, its export.
    pub fn follower(&self) -> &Follower {
        &self.follower
    }

    /// The players that feed this spectator now (0, 1 or 2).
    pub fn feeders(&self) -> usize {
        self.feeders.len()
    }

    /// The seats present: a feeder that proved it holds the seat has its channel open (host,
    /// guest).
    pub fn present(&self) -> [bool; 2] {
        let proved = |seat| self.feeders.iter().any(|f| f.seat == Some(seat));
        [proved(Seat::Host), proved(Seat::Guest)]
    }

    /// The first entry a feeder was caught passing on, if one was.
    pub fn caught(&self) -> Option<Caught> {
        self.caught
    }

    /// What the relay refused last, until a socket joins (e.g. too many spectators).
    pub fn refused(&self) -> Option<Refusal> {
        self.refused
    }

    /// What the follower learnt since the last call (the room's events, forks).
    pub fn take_news(&mut self) -> Vec<Followed> {
        std::mem::take(&mut self.news)
    }

    /// Takes one input at time `now`.
    pub fn input(&mut self, input: Input<P>, now: u64) -> Vec<Effect<P>> {
        let mut out = Vec::new();
        match input {
            Input::Wake if !self.socket && !self.asking && now >= self.retry_at => {
                self.asking = true;
                out.push(Effect::AskWhy);
            }
            Input::Why(answer) if self.asking && !self.socket => {
                self.asking = false;
                match answer {
                    Ok(None) => {
                        self.socket = true;
                        out.push(Effect::Connect);
                    }
                    Ok(Some(refusal)) => {
                        self.refused = Some(refusal);
                        self.back_off(now);
                    }
                    Err(()) => self.back_off(now),
                }
            }
            Input::Joined => {
                self.attempts = 0;
                self.refused = None;
            }
            Input::Peer(id, true) if self.socket && self.feeder(id).is_none() => {
                let mut challenge = self.nonce;
                for (c, n) in challenge.iter_mut().zip(self.challenges.to_le_bytes()) {
                    *c ^= n;
                }
                self.challenges += 1;
                self.feeders.push(Feeder {
                    id,
                    challenge,
                    seat: None,
                    unproven: None,
                });
                out.push(Effect::Send(id, self.follower.ask()));
                out.push(Effect::Send(id, Follower::challenge(challenge)));
            }
            Input::Peer(id, false) => {
                self.feeders.retain(|f| f.id != id);
                self.distrusted.retain(|&f| f != id);
            }
            Input::Packet(id, bytes)
                if self.feeder(id).is_some() && !self.distrusted.contains(&id) =>
            {
                match self.follower.receive(&bytes) {
                    Ok(learnt) => {
                        if !learnt.is_empty() {
                            self.check_again();
                        }
                        for f in learnt {
                            match f {
                                Followed::Send(ask) => out.push(Effect::Send(id, ask)),
                                Followed::Proof(seat, sig) => self.proved(id, seat, sig),
                                other => self.news.push(other),
                            }
                        }
                    }
                    Err(caught) => {
                        self.distrusted.push(id);
                        self.caught.get_or_insert(caught);
                    }
                }
            }
            Input::Closed if self.socket => {
                self.socket = false;
                self.feeders.clear();
                self.distrusted.clear();
                self.back_off(now);
            }
            _ => {}
        }
        out
    }

    fn feeder(&self, id: P) -> Option<usize> {
        self.feeders.iter().position(|f| f.id == id)
    }

    /// A feeder's proof of its seat: only its first is read (one signature check per channel,
    /// and one more each time the seat's key changes while it does not hold).
    fn proved(&mut self, id: P, seat: Seat, sig: Sig) {
        let Some(i) = self.feeder(id) else { return };
        let f = &mut self.feeders[i];
        if f.seat.is_some() || f.unproven.is_some() {
            return;
        }
        f.unproven = Some((seat, sig, None));
        self.check_again();
    }

    /// Checks the proofs that did not hold, against the seat's key if it changed since.
    fn check_again(&mut self) {
        for f in &mut self.feeders {
            let Some((seat, sig, tried)) = f.unproven else {
                continue;
            };
            let key = self.follower.seat_key(seat);
            if key.is_none() || key == tried {
                continue;
            }
            if self.follower.proves(&f.challenge, seat, sig) {
                f.seat = Some(seat);
                f.unproven = None;
            } else {
                f.unproven = Some((seat, sig, key));
            }
        }
    }

    /// No socket until the back-off has passed.
    fn back_off(&mut self, now: u64) {
        let wait = (FIRST_RETRY_MS << self.attempts.min(4)).min(MAX_RETRY_MS);
        self.attempts += 1;
        self.retry_at = now + wait;
    }
}

impl<P: Copy + Eq> Machine for Watching<P> {
    type Peer = P;
    type Input = Input<P>;

    fn update(&mut self, input: Input<P>, now: u64) -> Vec<Effect<P>> {
        self.input(input, now)
    }

    fn next_wakeup(&self, now: u64) -> Option<u64> {
        (!self.socket && !self.asking).then_some(self.retry_at.max(now))
    }

    fn room(&self) -> String {
        self.follower.link().room_name()
    }

    fn has_peer(&self) -> bool {
        !self.feeders.is_empty()
    }

    /// A spectator never saves.
    fn save_parts(&self) -> Option<SaveParts> {
        None
    }

    fn kept(&mut self, _: Option<SaveCursor>) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::session::{Command, Feed, Loopback, Message, Seat, Step};
    use engine::GameKind;

    fn sends(out: &[Effect<u32>], to: u32) -> Vec<Vec<u8>> {
        out.iter()
            .filter_map(|e| match e {
                Effect::Send(p, b) if *p == to => Some(b.clone()),
                _ => None,
            })
            .collect()
    }

    /// A spectator admitted by the relay, with a socket open.
    fn connected(p: &Loopback) -> Watching<u32> {
        let mut w = Watching::new(WatchLink::of(p.host().invite()).unwrap(), [5; 16]);
        assert_eq!(w.next_wakeup(0), Some(0));
        assert_eq!(w.input(Input::Wake, 0), [Effect::AskWhy]);
        assert_eq!(w.input(Input::Why(Ok(None)), 1), [Effect::Connect]);
        assert_eq!(w.next_wakeup(1), None);
        w.input(Input::Joined, 2);
        w
    }

    /// Gives `w` everything `feeder`'s session sends it for `bytes` from it, and its answers
    /// back, until neither has more.
    fn pass(
        w: &mut Watching<u32>,
        id: u32,
        feed: &mut Feed,
        p: &Loopback,
        seat: Seat,
        asks: Vec<Vec<u8>>,
    ) {
        let mut asks = asks;
        while !asks.is_empty() {
            let answers: Vec<Vec<u8>> = asks
                .iter()
                .flat_map(|a| p.side(seat).feed(feed, a))
                .collect();
            asks = answers
                .into_iter()
                .flat_map(|b| sends(&w.input(Input::Packet(id, b), 5), id))
                .collect();
        }
    }

    #[test]
    fn a_spectator_asks_each_player_and_follows_both() {
        let mut p = Loopback::new(GameKind::Meta, 0);
        p.exchange(Seat::Host, Command::Play(Step::Cell(40)));
        let mut w = connected(&p);
        let (mut host, mut guest) = (Feed::default(), Feed::default());
        // Its heads, and a challenge: which seat do you hold?
        let ask = sends(&w.input(Input::Peer(1, true), 3), 1);
        assert_eq!(ask.len(), 2);
        pass(&mut w, 1, &mut host, &p, Seat::Host, ask);
        assert_eq!(w.room(), p.host().room());
        assert_eq!((w.feeders(), w.present()), (1, [true, false]));
        let ask = sends(&w.input(Input::Peer(2, true), 4), 2);
        pass(&mut w, 2, &mut guest, &p, Seat::Guest, ask);
        assert_eq!((w.feeders(), w.has_peer()), (2, true));
        assert_eq!(w.present(), [true, true]);
        // A move reaches it from both; the second copy changes nothing.
        p.exchange(Seat::Guest, Command::Play(Step::Cell(36)));
        for (id, feed, seat) in [(1, &mut host, Seat::Host), (2, &mut guest, Seat::Guest)] {
            for b in p.side(seat).feed_new(feed) {
                w.input(Input::Packet(id, b), 6);
            }
        }
        assert_eq!(w.room(), p.host().room());
        let moves = w
            .take_news()
            .into_iter()
            .filter(|f| matches!(f, Followed::Room(engine::session::RoomEvent::Played { .. })))
            .count();
        assert_eq!(moves, 2, "each move told once");
        assert_eq!(w.caught(), None);
    }

    #[test]
    fn a_seat_is_present_once_proved_even_before_its_key_is_known_and_until_its_channel_closes() {
        let mut p = Loopback::new(GameKind::Meta, 0);
        p.exchange(Seat::Host, Command::Play(Step::Cell(40)));
        let mut w = connected(&p);
        let mut guest = Feed::default();
        let ask = sends(&w.input(Input::Peer(2, true), 3), 2);
        // The guest's proof comes first: its key is not known yet.
        let proof = p.guest().feed(&mut guest, &ask[1]);
        w.input(Input::Packet(2, proof[0].clone()), 4);
        assert_eq!(w.present(), [false, false]);
        // Its entries bring the key, and the proof holds.
        pass(&mut w, 2, &mut guest, &p, Seat::Guest, vec![ask[0].clone()]);
        assert_eq!(w.present(), [false, true]);
        // A second feeder that passes on the guest's proof as the host's proves nothing.
        let ask = sends(&w.input(Input::Peer(1, true), 5), 1);
        let Ok(Message::Proof { sig, .. }) = engine::session::wire::decode_message(&proof[0])
        else {
            panic!("a proof");
        };
        let lie = engine::session::wire::encode_message(&Message::Proof {
            seat: Seat::Host,
            sig,
        });
        w.input(Input::Packet(1, lie), 6);
        assert_eq!(w.present(), [false, true]);
        // Nor does the host's own proof, after a false one on that channel: one proof a channel.
        let mut host = Feed::default();
        for b in p.host().feed(&mut host, &ask[1]) {
            w.input(Input::Packet(1, b), 7);
        }
        assert_eq!(w.present(), [false, true]);
        w.input(Input::Peer(2, false), 8);
        assert_eq!(w.present(), [false, false]);
    }

    #[test]
    fn a_lying_feeder_is_read_no_more_and_the_other_player_goes_on() {
        let mut p = Loopback::new(GameKind::Meta, 0);
        p.exchange(Seat::Host, Command::Play(Step::Cell(40)));
        let mut w = connected(&p);
        w.input(Input::Peer(1, true), 3);
        // Player 1's browser passes on the host's hello with a signature it made up.
        let verified = engine::session::transcript::verify(&p.host().export()).unwrap();
        let mut e = verified.entries[0].clone();
        e.sig.0[0] ^= 1;
        let caught = w.input(
            Input::Packet(
                1,
                engine::session::wire::encode_message(&Message::Entries(vec![e])),
            ),
            4,
        );
        assert!(caught.is_empty());
        assert!(w.caught().is_some());
        // Its true entries are ignored from now on.
        let mut feed = Feed::default();
        for b in p.host().feed(&mut feed, &w.follower().ask()) {
            w.input(Input::Packet(1, b), 5);
        }
        assert_eq!(w.follower().held(), [0, 0]);
        // The other player's are not.
        let ask = sends(&w.input(Input::Peer(2, true), 6), 2);
        let mut guest = Feed::default();
        pass(&mut w, 2, &mut guest, &p, Seat::Guest, ask);
        assert_eq!(w.room(), p.guest().room());
    }

    #[test]
    fn a_refused_or_closed_socket_is_asked_again_after_a_back_off() {
        let p = Loopback::new(GameKind::Morris, 100);
        let mut w = Watching::<u32>::new(WatchLink::of(p.host().invite()).unwrap(), [5; 16]);
        w.input(Input::Wake, 0);
        assert!(w
            .input(Input::Why(Ok(Some(Refusal::RoomFull))), 10)
            .is_empty());
        assert_eq!(w.refused(), Some(Refusal::RoomFull));
        assert_eq!(w.next_wakeup(10), Some(10 + FIRST_RETRY_MS));
        assert!(
            w.input(Input::Wake, 500).is_empty(),
            "not before the back-off"
        );
        assert_eq!(w.input(Input::Wake, 10 + FIRST_RETRY_MS), [Effect::AskWhy]);
        assert_eq!(w.input(Input::Why(Ok(None)), 1_100), [Effect::Connect]);
        w.input(Input::Joined, 1_200);
        assert_eq!(w.refused(), None);
        w.input(Input::Peer(1, true), 1_300);
        w.input(Input::Closed, 2_000);
        assert_eq!((w.feeders(), w.has_peer()), (0, false));
        assert_eq!(w.next_wakeup(2_000), Some(2_000 + FIRST_RETRY_MS));
        assert_eq!(w.follower().held(), [0, 0]);
    }
}
