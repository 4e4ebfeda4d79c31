//! Additive disjoint pattern databases for the 4x4 board (Korf and Felner
//! 2002; Felner, Korf and Hanan 2004).
//!
//! The tiles are split into disjoint patterns (7-8, 6-6-3 or 5-5-5). For
//! one pattern, the database holds for every placement of its tiles the
//! fewest moves OF THOSE TILES that bring them all home, the other tiles
//! being indistinguishable and the gap free to be anywhere (a pattern tile
//! may step into any neighbouring cell no pattern tile holds). Only pattern
//! moves count, so the values of disjoint patterns add up to an admissible
//! bound. The larger of that sum and the sum for the position mirrored
//! about the main diagonal (tiles relabelled, see
//! [`super::rules::Board::transposed`]) is used, as in the 2004 paper.
//!
//! Each table is filled by a breadth-first search backwards from the goal
//! over ranked partial permutations (a placement of k tiles on 16 cells is
//! a number below 16!/(16-k)!), layer by layer, in parallel with rayon.
//! An entry's distance d always has the parity of the pattern's Manhattan
//! distance m, so the table stores (d - m) / 2 in 4 bits (clamped at 15,
//! which stays admissible); the search adds the Manhattan distance back.
//! Tables are saved in the cache folder with a checksum, and rebuilt when a
//! file is missing, of the wrong shape or damaged: never trusted.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::solver::rank::Permutations;
use crate::solver::retrograde::{fill_distances, ByteTable, NibbleTable, TableError};

/// Cells on the board the databases are for.
pub const CELLS: usize = 16;
const SIDE: usize = 4;

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

/// The ranking of placements of `k` distinct tiles on the 16 cells (the
/// core's partial permutations: a mixed-radix Lehmer code).
pub fn placements(k: usize) -> Permutations {
    Permutations::new(CELLS as u32, k as u32)
}

/// One pattern's table: 4 bits per placement.
#[derive(Debug)]
pub struct PatternTable {
    tiles: Vec<u8>,
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

    /// Fewest pattern moves for a placement.
    pub fn moves(&self, cells: &[u8]) -> u32 {
        let md: u32 = self
            .tiles
            .iter()
            .zip(cells)
            .map(|(&t, &p)| manhattan(t, p))
            .sum();
        md + 2 * self.excess(cells) as u32
    }

    /// Builds the table by the core's parallel backward breadth-first
    /// search ([`fill_distances`], exact depths in a byte table) from the
    /// goal placement; each entry's excess is written to the nibble table
    /// when the search expands it. `progress` sees the entries done.
    pub fn build(tiles: &[u8], progress: &(dyn Fn(u64) + Sync)) -> PatternTable {
        let k = tiles.len();
        let perms = placements(k);
        let depth = ByteTable::new(perms.count());
        let table = NibbleTable::new(perms.count());
        let goal: Vec<u8> = tiles.iter().map(|&t| t - 1).collect();
        let done = AtomicU64::new(0);
        fill_distances(
            &depth,
            &[perms.rank(&goal)],
            |r, out| {
                let mut cells = [0u8; CELLS];
                let cells = &mut cells[..k];
                perms.unrank_into(r, cells);
                let d = depth.get(r) as u32;
                let md: u32 = tiles
                    .iter()
                    .zip(cells.iter())
                    .map(|(&t, &p)| manhattan(t, p))
                    .sum();
                let excess = ((d - md) / 2).min(15) as u8;
                if excess < NibbleTable::MAX {
                    table.claim(r, NibbleTable::MAX, excess);
                }
                let mut occupied: u32 = 0;
                for &p in cells.iter() {
                    occupied |= 1 << p;
                }
                for i in 0..k {
                    let p = cells[i] as usize;
                    for q in neighbours(p) {
                        if occupied & (1 << q) == 0 {
                            cells[i] = q as u8;
                            out.push(perms.rank(cells));
                        }
                    }
                    cells[i] = p as u8;
                }
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                if n.is_multiple_of(1 << 16) {
                    progress(n);
                }
            },
            |_| {},
        );
        PatternTable {
            tiles: tiles.to_vec(),
            perms,
            table,
        }
    }

    /// The file name of this pattern's table in the cache folder.
    pub fn file_name(tiles: &[u8]) -> String {
        let t: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
        format!("fifteen-4x4-pdb-{}.nib", t.join("-"))
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
    /// the entry count of `tiles` and that its checksum matches.
    pub fn load(path: &Path, tiles: &[u8]) -> Result<PatternTable, PdbError> {
        let perms = placements(tiles.len());
        let table = NibbleTable::load_expecting(path, perms.count())?;
        Ok(PatternTable {
            tiles: tiles.to_vec(),
            perms,
            table,
        })
    }
}

#[inline]
fn manhattan(t: u8, p: u8) -> u32 {
    let g = t as usize - 1;
    let (gr, gc) = (g / SIDE, g % SIDE);
    let (r, c) = (p as usize / SIDE, p as usize % SIDE);
    (gr.abs_diff(r) + gc.abs_diff(c)) as u32
}

fn neighbours(p: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (p / SIDE, p % SIDE);
    let up = (r > 0).then(|| p - SIDE);
    let down = (r + 1 < SIDE).then(|| p + SIDE);
    let left = (c > 0).then(|| p - 1);
    let right = (c + 1 < SIDE).then(|| p + 1);
    [up, down, left, right].into_iter().flatten()
}

/// The cell mirrored about the main diagonal.
#[inline]
pub fn mirror(cell: usize) -> usize {
    (cell % SIDE) * SIDE + cell / SIDE
}

/// The tile whose goal is the mirror of tile `t`'s goal (0 stays 0).
#[inline]
pub fn mirror_tile(t: u8) -> u8 {
    if t == 0 {
        0
    } else {
        mirror(t as usize - 1) as u8 + 1
    }
}

/// The tables of one partition plus the facts the search needs to update
/// the bound one tile at a time.
#[derive(Debug)]
pub struct PatternDb {
    partition: Partition,
    tables: Vec<PatternTable>,
    /// Which table each tile is in.
    part_of: [u8; CELLS],
    /// For table i, the tiles of the real board whose mirror images are
    /// table i's tiles, in the table's order.
    mirrored_tiles: Vec<Vec<u8>>,
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
    /// Builds the tables in memory (no files).
    pub fn build(partition: Partition) -> PatternDb {
        let tables = partition
            .patterns()
            .iter()
            .map(|t| PatternTable::build(t, &|_| {}))
            .collect();
        PatternDb::from_tables(partition, tables)
    }

    /// Loads each table from `dir`, building (with a progress bar on
    /// stderr) and saving any that is missing or damaged.
    pub fn open(partition: Partition, dir: &Path) -> Result<(PatternDb, OpenReport), PdbError> {
        let mut report = OpenReport::default();
        let mut tables = Vec::new();
        for tiles in partition.patterns() {
            let path = dir.join(PatternTable::file_name(&tiles));
            let t0 = Instant::now();
            if path.exists() {
                match PatternTable::load(&path, &tiles) {
                    Ok(t) => {
                        report.load_time += t0.elapsed();
                        tables.push(t);
                        continue;
                    }
                    Err(e) => {
                        log::warn!("{e}; rebuilding it");
                        report.rebuilt_damaged.push(e.to_string());
                    }
                }
            }
            let t0 = Instant::now();
            let n = placements(tiles.len()).count();
            let bar = indicatif::ProgressBar::new(n);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{msg} [{elapsed_precise}] {wide_bar} {pos}/{len} ({eta})",
                )
                .expect("a valid template"),
            );
            bar.set_message(format!(
                "building pattern database {}",
                PatternTable::file_name(&tiles)
            ));
            let table = PatternTable::build(&tiles, &|done| bar.set_position(done));
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
        Ok((PatternDb::from_tables(partition, tables), report))
    }

    fn from_tables(partition: Partition, tables: Vec<PatternTable>) -> PatternDb {
        let mut part_of = [u8::MAX; CELLS];
        for (i, t) in tables.iter().enumerate() {
            for &tile in t.tiles() {
                part_of[tile as usize] = i as u8;
            }
        }
        let mirrored_tiles = tables
            .iter()
            .map(|t| t.tiles().iter().map(|&u| mirror_tile(u)).collect())
            .collect();
        PatternDb {
            partition,
            tables,
            part_of,
            mirrored_tiles,
        }
    }

    /// The partition.
    pub fn partition(&self) -> Partition {
        self.partition
    }

    /// Number of tables.
    pub fn parts(&self) -> usize {
        self.tables.len()
    }

    /// Table index of tile `t` (1..=15).
    #[inline]
    pub fn part_of(&self, t: u8) -> usize {
        self.part_of[t as usize] as usize
    }

    /// The excess (in pairs of moves beyond Manhattan) of table `i` for the
    /// position whose tile t stands on `pos[t]`.
    #[inline]
    pub fn excess(&self, i: usize, pos: &[u8]) -> u8 {
        let t = &self.tables[i];
        let mut cells = [0u8; CELLS];
        for (j, &tile) in t.tiles.iter().enumerate() {
            cells[j] = pos[tile as usize];
        }
        t.excess(&cells[..t.tiles.len()])
    }

    /// The same for the mirrored position.
    #[inline]
    pub fn excess_mirrored(&self, i: usize, pos: &[u8]) -> u8 {
        let t = &self.tables[i];
        let mut cells = [0u8; CELLS];
        for (j, &orig) in self.mirrored_tiles[i].iter().enumerate() {
            cells[j] = mirror(pos[orig as usize] as usize) as u8;
        }
        t.excess(&cells[..t.tiles.len()])
    }

    /// The bound for a position given by the cell of each tile (`pos[t]`,
    /// t in 1..=15) and its Manhattan distance: `md + 2 * max(sum of
    /// excesses, sum of mirrored excesses)`.
    pub fn bound(&self, pos: &[u8], md: u32) -> u32 {
        let (mut a, mut b) = (0u32, 0u32);
        for i in 0..self.tables.len() {
            a += self.excess(i, pos) as u32;
            b += self.excess_mirrored(i, pos) as u32;
        }
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

    #[test]
    fn sizes() {
        assert_eq!(placements(3).count(), 3360);
        assert_eq!(placements(8).count(), 518_918_400);
    }

    #[test]
    fn mirror_is_an_involution() {
        for c in 0..16 {
            assert_eq!(mirror(mirror(c)), c);
        }
        assert_eq!(mirror_tile(2), 5);
        assert_eq!(mirror_tile(15), 12);
        assert_eq!(mirror_tile(1), 1);
    }

    #[test]
    fn small_table_matches_its_definition() {
        // One tile: the table is its Manhattan distance (excess 0).
        let t = PatternTable::build(&[6], &|_| {});
        for p in 0..16u8 {
            assert_eq!(t.moves(&[p]), manhattan(6, p));
        }
        // Two tiles swapped in place need a detour: 1 and 2 on each
        // other's cells cost 4 moves of those two tiles (one steps aside).
        let t = PatternTable::build(&[1, 2], &|_| {});
        assert_eq!(t.moves(&[1, 0]), 4);
        assert_eq!(t.moves(&[0, 1]), 0);
    }

    #[test]
    fn save_load_and_damage() {
        let dir = std::env::temp_dir().join(format!("gridbot-pdb-test-{}", std::process::id()));
        let tiles = [1u8, 2, 5, 6, 9];
        let t = PatternTable::build(&tiles, &|_| {});
        let path = dir.join(PatternTable::file_name(&tiles));
        t.save(&path).unwrap();
        let l = PatternTable::load(&path, &tiles).unwrap();
        for r in (0..t.len()).step_by(97) {
            assert_eq!(l.table.get(r), t.table.get(r));
        }
        // Wrong shape.
        assert!(matches!(
            PatternTable::load(&path, &[1, 2, 5, 6]),
            Err(PdbError::Table(TableError::Size { .. }))
        ));
        // A flipped byte.
        let mut data = fs::read(&path).unwrap();
        let last = data.len() - 5;
        data[last] ^= 0x10;
        fs::write(&path, &data).unwrap();
        let e = PatternTable::load(&path, &tiles).unwrap_err().to_string();
        assert!(e.contains("checksum"), "{e}");
        // A cut file.
        fs::write(&path, &data[..data.len() / 2]).unwrap();
        let e = PatternTable::load(&path, &tiles).unwrap_err().to_string();
        assert!(e.contains("wrong size"), "{e}");
        // open() rebuilds it and says so.
        let (db, rep) = PatternDb::open(Partition::P555, &dir).unwrap();
        assert_eq!(rep.built, 3);
        assert_eq!(rep.rebuilt_damaged.len(), 1);
        assert_eq!(db.parts(), 3);
        let (_, rep) = PatternDb::open(Partition::P555, &dir).unwrap();
        assert_eq!(rep.built, 0);
        fs::remove_dir_all(&dir).unwrap();
    }
}
