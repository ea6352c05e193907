//! The Yew components: the app shell with its routes, the home page, and one page per game.
//! Components render a model and dispatch events; they hold no rule.

#[cfg(feature = "local")]
mod board_page;
mod boards;
mod browser;
mod common;
#[cfg(feature = "local")]
mod computer;
mod history;
#[cfg(feature = "local")]
mod home;
#[cfg(feature = "local")]
mod lobby;
#[cfg(feature = "local")]
mod meta;
#[cfg(feature = "local")]
mod morris;
#[cfg(feature = "local")]
mod page;
#[cfg(feature = "remote")]
mod room;
mod seats;
#[cfg(feature = "local")]
mod viewer;

use engine::GameKind;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// A page of the site, one per path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// `/`: choose a game and a mode.
    Home,
    /// `/moulin`: Nine Men's Morris, hot-seat.
    Morris,
    /// `/meta-morpion`: Ultimate tic-tac-toe, hot-seat.
    Meta,
    /// `/moulin/ordinateur`, `/meta-morpion/ordinateur`: against the computer.
    Computer(GameKind),
    /// `/moulin/distance`, `/meta-morpion/distance`: create a room or join one with a code.
    Lobby(GameKind),
    /// `/moulin/salon#…`, `/meta-morpion/salon#…`: a remote room (the invitation is in the
    /// fragment, never sent to the relay).
    Room(GameKind),
    /// `/partie`: the game viewer (a record or a signed transcript, verified in the page).
    Viewer,
    /// Anything else.
    NotFound,
}

impl Route {
    /// The route of a URL path.
    pub fn from_path(path: &str) -> Route {
        match path.trim_end_matches('/') {
            "" => Route::Home,
            "/moulin" => Route::Morris,
            "/meta-morpion" => Route::Meta,
            "/moulin/ordinateur" => Route::Computer(GameKind::Morris),
            "/meta-morpion/ordinateur" => Route::Computer(GameKind::Meta),
            "/moulin/distance" => Route::Lobby(GameKind::Morris),
            "/meta-morpion/distance" => Route::Lobby(GameKind::Meta),
            "/moulin/salon" => Route::Room(GameKind::Morris),
            "/meta-morpion/salon" => Route::Room(GameKind::Meta),
            "/partie" => Route::Viewer,
            _ => Route::NotFound,
        }
    }

    /// The bundle that shows the route: the rooms' (`remote`) or the other pages' (`local`,
    /// the lobby included). `client/static/index.html` loads the one its path needs
    /// (`client/tests/bundles.rs` keeps its list equal to these routes).
    pub fn remote(self) -> bool {
        matches!(self, Route::Room(_))
    }

    /// True when this bundle shows the route; the other's routes are reached by loading the page.
    pub fn here(self) -> bool {
        const REMOTE: bool = cfg!(feature = "remote");
        const LOCAL: bool = cfg!(feature = "local");
        [LOCAL, REMOTE][usize::from(self.remote())]
    }

    /// The URL path of the route.
    pub fn path(self) -> &'static str {
        match self {
            Route::Home | Route::NotFound => "/",
            Route::Morris => "/moulin",
            Route::Meta => "/meta-morpion",
            Route::Computer(GameKind::Morris) => "/moulin/ordinateur",
            Route::Computer(GameKind::Meta) => "/meta-morpion/ordinateur",
            Route::Lobby(GameKind::Morris) => "/moulin/distance",
            Route::Lobby(GameKind::Meta) => "/meta-morpion/distance",
            Route::Room(GameKind::Morris) => "/moulin/salon",
            Route::Room(GameKind::Meta) => "/meta-morpion/salon",
            Route::Viewer => "/partie",
        }
    }

    /// The document title of the route's page.
    pub fn title(self) -> &'static str {
        match self {
            Route::Home | Route::NotFound => "Moulin et Méta Morpion — jouer à deux",
            Route::Morris => "Jeu du moulin — deux joueurs",
            Route::Meta => "Méta Morpion — deux joueurs",
            Route::Computer(GameKind::Morris) => "Jeu du moulin — contre l'ordinateur",
            Route::Computer(GameKind::Meta) => "Méta Morpion — contre l'ordinateur",
            Route::Lobby(GameKind::Morris) | Route::Room(GameKind::Morris) => {
                "Jeu du moulin — à distance"
            }
            Route::Lobby(GameKind::Meta) | Route::Room(GameKind::Meta) => {
                "Méta Morpion — à distance"
            }
            Route::Viewer => "Visionneuse de parties — Moulin et Méta Morpion",
        }
    }
}

/// A game page: hot-seat, or against the computer.
#[derive(Properties, PartialEq)]
pub struct GamePageProps {
    /// Against the computer.
    #[prop_or_default]
    pub computer: bool,
}

fn current_href() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default()
}

fn current_route() -> Route {
    web_sys::window()
        .and_then(|w| w.location().pathname().ok())
        .map_or(Route::Home, |p| Route::from_path(&p))
}

/// Goes to a route without reloading the page.
pub fn navigate(route: Route, set: &Callback<Route>) {
    navigate_with_fragment(route, "", set)
}

/// Goes to a route with a URL fragment (`#…`, may be empty): without reloading the page when
/// this bundle shows it, else by loading it.
pub fn navigate_with_fragment(route: Route, fragment: &str, set: &Callback<Route>) {
    let url = if fragment.is_empty() {
        route.path().to_string()
    } else {
        format!("{}#{fragment}", route.path())
    };
    let Some(window) = web_sys::window() else {
        return;
    };
    if !route.here() {
        let _ = window.location().assign(&url);
        return;
    }
    if let Ok(history) = window.history() {
        let _ = history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
    set.emit(route);
}

#[component]
fn App() -> Html {
    let route = use_state(current_route);
    {
        // Back and forward buttons.
        let route = route.clone();
        use_effect_with((), move |_| {
            let listener = Closure::<dyn Fn()>::new(move || route.set(current_route()));
            let window = web_sys::window().expect("a window");
            let _ = window
                .add_event_listener_with_callback("popstate", listener.as_ref().unchecked_ref());
            move || {
                let _ = window.remove_event_listener_with_callback(
                    "popstate",
                    listener.as_ref().unchecked_ref(),
                );
            }
        });
    }
    let go = {
        let route = route.clone();
        Callback::from(move |r: Route| route.set(r))
    };
    {
        let title = route.title();
        use_effect_with(*route, move |_| {
            if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
                doc.set_title(title);
            }
        });
    }
    let page = match *route {
        // Reached only if index.html loaded the other bundle for this path.
        r if !r.here() => html! {
            <main class="page narrow">
                <h1>{ "Chargement de la page" }</h1>
                <p><a href={current_href()}>{ "Ouvrir cette page" }</a></p>
            </main>
        },
        #[cfg(feature = "local")]
        Route::Home => html! { <home::Home go={go.clone()} /> },
        // Keyed: the hot-seat page and the computer's have a model each.
        #[cfg(feature = "local")]
        Route::Morris => html! { <morris::MorrisPage key="hot-seat" /> },
        #[cfg(feature = "local")]
        Route::Meta => html! { <meta::MetaPage key="hot-seat" /> },
        #[cfg(feature = "local")]
        Route::Computer(GameKind::Morris) => {
            html! { <morris::MorrisPage key="computer" computer=true /> }
        }
        #[cfg(feature = "local")]
        Route::Computer(GameKind::Meta) => {
            html! { <meta::MetaPage key="computer" computer=true /> }
        }
        #[cfg(feature = "local")]
        Route::Viewer => html! { <viewer::ViewerPage /> },
        #[cfg(feature = "local")]
        Route::Lobby(kind) => html! { <lobby::Lobby {kind} go={go.clone()} /> },
        // Keyed by the URL so that opening another invitation builds a new room.
        #[cfg(feature = "remote")]
        Route::Room(kind) => {
            html! { <room::RoomPage key={current_href()} {kind} go={go.clone()} /> }
        }
        _ => html! {
            <main class="page narrow">
                <h1>{ "Page introuvable" }</h1>
                <p>{ "Cette adresse ne correspond à aucune page du site." }</p>
                <common::Link to={Route::Home} go={go.clone()}>{ "Retour à l'accueil" }</common::Link>
            </main>
        },
    };
    html! {
        <>
            <header class="site-header">
                <common::Link to={Route::Home} go={go.clone()} class="brand">
                    { "Jeux de stratégie à deux" }
                </common::Link>
                <nav aria-label="Jeux">
                    <common::Link to={Route::Morris} go={go.clone()}>{ "Jeu du moulin" }</common::Link>
                    <common::Link to={Route::Meta} go={go.clone()}>{ "Méta Morpion" }</common::Link>
                    <common::Link to={Route::Viewer} go={go}>{ "Visionneuse" }</common::Link>
                </nav>
                // The theme's choice, a custom element of index.html: no wasm for it.
                <theme-switch></theme-switch>
            </header>
            { page }
        </>
    }
}

/// Mounts the app on `#app` (or the body).
pub fn start() {
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("app"));
    match root {
        Some(root) => {
            // Drop the « Chargement… » placeholder.
            root.set_inner_html("");
            yew::Renderer::<App>::with_root(root).render()
        }
        None => yew::Renderer::<App>::new().render(),
    };
}
