//! The peer protocol as a pure state machine: two browsers that do not trust each other agree
//! on one game with no server in between.
//!
//! Each seat signs every entry it writes with its Ed25519 key; entries are numbered, chained to
//! the hash of the sender's previous entry and to the latest entry of the other seat it saw
//! ([`wire`]). Both peers check every entry on arrival ([`chains`]) and fold all entries, in one
//! deterministic order, through the rules of the room and the engine ([`room`]): an entry that
//! is not allowed where it stands is void and changes nothing.
//!
//! [`Session`] takes the current time and incoming bytes as inputs and returns [`Effect`]s
//! (bytes to send, state to save, events for the UI); it never reads a clock or a socket.
//!
//! ```
//! use engine::session::{Command, Effect, Invite, Session, Step, Config};
//! use engine::GameKind;
//!
//! let invite = Invite::new(GameKind::Meta, 100, [7; 16], [1; 32], [2; 16]);
//! let mut host = Session::host(invite.clone(), [1; 32], Config::default(), 0).unwrap();
//! let mut guest = Session::guest(invite, [3; 32], Config::default(), 0);
//! // Connect them by hand: every effect `Send` goes to the other side.
//! let mut to_guest = host.peer_connected(0);
//! let mut to_host = guest.peer_connected(0);
//! for _ in 0..4 {
//!     let (a, b) = (std::mem::take(&mut to_guest), std::mem::take(&mut to_host));
//!     for e in a { if let Effect::Send(m) = e { to_host.extend(guest.receive(&m, 1)); } }
//!     for e in b { if let Effect::Send(m) = e { to_guest.extend(host.receive(&m, 1)); } }
//! }
//! assert!(host.game().is_some() && guest.game().is_some());
//! let sent = host.act(Command::Play(Step::Cell(40)), 2).unwrap();
//! for e in sent { if let Effect::Send(m) = e { guest.receive(&m, 3); } }
//! assert_eq!(guest.game(), host.game());
//! assert_eq!(guest.game().unwrap().turns(), 1);
//! ```
//!
//! A room is joined by link ([`Invite::new`], [`Invite::to_fragment`]) or by a short code a
//! friend can type; the guest by code learns the host's key from the host's `Hello`:
//!
//! ```
//! use engine::session::{Config, Invite, Session};
//! use engine::GameKind;
//!
//! let code = Invite::new_code([0x5a; 8]); // 8 bytes from the OS's random source
//! let shown = Invite::format_code(&code); // "XXXX-XXXX-XXXX", to read out
//! let host = Invite::with_code(GameKind::Morris, 100, &code, [1; 32]).unwrap();
//! let typed = Invite::from_code(GameKind::Morris, &shown.to_lowercase()).unwrap();
//! assert_eq!(typed.room_name(), host.room_name()); // one relay room
//! assert_eq!(typed.host_key, None); // until the host's hello arrives
//! let guest = Session::guest(typed, [3; 32], Config::default(), 0);
//! assert_eq!(guest.invite().to_fragment(), format!("g=morris&c={code}"));
//! ```

pub mod chains;
mod code;
mod events;
mod fold;
pub mod follow;
mod invite;
mod loopback;
pub mod lot;
pub mod room;
mod save;
mod seat;
mod sync;
pub mod transcript;
pub mod wire;

pub use chains::Refusal;
pub use events::{Command, CommandError, Effect, Event, Presence, Standing};
pub use fold::{EXCUSE_REACH, SNAPSHOT_EVERY};
pub use follow::{Feed, Follower, WatchLink};
pub use invite::{Invite, InviteError, Preview};
pub use loopback::{Fault, Loopback, Side, GUEST_SEED, HOST_SEED};
pub use room::{Ending, Finish, GameSummary, Open, Room, RoomEvent, Void};
pub use save::{RestoreError, SaveCursor, SaveParts, Saved, SAVE_CHUNK};
pub use seat::Knock;
pub use wire::{
    Body, Colours, DecodeError, Digest32, Entry, Message, Options, Proposal, RoomId, Rules, Seat,
    Sig, Step,
};

use crate::{AnyGame, Player};
use chains::Chains;
use ed25519_dalek::{SigningKey, VerifyingKey};
use fold::{Change, Fold};
use seat::PeerCheck;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use wire::{Header, PROTOCOL_VERSION};

/// The work a session did, counted in steps rather than time: what the tests of the bounds in
/// docs/protocol.md, « Costs », count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Entries applied to a room: folding, folding again from a copy of the room, and the
    /// states that void entries declare.
    pub applied: u64,
    /// Entries placed in the fold order.
    pub merged: u64,
    /// Signatures checked: entries, proofs of presence, knocks.
    pub checked: u64,
    /// Signatures made: entries, proofs of presence.
    pub signed: u64,
    /// Entries resent on request.
    pub resent: u64,
}

/// Timing rules, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// How often a connected peer is sent our heads (heartbeat).
    pub heartbeat_ms: u64,
    /// Silence after which a connected peer counts as away.
    pub silence_ms: u64,
    /// Life of a proposal (at most [`room::PROPOSAL_MS`], which the room's rules count with).
    pub proposal_ms: u64,
    /// How long an away peer's seat stays reserved before the game may be claimed (the claim
    /// also waits for [`room::CLAIM_MS`] after the other was last known to be there).
    pub reservation_ms: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            heartbeat_ms: 2_000,
            silence_ms: 6_000,
            proposal_ms: 60_000,
            reservation_ms: 5 * 60_000,
        }
    }
}

/// One seat's side of a room.
#[derive(Clone, Debug)]
pub struct Session {
    seat: Seat,
    key: SigningKey,
    seed: [u8; 32],
    invite: Invite,
    config: Config,
    chains: Chains,
    /// Entries that arrived ahead of a gap.
    pending: Vec<Entry>,
    /// The room as the transcript folds, and what each entry did.
    fold: Fold,
    presence: Presence,
    last_heard: u64,
    last_heads_sent: Option<u64>,
    /// When [`Session::tick`] last ran: a wake-up already served is not asked for again (the
    /// end of a reservation, a deadline while suspended).
    last_tick: Option<u64>,
    /// How far (entries per seat) we resent on request on this connection; `None` before the
    /// first resend: heads are unsigned and cheap, a resend is not, so after one full resend
    /// per connection only what lies beyond is sent (`sync.rs`).
    resent: Option<[u32; 2]>,
    /// The work done, in steps (docs/protocol.md, « Costs »).
    work: Work,
    /// Changes when the transcript is rebuilt (a device that gives way): a save in parts then
    /// starts afresh.
    save_epoch: u64,
    /// The other seat's open proposal and when we first saw it while live (our 60 s count
    /// starts there; `None` until we are connected, e.g. right after a reload). Not a copy of
    /// the room's state to compare against: the room knows the proposal and the proposer's
    /// time, on the proposer's clock, which ours cannot be compared with; only this side knows
    /// when it saw it. It is set from the `RoomEvent::Proposed` the fold reports, and read
    /// through `proposals()` only for the proposal it names.
    their_proposal_seen: Option<(u32, Option<u64>)>,
    /// Restored from a save: until the peer shows up, its absence counts from our first tick.
    restored: bool,
    /// Void entries already reported, so that each is reported once.
    reported: BTreeSet<(Seat, u32)>,
    /// The peer on this connection: our challenge to it, and what it proved.
    peer: PeerCheck,
    /// Connections so far: each gets a new challenge.
    connections: u64,
    /// The other side's challenge on this connection, answered once we hold a seat.
    their_challenge: Option<[u8; 16]>,
    /// Our proof on this connection (`seat.rs`).
    our_proof: seat::OurProof,
    /// A new device asking for the other seat while it is away.
    knock: Option<Knock>,
    /// A valid guest hello of another key, received while ours could still be replaced: it
    /// takes our seat only once the host acknowledges it (`seat.rs`, `intruder`).
    foreign_hello: Option<Entry>,
    /// When we last turned a knock down or let it lapse: knocks within [`room::COOLDOWN_MS`]
    /// are ignored.
    declined_at: Option<u64>,
    /// Whether our key holds our seat.
    standing: Standing,
    /// The other seat handed our seat to another key while we were here
    /// ([`Event::HandedOverWhileHere`]).
    taken_while_here: bool,
    /// Our latest entry written while connected to the device that proved the other seat.
    last_live: Option<u32>,
}

/// Entries kept aside ahead of a gap, at most.
const MAX_PENDING: usize = 256;

impl Session {
    /// The host's side: writes its `Hello` at once. The seed must be the one the invitation's
    /// key comes from.
    pub fn host(
        invite: Invite,
        seed: [u8; 32],
        config: Config,
        now: u64,
    ) -> Result<Session, InviteError> {
        if invite.host_key != Some(invite::public_key(seed)) {
            return Err(InviteError::NotOurs);
        }
        let mut s = Session::empty(Seat::Host, invite, seed, config);
        s.write_hello(now);
        Ok(s)
    }

    /// The guest's side: writes its `Hello` (with its proof of the room secret) at once. With
    /// an invitation by code (no host key) the first host `Hello` that proves the room secret
    /// binds the host's key, which then fills [`Invite::host_key`].
    pub fn guest(invite: Invite, seed: [u8; 32], config: Config, now: u64) -> Session {
        let mut s = Session::empty(Seat::Guest, invite, seed, config);
        s.write_hello(now);
        s
    }

    fn empty(seat: Seat, invite: Invite, seed: [u8; 32], config: Config) -> Session {
        let host_key = invite
            .host_key
            .map(|k| VerifyingKey::from_bytes(&k).expect("invitations hold valid keys"));
        Session {
            seat,
            key: SigningKey::from_bytes(&seed),
            seed,
            chains: Chains::new(invite.room, host_key, Some(invite.secret)),
            invite,
            config,
            pending: Vec::new(),
            fold: Fold::default(),
            presence: Presence::Waiting,
            last_heard: 0,
            last_heads_sent: None,
            last_tick: None,
            resent: None,
            work: Work::default(),
            save_epoch: 0,
            their_proposal_seen: None,
            restored: false,
            reported: BTreeSet::new(),
            peer: PeerCheck::default(),
            connections: 0,
            their_challenge: None,
            our_proof: seat::OurProof::default(),
            knock: None,
            foreign_hello: None,
            declined_at: None,
            standing: Standing::Seated,
            taken_while_here: false,
            last_live: None,
        }
    }

    fn write_hello(&mut self, now: u64) {
        let key = self.key.verifying_key().to_bytes();
        // Both seats prove the secret: a guest that joined by code learns the host's key from
        // this hello and can check nothing else.
        let proof = wire::join_proof(self.invite.room, &self.invite.secret, &key);
        let body = Body::Hello {
            protocol: PROTOCOL_VERSION,
            rules: self.invite.rules,
            key,
            proof,
        };
        let e = self.entry(body, now);
        self.chains.add(e).expect("our own hello is valid");
        self.fold.update(&self.chains);
    }

    /// Our seat.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The invitation of the room. A guest that joined by code has the host's key here once
    /// the host's `Hello` is accepted (before, [`Invite::host_key`] is `None`).
    pub fn invite(&self) -> &Invite {
        &self.invite
    }

    /// The key each seat signs with now, host's then guest's, once known: what players compare
    /// (by [`transcript::fingerprint`]) with each other and with an exported transcript.
    pub fn keys(&self) -> [Option<[u8; 32]>; 2] {
        [Seat::Host, Seat::Guest].map(|s| self.chains.current_key(s).map(|k| k.to_bytes()))
    }

    /// The work done so far, in steps (docs/protocol.md, « Costs »).
    pub fn work(&self) -> Work {
        let fold = self.fold.work();
        Work {
            applied: fold.applied,
            merged: fold.merged,
            checked: self.work.checked + self.chains.checked(),
            ..self.work
        }
    }

    /// The shared state of the room.
    pub fn room(&self) -> &Room {
        self.fold.room()
    }

    /// The current game, once the host's hello is known.
    pub fn game(&self) -> Option<&AnyGame> {
        self.room().game()
    }

    /// Our colour in the current game.
    pub fn player(&self) -> Player {
        self.room().player_of(self.seat)
    }

    /// True when it is our step and the game is live (the other seat is here).
    pub fn my_turn(&self) -> bool {
        !self.suspended()
            && self.standing == Standing::Seated
            && self.presence == Presence::Here
            && self.room().in_progress()
            && !self.room().draw_pending()
            && self.game().is_some_and(|g| g.to_move() == self.player())
    }

    /// Options for the games from `game` on (the room's next game for a new game's proposal,
    /// 0 before the first move): by lot, a commitment of this host's own chain of values from
    /// that game — or the room's current chain, kept when it already draws by lot.
    pub fn options(
        &self,
        max_turns: u16,
        rules: crate::morris::Rules,
        lot: bool,
        game: u32,
    ) -> Options {
        let colours = match self.room().colours {
            _ if !lot => Colours::Alternate,
            c @ Colours::Lot { .. } if self.room().lot_draws(game) => c,
            _ => Colours::Lot {
                commit: lot::commit(&self.seed, &self.invite.room.0, game),
                from: game,
            },
        };
        Options {
            max_turns,
            rules,
            colours,
        }
    }

    /// The entry the colours' draw of the current game waits from us, if any: the guest's
    /// value, then the host's reveal. A session writes it by itself ([`Session::act`],
    /// [`Session::receive`], [`Session::tick`]).
    fn draw_step(&self) -> Option<Body> {
        let room = self.room();
        let draw = room.draw.filter(|d| d.host.is_none())?;
        if self.suspended() || self.standing != Standing::Seated || room.ending.is_some() {
            return None;
        }
        let game = room.game_number;
        match (self.seat, draw.guess) {
            (Seat::Guest, None) => Some(Body::LotGuess {
                game,
                value: lot::guest_value(&self.seed, &self.invite.room.0, game),
            }),
            (Seat::Host, Some(_)) => {
                let Colours::Lot { from, .. } = room.colours else {
                    return None;
                };
                let value = lot::host_value(&self.seed, &self.invite.room.0, from, game)?;
                Some(Body::LotReveal { game, value })
            }
            _ => None,
        }
    }

    /// Writes the draw's step that waits from us, if any.
    fn draw_duty(&mut self, now: u64) -> Vec<Effect> {
        match self.draw_step() {
            Some(body) => {
                let e = self.entry(body, now);
                self.append(e, now).unwrap_or_default()
            }
            None => Vec::new(),
        }
    }

    /// Where the other seat is.
    pub fn presence(&self) -> Presence {
        self.presence
    }

    /// When the other seat's reservation ends, while it is away.
    pub fn reserved_until(&self) -> Option<u64> {
        let Presence::Away { since } = self.presence else {
            return None;
        };
        Some((since + self.config.reservation_ms).max(self.claim_floor()))
    }

    /// The earliest time a claim of ours would stand in the room (our clock is the one it
    /// counts with): [`room::CLAIM_MS`] after we last knew the other seat to be there.
    fn claim_floor(&self) -> u64 {
        let (me, other) = (self.seat, self.seat.other());
        self.chains
            .absent_since(me, self.chains.len(me), self.chains.len(other))
            .map_or(0, |t| t + room::CLAIM_MS)
    }

    /// As the guest, when the host owes the reveal of the current game's draw: from then on
    /// (the seat's time after our value, by our clock) a host that stays silent has abandoned
    /// the game, and we may claim it. Never before the room lets a claim stand.
    pub fn reveal_due(&self) -> Option<u64> {
        let draw = self.room().draw.filter(|d| d.host.is_none())?;
        let (_, guessed) = draw.guess.filter(|_| self.seat == Seat::Guest)?;
        Some((guessed + self.config.reservation_ms).max(self.claim_floor()))
    }

    /// True when we may claim the current game now: the other seat stayed away past its
    /// reservation, or, as the guest, the host never revealed its draw ([`Session::reveal_due`]).
    pub fn can_claim(&self, now: u64) -> bool {
        let due = self.reserved_until().is_some_and(|t| now >= t)
            || self.reveal_due().is_some_and(|t| now >= t);
        // A version 2 room also waits, with no end, for the other seat to have seen our entry
        // that crossed its acceptance (version 3 ends every wait with the reservation).
        let (me, other) = (self.seat, self.seat.other());
        due && !(self.chains.protocol() < 3
            && self.chains.follows_crossed_acceptance(
                me,
                self.chains.len(me),
                self.chains.len(other),
            ))
    }

    /// Our open proposal with its deadline, and the other side's with ours to answer it.
    pub fn proposals(&self) -> [Option<(Open, u64)>; 2] {
        let room = self.room();
        let mine = room.open[self.seat.index()].map(|o| (o, o.time + self.proposal_ms()));
        let theirs = room.open[self.seat.other().index()].map(|o| {
            let seen = match self.their_proposal_seen {
                Some((seq, Some(at))) if seq == o.seq => at,
                // Not seen while connected yet: the minute has not started.
                _ => u64::MAX - self.proposal_ms(),
            };
            (o, seen + self.proposal_ms())
        });
        [mine, theirs]
    }

    /// When our next proposal of this kind may be made, while a declined one cools down
    /// (by our own clock, as the room checks it).
    pub fn cooling_until(&self, proposal: Proposal) -> Option<u64> {
        self.room().cooling_until(self.seat, proposal)
    }

    /// True when two entries of one seat share a number (a copied tab): we hold the signed
    /// proof ([`Session::fork_proofs`]).
    pub fn forked(&self) -> bool {
        !self.chains.forks.is_empty()
    }

    /// True when this seat's own key signed two entries with one number (a copied tab): it
    /// cannot tell which history is its own, and writes nothing more but its departure.
    fn own_fork(&self) -> bool {
        self.chains.forks.iter().any(|(a, _)| a.seat() == self.seat)
    }

    /// True when the other seat's key signed two entries with one number: it counts as away
    /// from then on (nothing it proves or sends makes it present), so the reservation runs and
    /// the game can be claimed; in a version 3 room the proof is written at once
    /// ([`Body::Fork`]), and the forker loses the game in progress.
    fn other_fork(&self) -> Option<&Entry> {
        let other = self.seat.other();
        self.chains
            .forks
            .iter()
            .find(|(a, _)| a.seat() == other)
            .map(|(_, b)| b)
    }

    /// True when play is suspended: our own seat forked, or the invitation is incompatible. (A
    /// fork of the other seat suspends nothing: it counts against the forker.)
    pub fn suspended(&self) -> bool {
        self.own_fork() || self.room().incompatible.is_some()
    }

    /// The proof of the other seat's fork that waits to be written, if any: in a version 3
    /// room, once, by a seat whose own key did not fork. (An entry of a proof is never a proof
    /// itself: a fork whose second entry is one is left to the reservation.)
    fn fork_step(&self) -> Option<Body> {
        let room = self.room();
        let other = self.other_fork()?;
        if self.standing != Standing::Seated
            || self.suspended()
            || self.chains.protocol() < 3
            || room.game().is_none()
            || room.forked[self.seat.other().index()]
            || matches!(other.body, Body::Fork(_))
        {
            return None;
        }
        Some(Body::Fork(Box::new(other.clone())))
    }

    /// Writes the proof of the other seat's fork, if it waits, then the draw's step that waits
    /// from us.
    fn duties(&mut self, now: u64) -> Vec<Effect> {
        let mut out = match self.fork_step() {
            Some(body) => {
                let e = self.entry(body, now);
                self.append(e, now).unwrap_or_default()
            }
            None => Vec::new(),
        };
        out.extend(self.draw_duty(now));
        out
    }

    /// True when the device on the connection could not prove the other seat's key: another
    /// device is trying to join (the other player counts as away).
    pub fn stranger(&self) -> bool {
        self.peer.stranger
    }

    /// True while a device is connected and was heard from within the silence limit, whether
    /// or not it proved the other seat's key.
    pub fn hears_peer(&self, now: u64) -> bool {
        self.peer.challenge.is_some() && now < self.last_heard + self.config.silence_ms
    }

    /// A new device asking for the other seat, and when our answer is due.
    pub fn knock(&self) -> Option<(Knock, u64)> {
        self.knock.map(|k| (k, k.since + self.config.proposal_ms))
    }

    /// Whether this device holds its seat, or asks for one.
    pub fn standing(&self) -> Standing {
        self.standing
    }

    /// True when the other seat handed our seat to another key while we were here (in this
    /// session: a reload forgets it, the transcript keeps what can be proved).
    pub fn handed_over_while_here(&self) -> bool {
        self.taken_while_here
    }

    /// When this device may knock again after a refusal.
    pub fn knock_again_at(&self) -> Option<u64> {
        match self.standing {
            Standing::Refused { at, .. } => Some(at + room::COOLDOWN_MS),
            _ => None,
        }
    }

    /// The seat whose key signed two entries with one number (a copied tab), if one did.
    pub fn forked_seat(&self) -> Option<Seat> {
        if self.own_fork() {
            Some(self.seat)
        } else {
            self.other_fork().map(|_| self.seat.other())
        }
    }

    /// Fork proofs: pairs of conflicting signed entries.
    pub fn fork_proofs(&self) -> &[(Entry, Entry)] {
        &self.chains.forks
    }

    /// The transcript in fold order.
    pub fn entries(&self) -> Vec<Entry> {
        self.chains.merged().into_iter().cloned().collect()
    }

    /// The transcript as the text `engine verify` reads. Before a guest by code knows the
    /// host's key its header says zeros for it, and `engine verify` refuses the file.
    pub fn export(&self) -> String {
        transcript::export_lines(&self.invite, self.chains.merged_hex())
    }

    /// The life of a proposal here: the configured one, never beyond the room's.
    fn proposal_ms(&self) -> u64 {
        self.config.proposal_ms.min(room::PROPOSAL_MS)
    }

    pub(super) fn entry(&mut self, body: Body, now: u64) -> Entry {
        let me = self.seat;
        let time = self.chains.last_time(me).map_or(now, |t| t.max(now));
        let header = Header {
            room: self.invite.room,
            seat: me,
            seq: self.chains.len(me),
            time,
            prev: self.chains.last_hash(me),
            seen: self.chains.last_hash(me.other()),
        };
        self.work.signed += 1;
        Entry::sign(&self.key, header, body)
    }

    /// Folds what the chains gained and says what happened.
    fn fold(&mut self, now: u64) -> Vec<Event> {
        let changes = self.fold.update(&self.chains);
        self.absorb(changes, now)
    }

    /// What the fold's changes mean for the page: the room's events, overtaken entries, and
    /// faults of the other seat (each once).
    fn absorb(&mut self, changes: Vec<Change>, now: u64) -> Vec<Event> {
        let other = self.seat.other();
        let mut events = Vec::new();
        for change in changes {
            match change {
                Change::Took { events: done, .. } => {
                    for ev in done {
                        if let RoomEvent::Proposed { seat, seq, .. } = ev {
                            if seat == other {
                                let live = (self.presence == Presence::Here).then_some(now);
                                self.their_proposal_seen = Some((seq, live));
                            }
                        }
                        events.push(Event::Room(ev));
                    }
                }
                Change::Overtaken { seat, seq, why } => {
                    events.push(Event::Overtaken { seat, seq, why })
                }
                Change::Void {
                    seat,
                    seq,
                    why,
                    excused,
                } => {
                    if !excused && seat == other && self.reported.insert((seat, seq)) {
                        events.push(Event::Void { seat, seq, why });
                    }
                }
            }
        }
        events
    }

    /// Starts the other side's proposal minute once we are live (after a reload it waits for
    /// the connection).
    fn stamp_proposal(&mut self, now: u64) {
        if let Some((seq, None)) = self.their_proposal_seen {
            self.their_proposal_seen = Some((seq, Some(now)));
        }
    }

    /// Does what the local player asked, or says why not (and sends nothing).
    pub fn act(&mut self, command: Command, now: u64) -> Result<Vec<Effect>, CommandError> {
        match command {
            Command::Knock => return self.knock_again(now),
            _ if self.standing != Standing::Seated => return Err(CommandError::NotSeated),
            Command::Handover { accept } => return self.answer_knock(accept, now),
            _ => {}
        }
        if self.suspended() && command != Command::Leave {
            return Err(CommandError::Suspended);
        }
        let needs_peer = matches!(
            command,
            Command::Play(_) | Command::Propose(_) | Command::Reply { .. }
        );
        if needs_peer && self.presence != Presence::Here {
            return Err(CommandError::PeerAway);
        }
        let body = self.body(command, now)?;
        // A proposal whose minute is over is withdrawn first, as the timer would have (a
        // withdrawal asked for now is that one).
        let live = self.last_live;
        let expired = self.expire(now);
        if matches!(body, Body::Withdraw { .. }) && !expired.is_empty() {
            return Ok(expired);
        }
        let e = self.entry(body, now);
        match self.append(e, now) {
            Ok(out) => Ok(expired
                .into_iter()
                .chain(out)
                .chain(self.draw_duty(now))
                .collect()),
            Err(why) => {
                if !expired.is_empty() {
                    // Neither kept nor sent yet: the timer writes it again.
                    self.chains.pop_own(self.seat);
                    self.fold.forget_unheld(&self.chains);
                    self.last_live = live;
                }
                Err(why)
            }
        }
    }

    /// The entry a game command writes, or why it cannot be written now (the room's own rules
    /// are checked when it is folded, in [`Session::append`]).
    fn body(&self, command: Command, now: u64) -> Result<Body, CommandError> {
        Ok(match command {
            Command::Play(step) => Body::Play {
                game: self.room().game_number,
                step,
            },
            Command::Propose(p) => Body::Propose(p),
            Command::Reply { accept } => {
                let [_, theirs] = self.proposals();
                let (open, deadline) = theirs.ok_or(CommandError::NoProposal)?;
                if now > deadline {
                    return Err(CommandError::Expired);
                }
                Body::Reply {
                    proposal: open.seq,
                    accept,
                }
            }
            Command::Withdraw => Body::Withdraw {
                proposal: self.room().open[self.seat.index()]
                    .ok_or(CommandError::NoProposal)?
                    .seq,
                expired: false,
            },
            Command::Resign => Body::Resign,
            Command::ClaimWin => {
                if !self.can_claim(now) {
                    return Err(CommandError::TooEarly);
                }
                Body::ClaimWin
            }
            Command::Settings { max_turns } => Body::Settings { max_turns },
            Command::Options(o) => Body::Options(o),
            Command::Leave => Body::Leave,
            Command::Knock | Command::Handover { .. } => unreachable!("handled by act"),
        })
    }

    /// Adds and folds an entry we just signed; refused (and taken back) when the room says it
    /// is void. It has seen everything we hold, so it folds last, on the current state.
    pub(super) fn append(&mut self, e: Entry, now: u64) -> Result<Vec<Effect>, CommandError> {
        let seq = e.seq();
        // The other side refuses an entry past the limit (`Refusal::TooLong`): kept here, it
        // would split the room in two.
        if seq >= chains::MAX_ENTRIES {
            return Err(CommandError::Full);
        }
        self.chains.push_own(e.clone());
        let changes = self.fold.update(&self.chains);
        if let [Change::Void { why, .. }] = changes[..] {
            self.chains.pop_own(self.seat);
            self.fold.forget_last_void();
            return Err(CommandError::Refused(why));
        }
        let events = self.absorb(changes, now);
        if self.proved_connection() {
            self.last_live = Some(seq);
        }
        // Save first: a tab that reloads must never have sent an entry it did not keep.
        let mut out = vec![
            Effect::Save,
            Effect::Send(wire::encode_message(&Message::Entries(vec![e]))),
        ];
        out.extend(events.into_iter().map(Effect::Event));
        Ok(out)
    }

    /// The data channel opened (or reopened): challenge the device to prove the other seat's
    /// key — it is present only once it has — and offer our heads so the peers resynchronise.
    pub fn peer_connected(&mut self, now: u64) -> Vec<Effect> {
        self.last_heard = now;
        // A new connection (perhaps a reloaded tab) may have lost what we sent before.
        self.resent = None;
        self.their_challenge = None;
        self.our_proof = seat::OurProof::default();
        let mut out = vec![self.challenge(now), self.send_heads(now)];
        if matches!(self.standing, Standing::Knocking { .. }) {
            out.extend(self.start_knocking(now));
        }
        out
    }

    /// The data channel closed.
    pub fn peer_disconnected(&mut self, now: u64) -> Vec<Effect> {
        self.resent = None;
        self.peer = PeerCheck::default();
        self.their_challenge = None;
        self.our_proof = seat::OurProof::default();
        let mut out = Vec::new();
        if self.knock.take().is_some() {
            out.push(Effect::Event(Event::KnockOver));
        }
        if !matches!(self.presence, Presence::Away { .. }) {
            self.presence = Presence::Away { since: now };
            out.push(Effect::Event(Event::Presence(self.presence)));
        }
        out
    }

    /// When [`Session::tick`] should run next: never a time it already ran at or before, so a
    /// caller that sleeps until then never spins.
    pub fn next_wakeup(&self) -> Option<u64> {
        let mut t: Vec<u64> = Vec::new();
        if self.restored && self.presence == Presence::Waiting && self.room().hello == [true, true]
        {
            // Start the reservation clock of a peer we have not seen since the reload.
            t.push(0);
        }
        if self.presence == Presence::Here || self.proved_connection() {
            t.push(self.last_heads_sent.unwrap_or(0) + self.config.heartbeat_ms);
        }
        if self.fork_step().is_some() {
            // A proof to write (after a reload, say): at once.
            t.push(self.last_tick.map_or(0, |last| last + 1));
        }
        if self.presence == Presence::Here {
            t.push(self.last_heard + self.config.silence_ms);
        }
        if let [Some((_, deadline)), _] = self.proposals() {
            t.push(deadline);
        }
        if let Some(until) = self.reserved_until() {
            t.push(until);
        }
        if let Some(due) = self.reveal_due() {
            t.push(due);
        }
        if self.peer.challenge.is_some() && !self.peer.proved && !self.peer.stranger {
            t.push(self.peer.since + self.config.silence_ms);
        }
        if self.asks_again() {
            t.push(self.peer.retried + self.config.heartbeat_ms);
        }
        if let Some((_, due)) = self.knock() {
            t.push(due);
        }
        t.into_iter()
            .filter(|&w| self.last_tick.is_none_or(|last| w > last))
            .min()
    }

    /// Timers: heartbeat, silence, our proposal's expiry, a device that never proves its seat,
    /// a knock left unanswered.
    pub fn tick(&mut self, now: u64) -> Vec<Effect> {
        self.last_tick = Some(self.last_tick.map_or(now, |t| t.max(now)));
        let mut out = Vec::new();
        let p = &self.peer;
        if p.challenge.is_some()
            && !p.proved
            && !p.stranger
            && now >= p.since + self.config.silence_ms
        {
            out.extend(self.not_proved());
        }
        if self.asks_again() && now >= self.peer.retried + self.config.heartbeat_ms {
            // A message may have been lost on the way: ask again, as heads do for entries.
            self.peer.retried = now;
            if let (false, Some(c)) = (self.peer.proved, self.peer.challenge) {
                out.push(Effect::Send(wire::encode_message(&Message::Challenge(c))));
            }
            if matches!(self.standing, Standing::Knocking { .. }) {
                out.extend(self.start_knocking(now).into_iter().take(1));
            }
            if self.presence != Presence::Here {
                out.push(self.send_heads(now));
            }
        }
        if self
            .knock
            .is_some_and(|k| now >= k.since + self.config.proposal_ms)
        {
            self.knock = None;
            // Its copies still on the way must not ask again at once.
            self.declined_at = Some(now);
            let lapsed = Message::KnockRefused { expired: true };
            out.push(Effect::Send(wire::encode_message(&lapsed)));
            out.push(Effect::Event(Event::KnockOver));
        }
        if self.restored && self.presence == Presence::Waiting && self.room().hello == [true, true]
        {
            // Reloaded while the other was away: its reservation counts from now.
            self.presence = Presence::Away { since: now };
            out.push(Effect::Event(Event::Presence(self.presence)));
        }
        if self.presence == Presence::Here && now >= self.last_heard + self.config.silence_ms {
            self.presence = Presence::Away {
                since: self.last_heard,
            };
            out.push(Effect::Event(Event::Presence(self.presence)));
        }
        if (self.presence == Presence::Here || self.proved_connection())
            && self
                .last_heads_sent
                .is_none_or(|t| now >= t + self.config.heartbeat_ms)
        {
            // Also to a proved device gone silent: its connection may still carry our heads,
            // and it comes back at its next message.
            out.push(self.send_heads(now));
        }
        out.extend(self.expire(now));
        out.extend(self.duties(now));
        out
    }

    /// Withdraws our open proposal once its minute is over (`expired`, dated at the deadline),
    /// before anything else we write: an honest session never signs an entry dated after its
    /// proposal's life while the proposal is still open (the room lets an answer it had not
    /// seen stand against such an entry).
    fn expire(&mut self, now: u64) -> Vec<Effect> {
        let Some((open, deadline)) = self.proposals()[0] else {
            return Vec::new();
        };
        if now < deadline || self.suspended() {
            return Vec::new();
        }
        let body = Body::Withdraw {
            proposal: open.seq,
            expired: true,
        };
        // Dated at the deadline, within the proposal's life: a timer that ran late must not date
        // it past the life, where it could no longer win a race with an answer.
        let e = self.entry(body, deadline);
        // Our own open proposal: the withdrawal cannot be void.
        self.append(e, now).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests;
