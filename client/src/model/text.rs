//! The French wording of the interface: names, labels, refusals and results.

use super::computer::{Computer, Opponent, Purpose, Rules};
use engine::meta::SmallBoard;
use engine::morris::{Morris, Stage, Turn};
use engine::{Game, Illegal, Outcome, Player, Reason};

/// « Bleu » or « Rouge ».
pub fn player_name(p: Player) -> &'static str {
    match p {
        Player::Blue => "Bleu",
        Player::Red => "Rouge",
    }
}

/// « bleu » or « rouge », as an adjective.
pub fn colour(p: Player) -> &'static str {
    match p {
        Player::Blue => "bleu",
        Player::Red => "rouge",
    }
}

/// The stage label under a Morris player.
pub fn stage(s: Stage) -> String {
    match s {
        Stage::Placing { remaining: 1 } => "Phase de pose (1 jeton restant)".to_string(),
        Stage::Placing { remaining } => format!("Phase de pose ({remaining} jetons restants)"),
        Stage::Moving => "Phase de mouvement".to_string(),
        Stage::Flying => "Phase de saut".to_string(),
    }
}

/// Under a Morris player: stage and pieces on the board.
pub fn morris_player(g: &Morris, p: Player) -> String {
    format!(
        "{} · {} sur le plateau",
        stage(g.stage(p)),
        match g.pieces_on_board(p) {
            1 => "1 pion".to_string(),
            n => format!("{n} pions"),
        }
    )
}

/// Under an Ultimate tic-tac-toe player: small boards won.
pub fn boards_won(n: u8) -> String {
    match n {
        0 => "Aucune grille gagnée".to_string(),
        1 => "1 grille gagnée".to_string(),
        n => format!("{n} grilles gagnées"),
    }
}

/// Why a Morris step was refused.
pub fn morris_refusal(e: Illegal) -> String {
    match e {
        Illegal::GameOver => "La partie est terminée : annulez le dernier tour ou commencez une nouvelle partie.",
        Illegal::CaptureRequired => "Vous avez formé un moulin : capturez d'abord un pion adverse entouré de doré.",
        Illegal::NoCapturePending => "Aucune capture n'est en attente.",
        Illegal::MustPlace => "Il vous reste des pions à poser : choisissez un point libre.",
        Illegal::MustMove => "Votre réserve est vide : déplacez un de vos pions.",
        Illegal::Occupied => "Ce point est déjà occupé.",
        Illegal::NotYourPiece => "Ce n'est pas un de vos pions.",
        Illegal::NotAdjacent => "Ce pion ne peut aller que sur un point voisin libre (le saut n'est permis qu'avec trois pions).",
        Illegal::NotOpponentPiece => "Capturez un pion adverse entouré de doré.",
        Illegal::Protected => "Ce pion est protégé par un moulin : choisissez un pion entouré de doré.",
        Illegal::SamePoint => "Choisissez un autre point.",
        Illegal::MissingCapture | Illegal::UnexpectedCapture => "Ce tour n'est pas valable.",
        Illegal::BoardClosed | Illegal::WrongBoard | Illegal::OutOfRange => "Coup impossible.",
    }
    .to_string()
}

/// Where a small board stands in the big one: « en haut à droite », « au centre », …
pub fn board_place(board: u8) -> &'static str {
    [
        "en haut à gauche",
        "en haut au centre",
        "en haut à droite",
        "au centre à gauche",
        "au centre",
        "au centre à droite",
        "en bas à gauche",
        "en bas au centre",
        "en bas à droite",
    ][board as usize % 9]
}

/// Why an Ultimate tic-tac-toe move was refused.
pub fn meta_refusal(e: Illegal, required: Option<u8>) -> String {
    match (e, required) {
        (Illegal::GameOver, _) => {
            "La partie est terminée : annulez le dernier coup ou commencez une nouvelle partie."
                .to_string()
        }
        (Illegal::Occupied, _) => "Cette case est déjà prise.".to_string(),
        (Illegal::BoardClosed, _) => {
            "Cette grille est terminée : jouez dans une grille ouverte.".to_string()
        }
        (Illegal::WrongBoard, Some(b)) => {
            format!("Vous devez jouer dans la grille {}.", board_place(b))
        }
        _ => "Coup impossible.".to_string(),
    }
}

/// The result banner.
pub fn result(o: Outcome, max_turns: u16) -> String {
    match (o.winner, o.reason) {
        (Some(w), Reason::Pieces) => format!(
            "{} gagne : {} n'a plus assez de pions.",
            player_name(w),
            player_name(w.opponent())
        ),
        (Some(w), Reason::Blocked) => format!(
            "{} gagne : {} est bloqué.",
            player_name(w),
            player_name(w.opponent())
        ),
        (Some(w), _) => format!("{} gagne : trois grilles alignées.", player_name(w)),
        (None, Reason::Repetition) => {
            "Partie nulle : la même position est apparue trois fois.".to_string()
        }
        (None, Reason::Limit) => format!("Partie nulle : limite de {max_turns} tours atteinte."),
        (None, _) => "Partie nulle : toutes les grilles sont fermées sans alignement.".to_string(),
    }
}

/// A screen-reader label for a small board's state.
pub fn small_board(s: SmallBoard) -> &'static str {
    match s {
        SmallBoard::Open => "ouverte",
        SmallBoard::Won(Player::Blue) => "gagnée par Bleu",
        SmallBoard::Won(Player::Red) => "gagnée par Rouge",
        SmallBoard::Drawn => "nulle",
    }
}

/// The status while the computer plays, or why it could not.
pub fn computer_status(failed: Option<Purpose>) -> String {
    match failed {
        Some(Purpose::Move) => COMPUTER_FAILED,
        _ => "L'ordinateur réfléchit…",
    }
    .to_string()
}

/// Why the computer did not play.
pub const COMPUTER_FAILED: &str = "L'ordinateur n'a pas pu jouer (son moteur ne s'est pas chargé) : annulez votre dernier tour ou commencez une nouvelle partie.";

/// Who is to move, to start the status line: « Au tour de Bleu », or « À vous (Bleu) » against
/// the computer.
pub fn turn_of(p: Player, human: Option<Player>) -> String {
    match human {
        None => format!("Au tour de {}", player_name(p)),
        Some(_) => format!("À vous ({})", player_name(p)),
    }
}

/// A player card's title: « Bleu », or « Bleu · vous » and « Rouge · ordinateur (Moyen) »
/// against the computer; `mark` follows the colour (« · croix »).
pub fn player_title(p: Player, opponent: Option<Opponent>, mark: &str) -> String {
    let name = player_name(p);
    match opponent {
        None => format!("{name}{mark}"),
        Some(o) if o.human == p => format!("{name}{mark} · vous"),
        Some(o) => format!("{name}{mark} · ordinateur ({})", o.level.spec().label),
    }
}

/// A Morris turn in words: « poser en d6 », « déplacer a7 vers d7, puis capturer g1 ».
pub fn morris_turn(t: Turn) -> String {
    let mut s = match t.from {
        None => format!("poser en {}", t.to),
        Some(from) => format!("déplacer {from} vers {}", t.to),
    };
    if let Some(c) = t.capture {
        s.push_str(&format!(", puis capturer {c}"));
    }
    s
}

/// The line under « Suggérer un coup »: searching, the suggestion in words, or the failure.
pub fn hint<G: Rules>(
    c: &Computer<G>,
    words: impl Fn(<G as Game>::Turn) -> String,
) -> Option<String> {
    if c.hinting() {
        return Some("Recherche d'un coup…".to_string());
    }
    match (c.hint, c.failed) {
        (Some(h), _) => Some(format!("Suggestion : {}.", words(h))),
        (None, Some(Purpose::Hint)) => Some("La suggestion n'a pas pu être calculée.".to_string()),
        _ => None,
    }
}

/// Refusal of a turn limit outside 1–500 or not a number.
pub const LIMIT_ERROR: &str = "La limite doit être un nombre entier de 1 à 500.";

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
