//! A seat in a remote room, as the pages outside the room need it: the host's new room (the
//! lobby), and a seat read back from what the browser's storage keeps. Both bundles have it: the
//! lobby is in the first, the room page in the other ([`crate::model::room`]).

use engine::morris::Rules;
use engine::session::{Command, Config, Preview, RestoreError, SaveCursor, Session};
use engine::GameKind;

/// The invitation and the saved seat, as the pages pass them from the URL and the storage to
/// the room.
pub use engine::session::{Invite, SaveParts, Saved};

/// Why a room cannot open, or be created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpenError {
    /// The link is damaged.
    Malformed,
    /// The link announces Morris rules that cannot be.
    BadRules,
    /// The link is for the other game (and its fragment, to follow it there).
    OtherGame(GameKind, String),
    /// The seat the storage keeps cannot be read.
    BadSave,
    /// No random bytes: the browser has no secure random source.
    NoRandom,
    /// The session refused to be made (keys or options it cannot sign).
    CannotCreate,
}

/// Reads a seat as the storage keeps it: in parts (`text` is the head, `chunk(n)` reads each
/// chunk), or in one text (a seat saved before saves came in parts).
pub fn read_seat(text: &str, chunk: impl Fn(usize) -> Option<String>) -> Result<Saved, OpenError> {
    let read = if Saved::is_head(text) {
        Saved::chunks_of(text).and_then(|count| {
            let chunks: Option<Vec<String>> = (0..count).map(chunk).collect();
            Saved::from_parts(text, &chunks.ok_or(RestoreError::Unreadable)?)
        })
    } else {
        Saved::from_text(text)
    };
    read.map_err(|_| OpenError::BadSave)
}

/// A room just created by its host: what the lobby keeps and where it goes.
#[derive(Clone, Debug)]
pub struct Hosted {
    /// The room's name (its seat is kept under it).
    pub room: String,
    /// The host's seat, whole: kept before the room page opens, or it would make the host a
    /// guest of its own room.
    pub save: SaveParts,
    /// The room page's URL fragment, which announces the options.
    pub fragment: String,
}

/// Creates the host's room from random bytes (`None`: the browser has none): keys, code and
/// session, and the options signed before anyone joins when they are not the defaults (Morris
/// rules, colours by lot).
pub fn host_room(
    kind: GameKind,
    max_turns: u16,
    rules: Rules,
    lot: bool,
    random: Option<([u8; 32], [u8; 8])>,
    now: u64,
) -> Result<Hosted, OpenError> {
    let (seed, code) = random.ok_or(OpenError::NoRandom)?;
    let code = Invite::new_code(code);
    let cannot = |_| OpenError::CannotCreate;
    let mut invite = Invite::with_code(kind, max_turns, &code, seed).map_err(cannot)?;
    let mut session =
        Session::host(invite.clone(), seed, Config::default(), now).map_err(cannot)?;
    if !rules.is_default() || lot {
        let limit = session.room().options().max_turns;
        let options = session.options(limit, rules, lot, 0);
        session
            .act(Command::Options(options), now)
            .map_err(|_| OpenError::CannotCreate)?;
        invite.preview = Some(Preview { rules, lot });
    }
    Ok(Hosted {
        room: invite.room_name(),
        save: session.save_parts(SaveCursor::default()),
        fragment: invite.to_fragment(),
    })
}

/// The pairing text (« Sans serveur », issue #25) in what was pasted: the text itself, or a link
/// whose fragment carries it (`…#p=<text>`), even inside a sentence, the spaces and line breaks
/// a chat may add left out. The lobby (a guest's offer) and the room page read it alike.
pub fn pairing_text_in(pasted: &str) -> String {
    let fragment = pasted
        .bytes()
        .rposition(|b| b == b'#')
        .map_or(pasted, |at| &pasted[at + 1..]);
    let text = fragment.strip_prefix("p=").unwrap_or(fragment);
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

#[cfg(test)]
mod tests {
    use super::pairing_text_in;

    #[test]
    fn a_pairing_text_is_found_in_a_link_a_sentence_or_a_wrapped_paste() {
        let link = "https://example.org/moulin/sans-serveur#p=AbC-_9";
        assert_eq!(pairing_text_in(link), "AbC-_9");
        assert_eq!(
            pairing_text_in(&format!("voici le lien : {link}")),
            "AbC-_9"
        );
        assert_eq!(pairing_text_in("  AbC\n-_9 \n"), "AbC-_9");
        // A room's link is no pairing text: what follows its `#` is read, and refused later.
        assert_eq!(
            pairing_text_in("https://example.org/moulin/salon#g=morris&c=ab"),
            "g=morris&c=ab"
        );
        assert_eq!(pairing_text_in(""), "");
    }
}
