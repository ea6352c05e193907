//! What travels between the two browsers: signed, hash-chained transcript entries and a few
//! unchained transport messages, in a canonical `postcard` encoding with a size cap.

pub use crate::table::Step;
use crate::GameKind;
use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt;

/// Version of this protocol, carried by every `Hello`: a peer of another version is refused
/// (`Void::Version`). 2: the fold order that lets no « seen » declaration override the other
/// side, answers bound to their offer's minute, dated claims, and the seat hand-over entries
/// (docs/protocol.md); a version 1 room folded differently. 3: the room's options (Morris rule
/// variants, colours by lot: [`Body::Options`], [`Proposal::NewGameWith`], the draw's entries),
/// which a version 2 peer could not read; and what keeps a room live and every cost bounded
/// against a cheater: the proof of a fork as an entry ([`Body::Fork`]), claims no acceptance
/// delays beyond the reservation.
pub const PROTOCOL_VERSION: u16 = 3;
/// The oldest version still read: a version 2 room (every transcript exported before version
/// 3) plays the default rules with alternating colours, and folds exactly as it did.
pub const OLDEST_PROTOCOL: u16 = 2;
/// Largest wire message accepted, checked before decoding starts.
pub const MAX_MESSAGE: usize = 16 * 1024;
/// Bytes a wire message carries at least for each piece of work it asks of its receiver: one
/// for the message itself (the browser's delivery and the call into the page cost the same for
/// 17 bytes as for 500), one more for each entry (a signature check each). An honest message
/// shorter than that is padded with zeros after its encoding ([`encode_message`]); a message
/// without its padding is refused before any signature is checked ([`decode_message`]), so
/// that what a peer makes the other side spend stays in proportion to the bytes it sends
/// (`docs/protocol.md`, « Wire »).
pub const PAD_UNIT: usize = 512;
/// Entries per `Entries` message at most (a sync sends several messages): as many padding
/// units as [`MAX_MESSAGE`] holds.
pub const MAX_BATCH: usize = MAX_MESSAGE / PAD_UNIT;

const SIGN_DOMAIN: &[u8] = b"moulin/entry/v1";
const HASH_DOMAIN: &[u8] = b"moulin/hash/v1";
const JOIN_DOMAIN: &[u8] = b"moulin/join/v1";
const PRESENCE_DOMAIN: &[u8] = b"moulin/presence/v1";
const KNOCK_DOMAIN: &[u8] = b"moulin/knock/v1";
const WATCH_DOMAIN: &[u8] = b"moulin/watch/v1";

/// A SHA-256 digest.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize)]
pub struct Digest32(pub [u8; 32]);

impl Digest32 {
    /// The all-zero digest: "no entry".
    pub const ZERO: Digest32 = Digest32([0; 32]);
}

impl fmt::Debug for Digest32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&hex(&self.0[..6]))
    }
}

/// A room: 16 random bytes chosen by the host.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RoomId(pub [u8; 16]);

impl fmt::Debug for RoomId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "room {}", hex(&self.0[..4]))
    }
}

/// The two seats of a room. The host created it and sets the options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Seat {
    /// Created the room and holds the invitation's key.
    Host,
    /// Joined through the invitation.
    Guest,
}

impl Seat {
    /// 0 for the host, 1 for the guest.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other seat.
    pub const fn other(self) -> Seat {
        match self {
            Seat::Host => Seat::Guest,
            Seat::Guest => Seat::Host,
        }
    }
}

/// The game and its options, as agreed in a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rules {
    /// `true` for Nine Men's Morris, `false` for Ultimate tic-tac-toe.
    pub morris: bool,
    /// Morris turn limit (1–500; ignored for Ultimate tic-tac-toe).
    pub max_turns: u16,
}

impl Rules {
    /// The rules for a game kind with this Morris limit.
    pub fn new(kind: GameKind, max_turns: u16) -> Rules {
        Rules {
            morris: kind == GameKind::Morris,
            max_turns: if kind == GameKind::Morris {
                max_turns
            } else {
                0
            },
        }
    }

    /// Which game.
    pub fn kind(self) -> GameKind {
        if self.morris {
            GameKind::Morris
        } else {
            GameKind::Meta
        }
    }
}

/// How the colours of each game are decided.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Colours {
    /// The host is Blue in the room's first game, then the first player alternates with each
    /// new game (game numbers: host Blue in the even ones).
    #[default]
    Alternate,
    /// Drawn by lot at the start of each game ([`super::lot`]): the host's commitment to its
    /// values for the games `from` to `from + LOT_GAMES − 1`.
    Lot {
        /// The end of the host's hash chain.
        commit: Digest32,
        /// The first game it draws for.
        from: u32,
    },
}

/// Everything the host chooses for a room's games, as version 3 writes it: the Morris turn
/// limit and rule set, and how colours are decided. A version 2 room has the defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Options {
    /// The Morris turn limit, 1–500 (0 for Ultimate tic-tac-toe).
    pub max_turns: u16,
    /// The Morris rule set (the default one for Ultimate tic-tac-toe).
    pub rules: crate::morris::Rules,
    /// How colours are decided.
    pub colours: Colours,
}

/// What a proposal asks for; the other seat accepts or declines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Proposal {
    /// Take back the last turn (Morris: the place or move with its capture).
    Undo,
    /// Start a new game; only the host may set a new Morris limit.
    NewGame {
        /// The new Morris turn limit (host only).
        max_turns: Option<u16>,
    },
    /// End the game in a draw.
    Draw,
    /// Host only (version 3): start a new game with these options.
    NewGameWith(Options),
}

/// The content of a transcript entry.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Body {
    /// First entry of each seat: versions, the rules it expects, its key, and its proof that it
    /// knows the room secret. The guest's proof binds its key to the guest seat; the host's
    /// binds the host seat for a guest that joined by short code and does not know the host's
    /// key yet (with the key known, the key alone decides).
    Hello {
        /// [`PROTOCOL_VERSION`].
        protocol: u16,
        /// The rules: the host's are the room's; the guest's must name the same game.
        rules: Rules,
        /// The sender's public key.
        key: [u8; 32],
        /// `join_proof(room, secret, key)`. The host's is checked only where its key is not
        /// known (a guest that joined by short code); where it is, the key alone decides.
        proof: [u8; 32],
    },
    /// Host only, before the first move of the first game: new Morris limit.
    Settings {
        /// The turn limit, 1–500.
        max_turns: u16,
    },
    /// A game step by the player to move, in game number `game` of the room (0 for the first):
    /// a step meant for a game that has since been replaced is void, not played in the next.
    Play {
        /// The room's game number the sender was playing.
        game: u32,
        /// The step.
        step: Step,
    },
    /// Opens a proposal (one open proposal per seat at a time).
    Propose(Proposal),
    /// Answers the other seat's open proposal, which must be the entry with this sequence
    /// number.
    Reply {
        /// Sequence number of the proposal entry.
        proposal: u32,
        /// Accepted or declined.
        accept: bool,
    },
    /// Withdraws the sender's open proposal (also sent when it expires).
    Withdraw {
        /// Sequence number of the proposal entry.
        proposal: u32,
        /// Sent because the minute ran out.
        expired: bool,
    },
    /// The sender resigns the current game.
    Resign,
    /// The opponent stayed away past the seat reservation: the sender claims the game.
    ClaimWin,
    /// The sender leaves the room for good.
    Leave,
    /// The sender, the seat still present, lets a new device take the other seat, which stayed
    /// away: that seat's entries that saw this one are signed with `key`; those written before
    /// they saw it keep the old key and stand (`docs/protocol.md`, « Hand-over »).
    Handover {
        /// The seat that changes device (the other seat).
        seat: Seat,
        /// The new device's public key.
        key: [u8; 32],
        /// The new device's proof that it knows the room secret: `join_proof(room, secret, key)`.
        proof: [u8; 32],
    },
    // Version 3, appended so that every version 2 entry keeps its encoding.
    /// Host only, before the first move of the first game: the room's options.
    Options(Options),
    /// Guest only, at the start of a game whose colours are drawn by lot: its value.
    LotGuess {
        /// The room's game number.
        game: u32,
        /// Its value (any 32 bytes).
        value: [u8; 32],
    },
    /// Host only, after the guest's value: its own, which decides the colours.
    LotReveal {
        /// The room's game number.
        game: u32,
        /// The value of its chain for that game ([`super::lot::host_value`]).
        value: [u8; 32],
    },
    /// The other seat's entry with a number that seat had already used for another entry the
    /// sender holds (and had seen): the signed proof that the other seat's key wrote two
    /// histories — a fork. The forker loses the game in progress and writes nothing more in
    /// the room (`docs/protocol.md`, « Forks »). Version 3.
    Fork(Box<Entry>),
}

/// The signed part of an entry.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Header {
    /// The room.
    pub room: RoomId,
    /// The sender's seat.
    pub seat: Seat,
    /// The sender's sequence number, from 0.
    pub seq: u32,
    /// The sender's clock, milliseconds (used only against the sender's own earlier times).
    pub time: u64,
    /// Hash of the sender's previous entry (zero for the first).
    pub prev: Digest32,
    /// Hash of the latest entry of the other seat the sender had seen (zero for none).
    pub seen: Digest32,
}

/// A signed transcript entry.
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Entry {
    /// Room, seat, sequence, time and chain links.
    pub header: Header,
    /// What the entry says.
    pub body: Body,
    /// Ed25519 signature of [`Entry::signed_bytes`].
    pub sig: Sig,
}

impl fmt::Debug for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?}#{} {:?}",
            self.header.seat, self.header.seq, self.body
        )
    }
}

/// An Ed25519 signature (64 bytes, as two halves for serde).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Sig(pub [u8; 32], pub [u8; 32]);

impl fmt::Debug for Sig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sig({:02x?}…)", &self.0[..4])
    }
}

impl Sig {
    /// The signature of `message` under `key`.
    pub fn sign(key: &SigningKey, message: &[u8]) -> Sig {
        Sig::from_bytes(key.sign(message).to_bytes())
    }

    /// True when this is `key`'s signature of `message` (strict).
    pub fn verifies(self, key: &VerifyingKey, message: &[u8]) -> bool {
        key.verify_strict(message, &Signature::from_bytes(&self.to_bytes()))
            .is_ok()
    }

    fn to_bytes(self) -> [u8; 64] {
        let mut b = [0; 64];
        b[..32].copy_from_slice(&self.0);
        b[32..].copy_from_slice(&self.1);
        b
    }

    fn from_bytes(b: [u8; 64]) -> Sig {
        let mut r = [0; 32];
        let mut s = [0; 32];
        r.copy_from_slice(&b[..32]);
        s.copy_from_slice(&b[32..]);
        Sig(r, s)
    }
}

impl Entry {
    /// Builds and signs an entry.
    pub fn sign(key: &SigningKey, header: Header, body: Body) -> Entry {
        let msg = signed_bytes(&header, &body);
        let sig = Sig::from_bytes(key.sign(&msg).to_bytes());
        Entry { header, body, sig }
    }

    /// Checks the signature against a public key (strict: no malleable signatures, no
    /// small-order keys).
    pub fn verify(&self, key: &VerifyingKey) -> bool {
        let sig = Signature::from_bytes(&self.sig.to_bytes());
        key.verify_strict(&signed_bytes(&self.header, &self.body), &sig)
            .is_ok()
    }

    /// The entry's hash: what the next entries link to.
    pub fn hash(&self) -> Digest32 {
        hash_encoded(&encode(self))
    }

    /// The sender's seat.
    pub fn seat(&self) -> Seat {
        self.header.seat
    }

    /// The sender's sequence number.
    pub fn seq(&self) -> u32 {
        self.header.seq
    }
}

/// The hash of an entry from its canonical encoding.
pub fn hash_encoded(bytes: &[u8]) -> Digest32 {
    let mut h = Sha256::new();
    h.update(HASH_DOMAIN);
    h.update(bytes);
    Digest32(h.finalize().into())
}

fn signed_bytes(header: &Header, body: &Body) -> Vec<u8> {
    let mut out = SIGN_DOMAIN.to_vec();
    out.extend(encode(&(header, body)));
    out
}

/// A seat's proof that it knows the room secret, bound to its key (carried by each `Hello`).
pub fn join_proof(room: RoomId, secret: &[u8; 16], key: &[u8; 32]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(JOIN_DOMAIN);
    h.update(room.0);
    h.update(secret);
    h.update(key);
    h.finalize().into()
}

/// What a seat signs to prove it holds its key on a connection: the other side's fresh
/// challenge, for this room and this seat.
pub fn presence_bytes(room: RoomId, challenge: &[u8; 16], seat: Seat) -> Vec<u8> {
    challenged(PRESENCE_DOMAIN, room, challenge, seat)
}

/// What a seat signs to prove to a spectator that it feeds it: the spectator's fresh
/// challenge, for this room and this seat. Another domain than [`presence_bytes`]: a spectator
/// cannot get from a player a proof it could show the other player.
pub fn watch_presence_bytes(room: RoomId, challenge: &[u8; 16], seat: Seat) -> Vec<u8> {
    challenged(WATCH_DOMAIN, room, challenge, seat)
}

/// A seat's answer to a challenge in a room, under a domain.
fn challenged(domain: &[u8], room: RoomId, challenge: &[u8; 16], seat: Seat) -> Vec<u8> {
    let mut out = domain.to_vec();
    out.extend(room.0);
    out.extend(challenge);
    out.push(seat.index() as u8);
    out
}

/// What a new device signs with its new key when it asks for a seat.
pub fn knock_bytes(room: RoomId, key: &[u8; 32]) -> Vec<u8> {
    let mut out = KNOCK_DOMAIN.to_vec();
    out.extend(room.0);
    out.extend(key);
    out
}

/// The two chains' heads: how many entries of each seat one has, and the hash of the last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Heads {
    /// Entries held per seat (host, guest).
    pub count: [u32; 2],
    /// Hash of the last held entry per seat.
    pub last: [Digest32; 2],
}

/// Everything a peer sends on the data channel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Message {
    /// Transcript entries, in order (one new entry, or a batch during resync).
    Entries(Vec<Entry>),
    /// Heartbeat and resync offer: what the sender holds. The receiver sends back the entries
    /// the sender lacks.
    Heads(Heads),
    /// A fresh challenge, sent on every new connection: prove you hold your seat's key.
    Challenge([u8; 16]),
    /// The answer to a challenge: the sender's seat and its signature of
    /// [`presence_bytes`]. Only then is the other seat present.
    Proof {
        /// The seat the sender holds.
        seat: Seat,
        /// Its key's signature of the challenge.
        sig: Sig,
    },
    /// A new device, holding the room secret but no seat, asks for the seat that is away.
    Knock {
        /// Its public key.
        key: [u8; 32],
        /// `join_proof(room, secret, key)`.
        proof: [u8; 32],
        /// The key's signature of [`knock_bytes`]: it holds that key.
        sig: Sig,
    },
    /// The present player did not let the knocking device in, or let the knock lapse.
    KnockRefused {
        /// Nobody answered within the minute.
        expired: bool,
    },
}

/// Why bytes from the peer could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// Larger than [`MAX_MESSAGE`].
    TooLarge,
    /// Not a message of this protocol.
    Malformed,
    /// Decodes, but not in the one canonical encoding (a re-encoding differs).
    NotCanonical,
    /// More entries than [`MAX_BATCH`].
    TooManyEntries,
    /// A message without the padding its content asks ([`PAD_UNIT`] bytes for the message and
    /// for each entry): a page from before the padding, or a peer that floods.
    Unpadded,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DecodeError::TooLarge => "message too large",
            DecodeError::Malformed => "malformed message",
            DecodeError::NotCanonical => "message not in canonical encoding",
            DecodeError::TooManyEntries => "too many entries in one message",
            DecodeError::Unpadded => "message without its padding",
        })
    }
}

impl std::error::Error for DecodeError {}

/// The canonical encoding of a value.
pub fn encode<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    postcard::to_allocvec(value).expect("postcard encodes in-memory values")
}

/// Decodes a value, capped in size, rejecting trailing bytes and non-canonical encodings.
pub fn decode<T: Serialize + for<'de> Deserialize<'de>>(bytes: &[u8]) -> Result<T, DecodeError> {
    let (value, encoded) = take(bytes)?;
    if encoded != bytes.len() {
        return Err(DecodeError::Malformed);
    }
    canonical(&value, bytes)?;
    Ok(value)
}

/// Reads a value from the start of `bytes`, capped in size: the value and its encoding's length.
fn take<T: for<'de> Deserialize<'de>>(bytes: &[u8]) -> Result<(T, usize), DecodeError> {
    if bytes.len() > MAX_MESSAGE {
        return Err(DecodeError::TooLarge);
    }
    let (value, rest) =
        postcard::take_from_bytes::<T>(bytes).map_err(|_| DecodeError::Malformed)?;
    Ok((value, bytes.len() - rest.len()))
}

/// Checks that `value` was read from its one canonical encoding.
fn canonical<T: Serialize>(value: &T, encoding: &[u8]) -> Result<(), DecodeError> {
    match encode(value) == encoding {
        true => Ok(()),
        false => Err(DecodeError::NotCanonical),
    }
}

/// The length of a message on the wire, from its encoding's length: [`PAD_UNIT`] bytes for the
/// message and for each entry it holds, or its encoding's length if that is more.
fn padded_len(message: &Message, encoded: usize) -> usize {
    let units = match message {
        Message::Entries(e) => e.len().max(1),
        _ => 1,
    };
    encoded.max(units * PAD_UNIT)
}

/// A wire message: its canonical encoding, padded with zeros to [`PAD_UNIT`] bytes for the
/// message and for each entry it holds.
pub fn encode_message(message: &Message) -> Vec<u8> {
    let mut bytes = encode(message);
    bytes.resize(padded_len(message, bytes.len()), 0);
    bytes
}

/// Decodes a wire message: capped in size, then its encoding read, its entries counted and its
/// padding checked (exactly [`encode_message`]'s zeros) — all before any signature is checked,
/// which the caller does afterwards for each entry —, then the encoding checked canonical.
pub fn decode_message(bytes: &[u8]) -> Result<Message, DecodeError> {
    let (message, encoded) = take::<Message>(bytes)?;
    if let Message::Entries(e) = &message {
        if e.len() > MAX_BATCH {
            return Err(DecodeError::TooManyEntries);
        }
    }
    let (encoding, padding) = bytes.split_at(encoded);
    if bytes.len() != padded_len(&message, encoded) || padding.iter().any(|&b| b != 0) {
        return Err(DecodeError::Unpadded);
    }
    canonical(&message, encoding)?;
    Ok(message)
}

/// Lowercase hexadecimal.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = Vec::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[(b >> 4) as usize]);
        out.push(DIGITS[(b & 15) as usize]);
    }
    String::from_utf8(out).expect("hexadecimal digits are ASCII")
}

/// Strict lowercase hexadecimal (no uppercase, no whitespace): every character counts.
pub fn unhex(s: &str) -> Option<Vec<u8>> {
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    };
    let b = s.as_bytes();
    if b.len() % 2 != 0 {
        return None;
    }
    b.chunks(2)
        .map(|p| Some(digit(p[0])? << 4 | digit(p[1])?))
        .collect()
}

/// Fixed-size strict hexadecimal.
pub fn unhex_array<const N: usize>(s: &str) -> Option<[u8; N]> {
    unhex(s)?.try_into().ok()
}
