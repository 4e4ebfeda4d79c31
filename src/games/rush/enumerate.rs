//! Enumerates every position of the game on an N x N board (the primary
//! piece on row `(N - 1) / 2`, pieces of length 2 and 3, at most `walls`
//! walls), groups the positions into clusters of mutually reachable ones,
//! computes the distance of every position of a cluster to a solved one,
//! and lists for every cluster that has a solved position and whose
//! farthest position is not solved: the farthest position (least in
//! Fogleman's order, [`super::board::OrderKey`]), its moves and the
//! cluster size. Under
//! [`Rules::Fogleman`] (the default) the positions are those of his game,
//! and the list is Fogleman's database; [`Rules::All`] takes every
//! placement.
//!
//! [`enumerate`] works per piece set (see [`super::pieceset`]): moves never
//! change which pieces sit on each row and column, so it first lists the
//! piece sets that have a solved position, from the solved positions where
//! no piece can slide left or up (every cluster with a solved position has
//! one: push the other pieces left and up; each set is owned by the unit
//! of its least solved position, which is such a one), then walks each
//! set's clusters by one breadth-first search from all its solved
//! positions over a dense numbering of the positions
//! ([`super::densewalk`]; the same search over a hash table,
//! [`super::setbfs`], and the earlier flood fill per cluster,
//! [`super::setwalk`], are kept as its references). Units run in parallel
//! (rayon). [`EnumerateJob`] is the enumeration as a job of units
//! ([`crate::units`]): each finished unit is saved with a checksummed done
//! marker, so an interrupted run resumes where it stopped and a run split
//! over machines merges into the same database. Memory: per thread, the
//! positions of the largest piece set met and their labels, and one
//! unit's entries; the job keeps no entries beyond a unit (the database
//! file is merged from the units' files by [`super::dbmerge`], and
//! [`EnumerateJob::summary`] counts without files), [`enumerate`] returns
//! them all.
//!
//! [`enumerate_per_cluster`] is the first design, kept as the reference the
//! tests compare with: one hashed breadth-first search per cluster, from
//! its least solved position (pieces in an order moves cannot change, so
//! the packed positions of one cluster compare the same way whichever
//! solved position they were reached from); an exploration that meets a
//! smaller solved position stops at once, as that one owns the cluster.

use std::cmp::Ordering as CmpOrdering;
use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use serde::Serialize;

use rustc_hash::FxHashMap;

use super::analyse::{cluster_unless, NO_SOLUTION};
use super::board::{Board, Piece, Position, MAX_SIZE, MIN_SIZE};
use super::dbmerge::{entry_order, merge_sorted, parse_entry, FAN_IN};
use super::densewalk::DenseWalk;
use super::generate::canonical_text;
use super::pieceset::{Layout, LayoutError, PieceSet};
use super::setwalk::SetResult;
use crate::files::{FileError, Replace};
use crate::solver::Budget;
use crate::units::{self, Job, JobError, UnitsError};

/// One piece placed: axis, length, row and column of its first cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Placed {
    horizontal: bool,
    len: u8,
    row: u8,
    col: u8,
}

/// Which placements an enumeration counts as positions of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Rules {
    /// Fogleman's game, as his enumerator builds it (`cpp/src/enumerator.cpp`
    /// of fogleman/rush): the primary piece is alone on its row (no other
    /// horizontal piece, no wall), and no row is filled by its horizontal
    /// pieces and walls, nor any column by its vertical pieces (such pieces
    /// can never move: they are walls in all but name). All three are
    /// properties of a piece set, so whole piece sets, and so whole
    /// clusters, are left out; the clusters kept are unchanged. This is
    /// the space of his database.
    #[default]
    Fogleman,
    /// Every placement of pieces and walls.
    All,
}

impl Rules {
    /// The word `params.txt` and the command line use.
    pub fn name(self) -> &'static str {
        match self {
            Rules::Fogleman => "fogleman",
            Rules::All => "all",
        }
    }
}

/// A partial placement: the cells filled so far (row order) and what is on
/// them, and the rules of the enumeration it belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    occupied: u64,
    walls: u64,
    pieces: Vec<Placed>,
    next_cell: usize,
    rules: Rules,
}

/// One line of the database.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// Moves of the farthest position.
    pub moves: u32,
    /// The farthest position (the least in Fogleman's order,
    /// [`super::board::OrderKey`], among the farthest; pieces lettered in order of
    /// appearance).
    pub board: String,
    /// Positions in the cluster.
    pub cluster_size: u64,
}

/// What an enumeration found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Board side.
    pub size: usize,
    /// Most walls a position may have.
    pub walls: usize,
    /// Work units (placements of the first row) walked.
    pub units: usize,
    /// Solved positions visited (those where no piece can slide left or up).
    pub solved_positions: u64,
    /// Clusters with a solved position.
    pub clusters: u64,
    /// Positions in those clusters.
    pub positions: u64,
    /// Database entries (clusters whose farthest position is not solved).
    pub puzzles: u64,
    /// Entries by moves.
    pub by_moves: BTreeMap<u32, u64>,
    /// The hardest entry (most moves, then least board text).
    pub hardest: Option<Entry>,
}

/// Errors of an enumeration.
#[derive(Debug, thiserror::Error)]
pub enum EnumerateError {
    /// A size outside 4..=8.
    #[error("board side {0} is not supported (4 to 8)")]
    Size(usize),
    /// Reading or writing the output folder.
    #[error("{0}: {1}")]
    Io(PathBuf, std::io::Error),
    /// A saved unit that cannot be read.
    #[error("{0}: damaged unit file ({1}); delete it to redo the unit")]
    Damaged(PathBuf, String),
    /// The job folder of a split run (see [`crate::units`]).
    #[error(transparent)]
    Units(#[from] UnitsError),
    /// Writing the database.
    #[error(transparent)]
    File(#[from] FileError),
    /// A `--sets-file` that is not a list of piece sets.
    #[error("{0}: not a list of piece sets (line {1}); give another --sets-file, or delete this one to have the sample found and written there")]
    SetsFile(PathBuf, usize),
    /// A piece set too large to index.
    #[error("{0}")]
    Layout(#[from] LayoutError),
}

/// The row of the primary piece on a board of side `n`.
pub fn primary_row(n: usize) -> usize {
    (n - 1) / 2
}

/// The work units: every placement of the first row's cells.
pub fn units(n: usize, walls: usize, rules: Rules) -> Result<Vec<Unit>, EnumerateError> {
    if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
        return Err(EnumerateError::Size(n));
    }
    let start = primary_only(n, n - 2, rules);
    let mut out = Vec::new();
    extend(&start, n, walls, n, &mut |u| out.push(u.clone()));
    Ok(out)
}

/// The placement with nothing but the primary piece, at column `col` of
/// its row.
fn primary_only(n: usize, col: usize, rules: Rules) -> Unit {
    let row = primary_row(n);
    Unit {
        occupied: 0b11 << (row * n + col),
        walls: 0,
        pieces: vec![Placed {
            horizontal: true,
            len: 2,
            row: row as u8,
            col: col as u8,
        }],
        next_cell: 0,
        rules,
    }
}

/// Whether row `r` of `u` (all of its cells placed) is filled by its
/// horizontal pieces and walls.
fn row_is_full(u: &Unit, n: usize, r: usize) -> bool {
    let walls = (u.walls >> (r * n)) & ((1 << n) - 1);
    let pieces: usize = u
        .pieces
        .iter()
        .filter(|p| p.horizontal && p.row as usize == r)
        .map(|p| p.len as usize)
        .sum();
    walls.count_ones() as usize + pieces == n
}

/// Whether a column of a complete placement `u` is filled by its vertical
/// pieces.
fn a_column_is_full(u: &Unit, n: usize) -> bool {
    let mut filled = [0usize; MAX_SIZE];
    for p in u.pieces.iter().filter(|p| !p.horizontal) {
        filled[p.col as usize] += p.len as usize;
    }
    filled[..n].contains(&n)
}

/// Calls `f` with every completion of `u` up to cell `stop`.
fn extend(u: &Unit, n: usize, walls: usize, stop: usize, f: &mut impl FnMut(&Unit)) {
    let mut u = u.clone();
    rec(&mut u, n, walls, stop, f);
}

fn rec(u: &mut Unit, n: usize, walls: usize, stop: usize, f: &mut impl FnMut(&Unit)) {
    let cell = u.next_cell;
    let fogleman = u.rules == Rules::Fogleman;
    if fogleman && cell > 0 && cell.is_multiple_of(n) {
        // A row just completed: Fogleman leaves out filled lines.
        if row_is_full(u, n, cell / n - 1) || (cell == n * n && a_column_is_full(u, n)) {
            return;
        }
    }
    if cell == stop {
        f(u);
        return;
    }
    u.next_cell += 1;
    if u.occupied & (1 << cell) != 0 {
        rec(u, n, walls, stop, f);
        u.next_cell -= 1;
        return;
    }
    // Empty.
    rec(u, n, walls, stop, f);
    let (r, c) = (cell / n, cell % n);
    // Under Fogleman's rules the primary piece is alone on its row.
    let alone = fogleman && r == primary_row(n);
    // A wall.
    if (u.walls.count_ones() as usize) < walls && !alone {
        u.walls |= 1 << cell;
        u.occupied |= 1 << cell;
        rec(u, n, walls, stop, f);
        u.walls &= !(1 << cell);
        u.occupied &= !(1 << cell);
    }
    for horizontal in [true, false] {
        if horizontal && alone {
            continue;
        }
        for len in 2..=3usize {
            let fits = if horizontal {
                c + len <= n
            } else {
                r + len <= n
            };
            if !fits || u.pieces.len() >= super::board::MAX_PIECES {
                continue;
            }
            // Only solved positions where no piece can move left or up
            // are listed: moving one that can gives a smaller solved
            // position of the same cluster, which owns it. The cell
            // before the piece is final (it comes earlier in row order).
            let pushed = if horizontal {
                c == 0 || u.occupied & (1 << (cell - 1)) != 0
            } else {
                r == 0 || u.occupied & (1 << (cell - n)) != 0
            };
            if !pushed {
                continue;
            }
            let mut m = 0u64;
            for k in 0..len {
                m |= 1 << if horizontal { cell + k } else { cell + k * n };
            }
            if u.occupied & m != 0 {
                continue;
            }
            u.occupied |= m;
            u.pieces.push(Placed {
                horizontal,
                len: len as u8,
                row: r as u8,
                col: c as u8,
            });
            rec(u, n, walls, stop, f);
            u.pieces.pop();
            u.occupied &= !m;
        }
    }
    u.next_cell -= 1;
}

/// The board of a complete placement with its pieces in the canonical
/// order (primary first, then by axis, line and place along the line),
/// and the (solved) position.
fn canonical_board(u: &Unit, n: usize) -> (Board, Position) {
    let mut others: Vec<Placed> = u.pieces[1..].to_vec();
    let key = |p: &Placed| {
        if p.horizontal {
            (0, p.row, p.col)
        } else {
            (1, p.col, p.row)
        }
    };
    others.sort_by_key(key);
    let mut pieces = Vec::with_capacity(u.pieces.len());
    let mut pos = Position(0);
    for (i, p) in std::iter::once(&u.pieces[0]).chain(&others).enumerate() {
        pieces.push(Piece {
            horizontal: p.horizontal,
            len: p.len,
            line: if p.horizontal { p.row } else { p.col },
            label: (b'A' + i as u8) as char,
        });
        pos = pos.with(i, if p.horizontal { p.col } else { p.row });
    }
    let board = Board::new(n, u.walls, pieces).expect("placements fit the board");
    (board, pos)
}

/// Counters and entries of one unit.
#[derive(Debug, Clone, Default)]
struct UnitResult {
    solved_positions: u64,
    clusters: u64,
    positions: u64,
    entries: Vec<Entry>,
}

fn run_unit(u: &Unit, n: usize, walls: usize) -> UnitResult {
    let mut r = UnitResult::default();
    let budget = Budget::unlimited();
    extend(u, n, walls, n * n, &mut |full| {
        r.solved_positions += 1;
        let (board, start) = canonical_board(full, n);
        let goal = board.goal_offset();
        let own = start.0;
        let Ok(Some(c)) = cluster_unless(&board, start, &budget, |p| p.get(0) == goal && p.0 < own)
        else {
            return;
        };
        r.clusters += 1;
        r.positions += c.positions.len() as u64;
        let Some(max) = c
            .distance
            .iter()
            .copied()
            .filter(|&d| d != NO_SOLUTION)
            .max()
        else {
            return;
        };
        if max == 0 {
            return;
        }
        let far = c
            .positions
            .iter()
            .zip(&c.distance)
            .filter(|(_, &d)| d == max)
            .map(|(&p, _)| Position(p))
            .min_by_key(|&p| board.order_key(p))
            .expect("a farthest position");
        let text = canonical_text(&board.to_text(far));
        r.entries.push(Entry {
            moves: max as u32,
            board: text,
            cluster_size: c.positions.len() as u64,
        });
    });
    r
}

/// The file that holds unit `k`'s result in folder `dir`.
fn unit_path(dir: &Path, k: usize) -> PathBuf {
    units::unit_file(dir, k)
}

fn save_unit(dir: &Path, k: usize, r: &UnitResult) -> Result<(), EnumerateError> {
    crate::files::write_all(&unit_path(dir, k), &unit_bytes(r), Replace::Allow)?;
    Ok(())
}

/// A unit's file: a header `# SOLVED CLUSTERS POSITIONS ENTRIES`, then its
/// entries as database lines.
fn unit_bytes(r: &UnitResult) -> Vec<u8> {
    let mut f = Vec::with_capacity(64 + 48 * r.entries.len());
    let _ = writeln!(
        f,
        "# {} {} {} {}",
        r.solved_positions,
        r.clusters,
        r.positions,
        r.entries.len()
    );
    for e in &r.entries {
        let _ = writeln!(f, "{} {} {}", e.moves, e.board, e.cluster_size);
    }
    f
}

fn load_unit(path: &Path) -> Result<UnitResult, EnumerateError> {
    let text = crate::files::read_text(&path.display().to_string(), u64::MAX, "a unit file")?;
    let bad = |why: &str| EnumerateError::Damaged(path.into(), why.into());
    let mut lines = text.lines();
    let head: Vec<u64> = lines
        .next()
        .and_then(|l| l.strip_prefix("# "))
        .ok_or_else(|| bad("no header"))?
        .split(' ')
        .map(|w| w.parse().map_err(|_| bad("bad header")))
        .collect::<Result<_, _>>()?;
    let [solved_positions, clusters, positions, count] = head[..] else {
        return Err(bad("bad header"));
    };
    let mut entries = Vec::new();
    for l in lines {
        entries.push(parse_entry(l).ok_or_else(|| bad("bad line"))?);
    }
    if entries.len() as u64 != count {
        return Err(bad("truncated"));
    }
    Ok(UnitResult {
        solved_positions,
        clusters,
        positions,
        entries,
    })
}

/// The piece set of a complete placement.
fn set_of(u: &Unit, n: usize) -> PieceSet {
    PieceSet::of(
        n,
        u.walls,
        u.pieces.iter().map(|p| (p.horizontal, p.len, p.row, p.col)),
    )
}

/// [`Layout::first_row`] of a unit (a placement of the first row).
fn first_row_of(u: &Unit, n: usize) -> u32 {
    let mut key = 0u32;
    for c in 0..n {
        if u.walls & (1 << c) != 0 {
            key |= 1 << (3 * c);
        }
    }
    for p in u.pieces.iter().filter(|p| p.row == 0) {
        let c = p.col as usize;
        if p.horizontal {
            key |= (p.len as u32) << (3 * c);
            for t in 1..p.len as usize {
                key |= 6 << (3 * (c + t));
            }
        } else {
            key |= (p.len as u32 + 2) << (3 * c);
        }
    }
    key
}

/// The piece sets of unit `u`'s solved positions where no piece can slide
/// left or up, sorted.
pub fn sets_of_unit(u: &Unit, n: usize, walls: usize) -> Vec<PieceSet> {
    sets_counted(u, n, walls, &mut 0)
}

/// [`sets_of_unit`], adding the number of positions listed to `count`.
fn sets_counted(u: &Unit, n: usize, walls: usize, count: &mut u64) -> Vec<PieceSet> {
    let mut sets: FxHashMap<PieceSet, ()> = FxHashMap::default();
    extend(u, n, walls, n * n, &mut |full| {
        *count += 1;
        sets.insert(set_of(full, n), ());
    });
    let mut sets: Vec<PieceSet> = sets.into_keys().collect();
    sets.sort_unstable();
    sets
}

/// The unit index of every unit, keyed by [`first_row_of`] (what
/// [`owned_sets`] needs to tell which unit owns a set).
pub fn unit_index(all: &[Unit], n: usize) -> FxHashMap<u32, usize> {
    all.iter()
        .enumerate()
        .map(|(k, u)| (first_row_of(u, n), k))
        .collect()
}

/// The piece sets that unit `k` owns, sorted, and the number of solved
/// positions listed to find them: those met among its solved positions
/// where no piece can slide left or up whose least solved position
/// ([`PieceSet::least_solved_first_row`]) is in this unit. That position
/// is pushed, so exactly one unit owns each set, found by one depth-first
/// search per set (the first design listed every solved position of every
/// set met, 7 times slower on 6x6).
pub fn owned_sets(
    k: usize,
    u: &Unit,
    n: usize,
    walls: usize,
    index: &FxHashMap<u32, usize>,
) -> (Vec<PieceSet>, u64) {
    let mut solved_positions = 0;
    let mut sets = sets_counted(u, n, walls, &mut solved_positions);
    sets.retain(|set| {
        set.least_solved_first_row()
            .and_then(|key| index.get(&key).copied())
            == Some(k)
    });
    (sets, solved_positions)
}

/// Walks the piece sets that unit `k` owns (see [`owned_sets`]).
fn run_units_unit(
    k: usize,
    u: &Unit,
    n: usize,
    walls: usize,
    index: &FxHashMap<u32, usize>,
) -> Result<UnitResult, EnumerateError> {
    thread_local! {
        static WALKER: std::cell::RefCell<(DenseWalk, Layout)> =
            std::cell::RefCell::new((DenseWalk::new(), Layout::default()));
    }
    let (sets, solved_positions) = owned_sets(k, u, n, walls, index);
    let mut out = SetResult::default();
    WALKER.with(|w| {
        let (walker, layout) = &mut *w.borrow_mut();
        for set in &sets {
            layout.rebuild(set)?;
            walker.walk(layout, &mut out);
        }
        Ok::<(), EnumerateError>(())
    })?;
    Ok(UnitResult {
        solved_positions,
        clusters: out.clusters,
        positions: out.positions,
        entries: out.entries,
    })
}

/// Enumerates side `n` with at most `walls` walls, per piece set. With
/// `dir`, finished units are saved there and found again on the next run.
/// `progress(done, total)` is called as units finish. Returns the summary
/// and every database entry (sorted by moves descending, then board).
pub fn enumerate(
    n: usize,
    walls: usize,
    rules: Rules,
    dir: Option<&Path>,
    progress: impl Fn(u64, u64) + Sync,
) -> Result<(Summary, Vec<Entry>), EnumerateError> {
    enumerate_some(n, walls, rules, dir, 1, progress)
}

/// [`enumerate`] restricted to every `stride`-th unit (a deterministic
/// sample for measuring a fraction of the work; `stride` 1 is all).
pub fn enumerate_some(
    n: usize,
    walls: usize,
    rules: Rules,
    dir: Option<&Path>,
    stride: usize,
    progress: impl Fn(u64, u64) + Sync,
) -> Result<(Summary, Vec<Entry>), EnumerateError> {
    let (s, mut entries) = match dir {
        None => walk_units(n, walls, rules, stride, progress)?,
        Some(d) => {
            let job = EnumerateJob::new(n, walls, rules, stride)?;
            let s = units::run_local(d, &job, None, Replace::Allow, progress)?;
            let mut entries = Vec::new();
            for k in 0..job.unit_count() {
                entries.extend(load_unit(&unit_path(d, k))?.entries);
            }
            (s, entries)
        }
    };
    entries.par_sort_unstable_by(entry_order);
    Ok((s, entries))
}

/// The folder where an enumeration writing the database to `out` keeps
/// its finished units: `out` with `.units` added.
pub fn units_dir(out: &Path) -> PathBuf {
    let mut d = out.as_os_str().to_owned();
    d.push(".units");
    PathBuf::from(d)
}

/// Walks every `stride`-th unit in memory: the summary and the entries
/// (unsorted across units).
fn walk_units(
    n: usize,
    walls: usize,
    rules: Rules,
    stride: usize,
    progress: impl Fn(u64, u64) + Sync,
) -> Result<(Summary, Vec<Entry>), EnumerateError> {
    let job = EnumerateJob::new(n, walls, rules, stride)?;
    let results = job.walk(progress, |r| r)?;
    Ok(summarise(n, walls, results))
}

/// `enumerate rush` as a job of units ([`crate::units`]): unit `k` is the
/// `k`-th unit of the sample (every `stride`-th placement of the first
/// row); its file is the unit's counts and entries in database order, and
/// the merge is the database file ([`super::dbmerge::merge_sorted`], never
/// held in memory) and the summary.
#[derive(Debug)]
pub struct EnumerateJob {
    n: usize,
    walls: usize,
    rules: Rules,
    stride: usize,
    all: Vec<Unit>,
    index: FxHashMap<u32, usize>,
}

impl EnumerateJob {
    /// The enumeration of side `n`, at most `walls` walls, under `rules`,
    /// every `stride`-th unit.
    pub fn new(
        n: usize,
        walls: usize,
        rules: Rules,
        stride: usize,
    ) -> Result<EnumerateJob, EnumerateError> {
        let all = units(n, walls, rules)?;
        let index = unit_index(&all, n);
        Ok(EnumerateJob {
            n,
            walls,
            rules,
            stride: stride.max(1),
            all,
            index,
        })
    }

    /// Walks every unit in memory (in parallel, rayon) and returns what
    /// `each` makes of each unit's result, in unit order.
    fn walk<T: Send>(
        &self,
        progress: impl Fn(u64, u64) + Sync,
        each: impl Fn(UnitResult) -> T + Sync,
    ) -> Result<Vec<T>, EnumerateError> {
        let done = AtomicU64::new(0);
        let total = self.unit_count() as u64;
        (0..self.unit_count())
            .into_par_iter()
            .with_max_len(1)
            .map(|k| {
                let r = self.result(k)?;
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                Ok(each(r))
            })
            .collect()
    }

    /// The summary of every unit, walked in memory with no file written:
    /// each unit's entries are counted and dropped, so memory stays one
    /// unit's entries per thread (for a run that writes no database).
    pub fn summary(&self, progress: impl Fn(u64, u64) + Sync) -> Result<Summary, EnumerateError> {
        let parts = self.walk(progress, |r| {
            let mut part = Summary::default();
            tally(&mut part, &r);
            part
        })?;
        let (mut s, _) = summarise(self.n, self.walls, Vec::new());
        for p in parts {
            combine(&mut s, p);
        }
        Ok(s)
    }

    /// Unit `k`'s counts and entries, in database order.
    fn result(&self, k: usize) -> Result<UnitResult, EnumerateError> {
        let at = k * self.stride;
        let mut r = run_units_unit(at, &self.all[at], self.n, self.walls, &self.index)?;
        r.entries.sort_unstable_by(entry_order);
        Ok(r)
    }
}

impl Job for EnumerateJob {
    type Merged = Summary;

    fn command(&self) -> Vec<String> {
        let mut words: Vec<String> = ["enumerate", "rush", "--size"].map(String::from).to_vec();
        words.push(self.n.to_string());
        words.extend(["--walls".into(), self.walls.to_string()]);
        words.extend(["--rules".into(), self.rules.name().into()]);
        if self.stride > 1 {
            words.extend(["--sample".into(), self.stride.to_string()]);
        }
        words
    }

    fn unit_count(&self) -> usize {
        self.all.len().div_ceil(self.stride)
    }

    fn run_unit(&self, k: usize) -> Result<Vec<u8>, JobError> {
        Ok(unit_bytes(&self.result(k)?))
    }

    fn merge(
        &self,
        files: &[PathBuf],
        out: Option<&Path>,
        replace: Replace,
    ) -> Result<Summary, JobError> {
        // The counts of every unit (its entries only counted, one unit at
        // a time in memory per thread), then the database merged from the
        // files, never held in memory.
        let parts: Vec<Summary> = files
            .par_iter()
            .with_max_len(1)
            .map(|f| {
                let mut part = Summary::default();
                tally(&mut part, &load_unit(f)?);
                Ok(part)
            })
            .collect::<Result<_, EnumerateError>>()?;
        let (mut s, _) = summarise(self.n, self.walls, Vec::new());
        for p in parts {
            combine(&mut s, p);
        }
        if let Some(out) = out {
            let scratch = files
                .first()
                .and_then(|f| f.parent())
                .unwrap_or(Path::new("."));
            let lines = merge_sorted(files, out, scratch, FAN_IN, replace)?;
            if lines != s.puzzles {
                return Err(format!(
                    "{}: {lines} lines merged where the units count {} puzzles",
                    out.display(),
                    s.puzzles
                )
                .into());
            }
        }
        Ok(s)
    }
}

/// Counts unit result `r` (its entries in database order) into `s` as one
/// more unit.
fn tally(s: &mut Summary, r: &UnitResult) {
    s.units += 1;
    s.solved_positions += r.solved_positions;
    s.clusters += r.clusters;
    s.positions += r.positions;
    s.puzzles += r.entries.len() as u64;
    for e in &r.entries {
        *s.by_moves.entry(e.moves).or_default() += 1;
    }
    s.hardest = r.entries.first().cloned();
}

/// Adds summary `p` of some units to `s`.
fn combine(s: &mut Summary, p: Summary) {
    s.units += p.units;
    s.solved_positions += p.solved_positions;
    s.clusters += p.clusters;
    s.positions += p.positions;
    s.puzzles += p.puzzles;
    for (m, c) in p.by_moves {
        *s.by_moves.entry(m).or_default() += c;
    }
    if let Some(h) = p.hardest {
        if s.hardest
            .as_ref()
            .is_none_or(|old| entry_order(&h, old) == CmpOrdering::Less)
        {
            s.hardest = Some(h);
        }
    }
}

/// Adds up unit results; the entries sorted by moves descending, then board.
fn summarise(n: usize, walls: usize, results: Vec<UnitResult>) -> (Summary, Vec<Entry>) {
    let mut s = Summary {
        size: n,
        walls,
        ..Summary::default()
    };
    let mut entries = Vec::new();
    for mut r in results {
        r.entries.sort_unstable_by(entry_order);
        let mut part = Summary::default();
        tally(&mut part, &r);
        combine(&mut s, part);
        entries.extend(r.entries);
    }
    entries.par_sort_unstable_by(entry_order);
    (s, entries)
}

/// The first design: one hashed breadth-first search per cluster, from its
/// least solved position (see the module documentation); units are the
/// placements of the first row. Much slower than [`enumerate`]; kept as
/// the reference the tests compare it with. Same arguments and results.
pub fn enumerate_per_cluster(
    n: usize,
    walls: usize,
    rules: Rules,
    dir: Option<&Path>,
    progress: impl Fn(u64, u64) + Sync,
) -> Result<(Summary, Vec<Entry>), EnumerateError> {
    let units = units(n, walls, rules)?;
    if let Some(d) = dir {
        fs::create_dir_all(d).map_err(|e| EnumerateError::Io(d.into(), e))?;
    }
    let done = AtomicU64::new(0);
    let total = units.len() as u64;
    let results: Vec<UnitResult> = units
        .par_iter()
        .enumerate()
        .map(|(k, u)| {
            let r = match dir {
                Some(d) if unit_path(d, k).is_file() => load_unit(&unit_path(d, k))?,
                _ => {
                    let r = run_unit(u, n, walls);
                    if let Some(d) = dir {
                        save_unit(d, k, &r)?;
                    }
                    r
                }
            };
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
            Ok(r)
        })
        .collect::<Result<_, EnumerateError>>()?;
    Ok(summarise(n, walls, results))
}

#[cfg(test)]
mod tests {
    use super::super::parse::parse_board;
    use super::super::search::bfs;
    use super::*;

    /// The summary without the fields that depend on the design.
    fn counts(s: &Summary) -> (u64, u64, u64, u64, &BTreeMap<u32, u64>, &Option<Entry>) {
        (
            s.solved_positions,
            s.clusters,
            s.positions,
            s.puzzles,
            &s.by_moves,
            &s.hardest,
        )
    }

    #[test]
    fn four_by_four_is_stable_and_its_hardest_solve_to_their_length() {
        let (s, entries) = enumerate(4, 0, Rules::All, None, |_, _| {}).unwrap();
        assert_eq!(s.puzzles, entries.len() as u64);
        assert!(s.clusters >= s.puzzles);
        for e in entries.iter().take(20) {
            let (b, p) = parse_board(&e.board).unwrap();
            assert_eq!(
                bfs(&b, p, &Budget::unlimited()).len(),
                Some(e.moves as usize),
                "{e:?}"
            );
        }
        // Pinned: a change in the enumeration shows here.
        assert_eq!(
            (s.solved_positions, s.clusters, s.positions, s.puzzles),
            (1378, 1143, 9444, 484)
        );
        assert_eq!(
            s.hardest,
            Some(Entry {
                moves: 7,
                board: "BBBCDAACDoEEDFFF".into(),
                cluster_size: 8
            })
        );
    }

    #[test]
    fn per_piece_set_and_per_cluster_designs_agree() {
        for (n, walls, rules) in [
            (4, 0, Rules::All),
            (4, 1, Rules::All),
            (4, 2, Rules::All),
            (4, 1, Rules::Fogleman),
            (4, 2, Rules::Fogleman),
            (5, 0, Rules::Fogleman),
        ] {
            let (a, ea) = enumerate(n, walls, rules, None, |_, _| {}).unwrap();
            let (b, eb) = enumerate_per_cluster(n, walls, rules, None, |_, _| {}).unwrap();
            assert_eq!(counts(&a), counts(&b), "{n}x{n} walls {walls}");
            assert_eq!(ea, eb, "{n}x{n} walls {walls}");
        }
    }

    #[test]
    fn five_by_five_counts_are_stable_and_both_designs_agree() {
        let (s, entries) = enumerate(5, 0, Rules::All, None, |_, _| {}).unwrap();
        let (b, eb) = enumerate_per_cluster(5, 0, Rules::All, None, |_, _| {}).unwrap();
        assert_eq!(counts(&s), counts(&b));
        assert!(entries == eb, "the database lines differ");
        assert_eq!(
            (s.solved_positions, s.clusters, s.positions, s.puzzles),
            (354_260, 238_244, 7_104_587, 88_627)
        );
        assert_eq!(s.by_moves.get(&20), Some(&2));
        assert_eq!(s.by_moves.get(&1), Some(&34_466));
        assert_eq!(entries[0].board, "BBCCDEEoFDGAAFoGoHIIJJHoo");
        for e in entries.iter().take(5) {
            let (b, p) = parse_board(&e.board).unwrap();
            assert_eq!(
                bfs(&b, p, &Budget::unlimited()).len(),
                Some(e.moves as usize),
                "{e:?}"
            );
        }
    }

    /// The boards of Fogleman's enumerator: every placement under his rules
    /// where no piece, the primary one included, can slide left or up.
    fn fogleman_boards(n: usize, walls: usize) -> u64 {
        let mut count = 0;
        for col in 0..n - 1 {
            let left = (col > 0).then(|| primary_row(n) * n + col - 1);
            extend(
                &primary_only(n, col, Rules::Fogleman),
                n,
                walls,
                n * n,
                &mut |u| count += left.is_none_or(|c| u.occupied & (1 << c) != 0) as u64,
            );
        }
        count
    }

    #[test]
    fn fogleman_rules_give_his_enumerators_board_counts() {
        // His `MaxID` for 5x5 (cpp/src/config.h of fogleman/rush): the
        // same rules give the same space.
        assert_eq!(fogleman_boards(5, 0), 268_109);
        assert_eq!(fogleman_boards(5, 1), 2_689_861);
    }

    #[test]
    fn fogleman_rules_keep_whole_piece_sets() {
        // Every 5x5 position under Fogleman's rules is one under all
        // placements, and his database is the part of the full one whose
        // boards obey his rules.
        let (f, ef) = enumerate(5, 0, Rules::Fogleman, None, |_, _| {}).unwrap();
        let (a, ea) = enumerate(5, 0, Rules::All, None, |_, _| {}).unwrap();
        assert!(f.positions < a.positions && f.puzzles < a.puzzles);
        // Whether a board obeys Fogleman's rules, from its pieces.
        let obeys = |text: &str| {
            let (board, _) = parse_board(text).unwrap();
            let n = board.size();
            let mut filled = [[0usize; MAX_SIZE]; 2];
            for (r, row) in filled[0][..n].iter_mut().enumerate() {
                *row = ((board.walls() >> (r * n)) & ((1 << n) - 1)).count_ones() as usize;
            }
            for (i, p) in board.pieces().iter().enumerate() {
                if p.horizontal && p.line as usize == primary_row(n) && i != 0 {
                    return false;
                }
                filled[usize::from(!p.horizontal)][p.line as usize] += p.len as usize;
            }
            let a_row = (board.walls() >> (primary_row(n) * n)) & ((1 << n) - 1);
            a_row == 0 && !filled[0][..n].contains(&n) && !filled[1][..n].contains(&n)
        };
        let kept: Vec<&Entry> = ea.iter().filter(|e| obeys(&e.board)).collect();
        assert_eq!(kept, ef.iter().collect::<Vec<_>>());
        // Pinned: a change in the enumeration shows here.
        assert_eq!(
            (f.solved_positions, f.clusters, f.positions, f.puzzles),
            (124_886, 62_106, 4_629_737, 33_220)
        );
    }

    #[test]
    fn resumes_from_saved_units() {
        let dir = std::env::temp_dir().join(format!("gridbot-rush-enum-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let (a, ea) = enumerate(4, 1, Rules::All, Some(&dir), |_, _| {}).unwrap();
        let (b, eb) = enumerate(4, 1, Rules::All, Some(&dir), |_, _| {}).unwrap();
        assert_eq!(a, b);
        assert_eq!(ea, eb);
        // Another enumeration refuses the folder.
        assert!(matches!(
            enumerate(4, 0, Rules::All, Some(&dir), |_, _| {}),
            Err(EnumerateError::Units(UnitsError::Foreign { .. }))
        ));
        fs::write(unit_path(&dir, 0), "# 1 2\n").unwrap();
        assert!(matches!(
            enumerate(4, 1, Rules::All, Some(&dir), |_, _| {}),
            Err(EnumerateError::Units(UnitsError::Damaged { .. }))
        ));
        let _ = fs::remove_dir_all(&dir);
        // The per-cluster design resumes too.
        let (c, ec) = enumerate_per_cluster(4, 1, Rules::All, Some(&dir), |_, _| {}).unwrap();
        let (d, ed) = enumerate_per_cluster(4, 1, Rules::All, Some(&dir), |_, _| {}).unwrap();
        assert_eq!((c, ec), (d, ed));
        let _ = fs::remove_dir_all(&dir);
    }
}
