//! The computer mode and the hints, driven through the page models as the page drives them.

use super::*;
use crate::model::{meta, morris};
use engine::morris::Point;

fn p(name: &str) -> Point {
    Point::from_name(name).unwrap()
}

fn c(name: &str) -> Cell {
    Cell::from_name(name).unwrap()
}

/// The one request among the effects.
fn asked(effects: &[Effect]) -> Ask {
    let asks: Vec<&Ask> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::Ask(a) => Some(a),
            _ => None,
        })
        .collect();
    assert_eq!(asks.len(), 1, "one request expected: {effects:?}");
    asks[0].clone()
}

fn reply(ask: &Ask, turn: &str) -> Input {
    Input::Reply {
        token: ask.token,
        turn: turn.to_string(),
        nodes: 1000,
        search_ms: 3,
        reply_ms: 5,
    }
}

/// A game against the computer at `level`, the player `side`, begun (« Commencer »): the
/// effects of the start.
fn morris_against(level: Level, side: Side) -> (morris::Model, Vec<Effect>) {
    let mut m = morris::Model::against_computer(11);
    assert!(m.update(morris::Event::Level(level)).is_empty());
    assert!(m.update(morris::Event::Side(side)).is_empty());
    let effects = m.update(morris::Event::Start);
    (m, effects)
}

/// A Méta Morpion game against the computer (« Facile »), begun with the player `side`.
fn meta_against(seed: u64, side: Side) -> (meta::Model, Vec<Effect>) {
    let mut m = meta::Model::against_computer(seed);
    assert!(m.update(meta::Event::Side(side)).is_empty());
    let effects = m.update(meta::Event::Start);
    (m, effects)
}

fn click(m: &mut morris::Model, names: &str) -> Vec<Effect> {
    let mut effects = Vec::new();
    for n in names.split_whitespace() {
        effects.extend(m.update(morris::Event::Activate(p(n))));
    }
    effects
}

fn answer(m: &mut morris::Model, ask: &Ask, turn: &str) -> Vec<Effect> {
    m.update(morris::Event::Computer(reply(ask, turn)))
}

#[test]
fn each_request_has_its_token_and_stale_answers_are_dropped() {
    // The player takes Red: the computer is asked once the game begins; a new game at another
    // level while it thinks asks again with a new token and stops the first search.
    let (mut m, effects) = morris_against(Level::Medium, Side::Red);
    let first = asked(&effects);
    assert_eq!(first.level, Level::Medium);
    m.update(morris::Event::AskNewGame);
    m.update(morris::Event::Level(Level::Beginner));
    let effects = m.update(morris::Event::ConfirmNewGame);
    assert_eq!(effects[0], Effect::Cancel);
    let second = asked(&effects);
    assert_ne!(first.token, second.token);
    assert_eq!((second.level, second.movetime_ms), (Level::Beginner, 0));
    // The first search's answer arrives anyway: dropped.
    assert!(answer(&mut m, &first, "d6").is_empty());
    assert_eq!(m.game().turns(), 0);
    assert!(m.computer.thinking());
    answer(&mut m, &second, "b4");
    assert_eq!(m.table().record(), "b4");
    assert!(!m.computer.thinking());
    // An answer that comes twice lands once.
    assert!(answer(&mut m, &second, "b4").is_empty());
    assert_eq!(m.table().record(), "b4");
    assert_eq!(
        m.computer.figures,
        Some(Figures {
            nodes: 1000,
            search_ms: 3,
            reply_ms: 5
        })
    );
}

#[test]
fn the_board_refuses_input_while_the_computer_thinks_and_says_so() {
    let (mut m, _) = morris_against(Level::Easy, Side::Blue);
    let ask = asked(&click(&mut m, "d6"));
    assert_eq!((ask.record.as_str(), ask.pending.as_str()), ("d6", ""));
    assert!(m.computer.plays(m.game()) && m.computer.thinking());
    assert_eq!(m.status(), "L'ordinateur réfléchit…");
    assert!(click(&mut m, "b4").is_empty());
    assert_eq!(
        m.notice.as_ref().map(Text::get).as_deref(),
        Some("L'ordinateur réfléchit… attendez son coup.")
    );
    assert_eq!(m.game().turns(), 1);
    assert!(
        m.update(morris::Event::Hint).is_empty(),
        "no hint meanwhile"
    );
    answer(&mut m, &ask, "f4");
    assert_eq!(
        m.status(),
        "L'ordinateur a joué f4. À vous (Bleu) : posez un pion."
    );
    click(&mut m, "b4");
    assert_eq!(m.table().record(), "d6 f4 b4");
    assert_eq!(m.notice, None);
}

#[test]
fn undo_while_the_computer_thinks_stops_it_and_takes_back_the_players_turn() {
    let (mut m, _) = meta_against(3, Side::Blue);
    let ask = asked(&m.update(meta::Event::Activate(c("e5"))));
    assert!(m.computer.thinking());
    assert_eq!(m.update(meta::Event::Undo), [Effect::Cancel]);
    assert_eq!(m.game().moves(), 0);
    assert!(!m.computer.thinking());
    // Its answer, already on its way, does not land.
    assert!(m
        .update(meta::Event::Computer(reply(&ask, "e4")))
        .is_empty());
    assert_eq!(m.game().moves(), 0);
    assert!(!m.can_undo());
}

#[test]
fn undo_takes_back_the_players_turn_and_the_computers_answer() {
    let (mut m, _) = morris_against(Level::Easy, Side::Blue);
    for (mine, theirs) in [("d6", "f4"), ("b4", "d2")] {
        let ask = asked(&click(&mut m, mine));
        answer(&mut m, &ask, theirs);
    }
    assert_eq!(m.table().record(), "d6 f4 b4 d2");
    assert!(m.update(morris::Event::Undo).is_empty(), "nothing to ask");
    assert_eq!(m.table().record(), "d6 f4");
    assert_eq!(m.game().to_move(), Player::Blue);
    m.update(morris::Event::Undo);
    assert_eq!(m.table().record(), "");
    assert!(!m.can_undo());
    assert!(m.update(morris::Event::Undo).is_empty());
}

#[test]
fn when_the_computer_opened_its_first_turn_is_not_taken_back() {
    let (mut m, effects) = meta_against(5, Side::Red);
    let ask = asked(&effects);
    m.update(meta::Event::Computer(reply(&ask, "e5")));
    // Nothing of the player's to take back: « Annuler » does nothing.
    assert!(!m.can_undo());
    assert!(m.update(meta::Event::Undo).is_empty());
    assert_eq!(m.table().record(), "e5");
    let ask = asked(&m.update(meta::Event::Activate(c("e4"))));
    assert!(m.can_undo(), "the player's turn, while the computer thinks");
    m.update(meta::Event::Computer(reply(&ask, "d2")));
    assert_eq!(m.table().record(), "e5 e4 d2");
    assert!(m.update(meta::Event::Undo).is_empty());
    assert_eq!(m.table().record(), "e5");
    assert_eq!(m.game().to_move(), Player::Red);
    assert_eq!(m.last_mover(), Some(Player::Blue));
}

#[test]
fn undo_after_the_end_goes_back_to_the_players_turn() {
    // Limit 2: the computer's answer ends the game (draw); undo takes back both turns.
    let mut m = morris::Model::against_computer(11);
    m.update(morris::Event::Own(morris::Setting::Limit("2".into())));
    m.update(morris::Event::Start);
    let ask = asked(&click(&mut m, "d6"));
    answer(&mut m, &ask, "f4");
    assert!(m.game().is_over());
    assert!(!m.computer.plays(m.game()));
    m.update(morris::Event::Undo);
    assert_eq!(
        (m.table().record(), m.game().max_turns()),
        (String::new(), 2)
    );
    // Limit 1: the player's turn ends it; undo takes back that one only.
    m.update(morris::Event::Own(morris::Setting::Limit("1".into())));
    assert_eq!(m.game().max_turns(), 2, "the settings are fixed once begun");
    m.update(morris::Event::AskNewGame);
    m.update(morris::Event::Own(morris::Setting::DialogLimit("1".into())));
    m.update(morris::Event::ConfirmNewGame);
    assert!(
        click(&mut m, "d6").is_empty(),
        "the game is over: no request"
    );
    assert!(m.game().is_over());
    m.update(morris::Event::Undo);
    assert_eq!(m.table().record(), "");
}

#[test]
fn the_computers_capture_lands_after_its_move_and_undo_stops_it() {
    let (mut m, effects) = morris_against(Level::Medium, Side::Red);
    let mut ask = asked(&effects);
    for (theirs, mine) in [("a7", "b6"), ("d7", "d6")] {
        answer(&mut m, &ask, theirs);
        ask = asked(&click(&mut m, mine));
    }
    // g7 closes a7-d7-g7: the place shows first, the capture a moment later.
    let effects = answer(&mut m, &ask, "g7xb6");
    assert_eq!(
        effects,
        [Effect::Wait {
            token: ask.token,
            ms: CAPTURE_DELAY_MS
        }]
    );
    assert_eq!(m.game().piece_at(p("g7")), Some(Player::Blue));
    assert_eq!(m.game().piece_at(p("b6")), Some(Player::Red));
    assert!(m.computer.thinking() && m.computer.landing());
    assert_eq!(
        m.status(),
        "L'ordinateur a formé un moulin : il capture un pion rouge."
    );
    assert!(click(&mut m, "f6").is_empty(), "still the computer's turn");
    // A stale timer does nothing; the right one lands the capture.
    let stale = Input::Land {
        token: ask.token + 1,
    };
    assert!(m.update(morris::Event::Computer(stale)).is_empty());
    m.update(morris::Event::Computer(Input::Land { token: ask.token }));
    assert_eq!(m.table().record(), "a7 b6 d7 d6 g7xb6");
    assert!(!m.computer.thinking());
    // Undo while a capture waits to land: the computer's turn and the player's go.
    let ask = asked(&click(&mut m, "f6"));
    answer(&mut m, &ask, "a4");
    let ask = asked(&click(&mut m, "f4"));
    answer(&mut m, &ask, "a1xf6");
    assert!(m.computer.landing());
    assert!(m.update(morris::Event::Undo).is_empty());
    assert_eq!(m.table().record(), "a7 b6 d7 d6 g7xb6 f6 a4");
    assert_eq!(m.game().to_move(), Player::Red);
    let land = Input::Land { token: ask.token };
    assert!(m.update(morris::Event::Computer(land)).is_empty());
    assert_eq!(m.game().piece_at(p("a1")), None);
}

#[test]
fn new_game_keeps_the_settings_or_takes_the_dialogs() {
    let mut m = morris::Model::against_computer(11);
    m.update(morris::Event::Level(Level::Strong));
    m.update(morris::Event::Side(Side::Red));
    assert!(m
        .update(morris::Event::Own(morris::Setting::Limit("30".into())))
        .is_empty());
    let ask = asked(&m.update(morris::Event::Start));
    assert_eq!((ask.level, ask.movetime_ms), (Level::Strong, STRONG_MS));
    answer(&mut m, &ask, "d6");
    assert_eq!(m.game().max_turns(), 30);
    // After the first move the page's settings are locked.
    assert!(m.update(morris::Event::Level(Level::Beginner)).is_empty());
    assert_eq!(m.computer.opponent.unwrap().level, Level::Strong);
    // Cancelled dialog: nothing changes.
    m.update(morris::Event::AskNewGame);
    assert_eq!(m.computer.draft, Some((Level::Strong, Side::Red)));
    m.update(morris::Event::Side(Side::Blue));
    m.update(morris::Event::CancelNewGame);
    assert_eq!(m.computer.human(), Some(Player::Red));
    assert_eq!(m.table().record(), "d6");
    // Confirmed as it is: same level, side and limit; the computer opens again.
    m.update(morris::Event::AskNewGame);
    let ask = asked(&m.update(morris::Event::ConfirmNewGame));
    assert_eq!(
        (ask.level, ask.record.as_str(), ask.max_turns),
        (Level::Strong, "", 30)
    );
    assert_eq!(m.computer.human(), Some(Player::Red));
    // New game while it thinks: stopped, and its answer dropped.
    m.update(morris::Event::AskNewGame);
    m.update(morris::Event::Level(Level::Medium));
    m.update(morris::Event::Side(Side::Blue));
    let effects = m.update(morris::Event::ConfirmNewGame);
    assert_eq!(effects, [Effect::Cancel], "the player opens now");
    assert!(answer(&mut m, &ask, "d6").is_empty());
    assert_eq!(m.game().turns(), 0);
    let o = m.computer.opponent.unwrap();
    assert_eq!(
        (o.level, o.human, m.game().max_turns()),
        (Level::Medium, Player::Blue, 30)
    );
    let ask = asked(&click(&mut m, "d6"));
    assert_eq!(ask.level, Level::Medium);
}

#[test]
fn au_hasard_draws_the_side_at_each_new_game() {
    let mut sides = Vec::new();
    for seed in 0..8 {
        let (mut m, _) = meta_against(seed, Side::Random);
        for _ in 0..4 {
            m.update(meta::Event::AskNewGame);
            let effects = m.update(meta::Event::ConfirmNewGame);
            let o = m.computer.opponent.unwrap();
            assert_eq!(o.side, Side::Random);
            // The computer opens exactly when the player drew Red.
            let asks = effects.iter().any(|e| matches!(e, Effect::Ask(_)));
            assert_eq!(asks, o.human == Player::Red);
            sides.push(o.human);
        }
    }
    assert!(sides.contains(&Player::Blue) && sides.contains(&Player::Red));
    // The same seed draws the same sides: the model has no randomness of its own.
    let draw = |seed| meta_against(seed, Side::Random).0.computer.human();
    assert_eq!(draw(42), draw(42));
}

#[test]
fn hints_in_hot_seat_frame_strongs_turn_until_the_position_changes() {
    let mut m = morris::Model::new();
    click(&mut m, "a7 b6 d7 d6");
    let ask = asked(&m.update(morris::Event::Hint));
    assert_eq!((ask.level, ask.movetime_ms), (Level::Strong, STRONG_MS));
    assert_eq!(m.hint_text().as_deref(), Some("Recherche d'un coup…"));
    assert!(m.update(morris::Event::Hint).is_empty(), "one at a time");
    answer(&mut m, &ask, "g7xb6");
    assert_eq!(
        m.hint_text().as_deref(),
        Some("Suggestion : poser en g7, puis capturer b6.")
    );
    assert!(m.update(morris::Event::Hint).is_empty(), "already shown");
    // Following it: the capture stays suggested.
    click(&mut m, "g7");
    assert_eq!(m.computer.hint, Morris::parse_turn("g7xb6").ok());
    // Another capture: the hint goes.
    click(&mut m, "d6");
    assert_eq!(m.computer.hint, None);
    // Asked while a capture is pending: the pending step goes with the record.
    click(&mut m, "f6 f4 d6");
    assert_eq!(m.game().phase(), Phase::Capture);
    let ask = asked(&m.update(morris::Event::Hint));
    assert_eq!(
        (ask.record.as_str(), ask.pending.as_str()),
        ("a7 b6 d7 d6 g7xd6 f6 f4", "d6")
    );
    // A move while it searches stops it; its answer is dropped.
    let effects = click(&mut m, "f4");
    assert_eq!(effects, [Effect::Cancel]);
    assert!(answer(&mut m, &ask, "d6xf4").is_empty());
    assert_eq!(m.computer.hint, None);
    assert!(m.hint_text().is_none());
}

#[test]
fn hints_against_the_computer_and_failures() {
    let (mut m, _) = meta_against(9, Side::Blue);
    let ask = asked(&m.update(meta::Event::Hint));
    assert_eq!(ask.level, Level::Strong);
    m.update(meta::Event::Computer(reply(&ask, "e5")));
    assert_eq!(
        m.hint_text().as_deref(),
        Some("Suggestion : jouer en e5 (grille au centre).")
    );
    // The hint is a suggestion, not a move: the player plays it.
    assert_eq!(m.game().moves(), 0);
    let ask = asked(&m.update(meta::Event::Activate(c("e5"))));
    assert_eq!(m.computer.hint, None);
    // The worker fails: the page says so, and undo is still there.
    m.update(meta::Event::Computer(Input::Failed { token: ask.token }));
    assert!(!m.computer.thinking());
    assert_eq!(m.status(), t::computer_failed());
    m.update(meta::Event::Activate(c("e4")));
    assert_eq!(
        m.notice.as_ref().map(Text::get).as_deref(),
        Some(t::computer_failed())
    );
    assert!(m.update(meta::Event::Undo).is_empty());
    assert_eq!(m.game().moves(), 0);
    assert_eq!(m.computer.failed, None);
    // A failed hint says so too; an illegal answer counts as a failure.
    let ask = asked(&m.update(meta::Event::Hint));
    m.update(meta::Event::Computer(Input::Failed { token: ask.token }));
    assert_eq!(
        m.hint_text().as_deref(),
        Some("La suggestion n'a pas pu être calculée.")
    );
    let ask = asked(&m.update(meta::Event::Activate(c("e5"))));
    m.update(meta::Event::Computer(reply(&ask, "e5")));
    assert_eq!(m.computer.failed, Some(Purpose::Move));
    assert_eq!(m.game().moves(), 1);
}

#[test]
fn the_player_cards_say_who_is_who() {
    let (m, _) = morris_against(Level::Medium, Side::Red);
    assert_eq!(m.player_title(Player::Blue), "Bleu · ordinateur (Moyen)");
    assert_eq!(m.player_title(Player::Red), "Rouge · vous");
    let m = meta::Model::new();
    assert_eq!(m.player_title(Player::Blue), "Bleu · croix");
    assert_eq!(
        m.status(),
        "Au tour de Bleu : choix libre, jouez dans n'importe quelle grille bordée de vert."
    );
}

#[test]
fn the_settings_come_first_and_the_computer_waits_for_commencer() {
    let mut m = morris::Model::against_computer(11);
    assert!(m.computer.setting_up() && m.limit_editable());
    assert_eq!(m.status(), t::setup_status());
    // Red chosen: the computer would open, but nothing is asked before « Commencer »; the
    // level still changes, and so do the rules and the limit.
    assert!(m.update(morris::Event::Side(Side::Red)).is_empty());
    assert!(m.update(morris::Event::Level(Level::Medium)).is_empty());
    assert!(m
        .update(morris::Event::Own(morris::Setting::Rules(
            crate::model::rules::RulesInput::Named(engine::morris::Rules::LASKER)
        )))
        .is_empty());
    assert!(m
        .update(morris::Event::Own(morris::Setting::Limit("40".into())))
        .is_empty());
    assert_eq!(m.computer.setup(), Some((Level::Medium, Side::Red)));
    assert!(!m.computer.thinking() && !m.computer.plays(m.game()));
    assert!(!m.computer.can_hint(m.game()));
    assert!(m.update(morris::Event::Hint).is_empty());
    // The board waits too, and says why; « Nouvelle partie » has nothing to confirm.
    assert!(click(&mut m, "d6").is_empty());
    assert_eq!(
        m.notice.as_ref().map(Text::get).as_deref(),
        Some(t::setup_first())
    );
    m.update(morris::Event::AskNewGame);
    assert!(m.dialog.is_none());
    // A refused limit is no game to begin.
    m.update(morris::Event::Own(morris::Setting::Limit("0".into())));
    assert!(m.update(morris::Event::Start).is_empty());
    assert!(m.computer.setting_up());
    assert_eq!(
        m.notice.as_ref().map(Text::get).as_deref(),
        Some(t::settings_refused())
    );
    m.update(morris::Event::Own(morris::Setting::Limit("40".into())));
    let ask = asked(&m.update(morris::Event::Start));
    assert_eq!(
        (ask.level, ask.max_turns, ask.rules.as_str()),
        (
            Level::Medium,
            40,
            "pieces=10,diagonals=0,flying=1,lasker=1,quiet=0"
        )
    );
    assert!(!m.computer.setting_up() && !m.limit_editable());
    assert_eq!(
        m.computer.setup(),
        None,
        "the page offers the settings no more"
    );
    assert_eq!(m.computer.human(), Some(Player::Red));
    // Begun, the settings are fixed until « Nouvelle partie ».
    assert!(m.update(morris::Event::Level(Level::Strong)).is_empty());
    assert_eq!(m.computer.opponent.unwrap().level, Level::Medium);
    assert!(m.update(morris::Event::Start).is_empty());
    // Méta Morpion alike.
    let mut m = meta::Model::against_computer(2);
    assert!(m.update(meta::Event::Side(Side::Red)).is_empty());
    assert!(m.update(meta::Event::Activate(c("e5"))).is_empty());
    assert_eq!(m.game().moves(), 0);
    asked(&m.update(meta::Event::Start));
    assert!(m.computer.thinking());
}

#[test]
fn a_kept_game_against_the_computer_comes_back_and_the_computer_plays_on() {
    // Kept while the computer was to move: it is asked again at once.
    let (mut m, _) = morris_against(Level::Medium, Side::Blue);
    asked(&click(&mut m, "d6"));
    let text = m.saved();
    let mut back = morris::Model::against_computer(5);
    let ask = asked(&back.restore(&text));
    assert_eq!((ask.record.as_str(), ask.level), ("d6", Level::Medium));
    assert!(back.resumed && !back.computer.setting_up());
    assert_eq!(back.speech.text, t::resumed());
    assert_eq!(back.saved(), text);
    answer(&mut back, &ask, "b4");
    assert_eq!(back.table().record(), "d6 b4");
    assert!(back.resumed, "the notice stays until the player acts");
    click(&mut back, "f4");
    assert!(!back.resumed);
    // Undo reaches the first turn: the history came back with the game.
    back.update(morris::Event::Undo);
    assert_eq!(back.table().record(), "d6 b4");
    back.update(morris::Event::Undo);
    assert_eq!(back.table().record(), "");
    // Kept during the computer's capture: it lands it.
    let (mut m, effects) = morris_against(Level::Medium, Side::Red);
    let mut ask = asked(&effects);
    for (theirs, mine) in [("a7", "b6"), ("d7", "d6")] {
        answer(&mut m, &ask, theirs);
        ask = asked(&click(&mut m, mine));
    }
    answer(&mut m, &ask, "g7xb6");
    assert!(m.computer.landing());
    let mut back = morris::Model::against_computer(5);
    let ask = asked(&back.restore(&m.saved()));
    assert_eq!(
        (ask.record.as_str(), ask.pending.as_str()),
        ("a7 b6 d7 d6", "g7")
    );
    assert_eq!(back.computer.human(), Some(Player::Red));
    answer(&mut back, &ask, "g7xb6");
    assert_eq!(back.table().record(), "a7 b6 d7 d6 g7xb6");
    // Kept before « Commencer »: the settings are offered again, nothing is asked.
    let mut m = meta::Model::against_computer(1);
    m.update(meta::Event::Level(Level::Strong));
    m.update(meta::Event::Side(Side::Red));
    let mut back = meta::Model::against_computer(2);
    assert!(back.restore(&m.saved()).is_empty());
    assert!(back.computer.setting_up() && !back.resumed);
    let o = back.computer.opponent.unwrap();
    assert_eq!(
        (o.level, o.side, o.human),
        (Level::Strong, Side::Red, Player::Red)
    );
    // A hot-seat game is not the computer's, nor the other way round; garbage is nothing.
    let mut hot = meta::Model::new();
    hot.update(meta::Event::Activate(c("e5")));
    for text in [hot.saved(), "[Game \"meta\"]\nzz\n".to_string(), m.saved()] {
        let mut back = meta::Model::against_computer(2);
        let fresh = back.clone();
        back.restore(&text);
        if text == m.saved() {
            continue;
        }
        assert_eq!(back, fresh, "{text:?}");
    }
    let mut back = meta::Model::new();
    let fresh = back.clone();
    back.restore(&m.saved());
    assert_eq!(back, fresh);
    back.restore(&hot.saved());
    assert_eq!(back.table(), hot.table());
}
