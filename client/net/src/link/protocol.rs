//! The relay's wire protocol as the browser's link speaks it: matchbox's full-mesh JSON, read
//! and written without serde. What the relay says down is read from a parsed JSON value
//! ([`Json`]: the browser's own `JSON.parse` in the page, `serde_json` in the tests); what goes up
//! is written by hand. Pure, so it is tested natively.
//!
//! Down: `{"IdAssigned":ID}`, `{"NewPeer":ID}`, `{"PeerLeft":ID}`,
//! `{"Signal":{"sender":ID,"data":SIGNAL}}`, and our relay's own `{"Watcher":ID}` (a spectator
//! came into the room: a player offers it a connection, as to a new peer; docs/architecture.md,
//! « The relay »). Up: `{"Signal":{"receiver":ID,"data":SIGNAL}}`. A
//! signal is `{"Offer":SDP}`, `{"Answer":SDP}` or `{"IceCandidate":JSON}` (the JSON text of an
//! `RTCIceCandidateInit`, or `"null"`) as matchbox has them, or our own `{"NoWebRtc":true}`: the
//! sender's browser cannot make WebRTC connections, so the receiver should not wait for one (the
//! relay passes any signal on); an id is a UUID in its hyphenated form.

use std::fmt;

/// A peer's id: the UUID the relay gave its socket.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PeerId(u128);

impl PeerId {
    /// The one peer of a link paired by hand (no relay names it).
    pub const PAIRED: PeerId = PeerId(1);

    /// Reads `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` (hexadecimal digits of either case).
    pub fn parse(text: &str) -> Option<PeerId> {
        let bytes = text.as_bytes();
        if bytes.len() != 36 {
            return None;
        }
        let mut id = 0u128;
        for (i, &b) in bytes.iter().enumerate() {
            if matches!(i, 8 | 13 | 18 | 23) {
                if b != b'-' {
                    return None;
                }
                continue;
            }
            id = (id << 4) | u128::from(char::from(b).to_digit(16)?);
        }
        Some(PeerId(id))
    }
}

impl fmt::Display for PeerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hex = format!("{:032x}", self.0);
        write!(
            f,
            "{}-{}-{}-{}-{}",
            &hex[..8],
            &hex[8..12],
            &hex[12..16],
            &hex[16..20],
            &hex[20..]
        )
    }
}

/// What one peer sends another through the relay to open a WebRTC connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Signal {
    /// The offerer's session description (SDP).
    Offer(String),
    /// The answerer's session description (SDP).
    Answer(String),
    /// One ICE candidate, as the JSON text of an `RTCIceCandidateInit` (`"null"`: no more).
    IceCandidate(String),
    /// The sender's browser has no WebRTC (turned off, or built without it): no connection will
    /// come from it.
    NoWebRtc,
}

/// What the relay says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The relay admitted the socket to the room, under this id.
    IdAssigned(PeerId),
    /// A peer joined the room after us: we offer it a connection.
    NewPeer(PeerId),
    /// A spectator came into the room (said to the players only): we offer it a connection.
    Watcher(PeerId),
    /// A peer left the room.
    PeerLeft(PeerId),
    /// A peer's signal.
    Signal(PeerId, Signal),
}

/// A parsed JSON value, as far as reading the relay needs.
pub trait Json: Sized {
    /// The value of an object's field, if it is an object and has it.
    fn field(&self, name: &str) -> Option<Self>;
    /// The text, if it is a string.
    fn text(&self) -> Option<String>;
}

/// What the relay said; `None` for anything else (malformed, or a message this client does not
/// know), which is ignored.
pub fn event<J: Json>(message: &J) -> Option<Event> {
    let id = |name: &str| PeerId::parse(&message.field(name)?.text()?);
    if let Some(id) = id("IdAssigned") {
        return Some(Event::IdAssigned(id));
    }
    if let Some(id) = id("NewPeer") {
        return Some(Event::NewPeer(id));
    }
    if let Some(id) = id(relay_api::WATCHER_EVENT) {
        return Some(Event::Watcher(id));
    }
    if let Some(id) = id("PeerLeft") {
        return Some(Event::PeerLeft(id));
    }
    let signal = message.field("Signal")?;
    let sender = PeerId::parse(&signal.field("sender")?.text()?)?;
    let data = signal.field("data")?;
    let text = |name: &str| data.field(name)?.text();
    let signal = if let Some(sdp) = text("Offer") {
        Signal::Offer(sdp)
    } else if let Some(sdp) = text("Answer") {
        Signal::Answer(sdp)
    } else if data.field("NoWebRtc").is_some() {
        Signal::NoWebRtc
    } else {
        Signal::IceCandidate(text("IceCandidate")?)
    };
    Some(Event::Signal(sender, signal))
}

/// The request that sends a signal to a peer of the room.
pub fn signal_request(receiver: PeerId, signal: &Signal) -> String {
    let (kind, text) = match signal {
        Signal::Offer(sdp) => ("Offer", sdp),
        Signal::Answer(sdp) => ("Answer", sdp),
        Signal::IceCandidate(json) => ("IceCandidate", json),
        Signal::NoWebRtc => {
            return format!(
                "{{\"Signal\":{{\"receiver\":\"{receiver}\",\"data\":{{\"NoWebRtc\":true}}}}}}"
            )
        }
    };
    let mut out = format!("{{\"Signal\":{{\"receiver\":\"{receiver}\",\"data\":{{\"{kind}\":");
    quote(text, &mut out);
    out.push_str("}}}");
    out
}

/// Writes `text` as a JSON string: quotes, backslashes and control characters (an SDP's line
/// ends) escaped.
fn quote(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c < ' ' => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    impl Json for Value {
        fn field(&self, name: &str) -> Option<Value> {
            self.get(name).cloned()
        }
        fn text(&self) -> Option<String> {
            self.as_str().map(String::from)
        }
    }

    #[test]
    fn the_paired_peer_is_no_peer_the_relay_names() {
        // The relay names sockets with random (version 4) UUIDs: never the paired peer's.
        assert_eq!(
            PeerId::PAIRED.to_string(),
            "00000000-0000-0000-0000-000000000001"
        );
        let relay = PeerId::parse("67e55044-10b1-426f-9247-bb680e5fe0c8").unwrap();
        assert_ne!(relay, PeerId::PAIRED);
        // Its version digit is 4; the paired peer's, 0.
        assert_eq!(relay.to_string().as_bytes()[14], b'4');
        assert_eq!(PeerId::PAIRED.to_string().as_bytes()[14], b'0');
    }

    fn read(text: &str) -> Option<Event> {
        event(&serde_json::from_str::<Value>(text).unwrap())
    }

    const A: &str = "67e55044-10b1-426f-9247-bb680e5fe0c8";
    const B: &str = "00000000-0000-0000-0000-00000000000a";

    fn id(text: &str) -> PeerId {
        PeerId::parse(text).unwrap()
    }

    #[test]
    fn ids_are_the_relays_uuids() {
        assert_eq!(id(A).to_string(), A);
        assert_eq!(id(B), PeerId(10));
        assert_eq!(id(&A.to_uppercase()), id(A));
        // What the relay's own uuid crate writes.
        let uuid = matchbox_socket::PeerId(A.parse().unwrap());
        assert_eq!(uuid.to_string(), id(A).to_string());
        for bad in [
            "",
            "67e5504410b1426f9247bb680e5fe0c8",
            "67e55044-10b1-426f-9247-bb680e5fe0c",
            "67e55044-10b1-426f-9247-bb680e5fe0c8a",
            "67e55044_10b1-426f-9247-bb680e5fe0c8",
            "67e55044-10b1-426f-9247-bb680e5fe0cg",
            "+7e55044-10b1-426f-9247-bb680e5fe0c8",
            "67e55044-10b1-426f-9247-bb680e5fé0c",
        ] {
            assert_eq!(PeerId::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn reads_what_the_relay_says() {
        assert_eq!(
            read(&format!(r#"{{"IdAssigned":"{A}"}}"#)),
            Some(Event::IdAssigned(id(A)))
        );
        assert_eq!(
            read(&format!(r#"{{"NewPeer":"{B}"}}"#)),
            Some(Event::NewPeer(id(B)))
        );
        assert_eq!(
            read(&format!(r#"{{"PeerLeft":"{B}"}}"#)),
            Some(Event::PeerLeft(id(B)))
        );
        assert_eq!(
            read(&format!(r#"{{"Watcher":"{B}"}}"#)),
            Some(Event::Watcher(id(B)))
        );
        let signal =
            |data: &str| read(&format!(r#"{{"Signal":{{"sender":"{B}","data":{data}}}}}"#));
        assert_eq!(
            signal(r#"{"Offer":"v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n"}"#),
            Some(Event::Signal(
                id(B),
                Signal::Offer("v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n".into())
            ))
        );
        assert_eq!(
            signal(r#"{"Answer":"v=0"}"#),
            Some(Event::Signal(id(B), Signal::Answer("v=0".into())))
        );
        assert_eq!(
            signal(r#"{"IceCandidate":"null"}"#),
            Some(Event::Signal(id(B), Signal::IceCandidate("null".into())))
        );
        assert_eq!(
            signal(r#"{"NoWebRtc":true}"#),
            Some(Event::Signal(id(B), Signal::NoWebRtc))
        );
    }

    #[test]
    fn what_the_relay_would_never_say_is_ignored() {
        for text in [
            r#""KeepAlive""#,
            "null",
            "42",
            "[]",
            "{}",
            r#"{"IdAssigned":null}"#,
            r#"{"IdAssigned":"not a uuid"}"#,
            r#"{"NewPeer":7}"#,
            r#"{"Watcher":true}"#,
            r#"{"PeerLeft":{"id":"67e55044-10b1-426f-9247-bb680e5fe0c8"}}"#,
            r#"{"Signal":"Offer"}"#,
            r#"{"Signal":{"data":{"Offer":"v=0"}}}"#,
            r#"{"Signal":{"sender":"x","data":{"Offer":"v=0"}}}"#,
            r#"{"Signal":{"sender":"67e55044-10b1-426f-9247-bb680e5fe0c8"}}"#,
            r#"{"Signal":{"sender":"67e55044-10b1-426f-9247-bb680e5fe0c8","data":"Offer"}}"#,
            r#"{"Signal":{"sender":"67e55044-10b1-426f-9247-bb680e5fe0c8","data":{"Offer":1}}}"#,
            r#"{"Signal":{"sender":"67e55044-10b1-426f-9247-bb680e5fe0c8","data":{"Bye":"x"}}}"#,
            r#"{"Signal":{"receiver":"67e55044-10b1-426f-9247-bb680e5fe0c8","data":{"Offer":"v=0"}}}"#,
        ] {
            assert_eq!(read(text), None, "{text}");
        }
    }

    /// What the relay's parser (matchbox's own types) reads in what we write.
    fn relay_reads(text: &str) -> matchbox_protocol::JsonPeerRequest {
        text.parse().unwrap()
    }

    #[test]
    fn writes_signals_the_relay_reads() {
        let sdp = "v=0\r\no=- 4611 2 IN IP4 127.0.0.1\r\na=candidate:1 1 udp 2122260223 \
                   192.168.1.2 54321 typ host\r\na=\"quoted\" back\\slash\ttab \u{1} é\r\n";
        for (signal, kind) in [
            (Signal::Offer(sdp.into()), "Offer"),
            (Signal::Answer(sdp.into()), "Answer"),
            (
                Signal::IceCandidate(r#"{"candidate":"candidate:1 1 udp","sdpMid":"0"}"#.into()),
                "IceCandidate",
            ),
            (Signal::NoWebRtc, "NoWebRtc"),
        ] {
            let text = signal_request(id(A), &signal);
            let matchbox_protocol::PeerRequest::Signal { receiver, data } = relay_reads(&text)
            else {
                panic!("not a signal: {text}");
            };
            assert_eq!(receiver.to_string(), A);
            let expected = match &signal {
                Signal::Offer(s) | Signal::Answer(s) | Signal::IceCandidate(s) => {
                    serde_json::json!(s)
                }
                Signal::NoWebRtc => serde_json::json!(true),
            };
            assert_eq!(data, serde_json::json!({ kind: expected }), "{text}");
            // And what the other peer reads once the relay has passed it on.
            let relayed = serde_json::json!({ "Signal": { "sender": B, "data": data } });
            assert_eq!(event(&relayed), Some(Event::Signal(id(B), signal)));
        }
    }
}
