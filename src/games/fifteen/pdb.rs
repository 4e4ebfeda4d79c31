//! Additive disjoint pattern databases for boards of at most 16 cells
//! (Korf and Felner 2002; Felner, Korf and Hanan 2004), built with the
//! gap.
//!
//! The tiles are split into disjoint patterns (on 4x4: 7-8, 6-6-3 or
//! 5-5-5). A pattern's abstract state is where its tiles are AND where the
//! gap is; the other tiles are indistinguishable. A move of a pattern tile
//! (into the gap) costs 1, a move of any other tile costs 0, so the gap
//! wanders for free over its connected region of cells no pattern tile
//! holds. The database holds, for every placement of the pattern's tiles,
//! the fewest pattern moves that bring them home with the gap home (bottom
//! right), minimised over where the gap starts. Only pattern moves count,
//! so the values of disjoint patterns add up to an admissible bound. The
//! larger of that sum and the sum for the position mirrored about the main
//! diagonal (tiles relabelled, see [`super::rules::Board::transposed`]) is
//! used on square boards, as in the 2004 paper.
//!
//! Each table is filled by the core's 0-1 breadth-first search
//! ([`fill_zero_one`]): ranked placements (a placement of k tiles on n
//! cells is a number below n!/(n-k)!, [`Permutations`]), each with the set
//! of gap cells reached (one bit per free cell: a byte for the 8-tile
//! pattern), the gap's region closed at no cost, layer by layer in
//! parallel. A placement's distance d always has the parity of the
//! pattern's Manhattan distance m (each counted move moves one pattern tile
//! one step), so the table stores (d - m) / 2 in 4 bits (clamped at 15,
//! which stays admissible); the search adds the Manhattan distance back.
//! Tables are saved in the cache folder with a checksum, and rebuilt when a
//! file is missing, of the wrong shape or damaged: never trusted.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::rules::Board;
use crate::solver::rank::Permutations;
use crate::solver::retrograde::{NibbleTable, TableError};
use crate::solver::zero_one::{fill_zero_one, Step, UNREACHED};

/// Cells of the 4x4 board the named partitions are for.
pub const CELLS: usize = 16;
/// The most cells a board with databases may have (cells fit in 4 bits).
pub const MAX_CELLS: usize = 16;

/// A choice of disjoint patterns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
pub enum Partition {
    /// 7 + 8 tiles (Felner, Korf and Hanan's best): two tables of 57.7 M
    /// and 518.9 M entries, about 290 MB on disk.
    #[value(name = "78")]
    P78,
    /// 6 + 6 + 3 tiles: 2 x 5.8 M + 3 360 entries, builds in seconds.
    #[value(name = "663")]
    P663,
    /// 5 + 5 + 5 tiles: 3 x 524 160 entries.
    #[value(name = "555")]
    P555,
}

impl Partition {
    /// The patterns (tile numbers, sgt goal: 1..15 in row order, gap
    /// bottom right). The 7-8 split is the paper's (its top and bottom
    /// halves, turned for the gap-last goal).
    pub fn patterns(self) -> Vec<Vec<u8>> {
        match self {
            Partition::P78 => vec![
                vec![1, 2, 3, 4, 5, 6, 7, 8],
                vec![9, 10, 11, 12, 13, 14, 15],
            ],
            Partition::P663 => vec![
                vec![1, 5, 6, 9, 10, 13],
                vec![7, 8, 11, 12, 14, 15],
                vec![2, 3, 4],
            ],
            Partition::P555 => vec![
                vec![1, 2, 5, 6, 9],
                vec![3, 4, 7, 8, 12],
                vec![10, 11, 13, 14, 15],
            ],
        }
    }

    /// The name used on the command line (`78`, `663`, `555`).
    pub fn name(self) -> &'static str {
        match self {
            Partition::P78 => "78",
            Partition::P663 => "663",
            Partition::P555 => "555",
        }
    }
}

/// Why a database could not be loaded or stored.
#[derive(Debug, thiserror::Error)]
pub enum PdbError {
    /// Creating the cache folder failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The folder.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The table file could not be read or written, or is damaged.
    #[error(transparent)]
    Table(#[from] TableError),
    /// No cache folder could be found.
    #[error("no cache folder: neither XDG_CACHE_HOME nor HOME is set")]
    NoCacheDir,
}

/// The geometry of a board of at most [`MAX_CELLS`] cells as bit masks:
/// the neighbours of each cell, the mirror image of each cell (square
/// boards), the goal cell of each tile (tile t on cell t - 1, the gap on
/// the last cell).
#[derive(Debug, Clone)]
pub struct Grid {
    width: usize,
    height: usize,
    full: u16,
    col_first: u16,
    col_last: u16,
    nbr: [u16; MAX_CELLS],
    /// `dist[t][c]`: Manhattan distance of tile t on cell c (0 for t = 0).
    dist: [[u8; MAX_CELLS]; MAX_CELLS],
    mirror: Option<[u8; MAX_CELLS]>,
}

impl Grid {
    /// The grid of a `width` x `height` board.
    ///
    /// # Panics
    /// When a side is below 2 or the board has more than [`MAX_CELLS`]
    /// cells (the callers check sizes first).
    pub fn new(width: usize, height: usize) -> Grid {
        let n = width * height;
        assert!(
            width >= 2 && height >= 2 && n <= MAX_CELLS,
            "pattern databases take boards of 2x2 to 16 cells, not {width}x{height}"
        );
        let (mut col_first, mut col_last) = (0u16, 0u16);
        let mut nbr = [0u16; MAX_CELLS];
        let mut dist = [[0u8; MAX_CELLS]; MAX_CELLS];
        for c in 0..n {
            let (r, col) = (c / width, c % width);
            if col == 0 {
                col_first |= 1 << c;
            }
            if col + 1 == width {
                col_last |= 1 << c;
            }
            if r > 0 {
                nbr[c] |= 1 << (c - width);
            }
            if r + 1 < height {
                nbr[c] |= 1 << (c + width);
            }
            if col > 0 {
                nbr[c] |= 1 << (c - 1);
            }
            if col + 1 < width {
                nbr[c] |= 1 << (c + 1);
            }
            for (g, row) in dist.iter_mut().skip(1).take(n - 1).enumerate() {
                // Tile g + 1 is home on cell g.
                row[c] = ((g / width).abs_diff(r) + (g % width).abs_diff(col)) as u8;
            }
        }
        let mirror = (width == height).then(|| {
            let mut m = [0u8; MAX_CELLS];
            for (c, slot) in m.iter_mut().enumerate().take(n) {
                *slot = ((c % width) * width + c / width) as u8;
            }
            m
        });
        Grid {
            width,
            height,
            full: ((1u32 << n) - 1) as u16,
            col_first,
            col_last,
            nbr,
            dist,
            mirror,
        }
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Cells.
    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// Manhattan distance of tile `t` (0: the gap, never counted) on `cell`.
    #[inline]
    pub fn distance(&self, t: u8, cell: u8) -> u32 {
        self.dist[t as usize][cell as usize] as u32
    }

    /// The cell mirrored about the main diagonal (square boards only).
    #[inline]
    pub fn mirror_cell(&self, cell: u8) -> Option<u8> {
        self.mirror.map(|m| m[cell as usize])
    }

    /// The tile whose goal is the mirror image of tile `t`'s goal (0 stays
    /// 0; square boards only).
    pub fn mirror_tile(&self, t: u8) -> Option<u8> {
        if t == 0 {
            return self.mirror.map(|_| 0);
        }
        self.mirror_cell(t - 1).map(|c| c + 1)
    }

    /// The cells of `free` connected to `seed` (a subset of `free`) by
    /// steps inside `free`.
    #[inline]
    fn flood(&self, seed: u16, free: u16) -> u16 {
        let w = self.width;
        let mut region = seed;
        loop {
            let grown = region
                | (region >> w)
                | (region << w)
                | ((region & !self.col_first) >> 1)
                | ((region & !self.col_last) << 1);
            let grown = grown & free;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }
}

/// `PEXT8[f][c]`: the bits of `c` at the set bits of `f`, packed low
/// (a software parallel-bit-extract for bytes), and `PDEP8[f][b]` its
/// inverse; `POP8[b]`: the set bits of a byte. 64 KiB each, built at
/// compile time: a table lookup beats a loop of popcounts by a wide margin
/// in the database build's inner loop.
static PEXT8: [[u8; 256]; 256] = byte_tables().0;
static PDEP8: [[u8; 256]; 256] = byte_tables().1;
static POP8: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u8).count_ones() as u8;
        i += 1;
    }
    t
};

#[allow(clippy::large_stack_arrays)]
const fn byte_tables() -> ([[u8; 256]; 256], [[u8; 256]; 256]) {
    let mut ext = [[0u8; 256]; 256];
    let mut dep = [[0u8; 256]; 256];
    let mut f = 0;
    while f < 256 {
        let mut c = 0;
        while c < 256 {
            let (mut e, mut d, mut j, mut bit) = (0u8, 0u8, 0, 0);
            while bit < 8 {
                if f >> bit & 1 == 1 {
                    if c >> bit & 1 == 1 {
                        e |= 1 << j;
                    }
                    if c >> j & 1 == 1 {
                        d |= 1 << bit;
                    }
                    j += 1;
                }
                bit += 1;
            }
            ext[f][c] = e;
            dep[f][c] = d;
            c += 1;
        }
        f += 1;
    }
    (ext, dep)
}

/// The cells of `cells` (a subset of `free`) as indices among the set bits
/// of `free`: bit j of the result is the j-th cell of `free`.
#[inline]
fn compress(cells: u16, free: u16) -> u16 {
    let (f0, f1) = ((free & 0xff) as usize, (free >> 8) as usize);
    let lo = PEXT8[f0][(cells & 0xff) as usize] as u16;
    let hi = PEXT8[f1][(cells >> 8) as usize] as u16;
    lo | (hi << POP8[f0])
}

/// The index of `cell` among the set bits of `free` (the cells of `free`
/// below it).
#[inline]
fn index_in(cell: u8, free: u16) -> u32 {
    let below = free & ((1u16 << cell) - 1);
    (POP8[(below & 0xff) as usize] + POP8[(below >> 8) as usize]) as u32
}

/// The inverse of [`compress`]: the cells of `free` whose index is in
/// `bits`.
#[inline]
fn deposit(bits: u16, free: u16) -> u16 {
    let (f0, f1) = ((free & 0xff) as usize, (free >> 8) as usize);
    let n0 = POP8[f0];
    let lo = PDEP8[f0][(bits & 0xff) as usize] as u16;
    let hi = PDEP8[f1][((bits >> n0) & 0xff) as usize] as u16;
    lo | (hi << 8)
}

/// The rank of placement `r` after its item `i` moved from cell `p` to
/// the free cell `q` (`occupied`: the cells of all items before the move,
/// `item_at[c]`: the item on cell c), from the ranks' digits: item i's digit
/// changes by `q - p` less the items before it on cells strictly between p
/// and q, and each later item on such a cell changes its digit by one.
#[inline]
fn moved_rank(
    perms: &Permutations,
    r: u64,
    i: usize,
    p: u8,
    q: u8,
    occupied: u16,
    item_at: &[u8; MAX_CELLS],
) -> u64 {
    let (lo, hi) = if p < q { (p, q) } else { (q, p) };
    let up = p < q;
    let mut between = occupied & (((1u32 << hi) - (1u32 << (lo + 1))) as u16);
    let mut digit = q as i64 - p as i64;
    let mut rank = r;
    while between != 0 {
        let c = between.trailing_zeros() as usize;
        between &= between - 1;
        let j = item_at[c] as usize;
        if j < i {
            digit += if up { -1 } else { 1 };
        } else if up {
            rank += perms.weight(j);
        } else {
            rank -= perms.weight(j);
        }
    }
    rank.wrapping_add((digit * perms.weight(i) as i64) as u64)
}

/// The ranking of placements of `k` distinct tiles on `n` cells (the
/// core's partial permutations: a mixed-radix Lehmer code).
pub fn placements(n: usize, k: usize) -> Permutations {
    Permutations::new(n as u32, k as u32)
}

/// One pattern's table: 4 bits per placement.
#[derive(Debug)]
pub struct PatternTable {
    grid: Grid,
    tiles: Vec<u8>,
    /// `4 * tile` for each tile of the pattern: where its cell sits in a
    /// packed position (see [`PatternDb::excess_packed`]).
    shifts: [u8; MAX_CELLS],
    perms: Permutations,
    table: NibbleTable,
}

impl PatternTable {
    /// The tiles of the pattern, in rank order.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// Entries (placements).
    pub fn len(&self) -> u64 {
        self.perms.count()
    }

    /// Always false (a pattern has at least one tile).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Bytes the table holds.
    pub fn bytes(&self) -> usize {
        self.table.bytes()
    }

    /// (moves - Manhattan distance) / 2 for the placement `cells`
    /// (`cells[i]` the cell of the pattern's i-th tile).
    #[inline]
    pub fn excess(&self, cells: &[u8]) -> u8 {
        self.table.get(self.perms.rank(cells))
    }

    /// Fewest pattern moves for a placement (minimised over the gap).
    pub fn moves(&self, cells: &[u8]) -> u32 {
        let md: u32 = self
            .tiles
            .iter()
            .zip(cells)
            .map(|(&t, &p)| self.grid.distance(t, p))
            .sum();
        md + 2 * self.excess(cells) as u32
    }

    fn new(grid: &Grid, tiles: &[u8], table: NibbleTable) -> PatternTable {
        let mut shifts = [0u8; MAX_CELLS];
        for (s, &t) in shifts.iter_mut().zip(tiles) {
            *s = 4 * t;
        }
        PatternTable {
            grid: grid.clone(),
            tiles: tiles.to_vec(),
            shifts,
            perms: placements(grid.cells(), tiles.len()),
            table,
        }
    }

    /// Builds the table by the core's 0-1 breadth-first search
    /// ([`fill_zero_one`]) backwards from the goal (tiles home, the gap on
    /// the last cell); see the module docs. `progress` sees the
    /// placements reached so far after each layer.
    ///
    /// # Panics
    /// When `tiles` is empty, holds a tile twice or a tile not on the
    /// board, or leaves no cell free.
    pub fn build(grid: &Grid, tiles: &[u8], progress: &(dyn Fn(u64) + Sync)) -> PatternTable {
        let n = grid.cells();
        assert!(
            !tiles.is_empty() && tiles.len() < n,
            "a pattern of 1 to n-2 tiles"
        );
        let mut seen = 0u32;
        for &t in tiles {
            assert!(
                t >= 1 && (t as usize) < n && seen & (1 << t) == 0,
                "bad pattern {tiles:?}"
            );
            seen |= 1 << t;
        }
        if n - tiles.len() <= 8 {
            Self::build_with::<8>(grid, tiles, progress)
        } else {
            Self::build_with::<16>(grid, tiles, progress)
        }
    }

    fn build_with<const BITS: u32>(
        grid: &Grid,
        tiles: &[u8],
        progress: &(dyn Fn(u64) + Sync),
    ) -> PatternTable {
        let k = tiles.len();
        let perms = placements(grid.cells(), k);
        let table = NibbleTable::new(perms.count());
        let goal: Vec<u8> = tiles.iter().map(|&t| t - 1).collect();
        let goal_free = grid.full & !goal.iter().fold(0u16, |m, &c| m | 1 << c);
        let gap_home = 1u16 << (grid.cells() - 1);
        let start = Step {
            rank: perms.rank(&goal),
            set: compress(grid.flood(gap_home, goal_free), goal_free),
        };
        fill_zero_one::<BITS, _, _>(
            perms.count(),
            &[start],
            |r, set, out| {
                let mut cells = [0u8; MAX_CELLS];
                let cells = &mut cells[..k];
                perms.unrank_into(r, cells);
                let mut item_at = [0u8; MAX_CELLS];
                for (i, &c) in cells.iter().enumerate() {
                    item_at[c as usize] = i as u8;
                }
                let occupied = cells.iter().fold(0u16, |m, &c| m | 1 << c);
                let free = grid.full & !occupied;
                let mut gaps = deposit(set, free);
                let mut closed = 0u16;
                while gaps != 0 {
                    // One region of the gap; the others come next.
                    let region = grid.flood(gaps & gaps.wrapping_neg(), free);
                    gaps &= !region;
                    closed |= region;
                    for (i, &p) in cells.iter().enumerate() {
                        let mut into = grid.nbr[p as usize] & region;
                        while into != 0 {
                            let q = into.trailing_zeros() as u8;
                            into &= into - 1;
                            // Tile i steps from p into the gap on q; the
                            // gap is then on p (its region is closed when
                            // the child is expanded).
                            let free2 = free ^ (1 << p) ^ (1 << q);
                            out.push(Step {
                                rank: moved_rank(&perms, r, i, p, q, occupied, &item_at),
                                set: 1 << index_in(p, free2),
                            });
                        }
                    }
                }
                compress(closed, free)
            },
            |first, depths| {
                // Sequential writes: one chunk of ranks, one run of words;
                // the placements stepped through in rank order.
                let mut cells = [0u8; MAX_CELLS];
                let cells = &mut cells[..k];
                perms.unrank_into(first, cells);
                for (j, &depth) in depths.iter().enumerate() {
                    if j > 0 {
                        perms.advance(cells);
                    }
                    if depth == UNREACHED {
                        continue;
                    }
                    let md: u32 = tiles
                        .iter()
                        .zip(cells.iter())
                        .map(|(&t, &c)| grid.distance(t, c))
                        .sum();
                    let depth = depth as u32;
                    debug_assert!(depth >= md && (depth - md).is_multiple_of(2));
                    let excess = ((depth - md) / 2).min(15) as u8;
                    if excess < NibbleTable::MAX {
                        table.claim(first + j as u64, NibbleTable::MAX, excess);
                    }
                }
            },
            |layer| progress(layer.known_ranks),
        );
        PatternTable::new(grid, tiles, table)
    }

    /// The file name of this pattern's table in the cache folder (the
    /// board size, `gap` for tables that keep the gap, the tiles).
    pub fn file_name(grid: &Grid, tiles: &[u8]) -> String {
        let t: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
        format!(
            "fifteen-{}x{}-gap-pdb-{}.nib",
            grid.width,
            grid.height,
            t.join("-")
        )
    }

    /// Writes the table (the core's format: header with the entry count
    /// and a checksum, then the nibbles; atomically renamed into place).
    pub fn save(&self, path: &Path) -> Result<(), PdbError> {
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).map_err(|source| PdbError::Io {
                path: dir.to_path_buf(),
                source,
            })?;
        }
        Ok(self.table.save(path)?)
    }

    /// Loads a table saved by [`PatternTable::save`], checking that it has
    /// the entry count of `tiles` on `grid` and that its checksum matches.
    pub fn load(path: &Path, grid: &Grid, tiles: &[u8]) -> Result<PatternTable, PdbError> {
        let perms = placements(grid.cells(), tiles.len());
        let table = NibbleTable::load_expecting(path, perms.count())?;
        Ok(PatternTable::new(grid, tiles, table))
    }
}

/// The tables of one partition plus the facts the search needs to update
/// the bound one tile at a time.
#[derive(Debug)]
pub struct PatternDb {
    grid: Grid,
    name: String,
    tables: Vec<PatternTable>,
    /// Which table each tile is in.
    part_of: [u8; MAX_CELLS],
    /// Which table the mirror image of each tile is in (square boards).
    mirror_part_of: [u8; MAX_CELLS],
    /// For table i, `4 * u` for each tile u of the real board whose mirror
    /// image is table i's j-th tile (square boards).
    mirrored_shifts: Vec<[u8; MAX_CELLS]>,
}

/// What [`PatternDb::open`] did.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct OpenReport {
    /// Tables built now (they were missing or damaged).
    pub built: usize,
    /// Time spent building.
    pub build_time: Duration,
    /// Time spent loading.
    pub load_time: Duration,
    /// Bytes of all tables.
    pub bytes: usize,
    /// Files found damaged and rebuilt, with why.
    pub rebuilt_damaged: Vec<String>,
}

impl PatternDb {
    /// Builds the tables of a 4x4 partition in memory (no files).
    pub fn build(partition: Partition) -> PatternDb {
        PatternDb::build_patterns(4, 4, &partition.patterns())
    }

    /// Builds the tables of any disjoint patterns on a `width` x `height`
    /// board of at most 16 cells, in memory (tests, small boards).
    ///
    /// # Panics
    /// On a board too large or patterns that overlap.
    pub fn build_patterns(width: usize, height: usize, patterns: &[Vec<u8>]) -> PatternDb {
        let grid = Grid::new(width, height);
        let tables = patterns
            .iter()
            .map(|t| PatternTable::build(&grid, t, &|_| {}))
            .collect();
        let name = patterns
            .iter()
            .map(|p| p.len().to_string())
            .collect::<Vec<_>>()
            .join("-");
        PatternDb::from_tables(grid, name, tables)
    }

    /// Loads each table of a 4x4 partition from `dir`, building (with a
    /// progress bar on stderr) and saving any that is missing or damaged.
    pub fn open(partition: Partition, dir: &Path) -> Result<(PatternDb, OpenReport), PdbError> {
        let grid = Grid::new(4, 4);
        let mut report = OpenReport::default();
        let mut tables = Vec::new();
        for tiles in partition.patterns() {
            let path = dir.join(PatternTable::file_name(&grid, &tiles));
            let t0 = Instant::now();
            if path.exists() {
                match PatternTable::load(&path, &grid, &tiles) {
                    Ok(t) => {
                        report.load_time += t0.elapsed();
                        tables.push(t);
                        continue;
                    }
                    // Not a regular file: not ours to replace.
                    Err(e @ PdbError::Table(TableError::File(_))) => return Err(e),
                    Err(e) => {
                        log::warn!("{e}; rebuilding it");
                        report.rebuilt_damaged.push(e.to_string());
                    }
                }
            }
            let t0 = Instant::now();
            let n = placements(grid.cells(), tiles.len()).count();
            let bar = indicatif::ProgressBar::new(n);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{msg} [{elapsed_precise}] {wide_bar} {pos}/{len} placements",
                )
                .expect("a valid template"),
            );
            bar.set_message(format!(
                "building pattern database {}",
                PatternTable::file_name(&grid, &tiles)
            ));
            let table = PatternTable::build(&grid, &tiles, &|done| {
                bar.set_position(done);
                log::debug!(
                    "{:.1} s: {done} of {n} placements reached",
                    t0.elapsed().as_secs_f64()
                );
            });
            bar.finish_and_clear();
            table.save(&path)?;
            report.built += 1;
            report.build_time += t0.elapsed();
            log::info!(
                "built {} ({} entries) in {:.1} s",
                path.display(),
                n,
                t0.elapsed().as_secs_f64()
            );
            tables.push(table);
        }
        report.bytes = tables.iter().map(|t| t.bytes()).sum();
        Ok((
            PatternDb::from_tables(grid, partition.name().to_string(), tables),
            report,
        ))
    }

    fn from_tables(grid: Grid, name: String, tables: Vec<PatternTable>) -> PatternDb {
        let mut part_of = [u8::MAX; MAX_CELLS];
        for (i, t) in tables.iter().enumerate() {
            for &tile in t.tiles() {
                assert_eq!(
                    part_of[tile as usize],
                    u8::MAX,
                    "patterns overlap on {tile}"
                );
                part_of[tile as usize] = i as u8;
            }
        }
        let mut mirror_part_of = [u8::MAX; MAX_CELLS];
        let mut mirrored_shifts = Vec::new();
        if grid.mirror.is_some() {
            for t in 1..grid.cells() as u8 {
                let m = grid.mirror_tile(t).expect("square");
                mirror_part_of[t as usize] = part_of[m as usize];
            }
            for t in &tables {
                let mut s = [0u8; MAX_CELLS];
                for (slot, &u) in s.iter_mut().zip(t.tiles()) {
                    // The mirror image of tile mirror(u) is u.
                    *slot = 4 * grid.mirror_tile(u).expect("square");
                }
                mirrored_shifts.push(s);
            }
        }
        PatternDb {
            grid,
            name,
            tables,
            part_of,
            mirror_part_of,
            mirrored_shifts,
        }
    }

    /// The partition's name (`78`, `663`, `555`, or the pattern sizes).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The board geometry the tables are for.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// Number of tables.
    pub fn parts(&self) -> usize {
        self.tables.len()
    }

    /// The tables.
    pub fn tables(&self) -> &[PatternTable] {
        &self.tables
    }

    /// True when the mirrored lookup is used (square boards).
    pub fn mirrored(&self) -> bool {
        self.grid.mirror.is_some()
    }

    /// Table index of tile `t` (u8::MAX for a tile in no pattern).
    #[inline]
    pub fn part_of(&self, t: u8) -> usize {
        self.part_of[t as usize] as usize
    }

    /// Table index of the mirror image of tile `t` (square boards).
    #[inline]
    pub fn mirror_part_of(&self, t: u8) -> usize {
        self.mirror_part_of[t as usize] as usize
    }

    /// The excess (pairs of moves beyond Manhattan) of table `i` for the
    /// packed position `pos` (the cell of tile t in bits `4t..4t+4`).
    #[inline]
    pub fn excess_packed(&self, i: usize, pos: u64) -> u8 {
        let t = &self.tables[i];
        let r = t.perms.rank_by(|j| ((pos >> t.shifts[j]) & 15) as u8);
        t.table.get(r)
    }

    /// The same for the position mirrored about the main diagonal (square
    /// boards).
    #[inline]
    pub fn excess_mirrored_packed(&self, i: usize, pos: u64) -> u8 {
        let t = &self.tables[i];
        let s = &self.mirrored_shifts[i];
        let m = self.grid.mirror.as_ref().expect("square");
        let r = t.perms.rank_by(|j| m[((pos >> s[j]) & 15) as usize]);
        t.table.get(r)
    }

    /// The packed position of a board (cell of tile t in bits `4t..`).
    pub fn pack(board: &Board) -> u64 {
        let mut pos = 0u64;
        for (c, &t) in board.cells().iter().enumerate() {
            pos |= (c as u64) << (4 * t);
        }
        pos
    }

    /// The bound for a board: Manhattan distance plus twice the larger of
    /// the sums of excesses, direct and mirrored.
    pub fn bound(&self, board: &Board) -> u32 {
        assert_eq!(board.cells().len(), self.grid.cells());
        let pos = PatternDb::pack(board);
        let md: u32 = board
            .cells()
            .iter()
            .enumerate()
            .map(|(c, &t)| self.grid.distance(t, c as u8))
            .sum();
        let a: u32 = (0..self.parts())
            .map(|i| self.excess_packed(i, pos) as u32)
            .sum();
        let b: u32 = if self.mirrored() {
            (0..self.parts())
                .map(|i| self.excess_mirrored_packed(i, pos) as u32)
                .sum()
        } else {
            0
        };
        md + 2 * a.max(b)
    }
}

/// The cache folder: `$XDG_CACHE_HOME/gridbot`, else `~/.cache/gridbot`.
pub fn cache_dir() -> Result<PathBuf, PdbError> {
    if let Some(x) = std::env::var_os("XDG_CACHE_HOME").filter(|x| !x.is_empty()) {
        return Ok(PathBuf::from(x).join("gridbot"));
    }
    match std::env::var_os("HOME").filter(|x| !x.is_empty()) {
        Some(h) => Ok(PathBuf::from(h).join(".cache").join("gridbot")),
        None => Err(PdbError::NoCacheDir),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{HashMap, VecDeque};

    #[test]
    fn sizes() {
        assert_eq!(placements(16, 3).count(), 3360);
        assert_eq!(placements(16, 8).count(), 518_918_400);
    }

    #[test]
    fn mirror_is_an_involution() {
        let g = Grid::new(4, 4);
        for c in 0..16 {
            assert_eq!(g.mirror_cell(g.mirror_cell(c).unwrap()), Some(c));
        }
        assert_eq!(g.mirror_tile(2), Some(5));
        assert_eq!(g.mirror_tile(15), Some(12));
        assert_eq!(g.mirror_tile(1), Some(1));
        assert_eq!(Grid::new(4, 2).mirror_tile(2), None);
    }

    #[test]
    fn compress_and_deposit_are_inverse() {
        let free = 0b1011_0110_0101_1000u16;
        for bits in 0u16..(1 << free.count_ones()) {
            let cells = deposit(bits, free);
            assert_eq!(cells & !free, 0);
            assert_eq!(compress(cells, free), bits);
        }
    }

    #[test]
    fn moved_rank_matches_ranking_again() {
        let grid = Grid::new(4, 4);
        let perms = placements(16, 6);
        let mut rng = 5u64;
        for _ in 0..2000 {
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let r = (rng >> 20) % perms.count();
            let mut cells = perms.unrank(r);
            let mut item_at = [0u8; MAX_CELLS];
            for (i, &c) in cells.iter().enumerate() {
                item_at[c as usize] = i as u8;
            }
            let occupied = cells.iter().fold(0u16, |m, &c| m | 1 << c);
            for i in 0..cells.len() {
                let p = cells[i];
                let mut into = grid.nbr[p as usize] & !occupied;
                while into != 0 {
                    let q = into.trailing_zeros() as u8;
                    into &= into - 1;
                    cells[i] = q;
                    let want = perms.rank(&cells);
                    cells[i] = p;
                    assert_eq!(moved_rank(&perms, r, i, p, q, occupied, &item_at), want);
                }
            }
        }
    }

    #[test]
    fn flood_stays_in_its_region() {
        let g = Grid::new(4, 4);
        // Free: the left column and the right column; the middle is full.
        let free = 0b1001_1001_1001_1001u16;
        assert_eq!(g.flood(1, free), 0b0001_0001_0001_0001);
        assert_eq!(g.flood(1 << 15, free), 0b1000_1000_1000_1000);
    }

    /// The definition, by a plain 0-1 BFS over (pattern cells, gap cell).
    fn reference(grid: &Grid, tiles: &[u8]) -> HashMap<Vec<u8>, u32> {
        let n = grid.cells() as u8;
        let mut goal: Vec<u8> = tiles.iter().map(|t| t - 1).collect();
        goal.push(n - 1);
        let mut dist: HashMap<Vec<u8>, u32> = HashMap::new();
        let mut dq = VecDeque::from([(goal, 0u32)]);
        while let Some((s, d)) = dq.pop_front() {
            if dist.get(&s).is_some_and(|&e| e <= d) {
                continue;
            }
            dist.insert(s.clone(), d);
            let gap = *s.last().unwrap();
            for q in 0..n {
                if grid.nbr[gap as usize] & (1 << q) == 0 {
                    continue;
                }
                let mut t = s.clone();
                *t.last_mut().unwrap() = q;
                match s[..tiles.len()].iter().position(|&c| c == q) {
                    Some(i) => {
                        t[i] = gap;
                        dq.push_back((t, d + 1));
                    }
                    None => dq.push_front((t, d)),
                }
            }
        }
        let mut best: HashMap<Vec<u8>, u32> = HashMap::new();
        for (s, d) in dist {
            let e = best.entry(s[..tiles.len()].to_vec()).or_insert(d);
            *e = (*e).min(d);
        }
        best
    }

    #[test]
    fn tables_match_their_definition() {
        for (w, h, tiles) in [
            (3usize, 3usize, vec![1u8, 2, 3, 4]),
            (3, 3, vec![5, 6, 7, 8]),
            (3, 3, vec![2, 4, 6]),
            (4, 2, vec![1, 2, 5, 6, 7]),
            (4, 3, vec![1, 5, 9]),
        ] {
            let grid = Grid::new(w, h);
            let t = PatternTable::build(&grid, &tiles, &|_| {});
            let want = reference(&grid, &tiles);
            assert_eq!(
                want.len() as u64,
                t.len(),
                "{w}x{h} {tiles:?}: all placements"
            );
            for (cells, d) in want {
                assert_eq!(t.moves(&cells), d, "{w}x{h} {tiles:?} at {cells:?}");
            }
        }
        // One tile: its Manhattan distance. Two tiles swapped in place
        // need a detour: 1 and 2 on each other's cells cost 4 moves.
        let grid = Grid::new(4, 4);
        let t = PatternTable::build(&grid, &[6], &|_| {});
        for p in 0..16u8 {
            assert_eq!(t.moves(&[p]), grid.distance(6, p));
        }
        let t = PatternTable::build(&grid, &[1, 2], &|_| {});
        assert_eq!(t.moves(&[1, 0]), 4);
        assert_eq!(t.moves(&[0, 1]), 0);
    }

    #[test]
    fn save_load_and_damage() {
        let dir = std::env::temp_dir().join(format!("gridbot-pdb-test-{}", std::process::id()));
        let grid = Grid::new(4, 4);
        let tiles = [1u8, 2, 5, 6, 9];
        let t = PatternTable::build(&grid, &tiles, &|_| {});
        let path = dir.join(PatternTable::file_name(&grid, &tiles));
        t.save(&path).unwrap();
        let l = PatternTable::load(&path, &grid, &tiles).unwrap();
        for r in (0..t.len()).step_by(97) {
            assert_eq!(l.table.get(r), t.table.get(r));
        }
        // Wrong shape.
        assert!(matches!(
            PatternTable::load(&path, &grid, &[1, 2, 5, 6]),
            Err(PdbError::Table(TableError::Size { .. }))
        ));
        // A flipped byte.
        let mut data = fs::read(&path).unwrap();
        let last = data.len() - 5;
        data[last] ^= 0x10;
        fs::write(&path, &data).unwrap();
        let e = PatternTable::load(&path, &grid, &tiles)
            .unwrap_err()
            .to_string();
        assert!(e.contains("checksum"), "{e}");
        // A cut file.
        fs::write(&path, &data[..data.len() / 2]).unwrap();
        let e = PatternTable::load(&path, &grid, &tiles)
            .unwrap_err()
            .to_string();
        assert!(e.contains("wrong size"), "{e}");
        // open() rebuilds it, says so, and the rebuilt table is the right one.
        let (db, rep) = PatternDb::open(Partition::P555, &dir).unwrap();
        assert_eq!(rep.built, 3);
        assert_eq!(rep.rebuilt_damaged.len(), 1);
        assert_eq!(db.parts(), 3);
        let again = PatternTable::load(&path, &grid, &tiles).unwrap();
        assert!((0..t.len()).all(|r| again.table.get(r) == t.table.get(r)));
        let (_, rep) = PatternDb::open(Partition::P555, &dir).unwrap();
        assert_eq!(rep.built, 0);
        fs::remove_dir_all(&dir).unwrap();
    }
}
