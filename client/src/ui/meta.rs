//! The Ultimate tic-tac-toe page: the SVG board of nine small boards, the players, the hint, the
//! actions and the rules.

use super::common::{
    use_board_page, Actions, BoardHandles, BoardPage, ConfirmNewGame, PlayerCard, Status,
};
use crate::model::meta::{Event, Model};
use crate::model::text;
use engine::meta::{Cell, SmallBoard};
use engine::{Direction, Game, Player};
use yew::prelude::*;

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

impl BoardPage for Model {
    type Focus = Cell;
    fn focus(&self) -> Cell {
        self.focus
    }
    fn selector(c: Cell) -> String {
        format!("[data-cell=\"{}\"]", c.index())
    }
    fn arrow(d: Direction) -> Event {
        Event::Arrow(d)
    }
    fn activate(c: Cell) -> Event {
        Event::Activate(c)
    }
}

#[component]
pub fn MetaPage() -> Html {
    let BoardHandles {
        store,
        dispatch,
        board: board_ref,
        on_key,
    } = use_board_page::<Model>();
    let m = &store.0;
    let g = m.game();
    let winning = g.winning_line().unwrap_or([9, 9, 9]);

    let boards = (0..9u8).map(|b| {
        let (x, y) = board_xy(b);
        let state = g.small_board(b);
        let playable = g.is_playable_board(b);
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
                    <text x={(x + 150).to_string()} y={(y + 200).to_string()}>{ "Nulle" }</text>
                </g>
            },
        };
        let class = classes!(
            "small-board",
            playable.then_some("playable"),
            state.is_closed().then_some("closed"),
            winning.contains(&b).then_some("winning"),
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
        let (x, y) = cell_xy(c);
        let piece = g.piece_at(c);
        let is_last = g.last_move() == Some(c);
        let board = g.small_board(c.board());
        let mut label = format!(
            "{} (grille {}, {}) : {}",
            c.name(),
            text::board_place(c.board()),
            text::small_board(board),
            match piece {
                None => "vide",
                Some(Player::Blue) => "croix bleue",
                Some(Player::Red) => "rond rouge",
            }
        );
        if is_last {
            label.push_str(", dernier coup");
        }
        let onclick = dispatch.reform(move |_: MouseEvent| Event::Activate(c));
        let dim = if board.is_closed() { "dim" } else { "" };
        html! {
            <g class={classes!("cell", board.is_closed().then_some("closed"))}
                data-cell={c.index().to_string()}
                data-piece={piece.map(|p| p.index().to_string())}
                role="button" aria-label={label}
                tabindex={if m.focus == c { "0" } else { "-1" }} {onclick}>
                <rect class="hit" x={(x + 4).to_string()} y={(y + 4).to_string()} width={(CELL - 8).to_string()} height={(CELL - 8).to_string()} rx="10" />
                if let Some(p) = piece { { mark(p, x, y, CELL, dim) } }
                if is_last {
                    <rect class="last-frame" x={(x + 6).to_string()} y={(y + 6).to_string()} width={(CELL - 12).to_string()} height={(CELL - 12).to_string()} rx="10" />
                }
            </g>
        }
    });

    let playing = g.outcome().is_none();
    let me = g.to_move();
    let won = |p: Player| match g.boards_won(p) {
        0 => "Aucune grille gagnée".to_string(),
        1 => "1 grille gagnée".to_string(),
        n => format!("{n} grilles gagnées"),
    };
    let to_dispatch = |e: Event| dispatch.reform(move |_: ()| e.clone());

    html! {
        <main class="page game meta">
            <h1>{ "Méta Morpion" }<span class="mode">{ " · deux joueurs sur cet appareil" }</span></h1>
            <div class="layout">
                <section class="board-column" aria-label="Partie">
                    <div class="players">
                        <PlayerCard player={Player::Blue} active={playing && me == Player::Blue}
                            title="Bleu · croix" detail={won(Player::Blue)} />
                        <PlayerCard player={Player::Red} active={playing && me == Player::Red}
                            title="Rouge · rond" detail={won(Player::Red)} />
                    </div>
                    <Status outcome={g.outcome()} text={m.status()}
                        notice={m.notice.clone().map(AttrValue::from)} />
                    <div class="board-scroll">
                        <svg ref={board_ref} class="board meta-board" viewBox="0 0 948 948" role="group"
                            aria-label="Plateau du Méta Morpion : flèches pour se déplacer, Entrée ou Espace pour jouer"
                            onkeydown={on_key}>
                            { for boards }
                            { for cells }
                        </svg>
                    </div>
                    <Actions can_undo={m.can_undo()} on_undo={to_dispatch(Event::Undo)}
                        on_new={to_dispatch(Event::AskNewGame)} undo_colour={m.last_mover()} />
                    <p class="progress">{ format!("Coup {} sur 81 au plus", g.moves()) }</p>
                </section>
                <aside class="rules" aria-labelledby="rules-title">
                    <h2 id="rules-title">{ "Règles" }</h2>
                    <p>{ "Neuf petites grilles de morpion forment une grande grille. Bleu (croix) commence où il veut ; Rouge (rond) suit." }</p>
                    <p>{ "La case jouée dans une petite grille envoie l'adversaire dans la grille placée au même endroit de la grande : jouer en haut à droite d'une grille l'envoie dans la grille en haut à droite." }</p>
                    <p>{ "Trois symboles alignés gagnent une petite grille ; une grille pleine sans alignement est nulle et ne compte pour personne. Une grille gagnée ou pleine est fermée : si l'on y est envoyé, on choisit librement parmi les grilles ouvertes (bordées de vert)." }</p>
                    <p>{ "Trois petites grilles gagnées alignées gagnent la partie. Si toutes les grilles sont fermées sans alignement, la partie est nulle." }</p>
                </aside>
            </div>
            if let Some(dialog) = &m.dialog {
                <ConfirmNewGame dialog={dialog.clone()} with_limit=false
                    on_limit={Callback::noop()}
                    on_confirm={to_dispatch(Event::ConfirmNewGame)}
                    on_cancel={to_dispatch(Event::CancelNewGame)} />
            }
        </main>
    }
}
