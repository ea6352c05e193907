//! Ultimate tic-tac-toe: Monte-Carlo tree search (UCT) with a solver.
//!
//! Each iteration walks down the tree by the UCB1 rule, expands a leaf (all its children at once,
//! in a seeded random order), plays the game out at random from there and counts the result for
//! every node on the way back. The state is the engine's own `Copy` bitboard game, so the forced
//! board, closed boards and local versus global wins are exactly the rules'.
//!
//! The solver marks a node won, lost or drawn once that is certain (a finished game; with
//! `tactics`, also a move after which the opponent has a game-winning move) and carries proofs
//! upwards: one winning reply makes the move lost, all replies lost make it won, all lost or
//! drawn (some drawn) make it drawn. Proven-lost moves are never chosen while another exists.
//! With `tactics` the playouts also take a game-winning move whenever one is there, which makes
//! their results much less noisy.

use super::{Budget, Limits, Rng, SearchResult, WIN};
use crate::meta::{Cell, Meta, FULL, LINES};
use crate::nav::Bits;
use crate::{Game, Illegal, Player};

/// The stop check is polled every this many playouts.
const POLL: u64 = 32;

/// A proof, from the point of view of the player who made the move into the node.
const UNKNOWN: i8 = 0;
const WON: i8 = 1;
const DRAWN: i8 = 2;
const LOST: i8 = 3;

#[derive(Clone, Copy, Default)]
struct Node {
    /// Index of the first child; 0 while not expanded (the root is node 0, never a child).
    first: u32,
    visits: u32,
    /// Sum of results for the player who moved into this node: 1 win, ½ draw, 0 loss.
    value: f32,
    /// The move into this node, `board * 9 + cell`.
    cell: u8,
    count: u8,
    proof: i8,
}

#[derive(Clone, Copy)]
struct Style {
    solver: bool,
    tactics: bool,
    exploration: f32,
}

/// The three masks of the lines of a 3×3 grid.
const LINE_MASKS: [u16; 8] = {
    let mut m = [0u16; 8];
    let mut i = 0;
    while i < 8 {
        m[i] = (1 << LINES[i][0]) | (1 << LINES[i][1]) | (1 << LINES[i][2]);
        i += 1;
    }
    m
};

/// Points of a 3×3 grid that would complete a line of `mine`, among `free`.
#[inline]
fn completing(mine: u16, free: u16) -> u16 {
    let mut out = 0;
    for m in LINE_MASKS {
        let rest = m & !mine;
        if rest.count_ones() == 1 {
            out |= rest;
        }
    }
    out & free
}

/// Boards the player to move may play in, as a mask.
#[inline]
fn playable(g: &Meta) -> u16 {
    match g.required_board() {
        Some(b) => 1 << b,
        None => !g.closed_mask() & FULL,
    }
}

/// A move of the player to move that wins the game at once, if any (`board * 9 + cell`).
#[inline]
fn winning_move(g: &Meta) -> Option<u8> {
    let me = g.to_move().index();
    let won = g.won_masks()[me];
    let boards = completing(won, playable(g));
    for b in Bits(boards as u32) {
        let [x, o] = g.marks()[b as usize];
        let mine = [x, o][me];
        let cells = completing(mine, !(x | o) & FULL);
        if cells != 0 {
            return Some(b as u8 * 9 + cells.trailing_zeros() as u8);
        }
    }
    None
}

/// A uniformly random legal move (the game not over).
#[inline]
fn random_move(g: &Meta, rng: &mut Rng) -> u8 {
    let marks = g.marks();
    let free = |b: usize| !(marks[b][0] | marks[b][1]) & FULL;
    let boards = playable(g);
    let total: u32 = Bits(boards as u32)
        .map(|b| free(b as usize).count_ones())
        .sum();
    let mut r = rng.below(total as u64) as u32;
    for b in Bits(boards as u32) {
        let f = free(b as usize);
        let n = f.count_ones();
        if r < n {
            let mut bits = f;
            for _ in 0..r {
                bits &= bits - 1;
            }
            return b as u8 * 9 + bits.trailing_zeros() as u8;
        }
        r -= n;
    }
    unreachable!("a game not over has a legal move")
}

/// Every legal move as `board * 9 + cell`.
fn legal(g: &Meta, out: &mut Vec<u8>) {
    out.clear();
    for b in Bits(playable(g) as u32) {
        let [x, o] = g.marks()[b as usize];
        for c in Bits((!(x | o) & FULL) as u32) {
            out.push(b as u8 * 9 + c as u8);
        }
    }
}

#[inline]
fn play(g: &mut Meta, m: u8) {
    g.play_unchecked(m / 9, m % 9);
}

struct Tree {
    nodes: Vec<Node>,
    capacity: usize,
    style: Style,
    rng: Rng,
    scratch: Vec<u8>,
    max_depth: u32,
}

impl Tree {
    /// Random (or, with tactics, game-winning-first) moves to the end: the winner.
    fn playout(&mut self, mut g: Meta) -> Option<Player> {
        loop {
            if let Some(o) = g.outcome() {
                return o.winner;
            }
            let m = if self.style.tactics {
                winning_move(&g).unwrap_or_else(|| random_move(&g, &mut self.rng))
            } else {
                random_move(&g, &mut self.rng)
            };
            play(&mut g, m);
        }
    }

    /// Creates the children of `node` (whose state `g` is not over); false when out of memory.
    fn expand(&mut self, node: usize, g: &Meta) -> bool {
        let mut moves = std::mem::take(&mut self.scratch);
        legal(g, &mut moves);
        if self.nodes.len() + moves.len() > self.capacity {
            self.scratch = moves;
            return false;
        }
        for i in (1..moves.len()).rev() {
            moves.swap(i, self.rng.below(i as u64 + 1) as usize);
        }
        let first = self.nodes.len();
        let mover = g.to_move();
        for &m in &moves {
            let mut child = *g;
            play(&mut child, m);
            let proof = if !self.style.solver {
                UNKNOWN
            } else if let Some(o) = child.outcome() {
                match o.winner {
                    Some(w) if w == mover => WON,
                    Some(_) => LOST,
                    None => DRAWN,
                }
            } else if self.style.tactics && winning_move(&child).is_some() {
                LOST
            } else {
                UNKNOWN
            };
            self.nodes.push(Node {
                cell: m,
                proof,
                ..Node::default()
            });
        }
        self.nodes[node].first = first as u32;
        self.nodes[node].count = moves.len() as u8;
        self.scratch = moves;
        true
    }

    /// The child to descend into by UCB1, skipping proven losses while another child exists.
    fn select(&mut self, node: usize) -> usize {
        let n = self.nodes[node];
        let first = n.first as usize;
        let log_n = (n.visits.max(1) as f32).ln();
        let mut best = first;
        let mut best_value = f32::NEG_INFINITY;
        for c in first..first + n.count as usize {
            let child = self.nodes[c];
            let value = match child.proof {
                WON => return c,
                LOST => -1.0,
                _ if child.visits == 0 => return c,
                DRAWN => 0.5 + self.style.exploration * (log_n / child.visits as f32).sqrt(),
                _ => {
                    child.value / child.visits as f32
                        + self.style.exploration * (log_n / child.visits as f32).sqrt()
                }
            };
            if value > best_value {
                best_value = value;
                best = c;
            }
        }
        best
    }

    /// After a child of `node` was proven: the node's own proof, if now certain.
    fn prove(&self, node: usize) -> i8 {
        let n = self.nodes[node];
        let first = n.first as usize;
        let mut all = true;
        let mut draw = false;
        for c in &self.nodes[first..first + n.count as usize] {
            match c.proof {
                WON => return LOST,
                DRAWN => draw = true,
                LOST => {}
                _ => all = false,
            }
        }
        match (all, draw) {
            (false, _) => UNKNOWN,
            (true, true) => DRAWN,
            (true, false) => WON,
        }
    }

    /// One iteration from the root; false once the root is proven.
    fn iterate(&mut self, root: &Meta) -> bool {
        let mut g = *root;
        let mut path: [u32; 82] = [0; 82];
        let mut len = 1;
        let mut node = 0usize;
        let winner: Option<Player>;
        loop {
            let n = self.nodes[node];
            if n.proof != UNKNOWN || g.is_over() {
                // Proven or finished: the result is known without a playout.
                let mover = g.to_move().opponent();
                winner = match n.proof {
                    WON => Some(mover),
                    LOST => Some(mover.opponent()),
                    DRAWN => None,
                    _ => g.outcome().and_then(|o| o.winner),
                };
                break;
            }
            if n.first == 0 {
                if (n.visits == 0 && node != 0) || !self.expand(node, &g) {
                    winner = self.playout(g);
                    break;
                }
                if self.style.solver {
                    let p = self.prove(node);
                    if p != UNKNOWN {
                        self.nodes[node].proof = p;
                        continue;
                    }
                }
            }
            let c = self.select(node);
            play(&mut g, self.nodes[c].cell);
            node = c;
            path[len] = c as u32;
            len += 1;
        }
        self.max_depth = self.max_depth.max(len as u32 - 1);
        // Results, and proofs carried up from the deepest proven node.
        let mut mover = g.to_move().opponent();
        let mut proving = self.style.solver && self.nodes[node].proof != UNKNOWN;
        for i in (0..len).rev() {
            let id = path[i] as usize;
            if proving && i + 1 < len {
                let p = self.prove(id);
                if p == UNKNOWN {
                    proving = false;
                } else {
                    self.nodes[id].proof = p;
                }
            }
            let n = &mut self.nodes[id];
            n.visits += 1;
            n.value += match winner {
                Some(w) if w == mover => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            mover = mover.opponent();
        }
        self.nodes[0].proof == UNKNOWN
    }
}

impl Tree {
    fn new(limits: &Limits, style: Style, seed: u64) -> Tree {
        let capacity = 1usize << limits.memory_bits.clamp(10, 24);
        let mut nodes = Vec::with_capacity(capacity.min(1 << 16));
        nodes.push(Node::default());
        Tree {
            nodes,
            capacity,
            style,
            rng: Rng::new(seed ^ 0x6d65_7461),
            scratch: Vec::with_capacity(81),
            max_depth: 0,
        }
    }

    /// Iterates from the root (`game`, not over) until the budget or the stop check ends it or
    /// the root is proven; the number of playouts. The root is expanded first, so a single legal
    /// move or a proven root needs none.
    fn grow(&mut self, game: &Meta, budget: &mut Budget<'_>) -> u64 {
        let mut playouts = 0;
        self.expand(0, game);
        if self.style.solver {
            self.nodes[0].proof = self.prove(0);
        }
        while self.nodes[0].count > 1 && self.nodes[0].proof == UNKNOWN {
            let open = self.iterate(game);
            playouts += 1;
            if !open || budget.spend() {
                break;
            }
        }
        playouts
    }

    fn children(&self, node: usize) -> &[Node] {
        let n = self.nodes[node];
        &self.nodes[n.first as usize..(n.first + n.count as u32) as usize]
    }

    /// The root's child to play: a proven win, else the most visited child not proven lost —
    /// or a proven draw when that child loses on average.
    fn answer(&self) -> usize {
        let first = self.nodes[0].first as usize;
        let children = self.children(0);
        let best = children
            .iter()
            .enumerate()
            .max_by_key(|(_, n)| rank(n))
            .map(|(i, _)| first + i)
            .expect("a game not over has a legal move");
        let b = self.nodes[best];
        if b.proof == UNKNOWN && b.visits > 0 && b.value / (b.visits as f32) < 0.45 {
            if let Some(i) = children.iter().position(|n| n.proof == DRAWN) {
                return first + i;
            }
        }
        best
    }

    /// The expected line from `node`: its move, then the best-ranked child's while one has
    /// been visited or proven.
    fn line(&self, mut node: usize) -> Vec<Cell> {
        let mut pv = Vec::new();
        loop {
            pv.push(cell(self.nodes[node].cell));
            let n = self.nodes[node];
            if n.first == 0 || n.count == 0 {
                break;
            }
            let kids = self.children(node);
            let Some((i, k)) = kids.iter().enumerate().max_by_key(|(_, k)| rank(k)) else {
                break;
            };
            if k.visits == 0 && k.proof == UNKNOWN {
                break;
            }
            node = n.first as usize + i;
        }
        pv
    }
}

/// How a child ranks as the answer: a proven win first, then unproven, then drawn, then lost
/// children, each by visits.
fn rank(n: &Node) -> (u8, u32) {
    match n.proof {
        WON => (3, 0),
        LOST => (0, n.visits),
        DRAWN => (1, n.visits),
        _ => (2, n.visits),
    }
}

/// A node's score for the player who moved into it (see [`SearchResult::score`]).
fn score(n: &Node) -> i32 {
    match n.proof {
        WON => WIN - 1,
        LOST => -WIN + 2,
        DRAWN => 0,
        _ if n.visits > 0 => ((2.0 * n.value / n.visits as f32 - 1.0) * 1000.0) as i32,
        _ => 0,
    }
}

fn run(
    game: &Meta,
    limits: &Limits,
    stop: &mut dyn FnMut() -> bool,
    seed: u64,
    style: Style,
) -> Result<SearchResult<Cell>, Illegal> {
    if game.is_over() {
        return Err(Illegal::GameOver);
    }
    let mut tree = Tree::new(limits, style, seed);
    let mut budget = Budget::new(stop, limits.nodes, POLL);
    let playouts = tree.grow(game, &mut budget);
    let best = tree.answer();
    let b = tree.nodes[best];
    Ok(SearchResult {
        turn: cell(b.cell),
        score: score(&b),
        depth: tree.max_depth,
        nodes: playouts,
        pv: tree.line(best),
    })
}

fn cell(m: u8) -> Cell {
    Cell::new(m).expect("a cell index from the search")
}

/// Searches an Ultimate tic-tac-toe game; see the [module](super) documentation.
///
/// ```
/// use engine::ai::{search_meta, Level};
/// use engine::{meta::Meta, Game, GameKind};
///
/// let g = Meta::new();
/// let limits = Level::Easy.limits(GameKind::Meta);
/// let r = search_meta(&g, &limits, &mut || false, 1).unwrap();
/// assert!(g.legal_turns().contains(&r.turn));
/// ```
pub fn search_meta(
    game: &Meta,
    limits: &Limits,
    stop: &mut dyn FnMut() -> bool,
    seed: u64,
) -> Result<SearchResult<Cell>, Illegal> {
    let style = Style {
        solver: true,
        tactics: limits.tactics,
        exploration: 0.4,
    };
    run(game, limits, stop, seed, style)
}

/// The baseline of `engine match` (`uct20000` is 20 000 playouts): plain UCT, uniformly random
/// playouts, UCB1 with the textbook exploration constant √2, no solver, the most visited move.
pub fn uct_baseline(game: &Meta, playouts: u64, seed: u64) -> Result<SearchResult<Cell>, Illegal> {
    let style = Style {
        solver: false,
        tactics: false,
        exploration: std::f32::consts::SQRT_2,
    };
    let limits = Limits {
        nodes: playouts,
        depth: 0,
        memory_bits: 22,
        noise: 0,
        tactics: false,
    };
    run(game, &limits, &mut || false, seed, style)
}
