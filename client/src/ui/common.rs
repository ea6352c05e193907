//! Pieces shared by both game pages: links, player cards, the action bar, the result banner, the
//! new-game dialog, the computer's settings, the keyboard handling of a board and the running of
//! a page model's effects.

use super::words;
use super::{navigate, use_lang, Route};
use crate::i18n::t;
use crate::model::rules::{RulesForm, RulesInput};
use crate::model::text;
use crate::model::NewGameDialog;
use engine::morris::{Param, Rules};
use engine::{Direction, Player};
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct LinkProps {
    pub to: Route,
    pub go: Callback<Route>,
    #[prop_or_default]
    pub class: Classes,
    #[prop_or_default]
    pub children: Html,
}

/// An internal link: it changes the page without reloading when this bundle shows the route,
/// else the browser loads it.
#[component]
pub fn Link(props: &LinkProps) -> Html {
    let onclick = {
        let (to, go) = (props.to, props.go.clone());
        Callback::from(move |e: MouseEvent| {
            if to.here() && !(e.ctrl_key() || e.meta_key() || e.shift_key()) {
                e.prevent_default();
                navigate(to, &go);
            }
        })
    };
    html! {
        <a href={props.to.path()} class={props.class.clone()} {onclick}>{ props.children.clone() }</a>
    }
}

#[derive(Properties, PartialEq)]
pub struct NoWebRtcProps {
    pub kind: engine::GameKind,
    /// The sentence: the lobby's or the room's.
    pub text: &'static str,
    pub go: Callback<Route>,
}

/// This browser has no WebRTC: says so at once, with what to do, and offers the games that need
/// none (`data-no-webrtc`).
#[component]
pub fn NoWebRtcNotice(props: &NoWebRtcProps) -> Html {
    use_lang();
    let hot_seat = match props.kind {
        engine::GameKind::Morris => Route::Morris,
        engine::GameKind::Meta => Route::Meta,
    };
    html! {
        <section class="panel no-webrtc" role="alert" data-no-webrtc="">
            <p>{ words(props.text) }</p>
            <p>{ words(t::play_here_instead()) }{ " " }
                <Link to={hot_seat} go={props.go.clone()}>{ words(t::play_here_hot_seat()) }</Link>
                { " · " }
                <Link to={Route::Computer(props.kind)} go={props.go.clone()}>{ words(t::play_here_computer()) }</Link>
            </p>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct PlayerCardProps {
    pub player: Player,
    pub active: bool,
    pub title: AttrValue,
    pub detail: AttrValue,
}

/// A player's name, colour and stage; highlighted while it is their turn.
#[component]
pub fn PlayerCard(props: &PlayerCardProps) -> Html {
    let class = classes!(
        "player",
        if props.player == Player::Blue {
            "blue"
        } else {
            "red"
        },
        props.active.then_some("active")
    );
    html! {
        <div {class} data-player={props.player.index().to_string()}>
            <span class="swatch" aria-hidden="true"></span>
            <div>
                <strong>{ props.title.clone() }</strong>
                <div class="detail">{ props.detail.clone() }</div>
            </div>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct StatusProps {
    /// `None` while the game is played, else the winner (`None` for a draw).
    pub result: Option<Option<Player>>,
    pub text: AttrValue,
    #[prop_or_default]
    pub notice: Option<AttrValue>,
}

/// The result area: whose turn or the result (with the end-to-end hooks), and the last refusal.
/// The viewer's address of a record, which its fragment carries (it never leaves the browser).
pub fn viewer_link(record: &str) -> String {
    format!(
        "/partie#r={}",
        String::from(js_sys::encode_uri_component(record))
    )
}

#[derive(Properties, PartialEq)]
pub struct GameLinkProps {
    /// The viewer's address of the finished game, its record in the fragment.
    pub href: String,
    /// Words after the link (the room's: how to get the signed transcript).
    #[prop_or_default]
    pub more: Option<&'static str>,
}

/// A finished game to look back at and to pass on: the viewer's link, whose fragment carries the
/// record (it never reaches a server), a button that copies it whole and, where the browser has
/// one, its share sheet.
#[component]
pub fn GameLink(props: &GameLinkProps) -> Html {
    use_lang();
    let copied = use_state(|| None::<bool>);
    let absolute = super::browser::absolute(&props.href);
    let on_copy = {
        let (copied, url) = (copied.clone(), absolute.clone());
        Callback::from(move |_: MouseEvent| {
            let copied = copied.clone();
            super::browser::copy_text(&url, move |ok| copied.set(Some(ok)));
        })
    };
    let on_share = {
        let url = absolute.clone();
        Callback::from(move |_: MouseEvent| super::browser::share(t::game_share_text(), &url))
    };
    html! {
        <div class="game-link">
            <p class="review"><a href={props.href.clone()} data-review="">{ words(t::review()) }</a>
                if let Some(more) = props.more { { " " }{ words(more) } }</p>
            <p class="actions">
                <button type="button" class="button secondary" data-copy-game="" onclick={on_copy}>
                    { words(t::game_link_copy()) }</button>
                if super::browser::can_share() {
                    <button type="button" class="button secondary" data-share-game="" onclick={on_share}>
                        { words(t::game_share()) }</button>
                }
            </p>
            if let Some(ok) = *copied {
                <p class="hint" role="status" data-copied={ok.to_string()}>
                    { words(if ok { t::game_link_copied() } else { t::game_link_failed() }) }</p>
            }
        </div>
    }
}

#[component]
pub fn Status(props: &StatusProps) -> Html {
    let (status, winner) = match props.result {
        None => ("playing", None),
        Some(Some(w)) => ("won", Some(w.index().to_string())),
        Some(None) => ("draw", None),
    };
    let class = classes!(
        "status",
        (status != "playing").then_some("over"),
        props.result.flatten().map(|w| match w {
            Player::Blue => "blue",
            Player::Red => "red",
        })
    );
    html! {
        <div class="status-area">
            <p {class} data-status={status} data-winner={winner}>
                { props.text.clone() }
            </p>
            if let Some(n) = &props.notice {
                <p class="notice" role="alert">{ n.clone() }</p>
            }
        </div>
    }
}

#[cfg(feature = "local")]
#[derive(Properties, PartialEq)]
pub struct ActionsProps {
    pub can_undo: bool,
    pub on_undo: Callback<()>,
    pub on_new: Callback<()>,
    /// The colour of the undo button, when it follows the last mover.
    #[prop_or_default]
    pub undo_colour: Option<Player>,
    /// « Suggérer un coup », when it can ask now.
    pub can_hint: bool,
    pub on_hint: Callback<()>,
    /// The line under the buttons: the search, the suggestion or why there is none.
    pub hint: Option<String>,
}

#[cfg(feature = "local")]
/// « Annuler », « Nouvelle partie » and « Suggérer un coup », with the suggestion.
#[component]
pub fn Actions(props: &ActionsProps) -> Html {
    use_lang();
    let undo = props.on_undo.reform(|_: MouseEvent| ());
    let new = props.on_new.reform(|_: MouseEvent| ());
    let hint = props.on_hint.reform(|_: MouseEvent| ());
    let undo_class = classes!(
        "button",
        props.undo_colour.map(|p| match p {
            Player::Blue => "blue",
            Player::Red => "red",
        })
    );
    html! {
        <>
            <div class="actions">
                <button type="button" class={undo_class} disabled={!props.can_undo} onclick={undo}>
                    { words(t::undo()) }
                </button>
                <button type="button" class="button secondary" onclick={new}>{ words(t::new_game()) }</button>
                <button type="button" class="button secondary hint-button" disabled={!props.can_hint}
                    onclick={hint}>{ words(t::suggest()) }</button>
            </div>
            <p class="hint-line" aria-live="polite">{ props.hint.clone().unwrap_or_default() }</p>
        </>
    }
}

#[derive(Properties, PartialEq)]
pub struct LimitFieldProps {
    /// The limit as typed.
    pub value: AttrValue,
    #[prop_or_default]
    pub disabled: bool,
    /// The typed value was refused.
    pub invalid: bool,
    /// The new text on each keystroke.
    pub on_input: Callback<String>,
}

/// The Morris turn-limit field, « Limite de tours (1 à 500) », wherever it is set.
#[component]
pub fn LimitField(props: &LimitFieldProps) -> Html {
    use_lang();
    let oninput = props.on_input.reform(|e: InputEvent| {
        e.target_unchecked_into::<web_sys::HtmlInputElement>()
            .value()
    });
    html! {
        <label class="limit">
            { words(t::limit_field()) }{ " " }
            <input type="number" min="1" max="500" inputmode="numeric"
                value={props.value.clone()} disabled={props.disabled} {oninput}
                aria-invalid={props.invalid.to_string()} />
        </label>
    }
}

#[derive(Properties, PartialEq)]
pub struct RulesFieldProps {
    /// The rules as chosen, and the `quiet` number as typed.
    pub form: RulesForm,
    #[prop_or_default]
    pub disabled: bool,
    /// Each change: a named set, a parameter, the `quiet` number as typed.
    pub on_input: Callback<RulesInput>,
}

/// The Morris rules choice, wherever they are set (before the first move, in « Nouvelle partie
/// », a room's options): « Règles du jeu » with the named sets by name (« Personnalisées » when
/// the rules are none of them), and « Régler les règles une à une »: pieces, diagonals, flying,
/// Lasker and the number of turns without a capture that draws (0–500, refused otherwise with
/// its message). `data-rules` carries the canonical form.
// The room's bundle offers it to a host once the room page sets the rules.
#[cfg_attr(not(feature = "local"), allow(dead_code))]
#[component]
pub fn RulesField(props: &RulesFieldProps) -> Html {
    use_lang();
    let rules = props.form.rules;
    let named = props.form.named();
    let input = props.on_input.clone();
    let on_set = input.reform(|e: Event| {
        let name = e
            .target_unchecked_into::<web_sys::HtmlSelectElement>()
            .value();
        RulesInput::Named(Rules::named(&name).unwrap_or_default())
    });
    let sets = text::RULE_SETS.iter().map(|&(r, name)| {
        html! {
            <option value={r.name().unwrap_or_default()} selected={named == Some(r)}>{ name() }</option>
        }
    });
    let on_pieces = input.reform(|e: Event| {
        let value = e
            .target_unchecked_into::<web_sys::HtmlSelectElement>()
            .value();
        RulesInput::Param(Param::Pieces, value.parse().unwrap_or(0))
    });
    let pieces = Param::Pieces.range().map(|n| {
        html! { <option value={n.to_string()} selected={u16::from(rules.pieces()) == n}>{ n }</option> }
    });
    let switch = |param: Param, on: bool, label: &'static str| {
        let onchange = input.reform(move |e: Event| {
            let checked = e
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .checked();
            RulesInput::Param(param, u16::from(checked))
        });
        html! {
            <label class="switch"><input type="checkbox" checked={on} {onchange} />{ words(label) }</label>
        }
    };
    let on_quiet = input.reform(|e: InputEvent| {
        RulesInput::Quiet(
            e.target_unchecked_into::<web_sys::HtmlInputElement>()
                .value(),
        )
    });
    let error = props.form.error.as_ref().map(|e| e.get());
    html! {
        <fieldset class="rules-choice" disabled={props.disabled} data-rules={rules.to_string()}>
            <label class="rules-set">
                { words(t::rules_field()) }{ " " }
                <select onchange={on_set}>
                    { for sets }
                    if named.is_none() {
                        <option value="" selected=true disabled=true>{ words(t::rules_custom_option()) }</option>
                    }
                </select>
            </label>
            <details class="custom-rules" open={props.form.unfolded}>
                <summary>{ words(t::rules_custom_summary()) }</summary>
                <label>{ words(t::pieces_field()) }{ " " }<select onchange={on_pieces}>{ for pieces }</select></label>
                { switch(Param::Diagonals, rules.diagonals(), t::diagonals_field()) }
                { switch(Param::Flying, rules.flying(), t::flying_field()) }
                { switch(Param::Lasker, rules.lasker(), t::lasker_field()) }
                <label class="limit">{ words(t::quiet_field()) }{ " " }
                    <input type="number" min="0" max="500" inputmode="numeric"
                        value={props.form.quiet_text.clone()} oninput={on_quiet}
                        aria-invalid={error.is_some().to_string()} />
                </label>
                if let Some(e) = error {
                    <p class="notice" role="alert">{ e }</p>
                }
            </details>
        </fieldset>
    }
}

#[derive(Properties, PartialEq)]
pub struct ColoursFieldProps {
    /// Colours drawn by lot (else alternating).
    pub lot: bool,
    #[prop_or_default]
    pub disabled: bool,
    pub on_change: Callback<bool>,
}

/// A room's colours, chosen by its host: « Alternées » or « Tirées au sort à chaque partie »
/// (`data-colours="alternate|lot"`).
#[cfg_attr(not(feature = "local"), allow(dead_code))]
#[component]
pub fn ColoursField(props: &ColoursFieldProps) -> Html {
    use_lang();
    let option = |lot: bool, label: &'static str| {
        let onchange = props.on_change.reform(move |_: Event| lot);
        html! {
            <label class="switch"><input type="radio" name="colours" checked={props.lot == lot}
                disabled={props.disabled} {onchange} />{ words(label) }</label>
        }
    };
    html! {
        <fieldset class="colours-choice" data-colours={if props.lot { "lot" } else { "alternate" }}>
            <legend>{ words(t::colours_choice()) }</legend>
            { option(false, t::colours_choice_alternate()) }
            { option(true, t::colours_choice_lot()) }
        </fieldset>
    }
}

/// The rules panel's words for Morris: « Règles en vigueur : … » (`data-rules`: the canonical
/// form), then the rules in sentences ([`text::rules_words`]).
#[cfg_attr(not(feature = "local"), allow(dead_code))]
pub fn rules_in_words(rules: Rules) -> Html {
    let name = text::rules_name(rules);
    let paragraphs = text::rules_words(rules)
        .into_iter()
        .map(|p| html! { <p>{ p }</p> });
    html! {
        <>
            <p class="rules-name" data-rules={rules.to_string()}><strong>{ t::rules_in_force(&name) }</strong></p>
            { for paragraphs }
        </>
    }
}

#[cfg(feature = "local")]
#[derive(Properties, PartialEq)]
pub struct DialogProps {
    pub dialog: NewGameDialog,
    /// Shows the turn-limit field (Morris).
    pub with_limit: bool,
    pub on_limit: Callback<String>,
    pub on_confirm: Callback<()>,
    pub on_cancel: Callback<()>,
    /// More settings (against the computer: its level and the player's side).
    #[prop_or_default]
    pub children: Html,
}

#[cfg(feature = "local")]
/// The « Nouvelle partie » confirmation. Escape or « Reprendre la partie » keeps the game.
#[component]
pub fn ConfirmNewGame(props: &DialogProps) -> Html {
    use_lang();
    let form = use_node_ref();
    use_dialog_focus(form.clone());
    let on_submit = {
        let confirm = props.on_confirm.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            confirm.emit(());
        })
    };
    let on_cancel = props.on_cancel.reform(|_: MouseEvent| ());
    let on_key = {
        let cancel = props.on_cancel.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                cancel.emit(());
            }
            keep_tab_inside(&e);
        })
    };
    html! {
        <div class="backdrop" onkeydown={on_key}>
            <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="new-game-title">
            <form novalidate=true onsubmit={on_submit} ref={form}>
                <h2 id="new-game-title">{ words(t::new_game_title()) }</h2>
                <p>{ words(t::new_game_text()) }</p>
                { props.children.clone() }
                if props.with_limit {
                    <LimitField value={props.dialog.limit_text.clone()}
                        invalid={props.dialog.error.is_some()} on_input={props.on_limit.clone()} />
                    if let Some(e) = &props.dialog.error {
                        <p class="notice" role="alert">{ e.get() }</p>
                    }
                }
                <div class="actions">
                    <button type="submit" class="button">{ words(t::start()) }</button>
                    <button type="button" class="button secondary" onclick={on_cancel}>
                        { words(t::resume()) }
                    </button>
                </div>
            </form>
            </div>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct AnnouncerProps {
    /// The last announcement.
    pub text: AttrValue,
    /// Its number: a new one replaces the node, so that the same words are read again.
    pub serial: u32,
}

/// The polite live region that reads the moves aloud (hidden from sight: the board and the
/// status line show them).
#[component]
pub fn Announcer(props: &AnnouncerProps) -> Html {
    html! {
        <div class="sr-only" aria-live="polite" aria-atomic="true" data-announce={props.serial.to_string()}>
            <span key={props.serial.to_string()}>{ props.text.clone() }</span>
        </div>
    }
}

/// A dialog's keyboard focus: the first button inside `node` takes it when the dialog opens
/// (its backdrop's keys go to [`keep_tab_inside`]); when the dialog goes, the focus returns to
/// the element that had it, or to the board when that element is gone or disabled — never lost
/// on the page's body.
#[hook]
pub fn use_dialog_focus(node: NodeRef) {
    use_effect_with((), move |_| {
        let doc = web_sys::window().and_then(|w| w.document());
        let opener = doc.as_ref().and_then(|d| d.active_element());
        let inside = node.cast::<web_sys::Element>();
        let dialog = inside
            .as_ref()
            .and_then(|e| e.closest(".backdrop").ok().flatten())
            .or(inside.clone());
        if let Some(b) = inside.and_then(|e| e.query_selector("button").ok().flatten()) {
            focus_on(&b);
        }
        move || {
            let Some(doc) = doc else { return };
            // The focus left the dialog for another element (a click elsewhere): it stays there.
            let active = doc.active_element();
            let body = doc.body().map(web_sys::Element::from);
            let lost = match (&active, &dialog) {
                (None, _) => true,
                (Some(a), d) => {
                    body.as_ref() == Some(a) || d.as_ref().is_some_and(|d| d.contains(Some(a)))
                }
            };
            if !lost {
                return;
            }
            let usable = |e: &web_sys::Element| {
                e.is_connected()
                    && !e.matches(":disabled").unwrap_or(true)
                    && dialog.as_ref().is_none_or(|d| !d.contains(Some(e)))
                    && body.as_ref() != Some(e)
            };
            let target = opener.filter(usable).or_else(|| {
                doc.query_selector("svg.board [tabindex=\"0\"]")
                    .ok()
                    .flatten()
            });
            if let Some(t) = target {
                focus_on(&t);
            }
        }
    });
}

/// A dialog's backdrop's keydown: Tab on the dialog's last control goes to its first,
/// Shift+Tab on its first to its last — the focus never reaches the page behind the dialog.
pub fn keep_tab_inside(e: &KeyboardEvent) {
    if e.key() != "Tab" || e.alt_key() || e.ctrl_key() || e.meta_key() {
        return;
    }
    // The key's target, not its current target: Yew listens at the page's root.
    let Some(dialog) = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|t| t.closest(".backdrop").ok().flatten())
    else {
        return;
    };
    // Every dialog ends with its row of buttons; its first control may be a field.
    let find = |css: &str| dialog.query_selector(css).ok().flatten();
    let (Some(first), Some(last)) = (
        find("input, select, button"),
        find(".actions button:last-child"),
    ) else {
        return;
    };
    let active = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element());
    let to = match active {
        Some(a) if e.shift_key() && a == first => last,
        Some(a) if !e.shift_key() && a == last => first,
        Some(a) if dialog.contains(Some(&a)) => return,
        _ => first,
    };
    e.prevent_default();
    focus_on(&to);
}

/// Focuses an HTML or SVG element.
fn focus_on(e: &web_sys::Element) {
    if let Some(h) = e.dyn_ref::<web_sys::HtmlElement>() {
        let _ = h.focus();
    } else if let Some(s) = e.dyn_ref::<web_sys::SvgElement>() {
        let _ = s.focus();
    }
}

/// What a key on a board asks for.
pub enum BoardKey {
    /// Move the focus.
    Arrow(Direction),
    /// Act on the focused point or cell.
    Activate,
}

/// Reads a keydown on a board; `None` for keys the board ignores (Tab among them).
pub fn board_key(e: &KeyboardEvent) -> Option<BoardKey> {
    if e.alt_key() || e.ctrl_key() || e.meta_key() {
        return None;
    }
    match e.key().as_str() {
        "Enter" | " " | "Spacebar" => Some(BoardKey::Activate),
        key => Direction::from_key(key).map(BoardKey::Arrow),
    }
}

/// Moves the DOM focus to `selector` inside `board` when the focus is already in the board, so
/// that arrow keys carry it along (the board stays a single Tab stop: one element has
/// `tabindex="0"`).
pub fn follow_focus(board: &NodeRef, selector: &str) {
    let Some(board) = board.cast::<web_sys::Element>() else {
        return;
    };
    let active = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element());
    let inside = active.is_some_and(|a| board.contains(Some(&a)));
    if !inside {
        return;
    }
    if let Ok(Some(target)) = board.query_selector(selector) {
        if let Ok(svg) = target.dyn_into::<web_sys::SvgElement>() {
            let _ = svg.focus();
        }
    }
}

/// A short label for a player's pieces: « pion bleu ».
pub fn piece_label(p: Player) -> String {
    t::piece_of(text::colour(p))
}

pub use crate::model::text::{game_name, heading_name};
