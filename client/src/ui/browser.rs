//! The few browser services every page may use, each behind a small function: the clock, a
//! timer to await, random bytes, the clipboard, the share sheet, the location. The remote pages'
//! own (storage, locks, WebRTC connections, the relay) are in `ui/room/web.rs`.

use relay_api::RoomAnswer;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The wall clock, in ms since the epoch (what the session's times are).
pub fn now_ms() -> u64 {
    js_sys::Date::now() as u64
}

/// Milliseconds since the page's navigation started.
pub fn performance_now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Bytes from the browser's cryptographic random source.
pub fn random<const N: usize>() -> Option<[u8; N]> {
    let mut buf = [0u8; N];
    web_sys::window()?
        .crypto()
        .ok()?
        .get_random_values_with_u8_array(&mut buf)
        .ok()?;
    Some(buf)
}

/// Whether this browser can make WebRTC connections (`RTCPeerConnection` exists; a privacy
/// setting such as Firefox's `media.peerconnection.enabled=false` removes it). The room's link
/// asks the same (`client_net::webrtc_available`); the lobby, in the other bundle, asks here.
/// `Reflect`: web-sys has no typed way to ask whether a global exists.
pub fn webrtc_available() -> bool {
    js_sys::Reflect::get(&js_sys::global(), &"RTCPeerConnection".into())
        .is_ok_and(|v| v.is_function())
}

/// The text kept under `key` in the browser's storage (`localStorage`: shared by the site's
/// tabs, kept when they close), if any and if the storage can be read.
pub fn stored(key: &str) -> Option<String> {
    web_sys::window()?
        .local_storage()
        .ok()??
        .get_item(key)
        .ok()?
}

/// Keeps `text` under `key` in the browser's storage; false when it refuses (blocked for the
/// site, or full).
pub fn store(key: &str, text: &str) -> bool {
    web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .is_some_and(|s| s.set_item(key, text).is_ok())
}

/// How many players the relay counts in a room now (`GET /ws/<room>`: [`RoomAnswer`], or 409 when
/// it holds two); `None` when the relay does not answer, or refuses for another reason.
pub async fn room_peers(room: &str) -> Option<u32> {
    let resp = fetch(&format!("/ws/{room}")).await?;
    match resp.status() {
        409 => Some(2),
        200 => {
            let text = JsFuture::from(resp.text().ok()?).await.ok()?.as_string()?;
            let answer = room_answer(&js_sys::JSON::parse(&text).ok()?)?;
            (answer.peers <= 2).then_some(answer.peers)
        }
        _ => None,
    }
}

/// The relay's answer to a plain `GET /ws/<room>` (`relay_api`): its status, and its body as
/// `JSON.parse` reads it (`None` when it is no JSON); `None` when the relay does not answer.
pub async fn ask_room(path: &str) -> Option<(u16, Option<JsValue>)> {
    let resp = fetch(path).await?;
    let text = JsFuture::from(resp.text().ok()?).await.ok()?.as_string()?;
    Some((resp.status(), js_sys::JSON::parse(&text).ok()))
}

/// `fetch(url)`'s response, if the browser got one.
pub async fn fetch(url: &str) -> Option<web_sys::Response> {
    let promise = web_sys::window()?.fetch_with_str(url);
    JsFuture::from(promise).await.ok()?.dyn_into().ok()
}

/// A field of an object `JSON.parse` made (`None` if it is absent, or the value no object). The
/// relay's answers are read this way rather than with serde_json, which would cost the bundles
/// kilobytes (docs/architecture.md, « What the relay says »); `Reflect` because such an object
/// has no typed API.
pub fn json_field(json: &JsValue, name: &str) -> Option<JsValue> {
    if !json.is_object() {
        return None;
    }
    js_sys::Reflect::get(json, &name.into())
        .ok()
        .filter(|v| !v.is_undefined())
}

/// `{"peers":N}` read from `JSON.parse`'s object.
pub fn room_answer(json: &JsValue) -> Option<RoomAnswer> {
    let peers = json_field(json, "peers")?.as_f64()?;
    let whole = peers >= 0.0 && peers.fract() == 0.0 && peers <= f64::from(u32::MAX);
    whole.then_some(RoomAnswer {
        peers: peers as u32,
    })
}

/// A seed from the browser's random source (0 if it has none): the computer's games vary with it.
pub fn seed() -> u64 {
    random::<8>().map_or(0, u64::from_le_bytes)
}

/// Runs `f` in a task of its own, after the page has shown what the current one changed. Not
/// gloo's `Timeout::forget`, which would keep each callback's JavaScript function for good: this
/// one is freed once called.
pub fn soon(f: impl FnOnce() + 'static) {
    let f = wasm_bindgen::closure::Closure::once_into_js(f);
    if let Some(w) = web_sys::window() {
        let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(f.unchecked_ref(), 0);
    }
}

/// Sets the tab's title [`soon`]: in Chromium a new title costs milliseconds, which a move must
/// not wait for.
pub fn set_title_soon(title: String) {
    soon(move || {
        if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
            if doc.title() != title {
                doc.set_title(&title);
            }
        }
    });
}

/// The URL fragment (with its `#`).
pub fn location_hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// The page's whole URL.
pub fn location_href() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default()
}

/// A path of this site as a whole URL, to pass on (the page's origin first; the path alone
/// when the origin cannot be read).
pub fn absolute(path: &str) -> String {
    web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .map_or_else(|| path.to_string(), |o| format!("{o}{path}"))
}

/// Copies text to the clipboard, then says whether the browser did: it may refuse (no
/// permission; no clipboard at all in a page served without HTTPS but from this machine).
pub fn copy_text(text: &str, done: impl FnOnce(bool) + 'static) {
    // `navigator.clipboard` is undefined where there is none, which web-sys's type does not say:
    // asked before using it.
    let clipboard = web_sys::window()
        .map(|w| w.navigator().clipboard())
        .filter(|c| !c.is_undefined())
        .map(|c| c.write_text(text));
    wasm_bindgen_futures::spawn_local(async move {
        let ok = match clipboard {
            Some(promise) => JsFuture::from(promise).await.is_ok(),
            None => false,
        };
        done(ok);
    });
}

/// Whether the browser has a share sheet (`navigator.share`: most phones, some desktops). Asked
/// with `Reflect`: web-sys has no typed way to ask whether a method exists.
pub fn can_share() -> bool {
    web_sys::window()
        .is_some_and(|w| js_sys::Reflect::has(&w.navigator(), &"share".into()).unwrap_or(false))
}

/// Opens the browser's share sheet with a text and a link (none when `url` is empty). What the
/// player does there (share, or close it) is theirs: nothing comes back to the page.
pub fn share(text: &str, url: &str) {
    let Some(nav) = web_sys::window().map(|w| w.navigator()) else {
        return;
    };
    let data = web_sys::ShareData::new();
    data.set_text(text);
    if !url.is_empty() {
        data.set_url(url);
    }
    let sheet = JsFuture::from(nav.share_with_data(&data));
    // Awaited so that a sheet closed without sharing (a rejection) is not an uncaught error.
    wasm_bindgen_futures::spawn_local(async move {
        let _ = sheet.await;
    });
}

/// A `data:` URL holding text, for a download link.
pub fn data_url(text: &str) -> String {
    format!(
        "data:text/plain;charset=utf-8,{}",
        String::from(js_sys::encode_uri_component(text))
    )
}

/// Sleeps `ms` milliseconds (at most 2³¹ − 1, the browser's limit); dropping the future cancels
/// the browser's timer.
pub fn sleep(ms: u64) -> gloo_timers::future::TimeoutFuture {
    gloo_timers::future::TimeoutFuture::new(ms.min(i32::MAX as u64) as u32)
}
