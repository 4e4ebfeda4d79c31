//! What the `gridbot bench GAME` commands share: the options every bench
//! takes under one name and with one meaning (`--boards`, `--threads`,
//! `--json`), the worker pool and progress bar they set up, the file of
//! known optimal lengths, and the loop behind `bench read GAME`, which
//! times a game's screenshot reader over a folder of images.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::bail;
use image::RgbaImage;

use super::args::{parse_board_count, parse_threads, png_files};
use crate::capture::load_image;
use crate::measure::{ms, spread};

/// The options of every `bench GAME` command.
#[derive(Debug, Clone, clap::Args)]
pub struct BenchOptions {
    /// Only the first N boards of the set (1 to 1000000).
    #[arg(long, value_name = "N", value_parser = parse_board_count)]
    pub boards: Option<usize>,
    /// Boards solved at once, each on its own thread, 1 to 256 (default:
    /// one per core; one for the benches that time each board by the
    /// wall clock: rush and pegs).
    #[arg(long, value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}

impl BenchOptions {
    /// The first `--boards` items of `items` (all without the option); an
    /// error naming `source` when it holds no board at all, since a bench
    /// of nothing measures nothing.
    pub fn first<T>(&self, mut items: Vec<T>, source: &str) -> anyhow::Result<Vec<T>> {
        no_boards(items.len(), source)?;
        if let Some(n) = self.boards {
            items.truncate(n);
        }
        Ok(items)
    }

    /// Whether `--boards` says to stop taking boards once `taken` are had.
    pub fn enough(&self, taken: usize) -> bool {
        self.boards.is_some_and(|n| taken >= n)
    }

    /// `--threads`, or one per core.
    pub fn threads_or_cores(&self) -> usize {
        self.threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }

    /// A rayon pool of `threads` workers.
    pub fn pool(threads: usize) -> anyhow::Result<rayon::ThreadPool> {
        Ok(rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?)
    }

    /// A progress bar of `len` boards on standard error, drawn with
    /// `template` (indicatif's) when standard error is a terminal and the
    /// output is not JSON; hidden otherwise.
    pub fn progress(&self, len: usize, template: &str) -> indicatif::ProgressBar {
        if !std::io::stderr().is_terminal() || self.json {
            return indicatif::ProgressBar::hidden();
        }
        let bar = indicatif::ProgressBar::new(len as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        bar
    }
}

/// The text of a benchmark file (a regular file of at most
/// [`crate::files::BENCH_FILE_CAP`] bytes, or `-`).
pub fn read_bench_file(path: &Path) -> Result<String, crate::files::FileError> {
    crate::files::read_text(
        &path.to_string_lossy(),
        crate::files::BENCH_FILE_CAP,
        "a benchmark file",
    )
}

/// An error when a bench's `source` gave `count` = 0 boards.
pub fn no_boards(count: usize, source: &str) -> anyhow::Result<()> {
    if count == 0 {
        bail!("{source}: no boards to bench (the file is empty or holds only comments)");
    }
    Ok(())
}

/// Reads a file of known optimal lengths, one a line (blank lines
/// skipped), as `T`; `what` names a value in errors ("not a number").
pub fn read_lengths<T: std::str::FromStr>(
    path: &Path,
    bad: impl Fn(&Path, usize, &str) -> String,
) -> anyhow::Result<Vec<T>> {
    let t = crate::files::read_text(
        &path.to_string_lossy(),
        crate::files::BENCH_FILE_CAP,
        "a list of answers",
    )?;
    t.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            l.trim()
                .parse::<T>()
                .map_err(|_| anyhow::anyhow!(bad(path, i + 1, l.trim())))
        })
        .collect()
}

/// How `bench read GAME` lays out its table: the widths of the image
/// column and of the min and max columns.
#[derive(Debug, Clone, Copy)]
pub struct ReadTable {
    /// Width of the image name column.
    pub name: usize,
    /// Width of the min and max columns.
    pub min_max: usize,
}

/// One image timed by [`bench_read`].
#[derive(Debug, Clone)]
pub struct ReadRow {
    /// The image's size in pixels.
    pub size: (u32, u32),
    /// The board read (`WxH`), or `error`.
    pub board: String,
    /// Median time of one read, ms.
    pub median_ms: f64,
}

/// Reads every PNG under `dir` (or the PNG `dir`) `runs` times on this
/// thread with `read` (which returns the board's columns and rows, or an
/// error) and prints a table of the minimum, median and maximum time per
/// image (the reader only, not the PNG decoding), then the range of the
/// medians. Returns the rows of the images read.
pub fn bench_read<E>(
    dir: &Path,
    runs: u32,
    table: ReadTable,
    read: impl Fn(&RgbaImage) -> Result<(usize, usize), E>,
) -> anyhow::Result<Vec<ReadRow>> {
    let files = png_files(dir)?;
    if files.is_empty() {
        bail!("no PNG files under {}", dir.display());
    }
    let (w, mm) = (table.name, table.min_max);
    println!(
        "{:<w$} {:>10} {:>7} {:>mm$} {:>9} {:>mm$}",
        "image", "size", "board", "min ms", "median ms", "max ms"
    );
    let mut rows = Vec::new();
    for file in &files {
        let name = file.strip_prefix(dir).unwrap_or(file).display().to_string();
        let Ok(image) = load_image(file) else {
            println!("{name:<w$} (not an image, skipped)");
            continue;
        };
        let board = match read(&image) {
            Ok((c, r)) => format!("{c}x{r}"),
            Err(_) => "error".into(),
        };
        let mut times: Vec<f64> = (0..runs.max(1))
            .map(|_| {
                let t = Instant::now();
                let r = read(&image);
                let e = t.elapsed();
                std::hint::black_box(r.is_ok());
                ms(e)
            })
            .collect();
        let s = spread(&mut times).expect("at least one run");
        println!(
            "{:<w$} {:>10} {:>7} {:>mm$.3} {:>9.3} {:>mm$.3}",
            name,
            format!("{}x{}", image.width(), image.height()),
            board,
            s.min,
            s.median,
            s.max
        );
        rows.push(ReadRow {
            size: image.dimensions(),
            board,
            median_ms: s.median,
        });
    }
    let mut medians: Vec<f64> = rows.iter().map(|r| r.median_ms).collect();
    if let Some(s) = spread(&mut medians) {
        println!(
            "{} images; median read time from {:.3} ms to {:.3} ms",
            medians.len(),
            s.min,
            s.max
        );
    }
    Ok(rows)
}

/// `bench read GAME`'s arguments for games read without a calibration.
#[derive(Debug, clap::Args)]
pub struct ReadArgs {
    /// Folder (searched recursively) or a single PNG.
    pub dir: PathBuf,
    /// Timed reads per image (1 to 10000).
    #[arg(long, default_value_t = 30, value_parser = super::args::parse_runs)]
    pub runs: u32,
}

/// The exit code of a bench: success when nothing differs.
pub fn exit_code(ok: bool) -> ExitCode {
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
