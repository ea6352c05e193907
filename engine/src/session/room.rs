//! The rules of the room: what each transcript entry does to the shared state, given the entries
//! before it. Both peers fold the same entries in the same order and so reach the same state; an
//! entry that is not allowed where it stands is void and changes nothing.

use super::wire::{Body, Entry, Proposal, Rules, Seat, Step, PROTOCOL_VERSION};
use crate::morris::{check_max_turns, Phase};
use crate::{AnyGame, Game, Illegal, Player};
use std::fmt;

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
}

impl Void {
    /// True for reasons that can come from two entries crossing on the way (a move crossing a
    /// resignation, an answer crossing a withdrawal…); the others are always a fault.
    pub fn can_be_a_race(self) -> bool {
        !matches!(
            self,
            Void::Version | Void::BadRules | Void::NotHost | Void::WrongGame | Void::Left
        )
    }
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

/// First cooldown after a declined proposal; it doubles with each further decline.
pub const COOLDOWN_MS: u64 = 10_000;
/// Longest cooldown.
pub const MAX_COOLDOWN_MS: u64 = 300_000;

fn kind_index(p: Proposal) -> usize {
    match p {
        Proposal::Undo => 0,
        Proposal::NewGame { .. } => 1,
        Proposal::Draw => 2,
    }
}

/// The shared state of a room: the current game, its undo stack, the rematch count, open
/// proposals, and how the game ended if not by its own rules.
#[derive(Clone, Debug, PartialEq)]
pub struct Room {
    /// The room's rules, from the host's `Hello` (and later settings or new games).
    pub rules: Option<Rules>,
    /// The current game.
    pub game: Option<AnyGame>,
    /// The state at the start of each turn of the current game (undo stack).
    turn_starts: Vec<AnyGame>,
    /// The completed turns of the current game in algebraic notation.
    turns: Vec<String>,
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
    /// Set when the guest's invitation names another game or protocol.
    pub incompatible: Option<Void>,
}

impl Room {
    /// An empty room, before any hello.
    pub fn new() -> Room {
        Room {
            rules: None,
            game: None,
            turn_starts: Vec::new(),
            turns: Vec::new(),
            game_number: 0,
            ending: None,
            open: [None, None],
            declines: [[(0, 0); 3]; 2],
            hello: [false; 2],
            left: [false; 2],
            incompatible: None,
        }
    }

    /// The player (colour) of a seat in the current game: the host is Blue in the first game,
    /// then the first player alternates with each accepted new game.
    pub fn player_of(&self, seat: Seat) -> Player {
        if (self.game_number % 2 == 0) == (seat == Seat::Host) {
            Player::Blue
        } else {
            Player::Red
        }
    }

    /// The seat playing a colour in the current game.
    pub fn seat_of(&self, player: Player) -> Seat {
        if self.player_of(Seat::Host) == player {
            Seat::Host
        } else {
            Seat::Guest
        }
    }

    /// True while the current game is being played (not over by its rules nor ended otherwise).
    pub fn in_progress(&self) -> bool {
        self.ending.is_none() && self.game.as_ref().is_some_and(|g| g.outcome().is_none())
    }

    /// The current game's record: its completed turns in algebraic notation, separated by
    /// spaces (what `engine replay` reads).
    pub fn record(&self) -> String {
        self.turns.join(" ")
    }

    /// True when there is a turn to take back.
    pub fn can_undo(&self) -> bool {
        self.ending.is_none() && !self.turn_starts.is_empty()
    }

    /// Applies one entry, or says why it is void (and changes nothing).
    pub fn apply(&mut self, e: &Entry) -> Result<(), Void> {
        let seat = e.seat();
        let s = seat.index();
        if self.left[s] {
            return Err(Void::Left);
        }
        if let Body::Hello {
            protocol, rules, ..
        } = &e.body
        {
            return self.hello(seat, *protocol, *rules);
        }
        if self.game.is_none() {
            return Err(Void::NoGame);
        }
        match &e.body {
            Body::Hello { .. } => unreachable!("handled above"),
            Body::Settings { max_turns } => self.settings(seat, *max_turns),
            Body::Play { game, step } => {
                if *game != self.game_number {
                    return Err(Void::StaleGame);
                }
                self.play(seat, *step)
            }
            Body::Propose(p) => self.propose(seat, *p, e.seq(), e.header.time),
            Body::Reply { proposal, accept } => self.reply(seat, *proposal, *accept),
            Body::Withdraw { proposal, .. } => match self.open[s] {
                Some(o) if o.seq == *proposal => {
                    self.open[s] = None;
                    Ok(())
                }
                _ => Err(Void::NoSuchProposal),
            },
            Body::Resign => self.end(Ending::Resigned(seat)),
            Body::ClaimWin => self.end(Ending::Claimed(seat)),
            Body::Leave => {
                self.left[s] = true;
                self.open = [None, None];
                if self.in_progress() {
                    self.ending = Some(Ending::Left(seat));
                }
                Ok(())
            }
        }
    }

    fn hello(&mut self, seat: Seat, protocol: u16, rules: Rules) -> Result<(), Void> {
        if protocol != PROTOCOL_VERSION {
            self.incompatible = Some(Void::Version);
            return Err(Void::Version);
        }
        if rules.morris && check_max_turns(rules.max_turns as u32).is_err() {
            return Err(Void::BadRules);
        }
        match seat {
            Seat::Host => {
                self.game = Some(new_game(rules));
                self.rules = Some(rules);
            }
            Seat::Guest => {
                if self.rules.is_some_and(|r| r.morris != rules.morris) {
                    self.incompatible = Some(Void::OtherGame);
                    return Err(Void::OtherGame);
                }
            }
        }
        self.hello[seat.index()] = true;
        Ok(())
    }

    fn settings(&mut self, seat: Seat, max_turns: u16) -> Result<(), Void> {
        if seat != Seat::Host {
            return Err(Void::NotHost);
        }
        let rules = self.rules.ok_or(Void::NoGame)?;
        if !rules.morris || check_max_turns(max_turns as u32).is_err() {
            return Err(Void::BadRules);
        }
        if self.game_number != 0 || !self.turn_starts.is_empty() || self.ending.is_some() {
            return Err(Void::TooLate);
        }
        let rules = Rules { max_turns, ..rules };
        self.rules = Some(rules);
        self.game = Some(new_game(rules));
        Ok(())
    }

    fn play(&mut self, seat: Seat, step: Step) -> Result<(), Void> {
        if !self.in_progress() {
            return Err(Void::GameOver);
        }
        let game = self.game.as_ref().ok_or(Void::NoGame)?;
        if game.to_move() != self.player_of(seat) {
            return Err(Void::NotYourTurn);
        }
        let (next, starts_turn, completed) = match game {
            AnyGame::Morris(g) => {
                let a = step.to_morris().ok_or(Void::WrongGame)?;
                let next = g.play(a).map_err(Void::Illegal)?;
                let completed = (next.phase() != Phase::Capture)
                    .then(|| next.last_turn().map(|t| t.to_string()))
                    .flatten();
                (
                    AnyGame::Morris(next),
                    g.phase() != Phase::Capture,
                    completed,
                )
            }
            AnyGame::Meta(g) => {
                let c = step.to_cell().ok_or(Void::WrongGame)?;
                let next = g.play(c).map_err(Void::Illegal)?;
                (AnyGame::Meta(next), true, Some(c.name()))
            }
        };
        if let Some(token) = completed {
            self.turns.push(token);
        }
        let before = std::mem::replace(self.game.as_mut().expect("checked"), next);
        if starts_turn {
            self.turn_starts.push(before);
        }
        // A move answers every open proposal: they were about the position before it.
        self.open = [None, None];
        Ok(())
    }

    fn propose(&mut self, seat: Seat, p: Proposal, seq: u32, time: u64) -> Result<(), Void> {
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
            _ => {}
        }
        let (declines, last) = self.declines[s][kind_index(p)];
        if declines > 0 {
            let wait = (COOLDOWN_MS << (declines - 1).min(10)).min(MAX_COOLDOWN_MS);
            if time < last.saturating_add(wait) {
                return Err(Void::CoolingDown);
            }
        }
        self.open[s] = Some(Open {
            seq,
            proposal: p,
            time,
        });
        Ok(())
    }

    fn reply(&mut self, seat: Seat, proposal: u32, accept: bool) -> Result<(), Void> {
        let other = seat.other().index();
        let open = match self.open[other] {
            Some(o) if o.seq == proposal => o,
            _ => return Err(Void::NoSuchProposal),
        };
        if accept && open.proposal == Proposal::Undo && !self.can_undo() {
            return Err(Void::NothingToUndo);
        }
        self.open[other] = None;
        let k = kind_index(open.proposal);
        if !accept {
            let (n, _) = self.declines[other][k];
            self.declines[other][k] = (n + 1, open.time);
            return Ok(());
        }
        self.declines[other][k] = (0, 0);
        match open.proposal {
            Proposal::Undo => {
                let previous = self.turn_starts.pop().ok_or(Void::NothingToUndo)?;
                // Back to the record of that turn's start (a pending capture's turn was
                // never recorded).
                self.turns.truncate(previous.turns() as usize);
                self.game = Some(previous);
                // The other seat's undo was about the position before this one.
                if self.open[seat.index()].is_some_and(|o| o.proposal == Proposal::Undo) {
                    self.open[seat.index()] = None;
                }
            }
            Proposal::Draw => self.ending = Some(Ending::DrawAgreed),
            Proposal::NewGame { max_turns } => {
                let mut rules = self.rules.ok_or(Void::NoGame)?;
                if let Some(m) = max_turns {
                    rules.max_turns = m;
                }
                self.rules = Some(rules);
                self.game = Some(new_game(rules));
                self.turn_starts.clear();
                self.turns.clear();
                self.game_number += 1;
                self.ending = None;
                self.open = [None, None];
                self.declines = [[(0, 0); 3]; 2];
            }
        }
        Ok(())
    }

    fn end(&mut self, ending: Ending) -> Result<(), Void> {
        if !self.in_progress() {
            return Err(Void::GameOver);
        }
        self.ending = Some(ending);
        self.open = [None, None];
        Ok(())
    }

    /// The winner of the current game, if it has one (by the rules or by an ending).
    pub fn winner(&self) -> Option<Player> {
        match self.ending {
            Some(Ending::Resigned(s)) | Some(Ending::Left(s)) => Some(self.player_of(s.other())),
            Some(Ending::Claimed(s)) => Some(self.player_of(s)),
            Some(Ending::DrawAgreed) => None,
            None => self
                .game
                .as_ref()
                .and_then(|g| g.outcome())
                .and_then(|o| o.winner),
        }
    }
}

impl Default for Room {
    fn default() -> Room {
        Room::new()
    }
}

fn new_game(rules: Rules) -> AnyGame {
    AnyGame::new(rules.kind(), rules.max_turns as u32).unwrap_or_else(|_| {
        AnyGame::new(rules.kind(), crate::morris::DEFAULT_MAX_TURNS as u32)
            .expect("the default limit is valid")
    })
}
