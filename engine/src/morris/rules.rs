//! The rules a Morris game is played under: five parameters, five named sets, and their text
//! form (SPEC §12, docs/rules.md « Rule variants »).
//!
//! ```
//! use engine::morris::{Param, Rules};
//!
//! let r: Rules = "twelve,flying=0".parse().unwrap();
//! assert_eq!(r.to_string(), "pieces=12,diagonals=1,flying=0,lasker=0,quiet=0");
//! assert_eq!(r.short(), "twelve,flying=0");
//! assert_eq!(r.get(Param::Pieces), 12);
//! assert_eq!("lasker".parse::<Rules>().unwrap(), Rules::LASKER);
//! assert_eq!(Rules::default(), Rules::NINE);
//!
//! let e = "twelve,pieces=13".parse::<Rules>().unwrap_err();
//! assert_eq!(e.to_string(), "bad value \"13\" for pieces: 9, 10, 11 or 12");
//! ```

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

/// One of the five parameters, in the canonical order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Param {
    /// Pieces in each reserve, 9–12.
    Pieces,
    /// 1: four diagonal lines add 8 links and 4 mills.
    Diagonals,
    /// 0: a side with three pieces slides like any other.
    Flying,
    /// 1: while its reserve is not empty, the mover places or slides.
    Lasker,
    /// N > 0: N consecutive completed turns without a capture draw the game.
    Quiet,
}

impl Param {
    /// All five, in the canonical order.
    pub const ALL: [Param; 5] = [
        Param::Pieces,
        Param::Diagonals,
        Param::Flying,
        Param::Lasker,
        Param::Quiet,
    ];

    /// The key as written in a rule string (`"pieces"`, …).
    pub const fn key(self) -> &'static str {
        match self {
            Param::Pieces => "pieces",
            Param::Diagonals => "diagonals",
            Param::Flying => "flying",
            Param::Lasker => "lasker",
            Param::Quiet => "quiet",
        }
    }

    /// The parameter with this key (lower case, exactly).
    pub fn from_key(key: &str) -> Option<Param> {
        Param::ALL.into_iter().find(|p| p.key() == key)
    }

    /// The allowed values.
    pub const fn range(self) -> RangeInclusive<u16> {
        match self {
            Param::Pieces => 9..=12,
            Param::Diagonals | Param::Flying | Param::Lasker => 0..=1,
            Param::Quiet => 0..=MAX_QUIET,
        }
    }

    /// The allowed values in words, for error messages.
    const fn allowed(self) -> &'static str {
        match self {
            Param::Pieces => "9, 10, 11 or 12",
            Param::Diagonals | Param::Flying | Param::Lasker => "0 or 1",
            Param::Quiet => "0 (off) or 1–500",
        }
    }
}

impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// Largest `quiet` value.
pub const MAX_QUIET: u16 = 500;

/// Longest rule string read: the canonical form of any rule set is 49 bytes, so anything near
/// this length is not a rule set, and it is refused before it is looked at.
pub const MAX_RULES_LEN: usize = 200;

/// The rules of a Morris game: every rule of the default game stands unless a parameter changes
/// it. A value is always valid: it comes from a named set, from [`Rules::with`] or from parsing.
///
/// Serialised (serde) as the five numbers, checked again when read back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawRules", into = "RawRules")]
pub struct Rules {
    pieces: u8,
    diagonals: bool,
    flying: bool,
    lasker: bool,
    quiet: u16,
}

impl Rules {
    /// `nine`: the defaults, Nine Men's Morris as in SPEC §2.
    pub const NINE: Rules = Rules {
        pieces: 9,
        diagonals: false,
        flying: true,
        lasker: false,
        quiet: 0,
    };
    /// `noflying`: three pieces slide like any other.
    pub const NOFLYING: Rules = Rules {
        flying: false,
        ..Rules::NINE
    };
    /// `lasker`: ten pieces, placing or sliding while the reserve lasts.
    pub const LASKER: Rules = Rules {
        pieces: 10,
        lasker: true,
        ..Rules::NINE
    };
    /// `twelve`: Twelve Men's Morris, twelve pieces and the four diagonals.
    pub const TWELVE: Rules = Rules {
        pieces: 12,
        diagonals: true,
        ..Rules::NINE
    };
    /// `gur9`: drawn after 50 turns without a capture.
    pub const GUR9: Rules = Rules {
        quiet: 50,
        ..Rules::NINE
    };

    /// The named sets, in the order the documentation lists them.
    pub const NAMED: [(&'static str, Rules); 5] = [
        ("nine", Rules::NINE),
        ("noflying", Rules::NOFLYING),
        ("lasker", Rules::LASKER),
        ("twelve", Rules::TWELVE),
        ("gur9", Rules::GUR9),
    ];

    /// The named set called `name`.
    pub fn named(name: &str) -> Option<Rules> {
        Rules::NAMED
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, r)| r)
    }

    /// The name of the named set equal to these rules, if any.
    pub fn name(self) -> Option<&'static str> {
        Rules::NAMED
            .iter()
            .find(|(_, r)| *r == self)
            .map(|&(n, _)| n)
    }

    /// True for the default rules (`nine`).
    pub fn is_default(self) -> bool {
        self == Rules::NINE
    }

    /// True when the hot loops (perft, search) may run their copy compiled for the default
    /// rules: no diagonals, no Lasker, no quiet draw, too few pieces to fill the board. Only
    /// flying is then read as the loop goes. See [`Rules::basic`].
    pub(crate) const fn is_basic(self) -> bool {
        !self.diagonals && !self.lasker && self.quiet == 0 && self.pieces < 12
    }

    /// What the copy for basic rules sees: the defaults with this game's flying, every other
    /// switch a constant that the compiler folds away. Equivalent, in play, to any rules for
    /// which [`Rules::is_basic`] holds (the number of pieces only matters at the start, and to
    /// fill the board).
    #[inline(always)]
    pub(crate) const fn basic(flying: bool) -> Rules {
        Rules {
            flying,
            ..Rules::NINE
        }
    }

    /// Pieces in each reserve at the start (9–12).
    pub const fn pieces(self) -> u8 {
        self.pieces
    }

    /// True when the four diagonal lines are in play.
    pub const fn diagonals(self) -> bool {
        self.diagonals
    }

    /// True when a side with exactly three pieces flies once both reserves are empty.
    pub const fn flying(self) -> bool {
        self.flying
    }

    /// True when a side with pieces in reserve may slide instead of placing (Lasker).
    pub const fn lasker(self) -> bool {
        self.lasker
    }

    /// Consecutive completed turns without a capture that draw the game; 0 when off.
    pub const fn quiet(self) -> u16 {
        self.quiet
    }

    /// A parameter's value as written (booleans as 0 or 1).
    pub const fn get(self, param: Param) -> u16 {
        match param {
            Param::Pieces => self.pieces as u16,
            Param::Diagonals => self.diagonals as u16,
            Param::Flying => self.flying as u16,
            Param::Lasker => self.lasker as u16,
            Param::Quiet => self.quiet,
        }
    }

    /// These rules with one parameter changed, or why the value is not allowed.
    pub fn with(self, param: Param, value: u16) -> Result<Rules, RulesError> {
        if !param.range().contains(&value) {
            return Err(RulesError::BadValue {
                param,
                value: value.to_string(),
            });
        }
        let mut r = self;
        match param {
            Param::Pieces => r.pieces = value as u8,
            Param::Diagonals => r.diagonals = value == 1,
            Param::Flying => r.flying = value == 1,
            Param::Lasker => r.lasker = value == 1,
            Param::Quiet => r.quiet = value,
        }
        Ok(r)
    }

    /// The shortest way to write these rules: the named set that differs in the fewest
    /// parameters (the first listed on a tie), followed by those that differ, e.g.
    /// `twelve,flying=0`. It reads back to the same rules.
    pub fn short(self) -> String {
        let differing = |base: Rules| {
            Param::ALL
                .into_iter()
                .filter(move |&p| base.get(p) != self.get(p))
        };
        let (name, base) = Rules::NAMED
            .into_iter()
            .min_by_key(|&(_, base)| differing(base).count())
            .expect("five named sets");
        let mut s = name.to_string();
        for p in differing(base) {
            s.push_str(&format!(",{}={}", p.key(), self.get(p)));
        }
        s
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::NINE
    }
}

/// The canonical form: all five parameters in order, e.g.
/// `pieces=12,diagonals=1,flying=1,lasker=0,quiet=0`.
impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in Param::ALL.into_iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{}={}", p.key(), self.get(p))?;
        }
        Ok(())
    }
}

/// Why a rule string or a parameter value is refused.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RulesError {
    /// Nothing written.
    Empty,
    /// Longer than [`MAX_RULES_LEN`] bytes (the length given).
    TooLong(usize),
    /// Two commas in a row, or one at either end (the 1-based item).
    EmptyItem(usize),
    /// The first item has no `=` and is no named set.
    UnknownName(String),
    /// A named set after the first item.
    NameNotFirst(String),
    /// An item after the first without `=` that is no named set.
    NotKeyValue(String),
    /// A key that is not one of the five.
    UnknownKey(String),
    /// A value that is not allowed for its parameter (as written).
    BadValue {
        /// The parameter.
        param: Param,
        /// The value as written.
        value: String,
    },
    /// The same key twice.
    Duplicate(Param),
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const KEYS: &str = "pieces, diagonals, flying, lasker, quiet";
        const NAMES: &str = "nine, noflying, lasker, twelve, gur9";
        match self {
            RulesError::Empty => write!(f, "no rules given (a name such as {NAMES}, or key=value)"),
            RulesError::TooLong(n) => {
                write!(f, "rules of {n} bytes: at most {MAX_RULES_LEN}")
            }
            RulesError::EmptyItem(i) => write!(f, "item {i} of the rules is empty"),
            RulesError::UnknownName(s) => {
                write!(f, "unknown rule set {s:?} (the names are {NAMES})")
            }
            RulesError::NameNotFirst(s) => {
                write!(f, "the rule set name {s:?} must come first")
            }
            RulesError::NotKeyValue(s) => {
                write!(f, "{s:?} is not key=value (the keys are {KEYS})")
            }
            RulesError::UnknownKey(s) => write!(
                f,
                "unknown key {s:?} (the keys are {KEYS}: lower case, without spaces)"
            ),
            RulesError::BadValue { param, value } => {
                write!(f, "bad value {value:?} for {param}: {}", param.allowed())
            }
            RulesError::Duplicate(p) => write!(f, "{p} is given twice"),
        }
    }
}

impl std::error::Error for RulesError {}

/// A value as written: decimal digits without a leading zero, within the parameter's range.
fn read_value(param: Param, text: &str) -> Result<u16, RulesError> {
    let bad = || RulesError::BadValue {
        param,
        value: text.to_string(),
    };
    let digits = !text.is_empty() && text.len() <= 3 && text.bytes().all(|b| b.is_ascii_digit());
    if !digits || (text.len() > 1 && text.starts_with('0')) {
        return Err(bad());
    }
    let n: u16 = text.parse().map_err(|_| bad())?;
    if param.range().contains(&n) {
        Ok(n)
    } else {
        Err(bad())
    }
}

/// Reads a name (`twelve`), a list (`pieces=12,diagonals=1`) or a name followed by a list that
/// overrides it (`lasker,pieces=11`). Keys are lower case, without spaces, each at most once;
/// values have no leading zeros.
impl FromStr for Rules {
    type Err = RulesError;

    fn from_str(s: &str) -> Result<Rules, RulesError> {
        if s.len() > MAX_RULES_LEN {
            return Err(RulesError::TooLong(s.len()));
        }
        if s.is_empty() {
            return Err(RulesError::Empty);
        }
        let mut rules = Rules::NINE;
        let mut given = [false; 5];
        for (i, item) in s.split(',').enumerate() {
            if item.is_empty() {
                return Err(RulesError::EmptyItem(i + 1));
            }
            let Some((key, value)) = item.split_once('=') else {
                rules = match (i, Rules::named(item)) {
                    (0, Some(named)) => named,
                    (_, Some(_)) => return Err(RulesError::NameNotFirst(item.into())),
                    (0, None) if Param::from_key(item).is_none() => {
                        return Err(RulesError::UnknownName(item.into()))
                    }
                    (_, None) => return Err(RulesError::NotKeyValue(item.into())),
                };
                continue;
            };
            let param = Param::from_key(key).ok_or_else(|| RulesError::UnknownKey(key.into()))?;
            if std::mem::replace(&mut given[param as usize], true) {
                return Err(RulesError::Duplicate(param));
            }
            rules = rules.with(param, read_value(param, value)?)?;
        }
        Ok(rules)
    }
}

/// The serde form: the five numbers, checked when read.
#[derive(Serialize, Deserialize)]
struct RawRules {
    pieces: u8,
    diagonals: bool,
    flying: bool,
    lasker: bool,
    quiet: u16,
}

impl From<Rules> for RawRules {
    fn from(r: Rules) -> RawRules {
        RawRules {
            pieces: r.pieces,
            diagonals: r.diagonals,
            flying: r.flying,
            lasker: r.lasker,
            quiet: r.quiet,
        }
    }
}

impl TryFrom<RawRules> for Rules {
    type Error = RulesError;
    fn try_from(raw: RawRules) -> Result<Rules, RulesError> {
        Rules::NINE
            .with(Param::Pieces, raw.pieces as u16)?
            .with(Param::Diagonals, raw.diagonals as u16)?
            .with(Param::Flying, raw.flying as u16)?
            .with(Param::Lasker, raw.lasker as u16)?
            .with(Param::Quiet, raw.quiet)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Rules, RulesError> {
        s.parse()
    }

    #[test]
    fn named_sets_are_as_specified() {
        let canonical = |s: &str| parse(s).unwrap().to_string();
        assert_eq!(
            canonical("nine"),
            "pieces=9,diagonals=0,flying=1,lasker=0,quiet=0"
        );
        assert_eq!(
            canonical("noflying"),
            "pieces=9,diagonals=0,flying=0,lasker=0,quiet=0"
        );
        assert_eq!(
            canonical("lasker"),
            "pieces=10,diagonals=0,flying=1,lasker=1,quiet=0"
        );
        assert_eq!(
            canonical("twelve"),
            "pieces=12,diagonals=1,flying=1,lasker=0,quiet=0"
        );
        assert_eq!(
            canonical("gur9"),
            "pieces=9,diagonals=0,flying=1,lasker=0,quiet=50"
        );
        assert_eq!(Rules::default(), Rules::NINE);
        assert!(Rules::NINE.is_default() && !Rules::GUR9.is_default());
        for (name, r) in Rules::NAMED {
            assert_eq!(r.name(), Some(name));
            assert_eq!(r.short(), name);
            assert_eq!(
                parse(&r.to_string()),
                Ok(r),
                "the canonical form reads back"
            );
        }
    }

    #[test]
    fn a_list_and_a_name_with_overrides_read_as_specified() {
        assert_eq!(
            parse("twelve,flying=0").unwrap().to_string(),
            "pieces=12,diagonals=1,flying=0,lasker=0,quiet=0"
        );
        assert_eq!(
            parse("lasker,pieces=11").unwrap().to_string(),
            "pieces=11,diagonals=0,flying=1,lasker=1,quiet=0"
        );
        // A list alone starts from the defaults, in any order.
        assert_eq!(parse("quiet=7,pieces=10").unwrap().quiet(), 7);
        assert_eq!(parse("pieces=12,diagonals=1"), Ok(Rules::TWELVE));
        assert_eq!(parse("nine,pieces=9"), Ok(Rules::NINE));
        assert_eq!(parse("quiet=500").unwrap().quiet(), 500);
        assert_eq!(parse("quiet=0"), Ok(Rules::NINE));
        assert_eq!(parse("gur9,quiet=0"), Ok(Rules::NINE));
        let r = parse("lasker,diagonals=1,flying=0,quiet=10").unwrap();
        assert_eq!(
            (r.pieces(), r.diagonals(), r.flying(), r.lasker(), r.quiet()),
            (10, true, false, true, 10)
        );
        assert_eq!(r.short(), "lasker,diagonals=1,flying=0,quiet=10");
        assert_eq!(parse(&r.short()), Ok(r));
        assert_eq!(parse("pieces=12").unwrap().short(), "nine,pieces=12");
        assert_eq!(
            parse("pieces=12,diagonals=1,flying=0").unwrap().short(),
            "twelve,flying=0"
        );
    }

    #[test]
    fn every_malformed_rule_string_says_what_is_wrong() {
        use RulesError::*;
        let cases: Vec<(&str, RulesError, &str)> = vec![
            ("", Empty, "no rules given"),
            ("ten", UnknownName("ten".into()), "unknown rule set \"ten\""),
            ("Nine", UnknownName("Nine".into()), "unknown rule set"),
            ("pieces", NotKeyValue("pieces".into()), "is not key=value"),
            (
                "nine,twelve",
                NameNotFirst("twelve".into()),
                "must come first",
            ),
            (
                "pieces=10,lasker",
                NameNotFirst("lasker".into()),
                "must come first",
            ),
            ("nine,foo", NotKeyValue("foo".into()), "is not key=value"),
            ("nine,", EmptyItem(2), "item 2"),
            (",nine", EmptyItem(1), "item 1"),
            ("nine,,quiet=3", EmptyItem(2), "empty"),
            ("Pieces=9", UnknownKey("Pieces".into()), "lower case"),
            ("pieces =9", UnknownKey("pieces ".into()), "without spaces"),
            (" pieces=9", UnknownKey(" pieces".into()), "unknown key"),
            (
                "colour=1",
                UnknownKey("colour".into()),
                "unknown key \"colour\"",
            ),
            ("=9", UnknownKey("".into()), "unknown key"),
            ("pieces= 9", bad(Param::Pieces, " 9"), "9, 10, 11 or 12"),
            (
                "pieces=13",
                bad(Param::Pieces, "13"),
                "bad value \"13\" for pieces",
            ),
            ("pieces=8", bad(Param::Pieces, "8"), "9, 10, 11 or 12"),
            ("pieces=09", bad(Param::Pieces, "09"), "bad value"),
            ("pieces=", bad(Param::Pieces, ""), "bad value"),
            ("pieces=+9", bad(Param::Pieces, "+9"), "bad value"),
            ("pieces=9=9", bad(Param::Pieces, "9=9"), "bad value"),
            ("diagonals=2", bad(Param::Diagonals, "2"), "0 or 1"),
            ("flying=00", bad(Param::Flying, "00"), "0 or 1"),
            ("lasker=true", bad(Param::Lasker, "true"), "0 or 1"),
            ("quiet=501", bad(Param::Quiet, "501"), "0 (off) or 1–500"),
            ("quiet=050", bad(Param::Quiet, "050"), "bad value"),
            (
                "quiet=99999999999999999999",
                bad(Param::Quiet, "99999999999999999999"),
                "1–500",
            ),
            ("quiet=-1", bad(Param::Quiet, "-1"), "bad value"),
            (
                "pieces=10,pieces=10",
                Duplicate(Param::Pieces),
                "pieces is given twice",
            ),
            ("twelve,quiet=1,quiet=2", Duplicate(Param::Quiet), "twice"),
        ];
        for (text, error, words) in cases {
            let e = parse(text).unwrap_err();
            assert_eq!(e, error, "{text:?}");
            assert!(e.to_string().contains(words), "{text:?}: {e}");
        }
    }

    fn bad(param: Param, value: &str) -> RulesError {
        RulesError::BadValue {
            param,
            value: value.into(),
        }
    }

    #[test]
    fn a_string_over_the_length_limit_is_refused_whole() {
        let long = format!("nine{}", ",quiet=1".repeat(30));
        assert!(long.len() > MAX_RULES_LEN);
        assert_eq!(parse(&long), Err(RulesError::TooLong(long.len())));
        assert!(parse(&long)
            .unwrap_err()
            .to_string()
            .contains("at most 200"));
        // At the limit it is read (and here refused for what it says).
        let at_limit = format!("nine,{}", "x".repeat(MAX_RULES_LEN - 5));
        assert_eq!(at_limit.len(), MAX_RULES_LEN);
        assert!(matches!(parse(&at_limit), Err(RulesError::NotKeyValue(_))));
    }

    #[test]
    fn with_checks_the_range_and_get_reads_back() {
        let r = Rules::NINE.with(Param::Quiet, 30).unwrap();
        assert_eq!(r.get(Param::Quiet), 30);
        assert_eq!(
            Rules::NINE.with(Param::Pieces, 8),
            Err(bad(Param::Pieces, "8"))
        );
        assert!(Rules::NINE.with(Param::Flying, 2).is_err());
        for p in Param::ALL {
            assert_eq!(Param::from_key(p.key()), Some(p));
            for v in p.range() {
                assert_eq!(Rules::TWELVE.with(p, v).unwrap().get(p), v);
            }
        }
    }

    #[test]
    fn serde_carries_the_numbers_and_checks_them_on_the_way_back() {
        let bytes = postcard::to_allocvec(&Rules::LASKER).unwrap();
        assert_eq!(postcard::from_bytes::<Rules>(&bytes), Ok(Rules::LASKER));
        let raw = RawRules {
            pieces: 13,
            ..Rules::NINE.into()
        };
        let bytes = postcard::to_allocvec(&raw).unwrap();
        assert!(postcard::from_bytes::<Rules>(&bytes).is_err());
    }
}
