//! The Nine Men's Morris page: the SVG board, the players, the status, the actions and the rules
//! with the turn-limit setting.

use super::common::{
    piece_label, use_board_page, Actions, BoardHandles, BoardPage, ConfirmNewGame, PlayerCard,
    Status,
};
use crate::model::morris::{Event, Model};
use crate::model::text;
use engine::morris::{links, Phase, Point};
use engine::{Direction, Game, Player};
use yew::prelude::*;

/// Screen position of a point in the 700 × 700 drawing.
fn xy(p: Point) -> (i32, i32) {
    let (file, rank) = p.coords();
    (50 + 100 * file as i32, 50 + 100 * (6 - rank as i32))
}

impl BoardPage for Model {
    type Focus = Point;
    fn focus(&self) -> Point {
        self.focus
    }
    fn selector(p: Point) -> String {
        format!("[data-point=\"{}\"]", p.index())
    }
    fn arrow(d: Direction) -> Event {
        Event::Arrow(d)
    }
    fn activate(p: Point) -> Event {
        Event::Activate(p)
    }
}

#[component]
pub fn MorrisPage() -> Html {
    let BoardHandles {
        store,
        dispatch,
        board: board_ref,
        on_key,
    } = use_board_page::<Model>();
    let m = &store.0;
    let g = m.game();
    let me = g.to_move();

    let destinations = m.destinations();
    let capturable = g.capturable();
    let last = g.last_turn();
    let lines = links().map(|(a, b)| {
        let ((x1, y1), (x2, y2)) = (xy(a), xy(b));
        html! { <line class="link" x1={x1.to_string()} y1={y1.to_string()} x2={x2.to_string()} y2={y2.to_string()} /> }
    });
    let points = Point::all().map(|p| {
        let (x, y) = xy(p);
        let piece = g.piece_at(p);
        let selected = m.selected == Some(p);
        let is_dest = destinations.contains(p);
        let is_cap = capturable.contains(p);
        let is_last = last.is_some_and(|t| t.to == p);
        let was_from = last.is_some_and(|t| t.from == Some(p));
        let was_taken = piece.is_none() && last.is_some_and(|t| t.capture == Some(p));
        let mut label = format!("{} : {}", p.name(), piece.map_or("vide".to_string(), piece_label));
        if selected {
            label.push_str(", sélectionné");
        }
        if is_dest {
            label.push_str(", destination possible");
        }
        if is_cap {
            label.push_str(", peut être capturé");
        }
        if is_last {
            label.push_str(", dernier coup");
        }
        if was_taken {
            label.push_str(", pion capturé au dernier coup");
        }
        let onclick = dispatch.reform(move |_: MouseEvent| Event::Activate(p));
        let class = classes!(
            "point",
            piece.map(|pl| if pl == Player::Blue { "blue" } else { "red" }),
            selected.then_some("selected"),
            is_dest.then_some("destination"),
            is_cap.then_some("capturable"),
        );
        let (xs, ys) = (x.to_string(), y.to_string());
        html! {
            <g {class} data-point={p.index().to_string()}
                data-piece={piece.map(|pl| pl.index().to_string())}
                role="button" aria-label={label}
                tabindex={if m.focus == p { "0" } else { "-1" }} {onclick}>
                <circle class="hit" cx={xs.clone()} cy={ys.clone()} r="46" />
                <circle class="focus-ring" cx={xs.clone()} cy={ys.clone()} r="42" />
                if is_dest { <circle class="dest-mark" cx={xs.clone()} cy={ys.clone()} r="24" /> }
                if was_from { <circle class="from-mark" cx={xs.clone()} cy={ys.clone()} r="14" /> }
                if was_taken {
                    <path class="captured-mark" d={format!("M{} {}l20 20m0 -20l-20 20", x - 10, y - 10)} />
                }
                if piece.is_some() {
                    <circle class="piece" cx={xs.clone()} cy={ys.clone()} r="29" />
                    <circle class="piece-shine" cx={(x - 8).to_string()} cy={(y - 9).to_string()} r="9" />
                } else if !is_dest {
                    <circle class="dot" cx={xs.clone()} cy={ys.clone()} r="9" />
                }
                if is_cap { <circle class="capture-ring" cx={xs.clone()} cy={ys.clone()} r="37" /> }
                if selected { <circle class="select-ring" cx={xs.clone()} cy={ys.clone()} r="37" /> }
                if is_last {
                    <rect class="last-frame" x={(x - 40).to_string()} y={(y - 40).to_string()} width="80" height="80" rx="10" />
                }
            </g>
        }
    });

    let detail = |p: Player| {
        format!(
            "{} · {} sur le plateau",
            text::stage(g.stage(p)),
            match g.pieces_on_board(p) {
                1 => "1 pion".to_string(),
                n => format!("{n} pions"),
            }
        )
    };
    let playing = g.outcome().is_none();
    let to_dispatch = |e: Event| dispatch.reform(move |_: ()| e.clone());
    let on_limit = dispatch.reform(|e: InputEvent| {
        Event::Limit(
            e.target_unchecked_into::<web_sys::HtmlInputElement>()
                .value(),
        )
    });

    html! {
        <main class="page game morris">
            <h1>{ "Jeu du moulin" }<span class="mode">{ " · deux joueurs sur cet appareil" }</span></h1>
            <div class="layout">
                <section class="board-column" aria-label="Partie">
                    <div class="players">
                        <PlayerCard player={Player::Blue} active={playing && me == Player::Blue}
                            title="Bleu" detail={detail(Player::Blue)} />
                        <PlayerCard player={Player::Red} active={playing && me == Player::Red}
                            title="Rouge" detail={detail(Player::Red)} />
                    </div>
                    <Status outcome={g.outcome()} text={m.status()}
                        notice={m.notice.clone().map(AttrValue::from)} />
                    <div class="board-scroll">
                        <svg ref={board_ref} class={classes!("board", "morris-board", (g.phase() == Phase::Capture).then_some("capturing"))}
                            viewBox="0 0 700 700" role="group"
                            aria-label="Plateau du moulin : flèches pour se déplacer, Entrée ou Espace pour jouer"
                            onkeydown={on_key}>
                            <rect class="board-bg" x="8" y="8" width="684" height="684" rx="24" />
                            { for lines }
                            { for points }
                        </svg>
                    </div>
                    <Actions can_undo={m.can_undo()} on_undo={to_dispatch(Event::Undo)}
                        on_new={to_dispatch(Event::AskNewGame)} />
                    <p class="progress">{ format!("Tour {} sur {}", g.turns(), g.max_turns()) }</p>
                </section>
                <aside class="rules" aria-labelledby="rules-title">
                    <h2 id="rules-title">{ "Règles" }</h2>
                    <p>{ "Chaque joueur a neuf pions. Bleu commence. Tant que sa réserve n'est pas vide, on pose un pion sur un point libre. Quand les deux réserves sont vides, on déplace un pion vers un point voisin libre, le long d'une ligne." }</p>
                    <p>{ "Trois pions alignés sur une ligne forment un moulin : le joueur capture alors un pion adverse, un seul même pour deux moulins à la fois. Les pions adverses dans un moulin sont protégés, sauf si tous le sont. Ouvrir un moulin puis le refermer permet une nouvelle capture." }</p>
                    <p>{ "Une fois la pose terminée, un joueur réduit à trois pions peut sauter vers n'importe quel point libre." }</p>
                    <p>{ "On perd avec moins de trois pions (réserve comprise) ou si l'on ne peut plus bouger. La partie est nulle à la troisième répétition d'une même position, ou à la limite de tours : chaque pose ou déplacement compte pour un tour, capture comprise." }</p>
                    <label class="limit">
                        { "Limite de tours (1 à 500) " }
                        <input type="number" min="1" max="500" inputmode="numeric"
                            value={m.limit_text.clone()} disabled={!m.limit_editable()}
                            oninput={on_limit} aria-invalid={m.limit_error.is_some().to_string()} />
                    </label>
                    if let Some(e) = &m.limit_error {
                        <p class="notice" role="alert">{ e.clone() }</p>
                    } else if !m.limit_editable() {
                        <p class="hint">{ "Modifiable avant le premier coup ou dans « Nouvelle partie »." }</p>
                    }
                </aside>
            </div>
            if let Some(dialog) = &m.dialog {
                <ConfirmNewGame dialog={dialog.clone()} with_limit=true
                    on_limit={dispatch.reform(Event::DialogLimit)}
                    on_confirm={to_dispatch(Event::ConfirmNewGame)}
                    on_cancel={to_dispatch(Event::CancelNewGame)} />
            }
        </main>
    }
}
