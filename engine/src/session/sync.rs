//! Receiving and resynchronising: entries offered to the chains (kept aside ahead of a gap,
//! forks noticed), and the heads exchange that brings two peers to the same transcript after a
//! disconnection or a reload (`docs/protocol.md`, « Resync »).

use super::chains::{Added, Refusal};
use super::wire::{self, Body, Entry, Heads, Message, Seat, Sig, MAX_BATCH};
use super::{room, Effect, Event, Knock, Presence, Session, Standing, MAX_PENDING, RESEND_MS};
use ed25519_dalek::VerifyingKey;

impl Session {
    /// How many entries of each seat we hold, and the last hashes.
    pub fn heads(&self) -> Heads {
        Heads {
            count: [self.chains.len(Seat::Host), self.chains.len(Seat::Guest)],
            last: [
                self.chains.last_hash(Seat::Host),
                self.chains.last_hash(Seat::Guest),
            ],
        }
    }

    pub(super) fn send_heads(&mut self, now: u64) -> Effect {
        self.last_heads_sent = Some(now);
        Effect::Send(wire::encode(&Message::Heads(self.heads())))
    }

    /// Bytes from the peer.
    pub fn receive(&mut self, bytes: &[u8], now: u64) -> Vec<Effect> {
        let mut out = Vec::new();
        let message = match wire::decode_message(bytes) {
            Ok(m) => m,
            Err(e) => return vec![Effect::Event(Event::Undecodable(e))],
        };
        self.last_heard = now;
        if self.peer.proved && matches!(self.presence, Presence::Away { .. }) {
            // The same connection, silent for a while (a frozen or throttled tab): still the
            // device that proved the seat.
            self.presence = Presence::Here;
            out.push(Effect::Event(Event::Presence(self.presence)));
            self.stamp_proposal(now);
        }
        match message {
            Message::Heads(theirs) => out.extend(self.answer_heads(theirs, now)),
            Message::Challenge(challenge) => {
                self.their_challenge = Some(challenge);
                out.extend(self.prove(now));
            }
            Message::Proof { seat, sig } => out.extend(self.check_proof(seat, sig, now)),
            Message::Knock { key, proof, sig } => out.extend(self.on_knock(key, proof, sig, now)),
            Message::KnockRefused { expired } => {
                if matches!(self.standing, Standing::Knocking { .. }) {
                    self.standing = Standing::Refused { expired, at: now };
                    out.push(Effect::Event(Event::Standing(self.standing)));
                }
            }
            Message::Entries(entries) => {
                let mut added = false;
                let waiting = self.pending.len();
                for e in entries {
                    if self.intruded(&e) {
                        // Another key holds our seat: we were never seated. Drop our hello,
                        // take theirs, and ask for the seat that is away.
                        out.push(Effect::Event(Event::Refused {
                            seat: self.seat,
                            seq: 0,
                            why: Refusal::Intruder,
                        }));
                        out.extend(self.unseat(Standing::Knocking { since: now }, 0, now));
                    }
                    let moves_our_seat =
                        matches!(&e.body, Body::Handover { seat, .. } if *seat == self.seat);
                    added |= self.offer(e, &mut out);
                    if moves_our_seat {
                        // Before the new key's entries meet ours with the same numbers.
                        out.extend(self.check_standing(now));
                    }
                }
                let mut grew = added;
                // Entries kept aside may now follow.
                while added {
                    added = false;
                    for e in std::mem::take(&mut self.pending) {
                        added |= self.offer(e, &mut out);
                    }
                    grew |= added;
                }
                if self.pending.len() > waiting && !self.forked {
                    // A new gap: ask for what is missing (once per gap, not on every message).
                    out.push(self.send_heads(now));
                }
                // Duplicates and refusals leave the transcript as it was: nothing to fold.
                if grew {
                    self.learn_host_key();
                    let events = self.fold(now);
                    out.push(Effect::Save);
                    out.extend(events.into_iter().map(Effect::Event));
                    out.extend(self.check_standing(now));
                    out.extend(self.recheck_proof(now));
                }
            }
        }
        out
    }

    /// A guest by code keeps the host's key once its `Hello` bound it: saves, restores and
    /// exports need it.
    pub(super) fn learn_host_key(&mut self) {
        if self.invite.host_key.is_none() {
            self.invite.host_key = self.chains.host_key().map(|k| k.to_bytes());
        }
    }

    /// True for a valid guest `Hello` with another key while we, a guest, wrote nothing but our
    /// own: the host bound the guest seat to that key before ours came (a seat is a key). The
    /// host's seat is bound by the invitation and never taken this way.
    fn intruded(&self, e: &Entry) -> bool {
        let Body::Hello { key, proof, .. } = &e.body else {
            return false;
        };
        let valid = || {
            VerifyingKey::from_bytes(key).is_ok_and(|k| e.verify(&k))
                && wire::join_proof(self.invite.room, &self.invite.secret, key) == *proof
        };
        self.standing == Standing::Seated
            && self.seat == Seat::Guest
            && e.seat() == Seat::Guest
            && *key != self.key.verifying_key().to_bytes()
            && self.chains.len(self.seat) <= 1
            && valid()
    }

    /// The device on the connection answered our challenge for `seat`: present if that seat's
    /// current key signed it (the other seat's, or, while we hold none, either).
    pub(super) fn check_proof(&mut self, seat: Seat, sig: Sig, now: u64) -> Vec<Effect> {
        let Some(challenge) = self.peer.challenge else {
            return Vec::new();
        };
        if self.peer.proved {
            return Vec::new();
        }
        self.peer.unproven = Some((seat, sig));
        let Some(key) = self.chains.current_key(seat) else {
            // Its key comes with its hello, perhaps in the next message.
            return Vec::new();
        };
        let seated = self.standing == Standing::Seated;
        let bytes = wire::presence_bytes(self.invite.room, &challenge, seat);
        let ours = self.key.verifying_key();
        if (seat == self.seat.other() || !seated) && key != ours && sig.verifies(&key, &bytes) {
            self.peer.proved = true;
            self.peer.stranger = false;
            self.peer.unproven = None;
            let mut out = Vec::new();
            if self.presence != Presence::Here {
                self.presence = Presence::Here;
                out.push(Effect::Event(Event::Presence(self.presence)));
            }
            self.stamp_proposal(now);
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
    fn on_knock(&mut self, key: [u8; 32], proof: [u8; 32], sig: Sig, now: u64) -> Vec<Effect> {
        let other = self.seat.other();
        let ours = self.key.verifying_key().to_bytes();
        let current = self.chains.current_key(other).map(|k| k.to_bytes());
        let cooling = self
            .declined_at
            .is_some_and(|t| now < t + room::COOLDOWN_MS);
        let valid = VerifyingKey::from_bytes(&key).is_ok_and(|k| {
            sig.verifies(&k, &wire::knock_bytes(self.invite.room, &key))
                && wire::join_proof(self.invite.room, &self.invite.secret, &key) == proof
        });
        if self.standing != Standing::Seated
            || self.peer.proved
            || cooling
            || !valid
            || current.is_none_or(|k| k == key)
            || key == ours
            || self.knock.is_some_and(|k| k.key == key)
        {
            return Vec::new();
        }
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

    /// Adds one entry; true if it was new.
    fn offer(&mut self, e: Entry, out: &mut Vec<Effect>) -> bool {
        let (seat, seq) = (e.seat(), e.seq());
        match self.chains.add(e.clone()) {
            Ok(Added::New) => true,
            Ok(Added::Duplicate) => false,
            Err(Refusal::Gap) => {
                if self.pending.len() < MAX_PENDING && !self.pending.contains(&e) {
                    self.pending.push(e);
                }
                false
            }
            Err(why) => {
                if why == Refusal::Fork && !self.forked {
                    self.forked = true;
                    out.push(Effect::Event(Event::Fork(seat)));
                }
                out.push(Effect::Event(Event::Refused { seat, seq, why }));
                false
            }
        }
    }

    /// Sends the entries the peer lacks; asks for ours if we lack some.
    fn answer_heads(&mut self, theirs: Heads, now: u64) -> Vec<Effect> {
        let mut out = Vec::new();
        if self.forked {
            // The room is suspended on signed proof; resending would only loop.
            return out;
        }
        let mut we_lack = false;
        let mut resend = theirs.count;
        for seat in [Seat::Host, Seat::Guest] {
            let (have, mine) = (theirs.count[seat.index()], self.chains.len(seat));
            let held = (have > 0 && have <= mine).then(|| self.chains.hash_at(seat, have - 1));
            if held.is_some_and(|h| h != Some(theirs.last[seat.index()])) {
                // Same count, another last entry: send ours from there on. Heads are not
                // signed, so only the signed entries can prove a fork, on their side.
                resend[seat.index()] = have - 1;
            }
            we_lack |= have > mine;
        }
        let asked_again = self.last_resend.is_some_and(|(at, from)| {
            now < at.saturating_add(RESEND_MS) && resend[0] >= from[0] && resend[1] >= from[1]
        });
        if asked_again {
            if we_lack {
                out.push(self.send_heads(now));
            }
            return out;
        }
        // Send in fold order so each entry's references arrive before it.
        let order: Vec<Entry> = self
            .chains
            .merged()
            .into_iter()
            .filter(|e| e.seq() >= resend[e.seat().index()])
            .cloned()
            .collect();
        if !order.is_empty() {
            self.last_resend = Some((now, resend));
        }
        for batch in order.chunks(MAX_BATCH) {
            out.push(Effect::Send(wire::encode(&Message::Entries(
                batch.to_vec(),
            ))));
        }
        if we_lack {
            out.push(self.send_heads(now));
        }
        out
    }
}
