//! Spectators (issue #24; docs/protocol.md, « Spectators »): a read-only follower of both
//! chains, fed by a player's session, that checks every entry as `engine verify` does.
//!
//! A spectator holds no seat and no secret: the watch link gives it the room, the game and the
//! host's key ([`WatchLink`]). It asks a player's browser — its *feeder* — for the entries it
//! lacks by sending its heads ([`Follower::ask`], the peers' own [`Message::Heads`]), and the
//! feeder answers and then forwards each new entry ([`Session::feed`], [`Session::feed_new`],
//! with a [`Feed`] per spectator: the peers' own [`Message::Entries`]). The follower adds each
//! entry to its own [`Chains`] — signature, number, links, the seat's key, as a peer and the
//! verifier do — and folds them through the room's rules ([`Fold`]), so what it shows is what
//! the signatures prove, whoever passed the entries on. An entry the chains refuse for any
//! reason a feeder cannot get from honest players (a bad signature, a broken chain, another
//! room's entry…) catches the feeder ([`Caught`]): whoever drives the follower reads nothing
//! more from that feeder and turns to another (`client_net`'s spectator does). Entries ahead
//! of a gap wait, at most [`MAX_PENDING`](super::MAX_PENDING) of them, and a new gap asks for
//! what is missing.
//!
//! ```
//! use engine::session::follow::{Follower, WatchLink};
//! use engine::session::{Command, Feed, Loopback, Seat, Step};
//! use engine::GameKind;
//!
//! let mut net = Loopback::new(GameKind::Meta, 100);
//! net.exchange(Seat::Host, Command::Play(Step::Cell(40)));
//! // The host's page passes its watch link on; a spectator opens it.
//! let link = WatchLink::of(net.host().invite()).unwrap();
//! let mut watcher = Follower::new(WatchLink::from_fragment(&link.to_fragment()).unwrap());
//! let mut feed = Feed::default();
//! // The spectator's channel to the host opens: it asks, the host answers.
//! for bytes in net.host().feed(&mut feed, &watcher.ask()) {
//!     watcher.receive(&bytes).unwrap();
//! }
//! assert_eq!(watcher.room().game(), net.host().game());
//! // Then each new entry follows.
//! net.exchange(Seat::Guest, Command::Play(Step::Cell(36)));
//! for bytes in net.host().feed_new(&mut feed) {
//!     watcher.receive(&bytes).unwrap();
//! }
//! assert_eq!(watcher.room().game().unwrap().turns(), 2);
//! ```

use super::chains::{Added, Chains, Refusal};
use super::fold::{Change, Fold};
use super::invite::fragment_fields;
use super::room::{Room, RoomEvent};
use super::wire::{self, Entry, Message, RoomId, Seat, Sig, MAX_BATCH};
use super::{transcript, Invite, Session, Standing, MAX_PENDING};
use crate::GameKind;
use ed25519_dalek::VerifyingKey;

/// What a spectator needs to watch a room, and nothing that lets it act: the game, the room's
/// id and the host's public key (no secret, no seat).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WatchLink {
    /// The game.
    pub kind: GameKind,
    /// The room.
    pub room: RoomId,
    /// The host's public key.
    pub host_key: [u8; 32],
}

/// Why a watch link could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WatchLinkError {
    /// Not `w=<morris|meta>&r=<room>&k=<key>`, each once.
    Malformed,
    /// The host's key is not a valid Ed25519 public key.
    BadKey,
}

impl std::fmt::Display for WatchLinkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            WatchLinkError::Malformed => "not a watch link",
            WatchLinkError::BadKey => "the host's key in the watch link is not a key",
        })
    }
}

impl std::error::Error for WatchLinkError {}

impl WatchLink {
    /// The watch link of a room whose host's key is known (`None` before a guest by code got
    /// the host's hello).
    pub fn of(invite: &Invite) -> Option<WatchLink> {
        Some(WatchLink {
            kind: invite.rules.kind(),
            room: invite.room,
            host_key: invite.host_key?,
        })
    }

    /// The room's name on the relay (as [`Invite::room_name`]).
    pub fn room_name(&self) -> String {
        wire::hex(&self.room.0)
    }

    /// As URL-fragment text: `w=<morris|meta>&r=<room>&k=<key>` (`w`, not the invitation's
    /// `g`: a watch link is never read as an invitation, nor an invitation as a watch link).
    pub fn to_fragment(&self) -> String {
        format!(
            "w={}&r={}&k={}",
            self.kind.as_str(),
            wire::hex(&self.room.0),
            wire::hex(&self.host_key)
        )
    }

    /// Reads [`WatchLink::to_fragment`]'s text (with or without the leading `#`).
    pub fn from_fragment(text: &str) -> Result<WatchLink, WatchLinkError> {
        let parts = fragment_fields(text, ["w", "r", "k"]).ok_or(WatchLinkError::Malformed)?;
        let [Some(w), Some(r), Some(k)] = parts else {
            return Err(WatchLinkError::Malformed);
        };
        let kind = GameKind::from_name(w).ok_or(WatchLinkError::Malformed)?;
        let room = wire::unhex_array(r).ok_or(WatchLinkError::Malformed)?;
        let host_key: [u8; 32] = wire::unhex_array(k).ok_or(WatchLinkError::Malformed)?;
        VerifyingKey::from_bytes(&host_key).map_err(|_| WatchLinkError::BadKey)?;
        Ok(WatchLink {
            kind,
            room: RoomId(room),
            host_key,
        })
    }
}

/// A feeder caught passing on an entry no honest player's session would have kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caught {
    /// The seat the entry claims.
    pub seat: Seat,
    /// Its number.
    pub seq: u32,
    /// Why the chains refused it.
    pub why: Refusal,
}

impl std::fmt::Display for Caught {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "entry {:?} #{}: {}", self.seat, self.seq, self.why)
    }
}

impl std::error::Error for Caught {}

/// What the follower learnt from a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Followed {
    /// The room's events, in fold order (a move, a proposal, an answer, a result…).
    Room(RoomEvent),
    /// A seat signed two entries with one number: the proof is kept (it ends the game
    /// against that seat, as it does for the players).
    Fork(Seat),
    /// Send these bytes to the feeder (our heads: a gap to fill).
    Send(Vec<u8>),
    /// The feeder's proof of the seat it holds, the answer to [`Follower::challenge`]: the
    /// seat it claims and its signature, checked by [`Follower::proves`].
    Proof(Seat, Sig),
}

/// A spectator's copy of a room: both chains, checked entry by entry, and the room they fold
/// to.
#[derive(Clone, Debug)]
pub struct Follower {
    link: WatchLink,
    chains: Chains,
    /// Entries that arrived ahead of a gap.
    pending: Vec<Entry>,
    fold: Fold,
    /// An entry ahead of a gap was let go (too many waited): ask again once the gap fills.
    dropped: bool,
}

impl Follower {
    /// A spectator of the room the link names, holding nothing yet.
    pub fn new(link: WatchLink) -> Follower {
        let key = VerifyingKey::from_bytes(&link.host_key).ok();
        Follower {
            chains: Chains::new(link.room, key, None),
            link,
            pending: Vec::new(),
            fold: Fold::default(),
            dropped: false,
        }
    }

    /// The watch link it follows.
    pub fn link(&self) -> WatchLink {
        self.link
    }

    /// What to send a feeder when the channel to it opens: our heads (it answers with what we
    /// lack).
    pub fn ask(&self) -> Vec<u8> {
        wire::encode_message(&Message::Heads(self.chains.heads()))
    }

    /// The room as the entries held fold.
    pub fn room(&self) -> &Room {
        self.fold.room()
    }

    /// Entries held, per seat.
    pub fn held(&self) -> [u32; 2] {
        [self.chains.len(Seat::Host), self.chains.len(Seat::Guest)]
    }

    /// The transcript checked so far, as `engine verify` reads it (entries in fold order).
    pub fn export(&self) -> String {
        let l = self.link;
        transcript::export_room(l.room, &l.host_key, l.kind, self.chains.merged_hex())
    }

    /// What to send a feeder to learn which seat it holds: a challenge, fresh for each
    /// connection (`nonce`: random bytes); [`Follower::receive`] hands back its answer as a
    /// [`Followed::Proof`].
    pub fn challenge(nonce: [u8; 16]) -> Vec<u8> {
        wire::encode_message(&Message::Challenge(nonce))
    }

    /// True when `sig` is the signature of our `challenge` by the key `seat` holds now, as the
    /// entries held say (false while the seat's key is not known yet: the guest's comes with
    /// its first entry, a new device's with the hand-over).
    pub fn proves(&self, challenge: &[u8; 16], seat: Seat, sig: Sig) -> bool {
        self.chains.current_key(seat).is_some_and(|key| {
            let bytes = wire::watch_presence_bytes(self.link.room, challenge, seat);
            sig.verifies(&key, &bytes)
        })
    }

    /// The key a seat holds now, as far as the entries held tell.
    pub fn seat_key(&self, seat: Seat) -> Option<[u8; 32]> {
        self.chains.current_key(seat).map(|k| k.to_bytes())
    }

    /// Bytes from a feeder. Entries are checked and folded; a proof of presence is handed back
    /// unchecked ([`Followed::Proof`]); heads and everything else a player sends its peer are
    /// ignored. `Err` when the message catches the feeder: the
    /// entries before the one refused are kept and folded — each was checked on its own —,
    /// the rest of the message is not read, and the caller reads nothing more from that
    /// feeder.
    pub fn receive(&mut self, bytes: &[u8]) -> Result<Vec<Followed>, Caught> {
        let entries = match wire::decode_message(bytes) {
            Ok(Message::Entries(entries)) => entries,
            Ok(Message::Proof { seat, sig }) => return Ok(vec![Followed::Proof(seat, sig)]),
            _ => return Ok(Vec::new()),
        };
        let (waiting, forks) = (self.pending.len(), self.chains.forks.len());
        let mut out = Vec::new();
        let (added, caught) = self.offer_all(entries);
        if added {
            for change in self.fold.update(&self.chains) {
                if let Change::Took { events, .. } = change {
                    out.extend(events.into_iter().map(Followed::Room));
                }
            }
        }
        if let Some(c) = caught {
            return Err(c);
        }
        // A new gap, or one that filled after entries beyond it were let go: ask for what
        // is missing (last, after what this message showed).
        let ask = self.pending.len() > waiting || (added && self.dropped);
        let seats: Vec<Seat> = self.chains.forks[forks..]
            .iter()
            .map(|(a, _)| a.seat())
            .collect();
        out.extend(seats.into_iter().map(Followed::Fork));
        if ask {
            self.dropped = self.pending.len() >= MAX_PENDING;
            out.push(Followed::Send(self.ask()));
        }
        Ok(out)
    }

    /// Adds the entries, then those that waited and may now follow: whether any was new, and
    /// the first refusal that catches the feeder (nothing after it is offered).
    fn offer_all(&mut self, entries: Vec<Entry>) -> (bool, Option<Caught>) {
        let mut grew = false;
        for e in entries {
            match self.offer(e) {
                Ok(new) => grew |= new,
                Err(c) => return (grew, Some(c)),
            }
        }
        let mut added = grew;
        while added {
            added = false;
            // An entry that waited may have come from another feeder: one that is refused now
            // is dropped, blamed on nobody (a lying feeder must not frame an honest one).
            for e in std::mem::take(&mut self.pending) {
                added |= self.offer(e).unwrap_or(false);
            }
            grew |= added;
        }
        (grew, None)
    }

    /// Adds one entry: true if it was new; a refusal no honest feeder causes catches it.
    fn offer(&mut self, e: Entry) -> Result<bool, Caught> {
        let (seat, seq) = (e.seat(), e.seq());
        match self.chains.add(e.clone()) {
            Ok(Added::New) => Ok(true),
            Ok(Added::Duplicate) => Ok(false),
            // Ahead of a gap: a number not reached yet, or an entry that saw one of the other
            // seat's we do not hold yet (for a player that would be its own, never written;
            // for a spectator, one still to come).
            Err(Refusal::Gap | Refusal::UnknownSeen) => {
                if !self.pending.contains(&e) {
                    if self.pending.len() < MAX_PENDING {
                        self.pending.push(e);
                    } else {
                        self.dropped = true;
                    }
                }
                Ok(false)
            }
            // What players do, whoever passes it on: a seat's second entry with a used number
            // (its proof is kept), an old device's entry a hand-over superseded.
            Err(Refusal::Fork | Refusal::Superseded) => Ok(false),
            Err(why) => Err(Caught { seat, seq, why }),
        }
    }
}

/// A player's side of one spectator: how far it was sent. One per spectator connection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Feed {
    /// Entries per seat sent (or held by the spectator, as its heads said); `None` until its
    /// first heads: nothing is sent before it says what it holds.
    sent: Option<[u32; 2]>,
    /// Its heads were answered once in full on this connection.
    answered: bool,
    /// Its challenge was answered on this connection: one signature per spectator connection.
    proved: bool,
}

impl Session {
    /// Bytes from a spectator: its heads, answered with the entries it lacks, in fold order;
    /// its challenge, answered with a proof of the seat we hold. As for the peer
    /// (docs/protocol.md, « Costs »), one full answer per connection, later heads getting only
    /// what lies beyond everything already sent, and one signature per connection (a device
    /// without a seat signs none). Anything else is ignored.
    pub fn feed(&self, feed: &mut Feed, bytes: &[u8]) -> Vec<Vec<u8>> {
        let theirs = match wire::decode_message(bytes) {
            Ok(Message::Heads(theirs)) => theirs,
            Ok(Message::Challenge(challenge)) => return self.prove_to_spectator(feed, &challenge),
            _ => return Vec::new(),
        };
        let mut from = theirs.count;
        for seat in [Seat::Host, Seat::Guest] {
            let have = theirs.count[seat.index()];
            let held = (have > 0 && have <= self.chains.len(seat))
                .then(|| self.chains.hash_at(seat, have - 1));
            if held.is_some_and(|h| h != Some(theirs.last[seat.index()])) {
                from[seat.index()] = have - 1;
            }
        }
        if let (true, Some(sent)) = (feed.answered, feed.sent) {
            from = [from[0].max(sent[0]), from[1].max(sent[1])];
        }
        feed.answered = true;
        feed.sent = Some(from);
        self.feed_new(feed)
    }

    /// Our proof of presence for a spectator's challenge, once per connection.
    fn prove_to_spectator(&self, feed: &mut Feed, challenge: &[u8; 16]) -> Vec<Vec<u8>> {
        if feed.proved || self.standing != Standing::Seated {
            return Vec::new();
        }
        feed.proved = true;
        let bytes = wire::watch_presence_bytes(self.invite.room, challenge, self.seat);
        let sig = Sig::sign(&self.key, &bytes);
        vec![wire::encode_message(&Message::Proof {
            seat: self.seat,
            sig,
        })]
    }

    /// The entries written or received since the spectator was last sent some, in fold
    /// order; nothing before its first heads.
    pub fn feed_new(&self, feed: &mut Feed) -> Vec<Vec<u8>> {
        let Some(from) = feed.sent else {
            return Vec::new();
        };
        let order = self.entries_from(from);
        feed.sent = Some([
            from[0].max(self.chains.len(Seat::Host)),
            from[1].max(self.chains.len(Seat::Guest)),
        ]);
        order
            .chunks(MAX_BATCH)
            .map(|batch| wire::encode_message(&Message::Entries(batch.to_vec())))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{copied_host_tab_writes, legal_step, play, play_some};
    use super::super::wire::{encode_message, Body, Header, Step};
    use super::super::{Command, Loopback};
    use super::*;

    /// A spectator of the room `p` plays, not fed yet.
    fn watcher(p: &Loopback) -> Follower {
        Follower::new(WatchLink::of(p.host().invite()).unwrap())
    }

    /// Passes on to `w` what `s` sends it (its answers to `w`'s questions included), until
    /// neither has more to say; the events `w` saw.
    fn pass(
        w: &mut Follower,
        feed: &mut Feed,
        s: &Session,
        mut bytes: Vec<Vec<u8>>,
    ) -> Vec<Followed> {
        let mut seen = Vec::new();
        while !bytes.is_empty() {
            let mut asks = Vec::new();
            for b in bytes {
                for f in w.receive(&b).expect("an honest feeder") {
                    match f {
                        Followed::Send(ask) => asks.push(ask),
                        other => seen.push(other),
                    }
                }
            }
            bytes = asks.iter().flat_map(|a| s.feed(feed, a)).collect();
        }
        seen
    }

    /// The entries `s` holds, in fold order.
    fn entries(s: &Session) -> Vec<Entry> {
        s.chains.merged().into_iter().cloned().collect()
    }

    #[test]
    fn spectators_from_the_start_and_late_ones_see_the_game_the_players_play() {
        for kind in [GameKind::Morris, GameKind::Meta] {
            let mut p = Loopback::new(kind, 60);
            let mut early = watcher(&p);
            let mut feed = Feed::default();
            let first = p.host().feed(&mut feed, &early.ask());
            pass(&mut early, &mut feed, p.host(), first);
            let mut moves = 0;
            for i in 0..500 {
                let g = p.host().game().unwrap().clone();
                if g.outcome().is_some() {
                    break;
                }
                let seat = p.mover().unwrap();
                p.exchange(seat, Command::Play(legal_step(&g, i * 7 + 3)));
                let new = p.host().feed_new(&mut feed);
                // One message a turn: the entry the turn wrote.
                assert_eq!(new.len(), 1);
                let seen = pass(&mut early, &mut feed, p.host(), new);
                moves += seen
                    .iter()
                    .filter(|f| {
                        matches!(f, Followed::Room(RoomEvent::Played { turn: Some(_), .. }))
                    })
                    .count();
                assert_eq!(early.room(), p.host().room(), "{kind:?} turn {i}");
            }
            assert!(early.room().game().unwrap().outcome().is_some());
            assert_eq!(moves as u32, p.host().game().unwrap().turns());
            // A spectator who comes at the end gets it all in one answer, in batches.
            let mut late = watcher(&p);
            let mut feed = Feed::default();
            let all = p.host().feed(&mut feed, &late.ask());
            let held = p.host().chains.len(Seat::Host) + p.host().chains.len(Seat::Guest);
            assert_eq!(all.len(), (held as usize).div_ceil(MAX_BATCH));
            pass(&mut late, &mut feed, p.host(), all);
            assert_eq!(late.room(), p.host().room());
            // What each exports is the players' transcript, and `engine verify` reads it.
            for w in [&early, &late] {
                assert_eq!(w.export(), p.host().export());
                let verified = transcript::verify(&w.export()).unwrap();
                assert_eq!(verified.game(), p.host().game());
            }
            assert_eq!(early.held(), late.held());
        }
    }

    #[test]
    fn when_the_host_is_away_the_guest_feeds_from_where_the_host_stopped() {
        let mut p = Loopback::new(GameKind::Meta, 0);
        play_some(&mut p, 10);
        let mut w = watcher(&p);
        let mut host_feed = Feed::default();
        let first = p.host().feed(&mut host_feed, &w.ask());
        pass(&mut w, &mut host_feed, p.host(), first);
        let before = w.held();
        play_some(&mut p, 10);
        // The spectator turns to the guest: only what it lacks comes.
        let mut guest_feed = Feed::default();
        let rest = p.guest().feed(&mut guest_feed, &w.ask());
        let sent: usize = rest
            .iter()
            .map(|m| match wire::decode_message(m) {
                Ok(Message::Entries(e)) => e.len(),
                _ => 0,
            })
            .sum();
        let after = p.guest().chains.len(Seat::Host) + p.guest().chains.len(Seat::Guest);
        assert_eq!(sent as u32, after - before[0] - before[1]);
        pass(&mut w, &mut guest_feed, p.guest(), rest);
        assert_eq!(w.room(), p.guest().room());
        // Heads again on the same connection: nothing sent twice.
        assert!(p.guest().feed(&mut guest_feed, &w.ask()).is_empty());
    }

    #[test]
    fn a_feeder_that_alters_or_invents_an_entry_is_caught_and_read_no_more() {
        let mut p = Loopback::new(GameKind::Meta, 0);
        play_some(&mut p, 6);
        let all = entries(p.host());
        let honest = |n: usize| wire::encode_message(&Message::Entries(all[..n].to_vec()));
        // Altered: the fifth entry says another move, under the signature of the one it was.
        let mut w = watcher(&p);
        w.receive(&honest(4)).unwrap();
        let room = w.room().clone();
        let mut altered = all[4].clone();
        let Body::Play { game, step } = altered.body else {
            panic!("a move: {:?}", altered.body)
        };
        let g = room.game().unwrap();
        let other = Step::legal(g).into_iter().find(|s| *s != step).unwrap();
        altered.body = Body::Play { game, step: other };
        let caught = w
            .receive(&encode_message(&Message::Entries(vec![
                altered.clone(),
                all[5].clone(),
            ])))
            .unwrap_err();
        assert_eq!(
            caught,
            Caught {
                seat: altered.seat(),
                seq: altered.seq(),
                why: Refusal::BadSignature
            }
        );
        assert_eq!(
            w.room(),
            &room,
            "nothing of it was folded, nor what followed it"
        );
        // Good entries before a bad one in one message are kept and folded.
        let mut v = watcher(&p);
        let mixed = [&all[..4], std::slice::from_ref(&altered)].concat();
        assert!(v
            .receive(&encode_message(&Message::Entries(mixed)))
            .is_err());
        assert_eq!(v.room(), &room);
        // The rest of that message was not read; another feeder (the other player) brings the
        // spectator up to date.
        let mut feed = Feed::default();
        let rest = p.guest().feed(&mut feed, &w.ask());
        pass(&mut w, &mut feed, p.guest(), rest);
        assert_eq!(w.room(), p.guest().room());

        // Invented: a move for the guest the guest never signed (another key).
        let mut w = watcher(&p);
        w.receive(&honest(all.len())).unwrap();
        let s = p.guest();
        let header = Header {
            room: s.invite().room,
            seat: Seat::Guest,
            seq: s.chains.len(Seat::Guest),
            time: p.now(),
            prev: s.chains.last_hash(Seat::Guest),
            seen: s.chains.last_hash(Seat::Host),
        };
        let g = s.game().unwrap();
        let key = ed25519_dalek::SigningKey::from_bytes(&[66; 32]);
        let invented = Entry::sign(&key, header, play(legal_step(g, 0)));
        let caught = w
            .receive(&encode_message(&Message::Entries(vec![invented])))
            .unwrap_err();
        assert_eq!(caught.why, Refusal::BadSignature);
        assert_eq!(w.room(), p.host().room());
    }

    #[test]
    fn an_entry_withheld_waits_and_is_asked_for_then_everything_folds() {
        let mut p = Loopback::new(GameKind::Morris, 100);
        play_some(&mut p, 12);
        let all = entries(p.host());
        let mut w = watcher(&p);
        let (k, n) = (5, all.len());
        let mut without = all.clone();
        let withheld = without.remove(k);
        let out = w
            .receive(&encode_message(&Message::Entries(without)))
            .unwrap();
        // The spectator asks once for what it lacks; what it holds stops before the gap.
        assert!(matches!(out.as_slice(), [.., Followed::Send(_)]));
        assert!(w.held()[0] + w.held()[1] < n as u32);
        let out = w
            .receive(&encode_message(&Message::Entries(vec![withheld])))
            .unwrap();
        assert!(!out.iter().any(|f| matches!(f, Followed::Send(_))));
        assert_eq!(w.room(), p.host().room());
        assert_eq!(w.export(), p.host().export());
    }

    #[test]
    fn garbage_duplicates_and_floods_ahead_change_nothing_and_stay_bounded() {
        let mut p = Loopback::new(GameKind::Morris, crate::morris::MAX_MAX_TURNS);
        play_some(&mut p, 400);
        let all = entries(p.host());
        assert!(all.len() > MAX_PENDING + 10, "{}", all.len());
        let mut w = watcher(&p);
        // Bytes that are no message, and messages a spectator has no use for.
        let mut x: u32 = 7;
        for len in 0..300 {
            let junk: Vec<u8> = (0..len)
                .map(|_| {
                    x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    (x >> 16) as u8
                })
                .collect();
            assert_eq!(w.receive(&junk), Ok(Vec::new()));
        }
        assert_eq!(w.receive(&w.ask()), Ok(Vec::new()));
        assert_eq!(w.held(), [0, 0]);
        // Everything but the hellos, in batches: what waits for the gap stays bounded.
        for batch in all[2..].chunks(MAX_BATCH) {
            w.receive(&encode_message(&Message::Entries(batch.to_vec())))
                .unwrap();
        }
        assert_eq!(w.pending.len(), MAX_PENDING);
        // The hellos come: what waited folds; the rest is asked for and comes.
        let mut feed = Feed::default();
        let out = w
            .receive(&encode_message(&Message::Entries(all[..2].to_vec())))
            .unwrap();
        let asks: Vec<Vec<u8>> = out
            .into_iter()
            .filter_map(|f| match f {
                Followed::Send(b) => Some(b),
                _ => None,
            })
            .collect();
        let rest = asks
            .iter()
            .flat_map(|a| p.host().feed(&mut feed, a))
            .collect();
        pass(&mut w, &mut feed, p.host(), rest);
        assert!(w.room() == p.host().room(), "the spectator caught up");
        // Every entry again: duplicates, nothing changes.
        let room = w.room().clone();
        for batch in all.chunks(MAX_BATCH) {
            assert_eq!(
                w.receive(&encode_message(&Message::Entries(batch.to_vec()))),
                Ok(Vec::new())
            );
        }
        assert_eq!(w.room(), &room);
    }

    #[test]
    fn a_fork_a_player_made_is_passed_on_as_its_proof_not_blamed_on_the_feeder() {
        let p = copied_host_tab_writes();
        let mut w = watcher(&p);
        let mut feed = Feed::default();
        let all = p.guest().feed(&mut feed, &w.ask());
        pass(&mut w, &mut feed, p.guest(), all);
        assert_eq!(w.room(), p.guest().room());
        assert_eq!(transcript::verify(&w.export()).unwrap().forks.len(), 1);
    }

    #[test]
    fn each_player_proves_its_seat_to_a_spectator_once_a_connection() {
        let mut p = Loopback::new(GameKind::Meta, 60);
        p.exchange(Seat::Host, Command::Play(Step::Cell(40)));
        let mut w = watcher(&p);
        let c = [7; 16];
        let (mut host, mut guest) = (Feed::default(), Feed::default());
        // Another spectator reads the proofs: a proof changes nothing it holds.
        let mut reader = watcher(&p);
        let mut proof = |b: Vec<Vec<u8>>| {
            assert_eq!(b.len(), 1);
            match reader
                .receive(&b[0])
                .expect("a proof catches nobody")
                .as_slice()
            {
                [Followed::Proof(seat, sig)] => (*seat, *sig),
                other => panic!("not a proof: {other:?}"),
            }
        };
        // The host's key is in the link: its proof holds at once, for this challenge and
        // this seat only.
        let (seat, host_sig) = proof(p.host().feed(&mut host, &Follower::challenge(c)));
        assert_eq!(seat, Seat::Host);
        assert!(w.proves(&c, Seat::Host, host_sig));
        assert!(!w.proves(&[8; 16], Seat::Host, host_sig));
        assert!(!w.proves(&c, Seat::Guest, host_sig));
        // It is no proof of presence a player would take from its peer.
        let key = VerifyingKey::from_bytes(&w.link().host_key).unwrap();
        let as_peer = wire::presence_bytes(w.link().room, &c, Seat::Host);
        assert!(!host_sig.verifies(&key, &as_peer));
        // One signature per connection: a second challenge gets nothing.
        assert!(p
            .host()
            .feed(&mut host, &Follower::challenge([9; 16]))
            .is_empty());
        // The guest's key comes with its entries: until then its proof proves nothing.
        let (seat, guest_sig) = proof(p.guest().feed(&mut guest, &Follower::challenge(c)));
        assert_eq!(seat, Seat::Guest);
        assert!(!w.proves(&c, Seat::Guest, guest_sig));
        let first = p.host().feed(&mut host, &w.ask());
        pass(&mut w, &mut host, p.host(), first);
        assert!(w.proves(&c, Seat::Guest, guest_sig));
        assert!(!w.proves(&c, Seat::Host, guest_sig));
        // Garbage is no proof.
        let mut reader = watcher(&p);
        assert_eq!(reader.receive(&[1, 2, 3]), Ok(Vec::new()));
        assert_eq!(reader.receive(&w.ask()), Ok(Vec::new()));
        assert_eq!(reader.held(), [0, 0]);
    }

    #[test]
    fn watch_links_round_trip_and_are_never_invitations() {
        let p = Loopback::new(GameKind::Morris, 0);
        let link = WatchLink::of(p.host().invite()).unwrap();
        let text = link.to_fragment();
        assert!(text.starts_with("w=morris&r="), "{text}");
        assert_eq!(WatchLink::from_fragment(&format!("#{text}")), Ok(link));
        // Neither the secret nor anything that lets its holder act.
        let secret = wire::hex(&p.host().invite().secret);
        assert!(!text.contains(&secret));
        assert!(Invite::from_fragment(&text).is_err());
        let invitation = p.host().invite().to_fragment();
        assert_eq!(
            WatchLink::from_fragment(&invitation),
            Err(WatchLinkError::Malformed)
        );
        for bad in [
            "",
            "w=morris",
            "w=chess&r=00&k=00",
            &text.replace("w=morris", "w=morris&w=meta"),
            &text.replace("&k=", "&k=0"),
            &format!("{text}&s=00"),
        ] {
            assert_eq!(
                WatchLink::from_fragment(bad),
                Err(WatchLinkError::Malformed),
                "{bad}"
            );
        }
        // A key that is no point of the curve.
        let not_a_key = (0u8..)
            .map(|i| [i & 0x7f; 32])
            .find(|k| VerifyingKey::from_bytes(k).is_err())
            .unwrap();
        let bad = text.replace(&wire::hex(&link.host_key), &wire::hex(&not_a_key));
        assert_eq!(WatchLink::from_fragment(&bad), Err(WatchLinkError::BadKey));
    }
}
