//! What a self-hoster can set, and the small value types behind the settings.

use crate::turn::{Clock, TurnSecret};
pub use ipnet::IpNet;
use relay_api::IceServer;
use std::{fmt, net::IpAddr, path::PathBuf, time::Duration};

/// What a self-hoster can set. Built with [`Config::default`] then adjusted field by field, so
/// that new settings can be added without breaking callers.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Config {
    /// Directory holding the built web client (`index.html`, the hashed `.js` and `.wasm`).
    /// If it is missing the relay still runs: static requests get `503`.
    pub static_dir: PathBuf,
    /// How long shutdown waits for HTTP requests to finish and websockets to close before
    /// giving up on them.
    pub drain_timeout: Duration,
    /// Most signalling websockets open at once; one more gets `503 {"error":"relay_full"}`.
    /// The TCP accept loop also holds at most this many plus [`Config::HTTP_HEADROOM`]
    /// connections of any kind, dropping extra ones at once.
    pub max_connections: usize,
    /// Most signalling websockets from one client IP; one more gets
    /// `429 {"error":"too_many_connections"}`.
    pub max_connections_per_ip: usize,
    /// Most rooms at once; a peer that would open one more gets `503 {"error":"too_many_rooms"}`.
    pub max_rooms: usize,
    /// Most spectators in one room (`/ws/<room>?watch`), beside its two players; one more gets
    /// `409 {"error":"too_many_spectators"}`, and 0 refuses every spectator. Spectators count
    /// toward [`Config::max_connections`], [`Config::max_connections_per_ip`] and (when one
    /// opens a room) [`Config::max_rooms`], never toward the two players' seats.
    pub max_spectators: usize,
    /// Largest websocket message or frame, in bytes. A frame announcing more is refused from its
    /// header, before its payload is read, and the socket is closed with `1009`.
    pub max_message_size: usize,
    /// Messages a peer may send per second, on average; twice as many may come in a burst. Over
    /// that the socket is closed with `1008`.
    pub max_messages_per_second: u32,
    /// A peer that sends nothing at all (no message, no pong) for this long is closed with `1001`
    /// and its room peer is told it left. The relay pings every third of it.
    pub idle_timeout: Duration,
    /// How long a new TCP connection may take to send its request headers.
    pub header_read_timeout: Duration,
    /// Which browser pages may open a signalling socket, by their `Origin` header.
    pub allowed_origins: AllowedOrigins,
    /// Proxies whose `X-Forwarded-For` header is believed when counting connections per IP.
    pub trusted_proxies: Vec<IpNet>,
    /// STUN and TURN servers handed to the client at `GET /ice-servers`. Empty by default: on
    /// loopback and on one LAN, host candidates are enough.
    pub ice_servers: Vec<IceServer>,
    /// A secret shared with the TURN server (coturn's `static-auth-secret`, with
    /// `use-auth-secret`). When set, every `GET /ice-servers` gives the entries of
    /// [`Config::ice_servers`] that hold a `turn:` or `turns:` URL a fresh user name and
    /// credential, valid for [`Config::turn_ttl`], in place of any they had; the answer is then
    /// made per request. `None` by default: the entries are served as they are.
    pub turn_secret: Option<TurnSecret>,
    /// How long a credential made from [`Config::turn_secret`] is valid.
    pub turn_ttl: Duration,
    /// Where the relay reads the time of day, for the expiry of those credentials.
    pub clock: Clock,
}

impl Config {
    /// Default for [`Config::static_dir`], relative to the working directory.
    pub const DEFAULT_STATIC_DIR: &'static str = "client/dist";
    /// Default for [`Config::drain_timeout`].
    pub const DEFAULT_DRAIN_TIMEOUT: Duration = Duration::from_secs(5);
    /// Default for [`Config::max_connections`].
    pub const DEFAULT_MAX_CONNECTIONS: usize = 10_000;
    /// Default for [`Config::max_connections_per_ip`]: room for a household or a small office
    /// behind one NAT.
    pub const DEFAULT_MAX_CONNECTIONS_PER_IP: usize = 32;
    /// Default for [`Config::max_rooms`].
    pub const DEFAULT_MAX_ROOMS: usize = 5_000;
    /// Default for [`Config::max_spectators`]: eight watchers per game.
    pub const DEFAULT_MAX_SPECTATORS: usize = 8;
    /// Default for [`Config::max_message_size`]: a browser's SDP offer is 1–3 KiB.
    pub const DEFAULT_MAX_MESSAGE_SIZE: usize = 16 * 1024;
    /// Default for [`Config::max_messages_per_second`]: a WebRTC handshake sends an offer or
    /// answer and a few ICE candidates, and `matchbox_socket` one keep-alive every 10 s.
    pub const DEFAULT_MAX_MESSAGES_PER_SECOND: u32 = 20;
    /// Default for [`Config::idle_timeout`]. `matchbox_socket` 0.15 sends `"KeepAlive"` every
    /// 10 s and answers pings (sent every 4 s) at once, so a live peer is never idle this long.
    pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(12);
    /// Default for [`Config::header_read_timeout`].
    pub const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
    /// Default for [`Config::turn_ttl`]: an hour.
    pub const DEFAULT_TURN_TTL: Duration = Duration::from_secs(3600);
    /// TCP connections allowed beyond [`Config::max_connections`], so that `/health`, pages and
    /// refusals with a status still get through when every websocket slot is taken.
    pub const HTTP_HEADROOM: usize = 256;

    /// How often the relay pings each peer: a third of the idle timeout, so that two lost pongs
    /// in a row are tolerated.
    pub fn ping_interval(&self) -> Duration {
        (self.idle_timeout / 3).max(Duration::from_millis(10))
    }
}

impl Default for Config {
    fn default() -> Self {
        Self {
            static_dir: PathBuf::from(Self::DEFAULT_STATIC_DIR),
            drain_timeout: Self::DEFAULT_DRAIN_TIMEOUT,
            max_connections: Self::DEFAULT_MAX_CONNECTIONS,
            max_connections_per_ip: Self::DEFAULT_MAX_CONNECTIONS_PER_IP,
            max_rooms: Self::DEFAULT_MAX_ROOMS,
            max_spectators: Self::DEFAULT_MAX_SPECTATORS,
            max_message_size: Self::DEFAULT_MAX_MESSAGE_SIZE,
            max_messages_per_second: Self::DEFAULT_MAX_MESSAGES_PER_SECOND,
            idle_timeout: Self::DEFAULT_IDLE_TIMEOUT,
            header_read_timeout: Self::DEFAULT_HEADER_READ_TIMEOUT,
            allowed_origins: AllowedOrigins::default(),
            trusted_proxies: Vec::new(),
            ice_servers: Vec::new(),
            turn_secret: None,
            turn_ttl: Self::DEFAULT_TURN_TTL,
            clock: Clock::system(),
        }
    }
}

/// Which `Origin`s may open a signalling socket. The relay's own origin (the `Origin`'s host
/// equals the request's `Host`) is always allowed; so is a request with no `Origin` at all, which
/// only non-browser clients send (and those can forge any header anyway).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AllowedOrigins {
    /// Every origin is allowed (`*`).
    pub any: bool,
    /// Further origins, as browsers write them: `https://example.org`, `http://host:8080`.
    pub list: Vec<String>,
}

impl AllowedOrigins {
    /// Parses a list as given on the command line: `*` allows all; other entries are origins,
    /// compared case-insensitively and without a trailing `/`.
    pub fn from_list<S: AsRef<str>>(entries: &[S]) -> Self {
        let mut allowed = Self::default();
        for entry in entries {
            let entry = entry.as_ref().trim();
            if entry == "*" {
                allowed.any = true;
            } else if !entry.is_empty() {
                allowed
                    .list
                    .push(entry.trim_end_matches('/').to_ascii_lowercase());
            }
        }
        allowed
    }

    /// Whether a page at `origin` may connect to a relay reached as `host` (the `Host` header).
    pub fn allows(&self, origin: Option<&str>, host: Option<&str>) -> bool {
        let Some(origin) = origin else { return true };
        if self.any {
            return true;
        }
        let origin = origin.trim().to_ascii_lowercase();
        if self.list.contains(&origin) {
            return true;
        }
        let Some((scheme, authority)) = origin.split_once("://") else {
            return false; // `null` and other opaque origins
        };
        let Some(host) = host else { return false };
        let host = host.trim().to_ascii_lowercase();
        strip_default_port(scheme, authority) == strip_default_port(scheme, &host)
    }
}

fn strip_default_port<'a>(scheme: &str, authority: &'a str) -> &'a str {
    let default = match scheme {
        "http" | "ws" => ":80",
        "https" | "wss" => ":443",
        _ => return authority,
    };
    authority.strip_suffix(default).unwrap_or(authority)
}

/// Reads a trusted proxy as given on the command line: a network (`10.0.0.0/8`, `2001:db8::/32`)
/// or a bare address, which is a `/32` or `/128`. IPv4-mapped IPv6 is read as IPv4, as the relay
/// sees its peers ([`IpAddr::to_canonical`]): `::ffff:10.0.0.0/104` is `10.0.0.0/8`.
pub fn parse_ip_net(s: &str) -> Result<IpNet, BadIpNet> {
    let text = s.trim();
    let bad = || BadIpNet(s.to_owned());
    let net = match text.parse::<IpNet>() {
        Ok(net) => net,
        Err(_) if !text.contains('/') => IpNet::from(text.parse::<IpAddr>().map_err(|_| bad())?),
        Err(_) => return Err(bad()),
    };
    match (net, net.addr().to_canonical()) {
        (IpNet::V6(v6), IpAddr::V4(v4)) if v6.prefix_len() >= 96 => {
            let v4 = ipnet::Ipv4Net::new(v4, v6.prefix_len() - 96).map_err(|_| bad())?;
            Ok(IpNet::V4(v4))
        }
        (IpNet::V6(_), IpAddr::V4(_)) => Err(bad()),
        _ => Ok(net),
    }
}

/// Whether `ip` lies in one of `nets`. An IPv4-mapped IPv6 address counts as IPv4.
pub(crate) fn in_any(nets: &[IpNet], ip: IpAddr) -> bool {
    let ip = ip.to_canonical();
    nets.iter().any(|net| net.contains(&ip))
}

/// Why a string is not a network [`parse_ip_net`] reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadIpNet(String);

impl fmt::Display for BadIpNet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not an IP address or network (e.g. 10.0.0.1, 10.0.0.0/8, ::1)",
            self.0
        )
    }
}

impl std::error::Error for BadIpNet {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn networks() {
        let net = |s: &str| parse_ip_net(s).unwrap();
        let inside = |n: &str, ip: &str| in_any(&[net(n)], ip.parse().unwrap());
        assert!(inside("10.1.0.0/16", "10.1.2.3"));
        assert!(inside("10.1.0.0/16", "::ffff:10.1.2.3"));
        assert!(!inside("10.1.0.0/16", "10.2.0.1"));
        assert!(!inside("10.1.0.0/16", "::1"));
        assert!(inside("127.0.0.1", "127.0.0.1"));
        assert!(!inside("127.0.0.1", "127.0.0.2"));
        assert!(
            inside(" ::ffff:127.0.0.1 ", "127.0.0.1"),
            "a mapped address is IPv4"
        );
        assert_eq!(net("::ffff:10.0.0.0/104"), net("10.0.0.0/8"));
        assert!(inside("0.0.0.0/0", "203.0.113.9"));
        assert!(inside("2001:db8::/32", "2001:db8:1::5"));
        assert!(!inside("2001:db8::/32", "2001:db9::5"));
        assert!(inside("::1", "::1"));
        assert_eq!(net("10.0.0.1").to_string(), "10.0.0.1/32");
        for bad in [
            "",
            "10.0.0.0/33",
            "::/129",
            "host",
            "10.0.0.0/x",
            "/8",
            "10.0.0.0/",
            "::ffff:10.0.0.0/95",
        ] {
            assert_eq!(
                parse_ip_net(bad).unwrap_err().to_string(),
                format!("`{bad}` is not an IP address or network (e.g. 10.0.0.1, 10.0.0.0/8, ::1)")
            );
        }
    }

    #[test]
    fn origins() {
        let own = AllowedOrigins::default();
        assert!(
            own.allows(None, Some("relay.example")),
            "no Origin: not a browser"
        );
        assert!(own.allows(Some("https://relay.example"), Some("relay.example")));
        assert!(own.allows(Some("https://Relay.example"), Some("relay.example:443")));
        assert!(own.allows(Some("http://127.0.0.1:3536"), Some("127.0.0.1:3536")));
        assert!(!own.allows(Some("http://127.0.0.1:9999"), Some("127.0.0.1:3536")));
        assert!(!own.allows(Some("https://evil.example"), Some("relay.example")));
        assert!(!own.allows(Some("null"), Some("relay.example")));
        assert!(!own.allows(Some("https://relay.example"), None));

        let listed = AllowedOrigins::from_list(&["https://games.example/", ""]);
        assert!(listed.allows(Some("https://games.example"), Some("relay.example")));
        assert!(!listed.allows(Some("http://games.example"), Some("relay.example")));
        assert!(AllowedOrigins::from_list(&["*"]).allows(Some("null"), None));
    }
}
