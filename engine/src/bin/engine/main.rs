//! The engine's command line: perft counts, record replay, transcript verification, the
//! computer opponent and matches between players. The contract (arguments, output lines, JSON
//! shapes, exit codes) is docs/cli.md.
//!
//! ```text
//! engine perft morris <depth> [--max-turns N] [--rules R]
//! engine perft meta <depth>
//! engine replay [morris|meta] [--max-turns N] [--rules R] < record   (or from its headers)
//! engine verify < transcript
//! engine ai morris|meta --level 1-4 [--seed S] [--movetime MS] [--max-turns N] [--rules R] < record
//! engine match morris|meta --a P --b P [--games N] [--movetime MS] [--seed S] [--max-turns N] [--rules R] [--opening RECORD | --random-turns N]
//! ```

mod json;
mod play;

use engine::ai::{Level, Memory};
use engine::morris::{Morris, Rules};
use engine::{record, AnyGame, GameKind};
use play::{Contender, Match};
use std::ffi::OsString;
use std::io::{Read, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

const USAGE: &str = "\
usage:
  engine perft morris <depth> [--max-turns N] [--rules R]
                                                 leaf count after <depth> turns (last line)
  engine perft meta <depth>
  engine replay morris [--max-turns N] [--rules R] < record
                                                 final state as one JSON line
  engine replay meta < record
  engine replay < record                         the game, limit and rules from the headers
  engine verify < transcript                     checks an exported signed transcript
  engine ai morris|meta --level 1-4 [--seed S] [--movetime MS] [--max-turns N] [--rules R]
                                                 < record: the computer's turn (last line)
  engine match morris|meta --a P --b P [--games N] [--movetime MS] [--seed S] [--max-turns N]
                                                 [--rules R] [--opening RECORD | --random-turns N]
                                                 P: 1-4, random, abN (morris), uctN (meta)

A record is whitespace-separated turns in algebraic notation (morris: d6, a7-d7, d6xb4;
meta: e5); lines starting with '[' are headers: [Game \"morris\"], [MaxTurns \"100\"],
[Rules \"twelve\"] are checked, others skipped. --max-turns is 1-500 (default 100),
morris only. --rules (morris only, default nine) is a rule set: a name (nine, noflying,
lasker, twelve, gur9), key=value items (pieces=9-12, diagonals=0/1, flying=0/1,
lasker=0/1, quiet=0-500), or a name then items: twelve,flying=0.
--movetime bounds level 4 (default 1000 ms); levels 1-3 have fixed budgets and
ignore it. --seed defaults to 0, --games to 2. Each pair of games starts from
--random-turns random turns (0-10, default 2), or from --opening \"d6 f4\"'s turns.
Exit status: 0 success, 1 illegal record or transcript or finished game, 2 usage error.
The full contract: docs/cli.md.";

enum Command {
    Perft {
        kind: GameKind,
        depth: u32,
    },
    Replay {
        /// `None`: from the record's `Game` header.
        kind: Option<GameKind>,
    },
    Verify,
    Ai {
        kind: GameKind,
        level: Level,
    },
    Match {
        kind: GameKind,
        a: Contender,
        b: Contender,
        games: u32,
        /// The turns every game starts from, instead of random ones.
        opening: Option<String>,
        /// How many random turns start each pair of games (without `opening`).
        random_turns: u32,
    },
}

struct Args {
    command: Command,
    max_turns: Option<u32>,
    rules: Option<Rules>,
    seed: u64,
    movetime: Duration,
}

/// What the arguments ask for: the usage text, or a command.
enum Parsed {
    Help,
    Run(Args),
}

/// Options as given, before the command says which apply.
#[derive(Default)]
struct Options {
    max_turns: Option<u32>,
    rules: Option<Rules>,
    level: Option<String>,
    seed: Option<u64>,
    movetime: Option<u64>,
    a: Option<String>,
    b: Option<String>,
    games: Option<u32>,
    opening: Option<String>,
    random_turns: Option<u32>,
}

fn number<T: std::str::FromStr>(name: &str, v: OsString) -> Result<T, String> {
    let v = v.to_string_lossy();
    v.parse()
        .map_err(|_| format!("--{name}: not a number: {v:?}"))
}

fn value(parser: &mut lexopt::Parser) -> Result<OsString, String> {
    parser.value().map_err(|e| e.to_string())
}

fn parse_args(argv: impl IntoIterator<Item = OsString>) -> Result<Parsed, String> {
    let Some((positional, o)) = read_options(argv)? else {
        return Ok(Parsed::Help);
    };
    // Which options each command takes, besides --max-turns and --rules for morris.
    let (command, allowed) = command(&positional, &o)?;
    let given = [
        ("level", o.level.is_some()),
        ("seed", o.seed.is_some()),
        ("movetime", o.movetime.is_some()),
        ("a", o.a.is_some()),
        ("b", o.b.is_some()),
        ("games", o.games.is_some()),
        ("opening", o.opening.is_some()),
        ("random-turns", o.random_turns.is_some()),
    ];
    if let Some((name, _)) = given.iter().find(|(n, g)| *g && !allowed.contains(n)) {
        return Err(format!("--{name} does not apply to this command"));
    }
    let game = match command {
        Command::Perft { kind, .. } | Command::Ai { kind, .. } | Command::Match { kind, .. } => {
            Some(kind)
        }
        Command::Replay { kind } => kind,
        Command::Verify => None,
    };
    if game == Some(GameKind::Meta) && o.max_turns.is_some() {
        return Err("--max-turns applies to morris only".into());
    }
    if game == Some(GameKind::Meta) && o.rules.is_some() {
        return Err("--rules applies to morris only".into());
    }
    Ok(Parsed::Run(Args {
        command,
        max_turns: o.max_turns,
        rules: o.rules,
        seed: o.seed.unwrap_or(0),
        movetime: Duration::from_millis(o.movetime.unwrap_or(1000)),
    }))
}

/// The positional arguments and the options, each option's value checked on its own; `None`
/// when help is asked for.
fn read_options(
    argv: impl IntoIterator<Item = OsString>,
) -> Result<Option<(Vec<String>, Options)>, String> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_args(argv);
    let mut positional: Vec<String> = Vec::new();
    let mut o = Options::default();
    let text = |v: OsString| v.into_string().map_err(|v| format!("not UTF-8: {v:?}"));
    while let Some(arg) = parser.next().map_err(|e| e.to_string())? {
        match arg {
            Short('h') | Long("help") => return Ok(None),
            Long("max-turns") => {
                let n = number("max-turns", value(&mut parser)?)?;
                engine::morris::check_max_turns(n).map_err(|e| e.to_string())?;
                o.max_turns = Some(n);
            }
            Long("rules") => {
                let v = value(&mut parser)?;
                let v = v.to_string_lossy();
                o.rules = Some(v.parse().map_err(|e| format!("--rules: {e}"))?);
            }
            Long("level") => o.level = Some(text(value(&mut parser)?)?),
            Long("seed") => o.seed = Some(number("seed", value(&mut parser)?)?),
            Long("movetime") => o.movetime = Some(number("movetime", value(&mut parser)?)?),
            Long("a") => o.a = Some(text(value(&mut parser)?)?),
            Long("b") => o.b = Some(text(value(&mut parser)?)?),
            Long("games") => o.games = Some(number("games", value(&mut parser)?)?),
            Long("opening") => o.opening = Some(text(value(&mut parser)?)?),
            Long("random-turns") => {
                let n = number("random-turns", value(&mut parser)?)?;
                if n > play::MAX_RANDOM_TURNS {
                    return Err(format!(
                        "--random-turns: 0 to {}, not {n}",
                        play::MAX_RANDOM_TURNS
                    ));
                }
                o.random_turns = Some(n);
            }
            Value(v) => positional.push(text(v)?),
            _ => return Err(arg.unexpected().to_string()),
        }
    }
    Ok(Some((positional, o)))
}

/// The command the positional arguments name, and the options it takes besides --max-turns
/// and --rules (an error with an empty message: no command at all).
fn command(
    positional: &[String],
    o: &Options,
) -> Result<(Command, &'static [&'static str]), String> {
    let kind = |name: Option<&String>| {
        name.and_then(|n| GameKind::from_name(n))
            .ok_or_else(|| "name the game: morris or meta".to_string())
    };
    let no_more = |n: usize, what: &str| {
        if positional.len() > n {
            Err(format!("too many arguments{what}"))
        } else {
            Ok(())
        }
    };
    const STDIN: &str = " (the record is read from standard input)";
    Ok(match positional.first().map(String::as_str) {
        Some("perft") => {
            let kind = kind(positional.get(1))?;
            let depth = positional
                .get(2)
                .ok_or("perft needs a depth")?
                .parse()
                .map_err(|_| "the depth must be a whole number".to_string())?;
            no_more(3, "")?;
            (Command::Perft { kind, depth }, &[])
        }
        Some("replay") => {
            let kind = match positional.get(1) {
                None => None,
                name => Some(kind(name)?),
            };
            no_more(2, STDIN)?;
            (Command::Replay { kind }, &[])
        }
        Some("verify") => {
            if positional.len() > 1 || o.max_turns.is_some() || o.rules.is_some() {
                return Err(
                    "verify takes no argument (the transcript is read from standard input)".into(),
                );
            }
            (Command::Verify, &[])
        }
        Some("ai") => {
            let kind = kind(positional.get(1))?;
            no_more(2, STDIN)?;
            let level = o
                .level
                .as_deref()
                .ok_or("ai needs --level 1-4")?
                .parse()
                .ok()
                .and_then(Level::from_number)
                .ok_or("--level: 1, 2, 3 or 4")?;
            (Command::Ai { kind, level }, &["level", "seed", "movetime"])
        }
        Some("match") => {
            let kind = kind(positional.get(1))?;
            no_more(2, "")?;
            let allowed: &[&str] = &[
                "a",
                "b",
                "games",
                "seed",
                "movetime",
                "opening",
                "random-turns",
            ];
            (match_command(kind, o)?, allowed)
        }
        Some(other) => return Err(format!("unknown command {other:?}")),
        None => return Err(String::new()),
    })
}

/// `engine match`: its players, games and opening.
fn match_command(kind: GameKind, o: &Options) -> Result<Command, String> {
    let player = |p: &Option<String>, name: &str| {
        Contender::parse(p.as_deref().ok_or(format!("match needs --{name}"))?, kind)
    };
    let (a, b) = (player(&o.a, "a")?, player(&o.b, "b")?);
    let games = o.games.unwrap_or(2);
    if games == 0 {
        return Err("--games: at least 1".into());
    }
    if o.opening.is_some() && o.random_turns.is_some() {
        return Err("--opening and --random-turns exclude each other".into());
    }
    Ok(Command::Match {
        kind,
        a,
        b,
        games,
        opening: o.opening.clone(),
        random_turns: o.random_turns.unwrap_or(play::RANDOM_TURNS),
    })
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
    let run = match args.command {
        Command::Verify => return verify(),
        Command::Perft { kind, depth } => perft(&args, kind, depth),
        Command::Replay { kind } => read_record(kind, args.max_turns, args.rules)
            .map(|game| print_line(&json::state(&game), ExitCode::SUCCESS)),
        Command::Ai { kind, level } => ai(&args, kind, level),
        Command::Match {
            kind,
            a,
            b,
            games,
            ref opening,
            random_turns,
        } => {
            let mut m = Match {
                kind,
                max_turns: max_turns(&args),
                rules: args.rules.unwrap_or_default(),
                a,
                b,
                games,
                movetime: args.movetime,
                seed: args.seed,
                opening: None,
                random_turns,
            };
            if let Some(text) = opening {
                match m.start(text) {
                    Ok(start) => m.opening = Some(start),
                    Err(e) => {
                        eprintln!("engine: --opening: {e}");
                        eprintln!("{USAGE}");
                        return ExitCode::from(2);
                    }
                }
            }
            match m.run(&mut std::io::stdout().lock()) {
                Ok(_) => Ok(ExitCode::SUCCESS),
                Err(_) => Ok(ExitCode::from(2)),
            }
        }
    };
    run.unwrap_or_else(|code| code)
}

fn max_turns(args: &Args) -> u32 {
    args.max_turns
        .unwrap_or(engine::morris::DEFAULT_MAX_TURNS as u32)
}

/// `engine perft`: the leaf count on standard output, the time on standard error.
fn perft(args: &Args, kind: GameKind, depth: u32) -> Result<ExitCode, ExitCode> {
    let start = match kind {
        GameKind::Morris => {
            Morris::with_rules(args.rules.unwrap_or_default(), max_turns(args)).map(AnyGame::Morris)
        }
        GameKind::Meta => AnyGame::new(kind, max_turns(args)),
    }
    .map_err(|e| {
        eprintln!("engine: {e}");
        ExitCode::from(2)
    })?;
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
    Ok(print_line(&count.to_string(), ExitCode::SUCCESS))
}

/// `engine ai`: the search's line and the computer's turn for the record on standard input.
fn ai(args: &Args, kind: GameKind, level: Level) -> Result<ExitCode, ExitCode> {
    let game = read_record(Some(kind), args.max_turns, args.rules)?;
    if let Some(line) = json::over(&game) {
        return Ok(print_line(&line, ExitCode::from(1)));
    }
    let t = Instant::now();
    let r = play::think(
        &game,
        level,
        args.seed,
        args.movetime,
        &mut Memory::default(),
    )
    .expect("a game not over has a turn");
    eprintln!("time {} ms", t.elapsed().as_millis());
    Ok(print_line(
        &format!("{}\n{}", play::info(&r), r.turn),
        ExitCode::SUCCESS,
    ))
}

/// Plays the record on standard input, its game, limit and rules from its headers or from the
/// command line (which must agree): the final state, or, after printing the error line for its
/// first bad header or token, the exit code.
fn read_record(
    kind: Option<GameKind>,
    max_turns: Option<u32>,
    rules: Option<Rules>,
) -> Result<AnyGame, ExitCode> {
    let bytes = read_stdin().ok_or(ExitCode::from(2))?;
    let text = String::from_utf8_lossy(&bytes);
    let fail = |line: String| print_line(&line, ExitCode::from(1));
    let setup = record::Setup::read(&text).map_err(|e| fail(json::header(&e)))?;
    let mut game = setup
        .start_with_rules(kind, max_turns, rules)
        .map_err(|e| fail(json::header(&e)))?;
    for (index, token) in record::tokens(&text).enumerate() {
        game = game.play_token(token).map_err(|e| {
            let e = record::TokenError { index, ..e };
            fail(json::illegal(&e))
        })?;
    }
    Ok(game)
}

fn read_stdin() -> Option<Vec<u8>> {
    read_into(Vec::new(), u64::MAX)
}

/// Standard input, but no more than `limit` bytes (and one more, to tell it was longer), read
/// into room for all of them at once: growing by doubling would hold twice as much.
fn read_at_most(limit: usize) -> Option<Vec<u8>> {
    read_into(Vec::with_capacity(limit + 1), limit as u64 + 1)
}

fn read_into(mut bytes: Vec<u8>, most: u64) -> Option<Vec<u8>> {
    match std::io::stdin().take(most).read_to_end(&mut bytes) {
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

/// `engine verify`: the final-state JSON of the transcript's current game with the room's story,
/// or its first bad entry.
fn verify() -> ExitCode {
    use engine::session::transcript::{self, Flaw, VerifyError};
    // No more than the largest transcript (and a byte to tell): a larger one is refused by
    // `Verifier::new` before anything else, and nothing on standard input can make verify
    // hold more than a few times that much.
    let Some(bytes) = read_at_most(transcript::MAX_BYTES) else {
        return ExitCode::from(2);
    };
    let result = if bytes.len() > transcript::MAX_BYTES {
        Err(VerifyError::file(
            Flaw::TooBig,
            &format!(
                "larger than the largest transcript a room can write ({} bytes)",
                transcript::MAX_BYTES
            ),
        ))
    } else {
        // The text itself goes to the verifier: no copy of it.
        match String::from_utf8(bytes) {
            Ok(text) => transcript::Verifier::new(text).and_then(transcript::Verifier::finish),
            Err(_) => Err(VerifyError::file(Flaw::NotTranscript, "not UTF-8 text")),
        }
    };
    let bad = |e: &VerifyError| print_line(&json::invalid(e), ExitCode::from(1));
    match result {
        Ok(v) => match json::verified(&v) {
            Some(line) => print_line(&line, ExitCode::SUCCESS),
            None => bad(&VerifyError::file(Flaw::Empty, "no game in the transcript")),
        },
        Err(e) => bad(&e),
    }
}
