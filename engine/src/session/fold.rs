//! Folding the transcript: every entry, in the one order both peers agree on
//! ([`Chains::merged`]), through the room's rules — each entry once, remembering what it did, so
//! that a session reports what a new entry changed instead of comparing states.
//!
//! New entries almost always fold after everything already folded: they are applied to the
//! current room and nothing else runs. When one folds earlier (an entry of the other seat that
//! crossed one of ours on the way), the fold starts again from the beginning and only the
//! entries whose effect changed are reported.

use super::chains::Chains;
use super::room::{Room, RoomEvent, Void};
use super::wire::Seat;
use std::collections::BTreeMap;

/// One folded entry and what it did.
#[derive(Clone, Debug)]
struct Folded {
    seat: Seat,
    seq: u32,
    result: Result<Vec<RoomEvent>, Void>,
}

/// What changed with the latest entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Change {
    /// An entry took effect (for the first time, or with more effects than before).
    Took {
        /// Its seat.
        seat: Seat,
        /// What it did (only what is new for an entry folded again).
        events: Vec<RoomEvent>,
    },
    /// A new entry is void.
    Void {
        /// Its seat.
        seat: Seat,
        /// Its number.
        seq: u32,
        /// Why.
        why: Void,
        /// Its sender had seen every entry of the other seat folded before it.
        informed: bool,
    },
    /// An entry that had taken effect is void now that an earlier one folds before it.
    Overtaken {
        /// Its seat.
        seat: Seat,
        /// Its number.
        seq: u32,
        /// Why it is void now.
        why: Void,
    },
}

/// The room as the entries folded so far make it.
#[derive(Clone, Debug, Default)]
pub(super) struct Fold {
    room: Room,
    done: Vec<Folded>,
}

impl Fold {
    /// The shared state.
    pub fn room(&self) -> &Room {
        &self.room
    }

    /// Forgets the last folded entry, which was void (and so changed nothing).
    pub fn forget_last_void(&mut self) {
        if self.done.last().is_some_and(|d| d.result.is_err()) {
            self.done.pop();
        }
    }

    /// Brings the room up to date with the chains; says what changed.
    pub fn update(&mut self, chains: &Chains) -> Vec<Change> {
        let merged = chains.merged();
        let kept = self
            .done
            .iter()
            .zip(&merged)
            .take_while(|(d, (e, _))| (d.seat, d.seq) == (e.seat(), e.seq()))
            .count();
        let mut changes = Vec::new();
        let before: BTreeMap<(Seat, u32), Result<Vec<RoomEvent>, Void>> = if kept < self.done.len()
        {
            // An entry folds before some already folded: fold everything again.
            self.room = Room::new();
            std::mem::take(&mut self.done)
                .into_iter()
                .map(|d| ((d.seat, d.seq), d.result))
                .collect()
        } else {
            BTreeMap::new()
        };
        let start = self.done.len();
        for &(e, informed) in &merged[start..] {
            let (seat, seq) = (e.seat(), e.seq());
            let result = self.room.apply(e);
            match (before.get(&(seat, seq)), &result) {
                (Some(old), new) if old == new => {}
                (Some(Ok(old)), Ok(new)) => changes.push(Change::Took {
                    seat,
                    events: new.iter().filter(|n| !old.contains(n)).cloned().collect(),
                }),
                (Some(Ok(_)), Err(why)) => changes.push(Change::Overtaken {
                    seat,
                    seq,
                    why: *why,
                }),
                (_, Ok(events)) => changes.push(Change::Took {
                    seat,
                    events: events.clone(),
                }),
                (_, Err(why)) => changes.push(Change::Void {
                    seat,
                    seq,
                    why: *why,
                    informed,
                }),
            }
            self.done.push(Folded { seat, seq, result });
        }
        changes
    }
}
