//! The encoder against codes drawn by an independent one (segno: `client/tests/qr/`, made by
//! `make_fixtures.py`, which says how to rerun it), module for module, and its bounds.

use super::*;

/// One code of a fixture file.
struct Fixture {
    name: &'static str,
    input: Vec<u8>,
    level: Level,
    version: Version,
    mask: Mask,
    /// segno's own choice of version and mask for these bytes at this level.
    auto: (Version, Mask),
    modules: Vec<bool>,
}

const FILES: [(&str, &str); 8] = [
    ("short", include_str!("../../../tests/qr/short.txt")),
    ("masks", include_str!("../../../tests/qr/masks.txt")),
    ("link", include_str!("../../../tests/qr/link.txt")),
    (
        "link-options",
        include_str!("../../../tests/qr/link-options.txt"),
    ),
    ("long", include_str!("../../../tests/qr/long.txt")),
    ("edges", include_str!("../../../tests/qr/edges.txt")),
    ("largest", include_str!("../../../tests/qr/largest.txt")),
    ("levels", include_str!("../../../tests/qr/levels.txt")),
];

fn hex(text: &str) -> Vec<u8> {
    (0..text.len() / 2)
        .map(|i| u8::from_str_radix(&text[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

fn level(text: &str) -> Level {
    match text {
        "L" => Level::L,
        "M" => Level::M,
        "Q" => Level::Q,
        "H" => Level::H,
        _ => panic!("level {text}"),
    }
}

fn fixtures() -> Vec<Fixture> {
    let mut all = Vec::new();
    for (name, text) in FILES {
        for code in text.split("\n\n") {
            let mut lines = code.lines();
            let mut field = |key: &str| {
                let line = lines.next().unwrap();
                line.strip_prefix(key).unwrap().trim().to_string()
            };
            let input = hex(&field("input"));
            let level = level(&field("level"));
            let version = Version::new(field("version").parse().unwrap()).unwrap();
            let mask = Mask::new(field("mask").parse().unwrap()).unwrap();
            let auto = field("auto");
            let (v, m) = auto.split_once(' ').unwrap();
            let auto = (
                Version::new(v.parse().unwrap()).unwrap(),
                Mask::new(m.parse().unwrap()).unwrap(),
            );
            let size = version.size();
            let mut modules = Vec::new();
            for row in lines {
                let bits = row.chars().flat_map(|c| {
                    let n = c.to_digit(16).unwrap();
                    (0..4).rev().map(move |i| (n >> i) & 1 == 1)
                });
                modules.extend(bits.take(size));
            }
            assert_eq!(modules.len(), size * size, "{name}: rows");
            all.push(Fixture {
                name,
                input,
                level,
                version,
                mask,
                auto,
                modules,
            });
        }
    }
    all
}

/// The code as rows of `#` and `.`, for a readable failure.
fn picture(modules: &[bool], size: usize) -> String {
    modules
        .chunks(size)
        .map(|row| {
            row.iter()
                .map(|&d| if d { '#' } else { '.' })
                .collect::<String>()
                + "\n"
        })
        .collect()
}

#[test]
fn every_fixture_is_drawn_module_for_module_as_segno_draws_it() {
    let all = fixtures();
    assert_eq!(all.len(), 20);
    for f in &all {
        let qr = Qr::encode_with(&f.input, f.level, Some(f.version), Some(f.mask)).unwrap();
        assert_eq!(
            (qr.version(), qr.level(), qr.mask()),
            (f.version, f.level, f.mask)
        );
        assert_eq!(qr.size(), f.version.size());
        if qr.modules() != f.modules {
            let wrong = qr.modules().iter().zip(&f.modules).filter(|(a, b)| a != b);
            panic!(
                "{} (version {}, mask {}): {} modules differ\nours:\n{}segno:\n{}",
                f.name,
                f.version.number(),
                f.mask.number(),
                wrong.count(),
                picture(qr.modules(), qr.size()),
                picture(&f.modules, qr.size())
            );
        }
    }
}

#[test]
fn the_version_and_mask_chosen_are_segnos() {
    for f in fixtures() {
        let qr = Qr::encode_with(&f.input, f.level, None, None).unwrap();
        assert_eq!((qr.version(), qr.mask()), f.auto, "{}", f.name);
    }
}

#[test]
fn an_invitation_link_is_version_10_at_level_m() {
    let link = fixtures().into_iter().find(|f| f.name == "link").unwrap();
    let qr = Qr::encode(&link.input).unwrap();
    assert_eq!(link.input.len(), 191);
    assert_eq!(
        (qr.version().number(), qr.level(), qr.size()),
        (10, Level::M, 57)
    );
    assert_eq!(qr.modules(), link.modules);
}

#[test]
fn capacities_blocks_and_alignment_patterns_are_the_standards() {
    let table = include_str!("../../../tests/qr/tables.txt");
    assert_eq!(table.lines().count(), 160);
    for line in table.lines() {
        let f: Vec<&str> = line.split(' ').collect();
        let version = Version::new(f[0].parse().unwrap()).unwrap();
        let level = level(f[1]);
        let at = format!("version {} level {}", f[0], f[1]);
        assert_eq!(
            Qr::capacity(version, level),
            f[2].parse::<usize>().unwrap(),
            "{at}"
        );
        let (ec, count) = blocks(version, level);
        assert_eq!(
            (ec.to_string(), count.to_string()),
            (f[3].into(), f[4].into()),
            "{at}"
        );
        let centres: Vec<String> = alignment_positions(version)
            .iter()
            .map(usize::to_string)
            .collect();
        let centres = if centres.is_empty() {
            "-".into()
        } else {
            centres.join(",")
        };
        assert_eq!(centres, f[5], "{at}");
    }
}

#[test]
fn nothing_fits_past_the_capacity() {
    // Empty is a code (version 1).
    let qr = Qr::encode(b"").unwrap();
    assert_eq!(qr.version(), Version::MIN);
    // The last byte of version 40-M, and one more.
    let full = vec![b'a'; 2331];
    assert_eq!(Qr::encode(&full).unwrap().version(), Version::MAX);
    let over = vec![b'a'; 2332];
    assert_eq!(
        Qr::encode(&over),
        Err(TooLong {
            bytes: 2332,
            capacity: 2331
        })
    );
    // A version asked for holds its capacity and no more.
    let v9 = Version::new(9).unwrap();
    assert!(Qr::encode_with(&full[..180], Level::M, Some(v9), None).is_ok());
    assert_eq!(
        Qr::encode_with(&full[..181], Level::M, Some(v9), None),
        Err(TooLong {
            bytes: 181,
            capacity: 180
        })
    );
    assert!(Qr::encode(&vec![0; 100_000]).is_err());
    assert_eq!(Version::new(0), None);
    assert_eq!(Version::new(41), None);
    assert_eq!(Mask::new(8), None);
}

/// Reads a code back as a reader does: the format information, the mask taken off, the
/// codewords gathered, each block's Reed–Solomon syndromes zero, the bytes read. Not an
/// independent decoder (it shares the function patterns and the codewords' path), but it checks
/// every version and level, which the fixtures sample.
fn read_back(qr: &Qr) -> Vec<u8> {
    let size = qr.size();
    // The format information by the top-left finder, with its BCH code checked.
    let mut bits = 0u32;
    for (i, (x, y)) in (0..6)
        .map(|i| (8, i))
        .chain([(8, 7), (8, 8), (7, 8)])
        .chain((9..15).map(|i| (14 - i, 8)))
        .enumerate()
    {
        bits |= u32::from(qr.is_dark(x, y)) << i;
    }
    let bits = bits ^ 0x5412;
    let (data, mut rem) = (bits >> 10, bits >> 10);
    for _ in 0..10 {
        rem = (rem << 1) ^ ((rem >> 9) * 0x537);
    }
    assert_eq!(data << 10 | rem, bits, "format information");
    let mask = Mask::new((data & 7) as u8).unwrap();
    assert_eq!(mask, qr.mask());
    let level = Level::ALL
        .into_iter()
        .find(|l| l.format_bits() == data >> 3)
        .unwrap();
    assert_eq!(level, qr.level());
    // The codewords, unmasked, along the same path.
    let drawing = Drawing::new(qr.version());
    let mut stream = Vec::new();
    let mut right = size - 1;
    loop {
        if right == 6 {
            right = 5;
        }
        let upward = (right + 1) & 2 == 0;
        for step in 0..size {
            let y = if upward { size - 1 - step } else { step };
            for x in [right, right - 1] {
                if !drawing.function[y * size + x] {
                    stream.push(qr.is_dark(x, y) ^ mask.flips(x, y));
                }
            }
        }
        if right < 2 {
            break;
        }
        right -= 2;
    }
    assert_eq!(stream.len(), raw_modules(qr.version()));
    let codewords: Vec<u8> = stream
        .chunks_exact(8)
        .map(|b| b.iter().fold(0, |acc, &bit| acc << 1 | u8::from(bit)))
        .collect();
    // De-interleaved into blocks, each with zero syndromes.
    let (ec, count) = blocks(qr.version(), level);
    let raw = codewords.len();
    let short = count - raw % count;
    let short_data = raw / count - ec;
    let mut blocks_data = vec![Vec::new(); count];
    let mut next = codewords.iter();
    for i in 0..=short_data {
        for (b, block) in blocks_data.iter_mut().enumerate() {
            if i < short_data || b >= short {
                block.push(*next.next().unwrap());
            }
        }
    }
    let mut data: Vec<u8> = Vec::new();
    let mut blocks_ec = vec![Vec::new(); count];
    for _ in 0..ec {
        for block in &mut blocks_ec {
            block.push(*next.next().unwrap());
        }
    }
    for (d, e) in blocks_data.iter().zip(&blocks_ec) {
        let word: Vec<u8> = d.iter().chain(e).copied().collect();
        let mut root = 1u8;
        for _ in 0..ec {
            let syndrome = word.iter().fold(0, |acc, &c| gf_mul(acc, root) ^ c);
            assert_eq!(syndrome, 0, "a syndrome");
            root = gf_mul(root, 2);
        }
        data.extend(d);
    }
    // Byte mode, the count, the bytes.
    let bit = |i: usize| (data[i / 8] >> (7 - i % 8)) & 1;
    let read = |from: usize, n: usize| {
        (from..from + n).fold(0usize, |acc, i| acc << 1 | usize::from(bit(i)))
    };
    assert_eq!(read(0, 4), 0b0100);
    let cb = count_bits(qr.version());
    let len = read(4, cb);
    (0..len).map(|i| read(4 + cb + 8 * i, 8) as u8).collect()
}

/// A few pseudo-random bytes (no randomness in tests).
fn noise(n: usize, seed: u64) -> Vec<u8> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 24) as u8
        })
        .collect()
}

#[test]
fn every_version_and_level_reads_back() {
    for level in Level::ALL {
        for v in 1..=40 {
            let version = Version::new(v).unwrap();
            let cap = Qr::capacity(version, level);
            for len in [cap, cap / 2, 0] {
                let data = noise(len, u64::from(v) * 7 + len as u64);
                let mask = Mask::new(v % 8).unwrap();
                let qr = Qr::encode_with(&data, level, Some(version), Some(mask)).unwrap();
                assert_eq!(read_back(&qr), data, "version {v} {level:?} {len} bytes");
            }
        }
    }
}

#[test]
fn any_bytes_make_a_code_or_too_long_never_a_panic() {
    for len in (0..2400)
        .step_by(97)
        .chain([1, 2, 17, 2330, 2331, 2332, 2953, 2954])
    {
        let data = noise(len, len as u64);
        match Qr::encode(&data) {
            Ok(qr) => {
                assert!(len <= 2331);
                assert!(Qr::capacity(qr.version(), Level::M) >= len);
                if let Some(smaller) = Version::new(qr.version().number() - 1) {
                    assert!(Qr::capacity(smaller, Level::M) < len);
                }
                assert_eq!(read_back(&qr), data);
            }
            Err(e) => assert!(len > 2331 && e.capacity == 2331 && e.bytes == len),
        }
    }
}

#[test]
fn the_svg_path_covers_exactly_the_dark_modules() {
    let qr = Qr::encode(b"https://example.org/moulin/salon#g=morris&c=K7M2Q9XD4HPA").unwrap();
    let quiet = 4;
    let path = qr.svg_path(quiet);
    let n = qr.size() + 2 * quiet;
    let mut drawn = vec![false; n * n];
    for rect in path.split('z').filter(|r| !r.is_empty()) {
        // M{x} {y}h{run}v1H{x}
        let (x, rest) = rect[1..].split_once(' ').unwrap();
        let (y, rest) = rest.split_once('h').unwrap();
        let (run, rest) = rest.split_once("v1H").unwrap();
        assert_eq!(rest, x);
        let (x, y, run): (usize, usize, usize) =
            (x.parse().unwrap(), y.parse().unwrap(), run.parse().unwrap());
        for i in x..x + run {
            assert!(!drawn[y * n + i], "drawn twice");
            drawn[y * n + i] = true;
        }
    }
    for y in 0..n {
        for x in 0..n {
            let dark = x >= quiet && y >= quiet && qr.is_dark(x - quiet, y - quiet);
            assert_eq!(drawn[y * n + x], dark, "({x}, {y})");
        }
    }
}
