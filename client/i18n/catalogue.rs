//! Reading the language catalogues (`client/i18n/<lang>.txt`), shared by the client's build
//! script (which checks them and writes the accessors in `i18n::t`) and the client's tests.
//!
//! A catalogue is lines of text. `# …` lines and blank lines are comments; `[name]` starts a
//! section; every other line is `key = value`. Keys are snake_case Rust identifiers, unique
//! across the file. A value is one line of text; `{name}` in it is a placeholder the code fills
//! in. Every language lists the same sections and the same keys in the same order, with the
//! same placeholders in each value (docs/architecture.md, « Languages »).

use std::collections::BTreeSet;

/// One `key = value` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The section it is in.
    pub section: String,
    /// Its key.
    pub key: String,
    /// Its text.
    pub value: String,
    /// Its line number (from 1).
    pub line: usize,
}

/// Reads a catalogue, or says what is wrong with it and where.
pub fn parse(name: &str, text: &str) -> Result<Vec<Entry>, String> {
    let mut section = None::<String>;
    let mut entries = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let at = |why: &str| format!("{name}, line {}: {why}: {raw}", i + 1);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(s) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            if !is_identifier(s) {
                return Err(at("a section is [a_name]"));
            }
            section = Some(s.to_string());
            continue;
        }
        let Some(section) = &section else {
            return Err(at("an entry before any [section]"));
        };
        let Some((key, value)) = line.split_once('=') else {
            return Err(at("expected « key = value »"));
        };
        let (key, value) = (key.trim(), value.trim());
        if !is_identifier(key) {
            return Err(at("a key is a snake_case identifier"));
        }
        if value.is_empty() {
            return Err(at("an empty text"));
        }
        if !seen.insert(key.to_string()) {
            return Err(at("a key given twice"));
        }
        placeholders(value).map_err(|e| at(&e))?;
        entries.push(Entry {
            section: section.clone(),
            key: key.to_string(),
            value: value.to_string(),
            line: i + 1,
        });
    }
    Ok(entries)
}

/// The placeholders of a value, in order of first appearance, or why the braces are wrong.
pub fn placeholders(value: &str) -> Result<Vec<String>, String> {
    let mut names: Vec<String> = Vec::new();
    let mut rest = value;
    while let Some(open) = rest.find(['{', '}']) {
        if rest[open..].starts_with('}') {
            return Err("a « } » without its « { »".to_string());
        }
        let after = &rest[open + 1..];
        let close = after.find('}').ok_or("a « { » without its « } »")?;
        let name = &after[..close];
        if !is_identifier(name) {
            return Err(format!("« {{{name}}} » is not a placeholder"));
        }
        if !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
        rest = &after[close + 1..];
    }
    Ok(names)
}

/// Checks a translation against the reference catalogue: the same sections and keys in the same
/// order, each value with the same placeholders.
pub fn compare(reference: &[Entry], name: &str, other: &[Entry]) -> Result<(), String> {
    for (i, r) in reference.iter().enumerate() {
        let Some(o) = other.get(i) else {
            return Err(format!("{name}: « {} » ({}) is missing", r.key, r.section));
        };
        if (&o.section, &o.key) != (&r.section, &r.key) {
            return Err(format!(
                "{name}, line {}: « {} » ({}) where the reference has « {} » ({}): the same keys \
                 in the same order",
                o.line, o.key, o.section, r.key, r.section
            ));
        }
        let (mut a, mut b) = (placeholders(&r.value)?, placeholders(&o.value)?);
        a.sort();
        b.sort();
        if a != b {
            return Err(format!(
                "{name}, line {}: « {} » has the placeholders {b:?}, the reference {a:?}",
                o.line, o.key
            ));
        }
    }
    if let Some(extra) = other.get(reference.len()) {
        return Err(format!(
            "{name}, line {}: « {} » is not in the reference",
            extra.line, extra.key
        ));
    }
    Ok(())
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}
