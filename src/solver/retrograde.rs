//! Compact tables indexed by rank (see [`crate::solver::rank`]): pattern
//! databases. Fifteen's pattern databases ([`NibbleTable`], filled by
//! [`crate::solver::zero_one`]) are the user.
//!
//! - [`PackedTable<BITS>`]: `BITS` (1, 2, 4 or 8) bits per entry packed in
//!   atomic 64-bit words, so rayon workers can fill one table together
//!   ([`PackedTable::claim`] is a compare-and-swap). [`NibbleTable`] holds
//!   distances with 15 = unknown.
//! - [`PackedTable::save`] / [`PackedTable::load`]: a 40-byte header
//!   (magic, bits per entry, entry count, payload size, FNV-1a 64 checksum
//!   of the payload) and the payload. `load` checks all of it and returns
//!   a typed [`TableError`] on any damage, so callers rebuild instead of
//!   trusting a bad file. `save` writes a temporary file and renames it.
//!
//! Ranks are `u64` in `0..len` (checked in debug builds).

use rayon::prelude::*;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A table of `len` entries of `BITS` bits each.
#[derive(Debug)]
pub struct PackedTable<const BITS: u32> {
    len: u64,
    words: Vec<AtomicU64>,
}

/// Four bits per entry (0..=15).
pub type NibbleTable = PackedTable<4>;

/// Why a table file could not be loaded or saved.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// The path is not a regular file, or cannot be opened or written.
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    /// Reading or writing the file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The file does not start with the table magic.
    #[error("{}: not a gridbot table file (bad magic); delete it or give another path", path.display())]
    Magic {
        /// The file.
        path: PathBuf,
    },
    /// The file holds entries of another width.
    #[error("{}: holds {found}-bit entries, expected {expected}-bit; delete it and build it again", path.display())]
    Kind {
        /// The file.
        path: PathBuf,
        /// Bits per entry wanted.
        expected: u32,
        /// Bits per entry in the file.
        found: u32,
    },
    /// The header and the file length (or the entry count wanted) disagree.
    #[error("{}: wrong size: {detail}; delete it and build it again", path.display())]
    Size {
        /// The file.
        path: PathBuf,
        /// What disagreed.
        detail: String,
    },
    /// The payload does not match its checksum.
    #[error("{}: checksum mismatch (file damaged); delete it and build it again", path.display())]
    Checksum {
        /// The file.
        path: PathBuf,
    },
}

const MAGIC: [u8; 8] = *b"GBTABLE1";
const HEADER: usize = 40;

/// FNV-1a 64 over `bytes`, continuing from `h`.
fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

impl<const BITS: u32> PackedTable<BITS> {
    const PER_WORD: u64 = 64 / BITS as u64;
    const MASK: u64 = (1u64 << BITS) - 1;
    /// The largest value an entry holds, used as "unknown" by
    /// [`PackedTable::new`].
    pub const MAX: u8 = ((1u16 << BITS) - 1) as u8;

    fn word_fill(value: u8) -> u64 {
        assert!(
            matches!(BITS, 1 | 2 | 4 | 8),
            "PackedTable: BITS must be 1, 2, 4 or 8"
        );
        let mut w = 0u64;
        for i in 0..Self::PER_WORD {
            w |= (value as u64 & Self::MASK) << (i * BITS as u64);
        }
        w
    }

    /// `len` entries, all `value` (masked to `BITS` bits).
    pub fn filled(len: u64, value: u8) -> Self {
        let n = len.div_ceil(Self::PER_WORD) as usize;
        let w = Self::word_fill(value);
        PackedTable {
            len,
            words: (0..n).map(|_| AtomicU64::new(w)).collect(),
        }
    }

    /// `len` entries, all [`Self::MAX`] (unknown).
    pub fn new(len: u64) -> Self {
        Self::filled(len, Self::MAX)
    }

    /// Number of entries.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True when the table has no entries.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes held by the entries.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    #[inline]
    fn place(i: u64) -> (usize, u32) {
        (
            (i / Self::PER_WORD) as usize,
            ((i % Self::PER_WORD) * BITS as u64) as u32,
        )
    }

    /// Entry `i` (`i < len`).
    #[inline]
    pub fn get(&self, i: u64) -> u8 {
        debug_assert!(i < self.len);
        let (w, s) = Self::place(i);
        ((self.words[w].load(Relaxed) >> s) & Self::MASK) as u8
    }

    /// Sets entry `i` to `value` (masked to `BITS` bits).
    #[inline]
    pub fn set(&mut self, i: u64, value: u8) {
        debug_assert!(i < self.len);
        let (w, s) = Self::place(i);
        let word = self.words[w].get_mut();
        *word = (*word & !(Self::MASK << s)) | ((value as u64 & Self::MASK) << s);
    }

    /// Atomically sets entry `i` to `to` if it holds `from`; true when it
    /// did. Safe to call from many threads at once.
    #[inline]
    pub fn claim(&self, i: u64, from: u8, to: u8) -> bool {
        debug_assert!(i < self.len);
        let (w, s) = Self::place(i);
        let (from, to) = (from as u64 & Self::MASK, to as u64 & Self::MASK);
        self.words[w]
            .fetch_update(Relaxed, Relaxed, |word| {
                ((word >> s) & Self::MASK == from)
                    .then_some((word & !(Self::MASK << s)) | (to << s))
            })
            .is_ok()
    }

    /// How many entries hold `value`.
    pub fn count(&self, value: u8) -> u64 {
        (0..self.len)
            .into_par_iter()
            .filter(|&i| self.get(i) == value)
            .count() as u64
    }

    /// Writes the table to `path` (through a temporary file renamed into
    /// place, so a crash never leaves a half-written table under `path`).
    pub fn save(&self, path: &Path) -> Result<(), TableError> {
        let io = |source| TableError::Io {
            path: path.to_path_buf(),
            source,
        };
        let payload = self.words.len() as u64 * 8;
        let mut h = FNV_OFFSET;
        for w in &self.words {
            h = fnv1a(h, &w.load(Relaxed).to_le_bytes());
        }
        // A cache the program rebuilds: replacing it is its own business.
        let mut out = crate::files::Output::create(path, crate::files::Replace::Allow)?;
        let mut f = BufWriter::new(&mut out);
        let mut header = Vec::with_capacity(HEADER);
        header.extend_from_slice(&MAGIC);
        header.extend_from_slice(&BITS.to_le_bytes());
        header.extend_from_slice(&0u32.to_le_bytes());
        header.extend_from_slice(&self.len.to_le_bytes());
        header.extend_from_slice(&payload.to_le_bytes());
        header.extend_from_slice(&h.to_le_bytes());
        f.write_all(&header).map_err(io)?;
        for w in &self.words {
            f.write_all(&w.load(Relaxed).to_le_bytes()).map_err(io)?;
        }
        f.flush().map_err(io)?;
        drop(f);
        Ok(out.commit()?)
    }

    /// Reads a table saved by [`PackedTable::save`], checking magic, entry
    /// width, sizes and checksum.
    pub fn load(path: &Path) -> Result<Self, TableError> {
        let p = || path.to_path_buf();
        let io = |source| TableError::Io { path: p(), source };
        let file = crate::files::open_regular(path)?;
        let file_len = file.metadata().map_err(io)?.len();
        let mut f = BufReader::with_capacity(1 << 20, file);
        let mut header = [0u8; HEADER];
        if file_len < HEADER as u64 {
            return Err(TableError::Size {
                path: p(),
                detail: format!("{file_len} bytes is shorter than the header"),
            });
        }
        f.read_exact(&mut header).map_err(io)?;
        if header[..8] != MAGIC {
            return Err(TableError::Magic { path: p() });
        }
        let u32_at = |i: usize| u32::from_le_bytes(header[i..i + 4].try_into().unwrap());
        let u64_at = |i: usize| u64::from_le_bytes(header[i..i + 8].try_into().unwrap());
        let (bits, len, payload, sum) = (u32_at(8), u64_at(16), u64_at(24), u64_at(32));
        if bits != BITS {
            return Err(TableError::Kind {
                path: p(),
                expected: BITS,
                found: bits,
            });
        }
        let words = len.div_ceil(Self::PER_WORD);
        if payload != words * 8 || file_len != HEADER as u64 + payload {
            return Err(TableError::Size {
                path: p(),
                detail: format!(
                    "{len} entries need {} payload bytes; header says {payload}, file has {}",
                    words * 8,
                    file_len.saturating_sub(HEADER as u64)
                ),
            });
        }
        let mut out = Vec::with_capacity(words as usize);
        let mut h = FNV_OFFSET;
        let mut buf = vec![0u8; 1 << 16];
        let mut left = payload as usize;
        while left > 0 {
            let chunk = left.min(buf.len());
            f.read_exact(&mut buf[..chunk]).map_err(io)?;
            h = fnv1a(h, &buf[..chunk]);
            out.extend(
                buf[..chunk]
                    .chunks_exact(8)
                    .map(|b| AtomicU64::new(u64::from_le_bytes(b.try_into().unwrap()))),
            );
            left -= chunk;
        }
        if h != sum {
            return Err(TableError::Checksum { path: p() });
        }
        Ok(PackedTable { len, words: out })
    }

    /// [`PackedTable::load`], also requiring exactly `len` entries.
    pub fn load_expecting(path: &Path, len: u64) -> Result<Self, TableError> {
        let t = Self::load(path)?;
        if t.len != len {
            return Err(TableError::Size {
                path: path.to_path_buf(),
                detail: format!("holds {} entries, expected {len}", t.len),
            });
        }
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("gridbot-retro-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn get_set_claim() {
        let mut t = NibbleTable::new(37);
        assert_eq!(t.get(36), 15);
        t.set(5, 3);
        t.set(6, 9);
        assert_eq!((t.get(4), t.get(5), t.get(6)), (15, 3, 9));
        assert!(!t.claim(5, 15, 2));
        assert!(t.claim(7, 15, 2));
        assert_eq!(t.get(7), 2);
        assert_eq!(t.count(15), 34);
        let mut b = PackedTable::<1>::filled(130, 0);
        b.set(129, 1);
        assert!(b.claim(64, 0, 1) && !b.claim(64, 0, 1));
        assert_eq!(b.count(1), 2);
        let mut y = PackedTable::<8>::new(9);
        y.set(8, 200);
        assert_eq!((y.get(8), y.get(7)), (200, 255));
    }

    #[test]
    fn save_load_and_damage() {
        let mut t = NibbleTable::new(1001);
        for i in 0..1001 {
            t.set(i, (i * 7 % 16) as u8);
        }
        let path = scratch("t.nib");
        t.save(&path).unwrap();
        let u = NibbleTable::load_expecting(&path, 1001).unwrap();
        assert!((0..1001).all(|i| u.get(i) == t.get(i)));
        assert!(matches!(
            NibbleTable::load_expecting(&path, 1000),
            Err(TableError::Size { .. })
        ));
        assert!(matches!(
            PackedTable::<1>::load(&path),
            Err(TableError::Kind {
                expected: 1,
                found: 4,
                ..
            })
        ));
        let good = std::fs::read(&path).unwrap();
        // One flipped payload bit.
        let mut bad = good.clone();
        bad[HEADER + 17] ^= 4;
        std::fs::write(&path, &bad).unwrap();
        assert!(matches!(
            NibbleTable::load(&path),
            Err(TableError::Checksum { .. })
        ));
        // Truncated.
        std::fs::write(&path, &good[..good.len() - 8]).unwrap();
        assert!(matches!(
            NibbleTable::load(&path),
            Err(TableError::Size { .. })
        ));
        std::fs::write(&path, &good[..10]).unwrap();
        assert!(matches!(
            NibbleTable::load(&path),
            Err(TableError::Size { .. })
        ));
        // Wrong magic.
        let mut bad = good.clone();
        bad[0] = b'X';
        std::fs::write(&path, &bad).unwrap();
        let e = NibbleTable::load(&path).unwrap_err();
        assert!(matches!(e, TableError::Magic { .. }));
        assert!(e.to_string().contains("t.nib"));
        // Missing.
        let e = NibbleTable::load(&scratch("absent")).unwrap_err();
        assert!(matches!(e, TableError::Io { .. }));
        std::fs::remove_file(&path).unwrap();
    }
}
