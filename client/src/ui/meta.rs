//! The Ultimate tic-tac-toe page, hot-seat or against the computer: the SVG board of nine small
//! boards, the players, the hint, the actions and the rules (with the level and side against the
//! computer), laid out by [`game_page`].

use super::board_page::{use_board_page, BoardHandles, BoardPage};
use super::boards::{use_coords, MetaBoard};
use super::page::{game_page, review_link, Hooks, Parts};
use super::words;
use super::{browser, use_lang, GamePageProps};
use crate::i18n::{t, Text};
use crate::model::meta::{Event, Model};
use crate::model::text;
use engine::meta::Cell;
use engine::{Direction, Game, Player};
use yew::prelude::*;

impl BoardPage for Model {
    type Focus = Cell;
    fn focus(&self) -> Cell {
        self.focus
    }
    fn selector(c: Cell) -> String {
        format!("[data-cell=\"{}\"]", c.index())
    }
    fn arrow(d: Direction) -> Event {
        Event::Arrow(d)
    }
    fn history(nav: crate::model::history::Nav) -> Event {
        Event::History(nav)
    }
    fn activate(c: Cell) -> Event {
        Event::Activate(c)
    }
}

fn against_computer() -> Model {
    Model::against_computer(browser::seed())
}

#[component]
pub fn MetaPage(props: &GamePageProps) -> Html {
    use_lang();
    let (init, key): (fn() -> Model, _) = match props.computer {
        true => (against_computer, "meta-morpion-computer-v1"),
        false => (Model::new, "meta-morpion-hot-seat-v1"),
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
            text::boards_won(shown.boards_won(p)),
            playing && shown.to_move() == p,
        )
    };
    let to_dispatch = |e: Event| dispatch.reform(move |_: ()| e.clone());
    let live = m.browse.is_live();
    game_page(Parts {
        name: t::game_meta(),
        class: "meta",
        hooks: Hooks::of(m.table(), c),
        computer: props.computer,
        cards: [card(Player::Blue), card(Player::Red)],
        result: g.outcome().map(|o| o.winner),
        status: m.status(),
        notice: m.notice.as_ref().map(Text::get),
        board: html! {
            <MetaBoard coords={coords.0} game={*m.shown()} focus={m.focus} on_activate={on_activate.clone()} on_key={on_key.clone()}
                hint={c.hint.filter(|_| live)} busy={c.plays(g)} frozen={!live} node={board.clone()} />
        },
        can_undo: m.can_undo(),
        undo_colour: m.last_mover(),
        can_hint: c.can_hint(g),
        hint: m.hint_text(),
        on_undo: to_dispatch(Event::Undo),
        on_new: to_dispatch(Event::AskNewGame),
        on_hint: to_dispatch(Event::Hint),
        progress: t::meta_progress(&g.moves().to_string()),
        rules: rules(),
        setup: c.setup(),
        draft: c.draft,
        on_level: dispatch.reform(Event::Level),
        on_side: dispatch.reform(Event::Side),
        on_start: to_dispatch(Event::Start),
        resumed: m.resumed,
        coords,
        settings: Html::default(),
        locked: false,
        dialog: m.dialog.clone(),
        with_limit: false,
        dialog_settings: Html::default(),
        on_dialog_limit: Callback::noop(),
        on_confirm: to_dispatch(Event::ConfirmNewGame),
        on_cancel: to_dispatch(Event::CancelNewGame),
        history: m.history(),
        speech: m.speech.clone(),
        on_nav: dispatch.reform(Event::History),
        review: g.outcome().map(|_| {
            let names = [m.player_title(Player::Blue), m.player_title(Player::Red)];
            review_link(&engine::AnyGame::Meta(*g), names, &m.table().record())
        }),
    })
}

/// The rules' paragraphs.
fn rules() -> Html {
    html! {
        <>
            <p>{ words(t::meta_rules_1()) }</p>
            <p>{ words(t::meta_rules_2()) }</p>
            <p>{ words(t::meta_rules_3()) }</p>
            <p>{ words(t::meta_rules_4()) }</p>
        </>
    }
}
