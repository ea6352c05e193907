//! The spectator's page as a model (issue #24): a reducer over what the spectator does (browse
//! the history, open the export) and what its connection reports, around
//! `client_net::Watching`, which checks every entry as `engine verify` does. It shows only what
//! the entries it checked fold to: the board, the cards, the status, the history and the
//! requests pending come from the follower's [`Room`], never from what a feeder claims.
//!
//! ```
//! use client::model::room::watch::{WatchModel, WatchInput};
//! use client_net::{Effect, Input as Net};
//! use engine::session::follow::WatchLink;
//! use engine::session::{Invite, Loopback};
//! use engine::GameKind;
//!
//! let net = Loopback::new(GameKind::Meta, 0);
//! let link = WatchLink::of(net.host().invite()).unwrap();
//! let mut watch = WatchModel::<u8>::new(link, [9; 16]);
//! assert_eq!(watch.update(WatchInput::Net(Net::Wake), 0), [Effect::AskWhy]);
//! let view = watch.view();
//! assert_eq!(view.verified, None); // nothing checked yet: no verdict
//! ```

use super::text;
use super::view::{seat_name, BoardView, ExportView, PlayerView};
use crate::i18n::t;
use crate::model::history::{Browse, HistoryView, Nav};
use crate::model::speech::Speech;
use crate::model::text as game_text;
use client_net::{Effect, Input as Net, Machine, Watching};
use engine::session::follow::{Caught, Followed, WatchLink};
use engine::session::{Room, RoomEvent, SaveCursor, SaveParts, Seat};
use engine::{AnyGame, GameKind, Player};

/// What the page feeds the spectator's model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WatchInput<P> {
    /// The spectator did something.
    Ui(WatchEvent),
    /// The connection or the clock reported something.
    Net(Net<P>),
}

impl<P> From<Net<P>> for WatchInput<P> {
    fn from(net: Net<P>) -> WatchInput<P> {
        WatchInput::Net(net)
    }
}

/// What a spectator can do: look, never act.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WatchEvent {
    /// Browse the current game's turns.
    History(Nav),
    /// Open or close the export panel.
    ToggleExport,
}

/// A seat as the spectator sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatView {
    /// `data-presence`: `here`, `away`, `left`.
    pub presence: &'static str,
    /// « Hôte (Bleu) : présent ».
    pub text: String,
}

/// Everything the spectator's page shows.
#[derive(Clone, Debug, PartialEq)]
pub struct WatchView {
    /// Which game.
    pub kind: GameKind,
    /// The room's game number (0 for the first).
    pub game_number: u32,
    /// The line under the board.
    pub status: String,
    /// `None` while the game is played, else the winner (`None` for a draw).
    pub result: Option<Option<Player>>,
    /// The board (never playable).
    pub board: BoardView,
    /// Both players' cards.
    pub players: Option<[PlayerView; 2]>,
    /// Host's and guest's presence.
    pub seats: [SeatView; 2],
    /// The requests pending, read-only: « L'hôte propose la nulle. ».
    pub requests: Vec<String>,
    /// The verdict: `None` before any entry was checked, `Some(true)` while every entry
    /// checked held, `Some(false)` once a feeder was caught.
    pub verified: Option<bool>,
    /// The verdict in words: how many entries were checked, or what the feeder was caught at.
    pub verdict: String,
    /// Why the relay keeps this spectator out (too many spectators).
    pub refused: Option<&'static str>,
    /// Nobody plays in the room (the relay found it empty) and nothing came: ended or expired.
    pub empty: bool,
    /// Nothing was checked yet: a page kept out or facing an empty room shows only why.
    pub nothing: bool,
    /// The turns of the current game, and the past position shown.
    pub history: Option<HistoryView>,
    /// « Tours joués : 12 sur 100 ».
    pub progress: Option<String>,
    /// The export panel, when open.
    pub export: Option<ExportView>,
    /// The Morris rules in force.
    pub rules: Option<engine::morris::Rules>,
    /// The game is over: its record, for the viewer's link.
    pub review: Option<String>,
}

/// The spectator's page's whole state.
#[derive(Clone, Debug)]
pub struct WatchModel<P> {
    watching: Watching<P>,
    browse: Browse,
    speech: Speech,
    export: bool,
    /// Players in the room when the relay was last asked.
    peers: Option<u32>,
    /// The time of the last input (ms since the epoch): the exported record's date.
    now: u64,
}

impl<P: Copy + Eq> WatchModel<P> {
    /// A spectator of the room the link names (`nonce`: random bytes for its challenges).
    pub fn new(link: WatchLink, nonce: [u8; 16]) -> WatchModel<P> {
        WatchModel {
            watching: Watching::new(link, nonce),
            browse: Browse::default(),
            speech: Speech::default(),
            export: false,
            peers: None,
            now: 0,
        }
    }

    /// The connection and what it checked.
    pub fn watching(&self) -> &Watching<P> {
        &self.watching
    }

    /// The live region's words.
    pub fn speech(&self) -> &Speech {
        &self.speech
    }

    /// Takes one input at time `now` (ms).
    pub fn update(&mut self, input: WatchInput<P>, now: u64) -> Vec<Effect<P>> {
        self.now = now;
        let effects = match input {
            WatchInput::Ui(WatchEvent::History(nav)) => {
                if let Some(t) = self.watching.room().table() {
                    self.browse.go_on(nav, t);
                }
                Vec::new()
            }
            WatchInput::Ui(WatchEvent::ToggleExport) => {
                self.export = !self.export;
                Vec::new()
            }
            WatchInput::Net(net) => {
                if let Net::RoomPeers(n) = net {
                    self.peers = Some(n);
                }
                self.watching.input(net, now)
            }
        };
        for news in self.watching.take_news() {
            match news {
                Followed::Room(RoomEvent::NewGame { .. }) => {
                    self.browse = Browse::default();
                    if let Some(t) = self.watching.room().table() {
                        self.speech.restart(t);
                    }
                }
                Followed::Room(RoomEvent::Ended { .. }) => self.speech.say(self.status()),
                _ => {}
            }
        }
        if let Some(t) = self.watching.room().table() {
            self.browse.fit_to(t);
            self.speech.follow(t);
        }
        self.speech.flush();
        effects
    }

    /// What the page shows.
    pub fn view(&self) -> WatchView {
        let room = self.watching.room();
        let in_progress = room.in_progress();
        let held = self.watching.follower().held();
        let kind = self.watching.follower().link().kind;
        WatchView {
            kind,
            game_number: room.game_number,
            status: self.status(),
            result: (room.game().is_some() && !in_progress).then(|| room.winner()),
            board: self.board(),
            players: room.table().map(|t| players(room, self.browse.shown(t))),
            seats: [Seat::Host, Seat::Guest].map(|s| self.seat(s)),
            requests: requests(room),
            verified: match self.watching.caught() {
                Some(_) => Some(false),
                None => (held != [0, 0]).then_some(true),
            },
            verdict: verdict(self.watching.caught(), held),
            refused: self.watching.refused().map(text::refused),
            empty: self.peers == Some(0) && self.watching.feeders() == 0 && held == [0, 0],
            nothing: held == [0, 0],
            history: self.history(),
            progress: room.game().map(super::view::progress),
            export: self.export.then(|| self.export_view()),
            rules: (kind == GameKind::Morris && room.hello[Seat::Host.index()])
                .then_some(room.morris_rules),
            review: (room.game().is_some() && !in_progress).then(|| self.record()),
        }
    }

    fn seat(&self, seat: Seat) -> SeatView {
        let room = self.watching.room();
        let name = match room.game() {
            Some(_) if !room.draw_pending() => t::seat_colour(
                game_text::player_name(room.player_of(seat)),
                seat_name(seat),
            ),
            _ => match seat {
                Seat::Host => t::seat_host_title(),
                Seat::Guest => t::seat_guest_title(),
            }
            .to_string(),
        };
        let (presence, text) = if room.left[seat.index()] {
            ("left", t::watch_left(&name))
        } else if self.watching.present()[seat.index()] {
            ("here", t::watch_here(&name))
        } else {
            ("away", t::watch_away(&name))
        };
        SeatView { presence, text }
    }

    /// The line under the board, as a third party says it.
    fn status(&self) -> String {
        let room = self.watching.room();
        let who = |seat: Seat| game_text::player_name(room.player_of(seat)).to_string();
        let Some(g) = room.game().filter(|_| room.incompatible.is_none()) else {
            return match self.watching.refused() {
                Some(_) => t::watch_refused().to_string(),
                None => t::watch_connecting().to_string(),
            };
        };
        if let Some(over) = text::game_over(room, g, who) {
            return over;
        }
        if !room.hello[Seat::Guest.index()] {
            return t::watch_waiting_guest().to_string();
        }
        if room.draw_pending() {
            return t::drawing().to_string();
        }
        t::watch_turn(game_text::player_name(g.to_move()))
    }

    fn board(&self) -> BoardView {
        let room = self.watching.room();
        let Some(table) = room.table() else {
            return BoardView::Placeholder(match self.watching.refused() {
                Some(_) => t::watch_refused(),
                None => t::watch_connecting(),
            });
        };
        // Never playable: frozen, so no move is hinted.
        match self.browse.shown(table) {
            AnyGame::Morris(g) => BoardView::Morris {
                game: g.clone(),
                selected: None,
                focus: engine::morris::Point::new(0).expect("a point"),
                frozen: true,
            },
            AnyGame::Meta(g) => BoardView::Meta {
                game: *g,
                focus: engine::meta::Cell::new(40).expect("a cell"),
                frozen: true,
            },
        }
    }

    fn history(&self) -> Option<HistoryView> {
        self.watching.room().table().map(|t| {
            let pending = match t.game() {
                AnyGame::Morris(m) if m.phase() == engine::morris::Phase::Capture => {
                    m.last_turn().map(|t| format!("{t}x…"))
                }
                _ => None,
            };
            let mut history = HistoryView::of(t, pending, self.browse);
            if let AnyGame::Morris(m) = t.game() {
                history.rules = Some(game_text::rules_name(m.rules()));
            }
            history
        })
    }

    fn export_view(&self) -> ExportView {
        let link = self.watching.follower().link();
        let short = &link.room_name()[..8];
        let prefix = match link.kind {
            GameKind::Morris => "moulin",
            GameKind::Meta => "meta-morpion",
        };
        ExportView {
            transcript: self.watching.follower().export(),
            transcript_name: format!("{prefix}-{short}-spectateur.transcript"),
            record: self.record(),
            record_name: format!(
                "{prefix}-{short}-partie-{}.txt",
                self.watching.room().game_number + 1
            ),
        }
    }

    /// The current game's record, headers first.
    pub fn record(&self) -> String {
        let room = self.watching.room();
        super::record_of(room, self.now)
    }
}

/// The verdict in words.
fn verdict(caught: Option<Caught>, held: [u32; 2]) -> String {
    match caught {
        Some(c) => t::watch_caught(
            &c.seq.to_string(),
            seat_name(c.seat),
            game_text::refusal_words(c.why),
        ),
        None => t::watch_verified(&(held[0] + held[1]).to_string()),
    }
}

/// The requests pending: what each seat proposed and the other has not answered.
fn requests(room: &Room) -> Vec<String> {
    [Seat::Host, Seat::Guest]
        .into_iter()
        .filter_map(|seat| {
            let open = room.open[seat.index()]?;
            Some(t::watch_request(
                seat_name(seat),
                &text::proposal_text(open.proposal),
            ))
        })
        .collect()
}

/// Both cards, of the position shown.
fn players(room: &Room, g: &AnyGame) -> [PlayerView; 2] {
    let in_progress = room.in_progress();
    let card = |p: Player| {
        let name = game_text::player_name(p);
        PlayerView {
            player: p,
            active: in_progress && g.to_move() == p,
            title: match room.draw_pending() {
                true => name.to_string(),
                false => t::seat_colour(name, seat_name(room.seat_of(p))),
            },
            detail: match g {
                AnyGame::Morris(m) => game_text::morris_player(m, p),
                AnyGame::Meta(m) => game_text::boards_won(m.boards_won(p)),
            },
        }
    };
    [card(Player::Blue), card(Player::Red)]
}

impl<P: Copy + Eq> Machine for WatchModel<P> {
    type Peer = P;
    type Input = WatchInput<P>;

    fn update(&mut self, input: WatchInput<P>, now: u64) -> Vec<Effect<P>> {
        WatchModel::update(self, input, now)
    }

    fn next_wakeup(&self, now: u64) -> Option<u64> {
        Machine::next_wakeup(&self.watching, now)
    }

    fn room(&self) -> String {
        Machine::room(&self.watching)
    }

    fn has_peer(&self) -> bool {
        Machine::has_peer(&self.watching)
    }

    /// A spectator never saves.
    fn save_parts(&self) -> Option<SaveParts> {
        None
    }

    fn kept(&mut self, _: Option<SaveCursor>) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::session::{Command, Feed, Loopback, Message, Proposal, Step};

    /// A spectator of `p`'s room with its socket open.
    fn joined(p: &Loopback) -> WatchModel<u32> {
        let mut w = WatchModel::new(WatchLink::of(p.host().invite()).unwrap(), [3; 16]);
        w.update(WatchInput::Net(Net::Wake), 0);
        w.update(WatchInput::Net(Net::RoomPeers(2)), 1);
        w.update(WatchInput::Net(Net::Why(Ok(None))), 1);
        w.update(WatchInput::Net(Net::Joined), 2);
        w
    }

    /// Carries `out`'s messages to `seat`'s session and its answers back, until none are left.
    fn pass(
        w: &mut WatchModel<u32>,
        p: &Loopback,
        seat: Seat,
        feed: &mut Feed,
        out: Vec<Effect<u32>>,
    ) {
        let id = seat.index() as u32;
        let mut asks: Vec<Vec<u8>> = out
            .into_iter()
            .filter_map(|e| match e {
                Effect::Send(to, b) if to == id => Some(b),
                _ => None,
            })
            .collect();
        while !asks.is_empty() {
            let answers: Vec<Vec<u8>> = asks
                .iter()
                .flat_map(|a| p.side(seat).feed(feed, a))
                .collect();
            asks = Vec::new();
            for b in answers {
                for e in w.update(WatchInput::Net(Net::Packet(id, b)), 5) {
                    if let Effect::Send(_, b) = e {
                        asks.push(b);
                    }
                }
            }
        }
    }

    #[test]
    fn a_spectator_sees_the_board_the_seats_the_requests_and_exports_what_verify_accepts() {
        let mut p = Loopback::new(GameKind::Meta, 0);
        p.exchange(Seat::Host, Command::Play(Step::Cell(40)));
        let mut w = joined(&p);
        assert_eq!(w.view().verified, None);
        assert_eq!(w.view().status, t::watch_connecting());
        let mut host = Feed::default();
        let out = w.update(WatchInput::Net(Net::Peer(0, true)), 3);
        pass(&mut w, &p, Seat::Host, &mut host, out);
        let v = w.view();
        assert_eq!(v.verified, Some(true));
        assert_eq!([v.seats[0].presence, v.seats[1].presence], ["here", "away"]);
        assert!(matches!(v.board, BoardView::Meta { game, frozen: true, .. } if game.moves() == 1));
        assert_eq!(v.history.as_ref().map(|h| h.rows.len()), Some(1));
        // The guest proposes a draw: the spectator sees the request, and cannot answer it.
        p.exchange(Seat::Guest, Command::Propose(Proposal::Draw));
        for b in p.host().feed_new(&mut host) {
            w.update(WatchInput::Net(Net::Packet(0, b)), 6);
        }
        assert_eq!(w.view().requests.len(), 1, "{:?}", w.view().requests);
        p.exchange(Seat::Host, Command::Reply { accept: true });
        for b in p.host().feed_new(&mut host) {
            w.update(WatchInput::Net(Net::Packet(0, b)), 7);
        }
        let v = w.view();
        assert!(v.requests.is_empty());
        assert_eq!(v.result, Some(None));
        assert_eq!(v.status, t::draw_agreed());
        assert!(v.review.is_some());
        // Its export is the transcript it checked: `engine verify` accepts it, as the players'.
        w.update(WatchInput::Ui(WatchEvent::ToggleExport), 8);
        let export = w.view().export.unwrap();
        let theirs = engine::session::transcript::verify(&p.host().export()).unwrap();
        let ours = engine::session::transcript::verify(&export.transcript).unwrap();
        assert_eq!(ours.entries, theirs.entries);
        // Browsing the history shows a past position and never changes the room.
        w.update(WatchInput::Ui(WatchEvent::History(Nav::Start)), 9);
        assert!(matches!(w.view().board, BoardView::Meta { game, .. } if game.moves() == 0));
        assert_eq!(w.watching().room(), p.host().room());
    }

    #[test]
    fn a_lying_feeder_turns_the_verdict_and_an_empty_room_says_so() {
        let mut p = Loopback::new(GameKind::Morris, 100);
        p.exchange(Seat::Host, Command::Play(Step::Place(3)));
        let mut w = joined(&p);
        w.update(WatchInput::Net(Net::Peer(1, true)), 3);
        let verified = engine::session::transcript::verify(&p.host().export()).unwrap();
        let mut e = verified.entries[0].clone();
        e.sig.0[0] ^= 1;
        let lie = engine::session::wire::encode_message(&Message::Entries(vec![e]));
        w.update(WatchInput::Net(Net::Packet(1, lie)), 4);
        let v = w.view();
        assert_eq!(v.verified, Some(false));
        assert!(v.verdict.contains('0'), "{}", v.verdict);
        // A room the relay finds empty, where nothing came: ended or expired.
        let q = Loopback::new(GameKind::Meta, 0);
        let mut e = WatchModel::<u32>::new(WatchLink::of(q.host().invite()).unwrap(), [1; 16]);
        e.update(WatchInput::Net(Net::Wake), 0);
        e.update(WatchInput::Net(Net::RoomPeers(0)), 1);
        e.update(WatchInput::Net(Net::Why(Ok(None))), 1);
        assert!(e.view().empty);
        // Too many spectators: said, and tried again later.
        let mut f = WatchModel::<u32>::new(WatchLink::of(q.host().invite()).unwrap(), [1; 16]);
        f.update(WatchInput::Net(Net::Wake), 0);
        f.update(
            WatchInput::Net(Net::Why(Ok(Some(client_net::Refusal::TooManySpectators)))),
            1,
        );
        assert_eq!(f.view().refused, Some(t::too_many_spectators()));
        assert!(Machine::next_wakeup(&f, 1).is_some());
    }
}
