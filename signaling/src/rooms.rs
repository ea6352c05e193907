//! Who is in which room: the relay's only state.
//!
//! One map from room name to its (at most two) players and its spectators, one count of
//! connections per client IP, under one short-held lock. Joining, leaving and routing a signal
//! are each a hash lookup: O(1) in the number of rooms, and an empty room is removed when its last
//! peer leaves. Admission (room full, too many spectators, too many rooms, too many connections)
//! is decided here, atomically, before the websocket upgrade.
//!
//! Introductions: a player already in the room hears `NewPeer` for a player who joins (the
//! newcomer waits for its offer, as matchbox does). A player always makes the offer to a
//! spectator: it hears `{"Watcher":ID}` for each spectator, whether the spectator joins after it
//! or was there before. Spectators never meet each other: a spectator hears only `PeerLeft` for a
//! player who goes and the players' signals, and may signal only the players.

use relay_api::Refusal;
use std::{
    collections::{hash_map::Entry, HashMap},
    net::IpAddr,
    sync::{Arc, Mutex, MutexGuard},
};

use axum::extract::ws::Utf8Bytes;
use matchbox_protocol::{JsonPeerEvent, PeerId};
use tokio::sync::{mpsc, Notify};

/// Players in one room: the two seats. Spectators never count toward it.
pub(crate) const ROOM_CAPACITY: usize = 2;

/// What a peer is in its room: one of the two players, or a spectator (`/ws/<room>?watch`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    Player,
    Spectator,
}

impl Role {
    /// For the logs.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Role::Player => "player",
            Role::Spectator => "spectator",
        }
    }
}

/// The sending half of a peer's outgoing queue, as the other peers of its room see it.
#[derive(Debug, Clone)]
pub(crate) struct Mailbox {
    pub(crate) id: PeerId,
    queue: mpsc::Sender<Utf8Bytes>,
    /// Notified when the queue is full: the peer reads too slowly and is disconnected.
    overflow: Arc<Notify>,
}

impl Mailbox {
    /// A mailbox and the receiving end the peer's task drains.
    pub(crate) fn new(
        id: PeerId,
        capacity: usize,
    ) -> (Self, mpsc::Receiver<Utf8Bytes>, Arc<Notify>) {
        let (queue, receiver) = mpsc::channel(capacity);
        let overflow = Arc::new(Notify::new());
        (
            Self {
                id,
                queue,
                overflow: overflow.clone(),
            },
            receiver,
            overflow,
        )
    }

    /// Queues an event without waiting; a full queue flags the peer as too slow instead.
    pub(crate) fn post(&self, event: &JsonPeerEvent) {
        self.post_text(Utf8Bytes::from(event.to_string()));
    }

    /// Queues `{"Watcher":ID}`: a spectator a player is to make an offer to.
    fn post_watcher(&self, spectator: PeerId) {
        let event = format!(r#"{{"{}":"{spectator}"}}"#, relay_api::WATCHER_EVENT);
        self.post_text(Utf8Bytes::from(event));
    }

    fn post_text(&self, text: Utf8Bytes) {
        if let Err(mpsc::error::TrySendError::Full(_)) = self.queue.try_send(text) {
            self.overflow.notify_one();
        }
    }
}

/// The limits admission enforces.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// Peers of the whole relay, players and spectators.
    pub(crate) max_peers: usize,
    /// Peers from one client IP, players and spectators.
    pub(crate) max_per_ip: usize,
    /// Rooms, whoever opened them.
    pub(crate) max_rooms: usize,
    /// Spectators in one room; 0 refuses every spectator.
    pub(crate) max_spectators: usize,
}

/// Counts of what the relay holds, for `/health`, tests and benchmarks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Rooms with at least one peer (a player or a spectator).
    pub rooms: usize,
    /// Peers admitted (websockets upgraded or about to be): players and spectators alike, the
    /// number `max_connections` caps.
    pub peers: usize,
    /// Of those [`Counts::peers`], the spectators.
    pub spectators: usize,
    /// Distinct client IPs holding at least one peer.
    pub client_ips: usize,
    /// Open TCP connections of any kind (pages, websockets, idle keep-alive).
    pub connections: usize,
}

/// One room: its players (at most [`ROOM_CAPACITY`]) and its spectators.
#[derive(Default)]
struct Room {
    players: Vec<Mailbox>,
    spectators: Vec<Mailbox>,
}

impl Room {
    fn is_empty(&self) -> bool {
        self.players.is_empty() && self.spectators.is_empty()
    }

    /// Whether one more peer in `role` fits, by the room's own limits.
    fn admits(&self, role: Role, max_spectators: usize) -> Result<(), Refusal> {
        match role {
            Role::Player if self.players.len() >= ROOM_CAPACITY => Err(Refusal::RoomFull),
            Role::Spectator if self.spectators.len() >= max_spectators => {
                Err(Refusal::TooManySpectators)
            }
            _ => Ok(()),
        }
    }
}

#[derive(Default)]
struct Inner {
    rooms: HashMap<Arc<str>, Room>,
    per_ip: HashMap<IpAddr, usize>,
    peers: usize,
    spectators: usize,
}

/// The shared registry of rooms.
pub(crate) struct Rooms {
    inner: Mutex<Inner>,
    limits: Limits,
}

/// A peer's place in a room; leaving happens when it is dropped, so that no exit path (a failed
/// upgrade, an error, a panic) can leave a ghost behind.
pub(crate) struct Seat {
    rooms: Arc<Rooms>,
    room: Arc<str>,
    ip: IpAddr,
    id: PeerId,
    role: Role,
}

impl Rooms {
    pub(crate) fn new(limits: Limits) -> Arc<Self> {
        Arc::new(Self {
            inner: Mutex::default(),
            limits,
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // Nothing panics while holding the lock, but a poisoned map is still consistent.
        self.inner
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    pub(crate) fn counts(&self) -> Counts {
        let inner = self.lock();
        Counts {
            rooms: inner.rooms.len(),
            peers: inner.peers,
            spectators: inner.spectators,
            client_ips: inner.per_ip.len(),
            connections: 0,
        }
    }

    /// Why a peer in `role` from `ip` may not join `room` now, if it may not. The room's own
    /// limit (two players, or `max_spectators`) is said first, then the relay's.
    fn refusal(
        &self,
        inner: &Inner,
        room: Option<&Room>,
        role: Role,
        ip: IpAddr,
    ) -> Option<Refusal> {
        let empty = Room::default();
        if let Err(refusal) = room
            .unwrap_or(&empty)
            .admits(role, self.limits.max_spectators)
        {
            return Some(refusal);
        }
        if inner.peers >= self.limits.max_peers {
            Some(Refusal::RelayFull)
        } else if inner.per_ip.get(&ip).copied().unwrap_or(0) >= self.limits.max_per_ip {
            Some(Refusal::TooManyFromIp)
        } else if room.is_none() && inner.rooms.len() >= self.limits.max_rooms {
            Some(Refusal::TooManyRooms)
        } else {
            None
        }
    }

    /// Whether a peer in `role` from `ip` could join `room` now: the number of players in it, or
    /// why not.
    pub(crate) fn probe(&self, room: &str, ip: IpAddr, role: Role) -> Result<usize, Refusal> {
        let inner = self.lock();
        let existing = inner.rooms.get(room);
        match self.refusal(&inner, existing, role, ip) {
            Some(refusal) => Err(refusal),
            None => Ok(existing.map_or(0, |room| room.players.len())),
        }
    }

    /// Admits `mailbox` into `room` in `role` and introduces it (see the module's text), or says
    /// why not.
    pub(crate) fn join(
        self: &Arc<Self>,
        room: &str,
        ip: IpAddr,
        role: Role,
        mailbox: Mailbox,
    ) -> Result<Seat, Refusal> {
        let mut inner = self.lock();
        let inner = &mut *inner;
        let existing = inner.rooms.get_key_value(room);
        if let Some(refusal) = self.refusal(inner, existing.map(|(_, room)| room), role, ip) {
            return Err(refusal);
        }
        let key = existing.map_or_else(|| Arc::from(room), |(key, _)| key.clone());
        let id = mailbox.id;
        let room = inner.rooms.entry(key.clone()).or_insert_with(|| Room {
            players: Vec::with_capacity(ROOM_CAPACITY),
            spectators: Vec::new(),
        });
        match role {
            Role::Player => {
                for other in &room.players {
                    other.post(&JsonPeerEvent::NewPeer(id));
                }
                for spectator in &room.spectators {
                    mailbox.post_watcher(spectator.id);
                }
                room.players.push(mailbox);
            }
            Role::Spectator => {
                for player in &room.players {
                    player.post_watcher(id);
                }
                room.spectators.push(mailbox);
                inner.spectators += 1;
            }
        }
        *inner.per_ip.entry(ip).or_insert(0) += 1;
        inner.peers += 1;
        Ok(Seat {
            rooms: self.clone(),
            room: key,
            ip,
            id,
            role,
        })
    }

    fn leave(&self, seat: &Seat) {
        let mut inner = self.lock();
        let inner = &mut *inner;
        if let Entry::Occupied(mut entry) = inner.rooms.entry(seat.room.clone()) {
            let room = entry.get_mut();
            let gone = seat.id;
            match seat.role {
                Role::Player => {
                    room.players.retain(|peer| peer.id != gone);
                    for other in room.players.iter().chain(&room.spectators) {
                        other.post(&JsonPeerEvent::PeerLeft(gone));
                    }
                }
                Role::Spectator => {
                    room.spectators.retain(|peer| peer.id != gone);
                    for player in &room.players {
                        player.post(&JsonPeerEvent::PeerLeft(gone));
                    }
                }
            }
            if room.is_empty() {
                entry.remove();
            }
        }
        if let Entry::Occupied(mut entry) = inner.per_ip.entry(seat.ip) {
            *entry.get_mut() -= 1;
            if *entry.get() == 0 {
                entry.remove();
            }
        }
        inner.peers -= 1;
        if seat.role == Role::Spectator {
            inner.spectators -= 1;
        }
    }
}

impl Seat {
    /// The peer's id.
    pub(crate) fn id(&self) -> PeerId {
        self.id
    }

    /// Whether the peer is a player or a spectator.
    pub(crate) fn role(&self) -> Role {
        self.role
    }

    /// Hands `data` to `receiver` as a `Signal` from this peer, if `receiver` may hear from it: a
    /// player may signal any other peer of its room, a spectator only the players. Returns
    /// whether it was delivered to a queue.
    pub(crate) fn signal(&self, receiver: PeerId, data: serde_json::Value) -> bool {
        let target = {
            let inner = self.rooms.lock();
            inner.rooms.get(&self.room).and_then(|room| {
                let spectators = match self.role {
                    Role::Player => room.spectators.as_slice(),
                    Role::Spectator => &[],
                };
                room.players
                    .iter()
                    .chain(spectators)
                    .find(|peer| peer.id == receiver && peer.id != self.id)
                    .cloned()
            })
        };
        match target {
            Some(target) => {
                target.post(&JsonPeerEvent::Signal {
                    sender: self.id,
                    data,
                });
                true
            }
            None => false,
        }
    }
}

impl Drop for Seat {
    fn drop(&mut self) {
        self.rooms.clone().leave(self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: Limits = Limits {
        max_peers: 100,
        max_per_ip: 10,
        max_rooms: 10,
        max_spectators: 2,
    };

    fn ip(last: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, last])
    }

    fn peer(n: u128) -> (Mailbox, mpsc::Receiver<Utf8Bytes>) {
        let (mailbox, receiver, _) = Mailbox::new(PeerId(uuid::Uuid::from_u128(n)), 8);
        (mailbox, receiver)
    }

    fn event(receiver: &mut mpsc::Receiver<Utf8Bytes>) -> Option<JsonPeerEvent> {
        receiver.try_recv().ok().map(|text| text.parse().unwrap())
    }

    #[test]
    fn two_peers_meet_a_third_is_refused_and_empty_rooms_go() {
        let rooms = Rooms::new(LIMITS);
        let (a, mut a_rx) = peer(1);
        let (b, mut b_rx) = peer(2);
        let (c, _) = peer(3);
        let a_id = a.id;
        let b_id = b.id;
        let seat_a = rooms.join_player("r", ip(1), a).unwrap();
        let seat_b = rooms.join_player("r", ip(2), b).unwrap();
        assert_eq!(event(&mut a_rx), Some(JsonPeerEvent::NewPeer(b_id)));
        assert_eq!(event(&mut b_rx), None, "the newcomer waits for the offer");
        assert_eq!(
            rooms.join_player("r", ip(3), c).err(),
            Some(Refusal::RoomFull)
        );

        assert!(seat_b.signal(a_id, serde_json::json!("offer")));
        assert_eq!(
            event(&mut a_rx),
            Some(JsonPeerEvent::Signal {
                sender: b_id,
                data: serde_json::json!("offer")
            })
        );
        assert!(!seat_b.signal(b_id, serde_json::json!(1)), "not to itself");
        assert!(!seat_b.signal(PeerId(uuid::Uuid::from_u128(9)), serde_json::json!(1)));

        drop(seat_b);
        assert_eq!(event(&mut a_rx), Some(JsonPeerEvent::PeerLeft(b_id)));
        assert_eq!(rooms.counts().peers, 1);
        drop(seat_a);
        assert_eq!(rooms.counts(), Counts::default());
    }

    #[test]
    fn limits_are_enforced() {
        let rooms = Rooms::new(Limits {
            max_peers: 3,
            max_per_ip: 2,
            max_rooms: 2,
            max_spectators: 8,
        });
        let s1 = rooms.join_player("a", ip(1), peer(1).0).unwrap();
        let s2 = rooms.join_player("b", ip(1), peer(2).0).unwrap();
        assert_eq!(
            rooms.join_player("b", ip(1), peer(3).0).err(),
            Some(Refusal::TooManyFromIp)
        );
        assert_eq!(
            rooms.join_player("c", ip(2), peer(3).0).err(),
            Some(Refusal::TooManyRooms)
        );
        let s3 = rooms.join_player("b", ip(2), peer(3).0).unwrap();
        assert_eq!(
            rooms.join_player("a", ip(3), peer(4).0).err(),
            Some(Refusal::RelayFull)
        );
        drop((s1, s2, s3));
        assert_eq!(rooms.counts(), Counts::default());
    }

    impl Rooms {
        fn join_player(
            self: &Arc<Self>,
            room: &str,
            ip: IpAddr,
            mailbox: Mailbox,
        ) -> Result<Seat, Refusal> {
            self.join(room, ip, Role::Player, mailbox)
        }
    }

    fn watcher(receiver: &mut mpsc::Receiver<Utf8Bytes>) -> Option<String> {
        receiver.try_recv().ok().map(|text| text.to_string())
    }

    fn watcher_of(id: PeerId) -> Option<String> {
        Some(format!(r#"{{"Watcher":"{id}"}}"#))
    }

    #[test]
    fn spectators_are_offered_to_by_players_and_never_meet() {
        let rooms = Rooms::new(LIMITS);
        let (s1, mut s1_rx) = peer(11);
        let (s1_id, s2_id) = (s1.id, PeerId(uuid::Uuid::from_u128(12)));
        let seat_s1 = rooms.join("r", ip(1), Role::Spectator, s1).unwrap();
        assert_eq!(rooms.probe("r", ip(1), Role::Player), Ok(0));
        let (a, mut a_rx) = peer(1);
        let a_id = a.id;
        let seat_a = rooms.join_player("r", ip(2), a).unwrap();
        assert_eq!(
            watcher(&mut a_rx),
            watcher_of(s1_id),
            "a spectator there before"
        );
        assert_eq!(event(&mut s1_rx), None, "the player will offer");
        let (s2, mut s2_rx) = peer(12);
        let seat_s2 = rooms.join("r", ip(3), Role::Spectator, s2).unwrap();
        assert_eq!(watcher(&mut a_rx), watcher_of(s2_id), "a spectator after");
        assert_eq!(event(&mut s1_rx), None, "spectators never meet");
        assert_eq!(
            rooms.join("r", ip(4), Role::Spectator, peer(13).0).err(),
            Some(Refusal::TooManySpectators)
        );
        assert_eq!(
            rooms.probe("r", ip(4), Role::Spectator),
            Err(Refusal::TooManySpectators)
        );
        let (b, mut b_rx) = peer(2);
        let b_id = b.id;
        let seat_b = rooms.join_player("r", ip(5), b).unwrap();
        assert_eq!(event(&mut a_rx), Some(JsonPeerEvent::NewPeer(b_id)));
        assert_eq!(watcher(&mut b_rx), watcher_of(s1_id));
        assert_eq!(watcher(&mut b_rx), watcher_of(s2_id));
        assert_eq!(
            rooms.probe("r", ip(6), Role::Player),
            Err(Refusal::RoomFull)
        );
        let counts = rooms.counts();
        assert_eq!((counts.peers, counts.spectators), (4, 2));

        // Signals: a spectator reaches players only; a player reaches anyone.
        assert!(seat_s1.signal(a_id, serde_json::json!("answer")));
        assert!(!seat_s1.signal(s2_id, serde_json::json!("hi")));
        assert!(seat_b.signal(s2_id, serde_json::json!("offer")));
        assert_eq!(
            event(&mut s2_rx),
            Some(JsonPeerEvent::Signal {
                sender: b_id,
                data: serde_json::json!("offer")
            })
        );
        assert_eq!(
            event(&mut a_rx),
            Some(JsonPeerEvent::Signal {
                sender: s1_id,
                data: serde_json::json!("answer")
            })
        );

        // Leaving: a spectator is said gone to the players; a player to everyone.
        drop(seat_s2);
        assert_eq!(event(&mut a_rx), Some(JsonPeerEvent::PeerLeft(s2_id)));
        assert_eq!(event(&mut b_rx), Some(JsonPeerEvent::PeerLeft(s2_id)));
        assert_eq!(event(&mut s1_rx), None);
        drop(seat_a);
        assert_eq!(event(&mut b_rx), Some(JsonPeerEvent::PeerLeft(a_id)));
        assert_eq!(event(&mut s1_rx), Some(JsonPeerEvent::PeerLeft(a_id)));
        drop((seat_b, seat_s1));
        assert_eq!(rooms.counts(), Counts::default());
    }

    #[test]
    fn spectators_count_for_the_relay_limits_and_zero_turns_them_off() {
        let rooms = Rooms::new(Limits {
            max_peers: 2,
            max_per_ip: 1,
            max_rooms: 1,
            max_spectators: 8,
        });
        let s = rooms.join("a", ip(1), Role::Spectator, peer(1).0).unwrap();
        assert_eq!(rooms.counts().rooms, 1, "a spectator opens a room");
        assert_eq!(
            rooms.probe("b", ip(2), Role::Spectator),
            Err(Refusal::TooManyRooms)
        );
        assert_eq!(
            rooms.probe("a", ip(1), Role::Spectator),
            Err(Refusal::TooManyFromIp)
        );
        let p = rooms.join_player("a", ip(2), peer(2).0).unwrap();
        assert_eq!(
            rooms.probe("a", ip(3), Role::Spectator),
            Err(Refusal::RelayFull)
        );
        drop((s, p));

        let off = Rooms::new(Limits {
            max_spectators: 0,
            ..LIMITS
        });
        assert_eq!(
            off.probe("a", ip(1), Role::Spectator),
            Err(Refusal::TooManySpectators)
        );
        assert_eq!(
            off.join("a", ip(1), Role::Spectator, peer(1).0).err(),
            Some(Refusal::TooManySpectators)
        );
        assert_eq!(off.counts(), Counts::default());
    }

    #[test]
    fn a_full_queue_flags_the_slow_peer() {
        let (mailbox, _receiver, overflow) = Mailbox::new(PeerId(uuid::Uuid::from_u128(1)), 1);
        use futures::FutureExt;
        mailbox.post(&JsonPeerEvent::PeerLeft(mailbox.id));
        assert!(overflow.notified().now_or_never().is_none());
        mailbox.post(&JsonPeerEvent::PeerLeft(mailbox.id));
        assert!(overflow.notified().now_or_never().is_some());
    }
}
