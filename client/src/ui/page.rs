//! The layout both game pages share, hot-seat or against the computer: title, players (or,
//! against the computer, the settings to choose before « Commencer »), status, board, actions
//! with the hint, progress, history, rules with the settings, and the new-game dialog.
//! One function for both games, so that the page's code is in the bundle once.

use super::common::{
    viewer_link, Actions, Announcer, ConfirmNewGame, GameLink, PlayerCard, Status,
};
use super::history::{browsing_banner, history_panel};
use super::words;
use crate::i18n::t;
use crate::model::computer::{Computer, Figures, Rules, Side};
use crate::model::history::{HistoryView, Nav};
use crate::model::NewGameDialog;
use engine::ai::Level;
use engine::{Player, Table};
use yew::prelude::*;

/// The end-to-end hooks on `<main>`: the game's record, whether the computer thinks, the hint
/// and the last search's figures.
pub struct Hooks {
    thinking: bool,
    turns: usize,
    record: String,
    hint: Option<String>,
    human: Option<Player>,
    figures: Option<Figures>,
}

impl Hooks {
    /// The hooks of a game and its computer.
    pub fn of<G: Rules>(table: &Table<G>, c: &Computer<G>) -> Hooks {
        Hooks {
            thinking: c.thinking(),
            turns: table.turns().len(),
            record: table.record(),
            hint: c.hint.map(|t| t.to_string()),
            human: c.human(),
            figures: c.figures,
        }
    }
}

/// A player card: title, detail, and whether it is their turn.
pub type Card = (String, String, bool);

/// Everything a game page shows.
pub struct Parts {
    /// « Jeu du moulin », « Méta Morpion ».
    pub name: &'static str,
    /// The page's class: `morris` or `meta`.
    pub class: &'static str,
    pub hooks: Hooks,
    pub computer: bool,
    /// Blue's card, then Red's.
    pub cards: [Card; 2],
    /// `None` while the game is played, else the winner (`None` for a draw).
    pub result: Option<Option<Player>>,
    pub status: String,
    pub notice: Option<String>,
    pub board: Html,
    pub can_undo: bool,
    pub undo_colour: Option<Player>,
    pub can_hint: bool,
    pub hint: Option<String>,
    pub on_undo: Callback<()>,
    pub on_new: Callback<()>,
    pub on_hint: Callback<()>,
    pub progress: String,
    /// The rules' paragraphs.
    pub rules: Html,
    /// Against the computer, before « Commencer »: its level and the player's side, offered
    /// above the board with the other settings.
    pub setup: Option<(Level, Side)>,
    /// The level and side chosen in the open dialog.
    pub draft: Option<(Level, Side)>,
    pub on_level: Callback<Level>,
    pub on_side: Callback<Side>,
    /// « Commencer » after the settings.
    pub on_start: Callback<()>,
    /// The settings besides the computer's (Morris: the rules and the turn limit): in the
    /// setup against the computer, else under the rules.
    pub settings: Html,
    /// The settings are locked until « Nouvelle partie »: says so.
    pub locked: bool,
    /// The game was taken back from the browser's storage: says so until the player acts.
    pub resumed: bool,
    /// The coordinates shown on the board, and the switch that changes it.
    pub coords: (bool, Callback<bool>),
    /// The open « Nouvelle partie » confirmation.
    pub dialog: Option<NewGameDialog>,
    /// The turn-limit field in the dialog (Morris).
    pub with_limit: bool,
    /// More settings in the dialog, after the computer's (Morris: the rules).
    pub dialog_settings: Html,
    pub on_dialog_limit: Callback<String>,
    pub on_confirm: Callback<()>,
    pub on_cancel: Callback<()>,
    /// The turns, and the past position shown.
    pub history: HistoryView,
    pub on_nav: Callback<Nav>,
    /// Once the game is over: the viewer's link with the game's record.
    pub review: Option<String>,
    /// The moves in words, for the live region.
    pub speech: crate::model::speech::Speech,
}

/// The page: above the board (on a wide screen, beside it) the players or the settings still
/// to choose, and the status; under it (beside it) the banner of a past position, the actions
/// and the progress; then the history and the rules. The board is sized to the viewport
/// (`client/static/style.css`, « The game pages' layout »).
#[inline(never)]
pub fn game_page(mut p: Parts) -> Html {
    let settings = std::mem::take(&mut p.settings);
    let (settings, aside_settings) = if p.computer {
        (settings, Html::default())
    } else {
        (Html::default(), settings)
    };
    let top = setup_or_players(&p, settings);
    let h = p.hooks;
    let mode = if p.computer {
        t::mode_computer()
    } else {
        t::mode_hot_seat()
    };
    let browsing = browsing_banner(&p.history, &p.on_nav);
    let setting_up = p.setup.is_some();
    let status = html! {
        <Status result={p.result} text={p.status} notice={p.notice.map(AttrValue::from)} />
    };
    html! {
        <main class={classes!("page", "game", p.class)} data-thinking={h.thinking.to_string()}
            data-turns={h.turns.to_string()} data-record={h.record} data-hint={h.hint}
            data-human={h.human.map(|h| h.index().to_string())}
            data-figures={h.figures.map(|f| format!("{} {} {}", f.nodes, f.search_ms, f.reply_ms))}>
            <h1>{ p.name }<span class="mode">{ " " }{ mode }</span></h1>
            <Announcer text={p.speech.said().to_string()} serial={p.speech.serial} />
            <div class="layout local">
                <div class="play-top">
                    // While the settings are chosen, the line that says so comes first.
                    if setting_up { { status.clone() } }
                    { top }
                    if !setting_up { { status } }
                    if p.resumed {
                        <p class="resumed" role="status" data-resumed="">{ words(t::resumed()) }</p>
                    }
                </div>
                <div class={classes!("board-scroll", setting_up.then_some("waiting"))}>{ p.board }</div>
                <div class="play-bottom">
                    { browsing }
                    if !setting_up {
                        <Actions can_undo={p.can_undo} on_undo={p.on_undo} on_new={p.on_new.clone()}
                            undo_colour={p.undo_colour} can_hint={p.can_hint} on_hint={p.on_hint}
                            hint={p.hint} />
                    }
                    if let Some(href) = p.review {
                        // The game is over: the next one, and this one to pass on, from here.
                        <p class="rematch"><button type="button" class="button" data-rematch=""
                            onclick={p.on_new.reform(|_: MouseEvent| ())}>{ words(t::play_again()) }</button></p>
                        <GameLink {href} />
                    }
                    <p class="progress">{ p.progress }</p>
                    { coords_switch(p.coords) }
                </div>
                <aside class="rules" aria-labelledby="rules-title">
                    { history_panel(p.history, &p.on_nav) }
                    <h2 id="rules-title">{ words(t::rules()) }</h2>
                    { aside_settings }
                    if p.locked {
                        <p class="hint">{ words(t::settings_locked()) }</p>
                    }
                    { p.rules }
                </aside>
            </div>
            if let Some(dialog) = p.dialog {
                <ConfirmNewGame {dialog} with_limit={p.with_limit} on_limit={p.on_dialog_limit}
                    on_confirm={p.on_confirm} on_cancel={p.on_cancel}>
                    if let Some((level, side)) = p.draft {
                        { choices("dialog", level, side, false, &p.on_level, &p.on_side) }
                    }
                    { p.dialog_settings }
                </ConfirmNewGame>
            }
        </main>
    }
}

/// Against the computer before « Commencer »: its level, the player's side and the other
/// settings, with « Commencer »; else the players' cards.
fn setup_or_players(p: &Parts, settings: Html) -> Html {
    let Some((level, side)) = p.setup else {
        let card = |i: usize, player: Player| {
            let (title, detail, active) = p.cards[i].clone();
            html! { <PlayerCard {player} {active} {title} {detail} /> }
        };
        return html! { <div class="players">{ card(0, Player::Blue) }{ card(1, Player::Red) }</div> };
    };
    let on_submit = p.on_start.reform(|e: SubmitEvent| e.prevent_default());
    html! {
        <section class="panel setup" data-setup="" aria-labelledby="setup-title">
            <h2 id="setup-title">{ words(t::setup_title()) }</h2>
            <form novalidate=true onsubmit={on_submit}>
                { choices("page", level, side, false, &p.on_level, &p.on_side) }
                { settings }
                <div class="actions">
                    <button type="submit" class="button">{ words(t::start()) }</button>
                </div>
            </form>
        </section>
    }
}

/// The switch that shows the coordinates on the board.
fn coords_switch((on, set): (bool, Callback<bool>)) -> Html {
    html! {
        <label class="switch coords-switch">
            <input type="checkbox" checked={on} onchange={set.reform(|e: Event| {
                e.target_unchecked_into::<web_sys::HtmlInputElement>().checked()
            })} />
            { words(t::show_coords()) }
        </label>
    }
}

/// The computer's level and the player's side, as two groups of radio buttons; `name` names the
/// groups (the page's and the dialog's are distinct).
#[inline(never)]
fn choices(
    name: &str,
    level: Level,
    side: Side,
    disabled: bool,
    on_level: &Callback<Level>,
    on_side: &Callback<Side>,
) -> Html {
    let levels = Level::ALL.map(|l| {
        html! {
            <label><input type="radio" name={format!("{name}-level")} checked={l == level}
                onchange={on_level.reform(move |_: Event| l)} />{ crate::model::text::level_name(l) }</label>
        }
    });
    let sides = Side::ALL.map(|s| {
        html! {
            <label><input type="radio" name={format!("{name}-side")} checked={s == side}
                onchange={on_side.reform(move |_: Event| s)} />{ s.label() }</label>
        }
    });
    html! {
        <>
            <fieldset class="choices" {disabled}>
                <legend>{ words(t::computer_level()) }</legend>
                { for levels }
            </fieldset>
            <fieldset class="choices" {disabled}>
                <legend>{ words(t::your_side()) }</legend>
                { for sides }
            </fieldset>
        </>
    }
}

/// The viewer's link for a finished game: its record, headers first, in the URL fragment (which
/// never leaves the browser).
pub fn review_link(game: &engine::AnyGame, names: [String; 2], record: &str) -> String {
    let end = game.outcome();
    let text = engine::record::header_lines(
        game,
        &names[0],
        &names[1],
        &crate::model::text::date(super::browser::now_ms()),
        engine::record::result_text(end.map(|o| o.winner)),
        end.map(|o| o.reason.as_str()),
    ) + record;
    viewer_link(&text)
}
