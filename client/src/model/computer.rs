//! The computer in a game page, as a model: the opponent's settings (computer mode), the
//! requests to the worker — the computer's turns and the hints, each tagged with a token — and
//! the undo policy against the computer. Like the other models it is pure and imports nothing
//! from the web: the page runs its [`Effect`]s (the worker, a timer) and feeds back [`Input`]s.
//!
//! One request is outstanding at a time; every change of the position forgets it (the page
//! stops the search: [`Effect::Cancel`]) and an answer whose token is not the outstanding one is
//! dropped, so a stale turn never lands. How it runs in the browser: docs/architecture.md.
//!
//! ```
//! use client::model::computer::{Computer, Effect, Input, Side};
//! use engine::ai::Level;
//! use engine::meta::Meta;
//! use engine::{Player, Table};
//!
//! // The player takes Red: the computer opens.
//! let mut table = Table::new(Meta::new());
//! let mut computer = Computer::<Meta>::against(Level::Easy, Side::Red, 7);
//! // Nothing is asked before the player starts the game (« Commencer »).
//! assert!(computer.settle(&table).is_empty());
//! computer.begin();
//! let asked = computer.settle(&table);
//! let [Effect::Ask(ask)] = asked.as_slice() else { panic!("{asked:?}") };
//! assert_eq!((ask.record.as_str(), computer.thinking()), ("", true));
//! let reply = Input::Reply { token: ask.token, turn: "e5".into(), nodes: 1500, search_ms: 4, reply_ms: 6 };
//! computer.input(&mut table, reply);
//! assert_eq!((table.record(), computer.thinking()), ("e5".to_string(), false));
//! assert_eq!(computer.human(), Some(Player::Red));
//! ```

use crate::i18n::{t, Text};
use engine::ai::{Level, Rng};
use engine::meta::{Cell, Meta};
use engine::morris::{Action, Morris, Phase, Turn};
use engine::table::{Playable, Table};
use engine::{Game, GameKind, Player};

/// « Fort »'s search time per turn in the browser, in milliseconds; a hint is « Fort »'s turn.
/// Under a second so that the reply, which reaches the page a few ms to some 50 ms after the
/// search stops (more under load), still comes within the second (docs/ai.md).
pub const STRONG_MS: u32 = 900;

/// How long the computer's Morris place or move shows before its capture lands, in ms.
pub const CAPTURE_DELAY_MS: u32 = 600;

/// The side the player chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Blue, who moves first.
    Blue,
    /// Red.
    Red,
    /// « Au hasard »: drawn at each new game.
    Random,
}

impl Side {
    /// The three choices, in the order shown.
    pub const ALL: [Side; 3] = [Side::Blue, Side::Red, Side::Random];

    /// Its label.
    pub fn label(self) -> &'static str {
        match self {
            Side::Blue => t::side_blue(),
            Side::Red => t::side_red(),
            Side::Random => t::side_random(),
        }
    }
}

/// The computer as the opponent: its level, the side the player chose and the one they play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opponent {
    /// The computer's level.
    pub level: Level,
    /// The side as chosen (« Au hasard » stays so for the next game).
    pub side: Side,
    /// The side the player plays in this game.
    pub human: Player,
}

/// What a request is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The computer's turn.
    Move,
    /// A hint: the turn « Fort » would play for the player to move.
    Hint,
}

/// A search request for the worker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ask {
    /// Tags the answer: only the outstanding token's answer is taken.
    pub token: u32,
    /// The game.
    pub kind: GameKind,
    /// The Morris turn limit (0 for Ultimate tic-tac-toe).
    pub max_turns: u16,
    /// The Morris rules in their canonical form, empty for the default rules and for Ultimate
    /// tic-tac-toe: the worker plays under them (`client_worker::Request::rules`).
    pub rules: String,
    /// The completed turns, as a record.
    pub record: String,
    /// Morris: the step of a turn whose capture is pending (`g7`, `a7-d7`), else empty.
    pub pending: String,
    /// The level to search at.
    pub level: Level,
    /// The search's seed.
    pub seed: u32,
    /// « Fort »'s time in ms; 0 for the levels with a fixed budget.
    pub movetime_ms: u32,
}

/// What the page must do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Send this request to the worker (loading it the first time).
    Ask(Ask),
    /// Stop the outstanding search: its answer is no longer wanted.
    Cancel,
    /// Report [`Input::Land`] with this token after `ms` milliseconds.
    Wait {
        /// The turn whose capture waits.
        token: u32,
        /// The delay.
        ms: u32,
    },
}

/// What the worker and the timer report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// The worker's answer to a request.
    Reply {
        /// The request's token.
        token: u32,
        /// The whole turn in notation.
        turn: String,
        /// Nodes or playouts searched.
        nodes: u64,
        /// The search's time in the worker, in ms.
        search_ms: u32,
        /// From the request sent to the answer received, in ms.
        reply_ms: u32,
    },
    /// The worker could not answer (not loaded, or it failed).
    Failed {
        /// The request's token.
        token: u32,
    },
    /// The delay of [`Effect::Wait`] is over.
    Land {
        /// Its token.
        token: u32,
    },
}

/// The figures of the computer's last turn (test hooks and docs/ai.md's figures).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Figures {
    /// Nodes or playouts searched.
    pub nodes: u64,
    /// The search's time in the worker, in ms.
    pub search_ms: u32,
    /// From the request to the answer, in ms.
    pub reply_ms: u32,
}

/// What the computer needs of a game besides its undo stack.
pub trait Rules: Playable<Turn = <Self as Game>::Turn> + Game {
    /// The Morris turn limit (0 for Ultimate tic-tac-toe).
    fn max_turns(&self) -> u16;
    /// The Morris rules for the worker ([`Ask::rules`]): empty for the defaults and for
    /// Ultimate tic-tac-toe.
    fn rules_text(&self) -> String;
    /// The step of a turn in progress, in notation (Morris with a capture pending), else empty.
    fn pending(&self) -> String;
    /// A whole turn as steps: the first, and the capture that lands after it.
    fn steps(turn: <Self as Game>::Turn) -> (Self::Step, Option<Self::Step>);
}

impl Rules for Morris {
    fn max_turns(&self) -> u16 {
        Morris::max_turns(self)
    }
    fn rules_text(&self) -> String {
        match self.rules() {
            r if r.is_default() => String::new(),
            r => r.to_string(),
        }
    }
    fn pending(&self) -> String {
        match (self.phase(), self.last_turn()) {
            (Phase::Capture, Some(t)) => t.step().to_string(),
            _ => String::new(),
        }
    }
    fn steps(turn: Turn) -> (Action, Option<Action>) {
        (turn.step(), turn.capture.map(Action::Capture))
    }
}

impl Rules for Meta {
    fn max_turns(&self) -> u16 {
        0
    }
    fn rules_text(&self) -> String {
        String::new()
    }
    fn pending(&self) -> String {
        String::new()
    }
    fn steps(cell: Cell) -> (Cell, Option<Cell>) {
        (cell, None)
    }
}

/// The computer's side of a game page: the opponent (computer mode only) and the requests.
#[derive(Clone, Debug, PartialEq)]
pub struct Computer<G: Rules> {
    /// The computer as the opponent; `None` in hot-seat, where it only gives hints.
    pub opponent: Option<Opponent>,
    /// The level and side chosen in the open « Nouvelle partie » dialog.
    pub draft: Option<(Level, Side)>,
    /// The hint for the current position, once found.
    pub hint: Option<<G as Game>::Turn>,
    /// The request that failed, until the position changes.
    pub failed: Option<Purpose>,
    /// The figures of the computer's last turn.
    pub figures: Option<Figures>,
    /// The player started the game against the computer (« Commencer »): until then the
    /// settings are chosen and the computer plays nothing, even when it is its turn.
    pub started: bool,
    /// The outstanding request.
    asked: Option<(u32, Purpose)>,
    /// The computer's turn whose capture is still to land.
    landing: Option<(u32, G::Step)>,
    tokens: u32,
    /// The state of the seed generator (seeds and « Au hasard »).
    seed: u64,
}

impl<G: Rules> Computer<G> {
    /// Hints only (hot-seat).
    pub fn hints_only(seed: u64) -> Computer<G> {
        Computer {
            opponent: None,
            draft: None,
            hint: None,
            failed: None,
            figures: None,
            started: true,
            asked: None,
            landing: None,
            tokens: 0,
            seed,
        }
    }

    /// The computer as the opponent, before the game starts ([`Computer::begin`]); `seed`
    /// draws the searches' seeds and « Au hasard ».
    pub fn against(level: Level, side: Side, seed: u64) -> Computer<G> {
        let mut c = Computer::hints_only(seed);
        c.choose(level, side);
        c.started = false;
        c
    }

    /// The computer's settings of a game the browser kept: under way (`started`), or still
    /// being chosen. The side played is the one kept, not drawn again.
    pub fn resume(&mut self, opponent: Opponent, started: bool) {
        self.opponent = Some(opponent);
        self.started = started;
    }

    /// « Commencer »: the settings are chosen, the game begins (the page then settles, and the
    /// computer opens when it plays Blue).
    pub fn begin(&mut self) {
        self.started = true;
    }

    /// True while the player chooses the settings of a game against the computer, before
    /// « Commencer ».
    pub fn setting_up(&self) -> bool {
        self.opponent.is_some() && !self.started
    }

    /// Before « Commencer »: the level and side chosen so far, which the page offers.
    pub fn setup(&self) -> Option<(Level, Side)> {
        self.opponent
            .filter(|_| self.setting_up())
            .map(|o| (o.level, o.side))
    }

    fn draw(&mut self) -> u64 {
        self.seed = Rng::new(self.seed).next_u64();
        self.seed
    }

    /// Takes a level and a side, drawing the side for « Au hasard ».
    fn choose(&mut self, level: Level, side: Side) {
        let human = match side {
            Side::Blue => Player::Blue,
            Side::Red => Player::Red,
            Side::Random if self.draw() & 1 == 0 => Player::Blue,
            Side::Random => Player::Red,
        };
        self.opponent = Some(Opponent { level, side, human });
    }

    /// The side the player plays against the computer.
    pub fn human(&self) -> Option<Player> {
        self.opponent.map(|o| o.human)
    }

    /// True when it is the computer's turn (once the game has begun): the board takes no
    /// input.
    pub fn plays(&self, game: &G) -> bool {
        self.started && self.human().is_some_and(|h| game.to_move() != h) && !game.is_over()
    }

    /// True while the computer searches or lands its turn.
    pub fn thinking(&self) -> bool {
        matches!(self.asked, Some((_, Purpose::Move))) || self.landing.is_some()
    }

    /// True while the computer's capture waits to land.
    pub fn landing(&self) -> bool {
        self.landing.is_some()
    }

    /// True while a hint is searched.
    pub fn hinting(&self) -> bool {
        matches!(self.asked, Some((_, Purpose::Hint)))
    }

    /// True when « Suggérer un coup » can ask now.
    pub fn can_hint(&self, game: &G) -> bool {
        self.asked.is_none()
            && self.hint.is_none()
            && self.started
            && !game.is_over()
            && !self.plays(game)
    }

    /// After the position changed: forgets the outstanding request, the hint and a failure,
    /// and asks for the computer's turn when it is its own.
    pub fn settle(&mut self, table: &Table<G>) -> Vec<Effect> {
        let mut effects = Vec::new();
        if self.asked.take().is_some() {
            effects.push(Effect::Cancel);
        }
        self.landing = None;
        self.hint = None;
        self.failed = None;
        if self.started && self.plays(table.game()) {
            effects.push(self.ask(table, Purpose::Move));
        }
        effects
    }

    fn ask(&mut self, table: &Table<G>, purpose: Purpose) -> Effect {
        let level = match (purpose, self.opponent) {
            (Purpose::Move, Some(o)) => o.level,
            _ => Level::Strong,
        };
        self.tokens += 1;
        self.asked = Some((self.tokens, purpose));
        let g = table.game();
        Effect::Ask(Ask {
            token: self.tokens,
            kind: G::KIND,
            max_turns: g.max_turns(),
            rules: g.rules_text(),
            record: table.record(),
            pending: g.pending(),
            level,
            seed: self.draw() as u32,
            movetime_ms: if level.is_timed() { STRONG_MS } else { 0 },
        })
    }

    /// « Suggérer un coup »: asks « Fort » for the player to move (nothing when it cannot).
    pub fn ask_hint(&mut self, table: &Table<G>) -> Vec<Effect> {
        if !self.can_hint(table.game()) {
            return Vec::new();
        }
        self.failed = None;
        vec![self.ask(table, Purpose::Hint)]
    }

    /// Takes what the worker or the timer reported; the computer's steps go to `table`.
    /// Answers to anything but the outstanding request are dropped.
    pub fn input(&mut self, table: &mut Table<G>, input: Input) -> Vec<Effect> {
        match input {
            Input::Reply {
                token,
                turn,
                nodes,
                search_ms,
                reply_ms,
            } => {
                let Some(purpose) = self.take(token) else {
                    return Vec::new();
                };
                let Ok(turn) = G::parse_turn(&turn) else {
                    self.failed = Some(purpose);
                    return Vec::new();
                };
                if purpose == Purpose::Hint {
                    self.hint = Some(turn);
                    return Vec::new();
                }
                self.figures = Some(Figures {
                    nodes,
                    search_ms,
                    reply_ms,
                });
                let (first, capture) = G::steps(turn);
                // A turn already under way (not expected: the computer is asked at turn starts)
                // only needs its capture.
                let first = (!table.game().mid_turn()).then_some(first);
                if first.is_some_and(|s| table.play(s).is_err()) {
                    self.failed = Some(purpose);
                    return Vec::new();
                }
                match capture {
                    Some(c) if first.is_some() => {
                        self.landing = Some((token, c));
                        vec![Effect::Wait {
                            token,
                            ms: CAPTURE_DELAY_MS,
                        }]
                    }
                    Some(c) => self.land(table, c, purpose),
                    None => self.settle(table),
                }
            }
            Input::Land { token } => match self.landing {
                Some((t, capture)) if t == token => {
                    self.landing = None;
                    self.land(table, capture, Purpose::Move)
                }
                _ => Vec::new(),
            },
            Input::Failed { token } => {
                if let Some(purpose) = self.take(token) {
                    self.failed = Some(purpose);
                }
                Vec::new()
            }
        }
    }

    fn land(&mut self, table: &mut Table<G>, step: G::Step, purpose: Purpose) -> Vec<Effect> {
        if table.play(step).is_err() {
            self.failed = Some(purpose);
            return Vec::new();
        }
        self.settle(table)
    }

    /// The purpose of the outstanding request if `token` is its token, which it clears.
    fn take(&mut self, token: u32) -> Option<Purpose> {
        match self.asked {
            Some((t, purpose)) if t == token => {
                self.asked = None;
                Some(purpose)
            }
            _ => None,
        }
    }

    /// True when « Annuler » takes a turn back: in hot-seat any turn; against the computer, only
    /// when the player has a turn to take back (not the computer's opening turn alone).
    pub fn can_undo(&self, table: &Table<G>) -> bool {
        match self.human() {
            None => table.can_undo(),
            Some(h) => {
                let starts = table.turns().len() + usize::from(table.game().mid_turn());
                starts > h.index()
            }
        }
    }

    /// « Annuler »: goes back to the start of the player's last turn (or the one in progress),
    /// taking back the computer's answer to it with it — also while the computer thinks or lands
    /// its capture, which stops it. In hot-seat, one turn.
    pub fn undo(&mut self, table: &mut Table<G>) -> Vec<Effect> {
        if !self.can_undo(table) {
            return Vec::new();
        }
        match self.human() {
            None => {
                table.undo();
            }
            Some(h) => while table.undo() && table.game().to_move() != h {},
        }
        self.settle(table)
    }

    /// Opens the new-game choices with the current level and side.
    pub fn open_draft(&mut self) {
        self.draft = self.opponent.map(|o| (o.level, o.side));
    }

    /// Starts a game with the drafted level and side (the current ones when none), drawing
    /// « Au hasard » again.
    pub fn start(&mut self) {
        self.started = true;
        if let Some((level, side)) = self
            .draft
            .take()
            .or(self.opponent.map(|o| (o.level, o.side)))
        {
            self.choose(level, side);
        }
    }

    /// Changes the level and the side (before the first move).
    pub fn set(&mut self, level: Option<Level>, side: Option<Side>) {
        if let Some(o) = self.opponent {
            let (level, side) = (level.unwrap_or(o.level), side.unwrap_or(o.side));
            if side == o.side {
                self.opponent = Some(Opponent { level, ..o });
            } else {
                self.choose(level, side);
            }
        }
    }

    /// The notice for a click on the board while the computer plays.
    pub fn busy(&self) -> Text {
        match self.failed {
            Some(Purpose::Move) => Text::of(t::computer_failed),
            _ => Text::of(t::computer_busy),
        }
    }
}

#[cfg(test)]
mod tests;
