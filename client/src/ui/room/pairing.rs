//! A room paired by hand (« Sans serveur », issue #25): the texts' state, which the browser's
//! environment ([`super::env::Tab`]) and the room page share, and the panel that shows them.
//!
//! The runtime opens links as for any room; in a room paired by hand each is a
//! `client_net::Link::paired`, attached here ([`Pairing::attach`]): the host's makes an offer at
//! once, the guest's answers the offer it was given. The panel shows the host its offer (a link
//! to this page carrying it, the text, a QR code) and a box for the answer; the guest a box for
//! the offer (when it did not come in the URL) and its answer to send back. Once the channel
//! opens the room plays as any other; when it is lost the link ends, the runtime opens the next
//! one, and the panel says « Nouvel échange »: a fresh pair of texts rejoins the same seats.

use super::super::browser;
use super::super::{use_lang, words, Route};
use super::parts::{qr_svg, QR_QUIET};
use crate::i18n::t;
use crate::model::qr::Qr;
use crate::model::room::pairing::{invite_bytes, read_answer, read_offer, TextError};
use crate::model::seat::Invite;
use client_net::pairing::{Kind, Signal};
use client_net::PairedLink;
use std::cell::{Cell, RefCell};
use yew::prelude::*;

/// The texts of a room paired by hand.
pub struct Pairing {
    /// We hold the host's seat: we make the offers.
    pub host: bool,
    /// The room's invitation (what the host's offers carry).
    pub invite: Invite,
    /// The current link's hold, once the runtime opened one.
    link: RefCell<Option<PairedLink>>,
    /// The guest: an offer given (in the URL, or pasted) that no link answered yet.
    offer: RefCell<Option<Signal>>,
    /// The guest: the offer the current link answers.
    answering: RefCell<Option<Signal>>,
    /// The host: the current link answered (its answer was taken).
    answered: Cell<bool>,
    /// Our text for the current link, once read from its description (the page draws it on
    /// every render; the description does not change until the link answers another offer).
    ours: RefCell<Option<Signal>>,
    /// Links opened: after the first, the panel says « Nouvel échange ».
    links: Cell<u32>,
}

impl Pairing {
    /// The texts of the room `invite` names, for the seat we hold; the guest may come with the
    /// host's offer (from the URL).
    pub fn new(host: bool, invite: Invite, offer: Option<Signal>) -> Pairing {
        Pairing {
            host,
            invite,
            link: RefCell::default(),
            offer: RefCell::new(offer),
            answering: RefCell::default(),
            answered: Cell::new(false),
            ours: RefCell::default(),
            links: Cell::new(0),
        }
    }

    /// The runtime opened a new link paired by hand: the host offers at once; the guest answers
    /// the offer it holds, if it holds one not answered yet.
    pub fn attach(&self, link: PairedLink) {
        self.links.set(self.links.get() + 1);
        self.answered.set(false);
        *self.answering.borrow_mut() = None;
        *self.ours.borrow_mut() = None;
        if self.host {
            link.offer();
        } else if let Some(offer) = self.offer.borrow_mut().take() {
            link.answer(offer.to_sdp());
            *self.answering.borrow_mut() = Some(offer);
        }
        *self.link.borrow_mut() = Some(link);
    }

    /// Our text, once the browser has gathered our candidates: the host's offer (with the
    /// invitation), the guest's answer (naming the offer). `None` meanwhile, or while there is
    /// nothing to say (a guest without an offer).
    pub fn our_text(&self) -> Option<Signal> {
        let link = self.live_link()?;
        if let Some(ours) = self.ours.borrow().clone() {
            return Some(ours);
        }
        let sdp = link.description()?;
        let kind = if self.host { Kind::Offer } else { Kind::Answer };
        let mut ours = Signal::from_sdp(kind, &sdp).ok()?;
        if self.host {
            ours.extra = invite_bytes(&self.invite);
        } else {
            ours.answers = self.answering.borrow().as_ref()?.tag();
        }
        *self.ours.borrow_mut() = Some(ours.clone());
        Some(ours)
    }

    /// The host takes the guest's answer.
    pub fn take_answer(&self, pasted: &str) -> Result<(), TextError> {
        let offer = self.our_text().ok_or(TextError::Stale)?;
        let answer = read_answer(pasted, &offer)?;
        let link = self.link.borrow().clone().ok_or(TextError::Stale)?;
        if link.accept(answer.to_sdp()) {
            self.answered.set(true);
        }
        Ok(())
    }

    /// The guest takes the host's offer (for this room): the current link answers it.
    pub fn take_offer(&self, pasted: &str) -> Result<(), TextError> {
        let kind = self.invite.rules.kind();
        let (offer, _) = read_offer(pasted, kind, Some(&self.invite))?;
        match self.live_link() {
            Some(link) => {
                link.answer(offer.to_sdp());
                *self.answering.borrow_mut() = Some(offer);
                *self.ours.borrow_mut() = None;
            }
            // Between two links: the next one answers it.
            None => *self.offer.borrow_mut() = Some(offer),
        }
        Ok(())
    }

    /// The host's answer was taken: the connection is being made.
    pub fn answered(&self) -> bool {
        self.answered.get()
    }

    /// The current link, while it is there.
    fn live_link(&self) -> Option<PairedLink> {
        self.link.borrow().clone().filter(PairedLink::alive)
    }

    /// The guest answers an offer (its answer is shown, or being prepared): not between two
    /// links, when the offer it answered is gone with the channel.
    pub fn answering(&self) -> bool {
        let answering = self.answering.borrow().is_some() && self.live_link().is_some();
        answering || self.offer.borrow().is_some()
    }

    /// A link was lost (this one, or one before it): the texts are a new exchange.
    pub fn again(&self) -> bool {
        self.links.get() > 1 || (self.links.get() == 1 && self.live_link().is_none())
    }
}

/// The link to this page carrying an offer (`…/sans-serveur#p=<offer>`).
fn offer_link(kind: engine::GameKind, offer: &str) -> String {
    browser::absolute(&format!("{}#p={offer}", Route::Paired(kind).path()))
}

#[derive(Properties)]
pub struct PanelProps {
    pub pairing: std::rc::Rc<Pairing>,
    /// Changes whenever the page draws again (the texts live outside Yew's state).
    pub serial: u64,
}

impl PartialEq for PanelProps {
    fn eq(&self, other: &Self) -> bool {
        std::rc::Rc::ptr_eq(&self.pairing, &other.pairing) && self.serial == other.serial
    }
}

/// The texts to pass, and the box for the other side's: one form for both seats, drawn from
/// what the pairing says (the host's offer is a link, the guest's answer a text).
#[component]
pub fn PairingPanel(props: &PanelProps) -> Html {
    use_lang();
    let p = &props.pairing;
    let pasted = use_node_ref();
    let error = use_state(|| None::<TextError>);
    let copied = use_state(|| false);
    let shown = p.our_text().map(|s| match p.host {
        true => offer_link(p.invite.rules.kind(), &s.encode()),
        false => s.encode(),
    });
    let qr = use_memo(shown.clone(), |shown| {
        let qr = Qr::encode(shown.as_ref()?.as_bytes()).ok()?;
        Some((qr.size(), AttrValue::from(qr.svg_path(QR_QUIET))))
    });
    let can_share = *use_memo((), |_| browser::can_share());
    let on_copy = {
        let (shown, copied) = (shown.clone(), copied.clone());
        Callback::from(move |_: MouseEvent| {
            let copied = copied.clone();
            browser::copy_text(shown.as_deref().unwrap_or_default(), move |ok| {
                copied.set(ok)
            });
        })
    };
    let actions = Actions {
        copied: *copied,
        copy: on_copy,
        share: can_share.then(|| on_share(p, shown.clone())),
    };
    let submit = on_submit(p.clone(), pasted.clone(), error.clone());
    html! {
        <section class="panel invite pairing" aria-labelledby="pairing-title" data-pairing-panel="">
            <h2 id="pairing-title">{ words(if p.again() { t::pairing_again_title() } else { t::pairing_title() }) }</h2>
            if p.again() {
                <p class="notice" role="alert">{ words(t::pairing_lost()) }</p>
            }
            <div class="invite-body">
                <div class="invite-words">
                    { ours(p, shown.as_deref(), actions) }
                    { paste_form(p, shown.is_some(), *error, pasted, submit) }
                    <p class="hint">{ words(t::pairing_limits()) }</p>
                </div>
                if let (Some((size, path)), Some(text)) = ((*qr).clone(), &shown) {
                    <figure class="qr-figure">{ qr_svg(size, path, text) }</figure>
                }
            </div>
        </section>
    }
}

/// What the panel's buttons for our text do.
struct Actions {
    copied: bool,
    copy: Callback<MouseEvent>,
    /// Where the browser has a share sheet.
    share: Option<Callback<MouseEvent>>,
}

/// Where the browser has a share sheet (phones): the offer's link with a word, or the answer
/// alone (the host pastes it as it comes).
fn on_share(p: &Pairing, shown: Option<String>) -> Callback<MouseEvent> {
    let (host, kind) = (p.host, p.invite.rules.kind());
    Callback::from(move |_: MouseEvent| match (&shown, host) {
        (Some(link), true) => browser::share(
            match kind {
                engine::GameKind::Morris => t::share_morris(),
                engine::GameKind::Meta => t::share_meta(),
            },
            link,
        ),
        (Some(answer), false) => browser::share(answer, ""),
        (None, _) => {}
    })
}

/// The host takes the pasted answer, the guest the pasted offer; what is wrong is said.
fn on_submit(
    p: std::rc::Rc<Pairing>,
    pasted: NodeRef,
    error: UseStateHandle<Option<TextError>>,
) -> Callback<SubmitEvent> {
    Callback::from(move |e: SubmitEvent| {
        e.prevent_default();
        let Some(area) = pasted.cast::<web_sys::HtmlTextAreaElement>() else {
            return;
        };
        let text = area.value();
        let taken = match p.host {
            true => p.take_answer(&text),
            false => p.take_offer(&text),
        };
        if taken.is_ok() {
            area.set_value("");
        }
        error.set(taken.err());
    })
}

/// Our text, once gathered (`shown`), with its buttons; meanwhile, that it is being prepared.
fn ours(p: &Pairing, shown: Option<&str>, actions: Actions) -> Html {
    let host = p.host;
    let (say, label, waiting) = match host {
        true => (
            t::pairing_host_offer(),
            t::pairing_offer_link(),
            t::pairing_gathering(),
        ),
        false => (
            t::pairing_guest_answer(),
            t::pairing_answer_text(),
            t::pairing_answering(),
        ),
    };
    let Some(text) = shown else {
        return match host || p.answering() {
            true => html! { <p class="hint" data-pairing="gathering">{ words(waiting) }</p> },
            false => html! {},
        };
    };
    html! {
        <>
            <p>{ words(say) }</p>
            <label class="invite-link">
                { words(label) }
                <textarea readonly=true rows="3" value={text.to_string()}
                    data-offer={host.then(|| text.to_string())}
                    data-answer={(!host).then(|| text.to_string())} />
            </label>
            <div class="actions">
                <button type="button" class="button" data-copy="pairing" onclick={actions.copy}>
                    { words(if actions.copied { t::pairing_copied() } else { t::pairing_copy() }) }
                </button>
                if let Some(share) = actions.share {
                    <button type="button" class="button secondary" data-share="pairing" onclick={share}>
                        { words(t::share()) }
                    </button>
                }
            </div>
        </>
    }
}

/// The box for the other side's text: the host pastes the answer once (then waits for the
/// connection); the guest may paste an offer whenever no channel is open (a newer one than it
/// answered, after a reload or a loss).
fn paste_form(
    p: &Pairing,
    shown: bool,
    error: Option<TextError>,
    pasted: NodeRef,
    submit: Callback<SubmitEvent>,
) -> Html {
    let host = p.host;
    if host && p.answered() {
        return html! { <p class="hint">{ words(t::pairing_connecting()) }</p> };
    }
    if host && !shown {
        return html! {};
    }
    let (ask, label, button) = match host {
        true => (
            t::pairing_host_answer(),
            t::pairing_answer_label(),
            t::pairing_connect(),
        ),
        false => (
            t::pairing_guest_offer(),
            t::pairing_offer_label(),
            t::pairing_reply(),
        ),
    };
    html! {
        <form onsubmit={submit} novalidate=true>
            <p>{ words(ask) }</p>
            <label class="invite-link">{ words(label) }
                <textarea ref={pasted} rows="3" spellcheck="false" autocomplete="off"
                    aria-invalid={error.is_some().to_string()}
                    data-answer-input={host.then_some("")}
                    data-offer-input={(!host).then_some("")} />
            </label>
            if let Some(e) = error {
                <p class="notice" role="alert" data-pairing-error="">{ words(e.text()) }</p>
            }
            <div class="actions">
                <button type="submit" class="button">{ words(button) }</button>
            </div>
        </form>
    }
}
