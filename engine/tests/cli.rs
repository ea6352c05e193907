//! The `engine` binary's contract (docs/cli.md): outputs, JSON errors, exit codes, and no panic on
//! any input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn engine(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("engine binary runs");
    // The engine may exit (usage error) before reading: a broken pipe is fine here.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

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
fn verify_checks_an_exported_transcript() {
    use engine::session::{Command, Config, Effect, Invite, Session, Step};
    use engine::{AnyGame, Game, GameKind};
    let invite = Invite::new(GameKind::Meta, 0, [1; 16], [2; 32], [3; 16]);
    let mut host = Session::host(invite.clone(), [2; 32], Config::default(), 0).unwrap();
    let mut guest = Session::guest(invite, [4; 32], Config::default(), 0);
    let mut wire: Vec<(bool, Vec<u8>)> = Vec::new();
    let push = |to_guest: bool, out: Vec<Effect>, wire: &mut Vec<(bool, Vec<u8>)>| {
        for e in out {
            if let Effect::Send(m) = e {
                wire.push((to_guest, m));
            }
        }
    };
    push(true, host.peer_connected(0), &mut wire);
    push(false, guest.peer_connected(0), &mut wire);
    let mut pick = 0usize;
    let mut played = Vec::new();
    for _ in 0..2000 {
        if let Some((to_guest, m)) = (!wire.is_empty()).then(|| wire.remove(0)) {
            let out = if to_guest {
                guest.receive(&m, 1)
            } else {
                host.receive(&m, 1)
            };
            push(!to_guest, out, &mut wire);
            continue;
        }
        let Some(AnyGame::Meta(g)) = host.game().cloned() else {
            break;
        };
        if g.is_over() {
            break;
        }
        let cells = g.legal_actions();
        pick = pick.wrapping_mul(31).wrapping_add(7) % 1_000_003;
        let cell = cells[pick % cells.len()];
        played.push(cell.to_string());
        let step = Step::from_cell(cell);
        let (side, to_guest) = if host.my_turn() {
            (&mut host, true)
        } else {
            (&mut guest, false)
        };
        let out = side.act(Command::Play(step), 2).unwrap();
        push(to_guest, out, &mut wire);
    }
    let text = guest.export();
    let o = engine(&["verify"], text.as_bytes());
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    // The same final state as replaying the moves played.
    assert!(!played.is_empty());
    let replayed = engine(&["replay", "meta"], played.join(" ").as_bytes());
    assert_eq!(stdout(&o), stdout(&replayed));
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
