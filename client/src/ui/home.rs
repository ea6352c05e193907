//! The home page: choose a game and a mode.

use super::common::{game_name, Link};
use super::words;
use super::{use_lang, Route};
use crate::i18n::t;
use engine::GameKind;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct HomeProps {
    pub go: Callback<Route>,
}

#[component]
pub fn Home(props: &HomeProps) -> Html {
    use_lang();
    let card = |route: Route, kind: GameKind, title: &str, blurb: &str, art: Html| {
        html! {
            <article class="game-card">
                <div class="art" aria-hidden="true">{ art }</div>
                <h2>{ title.to_string() }</h2>
                <p>{ blurb.to_string() }</p>
                <div class="modes">
                    <Link to={route} go={props.go.clone()} class="button">
                        { words(t::home_hot_seat()) }
                    </Link>
                    <Link to={Route::Computer(kind)} go={props.go.clone()} class="button secondary">
                        { words(t::home_computer()) }
                    </Link>
                    <Link to={Route::Lobby(kind)} go={props.go.clone()} class="button secondary">
                        { words(t::home_remote()) }
                    </Link>
                </div>
            </article>
        }
    };
    let morris_art = html! {
        <svg viewBox="0 0 120 120">
            <rect x="10" y="10" width="100" height="100" class="art-line" />
            <rect x="30" y="30" width="60" height="60" class="art-line" />
            <rect x="48" y="48" width="24" height="24" class="art-line" />
            <line x1="60" y1="10" x2="60" y2="48" class="art-line" />
            <line x1="60" y1="72" x2="60" y2="110" class="art-line" />
            <line x1="10" y1="60" x2="48" y2="60" class="art-line" />
            <line x1="72" y1="60" x2="110" y2="60" class="art-line" />
            <circle cx="10" cy="10" r="8" class="art-blue" />
            <circle cx="60" cy="30" r="8" class="art-red" />
            <circle cx="110" cy="60" r="8" class="art-blue" />
            <circle cx="72" cy="72" r="8" class="art-red" />
        </svg>
    };
    let meta_art = html! {
        <svg viewBox="0 0 120 120">
            <line x1="43" y1="8" x2="43" y2="112" class="art-line thick" />
            <line x1="77" y1="8" x2="77" y2="112" class="art-line thick" />
            <line x1="8" y1="43" x2="112" y2="43" class="art-line thick" />
            <line x1="8" y1="77" x2="112" y2="77" class="art-line thick" />
            <path d="M14 14 L34 34 M34 14 L14 34" class="art-blue-stroke" />
            <circle cx="60" cy="60" r="10" class="art-red-stroke" />
            <path d="M86 86 L106 106 M106 86 L86 106" class="art-blue-stroke" />
        </svg>
    };
    html! {
        <main class="page home">
            <h1>{ words(t::home_title()) }</h1>
            <p class="lead">{ words(t::home_lead()) }</p>
            <div class="cards">
                { card(Route::Morris, GameKind::Morris, game_name(GameKind::Morris),
                    t::home_morris(), morris_art) }
                { card(Route::Meta, GameKind::Meta, game_name(GameKind::Meta),
                    t::home_meta(), meta_art) }
            </div>
        </main>
    }
}
