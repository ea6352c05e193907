//! Writes the signed transcript of a long Nine Men's Morris game — 500 turns, the largest limit —
//! played through two in-memory sessions (`session::Loopback`), as « Exporter la partie » would
//! export it: the end-to-end suite measures the viewer's verification of it in the browser.
//! With `--full`, the room plays such games one after the other until both seats' chains are
//! full (`chains::MAX_ENTRIES` entries each): the largest transcript an honest room writes.
//!
//! ```sh
//! cargo run --release -p engine --example long_transcript > long.transcript
//! cargo run --release -p engine --example long_transcript -- --full > full.transcript
//! target/release/engine verify < long.transcript
//! ```
//!
//! Each step is drawn among those that neither end the game nor close a mill, when there are
//! some (else among those that do not end it, else any), so that the game reaches the limit.
//! The clock reads like the browser's (`Date.now()`, milliseconds since 1970), so that each
//! entry's time takes as many bytes as in a real export.

use engine::session::{chains::MAX_ENTRIES, Command, Loopback, Proposal, Seat, Step};
use engine::table::Playable;
use engine::GameKind;

/// A seat does what its player asked, and it is delivered; `held` counts the seat's entry.
fn act(net: &mut Loopback, held: &mut [u32; 2], seat: Seat, command: Command) {
    net.exchange(seat, command);
    held[seat.index()] += 1;
}

fn main() {
    let full = std::env::args().any(|a| a == "--full");
    let mut net = Loopback::new(GameKind::Morris, 500);
    net.set_now(1_750_000_000_000);
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    // Entries written by each seat (its hello first), counted here: reading the chains after
    // every step would cost as much as the whole game.
    let mut held = [1u32, 1];
    loop {
        while let Some(seat) = net.mover() {
            if full && held[seat.index()] + 1 > MAX_ENTRIES {
                break;
            }
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
            net.set_now(net.now() + 1_000);
            act(&mut net, &mut held, seat, Command::Play(step));
        }
        if !full {
            break;
        }
        // The game is over (or a chain is nearly full): each seat fills its chain with
        // proposals it withdraws, then, if there is room left, the host offers a new game.
        if held.iter().any(|&n| n + 2 > MAX_ENTRIES) {
            for seat in [Seat::Host, Seat::Guest] {
                while held[seat.index()] + 2 <= MAX_ENTRIES {
                    act(&mut net, &mut held, seat, Command::Propose(Proposal::Draw));
                    act(&mut net, &mut held, seat, Command::Withdraw);
                }
            }
            break;
        }
        let new_game = Command::Propose(Proposal::NewGame { max_turns: None });
        act(&mut net, &mut held, Seat::Host, new_game);
        act(
            &mut net,
            &mut held,
            Seat::Guest,
            Command::Reply { accept: true },
        );
    }
    let turns = net.host().game().expect("a game").turns();
    let games = net.host().room().games().len();
    let entries = net.guest().entries();
    for seat in [Seat::Host, Seat::Guest] {
        let n = entries.iter().filter(|e| e.seat() == seat).count() as u32;
        assert_eq!(n, held[seat.index()], "{seat:?}'s entries");
    }
    eprintln!(
        "{games} games, the last {turns} turns; {} entries ({} host, {} guest)",
        entries.len(),
        held[0],
        held[1]
    );
    print!("{}", net.guest().export());
}
