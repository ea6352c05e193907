//! Keyboard navigation shared by both boards: an arrow key names a visual direction, and each game
//! finds the point or cell that lies that way (see `morris::Point::toward` and
//! `meta::Cell::toward`). Navigation ignores legality: it only moves the focus.

/// An arrow key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Towards the top of the screen.
    Up,
    /// Towards the bottom of the screen.
    Down,
    /// Towards the left of the screen.
    Left,
    /// Towards the right of the screen.
    Right,
}

impl Direction {
    /// All four directions.
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Down,
        Direction::Left,
        Direction::Right,
    ];

    /// The unit step `(dx, dy)` with x growing rightwards and y growing upwards.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Direction::Up => (0, 1),
            Direction::Down => (0, -1),
            Direction::Left => (-1, 0),
            Direction::Right => (1, 0),
        }
    }

    /// The direction named by a DOM `KeyboardEvent.key` (`"ArrowUp"`, …).
    pub fn from_key(key: &str) -> Option<Direction> {
        match key {
            "ArrowUp" => Some(Direction::Up),
            "ArrowDown" => Some(Direction::Down),
            "ArrowLeft" => Some(Direction::Left),
            "ArrowRight" => Some(Direction::Right),
            _ => None,
        }
    }
}

/// Bits of a mask, lowest first.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bits(pub u32);

impl Iterator for Bits {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(i)
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bits {}
