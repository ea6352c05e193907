//! The board: 24 points, 32 links, 16 mills, algebraic names and screen coordinates.
//!
//! Points are numbered square by square (outer 0–7, middle 8–15, inner 16–23), each square
//! clockwise from its top-left corner:
//!
//! ```text
//!  7  a7(0)-----------d7(1)-----------g7(2)
//!  6  |    b6(8)------d6(9)------f6(10)   |
//!  5  |    |   c5(16)-d5(17)-e5(18)  |    |
//!  4  a4(7)-b4(15)-c4(23)   e4(19)-f4(11)-g4(3)
//!  3  |    |   c3(22)-d3(21)-e3(20)  |    |
//!  2  |    b2(14)-----d2(13)-----f2(12)   |
//!  1  a1(6)-----------d1(5)-----------g1(4)
//!     a    b   c      d      e   f    g
//! ```
//! (The diagram's rank labels are the algebraic ranks; in-square order is a corner, the middle
//! of the side, the next corner, …)

use crate::nav::{Bits, Direction};
use std::fmt;

/// One of the 24 points of the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u8);

/// Algebraic names by index.
const NAMES: [&str; 24] = [
    "a7", "d7", "g7", "g4", "g1", "d1", "a1", "a4", // outer square
    "b6", "d6", "f6", "f4", "f2", "d2", "b2", "b4", // middle square
    "c5", "d5", "e5", "e4", "e3", "d3", "c3", "c4", // inner square
];

/// `(file, rank)` of each point, 0-based: file 0 = a (left), rank 0 = 1 (bottom).
const COORDS: [(u8, u8); 24] = {
    let mut c = [(0u8, 0u8); 24];
    let mut i = 0;
    while i < 24 {
        let b = NAMES[i].as_bytes();
        c[i] = (b[0] - b'a', b[1] - b'1');
        i += 1;
    }
    c
};

/// The 32 links: the sides of each square and the eight spokes.
pub(crate) const LINKS: [(u8, u8); 32] = {
    let mut l = [(0u8, 0u8); 32];
    let mut n = 0;
    let mut sq = 0;
    while sq < 3 {
        let mut i = 0;
        while i < 8 {
            l[n] = (sq * 8 + i, sq * 8 + (i + 1) % 8);
            n += 1;
            i += 1;
        }
        sq += 1;
    }
    let spokes = [1u8, 3, 5, 7];
    let mut s = 0;
    while s < 4 {
        l[n] = (spokes[s], spokes[s] + 8);
        l[n + 1] = (spokes[s] + 8, spokes[s] + 16);
        n += 2;
        s += 1;
    }
    l
};

/// Neighbour masks, one per point.
pub(crate) const ADJACENT: [u32; 24] = {
    let mut a = [0u32; 24];
    let mut i = 0;
    while i < 32 {
        let (x, y) = LINKS[i];
        a[x as usize] |= 1 << y;
        a[y as usize] |= 1 << x;
        i += 1;
    }
    a
};

/// The 16 mills as point triples: the sides of each square, then the four cross lines.
pub(crate) const MILL_POINTS: [[u8; 3]; 16] = {
    let mut m = [[0u8; 3]; 16];
    let mut n = 0;
    let mut sq = 0;
    while sq < 3 {
        let mut side = 0;
        while side < 4 {
            let base = sq * 8 + side * 2;
            m[n] = [base, base + 1, sq * 8 + (side * 2 + 2) % 8];
            n += 1;
            side += 1;
        }
        sq += 1;
    }
    let cross = [1u8, 3, 5, 7];
    let mut c = 0;
    while c < 4 {
        m[n] = [cross[c], cross[c] + 8, cross[c] + 16];
        n += 1;
        c += 1;
    }
    m
};

/// The 16 mills as masks.
pub(crate) const MILLS: [u32; 16] = {
    let mut m = [0u32; 16];
    let mut i = 0;
    while i < 16 {
        m[i] = (1 << MILL_POINTS[i][0]) | (1 << MILL_POINTS[i][1]) | (1 << MILL_POINTS[i][2]);
        i += 1;
    }
    m
};

/// The two mills through each point (every point lies on exactly two).
pub(crate) const MILLS_THROUGH: [[u32; 2]; 24] = {
    let mut t = [[0u32; 2]; 24];
    let mut count = [0usize; 24];
    let mut i = 0;
    while i < 16 {
        let mut j = 0;
        while j < 3 {
            let p = MILL_POINTS[i][j] as usize;
            t[p][count[p]] = MILLS[i];
            count[p] += 1;
            j += 1;
        }
        i += 1;
    }
    t
};

/// Mask of all 24 points.
pub(crate) const ALL: u32 = (1 << 24) - 1;

/// The four diagonal lines of `diagonals=1`, each from an outer corner inwards: a7-b6-c5,
/// g7-f6-e5, g1-f2-e3, a1-b2-c3.
const DIAGONAL_MILLS: [[u8; 3]; 4] = [[0, 8, 16], [2, 10, 18], [4, 12, 20], [6, 14, 22]];

/// Fills the unused third slot of [`Geometry::through`]: no set of pieces contains bit 31, so
/// it never makes a mill.
const NO_MILL: u32 = 1 << 31;

/// The lines of a board: links, neighbours and mills. There are two, built at compile time:
/// the board of SPEC §2 and the one with the four diagonals; a game finds its own through its
/// rules ([`Geometry::of`]). The hot loops (perft, search) are compiled once per board
/// (`Geometry::board`), so that the default board's tables are constants there and it costs
/// nothing extra.
#[derive(Debug)]
pub struct Geometry {
    /// True for the board with the diagonals (some points lie on three mills).
    pub(crate) diagonal: bool,
    links: [(u8, u8); 40],
    link_count: usize,
    /// Neighbour masks, one per point.
    pub(crate) adjacent: [u32; 24],
    mill_points: [[u8; 3]; 20],
    mill_count: usize,
    mills: [u32; 20],
    /// The mills through each point: two, or three for a corner on a diagonal (the third slot
    /// is then a real mill, else [`NO_MILL`]).
    pub(crate) through: [[u32; 3]; 24],
}

/// The board of SPEC §2: 32 links, 16 mills.
pub(crate) static PLAIN: Geometry = Geometry::build(false);
/// With the four diagonals: 40 links, 20 mills.
pub(crate) static DIAGONAL: Geometry = Geometry::build(true);

impl Geometry {
    const fn build(diagonals: bool) -> Geometry {
        let mut g = Geometry {
            diagonal: diagonals,
            links: [(0, 0); 40],
            link_count: 0,
            adjacent: [0; 24],
            mill_points: [[0; 3]; 20],
            mill_count: 0,
            mills: [0; 20],
            through: [[NO_MILL; 3]; 24],
        };
        let mut i = 0;
        while i < 32 {
            g.links[i] = LINKS[i];
            i += 1;
        }
        g.link_count = 32;
        i = 0;
        while i < 16 {
            g.mill_points[i] = MILL_POINTS[i];
            i += 1;
        }
        g.mill_count = 16;
        if diagonals {
            let mut d = 0;
            while d < 4 {
                let [a, b, c] = DIAGONAL_MILLS[d];
                g.links[g.link_count] = (a, b);
                g.links[g.link_count + 1] = (b, c);
                g.link_count += 2;
                g.mill_points[g.mill_count] = DIAGONAL_MILLS[d];
                g.mill_count += 1;
                d += 1;
            }
        }
        i = 0;
        while i < g.link_count {
            let (x, y) = g.links[i];
            g.adjacent[x as usize] |= 1 << y;
            g.adjacent[y as usize] |= 1 << x;
            i += 1;
        }
        let mut count = [0usize; 24];
        i = 0;
        while i < g.mill_count {
            let [a, b, c] = g.mill_points[i];
            g.mills[i] = (1 << a) | (1 << b) | (1 << c);
            let mut j = 0;
            while j < 3 {
                let p = g.mill_points[i][j] as usize;
                g.through[p][count[p]] = g.mills[i];
                count[p] += 1;
                j += 1;
            }
            i += 1;
        }
        g
    }

    /// The board of these rules.
    pub fn of(rules: super::Rules) -> &'static Geometry {
        if rules.diagonals() {
            &DIAGONAL
        } else {
            &PLAIN
        }
    }

    /// The board as a constant of generic code: `DIAGONALS` is `rules.diagonals()`, decided
    /// once at the entry of a hot loop.
    #[inline(always)]
    pub(crate) const fn board<const DIAGONALS: bool>() -> &'static Geometry {
        if DIAGONALS {
            &DIAGONAL
        } else {
            &PLAIN
        }
    }

    /// True for the board with the four diagonals.
    pub fn has_diagonals(&self) -> bool {
        self.diagonal
    }

    /// The links, each as a pair of points: the 32 of the plain board, then the diagonals'.
    pub fn links(&self) -> impl Iterator<Item = (Point, Point)> + '_ {
        self.links[..self.link_count]
            .iter()
            .map(|&(a, b)| (Point(a), Point(b)))
    }

    /// The mills, each as its three points: the 16 of the plain board, then the diagonals.
    pub fn mills(&self) -> impl Iterator<Item = [Point; 3]> + '_ {
        self.mill_points[..self.mill_count]
            .iter()
            .map(|m| m.map(Point))
    }

    /// The mills as masks.
    #[inline]
    pub(crate) fn mill_masks(&self) -> &[u32] {
        &self.mills[..self.mill_count]
    }

    /// Points joined to `p` by a link.
    pub fn neighbours(&self, p: Point) -> Points {
        Points(self.adjacent[p.index()])
    }

    /// True when a link joins the two points.
    pub fn is_adjacent(&self, a: Point, b: Point) -> bool {
        self.adjacent[a.index()] & b.bit() != 0
    }

    /// The four steps a link can take from a set of points, as sets: along the square one way and
    /// the other, inwards and outwards (the spokes' midpoints, and with the diagonals the corners
    /// too). Point `8 * square + i` lies on square 0 (outer) to 2, `i` going round it, so a step
    /// along a square rotates each byte and a step across shifts by one byte. Each link is one
    /// step from either end, never two steps from the same end: the search's evaluation counts
    /// links between two sets by whole sets instead of point by point.
    #[inline(always)]
    fn steps(&self, x: u32) -> [u32; 4] {
        let across = if self.diagonal { 0xFFFF } else { 0xAAAA };
        [
            ((x << 1) & 0xFE_FEFE) | ((x >> 7) & 0x01_0101),
            ((x >> 1) & 0x7F_7F7F) | ((x << 7) & 0x80_8080),
            (x & across) << 8,
            (x >> 8) & across,
        ]
    }

    /// Every point joined by a link to a point of `x` (the union of their neighbours).
    #[inline(always)]
    pub(crate) fn spread(&self, x: u32) -> u32 {
        let [a, b, c, d] = self.steps(x);
        a | b | c | d
    }

    /// The links from a point of `from` to a point of `to`, counted once per such pair.
    #[inline(always)]
    pub(crate) fn links_between(&self, from: u32, to: u32) -> u32 {
        let [a, b, c, d] = self.steps(from);
        (a & to).count_ones()
            + (b & to).count_ones()
            + (c & to).count_ones()
            + (d & to).count_ones()
    }

    /// The mills through `p`: two, or three for a corner on a diagonal.
    pub fn mills_through(&self, p: Point) -> impl Iterator<Item = Points> + '_ {
        self.through[p.index()]
            .iter()
            .filter(|&&m| m != NO_MILL)
            .map(|&m| Points(m))
    }
}

impl Point {
    /// Number of points.
    pub const COUNT: usize = 24;

    /// The point with this index (0–23).
    pub const fn new(index: u8) -> Option<Point> {
        if index < 24 {
            Some(Point(index))
        } else {
            None
        }
    }

    /// The index, 0–23.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub(crate) const fn bit(self) -> u32 {
        1 << self.0
    }

    /// All points in index order.
    pub fn all() -> impl Iterator<Item = Point> {
        (0..24).map(Point)
    }

    /// The algebraic name, e.g. `"d6"`.
    pub fn name(self) -> &'static str {
        NAMES[self.index()]
    }

    /// The point with this algebraic name (lowercase, e.g. `"d6"`).
    pub fn from_name(name: &str) -> Option<Point> {
        NAMES
            .iter()
            .position(|&n| n == name)
            .map(|i| Point(i as u8))
    }

    /// `(file, rank)`, each 0–6, with file 0 = a on the left and rank 0 = 1 at the bottom.
    pub const fn coords(self) -> (u8, u8) {
        COORDS[self.0 as usize]
    }

    /// Points joined to this one by a link on the plain board (the default rules'); a game's own
    /// board is [`Geometry::neighbours`] of `Morris::geometry`.
    pub fn neighbours(self) -> Points {
        Points(ADJACENT[self.index()])
    }

    /// True when a link joins the two points on the plain board (see [`Geometry::is_adjacent`]).
    pub fn is_adjacent(self, other: Point) -> bool {
        ADJACENT[self.index()] & other.bit() != 0
    }

    /// The two mills through this point on the plain board (see [`Geometry::mills_through`]).
    pub fn mills(self) -> [Points; 2] {
        let [a, b] = MILLS_THROUGH[self.index()];
        [Points(a), Points(b)]
    }

    /// The point the focus goes to when an arrow key is pressed here; `self` when nothing lies
    /// that way.
    ///
    /// Navigation follows the drawing, not the links: among the points strictly ahead, the one
    /// with the smallest `forward + 3 × lateral` distance wins (ties: the smaller lateral offset,
    /// then the point further left or up). Every point is reachable from every other.
    pub fn toward(self, dir: Direction) -> Point {
        let (dx, dy) = dir.delta();
        let (x0, y0) = self.coords();
        let mut best: Option<(i32, i32, i32, i32, Point)> = None;
        for p in Point::all() {
            let (x, y) = p.coords();
            let (rx, ry) = (x as i32 - x0 as i32, y as i32 - y0 as i32);
            let forward = rx * dx as i32 + ry * dy as i32;
            if forward <= 0 {
                continue;
            }
            let lateral = (rx * dy as i32 - ry * dx as i32).abs();
            // Tie-break towards the left, then the top: stable and symmetric enough to learn.
            let key = (forward + 3 * lateral, lateral, x as i32, -(y as i32), p);
            if best.is_none_or(|b| (key.0, key.1, key.2, key.3) < (b.0, b.1, b.2, b.3)) {
                best = Some(key);
            }
        }
        best.map_or(self, |b| b.4)
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({})", self.name(), self.0)
    }
}

/// A set of points (a 24-bit mask).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Points(pub(crate) u32);

impl Points {
    /// The empty set.
    pub const EMPTY: Points = Points(0);

    /// The raw mask: bit *i* is point *i*.
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// True when the point is in the set.
    pub const fn contains(self, p: Point) -> bool {
        self.0 & p.bit() != 0
    }

    /// Number of points in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// True when the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The points, in index order.
    pub fn iter(self) -> impl Iterator<Item = Point> {
        Bits(self.0).map(|i| Point(i as u8))
    }
}

impl fmt::Debug for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<Point> for Points {
    fn from_iter<I: IntoIterator<Item = Point>>(iter: I) -> Points {
        Points(iter.into_iter().fold(0, |m, p| m | p.bit()))
    }
}

/// The plain board's mills (see [`Geometry::mills`] for a game's own), each as its three points
/// (sides of the outer, middle and inner squares, then the four cross lines).
pub fn mills() -> impl Iterator<Item = [Point; 3]> {
    MILL_POINTS.iter().map(|m| m.map(Point))
}

/// The plain board's links (see [`Geometry::links`] for a game's own), each as a pair of points.
pub fn links() -> impl Iterator<Item = (Point, Point)> {
    LINKS.iter().map(|&(a, b)| (Point(a), Point(b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(name: &str) -> Point {
        Point::from_name(name).unwrap()
    }

    #[test]
    fn names_match_the_specification_table() {
        let table = "0 a7 1 d7 2 g7 3 g4 4 g1 5 d1 6 a1 7 a4 8 b6 9 d6 10 f6 11 f4 12 f2 13 d2 \
                     14 b2 15 b4 16 c5 17 d5 18 e5 19 e4 20 e3 21 d3 22 c3 23 c4";
        let words: Vec<&str> = table.split_whitespace().collect();
        for pair in words.chunks(2) {
            let i: u8 = pair[0].parse().unwrap();
            assert_eq!(Point::new(i).unwrap().name(), pair[1]);
            assert_eq!(Point::from_name(pair[1]), Point::new(i));
        }
        assert_eq!(Point::from_name("d4"), None, "the centre is not a point");
        assert_eq!(Point::from_name("D6"), None, "names are lowercase");
        assert_eq!(Point::new(24), None);
    }

    #[test]
    fn thirty_two_links_without_diagonals() {
        assert_eq!(LINKS.len(), 32);
        let total: u32 = ADJACENT.iter().map(|a| a.count_ones()).sum();
        assert_eq!(total, 64);
        for (a, b) in links() {
            let ((xa, ya), (xb, yb)) = (a.coords(), b.coords());
            assert!(xa == xb || ya == yb, "{a:?}-{b:?} is not straight");
        }
        assert!(p("a7").is_adjacent(p("d7")));
        assert!(p("d7").is_adjacent(p("d6")));
        assert!(p("d6").is_adjacent(p("d5")));
        assert!(!p("a7").is_adjacent(p("b6")), "no diagonal link");
        assert!(!p("d5").is_adjacent(p("d3")), "nothing through the centre");
        assert!(!p("c4").is_adjacent(p("e4")), "nothing through the centre");
        assert_eq!(p("d6").neighbours().len(), 4);
        assert_eq!(p("a7").neighbours().len(), 2);
        assert_eq!(p("d7").neighbours().len(), 3);
    }

    #[test]
    fn sixteen_mills_as_specified() {
        let expected: Vec<[u8; 3]> = vec![
            [0, 1, 2],
            [2, 3, 4],
            [4, 5, 6],
            [6, 7, 0],
            [8, 9, 10],
            [10, 11, 12],
            [12, 13, 14],
            [14, 15, 8],
            [16, 17, 18],
            [18, 19, 20],
            [20, 21, 22],
            [22, 23, 16],
            [1, 9, 17],
            [3, 11, 19],
            [5, 13, 21],
            [7, 15, 23],
        ];
        assert_eq!(MILL_POINTS.to_vec(), expected);
        for m in mills() {
            // Each mill is a straight line of linked points.
            assert!(m[0].is_adjacent(m[1]) && m[1].is_adjacent(m[2]));
        }
        for pt in Point::all() {
            let [a, b] = pt.mills();
            assert!(a.contains(pt) && b.contains(pt) && a != b);
        }
    }

    #[test]
    fn arrows_follow_the_drawing() {
        use Direction::*;
        assert_eq!(p("a7").toward(Right), p("d7"));
        assert_eq!(p("a7").toward(Down), p("a4"));
        assert_eq!(p("a7").toward(Up), p("a7"));
        assert_eq!(p("a7").toward(Left), p("a7"));
        assert_eq!(p("d7").toward(Down), p("d6"));
        assert_eq!(p("d6").toward(Down), p("d5"));
        assert_eq!(p("d5").toward(Down), p("d3"), "the centre is skipped");
        assert_eq!(p("c4").toward(Right), p("e4"));
        assert_eq!(p("a4").toward(Right), p("b4"));
        assert_eq!(p("g1").toward(Up), p("g4"));
    }

    #[test]
    fn every_point_is_reachable_by_arrows_from_every_point() {
        for start in Point::all() {
            let mut seen = Points(start.bit());
            let mut frontier = vec![start];
            while let Some(q) = frontier.pop() {
                for d in Direction::ALL {
                    let n = q.toward(d);
                    if !seen.contains(n) {
                        seen.0 |= n.bit();
                        frontier.push(n);
                    }
                }
            }
            assert_eq!(seen.len(), 24, "from {start:?} only {seen:?}");
        }
    }

    #[test]
    fn arrows_never_go_backwards() {
        for q in Point::all() {
            for d in Direction::ALL {
                let n = q.toward(d);
                if n != q {
                    let (dx, dy) = d.delta();
                    let ((x0, y0), (x1, y1)) = (q.coords(), n.coords());
                    let fwd =
                        (x1 as i32 - x0 as i32) * dx as i32 + (y1 as i32 - y0 as i32) * dy as i32;
                    assert!(fwd > 0);
                }
            }
        }
    }

    #[test]
    fn whole_set_steps_follow_the_links_of_both_boards() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u32 & ALL
        };
        for geo in [&PLAIN, &DIAGONAL] {
            for p in 0..24 {
                assert_eq!(geo.spread(1 << p), geo.adjacent[p], "neighbours of {p}");
            }
            for _ in 0..2000 {
                let (a, b) = (next(), next() & next());
                let union = Bits(a).fold(0, |u, q| u | geo.adjacent[q as usize]);
                let links: u32 = Bits(a)
                    .map(|q| (geo.adjacent[q as usize] & b).count_ones())
                    .sum();
                assert_eq!(geo.spread(a), union, "{a:#x}");
                assert_eq!(geo.links_between(a, b), links, "{a:#x} to {b:#x}");
            }
        }
    }
}
