//! The local game page, hot-seat or against the computer, once for both games: the page model
//! ([`Model`]) kept by [`use_board_page`], its parts laid out by [`game_page`]. What a game
//! shows of its own — the board, the players' details, the progress, the rules and the
//! settings — comes through [`GameView`], which `ui::morris` and `ui::meta` implement.

use super::board_page::{use_board_page, BoardHandles};
use super::boards::use_coords;
use super::page::{game_page, review_link, Hooks, Parts};
use super::{browser, use_lang, GamePageProps, Route};
use crate::i18n::Text;
use crate::model::game::{Event, Model, PageGame};
use engine::{AnyGame, Player};
use yew::prelude::*;

/// What a game's page shows of its own.
pub trait GameView: PageGame {
    /// The page's class: `morris` or `meta`.
    const CLASS: &'static str;
    /// The storage keys of the game kept: against the computer, then hot-seat.
    const KEYS: [&'static str; 2];
    /// The turn-limit field in the « Nouvelle partie » dialog (Morris).
    const WITH_LIMIT: bool;
    /// The heading's name of `game`: « Méta Morpion », « Jeu du moulin » (in English the
    /// Morris name counts the pieces of its rules: « Twelve Men's Morris »).
    fn name(game: &Self) -> &'static str;
    /// The CSS selector of a point's or cell's element (`[data-point="3"]`).
    fn selector(focus: Self::Focus) -> String;
    /// A player card's detail for the position shown.
    fn detail(shown: &Self, p: Player) -> String;
    /// The board, showing the position shown.
    fn board(m: &Model<Self>, h: &BoardHandles<Model<Self>>, coords: bool) -> Html;
    /// The colour of the undo button, when it has one.
    fn undo_colour(m: &Model<Self>) -> Option<Player>;
    /// The progress line under the actions.
    fn progress(game: &Self) -> String;
    /// The rules' paragraphs.
    fn rules(game: &Self) -> Html;
    /// The game's own settings on the page (Morris: the rules and the turn limit).
    fn settings(m: &Model<Self>, dispatch: &Callback<Event<Self>>) -> Html;
    /// The game's own settings in the « Nouvelle partie » dialog (Morris: the rules).
    fn dialog_settings(m: &Model<Self>, dispatch: &Callback<Event<Self>>) -> Html;
    /// The turn limit typed in the dialog.
    fn on_dialog_limit(dispatch: &Callback<Event<Self>>) -> Callback<String>;
    /// The game, for the viewer's link.
    fn any(game: &Self) -> AnyGame;
}

fn against_computer<G: GameView>() -> Model<G> {
    Model::against_computer(browser::seed())
}

/// A game's page, hot-seat or against the computer (`props.route`).
#[component]
pub fn GamePage<G: GameView>(props: &GamePageProps) -> Html {
    use_lang();
    let [computer_key, hot_seat_key] = G::KEYS;
    let computer = matches!(props.route, Route::Computer(_));
    let (init, key): (fn() -> Model<G>, _) = match computer {
        true => (against_computer::<G>, computer_key),
        false => (Model::new, hot_seat_key),
    };
    let handles = use_board_page::<Model<G>>(init, key);
    let coords = use_coords();
    let model = handles.model();
    let m = &*model;
    let dispatch = &handles.dispatch;
    let g = m.game();
    let c = &m.computer;
    // While a past position is shown, the cards describe it, as the board does.
    let shown = m.shown();
    let playing = shown.outcome().is_none();
    let card = |p: Player| {
        (
            m.player_title(p),
            G::detail(shown, p),
            playing && shown.to_move() == p,
        )
    };
    // The tab's title names the game as the heading does (in English, by the rules' pieces).
    let name = G::name(g);
    use_effect_with(props.route.title_named(name), |title| {
        browser::set_title_soon(title.clone());
    });
    let to_dispatch = |e: Event<G>| dispatch.reform(move |_: ()| e.clone());
    game_page(Parts {
        name,
        class: G::CLASS,
        hooks: Hooks::of(m.table(), c),
        computer,
        cards: [card(Player::Blue), card(Player::Red)],
        result: g.outcome().map(|o| o.winner),
        status: m.status(),
        notice: m.notice.as_ref().map(Text::get),
        board: G::board(m, &handles, coords.0),
        can_undo: m.can_undo(),
        undo_colour: G::undo_colour(m),
        can_hint: c.can_hint(g),
        hint: m.hint_text(),
        on_undo: to_dispatch(Event::Undo),
        on_new: to_dispatch(Event::AskNewGame),
        on_hint: to_dispatch(Event::Hint),
        progress: G::progress(g),
        rules: G::rules(g),
        setup: c.setup(),
        draft: c.draft,
        on_level: dispatch.reform(Event::Level),
        on_side: dispatch.reform(Event::Side),
        on_start: to_dispatch(Event::Start),
        resumed: m.resumed,
        coords,
        settings: G::settings(m, dispatch),
        // Against the computer they change in « Nouvelle partie » only, and are not shown.
        locked: G::HOT_SEAT_SETTINGS && c.opponent.is_none() && !m.settings_editable(),
        dialog: m.dialog.clone(),
        with_limit: G::WITH_LIMIT,
        dialog_settings: G::dialog_settings(m, dispatch),
        on_dialog_limit: G::on_dialog_limit(dispatch),
        on_confirm: to_dispatch(Event::ConfirmNewGame),
        on_cancel: to_dispatch(Event::CancelNewGame),
        history: m.history(),
        speech: m.speech.clone(),
        on_nav: dispatch.reform(Event::History),
        review: g.outcome().map(|_| {
            let names = [m.player_title(Player::Blue), m.player_title(Player::Red)];
            review_link(&G::any(g), names, &m.table().record())
        }),
    })
}
