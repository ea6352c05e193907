//! The two seats' hash chains as received: signature, sequence, chain and key checks on arrival,
//! fork detection, and the one deterministic order in which both peers fold the entries.

use super::room::PROPOSAL_MS;
use super::wire::{self, join_proof, Body, Digest32, Entry, Heads, RoomId, Seat};
use ed25519_dalek::VerifyingKey;
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;

/// Why an entry was not added to the transcript.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Another room's entry.
    WrongRoom,
    /// The signature does not verify with the seat's key.
    BadSignature,
    /// A first entry that is not a `Hello`, or a `Hello` that is not first.
    NotHello,
    /// The host's `Hello` names another key than the invitation's (or, with neither the host's
    /// key nor the room secret known, cannot be checked at all).
    WrongHostKey,
    /// A `Hello` without a valid proof of the room secret: the guest's, or the host's when its
    /// key is not known yet (a guest that joined by short code).
    BadProof,
    /// A guest entry before the guest's key is known.
    UnknownGuest,
    /// Another key tried to take a seat already bound to a key.
    Intruder,
    /// The previous-entry hash does not match the sender's chain.
    BrokenChain,
    /// Refers to an entry of ours we never wrote (a copy of our tab wrote it?).
    UnknownSeen,
    /// The sender's clock went backwards.
    TimeWentBack,
    /// A second, different entry with a sequence number already used: a fork.
    Fork,
    /// A sequence number beyond the next expected one (kept aside until the gap fills).
    Gap,
    /// The seat's chain reached [`MAX_ENTRIES`].
    TooLong,
    /// A hand-over of a seat other than the sender's opponent, of a seat not yet bound, or to a
    /// key that is the seat's current one, the sender's own, or no key at all.
    BadHandover,
    /// An entry with a number already held, written by a seat's earlier key without having
    /// seen the hand-over that the held one, by the new key, had seen: a device that no longer
    /// holds the seat wrote it unaware (it keeps it; we keep the new device's).
    Superseded,
    /// A fork proof ([`Body::Fork`]) that proves nothing: not an entry of the other seat with a
    /// number the sender had seen, not signed by that seat's key, the very entry held, a
    /// hand-over's superseded entry, or a proof within a proof.
    BadFork,
}

/// A decision about what the other side wrote or did not write — an answer to its proposal, a
/// claim that it stayed away — as opposed to an entry that only speaks for its sender (a move, a
/// proposal, a withdrawal, a resignation…). A decision counts only for what its sender had
/// seen: it is void if an entry of the other seat that refutes it crossed it (any entry, for a
/// claim; one the proposer wrote within the proposal's life, for an answer: docs/protocol.md),
/// so a player cannot make it count against entries by declaring it had not seen them.
pub fn is_decision(body: &Body) -> bool {
    matches!(body, Body::Reply { .. } | Body::ClaimWin)
}

/// Entries per seat at most: far beyond any game (a 500-turn Morris game with every proposal
/// takes about a thousand), small enough that a hostile peer cannot grow a transcript forever.
pub const MAX_ENTRIES: u32 = 10_000;

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Refusal::WrongRoom => "entry of another room",
            Refusal::BadSignature => "bad signature",
            Refusal::NotHello => "hello out of place",
            Refusal::WrongHostKey => "the host's key is not the invitation's",
            Refusal::BadProof => "the sender does not know the room secret",
            Refusal::UnknownGuest => "guest entry before the guest's hello",
            Refusal::Intruder => "another key tried to take a seat",
            Refusal::BrokenChain => "broken hash chain",
            Refusal::UnknownSeen => "refers to an entry never written here",
            Refusal::TimeWentBack => "the sender's clock went backwards",
            Refusal::Fork => "two different entries with the same sequence number",
            Refusal::Gap => "entry ahead of a gap",
            Refusal::TooLong => "too many entries",
            Refusal::BadHandover => "a hand-over of no other seat, or to no usable key",
            Refusal::Superseded => "written by a seat's earlier key after its hand-over",
            Refusal::BadFork => "a fork proof that proves no fork",
        })
    }
}

/// Outcome of offering an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Added {
    /// A new entry, now part of the transcript.
    New,
    /// An entry already held (a duplicate delivery): nothing to do.
    Duplicate,
}

#[derive(Clone, Debug)]
struct Held {
    entry: Entry,
    hash: Digest32,
    /// How many entries of the other seat the sender had seen.
    seen: u32,
    /// The canonical encoding in hexadecimal, made once: saves and exports write it often.
    hex: String,
}

impl Held {
    fn new(entry: Entry, seen: u32, keep_hex: bool) -> Held {
        let bytes = wire::encode(&entry);
        Held {
            hash: wire::hash_encoded(&bytes),
            hex: if keep_hex {
                wire::hex(&bytes)
            } else {
                String::new()
            },
            entry,
            seen,
        }
    }
}

/// What the chains index for each seat, so that every question the fold asks costs a
/// logarithm, not the room (docs/protocol.md, « Costs »).
#[derive(Clone, Debug, Default)]
struct Index {
    /// Each entry's number by its hash (`seen` names an entry by its hash).
    by_hash: BTreeMap<Digest32, u32>,
    /// The numbers of the decisions (answers and claims), in order.
    decisions: Vec<u32>,
    /// The numbers of the acceptances, in order (version 2's claim rule).
    acceptances: Vec<u32>,
    /// How many hand-overs the first `k` entries hold, for every `k` from 0.
    handovers: Vec<u32>,
}

impl Index {
    fn push(&mut self, h: &Held) {
        let seq = h.entry.seq();
        self.by_hash.insert(h.hash, seq);
        if is_decision(&h.entry.body) {
            self.decisions.push(seq);
        }
        if matches!(h.entry.body, Body::Reply { accept: true, .. }) {
            self.acceptances.push(seq);
        }
        let before = self.handovers.last().copied().unwrap_or(0);
        if self.handovers.is_empty() {
            self.handovers.push(0);
        }
        let handover = matches!(h.entry.body, Body::Handover { .. });
        self.handovers.push(before + u32::from(handover));
    }

    fn pop(&mut self, h: &Held) {
        let seq = h.entry.seq();
        self.by_hash.remove(&h.hash);
        if self.decisions.last() == Some(&seq) {
            self.decisions.pop();
        }
        if self.acceptances.last() == Some(&seq) {
            self.acceptances.pop();
        }
        self.handovers.pop();
    }

    /// The hand-overs among entries `range`.
    fn handovers_in(&self, range: Range<usize>) -> u32 {
        let at = |k: usize| self.handovers.get(k).copied().unwrap_or(0);
        at(range.end) - at(range.start)
    }
}

/// Both seats' chains.
#[derive(Clone, Debug)]
pub struct Chains {
    room: RoomId,
    keys: [Option<VerifyingKey>; 2],
    /// The room secret, known to the two seats (checks the guest's proof, and the host's while
    /// its key is unknown) but not to a third party verifying an exported transcript.
    secret: Option<[u8; 16]>,
    held: [Vec<Held>; 2],
    index: [Index; 2],
    /// Keep each entry's hexadecimal form (a session saves and exports it often; a verifier
    /// never does).
    keep_hex: bool,
    /// Keys a seat was moved to by the other seat's hand-overs, in order: the hand-over's
    /// number in the other seat's chain, and the new key. A seat's entry is signed by the key
    /// of the last hand-over it had seen (its own `seen`), or its hello's: what it wrote before
    /// it learnt of a hand-over keeps its key, whatever the hand-over declares it had seen.
    handovers: [Vec<(u32, VerifyingKey)>; 2],
    /// Proofs of forks: the entry held and the conflicting one.
    pub forks: Vec<(Entry, Entry)>,
    /// Signatures checked so far.
    checked: u64,
    /// Every held entry in the order it was added (each one's references held before it): a
    /// save in that order only ever grows at its end.
    log: Vec<(Seat, u32)>,
}

impl Chains {
    /// Empty chains for a room.
    ///
    /// With the host's key (an invitation link, or a transcript's header) the host's `Hello`
    /// must name that key. Without it (a guest that joined by short code) the first host
    /// `Hello` that proves the room secret binds its key, as the guest's `Hello` does for the
    /// guest seat; without key or secret no host `Hello` is accepted
    /// ([`Refusal::WrongHostKey`]).
    pub fn new(room: RoomId, host_key: Option<VerifyingKey>, secret: Option<[u8; 16]>) -> Chains {
        Chains {
            room,
            keys: [host_key, None],
            secret,
            held: [Vec::new(), Vec::new()],
            index: [Index::default(), Index::default()],
            keep_hex: true,
            handovers: [Vec::new(), Vec::new()],
            forks: Vec::new(),
            checked: 0,
            log: Vec::new(),
        }
    }

    /// Chains that keep no hexadecimal form of their entries (a verifier's: it reads them from
    /// its file and writes none).
    pub fn without_hex(mut self) -> Chains {
        self.keep_hex = false;
        self
    }

    /// Signatures checked so far (docs/protocol.md, « Costs »).
    pub fn checked(&self) -> u64 {
        self.checked
    }

    /// How many entries of each seat are held, and the last hashes: what a side says to be
    /// sent what it lacks.
    pub fn heads(&self) -> Heads {
        Heads {
            count: [self.len(Seat::Host), self.len(Seat::Guest)],
            last: [self.last_hash(Seat::Host), self.last_hash(Seat::Guest)],
        }
    }

    /// Entries held for a seat.
    pub fn len(&self, seat: Seat) -> u32 {
        self.held[seat.index()].len() as u32
    }

    /// The hash of a seat's last entry (zero for none).
    pub fn last_hash(&self, seat: Seat) -> Digest32 {
        self.held[seat.index()]
            .last()
            .map_or(Digest32::ZERO, |h| h.hash)
    }

    /// The hash of a seat's entry `seq`.
    pub fn hash_at(&self, seat: Seat, seq: u32) -> Option<Digest32> {
        self.held[seat.index()].get(seq as usize).map(|h| h.hash)
    }

    /// A seat's entry `seq`.
    pub fn get(&self, seat: Seat, seq: u32) -> Option<&Entry> {
        self.held[seat.index()].get(seq as usize).map(|h| &h.entry)
    }

    /// How many entries of the other seat a seat's last entry had seen (0 for none).
    pub fn last_seen(&self, seat: Seat) -> u32 {
        self.held[seat.index()].last().map_or(0, |h| h.seen)
    }

    /// The time of a seat's last entry.
    pub fn last_time(&self, seat: Seat) -> Option<u64> {
        self.held[seat.index()].last().map(|h| h.entry.header.time)
    }

    /// The guest's key, once bound.
    pub fn guest_key(&self) -> Option<VerifyingKey> {
        self.keys[1]
    }

    /// The host's key: given at creation, or bound by the host's `Hello`.
    pub fn host_key(&self) -> Option<VerifyingKey> {
        self.keys[0]
    }

    /// The key an entry of `seat` that had seen `seen` entries of the other seat is signed
    /// with: the key of the last hand-over of that seat among them, or its `Hello`'s. It
    /// depends on nothing but the entry itself, so every peer and `engine verify` check it
    /// alike, in whatever order the entries came.
    pub fn key_for(&self, seat: Seat, seen: u32) -> Option<VerifyingKey> {
        let s = seat.index();
        self.handovers[s]
            .iter()
            .rev()
            .find(|(by, _)| *by < seen)
            .map(|(_, k)| *k)
            .or(self.keys[s])
    }

    /// The other seat's latest hand-over of `seat`: its number in the other seat's chain.
    pub fn last_handover(&self, seat: Seat) -> Option<u32> {
        self.handovers[seat.index()].last().map(|(by, _)| *by)
    }

    /// How many entries of the seat it handed over an entry of the other seat crossed: entries
    /// of that seat it had not seen, written before they saw it (they keep the earlier key).
    pub fn crossed_count(&self, by: Seat, seq: u32) -> u32 {
        self.held[by.index()]
            .get(seq as usize)
            .map_or(0, |h| self.crossing(&h.entry, [usize::MAX; 2]).len() as u32)
    }

    /// True when `key` held the seat at some point (its hello's, or one a hand-over gave it).
    pub fn ever_held(&self, seat: Seat, key: &VerifyingKey) -> bool {
        let s = seat.index();
        self.keys[s].as_ref() == Some(key) || self.handovers[s].iter().any(|(_, k)| k == key)
    }

    /// The key a seat's next entries are signed with, once they have seen everything we hold
    /// (after any hand-over).
    pub fn current_key(&self, seat: Seat) -> Option<VerifyingKey> {
        self.key_for(seat, u32::MAX)
    }

    /// Checks an entry and adds it to its seat's chain.
    pub fn add(&mut self, e: Entry) -> Result<Added, Refusal> {
        let h = &e.header;
        if h.room != self.room {
            return Err(Refusal::WrongRoom);
        }
        let s = h.seat.index();
        let next = self.held[s].len() as u32;
        if h.seq < next {
            return self.conflict(e);
        }
        if h.seq >= MAX_ENTRIES {
            return Err(Refusal::TooLong);
        }
        if h.seq > next {
            return Err(Refusal::Gap);
        }
        let is_hello = matches!(e.body, Body::Hello { .. });
        if is_hello != (h.seq == 0) {
            return Err(Refusal::NotHello);
        }
        let seen = self.seen_count(h.seat, h.seen)?;
        let key = self.signing_key(&e, seen)?;
        self.checked += 1;
        if !e.verify(&key) {
            return Err(Refusal::BadSignature);
        }
        let prev = self.held[s].last();
        if h.prev != prev.map_or(Digest32::ZERO, |p| p.hash) {
            return Err(Refusal::BrokenChain);
        }
        if prev.is_some_and(|p| h.time < p.entry.header.time) {
            return Err(Refusal::TimeWentBack);
        }
        // The seen counts of a chain never go down.
        if prev.is_some_and(|p| seen < p.seen) {
            return Err(Refusal::BrokenChain);
        }
        let handover = self.handover(&e, seen)?;
        if matches!(e.body, Body::Fork(_)) {
            // The proof's own entry: a second signature to check.
            self.checked += 1;
        }
        let fork = self.fork_proof(&e, seen)?;
        if is_hello {
            self.keys[s] = Some(key);
        }
        let seq = e.seq();
        self.hold(Held::new(e, seen, self.keep_hex));
        if let Some(new) = handover {
            // The other seat's entries that see this one are signed by the new key.
            self.handovers[1 - s].push((seq, new));
        }
        if let Some(pair) = fork {
            // A proof of our own seat's fork, say, that we had not met: keep it as ours would be.
            self.keep_fork(pair);
        }
        Ok(Added::New)
    }

    /// The proof carried by a [`Body::Fork`] entry, checked (`None` for other entries): an entry
    /// of the other seat whose number the proof had seen, different from the one held with
    /// that number, correctly signed by that seat's key for what it had seen (its `seen` names
    /// an entry of the sender written before the proof), not an old device's entry superseded
    /// by a hand-over ([`Refusal::Superseded`]), and no proof itself. Only the proof and what
    /// it had seen count, so every reader decides alike, in any order of arrival. The held
    /// entry and the conflicting one, for [`Chains::forks`].
    fn fork_proof(&self, e: &Entry, seen: u32) -> Result<Option<(Entry, Entry)>, Refusal> {
        let Body::Fork(other) = &e.body else {
            return Ok(None);
        };
        let forker = e.seat().other();
        let f = forker.index();
        let h = &other.header;
        if h.seat != forker || h.room != self.room || h.seq >= seen {
            return Err(Refusal::BadFork);
        }
        if matches!(other.body, Body::Fork(_)) {
            return Err(Refusal::BadFork);
        }
        let held = &self.held[f][h.seq as usize];
        if held.entry == **other {
            return Err(Refusal::BadFork);
        }
        let other_seen = if h.seen == Digest32::ZERO {
            0
        } else {
            self.index[e.seat().index()]
                .by_hash
                .get(&h.seen)
                .filter(|&&i| i < e.seq())
                .ok_or(Refusal::BadFork)?
                + 1
        };
        let key = self.key_for(forker, other_seen).ok_or(Refusal::BadFork)?;
        if let Body::Hello { key: named, .. } = &other.body {
            if *named != key.to_bytes() {
                return Err(Refusal::BadFork);
            }
        }
        if !other.verify(&key) || self.superseded(forker, other_seen, held.seen) {
            return Err(Refusal::BadFork);
        }
        Ok(Some((held.entry.clone(), (**other).clone())))
    }

    /// True when an entry of `seat` that had seen `seen` entries of the other seat, and one
    /// with the same number that had seen `held`, lie on both sides of a hand-over of that seat:
    /// the later one is the new key's, the earlier an old device's that did not know yet.
    fn superseded(&self, seat: Seat, seen: u32, held: u32) -> bool {
        self.handovers[seat.index()]
            .iter()
            .any(|(by, _)| seen <= *by && *by < held)
    }

    /// Keeps the first fork proof of a seat (one is enough; more would only grow memory).
    fn keep_fork(&mut self, pair: (Entry, Entry)) {
        if !self.forks.iter().any(|(a, _)| a.seat() == pair.0.seat()) {
            self.forks.push(pair);
        }
    }

    /// The room's protocol version, as the host's `Hello` says it (0 before it).
    pub fn protocol(&self) -> u16 {
        match self.held[0].first().map(|h| &h.entry.body) {
            Some(Body::Hello { protocol, .. }) => *protocol,
            _ => 0,
        }
    }

    /// The key a `Handover` entry moves the other seat to, checked (`None` for other entries):
    /// the other seat, bound and seen at least up to its `Hello`, to a key that is neither the
    /// one it had after the sender's earlier hand-overs nor the sender's own (the one that signs
    /// this entry), with the proof of the room secret when we know it. Only what the entry
    /// itself had seen counts, so the check does not depend on the order entries came in.
    fn handover(&self, e: &Entry, seen: u32) -> Result<Option<VerifyingKey>, Refusal> {
        let Body::Handover { seat, key, proof } = &e.body else {
            return Ok(None);
        };
        let new = VerifyingKey::from_bytes(key).map_err(|_| Refusal::BadHandover)?;
        let bytes = |k: Option<VerifyingKey>| k.map(|k| k.to_bytes());
        if *seat != e.seat().other()
            || seen == 0
            || bytes(self.key_for(*seat, e.seq())).is_none_or(|k| k == *key)
            || bytes(self.key_for(e.seat(), seen)) == Some(*key)
        {
            return Err(Refusal::BadHandover);
        }
        if self
            .secret
            .as_ref()
            .is_some_and(|secret| join_proof(self.room, secret, key) != *proof)
        {
            return Err(Refusal::BadProof);
        }
        Ok(Some(new))
    }

    /// An entry with a number already held: a harmless duplicate, or — correctly signed and
    /// different — the signed proof of a fork.
    fn conflict(&mut self, e: Entry) -> Result<Added, Refusal> {
        let s = e.seat().index();
        let held = &self.held[s][e.seq() as usize];
        if held.entry == e {
            return Ok(Added::Duplicate);
        }
        // Only a correctly signed conflicting entry proves a fork: signed with the key of what
        // it had seen, as any entry (an old device's entry that had not seen a hand-over and
        // the new device's with the same number are both the seat's: a fork).
        let seen = self.seen_count(e.seat(), e.header.seen)?;
        let key = self.key_for(e.seat(), seen).ok_or(Refusal::UnknownGuest)?;
        if let Body::Hello { key: other, .. } = &e.body {
            if *other != key.to_bytes() {
                return Err(Refusal::Intruder);
            }
        }
        self.checked += 1;
        if !e.verify(&key) {
            return Err(Refusal::BadSignature);
        }
        // The held entry had seen a hand-over of the seat that this one had not: the seat had
        // moved to the new key when this was written, by a device that did not know it yet.
        if self.superseded(e.seat(), seen, held.seen) {
            return Err(Refusal::Superseded);
        }
        let held = held.entry.clone();
        self.keep_fork((held, e));
        Err(Refusal::Fork)
    }

    /// The key a new entry that had seen `seen` entries of the other seat must be signed with:
    /// the seat's key for what it had seen ([`Chains::key_for`]), or, for a `Hello`, the key it
    /// binds (checked against the invitation's host key or the proof of the secret).
    fn signing_key(&self, e: &Entry, seen: u32) -> Result<VerifyingKey, Refusal> {
        let bound = self.keys[e.seat().index()];
        let Body::Hello { key, proof, .. } = &e.body else {
            return self.key_for(e.seat(), seen).ok_or(Refusal::UnknownGuest);
        };
        let proves = |secret: &[u8; 16]| join_proof(self.room, secret, key) == *proof;
        match (e.seat(), bound) {
            (Seat::Host, Some(host)) if *key != host.to_bytes() => Err(Refusal::WrongHostKey),
            (Seat::Host, Some(host)) => Ok(host),
            (Seat::Host, None) => {
                // Joined by code: trust on first use, for a host that knows the secret.
                let secret = self.secret.as_ref().ok_or(Refusal::WrongHostKey)?;
                let claimed = VerifyingKey::from_bytes(key).map_err(|_| Refusal::BadSignature)?;
                if !proves(secret) {
                    return Err(Refusal::BadProof);
                }
                Ok(claimed)
            }
            (Seat::Guest, bound) => {
                let claimed = VerifyingKey::from_bytes(key).map_err(|_| Refusal::BadSignature)?;
                if bound.is_some_and(|b| b != claimed) {
                    return Err(Refusal::Intruder);
                }
                if self.secret.as_ref().is_some_and(|secret| !proves(secret)) {
                    return Err(Refusal::BadProof);
                }
                Ok(claimed)
            }
        }
    }

    /// How many entries of the other seat an entry of `seat` had seen, from the hash it names.
    fn seen_count(&self, seat: Seat, seen: Digest32) -> Result<u32, Refusal> {
        if seen == Digest32::ZERO {
            return Ok(0);
        }
        self.index[seat.other().index()]
            .by_hash
            .get(&seen)
            .map(|i| i + 1)
            .ok_or(Refusal::UnknownSeen)
    }

    /// Adds a checked entry to its seat's chain and indexes.
    fn hold(&mut self, h: Held) {
        let s = h.entry.seat().index();
        self.log.push((h.entry.seat(), h.entry.seq()));
        self.index[s].push(&h);
        self.held[s].push(h);
    }

    /// Every held entry in the order it was added, each as (seat, number).
    pub fn log(&self) -> &[(Seat, u32)] {
        &self.log
    }

    /// A held entry's canonical encoding in hexadecimal (empty for chains that keep none).
    pub fn hex_of(&self, seat: Seat, seq: u32) -> Option<&str> {
        self.held[seat.index()]
            .get(seq as usize)
            .map(|h| h.hex.as_str())
    }

    /// Adds an entry this side has just signed after its `Hello`: its number, links and
    /// signature come from these chains and our own key, so nothing is checked again (checking
    /// a signature costs more than making one).
    pub(super) fn push_own(&mut self, e: Entry) {
        let s = e.seat().index();
        debug_assert_eq!(e.seq(), self.len(e.seat()));
        let seen = self.held[1 - s].len() as u32;
        // Our own hand-over: the knock's key was checked when it arrived.
        let handover = match &e.body {
            Body::Handover { key, .. } => VerifyingKey::from_bytes(key).ok(),
            _ => None,
        };
        let seq = e.seq();
        self.hold(Held::new(e, seen, self.keep_hex));
        if let Some(new) = handover {
            self.handovers[1 - s].push((seq, new));
        }
    }

    /// Takes back the entry [`Chains::push_own`] just added (the room refused it).
    pub(super) fn pop_own(&mut self, seat: Seat) {
        let s = seat.index();
        if let Some(h) = self.held[s].pop() {
            self.log.pop();
            self.index[s].pop(&h);
            if matches!(h.entry.body, Body::Handover { .. }) {
                self.handovers[1 - s].pop();
            }
        }
    }

    /// Every entry in the one order both peers fold them (docs/protocol.md, « One order, one
    /// state »): an entry comes after everything its sender had seen; between two entries that
    /// did not see each other, the host's comes first — but an answer comes before the
    /// proposer's entries dated after its proposal's life, which cannot close it under the
    /// answer. (Which of two crossing entries folds first never lets one count against the
    /// other: a decision that crossed an entry refuting it is void, [`is_decision`].)
    pub fn merged(&self) -> Vec<&Entry> {
        self.merge([usize::MAX; 2]).map(|h| &h.entry).collect()
    }

    /// The entries in fold order, each as its canonical encoding in hexadecimal.
    pub fn merged_hex(&self) -> impl Iterator<Item = &str> {
        self.merge([usize::MAX; 2]).map(|h| h.hex.as_str())
    }

    /// The entries among the first `limits` of each seat (host, guest), in fold order.
    pub fn merged_within(&self, limits: [usize; 2]) -> Vec<&Entry> {
        self.merge(limits).map(|h| &h.entry).collect()
    }

    /// What the sender of `e` declares it had seen when it wrote it, as limits for
    /// [`Chains::merged_within`]: its own earlier entries and the other seat's up to `seen`.
    pub fn declared_limits(&self, e: &Entry) -> [usize; 2] {
        let s = e.seat().index();
        let mut limits = [0; 2];
        limits[s] = e.seq() as usize;
        limits[1 - s] = self.seen_of(e) as usize;
        limits
    }

    /// The numbers of the entries of the other seat that `e`, a held entry, crossed, among the
    /// first `limits` of each seat: those it had not seen, written before they saw it. Seen
    /// counts never go down in a chain, so they are one run, found by a binary search.
    pub fn crossing(&self, e: &Entry, limits: [usize; 2]) -> Range<usize> {
        let (s, seq) = (e.seat().index(), e.seq());
        let Some(held) = self.held[s].get(seq as usize) else {
            return 0..0;
        };
        let other = &self.held[1 - s][..self.held[1 - s].len().min(limits[1 - s])];
        let start = (held.seen as usize).min(other.len());
        start..start + other[start..].partition_point(|o| o.seen <= seq)
    }

    /// True when `e`, a held decision, crossed an entry of the other seat (among the first
    /// `limits` of each seat) that refutes it (docs/protocol.md, « Races »): any entry refutes a
    /// claim of absence; an answer is refuted by what the proposer wrote within the proposal's
    /// life ([`after_life`]: both times the proposer's own, which never go back, so those are a
    /// run too), a hand-over excepted. A few binary searches.
    pub fn refuted(&self, e: &Entry, limits: [usize; 2]) -> bool {
        let range = self.crossing(e, limits);
        if range.is_empty() {
            return false;
        }
        let Body::Reply { proposal, .. } = e.body else {
            return true;
        };
        let other = e.seat().other().index();
        let end = match self.get(e.seat().other(), proposal) {
            Some(p) if matches!(p.body, Body::Propose(_)) => {
                let deadline = p.header.time.saturating_add(PROPOSAL_MS);
                range.start
                    + self.held[other][range.clone()]
                        .partition_point(|o| o.entry.header.time <= deadline)
            }
            _ => range.end,
        };
        let within = range.start..end;
        within.len() as u32 > self.index[other].handovers_in(within)
    }

    /// The decisions of the other seat that `e`, a held entry, crossed (their numbers): the
    /// only entries whose effect an entry that arrives later can change.
    pub fn crossed_decisions(&self, e: &Entry) -> &[u32] {
        let range = self.crossing(e, [usize::MAX; 2]);
        let d = &self.index[e.seat().other().index()].decisions;
        let from = d.partition_point(|&x| (x as usize) < range.start);
        let to = d.partition_point(|&x| (x as usize) < range.end);
        &d[from..to]
    }

    /// When, by its own clock, the sender of an entry numbered `seq` of `seat` that had seen
    /// `seen` entries of the other seat last knew that seat to be there: the time of its latest
    /// entry before that one which had not seen the other seat's latest entry seen. That entry
    /// was written before the other's had arrived, so the other seat was still there after it.
    /// `None` when nothing of the other seat was seen, or seen from the sender's first entry.
    pub fn absent_since(&self, seat: Seat, seq: u32, seen: u32) -> Option<u64> {
        if seen == 0 {
            return None;
        }
        let own = &self.held[seat.index()];
        let before = &own[..own.len().min(seq as usize)];
        let unaware = before.partition_point(|h| h.seen < seen);
        before
            .get(unaware.checked_sub(1)?)
            .map(|h| h.entry.header.time)
    }

    /// True when an entry of `seat` numbered `seq`, which had seen `seen` entries of the other
    /// seat, comes after an entry of its own that crossed an acceptance among those and that
    /// the other seat had not seen by the latest of them (it may not know its acceptance was
    /// crossed): version 2's claim rule. Our entries that crossed an acceptance are those from
    /// the ones it had not seen to those that saw it; the latest entry seen acknowledges a
    /// prefix of ours, at least as long as any acceptance before it had seen; and the later the
    /// acceptance, the further the entries that had not seen it reach. So the latest acceptance
    /// decides, and two binary searches answer.
    pub fn follows_crossed_acceptance(&self, seat: Seat, seq: u32, seen: u32) -> bool {
        let (own, other) = (&self.held[seat.index()], &self.held[seat.other().index()]);
        let seen = (seen as usize).min(other.len());
        let Some(latest) = seen.checked_sub(1).map(|i| &other[i]) else {
            return false;
        };
        let acknowledged = latest.seen as usize;
        let before = (seq as usize).min(own.len());
        let accepted = &self.index[seat.other().index()].acceptances;
        let Some(&at) = accepted
            .partition_point(|&a| (a as usize) < seen)
            .checked_sub(1)
            .map(|k| &accepted[k])
        else {
            return false;
        };
        let at = at as usize;
        // Our entries the acceptance had not seen (from `answer.seen`, no further than what the
        // latest acknowledged), and that had not seen it.
        let from = (other[at].seen as usize).max(acknowledged);
        let until = own.partition_point(|o| (o.seen as usize) <= at).min(before);
        from < until
    }

    /// How many entries of the other seat a held entry had seen.
    pub fn seen_of(&self, e: &Entry) -> u32 {
        self.held[e.seat().index()]
            .get(e.seq() as usize)
            .map_or(0, |h| h.seen)
    }

    fn merge(&self, limits: [usize; 2]) -> impl Iterator<Item = &Held> {
        self.merge_at(limits, [0, 0])
    }

    /// The fold order of every entry, from the point where the first `from` entries of each
    /// seat (host, guest) have come: the entries after them, as (seat, number). The fold
    /// order of a set of entries that holds everything each of them saw is the full order
    /// without the others, so a new entry changes the order only after it, and the order
    /// from the place it comes in is all a fold needs again.
    pub fn merged_from(&self, from: [usize; 2]) -> impl Iterator<Item = (Seat, u32)> + '_ {
        self.merge_at([usize::MAX; 2], from)
            .map(|h| (h.entry.seat(), h.entry.seq()))
    }

    fn merge_at(&self, limits: [usize; 2], from: [usize; 2]) -> impl Iterator<Item = &Held> {
        let host = &self.held[0][..self.held[0].len().min(limits[0])];
        let guest = &self.held[1][..self.held[1].len().min(limits[1])];
        let [mut i, mut j] = from;
        std::iter::from_fn(move || {
            let take_host = match (host.get(i), guest.get(j)) {
                // The host's next entry can come once every guest entry it saw has come; of two
                // that can both come (they crossed), the host's, but for an answer to a host's
                // proposal, which comes before the host's entries dated after that proposal's
                // life (`outlived`).
                (Some(h), Some(g)) => {
                    (h.seen as usize) <= j && !((g.seen as usize) <= i && outlived(host, h, g))
                }
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => return None,
            };
            Some(if take_host {
                i += 1;
                &host[i - 1]
            } else {
                j += 1;
                &guest[j - 1]
            })
        })
    }
}

/// True when `answer`, an entry of the other seat, answers the proposal of `proposer`'s chain
/// that `late`, an entry of that chain, was dated more than [`PROPOSAL_MS`] after (both times
/// the proposer's own). The answer may have come within the proposal's life: a later entry of
/// the proposer that had not seen it cannot close the proposal under it, so the answer folds
/// first (docs/protocol.md, « Races »).
fn outlived(proposer: &[Held], late: &Held, answer: &Held) -> bool {
    let Body::Reply { proposal, .. } = answer.entry.body else {
        return false;
    };
    after_life(
        proposer.get(proposal as usize).map(|p| &p.entry),
        &late.entry,
    )
}

/// True when `proposal` is a proposal and `late`, an entry of its chain, is dated after its
/// life ([`PROPOSAL_MS`], both times the proposer's own): an answer may have come in that life.
pub(super) fn after_life(proposal: Option<&Entry>, late: &Entry) -> bool {
    proposal.is_some_and(|p| {
        matches!(p.body, Body::Propose(_))
            && late.header.time > p.header.time.saturating_add(PROPOSAL_MS)
    })
}
