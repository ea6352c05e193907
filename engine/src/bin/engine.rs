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

A record is whitespace-separated turns in algebraic notation (morris: d6, a7-d7, d6xb4;
meta: e5); lines starting with '[' are headers. --max-turns is 1-500 (default 100).
Exit status: 0 success, 1 illegal record, 2 usage error.";

enum Command {
    Perft { kind: GameKind, depth: u32 },
    Replay { kind: GameKind },
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
        Some(other) => return Err(format!("unknown command {other:?}")),
        None => return Err(String::new()),
    };
    let kind = match command {
        Command::Perft { kind, .. } | Command::Replay { kind } => kind,
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
    let max_turns = args
        .max_turns
        .unwrap_or(engine::morris::DEFAULT_MAX_TURNS as u32);
    let start = match AnyGame::new(
        match args.command {
            Command::Perft { kind, .. } | Command::Replay { kind } => kind,
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
        Command::Replay { .. } => {
            let mut bytes = Vec::new();
            if let Err(e) = std::io::stdin().read_to_end(&mut bytes) {
                eprintln!("engine: cannot read the record: {e}");
                return ExitCode::from(2);
            }
            let text = String::from_utf8_lossy(&bytes);
            let result = match start {
                AnyGame::Morris(g) => record::replay::<Morris>(g, &text).map(|g| g.to_json()),
                AnyGame::Meta(g) => record::replay::<Meta>(g, &text).map(|g| g.to_json()),
            };
            let (line, code) = match result {
                Ok(json) => (json, ExitCode::SUCCESS),
                Err(e) => (e.to_json(), ExitCode::from(1)),
            };
            let mut out = std::io::stdout().lock();
            // A closed pipe is not the record's fault: report it without panicking.
            if writeln!(out, "{line}").and_then(|_| out.flush()).is_err() {
                return ExitCode::from(2);
            }
            code
        }
    }
}
