//! Fling! endgame tables by retrograde analysis (after Sturtevant's
//! paper): for every placement of k balls on the 56 cells (k = 2..=N), one
//! bit saying whether it can be won and one saying whether it is won in
//! exactly one way.
//!
//! - A placement of k balls can be won when some move leads to a winnable
//!   placement of k - 1 balls (one ball is won; two balls are won when
//!   some move exists).
//! - It is won in exactly one way when its moves lead to exactly one
//!   distinct winnable placement and that one is won in exactly one way
//!   (two moves that lead to the same placement are one way; every
//!   winnable placement of two balls counts as one way, as in
//!   [`super::analyse`]).
//!
//! Placements are indexed by the search core's combination ranking
//! ([`Combinations`], colexicographic: the rank of cells `c1 < c2 < .. <
//! ck` is the sum of `C(ci, i)`), which is also the order in which
//! Gosper's next-bit-permutation walks the 64-bit boards, so a range of
//! ranks is visited without unranking each one (a test checks that the
//! two orders agree). Level k reads only level k - 1 and is filled in
//! parallel (rayon) over blocks of 64 placements per word; each level is
//! written to disk as soon as it is finished.
//!
//! On disk each table is a little-endian file: the magic
//! `GRIDBOT-FLING-EG1\0`, the table kind (0 winnable, 1 unique), k, the
//! number of placements, a 64-bit checksum of the words, then the words.
//! A file that is missing, of the wrong size or with a wrong checksum is
//! refused with an error saying which and why; it is never trusted.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::analyse::WinOracle;
use super::rules::{Board, CELLS};
use crate::solver::rank::Combinations;

/// The most balls a table is built for (beyond 12 the bit tables need
/// more than 65 GiB).
pub const MAX_TABLE_BALLS: u32 = 12;

const MAGIC: &[u8; 18] = b"GRIDBOT-FLING-EG1\0";

/// The ranking of placements of `k` balls on the 56 cells (the search
/// core's colexicographic combination ranking).
pub fn ranking(k: u32) -> Combinations {
    Combinations::new(CELLS as u32, k)
}

/// The number of placements of `k` balls on the 56 cells.
pub fn placements(k: u32) -> u64 {
    ranking(k).count()
}

/// The next board with as many balls in colexicographic order (Gosper).
#[inline(always)]
fn next_combination(b: u64) -> u64 {
    let t = b | (b - 1);
    (t + 1) | (((!t & (!t).wrapping_neg()) - 1) >> (b.trailing_zeros() + 1))
}

/// One bit per placement of `k` balls, in words of 64 placements so that
/// rayon workers fill whole words of their own (the core's
/// `retrograde::BitTable` only offers per-entry atomic updates).
#[derive(Debug, Clone)]
pub struct BitLevel {
    /// Balls per placement.
    pub k: u32,
    /// Bit `r % 64` of word `r / 64` is placement `r`'s bit.
    pub words: Vec<u64>,
    comb: Combinations,
}

impl PartialEq for BitLevel {
    fn eq(&self, other: &Self) -> bool {
        self.k == other.k && self.words == other.words
    }
}

impl BitLevel {
    fn new(k: u32, words: Vec<u64>) -> Self {
        BitLevel {
            k,
            words,
            comb: ranking(k),
        }
    }

    /// The bit of `board` (which must have `k` balls).
    #[inline(always)]
    pub fn get(&self, board: Board) -> bool {
        let r = self.comb.rank_mask(board.0);
        self.words[(r >> 6) as usize] >> (r & 63) & 1 == 1
    }

    /// Placements whose bit is set.
    pub fn count_ones(&self) -> u64 {
        self.words
            .par_iter()
            .map(|w| u64::from(w.count_ones()))
            .sum()
    }

    fn checksum(&self) -> u64 {
        self.words
            .par_chunks(1 << 16)
            .enumerate()
            .map(|(i, ch)| {
                let mut h =
                    0x9e37_79b9_7f4a_7c15u64 ^ (i as u64).wrapping_mul(0xff51_afd7_ed55_8ccd);
                for &w in ch {
                    h = (h ^ w).wrapping_mul(0x0000_0100_0000_01b3).rotate_left(29);
                }
                h
            })
            // Chunk hashes are seeded with their index, so a sum (which
            // does not depend on how rayon splits the work) still notices
            // swapped chunks.
            .reduce(|| 0, u64::wrapping_add)
    }
}

/// Which of the two tables a file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// "Can be won".
    Winnable,
    /// "Won in exactly one way".
    Unique,
}

impl Kind {
    fn code(self) -> u64 {
        match self {
            Kind::Winnable => 0,
            Kind::Unique => 1,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Winnable => "win",
            Kind::Unique => "unique",
        }
    }
}

/// The file name of a table in its directory.
pub fn table_path(dir: &Path, kind: Kind, k: u32) -> PathBuf {
    dir.join(format!("fling-{}-{k}.bin", kind.name()))
}

/// Why a table could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// No file where the table should be.
    #[error("{path}: endgame table missing (build it with `gridbot endgame fling --balls {k} --out DIR`)")]
    Missing {
        /// The expected file.
        path: PathBuf,
        /// Its number of balls.
        k: u32,
    },
    /// A file that is not an intact table of the expected kind and size.
    #[error("{path}: damaged endgame table ({why}); delete it and build it again")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// A request for more balls than tables are built for.
    #[error("endgame tables go up to {max} balls, {k} asked for")]
    TooManyBalls {
        /// Balls asked for.
        k: u32,
        /// The limit.
        max: u32,
    },
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> TableError + '_ {
    move |source| TableError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes `level` as a table of `kind` to `path`.
pub fn save(level: &BitLevel, kind: Kind, path: &Path) -> Result<(), TableError> {
    let tmp = path.with_extension("tmp");
    let f = File::create(&tmp).map_err(io_err(&tmp))?;
    let mut w = BufWriter::with_capacity(1 << 20, f);
    let mut head = Vec::with_capacity(50);
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&kind.code().to_le_bytes());
    head.extend_from_slice(&u64::from(level.k).to_le_bytes());
    head.extend_from_slice(&placements(level.k).to_le_bytes());
    head.extend_from_slice(&level.checksum().to_le_bytes());
    w.write_all(&head).map_err(io_err(&tmp))?;
    for ch in level.words.chunks(1 << 16) {
        let bytes: Vec<u8> = ch.iter().flat_map(|x| x.to_le_bytes()).collect();
        w.write_all(&bytes).map_err(io_err(&tmp))?;
    }
    w.flush().map_err(io_err(&tmp))?;
    drop(w);
    std::fs::rename(&tmp, path).map_err(io_err(path))
}

/// Reads the table of `kind` for `k` balls from `path`, checking its
/// header, size and checksum.
pub fn load(kind: Kind, k: u32, path: &Path) -> Result<BitLevel, TableError> {
    let damaged = |why: String| TableError::Damaged {
        path: path.to_path_buf(),
        why,
    };
    let f = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(TableError::Missing {
                path: path.to_path_buf(),
                k,
            })
        }
        Err(e) => return Err(io_err(path)(e)),
    };
    let len = f.metadata().map_err(io_err(path))?.len();
    let words = placements(k).div_ceil(64);
    let expected = MAGIC.len() as u64 + 32 + words * 8;
    if len != expected {
        return Err(damaged(format!(
            "{len} bytes, a {k}-ball table has {expected}"
        )));
    }
    let mut r = BufReader::with_capacity(1 << 20, f);
    let mut head = [0u8; 18 + 32];
    r.read_exact(&mut head).map_err(io_err(path))?;
    if &head[..18] != MAGIC {
        return Err(damaged("not a gridbot Fling! endgame table".into()));
    }
    let field = |i: usize| u64::from_le_bytes(head[18 + 8 * i..26 + 8 * i].try_into().unwrap());
    if field(0) != kind.code() || field(1) != u64::from(k) || field(2) != placements(k) {
        return Err(damaged(format!(
            "header says kind {} with {} balls and {} placements, expected kind {} with {k} balls",
            field(0),
            field(1),
            field(2),
            kind.code()
        )));
    }
    let mut level = BitLevel::new(k, vec![0u64; words as usize]);
    let mut buf = vec![0u8; 8 << 16];
    for ch in level.words.chunks_mut(1 << 16) {
        let bytes = &mut buf[..ch.len() * 8];
        r.read_exact(bytes).map_err(io_err(path))?;
        for (w, b) in ch.iter_mut().zip(bytes.chunks_exact(8)) {
            *w = u64::from_le_bytes(b.try_into().unwrap());
        }
    }
    if level.checksum() != field(3) {
        return Err(damaged("checksum does not match the contents".into()));
    }
    Ok(level)
}

/// Winnable and unique bits for one level, from the level below.
fn build_level(
    k: u32,
    below: Option<(&BitLevel, &BitLevel)>,
    progress: &AtomicU64,
) -> (BitLevel, BitLevel) {
    let comb = ranking(k);
    let n = comb.count();
    let nwords = n.div_ceil(64) as usize;
    let mut win = vec![0u64; nwords];
    let mut uniq = vec![0u64; nwords];
    const BLOCK: usize = 1 << 12; // words per parallel task
    win.par_chunks_mut(BLOCK)
        .zip(uniq.par_chunks_mut(BLOCK))
        .enumerate()
        .for_each(|(bi, (wch, uch))| {
            let first = (bi * BLOCK * 64) as u64;
            let mut b = comb.unrank_mask(first);
            let mut r = first;
            for (ww, uw) in wch.iter_mut().zip(uch.iter_mut()) {
                let mut wbits = 0u64;
                let mut ubits = 0u64;
                for bit in 0..64 {
                    if r >= n {
                        break;
                    }
                    let (w, u) = classify(Board(b), below);
                    wbits |= u64::from(w) << bit;
                    ubits |= u64::from(u) << bit;
                    r += 1;
                    if r < n {
                        b = next_combination(b);
                    }
                }
                *ww = wbits;
                *uw = ubits;
            }
            progress.fetch_add((wch.len() * 64) as u64, Ordering::Relaxed);
        });
    (BitLevel::new(k, win), BitLevel::new(k, uniq))
}

/// (winnable, unique) of one placement, given the level below (`None` for
/// two balls).
#[inline(always)]
fn classify(board: Board, below: Option<(&BitLevel, &BitLevel)>) -> (bool, bool) {
    match below {
        None => {
            let w = board.can_move();
            (w, w)
        }
        Some((win, uniq)) => {
            // The first winnable successor, and whether a different one
            // exists.
            let mut first: Option<Board> = None;
            let mut several = false;
            board.any_move(|_, s| {
                if win.get(s) {
                    match first {
                        None => first = Some(s),
                        Some(f) if f != s => {
                            several = true;
                            return true;
                        }
                        Some(_) => {}
                    }
                }
                false
            });
            match first {
                None => (false, false),
                Some(_) if several => (true, false),
                Some(s) => (true, uniq.get(s)),
            }
        }
    }
}

/// Per-level figures of a build.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct LevelStats {
    /// Balls.
    pub k: u32,
    /// Placements of k balls.
    pub placements: u64,
    /// Placements that can be won.
    pub winnable: u64,
    /// Placements won in exactly one way.
    pub unique: u64,
    /// Seconds spent on this level (build, count and save).
    pub seconds: f64,
}

/// Loaded tables: winnable and unique bits for 2..=max balls.
#[derive(Debug, Clone)]
pub struct Endgame {
    win: Vec<BitLevel>,
    unique: Vec<BitLevel>,
}

impl Endgame {
    /// Builds the tables for 2..=`max` balls, writing each level to `out`
    /// (when given) as soon as it is done and calling `on_level` with its
    /// figures; `progress` counts placements done. Only the level below
    /// the current one is kept in memory unless `keep` is true.
    pub fn build(
        max: u32,
        out: Option<&Path>,
        keep: bool,
        progress: &AtomicU64,
        mut on_level: impl FnMut(&LevelStats),
    ) -> Result<Endgame, TableError> {
        if max > MAX_TABLE_BALLS {
            return Err(TableError::TooManyBalls {
                k: max,
                max: MAX_TABLE_BALLS,
            });
        }
        let mut win: Vec<BitLevel> = Vec::new();
        let mut unique: Vec<BitLevel> = Vec::new();
        for k in 2..=max {
            let t0 = std::time::Instant::now();
            let below = match (win.last(), unique.last()) {
                (Some(w), Some(u)) => Some((w, u)),
                _ => None,
            };
            let (w, u) = build_level(k, below, progress);
            if let Some(dir) = out {
                save(&w, Kind::Winnable, &table_path(dir, Kind::Winnable, k))?;
                save(&u, Kind::Unique, &table_path(dir, Kind::Unique, k))?;
            }
            let stats = LevelStats {
                k,
                placements: placements(k),
                winnable: w.count_ones(),
                unique: u.count_ones(),
                seconds: t0.elapsed().as_secs_f64(),
            };
            on_level(&stats);
            if !keep {
                win.clear();
                unique.clear();
            }
            win.push(w);
            unique.push(u);
        }
        if !keep {
            // Only the top level is left; an oracle needs all of them.
            win.clear();
            unique.clear();
        }
        Ok(Endgame { win, unique })
    }

    /// Loads the winnable tables for 2..=`max` balls from `dir` (and the
    /// unique ones when `with_unique`).
    pub fn load(dir: &Path, max: u32, with_unique: bool) -> Result<Endgame, TableError> {
        if max > MAX_TABLE_BALLS {
            return Err(TableError::TooManyBalls {
                k: max,
                max: MAX_TABLE_BALLS,
            });
        }
        let mut win = Vec::new();
        let mut unique = Vec::new();
        for k in 2..=max {
            win.push(load(
                Kind::Winnable,
                k,
                &table_path(dir, Kind::Winnable, k),
            )?);
            if with_unique {
                unique.push(load(Kind::Unique, k, &table_path(dir, Kind::Unique, k))?);
            }
        }
        Ok(Endgame { win, unique })
    }

    /// Whether `board` is won in exactly one way (`None` beyond the tables
    /// or when they were loaded without the unique bits).
    pub fn unique(&self, board: Board) -> Option<bool> {
        let n = board.balls();
        if n == 1 {
            return Some(true);
        }
        if n < 2 {
            return Some(false);
        }
        self.unique.get(n as usize - 2).map(|t| t.get(board))
    }
}

impl WinOracle for Endgame {
    fn max_balls(&self) -> u32 {
        self.win.len() as u32 + 1
    }

    fn winnable(&self, board: Board) -> bool {
        match board.balls() {
            0 => false,
            1 => true,
            n => self.win[n as usize - 2].get(board),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fling::analyse::{count_solutions, WinSearch};

    #[test]
    fn gosper_walks_the_cores_ranking_in_order() {
        for k in [1u32, 2, 3, 5, 9] {
            let comb = ranking(k);
            let n = comb.count();
            let mut b = comb.unrank_mask(0);
            assert_eq!(b, (1u64 << k) - 1);
            for r in 0..n.min(5000) {
                assert_eq!(comb.rank_mask(b), r);
                b = next_combination(b);
            }
            let start = n - 3000;
            let mut b = comb.unrank_mask(start);
            for r in start..n {
                assert_eq!(comb.rank_mask(b), r);
                if r + 1 < n {
                    b = next_combination(b);
                }
            }
            assert_eq!(b, ((1u64 << k) - 1) << (CELLS as u32 - k));
        }
        assert_eq!(placements(9), 7_575_968_400);
        assert_eq!(placements(14), 5_804_731_963_800);
    }

    #[test]
    fn the_checksum_does_not_depend_on_how_the_work_is_split() {
        // 40 chunks of 2^16 words: rayon splits them differently from run
        // to run and pool to pool; the checksum must not change.
        let words: Vec<u64> = (0..40u64 << 16)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        let level = BitLevel::new(9, words);
        let a = level.checksum();
        for threads in [1, 2, 3, 7] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            assert_eq!(pool.install(|| level.checksum()), a);
        }
        let mut other = level.clone();
        other.words.swap(0, 1 << 16);
        assert_ne!(other.checksum(), a);
    }

    #[test]
    fn tables_agree_with_search_and_survive_disk() {
        let progress = AtomicU64::new(0);
        let mut stats = Vec::new();
        let dir = std::env::temp_dir().join(format!("gridbot-fling-eg-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let eg = Endgame::build(4, Some(&dir), true, &progress, |s| stats.push(*s)).unwrap();
        assert_eq!(stats.len(), 3);
        assert_eq!(stats[0].placements, 1540);
        assert!(progress.load(Ordering::Relaxed) >= 1540 + 27720 + 367290);
        // Every 4-ball placement (sampled) agrees with the forward search.
        let mut search = WinSearch::new(None);
        for r in (0..placements(4)).step_by(97) {
            let b = Board(ranking(4).unrank_mask(r));
            let (_, sols, _) = count_solutions(b);
            assert_eq!(eg.winnable(b), search.winnable(b), "{b}");
            assert_eq!(eg.winnable(b), sols > 0);
            assert_eq!(eg.unique(b), Some(sols == 1), "{b}");
        }
        let loaded = Endgame::load(&dir, 4, true).unwrap();
        assert_eq!(loaded.win, eg.win);
        assert_eq!(loaded.unique, eg.unique);
        // Damage one byte: refused with the file named.
        let p = table_path(&dir, Kind::Winnable, 3);
        let mut bytes = std::fs::read(&p).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x10;
        std::fs::write(&p, &bytes).unwrap();
        let e = Endgame::load(&dir, 4, false).unwrap_err();
        assert!(matches!(e, TableError::Damaged { .. }), "{e}");
        assert!(e.to_string().contains("fling-win-3.bin"));
        std::fs::write(&p, &bytes[..100]).unwrap();
        assert!(matches!(
            Endgame::load(&dir, 4, false),
            Err(TableError::Damaged { .. })
        ));
        std::fs::remove_file(&p).unwrap();
        assert!(matches!(
            Endgame::load(&dir, 4, false),
            Err(TableError::Missing { k: 3, .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
