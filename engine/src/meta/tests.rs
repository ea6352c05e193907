//! One named test per rule of docs/rules.md, including the seed's validation list: 81 first moves,
//! sending, validation and immutability, the eight local and global lines for both players,
//! closing and local draws, freed constraint, victory on the last move, global draw, earlier
//! states, keyboard crossing the small boards, and twenty complete deterministic games.

use super::*;
use crate::record;

fn c(name: &str) -> Cell {
    Cell::from_name(name).unwrap_or_else(|| panic!("no cell {name}"))
}

fn at(board: u8, cell: u8) -> Cell {
    Cell::at(board, cell).unwrap()
}

fn replay(rec: &str) -> Meta {
    record::replay(Meta::new(), rec).unwrap_or_else(|e| panic!("{rec}: {e}"))
}

/// Fills small board `b` for `p` with a line, as if won earlier, without touching the rest.
fn give_board(g: &mut Meta, b: u8, p: Player) {
    g.marks[b as usize][p.index()] = 0b111;
    g.won[p.index()] |= 1 << b;
    g.closed |= 1 << b;
}

/// Fills small board `b` as a draw: X O X / X O O / O X X.
fn draw_board(g: &mut Meta, b: u8) {
    g.marks[b as usize] = [0b110_001_101, 0b001_110_010];
    g.closed |= 1 << b;
}

#[test]
fn names_follow_the_big_grid() {
    assert_eq!(c("a9"), at(0, 0));
    assert_eq!(c("e5"), at(4, 4));
    assert_eq!(c("i1"), at(8, 8));
    assert_eq!(c("i9"), at(2, 2));
    assert_eq!(c("a1"), at(6, 6));
    assert_eq!(c("d6"), at(4, 0));
    for cell in Cell::all() {
        assert_eq!(Cell::from_name(&cell.name()), Some(cell));
    }
    for bad in ["", "j1", "a0", "a10", "A9", "e", "55", "e5 "] {
        assert_eq!(Cell::from_name(bad), None, "{bad:?}");
    }
}

#[test]
fn eighty_one_first_moves_and_blue_starts() {
    let g = Meta::new();
    assert_eq!(g.to_move(), Player::Blue);
    assert_eq!(g.legal_actions().len(), 81);
    assert_eq!(g.required_board(), None);
    assert_eq!(g.playable_boards(), 0x1ff);
}

#[test]
fn a_move_sends_the_opponent_to_the_board_of_its_cell() {
    let g = Meta::new().play(at(0, 5)).unwrap();
    assert_eq!(g.to_move(), Player::Red);
    assert_eq!(g.required_board(), Some(5));
    assert_eq!(g.playable_boards(), 1 << 5);
    assert_eq!(
        g.legal_actions(),
        (0..9).map(|i| at(5, i)).collect::<Vec<_>>()
    );
    assert_eq!(g.play(at(3, 0)), Err(Illegal::WrongBoard));
    let g = g.play(at(5, 0)).unwrap();
    assert_eq!(g.required_board(), Some(0));
    // Board 0 already has a mark: 8 cells left.
    assert_eq!(g.legal_actions().len(), 8);
}

#[test]
fn illegal_moves_are_refused_and_change_nothing() {
    let g = replay("e5");
    let copy = g;
    assert_eq!(g.play(c("e5")), Err(Illegal::Occupied));
    assert_eq!(g.play(c("a9")), Err(Illegal::WrongBoard));
    assert_eq!(g, copy);
    let mut closed = Meta::new();
    give_board(&mut closed, 4, Player::Blue);
    closed.to_move = Player::Red;
    assert_eq!(closed.play(at(4, 5)), Err(Illegal::BoardClosed));
    assert_eq!(closed.play(at(0, 0)).map(|g| g.moves()), Ok(1));
}

#[test]
fn the_eight_small_lines_win_a_board_for_either_player() {
    for (l, line) in LINES.iter().enumerate() {
        for p in Player::BOTH {
            let mut g = Meta::new();
            g.to_move = p;
            g.marks[0][p.index()] = (1 << line[0]) | (1 << line[1]);
            let next = g.play(at(0, line[2])).unwrap();
            assert_eq!(next.small_board(0), SmallBoard::Won(p), "line {l}");
            assert_eq!(next.small_board_line(0), Some(*line));
            assert_eq!(next.boards_won(p), 1);
            assert_eq!(next.outcome(), None);
        }
    }
}

#[test]
fn the_eight_big_lines_win_the_game_for_either_player() {
    for (l, line) in LINES.iter().enumerate() {
        for p in Player::BOTH {
            let mut g = Meta::new();
            g.to_move = p;
            give_board(&mut g, line[0], p);
            give_board(&mut g, line[1], p);
            // Two marks of the last board's top row; the third wins board and game.
            g.marks[line[2] as usize][p.index()] = 0b011;
            let end = g.play(at(line[2], 2)).unwrap();
            assert_eq!(
                end.outcome(),
                Some(Outcome {
                    winner: Some(p),
                    reason: Reason::Line
                }),
                "line {l}"
            );
            assert_eq!(end.winning_line(), Some(*line));
            assert!(end.legal_actions().is_empty());
            assert_eq!(end.play(at((line[2] + 1) % 9, 4)), Err(Illegal::GameOver));
        }
    }
}

#[test]
fn a_full_board_without_a_line_is_drawn_and_counts_for_nobody() {
    let mut g = Meta::new();
    // X O X / X O O / O X . : the last cell (8) for X gives X O X / X O O / O X X, no line.
    g.marks[3] = [0b010_001_101, 0b001_110_010];
    let g = g.play(at(3, 8)).unwrap();
    assert_eq!(g.small_board(3), SmallBoard::Drawn);
    assert_eq!(g.boards_won(Player::Blue) + g.boards_won(Player::Red), 0);
    assert_eq!(g.results_string(), "...D.....");
    // A drawn board does not help a line: X owns 0 and 6, 3 is drawn.
    let mut h = Meta::new();
    give_board(&mut h, 0, Player::Blue);
    give_board(&mut h, 6, Player::Blue);
    draw_board(&mut h, 3);
    let h = h.play(at(4, 4)).unwrap();
    assert_eq!(h.outcome(), None);
}

#[test]
fn a_win_that_fills_the_board_is_a_win() {
    let mut g = Meta::new();
    // X X . / O O X / X O O : X plays cell 2 to complete the top row and fill the board.
    g.marks[1] = [0b001_100_011, 0b110_011_000];
    let g = g.play(at(1, 2)).unwrap();
    assert_eq!(g.small_board(1), SmallBoard::Won(Player::Blue));
}

#[test]
fn being_sent_to_a_closed_board_frees_the_choice() {
    let mut g = Meta::new();
    give_board(&mut g, 4, Player::Red);
    let g = g.play(at(0, 4)).unwrap();
    assert_eq!(g.required_board(), None);
    assert_eq!(g.playable_boards(), 0x1ff & !(1 << 4));
    assert_eq!(g.legal_actions().len(), 81 - 9 - 1);
}

#[test]
fn a_move_that_wins_the_board_it_sends_to_frees_the_choice() {
    // Blue wins board 2 with its cell 2, which would send Red to board 2, now closed.
    let mut g = Meta::new();
    g.marks[2][0] = 0b011;
    let g = g.play(at(2, 2)).unwrap();
    assert_eq!(g.small_board(2), SmallBoard::Won(Player::Blue));
    assert_eq!(g.required_board(), None, "evaluated after the move");
    assert!(!g.is_playable_board(2));
    // Winning a board with a cell that points elsewhere still constrains.
    let mut h = Meta::new();
    h.marks[2][0] = 0b101;
    let h = h.play(at(2, 1)).unwrap();
    assert_eq!(h.small_board(2), SmallBoard::Won(Player::Blue));
    assert_eq!(
        h.required_board(),
        Some(1),
        "winning a board still sends to an open one"
    );
}

#[test]
fn a_global_win_on_the_last_move_is_a_win_not_a_draw() {
    // Every board closed except board 8, one cell from a Blue line that also completes the
    // diagonal 0-4-8 of the big board and fills the grid: 81 marks in all.
    let mut g = Meta::new();
    for b in 0..8 {
        match b {
            0 | 4 => give_board(&mut g, b, Player::Blue),
            _ => draw_board(&mut g, b),
        }
    }
    // Fill the won boards completely so the grid is full but for one cell.
    for b in [0usize, 4] {
        g.marks[b] = [0b001_100_111, 0b110_011_000];
    }
    // Board 8: X X . / O O X / X O O.
    g.marks[8] = [0b001_100_011, 0b110_011_000];
    g.required = Some(8);
    let end = g.play(at(8, 2)).unwrap();
    assert_eq!(end.cells_string().matches('.').count(), 0);
    assert_eq!(
        end.outcome(),
        Some(Outcome {
            winner: Some(Player::Blue),
            reason: Reason::Line
        })
    );
    assert_eq!(end.winning_line(), Some([0, 4, 8]));
    assert_eq!(end.required_board(), None);
}

#[test]
fn every_board_closed_without_a_line_is_a_draw() {
    let mut g = Meta::new();
    give_board(&mut g, 0, Player::Blue);
    give_board(&mut g, 8, Player::Blue);
    give_board(&mut g, 2, Player::Red);
    for b in [1, 3, 5, 6, 7] {
        draw_board(&mut g, b);
    }
    // Board 4 left: X O X / X O O / O X . and Blue fills the last cell without a line.
    g.marks[4] = [0b010_001_101, 0b001_110_010];
    g.required = Some(4);
    let end = g.play(at(4, 8)).unwrap();
    assert_eq!(end.small_board(4), SmallBoard::Drawn);
    assert_eq!(
        end.outcome(),
        Some(Outcome {
            winner: None,
            reason: Reason::AllClosed
        })
    );
    assert_eq!(end.winning_line(), None);
    assert_eq!(end.results_string(), "XDODDDDDX");
    assert!(end.legal_actions().is_empty());
}

#[test]
fn playing_never_changes_the_previous_state() {
    let g = replay("e5 e4 e3");
    let copy = g;
    let next = g.play(at(g.required_board().unwrap(), 0)).unwrap();
    assert_eq!(g, copy);
    assert_ne!(g, next);
    assert_eq!(next.moves(), 4);
    assert_eq!(next.last_move(), Some(at(1, 0)));
}

#[test]
fn arrows_cross_small_boards_without_wrapping() {
    use Direction::*;
    assert_eq!(c("c5").toward(Right), c("d5"), "from board 3 into board 4");
    assert_eq!(c("e6").toward(Up), c("e7"), "from board 4 into board 1");
    assert_eq!(c("e4").toward(Down), c("e3"), "from board 4 into board 7");
    assert_eq!(c("a9").toward(Up), c("a9"));
    assert_eq!(c("a9").toward(Left), c("a9"));
    assert_eq!(c("i1").toward(Down), c("i1"));
    assert_eq!(c("i1").toward(Right), c("i1"));
    assert_eq!(c("a5").toward(Left), c("a5"), "no wrap-around");
    // Walking right along a row visits 9 cells of 3 boards.
    let mut cell = c("a9");
    let mut boards = vec![cell.board()];
    for _ in 0..8 {
        cell = cell.toward(Right);
        boards.push(cell.board());
    }
    assert_eq!(cell, c("i9"));
    assert_eq!(boards, [0, 0, 0, 1, 1, 1, 2, 2, 2]);
}

#[test]
fn twenty_deterministic_complete_games_end_consistently() {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..20 {
        let mut g = Meta::new();
        let mut turns = Vec::new();
        while !g.is_over() {
            let moves = g.legal_actions();
            assert_eq!(moves.len() as u32, g.count_moves());
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let m = moves[(seed >> 33) as usize % moves.len()];
            turns.push(m);
            g = g.play(m).unwrap();
        }
        assert!(g.moves() as usize == turns.len() && turns.len() <= 81);
        let o = g.outcome().unwrap();
        match o.winner {
            Some(p) => {
                let line = g.winning_line().unwrap();
                assert!(line.iter().all(|&b| g.small_board(b) == SmallBoard::Won(p)));
                assert_eq!(Some(p), g.last_move().and_then(|m| g.piece_at(m)));
            }
            None => assert!(g.results_string().chars().all(|r| r != '.')),
        }
        assert_eq!(
            record::replay(Meta::new(), &record::write::<Meta>(&turns)),
            Ok(g)
        );
    }
}

#[test]
fn a_first_move_leaves_the_state_the_command_line_prints() {
    let g = replay("e5");
    assert_eq!(g.cells_string().find('X'), Some(40));
    assert_eq!(g.results_string(), ".........");
    assert_eq!(
        (g.to_move(), g.required_board(), g.moves()),
        (Player::Red, Some(4), 1)
    );
    assert_eq!((g.outcome(), g.winning_line()), (None, None));
}
