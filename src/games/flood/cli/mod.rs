//! Flood-It's command line: `gridbot VERB flood ...` for every verb it
//! supports. Each of Flood-It's own verbs has its arguments and code in a
//! file here; `play`, `demo`, `validate` and `bench play` are the generic
//! sgt commands with [`super::hosted::SgtFlood`].

pub mod bench;
pub mod bench_read;
pub mod calibrate;
pub mod cstby;
pub mod fixtures;
pub mod read;
pub mod solve;

use super::hosted::{run_bench_play_cmd, run_demo_cmd, run_play_cmd, run_validate_cmd};
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
         (Debian's sgt-puzzles), flood.html of the sgt web build in Chromium, and Carl \
         Steib's Flood-It page (`--host cstby`: eight levels in a row, read without \
         calibration, clicked cell by cell).",
    hosts: &[
        "sgt-flood of Debian's sgt-puzzles, desktop",
        "flood.html of the sgt web build, Chromium",
        "cstby: Carl Steib's Flood-It page (flood-cstby/), Chromium",
    ],
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
            run_play_cmd,
        ),
        Entry::new(
            verbs::DEMO,
            "Play sgt-flood to a win on a virtual display",
            run_demo_cmd,
        ),
        Entry::new(
            verbs::VALIDATE,
            "Play games sgt-flood generates and compare with its own solver",
            run_validate_cmd,
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
            run_bench_play_cmd,
        ),
        Entry::new(
            verbs::FIXTURES,
            "Check or record Flood-It screenshot fixtures",
            fixtures::run,
        ),
    ]
}
