//! Remote play: the lobby (create a room, join with a code) and the room page, which drives an
//! [`engine::session::Session`] over a [`client_net::Link`] with the browser's clock and shows
//! the shared room. The session decides everything about the game; this module only connects,
//! saves, renders and turns clicks into commands (through [`crate::model::remote`]).

use super::boards::{MetaBoard, MorrisBoard};
use super::common::{
    board_key, follow_focus, BoardKey, LimitField, Link as PageLink, PlayerCard, Status,
};
use super::{navigate_with_fragment, Route};
use crate::model::remote::{self as rm, Dialog, Event, Local};
use crate::model::{parse_limit, text};
use client_net::{IceServer, Link};
use engine::morris::DEFAULT_MAX_TURNS;
use engine::session::wire::{hex, unhex};
use engine::session::{
    Config, Effect, Event as SessionEvent, Invite, Presence, Refusal, Saved, Seat, Session,
};
use engine::{AnyGame, GameKind, Player};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::{spawn_local, JsFuture};
use yew::prelude::*;

/// The `sessionStorage` key holding a tab's seat for a game (SPEC §6).
pub fn storage_key(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Morris => "moulin-online-seat-v1",
        GameKind::Meta => "meta-morpion-online-seat-v1",
    }
}

fn game_name(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Morris => "Jeu du moulin",
        GameKind::Meta => "Méta Morpion",
    }
}

fn now_ms() -> u64 {
    js_sys::Date::now() as u64
}

/// Bytes from the browser's cryptographic random source.
fn random<const N: usize>() -> Option<[u8; N]> {
    let mut buf = [0u8; N];
    web_sys::window()?
        .crypto()
        .ok()?
        .get_random_values_with_u8_array(&mut buf)
        .ok()?;
    Some(buf)
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

/// Writes the seat (keys and transcript) for a reload to rejoin.
fn store(kind: GameKind, s: &Session) {
    if let (Some(st), Ok(bytes)) = (storage(), postcard::to_allocvec(&s.save())) {
        // A full storage keeps the previous save: the peer still holds every entry.
        let _ = st.set_item(storage_key(kind), &hex(&bytes));
    }
}

/// The saved seat of this tab for a game: `None` when there is none, `Err` when unreadable.
fn stored(kind: GameKind) -> Option<Result<Saved, ()>> {
    let text = storage()?.get_item(storage_key(kind)).ok()??;
    Some(
        unhex(&text)
            .and_then(|b| postcard::from_bytes::<Saved>(&b).ok())
            .ok_or(()),
    )
}

fn forget(kind: GameKind) {
    if let Some(st) = storage() {
        let _ = st.remove_item(storage_key(kind));
    }
}

/// Creates the host's room: keys, code, session saved in this tab. Returns the fragment of the
/// room page.
fn create_room(kind: GameKind, max_turns: u16) -> Result<String, &'static str> {
    const NO_RANDOM: &str = "Ce navigateur ne fournit pas de nombres aléatoires sûrs.";
    let seed: [u8; 32] = random().ok_or(NO_RANDOM)?;
    let code = Invite::new_code(random().ok_or(NO_RANDOM)?);
    let invite = Invite::with_code(kind, max_turns, &code, seed)
        .map_err(|_| "Impossible de créer le salon.")?;
    let session = Session::host(invite.clone(), seed, Config::default(), now_ms())
        .map_err(|_| "Impossible de créer le salon.")?;
    store(kind, &session);
    Ok(invite.to_fragment())
}

#[derive(Properties, PartialEq)]
pub struct LobbyProps {
    pub kind: GameKind,
    pub go: Callback<Route>,
}

/// `/moulin/distance`: create a room (the host picks the Morris limit) or join with a code.
#[component]
pub fn Lobby(props: &LobbyProps) -> Html {
    let kind = props.kind;
    let limit = use_state(|| DEFAULT_MAX_TURNS.to_string());
    let limit_error = use_state(|| None::<String>);
    let code = use_state(String::new);
    let code_error = use_state(|| None::<String>);

    let on_create = {
        let (limit, limit_error, go) = (limit.clone(), limit_error.clone(), props.go.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let max_turns = match kind {
                GameKind::Morris => match parse_limit(&limit) {
                    Ok(n) => n,
                    Err(e) => {
                        limit_error.set(Some(e));
                        return;
                    }
                },
                GameKind::Meta => DEFAULT_MAX_TURNS,
            };
            match create_room(kind, max_turns) {
                Ok(fragment) => navigate_with_fragment(Route::Room(kind), &fragment, &go),
                Err(e) => limit_error.set(Some(e.to_string())),
            }
        })
    };
    let on_join = {
        let (code, code_error, go) = (code.clone(), code_error.clone(), props.go.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            match Invite::normalize_code(&code) {
                Ok(c) => navigate_with_fragment(
                    Route::Room(kind),
                    &format!("g={}&c={c}", kind.as_str()),
                    &go,
                ),
                Err(_) => code_error.set(Some(
                    "Ce code n'est pas valable : il compte 12 lettres ou chiffres, comme K7M2-Q9XD-4HPA."
                        .to_string(),
                )),
            }
        })
    };
    let on_limit = {
        let (limit, limit_error) = (limit.clone(), limit_error.clone());
        Callback::from(move |text: String| {
            limit.set(text);
            limit_error.set(None);
        })
    };
    let on_code = {
        let (code, code_error) = (code.clone(), code_error.clone());
        Callback::from(move |e: InputEvent| {
            code.set(
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .value(),
            );
            code_error.set(None);
        })
    };
    let hot_seat = match kind {
        GameKind::Morris => Route::Morris,
        GameKind::Meta => Route::Meta,
    };
    html! {
        <main class="page narrow lobby">
            <h1>{ game_name(kind) }<span class="mode">{ " · à distance" }</span></h1>
            <p class="lead">{ "Jouez avec un ami sur son propre appareil : vos deux navigateurs se parlent directement, sans compte ni serveur de jeu." }</p>
            <form class="panel" onsubmit={on_create} novalidate=true>
                <h2>{ "Créer un salon" }</h2>
                <p>{ "Vous recevrez un lien et un code à envoyer à votre adversaire. Vous jouerez Bleu et commencerez la première partie." }</p>
                if kind == GameKind::Morris {
                    <LimitField value={(*limit).clone()} invalid={limit_error.is_some()}
                        on_input={on_limit} />
                }
                if let Some(e) = &*limit_error {
                    <p class="notice" role="alert">{ e.clone() }</p>
                }
                <div class="actions">
                    <button type="submit" class="button">{ "Créer le salon" }</button>
                </div>
            </form>
            <form class="panel" onsubmit={on_join} novalidate=true>
                <h2>{ "Rejoindre avec un code" }</h2>
                <label class="code-field">
                    { "Code du salon " }
                    <input type="text" autocomplete="off" autocapitalize="characters" spellcheck="false"
                        placeholder="K7M2-Q9XD-4HPA" value={(*code).clone()} oninput={on_code}
                        aria-invalid={code_error.is_some().to_string()} />
                </label>
                if let Some(e) = &*code_error {
                    <p class="notice" role="alert">{ e.clone() }</p>
                }
                <div class="actions">
                    <button type="submit" class="button">{ "Rejoindre" }</button>
                </div>
                <p class="hint">{ "Vous avez reçu un lien ? Ouvrez-le simplement : il mène directement au salon." }</p>
            </form>
            <p><PageLink to={hot_seat} go={props.go.clone()}>{ "Jouer plutôt à deux sur cet appareil" }</PageLink></p>
        </main>
    }
}

/// The relay connection as the player sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Relay {
    /// Asking the relay for its ICE servers and opening the socket.
    Connecting,
    /// The socket is open.
    Joined,
    /// The socket closed; a new attempt at `retry_at`.
    Down { why: &'static str, retry_at: u64 },
}

/// Everything of a room page that outlives a render: the session, the link, the tab's view.
struct Net {
    kind: GameKind,
    session: Session,
    link: Option<Link>,
    relay: Relay,
    attempts: u32,
    connecting: bool,
    closed: bool,
    local: Local,
    /// Our open proposal as last seen, to tell how it closed.
    mine_open: Option<(u32, engine::session::Proposal)>,
    /// Our last proposal that ran out, until another opens.
    expired: Option<(u32, engine::session::Proposal)>,
    /// We left the room.
    left: bool,
    /// Another key holds our seat (a third visitor).
    taken: bool,
    /// The export panel, when open: the transcript's and the record's download URLs, made when
    /// it opens and again whenever the transcript grows (not on every render).
    export: Option<(String, String)>,
    /// The invitation link was copied (or the copy failed).
    copied: Option<bool>,
    /// When this page first had its peer (`performance.now()`, ms since navigation).
    first_peer_at: Option<f64>,
    /// When we first waited alone in a room whose host we never met.
    alone_since: Option<u64>,
    /// The last whole second rendered (countdowns).
    last_second: u64,
    /// Set when the current socket's message loop ended.
    loop_ended: Rc<std::cell::Cell<bool>>,
    /// Since when the peer we had is gone while the socket looks alive.
    stale_since: Option<u64>,
    /// The current socket has had a peer.
    link_had_peer: bool,
    /// The relay said the room is full (a third visitor, or a copy of a tab already in it).
    full: bool,
}

/// A socket that lost the peer it had for this long is replaced by a new one: after a relay
/// restart or a half-closed connection, matchbox may keep a socket that will never meet the
/// peer again, while a fresh socket joins the room and meets it.
const STALE_MS: u64 = 4_000;
/// A socket that never met the peer waits this long in the room (the peer may come at any
/// moment) before it is replaced, in case its relay connection died silently.
const LONELY_MS: u64 = 20_000;

/// Why a room page cannot open.
#[derive(Clone, Debug, PartialEq)]
enum RoomError {
    Malformed,
    OtherGame(GameKind, String),
    BadSave,
    NoRandom,
}

enum Setup {
    Ready(Rc<RefCell<Net>>),
    Failed(RoomError),
}

fn location_hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Reads the invitation in the URL and this tab's saved seat, and builds the session.
fn open_room(kind: GameKind) -> Setup {
    let fragment = location_hash();
    let invite = match Invite::from_fragment(&fragment) {
        Ok(i) => i,
        Err(_) => return Setup::Failed(RoomError::Malformed),
    };
    let other = invite.rules.kind();
    if other != kind {
        return Setup::Failed(RoomError::OtherGame(
            other,
            fragment.trim_start_matches('#').to_string(),
        ));
    }
    let now = now_ms();
    let session = match stored(kind) {
        Some(Ok(saved)) if saved.invite.room == invite.room => match Session::restore(saved) {
            Ok(s) => s,
            Err(_) => return Setup::Failed(RoomError::BadSave),
        },
        Some(Err(())) => return Setup::Failed(RoomError::BadSave),
        _ => {
            let Some(seed) = random::<32>() else {
                return Setup::Failed(RoomError::NoRandom);
            };
            let s = Session::guest(invite, seed, Config::default(), now);
            store(kind, &s);
            s
        }
    };
    let mine_open = session.proposals()[0].map(|(o, _)| (o.seq, o.proposal));
    Setup::Ready(Rc::new(RefCell::new(Net {
        kind,
        session,
        link: None,
        relay: Relay::Connecting,
        attempts: 0,
        connecting: false,
        closed: false,
        local: Local::default(),
        mine_open,
        expired: None,
        left: false,
        taken: false,
        export: None,
        copied: None,
        first_peer_at: None,
        alone_since: None,
        last_second: 0,
        loop_ended: Rc::new(std::cell::Cell::new(false)),
        stale_since: None,
        link_had_peer: false,
        full: false,
    })))
}

fn performance_now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

impl Net {
    /// Applies the effects left by the link: saves, and turns events into notices. True when
    /// the page should re-render.
    fn handle(&mut self, effects: Vec<Effect>) -> bool {
        let mut changed = false;
        for e in effects {
            changed = true;
            match e {
                Effect::Send(_) => {}
                Effect::Save => {
                    if !self.left {
                        store(self.kind, &self.session)
                    }
                    if self.export.is_some() {
                        self.export = Some(self.export_urls());
                    }
                }
                Effect::Event(SessionEvent::ProposalExpired) => {
                    // An acceptance may still have crossed our withdrawal: keep watching.
                    self.expired = self.mine_open.take();
                    self.local.notice = Some("Votre demande a expiré sans réponse.".to_string());
                }
                Effect::Event(SessionEvent::Refused { seat, why, .. })
                    if seat == self.session.seat()
                        && matches!(why, Refusal::Intruder | Refusal::Fork) =>
                {
                    self.taken = true;
                }
                // An entry ahead of a gap is kept aside until the gap fills: not a fault.
                Effect::Event(SessionEvent::Refused {
                    why: Refusal::Gap, ..
                }) => {}
                Effect::Event(
                    SessionEvent::Refused { .. }
                    | SessionEvent::Void { .. }
                    | SessionEvent::Undecodable(_),
                ) => {
                    self.local.notice = Some(
                        "Un message non valable de votre adversaire a été refusé : il ne change rien à la partie."
                            .to_string(),
                    );
                }
                Effect::Event(_) => {}
            }
        }
        if changed {
            self.proposals_changed();
        }
        changed
    }

    fn export_urls(&self) -> (String, String) {
        (
            data_url(&self.session.export()),
            data_url(&format!("{}\n", self.session.room().record())),
        )
    }

    fn proposals_changed(&mut self) {
        if let Some((seq, p)) = self.expired {
            // The two peers fold an acceptance that crossed our expiry the same way; if it
            // came first, the request was granted after all: say so.
            if self.session.answer_to(seq) == Some(true) {
                self.local.notice = Some(rm::closed_proposal(&self.session, seq, p));
                self.expired = None;
            }
        }
        let now = self.session.proposals()[0].map(|(o, _)| (o.seq, o.proposal));
        if now.is_some() {
            self.expired = None;
        }
        if let Some((seq, p)) = self.mine_open {
            if now.map(|m| m.0) != Some(seq) {
                self.local.notice = Some(rm::closed_proposal(&self.session, seq, p));
            }
        }
        self.mine_open = now;
    }

    fn close(&mut self) {
        self.closed = true;
        self.link = None;
    }
}

fn ws_url(room: &str) -> String {
    let location = web_sys::window().map(|w| w.location());
    let host = location
        .as_ref()
        .and_then(|l| l.host().ok())
        .unwrap_or_default();
    let scheme = match location.and_then(|l| l.protocol().ok()).as_deref() {
        Some("https:") => "wss",
        _ => "ws",
    };
    format!("{scheme}://{host}/ws/{room}")
}

async fn fetch(url: &str) -> Option<web_sys::Response> {
    let promise = web_sys::window()?.fetch_with_str(url);
    JsFuture::from(promise).await.ok()?.dyn_into().ok()
}

fn js_strings(v: &JsValue) -> Vec<String> {
    if let Some(s) = v.as_string() {
        return vec![s];
    }
    js_sys::Array::from(v)
        .iter()
        .filter_map(|x| x.as_string())
        .collect()
}

/// The STUN/TURN servers the relay advertises (none when it says nothing usable).
async fn ice_servers() -> Vec<IceServer> {
    let Some(resp) = fetch("/ice-servers").await.filter(|r| r.ok()) else {
        return Vec::new();
    };
    let json = match resp.json() {
        Ok(p) => JsFuture::from(p).await.ok(),
        Err(_) => None,
    };
    let Some(json) = json else {
        return Vec::new();
    };
    let list = js_sys::Reflect::get(&json, &"iceServers".into()).unwrap_or(JsValue::UNDEFINED);
    if !js_sys::Array::is_array(&list) {
        return Vec::new();
    }
    js_sys::Array::from(&list)
        .iter()
        .map(|s| {
            let field = |name: &str| js_sys::Reflect::get(&s, &name.into()).ok();
            IceServer {
                urls: field("urls").map(|u| js_strings(&u)).unwrap_or_default(),
                username: field("username").and_then(|u| u.as_string()),
                credential: field("credential").and_then(|u| u.as_string()),
            }
        })
        .filter(|s| !s.urls.is_empty())
        .collect()
}

/// Why the relay closed our socket, asked over plain HTTP (a browser cannot read the status of
/// a refused websocket handshake).
const ROOM_FULL: &str = "Salon complet : deux joueurs y sont déjà.";

async fn refusal_reason(room: &str) -> &'static str {
    match fetch(&format!("/ws/{room}")).await.map(|r| r.status()) {
        Some(409) => ROOM_FULL,
        Some(403) => "Ce relais n'accepte pas les pages venues d'une autre adresse.",
        Some(429) | Some(503) => "Le relais est surchargé.",
        Some(400) => "Ce nom de salon est refusé par le relais.",
        Some(_) => "La connexion au relais a été coupée.",
        None => "Le relais est injoignable.",
    }
}

fn start_connect(net: &Rc<RefCell<Net>>) {
    net.borrow_mut().connecting = true;
    let net = net.clone();
    spawn_local(async move {
        let ice = ice_servers().await;
        let url = ws_url(&net.borrow().session.invite().room_name());
        let (link, message_loop) = Link::connect(&url, &ice);
        let ended = Rc::new(std::cell::Cell::new(false));
        {
            let mut n = net.borrow_mut();
            n.connecting = false;
            if n.closed {
                return;
            }
            n.link = Some(link);
            n.loop_ended = ended.clone();
            n.stale_since = None;
            n.link_had_peer = false;
            n.relay = Relay::Joined;
        }
        spawn_local(async move {
            let _ = message_loop.await;
            ended.set(true);
        });
    });
}

/// Drops the socket and plans the next one, with back-off. A socket that ended on its own is
/// asked about (why did the relay close it?); a stale one we replace is not.
fn link_lost(net: &Rc<RefCell<Net>>, now: u64, stale: bool) {
    let room = {
        let mut n = net.borrow_mut();
        n.link = None;
        n.stale_since = None;
        n.attempts += 1;
        let delay = (500u64 << n.attempts.min(5)).min(10_000);
        n.relay = Relay::Down {
            why: if stale {
                "Reconnexion à votre adversaire…"
            } else {
                "La connexion au relais a été coupée."
            },
            retry_at: now + delay,
        };
        if stale {
            return;
        }
        n.session.invite().room_name()
    };
    let net = net.clone();
    spawn_local(async move {
        let why = refusal_reason(&room).await;
        let mut n = net.borrow_mut();
        n.full = why == ROOM_FULL;
        if let Relay::Down { why: w, .. } = &mut n.relay {
            *w = why;
        }
    });
}

/// One step of the room: pump the link, reconnect when due. True to re-render.
fn tick(net: &Rc<RefCell<Net>>) -> bool {
    let now = now_ms();
    let mut changed = false;
    let lost = {
        let mut guard = net.borrow_mut();
        let n = &mut *guard;
        // After leaving, the socket carries the goodbye while it lasts; no new one.
        if n.closed || (n.left && n.link.is_none()) {
            return false;
        }
        let mut lost = None;
        if let Some(link) = n.link.as_mut() {
            let effects = link.pump(&mut n.session, now);
            if link.is_closed() || n.loop_ended.get() {
                lost = Some(false);
            }
            // The peer we met is gone (or silent) while this socket stays open: replace the
            // socket after a short while.
            let live = link.has_peer() && n.session.presence() == Presence::Here;
            if live || !matches!(n.session.presence(), Presence::Away { .. }) {
                n.stale_since = None;
            } else {
                let limit = if n.link_had_peer { STALE_MS } else { LONELY_MS };
                if now.saturating_sub(*n.stale_since.get_or_insert(now)) >= limit {
                    lost = lost.or(Some(true));
                }
            }
            if link.has_peer() {
                n.link_had_peer = true;
                if n.first_peer_at.is_none() {
                    n.first_peer_at = Some(performance_now());
                }
                if live {
                    n.attempts = 0;
                    n.full = false;
                }
                n.alone_since = None;
            } else if n.session.game().is_none() && n.session.seat() == Seat::Guest {
                n.alone_since.get_or_insert(now);
            }
            changed |= n.handle(effects);
        } else if !n.connecting {
            let due = match n.relay {
                Relay::Down { retry_at, .. } => now >= retry_at,
                _ => true,
            };
            if due {
                drop(guard);
                start_connect(net);
                return true;
            }
        }
        // Countdowns move once a second.
        if now / 1000 != n.last_second {
            n.last_second = now / 1000;
            changed = true;
        }
        lost
    };
    if let Some(stale) = lost {
        link_lost(net, now, stale);
        changed = true;
    }
    changed
}

/// Runs one UI event: the command it yields goes to the session and the peer.
fn dispatch(net: &Rc<RefCell<Net>>, event: Event) {
    let mut guard = net.borrow_mut();
    let n = &mut *guard;
    let Some(command) = n.local.update(&n.session, event) else {
        return;
    };
    let now = now_ms();
    let result = match n.link.as_mut() {
        Some(link) => link.act(&mut n.session, command, now),
        // No link: the entry is kept and sent when the peers meet again.
        None => n.session.act(command, now),
    };
    match result {
        Ok(effects) => {
            n.local.sent(command);
            match command {
                engine::session::Command::Withdraw => {
                    n.mine_open = None;
                    n.local.notice = Some("Demande retirée.".to_string());
                }
                engine::session::Command::Leave => {
                    n.left = true;
                    forget(n.kind);
                }
                _ => {}
            }
            n.handle(effects);
        }
        // Leaving a room whose host never came: there is no one to tell.
        Err(_) if command == engine::session::Command::Leave => {
            n.left = true;
            n.link = None;
            forget(n.kind);
        }
        Err(e) => n.local.refused(&n.session, e),
    }
}

fn copy_text(text: &str) -> bool {
    let Some(nav) = web_sys::window().map(|w| w.navigator()) else {
        return false;
    };
    let clipboard = js_sys::Reflect::get(&nav, &"clipboard".into()).unwrap_or(JsValue::UNDEFINED);
    let write = js_sys::Reflect::get(&clipboard, &"writeText".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    match write {
        Some(f) => f.call1(&clipboard, &text.into()).is_ok(),
        None => false,
    }
}

fn data_url(text: &str) -> String {
    format!(
        "data:text/plain;charset=utf-8,{}",
        String::from(js_sys::encode_uri_component(text))
    )
}

#[derive(Properties, PartialEq)]
pub struct RoomProps {
    pub kind: GameKind,
    pub go: Callback<Route>,
}

/// `/moulin/salon#…`: a remote room.
#[component]
pub fn RoomPage(props: &RoomProps) -> Html {
    let kind = props.kind;
    let setup = use_memo((), move |_| open_room(kind));
    let update = use_force_update();
    let board = use_node_ref();
    {
        let setup = setup.clone();
        let update = update.clone();
        use_effect_with((), move |_| {
            let window = web_sys::window().expect("a window");
            let running = match &*setup {
                Setup::Ready(net) => {
                    let net = net.clone();
                    let cb = Closure::<dyn FnMut()>::new(move || {
                        if tick(&net) {
                            update.force_update();
                        }
                    });
                    window
                        .set_interval_with_callback_and_timeout_and_arguments_0(
                            cb.as_ref().unchecked_ref(),
                            10,
                        )
                        .ok()
                        .map(|id| (id, cb))
                }
                Setup::Failed(_) => None,
            };
            move || {
                if let Some((id, _cb)) = running {
                    window.clear_interval_with_handle(id);
                }
                if let Setup::Ready(net) = &*setup {
                    net.borrow_mut().close();
                }
            }
        });
    }
    let focus = match &*setup {
        Setup::Ready(net) => {
            let n = net.borrow();
            (n.local.point.index(), n.local.cell.index())
        }
        Setup::Failed(_) => (0, 0),
    };
    {
        let board = board.clone();
        use_effect_with(focus, move |&(point, cell)| {
            let selector = match kind {
                GameKind::Morris => format!("[data-point=\"{point}\"]"),
                GameKind::Meta => format!("[data-cell=\"{cell}\"]"),
            };
            follow_focus(&board, &selector);
        });
    }
    {
        // The tab's title says when the player is wanted: their move, or a proposal to answer.
        let setup = setup.clone();
        use_effect(move || {
            let base = Route::Room(kind).title();
            let title = match &*setup {
                Setup::Ready(net) => {
                    let n = net.borrow();
                    if n.session.proposals()[1].is_some() && !n.left {
                        format!("Demande de votre adversaire · {base}")
                    } else if n.session.my_turn() {
                        format!("À vous · {base}")
                    } else {
                        base.to_string()
                    }
                }
                Setup::Failed(_) => base.to_string(),
            };
            if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
                if doc.title() != title {
                    doc.set_title(&title);
                }
            }
        });
    }
    match &*setup {
        Setup::Failed(e) => room_error(e, kind, &props.go),
        Setup::Ready(net) => room_view(net, &update, &board, &props.go),
    }
}

#[derive(Properties, PartialEq)]
struct FocusFirstProps {
    children: Html,
}

/// A dialog's row of buttons; the first one takes the keyboard focus when the dialog opens.
#[component]
fn FocusFirst(props: &FocusFirstProps) -> Html {
    let node = use_node_ref();
    {
        let node = node.clone();
        use_effect_with((), move |_| {
            let button = node
                .cast::<web_sys::Element>()
                .and_then(|e| e.query_selector("button").ok().flatten())
                .and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok());
            if let Some(b) = button {
                let _ = b.focus();
            }
        });
    }
    html! { <div class="actions" ref={node}>{ props.children.clone() }</div> }
}

fn room_error(e: &RoomError, kind: GameKind, go: &Callback<Route>) -> Html {
    let (title, body, fix) = match e {
        RoomError::Malformed => (
            "Lien d'invitation non valable",
            "Ce lien est incomplet ou abîmé. Demandez à votre ami de vous le renvoyer, ou tapez le code du salon.".to_string(),
            html! {},
        ),
        RoomError::OtherGame(other, fragment) => (
            "Ce lien est pour l'autre jeu",
            format!("Cette invitation est pour une partie de {}.", game_name(*other)),
            {
                let (go, other, fragment) = (go.clone(), *other, fragment.clone());
                let href = format!("{}#{fragment}", Route::Room(other).path());
                let onclick = Callback::from(move |e: MouseEvent| {
                    e.prevent_default();
                    navigate_with_fragment(Route::Room(other), &fragment, &go);
                });
                html! { <p><a class="button" {href} {onclick}>{ format!("Rejoindre la partie de {}", game_name(other)) }</a></p> }
            },
        ),
        RoomError::NoRandom => (
            "Navigateur non pris en charge",
            "Ce navigateur ne fournit pas de nombres aléatoires sûrs : impossible de créer vos clés de joueur.".to_string(),
            html! {},
        ),
        RoomError::BadSave => (
            "Sauvegarde illisible",
            "La place enregistrée dans cet onglet est abîmée : elle ne peut pas être reprise.".to_string(),
            {
                let onclick = Callback::from(move |_: MouseEvent| {
                    forget(kind);
                    if let Some(w) = web_sys::window() {
                        let _ = w.location().reload();
                    }
                });
                html! { <p><button type="button" class="button" {onclick}>{ "Rejoindre ce salon comme nouvel invité" }</button></p> }
            },
        ),
    };
    html! {
        <main class="page narrow room-error" data-room-error={format!("{e:?}")}>
            <h1>{ title }</h1>
            <p role="alert">{ body }</p>
            { fix }
            <p><PageLink to={Route::Lobby(kind)} go={go.clone()}>{ "Créer ou rejoindre un autre salon" }</PageLink></p>
        </main>
    }
}

fn player_detail(g: &AnyGame, p: Player) -> String {
    match g {
        AnyGame::Morris(m) => text::morris_player(m, p),
        AnyGame::Meta(m) => text::boards_won(m.boards_won(p)),
    }
}

fn room_view(
    net: &Rc<RefCell<Net>>,
    update: &UseForceUpdateHandle,
    board: &NodeRef,
    go: &Callback<Route>,
) -> Html {
    let act = {
        let (net, update) = (net.clone(), update.clone());
        Callback::from(move |e: Event| {
            dispatch(&net, e);
            update.force_update();
        })
    };
    let emit = |e: Event| act.reform(move |_: MouseEvent| e.clone());
    let n = net.borrow();
    let s = &n.session;
    let room = s.room();
    let now = now_ms();
    let kind = n.kind;
    let me = s.player();
    let seat_name = match s.seat() {
        Seat::Host => "hôte",
        Seat::Guest => "invité",
    };
    let in_progress = room.in_progress();
    let met = room.hello[Seat::Guest.index()];

    let on_key = {
        let act = act.clone();
        let (point, cell) = (n.local.point, n.local.cell);
        Callback::from(move |e: KeyboardEvent| {
            let event = match board_key(&e) {
                Some(BoardKey::Arrow(d)) => Event::Arrow(d),
                Some(BoardKey::Activate) => match kind {
                    GameKind::Morris => Event::Point(point),
                    GameKind::Meta => Event::Cell(cell),
                },
                None => return,
            };
            e.prevent_default();
            act.emit(event);
        })
    };

    let board_html = match s.game() {
        Some(AnyGame::Morris(g)) => html! {
            <MorrisBoard game={g.clone()} selected={n.local.selected} focus={n.local.point} frozen={room.ending.is_some()}
                on_activate={act.reform(Event::Point)} on_key={on_key} node={board.clone()} />
        },
        Some(AnyGame::Meta(g)) => html! {
            <MetaBoard game={*g} focus={n.local.cell} frozen={room.ending.is_some()}
                on_activate={act.reform(Event::Cell)} on_key={on_key} node={board.clone()} />
        },
        None if n.full => html! { <div class="board-placeholder">{ "Salon complet" }</div> },
        None if n.left => html! { <div class="board-placeholder">{ "Salon quitté" }</div> },
        None => html! { <div class="board-placeholder">{ "Connexion à l'hôte du salon…" }</div> },
    };

    let players = s.game().map(|g| {
        let to_move = g.to_move();
        let card = |p: Player| {
            let title = format!(
                "{}{} · {}",
                text::player_name(p),
                if kind == GameKind::Meta {
                    if p == Player::Blue {
                        " (croix)"
                    } else {
                        " (rond)"
                    }
                } else {
                    ""
                },
                if p == me { "vous" } else { "adversaire" }
            );
            html! { <PlayerCard player={p} active={in_progress && to_move == p}
            title={title} detail={player_detail(g, p)} /> }
        };
        html! { <div class="players">{ card(Player::Blue) }{ card(Player::Red) }</div> }
    });

    // Presence of the other seat and the state of our relay connection.
    let (presence_attr, presence_text) = match s.presence() {
        Presence::Waiting => (
            "waiting",
            "Votre adversaire n'est pas encore là.".to_string(),
        ),
        Presence::Here => ("here", "Votre adversaire est connecté.".to_string()),
        Presence::Away { .. } => {
            let until = s.reserved_until().unwrap_or(now);
            if now < until {
                (
                    "away",
                    format!(
                        "Votre adversaire est déconnecté : sa place est gardée encore {}.",
                        rm::countdown(until - now)
                    ),
                )
            } else {
                (
                    "away",
                    "Votre adversaire n'est pas revenu à temps : vous pouvez revendiquer la victoire."
                        .to_string(),
                )
            }
        }
    };
    let can_claim = in_progress
        && matches!(s.presence(), Presence::Away { .. })
        && s.reserved_until().is_some_and(|t| now >= t);
    let relay_text = match &n.relay {
        Relay::Connecting => Some("Connexion au relais…".to_string()),
        Relay::Joined if n.link.as_ref().is_some_and(|l| l.has_peer()) => None,
        Relay::Joined => Some("Relais joint : en attente de l'autre navigateur.".to_string()),
        Relay::Down { why, retry_at } => Some(format!(
            "{why} Nouvelle tentative dans {} s.",
            retry_at.saturating_sub(now).div_ceil(1000)
        )),
    };
    let expired = n
        .alone_since
        .is_some_and(|t| now.saturating_sub(t) > 30_000)
        .then_some("Personne n'a ouvert ce salon depuis 30 secondes : il a peut-être expiré ou son hôte l'a fermé. Demandez un nouveau lien à votre ami ; cette page continue d'attendre.");
    let other_left = room.left[s.seat().other().index()];

    // The invitation, until the guest has come.
    let invite_panel = (s.seat() == Seat::Host && !met && !n.left).then(|| {
        let href = web_sys::window()
            .and_then(|w| w.location().href().ok())
            .unwrap_or_default();
        let code = s.invite().code().map(Invite::format_code);
        let on_copy = {
            let (href, net, update) = (href.clone(), net.clone(), update.clone());
            Callback::from(move |_: MouseEvent| {
                net.borrow_mut().copied = Some(copy_text(&href));
                update.force_update();
            })
        };
        let copy_label = match n.copied {
            Some(true) => "Lien copié ✓",
            _ => "Copier le lien",
        };
        html! {
            <section class="panel invite" aria-labelledby="invite-title">
                <h2 id="invite-title">{ "Invitez votre adversaire" }</h2>
                <label class="invite-link">
                    { "Lien d'invitation" }
                    <input type="text" readonly=true value={href.clone()} data-invite-link={href} />
                </label>
                <div class="actions">
                    <button type="button" class="button" onclick={on_copy}>{ copy_label }</button>
                </div>
                if n.copied == Some(false) {
                    <p class="notice">{ "Copie impossible ici : sélectionnez le lien et copiez-le à la main." }</p>
                }
                if let Some(code) = code {
                    <p>{ "Ou donnez-lui ce code, à taper sur la page « Jouer à distance » : " }
                        <strong class="code" data-code={code.clone()}>{ code }</strong></p>
                }
                <p class="hint">{ "Le lien contient la clé du salon : ne le partagez qu'avec votre adversaire." }</p>
            </section>
        }
    });

    let [mine, theirs] = s.proposals();
    let mine_banner = mine.map(|(open, deadline)| {
        html! {
            <div class="proposal-banner" data-proposal="mine">
                <span>{ format!("Demande envoyée : {} · réponse attendue ({})",
                    rm::proposal_text(open.proposal), rm::countdown(deadline.saturating_sub(now))) }</span>
                <button type="button" class="button secondary" onclick={emit(Event::Withdraw)}>
                    { "Retirer la demande" }
                </button>
            </div>
        }
    });
    let their_dialog = theirs.filter(|_| !n.left).map(|(open, deadline)| {
        let left = if deadline >= u64::MAX / 2 {
            String::new()
        } else {
            format!(
                "Réponse attendue dans {}.",
                rm::countdown(deadline.saturating_sub(now))
            )
        };
        html! {
            <div class="backdrop">
                <div class="dialog" role="alertdialog" aria-modal="true" aria-labelledby="proposal-title"
                    data-proposal="theirs">
                    <h2 id="proposal-title">{ rm::their_proposal(open.proposal) }</h2>
                    <p class="countdown">{ left }</p>
                    <FocusFirst key={open.seq.to_string()}>
                        <button type="button" class="button" onclick={emit(Event::Reply(true))}>{ "Accepter" }</button>
                        <button type="button" class="button secondary" onclick={emit(Event::Reply(false))}>{ "Refuser" }</button>
                    </FocusFirst>
                </div>
            </div>
        }
    });
    let local_dialog = n.local.dialog.as_ref().map(|d| {
        let (title, body, confirm) = match d {
            Dialog::NewGame(_) => (
                "Proposer une nouvelle partie ?",
                if in_progress {
                    "Si votre adversaire accepte, la partie en cours s'arrête et une nouvelle commence ; le premier joueur change à chaque partie."
                } else {
                    "Si votre adversaire accepte, une nouvelle partie commence ; le premier joueur change à chaque partie."
                },
                "Proposer",
            ),
            Dialog::Resign => (
                "Abandonner la partie ?",
                "Votre adversaire gagnera cette partie. Vous pourrez ensuite proposer une revanche.",
                "Abandonner",
            ),
            Dialog::Leave => (
                "Quitter le salon ?",
                "Vous ne pourrez plus revenir dans ce salon ; une partie en cours sera perdue.",
                "Quitter le salon",
            ),
        };
        let limit = match (d, s.seat(), kind) {
            (Dialog::NewGame(nd), Seat::Host, GameKind::Morris) => {
                html! {
                    <>
                        <LimitField value={nd.limit_text.clone()} invalid={nd.error.is_some()}
                            on_input={act.reform(Event::DialogLimit)} />
                        if let Some(e) = &nd.error {
                            <p class="notice" role="alert">{ e.clone() }</p>
                        }
                    </>
                }
            }
            _ => html! {},
        };
        let on_submit = act.reform(|e: SubmitEvent| {
            e.prevent_default();
            Event::Confirm
        });
        let on_key = {
            let act = act.clone();
            Callback::from(move |e: KeyboardEvent| {
                if e.key() == "Escape" {
                    act.emit(Event::Cancel);
                }
            })
        };
        html! {
            <div class="backdrop" onkeydown={on_key}>
                <form class="dialog" role="dialog" aria-modal="true" aria-labelledby="local-title"
                    novalidate=true onsubmit={on_submit}>
                    <h2 id="local-title">{ title }</h2>
                    <p>{ body }</p>
                    { limit }
                    <FocusFirst>
                        <button type="submit" class="button">{ confirm }</button>
                        <button type="button" class="button secondary" onclick={emit(Event::Cancel)}>{ "Annuler" }</button>
                    </FocusFirst>
                </form>
            </div>
        }
    });

    let exports = n.export.as_ref().map(|(transcript, record)| {
        let short = &s.invite().room_name()[..8];
        let prefix = match kind {
            GameKind::Morris => "moulin",
            GameKind::Meta => "meta-morpion",
        };
        html! {
            <div class="exports">
                <a class="button secondary" download={format!("{prefix}-{short}.transcript")}
                    href={transcript.clone()} data-export="transcript">{ "Transcript signé (.transcript)" }</a>
                <a class="button secondary" download={format!("{prefix}-{short}-partie-{}.txt", room.game_number + 1)}
                    href={record.clone()} data-export="record">{ "Notation de la partie (.txt)" }</a>
                <p class="hint">{ "Le transcript se vérifie avec « engine verify » ; la notation se rejoue avec « engine replay »." }</p>
            </div>
        }
    });
    let on_export = {
        let (net, update) = (net.clone(), update.clone());
        Callback::from(move |_: MouseEvent| {
            let mut n = net.borrow_mut();
            n.export = match n.export {
                Some(_) => None,
                None => Some(n.export_urls()),
            };
            drop(n);
            update.force_update();
        })
    };

    let limit_setting = match (kind, s.game()) {
        (GameKind::Morris, Some(AnyGame::Morris(g))) => {
            let editable = s.seat() == Seat::Host && room.game_number == 0 && g.turns() == 0;
            let value = n
                .local
                .limit_text
                .clone()
                .unwrap_or_else(|| g.max_turns().to_string());
            html! {
                <>
                    <LimitField value={if editable { value } else { g.max_turns().to_string() }}
                        disabled={!editable} invalid={n.local.limit_error.is_some()}
                        on_input={act.reform(Event::Limit)} />
                    if let Some(e) = n.local.limit_error.clone().filter(|_| editable) {
                        <p class="notice" role="alert">{ e }</p>
                    } else if s.seat() == Seat::Guest {
                        <p class="hint">{ "Seul l'hôte choisit la limite." }</p>
                    } else if !editable {
                        <p class="hint">{ "Modifiable dans une nouvelle partie." }</p>
                    }
                </>
            }
        }
        _ => html! {},
    };
    let progress = s.game().map(|g| match g {
        AnyGame::Morris(m) => format!("Tour {} sur {}", m.turns(), m.max_turns()),
        AnyGame::Meta(m) => format!("Coup {} sur 81 au plus", m.moves()),
    });
    // The game's buttons appear once the guest has come, and go when play cannot go on.
    let playing = s.game().is_some() && met && !n.left && !s.suspended();

    html! {
        <main class={classes!("page", "game", "remote", if kind == GameKind::Morris { "morris" } else { "meta" })}
            data-seat={seat_name} data-my-turn={s.my_turn().to_string()}
            data-first-peer-ms={n.first_peer_at.map(|t| format!("{t:.0}"))}
            data-game-number={room.game_number.to_string()}>
            <h1>{ game_name(kind) }<span class="mode">{ format!(" · à distance · vous êtes l'{seat_name}") }</span></h1>
            // The invitation first, above the board: the one thing the host needs until the
            // guest comes (on a phone the side panels come after the board).
            { invite_panel.unwrap_or_default() }
            <div class="layout">
                <section class="board-column" aria-label="Partie">
                    { players.unwrap_or_default() }
                    <Status result={rm::result(s)} text={rm::status(s)}
                        notice={n.local.notice.clone().map(AttrValue::from)} />
                    { mine_banner.unwrap_or_default() }
                    <div class="board-scroll">{ board_html }</div>
                    if playing {
                        <div class="actions">
                            <button type="button" class={classes!("button", if me == Player::Blue { "blue" } else { "red" })}
                                disabled={!room.can_undo() && n.local.selected.is_none()}
                                onclick={emit(Event::Undo)}>{ "Annuler" }</button>
                            <button type="button" class="button secondary" onclick={emit(Event::AskNewGame)}>
                                { "Nouvelle partie" }</button>
                            <button type="button" class="button secondary" disabled={!in_progress}
                                onclick={emit(Event::Draw)}>{ "Proposer la nulle" }</button>
                            <button type="button" class="button secondary" disabled={!in_progress}
                                onclick={emit(Event::AskResign)}>{ "Abandonner" }</button>
                            if can_claim {
                                <button type="button" class="button" onclick={emit(Event::Claim)}>
                                    { "Revendiquer la victoire" }</button>
                            }
                        </div>
                    }
                    if let Some(p) = progress { <p class="progress">{ p }</p> }
                </section>
                <aside class="side">
                    <section class="panel room-state" aria-label="Salon">
                        <h2>{ "Salon" }</h2>
                        if n.left {
                            <p class="presence" data-presence="left">{ "Vous avez quitté ce salon." }</p>
                            <p><PageLink to={Route::Lobby(kind)} go={go.clone()}>{ "Créer ou rejoindre un autre salon" }</PageLink></p>
                        } else {
                            <p class={classes!("presence", presence_attr)} data-presence={presence_attr} aria-live="polite">
                                { presence_text }</p>
                            if other_left {
                                <p class="notice">{ "Votre adversaire a quitté le salon." }</p>
                            }
                            if n.taken {
                                <p class="notice" role="alert">{ "Ce salon a déjà ses deux joueurs : votre place n'y est pas reconnue." }</p>
                            }
                            if n.full {
                                <p class="notice" role="alert" data-room-full="">{ ROOM_FULL }</p>
                            } else if let Some(t) = relay_text {
                                <p class="hint relay" data-relay="">{ t }</p>
                            }
                            if let Some(t) = expired { <p class="notice" data-expired="">{ t }</p> }
                        }
                        <div class="actions">
                            if s.game().is_some() {
                                <button type="button" class="button secondary" onclick={on_export}>{ "Exporter la partie" }</button>
                            }
                            if !n.left {
                                <button type="button" class="button secondary" onclick={emit(Event::AskLeave)}>{ "Quitter le salon" }</button>
                            }
                        </div>
                        { exports.unwrap_or_default() }
                    </section>
                    <section class="panel rules">
                        <h2>{ "Règles" }</h2>
                        <p>{ "Chaque coup est signé et vérifié par les deux navigateurs. Annuler un tour, la nulle et une nouvelle partie demandent l'accord de l'adversaire, qui a une minute pour répondre. Le premier joueur change à chaque nouvelle partie." }</p>
                        <p>{ "Si l'un de vous se déconnecte, sa place est gardée cinq minutes : recharger cet onglet reprend la même place." }</p>
                        { limit_setting }
                    </section>
                </aside>
            </div>
            { local_dialog.unwrap_or_default() }
            { their_dialog.unwrap_or_default() }
        </main>
    }
}
