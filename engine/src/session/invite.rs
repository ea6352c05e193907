//! Invitations: the room, the room secret and the host's key, carried in the URL fragment as a
//! link, or derived from a short code a friend can type (`docs/protocol.md`, « Identity and
//! invitation »).

use super::code;
use super::wire::{self, RoomId, Rules};
use crate::GameKind;
use ed25519_dalek::{SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};
use std::fmt;

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
    pub(super) code: Option<String>,
    /// What the link says of the room's options (`v=<rules>`, `l=1`), for the guest to see
    /// before it meets the host: only the host's signed `Options` entry sets them. Not kept in
    /// a save (the room's entries are).
    #[serde(skip)]
    pub preview: Option<Preview>,
}

/// The options a link announces (see [`Invite::preview`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Preview {
    /// The Morris rule set.
    pub rules: crate::morris::Rules,
    /// Colours drawn by lot.
    pub lot: bool,
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
            preview: None,
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
            room: code::room(&code, kind),
            host_key: Some(public_key(host_seed)),
            secret: code::secret(&code),
            code: Some(code),
            preview: None,
        })
    }

    /// The guest's invitation from a typed code: the room and the secret derived from it, the
    /// host's key unknown until its `Hello` arrives. The rules name the game only (the host's
    /// `Hello` sets the room's; another game makes the room incompatible).
    pub fn from_code(kind: GameKind, code: &str) -> Result<Invite, InviteError> {
        let code = Invite::normalize_code(code)?;
        Ok(Invite {
            rules: Rules::new(kind, GUEST_MAX_TURNS),
            room: code::room(&code, kind),
            host_key: None,
            secret: code::secret(&code),
            code: Some(code),
            preview: None,
        })
    }

    /// The invitation as URL-fragment text: the link
    /// `g=<morris|meta>&t=<limit>&r=<room>&k=<key>&s=<secret>` when the host's key is known,
    /// otherwise the code form `g=<morris|meta>&c=<code>` (an invitation built by hand with
    /// neither key nor code writes an empty code, which [`Invite::from_fragment`] refuses); then
    /// the options it announces, when not the defaults: `&v=<rules>` (their short form) and
    /// `&l=1` (colours by lot).
    pub fn to_fragment(&self) -> String {
        let game = self.rules.kind().as_str();
        let mut text = match &self.host_key {
            Some(key) => format!(
                "g={game}&t={}&r={}&k={}&s={}",
                self.rules.max_turns,
                wire::hex(&self.room.0),
                wire::hex(key),
                wire::hex(&self.secret)
            ),
            None => format!("g={game}&c={}", self.code.as_deref().unwrap_or("")),
        };
        if let Some(p) = self.preview {
            if !p.rules.is_default() {
                text.push_str(&format!("&v={}", p.rules.short()));
            }
            if p.lot {
                text.push_str("&l=1");
            }
        }
        text
    }

    /// Reads an invitation fragment (with or without the leading `#`): the link, or the code
    /// form `g=<morris|meta>&c=<code>` (as [`Invite::from_code`]; a bad code is
    /// [`InviteError::BadCode`]). Anything else is [`InviteError::Malformed`].
    pub fn from_fragment(text: &str) -> Result<Invite, InviteError> {
        let parts = fragment_fields(text, ["g", "t", "r", "k", "s", "c", "v", "l"])
            .ok_or(InviteError::Malformed)?;
        let game = |g: &str| GameKind::from_name(g).ok_or(InviteError::Malformed);
        let [g, t, r, k, s, c, v, l] = parts;
        let preview = match (v, l) {
            (None, None) => None,
            (v, l) => {
                if g.is_some_and(|g| g != "morris") && v.is_some() {
                    return Err(InviteError::BadRules);
                }
                let rules = match v {
                    Some(v) => v.parse().map_err(|_| InviteError::BadRules)?,
                    None => crate::morris::Rules::NINE,
                };
                let lot = match l {
                    None => false,
                    Some("1") => true,
                    Some(_) => return Err(InviteError::Malformed),
                };
                Some(Preview { rules, lot })
            }
        };
        let (g, t, r, k, s) = match (g, t, r, k, s, c) {
            (Some(g), None, None, None, None, Some(c)) => {
                let mut invite = Invite::from_code(game(g)?, c)?;
                invite.preview = preview;
                return Ok(invite);
            }
            (Some(g), Some(t), Some(r), Some(k), Some(s), None) => (g, t, r, k, s),
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
            preview,
        })
    }

    /// The canonical short code of an invitation made by [`Invite::with_code`] or
    /// [`Invite::from_code`] (show it with [`Invite::format_code`]); `None` for a link.
    pub fn code(&self) -> Option<&str> {
        self.code.as_deref()
    }

    /// True when the code, if any, is the one the room and the secret come from.
    pub(super) fn code_matches(&self) -> bool {
        self.code.as_deref().is_none_or(|c| {
            code::normalize(c).is_some_and(|c| {
                let rooms = [code::room(&c, self.rules.kind()), code::room_v1(&c)];
                rooms.contains(&self.room) && code::secret(&c) == self.secret
            })
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
    /// Morris rules that cannot be (`v=`), or rules for the other game.
    BadRules,
}

impl fmt::Display for InviteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            InviteError::Malformed => "malformed invitation",
            InviteError::NotOurs => "the invitation's key is not ours",
            InviteError::BadCode => {
                "invalid code: expected 12 letters and digits (no U), like K7M2-Q9XD-4HPA"
            }
            InviteError::BadRules => "the link announces rules that cannot be played here",
        })
    }
}

impl std::error::Error for InviteError {}

/// The public key of a key seed.
pub(super) fn public_key(seed: [u8; 32]) -> [u8; 32] {
    SigningKey::from_bytes(&seed).verifying_key().to_bytes()
}

/// The values of a URL fragment's `name=value` fields (with or without the leading `#`), in the
/// order of `names`; `None` when a field has no `=`, is not one of `names`, or comes twice.
pub(super) fn fragment_fields<'a, const N: usize>(
    text: &'a str,
    names: [&str; N],
) -> Option<[Option<&'a str>; N]> {
    let text = text.strip_prefix('#').unwrap_or(text);
    let mut parts = [None; N];
    for pair in text.split('&') {
        let (k, v) = pair.split_once('=')?;
        let slot = names.iter().position(|&n| n == k)?;
        if parts[slot].replace(v).is_some() {
            return None;
        }
    }
    Some(parts)
}
