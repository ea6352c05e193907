//! Who is on the other end, and who holds which seat: the challenge every new connection gets
//! and the proof that answers it (presence means a proven seat key), a device that learns it
//! holds no seat and knocks, the present player's answer, and the hand-over that moves a seat to
//! a new key (`docs/protocol.md`, « Presence, knocks and hand-over »).

use super::chains::{Chains, Refusal};
use super::fold::Fold;
use super::wire::{self, Body, Entry, Message, Seat, Sig};
use super::{room, CommandError, Effect, Event, Presence, Session, Standing, Void};
use ed25519_dalek::VerifyingKey;

/// What the device on the current connection has proved.
#[derive(Clone, Debug, Default)]
pub(super) struct PeerCheck {
    /// Our challenge to it.
    pub(super) challenge: Option<[u8; 16]>,
    /// When the connection opened.
    pub(super) since: u64,
    /// It proved the other seat's key.
    pub(super) proved: bool,
    /// Its last proof that did not prove the other seat's key (yet: the key may come with the
    /// next entries, or our own standing may change), checked again when they do.
    pub(super) unproven: Option<(Seat, wire::Sig)>,
    /// When we last asked again (challenge, knock, heads) while it had not proved itself.
    pub(super) retried: u64,
    /// It failed to prove the other seat's key (or never tried).
    pub(super) stranger: bool,
    /// The entry counts of its first heads on this connection: what it held when we met.
    pub(super) first_heads: Option<[u32; 2]>,
    /// Proofs checked against our challenge, that proved nothing: at most
    /// [`PROOFS_PER_CHALLENGE`] are checked (a copy of one of them is not checked again).
    pub(super) failed: Vec<(Seat, Sig)>,
}

/// Proofs of presence checked against one challenge of ours, at most: the device's, and one for
/// the challenge before it still on its way (after a hand-over on the same connection).
const PROOFS_PER_CHALLENGE: u32 = 2;

/// Proofs of presence signed on one connection for one seat held, at most: one for the
/// connection's challenge, one more for the new challenge after a hand-over on it. A challenge
/// repeated (a heartbeat) gets the same proof again, unsigned anew.
const PROOFS_PER_CONNECTION: u32 = 2;

/// Our proof on the current connection: the challenge it answers, the message, and how many
/// we signed on the connection.
#[derive(Clone, Debug, Default)]
pub(super) struct OurProof {
    /// The challenge answered and the seat proved, and the message.
    answered: Option<([u8; 16], Seat, Vec<u8>)>,
    signed: u32,
}

/// A new device asking for the other seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Knock {
    /// The seat it asks for (the other seat, away).
    pub seat: Seat,
    /// Its public key.
    pub key: [u8; 32],
    pub(super) proof: [u8; 32],
    /// When it asked (ms): the answer is due within [`Config::proposal_ms`].
    pub since: u64,
}

impl Session {
    /// A fresh challenge for the device on the connection; what it proved so far is forgotten.
    pub(super) fn challenge(&mut self, now: u64) -> Effect {
        use sha2::{Digest, Sha256};
        self.connections += 1;
        let mut h = Sha256::new();
        h.update(b"moulin/challenge/v1");
        h.update(self.seed);
        h.update(self.connections.to_be_bytes());
        h.update(now.to_be_bytes());
        let mut challenge = [0; 16];
        challenge.copy_from_slice(&h.finalize()[..16]);
        self.peer = PeerCheck {
            challenge: Some(challenge),
            since: now,
            retried: now,
            ..PeerCheck::default()
        };
        Effect::Send(wire::encode_message(&Message::Challenge(challenge)))
    }

    /// Asks the present player for the seat that is away (our own is held by another key).
    pub(super) fn knock_again(&mut self, now: u64) -> Result<Vec<Effect>, CommandError> {
        match self.standing {
            Standing::Seated => Err(CommandError::Seated),
            Standing::Refused { at, .. } if now < at + room::COOLDOWN_MS => {
                Err(CommandError::Refused(Void::CoolingDown))
            }
            _ => Ok(self.start_knocking(now)),
        }
    }

    pub(super) fn start_knocking(&mut self, now: u64) -> Vec<Effect> {
        self.standing = Standing::Knocking { since: now };
        let key = self.key.verifying_key().to_bytes();
        let knock = Message::Knock {
            key,
            proof: wire::join_proof(self.invite.room, &self.invite.secret, &key),
            sig: wire::Sig::sign(&self.key, &wire::knock_bytes(self.invite.room, &key)),
        };
        vec![
            Effect::Send(wire::encode_message(&knock)),
            Effect::Event(Event::Standing(self.standing)),
        ]
    }

    /// Our key never held our seat (another key's hello holds it): our own hello never
    /// counted, so the transcript starts again from what the other side sends, and we ask for
    /// the seat that is away.
    fn unseat(&mut self, now: u64) -> Vec<Effect> {
        let host_key = self
            .invite
            .host_key
            .and_then(|k| VerifyingKey::from_bytes(&k).ok());
        let fresh = Chains::new(self.invite.room, host_key, Some(self.invite.secret));
        let old = std::mem::replace(&mut self.chains, fresh);
        self.save_epoch += 1;
        for e in old.merged() {
            if e.seat() != self.seat {
                // What no longer follows is asked for again by the heads below.
                let _ = self.chains.add(e.clone());
            }
        }
        self.fold = Fold::default();
        // Folded afresh without events: the page shows this device's new standing as a whole.
        self.fold.update(&self.chains);
        self.pending.clear();
        self.reported.clear();
        self.resent = None;
        self.their_proposal_seen = None;
        self.knock = None;
        self.foreign_hello = None;
        // Knocking (its standing said once, by `start_knocking`).
        let mut out = vec![Effect::Save, self.send_heads(now)];
        out.extend(self.start_knocking(now));
        out.extend(self.recheck_proof(now));
        out
    }

    /// After new entries: a knocking device whose key now holds a seat takes it (and proves
    /// it); a seated one whose seat the other seat handed to another key stops writing.
    pub(super) fn check_standing(&mut self, now: u64) -> Vec<Effect> {
        let ours = self.key.verifying_key();
        let holds = |s: &Session, seat| s.chains.current_key(seat) == Some(ours);
        match self.standing {
            Standing::Seated if holds(self, self.seat) => Vec::new(),
            Standing::Seated => self.handed_away(),
            _ => {
                let Some(seat) = [Seat::Host, Seat::Guest]
                    .into_iter()
                    .find(|&seat| holds(self, seat))
                else {
                    return Vec::new();
                };
                self.seat = seat;
                self.standing = Standing::Seated;
                // A seat newly ours (a hand-over let us in): its proofs on this connection.
                self.our_proof = OurProof::default();
                let mut out = vec![Effect::Save, Effect::Event(Event::Standing(self.standing))];
                out.extend(self.prove(now));
                out.extend(self.recheck_proof(now));
                out
            }
        }
    }

    /// The other seat handed ours to another key. Nothing we wrote is undone: our entries that
    /// had not seen the hand-over keep our key and stay in the transcript (a new device's
    /// entry with the same number is a fork, kept as proof); only what would see it must be
    /// signed by the new key, so this device writes no more. The hand-over was made while we
    /// were here if the other side signed it on this connection after proving its seat to us
    /// (its first heads here did not count it), or if it had not seen an entry we wrote while
    /// connected to it: an honest client never does that, and we say so.
    fn handed_away(&mut self) -> Vec<Effect> {
        self.standing = Standing::HandedAway;
        self.knock = None;
        self.foreign_hello = None;
        let mut out = vec![Effect::Event(Event::Standing(self.standing))];
        let other = self.seat.other();
        let Some(by) = self.chains.last_handover(self.seat) else {
            return out;
        };
        let signed_here = self.proved_connection()
            && self
                .peer
                .first_heads
                .is_some_and(|count| by >= count[other.index()]);
        let unseen_from = self
            .chains
            .get(other, by)
            .map_or(u32::MAX, |h| self.chains.seen_of(h));
        let crossed_live = self.last_live.is_some_and(|seq| seq >= unseen_from);
        if signed_here || crossed_live {
            self.taken_while_here = true;
            out.push(Effect::Event(Event::HandedOverWhileHere {
                handover: by,
                crossed: self.chains.crossed_count(other, by),
            }));
        }
        out
    }

    /// True while connected to the device that proved the other seat (present or silent).
    pub(super) fn proved_connection(&self) -> bool {
        self.peer.challenge.is_some() && self.peer.proved
    }

    /// True while connected to a device that has not proved the other seat's key, or while we
    /// ask for a seat: challenges, knocks and heads go again with each heartbeat.
    pub(super) fn asks_again(&self) -> bool {
        self.peer.challenge.is_some()
            && (!self.peer.proved || matches!(self.standing, Standing::Knocking { .. }))
    }

    /// Answers the other side's challenge, once we hold a seat: the same proof again for the
    /// same challenge, and at most [`PROOFS_PER_CONNECTION`] signed on a connection, so that
    /// challenges cost the sender what they cost us.
    pub(super) fn prove(&mut self, _now: u64) -> Option<Effect> {
        let challenge = self.their_challenge?;
        if self.standing != Standing::Seated {
            return None;
        }
        if let Some((answered, seat, proof)) = &self.our_proof.answered {
            if (*answered, *seat) == (challenge, self.seat) {
                return Some(Effect::Send(proof.clone()));
            }
        }
        if self.our_proof.signed >= PROOFS_PER_CONNECTION {
            return None;
        }
        let bytes = wire::presence_bytes(self.invite.room, &challenge, self.seat);
        let proof = wire::encode_message(&Message::Proof {
            seat: self.seat,
            sig: wire::Sig::sign(&self.key, &bytes),
        });
        self.work.signed += 1;
        self.our_proof.signed += 1;
        self.our_proof.answered = Some((challenge, self.seat, proof.clone()));
        Some(Effect::Send(proof))
    }

    /// The present player's answer to the device knocking: a refusal tells it so; an
    /// acceptance writes the `Handover` entry, and the new device proves the seat on this
    /// connection.
    pub(super) fn answer_knock(
        &mut self,
        accept: bool,
        now: u64,
    ) -> Result<Vec<Effect>, CommandError> {
        if !accept {
            self.knock.take().ok_or(CommandError::NoKnock)?;
            self.declined_at = Some(now);
            let no = Message::KnockRefused { expired: false };
            return Ok(vec![
                Effect::Send(wire::encode_message(&no)),
                Effect::Event(Event::KnockOver),
            ]);
        }
        if self.suspended() {
            return Err(CommandError::Suspended);
        }
        let knock = self.knock.ok_or(CommandError::NoKnock)?;
        if now > knock.since + self.config.proposal_ms {
            self.knock = None;
            return Err(CommandError::Expired);
        }
        let body = Body::Handover {
            seat: knock.seat,
            key: knock.key,
            proof: knock.proof,
        };
        let e = self.entry(body, now);
        let mut out = self.append(e, now)?;
        // The new device now holds that seat: let it prove it on this connection.
        self.knock = None;
        out.push(Effect::Event(Event::KnockOver));
        out.push(self.challenge(now));
        Ok(out)
    }

    /// True while another key's hello could still hold our seat: we are a seated guest that
    /// wrote nothing but its own hello, and no host entry has seen that hello (once one has, the
    /// host bound our key and no other hello can take the seat from us).
    fn may_give_way(&self) -> bool {
        self.standing == Standing::Seated
            && self.seat == Seat::Guest
            && self.chains.len(Seat::Guest) <= 1
            && self.chains.last_seen(Seat::Host) == 0
    }

    /// A valid guest `Hello` of another key (signed by it, with the proof of the secret).
    fn foreign_guest_hello(&self, e: &Entry) -> bool {
        let Body::Hello { key, proof, .. } = &e.body else {
            return false;
        };
        e.seat() == Seat::Guest
            && *key != self.key.verifying_key().to_bytes()
            && VerifyingKey::from_bytes(key).is_ok_and(|k| e.verify(&k))
            && wire::join_proof(self.invite.room, &self.invite.secret, key) == *proof
    }

    /// The hello that holds our seat, if `e` proves the host bound the guest seat to another
    /// key before ours came (a seat is a key): `e` is that hello and the device on this
    /// connection proved the host's key, or `e` is a host entry that saw a hello of another
    /// key we received. A hello nobody acknowledges proves nothing — any device with the link
    /// can sign one — and is only kept, in case an acknowledgement follows.
    pub(super) fn intruder(&mut self, e: &Entry) -> Option<Entry> {
        if !self.may_give_way() {
            self.foreign_hello = None;
            return None;
        }
        if self.foreign_guest_hello(e) {
            if self.proved_connection() {
                return Some(e.clone());
            }
            self.foreign_hello = Some(e.clone());
            return None;
        }
        let acknowledged = |h: &Entry| e.seat() == Seat::Host && e.header.seen == h.hash();
        self.foreign_hello.take_if(|h| acknowledged(h))
    }

    /// Another key holds our seat: we were never seated. Our hello is dropped, theirs taken,
    /// and we ask for the seat that is away.
    pub(super) fn give_way(&mut self, hello: Entry, now: u64) -> Vec<Effect> {
        let mut out = vec![Effect::Event(Event::Refused {
            seat: self.seat,
            seq: 0,
            why: Refusal::Intruder,
        })];
        out.extend(self.unseat(now));
        if self.chains.add(hello).is_ok() {
            self.fold.update(&self.chains);
        }
        out
    }

    /// The device on the connection answered our challenge for `seat`: present if that seat's
    /// current key signed it (the other seat's, or, while we hold none, either).
    pub(super) fn check_proof(&mut self, seat: Seat, sig: Sig, now: u64) -> Vec<Effect> {
        let Some(challenge) = self.peer.challenge else {
            return Vec::new();
        };
        if self.peer.proved
            || self.peer.failed.len() as u32 >= PROOFS_PER_CHALLENGE
            || self.peer.failed.contains(&(seat, sig))
        {
            return Vec::new();
        }
        // Kept to check again when the key it needs comes (its hello may be in the next
        // message) or our standing changes; dropped once its signature has been checked.
        self.peer.unproven = Some((seat, sig));
        let Some(key) = self.chains.current_key(seat) else {
            return Vec::new();
        };
        let seated = self.standing == Standing::Seated;
        let bytes = wire::presence_bytes(self.invite.room, &challenge, seat);
        let ours = self.key.verifying_key();
        // A seat whose key signed two histories proves nothing any more: it stays away.
        let forked = self.other_fork().is_some();
        let candidate = (seat == self.seat.other() || !seated) && key != ours && !forked;
        if candidate {
            self.work.checked += 1;
            self.peer.unproven = None;
        }
        if candidate && !sig.verifies(&key, &bytes) {
            self.peer.failed.push((seat, sig));
        } else if candidate {
            self.peer.proved = true;
            self.peer.stranger = false;
            self.peer.unproven = None;
            let mut out = Vec::new();
            if self.presence != Presence::Here {
                self.presence = Presence::Here;
                out.push(Effect::Event(Event::Presence(self.presence)));
            }
            self.stamp_proposal(now);
            // The host, proved, gave us another key's hello: the guest seat is that key's.
            if let Some(hello) = self.foreign_hello.take().filter(|_| self.may_give_way()) {
                out.extend(self.give_way(hello, now));
            }
            return out;
        }
        self.not_proved()
    }

    /// Checks again the last proof that proved nothing: the key it needs may have come since,
    /// or our own seat changed.
    pub(super) fn recheck_proof(&mut self, now: u64) -> Vec<Effect> {
        match self.peer.unproven.take() {
            Some((seat, sig)) => self.check_proof(seat, sig, now),
            None => Vec::new(),
        }
    }

    /// The device on the connection is not the other player: that seat stays away.
    pub(super) fn not_proved(&mut self) -> Vec<Effect> {
        if self.peer.stranger {
            return Vec::new();
        }
        self.peer.stranger = true;
        vec![Effect::Event(Event::Stranger)]
    }

    /// A device without a seat asks for the other seat, which is not here: we may let it in.
    pub(super) fn on_knock(
        &mut self,
        key: [u8; 32],
        proof: [u8; 32],
        sig: Sig,
        now: u64,
    ) -> Vec<Effect> {
        let other = self.seat.other();
        let ours = self.key.verifying_key().to_bytes();
        let current = self.chains.current_key(other).map(|k| k.to_bytes());
        let cooling = self
            .declined_at
            .is_some_and(|t| now < t + room::COOLDOWN_MS);
        // The cheap checks first, the hash of the secret next, the signature last: a knock
        // costs a signature check only when it could be let in, once per knock considered
        // (one at a time, a cooldown after each).
        if self.standing != Standing::Seated
            || self.peer.proved
            || cooling
            || self.knock.is_some()
            || current.is_none_or(|k| k == key)
            || key == ours
            || wire::join_proof(self.invite.room, &self.invite.secret, &key) != proof
        {
            return Vec::new();
        }
        self.work.checked += 1;
        let signed = VerifyingKey::from_bytes(&key)
            .is_ok_and(|k| sig.verifies(&k, &wire::knock_bytes(self.invite.room, &key)));
        if !signed {
            // As a refusal: no other knock is considered before the cooldown, so a device with
            // the secret costs one signature check per cooldown at most.
            self.declined_at = Some(now);
            return Vec::new();
        }
        // A new device: what it holds is not what the device before it held, so it may get
        // one more full resend on this connection.
        self.resent = None;
        self.knock = Some(Knock {
            seat: other,
            key,
            proof,
            since: now,
        });
        let mut out = self.not_proved();
        out.push(Effect::Event(Event::Knock(other)));
        out
    }
}
