//! Values typed by a user, checked at the edge: durations, byte sizes,
//! screen sizes and thread counts with documented ranges, and the decision
//! whether a board argument is a file, standard input or the board itself.
//!
//! Every parser returns a message that names the value and its range, never
//! panics, and never hands the rest of the program a value it cannot use
//! (a duration that overflows an `Instant`, a thread count that takes a
//! minute to spawn).

use std::path::{Path, PathBuf};
use std::time::Duration;

/// Longest duration accepted: 30 days. Anything longer is a typing
/// mistake, and `Instant + Duration` must not overflow.
pub const MAX_DURATION: Duration = Duration::from_secs(30 * 24 * 3600);
/// Largest byte size accepted: 1 TiB.
pub const MAX_BYTES: u64 = 1 << 40;
/// Most worker threads accepted.
pub const MAX_THREADS: usize = 256;
/// Largest screen side accepted, in pixels.
pub const MAX_SCREEN_SIDE: u32 = 16384;
/// Largest board file read, in bytes (16 MiB).
pub const MAX_BOARD_FILE: u64 = 16 << 20;

/// A value outside its range or not understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArgError {
    /// Not of the expected form.
    #[error("bad {what} {text:?} ({hint})")]
    Malformed {
        /// What was expected, e.g. "duration".
        what: &'static str,
        /// The text given.
        text: String,
        /// Examples of good values.
        hint: &'static str,
    },
    /// Of the right form but outside the range.
    #[error("{what} {text:?} is out of range ({range})")]
    OutOfRange {
        /// What was expected.
        what: &'static str,
        /// The text given.
        text: String,
        /// The documented range.
        range: String,
    },
    /// A path exists but is not a regular file.
    #[error("{path}: {kind}, not a regular file")]
    NotAFile {
        /// The path given.
        path: String,
        /// What it is instead ("a directory", "a FIFO"...).
        kind: &'static str,
    },
    /// A word that is neither an existing file nor a plausible board.
    #[error("{0}: no such file, and not a board written on the command line (see the command's --help for the board format)")]
    NoSuchFile(String),
    /// The file or standard input could not be read.
    #[error("cannot read {path}: {message}")]
    Read {
        /// The path given (`-` for standard input).
        path: String,
        /// Why.
        message: String,
    },
}

/// Parses a duration: plain seconds (`1.5`) or with a unit (`ms`, `s`, `m`,
/// `h`), from 0 to [`MAX_DURATION`] (30 days).
pub fn parse_duration(text: &str) -> Result<Duration, ArgError> {
    const HINT: &str = "try 1.5, 500ms, 2s, 1m, 1h";
    let t = text.trim();
    let (num, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1e-3)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else if let Some(n) = t.strip_suffix('h') {
        (n, 3600.0)
    } else {
        (t, 1.0)
    };
    let malformed = || ArgError::Malformed {
        what: "duration",
        text: text.into(),
        hint: HINT,
    };
    let v: f64 = num.trim().parse().map_err(|_| malformed())?;
    if v.is_nan() || num.trim().to_ascii_lowercase().contains("inf") {
        return Err(malformed());
    }
    let seconds = v * scale;
    if !(0.0..=MAX_DURATION.as_secs_f64()).contains(&seconds) {
        return Err(ArgError::OutOfRange {
            what: "duration",
            text: text.into(),
            range: "0 to 30 days".into(),
        });
    }
    // In range, so this cannot panic.
    Ok(Duration::from_secs_f64(seconds))
}

/// Largest millisecond option accepted (`--solve-budget-ms`,
/// `--pause-between-moves`): ten minutes, as the calibration timings.
pub const MAX_MILLIS: u64 = 600_000;

/// Parses a whole number of milliseconds, 0 to [`MAX_MILLIS`] (ten minutes).
pub fn parse_millis(text: &str) -> Result<u64, ArgError> {
    let t = text.trim();
    let t = t.strip_suffix("ms").unwrap_or(t);
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ArgError::Malformed {
            what: "millisecond count",
            text: text.into(),
            hint: "a whole number of ms such as 300",
        });
    }
    match t.parse::<u64>() {
        Ok(v) if v <= MAX_MILLIS => Ok(v),
        _ => Err(ArgError::OutOfRange {
            what: "millisecond count",
            text: text.into(),
            range: "0 to 600000 ms, ten minutes".into(),
        }),
    }
}

/// Parses a byte count: plain bytes or with `K`, `M`, `G`, `T` (binary,
/// with or without `iB`/`B`), from 1 byte to [`MAX_BYTES`] (1 TiB).
pub fn parse_bytes(text: &str) -> Result<usize, ArgError> {
    let t = text.trim();
    let t = t
        .strip_suffix("iB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(t);
    let (num, scale) = match t.chars().last() {
        Some('K' | 'k') => (&t[..t.len() - 1], 1u64 << 10),
        Some('M' | 'm') => (&t[..t.len() - 1], 1 << 20),
        Some('G' | 'g') => (&t[..t.len() - 1], 1 << 30),
        Some('T' | 't') => (&t[..t.len() - 1], 1 << 40),
        _ => (t, 1),
    };
    let malformed = || ArgError::Malformed {
        what: "size",
        text: text.into(),
        hint: "try 512M, 2G",
    };
    let v: f64 = num.trim().parse().map_err(|_| malformed())?;
    if v.is_nan() || num.trim().to_ascii_lowercase().contains("inf") {
        return Err(malformed());
    }
    let bytes = v * scale as f64;
    if !(1.0..=MAX_BYTES as f64).contains(&bytes) {
        return Err(ArgError::OutOfRange {
            what: "size",
            text: text.into(),
            range: "1 byte to 1T".into(),
        });
    }
    usize::try_from(bytes as u64).map_err(|_| ArgError::OutOfRange {
        what: "size",
        text: text.into(),
        range: "more than this machine can address".into(),
    })
}

/// Parses a worker thread count, 1 to [`MAX_THREADS`].
pub fn parse_threads(text: &str) -> Result<usize, ArgError> {
    let n: u64 = text.trim().parse().map_err(|_| ArgError::Malformed {
        what: "thread count",
        text: text.into(),
        hint: "a whole number such as 2",
    })?;
    if n == 0 || n > MAX_THREADS as u64 {
        return Err(ArgError::OutOfRange {
            what: "thread count",
            text: text.into(),
            range: "1 to 256".into(),
        });
    }
    Ok(n as usize)
}

/// A whole number from `min` to `max`, or an error naming `what` and
/// `range`.
fn parse_whole(
    text: &str,
    what: &'static str,
    (min, max): (u64, u64),
    range: impl Into<String>,
) -> Result<u64, ArgError> {
    let t = text.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ArgError::Malformed {
            what,
            text: text.into(),
            hint: "a whole number such as 3",
        });
    }
    match t.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(ArgError::OutOfRange {
            what,
            text: text.into(),
            range: range.into(),
        }),
    }
}

/// Most boards a bench takes from its file or generates.
pub const MAX_BOARDS: u64 = 1_000_000;

/// Parses a number of boards (`--boards N`: only the first N), 1 to
/// [`MAX_BOARDS`].
pub fn parse_board_count(text: &str) -> Result<usize, ArgError> {
    parse_whole(text, "board count", (1, MAX_BOARDS), "1 to 1000000").map(|n| n as usize)
}

/// Parses a node limit (positions a search may expand), 1 to 10^15.
pub fn parse_node_limit(text: &str) -> Result<u64, ArgError> {
    parse_whole(text, "node limit", (1, 1_000_000_000_000_000), "1 to 10^15")
}

/// Parses a count of timed repetitions (`--runs`), 1 to 10000.
pub fn parse_runs(text: &str) -> Result<u32, ArgError> {
    parse_whole(text, "run count", (1, 10_000), "1 to 10000").map(|n| n as u32)
}

/// Parses a number of random boards (0: none), 0 to [`MAX_BOARDS`].
pub fn parse_random_boards(text: &str) -> Result<usize, ArgError> {
    parse_whole(text, "board count", (0, MAX_BOARDS), "0 to 1000000").map(|n| n as usize)
}

/// Parses a whole number from `LO` to `HI` (inclusive) as a `T`: the
/// counts, sizes and seeds of every verb, each with its documented range.
pub fn parse_number<T, const LO: u64, const HI: u64>(text: &str) -> Result<T, ArgError>
where
    T: TryFrom<u64>,
{
    let range = || format!("{LO} to {HI}");
    let v = parse_whole(text, "number", (LO, HI), range())?;
    T::try_from(v).map_err(|_| ArgError::OutOfRange {
        what: "number",
        text: text.into(),
        range: range(),
    })
}

/// Parses a random seed: any whole number from 0 to 2^64 - 1.
pub fn parse_seed(text: &str) -> Result<u64, ArgError> {
    parse_number::<u64, 0, { u64::MAX }>(text)
}

/// Parses two whole numbers `AxB` (`x` or `X`), each from `LO` to `HI`:
/// a board's width and height.
pub fn parse_pair<const LO: u64, const HI: u64>(text: &str) -> Result<(usize, usize), ArgError> {
    let malformed = || ArgError::Malformed {
        what: "size",
        text: text.into(),
        hint: "WxH, e.g. 6x6",
    };
    let (a, b) = text.trim().split_once(['x', 'X']).ok_or_else(malformed)?;
    let side = |s: &str| {
        parse_number::<usize, LO, HI>(s).map_err(|e| match e {
            ArgError::OutOfRange { .. } => ArgError::OutOfRange {
                what: "size",
                text: text.into(),
                range: format!("each side {LO} to {HI}"),
            },
            _ => malformed(),
        })
    };
    Ok((side(a)?, side(b)?))
}

/// Parses a range of whole numbers `A..B` (also `A..=B`) or one number
/// `N` (the range `N..N`), with `LO <= A <= B <= HI`.
pub fn parse_span<const LO: u64, const HI: u64>(text: &str) -> Result<(u32, u32), ArgError> {
    let (a, b) = match text.split_once("..") {
        Some((a, b)) => (a, b.trim_start_matches('=')),
        None => (text, text),
    };
    let bad = |e: ArgError| match e {
        ArgError::Malformed { .. } => ArgError::Malformed {
            what: "range",
            text: text.into(),
            hint: "A..B or N, e.g. 4..8",
        },
        _ => ArgError::OutOfRange {
            what: "range",
            text: text.into(),
            range: format!("A..B with {LO} <= A <= B <= {HI}"),
        },
    };
    let a = parse_number::<u32, LO, HI>(a).map_err(bad)?;
    let b = parse_number::<u32, LO, HI>(b).map_err(bad)?;
    if a > b {
        return Err(bad(ArgError::OutOfRange {
            what: "range",
            text: text.into(),
            range: String::new(),
        }));
    }
    Ok((a, b))
}

/// How `read GAME` prints the board it read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ReadFormat {
    /// One line of cells per row, then where the board is and how sure
    /// the reading is.
    Rows,
    /// The sgt game ID, `WxH:...` (the lattice report on stderr).
    Sgt,
    /// The board, its ID and where every cell is, as JSON.
    Json,
}

/// The limits of one search, `--time-limit` and `--memory-limit`: one
/// meaning for every game whose solver takes them.
#[derive(Debug, Clone, clap::Args)]
pub struct SearchLimits {
    /// Stop a search after this long (e.g. `1.5`, `500ms`, `2s`, `1m`);
    /// what it found by then is reported, unproven.
    #[arg(long, value_parser = parse_duration)]
    pub time_limit: Option<Duration>,
    /// Stop a search when its tables hold this much memory (e.g. `512M`, `2G`).
    #[arg(long, value_parser = parse_bytes, default_value = "2G")]
    pub memory_limit: usize,
}

impl SearchLimits {
    /// The limits as a solver budget.
    pub fn budget(&self) -> crate::solver::Budget {
        crate::solver::Budget::new(self.time_limit, self.memory_limit)
    }
}

/// Parses a screen size `WxH`, each side 1 to [`MAX_SCREEN_SIDE`] pixels.
pub fn parse_screen_size(text: &str) -> Result<(u32, u32), ArgError> {
    let malformed = || ArgError::Malformed {
        what: "screen size",
        text: text.into(),
        hint: "WxH, e.g. 1280x800",
    };
    let (w, h) = text.trim().split_once('x').ok_or_else(malformed)?;
    let side = |s: &str| -> Result<u32, ArgError> {
        let v: u64 = s.trim().parse().map_err(|_| malformed())?;
        if v == 0 || v > MAX_SCREEN_SIDE as u64 {
            return Err(ArgError::OutOfRange {
                what: "screen size",
                text: text.into(),
                range: "each side 1 to 16384 pixels".into(),
            });
        }
        Ok(v as u32)
    };
    Ok((side(w)?, side(h)?))
}

/// Checks a screen size `WxH` (see [`parse_screen_size`]) for clap,
/// keeping the text.
pub fn valid_screen_size(text: &str) -> Result<String, ArgError> {
    parse_screen_size(text).map(|_| text.to_string())
}

/// Where a board argument comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardInput {
    /// `-`: standard input.
    Stdin,
    /// An existing regular file.
    File(PathBuf),
    /// The argument is the board text itself.
    Literal(String),
}

/// True if `text` could be a board written on the command line: an
/// sgt-style game ID (`WxH:...`), several rows, or one word of digits,
/// letters and `.` (an empty cell) with at least one digit or `.`. A
/// single word of letters only (`test`), a word with a `/`, or one that
/// ends in a file extension (`boards.txt`) is taken for a misspelt file
/// name.
pub fn plausible_board(text: &str) -> bool {
    let t = text.trim();
    if t.is_empty() {
        return false;
    }
    if t.contains(':') {
        return true;
    }
    let rows: Vec<&str> = t
        .split(['\n', ' ', ',', ';', '|'])
        .filter(|r| !r.is_empty())
        .collect();
    let cells_only = rows
        .iter()
        .all(|r| r.chars().all(|c| c.is_ascii_alphanumeric() || c == '.'));
    if !cells_only || looks_like_a_file_name(t) {
        return false;
    }
    rows.len() > 1 || t.chars().any(|c| c.is_ascii_digit() || c == '.')
}

/// A word ending in `.` and one to four letters, as `boards.txt`, `a.toml`.
fn looks_like_a_file_name(t: &str) -> bool {
    t.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && !stem.ends_with('.')
            && (1..=4).contains(&ext.len())
            && ext.chars().all(|c| c.is_ascii_alphabetic())
    })
}

/// Decides what a board argument is: `-` is standard input; an existing
/// regular file (symlinks followed) is a file; an existing path of any other
/// kind (directory, FIFO, device, symlink loop, dangling symlink) is an
/// error saying so; anything else is the board text itself if it is a
/// [`plausible_board`], otherwise "no such file".
pub fn board_input(arg: &str) -> Result<BoardInput, ArgError> {
    if arg == "-" {
        return Ok(BoardInput::Stdin);
    }
    let path = Path::new(arg);
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => return Ok(BoardInput::File(path.to_owned())),
        Ok(meta) => {
            return Err(ArgError::NotAFile {
                path: arg.into(),
                kind: crate::files::kind_of(&meta),
            })
        }
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            // A symlink to nothing is a path the user meant.
            if std::fs::symlink_metadata(path).is_ok() {
                return Err(ArgError::Read {
                    path: arg.into(),
                    message: "a symbolic link to a file that does not exist".into(),
                });
            }
        }
        Err(err) => {
            // A symlink loop (ELOOP), a permission problem, a path through a
            // file (ENOTDIR): the path is there, just not readable as a file.
            if std::fs::symlink_metadata(path).is_ok() || err.raw_os_error() == Some(libc::ELOOP) {
                return Err(ArgError::Read {
                    path: arg.into(),
                    message: err.to_string(),
                });
            }
        }
    }
    if plausible_board(arg) {
        Ok(BoardInput::Literal(arg.into()))
    } else {
        Err(ArgError::NoSuchFile(crate::files::shorten(arg)))
    }
}

/// The text of a board argument (see [`board_input`]): standard input, a
/// regular file of at most [`MAX_BOARD_FILE`] bytes, or the argument.
pub fn read_board_text(arg: &str) -> Result<String, ArgError> {
    let read = |path: &str| {
        crate::files::read_text(path, MAX_BOARD_FILE, "a board").map_err(|e| ArgError::Read {
            path: crate::files::shorten(arg),
            message: e.reason(),
        })
    };
    match board_input(arg)? {
        BoardInput::Stdin => read("-"),
        BoardInput::File(p) => read(&p.to_string_lossy()),
        BoardInput::Literal(s) => Ok(s),
    }
}

/// The text of a board argument, as [`read_board_text`] with an `anyhow`
/// error for the command line.
pub fn read_input(arg: &str) -> anyhow::Result<String> {
    Ok(read_board_text(arg)?)
}

/// Where a board argument came from, for messages.
pub fn source_name(arg: &str) -> String {
    match arg {
        "-" => "standard input".into(),
        a if std::path::Path::new(a).is_file() => a.into(),
        _ => "the command line".into(),
    }
}

/// The PNG files a path argument names: the file itself, or every `.png`
/// under the folder (recursively), sorted.
pub fn png_files(path: &Path) -> anyhow::Result<Vec<PathBuf>> {
    files_with_extension(path, "png")
}

/// The files a path argument names: the file itself, or every file ending
/// in `.ext` under the folder (recursively), sorted.
pub fn files_with_extension(path: &Path, ext: &str) -> anyhow::Result<Vec<PathBuf>> {
    use anyhow::Context;
    if path.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut out = Vec::new();
    let mut stack = vec![path.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in
            std::fs::read_dir(&d).with_context(|| format!("cannot list {}", d.display()))?
        {
            let p = entry?.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == ext) {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_in_range() {
        assert_eq!(parse_duration("1.5"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_duration("1m"), Ok(Duration::from_secs(60)));
        assert_eq!(parse_duration("2h"), Ok(Duration::from_secs(7200)));
        assert_eq!(parse_duration("0"), Ok(Duration::ZERO));
        assert_eq!(
            parse_duration("30d").unwrap_err().to_string(),
            "bad duration \"30d\" (try 1.5, 500ms, 2s, 1m, 1h)"
        );
    }

    #[test]
    fn huge_or_odd_durations_are_errors_not_panics() {
        for text in [
            "1e300",
            "1e20m",
            "99999999999999999999s",
            "1e19s",
            "2592001",
            "-1",
            "-0.5s",
        ] {
            let err = parse_duration(text).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("duration {text:?} is out of range (0 to 30 days)")
            );
        }
        for text in ["nan", "inf", "infinity", "", "s", "1.2.3", "1e", "ms"] {
            assert!(
                matches!(parse_duration(text), Err(ArgError::Malformed { .. })),
                "{text}"
            );
        }
        assert_eq!(parse_duration("720h"), Ok(MAX_DURATION));
    }

    #[test]
    fn byte_sizes() {
        assert_eq!(parse_bytes("512M"), Ok(512 << 20));
        assert_eq!(parse_bytes("2GiB"), Ok(2 << 30));
        assert_eq!(parse_bytes("1k"), Ok(1024));
        assert_eq!(parse_bytes("100"), Ok(100));
        assert_eq!(parse_bytes("1T"), Ok(1 << 40));
        for text in ["0", "2T", "1e300", "-5M", "0.1"] {
            assert!(
                matches!(parse_bytes(text), Err(ArgError::OutOfRange { .. })),
                "{text}"
            );
        }
        for text in ["nan", "infG", "G", "lots"] {
            assert!(
                matches!(parse_bytes(text), Err(ArgError::Malformed { .. })),
                "{text}"
            );
        }
    }

    #[test]
    fn milliseconds() {
        assert_eq!(parse_millis("300"), Ok(300));
        assert_eq!(parse_millis("0"), Ok(0));
        assert_eq!(parse_millis("600000ms"), Ok(600_000));
        assert_eq!(
            parse_millis("18446744073709551615").unwrap_err().to_string(),
            "millisecond count \"18446744073709551615\" is out of range (0 to 600000 ms, ten minutes)"
        );
        assert!(matches!(
            parse_millis("99999999999999999999999"),
            Err(ArgError::OutOfRange { .. })
        ));
        for text in ["-1", "1.5", "", "x", "1e3"] {
            assert!(
                matches!(parse_millis(text), Err(ArgError::Malformed { .. })),
                "{text}"
            );
        }
    }

    #[test]
    fn thread_counts() {
        assert_eq!(parse_board_count("5"), Ok(5));
        assert!(parse_board_count("0").is_err());
        assert!(parse_board_count("-3").is_err());
        assert!(parse_board_count("1000001")
            .unwrap_err()
            .to_string()
            .contains("1 to 1000000"));
        assert_eq!(parse_node_limit("1000"), Ok(1000));
        assert!(parse_node_limit("0").is_err());
        assert!(parse_node_limit("99999999999999999999999").is_err());
        assert_eq!(parse_runs("30"), Ok(30));
        assert!(parse_runs("10001").is_err());
        assert_eq!(parse_seed("0"), Ok(0));
        assert!(parse_seed("x").is_err());
        assert_eq!(parse_random_boards("0"), Ok(0));
        assert_eq!(parse_threads("2"), Ok(2));
        assert_eq!(parse_threads("256"), Ok(256));
        assert_eq!(
            parse_threads("10000").unwrap_err().to_string(),
            "thread count \"10000\" is out of range (1 to 256)"
        );
        assert!(parse_threads("0").is_err());
        assert!(parse_threads("99999999999999999999999").is_err());
        assert!(parse_threads("-1").is_err());
    }

    #[test]
    fn numbers_in_their_range() {
        assert_eq!(parse_number::<usize, 1, 10>("3"), Ok(3));
        assert_eq!(parse_number::<u8, 4, 8>("8"), Ok(8));
        assert_eq!(
            parse_number::<usize, 1, 10>("11").unwrap_err().to_string(),
            "number \"11\" is out of range (1 to 10)"
        );
        assert!(matches!(
            parse_number::<u32, 0, 5>("99999999999999999999999"),
            Err(ArgError::OutOfRange { .. })
        ));
        for text in ["-1", "1.5", "", "x", "1e3"] {
            assert!(
                matches!(
                    parse_number::<u64, 0, 5>(text),
                    Err(ArgError::Malformed { .. })
                ),
                "{text}"
            );
        }
        assert_eq!(parse_seed("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(parse_pair::<1, 10>("6x6"), Ok((6, 6)));
        assert_eq!(parse_pair::<1, 10>("3X4"), Ok((3, 4)));
        assert!(parse_pair::<1, 10>("6x11")
            .unwrap_err()
            .to_string()
            .contains("\"6x11\""));
        assert!(matches!(
            parse_pair::<1, 10>("6"),
            Err(ArgError::Malformed { .. })
        ));
        assert_eq!(parse_span::<1, 30>("4..8"), Ok((4, 8)));
        assert_eq!(parse_span::<1, 30>("4..=8"), Ok((4, 8)));
        assert_eq!(parse_span::<1, 30>("5"), Ok((5, 5)));
        assert!(parse_span::<1, 30>("8..4").is_err());
        assert!(parse_span::<1, 30>("0..4").is_err());
        assert!(matches!(
            parse_span::<1, 30>("x..3"),
            Err(ArgError::Malformed { .. })
        ));
    }

    #[test]
    fn screen_sizes() {
        assert_eq!(parse_screen_size("1280x800"), Ok((1280, 800)));
        assert!(matches!(
            parse_screen_size("0x800"),
            Err(ArgError::OutOfRange { .. })
        ));
        assert!(matches!(
            parse_screen_size("99999x800"),
            Err(ArgError::OutOfRange { .. })
        ));
        assert!(matches!(
            parse_screen_size("1280"),
            Err(ArgError::Malformed { .. })
        ));
    }

    #[test]
    fn plausible_boards() {
        assert!(plausible_board("0101"));
        assert!(plausible_board("2x2:0101,3"));
        assert!(plausible_board("01\n10\n"));
        assert!(plausible_board("ab\nba"));
        assert!(!plausible_board("test"));
        assert!(!plausible_board("adir"));
        assert!(!plausible_board("boards.txt"));
        assert!(!plausible_board("a.toml"));
        assert!(plausible_board("AA....|xx"));
        assert!(plausible_board("...."));
        assert!(!plausible_board("dir/x1"));
        assert!(!plausible_board(""));
    }

    #[test]
    fn board_arguments() {
        let dir = std::env::temp_dir().join(format!("gridbot-args-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("b.txt");
        std::fs::write(&file, "0101").unwrap();
        let s = |p: &Path| p.to_str().unwrap().to_string();
        assert_eq!(board_input("-"), Ok(BoardInput::Stdin));
        assert_eq!(board_input(&s(&file)), Ok(BoardInput::File(file.clone())));
        assert_eq!(read_board_text(&s(&file)).unwrap(), "0101");
        assert_eq!(
            board_input(&s(&dir)).unwrap_err().to_string(),
            format!("{}: a directory, not a regular file", dir.display())
        );
        assert_eq!(
            board_input("/dev/zero").unwrap_err().to_string(),
            "/dev/zero: a character device, not a regular file"
        );
        let fifo = dir.join("fifo");
        let c = std::ffi::CString::new(s(&fifo)).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert_eq!(
            board_input(&s(&fifo)).unwrap_err().to_string(),
            format!("{}: a FIFO, not a regular file", fifo.display())
        );
        let looped = dir.join("loop");
        std::os::unix::fs::symlink(&looped, &looped).unwrap();
        let err = board_input(&s(&looped)).unwrap_err();
        assert!(matches!(err, ArgError::Read { .. }), "{err}");
        let dangling = dir.join("dangling");
        std::os::unix::fs::symlink(dir.join("nothing"), &dangling).unwrap();
        assert!(matches!(
            board_input(&s(&dangling)),
            Err(ArgError::Read { .. })
        ));
        assert_eq!(
            board_input("test").unwrap_err().to_string(),
            "test: no such file, and not a board written on the command line (see the command's --help for the board format)"
        );
        assert_eq!(board_input("0101"), Ok(BoardInput::Literal("0101".into())));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// Property tests: every option parser takes any text without panicking,
/// and whatever it accepts lies in its documented range.
#[cfg(test)]
mod fuzz {
    use super::*;
    use proptest::prelude::*;

    /// Text that looks like an option value, or like nothing at all.
    fn value() -> impl Strategy<Value = String> {
        prop_oneof![
            "\\PC{0,24}",
            "-?[0-9]{0,25}(\\.[0-9]{0,4})?(e[0-9]{1,3})?(ms|s|m|h|K|M|G|T|iB|B)?",
            "[0-9]{0,12}(\\.\\.=?)?[0-9]{0,12}",
            "[0-9]{0,6}[xX][0-9]{0,6}",
        ]
    }

    proptest! {
        #![proptest_config(crate::fuzz::config(512))]

        #[test]
        fn durations_stay_in_range(t in value()) {
            if let Ok(d) = parse_duration(&t) {
                prop_assert!(d <= MAX_DURATION);
            }
            if let Ok(ms) = parse_millis(&t) {
                prop_assert!(ms <= MAX_MILLIS);
            }
        }

        #[test]
        fn sizes_and_counts_stay_in_range(t in value()) {
            if let Ok(b) = parse_bytes(&t) {
                prop_assert!((1..=MAX_BYTES).contains(&(b as u64)));
            }
            if let Ok(n) = parse_threads(&t) {
                prop_assert!((1..=MAX_THREADS).contains(&n));
            }
            if let Ok(n) = parse_board_count(&t) {
                prop_assert!((1..=MAX_BOARDS as usize).contains(&n));
            }
            if let Ok(n) = parse_runs(&t) {
                prop_assert!((1..=10_000).contains(&n));
            }
            if let Ok(n) = parse_node_limit(&t) {
                prop_assert!(n >= 1);
            }
            if let Ok(n) = parse_number::<u8, 2, 9>(&t) {
                prop_assert!((2..=9).contains(&n));
            }
        }

        #[test]
        fn pairs_spans_and_screens_stay_in_range(t in value()) {
            if let Ok((w, h)) = parse_pair::<1, 30>(&t) {
                prop_assert!((1..=30).contains(&w) && (1..=30).contains(&h));
            }
            if let Ok((a, b)) = parse_span::<0, 250>(&t) {
                prop_assert!(a <= b && b <= 250);
            }
            if let Ok((w, h)) = parse_screen_size(&t) {
                prop_assert!(w > 0 && h > 0);
                prop_assert!(valid_screen_size(&t).is_ok());
            }
        }

        #[test]
        fn board_arguments_never_panic(t in "\\PC{0,40}") {
            let _ = plausible_board(&t);
            if let Err(e) = board_input(&t) {
                // Messages shorten what they echo.
                prop_assert!(e.to_string().len() < 400, "{e}");
            }
        }

        #[test]
        fn shortened_text_is_short_and_a_prefix(t in "\\PC{0,300}") {
            let s = crate::files::shorten(&t);
            prop_assert!(s.chars().count() <= crate::files::ECHO_CHARS + 30);
            let kept = s.split("... (").next().unwrap();
            prop_assert!(t.starts_with(kept));
        }
    }
}
