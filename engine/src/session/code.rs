//! Short invitation codes a friend can type: 12 characters of Crockford base32 (60 bits),
//! shown as `K7M2-Q9XD-4HPA`. The room id and the room secret are both derived from the code,
//! so the code alone is the invitation (the host's key is learned from its `Hello`).

use super::wire::RoomId;
use crate::GameKind;
use sha2::{Digest, Sha256};

/// Crockford's base32 alphabet: digits and capitals without I, L, O and U.
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// Characters in a code (5 bits each: 60 bits).
pub(super) const LEN: usize = 12;

/// Rooms of codes made before a code knew its game (a saved seat of then still restores).
const ROOM_DOMAIN_V1: &[u8] = b"moulin code room v1\0";
const ROOM_DOMAIN: &[u8] = b"moulin code room v2\0";
const SECRET_DOMAIN: &[u8] = b"moulin code secret v1\0";

/// The canonical code made of the first 60 of these 64 random bits.
pub(super) fn new_code(random: [u8; 8]) -> String {
    let bits = u64::from_be_bytes(random) >> 4;
    (0..LEN)
        .map(|i| ALPHABET[((bits >> (5 * (LEN - 1 - i))) & 31) as usize] as char)
        .collect()
}

/// The canonical code (12 uppercase characters, no separators) of typed text: lowercase is
/// read as uppercase, spaces and dashes anywhere are skipped, O reads as 0 and I and L as 1.
/// `None` for any other character or another length.
pub(super) fn normalize(text: &str) -> Option<String> {
    let mut code = String::with_capacity(LEN);
    for c in text.chars() {
        // Typographic dashes too: phones turn "-" into them.
        if c.is_whitespace() || matches!(c, '-' | '\u{2010}'..='\u{2015}' | '\u{2212}') {
            continue;
        }
        let c = match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            c => c,
        };
        if code.len() == LEN || !c.is_ascii() || !ALPHABET.contains(&(c as u8)) {
            return None;
        }
        code.push(c);
    }
    (code.len() == LEN).then_some(code)
}

/// A canonical code in groups of four: `XXXX-XXXX-XXXX`.
pub(super) fn format(code: &str) -> String {
    let mut out = String::with_capacity(LEN + 2);
    for (i, c) in code.chars().enumerate() {
        if i > 0 && i % 4 == 0 {
            out.push('-');
        }
        out.push(c);
    }
    out
}

/// The first 16 bytes of SHA-256(domain ‖ code).
fn derive(domain: &[u8], code: &str) -> [u8; 16] {
    derive_bytes(domain, code.as_bytes())
}

/// The first 16 bytes of SHA-256(domain ‖ bytes).
fn derive_bytes(domain: &[u8], bytes: &[u8]) -> [u8; 16] {
    let mut h = Sha256::new();
    h.update(domain);
    h.update(bytes);
    let digest: [u8; 32] = h.finalize().into();
    let mut out = [0; 16];
    out.copy_from_slice(&digest[..16]);
    out
}

/// The room of a canonical code for a game: the first 16 bytes of
/// SHA-256("moulin code room v2\0" ‖ game ‖ "\0" ‖ code). The game is in it so that a code typed
/// in the other game's lobby names a room nobody is in, instead of a seat in a room that can
/// never be played (the lobby then finds the right game: `docs/protocol.md`, « Short codes »).
pub(super) fn room(code: &str, game: GameKind) -> RoomId {
    let mut named = game.as_str().as_bytes().to_vec();
    named.push(0);
    named.extend_from_slice(code.as_bytes());
    RoomId(derive_bytes(ROOM_DOMAIN, &named))
}

/// The room a code named before it knew its game (version 1 of the derivation).
pub(super) fn room_v1(code: &str) -> RoomId {
    RoomId(derive(ROOM_DOMAIN_V1, code))
}

/// The room secret of a canonical code: the first 16 bytes of
/// SHA-256("moulin code secret v1\0" ‖ code).
pub(super) fn secret(code: &str) -> [u8; 16] {
    derive(SECRET_DOMAIN, code)
}
