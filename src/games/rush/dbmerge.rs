//! The database file of an enumeration, made from its units' files
//! without holding the database in memory: each unit's entries are saved
//! in database order (moves descending, then board), and the files are
//! merged k ways, in passes of at most `fan_in` files (intermediate
//! files go to a scratch folder and are removed), so memory is one line
//! and one read buffer per open file. The wall-free 6x6 database has 19 M
//! lines; with one wall it is projected at hundreds of millions, more
//! than the machine's memory as in-memory entries.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fs;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::enumerate::{Entry, EnumerateError};
use crate::files::{Output, Replace};

/// Files merged at once (well under the usual limit of 1,024 open files).
pub const FAN_IN: usize = 256;

/// Database order: most moves first, then the board text.
pub fn entry_order(a: &Entry, b: &Entry) -> Ordering {
    b.moves.cmp(&a.moves).then_with(|| a.board.cmp(&b.board))
}

/// One database line `MOVES BOARD CLUSTER_SIZE`, or `None` if it is not one.
pub fn parse_entry(line: &str) -> Option<Entry> {
    let mut f = line.split(' ');
    let (m, b, c) = (f.next()?, f.next()?, f.next()?);
    if f.next().is_some() || b.is_empty() {
        return None;
    }
    Some(Entry {
        moves: m.parse().ok()?,
        board: b.to_string(),
        cluster_size: c.parse().ok()?,
    })
}

/// The next line of one input, parsed just enough to order it.
struct Head {
    moves: u32,
    /// The line, without its end.
    line: String,
    /// Where the board is in `line`.
    board: (usize, usize),
    src: usize,
}

impl Head {
    fn board(&self) -> &str {
        &self.line[self.board.0..self.board.1]
    }

    /// Database order, as [`entry_order`].
    fn order(&self, other: &Head) -> Ordering {
        other
            .moves
            .cmp(&self.moves)
            .then_with(|| self.board().cmp(other.board()))
    }
}

impl PartialEq for Head {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Head {}
impl PartialOrd for Head {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Head {
    /// The line that comes first is the greatest (the heap pops it first).
    fn cmp(&self, other: &Self) -> Ordering {
        other.order(self).then_with(|| other.src.cmp(&self.src))
    }
}

/// One input file being read.
struct Input {
    path: PathBuf,
    reader: BufReader<fs::File>,
    line_no: usize,
}

impl Input {
    fn open(path: &Path) -> Result<Input, EnumerateError> {
        let f = crate::files::open_regular(path)?;
        Ok(Input {
            path: path.into(),
            reader: BufReader::with_capacity(1 << 16, f),
            line_no: 0,
        })
    }

    /// Its next database line (comment lines `#` skipped) into `buf`,
    /// checked; `None` at the end.
    fn next(&mut self, src: usize, mut buf: String) -> Result<Option<Head>, EnumerateError> {
        loop {
            buf.clear();
            let read = self
                .reader
                .read_line(&mut buf)
                .map_err(|e| EnumerateError::Io(self.path.clone(), e))?;
            if read == 0 {
                return Ok(None);
            }
            self.line_no += 1;
            if buf.ends_with('\n') {
                buf.pop();
            }
            if buf.starts_with('#') {
                continue;
            }
            let bad = || {
                EnumerateError::Damaged(
                    self.path.clone(),
                    format!("line {} is not `MOVES BOARD CLUSTER_SIZE`", self.line_no),
                )
            };
            let first = buf.find(' ').ok_or_else(bad)?;
            let second = first + 1 + buf[first + 1..].find(' ').ok_or_else(bad)?;
            let moves = buf[..first].parse().map_err(|_| bad())?;
            if buf[second + 1..].parse::<u64>().is_err() || second == first + 1 {
                return Err(bad());
            }
            return Ok(Some(Head {
                moves,
                line: buf,
                board: (first + 1, second),
                src,
            }));
        }
    }
}

/// Merges `inputs` (each in database order) into `out`: returns the lines
/// written. An input out of order is reported as damaged.
fn merge_once(inputs: &[PathBuf], out: &Path, w: impl Write) -> Result<u64, EnumerateError> {
    let io = |e| EnumerateError::Io(out.into(), e);
    let mut w = BufWriter::with_capacity(1 << 20, w);
    let mut files = inputs
        .iter()
        .map(|p| Input::open(p))
        .collect::<Result<Vec<_>, _>>()?;
    let mut heap = BinaryHeap::with_capacity(files.len());
    for (k, f) in files.iter_mut().enumerate() {
        if let Some(h) = f.next(k, String::new())? {
            heap.push(h);
        }
    }
    let mut lines = 0u64;
    let mut prev = String::new();
    while let Some(h) = heap.pop() {
        w.write_all(h.line.as_bytes()).map_err(io)?;
        w.write_all(b"\n").map_err(io)?;
        lines += 1;
        let f = &mut files[h.src];
        let src = h.src;
        // The next line of the same input must not come before this one.
        prev.clear();
        prev.push_str(h.board());
        let moves = h.moves;
        if let Some(next) = f.next(src, h.line)? {
            if next.moves > moves || (next.moves == moves && next.board() < prev.as_str()) {
                return Err(EnumerateError::Damaged(
                    f.path.clone(),
                    format!("line {} is out of database order", f.line_no),
                ));
            }
            heap.push(next);
        }
    }
    w.flush().map_err(io)?;
    Ok(lines)
}

/// Merges `inputs` (each in database order) into `out` as a
/// [`crate::files::Output`] (staged and renamed at the end, so a failed
/// merge leaves no partial `out`; an existing file replaced only as
/// `replace` says), in passes of at most `fan_in` files; intermediate files
/// go to `scratch` and are removed. Returns the lines written.
pub fn merge_sorted(
    inputs: &[PathBuf],
    out: &Path,
    scratch: &Path,
    fan_in: usize,
    replace: Replace,
) -> Result<u64, EnumerateError> {
    let fan_in = fan_in.max(2);
    let mut level: Vec<PathBuf> = inputs.to_vec();
    let mut made: Vec<PathBuf> = Vec::new();
    let mut pass = 0;
    let result = (|| {
        while level.len() > fan_in {
            let mut next = Vec::new();
            for (k, group) in level.chunks(fan_in).enumerate() {
                let p = scratch.join(format!("merge-{pass}-{k:05}.tmp"));
                made.push(p.clone());
                let f = fs::File::create(&p).map_err(|e| EnumerateError::Io(p.clone(), e))?;
                merge_once(group, &p, f)?;
                next.push(p);
            }
            level = next;
            pass += 1;
        }
        let mut w = Output::create(out, replace)?;
        let lines = merge_once(&level, out, &mut w)?;
        w.commit()?;
        Ok(lines)
    })();
    for p in &made {
        let _ = fs::remove_file(p);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(moves: u32, board: &str, size: u64) -> Entry {
        Entry {
            moves,
            board: board.into(),
            cluster_size: size,
        }
    }

    fn write(path: &Path, head: &str, entries: &[Entry]) {
        let mut s = String::from(head);
        for e in entries {
            s.push_str(&format!("{} {} {}\n", e.moves, e.board, e.cluster_size));
        }
        fs::write(path, s).unwrap();
    }

    #[test]
    fn merges_in_database_order_through_several_passes() {
        let dir = std::env::temp_dir().join(format!("gridbot-dbmerge-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        // 23 files of pseudo-random entries, some empty, each sorted.
        let mut all = Vec::new();
        let mut inputs = Vec::new();
        let mut x = 12345u64;
        for k in 0..23 {
            let mut es = Vec::new();
            for _ in 0..(k * 7 % 11) {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let moves = (x >> 60) as u32;
                let board = format!("B{:08x}", (x >> 20) as u32);
                es.push(entry(moves, &board, x >> 50));
            }
            es.sort_by(entry_order);
            let p = dir.join(format!("in-{k}.txt"));
            write(&p, "# 1 2 3 4\n", &es);
            inputs.push(p);
            all.extend(es);
        }
        all.sort_by(entry_order);
        let out = dir.join("db.txt");
        for fan_in in [2, 3, 5, 256] {
            let lines = merge_sorted(&inputs, &out, &dir, fan_in, Replace::Allow).unwrap();
            assert_eq!(lines, all.len() as u64);
            let got: Vec<Entry> = fs::read_to_string(&out)
                .unwrap()
                .lines()
                .map(|l| parse_entry(l).unwrap())
                .collect();
            assert_eq!(got, all, "fan-in {fan_in}");
            let left: Vec<_> = fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .filter(|n| n.ends_with(".tmp"))
                .collect();
            assert!(left.is_empty(), "scratch files left: {left:?}");
        }
        // An input out of order, or with a bad line, is reported and `out`
        // keeps what it had.
        let before = fs::read_to_string(&out).unwrap();
        write(&inputs[0], "", &[entry(3, "BB", 1), entry(5, "CC", 1)]);
        let e = merge_sorted(&inputs, &out, &dir, 4, Replace::Allow).unwrap_err();
        assert!(e.to_string().contains("out of database order"), "{e}");
        fs::write(&inputs[0], "3 BB\n").unwrap();
        let e = merge_sorted(&inputs, &out, &dir, 4, Replace::Allow).unwrap_err();
        assert!(e.to_string().contains("line 1 is not"), "{e}");
        assert_eq!(fs::read_to_string(&out).unwrap(), before);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn parses_database_lines() {
        assert_eq!(parse_entry("51 ABC 4780"), Some(entry(51, "ABC", 4780)));
        for bad in ["", "51 ABC", "x ABC 1", "51 ABC 1 2", "51  1"] {
            assert_eq!(parse_entry(bad), None, "{bad:?}");
        }
    }
}
