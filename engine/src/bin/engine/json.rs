//! The command line's JSON lines (see docs/cli.md), written through `serde_json`.
//!
//! The library stays free of JSON: these structs read the public accessors of the states and
//! errors. Field order is the declaration order, and one formatter rule keeps the output as it
//! always was: control characters other than `\n`, `\r` and `\t` are written `\u00XX` (serde's
//! default would write backspace and form feed as `\b` and `\f`).

use engine::meta::Meta;
use engine::morris::Morris;
use engine::record::{HeaderError, TokenError};
use engine::session::transcript::{self, Verified, VerifyError};
use engine::session::{Ending, Finish, GameSummary, Seat};
use engine::{AnyGame, Game};
use serde::Serialize;
use serde_json::ser::{CharEscape, CompactFormatter, Formatter};
use std::io;

/// The final state of a Morris game, as `replay` and `verify` print it (`verify` adds `room`).
#[derive(Serialize)]
struct MorrisState<'a> {
    game: &'static str,
    /// The canonical form, only when the rules are not the default ones.
    #[serde(skip_serializing_if = "Option::is_none")]
    rules: Option<String>,
    board: String,
    reserves: [u8; 2],
    to_move: usize,
    turns: u32,
    phase: &'static str,
    winner: Option<usize>,
    reason: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    room: Option<&'a RoomStory>,
}

/// The final state of an Ultimate tic-tac-toe game.
#[derive(Serialize)]
struct MetaState<'a> {
    game: &'static str,
    cells: String,
    results: String,
    to_move: usize,
    required: Option<u8>,
    moves: u8,
    over: bool,
    winner: Option<usize>,
    line: Option<[u8; 3]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    room: Option<&'a RoomStory>,
}

/// What `verify` adds to the final state: the room's story.
#[derive(Serialize)]
struct RoomStory {
    host: Key,
    guest: Option<Key>,
    games: Vec<GameLine>,
    /// Seats moved to another device: the entry, the seat, its new key.
    handovers: Vec<HandoverLine>,
    /// Seats whose key signed two entries with one number, proved by the other seat.
    forks: Vec<ForkLine>,
    faults: Vec<FaultLine>,
    verdict: String,
}

#[derive(Serialize)]
struct HandoverLine {
    entry: usize,
    /// The seat that changed hands, and the one that signed the hand-over.
    seat: &'static str,
    by: &'static str,
    #[serde(flatten)]
    key: Key,
    /// Entries of the seat the hand-over had not seen (they stand, signed by the earlier key).
    crossed: u32,
}

#[derive(Serialize)]
struct ForkLine {
    /// The proof entry.
    entry: usize,
    /// The seat that forked, and the one that proved it.
    seat: &'static str,
    by: &'static str,
    /// The number its two entries carry.
    seq: u32,
}

#[derive(Serialize)]
struct Key {
    key: String,
    fingerprint: String,
}

/// One game of the room.
#[derive(Serialize)]
struct GameLine {
    number: u32,
    /// The host's and the guest's colours (0 Blue, 1 Red).
    host: usize,
    guest: usize,
    /// `"lot"` when the colours were drawn by lot (absent when they alternate).
    #[serde(skip_serializing_if = "Option::is_none")]
    colours: Option<&'static str>,
    /// The Morris rules' canonical form, when not the default ones.
    #[serde(skip_serializing_if = "Option::is_none")]
    rules: Option<String>,
    /// `playing`, `won`, `draw`, or `replaced` (a new game began before it ended).
    result: &'static str,
    winner: Option<usize>,
    /// The engine's reason, or `resigned`, `agreed`, `claimed`, `left`.
    reason: Option<&'static str>,
    turns: u32,
}

/// An entry signed by its seat's own key that breaks the rules.
#[derive(Serialize)]
struct FaultLine {
    entry: usize,
    seat: &'static str,
    player: usize,
    message: String,
}

/// A record token that does not parse or is not legal.
#[derive(Serialize)]
struct IllegalToken<'a> {
    error: &'static str,
    index: usize,
    token: &'a str,
    message: String,
}

/// A record header that contradicts the game, or no game named.
#[derive(Serialize)]
struct BadHeader<'a> {
    error: &'static str,
    line: usize,
    message: &'a str,
}

/// A bad transcript entry.
#[derive(Serialize)]
struct InvalidEntry<'a> {
    error: &'static str,
    entry: usize,
    message: &'a str,
}

/// `engine ai` on a finished game.
#[derive(Serialize)]
struct GameOver {
    error: &'static str,
    turns: u32,
    winner: Option<usize>,
    reason: &'static str,
    message: &'static str,
}

/// Compact JSON with `\u00XX` for every control character but `\n`, `\r` and `\t`.
struct Compact;

impl Formatter for Compact {
    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        escape: CharEscape,
    ) -> io::Result<()> {
        match escape {
            CharEscape::Backspace => writer.write_all(b"\\u0008"),
            CharEscape::FormFeed => writer.write_all(b"\\u000c"),
            other => CompactFormatter.write_char_escape(writer, other),
        }
    }
}

fn to_line<T: Serialize>(value: &T) -> String {
    let mut out = Vec::with_capacity(256);
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Compact);
    value
        .serialize(&mut ser)
        .expect("these structs always serialise");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// `{"game":"morris","board":…,"reserves":[b,r],"to_move":…,"turns":…,"phase":…,"winner":…,"reason":…}`,
/// with `"rules":"…"` after `game` under other rules than the default.
fn morris(g: &Morris, room: Option<&RoomStory>) -> String {
    let outcome = g.outcome();
    let rules = g.rules();
    to_line(&MorrisState {
        game: "morris",
        rules: (!rules.is_default()).then(|| rules.to_string()),
        board: g.board_string(),
        reserves: [
            g.reserve(engine::Player::Blue),
            g.reserve(engine::Player::Red),
        ],
        to_move: g.to_move().index(),
        turns: g.turns(),
        phase: g.phase().as_str(),
        winner: outcome.and_then(|o| o.winner).map(|w| w.index()),
        reason: outcome.map(|o| o.reason.as_str()),
        room,
    })
}

/// `{"game":"meta","cells":…,"results":…,"to_move":…,"required":…,"moves":…,"over":…,"winner":…,"line":…}`.
fn meta(g: &Meta, room: Option<&RoomStory>) -> String {
    let outcome = g.outcome();
    to_line(&MetaState {
        game: "meta",
        cells: g.cells_string(),
        results: g.results_string(),
        to_move: g.to_move().index(),
        required: g.required_board(),
        moves: g.moves(),
        over: outcome.is_some(),
        winner: outcome.and_then(|o| o.winner).map(|w| w.index()),
        line: g.winning_line(),
        room,
    })
}

/// The final-state line of either game.
pub fn state(g: &AnyGame) -> String {
    match g {
        AnyGame::Morris(g) => morris(g, None),
        AnyGame::Meta(g) => meta(g, None),
    }
}

fn seat_name(seat: Seat) -> &'static str {
    match seat {
        Seat::Host => "host",
        Seat::Guest => "guest",
    }
}

fn key(k: &[u8; 32]) -> Key {
    Key {
        key: engine::session::wire::hex(k),
        fingerprint: transcript::fingerprint(k),
    }
}

/// A game of the room; `replaced` when a new game began before it ended.
fn game_line(g: &GameSummary, replaced: bool) -> GameLine {
    let (result, winner, reason) = match g.result {
        None if replaced => ("replaced", None, None),
        None => ("playing", None, None),
        Some((winner, finish)) => (
            if winner.is_some() { "won" } else { "draw" },
            winner.map(|w| w.index()),
            Some(match finish {
                Finish::Rules(r) => r.as_str(),
                Finish::Ending(Ending::Resigned(_)) => "resigned",
                Finish::Ending(Ending::DrawAgreed) => "agreed",
                Finish::Ending(Ending::Claimed(_)) => "claimed",
                Finish::Ending(Ending::Left(_)) => "left",
                Finish::Ending(Ending::Forked(_)) => "forked",
            }),
        ),
    };
    GameLine {
        number: g.number,
        host: g.host.index(),
        guest: g.host.opponent().index(),
        colours: g.drawn.then_some("lot"),
        rules: g.rules.filter(|r| !r.is_default()).map(|r| r.to_string()),
        result,
        winner,
        reason,
        turns: g.turns,
    }
}

/// `verify`'s line: the current game's final state, then `room`: both keys, every game of the
/// room, the entries that break the rules and the verdict (docs/cli.md).
pub fn verified(v: &Verified) -> Option<String> {
    let games = v.room.games();
    let last = games.len().saturating_sub(1);
    let story = RoomStory {
        host: key(&v.host_key),
        guest: v.guest_key.as_ref().map(key),
        games: games
            .iter()
            .enumerate()
            .map(|(i, g)| game_line(g, i < last))
            .collect(),
        handovers: v
            .handovers
            .iter()
            .map(|h| HandoverLine {
                entry: h.entry,
                seat: seat_name(h.seat),
                by: seat_name(h.seat.other()),
                key: key(&h.key),
                crossed: h.crossed,
            })
            .collect(),
        forks: v
            .forks
            .iter()
            .map(|k| ForkLine {
                entry: k.entry,
                seat: seat_name(k.seat),
                by: seat_name(k.seat.other()),
                seq: k.seq,
            })
            .collect(),
        faults: v
            .faults
            .iter()
            .map(|f| FaultLine {
                entry: f.entry,
                seat: seat_name(f.seat),
                player: f.player.index(),
                message: f.why.to_string(),
            })
            .collect(),
        verdict: v.verdict(),
    };
    Some(match v.game()? {
        AnyGame::Morris(g) => morris(g, Some(&story)),
        AnyGame::Meta(g) => meta(g, Some(&story)),
    })
}

/// `{"error":"illegal","index":k,"token":"…","message":"…"}`.
pub fn illegal(e: &TokenError) -> String {
    to_line(&IllegalToken {
        error: "illegal",
        index: e.index,
        token: &e.token,
        message: e.kind.to_string(),
    })
}

/// `{"error":"header","line":k,"message":"…"}`.
pub fn header(e: &HeaderError) -> String {
    to_line(&BadHeader {
        error: "header",
        line: e.line,
        message: &e.message,
    })
}

/// `{"error":"invalid","entry":k,"message":"…"}`.
pub fn invalid(e: &VerifyError) -> String {
    to_line(&InvalidEntry {
        error: "invalid",
        entry: e.entry,
        message: &e.message,
    })
}

/// `{"error":"over","turns":n,"winner":null|0|1,"reason":"…","message":"the game is over"}`,
/// or `None` while the game goes on.
pub fn over(g: &AnyGame) -> Option<String> {
    let o = g.outcome()?;
    Some(to_line(&GameOver {
        error: "over",
        turns: g.turns(),
        winner: o.winner.map(|w| w.index()),
        reason: o.reason.as_str(),
        message: "the game is over",
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_escape_every_control_character_as_before() {
        let e = TokenError {
            index: 3,
            token: "a\"b\\c\nd\u{1}\u{8}\u{c}\té\u{7f}".into(),
            kind: engine::record::TokenErrorKind::Parse(engine::ParseError { expected: "x" }),
        };
        assert_eq!(
            illegal(&e),
            r#"{"error":"illegal","index":3,"token":"a\"b\\c\nd\u0001\u0008\u000c\té"#.to_string()
                + "\u{7f}\",\"message\":\"not valid notation: expected x\"}"
        );
    }

    #[test]
    fn states_have_the_documented_fields_in_order() {
        assert_eq!(
            morris(&Morris::new(), None),
            r#"{"game":"morris","board":"........................","reserves":[9,9],"to_move":0,"turns":0,"phase":"play","winner":null,"reason":null}"#
        );
        assert_eq!(
            meta(&Meta::new(), None),
            format!(
                r#"{{"game":"meta","cells":"{}","results":".........","to_move":0,"required":null,"moves":0,"over":false,"winner":null,"line":null}}"#,
                ".".repeat(81)
            )
        );
    }
}
