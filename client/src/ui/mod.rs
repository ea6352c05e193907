//! The Yew components: the app shell with its routes, the home page, and one page per game.
//! Components render a model and dispatch events; they hold no rule.

#[cfg(feature = "local")]
mod board_page;
mod boards;
mod browser;
mod common;
#[cfg(feature = "local")]
mod computer;
#[cfg(feature = "local")]
mod game;
mod history;
#[cfg(feature = "local")]
mod home;
#[cfg(feature = "local")]
mod lobby;
#[cfg(feature = "local")]
mod meta;
#[cfg(feature = "local")]
mod morris;
mod motion;
#[cfg(feature = "local")]
mod page;
#[cfg(any(feature = "remote", feature = "watch", feature = "paired"))]
mod room;
mod seats;
#[cfg(feature = "local")]
mod viewer;

use crate::i18n::{self, t, Lang};
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
    /// `/moulin/sans-serveur#…`, `/meta-morpion/sans-serveur#…`: a remote room paired by hand,
    /// without a relay (the invitation, or the host's offer `p=…` that carries it, is in the
    /// fragment).
    Paired(GameKind),
    /// `/moulin/regarder#w=…`, `/meta-morpion/regarder#w=…`: a spectator of a remote room (the
    /// watch link is in the fragment).
    Watch(GameKind),
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
            "/moulin/sans-serveur" => Route::Paired(GameKind::Morris),
            "/meta-morpion/sans-serveur" => Route::Paired(GameKind::Meta),
            "/moulin/regarder" => Route::Watch(GameKind::Morris),
            "/meta-morpion/regarder" => Route::Watch(GameKind::Meta),
            "/partie" => Route::Viewer,
            _ => Route::NotFound,
        }
    }

    /// The bundle that shows the route: the rooms' (`remote`), the rooms paired by hand's
    /// (`paired`), the spectators' (`watch`) or the other pages' (`local`, the lobby included). `client/static/index.html` loads the one
    /// its path needs (`client/tests/bundles.rs` keeps its lists equal to these routes).
    pub fn bundle(self) -> Bundle {
        match self {
            Route::Room(_) => Bundle::Remote,
            Route::Paired(_) => Bundle::Paired,
            Route::Watch(_) => Bundle::Watch,
            _ => Bundle::Local,
        }
    }

    /// True when this bundle shows the route; the others' routes are reached by loading the
    /// page.
    pub fn here(self) -> bool {
        match self.bundle() {
            Bundle::Local => cfg!(feature = "local"),
            Bundle::Remote => cfg!(feature = "remote"),
            Bundle::Paired => cfg!(feature = "paired"),
            Bundle::Watch => cfg!(feature = "watch"),
        }
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
            Route::Paired(GameKind::Morris) => "/moulin/sans-serveur",
            Route::Paired(GameKind::Meta) => "/meta-morpion/sans-serveur",
            Route::Watch(GameKind::Morris) => "/moulin/regarder",
            Route::Watch(GameKind::Meta) => "/meta-morpion/regarder",
            Route::Viewer => "/partie",
        }
    }

    /// The document title of the route's page, the game named as its address says.
    pub fn title(self) -> String {
        self.title_named(self.kind().map_or("", common::game_name))
    }

    /// The game the route's page is about, if one.
    fn kind(self) -> Option<GameKind> {
        match self {
            Route::Morris => Some(GameKind::Morris),
            Route::Meta => Some(GameKind::Meta),
            Route::Computer(kind)
            | Route::Lobby(kind)
            | Route::Room(kind)
            | Route::Paired(kind)
            | Route::Watch(kind) => Some(kind),
            Route::Home | Route::NotFound | Route::Viewer => None,
        }
    }

    /// The document title of the route's page, the game called `name`: a game page names it
    /// as its heading does, a Morris game by its rules (« Twelve Men's Morris — two players »).
    pub fn title_named(self, name: &str) -> String {
        match self {
            Route::Home | Route::NotFound => t::title_home().to_string(),
            Route::Morris | Route::Meta => t::title_hot_seat(name),
            Route::Computer(_) => t::title_computer(name),
            Route::Lobby(_) | Route::Room(_) | Route::Paired(_) => t::title_remote(name),
            Route::Watch(_) => t::watch_title(name),
            Route::Viewer => t::title_viewer().to_string(),
        }
    }
}

/// The site's bundles (docs/architecture.md, « Bundles »): each page loads one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bundle {
    /// The home page, hot-seat and computer games, the lobby, the viewer (feature `local`).
    Local,
    /// The room (feature `remote`).
    Remote,
    /// The room paired by hand, without a relay (feature `paired`).
    Paired,
    /// The spectator's page (feature `watch`).
    Watch,
}

/// A game page: hot-seat, or against the computer.
#[derive(Properties, PartialEq)]
pub struct GamePageProps {
    /// The page's route: hot-seat, or against the computer.
    pub route: Route,
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

/// A text of the catalogue as a page's text, taken as it is (`{ t::x() }` would copy it).
pub fn words(text: &'static str) -> Html {
    Html::VText(yew::virtual_dom::VText::new(text))
}

/// The current language, for a component that shows words: calling it draws the component again
/// when the language changes (its props alone would not).
#[hook]
pub fn use_lang() -> Lang {
    use_context::<Lang>().unwrap_or_default()
}

/// The language index.html's script chose, with its catalogue (`window.moulinLanguage`:
/// `{ lang, text }`, the text `null` when it is already installed), made current: false when it
/// cannot be.
fn take_language() -> bool {
    let field = |name: &str| {
        let window = web_sys::window()?;
        let choice = js_sys::Reflect::get(&window, &"moulinLanguage".into()).ok()?;
        js_sys::Reflect::get(&choice, &name.into())
            .ok()?
            .as_string()
    };
    let Some(lang) = field("lang").and_then(|l| Lang::from_code(&l)) else {
        return false;
    };
    match field("text") {
        Some(text) => i18n::install(lang, text).is_ok() && i18n::set(lang),
        None => i18n::set(lang),
    }
}

#[component]
fn App() -> Html {
    let route = use_state(current_route);
    let lang = use_state(i18n::lang);
    // index.html's language switch (docs/architecture.md, « Languages »).
    let set_lang = lang.setter();
    use_window_event(
        "moulin-language",
        Box::new(move || {
            if take_language() {
                set_lang.set(i18n::lang());
            }
        }),
    );
    // Back and forward buttons.
    let set_route = route.setter();
    use_window_event("popstate", Box::new(move || set_route.set(current_route())));
    let go = {
        let route = route.clone();
        Callback::from(move |r: Route| route.set(r))
    };
    use_effect_with((*route, *lang), move |(route, _)| {
        if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
            doc.set_title(&route.title());
        }
    });
    let page = page(*route, &go);
    html! {
        <ContextProvider<Lang> context={*lang}>
            <header class="site-header">
                <common::Link to={Route::Home} go={go.clone()} class="brand">
                    { words(t::site_name()) }
                </common::Link>
                <nav aria-label={t::games_nav()}>
                    <common::Link to={Route::Morris} go={go.clone()}>{ words(t::game_morris()) }</common::Link>
                    <common::Link to={Route::Meta} go={go.clone()}>{ words(t::game_meta()) }</common::Link>
                    <common::Link to={Route::Viewer} go={go}>{ words(t::viewer()) }</common::Link>
                </nav>
                // The choices of language, theme and sound, custom elements of index.html: no
                // wasm for them.
                <div class="switches"><lang-switch></lang-switch><theme-switch></theme-switch><sound-switch></sound-switch></div>
            </header>
            { page }
        </ContextProvider<Lang>>
    }
}

/// Calls `f` on each `name` event of the window while the component is there.
#[hook]
fn use_window_event(name: &'static str, f: Box<dyn Fn()>) {
    use_effect_with((), move |_| {
        let listener = Closure::<dyn Fn()>::wrap(f);
        let window = web_sys::window().expect("a window");
        let _ = window.add_event_listener_with_callback(name, listener.as_ref().unchecked_ref());
        move || {
            let _ =
                window.remove_event_listener_with_callback(name, listener.as_ref().unchecked_ref());
        }
    });
}

/// The page of a route (`go`: how its links change the route).
fn page(route: Route, go: &Callback<Route>) -> Html {
    match route {
        // Reached only if index.html loaded the other bundle for this path.
        r if !r.here() => html! {
            <main class="page narrow">
                <h1>{ words(t::loading_page()) }</h1>
                <p><a href={current_href()}>{ words(t::open_page()) }</a></p>
            </main>
        },
        #[cfg(feature = "local")]
        Route::Home => html! { <home::Home go={go.clone()} /> },
        // Keyed: the hot-seat page and the computer's have a model each.
        #[cfg(feature = "local")]
        Route::Morris => {
            html! { <game::GamePage<engine::morris::Morris> key="hot-seat" {route} /> }
        }
        #[cfg(feature = "local")]
        Route::Meta => html! { <game::GamePage<engine::meta::Meta> key="hot-seat" {route} /> },
        #[cfg(feature = "local")]
        Route::Computer(GameKind::Morris) => {
            html! { <game::GamePage<engine::morris::Morris> key="computer" {route} /> }
        }
        #[cfg(feature = "local")]
        Route::Computer(GameKind::Meta) => {
            html! { <game::GamePage<engine::meta::Meta> key="computer" {route} /> }
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
        #[cfg(feature = "paired")]
        Route::Paired(kind) => {
            html! { <room::RoomPage key={current_href()} {kind} paired=true go={go.clone()} /> }
        }
        #[cfg(feature = "watch")]
        Route::Watch(kind) => {
            html! { <room::WatchPage key={current_href()} {kind} go={go.clone()} /> }
        }
        _ => html! {
            <main class="page narrow">
                <h1>{ words(t::not_found()) }</h1>
                <p>{ words(t::not_found_text()) }</p>
                <common::Link to={Route::Home} go={go.clone()}>{ words(t::home()) }</common::Link>
            </main>
        },
    }
}

/// Mounts the app on `#app` (or the body), in the language index.html chose and fetched
/// (`window.moulinLanguage`); without it the app cannot speak, and says so by failing to start.
pub fn start() {
    if !take_language() {
        wasm_bindgen::throw_str("no catalogue of this build's texts");
    }
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
