//! The signalling websocket, assembled from `matchbox_signaling`'s public pieces.
//!
//! `SignalingServer` owns its listener and claims `/` and `/{path}`, and its router cannot be taken
//! out to be nested, so the upgrade handler is ours (a copy of matchbox's, minus the room name in
//! the logs, plus our drain) and the per-socket state machine is matchbox's own [`FullMesh`]
//! topology. The wire protocol is therefore exactly the stock one: `IdAssigned` first, then
//! `NewPeer` / `PeerLeft` / `Signal` events.
//!
//! Limits (room size, message size, origins, idle timeout) go in [`websocket`] before the upgrade
//! and in a topology of our own replacing [`FullMesh`].

use std::net::SocketAddr;

use axum::{
    extract::{
        ws::{close_code, CloseFrame, Message, WebSocket},
        ConnectInfo, Path, State, WebSocketUpgrade,
    },
    response::Response,
};
use futures::StreamExt;
use matchbox_protocol::{JsonPeerEvent, PeerId};
use matchbox_signaling::{
    common_logic::{spawn_sender_task, try_send},
    topologies::full_mesh::{FullMesh, FullMeshCallbacks, FullMeshState},
    SignalingTopology, WsStateMeta,
};
use tokio::sync::watch;
use tracing::{debug, info};

/// Shared by every websocket: the rooms and the shutdown signal.
#[derive(Clone)]
pub(crate) struct Relay {
    mesh: FullMeshState,
    callbacks: FullMeshCallbacks,
    /// Becomes `true` on shutdown; each socket task holds a clone until it ends.
    stop: watch::Receiver<bool>,
}

impl Relay {
    pub(crate) fn new(stop: watch::Receiver<bool>) -> Self {
        Self {
            mesh: FullMeshState::default(),
            callbacks: FullMeshCallbacks::default(),
            stop,
        }
    }

    /// Runs one peer to completion: assign its id, then matchbox's full-mesh state machine,
    /// closing the socket when the relay shuts down.
    async fn serve_peer(self, socket: WebSocket, room: String, peer_id: PeerId) {
        let (sink, receiver) = socket.split();
        let sender = spawn_sender_task(sink);
        let hello = JsonPeerEvent::IdAssigned(peer_id).to_string();
        if try_send(&sender, Message::Text(hello.into())).is_err() {
            return;
        }
        info!(peer = %peer_id, "peer joined");

        let meta = WsStateMeta {
            room,
            peer_id,
            sender: sender.clone(),
            receiver,
            callbacks: self.callbacks,
            state: self.mesh,
        };
        let mut peer =
            <FullMesh as SignalingTopology<FullMeshCallbacks, FullMeshState>>::state_machine(meta);
        let mut stop = self.stop;
        tokio::select! {
            () = &mut peer => {}
            () = stopping(&mut stop) => {
                let close = CloseFrame {
                    code: close_code::AWAY,
                    reason: "relay shutting down".into(),
                };
                let _ = sender.send(Ok(Message::Close(Some(close))));
                // The state machine ends when the peer answers the close (or the drain timeout
                // of `run` gives up on it).
                peer.await;
            }
        }
        info!(peer = %peer_id, "peer left");
    }
}

/// `GET /ws/{room}`: upgrade to a matchbox signalling socket isolated to `room`.
pub(crate) async fn websocket(
    ws: WebSocketUpgrade,
    Path(room): Path<String>,
    ConnectInfo(remote): ConnectInfo<SocketAddr>,
    State(relay): State<Relay>,
) -> Response {
    let peer_id = PeerId(uuid::Uuid::new_v4());
    debug!(peer = %peer_id, %remote, "websocket upgrade");
    ws.on_upgrade(move |socket| relay.serve_peer(socket, room, peer_id))
}

/// Resolves once the relay is shutting down; never if the relay is gone without saying so.
async fn stopping(stop: &mut watch::Receiver<bool>) {
    if stop.wait_for(|stopping| *stopping).await.is_err() {
        std::future::pending::<()>().await;
    }
}
