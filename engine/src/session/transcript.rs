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

use super::chains::{Added, Chains, Refusal};
use super::fold::FoldAll;
use super::room::{Room, Void};
use super::wire::{self, Body, Entry, RoomId, Seat};
use super::Invite;
use crate::{AnyGame, Player};
use ed25519_dalek::VerifyingKey;
use sha2::{Digest, Sha256};
use std::fmt;

const MAGIC: &str = "moulin-transcript v1";
const HEADER_LINES: usize = 4;

/// The largest transcript read (bytes), by `engine verify` and the viewer alike, refused before
/// anything else: what an honest room can write — at most 10 000 entries per seat
/// ([`MAX_ENTRIES`](super::chains::MAX_ENTRIES)), each line at most 445 characters with its
/// newline (a hello or a hand-over; a move takes about 320), and two proofs of a fork at most,
/// so 8.9 MB at the very most. A 500-turn Morris game's transcript is 0.16 MB, a room whose two
/// chains are full of moves 6.3 MB. Reading a file costs at most a few times its size in memory
/// (« Costs » in docs/protocol.md).
pub const MAX_BYTES: usize = 9_000_000;

/// The first problem found in a transcript.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    /// 0-based index of the bad entry (header problems count as entry 0).
    pub entry: usize,
    /// What kind of problem: what a page says in its player's language.
    pub flaw: Flaw,
    /// What is wrong, in English (the command line's message).
    pub message: String,
}

/// The kinds of [`VerifyError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flaw {
    /// Larger than the largest transcript a room can write ([`MAX_BYTES`]).
    TooBig,
    /// Not a transcript: no magic line, no final newline, not text.
    NotTranscript,
    /// A damaged header line (room, host, game).
    Header,
    /// The host's key is zeros: exported before the host's hello arrived.
    NoHostKey,
    /// A line that is no entry: not lowercase hexadecimal, or no entry's canonical encoding.
    Damaged,
    /// An entry the transcript's own rules refuse: a signature, a link, a seat.
    Refused(Refusal),
    /// An entry given twice.
    Copy,
    /// Entries out of the fold order.
    Order,
    /// No entries, or no game in them.
    Empty,
    /// The game line against the host's hello, or a hello of another protocol or game.
    Mismatch,
}

impl VerifyError {
    /// A problem of the file as a whole (or of its header), not of one entry.
    pub fn file(flaw: Flaw, message: &str) -> VerifyError {
        VerifyError {
            entry: 0,
            flaw,
            message: message.to_string(),
        }
    }
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
        write!(
            f,
            "the {seat} ({}) signed entry {}, which breaks the rules: {}",
            colour(self.player),
            self.entry,
            self.why
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
    /// Seats moved to another key, in file order.
    pub handovers: Vec<Handover>,
    /// Seats whose key signed two entries with one number, as the other seat proved
    /// ([`Body::Fork`]), in file order.
    pub forks: Vec<ForkProof>,
}

/// A seat whose key signed two entries with one number — a fork —, proved by an entry of the
/// other seat that carries the second one (`docs/protocol.md`, « Forks »): the forker lost the
/// game in progress and wrote nothing more that counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ForkProof {
    /// 0-based index of the proof entry in the file.
    pub entry: usize,
    /// The seat that forked (the proof's signer is the other one).
    pub seat: Seat,
    /// That seat's colour in the game the proof was written in.
    pub player: Player,
    /// The number both of its entries carry.
    pub seq: u32,
}

impl fmt::Display for ForkProof {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seat = match self.seat {
            Seat::Host => "host",
            Seat::Guest => "guest",
        };
        write!(
            f,
            "the {seat} ({}) signed two entries numbered {}, a fork that entry {} proves",
            colour(self.player),
            self.seq,
            self.entry
        )
    }
}

/// A seat moved to another key by the other seat, which signed the hand-over
/// (`docs/protocol.md`, « Presence, knocks and hand-over »).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handover {
    /// 0-based index of the hand-over entry in the file.
    pub entry: usize,
    /// The seat that changed hands (the entry's signer is the other one).
    pub seat: Seat,
    /// That seat's colour in the game the hand-over was written in.
    pub player: Player,
    /// The seat's key for its entries that saw the hand-over.
    pub key: [u8; 32],
    /// Entries of that seat the hand-over had not seen and that had not seen it: written
    /// meanwhile by the earlier key, they stand. An honest client hands over only a seat that
    /// is away, but such entries do not prove it was present (an absent device may have
    /// written them before its connection dropped).
    pub crossed: u32,
}

impl fmt::Display for Handover {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (seat, by) = match self.seat {
            Seat::Host => ("host", "guest"),
            Seat::Guest => ("guest", "host"),
        };
        write!(
            f,
            "the {by} signed entry {}, which gave the {seat}'s seat ({}) to the key {}",
            self.entry,
            colour(self.player),
            fingerprint(&self.key)
        )?;
        match self.crossed {
            0 => Ok(()),
            1 => write!(f, " (1 entry of the {seat} it had not seen stands)"),
            n => write!(f, " ({n} entries of the {seat} it had not seen stand)"),
        }
    }
}

fn colour(p: Player) -> &'static str {
    match p {
        Player::Blue => "Blue",
        Player::Red => "Red",
    }
}

impl Verified {
    /// The final state of the current game (the `replay` JSON of it).
    pub fn game(&self) -> Option<&AnyGame> {
        self.room.game()
    }

    /// One sentence: every signature, link and move is valid, or who broke the rules first;
    /// then every seat that changed hands, and who gave it.
    pub fn verdict(&self) -> String {
        // The first rule broken or fork proved, whichever comes first in the file.
        let mut verdict = match (self.faults.first(), self.forks.first()) {
            (None, None) => "verified: every signature, link and move is valid".to_string(),
            (_, Some(k)) if self.faults.first().is_none_or(|f| k.entry < f.entry) => {
                format!("authentic, but {k}")
            }
            (Some(f), _) => format!("authentic, but {f}"),
            (None, Some(k)) => format!("authentic, but {k}"),
        };
        for k in self.forks.iter().skip(1) {
            verdict.push_str("; ");
            verdict.push_str(&k.to_string());
        }
        for h in &self.handovers {
            verdict.push_str("; ");
            verdict.push_str(&h.to_string());
        }
        verdict
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
    let host = invite.host_key.unwrap_or([0; 32]);
    export_room(invite.room, &host, invite.rules.kind(), lines)
}

/// [`export_lines`] from the header's three facts: the room, the host's key, the game.
pub(super) fn export_room<'a>(
    room: wire::RoomId,
    host: &[u8; 32],
    game: crate::GameKind,
    lines: impl Iterator<Item = &'a str>,
) -> String {
    let mut s = format!(
        "{MAGIC}\nroom {}\nhost {}\ngame {}\n",
        wire::hex(&room.0),
        wire::hex(host),
        game.as_str()
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
    Verifier::new(text.to_owned())?.finish()
}

/// [`verify`] a little at a time, for a page that must not freeze on a long transcript (a full
/// room, 2 × 10 000 entries, takes seconds in a browser): each [`Verifier::step`] checks entries
/// until its stop check says so, and the result is [`verify`]'s, however the work is cut.
///
/// ```
/// use engine::session::transcript::{self, Verifier};
/// use engine::session::Loopback;
/// use engine::GameKind;
///
/// let text = Loopback::new(GameKind::Meta, 100).host().export();
/// let mut v = Verifier::new(text.clone()).unwrap();
/// // One entry per step: the page would let the browser breathe between them.
/// while !v.step(&mut || true).unwrap() {
///     let (done, total) = v.progress();
///     assert!(done < total);
/// }
/// let verified = v.finish().unwrap();
/// assert_eq!(verified.entries, transcript::verify(&text).unwrap().entries);
/// ```
#[derive(Clone, Debug)]
pub struct Verifier {
    text: String,
    /// Where the next entry's line starts; `None` once every line is read.
    next: Option<usize>,
    /// The end of the last line (before the final newline).
    end: usize,
    /// The entry lines of the file.
    lines: usize,
    host: [u8; 32],
    game: crate::GameKind,
    chains: Chains,
    entries: Vec<Entry>,
    /// Once every entry is read and in the fold order: the fold so far.
    fold: Option<FoldAll>,
    /// The first problem, once found: every later call gives it again.
    failed: Option<VerifyError>,
    /// Entries placed in the fold order (to check the file's).
    merged: u64,
}

/// An error of the file's header lines.
fn header(message: &str) -> VerifyError {
    VerifyError::file(Flaw::Header, message)
}

/// The line of `text` that starts at `at`, before `end`; `next` becomes where the one after it
/// starts (`None` after the last).
fn next_line<'a>(text: &'a str, at: usize, end: usize, next: &mut Option<usize>) -> &'a str {
    match text[at..end].find('\n') {
        Some(n) => {
            *next = Some(at + n + 1);
            &text[at..at + n]
        }
        None => {
            *next = None;
            &text[at..end]
        }
    }
}

impl Verifier {
    /// Reads the four header lines; the entries are checked by [`Verifier::step`].
    pub fn new(text: String) -> Result<Verifier, VerifyError> {
        if text.len() > MAX_BYTES {
            return Err(VerifyError::file(
                Flaw::TooBig,
                &format!("larger than the largest transcript a room can write ({MAX_BYTES} bytes)"),
            ));
        }
        let end = text
            .strip_suffix('\n')
            .ok_or_else(|| {
                VerifyError::file(Flaw::NotTranscript, "the file must end with a newline")
            })?
            .len();
        let mut next = Some(0);
        let mut head = Vec::with_capacity(HEADER_LINES);
        while head.len() < HEADER_LINES {
            let Some(at) = next else { break };
            head.push(next_line(&text, at, end, &mut next));
        }
        if head.len() < HEADER_LINES || head[0] != MAGIC {
            return Err(VerifyError::file(
                Flaw::NotTranscript,
                "not a moulin transcript (v1)",
            ));
        }
        let field = |line: &str, name: &str| {
            line.strip_prefix(name)
                .and_then(|v| v.strip_prefix(' '))
                .map(str::to_string)
        };
        let room: [u8; 16] = field(head[1], "room")
            .and_then(|v| wire::unhex_array(&v))
            .ok_or_else(|| header("bad room line"))?;
        let host: [u8; 32] = field(head[2], "host")
            .and_then(|v| wire::unhex_array(&v))
            .ok_or_else(|| header("bad host line"))?;
        let game = field(head[3], "game")
            .and_then(|v| crate::GameKind::from_name(&v))
            .ok_or_else(|| header("bad game line"))?;
        if host == [0; 32] {
            return Err(VerifyError::file(
                Flaw::NoHostKey,
                "the host's key is unknown (exported before the host's hello arrived)",
            ));
        }
        let host_key = VerifyingKey::from_bytes(&host).map_err(|_| header("bad host key"))?;
        let lines = next.map_or(0, |at| {
            1 + text.as_bytes()[at..end]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
        });
        Ok(Verifier {
            next,
            end,
            lines,
            host,
            game,
            chains: Chains::new(RoomId(room), Some(host_key), None).without_hex(),
            // Not one per line: a file of newlines must not reserve an entry for each.
            entries: Vec::new(),
            fold: None,
            failed: None,
            merged: 0,
            text,
        })
    }

    /// The work done so far, in steps (docs/protocol.md, « Costs »): signatures checked,
    /// entries applied to a room (folding, and the states void entries declare).
    pub fn work(&self) -> super::Work {
        let fold = self.fold.as_ref().map(FoldAll::work).unwrap_or_default();
        super::Work {
            applied: fold.applied,
            merged: fold.merged + self.merged,
            checked: self.chains.checked(),
            ..super::Work::default()
        }
    }

    /// The work done and the whole work, in entries: each is read (its signature and links
    /// checked), then folded through the rules.
    pub fn progress(&self) -> (usize, usize) {
        let folded = self.fold.as_ref().map_or(0, FoldAll::folded);
        (self.entries.len() + folded, 2 * self.lines)
    }

    /// Checks entries until `stop` returns true (it is asked after each entry) or none is left:
    /// `Ok(true)` when the transcript is checked ([`Verifier::finish`] tells the result), or
    /// the first problem found.
    pub fn step(&mut self, stop: &mut dyn FnMut() -> bool) -> Result<bool, VerifyError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let done = self.run(stop);
        if let Err(e) = &done {
            self.failed = Some(e.clone());
        }
        done
    }

    fn run(&mut self, stop: &mut dyn FnMut() -> bool) -> Result<bool, VerifyError> {
        while let Some(at) = self.next {
            let i = self.entries.len();
            let bad = |flaw: Flaw, message: String| VerifyError {
                entry: i,
                flaw,
                message,
            };
            let line = next_line(&self.text, at, self.end, &mut self.next);
            if line.len() > 2 * wire::MAX_MESSAGE {
                return Err(bad(Flaw::Damaged, wire::DecodeError::TooLarge.to_string()));
            }
            let bytes = wire::unhex(line)
                .ok_or_else(|| bad(Flaw::Damaged, "not lowercase hexadecimal".into()))?;
            let e: Entry = wire::decode(&bytes).map_err(|e| bad(Flaw::Damaged, e.to_string()))?;
            match self
                .chains
                .add(e.clone())
                .map_err(|r| bad(Flaw::Refused(r), r.to_string()))?
            {
                Added::New => self.entries.push(e),
                Added::Duplicate => {
                    let first = self.entries.iter().position(|x| *x == e).unwrap_or(0);
                    return Err(bad(Flaw::Copy, format!("a second copy of entry {first}")));
                }
            }
            if stop() {
                return Ok(false);
            }
        }
        if self.fold.is_none() {
            if self.entries.is_empty() {
                return Err(VerifyError::file(Flaw::Empty, "no entries"));
            }
            // One order: the fold order, so that two files never tell one game.
            let merged = self.chains.merged();
            self.merged += merged.len() as u64;
            if let Some(i) = merged
                .iter()
                .zip(&self.entries)
                .position(|(folded, filed)| *folded != filed)
            {
                let expected = merged[i];
                return Err(VerifyError {
                    entry: i,
                    flaw: Flaw::Order,
                    message: format!(
                        "out of order: the fold order puts {:?} #{} here",
                        expected.seat(),
                        expected.seq()
                    ),
                });
            }
            self.fold = Some(FoldAll::new());
        }
        let fold = self.fold.as_mut().expect("set above");
        while let Some(e) = self.entries.get(fold.folded()) {
            fold.push(&self.chains, e);
            if fold.folded() < self.entries.len() && stop() {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The result: what the transcript shows, or its first problem (checking what
    /// [`Verifier::step`] has not checked yet).
    pub fn finish(mut self) -> Result<Verified, VerifyError> {
        self.step(&mut || false)?;
        let fold = self.fold.expect("every entry is folded");
        let (room, voids, players) = fold.into_parts();
        let entries = self.entries;
        let void: Vec<usize> = voids.iter().map(|v| v.index).collect();
        let faults = voids
            .into_iter()
            .filter(|v| !v.excused)
            .map(|v| Breach {
                entry: v.index,
                seat: entries[v.index].seat(),
                player: players[v.index],
                why: v.why,
            })
            .collect();
        if room.rules.map(|r| r.kind()) != Some(self.game) {
            return Err(VerifyError::file(
                Flaw::Mismatch,
                "the game line does not match the host's hello",
            ));
        }
        if let Some(why) = room.incompatible {
            return Err(VerifyError::file(Flaw::Mismatch, &why.to_string()));
        }
        let handovers = entries
            .iter()
            .enumerate()
            .filter_map(|(entry, e)| match e.body {
                Body::Handover { seat, key, .. } => Some(Handover {
                    entry,
                    seat,
                    player: players[entry].opponent(),
                    key,
                    crossed: self.chains.crossed_count(e.seat(), e.seq()),
                }),
                _ => None,
            })
            .collect();
        let forks = entries
            .iter()
            .enumerate()
            .filter(|(entry, _)| void.binary_search(entry).is_err())
            .filter_map(|(entry, e)| match &e.body {
                Body::Fork(other) => Some(ForkProof {
                    entry,
                    seat: other.seat(),
                    player: players[entry].opponent(),
                    seq: other.seq(),
                }),
                _ => None,
            })
            .collect();
        Ok(Verified {
            forks,
            room,
            guest_key: self.chains.guest_key().map(|k| k.to_bytes()),
            entries,
            host_key: self.host,
            void,
            faults,
            handovers,
        })
    }
}
