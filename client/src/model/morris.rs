//! Nine Men's Morris on the local pages, hot-seat or against the computer: what the page model
//! ([`super::game::Model`]) needs of the game ([`PageGame`]). A click selects a piece, moves or
//! places ([`selection::click`]); the page's own state ([`State`]) is the selection, the rules
//! and the turn limit (chosen before the first move — against the computer, before
//! « Commencer » — or in the « Nouvelle partie » dialog), with the events that set them
//! ([`Setting`]).

use super::computer::Effect;
use super::game::{self, PageGame};
use super::rules::{RulesForm, RulesInput};
use super::selection::{self, Click};
use super::text;
use super::NewGameDialog;
use crate::i18n::{t, Text};
use engine::morris::{Morris, Phase, Point, Points, Rules, Turn};
use engine::{Direction, Game, Player};

/// The Morris page's model.
pub type Model = game::Model<Morris>;
/// What the player did on the Morris page.
pub type Event = game::Event<Morris>;

/// The Morris page's own events.
#[derive(Clone, Debug, PartialEq)]
pub enum Setting {
    /// The limit typed in the confirmation.
    DialogLimit(String),
    /// The turn-limit setting under the rules (applies before the first move only).
    Limit(String),
    /// The rules: in the open dialog, else on the page before the first move.
    Rules(RulesInput),
}

/// The Morris page's own state.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The selected piece (moving stage), never sent anywhere.
    pub selected: Option<Point>,
    /// The turn-limit setting as typed.
    pub limit_text: String,
    /// Why the typed setting was refused.
    pub limit_error: Option<Text>,
    /// The rules as chosen on the page (they apply before the first move).
    pub rules: RulesForm,
    /// The rules chosen in the open confirmation, for the next game.
    pub dialog_rules: Option<RulesForm>,
}

impl PageGame for Morris {
    type Focus = Point;
    type State = State;
    type Setting = Setting;
    const HOT_SEAT_SETTINGS: bool = true;

    fn fresh() -> Morris {
        Morris::new()
    }
    fn state(start: &Morris) -> State {
        State {
            selected: None,
            limit_text: start.max_turns().to_string(),
            limit_error: None,
            rules: RulesForm::new(start.rules()),
            dialog_rules: None,
        }
    }
    fn first_focus() -> Point {
        Point::new(0).expect("point 0")
    }
    fn toward(p: Point, d: Direction) -> Point {
        p.toward(d)
    }
    fn click(m: &mut Model, p: Point) -> Vec<Effect> {
        click(m, p)
    }
    fn setting(m: &mut Model, setting: Setting) -> Vec<Effect> {
        match setting {
            Setting::DialogLimit(text) => {
                if let Some(d) = m.dialog.as_mut() {
                    d.limit_text = text;
                    d.error = None;
                }
                Vec::new()
            }
            Setting::Limit(text) => limit(m, text),
            Setting::Rules(input) => rules(m, input),
        }
    }
    fn has_step(s: &State) -> bool {
        s.selected.is_some()
    }
    fn drop_step(s: &mut State) -> bool {
        s.selected.take().is_some()
    }
    fn refused(s: &State) -> bool {
        s.limit_error.is_some() || s.rules.error.is_some()
    }
    fn open_dialog(game: &Morris, s: &mut State) -> NewGameDialog {
        s.dialog_rules = Some(RulesForm::new(game.rules()));
        NewGameDialog {
            limit_text: game.max_turns().to_string(),
            error: None,
        }
    }
    fn close_dialog(s: &mut State) {
        s.dialog_rules = None;
    }
    fn next_game(m: &mut Model) -> Option<Morris> {
        next_game(m)
    }
    fn computer_step(g: &Morris) -> Option<String> {
        (g.phase() == Phase::Capture)
            .then(|| t::computer_captures(text::colour(g.to_move().opponent())))
    }
    fn to_do(g: &Morris, human: Option<Player>) -> String {
        to_do(g, human)
    }
    fn mark(_: Player) -> String {
        String::new()
    }
    fn turn_words(turn: Turn) -> String {
        text::morris_turn(turn)
    }
    fn history_extra(g: &Morris) -> (Option<String>, Option<String>) {
        let pending = (g.phase() == Phase::Capture)
            .then(|| g.last_turn().map(|t| format!("{t}x…")))
            .flatten();
        (pending, Some(text::rules_name(g.rules())))
    }
}

impl Model {
    /// True while the settings may change on the page: before the first move in hot-seat,
    /// until « Commencer » against the computer.
    pub fn limit_editable(&self) -> bool {
        self.settings_editable()
    }

    /// Destinations of the selected piece (pale green).
    pub fn destinations(&self) -> Points {
        self.own
            .selected
            .map_or(Points::EMPTY, |p| self.game().destinations(p))
    }
}

/// A click on `p` the page takes: a step of the player's turn ([`selection::click`]).
fn click(m: &mut Model, p: Point) -> Vec<Effect> {
    let mut effects = Vec::new();
    m.notice = match selection::click(m.game(), m.own.selected, p) {
        Click::Play(action) => match m.table.play(action) {
            Ok(()) => {
                m.own.selected = None;
                // A hint whose first step was just played still shows its capture.
                let hint = m.computer.hint.filter(|h| h.step() == action);
                effects = m.computer.settle(&m.table);
                if m.game().phase() == Phase::Capture {
                    m.computer.hint = hint;
                }
                None
            }
            Err(e) => Some(Text::new(move || text::morris_refusal(e))),
        },
        Click::Select(p, why) => {
            m.own.selected = Some(p);
            why
        }
        Click::Deselect => {
            m.own.selected = None;
            None
        }
        Click::Refuse(why) => Some(why),
    };
    effects
}

/// « Commencer » in the confirmation: the next game under the rules and limit chosen there,
/// unless one is refused (its message is on screen, nothing starts).
fn next_game(m: &mut Model) -> Option<Morris> {
    let rules = m.game().rules();
    let dialog = m.dialog.as_mut()?;
    let form = m
        .own
        .dialog_rules
        .clone()
        .unwrap_or_else(|| RulesForm::new(rules));
    if form.error.is_some() {
        return None;
    }
    match parse_limit(&dialog.limit_text, form.rules) {
        Ok(game) => {
            m.own = State {
                rules: form,
                ..<Morris as PageGame>::state(&game)
            };
            Some(game)
        }
        Err(e) => {
            dialog.error = Some(e);
            None
        }
    }
}

/// The rules: in the open dialog, else on the page before the first move.
fn rules(m: &mut Model, input: RulesInput) -> Vec<Effect> {
    if let Some(form) = m.own.dialog_rules.as_mut() {
        form.apply(input);
    } else if m.settings_editable() && m.own.rules.apply(input) {
        let limit = m.game().max_turns();
        let game =
            Morris::with_rules(m.own.rules.rules, limit.into()).expect("the game's own limit");
        m.table.reset(game);
        return m.computer.settle(&m.table);
    }
    Vec::new()
}

/// The turn limit typed on the page, before the first move.
fn limit(m: &mut Model, text: String) -> Vec<Effect> {
    if !m.settings_editable() {
        return Vec::new();
    }
    m.own.limit_text = text;
    match parse_limit(&m.own.limit_text, m.game().rules()) {
        Ok(game) => {
            m.table.reset(game);
            m.own.limit_error = None;
            m.computer.settle(&m.table)
        }
        Err(e) => {
            m.own.limit_error = Some(e);
            Vec::new()
        }
    }
}

/// The status line on a player's turn: whose turn and what to do.
fn to_do(g: &Morris, human: Option<Player>) -> String {
    let me = g.to_move();
    let prey = text::colour(me.opponent());
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

/// A new game under `rules` with the typed limit, or why the limit is refused.
fn parse_limit(text: &str, rules: Rules) -> Result<Morris, Text> {
    super::parse_limit(text).map(|n| Morris::with_rules(rules, n as u32).expect("checked"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::t;
    use crate::model::computer::Input;
    use crate::model::history::Nav;
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
        assert_eq!(m.own.selected, Some(p("c5")));
        assert_eq!(m.destinations(), [p("d5"), p("c4")].into_iter().collect());
        m.update(Event::Undo);
        assert_eq!(m.own.selected, None);
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
        assert_eq!(
            m.own.selected, None,
            "clicking the selected piece deselects"
        );
        clicks(&mut m, "c5 f4");
        assert_eq!(
            m.own.selected,
            Some(p("f4")),
            "another own piece changes the selection"
        );
        clicks(&mut m, "e4");
        assert_eq!(m.game().piece_at(p("e4")), Some(Player::Blue));
        assert_eq!(m.own.selected, None);
        clicks(&mut m, "d6");
        assert_eq!(m.own.selected, Some(p("d6")), "red to move now");
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
        m.update(Event::Own(Setting::Limit("1".into())));
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
        m.update(Event::Own(Setting::Limit("0".into())));
        assert_eq!(m.own.limit_error, Some(Text::of(t::limit_error)));
        assert_eq!(m.game().max_turns(), 100);
        m.update(Event::Own(Setting::Limit("abc".into())));
        assert!(m.own.limit_error.is_some());
        m.update(Event::Own(Setting::Limit("42".into())));
        assert_eq!(
            (m.game().max_turns(), m.own.limit_error.clone()),
            (42, None)
        );
        clicks(&mut m, "d6");
        assert!(!m.limit_editable());
        m.update(Event::Own(Setting::Limit("7".into())));
        assert_eq!(m.game().max_turns(), 42, "locked after the first move");
        // Cancel keeps the game and its limit.
        m.update(Event::AskNewGame);
        m.update(Event::Own(Setting::DialogLimit("9".into())));
        m.update(Event::CancelNewGame);
        assert_eq!((m.game().turns(), m.game().max_turns()), (1, 42));
        // An invalid limit in the confirmation is refused; the game stays.
        m.update(Event::AskNewGame);
        m.update(Event::Own(Setting::DialogLimit("501".into())));
        m.update(Event::ConfirmNewGame);
        assert_eq!(
            m.dialog.as_ref().unwrap().error,
            Some(Text::of(t::limit_error))
        );
        assert_eq!(m.game().turns(), 1);
        m.update(Event::Own(Setting::DialogLimit("12".into())));
        m.update(Event::ConfirmNewGame);
        assert_eq!((m.game().turns(), m.game().max_turns()), (0, 12));
        assert!(m.dialog.is_none() && m.limit_editable());
        assert_eq!(m.own.limit_text, "12");
    }

    #[test]
    fn the_rules_are_chosen_before_the_first_move_and_in_the_confirmation() {
        use engine::morris::Param;
        let mut m = Model::new();
        m.update(Event::Own(Setting::Limit("80".into())));
        m.update(Event::Own(Setting::Rules(RulesInput::Named(Rules::TWELVE))));
        assert_eq!(m.game().rules(), Rules::TWELVE);
        assert_eq!(m.game().max_turns(), 80, "the limit stays");
        assert_eq!(m.game().reserve(Player::Blue), 12);
        m.update(Event::Own(Setting::Rules(RulesInput::Param(
            Param::Flying,
            0,
        ))));
        assert_eq!(m.game().rules().short(), "twelve,flying=0");
        // An out-of-range number is refused with its message; the rules stay.
        m.update(Event::Own(Setting::Rules(RulesInput::Quiet("501".into()))));
        assert_eq!(m.own.rules.error, Some(Text::of(t::quiet_error)));
        assert_eq!(m.game().rules().quiet(), 0);
        m.update(Event::Own(Setting::Rules(RulesInput::Quiet("30".into()))));
        assert_eq!(
            (m.game().rules().quiet(), m.own.rules.error.clone()),
            (30, None)
        );
        // The limit typed after the rules keeps them.
        m.update(Event::Own(Setting::Limit("90".into())));
        assert_eq!(m.game().rules().short(), "twelve,flying=0,quiet=30");
        // After the first move they are locked.
        clicks(&mut m, "a7");
        m.update(Event::Own(Setting::Rules(RulesInput::Named(Rules::NINE))));
        assert_eq!(m.game().rules().short(), "twelve,flying=0,quiet=30");
        assert_eq!(m.game().turns(), 1);
        // The confirmation opens with the game's rules; cancelling keeps game and rules.
        m.update(Event::AskNewGame);
        assert_eq!(m.own.dialog_rules.as_ref().unwrap().rules, m.game().rules());
        m.update(Event::Own(Setting::Rules(RulesInput::Named(Rules::LASKER))));
        assert_eq!(m.game().rules().pieces(), 12, "the dialog's choice waits");
        m.update(Event::CancelNewGame);
        assert!(m.own.dialog_rules.is_none());
        assert_eq!((m.game().turns(), m.game().rules().pieces()), (1, 12));
        // A refused number in the confirmation starts nothing.
        m.update(Event::AskNewGame);
        m.update(Event::Own(Setting::Rules(RulesInput::Named(Rules::LASKER))));
        m.update(Event::Own(Setting::Rules(RulesInput::Quiet("abc".into()))));
        m.update(Event::ConfirmNewGame);
        assert!(m.dialog.is_some());
        assert_eq!(m.game().turns(), 1);
        m.update(Event::Own(Setting::Rules(RulesInput::Quiet("0".into()))));
        m.update(Event::ConfirmNewGame);
        assert!(m.dialog.is_none());
        assert_eq!((m.game().turns(), m.game().rules()), (0, Rules::LASKER));
        assert_eq!(m.game().max_turns(), 90);
        assert_eq!(
            (
                m.own.rules.rules,
                m.own.rules.quiet_text.as_str(),
                m.own.rules.error.clone()
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
        m.update(Event::Own(Setting::Rules(RulesInput::Named(Rules::LASKER))));
        clicks(&mut m, "a7 d7");
        assert_eq!(
            m.status(),
            "Au tour de Bleu : posez un pion ou déplacez-en un."
        );
        clicks(&mut m, "a7");
        assert_eq!(m.own.selected, Some(p("a7")));
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
        assert_eq!(m.own.selected, None);
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
        m.update(Event::Own(Setting::Rules(RulesInput::Named(
            Rules::NOFLYING,
        ))));
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
        h.update(Event::Own(Setting::Rules(RulesInput::Named(Rules::GUR9))));
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
        m.update(Event::Own(Setting::Limit("0".into())));
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
        assert_eq!(m.own.limit_text, "0", "the field keeps what was typed");
        m.update(Event::Own(Setting::Limit("12".into())));
        m.update(Event::Activate(p("d6")));
        assert_eq!((m.game().turns(), m.game().max_turns()), (1, 12));
        // The same for the rules' number.
        let mut m = Model::new();
        m.update(Event::Own(Setting::Rules(RulesInput::Quiet("900".into()))));
        m.update(Event::Activate(p("d6")));
        assert_eq!(m.game().turns(), 0);
        m.update(Event::Own(Setting::Rules(RulesInput::Quiet("30".into()))));
        m.update(Event::Activate(p("d6")));
        assert_eq!(m.game().turns(), 1);
    }

    #[test]
    fn a_kept_hot_seat_game_comes_back_with_its_settings_and_history() {
        let mut m = Model::new();
        m.update(Event::Own(Setting::Rules(RulesInput::Named(Rules::TWELVE))));
        m.update(Event::Own(Setting::Limit("60".into())));
        for n in ["a7", "b6", "d7", "d6", "g7"] {
            m.update(Event::Activate(p(n)));
        }
        assert_eq!(m.game().phase(), Phase::Capture);
        let mut back = Model::new();
        assert!(back.restore(&m.saved()).is_empty());
        assert_eq!(back.table(), m.table());
        assert_eq!(
            (
                back.own.limit_text.as_str(),
                back.own.rules.rules,
                back.resumed
            ),
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
