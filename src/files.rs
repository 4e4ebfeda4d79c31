//! The files a command reads and writes, guarded the same way everywhere.
//!
//! Reading: an input is a regular file (symbolic links followed) or `-`
//! for standard input, and never more than a cap that fits its format; a
//! directory, a FIFO or a device is refused before it is opened, so
//! nothing blocks on a FIFO without a writer or reads `/dev/zero` until
//! memory runs out.
//!
//! Writing: an [`Output`] is written to a temporary file beside its target
//! and renamed over it only when [`Output::commit`] is called, so a failed
//! or interrupted run leaves nothing half-made. An existing regular file
//! is replaced only when the caller allows it (a command's `--force`); a
//! symbolic link is followed to its target, never replaced itself; a
//! character device or a FIFO (`/dev/null`, a pipe) is written through;
//! a directory, a block device or a socket is refused.
//!
//! ```no_run
//! use gridbot::files::{read_text, Output, Replace};
//! let text = read_text("board.txt", 1 << 20, "a board")?;
//! let mut out = Output::create("solution.txt".as_ref(), Replace::Refuse)?;
//! std::io::Write::write_all(&mut out, text.as_bytes()).map_err(|e| out.error(e))?;
//! out.commit()?;
//! # Ok::<(), gridbot::files::FileError>(())
//! ```

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, BufReader, Read, Write};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

/// What went wrong with a file, naming it.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The path exists but is not something that can be read or written.
    #[error("{path}: {kind}, not a regular file")]
    NotAFile {
        /// The path given.
        path: String,
        /// What it is instead ("a directory", "a FIFO"...).
        kind: &'static str,
    },
    /// The input is larger than its format allows.
    #[error("{path}: larger than {cap}, too large for {what}")]
    TooLarge {
        /// The path given (`standard input` for `-`).
        path: String,
        /// The cap, as text (e.g. `16 MiB`).
        cap: String,
        /// What the file was to hold.
        what: &'static str,
    },
    /// The output exists and replacing it was not allowed.
    #[error("{path} already exists: give another path, or add --force to replace it")]
    Exists {
        /// The path given.
        path: String,
    },
    /// A symbolic link that leads nowhere (or in a loop).
    #[error("{path}: a symbolic link to {target}, which does not exist")]
    DanglingLink {
        /// The path given.
        path: String,
        /// Where the link points.
        target: String,
    },
    /// The file could not be opened, read or written.
    #[error("{path}: {source}")]
    Io {
        /// The path given.
        path: String,
        /// The system's reason.
        source: io::Error,
    },
    /// A folder is needed where something else is.
    #[error("{path}: {kind}, where a folder is needed")]
    NotADir {
        /// The path in the way.
        path: String,
        /// What it is ("a regular file"...).
        kind: &'static str,
    },
    /// A file gridbot wrote and reads back fails its checks.
    #[error("{path}: {why}; delete it (it is made again)")]
    Damaged {
        /// The file.
        path: String,
        /// What is wrong with it.
        why: String,
    },
    /// The bytes are not UTF-8 text.
    #[error("{path}: not UTF-8 text")]
    NotText {
        /// The path given.
        path: String,
    },
}

impl FileError {
    /// What is wrong, without the path (for errors that name it already).
    pub fn reason(&self) -> String {
        match self {
            FileError::NotAFile { kind, .. } => format!("{kind}, not a regular file"),
            FileError::TooLarge { cap, what, .. } => {
                format!("larger than {cap}, too large for {what}")
            }
            FileError::Exists { .. } => {
                "already exists: give another path, or add --force to replace it".into()
            }
            FileError::DanglingLink { target, .. } => {
                format!("a symbolic link to {target}, which does not exist")
            }
            FileError::Io { source, .. } => source.to_string(),
            FileError::NotText { .. } => "not UTF-8 text".into(),
            FileError::NotADir { kind, .. } => format!("{kind}, where a folder is needed"),
            FileError::Damaged { why, .. } => format!("{why}; delete it (it is made again)"),
        }
    }
}

/// Largest benchmark file read whole (a million boards of a few hundred
/// cells each).
pub const BENCH_FILE_CAP: u64 = 256 << 20;

/// Largest small text file read whole: a level, a calibration file.
pub const SMALL_FILE_CAP: u64 = 1 << 20;

/// `body` as a text file gridbot reads back (a cache): a first line naming
/// the producing program, version, `made_by` (the command and its
/// parameters), and a last line with a checksum of everything before it.
pub fn seal_text(made_by: &str, body: &str) -> String {
    let text = format!("# gridbot {} {made_by}\n{body}", env!("CARGO_PKG_VERSION"));
    let sum = xxhash_rust::xxh3::xxh3_64(text.as_bytes());
    format!("{text}# xxh3 {sum:016x}\n")
}

/// The body of a text [`seal_text`] wrote, after checking its checksum,
/// its version and that it was `made_by` the same command; an error
/// naming `path` and what is wrong otherwise.
pub fn unseal_text<'a>(text: &'a str, path: &Path, made_by: &str) -> Result<&'a str, FileError> {
    let damaged = |why: String| FileError::Damaged {
        path: path.display().to_string(),
        why,
    };
    let trimmed = text.strip_suffix('\n').unwrap_or(text);
    let (sealed, last) = trimmed
        .rsplit_once('\n')
        .ok_or_else(|| damaged("too short to be one of gridbot's files".into()))?;
    let sealed = &text[..sealed.len() + 1];
    let sum = last
        .strip_prefix("# xxh3 ")
        .ok_or_else(|| damaged("no checksum line at its end (cut short?)".into()))?;
    if sum != format!("{:016x}", xxhash_rust::xxh3::xxh3_64(sealed.as_bytes())) {
        return Err(damaged("its checksum does not match its contents".into()));
    }
    let (head, body) = sealed.split_once('\n').unwrap_or((sealed, ""));
    let want = format!("# gridbot {} {made_by}", env!("CARGO_PKG_VERSION"));
    if head != want {
        return Err(damaged(format!(
            "made by `{}`, not by `{}`",
            shorten(head.trim_start_matches("# ")),
            want.trim_start_matches("# ")
        )));
    }
    Ok(body)
}

/// Most characters of a user's input echoed in a message.
pub const ECHO_CHARS: usize = 80;

/// `text` as a message shows it: whole when short, otherwise its first
/// [`ECHO_CHARS`] characters and how long it was, so that a 10 MB line or
/// a 100 KB window title does not flood the terminal.
pub fn shorten(text: &str) -> String {
    match text.char_indices().nth(ECHO_CHARS) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}... ({} bytes in all)", &text[..cut], text.len()),
    }
}

/// What a kind of file is called in messages, for anything but a regular file.
pub fn kind_of(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// A byte count as people write it: `512 bytes`, `16 MiB`.
pub fn human_bytes(n: u64) -> String {
    const UNITS: [(&str, u64); 3] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)];
    for (unit, size) in UNITS {
        if n >= size && n.is_multiple_of(size) {
            return format!("{} {unit}", n / size);
        }
    }
    format!("{n} bytes")
}

fn io_error(path: &Path, source: io::Error) -> FileError {
    FileError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// Opens `path` for reading if it is a regular file (after links).
pub fn open_regular(path: &Path) -> Result<File, FileError> {
    open_regular_sized(path).map(|(file, _)| file)
}

/// [`open_regular`], with the file's size.
fn open_regular_sized(path: &Path) -> Result<(File, u64), FileError> {
    let meta = fs::metadata(path).map_err(|e| match fs::read_link(path) {
        Ok(target) if e.kind() == io::ErrorKind::NotFound => FileError::DanglingLink {
            path: path.display().to_string(),
            target: target.display().to_string(),
        },
        _ => io_error(path, e),
    })?;
    if !meta.is_file() {
        return Err(FileError::NotAFile {
            path: path.display().to_string(),
            kind: kind_of(&meta),
        });
    }
    let file = File::open(path).map_err(|e| io_error(path, e))?;
    Ok((file, meta.len()))
}

/// The bytes of `arg` (a regular file, or `-` for standard input), at most
/// `cap` of them; `what` names the format in the error.
pub fn read_bytes(arg: &str, cap: u64, what: &'static str) -> Result<Vec<u8>, FileError> {
    let (reader, name, size): (Box<dyn Read>, String, u64) = if arg == "-" {
        (Box::new(io::stdin()), "standard input".into(), 0)
    } else {
        let (file, size) = open_regular_sized(Path::new(arg))?;
        (Box::new(file), arg.into(), size)
    };
    // Room for the whole file and one byte more, so that a file read in
    // one call is known to have ended by the next (no growing, no probes).
    let mut bytes = Vec::with_capacity(size.min(cap).min(1 << 30) as usize + 1);
    reader
        .take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| io_error(Path::new(&name), e))?;
    if bytes.len() as u64 > cap {
        return Err(FileError::TooLarge {
            path: name,
            cap: human_bytes(cap),
            what,
        });
    }
    Ok(bytes)
}

/// The text of `arg` (a regular file, or `-`), at most `cap` bytes of
/// UTF-8; `what` names the format in the error ("a board").
pub fn read_text(arg: &str, cap: u64, what: &'static str) -> Result<String, FileError> {
    let bytes = read_bytes(arg, cap, what)?;
    String::from_utf8(bytes).map_err(|_| FileError::NotText {
        path: if arg == "-" {
            "standard input".into()
        } else {
            arg.into()
        },
    })
}

/// A buffered reader over a regular file of any size, for formats read a
/// line at a time (databases, tables): the size is bounded by the reader's
/// own use, but a FIFO or a device is refused all the same.
pub fn open_lines(path: &Path) -> Result<BufReader<File>, FileError> {
    Ok(BufReader::new(open_regular(path)?))
}

/// Whether an existing regular file may be replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replace {
    /// Refuse with [`FileError::Exists`] (the default of every command).
    Refuse,
    /// Replace it (`--force`, or the command's own resumable output).
    Allow,
}

impl Replace {
    /// [`Replace::Allow`] when `force` is set.
    pub fn from_force(force: bool) -> Replace {
        if force {
            Replace::Allow
        } else {
            Replace::Refuse
        }
    }
}

/// Where an output's bytes go until it is committed.
#[derive(Debug)]
enum Sink {
    /// A temporary file beside the target, renamed over it on commit.
    Staged(tempfile::NamedTempFile),
    /// A character device or a FIFO, written through.
    Through(File),
}

/// A file being written: see the module doc for the rules.
#[derive(Debug)]
pub struct Output {
    target: PathBuf,
    shown: String,
    sink: Sink,
}

impl Output {
    /// Prepares to write `path`, checking it first (see the module doc).
    pub fn create(path: &Path, replace: Replace) -> Result<Output, FileError> {
        let shown = path.display().to_string();
        let (target, through) = check_target(path, replace)?;
        let sink = if through {
            Sink::Through(open_through(&target).map_err(|e| io_error(path, e))?)
        } else {
            Sink::Staged(stage_beside(&target).map_err(|e| staging_error(path, &target, e))?)
        };
        Ok(Output {
            target,
            shown,
            sink,
        })
    }

    /// The error for a failed write to this output.
    pub fn error(&self, source: io::Error) -> FileError {
        FileError::Io {
            path: self.shown.clone(),
            source,
        }
    }

    /// Puts the file in place: renames the staged file over the target
    /// (or flushes a device). Dropping an output without committing it
    /// removes what was staged.
    pub fn commit(self) -> Result<(), FileError> {
        self.put_in_place(true)
    }

    /// [`Output::commit`] without waiting for the bytes to reach the disk:
    /// for files whose readers check a checksum (a job's units, see
    /// [`crate::units`]), where a crash leaves a file that is refused by
    /// name rather than one that is trusted, and where hundreds of small
    /// files make the wait a noticeable share of the run.
    pub fn commit_unsynced(self) -> Result<(), FileError> {
        self.put_in_place(false)
    }

    fn put_in_place(self, sync: bool) -> Result<(), FileError> {
        let shown = self.shown;
        match self.sink {
            Sink::Through(mut file) => file.flush().map_err(|e| io_error(Path::new(&shown), e)),
            Sink::Staged(staged) => {
                if sync {
                    staged
                        .as_file()
                        .sync_all()
                        .map_err(|e| io_error(Path::new(&shown), e))?;
                }
                staged
                    .persist(&self.target)
                    .map(|_| ())
                    .map_err(|e| io_error(Path::new(&shown), e.error))
            }
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.sink {
            Sink::Staged(f) => f.write(buf),
            Sink::Through(f) => f.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.sink {
            Sink::Staged(f) => f.flush(),
            Sink::Through(f) => f.flush(),
        }
    }
}

/// Opens a character device or a FIFO for writing without blocking: a
/// FIFO nobody reads is an error (ENXIO) instead of a hang.
fn open_through(target: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(target)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ENXIO) => io::Error::other("a FIFO that nobody reads"),
            _ => e,
        })?;
    // Back to blocking writes, so a slow reader is waited for.
    use std::os::fd::AsRawFd;
    // SAFETY: fcntl on a descriptor this function owns.
    let fd = file.as_raw_fd();
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK);
    }
    Ok(file)
}

/// Checks, before a long run, that `path` could be written under the
/// rules of [`Output`] (it may still fail later, e.g. on a full disk).
pub fn check_output(path: &Path, replace: Replace) -> Result<(), FileError> {
    check_target(path, replace).map(|_| ())
}

/// Where `path` leads (links followed) and whether it is written through
/// (a character device or a FIFO); an error when it may not be written.
fn check_target(path: &Path, replace: Replace) -> Result<(PathBuf, bool), FileError> {
    let shown = || path.display().to_string();
    let target = resolve_link(path)?;
    match fs::metadata(&target) {
        Ok(meta) => {
            let t = meta.file_type();
            if t.is_char_device() || t.is_fifo() {
                return Ok((target, true));
            }
            if !meta.is_file() {
                return Err(FileError::NotAFile {
                    path: shown(),
                    kind: kind_of(&meta),
                });
            }
            if replace == Replace::Refuse {
                return Err(FileError::Exists { path: shown() });
            }
            Ok((target, false))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok((target, false)),
        Err(e) => Err(io_error(path, e)),
    }
}

/// Makes sure the folder `dir` exists (creating it and its parents), with
/// a clear error when something else is in the way.
pub fn ensure_dir(dir: &Path) -> Result<(), FileError> {
    match fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => return Ok(()),
        Ok(meta) => {
            let kind = if meta.is_file() {
                "a regular file"
            } else {
                kind_of(&meta)
            };
            return Err(FileError::NotADir {
                path: dir.display().to_string(),
                kind,
            });
        }
        Err(_) => {}
    }
    fs::create_dir_all(dir).map_err(|e| {
        // A parent that is a file gives ENOTDIR or EEXIST: name the parent.
        let blocker = dir.ancestors().skip(1).find_map(|a| {
            fs::metadata(a)
                .ok()
                .filter(|m| !m.is_dir())
                .map(|_| a.display().to_string())
        });
        match blocker {
            Some(parent) => FileError::NotADir {
                path: parent,
                kind: "a regular file",
            },
            None => io_error(dir, e),
        }
    })
}

/// Writes `image` as a PNG file to `path` under the rules of [`Output`].
pub fn write_png<P, C>(
    path: &Path,
    image: &image::ImageBuffer<P, C>,
    replace: Replace,
) -> Result<(), FileError>
where
    P: image::PixelWithColorType,
    [P::Subpixel]: image::EncodableLayout,
    C: std::ops::Deref<Target = [P::Subpixel]>,
{
    let mut png = io::Cursor::new(Vec::new());
    image
        .write_to(&mut png, image::ImageFormat::Png)
        .map_err(|e| io_error(path, io::Error::other(e)))?;
    write_all(path, png.get_ref(), replace)
}

/// Writes `bytes` to `path` under the rules of [`Output`], all or nothing.
pub fn write_all(path: &Path, bytes: &[u8], replace: Replace) -> Result<(), FileError> {
    let mut out = Output::create(path, replace)?;
    out.write_all(bytes).map_err(|e| out.error(e))?;
    out.commit()
}

/// The path a write to `path` lands on: `path` itself, or the end of its
/// chain of symbolic links (which must lead somewhere, or to a file that
/// may be created in an existing folder).
fn resolve_link(path: &Path) -> Result<PathBuf, FileError> {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = fs::read_link(&current).map_err(|e| io_error(path, e))?;
                current = match current.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(io_error(
        path,
        io::Error::other("too many levels of symbolic links"),
    ))
}

/// Why a file could not be staged beside `target`, without the temporary
/// file's name (which the user never asked for).
fn staging_error(path: &Path, target: &Path, e: io::Error) -> FileError {
    let folder = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let source = if fs::metadata(folder).is_err() {
        io::Error::new(
            io::ErrorKind::NotFound,
            format!("the folder {} does not exist", folder.display()),
        )
    } else {
        io::Error::new(
            e.kind(),
            format!(
                "cannot write in {}: {}",
                folder.display(),
                io::Error::from(e.kind())
            ),
        )
    };
    io_error(path, source)
}

/// A temporary file in the target's folder (so the rename is atomic),
/// named after the target so that a leftover is recognisable, with the
/// mode the file will keep: the replaced file's, or for a new file what
/// the umask leaves of 0666 (as any program's new file).
fn stage_beside(target: &Path) -> io::Result<tempfile::NamedTempFile> {
    use std::os::unix::fs::PermissionsExt;
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".into());
    let staged = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".partial")
        .permissions(fs::Permissions::from_mode(0o666))
        .tempfile_in(dir)?;
    if let Ok(meta) = fs::metadata(target) {
        staged.as_file().set_permissions(meta.permissions())?;
    }
    Ok(staged)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir() -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    fn leftovers(d: &Path) -> Vec<String> {
        fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".partial"))
            .collect()
    }

    #[test]
    fn reads_a_regular_file_within_its_cap() {
        let d = dir();
        let p = d.path().join("a.txt");
        fs::write(&p, "hello").unwrap();
        assert_eq!(
            read_text(p.to_str().unwrap(), 5, "a test").unwrap(),
            "hello"
        );
        let e = read_text(p.to_str().unwrap(), 4, "a test").unwrap_err();
        assert!(matches!(e, FileError::TooLarge { .. }), "{e}");
        assert!(e.to_string().contains("larger than 4 bytes"), "{e}");
    }

    #[test]
    fn a_file_where_a_folder_is_needed_is_named_once() {
        let d = dir();
        let f = d.path().join("f");
        fs::write(&f, "x").unwrap();
        let e = ensure_dir(&f).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("{}: a regular file, where a folder is needed", f.display())
        );
        let e = ensure_dir(&f.join("sub")).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("{}: a regular file, where a folder is needed", f.display())
        );
        ensure_dir(&d.path().join("a/b")).unwrap();
        ensure_dir(&d.path().join("a/b")).unwrap();
    }

    #[test]
    fn long_inputs_are_shortened_in_messages() {
        assert_eq!(shorten("short"), "short");
        let long = "x".repeat(10_000_000);
        let s = shorten(&long);
        assert!(s.len() < 120, "{s}");
        assert!(s.ends_with("... (10000000 bytes in all)"), "{s}");
        // Never cut inside a character.
        assert!(shorten(&"é".repeat(100)).starts_with(&"é".repeat(80)));
    }

    #[test]
    fn refuses_directories_devices_and_fifos_before_opening() {
        let d = dir();
        let e = read_text(d.path().to_str().unwrap(), 10, "a test").unwrap_err();
        assert!(e.to_string().contains("a directory"), "{e}");
        let e = read_text("/dev/zero", 10, "a test").unwrap_err();
        assert!(e.to_string().contains("a character device"), "{e}");
        let fifo = d.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // Opening a FIFO with no writer would block: it must be refused first.
        let e = read_text(fifo.to_str().unwrap(), 10, "a test").unwrap_err();
        assert!(e.to_string().contains("a FIFO"), "{e}");
    }

    #[test]
    fn names_a_dangling_link_and_binary_data() {
        let d = dir();
        let link = d.path().join("link");
        std::os::unix::fs::symlink(d.path().join("nowhere"), &link).unwrap();
        let e = read_text(link.to_str().unwrap(), 10, "a test").unwrap_err();
        assert!(matches!(e, FileError::DanglingLink { .. }), "{e}");
        let bin = d.path().join("bin");
        fs::write(&bin, [0xff, 0xfe, 0x00]).unwrap();
        let e = read_text(bin.to_str().unwrap(), 10, "a test").unwrap_err();
        assert!(e.to_string().contains("not UTF-8"), "{e}");
    }

    #[test]
    fn an_existing_file_is_kept_unless_replacing_is_allowed() {
        let d = dir();
        let p = d.path().join("keep.txt");
        fs::write(&p, "mine").unwrap();
        let e = write_all(&p, b"new", Replace::Refuse).unwrap_err();
        assert!(e.to_string().contains("--force"), "{e}");
        assert_eq!(fs::read_to_string(&p).unwrap(), "mine");
        write_all(&p, b"new", Replace::Allow).unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "new");
        assert!(leftovers(d.path()).is_empty());
    }

    #[test]
    fn an_uncommitted_output_leaves_nothing() {
        let d = dir();
        let p = d.path().join("out.txt");
        {
            let mut out = Output::create(&p, Replace::Refuse).unwrap();
            out.write_all(b"half").unwrap();
            assert_eq!(leftovers(d.path()).len(), 1);
        }
        assert!(!p.exists());
        assert!(leftovers(d.path()).is_empty());
    }

    #[test]
    fn a_symlink_is_followed_never_replaced() {
        let d = dir();
        let target = d.path().join("target.txt");
        let link = d.path().join("link.txt");
        fs::write(&target, "old").unwrap();
        std::os::unix::fs::symlink("target.txt", &link).unwrap();
        write_all(&link, b"new", Replace::Allow).unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
        // A link to a file yet to be made creates the file, keeps the link.
        let fresh = d.path().join("fresh-link");
        std::os::unix::fs::symlink("made.txt", &fresh).unwrap();
        write_all(&fresh, b"x", Replace::Refuse).unwrap();
        assert_eq!(fs::read_to_string(d.path().join("made.txt")).unwrap(), "x");
    }

    #[test]
    fn devices_are_written_through_and_directories_refused() {
        write_all(Path::new("/dev/null"), b"gone", Replace::Refuse).unwrap();
        assert!(fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device());
        let d = dir();
        let e = write_all(d.path(), b"x", Replace::Allow).unwrap_err();
        assert!(e.to_string().contains("a directory"), "{e}");
    }

    #[test]
    fn a_fifo_is_written_through_when_read_and_refused_when_not() {
        let d = dir();
        let fifo = d.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // Nobody reads: an error at once, not a hang.
        let e = write_all(&fifo, b"x", Replace::Refuse).unwrap_err();
        assert!(e.to_string().contains("nobody reads"), "{e}");
        // A reader: the bytes go through, the FIFO stays a FIFO.
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read(&fifo).unwrap())
        };
        let end = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            match write_all(&fifo, b"through", Replace::Refuse) {
                Ok(()) => break,
                Err(_) if std::time::Instant::now() < end => {
                    std::thread::sleep(std::time::Duration::from_millis(10))
                }
                Err(e) => panic!("{e}"),
            }
        }
        assert_eq!(reader.join().unwrap(), b"through");
        assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    }

    #[test]
    fn outputs_get_the_usual_mode_or_keep_the_old_one() {
        use std::os::unix::fs::PermissionsExt;
        let d = dir();
        let p = d.path().join("new.txt");
        write_all(&p, b"x", Replace::Refuse).unwrap();
        // SAFETY: umask(2) read and restored at once.
        let umask = unsafe {
            let m = libc::umask(0o022);
            libc::umask(m);
            m
        };
        let mode = fs::metadata(&p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o666 & !(umask as u32));
        fs::set_permissions(&p, fs::Permissions::from_mode(0o640)).unwrap();
        write_all(&p, b"y", Replace::Allow).unwrap();
        assert_eq!(
            fs::metadata(&p).unwrap().permissions().mode() & 0o777,
            0o640
        );
    }

    #[test]
    fn a_missing_folder_is_named_not_the_temporary_file() {
        let d = dir();
        let e = write_all(&d.path().join("nope/x.txt"), b"x", Replace::Refuse).unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("does not exist") && !text.contains(".partial"),
            "{text}"
        );
    }

    #[test]
    fn sealed_text_comes_back_and_any_change_is_named() {
        let p = Path::new("sets.txt");
        let text = seal_text("enumerate rush size=4", "1 2\n3 4\n");
        assert_eq!(
            unseal_text(&text, p, "enumerate rush size=4").unwrap(),
            "1 2\n3 4\n"
        );
        let e = unseal_text(&text, p, "enumerate rush size=5").unwrap_err();
        assert!(e.to_string().contains("made by"), "{e}");
        let edited = text.replace("3 4", "3 5");
        let e = unseal_text(&edited, p, "enumerate rush size=4").unwrap_err();
        assert!(e.to_string().contains("checksum"), "{e}");
        let cut = &text[..text.len() - 10];
        let e = unseal_text(cut, p, "enumerate rush size=4").unwrap_err();
        assert!(
            e.to_string().contains("sets.txt") && e.to_string().contains("delete it"),
            "{e}"
        );
    }

    #[test]
    fn byte_counts_read_as_people_write_them() {
        assert_eq!(human_bytes(16 << 20), "16 MiB");
        assert_eq!(human_bytes(1000), "1000 bytes");
        assert_eq!(human_bytes(2 << 30), "2 GiB");
    }
}
