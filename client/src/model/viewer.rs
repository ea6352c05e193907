//! `/partie`, the game viewer, as a model: it opens a record (`.txt`, with or without headers) or
//! a signed transcript (`.transcript`, as « Exporter la partie » writes it), checks it with the
//! engine — a transcript with `engine::session::transcript::verify`, the very code of
//! `engine verify` — says plainly what it found, and steps through the game like a finished
//! one. Any input gives a verdict: too big, not text, not a game, the first bad entry or token.
//!
//! ```
//! use client::model::viewer::{Event, Viewer};
//!
//! let mut v = Viewer::default();
//! v.update(Event::Open { text: "[Game \"meta\"]\ne5 e5\n".into(), name: None });
//! let verdict = v.verdict.clone().unwrap();
//! assert!(!verdict.ok);
//! assert!(verdict.text.contains("« e5 »"), "{}", verdict.text);
//! ```

use super::history::{Browse, HistoryView, Nav};
use super::text;
use engine::record::{self, RecordError, Setup, TokenErrorKind};
use engine::session::transcript::{self, Verified};
use engine::session::{Ending, Finish, Seat};
use engine::{AnyGame, GameKind, Player};

/// The largest file the viewer reads (bytes): checked before reading, so that a huge file is
/// refused at once. A 500-turn Morris transcript is about 0.3 MB.
pub const MAX_BYTES: u64 = 4_000_000;

/// What the page reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A file's text, or the pasted text, or the record of the URL.
    Open {
        /// The text.
        text: String,
        /// The file's name.
        name: Option<String>,
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

/// The verdict: checked, or why not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Every signature, link and move (a transcript) or every move (a record) is valid.
    pub ok: bool,
    /// A signed transcript (else a record, or something that is neither).
    pub transcript: bool,
    /// What it says, in French.
    pub text: String,
}

/// A game opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The start, then the position after each turn.
    pub positions: Vec<AnyGame>,
    /// The turns in notation.
    pub turns: Vec<String>,
    /// What the file says of itself: the headers, or the room's keys and rules.
    pub facts: Vec<(String, String)>,
    /// A transcript: each game of the room, with its result and why.
    pub games: Vec<String>,
}

/// The viewer's whole state.
#[derive(Clone, Debug, PartialEq, Eq)]
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
        }
    }
}

impl Viewer {
    /// Takes one event.
    pub fn update(&mut self, event: Event) {
        match event {
            Event::Open { text, name } => {
                self.name = name;
                self.open(&text);
            }
            Event::TooBig { bytes, name } => {
                self.name = Some(name);
                self.refuse(
                    false,
                    format!(
                        "Fichier refusé : {} Mo, c'est trop pour une partie (au plus {} Mo). Ce n'est sans doute pas un transcript ni une notation.",
                        megabytes(bytes),
                        megabytes(MAX_BYTES)
                    ),
                );
            }
            Event::Unreadable(name) => {
                self.name = Some(name);
                self.refuse(false, "Ce fichier n'a pas pu être lu.".into());
            }
            Event::Kind(kind) => {
                self.kind = kind;
                if let Some(text) = self.unnamed.take() {
                    self.open(&text);
                }
            }
            Event::History(nav) => {
                if let Some(g) = &self.game {
                    self.browse.go(nav, g.turns.len(), false);
                }
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
        Some(HistoryView::new(&g.turns, None, self.browse))
    }

    fn refuse(&mut self, transcript: bool, text: String) {
        self.game = None;
        self.browse = Browse::default();
        self.verdict = Some(Verdict {
            ok: false,
            transcript,
            text,
        });
    }

    fn open(&mut self, text: &str) {
        self.unnamed = None;
        self.browse = Browse::default();
        if text.len() as u64 > MAX_BYTES {
            return self.update(Event::TooBig {
                bytes: text.len() as u64,
                name: self.name.clone().unwrap_or_default(),
            });
        }
        if text.trim().is_empty() {
            return self.refuse(false, "Rien à lire : le texte est vide.".into());
        }
        if text.starts_with("moulin-transcript") {
            self.open_transcript(text)
        } else {
            self.open_record(text)
        }
    }

    fn open_record(&mut self, text: &str) {
        let setup = match Setup::read(text) {
            Ok(s) => s,
            Err(e) => return self.refuse(false, header_refusal(&e)),
        };
        let given = setup.game.is_none().then_some(self.kind);
        let r = match record::replay_all(text, given, None) {
            Ok(r) => r,
            Err(RecordError::Header(e)) => return self.refuse(false, header_refusal(&e)),
            Err(RecordError::Token(e)) => {
                let kind = setup.game.map_or(self.kind, |(k, _)| k);
                let why = match e.kind {
                    TokenErrorKind::Parse(_) => {
                        format!("ce n'est pas la notation d'un tour {}", game_of(kind))
                    }
                    TokenErrorKind::Illegal(i) => {
                        let why = match kind {
                            GameKind::Morris => text::morris_refusal(i),
                            GameKind::Meta => text::meta_refusal(i, None),
                        };
                        why.trim_end_matches('.').to_lowercase()
                    }
                };
                let token: String = e.token.chars().take(40).collect();
                return self.refuse(
                    false,
                    format!(
                        "Notation refusée : le tour n° {} (indice {}), « {token} », est illégal : {why}.",
                        e.index + 1,
                        e.index
                    ),
                );
            }
        };
        if given.is_some() {
            self.unnamed = Some(text.to_string());
        }
        let kind = r.positions[0].kind();
        let mut facts = vec![("Jeu".to_string(), game_name(kind).to_string())];
        if setup.game.is_none() {
            facts[0]
                .1
                .push_str(" (choisi ci-dessous : la notation ne le dit pas)");
        }
        for (name, value) in &setup.all {
            let label = match name.as_str() {
                "Game" => continue,
                "MaxTurns" => "Limite de tours",
                "Blue" => "Bleu",
                "Red" => "Rouge",
                "Date" => "Date",
                "Result" => "Résultat",
                "Reason" => "Raison",
                other => other,
            };
            facts.push((label.to_string(), value.clone()));
        }
        let n = r.tokens.len();
        let end = r.positions.last().and_then(AnyGame::outcome);
        self.game = Some(Game {
            positions: r.positions,
            turns: r.tokens,
            facts,
            games: Vec::new(),
        });
        self.verdict = Some(Verdict {
            ok: true,
            transcript: false,
            text: format!(
                "Notation valide : chacun des {n} tours est légal{}. (Une notation n'est pas signée : seul un transcript prouve qui a joué.)",
                match end {
                    Some(o) => format!(" ; {}", text::result(o, 0).to_lowercase()),
                    None => String::new(),
                }
            ),
        });
    }

    fn open_transcript(&mut self, text: &str) {
        let v = match transcript::verify(text) {
            Ok(v) => v,
            Err(e) => {
                return self.refuse(
                    true,
                    format!(
                        "Transcript refusé : l'entrée {} est invalide ({}). Il a été modifié, abîmé ou mis dans le désordre : rien de ce qu'il dit ne peut être cru.",
                        e.entry, e.message
                    ),
                )
            }
        };
        let Some(table) = v.room.table() else {
            return self.refuse(
                true,
                "Transcript refusé : il ne contient aucune partie.".into(),
            );
        };
        let turns: Vec<String> = table.turns().iter().map(|t| t.to_string()).collect();
        let positions = (0..=turns.len())
            .map(|i| table.position(i).clone())
            .collect();
        let (facts, games) = room_story(&v);
        self.verdict = Some(match v.faults.first() {
            None => Verdict {
                ok: true,
                transcript: true,
                text: "Transcript vérifié : chaque signature, chaque lien et chaque coup sont valides."
                    .into(),
            },
            Some(f) => Verdict {
                ok: false,
                transcript: true,
                text: format!(
                    "Transcript authentique, mais {} ({}) a signé l'entrée {}, qui enfreint les règles ({}).",
                    seat_name(f.seat),
                    text::player_name(f.player),
                    f.entry,
                    f.why
                ),
            },
        });
        self.game = Some(Game {
            positions,
            turns,
            facts,
            games,
        });
    }
}

fn megabytes(bytes: u64) -> String {
    format!("{:.1}", bytes as f64 / 1e6).replace('.', ",")
}

fn header_refusal(e: &record::HeaderError) -> String {
    match e.line {
        0 => "Notation refusée : elle ne dit pas à quel jeu elle appartient.".into(),
        l => format!(
            "Notation refusée : l'en-tête de la ligne {l} ne va pas ({}).",
            e.message
        ),
    }
}

fn game_name(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Morris => "Jeu du moulin",
        GameKind::Meta => "Méta Morpion",
    }
}

fn game_of(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Morris => "du jeu du moulin",
        GameKind::Meta => "du Méta Morpion",
    }
}

fn seat_name(seat: Seat) -> &'static str {
    match seat {
        Seat::Host => "l'hôte",
        Seat::Guest => "l'invité",
    }
}

/// The keys (short fingerprints), the game and its rules, and one line per game of the room.
fn room_story(v: &Verified) -> (Vec<(String, String)>, Vec<String>) {
    let mut facts = vec![(
        "Hôte".to_string(),
        format!("clé {}", transcript::fingerprint(&v.host_key)),
    )];
    facts.push((
        "Invité".to_string(),
        v.guest_key.map_or("pas encore arrivé".to_string(), |k| {
            format!("clé {}", transcript::fingerprint(&k))
        }),
    ));
    for h in &v.handovers {
        facts.push((
            format!("Changement d'appareil (entrée {})", h.entry),
            format!(
                "{} : nouvelle clé {}",
                seat_name(h.seat),
                transcript::fingerprint(&h.key)
            ),
        ));
    }
    if let Some(rules) = v.room.rules {
        facts.push(("Jeu".to_string(), game_name(rules.kind()).to_string()));
        facts.push((
            "Règles".to_string(),
            match rules.kind() {
                GameKind::Morris => format!("limite de {} tours", rules.max_turns),
                GameKind::Meta => "sans option".to_string(),
            },
        ));
    }
    let games = v.room.games();
    let last = games.len().saturating_sub(1);
    let lines = games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let colours = format!(
                "l'hôte joue {}, l'invité {}",
                text::colour(g.host),
                text::colour(g.host.opponent())
            );
            let result = match g.result {
                None if i < last => "remplacée par une nouvelle partie avant sa fin".to_string(),
                None => "en cours".to_string(),
                Some((winner, finish)) => {
                    let who = winner.map_or("partie nulle".to_string(), |w: Player| {
                        format!("{} gagne", text::player_name(w))
                    });
                    format!("{who} ({})", finish_text(finish))
                }
            };
            format!(
                "Partie {} : {colours} — {result}, {} tours.",
                g.number + 1,
                g.turns
            )
        })
        .collect();
    (facts, lines)
}

fn finish_text(f: Finish) -> &'static str {
    use engine::Reason;
    match f {
        Finish::Rules(Reason::Pieces) => "moins de trois pions",
        Finish::Rules(Reason::Blocked) => "plus aucun coup possible",
        Finish::Rules(Reason::Repetition) => "troisième répétition",
        Finish::Rules(Reason::Limit) => "limite de tours",
        Finish::Rules(Reason::Line) => "trois grilles alignées",
        Finish::Rules(Reason::AllClosed) => "toutes les grilles fermées",
        Finish::Ending(Ending::Resigned(_)) => "abandon",
        Finish::Ending(Ending::DrawAgreed) => "nulle acceptée",
        Finish::Ending(Ending::Claimed(_)) => "victoire revendiquée",
        Finish::Ending(Ending::Left(_)) => "départ du salon",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::session::{Command, Loopback, Step};

    fn played(kind: GameKind, max: u16, n: usize) -> Loopback {
        let mut net = Loopback::new(kind, max);
        for i in 0..n {
            let Some(seat) = net.mover() else { break };
            let steps = Step::legal(net.host().game().unwrap());
            net.exchange(seat, Command::Play(steps[(i * 7 + 3) % steps.len()]));
        }
        net
    }

    fn open(text: &str) -> Viewer {
        let mut v = Viewer::default();
        v.update(Event::Open {
            text: text.into(),
            name: None,
        });
        v
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
        assert_eq!(g.facts[0], ("Hôte".to_string(), format!("clé {host}")));
        assert!(g
            .facts
            .iter()
            .any(|(k, v)| k == "Règles" && v == "limite de 100 tours"));
        assert_eq!(g.games.len(), 1);
        assert!(
            g.games[0].starts_with("Partie 1 : l'hôte joue bleu, l'invité rouge — "),
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
        // One byte of entry 5 (file line 4 + 5).
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
                .starts_with("Transcript refusé : l'entrée 5 est invalide"),
            "{}",
            verdict.text
        );
        assert_eq!(v.game, None);
        // Entries 6 and 7 swapped.
        let mut swapped = lines.clone();
        swapped.swap(10, 11);
        let verdict = open(&(swapped.join("\n") + "\n")).verdict.unwrap();
        assert!(!verdict.ok);
        assert!(
            verdict
                .text
                .starts_with("Transcript refusé : l'entrée 6 est invalide"),
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
            "Notation refusée : le tour n° 3 (indice 2), « d6 », est illégal : ce point est déjà occupé."
        );
        let verdict = open("d6 zz9").verdict.unwrap();
        assert!(
            verdict.text.contains("« zz9 »") && verdict.text.contains("indice 1"),
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
        assert!(verdict.text.contains("ligne 2"), "{}", verdict.text);
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
            .starts_with("Fichier refusé : 10,0 Mo"));
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
}
