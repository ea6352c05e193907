//! Checks the language catalogues (`i18n/*.txt`) against the French one and writes their
//! accessors, `i18n::t::<key>()`, one function per text: a text whose key the code names exists
//! in every language with the placeholders the function takes, or the build fails here.

#[path = "i18n/catalogue.rs"]
#[allow(dead_code)]
mod catalogue;

use std::fmt::Write;
use std::path::Path;

/// Every catalogue, the reference (French) first.
const LANGUAGES: [&str; 2] = ["fr", "en"];

/// The sections the code reads, in order, and the features of the bundles that carry each (the
/// `page` section is index.html's own: scripts/build-client.sh puts it there).
const SECTIONS: [(&str, Option<&str>); 3] = [
    ("common", None),
    ("local", Some("feature = \"local\"")),
    (
        "room",
        Some("any(feature = \"remote\", feature = \"watch\", feature = \"paired\")"),
    ),
];

fn main() {
    let catalogues = read_catalogues();
    let (_, reference) = &catalogues[0];
    for (path, entries) in &catalogues[1..] {
        if let Err(e) = catalogue::compare(reference, path, entries) {
            panic!("{e}");
        }
    }
    let out = accessors(&in_sections(reference));
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("texts.rs");
    std::fs::write(dest, out).unwrap();
}

/// Every catalogue, in the order of [`LANGUAGES`], with its path; each one rebuilds the crate
/// when it changes.
fn read_catalogues() -> Vec<(String, Vec<catalogue::Entry>)> {
    let mut catalogues = Vec::new();
    for lang in LANGUAGES {
        let path = format!("i18n/{lang}.txt");
        println!("cargo::rerun-if-changed={path}");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let entries = catalogue::parse(&path, &text).unwrap_or_else(|e| panic!("{e}"));
        catalogues.push((path, entries));
    }
    println!("cargo::rerun-if-changed=i18n/catalogue.rs");
    catalogues
}

/// The reference's texts the code reads (all but the `page` section), each with its section's
/// index in [`SECTIONS`]; a text outside those sections, or out of their order, fails the build.
fn in_sections(reference: &[catalogue::Entry]) -> Vec<(usize, &catalogue::Entry)> {
    let mut order = Vec::new();
    for e in reference {
        if e.section == "page" {
            continue;
        }
        let Some(rank) = SECTIONS.iter().position(|(s, _)| *s == e.section) else {
            panic!(
                "i18n/fr.txt, line {}: no section « {} » (page, common, local, room)",
                e.line, e.section
            );
        };
        if order.last().is_some_and(|(r, _)| *r > rank) {
            panic!(
                "i18n/fr.txt, line {}: the sections go common, local, room",
                e.line
            );
        }
        order.push((rank, e));
    }
    order
}

/// The generated code: the sections' sizes, then module `t` with one accessor per text.
fn accessors(order: &[(usize, &catalogue::Entry)]) -> String {
    let mut out = String::new();
    let count = |rank| order.iter().filter(|(r, _)| *r == rank).count();
    writeln!(
        out,
        "/// How many texts each section has: common, local, room."
    )
    .unwrap();
    writeln!(
        out,
        "pub const SECTION_SIZES: [usize; 3] = [{}, {}, {}];",
        count(0),
        count(1),
        count(2)
    )
    .unwrap();
    writeln!(out, "/// How many texts the catalogues have, all sections.").unwrap();
    writeln!(out, "pub const TOTAL: usize = {};", order.len()).unwrap();
    writeln!(out, "/// One function per text of the catalogues (`client/i18n/fr.txt`), in the current language.").unwrap();
    writeln!(out, "pub mod t {{").unwrap();
    writeln!(
        out,
        "    #[allow(unused_imports)]\n    use super::{{fill, get}};"
    )
    .unwrap();
    for (index, (rank, e)) in order.iter().enumerate() {
        accessor(&mut out, index, *rank, e);
    }
    writeln!(out, "}}").unwrap();
    out
}

/// The accessor of the text at `index`: its French text as documentation, the feature of its
/// section, and a function that returns it — or fills its placeholders, one argument each.
fn accessor(out: &mut String, index: usize, rank: usize, e: &catalogue::Entry) {
    let names = catalogue::placeholders(&e.value).unwrap();
    writeln!(
        out,
        "    /// « {} »",
        e.value.replace('[', "\\[").replace(']', "\\]")
    )
    .unwrap();
    if let Some(features) = SECTIONS[rank].1 {
        writeln!(out, "    #[cfg({features})]").unwrap();
    }
    if names.is_empty() {
        writeln!(
            out,
            "    #[inline]\n    pub fn {}() -> &'static str {{\n        get({index})\n    }}",
            e.key
        )
        .unwrap();
    } else {
        // Raw identifiers: a placeholder may be named `move`.
        let params: Vec<String> = names.iter().map(|n| format!("r#{n}: &str")).collect();
        let quoted: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
        writeln!(
            out,
            "    pub fn {}({}) -> String {{\n        fill(get({index}), &[{}], &[{}])\n    }}",
            e.key,
            params.join(", "),
            quoted.join(", "),
            names
                .iter()
                .map(|n| format!("r#{n}"))
                .collect::<Vec<_>>()
                .join(", ")
        )
        .unwrap();
    }
}
