//! The room page's pieces: the invitation, the proposal banner and dialog, this tab's dialogs,
//! the room panel with presence and export. Each renders plain view data and emits events.

use super::super::browser;
use super::super::common::{
    keep_tab_inside, use_dialog_focus, ColoursField, LimitField, Link as PageLink, RulesField,
};
use super::super::{use_lang, words, Route};
use crate::i18n::t;
use crate::model::qr::Qr;
use crate::model::room::view::{
    DialogView, ExportView, InviteView, KnockView, StandingView, TheirProposal, View,
};
use crate::model::room::{Copyable, Event};
use engine::GameKind;
use yew::prelude::*;

/// A callback that sends a fixed event on click.
fn on_click(act: &Callback<Event>, e: Event) -> Callback<MouseEvent> {
    act.reform(move |_: MouseEvent| e.clone())
}

#[derive(Properties, PartialEq)]
pub struct InviteProps {
    pub invite: InviteView,
    pub act: Callback<Event>,
}

/// Modules of quiet zone around the QR code, as the standard asks.
pub const QR_QUIET: usize = 4;

/// The link and the code to send, until the guest comes: copy buttons, the share sheet where
/// the browser has one, and the link as a QR code for a phone beside this screen.
#[component]
pub fn InvitePanel(props: &InviteProps) -> Html {
    use_lang();
    let href = browser::location_href();
    let can_share = *use_memo((), |_| browser::can_share());
    // A few milliseconds (eight masks tried): once per link.
    let qr = use_memo(href.clone(), |href| {
        Qr::encode(href.as_bytes())
            .ok()
            .map(|qr| (qr.size(), AttrValue::from(qr.svg_path(QR_QUIET))))
    });
    let invite = &props.invite;
    let copy = |what: Copyable, text: String| {
        let act = props.act.clone();
        Callback::from(move |_: MouseEvent| {
            let act = act.clone();
            browser::copy_text(&text, move |ok| act.emit(Event::Copied(what, ok)));
        })
    };
    let copied = |what: Copyable| invite.copied.filter(|c| c.0 == what).map(|c| c.1);
    let on_share = {
        let (href, kind) = (href.clone(), invite.kind);
        Callback::from(move |_: MouseEvent| {
            let text = match kind {
                GameKind::Morris => t::share_morris(),
                GameKind::Meta => t::share_meta(),
            };
            browser::share(text, &href);
        })
    };
    html! {
        <section class="panel invite" aria-labelledby="invite-title">
            <h2 id="invite-title">{ words(t::invite_title()) }</h2>
            <div class="invite-body">
                <div class="invite-words">
                    <label class="invite-link">
                        { words(t::invite_link()) }
                        <input type="text" readonly=true value={href.clone()} data-invite-link={href.clone()} />
                    </label>
                    <div class="actions">
                        <button type="button" class="button" data-copy="link"
                            onclick={copy(Copyable::Link, href.clone())}>
                            { words(if copied(Copyable::Link) == Some(true) { t::link_copied() } else { t::copy_link() }) }
                        </button>
                        if can_share {
                            <button type="button" class="button secondary" data-share="" onclick={on_share}>
                                { words(t::share()) }
                            </button>
                        }
                    </div>
                    if copied(Copyable::Link) == Some(false) {
                        <p class="notice">{ words(t::copy_failed()) }</p>
                    }
                    if let Some(code) = invite.code.clone() {
                        <p class="invite-code">{ words(t::or_code()) }{ " " }
                            <strong class="code" data-code={code.clone()}>{ code.clone() }</strong>
                            <button type="button" class="button secondary" data-copy="code"
                                onclick={copy(Copyable::Code, code)}>
                                { words(if copied(Copyable::Code) == Some(true) { t::code_copied() } else { t::copy_code() }) }
                            </button>
                        </p>
                        if copied(Copyable::Code) == Some(false) {
                            <p class="notice">{ words(t::copy_code_failed()) }</p>
                        }
                    }
                    <p class="hint">{ words(t::link_secret()) }</p>
                </div>
                if let Some((size, path)) = (*qr).clone() {
                    <figure class="qr-figure">
                        { qr_svg(size, path, &href) }
                        <figcaption class="hint">{ words(t::qr_hint()) }</figcaption>
                    </figure>
                }
            </div>
        </section>
    }
}

/// A QR code of `text`: its dark modules as one path on a light square, light and dark in
/// either theme (a reader wants dark on light), `data-qr` its modules a side.
pub fn qr_svg(size: usize, path: AttrValue, text: &str) -> Html {
    let side = (size + 2 * QR_QUIET).to_string();
    html! {
        <svg class="qr" viewBox={format!("0 0 {side} {side}")} role="img" aria-label={t::qr_label()}
            data-qr={size.to_string()} data-qr-text={text.to_string()} shape-rendering="crispEdges">
            <rect class="qr-light" width={side.clone()} height={side} />
            <path class="qr-dark" d={path} />
        </svg>
    }
}

#[derive(Properties, PartialEq)]
pub struct BannerProps {
    pub text: AttrValue,
    pub act: Callback<Event>,
}

/// Our open proposal: what it asks, its countdown, and the way to withdraw it.
#[component]
pub fn ProposalBanner(props: &BannerProps) -> Html {
    html! {
        <div class="proposal-banner" data-proposal="mine">
            <span>{ props.text.clone() }</span>
            <button type="button" class="button secondary" onclick={on_click(&props.act, Event::Withdraw)}>
                { words(t::withdraw()) }
            </button>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct TheirProps {
    pub proposal: TheirProposal,
    pub act: Callback<Event>,
}

/// The other side's proposal, to accept or decline (a modal that takes the keyboard focus).
#[component]
pub fn ProposalDialog(props: &TheirProps) -> Html {
    html! {
        <div class="backdrop" onkeydown={Callback::from(|e: KeyboardEvent| keep_tab_inside(&e))}>
            <div class="dialog" role="alertdialog" aria-modal="true" aria-labelledby="proposal-title"
                data-proposal="theirs">
                <h2 id="proposal-title">{ props.proposal.title.clone() }</h2>
                <p class="countdown">{ props.proposal.countdown.clone() }</p>
                <FocusFirst key={props.proposal.key.to_string()}>
                    <button type="button" class="button" onclick={on_click(&props.act, Event::Reply(true))}>{ words(t::accept()) }</button>
                    <button type="button" class="button secondary" onclick={on_click(&props.act, Event::Reply(false))}>{ words(t::decline()) }</button>
                </FocusFirst>
            </div>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct KnockProps {
    pub knock: KnockView,
    pub act: Callback<Event>,
}

/// A new device asks for the other seat, away: let it in or not (a modal, like a proposal).
#[component]
pub fn KnockDialog(props: &KnockProps) -> Html {
    html! {
        <div class="backdrop" onkeydown={Callback::from(|e: KeyboardEvent| keep_tab_inside(&e))}>
            <div class="dialog" role="alertdialog" aria-modal="true" aria-labelledby="knock-title"
                aria-describedby="knock-body" data-knock="">
                <h2 id="knock-title">{ props.knock.title.clone() }</h2>
                <p id="knock-body">{ words(t::knock_body()) }</p>
                <p class="countdown">{ props.knock.countdown.clone() }</p>
                <FocusFirst key={props.knock.key.to_string()}>
                    <button type="button" class="button" onclick={on_click(&props.act, Event::Handover(true))}>{ words(t::accept()) }</button>
                    <button type="button" class="button secondary" onclick={on_click(&props.act, Event::Handover(false))}>{ words(t::decline()) }</button>
                </FocusFirst>
            </div>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct StandingProps {
    pub standing: StandingView,
    pub act: Callback<Event>,
}

/// This device holds no seat: what happened, and the way to ask for the seat that is away.
#[component]
pub fn StandingPanel(props: &StandingProps) -> Html {
    let s = &props.standing;
    html! {
        <section class="panel standing" data-standing={s.kind} aria-live="polite">
            <h2>{ words(t::no_seat_title()) }</h2>
            <p>{ s.text.clone() }</p>
            if let Some((label, enabled)) = s.ask.clone() {
                <div class="actions">
                    <button type="button" class="button" disabled={!enabled}
                        onclick={on_click(&props.act, Event::Knock)}>{ label }</button>
                </div>
            }
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct LocalDialogProps {
    pub dialog: DialogView,
    pub act: Callback<Event>,
}

/// This tab's dialog: a new game to propose (with the host's limit), resign, leave.
#[component]
pub fn LocalDialog(props: &LocalDialogProps) -> Html {
    let d = &props.dialog;
    let act = &props.act;
    let on_submit = act.reform(|e: SubmitEvent| {
        e.prevent_default();
        Event::Confirm
    });
    let on_key = {
        let act = act.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                act.emit(Event::Cancel);
            }
            keep_tab_inside(&e);
        })
    };
    html! {
        <div class="backdrop" onkeydown={on_key}>
            <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="local-title">
            <form novalidate=true onsubmit={on_submit}>
                <h2 id="local-title">{ words(d.title) }</h2>
                <p>{ words(d.body) }</p>
                if let Some((Some(form), _)) = d.options.clone() {
                    <RulesField {form} on_input={act.reform(Event::DialogRules)} />
                }
                if let Some((value, error)) = d.limit.clone() {
                    <LimitField value={value} invalid={error.is_some()}
                        on_input={act.reform(Event::DialogLimit)} />
                    if let Some(e) = error {
                        <p class="notice" role="alert">{ e }</p>
                    }
                }
                if let Some((_, lot)) = d.options {
                    <ColoursField {lot} on_change={act.reform(Event::DialogLot)} />
                }
                <FocusFirst>
                    <button type="submit" class="button">{ words(d.confirm) }</button>
                    <button type="button" class="button secondary" onclick={on_click(act, Event::Cancel)}>{ words(t::cancel()) }</button>
                </FocusFirst>
            </form>
            </div>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct FocusFirstProps {
    children: Html,
}

/// A dialog's row of buttons; the first one takes the keyboard focus when the dialog opens, and
/// the focus goes back where it was when it closes.
#[component]
fn FocusFirst(props: &FocusFirstProps) -> Html {
    let node = use_node_ref();
    use_dialog_focus(node.clone());
    html! { <div class="actions" ref={node}>{ props.children.clone() }</div> }
}

#[derive(Properties, PartialEq)]
pub struct ExportProps {
    pub export: ExportView,
}

/// The signed transcript and the record, as downloads.
#[component]
pub fn ExportPanel(props: &ExportProps) -> Html {
    use_lang();
    let e = &props.export;
    // Encoding the transcript for its link costs: only when it changed.
    let transcript = use_memo(e.transcript.clone(), |t| browser::data_url(t));
    let record = use_memo(e.record.clone(), |r| browser::data_url(r));
    html! {
        <div class="exports">
            <a class="button secondary" download={e.transcript_name.clone()}
                href={(*transcript).clone()} data-export="transcript">{ words(t::export_transcript()) }</a>
            <a class="button secondary" download={e.record_name.clone()}
                href={(*record).clone()} data-export="record">{ words(t::export_record()) }</a>
            <p class="hint">{ words(t::export_hint_1()) }{ " " }<a href="/partie" data-viewer-link="">{ words(t::export_hint_viewer()) }</a>
                { words(t::export_hint_2()) }</p>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct RoomPanelProps {
    pub view: View,
    pub act: Callback<Event>,
    pub go: Callback<Route>,
}

/// The relay does not answer: the way to go on with this room paired by hand, on its own page
/// (the same invitation: the same seat, the game where it is).
fn serverless(kind: GameKind) -> Html {
    let href = format!("{}{}", Route::Paired(kind).path(), browser::location_hash());
    html! {
        <>
            <p class="hint">{ words(t::relay_down_serverless()) }</p>
            <div class="actions">
                <a class="button secondary" {href} data-go-serverless="">{ words(t::go_serverless()) }</a>
            </div>
        </>
    }
}

/// The room: presence of the other seat, the relay connection, export and leaving.
#[component]
pub fn RoomPanel(props: &RoomPanelProps) -> Html {
    let v = &props.view;
    let act = &props.act;
    let (presence_attr, presence_text) = v.presence.clone();
    html! {
        <section class="panel room-state" aria-label={t::room()}>
            <h2>{ words(t::room()) }</h2>
            if v.left {
                <p class="presence" data-presence="left">{ words(t::you_left()) }</p>
                { lobby_link(v.kind, &props.go) }
            } else {
                <p class={classes!("presence", presence_attr)} data-presence={presence_attr}>
                    { presence_text }</p>
                if v.other_left {
                    <p class="notice">{ words(t::other_left()) }</p>
                }
                if v.blocked {
                    <p class="notice" role="alert" data-blocked="">{ words(t::blocked()) }</p>
                    <p class="hint">{ words(t::blocked_hint()) }</p>
                    <div class="actions">
                        <button type="button" class="button" onclick={on_click(act, Event::Retry)}>{ words(t::retry()) }</button>
                    </div>
                } else if let Some(t) = v.relay.clone() {
                    <p class="hint relay" data-relay="">{ t }</p>
                }
                if v.serverless {
                    { serverless(v.kind) }
                }
                if v.expired { <p class="notice" data-expired="">{ words(t::expired()) }</p> }
            }
            <div class="actions">
                if v.can_export {
                    <button type="button" class="button secondary" onclick={on_click(act, Event::ToggleExport)}>{ words(t::export_game()) }</button>
                }
                if !v.left && v.seated {
                    <button type="button" class="button secondary" onclick={on_click(act, Event::AskLeave)}>{ words(t::leave()) }</button>
                }
            </div>
            if !v.seated && !v.left {
                { lobby_link(v.kind, &props.go) }
            }
            if let Some((fragment, copied)) = v.watch.clone() {
                { spectators(v.kind, &fragment, copied, v.spectators, act) }
            }
            if v.seated && v.keys.iter().any(Option::is_some) {
                { keys(v) }
            }
            if let Some(export) = v.export.clone() {
                <ExportPanel {export} />
            }
        </section>
    }
}

/// The spectator link, to copy, and how many watch: a link that lets its holder watch and
/// nothing else (no secret, no seat).
fn spectators(
    kind: GameKind,
    fragment: &str,
    copied: Option<bool>,
    count: usize,
    act: &Callback<Event>,
) -> Html {
    let link = browser::absolute(&format!("{}#{fragment}", Route::Watch(kind).path()));
    let copy = {
        let (act, link) = (act.clone(), link.clone());
        Callback::from(move |_: MouseEvent| {
            let act = act.clone();
            browser::copy_text(&link, move |ok| {
                act.emit(Event::Copied(Copyable::Watch, ok))
            });
        })
    };
    let watching = match count {
        0 => None,
        1 => Some(t::spectators_one().to_string()),
        n => Some(t::spectators_many(&n.to_string())),
    };
    html! {
        <div class="spectate">
            <label class="invite-link">
                { words(t::spectator_link()) }
                <input type="text" readonly=true value={link.clone()} data-spectator-link={link} />
            </label>
            <div class="actions">
                <button type="button" class="button secondary" data-copy="spectator" onclick={copy}>
                    { words(if copied == Some(true) { t::spectator_link_copied() } else { t::copy_spectator_link() }) }
                </button>
            </div>
            if copied == Some(false) {
                <p class="notice">{ words(t::copy_failed()) }</p>
            }
            <p class="hint">{ words(t::spectator_link_help()) }</p>
            if let Some(text) = watching {
                <p class="spectators" data-spectators={count.to_string()}>{ text }</p>
            }
        </div>
    }
}

/// The keys that sign each seat's entries, by the fingerprints the viewer shows too: players
/// who read the same ones to each other know nobody stands between them.
fn keys(v: &View) -> Html {
    let me = usize::from(v.seat != "host");
    let rows = v.keys.iter().enumerate().filter_map(|(i, k)| {
        let k = k.as_ref()?;
        let text = match i {
            0 => t::key_host(k),
            _ => t::key_guest(k),
        };
        let text = if i == me { t::key_yours(&text) } else { text };
        Some(html! { <li data-key={if i == 0 { "host" } else { "guest" }}>{ text }</li> })
    });
    html! {
        <div class="keys">
            <ul>{ for rows }</ul>
            <p class="hint">{ words(t::keys_hint()) }</p>
        </div>
    }
}

/// Where the room page's errors lead: the game's lobby.
pub fn lobby_link(kind: GameKind, go: &Callback<Route>) -> Html {
    html! {
        <p><PageLink to={Route::Lobby(kind)} go={go.clone()}>{ words(t::other_room()) }</PageLink></p>
    }
}
