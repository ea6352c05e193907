//! Remote play end to end without a browser: two native peers run the client's network module
//! (`client-net`, the same code the browser runs) over real WebRTC through a real relay, and
//! play whole games with consent, reconnections and a relay restart.

use client_net::Link;
use engine::session::{
    Command, CommandError, Config, Effect, Invite, Presence, Proposal, Session, Step,
};
use engine::{AnyGame, GameKind};
use integration_tests::Relay;
use std::time::{Duration, Instant};
use tokio::task::JoinHandle;

const HOST_SEED: [u8; 32] = [11; 32];
const GUEST_SEED: [u8; 32] = [22; 32];

fn now_ms(start: Instant) -> u64 {
    start.elapsed().as_millis() as u64
}

struct Side {
    session: Session,
    link: Link,
    message_loop: JoinHandle<Result<(), integration_tests::matchbox_socket::Error>>,
    saved: engine::session::Saved,
}

impl Side {
    fn open(session: Session, url: &str) -> Side {
        let (link, message_loop) = Link::connect(url, &[]);
        Side {
            saved: session.save(),
            session,
            link,
            message_loop: tokio::spawn(message_loop),
        }
    }

    fn pump(&mut self, now: u64) {
        let effects = self.link.pump(&mut self.session, now);
        self.keep(effects);
    }

    fn act(&mut self, c: Command, now: u64) -> Result<(), CommandError> {
        let effects = self.link.act(&mut self.session, c, now)?;
        self.keep(effects);
        Ok(())
    }

    /// What the browser does with `Effect::Save`: keep the session to restore after a reload.
    fn keep(&mut self, effects: Vec<Effect>) {
        if effects.contains(&Effect::Save) {
            self.saved = self.session.save();
        }
    }

    /// A reload: the tab's socket is gone; the page restores the saved session and reconnects.
    fn reload(&mut self, url: &str) {
        self.message_loop.abort();
        let session = Session::restore(self.saved.clone()).expect("the saved session restores");
        *self = Side::open(session, url);
    }
}

struct Game2 {
    host: Side,
    guest: Side,
    start: Instant,
    url: String,
}

impl Game2 {
    async fn open(relay: &Relay, kind: GameKind, config: Config) -> Game2 {
        let invite = Invite::new(kind, 100, [5; 16], HOST_SEED, [6; 16]);
        let url = relay.room_url(&invite.room_name());
        let host = Session::host(invite.clone(), HOST_SEED, config, 0).unwrap();
        let guest = Session::guest(invite, GUEST_SEED, config, 0);
        let mut g = Game2 {
            host: Side::open(host, &url),
            guest: Side::open(guest, &url),
            start: Instant::now(),
            url,
        };
        g.until("both sides see the game", |g| {
            g.host.session.presence() == Presence::Here
                && g.guest.session.presence() == Presence::Here
                && g.guest.session.game().is_some()
                && g.host.session.room().hello[1]
        })
        .await;
        g
    }

    fn now(&self) -> u64 {
        now_ms(self.start)
    }

    fn pump(&mut self) {
        let now = self.now();
        self.host.pump(now);
        self.guest.pump(now);
    }

    /// Pumps both sides until `done` holds (at most 20 s).
    async fn until(&mut self, what: &str, done: impl Fn(&Game2) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !done(self) {
            assert!(Instant::now() < deadline, "timed out waiting until {what}");
            self.pump();
            tokio::time::sleep(Duration::from_millis(3)).await;
        }
    }

    fn synced(&self) -> bool {
        self.host.session.room() == self.guest.session.room()
            && self.host.session.entries() == self.guest.session.entries()
    }

    fn mover(&mut self) -> Option<&mut Side> {
        if self.host.session.my_turn() {
            Some(&mut self.host)
        } else if self.guest.session.my_turn() {
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
                    && (g.host.session.my_turn()
                        || g.guest.session.my_turn()
                        || g.host
                            .session
                            .room()
                            .game
                            .as_ref()
                            .is_some_and(|x| x.outcome().is_some()))
            })
            .await;
            let now = self.now();
            let Some(side) = self.mover() else { break };
            let step = random_step(side.session.game().unwrap(), seed);
            side.act(Command::Play(step), now).unwrap();
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
        let game = g.host.session.game().unwrap();
        assert!(game.outcome().is_some(), "{kind:?} reached its end");
        assert!(g.synced());
        println!(
            "figure: {kind:?}, {} moves, move to the other side's state: median {:?}",
            delays.len(),
            median(delays)
        );
        // The transcript verifies offline to the same final state.
        let v = engine::session::transcript::verify(&g.guest.session.export()).unwrap();
        assert_eq!(v.game(), g.host.session.game());
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
    let before = g.host.session.game().cloned();
    // Expired: nobody answers for the proposal's life (shortened to 1.5 s here).
    let now = g.now();
    g.guest.act(Command::Propose(Proposal::Undo), now).unwrap();
    g.until("the host sees the proposal", |g| {
        g.host.session.proposals()[1].is_some()
    })
    .await;
    g.until("the proposal expires", |g| {
        g.synced() && g.host.session.room().open[1].is_none()
    })
    .await;
    assert_eq!(g.host.session.game().cloned(), before);
    // Accepted.
    let now = g.now();
    g.guest.act(Command::Propose(Proposal::Undo), now).unwrap();
    g.until("the host sees the proposal", |g| {
        g.host.session.proposals()[1].is_some()
    })
    .await;
    let now = g.now();
    g.host.act(Command::Reply { accept: true }, now).unwrap();
    g.until("the undo arrives", |g| g.synced()).await;
    assert_eq!(g.host.session.game().unwrap().turns(), 2);
    // A new game, declined: nothing changes.
    let now = g.now();
    g.host
        .act(Command::Propose(Proposal::NewGame { max_turns: None }), now)
        .unwrap();
    g.until("the guest sees it", |g| {
        g.guest.session.proposals()[1].is_some()
    })
    .await;
    let now = g.now();
    g.guest.act(Command::Reply { accept: false }, now).unwrap();
    g.until("the decline arrives", |g| g.synced()).await;
    assert_eq!(g.host.session.room().game_number, 0);
    assert_eq!(g.host.session.game().unwrap().turns(), 2);
    // A new game, accepted: the guest moves first.
    let now = g.now();
    g.guest
        .act(Command::Propose(Proposal::NewGame { max_turns: None }), now)
        .unwrap();
    g.until("the host sees it", |g| {
        g.host.session.proposals()[1].is_some()
    })
    .await;
    let now = g.now();
    g.host.act(Command::Reply { accept: true }, now).unwrap();
    g.until("the new game starts", |g| {
        g.synced() && g.guest.session.my_turn()
    })
    .await;
    assert_eq!(g.host.session.room().game_number, 1);
    relay.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reload_during_a_pending_capture_rejoins_the_same_seat() {
    let relay = Relay::start().await;
    let mut g = Game2::open(&relay, GameKind::Morris, Config::default()).await;
    // a7 b6 d7 d6, then g7 closes a mill: the capture is pending when the host reloads.
    for (host, p) in [(true, 0u8), (false, 8), (true, 1), (false, 9), (true, 2)] {
        let now = g.now();
        let side = if host { &mut g.host } else { &mut g.guest };
        side.act(Command::Play(Step::Place(p)), now).unwrap();
        g.until("the move arrives", |g| g.synced()).await;
    }
    let url = g.url.clone();
    g.host.reload(&url);
    g.until("the host is back", |g| {
        g.synced() && g.host.session.presence() == Presence::Here
    })
    .await;
    assert!(g.host.session.my_turn(), "still the host's capture");
    let now = g.now();
    g.host.act(Command::Play(Step::Capture(8)), now).unwrap();
    g.until("the capture arrives", |g| g.synced()).await;
    assert_eq!(g.guest.session.game().unwrap().turns(), 5);
    // The guest reloads too, then the game goes on to its end.
    g.guest.reload(&url);
    let mut seed = 5;
    g.play(1000, &mut seed).await;
    assert!(g.host.session.game().unwrap().outcome().is_some());
    relay.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restarting_the_relay_loses_no_game() {
    let relay = Relay::start().await;
    let addr = relay.addr;
    let mut g = Game2::open(&relay, GameKind::Meta, Config::default()).await;
    let mut seed = 11;
    g.play(6, &mut seed).await;
    let before = g.host.session.room().clone();
    relay.stop().await;
    let relay = Relay::start_at(addr).await;
    // Whether or not the data channel survived, both sides reconnect and carry on.
    let url = g.url.clone();
    g.host.reload(&url);
    g.guest.reload(&url);
    g.until("both are back", |g| {
        g.synced()
            && g.host.session.presence() == Presence::Here
            && g.guest.session.presence() == Presence::Here
    })
    .await;
    assert_eq!(g.host.session.room(), &before);
    g.play(1000, &mut seed).await;
    assert!(g.guest.session.game().unwrap().outcome().is_some());
    relay.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_third_peer_is_refused_and_the_game_goes_on() {
    let relay = Relay::start().await;
    let mut g = Game2::open(&relay, GameKind::Meta, Config::default()).await;
    let third = Session::guest(
        g.host.session.invite().clone(),
        [33; 32],
        Config::default(),
        0,
    );
    let mut third = Side::open(third, &g.url);
    let deadline = Instant::now() + Duration::from_secs(20);
    while !third.link.is_closed() {
        assert!(Instant::now() < deadline, "the third peer was not refused");
        third.pump(g.now());
        g.pump();
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(third.session.game().is_none(), "it never met the host");
    let mut seed = 13;
    g.play(4, &mut seed).await;
    assert!(g.synced());
    relay.stop().await;
}
