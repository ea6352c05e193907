//! Morris: iterative-deepening PVS over whole turns.
//!
//! A node is a position at a turn boundary (phase play); a child is the position after one whole
//! turn: the placement or move, then, when it closed a mill, one capture. The evaluation never
//! sees a half-played turn. After each turn the end checks run in the rules' order (pieces, full
//! board, blocked, third repetition, `quiet` turns without a capture, limit), with the exact
//! repetition counts of the game so far plus the line being searched.
//!
//! The transposition key holds everything the rest of the game depends on: board, reserves,
//! player to move (the 57-bit position key), completed turns (so the turns left before the
//! limit), under the `quiet` rule the turns since the last capture, and a hash of the positions
//! seen since the last irreversible turn (placement or capture), counted with multiplicity,
//! since those are the positions a later one can repeat. The phase is always `play` at a node.

use super::{mix, Budget, Limits, Rng, SearchResult, WIN};
use crate::morris::Point;
use crate::morris::{capturable, closes_mill, Law, Morris, Phase, Position, Turn};
use crate::nav::Bits;
use crate::{Game, Illegal};

/// No point: a placement's `from`, a turn without capture.
const NONE: u8 = 24;
const INF: i32 = WIN + 1;
/// Proven scores are beyond this.
const PROVEN: i32 = WIN - 1000;
const MAX_PLY: usize = 96;
/// The quiescence follows at most this many capturing turns past the horizon.
const QUIESCENCE: u32 = 4;
/// The stop check is polled every this many nodes.
const POLL: u64 = 1024;

/// A whole turn inside the search: `from` is [`NONE`] for a placement, `to` is [`NONE`] for the
/// completion of a pending capture at the root, `cap` is [`NONE`] without capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
struct Mv {
    from: u8,
    to: u8,
    cap: u8,
}

impl Mv {
    const NULL: Mv = Mv {
        from: 0,
        to: 0,
        cap: 0,
    };

    fn is_capture(self) -> bool {
        self.cap != NONE
    }
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    score: i16,
    depth: u8,
    bound: u8,
    mv: Mv,
}

/// What the transposition table says about a node.
enum Probe {
    /// A stored score that settles the node.
    Cut(i32),
    /// The stored best turn, to try first ([`Mv::NULL`] if none).
    Hint(Mv),
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;

/// How the search behaves: the real one, or the plain baseline of `engine match`.
#[derive(Clone, Copy)]
struct Style {
    /// Full evaluation (else material only).
    full_eval: bool,
    /// Transposition table, killers, history and iterative deepening.
    enhanced: bool,
    /// Capture-only quiescence at the horizon.
    quiescence: bool,
}

/// Completed turns and turns since the last capture, at a node: the limit's and the `quiet`
/// rule's counters.
#[derive(Clone, Copy)]
struct Clock {
    turns: u16,
    quiet: u16,
}

impl Clock {
    /// The counters after a turn.
    #[inline]
    fn after(self, mv: Mv) -> Clock {
        Clock {
            turns: self.turns + 1,
            quiet: if mv.is_capture() { 0 } else { self.quiet + 1 },
        }
    }
}

/// The search, compiled twice (see [`Law`]): for basic rules with the default's switches as
/// constants, and for any rules.
struct Searcher<'a, const BASIC: bool> {
    style: Style,
    law: Law<BASIC>,
    max_turns: u16,
    /// Keys of the positions after each turn; `seen[segment..]` are those since the last
    /// irreversible turn.
    seen: Vec<u64>,
    segment: usize,
    /// Multiset hash of `seen[segment..]`.
    context: u64,
    tt: Vec<Entry>,
    killers: [[Mv; 2]; MAX_PLY],
    /// Indexed by side, then `from * 25 + to` (from = 24 for placements).
    history: Vec<i32>,
    moves: Vec<Vec<(Mv, i32)>>,
    pv: Vec<[Mv; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    budget: Budget<'a>,
    max_ply: usize,
    /// Whether forced lines are followed further: [`fills_board`], for the real search only.
    extend: bool,
}

/// Plays a whole turn on a position: the child, with the move passed to the opponent, and
/// whether the turn was irreversible (placement or capture).
#[inline]
fn apply(pos: &Position, mv: Mv) -> (Position, bool) {
    let mut child = *pos;
    let me = pos.to_move.index();
    let mut irreversible = false;
    if mv.to != NONE {
        if mv.from == NONE {
            child.pieces[me] |= 1 << mv.to;
            child.reserves[me] -= 1;
            irreversible = true;
        } else {
            child.pieces[me] ^= 1 << mv.from | 1 << mv.to;
        }
    }
    if mv.cap != NONE {
        child.pieces[1 - me] &= !(1 << mv.cap);
        irreversible = true;
    }
    child.to_move = pos.to_move.opponent();
    (child, irreversible)
}

/// Every whole turn of the player to move (or only the capturing ones), appended to `out`:
/// placements while the reserve lasts, moves once it is empty or under Lasker.
fn generate<const BASIC: bool>(
    law: Law<BASIC>,
    pos: &Position,
    out: &mut Vec<(Mv, i32)>,
    captures_only: bool,
) {
    let (rules, geo) = (law.rules(), law.geo());
    let me = pos.to_move.index();
    let mine = pos.pieces[me];
    let theirs = pos.pieces[1 - me];
    let caps = if theirs != 0 {
        capturable(geo, theirs)
    } else {
        0
    };
    let mut push = |from: u8, to: u32, after: u32| {
        if caps != 0 && closes_mill(geo, after, to) {
            for c in Bits(caps) {
                out.push((
                    Mv {
                        from,
                        to: to as u8,
                        cap: c as u8,
                    },
                    0,
                ));
            }
        } else if !captures_only {
            out.push((
                Mv {
                    from,
                    to: to as u8,
                    cap: NONE,
                },
                0,
            ));
        }
    };
    if pos.reserves[me] > 0 {
        for to in Bits(pos.empty()) {
            push(NONE, to, mine | 1 << to);
        }
    }
    if pos.may_move(rules, pos.to_move) {
        for from in Bits(mine) {
            for to in Bits(pos.destinations(rules, geo, pos.to_move, from)) {
                push(from as u8, to, mine ^ (1 << from | 1 << to));
            }
        }
    }
}

const PIECE: i32 = 100;
/// Lasker: what a piece in reserve is worth on top of one on the board.
const LASKER_RESERVE: i32 = 50;

/// Static evaluation for the player to move (game not over, turn boundary).
fn evaluate<const BASIC: bool>(law: Law<BASIC>, pos: &Position, full: bool) -> i32 {
    let me = pos.to_move.index();
    let material = |p: usize| (pos.pieces[p].count_ones() + pos.reserves[p] as u32) as i32;
    let mut score = (material(me) - material(1 - me)) * PIECE;
    if full {
        // Points with a free neighbour: the pieces there can move.
        let near = law.geo().spread(pos.empty());
        let (mine, _) = side_terms(law, pos, me, near);
        let (theirs, their_holes) = side_terms(law, pos, 1 - me, near);
        score += mine - theirs + 10;
        if law.rules().lasker() {
            // Under Lasker a piece kept in reserve cannot be taken, closes a mill anywhere,
            // and a side with one can never be blocked.
            score += (pos.reserves[me] as i32 - pos.reserves[1 - me] as i32) * LASKER_RESERVE;
        }
        // Two points where the opponent closes a mill: only one can be blocked this turn (the
        // side to move's own mills are searched by the quiescence).
        if several(their_holes) {
            score -= 60;
        }
        // Where the board can fill, a point where the side to move places two mill threats at
        // once wins a piece, unless the opponent threatens a mill already (to be blocked first).
        if fills_board(law.rules()) && their_holes == 0 && fork_points(law, pos, me) != 0 {
            score += FORK;
        }
    }
    score
}

/// Side to move, under rules where the board can fill ([`fills_board`]): it has a point where
/// it places two mill threats at once ([`fork_points`]) and the opponent has none to close.
const FORK: i32 = 40;

/// Points where side `p`, placing with at least two pieces in reserve, makes two mill threats
/// at once: two lines through the point, each with one of its pieces and none of the
/// opponent's.
pub(super) fn fork_points<const BASIC: bool>(law: Law<BASIC>, pos: &Position, p: usize) -> u32 {
    if pos.reserves[p] < 2 {
        return 0;
    }
    let (mine, theirs) = (pos.pieces[p], pos.pieces[1 - p]);
    let (mut once, mut twice) = (0u32, 0u32);
    for &m in law.geo().mill_masks() {
        let own = m & mine;
        if m & theirs == 0 && own != 0 && !several(own) {
            let e = m & !own;
            twice |= once & e;
            once |= e;
        }
    }
    twice
}

/// More than one point in `x`. A bit test, not a count: `count_ones` is a loop of its own where
/// the target has no popcount instruction (the native build's default x86-64).
#[inline(always)]
fn several(x: u32) -> bool {
    x & x.wrapping_sub(1) != 0
}

/// Exactly two of the three points of the mill `m` are in `set`.
#[inline(always)]
fn two_of(m: u32, set: u32) -> bool {
    let x = m & set;
    x != m && several(x)
}

/// Positional terms of one side (potential and complete mills, mobility, blocked pieces), and
/// the points where it could close a mill on its next turn. `near`: the points with a
/// free neighbour.
fn side_terms<const BASIC: bool>(
    law: Law<BASIC>,
    pos: &Position,
    p: usize,
    near: u32,
) -> (i32, u32) {
    let (rules, geo) = (law.rules(), law.geo());
    let adjacent = &geo.adjacent;
    let mine = pos.pieces[p];
    let theirs = pos.pieces[1 - p];
    let empty = pos.empty();
    let placing = pos.reserves[p] > 0;
    // A side that can slide (its reserve empty, or under Lasker) can open a mill and close it
    // again for a new capture.
    let slides = !placing || rules.lasker();
    let flying = pos.can_fly(rules, crate::Player::BOTH[p]);
    let mut score = 0;
    let mut threats = 0;
    let mut holes = 0u32;
    for &m in geo.mill_masks() {
        let own = m & mine;
        if own == m {
            // A mill that can open (a neighbour free) can close again for a new capture.
            let opens = m & near != 0;
            score += if opens && slides { 30 } else { 12 };
        } else if m & theirs == 0 && two_of(m, mine) {
            let hole = m & empty;
            let h = hole.trailing_zeros() as usize;
            let closable = placing || flying || adjacent[h] & mine & !m != 0;
            if closable {
                threats += 1;
                holes |= hole;
            } else {
                score += 6;
            }
        }
    }
    score += threats * if placing { 10 } else { 35 };
    if !flying {
        let mobility = geo.links_between(mine, empty) as i32;
        let blocked = (mine & !near).count_ones() as i32;
        if pos.placement_over() {
            score += mobility * 15 - blocked * 8;
            if mobility <= 2 {
                score -= (3 - mobility) * 40;
            }
        } else {
            // Pieces hemmed in while placing have few moves once moving starts: a side that
            // builds its mills on a closed ring is blocked soon after the last placement.
            score += mobility * 26 - blocked * 8;
            let left = (pos.reserves[0] + pos.reserves[1]) as i32;
            if left <= 4 && mobility <= 3 {
                score -= (4 - mobility) * 30;
            }
        }
    }
    (score, holes)
}

/// Nodes with at most this many turns are searched one turn deeper where [`fills_board`].
const FEW_REPLIES: usize = 2;

/// Whether the search follows forced lines one turn further: when the rules let the pieces fill
/// the board (twelve pieces a side for 24 points). There the placement ends on a nearly full
/// board where a side with one or two moves is soon blocked or loses its pieces one by one, some
/// twenty turns after the mistake (docs/ai.md, « Strength under other rules »); those lines are
/// narrow, so following them costs little. Elsewhere the search is unchanged, and so is the
/// plain baseline of `engine match` everywhere.
pub(super) fn fills_board(rules: crate::morris::Rules) -> bool {
    2 * rules.pieces() >= NONE
}

/// Both sides placing, the opponent has a point where it closes a mill next turn, and the side
/// to move has none of its own: its placement is all but forced (block, or lose a piece).
pub(super) fn faces_threat<const BASIC: bool>(law: Law<BASIC>, pos: &Position) -> bool {
    let me = pos.to_move.index();
    if pos.reserves[me] == 0 || pos.reserves[1 - me] == 0 {
        return false;
    }
    let (mine, theirs) = (pos.pieces[me], pos.pieces[1 - me]);
    let mut theirs_hole = false;
    for &m in law.geo().mill_masks() {
        if m & theirs == 0 && two_of(m, mine) {
            return false;
        }
        if m & mine == 0 && two_of(m, theirs) {
            theirs_hole = true;
        }
    }
    theirs_hole
}

impl<'a, const BASIC: bool> Searcher<'a, BASIC> {
    fn new(
        game: &Morris,
        style: Style,
        memory_bits: u8,
        budget: Budget<'a>,
        kept: Vec<Entry>,
    ) -> Searcher<'a, BASIC> {
        let seen = game.seen().to_vec();
        let context = seen
            .iter()
            .fold(0u64, |h, &k| h.wrapping_add(mix(k ^ SALT)));
        let tt_len = if style.enhanced {
            1usize << memory_bits.clamp(10, 22)
        } else {
            0
        };
        Searcher {
            style,
            law: Law::new(game.rules()),
            max_turns: game.max_turns(),
            seen,
            segment: 0,
            context,
            // A table kept from an earlier search of the same game is read as it is.
            tt: if kept.len() == tt_len {
                kept
            } else {
                vec![Entry::default(); tt_len]
            },
            killers: [[Mv::NULL; 2]; MAX_PLY],
            history: vec![0; 2 * 25 * 25],
            moves: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(64)).collect(),
            pv: vec![[Mv::NULL; MAX_PLY]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY],
            budget,
            max_ply: 0,
            extend: style.enhanced && fills_board(game.rules()),
        }
    }

    /// What the rest of the game depends on: the position, the turns left before the limit,
    /// the repetition context and, under the `quiet` rule, the turns left before its draw.
    fn key(&self, pos: &Position, clock: Clock) -> u64 {
        let key = mix(pos.key()) ^ mix(clock.turns as u64 ^ 0x5151_0000) ^ self.context;
        if self.law.rules().quiet() > 0 {
            key ^ mix(clock.quiet as u64 ^ 0x7175_6965_7400_0000)
        } else {
            key
        }
    }

    /// The end checks after a turn that led to `child` (its repetition count `reps`).
    #[inline]
    fn outcome(&self, child: &Position, clock: Clock, reps: usize) -> Option<crate::Outcome> {
        child.outcome_after_turn(
            self.law.rules(),
            self.law.geo(),
            (clock.turns, self.max_turns),
            reps,
            clock.quiet,
        )
    }

    fn evaluate(&self, pos: &Position) -> i32 {
        evaluate(self.law, pos, self.style.full_eval)
    }

    /// Records the child position after a turn; returns its repetition count and what to restore.
    #[inline]
    fn enter(&mut self, child: &Position, irreversible: bool) -> (usize, (usize, u64)) {
        let saved = (self.segment, self.context);
        let key = child.key();
        if irreversible {
            self.segment = self.seen.len();
            self.context = 0;
        }
        self.seen.push(key);
        self.context = self.context.wrapping_add(mix(key ^ SALT));
        let reps = if irreversible {
            1
        } else {
            self.seen[self.segment..]
                .iter()
                .filter(|&&k| k == key)
                .count()
        };
        (reps, saved)
    }

    #[inline]
    fn leave(&mut self, saved: (usize, u64)) {
        self.seen.pop();
        (self.segment, self.context) = saved;
    }

    /// Plays `mv` from `pos` and scores the child for the player who played it.
    fn child_score(
        &mut self,
        pos: &Position,
        clock: Clock,
        mv: Mv,
        depth: i32,
        (alpha, beta): (i32, i32),
        ply: usize,
    ) -> i32 {
        if self.budget.stopped {
            return 0;
        }
        self.budget.spend();
        self.pv_len[(ply + 1).min(MAX_PLY - 1)] = ply + 1;
        let (child, irreversible) = apply(pos, mv);
        let (reps, saved) = self.enter(&child, irreversible);
        let next = clock.after(mv);
        let score = match self.outcome(&child, next, reps) {
            Some(o) if o.winner.is_some() => WIN - (ply as i32 + 1),
            Some(_) => 0,
            None => -self.negamax(&child, next, depth - 1, -beta, -alpha, ply + 1),
        };
        self.leave(saved);
        score
    }

    fn order(&mut self, ply: usize, side: usize, tt_move: Mv, theirs: u32, empty: u32) {
        let killers = self.killers[ply.min(MAX_PLY - 1)];
        let mut list = std::mem::take(&mut self.moves[ply]);
        for (mv, score) in list.iter_mut() {
            *score = if *mv == tt_move {
                1 << 30
            } else if mv.is_capture() {
                // Take pieces that stand in the opponent's open mills first.
                let c = mv.cap as usize;
                let mut s = 1 << 26;
                for m in self.law.geo().through[c] {
                    if (m & theirs).count_ones() == 2 && m & empty != 0 {
                        s += 1000;
                    }
                }
                s
            } else if *mv == killers[0] {
                1 << 25
            } else if *mv == killers[1] {
                (1 << 25) - 1
            } else {
                self.history[side * 625 + mv.from as usize * 25 + mv.to as usize]
            };
        }
        list.sort_unstable_by_key(|m| std::cmp::Reverse(m.1));
        self.moves[ply] = list;
    }

    fn negamax(
        &mut self,
        pos: &Position,
        clock: Clock,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv_len[ply.min(MAX_PLY - 1)] = ply;
        if self.budget.stopped {
            return 0;
        }
        if depth <= 0 || ply >= MAX_PLY - 8 {
            let q = if self.style.quiescence { QUIESCENCE } else { 0 };
            return self.quiesce(pos, clock, alpha, beta, ply, q);
        }
        self.max_ply = self.max_ply.max(ply);
        let alpha0 = alpha;
        let key = self.key(pos, clock);
        let tt_move = match self.probe(key, depth, (alpha, beta), ply) {
            Probe::Cut(score) => return score,
            Probe::Hint(mv) => mv,
        };
        let n = self.generate_ordered(pos, ply, tt_move);
        if n == 0 {
            // Unreachable: a side without a turn has lost before its node is searched.
            return self.evaluate(pos);
        }
        // Few replies: a line of forced turns costs little and is followed further.
        // A placement that must answer the opponent's mill threat is as forced, when it counts.
        let forced = self.extend && (n <= FEW_REPLIES || faces_threat(self.law, pos));
        let depth = if forced { depth + 1 } else { depth };
        let mut best = -INF;
        let mut best_mv = Mv::NULL;
        for i in 0..n {
            let mv = self.moves[ply][i].0;
            let score = self.nth_child_score(pos, clock, (i, mv), depth, (alpha, beta), ply);
            if self.budget.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_mv = mv;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                }
                if score >= beta {
                    self.reward_cutoff(pos, mv, depth, ply);
                    break;
                }
            }
        }
        self.store(key, best, (alpha0, beta), depth, ply, best_mv);
        best
    }

    /// The transposition table's entry for `key`: a score that settles the node (not at the
    /// root), or its best turn to try first ([`Mv::NULL`] if none).
    #[inline]
    fn probe(&self, key: u64, depth: i32, (alpha, beta): (i32, i32), ply: usize) -> Probe {
        if !self.style.enhanced {
            return Probe::Hint(Mv::NULL);
        }
        let e = self.tt[key as usize & (self.tt.len() - 1)];
        if e.key != key {
            return Probe::Hint(Mv::NULL);
        }
        if e.depth as i32 >= depth && ply > 0 {
            let s = from_tt(e.score, ply);
            if e.bound == EXACT
                || (e.bound == LOWER && s >= beta)
                || (e.bound == UPPER && s <= alpha)
            {
                return Probe::Cut(s);
            }
        }
        Probe::Hint(e.mv)
    }

    /// Fills `moves[ply]` with the turns of `pos`, best first when the search is enhanced;
    /// their number.
    #[inline]
    fn generate_ordered(&mut self, pos: &Position, ply: usize, tt_move: Mv) -> usize {
        let mut list = std::mem::take(&mut self.moves[ply]);
        list.clear();
        generate(self.law, pos, &mut list, false);
        self.moves[ply] = list;
        if self.style.enhanced {
            let me = pos.to_move.index();
            self.order(ply, me, tt_move, pos.pieces[1 - me], pos.empty());
        }
        self.moves[ply].len()
    }

    /// The score of the `i`-th turn `mv` of a node (principal-variation search): the first with
    /// the full window, the others with a null window, late quiet ones shallower first, searched
    /// again in full only if they turn out better than the best so far.
    #[inline]
    fn nth_child_score(
        &mut self,
        pos: &Position,
        clock: Clock,
        (i, mv): (usize, Mv),
        depth: i32,
        (alpha, beta): (i32, i32),
        ply: usize,
    ) -> i32 {
        if i == 0 || !self.style.enhanced {
            return self.child_score(pos, clock, mv, depth, (alpha, beta), ply);
        }
        let killers = self.killers[ply.min(MAX_PLY - 1)];
        let late = depth >= 3 && i >= 3 && !mv.is_capture() && !killers.contains(&mv);
        let reduction = if !late {
            0
        } else if i >= 10 && depth >= 5 {
            2
        } else {
            1
        };
        let null = (alpha, alpha + 1);
        let mut s = self.child_score(pos, clock, mv, depth - reduction, null, ply);
        if reduction > 0 && s > alpha {
            s = self.child_score(pos, clock, mv, depth, null, ply);
        }
        if s > alpha && s < beta {
            self.child_score(pos, clock, mv, depth, (alpha, beta), ply)
        } else {
            s
        }
    }

    /// A quiet turn that refuted the node becomes a killer of its ply and gains history.
    #[inline]
    fn reward_cutoff(&mut self, pos: &Position, mv: Mv, depth: i32, ply: usize) {
        if !self.style.enhanced || mv.is_capture() {
            return;
        }
        let k = &mut self.killers[ply];
        if k[0] != mv {
            k[1] = k[0];
            k[0] = mv;
        }
        let me = pos.to_move.index();
        let h = &mut self.history[me * 625 + mv.from as usize * 25 + mv.to as usize];
        *h = (*h + depth * depth).min(1 << 24);
    }

    /// Stores a node's result: `best` is a lower bound at or above `beta`, exact inside the
    /// window the node was searched with, else an upper bound.
    #[inline]
    fn store(
        &mut self,
        key: u64,
        best: i32,
        (alpha0, beta): (i32, i32),
        depth: i32,
        ply: usize,
        best_mv: Mv,
    ) {
        if !self.style.enhanced {
            return;
        }
        let bound = if best >= beta {
            LOWER
        } else if best > alpha0 {
            EXACT
        } else {
            UPPER
        };
        let slot = key as usize & (self.tt.len() - 1);
        self.tt[slot] = Entry {
            key,
            score: to_tt(best, ply),
            depth: depth.clamp(0, 255) as u8,
            bound,
            mv: best_mv,
        };
    }

    /// Stand pat, or a capturing turn, for at most `left` more turns.
    fn quiesce(
        &mut self,
        pos: &Position,
        clock: Clock,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        left: u32,
    ) -> i32 {
        if self.budget.stopped {
            return 0;
        }
        let stand = self.evaluate(pos);
        if left == 0 || stand >= beta || ply >= MAX_PLY - 1 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut list = std::mem::take(&mut self.moves[ply]);
        list.clear();
        generate(self.law, pos, &mut list, true);
        let mut best = stand;
        for &(mv, _) in &list {
            let (child, irreversible) = apply(pos, mv);
            self.budget.spend();
            let (reps, saved) = self.enter(&child, irreversible);
            let next = clock.after(mv);
            let score = match self.outcome(&child, next, reps) {
                Some(o) if o.winner.is_some() => WIN - (ply as i32 + 1),
                Some(_) => 0,
                None => -self.quiesce(&child, next, -beta, -alpha, ply + 1, left - 1),
            };
            self.leave(saved);
            if self.budget.stopped {
                break;
            }
            if score > best {
                best = score;
                alpha = alpha.max(score);
                if score >= beta {
                    break;
                }
            }
        }
        self.moves[ply] = list;
        best
    }

    fn update_pv(&mut self, ply: usize, mv: Mv) {
        if ply + 1 >= MAX_PLY {
            return;
        }
        self.pv[ply][ply] = mv;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }
}

const SALT: u64 = 0x7a3c_19e5_0b44_d2f1;

fn to_tt(score: i32, ply: usize) -> i16 {
    let s = if score > PROVEN {
        score + ply as i32
    } else if score < -PROVEN {
        score - ply as i32
    } else {
        score
    };
    s.clamp(-INF, INF) as i16
}

fn from_tt(score: i16, ply: usize) -> i32 {
    let s = score as i32;
    if s > PROVEN {
        s - ply as i32
    } else if s < -PROVEN {
        s + ply as i32
    } else {
        s
    }
}

/// The root's turns: whole turns at a turn boundary, or the captures completing a pending one.
fn root_moves<const BASIC: bool>(game: &Morris, law: Law<BASIC>) -> Vec<Mv> {
    let pos = game.position();
    match game.phase() {
        Phase::Over => Vec::new(),
        Phase::Capture => game
            .capturable()
            .iter()
            .map(|c| Mv {
                from: NONE,
                to: NONE,
                cap: c.index() as u8,
            })
            .collect(),
        Phase::Play => {
            let mut list = Vec::new();
            generate(law, &pos, &mut list, false);
            list.into_iter().map(|(mv, _)| mv).collect()
        }
    }
}

fn to_turn(game: &Morris, mv: Mv) -> Turn {
    let point = |i: u8| Point::new(i).expect("a point index from the search");
    if mv.to == NONE {
        let last = game.last_turn().expect("a pending capture follows a step");
        Turn {
            capture: Some(point(mv.cap)),
            ..last
        }
    } else {
        Turn {
            from: (mv.from != NONE).then(|| point(mv.from)),
            to: point(mv.to),
            capture: (mv.cap != NONE).then(|| point(mv.cap)),
        }
    }
}

fn run(
    game: &Morris,
    limits: &Limits,
    stop: &mut dyn FnMut() -> bool,
    seed: u64,
    style: Style,
    table: &mut Vec<Entry>,
) -> Result<SearchResult<Turn>, Illegal> {
    if game.rules().is_basic() {
        run_on::<true>(game, limits, stop, seed, style, table)
    } else {
        run_on::<false>(game, limits, stop, seed, style, table)
    }
}

/// A root turn, its score and its expected line.
type Choice = (Mv, i32, Vec<Mv>);

/// [`run`] compiled for basic rules or for any (see [`Law`]). The search starts from `table`
/// (a transposition table of an earlier search of the same game, or empty) and leaves its own
/// there.
fn run_on<const BASIC: bool>(
    game: &Morris,
    limits: &Limits,
    stop: &mut dyn FnMut() -> bool,
    seed: u64,
    style: Style,
    table: &mut Vec<Entry>,
) -> Result<SearchResult<Turn>, Illegal> {
    let law = Law::<BASIC>::new(game.rules());
    let mut rng = Rng::new(seed ^ 0x6d6f_7272_6973);
    let mut root = shuffled_root(game, law, &mut rng);
    match root[..] {
        [] => return Err(Illegal::GameOver),
        [only] => return only_turn(game, law, only, style),
        _ => {}
    }
    let pos = game.position();
    let clock = Clock {
        turns: game.turns() as u16,
        quiet: game.quiet_turns(),
    };
    let budget = Budget::new(stop, limits.nodes, POLL);
    let kept = std::mem::take(table);
    let mut s = Searcher::<BASIC>::new(game, style, limits.memory_bits, budget, kept);
    let mut scores: Vec<i32> = vec![0; root.len()];
    let mut best: Option<Choice> = None;
    let mut completed = 0;
    let max_depth = limits.depth.clamp(1, 64);
    let first_depth = if style.enhanced { 1 } else { max_depth };
    for depth in first_depth..=max_depth {
        let exact = limits.noise > 0;
        let iteration_best = s.search_root(&pos, clock, &root, &mut scores, depth, exact);
        if s.budget.stopped {
            // Root turns are searched best first: one that became the best of this unfinished
            // iteration beat the previous choice at the new depth. (With noise, the choice is
            // only made on complete iterations.)
            if best.is_none() || (limits.noise == 0 && iteration_best.is_some()) {
                best = iteration_best;
            }
            break;
        }
        completed = depth;
        best = if limits.noise > 0 {
            Some(noisy_choice(&root, &scores, limits.noise, &mut rng))
        } else {
            iteration_best
        };
        let chosen = best.as_ref().map_or(Mv::NULL, |b| b.0);
        best_first(&mut root, &mut scores, chosen);
        // A proven result cannot change with more depth once the line fits inside it.
        if best
            .as_ref()
            .is_some_and(|b| b.1.abs() > PROVEN && (WIN - b.1.abs()) as u32 <= depth)
        {
            break;
        }
    }
    let (mv, score, line) = best.unwrap_or((root[0], 0, vec![root[0]]));
    *table = std::mem::take(&mut s.tt);
    Ok(SearchResult {
        turn: to_turn(game, mv),
        score,
        depth: completed,
        nodes: s.budget.used,
        pv: pv_turns(game, &line),
    })
}

impl<const BASIC: bool> Searcher<'_, BASIC> {
    /// One iteration at `depth` over the root's turns, in order: the best so far with its score
    /// and line (the iteration's best unless the budget stopped it), each finished turn's score
    /// in `scores`. The first turn, and with `exact` every turn, gets a full window; the others
    /// a null window, searched again when they beat the best.
    fn search_root(
        &mut self,
        pos: &Position,
        clock: Clock,
        root: &[Mv],
        scores: &mut [i32],
        depth: u32,
        exact: bool,
    ) -> Option<Choice> {
        let depth = depth as i32;
        let mut alpha = -INF;
        let mut best: Option<Choice> = None;
        for (i, &mv) in root.iter().enumerate() {
            let score = if i == 0 || exact {
                self.child_score(pos, clock, mv, depth, (-INF, INF), 0)
            } else if !self.style.enhanced {
                self.child_score(pos, clock, mv, depth, (alpha, INF), 0)
            } else {
                let v = self.child_score(pos, clock, mv, depth, (alpha, alpha + 1), 0);
                if v > alpha && !self.budget.stopped {
                    self.child_score(pos, clock, mv, depth, (alpha, INF), 0)
                } else {
                    v
                }
            };
            if self.budget.stopped {
                break;
            }
            scores[i] = score;
            if best.as_ref().is_none_or(|b| score > b.1) {
                let mut line = vec![mv];
                line.extend_from_slice(&self.pv[1][1..self.pv_len[1].max(1)]);
                best = Some((mv, score, line));
                alpha = alpha.max(score);
            }
        }
        best
    }
}

/// The root's turns in a seeded random order (equal scores are broken differently from one
/// seed to the next), captures first.
fn shuffled_root<const BASIC: bool>(game: &Morris, law: Law<BASIC>, rng: &mut Rng) -> Vec<Mv> {
    let mut root = root_moves(game, law);
    for i in (1..root.len()).rev() {
        root.swap(i, rng.below(i as u64 + 1) as usize);
    }
    root.sort_by_key(|mv| !mv.is_capture());
    root
}

/// The answer when there is one legal turn: no search, the score is the turn's result or the
/// evaluation after it.
fn only_turn<const BASIC: bool>(
    game: &Morris,
    law: Law<BASIC>,
    mv: Mv,
    style: Style,
) -> Result<SearchResult<Turn>, Illegal> {
    let after = game.play_turn(to_turn(game, mv))?;
    let score = match after.outcome() {
        Some(o) if o.winner.is_some() => WIN - 1,
        Some(_) => 0,
        None => -evaluate(law, &after.position(), style.full_eval),
    };
    Ok(SearchResult {
        turn: to_turn(game, mv),
        score,
        depth: 0,
        nodes: 0,
        pv: vec![to_turn(game, mv)],
    })
}

/// The choice of a level with noise: every root turn's exact score plus a random offset in
/// `-noise..=noise` (proven results are not blurred); the best, the first on a tie.
fn noisy_choice(root: &[Mv], scores: &[i32], noise: i32, rng: &mut Rng) -> Choice {
    let noisy: Vec<i32> = scores
        .iter()
        .map(|&v| {
            if v.abs() > PROVEN {
                v
            } else {
                v + rng.below(2 * noise as u64 + 1) as i32 - noise
            }
        })
        .collect();
    let i = (0..root.len())
        .max_by_key(|&i| (noisy[i], usize::MAX - i))
        .unwrap_or(0);
    (root[i], scores[i], vec![root[i]])
}

/// Orders the root for the next iteration: the chosen turn first, then by this iteration's
/// scores (a stable sort: ties keep their order).
fn best_first(root: &mut Vec<Mv>, scores: &mut Vec<i32>, chosen: Mv) {
    let mut order: Vec<usize> = (0..root.len()).collect();
    order.sort_by_key(|&i| (root[i] != chosen, -scores[i]));
    *root = order.iter().map(|&i| root[i]).collect();
    *scores = order.iter().map(|&i| scores[i]).collect();
}

/// The line as turns, cut where it stops being legal (it always starts legal).
fn pv_turns(game: &Morris, line: &[Mv]) -> Vec<Turn> {
    let mut g = game.clone();
    let mut out = Vec::new();
    for &mv in line {
        let t = to_turn(&g, mv);
        match g.play_turn(t) {
            Ok(next) => {
                out.push(t);
                g = next;
            }
            Err(_) => break,
        }
        if mv.to == NONE && g.phase() == Phase::Capture {
            break;
        }
    }
    out
}

/// Searches a Morris game; see the [module](super) documentation.
///
/// ```
/// use engine::ai::{search_morris, Level};
/// use engine::{morris::Morris, Game, GameKind};
///
/// let g = Morris::new();
/// let limits = Level::Medium.limits(GameKind::Morris);
/// let r = search_morris(&g, &limits, &mut || false, 1).unwrap();
/// assert!(g.legal_turns().contains(&r.turn));
/// ```
pub fn search_morris(
    game: &Morris,
    limits: &Limits,
    stop: &mut dyn FnMut() -> bool,
    seed: u64,
) -> Result<SearchResult<Turn>, Illegal> {
    search_morris_kept(game, limits, stop, seed, &mut MorrisMemory::default())
}

/// What a Morris search leaves for the next one of the same game: its transposition table,
/// tagged with the rules and the turn limit it holds results for (its keys hold neither).
#[derive(Default)]
pub struct MorrisMemory {
    table: Vec<Entry>,
    game: Option<(crate::morris::Rules, u16)>,
}

/// [`search_morris`] starting from the transposition table that the previous search with this
/// `memory` left, and leaving its own there. Positions searched then (the turns after it) are
/// found in the table, their best turns tried first: the search goes deeper in the same time.
/// A table of other rules or another turn limit is dropped. With a node budget the answer
/// depends on what the memory holds, so the levels with a budget do not use one
/// ([`super::choose_kept`]).
pub fn search_morris_kept(
    game: &Morris,
    limits: &Limits,
    stop: &mut dyn FnMut() -> bool,
    seed: u64,
    memory: &mut MorrisMemory,
) -> Result<SearchResult<Turn>, Illegal> {
    let this = Some((game.rules(), game.max_turns()));
    if memory.game != this {
        memory.table = Vec::new();
        memory.game = this;
    }
    let style = Style {
        full_eval: true,
        enhanced: true,
        quiescence: limits.tactics,
    };
    run(game, limits, stop, seed, style, &mut memory.table)
}

/// The baseline of `engine match` (`ab4` is depth 4): a plain fixed-depth alpha-beta over whole
/// turns, material evaluation (pieces on the board and in reserve), no transposition table, no
/// move ordering beyond a seeded shuffle of the root, no quiescence; the same draw rules.
pub fn alpha_beta_baseline(
    game: &Morris,
    depth: u32,
    seed: u64,
) -> Result<SearchResult<Turn>, Illegal> {
    let style = Style {
        full_eval: false,
        enhanced: false,
        quiescence: false,
    };
    let limits = Limits {
        nodes: u64::MAX,
        depth,
        memory_bits: 10,
        noise: 0,
        tactics: false,
    };
    run(game, &limits, &mut || false, seed, style, &mut Vec::new())
}
