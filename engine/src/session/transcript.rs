//! Exported transcripts: a text file anyone can check offline with `engine verify`.
//!
//! ```text
//! moulin-transcript v1
//! room <32 hex>
//! host <64 hex: the host's public key; zeros if the exporter did not know it yet (refused)>
//! game <morris|meta>
//! <one entry per line: its canonical encoding in lowercase hexadecimal>
//! ```
//!
//! Every character counts: hexadecimal is strict lowercase and decoding must give back the same
//! bytes, so any change of a byte is caught (by the format, the canonical encoding, a signature
//! or a hash link), and the entries must come once each, in the fold order: one game, one file.
//! The room secret is not in the file: a verifier cannot check the guest's proof, but the host's
//! later entries link to the guest's hello, which shows the host accepted that guest key.
//!
//! An entry signed with a seat's own key that breaks the rules is not a forgery: the file still
//! verifies, and [`Verified::faults`] names the seat, the entry and why — the honest player's
//! export is the evidence.

use super::chains::{Added, Chains};
use super::fold;
use super::room::{Room, Void};
use super::wire::{self, Body, Entry, RoomId, Seat};
use super::Invite;
use crate::{AnyGame, Player};
use ed25519_dalek::VerifyingKey;
use sha2::{Digest, Sha256};
use std::fmt;

const MAGIC: &str = "moulin-transcript v1";
const HEADER_LINES: usize = 4;

/// The first problem found in a transcript.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    /// 0-based index of the bad entry (header problems count as entry 0).
    pub entry: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "entry {}: {}", self.entry, self.message)
    }
}

impl std::error::Error for VerifyError {}

/// An entry signed with its seat's own key that breaks the rules: evidence of a cheat (or of a
/// broken client), not of a forgery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Breach {
    /// 0-based index of the entry in the file.
    pub entry: usize,
    /// The seat that signed it.
    pub seat: Seat,
    /// That seat's colour in the game it was written in.
    pub player: Player,
    /// Why the rules refuse it.
    pub why: Void,
}

impl fmt::Display for Breach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seat = match self.seat {
            Seat::Host => "host",
            Seat::Guest => "guest",
        };
        let colour = match self.player {
            Player::Blue => "Blue",
            Player::Red => "Red",
        };
        write!(
            f,
            "the {seat} ({colour}) signed entry {}, which breaks the rules: {}",
            self.entry, self.why
        )
    }
}

/// What a valid transcript shows.
#[derive(Clone, Debug)]
pub struct Verified {
    /// The folded room.
    pub room: Room,
    /// The entries, in file order (the fold order).
    pub entries: Vec<Entry>,
    /// The host's public key.
    pub host_key: [u8; 32],
    /// The guest's public key, once it said hello.
    pub guest_key: Option<[u8; 32]>,
    /// Every entry that changed nothing, in file order: the faults, and entries an entry of
    /// the other seat crossed (races).
    pub void: Vec<usize>,
    /// Entries signed by a seat's own key that break the rules, in file order.
    pub faults: Vec<Breach>,
    /// Seats moved to another device, in file order.
    pub handovers: Vec<Handover>,
}

/// A seat moved to another device by the other seat's consent (`docs/protocol.md`,
/// « Hand-over »).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handover {
    /// 0-based index of the hand-over entry in the file.
    pub entry: usize,
    /// The seat that changed device (the entry's writer is the other one).
    pub seat: Seat,
    /// The seat's key from then on.
    pub key: [u8; 32],
}

impl Verified {
    /// The final state of the current game (the `replay` JSON of it).
    pub fn game(&self) -> Option<&AnyGame> {
        self.room.game()
    }

    /// One sentence: every signature, link and move is valid, or who broke the rules first.
    pub fn verdict(&self) -> String {
        match self.faults.first() {
            None => "verified: every signature, link and move is valid".to_string(),
            Some(f) => format!("authentic, but {f}"),
        }
    }
}

/// A key's fingerprint, for people to compare: the first 8 bytes of its SHA-256, in hexadecimal.
pub fn fingerprint(key: &[u8; 32]) -> String {
    wire::hex(&Sha256::digest(key)[..8])
}

/// Writes a transcript of these entries.
pub fn export(invite: &Invite, entries: &[Entry]) -> String {
    let lines: Vec<String> = entries
        .iter()
        .map(|e| wire::hex(&wire::encode(e)))
        .collect();
    export_lines(invite, lines.iter().map(String::as_str))
}

/// Writes a transcript whose entries are already in hexadecimal, one per line.
pub(super) fn export_lines<'a>(invite: &Invite, lines: impl Iterator<Item = &'a str>) -> String {
    let mut s = format!(
        "{MAGIC}\nroom {}\nhost {}\ngame {}\n",
        wire::hex(&invite.room.0),
        wire::hex(&invite.host_key.unwrap_or([0; 32])),
        invite.rules.kind().as_str()
    );
    for line in lines {
        s.push_str(line);
        s.push('\n');
    }
    s
}

/// Checks a transcript: format, canonical encodings, signatures, sequence numbers, hash chains,
/// and the legality of every entry through the room's rules and the engine.
pub fn verify(text: &str) -> Result<Verified, VerifyError> {
    let header = |message: &str| VerifyError {
        entry: 0,
        message: message.to_string(),
    };
    let body = text
        .strip_suffix('\n')
        .ok_or_else(|| header("the file must end with a newline"))?;
    let lines: Vec<&str> = body.split('\n').collect();
    if lines.len() < HEADER_LINES || lines[0] != MAGIC {
        return Err(header("not a moulin transcript (v1)"));
    }
    let field = |line: &str, name: &str| {
        line.strip_prefix(name)
            .and_then(|v| v.strip_prefix(' '))
            .map(str::to_string)
    };
    let room: [u8; 16] = field(lines[1], "room")
        .and_then(|v| wire::unhex_array(&v))
        .ok_or_else(|| header("bad room line"))?;
    let host: [u8; 32] = field(lines[2], "host")
        .and_then(|v| wire::unhex_array(&v))
        .ok_or_else(|| header("bad host line"))?;
    let game = field(lines[3], "game")
        .and_then(|v| crate::GameKind::from_name(&v))
        .ok_or_else(|| header("bad game line"))?;
    if host == [0; 32] {
        return Err(header(
            "the host's key is unknown (exported before the host's hello arrived)",
        ));
    }
    let host_key = VerifyingKey::from_bytes(&host).map_err(|_| header("bad host key"))?;
    let mut chains = Chains::new(RoomId(room), Some(host_key), None);
    let mut entries = Vec::new();
    for (i, line) in lines[HEADER_LINES..].iter().enumerate() {
        let bad = |message: String| VerifyError { entry: i, message };
        let bytes = wire::unhex(line).ok_or_else(|| bad("not lowercase hexadecimal".into()))?;
        let e: Entry = wire::decode(&bytes).map_err(|e| bad(e.to_string()))?;
        match chains.add(e.clone()).map_err(|r| bad(r.to_string()))? {
            Added::New => entries.push(e),
            Added::Duplicate => {
                let first = entries.iter().position(|x| *x == e).unwrap_or(0);
                return Err(bad(format!("a second copy of entry {first}")));
            }
        }
    }
    if entries.is_empty() {
        return Err(header("no entries"));
    }
    // One order: the fold order, so that two files never tell one game.
    if let Some(i) = chains
        .merged()
        .iter()
        .zip(&entries)
        .position(|(folded, filed)| *folded != filed)
    {
        let expected = chains.merged()[i];
        return Err(VerifyError {
            entry: i,
            message: format!(
                "out of order: the fold order puts {:?} #{} here",
                expected.seat(),
                expected.seq()
            ),
        });
    }
    let (room, voids) = fold::fold_all(&chains);
    let void = voids.iter().map(|v| v.index).collect();
    let faults = voids
        .into_iter()
        .filter(|v| !v.excused)
        .map(|v| Breach {
            entry: v.index,
            seat: entries[v.index].seat(),
            player: v.player,
            why: v.why,
        })
        .collect();
    if room.rules.map(|r| r.kind()) != Some(game) {
        return Err(header("the game line does not match the host's hello"));
    }
    if let Some(why) = room.incompatible {
        return Err(header(&why.to_string()));
    }
    let handovers = entries
        .iter()
        .enumerate()
        .filter_map(|(entry, e)| match e.body {
            Body::Handover { seat, key, .. } => Some(Handover { entry, seat, key }),
            _ => None,
        })
        .collect();
    Ok(Verified {
        room,
        entries,
        host_key: host,
        guest_key: chains.guest_key().map(|k| k.to_bytes()),
        void,
        faults,
        handovers,
    })
}
