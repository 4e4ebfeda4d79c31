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
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

/// Cells on the board the databases are for.
pub const CELLS: usize = 16;
const SIDE: usize = 4;
const UNSEEN: u8 = 0xFF;

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
    /// Reading or writing the file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file is not a complete, intact table of the expected shape.
    #[error("{path}: damaged pattern database: {why}")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What did not match.
        why: String,
    },
    /// No cache folder could be found.
    #[error("no cache folder: neither XDG_CACHE_HOME nor HOME is set")]
    NoCacheDir,
}

/// The number of placements of `k` distinct tiles on 16 cells.
pub fn placements(k: usize) -> u64 {
    (0..k).map(|i| (CELLS - i) as u64).product()
}

/// The rank of a placement: `cells[i]` is the cell of the i-th tile. A
/// mixed-radix Lehmer code, `0..placements(k)`.
#[inline]
pub fn rank(cells: &[u8]) -> u64 {
    let mut used: u32 = 0;
    let mut r: u64 = 0;
    for (i, &p) in cells.iter().enumerate() {
        let below = (used & ((1u32 << p) - 1)).count_ones();
        r = r * (CELLS - i) as u64 + (p as u32 - below) as u64;
        used |= 1 << p;
    }
    r
}

/// The inverse of [`rank`] for `out.len()` tiles.
pub fn unrank(mut r: u64, out: &mut [u8]) {
    let k = out.len();
    let mut digits = [0u8; CELLS];
    for i in (0..k).rev() {
        let base = (CELLS - i) as u64;
        digits[i] = (r % base) as u8;
        r /= base;
    }
    let mut used: u32 = 0;
    for i in 0..k {
        // The digits[i]-th free cell.
        let mut free = !used & 0xFFFF;
        for _ in 0..digits[i] {
            free &= free - 1;
        }
        let p = free.trailing_zeros();
        out[i] = p as u8;
        used |= 1 << p;
    }
}

/// One pattern's table: 4 bits per placement.
#[derive(Debug, Clone)]
pub struct PatternTable {
    tiles: Vec<u8>,
    nibbles: Vec<u8>,
}

impl PatternTable {
    /// The tiles of the pattern, in rank order.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// Entries (placements).
    pub fn len(&self) -> u64 {
        placements(self.tiles.len())
    }

    /// Always false (a pattern has at least one tile).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Bytes the table holds.
    pub fn bytes(&self) -> usize {
        self.nibbles.len()
    }

    /// (moves - Manhattan distance) / 2 for the placement of rank `r`.
    #[inline]
    pub fn excess(&self, r: u64) -> u8 {
        let b = self.nibbles[(r >> 1) as usize];
        (b >> ((r & 1) * 4)) & 15
    }

    /// Fewest pattern moves for a placement (`cells[i]` the cell of the
    /// pattern's i-th tile).
    pub fn moves(&self, cells: &[u8]) -> u32 {
        let md: u32 = self
            .tiles
            .iter()
            .zip(cells)
            .map(|(&t, &p)| manhattan(t, p))
            .sum();
        md + 2 * self.excess(rank(cells)) as u32
    }

    /// Builds the table by breadth-first search from the goal placement
    /// (in parallel on rayon's pool), reporting progress to `progress`
    /// with the entries done so far.
    pub fn build(tiles: &[u8], progress: &(dyn Fn(u64) + Sync)) -> PatternTable {
        let k = tiles.len();
        let n = placements(k);
        let words = n.div_ceil(8) as usize;
        // Exact depth per entry, 8 per word; UNSEEN until reached.
        let depth: Vec<AtomicU64> = (0..words).map(|_| AtomicU64::new(u64::MAX)).collect();
        let nib: Vec<AtomicU64> = (0..n.div_ceil(16) as usize)
            .map(|_| AtomicU64::new(0))
            .collect();
        let goal: Vec<u8> = tiles.iter().map(|&t| t - 1).collect();
        let g = rank(&goal);
        claim(&depth, g, 0);
        let done = AtomicU64::new(0);
        let mut d: u8 = 0;
        loop {
            let found = AtomicU64::new(0);
            depth
                .par_chunks(1 << 14)
                .enumerate()
                .for_each(|(chunk, ws)| {
                    let mut cells = [0u8; CELLS];
                    let cells = &mut cells[..k];
                    let mut expanded = 0u64;
                    let mut new = 0u64;
                    let pattern = u64::from_ne_bytes([d; 8]);
                    for (wi, w) in ws.iter().enumerate() {
                        let word = w.load(Ordering::Relaxed);
                        if !has_byte(word, pattern) {
                            continue;
                        }
                        for b in 0..8 {
                            if (word >> (b * 8)) as u8 != d {
                                continue;
                            }
                            let r = (((chunk << 14) + wi) * 8 + b) as u64;
                            if r >= n {
                                continue;
                            }
                            expanded += 1;
                            unrank(r, cells);
                            let md: u32 = tiles
                                .iter()
                                .zip(cells.iter())
                                .map(|(&t, &p)| manhattan(t, p))
                                .sum();
                            let excess = ((d as u32 - md) / 2).min(15) as u64;
                            nib[(r >> 4) as usize]
                                .fetch_or(excess << ((r & 15) * 4), Ordering::Relaxed);
                            let mut occupied: u32 = 0;
                            for &p in cells.iter() {
                                occupied |= 1 << p;
                            }
                            for i in 0..k {
                                let p = cells[i] as usize;
                                for q in neighbours(p) {
                                    if occupied & (1 << q) != 0 {
                                        continue;
                                    }
                                    cells[i] = q as u8;
                                    let s = rank(cells);
                                    if claim(&depth, s, d + 1) {
                                        new += 1;
                                    }
                                }
                                cells[i] = p as u8;
                            }
                        }
                    }
                    found.fetch_add(new, Ordering::Relaxed);
                    if expanded > 0 {
                        progress(done.fetch_add(expanded, Ordering::Relaxed) + expanded);
                    }
                });
            if found.load(Ordering::Relaxed) == 0 {
                break;
            }
            d += 1;
            assert!(d < UNSEEN - 1, "pattern distances fit in a byte");
        }
        let mut nibbles = Vec::with_capacity(n.div_ceil(2) as usize);
        for w in nib {
            nibbles.extend_from_slice(&w.into_inner().to_le_bytes());
        }
        nibbles.truncate(n.div_ceil(2) as usize);
        PatternTable {
            tiles: tiles.to_vec(),
            nibbles,
        }
    }

    /// The file name of this pattern's table in the cache folder.
    pub fn file_name(tiles: &[u8]) -> String {
        let t: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
        format!("fifteen-4x4-pdb-{}.nib", t.join("-"))
    }

    /// Writes the table (header with its shape and checksum, then the
    /// nibbles) atomically: to a temporary file renamed into place.
    pub fn save(&self, path: &Path) -> Result<(), PdbError> {
        let io = |source| PdbError::Io {
            path: path.to_path_buf(),
            source,
        };
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).map_err(io)?;
        }
        let tmp = path.with_extension("tmp");
        let mut f = fs::File::create(&tmp).map_err(io)?;
        f.write_all(self.header().as_bytes()).map_err(io)?;
        f.write_all(&self.nibbles).map_err(io)?;
        f.sync_all().map_err(io)?;
        drop(f);
        fs::rename(&tmp, path).map_err(io)
    }

    fn header(&self) -> String {
        let t: Vec<String> = self.tiles.iter().map(|t| t.to_string()).collect();
        format!(
            "gridbot fifteen pdb v1 tiles={} entries={} bytes={} checksum={:016x}\n",
            t.join(","),
            self.len(),
            self.nibbles.len(),
            checksum(&self.nibbles)
        )
    }

    /// Loads a table saved by [`PatternTable::save`], checking that it is
    /// for `tiles`, complete, and that its checksum matches.
    pub fn load(path: &Path, tiles: &[u8]) -> Result<PatternTable, PdbError> {
        let io = |source| PdbError::Io {
            path: path.to_path_buf(),
            source,
        };
        let damaged = |why: String| PdbError::Damaged {
            path: path.to_path_buf(),
            why,
        };
        let mut f = fs::File::open(path).map_err(io)?;
        let mut data = Vec::new();
        f.read_to_end(&mut data).map_err(io)?;
        let Some(nl) = data.iter().take(200).position(|&b| b == b'\n') else {
            return Err(damaged("no header line".into()));
        };
        let header =
            std::str::from_utf8(&data[..nl]).map_err(|_| damaged("header is not text".into()))?;
        let want = PatternTable {
            tiles: tiles.to_vec(),
            nibbles: Vec::new(),
        };
        let expect_prefix = {
            let t: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
            format!(
                "gridbot fifteen pdb v1 tiles={} entries={} bytes={} checksum=",
                t.join(","),
                want.len(),
                want.len().div_ceil(2)
            )
        };
        let Some(sum) = header.strip_prefix(&expect_prefix) else {
            return Err(damaged(format!(
                "header {header:?} is not the expected {expect_prefix:?}..."
            )));
        };
        let sum = u64::from_str_radix(sum, 16).map_err(|_| damaged("bad checksum field".into()))?;
        let body = data.split_off(nl + 1);
        if body.len() as u64 != want.len().div_ceil(2) {
            return Err(damaged(format!(
                "{} bytes of table, expected {}",
                body.len(),
                want.len().div_ceil(2)
            )));
        }
        let got = checksum(&body);
        if got != sum {
            return Err(damaged(format!(
                "checksum {got:016x} does not match the header's {sum:016x}"
            )));
        }
        Ok(PatternTable {
            tiles: tiles.to_vec(),
            nibbles: body,
        })
    }
}

/// A 64-bit FNV-1a style checksum over 8-byte words (fast on 260 MB).
pub fn checksum(data: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut chunks = data.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        h = (h ^ w).wrapping_mul(0x0000_0100_0000_01b3);
        h ^= h >> 29;
    }
    for &b in chunks.remainder() {
        h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[inline]
fn has_byte(word: u64, pattern: u64) -> bool {
    let x = word ^ pattern;
    (x.wrapping_sub(0x0101_0101_0101_0101) & !x & 0x8080_8080_8080_8080) != 0
}

/// Sets entry `r` to `d` if it is unseen; true when this call did it.
/// Within one layer every writer writes the same value, so clearing the
/// bits of an unseen byte (0xFF) is idempotent.
#[inline]
fn claim(depth: &[AtomicU64], r: u64, d: u8) -> bool {
    let shift = (r & 7) * 8;
    let w = &depth[(r >> 3) as usize];
    if (w.load(Ordering::Relaxed) >> shift) as u8 != UNSEEN {
        return false;
    }
    let mask = !(((UNSEEN ^ d) as u64) << shift);
    let old = w.fetch_and(mask, Ordering::Relaxed);
    (old >> shift) as u8 == UNSEEN
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
#[derive(Debug, Clone)]
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
            match PatternTable::load(&path, &tiles) {
                Ok(t) => {
                    report.load_time += t0.elapsed();
                    tables.push(t);
                    continue;
                }
                Err(PdbError::Io { source, .. })
                    if source.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => {
                    log::warn!("{e}; rebuilding it");
                    report.rebuilt_damaged.push(e.to_string());
                }
            }
            let t0 = Instant::now();
            let n = placements(tiles.len());
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
        t.excess(rank(&cells[..t.tiles.len()]))
    }

    /// The same for the mirrored position.
    #[inline]
    pub fn excess_mirrored(&self, i: usize, pos: &[u8]) -> u8 {
        let t = &self.tables[i];
        let mut cells = [0u8; CELLS];
        for (j, &orig) in self.mirrored_tiles[i].iter().enumerate() {
            cells[j] = mirror(pos[orig as usize] as usize) as u8;
        }
        t.excess(rank(&cells[..t.tiles.len()]))
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
    fn rank_round_trips() {
        let mut out = [0u8; 3];
        for r in [0u64, 1, 17, 3359] {
            unrank(r, &mut out);
            assert_eq!(rank(&out), r);
        }
        assert_eq!(placements(3), 3360);
        assert_eq!(rank(&[15, 14, 13]), 3359);
        assert_eq!(placements(8), 518_918_400);
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
        assert_eq!(l.nibbles, t.nibbles);
        // Wrong shape.
        assert!(matches!(
            PatternTable::load(&path, &[1, 2, 5, 6, 10]),
            Err(PdbError::Damaged { .. })
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
        assert!(e.contains("bytes of table"), "{e}");
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
