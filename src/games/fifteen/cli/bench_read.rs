//! `gridbot bench read fifteen DIR`: reads every screenshot under DIR
//! repeatedly on one thread and reports the time per image (the reader
//! only, not the PNG decoding): minimum, median and maximum; then the
//! worst median of the target case, 4x4 boards on 1280x800 screenshots.
//! The loop is [`crate::cli::bench::bench_read`].

use std::process::ExitCode;

use crate::cli::bench::{bench_read, ReadTable};
use crate::games::fifteen::read::read_board;

/// `gridbot bench read fifteen`.
pub type Args = crate::cli::bench::ReadArgs;

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let table = ReadTable {
        name: 36,
        min_max: 8,
    };
    let rows = bench_read(&args.dir, args.runs, table, |image| {
        read_board(image).map(|r| (r.board.width(), r.board.height()))
    })?;
    let target = rows
        .iter()
        .filter(|r| r.board == "4x4" && r.size == (1280, 800))
        .map(|r| r.median_ms);
    let (count, worst) = target.fold((0, None::<f64>), |(n, w), m| {
        (n + 1, Some(w.map_or(m, |w| w.max(m))))
    });
    if let Some(worst) = worst {
        println!(
            "4x4 boards on 1280x800 screenshots: {count} images, median read time at most {worst:.3} ms (target 10 ms)"
        );
    }
    Ok(ExitCode::SUCCESS)
}
