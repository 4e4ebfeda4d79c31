//! `gridbot bench`: benchmarks of the solver, the reader and the play loop.

use std::process::ExitCode;

use clap::Subcommand;

use super::{bench_flood, bench_play, bench_read};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    target: Target,
}

#[derive(Debug, Subcommand)]
enum Target {
    /// Solve every Flood-It board of a file and summarise time, memory and optimality.
    Flood(bench_flood::Args),
    /// Solve every Fifteen board of a file (e.g. Korf's 100) and summarise.
    Fifteen(gridbot::games::fifteen::cli::BenchArgs),
    /// Read every screenshot of a folder and report time per image.
    Read(bench_read::Args),
    /// Play games on a virtual display and report the bot's own time per move.
    Play(bench_play::Args),
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.target {
        Target::Flood(a) => bench_flood::run(a),
        Target::Fifteen(a) => gridbot::games::fifteen::cli::run_bench(a),
        Target::Read(a) => bench_read::run(a),
        Target::Play(a) => bench_play::run(a),
    }
}
