//! The interface's languages: French (the default) and English.
//!
//! Every text the pages show is in the catalogues `client/i18n/fr.txt` and `client/i18n/en.txt`
//! (same keys, same order, same placeholders: the build checks them), never in the code, which
//! names a text by its key: [`t::status_suspended()`](t), or with its placeholders filled in,
//! `t::result_pieces(winner, loser)`. The build script writes one function per key.
//!
//! The texts are not compiled into the wasm: each bundle's page fetches its catalogue, one text
//! per line in the keys' order (`scripts/build-client.sh` writes them from the sources), and
//! [`install`]s it before the app starts; switching language installs the other's
//! (docs/architecture.md, « Languages »). Native builds (the tests) read the sources directly.
//!
//! ```
//! use client::i18n::{self, t, Lang};
//!
//! assert_eq!(t::player_blue(), "Bleu");
//! i18n::set(Lang::En);
//! assert_eq!(t::player_blue(), "Blue");
//! assert_eq!(t::result_blocked("Blue", "Red"), "Blue wins: Red is blocked.");
//! ```

use std::cell::Cell;
use std::fmt;
use std::rc::Rc;

include!(concat!(env!("OUT_DIR"), "/texts.rs"));

/// A language of the interface.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    /// Français, the default.
    #[default]
    Fr,
    /// English.
    En,
}

impl Lang {
    /// Both, French first.
    pub const ALL: [Lang; 2] = [Lang::Fr, Lang::En];

    /// Its code: `fr`, `en` (`<html lang>`, `localStorage` « moulin-lang-v1 »).
    pub fn code(self) -> &'static str {
        match self {
            Lang::Fr => "fr",
            Lang::En => "en",
        }
    }

    /// The language of a code, if it is one of ours.
    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.code() == code)
    }

    /// Whether a count takes the singular: « 0 pion » and « 1 pion » in French, « 1 piece » only
    /// in English.
    pub fn singular(self, n: u64) -> bool {
        match self {
            Lang::Fr => n <= 1,
            Lang::En => n == 1,
        }
    }
}

/// Words kept to be shown later — a notice, a refusal — in the language of the moment they are
/// shown: a switch of language rewords what the page already says.
#[derive(Clone)]
pub struct Text(Rc<dyn Fn() -> String>);

impl Text {
    /// The words `words` makes, each time they are shown.
    pub fn new(words: impl Fn() -> String + 'static) -> Text {
        Text(Rc::new(words))
    }

    /// A text of the catalogue, without placeholders (`Text::of(t::status_suspended)`).
    pub fn of(text: fn() -> &'static str) -> Text {
        Text::new(move || text().to_string())
    }

    /// The words, in the current language.
    pub fn get(&self) -> String {
        (self.0)()
    }
}

/// Two texts are equal when they say the same now.
impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        Rc::ptr_eq(&self.0, &other.0) || self.get() == other.get()
    }
}

impl Eq for Text {}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.get() == *other
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.get())
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Text({:?})", self.get())
    }
}

/// The number of texts a catalogue of this bundle has: the common ones and the bundle's own.
pub fn expected_len() -> usize {
    let [common, local, room] = SECTION_SIZES;
    common
        + if cfg!(feature = "local") { local } else { 0 }
        + if cfg!(any(
            feature = "remote",
            feature = "watch",
            feature = "paired"
        )) {
            room
        } else {
            0
        }
}

/// The texts of one language by their keys' index (a bundle without a section leaves its
/// texts empty).
type Table = [&'static str; TOTAL];

/// The texts before any catalogue is installed.
const EMPTY: &Table = &[""; TOTAL];

thread_local! {
    static LANG: Cell<Lang> = const { Cell::new(Lang::Fr) };
    /// The current language's texts.
    static CURRENT: Cell<&'static Table> = const { Cell::new(EMPTY) };
    /// The installed catalogues, French's then English's.
    static TABLES: [Cell<Option<&'static Table>>; 2] = const { [Cell::new(None), Cell::new(None)] };
}

/// Installs a language's catalogue as this bundle's page fetched it: one text per line, the
/// common section's then the bundle's own, in the keys' order. Refused (the current texts stay)
/// when its length is not this build's.
pub fn install(lang: Lang, catalogue: String) -> Result<(), String> {
    let count = catalogue.lines().count();
    if count != expected_len() {
        return Err(format!(
            "the {} catalogue has {count} texts where this build has {}",
            lang.code(),
            expected_len()
        ));
    }
    // A page installs each language once at most: its texts live as long as the page.
    let catalogue: &'static str = String::leak(catalogue);
    let [common, local, _] = SECTION_SIZES;
    let own = if cfg!(feature = "local") {
        common
    } else {
        common + local
    };
    let mut table = Box::new([""; TOTAL]);
    for (i, text) in catalogue.lines().enumerate() {
        table[if i < common { i } else { own + i - common }] = text;
    }
    TABLES.with(|all| all[lang as usize].set(Some(Box::leak(table))));
    Ok(())
}

/// Whether a language's catalogue is installed.
pub fn installed(lang: Lang) -> bool {
    table(lang).is_some()
}

fn table(lang: Lang) -> Option<&'static Table> {
    #[cfg(not(target_arch = "wasm32"))]
    install_sources(lang);
    TABLES.with(|all| all[lang as usize].get())
}

/// The current language.
pub fn lang() -> Lang {
    LANG.with(Cell::get)
}

/// Makes `lang` the current language; false (nothing changes) when its catalogue is not
/// installed.
pub fn set(lang: Lang) -> bool {
    let Some(table) = table(lang) else {
        return false;
    };
    LANG.with(|c| c.set(lang));
    CURRENT.with(|c| c.set(table));
    true
}

/// A text of the current language by its index (`t`'s functions call this).
#[inline(always)]
fn get(index: usize) -> &'static str {
    slot(index)
}

/// Where the text of an index is. Not inlined: hundreds of places call it; and a thin pointer,
/// not the text: one value to return, where a `&str` is two, written to memory by the callee
/// and read back by each caller (measured: the smaller bundles).
#[inline(never)]
fn slot(index: usize) -> &'static &'static str {
    #[cfg(not(target_arch = "wasm32"))]
    if std::ptr::eq(CURRENT.with(Cell::get), EMPTY) {
        set(lang());
    }
    &CURRENT.with(Cell::get)[index]
}

/// A text with its placeholders (`{name}`) replaced by the values of the same rank in `names`.
#[inline(never)]
fn fill(text: &str, names: &[&str], values: &[&str]) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let close = after.find('}').unwrap_or(after.len());
        let name = &after[..close];
        match names.iter().position(|n| *n == name) {
            Some(i) => out.push_str(values[i]),
            None => {
                out.push('{');
                out.push_str(name);
            }
        }
        rest = after.get(close + 1..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

/// Native builds (the tests) read the catalogues' sources.
#[cfg(not(target_arch = "wasm32"))]
fn install_sources(lang: Lang) {
    if TABLES.with(|all| all[lang as usize].get().is_some()) {
        return;
    }
    let source = match lang {
        Lang::Fr => include_str!("../i18n/fr.txt"),
        Lang::En => include_str!("../i18n/en.txt"),
    };
    let entries = catalogue::parse(lang.code(), source).expect("the build checked it");
    let mut table = Box::new([""; TOTAL]);
    let texts = entries.into_iter().filter(|e| e.section != "page");
    for (slot, e) in table.iter_mut().zip(texts) {
        *slot = String::leak(e.value);
    }
    TABLES.with(|all| all[lang as usize].set(Some(Box::leak(table))));
}

/// The catalogues' format, for the tests.
#[cfg(not(target_arch = "wasm32"))]
#[path = "../i18n/catalogue.rs"]
pub mod catalogue;
