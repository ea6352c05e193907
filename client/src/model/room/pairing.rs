//! Pairing without a relay (« Sans serveur », issue #25), as the room page reads and writes it:
//! the texts two people pass by hand, what they carry beside the connection's description, and
//! what is wrong with a text pasted in the wrong place. The texts themselves are
//! `client_net::pairing::Signal`s.
//!
//! - The host's **offer** carries the invitation too ([`invite_bytes`]: the game, the limit, the
//!   room, the host's key and the room secret in 67 bytes, then the link's options as text), so
//!   that the offer alone — a link `…/sans-serveur#p=<offer>`, the text, or its QR code — lets
//!   the guest in. It carries nothing the invitation link does not.
//! - The guest's **answer** names the offer it answers (`Signal::answers`) and carries nothing
//!   else.
//! - A room paired by hand has its own page, `/moulin/sans-serveur#<invitation>` (the same room
//!   page, in its own bundle); the guest's first one, opened from the offer, is `#p=<offer>`.
//!
//! ```
//! use client::model::room::pairing::{invite_bytes, invite_of_bytes};
//! use engine::session::Invite;
//! use engine::GameKind;
//!
//! let invite = Invite::new(GameKind::Meta, 100, [1; 16], [2; 32], [3; 16]);
//! let bytes = invite_bytes(&invite);
//! assert_eq!(bytes.len(), 67);
//! assert_eq!(invite_of_bytes(&bytes).unwrap(), invite);
//! ```

use crate::i18n::t;
use crate::model::seat::Invite;
use client_net::pairing::{Kind, PairingError, Signal};
use engine::GameKind;

/// Bytes of the invitation's fixed part: game, limit, room, host's key, secret.
const FIXED: usize = 1 + 2 + 16 + 32 + 16;

/// The invitation as an offer carries it: the game (0 Morris, 1 Méta Morpion), the turn limit
/// (little-endian), the room, the host's key and the secret, then the link's other fields as
/// text (`&v=…&l=1`, the options it announces). `None` for an invitation without the host's
/// key (a guest by code): only the host makes offers.
pub fn invite_bytes(invite: &Invite) -> Vec<u8> {
    let mut out = Vec::with_capacity(FIXED + 16);
    out.push(match invite.rules.kind() {
        GameKind::Morris => 0,
        GameKind::Meta => 1,
    });
    out.extend(invite.rules.max_turns.to_le_bytes());
    out.extend(invite.room.0);
    out.extend(invite.host_key.unwrap_or_default());
    out.extend(invite.secret);
    // The options the link announces, as the link writes them.
    let fragment = invite.to_fragment();
    for field in fragment.split('&') {
        if field.starts_with("v=") || field.starts_with("l=") {
            out.push(b'&');
            out.extend(field.as_bytes());
        }
    }
    out
}

/// Reads [`invite_bytes`] back, through the invitation link's own reader: what it refuses is
/// refused here too.
pub fn invite_of_bytes(bytes: &[u8]) -> Result<Invite, TextError> {
    if bytes.len() < FIXED {
        return Err(TextError::Unreadable);
    }
    let game = match bytes[0] {
        0 => GameKind::Morris,
        1 => GameKind::Meta,
        _ => return Err(TextError::Unreadable),
    };
    let hex = engine::session::wire::hex;
    let rest = std::str::from_utf8(&bytes[FIXED..]).map_err(|_| TextError::Unreadable)?;
    if !(rest.is_empty() || rest.starts_with('&')) {
        return Err(TextError::Unreadable);
    }
    let fragment = format!(
        "g={}&t={}&r={}&k={}&s={}{rest}",
        game.as_str(),
        u16::from_le_bytes([bytes[1], bytes[2]]),
        hex(&bytes[3..19]),
        hex(&bytes[19..51]),
        hex(&bytes[51..67]),
    );
    // The room's own reader (one caller of the invitation's parser: 1 KB less in the page).
    super::read_invite(&fragment, game).map_err(|_| TextError::Unreadable)
}

/// What is wrong with a pasted text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextError {
    /// Not a pairing text (or mangled beyond reading).
    Unreadable,
    /// Cut short when copied.
    Truncated,
    /// Written by another version of the site.
    OtherVersion,
    /// An offer where the answer goes.
    OfferNotAnswer,
    /// This page's own offer, pasted back.
    OwnOffer,
    /// An answer to another offer (an older one, or another room's).
    Stale,
    /// An answer where the offer goes.
    AnswerNotOffer,
    /// An offer for another room than this page's.
    OtherRoom,
    /// An offer for the other game.
    OtherGame(GameKind),
}

impl TextError {
    /// The page's sentence for it.
    pub fn text(self) -> &'static str {
        match self {
            TextError::Unreadable => t::pairing_unreadable(),
            TextError::Truncated => t::pairing_truncated(),
            TextError::OtherVersion => t::pairing_other_version(),
            TextError::OfferNotAnswer => t::pairing_offer_not_answer(),
            TextError::OwnOffer => t::pairing_own_offer(),
            TextError::Stale => t::pairing_stale(),
            TextError::AnswerNotOffer => t::pairing_answer_not_offer(),
            TextError::OtherRoom => t::pairing_other_room(),
            TextError::OtherGame(GameKind::Morris) => t::pairing_for_morris(),
            TextError::OtherGame(GameKind::Meta) => t::pairing_for_meta(),
        }
    }
}

/// The shortest text a signal writes (one IPv4 candidate, no application data): anything
/// shorter is no pairing text, whatever its first byte says.
const SHORTEST: usize = 90;

fn decode(pasted: &str) -> Result<Signal, TextError> {
    let text = crate::model::seat::pairing_text_in(pasted);
    if text.len() < SHORTEST / 2 {
        return Err(TextError::Unreadable);
    }
    Signal::decode(&text).map_err(|e| match e {
        PairingError::Truncated => TextError::Truncated,
        PairingError::Version(_) => TextError::OtherVersion,
        _ => TextError::Unreadable,
    })
}

/// The host reads the guest's answer to `offer` (our offer, as we sent it).
pub fn read_answer(pasted: &str, offer: &Signal) -> Result<Signal, TextError> {
    let answer = decode(pasted)?;
    match answer.kind {
        Kind::Offer if answer.tag() == offer.tag() => Err(TextError::OwnOffer),
        Kind::Offer => Err(TextError::OfferNotAnswer),
        Kind::Answer if answer.answers != offer.tag() => Err(TextError::Stale),
        Kind::Answer => Ok(answer),
    }
}

/// The guest reads the host's offer, with the invitation it carries: for a room of `kind`, and
/// this very room when `room` is given (a new exchange in a room already open).
pub fn read_offer(
    pasted: &str,
    kind: GameKind,
    room: Option<&Invite>,
) -> Result<(Signal, Invite), TextError> {
    let offer = decode(pasted)?;
    if offer.kind != Kind::Offer {
        return Err(TextError::AnswerNotOffer);
    }
    let invite = invite_of_bytes(&offer.extra)?;
    if invite.rules.kind() != kind {
        return Err(TextError::OtherGame(invite.rules.kind()));
    }
    if room.is_some_and(|r| r.room != invite.room || r.host_key != invite.host_key) {
        return Err(TextError::OtherRoom);
    }
    Ok((offer, invite))
}

#[cfg(test)]
mod tests {
    use super::*;
    use client_net::pairing::{Candidate, Hash, Setup};

    fn signal(kind: Kind, ufrag: &str) -> Signal {
        Signal {
            kind,
            setup: Setup::ActPass,
            ufrag: ufrag.into(),
            pwd: "abcdefghijklmnopqrstuvwx".into(),
            hash: Hash::Sha256,
            fingerprint: vec![7; 32],
            candidates: vec![Candidate {
                kind: client_net::pairing::CandidateType::Host,
                address: client_net::pairing::Address::V4([192, 168, 1, 20]),
                port: 50_000,
            }],
            answers: 0,
            extra: Vec::new(),
        }
    }

    #[test]
    fn an_invitation_with_its_options_rides_in_an_offer_and_comes_back_whole() {
        let mut invite = Invite::new(GameKind::Morris, 150, [9; 16], [4; 32], [5; 16]);
        invite.preview = Some(engine::session::Preview {
            rules: engine::morris::Rules::TWELVE,
            lot: true,
        });
        let bytes = invite_bytes(&invite);
        assert!(bytes.len() < 100, "{}", bytes.len());
        assert_eq!(invite_of_bytes(&bytes).unwrap(), invite);
        let mut offer = signal(Kind::Offer, "Wx9q");
        offer.extra = bytes;
        let text = offer.encode();
        let link = format!("https://example.org/moulin/sans-serveur#p={text}");
        // The link stays short: the offer of one candidate with the invitation.
        assert!(link.len() <= 300, "{} characters", link.len());
        let (read, back) = read_offer(&link, GameKind::Morris, None).unwrap();
        assert_eq!((read, back.clone()), (offer.clone(), invite.clone()));
        // In the other game's lobby, or a new exchange for another room: said so.
        assert_eq!(
            read_offer(&text, GameKind::Meta, None),
            Err(TextError::OtherGame(GameKind::Morris))
        );
        let other = Invite::new(GameKind::Morris, 150, [8; 16], [4; 32], [5; 16]);
        assert_eq!(
            read_offer(&text, GameKind::Morris, Some(&other)),
            Err(TextError::OtherRoom)
        );
        assert!(read_offer(&text, GameKind::Morris, Some(&back)).is_ok());
        // Bytes that are no invitation.
        assert_eq!(invite_of_bytes(&[1; 10]), Err(TextError::Unreadable));
        let mut bad = invite_bytes(&invite);
        bad[0] = 7;
        assert_eq!(invite_of_bytes(&bad), Err(TextError::Unreadable));
    }

    #[test]
    fn texts_in_the_wrong_box_stale_or_cut_are_told_apart() {
        let offer = signal(Kind::Offer, "Wx9q");
        let mut answer = signal(Kind::Answer, "Ab12");
        answer.answers = offer.tag();
        let text = answer.encode();
        // A chat may cut the text in lines: still read.
        let wrapped = format!("{}\n{}", &text[..20], &text[20..]);
        assert_eq!(read_answer(&wrapped, &offer), Ok(answer.clone()));
        assert_eq!(
            read_answer(&offer.encode(), &offer),
            Err(TextError::OwnOffer)
        );
        let other_offer = signal(Kind::Offer, "Zz99");
        assert_eq!(
            read_answer(&other_offer.encode(), &offer),
            Err(TextError::OfferNotAnswer)
        );
        assert_eq!(read_answer(&text, &other_offer), Err(TextError::Stale));
        assert_eq!(
            read_offer(&text, GameKind::Meta, None),
            Err(TextError::AnswerNotOffer)
        );
        assert_eq!(
            read_answer(&text[..text.len() - 6], &offer),
            Err(TextError::Truncated)
        );
        for junk in ["", "bonjour !", "https://example.org/moulin/salon#g=morris"] {
            assert_eq!(
                read_answer(junk, &offer),
                Err(TextError::Unreadable),
                "{junk}"
            );
        }
        // Every error has its sentence.
        for e in [
            TextError::Unreadable,
            TextError::Truncated,
            TextError::OtherVersion,
            TextError::OfferNotAnswer,
            TextError::OwnOffer,
            TextError::Stale,
            TextError::AnswerNotOffer,
            TextError::OtherRoom,
            TextError::OtherGame(GameKind::Morris),
            TextError::OtherGame(GameKind::Meta),
        ] {
            assert!(!e.text().is_empty());
        }
    }
}
