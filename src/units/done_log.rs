//! The done markers of a job folder, kept as lines of append-only logs.
//!
//! Every process that runs units appends one sealed line per finished
//! unit to a log of its own, `done-HOST-PID.log` in the job folder: the
//! unit, the unit count, the size and XXH3-128 checksum of the unit file,
//! the unit's seconds, the process's peak memory, the gridbot version and
//! the job's command, and last a checksum of the line (`sealed=`). One log
//! per process, not one marker file per unit, because a file's creation
//! costs the file system more than a small unit's work (0.3 ms against
//! 5 ms for a 5x5 enumeration unit); one writer per log, because appends
//! from several machines to one file on a shared file system can tear.
//!
//! A line cut short (a process killed while writing it) has no newline
//! and is not read; a whole line whose checksum fails is returned as
//! [`Entry::Broken`], so that the unit it names is reported, never merged.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::files::{self, FileError};

/// The first field of a marker line (the format's name and version).
pub const HEAD: &str = "gridbot-unit 2";

/// The field before which a line's checksum starts.
const SEAL: &str = "\tsealed=";

/// Largest log read back (a line is a few hundred bytes).
const LOG_CAP: u64 = 1 << 32;

/// One unit's done marker.
#[derive(Debug, Clone, PartialEq)]
pub struct Marker {
    /// The unit.
    pub unit: usize,
    /// Units of the job that made it.
    pub units: usize,
    /// Size of the unit file.
    pub bytes: u64,
    /// XXH3-128 of the unit file, 32 hex digits.
    pub xxh3: String,
    /// Seconds the unit took.
    pub seconds: f64,
    /// Peak memory of the process that ran it, in KiB.
    pub max_rss_kib: u64,
    /// The gridbot version that made it.
    pub version: String,
    /// The job's command words, as JSON.
    pub command: String,
}

impl Marker {
    /// The marker as one sealed line (fields split by tabs: the command's
    /// JSON escapes any tab or newline of its words).
    pub fn line(&self) -> String {
        let body = format!(
            "{HEAD}\tunit={}\tunits={}\tbytes={}\txxh3={}\tseconds={:.3}\tmax_rss_kib={}\tversion={}\tcommand={}",
            self.unit,
            self.units,
            self.bytes,
            self.xxh3,
            self.seconds,
            self.max_rss_kib,
            self.version,
            self.command
        );
        format!(
            "{body}{SEAL}{:016x}\n",
            xxhash_rust::xxh3::xxh3_64(body.as_bytes())
        )
    }

    /// Reads a line made by [`Marker::line`] (without its newline), or
    /// says why it is not one.
    pub fn parse(line: &str) -> Result<Marker, String> {
        let (body, seal) = line.rsplit_once(SEAL).ok_or("no checksum")?;
        if seal != format!("{:016x}", xxhash_rust::xxh3::xxh3_64(body.as_bytes())) {
            return Err("its checksum does not match its contents".into());
        }
        let mut parts = body.split('\t');
        if parts.next() != Some(HEAD) {
            return Err(format!("it does not start with `{HEAD}`"));
        }
        let fields: HashMap<&str, &str> = parts.filter_map(|p| p.split_once('=')).collect();
        let get = |k: &str| fields.get(k).copied().ok_or_else(|| format!("no {k}="));
        let num = |k: &str| {
            get(k)?
                .parse::<u64>()
                .map_err(|_| format!("{k} is not a count"))
        };
        Ok(Marker {
            unit: num("unit")? as usize,
            units: num("units")? as usize,
            bytes: num("bytes")?,
            xxh3: get("xxh3")?.to_string(),
            seconds: get("seconds")?.parse().unwrap_or(0.0),
            max_rss_kib: num("max_rss_kib").unwrap_or(0),
            version: get("version")?.to_string(),
            command: get("command")?.to_string(),
        })
    }
}

/// A marker line as read back.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    /// A whole line whose checksum holds.
    Sealed(Marker),
    /// A whole line that fails its checksum: where it is.
    Broken {
        /// The log.
        log: PathBuf,
        /// Its line number, from 1.
        line: usize,
    },
}

/// Every marker line of the logs in `dir`, by the unit they name (a
/// broken line by the unit it seems to name; one naming none is dropped,
/// as nothing would be merged on its word).
pub fn read_all(dir: &Path) -> Result<HashMap<usize, Vec<Entry>>, FileError> {
    let io = |e| FileError::Io {
        path: dir.display().to_string(),
        source: e,
    };
    let mut logs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| is_log_name(p))
        .collect();
    logs.sort();
    let mut found: HashMap<usize, Vec<Entry>> = HashMap::new();
    for log in logs {
        let shown = log.display().to_string();
        let text = files::read_bytes(&shown, LOG_CAP, "a done log")?;
        let text = String::from_utf8_lossy(&text);
        // The last piece has no newline: a line cut short, or nothing.
        let whole = text.rsplit_once('\n').map_or("", |(w, _)| w);
        for (i, l) in whole.split('\n').enumerate().filter(|(_, l)| !l.is_empty()) {
            match Marker::parse(l) {
                Ok(m) => found.entry(m.unit).or_default().push(Entry::Sealed(m)),
                Err(_) => {
                    if let Some(unit) = named_unit(l) {
                        let line = i + 1;
                        let log = log.clone();
                        found
                            .entry(unit)
                            .or_default()
                            .push(Entry::Broken { log, line });
                    }
                }
            }
        }
    }
    Ok(found)
}

/// Whether `p` is named as a done log.
fn is_log_name(p: &Path) -> bool {
    p.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("done-") && n.ends_with(".log"))
}

/// The unit a damaged line seems to name.
fn named_unit(line: &str) -> Option<usize> {
    line.split('\t')
        .find_map(|p| p.strip_prefix("unit="))
        .and_then(|v| v.parse().ok())
}

/// The logs this process appends to, open, one lock for all.
static OPEN: Mutex<Option<HashMap<PathBuf, File>>> = Mutex::new(None);

/// Appends `marker` to this process's log in `dir` (made when first
/// needed), as one write.
pub fn append(dir: &Path, marker: &Marker) -> Result<(), FileError> {
    let path = dir.join(format!("done-{}.log", writer_name()));
    let io = |e| FileError::Io {
        path: path.display().to_string(),
        source: e,
    };
    let mut open = OPEN.lock().unwrap_or_else(|e| e.into_inner());
    let logs = open.get_or_insert_with(HashMap::new);
    if !logs.contains_key(&path) {
        let f = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(io)?;
        logs.insert(path.clone(), f);
    }
    let file = logs.get_mut(&path).expect("inserted above");
    file.write_all(marker.line().as_bytes()).map_err(io)
}

/// `HOST-PID`: this process among all that may write to a job folder.
pub fn writer_name() -> String {
    format!("{}-{}", host_name(), std::process::id())
}

/// This machine's name, as safe in a file name (`host` when unknown).
fn host_name() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: gethostname writes at most `buf.len()` bytes into `buf`.
    let ok = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0;
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    let name: String = String::from_utf8_lossy(&buf[..end])
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if ok && !name.is_empty() {
        name
    } else {
        "host".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marker(unit: usize) -> Marker {
        Marker {
            unit,
            units: 9,
            bytes: 12,
            xxh3: "ab".repeat(16),
            seconds: 1.5,
            max_rss_kib: 2048,
            version: "0.1.0".into(),
            command: r#"["enumerate","rush","a\tb"]"#.into(),
        }
    }

    #[test]
    fn a_line_reads_back_and_an_edit_breaks_it() {
        let m = marker(3);
        let line = m.line();
        assert!(line.ends_with('\n') && line.matches('\n').count() == 1);
        assert_eq!(Marker::parse(line.trim_end()).unwrap(), m);
        let edited = line.replace("bytes=12", "bytes=13");
        assert!(Marker::parse(edited.trim_end())
            .unwrap_err()
            .contains("checksum"));
    }

    #[test]
    fn logs_are_read_whole_lines_only() {
        let d = tempfile::tempdir().unwrap();
        append(d.path(), &marker(1)).unwrap();
        append(d.path(), &marker(2)).unwrap();
        let log = std::fs::read_dir(d.path())
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        // A second process's log: a broken line for unit 4, a torn one for 5.
        let other = d.path().join("done-other-1.log");
        let broken = marker(4).line().replace("seconds=1.500", "seconds=0.100");
        let torn = marker(5).line();
        std::fs::write(&other, format!("{broken}{}", &torn[..40])).unwrap();
        let all = read_all(d.path()).unwrap();
        assert_eq!(all[&1], vec![Entry::Sealed(marker(1))]);
        assert_eq!(all[&2], vec![Entry::Sealed(marker(2))]);
        let broken = Entry::Broken {
            log: other,
            line: 1,
        };
        assert_eq!(all[&4], vec![broken]);
        assert!(!all.contains_key(&5));
        assert!(is_log_name(&log));
    }
}
