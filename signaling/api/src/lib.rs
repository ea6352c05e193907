//! What the relay (`signaling`) and the web client (`client-net`) agree on, stated once as types:
//! the STUN/TURN entries `GET /ice-servers` lists ([`IceServers`]), why a websocket to
//! `/ws/<room>` is refused (the HTTP status and the `{"error":"…"}` body, [`Refused`], which the
//! relay also answers to a plain `GET` since a browser cannot read the status of a refused
//! websocket handshake), the answer to a room that can be joined ([`RoomAnswer`]), the relay's
//! counts at `GET /health` ([`Health`]), and which room names exist.
//!
//! With the `serde` feature the types are `Serialize` and `Deserialize`; with `json`, the answers
//! are also read from their JSON text ([`Refusal::from_answer`], [`peers_from_answer`]). The relay
//! writes every body with `serde_json`; the browser reads them with its own `JSON.parse` and
//! fills these types (client/src/ui/room/web.rs), which costs its bundle nothing
//! (docs/architecture.md, « What the relay says »).
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
//! assert_eq!(servers[1].username.as_deref(), Some("user"));
//! assert_eq!(Refusal::RoomFull.status(), 409);
//! assert_eq!(Refusal::from_code("room_full"), Some(Refusal::RoomFull));
//! assert!(relay_api::valid_room("0123abcd") && !relay_api::valid_room("a/b"));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::fmt;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// One entry of the WebRTC `iceServers` list (`RTCIceServer`): a STUN or TURN server.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct IceServer {
    /// `stun:host:port`, `turn:host:port?transport=udp`, `turns:host:443?transport=tcp`, …
    pub urls: Vec<String>,
    /// TURN user name, if any.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub username: Option<String>,
    /// TURN password, if any.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub credential: Option<String>,
}

/// The body of `GET /ice-servers`: `{"iceServers":[…]}`, the shape of
/// `RTCConfiguration.iceServers`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct IceServers {
    /// The STUN and TURN servers.
    #[cfg_attr(feature = "serde", serde(rename = "iceServers"))]
    pub ice_servers: Vec<IceServer>,
}

/// The body of a refusal: `{"error":"room_full"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Refused {
    /// Why.
    pub error: Refusal,
}

/// The body of the relay's answer to a plain `GET /ws/<room>` (or `/ws/<room>?watch`) it would
/// let join: how many players are in the room now, `{"peers":1}`. A spectator's probe answers
/// the same count of players (spectators are not counted in it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct RoomAnswer {
    /// Players in the room (0 or 1 for a player's probe: a room of two refuses a player with
    /// [`Refusal::RoomFull`]; 0, 1 or 2 for a spectator's).
    pub peers: u32,
}

/// The body of `GET /health`:
/// `{"status":"ok","rooms":…,"peers":…,"spectators":…,"connections":…}`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Health {
    /// Always `ok`: a relay that answers is up.
    pub status: String,
    /// Rooms open.
    pub rooms: usize,
    /// Peers in them: every signalling websocket, players and spectators alike (what
    /// `--max-connections` caps).
    pub peers: usize,
    /// Of those peers, the spectators (`/ws/<room>?watch`). Absent from a relay older than
    /// spectators: read as 0.
    #[cfg_attr(feature = "serde", serde(default))]
    pub spectators: usize,
    /// Open TCP connections (this request's own included).
    pub connections: usize,
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
}

/// The query that makes a websocket to `/ws/<room>` a spectator's: `/ws/<room>?watch` (any
/// value, or none). A spectator takes no seat: it is one of at most `--max-spectators` (8 by
/// default) beside the two players, and a player makes the WebRTC offer to it.
pub const WATCH_QUERY: &str = "watch";

/// The event the relay writes to each player when a spectator is in the room:
/// `{"Watcher":"<spectator's peer id>"}`, the shape of matchbox's `{"NewPeer":"<id>"}`. A player
/// receives one when a spectator joins, and one per spectator already there when it joins
/// itself; the player then makes the offer. Spectators never receive it (they never meet each
/// other), nor `NewPeer`.
pub const WATCHER_EVENT: &str = "Watcher";

/// Whether a websocket URL's query (the part after `?`) makes it a spectator's: it holds the key
/// [`WATCH_QUERY`] (`watch`, `watch=`, `watch=1`, `a=b&watch`).
pub fn is_watch_query(query: &str) -> bool {
    query
        .split('&')
        .any(|pair| pair.split('=').next() == Some(WATCH_QUERY))
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
/// path, as `{"error":"<code>"}` with the status: [`Refused`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Refusal {
    /// The room name is not one the relay accepts ([`valid_room`]). `400 bad_room`.
    BadRoom,
    /// The page comes from an origin the relay does not serve. `403 origin_not_allowed`.
    OriginNotAllowed,
    /// The room already holds its two players. `409 room_full`. (Never said to a spectator.)
    RoomFull,
    /// The room already holds as many spectators as the relay allows (`--max-spectators`, 8 by
    /// default; with 0, every spectator is refused). `409 too_many_spectators`. (Never said to a
    /// player.)
    TooManySpectators,
    /// This address holds too many websockets already. `429 too_many_connections`.
    #[cfg_attr(feature = "serde", serde(rename = "too_many_connections"))]
    TooManyFromIp,
    /// Opening one more room would pass the relay's limit. `503 too_many_rooms`.
    TooManyRooms,
    /// Every websocket slot of the relay is taken. `503 relay_full`.
    RelayFull,
}

impl Refusal {
    /// Every refusal.
    pub const ALL: [Refusal; 7] = [
        Refusal::BadRoom,
        Refusal::OriginNotAllowed,
        Refusal::TooManySpectators,
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
            Refusal::RoomFull | Refusal::TooManySpectators => 409,
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
            Refusal::TooManySpectators => "too_many_spectators",
            Refusal::TooManyFromIp => "too_many_connections",
            Refusal::TooManyRooms => "too_many_rooms",
            Refusal::RelayFull => "relay_full",
        }
    }

    /// The refusal with this code.
    pub fn from_code(code: &str) -> Option<Refusal> {
        Refusal::ALL.into_iter().find(|r| r.code() == code)
    }

    /// The refusal a status means, when the body could not be read (409 is read as
    /// [`Refusal::RoomFull`] and 503 as [`Refusal::RelayFull`]: the last of [`Refusal::ALL`]
    /// with that status).
    pub fn from_status(status: u16) -> Option<Refusal> {
        Refusal::ALL
            .into_iter()
            .rev()
            .find(|r| r.status() == status)
    }

    /// The refusal a probe answer means: its body's code, else its status; `None` for a room
    /// that can be joined.
    pub fn from_status_and_code(status: u16, code: Option<&str>) -> Option<Refusal> {
        if (200..300).contains(&status) {
            return None;
        }
        code.and_then(Refusal::from_code)
            .or_else(|| Refusal::from_status(status))
    }

    /// [`Refusal::from_status_and_code`] from the answer's JSON text.
    #[cfg(feature = "json")]
    pub fn from_answer(status: u16, body: &str) -> Option<Refusal> {
        let refused = serde_json::from_str::<Refused>(body).ok();
        Refusal::from_status_and_code(status, refused.map(|r| r.error.code()))
    }
}

/// The number of players the relay counts in a room, from its answer to a plain `GET
/// /ws/<room>`: `200 {"peers":N}` (`None` for any other answer; a refusal says why instead).
#[cfg(feature = "json")]
pub fn peers_from_answer(status: u16, body: &str) -> Option<u32> {
    if status != 200 {
        return None;
    }
    serde_json::from_str::<RoomAnswer>(body)
        .ok()
        .map(|a| a.peers)
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
    fn a_refusal_is_its_code_else_its_status() {
        for r in Refusal::ALL {
            assert_eq!(Refusal::from_code(r.code()), Some(r));
            assert_eq!(
                Refusal::from_status_and_code(r.status(), Some(r.code())),
                Some(r)
            );
        }
        assert_eq!(Refusal::from_status_and_code(200, Some("room_full")), None);
        assert_eq!(
            Refusal::from_status_and_code(503, Some("garbage")),
            Some(Refusal::RelayFull)
        );
        assert_eq!(
            Refusal::from_status_and_code(409, None),
            Some(Refusal::RoomFull)
        );
        assert_eq!(Refusal::from_status_and_code(500, None), None);
        assert_eq!(
            Refusal::from_status_and_code(409, Some("too_many_spectators")),
            Some(Refusal::TooManySpectators)
        );
        assert_eq!(Refusal::TooManySpectators.status(), 409);
        assert_eq!(
            Refusal::TooManySpectators.to_string(),
            "409 too_many_spectators"
        );
    }

    #[test]
    fn a_watch_query_makes_a_spectator() {
        for watch in ["watch", "watch=", "watch=1", "a=b&watch", "watch&a"] {
            assert!(is_watch_query(watch), "{watch}");
        }
        for not in ["", "watcher", "a=watch", "swatch", "a&b"] {
            assert!(!is_watch_query(not), "{not}");
        }
    }

    #[cfg(feature = "json")]
    #[test]
    fn every_refusal_reads_back_from_its_answer() {
        for r in Refusal::ALL {
            let body = serde_json::to_string(&Refused { error: r }).unwrap();
            assert_eq!(body, format!("{{\"error\":\"{}\"}}", r.code()));
            assert_eq!(Refusal::from_answer(r.status(), &body), Some(r));
        }
        assert_eq!(Refusal::from_answer(200, "{\"peers\":1}"), None);
        assert_eq!(
            Refusal::from_answer(503, "garbage"),
            Some(Refusal::RelayFull)
        );
        assert_eq!(Refusal::from_answer(500, ""), None);
        assert_eq!(
            Refusal::from_answer(409, r#"{"error":"too_many_spectators"}"#),
            Some(Refusal::TooManySpectators)
        );
    }

    #[cfg(feature = "json")]
    #[test]
    fn health_counts_spectators_apart() {
        let health = Health {
            status: "ok".into(),
            rooms: 1,
            peers: 3,
            spectators: 1,
            connections: 4,
        };
        let text = serde_json::to_string(&health).unwrap();
        assert_eq!(
            text,
            r#"{"status":"ok","rooms":1,"peers":3,"spectators":1,"connections":4}"#
        );
        let older: Health =
            serde_json::from_str(r#"{"status":"ok","rooms":1,"peers":2,"connections":3}"#).unwrap();
        assert_eq!(older.spectators, 0);
    }

    #[cfg(feature = "json")]
    #[test]
    fn the_count_of_players_reads_from_a_joinable_answer_only() {
        let body = |peers| serde_json::to_string(&RoomAnswer { peers }).unwrap();
        assert_eq!(body(1), "{\"peers\":1}");
        assert_eq!(peers_from_answer(200, &body(0)), Some(0));
        assert_eq!(peers_from_answer(200, &body(2)), Some(2));
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
        #[cfg(feature = "json")]
        {
            let list = |ice_servers| serde_json::to_string(&IceServers { ice_servers }).unwrap();
            assert_eq!(
                list(servers.clone()),
                r#"{"iceServers":[{"urls":["stun:a"]},{"urls":["turn:b","turns:c"],"username":"u\"","credential":"p"}]}"#
            );
            assert_eq!(list(vec![]), r#"{"iceServers":[]}"#);
            let read: IceServers = serde_json::from_str(&list(servers.clone())).unwrap();
            assert_eq!(read.ice_servers, servers);
        }
        assert!(IceServer::from_urls(&[], None, None).is_empty());
        assert!(IceServer::is_turn_url(" turns:c") && !IceServer::is_turn_url("stun:turn:a"));
        assert!(IceServer::is_valid_url("stun:a"));
        assert!(!IceServer::is_valid_url("http://a") && !IceServer::is_valid_url("stun:"));
    }
}
