//! Folding the transcript: every entry, in the one order both peers agree on
//! ([`Chains::merged`]), through the room's rules — each entry once, remembering what it did, so
//! that a session reports what a new entry changed instead of comparing states.
//!
//! New entries almost always fold after everything already folded: they are applied to the
//! current room and nothing else runs. When one folds earlier, or crossed a decision already
//! folded (it may void a decision that did not see it), the fold starts again from the beginning
//! and only the entries whose effect changed are reported. A decision's own account
//! ([`own_account`]) reads only entries it had seen and its own seat's earlier ones, all held
//! when it was folded: a new entry changes it through a crossing alone.

use super::chains::{after_life, is_decision, Chains};
use super::room::{Room, RoomEvent, Void, CLAIM_MS};
use super::wire::{Body, Entry, Seat};
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

/// Applies one entry as the fold does: what its own account says against it, then a decision
/// that crossed an entry of the other seat which refutes it is void (the crossing counted among
/// the held entries up to `limits`), then the room's rules.
fn apply(
    room: &mut Room,
    chains: &Chains,
    e: &Entry,
    limits: [usize; 2],
) -> Result<Vec<RoomEvent>, Void> {
    own_account(chains, e)?;
    if is_decision(&e.body)
        && chains
            .crossing_within(e, limits)
            .any(|other| refutes(chains, e, other))
    {
        return Err(Void::Crossed);
    }
    room.apply(e)
}

/// True when `other`, an entry of the other seat that the decision `e` crossed, makes it void.
/// Any entry refutes a claim of absence: its writer was there. An answer is refuted by what the
/// proposer wrote within the proposal's life (not [`after_life`], both times the proposer's
/// own): a real race, which the proposer's move or withdrawal wins. Not by a hand-over, which says
/// nothing about the game, nor by an entry dated after that life: the answer may have come in
/// it, and folds before such entries (`chains::outlived`).
fn refutes(chains: &Chains, e: &Entry, other: &Entry) -> bool {
    let Body::Reply { proposal, .. } = e.body else {
        return true;
    };
    if matches!(other.body, Body::Handover { .. }) {
        return false;
    }
    !after_life(chains.get(other.seat(), proposal), other)
}

/// What an entry's own account says against it, whatever it declares it had seen — a fault,
/// never a race. A claim of victory must be dated at least [`CLAIM_MS`] after its sender, by
/// its own clock, last knew the other seat to be there ([`Chains::absent_since`]); and it
/// cannot come while the other seat has not seen an entry of the sender's that crossed its
/// acceptance (that seat may believe the game ended or changed by its acceptance: it could not
/// know it had to play on).
fn own_account(chains: &Chains, e: &Entry) -> Result<(), Void> {
    if e.body != Body::ClaimWin {
        return Ok(());
    }
    let (seat, seen) = (e.seat(), chains.seen_of(e));
    let since = chains.absent_since(seat, e.seq(), seen);
    if since.is_some_and(|t| e.header.time < t.saturating_add(CLAIM_MS)) {
        return Err(Void::TooSoon);
    }
    // Version 2 only: there, such a claim waited for the other seat to write an entry that saw
    // ours, with no end. Version 3 counts an acceptance as any sign of presence (above): the
    // claim waits the reservation after our last entry that had not seen it, and no more.
    if chains.protocol() < 3 && chains.follows_crossed_acceptance(seat, e.seq(), seen) {
        return Err(Void::Unseen);
    }
    Ok(())
}

/// True when a void entry was allowed in the state its sender declares it had seen.
pub(super) fn excused(chains: &Chains, e: &Entry) -> bool {
    let limits = chains.declared_limits(e);
    let mut room = Room::new();
    for past in chains.merged_within(limits) {
        let _ = apply(&mut room, chains, past, limits);
    }
    own_account(chains, e).is_ok() && room.apply(e).is_ok()
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
        // A new entry that crossed a decision already folded may void it (`apply`): only a
        // decision's result depends on what crossed it, so only then does the fold start again.
        let crossed_decision = |e: &Entry| {
            chains
                .crossing_within(e, [usize::MAX; 2])
                .any(|other| is_decision(&other.body))
        };
        if merged[kept..].iter().any(|e| crossed_decision(e)) {
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
#[derive(Clone, Debug)]
pub(super) struct VoidEntry {
    /// Its index in fold order.
    pub index: usize,
    /// Why it changed nothing.
    pub why: Void,
    /// A crossing excuses it (see [`excused`]).
    pub excused: bool,
}

/// Folds a whole transcript (offline verification), one entry at a time so that a page can
/// pause between them: the room, and every void entry.
#[derive(Clone, Debug)]
pub(super) struct FoldAll {
    /// The room as the entries folded so far make it.
    pub room: Room,
    /// The void entries among them.
    pub voids: Vec<VoidEntry>,
    /// Each folded entry's seat's colour in the game it was written in.
    pub players: Vec<crate::Player>,
}

impl FoldAll {
    /// Nothing folded yet.
    pub fn new() -> FoldAll {
        FoldAll {
            room: Room::new(),
            voids: Vec::new(),
            players: Vec::new(),
        }
    }

    /// Folds `e`, the next entry in the chains' fold order.
    pub fn push(&mut self, chains: &Chains, e: &Entry) {
        let index = self.folded();
        self.players.push(self.room.player_of(e.seat()));
        if let Err(why) = apply(&mut self.room, chains, e, [usize::MAX; 2]) {
            self.voids.push(VoidEntry {
                index,
                why,
                excused: excused(chains, e),
            });
        }
    }

    /// How many are folded.
    pub fn folded(&self) -> usize {
        self.players.len()
    }
}
