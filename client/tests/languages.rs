//! The interface's languages (docs/architecture.md, « Languages »): every catalogue has every
//! text of the French one, with the same placeholders; the code has no words of its own; and
//! the page's titles and texts follow the language.

use client::i18n::catalogue::{self, Entry};
use client::i18n::{self, t, Lang};
use client::ui::Route;
use engine::GameKind;
use std::path::{Path, PathBuf};

fn read(lang: &str) -> Vec<Entry> {
    let path = format!("{}/i18n/{lang}.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    catalogue::parse(&path, &text).unwrap()
}

#[test]
fn every_language_has_every_french_text_with_the_same_placeholders() {
    let fr = read("fr");
    assert!(
        fr.len() > 300,
        "the French catalogue has {} texts",
        fr.len()
    );
    let en = read("en");
    catalogue::compare(&fr, "en.txt", &en).unwrap();
    // The same text in both languages is a name (« Méta Morpion » is not one: it is translated),
    // a code, or a forgotten translation: only these few are allowed.
    let same: Vec<&str> = fr
        .iter()
        .zip(&en)
        .filter(|(f, e)| f.value == e.value)
        .map(|(f, _)| f.key.as_str())
        .collect();
    assert!(same.len() < 12, "texts left untranslated: {same:?}");
}

#[test]
fn the_check_finds_a_missing_key_a_moved_key_and_a_lost_placeholder() {
    let fr = read("fr");
    let mut en = read("en");
    let missing = en.remove(40);
    let e = catalogue::compare(&fr, "en.txt", &en).unwrap_err();
    assert!(e.contains(&fr[40].key), "{e}");
    en.insert(40, missing);
    en.swap(10, 11);
    assert!(catalogue::compare(&fr, "en.txt", &en).is_err());
    en.swap(10, 11);
    let i = fr.iter().position(|e| e.value.contains('{')).unwrap();
    en[i].value = en[i].value.replace('{', "(").replace('}', ")");
    let e = catalogue::compare(&fr, "en.txt", &en).unwrap_err();
    assert!(e.contains("placeholders"), "{e}");
    assert!(catalogue::parse("x", "[common]\na = {b\n").is_err());
    assert!(catalogue::parse("x", "[common]\na = b\na = c\n").is_err());
    assert!(catalogue::parse("x", "a = b\n").is_err());
    assert!(catalogue::parse("x", "[common]\nA = b\n").is_err());
}

/// The words of a literal, if it has French words in it.
fn french(literal: &str) -> bool {
    const WORDS: [&str; 16] = [
        "le", "la", "les", "un", "une", "des", "du", "de", "est", "vous", "votre", "pas", "pour",
        "sur", "avec", "dans",
    ];
    // Words no English text or code name has: one is enough.
    const FRENCH: [&str; 16] = [
        "vous",
        "votre",
        "adversaire",
        "croix",
        "rond",
        "partie",
        "salon",
        "pion",
        "pions",
        "grille",
        "grilles",
        "joueur",
        "coup",
        "nulle",
        "bleu",
        "rouge",
    ];
    let words = || literal.split(|c: char| !c.is_alphabetic());
    literal.chars().any(|c| "àâçéèêëîïôûùüÿœ«»’".contains(c))
        // Paths and file names (`/partie`, `moulin-…-partie-1.txt`) are names, not words.
        || (!literal.contains(['/', '-'])
            && words().any(|w| FRENCH.contains(&w.to_lowercase().as_str())))
        || words().filter(|w| WORDS.contains(w)).count() >= 2
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The string literals of a source file outside its comments and its tests.
fn literals(src: &str) -> Vec<(usize, String)> {
    let code = src.split("#[cfg(test)]").next().unwrap_or(src);
    let mut out = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let line = line.trim_start();
        if line.starts_with("//") {
            continue;
        }
        let mut rest = line;
        while let Some(start) = rest.find('"') {
            let after = &rest[start + 1..];
            let mut end = None;
            let mut escaped = false;
            for (i, c) in after.char_indices() {
                match c {
                    '\\' if !escaped => escaped = true,
                    '"' if !escaped => {
                        end = Some(i);
                        break;
                    }
                    _ => escaped = false,
                }
            }
            let Some(end) = end else { break };
            out.push((n + 1, after[..end].to_string()));
            rest = &after[end + 1..];
        }
    }
    out
}

#[test]
fn the_code_has_no_words_of_its_own() {
    let mut files = Vec::new();
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("net/src"),
        &mut files,
    );
    let mut found = Vec::new();
    for file in &files {
        if file.ends_with("tests.rs") {
            continue;
        }
        let src = std::fs::read_to_string(file).unwrap();
        for (line, literal) in literals(&src) {
            if french(&literal) {
                found.push(format!("{}:{line}: {literal:?}", file.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "words outside the catalogues:\n{}",
        found.join("\n")
    );
    // The check itself finds them.
    assert!(french("Ce point est déjà occupé."));
    assert!(french("la partie est pour vous"));
    assert!(french(" · adversaire"));
    assert!(!french("data-point"));
}

#[test]
fn the_pages_titles_follow_the_language() {
    let routes = [
        Route::Home,
        Route::Morris,
        Route::Computer(GameKind::Meta),
        Route::Room(GameKind::Morris),
        Route::Viewer,
        Route::Watch(GameKind::Meta),
    ];
    let titles = |lang| {
        assert!(i18n::set(lang));
        routes.map(Route::title)
    };
    let fr = titles(Lang::Fr);
    let en = titles(Lang::En);
    assert_eq!(fr[1], "Jeu du moulin — deux joueurs");
    assert_eq!(en[1], "Nine Men's Morris — two players");
    assert_eq!(en[2], "Ultimate tic-tac-toe — against the computer");
    for (f, e) in fr.iter().zip(&en) {
        assert_ne!(f, e);
    }
    i18n::set(Lang::Fr);
}

#[test]
fn a_morris_heading_counts_the_pieces_in_english_and_not_in_french() {
    use client::model::text::{heading_name, morris_name};
    use engine::morris::{Param, Rules};
    let eleven = Rules::NINE.with(Param::Pieces, 11).unwrap();
    i18n::set(Lang::En);
    assert_eq!(morris_name(Rules::NINE), "Nine Men's Morris");
    assert_eq!(morris_name(Rules::GUR9), "Nine Men's Morris");
    assert_eq!(morris_name(Rules::LASKER), "Ten Men's Morris");
    assert_eq!(morris_name(eleven), "Eleven Men's Morris");
    assert_eq!(morris_name(Rules::TWELVE), "Twelve Men's Morris");
    // A room's heading before its rules are known, and the other game's.
    assert_eq!(heading_name(GameKind::Morris, None), "Nine Men's Morris");
    assert_eq!(
        heading_name(GameKind::Morris, Some(Rules::TWELVE)),
        "Twelve Men's Morris"
    );
    assert_eq!(
        heading_name(GameKind::Meta, Some(Rules::TWELVE)),
        "Ultimate tic-tac-toe"
    );
    i18n::set(Lang::Fr);
    for rules in [Rules::NINE, Rules::LASKER, eleven, Rules::TWELVE] {
        assert_eq!(morris_name(rules), "Jeu du moulin");
    }
}

#[test]
fn counts_take_the_plural_of_each_language() {
    use client::model::text::boards_won;
    i18n::set(Lang::Fr);
    assert_eq!(boards_won(1), "1 grille gagnée");
    assert_eq!(boards_won(2), "2 grilles gagnées");
    i18n::set(Lang::En);
    assert_eq!(boards_won(0), "No board won");
    assert_eq!(boards_won(1), "1 board won");
    assert_eq!(boards_won(3), "3 boards won");
    assert_eq!(t::player_red(), "Red");
    i18n::set(Lang::Fr);
}

#[test]
fn a_catalogue_of_another_build_is_refused_and_the_texts_stay() {
    i18n::set(Lang::Fr);
    assert!(i18n::install(Lang::En, "one\ntwo\n".to_string()).is_err());
    assert_eq!(t::player_blue(), "Bleu");
    assert_eq!(
        i18n::expected_len(),
        read("fr").iter().filter(|e| e.section != "page").count()
    );
}

/// What `scripts/catalogue.awk` prints for `lang`'s sections `want` (with `json`, as the inside
/// of a JSON object).
fn awk(lang: &str, want: &str, json: bool) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = std::process::Command::new("awk")
        .arg("-v")
        .arg(format!("want= {want} "))
        .arg("-v")
        .arg(format!("json={}", u8::from(json)))
        .arg("-f")
        .arg(root.join("scripts/catalogue.awk"))
        .arg(root.join(format!("client/i18n/{lang}.txt")))
        .output()
        .expect("awk runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_build_script_reads_the_catalogues_as_the_client_does() {
    // scripts/build-client.sh writes each bundle's texts with catalogue.awk; the client numbers
    // them with catalogue.rs (client/build.rs). Both must read every line the same way.
    for lang in ["fr", "en"] {
        let entries = read(lang);
        for (bundle, own) in [("client", "local"), ("remote", "room")] {
            let expected: Vec<&str> = entries
                .iter()
                .filter(|e| e.section == "common" || e.section == own)
                .map(|e| e.value.as_str())
                .collect();
            let printed = awk(lang, &format!("common {own}"), false);
            assert_eq!(
                printed.lines().collect::<Vec<_>>(),
                expected,
                "{lang}, {bundle}"
            );
        }
        let page: Vec<String> = entries
            .iter()
            .filter(|e| e.section == "page")
            .map(|e| {
                let text = e
                    .value
                    .replace('\\', "\\\\")
                    .replace('"', "\\\"")
                    .replace('<', "\\u003c");
                format!("\"{}\":\"{text}\"", e.key)
            })
            .collect();
        assert!(!page.is_empty(), "{lang}: index.html has texts");
        assert_eq!(awk(lang, "page", true), page.join(","), "{lang}, page");
    }
}
