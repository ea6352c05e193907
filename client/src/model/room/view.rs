//! What the room page shows, as plain data: the components render a [`View`] and know nothing
//! of the session, the protocol or the connection.

use super::{text, Copyable, Dialog, RoomModel};
use crate::i18n::{t, Text};
use crate::model::history::HistoryView;
use crate::model::text as game_text;
use client_net::{Down, NoWebRtc, Refusal, Relay};
use engine::meta::{Cell, Meta};
use engine::morris::{Morris, Point};
use engine::session::{Presence, Proposal, Seat, Standing};
use engine::{AnyGame, GameKind, Player};

/// A guest alone in a room whose host it never met is told so after this long (ms).
pub const ALONE_MS: u64 = 30_000;

/// The board and what is drawn on it.
#[derive(Clone, Debug, PartialEq)]
pub enum BoardView {
    /// A Morris game: the selected piece and the focused point.
    Morris {
        /// The game.
        game: Morris,
        /// The selected piece.
        selected: Option<Point>,
        /// The keyboard focus.
        focus: Point,
        /// Ended by the players (no move hints).
        frozen: bool,
    },
    /// An Ultimate tic-tac-toe game and the focused cell.
    Meta {
        /// The game.
        game: Meta,
        /// The keyboard focus.
        focus: Cell,
        /// Ended by the players (no move hints).
        frozen: bool,
    },
    /// No game yet (or none any more): a line in its place.
    Placeholder(&'static str),
}

/// A player's card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerView {
    /// Which colour.
    pub player: Player,
    /// Their turn now.
    pub active: bool,
    /// « Bleu (croix) · vous ».
    pub title: String,
    /// Stage and pieces, or boards won.
    pub detail: String,
}

/// The game's buttons, while play can go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Buttons {
    /// « Annuler » does something.
    pub undo: bool,
    /// « Annuler » clears a selection (it sends nothing, so it never waits).
    pub undo_clears: bool,
    /// Our colour (the undo button's).
    pub colour: Player,
    /// The game is in progress: draw and resign are possible.
    pub in_progress: bool,
    /// « Revendiquer la victoire » is possible.
    pub claim: bool,
    /// Seconds before « Annuler », « Proposer la nulle », « Nouvelle partie » may ask again
    /// after a refusal (the button waits with its countdown).
    pub waits: [Option<u64>; 3],
}

/// A device without a seat: what it reads and the one thing it may do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StandingView {
    /// `data-standing`: `knocking`, `refused`, `handed-away`.
    pub kind: &'static str,
    /// What happened.
    pub text: String,
    /// « Redemander la place » (and how long it waits), when asking again is possible.
    pub ask: Option<(String, bool)>,
}

/// A new device asking for the other seat, to let in or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnockView {
    /// Changes with each knock (the dialog takes the focus anew).
    pub key: u64,
    /// « Un nouvel appareil demande la place de Rouge. L'accepter ? »
    pub title: String,
    /// « Réponse attendue dans 0:42. »
    pub countdown: String,
}

/// The Morris turn limit under the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LimitView {
    /// The field's text.
    pub value: String,
    /// The host may still change it.
    pub editable: bool,
    /// Why the typed value was refused.
    pub error: Option<String>,
    /// A hint under the field.
    pub hint: Option<&'static str>,
}

/// This tab's open dialog.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DialogView {
    /// Its title.
    pub title: &'static str,
    /// What it means.
    pub body: &'static str,
    /// The confirm button.
    pub confirm: &'static str,
    /// The limit field (the host proposing a Morris game): the text and its error.
    pub limit: Option<(String, Option<String>)>,
    /// The host's options for the new game: the Morris rules (for Morris) and colours by lot.
    pub options: Option<(Option<crate::model::rules::RulesForm>, bool)>,
}

/// The other side's open proposal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TheirProposal {
    /// Changes with each proposal (the dialog takes the focus anew).
    pub key: u32,
    /// « Votre adversaire propose la partie nulle. »
    pub title: String,
    /// « Réponse attendue dans 0:42. », once our minute runs.
    pub countdown: String,
}

/// The export panel's files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportView {
    /// The signed transcript.
    pub transcript: String,
    /// Its file name.
    pub transcript_name: String,
    /// The current game's record.
    pub record: String,
    /// Its file name.
    pub record_name: String,
}

/// The invitation panel (the host, until the guest comes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InviteView {
    /// Which game (what the share sheet's text names).
    pub kind: GameKind,
    /// The short code, in groups of four.
    pub code: Option<String>,
    /// The last copy of the link or the code, and whether the browser made it.
    pub copied: Option<(Copyable, bool)>,
}

/// Everything the room page shows.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    /// Which game.
    pub kind: GameKind,
    /// The `data-seat` hook: `host` or `guest`; `none` for a device without a seat.
    pub seat: &'static str,
    /// The seat's name: « hôte » or « invité ».
    pub seat_name: &'static str,
    /// This device holds its seat (it is not asking for one, nor handed away).
    pub seated: bool,
    /// It is our step.
    pub my_turn: bool,
    /// The room's game number (0 for the first).
    pub game_number: u32,
    /// The line under the board.
    pub status: String,
    /// `None` while the game is played, else the winner (`None` for a draw).
    pub result: Option<Option<Player>>,
    /// The last refusal or news.
    pub notice: Option<String>,
    /// The invitation panel.
    pub invite: Option<InviteView>,
    /// Both players' cards.
    pub players: Option<[PlayerView; 2]>,
    /// Our open proposal, with its countdown.
    pub my_proposal: Option<String>,
    /// The board.
    pub board: BoardView,
    /// The game's buttons.
    pub buttons: Option<Buttons>,
    /// « Tours joués : 12 sur 100 ».
    pub progress: Option<String>,
    /// We left the room.
    pub left: bool,
    /// `data-presence` and the sentence.
    pub presence: (&'static str, String),
    /// The other seat left the room.
    pub other_left: bool,
    /// This device holds no seat: why, and the way to ask for one.
    pub standing: Option<StandingView>,
    /// A new device asks for the other seat.
    pub knock: Option<KnockView>,
    /// Both players reached the relay but their networks block a direct connection.
    pub blocked: bool,
    /// A browser without WebRTC (this one, or the other player's as it said): the page says
    /// so and what to do, and nothing about networks.
    pub no_webrtc: Option<NoWebRtc>,
    /// The relay says the room is full, and this device has no seat or no game in it: the page
    /// shows only that.
    pub full: bool,
    /// The relay connection, when there is something to say.
    pub relay: Option<String>,
    /// The relay does not answer (or cut us off) and no channel is open: the page offers to go
    /// on with this room paired by hand (« Sans serveur », issue #25), the same seat and game.
    pub serverless: bool,
    /// A guest waited 30 s for a host that never came.
    pub expired: bool,
    /// The game can be exported.
    pub can_export: bool,
    /// The export panel, when open.
    pub export: Option<ExportView>,
    /// The Morris limit under the rules.
    pub limit: Option<LimitView>,
    /// This tab's open dialog.
    pub dialog: Option<DialogView>,
    /// The other side's open proposal.
    pub their_proposal: Option<TheirProposal>,
    /// What the tab's title says first: « À vous », « Demande de votre adversaire ».
    pub title: Option<&'static str>,
    /// The turns of the current game, and the past position shown.
    pub history: Option<HistoryView>,
    /// The game is over: its record (headers and turns, as « Exporter la partie » writes it),
    /// which the page's link to the viewer carries.
    pub review: Option<String>,
    /// The Morris rules in force (before the host is met, those the link announces).
    pub rules: Option<engine::morris::Rules>,
    /// The room's colours are drawn by lot (or the link says they will be).
    pub lot: bool,
    /// The keys' fingerprints, host's then guest's, as the viewer shows them for the room's
    /// transcript: « Hôte (vous) : clé 3f2a… ».
    pub keys: [Option<String>; 2],
    /// The spectator link's fragment (`w=…&r=…&k=…`), for a seated player once the host's key
    /// is known, with the last copy of it.
    pub watch: Option<(String, Option<bool>)>,
    /// Spectators this tab feeds now.
    pub spectators: usize,
}

impl<P: Copy + Eq> RoomModel<P> {
    /// True while something on screen counts down (the page then wakes every second).
    pub(super) fn shows_countdown(&self, now: u64) -> bool {
        let s = self.session();
        let [mine, theirs] = s.proposals();
        let away = s.reserved_until().is_some_and(|t| now < t);
        let alone = self.driver.alone_for(now).is_some_and(|t| t <= ALONE_MS);
        let cooling = [
            Proposal::Undo,
            Proposal::Draw,
            Proposal::NewGame { max_turns: None },
        ]
        .into_iter()
        .filter_map(|p| s.cooling_until(p))
        .chain(s.knock_again_at())
        .any(|t| now < t);
        mine.is_some()
            || theirs.is_some_and(|(_, deadline)| deadline < u64::MAX / 2)
            || away
            || alone
            || cooling
            || s.knock().is_some()
            || matches!(self.driver.relay(), Relay::Down { .. })
    }

    /// What the page shows at time `now`.
    pub fn view(&self, now: u64) -> View {
        let s = self.session();
        let room = s.room();
        let left = self.driver.left();
        let seated = s.standing() == Standing::Seated;
        let blocked = self.driver.blocked() && !self.driver.has_peer();
        let no_webrtc = self.driver.no_webrtc();
        // No data channel will open: the network blocks it, or a browser has no WebRTC.
        let no_channel = blocked || no_webrtc.is_some();
        let met = room.hello[Seat::Guest.index()] && seated;
        let in_progress = room.in_progress();
        let kind = s.invite().rules.kind();
        View {
            kind,
            seat: match s.seat() {
                _ if !seated => "none",
                seat => seat_code(seat),
            },
            seat_name: seat_name(s.seat()),
            seated,
            my_turn: s.my_turn(),
            game_number: room.game_number,
            status: self.status(blocked && seated, no_webrtc, now),
            result: (room.game().is_some() && !in_progress).then(|| room.winner()),
            notice: self.notice_text(),
            // Paired by hand, the texts are the invitation (the page's pairing panel).
            invite: (s.seat() == Seat::Host && !met && !left && seated && !self.driver.paired())
                .then(|| self.invite_view()),
            // While a past position is shown, the cards describe it, as the board does.
            players: s
                .room()
                .table()
                .map(|t| self.players(self.local.browse.shown(t))),
            my_proposal: self.my_proposal(now),
            board: match self.board() {
                BoardView::Placeholder(_) if no_channel => {
                    BoardView::Placeholder(t::no_direct_to_host())
                }
                board => board,
            },
            buttons: (s.game().is_some() && met && !left && !s.suspended())
                .then(|| self.buttons(now)),
            standing: self.standing_view(now),
            knock: self.knock_view(now).filter(|_| !left),
            blocked,
            no_webrtc,
            progress: s.game().map(progress),
            left,
            presence: self.presence_view(blocked && seated, no_webrtc, now),
            other_left: room.left[s.seat().other().index()],
            // Only for a device with nothing to lose here: a player in a game keeps its board
            // while the relay still counts a connection of before (the relay line says so).
            full: self.driver.refused() == Some(Refusal::RoomFull)
                && !(seated && s.game().is_some()),
            relay: self.relay_line(no_channel, now),
            serverless: !no_channel && seated && !left && self.relay_gone(),
            expired: !no_channel
                && !self.driver.room_empty()
                && self.driver.alone_for(now).is_some_and(|t| t > ALONE_MS),
            can_export: s.game().is_some() && seated,
            export: self.export_view(),
            limit: self.limit(),
            dialog: self.dialog(in_progress),
            their_proposal: self.their_proposal(now).filter(|_| !left && seated),
            review: (room.game().is_some() && !in_progress).then(|| self.record()),
            history: self.history(),
            title: self.title(!left && seated),
            rules: self.rules_in_force(),
            lot: self.lot(),
            keys: s
                .keys()
                .map(|k| k.map(|k| engine::session::transcript::fingerprint(&k))),
            watch: self.watch_link().filter(|_| seated && !left),
            spectators: self.driver.watchers(),
        }
    }

    /// The relay line: waiting for the other browser, or a host that never came; not while a
    /// blocked network or a browser without WebRTC explains why no channel opens (`no_channel`),
    /// nor in a room paired by hand, which has no relay to speak of.
    fn relay_line(&self, no_channel: bool, now: u64) -> Option<String> {
        (!no_channel && !self.driver.paired())
            .then(|| text::relay(self.driver.relay(), self.driver.has_peer(), now))
            .flatten()
    }

    /// The relay does not answer (or cut the socket), no channel is open, and the room is not
    /// paired by hand already: it could go on paired by hand.
    fn relay_gone(&self) -> bool {
        let gone = matches!(
            self.driver.relay(),
            Relay::Down {
                why: Down::Unreachable | Down::Cut,
                ..
            }
        );
        gone && !self.driver.paired() && !self.driver.has_peer()
    }

    /// The spectator link's fragment once the host's key is known, with its last copy.
    fn watch_link(&self) -> Option<(String, Option<bool>)> {
        // Spectators come through a relay: a room paired by hand has none to give them.
        if self.driver.paired() {
            return None;
        }
        let link = engine::session::follow::WatchLink::of(self.session().invite())?;
        let copied = self.copied.filter(|c| c.0 == Copyable::Watch).map(|c| c.1);
        Some((link.to_fragment(), copied))
    }

    /// The last refusal, or that the seat could not be kept in this browser.
    fn notice_text(&self) -> Option<String> {
        (self.notice.as_ref().map(Text::get))
            .or_else(|| self.unkept.then(|| t::seat_not_kept_room().to_string()))
    }

    /// The invitation the host passes on: its game, its short code if it has one.
    fn invite_view(&self) -> InviteView {
        let invite = self.session().invite();
        InviteView {
            kind: invite.rules.kind(),
            code: invite.code().map(engine::session::Invite::format_code),
            copied: self.copied,
        }
    }

    /// Colours drawn by lot: the room's, or before the host's hello what its link announces.
    fn lot(&self) -> bool {
        let s = self.session();
        let room = s.room();
        match (room.hello[Seat::Host.index()], s.invite().preview) {
            (false, Some(p)) => p.lot,
            _ => matches!(room.colours, engine::session::Colours::Lot { .. }),
        }
    }

    /// The Morris rules in force: the room's, or before the host's hello those the link
    /// announces (its signed options will tell).
    fn rules_in_force(&self) -> Option<engine::morris::Rules> {
        let s = self.session();
        if s.invite().rules.kind() != GameKind::Morris {
            return None;
        }
        Some(
            match (s.room().hello[Seat::Host.index()], s.invite().preview) {
                (false, Some(p)) => p.rules,
                // A code says nothing of the rules: they are known once the host is met.
                (false, None) if s.invite().code().is_some() => return None,
                _ => s.room().morris_rules,
            },
        )
    }

    /// The line under the board (`blocked`: both players reached the relay, but not each other;
    /// `no_webrtc`: a browser cannot make direct connections at all).
    fn status(&self, blocked: bool, no_webrtc: Option<NoWebRtc>, now: u64) -> String {
        let s = self.session();
        match no_webrtc {
            Some(NoWebRtc::There) if s.presence() != Presence::Here => {
                t::no_webrtc_there().to_string()
            }
            // Not « connecting to the host »: no connection can come (the notice says why).
            Some(NoWebRtc::Here) if s.game().is_none() => t::no_webrtc_board().to_string(),
            _ if blocked && s.presence() != Presence::Here => t::blocked().to_string(),
            _ if s.room().in_progress() && s.reveal_due().is_some_and(|t| now >= t) => {
                t::drawing_overdue().to_string()
            }
            // A guest that never met the host, in a room the relay found empty.
            // After 30 s, the room may have expired: said in the same line, not a second one.
            _ if self.driver.room_empty() && s.game().is_none() && s.seat() == Seat::Guest => {
                if self.driver.alone_for(now).is_some_and(|t| t > ALONE_MS) {
                    t::expired().to_string()
                } else {
                    t::nobody_here().to_string()
                }
            }
            // Paired by hand, the host passes the offer, not a link or a code.
            _ if self.driver.paired()
                && s.seat() == Seat::Host
                && !s.room().hello[Seat::Guest.index()] =>
            {
                t::waiting_guest_paired().to_string()
            }
            _ => {
                // The other player left after the game ended (its leaving mid-game is the
                // result itself): said by the board, not only in the room panel.
                let other = s.seat().other();
                let room = s.room();
                let left_after = room.left[other.index()]
                    && room.ending != Some(engine::session::Ending::Left(other));
                match text::status(s) {
                    status if left_after && !self.driver.left() => {
                        format!("{status} {}", t::other_left())
                    }
                    status => status,
                }
            }
        }
    }

    /// Our open proposal, with its countdown.
    fn my_proposal(&self, now: u64) -> Option<String> {
        let [mine, _] = self.session().proposals();
        mine.map(|(open, deadline)| {
            t::request_sent(
                &text::proposal_text(open.proposal),
                &text::countdown(deadline.saturating_sub(now)),
            )
        })
    }

    /// What the tab's title says first (`asked`: a question to answer would be shown).
    fn title(&self, asked: bool) -> Option<&'static str> {
        let s = self.session();
        let [_, theirs] = s.proposals();
        if (theirs.is_some() || s.knock().is_some()) && asked {
            Some(t::tab_their_request())
        } else if s.my_turn() {
            Some(t::tab_your_turn())
        } else {
            None
        }
    }

    /// The presence line (`blocked`: both players reached the relay, but not each other).
    fn presence_view(
        &self,
        blocked: bool,
        no_webrtc: Option<NoWebRtc>,
        now: u64,
    ) -> (&'static str, String) {
        if no_webrtc == Some(NoWebRtc::There) && self.session().presence() != Presence::Here {
            ("no-webrtc", t::joined_no_webrtc().to_string())
        } else if blocked {
            ("blocked", t::joined_not_direct().to_string())
        } else {
            text::presence(self.session(), now)
        }
    }

    /// A new device asking for the other seat, with the time left to answer.
    fn knock_view(&self, now: u64) -> Option<KnockView> {
        let s = self.session();
        s.knock().map(|(knock, due)| KnockView {
            key: knock.since,
            title: text::knock_title(s, knock.seat),
            countdown: t::answer_within(&text::countdown(due.saturating_sub(now))),
        })
    }

    /// The turn an undo would take back, in the game's notation: the turn in progress (a Morris
    /// capture pending: « g7x… »), else the last completed one.
    fn undone_turn(&self) -> Option<String> {
        let t = self.session().room().table()?;
        match t.game() {
            AnyGame::Morris(m) if m.phase() == engine::morris::Phase::Capture => {
                m.last_turn().map(|turn| format!("{turn}x…"))
            }
            _ => t.turns().last().map(|turn| turn.to_string()),
        }
    }

    /// The other side's open proposal, with our time left to answer once it runs.
    fn their_proposal(&self, now: u64) -> Option<TheirProposal> {
        let [_, theirs] = self.session().proposals();
        theirs.map(|(open, deadline)| TheirProposal {
            key: open.seq,
            title: match (open.proposal, self.undone_turn()) {
                (Proposal::Undo, Some(turn)) => t::they_ask_undo_turn(&turn),
                (p, _) => text::their_proposal(p),
            },
            countdown: if deadline >= u64::MAX / 2 {
                String::new()
            } else {
                t::answer_within(&text::countdown(deadline.saturating_sub(now)))
            },
        })
    }

    /// The turns of the current game (a Morris capture pending shows as « g7x… »).
    fn history(&self) -> Option<HistoryView> {
        self.session().room().table().map(|t| {
            let pending = match t.game() {
                AnyGame::Morris(m) if m.phase() == engine::morris::Phase::Capture => {
                    m.last_turn().map(|t| format!("{t}x…"))
                }
                _ => None,
            };
            let mut history = HistoryView::of(t, pending, self.local.browse);
            if let AnyGame::Morris(m) = t.game() {
                history.rules = Some(game_text::rules_name(m.rules()));
            }
            history
        })
    }

    fn buttons(&self, now: u64) -> Buttons {
        let s = self.session();
        let in_progress = s.room().in_progress();
        let wait = |p: Proposal| {
            s.cooling_until(p)
                .filter(|&t| now < t)
                .map(|t| (t - now).div_ceil(1000))
        };
        Buttons {
            waits: [
                wait(Proposal::Undo),
                wait(Proposal::Draw),
                wait(Proposal::NewGame { max_turns: None }),
            ],
            undo: s.room().can_undo() || self.local.selected.is_some(),
            undo_clears: self.local.selected.is_some(),
            colour: s.player(),
            in_progress,
            claim: in_progress && s.can_claim(now),
        }
    }

    fn standing_view(&self, now: u64) -> Option<StandingView> {
        let s = self.session();
        let (kind, text) = text::standing(s)?;
        let ask = match s.standing() {
            Standing::Refused { .. } | Standing::HandedAway => {
                let wait = s
                    .knock_again_at()
                    .filter(|&t| now < t)
                    .map(|t| (t - now).div_ceil(1000));
                let label = match s.standing() {
                    Standing::HandedAway => t::ask_seat_back(),
                    _ => t::ask_seat_again(),
                };
                Some(match wait {
                    Some(secs) => (t::button_wait(label, &secs.to_string()), false),
                    None => (label.to_string(), true),
                })
            }
            _ => None,
        };
        Some(StandingView { kind, text, ask })
    }

    fn export_view(&self) -> Option<ExportView> {
        if !self.export {
            return None;
        }
        let s = self.session();
        let short = &s.invite().room_name()[..8];
        let prefix = match s.invite().rules.kind() {
            GameKind::Morris => "moulin",
            GameKind::Meta => "meta-morpion",
        };
        Some(ExportView {
            transcript: s.export(),
            transcript_name: format!("{prefix}-{short}.transcript"),
            record: self.record(),
            record_name: format!("{prefix}-{short}-partie-{}.txt", s.room().game_number + 1),
        })
    }

    fn players(&self, g: &AnyGame) -> [PlayerView; 2] {
        let s = self.session();
        let in_progress = s.room().in_progress() && !s.suspended();
        let card = |p: Player| {
            let name = match (g, p) {
                (AnyGame::Morris(_), _) => game_text::player_name(p).to_string(),
                (AnyGame::Meta(_), Player::Blue) => {
                    format!("{} ({})", game_text::player_name(p), t::said_cross())
                }
                (AnyGame::Meta(_), Player::Red) => {
                    format!("{} ({})", game_text::player_name(p), t::said_nought())
                }
            };
            PlayerView {
                player: p,
                active: in_progress && g.to_move() == p,
                // Until the colours are drawn, neither card is ours.
                title: match s.standing() {
                    _ if s.room().draw_pending() => name,
                    Standing::Seated if p == s.player() => t::card_mine(&name),
                    Standing::Seated => t::card_theirs(&name),
                    _ => name,
                },
                detail: match g {
                    AnyGame::Morris(m) => game_text::morris_player(m, p),
                    AnyGame::Meta(m) => game_text::boards_won(m.boards_won(p)),
                },
            }
        };
        [card(Player::Blue), card(Player::Red)]
    }

    fn board(&self) -> BoardView {
        let room = self.session().room();
        // No move hints where no move can be made: ended by the players, suspended, or a past
        // position shown.
        let browsing = !self.local.browse.is_live();
        let frozen = room.ending.is_some() || self.session().suspended() || browsing;
        let shown = room.table().map(|t| self.local.browse.shown(t));
        match shown {
            Some(AnyGame::Morris(g)) => BoardView::Morris {
                game: g.clone(),
                selected: self.local.selected.filter(|_| !browsing),
                focus: self.local.point,
                frozen,
            },
            Some(AnyGame::Meta(g)) => BoardView::Meta {
                game: *g,
                focus: self.local.cell,
                frozen,
            },
            None if self.driver.refused() == Some(Refusal::RoomFull) => {
                BoardView::Placeholder(t::room_full_title())
            }
            None if self.driver.left() => BoardView::Placeholder(t::room_left()),
            None => BoardView::Placeholder(t::connecting_host()),
        }
    }

    fn limit(&self) -> Option<LimitView> {
        let s = self.session();
        let Some(AnyGame::Morris(g)) = s.game() else {
            return None;
        };
        let host = s.seat() == Seat::Host;
        let editable = host && s.room().game_number == 0 && g.turns() == 0;
        let error = self
            .local
            .limit_error
            .as_ref()
            .map(Text::get)
            .filter(|_| editable);
        Some(LimitView {
            value: match (&self.local.limit_text, editable) {
                (Some(t), true) => t.clone(),
                _ => g.max_turns().to_string(),
            },
            editable,
            hint: match (&error, host, editable) {
                (Some(_), _, _) => None,
                (None, false, _) => Some(t::host_sets_limit()),
                (None, true, false) => Some(t::limit_in_new_game()),
                (None, true, true) => None,
            },
            error,
        })
    }

    fn dialog(&self, in_progress: bool) -> Option<DialogView> {
        let s = self.session();
        let d = self.local.dialog.as_ref()?;
        let (title, body, confirm) = match d {
            Dialog::NewGame(_) => (
                t::propose_new_title(),
                if in_progress {
                    t::propose_new_stops()
                } else {
                    t::propose_new_starts()
                },
                t::propose(),
            ),
            Dialog::Resign => (t::resign_title(), t::resign_text(), t::resign()),
            Dialog::Leave => (t::leave_title(), t::leave_text(), t::leave()),
        };
        let limit = match (d, s.seat(), s.game()) {
            (Dialog::NewGame(nd), Seat::Host, Some(AnyGame::Morris(_))) => Some((
                nd.limit_text.clone(),
                nd.error.as_ref().map(crate::i18n::Text::get),
            )),
            _ => None,
        };
        let options = match d {
            Dialog::NewGame(_) => self.local.dialog_options.as_ref().map(|(form, lot)| {
                let morris = matches!(s.game(), Some(AnyGame::Morris(_)));
                (morris.then(|| form.clone()), *lot)
            }),
            _ => None,
        };
        Some(DialogView {
            title,
            body,
            confirm,
            limit,
            options,
        })
    }
}

/// « Tours joués : 12 sur 100 » (and under the `quiet` rule « · sans prise : 7 sur 50 »),
/// « Tours joués : 30 sur 81 au plus ».
pub(super) fn progress(g: &AnyGame) -> String {
    match g {
        AnyGame::Morris(m) => game_text::morris_progress(m),
        AnyGame::Meta(m) => t::meta_progress(&m.moves().to_string()),
    }
}

/// The seat as the page's hook names it (`main[data-seat]`).
fn seat_code(seat: Seat) -> &'static str {
    match seat {
        Seat::Host => "host",
        Seat::Guest => "guest",
    }
}

/// The seat in words.
pub(super) fn seat_name(seat: Seat) -> &'static str {
    match seat {
        Seat::Host => t::host_name(),
        Seat::Guest => t::guest_name(),
    }
}
