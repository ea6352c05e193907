//! Receiving and resynchronising: entries offered to the chains (kept aside ahead of a gap,
//! forks noticed), and the heads exchange that brings two peers to the same transcript after a
//! disconnection or a reload (`docs/protocol.md`, « Resync »).

use super::chains::{Added, Refusal};
use super::wire::{self, Entry, Heads, Message, Seat, MAX_BATCH};
use super::{Effect, Event, Presence, Session, Standing, MAX_PENDING};

impl Session {
    /// How many entries of each seat we hold, and the last hashes.
    pub fn heads(&self) -> Heads {
        self.chains.heads()
    }

    pub(super) fn send_heads(&mut self, now: u64) -> Effect {
        self.last_heads_sent = Some(now);
        Effect::Send(wire::encode_message(&Message::Heads(self.heads())))
    }

    /// Bytes from the peer.
    pub fn receive(&mut self, bytes: &[u8], now: u64) -> Vec<Effect> {
        let mut out = Vec::new();
        let message = match wire::decode_message(bytes) {
            Ok(m) => m,
            Err(e) => return vec![Effect::Event(Event::Undecodable(e))],
        };
        self.last_heard = now;
        if self.peer.proved
            && matches!(self.presence, Presence::Away { .. })
            && self.other_fork().is_none()
        {
            // The same connection, silent for a while (a frozen or throttled tab): still the
            // device that proved the seat.
            self.presence = Presence::Here;
            out.push(Effect::Event(Event::Presence(self.presence)));
            self.stamp_proposal(now);
        }
        match message {
            Message::Heads(theirs) => {
                self.peer.first_heads.get_or_insert(theirs.count);
                out.extend(self.answer_heads(theirs, now))
            }
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
                let forks = self.chains.forks.len();
                for e in entries {
                    if let Some(hello) = self.intruder(&e) {
                        out.extend(self.give_way(hello, now));
                        added = true;
                    }
                    added |= self.offer(e, &mut out);
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
                if self.pending.len() > waiting && !self.forked() {
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
                out.extend(self.new_forks(forks, now));
                out.extend(self.duties(now));
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
                out.push(Effect::Event(Event::Refused { seat, seq, why }));
                false
            }
        }
    }

    /// Says each fork proof found since the chains held `before` of them: a fork of the other
    /// seat makes it away from now on (its proofs and messages count no more); the proof is
    /// kept for the save.
    fn new_forks(&mut self, before: usize, now: u64) -> Vec<Effect> {
        let seats: Vec<Seat> = self.chains.forks[before..]
            .iter()
            .map(|(a, _)| a.seat())
            .collect();
        let mut out = Vec::new();
        for seat in seats {
            out.push(Effect::Save);
            out.push(Effect::Event(Event::Fork(seat)));
            if seat != self.seat && self.presence == Presence::Here {
                self.presence = Presence::Away { since: now };
                out.push(Effect::Event(Event::Presence(self.presence)));
            }
        }
        out
    }

    /// The entries from number `from[seat]` of each seat on, in fold order, so that each
    /// entry's references arrive before it: from the first place where one of them stands.
    pub(super) fn entries_from(&self, from: [u32; 2]) -> Vec<Entry> {
        let first = [Seat::Host, Seat::Guest]
            .into_iter()
            .filter_map(|s| self.fold.pos_of(s, from[s.index()]))
            .min();
        first.map_or_else(Vec::new, |first| {
            self.fold.order()[first..]
                .iter()
                .filter(|(s, n)| *n >= from[s.index()])
                .filter_map(|&(s, n)| self.chains.get(s, n).cloned())
                .collect()
        })
    }

    /// Sends the entries the peer lacks; asks for ours if we lack some.
    fn answer_heads(&mut self, theirs: Heads, now: u64) -> Vec<Effect> {
        let mut out = Vec::new();
        if self.forked() {
            // Two histories of one seat: resending could only loop.
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
        // Heads are unsigned and cheap, a resend is not: one full resend per connection (and
        // one more for each device let knock on it), then only what lies beyond everything
        // already resent on it. An honest peer lacks nothing we resent: the channel is
        // reliable, and a new connection (a reload) starts afresh.
        let held = [self.chains.len(Seat::Host), self.chains.len(Seat::Guest)];
        if let Some(sent) = self.resent {
            resend = [resend[0].max(sent[0]), resend[1].max(sent[1])];
        }
        self.resent = Some(held);
        let order = self.entries_from(resend);
        self.work.resent += order.len() as u64;
        for batch in order.chunks(MAX_BATCH) {
            out.push(Effect::Send(wire::encode_message(&Message::Entries(
                batch.to_vec(),
            ))));
        }
        if we_lack {
            out.push(self.send_heads(now));
        }
        out
    }
}
