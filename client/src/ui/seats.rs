//! The seats this browser keeps, one per room, in `localStorage` (kept when the tab closes:
//! opening the room's link again rejoins the same seat). The lobby saves the host's seat, the
//! room page reads and updates it; both bundles have this module.

use super::browser::now_ms;
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

/// Keeps the seat of a room in the browser's storage; false when the browser refused (its
/// storage full, or blocked for this site): the page must say so, closing the tab would lose it.
#[must_use]
pub fn keep_seat(kind: GameKind, room: &str, text: &str) -> bool {
    store_lasting(seat_prefix(kind), &seat_key(kind, room), text)
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// Saved seats kept in the browser at most; beyond, the least recently saved are forgotten.
pub const MAX_SEATS: usize = 40;

/// The text kept under a key of the browser's storage (shared by its tabs, kept when they
/// close) by [`store_lasting`].
pub fn stored_lasting(key: &str) -> Option<String> {
    let value = local_storage()?.get_item(key).ok()??;
    let (_, text) = value.split_once(' ')?;
    Some(text.to_string())
}

/// Keeps text under a key of the browser's storage, with the time, and forgets the oldest keys
/// of the same family (`prefix`) beyond [`MAX_SEATS`]. False when the storage is blocked or
/// full (it then keeps the previous value).
pub fn store_lasting(prefix: &str, key: &str, text: &str) -> bool {
    let Some(st) = local_storage() else {
        return false;
    };
    if st.set_item(key, &format!("{} {text}", now_ms())).is_err() {
        return false;
    }
    let len = st.length().unwrap_or(0);
    let mut family: Vec<(u64, String)> = (0..len)
        .filter_map(|i| st.key(i).ok().flatten())
        .filter(|k| k.starts_with(prefix))
        .filter_map(|k| {
            let v = st.get_item(&k).ok()??;
            let t = v.split(' ').next()?.parse().unwrap_or(0);
            Some((t, k))
        })
        .collect();
    if family.len() > MAX_SEATS {
        family.sort();
        for (_, k) in &family[..family.len() - MAX_SEATS] {
            let _ = st.remove_item(k);
        }
    }
    true
}

/// Forgets a key of the browser's storage.
pub fn forget_lasting(key: &str) {
    if let Some(st) = local_storage() {
        let _ = st.remove_item(key);
    }
}
