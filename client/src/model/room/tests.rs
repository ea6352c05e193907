//! The room page without a browser: two room models wired by the engine's `Loopback` (with its
//! faults), driven by the events a player makes, checked through what the page would show.

use super::*;
use crate::i18n::t;
use engine::meta::Cell;
use engine::morris::Point;
use engine::session::{
    Command, Config, Effect as SessionEffect, Fault, Invite, Loopback, Seat, Session, Side,
};
use engine::{AnyGame, Direction, GameKind, Player};
use std::collections::VecDeque;
use view::BoardView;

/// A room page as a side of the loopback: the model and what its page would do, with a relay
/// that always has room and admits a socket at once. The host's peer id is 0, the guest's 1.
#[derive(Clone)]
struct Tab {
    room: RoomModel<u8>,
    /// The other side's peer id.
    peer: u8,
    /// The seat saved this many times.
    saves: usize,
    /// The time of the last input.
    now: u64,
}

impl Tab {
    /// The page of a session, its socket in the room (no peer yet).
    fn new(session: Session, now: u64) -> Tab {
        let peer = match session.seat() {
            Seat::Host => 1,
            Seat::Guest => 0,
        };
        let mut tab = Tab {
            room: RoomModel::new(session),
            peer,
            saves: 0,
            now,
        };
        tab.update(Input::Net(Net::Wake), now);
        tab
    }

    /// One input, and what the page does with its effects: the bytes go back to the loopback.
    fn update(&mut self, input: Input<u8>, now: u64) -> Vec<SessionEffect> {
        self.now = self.now.max(now);
        let mut out = Vec::new();
        let mut inputs = VecDeque::from([input]);
        while let Some(input) = inputs.pop_front() {
            for e in self.room.update(input, now) {
                match e {
                    Effect::Send(_, bytes) => out.push(SessionEffect::Send(bytes)),
                    Effect::Save => {
                        self.saves += 1;
                        out.push(SessionEffect::Save);
                    }
                    // The relay has room for us, and admits the socket.
                    Effect::AskWhy => inputs.push_back(Input::Net(Net::Why(Ok(None)))),
                    Effect::Connect => inputs.push_back(Input::Net(Net::Joined)),
                    Effect::Disconnect | Effect::Forget => {}
                }
            }
        }
        out
    }
}

impl Side for Tab {
    fn session(&self) -> &Session {
        self.room.session()
    }
    fn receive(&mut self, bytes: &[u8], now: u64) -> Vec<SessionEffect> {
        self.update(Input::Net(Net::Packet(self.peer, bytes.to_vec())), now)
    }
    fn tick(&mut self, now: u64) -> Vec<SessionEffect> {
        self.update(Input::Net(Net::Wake), now)
    }
    fn next_wakeup(&self) -> Option<u64> {
        self.room.next_wakeup(self.now)
    }
    fn peer_connected(&mut self, now: u64) -> Vec<SessionEffect> {
        self.update(Input::Net(Net::Peer(self.peer, true)), now)
    }
    fn peer_disconnected(&mut self, now: u64) -> Vec<SessionEffect> {
        self.update(Input::Net(Net::Peer(self.peer, false)), now)
    }
    fn reload(&self) -> Tab {
        let saved = engine::session::Saved::from_text(&self.room.session().save_text());
        Tab::new(Session::restore(saved.unwrap()).unwrap(), self.now)
    }
}

/// Host (side 0) and guest (side 1), their pages open and met.
struct Pair {
    net: Loopback<Tab>,
}

fn seat(side: usize) -> Seat {
    [Seat::Host, Seat::Guest][side]
}

impl Pair {
    fn new(kind: GameKind) -> Pair {
        Pair::with_host(kind, |_| {})
    }

    /// A pair whose host session `setup` prepares first (as the lobby does with the options).
    fn with_host(kind: GameKind, setup: impl FnOnce(&mut Session)) -> Pair {
        let invite = Invite::new(kind, 100, [1; 16], [2; 32], [3; 16]);
        let mut host = Session::host(invite.clone(), [2; 32], Config::default(), 0).unwrap();
        setup(&mut host);
        let guest = Session::guest(invite, [4; 32], Config::default(), 0);
        // Both channels open before either side's first message arrives, as with matchbox.
        let net = Loopback::with_sides(Tab::new(host, 0), Tab::new(guest, 0));
        Pair { net }
    }

    /// Feeds one input to a side and carries every message it causes, both ways.
    fn input(&mut self, side: usize, net: Net<u8>) {
        self.net
            .drive(seat(side), |tab, now| tab.update(Input::Net(net), now));
        self.net.settle();
    }

    /// One player event, 10 ms after the last.
    fn ui(&mut self, side: usize, e: Event) {
        self.wait(10);
        self.net
            .drive(seat(side), |tab, now| tab.update(Input::Ui(e), now));
        self.net.settle();
    }

    /// Time passes without anything running (no timer, no message).
    fn wait(&mut self, ms: u64) {
        self.net.set_now(self.net.now() + ms);
    }

    fn now(&self) -> u64 {
        self.net.now()
    }

    fn room(&self, side: usize) -> &RoomModel<u8> {
        &self.net.side(seat(side)).room
    }

    /// A side's model, to feed it by hand (what it returns is not carried).
    fn room_mut(&mut self, side: usize) -> &mut RoomModel<u8> {
        &mut self.net.side_mut(seat(side)).room
    }

    fn view(&self, side: usize) -> View {
        self.room(side).view(self.now())
    }

    fn session(&self, side: usize) -> &Session {
        self.room(side).session()
    }
}

fn pt(name: &str) -> Point {
    Point::from_name(name).unwrap()
}

fn cell(name: &str) -> Cell {
    Cell::from_name(name).unwrap()
}

#[test]
fn only_the_player_to_move_acts_and_the_selection_stays_local() {
    let mut p = Pair::new(GameKind::Morris);
    assert_eq!(p.view(0).status, "À vous (Bleu) : posez un pion.");
    assert_eq!(p.view(0).title, Some("À vous"));
    p.ui(1, Event::Point(pt("d6")));
    assert_eq!(
        p.view(1).notice.as_deref(),
        Some("Ce n'est pas votre tour : attendez le coup de votre adversaire.")
    );
    assert_eq!(p.session(0).game().unwrap().turns(), 0);
    // Placing all 18 pieces without a mill, then a selection that is never sent.
    let order = "a7 d7 g7 a4 g4 a1 d1 g1 b6 d6 f6 b4 f4 b2 d2 f2 c5 e5";
    for (i, name) in order.split(' ').enumerate() {
        p.ui(i % 2, Event::Point(pt(name)));
        assert_eq!(p.view(i % 2).notice, None, "{name}");
    }
    assert_eq!(p.session(1).game().unwrap().turns(), 18);
    let before = p.session(0).entries().len();
    p.ui(0, Event::Point(pt("c5")));
    assert_eq!(p.room(0).local().selected, Some(pt("c5")));
    assert_eq!(
        p.session(0).entries().len(),
        before,
        "a selection sends nothing"
    );
    assert!(
        p.view(0).buttons.unwrap().undo,
        "« Annuler » clears a selection"
    );
    p.ui(0, Event::Point(pt("c4")));
    assert_eq!(p.room(0).local().selected, None);
    assert_eq!(
        p.session(1).game(),
        p.session(0).game(),
        "the move reached the guest"
    );
    assert_eq!(
        p.session(1).room().record().split(' ').next_back(),
        Some("c5-c4")
    );
    // Saved before every move sent, on both sides.
    let saves = [0, 1].map(|side| p.net.side(seat(side)).saves);
    assert!(saves[0] >= 10 && saves[1] >= 10, "{saves:?}");
}

#[test]
fn refusals_are_explained_and_proposals_round_trip() {
    let mut p = Pair::new(GameKind::Meta);
    p.ui(0, Event::Undo);
    assert_eq!(
        p.view(0).notice.as_deref(),
        Some("Il n'y a aucun tour à annuler.")
    );
    p.ui(0, Event::Cell(cell("e5")));
    p.ui(1, Event::Cell(cell("a1")));
    assert_eq!(
        p.view(1).notice.as_deref(),
        Some("Vous devez jouer dans la grille au centre.")
    );
    p.ui(0, Event::Undo);
    assert!(p
        .view(0)
        .my_proposal
        .unwrap()
        .starts_with("Demande envoyée : annuler le dernier tour"));
    let theirs = p.view(1).their_proposal.expect("the guest is asked");
    assert_eq!(
        theirs.title,
        "Votre adversaire demande à annuler le dernier tour, e5."
    );
    assert_eq!(theirs.countdown, "Réponse attendue dans 1:00.");
    assert_eq!(p.view(1).title, Some("Demande de votre adversaire"));
    p.ui(1, Event::Reply(false));
    assert_eq!(
        p.view(0).notice.as_deref(),
        Some("Votre adversaire a refusé : annuler le dernier tour.")
    );
    assert_eq!(p.session(0).game().unwrap().turns(), 1);
    // Asking again at once is cooling down, and the page says for how long.
    p.ui(0, Event::Undo);
    assert_eq!(
        p.view(0).notice.as_deref(),
        Some("Votre demande vient d'être refusée : vous pourrez la renouveler dans 10 s.")
    );
    p.wait(4_000);
    p.ui(0, Event::Undo);
    assert!(p.view(0).notice.unwrap().ends_with("dans 6 s."));
}

#[test]
fn the_guest_cannot_change_the_limit_and_the_host_is_checked() {
    let mut p = Pair::new(GameKind::Morris);
    p.ui(1, Event::Limit("30".into()));
    assert_eq!(
        p.view(1).notice.as_deref(),
        Some("Seul l'hôte du salon choisit les options.")
    );
    assert_eq!(
        p.view(1).limit.unwrap().hint,
        Some("Seul l'hôte choisit la limite.")
    );
    p.ui(0, Event::Limit("501".into()));
    assert_eq!(
        p.view(0).limit.unwrap().error.as_deref(),
        Some(t::limit_error())
    );
    p.ui(0, Event::Limit("30".into()));
    let Some(AnyGame::Morris(g)) = p.session(1).game() else {
        panic!()
    };
    assert_eq!(g.max_turns(), 30);
    // A new game with a bad limit keeps the dialog open with the message.
    p.ui(0, Event::AskNewGame);
    p.ui(0, Event::DialogLimit("0".into()));
    p.ui(0, Event::Confirm);
    let dialog = p.view(0).dialog.expect("still open");
    assert_eq!(
        dialog.limit,
        Some(("0".to_string(), Some(t::limit_error().to_string())))
    );
    p.ui(0, Event::DialogLimit("12".into()));
    p.ui(0, Event::Confirm);
    assert_eq!(
        p.view(1).their_proposal.unwrap().title,
        "Votre adversaire propose une nouvelle partie limitée à 12 tours."
    );
    p.ui(1, Event::Reply(true));
    assert_eq!(
        p.view(1).status,
        "À vous (Bleu) : posez un pion.",
        "the guest opens the rematch"
    );
    assert_eq!(p.view(1).game_number, 1);
}

#[test]
fn an_acceptance_crossing_our_expiry_comes_too_late_and_both_sides_are_told() {
    let mut p = Pair::new(GameKind::Meta);
    p.ui(0, Event::Cell(cell("e5")));
    p.ui(1, Event::Cell(cell("e6")));
    p.ui(1, Event::Undo);
    // The host accepts just before the guest's minute runs out; the guest's automatic
    // withdrawal crosses the acceptance on the way. An answer counts only for what it saw:
    // the withdrawal stands, the acceptance is void, on both sides.
    let start = p.now();
    p.net.set_now(start + 59_000);
    p.net.drive(Seat::Host, |tab, now| {
        tab.update(Input::Ui(Event::Reply(true)), now)
    });
    assert_eq!(
        p.session(0).game().unwrap().turns(),
        1,
        "undone at once here"
    );
    // Still on its way when the guest's minute runs out.
    p.net.set_now(start + 60_001);
    p.net.tick(Seat::Guest);
    p.net.set_now(start + 60_002);
    p.net.settle();
    assert_eq!(p.session(0).room(), p.session(1).room(), "both agree");
    assert_eq!(p.session(1).game().unwrap().turns(), 2, "not undone");
    assert_eq!(
        p.view(1).notice.as_deref(),
        Some("Votre demande a expiré sans réponse.")
    );
    assert_eq!(
        p.view(0).notice.as_deref(),
        Some("Votre réponse est arrivée trop tard : la demande n'était plus en attente.")
    );
}

#[test]
fn endings_name_the_winner_and_the_reason() {
    let mut p = Pair::new(GameKind::Meta);
    p.ui(0, Event::Withdraw);
    assert!(p.view(0).notice.is_some());
    p.ui(0, Event::Arrow(Direction::Left));
    assert!(
        p.view(0).notice.is_some(),
        "moving the focus keeps the notice"
    );
    p.ui(0, Event::AskResign);
    assert_eq!(p.view(0).notice, None, "a new action replaces it");
    assert_eq!(p.view(0).dialog.unwrap().confirm, "Abandonner");
    p.ui(0, Event::Confirm);
    assert_eq!(p.view(1).status, "Rouge (vous) gagne : Bleu abandonne.");
    assert_eq!(p.view(0).status, "Rouge gagne : Bleu (vous) abandonne.");
    assert_eq!(p.view(0).result, Some(Some(Player::Red)));
    assert_eq!(text::countdown(299_001), "5:00");
    assert_eq!(text::countdown(59_000), "0:59");
}

#[test]
fn the_host_waits_with_its_invitation_and_the_page_wakes_for_countdowns() {
    let invite = Invite::with_code(GameKind::Meta, 100, "K7M2Q9XD4HPA", [2; 32]).unwrap();
    let host = Session::host(invite, [2; 32], Config::default(), 0).unwrap();
    let mut room = RoomModel::<u8>::new(host);
    assert_eq!(room.update(Input::Net(Net::Wake), 0), [Effect::AskWhy]);
    assert_eq!(room.view(0).relay.as_deref(), Some("Connexion au relais…"));
    assert_eq!(
        room.update(Input::Net(Net::Why(Ok(None))), 0),
        [Effect::Connect]
    );
    let view = room.view(0);
    assert_eq!(
        view.invite.as_ref().unwrap().code.as_deref(),
        Some("K7M2-Q9XD-4HPA")
    );
    assert_eq!(view.relay.as_deref(), Some("Connexion au relais…"));
    room.update(Input::Net(Net::Joined), 30);
    assert_eq!(
        room.view(30).relay.as_deref(),
        Some("Relais joint : en attente de l'autre navigateur.")
    );
    assert_eq!(
        room.next_wakeup(30),
        Some(30 + client_net::DIRECT_MS),
        "nothing moves until the guest comes, but the relay is asked whether it is there"
    );
    room.update(Input::Ui(Event::Copied(Copyable::Link, true)), 40);
    assert_eq!(
        room.view(40).invite.unwrap().copied,
        Some((Copyable::Link, true))
    );
    room.update(Input::Ui(Event::Copied(Copyable::Code, false)), 41);
    let invite = room.view(41).invite.unwrap();
    assert_eq!(invite.copied, Some((Copyable::Code, false)));
    assert_eq!(invite.kind, GameKind::Meta);
    // The relay goes: the retry counts down, second by second.
    assert_eq!(
        room.update(Input::Net(Net::Closed), 1_500),
        [Effect::AskWhy]
    );
    room.update(Input::Net(Net::Why(Err(()))), 1_510);
    assert_eq!(
        room.view(1_510).relay.as_deref(),
        Some("Le relais est injoignable. Nouvelle tentative dans 1 s.")
    );
    assert_eq!(room.next_wakeup(1_510), Some(2_000));
}

#[test]
fn a_connection_the_networks_block_is_said_on_both_sides_with_a_way_to_retry() {
    let invite = Invite::new(GameKind::Morris, 100, [1; 16], [2; 32], [3; 16]);
    let host = Session::host(invite.clone(), [2; 32], Config::default(), 0).unwrap();
    let guest = Session::guest(invite, [4; 32], Config::default(), 0);
    for (seat, session) in [("host", host), ("guest", guest)] {
        let mut room = RoomModel::<u8>::new(session);
        room.update(Input::Net(Net::Wake), 0);
        room.update(Input::Net(Net::Why(Ok(None))), 0);
        room.update(Input::Net(Net::Joined), 10);
        // Both in the room, no data channel: after a few seconds the relay is asked.
        let mut t = 10;
        let asked = loop {
            t = room.next_wakeup(t).unwrap();
            let out = room.update(Input::Net(Net::Wake), t);
            if !out.is_empty() {
                break out;
            }
        };
        assert_eq!(t, 10 + client_net::DIRECT_MS, "{seat}");
        assert_eq!(asked, [Effect::AskWhy]);
        room.update(
            Input::Net(Net::Why(Ok(Some(client_net::Refusal::RoomFull)))),
            t,
        );
        let v = room.view(t + 30_000);
        assert!(v.blocked, "{seat}");
        assert_eq!(v.status, t::blocked(), "{seat}");
        assert!(
            !v.expired && !v.full && v.relay.is_none(),
            "{seat}: one message"
        );
        // « Réessayer »: a new socket at once.
        let out = room.update(Input::Ui(Event::Retry), t + 30_000);
        assert_eq!(out, [Effect::Disconnect, Effect::AskWhy], "{seat}");
    }
}

#[test]
fn a_browser_without_webrtc_is_said_on_both_sides_and_never_blamed_on_the_network() {
    let invite = Invite::new(GameKind::Morris, 100, [1; 16], [2; 32], [3; 16]);
    let host = Session::host(invite.clone(), [2; 32], Config::default(), 0).unwrap();
    let guest = Session::guest(invite, [4; 32], Config::default(), 0);
    // The host has WebRTC and hears the guest's browser say it has none; the guest is that
    // browser.
    for (seat, session, webrtc) in [("host", host, true), ("guest", guest, false)] {
        let mut room = RoomModel::<u8>::new(session);
        room.set_webrtc(webrtc);
        room.update(Input::Net(Net::Wake), 0);
        room.update(Input::Net(Net::Why(Ok(None))), 0);
        room.update(Input::Net(Net::Joined), 10);
        if webrtc {
            room.update(Input::Net(Net::NoWebRtc(7)), 20);
        }
        // Both in the room, no data channel: the relay is asked and says so.
        let t = 10 + client_net::DIRECT_MS;
        assert_eq!(room.update(Input::Net(Net::Wake), t), [Effect::AskWhy]);
        room.update(
            Input::Net(Net::Why(Ok(Some(client_net::Refusal::RoomFull)))),
            t,
        );
        let v = room.view(t + 30_000);
        assert!(!v.blocked, "{seat}");
        assert!(!v.status.contains(t::blocked()), "{seat}: {}", v.status);
        assert!(
            !v.expired && v.relay.is_none(),
            "{seat}: nothing but the missing WebRTC"
        );
        if webrtc {
            assert_eq!(v.no_webrtc, Some(client_net::NoWebRtc::There));
            assert_eq!(v.status, t::no_webrtc_there());
            assert_eq!(v.presence, ("no-webrtc", t::joined_no_webrtc().to_string()));
        } else {
            assert_eq!(v.no_webrtc, Some(client_net::NoWebRtc::Here));
            assert_eq!(v.status, t::no_webrtc_board());
            assert_eq!(v.board, BoardView::Placeholder(t::no_direct_to_host()));
        }
    }
}

#[test]
fn a_refused_request_waits_with_its_button() {
    let mut p = Pair::new(GameKind::Meta);
    p.ui(0, Event::Cell(cell("e5")));
    p.ui(1, Event::Draw);
    p.ui(0, Event::Reply(false));
    // Declined: asking again at once says how long to wait, and the button counts it down.
    p.ui(1, Event::Draw);
    let v = p.view(1);
    assert_eq!(
        v.notice.as_deref(),
        Some("Votre demande vient d'être refusée : vous pourrez la renouveler dans 10 s.")
    );
    assert_eq!(v.buttons.unwrap().waits, [None, Some(10), None]);
    let now = p.now();
    assert_eq!(p.room(1).next_wakeup(now), Some(now / 1000 * 1000 + 1000));
    p.wait(10_000);
    assert_eq!(p.view(1).buttons.unwrap().waits, [None, None, None]);
}

#[test]
fn leaving_forgets_the_seat_and_the_export_follows_the_transcript() {
    let mut p = Pair::new(GameKind::Meta);
    p.ui(0, Event::Cell(cell("e5")));
    p.ui(1, Event::ToggleExport);
    let first = p.view(1).export.expect("open");
    assert!(first.transcript.starts_with("moulin-transcript v1\n"));
    let headers = "[Game \"meta\"]\n[Blue \"hôte\"]\n[Red \"invité\"]\n[Date \"1970-01-01\"]\n[Result \"*\"]\n";
    assert_eq!(first.record, format!("{headers}e5\n"));
    assert!(first.record_name.ends_with("-partie-1.txt"));
    p.ui(1, Event::Cell(cell("e6")));
    let record = p.view(1).export.unwrap().record;
    assert_eq!(record, format!("{headers}e5 e6\n"));
    // The record says what it is: it replays without naming the game.
    let replayed = engine::record::replay_all(&record, None, None).unwrap();
    assert_eq!(replayed.positions.last(), p.session(0).game());
    p.ui(1, Event::ToggleExport);
    assert_eq!(p.view(1).export, None);
    p.ui(1, Event::AskLeave);
    p.wait(10);
    let now = p.now();
    let effects = p.room_mut(1).update(Input::Ui(Event::Confirm), now);
    assert_eq!(effects.last(), Some(&Effect::Forget));
    assert!(
        !effects.iter().any(|e| matches!(e, Effect::Save)),
        "{effects:?}"
    );
    assert!(p.view(1).left);
    assert_eq!(
        p.session(1).room().ending,
        Some(engine::session::Ending::Left(engine::session::Seat::Guest))
    );
}

#[test]
fn a_fork_of_the_other_seat_ends_the_game_against_it_and_says_so() {
    // It once suspended the room for good (only leaving, a loss, remained): the fork now counts
    // against the seat that forked, by the proof the host's session writes at once.
    let mut p = Pair::new(GameKind::Meta);
    p.ui(0, Event::Cell(cell("e5")));
    // A copy of the guest's tab, restored from its storage, resigns; the guest itself plays.
    let saved = engine::session::Saved::from_text(&p.session(1).save_text()).unwrap();
    let mut copy = Session::restore(saved).unwrap();
    let resign = copy.act(engine::session::Command::Resign, p.now()).unwrap();
    p.ui(1, Event::Cell(cell("d5")));
    for e in resign {
        if let SessionEffect::Send(bytes) = e {
            p.net.deliver_bytes(Seat::Host, &bytes);
        }
    }
    p.net.settle();
    let host = p.view(0);
    assert_eq!(
        host.status,
        "Bleu (vous) gagne : Rouge a joué depuis deux onglets à la fois (deux entrées signées sous un même numéro)."
    );
    assert_eq!(
        p.session(0).room().ending,
        Some(engine::session::Ending::Forked(Seat::Guest))
    );
    assert!(matches!(
        host.board,
        view::BoardView::Meta { frozen: true, .. }
    ));
    // The guest's own tab holds the proof of its key's fork: it is the one suspended.
    let guest = p.view(1);
    assert_eq!(
        guest.status,
        "Votre place est utilisée dans un autre onglet : la partie est suspendue."
    );
    assert_eq!(guest.buttons, None, "no game buttons while suspended");
}

#[test]
fn a_new_device_knocks_for_the_seat_that_is_away_and_plays_on_once_let_in() {
    let mut p = Pair::new(GameKind::Morris);
    p.ui(0, Event::Point(pt("d6")));
    p.ui(1, Event::Point(pt("d2")));
    // The guest's browser is gone; the same link opens on another device (a new key).
    p.net.disconnect();
    let invite = Invite::new(GameKind::Morris, 100, [1; 16], [2; 32], [3; 16]);
    let now = p.now();
    *p.net.side_mut(Seat::Guest) =
        Tab::new(Session::guest(invite, [9; 32], Config::default(), now), now);
    p.net.connect();
    p.net.settle();

    let (newcomer, host) = (p.view(1), p.view(0));
    assert_eq!(newcomer.standing.as_ref().map(|s| s.kind), Some("knocking"));
    assert_eq!(
        newcomer.buttons, None,
        "a device without a seat has no game buttons"
    );
    // One story: nobody is « votre adversaire » for a device that is not a player.
    assert_eq!((newcomer.seat, newcomer.seated), ("none", false));
    assert_eq!(newcomer.presence.0, "player-here");
    assert!(!newcomer.presence.1.contains("adversaire"));
    assert!(!newcomer.can_export);
    let knock = host.knock.expect("the present player is asked");
    assert_eq!(
        knock.title,
        "Un nouvel appareil demande la place de Rouge. L'accepter ?"
    );
    assert_eq!(
        host.presence.0, "stranger",
        "the newcomer is not the opponent"
    );
    assert!(matches!(
        p.session(0).presence(),
        engine::session::Presence::Away { .. }
    ));

    // Declined: the newcomer is told, and asking again waits for the cooldown.
    p.ui(0, Event::Handover(false));
    assert_eq!(p.view(0).knock, None);
    let refused = p.view(1).standing.unwrap();
    assert_eq!(refused.kind, "refused");
    let (label, enabled) = refused.ask.expect("a way to ask again");
    assert!(
        !enabled && label.starts_with("Redemander la place ("),
        "{label}"
    );
    p.ui(1, Event::Knock);
    assert!(p.view(0).knock.is_none(), "not before the cooldown");
    p.wait(10_000);
    p.input(1, Net::Wake);
    assert_eq!(
        p.view(1).standing.unwrap().ask,
        Some(("Redemander la place".to_string(), true))
    );
    p.ui(1, Event::Knock);
    assert!(p.view(0).knock.is_some(), "asked again");

    // Accepted: the newcomer holds the guest seat and plays on from the same position.
    p.ui(0, Event::Handover(true));
    let (newcomer, host) = (p.view(1), p.view(0));
    assert_eq!(newcomer.standing, None);
    assert_eq!((newcomer.seat, newcomer.seated), ("guest", true));
    assert_eq!(newcomer.presence.0, "here");
    assert_eq!(host.presence.0, "here");
    assert_eq!(host.knock, None);
    p.ui(0, Event::Point(pt("b4")));
    p.ui(1, Event::Point(pt("f4")));
    for side in 0..2 {
        assert_eq!(p.session(side).game().unwrap().turns(), 4, "side {side}");
    }
    assert_eq!(p.session(1).seat(), engine::session::Seat::Guest);
}

#[test]
fn browsing_the_history_changes_nothing_live_and_the_opponents_moves_keep_arriving() {
    use crate::model::history::Nav;
    let mut p = Pair::new(GameKind::Morris);
    for (i, name) in "a7 b6 d7 d6".split(' ').enumerate() {
        p.ui(i % 2, Event::Point(pt(name)));
    }
    let entries = p.session(1).entries().len();
    p.ui(1, Event::History(Nav::Back));
    p.ui(1, Event::History(Nav::Back));
    let v = p.view(1);
    let h = v.history.clone().unwrap();
    assert_eq!((h.current, h.rows.len()), (2, 2));
    assert!(h
        .browsing
        .unwrap()
        .starts_with("Position après le tour 2 (Rouge : b6)"));
    let BoardView::Morris { game, frozen, .. } = v.board else {
        panic!()
    };
    assert_eq!((game.turns(), frozen), (2, true));
    assert_eq!(
        p.session(1).entries().len(),
        entries,
        "browsing sends nothing"
    );
    // The host (Blue) plays g7, closing the top mill, then captures: the guest still looks
    // at turn 2, and is told.
    p.ui(0, Event::Point(pt("g7")));
    assert_eq!(p.view(1).history.unwrap().pending.as_deref(), Some("g7x…"));
    p.ui(0, Event::Point(pt("b6")));
    assert_eq!(p.session(1).room().record(), "a7 b6 d7 d6 g7xb6");
    let v = p.view(1);
    assert_eq!(v.history.as_ref().unwrap().current, 2);
    assert_eq!(v.notice.as_deref(), Some(t::played_while_browsing()));
    // A click on the past position plays nothing; « Retour à la partie » shows the live game.
    p.ui(1, Event::Point(pt("a1")));
    assert_eq!(p.view(1).notice.as_deref(), Some(t::read_only()));
    assert_eq!(p.session(0).room().record(), "a7 b6 d7 d6 g7xb6");
    p.ui(1, Event::History(Nav::Live));
    let v = p.view(1);
    assert_eq!(v.history.as_ref().unwrap().current, 5);
    let BoardView::Morris { game, frozen, .. } = v.board else {
        panic!()
    };
    assert_eq!((game.turns(), frozen), (5, false));
    p.ui(1, Event::Point(pt("a1")));
    assert_eq!(p.session(0).room().record(), "a7 b6 d7 d6 g7xb6 a1");
}

#[test]
fn the_live_region_tells_the_opponents_moves_proposals_and_presence() {
    let mut p = Pair::new(GameKind::Meta);
    assert_eq!(
        p.room(0).speech().text,
        "Votre adversaire est arrivé.",
        "the guest came"
    );
    p.ui(0, Event::Cell(cell("e5")));
    let e5 = "Bleu (croix) joue en e5 ; prochain coup dans la grille au centre.";
    assert_eq!(p.room(1).speech().text, e5, "the opponent's move");
    assert_eq!(p.room(0).speech().text, e5, "our own move");
    p.ui(0, Event::Undo);
    assert_eq!(
        p.room(1).speech().text,
        "Votre adversaire demande à annuler le dernier tour."
    );
    p.ui(1, Event::Reply(true));
    for side in 0..2 {
        assert_eq!(
            p.room(side).speech().text,
            "Dernier tour annulé. Au tour de Bleu."
        );
    }
    // The guest's connection drops, then comes back.
    p.wait(10);
    p.net.disconnect();
    assert!(
        p.room(0)
            .speech()
            .text
            .starts_with("Votre adversaire s'est déconnecté : sa place est gardée 5:00"),
        "{}",
        p.room(0).speech().text
    );
    p.net.connect();
    p.net.settle();
    assert_eq!(p.room(0).speech().text, "Votre adversaire est de retour.");
    // Resigning ends the game off the board: the status says how.
    p.ui(1, Event::AskResign);
    p.ui(1, Event::Confirm);
    assert_eq!(p.room(0).speech().text, p.view(0).status);
    assert!(p.view(0).status.contains("abandonne"));
}

#[test]
fn a_player_whose_old_connection_the_relay_still_counts_keeps_the_game() {
    use client_net::Refusal;
    let mut p = Pair::new(GameKind::Meta);
    p.ui(0, Event::Cell(cell("e5")));
    // The host's socket drops while the relay still holds it beside the guest's: « full ».
    p.wait(10);
    let mut now = p.now();
    let host = p.room_mut(0);
    assert_eq!(host.update(Input::Net(Net::Closed), now), [Effect::AskWhy]);
    let full = Input::Net(Net::Why(Ok(Some(Refusal::RoomFull))));
    host.update(full.clone(), now);
    for attempt in 0..2 {
        let v = host.view(now);
        assert!(!v.full, "attempt {attempt}: the game stays on screen");
        assert!(matches!(v.board, BoardView::Meta { .. }), "{attempt}");
        assert_eq!(v.status, "Au tour de Rouge : attendez son coup.");
        let relay = v.relay.expect("the relay line says what happens");
        assert!(
            relay.starts_with(t::room_full()) && relay.contains("Nouvelle tentative dans"),
            "{relay}"
        );
        // The next attempt asks the relay first, and hears the same.
        now = host.next_wakeup(now).unwrap().max(now);
        while host.update(Input::Net(Net::Wake), now) != [Effect::AskWhy] {
            now = host.next_wakeup(now).unwrap().max(now + 1);
        }
        host.update(full.clone(), now);
    }
    // A device with no game there reads the full-room page.
    let invite = Invite::new(GameKind::Meta, 100, [1; 16], [2; 32], [3; 16]);
    let mut third = RoomModel::<u8>::new(Session::guest(invite, [7; 32], Config::default(), 0));
    assert_eq!(third.update(Input::Net(Net::Wake), 0), [Effect::AskWhy]);
    third.update(full, 5);
    assert!(third.view(5).full);
}

#[test]
fn a_seat_the_browser_does_not_keep_is_said_until_it_does() {
    let mut p = Pair::new(GameKind::Meta);
    p.room_mut(1).seat_kept(false);
    assert_eq!(p.view(1).notice.as_deref(), Some(t::seat_not_kept_room()));
    // A refusal is said first; the warning comes back after it.
    p.ui(1, Event::Cell(cell("e5")));
    assert_eq!(
        p.view(1).notice.as_deref(),
        Some("Ce n'est pas votre tour : attendez le coup de votre adversaire.")
    );
    p.ui(0, Event::Cell(cell("e5")));
    p.ui(1, Event::Cell(cell("d5")));
    assert_eq!(p.session(0).game().unwrap().turns(), 2);
    assert_eq!(p.view(1).notice.as_deref(), Some(t::seat_not_kept_room()));
    p.room_mut(1).seat_kept(true);
    assert_eq!(p.view(1).notice, None);
}

#[test]
fn a_move_lost_on_the_way_reaches_the_other_page_with_the_next_heartbeat() {
    let mut p = Pair::new(GameKind::Meta);
    p.net.drive(Seat::Host, |tab, now| {
        tab.update(Input::Ui(Event::Cell(cell("e5"))), now)
    });
    p.net.fault(Seat::Guest, Fault::Drop);
    p.net.settle();
    assert_eq!(p.session(1).game().unwrap().turns(), 0);
    assert_eq!(p.view(1).status, "Au tour de Bleu : attendez son coup.");
    // The heads of the next heartbeat say what the guest lacks; the page shows and tells it.
    p.net.advance(2_000);
    assert_eq!(p.session(1).game().unwrap().turns(), 1);
    assert!(p.view(1).status.starts_with("À vous (Rouge)"));
    assert!(p
        .room(1)
        .speech()
        .text
        .starts_with("Bleu (croix) joue en e5"));
    assert!(p.net.in_sync());
}

#[test]
fn a_page_reloaded_mid_game_comes_back_from_its_save_to_the_same_game() {
    let mut p = Pair::new(GameKind::Morris);
    for (i, name) in "d6 d2 b4".split(' ').enumerate() {
        p.ui(i % 2, Event::Point(pt(name)));
    }
    // The guest's reply is sent, then its tab reloads before anything arrives.
    p.net.drive(Seat::Guest, |tab, now| {
        tab.update(Input::Ui(Event::Point(pt("f4"))), now)
    });
    p.net.restart(Seat::Guest);
    assert_eq!(p.session(1).game().unwrap().turns(), 4, "saved before sent");
    assert_eq!(p.session(0).game().unwrap().turns(), 3, "lost on the way");
    p.net.connect();
    p.net.settle();
    assert!(p.net.in_sync());
    assert_eq!(p.view(0).status, "À vous (Bleu) : posez un pion.");
    assert_eq!(p.view(1).presence.0, "here");
    p.ui(0, Event::Point(pt("a7")));
    assert_eq!(p.session(1).room().record(), "d6 d2 b4 f4 a7");
}

#[test]
fn a_seat_handed_away_while_its_player_is_here_is_said_on_its_page() {
    use engine::session::wire::encode_message;
    use engine::session::{Body, Loopback, Message, Seat};
    let mut p = Pair::new(GameKind::Meta);
    p.ui(0, Event::Cell(cell("e5")));
    p.ui(1, Event::Cell(cell("e4")));
    // A copy of the host's session lets a third device knock and take the guest's seat, though
    // the guest is here (the real host's page would not be asked: the guest proved its seat).
    let invite = p.session(0).invite().clone();
    let newcomer = Session::guest(invite, [9; 32], Config::default(), p.now());
    let mut copy = Loopback::with_sessions(p.session(0).clone(), newcomer);
    copy.exchange(Seat::Host, Command::Handover { accept: true });
    let handover = copy.host().entries().into_iter().last().unwrap();
    assert!(matches!(
        handover.body,
        Body::Handover {
            seat: Seat::Guest,
            ..
        }
    ));
    let bytes = encode_message(&Message::Entries(vec![handover]));
    let now = p.now();
    p.room_mut(1).update(Input::Net(Net::Packet(0, bytes)), now);
    let view = p.view(1);
    assert_eq!(view.notice.as_deref(), Some(t::taken_while_here()));
    let standing = view.standing.expect("no seat any more");
    assert_eq!(standing.kind, "handed-away");
    assert!(
        !standing.text.contains("absence"),
        "it was here: {}",
        standing.text
    );
    assert_eq!(
        p.room_mut(1)
            .update(Input::Ui(Event::Cell(cell("a1"))), now),
        [],
        "this tab plays no more"
    );
}

#[test]
fn colours_by_lot_are_drawn_and_said_on_both_pages_under_the_hosts_rules() {
    let pair = Pair::with_host(GameKind::Morris, |host| {
        let o = host.options(60, engine::morris::Rules::LASKER, true, 0);
        host.act(Command::Options(o), 0).unwrap();
    });
    let p = pair;
    let host = p.room(0).session().player();
    for side in [0, 1] {
        let mine = if side == 0 { host } else { host.opponent() };
        let v = p.view(side);
        let expected = match mine {
            Player::Blue => t::drawn_blue(),
            Player::Red => t::drawn_red(),
        };
        assert_eq!(v.notice.as_deref(), Some(expected), "side {side}");
        assert_eq!(v.my_turn, mine == Player::Blue, "side {side}");
        let Some(AnyGame::Morris(m)) = p.room(side).session().game() else {
            panic!("a Morris game")
        };
        assert_eq!(
            (m.rules(), m.max_turns()),
            (engine::morris::Rules::LASKER, 60)
        );
        if mine == Player::Blue {
            assert_eq!(v.status, t::mine_place_or_move(t::player_blue()));
        }
    }
}

#[test]
fn the_host_proposes_new_rules_and_colours_by_lot_with_a_new_game() {
    use crate::model::rules::RulesInput;
    use engine::morris::Rules;
    let mut p = Pair::new(GameKind::Morris);
    // The guest's dialog has no options to choose.
    p.ui(1, Event::AskNewGame);
    assert_eq!(p.view(1).dialog.unwrap().options, None);
    p.ui(1, Event::Cancel);
    p.ui(0, Event::AskNewGame);
    let (form, lot) = p
        .view(0)
        .dialog
        .unwrap()
        .options
        .expect("the host's options");
    assert_eq!((form.unwrap().rules, lot), (Rules::NINE, false));
    p.ui(0, Event::DialogRules(RulesInput::Named(Rules::TWELVE)));
    p.ui(0, Event::DialogRules(RulesInput::Quiet("600".into())));
    p.ui(0, Event::Confirm);
    assert!(
        p.view(0).dialog.is_some(),
        "a refused number keeps the dialog open"
    );
    p.ui(0, Event::DialogRules(RulesInput::Quiet("0".into())));
    p.ui(0, Event::DialogLot(true));
    p.ui(0, Event::Confirm);
    let asked = p.view(1).their_proposal.unwrap().title;
    assert_eq!(
        asked,
        "Votre adversaire propose une nouvelle partie : Douze pions (diagonales), 100 tours au plus, couleurs tirées au sort."
    );
    p.ui(1, Event::Reply(true));
    for side in [0, 1] {
        let s = p.session(side);
        let Some(AnyGame::Morris(m)) = s.game() else {
            panic!()
        };
        assert_eq!(m.rules(), Rules::TWELVE);
        assert!(s.room().draw.unwrap().host.is_some(), "drawn at once");
        let v = p.view(side);
        assert_eq!((v.rules, v.lot), (Some(Rules::TWELVE), true));
    }
}

#[test]
fn a_guest_in_a_room_nobody_is_in_is_told_at_once_and_a_leaver_is_said_by_the_board() {
    let invite = Invite::new(GameKind::Morris, 100, [1; 16], [2; 32], [3; 16]);
    let guest = Session::guest(invite, [4; 32], Config::default(), 0);
    let mut room = RoomModel::<u8>::new(guest);
    assert_eq!(room.update(Input::Net(Net::Wake), 0), [Effect::AskWhy]);
    room.update(Input::Net(Net::RoomPeers(0)), 5);
    room.update(Input::Net(Net::Why(Ok(None))), 5);
    room.update(Input::Net(Net::Joined), 10);
    let v = room.view(20);
    assert_eq!(v.status, t::nobody_here());
    let later = room.view(40_000);
    assert!(!later.expired, "one message, not two");
    assert_eq!(
        later.status,
        t::expired(),
        "after 30 s, the line says the room may have expired"
    );

    // After a finished game, the other player leaves: the status line says it too.
    let mut p = Pair::new(GameKind::Meta);
    p.ui(1, Event::AskResign);
    p.ui(1, Event::Confirm);
    p.ui(1, Event::AskLeave);
    p.ui(1, Event::Confirm);
    let status = p.view(0).status;
    assert!(status.ends_with(t::other_left()), "{status}");
}

#[test]
fn a_room_whose_relay_is_gone_offers_to_go_on_paired_by_hand() {
    let mut p = Pair::new(GameKind::Morris);
    let now = p.now();
    assert!(!p.view(0).serverless, "met through the relay");
    // The link goes, and the relay does not answer: the page offers « Sans serveur », the same
    // seat and game. (In the browser the data channel outlives a relay outage: while it is
    // open the driver has its peer, and nothing is offered.)
    let host = p.room_mut(0);
    host.update(Input::Net(Net::Closed), now);
    host.update(Input::Net(Net::Why(Err(()))), now);
    assert!(!host.has_peer());
    assert!(host.view(now).serverless);
    // Not for a relay that answers and refuses (a full room: another device of ours).
    let mut refused = host.clone();
    refused.update(Input::Net(Net::Wake), now + 60_000);
    refused.update(Input::Net(Net::Closed), now + 60_000);
    refused.update(
        Input::Net(Net::Why(Ok(Some(client_net::Refusal::RoomFull)))),
        now + 60_000,
    );
    assert!(!refused.view(now + 60_000).serverless);
    // Not in a room already paired by hand, nor once the player left.
    let mut paired = host.clone();
    paired.set_paired();
    assert!(!paired.view(now).serverless);
    host.update(Input::Ui(Event::AskLeave), now);
    host.update(Input::Ui(Event::Confirm), now);
    assert!(!host.view(now).serverless);
}
