//! The seats this browser keeps, one per room, in `localStorage` (kept when the tab closes:
//! opening the room's link again rejoins the same seat). The lobby saves the host's seat, the
//! room page reads and updates it; both bundles have this module.

use super::browser::now_ms;
use crate::model::seat::{read_seat, OpenError, SaveParts, Saved};
use engine::GameKind;

/// The family of the browser's storage keys that hold seats of a game.
pub fn seat_prefix(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Morris => "moulin-seat-v2:",
        GameKind::Meta => "meta-morpion-seat-v2:",
    }
}

/// The browser's storage key of the seat this browser holds in a room (kept when the tab closes:
/// opening the link again rejoins the same seat).
pub fn seat_key(kind: GameKind, room: &str) -> String {
    format!("{}{room}", seat_prefix(kind))
}

/// Keeps the seat of a room in the browser's storage, in parts (`Session::save_parts`): the
/// chunks that changed under `<key>#<n>`, then the head under the seat's key (it names how many
/// entries the save holds, so a save cut short reads as the one before). A save writes what
/// changed — the head and the last chunk, almost always —, not the whole transcript. False when
/// the browser refused (its storage full, or blocked for this site): the page must say so,
/// closing the tab would lose it.
#[must_use]
pub fn keep_seat(kind: GameKind, room: &str, parts: &SaveParts) -> bool {
    let Some(st) = local_storage() else {
        return false;
    };
    let key = seat_key(kind, room);
    for (n, chunk) in &parts.chunks {
        if st.set_item(&chunk_key(&key, *n), chunk).is_err() {
            return false;
        }
    }
    // A room this browser did not keep yet: make room for it among the others first.
    let new = st.get_item(&key).ok().flatten().is_none();
    if st
        .set_item(&key, &format!("{} {}", now_ms(), parts.head))
        .is_err()
    {
        return false;
    }
    if new {
        forget_oldest(&st, seat_prefix(kind));
    }
    true
}

/// The storage key of a chunk of a seat's save.
fn chunk_key(key: &str, n: usize) -> String {
    format!("{key}#{n}")
}

/// The seat this browser keeps under `key`, as kept: in parts, or in one text (a seat saved
/// before saves came in parts). `None` when there is none; an error when it is unreadable.
pub fn stored_seat(key: &str) -> Option<Result<Saved, OpenError>> {
    let text = stored_lasting(key)?;
    let st = local_storage()?;
    Some(read_seat(&text, |n| {
        st.get_item(&chunk_key(key, n)).ok().flatten()
    }))
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// Saved seats kept in the browser at most; beyond, the least recently saved are forgotten.
pub const MAX_SEATS: usize = 40;

/// The text kept under a key of the browser's storage (shared by its tabs, kept when they
/// close), after the time it was kept.
fn stored_lasting(key: &str) -> Option<String> {
    let value = local_storage()?.get_item(key).ok()??;
    let (_, text) = value.split_once(' ')?;
    Some(text.to_string())
}

/// Forgets the least recently saved seats of a family (`prefix`) beyond [`MAX_SEATS`], with
/// their chunks. Run when a new room's seat is first kept, not on every save: it reads every
/// seat of the family.
fn forget_oldest(st: &web_sys::Storage, prefix: &str) {
    let len = st.length().unwrap_or(0);
    let mut family: Vec<(u64, String)> = (0..len)
        .filter_map(|i| st.key(i).ok().flatten())
        .filter(|k| k.starts_with(prefix) && !k.contains('#'))
        .filter_map(|k| {
            let v = st.get_item(&k).ok()??;
            let t = v.split(' ').next()?.parse().unwrap_or(0);
            Some((t, k))
        })
        .collect();
    if family.len() > MAX_SEATS {
        family.sort();
        for (_, k) in &family[..family.len() - MAX_SEATS] {
            forget_lasting(k);
        }
    }
}

/// Forgets a seat of the browser's storage, with the chunks of its save.
pub fn forget_lasting(key: &str) {
    if let Some(st) = local_storage() {
        let _ = st.remove_item(key);
        let mut n = 0;
        while st.get_item(&chunk_key(key, n)).ok().flatten().is_some() {
            let _ = st.remove_item(&chunk_key(key, n));
            n += 1;
        }
    }
}
