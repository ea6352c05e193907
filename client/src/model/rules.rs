//! The choice of the Morris rules, as a model: a named set, or the five parameters one by one,
//! with the `quiet` number as typed and why it was refused. The hot-seat and computer pages
//! hold one on the page (before the first move) and one in the « Nouvelle partie »
//! confirmation; a room's host can hold one the same way. The values come from
//! `engine::morris::Rules`, which checks every one: nothing here decides what is allowed.
//!
//! ```
//! use client::model::rules::{RulesForm, RulesInput};
//! use engine::morris::{Param, Rules};
//!
//! let mut form = RulesForm::new(Rules::NINE);
//! assert!(form.apply(RulesInput::Named(Rules::TWELVE)));
//! assert!(form.apply(RulesInput::Param(Param::Flying, 0)));
//! assert_eq!(form.rules.short(), "twelve,flying=0");
//! assert!(!form.apply(RulesInput::Quiet("501".into())));
//! assert!(form.error.is_some());
//! assert_eq!(form.rules.quiet(), 0, "a refused number changes nothing");
//! ```

use crate::i18n::{t, Text};
use engine::morris::{Param, Rules};

/// What the player did to the rules choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesInput {
    /// A named set chosen (« Classique », « Lasker (10 pions) »…).
    Named(Rules),
    /// One parameter set (pieces 9–12, a switch 0 or 1); `quiet` comes as typed, below.
    Param(Param, u16),
    /// The number of turns without a capture that draws the game, as typed (0–500).
    Quiet(String),
}

/// The rules as chosen, and the `quiet` field as typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesForm {
    /// The rules chosen: always valid (a refused input leaves them as they were).
    pub rules: Rules,
    /// The `quiet` number as typed.
    pub quiet_text: String,
    /// Why the typed `quiet` number was refused.
    pub error: Option<Text>,
    /// The rules one by one are shown: from the start for rules that are no named set, and
    /// from the first parameter set on (a named set chosen later does not fold them away
    /// under the player's hand).
    pub unfolded: bool,
}

impl RulesForm {
    /// The choice showing `rules`.
    pub fn new(rules: Rules) -> RulesForm {
        RulesForm {
            rules,
            quiet_text: rules.quiet().to_string(),
            error: None,
            unfolded: rules.name().is_none(),
        }
    }

    /// Takes one input; true when the rules changed. A value the engine refuses changes
    /// nothing (the typed `quiet` number stays in the field, with [`RulesForm::error`]).
    pub fn apply(&mut self, input: RulesInput) -> bool {
        let before = self.rules;
        match input {
            RulesInput::Named(rules) => {
                let unfolded = self.unfolded;
                *self = RulesForm::new(rules);
                self.unfolded |= unfolded;
            }
            RulesInput::Param(Param::Quiet, n) => {
                return self.apply(RulesInput::Quiet(n.to_string()))
            }
            RulesInput::Param(param, value) => {
                self.unfolded = true;
                if let Ok(rules) = self.rules.with(param, value) {
                    self.rules = rules;
                }
            }
            RulesInput::Quiet(text) => {
                self.unfolded = true;
                match parse_quiet(&text).and_then(|n| {
                    self.rules
                        .with(Param::Quiet, n)
                        .map_err(|_| Text::of(t::quiet_error))
                }) {
                    Ok(rules) => {
                        self.rules = rules;
                        self.error = None;
                    }
                    Err(e) => self.error = Some(e),
                }
                self.quiet_text = text;
            }
        }
        self.rules != before
    }

    /// The named set these rules are, if any (the choice shows « Personnalisées » otherwise).
    pub fn named(&self) -> Option<Rules> {
        self.rules.name().map(|_| self.rules)
    }
}

/// Reads a typed `quiet` number: digits only, 0–500 (the engine's range).
fn parse_quiet(text: &str) -> Result<u16, Text> {
    text.trim()
        .parse::<u16>()
        .ok()
        .filter(|n| Param::Quiet.range().contains(n))
        .ok_or_else(|| Text::of(t::quiet_error))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_sets_and_parameters_change_the_rules_bad_numbers_do_not() {
        let mut f = RulesForm::new(Rules::NINE);
        assert_eq!(f.named(), Some(Rules::NINE));
        assert!(f.apply(RulesInput::Named(Rules::LASKER)));
        assert_eq!((f.rules, f.quiet_text.as_str()), (Rules::LASKER, "0"));
        assert!(f.apply(RulesInput::Param(Param::Pieces, 11)));
        assert_eq!(f.named(), None, "custom now");
        assert!(
            !f.apply(RulesInput::Param(Param::Pieces, 13)),
            "refused by the engine"
        );
        assert_eq!(f.rules.pieces(), 11);
        for bad in ["501", "-1", "abc", "", "1.5", "99999"] {
            assert!(!f.apply(RulesInput::Quiet(bad.into())), "{bad:?}");
            assert_eq!(f.error, Some(Text::of(t::quiet_error)), "{bad:?}");
            assert_eq!(f.quiet_text, bad, "the field keeps what was typed");
            assert_eq!(f.rules.quiet(), 0);
        }
        assert!(f.apply(RulesInput::Quiet(" 40 ".into())));
        assert_eq!((f.rules.quiet(), f.error.clone()), (40, None));
        assert!(!f.apply(RulesInput::Quiet("40".into())), "the same rules");
        // A named set clears a refusal and shows its own number.
        f.apply(RulesInput::Quiet("x".into()));
        assert!(f.apply(RulesInput::Named(Rules::GUR9)));
        assert_eq!(
            f,
            RulesForm {
                unfolded: true,
                ..RulesForm::new(Rules::GUR9)
            },
            "still unfolded: the player was setting them one by one"
        );
        assert_eq!(f.quiet_text, "50");
        assert!(!RulesForm::new(Rules::GUR9).unfolded);
        assert!(RulesForm::new("pieces=11".parse().unwrap()).unfolded);
        assert!(f.apply(RulesInput::Param(Param::Quiet, 0)));
        assert_eq!(f.named(), Some(Rules::NINE));
    }
}
