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
//! or a hash link). The room secret is not in the file: a verifier cannot check the guest's
//! proof, but the host's later entries link to the guest's hello, which shows the host accepted
//! that guest key.

use super::chains::Chains;
use super::room::Room;
use super::wire::{self, Entry, RoomId};
use super::Invite;
use crate::AnyGame;
use ed25519_dalek::VerifyingKey;
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

/// What a valid transcript shows.
#[derive(Clone, Debug)]
pub struct Verified {
    /// The folded room.
    pub room: Room,
    /// The entries, in file order.
    pub entries: Vec<Entry>,
}

impl Verified {
    /// The final state of the current game (the `replay` JSON of it).
    pub fn game(&self) -> Option<&AnyGame> {
        self.room.game()
    }
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
        chains.add(e.clone()).map_err(|r| bad(r.to_string()))?;
        entries.push(e);
    }
    if entries.is_empty() {
        return Err(header("no entries"));
    }
    let mut room = Room::new();
    for (e, informed) in chains.merged() {
        if let Err(why) = room.apply(e) {
            // A void entry whose sender knew everything before it is a fault; one that crossed
            // an entry of the other seat on the way is a race both peers resolved the same way.
            if informed || !why.can_be_a_race() {
                let index = entries.iter().position(|x| x == e).unwrap_or(0);
                return Err(VerifyError {
                    entry: index,
                    message: format!("{:?} #{}: {why}", e.seat(), e.seq()),
                });
            }
        }
    }
    if room.rules.map(|r| r.kind()) != Some(game) {
        return Err(header("the game line does not match the host's hello"));
    }
    if let Some(why) = room.incompatible {
        return Err(header(&why.to_string()));
    }
    Ok(Verified { room, entries })
}
