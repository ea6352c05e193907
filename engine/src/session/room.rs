//! The rules of the room: what each transcript entry does to the shared state, given the entries
//! before it. Both peers fold the same entries in the same order and so reach the same state; an
//! entry that is not allowed where it stands is void and changes nothing.

use super::lot;
use super::wire::{
    Body, Colours, Entry, Options, Proposal, Rules, Seat, Step, OLDEST_PROTOCOL, PROTOCOL_VERSION,
};
use crate::morris::{self, check_max_turns};
use crate::table::{AnyTurn, Table};
use crate::{AnyGame, Illegal, Player, Reason};
use std::fmt;
use std::sync::Arc;

/// Why an entry changed nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Void {
    /// The sender's `Hello` announces another protocol version.
    Version,
    /// The guest's link is for the other game.
    OtherGame,
    /// Rules or a turn limit out of range.
    BadRules,
    /// The host has not said hello yet: no game.
    NoGame,
    /// Only the host sets the options.
    NotHost,
    /// Options can only change before the first move of the first game.
    TooLate,
    /// Not the sender's turn.
    NotYourTurn,
    /// A step of the other game.
    WrongGame,
    /// The engine refused the step.
    Illegal(Illegal),
    /// The game is over (or was resigned, drawn by agreement, claimed, left).
    GameOver,
    /// The sender already has an open proposal.
    AlreadyProposing,
    /// Nothing to take back.
    NothingToUndo,
    /// A declined proposal of this kind is cooling down.
    CoolingDown,
    /// No such open proposal (unknown, answered, withdrawn or expired).
    NoSuchProposal,
    /// The sender left the room.
    Left,
    /// A move for a game that has since been replaced by a new one.
    StaleGame,
    /// A decision (an answer, a claim) that crossed an entry of the other seat its sender had
    /// not seen and that refutes it: it cannot count against what it did not see.
    Crossed,
    /// A claim dated less than [`CLAIM_MS`] after its sender, by its own clock, last knew the
    /// other seat to be there.
    TooSoon,
    /// A claim while the other seat had not seen an entry of the sender's that crossed its
    /// acceptance: it may not know its acceptance counts for nothing, nor that the game goes on.
    Unseen,
    /// A move while the colours of the game are still being drawn.
    DrawPending,
    /// A draw entry where no draw awaits it (colours not by lot, or that step already taken).
    NoDraw,
    /// A host's value that does not hash back to its commitment.
    BadReveal,
    /// The sender's seat signed two entries with one number (a fork, proved by the other
    /// seat's [`Body::Fork`]): it writes nothing more in the room; or a second proof of it.
    Forked,
}

impl fmt::Display for Void {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Void::Version => f.write_str("another protocol version"),
            Void::OtherGame => f.write_str("the invitation is for the other game"),
            Void::BadRules => f.write_str("options out of range"),
            Void::NoGame => f.write_str("the game has not started"),
            Void::NotHost => f.write_str("only the host sets the options"),
            Void::TooLate => f.write_str("options change only before the first move"),
            Void::NotYourTurn => f.write_str("not the sender's turn"),
            Void::WrongGame => f.write_str("a move of the other game"),
            Void::Illegal(e) => write!(f, "illegal move: {e}"),
            Void::GameOver => f.write_str("the game is over"),
            Void::AlreadyProposing => f.write_str("a proposal is already open"),
            Void::NothingToUndo => f.write_str("nothing to take back"),
            Void::CoolingDown => f.write_str("too soon after a declined proposal"),
            Void::NoSuchProposal => f.write_str("no such open proposal"),
            Void::Left => f.write_str("the sender left the room"),
            Void::StaleGame => f.write_str("a move for a previous game"),
            Void::Crossed => f.write_str("a decision that crossed an entry it had not seen"),
            Void::TooSoon => f.write_str(
                "a claim dated less than 5 minutes after the other player was last there",
            ),
            Void::Unseen => f.write_str(
                "a claim before the other player saw the entry that crossed its acceptance",
            ),
            Void::DrawPending => f.write_str("a move before the colours were drawn"),
            Void::NoDraw => f.write_str("no draw awaits this entry"),
            Void::BadReveal => f.write_str("a drawn value that does not match the commitment"),
            Void::Forked => f.write_str("the sender's seat signed two entries with one number"),
        }
    }
}

/// How a game ended outside the rules of the game itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// This seat resigned.
    Resigned(Seat),
    /// Both agreed to a draw.
    DrawAgreed,
    /// This seat claimed the game after the other stayed away past the reservation.
    Claimed(Seat),
    /// This seat left the room during the game.
    Left(Seat),
    /// This seat signed two entries with one number (a fork), as the other seat proved.
    Forked(Seat),
}

/// How a game ended: by its own rules, or by a decision of the players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// The rules of the game ended it (three pieces, blocked, repetition, limit, a line…).
    Rules(Reason),
    /// A resignation, an agreed draw, a claim or a departure.
    Ending(Ending),
}

/// What an entry did to the room: [`Room::apply`] returns these (as lila's `Progress` does), so
/// the pages and the tests say what happened instead of comparing states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoomEvent {
    /// A seat said hello (the host's opens the room's first game).
    Joined(Seat),
    /// The host changed the Morris turn limit before the first move.
    Settings {
        /// The new limit.
        max_turns: u16,
    },
    /// The host set the room's options before the first move (version 3).
    Options(Options),
    /// The guest gave its value for the colours' draw.
    Guessed,
    /// The colours of the current game were drawn.
    Drawn {
        /// The host's colour (the guest has the other).
        host: Player,
    },
    /// A step was played.
    Played {
        /// Whose.
        seat: Seat,
        /// Which.
        step: Step,
        /// The turn it completed, in the game's notation (`None` while a Morris capture is
        /// pending: the turn completes with it).
        turn: Option<AnyTurn>,
    },
    /// A seat opened a proposal.
    Proposed {
        /// The proposer.
        seat: Seat,
        /// The proposal entry's sequence number.
        seq: u32,
        /// What it asks for.
        proposal: Proposal,
    },
    /// The other seat accepted a proposal, which took effect.
    Accepted {
        /// The proposer.
        seat: Seat,
        /// The proposal entry's sequence number.
        seq: u32,
        /// What it asked for.
        proposal: Proposal,
    },
    /// The other seat declined a proposal.
    Declined {
        /// The proposer.
        seat: Seat,
        /// The proposal entry's sequence number.
        seq: u32,
        /// What it asked for.
        proposal: Proposal,
    },
    /// The proposer withdrew its proposal, by hand or because its minute ran out.
    Withdrawn {
        /// The proposer.
        seat: Seat,
        /// The proposal entry's sequence number.
        seq: u32,
        /// What it asked for.
        proposal: Proposal,
        /// The minute ran out.
        expired: bool,
    },
    /// An open proposal lapsed unanswered: a move changed the position it was about, the
    /// game ended or a new one began.
    Lapsed {
        /// The proposer.
        seat: Seat,
        /// The proposal entry's sequence number.
        seq: u32,
        /// What it asked for.
        proposal: Proposal,
    },
    /// The current game ended.
    Ended {
        /// The winner, or `None` for a draw.
        winner: Option<Player>,
        /// How.
        finish: Finish,
    },
    /// An accepted new game began (its number, from 0 for the room's first).
    NewGame {
        /// The room's game number.
        number: u32,
    },
    /// A seat left the room for good.
    Left(Seat),
    /// The other seat let a new device take this seat (its key changed).
    HandedOver(Seat),
    /// The other seat proved this seat's fork: it lost the game in progress and writes nothing
    /// more in the room.
    Forked(Seat),
}

/// An open proposal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Open {
    /// Sequence number of the proposal entry.
    pub seq: u32,
    /// What it asks for.
    pub proposal: Proposal,
    /// The proposer's clock when it was made.
    pub time: u64,
}

/// Life of a proposal by the proposer's clock: the proposer's entries dated later no longer
/// race an answer (the answer folds before them, and stands). A session's
/// [`Config::proposal_ms`] is at most this.
///
/// [`Config::proposal_ms`]: super::Config::proposal_ms
pub const PROPOSAL_MS: u64 = 60_000;

/// A claim of victory must be dated at least this long after its sender, by its own clock,
/// last knew the other seat to be there (`Chains::absent_since`): a session's seat
/// reservation ([`Config::reservation_ms`]) never ends sooner.
///
/// [`Config::reservation_ms`]: super::Config::reservation_ms
pub const CLAIM_MS: u64 = 300_000;

/// First cooldown after a declined proposal; it doubles with each further decline.
pub const COOLDOWN_MS: u64 = 10_000;
/// Longest cooldown.
pub const MAX_COOLDOWN_MS: u64 = 300_000;

fn kind_index(p: Proposal) -> usize {
    match p {
        Proposal::Undo => 0,
        Proposal::NewGame { .. } | Proposal::NewGameWith(_) => 1,
        Proposal::Draw => 2,
    }
}

/// The colours' draw of the current game, when they are drawn by lot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Draw {
    /// The guest's value and the time of its entry (by the guest's clock).
    pub guess: Option<([u8; 32], u64)>,
    /// The host's colour, once drawn.
    pub host: Option<Player>,
}

/// Where the host's chain of values stands: the value for game `next + n − 1` hashes `n` times
/// to `anchor` (the commitment, then each revealed value in turn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Anchor {
    value: [u8; 32],
    next: u32,
    /// The chain's end: it draws for no game from this one on.
    end: u32,
}

/// The shared state of a room: the current game with its history, the rematch count, open
/// proposals, and how the game ended if not by its own rules.
#[derive(Clone, Debug, PartialEq)]
pub struct Room {
    /// The room's rules, from the host's `Hello` (and later settings or new games).
    pub rules: Option<Rules>,
    /// The current game with its history (undo stack and record), once the host said hello.
    table: Option<Table<AnyGame>>,
    /// Accepted new games so far: 0 for the first game.
    pub game_number: u32,
    /// Resignation, agreed draw, claim or departure ending the current game.
    pub ending: Option<Ending>,
    /// Open proposal per seat.
    pub open: [Option<Open>; 2],
    /// Consecutive declines per seat and kind, with the time of the last declined proposal.
    declines: [[(u32, u64); 3]; 2],
    /// The seats that have said hello.
    pub hello: [bool; 2],
    /// The seats that left the room.
    pub left: [bool; 2],
    /// The seats whose fork the other seat proved (version 3).
    pub forked: [bool; 2],
    /// Set when the guest's invitation names another game or protocol.
    pub incompatible: Option<Void>,
    /// The room's earlier games, each as it stood when a new game replaced it.
    history: Games,
    /// The protocol of each seat's `Hello` (0 before it): the host's is the room's.
    pub protocol: [u16; 2],
    /// The Morris rule set of the current game (version 3's options; the default before).
    pub morris_rules: morris::Rules,
    /// How colours are decided from the current game on.
    pub colours: Colours,
    /// The host's colour in the current game (once drawn, when by lot).
    host_player: Player,
    /// The current game's draw, when its colours are drawn by lot.
    pub draw: Option<Draw>,
    /// The host's chain of values for the draws.
    anchor: Option<Anchor>,
}

/// The room's earlier games, oldest first: a list shared between copies of the room (the
/// session's fold keeps copies as it goes), so that a copy costs nothing per game.
#[derive(Clone, Debug, Default)]
struct Games(Option<Arc<Played>>);

#[derive(Debug)]
struct Played {
    game: GameSummary,
    /// Games in the list up to this one.
    len: usize,
    before: Option<Arc<Played>>,
}

impl Games {
    fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |p| p.len)
    }

    fn push(&mut self, game: GameSummary) {
        let len = self.len() + 1;
        let before = self.0.take();
        self.0 = Some(Arc::new(Played { game, len, before }));
    }

    fn to_vec(&self) -> Vec<GameSummary> {
        let mut games = Vec::with_capacity(self.len());
        let mut at = self.0.as_deref();
        while let Some(p) = at {
            games.push(p.game);
            at = p.before.as_deref();
        }
        games.reverse();
        games
    }
}

impl PartialEq for Games {
    fn eq(&self, other: &Games) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) if Arc::ptr_eq(a, b) => true,
            _ => self.len() == other.len() && self.to_vec() == other.to_vec(),
        }
    }
}

impl Drop for Games {
    /// One node at a time: a room of thousands of games must not drop them recursively.
    fn drop(&mut self) {
        let mut at = self.0.take();
        while let Some(p) = at {
            match Arc::try_unwrap(p) {
                Ok(mut p) => at = p.before.take(),
                Err(_) => break,
            }
        }
    }
}

/// One game of a room, as `engine verify` tells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// The room's game number (0 for the first).
    pub number: u32,
    /// The host's colour in it (the guest has the other).
    pub host: Player,
    /// The Morris rules it was played under (`None` for Ultimate tic-tac-toe).
    pub rules: Option<morris::Rules>,
    /// Its colours were drawn by lot.
    pub drawn: bool,
    /// How it ended: the winner (`None` for a draw) and how; `None` while it goes on, or for a
    /// game replaced by a new one before it ended.
    pub result: Option<(Option<Player>, Finish)>,
    /// Completed turns.
    pub turns: u32,
}

impl Room {
    /// An empty room, before any hello.
    pub fn new() -> Room {
        Room {
            rules: None,
            table: None,
            game_number: 0,
            ending: None,
            open: [None, None],
            declines: [[(0, 0); 3]; 2],
            hello: [false; 2],
            left: [false; 2],
            forked: [false; 2],
            incompatible: None,
            history: Games::default(),
            protocol: [0; 2],
            morris_rules: morris::Rules::NINE,
            colours: Colours::Alternate,
            host_player: Player::Blue,
            draw: None,
            anchor: None,
        }
    }

    /// The player (colour) of a seat in the current game: with alternating colours the host
    /// is Blue in the first game, then the first player alternates with each accepted new
    /// game; by lot, the draw decides (until it has, as if alternating: no move counts).
    pub fn player_of(&self, seat: Seat) -> Player {
        match seat {
            Seat::Host => self.host_player,
            Seat::Guest => self.host_player.opponent(),
        }
    }

    /// True while the current game's colours are being drawn: no move counts yet.
    pub fn draw_pending(&self) -> bool {
        self.draw.is_some_and(|d| d.host.is_none())
    }

    /// The room's options now (the defaults in a version 2 room).
    pub fn options(&self) -> Options {
        Options {
            max_turns: self.rules.map_or(0, |r| r.max_turns),
            rules: self.morris_rules,
            colours: self.colours,
        }
    }

    /// Starts the current game: a fresh table under the room's rules, and its colours.
    fn start_game(&mut self, rules: Rules) {
        self.table = Some(Table::new(new_game(rules, self.morris_rules)));
        self.host_player = if self.game_number % 2 == 0 {
            Player::Blue
        } else {
            Player::Red
        };
        let drawn = matches!(self.colours, Colours::Lot { .. }) && self.lot_draws(self.game_number);
        self.draw = drawn.then_some(Draw {
            guess: None,
            host: None,
        });
    }

    /// True when the room's chain of values draws the colours of game `game`: it draws every
    /// game of its thousand in turn, and a game whose colours were not drawn (replaced or ended
    /// before the host's reveal) ends it — colours alternate from then on, until the host
    /// commits to a new chain. So each reveal is checked with one hash, never with as many as
    /// the games skipped.
    pub fn lot_draws(&self, game: u32) -> bool {
        self.anchor.is_some_and(|a| a.next == game && game < a.end)
    }

    /// The seat playing a colour in the current game.
    pub fn seat_of(&self, player: Player) -> Seat {
        if self.player_of(Seat::Host) == player {
            Seat::Host
        } else {
            Seat::Guest
        }
    }

    /// The current game, once the host said hello.
    pub fn game(&self) -> Option<&AnyGame> {
        self.table.as_ref().map(Table::game)
    }

    /// The current game with its history: completed turns, positions, undo stack.
    pub fn table(&self) -> Option<&Table<AnyGame>> {
        self.table.as_ref()
    }

    /// True while the current game is being played (not over by its rules nor ended otherwise).
    pub fn in_progress(&self) -> bool {
        self.ending.is_none() && self.game().is_some_and(|g| g.outcome().is_none())
    }

    /// The current game's record: its completed turns in algebraic notation, separated by
    /// spaces (what `engine replay` reads).
    pub fn record(&self) -> String {
        self.table.as_ref().map(Table::record).unwrap_or_default()
    }

    /// True when there is a turn to take back.
    pub fn can_undo(&self) -> bool {
        self.ending.is_none() && self.table.as_ref().is_some_and(Table::can_undo)
    }

    /// Applies one entry and says what it did, or why it is void. A void entry changes
    /// nothing, except that a `Hello` of another protocol or game marks the room incompatible.
    /// (Every check comes before the first change, so no copy of the room is needed.)
    pub fn apply(&mut self, e: &Entry) -> Result<Vec<RoomEvent>, Void> {
        let mut events = Vec::new();
        self.apply_to(e, &mut events)?;
        Ok(events)
    }

    fn apply_to(&mut self, e: &Entry, out: &mut Vec<RoomEvent>) -> Result<(), Void> {
        let seat = e.seat();
        let s = seat.index();
        if self.forked[s] {
            return Err(Void::Forked);
        }
        if self.left[s] {
            return Err(Void::Left);
        }
        if let Body::Hello {
            protocol, rules, ..
        } = &e.body
        {
            return self.hello(seat, *protocol, *rules, out);
        }
        if self.table.is_none() {
            return Err(Void::NoGame);
        }
        let v3 = self.protocol[Seat::Host.index()] >= 3;
        match &e.body {
            Body::Hello { .. } => unreachable!("handled above"),
            Body::Settings { max_turns } => self.settings(seat, *max_turns, out),
            Body::Options(_) | Body::LotGuess { .. } | Body::LotReveal { .. } if !v3 => {
                Err(Void::Version)
            }
            Body::Propose(Proposal::NewGameWith(_)) | Body::Fork(_) if !v3 => Err(Void::Version),
            Body::Fork(_) => self.fork(seat.other(), out),
            Body::Options(o) => self.set_options(seat, *o, out),
            Body::LotGuess { game, value } => self.guess(seat, *game, *value, e.header.time, out),
            Body::LotReveal { game, value } => self.reveal(seat, *game, *value, out),
            Body::Play { game, step } => {
                if *game != self.game_number {
                    return Err(Void::StaleGame);
                }
                if self.draw_pending() {
                    return Err(Void::DrawPending);
                }
                self.play(seat, *step, out)
            }
            Body::Propose(p) => self.propose(seat, *p, e.seq(), e.header.time, out),
            Body::Reply { proposal, accept } => self.reply(seat, *proposal, *accept, out),
            Body::Withdraw { proposal, expired } => match self.open[s] {
                Some(o) if o.seq == *proposal => {
                    self.open[s] = None;
                    out.push(RoomEvent::Withdrawn {
                        seat,
                        seq: o.seq,
                        proposal: o.proposal,
                        expired: *expired,
                    });
                    Ok(())
                }
                _ => Err(Void::NoSuchProposal),
            },
            Body::Resign => self.end(Ending::Resigned(seat), out),
            Body::ClaimWin => self.end(Ending::Claimed(seat), out),
            Body::Handover { seat: taken, .. } => {
                out.push(RoomEvent::HandedOver(*taken));
                Ok(())
            }
            Body::Leave => {
                self.left[s] = true;
                if self.in_progress() {
                    self.ending = Some(Ending::Left(seat));
                    self.ended(out);
                }
                self.lapse(out);
                out.push(RoomEvent::Left(seat));
                Ok(())
            }
        }
    }

    /// The other seat's fork is proved (the chains checked the proof): it loses the game in
    /// progress and writes nothing more.
    fn fork(&mut self, forker: Seat, out: &mut Vec<RoomEvent>) -> Result<(), Void> {
        if self.forked[forker.index()] {
            return Err(Void::Forked);
        }
        self.forked[forker.index()] = true;
        if self.in_progress() {
            self.ending = Some(Ending::Forked(forker));
            self.ended(out);
        }
        self.lapse(out);
        out.push(RoomEvent::Forked(forker));
        Ok(())
    }

    fn hello(
        &mut self,
        seat: Seat,
        protocol: u16,
        rules: Rules,
        out: &mut Vec<RoomEvent>,
    ) -> Result<(), Void> {
        // A version 3 host needs a guest that reads version 3; a version 2 room (an older
        // transcript) takes either guest, and plays the defaults.
        let host = self.protocol[Seat::Host.index()];
        let guest = self.protocol[Seat::Guest.index()];
        let fits = match seat {
            Seat::Host => guest == 0 || guest >= protocol,
            Seat::Guest => host == 0 || protocol >= host,
        };
        if !(OLDEST_PROTOCOL..=PROTOCOL_VERSION).contains(&protocol) || !fits {
            self.incompatible = Some(Void::Version);
            return Err(Void::Version);
        }
        if rules.morris && check_max_turns(rules.max_turns as u32).is_err() {
            return Err(Void::BadRules);
        }
        match seat {
            Seat::Host => {
                self.rules = Some(rules);
                self.start_game(rules);
            }
            Seat::Guest => {
                if self.rules.is_some_and(|r| r.morris != rules.morris) {
                    self.incompatible = Some(Void::OtherGame);
                    return Err(Void::OtherGame);
                }
            }
        }
        self.hello[seat.index()] = true;
        self.protocol[seat.index()] = protocol;
        out.push(RoomEvent::Joined(seat));
        Ok(())
    }

    /// Checks options the host proposes for game `game`: a limit in range for Morris, the
    /// default rules for Ultimate tic-tac-toe, and a draw by lot either the room's current
    /// chain or a new one that starts with that game.
    fn check_options(&self, o: Options, game: u32) -> Result<(), Void> {
        let rules = self.rules.ok_or(Void::NoGame)?;
        let fits = if rules.morris {
            check_max_turns(o.max_turns as u32).is_ok()
        } else {
            o.max_turns == 0 && o.rules == morris::Rules::NINE
        };
        let chain = match o.colours {
            Colours::Alternate => true,
            Colours::Lot { from, .. } => from == game || o.colours == self.colours,
        };
        if fits && chain {
            Ok(())
        } else {
            Err(Void::BadRules)
        }
    }

    /// Takes options on: the limit, the rules and the colours of the games from now on.
    fn take_options(&mut self, o: Options) -> Rules {
        let rules = Rules {
            max_turns: o.max_turns,
            ..self.rules.unwrap_or(Rules::new(crate::GameKind::Meta, 0))
        };
        self.rules = Some(rules);
        self.morris_rules = o.rules;
        if o.colours != self.colours {
            self.anchor = match o.colours {
                Colours::Lot { commit, from } => Some(Anchor {
                    value: commit.0,
                    next: from,
                    end: from.saturating_add(lot::LOT_GAMES),
                }),
                Colours::Alternate => None,
            };
        }
        self.colours = o.colours;
        rules
    }

    fn set_options(
        &mut self,
        seat: Seat,
        o: Options,
        out: &mut Vec<RoomEvent>,
    ) -> Result<(), Void> {
        if seat != Seat::Host {
            return Err(Void::NotHost);
        }
        self.check_options(o, 0)?;
        let untouched = self.table.as_ref().is_none_or(Table::is_untouched);
        let drawing = self.draw.is_some_and(|d| d.guess.is_some());
        if self.game_number != 0 || !untouched || self.ending.is_some() || drawing {
            return Err(Void::TooLate);
        }
        let rules = self.take_options(o);
        self.start_game(rules);
        out.push(RoomEvent::Options(o));
        Ok(())
    }

    fn guess(
        &mut self,
        seat: Seat,
        game: u32,
        value: [u8; 32],
        time: u64,
        out: &mut Vec<RoomEvent>,
    ) -> Result<(), Void> {
        if game != self.game_number {
            return Err(Void::StaleGame);
        }
        match self.draw.as_mut() {
            Some(d) if seat == Seat::Guest && d.guess.is_none() && self.ending.is_none() => {
                d.guess = Some((value, time));
                out.push(RoomEvent::Guessed);
                Ok(())
            }
            _ => Err(Void::NoDraw),
        }
    }

    fn reveal(
        &mut self,
        seat: Seat,
        game: u32,
        value: [u8; 32],
        out: &mut Vec<RoomEvent>,
    ) -> Result<(), Void> {
        if game != self.game_number {
            return Err(Void::StaleGame);
        }
        let (Some(d), Some(a)) = (self.draw, self.anchor) else {
            return Err(Void::NoDraw);
        };
        let Some((guess, _)) = d.guess.filter(|_| seat == Seat::Host && d.host.is_none()) else {
            return Err(Void::NoDraw);
        };
        let steps = game.checked_sub(a.next).map_or(0, |n| n.saturating_add(1));
        if !lot::reaches(&value, steps, &a.value) {
            return Err(Void::BadReveal);
        }
        let host = if lot::host_blue(&value, &guess) {
            Player::Blue
        } else {
            Player::Red
        };
        self.host_player = host;
        self.draw = Some(Draw {
            host: Some(host),
            ..d
        });
        self.anchor = Some(Anchor {
            value,
            next: game + 1,
            ..a
        });
        out.push(RoomEvent::Drawn { host });
        Ok(())
    }

    fn settings(
        &mut self,
        seat: Seat,
        max_turns: u16,
        out: &mut Vec<RoomEvent>,
    ) -> Result<(), Void> {
        if seat != Seat::Host {
            return Err(Void::NotHost);
        }
        let rules = self.rules.ok_or(Void::NoGame)?;
        if !rules.morris || check_max_turns(max_turns as u32).is_err() {
            return Err(Void::BadRules);
        }
        let untouched = self.table.as_ref().is_none_or(Table::is_untouched);
        if self.game_number != 0 || !untouched || self.ending.is_some() {
            return Err(Void::TooLate);
        }
        let rules = Rules { max_turns, ..rules };
        self.rules = Some(rules);
        self.table = Some(Table::new(new_game(rules, self.morris_rules)));
        out.push(RoomEvent::Settings { max_turns });
        Ok(())
    }

    fn play(&mut self, seat: Seat, step: Step, out: &mut Vec<RoomEvent>) -> Result<(), Void> {
        if !self.in_progress() {
            return Err(Void::GameOver);
        }
        let player = self.player_of(seat);
        let table = self.table.as_mut().ok_or(Void::NoGame)?;
        if table.game().to_move() != player {
            return Err(Void::NotYourTurn);
        }
        let fits = match table.game() {
            AnyGame::Morris(_) => step.to_morris().is_some(),
            AnyGame::Meta(_) => step.to_cell().is_some(),
        };
        if !fits {
            return Err(Void::WrongGame);
        }
        let completed = table.turns().len();
        table.play(step).map_err(Void::Illegal)?;
        let turn = table.turns().get(completed).copied();
        out.push(RoomEvent::Played { seat, step, turn });
        // A move answers every open proposal: they were about the position before it.
        self.lapse(out);
        if self.game().is_some_and(|g| g.outcome().is_some()) {
            self.ended(out);
        }
        Ok(())
    }

    fn propose(
        &mut self,
        seat: Seat,
        p: Proposal,
        seq: u32,
        time: u64,
        out: &mut Vec<RoomEvent>,
    ) -> Result<(), Void> {
        let s = seat.index();
        if self.open[s].is_some() {
            return Err(Void::AlreadyProposing);
        }
        match p {
            Proposal::Undo if !self.can_undo() => return Err(Void::NothingToUndo),
            Proposal::Draw if !self.in_progress() => return Err(Void::GameOver),
            Proposal::NewGame { max_turns: Some(m) } => {
                if seat != Seat::Host {
                    return Err(Void::NotHost);
                }
                if !self.rules.is_some_and(|r| r.morris) || check_max_turns(m as u32).is_err() {
                    return Err(Void::BadRules);
                }
            }
            Proposal::NewGameWith(o) => {
                if seat != Seat::Host {
                    return Err(Void::NotHost);
                }
                self.check_options(o, self.game_number + 1)?;
            }
            _ => {}
        }
        if self
            .cooling_until(seat, p)
            .is_some_and(|until| time < until)
        {
            return Err(Void::CoolingDown);
        }
        self.open[s] = Some(Open {
            seq,
            proposal: p,
            time,
        });
        out.push(RoomEvent::Proposed {
            seat,
            seq,
            proposal: p,
        });
        Ok(())
    }

    /// Until when (by the proposer's own clock) a seat's next proposal of this kind is cooling
    /// down after declines; `None` when it is not.
    pub fn cooling_until(&self, seat: Seat, p: Proposal) -> Option<u64> {
        let (declines, last) = self.declines[seat.index()][kind_index(p)];
        (declines > 0).then(|| {
            let wait = (COOLDOWN_MS << (declines - 1).min(10)).min(MAX_COOLDOWN_MS);
            last.saturating_add(wait)
        })
    }

    /// `seat` accepts or declines the other seat's open proposal numbered `proposal`.
    fn reply(
        &mut self,
        seat: Seat,
        proposal: u32,
        accept: bool,
        out: &mut Vec<RoomEvent>,
    ) -> Result<(), Void> {
        let proposer = seat.other();
        let other = proposer.index();
        let open = match self.open[other] {
            Some(o) if o.seq == proposal => o,
            _ => return Err(Void::NoSuchProposal),
        };
        if accept && open.proposal == Proposal::Undo && !self.can_undo() {
            return Err(Void::NothingToUndo);
        }
        self.open[other] = None;
        let k = kind_index(open.proposal);
        let (seq, proposal) = (open.seq, open.proposal);
        if !accept {
            let (n, _) = self.declines[other][k];
            self.declines[other][k] = (n + 1, open.time);
            out.push(RoomEvent::Declined {
                seat: proposer,
                seq,
                proposal,
            });
            return Ok(());
        }
        self.declines[other][k] = (0, 0);
        out.push(RoomEvent::Accepted {
            seat: proposer,
            seq,
            proposal,
        });
        self.carry_out(seat, proposal, out)
    }

    /// What an accepted proposal does; `seat` accepted it.
    fn carry_out(
        &mut self,
        seat: Seat,
        proposal: Proposal,
        out: &mut Vec<RoomEvent>,
    ) -> Result<(), Void> {
        match proposal {
            Proposal::Undo => {
                let table = self.table.as_mut().ok_or(Void::NoGame)?;
                if !table.undo() {
                    return Err(Void::NothingToUndo);
                }
                // The other seat's undo was about the position before this one.
                if let Some(o) = self.open[seat.index()].filter(|o| o.proposal == Proposal::Undo) {
                    self.open[seat.index()] = None;
                    out.push(RoomEvent::Lapsed {
                        seat,
                        seq: o.seq,
                        proposal: o.proposal,
                    });
                }
            }
            Proposal::Draw => {
                self.ending = Some(Ending::DrawAgreed);
                self.lapse(out);
                self.ended(out);
            }
            Proposal::NewGame { .. } | Proposal::NewGameWith(_) => self.new_game(proposal, out)?,
        }
        Ok(())
    }

    /// An accepted new game: the finished one goes to the history, the next starts with the
    /// options proposed (or the same rules, perhaps another turn limit).
    fn new_game(&mut self, proposal: Proposal, out: &mut Vec<RoomEvent>) -> Result<(), Void> {
        if let Some(g) = self.summary() {
            self.history.push(g);
        }
        let rules = match proposal {
            Proposal::NewGameWith(o) => self.take_options(o),
            Proposal::NewGame { max_turns } => {
                let mut rules = self.rules.ok_or(Void::NoGame)?;
                if let Some(m) = max_turns {
                    rules.max_turns = m;
                }
                self.rules = Some(rules);
                rules
            }
            _ => unreachable!("a new game"),
        };
        self.game_number += 1;
        self.start_game(rules);
        self.ending = None;
        self.lapse(out);
        self.declines = [[(0, 0); 3]; 2];
        out.push(RoomEvent::NewGame {
            number: self.game_number,
        });
        Ok(())
    }

    fn end(&mut self, ending: Ending, out: &mut Vec<RoomEvent>) -> Result<(), Void> {
        if !self.in_progress() {
            return Err(Void::GameOver);
        }
        self.ending = Some(ending);
        self.lapse(out);
        self.ended(out);
        Ok(())
    }

    /// Closes every open proposal unanswered.
    fn lapse(&mut self, out: &mut Vec<RoomEvent>) {
        for seat in [Seat::Host, Seat::Guest] {
            if let Some(o) = self.open[seat.index()].take() {
                out.push(RoomEvent::Lapsed {
                    seat,
                    seq: o.seq,
                    proposal: o.proposal,
                });
            }
        }
    }

    /// Says how the current game ended (called once it has).
    fn ended(&self, out: &mut Vec<RoomEvent>) {
        if let Some((winner, finish)) = self.summary().and_then(|g| g.result) {
            out.push(RoomEvent::Ended { winner, finish });
        }
    }

    /// Every game of the room so far, the current one last (none before the host's hello).
    pub fn games(&self) -> Vec<GameSummary> {
        let mut games = self.history.to_vec();
        games.extend(self.summary());
        games
    }

    /// The current game as it stands.
    fn summary(&self) -> Option<GameSummary> {
        let game = self.game()?;
        let finish = match (self.ending, game.outcome()) {
            (Some(e), _) => Some(Finish::Ending(e)),
            (None, Some(o)) => Some(Finish::Rules(o.reason)),
            (None, None) => None,
        };
        Some(GameSummary {
            number: self.game_number,
            host: self.player_of(Seat::Host),
            rules: matches!(game, AnyGame::Morris(_)).then_some(self.morris_rules),
            drawn: self.draw.is_some(),
            result: finish.map(|f| (self.winner(), f)),
            turns: game.turns(),
        })
    }

    /// The winner of the current game, if it has one (by the rules or by an ending).
    pub fn winner(&self) -> Option<Player> {
        match self.ending {
            Some(Ending::Resigned(s) | Ending::Left(s) | Ending::Forked(s)) => {
                Some(self.player_of(s.other()))
            }
            Some(Ending::Claimed(s)) => Some(self.player_of(s)),
            Some(Ending::DrawAgreed) => None,
            None => self.game().and_then(|g| g.outcome()).and_then(|o| o.winner),
        }
    }
}

impl Default for Room {
    fn default() -> Room {
        Room::new()
    }
}

fn new_game(rules: Rules, variant: morris::Rules) -> AnyGame {
    match rules.kind() {
        crate::GameKind::Morris => AnyGame::Morris(
            morris::Morris::with_rules(variant, rules.max_turns as u32).unwrap_or_else(|_| {
                morris::Morris::with_rules(variant, morris::DEFAULT_MAX_TURNS as u32)
                    .expect("the default limit is valid")
            }),
        ),
        crate::GameKind::Meta => AnyGame::Meta(crate::meta::Meta::new()),
    }
}
