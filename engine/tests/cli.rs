//! The `engine` binary's contract (docs/cli.md): outputs, JSON errors, exit codes, and no panic on
//! any input.

mod run;
use run::{engine, stdout};

#[test]
fn perft_prints_the_count_as_the_last_line() {
    for (args, count) in [
        (vec!["perft", "morris", "3"], "12144"),
        (vec!["perft", "meta", "4"], "55080"),
        (vec!["perft", "morris", "5", "--max-turns", "5"], "5140800"),
        (vec!["perft", "morris", "6", "--max-turns=5"], "0"),
        (vec!["perft", "morris", "0"], "1"),
    ] {
        let o = engine(&args, b"");
        assert!(o.status.success(), "{args:?}");
        assert_eq!(stdout(&o).lines().last(), Some(count), "{args:?}");
    }
}

#[test]
fn replay_prints_the_final_state_as_one_json_line() {
    let o = engine(&["replay", "morris"], b"[Event \"t\"]\na7 b6 d7 d6 g7xb6\n");
    assert!(o.status.success());
    assert_eq!(
        stdout(&o),
        "{\"game\":\"morris\",\"board\":\"BBB......R..............\",\"reserves\":[6,7],\"to_move\":1,\"turns\":5,\"phase\":\"play\",\"winner\":null,\"reason\":null}\n"
    );
    let o = engine(&["replay", "meta"], b"e5 e4");
    assert!(o.status.success());
    let line = stdout(&o);
    assert!(line.starts_with("{\"game\":\"meta\",\"cells\":\""));
    assert!(line.ends_with(
        ",\"to_move\":0,\"required\":7,\"moves\":2,\"over\":false,\"winner\":null,\"line\":null}\n"
    ));
    let o = engine(&["replay", "morris", "--max-turns", "2"], b"d6 b4");
    assert!(stdout(&o).contains("\"phase\":\"over\",\"winner\":null,\"reason\":\"limit\""));
}

#[test]
fn a_bad_token_prints_its_index_and_exits_one() {
    for (game, record, index, token) in [
        ("morris", "d6 b4 d6", 2, "d6"),
        ("morris", "d6 D6", 1, "D6"),
        ("morris", "a7 b6 d7 d6 g7", 4, "g7"),
        ("morris", "a7 b6 d7 d6 g7xa7", 4, "g7xa7"),
        ("morris", "d6 b4 d6-d5", 2, "d6-d5"),
        ("meta", "e5 a9", 1, "a9"),
        ("meta", "e5 j1", 1, "j1"),
    ] {
        let o = engine(&["replay", game], record.as_bytes());
        assert_eq!(o.status.code(), Some(1), "{record}");
        let line = stdout(&o);
        let prefix = format!(
            "{{\"error\":\"illegal\",\"index\":{index},\"token\":\"{token}\",\"message\":\""
        );
        assert!(line.starts_with(&prefix), "{record}: {line}");
        assert!(line.ends_with("\"}\n") && line.lines().count() == 1);
    }
    // A token after the end of the game.
    let o = engine(&["replay", "morris", "--max-turns", "1"], b"d6 b4");
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("\"index\":1,\"token\":\"b4\""));
}

#[test]
fn usage_errors_exit_two_with_a_message() {
    for args in [
        vec![],
        vec!["perft"],
        vec!["perft", "chess", "3"],
        vec!["perft", "meta", "x"],
        vec!["perft", "meta", "-1"],
        vec!["perft", "meta", "3", "--max-turns", "10"],
        vec!["perft", "morris", "3", "--max-turns", "0"],
        vec!["perft", "morris", "3", "--max-turns", "501"],
        vec!["perft", "morris", "3", "--max-turns"],
        vec!["replay", "morris", "extra"],
        vec!["replay", "morris", "--frobnicate"],
        vec!["fly"],
    ] {
        let o = engine(&args, b"");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("usage"),
            "{args:?}"
        );
    }
    let o = engine(&["--help"], b"");
    assert!(o.status.success());
    assert!(stdout(&o).contains("engine replay morris"));
}

#[test]
fn replay_reads_the_game_and_limit_from_the_headers() {
    let record = b"[Game \"morris\"]\n[MaxTurns \"2\"]\n[Result \"1/2-1/2\"]\nd6 b4\n";
    let o = engine(&["replay"], record);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("\"turns\":2,\"phase\":\"over\""),
        "{}",
        stdout(&o)
    );
    assert_eq!(
        stdout(&engine(&["replay", "morris", "--max-turns", "2"], record)),
        stdout(&o)
    );
    // Given and written disagree: the header's line is named, exit 1.
    for (args, line) in [
        (vec!["replay", "meta"], 1),
        (vec!["replay", "morris", "--max-turns", "9"], 2),
    ] {
        let o = engine(&args, record);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(
            stdout(&o).starts_with(&format!("{{\"error\":\"header\",\"line\":{line},")),
            "{}",
            stdout(&o)
        );
    }
    // The moves decide the result: a Result header, even one the moves do not reach, is
    // information (record headers are skipped but for the game and the limit).
    let o = engine(
        &["replay"],
        b"[Game \"morris\"]\n[Result \"1-0\"]\n[MaxTurns \"2\"]\n[Result \"*\"]\nd6 b4",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("\"phase\":\"over\",\"winner\":null"),
        "{}",
        stdout(&o)
    );
    // No game named anywhere.
    let o = engine(&["replay"], b"e5 e4");
    assert!(
        stdout(&o).starts_with("{\"error\":\"header\",\"line\":0,"),
        "{}",
        stdout(&o)
    );
    // Without headers, as before.
    assert_eq!(engine(&["replay", "meta"], b"e5 e4").status.code(), Some(0));
}

#[test]
fn arbitrary_bytes_never_crash_the_replay() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let alphabet = b"abcdefghijx-0123456789 \n\t[]\"\\\xff\xc3";
    for _ in 0..60 {
        let len = (seed % 120) as usize;
        let input: Vec<u8> = (0..len)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                alphabet[(seed % alphabet.len() as u64) as usize]
            })
            .collect();
        for game in ["morris", "meta"] {
            let o = engine(&["replay", game], &input);
            let code = o.status.code();
            assert!(code == Some(0) || code == Some(1), "{input:?}: {o:?}");
            let line = stdout(&o);
            assert_eq!(line.lines().count(), 1);
            assert!(line.starts_with('{') && line.ends_with("}\n"));
        }
    }
}

#[test]
fn verify_reports_each_games_rules_and_drawn_colours() {
    use engine::morris::Rules;
    use engine::session::{Command, Loopback, Proposal, Seat, Step};
    use engine::GameKind;
    let mut net = Loopback::new(GameKind::Morris, 100);
    let o = net.host().options(100, Rules::GUR9, true, 0);
    net.exchange(Seat::Host, Command::Options(o));
    let blue = net.mover().unwrap();
    net.exchange(blue, Command::Play(Step::Place(0)));
    let next = net.host().options(40, Rules::LASKER, false, 1);
    net.exchange(Seat::Host, Command::Propose(Proposal::NewGameWith(next)));
    net.exchange(Seat::Guest, Command::Reply { accept: true });
    let o = engine(&["verify"], net.guest().export().as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let story: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let games = &story["room"]["games"];
    let host_blue = net.host().room().games()[0].host == engine::Player::Blue;
    assert_eq!(games[0]["host"], if host_blue { 0 } else { 1 });
    assert_eq!(games[0]["colours"], "lot");
    assert_eq!(
        games[0]["rules"],
        "pieces=9,diagonals=0,flying=1,lasker=0,quiet=50"
    );
    assert_eq!(games[0]["result"], "replaced");
    // Alternating colours again (game 1: the host is Red), Lasker, and the final state says so.
    assert_eq!(games[1].get("colours"), None);
    assert_eq!(games[1]["host"], 1);
    assert_eq!(
        games[1]["rules"],
        "pieces=10,diagonals=0,flying=1,lasker=1,quiet=0"
    );
    assert_eq!(
        story["rules"],
        "pieces=10,diagonals=0,flying=1,lasker=1,quiet=0"
    );
}

#[test]
fn verify_checks_an_exported_transcript() {
    use engine::session::{Command, Loopback, Step};
    use engine::GameKind;
    let mut net = Loopback::new(GameKind::Meta, 0);
    let mut pick = 0usize;
    while let Some(seat) = net.mover() {
        let steps = Step::legal(net.host().game().unwrap());
        pick = pick.wrapping_mul(31).wrapping_add(7) % 1_000_003;
        net.exchange(seat, Command::Play(steps[pick % steps.len()]));
    }
    let played = net.host().room().record();
    let text = net.guest().export();
    let o = engine(&["verify"], text.as_bytes());
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    // The same final state as replaying the moves played, then the room's story.
    assert!(!played.is_empty());
    let replayed = engine(&["replay", "meta"], played.as_bytes());
    let (line, state) = (stdout(&o), stdout(&replayed));
    let state = state.trim_end().strip_suffix('}').unwrap();
    assert!(line.starts_with(state), "{line}");
    let story: serde_json::Value = serde_json::from_str(&line).unwrap();
    let room = &story["room"];
    let host_key = engine::session::wire::hex(&net.host().invite().host_key.unwrap());
    assert_eq!(room["host"]["key"], host_key.as_str());
    assert_eq!(room["host"]["fingerprint"].as_str().unwrap().len(), 16);
    assert_eq!(room["games"][0]["host"], 0, "the host is Blue in game 0");
    assert_eq!(room["games"][0]["turns"], story["moves"]);
    assert_eq!(room["faults"], serde_json::json!([]));
    assert_eq!(
        room["verdict"],
        "verified: every signature, link and move is valid"
    );
    // One changed character in an entry line.
    let mut bad = text.clone().into_bytes();
    let i = text.find("\n0").map_or(text.len() / 2, |i| i + 40);
    bad[i] = if bad[i] == b'a' { b'b' } else { b'a' };
    let o = engine(&["verify"], &bad);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).starts_with("{\"error\":\"invalid\",\"entry\":"));
    let o = engine(&["verify"], b"not a transcript\n");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(engine(&["verify", "x"], b"").status.code(), Some(2));
}

#[test]
fn verify_names_a_seat_handed_to_another_device() {
    use engine::session::{Command, Config, Loopback, Seat, Session, Step};
    use engine::GameKind;
    let mut net = Loopback::new(GameKind::Morris, 100);
    let play = |net: &mut Loopback, n: usize| {
        for i in 0..n {
            let seat = net.mover().unwrap();
            let steps = Step::legal(net.host().game().unwrap());
            net.exchange(seat, Command::Play(steps[(i * 5 + 1) % steps.len()]));
        }
    };
    play(&mut net, 3);
    net.disconnect();
    // A new device with the link asks for the guest's seat; the host lets it in.
    let newcomer = Session::guest(net.host().invite().clone(), [7; 32], Config::default(), 0);
    let mut net = Loopback::with_sessions(net.host().clone(), newcomer);
    net.exchange(Seat::Host, Command::Handover { accept: true });
    play(&mut net, 3);
    let o = engine(&["verify"], net.host().export().as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let story: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let handovers = story["room"]["handovers"].as_array().unwrap();
    assert_eq!(handovers.len(), 1);
    assert_eq!(handovers[0]["seat"], "guest");
    assert_eq!(handovers[0]["by"], "host");
    assert_eq!(handovers[0]["crossed"], 0);
    let new_key = ed25519_dalek::SigningKey::from_bytes(&[7; 32]).verifying_key();
    assert_eq!(
        handovers[0]["key"],
        engine::session::wire::hex(new_key.as_bytes()).as_str()
    );
    // The hand-over comes after the three moves (and the two hellos), before the next three.
    assert_eq!(handovers[0]["entry"], 5);
    assert_eq!(story["room"]["games"][0]["turns"], 6);
    assert_eq!(story["room"]["faults"], serde_json::json!([]));
    let verdict = story["room"]["verdict"].as_str().unwrap();
    assert!(
        verdict.starts_with("verified: every signature, link and move is valid; the host signed entry 5, which gave the guest's seat (Red) to the key "),
        "{verdict}"
    );
    assert!(verdict.ends_with(handovers[0]["fingerprint"].as_str().unwrap()));
}

#[test]
fn ai_prints_a_legal_whole_turn_on_the_last_line_deterministically() {
    use engine::{meta::Meta, morris::Morris, record};
    for (game, rec) in [
        ("morris", ""),
        ("morris", "[Event \"t\"]\na7 b6 d7 d6"),
        ("meta", "e5 e4"),
        ("meta", ""),
    ] {
        for level in ["1", "2", "3"] {
            let args = ["ai", game, "--level", level, "--seed", "7"];
            let o = engine(&args, rec.as_bytes());
            assert!(o.status.success(), "{args:?}: {o:?}");
            let out = stdout(&o);
            let token = out.lines().last().unwrap();
            assert!(out.lines().next().unwrap().starts_with("info depth "));
            let full = format!("{rec} {token}");
            let legal = match game {
                "morris" => record::replay(Morris::new(), &full).is_ok(),
                _ => record::replay(Meta::new(), &full).is_ok(),
            };
            assert!(legal, "{args:?}: {token}");
            assert_eq!(stdout(&engine(&args, rec.as_bytes())), out, "{args:?}");
        }
    }
    // A mill waiting for its capture is answered with the whole turn, capture included.
    let o = engine(&["ai", "morris", "--level", "3"], b"a7 b6 d7 d6 a1 b4");
    let token = stdout(&o).lines().last().unwrap().to_string();
    assert!(
        token.starts_with("g7x") || token.starts_with("a4x"),
        "{token}"
    );
    // Levels 1-3 take --movetime, as every level does, and ignore it: their budgets are fixed.
    for (game, rec) in [("morris", "d6 b4 f4"), ("meta", "e5 e4")] {
        for level in ["1", "2", "3"] {
            let plain = ["ai", game, "--level", level, "--seed", "3"];
            let timed = [&plain[..], &["--movetime", "1"]].concat();
            let o = engine(&timed, rec.as_bytes());
            assert!(o.status.success(), "{timed:?}: {o:?}");
            assert_eq!(
                stdout(&o),
                stdout(&engine(&plain, rec.as_bytes())),
                "{timed:?}"
            );
        }
    }
    // Level 4 stops on its time budget.
    let o = engine(&["ai", "meta", "--level", "4", "--movetime", "30"], b"e5");
    assert!(o.status.success());
    let token = stdout(&o).lines().last().unwrap().to_string();
    assert!(engine::record::replay(engine::meta::Meta::new(), &format!("e5 {token}")).is_ok());
}

#[test]
fn ai_on_a_bad_record_or_a_finished_game_prints_json_and_exits_one() {
    let o = engine(&["ai", "morris", "--level", "2"], b"d6 b4 d6");
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).starts_with(r#"{"error":"illegal","index":2,"token":"d6","message":""#));
    let o = engine(
        &["ai", "morris", "--level", "1", "--max-turns", "2"],
        b"d6 b4",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o),
        "{\"error\":\"over\",\"turns\":2,\"winner\":null,\"reason\":\"limit\",\"message\":\"the game is over\"}\n"
    );
    // A game O won (from `engine match meta --a 3 --b 3 --games 1 --seed 2`).
    let rec = "b5 d6 b7 e3 d9 b8 f4 i1 g1 a1 b3 f9 i8 i6 g7 b1 d2 c5 g5 c4 i3 h9 e8 d5 c6 g9 a9 \
               a8 b4 e1 f2 g6 b9 f8 h4 d1 a2 a5 a6 c8 i5 h6 f7 g2 a4 c3 h7 e2 d4 b2 e5 f6 i9 h8 \
               e6 h2 e4 g3";
    let o = engine(&["ai", "meta", "--level", "3"], rec.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o),
        "{\"error\":\"over\",\"turns\":58,\"winner\":1,\"reason\":\"line\",\"message\":\"the game is over\"}\n"
    );
}

#[test]
fn ai_and_match_usage_errors_exit_two() {
    // A match between levels 1 and 2, and what is wrong with it.
    const MORRIS: [&str; 6] = ["match", "morris", "--a", "1", "--b", "2"];
    const META: [&str; 6] = ["match", "meta", "--a", "1", "--b", "2"];
    for args in [
        vec!["ai", "morris"],
        vec!["ai", "morris", "--level", "5"],
        vec!["ai", "morris", "--level", "x"],
        vec!["ai", "meta", "--level", "2", "--max-turns", "50"],
        vec!["ai", "morris", "--level", "2", "--a", "1"],
        vec!["ai", "chess", "--level", "2"],
        vec!["ai", "morris", "--level", "2", "--seed", "-1"],
        vec!["match", "morris", "--a", "1"],
        vec!["match", "morris", "--a", "1", "--b", "uct100"],
        vec!["match", "meta", "--a", "ab4", "--b", "1"],
        [&META[..], &["--games", "0"]].concat(),
        [&META[..], &["--level", "3"]].concat(),
        [&MORRIS[..], &["--opening", "d6 d6"]].concat(),
        [&META[..], &["--opening", "e5 z9"]].concat(),
        vec!["ai", "morris", "--level", "2", "--opening", "d6"],
        vec!["ai", "morris", "--level", "2", "--random-turns", "1"],
        [&MORRIS[..], &["--random-turns", "11"]].concat(),
        [&MORRIS[..], &["--random-turns", "-1"]].concat(),
        [&MORRIS[..], &["--random-turns", "1", "--opening", "d6"]].concat(),
        vec!["replay", "morris", "--level", "3"],
    ] {
        let o = engine(&args, b"");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn match_opening_starts_every_game_from_the_given_turns() {
    let args = [
        "match",
        "morris",
        "--a",
        "2",
        "--b",
        "random",
        "--games",
        "4",
        "--opening",
        "d6 f4 b4",
    ];
    let o = engine(&args, b"");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    let games: Vec<&str> = out.lines().take(4).collect();
    for (i, line) in games.iter().enumerate() {
        assert!(line.starts_with(&format!("game {} ", i + 1)), "{out}");
        let record = line.split(" s) ").nth(1).unwrap();
        assert!(record.starts_with("d6 f4 b4 "), "{line}");
        assert_ne!(record.split(' ').nth(3), None, "{line}");
    }
    // Without the option, the openings are random: not all of them these turns.
    let random = stdout(&engine(&args[..8], b""));
    assert!(
        random
            .lines()
            .take(4)
            .any(|l| !l.split(" s) ").nth(1).unwrap().starts_with("d6 f4 b4 ")),
        "{random}"
    );
}

#[test]
fn match_random_turns_sets_how_many_random_turns_each_pair_of_games_shares() {
    // A (ab1) and B (random) play differently: past the random turns, the two games of a pair
    // (A Blue, then A Red) part.
    let records = |turns: &str| {
        let mut args = vec!["match", "morris", "--a", "ab1", "--b", "random"];
        args.extend(["--games", "6", "--seed", "1"]);
        if !turns.is_empty() {
            args.extend(["--random-turns", turns]);
        }
        let o = engine(&args, b"");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        stdout(&o)
            .lines()
            .take(6)
            .map(|l| {
                let record = l.split(" s) ").nth(1).unwrap();
                record.split(' ').map(String::from).collect()
            })
            .collect::<Vec<Vec<String>>>()
    };
    // How many first turns the two games of each pair have in common.
    let shared = |r: &[Vec<String>]| -> Vec<usize> {
        r.chunks(2)
            .map(|p| p[0].iter().zip(&p[1]).take_while(|(a, b)| a == b).count())
            .collect()
    };
    let six = records("6");
    assert!(shared(&six).iter().all(|&n| n >= 6), "{six:?}");
    assert!(
        six[0][..6] != six[2][..6] || six[2][..6] != six[4][..6],
        "the pairs' openings differ"
    );
    let none = records("0");
    assert!(shared(&none).iter().all(|&n| n < 6), "{none:?}");
    // The default is two.
    assert_eq!(records(""), records("2"));
    assert!(shared(&records("")).iter().all(|&n| (2..6).contains(&n)));
}

#[test]
fn match_prints_one_line_per_game_and_the_score() {
    for args in [
        [
            "match", "morris", "--a", "1", "--b", "random", "--games", "4",
        ],
        ["match", "meta", "--a", "random", "--b", "2", "--games", "3"],
    ] {
        let o = engine(&args, b"");
        assert!(o.status.success(), "{args:?}");
        let out = stdout(&o);
        let lines: Vec<&str> = out.lines().collect();
        let games: u32 = args[7].parse().unwrap();
        assert_eq!(lines.len(), games as usize + 2, "{out}");
        assert!(lines[0].starts_with("game 1 A=blue "));
        assert!(lines[1].starts_with("game 2 A=red "));
        let tally = lines[games as usize];
        let counts: Vec<u32> = tally
            .rsplit(", A ")
            .next()
            .unwrap()
            .split(' ')
            .map(|c| c[1..].parse().unwrap())
            .collect();
        assert_eq!(counts.iter().sum::<u32>(), games, "{tally}");
        assert!(lines[games as usize + 1].starts_with("score "));
        // The same games again, but for the time each took.
        let untimed = |text: &str| -> Vec<String> {
            text.lines()
                .map(|l| l.split(" s) ").last().unwrap().to_string())
                .collect()
        };
        assert_eq!(untimed(&stdout(&engine(&args, b""))), untimed(&out));
    }
}

#[test]
fn verify_names_every_reason_a_game_ended_outside_its_rules() {
    use engine::session::{Command, Loopback, Proposal, Seat, Step};
    use engine::GameKind;
    let mut net = Loopback::new(GameKind::Meta, 0);
    let play = |net: &mut Loopback| {
        let seat = net.mover().unwrap();
        let step = Step::legal(net.host().game().unwrap())[0];
        net.exchange(seat, Command::Play(step));
    };
    let new_game = |net: &mut Loopback, by: Seat| {
        net.exchange(by, Command::Propose(Proposal::NewGame { max_turns: None }));
        net.exchange(by.other(), Command::Reply { accept: true });
    };
    // Game 0: the guest resigns.
    play(&mut net);
    net.exchange(Seat::Guest, Command::Resign);
    new_game(&mut net, Seat::Host);
    // Game 1: a draw by agreement.
    play(&mut net);
    net.exchange(Seat::Guest, Command::Propose(Proposal::Draw));
    net.exchange(Seat::Host, Command::Reply { accept: true });
    new_game(&mut net, Seat::Guest);
    // Game 2: replaced by a new game before it ended.
    play(&mut net);
    new_game(&mut net, Seat::Host);
    // Game 3: the guest stays away past its reservation; the host claims it.
    play(&mut net);
    net.disconnect();
    net.advance(400_000);
    net.act(Seat::Host, Command::ClaimWin).unwrap();
    net.connect();
    net.settle();
    new_game(&mut net, Seat::Host);
    // Game 4: the guest leaves the room during the game.
    play(&mut net);
    net.exchange(Seat::Guest, Command::Leave);
    let o = engine(&["verify"], net.host().export().as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let story: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let games = story["room"]["games"].as_array().unwrap();
    let told: Vec<_> = games
        .iter()
        .map(|g| {
            (
                g["number"].as_u64().unwrap(),
                g["host"].as_u64().unwrap(),
                g["result"].as_str().unwrap(),
                g["winner"].as_u64(),
                g["reason"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        told,
        [
            (0, 0, "won", Some(0), Some("resigned")),
            (1, 1, "draw", None, Some("agreed")),
            (2, 0, "replaced", None, None),
            // The host is Red in odd games: it won game 3 by its claim.
            (3, 1, "won", Some(1), Some("claimed")),
            (4, 0, "won", Some(0), Some("left")),
        ]
    );
    assert_eq!(story["room"]["faults"], serde_json::json!([]));
}

#[test]
fn verify_lists_the_entries_that_break_the_rules_and_names_the_first() {
    use engine::session::wire::Header;
    use engine::session::{Body, Command, Entry, Loopback, Seat, Step, GUEST_SEED};
    use engine::GameKind;
    let mut net = Loopback::new(GameKind::Morris, 100);
    for point in ["a7", "b6", "d7"] {
        let seat = net.mover().unwrap();
        let p = engine::morris::Point::from_name(point).unwrap().index() as u8;
        net.exchange(seat, Command::Play(Step::Place(p)));
    }
    // The guest signs, with its own key, a place on a7 (taken), then another after it.
    let cheat = |net: &mut Loopback, point: &str| {
        let entries = net.host().entries();
        let last = |seat| entries.iter().rev().find(|e| e.seat() == seat).unwrap();
        let (guest, host) = (last(Seat::Guest), last(Seat::Host));
        let header = Header {
            room: net.host().invite().room,
            seat: Seat::Guest,
            seq: guest.seq() + 1,
            time: guest.header.time,
            prev: guest.hash(),
            seen: host.hash(),
        };
        let p = engine::morris::Point::from_name(point).unwrap().index() as u8;
        let body = Body::Play {
            game: 0,
            step: Step::Place(p),
        };
        let e = Entry::sign(
            &ed25519_dalek::SigningKey::from_bytes(&GUEST_SEED),
            header,
            body,
        );
        net.deliver_entries(Seat::Host, vec![e]);
        net.clear(Seat::Guest);
        entries.len()
    };
    let first = cheat(&mut net, "a7");
    let second = cheat(&mut net, "d7");
    let o = engine(&["verify"], net.host().export().as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let story: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let message = "illegal move: that point is not empty";
    assert_eq!(
        story["room"]["faults"],
        serde_json::json!([
            {"entry": first, "seat": "guest", "player": 1, "message": message},
            {"entry": second, "seat": "guest", "player": 1, "message": message},
        ])
    );
    assert_eq!(
        story["room"]["verdict"],
        format!("authentic, but the guest (Red) signed entry {first}, which breaks the rules: {message}")
    );
}
