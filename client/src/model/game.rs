//! A local game page as a model, hot-seat or against the computer, once for both games: the
//! game and its undo stack, the keyboard focus, the last refusal, the new-game dialog, the
//! computer ([`Computer`]: its turns, its level and side — chosen before « Commencer » — and
//! the hints), the position shown ([`Browse`]), the moves in words ([`Speech`]) and the game's
//! own page state ([`PageGame::State`]: Morris's selection, rules and turn limit). The game kept
//! by the browser comes back through [`Model::restore`] ([`super::saved`]). [`Model::update`]
//! returns what the page must do.
//!
//! [`PageGame`] is what differs between the games: the fresh game, the focus, what a click
//! does, the status words, the mark in the titles, the hint in words, the new-game dialog's
//! own settings; `super::morris` and `super::meta` implement it.

use super::computer::{Computer, Effect, Input, Side};
use super::history::{Browse, HistoryView, Nav};
use super::saved::{self, Kept};
use super::speech::{Speech, Spoken};
use super::text;
use super::NewGameDialog;
use crate::i18n::{t, Text};
use engine::ai::Level;
use engine::table::Playable;
use engine::{Direction, Game, Player, Table};
use std::fmt::Debug;

/// What differs between the games' pages; everything else is [`Model`]'s. A step of the table
/// is one of the game's actions (so that the page's state compares and prints).
pub trait PageGame:
    Kept + Spoken + Playable<Step = <Self as Game>::Action> + Debug + PartialEq + 'static
{
    /// A point (Morris) or a cell (Ultimate tic-tac-toe): what has the keyboard focus and
    /// what a click names.
    type Focus: Copy + Debug + PartialEq + 'static;
    /// The game's own page state (Morris: the selection, the rules and the turn limit).
    type State: Clone + Debug + PartialEq;
    /// The game's own events (Morris: the rules and the turn limit typed).
    type Setting: Clone + Debug + PartialEq;
    /// The game's settings can change on the hot-seat page before the first move (Morris).
    const HOT_SEAT_SETTINGS: bool;

    /// A fresh game with the default settings.
    fn fresh() -> Self;
    /// The page's own state for a game starting from `start`.
    fn state(start: &Self) -> Self::State;
    /// The focus when the page opens.
    fn first_focus() -> Self::Focus;
    /// The focus after an arrow key.
    fn toward(focus: Self::Focus, d: Direction) -> Self::Focus;
    /// A click, or Enter/Space, on `at` once the page takes it: a step of the player's turn,
    /// or why not (in `m.notice`).
    fn click(m: &mut Model<Self>, at: Self::Focus) -> Vec<Effect>;
    /// One of the game's own events.
    fn setting(m: &mut Model<Self>, setting: Self::Setting) -> Vec<Effect>;
    /// A step in progress that « Annuler » drops before any turn (Morris: a selection).
    fn has_step(state: &Self::State) -> bool;
    /// Drops that step; true when there was one.
    fn drop_step(state: &mut Self::State) -> bool;
    /// A setting typed on the page is refused (Morris: the turn limit, the `quiet` number).
    fn refused(state: &Self::State) -> bool;
    /// Opens « Nouvelle partie »: the dialog, and the game's own settings there.
    fn open_dialog(game: &Self, state: &mut Self::State) -> NewGameDialog;
    /// Closes it without a new game.
    fn close_dialog(state: &mut Self::State);
    /// « Commencer » in the open dialog: the next game under the settings chosen there, or
    /// `None` when one is refused (its message is on screen).
    fn next_game(m: &mut Model<Self>) -> Option<Self>;
    /// While the computer plays, what it does when the game says more than « thinking »
    /// (Morris: its capture).
    fn computer_step(game: &Self) -> Option<String>;
    /// The status line on a player's turn, `human` the side played against the computer.
    fn to_do(game: &Self, human: Option<Player>) -> String;
    /// What follows the colour in a player card's title (« · croix »), or nothing.
    fn mark(p: Player) -> String;
    /// A suggested turn in words.
    fn turn_words(turn: <Self as Game>::Turn) -> String;
    /// The turn in progress in the history (« g7x… »), and the rules' name above it.
    fn history_extra(game: &Self) -> (Option<String>, Option<String>);
}

/// What the player did.
#[derive(Clone, Debug, PartialEq)]
pub enum Event<G: PageGame> {
    /// A click, or Enter/Space on the focused point or cell.
    Activate(G::Focus),
    /// An arrow key on the board.
    Arrow(Direction),
    /// « Annuler ».
    Undo,
    /// « Nouvelle partie »: opens the confirmation.
    AskNewGame,
    /// « Commencer » in the confirmation.
    ConfirmNewGame,
    /// « Reprendre la partie »: closes the confirmation, keeping the game and its settings.
    CancelNewGame,
    /// Against the computer, its level: in the open dialog, else before the first move.
    Level(Level),
    /// Against the computer, the player's side: in the open dialog, else before the first move.
    Side(Side),
    /// « Commencer » against the computer: the settings are chosen, the game begins.
    Start,
    /// « Suggérer un coup ».
    Hint,
    /// The worker or the timer reported.
    Computer(Input),
    /// Going back through the game (a turn clicked, ←, →, Home, End, « Retour à la partie »).
    History(Nav),
    /// One of the game's own events (Morris: the rules, the turn limit).
    Own(G::Setting),
}

/// The page's whole state.
#[derive(Clone, Debug, PartialEq)]
pub struct Model<G: PageGame> {
    pub(super) table: Table<G>,
    /// The point or cell with the keyboard focus.
    pub focus: G::Focus,
    /// The last refusal.
    pub notice: Option<Text>,
    /// The open « Nouvelle partie » confirmation.
    pub dialog: Option<NewGameDialog>,
    /// The computer: the opponent (computer mode) and the hints.
    pub computer: Computer<G>,
    /// The position shown: live, or a past one (read-only).
    pub browse: Browse,
    /// The moves in words, for the live region.
    pub speech: Speech,
    /// The game was taken back from the browser's storage (« Partie reprise »), until the
    /// player acts.
    pub resumed: bool,
    /// The game's own page state.
    pub own: G::State,
}

impl<G: PageGame> Default for Model<G> {
    fn default() -> Model<G> {
        Model::new()
    }
}

impl<G: PageGame> Model<G> {
    /// A fresh hot-seat game with the default settings.
    pub fn new() -> Model<G> {
        Model::with(Computer::hints_only(0))
    }

    /// A fresh game against the computer (« Facile », the player Blue), its settings to be
    /// chosen before « Commencer »; `seed` varies the games.
    pub fn against_computer(seed: u64) -> Model<G> {
        Model::with(Computer::against(Level::Easy, Side::Blue, seed))
    }

    fn with(computer: Computer<G>) -> Model<G> {
        let game = G::fresh();
        Model {
            own: G::state(&game),
            table: Table::new(game),
            focus: G::first_focus(),
            notice: None,
            dialog: None,
            computer,
            browse: Browse::default(),
            speech: Speech::default(),
            resumed: false,
        }
    }

    /// The game.
    pub fn game(&self) -> &G {
        self.table.game()
    }

    /// The game with its history.
    pub fn table(&self) -> &Table<G> {
        &self.table
    }

    /// True when « Annuler » does something.
    pub fn can_undo(&self) -> bool {
        G::has_step(&self.own) || self.computer.can_undo(&self.table)
    }

    /// True while the settings may change on the page: until « Commencer » against the
    /// computer, and before the first move in hot-seat for a game with settings of its own.
    pub fn settings_editable(&self) -> bool {
        self.computer.setting_up()
            || (G::HOT_SEAT_SETTINGS
                && self.computer.opponent.is_none()
                && self.table.is_untouched())
    }

    /// A setting typed on the page was refused: the field shows it, and no move is played
    /// until it is corrected — the game never runs under a value other than the one on screen.
    pub fn settings_refused(&self) -> bool {
        self.settings_editable() && G::refused(&self.own)
    }

    /// What the browser keeps of this page ([`saved::write`]).
    pub fn saved(&self) -> String {
        saved::write(&self.table, self.computer.opponent)
    }

    /// The position the board shows: the live game, or a past one.
    pub fn shown(&self) -> &G {
        self.browse.shown(&self.table)
    }

    /// The history panel.
    pub fn history(&self) -> HistoryView {
        let (pending, rules) = G::history_extra(self.game());
        HistoryView {
            rules,
            ..HistoryView::of(&self.table, pending, self.browse)
        }
    }

    /// Handles one event; says what the page must do.
    pub fn update(&mut self, event: Event<G>) -> Vec<Effect> {
        let effects = self.handle(event);
        self.speech.heard(&self.table);
        // The live game may have changed (an undo, a new game, the computer's turn): a past
        // position still shown stays, one taken back gives way to the live game.
        self.browse.fit_to(&self.table);
        effects
    }

    fn handle(&mut self, event: Event<G>) -> Vec<Effect> {
        if matches!(
            event,
            Event::Activate(_) | Event::Undo | Event::ConfirmNewGame | Event::Start
        ) {
            self.resumed = false;
        }
        match event {
            Event::History(nav) => {
                // A refusal was about the position left behind.
                self.notice = None;
                self.browse.go_on(nav, &self.table)
            }
            Event::Activate(at) => {
                self.focus = at;
                return self.activate(at);
            }
            Event::Arrow(d) => self.focus = G::toward(self.focus, d),
            Event::Start => return self.start(),
            Event::Undo => {
                self.notice = None;
                self.browse = Browse::default();
                if !G::drop_step(&mut self.own) {
                    return self.computer.undo(&mut self.table);
                }
            }
            // The settings are on screen already, with « Commencer ».
            Event::AskNewGame if self.computer.setting_up() => {}
            Event::AskNewGame => {
                self.computer.open_draft();
                self.dialog = Some(G::open_dialog(self.table.game(), &mut self.own));
            }
            Event::ConfirmNewGame => return self.confirm_new_game(),
            Event::CancelNewGame => {
                self.dialog = None;
                G::close_dialog(&mut self.own);
                self.computer.draft = None;
            }
            Event::Level(level) => return self.setting(Some(level), None),
            Event::Side(side) => return self.setting(None, Some(side)),
            Event::Hint => return self.computer.ask_hint(&self.table),
            Event::Computer(input) => return self.computer.input(&mut self.table, input),
            Event::Own(setting) => return G::setting(self, setting),
        }
        Vec::new()
    }

    /// « Commencer » against the computer: the game begins, unless a setting is refused.
    fn start(&mut self) -> Vec<Effect> {
        if self.settings_refused() {
            self.notice = Some(Text::of(t::settings_refused));
        } else if self.computer.setting_up() {
            self.notice = None;
            self.computer.begin();
            self.speech.restart(&self.table);
            return self.computer.settle(&self.table);
        }
        Vec::new()
    }

    /// « Commencer » in the confirmation: the next game under the settings chosen there,
    /// unless one is refused (its message is on screen, nothing starts).
    fn confirm_new_game(&mut self) -> Vec<Effect> {
        if self.dialog.is_none() {
            return Vec::new();
        }
        let Some(game) = G::next_game(self) else {
            return Vec::new();
        };
        self.table.reset(game);
        self.speech.restart(&self.table);
        self.notice = None;
        self.dialog = None;
        self.browse = Browse::default();
        self.computer.start();
        self.computer.settle(&self.table)
    }

    /// Takes back the game the browser kept for this page ([`saved::write`]'s text, found
    /// when the page opens), when it is one for this page (a game against the computer for the
    /// computer's page): under way, it goes on (the computer plays if it is its turn);
    /// untouched, its settings are offered again. Anything else changes nothing.
    pub fn restore(&mut self, text: &str) -> Vec<Effect> {
        let Some(kept) = saved::read::<G>(text) else {
            return Vec::new();
        };
        if kept.opponent.is_some() != self.computer.opponent.is_some() {
            return Vec::new();
        }
        self.own = G::state(kept.table.position(0));
        self.resumed = !kept.table.is_untouched();
        if let Some(o) = kept.opponent {
            self.computer.resume(o, self.resumed);
        }
        self.table = kept.table;
        self.notice = None;
        self.dialog = None;
        self.browse = Browse::default();
        self.speech = Speech::following(&self.table);
        if self.resumed {
            self.speech.say(t::resumed());
        }
        self.speech.flush();
        self.computer.settle(&self.table)
    }

    /// A level or side: in the open dialog, or on the page before the first move.
    fn setting(&mut self, level: Option<Level>, side: Option<Side>) -> Vec<Effect> {
        if let Some((l, s)) = self.computer.draft.as_mut() {
            *l = level.unwrap_or(*l);
            *s = side.unwrap_or(*s);
        } else if self.settings_editable() {
            self.computer.set(level, side);
            return self.computer.settle(&self.table);
        }
        Vec::new()
    }

    /// A click, or Enter/Space, on `at`: refused while a past position is shown, before
    /// « Commencer », under a refused setting and on the computer's turn; else the game's
    /// ([`PageGame::click`]).
    fn activate(&mut self, at: G::Focus) -> Vec<Effect> {
        let refusal: Option<fn() -> &'static str> = if !self.browse.is_live() {
            Some(t::read_only)
        } else if self.computer.setting_up() {
            Some(t::setup_first)
        } else if self.settings_refused() {
            Some(t::settings_refused)
        } else {
            None
        };
        if let Some(why) = refusal {
            self.notice = Some(Text::of(why));
            return Vec::new();
        }
        if self.computer.plays(self.game()) {
            self.notice = Some(self.computer.busy());
            return Vec::new();
        }
        G::click(self, at)
    }

    /// The line under the board: whose turn and what to do, or the result.
    pub fn status(&self) -> String {
        let g = self.game();
        // The result banner once the game is over.
        if let Some(result) = g.result() {
            return result;
        }
        if self.computer.setting_up() {
            return t::setup_status().to_string();
        }
        if self.computer.plays(g) {
            return G::computer_step(g)
                .unwrap_or_else(|| text::computer_status(self.computer.failed).to_string());
        }
        G::to_do(g, self.computer.human())
    }

    /// The player card titles: « Bleu » (with the game's mark), or with « vous » and
    /// « ordinateur (Facile) ».
    pub fn player_title(&self, p: Player) -> String {
        text::player_title(p, self.computer.opponent, &G::mark(p))
    }

    /// The hint in words, or why there is none.
    pub fn hint_text(&self) -> Option<String> {
        text::hint(&self.computer, G::turn_words)
    }
}
