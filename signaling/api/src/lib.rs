//! What the relay (`signaling`) and the web client (`client-net`) agree on, stated once: the
//! STUN/TURN entries `GET /ice-servers` lists, why a websocket to `/ws/<room>` is refused (the
//! HTTP status and the `{"error":"…"}` code, which the relay also answers to a plain `GET` since a
//! browser cannot read the status of a refused websocket handshake), and which room names exist.
//!
//! ```
//! use relay_api::{IceServer, Refusal};
//!
//! let servers = IceServer::from_urls(
//!     &["stun:stun.example.org".into(), "turn:turn.example.org".into()],
//!     Some("user".into()),
//!     Some("secret".into()),
//! );
//! assert_eq!(servers.len(), 2); // STUN without credentials, TURN with them
//! assert_eq!(
//!     IceServer::list_json(&servers),
//!     r#"{"iceServers":[{"urls":["stun:stun.example.org"]},{"urls":["turn:turn.example.org"],"username":"user","credential":"secret"}]}"#
//! );
//! assert_eq!(Refusal::RoomFull.status(), 409);
//! assert_eq!(Refusal::from_code("room_full"), Some(Refusal::RoomFull));
//! assert!(relay_api::valid_room("0123abcd") && !relay_api::valid_room("a/b"));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::fmt;

/// One entry of the WebRTC `iceServers` list (`RTCIceServer`): a STUN or TURN server.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IceServer {
    /// `stun:host:port`, `turn:host:port?transport=udp`, `turns:host:443?transport=tcp`, …
    pub urls: Vec<String>,
    /// TURN user name, if any.
    pub username: Option<String>,
    /// TURN password, if any.
    pub credential: Option<String>,
}

impl IceServer {
    /// Groups URLs as browsers want them: the STUN ones in one entry without credentials, the
    /// TURN ones in another with `username` / `credential`.
    pub fn from_urls(
        urls: &[String],
        username: Option<String>,
        credential: Option<String>,
    ) -> Vec<Self> {
        let (turn, stun): (Vec<String>, Vec<String>) = urls
            .iter()
            .map(|url| url.trim().to_owned())
            .filter(|url| !url.is_empty())
            .partition(|url| Self::is_turn_url(url));
        let mut servers = Vec::new();
        if !stun.is_empty() {
            servers.push(Self {
                urls: stun,
                username: None,
                credential: None,
            });
        }
        if !turn.is_empty() {
            servers.push(Self {
                urls: turn,
                username,
                credential,
            });
        }
        servers
    }

    /// Whether a URL is a TURN server's (`turn:` or `turns:`): those are the ones that take a
    /// `username` and `credential`.
    pub fn is_turn_url(url: &str) -> bool {
        let url = url.trim();
        url.starts_with("turn:") || url.starts_with("turns:")
    }

    /// Whether a URL has a scheme WebRTC knows.
    pub fn is_valid_url(url: &str) -> bool {
        ["stun:", "stuns:", "turn:", "turns:"]
            .iter()
            .any(|scheme| url.trim().starts_with(scheme) && url.trim().len() > scheme.len())
    }

    /// The body of `GET /ice-servers`: `{"iceServers":[…]}`, the shape of
    /// `RTCConfiguration.iceServers`.
    pub fn list_json(servers: &[IceServer]) -> String {
        let mut out = String::from("{\"iceServers\":[");
        for (i, s) in servers.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"urls\":[");
            for (j, url) in s.urls.iter().enumerate() {
                if j > 0 {
                    out.push(',');
                }
                push_json_string(&mut out, url);
            }
            out.push(']');
            for (name, value) in [("username", &s.username), ("credential", &s.credential)] {
                if let Some(v) = value {
                    out.push_str(",\"");
                    out.push_str(name);
                    out.push_str("\":");
                    push_json_string(&mut out, v);
                }
            }
            out.push('}');
        }
        out.push_str("]}");
        out
    }
}

fn push_json_string(out: &mut String, s: &str) {
    use fmt::Write;
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Longest room name the relay accepts.
pub const MAX_ROOM_LEN: usize = 64;

/// A room name the relay accepts: 1–64 characters of `A–Z a–z 0–9 - _`.
pub fn valid_room(room: &str) -> bool {
    (1..=MAX_ROOM_LEN).contains(&room.len())
        && room
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Why the relay refuses a websocket to `/ws/<room>` (and says so to a plain `GET` of the same
/// path, as `{"error":"<code>"}` with the status).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// The room name is not one the relay accepts ([`valid_room`]). `400 bad_room`.
    BadRoom,
    /// The page comes from an origin the relay does not serve. `403 origin_not_allowed`.
    OriginNotAllowed,
    /// The room already holds its two peers. `409 room_full`.
    RoomFull,
    /// This address holds too many websockets already. `429 too_many_connections`.
    TooManyFromIp,
    /// Opening one more room would pass the relay's limit. `503 too_many_rooms`.
    TooManyRooms,
    /// Every websocket slot of the relay is taken. `503 relay_full`.
    RelayFull,
}

impl Refusal {
    /// Every refusal.
    pub const ALL: [Refusal; 6] = [
        Refusal::BadRoom,
        Refusal::OriginNotAllowed,
        Refusal::RoomFull,
        Refusal::TooManyFromIp,
        Refusal::TooManyRooms,
        Refusal::RelayFull,
    ];

    /// The HTTP status.
    pub const fn status(self) -> u16 {
        match self {
            Refusal::BadRoom => 400,
            Refusal::OriginNotAllowed => 403,
            Refusal::RoomFull => 409,
            Refusal::TooManyFromIp => 429,
            Refusal::TooManyRooms | Refusal::RelayFull => 503,
        }
    }

    /// The code in the JSON body.
    pub const fn code(self) -> &'static str {
        match self {
            Refusal::BadRoom => "bad_room",
            Refusal::OriginNotAllowed => "origin_not_allowed",
            Refusal::RoomFull => "room_full",
            Refusal::TooManyFromIp => "too_many_connections",
            Refusal::TooManyRooms => "too_many_rooms",
            Refusal::RelayFull => "relay_full",
        }
    }

    /// The body the relay sends with the status.
    pub fn body(self) -> String {
        format!("{{\"error\":\"{}\"}}", self.code())
    }

    /// The refusal with this code.
    pub fn from_code(code: &str) -> Option<Refusal> {
        Refusal::ALL.into_iter().find(|r| r.code() == code)
    }

    /// The refusal a status means, when the body could not be read (503 is read as
    /// [`Refusal::RelayFull`]: either way the relay is busy).
    pub fn from_status(status: u16) -> Option<Refusal> {
        Refusal::ALL
            .into_iter()
            .rev()
            .find(|r| r.status() == status)
    }

    /// The refusal a probe answer means: its body's code, else its status; `None` for a room
    /// that can be joined.
    pub fn from_answer(status: u16, body: &str) -> Option<Refusal> {
        if (200..300).contains(&status) {
            return None;
        }
        let code = body
            .split("\"error\":\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next());
        code.and_then(Refusal::from_code)
            .or_else(|| Refusal::from_status(status))
    }
}

/// The body of the relay's answer to a plain `GET /ws/<room>` it would let join: how many
/// players are in the room now.
pub fn peers_body(peers: usize) -> String {
    format!("{{\"peers\":{peers}}}")
}

/// The number of players the relay counts in a room, from its answer to a plain `GET
/// /ws/<room>`: `200 {"peers":N}` (`None` for any other answer; a refusal says why instead).
pub fn peers_from_answer(status: u16, body: &str) -> Option<u32> {
    if status != 200 {
        return None;
    }
    let rest = body.trim().strip_prefix("{\"peers\":")?;
    rest.strip_suffix('}')?.trim().parse().ok()
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.status(), self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_refusal_reads_back_from_its_code_and_its_answer() {
        for r in Refusal::ALL {
            assert_eq!(Refusal::from_code(r.code()), Some(r));
            assert_eq!(Refusal::from_answer(r.status(), &r.body()), Some(r));
        }
        assert_eq!(Refusal::from_answer(200, "{\"peers\":1}"), None);
        assert_eq!(
            Refusal::from_answer(503, "garbage"),
            Some(Refusal::RelayFull)
        );
        assert_eq!(Refusal::from_answer(500, ""), None);
    }

    #[test]
    fn the_count_of_players_reads_from_a_joinable_answer_only() {
        assert_eq!(peers_from_answer(200, &peers_body(0)), Some(0));
        assert_eq!(peers_from_answer(200, &peers_body(2)), Some(2));
        assert_eq!(peers_from_answer(200, "{\"peers\":1}\n"), Some(1));
        for (status, body) in [
            (409, "{\"peers\":1}"),
            (200, "{\"peers\":-1}"),
            (200, "{\"peers\":\"1\"}"),
            (200, "{\"error\":\"room_full\"}"),
            (200, ""),
        ] {
            assert_eq!(peers_from_answer(status, body), None, "{status} {body}");
        }
    }

    #[test]
    fn room_names() {
        for good in ["a", "room-1_B", &"x".repeat(64)] {
            assert!(valid_room(good), "{good}");
        }
        for bad in ["", "a b", "a/b", "é", &"x".repeat(65)] {
            assert!(!valid_room(bad), "{bad}");
        }
    }

    #[test]
    fn ice_servers_are_grouped_and_written_as_json() {
        let urls: Vec<String> = ["stun:a", " turn:b ", "turns:c", ""]
            .map(String::from)
            .to_vec();
        let servers = IceServer::from_urls(&urls, Some("u\"".into()), Some("p".into()));
        assert_eq!(servers.len(), 2);
        assert_eq!(servers[1].urls, ["turn:b", "turns:c"]);
        assert_eq!(
            IceServer::list_json(&servers),
            r#"{"iceServers":[{"urls":["stun:a"]},{"urls":["turn:b","turns:c"],"username":"u\"","credential":"p"}]}"#
        );
        assert_eq!(IceServer::list_json(&[]), r#"{"iceServers":[]}"#);
        assert!(IceServer::from_urls(&[], None, None).is_empty());
        assert!(IceServer::is_turn_url(" turns:c") && !IceServer::is_turn_url("stun:turn:a"));
        assert!(IceServer::is_valid_url("stun:a"));
        assert!(!IceServer::is_valid_url("http://a") && !IceServer::is_valid_url("stun:"));
    }
}
