//! Big jobs as numbered units with exact merges, whatever the engine.
//!
//! A [`Job`] is a list of independent units with a stable numbering
//! (0 to [`Job::unit_count`] - 1), each of which makes some bytes, and a
//! merge that turns the units' files into the job's output. Its folder
//! holds:
//! - `job.txt`, the manifest: the command that makes the job (its words
//!   after `gridbot`, [`Job::command`], which carry every parameter), the
//!   gridbot version and the unit count;
//! - `unit-NNNNN.txt`, one unit's bytes, written to a temporary file and
//!   renamed;
//! - `done-HOST-PID.log`, the done markers of the units one process ran,
//!   a line each, appended after the unit file is in place
//!   ([`done_log`]): the command, version, unit number, unit count, size
//!   and a content checksum (XXH3-128) of the unit file, and how long the
//!   unit took. A unit counts as done only when a whole marker line
//!   matches the manifest and its file matches the marker's checksum, so a
//!   unit that is killed leaves nothing that counts as done.
//!
//! Every file read back is checked: the manifest and each marker line end
//! with a checksum of their own; a unit that fails is reported by name
//! with what to do (delete it, or use another folder), never merged. The
//! local run of a job is [`run_units`] over every unit and then [`merge`],
//! so a run on one machine and one split over a cluster share one code
//! path and give the same bytes.

pub mod done_log;

use std::fmt::Write as _;
use std::ops::{Range, RangeInclusive};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use crate::files::{self, FileError, Replace};

/// The version recorded in manifests and markers; units of another
/// version are not merged.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The manifest's file name in a job folder.
pub const MANIFEST: &str = "job.txt";

/// The first line of a manifest.
const MANIFEST_HEAD: &str = "gridbot-units 2";

/// The first line of the manifest of a folder whose done markers were
/// files of their own (before [`done_log`]).
const MANIFEST_HEAD_1: &str = "gridbot-units 1";

/// Largest manifest or marker read back.
const SMALL_CAP: u64 = 1 << 16;

/// An error of a job's own work (a unit or the merge).
pub type JobError = Box<dyn std::error::Error + Send + Sync>;

/// A job split into units (see the module doc).
pub trait Job: Sync {
    /// What the merge returns (a summary, a report).
    type Merged;

    /// The words after `gridbot` that make this job, without `--units`
    /// and `--out`: every parameter that changes a unit's bytes is here.
    fn command(&self) -> Vec<String>;

    /// How many units the job has.
    fn unit_count(&self) -> usize;

    /// The bytes of unit `k` (the same bytes every time).
    fn run_unit(&self, k: usize) -> Result<Vec<u8>, JobError>;

    /// Merges the units' files (every unit, in unit order, each checked)
    /// into the job's output at `out` (`None`: the merged result only).
    fn merge(
        &self,
        units: &[PathBuf],
        out: Option<&Path>,
        replace: Replace,
    ) -> Result<Self::Merged, JobError>;

    /// The file whose time says when the merge into `out` last ran: `out`
    /// itself unless the output is a folder.
    fn output_file(&self, out: &Path) -> PathBuf {
        out.to_path_buf()
    }

    /// The units of each stage, in order, covering every unit: a unit of
    /// stage `s` may need what the merge of stage `s - 1` made
    /// ([`Job::merge_stage`]). One stage of every unit unless a job says
    /// otherwise.
    fn stages(&self) -> Vec<Range<usize>> {
        std::iter::once(0..self.unit_count()).collect()
    }

    /// Merges the units of stage `stage` (every one done and checked, in
    /// order) into what the next stage needs, and says in one line what
    /// it made. Only called for a stage before the last (the last one's
    /// merge is [`Job::merge`]).
    fn merge_stage(&self, stage: usize, units: &[PathBuf]) -> Result<String, JobError> {
        let _ = units;
        Err(format!("this job has no stage {stage} to merge").into())
    }

    /// Whether the merge of stage `stage` is already made (so that a
    /// resumed run does not make it again).
    fn stage_merged(&self, stage: usize) -> bool {
        let _ = stage;
        false
    }
}

/// What went wrong with a job folder or its units.
#[derive(Debug, thiserror::Error)]
pub enum UnitsError {
    /// Reading or writing a file.
    #[error(transparent)]
    File(#[from] FileError),
    /// A manifest that cannot be read.
    #[error("{path}: damaged job manifest ({why}); delete the folder to start the job again")]
    Manifest {
        /// The manifest.
        path: String,
        /// What is wrong.
        why: String,
    },
    /// A folder that holds another job.
    #[error("{path}: holds units of another job (`gridbot {found}`), not of `gridbot {wanted}`; use another --out, or delete it")]
    Foreign {
        /// The manifest.
        path: String,
        /// Its job.
        found: String,
        /// The job asked for.
        wanted: String,
    },
    /// A folder with files but no manifest.
    #[error("{path}: not a job folder (no {MANIFEST}) and not empty{hint}; use another --out, or delete it")]
    NotJobFolder {
        /// The folder.
        path: String,
        /// Why it may hold files (an earlier gridbot's units).
        hint: &'static str,
    },
    /// `--units` outside the job's units.
    #[error("--units {first}..{last}: the job has {count} units, numbered 0..{}", count.saturating_sub(1))]
    Range {
        /// First unit asked for.
        first: usize,
        /// Last unit asked for.
        last: usize,
        /// Units of the job.
        count: usize,
    },
    /// A unit file or marker that cannot be trusted.
    #[error("{path}: damaged unit file ({why}); delete it to redo the unit")]
    Damaged {
        /// The unit file.
        path: String,
        /// What is wrong.
        why: String,
    },
    /// A merge asked for before every unit is done.
    #[error("{dir}: {done} of {count} units{stage} done, nothing merged{missing}{bad}")]
    Incomplete {
        /// ` of stage S` for a stage's merge, or nothing.
        stage: String,
        /// The job folder.
        dir: String,
        /// Units done.
        done: usize,
        /// Units of the job.
        count: usize,
        /// `; missing units A..B, C` or nothing.
        missing: String,
        /// One `; FILE: why, delete it` per damaged or inconsistent unit.
        bad: String,
    },
    /// A stage that has no merge of its own.
    #[error("--stage {stage}: {why}")]
    Stage {
        /// The stage asked for.
        stage: usize,
        /// Which stages have a merge of their own.
        why: String,
    },
    /// The job's own work failed.
    #[error(transparent)]
    Job(JobError),
}

/// The checksum of a file's contents, as 32 hex digits.
pub fn checksum(bytes: &[u8]) -> String {
    format!("{:032x}", xxhash_rust::xxh3::xxh3_128(bytes))
}

/// `text` (lines) with a last line `sealed=HEX`, a checksum of the lines
/// before it.
fn seal(text: &str) -> String {
    format!(
        "{text}sealed={:016x}\n",
        xxhash_rust::xxh3::xxh3_64(text.as_bytes())
    )
}

/// The `key=value` lines of a sealed text whose first line is `head`, or
/// why it is not one.
fn unseal(text: &str, head: &str) -> Result<Vec<(String, String)>, String> {
    let body_end = text
        .trim_end_matches('\n')
        .rfind('\n')
        .map(|i| i + 1)
        .ok_or("too short")?;
    let (body, last) = text.split_at(body_end);
    let sealed = last
        .trim_end_matches('\n')
        .strip_prefix("sealed=")
        .ok_or("no checksum line")?;
    if sealed != format!("{:016x}", xxhash_rust::xxh3::xxh3_64(body.as_bytes())) {
        return Err("its checksum does not match its contents".into());
    }
    let mut lines = body.lines();
    if lines.next() != Some(head) {
        return Err(format!("the first line is not `{head}`"));
    }
    lines
        .map(|l| {
            l.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .ok_or_else(|| format!("`{l}` is not KEY=VALUE"))
        })
        .collect()
}

/// The value of `key` among `fields`.
fn field<'a>(fields: &'a [(String, String)], key: &str) -> Result<&'a str, String> {
    fields
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .ok_or_else(|| format!("no {key}="))
}

/// A job's command as one line (words joined by spaces, as a user types it).
pub fn command_line(words: &[String]) -> String {
    words.join(" ")
}

/// The manifest of a job folder, as read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    /// The words after `gridbot` that make the job.
    pub command: Vec<String>,
    /// The gridbot version that made the folder.
    pub version: String,
    /// Units of the job.
    pub units: usize,
}

impl Manifest {
    /// The manifest of `job`, made by this version.
    pub fn of(job: &impl Job) -> Manifest {
        Manifest {
            command: job.command(),
            version: VERSION.into(),
            units: job.unit_count(),
        }
    }

    /// The command's words as JSON, as the manifest and the done markers
    /// hold them.
    fn command_json(&self) -> String {
        serde_json::to_string(&self.command).expect("strings serialise")
    }

    fn text(&self) -> String {
        let command = self.command_json();
        seal(&format!(
            "{MANIFEST_HEAD}\ncommand={command}\nversion={}\nunits={}\n",
            self.version, self.units
        ))
    }

    /// Reads and checks the manifest of folder `dir`.
    pub fn read(dir: &Path) -> Result<Manifest, UnitsError> {
        let path = dir.join(MANIFEST);
        let shown = path.display().to_string();
        let text = files::read_text(&shown, SMALL_CAP, "a job manifest")?;
        let bad = |why: String| UnitsError::Manifest {
            path: shown.clone(),
            why,
        };
        if text.lines().next() == Some(MANIFEST_HEAD_1) {
            return Err(bad(
                "made by an earlier gridbot, whose done markers were files of their own; finish the job with that gridbot".into(),
            ));
        }
        let fields = unseal(&text, MANIFEST_HEAD).map_err(bad)?;
        let command = field(&fields, "command").map_err(bad)?;
        let command: Vec<String> =
            serde_json::from_str(command).map_err(|e| bad(format!("command: {e}")))?;
        let units = field(&fields, "units")
            .map_err(bad)?
            .parse()
            .map_err(|_| bad("units is not a count".into()))?;
        Ok(Manifest {
            command,
            version: field(&fields, "version").map_err(bad)?.to_string(),
            units,
        })
    }
}

/// The file of unit `k` in folder `dir`.
pub fn unit_file(dir: &Path, k: usize) -> PathBuf {
    dir.join(format!("unit-{k:05}.txt"))
}

/// What a done marker records beyond the manifest's fields.
#[derive(Debug, Clone, PartialEq)]
pub struct Done {
    /// Seconds the unit took.
    pub seconds: f64,
    /// Peak memory of the process that ran it, in KiB.
    pub max_rss_kib: u64,
}

/// The state of one unit in a job folder.
#[derive(Debug, Clone, PartialEq)]
pub enum UnitState {
    /// Done and checked.
    Done(Done),
    /// Not done (no marker, or a marker without its file).
    Missing,
    /// A marker or file that cannot be trusted: the file to delete and why.
    Bad(PathBuf, String),
}

/// Peak resident memory of this process, in KiB.
fn max_rss_kib() -> u64 {
    // SAFETY: getrusage fills the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return 0;
    }
    usage.ru_maxrss.max(0) as u64
}

/// Writes a unit file of the job folder: to a temporary file of this
/// process beside it, renamed over it (the folder is the job's own, so
/// none of the checks a user's output gets: they cost the file system
/// more than a small unit's work).
fn write_unit(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    use std::io::Write;
    let io = |e| FileError::Io {
        path: path.display().to_string(),
        source: e,
    };
    let mut staged = path.as_os_str().to_owned();
    staged.push(format!(".{}.tmp", done_log::writer_name()));
    let staged = PathBuf::from(staged);
    let written = std::fs::File::create(&staged)
        .and_then(|mut f| f.write_all(bytes))
        .and_then(|()| std::fs::rename(&staged, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&staged);
        return Err(io(e));
    }
    Ok(())
}

/// Writes the manifest `text` to `path` unless one is there (another
/// array task made it first), not waiting for the disk: a torn manifest
/// fails its checksum and is named.
fn write_manifest(path: &Path, text: &str) -> Result<(), FileError> {
    use std::io::Write;
    let mut out = files::Output::create(path, Replace::Refuse)?;
    out.write_all(text.as_bytes()).map_err(|e| out.error(e))?;
    out.commit_unsynced()
}

/// A job folder checked against a job's manifest.
#[derive(Debug)]
pub struct JobDir {
    dir: PathBuf,
    manifest: Manifest,
}

impl JobDir {
    /// Opens (creating it and its manifest when new) the folder `dir` for
    /// the job with manifest `manifest`; a folder of another job, a
    /// damaged manifest or a non-empty folder without one is refused.
    pub fn open(dir: &Path, manifest: Manifest) -> Result<JobDir, UnitsError> {
        let io = |e| FileError::Io {
            path: dir.display().to_string(),
            source: e,
        };
        if let Ok(meta) = std::fs::metadata(dir) {
            if !meta.is_dir() {
                return Err(FileError::NotADir {
                    path: dir.display().to_string(),
                    kind: if meta.is_file() {
                        "a regular file"
                    } else {
                        files::kind_of(&meta)
                    },
                }
                .into());
            }
        }
        std::fs::create_dir_all(dir).map_err(io)?;
        let path = dir.join(MANIFEST);
        if !path.exists() {
            let mut names = std::fs::read_dir(dir).map_err(io)?;
            if names.next().is_some() {
                let legacy = dir.join("params.txt").exists();
                return Err(UnitsError::NotJobFolder {
                    path: dir.display().to_string(),
                    hint: if legacy {
                        " (it holds units of an earlier gridbot, which carry no checksums)"
                    } else {
                        ""
                    },
                });
            }
            match write_manifest(&path, &manifest.text()) {
                // Another process (an array task) made it first: check it.
                Ok(()) | Err(FileError::Exists { .. }) => {}
                Err(e) => return Err(e.into()),
            }
        }
        let found = Manifest::read(dir)?;
        if found.command != manifest.command || found.units != manifest.units {
            return Err(UnitsError::Foreign {
                path: path.display().to_string(),
                found: command_line(&found.command),
                wanted: command_line(&manifest.command),
            });
        }
        if found.version != manifest.version {
            return Err(UnitsError::Manifest {
                path: path.display().to_string(),
                why: format!(
                    "made by gridbot {}, this is {}; finish it with that version",
                    found.version, manifest.version
                ),
            });
        }
        Ok(JobDir {
            dir: dir.to_path_buf(),
            manifest,
        })
    }

    /// Opens an existing job folder as its manifest says (for `merge` and
    /// `cluster`, which know the job only from its folder).
    pub fn existing(dir: &Path) -> Result<JobDir, UnitsError> {
        if !dir.join(MANIFEST).exists() {
            return Err(UnitsError::NotJobFolder {
                path: dir.display().to_string(),
                hint: "",
            });
        }
        let manifest = Manifest::read(dir)?;
        JobDir::open(dir, manifest)
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// The manifest.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// The states of units `range`, every byte checked (the done logs are
    /// read once).
    pub fn states_of(&self, range: Range<usize>) -> Result<Vec<UnitState>, UnitsError> {
        let markers = done_log::read_all(&self.dir)?;
        let none = Vec::new();
        let command = self.manifest.command_json();
        Ok(range
            .into_par_iter()
            .map(|k| self.check(k, markers.get(&k).unwrap_or(&none), &command))
            .collect())
    }

    /// The states of every unit.
    pub fn states(&self) -> Result<Vec<UnitState>, UnitsError> {
        self.states_of(0..self.manifest.units)
    }

    /// The state of unit `k` given the marker lines that name it: done
    /// when one of them is whole, of this job and version, and matches
    /// the unit file byte for byte (`command`: the manifest's command as
    /// JSON, made once for all units).
    fn check(&self, k: usize, markers: &[done_log::Entry], command: &str) -> UnitState {
        let file = unit_file(&self.dir, k);
        if markers.is_empty() || !file.exists() {
            return UnitState::Missing;
        }
        let bytes = match files::read_bytes(&file.display().to_string(), u64::MAX, "a unit file") {
            Ok(b) => b,
            Err(e) => return UnitState::Bad(file, e.to_string()),
        };
        let sum = checksum(&bytes);
        let m = &self.manifest;
        // The best reason not to trust the file: a marker of this very
        // file from elsewhere, then a damaged marker, then a checksum.
        let (mut foreign, mut broken) = (None, None);
        for entry in markers {
            let marker = match entry {
                done_log::Entry::Broken { log, line } => {
                    broken = Some(format!(
                        "its done marker ({} line {line}) fails its own checksum",
                        log.display()
                    ));
                    continue;
                }
                done_log::Entry::Sealed(marker) => marker,
            };
            if marker.bytes != bytes.len() as u64 || marker.xxh3 != sum {
                continue;
            }
            if marker.command != command {
                let words: Vec<String> = serde_json::from_str(&marker.command).unwrap_or_default();
                foreign = Some(format!("made by `gridbot {}`", command_line(&words)));
            } else if marker.version != m.version {
                foreign = Some(format!(
                    "made by gridbot {}, not {}",
                    marker.version, m.version
                ));
            } else if marker.units != m.units {
                foreign = Some(format!(
                    "its marker is for unit {k} of {}, not of {}",
                    marker.units, m.units
                ));
            } else {
                return UnitState::Done(Done {
                    seconds: marker.seconds,
                    max_rss_kib: marker.max_rss_kib,
                });
            }
        }
        let why = foreign
            .or(broken)
            .unwrap_or_else(|| "its contents do not match the checksum of its done marker".into());
        UnitState::Bad(file, why)
    }

    /// Saves unit `k`'s bytes and then appends its done marker (not
    /// waiting for the disk: a file a crash left torn fails its checksum
    /// and is named, a marker line cut short is not read).
    fn save(&self, k: usize, bytes: &[u8], seconds: f64) -> Result<(), UnitsError> {
        write_unit(&unit_file(&self.dir, k), bytes)?;
        let m = &self.manifest;
        let marker = done_log::Marker {
            unit: k,
            units: m.units,
            bytes: bytes.len() as u64,
            xxh3: checksum(bytes),
            seconds,
            max_rss_kib: max_rss_kib(),
            version: m.version.clone(),
            command: m.command_json(),
        };
        done_log::append(&self.dir, &marker)?;
        Ok(())
    }
}

/// The units `first..=last` checked against a job of `count` units.
pub fn check_range(first: usize, last: usize, count: usize) -> Result<(), UnitsError> {
    if first > last || last >= count {
        return Err(UnitsError::Range { first, last, count });
    }
    Ok(())
}

/// Numbers as short ranges: `0..3, 7, 9..10`.
pub fn ranges_text(ks: &[usize]) -> String {
    let mut out = Vec::new();
    let mut i = 0;
    while i < ks.len() {
        let mut j = i;
        while j + 1 < ks.len() && ks[j + 1] == ks[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            ks[i].to_string()
        } else {
            format!("{}..{}", ks[i], ks[j])
        });
        i = j + 1;
    }
    out.join(", ")
}

/// Runs the units in `range` of `job` that are not done in `dir`, in
/// parallel (rayon); a unit file that cannot be trusted stops the run
/// with an error naming it. `progress(done, total)` is called as units
/// finish. Returns how many units were run (the others were done).
pub fn run_units<J: Job>(
    dir: &JobDir,
    job: &J,
    range: RangeInclusive<usize>,
    progress: impl Fn(u64, u64) + Sync,
) -> Result<usize, UnitsError> {
    check_range(*range.start(), *range.end(), job.unit_count())?;
    let total = range.clone().count() as u64;
    let finished = AtomicU64::new(0);
    let ran = AtomicU64::new(0);
    let states = dir.states_of(*range.start()..*range.end() + 1)?;
    range
        .zip(states)
        .collect::<Vec<(usize, UnitState)>>()
        .into_par_iter()
        .with_max_len(1)
        .try_for_each(|(k, state)| {
            match state {
                UnitState::Done(_) => {}
                UnitState::Bad(path, why) => {
                    return Err(UnitsError::Damaged {
                        path: path.display().to_string(),
                        why,
                    })
                }
                UnitState::Missing => {
                    let t0 = Instant::now();
                    let bytes = job.run_unit(k).map_err(UnitsError::Job)?;
                    dir.save(k, &bytes, t0.elapsed().as_secs_f64())?;
                    ran.fetch_add(1, Ordering::Relaxed);
                    log::info!("unit {k}: {:.1} s", t0.elapsed().as_secs_f64());
                }
            }
            progress(finished.fetch_add(1, Ordering::Relaxed) + 1, total);
            Ok(())
        })?;
    Ok(ran.into_inner() as usize)
}

/// The units not done in `states` and the damaged ones, as the error a
/// merge refuses with (`None` when every unit is done).
pub fn incomplete(dir: &Path, states: &[UnitState]) -> Option<UnitsError> {
    incomplete_of(dir, states, 0, "")
}

/// [`incomplete`] over units `first..first + states.len()`, whose states
/// are `states` (`stage`: how the message names them, e.g. ` of stage 2`).
fn incomplete_of(
    dir: &Path,
    states: &[UnitState],
    first: usize,
    stage: &str,
) -> Option<UnitsError> {
    let missing: Vec<usize> = (first..)
        .zip(states)
        .filter(|(_, s)| **s == UnitState::Missing)
        .map(|(k, _)| k)
        .collect();
    let mut bad = String::new();
    for s in states {
        if let UnitState::Bad(path, why) = s {
            let _ = write!(
                bad,
                "; {}: {why}, delete it to redo the unit",
                path.display()
            );
        }
    }
    let done = states
        .iter()
        .filter(|s| matches!(s, UnitState::Done(_)))
        .count();
    (done < states.len()).then(|| UnitsError::Incomplete {
        dir: dir.display().to_string(),
        stage: stage.to_string(),
        done,
        count: states.len(),
        missing: if missing.is_empty() {
            String::new()
        } else {
            format!("; missing units {}", ranges_text(&missing))
        },
        bad,
    })
}

/// Merges the units of `job` in `dir` into `out` once every unit is done
/// and checked; otherwise refuses, listing the missing and damaged units.
pub fn merge<J: Job>(
    dir: &JobDir,
    job: &J,
    out: Option<&Path>,
    replace: Replace,
) -> Result<J::Merged, UnitsError> {
    if let Some(e) = incomplete(dir.path(), &dir.states()?) {
        return Err(e);
    }
    let files: Vec<PathBuf> = (0..job.unit_count())
        .map(|k| unit_file(dir.path(), k))
        .collect();
    job.merge(&files, out, replace).map_err(UnitsError::Job)
}

/// Merges stage `stage` of `job` in `dir` (not the last stage: that is
/// [`merge`]) once every unit of the stage is done and checked;
/// otherwise refuses, listing the missing and damaged units. Returns the
/// job's line on what the stage made.
pub fn merge_stage<J: Job>(dir: &JobDir, job: &J, stage: usize) -> Result<String, UnitsError> {
    let stages = job.stages();
    let count = stages.len();
    if stage + 1 >= count {
        // The last stage's merge is the job's merge.
        let why = match count {
            1 => "the job has one stage, merged by `gridbot merge DIR` without --stage".into(),
            _ => format!(
                "the job's stages are 0..{}; the last is merged by `gridbot merge DIR` without --stage",
                count - 1
            ),
        };
        return Err(UnitsError::Stage { stage, why });
    }
    let range = stages[stage].clone();
    let states = dir.states_of(range.clone())?;
    let of_stage = format!(" of stage {stage}");
    if let Some(e) = incomplete_of(dir.path(), &states, range.start, &of_stage) {
        return Err(e);
    }
    let files: Vec<PathBuf> = range.map(|k| unit_file(dir.path(), k)).collect();
    job.merge_stage(stage, &files).map_err(UnitsError::Job)
}

/// The local run: every unit not yet done in `dir`, stage by stage with
/// each stage's merge between them (`on_stage(s, line)` after each), then
/// the merge.
pub fn run_local<J: Job>(
    dir: &Path,
    job: &J,
    out: Option<&Path>,
    replace: Replace,
    progress: impl Fn(u64, u64) + Sync,
) -> Result<J::Merged, UnitsError> {
    run_stages(dir, job, out, replace, progress, |_, _| {})
}

/// [`run_local`], saying after each stage what its merge made (the last
/// stage says nothing: its merge is the job's).
pub fn run_stages<J: Job>(
    dir: &Path,
    job: &J,
    out: Option<&Path>,
    replace: Replace,
    progress: impl Fn(u64, u64) + Sync,
    mut on_stage: impl FnMut(usize, &str),
) -> Result<J::Merged, UnitsError> {
    if let Some(out) = out {
        // An output that cannot be written is refused before any work
        // (and before the job folder is made).
        drop(files::Output::create(out, replace)?);
    }
    let d = JobDir::open(dir, Manifest::of(job))?;
    let stages = job.stages();
    let total = job.unit_count() as u64;
    for (s, range) in stages.iter().enumerate() {
        if !range.is_empty() {
            let before = range.start as u64;
            let at = |done: u64, _| progress(before + done, total);
            run_units(&d, job, range.start..=range.end - 1, at)?;
        }
        if s + 1 < stages.len() && !job.stage_merged(s) {
            let line = merge_stage(&d, job, s)?;
            on_stage(s, &line);
        }
    }
    merge(&d, job, out, replace)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small job: unit k is `k` squared, as text; the merge adds them up.
    struct Squares(usize);

    impl Job for Squares {
        type Merged = u64;
        fn command(&self) -> Vec<String> {
            vec!["squares".into(), format!("--n={}", self.0)]
        }
        fn unit_count(&self) -> usize {
            self.0
        }
        fn run_unit(&self, k: usize) -> Result<Vec<u8>, JobError> {
            Ok(format!("{}\n", k * k).into_bytes())
        }
        fn merge(
            &self,
            units: &[PathBuf],
            out: Option<&Path>,
            replace: Replace,
        ) -> Result<u64, JobError> {
            let mut sum = 0;
            for u in units {
                sum += std::fs::read_to_string(u)?.trim().parse::<u64>()?;
            }
            if let Some(out) = out {
                files::write_all(out, format!("{sum}\n").as_bytes(), replace)?;
            }
            Ok(sum)
        }
    }

    #[test]
    fn a_split_run_merges_to_the_local_result() {
        let d = tempfile::tempdir().unwrap();
        let job = Squares(10);
        let local = run_local(&d.path().join("a"), &job, None, Replace::Allow, |_, _| {}).unwrap();
        let split = d.path().join("b");
        let jd = JobDir::open(&split, Manifest::of(&job)).unwrap();
        assert_eq!(run_units(&jd, &job, 0..=3, |_, _| {}).unwrap(), 4);
        let e = merge(&jd, &job, None, Replace::Allow).unwrap_err();
        assert!(e.to_string().contains("4 of 10 units done"), "{e}");
        assert!(e.to_string().contains("missing units 4..9"), "{e}");
        assert_eq!(run_units(&jd, &job, 2..=9, |_, _| {}).unwrap(), 6);
        assert_eq!(merge(&jd, &job, None, Replace::Allow).unwrap(), local);
        assert_eq!(local, (0..10u64).map(|k| k * k).sum::<u64>());
        let e = run_units(&jd, &job, 5..=10, |_, _| {}).unwrap_err();
        assert!(e.to_string().contains("numbered 0..9"), "{e}");
    }

    #[test]
    fn an_edited_unit_or_marker_is_named_and_never_merged() {
        let d = tempfile::tempdir().unwrap();
        let job = Squares(3);
        run_local(d.path(), &job, None, Replace::Allow, |_, _| {}).unwrap();
        let jd = JobDir::existing(d.path()).unwrap();
        std::fs::write(unit_file(d.path(), 1), "2\n").unwrap();
        let e = merge(&jd, &job, None, Replace::Allow).unwrap_err();
        assert!(
            e.to_string().contains("unit-00001.txt: its contents"),
            "{e}"
        );
        let e = run_units(&jd, &job, 0..=2, |_, _| {}).unwrap_err();
        assert!(e.to_string().contains("delete it to redo the unit"), "{e}");
        // Deleting the unit file redoes it.
        std::fs::remove_file(unit_file(d.path(), 1)).unwrap();
        run_units(&jd, &job, 0..=2, |_, _| {}).unwrap();
        assert_eq!(merge(&jd, &job, None, Replace::Allow).unwrap(), 5);
        // A marker edited by hand fails its own checksum: its unit is
        // named, with the log and line.
        for log in std::fs::read_dir(d.path()).unwrap() {
            let log = log.unwrap().path();
            if log.extension().is_some_and(|e| e == "log") {
                let text = std::fs::read_to_string(&log).unwrap();
                let edited: String = text
                    .lines()
                    .map(|l| match l.contains("\tunit=2\t") {
                        true => format!("{}\n", l.replace("\tbytes=", "\tbytes=9")),
                        false => format!("{l}\n"),
                    })
                    .collect();
                std::fs::write(&log, edited).unwrap();
            }
        }
        let e = merge(&jd, &job, None, Replace::Allow).unwrap_err();
        assert!(
            e.to_string().contains("unit-00002.txt: its done marker"),
            "{e}"
        );
        assert!(e.to_string().contains(".log line "), "{e}");
        assert!(e.to_string().contains("fails its own checksum"), "{e}");
    }

    #[test]
    fn folders_of_other_jobs_are_refused() {
        let d = tempfile::tempdir().unwrap();
        run_local(d.path(), &Squares(3), None, Replace::Allow, |_, _| {}).unwrap();
        let e = JobDir::open(d.path(), Manifest::of(&Squares(4))).unwrap_err();
        assert!(matches!(e, UnitsError::Foreign { .. }), "{e}");
        std::fs::remove_file(d.path().join(MANIFEST)).unwrap();
        let e = JobDir::open(d.path(), Manifest::of(&Squares(3))).unwrap_err();
        assert!(matches!(e, UnitsError::NotJobFolder { .. }), "{e}");
        let e = JobDir::existing(d.path()).unwrap_err();
        assert!(e.to_string().contains("no job.txt"), "{e}");
    }

    #[test]
    fn a_folder_of_the_marker_file_format_is_refused_by_name() {
        let d = tempfile::tempdir().unwrap();
        run_local(d.path(), &Squares(3), None, Replace::Allow, |_, _| {}).unwrap();
        let path = d.path().join(MANIFEST);
        let text = std::fs::read_to_string(&path).unwrap();
        let old = seal(
            &text
                .lines()
                .skip(1)
                .take(3)
                .fold(format!("{MANIFEST_HEAD_1}\n"), |t, l| t + l + "\n"),
        );
        std::fs::write(&path, old).unwrap();
        let e = JobDir::existing(d.path()).unwrap_err().to_string();
        assert!(
            e.contains("job.txt: damaged job manifest (made by an earlier gridbot"),
            "{e}"
        );
        assert!(e.contains("finish the job with that gridbot"), "{e}");
    }

    #[test]
    fn ranges_read_short() {
        assert_eq!(ranges_text(&[0, 1, 2, 5, 7, 8]), "0..2, 5, 7..8");
        assert_eq!(ranges_text(&[]), "");
    }
}
