//! The remote page as a model: what the local player sees and does around a
//! [`Session`](engine::session::Session). The session holds the shared room (game, proposals,
//! presence); this model holds only what stays in this tab — the selected piece, the keyboard
//! focus, the last refusal and the open local dialog — and turns clicks into protocol commands.

use super::text;
use super::{parse_limit, NewGameDialog};
use engine::meta::Cell;
use engine::morris::{self, Phase, Point};
use engine::session::{
    Command, CommandError, Ending, Presence, Proposal, Seat, Session, Step, Void,
};
use engine::{AnyGame, Direction, Game, Player};

/// A dialog of this tab (the other side's proposals are shown from the session itself).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dialog {
    /// « Nouvelle partie »: a proposal to compose (the host may change the Morris limit).
    NewGame(NewGameDialog),
    /// « Abandonner ? »
    Resign,
    /// « Quitter le salon ? »
    Leave,
}

/// What the local player did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A click, or Enter/Space, on a Morris point.
    Point(Point),
    /// A click, or Enter/Space, on an Ultimate tic-tac-toe cell.
    Cell(Cell),
    /// An arrow key on the board.
    Arrow(Direction),
    /// « Annuler »: clears a selection, else asks to take back the last turn.
    Undo,
    /// « Proposer la nulle ».
    Draw,
    /// « Nouvelle partie »: opens the dialog.
    AskNewGame,
    /// The limit typed in the new-game dialog.
    DialogLimit(String),
    /// « Abandonner »: opens the confirmation.
    AskResign,
    /// « Quitter le salon »: opens the confirmation.
    AskLeave,
    /// Confirms the open dialog.
    Confirm,
    /// Closes the open dialog, changing nothing.
    Cancel,
    /// « Retirer la demande ».
    Withdraw,
    /// « Accepter » or « Refuser » the other side's proposal.
    Reply(bool),
    /// « Revendiquer la victoire » once the other seat's reservation ran out.
    Claim,
    /// The host's turn-limit setting before the first move.
    Limit(String),
}

/// The tab's own state on the remote page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Local {
    /// The selected Morris piece: never sent.
    pub selected: Option<Point>,
    /// Keyboard focus on the Morris board.
    pub point: Point,
    /// Keyboard focus on the Ultimate tic-tac-toe board.
    pub cell: Cell,
    /// The last refusal or news, in French.
    pub notice: Option<String>,
    /// The open local dialog.
    pub dialog: Option<Dialog>,
    /// The host's limit setting as typed, and why it was refused.
    pub limit_text: Option<String>,
    /// Why the typed limit was refused.
    pub limit_error: Option<String>,
}

impl Default for Local {
    fn default() -> Local {
        Local {
            selected: None,
            point: Point::new(0).expect("point 0"),
            cell: Cell::at(4, 4).expect("centre cell"),
            notice: None,
            dialog: None,
            limit_text: None,
            limit_error: None,
        }
    }
}

impl Local {
    /// Handles one event; returns the command to send, if any (then report a refusal with
    /// [`Local::refused`]).
    pub fn update(&mut self, s: &Session, event: Event) -> Option<Command> {
        // A new action replaces the last notice (arrows only move the focus).
        if !matches!(event, Event::Arrow(_) | Event::DialogLimit(_)) {
            self.notice = None;
        }
        match event {
            Event::Point(p) => {
                self.point = p;
                self.morris_click(s, p)
            }
            Event::Cell(c) => {
                self.cell = c;
                self.notice = None;
                self.check_can_move(s)?;
                Some(Command::Play(Step::from_cell(c)))
            }
            Event::Arrow(d) => {
                self.point = self.point.toward(d);
                self.cell = self.cell.toward(d);
                None
            }
            Event::Undo => {
                self.notice = None;
                if self.selected.take().is_some() {
                    return None;
                }
                Some(Command::Propose(Proposal::Undo))
            }
            Event::Draw => {
                self.notice = None;
                Some(Command::Propose(Proposal::Draw))
            }
            Event::AskNewGame => {
                self.notice = None;
                let limit = match s.game() {
                    Some(AnyGame::Morris(g)) => g.max_turns().to_string(),
                    _ => String::new(),
                };
                self.dialog = Some(Dialog::NewGame(NewGameDialog {
                    limit_text: limit,
                    error: None,
                }));
                None
            }
            Event::DialogLimit(t) => {
                if let Some(Dialog::NewGame(d)) = self.dialog.as_mut() {
                    d.limit_text = t;
                    d.error = None;
                }
                None
            }
            Event::AskResign => {
                self.dialog = Some(Dialog::Resign);
                None
            }
            Event::AskLeave => {
                self.dialog = Some(Dialog::Leave);
                None
            }
            Event::Confirm => match self.dialog.take()? {
                Dialog::Resign => Some(Command::Resign),
                Dialog::Leave => Some(Command::Leave),
                Dialog::NewGame(mut d) => {
                    let max_turns = match (s.seat(), s.game()) {
                        (Seat::Host, Some(AnyGame::Morris(g))) => {
                            match parse_limit(&d.limit_text) {
                                Ok(n) if n == g.max_turns() => None,
                                Ok(n) => Some(n),
                                Err(e) => {
                                    d.error = Some(e);
                                    self.dialog = Some(Dialog::NewGame(d));
                                    return None;
                                }
                            }
                        }
                        _ => None,
                    };
                    Some(Command::Propose(Proposal::NewGame { max_turns }))
                }
            },
            Event::Cancel => {
                self.dialog = None;
                None
            }
            Event::Withdraw => Some(Command::Withdraw),
            Event::Reply(accept) => Some(Command::Reply { accept }),
            Event::Claim => Some(Command::ClaimWin),
            Event::Limit(t) => {
                let r = parse_limit(&t);
                self.limit_text = Some(t);
                match r {
                    Ok(n) => {
                        self.limit_error = None;
                        Some(Command::Settings { max_turns: n })
                    }
                    Err(e) => {
                        self.limit_error = Some(e);
                        None
                    }
                }
            }
        }
    }

    /// A command was sent: forget what it consumed.
    pub fn sent(&mut self, command: Command) {
        if let Command::Play(_) = command {
            self.selected = None;
        }
    }

    /// The session refused a command: say why.
    pub fn refused(&mut self, s: &Session, e: CommandError) {
        self.notice = Some(refusal(s, e));
    }

    /// Says why the local player cannot move now, or `Some(())` when they can.
    fn check_can_move(&mut self, s: &Session) -> Option<()> {
        if s.my_turn() {
            return Some(());
        }
        self.notice = Some(cannot_move(s).to_string());
        None
    }

    fn morris_click(&mut self, s: &Session, p: Point) -> Option<Command> {
        self.notice = None;
        self.check_can_move(s)?;
        let Some(AnyGame::Morris(g)) = s.game() else {
            return None;
        };
        let action = match g.phase() {
            Phase::Over => return None,
            Phase::Capture => morris::Action::Capture(p),
            Phase::Play if g.is_placing() => morris::Action::Place(p),
            Phase::Play => match (self.selected, g.piece_at(p)) {
                (Some(sel), _) if sel == p => {
                    self.selected = None;
                    return None;
                }
                (_, Some(owner)) if owner == g.to_move() => {
                    self.selected = Some(p);
                    if g.destinations(p).is_empty() {
                        self.notice =
                            Some("Ce pion est bloqué : choisissez-en un autre.".to_string());
                    }
                    return None;
                }
                (Some(from), None) => morris::Action::Move { from, to: p },
                (None, None) => {
                    self.notice =
                        Some("Choisissez d'abord un de vos pions à déplacer.".to_string());
                    return None;
                }
                (_, Some(_)) => {
                    self.notice = Some(text::morris_refusal(engine::Illegal::NotYourPiece));
                    return None;
                }
            },
        };
        Some(Command::Play(Step::from_morris(action)))
    }
}

/// Why the local player cannot move now.
pub fn cannot_move(s: &Session) -> &'static str {
    if s.suspended() {
        "La partie est suspendue."
    } else if s.game().is_none() {
        "La partie n'a pas encore commencé."
    } else if !s.room().in_progress() {
        "La partie est terminée : proposez une nouvelle partie."
    } else if s.presence() != Presence::Here {
        "Votre adversaire n'est pas là : la partie reprendra à son retour."
    } else {
        "Ce n'est pas votre tour : attendez le coup de votre adversaire."
    }
}

/// A refused command, in French.
pub fn refusal(s: &Session, e: CommandError) -> String {
    let required = match s.game() {
        Some(AnyGame::Meta(g)) => g.required_board(),
        _ => None,
    };
    let is_morris = matches!(s.game(), Some(AnyGame::Morris(_)));
    match e {
        CommandError::Refused(Void::Illegal(i)) if is_morris => text::morris_refusal(i),
        CommandError::Refused(Void::Illegal(i)) => text::meta_refusal(i, required),
        CommandError::Refused(Void::NotYourTurn) => cannot_move(s).to_string(),
        CommandError::Refused(Void::GameOver) => {
            "La partie est terminée : proposez une nouvelle partie.".to_string()
        }
        CommandError::Refused(Void::AlreadyProposing) => {
            "Une demande est déjà en attente de réponse.".to_string()
        }
        CommandError::Refused(Void::NothingToUndo) => "Il n'y a aucun tour à annuler.".to_string(),
        CommandError::Refused(Void::CoolingDown) => {
            "Votre demande vient d'être refusée : attendez un peu avant de la renouveler."
                .to_string()
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

/// The result of the current game: `None` while it is played, else the winner (or none for a
/// draw).
pub fn result(s: &Session) -> Option<Option<Player>> {
    let room = s.room();
    if room.game.is_none() || room.in_progress() {
        return None;
    }
    Some(room.winner())
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
    if s.forked() {
        return "Votre place est utilisée dans un autre onglet : la partie est suspendue."
            .to_string();
    }
    let Some(g) = s.game() else {
        return "Connexion à l'hôte du salon…".to_string();
    };
    let room_player = |seat: Seat| room.player_of(seat);
    if let Some(ending) = room.ending {
        return match ending {
            Ending::Resigned(seat) => format!(
                "{} gagne : {} abandonne.",
                who(s, room_player(seat.other())),
                who(s, room_player(seat))
            ),
            Ending::DrawAgreed => "Partie nulle par accord.".to_string(),
            Ending::Claimed(seat) => format!(
                "{} gagne : {} n'est pas revenu à temps.",
                who(s, room_player(seat)),
                who(s, room_player(seat.other()))
            ),
            Ending::Left(seat) => format!(
                "{} gagne : {} a quitté le salon.",
                who(s, room_player(seat.other())),
                who(s, room_player(seat))
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

/// What happened to our proposal `p` that is no longer open, in French.
pub fn closed_proposal(s: &Session, seq: u32, p: Proposal) -> String {
    match s.answer_to(seq) {
        Some(true) => format!("Votre adversaire a accepté : {}.", proposal_text(p)),
        Some(false) => format!("Votre adversaire a refusé : {}.", proposal_text(p)),
        None => format!("Demande close : {}.", proposal_text(p)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::session::{Config, Effect, Invite};
    use engine::GameKind;
    use std::collections::VecDeque;

    /// Two sessions joined by hand, messages delivered at once.
    struct Pair {
        sides: [Session; 2],
        now: u64,
    }

    impl Pair {
        fn new(kind: GameKind) -> Pair {
            let invite = Invite::new(kind, 100, [1; 16], [2; 32], [3; 16]);
            let host = Session::host(invite.clone(), [2; 32], Config::default(), 0).unwrap();
            let guest = Session::guest(invite, [4; 32], Config::default(), 0);
            let mut p = Pair {
                sides: [host, guest],
                now: 1,
            };
            let a = p.sides[0].peer_connected(1);
            let b = p.sides[1].peer_connected(1);
            p.deliver(0, a);
            p.deliver(1, b);
            p
        }

        fn deliver(&mut self, from: usize, effects: Vec<Effect>) {
            let mut queue: VecDeque<(usize, Vec<u8>)> = effects
                .into_iter()
                .filter_map(|e| match e {
                    Effect::Send(m) => Some((1 - from, m)),
                    _ => None,
                })
                .collect();
            for _ in 0..40 {
                let Some((to, m)) = queue.pop_front() else {
                    break;
                };
                for e in self.sides[to].receive(&m, self.now) {
                    if let Effect::Send(m) = e {
                        queue.push_back((1 - to, m));
                    }
                }
            }
        }

        /// One UI event on a side: the command it yields is acted and delivered.
        fn ui(&mut self, side: usize, local: &mut Local, e: Event) {
            self.now += 10;
            if let Some(c) = local.update(&self.sides[side], e) {
                match self.sides[side].act(c, self.now) {
                    Ok(out) => {
                        local.sent(c);
                        self.deliver(side, out);
                    }
                    Err(err) => local.refused(&self.sides[side], err),
                }
            }
        }
    }

    fn pt(name: &str) -> Point {
        Point::from_name(name).unwrap()
    }

    #[test]
    fn only_the_player_to_move_acts_and_the_selection_stays_local() {
        let mut p = Pair::new(GameKind::Morris);
        let (mut host, mut guest) = (Local::default(), Local::default());
        assert_eq!(
            status(&p.sides[0]),
            "À vous (Bleu) : posez un pion.",
            "the host moves first"
        );
        p.ui(1, &mut guest, Event::Point(pt("d6")));
        assert_eq!(
            guest.notice.as_deref(),
            Some("Ce n'est pas votre tour : attendez le coup de votre adversaire.")
        );
        assert_eq!(p.sides[0].game().unwrap().turns(), 0);
        // Placing all 18 pieces without a mill, then a selection that is never sent.
        let order = [
            "a7", "d7", "g7", "a4", "g4", "a1", "d1", "g1", "b6", "d6", "f6", "b4", "f4", "b2",
            "d2", "f2", "c5", "e5",
        ];
        for (i, name) in order.iter().enumerate() {
            let (side, local) = if i % 2 == 0 {
                (0, &mut host)
            } else {
                (1, &mut guest)
            };
            p.ui(side, local, Event::Point(pt(name)));
            assert_eq!(local.notice, None, "{name}");
        }
        assert_eq!(p.sides[1].game().unwrap().turns(), 18);
        let before = p.sides[0].entries().len();
        p.ui(0, &mut host, Event::Point(pt("c5")));
        assert_eq!(host.selected, Some(pt("c5")));
        assert_eq!(
            p.sides[0].entries().len(),
            before,
            "a selection sends nothing"
        );
        p.ui(0, &mut host, Event::Point(pt("c4")));
        assert_eq!(host.selected, None);
        assert_eq!(
            p.sides[1].game(),
            p.sides[0].game(),
            "the move reached the guest"
        );
        assert_eq!(
            p.sides[1].room().record().split(' ').next_back(),
            Some("c5-c4")
        );
    }

    #[test]
    fn refusals_are_explained_and_proposals_round_trip() {
        let mut p = Pair::new(GameKind::Meta);
        let (mut host, mut guest) = (Local::default(), Local::default());
        p.ui(0, &mut host, Event::Undo);
        assert_eq!(
            host.notice.as_deref(),
            Some("Il n'y a aucun tour à annuler.")
        );
        p.ui(0, &mut host, Event::Cell(Cell::from_name("e5").unwrap()));
        p.ui(1, &mut guest, Event::Cell(Cell::from_name("a1").unwrap()));
        assert_eq!(
            guest.notice.as_deref(),
            Some("Vous devez jouer dans la grille au centre.")
        );
        p.ui(0, &mut host, Event::Undo);
        let [mine, _] = p.sides[0].proposals();
        let (open, _) = mine.expect("the undo request is open");
        let [_, theirs] = p.sides[1].proposals();
        assert_eq!(
            their_proposal(theirs.unwrap().0.proposal),
            "Votre adversaire demande à annuler le dernier tour."
        );
        p.ui(1, &mut guest, Event::Reply(false));
        assert_eq!(
            closed_proposal(&p.sides[0], open.seq, open.proposal),
            "Votre adversaire a refusé : annuler le dernier tour."
        );
        assert_eq!(p.sides[0].game().unwrap().turns(), 1);
        // Asking again at once is cooling down.
        p.ui(0, &mut host, Event::Undo);
        assert!(host.notice.as_deref().unwrap().contains("attendez un peu"));
    }

    #[test]
    fn the_guest_cannot_change_the_limit_and_the_host_is_checked() {
        let mut p = Pair::new(GameKind::Morris);
        let (mut host, mut guest) = (Local::default(), Local::default());
        p.ui(1, &mut guest, Event::Limit("30".into()));
        assert_eq!(
            guest.notice.as_deref(),
            Some("Seul l'hôte du salon choisit les options.")
        );
        p.ui(0, &mut host, Event::Limit("501".into()));
        assert_eq!(host.limit_error.as_deref(), Some(text::LIMIT_ERROR));
        p.ui(0, &mut host, Event::Limit("30".into()));
        let Some(AnyGame::Morris(g)) = p.sides[1].game() else {
            panic!()
        };
        assert_eq!(g.max_turns(), 30);
        // A new game with a bad limit keeps the dialog open with the message.
        p.ui(0, &mut host, Event::AskNewGame);
        p.ui(0, &mut host, Event::DialogLimit("0".into()));
        p.ui(0, &mut host, Event::Confirm);
        assert!(matches!(&host.dialog, Some(Dialog::NewGame(d)) if d.error.is_some()));
        p.ui(0, &mut host, Event::DialogLimit("12".into()));
        p.ui(0, &mut host, Event::Confirm);
        assert_eq!(
            p.sides[1].proposals()[1].map(|(o, _)| o.proposal),
            Some(Proposal::NewGame {
                max_turns: Some(12)
            })
        );
        p.ui(1, &mut guest, Event::Reply(true));
        assert_eq!(
            status(&p.sides[1]),
            "À vous (Bleu) : posez un pion.",
            "the guest opens the rematch"
        );
    }

    #[test]
    fn an_acceptance_crossing_our_expiry_is_found_and_worded() {
        let mut p = Pair::new(GameKind::Meta);
        let (mut host, mut guest) = (Local::default(), Local::default());
        p.ui(0, &mut host, Event::Cell(Cell::from_name("e5").unwrap()));
        p.ui(1, &mut guest, Event::Cell(Cell::from_name("e6").unwrap()));
        p.ui(1, &mut guest, Event::Undo);
        let (open, _) = p.sides[1].proposals()[0].expect("the guest's request");
        // The host accepts just before the guest's minute runs out; the guest's withdrawal
        // crosses it on the way.
        let start = p.now;
        let accept = p.sides[0]
            .act(Command::Reply { accept: true }, start + 59_000)
            .unwrap();
        let expiry = p.sides[1].tick(start + 60_001);
        assert!(expiry.contains(&Effect::Event(engine::session::Event::ProposalExpired)));
        p.now = start + 60_002;
        p.deliver(0, accept);
        p.deliver(1, expiry);
        assert_eq!(p.sides[0].room(), p.sides[1].room(), "both agree");
        assert_eq!(p.sides[1].answer_to(open.seq), Some(true));
        assert_eq!(
            p.sides[1].game().unwrap().turns(),
            1,
            "the undo was granted"
        );
        assert_eq!(
            closed_proposal(&p.sides[1], open.seq, open.proposal),
            "Votre adversaire a accepté : annuler le dernier tour."
        );
    }

    #[test]
    fn endings_name_the_winner_and_the_reason() {
        let mut p = Pair::new(GameKind::Meta);
        let (mut host, _) = (Local::default(), Local::default());
        host.notice = Some("Demande retirée.".into());
        p.ui(0, &mut host, Event::Arrow(Direction::Left));
        assert!(host.notice.is_some(), "moving the focus keeps the notice");
        p.ui(0, &mut host, Event::AskResign);
        assert_eq!(host.notice, None, "a new action replaces it");
        p.ui(0, &mut host, Event::Confirm);
        assert_eq!(status(&p.sides[1]), "Rouge (vous) gagne : Bleu abandonne.");
        assert_eq!(status(&p.sides[0]), "Rouge gagne : Bleu (vous) abandonne.");
        assert_eq!(result(&p.sides[0]), Some(Some(Player::Red)));
        assert_eq!(countdown(299_001), "5:00");
        assert_eq!(countdown(59_000), "0:59");
    }
}
