//! Perft against the data files in `tests/perft/*.perft`.
//!
//! A file is a list of settings and counts, one a line: `game morris|meta`, `max-turns N`,
//! `rules R` (a Morris rule set), `record TOKENS…` (start from the position the record reaches;
//! none: the start position), each holding for the `depth D COUNT` lines after it. The
//! independent reference checks the same files (`tests/reference/test_rules.py`), and the
//! cross-check compares the start positions' counts at depth 5 for every named rule set.
//!
//! `cargo test` runs every level up to 100 million leaves; the deeper ones run with
//! `cargo test --release -p engine --test perft -- --ignored`.

use engine::morris::Rules;
use engine::{meta, morris, record};
use std::path::Path;

const QUICK_LIMIT: u64 = 100_000_000;

struct Case {
    file: String,
    game: String,
    max_turns: u32,
    rules: Rules,
    record: String,
    depth: u32,
    expected: u64,
}

fn cases() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/perft exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "perft"))
        .collect();
    files.sort();
    assert!(files.len() >= 7, "perft data files are missing");
    let mut cases = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        let (mut game, mut max_turns, mut rules, mut rec) = (None, 100, Rules::NINE, String::new());
        for line in text.lines().map(str::trim) {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                [] => {}
                [first, ..] if first.starts_with('#') => {}
                ["game", g] => game = Some(g.to_string()),
                ["max-turns", n] => max_turns = n.parse().unwrap(),
                ["rules", r] => rules = r.parse().unwrap(),
                ["record", tokens @ ..] => rec = tokens.join(" "),
                ["depth", d, n] => cases.push(Case {
                    file: file.clone(),
                    game: game.clone().expect("game before depth"),
                    max_turns,
                    rules,
                    record: rec.clone(),
                    depth: d.parse().unwrap(),
                    expected: n.parse().unwrap(),
                }),
                _ => panic!("{file}: cannot read {line:?}"),
            }
        }
    }
    cases
}

fn run(case: &Case) -> u64 {
    match case.game.as_str() {
        "morris" => {
            let start = morris::Morris::with_rules(case.rules, case.max_turns).unwrap();
            let from = record::replay(start, &case.record).expect("the record is legal");
            morris::perft::perft(&from, case.depth)
        }
        "meta" => meta::perft::perft(&meta::Meta::new(), case.depth),
        other => panic!("unknown game {other}"),
    }
}

#[test]
fn perft_matches_the_data_files() {
    let mut ran = 0;
    for case in cases().iter().filter(|c| c.expected <= QUICK_LIMIT) {
        assert_eq!(
            run(case),
            case.expected,
            "{} {} depth {} from {:?}",
            case.file,
            case.rules.short(),
            case.depth,
            case.record
        );
        ran += 1;
    }
    assert!(ran >= 60);
}

#[test]
#[ignore = "deep levels: run with --release -- --ignored"]
fn deep_perft_matches_the_data_files() {
    for case in cases().iter().filter(|c| c.expected > QUICK_LIMIT) {
        assert_eq!(
            run(case),
            case.expected,
            "{} depth {}",
            case.file,
            case.depth
        );
    }
}

#[test]
fn fast_perft_agrees_with_the_public_surface() {
    let m = morris::Morris::new();
    let u = meta::Meta::new();
    for depth in 0..=3 {
        assert_eq!(
            morris::perft::perft(&m, depth),
            record::perft_by_turns(&m, depth)
        );
        assert_eq!(
            meta::perft::perft(&u, depth),
            record::perft_by_turns(&u, depth)
        );
    }
    let short = morris::Morris::with_max_turns(2).unwrap();
    for depth in 0..=3 {
        assert_eq!(
            morris::perft::perft(&short, depth),
            record::perft_by_turns(&short, depth)
        );
    }
}
