//! Writes the signed transcript of a long Nine Men's Morris game — 500 turns, the largest limit —
//! played through two in-memory sessions (`session::Loopback`), as « Exporter la partie » would
//! export it: the end-to-end suite measures the viewer's verification of it in the browser.
//!
//! ```sh
//! cargo run --release -p engine --example long_transcript > long.transcript
//! target/release/engine verify < long.transcript
//! ```
//!
//! Each step is drawn among those that neither end the game nor close a mill, when there are
//! some (else among those that do not end it, else any), so that the game reaches the limit.

use engine::session::{Command, Loopback, Step};
use engine::table::Playable;
use engine::GameKind;

fn main() {
    let mut net = Loopback::new(GameKind::Morris, 500);
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    while let Some(seat) = net.mover() {
        let game = net.host().game().expect("a game").clone();
        let steps = Step::legal(&game);
        let after = |s: &Step| game.play_step(*s).expect("a legal step");
        let quiet: Vec<Step> = steps
            .iter()
            .copied()
            .filter(|s| {
                let g = after(s);
                !g.is_over() && !g.mid_turn()
            })
            .collect();
        let alive: Vec<Step> = steps
            .iter()
            .copied()
            .filter(|s| !after(s).is_over())
            .collect();
        let pool = [quiet, alive, steps]
            .into_iter()
            .find(|p| !p.is_empty())
            .expect("a game in progress has a step");
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let step = pool[(seed % pool.len() as u64) as usize];
        net.exchange(seat, Command::Play(step));
    }
    let turns = net.host().game().expect("a game").turns();
    eprintln!("{turns} turns");
    print!("{}", net.guest().export());
}
