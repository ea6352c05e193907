//! What goes in and out of a [`Session`](super::Session): the local player's commands and why
//! one is refused, the effects to carry out (send, save, tell the user) and the events among
//! them, and where the other seat is.

use super::chains::Refusal;
use super::room::{RoomEvent, Void};
use super::wire::{DecodeError, Proposal, Seat, Step};
use std::fmt;

/// What the local player can do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// A game step (only when it is our turn).
    Play(Step),
    /// Open a proposal.
    Propose(Proposal),
    /// Answer the other side's open proposal.
    Reply {
        /// Accept or decline.
        accept: bool,
    },
    /// Withdraw our open proposal.
    Withdraw,
    /// Resign the current game.
    Resign,
    /// Claim the game: the other side stayed away past the reservation.
    ClaimWin,
    /// Host, before the first move: change the Morris turn limit.
    Settings {
        /// 1–500.
        max_turns: u16,
    },
    /// Host, before the first move of the first game: set the room's options (build them with
    /// [`Session::options`](super::Session::options)).
    Options(super::wire::Options),
    /// Leave the room.
    Leave,
    /// Ask the present player for the seat that is away, giving up ours, which another key
    /// holds (a session does it by itself when its `Hello` is refused; this asks again after a
    /// refusal, or for a seat that was handed away).
    Knock,
    /// Let the device knocking take the other seat, or not.
    Handover {
        /// Let it in.
        accept: bool,
    },
}

/// Why a command was refused (nothing was sent).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The room's rules refuse it now.
    Refused(Void),
    /// No open proposal to answer or withdraw.
    NoProposal,
    /// The proposal's minute ran out.
    Expired,
    /// The other side is not away long enough to claim the game.
    TooEarly,
    /// The room is forked or incompatible: play is suspended.
    Suspended,
    /// The other seat is away: the game waits for it (only resigning, withdrawing, claiming
    /// and leaving remain possible).
    PeerAway,
    /// No device is asking for the other seat.
    NoKnock,
    /// This device holds no seat (another key holds it; it may ask for the seat that is away).
    NotSeated,
    /// This device holds its seat: there is nothing to ask for.
    Seated,
    /// This seat's chain holds [`MAX_ENTRIES`](super::chains::MAX_ENTRIES) entries: the other
    /// side would refuse one more, so none is written.
    Full,
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Refused(v) => v.fmt(f),
            CommandError::NoProposal => f.write_str("no open proposal"),
            CommandError::Expired => f.write_str("the proposal expired"),
            CommandError::TooEarly => f.write_str("the seat is still reserved"),
            CommandError::Suspended => f.write_str("the room is suspended"),
            CommandError::PeerAway => f.write_str("the other player is away"),
            CommandError::NoKnock => f.write_str("no device is asking for the seat"),
            CommandError::NotSeated => f.write_str("this device holds no seat"),
            CommandError::Seated => f.write_str("this device already holds its seat"),
            CommandError::Full => f.write_str("this seat's transcript is full"),
        }
    }
}

impl std::error::Error for CommandError {}

/// Something the UI may want to show. Every change of the shared room comes as
/// [`Event::Room`]: a page renders again on events, it never compares states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// An entry (ours or the other seat's) took effect in the room: what it did.
    Room(RoomEvent),
    /// An entry that had taken effect lost it: an entry of the other seat that it had not
    /// seen arrived and folds before it (a race, e.g. our proposal crossing their
    /// resignation). Both sides end in the same state.
    Overtaken {
        /// The entry's seat.
        seat: Seat,
        /// Its sequence number.
        seq: u32,
        /// Why it is void now.
        why: Void,
    },
    /// Bytes from the peer were not a message of this protocol.
    Undecodable(DecodeError),
    /// An entry was refused on arrival.
    Refused {
        /// The claimed seat.
        seat: Seat,
        /// The claimed sequence number.
        seq: u32,
        /// Why.
        why: Refusal,
    },
    /// A signed entry of the other seat breaks the rules even in the state its sender declares
    /// it had seen: a faulty or hostile peer. (An entry void only because an entry of ours
    /// crossed it is a race both sides resolve alike, and is not reported.)
    Void {
        /// The sender.
        seat: Seat,
        /// Its sequence number.
        seq: u32,
        /// Why it changed nothing.
        why: Void,
    },
    /// Two signed entries with the same number: the seat's key is used twice (a copied tab?).
    Fork(Seat),
    /// The peer's presence changed.
    Presence(Presence),
    /// The device on the connection could not prove it holds the other seat's key: it is not
    /// the other player (that seat counts as away).
    Stranger,
    /// A new device, holding the room secret, asks for this seat, which is away: answer with
    /// [`Command::Handover`] before [`Session::knock`](super::Session::knock)'s deadline.
    Knock(Seat),
    /// The device that knocked is gone, or its minute ran out.
    KnockOver,
    /// Whether this device holds its seat changed.
    Standing(Standing),
    /// The other seat handed our seat to another key while we were here: it signed the
    /// hand-over on the connection on which it had proved its seat to us, or had not seen an
    /// entry we wrote while connected to it. An honest client never does it (it considers a
    /// knock only for a seat that is away). Nothing we wrote is undone — our entries it had not
    /// seen keep our key and stay in our transcript, the proof to export — but this device
    /// writes for the seat no more.
    HandedOverWhileHere {
        /// The hand-over entry's number in the other seat's chain.
        handover: u32,
        /// How many of our entries it crossed (they stand).
        crossed: u32,
    },
}

/// Whether this device holds its seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// Our key holds our seat (or will once our `Hello` is taken).
    Seated,
    /// Another key holds our seat: we ask the present player for the seat that is away.
    Knocking {
        /// When we asked (ms).
        since: u64,
    },
    /// The present player said no, or let the minute pass: we may ask again after
    /// [`COOLDOWN_MS`](super::room::COOLDOWN_MS).
    Refused {
        /// Nobody answered within the minute.
        expired: bool,
        /// When we heard (ms).
        at: u64,
    },
    /// The present player let another device take our seat while we were away.
    HandedAway,
}

/// What the UI should do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Send these bytes to the peer on the data channel.
    Send(Vec<u8>),
    /// The transcript changed: save [`Session::save`](super::Session::save).
    Save,
    /// Tell the user.
    Event(Event),
}

/// Where the other seat is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    /// Never connected yet in this session.
    Waiting,
    /// Connected and heard from recently.
    Here,
    /// Gone or silent since this time (ms): the seat is reserved until `since + reservation`.
    Away {
        /// When we last heard from it, or when the connection dropped.
        since: u64,
    },
}
