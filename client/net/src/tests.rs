//! The driver without sockets: two drivers and a pretend relay that introduces their sockets,
//! carries their bytes and can close, refuse, freeze or restart — every timer checked to the
//! millisecond.

use super::*;
use engine::session::{
    Command, Config, Event, Invite, Presence, Proposal, RoomEvent, Seat, Session, Step,
};
use engine::GameKind;

type Out = Vec<Output<u32>>;

/// Two drivers (host = 0, guest = 1) and what stands between them.
struct World {
    sides: [Driver<u32>; 2],
    /// Socket generation per side: its peer id is `10 * generation + side`.
    generation: [u32; 2],
    /// Which sides hold an open socket.
    open: [bool; 2],
    /// The relay introduces the two sockets to each other.
    relay_up: bool,
    now: u64,
    events: Vec<(usize, Event)>,
    saves: [usize; 2],
    /// Outputs in the order they came, per side (to check Save before Send).
    log: [Out; 2],
    /// Inputs waiting to be fed, in order (a socket reports its peers before their bytes).
    queue: std::collections::VecDeque<(usize, Input<u32>)>,
    feeding: bool,
}

impl World {
    fn new(kind: GameKind) -> World {
        let invite = Invite::new(kind, 100, [1; 16], [2; 32], [3; 16]);
        let host = Session::host(invite.clone(), [2; 32], Config::default(), 0).unwrap();
        let guest = Session::guest(invite, [4; 32], Config::default(), 0);
        World {
            sides: [Driver::new(host), Driver::new(guest)],
            generation: [0, 0],
            open: [false, false],
            relay_up: true,
            now: 0,
            events: Vec::new(),
            saves: [0, 0],
            log: [Vec::new(), Vec::new()],
            queue: Default::default(),
            feeding: false,
        }
    }

    fn id(&self, side: usize) -> u32 {
        10 * self.generation[side] + side as u32
    }

    fn carry(&mut self, side: usize, out: Out) {
        for o in out {
            self.log[side].push(o.clone());
            match o {
                Output::Send(to, bytes) => {
                    let other = 1 - side;
                    if self.open[other] && to == self.id(other) {
                        let from = self.id(side);
                        self.feed(other, Input::Packet(from, bytes));
                    }
                }
                Output::Save => self.saves[side] += 1,
                Output::Event(e) => self.events.push((side, e)),
                Output::Connect => {
                    self.generation[side] += 1;
                    if self.relay_up {
                        self.open[side] = true;
                        self.feed(side, Input::Joined);
                        if self.open[1 - side] {
                            let (a, b) = (self.id(side), self.id(1 - side));
                            self.feed(1 - side, Input::Peer(a, true));
                            self.feed(side, Input::Peer(b, true));
                        }
                    } else {
                        self.feed(side, Input::Closed);
                    }
                }
                Output::Disconnect => self.close_socket(side, false),
                Output::AskWhy => {
                    // Two sides only: the room is never full here.
                    let answer = if self.relay_up { Ok(None) } else { Err(()) };
                    self.feed(side, Input::Why(answer));
                }
            }
        }
    }

    fn feed(&mut self, side: usize, input: Input<u32>) {
        self.queue.push_back((side, input));
        if self.feeding {
            return;
        }
        self.feeding = true;
        while let Some((side, input)) = self.queue.pop_front() {
            let out = self.sides[side].input(input, self.now);
            self.carry(side, out);
        }
        self.feeding = false;
    }

    /// A side's socket closes (`tell`: its own driver hears it; the other side's channel closes).
    fn close_socket(&mut self, side: usize, tell: bool) {
        if !self.open[side] {
            return;
        }
        self.open[side] = false;
        if self.open[1 - side] {
            let gone = self.id(side);
            self.feed(1 - side, Input::Peer(gone, false));
        }
        if tell {
            self.feed(side, Input::Closed);
        }
    }

    /// Runs every wake-up due until `end`.
    fn run_until(&mut self, end: u64) {
        loop {
            let next = (0..2)
                .filter_map(|i| self.sides[i].next_wakeup())
                .filter(|&t| t <= end)
                .min();
            let Some(t) = next else { break };
            self.now = self.now.max(t);
            for i in 0..2 {
                if self.sides[i].next_wakeup().is_some_and(|w| w <= self.now) {
                    self.feed(i, Input::Wake);
                }
            }
        }
        self.now = end;
    }

    fn act(&mut self, side: usize, c: Command) {
        let out = self.sides[side].act(c, self.now).expect("accepted");
        self.carry(side, out);
    }

    fn session(&self, side: usize) -> &Session {
        self.sides[side].session()
    }
}

#[test]
fn both_sides_connect_meet_and_play_saving_before_sending() {
    let mut w = World::new(GameKind::Meta);
    w.run_until(0);
    assert!(w
        .sides
        .iter()
        .all(|d| d.has_peer() && d.relay() == Relay::Joined));
    assert_eq!(w.session(1).game(), w.session(0).game());
    w.act(0, Command::Play(Step::Cell(40)));
    assert_eq!(w.session(1).game().unwrap().turns(), 1);
    // The move: saved first, then sent.
    let log = &w.log[0];
    let send = log
        .iter()
        .rposition(|o| matches!(o, Output::Send(..)))
        .unwrap();
    assert!(matches!(log[send - 1], Output::Save), "{log:?}");
    assert!(w.events.iter().any(|(side, e)| *side == 1
        && matches!(
            e,
            Event::Room(RoomEvent::Played {
                seat: Seat::Host,
                ..
            })
        )));
}

#[test]
fn a_closed_socket_reopens_with_growing_back_off_and_the_relay_is_asked_why() {
    let mut w = World::new(GameKind::Meta);
    w.run_until(0);
    w.relay_up = false;
    w.close_socket(1, true);
    assert_eq!(
        w.sides[1].relay(),
        Relay::Down {
            why: Down::Unreachable,
            retry_at: 1_000
        }
    );
    assert_eq!(w.session(0).presence(), Presence::Away { since: 0 });
    // 1 s, then 2, 4, 8, 10, 10 s while the relay stays down.
    let mut at = 0;
    for delay in [1_000, 2_000, 4_000, 8_000, 10_000, 10_000] {
        at += delay;
        assert_eq!(w.sides[1].next_wakeup(), Some(at));
        w.run_until(at);
    }
    w.relay_up = true;
    at += 10_000;
    w.run_until(at);
    assert!(w.sides[1].has_peer(), "met again once the relay is back");
    // A live peer resets the back-off.
    w.close_socket(1, true);
    assert_eq!(
        w.sides[1].relay(),
        Relay::Down {
            why: Down::Cut,
            retry_at: at + 1_000
        }
    );
}

#[test]
fn a_refusal_is_kept_until_the_peer_is_met() {
    let mut w = World::new(GameKind::Morris);
    assert_eq!(w.sides[1].input(Input::Wake, 0), [Output::AskWhy]);
    assert_eq!(w.sides[1].input(Input::Why(Ok(None)), 1), [Output::Connect]);
    let out = w.sides[1].input(Input::Closed, 5);
    assert_eq!(out, [Output::AskWhy]);
    w.sides[1].input(Input::Why(Ok(Some(Refusal::RoomFull))), 6);
    assert_eq!(w.sides[1].refused(), Some(Refusal::RoomFull));
    assert_eq!(
        w.sides[1].relay(),
        Relay::Down {
            why: Down::Refused(Refusal::RoomFull),
            retry_at: 1_005
        }
    );
    // Before the next socket the relay is asked: still full, no socket, a longer wait.
    assert_eq!(w.sides[1].input(Input::Wake, 1_005), [Output::AskWhy]);
    assert_eq!(w.sides[1].relay(), Relay::Connecting);
    assert_eq!(w.sides[1].next_wakeup(), None, "waiting for the answer");
    let out = w.sides[1].input(Input::Why(Ok(Some(Refusal::RoomFull))), 1_007);
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(w.sides[1].refused(), Some(Refusal::RoomFull));
    assert_eq!(
        w.sides[1].relay(),
        Relay::Down {
            why: Down::Refused(Refusal::RoomFull),
            retry_at: 3_007
        }
    );
    // A relay that does not answer is said as such, and no socket opens either.
    w.sides[1].input(Input::Wake, 3_007);
    let out = w.sides[1].input(Input::Why(Err(())), 3_010);
    assert!(out.is_empty(), "{out:?}");
    assert!(matches!(
        w.sides[1].relay(),
        Relay::Down {
            why: Down::Unreachable,
            ..
        }
    ));
    // Room at last: a socket; meeting the host forgets the refusal.
    let at = w.sides[1].next_wakeup().unwrap();
    w.sides[1].input(Input::Wake, at);
    assert_eq!(
        w.sides[1].input(Input::Why(Ok(None)), at),
        [Output::Connect]
    );
    w.sides[1].input(Input::Peer(3, true), at + 5);
    assert_eq!(w.sides[1].refused(), None);
}

#[test]
fn both_players_in_the_room_without_a_channel_are_told_their_networks_block_it() {
    let mut w = World::new(GameKind::Meta);
    let d = &mut w.sides[1];
    d.input(Input::Wake, 0);
    d.input(Input::Why(Ok(None)), 1);
    d.input(Input::Joined, 10);
    // No data channel: after DIRECT_MS the relay is asked whether the host is there.
    assert_eq!(d.next_wakeup(), Some(10 + DIRECT_MS));
    assert_eq!(d.input(Input::Wake, 10 + DIRECT_MS), [Output::AskWhy]);
    assert!(!d.blocked());
    // Two in the room (us and the host): blocked.
    d.input(Input::Why(Ok(Some(Refusal::RoomFull))), 20 + DIRECT_MS);
    assert!(d.blocked());
    assert_eq!(d.refused(), None, "our own room is not « full » for us");
    assert_eq!(d.relay(), Relay::Joined);
    // Asked again as long as it lasts; the host gone, it is only waiting again.
    assert_eq!(d.next_wakeup(), Some(20 + 2 * DIRECT_MS));
    d.input(Input::Wake, 20 + 2 * DIRECT_MS);
    d.input(Input::Why(Ok(None)), 25 + 2 * DIRECT_MS);
    assert!(!d.blocked());
    // « Réessayer »: a new socket at once, after asking the relay.
    let out = d.retry(30 + 2 * DIRECT_MS);
    assert_eq!(out, [Output::Disconnect, Output::AskWhy]);
    assert_eq!(
        d.input(Input::Why(Ok(None)), 31 + 2 * DIRECT_MS),
        [Output::Connect]
    );
    d.input(Input::Joined, 40 + 2 * DIRECT_MS);
    d.input(Input::Wake, 40 + 3 * DIRECT_MS);
    d.input(Input::Why(Ok(Some(Refusal::RoomFull))), 41 + 3 * DIRECT_MS);
    assert!(d.blocked());
    // A channel opens at last: not blocked.
    d.input(Input::Peer(3, true), 50 + 3 * DIRECT_MS);
    assert!(!d.blocked());
}

#[test]
fn a_browser_without_webrtc_is_never_blamed_on_the_network() {
    // The other player's browser has none: it says so through the relay.
    let mut w = World::new(GameKind::Meta);
    let d = &mut w.sides[0];
    d.input(Input::Wake, 0);
    d.input(Input::Why(Ok(None)), 1);
    d.input(Input::Joined, 10);
    assert_eq!(d.no_webrtc(), None);
    d.input(Input::NoWebRtc(7), 20);
    assert_eq!(d.no_webrtc(), Some(NoWebRtc::There));
    // Both in the room and no channel: not the networks' fault, whatever the relay says.
    assert_eq!(d.input(Input::Wake, 10 + DIRECT_MS), [Output::AskWhy]);
    d.input(Input::Why(Ok(Some(Refusal::RoomFull))), 20 + DIRECT_MS);
    assert!(!d.blocked());
    assert_eq!(d.no_webrtc(), Some(NoWebRtc::There));
    // The other leaves (the relay finds us alone): what its browser said goes with it, and a
    // browser that then blocks is the network's doing again.
    d.input(Input::Wake, 20 + 2 * DIRECT_MS);
    d.input(Input::Why(Ok(None)), 21 + 2 * DIRECT_MS);
    assert_eq!(d.no_webrtc(), None);
    d.input(Input::Wake, 21 + 3 * DIRECT_MS);
    d.input(Input::Why(Ok(Some(Refusal::RoomFull))), 22 + 3 * DIRECT_MS);
    assert!(d.blocked());
    // Said again, then a channel opens after all (the friend switched browsers): neither holds.
    d.input(Input::NoWebRtc(9), 23 + 3 * DIRECT_MS);
    assert_eq!(d.no_webrtc(), Some(NoWebRtc::There));
    assert!(!d.blocked());
    d.input(Input::Peer(11, true), 24 + 3 * DIRECT_MS);
    assert_eq!(d.no_webrtc(), None);
    assert!(!d.blocked());
    // With an open channel, a claim of no WebRTC is plainly false.
    d.input(Input::NoWebRtc(12), 25 + 3 * DIRECT_MS);
    assert_eq!(d.no_webrtc(), None);

    // This browser has none: it says so, whatever the relay and the other side say.
    let d = &mut w.sides[1];
    d.set_webrtc(false);
    assert_eq!(d.no_webrtc(), Some(NoWebRtc::Here));
    d.input(Input::Wake, 0);
    d.input(Input::Why(Ok(None)), 1);
    d.input(Input::Joined, 10);
    d.input(Input::NoWebRtc(3), 11);
    d.input(Input::Wake, 10 + DIRECT_MS);
    d.input(Input::Why(Ok(Some(Refusal::RoomFull))), 20 + DIRECT_MS);
    assert!(!d.blocked());
    assert_eq!(d.no_webrtc(), Some(NoWebRtc::Here));
}

#[test]
fn a_socket_that_lost_its_peer_is_replaced_after_four_seconds() {
    let mut w = World::new(GameKind::Meta);
    w.run_until(0);
    // The guest's channel closes but its socket looks open (a relay restart, seen from one side).
    let gone = w.id(1);
    w.feed(0, Input::Peer(gone, false));
    w.open[1] = false;
    assert_eq!(w.session(0).presence(), Presence::Away { since: 0 });
    assert_eq!(w.sides[0].next_wakeup(), Some(STALE_MS));
    w.now = STALE_MS - 1;
    w.feed(0, Input::Wake);
    assert!(!w.log[0].contains(&Output::Disconnect));
    w.now = STALE_MS;
    w.feed(0, Input::Wake);
    assert!(w.log[0].contains(&Output::Disconnect));
    assert_eq!(
        w.sides[0].relay(),
        Relay::Down {
            why: Down::Replaced,
            retry_at: STALE_MS + FIRST_RETRY_MS
        }
    );
}

#[test]
fn a_peer_whose_bytes_cannot_be_read_loses_the_socket_for_longer_each_time() {
    use engine::session::wire::{self, DecodeError, Message};
    let mut w = World::new(GameKind::Meta);
    w.run_until(0);
    let hello_count = w.session(0).entries().len() + w.session(1).entries().len();
    // What a page from before the padding sends, or a flood of tiny messages: one is enough.
    let bare = wire::encode(&Message::Challenge([9; 16]));
    let mut waits = Vec::new();
    for round in 0..7u64 {
        let start = w.now;
        assert!(w.sides[0].has_peer(), "round {round}: met again");
        w.log[0].clear();
        let from = w.id(1);
        w.feed(0, Input::Packet(from, bare.clone()));
        assert!(w.log[0].contains(&Output::Disconnect), "round {round}");
        assert!(w
            .events
            .contains(&(0, Event::Undecodable(DecodeError::Unpadded))));
        let Relay::Down { why, retry_at } = w.sides[0].relay() else {
            panic!("round {round}: {:?}", w.sides[0].relay());
        };
        assert_eq!(why, Down::Unreadable);
        waits.push(retry_at - start);
        // Nothing opens before the wait is over; then the two meet again.
        w.run_until(retry_at - 1);
        assert!(!w.sides[0].has_peer());
        w.run_until(retry_at + 10);
    }
    assert_eq!(
        waits,
        [2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000],
        "doubling to MAX_UNREADABLE_RETRY_MS"
    );
    // The game is untouched: the same entries, and the two play on.
    let after = w.session(0).entries().len() + w.session(1).entries().len();
    assert_eq!(after, hello_count);
    assert!(w.sides.iter().all(|d| d.has_peer()));
    w.act(0, Command::Play(Step::Cell(40)));
    assert_eq!(w.session(1).entries().len(), w.session(0).entries().len());
}

#[test]
fn a_socket_that_never_met_the_away_peer_waits_twenty_seconds() {
    // A tab restored while the other is away: its socket meets nobody.
    let mut w = World::new(GameKind::Meta);
    w.run_until(0);
    let saved = w.session(1).save();
    let mut lonely = Driver::<u32>::new(Session::restore(saved).unwrap());
    let out = lonely.input(Input::Wake, 100);
    assert!(out.contains(&Output::AskWhy), "{out:?}");
    let out = lonely.input(Input::Why(Ok(None)), 100);
    assert!(out.contains(&Output::Connect), "{out:?}");
    lonely.input(Input::Joined, 120);
    assert!(matches!(
        lonely.session().presence(),
        Presence::Away { since: 100 }
    ));
    // Meanwhile it asks the relay whether the other is there (it is not).
    assert_eq!(lonely.next_wakeup(), Some(120 + DIRECT_MS));
    assert_eq!(lonely.input(Input::Wake, 120 + DIRECT_MS), [Output::AskWhy]);
    lonely.input(Input::Why(Ok(None)), 120 + DIRECT_MS);
    assert!(!lonely.blocked());
    let mut t = 120 + DIRECT_MS;
    while t < 100 + LONELY_MS {
        t = lonely.next_wakeup().unwrap();
        let out = lonely.input(Input::Wake, t);
        if out.contains(&Output::AskWhy) {
            lonely.input(Input::Why(Ok(None)), t);
        }
        if t == 100 + LONELY_MS {
            assert!(out.contains(&Output::Disconnect));
        } else {
            assert!(!out.contains(&Output::Disconnect), "{t}");
        }
    }
    assert_eq!(t, 100 + LONELY_MS);
}

#[test]
fn a_link_paired_by_hand_waits_for_its_texts_and_is_replaced_only_when_it_ends() {
    // The same restored tab as above, its links paired by hand: no relay to ask, and the
    // people may take minutes to pass the texts.
    let mut w = World::new(GameKind::Meta);
    w.run_until(0);
    let saved = w.session(1).save();
    let mut paired = Driver::<u32>::new(Session::restore(saved).unwrap());
    paired.set_paired();
    assert!(paired.paired());
    let out = paired.input(Input::Wake, 100);
    assert!(out.contains(&Output::AskWhy), "{out:?}");
    assert_eq!(paired.input(Input::Why(Ok(None)), 100), [Output::Connect]);
    paired.input(Input::Joined, 120);
    // An hour alone: never asked about, never dropped, never « expired ».
    let mut t = 120;
    while let Some(next) = paired.next_wakeup().filter(|&n| n < 3_600_000) {
        t = next.max(t + 1);
        let out = paired.input(Input::Wake, t);
        assert!(
            !out.iter()
                .any(|o| matches!(o, Output::AskWhy | Output::Disconnect)),
            "{t}: {out:?}"
        );
    }
    assert_eq!(paired.alone_for(3_600_000), None);
    assert!(!paired.blocked());
    // The channel opens, then is lost: the link ends, and the next one opens after the
    // back-off (a new exchange of texts).
    paired.input(Input::Peer(7, true), 3_600_000);
    paired.input(Input::Peer(7, false), 3_600_010);
    let mut out = paired.input(Input::Closed, 3_600_020);
    let mut t = 3_600_020;
    while !out.contains(&Output::Connect) {
        assert!(t <= 3_600_020 + MAX_RETRY_MS, "no new link by {t}");
        if out.contains(&Output::AskWhy) {
            // Without a relay the environment answers at once: there is room.
            out = paired.input(Input::Why(Ok(None)), t);
            continue;
        }
        t = paired
            .next_wakeup()
            .expect("a wake-up for the next link")
            .max(t);
        out = paired.input(Input::Wake, t);
    }
}

#[test]
fn a_new_peer_replaces_the_old_one_and_only_our_peer_is_heard() {
    let mut w = World::new(GameKind::Meta);
    w.run_until(0);
    let old = w.id(1);
    // A reloaded guest tab arrives before its old channel closed.
    w.generation[1] += 1;
    let new = w.id(1);
    let out = w.sides[0].input(Input::Peer(new, true), 10);
    assert!(w.sides[0].has_peer());
    let presence: Vec<_> = out
        .iter()
        .filter_map(|o| match o {
            Output::Event(Event::Presence(p)) => Some(*p),
            _ => None,
        })
        .collect();
    assert_eq!(presence, [Presence::Away { since: 10 }]);
    // The reloaded guest (the same key) answers the host's challenge: present again.
    let mut reloaded = Session::restore(w.session(1).save()).unwrap();
    let mut proved = false;
    for o in out {
        if let Output::Send(to, bytes) = o {
            assert_eq!(to, new);
            for e in reloaded.receive(&bytes, 11) {
                if let engine::session::Effect::Send(answer) = e {
                    let back = w.sides[0].input(Input::Packet(new, answer), 11);
                    proved |= back.contains(&Output::Event(Event::Presence(Presence::Here)));
                }
            }
        }
    }
    assert!(proved);
    // The old channel's late goodbye and bytes change nothing.
    assert!(w.sides[0].input(Input::Peer(old, false), 11).is_empty());
    let heads = engine::session::wire::encode_message(&engine::session::Message::Heads(
        w.session(1).heads(),
    ));
    assert!(w.sides[0].input(Input::Packet(old, heads), 12).is_empty());
    assert_eq!(w.session(0).presence(), Presence::Here);
}

#[test]
fn after_leaving_no_socket_opens_again() {
    let mut w = World::new(GameKind::Meta);
    w.run_until(0);
    w.act(1, Command::Leave);
    assert!(w.sides[1].left());
    w.close_socket(1, true);
    let before = w.log[1].len();
    w.run_until(3_600_000);
    let after = &w.log[1][before..];
    assert!(
        !after.contains(&Output::AskWhy) && !after.contains(&Output::Connect),
        "{after:?}"
    );
    // A guest who leaves before the host ever came needs no answer: its socket goes at once.
    let mut w = World::new(GameKind::Meta);
    w.sides[1].input(Input::Wake, 0);
    let out = w.sides[1].act(Command::Leave, 5).unwrap();
    assert_eq!(out, [Output::Disconnect]);
}

#[test]
fn a_guest_alone_counts_the_time_until_it_meets_the_host() {
    let mut w = World::new(GameKind::Meta);
    w.sides[1].input(Input::Wake, 1_000);
    w.sides[1].input(Input::Why(Ok(None)), 1_000);
    w.sides[1].input(Input::Joined, 1_010);
    assert_eq!(w.sides[1].alone_for(31_000), Some(30_000));
    w.sides[1].input(Input::Peer(5, true), 31_000);
    assert_eq!(w.sides[1].alone_for(40_000), None);
}

#[test]
fn the_relay_join_is_awaited_without_a_wakeup() {
    let mut d = Driver::<u32>::new(
        Session::host(
            Invite::new(GameKind::Meta, 100, [1; 16], [2; 32], [3; 16]),
            [2; 32],
            Config::default(),
            0,
        )
        .unwrap(),
    );
    d.input(Input::Wake, 0);
    assert_eq!(d.relay(), Relay::Connecting);
    d.input(Input::Why(Ok(None)), 0);
    assert_eq!(d.relay(), Relay::Connecting);
    assert_eq!(
        d.next_wakeup(),
        None,
        "the link says when the relay admits the socket: nothing to look at meanwhile"
    );
    d.input(Input::Joined, 70);
    assert_eq!(d.relay(), Relay::Joined);
    assert_eq!(
        d.next_wakeup(),
        Some(70 + DIRECT_MS),
        "nothing to wait for until the peer comes, but to ask whether it is there"
    );
    // A proposal can only be made with the peer here.
    assert!(d.act(Command::Propose(Proposal::Draw), 80).is_err());
}

#[test]
fn a_room_the_relay_finds_empty_is_said_until_a_channel_opens() {
    let mut w = World::new(GameKind::Meta);
    let d = &mut w.sides[1];
    assert_eq!(d.input(Input::Wake, 0), [Output::AskWhy]);
    d.input(Input::RoomPeers(0), 1);
    assert!(d.room_empty());
    assert_eq!(d.input(Input::Why(Ok(None)), 1), [Output::Connect]);
    d.input(Input::Joined, 10);
    // Once our socket is in, the relay counts it too: that count says nothing of the host.
    d.input(Input::RoomPeers(1), 20);
    assert!(d.room_empty());
    d.input(Input::Peer(3, true), 30);
    assert!(!d.room_empty());
    // A new socket, the host there this time.
    let mut w = World::new(GameKind::Meta);
    let d = &mut w.sides[1];
    d.input(Input::Wake, 0);
    d.input(Input::RoomPeers(1), 1);
    assert!(!d.room_empty());
}

/// What `side` sent the spectator `id` since the log's `from`-th output.
fn sent_to(w: &World, side: usize, id: u32, from: usize) -> Vec<Vec<u8>> {
    w.log[side][from..]
        .iter()
        .filter_map(|o| match o {
            Output::Send(to, b) if *to == id => Some(b.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_player_feeds_its_spectators_what_they_lack_then_every_new_entry() {
    use engine::session::follow::{Follower, WatchLink};
    let mut w = World::new(GameKind::Meta);
    w.run_until(0);
    w.act(0, Command::Play(Step::Cell(40)));
    let link = WatchLink::of(w.session(0).invite()).unwrap();
    let mut watcher = Follower::new(link);
    // The spectator's channel opens: nothing is sent before it says what it holds.
    let out = w.sides[0].input(Input::Watcher(900, true), w.now);
    assert!(
        !out.iter().any(|o| matches!(o, Output::Send(..))),
        "{out:?}"
    );
    assert_eq!(w.sides[0].watchers(), 1);
    let out = w.sides[0].input(Input::Packet(900, watcher.ask()), w.now);
    let bytes: Vec<Vec<u8>> = out
        .into_iter()
        .filter_map(|o| match o {
            Output::Send(900, b) => Some(b),
            _ => None,
        })
        .collect();
    assert!(!bytes.is_empty());
    for b in &bytes {
        watcher.receive(b).unwrap();
    }
    assert_eq!(watcher.room(), w.session(0).room());
    // Each move, the host's or the guest's, reaches it through the host, once.
    for (i, cell) in [36, 0, 1, 9].into_iter().enumerate() {
        let from = w.log[0].len();
        w.act((i + 1) % 2, Command::Play(Step::Cell(cell)));
        let new = sent_to(&w, 0, 900, from);
        assert_eq!(new.len(), 1, "move {i}");
        watcher.receive(&new[0]).unwrap();
        assert_eq!(watcher.room(), w.session(0).room(), "move {i}");
    }
    assert!(transcript_verifies(&watcher.export()));
    // The game's own peer got no spectator's bytes, and the spectator none of the peer's
    // challenges or heads: only entries.
    assert!(sent_to(&w, 0, 900, 0).iter().all(|b| matches!(
        engine::session::wire::decode_message(b),
        Ok(engine::session::Message::Entries(_))
    )));
    // Bytes from a spectator are never taken for the peer's: the session saw no junk.
    let before = w.events.len();
    let out = w.sides[0].input(Input::Packet(900, vec![0xff; 40]), w.now);
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(w.events.len(), before);
    // At most MAX_WATCHERS; a closed channel is forgotten.
    for id in 901..920 {
        w.sides[0].input(Input::Watcher(id, true), w.now);
    }
    assert_eq!(w.sides[0].watchers(), MAX_WATCHERS);
    w.sides[0].input(Input::Watcher(900, false), w.now);
    assert_eq!(w.sides[0].watchers(), MAX_WATCHERS - 1);
    let from = w.log[0].len();
    w.act(1, Command::Play(Step::Cell(2)));
    assert!(sent_to(&w, 0, 900, from).is_empty());
    assert_eq!(
        sent_to(&w, 0, 901, from).len(),
        0,
        "901 never said what it holds"
    );
}

fn transcript_verifies(text: &str) -> bool {
    engine::session::transcript::verify(text).is_ok()
}

/// The runtime's save policy, with a pretend machine, link and storage (no executor: every
/// future here is ready at once or never).
mod runtime_saves {
    use crate::{Answer, Connection, Effect, Env, IceServer, LinkEvent, Machine, Pending, Runtime};
    use engine::session::{SaveCursor, SaveParts};
    use std::cell::RefCell;
    use std::collections::VecDeque;
    use std::future::{poll_fn, ready, Future};
    use std::pin::{pin, Pin};
    use std::rc::Rc;
    use std::task::{Context, Poll, Waker};

    type Events = Rc<RefCell<VecDeque<LinkEvent<u32>>>>;

    /// A link whose events are whatever the test queued.
    struct Queued(Events);

    impl Connection for Queued {
        type Peer = u32;
        fn next(&mut self) -> impl Future<Output = LinkEvent<u32>> {
            let events = self.0.clone();
            poll_fn(move |_| {
                events
                    .borrow_mut()
                    .pop_front()
                    .map_or(Poll::Pending, Poll::Ready)
            })
        }
        fn send(&mut self, _: u32, _: Vec<u8>) -> bool {
            true
        }
    }

    /// A tab whose timers are due at once and whose storage notes each save's head.
    struct Tab {
        events: Events,
        kept: Rc<RefCell<Vec<String>>>,
    }

    impl Env for Tab {
        type Link = Queued;
        fn now(&self) -> u64 {
            0
        }
        fn sleep(&self, _: u64) -> Pending<()> {
            Box::pin(ready(()))
        }
        fn open(&mut self, _: &str, _: &[IceServer]) -> Queued {
            Queued(self.events.clone())
        }
        fn ask(&mut self, _: &str) -> Pending<Answer> {
            Box::pin(std::future::pending())
        }
        fn ice_servers(&mut self) -> Pending<Option<Vec<IceServer>>> {
            Box::pin(ready(Some(Vec::new())))
        }
        fn keep(&mut self, _: &str, parts: &SaveParts) -> bool {
            self.kept.borrow_mut().push(parts.head.clone());
            true
        }
        fn forget(&mut self, _: &str) {}
    }

    /// A machine that counts what it was fed: each packet (and the player's input, here a
    /// wake-up) asks for a save, whose parts say how many had come when they were asked for;
    /// being told the relay admitted it, it asks for a link.
    #[derive(Default)]
    struct Counter {
        fed: usize,
        /// Parts asked for.
        asked: std::cell::Cell<usize>,
    }

    impl Machine for Counter {
        type Peer = u32;
        type Input = crate::Input<u32>;
        fn update(&mut self, input: crate::Input<u32>, _: u64) -> Vec<Effect<u32>> {
            match input {
                crate::Input::Packet(..) | crate::Input::Wake => {
                    self.fed += 1;
                    vec![Effect::Save]
                }
                crate::Input::Joined => vec![Effect::Connect],
                _ => Vec::new(),
            }
        }
        fn next_wakeup(&self, _: u64) -> Option<u64> {
            None
        }
        fn room(&self) -> String {
            "room".into()
        }
        fn has_peer(&self) -> bool {
            true
        }
        fn save_parts(&self) -> Option<SaveParts> {
            self.asked.set(self.asked.get() + 1);
            Some(SaveParts {
                head: format!("after {}", self.fed),
                chunks: Vec::new(),
                total: 0,
                cursor: SaveCursor::default(),
            })
        }
        fn kept(&mut self, _: Option<SaveCursor>) {}
    }

    /// An inbox the player never writes to.
    struct Quiet;

    impl futures_core::Stream for Quiet {
        type Item = crate::Input<u32>;
        fn poll_next(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            Poll::Pending
        }
    }

    /// Runs the runtime's turns until it waits for something that is not there.
    fn settle(rt: &mut Runtime<Tab, Counter>) {
        let mut cx = Context::from_waker(Waker::noop());
        while pin!(rt.turn(&mut Quiet)).poll(&mut cx).is_ready() {}
    }

    #[test]
    fn a_burst_from_the_peer_is_saved_once_after_it_and_the_players_own_input_at_once() {
        let (events, kept) = (Events::default(), Rc::new(RefCell::new(Vec::new())));
        let tab = Tab {
            events: events.clone(),
            kept: kept.clone(),
        };
        let mut rt = Runtime::new(tab, Counter::default());
        rt.feed(crate::Input::Joined);
        settle(&mut rt);
        assert!(rt.has_link());
        events
            .borrow_mut()
            .extend((0..5).map(|i| LinkEvent::Packet(7, vec![i])));
        settle(&mut rt);
        // Five packets, one save: its parts asked for once, after the last of them.
        assert_eq!(rt.machine().fed, 5);
        assert_eq!(*kept.borrow(), ["after 5"]);
        assert_eq!(rt.machine().asked.get(), 1);
        // What the player does is kept at once, and replaces a save put off.
        events.borrow_mut().push_back(LinkEvent::Packet(7, vec![9]));
        assert!(pin!(rt.turn(&mut Quiet))
            .poll(&mut Context::from_waker(Waker::noop()))
            .is_ready());
        rt.feed(crate::Input::Wake);
        settle(&mut rt);
        assert_eq!(*kept.borrow(), ["after 5", "after 7"]);
        assert_eq!(rt.machine().asked.get(), 2);
    }
}
