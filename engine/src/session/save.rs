//! What a tab keeps to rejoin its seat after a reload: the seat, its key seed, the invitation
//! and the transcript, as a [`Saved`] value or as text for the browser's storage
//! ([`Saved::to_text`], [`Saved::from_text`]) — the client never sees the encoding.

use super::invite::Invite;
use super::wire::{self, Entry, Seat};
use super::{Config, Session, Standing};
use ed25519_dalek::VerifyingKey;
use serde::{Deserialize, Serialize};
use std::fmt;

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
