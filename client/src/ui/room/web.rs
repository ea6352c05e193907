//! The browser services only the remote pages use: the tab's and the browser's storage of
//! seats, a lock between tabs, the closing of WebRTC connections, and the relay's HTTP answers
//! (`fetch`). They live apart from `ui::browser` so the other pages' bundle leaves them out.

use crate::ui::browser::{ask_room, fetch, json_field, room_answer};
use engine::GameKind;
use relay_api::{IceServer, IceServers, Refusal};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

fn session_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

/// The text stored under a key in this tab's storage.
pub fn stored(key: &str) -> Option<String> {
    session_storage()?.get_item(key).ok()?
}

/// Where a tab kept its seat before seats were kept per room (this tab's storage, one seat per
/// game): still read once, so a tab open across the update keeps its seat.
pub fn old_storage_key(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Morris => "moulin-online-seat-v1",
        GameKind::Meta => "meta-morpion-online-seat-v1",
    }
}

/// Forgets a key of this tab's storage.
pub fn forget(key: &str) {
    if let Some(st) = session_storage() {
        let _ = st.remove_item(key);
    }
}

/// What happened to a lock between this browser's tabs ([`lock`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockNews {
    /// This tab holds it.
    Held,
    /// Another tab holds it.
    Busy,
    /// Another tab took it from this one.
    Taken,
}

/// Holds a lock while it lives; dropping it lets the lock go.
pub struct Lock {
    release: std::rc::Rc<std::cell::RefCell<Option<js_sys::Function>>>,
}

impl Drop for Lock {
    fn drop(&mut self) {
        if let Some(f) = self.release.borrow_mut().take() {
            let _ = f.call0(&JsValue::UNDEFINED);
        }
    }
}

/// Asks for the lock `name` among this browser's tabs (Web Locks): if it is free — or at once
/// with `take`, taking it from the tab that holds it — `news` hears [`LockNews::Held`], else
/// [`LockNews::Busy`]; a tab whose lock is taken hears [`LockNews::Taken`]. A browser without
/// Web Locks always says `Held`. Through `Reflect`: web-sys has Web Locks (`LockManager`) only
/// behind `--cfg=web_sys_unstable_apis`, and its absence must be asked anyway.
pub fn lock(name: &str, take: bool, news: impl Fn(LockNews) + 'static) -> Lock {
    use js_sys::{Function, Object, Promise, Reflect};
    use std::cell::RefCell;
    use std::rc::Rc;
    use wasm_bindgen::closure::Closure;
    let release: Rc<RefCell<Option<Function>>> = Rc::default();
    let news: Rc<dyn Fn(LockNews)> = Rc::new(news);
    let locks = web_sys::window()
        .map(|w| w.navigator())
        .and_then(|n| Reflect::get(&n, &"locks".into()).ok())
        .filter(|l| l.is_object());
    let request = locks.as_ref().and_then(|l| {
        Reflect::get(l, &"request".into())
            .ok()?
            .dyn_into::<Function>()
            .ok()
    });
    let (Some(locks), Some(request)) = (locks, request) else {
        news(LockNews::Held);
        return Lock { release };
    };
    let options = Object::new();
    let flag = if take { "steal" } else { "ifAvailable" };
    let _ = Reflect::set(&options, &flag.into(), &JsValue::TRUE);
    let granted = {
        let (news, release) = (news.clone(), release.clone());
        Closure::once_into_js(move |lock: JsValue| -> Promise {
            if lock.is_null() {
                news(LockNews::Busy);
                return Promise::resolve(&JsValue::UNDEFINED);
            }
            news(LockNews::Held);
            // Held until this promise settles: when the Lock is dropped, or the tab closes.
            Promise::new(&mut |resolve, _| *release.borrow_mut() = Some(resolve))
        })
    };
    let asked = request.call3(&locks, &name.into(), &options, &granted);
    if let Ok(p) = asked.and_then(|p| p.dyn_into::<Promise>()) {
        // The promise fails when another tab takes the lock (an `AbortError`).
        let taken = Closure::once(move |_: JsValue| news(LockNews::Taken));
        let _ = p.catch(&taken);
        taken.forget();
    }
    Lock { release }
}

/// The relay's path for a room: `/ws/<room>`, or `/ws/<room>?watch` for a spectator.
pub fn room_path(room: &str, watch: bool) -> String {
    match watch {
        true => format!("/ws/{room}?{}", relay_api::WATCH_QUERY),
        false => format!("/ws/{room}"),
    }
}

/// `ws(s)://<this host>/ws/<room>` (`?watch` for a spectator).
pub fn ws_url(room: &str, watch: bool) -> String {
    let location = web_sys::window().map(|w| w.location());
    let host = location
        .as_ref()
        .and_then(|l| l.host().ok())
        .unwrap_or_default();
    let scheme = match location.and_then(|l| l.protocol().ok()).as_deref() {
        Some("https:") => "wss",
        _ => "ws",
    };
    format!("{scheme}://{host}{}", room_path(room, watch))
}

async fn text(resp: &web_sys::Response) -> String {
    match resp.text() {
        Ok(p) => JsFuture::from(p)
            .await
            .ok()
            .and_then(|t| t.as_string())
            .unwrap_or_default(),
        Err(_) => String::new(),
    }
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

/// `{"iceServers":[…]}` read from `JSON.parse`'s object; entries without URLs are left out.
fn ice_list(json: &JsValue) -> Option<IceServers> {
    let list = json_field(json, "iceServers").filter(js_sys::Array::is_array)?;
    let ice_servers = js_sys::Array::from(&list)
        .iter()
        .map(|s| IceServer {
            urls: json_field(&s, "urls").map_or_else(Vec::new, |u| js_strings(&u)),
            username: json_field(&s, "username").and_then(|u| u.as_string()),
            credential: json_field(&s, "credential").and_then(|u| u.as_string()),
        })
        .filter(|s| !s.urls.is_empty())
        .collect();
    Some(IceServers { ice_servers })
}

/// The STUN/TURN servers the relay advertises; `None` when it does not answer with a list.
pub async fn ice_servers() -> Option<Vec<IceServer>> {
    let resp = fetch("/ice-servers").await.filter(|r| r.ok())?;
    let json = js_sys::JSON::parse(&text(&resp).await).ok()?;
    ice_list(&json).map(|list| list.ice_servers)
}

/// What the relay says of a room now (a browser cannot read the status of a refused websocket
/// handshake, so it asks over plain HTTP): what it refuses, or `Err` when it does not answer;
/// and how many players are in it, when it lets us join.
pub async fn probe_room(room: &str, watch: bool) -> (Result<Option<Refusal>, ()>, Option<u32>) {
    let Some((status, json)) = ask_room(&room_path(room, watch)).await else {
        return (Err(()), None);
    };
    // `{"error":"room_full"}` ([`relay_api::Refused`]), or `{"peers":1}`.
    let code = json
        .as_ref()
        .and_then(|j| json_field(j, "error")?.as_string());
    let peers = json.as_ref().and_then(room_answer).map(|a| a.peers);
    (
        Ok(Refusal::from_status_and_code(status, code.as_deref())),
        peers.filter(|_| status == 200),
    )
}
