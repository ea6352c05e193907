//! The two boards as SVG components: they draw a game state (with the last move and a hint) and
//! report clicks and keys; the pages (hot-seat, against the computer, remote) decide what a
//! click means.

use super::common::piece_label;
use super::motion::{self as moving, use_drag, use_motion, PointMotion};
use super::use_lang;
use super::words;
use crate::i18n::t;
use crate::model::motion;
use crate::model::text;
use engine::meta::{Cell, Meta, SmallBoard};
use engine::morris::{Morris, Phase, Point, Points, Turn};
use engine::Player;
use std::rc::Rc;
use yew::prelude::*;

/// Where the browser keeps the coordinates setting: `"off"` hides them (shown by default).
pub const COORDS_KEY: &str = "moulin-coords-v1";

/// True unless the player hid the coordinates ([`COORDS_KEY`]).
pub fn coords_shown() -> bool {
    super::browser::stored(COORDS_KEY).as_deref() != Some("off")
}

/// The coordinates setting of a local page, with the callback that changes and keeps it.
#[hook]
pub fn use_coords() -> (bool, Callback<bool>) {
    let shown = use_state(coords_shown);
    let set = shown.setter();
    (
        *shown,
        Callback::from(move |on: bool| {
            super::browser::store(COORDS_KEY, if on { "on" } else { "off" });
            set.set(on);
        }),
    )
}

/// The coordinates along a board's left and bottom edges, in the drawing's margin: the `n`
/// ranks' numbers at `x = left` (the highest at the top) and the files' letters at
/// `y = bottom`, the i-th of each centred on `centre(i)`. Decoration for the eye: every point
/// and cell already names itself to a screen reader.
fn coordinates(n: u8, centre: impl Fn(u8) -> i32, left: i32, bottom: i32) -> Html {
    let labels = (0..n).map(|i| {
        let c = centre(i).to_string();
        html! {
            <>
                <text x={left.to_string()} y={c.clone()}>{ (n - i).to_string() }</text>
                <text x={c} y={bottom.to_string()}>{ char::from(b'a' + i).to_string() }</text>
            </>
        }
    });
    html! { <g class="coords" aria-hidden="true" data-coords="">{ for labels }</g> }
}

/// Screen position of a point in the 700 × 700 drawing.
fn xy(p: Point) -> (i32, i32) {
    let (file, rank) = p.coords();
    (50 + 100 * file as i32, 50 + 100 * (6 - rank as i32))
}

/// A spot of the board drawn with or without the coordinates' margin (fractions of its width
/// and height, as the pointer gives it) in the 700 × 700 drawing.
fn drawing(coords: bool, (fx, fy): (f64, f64)) -> (f64, f64) {
    match coords {
        true => (fx * 740.0 - 40.0, fy * 740.0),
        false => (fx * 700.0, fy * 700.0),
    }
}

/// The point under a spot of the board drawn without coordinates, if one is near.
fn nearest(spot: (f64, f64)) -> Option<Point> {
    near(drawing(false, spot))
}

/// The point under a spot of the board drawn with coordinates, if one is near.
fn nearest_with_coords(spot: (f64, f64)) -> Option<Point> {
    near(drawing(true, spot))
}

fn near((x, y): (f64, f64)) -> Option<Point> {
    Point::all().find(|&p| {
        let (px, py) = xy(p);
        (f64::from(px) - x).hypot(f64::from(py) - y) < 48.0
    })
}

#[derive(Properties, PartialEq)]
pub struct MorrisBoardProps {
    pub game: Morris,
    /// The selected piece (pale green destinations follow it).
    pub selected: Option<Point>,
    /// The point holding the board's single Tab stop.
    pub focus: Point,
    pub on_activate: Callback<Point>,
    pub on_key: Callback<KeyboardEvent>,
    /// The SVG element, for moving the DOM focus.
    pub node: NodeRef,
    /// The game was ended outside its rules (resignation, agreed draw…): show no move hints.
    #[prop_or_default]
    pub frozen: bool,
    /// The suggested turn, framed: its origin, destination and capture.
    #[prop_or_default]
    pub hint: Option<Turn>,
    /// The computer is playing: the board takes no input.
    #[prop_or_default]
    pub busy: bool,
    /// The coordinates a–g and 1–7 along the edges.
    #[prop_or_else(coords_shown)]
    pub coords: bool,
    /// The player may act now (false while the other seat of a remote game plays): points
    /// look clickable, and pieces can be dragged, only then.
    #[prop_or(true)]
    pub input: bool,
}

/// The Nine Men's Morris board: points with `data-point` / `data-piece`, destinations, capturable
/// pieces, the last move and the last capture. Its lines are the game's own
/// ([`Morris::geometry`]): under rules with diagonals it draws them too, like the other lines,
/// and says so in its label (and `data-diagonals`); the game given is all it needs to know.
#[component]
pub fn MorrisBoard(props: &MorrisBoardProps) -> Html {
    use_lang();
    let g = &props.game;
    let destinations = props.selected.map_or(Points::EMPTY, |p| g.destinations(p));
    let capturable = if props.frozen {
        Points::EMPTY
    } else {
        g.capturable()
    };
    let last = g.last_turn();
    let hint = props.hint;
    // Moves one can follow (ui/motion.rs): the change since the last position shown, the
    // points where a click or a drop does something, the mill just closed, a piece dragged.
    let change = use_motion(g, motion::morris, |m| m.sound());
    let change = change.filter(|_| !moving::reduced());
    let act = props.input && !props.busy && !props.frozen;
    let legal = if act {
        legal_points(g, destinations, capturable)
    } else {
        Points::EMPTY
    };
    let drag = {
        let (ga, gb) = (g.clone(), g.clone());
        use_drag(
            props.node.clone(),
            if props.coords {
                nearest_with_coords
            } else {
                nearest
            },
            Rc::new(move |p| act && ga.movable().contains(p)),
            Rc::new(move |from, to| gb.destinations(from).contains(to)),
            props.selected,
            props.on_activate.clone(),
        )
    };
    let carried = *drag.dropped.borrow();
    let mill = g.last_mill();
    let ghost = drag.drag.and_then(|d| drag_ghost(g, d, props.coords));
    let geometry = g.geometry();
    let points = Point::all().map(|p| {
        html! {
            <MorrisPoint point={p} piece={g.piece_at(p)} selected={props.selected == Some(p)}
                destination={destinations.contains(p)} capturable={capturable.contains(p)}
                last_to={last.is_some_and(|t| t.to == p)} last_from={last.is_some_and(|t| t.from == Some(p))}
                taken={last.is_some_and(|t| t.capture == Some(p))} focused={props.focus == p}
                hint={hint.map_or(0, |t| hint_marks(t, p))}
                legal={legal.contains(p)} mill={mill.contains(p)} lifted={drag.drag.is_some_and(|d| d.from == p)}
                motion={change.and_then(|m| PointMotion::of(&m, p, xy, carried_to(&m, carried, p)))}
                on_activate={props.on_activate.clone()} />
        }
    });

    html! {
        <svg ref={props.node.clone()} class={classes!("board", "morris-board", (g.phase() == Phase::Capture).then_some("capturing"),
            // Chromium reads touch-action on the svg only: a finger on it drags rather than
            // scrolls while a piece can be dragged.
            (act && !g.movable().is_empty()).then_some("drag-ready"))}
            viewBox={if props.coords { "-40 0 740 740" } else { "0 0 700 700" }}
            role="group" aria-busy={props.busy.then_some("true")}
            aria-label={if geometry.has_diagonals() { t::morris_board_diagonals() } else { t::morris_board() }}
            data-diagonals={geometry.has_diagonals().then_some("")}
            data-motion={change.map(|m| m.sound().name())}
            onkeydown={props.on_key.clone()} onpointerdown={drag.down} onpointermove={drag.moved}
            onpointerup={drag.up} onpointercancel={drag.cancel}>
            <rect class="board-bg" x="8" y="8" width="684" height="684" rx="24" />
            if props.coords { { coordinates(7, |i| 50 + 100 * i32::from(i), -20, 721) } }
            { for board_lines(g) }
            { for mill_lines(g, mill) }
            { for points }
            { for ghost }
        </svg>
    }
}

/// Where a click or a drop does something when the player may act: the capturable pieces
/// while a mill is to be paid for, else the points to place on, the pieces that can move and
/// the selected piece's destinations.
fn legal_points(g: &Morris, destinations: Points, capturable: Points) -> Points {
    if g.phase() == Phase::Capture {
        capturable
    } else {
        (g.placements().iter())
            .chain(g.movable().iter())
            .chain(destinations.iter())
            .collect()
    }
}

/// The lines of the game's board: with the four diagonals when its rules play them.
fn board_lines(g: &Morris) -> impl Iterator<Item = Html> {
    g.geometry().links().map(|(a, b)| {
        let ((x1, y1), (x2, y2)) = (xy(a), xy(b));
        html! { <line class="link" x1={x1.to_string()} y1={y1.to_string()} x2={x2.to_string()} y2={y2.to_string()} /> }
    })
}

/// The mill the last step closed (`mill`, its points), drawn over its line in its owner's
/// colour.
fn mill_lines(g: &Morris, mill: Points) -> impl Iterator<Item = Html> + '_ {
    g.geometry()
        .mills()
        .filter(move |m| m.iter().all(|&p| mill.contains(p)))
        .map(|[a, _, c]| {
            let ((x1, y1), (x2, y2)) = (xy(a), xy(c));
            let owner = g.piece_at(a).map(colour);
            html! { <line class={classes!("mill-line", owner)} x1={x1.to_string()} y1={y1.to_string()} x2={x2.to_string()} y2={y2.to_string()} /> }
        })
}

/// The piece being dragged, under the pointer (`coords`: the board is drawn with its margin).
fn drag_ghost(g: &Morris, d: moving::Drag, coords: bool) -> Option<Html> {
    let pl = g.piece_at(d.from)?;
    let (x, y) = drawing(coords, d.at);
    let (x, y) = (x as i32, y as i32);
    Some(
        html! { <g class={classes!("drag-ghost", colour(pl))} aria-hidden="true">{ piece(pl, x, y) }</g> },
    )
}

/// What the hint `t` marks on `p`, as [`MorrisPoint`]'s `hint` bits: its origin (1), its
/// destination (2), its capture (4).
fn hint_marks(t: Turn, p: Point) -> u8 {
    u8::from(t.from == Some(p)) | u8::from(t.to == p) << 1 | u8::from(t.capture == Some(p)) << 2
}

/// True when the move `m` shows ended on `p` with a piece the player carried there (the last
/// drop, `carried`): it does not slide.
fn carried_to(m: &motion::MorrisMotion, carried: Option<(Point, Point)>, p: Point) -> bool {
    carried.is_some_and(|(f, t)| m.step.and_then(|s| s.from()) == Some(f) && t == p)
}

#[derive(Properties, PartialEq)]
struct MorrisPointProps {
    point: Point,
    piece: Option<Player>,
    selected: bool,
    destination: bool,
    capturable: bool,
    /// The last turn ended here.
    last_to: bool,
    /// The last turn's piece came from here.
    last_from: bool,
    /// The last turn captured here.
    taken: bool,
    focused: bool,
    /// The hint's origin (bit 0), destination (bit 1) or capture (bit 2).
    hint: u8,
    /// A click here does something now.
    legal: bool,
    /// In the mill the last step closed.
    mill: bool,
    /// Its piece is being dragged away.
    lifted: bool,
    /// What it animates.
    motion: Option<PointMotion>,
    on_activate: Callback<Point>,
}

fn colour(p: Player) -> &'static str {
    if p == Player::Blue {
        "blue"
    } else {
        "red"
    }
}

/// A Morris piece at (x, y): its disc and, besides the colour, a mark as in Meta: × on Blue's
/// pieces, ○ on Red's.
fn piece(pl: Player, x: i32, y: i32) -> Html {
    html! {
        <>
            <circle class="piece" cx={x.to_string()} cy={y.to_string()} r="29" />
            <path class="piece-mark" d={if pl == Player::Blue {
                format!("M{} {}l18 18m0 -18l-18 18", x - 9, y - 9)
            } else {
                format!("M{} {}a11 11 0 1 0 22 0a11 11 0 1 0 -22 0", x - 11, y)
            }} />
        </>
    }
}

/// One point of the Morris board. A component of its own, so that a move redraws only the points
/// it changed.
#[component]
fn MorrisPoint(props: &MorrisPointProps) -> Html {
    use_lang();
    let p = props.point;
    let (x, y) = xy(p);
    let piece = props.piece;
    let was_taken = piece.is_none() && props.taken;
    let content = piece.map_or(t::empty().to_string(), piece_label);
    let mut label = t::point_label(p.name(), &content);
    for (on, text) in [
        (props.selected, t::point_selected as fn() -> &'static str),
        (props.destination, t::point_destination),
        (props.capturable, t::point_capturable),
        (props.last_from, t::point_origin),
        (props.last_to, t::point_last),
        (was_taken, t::point_taken),
        (props.hint & 1 != 0, t::point_hint_from),
        (props.hint & 2 != 0, t::point_hint_to),
        (props.hint & 4 != 0, t::point_hint_capture),
    ] {
        if on {
            label.push_str(text());
        }
    }
    let onclick = props.on_activate.reform(move |_: MouseEvent| p);
    let class = classes!(
        "point",
        piece.map(|pl| if pl == Player::Blue { "blue" } else { "red" }),
        props.selected.then_some("selected"),
        props.destination.then_some("destination"),
        props.capturable.then_some("capturable"),
        props.legal.then_some("legal"),
        props.mill.then_some("mill"),
        props.lifted.then_some("lifted"),
        props.motion.map(PointMotion::class),
    );
    let (xs, ys) = (x.to_string(), y.to_string());
    let is_dest = props.destination;
    html! {
        <g {class} data-point={p.index().to_string()}
            data-piece={piece.map(|pl| pl.index().to_string())}
            style={props.motion.and_then(PointMotion::style)}
            role="button" aria-label={label}
            tabindex={if props.focused { "0" } else { "-1" }} {onclick}>
            <circle class="hit" cx={xs.clone()} cy={ys.clone()} r="46" />
            <circle class="focus-ring" cx={xs.clone()} cy={ys.clone()} r="42" />
            if is_dest { <circle class="dest-mark" cx={xs.clone()} cy={ys.clone()} r="24" /> }
            if props.last_from { <circle class="from-mark" cx={xs.clone()} cy={ys.clone()} r="14" /> }
            if was_taken {
                <path class="captured-mark" d={format!("M{} {}l20 20m0 -20l-20 20", x - 10, y - 10)} />
            }
            if let Some(PointMotion::Taken(pl)) = props.motion {
                <g class={classes!("taken-ghost", colour(pl))} aria-hidden="true">{ self::piece(pl, x, y) }</g>
            }
            if let Some(pl) = piece {
                { self::piece(pl, x, y) }
            } else if !is_dest {
                <circle class="dot" cx={xs.clone()} cy={ys.clone()} r="9" />
            }
            if props.capturable { <circle class="capture-ring" cx={xs.clone()} cy={ys.clone()} r="37" /> }
            if props.selected { <circle class="select-ring" cx={xs.clone()} cy={ys.clone()} r="37" /> }
            if props.last_to {
                <rect class="last-frame" x={(x - 40).to_string()} y={(y - 40).to_string()} width="80" height="80" rx="10" />
            }
            if props.hint & 3 != 0 {
                <rect class={classes!("hint-frame", (props.hint & 1 != 0).then_some("from"))} x={(x - 45).to_string()} y={(y - 45).to_string()} width="90" height="90" rx="45" />
            }
            if props.hint & 4 != 0 {
                <path class="hint-capture" d={format!("M{} {}l40 40m0 -40l-40 40", x - 20, y - 20)} />
            }
        </g>
    }
}

const BOARD: i32 = 300;
const GAP: i32 = 12;
const CELL: i32 = 100;

/// Top-left corner of a small board in the drawing.
fn board_xy(b: u8) -> (i32, i32) {
    let (col, row) = ((b % 3) as i32, (b / 3) as i32);
    (GAP + col * (BOARD + GAP), GAP + row * (BOARD + GAP))
}

fn cell_xy(c: Cell) -> (i32, i32) {
    let (bx, by) = board_xy(c.board());
    (
        bx + (c.cell() % 3) as i32 * CELL,
        by + (c.cell() / 3) as i32 * CELL,
    )
}

fn mark(player: Player, x: i32, y: i32, size: i32, class: &'static str) -> Html {
    let pad = size / 4;
    let (a, b) = (pad, size - pad);
    match player {
        Player::Blue => html! {
            <g class={classes!("mark", "cross", class)}>
                <line x1={(x + a).to_string()} y1={(y + a).to_string()} x2={(x + b).to_string()} y2={(y + b).to_string()} />
                <line x1={(x + b).to_string()} y1={(y + a).to_string()} x2={(x + a).to_string()} y2={(y + b).to_string()} />
            </g>
        },
        Player::Red => html! {
            <circle class={classes!("mark", "nought", class)} cx={(x + size / 2).to_string()}
                cy={(y + size / 2).to_string()} r={(size / 2 - pad).to_string()} />
        },
    }
}

#[derive(Properties, PartialEq)]
struct MetaCellProps {
    cell: Cell,
    piece: Option<Player>,
    last: bool,
    /// The state of the cell's small board.
    board: SmallBoard,
    focused: bool,
    /// The suggested move.
    hinted: bool,
    /// A click here plays now.
    legal: bool,
    /// Its mark was just played: it animates.
    played: bool,
    on_activate: Callback<Cell>,
}

/// One cell of the Ultimate tic-tac-toe board: a component of its own, so that a move redraws
/// only the cells it changed.
#[component]
fn MetaCell(props: &MetaCellProps) -> Html {
    use_lang();
    let c = props.cell;
    let (x, y) = cell_xy(c);
    let piece = props.piece;
    let mut label = t::cell_label(
        &c.name(),
        text::board_place(c.board()),
        text::small_board(props.board),
        match piece {
            None => t::empty(),
            Some(Player::Blue) => t::cell_blue(),
            Some(Player::Red) => t::cell_red(),
        },
    );
    if props.last {
        label.push_str(t::point_last());
    }
    if props.hinted {
        label.push_str(t::cell_hint());
    }
    let onclick = props.on_activate.reform(move |_: MouseEvent| c);
    let closed = props.board.is_closed();
    let dim = if closed { "dim" } else { "" };
    html! {
        <g class={classes!("cell", closed.then_some("closed"), props.legal.then_some("legal"), props.played.then_some("played"))}
            data-cell={c.index().to_string()}
            data-piece={piece.map(|p| p.index().to_string())}
            role="button" aria-label={label}
            tabindex={if props.focused { "0" } else { "-1" }} {onclick}>
            <rect class="hit" x={(x + 4).to_string()} y={(y + 4).to_string()} width={(CELL - 8).to_string()} height={(CELL - 8).to_string()} rx="10" />
            if let Some(p) = piece { { mark(p, x, y, CELL, dim) } }
            if props.last {
                <rect class="last-frame" x={(x + 6).to_string()} y={(y + 6).to_string()} width={(CELL - 12).to_string()} height={(CELL - 12).to_string()} rx="10" />
            }
            if props.hinted {
                <rect class="hint-frame" x={(x + 2).to_string()} y={(y + 2).to_string()} width={(CELL - 4).to_string()} height={(CELL - 4).to_string()} rx="14" />
            }
        </g>
    }
}

#[derive(Properties, PartialEq)]
pub struct MetaBoardProps {
    pub game: Meta,
    /// The cell holding the board's single Tab stop.
    pub focus: Cell,
    pub on_activate: Callback<Cell>,
    pub on_key: Callback<KeyboardEvent>,
    /// The SVG element, for moving the DOM focus.
    pub node: NodeRef,
    /// The game was ended outside its rules (resignation, agreed draw…): show no move hints.
    #[prop_or_default]
    pub frozen: bool,
    /// The suggested move, framed.
    #[prop_or_default]
    pub hint: Option<Cell>,
    /// The computer is playing: the board takes no input.
    #[prop_or_default]
    pub busy: bool,
    /// The coordinates a–i and 1–9 along the edges.
    #[prop_or_else(coords_shown)]
    pub coords: bool,
    /// The player may act now (false while the other seat of a remote game plays): cells look
    /// clickable only then.
    #[prop_or(true)]
    pub input: bool,
}

/// The Ultimate tic-tac-toe board: cells with `data-cell` / `data-piece`, playable boards, closed
/// boards' big symbols, the winning line and the last move.
#[component]
pub fn MetaBoard(props: &MetaBoardProps) -> Html {
    use_lang();
    let g = &props.game;
    let winning = g.winning_line().unwrap_or([9, 9, 9]);
    // Moves one can follow (ui/motion.rs): the mark just played and the board it closed.
    let change = use_motion(g, motion::meta, |m| m.sound());
    let change = change.filter(|_| !moving::reduced());
    let act = props.input && !props.busy && !props.frozen;

    let boards = (0..9u8).map(|b| {
        let (x, y) = board_xy(b);
        let state = g.small_board(b);
        let playable = !props.frozen && g.is_playable_board(b);
        let grid = (1..3).map(|i| {
            let d = i * CELL;
            html! {
                <>
                    <line class="grid" x1={(x + d).to_string()} y1={(y + 10).to_string()} x2={(x + d).to_string()} y2={(y + BOARD - 10).to_string()} />
                    <line class="grid" x1={(x + 10).to_string()} y1={(y + d).to_string()} x2={(x + BOARD - 10).to_string()} y2={(y + d).to_string()} />
                </>
            }
        });
        let overlay = match state {
            SmallBoard::Open => html! {},
            SmallBoard::Won(p) => mark(p, x, y, BOARD, "big"),
            SmallBoard::Drawn => html! {
                <g class="drawn-mark">
                    <line x1={(x + 85).to_string()} y1={(y + 120).to_string()} x2={(x + 215).to_string()} y2={(y + 120).to_string()} />
                    <text x={(x + 150).to_string()} y={(y + 200).to_string()}>{ words(t::board_drawn()) }</text>
                </g>
            },
        };
        let class = classes!(
            "small-board",
            playable.then_some("playable"),
            state.is_closed().then_some("closed"),
            winning.contains(&b).then_some("winning"),
            change.is_some_and(|m| m.closed == Some(b)).then_some("closed-now"),
        );
        html! {
            <g {class} data-board={b.to_string()}>
                <rect class="board-bg" x={x.to_string()} y={y.to_string()} width={BOARD.to_string()} height={BOARD.to_string()} rx="14" />
                { for grid }
                { overlay }
                <rect class="board-frame" x={(x + 3).to_string()} y={(y + 3).to_string()} width={(BOARD - 6).to_string()} height={(BOARD - 6).to_string()} rx="12" />
            </g>
        }
    });
    let cells = Cell::all().map(|c| {
        html! {
            <MetaCell cell={c} piece={g.piece_at(c)} last={g.last_move() == Some(c)}
                board={g.small_board(c.board())} focused={props.focus == c}
                hinted={props.hint == Some(c)} on_activate={props.on_activate.clone()}
                legal={act && g.piece_at(c).is_none() && g.is_playable_board(c.board())}
                played={change.is_some_and(|m| m.cell == c)} />
        }
    });

    html! {
        <svg ref={props.node.clone()} class="board meta-board" role="group"
            viewBox={if props.coords { "-44 0 992 992" } else { "0 0 948 948" }}
            aria-busy={props.busy.then_some("true")} data-motion={change.map(|m| m.sound().name())}
            aria-label={t::meta_board()}
            onkeydown={props.on_key.clone()}>
            if props.coords {
                { coordinates(9, |i| GAP + i32::from(i / 3) * (BOARD + GAP) + i32::from(i % 3) * CELL + CELL / 2, -22, 971) }
            }
            { for boards }
            { for cells }
        </svg>
    }
}
