//! The hot-seat and computer pages' hook: a page's model updated in place on each event, its
//! effects (the computer's worker) run after each render, the board's keyboard focus, and the
//! game kept in the browser's storage (read when the page opens, written after each event).

use super::browser;
use super::common::{board_key, follow_focus, BoardKey};
use super::computer::Runner;
use super::game::GameView;
use super::history::use_history_keys;
use crate::model::computer::{Effect, Input};
use crate::model::game::{Event, Model, PageGame};
use crate::model::history::Nav;
use engine::Direction;
use std::cell::{Ref, RefCell};
use std::rc::Rc;
use yew::prelude::*;

/// A page's model, as [`use_board_page`] drives it.
pub trait PageModel: 'static {
    /// The events it takes.
    type Event;
    /// Applies one event; what the page must do.
    fn apply(&mut self, event: Self::Event) -> Vec<Effect>;
    /// The event of a report from the computer's worker or timer.
    fn computer(input: Input) -> Self::Event;
    /// What the browser keeps of the page (`model::saved`).
    fn saved(&self) -> String;
    /// Takes back the text kept, found when the page opens.
    fn restore(&mut self, text: &str) -> Vec<Effect>;
}

impl<G: PageGame> PageModel for Model<G> {
    type Event = Event<G>;
    fn apply(&mut self, event: Event<G>) -> Vec<Effect> {
        self.update(event)
    }
    fn computer(input: Input) -> Event<G> {
        Event::Computer(input)
    }
    fn saved(&self) -> String {
        Model::saved(self)
    }
    fn restore(&mut self, text: &str) -> Vec<Effect> {
        Model::restore(self, text)
    }
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
    /// The event of a step through the history.
    fn history(nav: Nav) -> Self::Event;
}

impl<G: GameView> BoardPage for Model<G> {
    type Focus = G::Focus;
    fn focus(&self) -> G::Focus {
        self.focus
    }
    fn selector(focus: G::Focus) -> String {
        G::selector(focus)
    }
    fn arrow(d: Direction) -> Event<G> {
        Event::Arrow(d)
    }
    fn activate(focus: G::Focus) -> Event<G> {
        Event::Activate(focus)
    }
    fn history(nav: Nav) -> Event<G> {
        Event::History(nav)
    }
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

/// Sets up a board page (see [`BoardHandles`]) with the model `init` makes, and the game kept
/// in the browser's storage under `key` (the model takes it back, or ignores what it cannot
/// read). An event updates the model in place, keeps what changed under `key` and renders the
/// page again; the model's effects run after the render (the computer's worker starts with
/// the first request, and stops when the page goes).
#[hook]
pub fn use_board_page<M: BoardPage>(init: fn() -> M, key: &'static str) -> BoardHandles<M> {
    let outbox = use_mut_ref(Vec::new);
    let kept = use_mut_ref(String::new);
    let model = {
        let (outbox, kept) = (outbox.clone(), kept.clone());
        use_mut_ref(move || {
            let mut model = init();
            if let Some(text) = browser::stored(key) {
                outbox.borrow_mut().extend(model.restore(&text));
            }
            *kept.borrow_mut() = model.saved();
            model
        })
    };
    let dispatch = {
        let (model, outbox, render) = (model.clone(), outbox.clone(), use_force_update());
        (*use_memo((), move |_| {
            Callback::from(move |e: M::Event| {
                let effects = model.borrow_mut().apply(e);
                outbox.borrow_mut().extend(effects);
                let now = model.borrow().saved();
                if *kept.borrow() != now {
                    browser::store(key, &now);
                    *kept.borrow_mut() = now;
                }
                render.force_update();
            })
        }))
        .clone()
    };
    use_effects(outbox, dispatch.reform(M::computer));
    use_history_keys(dispatch.reform(M::history));
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
