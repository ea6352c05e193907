//! Nine Men's Morris on the local pages ([`super::game::GamePage`]): the SVG board, the players'
//! details, the progress, the rules in words, and the settings (the rules and the turn limit:
//! on the page before the first move, the rules in the « Nouvelle partie » dialog).

use super::board_page::BoardHandles;
use super::boards::MorrisBoard;
use super::common::{rules_in_words, LimitField, RulesField};
use super::game::GameView;
use crate::model::game::{Event, Model};
use crate::model::morris::Setting;
use crate::model::text;
use engine::morris::{Morris, Point};
use engine::{AnyGame, Player};
use yew::prelude::*;

impl GameView for Morris {
    const CLASS: &'static str = "morris";
    const KEYS: [&'static str; 2] = ["moulin-computer-v1", "moulin-hot-seat-v1"];
    const WITH_LIMIT: bool = true;
    fn name(g: &Morris) -> &'static str {
        text::morris_name(g.rules())
    }
    fn selector(p: Point) -> String {
        format!("[data-point=\"{}\"]", p.index())
    }
    fn detail(shown: &Morris, p: Player) -> String {
        text::morris_player(shown, p)
    }
    fn board(m: &Model<Morris>, h: &BoardHandles<Model<Morris>>, coords: bool) -> Html {
        let (g, c, live) = (m.game(), &m.computer, m.browse.is_live());
        html! {
            <MorrisBoard {coords} game={m.shown().clone()} selected={m.own.selected.filter(|_| live)}
                focus={m.focus} on_activate={h.on_activate.clone()} on_key={h.on_key.clone()}
                hint={c.hint.filter(|_| live)} busy={c.plays(g)} frozen={!live} node={h.board.clone()} />
        }
    }
    fn undo_colour(_: &Model<Morris>) -> Option<Player> {
        None
    }
    fn progress(g: &Morris) -> String {
        text::morris_progress(g)
    }
    fn rules(g: &Morris) -> Html {
        rules_in_words(g.rules())
    }
    fn settings(m: &Model<Morris>, dispatch: &Callback<Event<Morris>>) -> Html {
        settings(m, dispatch)
    }
    fn dialog_settings(m: &Model<Morris>, dispatch: &Callback<Event<Morris>>) -> Html {
        m.own
            .dialog_rules
            .clone()
            .map_or_else(Html::default, |form| {
                html! { <RulesField {form} on_input={on_rules(dispatch)} /> }
            })
    }
    fn on_dialog_limit(dispatch: &Callback<Event<Morris>>) -> Callback<String> {
        dispatch.reform(|text| Event::Own(Setting::DialogLimit(text)))
    }
    fn any(g: &Morris) -> AnyGame {
        AnyGame::Morris(g.clone())
    }
}

/// The rules chosen, on the page or in the dialog.
fn on_rules(dispatch: &Callback<Event<Morris>>) -> Callback<crate::model::rules::RulesInput> {
    dispatch.reform(|input| Event::Own(Setting::Rules(input)))
}

/// The rules and the turn limit, as chosen for the next game: editable before the first move
/// (against the computer, until « Commencer »), the refused limit with its message.
fn settings(m: &Model<Morris>, dispatch: &Callback<Event<Morris>>) -> Html {
    let editable = m.settings_editable();
    let own = &m.own;
    html! {
        <>
            <RulesField form={own.rules.clone()} disabled={!editable} on_input={on_rules(dispatch)} />
            <LimitField value={own.limit_text.clone()} disabled={!editable}
                invalid={own.limit_error.is_some()}
                on_input={dispatch.reform(|text| Event::Own(Setting::Limit(text)))} />
            if let Some(e) = &own.limit_error {
                <p class="notice" role="alert">{ e.get() }</p>
            }
        </>
    }
}
