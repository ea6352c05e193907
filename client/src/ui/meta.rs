//! The Ultimate tic-tac-toe page: the SVG board of nine small boards, the players, the hint, the
//! actions and the rules.

use super::boards::MetaBoard;
use super::common::{
    use_board_page, Actions, BoardHandles, BoardPage, ConfirmNewGame, PlayerCard, Status,
};
use crate::model::meta::{Event, Model};
use crate::model::text;
use engine::meta::Cell;
use engine::{Direction, Game, Player};
use yew::prelude::*;

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
        on_activate,
    } = use_board_page::<Model>();
    let m = &store.0;
    let g = m.game();
    let playing = g.outcome().is_none();
    let me = g.to_move();
    let won = |p: Player| text::boards_won(g.boards_won(p));
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
                    <Status result={g.outcome().map(|o| o.winner)} text={m.status()}
                        notice={m.notice.clone().map(AttrValue::from)} />
                    <div class="board-scroll">
                        <MetaBoard game={*g} focus={m.focus}
                            {on_activate} on_key={on_key}
                            node={board_ref} />
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
