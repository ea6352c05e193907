//! What stays in this tab on the room page — the selected piece, the keyboard focus, the open
//! local dialog, the host's limit as typed — and how a click becomes a protocol command.

use super::text;
use crate::i18n::{t, Text};
use crate::model::history::{Browse, Nav};
use crate::model::rules::{RulesForm, RulesInput};
use crate::model::selection::{self, Click};
use crate::model::{parse_limit, NewGameDialog};
use engine::meta::Cell;
use engine::morris::Point;
use engine::session::{Colours, Command, Proposal, Seat, Session, Step};
use engine::{AnyGame, Direction};

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

/// What the invitation's copy buttons copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Copyable {
    /// The invitation link.
    Link,
    /// The room's short code.
    Code,
    /// The spectator link.
    Watch,
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
    /// Enter or Space on the board: the focused point or cell.
    ActivateFocus,
    /// « Annuler »: clears a selection, else asks to take back the last turn.
    Undo,
    /// « Proposer la nulle ».
    Draw,
    /// « Nouvelle partie »: opens the dialog.
    AskNewGame,
    /// The limit typed in the new-game dialog.
    DialogLimit(String),
    /// The host's Morris rules in the new-game dialog.
    DialogRules(RulesInput),
    /// The host's colours in the new-game dialog: by lot or not.
    DialogLot(bool),
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
    /// « Copier le lien » or « Copier le code »: whether the browser copied it.
    Copied(Copyable, bool),
    /// « Exporter la partie »: opens or closes the export panel.
    ToggleExport,
    /// « Accepter » or « Refuser » a new device asking for the other seat.
    Handover(bool),
    /// « Redemander la place »: ask the present player again for the seat that is away.
    Knock,
    /// « Réessayer »: a new connection now.
    Retry,
    /// Going back through the game (a turn clicked, ←, →, Home, End, « Retour à la partie »):
    /// this tab only, nothing is sent.
    History(Nav),
}

/// The tab's own state on the room page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Local {
    /// The selected Morris piece: never sent.
    pub selected: Option<Point>,
    /// Keyboard focus on the Morris board.
    pub point: Point,
    /// Keyboard focus on the Ultimate tic-tac-toe board.
    pub cell: Cell,
    /// The open local dialog.
    pub dialog: Option<Dialog>,
    /// The host's limit setting as typed.
    pub limit_text: Option<String>,
    /// Why the typed limit was refused.
    pub limit_error: Option<Text>,
    /// The position shown: live, or a past one (read-only).
    pub browse: Browse,
    /// The host's options in the new-game dialog: the Morris rules, and colours by lot.
    pub dialog_options: Option<(RulesForm, bool)>,
}

impl Default for Local {
    fn default() -> Local {
        Local {
            selected: None,
            point: Point::new(0).expect("point 0"),
            cell: Cell::at(4, 4).expect("centre cell"),
            dialog: None,
            limit_text: None,
            limit_error: None,
            browse: Browse::default(),
            dialog_options: None,
        }
    }
}

/// What a local event leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing more to do (the tab's state changed, or nothing did).
    Done,
    /// Say this (a move that cannot be made now, a blocked piece…).
    Notice(Text),
    /// Send this command.
    Command(Command),
}

impl Local {
    /// Handles one event on the tab's own state; says what should follow.
    pub fn update(&mut self, s: &Session, event: Event) -> Outcome {
        match event {
            Event::History(_)
            | Event::Point(_)
            | Event::Cell(_)
            | Event::ActivateFocus
            | Event::Arrow(_) => self.board(s, event),
            Event::AskNewGame
            | Event::DialogLimit(_)
            | Event::DialogRules(_)
            | Event::DialogLot(_)
            | Event::AskResign
            | Event::AskLeave
            | Event::Confirm
            | Event::Cancel => self.dialog(s, event),
            // « Annuler » on a past position first shows the live game again.
            Event::Undo if !self.browse.is_live() => {
                self.browse = Browse::default();
                Outcome::Done
            }
            Event::Undo => match self.selected.take() {
                Some(_) => Outcome::Done,
                None => Outcome::Command(Command::Propose(Proposal::Undo)),
            },
            Event::Draw => Outcome::Command(Command::Propose(Proposal::Draw)),
            Event::Withdraw => Outcome::Command(Command::Withdraw),
            Event::Reply(accept) => Outcome::Command(Command::Reply { accept }),
            Event::Claim => Outcome::Command(Command::ClaimWin),
            Event::Handover(accept) => Outcome::Command(Command::Handover { accept }),
            Event::Knock => Outcome::Command(Command::Knock),
            Event::Limit(t) => self.limit(t),
            // Handled by the room model.
            Event::Copied(..) | Event::ToggleExport | Event::Retry => Outcome::Done,
        }
    }

    /// A click or a key on the board, or going through the history.
    fn board(&mut self, s: &Session, event: Event) -> Outcome {
        match event {
            Event::History(nav) => {
                if let Some(t) = s.room().table() {
                    self.browse.go_on(nav, t);
                }
                Outcome::Done
            }
            Event::Point(p) if !self.browse.is_live() => {
                self.point = p;
                Outcome::Notice(Text::of(t::read_only))
            }
            Event::Cell(c) if !self.browse.is_live() => {
                self.cell = c;
                Outcome::Notice(Text::of(t::read_only))
            }
            Event::Point(p) => {
                self.point = p;
                self.morris_click(s, p)
            }
            Event::Cell(c) => {
                self.cell = c;
                match text::cannot_move(s) {
                    Some(why) => Outcome::Notice(Text::of(why)),
                    None => Outcome::Command(Command::Play(Step::from_cell(c))),
                }
            }
            Event::ActivateFocus => match s.game() {
                Some(AnyGame::Morris(_)) => self.board(s, Event::Point(self.point)),
                Some(AnyGame::Meta(_)) => self.board(s, Event::Cell(self.cell)),
                None => Outcome::Done,
            },
            Event::Arrow(d) => {
                self.point = self.point.toward(d);
                self.cell = self.cell.toward(d);
                Outcome::Done
            }
            _ => Outcome::Done,
        }
    }

    /// Opening, filling in, confirming or closing this tab's dialog.
    fn dialog(&mut self, s: &Session, event: Event) -> Outcome {
        match event {
            Event::AskNewGame => {
                let limit = match s.game() {
                    Some(AnyGame::Morris(g)) => g.max_turns().to_string(),
                    _ => String::new(),
                };
                self.dialog = Some(Dialog::NewGame(NewGameDialog {
                    limit_text: limit,
                    error: None,
                }));
                // The host may change the options; they start as the room's.
                let room = s.room();
                let lot = matches!(room.colours, Colours::Lot { .. });
                self.dialog_options = (s.seat() == Seat::Host && room.protocol[0] >= 3)
                    .then(|| (RulesForm::new(room.morris_rules), lot));
            }
            Event::DialogRules(input) => {
                if let Some((form, _)) = self.dialog_options.as_mut() {
                    form.apply(input);
                }
            }
            Event::DialogLot(lot) => {
                if let Some((_, chosen)) = self.dialog_options.as_mut() {
                    *chosen = lot;
                }
            }
            Event::DialogLimit(t) => {
                if let Some(Dialog::NewGame(d)) = self.dialog.as_mut() {
                    d.limit_text = t;
                    d.error = None;
                }
            }
            Event::AskResign => self.dialog = Some(Dialog::Resign),
            Event::AskLeave => self.dialog = Some(Dialog::Leave),
            Event::Confirm => return self.confirm(s),
            Event::Cancel => {
                self.dialog = None;
                self.dialog_options = None;
            }
            _ => {}
        }
        Outcome::Done
    }

    /// The host's turn-limit setting, as typed: sent once it is a valid limit.
    fn limit(&mut self, t: String) -> Outcome {
        let r = parse_limit(&t);
        self.limit_text = Some(t);
        match r {
            Ok(n) => {
                self.limit_error = None;
                Outcome::Command(Command::Settings { max_turns: n })
            }
            Err(e) => {
                self.limit_error = Some(e);
                Outcome::Done
            }
        }
    }

    fn confirm(&mut self, s: &Session) -> Outcome {
        let Some(dialog) = self.dialog.take() else {
            return Outcome::Done;
        };
        let command = match dialog {
            Dialog::Resign => Command::Resign,
            Dialog::Leave => Command::Leave,
            Dialog::NewGame(mut d) => {
                let max_turns = match (s.seat(), s.game()) {
                    (Seat::Host, Some(AnyGame::Morris(g))) => match parse_limit(&d.limit_text) {
                        Ok(n) if n == g.max_turns() => None,
                        Ok(n) => Some(n),
                        Err(e) => {
                            d.error = Some(e);
                            self.dialog = Some(Dialog::NewGame(d));
                            return Outcome::Done;
                        }
                    },
                    _ => None,
                };
                if self
                    .dialog_options
                    .as_ref()
                    .is_some_and(|(f, _)| f.error.is_some())
                {
                    self.dialog = Some(Dialog::NewGame(d));
                    return Outcome::Done;
                }
                let room = s.room();
                let current = room.options();
                let proposal = match self.dialog_options.take() {
                    Some((form, lot)) => {
                        let rules = match s.game() {
                            Some(AnyGame::Morris(_)) => form.rules,
                            _ => current.rules,
                        };
                        let limit = max_turns.unwrap_or(current.max_turns);
                        let was_lot = matches!(current.colours, Colours::Lot { .. });
                        if rules == current.rules && lot == was_lot {
                            Proposal::NewGame { max_turns }
                        } else {
                            let game = room.game_number + 1;
                            Proposal::NewGameWith(s.options(limit, rules, lot, game))
                        }
                    }
                    None => Proposal::NewGame { max_turns },
                };
                Command::Propose(proposal)
            }
        };
        Outcome::Command(command)
    }

    fn morris_click(&mut self, s: &Session, p: Point) -> Outcome {
        if let Some(why) = text::cannot_move(s) {
            return Outcome::Notice(Text::of(why));
        }
        let Some(AnyGame::Morris(g)) = s.game() else {
            return Outcome::Done;
        };
        match selection::click(g, self.selected, p) {
            Click::Play(action) => Outcome::Command(Command::Play(Step::from_morris(action))),
            Click::Select(p, why) => {
                self.selected = Some(p);
                why.map_or(Outcome::Done, Outcome::Notice)
            }
            Click::Deselect => {
                self.selected = None;
                Outcome::Done
            }
            Click::Refuse(why) => Outcome::Notice(why),
        }
    }
}
