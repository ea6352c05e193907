//! The compact offer or answer of pairing without a relay, for the browser test that checks it
//! against real browsers (`tests/e2e/pairing-texts.test.mjs`): reads a browser's session
//! description on standard input, and writes a JSON line with the pairing text and the
//! description rebuilt from that text alone.
//!
//! ```sh
//! cargo run -p client-net --example pairing -- offer < offer.sdp
//! ```

use client_net::pairing::{Kind, Signal};
use std::io::Read;
use std::process::ExitCode;

fn main() -> ExitCode {
    let kind = match std::env::args().nth(1).as_deref() {
        Some("offer") => Kind::Offer,
        Some("answer") => Kind::Answer,
        _ => {
            eprintln!("usage: pairing offer|answer < description.sdp");
            return ExitCode::from(2);
        }
    };
    let mut sdp = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut sdp) {
        eprintln!("error: cannot read the description: {e}");
        return ExitCode::FAILURE;
    }
    let text = match Signal::from_sdp(kind, &sdp) {
        Ok(signal) => signal.encode(),
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    // What the other side does: only the text crossed.
    match Signal::decode(&text) {
        Ok(signal) => {
            let sdp = signal
                .to_sdp()
                .replace('\\', "\\\\")
                .replace('\r', "\\r")
                .replace('\n', "\\n");
            println!("{{\"text\":\"{text}\",\"sdp\":\"{sdp}\"}}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: the text does not read back: {e}");
            ExitCode::FAILURE
        }
    }
}
