//! Ultimate tic-tac-toe on the local pages ([`super::game::GamePage`]): the SVG board of nine
//! small boards, the players' boards won, the progress and the rules; no settings of its own.

use super::board_page::BoardHandles;
use super::boards::MetaBoard;
use super::game::GameView;
use super::words;
use crate::i18n::t;
use crate::model::game::{Event, Model};
use crate::model::text;
use engine::meta::{Cell, Meta};
use engine::{AnyGame, Player};
use yew::prelude::*;

impl GameView for Meta {
    const CLASS: &'static str = "meta";
    const KEYS: [&'static str; 2] = ["meta-morpion-computer-v1", "meta-morpion-hot-seat-v1"];
    const WITH_LIMIT: bool = false;
    fn name(_: &Self) -> &'static str {
        t::game_meta()
    }
    fn selector(c: Cell) -> String {
        format!("[data-cell=\"{}\"]", c.index())
    }
    fn detail(shown: &Meta, p: Player) -> String {
        text::boards_won(shown.boards_won(p))
    }
    fn board(m: &Model<Meta>, h: &BoardHandles<Model<Meta>>, coords: bool) -> Html {
        let (c, live) = (&m.computer, m.browse.is_live());
        html! {
            <MetaBoard {coords} game={*m.shown()} focus={m.focus} on_activate={h.on_activate.clone()}
                on_key={h.on_key.clone()} hint={c.hint.filter(|_| live)} busy={c.plays(m.game())}
                frozen={!live} node={h.board.clone()} />
        }
    }
    fn undo_colour(m: &Model<Meta>) -> Option<Player> {
        m.last_mover()
    }
    fn progress(g: &Meta) -> String {
        t::meta_progress(&g.moves().to_string())
    }
    fn rules(_: &Meta) -> Html {
        html! {
            <>
                <p>{ words(t::meta_rules_1()) }</p>
                <p>{ words(t::meta_rules_2()) }</p>
                <p>{ words(t::meta_rules_3()) }</p>
                <p>{ words(t::meta_rules_4()) }</p>
            </>
        }
    }
    fn settings(_: &Model<Meta>, _: &Callback<Event<Meta>>) -> Html {
        Html::default()
    }
    fn dialog_settings(_: &Model<Meta>, _: &Callback<Event<Meta>>) -> Html {
        Html::default()
    }
    fn on_dialog_limit(_: &Callback<Event<Meta>>) -> Callback<String> {
        Callback::noop()
    }
    fn any(g: &Meta) -> AnyGame {
        AnyGame::Meta(*g)
    }
}
