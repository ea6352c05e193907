//! The `engine` binary under Morris rule variants (docs/cli.md, « Rules »): `--rules`, the
//! `Rules` header, the JSON's `rules` field, the `full` and `quiet` reasons, and the errors.
//! With the default rules every output is as before (`tests/cli.rs`, unchanged).

mod run;
use run::{engine, stderr, stdout};

const TWELVE: &str = "pieces=12,diagonals=1,flying=1,lasker=0,quiet=0";

#[test]
fn perft_follows_the_rules() {
    for (rules, depth, count) in [
        ("nine", "3", "12144"),
        ("lasker", "3", "13552"),
        ("pieces=10,lasker=1", "4", "319176"),
        ("twelve", "5", "5150880"),
        ("gur9", "2", "552"),
        ("quiet=3", "4", "0"),
    ] {
        let o = engine(&["perft", "morris", depth, "--rules", rules], b"");
        assert!(o.status.success(), "{rules}");
        assert_eq!(stdout(&o).lines().last(), Some(count), "{rules}");
    }
}

#[test]
fn the_json_names_rules_other_than_the_default() {
    let o = engine(
        &["replay", "morris", "--rules", "twelve"],
        b"a7 d7 b6 d6 c5xd7",
    );
    assert!(o.status.success());
    assert_eq!(
        stdout(&o),
        format!(
            "{{\"game\":\"morris\",\"rules\":\"{TWELVE}\",\"board\":\"B.......BR......B.......\",\
             \"reserves\":[9,10],\"to_move\":1,\"turns\":5,\"phase\":\"play\",\"winner\":null,\
             \"reason\":null}}\n"
        )
    );
    // The default, however written, changes nothing in the output.
    let plain = engine(&["replay", "morris"], b"a7 d7 b6 d6 c5");
    for spelled in ["nine", "pieces=9", "gur9,quiet=0", TWELVE] {
        let o = engine(&["replay", "morris", "--rules", spelled], b"a7 d7 b6 d6 c5");
        if spelled == TWELVE {
            assert_eq!(o.status.code(), Some(1), "c5 closes a mill under twelve");
        } else {
            assert_eq!(o.stdout, plain.stdout, "{spelled}");
        }
    }
}

#[test]
fn the_full_and_quiet_reasons() {
    let full = "e5 g7 c5 d6 d7 a7 a4 c3 e3 d5 f6 f4 g4 f2 d3 b6 b4 c4 d2 e4 b2 a1 g1 d1";
    let o = engine(
        &["replay", "morris", "--rules", "pieces=12"],
        full.as_bytes(),
    );
    assert!(stdout(&o).ends_with(
        "\"to_move\":0,\"turns\":24,\"phase\":\"over\",\"winner\":null,\"reason\":\"full\"}\n"
    ));
    let o = engine(&["replay", "morris", "--rules", "quiet=4"], b"d6 b4 a7 c4");
    assert!(stdout(&o).ends_with("\"phase\":\"over\",\"winner\":null,\"reason\":\"quiet\"}\n"));
    // `ai` on a game so ended.
    let o = engine(
        &["ai", "morris", "--level", "1", "--rules", "quiet=4"],
        b"d6 b4 a7 c4",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o),
        "{\"error\":\"over\",\"turns\":4,\"winner\":null,\"reason\":\"quiet\",\"message\":\"the game is over\"}\n"
    );
}

#[test]
fn the_rules_header_is_read_and_must_agree_with_the_option() {
    let record = b"[Game \"morris\"]\n[Rules \"twelve\"]\na7 d7 b6 d6 c5xd7\n";
    let o = engine(&["replay"], record);
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(stdout(&o).contains(TWELVE));
    let o = engine(&["replay", "--rules", "pieces=12,diagonals=1"], record);
    assert!(o.status.success());
    let o = engine(&["replay", "--rules", "lasker"], record);
    assert_eq!(o.status.code(), Some(1));
    let line = stdout(&o);
    assert!(
        line.starts_with(
            "{\"error\":\"header\",\"line\":2,\"message\":\"the record's rules are twelve"
        ),
        "{line}"
    );
    for (args, text, line) in [
        (
            &["replay", "morris"][..],
            "[Rules \"twelve,pieces=13\"]\nd6",
            1,
        ),
        (
            &["replay", "morris"],
            "[Event \"x\"]\n[Rules \"nine\"]\n[Rules \"nine\"]\nd6",
            3,
        ),
        (&["replay"], "[Game \"meta\"]\n[Rules \"nine\"]\ne5", 2),
        (&["replay", "--rules", "nine"], "[Game \"meta\"]\ne5", 1),
    ] {
        let o = engine(args, text.as_bytes());
        assert_eq!(o.status.code(), Some(1), "{text}");
        assert!(
            stdout(&o).starts_with(&format!("{{\"error\":\"header\",\"line\":{line},")),
            "{text}: {}",
            stdout(&o)
        );
    }
}

#[test]
fn a_bad_rules_option_is_a_usage_error_that_says_what_is_wrong() {
    for (args, words) in [
        (
            vec!["perft", "morris", "2", "--rules", "ten"],
            "unknown rule set \"ten\"",
        ),
        (
            vec!["replay", "morris", "--rules", "pieces=13"],
            "9, 10, 11 or 12",
        ),
        (
            vec!["replay", "morris", "--rules=quiet=050"],
            "bad value \"050\" for quiet",
        ),
        (
            vec!["replay", "morris", "--rules", "nine,lasker"],
            "must come first",
        ),
        (
            vec!["replay", "morris", "--rules", "Pieces=10"],
            "lower case",
        ),
        (
            vec!["replay", "morris", "--rules", "quiet=1,quiet=2"],
            "quiet is given twice",
        ),
        (vec!["replay", "morris", "--rules"], "missing argument"),
        (vec!["replay", "meta", "--rules", "nine"], "morris only"),
        (vec!["perft", "meta", "2", "--rules", "nine"], "morris only"),
        (
            vec!["verify", "--rules", "nine"],
            "verify takes no argument",
        ),
        (
            vec!["ai", "meta", "--level", "1", "--rules", "nine"],
            "morris only",
        ),
    ] {
        let o = engine(&args, b"d6");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
        assert!(stderr(&o).contains(words), "{args:?}: {}", stderr(&o));
    }
    let long = format!("nine{}", ",quiet=1".repeat(40));
    let o = engine(&["replay", "morris", "--rules", &long], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("at most 200"));
}

#[test]
fn ai_and_match_play_under_the_rules() {
    // Lasker: Blue (reserve empty) can only slide; the level-3 answer is a legal slide.
    let o = engine(
        &[
            "ai", "morris", "--level", "3", "--seed", "1", "--rules", "lasker",
        ],
        b"a7 g1 a7-d7 g1-g4",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let turn = stdout(&o).lines().last().unwrap().to_string();
    let after = engine(
        &["replay", "morris", "--rules", "lasker"],
        format!("a7 g1 a7-d7 g1-g4 {turn}").as_bytes(),
    );
    assert!(after.status.success(), "{turn}");
    let o = engine(
        &[
            "match",
            "morris",
            "--a",
            "2",
            "--b",
            "random",
            "--games",
            "2",
            "--seed",
            "3",
            "--rules",
            "twelve,flying=0",
        ],
        b"",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("A = 2 (Facile), B = random, rules twelve,flying=0: 2 games"),
        "{out}"
    );
    // Each game's record replays under the rules to the result the line gives.
    for line in out.lines().filter(|l| l.starts_with("game ")) {
        let record = line.split_once(" s) ").unwrap().1;
        let r = engine(
            &["replay", "morris", "--rules", "twelve,flying=0"],
            record.as_bytes(),
        );
        assert!(stdout(&r).contains("\"phase\":\"over\""), "{line}");
    }
}
