//! The Nine Men's Morris page as a model, hot-seat or against the computer: the game and its
//! undo stack, the selected piece, the keyboard focus, the last refusal, the settings (the
//! rules, the turn limit; level and side against the computer, chosen before « Commencer »),
//! the new-game dialog, and the computer ([`Computer`]: its turns and the hints). The game
//! kept by the browser comes back through [`Model::restore`] ([`super::saved`]).
//! [`Model::update`] returns what the page must do.

use super::computer::{Computer, Effect, Input, Side};
use super::history::{Browse, HistoryView, Nav};
use super::rules::{RulesForm, RulesInput};
use super::saved;
use super::selection::{self, Click};
use super::speech::Speech;
use super::text;
use super::NewGameDialog;
use crate::i18n::{t, Text};
use engine::ai::Level;
use engine::morris::{Morris, Phase, Point, Points, Rules};
use engine::{Direction, Game, Player, Table};

/// What the player did.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A click, or Enter/Space on the focused point.
    Activate(Point),
    /// An arrow key on the board.
    Arrow(Direction),
    /// « Annuler ».
    Undo,
    /// « Nouvelle partie »: opens the confirmation.
    AskNewGame,
    /// The limit typed in the confirmation.
    DialogLimit(String),
    /// « Commencer » in the confirmation.
    ConfirmNewGame,
    /// « Reprendre la partie »: closes the confirmation, keeping game and limit.
    CancelNewGame,
    /// The turn-limit setting under the rules (applies before the first move only).
    Limit(String),
    /// The rules: in the open dialog, else on the page before the first move.
    Rules(RulesInput),
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
}

/// The page's whole state.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    table: Table<Morris>,
    /// The selected piece (moving stage), never sent anywhere.
    pub selected: Option<Point>,
    /// The point with the keyboard focus.
    pub focus: Point,
    /// The last refusal.
    pub notice: Option<Text>,
    /// The turn-limit setting as typed.
    pub limit_text: String,
    /// Why the typed setting was refused.
    pub limit_error: Option<Text>,
    /// The rules as chosen on the page (they apply before the first move).
    pub rules: RulesForm,
    /// The open « Nouvelle partie » confirmation.
    pub dialog: Option<NewGameDialog>,
    /// The rules chosen in the open confirmation, for the next game.
    pub dialog_rules: Option<RulesForm>,
    /// The computer: the opponent (computer mode) and the hints.
    pub computer: Computer<Morris>,
    /// The position shown: live, or a past one (read-only).
    pub browse: Browse,
    /// The moves in words, for the live region.
    pub speech: Speech,
    /// The game was taken back from the browser's storage (« Partie reprise »), until the
    /// player acts.
    pub resumed: bool,
}

impl Default for Model {
    fn default() -> Model {
        Model::new()
    }
}

impl Model {
    /// A fresh hot-seat game with the default limit.
    pub fn new() -> Model {
        Model::with(Computer::hints_only(0))
    }

    /// A fresh game against the computer (« Facile », the player Blue), its settings to be
    /// chosen before « Commencer »; `seed` varies the games.
    pub fn against_computer(seed: u64) -> Model {
        Model::with(Computer::against(Level::Easy, Side::Blue, seed))
    }

    fn with(computer: Computer<Morris>) -> Model {
        let game = Morris::new();
        Model {
            limit_text: game.max_turns().to_string(),
            table: Table::new(game),
            selected: None,
            focus: Point::new(0).expect("point 0"),
            notice: None,
            limit_error: None,
            rules: RulesForm::new(Rules::NINE),
            dialog: None,
            dialog_rules: None,
            computer,
            browse: Browse::default(),
            speech: Speech::default(),
            resumed: false,
        }
    }

    /// The game.
    pub fn game(&self) -> &Morris {
        self.table.game()
    }

    /// The game with its history.
    pub fn table(&self) -> &Table<Morris> {
        &self.table
    }

    /// True when « Annuler » does something.
    pub fn can_undo(&self) -> bool {
        self.selected.is_some() || self.computer.can_undo(&self.table)
    }

    /// True while the settings may change on the page: before the first move in hot-seat,
    /// until « Commencer » against the computer.
    pub fn limit_editable(&self) -> bool {
        self.table.is_untouched()
            && (self.computer.opponent.is_none() || self.computer.setting_up())
    }

    /// A setting typed on the page was refused (the turn limit, the `quiet` number): the field
    /// shows it, and no move is played until it is corrected — the game never runs under a
    /// value other than the one on screen.
    pub fn settings_refused(&self) -> bool {
        self.limit_editable() && (self.limit_error.is_some() || self.rules.error.is_some())
    }

    /// What the browser keeps of this page ([`saved::write`]).
    pub fn saved(&self) -> String {
        saved::write(&self.table, self.computer.opponent)
    }

    /// Destinations of the selected piece (pale green).
    pub fn destinations(&self) -> Points {
        self.selected
            .map_or(Points::EMPTY, |p| self.game().destinations(p))
    }

    /// The position the board shows: the live game, or a past one.
    pub fn shown(&self) -> &Morris {
        self.browse.shown(&self.table)
    }

    /// The history panel.
    pub fn history(&self) -> HistoryView {
        let g = self.game();
        let pending = (g.phase() == Phase::Capture)
            .then(|| g.last_turn().map(|t| format!("{t}x…")))
            .flatten();
        HistoryView {
            rules: Some(text::rules_name(g.rules())),
            ..HistoryView::of(&self.table, pending, self.browse)
        }
    }

    /// Handles one event; says what the page must do.
    pub fn update(&mut self, event: Event) -> Vec<Effect> {
        let effects = self.handle(event);
        self.speech.heard(&self.table);
        // The live game may have changed (an undo, a new game, the computer's turn): a past
        // position still shown stays, one taken back gives way to the live game.
        self.browse.fit_to(&self.table);
        effects
    }

    fn handle(&mut self, event: Event) -> Vec<Effect> {
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
            Event::Activate(p) => {
                self.focus = p;
                return self.activate(p);
            }
            Event::Arrow(d) => self.focus = self.focus.toward(d),
            Event::Start if self.settings_refused() => {
                self.notice = Some(Text::of(t::settings_refused));
            }
            Event::Start if self.computer.setting_up() => {
                self.notice = None;
                self.computer.begin();
                self.speech.restart(&self.table);
                return self.computer.settle(&self.table);
            }
            Event::Start => {}
            Event::Undo => {
                self.notice = None;
                self.browse = Browse::default();
                if self.selected.take().is_none() {
                    return self.computer.undo(&mut self.table);
                }
            }
            Event::AskNewGame | Event::DialogLimit(_) | Event::ConfirmNewGame => {
                return self.new_game(event)
            }
            Event::CancelNewGame => {
                self.dialog = None;
                self.dialog_rules = None;
                self.computer.draft = None;
            }
            Event::Rules(input) => return self.rules(input),
            Event::Limit(text) => return self.limit(text),
            Event::Level(level) => return self.setting(Some(level), None),
            Event::Side(side) => return self.setting(None, Some(side)),
            Event::Hint => return self.computer.ask_hint(&self.table),
            Event::Computer(input) => return self.computer.input(&mut self.table, input),
        }
        Vec::new()
    }

    /// « Nouvelle partie », the limit typed in its confirmation, and « Commencer » there.
    fn new_game(&mut self, event: Event) -> Vec<Effect> {
        match event {
            // The settings are on screen already, with « Commencer ».
            Event::AskNewGame if self.computer.setting_up() => {}
            Event::AskNewGame => {
                self.computer.open_draft();
                self.dialog = Some(NewGameDialog {
                    limit_text: self.game().max_turns().to_string(),
                    error: None,
                });
                self.dialog_rules = Some(RulesForm::new(self.game().rules()));
            }
            Event::DialogLimit(text) => {
                if let Some(d) = self.dialog.as_mut() {
                    d.limit_text = text;
                    d.error = None;
                }
            }
            _ => return self.confirm_new_game(),
        }
        Vec::new()
    }

    /// « Commencer » in the confirmation: the next game under the rules and limit chosen there,
    /// unless one is refused (its message is on screen, nothing starts).
    fn confirm_new_game(&mut self) -> Vec<Effect> {
        let Some(dialog) = self.dialog.as_mut() else {
            return Vec::new();
        };
        let form = self
            .dialog_rules
            .clone()
            .unwrap_or_else(|| RulesForm::new(self.table.game().rules()));
        if form.error.is_some() {
            return Vec::new();
        }
        match parse_limit(&dialog.limit_text, form.rules) {
            Ok(game) => {
                self.limit_text = game.max_turns().to_string();
                self.limit_error = None;
                self.rules = form;
                self.dialog_rules = None;
                self.table.reset(game);
                self.speech.restart(&self.table);
                self.selected = None;
                self.notice = None;
                self.dialog = None;
                self.browse = Browse::default();
                self.computer.start();
                self.computer.settle(&self.table)
            }
            Err(e) => {
                dialog.error = Some(e);
                Vec::new()
            }
        }
    }

    /// The rules: in the open dialog, else on the page before the first move.
    fn rules(&mut self, input: RulesInput) -> Vec<Effect> {
        if let Some(form) = self.dialog_rules.as_mut() {
            form.apply(input);
        } else if self.limit_editable() && self.rules.apply(input) {
            let limit = self.game().max_turns();
            let game =
                Morris::with_rules(self.rules.rules, limit.into()).expect("the game's own limit");
            self.table.reset(game);
            return self.computer.settle(&self.table);
        }
        Vec::new()
    }

    /// The turn limit typed on the page, before the first move.
    fn limit(&mut self, text: String) -> Vec<Effect> {
        if !self.limit_editable() {
            return Vec::new();
        }
        self.limit_text = text;
        match parse_limit(&self.limit_text, self.game().rules()) {
            Ok(game) => {
                self.table.reset(game);
                self.limit_error = None;
                self.computer.settle(&self.table)
            }
            Err(e) => {
                self.limit_error = Some(e);
                Vec::new()
            }
        }
    }

    /// Takes back the game the browser kept for this page ([`saved::write`]'s text, found
    /// when the page opens), when it is one for this page (a game against the computer for the
    /// computer's page): under way, it goes on (the computer plays if it is its turn);
    /// untouched, its settings are offered again. Anything else changes nothing.
    pub fn restore(&mut self, text: &str) -> Vec<Effect> {
        let Some(kept) = saved::read::<Morris>(text) else {
            return Vec::new();
        };
        if kept.opponent.is_some() != self.computer.opponent.is_some() {
            return Vec::new();
        }
        let start = kept.table.position(0);
        self.limit_text = start.max_turns().to_string();
        self.limit_error = None;
        self.rules = RulesForm::new(start.rules());
        self.resumed = !kept.table.is_untouched();
        if let Some(o) = kept.opponent {
            self.computer.resume(o, self.resumed);
        }
        self.table = kept.table;
        self.selected = None;
        self.notice = None;
        self.dialog = None;
        self.dialog_rules = None;
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
        } else if self.limit_editable() {
            self.computer.set(level, side);
            return self.computer.settle(&self.table);
        }
        Vec::new()
    }

    /// A click, or Enter/Space, on `p`: refused while a past position is shown, before
    /// « Commencer », under a refused setting and on the computer's turn; else a step of the
    /// player's turn ([`selection::click`]).
    fn activate(&mut self, p: Point) -> Vec<Effect> {
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
        let mut effects = Vec::new();
        self.notice = match selection::click(self.game(), self.selected, p) {
            Click::Play(action) => match self.table.play(action) {
                Ok(()) => {
                    self.selected = None;
                    // A hint whose first step was just played still shows its capture.
                    let hint = self.computer.hint.filter(|h| h.step() == action);
                    effects = self.computer.settle(&self.table);
                    if self.game().phase() == Phase::Capture {
                        self.computer.hint = hint;
                    }
                    None
                }
                Err(e) => Some(Text::new(move || text::morris_refusal(e))),
            },
            Click::Select(p, why) => {
                self.selected = Some(p);
                why
            }
            Click::Deselect => {
                self.selected = None;
                None
            }
            Click::Refuse(why) => Some(why),
        };
        effects
    }

    /// The line under the board: whose turn and what to do, or the result.
    pub fn status(&self) -> String {
        let g = self.game();
        let me = g.to_move();
        let human = self.computer.human();
        if let Some(result) = text::morris_result(g) {
            return result;
        }
        if self.computer.setting_up() {
            return t::setup_status().to_string();
        }
        let prey = text::colour(me.opponent());
        if self.computer.plays(g) {
            return match g.phase() {
                Phase::Capture => t::computer_captures(prey),
                _ => text::computer_status(self.computer.failed).to_string(),
            };
        }
        let who = text::turn_of(me, human);
        let what = match g.phase() {
            Phase::Capture if human.is_some() => return t::you_capture(prey),
            Phase::Capture => return t::player_captures(text::player_name(me), prey),
            // Under Lasker a placing side may also slide a piece, when one can.
            _ if g.is_placing() && !g.movable().is_empty() => t::who_place_or_move(&who),
            _ if g.is_placing() => t::who_place(&who),
            _ if g.can_fly() => t::who_fly(&who),
            _ => t::who_move(&who),
        };
        match (human, g.last_turn()) {
            (Some(_), Some(turn)) => t::computer_played(&turn.to_string(), &what),
            _ => what,
        }
    }

    /// The player card titles: « Bleu », or « Bleu · vous » and « Rouge · ordinateur (Facile) ».
    pub fn player_title(&self, p: Player) -> String {
        text::player_title(p, self.computer.opponent, "")
    }

    /// The hint in words, or why there is none.
    pub fn hint_text(&self) -> Option<String> {
        text::hint(&self.computer, text::morris_turn)
    }
}

/// A new game under `rules` with the typed limit, or why the limit is refused.
fn parse_limit(text: &str, rules: Rules) -> Result<Morris, Text> {
    super::parse_limit(text).map(|n| Morris::with_rules(rules, n as u32).expect("checked"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::t;
    use engine::Player;

    fn p(name: &str) -> Point {
        Point::from_name(name).unwrap()
    }

    fn clicks(m: &mut Model, names: &str) {
        for n in names.split_whitespace() {
            m.update(Event::Activate(p(n)));
        }
    }

    #[test]
    fn a_pending_capture_is_undone_with_its_turn_and_adds_no_history_entry() {
        let mut m = Model::new();
        clicks(&mut m, "a7 b6 d7 d6 g7");
        assert_eq!(m.game().phase(), Phase::Capture);
        m.update(Event::Undo);
        assert_eq!(m.game().turns(), 4);
        assert_eq!(m.game().piece_at(p("g7")), None);
        assert_eq!(m.game().phase(), Phase::Play);
        // Complete the capture: one entry for the whole turn.
        clicks(&mut m, "g7 b6");
        assert_eq!(m.game().turns(), 5);
        m.update(Event::Undo);
        assert_eq!(m.game().turns(), 4);
        assert_eq!(m.game().piece_at(p("b6")), Some(Player::Red));
        assert_eq!(m.game().piece_at(p("g7")), None);
    }

    #[test]
    fn undo_first_clears_a_bare_selection() {
        let mut m = Model::new();
        clicks(
            &mut m,
            "a7 d7 g7 a4 g4 g1 a1 d1 b6 d6 f6 b4 f4 f2 b2 d2 c5 e5",
        );
        assert!(!m.game().is_placing());
        clicks(&mut m, "c5");
        assert_eq!(m.selected, Some(p("c5")));
        assert_eq!(m.destinations(), [p("d5"), p("c4")].into_iter().collect());
        m.update(Event::Undo);
        assert_eq!(m.selected, None);
        assert_eq!(m.game().turns(), 18, "the selection only");
        m.update(Event::Undo);
        assert_eq!(m.game().turns(), 17);
    }

    #[test]
    fn selection_rules_follow_the_product_sheet() {
        let mut m = Model::new();
        clicks(
            &mut m,
            "a7 d7 g7 a4 g4 g1 a1 d1 b6 d6 f6 b4 f4 f2 b2 d2 c5 e5",
        );
        clicks(&mut m, "c5");
        clicks(&mut m, "c5");
        assert_eq!(m.selected, None, "clicking the selected piece deselects");
        clicks(&mut m, "c5 f4");
        assert_eq!(
            m.selected,
            Some(p("f4")),
            "another own piece changes the selection"
        );
        clicks(&mut m, "e4");
        assert_eq!(m.game().piece_at(p("e4")), Some(Player::Blue));
        assert_eq!(m.selected, None);
        clicks(&mut m, "d6");
        assert_eq!(m.selected, Some(p("d6")), "red to move now");
        clicks(&mut m, "e4");
        assert!(m.notice.is_some());
    }

    #[test]
    fn refused_actions_leave_a_french_message_and_change_nothing() {
        let mut m = Model::new();
        clicks(&mut m, "d6 d6");
        assert_eq!(
            m.notice.as_ref().map(Text::get).as_deref(),
            Some("Ce point est déjà occupé.")
        );
        assert_eq!(m.game().turns(), 1);
        clicks(&mut m, "b4");
        assert_eq!(m.notice, None);
    }

    #[test]
    fn undo_works_after_the_end_of_the_game() {
        let mut m = Model::new();
        m.update(Event::Limit("1".into()));
        clicks(&mut m, "d6");
        assert!(m.game().is_over());
        clicks(&mut m, "b4");
        assert!(m
            .notice
            .as_ref()
            .unwrap()
            .get()
            .starts_with("La partie est terminée"));
        m.update(Event::Undo);
        assert!(!m.game().is_over());
        assert_eq!(m.game().max_turns(), 1, "the limit is kept");
    }

    #[test]
    fn the_limit_is_set_before_the_first_move_or_in_the_confirmation() {
        let mut m = Model::new();
        m.update(Event::Limit("0".into()));
        assert_eq!(m.limit_error, Some(Text::of(t::limit_error)));
        assert_eq!(m.game().max_turns(), 100);
        m.update(Event::Limit("abc".into()));
        assert!(m.limit_error.is_some());
        m.update(Event::Limit("42".into()));
        assert_eq!((m.game().max_turns(), m.limit_error.clone()), (42, None));
        clicks(&mut m, "d6");
        assert!(!m.limit_editable());
        m.update(Event::Limit("7".into()));
        assert_eq!(m.game().max_turns(), 42, "locked after the first move");
        // Cancel keeps the game and its limit.
        m.update(Event::AskNewGame);
        m.update(Event::DialogLimit("9".into()));
        m.update(Event::CancelNewGame);
        assert_eq!((m.game().turns(), m.game().max_turns()), (1, 42));
        // An invalid limit in the confirmation is refused; the game stays.
        m.update(Event::AskNewGame);
        m.update(Event::DialogLimit("501".into()));
        m.update(Event::ConfirmNewGame);
        assert_eq!(
            m.dialog.as_ref().unwrap().error,
            Some(Text::of(t::limit_error))
        );
        assert_eq!(m.game().turns(), 1);
        m.update(Event::DialogLimit("12".into()));
        m.update(Event::ConfirmNewGame);
        assert_eq!((m.game().turns(), m.game().max_turns()), (0, 12));
        assert!(m.dialog.is_none() && m.limit_editable());
        assert_eq!(m.limit_text, "12");
    }

    #[test]
    fn the_rules_are_chosen_before_the_first_move_and_in_the_confirmation() {
        use engine::morris::Param;
        let mut m = Model::new();
        m.update(Event::Limit("80".into()));
        m.update(Event::Rules(RulesInput::Named(Rules::TWELVE)));
        assert_eq!(m.game().rules(), Rules::TWELVE);
        assert_eq!(m.game().max_turns(), 80, "the limit stays");
        assert_eq!(m.game().reserve(Player::Blue), 12);
        m.update(Event::Rules(RulesInput::Param(Param::Flying, 0)));
        assert_eq!(m.game().rules().short(), "twelve,flying=0");
        // An out-of-range number is refused with its message; the rules stay.
        m.update(Event::Rules(RulesInput::Quiet("501".into())));
        assert_eq!(m.rules.error, Some(Text::of(t::quiet_error)));
        assert_eq!(m.game().rules().quiet(), 0);
        m.update(Event::Rules(RulesInput::Quiet("30".into())));
        assert_eq!(
            (m.game().rules().quiet(), m.rules.error.clone()),
            (30, None)
        );
        // The limit typed after the rules keeps them.
        m.update(Event::Limit("90".into()));
        assert_eq!(m.game().rules().short(), "twelve,flying=0,quiet=30");
        // After the first move they are locked.
        clicks(&mut m, "a7");
        m.update(Event::Rules(RulesInput::Named(Rules::NINE)));
        assert_eq!(m.game().rules().short(), "twelve,flying=0,quiet=30");
        assert_eq!(m.game().turns(), 1);
        // The confirmation opens with the game's rules; cancelling keeps game and rules.
        m.update(Event::AskNewGame);
        assert_eq!(m.dialog_rules.as_ref().unwrap().rules, m.game().rules());
        m.update(Event::Rules(RulesInput::Named(Rules::LASKER)));
        assert_eq!(m.game().rules().pieces(), 12, "the dialog's choice waits");
        m.update(Event::CancelNewGame);
        assert!(m.dialog_rules.is_none());
        assert_eq!((m.game().turns(), m.game().rules().pieces()), (1, 12));
        // A refused number in the confirmation starts nothing.
        m.update(Event::AskNewGame);
        m.update(Event::Rules(RulesInput::Named(Rules::LASKER)));
        m.update(Event::Rules(RulesInput::Quiet("abc".into())));
        m.update(Event::ConfirmNewGame);
        assert!(m.dialog.is_some());
        assert_eq!(m.game().turns(), 1);
        m.update(Event::Rules(RulesInput::Quiet("0".into())));
        m.update(Event::ConfirmNewGame);
        assert!(m.dialog.is_none());
        assert_eq!((m.game().turns(), m.game().rules()), (0, Rules::LASKER));
        assert_eq!(m.game().max_turns(), 90);
        assert_eq!(
            (
                m.rules.rules,
                m.rules.quiet_text.as_str(),
                m.rules.error.clone()
            ),
            (Rules::LASKER, "0", None),
            "the page shows them"
        );
        assert_eq!(m.history().rules.as_deref(), Some("Lasker (10 pions)"));
        // Another new game keeps them.
        m.update(Event::AskNewGame);
        m.update(Event::ConfirmNewGame);
        assert_eq!(m.game().rules(), Rules::LASKER);
    }

    #[test]
    fn under_lasker_clicks_place_or_select_and_slide() {
        let mut m = Model::new();
        m.update(Event::Rules(RulesInput::Named(Rules::LASKER)));
        clicks(&mut m, "a7 d7");
        assert_eq!(
            m.status(),
            "Au tour de Bleu : posez un pion ou déplacez-en un."
        );
        clicks(&mut m, "a7");
        assert_eq!(m.selected, Some(p("a7")));
        assert_eq!(m.destinations(), [p("a4")].into_iter().collect());
        clicks(&mut m, "a4");
        assert_eq!(m.table().record(), "a7 d7 a7-a4");
        assert_eq!(
            m.game().reserve(Player::Blue),
            9,
            "a slide keeps the reserve"
        );
        assert_eq!(
            text::morris_player(m.game(), Player::Blue),
            "Pose ou déplacement (9 jetons restants) · 1 pion sur le plateau"
        );
        // Red selects, then places elsewhere instead.
        clicks(&mut m, "d7 b6");
        assert_eq!(m.table().record(), "a7 d7 a7-a4 b6");
        assert_eq!(m.selected, None);
        // A slide that closes a mill waits for its capture: Blue a1, d1 and g4 slides to g1.
        clicks(&mut m, "a1 g7 d1 f6 g4 b4 g4 g1");
        assert_eq!(m.game().phase(), Phase::Capture, "{}", m.table().record());
        clicks(&mut m, "g7");
        assert_eq!(
            m.table().record(),
            "a7 d7 a7-a4 b6 a1 g7 d1 f6 g4 b4 g4-g1xg7"
        );
    }

    #[test]
    fn the_computer_is_asked_under_the_rules_of_the_game() {
        let mut m = Model::against_computer(3);
        m.update(Event::Rules(RulesInput::Named(Rules::NOFLYING)));
        m.update(Event::Start);
        let effects = m.update(Event::Activate(p("d6")));
        let [Effect::Ask(ask)] = effects.as_slice() else {
            panic!("{effects:?}")
        };
        assert_eq!(ask.rules, Rules::NOFLYING.to_string());
        // A hint too; the default rules are sent as nothing.
        let mut h = Model::new();
        let effects = h.update(Event::Hint);
        let [Effect::Ask(ask)] = effects.as_slice() else {
            panic!("{effects:?}")
        };
        assert_eq!(ask.rules, "");
        h.update(Event::Rules(RulesInput::Named(Rules::GUR9)));
        let effects = h.update(Event::Hint);
        let [Effect::Ask(ask)] = effects.as_slice() else {
            panic!("{effects:?}")
        };
        assert_eq!(ask.rules, Rules::GUR9.to_string());
        // « Nouvelle partie » against the computer keeps the rules with the other settings.
        m.update(Event::AskNewGame);
        m.update(Event::ConfirmNewGame);
        assert_eq!(m.game().rules(), Rules::NOFLYING);
    }

    #[test]
    fn browsing_shows_a_past_position_read_only_and_never_changes_the_game() {
        let mut m = Model::new();
        clicks(&mut m, "a7 b6 d7 d6 g7");
        let live = m.table().clone();
        m.update(Event::History(Nav::To(2)));
        assert_eq!(m.shown().turns(), 2);
        assert_eq!(m.history().current, 2);
        clicks(&mut m, "a1");
        assert_eq!(
            m.notice.as_ref().map(Text::get).as_deref(),
            Some(t::read_only())
        );
        assert_eq!(m.table(), &live, "a click on a past position plays nothing");
        m.update(Event::History(Nav::Back));
        m.update(Event::History(Nav::Start));
        assert_eq!(m.shown(), &Morris::new());
        assert_eq!(m.history().pending.as_deref(), Some("g7x…"));
        m.update(Event::History(Nav::Live));
        clicks(&mut m, "b6");
        assert_eq!(m.table().record(), "a7 b6 d7 d6 g7xb6");
        // Undo brings the live game back on screen.
        m.update(Event::History(Nav::To(1)));
        m.update(Event::Undo);
        assert!(m.browse.is_live());
        assert_eq!(m.game().turns(), 4);
    }

    #[test]
    fn the_computers_turns_keep_arriving_while_a_past_position_is_shown() {
        let mut m = Model::against_computer(1);
        m.update(Event::Start);
        let effects = m.update(Event::Activate(p("d6")));
        let [Effect::Ask(ask)] = effects.as_slice() else {
            panic!("{effects:?}")
        };
        assert!(m.update(Event::History(Nav::Start)).is_empty());
        // The computer (Red) answers: its turn lands on the live game, the page stays at the start.
        let reply = Input::Reply {
            token: ask.token,
            turn: "b4".into(),
            nodes: 1,
            search_ms: 1,
            reply_ms: 1,
        };
        m.update(Event::Computer(reply));
        assert_eq!(m.table().record(), "d6 b4");
        assert_eq!(m.browse.ply(), Some(0));
        assert_eq!(m.shown(), &Morris::new());
        m.update(Event::History(Nav::Live));
        assert_eq!(m.shown().turns(), 2);
    }

    #[test]
    fn the_live_region_tells_both_sides_moves_against_the_computer() {
        let mut m = Model::against_computer(1);
        m.update(Event::Start);
        assert_eq!(m.speech.text, crate::i18n::t::said_new_game());
        let effects = m.update(Event::Activate(p("d6")));
        assert_eq!(m.speech.text, "Bleu pose en d6.");
        let [Effect::Ask(ask)] = effects.as_slice() else {
            panic!("{effects:?}")
        };
        let reply = Input::Reply {
            token: ask.token,
            turn: "b4".into(),
            nodes: 1,
            search_ms: 1,
            reply_ms: 1,
        };
        m.update(Event::Computer(reply));
        assert_eq!(m.speech.text, "Rouge pose en b4.");
        // Undo takes back the computer's answer and the player's turn.
        m.update(Event::Undo);
        assert_eq!(m.speech.text, "Tours annulés. Au tour de Bleu.");
        m.update(Event::AskNewGame);
        let serial = m.speech.serial;
        m.update(Event::CancelNewGame);
        assert_eq!(m.speech.serial, serial, "a cancelled dialog says nothing");
        m.update(Event::Activate(p("a7")));
        m.update(Event::AskNewGame);
        m.update(Event::ConfirmNewGame);
        assert_eq!(m.speech.text, crate::i18n::t::said_new_game());
    }

    #[test]
    fn arrows_move_the_focus_in_the_visual_direction() {
        let mut m = Model::new();
        m.update(Event::Arrow(Direction::Right));
        assert_eq!(m.focus, p("d7"));
        m.update(Event::Arrow(Direction::Down));
        assert_eq!(m.focus, p("d6"));
        assert_eq!(m.game().turns(), 0, "navigation never plays");
    }
}

#[cfg(test)]
mod comfort_tests {
    use super::*;
    use crate::i18n::t;

    fn p(name: &str) -> Point {
        Point::from_name(name).unwrap()
    }

    #[test]
    fn a_refused_setting_blocks_play_until_corrected() {
        let mut m = Model::new();
        m.update(Event::Limit("0".into()));
        assert!(m.settings_refused());
        m.update(Event::Activate(p("d6")));
        assert_eq!(
            m.game().turns(),
            0,
            "the game never runs under another limit"
        );
        assert_eq!(
            m.notice.as_ref().map(Text::get).as_deref(),
            Some(t::settings_refused())
        );
        assert_eq!(m.limit_text, "0", "the field keeps what was typed");
        m.update(Event::Limit("12".into()));
        m.update(Event::Activate(p("d6")));
        assert_eq!((m.game().turns(), m.game().max_turns()), (1, 12));
        // The same for the rules' number.
        let mut m = Model::new();
        m.update(Event::Rules(RulesInput::Quiet("900".into())));
        m.update(Event::Activate(p("d6")));
        assert_eq!(m.game().turns(), 0);
        m.update(Event::Rules(RulesInput::Quiet("30".into())));
        m.update(Event::Activate(p("d6")));
        assert_eq!(m.game().turns(), 1);
    }

    #[test]
    fn a_kept_hot_seat_game_comes_back_with_its_settings_and_history() {
        let mut m = Model::new();
        m.update(Event::Rules(RulesInput::Named(Rules::TWELVE)));
        m.update(Event::Limit("60".into()));
        for n in ["a7", "b6", "d7", "d6", "g7"] {
            m.update(Event::Activate(p(n)));
        }
        assert_eq!(m.game().phase(), Phase::Capture);
        let mut back = Model::new();
        assert!(back.restore(&m.saved()).is_empty());
        assert_eq!(back.table(), m.table());
        assert_eq!(
            (back.limit_text.as_str(), back.rules.rules, back.resumed),
            ("60", Rules::TWELVE, true)
        );
        assert!(!back.limit_editable());
        back.update(Event::Activate(p("b6")));
        assert_eq!(back.table().record(), "a7 b6 d7 d6 g7xb6");
        assert!(!back.resumed);
        // A new game starts afresh (with the settings), and is what is kept then.
        back.update(Event::AskNewGame);
        back.update(Event::ConfirmNewGame);
        let mut again = Model::new();
        again.restore(&back.saved());
        assert!(!again.resumed, "nothing under way: no « Partie reprise »");
        assert_eq!(again.table().record(), "");
        assert_eq!(
            (again.game().max_turns(), again.game().rules()),
            (60, Rules::TWELVE)
        );
        // Garbage changes nothing.
        let mut fresh = Model::new();
        fresh.restore("[Game \"morris\"]\n[MaxTurns \"9000\"]\n");
        assert_eq!(fresh, Model::new());
    }
}
