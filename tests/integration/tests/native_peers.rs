//! Two native `matchbox_socket` peers (webrtc-rs) through the relay on loopback: they meet,
//! connect over WebRTC and exchange data; the relay refuses a third, cuts off bad clients without
//! disturbing them, and tells a peer when the other leaves.

use futures::{SinkExt, StreamExt};
use integration_tests::{matchbox_socket::PeerState, Peer, Relay, LIMIT};
use tokio::time::timeout;
use tokio_tungstenite::{connect_async, tungstenite::Message};

/// Connects two peers in `room` and checks data flows both ways.
async fn connected_pair(relay: &Relay, room: &str) -> (Peer, Peer) {
    let mut host = Peer::connect(&relay.room_url(room));
    let host_id = host.id().await;
    let mut guest = Peer::connect(&relay.room_url(room));
    let guest_id = guest.id().await;
    assert_eq!(host.wait_for_connected().await, guest_id);
    assert_eq!(guest.wait_for_connected().await, host_id);
    host.send(guest_id, b"ping from host");
    assert_eq!(
        guest.receive_one().await,
        (host_id, b"ping from host".to_vec())
    );
    guest.send(host_id, b"pong from guest");
    assert_eq!(
        host.receive_one().await,
        (guest_id, b"pong from guest".to_vec())
    );
    (host, guest)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_native_peers_exchange_data_through_the_relay() {
    let relay = Relay::start().await;
    let (mut host, mut guest) = connected_pair(&relay, "game-1").await;
    let host_id = host.id().await;
    for i in 0..20u8 {
        guest.send(host_id, &[i; 100]);
    }
    for i in 0..20u8 {
        assert_eq!(
            host.receive_one().await.1,
            vec![i; 100],
            "in order, reliable"
        );
    }
    assert_eq!(relay.counts().rooms, 1);
    assert_eq!(relay.counts().peers, 2);
    relay.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_third_native_peer_is_refused_and_the_pair_is_undisturbed() {
    let relay = Relay::start().await;
    let (mut host, mut guest) = connected_pair(&relay, "game-2").await;

    let third = Peer::connect(&relay.room_url("game-2"));
    let err = third.ended().await.expect_err("the third peer got in");
    let why = format!("{err:?}");
    assert!(why.contains("409"), "refusal should carry 409: {why}");
    assert_eq!(relay.counts().peers, 2);

    let host_id = host.id().await;
    guest.send(host_id, b"still here");
    assert_eq!(host.receive_one().await.1, b"still here".to_vec());
    relay.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_peer_learns_when_the_other_leaves_and_the_room_is_forgotten() {
    let relay = Relay::start().await;
    let (mut host, mut guest) = connected_pair(&relay, "game-3").await;
    let guest_id = guest.id().await;
    guest.socket.close();
    drop(guest);
    assert_eq!(host.wait_for_peer(PeerState::Disconnected).await, guest_id);
    relay
        .wait_for_counts(|c| c.peers == 1 && c.rooms == 1)
        .await;
    host.socket.close();
    drop(host);
    relay
        .wait_for_counts(|c| c.peers == 0 && c.rooms == 0 && c.client_ips == 0)
        .await;
    relay.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_clients_are_cut_off_while_a_native_pair_keeps_working() {
    let relay = Relay::start_with(|config| {
        config.max_message_size = 4096;
        config.max_messages_per_second = 10;
    })
    .await;
    let (mut host, mut guest) = connected_pair(&relay, "game-4").await;
    let host_id = host.id().await;

    let bad_inputs = [
        Message::text("x".repeat(5000)),
        Message::text("{ not json"),
        Message::binary(vec![1, 2, 3]),
    ];
    for (i, input) in bad_inputs.into_iter().enumerate() {
        let (mut ws, _) = connect_async(relay.room_url(&format!("bad-{i}")))
            .await
            .unwrap();
        ws.send(input).await.unwrap();
        assert!(closed(&mut ws).await, "bad client {i} stayed connected");
    }
    let (mut flooder, _) = connect_async(relay.room_url("bad-flood")).await.unwrap();
    for _ in 0..200 {
        if flooder.send(Message::text(r#""KeepAlive""#)).await.is_err() {
            break;
        }
    }
    assert!(closed(&mut flooder).await, "the flooder stayed connected");

    guest.send(host_id, b"undisturbed");
    assert_eq!(host.receive_one().await.1, b"undisturbed".to_vec());
    relay
        .wait_for_counts(|c| c.peers == 2 && c.rooms == 1)
        .await;
    relay.stop().await;
}

/// Reads until the relay closes the socket; `false` if it stays open for [`LIMIT`].
async fn closed<S>(ws: &mut S) -> bool
where
    S: StreamExt<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    timeout(LIMIT, async {
        while let Some(Ok(message)) = ws.next().await {
            if message.is_close() {
                return;
            }
        }
    })
    .await
    .is_ok()
}
