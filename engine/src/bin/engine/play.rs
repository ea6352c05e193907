//! `engine ai` (one turn for the game on standard input) and `engine match` (two players over
//! many games). See docs/cli.md.

use engine::ai::{self, AnyTurn, Level, Memory, Rng, SearchResult};
use engine::morris::{Morris, Rules};
use engine::{AnyGame, GameKind, Illegal, Player};
use std::fmt;
use std::time::{Duration, Instant};

/// A player of `engine match`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contender {
    /// A level of the computer opponent.
    Level(Level),
    /// A uniformly random legal turn.
    Random,
    /// Morris baseline: plain alpha-beta of this depth (`ab4`).
    AlphaBeta(u32),
    /// Ultimate tic-tac-toe baseline: plain UCT with this many playouts (`uct20000`).
    Uct(u64),
}

impl Contender {
    /// `1`–`4`, `random`, `ab<depth>` (Morris) or `uct<playouts>` (Ultimate tic-tac-toe).
    pub fn parse(s: &str, kind: GameKind) -> Result<Contender, String> {
        let bad = || {
            format!(
                "unknown player {s:?}: 1-4, random, {}",
                match kind {
                    GameKind::Morris => "or ab<depth> such as ab4",
                    GameKind::Meta => "or uct<playouts> such as uct20000",
                }
            )
        };
        if s == "random" {
            return Ok(Contender::Random);
        }
        if let Some(level) = s.parse().ok().and_then(Level::from_number) {
            return Ok(Contender::Level(level));
        }
        match (kind, s.strip_prefix("ab"), s.strip_prefix("uct")) {
            (GameKind::Morris, Some(d), _) => match d.parse() {
                Ok(d @ 1..=12) => Ok(Contender::AlphaBeta(d)),
                _ => Err(bad()),
            },
            (GameKind::Meta, _, Some(n)) => match n.parse() {
                Ok(n @ 1..=100_000_000) => Ok(Contender::Uct(n)),
                _ => Err(bad()),
            },
            _ => Err(bad()),
        }
    }

    /// The player's turn; `movetime` bounds level 4, which reads and fills the player's `memory`
    /// of this game.
    fn pick(
        self,
        game: &AnyGame,
        seed: u64,
        movetime: Duration,
        memory: &mut Memory,
    ) -> Result<AnyTurn, Illegal> {
        match (self, game) {
            (Contender::Level(level), _) => Ok(think(game, level, seed, movetime, memory)?.turn),
            (Contender::Random, AnyGame::Morris(g)) => {
                ai::random_turn(g, &mut Rng::new(seed)).map(AnyTurn::Morris)
            }
            (Contender::Random, AnyGame::Meta(g)) => {
                ai::random_turn(g, &mut Rng::new(seed)).map(AnyTurn::Meta)
            }
            (Contender::AlphaBeta(depth), AnyGame::Morris(g)) => Ok(AnyTurn::Morris(
                ai::alpha_beta_baseline(g, depth, seed)?.turn,
            )),
            (Contender::Uct(n), AnyGame::Meta(g)) => {
                Ok(AnyTurn::Meta(ai::uct_baseline(g, n, seed)?.turn))
            }
            _ => unreachable!("players are parsed for their game"),
        }
    }
}

impl fmt::Display for Contender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contender::Level(l) => write!(f, "{} ({})", l.number(), l.spec().label),
            Contender::Random => f.write_str("random"),
            Contender::AlphaBeta(d) => write!(f, "ab{d}"),
            Contender::Uct(n) => write!(f, "uct{n}"),
        }
    }
}

/// One search at a level; level 4 stops when `movetime` has passed, and starts from what it
/// kept in `memory` from the earlier turns of the game.
pub fn think(
    game: &AnyGame,
    level: Level,
    seed: u64,
    movetime: Duration,
    memory: &mut Memory,
) -> Result<SearchResult<AnyTurn>, Illegal> {
    let start = Instant::now();
    let mut stop = || level.is_timed() && start.elapsed() >= movetime;
    ai::choose_kept(game, level, seed, &mut stop, memory)
}

/// The free-form line `engine ai` prints before its answer.
pub fn info(r: &SearchResult<AnyTurn>) -> String {
    let pv: Vec<String> = r.pv.iter().map(|t| t.to_string()).collect();
    format!(
        "info depth {} score {} nodes {} pv {}",
        r.depth,
        r.score,
        r.nodes,
        pv.join(" ")
    )
}

/// Tally of a match from player A's side.
#[derive(Default)]
pub struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
}

impl Tally {
    /// A's score: a win 1, a draw ½, in percent.
    pub fn percent(&self) -> f64 {
        let n = self.wins + self.draws + self.losses;
        if n == 0 {
            0.0
        } else {
            100.0 * (self.wins as f64 + self.draws as f64 / 2.0) / n as f64
        }
    }
}

/// The settings of `engine match`.
pub struct Match {
    pub kind: GameKind,
    pub max_turns: u32,
    /// Morris only.
    pub rules: Rules,
    pub a: Contender,
    pub b: Contender,
    pub games: u32,
    pub movetime: Duration,
    pub seed: u64,
    /// The game every game starts from (`--opening`) and its turns; `None`: random openings.
    pub opening: Option<(AnyGame, Vec<String>)>,
    /// Without `opening`, how many random turns start each pair of games (`--random-turns`).
    pub random_turns: u32,
}

/// Random turns that start each pair of games by default, so that games differ. Under rules
/// where one turn can lose a piece by force (`twelve`), a random turn of the side measured is a
/// handicap the real game never gives it: `--random-turns 1` leaves it all its own turns when it
/// plays Red (docs/ai.md, « Strength under other rules »).
pub const RANDOM_TURNS: u32 = 2;
/// At most this many (`--random-turns`).
pub const MAX_RANDOM_TURNS: u32 = 10;

impl Tally {
    /// Counts a finished game's winner from A's side (A playing `a_colour`); the result's words.
    fn count(&mut self, winner: Option<Player>, a_colour: Player) -> &'static str {
        match winner {
            None => {
                self.draws += 1;
                "draw"
            }
            Some(w) if w == a_colour => {
                self.wins += 1;
                "A wins"
            }
            Some(_) => {
                self.losses += 1;
                "B wins"
            }
        }
    }
}

impl Match {
    /// Plays the games, printing one line per game, and returns the tally.
    pub fn run(&self, out: &mut impl std::io::Write) -> std::io::Result<Tally> {
        let mut tally = Tally::default();
        for game_index in 0..self.games {
            // Each opening is played twice, A taking Blue, then Red.
            let pair = game_index / 2;
            let a_colour = if game_index % 2 == 0 {
                Player::Blue
            } else {
                Player::Red
            };
            let mut rng = Rng::new(self.seed ^ (pair as u64).wrapping_mul(0x9e37_79b9));
            let (game, mut record) = self.opening(&mut rng);
            let started = Instant::now();
            let game = self.play_out(game, a_colour, &mut rng, &mut record);
            let outcome = game.outcome().expect("a played-out game is finished");
            let result = tally.count(outcome.winner, a_colour);
            writeln!(
                out,
                "game {} A={} {}: {result} ({}, {} turns, {:.1} s) {}",
                game_index + 1,
                if a_colour == Player::Blue {
                    "blue"
                } else {
                    "red"
                },
                self.kind.as_str(),
                outcome.reason.as_str(),
                game.turns(),
                started.elapsed().as_secs_f64(),
                record.join(" "),
            )?;
        }
        // Other rules than the default are named; the default line stays as it was.
        let rules = if self.kind == GameKind::Morris && !self.rules.is_default() {
            format!(", rules {}", self.rules.short())
        } else {
            String::new()
        };
        writeln!(
            out,
            "A = {}, B = {}{rules}: {} games, A +{} ={} -{}",
            self.a, self.b, self.games, tally.wins, tally.draws, tally.losses
        )?;
        writeln!(out, "score {:.1} %", tally.percent())?;
        Ok(tally)
    }

    /// The game after `text`'s turns and those turns, or why they cannot start a match.
    pub fn start(&self, text: &str) -> Result<(AnyGame, Vec<String>), String> {
        let mut game = self.new_game();
        let mut record = Vec::new();
        for (index, token) in engine::record::tokens(text).enumerate() {
            game = game
                .play_token(token)
                .map_err(|e| engine::record::TokenError { index, ..e }.to_string())?;
            record.push(token.to_string());
        }
        if game.is_over() {
            return Err("the game is over after it".into());
        }
        Ok((game, record))
    }

    fn new_game(&self) -> AnyGame {
        match self.kind {
            GameKind::Morris => AnyGame::Morris(
                Morris::with_rules(self.rules, self.max_turns).expect("limit checked"),
            ),
            GameKind::Meta => AnyGame::new(self.kind, self.max_turns).expect("limit checked"),
        }
    }

    /// The given opening, or a new game and its first `random_turns` random turns, drawn from
    /// `rng`, as tokens.
    fn opening(&self, rng: &mut Rng) -> (AnyGame, Vec<String>) {
        if let Some(given) = &self.opening {
            return given.clone();
        }
        let mut game = self.new_game();
        let mut record = Vec::new();
        for _ in 0..self.random_turns {
            if game.is_over() {
                break;
            }
            let t = Contender::Random.pick(
                &game,
                rng.next_u64(),
                self.movetime,
                &mut Memory::default(),
            );
            let t = t.expect("a game not over has a turn");
            game = game.play_token(&t.to_string()).expect("a legal turn");
            record.push(t.to_string());
        }
        (game, record)
    }

    /// Plays `game` to its end, A as `a_colour`, each search seeded from `rng`; the turns are
    /// added to `record`. Each player keeps its own memory of the game.
    fn play_out(
        &self,
        mut game: AnyGame,
        a_colour: Player,
        rng: &mut Rng,
        record: &mut Vec<String>,
    ) -> AnyGame {
        let (mut a_memory, mut b_memory) = (Memory::default(), Memory::default());
        while !game.is_over() {
            let (player, memory) = if game.to_move() == a_colour {
                (self.a, &mut a_memory)
            } else {
                (self.b, &mut b_memory)
            };
            let seed = self.seed ^ rng.next_u64();
            let t = player
                .pick(&game, seed, self.movetime, memory)
                .expect("a game not over has a turn");
            let token = t.to_string();
            game = match game.play_token(&token) {
                Ok(g) => g,
                Err(e) => panic!("{player} chose an illegal turn {token}: {e}"),
            };
            record.push(token);
        }
        game
    }
}
