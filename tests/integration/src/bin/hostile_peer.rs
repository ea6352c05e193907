//! A hostile peer for a real room page: the live attacks of `engine/examples/hostile.rs`, sent
//! over WebRTC through the relay to whichever browser holds the victim's seat, so that the page's
//! own cost per byte can be measured (`tests/e2e/hostile.test.mjs`; docs/protocol.md, « Costs »).
//!
//! ```sh
//! hostile-peer ATTACK --relay 127.0.0.1:PORT [--count N] [--room ENTRIES]
//! ```
//!
//! It builds the same room as the native figures (`--room` entries of honest play, 1 000 by
//! default) and prints one JSON line: the room's link fragment, the victim's seat as saved
//! (`Saved` text, for the page's storage), the victim's seat and the bytes it will send. Then it
//! waits for a line on stdin, joins the room, waits for the page's data channel and prints
//! `{"connected":true}`; at the next line it sends every message and prints `{"sent":BYTES}`, so
//! that the attack's cost is measured apart from the connection's (`tiny` stops when the page
//! drops the connection, as it should at the first message). It stays connected (reading
//! and dropping what the page sends) until stdin closes.

#[path = "../../../../engine/examples/common/attacks.rs"]
mod attacks;

use client_net::{Link, LinkEvent};
use engine::session::Seat;
use tokio::io::{AsyncBufReadExt, BufReader};

fn arg(args: &[String], name: &str) -> Option<String> {
    let i = args.iter().position(|a| a == name)?;
    args.get(i + 1).cloned()
}

fn fail(why: &str) -> ! {
    eprintln!("hostile-peer: {why}");
    eprintln!("usage: hostile-peer ATTACK --relay HOST:PORT [--count N] [--room ENTRIES]");
    eprintln!("attacks: {}", attacks::LIVE.join(", "));
    std::process::exit(2)
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args
        .first()
        .cloned()
        .unwrap_or_else(|| fail("no attack named"));
    let relay = arg(&args, "--relay").unwrap_or_else(|| fail("no --relay"));
    let number = |flag: &str, default: usize| {
        arg(&args, flag).map_or(default, |v| {
            v.parse()
                .unwrap_or_else(|_| fail(&format!("{flag} takes a whole number")))
        })
    };
    let (count, entries) = (number("--count", 2_000), number("--room", 1_000));
    let base = attacks::long_room(entries);
    let (victim, messages) =
        attacks::live(&name, &base, count).unwrap_or_else(|| fail("unknown attack"));
    let bytes: usize = messages.iter().map(Vec::len).sum();
    let seat = match victim.seat() {
        Seat::Host => "host",
        Seat::Guest => "guest",
    };
    println!(
        "{}",
        serde_json::json!({
            "fragment": victim.invite().to_fragment(),
            "saved": victim.save().to_text(),
            "seat": seat,
            "entries": victim.entries().len(),
            "messages": messages.len(),
            "bytes": bytes,
        })
    );
    let mut stdin = BufReader::new(tokio::io::stdin()).lines();
    if !matches!(stdin.next_line().await, Ok(Some(_))) {
        return;
    }
    let url = format!("ws://{relay}/ws/{}", victim.invite().room_name());
    let (mut link, message_loop) = Link::connect(&url, &[]);
    tokio::spawn(message_loop);
    let page = loop {
        match link.next().await {
            LinkEvent::Peer(id, true) => break id,
            LinkEvent::Closed => fail("the relay closed the socket before the page came"),
            _ => {}
        }
    };
    println!("{}", serde_json::json!({ "connected": true }));
    if next_line(&mut stdin, &mut link).await.is_none() {
        return;
    }
    // The page drops the connection at the first `tiny` message: what is sent until the
    // channel says so counts, the rest is not sent. Any other attack is read to the end.
    let mut sent = 0;
    for m in messages {
        let n = m.len();
        if !link.send(page, m) {
            if name == "tiny" {
                break;
            }
            fail("the page's data channel closed during the attack");
        }
        sent += n;
    }
    println!("{}", serde_json::json!({ "sent": sent }));
    while next_line(&mut stdin, &mut link).await.is_some() {}
}

/// Waits for the next line on stdin while reading and dropping what the page sends: `None` once
/// stdin or the link closed.
async fn next_line(
    stdin: &mut tokio::io::Lines<BufReader<tokio::io::Stdin>>,
    link: &mut Link,
) -> Option<()> {
    loop {
        tokio::select! {
            line = stdin.next_line() => return matches!(line, Ok(Some(_))).then_some(()),
            event = link.next() => if event == LinkEvent::Closed { return None },
        }
    }
}
