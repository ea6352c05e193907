//! Colours by lot (`docs/protocol.md`, « Colours by lot »): a draw at the start of each game that
//! neither seat can bias, as three signed facts and no trusted party.
//!
//! The host commits once, when it chooses the option, to a chain of [`LOT_GAMES`] values: the
//! commitment is the end of a hash chain `c₀ = s`, `cⱼ₊₁ = H(cⱼ)` from a secret `s` derived from
//! its key seed, and game `from + n` draws with `c_{K−1−n}`, the preimage of the value of the
//! game before it (of the commitment, for the first). So at the start of a game the host's value
//! is already fixed, and unknown to the guest (a preimage); the guest then writes its own value
//! (`LotGuess`), and the host reveals its own (`LotReveal`), which anyone checks by hashing it
//! back to the previous one. The host is Blue when the first bit of `H(host ‖ guest)` is 0. The
//! guest cannot aim, not knowing the host's value; the host cannot change its value after seeing
//! the guest's; it can only refuse to reveal, and then it stays silent: the guest may claim the
//! game once the seat's time has run out (`CLAIM_MS`), as from an absent player.
//!
//! ```
//! use engine::session::lot;
//!
//! let (seed, room) = ([1; 32], [2; 16]);
//! let commit = lot::commit(&seed, &room, 0);
//! let first = lot::host_value(&seed, &room, 0, 0).unwrap();
//! assert!(lot::reaches(&first, 1, &commit.0));
//! let third = lot::host_value(&seed, &room, 0, 2).unwrap();
//! assert!(lot::reaches(&third, 3, &commit.0) && !lot::reaches(&third, 2, &commit.0));
//! let guest = lot::guest_value(&[3; 32], &room, 0);
//! let _host_is_blue = lot::host_blue(&first, &guest);
//! ```

use super::wire::Digest32;
use sha2::{Digest, Sha256};

/// Games one commitment draws for; after them the colours alternate until the host chooses the
/// option again (a room of a thousand games is not a concern; each reveal costs at most this
/// many hashes to check).
pub const LOT_GAMES: u32 = 1000;

const SECRET_DOMAIN: &[u8] = b"moulin/lot/secret/v1";
const CHAIN_DOMAIN: &[u8] = b"moulin/lot/chain/v1";
const GUEST_DOMAIN: &[u8] = b"moulin/lot/guest/v1";
const DRAW_DOMAIN: &[u8] = b"moulin/lot/draw/v1";

/// SHA-256 of a domain and parts, one after the other.
fn hash(domain: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(domain);
    for part in parts {
        h.update(part);
    }
    h.finalize().into()
}

fn step(value: &[u8; 32]) -> [u8; 32] {
    hash(CHAIN_DOMAIN, &[value])
}

/// The chain's secret start, from the host's key seed (never sent), the room and the first game
/// it draws for.
fn secret(seed: &[u8; 32], room: &[u8; 16], from: u32) -> [u8; 32] {
    hash(SECRET_DOMAIN, &[seed, room, &from.to_le_bytes()])
}

/// `H` applied `times` times.
fn hashed(value: &[u8; 32], times: u32) -> [u8; 32] {
    (0..times).fold(*value, |v, _| step(&v))
}

/// The host's commitment to the draws of games `from` to `from + LOT_GAMES − 1`.
pub fn commit(seed: &[u8; 32], room: &[u8; 16], from: u32) -> Digest32 {
    Digest32(hashed(&secret(seed, room, from), LOT_GAMES))
}

/// The host's value for game `game` of the chain that starts at `from`; `None` outside it.
pub fn host_value(seed: &[u8; 32], room: &[u8; 16], from: u32, game: u32) -> Option<[u8; 32]> {
    let n = game.checked_sub(from).filter(|&n| n < LOT_GAMES)?;
    Some(hashed(&secret(seed, room, from), LOT_GAMES - 1 - n))
}

/// True when `value`, hashed `times` times (1 to [`LOT_GAMES`]), gives `anchor`: the value
/// revealed for a game `times` games after the one `anchor` was revealed for (or after the
/// commitment, for the chain's first games). Costs at most `LOT_GAMES` hashes.
pub fn reaches(value: &[u8; 32], times: u32, anchor: &[u8; 32]) -> bool {
    (1..=LOT_GAMES).contains(&times) && hashed(value, times) == *anchor
}

/// The guest's value for a game, from its key seed: any value serves, it cannot aim.
pub fn guest_value(seed: &[u8; 32], room: &[u8; 16], game: u32) -> [u8; 32] {
    hash(GUEST_DOMAIN, &[seed, room, &game.to_le_bytes()])
}

/// The draw: the host plays Blue (and moves first) when this is true.
pub fn host_blue(host: &[u8; 32], guest: &[u8; 32]) -> bool {
    hash(DRAW_DOMAIN, &[host, guest])[0] & 1 == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_value_hashes_back_to_the_one_before_and_to_the_commitment() {
        let (seed, room) = ([9; 32], [8; 16]);
        let c = commit(&seed, &room, 5);
        let mut anchor = c.0;
        for game in 5..12 {
            let v = host_value(&seed, &room, 5, game).unwrap();
            assert!(reaches(&v, 1, &anchor), "game {game}");
            assert!(!reaches(&v, 2, &anchor));
            anchor = v;
        }
        // Skipping games (colours alternated meanwhile): more hashes, same check.
        let later = host_value(&seed, &room, 5, 40).unwrap();
        assert!(reaches(&later, 40 - 11, &anchor));
        assert_eq!(host_value(&seed, &room, 5, 4), None);
        assert_eq!(host_value(&seed, &room, 5, 5 + LOT_GAMES), None);
        assert!(host_value(&seed, &room, 5, 4 + LOT_GAMES).is_some());
        // Another seed, room or start: another chain.
        assert_ne!(commit(&[1; 32], &room, 5), c);
        assert_ne!(commit(&seed, &[1; 16], 5), c);
        assert_ne!(commit(&seed, &room, 6), c);
        assert!(!reaches(&anchor, 0, &anchor) && !reaches(&anchor, LOT_GAMES + 1, &c.0));
    }

    #[test]
    fn the_draw_gives_both_colours() {
        let host = host_value(&[1; 32], &[2; 16], 0, 0).unwrap();
        let mut blue = 0;
        for game in 0..200 {
            blue += u32::from(host_blue(&host, &guest_value(&[3; 32], &[2; 16], game)));
        }
        // Half and half, within a wide margin (200 fair coins: 100 ± 35 is 5 sigma).
        assert!((65..=135).contains(&blue), "{blue}");
    }
}
