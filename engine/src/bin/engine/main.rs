//! The engine's command line: perft counts, record replay and transcript verification. The
//! contract (arguments, output lines, JSON shapes, exit codes) is docs/cli.md.
//!
//! ```text
//! engine perft morris <depth> [--max-turns N]
//! engine perft meta <depth>
//! engine replay morris [--max-turns N] < record
//! engine replay meta < record
//! engine verify < transcript
//! ```

mod json;

use engine::meta::Meta;
use engine::morris::Morris;
use engine::{record, AnyGame, GameKind};
use std::ffi::OsString;
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
Exit status: 0 success, 1 illegal record or transcript, 2 usage error.
The full contract: docs/cli.md.";

enum Command {
    Perft { kind: GameKind, depth: u32 },
    Replay { kind: GameKind },
    Verify,
}

struct Args {
    command: Command,
    max_turns: Option<u32>,
}

/// What the arguments ask for: the usage text, or a command.
enum Parsed {
    Help,
    Run(Args),
}

fn parse_args(argv: impl IntoIterator<Item = OsString>) -> Result<Parsed, String> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_args(argv);
    let mut positional: Vec<String> = Vec::new();
    let mut max_turns = None;
    while let Some(arg) = parser.next().map_err(|e| e.to_string())? {
        match arg {
            Short('h') | Long("help") => return Ok(Parsed::Help),
            Long("max-turns") => {
                let v = parser.value().map_err(|e| e.to_string())?;
                let v = v.to_string_lossy();
                let n: u32 = v
                    .parse()
                    .map_err(|_| format!("--max-turns: not a number: {v:?}"))?;
                engine::morris::check_max_turns(n).map_err(|e| e.to_string())?;
                max_turns = Some(n);
            }
            Value(v) => positional.push(v.into_string().map_err(|v| format!("not UTF-8: {v:?}"))?),
            _ => return Err(arg.unexpected().to_string()),
        }
    }
    let kind = |name: Option<&String>| {
        name.and_then(|n| GameKind::from_name(n))
            .ok_or_else(|| "name the game: morris or meta".to_string())
    };
    let command = match positional.first().map(String::as_str) {
        Some("perft") => {
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
        Some("replay") => {
            let kind = kind(positional.get(1))?;
            if positional.len() > 2 {
                return Err("too many arguments (the record is read from standard input)".into());
            }
            Command::Replay { kind }
        }
        Some("verify") => {
            if positional.len() > 1 || max_turns.is_some() {
                return Err(
                    "verify takes no argument (the transcript is read from standard input)".into(),
                );
            }
            Command::Verify
        }
        Some(other) => return Err(format!("unknown command {other:?}")),
        None => return Err(String::new()),
    };
    if let Command::Perft { kind, .. } | Command::Replay { kind } = command {
        if kind == GameKind::Meta && max_turns.is_some() {
            return Err("--max-turns applies to morris only".into());
        }
    }
    Ok(Parsed::Run(Args { command, max_turns }))
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args_os().skip(1)) {
        Ok(Parsed::Run(a)) => a,
        Ok(Parsed::Help) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(msg) => {
            if !msg.is_empty() {
                eprintln!("engine: {msg}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let max_turns = args
        .max_turns
        .unwrap_or(engine::morris::DEFAULT_MAX_TURNS as u32);
    let new_game = |kind| match AnyGame::new(kind, max_turns) {
        Ok(g) => Ok(g),
        Err(e) => {
            eprintln!("engine: {e}");
            Err(ExitCode::from(2))
        }
    };
    match args.command {
        Command::Verify => verify(),
        Command::Perft { kind, depth } => {
            let start = match new_game(kind) {
                Ok(g) => g,
                Err(code) => return code,
            };
            let t = Instant::now();
            let count = match &start {
                AnyGame::Morris(g) => engine::morris::perft::perft(g, depth),
                AnyGame::Meta(g) => engine::meta::perft::perft(g, depth),
            };
            let secs = t.elapsed().as_secs_f64();
            eprintln!(
                "perft {} {depth}: {count} leaves in {secs:.3} s ({:.1} M leaves/s)",
                kind.as_str(),
                count as f64 / secs.max(1e-9) / 1e6
            );
            print_line(&count.to_string(), ExitCode::SUCCESS)
        }
        Command::Replay { kind } => {
            let start = match new_game(kind) {
                Ok(g) => g,
                Err(code) => return code,
            };
            let Some(bytes) = read_stdin() else {
                return ExitCode::from(2);
            };
            let text = String::from_utf8_lossy(&bytes);
            let result = match start {
                AnyGame::Morris(g) => record::replay::<Morris>(g, &text).map(|g| json::morris(&g)),
                AnyGame::Meta(g) => record::replay::<Meta>(g, &text).map(|g| json::meta(&g)),
            };
            match result {
                Ok(line) => print_line(&line, ExitCode::SUCCESS),
                Err(e) => print_line(&json::illegal(&e), ExitCode::from(1)),
            }
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
    use engine::session::transcript::{self, VerifyError};
    let Some(bytes) = read_stdin() else {
        return ExitCode::from(2);
    };
    let result = match std::str::from_utf8(&bytes) {
        Ok(text) => transcript::verify(text),
        Err(_) => Err(VerifyError {
            entry: 0,
            message: "not UTF-8 text".into(),
        }),
    };
    let bad = |e: &VerifyError| print_line(&json::invalid(e), ExitCode::from(1));
    match result {
        Ok(v) => match v.game() {
            Some(g) => print_line(&json::state(g), ExitCode::SUCCESS),
            None => bad(&VerifyError {
                entry: 0,
                message: "no game in the transcript".into(),
            }),
        },
        Err(e) => bad(&e),
    }
}
