//! What a tab keeps to rejoin its seat after a reload: the seat, its key seed, the invitation
//! and the transcript, as a [`Saved`] value or as text for the browser's storage
//! ([`Saved::to_text`], [`Saved::from_text`]) — the client never sees the encoding.
//!
//! A tab saves after every entry, so a save costs what changed, not the transcript: in parts
//! ([`Session::save_parts`]), a small head and the entries in the order they were added, in
//! chunks of [`SAVE_CHUNK`], of which a save writes only those from the first one that changed
//! (the last, almost always). [`Saved::from_parts`] reads them back; a save in one text (the
//! form before parts) still reads with [`Saved::from_text`].

use super::invite::Invite;
use super::wire::{self, Entry, Seat};
use super::{Config, Session, Standing};
use ed25519_dalek::VerifyingKey;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Entries per chunk of a save in parts.
pub const SAVE_CHUNK: usize = 16;

/// How a save in parts starts: its head is this, then hexadecimal.
const PARTS: &str = "parts:";

/// A save in parts ([`Session::save_parts`]), for a storage that keeps each under its own key:
/// the head, which names how many entries the save holds, and the chunks of entries that
/// changed since the save the cursor came from. Keep the chunks first, the head last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveParts {
    /// The seat, its key seed, the invitation, the timing rules, the fork proofs and how many
    /// entries the save holds: [`Saved::from_parts`] reads it.
    pub head: String,
    /// Each chunk that changed: its number, and its text (entries in hexadecimal, one a line).
    pub chunks: Vec<(usize, String)>,
    /// How many chunks the save holds in all (earlier ones are unchanged).
    pub total: usize,
    /// Give it to the next [`Session::save_parts`] once these parts are kept.
    pub cursor: SaveCursor,
}

/// What was kept by the last save in parts: the next one writes only what came after. The
/// default (nothing kept) makes a whole save.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SaveCursor {
    /// The session's save epoch (it changes when the transcript is rebuilt).
    epoch: u64,
    /// Entries kept.
    entries: usize,
}

/// The head of a save in parts.
#[derive(Serialize, Deserialize)]
struct Head {
    seat: Seat,
    seed: [u8; 32],
    invite: Invite,
    config: Config,
    forks: Vec<(Entry, Entry)>,
    entries: u32,
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

/// Why a saved seat cannot be restored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RestoreError {
    /// The text is not a saved seat (damaged, truncated, or from another version).
    Unreadable,
    /// The key seed or the code does not match the invitation.
    KeysMismatch,
    /// A saved entry does not check (its index in the saved transcript, and why).
    BadEntry {
        /// 0-based index in [`Saved::entries`].
        index: usize,
        /// Why the chains refused it.
        why: super::Refusal,
    },
}

impl fmt::Display for RestoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RestoreError::Unreadable => f.write_str("the saved seat is unreadable"),
            RestoreError::KeysMismatch => {
                f.write_str("the saved keys or code do not match the invitation")
            }
            RestoreError::BadEntry { index, why } => write!(f, "saved entry {index}: {why}"),
        }
    }
}

impl std::error::Error for RestoreError {}

impl Saved {
    /// The saved seat as text for the browser's storage (lowercase hexadecimal of its
    /// canonical encoding).
    pub fn to_text(&self) -> String {
        wire::hex(&wire::encode(self))
    }

    /// Reads [`Saved::to_text`]'s text back. Only the encoding is checked here; the keys and
    /// the entries are checked by [`Session::restore`].
    pub fn from_text(text: &str) -> Result<Saved, RestoreError> {
        let bytes = wire::unhex(text.trim()).ok_or(RestoreError::Unreadable)?;
        match postcard::take_from_bytes::<Saved>(&bytes) {
            Ok((saved, [])) => Ok(saved),
            _ => Err(RestoreError::Unreadable),
        }
    }

    /// True when `text` is the head of a save in parts (else it is a whole save, for
    /// [`Saved::from_text`]).
    pub fn is_head(text: &str) -> bool {
        text.starts_with(PARTS)
    }

    /// How many chunks the save whose head this is holds ([`Saved::from_parts`] reads them).
    pub fn chunks_of(head: &str) -> Result<usize, RestoreError> {
        Ok((read_head(head)?.entries as usize).div_ceil(SAVE_CHUNK))
    }

    /// Reads a save in parts back: its head and its chunks, in order (at least as many as the
    /// head says: [`Saved::chunks_of`]). Only the encoding is checked here.
    pub fn from_parts(head: &str, chunks: &[String]) -> Result<Saved, RestoreError> {
        let head = read_head(head)?;
        let count = head.entries as usize;
        let mut entries = Vec::with_capacity(count.min(2 * super::chains::MAX_ENTRIES as usize));
        for chunk in chunks.iter().take(count.div_ceil(SAVE_CHUNK)) {
            for line in chunk.lines() {
                let bytes = wire::unhex(line).ok_or(RestoreError::Unreadable)?;
                entries.push(wire::decode(&bytes).map_err(|_| RestoreError::Unreadable)?);
            }
        }
        if entries.len() != count {
            return Err(RestoreError::Unreadable);
        }
        Ok(Saved {
            seat: head.seat,
            seed: head.seed,
            invite: head.invite,
            config: head.config,
            entries,
            forks: head.forks,
        })
    }
}

fn read_head(text: &str) -> Result<Head, RestoreError> {
    let hex = text
        .trim()
        .strip_prefix(PARTS)
        .ok_or(RestoreError::Unreadable)?;
    let bytes = wire::unhex(hex).ok_or(RestoreError::Unreadable)?;
    match postcard::take_from_bytes::<Head>(&bytes) {
        Ok((head, [])) => Ok(head),
        _ => Err(RestoreError::Unreadable),
    }
}

impl Session {
    /// [`Session::save`] as text for the browser's storage ([`Saved::to_text`]), without
    /// copying the transcript: a tab saves after every entry.
    pub fn save_text(&self) -> String {
        // Postcard writes a struct as its fields one after the other and a list as its length
        // then its items: the entries' own encodings, kept in hexadecimal by the chains, go in
        // as they are (the tests check this is exactly `save().to_text()`).
        let head = (self.seat, self.seed, &self.invite, self.config);
        let entries: Vec<&str> = self.chains.merged_hex().collect();
        let mut text = wire::hex(&wire::encode(&head));
        text.push_str(&wire::hex(&wire::encode(&entries.len())));
        for e in entries {
            text.push_str(e);
        }
        text.push_str(&wire::hex(&wire::encode(&self.chains.forks)));
        text
    }

    /// What to keep to rejoin after a reload, in parts: the head, and the chunks of entries
    /// changed since the save `since` came from (all of them for the default cursor, or after
    /// the transcript was rebuilt). Costs the head and those chunks, not the transcript.
    pub fn save_parts(&self, since: SaveCursor) -> SaveParts {
        let log = self.chains.log();
        let head = Head {
            seat: self.seat,
            seed: self.seed,
            invite: self.invite.clone(),
            config: self.config,
            forks: self.chains.forks.clone(),
            entries: log.len() as u32,
        };
        let kept = if since.epoch == self.save_epoch {
            since.entries.min(log.len())
        } else {
            0
        };
        let total = log.len().div_ceil(SAVE_CHUNK);
        // The chunk of the first entry not kept (none when all are).
        let first = if kept == log.len() {
            total
        } else {
            kept / SAVE_CHUNK
        };
        let chunks: Vec<(usize, String)> = (first..total)
            .map(|i| {
                let mut text = String::new();
                for &(seat, seq) in &log[i * SAVE_CHUNK..((i + 1) * SAVE_CHUNK).min(log.len())] {
                    text.push_str(self.chains.hex_of(seat, seq).unwrap_or_default());
                    text.push('\n');
                }
                (i, text)
            })
            .collect();
        SaveParts {
            head: format!("{PARTS}{}", wire::hex(&wire::encode(&head))),
            chunks,
            total,
            cursor: SaveCursor {
                epoch: self.save_epoch,
                entries: log.len(),
            },
        }
    }

    /// What to keep to rejoin after a reload.
    pub fn save(&self) -> Saved {
        Saved {
            seat: self.seat,
            seed: self.seed,
            invite: self.invite.clone(),
            config: self.config,
            entries: self.entries(),
            forks: self.chains.forks.clone(),
        }
    }

    /// Restores a saved side (after a reload); the peers then resynchronise. Every saved entry
    /// is checked again, as if it had just arrived.
    pub fn restore(saved: Saved) -> Result<Session, RestoreError> {
        let keys_valid = match saved.invite.host_key {
            Some(key) => VerifyingKey::from_bytes(&key).is_ok(),
            // Only a guest by code may not know the host's key yet.
            None => saved.seat == Seat::Guest,
        };
        if !keys_valid || !saved.invite.code_matches() {
            return Err(RestoreError::KeysMismatch);
        }
        let seat = saved.seat;
        let mut s = Session::empty(seat, saved.invite, saved.seed, saved.config);
        for (index, e) in saved.entries.into_iter().enumerate() {
            s.chains
                .add(e)
                .map_err(|why| RestoreError::BadEntry { index, why })?;
        }
        // Our key holds our seat (the invitation's, our hello's or a hand-over's), or held it
        // until a hand-over (we may ask for it back), or never did (we were asking for one).
        let key = s.key.verifying_key();
        if s.chains.current_key(seat).is_some_and(|k| k != key) {
            s.standing = if s.chains.ever_held(seat, &key) {
                Standing::HandedAway
            } else if seat == Seat::Guest {
                Standing::Knocking { since: 0 }
            } else {
                // The host's seat is the invitation's key, or one handed over to us.
                return Err(RestoreError::KeysMismatch);
            };
        }
        s.learn_host_key();
        if s.chains.len(s.seat) == 0 {
            s.write_hello(0);
        }
        s.chains.forks = saved.forks;
        s.restored = true;
        s.fold.update(&s.chains);
        // Their open proposal's minute starts again when we are live.
        let other = s.seat.other().index();
        s.their_proposal_seen = s.room().open[other].map(|o| (o.seq, None));
        Ok(s)
    }
}
