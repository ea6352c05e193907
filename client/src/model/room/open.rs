//! Opening a room, as the model does it: the invitation read from the URL fragment, the seat
//! read back from what the storage keeps ([`crate::model::seat`]), the session restored or made.
//! The page only reads and writes the storage and the URL, and brings the random bytes.

use super::RoomModel;
use crate::model::seat::{Invite, OpenError, Saved};
use engine::session::{Config, InviteError, Session};
use engine::GameKind;

/// Reads the invitation in a URL fragment (with or without its `#`) for a room of `kind`.
pub fn read_invite(fragment: &str, kind: GameKind) -> Result<Invite, OpenError> {
    let invite = Invite::from_fragment(fragment).map_err(|e| match e {
        InviteError::BadRules => OpenError::BadRules,
        _ => OpenError::Malformed,
    })?;
    let other = invite.rules.kind();
    if other != kind {
        let fragment = fragment.trim_start_matches('#').to_string();
        return Err(OpenError::OtherGame(other, fragment));
    }
    Ok(invite)
}

/// A seat a tab kept before seats were kept per room (one per game), if it is this room's.
pub fn read_old_seat(text: &str, invite: &Invite) -> Option<Saved> {
    Saved::from_text(text)
        .ok()
        .filter(|s| s.invite.room == invite.room)
}

impl<P: Copy + Eq> RoomModel<P> {
    /// Opens the room of an invitation: the seat the storage keeps (`saved`), else a new guest
    /// made from `seed` (`None`: the browser has no random source). The page keeps the whole
    /// seat at once ([`RoomModel::save_parts`], then [`RoomModel::save_kept`]).
    pub fn open(
        invite: Invite,
        saved: Option<Saved>,
        seed: Option<[u8; 32]>,
        now: u64,
    ) -> Result<RoomModel<P>, OpenError> {
        let session = match saved {
            Some(saved) => Session::restore(saved).map_err(|_| OpenError::BadSave)?,
            None => {
                let seed = seed.ok_or(OpenError::NoRandom)?;
                Session::guest(invite, seed, Config::default(), now)
            }
        };
        Ok(RoomModel::new(session))
    }
}
