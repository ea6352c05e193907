//! Remote play end to end without a browser: two native peers run the client's network module
//! (`client-net`, the same code the browser runs) over real WebRTC through a real relay, and
//! play whole games with consent, reconnections and a relay restart.

use client_net::{Down, Refusal, Relay as RelayState};
use engine::session::{Command, Config, Invite, Presence, Proposal, Session, Step};
use engine::{AnyGame, GameKind};
use integration_tests::{Player, Relay};
use std::time::{Duration, Instant};

const HOST_SEED: [u8; 32] = [11; 32];
const GUEST_SEED: [u8; 32] = [22; 32];

/// Two players of one room, each running the browser's room loop natively.
struct Game2 {
    host: Player,
    guest: Player,
}

impl Game2 {
    async fn open(relay: &Relay, kind: GameKind, config: Config) -> Game2 {
        let invite = Invite::new(kind, 100, [5; 16], HOST_SEED, [6; 16]);
        let host = Session::host(invite.clone(), HOST_SEED, config, 0).unwrap();
        let guest = Session::guest(invite, GUEST_SEED, config, 0);
        let start = Instant::now();
        let mut g = Game2 {
            host: Player::new(host, relay.addr, start),
            guest: Player::new(guest, relay.addr, start),
        };
        g.until("both sides see the game", |g| {
            g.host.session().presence() == Presence::Here
                && g.guest.session().presence() == Presence::Here
                && g.guest.session().game().is_some()
                && g.host.session().room().hello[1]
        })
        .await;
        g
    }

    /// Waits for what comes first on either side — its socket, the relay, its clock — and
    /// handles it (each side runs the browser's very loop): nothing polls.
    async fn step(&mut self) {
        tokio::select! {
            () = self.host.turn() => {}
            () = self.guest.turn() => {}
            // Nothing at all for a second: let `until` look at its deadline.
            () = tokio::time::sleep(Duration::from_secs(1)) => {}
        }
    }

    /// Runs both sides until `done` holds (at most 30 s).
    async fn until(&mut self, what: &str, done: impl Fn(&Game2) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while !done(self) {
            assert!(
                Instant::now() < deadline,
                "timed out waiting until {what}: relay {:?} / {:?}, peer {} / {}, presence {:?} / {:?}, loop ended {:?} / {:?}",
                self.host.driver().relay(),
                self.guest.driver().relay(),
                self.host.driver().has_peer(),
                self.guest.driver().has_peer(),
                self.host.session().presence(),
                self.guest.session().presence(),
                self.host.loop_finished(),
                self.guest.loop_finished(),
            );
            self.step().await;
        }
    }

    fn synced(&self) -> bool {
        self.host.session().room() == self.guest.session().room()
            && self.host.session().entries() == self.guest.session().entries()
    }

    fn mover(&mut self) -> Option<&mut Player> {
        if self.host.session().my_turn() {
            Some(&mut self.host)
        } else if self.guest.session().my_turn() {
            Some(&mut self.guest)
        } else {
            None
        }
    }

    /// Plays `count` random legal steps (or to the end), each delivered before the next;
    /// returns how long each took to reach the other side.
    async fn play(&mut self, count: usize, seed: &mut u64) -> Vec<Duration> {
        let mut delays = Vec::new();
        for _ in 0..count {
            self.until("a side may move", |g| {
                g.synced()
                    && (g.host.session().my_turn()
                        || g.guest.session().my_turn()
                        || !g.host.session().room().in_progress())
            })
            .await;
            let Some(side) = self.mover() else { break };
            let step = random_step(side.session().game().unwrap(), seed);
            side.act(Command::Play(step)).unwrap();
            let sent = Instant::now();
            self.until("the move arrives", |g| g.synced()).await;
            delays.push(sent.elapsed());
        }
        delays
    }
}

fn random_step(g: &AnyGame, seed: &mut u64) -> Step {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    let pick = (*seed >> 11) as usize;
    let steps = Step::legal(g);
    steps[pick % steps.len()]
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whole_games_of_both_kinds_between_two_native_peers() {
    let relay = Relay::start().await;
    for (kind, mut seed) in [(GameKind::Meta, 7u64), (GameKind::Morris, 9)] {
        let mut g = Game2::open(&relay, kind, Config::default()).await;
        let delays = g.play(1000, &mut seed).await;
        let game = g.host.session().game().unwrap();
        assert!(game.outcome().is_some(), "{kind:?} reached its end");
        assert!(g.synced());
        println!(
            "figure: {kind:?}, {} moves, move to the other side's state: median {:?}",
            delays.len(),
            median(delays)
        );
        // The transcript verifies offline to the same final state.
        let v = engine::session::transcript::verify(&g.guest.session().export()).unwrap();
        assert_eq!(v.game(), g.host.session().game());
    }
    relay.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_and_new_game_accepted_declined_and_expired() {
    let relay = Relay::start().await;
    let config = Config {
        proposal_ms: 1_500,
        ..Config::default()
    };
    let mut g = Game2::open(&relay, GameKind::Meta, config).await;
    let mut seed = 3;
    g.play(3, &mut seed).await;
    let before = g.host.session().game().cloned();
    // Expired: nobody answers for the proposal's life (shortened to 1.5 s here).
    g.guest.act(Command::Propose(Proposal::Undo)).unwrap();
    g.until("the host sees the proposal", |g| {
        g.host.session().proposals()[1].is_some()
    })
    .await;
    g.until("the proposal expires", |g| {
        g.synced() && g.host.session().room().open[1].is_none()
    })
    .await;
    assert_eq!(g.host.session().game().cloned(), before);
    // Accepted.
    g.guest.act(Command::Propose(Proposal::Undo)).unwrap();
    g.until("the host sees the proposal", |g| {
        g.host.session().proposals()[1].is_some()
    })
    .await;
    g.host.act(Command::Reply { accept: true }).unwrap();
    g.until("the undo arrives", |g| g.synced()).await;
    assert_eq!(g.host.session().game().unwrap().turns(), 2);
    // A new game, declined: nothing changes.
    g.host
        .act(Command::Propose(Proposal::NewGame { max_turns: None }))
        .unwrap();
    g.until("the guest sees it", |g| {
        g.guest.session().proposals()[1].is_some()
    })
    .await;
    g.guest.act(Command::Reply { accept: false }).unwrap();
    g.until("the decline arrives", |g| g.synced()).await;
    assert_eq!(g.host.session().room().game_number, 0);
    assert_eq!(g.host.session().game().unwrap().turns(), 2);
    // A new game, accepted: the guest moves first.
    g.guest
        .act(Command::Propose(Proposal::NewGame { max_turns: None }))
        .unwrap();
    g.until("the host sees it", |g| {
        g.host.session().proposals()[1].is_some()
    })
    .await;
    g.host.act(Command::Reply { accept: true }).unwrap();
    g.until("the new game starts", |g| {
        g.synced() && g.guest.session().my_turn()
    })
    .await;
    assert_eq!(g.host.session().room().game_number, 1);
    relay.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reload_during_a_pending_capture_rejoins_the_same_seat() {
    let relay = Relay::start().await;
    let mut g = Game2::open(&relay, GameKind::Morris, Config::default()).await;
    // a7 b6 d7 d6, then g7 closes a mill: the capture is pending when the host reloads.
    for (host, p) in [(true, 0u8), (false, 8), (true, 1), (false, 9), (true, 2)] {
        let side = if host { &mut g.host } else { &mut g.guest };
        side.act(Command::Play(Step::Place(p))).unwrap();
        g.until("the move arrives", |g| g.synced()).await;
    }
    g.host.reload();
    g.until("the host is back", |g| {
        g.synced() && g.host.session().presence() == Presence::Here
    })
    .await;
    assert!(g.host.session().my_turn(), "still the host's capture");
    g.host.act(Command::Play(Step::Capture(8))).unwrap();
    g.until("the capture arrives", |g| g.synced()).await;
    assert_eq!(g.guest.session().game().unwrap().turns(), 5);
    // The guest reloads too, then the game goes on to its end.
    g.guest.reload();
    let mut seed = 5;
    g.play(1000, &mut seed).await;
    assert!(g.host.session().game().unwrap().outcome().is_some());
    relay.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restarting_the_relay_loses_no_game_and_no_page_reloads() {
    let relay = Relay::start().await;
    let addr = relay.addr;
    let mut g = Game2::open(&relay, GameKind::Meta, Config::default()).await;
    let mut seed = 11;
    g.play(6, &mut seed).await;
    let before = g.host.session().room().clone();
    let sockets = [g.host.tab().sockets.len(), g.guest.tab().sockets.len()];
    relay.stop().await;
    // The sockets' data channel may outlive the relay (matchbox keeps a socket with a connected
    // peer; established channels need no relay), or it may close with the relay's sockets: then
    // the players are told the relay is unreachable. Which one depends on timing.
    let down = |p: &Player| {
        matches!(
            p.driver().relay(),
            RelayState::Down {
                why: Down::Unreachable,
                ..
            }
        )
    };
    let since = Instant::now();
    g.until(
        "both see the relay gone, or their channel outlives it",
        |g| {
            (down(&g.host) && down(&g.guest))
                || (since.elapsed() > Duration::from_secs(6)
                    && g.host.driver().has_peer()
                    && g.guest.driver().has_peer())
        },
    )
    .await;
    let kept = g.host.driver().has_peer();
    if kept {
        // Play goes on over the channel while the relay is down.
        g.play(2, &mut seed).await;
    }
    let relay = Relay::start_at(addr).await;
    // No reload: each side that lost its socket opens a new one by itself, meets the other and
    // carries on.
    g.until("both are back", |g| {
        g.synced()
            && g.host.session().presence() == Presence::Here
            && g.guest.session().presence() == Presence::Here
    })
    .await;
    if !kept {
        assert!(
            g.host.tab().sockets.len() > sockets[0] && g.guest.tab().sockets.len() > sockets[1]
        );
        assert_eq!(g.host.session().room(), &before);
    }
    g.play(1000, &mut seed).await;
    assert!(g.guest.session().game().unwrap().outcome().is_some());
    relay.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_third_peer_is_refused_and_the_game_goes_on() {
    let relay = Relay::start().await;
    let mut g = Game2::open(&relay, GameKind::Meta, Config::default()).await;
    let third = Session::guest(
        g.host.session().invite().clone(),
        [33; 32],
        Config::default(),
        0,
    );
    let mut third = Player::new(third, relay.addr, Instant::now());
    let deadline = Instant::now() + Duration::from_secs(20);
    while third.driver().refused() != Some(Refusal::RoomFull) {
        assert!(Instant::now() < deadline, "the third peer was not refused");
        tokio::select! {
            () = third.turn() => {}
            () = g.step() => {}
        }
    }
    assert!(
        third.tab().sockets.is_empty(),
        "the relay said so before any socket"
    );
    assert!(third.session().game().is_none(), "it never met the host");
    let mut seed = 13;
    g.play(4, &mut seed).await;
    assert!(g.synced());
    relay.stop().await;
}

/// Whether the seat a player's tab keeps restores to the room it plays.
fn stored_is_current(p: &Player) -> bool {
    Session::restore(p.tab().stored()).unwrap().room() == p.session().room()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_runtime_asks_before_each_socket_gives_each_a_fresh_ice_list_and_keeps_moves() {
    let relay = Relay::start().await;
    let invite = Invite::new(GameKind::Meta, 100, [7; 16], HOST_SEED, [8; 16]);
    let start = Instant::now();
    let host = Session::host(invite.clone(), HOST_SEED, Config::default(), 0).unwrap();
    let mut host = Player::new(host, relay.addr, start);
    // Alone in the room: the link says when the relay admits the socket, without a peer.
    let deadline = Instant::now() + Duration::from_secs(20);
    while host.driver().relay() != RelayState::Joined {
        assert!(Instant::now() < deadline, "the host never joined");
        tokio::time::timeout(Duration::from_secs(1), host.turn())
            .await
            .ok();
    }
    assert!(!host.driver().has_peer());
    let guest = Session::guest(invite, GUEST_SEED, Config::default(), 0);
    let mut g = Game2 {
        host,
        guest: Player::new(guest, relay.addr, start),
    };
    g.until("both sides see the game", |g| {
        g.synced() && g.guest.session().game().is_some()
    })
    .await;
    for p in [&g.host, &g.guest] {
        assert_eq!(
            p.tab().sockets,
            ["list-1"],
            "one socket, after its ICE list"
        );
        assert_eq!(p.tab().probes, 1, "the relay asked before the socket");
    }
    // What a tab writes is kept before it is sent; what it receives, once shown.
    let mut seed = 17;
    for _ in 0..4 {
        g.until("a side may move", |g| {
            g.synced() && (g.host.session().my_turn() || g.guest.session().my_turn())
        })
        .await;
        let side = g.mover().unwrap();
        let step = random_step(side.session().game().unwrap(), &mut seed);
        side.act(Command::Play(step)).unwrap();
        assert!(stored_is_current(side), "the move was kept at once");
        g.until("the move arrives and is kept", |g| {
            g.synced() && stored_is_current(&g.host) && stored_is_current(&g.guest)
        })
        .await;
    }
    // A new socket (the player's « Réessayer »): asked about first, with a new ICE list.
    g.guest.retry();
    g.until("the guest is back", |g| {
        g.guest.tab().sockets.len() == 2 && g.guest.driver().has_peer() && g.synced()
    })
    .await;
    assert_eq!(g.guest.tab().sockets, ["list-1", "list-2"]);
    assert_eq!(g.guest.tab().ice_lists, 2);
    // Asked before the new socket — and again, on a loaded machine, if the relay still counted
    // the old one (« full »: asked again after the back-off) or if the new channel took longer
    // than DIRECT_MS to open (the driver asks whether the other player is there).
    let probes = g.guest.tab().probes;
    assert!(probes >= 2, "{probes}");
    // The host's socket stays: nothing was asked of its tab.
    assert_eq!(g.host.tab().sockets, ["list-1"]);
    relay.stop().await;
}
