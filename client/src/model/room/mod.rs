//! The remote room page as a model: a reducer over what the player does and what the network
//! and the clock report. It owns the [`Driver`] (and so the session and the connection) and the
//! tab's own state, turns the session's events into notices, and says what the page must do
//! (send, save, open or drop a socket) as [`Effect`]s. It imports nothing from the web, so the
//! whole room is tested natively; the page ([`crate::ui`]) only runs the effects, the timer and
//! the socket, and renders the [`view`].
//!
//! ```
//! use client::model::room::{Effect, Event, Input, RoomModel};
//! use client_net::Input as Net;
//! use engine::session::{Config, Invite, Session};
//! use engine::GameKind;
//!
//! let invite = Invite::new(GameKind::Meta, 100, [1; 16], [2; 32], [3; 16]);
//! let host = Session::host(invite, [2; 32], Config::default(), 0).unwrap();
//! let mut room = RoomModel::<u8>::new(host);
//! assert_eq!(room.update(Input::Net(Net::Wake), 0), [Effect::AskWhy]); // room for us?
//! assert_eq!(room.update(Input::Net(Net::Why(Ok(None))), 5), [Effect::Connect]);
//! room.update(Input::Net(Net::Joined), 20);
//! assert_eq!(room.view(20).status, "En attente de votre adversaire : envoyez-lui le lien ou le code.");
//! // Not our turn to do anything yet: the page says why.
//! room.update(Input::Ui(Event::Draw), 30);
//! assert!(room.view(30).notice.is_some());
//! ```

mod local;
mod open;
#[cfg(feature = "paired")]
pub mod pairing;
pub mod text;
pub mod view;
pub mod watch;

pub use local::{Copyable, Dialog, Event, Local};
pub use view::View;

use super::speech::Speech;
use crate::i18n::{t, Text};
pub use crate::model::seat::{Invite, OpenError, SaveParts, Saved};
pub use client_net::Effect;
pub use open::{read_invite, read_old_seat};

use client_net::{Driver, Input as Net, Machine, Output};
use engine::session::{
    Command, Event as SessionEvent, Presence, Refusal, RoomEvent, SaveCursor, Seat, Session, Void,
};
use local::Outcome;

/// What the page feeds the room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input<P> {
    /// The player did something.
    Ui(Event),
    /// The socket or the clock reported something.
    Net(Net<P>),
}

impl<P> From<Net<P>> for Input<P> {
    fn from(net: Net<P>) -> Input<P> {
        Input::Net(net)
    }
}

/// The room page's whole state.
#[derive(Clone, Debug)]
pub struct RoomModel<P> {
    driver: Driver<P>,
    local: Local,
    /// The last refusal or news, in French.
    notice: Option<Text>,
    /// The export panel is open: its texts are written when the page draws it (at most once
    /// per render, not once per entry the peer sends).
    export: bool,
    /// The last copy of the invitation's link or code, and whether the browser made it.
    copied: Option<(Copyable, bool)>,
    /// The time of the last input (ms since the epoch): the exported record's date.
    now: u64,
    /// Moves, proposals and presence in words, for the live region.
    speech: Speech,
    /// The other seat's presence, as last told.
    presence: Presence,
    /// The browser refused to keep the seat at the last save (its storage full or blocked).
    unkept: bool,
}

impl<P: Copy + Eq> RoomModel<P> {
    /// The room of this session; the first wake-up opens a socket.
    pub fn new(session: Session) -> RoomModel<P> {
        // A restored room tells only what happens from now on.
        let speech = session
            .room()
            .table()
            .map_or_else(Speech::default, Speech::following);
        let presence = session.presence();
        RoomModel {
            speech,
            presence,
            driver: Driver::new(session),
            local: Local::default(),
            notice: None,
            export: false,
            copied: None,
            now: 0,
            unkept: false,
        }
    }

    /// Says whether this browser can make WebRTC connections (`client_net::webrtc_available`):
    /// without, the room still joins the relay to tell the other player so.
    pub fn set_webrtc(&mut self, available: bool) {
        self.driver.set_webrtc(available);
    }

    /// Says that the room is paired by hand, without a relay (issue #25): its links wait for
    /// their texts as long as it takes, and nothing about a relay is said.
    pub fn set_paired(&mut self) {
        self.driver.set_paired();
    }

    /// Whether the browser kept the seat at the last save: while it does not (its storage full
    /// or blocked), the page says that closing or reloading the tab would lose the seat.
    pub fn seat_kept(&mut self, kept: bool) {
        self.unkept = !kept;
    }

    /// The browser kept a save in parts: the next one writes only what came after it.
    pub fn save_kept(&mut self, cursor: SaveCursor) {
        self.driver.save_kept(cursor);
        self.unkept = false;
    }

    /// The saved seat's parts that changed since the last save kept.
    pub fn save_parts(&self) -> SaveParts {
        self.driver.save_parts()
    }

    /// The session.
    pub fn session(&self) -> &Session {
        self.driver.session()
    }

    /// True while the data channel to the peer is open.
    pub fn has_peer(&self) -> bool {
        self.driver.has_peer()
    }

    /// The live region's words: the last moves, proposals and presence changes.
    pub fn speech(&self) -> &Speech {
        &self.speech
    }

    /// The tab's own state (selection, focus, dialog).
    pub fn local(&self) -> &Local {
        &self.local
    }

    /// When the page should wake the room next: the driver's timers, and the next whole second
    /// while a countdown is on screen.
    pub fn next_wakeup(&self, now: u64) -> Option<u64> {
        let tick = self.shows_countdown(now).then(|| (now / 1000 + 1) * 1000);
        match (self.driver.next_wakeup(), tick) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Takes one input at time `now` (ms).
    pub fn update(&mut self, input: Input<P>, now: u64) -> Vec<Effect<P>> {
        self.now = now;
        let effects = match input {
            Input::Net(net) => {
                let outputs = self.driver.input(net, now);
                self.carry(outputs)
            }
            Input::Ui(event) => self.ui(event, now),
        };
        // Moves keep arriving while a past position is shown; one taken back gives way to the
        // live game.
        if let Some(t) = self.driver.session().room().table() {
            self.local.browse.fit_to(t);
            self.speech.follow(t);
        }
        self.speech.flush();
        effects
    }

    fn ui(&mut self, event: Event, now: u64) -> Vec<Effect<P>> {
        match event {
            // Moving the focus, typing or browsing keeps the notice; anything else replaces it.
            Event::Arrow(_)
            | Event::DialogLimit(_)
            | Event::DialogRules(_)
            | Event::DialogLot(_)
            | Event::History(_) => {}
            _ => self.notice = None,
        }
        match event {
            Event::Copied(what, ok) => {
                self.copied = Some((what, ok));
                return Vec::new();
            }
            Event::ToggleExport => {
                self.export = !self.export;
                return Vec::new();
            }
            Event::Retry => {
                let outputs = self.driver.retry(now);
                return self.carry(outputs);
            }
            _ => {}
        }
        let command = match self.local.update(self.driver.session(), event) {
            Outcome::Done => return Vec::new(),
            Outcome::Notice(why) => {
                self.notice = Some(why);
                return Vec::new();
            }
            Outcome::Command(c) => c,
        };
        match self.driver.act(command, now) {
            Ok(outputs) => {
                if let Command::Play(_) = command {
                    self.local.selected = None;
                }
                let mut effects = self.carry(outputs);
                if command == Command::Leave {
                    effects.push(Effect::Forget);
                }
                effects
            }
            Err(e) => {
                let proposal = match command {
                    Command::Propose(p) => Some(p),
                    _ => None,
                };
                self.notice = Some(text::refusal(self.session(), e, proposal, now));
                Vec::new()
            }
        }
    }

    /// Turns the driver's outputs into effects, and its events into notices.
    fn carry(&mut self, outputs: Vec<Output<P>>) -> Vec<Effect<P>> {
        let mut effects = Vec::new();
        for o in outputs {
            match o {
                Output::Send(p, bytes) => effects.push(Effect::Send(p, bytes)),
                Output::Save => {
                    if !self.driver.left() {
                        effects.push(Effect::Save);
                    }
                }
                Output::Event(e) => self.event(e),
                Output::Connect => effects.push(Effect::Connect),
                Output::Disconnect => effects.push(Effect::Disconnect),
                Output::AskWhy => effects.push(Effect::AskWhy),
            }
        }
        effects
    }

    /// What happened in the room: the notices, the words for the live region, the selection.
    fn room_event(&mut self, ev: RoomEvent, me: Seat) {
        if let Some(news) = text::our_proposal_news(&ev, me) {
            self.notice = Some(news);
        }
        if let Some(news) = text::their_proposal_news(&ev, me) {
            self.speech.say(news);
        }
        match ev {
            // The opponent's move lands on the live game; a past position stays on
            // screen, and the page says so.
            RoomEvent::Played { seat, .. } if seat != me && !self.local.browse.is_live() => {
                self.notice = Some(Text::of(t::played_while_browsing));
            }
            RoomEvent::Drawn { host } => {
                let mine = if me == Seat::Host {
                    host
                } else {
                    host.opponent()
                };
                let news = match mine {
                    engine::Player::Blue => Text::of(t::drawn_blue),
                    engine::Player::Red => Text::of(t::drawn_red),
                };
                self.speech.say(news.get());
                self.notice = Some(news);
            }
            RoomEvent::NewGame { .. } => {
                self.local.browse = Default::default();
                if let Some(t) = self.driver.session().room().table() {
                    self.speech.restart(t);
                }
            }
            // An end the board does not show (resigned, agreed, claimed, left): the
            // status line says it; an end on the board comes with its last move.
            RoomEvent::Ended { .. }
                if self.session().game().is_some_and(|g| g.outcome().is_none()) =>
            {
                self.speech.say(text::status(self.session()));
            }
            _ => {}
        }
        // The position changed: a selection made on the old one means nothing now.
        if matches!(
            ev,
            RoomEvent::Played { .. }
                | RoomEvent::Accepted { .. }
                | RoomEvent::Settings { .. }
                | RoomEvent::Ended { .. }
        ) {
            self.local.selected = None;
        }
    }

    fn event(&mut self, e: SessionEvent) {
        let me = self.session().seat();
        match e {
            SessionEvent::Room(ev) => self.room_event(ev, me),
            // Another key holds our seat: the page says we ask for the one that is away. An
            // entry ahead of a gap is kept aside until the gap fills: not a fault. A fork has
            // its own status line.
            SessionEvent::Refused {
                why: Refusal::Gap | Refusal::Fork | Refusal::Intruder,
                ..
            } => {}
            // Our seat changed: nothing on the board or in a dialog of this tab holds any more.
            SessionEvent::Standing(_) => {
                self.local.selected = None;
                self.local.dialog = None;
            }
            SessionEvent::Refused { .. }
            | SessionEvent::Void { .. }
            | SessionEvent::Undecodable(_) => self.notice = Some(Text::of(t::bad_message)),
            // Our answer crossed the proposer's withdrawal (or its move): it counts for nothing.
            SessionEvent::Overtaken {
                seat,
                why: Void::Crossed | Void::NoSuchProposal,
                ..
            } if seat == me => self.notice = Some(Text::of(t::too_late)),
            // What the page shows from the session itself.
            SessionEvent::Presence(now) => {
                let before = std::mem::replace(&mut self.presence, now);
                if let Some(news) = text::presence_news(before, now, self.session(), self.now) {
                    self.speech.say(news);
                }
            }
            SessionEvent::Knock(seat) => self.speech.say(text::knock_title(self.session(), seat)),
            // Our seat went to another key while we were here: say so, and that the transcript
            // we keep is the proof.
            SessionEvent::HandedOverWhileHere { .. } => {
                self.notice = Some(Text::of(t::taken_while_here));
                self.speech.say(t::taken_while_here());
            }
            SessionEvent::Overtaken { .. }
            | SessionEvent::Fork(_)
            | SessionEvent::Stranger
            | SessionEvent::KnockOver => {}
        }
    }

    /// The current game's record, headers first: what « Exporter la partie » and the viewer's
    /// link give.
    pub fn record(&self) -> String {
        record_of(self.session().room(), self.now)
    }
}

/// A room's current game as a record, headers first (`now`: the date, ms since the epoch).
fn record_of(room: &engine::session::Room, now: u64) -> String {
    let headers = room.game().map_or(String::new(), |game| {
        let blue = room.seat_of(engine::Player::Blue);
        let name = view::seat_name;
        let (result, reason) = match room.games().last().and_then(|g| g.result) {
            Some((winner, finish)) => (
                engine::record::result_text(Some(winner)),
                Some(text::finish_name(finish)),
            ),
            None => ("*", None),
        };
        engine::record::header_lines(
            game,
            name(blue),
            name(blue.other()),
            &crate::model::text::date(now),
            result,
            reason,
        )
    });
    format!("{headers}{}\n", room.record())
}

impl<P: Copy + Eq> Machine for RoomModel<P> {
    type Peer = P;
    type Input = Input<P>;

    fn update(&mut self, input: Input<P>, now: u64) -> Vec<Effect<P>> {
        RoomModel::update(self, input, now)
    }

    fn next_wakeup(&self, now: u64) -> Option<u64> {
        RoomModel::next_wakeup(self, now)
    }

    fn room(&self) -> String {
        self.session().invite().room_name()
    }

    fn has_peer(&self) -> bool {
        RoomModel::has_peer(self)
    }

    fn save_parts(&self) -> Option<SaveParts> {
        Some(RoomModel::save_parts(self))
    }

    fn kept(&mut self, cursor: Option<SaveCursor>) {
        match cursor {
            Some(cursor) => self.save_kept(cursor),
            None => self.seat_kept(false),
        }
    }
}

#[cfg(test)]
mod tests;
