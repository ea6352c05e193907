//! The French wording of the room page: status lines, refusals, proposals, endings, presence
//! and the relay connection.

use crate::model::text;
use client_net::{Down, Refusal, Relay};
use engine::morris::Phase;
use engine::session::{
    CommandError, Ending, Presence, Proposal, RoomEvent, Seat, Session, Standing, Void,
};
use engine::{AnyGame, Player};

/// Why the local player cannot move now, if they cannot.
pub fn cannot_move(s: &Session) -> Option<&'static str> {
    Some(if s.suspended() {
        "La partie est suspendue."
    } else if s.game().is_none() {
        "La partie n'a pas encore commencé."
    } else if !s.room().in_progress() {
        "La partie est terminée : proposez une nouvelle partie."
    } else if s.presence() != Presence::Here {
        "Votre adversaire n'est pas là : la partie reprendra à son retour."
    } else if !s.my_turn() {
        "Ce n'est pas votre tour : attendez le coup de votre adversaire."
    } else {
        return None;
    })
}

/// A refused command, in French (`proposal`: the one asked for, to say how long a cooldown
/// lasts).
pub fn refusal(s: &Session, e: CommandError, proposal: Option<Proposal>, now: u64) -> String {
    let required = match s.game() {
        Some(AnyGame::Meta(g)) => g.required_board(),
        _ => None,
    };
    let is_morris = matches!(s.game(), Some(AnyGame::Morris(_)));
    match e {
        CommandError::Refused(Void::Illegal(i)) if is_morris => text::morris_refusal(i),
        CommandError::Refused(Void::Illegal(i)) => text::meta_refusal(i, required),
        CommandError::Refused(Void::NotYourTurn) => cannot_move(s)
            .unwrap_or("Ce n'est pas votre tour.")
            .to_string(),
        CommandError::Refused(Void::GameOver) => {
            "La partie est terminée : proposez une nouvelle partie.".to_string()
        }
        CommandError::Refused(Void::AlreadyProposing) => {
            "Une demande est déjà en attente de réponse.".to_string()
        }
        CommandError::Refused(Void::NothingToUndo) => "Il n'y a aucun tour à annuler.".to_string(),
        CommandError::Refused(Void::CoolingDown) => {
            let wait = proposal
                .and_then(|p| s.cooling_until(p))
                .or(s.knock_again_at())
                .map_or(0, |until| until.saturating_sub(now));
            format!(
                "Votre demande vient d'être refusée : vous pourrez la renouveler dans {}.",
                seconds(wait)
            )
        }
        CommandError::Refused(Void::TooLate) => {
            "La limite ne se change qu'avant le premier coup, ou avec une nouvelle partie."
                .to_string()
        }
        CommandError::Refused(Void::NotHost) => {
            "Seul l'hôte du salon choisit les options.".to_string()
        }
        CommandError::Refused(_) => "Action impossible pour le moment.".to_string(),
        CommandError::NoProposal => "Cette demande n'est plus en attente.".to_string(),
        CommandError::Expired => "Cette demande a expiré.".to_string(),
        CommandError::TooEarly => "La place de votre adversaire est encore réservée.".to_string(),
        CommandError::Suspended => "La partie est suspendue.".to_string(),
        CommandError::PeerAway => {
            "Votre adversaire n'est pas là : la partie reprendra à son retour.".to_string()
        }
        CommandError::NoKnock => "Plus aucun appareil ne demande cette place.".to_string(),
        CommandError::NotSeated => "Cet appareil n'a pas de place dans ce salon.".to_string(),
        CommandError::Seated => "Vous avez déjà votre place dans ce salon.".to_string(),
    }
}

/// « 12 s », « 1 min 40 s ».
pub fn seconds(ms: u64) -> String {
    let s = ms.div_ceil(1000);
    match (s / 60, s % 60) {
        (0, s) => format!("{s} s"),
        (m, 0) => format!("{m} min"),
        (m, s) => format!("{m} min {s} s"),
    }
}

/// What a proposal asks for, as the end of a sentence.
pub fn proposal_text(p: Proposal) -> String {
    match p {
        Proposal::Undo => "annuler le dernier tour".to_string(),
        Proposal::Draw => "une partie nulle".to_string(),
        Proposal::NewGame { max_turns: None } => "une nouvelle partie".to_string(),
        Proposal::NewGame { max_turns: Some(n) } => {
            format!("une nouvelle partie limitée à {n} tours")
        }
    }
}

/// The other side's proposal, as the title of its dialog.
pub fn their_proposal(p: Proposal) -> String {
    match p {
        Proposal::Undo => "Votre adversaire demande à annuler le dernier tour.".to_string(),
        Proposal::Draw => "Votre adversaire propose la partie nulle.".to_string(),
        Proposal::NewGame { .. } => format!("Votre adversaire propose {}.", proposal_text(p)),
    }
}

/// What a room event means for our own proposal, when it closed it.
pub fn our_proposal_news(event: &RoomEvent, me: Seat) -> Option<String> {
    match *event {
        RoomEvent::Accepted { seat, proposal, .. } if seat == me => Some(format!(
            "Votre adversaire a accepté : {}.",
            proposal_text(proposal)
        )),
        RoomEvent::Declined { seat, proposal, .. } if seat == me => Some(format!(
            "Votre adversaire a refusé : {}.",
            proposal_text(proposal)
        )),
        RoomEvent::Withdrawn {
            seat,
            expired: true,
            ..
        } if seat == me => Some("Votre demande a expiré sans réponse.".to_string()),
        RoomEvent::Withdrawn { seat, .. } if seat == me => Some("Demande retirée.".to_string()),
        RoomEvent::Lapsed { seat, proposal, .. } if seat == me => {
            Some(format!("Demande close : {}.", proposal_text(proposal)))
        }
        _ => None,
    }
}

/// What a room event about the other side's proposal tells the live region: its arrival, or
/// its end without our answer (our own answers and proposals have their notices).
pub fn their_proposal_news(event: &RoomEvent, me: Seat) -> Option<String> {
    match *event {
        RoomEvent::Proposed { seat, proposal, .. } if seat != me => Some(their_proposal(proposal)),
        RoomEvent::Withdrawn {
            seat,
            expired: true,
            ..
        } if seat != me => Some("La demande de votre adversaire a expiré.".to_string()),
        RoomEvent::Withdrawn { seat, .. } if seat != me => {
            Some("Votre adversaire a retiré sa demande.".to_string())
        }
        _ => None,
    }
}

/// A change of the other seat's presence, for the live region (the panel's line counts down
/// every second: too chatty to be live itself).
pub fn presence_news(before: Presence, now: Presence, s: &Session, at: u64) -> Option<String> {
    match (before, now) {
        (Presence::Here, Presence::Away { .. }) => Some(match s.reserved_until() {
            Some(until) if at < until => format!(
                "Votre adversaire s'est déconnecté : sa place est gardée {}.",
                countdown(until - at)
            ),
            _ => "Votre adversaire s'est déconnecté.".to_string(),
        }),
        (Presence::Away { .. }, Presence::Here) => {
            Some("Votre adversaire est de retour.".to_string())
        }
        (Presence::Waiting, Presence::Here) => Some("Votre adversaire est arrivé.".to_string()),
        _ => None,
    }
}

/// A countdown: « 4:05 ».
pub fn countdown(ms: u64) -> String {
    let s = ms.div_ceil(1000);
    format!("{}:{:02}", s / 60, s % 60)
}

/// The colour name of a player, with « (vous) » for ours.
fn who(s: &Session, p: Player) -> String {
    if p == s.player() {
        format!("{} (vous)", text::player_name(p))
    } else {
        text::player_name(p).to_string()
    }
}

/// The line under the board: the result, whose turn and what to do, or what we wait for.
pub fn status(s: &Session) -> String {
    let room = s.room();
    if room.incompatible == Some(Void::OtherGame) {
        return "Ce salon joue à l'autre jeu : ouvrez le lien sur la bonne page.".to_string();
    }
    if room.incompatible.is_some() {
        return "Votre adversaire utilise une autre version du site : rechargez la page."
            .to_string();
    }
    if s.standing() != Standing::Seated {
        return "Cet appareil n'a pas de place dans ce salon.".to_string();
    }
    if let Some(seat) = s.forked_seat() {
        return if seat == s.seat() {
            "Votre place est utilisée dans un autre onglet : la partie est suspendue."
        } else {
            "Votre adversaire a joué depuis deux onglets à la fois : la partie est suspendue."
        }
        .to_string();
    }
    let Some(g) = s.game() else {
        return "Connexion à l'hôte du salon…".to_string();
    };
    if let Some(ending) = room.ending {
        let player = |seat: Seat| who(s, room.player_of(seat));
        return match ending {
            Ending::Resigned(seat) => format!(
                "{} gagne : {} abandonne.",
                player(seat.other()),
                player(seat)
            ),
            Ending::DrawAgreed => "Partie nulle par accord.".to_string(),
            Ending::Claimed(seat) => format!(
                "{} gagne : {} n'est pas revenu à temps.",
                player(seat),
                player(seat.other())
            ),
            Ending::Left(seat) => format!(
                "{} gagne : {} a quitté le salon.",
                player(seat.other()),
                player(seat)
            ),
        };
    }
    let max_turns = match g {
        AnyGame::Morris(m) => m.max_turns(),
        AnyGame::Meta(_) => 0,
    };
    if let Some(o) = g.outcome() {
        return text::result(o, max_turns);
    }
    if !room.hello[Seat::Guest.index()] {
        return "En attente de votre adversaire : envoyez-lui le lien ou le code.".to_string();
    }
    let mover = g.to_move();
    if mover != s.player() {
        return format!(
            "Au tour de {} : attendez son coup.",
            text::player_name(mover)
        );
    }
    let me = text::player_name(mover);
    match g {
        AnyGame::Morris(m) => match m.phase() {
            Phase::Capture => format!(
                "Vous avez formé un moulin : choisissez un pion {} à capturer.",
                text::colour(mover.opponent())
            ),
            _ if m.is_placing() => format!("À vous ({me}) : posez un pion."),
            _ => format!("À vous ({me}) : déplacez un de vos pions."),
        },
        AnyGame::Meta(m) => match m.required_board() {
            Some(b) => format!(
                "À vous ({me}) : jouez dans la grille {}.",
                text::board_place(b)
            ),
            None => format!("À vous ({me}) : choix libre, jouez dans une grille bordée de vert."),
        },
    }
}

/// The presence of the other seat: the `data-presence` hook and the sentence.
pub fn presence(s: &Session, now: u64) -> (&'static str, String) {
    if s.standing() != Standing::Seated {
        // Not a player here: nobody is « votre adversaire ».
        return if s.presence() == Presence::Here {
            (
                "player-here",
                "Un joueur de ce salon est connecté : lui seul peut confier une place.".to_string(),
            )
        } else {
            (
                "no-player",
                "Aucun joueur de ce salon n'est connecté pour l'instant.".to_string(),
            )
        };
    }
    if s.stranger() && s.presence() != Presence::Here {
        let reserved = match s.reserved_until() {
            Some(until) if now < until => format!(
                " : la place de votre adversaire reste gardée encore {}.",
                countdown(until - now)
            ),
            Some(_) => {
                " : votre adversaire n'est pas revenu à temps, vous pouvez revendiquer la victoire."
                    .to_string()
            }
            None => ".".to_string(),
        };
        return ("stranger", format!("{STRANGER}{reserved}"));
    }
    match s.presence() {
        Presence::Waiting => (
            "waiting",
            "Votre adversaire n'est pas encore là.".to_string(),
        ),
        Presence::Here => ("here", "Votre adversaire est connecté.".to_string()),
        Presence::Away { .. } => {
            let until = s.reserved_until().unwrap_or(now);
            let text = if now < until {
                format!(
                    "Votre adversaire est déconnecté : sa place est gardée encore {}.",
                    countdown(until - now)
                )
            } else {
                "Votre adversaire n'est pas revenu à temps : vous pouvez revendiquer la victoire."
                    .to_string()
            };
            ("away", text)
        }
    }
}

/// A device on the connection that could not prove the other seat's key.
pub const STRANGER: &str = "Un autre appareil tente de rejoindre ce salon";

/// Both players reached the relay, but no data channel opens between them.
pub const BLOCKED: &str = "Connexion directe impossible : vos deux navigateurs ont rejoint le salon, mais vos réseaux bloquent la connexion directe entre eux.";

/// For whoever runs the site, under [`BLOCKED`].
pub const BLOCKED_HINT: &str = "Essayez un autre réseau (le partage de connexion d'un téléphone, par exemple). Pour l'administrateur du site : un serveur TURN relaie ces connexions (voir « TURN » dans docs/self-hosting.md).";

/// What a device without a seat reads: its standing, and what it may do.
pub fn standing(s: &Session) -> Option<(&'static str, String)> {
    let our_colour = || text::player_name(s.room().player_of(s.seat()));
    Some(match s.standing() {
        Standing::Seated => return None,
        Standing::Knocking { .. } => (
            "knocking",
            "Ce salon a déjà ses deux joueurs, et cet appareil n'est pas l'un d'eux. Si vous êtes l'un des deux sur un nouvel appareil, le joueur présent peut vous confier la place laissée libre : votre demande lui est envoyée, attendez sa réponse.".to_string(),
        ),
        Standing::Refused { expired: false, .. } => (
            "refused",
            "Le joueur présent a refusé de vous confier la place.".to_string(),
        ),
        Standing::Refused { expired: true, .. } => (
            "refused",
            "Le joueur présent n'a pas répondu à votre demande à temps.".to_string(),
        ),
        Standing::HandedAway => (
            "handed-away",
            format!(
                "Pendant votre absence, votre adversaire a confié votre place ({}) à un autre appareil : cet onglet ne joue plus.",
                our_colour()
            ),
        ),
    })
}

/// A new device asks for the other seat: the question to the present player.
pub fn knock_title(s: &Session, seat: Seat) -> String {
    format!(
        "Un nouvel appareil demande la place de {}. L'accepter ?",
        text::player_name(s.room().player_of(seat))
    )
}

/// Under [`knock_title`].
pub const KNOCK_BODY: &str = "Acceptez s'il s'agit bien de votre adversaire, sur un autre appareil ou un autre navigateur : la partie reprendra avec lui, et son ancien appareil ne pourra plus jouer. Sinon, refusez.";

/// A room full of its two players.
pub const ROOM_FULL: &str = "Salon complet : deux joueurs y sont déjà.";

/// The full-room page.
pub const ROOM_FULL_LONG: &str = "Deux joueurs sont déjà dans ce salon : il n'y a pas de place pour un troisième. Si l'un d'eux est vous, sur un autre appareil, fermez-le d'abord ; cette page réessaie d'elle-même.";

/// Why the relay refuses us.
pub fn refused(r: Refusal) -> &'static str {
    match r {
        Refusal::RoomFull => ROOM_FULL,
        Refusal::OriginNotAllowed => {
            "Ce relais n'accepte pas les pages venues d'une autre adresse."
        }
        Refusal::TooManyFromIp | Refusal::TooManyRooms | Refusal::RelayFull => {
            "Le relais est surchargé."
        }
        Refusal::BadRoom => "Ce nom de salon est refusé par le relais.",
    }
}

/// The state of our relay connection, when there is something to say.
pub fn relay(relay: Relay, has_peer: bool, now: u64) -> Option<String> {
    match relay {
        Relay::Connecting => Some("Connexion au relais…".to_string()),
        Relay::Joined if has_peer => None,
        Relay::Joined => Some("Relais joint : en attente de l'autre navigateur.".to_string()),
        Relay::Down { why, retry_at } => {
            let why = match why {
                Down::Cut => "La connexion au relais a été coupée.",
                Down::Refused(r) => refused(r),
                Down::Unreachable => "Le relais est injoignable.",
                Down::Replaced => "Reconnexion à votre adversaire…",
            };
            Some(format!(
                "{why} Nouvelle tentative dans {} s.",
                retry_at.saturating_sub(now).div_ceil(1000)
            ))
        }
    }
}

/// A guest alone for 30 s in a room whose host it never met.
pub const EXPIRED: &str = "Personne n'a ouvert ce salon depuis 30 secondes : il a peut-être expiré ou son hôte l'a fermé. Demandez un nouveau lien à votre ami ; cette page continue d'attendre.";

/// Our answer crossed the proposer's withdrawal, or its move.
pub const TOO_LATE: &str =
    "Votre réponse est arrivée trop tard : la demande n'était plus en attente.";

/// An entry of the other side that was refused or void.
pub const BAD_MESSAGE: &str =
    "Un message non valable de votre adversaire a été refusé : il ne change rien à la partie.";

/// Said when the opponent plays while this tab shows a past position.
pub const PLAYED_WHILE_BROWSING: &str =
    "Votre adversaire a joué pendant que vous regardiez l'historique : « Retour à la partie » pour répondre.";

/// How a game ended, as the exported record's `Reason` header and `engine verify` name it.
pub fn finish_name(f: engine::session::Finish) -> &'static str {
    use engine::session::{Ending, Finish};
    match f {
        Finish::Rules(r) => r.as_str(),
        Finish::Ending(Ending::Resigned(_)) => "resigned",
        Finish::Ending(Ending::DrawAgreed) => "agreed",
        Finish::Ending(Ending::Claimed(_)) => "claimed",
        Finish::Ending(Ending::Left(_)) => "left",
    }
}
