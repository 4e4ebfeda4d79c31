//! `endgame fling` as a job of units ([`crate::units`]), so that the
//! tables past what one machine builds in a session can be built on a
//! cluster and merged into the same bytes.
//!
//! Stage `s` builds the tables of `s + 2` balls; it needs the tables of
//! the level below, which the merge of stage `s - 1` writes. A unit is a
//! range of placement ranks of one level (`--unit-placements`, rounded
//! up to whole words of 64 placements); its file holds the level's
//! `[winnable, unique]` words for that range, little-endian. A stage's
//! merge joins its units' words in order and writes the two tables of its
//! level into the tables folder with the same writer a whole-level build
//! uses, so the files are identical however the level was split.

use std::io::Write as _;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use super::endgame::{
    build_words, load, placements, save_words, table_path, words_of, Kind, LevelStats, PairLevel,
    TableError, MAX_TABLE_BALLS,
};
use crate::files::{self, Replace};
use crate::units::{Job, JobError};

/// Placements per unit unless `--unit-placements` says otherwise (2^28:
/// 64 MiB of unit file; the 9-ball level is 29 units).
pub const DEFAULT_UNIT_PLACEMENTS: u64 = 1 << 28;

/// The tables for 2..=`max` balls as a job of units.
pub struct TablesJob {
    max: u32,
    unit_words: usize,
    tables: PathBuf,
    resume: bool,
    /// The last level merged or loaded, which the next stage's units read.
    below: Mutex<Option<Arc<PairLevel>>>,
}

impl TablesJob {
    /// The job for 2..=`max` balls in units of about `unit_placements`
    /// placements, its tables in folder `tables`. With `resume`, a level
    /// whose two tables are already in `tables` (whole, checksums good) is
    /// not merged again.
    pub fn new(
        max: u32,
        unit_placements: u64,
        tables: &Path,
        resume: bool,
    ) -> Result<TablesJob, TableError> {
        if !(2..=MAX_TABLE_BALLS).contains(&max) {
            return Err(TableError::TooManyBalls {
                k: max,
                max: MAX_TABLE_BALLS,
            });
        }
        Ok(TablesJob {
            max,
            unit_words: unit_placements.div_ceil(64).max(1) as usize,
            tables: tables.to_path_buf(),
            resume,
            below: Mutex::new(None),
        })
    }

    /// Placements per unit (a whole number of words).
    pub fn unit_placements(&self) -> u64 {
        self.unit_words as u64 * 64
    }

    fn units_of(&self, k: u32) -> usize {
        words_of(k).div_ceil(self.unit_words)
    }

    /// The level of unit `unit` and its range of words.
    fn locate(&self, unit: usize) -> (u32, Range<usize>) {
        let mut first = 0;
        for k in 2..=self.max {
            let n = self.units_of(k);
            if unit < first + n {
                let start = (unit - first) * self.unit_words;
                return (k, start..(start + self.unit_words).min(words_of(k)));
            }
            first += n;
        }
        unreachable!("unit {unit} is past the job's units (checked by the caller)")
    }

    /// Level `k` from the tables folder, checked.
    fn load_level(&self, k: u32) -> Result<PairLevel, TableError> {
        let get = |kind| load(kind, k, &table_path(&self.tables, kind, k));
        let (win, unique) = (get(Kind::Winnable)?, get(Kind::Unique)?);
        Ok(PairLevel::join(&win, &unique))
    }

    /// The level below `k` (none for two balls): the one kept from the
    /// last merge or load, else read from the tables folder.
    fn below(&self, k: u32) -> Result<Option<Arc<PairLevel>>, JobError> {
        if k == 2 {
            return Ok(None);
        }
        let mut kept = self.below.lock().expect("no panics while held");
        if let Some(level) = kept.as_ref().filter(|l| l.k == k - 1) {
            return Ok(Some(level.clone()));
        }
        let level = self.load_level(k - 1).map_err(|e| match e {
            TableError::Missing { path, .. } => format!(
                "{}: the {}-ball tables are not there yet; the units of {k} balls need the \
                 merge of stage {} first (`gridbot merge DIR --stage {}`)",
                path.display(),
                k - 1,
                k - 3,
                k - 3
            )
            .into(),
            e => JobError::from(e),
        })?;
        let level = Arc::new(level);
        *kept = Some(level.clone());
        Ok(Some(level))
    }

    /// Joins the units of level `k` (their files, in order) into the
    /// level, checking that they cover it.
    fn assemble(&self, k: u32, units: &[PathBuf]) -> Result<PairLevel, JobError> {
        let mut words = Vec::with_capacity(words_of(k));
        for u in units {
            let shown = u.display().to_string();
            let bytes = files::read_bytes(&shown, u64::MAX, "a unit file")?;
            if bytes.len() % 16 != 0 {
                return Err(format!("{shown}: {} bytes, not whole words", bytes.len()).into());
            }
            words.extend(bytes.chunks_exact(16).map(|w| {
                let half = |i: usize| u64::from_le_bytes(w[i..i + 8].try_into().expect("8 bytes"));
                [half(0), half(8)]
            }));
        }
        if words.len() != words_of(k) {
            return Err(format!(
                "the units of {k} balls hold {} words, the level has {}",
                words.len(),
                words_of(k)
            )
            .into());
        }
        Ok(PairLevel { k, words })
    }

    /// Writes level `level`'s two tables into the tables folder, keeps it
    /// for the next stage, and returns its figures.
    fn save_level(&self, level: PairLevel) -> Result<LevelStats, JobError> {
        let k = level.k;
        let n = level.words.len();
        for (kind, i) in [(Kind::Winnable, 0), (Kind::Unique, 1)] {
            let path = table_path(&self.tables, kind, k);
            save_words(k, kind, &path, n, |w| level.words[w][i])?;
        }
        let stats = level.stats();
        *self.below.lock().expect("no panics while held") = Some(Arc::new(level));
        Ok(stats)
    }

    /// The figures of level `k` from its tables in `dir`.
    fn stats_in(&self, dir: &Path, k: u32) -> Result<LevelStats, TableError> {
        let win = load(Kind::Winnable, k, &table_path(dir, Kind::Winnable, k))?;
        let unique = load(Kind::Unique, k, &table_path(dir, Kind::Unique, k))?;
        Ok(LevelStats {
            k,
            placements: placements(k),
            winnable: win.count_ones(),
            unique: unique.count_ones(),
        })
    }

    /// Copies every level's tables from the tables folder into `out`.
    fn copy_tables(&self, out: &Path, replace: Replace) -> Result<(), JobError> {
        files::ensure_dir(out)?;
        for k in 2..=self.max {
            for kind in [Kind::Winnable, Kind::Unique] {
                let from = table_path(&self.tables, kind, k);
                let to = table_path(out, kind, k);
                let mut src = files::open_regular(&from)?;
                let mut dst = files::Output::create(&to, replace)?;
                std::io::copy(&mut src, &mut dst).map_err(|e| dst.error(e))?;
                dst.flush().map_err(|e| dst.error(e))?;
                dst.commit()?;
            }
        }
        Ok(())
    }
}

impl Job for TablesJob {
    type Merged = Vec<LevelStats>;

    fn command(&self) -> Vec<String> {
        [
            "endgame",
            "fling",
            "--balls",
            &self.max.to_string(),
            "--unit-placements",
            &self.unit_placements().to_string(),
        ]
        .map(String::from)
        .to_vec()
    }

    fn output_file(&self, out: &Path) -> PathBuf {
        // The merge writes the last level's unique table last.
        table_path(out, Kind::Unique, self.max)
    }

    fn unit_count(&self) -> usize {
        (2..=self.max).map(|k| self.units_of(k)).sum()
    }

    fn stages(&self) -> Vec<Range<usize>> {
        let mut first = 0;
        (2..=self.max)
            .map(|k| {
                let r = first..first + self.units_of(k);
                first = r.end;
                r
            })
            .collect()
    }

    fn run_unit(&self, unit: usize) -> Result<Vec<u8>, JobError> {
        let (k, range) = self.locate(unit);
        let below = self.below(k)?;
        let words = build_words(k, below.as_deref(), range, &AtomicU64::new(0));
        let mut bytes = Vec::with_capacity(words.len() * 16);
        for [w, u] in words {
            bytes.extend_from_slice(&w.to_le_bytes());
            bytes.extend_from_slice(&u.to_le_bytes());
        }
        Ok(bytes)
    }

    fn merge_stage(&self, stage: usize, units: &[PathBuf]) -> Result<String, JobError> {
        let level = self.assemble(stage as u32 + 2, units)?;
        Ok(self.save_level(level)?.line())
    }

    fn stage_merged(&self, stage: usize) -> bool {
        if !self.resume {
            return false;
        }
        match self.load_level(stage as u32 + 2) {
            Ok(level) => {
                *self.below.lock().expect("no panics while held") = Some(Arc::new(level));
                true
            }
            Err(_) => false,
        }
    }

    fn merge(
        &self,
        units: &[PathBuf],
        out: Option<&Path>,
        replace: Replace,
    ) -> Result<Vec<LevelStats>, JobError> {
        let last = self.stages().pop().expect("at least one stage");
        let level = self.assemble(self.max, &units[last])?;
        self.save_level(level)?;
        let dir = match out {
            Some(out) if !same_folder(out, &self.tables) => {
                self.copy_tables(out, replace)?;
                out
            }
            _ => &self.tables,
        };
        let stats: Result<Vec<LevelStats>, TableError> = (2..=self.max)
            .into_par_iter()
            .map(|k| self.stats_in(dir, k))
            .collect();
        Ok(stats?)
    }
}

/// Whether two paths name the same folder (the second exists).
fn same_folder(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

impl LevelStats {
    /// The level's figures as the line `endgame fling` prints.
    pub fn line(&self) -> String {
        format!(
            "k={:>2} placements={:>14} winnable={:>14} ({:.4}) unique={:>14} ({:.4})",
            self.k,
            self.placements,
            self.winnable,
            self.winnable as f64 / self.placements as f64,
            self.unique,
            self.unique as f64 / self.placements as f64,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fling::endgame::Endgame;
    use crate::units::{self, JobDir, Manifest};

    fn table_bytes(dir: &Path, max: u32) -> Vec<Vec<u8>> {
        (2..=max)
            .flat_map(|k| [Kind::Winnable, Kind::Unique].map(|kind| table_path(dir, kind, k)))
            .map(|p| std::fs::read(p).unwrap())
            .collect()
    }

    fn run(dir: &Path, job: &TablesJob) -> Vec<LevelStats> {
        units::run_local(&dir.join("units"), job, None, Replace::Allow, |_, _| {}).unwrap()
    }

    #[test]
    fn any_split_into_units_gives_the_same_tables_byte_for_byte() {
        let d = tempfile::tempdir().unwrap();
        let (whole, split) = (d.path().join("whole"), d.path().join("split"));
        // One unit a level, against units of 4096 placements (level 5, 3.8 M
        // placements, in 933 units).
        let one = TablesJob::new(5, u64::MAX / 2, &whole, false).unwrap();
        assert_eq!(one.unit_count(), 4);
        let stats = run(&whole, &one);
        let job = TablesJob::new(5, 4096, &split, false).unwrap();
        assert_eq!(job.stages().len(), 4);
        assert!(job.stages()[3].len() > 900);
        assert_eq!(run(&split, &job), stats);
        assert_eq!(table_bytes(&whole, 5), table_bytes(&split, 5));
        // The tables agree with the in-memory build.
        let eg = Endgame::build(5, &AtomicU64::new(0)).unwrap();
        let loaded = Endgame::load(&split, 5, true).unwrap();
        assert_eq!((loaded.win, loaded.unique), (eg.win, eg.unique));
        assert_eq!(stats[0].placements, placements(2));
        assert!(stats.iter().all(|s| s.unique <= s.winnable));
    }

    #[test]
    fn a_resumed_run_merges_again_only_what_is_missing() {
        let d = tempfile::tempdir().unwrap();
        let job = TablesJob::new(4, 1 << 12, d.path(), false).unwrap();
        let first = run(d.path(), &job);
        let before = table_bytes(d.path(), 4);
        std::fs::remove_file(table_path(d.path(), Kind::Unique, 3)).unwrap();
        let again = TablesJob::new(4, 1 << 12, d.path(), true).unwrap();
        assert!(again.stage_merged(0));
        assert!(!again.stage_merged(1));
        assert_eq!(run(d.path(), &again), first);
        assert_eq!(table_bytes(d.path(), 4), before);
        // Merged into another folder: the same files there.
        let other = d.path().join("copy");
        let jd = JobDir::existing(&d.path().join("units")).unwrap();
        units::merge(&jd, &again, Some(&other), Replace::Refuse).unwrap();
        assert_eq!(table_bytes(&other, 4), before);
    }

    #[test]
    fn a_unit_before_its_stage_merge_says_which_merge_it_needs() {
        let d = tempfile::tempdir().unwrap();
        let job = TablesJob::new(4, 1 << 12, d.path(), false).unwrap();
        let jd = JobDir::open(d.path(), Manifest::of(&job)).unwrap();
        let first_of_4 = job.stages()[2].start;
        let e = units::run_units(&jd, &job, first_of_4..=first_of_4, |_, _| {}).unwrap_err();
        assert!(e.to_string().contains("merge DIR --stage 1"), "{e}");
        let e = units::merge_stage(&jd, &job, 0).unwrap_err();
        assert!(e.to_string().contains("units of stage 0 done"), "{e}");
        let e = units::merge_stage(&jd, &job, 2).unwrap_err();
        assert!(e.to_string().contains("stages are 0..2"), "{e}");
    }
}
