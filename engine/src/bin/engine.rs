//! The engine's command line (SPEC §4): perft counts and record replay.
//!
//! ```text
//! engine perft morris <depth> [--max-turns N]
//! engine perft meta <depth>
//! engine replay morris [--max-turns N] < record
//! engine replay meta < record
//! ```

use engine::meta::Meta;
use engine::morris::Morris;
use engine::{record, AnyGame, Game, GameKind};
use std::io::{Read, Write};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "\
usage:
  engine perft morris <depth> [--max-turns N]   leaf count after <depth> turns (last line)
  engine perft meta <depth>
  engine replay morris [--max-turns N] < record  final state as one JSON line
  engine replay meta < record
  engine verify < transcript                     checks an exported signed transcript

A record is whitespace-separated turns in algebraic notation (morris: d6, a7-d7, d6xb4;
meta: e5); lines starting with '[' are headers. --max-turns is 1-500 (default 100).
Exit status: 0 success, 1 illegal record or transcript, 2 usage error.";

enum Command {
    Perft { kind: GameKind, depth: u32 },
    Replay { kind: GameKind },
    Verify,
}

struct Args {
    command: Command,
    max_turns: Option<u32>,
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut positional = Vec::new();
    let mut max_turns = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let value = if arg == "--max-turns" {
            Some(it.next().ok_or("--max-turns needs a value")?.as_str())
        } else {
            arg.strip_prefix("--max-turns=")
        };
        if let Some(v) = value {
            let n: u32 = v
                .parse()
                .map_err(|_| format!("--max-turns: not a number: {v:?}"))?;
            engine::morris::check_max_turns(n).map_err(|e| e.to_string())?;
            max_turns = Some(n);
        } else if arg == "-h" || arg == "--help" {
            return Err(String::new());
        } else if arg.starts_with("--") {
            return Err(format!("unknown option {arg}"));
        } else {
            positional.push(arg.as_str());
        }
    }
    let kind = |name: Option<&&str>| {
        name.and_then(|n| GameKind::from_name(n))
            .ok_or_else(|| "name the game: morris or meta".to_string())
    };
    let command = match positional.first() {
        Some(&"perft") => {
            let kind = kind(positional.get(1))?;
            let depth = positional
                .get(2)
                .ok_or("perft needs a depth")?
                .parse()
                .map_err(|_| "the depth must be a whole number".to_string())?;
            if positional.len() > 3 {
                return Err("too many arguments".into());
            }
            Command::Perft { kind, depth }
        }
        Some(&"replay") => {
            let kind = kind(positional.get(1))?;
            if positional.len() > 2 {
                return Err("too many arguments (the record is read from standard input)".into());
            }
            Command::Replay { kind }
        }
        Some(&"verify") => {
            if positional.len() > 1 || max_turns.is_some() {
                return Err(
                    "verify takes no argument (the transcript is read from standard input)".into(),
                );
            }
            return Ok(Args {
                command: Command::Verify,
                max_turns,
            });
        }
        Some(other) => return Err(format!("unknown command {other:?}")),
        None => return Err(String::new()),
    };
    let kind = match command {
        Command::Perft { kind, .. } | Command::Replay { kind } => kind,
        Command::Verify => unreachable!("returned above"),
    };
    if kind == GameKind::Meta && max_turns.is_some() {
        return Err("--max-turns applies to morris only".into());
    }
    Ok(Args { command, max_turns })
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let args = match parse_args(&argv) {
        Ok(a) => a,
        Err(msg) => {
            let help = msg.is_empty() && argv.iter().any(|a| a == "-h" || a == "--help");
            if help {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            if !msg.is_empty() {
                eprintln!("engine: {msg}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    if let Command::Verify = args.command {
        return verify();
    }
    let max_turns = args
        .max_turns
        .unwrap_or(engine::morris::DEFAULT_MAX_TURNS as u32);
    let start = match AnyGame::new(
        match args.command {
            Command::Perft { kind, .. } | Command::Replay { kind } => kind,
            Command::Verify => unreachable!("handled above"),
        },
        max_turns,
    ) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("engine: {e}");
            return ExitCode::from(2);
        }
    };
    match args.command {
        Command::Perft { depth, .. } => {
            let t = Instant::now();
            let count = match &start {
                AnyGame::Morris(g) => engine::morris::perft::perft(g, depth),
                AnyGame::Meta(g) => engine::meta::perft::perft(g, depth),
            };
            let secs = t.elapsed().as_secs_f64();
            eprintln!(
                "perft {} {depth}: {count} leaves in {secs:.3} s ({:.1} M leaves/s)",
                start.kind().as_str(),
                count as f64 / secs.max(1e-9) / 1e6
            );
            println!("{count}");
            ExitCode::SUCCESS
        }
        Command::Verify => unreachable!("handled above"),
        Command::Replay { .. } => {
            let Some(bytes) = read_stdin() else {
                return ExitCode::from(2);
            };
            let text = String::from_utf8_lossy(&bytes);
            let result = match start {
                AnyGame::Morris(g) => record::replay::<Morris>(g, &text).map(|g| g.to_json()),
                AnyGame::Meta(g) => record::replay::<Meta>(g, &text).map(|g| g.to_json()),
            };
            let (line, code) = match result {
                Ok(json) => (json, ExitCode::SUCCESS),
                Err(e) => (e.to_json(), ExitCode::from(1)),
            };
            print_line(&line, code)
        }
    }
}

fn read_stdin() -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    match std::io::stdin().read_to_end(&mut bytes) {
        Ok(_) => Some(bytes),
        Err(e) => {
            eprintln!("engine: cannot read standard input: {e}");
            None
        }
    }
}

fn print_line(line: &str, code: ExitCode) -> ExitCode {
    let mut out = std::io::stdout().lock();
    // A closed pipe is not the input's fault: report it without panicking.
    if writeln!(out, "{line}").and_then(|_| out.flush()).is_err() {
        return ExitCode::from(2);
    }
    code
}

/// `engine verify`: the final-state JSON of the transcript's current game, or its first bad
/// entry.
fn verify() -> ExitCode {
    let Some(bytes) = read_stdin() else {
        return ExitCode::from(2);
    };
    let result = match std::str::from_utf8(&bytes) {
        Ok(text) => engine::session::transcript::verify(text),
        Err(_) => Err(engine::session::transcript::VerifyError {
            entry: 0,
            message: "not UTF-8 text".into(),
        }),
    };
    match result {
        Ok(v) => match v.game() {
            Some(g) => print_line(&g.to_json(), ExitCode::SUCCESS),
            None => print_line(
                &engine::session::transcript::VerifyError {
                    entry: 0,
                    message: "no game in the transcript".into(),
                }
                .to_json(),
                ExitCode::from(1),
            ),
        },
        Err(e) => print_line(&e.to_json(), ExitCode::from(1)),
    }
}
