//! Folding the transcript: every entry, in the one order both peers agree on
//! ([`Chains::merged`]), through the room's rules — each entry once, remembering what it did, so
//! that a session reports what a new entry changed instead of comparing states.
//!
//! New entries almost always fold after everything already folded: they are applied to the
//! current room and nothing else runs. When one folds earlier, or crossed an entry already
//! folded (it may void a decision that did not see it), the fold starts again from the beginning
//! and only the entries whose effect changed are reported.

use super::chains::{is_decision, Chains};
use super::room::{Room, RoomEvent, Void};
use super::wire::{Entry, Seat};
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
        /// It was allowed in the state its sender declares it had seen: an entry of the other
        /// seat crossed it (a race both sides resolve alike). Otherwise it broke the rules.
        excused: bool,
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

/// Applies one entry as the fold does: the room's rules, and a decision that crossed an entry of
/// the other seat is void (the crossing counted among the held entries up to `limits`).
fn apply(
    room: &mut Room,
    chains: &Chains,
    e: &Entry,
    limits: [usize; 2],
) -> Result<Vec<RoomEvent>, Void> {
    if is_decision(&e.body) && chains.crossed_within(e, limits) {
        return Err(Void::Crossed);
    }
    room.apply(e)
}

/// True when a void entry was allowed in the state its sender declares it had seen.
pub(super) fn excused(chains: &Chains, e: &Entry) -> bool {
    let limits = chains.declared_limits(e);
    let mut room = Room::new();
    for past in chains.merged_within(limits) {
        let _ = apply(&mut room, chains, past, limits);
    }
    room.apply(e).is_ok()
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
        let mut kept = self
            .done
            .iter()
            .zip(&merged)
            .take_while(|(d, e)| (d.seat, d.seq) == (e.seat(), e.seq()))
            .count();
        // A new entry that crossed one already folded may void a decision folded before it.
        if merged[kept..].iter().any(|e| chains.crossed(e)) {
            kept = 0;
        }
        let mut changes = Vec::new();
        let before: BTreeMap<(Seat, u32), Result<Vec<RoomEvent>, Void>> = if kept < self.done.len()
        {
            self.room = Room::new();
            std::mem::take(&mut self.done)
                .into_iter()
                .map(|d| ((d.seat, d.seq), d.result))
                .collect()
        } else {
            BTreeMap::new()
        };
        for e in &merged[self.done.len()..] {
            let (seat, seq) = (e.seat(), e.seq());
            let result = apply(&mut self.room, chains, e, [usize::MAX; 2]);
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
                    excused: excused(chains, e),
                }),
            }
            self.done.push(Folded { seat, seq, result });
        }
        changes
    }
}

/// A void entry, as offline verification reports it.
pub(super) struct VoidEntry {
    /// Its index in fold order.
    pub index: usize,
    /// Why it changed nothing.
    pub why: Void,
    /// A crossing excuses it (see [`excused`]).
    pub excused: bool,
    /// Its seat's colour in the game it was written in.
    pub player: crate::Player,
}

/// Folds a whole transcript at once (offline verification): the room, and every void entry.
pub(super) fn fold_all(chains: &Chains) -> (Room, Vec<VoidEntry>) {
    let mut room = Room::new();
    let mut voids = Vec::new();
    for (index, e) in chains.merged().into_iter().enumerate() {
        let player = room.player_of(e.seat());
        if let Err(why) = apply(&mut room, chains, e, [usize::MAX; 2]) {
            voids.push(VoidEntry {
                index,
                why,
                excused: excused(chains, e),
                player,
            });
        }
    }
    (room, voids)
}
