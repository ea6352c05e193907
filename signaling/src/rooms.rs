//! Who is in which room: the relay's only state.
//!
//! One map from room name to its (at most two) peers, one count of connections per client IP,
//! under one short-held lock. Joining, leaving and routing a signal are each a hash lookup:
//! O(1) in the number of rooms, and an empty room is removed when its last peer leaves. Admission
//! (room full, too many rooms, too many connections) is decided here, atomically, before the
//! websocket upgrade.

use relay_api::Refusal;
use std::{
    collections::{hash_map::Entry, HashMap},
    net::IpAddr,
    sync::{Arc, Mutex, MutexGuard},
};

use axum::extract::ws::Utf8Bytes;
use matchbox_protocol::{JsonPeerEvent, PeerId};
use tokio::sync::{mpsc, Notify};

/// Peers in one room: the two players.
pub(crate) const ROOM_CAPACITY: usize = 2;

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
        let text = Utf8Bytes::from(event.to_string());
        if let Err(mpsc::error::TrySendError::Full(_)) = self.queue.try_send(text) {
            self.overflow.notify_one();
        }
    }
}

/// The limits admission enforces.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    pub(crate) max_peers: usize,
    pub(crate) max_per_ip: usize,
    pub(crate) max_rooms: usize,
}

/// Counts of what the relay holds, for `/health`, tests and benchmarks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Rooms with at least one peer.
    pub rooms: usize,
    /// Peers admitted (websockets upgraded or about to be).
    pub peers: usize,
    /// Distinct client IPs holding at least one peer.
    pub client_ips: usize,
    /// Open TCP connections of any kind (pages, websockets, idle keep-alive).
    pub connections: usize,
}

#[derive(Default)]
struct Inner {
    rooms: HashMap<Arc<str>, Vec<Mailbox>>,
    per_ip: HashMap<IpAddr, usize>,
    peers: usize,
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
            client_ips: inner.per_ip.len(),
            connections: 0,
        }
    }

    /// Whether a peer from `ip` could join `room` now: the number of peers in it, or why not.
    pub(crate) fn probe(&self, room: &str, ip: IpAddr) -> Result<usize, Refusal> {
        let inner = self.lock();
        let peers = inner.rooms.get(room).map_or(0, Vec::len);
        if peers >= ROOM_CAPACITY {
            Err(Refusal::RoomFull)
        } else if inner.peers >= self.limits.max_peers {
            Err(Refusal::RelayFull)
        } else if inner.per_ip.get(&ip).copied().unwrap_or(0) >= self.limits.max_per_ip {
            Err(Refusal::TooManyFromIp)
        } else if peers == 0 && inner.rooms.len() >= self.limits.max_rooms {
            Err(Refusal::TooManyRooms)
        } else {
            Ok(peers)
        }
    }

    /// Admits `mailbox` into `room` and tells the peer already there (`NewPeer`), or says why not.
    pub(crate) fn join(
        self: &Arc<Self>,
        room: &str,
        ip: IpAddr,
        mailbox: Mailbox,
    ) -> Result<Seat, Refusal> {
        let mut inner = self.lock();
        let inner = &mut *inner;
        if inner.peers >= self.limits.max_peers {
            return Err(Refusal::RelayFull);
        }
        if inner.per_ip.get(&ip).copied().unwrap_or(0) >= self.limits.max_per_ip {
            return Err(Refusal::TooManyFromIp);
        }
        let room_count = inner.rooms.len();
        let key = match inner.rooms.get_key_value(room) {
            Some((_, peers)) if peers.len() >= ROOM_CAPACITY => return Err(Refusal::RoomFull),
            Some((key, _)) => key.clone(),
            None if room_count >= self.limits.max_rooms => return Err(Refusal::TooManyRooms),
            None => Arc::from(room),
        };
        let id = mailbox.id;
        let peers = inner
            .rooms
            .entry(key.clone())
            .or_insert_with(|| Vec::with_capacity(ROOM_CAPACITY));
        for other in peers.iter() {
            other.post(&JsonPeerEvent::NewPeer(id));
        }
        peers.push(mailbox);
        *inner.per_ip.entry(ip).or_insert(0) += 1;
        inner.peers += 1;
        Ok(Seat {
            rooms: self.clone(),
            room: key,
            ip,
            id,
        })
    }

    fn leave(&self, seat: &Seat) {
        let mut inner = self.lock();
        let inner = &mut *inner;
        if let Entry::Occupied(mut entry) = inner.rooms.entry(seat.room.clone()) {
            let peers = entry.get_mut();
            peers.retain(|peer| peer.id != seat.id);
            if peers.is_empty() {
                entry.remove();
            } else {
                for other in peers.iter() {
                    other.post(&JsonPeerEvent::PeerLeft(seat.id));
                }
            }
        }
        if let Entry::Occupied(mut entry) = inner.per_ip.entry(seat.ip) {
            *entry.get_mut() -= 1;
            if *entry.get() == 0 {
                entry.remove();
            }
        }
        inner.peers -= 1;
    }
}

impl Seat {
    /// The peer's id.
    pub(crate) fn id(&self) -> PeerId {
        self.id
    }

    /// Hands `data` to `receiver` as a `Signal` from this peer, if `receiver` is in the same room.
    /// Returns whether it was delivered to a queue.
    pub(crate) fn signal(&self, receiver: PeerId, data: serde_json::Value) -> bool {
        let target = {
            let inner = self.rooms.lock();
            inner
                .rooms
                .get(&self.room)
                .and_then(|peers| peers.iter().find(|peer| peer.id == receiver))
                .filter(|peer| peer.id != self.id)
                .cloned()
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
        let seat_a = rooms.join("r", ip(1), a).unwrap();
        let seat_b = rooms.join("r", ip(2), b).unwrap();
        assert_eq!(event(&mut a_rx), Some(JsonPeerEvent::NewPeer(b_id)));
        assert_eq!(event(&mut b_rx), None, "the newcomer waits for the offer");
        assert_eq!(rooms.join("r", ip(3), c).err(), Some(Refusal::RoomFull));

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
        });
        let s1 = rooms.join("a", ip(1), peer(1).0).unwrap();
        let s2 = rooms.join("b", ip(1), peer(2).0).unwrap();
        assert_eq!(
            rooms.join("b", ip(1), peer(3).0).err(),
            Some(Refusal::TooManyFromIp)
        );
        assert_eq!(
            rooms.join("c", ip(2), peer(3).0).err(),
            Some(Refusal::TooManyRooms)
        );
        let s3 = rooms.join("b", ip(2), peer(3).0).unwrap();
        assert_eq!(
            rooms.join("a", ip(3), peer(4).0).err(),
            Some(Refusal::RelayFull)
        );
        drop((s1, s2, s3));
        assert_eq!(rooms.counts(), Counts::default());
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
