//! The wording of the games: names, labels, refusals and results, in the current language
//! (the texts are in the catalogues: [`crate::i18n`]).

#[cfg(feature = "local")]
use super::computer::{Computer, Opponent, Purpose, Rules as Searched};
use crate::i18n::{self, t};
#[cfg(feature = "local")]
use engine::ai::Level;
use engine::meta::SmallBoard;
#[cfg(feature = "local")]
use engine::morris::Turn;
use engine::morris::{Morris, Rules, Stage};
use engine::session::Refusal;
use engine::Game;
use engine::{Illegal, Outcome, Player, Reason};

/// The name of a game, as the pages title it.
pub fn game_name(kind: engine::GameKind) -> &'static str {
    match kind {
        engine::GameKind::Morris => t::game_morris(),
        engine::GameKind::Meta => t::game_meta(),
    }
}

/// The name a Morris game's heading gives it under `rules`: in English it counts the pieces
/// (« Twelve Men's Morris »), in French it is always « Jeu du moulin ».
pub fn morris_name(rules: Rules) -> &'static str {
    match rules.pieces() {
        10 => t::game_morris_ten(),
        11 => t::game_morris_eleven(),
        12 => t::game_morris_twelve(),
        _ => t::game_morris(),
    }
}

/// The heading of a game page: the game's name, the Morris one under its rules once known.
pub fn heading_name(kind: engine::GameKind, rules: Option<Rules>) -> &'static str {
    match (kind, rules) {
        (engine::GameKind::Morris, Some(rules)) => morris_name(rules),
        _ => game_name(kind),
    }
}

/// A Morris game's progress line: « Tours joués : 12 sur 100 », and under the `quiet` rule how
/// near its draw is (« · sans prise : 7 sur 50 »).
pub fn morris_progress(g: &Morris) -> String {
    let played = t::morris_progress(&g.turns().to_string(), &g.max_turns().to_string());
    match g.rules().quiet() {
        0 => played,
        quiet => {
            let without = t::quiet_progress(&g.quiet_turns().to_string(), &quiet.to_string());
            format!("{played} · {without}")
        }
    }
}

/// « Bleu » or « Rouge ».
pub fn player_name(p: Player) -> &'static str {
    match p {
        Player::Blue => t::player_blue(),
        Player::Red => t::player_red(),
    }
}

/// « bleu » or « rouge », as an adjective.
pub fn colour(p: Player) -> &'static str {
    match p {
        Player::Blue => t::colour_blue(),
        Player::Red => t::colour_red(),
    }
}

/// A count in words: `one` or `many` by the current language's rule, with `{n}` filled in.
pub fn count(n: u64, one: fn(&str) -> String, many: fn(&str) -> String) -> String {
    let text = if i18n::lang().singular(n) { one } else { many };
    text(&n.to_string())
}

/// The stage label under a Morris player.
pub fn stage(s: Stage) -> String {
    match s {
        Stage::Placing { remaining } => count(
            remaining.into(),
            t::stage_placing_one,
            t::stage_placing_many,
        ),
        Stage::Moving => t::stage_moving().to_string(),
        Stage::Flying => t::stage_flying().to_string(),
    }
}

/// The stage label under a Morris player playing under `rules`: under Lasker, a side with
/// pieces in reserve « Pose ou déplacement (N jetons restants) », since it may also slide.
pub fn stage_under(s: Stage, rules: Rules) -> String {
    match s {
        Stage::Placing { remaining } if rules.lasker() => {
            count(remaining.into(), t::stage_lasker_one, t::stage_lasker_many)
        }
        s => stage(s),
    }
}

/// Under a Morris player: stage and pieces on the board.
pub fn morris_player(g: &Morris, p: Player) -> String {
    let pieces = count(
        g.pieces_on_board(p).into(),
        t::on_board_one,
        t::on_board_many,
    );
    t::player_detail(&stage_under(g.stage(p), g.rules()), &pieces)
}

/// A text of the catalogues without placeholders: `t::variant_nine`…
pub type Words = fn() -> &'static str;

/// The named rule sets and their player-facing names, in the order the choice lists them.
pub const RULE_SETS: [(Rules, Words); 5] = [
    (Rules::NINE, t::variant_nine),
    (Rules::NOFLYING, t::variant_noflying),
    (Rules::LASKER, t::variant_lasker),
    (Rules::TWELVE, t::variant_twelve),
    (Rules::GUR9, t::variant_gur9),
];

/// The player-facing name of Morris rules, in the current language: a named set's
/// (« Classique », « Sans vol », « Lasker (10 pions) », « Douze pions (diagonales) », « Gur 9
/// (nul après 50 tours sans prise) »), or for any other rules « Personnalisées : » and their
/// parameters — the pieces, then each rule that differs from the classic game (« Personnalisées
/// : 11 pions, diagonales, sans vol, Lasker, nul après 30 tours sans prise »). Every page that
/// names the rules (the rules panel, the viewer, the room and its invitation) says it so.
///
/// ```
/// use engine::morris::Rules;
/// use client::model::text::rules_name;
///
/// assert_eq!(rules_name(Rules::TWELVE), "Douze pions (diagonales)");
/// let custom: Rules = "twelve,flying=0".parse().unwrap();
/// assert_eq!(rules_name(custom), "Personnalisées : 12 pions, diagonales, sans vol");
/// ```
pub fn rules_name(rules: Rules) -> String {
    if let Some((_, name)) = RULE_SETS.iter().find(|(r, _)| *r == rules) {
        return name().to_string();
    }
    let n = rules.pieces().to_string();
    let mut list = vec![t::variant_pieces(&n)];
    if rules.diagonals() {
        list.push(t::variant_diagonals().to_string());
    }
    if !rules.flying() {
        list.push(t::variant_no_flying().to_string());
    }
    if rules.lasker() {
        list.push(t::variant_with_lasker().to_string());
    }
    if rules.quiet() > 0 {
        list.push(t::variant_quiet(&rules.quiet().to_string()));
    }
    t::variant_custom(&list.join(", "))
}

/// The rules of a Morris game under `rules`, in sentences, one paragraph a string: the pieces,
/// placing (and Lasker's slides), the diagonals when they are in play, mills and captures,
/// flying or not, and how the game ends (with the full board and the `quiet` draw when they
/// apply). The rules panel of every page shows them; nothing here decides a move (the engine
/// does).
///
/// ```
/// use engine::morris::Rules;
/// use client::model::text::rules_words;
///
/// let words = rules_words(Rules::LASKER);
/// assert!(words[0].starts_with("Chaque joueur a dix pions."));
/// assert!(words[1].contains("règle de Lasker"));
/// assert_eq!(rules_words(Rules::NINE).len(), 5);
/// assert!(rules_words(Rules::TWELVE).iter().any(|p| p.contains("diagonales")));
/// ```
pub fn rules_words(rules: Rules) -> Vec<String> {
    let pieces = match rules.pieces() {
        10 => t::pieces_10(),
        11 => t::pieces_11(),
        12 => t::pieces_12(),
        _ => t::pieces_9(),
    };
    let mut words = vec![t::rules_start(pieces)];
    words.push(
        if rules.lasker() {
            t::rules_place_lasker()
        } else {
            t::rules_place()
        }
        .to_string(),
    );
    if rules.diagonals() {
        words.push(t::rules_diagonals().to_string());
    }
    words.push(t::rules_mills().to_string());
    words.push(
        if rules.flying() {
            t::rules_flying()
        } else {
            t::rules_no_flying()
        }
        .to_string(),
    );
    let mut end = t::rules_end().to_string();
    // Only twelve pieces a side can fill the 24 points (docs/rules.md, « full »).
    if rules.pieces() == 12 {
        end = format!("{end} {}", t::rules_full());
    }
    if rules.quiet() > 0 {
        end = format!("{end} {}", t::rules_quiet(&rules.quiet().to_string()));
    }
    words.push(end);
    words
}

/// Under an Ultimate tic-tac-toe player: small boards won.
pub fn boards_won(n: u8) -> String {
    match n {
        0 => t::boards_won_none().to_string(),
        n => count(n.into(), t::boards_won_one, t::boards_won_many),
    }
}

/// Why a Morris step was refused.
pub fn morris_refusal(e: Illegal) -> String {
    match e {
        Illegal::GameOver => t::morris_over(),
        Illegal::CaptureRequired => t::morris_capture_required(),
        Illegal::NoCapturePending => t::morris_no_capture(),
        Illegal::MustPlace => t::morris_must_place(),
        Illegal::MustMove => t::morris_must_move(),
        Illegal::Occupied => t::morris_occupied(),
        Illegal::NotYourPiece => t::morris_not_yours(),
        Illegal::NotAdjacent => t::morris_not_adjacent(),
        Illegal::NotOpponentPiece => t::morris_not_opponent(),
        Illegal::Protected => t::morris_protected(),
        Illegal::SamePoint => t::morris_same_point(),
        Illegal::MissingCapture | Illegal::UnexpectedCapture => t::morris_invalid_turn(),
        Illegal::BoardClosed | Illegal::WrongBoard | Illegal::OutOfRange => t::impossible_move(),
    }
    .to_string()
}

/// Where a small board stands in the big one: « en haut à droite », « au centre », …
pub fn board_place(board: u8) -> &'static str {
    [
        t::place_top_left,
        t::place_top,
        t::place_top_right,
        t::place_left,
        t::place_centre,
        t::place_right,
        t::place_bottom_left,
        t::place_bottom,
        t::place_bottom_right,
    ][board as usize % 9]()
}

/// Why an Ultimate tic-tac-toe move was refused.
pub fn meta_refusal(e: Illegal, required: Option<u8>) -> String {
    match (e, required) {
        (Illegal::GameOver, _) => t::meta_over().to_string(),
        (Illegal::Occupied, _) => t::meta_occupied().to_string(),
        (Illegal::BoardClosed, _) => t::meta_board_closed().to_string(),
        (Illegal::WrongBoard, Some(b)) => t::meta_wrong_board(board_place(b)),
        _ => t::impossible_move().to_string(),
    }
}

/// The result banner of a Morris game over, or `None` while it is played: [`result`] with the
/// game's own numbers (the turn limit, the `quiet` rule's count).
pub fn morris_result(g: &Morris) -> Option<String> {
    let o = g.outcome()?;
    Some(match o.reason {
        Reason::Quiet => t::result_quiet(&g.rules().quiet().to_string()),
        _ => result(o, g.max_turns()),
    })
}

/// The result banner (for a Morris game, [`morris_result`] also says how many turns went
/// without a capture).
pub fn result(o: Outcome, max_turns: u16) -> String {
    let winner = |w: Player| (player_name(w), player_name(w.opponent()));
    match (o.winner, o.reason) {
        (Some(w), Reason::Pieces) => t::result_pieces(winner(w).0, winner(w).1),
        (Some(w), Reason::Blocked) => t::result_blocked(winner(w).0, winner(w).1),
        (Some(w), _) => t::result_line(player_name(w)),
        (None, Reason::Repetition) => t::result_repetition().to_string(),
        (None, Reason::Limit) => t::result_limit(&max_turns.to_string()),
        (None, Reason::Full) => t::result_board_full().to_string(),
        (None, Reason::Quiet) => t::result_quiet_any().to_string(),
        (None, _) => t::result_full().to_string(),
    }
}

/// A screen-reader label for a small board's state.
pub fn small_board(s: SmallBoard) -> &'static str {
    match s {
        SmallBoard::Open => t::small_open(),
        SmallBoard::Won(Player::Blue) => t::small_won_blue(),
        SmallBoard::Won(Player::Red) => t::small_won_red(),
        SmallBoard::Drawn => t::small_drawn(),
    }
}

/// The status while the computer plays, or why it could not.
#[cfg(feature = "local")]
pub fn computer_status(failed: Option<Purpose>) -> &'static str {
    match failed {
        Some(Purpose::Move) => t::computer_failed(),
        _ => t::computer_thinking(),
    }
}

/// Who is to move, to start the status line: « Au tour de Bleu », or « À vous (Bleu) » against
/// the computer.
#[cfg(feature = "local")]
pub fn turn_of(p: Player, human: Option<Player>) -> String {
    match human {
        None => t::turn_of(player_name(p)),
        Some(_) => t::your_turn_as(player_name(p)),
    }
}

/// A player card's title: « Bleu », or « Bleu · vous » and « Rouge · ordinateur (Moyen) »
/// against the computer; `mark` follows the colour (« · croix »).
#[cfg(feature = "local")]
pub fn player_title(p: Player, opponent: Option<Opponent>, mark: &str) -> String {
    let name = format!("{}{mark}", player_name(p));
    match opponent {
        None => name,
        Some(o) if o.human == p => t::card_you(&name),
        Some(o) => t::card_computer(&name, level_name(o.level)),
    }
}

/// A computer level's name: « Débutant », « Facile », « Moyen », « Fort ».
#[cfg(feature = "local")]
pub fn level_name(level: Level) -> &'static str {
    match level {
        Level::Beginner => t::level_beginner(),
        Level::Easy => t::level_easy(),
        Level::Medium => t::level_medium(),
        Level::Strong => t::level_strong(),
    }
}

/// A Morris turn in words: « poser en d6 », « déplacer a7 vers d7, puis capturer g1 ».
#[cfg(feature = "local")]
pub fn morris_turn(turn: Turn) -> String {
    let to = turn.to.to_string();
    let s = match turn.from {
        None => t::words_place(&to),
        Some(from) => t::words_move(&from.to_string(), &to),
    };
    match turn.capture {
        Some(c) => t::words_then_capture(&s, &c.to_string()),
        None => s,
    }
}

/// The line under « Suggérer un coup »: searching, the suggestion in words, or the failure.
#[cfg(feature = "local")]
pub fn hint<G: Searched>(
    c: &Computer<G>,
    words: impl Fn(<G as Game>::Turn) -> String,
) -> Option<String> {
    if c.hinting() {
        return Some(t::hint_searching().to_string());
    }
    match (c.hint, c.failed) {
        (Some(h), _) => Some(t::hint_suggestion(&words(h))),
        (None, Some(Purpose::Hint)) => Some(t::hint_failed().to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stage_labels_use_the_singular_for_one_piece() {
        assert_eq!(
            stage(Stage::Placing { remaining: 1 }),
            "Phase de pose (1 jeton restant)"
        );
        assert_eq!(
            stage(Stage::Placing { remaining: 9 }),
            "Phase de pose (9 jetons restants)"
        );
        assert_eq!(stage(Stage::Flying), "Phase de saut");
    }

    #[test]
    fn results_name_the_winner_and_the_reason() {
        let o = Outcome {
            winner: Some(Player::Red),
            reason: Reason::Blocked,
        };
        assert_eq!(result(o, 100), "Rouge gagne : Bleu est bloqué.");
        let o = Outcome {
            winner: None,
            reason: Reason::Limit,
        };
        assert_eq!(result(o, 37), "Partie nulle : limite de 37 tours atteinte.");
        let full = Outcome {
            winner: None,
            reason: Reason::Full,
        };
        assert_eq!(result(full, 100), "Partie nulle : le plateau est plein.");
    }

    #[test]
    fn the_quiet_draw_says_its_number() {
        use engine::Game;
        let rules = Rules::NINE.with(engine::morris::Param::Quiet, 2).unwrap();
        let g = engine::record::replay(Morris::with_rules(rules, 100).unwrap(), "d6 b4").unwrap();
        assert!(g.is_over());
        assert_eq!(
            morris_result(&g).as_deref(),
            Some("Partie nulle : 2 tours de suite sans capture.")
        );
        assert_eq!(morris_result(&Morris::new()), None);
    }

    #[test]
    fn the_progress_line_counts_the_turns_without_a_capture_under_the_quiet_rule() {
        assert_eq!(morris_progress(&Morris::new()), "Tours joués : 0 sur 100");
        let gur9 = Rules::named("gur9").unwrap();
        let start = Morris::with_rules(gur9, 80).unwrap();
        assert_eq!(
            morris_progress(&start),
            "Tours joués : 0 sur 80 · sans prise : 0 sur 50"
        );
        // The capture of turn 5 starts the count again.
        let g = engine::record::replay(start, "a7 b6 d7 d6 g7xb6 d2").unwrap();
        assert_eq!(
            morris_progress(&g),
            "Tours joués : 6 sur 80 · sans prise : 1 sur 50"
        );
    }

    #[test]
    fn rule_sets_have_names_and_custom_rules_list_what_they_change() {
        let names: Vec<String> = RULE_SETS.iter().map(|(r, _)| rules_name(*r)).collect();
        assert_eq!(
            names,
            [
                "Classique",
                "Sans vol",
                "Lasker (10 pions)",
                "Douze pions (diagonales)",
                "Gur 9 (nul après 50 tours sans prise)"
            ]
        );
        let custom: Rules = "lasker,pieces=11,diagonals=1,flying=0,quiet=30"
            .parse()
            .unwrap();
        assert_eq!(
            rules_name(custom),
            "Personnalisées : 11 pions, diagonales, sans vol, Lasker, nul après 30 tours sans prise"
        );
        assert_eq!(
            rules_name("pieces=10".parse().unwrap()),
            "Personnalisées : 10 pions"
        );
    }

    #[test]
    fn the_rules_in_words_follow_every_parameter() {
        let nine = rules_words(Rules::NINE);
        assert_eq!(nine.len(), 5);
        assert!(nine[0].starts_with("Chaque joueur a neuf pions."));
        assert!(nine[3].contains("peut sauter"));
        assert!(!nine
            .iter()
            .any(|p| p.contains("diagonales") || p.contains("24 points")));
        let twelve = rules_words(Rules::TWELVE);
        assert!(twelve[0].contains("douze pions"));
        assert!(twelve[2].starts_with("Quatre diagonales"));
        assert!(twelve.last().unwrap().contains("24 points"));
        assert!(rules_words(Rules::NOFLYING)[3].starts_with("Pas de saut"));
        assert!(rules_words(Rules::LASKER)[1].contains("règle de Lasker"));
        assert!(rules_words(Rules::GUR9)
            .last()
            .unwrap()
            .ends_with("après 50 tours de suite sans capture."));
    }

    #[test]
    fn under_lasker_a_placing_side_may_also_move() {
        let placing = Stage::Placing { remaining: 1 };
        assert_eq!(
            stage_under(placing, Rules::LASKER),
            "Pose ou déplacement (1 jeton restant)"
        );
        assert_eq!(
            stage_under(placing, Rules::TWELVE),
            "Phase de pose (1 jeton restant)"
        );
        assert_eq!(
            stage_under(Stage::Moving, Rules::LASKER),
            "Phase de mouvement"
        );
    }
}

/// The day of a time (ms since the Unix epoch, UTC) as `YYYY-MM-DD`, for record headers.
pub fn date(ms: u64) -> String {
    // Howard Hinnant's civil-from-days, for days since 1970-01-01.
    let z = (ms / 86_400_000) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod date_tests {
    #[test]
    fn dates_are_days_of_the_calendar() {
        assert_eq!(super::date(0), "1970-01-01");
        assert_eq!(super::date(951_782_400_000), "2000-02-29");
        assert_eq!(super::date(1_735_689_599_999), "2024-12-31");
        assert_eq!(super::date(1_735_689_600_000), "2025-01-01");
    }
}

/// What the chains refuse of an entry, as the end of a sentence (the viewer's verdicts, the
/// spectator's).
pub fn refusal_words(r: Refusal) -> &'static str {
    match r {
        Refusal::WrongRoom => t::refusal_wrong_room(),
        Refusal::BadSignature => t::refusal_bad_signature(),
        Refusal::NotHello => t::refusal_not_hello(),
        Refusal::WrongHostKey => t::refusal_wrong_host_key(),
        Refusal::BadProof => t::refusal_bad_proof(),
        Refusal::UnknownGuest => t::refusal_unknown_guest(),
        Refusal::Intruder => t::refusal_intruder(),
        Refusal::BrokenChain => t::refusal_broken_chain(),
        Refusal::UnknownSeen => t::refusal_unknown_seen(),
        Refusal::TimeWentBack => t::refusal_time_went_back(),
        Refusal::Fork => t::refusal_fork(),
        Refusal::Gap => t::refusal_gap(),
        Refusal::TooLong => t::refusal_too_long(),
        Refusal::BadHandover => t::refusal_bad_handover(),
        Refusal::Superseded => t::refusal_superseded(),
        Refusal::BadFork => t::refusal_bad_fork(),
    }
}
