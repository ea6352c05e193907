//! The computer opponent's Web Worker: the engine's search ([`engine::ai`]) in a wasm of its own,
//! which a page fetches only when it first needs the computer (a game against it, or a hint), so
//! that the search never weighs on the page's first load and never blocks its thread.
//!
//! The worker's JavaScript entry (`entry.js`, bundled with the wasm-bindgen glue by
//! scripts/build-client.sh) takes one message to start, `{ module }` (the compiled
//! `WebAssembly.Module`, which the page keeps so that a new worker needs no download), then
//! requests `{ token, game, maxTurns, rules, record, pending, level, seed, movetime }`, each answered by
//! `{ token, turn, nodes, depth, score, ms }` or `{ token, error }`. A search is stopped by
//! terminating the worker: docs/architecture.md.
//!
//! The Rust side is [`think`], native and tested here; the browser calls it through
//! `think` in JavaScript, with a clock reading `performance.now()` and the worker's memory of
//! « Fort »'s earlier searches ([`think_kept`]).
//!
//! ```
//! use client_worker::{think, Request};
//!
//! let request = Request {
//!     game: "morris",
//!     max_turns: 100,
//!     rules: "",
//!     record: "d6 b4",
//!     pending: "",
//!     level: 2,
//!     seed: 7,
//!     movetime_ms: 0.0,
//! };
//! let reply = think(&request, &mut || 0.0).unwrap();
//! assert_eq!(reply.turn.len(), 2); // a placement such as "f4"
//!
//! // Under other rules (any form `engine --rules` reads): Twelve Men's Morris.
//! // « Moyen » (level 3, no noise) closes the diagonal mill a7-b6-c5.
//! let twelve = Request { rules: "twelve", record: "a7 d7 b6 d6", level: 3, ..request };
//! assert!(think(&twelve, &mut || 0.0).unwrap().turn.starts_with("c5x"));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use engine::ai::{self, Level};
use engine::morris::{Morris, Rules};
use engine::{record, AnyGame, Game, GameKind};
use wasm_bindgen::prelude::*;

/// One request, as the page sends it.
#[derive(Clone, Debug, PartialEq)]
pub struct Request<'a> {
    /// `"morris"` or `"meta"`.
    pub game: &'a str,
    /// The Morris turn limit (1–500); ignored for `meta`.
    pub max_turns: u32,
    /// The Morris rules, in any form a `Rules` header takes (`twelve`, the canonical form…);
    /// empty for the default rules, and for `meta`.
    pub rules: &'a str,
    /// The completed turns so far, as a record (`engine replay` reads the same).
    pub record: &'a str,
    /// Morris only: the place or move step of a turn whose capture is pending (`g7`, `a7-d7`),
    /// else empty. The answer is then that turn with its capture (`g7xb6`).
    pub pending: &'a str,
    /// 1–4: « Débutant », « Facile », « Moyen », « Fort ».
    pub level: u32,
    /// The search's seed: games vary with it.
    pub seed: u32,
    /// Level 4's time in milliseconds (0 or less: [`DEFAULT_MOVETIME_MS`]); levels 1–3 stop on
    /// their fixed budgets and ignore it.
    pub movetime_ms: f64,
}

/// Level 4's time when a request gives none, as on the command line (`engine ai`).
pub const DEFAULT_MOVETIME_MS: f64 = 1000.0;

/// The computer's answer.
#[wasm_bindgen(getter_with_clone)]
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// The whole turn in notation: `d6`, `a7-d7xg1`, `e5`.
    pub turn: String,
    /// Nodes (Morris) or playouts (Ultimate tic-tac-toe) searched.
    pub nodes: f64,
    /// Morris: the last completed iteration, in turns; Ultimate tic-tac-toe: the deepest node.
    pub depth: u32,
    /// The score for the player to move (docs/ai.md).
    pub score: i32,
    /// The search's time in milliseconds, by the caller's clock.
    pub ms: f64,
}

/// The game a request describes: the record replayed, then the pending step if any.
pub fn position(request: &Request) -> Result<AnyGame, String> {
    let kind = GameKind::from_name(request.game)
        .ok_or_else(|| format!("unknown game {:?}", request.game))?;
    let limit_error = |_| format!("the turn limit must be 1-500, not {}", request.max_turns);
    let start = match (kind, request.rules) {
        (_, "") => AnyGame::new(kind, request.max_turns).map_err(limit_error)?,
        (GameKind::Morris, rules) => {
            let rules: Rules = rules
                .parse()
                .map_err(|e| format!("the rules {rules:?}: {e}"))?;
            AnyGame::Morris(Morris::with_rules(rules, request.max_turns).map_err(limit_error)?)
        }
        (GameKind::Meta, rules) => return Err(format!("no rules in meta, got {rules:?}")),
    };
    let game = match start {
        AnyGame::Morris(g) => record::replay(g, request.record).map(AnyGame::Morris),
        AnyGame::Meta(g) => record::replay(g, request.record).map(AnyGame::Meta),
    }
    .map_err(|e| e.to_string())?;
    match (game, request.pending) {
        (game, "") => Ok(game),
        (AnyGame::Morris(g), step) => {
            let turn = Morris::parse_turn(step).map_err(|e| e.to_string())?;
            if turn.capture.is_some() {
                return Err(format!("the pending step {step:?} names a capture"));
            }
            let next = g.play(turn.step()).map_err(|e| e.to_string())?;
            if next.phase() != engine::morris::Phase::Capture {
                return Err(format!("the pending step {step:?} closes no mill"));
            }
            Ok(AnyGame::Morris(next))
        }
        (AnyGame::Meta(_), step) => Err(format!("no pending step in meta, got {step:?}")),
    }
}

/// Searches the request's position at its level; `now` is the clock in milliseconds (read only
/// for level 4's time and the reported time).
pub fn think(request: &Request, now: &mut dyn FnMut() -> f64) -> Result<Reply, String> {
    think_kept(request, now, &mut ai::Memory::default())
}

/// [`think`], « Fort » starting from what it kept in `memory` from the worker's earlier
/// requests ([`ai::choose_kept`]): the worker keeps one for its life, and its searches of a
/// game's later turns find the positions it searched before.
pub fn think_kept(
    request: &Request,
    now: &mut dyn FnMut() -> f64,
    memory: &mut ai::Memory,
) -> Result<Reply, String> {
    let game = position(request)?;
    let level = Level::from_number(request.level)
        .ok_or_else(|| format!("the level must be 1-4, not {}", request.level))?;
    let start = now();
    let movetime = match request.movetime_ms {
        ms if ms > 0.0 => ms,
        _ => DEFAULT_MOVETIME_MS,
    };
    let deadline = start + movetime;
    let timed = level.is_timed();
    let mut stop = || timed && now() >= deadline;
    let found = ai::choose_kept(&game, level, request.seed as u64, &mut stop, memory)
        .map_err(|e| e.to_string())?;
    Ok(Reply {
        turn: found.turn.to_string(),
        nodes: found.nodes as f64,
        depth: found.depth,
        score: found.score,
        ms: now() - start,
    })
}

#[wasm_bindgen]
extern "C" {
    /// `performance.now()`: the worker's clock.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// [`think`] for the worker's JavaScript, with `performance.now()` as the clock; an error is
/// thrown as a string.
#[wasm_bindgen(js_name = think)]
#[allow(clippy::too_many_arguments)]
pub fn think_js(
    game: &str,
    max_turns: u32,
    rules: &str,
    record: &str,
    pending: &str,
    level: u32,
    seed: u32,
    movetime_ms: f64,
) -> Result<Reply, JsValue> {
    let request = Request {
        game,
        max_turns,
        rules,
        record,
        pending,
        level,
        seed,
        movetime_ms,
    };
    MEMORY
        .with(|memory| think_kept(&request, &mut performance_now, &mut memory.borrow_mut()))
        .map_err(|e| JsValue::from_str(&e))
}

thread_local! {
    /// What « Fort » keeps between this worker's requests. A worker lives as long as its page
    /// lets it: stopping a search ends the worker, and its memory with it.
    static MEMORY: std::cell::RefCell<ai::Memory> = std::cell::RefCell::default();
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::morris::Phase;

    fn request(
        game: &'static str,
        record: &'static str,
        pending: &'static str,
    ) -> Request<'static> {
        Request {
            game,
            max_turns: 100,
            rules: "",
            record,
            pending,
            level: 3,
            seed: 1,
            movetime_ms: 0.0,
        }
    }

    #[test]
    fn a_pending_capture_is_answered_with_the_whole_turn() {
        let r = request("morris", "a7 b6 d7 d6", "g7");
        let AnyGame::Morris(g) = position(&r).unwrap() else {
            panic!("morris");
        };
        assert_eq!(g.phase(), Phase::Capture);
        let reply = think(&r, &mut || 0.0).unwrap();
        assert!(reply.turn.starts_with("g7x"), "{reply:?}");
        // The answer is legal from the start of the turn, as a record token.
        let start = position(&request("morris", "a7 b6 d7 d6", "")).unwrap();
        assert!(start.play_token(&reply.turn).is_ok());
    }

    #[test]
    fn answers_are_legal_and_deterministic_for_a_seed() {
        for (game, record) in [("morris", "d6 f4 b4 d2 d5 e4"), ("meta", "e5 e4")] {
            for level in 1..=3 {
                let r = Request {
                    level,
                    ..request(game, record, "")
                };
                let a = think(&r, &mut || 0.0).unwrap();
                assert_eq!(a, think(&r, &mut || 0.0).unwrap());
                assert!(position(&r).unwrap().play_token(&a.turn).is_ok(), "{a:?}");
                assert!(a.nodes >= 1.0);
            }
        }
    }

    #[test]
    fn level_four_stops_on_the_clock() {
        let r = Request {
            level: 4,
            movetime_ms: 50.0,
            ..request("meta", "e5 e4", "")
        };
        // A clock that advances 10 ms at each reading: the search stops after a few polls.
        let mut t = 0.0;
        let reply = think(&r, &mut || {
            t += 10.0;
            t
        })
        .unwrap();
        assert!(reply.ms >= 50.0 && reply.ms < 100.0, "{reply:?}");
        assert!(reply.nodes < 1000.0, "{reply:?}");
        // Without a time, the default second.
        let mut t = 0.0;
        let reply = think(
            &Request {
                movetime_ms: 0.0,
                ..r
            },
            &mut || {
                t += 100.0;
                t
            },
        )
        .unwrap();
        assert!(reply.ms >= DEFAULT_MOVETIME_MS, "{reply:?}");
    }

    #[test]
    fn the_worker_memory_serves_fort_and_leaves_the_other_levels_as_they_were() {
        let mut memory = ai::Memory::default();
        // « Fort » on two turns of a game, then on another game's rules: each answer legal.
        for (rules, record) in [("", "d6 b4"), ("", "d6 b4 f4 d2"), ("twelve", "a7 d6")] {
            let r = Request {
                rules,
                level: 4,
                movetime_ms: 30.0,
                ..request("morris", record, "")
            };
            let mut t = 0.0;
            let reply = think_kept(
                &r,
                &mut || {
                    t += 1.0;
                    t
                },
                &mut memory,
            )
            .unwrap();
            assert!(
                position(&r).unwrap().play_token(&reply.turn).is_ok(),
                "{reply:?}"
            );
        }
        // The levels with a budget answer as without a memory.
        for level in 1..=3 {
            let r = Request {
                level,
                ..request("morris", "d6 f4 b4 d2 d5 e4", "")
            };
            let kept = think_kept(&r, &mut || 0.0, &mut memory).unwrap();
            assert_eq!(kept, think(&r, &mut || 0.0).unwrap());
        }
    }

    #[test]
    fn the_search_plays_under_the_requests_rules() {
        // Twelve Men's Morris: the diagonal a7-b6-c5 is a mill, and the search closes it.
        let twelve = Request {
            rules: "twelve",
            ..request("morris", "a7 d7 b6 d6", "")
        };
        let AnyGame::Morris(g) = position(&twelve).unwrap() else {
            panic!("morris");
        };
        assert_eq!(g.rules(), Rules::TWELVE);
        assert!(think(&twelve, &mut || 0.0).unwrap().turn.starts_with("c5x"));
        // The canonical form reads as well; without flying, three pieces slide (no flight
        // from a7 across the board), under Lasker a placing side may slide.
        let canonical = Rules::NOFLYING.to_string();
        let noflying = Request {
            rules: &canonical,
            ..request("morris", "", "")
        };
        let AnyGame::Morris(g) = position(&noflying).unwrap() else {
            panic!("morris");
        };
        assert_eq!(g.rules(), Rules::NOFLYING);
        let lasker = Request {
            rules: "lasker",
            ..request("morris", "a7 d7", "")
        };
        let AnyGame::Morris(g) = position(&lasker).unwrap() else {
            panic!("morris");
        };
        assert!(g.may_move() && g.is_placing());
        // A move of the record legal only under the rules asked for.
        let slide = Request {
            rules: "lasker",
            ..request("morris", "a7 d7 a7-a4", "")
        };
        assert!(think(&slide, &mut || 0.0).is_ok());
        assert!(think(
            &Request {
                rules: "",
                ..slide.clone()
            },
            &mut || 0.0
        )
        .unwrap_err()
        .contains("token 2"));
    }

    #[test]
    fn bad_requests_say_why() {
        let bad = |r: Request| think(&r, &mut || 0.0).unwrap_err();
        assert!(bad(request("chess", "", "")).contains("unknown game"));
        assert!(bad(request("morris", "d6 d6", "")).contains("token 1"));
        assert!(bad(request("morris", "d6", "b4")).contains("closes no mill"));
        assert!(bad(request("morris", "a7 b6 d7 d6", "g7xb6")).contains("names a capture"));
        assert!(bad(request("meta", "e5", "e4")).contains("no pending step"));
        assert!(bad(Request {
            level: 5,
            ..request("meta", "", "")
        })
        .contains("level"));
        assert!(bad(Request {
            max_turns: 0,
            ..request("morris", "", "")
        })
        .contains("turn limit"));
        assert!(bad(Request {
            rules: "ten",
            ..request("morris", "", "")
        })
        .contains("unknown rule set"));
        assert!(bad(Request {
            rules: "twelve",
            ..request("meta", "", "")
        })
        .contains("no rules in meta"));
        assert!(bad(Request {
            rules: "twelve",
            max_turns: 0,
            ..request("morris", "", "")
        })
        .contains("turn limit"));
        assert!(bad(Request {
            max_turns: 2,
            ..request("morris", "d6 b4", "")
        })
        .contains("over"));
    }
}
