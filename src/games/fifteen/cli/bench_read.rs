//! `gridbot bench read fifteen DIR`: reads every screenshot under DIR
//! repeatedly on one thread and reports the time per image (the reader
//! only, not the PNG decoding): minimum, median and maximum.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::bail;

use crate::capture::load_image;
use crate::games::fifteen::read::read_board;

/// `gridbot bench read fifteen`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Folder (searched recursively) or a single PNG.
    dir: PathBuf,
    /// Timed reads per image (1 to 10000).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=10000))]
    runs: u32,
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let files = crate::cli::args::png_files(&args.dir)?;
    if files.is_empty() {
        bail!("no PNG files under {}", args.dir.display());
    }
    println!(
        "{:<36} {:>10} {:>7} {:>8} {:>9} {:>8}",
        "image", "size", "board", "min ms", "median ms", "max ms"
    );
    let mut medians = Vec::new();
    let mut target = Vec::new(); // 4x4 boards on 1280x800 screenshots
    for file in &files {
        let name = file
            .strip_prefix(&args.dir)
            .unwrap_or(file)
            .display()
            .to_string();
        let Ok(image) = load_image(file) else {
            println!("{name:<36} (not an image, skipped)");
            continue;
        };
        let board = match read_board(&image) {
            Ok(r) => format!("{}x{}", r.board.width(), r.board.height()),
            Err(_) => "error".into(),
        };
        let mut times: Vec<Duration> = (0..args.runs)
            .map(|_| {
                let t = Instant::now();
                let r = read_board(&image);
                let e = t.elapsed();
                std::hint::black_box(r.is_ok());
                e
            })
            .collect();
        times.sort();
        let median = times[times.len() / 2];
        medians.push(ms(median));
        if board == "4x4" && (image.width(), image.height()) == (1280, 800) {
            target.push(ms(median));
        }
        println!(
            "{:<36} {:>10} {:>7} {:>8.3} {:>9.3} {:>8.3}",
            name,
            format!("{}x{}", image.width(), image.height()),
            board,
            ms(times[0]),
            ms(median),
            ms(times[times.len() - 1])
        );
    }
    medians.sort_by(f64::total_cmp);
    if let (Some(lo), Some(hi)) = (medians.first(), medians.last()) {
        println!(
            "{} images; median read time from {lo:.3} ms to {hi:.3} ms",
            medians.len()
        );
    }
    target.sort_by(f64::total_cmp);
    if let Some(&worst) = target.last() {
        println!(
            "4x4 boards on 1280x800 screenshots: {} images, median read time at most {worst:.3} ms (target 10 ms)",
            target.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}
