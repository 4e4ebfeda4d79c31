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

use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::analyse::WinOracle;
use super::lines;
use super::rules::{Board, CELLS, HEIGHT, WIDTH};
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
/// `retrograde::PackedTable` only offers per-entry atomic updates).
#[derive(Debug, Clone)]
pub struct BitLevel {
    /// Balls per placement.
    pub k: u32,
    /// Bit `r % 64` of word `r / 64` is placement `r`'s bit.
    pub words: Vec<u64>,
}

impl PartialEq for BitLevel {
    fn eq(&self, other: &Self) -> bool {
        self.k == other.k && self.words == other.words
    }
}

impl BitLevel {
    fn new(k: u32, words: Vec<u64>) -> Self {
        BitLevel { k, words }
    }

    /// The bit of `board` (which must have `k` balls).
    #[inline(always)]
    pub fn get(&self, board: Board) -> bool {
        debug_assert_eq!(board.balls(), self.k);
        let r = lines::rank(board.0);
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
        checksum_of(self.words.len(), |i| self.words[i])
    }
}

/// The checksum of `n` words given by `word` (chunk hashes seeded with
/// their index, summed: it does not depend on how rayon splits the work
/// and still notices swapped chunks).
fn checksum_of(n: usize, word: impl Fn(usize) -> u64 + Sync) -> u64 {
    const CHUNK: usize = 1 << 16;
    (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|i| {
            let mut h = 0x9e37_79b9_7f4a_7c15u64 ^ (i as u64).wrapping_mul(0xff51_afd7_ed55_8ccd);
            for j in i * CHUNK..((i + 1) * CHUNK).min(n) {
                h = (h ^ word(j))
                    .wrapping_mul(0x0000_0100_0000_01b3)
                    .rotate_left(29);
            }
            h
        })
        .reduce(|| 0, u64::wrapping_add)
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
    /// The path is not a regular file, or cannot be opened or written.
    #[error(transparent)]
    File(#[from] crate::files::FileError),
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
    save_words(level.k, kind, path, level.words.len(), |i| level.words[i])
}

/// Writes the `n` words given by `word` as the table of `kind` for `k`
/// balls to `path` (through a temporary file renamed at the end, so that
/// an interrupted write leaves no table behind).
pub(super) fn save_words(
    k: u32,
    kind: Kind,
    path: &Path,
    n: usize,
    word: impl Fn(usize) -> u64 + Sync,
) -> Result<(), TableError> {
    // The tables are this command's own output, rebuilt on demand: an
    // existing table is replaced; a link is followed, a FIFO written to.
    let mut out = crate::files::Output::create(path, crate::files::Replace::Allow)?;
    let tmp = path;
    let mut w = BufWriter::with_capacity(1 << 20, &mut out);
    let mut head = Vec::with_capacity(50);
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&kind.code().to_le_bytes());
    head.extend_from_slice(&u64::from(k).to_le_bytes());
    head.extend_from_slice(&placements(k).to_le_bytes());
    head.extend_from_slice(&checksum_of(n, &word).to_le_bytes());
    w.write_all(&head).map_err(io_err(tmp))?;
    let mut bytes = Vec::with_capacity(8 << 16);
    for start in (0..n).step_by(1 << 16) {
        bytes.clear();
        for i in start..(start + (1 << 16)).min(n) {
            bytes.extend_from_slice(&word(i).to_le_bytes());
        }
        w.write_all(&bytes).map_err(io_err(tmp))?;
    }
    w.flush().map_err(io_err(tmp))?;
    drop(w);
    Ok(out.commit()?)
}

/// Reads the table of `kind` for `k` balls from `path`, checking its
/// header, size and checksum.
pub fn load(kind: Kind, k: u32, path: &Path) -> Result<BitLevel, TableError> {
    let damaged = |why: String| TableError::Damaged {
        path: path.to_path_buf(),
        why,
    };
    if std::fs::symlink_metadata(path).is_err() {
        return Err(TableError::Missing {
            path: path.to_path_buf(),
            k,
        });
    }
    let f = crate::files::open_regular(path)?;
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

/// The winnable and unique bits of one level side by side: `words[i]` is
/// `[winnable, unique]` for placements `64 i .. 64 i + 63`, so that the
/// unique bit of a successor is in the cache line its winnable bit
/// brought in.
pub(super) struct PairLevel {
    pub(super) k: u32,
    pub(super) words: Vec<[u64; 2]>,
}

impl PairLevel {
    fn split(&self, which: usize) -> BitLevel {
        BitLevel::new(self.k, self.words.iter().map(|w| w[which]).collect())
    }

    /// The level of a winnable and a unique table of the same balls.
    pub(super) fn join(win: &BitLevel, unique: &BitLevel) -> PairLevel {
        let words = win
            .words
            .iter()
            .zip(&unique.words)
            .map(|(&w, &u)| [w, u])
            .collect();
        PairLevel { k: win.k, words }
    }

    /// The level's counts.
    pub(super) fn stats(&self) -> LevelStats {
        let (winnable, unique) = self
            .words
            .par_iter()
            .map(|w| (u64::from(w[0].count_ones()), u64::from(w[1].count_ones())))
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        LevelStats {
            k: self.k,
            placements: placements(self.k),
            winnable,
            unique,
        }
    }
}

/// Asks the processor to bring `p`'s cache line in (a hint; no effect on
/// other targets).
#[inline(always)]
fn prefetch<T>(p: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and `p` is a valid reference.
    #[allow(unused_unsafe)]
    unsafe {
        core::arch::x86_64::_mm_prefetch(
            p as *const T as *const i8,
            core::arch::x86_64::_MM_HINT_T0,
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Most distinct successors of a placement of at most `MAX_TABLE_BALLS`
/// balls (a ball has at most one result per direction).
const MAX_SUCC: usize = 4 * MAX_TABLE_BALLS as usize;

/// Writes the ranks (in the level below) of the distinct successors of
/// `b` into `out`, prefetching their table words; returns how many.
#[inline(always)]
fn successor_ranks(b: u64, below: &[[u64; 2]], out: &mut [u64; MAX_SUCC]) -> usize {
    let mut n = 0;
    // Per ball i (cells increasing): the rank terms of the balls below
    // it as they are (`lower[i]`), and of the balls from it upwards with
    // one ball fewer below them (`upper[i]`), which is what a move along
    // a row leaves above the row.
    let mut cells = [0u32; MAX_TABLE_BALLS as usize];
    let mut k = 0;
    let mut m = b;
    while m != 0 {
        cells[k] = m.trailing_zeros();
        k += 1;
        m &= m - 1;
    }
    let mut lower = [0u64; MAX_TABLE_BALLS as usize + 1];
    for i in 0..k {
        lower[i + 1] = lower[i] + lines::binom(cells[i], i as u32 + 1);
    }
    let mut upper = [0u64; MAX_TABLE_BALLS as usize + 1];
    for i in (0..k).rev() {
        upper[i] = upper[i + 1] + lines::binom(cells[i], i as u32);
    }
    let mut first = 0usize;
    for y in 0..HEIGHT {
        let sh = (y * WIDTH) as u32;
        let row = (b >> sh) & 127;
        let count = row.count_ones() as usize;
        for &q in lines::row_moves(row).results() {
            let mut r = lower[first] + upper[first + count];
            let mut qq = u32::from(q);
            let mut i = first as u32 + 1;
            while qq != 0 {
                r += lines::binom(sh + qq.trailing_zeros(), i);
                i += 1;
                qq &= qq - 1;
            }
            prefetch(&below[(r >> 6) as usize]);
            out[n] = r;
            n += 1;
        }
        first += count;
    }
    for x in 0..WIDTH as u32 {
        let col = lines::column_bits(b >> x);
        let moves = lines::col_moves(u64::from(col));
        if moves.len == 0 {
            continue;
        }
        let rest = b & !(lines::COLUMN0 << x);
        for &q in moves.results() {
            let r = lines::rank(rest | lines::column_cells(q, x));
            prefetch(&below[(r >> 6) as usize]);
            out[n] = r;
            n += 1;
        }
    }
    n
}

/// True when `b` has a legal move (two balls: winnable and unique).
#[inline(always)]
fn has_line_move(b: u64) -> bool {
    (0..HEIGHT).any(|y| lines::row_moves(b >> (y * WIDTH)).len > 0)
        || (0..WIDTH as u32)
            .any(|x| lines::col_moves(u64::from(lines::column_bits(b >> x))).len > 0)
}

/// Placements per parallel task (in words of 64).
const BLOCK_WORDS: usize = 1 << 12;

/// Winnable and unique bits for level `k`, from the level below (`None`
/// for two balls). Placements are walked in rank order with Gosper's
/// next-combination (no unranking but once per task); the distinct
/// successors of 64 placements are ranked and their words prefetched
/// before any of them is read, so that the table misses overlap.
fn build_level(k: u32, below: Option<&PairLevel>, progress: &AtomicU64) -> PairLevel {
    let nwords = words_of(k);
    PairLevel {
        k,
        words: build_words(k, below, 0..nwords, progress),
    }
}

/// Words (of 64 placements) in the tables of `k` balls.
pub fn words_of(k: u32) -> usize {
    placements(k).div_ceil(64) as usize
}

/// The `[winnable, unique]` words `range` of level `k` (see
/// [`build_level`]): each placement's bits depend only on it and the
/// level below, so any split of a level into ranges of words gives the
/// same words.
pub(super) fn build_words(
    k: u32,
    below: Option<&PairLevel>,
    range: std::ops::Range<usize>,
    progress: &AtomicU64,
) -> Vec<[u64; 2]> {
    lines::warm_up();
    let comb = ranking(k);
    let n = comb.count();
    let mut out = vec![[0u64; 2]; range.len()];
    out.par_chunks_mut(BLOCK_WORDS)
        .enumerate()
        .for_each(|(bi, chunk)| {
            let first = ((range.start + bi * BLOCK_WORDS) * 64) as u64;
            let mut b = comb.unrank_mask(first);
            let mut r = first;
            let mut ranks = vec![[0u64; MAX_SUCC]; 64];
            let mut counts = [0usize; 64];
            for word in chunk.iter_mut() {
                let m = (n - r).min(64) as usize;
                let (mut wbits, mut ubits) = (0u64, 0u64);
                match below {
                    None => {
                        for bit in 0..m {
                            let w = u64::from(has_line_move(b));
                            wbits |= w << bit;
                            ubits |= w << bit;
                            r += 1;
                            if r < n {
                                b = next_combination(b);
                            }
                        }
                    }
                    Some(lv) => {
                        let table = &lv.words[..];
                        for bit in 0..m {
                            counts[bit] = successor_ranks(b, table, &mut ranks[bit]);
                            r += 1;
                            if r < n {
                                b = next_combination(b);
                            }
                        }
                        for bit in 0..m {
                            let mut wins = 0;
                            let mut first = 0u64;
                            for &s in &ranks[bit][..counts[bit]] {
                                if table[(s >> 6) as usize][0] >> (s & 63) & 1 == 1 {
                                    wins += 1;
                                    if wins == 2 {
                                        break;
                                    }
                                    first = s;
                                }
                            }
                            if wins > 0 {
                                wbits |= 1 << bit;
                                if wins == 1 {
                                    let u = table[(first >> 6) as usize][1] >> (first & 63) & 1;
                                    ubits |= u << bit;
                                }
                            }
                        }
                    }
                }
                *word = [wbits, ubits];
            }
            progress.fetch_add((chunk.len() * 64) as u64, Ordering::Relaxed);
        });
    out
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
}

/// Loaded tables: winnable and unique bits for 2..=max balls.
#[derive(Debug, Clone)]
pub struct Endgame {
    pub(super) win: Vec<BitLevel>,
    pub(super) unique: Vec<BitLevel>,
}

impl Endgame {
    /// Builds the tables for 2..=`max` balls in memory (`endgame fling`
    /// builds them on disk, as a job of units: [`super::tables_job`]);
    /// `progress` counts placements done.
    pub fn build(max: u32, progress: &AtomicU64) -> Result<Endgame, TableError> {
        if max > MAX_TABLE_BALLS {
            return Err(TableError::TooManyBalls {
                k: max,
                max: MAX_TABLE_BALLS,
            });
        }
        let mut win: Vec<BitLevel> = Vec::new();
        let mut unique: Vec<BitLevel> = Vec::new();
        let mut last: Option<PairLevel> = None;
        for k in 2..=max {
            let level = build_level(k, last.as_ref(), progress);
            win.push(level.split(0));
            unique.push(level.split(1));
            last = Some(level);
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

    fn prefetch(&self, board: Board) {
        let n = board.balls() as usize;
        if let Some(t) = n.checked_sub(2).and_then(|i| self.win.get(i)) {
            let r = lines::rank(board.0);
            if let Some(w) = t.words.get((r >> 6) as usize) {
                prefetch(w);
            }
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
    fn five_ball_tables_agree_with_solution_counts_on_random_placements() {
        // Winnable and unique bits of random 4- and 5-ball placements
        // against the analysis' own exact solution count, and the counts
        // of whole levels against the slow per-move classification.
        let eg = Endgame::build(5, &AtomicU64::new(0)).unwrap();
        let mut s = 0x2545_f491_4f6c_dd1du64;
        for k in [4u32, 5] {
            for _ in 0..3000 {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                let b = Board(ranking(k).unrank_mask(s % placements(k)));
                let (_, sols, _) = count_solutions(b);
                assert_eq!(eg.winnable(b), sols > 0, "{b}");
                assert_eq!(eg.unique(b), Some(sols == 1), "{b}");
            }
        }
        // Level 5 recomputed with the board's own move generator.
        let (w4, u4) = (&eg.win[2], &eg.unique[2]);
        let comb = ranking(5);
        for r in (0..comb.count()).step_by(37) {
            let b = Board(comb.unrank_mask(r));
            let mut wins: Vec<Board> = Vec::new();
            b.for_each_move(|_, t| {
                if w4.get(t) && !wins.contains(&t) {
                    wins.push(t);
                }
            });
            let u = wins.len() == 1 && u4.get(wins[0]);
            assert_eq!(eg.win[3].get(b), !wins.is_empty(), "{b}");
            assert_eq!(eg.unique[3].get(b), u, "{b}");
        }
    }

    #[test]
    fn tables_agree_with_search_and_survive_disk() {
        let progress = AtomicU64::new(0);
        let eg = Endgame::build(4, &progress).unwrap();
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
        let d = tempfile::tempdir().unwrap();
        let dir = d.path();
        for (i, k) in (2..=4).enumerate() {
            save(
                &eg.win[i],
                Kind::Winnable,
                &table_path(dir, Kind::Winnable, k),
            )
            .unwrap();
            save(
                &eg.unique[i],
                Kind::Unique,
                &table_path(dir, Kind::Unique, k),
            )
            .unwrap();
        }
        let loaded = Endgame::load(dir, 4, true).unwrap();
        assert_eq!(loaded.win, eg.win);
        assert_eq!(loaded.unique, eg.unique);
        // Damage one byte: refused with the file named.
        let p = table_path(dir, Kind::Winnable, 3);
        let mut bytes = std::fs::read(&p).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x10;
        std::fs::write(&p, &bytes).unwrap();
        let e = Endgame::load(dir, 4, false).unwrap_err();
        assert!(matches!(e, TableError::Damaged { .. }), "{e}");
        assert!(e.to_string().contains("fling-win-3.bin"));
        std::fs::write(&p, &bytes[..100]).unwrap();
        assert!(matches!(
            Endgame::load(dir, 4, false),
            Err(TableError::Damaged { .. })
        ));
        std::fs::remove_file(&p).unwrap();
        assert!(matches!(
            Endgame::load(dir, 4, false),
            Err(TableError::Missing { k: 3, .. })
        ));
    }
}
