//! Moves one can follow, for the boards: the change a board animates ([`use_motion`], from
//! [`crate::model::motion`]), whether the player asked for less motion, the sound of a move, and
//! dragging a Morris piece ([`use_drag`]). All of it is visual or audible only: the points'
//! labels and the page's announcements do not change.

use crate::model::motion::Sound;
use engine::morris::Point;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use yew::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// index.html's player: silent unless the header's sound switch is on.
    #[wasm_bindgen(js_namespace = moulin, js_name = sound, catch)]
    fn play(kind: &str) -> Result<(), JsValue>;
}

/// True when the player asked for less motion (`prefers-reduced-motion: reduce`).
pub fn reduced() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok())
        .flatten()
        .is_some_and(|q| q.matches())
}

/// What changed on the board since the position it showed before, as `what` says (kept while
/// the board shows the same position, so that drawing it again does not stop an animation), and
/// its sound, played once. None for the first position a board shows.
#[hook]
pub fn use_motion<G, M>(
    game: &G,
    what: fn(&G, &G) -> Option<M>,
    sound: fn(&M) -> Sound,
) -> Option<M>
where
    G: Clone + PartialEq + 'static,
    M: Clone + 'static,
{
    let state = use_mut_ref(|| (game.clone(), None::<M>, 0u32));
    let (motion, serial) = {
        let mut s = state.borrow_mut();
        if s.0 != *game {
            s.1 = what(&s.0, game);
            s.0 = game.clone();
            s.2 += u32::from(s.1.is_some());
        }
        (s.1.clone(), s.2)
    };
    let kind = motion.as_ref().map(sound);
    use_effect_with(serial, move |&n| {
        if let Some(k) = kind.filter(|_| n > 0) {
            let _ = play(k.name());
        }
    });
    motion
}

/// A Morris piece being dragged: from where, and where the pointer is in the board's drawing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Drag {
    /// The piece's point.
    pub from: Point,
    /// The pointer, as a fraction of the board's width and height.
    pub at: (f64, f64),
}

/// A press on a piece, before it moves far enough to be a drag.
#[derive(Clone, Copy)]
struct Press {
    from: Point,
    id: i32,
    client: (i32, i32),
    dragging: bool,
}

/// The board's pointer handlers for dragging a piece, and the drag under way.
pub struct DragHandles {
    /// The drag under way, for the board to draw the lifted piece.
    pub drag: Option<Drag>,
    pub down: Callback<PointerEvent>,
    pub moved: Callback<PointerEvent>,
    pub up: Callback<PointerEvent>,
    pub cancel: Callback<PointerEvent>,
    /// The last drop, (from, to): the board does not slide a piece the player carried there.
    pub dropped: Rc<RefCell<Option<(Point, Point)>>>,
}

/// How far (CSS px) a press moves before it is a drag; less is a click.
const DRAG_SLOP: i32 = 6;

/// Dragging a piece on the board `board`: `nearest` finds the point under the pointer (given
/// as a fraction of the board's width and height), `movable` says whether a piece on a point may be dragged now, `legal` whether it
/// may be dropped on a point. A drag selects the piece (as a click would: `activate(from)` when
/// `selected` is not it) and a drop on a legal point plays there (`activate(to)`): the page's
/// click logic decides, as for click-click. A drop anywhere else puts the piece back.
#[hook]
pub fn use_drag(
    board: NodeRef,
    nearest: fn((f64, f64)) -> Option<Point>,
    movable: Rc<dyn Fn(Point) -> bool>,
    legal: Rc<dyn Fn(Point, Point) -> bool>,
    selected: Option<Point>,
    activate: Callback<Point>,
) -> DragHandles {
    let dragging = Dragging {
        board,
        drag: use_state_eq(|| None::<Drag>),
        press: use_mut_ref(|| None::<Press>),
        dropped: use_mut_ref(|| None),
    };
    let (up, cancel) = dragging.on_release(nearest, legal, activate.clone());
    DragHandles {
        drag: *dragging.drag,
        down: dragging.on_press(nearest, movable),
        moved: dragging.on_move(selected, activate),
        up,
        cancel,
        dropped: dragging.dropped,
    }
}

/// [`use_drag`]'s state, which its pointer handlers share.
#[derive(Clone)]
struct Dragging {
    board: NodeRef,
    /// The drag under way, drawn.
    drag: UseStateHandle<Option<Drag>>,
    /// The press under way, drawn only once it is a drag.
    press: Rc<RefCell<Option<Press>>>,
    dropped: Rc<RefCell<Option<(Point, Point)>>>,
}

impl Dragging {
    /// The pointer as a fraction of the board's width and height. (Not the event's current
    /// target: Yew listens at the app's root.)
    fn local(&self, e: &PointerEvent) -> Option<(f64, f64)> {
        let svg: web_sys::Element = self.board.cast()?;
        let r = svg.get_bounding_client_rect();
        (r.width() > 0.0).then(|| {
            (
                (f64::from(e.client_x()) - r.left()) / r.width(),
                (f64::from(e.client_y()) - r.top()) / r.height(),
            )
        })
    }

    /// A press: on a piece that may move, with the main button, it may become a drag.
    fn on_press(
        &self,
        nearest: fn((f64, f64)) -> Option<Point>,
        movable: Rc<dyn Fn(Point) -> bool>,
    ) -> Callback<PointerEvent> {
        let this = self.clone();
        Callback::from(move |e: PointerEvent| {
            // A new press: the last drop is history.
            *this.dropped.borrow_mut() = None;
            let from = this.local(&e).and_then(nearest);
            *this.press.borrow_mut() = from
                .filter(|&p| e.is_primary() && e.button() == 0 && movable(p))
                .map(|from| Press {
                    from,
                    id: e.pointer_id(),
                    client: (e.client_x(), e.client_y()),
                    dragging: false,
                });
        })
    }

    /// The pointer moves: past [`DRAG_SLOP`] the press becomes a drag, which selects its piece,
    /// and the lifted piece follows the pointer.
    fn on_move(
        &self,
        selected: Option<Point>,
        activate: Callback<Point>,
    ) -> Callback<PointerEvent> {
        let this = self.clone();
        Callback::from(move |e: PointerEvent| {
            let mut p = this.press.borrow_mut();
            let Some(pr) = p.as_mut().filter(|pr| pr.id == e.pointer_id()) else {
                return;
            };
            let (dx, dy) = (e.client_x() - pr.client.0, e.client_y() - pr.client.1);
            if !pr.dragging {
                if dx.abs().max(dy.abs()) < DRAG_SLOP {
                    return;
                }
                pr.dragging = true;
                this.capture(&e);
                if selected != Some(pr.from) {
                    activate.emit(pr.from);
                }
            }
            e.prevent_default();
            let from = pr.from;
            drop(p);
            if let Some(at) = this.local(&e) {
                this.drag.set(Some(Drag { from, at }));
            }
        })
    }

    /// The pointer stays with the board, and the click after the drop goes to the board rather
    /// than to a point.
    fn capture(&self, e: &PointerEvent) {
        if let Some(svg) = self.board.cast::<web_sys::Element>() {
            let _ = svg.set_pointer_capture(e.pointer_id());
        }
    }

    /// The handlers that end a press, (up, cancel): a drag released on a legal point plays
    /// there; anywhere else, or cancelled, the piece goes back.
    fn on_release(
        &self,
        nearest: fn((f64, f64)) -> Option<Point>,
        legal: Rc<dyn Fn(Point, Point) -> bool>,
        activate: Callback<Point>,
    ) -> (Callback<PointerEvent>, Callback<PointerEvent>) {
        let this = self.clone();
        let end = move |e: PointerEvent, drop_here: bool| {
            let Some(pr) = this.press.borrow_mut().take() else {
                return;
            };
            if !pr.dragging {
                return;
            }
            this.drag.set(None);
            let to = this.local(&e).and_then(nearest);
            if let Some(to) = to.filter(|&to| drop_here && to != pr.from && legal(pr.from, to)) {
                *this.dropped.borrow_mut() = Some((pr.from, to));
                activate.emit(to);
            }
        };
        let up = {
            let end = end.clone();
            Callback::from(move |e| end(e, true))
        };
        (up, Callback::from(move |e| end(e, false)))
    }
}

/// What a Morris point animates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointMotion {
    /// A piece put here from the reserve.
    Placed,
    /// A piece slid here from (dx, dy) away, in the drawing's units.
    Slid(i32, i32),
    /// A piece flew here from (dx, dy) away.
    Flown(i32, i32),
    /// This player's piece was taken here.
    Taken(engine::Player),
}

impl PointMotion {
    /// What `m` animates on `p`, with `xy` placing points in the drawing; `carried`: the player
    /// dragged the piece there (no slide then).
    pub fn of(
        m: &crate::model::motion::MorrisMotion,
        p: Point,
        xy: fn(Point) -> (i32, i32),
        carried: bool,
    ) -> Option<PointMotion> {
        use crate::model::motion::Step;
        if m.capture == Some(p) {
            return Some(PointMotion::Taken(m.player.opponent()));
        }
        let step = m.step.filter(|s| s.to() == p && !carried)?;
        let from = |from: Point| {
            let ((x0, y0), (x1, y1)) = (xy(from), xy(p));
            (x0 - x1, y0 - y1)
        };
        Some(match step {
            Step::Place(_) => PointMotion::Placed,
            Step::Slide { from: f, .. } => {
                let (dx, dy) = from(f);
                PointMotion::Slid(dx, dy)
            }
            Step::Fly { from: f, .. } => {
                let (dx, dy) = from(f);
                PointMotion::Flown(dx, dy)
            }
        })
    }

    /// Its class on the point (style.css, « Moves one can follow »).
    pub fn class(self) -> &'static str {
        match self {
            PointMotion::Placed => "placed",
            PointMotion::Slid(..) => "slid",
            PointMotion::Flown(..) => "flown",
            PointMotion::Taken(_) => "taken",
        }
    }

    /// The offset the piece comes from, for the animation.
    pub fn style(self) -> Option<String> {
        match self {
            PointMotion::Slid(dx, dy) | PointMotion::Flown(dx, dy) => {
                Some(format!("--dx:{dx}px;--dy:{dy}px"))
            }
            _ => None,
        }
    }
}
