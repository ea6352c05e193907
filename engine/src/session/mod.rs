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
pub mod room;
pub mod transcript;
pub mod wire;

pub use chains::Refusal;
pub use room::{Ending, Open, Room, Void};
pub use wire::{Body, DecodeError, Digest32, Entry, Message, Proposal, RoomId, Rules, Seat, Step};

use crate::{AnyGame, GameKind, Player};
use chains::{Added, Chains};
use ed25519_dalek::{SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};
use std::fmt;
use wire::{Header, Heads, MAX_BATCH, PROTOCOL_VERSION};

/// Timing rules, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// How often a connected peer is sent our heads (heartbeat).
    pub heartbeat_ms: u64,
    /// Silence after which a connected peer counts as away.
    pub silence_ms: u64,
    /// Life of a proposal.
    pub proposal_ms: u64,
    /// How long an away peer's seat stays reserved before the game may be claimed.
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

/// What an invitation carries (in the URL fragment, never sent to the relay).
///
/// Two forms: the **link** (`g=…&t=…&r=…&k=…&s=…`, [`Invite::new`]) names the host's key, so
/// the guest accepts no other host; the **short code** ([`Invite::with_code`] for the host,
/// [`Invite::from_code`] for the guest) derives the room and the secret from 12 characters a
/// friend can type, and the guest learns the host's key from the host's `Hello`, which must
/// prove the room secret (trust on first use). A host that made its room from a code also has
/// the full link ([`Invite::to_fragment`]), for the same room.
///
/// The code is the weak form: 60 bits, and the room id the relay sees is a hash of the code
/// alone, so a relay operator can brute-force the code offline (2^60 SHA-256), then learn the
/// secret, take the guest seat and impersonate the host to a guest who joined by code. A link
/// names the host's key, so its guest accepts no other host; only a link made with
/// [`Invite::new`] also has a room secret independent of the room id (docs/protocol.md, threat
/// model).
///
/// Equality compares every field, the code too ([`Invite::code`]): a link read back with
/// [`Invite::from_fragment`] has no code, even if its host made the room from one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invite {
    /// The game and its first options (a guest by code says 100 turns: the host's `Hello`
    /// sets the room's rules).
    pub rules: Rules,
    /// The room.
    pub room: RoomId,
    /// The host's public key; `None` for a guest that joined by code until the host's `Hello`
    /// is accepted, when its [`Session`] fills it in (see [`Session::invite`]).
    pub host_key: Option<[u8; 32]>,
    /// The room secret: each seat's `Hello` proves it knows it.
    pub secret: [u8; 16],
    /// The canonical short code the room and the secret come from, when there is one: kept so
    /// that the host can show it (after a reload too) and a guest's invitation can be written
    /// back as a fragment. Private, so that it cannot be set apart from its room: read it with
    /// [`Invite::code`].
    code: Option<String>,
}

/// The turn limit a guest by code names in its `Hello`: ignored, the host's rules count.
const GUEST_MAX_TURNS: u16 = 100;

impl Invite {
    /// An invitation for a room; `seed` is the host's 32-byte key seed (from the OS's random
    /// source, outside the engine).
    pub fn new(
        kind: GameKind,
        max_turns: u16,
        room: [u8; 16],
        host_seed: [u8; 32],
        secret: [u8; 16],
    ) -> Invite {
        Invite {
            rules: Rules::new(kind, max_turns),
            room: RoomId(room),
            host_key: Some(public_key(host_seed)),
            secret,
            code: None,
        }
    }

    /// The host's invitation for a short code (from [`Invite::new_code`], in any form
    /// [`Invite::normalize_code`] reads): the room and the secret are derived from the code,
    /// the key from `host_seed`. Its [`Invite::to_fragment`] is the full link, for the same
    /// room as the code.
    pub fn with_code(
        kind: GameKind,
        max_turns: u16,
        code: &str,
        host_seed: [u8; 32],
    ) -> Result<Invite, InviteError> {
        let code = Invite::normalize_code(code)?;
        Ok(Invite {
            rules: Rules::new(kind, max_turns),
            room: code::room(&code),
            host_key: Some(public_key(host_seed)),
            secret: code::secret(&code),
            code: Some(code),
        })
    }

    /// The guest's invitation from a typed code: the room and the secret derived from it, the
    /// host's key unknown until its `Hello` arrives. The rules name the game only (the host's
    /// `Hello` sets the room's; another game makes the room incompatible).
    pub fn from_code(kind: GameKind, code: &str) -> Result<Invite, InviteError> {
        let code = Invite::normalize_code(code)?;
        Ok(Invite {
            rules: Rules::new(kind, GUEST_MAX_TURNS),
            room: code::room(&code),
            host_key: None,
            secret: code::secret(&code),
            code: Some(code),
        })
    }

    /// The invitation as URL-fragment text: the link
    /// `g=<morris|meta>&t=<limit>&r=<room>&k=<key>&s=<secret>` when the host's key is known,
    /// otherwise the code form `g=<morris|meta>&c=<code>` (an invitation built by hand with
    /// neither key nor code writes an empty code, which [`Invite::from_fragment`] refuses).
    pub fn to_fragment(&self) -> String {
        let game = self.rules.kind().as_str();
        match &self.host_key {
            Some(key) => format!(
                "g={game}&t={}&r={}&k={}&s={}",
                self.rules.max_turns,
                wire::hex(&self.room.0),
                wire::hex(key),
                wire::hex(&self.secret)
            ),
            None => format!("g={game}&c={}", self.code.as_deref().unwrap_or("")),
        }
    }

    /// Reads an invitation fragment (with or without the leading `#`): the link, or the code
    /// form `g=<morris|meta>&c=<code>` (as [`Invite::from_code`]; a bad code is
    /// [`InviteError::BadCode`]). Anything else is [`InviteError::Malformed`].
    pub fn from_fragment(text: &str) -> Result<Invite, InviteError> {
        let text = text.strip_prefix('#').unwrap_or(text);
        let mut parts = [None; 6];
        for pair in text.split('&') {
            let (k, v) = pair.split_once('=').ok_or(InviteError::Malformed)?;
            let slot = ["g", "t", "r", "k", "s", "c"]
                .iter()
                .position(|&n| n == k)
                .ok_or(InviteError::Malformed)?;
            if parts[slot].replace(v).is_some() {
                return Err(InviteError::Malformed);
            }
        }
        let game = |g: &str| GameKind::from_name(g).ok_or(InviteError::Malformed);
        let (g, t, r, k, s) = match parts {
            [Some(g), None, None, None, None, Some(c)] => return Invite::from_code(game(g)?, c),
            [Some(g), Some(t), Some(r), Some(k), Some(s), None] => (g, t, r, k, s),
            _ => return Err(InviteError::Malformed),
        };
        let kind = game(g)?;
        let max_turns: u16 = t.parse().map_err(|_| InviteError::Malformed)?;
        if kind == GameKind::Morris && crate::morris::check_max_turns(max_turns as u32).is_err() {
            return Err(InviteError::Malformed);
        }
        let host_key: [u8; 32] = wire::unhex_array(k).ok_or(InviteError::Malformed)?;
        VerifyingKey::from_bytes(&host_key).map_err(|_| InviteError::Malformed)?;
        Ok(Invite {
            rules: Rules::new(kind, max_turns),
            room: RoomId(wire::unhex_array(r).ok_or(InviteError::Malformed)?),
            host_key: Some(host_key),
            secret: wire::unhex_array(s).ok_or(InviteError::Malformed)?,
            code: None,
        })
    }

    /// The canonical short code of an invitation made by [`Invite::with_code`] or
    /// [`Invite::from_code`] (show it with [`Invite::format_code`]); `None` for a link.
    pub fn code(&self) -> Option<&str> {
        self.code.as_deref()
    }

    /// True when the code, if any, is the one the room and the secret come from.
    fn code_matches(&self) -> bool {
        self.code.as_deref().is_none_or(|c| {
            code::normalize(c)
                .is_some_and(|c| code::room(&c) == self.room && code::secret(&c) == self.secret)
        })
    }

    /// The room's name for the relay (the room id in hexadecimal).
    pub fn room_name(&self) -> String {
        wire::hex(&self.room.0)
    }

    /// A new short code, canonical (12 characters of Crockford base32, no dashes), from the
    /// first 60 of these 64 random bits; `random` comes from the OS's random source, outside
    /// the engine. Show it with [`Invite::format_code`].
    pub fn new_code(random: [u8; 8]) -> String {
        code::new_code(random)
    }

    /// The canonical form of a typed code: lowercase reads as uppercase, spaces and dashes
    /// anywhere are skipped, O reads as 0 and I and L as 1 (Crockford); any other character,
    /// or another length than 12, is [`InviteError::BadCode`].
    pub fn normalize_code(text: &str) -> Result<String, InviteError> {
        code::normalize(text).ok_or(InviteError::BadCode)
    }

    /// A code for display, in groups of four: `K7M2-Q9XD-4HPA` (normalised first; text that is
    /// not a code is returned as it is).
    pub fn format_code(code: &str) -> String {
        match code::normalize(code) {
            Some(c) => code::format(&c),
            None => code.to_string(),
        }
    }
}

/// A malformed invitation, or one that is not ours to host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InviteError {
    /// Missing, repeated or invalid parts.
    Malformed,
    /// The host key is not the one of the given seed.
    NotOurs,
    /// A short code that is not 12 characters of Crockford base32.
    BadCode,
}

impl fmt::Display for InviteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            InviteError::Malformed => "malformed invitation",
            InviteError::NotOurs => "the invitation's key is not ours",
            InviteError::BadCode => {
                "invalid code: expected 12 letters and digits (no U), like K7M2-Q9XD-4HPA"
            }
        })
    }
}

impl std::error::Error for InviteError {}

/// The public key of a key seed.
fn public_key(seed: [u8; 32]) -> [u8; 32] {
    SigningKey::from_bytes(&seed).verifying_key().to_bytes()
}

/// What the local player can do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// A game step (only when it is our turn).
    Play(Step),
    /// Open a proposal.
    Propose(Proposal),
    /// Answer the other side's open proposal.
    Reply {
        /// Accept or decline.
        accept: bool,
    },
    /// Withdraw our open proposal.
    Withdraw,
    /// Resign the current game.
    Resign,
    /// Claim the game: the other side stayed away past the reservation.
    ClaimWin,
    /// Host, before the first move: change the Morris turn limit.
    Settings {
        /// 1–500.
        max_turns: u16,
    },
    /// Leave the room.
    Leave,
}

/// Why a command was refused (nothing was sent).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The room's rules refuse it now.
    Refused(Void),
    /// No open proposal to answer or withdraw.
    NoProposal,
    /// The proposal's minute ran out.
    Expired,
    /// The other side is not away long enough to claim the game.
    TooEarly,
    /// The room is forked or incompatible: play is suspended.
    Suspended,
    /// The other seat is away: the game waits for it (only resigning, withdrawing, claiming
    /// and leaving remain possible).
    PeerAway,
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Refused(v) => v.fmt(f),
            CommandError::NoProposal => f.write_str("no open proposal"),
            CommandError::Expired => f.write_str("the proposal expired"),
            CommandError::TooEarly => f.write_str("the seat is still reserved"),
            CommandError::Suspended => f.write_str("the room is suspended"),
            CommandError::PeerAway => f.write_str("the other player is away"),
        }
    }
}

impl std::error::Error for CommandError {}

/// Something the UI may want to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The shared state changed (re-render).
    Changed,
    /// Bytes from the peer were not a message of this protocol.
    Undecodable(DecodeError),
    /// An entry was refused on arrival.
    Refused {
        /// The claimed seat.
        seat: Seat,
        /// The claimed sequence number.
        seq: u32,
        /// Why.
        why: Refusal,
    },
    /// A signed entry of the other seat was void although its sender knew everything before
    /// it: a faulty or hostile peer (races between simultaneous entries are not reported).
    Void {
        /// The sender.
        seat: Seat,
        /// Its sequence number.
        seq: u32,
        /// Why it changed nothing.
        why: Void,
    },
    /// Two signed entries with the same number: the seat's key is used twice (a copied tab?).
    Fork(Seat),
    /// The peer's presence changed.
    Presence(Presence),
    /// Our open proposal ran out and was withdrawn.
    ProposalExpired,
}

/// What the UI should do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Send these bytes to the peer on the data channel.
    Send(Vec<u8>),
    /// The transcript changed: save [`Session::save`].
    Save,
    /// Tell the user.
    Event(Event),
}

/// Where the other seat is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    /// Never connected yet in this session.
    Waiting,
    /// Connected and heard from recently.
    Here,
    /// Gone or silent since this time (ms): the seat is reserved until `since + reservation`.
    Away {
        /// When we last heard from it, or when the connection dropped.
        since: u64,
    },
}

/// What a tab keeps to rejoin its seat after a reload.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Saved {
    /// Our seat.
    pub seat: Seat,
    /// Our key seed.
    pub seed: [u8; 32],
    /// The invitation.
    pub invite: Invite,
    /// Timing rules.
    pub config: Config,
    /// The transcript in fold order.
    pub entries: Vec<Entry>,
    /// Fork proofs found so far: a fork keeps the room suspended across reloads.
    pub forks: Vec<(Entry, Entry)>,
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
    room: Room,
    presence: Presence,
    last_heard: u64,
    last_heads_sent: Option<u64>,
    /// When we last resent entries on request, and from which sequence numbers: heads are
    /// unsigned and cheap, a resend is not, so the same request within [`RESEND_MS`] is
    /// answered once.
    last_resend: Option<(u64, [u32; 2])>,
    /// The other seat's open proposal and when we first saw it while live (our 60 s count
    /// starts there; `None` until we are connected, e.g. right after a reload).
    their_proposal_seen: Option<(u32, Option<u64>)>,
    forked: bool,
    /// Restored from a save: until the peer shows up, its absence counts from our first tick.
    restored: bool,
    /// Void entries already reported, so that each is reported once.
    reported: std::collections::HashSet<(Seat, u32)>,
}

/// Entries kept aside ahead of a gap, at most.
const MAX_PENDING: usize = 256;

/// A request for entries we resent less than this long ago (ms) gets nothing more: an honest
/// peer asks again with its next heartbeat, a hostile one cannot make us resend the whole
/// transcript on every (unsigned) heads message.
pub const RESEND_MS: u64 = 1_000;

impl Session {
    /// The host's side: writes its `Hello` at once. The seed must be the one the invitation's
    /// key comes from.
    pub fn host(
        invite: Invite,
        seed: [u8; 32],
        config: Config,
        now: u64,
    ) -> Result<Session, InviteError> {
        if invite.host_key != Some(public_key(seed)) {
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
            room: Room::new(),
            presence: Presence::Waiting,
            last_heard: 0,
            last_heads_sent: None,
            last_resend: None,
            their_proposal_seen: None,
            forked: false,
            restored: false,
            reported: Default::default(),
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
        self.refold();
    }

    /// Restores a saved side (after a reload); the peers then resynchronise.
    pub fn restore(saved: Saved) -> Result<Session, transcript::VerifyError> {
        let ours = public_key(saved.seed);
        let keys_match = match saved.invite.host_key {
            Some(key) => {
                VerifyingKey::from_bytes(&key).is_ok() && (saved.seat == Seat::Guest || key == ours)
            }
            // Only a guest by code may not know the host's key yet.
            None => saved.seat == Seat::Guest,
        };
        if !keys_match || !saved.invite.code_matches() {
            return Err(transcript::VerifyError {
                entry: 0,
                message: "the saved keys or code do not match the invitation".into(),
            });
        }
        let mut s = Session::empty(saved.seat, saved.invite, saved.seed, saved.config);
        for (i, e) in saved.entries.into_iter().enumerate() {
            s.chains.add(e).map_err(|r| transcript::VerifyError {
                entry: i,
                message: r.to_string(),
            })?;
        }
        s.learn_host_key();
        if s.chains.len(s.seat) == 0 {
            s.write_hello(0);
        }
        s.forked = !saved.forks.is_empty();
        s.chains.forks = saved.forks;
        s.restored = true;
        s.refold();
        Ok(s)
    }

    /// What to keep to rejoin after a reload.
    pub fn save(&self) -> Saved {
        Saved {
            seat: self.seat,
            seed: self.seed,
            invite: self.invite.clone(),
            config: self.config,
            entries: self
                .chains
                .merged()
                .into_iter()
                .map(|(e, _)| e.clone())
                .collect(),
            forks: self.chains.forks.clone(),
        }
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

    /// The shared state of the room.
    pub fn room(&self) -> &Room {
        &self.room
    }

    /// The current game, once the host's hello is known.
    pub fn game(&self) -> Option<&AnyGame> {
        self.room.game.as_ref()
    }

    /// Our colour in the current game.
    pub fn player(&self) -> Player {
        self.room.player_of(self.seat)
    }

    /// True when it is our step and the game is live (the other seat is here).
    pub fn my_turn(&self) -> bool {
        !self.suspended()
            && self.presence == Presence::Here
            && self.room.in_progress()
            && self.game().is_some_and(|g| g.to_move() == self.player())
    }

    /// Where the other seat is.
    pub fn presence(&self) -> Presence {
        self.presence
    }

    /// When the other seat's reservation ends, while it is away.
    pub fn reserved_until(&self) -> Option<u64> {
        match self.presence {
            Presence::Away { since } => Some(since + self.config.reservation_ms),
            _ => None,
        }
    }

    /// Our open proposal with its deadline, and the other side's with ours to answer it.
    pub fn proposals(&self) -> [Option<(Open, u64)>; 2] {
        let mine = self.room.open[self.seat.index()].map(|o| (o, o.time + self.config.proposal_ms));
        let theirs = self.room.open[self.seat.other().index()].map(|o| {
            let seen = match self.their_proposal_seen {
                Some((seq, Some(at))) if seq == o.seq => at,
                // Not seen while connected yet: the minute has not started.
                _ => u64::MAX - self.config.proposal_ms,
            };
            (o, seen + self.config.proposal_ms)
        });
        [mine, theirs]
    }

    /// How the other seat answered our proposal `seq`, if it did: its reply naming it.
    pub fn answer_to(&self, seq: u32) -> Option<bool> {
        let them = self.seat.other();
        (0..self.chains.len(them))
            .rev()
            .filter_map(|i| self.chains.get(them, i))
            .find_map(|e| match e.body {
                Body::Reply { proposal, accept } if proposal == seq => Some(accept),
                _ => None,
            })
    }

    /// True when two entries of one seat share a number (a copied tab): play is suspended.
    pub fn forked(&self) -> bool {
        self.forked
    }

    /// True when play is suspended (fork or incompatible invitation).
    pub fn suspended(&self) -> bool {
        self.forked || self.room.incompatible.is_some()
    }

    /// Fork proofs: pairs of conflicting signed entries.
    pub fn fork_proofs(&self) -> &[(Entry, Entry)] {
        &self.chains.forks
    }

    /// The transcript in fold order.
    pub fn entries(&self) -> Vec<Entry> {
        self.chains
            .merged()
            .into_iter()
            .map(|(e, _)| e.clone())
            .collect()
    }

    /// The transcript as the text `engine verify` reads. Before a guest by code knows the
    /// host's key its header says zeros for it, and `engine verify` refuses the file.
    pub fn export(&self) -> String {
        transcript::export(&self.invite, &self.entries())
    }

    /// How many entries of each seat we hold, and the last hashes.
    pub fn heads(&self) -> Heads {
        Heads {
            count: [self.chains.len(Seat::Host), self.chains.len(Seat::Guest)],
            last: [
                self.chains.last_hash(Seat::Host),
                self.chains.last_hash(Seat::Guest),
            ],
        }
    }

    fn entry(&self, body: Body, now: u64) -> Entry {
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
        Entry::sign(&self.key, header, body)
    }

    fn refold(&mut self) -> Vec<Event> {
        let mut room = Room::new();
        let mut events = Vec::new();
        let other = self.seat.other();
        for (e, informed) in self.chains.merged() {
            if let Err(why) = room.apply(e) {
                let fault = informed || !why.can_be_a_race();
                if fault && e.seat() == other && self.reported.insert((other, e.seq())) {
                    events.push(Event::Void {
                        seat: other,
                        seq: e.seq(),
                        why,
                    });
                }
            }
        }
        let theirs = room.open[other.index()].map(|o| o.seq);
        if theirs != self.their_proposal_seen.map(|(s, _)| s) {
            let live = (self.presence == Presence::Here).then_some(self.last_heard);
            self.their_proposal_seen = theirs.map(|s| (s, live));
        }
        self.room = room;
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
        let me = self.seat.index();
        let body = match command {
            Command::Play(step) => Body::Play {
                game: self.room.game_number,
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
                proposal: self.room.open[me].ok_or(CommandError::NoProposal)?.seq,
                expired: false,
            },
            Command::Resign => Body::Resign,
            Command::ClaimWin => {
                if self.reserved_until().is_none_or(|t| now < t) {
                    return Err(CommandError::TooEarly);
                }
                Body::ClaimWin
            }
            Command::Settings { max_turns } => Body::Settings { max_turns },
            Command::Leave => Body::Leave,
        };
        let e = self.entry(body, now);
        // Our entry has seen everything we hold, so it folds last: try it on the current state.
        self.room.clone().apply(&e).map_err(CommandError::Refused)?;
        Ok(self.append(e))
    }

    fn append(&mut self, e: Entry) -> Vec<Effect> {
        self.chains.add(e.clone()).expect("our own entry is valid");
        self.refold();
        // Save first: a tab that reloads must never have sent an entry it did not keep.
        vec![
            Effect::Save,
            Effect::Send(wire::encode(&Message::Entries(vec![e]))),
            Effect::Event(Event::Changed),
        ]
    }

    /// The data channel opened (or reopened): offer our heads so the peers resynchronise.
    pub fn peer_connected(&mut self, now: u64) -> Vec<Effect> {
        self.last_heard = now;
        // A new connection (perhaps a reloaded tab) may have lost what we sent before.
        self.last_resend = None;
        let mut out = Vec::new();
        if self.presence != Presence::Here {
            self.presence = Presence::Here;
            out.push(Effect::Event(Event::Presence(self.presence)));
        }
        self.stamp_proposal(now);
        out.push(self.send_heads(now));
        out
    }

    /// The data channel closed.
    pub fn peer_disconnected(&mut self, now: u64) -> Vec<Effect> {
        self.last_resend = None;
        if matches!(self.presence, Presence::Away { .. }) {
            return Vec::new();
        }
        self.presence = Presence::Away { since: now };
        vec![Effect::Event(Event::Presence(self.presence))]
    }

    fn send_heads(&mut self, now: u64) -> Effect {
        self.last_heads_sent = Some(now);
        Effect::Send(wire::encode(&Message::Heads(self.heads())))
    }

    /// When [`Session::tick`] should run next.
    pub fn next_wakeup(&self) -> Option<u64> {
        let mut t: Vec<u64> = Vec::new();
        if self.restored && self.presence == Presence::Waiting && self.room.hello == [true, true] {
            // Start the reservation clock of a peer we have not seen since the reload.
            t.push(0);
        }
        if self.presence == Presence::Here {
            t.push(self.last_heads_sent.unwrap_or(0) + self.config.heartbeat_ms);
            t.push(self.last_heard + self.config.silence_ms);
        }
        if let [Some((_, deadline)), _] = self.proposals() {
            t.push(deadline);
        }
        if let Some(until) = self.reserved_until() {
            t.push(until);
        }
        t.into_iter().min()
    }

    /// Timers: heartbeat, silence, our proposal's expiry.
    pub fn tick(&mut self, now: u64) -> Vec<Effect> {
        let mut out = Vec::new();
        if self.restored && self.presence == Presence::Waiting && self.room.hello == [true, true] {
            // Reloaded while the other was away: its reservation counts from now.
            self.presence = Presence::Away { since: now };
            out.push(Effect::Event(Event::Presence(self.presence)));
        }
        if self.presence == Presence::Here {
            if now >= self.last_heard + self.config.silence_ms {
                self.presence = Presence::Away {
                    since: self.last_heard,
                };
                out.push(Effect::Event(Event::Presence(self.presence)));
            } else if self
                .last_heads_sent
                .is_none_or(|t| now >= t + self.config.heartbeat_ms)
            {
                out.push(self.send_heads(now));
            }
        }
        if let [Some((open, deadline)), _] = self.proposals() {
            if now >= deadline && !self.suspended() {
                let e = self.entry(
                    Body::Withdraw {
                        proposal: open.seq,
                        expired: true,
                    },
                    now,
                );
                out.extend(self.append(e));
                out.push(Effect::Event(Event::ProposalExpired));
            }
        }
        out
    }

    /// Bytes from the peer.
    pub fn receive(&mut self, bytes: &[u8], now: u64) -> Vec<Effect> {
        let mut out = Vec::new();
        let message = match wire::decode_message(bytes) {
            Ok(m) => m,
            Err(e) => return vec![Effect::Event(Event::Undecodable(e))],
        };
        self.last_heard = now;
        if self.presence != Presence::Here {
            self.presence = Presence::Here;
            out.push(Effect::Event(Event::Presence(self.presence)));
        }
        self.stamp_proposal(now);
        match message {
            Message::Heads(theirs) => out.extend(self.answer_heads(theirs, now)),
            Message::Entries(entries) => {
                let mut added = false;
                let waiting = self.pending.len();
                for e in entries {
                    added |= self.offer(e, &mut out);
                }
                let mut grew = added;
                // Entries kept aside may now follow.
                while added {
                    added = false;
                    for e in std::mem::take(&mut self.pending) {
                        added |= self.offer(e, &mut out);
                    }
                    grew |= added;
                }
                if self.pending.len() > waiting && !self.forked {
                    // A new gap: ask for what is missing (once per gap, not on every message).
                    out.push(self.send_heads(now));
                }
                // Duplicates and refusals leave the transcript as it was: nothing to fold.
                if grew {
                    self.learn_host_key();
                    let before = self.room.clone();
                    let events = self.refold();
                    out.extend(events.into_iter().map(Effect::Event));
                    out.push(Effect::Save);
                    if self.room != before {
                        out.push(Effect::Event(Event::Changed));
                    }
                }
                self.stamp_proposal(now);
            }
        }
        out
    }

    /// A guest by code keeps the host's key once its `Hello` bound it: saves, restores and
    /// exports need it.
    fn learn_host_key(&mut self) {
        if self.invite.host_key.is_none() {
            self.invite.host_key = self.chains.host_key().map(|k| k.to_bytes());
        }
    }

    /// Adds one entry; true if it was new.
    fn offer(&mut self, e: Entry, out: &mut Vec<Effect>) -> bool {
        let (seat, seq) = (e.seat(), e.seq());
        match self.chains.add(e.clone()) {
            Ok(Added::New) => true,
            Ok(Added::Duplicate) => false,
            Err(Refusal::Gap) => {
                if self.pending.len() < MAX_PENDING && !self.pending.contains(&e) {
                    self.pending.push(e);
                }
                false
            }
            Err(why) => {
                if why == Refusal::Fork && !self.forked {
                    self.forked = true;
                    out.push(Effect::Event(Event::Fork(seat)));
                }
                out.push(Effect::Event(Event::Refused { seat, seq, why }));
                false
            }
        }
    }

    /// Sends the entries the peer lacks; asks for ours if we lack some.
    fn answer_heads(&mut self, theirs: Heads, now: u64) -> Vec<Effect> {
        let mut out = Vec::new();
        if self.forked {
            // The room is suspended on signed proof; resending would only loop.
            return out;
        }
        let mut we_lack = false;
        let mut resend = theirs.count;
        for seat in [Seat::Host, Seat::Guest] {
            let (have, mine) = (theirs.count[seat.index()], self.chains.len(seat));
            let held = (have > 0 && have <= mine).then(|| self.chains.hash_at(seat, have - 1));
            if held.is_some_and(|h| h != Some(theirs.last[seat.index()])) {
                // Same count, another last entry: send ours from there on. Heads are not
                // signed, so only the signed entries can prove a fork, on their side.
                resend[seat.index()] = have - 1;
            }
            we_lack |= have > mine;
        }
        let asked_again = self.last_resend.is_some_and(|(at, from)| {
            now < at.saturating_add(RESEND_MS) && resend[0] >= from[0] && resend[1] >= from[1]
        });
        if asked_again {
            if we_lack {
                out.push(self.send_heads(now));
            }
            return out;
        }
        // Send in fold order so each entry's references arrive before it.
        let order: Vec<Entry> = self
            .chains
            .merged()
            .into_iter()
            .map(|(e, _)| e)
            .filter(|e| e.seq() >= resend[e.seat().index()])
            .cloned()
            .collect();
        if !order.is_empty() {
            self.last_resend = Some((now, resend));
        }
        for batch in order.chunks(MAX_BATCH) {
            out.push(Effect::Send(wire::encode(&Message::Entries(
                batch.to_vec(),
            ))));
        }
        if we_lack {
            out.push(self.send_heads(now));
        }
        out
    }
}

#[cfg(test)]
mod tests;
