//! `/partie`, the game viewer, as a model: it opens a record (`.txt`, with or without headers) or
//! a signed transcript (`.transcript`, as « Exporter la partie » writes it), checks it with the
//! engine — a transcript with `engine::session::transcript::Verifier`, the very code of
//! `engine verify` — says plainly what it found, and steps through the game like a finished
//! one. Any input gives a verdict: too big, not text, not a game, the first bad entry or token.
//! A transcript is checked a slice at a time ([`Viewer::check`]), so that the page can say
//! « Vérification… » and stay responsive while a long one takes seconds: [`Viewer::input`] takes
//! what the page gives with the page's clock, keeps how long each verdict took, and says which
//! [`Slice`] the page runs next (after yielding to the browser), until the verdict.
//!
//! ```
//! use client::model::viewer::{Event, Viewer};
//!
//! let mut v = Viewer::default();
//! v.update(Event::Open { text: "[Game \"meta\"]\ne5 e5\n".into(), name: None });
//! let verdict = v.verdict.clone().unwrap();
//! assert!(!verdict.ok);
//! assert!(verdict.text.get().contains("« e5 »"), "{:?}", verdict.text);
//! ```

use super::history::{Browse, HistoryView, Nav};
use super::text;
use crate::i18n::{t, Text};
use engine::morris::RulesError;
use engine::record::{self, HeaderFlaw, RecordError, Setup, TokenErrorKind};
use engine::session::transcript::{self, Flaw, Verified, Verifier, VerifyError};
use engine::session::{Ending, Finish, GameSummary, Seat, Void};
use engine::{AnyGame, GameKind, Illegal, Player};

/// The largest file the viewer reads (bytes): checked before reading, so that a huge file is
/// refused at once. It is `engine verify`'s ([`transcript::MAX_BYTES`]), what an honest room can
/// write: at most 10 000 entries per seat (`chains::MAX_ENTRIES`), each line at most 445
/// characters with its newline (a hello or a hand-over; a move takes about 320), so 8.9 MB at
/// the very most (the test below computes it).
pub const MAX_BYTES: u64 = transcript::MAX_BYTES as u64;

/// The largest record the viewer plays (bytes of text): an exported one is a few KB — seven
/// headers, at most 500 turns of at most 9 characters —, so anything far bigger is refused
/// before it is parsed, and cannot fill the page with its headers. The page states one limit,
/// [`MAX_BYTES`]: this one is said as « far more than a game », not as a second number.
pub const MAX_RECORD_BYTES: usize = 100_000;

/// At most this many of a file's headers or a room's hand-overs are listed, each value cut to
/// [`MAX_VALUE_CHARS`]; at most this many games of a room, the first and the last halves.
const MAX_FACTS: usize = 20;
const MAX_VALUE_CHARS: usize = 200;
const MAX_GAMES: usize = 100;

/// What the page reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The pasted text, or the record of the URL.
    Open {
        /// The text.
        text: String,
        /// The file's name.
        name: Option<String>,
    },
    /// A file's text, as the browser decoded it (UTF-8, each byte it could not read replaced by
    /// U+FFFD, which takes three: a binary file's text is bigger than the file).
    File {
        /// The text.
        text: String,
        /// The file's name.
        name: String,
        /// The file's size, bytes.
        bytes: u64,
    },
    /// A file too big to read, refused before reading.
    TooBig {
        /// Its size in bytes.
        bytes: u64,
        /// Its name.
        name: String,
    },
    /// The browser could not read the file.
    Unreadable(String),
    /// The game of a record that does not name it.
    Kind(GameKind),
    /// Going through the game.
    History(Nav),
}

/// How long one slice of a transcript's check may hold the page, ms: between two, the browser
/// draws the progress and answers the player.
pub const SLICE_MS: f64 = 25.0;

/// The next slice of the check under way: the page yields to the browser, then gives it back
/// ([`Input::Slice`]). A slice of a check since replaced does nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slice(u32);

/// What the page gives [`Viewer::input`].
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    /// An event, and when it was given on the page's clock (ms): a file's time is when the
    /// player gave it, before it was read.
    Event(Event, f64),
    /// The check's next slice is due.
    Slice(Slice),
}

/// The verdict: checked, or why not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Every signature, link and move (a transcript) or every move (a record) is valid.
    pub ok: bool,
    /// A signed transcript (else a record, or something that is neither).
    pub transcript: bool,
    /// What it says.
    pub text: Text,
}

/// A game opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The start, then the position after each turn.
    pub positions: Vec<AnyGame>,
    /// The turns in notation.
    pub turns: Vec<String>,
    /// What the file says of itself: the headers, or the room's keys and rules.
    pub facts: Vec<(Text, Text)>,
    /// A transcript: each game of the room, with its result and why.
    pub games: Vec<Text>,
}

/// The viewer's whole state.
#[derive(Clone, Debug)]
pub struct Viewer {
    /// The game of a record without a `Game` header.
    pub kind: GameKind,
    /// The file's name.
    pub name: Option<String>,
    /// The game opened.
    pub game: Option<Game>,
    /// The verdict on the last input.
    pub verdict: Option<Verdict>,
    /// The position shown: the end, or one before.
    pub browse: Browse,
    /// The last record opened without a game named, to open again with another game.
    unnamed: Option<String>,
    /// The transcript being checked, until its verdict.
    checking: Option<Verifier>,
    /// How long the last verdict took in the page, ms, from the input given (`data-check-ms`,
    /// the figure of the notes).
    pub took: Option<f64>,
    /// When the input being opened was given (the page's clock, ms).
    given: f64,
    /// Tags the slices: each input takes a new one, so that an older check's slice is dropped.
    serial: u32,
}

impl Default for Viewer {
    fn default() -> Viewer {
        Viewer {
            kind: GameKind::Morris,
            name: None,
            game: None,
            verdict: None,
            browse: Browse::default(),
            unnamed: None,
            checking: None,
            took: None,
            given: 0.0,
            serial: 0,
        }
    }
}

impl Viewer {
    /// Takes what the page gives, `now` reading its clock (ms): an event (see
    /// [`Viewer::update`]), or a slice of the check under way, stopped after [`SLICE_MS`].
    /// Keeps how long the verdict took ([`Viewer::took`]); the slice the page must run next,
    /// while there is more to check.
    pub fn input(&mut self, input: Input, now: &dyn Fn() -> f64) -> Option<Slice> {
        match input {
            Input::Event(event, at) => {
                let opening = matches!(
                    event,
                    Event::Open { .. } | Event::File { .. } | Event::Kind(_)
                );
                if opening {
                    self.given = at;
                }
                self.update(event);
                if opening {
                    self.took = Some(now() - self.given);
                }
            }
            Input::Slice(Slice(serial)) if serial == self.serial => {
                let end = now() + SLICE_MS;
                if !self.check(&mut || now() >= end) {
                    self.took = Some(now() - self.given);
                }
            }
            Input::Slice(_) => return None,
        }
        self.serial = self.serial.wrapping_add(1);
        self.checking.as_ref().map(|_| Slice(self.serial))
    }

    /// Takes one event.
    pub fn update(&mut self, event: Event) {
        match event {
            Event::Open { text, name } => {
                self.name = name;
                self.open(text);
            }
            Event::File { name, bytes, .. } if bytes > MAX_BYTES => {
                self.update(Event::TooBig { bytes, name })
            }
            // No transcript nor record holds a byte that is not UTF-8.
            Event::File { text, name, .. } if text.contains('\u{FFFD}') => {
                self.name = Some(name);
                self.refuse(false, Text::of(t::file_not_text));
            }
            Event::File { text, name, .. } => {
                self.name = Some(name);
                self.open(text);
            }
            Event::TooBig { bytes, name } => {
                self.name = Some(name);
                self.refuse(
                    false,
                    Text::new(move || t::file_too_big(&megabytes(bytes), &limit_megabytes())),
                );
            }
            Event::Unreadable(name) => {
                self.name = Some(name);
                self.refuse(false, Text::of(t::file_unreadable));
            }
            Event::Kind(kind) => {
                self.kind = kind;
                if let Some(text) = self.unnamed.take() {
                    self.open(text);
                }
            }
            Event::History(nav) => {
                if let Some(g) = &self.game {
                    self.browse.go(nav, g.turns.len(), false);
                }
            }
        }
    }

    /// While a transcript is being checked: the work done and the whole work (entries read,
    /// then folded).
    pub fn progress(&self) -> Option<(usize, usize)> {
        self.checking.as_ref().map(Verifier::progress)
    }

    /// Checks the transcript opened until `stop` returns true (it is asked after each entry)
    /// or the verdict is given; true while there is more to check. The page calls it in slices
    /// of a few milliseconds, yielding to the browser between them.
    pub fn check(&mut self, stop: &mut dyn FnMut() -> bool) -> bool {
        let Some(v) = self.checking.as_mut() else {
            return false;
        };
        match v.step(stop) {
            Ok(false) => true,
            Ok(true) => {
                let v = self.checking.take().expect("checking");
                self.verified(v.finish());
                false
            }
            Err(e) => {
                self.checking = None;
                self.verified(Err(e));
                false
            }
        }
    }

    /// The position shown.
    pub fn shown(&self) -> Option<&AnyGame> {
        let g = self.game.as_ref()?;
        g.positions.get(self.browse.ply().unwrap_or(g.turns.len()))
    }

    /// The history panel.
    pub fn history(&self) -> Option<HistoryView> {
        let g = self.game.as_ref()?;
        let rules = match g.positions.first() {
            Some(AnyGame::Morris(m)) => Some(text::rules_name(m.rules())),
            _ => None,
        };
        Some(HistoryView {
            rules,
            ..HistoryView::new(&g.turns, None, self.browse)
        })
    }

    fn refuse(&mut self, transcript: bool, text: Text) {
        self.checking = None;
        self.game = None;
        self.browse = Browse::default();
        self.verdict = Some(Verdict {
            ok: false,
            transcript,
            text,
        });
    }

    /// Owns the text: a transcript (up to [`MAX_BYTES`]) goes to the verifier without a copy.
    fn open(&mut self, text: String) {
        self.unnamed = None;
        self.checking = None;
        self.browse = Browse::default();
        if text.len() as u64 > MAX_BYTES {
            return self.update(Event::TooBig {
                bytes: text.len() as u64,
                name: self.name.clone().unwrap_or_default(),
            });
        }
        if text.trim().is_empty() {
            return self.refuse(false, Text::of(t::nothing_to_read));
        }
        if text.starts_with("moulin-transcript") {
            self.open_transcript(text)
        } else if text.len() > MAX_RECORD_BYTES {
            let size = (text.len() / 1000).to_string();
            self.refuse(false, Text::new(move || t::record_too_big(&size)))
        } else {
            self.open_record(&text)
        }
    }

    fn open_record(&mut self, text: &str) {
        let setup = match Setup::read(text) {
            Ok(s) => s,
            Err(e) => return self.refuse(false, header_refusal(&e)),
        };
        let given = setup.game.is_none().then_some(self.kind);
        // The rules come from the `Rules` header (none: the classic game).
        let r = match record::replay_all(text, given, None) {
            Ok(r) => r,
            Err(RecordError::Header(e)) => return self.refuse(false, header_refusal(&e)),
            Err(RecordError::Token(e)) => {
                let kind = setup.game.map_or(self.kind, |(k, _)| k);
                return self.refuse(false, token_refusal(e, kind));
            }
        };
        if given.is_some() {
            self.unnamed = Some(text.to_string());
        }
        let facts = record_facts(&setup, &r.positions[0]);
        let n = r.tokens.len();
        let end = r.positions.last().and_then(|g| match g {
            AnyGame::Morris(m) => text::morris_result(m),
            AnyGame::Meta(_) => g.outcome().map(|o| text::result(o, 0)),
        });
        self.game = Some(Game {
            positions: r.positions,
            turns: r.tokens,
            facts,
            games: Vec::new(),
        });
        self.verdict = Some(Verdict {
            ok: true,
            transcript: false,
            text: Text::new(move || match &end {
                Some(o) => t::record_valid_over(&n.to_string(), &o.to_lowercase()),
                None => t::record_valid(&n.to_string()),
            }),
        });
    }

    /// Starts checking a transcript: its header at once, its entries by [`Viewer::check`].
    fn open_transcript(&mut self, text: String) {
        self.game = None;
        self.verdict = None;
        match Verifier::new(text) {
            Ok(v) => self.checking = Some(v),
            Err(e) => self.verified(Err(e)),
        }
    }

    fn verified(&mut self, result: Result<Verified, VerifyError>) {
        let v = match result {
            Ok(v) => v,
            Err(e) => return self.refuse(true, Text::new(move || refusal_text(&e))),
        };
        let Some(table) = v.room.table() else {
            return self.refuse(true, Text::of(t::transcript_empty));
        };
        let turns: Vec<String> = table.turns().iter().map(|t| t.to_string()).collect();
        let positions = (0..=turns.len())
            .map(|i| table.position(i).clone())
            .collect();
        let (facts, games) = room_story(&v);
        // The first rule broken or fork proved, whichever comes first in the file.
        let fork = v
            .forks
            .first()
            .filter(|k| v.faults.first().is_none_or(|f| k.entry < f.entry))
            .copied();
        self.verdict = Some(match v.faults.first() {
            _ if fork.is_some() => {
                let k = fork.expect("just checked");
                Verdict {
                    ok: false,
                    transcript: true,
                    text: Text::new(move || {
                        t::transcript_fork(
                            seat_name(k.seat),
                            text::player_name(k.player),
                            &k.seq.to_string(),
                            &k.entry.to_string(),
                        )
                    }),
                }
            }
            None => Verdict {
                ok: true,
                transcript: true,
                text: Text::of(t::transcript_verified),
            },
            Some(f) => {
                let (seat, player, entry, why) = (f.seat, f.player, f.entry, f.why);
                Verdict {
                    ok: false,
                    transcript: true,
                    text: Text::new(move || {
                        t::transcript_cheat(
                            seat_name(seat),
                            text::player_name(player),
                            &entry_words(entry),
                            &void_reason(why),
                        )
                    }),
                }
            }
        });
        self.game = Some(Game {
            positions,
            turns,
            facts,
            games,
        });
    }
}

/// A record's first bad token: its number, the token (cut to 40 characters) and why.
fn token_refusal(e: record::TokenError, kind: GameKind) -> Text {
    let token: String = e.token.chars().take(40).collect();
    Text::new(move || {
        let why = match e.kind {
            TokenErrorKind::Parse(_) => t::not_a_turn(game_of(kind)),
            TokenErrorKind::Illegal(i) => {
                let why = match kind {
                    GameKind::Morris => text::morris_refusal(i),
                    GameKind::Meta => text::meta_refusal(i, None),
                };
                why.trim_end_matches('.').to_lowercase()
            }
        };
        t::record_illegal(&(e.index + 1).to_string(), &token, &why)
    })
}

/// What a record says of itself: its game (named, or chosen on the page), its rules (Morris),
/// then its other headers (the first [`MAX_FACTS`]), the values the game writes in the player's
/// words and the others as written.
fn record_facts(setup: &Setup, start: &AnyGame) -> Vec<(Text, Text)> {
    let kind = start.kind();
    let named = setup.game.is_some();
    let mut facts = vec![(
        Text::of(t::fact_game),
        Text::new(move || match named {
            true => text::game_name(kind).to_string(),
            false => t::record_game_chosen(text::game_name(kind)),
        }),
    )];
    if let AnyGame::Morris(g) = start {
        let rules = g.rules();
        facts.push((
            Text::of(t::fact_rules),
            Text::new(move || text::rules_name(rules)),
        ));
    }
    for (name, value) in setup.all.iter().take(MAX_FACTS) {
        let label = match name.as_str() {
            "Game" | "Rules" => continue,
            "MaxTurns" => Text::of(t::fact_limit),
            "Blue" => Text::of(t::fact_blue),
            "Red" => Text::of(t::fact_red),
            "Date" => Text::of(t::fact_date),
            "Result" => Text::of(t::fact_result),
            "Reason" => Text::of(t::fact_reason),
            other => data(short(other)),
        };
        let words = match name.as_str() {
            "Result" => result_words(value),
            "Reason" => reason_words(value),
            _ => None,
        };
        facts.push((label, words.unwrap_or_else(|| data(short(value)))));
    }
    more_facts(&mut facts, setup.all.len(), t::more_headers);
    facts
}

/// Says how many more than the [`MAX_FACTS`] listed there are, if any.
fn more_facts(facts: &mut Vec<(Text, Text)>, all: usize, words: fn(&str) -> String) {
    if all > MAX_FACTS {
        let more = (all - MAX_FACTS).to_string();
        facts.push((data("…".to_string()), Text::new(move || words(&more))));
    }
}

/// Why a signed entry breaks the rules.
fn void_reason(v: Void) -> String {
    match v {
        Void::Version => t::void_version(),
        Void::OtherGame => t::void_other_game(),
        Void::BadRules => t::void_bad_rules(),
        Void::NoGame => t::void_no_game(),
        Void::NotHost => t::void_not_host(),
        Void::TooLate => t::void_too_late(),
        Void::NotYourTurn => t::void_not_your_turn(),
        Void::WrongGame => t::void_wrong_game(),
        Void::Illegal(i) => {
            // The game is in the words: a Morris refusal has no board to name.
            let why = match i {
                Illegal::BoardClosed | Illegal::WrongBoard | Illegal::OutOfRange => {
                    text::meta_refusal(i, None)
                }
                _ => text::morris_refusal(i),
            };
            return t::void_illegal(why.trim_end_matches('.'));
        }
        Void::GameOver => t::void_game_over(),
        Void::AlreadyProposing => t::void_already_proposing(),
        Void::NothingToUndo => t::void_nothing_to_undo(),
        Void::CoolingDown => t::void_cooling_down(),
        Void::NoSuchProposal => t::void_no_proposal(),
        Void::Left => t::void_left(),
        Void::StaleGame => t::void_stale_game(),
        Void::Crossed => t::void_crossed(),
        Void::TooSoon => t::void_too_soon(),
        Void::Unseen => t::void_unseen(),
        Void::DrawPending => t::void_draw_pending(),
        Void::NoDraw => t::void_no_draw(),
        Void::BadReveal => t::void_bad_reveal(),
        Void::Forked => t::void_forked(),
    }
    .to_string()
}

/// Words of the file itself (a header's value, a key): the same in every language.
fn data(text: String) -> Text {
    Text::new(move || text.clone())
}

/// A size in MB, rounded up to the tenth: a file refused for its size never reads as the limit.
fn megabytes(bytes: u64) -> String {
    let tenths = bytes.div_ceil(100_000);
    format!("{}{}{}", tenths / 10, t::decimal_point(), tenths % 10)
}

/// The one limit the page states, in MB (the drop zone's hint and the refusal say the same).
pub fn limit_megabytes() -> String {
    (MAX_BYTES / 1_000_000).to_string()
}

/// An entry of a transcript (0-based index) as people count: from 1, with its line in the file
/// (after the four header lines).
fn entry_words(index: usize) -> String {
    t::entry_at(&(index + 1).to_string(), &(index + 5).to_string())
}

/// Why a transcript is refused, in the player's words: which entry (numbered from 1, with its
/// line in the file) and what is wrong with it.
fn refusal_text(e: &VerifyError) -> String {
    let entry = || entry_words(e.entry);
    let why = match e.flaw {
        Flaw::TooBig => return t::file_too_big(&megabytes(MAX_BYTES + 1), &limit_megabytes()),
        Flaw::NotTranscript => return t::transcript_not_v1().to_string(),
        Flaw::NoHostKey => return t::transcript_no_host_key().to_string(),
        Flaw::Empty => return t::transcript_empty().to_string(),
        Flaw::Header => t::verify_header().to_string(),
        Flaw::Mismatch => t::verify_mismatch().to_string(),
        Flaw::Damaged => t::verify_damaged(&entry()),
        Flaw::Copy => t::verify_copy(&entry()),
        Flaw::Order => t::verify_order(&entry()),
        Flaw::Refused(r) => t::verify_refused(&entry(), text::refusal_words(r)),
    };
    t::transcript_refused(&why)
}

/// A `Result` header's value as the game writes it (docs/cli.md).
fn result_words(value: &str) -> Option<Text> {
    Some(Text::of(match value {
        "1-0" => t::result_value_blue,
        "0-1" => t::result_value_red,
        "1/2-1/2" => t::result_value_draw,
        "*" => t::result_value_playing,
        _ => return None,
    }))
}

/// A `Reason` header's value as the game writes it: the engine's reasons and the room's endings.
fn reason_words(value: &str) -> Option<Text> {
    use engine::Reason;
    let rules = [
        Reason::Pieces,
        Reason::Blocked,
        Reason::Repetition,
        Reason::Limit,
        Reason::Line,
        Reason::AllClosed,
        Reason::Full,
        Reason::Quiet,
    ];
    if let Some(&r) = rules.iter().find(|r| r.as_str() == value) {
        return Some(Text::new(move || finish_text(Finish::Rules(r)).to_string()));
    }
    Some(Text::of(match value {
        "resigned" => t::finish_resigned,
        "agreed" => t::finish_agreed,
        "claimed" => t::finish_claimed,
        "left" => t::finish_left,
        "forked" => t::finish_forked,
        _ => return None,
    }))
}

/// Why rules do not read, in the player's words.
fn rules_error_words(e: &RulesError) -> String {
    match e {
        RulesError::Empty => t::rules_error_empty().to_string(),
        RulesError::TooLong(n) => {
            t::rules_error_too_long(&n.to_string(), &engine::morris::MAX_RULES_LEN.to_string())
        }
        RulesError::EmptyItem(i) => t::rules_error_empty_item(&i.to_string()),
        RulesError::UnknownName(s) => t::rules_error_unknown_name(&short(s)),
        RulesError::NameNotFirst(s) => t::rules_error_name_not_first(&short(s)),
        RulesError::NotKeyValue(s) => t::rules_error_not_key_value(&short(s)),
        RulesError::UnknownKey(s) => t::rules_error_unknown_key(&short(s)),
        RulesError::BadValue { param, value } => {
            let range = param.range();
            t::rules_error_bad_value(
                &short(value),
                param.key(),
                &range.start().to_string(),
                &range.end().to_string(),
            )
        }
        RulesError::Duplicate(p) => t::rules_error_duplicate(p.key()),
    }
}

/// Why a record's headers are refused, in the player's words (rules that do not read get
/// their own sentence, with examples).
fn header_refusal(e: &record::HeaderError) -> Text {
    let line = e.line.to_string();
    let why = match &e.flaw {
        HeaderFlaw::NoGame => return Text::of(t::record_no_game),
        HeaderFlaw::BadRules(r) => {
            let r = r.clone();
            return Text::new(move || t::record_bad_rules(&line, &rules_error_words(&r)));
        }
        HeaderFlaw::Twice(name) => {
            let name = *name;
            Text::new(move || t::header_twice(name))
        }
        HeaderFlaw::UnknownGame => Text::of(t::header_unknown_game),
        HeaderFlaw::BadLimit => Text::of(t::header_bad_limit),
        HeaderFlaw::MorrisOnly => Text::of(t::header_morris_only),
        HeaderFlaw::OtherGame | HeaderFlaw::Contradiction => Text::of(t::header_contradiction),
    };
    Text::new(move || t::record_bad_header(&line, &why.get()))
}

fn game_of(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Morris => t::of_morris(),
        GameKind::Meta => t::of_meta(),
    }
}

fn seat_name(seat: Seat) -> &'static str {
    match seat {
        Seat::Host => t::the_host(),
        Seat::Guest => t::the_guest(),
    }
}

/// The keys (short fingerprints), the game and its rules, and one line per game of the room.
fn room_story(v: &Verified) -> (Vec<(Text, Text)>, Vec<Text>) {
    let mut facts = room_keys(v);
    for k in v.forks.iter().take(MAX_FACTS).copied() {
        facts.push((
            Text::new(move || t::fact_fork(&k.entry.to_string())),
            Text::new(move || {
                t::fork_signed(
                    seat_name(k.seat),
                    text::player_name(k.player),
                    &k.seq.to_string(),
                )
            }),
        ));
    }
    if let Some(rules) = v.room.rules {
        let kind = rules.kind();
        facts.push((
            Text::of(t::fact_game),
            Text::new(move || text::game_name(kind).to_string()),
        ));
        let limit = rules.max_turns.to_string();
        let variant = v.room.morris_rules;
        facts.push((
            Text::of(t::fact_rules),
            Text::new(move || match kind {
                GameKind::Morris if variant.is_default() => t::rules_limit(&limit),
                GameKind::Morris => {
                    format!("{}, {}", text::rules_name(variant), t::rules_limit(&limit))
                }
                GameKind::Meta => t::rules_none().to_string(),
            }),
        ));
    }
    (facts, room_games(&v.room.games()))
}

/// The room's keys: the host's, the guest's, and each hand-over's (the first [`MAX_FACTS`]).
fn room_keys(v: &Verified) -> Vec<(Text, Text)> {
    let key = |k: &[u8; 32]| {
        let print = transcript::fingerprint(k);
        Text::new(move || t::key(&print))
    };
    let mut facts = vec![(Text::of(t::fact_host), key(&v.host_key))];
    facts.push((
        Text::of(t::fact_guest),
        v.guest_key.map_or(Text::of(t::not_arrived), |k| key(&k)),
    ));
    for h in v.handovers.iter().take(MAX_FACTS) {
        let (entry, seat, player, crossed) =
            ((h.entry + 1).to_string(), h.seat, h.player, h.crossed);
        let print = transcript::fingerprint(&h.key);
        facts.push((
            Text::new(move || t::fact_handover(&entry)),
            Text::new(move || {
                let text = t::new_key(
                    seat_name(seat),
                    text::player_name(player),
                    &print,
                    seat_name(seat.other()),
                );
                match crossed {
                    0 => text,
                    1 => t::handover_crossed_one(&text, "1"),
                    n => t::handover_crossed_many(&text, &n.to_string()),
                }
            }),
        ));
    }
    more_facts(&mut facts, v.handovers.len(), t::more_handovers);
    facts
}

/// One line per game of the room; of thousands of games, the first and the last ones.
fn room_games(games: &[GameSummary]) -> Vec<Text> {
    let last = games.len().saturating_sub(1);
    let skipped = games.len().saturating_sub(MAX_GAMES);
    let line = |(i, g): (usize, &GameSummary)| game_line(*g, i < last);
    let mut lines: Vec<Text> = games
        .iter()
        .enumerate()
        .take(if skipped == 0 {
            games.len()
        } else {
            MAX_GAMES / 2
        })
        .map(line)
        .collect();
    if skipped > 0 {
        let more = skipped.to_string();
        lines.push(Text::new(move || t::more_games(&more)));
        lines.extend(
            games
                .iter()
                .enumerate()
                .skip(games.len() - MAX_GAMES / 2)
                .map(line),
        );
    }
    lines
}

/// A game of the room: its number (and rules), the colours, its result, its turns; one without
/// a result was replaced when another game follows it, else it is under way.
fn game_line(g: GameSummary, followed: bool) -> Text {
    Text::new(move || {
        let (host, guest) = (text::colour(g.host), text::colour(g.host.opponent()));
        let colours = if g.drawn {
            t::host_plays_drawn(host, guest)
        } else {
            t::host_plays(host, guest)
        };
        let number = (g.number + 1).to_string();
        let number = match g.rules.filter(|r| !r.is_default()) {
            Some(r) => t::game_under_rules(&number, &text::rules_name(r)),
            None => number,
        };
        let result = match g.result {
            None if followed => t::game_replaced().to_string(),
            None => t::game_going().to_string(),
            Some((winner, finish)) => {
                let who = winner.map_or(t::game_drawn().to_string(), |w: Player| {
                    t::game_won(text::player_name(w))
                });
                t::game_result(&who, finish_text(finish))
            }
        };
        t::game_line(&number, &colours, &result, &g.turns.to_string())
    })
}

/// A header's name or value, cut to [`MAX_VALUE_CHARS`].
fn short(text: &str) -> String {
    match text.char_indices().nth(MAX_VALUE_CHARS) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

fn finish_text(f: Finish) -> &'static str {
    use engine::Reason;
    match f {
        Finish::Rules(Reason::Pieces) => t::finish_pieces(),
        Finish::Rules(Reason::Blocked) => t::finish_blocked(),
        Finish::Rules(Reason::Repetition) => t::finish_repetition(),
        Finish::Rules(Reason::Limit) => t::finish_limit(),
        Finish::Rules(Reason::Line) => t::finish_line(),
        Finish::Rules(Reason::AllClosed) => t::finish_closed(),
        Finish::Rules(Reason::Full) => t::finish_full(),
        Finish::Rules(Reason::Quiet) => t::finish_quiet(),
        Finish::Ending(Ending::Resigned(_)) => t::finish_resigned(),
        Finish::Ending(Ending::DrawAgreed) => t::finish_agreed(),
        Finish::Ending(Ending::Claimed(_)) => t::finish_claimed(),
        Finish::Ending(Ending::Left(_)) => t::finish_left(),
        Finish::Ending(Ending::Forked(_)) => t::finish_forked(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::morris::Rules;
    use engine::session::{Command, Loopback, Seat, Step};

    fn played(kind: GameKind, max: u16, n: usize) -> Loopback {
        let mut net = Loopback::new(kind, max);
        for i in 0..n {
            let Some(seat) = net.mover() else { break };
            let steps = Step::legal(net.host().game().unwrap());
            net.exchange(seat, Command::Play(steps[(i * 7 + 3) % steps.len()]));
        }
        net
    }

    /// Opens a text and, a transcript, checks it to the end.
    fn open(text: &str) -> Viewer {
        let mut v = Viewer::default();
        v.update(Event::Open {
            text: text.into(),
            name: None,
        });
        assert!(!v.check(&mut || false));
        v
    }

    #[test]
    fn a_transcript_is_checked_in_slices_and_a_new_file_drops_the_check() {
        let text = played(GameKind::Morris, 100, 30).guest().export();
        let at_once = open(&text);
        let mut v = Viewer::default();
        v.update(Event::Open {
            text: text.clone(),
            name: None,
        });
        // Nothing said yet but how far the check is: the page shows « Vérification… ».
        assert_eq!(v.verdict, None);
        let entries = text.lines().count() - 4;
        assert_eq!(v.progress(), Some((0, 2 * entries)));
        let mut slices = 0;
        while v.check(&mut || true) {
            slices += 1;
            assert!(v.verdict.is_none() && v.game.is_none());
        }
        assert_eq!(slices, 2 * entries - 1);
        assert_eq!(v.progress(), None);
        assert_eq!(v.verdict, at_once.verdict);
        assert_eq!(v.game, at_once.game);
        // A file given while another is checked replaces it.
        v.update(Event::Open {
            text: text.clone(),
            name: None,
        });
        assert!(v.check(&mut || true));
        v.update(Event::Open {
            text: "[Game \"meta\"]\ne5\n".into(),
            name: None,
        });
        assert_eq!(v.progress(), None);
        assert!(!v.check(&mut || true));
        assert_eq!(v.game.as_ref().unwrap().turns, ["e5"]);
        // So does one refused by its size.
        v.update(Event::Open { text, name: None });
        v.update(Event::TooBig {
            bytes: MAX_BYTES + 1,
            name: "x".into(),
        });
        assert_eq!(v.progress(), None);
        assert!(!v.verdict.unwrap().ok);
    }

    #[test]
    fn the_page_runs_the_check_in_timed_slices_and_drops_an_older_checks() {
        use std::cell::Cell;
        let text = played(GameKind::Morris, 100, 30).guest().export();
        let at_once = open(&text);
        // The page's clock: each reading 10 ms later, so a slice checks about two entries.
        let clock = Cell::new(1000.0);
        let now = || {
            clock.set(clock.get() + 10.0);
            clock.get()
        };
        let mut v = Viewer::default();
        let open = Event::Open {
            text: text.clone(),
            name: None,
        };
        let mut next = v.input(Input::Event(open.clone(), 990.0), &now);
        let mut slices = 0;
        while let Some(slice) = next {
            slices += 1;
            assert!(v.verdict.is_none() && v.progress().is_some());
            next = v.input(Input::Slice(slice), &now);
        }
        let entries = text.lines().count() - 4;
        assert!((2..2 * entries).contains(&slices), "{slices} slices");
        assert_eq!(v.verdict, at_once.verdict);
        // From the file given to the verdict, on the page's clock.
        assert_eq!(v.took, Some(clock.get() - 990.0));
        // A file given while another is checked: the older check's slice does nothing.
        let old = v.input(Input::Event(open, clock.get()), &now).unwrap();
        let record = Event::Open {
            text: "[Game \"meta\"]\ne5\n".into(),
            name: None,
        };
        assert_eq!(v.input(Input::Event(record, clock.get()), &now), None);
        let verdict = v.verdict.clone();
        assert!(verdict.as_ref().unwrap().ok);
        assert_eq!(v.took, Some(10.0), "the record's reading of the clock");
        assert_eq!(v.input(Input::Slice(old), &now), None);
        assert_eq!((v.verdict, v.took), (verdict, Some(10.0)));
    }

    #[test]
    fn the_size_cap_lets_the_largest_honest_room_through() {
        use engine::session::chains::MAX_ENTRIES;
        use engine::session::{wire, Body, Proposal, Rules, Seat};
        let net = played(GameKind::Morris, 500, 2);
        let text = net.guest().export();
        let header: usize = text.lines().take(4).map(|l| l.len() + 1).sum();
        let mut e = net.guest().entries()[0].clone();
        // The last entry a seat may write, dated 2100 (`Date.now()`, the browser's clock).
        e.header.seq = MAX_ENTRIES - 1;
        e.header.time = 4_102_444_800_000;
        let rules = Rules::new(GameKind::Morris, 500);
        let longest = [
            Body::Hello {
                protocol: wire::PROTOCOL_VERSION,
                rules,
                key: [0xff; 32],
                proof: [0xff; 32],
            },
            Body::Handover {
                seat: Seat::Guest,
                key: [0xff; 32],
                proof: [0xff; 32],
            },
            Body::Play {
                game: 2 * MAX_ENTRIES,
                step: Step::Move(23, 23),
            },
            Body::Propose(Proposal::NewGame {
                max_turns: Some(500),
            }),
            Body::Reply {
                proposal: MAX_ENTRIES,
                accept: true,
            },
        ]
        .into_iter()
        .map(|body| {
            let e = wire::Entry { body, ..e.clone() };
            wire::hex(&wire::encode(&e)).len() + 1
        })
        .max()
        .unwrap();
        let largest = header + 2 * MAX_ENTRIES as usize * longest;
        assert!(largest as u64 <= MAX_BYTES, "{largest} B");
        // Not much more: a file well beyond it is junk, refused by its size.
        assert!(MAX_BYTES < largest as u64 + 500_000, "{largest} B");
    }

    #[test]
    fn a_room_under_other_rules_with_colours_by_lot_says_both_for_each_game() {
        use engine::session::{Command, Loopback, Proposal, Seat};
        let mut net = Loopback::new(GameKind::Morris, 100);
        let o = net
            .host()
            .options(100, engine::morris::Rules::LASKER, true, 0);
        net.exchange(Seat::Host, Command::Options(o));
        net.exchange(
            Seat::Guest,
            Command::Propose(Proposal::NewGame { max_turns: None }),
        );
        net.exchange(Seat::Host, Command::Reply { accept: true });
        let v = open(&net.guest().export());
        assert!(v.verdict.as_ref().unwrap().ok);
        let games = &v.game.as_ref().unwrap().games;
        assert_eq!(games.len(), 2);
        for (i, line) in games.iter().enumerate() {
            let host = net.host().room().games()[i].host;
            let colours = format!(
                "l'hôte joue {}, l'invité {} (tirés au sort)",
                text::colour(host),
                text::colour(host.opponent())
            );
            let start = format!("Partie {} (Lasker (10 pions)) : {colours} — ", i + 1);
            assert!(line.get().starts_with(&start), "{line}");
        }
    }

    #[test]
    fn a_transcript_verifies_with_its_keys_games_and_every_position() {
        let net = played(GameKind::Morris, 100, 30);
        let v = open(&net.guest().export());
        let verdict = v.verdict.clone().unwrap();
        assert!(verdict.ok && verdict.transcript, "{}", verdict.text);
        assert_eq!(
            verdict.text,
            "Transcript vérifié : chaque signature, chaque lien et chaque coup sont valides."
        );
        let g = v.game.as_ref().unwrap();
        assert_eq!(g.turns.join(" "), net.host().room().record());
        assert_eq!(g.positions.len(), g.turns.len() + 1);
        assert_eq!(v.shown(), g.positions.last());
        assert_eq!(
            v.shown().unwrap().turns(),
            net.host().game().unwrap().turns()
        );
        let host = transcript::fingerprint(&net.host().invite().host_key.unwrap());
        assert_eq!(
            (g.facts[0].0.get(), g.facts[0].1.get()),
            ("Hôte".to_string(), format!("clé {host}"))
        );
        assert!(g
            .facts
            .iter()
            .any(|(k, v)| *k == "Règles" && *v == "limite de 100 tours"));
        assert_eq!(g.games.len(), 1);
        assert!(
            g.games[0]
                .get()
                .starts_with("Partie 1 : l'hôte joue bleu, l'invité rouge — "),
            "{}",
            g.games[0]
        );
        // Stepping through: the start, then each turn.
        let mut v = v;
        v.update(Event::History(Nav::Start));
        assert_eq!(v.shown().unwrap().turns(), 0);
        v.update(Event::History(Nav::Forward));
        assert_eq!(v.shown().unwrap().turns(), 1);
    }

    #[test]
    fn a_changed_byte_or_swapped_entries_are_refused_naming_the_entry() {
        let text = played(GameKind::Meta, 100, 12).host().export();
        let lines: Vec<&str> = text.lines().collect();
        // One byte of the sixth entry (index 5, file line 4 + 5 + 1).
        let mut changed = lines.clone();
        let line = changed[9].to_string();
        let flipped = format!(
            "{}{}{}",
            &line[..30],
            if &line[30..31] == "0" { "1" } else { "0" },
            &line[31..]
        );
        changed[9] = &flipped;
        let v = open(&(changed.join("\n") + "\n"));
        let verdict = v.verdict.unwrap();
        assert!(!verdict.ok && verdict.transcript);
        assert!(
            verdict
                .text
                .get()
                .starts_with("Transcript refusé : l'entrée n° 6 (ligne 10 du fichier)"),
            "{}",
            verdict.text
        );
        assert_eq!(v.game, None);
        // The seventh and eighth entries swapped.
        let mut swapped = lines.clone();
        swapped.swap(10, 11);
        let verdict = open(&(swapped.join("\n") + "\n")).verdict.unwrap();
        assert!(!verdict.ok);
        assert!(
            verdict
                .text
                .get()
                .starts_with("Transcript refusé : l'entrée n° 7 (ligne 11 du fichier)"),
            "{}",
            verdict.text
        );
    }

    #[test]
    fn records_name_the_bad_token_and_need_a_game() {
        let v = open("[Game \"morris\"]\n[MaxTurns \"2\"]\nd6 b4\n");
        assert!(v.verdict.as_ref().unwrap().ok);
        assert!(v.game.as_ref().unwrap().positions[2].is_over());
        let verdict = open("[Game \"morris\"]\nd6 b4 d6\n").verdict.unwrap();
        assert_eq!(
            verdict.text,
            "Notation refusée : le tour n° 3, « d6 », est illégal : ce point est déjà occupé."
        );
        let verdict = open("d6 zz9").verdict.unwrap();
        assert!(
            verdict.text.get().contains("le tour n° 2, « zz9 »"),
            "{}",
            verdict.text
        );
        // Without headers, the game chosen: `e5 e4` is a Morris record too, until told otherwise.
        let mut v = open("e5 e4");
        assert_eq!(v.shown().unwrap().kind(), GameKind::Morris);
        v.update(Event::Kind(GameKind::Meta));
        assert_eq!(v.shown().unwrap().kind(), GameKind::Meta);
        assert!(v.verdict.unwrap().ok);
        // A header contradicting the game.
        let verdict = open("[Game \"meta\"]\n[MaxTurns \"9\"]\ne5")
            .verdict
            .unwrap();
        assert!(verdict.text.get().contains("ligne 2"), "{}", verdict.text);
    }

    #[test]
    fn a_record_under_other_rules_replays_under_them_and_says_which() {
        // a7 b6 c5 is a mill only on the diagonal board.
        let v = open("[Game \"morris\"]\n[Rules \"pieces=12,diagonals=1,flying=1,lasker=0,quiet=0\"]\na7 d7 b6 d6 c5xd7\n");
        assert!(v.verdict.as_ref().unwrap().ok, "{:?}", v.verdict);
        let g = v.game.as_ref().unwrap();
        let Some(AnyGame::Morris(end)) = v.shown() else {
            panic!("morris")
        };
        assert_eq!(end.rules(), Rules::TWELVE);
        assert_eq!(end.reserve(Player::Blue), 9);
        let facts: Vec<(String, String)> =
            g.facts.iter().map(|(k, v)| (k.get(), v.get())).collect();
        assert_eq!(
            facts[..2],
            [
                ("Jeu".to_string(), "Jeu du moulin".to_string()),
                ("Règles".to_string(), "Douze pions (diagonales)".to_string())
            ]
        );
        assert_eq!(facts.iter().filter(|(k, _)| k == "Règles").count(), 1);
        assert_eq!(
            v.history().unwrap().rules.as_deref(),
            Some("Douze pions (diagonales)")
        );
        // Without the header the same record is refused: no diagonal, no mill.
        let plain = open("[Game \"morris\"]\na7 d7 b6 d6 c5xd7\n");
        assert!(!plain.verdict.unwrap().ok);
        // A record without rules says the classic ones; custom rules are listed.
        let v = open("[Game \"morris\"]\nd6\n");
        assert!(v
            .game
            .unwrap()
            .facts
            .iter()
            .any(|(k, v)| *k == "Règles" && *v == "Classique"));
        let v = open("[Game \"morris\"]\n[Rules \"lasker,pieces=11\"]\nd6 a7 d6-d5\n");
        assert!(v.verdict.as_ref().unwrap().ok);
        assert!(v
            .game
            .unwrap()
            .facts
            .iter()
            .any(|(k, v)| *k == "Règles" && *v == "Personnalisées : 11 pions, Lasker"));
        // The quiet draw, with its number.
        let v = open("[Game \"morris\"]\n[Rules \"quiet=2\"]\nd6 b4\n");
        assert_eq!(
            v.verdict.unwrap().text,
            "Notation valide : chacun des 2 tours est légal ; partie nulle : 2 tours de suite sans capture. (Une notation n'est pas signée : seul un transcript prouve qui a joué.)"
        );
    }

    #[test]
    fn bad_rules_in_a_header_are_refused_in_words() {
        let verdict = open("[Game \"morris\"]\n[Rules \"ten\"]\nd6\n")
            .verdict
            .unwrap();
        assert!(!verdict.ok);
        assert!(
            verdict.text.get().starts_with(
                "Notation refusée : les règles de l'en-tête de la ligne 2 ne se lisent pas (« ten » n'est pas un nom de règles connu)"
            ),
            "{}",
            verdict.text
        );
        let verdict = open("[Rules \"twelve,pieces=13\"]\nd6\n").verdict.unwrap();
        assert!(
            verdict.text.get().contains("ligne 1")
                && verdict
                    .text
                    .get()
                    .contains("« 13 » ne convient pas pour pieces (de 9 à 12)"),
            "{}",
            verdict.text
        );
        // Rules for the other game, or twice: said in words too.
        let verdict = open("[Game \"meta\"]\n[Rules \"nine\"]\ne5\n")
            .verdict
            .unwrap();
        assert!(
            verdict
                .text
                .get()
                .contains("(cet en-tête ne vaut que pour le jeu du moulin)"),
            "{}",
            verdict.text
        );
        let verdict = open("[Rules \"nine\"]\n[Rules \"nine\"]\nd6\n")
            .verdict
            .unwrap();
        assert!(
            verdict.text.get().contains("(un deuxième en-tête Rules)"),
            "{}",
            verdict.text
        );
    }

    #[test]
    fn nothing_fills_the_page_records_over_the_cap_long_headers_thousands_of_games() {
        // A record far beyond any game is refused by its size, before it is parsed.
        let huge = format!("[Game \"meta\"]\n{}e5\n", " ".repeat(MAX_RECORD_BYTES));
        let verdict = open(&huge).verdict.unwrap();
        assert!(!verdict.ok);
        assert!(
            verdict
                .text
                .get()
                .starts_with("Notation refusée : 100 Ko, c'est bien plus qu'une partie"),
            "{}",
            verdict.text
        );
        // Headers: the first twenty listed, each cut to 200 characters, and how many more.
        let mut record = String::from("[Game \"morris\"]\n");
        for i in 0..150 {
            record.push_str(&format!("[Note{i} \"{}\"]\n", "x".repeat(500)));
        }
        record.push_str("d6 b4\n");
        let v = open(&record);
        assert!(v.verdict.as_ref().unwrap().ok);
        let facts = &v.game.as_ref().unwrap().facts;
        assert_eq!(facts.len(), 2 + 19 + 1, "{facts:?}");
        assert_eq!(facts[2].0, "Note0");
        assert_eq!(facts[2].1.get().chars().count(), 201);
        assert!(facts[2].1.get().ends_with('…'));
        assert_eq!(
            (facts[21].0.get(), facts[21].1.get()),
            (
                "…".to_string(),
                "131 autres en-têtes, non affichés".to_string()
            )
        );
        // A room of 120 games lists its first 50 and last 50, and says how many are left out.
        let mut net = Loopback::new(GameKind::Meta, 0);
        for _ in 0..119 {
            net.exchange(
                Seat::Host,
                Command::Propose(engine::session::Proposal::NewGame { max_turns: None }),
            );
            net.exchange(Seat::Guest, Command::Reply { accept: true });
        }
        let v = open(&net.host().export());
        assert!(v.verdict.as_ref().unwrap().ok);
        let games = &v.game.as_ref().unwrap().games;
        assert_eq!(games.len(), 101);
        assert!(games[0].get().starts_with("Partie 1 : "), "{}", games[0]);
        assert!(games[49].get().starts_with("Partie 50 : "), "{}", games[49]);
        assert_eq!(games[50], "… 20 autres parties, non affichées …");
        assert!(games[51].get().starts_with("Partie 71 : "), "{}", games[51]);
        assert!(
            games[100].get().starts_with("Partie 120 : ")
                && games[100].get().ends_with("en cours, 0 tours.")
        );
    }

    #[test]
    fn junk_of_any_size_gets_a_verdict() {
        let mut v = Viewer::default();
        v.update(Event::TooBig {
            bytes: 10_000_000,
            name: "junk.bin".into(),
        });
        assert!(v
            .verdict
            .as_ref()
            .unwrap()
            .text
            .get()
            .starts_with("Fichier refusé : 10,0 Mo, c'est plus que les 9 Mo"));
        // Rounded up: just over the limit never reads as the limit.
        assert_eq!(megabytes(MAX_BYTES + 1), "9,1");
        // A binary file of 5 MB, which the browser's decoding makes 9.1 MB of text: refused
        // as not text, with its own size never misread.
        let mut bin = Viewer::default();
        bin.update(Event::File {
            text: "\u{fffd}".repeat(3_033_334),
            name: "photo.jpg".into(),
            bytes: 5_000_000,
        });
        let verdict = bin.verdict.unwrap();
        assert!(!verdict.ok);
        assert_eq!(verdict.text, t::file_not_text());
        assert_eq!(bin.name.as_deref(), Some("photo.jpg"));
        // A file's own size decides, not its text's.
        let mut big = Viewer::default();
        big.update(Event::File {
            text: String::new(),
            name: "big.transcript".into(),
            bytes: MAX_BYTES + 1,
        });
        assert!(big.verdict.unwrap().text.get().contains("9,1 Mo"));
        for junk in [
            "",
            "   \n",
            "moulin-transcript v1\n",
            "moulin-transcript v1\nroom zz\n",
            "\u{fffd}\u{0}[[[",
            &"x".repeat(5_000_000),
        ] {
            let v = open(junk);
            assert!(!v.verdict.unwrap().ok, "{:?}", &junk[..junk.len().min(30)]);
        }
    }

    /// Every way a transcript or a record is refused reads in the page's language: never the
    /// engine's English message (the command line's), in either language.
    #[test]
    fn every_refusal_speaks_the_page_language() {
        use crate::i18n::{self, Lang};
        let text = played(GameKind::Morris, 100, 10).host().export();
        let lines: Vec<&str> = text.lines().collect();
        let with = |i: usize, line: &str| {
            let mut l = lines.clone();
            l[i] = line;
            l.join("\n") + "\n"
        };
        let mut copied = lines.clone();
        copied.insert(7, lines[6]);
        let meta = played(GameKind::Meta, 100, 4).host().export();
        let other = with(6, meta.lines().nth(6).unwrap());
        let transcripts = [
            text.trim_end().to_string(),
            text.replace("moulin-transcript v1", "moulin-transcript v1 "),
            with(1, "room zz"),
            with(2, "host zz"),
            with(3, "game chess"),
            with(2, &format!("host {}", "0".repeat(64))),
            with(6, "zz"),
            with(6, "00"),
            with(6, &lines[6].replace('a', "b")),
            copied.join("\n") + "\n",
            other,
            lines[..4].join("\n") + "\n",
            with(3, "game meta"),
        ];
        let records = [
            "[Game \"chess\"]\nd6\n",
            "[Game \"morris\"]\n[Game \"morris\"]\nd6\n",
            "[MaxTurns \"0\"]\n[Game \"morris\"]\nd6\n",
            "[Game \"meta\"]\n[MaxTurns \"9\"]\ne5\n",
            "[Rules \"\"]\nd6\n",
            "[Rules \"nine,,flying=0\"]\nd6\n",
            "[Rules \"flying=0,nine\"]\nd6\n",
            "[Rules \"nine,flying\"]\nd6\n",
            "[Rules \"nine,wings=1\"]\nd6\n",
            "[Rules \"nine,flying=0,flying=1\"]\nd6\n",
        ];
        // In French, no word of the engine's English message; in English, the page's own
        // words (which may be the engine's), never the French ones.
        let said = |lang, text: &str| {
            assert!(i18n::set(lang));
            open(text).verdict.unwrap().text.get()
        };
        for (i, t) in transcripts.iter().enumerate() {
            let e = transcript::verify(t).expect_err(&i.to_string());
            let fr = said(Lang::Fr, t);
            assert!(!fr.contains(&e.message), "{fr} ({e})");
            assert!(!fr.contains("entry 0") && !fr.contains("indice"), "{fr}");
            assert_ne!(said(Lang::En, t), fr);
        }
        for r in records {
            let Err(RecordError::Header(e)) = record::replay_all(r, None, None) else {
                panic!("{r:?} is refused by its headers");
            };
            let fr = said(Lang::Fr, r);
            assert!(!fr.contains(&e.message), "{fr} ({e})");
            assert_ne!(said(Lang::En, r), fr);
        }
        assert!(i18n::set(Lang::Fr));
    }
}
