//! The Nine Men's Morris page, hot-seat or against the computer: the SVG board, the players, the
//! status, the actions and the rules with the settings (turn limit; level and side against the
//! computer), laid out by [`game_page`].

use super::board_page::{use_board_page, BoardHandles, BoardPage};
use super::boards::{use_coords, MorrisBoard};
use super::common::{rules_in_words, LimitField, RulesField};
use super::page::{game_page, review_link, Hooks, Parts};
use super::{browser, use_lang, GamePageProps};
use crate::i18n::{t, Text};
use crate::model::morris::{Event, Model};
use crate::model::text;
use engine::morris::Point;
use engine::{Direction, Game, Player};
use yew::prelude::*;

impl BoardPage for Model {
    type Focus = Point;
    fn focus(&self) -> Point {
        self.focus
    }
    fn selector(p: Point) -> String {
        format!("[data-point=\"{}\"]", p.index())
    }
    fn arrow(d: Direction) -> Event {
        Event::Arrow(d)
    }
    fn history(nav: crate::model::history::Nav) -> Event {
        Event::History(nav)
    }
    fn activate(p: Point) -> Event {
        Event::Activate(p)
    }
}

fn against_computer() -> Model {
    Model::against_computer(browser::seed())
}

#[component]
pub fn MorrisPage(props: &GamePageProps) -> Html {
    use_lang();
    let (init, key): (fn() -> Model, _) = match props.computer {
        true => (against_computer, "moulin-computer-v1"),
        false => (Model::new, "moulin-hot-seat-v1"),
    };
    let handles = use_board_page::<Model>(init, key);
    let coords = use_coords();
    let model = handles.model();
    let m = &*model;
    let BoardHandles {
        dispatch,
        board,
        on_key,
        on_activate,
        ..
    } = &handles;
    let g = m.game();
    let c = &m.computer;
    // While a past position is shown, the cards describe it, as the board does.
    let shown = m.shown();
    let playing = shown.outcome().is_none();
    let card = |p: Player| {
        (
            m.player_title(p),
            text::morris_player(shown, p),
            playing && shown.to_move() == p,
        )
    };
    let to_dispatch = |e: Event| dispatch.reform(move |_: ()| e.clone());
    let live = m.browse.is_live();
    game_page(Parts {
        name: t::game_morris(),
        class: "morris",
        hooks: Hooks::of(m.table(), c),
        computer: props.computer,
        cards: [card(Player::Blue), card(Player::Red)],
        result: g.outcome().map(|o| o.winner),
        status: m.status(),
        notice: m.notice.as_ref().map(Text::get),
        board: html! {
            <MorrisBoard coords={coords.0} game={shown.clone()} selected={m.selected.filter(|_| live)}
                focus={m.focus} on_activate={on_activate.clone()} on_key={on_key.clone()}
                hint={c.hint.filter(|_| live)} busy={c.plays(g)} frozen={!live} node={board.clone()} />
        },
        can_undo: m.can_undo(),
        undo_colour: None,
        can_hint: c.can_hint(g),
        hint: m.hint_text(),
        on_undo: to_dispatch(Event::Undo),
        on_new: to_dispatch(Event::AskNewGame),
        on_hint: to_dispatch(Event::Hint),
        progress: t::morris_progress(&g.turns().to_string(), &g.max_turns().to_string()),
        rules: rules_in_words(g.rules()),
        setup: c.setup(),
        draft: c.draft,
        on_level: dispatch.reform(Event::Level),
        on_side: dispatch.reform(Event::Side),
        on_start: to_dispatch(Event::Start),
        resumed: m.resumed,
        coords,
        settings: settings(m, dispatch),
        // Against the computer they change in « Nouvelle partie » only, and are not shown.
        locked: c.opponent.is_none() && !m.limit_editable(),
        dialog: m.dialog.clone(),
        with_limit: true,
        dialog_settings: dialog_rules(m, dispatch),
        on_dialog_limit: dispatch.reform(Event::DialogLimit),
        on_confirm: to_dispatch(Event::ConfirmNewGame),
        on_cancel: to_dispatch(Event::CancelNewGame),
        history: m.history(),
        speech: m.speech.clone(),
        on_nav: dispatch.reform(Event::History),
        review: g.outcome().map(|_| {
            let names = [m.player_title(Player::Blue), m.player_title(Player::Red)];
            review_link(
                &engine::AnyGame::Morris(g.clone()),
                names,
                &m.table().record(),
            )
        }),
    })
}

/// The rules chosen in the « Nouvelle partie » dialog, for the next game.
fn dialog_rules(m: &Model, dispatch: &Callback<Event>) -> Html {
    m.dialog_rules.clone().map_or_else(Html::default, |form| {
        html! { <RulesField {form} on_input={dispatch.reform(Event::Rules)} /> }
    })
}

/// The rules and the turn limit, as chosen for the next game: editable before the first move
/// (against the computer, until « Commencer »), the refused limit with its message.
fn settings(m: &Model, dispatch: &Callback<Event>) -> Html {
    let editable = m.limit_editable();
    html! {
        <>
            <RulesField form={m.rules.clone()} disabled={!editable} on_input={dispatch.reform(Event::Rules)} />
            <LimitField value={m.limit_text.clone()} disabled={!editable}
                invalid={m.limit_error.is_some()} on_input={dispatch.reform(Event::Limit)} />
            if let Some(e) = &m.limit_error {
                <p class="notice" role="alert">{ e.get() }</p>
            }
        </>
    }
}
