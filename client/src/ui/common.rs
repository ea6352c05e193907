//! Pieces shared by both game pages: links, player cards, the action bar, the result banner, the
//! new-game dialog, the computer's settings, the keyboard handling of a board and the running of
//! a page model's effects.

use super::computer::Runner;
use super::{navigate, PageModel, Route};
use crate::model::computer::{Effect, Input};
use crate::model::text;
use crate::model::NewGameDialog;
use engine::{Direction, Player};
use std::cell::{Ref, RefCell};
use std::rc::Rc;
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

/// An internal link that changes the page without reloading.
#[component]
pub fn Link(props: &LinkProps) -> Html {
    let onclick = {
        let (to, go) = (props.to, props.go.clone());
        Callback::from(move |e: MouseEvent| {
            if !(e.ctrl_key() || e.meta_key() || e.shift_key()) {
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
            <p {class} data-status={status} data-winner={winner} aria-live="polite">
                { props.text.clone() }
            </p>
            if let Some(n) = &props.notice {
                <p class="notice" role="alert">{ n.clone() }</p>
            }
        </div>
    }
}

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

/// « Annuler », « Nouvelle partie » and « Suggérer un coup », with the suggestion.
#[component]
pub fn Actions(props: &ActionsProps) -> Html {
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
                    { "Annuler" }
                </button>
                <button type="button" class="button secondary" onclick={new}>{ "Nouvelle partie" }</button>
                <button type="button" class="button secondary hint-button" disabled={!props.can_hint}
                    onclick={hint}>{ "Suggérer un coup" }</button>
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
    let oninput = props.on_input.reform(|e: InputEvent| {
        e.target_unchecked_into::<web_sys::HtmlInputElement>()
            .value()
    });
    html! {
        <label class="limit">
            { "Limite de tours (1 à 500) " }
            <input type="number" min="1" max="500" inputmode="numeric"
                value={props.value.clone()} disabled={props.disabled} {oninput}
                aria-invalid={props.invalid.to_string()} />
        </label>
    }
}

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

/// The « Nouvelle partie » confirmation. Escape or « Reprendre la partie » keeps the game.
#[component]
pub fn ConfirmNewGame(props: &DialogProps) -> Html {
    let confirm_ref = use_node_ref();
    {
        let confirm_ref = confirm_ref.clone();
        use_effect_with((), move |_| {
            if let Some(b) = confirm_ref.cast::<web_sys::HtmlElement>() {
                let _ = b.focus();
            }
        });
    }
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
        })
    };
    html! {
        <div class="backdrop" onkeydown={on_key}>
            <form class="dialog" role="dialog" aria-modal="true" aria-labelledby="new-game-title" novalidate=true
                onsubmit={on_submit}>
                <h2 id="new-game-title">{ "Commencer une nouvelle partie ?" }</h2>
                <p>{ "La partie en cours sera abandonnée." }</p>
                { props.children.clone() }
                if props.with_limit {
                    <LimitField value={props.dialog.limit_text.clone()}
                        invalid={props.dialog.error.is_some()} on_input={props.on_limit.clone()} />
                    if let Some(e) = &props.dialog.error {
                        <p class="notice" role="alert">{ e.clone() }</p>
                    }
                }
                <div class="actions">
                    <button type="submit" class="button" ref={confirm_ref}>{ "Commencer" }</button>
                    <button type="button" class="button secondary" onclick={on_cancel}>
                        { "Reprendre la partie" }
                    </button>
                </div>
            </form>
        </div>
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
    format!("pion {}", text::colour(p))
}

/// A page with a board: its focus, how to find the focused element, and its board events.
pub trait BoardPage: PageModel {
    /// The focused point or cell.
    type Focus: Copy + PartialEq + 'static;
    /// The focused point or cell now.
    fn focus(&self) -> Self::Focus;
    /// The CSS selector of its element (`[data-point="3"]`).
    fn selector(focus: Self::Focus) -> String;
    /// The event of an arrow key.
    fn arrow(d: Direction) -> Self::Event;
    /// The event of Enter/Space on the focused point or cell.
    fn activate(focus: Self::Focus) -> Self::Event;
}

/// What a board page needs: its model, a dispatcher, the board's node and its keydown handler;
/// the DOM focus follows the model's focus while the board has it.
pub struct BoardHandles<M: BoardPage> {
    /// The page's model.
    model: Rc<RefCell<M>>,
    /// Sends an event to the model.
    pub dispatch: Callback<M::Event>,
    /// The board's SVG element.
    pub board: NodeRef,
    /// The board's keydown handler.
    pub on_key: Callback<KeyboardEvent>,
    /// A click on a point or cell; the same callback on every render, so that the board redraws
    /// only the points or cells that changed.
    pub on_activate: Callback<M::Focus>,
}

impl<M: BoardPage> BoardHandles<M> {
    /// The model, to render.
    pub fn model(&self) -> Ref<'_, M> {
        self.model.borrow()
    }
}

/// Runs the effects waiting in `outbox` after each render; the computer's answers go to `report`.
/// The worker starts with the first request and stops when the page goes.
#[hook]
fn use_effects(outbox: Rc<RefCell<Vec<Effect>>>, report: Callback<Input>) {
    let runner = use_memo((), move |_| Runner::new(report));
    {
        let runner = runner.clone();
        use_effect(move || {
            let effects = std::mem::take(&mut *outbox.borrow_mut());
            for e in effects {
                runner.run(e);
            }
        });
    }
    use_effect_with((), move |_| move || runner.stop());
}

/// Sets up a board page (see [`BoardHandles`]) with the model `init` makes. An event updates the
/// model in place and renders the page again; the model's effects run after the render (the
/// computer's worker starts with the first request, and stops when the page goes).
#[hook]
pub fn use_board_page<M: BoardPage>(init: fn() -> M) -> BoardHandles<M> {
    let model = use_mut_ref(init);
    let outbox = use_mut_ref(Vec::new);
    let dispatch = {
        let (model, outbox, render) = (model.clone(), outbox.clone(), use_force_update());
        (*use_memo((), move |_| {
            Callback::from(move |e: M::Event| {
                let effects = model.borrow_mut().apply(e);
                outbox.borrow_mut().extend(effects);
                render.force_update();
            })
        }))
        .clone()
    };
    use_effects(outbox, dispatch.reform(M::computer));
    let on_activate = {
        let dispatch = dispatch.clone();
        (*use_memo((), move |_| dispatch.reform(M::activate))).clone()
    };
    let board = use_node_ref();
    let focus = model.borrow().focus();
    {
        let board = board.clone();
        use_effect_with(focus, move |focus| {
            follow_focus(&board, &M::selector(*focus))
        });
    }
    let on_key = {
        let dispatch = dispatch.clone();
        Callback::from(move |e: KeyboardEvent| {
            let event = match board_key(&e) {
                Some(BoardKey::Arrow(d)) => M::arrow(d),
                Some(BoardKey::Activate) => M::activate(focus),
                None => return,
            };
            e.prevent_default();
            dispatch.emit(event);
        })
    };
    BoardHandles {
        model,
        dispatch,
        board,
        on_key,
        on_activate,
    }
}
