//! The Fling! benchmarks: the analysis of every board of the game's 35
//! levels (reachable states per level, the paper's difficulty curve, and
//! the check that every board has exactly one solution), and the timing
//! of the add/remove analysis on random boards with and without endgame
//! tables.

use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;

use super::analyse::{analyse, changes, WinOracle, WinSearch};
use super::parse::{parse_boards, LevelBoard, ParseError};
use super::rules::{Board, CELLS};
use crate::measure::{process_cpu, thread_cpu};

/// Why a benchmark directory could not be read.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// The directory or a file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// A level file is not a readable text file of sensible size.
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    /// A level file is not valid.
    #[error("{path}: {source}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong, with line and column.
        source: ParseError,
    },
    /// No `levelN.txt` file in the directory.
    #[error("{path}: no levelN.txt files")]
    NoLevels {
        /// The directory.
        path: PathBuf,
    },
}

/// Reads every `levelN.txt` of `dir`, sorted by N.
pub fn load_levels(dir: &Path) -> Result<Vec<(u32, Vec<LevelBoard>)>, BenchError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| BenchError::Io { path, source }
    };
    let mut levels = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io(dir))? {
        let entry = entry.map_err(io(dir))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(n) = name
            .strip_prefix("level")
            .and_then(|s| s.strip_suffix(".txt"))
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let path = entry.path();
        let text = crate::files::read_text(
            &path.to_string_lossy(),
            crate::files::SMALL_FILE_CAP,
            "a level file",
        )?;
        let boards = parse_boards(&text).map_err(|source| BenchError::Parse {
            path: path.clone(),
            source,
        })?;
        levels.push((n, boards));
    }
    if levels.is_empty() {
        return Err(BenchError::NoLevels {
            path: dir.to_path_buf(),
        });
    }
    levels.sort_by_key(|l| l.0);
    Ok(levels)
}

/// The analysis figures of one board of a level (and what a unit of a
/// bench split into units writes, one JSON line a board).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BoardFigures {
    /// Level number.
    pub level: u32,
    /// Board index in the level file, from 0.
    pub index: usize,
    /// Balls on the board.
    pub balls: u32,
    /// Whether it can be won.
    pub solvable: bool,
    /// Distinct solutions.
    pub solutions: u64,
    /// Reachable states.
    pub reachable: u64,
    /// Cells where adding/removing a ball changes solvability.
    pub changes: usize,
    /// Microseconds the analysis took.
    pub micros: u64,
}

/// Reachable states over the boards of one level.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LevelFigures {
    /// Level number.
    pub level: u32,
    /// Boards in the level.
    pub boards: usize,
    /// Mean balls per board.
    pub mean_balls: f64,
    /// Mean reachable states.
    pub mean_reachable: f64,
    /// Fewest reachable states.
    pub min_reachable: u64,
    /// Most reachable states.
    pub max_reachable: u64,
}

/// The result of the level benchmark.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LevelBench {
    /// Every board.
    pub boards: Vec<BoardFigures>,
    /// Every level.
    pub levels: Vec<LevelFigures>,
    /// Boards that do not have exactly one solution.
    pub not_unique: Vec<BoardFigures>,
    /// Wall time of the whole run in seconds.
    pub wall_seconds: f64,
    /// CPU time of the run (all threads) in seconds.
    pub cpu_seconds: f64,
}

/// Analyses every board of `levels` (in parallel), with endgame tables
/// when given.
pub fn bench_levels(
    levels: &[(u32, Vec<LevelBoard>)],
    oracle: Option<&dyn WinOracle>,
) -> LevelBench {
    let t0 = Instant::now();
    let c0 = process_cpu();
    let boards = analyse_boards(&level_boards(levels), oracle);
    level_report(
        levels,
        boards,
        t0.elapsed().as_secs_f64(),
        process_cpu().saturating_sub(c0).as_secs_f64(),
    )
}

/// Every board of `levels` in order, with its level and its index in
/// the level.
pub fn level_boards(levels: &[(u32, Vec<LevelBoard>)]) -> Vec<(u32, usize, Board)> {
    levels
        .iter()
        .flat_map(|(n, bs)| bs.iter().enumerate().map(move |(i, b)| (*n, i, b.board)))
        .collect()
}

/// The figures of each of `boards` (level, index, board), in order,
/// analysed in parallel on rayon's current pool.
pub fn analyse_boards(
    boards: &[(u32, usize, Board)],
    oracle: Option<&dyn WinOracle>,
) -> Vec<BoardFigures> {
    boards
        .par_iter()
        .map(|&(level, index, board)| {
            let t = Instant::now();
            let a = analyse(board, oracle);
            BoardFigures {
                level,
                index,
                balls: board.balls(),
                solvable: a.solvable,
                solutions: a.solutions,
                reachable: a.reachable,
                changes: a.changes.len(),
                micros: t.elapsed().as_micros() as u64,
            }
        })
        .collect()
}

/// The report of the figures of every board of `levels` (in order), of a
/// run that took `wall_seconds` and `cpu_seconds`.
pub fn level_report(
    levels: &[(u32, Vec<LevelBoard>)],
    boards: Vec<BoardFigures>,
    wall_seconds: f64,
    cpu_seconds: f64,
) -> LevelBench {
    let levels = levels
        .iter()
        .map(|(n, _)| {
            let mine: Vec<&BoardFigures> = boards.iter().filter(|b| b.level == *n).collect();
            let k = mine.len().max(1) as f64;
            LevelFigures {
                level: *n,
                boards: mine.len(),
                mean_balls: mine.iter().map(|b| b.balls as f64).sum::<f64>() / k,
                mean_reachable: mine.iter().map(|b| b.reachable as f64).sum::<f64>() / k,
                min_reachable: mine.iter().map(|b| b.reachable).min().unwrap_or(0),
                max_reachable: mine.iter().map(|b| b.reachable).max().unwrap_or(0),
            }
        })
        .collect();
    let not_unique = boards
        .iter()
        .filter(|b| b.solutions != 1)
        .cloned()
        .collect();
    LevelBench {
        boards,
        levels,
        not_unique,
        wall_seconds,
        cpu_seconds,
    }
}

/// `count` random boards of `balls` balls from `seed` (a fixed
/// xorshift generator, so runs are repeatable).
pub fn random_boards(count: usize, balls: u32, seed: u64) -> Vec<Board> {
    let mut s = seed | 1;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    (0..count)
        .map(|_| {
            let mut bits = 0u64;
            while bits.count_ones() < balls.min(CELLS as u32) {
                bits |= 1 << (next() % CELLS as u64);
            }
            Board(bits)
        })
        .collect()
}

/// Timing of the add/remove analysis over a set of boards.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ChangesTiming {
    /// Boards analysed.
    pub boards: usize,
    /// Boards that can be won.
    pub solvable: usize,
    /// Cells that change solvability, summed over the boards.
    pub changes: usize,
    /// Positions the searches expanded.
    pub nodes: u64,
    /// Wall time in seconds (one thread).
    pub seconds: f64,
    /// CPU time of the thread in seconds (the figure that does not depend
    /// on how busy the machine is).
    pub cpu_seconds: f64,
}

/// Runs the add/remove analysis (solvability of the board and of its 56
/// neighbours) on every board, one thread, each board with a fresh
/// dead-position table; `oracle` stops the searches early.
pub fn time_changes(boards: &[Board], oracle: Option<&dyn WinOracle>) -> ChangesTiming {
    let t0 = Instant::now();
    let c0 = thread_cpu();
    let mut nodes = 0;
    let mut solvable = 0;
    let mut n_changes = 0;
    for &b in boards {
        let mut search = WinSearch::new(oracle);
        let s = search.winnable(b);
        solvable += usize::from(s);
        n_changes += changes(b, s, &mut search).len();
        nodes += search.nodes;
    }
    ChangesTiming {
        boards: boards.len(),
        solvable,
        changes: n_changes,
        nodes,
        seconds: t0.elapsed().as_secs_f64(),
        cpu_seconds: thread_cpu().saturating_sub(c0).as_secs_f64(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_boards_are_repeatable_and_have_the_balls_asked_for() {
        let a = random_boards(5, 14, 7);
        assert_eq!(a, random_boards(5, 14, 7));
        assert!(a.iter().all(|b| b.balls() == 14));
        assert_ne!(a[0], a[1]);
    }

    #[test]
    fn a_missing_directory_is_an_error_naming_it() {
        let e = load_levels(Path::new("/nonexistent/fling")).unwrap_err();
        assert!(e.to_string().starts_with("/nonexistent/fling"));
    }

    #[test]
    fn level_bench_on_a_small_sample() {
        // Two boards of level 1 (benchmarks/fling/level1.txt, from hog2's
        // apps/fling/levels/).
        let text = "Hash: 37154696925872128\n.......\n.......\n..o....\n.......\n.......\n.......\n.......\n.o....o\n----\nHash: 6656\n.......\n..o.oo.\n.......\n.......\n.......\n.......\n.......\n.......\n";
        let boards = parse_boards(text).unwrap();
        let r = bench_levels(&[(1, boards)], None);
        assert_eq!(r.levels.len(), 1);
        assert_eq!(r.levels[0].boards, 2);
        assert!(r.boards.iter().all(|b| b.solutions == 1), "{:?}", r.boards);
        assert!(r.not_unique.is_empty());
        assert!(r.levels[0].min_reachable <= r.levels[0].max_reachable);
    }

    #[test]
    fn tables_do_not_change_the_changes() {
        use super::super::endgame::Endgame;
        use std::sync::atomic::AtomicU64;
        let eg = Endgame::build(5, &AtomicU64::new(0)).unwrap();
        let boards = random_boards(6, 8, 99);
        let a = time_changes(&boards, None);
        let b = time_changes(&boards, Some(&eg));
        assert_eq!((a.solvable, a.changes), (b.solvable, b.changes));
        assert!(b.nodes <= a.nodes);
    }
}
