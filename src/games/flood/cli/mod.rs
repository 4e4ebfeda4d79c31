//! Flood-It's command line: `gridbot VERB flood ...` for every verb it
//! supports. Each verb's arguments and code live in a file of their own
//! here, built on the game-independent pieces of [`crate::cli::play`].

pub mod bench;
pub mod bench_play;
pub mod bench_read;
pub mod calibrate;
pub mod demo;
pub mod fixtures;
pub mod play;
pub mod read;
pub mod solve;
pub mod validate;

use crate::games::registry::{verbs, Entry, GameCli, Verb};

/// `gridbot calibrate flood`: Flood-It's own verb.
pub const CALIBRATE: Verb = Verb::new(
    "calibrate",
    "Write a calibration file from a screenshot by auto-detection",
);
/// `gridbot bench play flood`: Flood-It's own verb.
pub const BENCH_PLAY: Verb = Verb::nested(
    "bench",
    "play",
    "Play games on a virtual display and report the bot's own time per move",
);

/// Flood-It in the registry.
pub static GAME: GameCli = GameCli {
    name: "flood",
    title: "Flood-It",
    about: "A grid of k colours; each move gives the region connected to the start cell \
         (top left) a colour, and it absorbs the neighbouring cells of that colour; won when \
         the board is one colour, within the game's move limit. Solver: exact A* with \
         Puchert's layered bound (proven optimal unless a budget ends it), plus branch and \
         bound, greedy, beam and the leaf optimiser. Plays sgt-flood on the desktop \
         (Debian's sgt-puzzles) and flood.html of the sgt web build in Chromium.",
    entries,
};

/// Flood-It's verbs, one line each.
fn entries() -> Vec<Entry> {
    vec![
        Entry::new(
            verbs::SOLVE,
            "Solve a Flood-It board or sgt-flood game ID",
            solve::run,
        ),
        Entry::new(
            verbs::READ,
            "Read a Flood-It board off a screenshot",
            read::run,
        ),
        Entry::new(
            CALIBRATE,
            "Write a Flood-It calibration from a screenshot",
            calibrate::run,
        ),
        Entry::new(
            verbs::PLAY,
            "Play sgt-flood on the current display",
            play::run,
        ),
        Entry::new(
            verbs::DEMO,
            "Play sgt-flood to a win on a virtual display",
            demo::run,
        ),
        Entry::new(
            verbs::VALIDATE,
            "Play games sgt-flood generates and compare with its own solver",
            validate::run,
        ),
        Entry::new(
            verbs::BENCH,
            "Solve every board of a file and summarise time, memory and optimality",
            bench::run,
        ),
        Entry::new(
            verbs::BENCH_READ,
            "Read every Flood-It screenshot of a folder and report time per image",
            bench_read::run,
        ),
        Entry::new(
            BENCH_PLAY,
            "Play sgt-flood games and report the bot's own time per move",
            bench_play::run,
        ),
        Entry::new(
            verbs::FIXTURES,
            "Check or record Flood-It screenshot fixtures",
            fixtures::run,
        ),
    ]
}
