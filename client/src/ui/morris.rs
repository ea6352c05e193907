//! The Nine Men's Morris page: the SVG board, the players, the status, the actions and the rules
//! with the turn-limit setting.

use super::boards::MorrisBoard;
use super::common::{
    use_board_page, Actions, BoardHandles, BoardPage, ConfirmNewGame, LimitField, PlayerCard,
    Status,
};
use crate::model::morris::{Event, Model};
use crate::model::text;
use engine::morris::Point;
use engine::{Direction, Game, Player};
use yew::prelude::*;

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
        on_activate,
    } = use_board_page::<Model>();
    let m = &store.0;
    let g = m.game();
    let me = g.to_move();

    let detail = |p: Player| text::morris_player(g, p);
    let playing = g.outcome().is_none();
    let to_dispatch = |e: Event| dispatch.reform(move |_: ()| e.clone());

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
                    <Status result={g.outcome().map(|o| o.winner)} text={m.status()}
                        notice={m.notice.clone().map(AttrValue::from)} />
                    <div class="board-scroll">
                        <MorrisBoard game={g.clone()} selected={m.selected} focus={m.focus}
                            {on_activate} on_key={on_key}
                            node={board_ref} />
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
                    <LimitField value={m.limit_text.clone()} disabled={!m.limit_editable()}
                        invalid={m.limit_error.is_some()} on_input={dispatch.reform(Event::Limit)} />
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
