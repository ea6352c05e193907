//! The signalling websocket: admission before the upgrade, then one task per peer.
//!
//! The wire protocol is matchbox's full-mesh one, so the stock `matchbox_socket` client works
//! unchanged: the relay sends `{"IdAssigned":ID}` first, then `{"NewPeer":ID}` to the peer
//! already in the room when a second one joins, `{"PeerLeft":ID}` when one goes, and relays
//! `{"Signal":{"receiver":ID,"data":…}}` requests as `{"Signal":{"sender":ID,"data":…}}`
//! events; `"KeepAlive"` requests are accepted and ignored.
//!
//! Spectators (`/ws/{room}?watch`) speak the same protocol with one more event, which players
//! only receive: `{"Watcher":ID}`, a spectator to make an offer to (see [`crate::rooms`]).
//!
//! The room bookkeeping is ours ([`crate::rooms`]) rather than matchbox_signaling's `FullMesh`,
//! whose state never forgets a room and is cloned whole on every join. Each peer costs one task
//! and one bounded queue.

use std::{net::IpAddr, sync::Arc, time::Duration};

use axum::{
    extract::{
        rejection::PathRejection,
        ws::{close_code, CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade},
        ConnectInfo, Path, State,
    },
    http::{header, HeaderMap, StatusCode, Uri},
    response::Response,
};
use matchbox_protocol::{JsonPeerEvent, JsonPeerRequest, PeerId};
use relay_api::{Refusal, Refused, RoomAnswer};
use tokio::{
    sync::{mpsc, watch, Notify},
    time::{sleep_until, timeout, Instant, MissedTickBehavior},
};
use tokio_tungstenite::tungstenite;
use tracing::{debug, info};

use crate::{
    json_response,
    rooms::{Limits, Mailbox, Role, Rooms, Seat},
    Config, IpNet,
};

/// Events a peer may have waiting before it counts as too slow and is disconnected. A whole
/// game's signalling is a handful of messages. A player's queue holds this much for each peer
/// it may hear from (the other player and every spectator allowed), since all of them may
/// answer its offers at once; the queue's memory is taken only as it fills.
const QUEUE: usize = 64;
/// The most a player's queue holds, however many spectators are allowed.
const MAX_PLAYER_QUEUE: usize = 64 * QUEUE;
/// Tungstenite's read buffer per socket (its default is 128 KiB, allocated per connection).
const READ_BUFFER: usize = 4 * 1024;
/// How long a closing socket waits for the peer's close frame.
const CLOSE_GRACE: Duration = Duration::from_secs(2);

/// Shared by every websocket: the rooms, the settings that apply per socket, and the shutdown
/// signal.
#[derive(Clone)]
pub(crate) struct Relay {
    pub(crate) rooms: Arc<Rooms>,
    config: Arc<Config>,
    /// Becomes `true` on shutdown; each socket task holds a clone until it ends.
    stop: watch::Receiver<bool>,
}

impl Relay {
    pub(crate) fn new(config: Arc<Config>, stop: watch::Receiver<bool>) -> Self {
        let rooms = Rooms::new(Limits {
            max_peers: config.max_connections,
            max_per_ip: config.max_connections_per_ip,
            max_rooms: config.max_rooms,
            max_spectators: config.max_spectators,
        });
        Self {
            rooms,
            config,
            stop,
        }
    }

    /// Runs one admitted peer until it leaves, is cut off, or the relay stops.
    async fn serve_peer(
        self,
        mut socket: WebSocket,
        seat: Seat,
        mut outbox: mpsc::Receiver<Utf8Bytes>,
        overflow: Arc<Notify>,
    ) {
        let id = seat.id();
        let role = seat.role().name();
        info!(peer = %id, role, "peer joined");
        let idle = self.config.idle_timeout;
        let idle_timer = sleep_until(Instant::now() + idle);
        tokio::pin!(idle_timer);
        let ping_every = self.config.ping_interval();
        let mut ping = tokio::time::interval_at(Instant::now() + ping_every, ping_every);
        ping.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let mut bucket = TokenBucket::new(self.config.max_messages_per_second);
        let mut stop = self.stop;

        let (code, reason): End = loop {
            tokio::select! {
                () = stopping(&mut stop) => break (Some(close_code::AWAY), "relay shutting down"),
                () = overflow.notified() => break (Some(close_code::POLICY), "too slow"),
                () = &mut idle_timer => break (Some(close_code::AWAY), "idle timeout"),
                _ = ping.tick() => {
                    if send(&mut socket, Message::Ping(Default::default()), idle).await.is_err() {
                        break (None, "send failed");
                    }
                }
                event = outbox.recv() => {
                    let Some(event) = event else { break (None, "queue closed") };
                    if send(&mut socket, Message::Text(event), idle).await.is_err() {
                        break (None, "send failed");
                    }
                }
                frame = socket.recv() => {
                    let frame = match frame {
                        Some(Ok(frame)) => frame,
                        Some(Err(err)) => break read_error(err),
                        None => break (None, "disconnected"),
                    };
                    idle_timer.as_mut().reset(Instant::now() + idle);
                    if let Err(end) = on_frame(&seat, &mut bucket, frame) {
                        break end;
                    }
                }
            }
        };
        // Leave first, so that the other peer hears `PeerLeft` without waiting for the close.
        drop(seat);
        drop(outbox);
        close(socket, code, reason).await;
        info!(peer = %id, role, reason, "peer left");
    }
}

/// Why a peer's socket ends: the close code to send, if the socket can still take one, and the
/// reason (logged, and sent with the code).
type End = (Option<u16>, &'static str);

/// What a peer's frame does: a signal goes to the other peer, a keep-alive or a pong only shows
/// the peer is alive; anything else, or more than the rate allows, ends the socket.
fn on_frame(seat: &Seat, bucket: &mut TokenBucket, frame: Message) -> Result<(), End> {
    if matches!(frame, Message::Pong(_)) {
        return Ok(());
    }
    if !bucket.take() {
        return Err((Some(close_code::POLICY), "rate limit"));
    }
    match frame {
        Message::Text(text) => match text.parse::<JsonPeerRequest>() {
            Ok(JsonPeerRequest::Signal { receiver, data }) => {
                if !seat.signal(receiver, data) {
                    debug!(peer = %seat.id(), "signal to a peer not in the room: dropped");
                }
                Ok(())
            }
            Ok(JsonPeerRequest::KeepAlive) => Ok(()),
            Err(_) => Err((Some(close_code::INVALID), "malformed request")),
        },
        Message::Binary(_) => Err((Some(close_code::UNSUPPORTED), "binary frames not supported")),
        Message::Close(_) => Err((None, "closed by the peer")),
        Message::Ping(_) | Message::Pong(_) => Ok(()),
    }
}

/// Sends our close frame, if any, then waits briefly for the peer's (or flushes our answer to
/// theirs).
async fn close(mut socket: WebSocket, code: Option<u16>, reason: &'static str) {
    if let Some(code) = code {
        let frame = CloseFrame {
            code,
            reason: reason.into(),
        };
        let _ = send(&mut socket, Message::Close(Some(frame)), CLOSE_GRACE).await;
    }
    let _ = timeout(CLOSE_GRACE, async {
        while let Some(Ok(_)) = socket.recv().await {}
    })
    .await;
}

/// The close code for an error reading a frame, if the socket can still take one.
fn read_error(err: axum::Error) -> (Option<u16>, &'static str) {
    match err
        .into_inner()
        .downcast::<tungstenite::Error>()
        .map(|e| *e)
    {
        Ok(tungstenite::Error::Capacity(_)) => (Some(close_code::SIZE), "message too big"),
        Ok(tungstenite::Error::Protocol(_)) => (Some(close_code::PROTOCOL), "protocol error"),
        Ok(tungstenite::Error::Utf8(_)) => (Some(close_code::INVALID), "invalid UTF-8"),
        _ => (None, "read error"),
    }
}

async fn send(socket: &mut WebSocket, message: Message, limit: Duration) -> Result<(), ()> {
    match timeout(limit, socket.send(message)).await {
        Ok(Ok(())) => Ok(()),
        _ => Err(()),
    }
}

/// Messages allowed per second on average, with bursts of up to twice that.
struct TokenBucket {
    rate: f64,
    burst: f64,
    tokens: f64,
    last: Instant,
}

impl TokenBucket {
    fn new(per_second: u32) -> Self {
        let rate = f64::from(per_second.max(1));
        Self {
            rate,
            burst: 2.0 * rate,
            tokens: 2.0 * rate,
            last: Instant::now(),
        }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        let elapsed = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// The client's IP: the TCP peer, or — when that is a trusted proxy — the right-most address of
/// `X-Forwarded-For` that is not itself a trusted proxy.
pub(crate) fn client_ip(remote: IpAddr, headers: &HeaderMap, trusted: &[IpNet]) -> IpAddr {
    let is_trusted = |ip: IpAddr| crate::config::in_any(trusted, ip);
    let remote = remote.to_canonical();
    if !is_trusted(remote) {
        return remote;
    }
    let mut client = remote;
    let hops = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .collect::<Vec<_>>();
    for hop in hops.iter().rev() {
        match hop.trim().parse::<IpAddr>() {
            Ok(ip) => {
                client = ip.to_canonical();
                if !is_trusted(client) {
                    break;
                }
            }
            // A garbled entry: stop at the last address we could read.
            Err(_) => break,
        }
    }
    client
}

/// The relay's answer to a refused websocket (or to a probe of one): the status and the body
/// both sides know from `relay_api`.
fn refuse(refusal: Refusal) -> Response {
    let status = StatusCode::from_u16(refusal.status()).unwrap_or(StatusCode::BAD_REQUEST);
    json_response(status, &Refused { error: refusal })
}

/// `GET /ws/{room}`: with websocket upgrade headers, admits the peer to `room` or refuses it
/// with a status before upgrading; without them, answers whether the room could be joined now
/// (`200 {"peers":N}` or the refusal), so that a browser, which cannot read the status of a
/// failed websocket handshake, can learn why it failed. With the query `watch`
/// (`/ws/{room}?watch`) the peer is a spectator, admitted and introduced as such.
pub(crate) async fn websocket(
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
    room: Result<Path<String>, PathRejection>,
    uri: Uri,
    ConnectInfo(remote): ConnectInfo<std::net::SocketAddr>,
    headers: HeaderMap,
    State(relay): State<Relay>,
) -> Response {
    let Ok(Path(room)) = room else {
        return refuse(Refusal::BadRoom);
    };
    if !relay_api::valid_room(&room) {
        return refuse(Refusal::BadRoom);
    }
    let header = |name| headers.get(name).and_then(|value| value.to_str().ok());
    if !relay
        .config
        .allowed_origins
        .allows(header(header::ORIGIN), header(header::HOST))
    {
        debug!("websocket refused: origin not allowed");
        return refuse(Refusal::OriginNotAllowed);
    }
    let ip = client_ip(remote.ip(), &headers, &relay.config.trusted_proxies);
    let role = if uri.query().is_some_and(relay_api::is_watch_query) {
        Role::Spectator
    } else {
        Role::Player
    };

    let Ok(upgrade) = upgrade else {
        return match relay.rooms.probe(&room, ip, role) {
            Ok(peers) => {
                let peers = u32::try_from(peers).unwrap_or(u32::MAX);
                json_response(StatusCode::OK, &RoomAnswer { peers })
            }
            Err(refusal) => refuse(refusal),
        };
    };

    let id = PeerId(uuid::Uuid::new_v4());
    let queue = match role {
        Role::Player => QUEUE
            .saturating_mul(relay.config.max_spectators.saturating_add(1))
            .min(MAX_PLAYER_QUEUE),
        Role::Spectator => QUEUE,
    };
    let (mailbox, outbox, overflow) = Mailbox::new(id, queue);
    // First in its queue, before any other peer can reach it.
    mailbox.post(&JsonPeerEvent::IdAssigned(id));
    let seat = match relay.rooms.join(&room, ip, role, mailbox) {
        Ok(seat) => seat,
        Err(refusal) => {
            debug!(?refusal, "websocket refused");
            return refuse(refusal);
        }
    };
    debug!(peer = %id, role = role.name(), %ip, "websocket upgrade");
    let size = relay.config.max_message_size;
    upgrade
        .max_message_size(size)
        .max_frame_size(size)
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(0)
        // If the upgrade fails, the closure is dropped, and the seat with it.
        .on_upgrade(move |socket| relay.serve_peer(socket, seat, outbox, overflow))
}

/// Resolves once the relay is shutting down; never if the relay is gone without saying so.
async fn stopping(stop: &mut watch::Receiver<bool>) {
    if stop.wait_for(|stopping| *stopping).await.is_err() {
        std::future::pending::<()>().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forwarded_for_is_believed_only_from_trusted_proxies() {
        let trusted: Vec<IpNet> = vec![crate::parse_ip_net("10.0.0.0/8").unwrap()];
        let mut headers = HeaderMap::new();
        headers.insert(
            "x-forwarded-for",
            "198.51.100.7, 203.0.113.5, 10.0.0.2".parse().unwrap(),
        );
        let proxy: IpAddr = "10.0.0.1".parse().unwrap();
        let stranger: IpAddr = "192.0.2.1".parse().unwrap();
        assert_eq!(
            client_ip(proxy, &headers, &trusted),
            "203.0.113.5".parse::<IpAddr>().unwrap(),
            "right-most untrusted hop: the left ones are the client's own claims"
        );
        assert_eq!(client_ip(stranger, &headers, &trusted), stranger);
        assert_eq!(client_ip(proxy, &HeaderMap::new(), &trusted), proxy);
        headers.insert("x-forwarded-for", "garbage".parse().unwrap());
        assert_eq!(client_ip(proxy, &headers, &trusted), proxy);
    }

    #[tokio::test(start_paused = true)]
    async fn token_bucket_allows_bursts_then_the_rate() {
        let mut bucket = TokenBucket::new(5);
        assert_eq!(
            (0..20).filter(|_| bucket.take()).count(),
            10,
            "a burst of 2×"
        );
        tokio::time::advance(Duration::from_secs(1)).await;
        assert_eq!((0..20).filter(|_| bucket.take()).count(), 5);
    }
}
