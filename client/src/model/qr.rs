//! QR codes (ISO/IEC 18004) of bytes — an invitation link, later a connection offer — for a
//! phone's camera: byte mode, the four error correction levels, versions 1 to 40, Reed–Solomon
//! over GF(256), the format and version information, and the eight masks, the one drawn chosen
//! by the standard's penalty rules. Pure: no web dependency; the page draws
//! [`Qr::svg_path`] (one `<path>` for the dark modules).
//!
//! ```
//! use client::model::qr::{Level, Qr, Version};
//!
//! let qr = Qr::encode(b"https://example.org/moulin/salon#g=morris&c=K7M2Q9XD4HPA").unwrap();
//! assert_eq!((qr.version().number(), qr.level(), qr.size()), (4, Level::M, 33));
//! assert!(qr.is_dark(0, 0) && !qr.is_dark(7, 0)); // a finder pattern and its separator
//! // Four modules of quiet zone around it: the path's coordinates start at 4.
//! assert!(qr.svg_path(4).starts_with("M4 4h7v1H4z"));
//! // What does not fit is refused, never cut.
//! assert!(Qr::encode(&[b'x'; 2400]).is_err());
//! assert_eq!(Qr::capacity(Version::new(10).unwrap(), Level::M), 213);
//! ```

use std::fmt;

/// How much of the code can be lost and still read: about 7 % (L), 15 % (M), 25 % (Q), 30 % (H).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// About 7 %.
    L,
    /// About 15 %: what [`Qr::encode`] uses.
    M,
    /// About 25 %.
    Q,
    /// About 30 %.
    H,
}

impl Level {
    /// Every level, from the least to the most robust.
    pub const ALL: [Level; 4] = [Level::L, Level::M, Level::Q, Level::H];

    fn index(self) -> usize {
        self as usize
    }

    /// The two bits the format information gives it.
    fn format_bits(self) -> u32 {
        match self {
            Level::L => 1,
            Level::M => 0,
            Level::Q => 3,
            Level::H => 2,
        }
    }
}

/// A version, 1 to 40: the code is `4 × version + 17` modules a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version(u8);

impl Version {
    /// The smallest, 21 modules a side.
    pub const MIN: Version = Version(1);
    /// The largest, 177 modules a side.
    pub const MAX: Version = Version(40);

    /// The version `n`, if there is one.
    pub const fn new(n: u8) -> Option<Version> {
        if n >= 1 && n <= 40 {
            Some(Version(n))
        } else {
            None
        }
    }

    /// Its number, 1 to 40.
    pub const fn number(self) -> u8 {
        self.0
    }

    /// Modules a side.
    pub const fn size(self) -> usize {
        self.0 as usize * 4 + 17
    }
}

/// One of the eight data masks, 0 to 7 (ISO/IEC 18004, table 10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mask(u8);

impl Mask {
    /// The mask `n`, if there is one.
    pub const fn new(n: u8) -> Option<Mask> {
        if n < 8 {
            Some(Mask(n))
        } else {
            None
        }
    }

    /// Its number, 0 to 7.
    pub const fn number(self) -> u8 {
        self.0
    }

    /// Whether it darkens the module at column `x`, row `y`.
    fn flips(self, x: usize, y: usize) -> bool {
        match self.0 {
            0 => (x + y) % 2 == 0,
            1 => y % 2 == 0,
            2 => x % 3 == 0,
            3 => (x + y) % 3 == 0,
            4 => (x / 3 + y / 2) % 2 == 0,
            5 => x * y % 2 + x * y % 3 == 0,
            6 => (x * y % 2 + x * y % 3) % 2 == 0,
            _ => ((x + y) % 2 + x * y % 3) % 2 == 0,
        }
    }
}

/// The bytes do not fit in a code of the version or level asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLong {
    /// How many bytes were given.
    pub bytes: usize,
    /// How many fit.
    pub capacity: usize,
}

impl fmt::Display for TooLong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} bytes do not fit in the QR code: at most {}",
            self.bytes, self.capacity
        )
    }
}

impl std::error::Error for TooLong {}

/// A QR code: its modules, dark or light, row by row, without the quiet zone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Qr {
    version: Version,
    level: Level,
    mask: Mask,
    modules: Vec<bool>,
}

// ISO/IEC 18004, table 9, by level (L, M, Q, H) then version (1 to 40): the error correction
// codewords of each block, and the number of blocks.
const EC_PER_BLOCK: [[u8; 40]; 4] = [
    [
        7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30,
        30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
    ],
    [
        10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28,
        28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
    ],
    [
        13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30,
        30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
    ],
    [
        17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30, 24, 30,
        30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
    ],
];
const BLOCKS: [[u8; 40]; 4] = [
    [
        1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13,
        14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25,
    ],
    [
        1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23,
        25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
    ],
    [
        1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29,
        34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68,
    ],
    [
        1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35,
        37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81,
    ],
];

/// The error correction codewords of each block, and the number of blocks.
fn blocks(version: Version, level: Level) -> (usize, usize) {
    let (l, v) = (level.index(), version.0 as usize - 1);
    (EC_PER_BLOCK[l][v] as usize, BLOCKS[l][v] as usize)
}

/// The modules left for codewords once the function patterns are drawn (some versions leave
/// 3, 4 or 7 remainder bits beyond the last whole codeword).
fn raw_modules(version: Version) -> usize {
    let v = version.0 as usize;
    let mut n = (16 * v + 128) * v + 64;
    if v >= 2 {
        let align = v / 7 + 2;
        n -= (25 * align - 10) * align - 55;
        if v >= 7 {
            n -= 36;
        }
    }
    n
}

/// The data codewords (message and padding), error correction left out.
fn data_codewords(version: Version, level: Level) -> usize {
    let (ec, count) = blocks(version, level);
    raw_modules(version) / 8 - ec * count
}

/// The bits of the byte count: 8 up to version 9, 16 beyond.
fn count_bits(version: Version) -> usize {
    if version.0 <= 9 {
        8
    } else {
        16
    }
}

/// The centres of the alignment patterns along one side.
fn alignment_positions(version: Version) -> Vec<usize> {
    let v = version.0 as usize;
    if v == 1 {
        return Vec::new();
    }
    let count = v / 7 + 2;
    let step = (v * 8 + count * 3 + 5) / (count * 4 - 4) * 2;
    let last = version.size() - 7;
    let mut positions: Vec<usize> = (0..count - 1).map(|i| last - i * step).collect();
    positions.push(6);
    positions.reverse();
    positions
}

impl Qr {
    /// The code of `data` at level M, in the smallest version it fits in, with the mask of least
    /// penalty: what a link shown on a screen needs (level M reads through glare and a
    /// slightly blurred photo; L would save one version at best).
    pub fn encode(data: &[u8]) -> Result<Qr, TooLong> {
        Qr::encode_with(data, Level::M, None, None)
    }

    /// The code of `data` at `level`, in `version` (the smallest that holds it when `None`) with
    /// `mask` (the one of least penalty when `None`).
    pub fn encode_with(
        data: &[u8],
        level: Level,
        version: Option<Version>,
        mask: Option<Mask>,
    ) -> Result<Qr, TooLong> {
        let fits = |v: Version| Qr::capacity(v, level) >= data.len();
        let version = match version {
            Some(v) if fits(v) => v,
            Some(v) => {
                return Err(TooLong {
                    bytes: data.len(),
                    capacity: Qr::capacity(v, level),
                })
            }
            None => (1..=40).map(Version).find(|&v| fits(v)).ok_or(TooLong {
                bytes: data.len(),
                capacity: Qr::capacity(Version::MAX, level),
            })?,
        };
        let codewords = add_error_correction(&message(data, version, level), version, level);
        let mut qr = Drawing::new(version);
        qr.place(&codewords);
        let mask = mask.unwrap_or_else(|| qr.best_mask());
        qr.apply(mask);
        qr.format(level, mask);
        qr.version_information();
        Ok(Qr {
            version,
            level,
            mask,
            modules: qr.dark,
        })
    }

    /// How many bytes a code of `version` at `level` holds.
    pub fn capacity(version: Version, level: Level) -> usize {
        (data_codewords(version, level) * 8 - 4 - count_bits(version)) / 8
    }

    /// Its version.
    pub fn version(&self) -> Version {
        self.version
    }

    /// Its error correction level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// Its mask.
    pub fn mask(&self) -> Mask {
        self.mask
    }

    /// Modules a side, without the quiet zone.
    pub fn size(&self) -> usize {
        self.version.size()
    }

    /// Whether the module at column `x`, row `y` is dark (outside the code: light, as the quiet
    /// zone is).
    pub fn is_dark(&self, x: usize, y: usize) -> bool {
        let size = self.size();
        x < size && y < size && self.modules[y * size + x]
    }

    /// Every module, row by row from the top, each row from the left: `true` for dark.
    pub fn modules(&self) -> &[bool] {
        &self.modules
    }

    /// The dark modules as one SVG path, a rectangle for each run of dark modules in a row, one
    /// unit a module, shifted by `quiet` modules of quiet zone: drawn in a viewBox `0 0 n n`
    /// with `n = size + 2 × quiet` (the standard asks for a quiet zone of 4).
    pub fn svg_path(&self, quiet: usize) -> String {
        use fmt::Write;
        let size = self.size();
        let mut path = String::new();
        for (y, row) in self.modules.chunks(size).enumerate() {
            let mut x = 0;
            while x < size {
                if !row[x] {
                    x += 1;
                    continue;
                }
                let run = row[x..].iter().take_while(|&&d| d).count();
                let (left, top) = (x + quiet, y + quiet);
                let _ = write!(path, "M{left} {top}h{run}v1H{left}z");
                x += run;
            }
        }
        path
    }
}

/// The data codewords: mode (byte), count, the bytes, terminator, padding.
fn message(data: &[u8], version: Version, level: Level) -> Vec<u8> {
    let capacity = data_codewords(version, level);
    let mut bits = Bits::default();
    bits.push(0b0100, 4);
    bits.push(data.len() as u32, count_bits(version));
    for &b in data {
        bits.push(b.into(), 8);
    }
    // The terminator (up to four zeros), then zeros to the byte.
    let room = capacity * 8 - bits.len;
    bits.push(0, room.min(4));
    bits.push(0, (8 - bits.len % 8) % 8);
    let mut bytes = bits.bytes;
    for pad in [0xEC, 0x11].into_iter().cycle() {
        if bytes.len() >= capacity {
            break;
        }
        bytes.push(pad);
    }
    bytes
}

/// Bits written from the most significant.
#[derive(Default)]
struct Bits {
    bytes: Vec<u8>,
    len: usize,
}

impl Bits {
    fn push(&mut self, value: u32, count: usize) {
        for i in (0..count).rev() {
            if self.len % 8 == 0 {
                self.bytes.push(0);
            }
            if (value >> i) & 1 == 1 {
                if let Some(last) = self.bytes.last_mut() {
                    *last |= 0x80 >> (self.len % 8);
                }
            }
            self.len += 1;
        }
    }
}

/// The data split into blocks, each followed by its Reed–Solomon codewords, interleaved: the
/// first codeword of each block, then the second…, then the error correction alike.
fn add_error_correction(data: &[u8], version: Version, level: Level) -> Vec<u8> {
    let (ec, count) = blocks(version, level);
    let raw = raw_modules(version) / 8;
    // The first blocks are one data codeword shorter than the last.
    let short = count - raw % count;
    let short_data = raw / count - ec;
    let divisor = rs_divisor(ec);
    let mut rest = data;
    let mut split = Vec::with_capacity(count);
    for i in 0..count {
        let len = short_data + usize::from(i >= short);
        let (block, tail) = rest.split_at(len.min(rest.len()));
        split.push((block, rs_remainder(block, &divisor)));
        rest = tail;
    }
    let mut out = Vec::with_capacity(raw);
    for i in 0..=short_data {
        out.extend(split.iter().filter_map(|(block, _)| block.get(i)));
    }
    for i in 0..ec {
        out.extend(split.iter().map(|(_, ecc)| ecc[i]));
    }
    out
}

/// Multiplication in GF(256) modulo x⁸ + x⁴ + x³ + x² + 1.
fn gf_mul(x: u8, y: u8) -> u8 {
    let mut z: u16 = 0;
    for i in (0..8).rev() {
        z = (z << 1) ^ ((z >> 7) * 0x11D);
        z ^= u16::from((y >> i) & 1) * u16::from(x);
    }
    z as u8
}

/// The generator polynomial of `degree` (the roots 2⁰ … 2^(degree−1)), highest coefficient
/// first, its leading 1 left out.
fn rs_divisor(degree: usize) -> Vec<u8> {
    let mut poly = vec![0u8; degree];
    if let Some(last) = poly.last_mut() {
        *last = 1;
    }
    let mut root = 1u8;
    for _ in 0..degree {
        for j in 0..degree {
            poly[j] = gf_mul(poly[j], root);
            if j + 1 < degree {
                poly[j] ^= poly[j + 1];
            }
        }
        root = gf_mul(root, 2);
    }
    poly
}

/// The remainder of `data` (times x^degree) divided by the generator: the error correction.
fn rs_remainder(data: &[u8], divisor: &[u8]) -> Vec<u8> {
    let mut rem = vec![0u8; divisor.len()];
    for &b in data {
        let factor = b ^ rem[0];
        rem.rotate_left(1);
        if let Some(last) = rem.last_mut() {
            *last = 0;
        }
        for (r, &d) in rem.iter_mut().zip(divisor) {
            *r ^= gf_mul(d, factor);
        }
    }
    rem
}

/// A code being drawn: its modules, and which belong to the function patterns (finders,
/// separators, timing, alignment, and the areas kept for the format and version information).
struct Drawing {
    size: usize,
    version: Version,
    dark: Vec<bool>,
    function: Vec<bool>,
}

impl Drawing {
    /// The function patterns, with the format and version areas kept light for now.
    fn new(version: Version) -> Drawing {
        let size = version.size();
        let mut d = Drawing {
            size,
            version,
            dark: vec![false; size * size],
            function: vec![false; size * size],
        };
        for i in 0..size {
            d.set(6, i, i % 2 == 0);
            d.set(i, 6, i % 2 == 0);
        }
        // Each finder pattern with its light separator, clipped at the edges.
        for (cx, cy) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4i32..=4 {
                for dx in -4i32..=4 {
                    let (x, y) = (cx as i32 + dx, cy as i32 + dy);
                    if (0..size as i32).contains(&x) && (0..size as i32).contains(&y) {
                        let ring = dx.abs().max(dy.abs());
                        d.set(x as usize, y as usize, ring != 2 && ring != 4);
                    }
                }
            }
        }
        let centres = alignment_positions(version);
        let last = centres.len().saturating_sub(1);
        for (i, &cx) in centres.iter().enumerate() {
            for (j, &cy) in centres.iter().enumerate() {
                // Not over the finder patterns.
                if [(0, 0), (0, last), (last, 0)].contains(&(i, j)) {
                    continue;
                }
                for dy in -2i32..=2 {
                    for dx in -2i32..=2 {
                        let (x, y) = ((cx as i32 + dx) as usize, (cy as i32 + dy) as usize);
                        d.set(x, y, dx.abs().max(dy.abs()) != 1);
                    }
                }
            }
        }
        // The format information beside the finders, and the version information (version 7
        // and up) by the two others: kept, drawn once the mask is chosen.
        for i in (0..9).filter(|&i| i != 6) {
            d.set(8, i, false);
            d.set(i, 8, false);
        }
        for i in 0..8 {
            d.set(size - 1 - i, 8, false);
            d.set(8, size - 1 - i, false);
        }
        if version.0 >= 7 {
            for i in 0..18 {
                d.set(size - 11 + i % 3, i / 3, false);
                d.set(i / 3, size - 11 + i % 3, false);
            }
        }
        d
    }

    fn set(&mut self, x: usize, y: usize, dark: bool) {
        self.dark[y * self.size + x] = dark;
        self.function[y * self.size + x] = true;
    }

    /// The codewords' bits, most significant first, in two-module columns from the right,
    /// upwards then downwards, skipping the function patterns and the vertical timing pattern.
    fn place(&mut self, codewords: &[u8]) {
        let size = self.size;
        let total = codewords.len() * 8;
        let mut i = 0;
        let mut right = size - 1;
        loop {
            if right == 6 {
                right = 5;
            }
            let upward = (right + 1) & 2 == 0;
            for step in 0..size {
                let y = if upward { size - 1 - step } else { step };
                for x in [right, right - 1] {
                    let at = y * size + x;
                    if !self.function[at] && i < total {
                        self.dark[at] = (codewords[i / 8] >> (7 - i % 8)) & 1 == 1;
                        i += 1;
                    }
                }
            }
            if right < 2 {
                break;
            }
            right -= 2;
        }
    }

    /// Flips the modules `mask` darkens, outside the function patterns (twice undoes it).
    fn apply(&mut self, mask: Mask) {
        let size = self.size;
        for (at, (dark, &function)) in self.dark.iter_mut().zip(&self.function).enumerate() {
            if !function && mask.flips(at % size, at / size) {
                *dark = !*dark;
            }
        }
    }

    /// The mask of least penalty, the first one on a tie. Each is scored as the standard says,
    /// before the format and version information are drawn (ISO/IEC 18004:2015, 7.8).
    fn best_mask(&mut self) -> Mask {
        let mut best = (u32::MAX, Mask(0));
        for n in 0..8 {
            let mask = Mask(n);
            self.apply(mask);
            let score = penalty(&self.dark, self.size);
            self.apply(mask);
            if score < best.0 {
                best = (score, mask);
            }
        }
        best.1
    }

    /// The format information, twice (15 bits: the level and mask with a BCH code), and the
    /// module always dark beside it.
    fn format(&mut self, level: Level, mask: Mask) {
        let data = level.format_bits() << 3 | u32::from(mask.0);
        let mut rem = data;
        for _ in 0..10 {
            rem = (rem << 1) ^ ((rem >> 9) * 0x537);
        }
        let bits = (data << 10 | rem) ^ 0x5412;
        let bit = |i: usize| (bits >> i) & 1 == 1;
        let size = self.size;
        for i in 0..6 {
            self.set(8, i, bit(i));
        }
        self.set(8, 7, bit(6));
        self.set(8, 8, bit(7));
        self.set(7, 8, bit(8));
        for i in 9..15 {
            self.set(14 - i, 8, bit(i));
        }
        for i in 0..8 {
            self.set(size - 1 - i, 8, bit(i));
        }
        for i in 8..15 {
            self.set(8, size - 15 + i, bit(i));
        }
        self.set(8, size - 8, true);
    }

    /// The version information (version 7 and up): 18 bits, the version with a BCH code, twice.
    fn version_information(&mut self) {
        let v = u32::from(self.version.0);
        if v < 7 {
            return;
        }
        let mut rem = v;
        for _ in 0..12 {
            rem = (rem << 1) ^ ((rem >> 11) * 0x1F25);
        }
        let bits = v << 12 | rem;
        let size = self.size;
        for i in 0..18 {
            let dark = (bits >> i) & 1 == 1;
            self.set(size - 11 + i % 3, i / 3, dark);
            self.set(i / 3, size - 11 + i % 3, dark);
        }
    }
}

/// The standard's penalty of a drawn code (ISO/IEC 18004:2015, 7.8.3.1, table 11): 3 + (n − 5)
/// for each run of n ≥ 5 modules of one colour in a row or column; 3 for each 2 × 2 block of
/// one colour; 40 for each dark-light-dark×3-light-dark pattern in a row or column with four
/// light modules before or after it (the quiet zone counts as light); 10 for each 5 % by which
/// the dark modules' share strays from 50 %.
fn penalty(dark: &[bool], size: usize) -> u32 {
    let at = |x: usize, y: usize| dark[y * size + x];
    let mut score = 0u32;
    let mut line = vec![false; size];
    for horizontal in [true, false] {
        for a in 0..size {
            for (b, m) in line.iter_mut().enumerate() {
                *m = if horizontal { at(b, a) } else { at(a, b) };
            }
            score += runs_and_finders(&line);
        }
    }
    for y in 1..size {
        for x in 1..size {
            let c = at(x, y);
            if c == at(x - 1, y) && c == at(x, y - 1) && c == at(x - 1, y - 1) {
                score += 3;
            }
        }
    }
    let total = dark.len();
    let count = dark.iter().filter(|&&d| d).count();
    let k = (20 * count).abs_diff(10 * total) / total;
    score + 10 * k as u32
}

/// One row's or column's share of the penalty: its runs, and its finder-like patterns.
fn runs_and_finders(line: &[bool]) -> u32 {
    let mut score = 0;
    let mut run = 0;
    for (i, &m) in line.iter().enumerate() {
        if i > 0 && m == line[i - 1] {
            run += 1;
        } else {
            run = 1;
        }
        let ends = i + 1 == line.len() || line[i + 1] != m;
        if ends && run >= 5 {
            score += run as u32 - 2;
        }
    }
    const FINDER: [bool; 7] = [true, false, true, true, true, false, true];
    let light = |from: usize, to: usize| {
        line[from.min(line.len())..to.min(line.len())]
            .iter()
            .all(|&d| !d)
    };
    for (i, w) in line.windows(7).enumerate() {
        if w == FINDER && (light(i.saturating_sub(4), i) || light(i + 7, i + 11)) {
            score += 40;
        }
    }
    score
}

#[cfg(test)]
mod tests;
