//! The wording of the room page: status lines, refusals, proposals, endings, presence and the
//! relay connection, in the current language (the texts are in the catalogues:
//! [`crate::i18n`]).

use crate::i18n::{t, Text};
use crate::model::text;
use client_net::{Down, Refusal, Relay};
use engine::morris::Phase;
use engine::session::{
    Colours, CommandError, Ending, Options, Presence, Proposal, RoomEvent, Seat, Session, Standing,
    Void,
};
use engine::{AnyGame, Player};

/// Why the local player cannot move now, if they cannot.
pub fn cannot_move(s: &Session) -> Option<fn() -> &'static str> {
    Some(if s.suspended() {
        t::suspended
    } else if s.game().is_none() {
        t::not_started
    } else if !s.room().in_progress() {
        t::over_propose
    } else if s.presence() != Presence::Here {
        t::peer_away
    } else if !s.my_turn() {
        t::not_your_turn_wait
    } else {
        return None;
    })
}

/// A refused command (`proposal`: the one asked for, to say how long a cooldown lasts), with
/// what the room says of it now.
pub fn refusal(s: &Session, e: CommandError, proposal: Option<Proposal>, now: u64) -> Text {
    let required = match s.game() {
        Some(AnyGame::Meta(g)) => g.required_board(),
        _ => None,
    };
    let is_morris = matches!(s.game(), Some(AnyGame::Morris(_)));
    match e {
        CommandError::Refused(Void::Illegal(i)) if is_morris => {
            return Text::new(move || text::morris_refusal(i))
        }
        CommandError::Refused(Void::Illegal(i)) => {
            return Text::new(move || text::meta_refusal(i, required))
        }
        CommandError::Refused(Void::CoolingDown) => {
            let wait = proposal
                .and_then(|p| s.cooling_until(p))
                .or(s.knock_again_at())
                .map_or(0, |until| until.saturating_sub(now));
            return Text::new(move || t::cooling_down(&seconds(wait)));
        }
        _ => {}
    }
    Text::of(match e {
        CommandError::Refused(Void::NotYourTurn) => cannot_move(s).unwrap_or(t::not_your_turn),
        CommandError::Refused(Void::GameOver) => t::over_propose,
        CommandError::Refused(Void::AlreadyProposing) => t::already_proposing,
        CommandError::Refused(Void::NothingToUndo) => t::nothing_to_undo,
        CommandError::Refused(Void::TooLate) => t::limit_too_late,
        CommandError::Refused(Void::NotHost) => t::host_only,
        CommandError::Refused(_) => t::impossible_now,
        CommandError::NoProposal => t::no_proposal,
        CommandError::Expired => t::proposal_expired,
        CommandError::TooEarly => t::seat_reserved,
        CommandError::Suspended => t::suspended,
        CommandError::PeerAway => t::peer_away,
        CommandError::NoKnock => t::no_knock,
        CommandError::NotSeated => t::not_seated,
        CommandError::Seated => t::seated,
        CommandError::Full => t::transcript_full,
    })
}

/// « 12 s », « 1 min 40 s ».
pub fn seconds(ms: u64) -> String {
    let s = ms.div_ceil(1000);
    let (m, s) = ((s / 60).to_string(), (s % 60).to_string());
    match (m.as_str(), s.as_str()) {
        ("0", s) => t::secs(s),
        (m, "0") => t::mins(m),
        (m, s) => t::mins_secs(m, s),
    }
}

/// What a proposal asks for, as the end of a sentence.
pub fn proposal_text(p: Proposal) -> String {
    match p {
        Proposal::Undo => t::ask_undo().to_string(),
        Proposal::Draw => t::ask_draw().to_string(),
        Proposal::NewGame { max_turns: None } => t::ask_new_game().to_string(),
        Proposal::NewGame { max_turns: Some(n) } => t::ask_new_game_limit(&n.to_string()),
        Proposal::NewGameWith(o) => t::ask_new_game_options(&options_text(o)),
    }
}

/// A room's options in words: « Classique, 100 tours au plus, couleurs tirées au sort ».
pub fn options_text(o: Options) -> String {
    let colours = match o.colours {
        Colours::Alternate => t::colours_alternate(),
        Colours::Lot { .. } => t::colours_lot(),
    };
    if o.max_turns == 0 {
        return t::options_meta(colours);
    }
    t::options_morris(
        &text::rules_name(o.rules),
        &o.max_turns.to_string(),
        colours,
    )
}

/// The other side's proposal, as the title of its dialog.
pub fn their_proposal(p: Proposal) -> String {
    match p {
        Proposal::Undo => t::they_ask_undo().to_string(),
        Proposal::Draw => t::they_ask_draw().to_string(),
        Proposal::NewGame { .. } | Proposal::NewGameWith(_) => t::they_propose(&proposal_text(p)),
    }
}

/// What a room event means for our own proposal, when it closed it.
pub fn our_proposal_news(event: &RoomEvent, me: Seat) -> Option<Text> {
    Some(match *event {
        RoomEvent::Accepted { seat, proposal, .. } if seat == me => {
            Text::new(move || t::they_accepted(&proposal_text(proposal)))
        }
        RoomEvent::Declined { seat, proposal, .. } if seat == me => {
            Text::new(move || t::they_declined(&proposal_text(proposal)))
        }
        RoomEvent::Withdrawn {
            seat,
            expired: true,
            ..
        } if seat == me => Text::of(t::ours_expired),
        RoomEvent::Withdrawn { seat, .. } if seat == me => Text::of(t::ours_withdrawn),
        RoomEvent::Lapsed { seat, proposal, .. } if seat == me => {
            Text::new(move || t::ours_lapsed(&proposal_text(proposal)))
        }
        _ => return None,
    })
}

/// What a room event about the other side's proposal tells the live region: its arrival, or
/// its end without our answer (our own answers and proposals have their notices).
pub fn their_proposal_news(event: &RoomEvent, me: Seat) -> Option<String> {
    Some(match *event {
        RoomEvent::Proposed { seat, proposal, .. } if seat != me => their_proposal(proposal),
        RoomEvent::Withdrawn {
            seat,
            expired: true,
            ..
        } if seat != me => t::theirs_expired().to_string(),
        RoomEvent::Withdrawn { seat, .. } if seat != me => t::theirs_withdrawn().to_string(),
        _ => return None,
    })
}

/// A change of the other seat's presence, for the live region (the panel's line counts down
/// every second: too chatty to be live itself).
pub fn presence_news(before: Presence, now: Presence, s: &Session, at: u64) -> Option<String> {
    Some(match (before, now) {
        (Presence::Here, Presence::Away { .. }) => match s.reserved_until() {
            Some(until) if at < until => t::left_kept(&countdown(until - at)),
            _ => t::left().to_string(),
        },
        (Presence::Away { .. }, Presence::Here) => t::back().to_string(),
        (Presence::Waiting, Presence::Here) => t::arrived().to_string(),
        _ => return None,
    })
}

/// A countdown: « 4:05 ».
pub fn countdown(ms: u64) -> String {
    let s = ms.div_ceil(1000);
    format!("{}:{:02}", s / 60, s % 60)
}

/// The colour name of a player, with « (vous) » for ours.
fn who(s: &Session, p: Player) -> String {
    if p == s.player() {
        t::you_mark(text::player_name(p))
    } else {
        text::player_name(p).to_string()
    }
}

/// How the room's game `g` ended, if it did — by the players (resigned, agreed, claimed,
/// left, forked) or on the board —, each seat named by `player`.
pub fn game_over(
    room: &engine::session::Room,
    g: &AnyGame,
    player: impl Fn(Seat) -> String,
) -> Option<String> {
    if let Some(ending) = room.ending {
        return Some(ending_text(ending, player));
    }
    match g {
        AnyGame::Morris(m) => text::morris_result(m),
        AnyGame::Meta(_) => g.outcome().map(|o| text::result(o, 0)),
    }
}

/// A game the players ended (resigned, agreed, claimed, left, forked), with each seat named by
/// `player`.
fn ending_text(ending: Ending, player: impl Fn(Seat) -> String) -> String {
    match ending {
        Ending::Resigned(seat) => t::won_resigned(&player(seat.other()), &player(seat)),
        Ending::DrawAgreed => t::draw_agreed().to_string(),
        Ending::Claimed(seat) => t::won_claimed(&player(seat), &player(seat.other())),
        Ending::Left(seat) => t::won_left(&player(seat.other()), &player(seat)),
        Ending::Forked(seat) => t::won_forked(&player(seat.other()), &player(seat)),
    }
}

/// The line under the board: the result, whose turn and what to do, or what we wait for.
pub fn status(s: &Session) -> String {
    let room = s.room();
    let Some(g) = s.game().filter(|_| room.incompatible.is_none()) else {
        return waiting_status(s).to_string();
    };
    // Our own key forked: nothing to play here. The other seat's fork counts against it: the
    // game ends by its proof, or goes on until the claim.
    if s.standing() != Standing::Seated || s.suspended() {
        return waiting_status(s).to_string();
    }
    if room.ending.is_none() && s.forked_seat() == Some(s.seat().other()) {
        return t::forked_there().to_string();
    }
    if let Some(over) = game_over(room, g, |seat| who(s, room.player_of(seat))) {
        return over;
    }
    if !room.hello[Seat::Guest.index()] {
        return t::waiting_guest().to_string();
    }
    if room.draw_pending() {
        return t::drawing().to_string();
    }
    let mover = g.to_move();
    if mover != s.player() {
        return t::their_turn(text::player_name(mover));
    }
    let me = text::player_name(mover);
    match g {
        AnyGame::Morris(m) => match m.phase() {
            Phase::Capture => t::mine_capture(text::colour(mover.opponent())),
            _ if m.is_placing() && m.rules().lasker() => t::mine_place_or_move(me),
            _ if m.is_placing() => t::mine_place(me),
            _ => t::mine_move(me),
        },
        AnyGame::Meta(m) => match m.required_board() {
            Some(b) => t::mine_board(me, text::board_place(b)),
            None => t::mine_free(me),
        },
    }
}

/// The status line while there is no game to play here: another game or version, no seat, a
/// forked seat, or the host not met yet.
fn waiting_status(s: &Session) -> &'static str {
    let room = s.room();
    if room.incompatible == Some(Void::OtherGame) {
        t::other_game()
    } else if room.incompatible.is_some() {
        t::other_version()
    } else if s.standing() != Standing::Seated {
        t::not_seated()
    } else if let Some(seat) = s.forked_seat() {
        if seat == s.seat() {
            t::forked_here()
        } else {
            t::forked_there()
        }
    } else {
        t::connecting_host()
    }
}

/// The presence of the other seat: the `data-presence` hook and the sentence.
pub fn presence(s: &Session, now: u64) -> (&'static str, String) {
    if s.standing() != Standing::Seated {
        // Not a player here: nobody is « votre adversaire ».
        return if s.presence() == Presence::Here {
            ("player-here", t::player_here().to_string())
        } else {
            ("no-player", t::no_player().to_string())
        };
    }
    let left = |until: u64| (now < until).then(|| countdown(until - now));
    if s.stranger() && s.presence() != Presence::Here {
        let text = match s.reserved_until() {
            Some(until) => match left(until) {
                Some(time) => t::stranger_kept(&time),
                None => t::stranger_late().to_string(),
            },
            None => t::stranger().to_string(),
        };
        return ("stranger", text);
    }
    match s.presence() {
        Presence::Waiting => ("waiting", t::opponent_waiting().to_string()),
        Presence::Here => ("here", t::opponent_here().to_string()),
        Presence::Away { .. } => {
            let text = match left(s.reserved_until().unwrap_or(now)) {
                Some(time) => t::opponent_away(&time),
                None => t::opponent_late().to_string(),
            };
            ("away", text)
        }
    }
}

/// What a device without a seat reads: its standing, and what it may do.
pub fn standing(s: &Session) -> Option<(&'static str, String)> {
    Some(match s.standing() {
        Standing::Seated => return None,
        Standing::Knocking { .. } => ("knocking", t::knocking().to_string()),
        Standing::Refused { expired: false, .. } => ("refused", t::knock_refused().to_string()),
        Standing::Refused { expired: true, .. } => ("refused", t::knock_unanswered().to_string()),
        Standing::HandedAway if s.handed_over_while_here() => (
            "handed-away",
            t::handed_away_here(text::player_name(s.room().player_of(s.seat()))),
        ),
        Standing::HandedAway => (
            "handed-away",
            t::handed_away(text::player_name(s.room().player_of(s.seat()))),
        ),
    })
}

/// A new device asks for the other seat: the question to the present player.
pub fn knock_title(s: &Session, seat: Seat) -> String {
    t::knock_title(text::player_name(s.room().player_of(seat)))
}

/// Why the relay refuses us.
pub fn refused(r: Refusal) -> &'static str {
    match r {
        // The relay line of a player whose room the relay counts full (our dropped socket it
        // has not noticed yet, or this seat open on another device too): the game stays, the
        // page tries again. A device with no seat or no game there sees the full-room page.
        Refusal::RoomFull => t::room_full(),
        Refusal::OriginNotAllowed => t::bad_origin(),
        Refusal::TooManyFromIp | Refusal::TooManyRooms | Refusal::RelayFull => t::relay_busy(),
        Refusal::BadRoom => t::bad_room_name(),
        // Said only to a spectator (`/ws/<room>?watch`): the spectator's page shows it.
        Refusal::TooManySpectators => t::too_many_spectators(),
    }
}

/// The state of our relay connection, when there is something to say.
pub fn relay(relay: Relay, has_peer: bool, now: u64) -> Option<String> {
    match relay {
        Relay::Connecting => Some(t::relay_connecting().to_string()),
        Relay::Joined if has_peer => None,
        Relay::Joined => Some(t::relay_joined().to_string()),
        Relay::Down { why, retry_at } => {
            let why = match why {
                Down::Cut => t::relay_cut(),
                Down::Refused(r) => refused(r),
                Down::Unreachable => t::relay_unreachable(),
                Down::Replaced => t::reconnecting(),
                Down::Unreadable => t::peer_unreadable(),
            };
            let wait = retry_at.saturating_sub(now).div_ceil(1000);
            Some(t::retry_in(why, &wait.to_string()))
        }
    }
}

/// How a game ended, as the exported record's `Reason` header and `engine verify` name it.
pub fn finish_name(f: engine::session::Finish) -> &'static str {
    use engine::session::{Ending, Finish};
    match f {
        Finish::Rules(r) => r.as_str(),
        Finish::Ending(Ending::Resigned(_)) => "resigned",
        Finish::Ending(Ending::DrawAgreed) => "agreed",
        Finish::Ending(Ending::Claimed(_)) => "claimed",
        Finish::Ending(Ending::Left(_)) => "left",
        Finish::Ending(Ending::Forked(_)) => "forked",
    }
}
