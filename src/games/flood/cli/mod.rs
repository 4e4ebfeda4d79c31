//! Flood-It's command line: `gridbot VERB flood ...` for every verb it
//! supports. Each of Flood-It's own verbs has its arguments and code in a
//! file here; `play`, `demo`, `validate` and `bench play` are the generic
//! sgt commands with [`super::hosted::SgtFlood`].

pub mod bench;
pub mod bench_read;
pub mod calibrate;
pub mod fixtures;
pub mod read;
pub mod solve;

use std::process::ExitCode;

use clap::{ArgMatches, Command};

use super::hosted::{
    run_bench_play_cmd, run_demo_cmd, run_play_cmd, run_validate_cmd, BenchPlayCmd, DemoCmd,
    PlayCmd, ValidateCmd,
};
use crate::games::registry::{command_for, parse, GameCli, Verb};

/// Flood-It in the registry.
pub struct Flood;

impl GameCli for Flood {
    fn name(&self) -> &'static str {
        "flood"
    }

    fn title(&self) -> &'static str {
        "Flood-It"
    }

    fn about(&self) -> &'static str {
        "A grid of k colours; each move gives the region connected to the start cell \
         (top left) a colour, and it absorbs the neighbouring cells of that colour; won when \
         the board is one colour, within the game's move limit. Solver: exact A* with \
         Puchert's layered bound (proven optimal unless a budget ends it), plus branch and \
         bound, greedy, beam and the leaf optimiser. Plays sgt-flood on the desktop \
         (Debian's sgt-puzzles) and flood.html of the sgt web build in Chromium."
    }

    fn command(&self, verb: Verb) -> Option<Command> {
        let name = self.name();
        Some(match verb {
            Verb::Solve => {
                command_for::<solve::Args>(name, "Solve a Flood-It board or sgt-flood game ID")
            }
            Verb::Read => command_for::<read::Args>(name, "Read a Flood-It board off a screenshot"),
            Verb::Calibrate => command_for::<calibrate::Args>(
                name,
                "Write a Flood-It calibration from a screenshot",
            ),
            Verb::Play => command_for::<PlayCmd>(name, "Play sgt-flood on the current display"),
            Verb::Demo => {
                command_for::<DemoCmd>(name, "Play sgt-flood to a win on a virtual display")
            }
            Verb::Validate => command_for::<ValidateCmd>(
                name,
                "Play games sgt-flood generates and compare with its own solver",
            ),
            Verb::Bench => command_for::<bench::Args>(
                name,
                "Solve every board of a file and summarise time, memory and optimality",
            ),
            Verb::BenchRead => command_for::<bench_read::Args>(
                name,
                "Read every Flood-It screenshot of a folder and report time per image",
            ),
            Verb::BenchPlay => command_for::<BenchPlayCmd>(
                name,
                "Play sgt-flood games and report the bot's own time per move",
            ),
            Verb::Fixtures => {
                command_for::<fixtures::Args>(name, "Check or record Flood-It screenshot fixtures")
            }
            _ => return None,
        })
    }

    fn run(&self, verb: Verb, m: &ArgMatches) -> anyhow::Result<ExitCode> {
        match verb {
            Verb::Solve => solve::run(parse(m)?),
            Verb::Read => read::run(parse(m)?),
            Verb::Calibrate => calibrate::run(parse(m)?),
            Verb::Play => run_play_cmd(parse(m)?),
            Verb::Demo => run_demo_cmd(parse(m)?),
            Verb::Validate => run_validate_cmd(parse(m)?),
            Verb::Bench => bench::run(parse(m)?),
            Verb::BenchRead => bench_read::run(parse(m)?),
            Verb::BenchPlay => run_bench_play_cmd(parse(m)?),
            Verb::Fixtures => fixtures::run(parse(m)?),
            v => anyhow::bail!("flood does not support `{}`", v.label()),
        }
    }
}
