//! Going back through a game, the same in every mode (hot-seat, against the computer, remote,
//! the viewer): which past position the page shows, read-only, and the list of turns. Browsing
//! only reads the table's history (`Table::position`): it never changes the live game, and the
//! live game may go on underneath (the computer's or the opponent's turns keep arriving).

use crate::i18n::t;
use engine::table::{Playable, Table};
use engine::Player;
use std::fmt::Display;

/// What the player asks of the history: a click on a turn, ←, →, Home, End, « Retour à la
/// partie ».
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nav {
    /// The position after this many completed turns.
    To(usize),
    /// One turn back (←).
    Back,
    /// One turn forward (→); past the last, the live position.
    Forward,
    /// The start of the game (Home).
    Start,
    /// The live position (End, « Retour à la partie »).
    Live,
}

/// Which position the page shows: the live one, or the one after `n` completed turns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Browse(Option<usize>);

impl Browse {
    /// The past position shown, as its number of completed turns; `None` when live.
    pub fn ply(self) -> Option<usize> {
        self.0
    }

    /// True when the page shows the live game.
    pub fn is_live(self) -> bool {
        self.0.is_none()
    }

    /// Follows one navigation, in a game of `turns` completed turns (`mid`: one more is in
    /// progress, a Morris capture pending, so the position after the last completed turn is not
    /// the live one).
    pub fn go(&mut self, nav: Nav, turns: usize, mid: bool) {
        self.0 = match (nav, self.0) {
            (Nav::To(p), _) => Some(p),
            (Nav::Start, _) => Some(0),
            (Nav::Live, _) => None,
            (Nav::Back, Some(p)) => Some(p.saturating_sub(1)),
            (Nav::Back, None) if mid => Some(turns),
            (Nav::Back, None) => turns.checked_sub(1),
            (Nav::Forward, p) => p.map(|p| p + 1),
        };
        self.fit(turns, mid);
    }

    /// After the live game changed: the same past position while it exists (a move played
    /// meanwhile keeps it), else the live one (an undo took it back, a new game began). The
    /// position after the last completed turn is the live one unless a turn is in progress.
    pub fn fit(&mut self, turns: usize, mid: bool) {
        if self.0.is_some_and(|p| p > turns || (p == turns && !mid)) {
            self.0 = None;
        }
    }

    /// The position shown of a table.
    pub fn shown<G: Playable>(self, table: &Table<G>) -> &G {
        match self.0 {
            Some(p) => table.position(p),
            None => table.game(),
        }
    }

    /// Follows one navigation on a table.
    pub fn go_on<G: Playable>(&mut self, nav: Nav, table: &Table<G>) {
        self.go(nav, table.turns().len(), table.game().mid_turn());
    }

    /// Fits a table that changed.
    pub fn fit_to<G: Playable>(&mut self, table: &Table<G>) {
        self.fit(table.turns().len(), table.game().mid_turn());
    }
}

/// One turn in the list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// The position after it (its `data-ply`): its 1-based number among the game's turns.
    pub ply: usize,
    /// Who played it.
    pub player: Player,
    /// In notation: `d6xb4`, `e5`.
    pub text: String,
}

/// The history panel: the turns numbered in rows (Blue's, then Red's), the turn in progress,
/// and which one the board shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HistoryView {
    /// Row `n` (from 1) holds turns `2n − 1` (Blue) and `2n` (Red).
    pub rows: Vec<(usize, Vec<Item>)>,
    /// The step of a turn in progress, as « c5x… » (a Morris capture pending).
    pub pending: Option<String>,
    /// The ply the board shows (the last one when live).
    pub current: usize,
    /// A past position is shown (read-only): which one, as « Position après le tour 12
    /// (Bleu : d6xb4) ».
    pub browsing: Option<String>,
    /// Morris: the rules the game is played under, by name (`text::rules_name`), said above
    /// the turns; set by the page, which knows its game.
    pub rules: Option<String>,
}

impl HistoryView {
    /// The list of `turns` (Blue moves first, then they alternate), with a turn in progress.
    pub fn new<T: Display>(turns: &[T], pending: Option<String>, browse: Browse) -> HistoryView {
        let items: Vec<Item> = turns
            .iter()
            .enumerate()
            .map(|(i, t)| Item {
                ply: i + 1,
                player: if i % 2 == 0 {
                    Player::Blue
                } else {
                    Player::Red
                },
                text: t.to_string(),
            })
            .collect();
        let browsing = browse
            .ply()
            .map(|p| match p.checked_sub(1).map(|i| &items[i]) {
                None => t::browsing_start().to_string(),
                Some(item) => t::browsing_after(
                    &item.ply.to_string(),
                    super::text::player_name(item.player),
                    &item.text,
                ),
            });
        let current = browse.ply().unwrap_or(items.len());
        let rows = items
            .chunks(2)
            .enumerate()
            .map(|(n, pair)| (n + 1, pair.to_vec()))
            .collect();
        HistoryView {
            rows,
            pending,
            current,
            browsing,
            rules: None,
        }
    }

    /// The history of a table: its completed turns, the pending step (given by the caller, who
    /// knows the game), and the position shown.
    pub fn of<G: Playable>(table: &Table<G>, pending: Option<String>, browse: Browse) -> Self {
        HistoryView::new(table.turns(), pending, browse)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::morris::{Action, Morris, Point};

    fn table(names: &str) -> Table<Morris> {
        let mut t = Table::new(Morris::new());
        for n in names.split_whitespace() {
            let p = Point::from_name(n).unwrap();
            let a = if t.game().mid_turn() {
                Action::Capture(p)
            } else {
                Action::Place(p)
            };
            t.play(a).unwrap();
        }
        t
    }

    #[test]
    fn keys_step_through_the_game_and_the_end_is_live() {
        let t = table("a7 b6 d7");
        let mut b = Browse::default();
        b.go_on(Nav::Forward, &t);
        assert!(b.is_live(), "nothing after the live position");
        b.go_on(Nav::Back, &t);
        assert_eq!(b.ply(), Some(2));
        assert_eq!(
            b.shown(&t),
            &engine::record::replay(Morris::new(), "a7 b6").unwrap()
        );
        b.go_on(Nav::Start, &t);
        b.go_on(Nav::Back, &t);
        assert_eq!(b.ply(), Some(0), "nothing before the start");
        assert_eq!(b.shown(&t), &Morris::new());
        b.go_on(Nav::To(2), &t);
        b.go_on(Nav::Forward, &t);
        assert!(
            b.is_live(),
            "the position after the last turn is the live one"
        );
        b.go_on(Nav::To(1), &t);
        b.go_on(Nav::Live, &t);
        assert!(b.is_live());
        let mut b = Browse::default();
        b.go_on(Nav::Back, &Table::new(Morris::new()));
        assert!(b.is_live(), "no turn yet: nothing to go back to");
    }

    #[test]
    fn a_pending_capture_is_live_and_the_turn_before_it_is_not() {
        let t = table("a7 b6 d7 d6 g7");
        assert!(t.game().mid_turn());
        let mut b = Browse::default();
        b.go_on(Nav::Back, &t);
        assert_eq!(b.ply(), Some(4));
        assert_eq!(
            b.shown(&t),
            &engine::record::replay(Morris::new(), "a7 b6 d7 d6").unwrap()
        );
        b.go_on(Nav::Forward, &t);
        assert!(b.is_live());
        assert_eq!(b.shown(&t), t.game());
    }

    #[test]
    fn moves_arriving_keep_the_past_position_and_an_undo_past_it_goes_live() {
        let mut t = table("a7 b6 d7 d6");
        let mut b = Browse::default();
        b.go_on(Nav::To(2), &t);
        let shown = b.shown(&t).clone();
        for n in ["g7", "b6", "f6"] {
            let p = Point::from_name(n).unwrap();
            let a = if t.game().mid_turn() {
                Action::Capture(p)
            } else {
                Action::Place(p)
            };
            t.play(a).unwrap();
            b.fit_to(&t);
            assert_eq!(b.ply(), Some(2));
            assert_eq!(b.shown(&t), &shown);
        }
        assert_eq!(
            t.record(),
            "a7 b6 d7 d6 g7xb6 f6",
            "browsing changed nothing live"
        );
        b.go_on(Nav::To(5), &t);
        t.undo();
        b.fit_to(&t);
        assert!(b.is_live(), "the position shown was taken back");
    }

    #[test]
    fn the_list_numbers_rows_of_blue_and_red_with_the_pending_step() {
        let t = table("a7 b6 d7 d6 g7");
        let mut b = Browse::default();
        let v = HistoryView::of(&t, Some("g7x…".into()), b);
        assert_eq!(v.rows.len(), 2);
        assert_eq!(v.rows[1].0, 2);
        assert_eq!(
            v.rows[1].1,
            [
                Item {
                    ply: 3,
                    player: Player::Blue,
                    text: "d7".into()
                },
                Item {
                    ply: 4,
                    player: Player::Red,
                    text: "d6".into()
                },
            ]
        );
        assert_eq!((v.current, v.browsing.clone()), (4, None));
        b.go_on(Nav::To(3), &t);
        let v = HistoryView::of(&t, None, b);
        assert_eq!(v.current, 3);
        assert_eq!(
            v.browsing.as_deref(),
            Some("Position après le tour 3 (Bleu : d7)")
        );
    }
}
