//! The layers of [`super::layered`] search kept in a folder, one file a
//! layer, so that a search too large for memory, or longer than one run,
//! holds only its last two layers in memory and can be resumed.
//!
//! The folder holds `search.txt` (what the search is of, as the caller
//! describes it: a search is resumed only on the same problem) and
//! `layer-NNNNN.bin`, each layer's keys in order, little-endian words. A
//! layer file is written under a temporary name and renamed when
//! complete, so a run stopped at any moment leaves only whole layers.

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// A key that can be written to a layer file.
pub trait LayerKey: Copy + Ord + Send + Sync {
    /// Bytes a key takes in a file.
    const BYTES: usize;
    /// Appends the key's bytes.
    fn put(&self, out: &mut Vec<u8>);
    /// The key of `BYTES` bytes.
    fn get(bytes: &[u8]) -> Self;
}

impl<const N: usize> LayerKey for [u64; N] {
    const BYTES: usize = 8 * N;
    fn put(&self, out: &mut Vec<u8>) {
        for w in self {
            out.extend_from_slice(&w.to_le_bytes());
        }
    }
    fn get(bytes: &[u8]) -> Self {
        std::array::from_fn(|i| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&bytes[8 * i..8 * i + 8]);
            u64::from_le_bytes(w)
        })
    }
}

impl LayerKey for u32 {
    const BYTES: usize = 4;
    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
    fn get(bytes: &[u8]) -> Self {
        u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
    }
}

/// Why a folder of layers cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum LayerFileError {
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: io::Error,
    },
    /// The folder holds the layers of another search.
    #[error("{0} holds the layers of another search ({1}); give an empty or new folder")]
    Other(PathBuf, String),
    /// The folder holds files but no search.
    #[error("{0} is not empty and holds no search: give an empty or new folder")]
    NotEmpty(PathBuf),
    /// A layer file is not a whole number of keys, or its keys are not
    /// sorted.
    #[error("{0} is damaged: not a sorted list of keys; remove it and the layers after it")]
    Damaged(PathBuf),
}

/// A folder of layers.
#[derive(Debug, Clone)]
pub struct LayerFiles {
    dir: PathBuf,
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> LayerFileError + '_ {
    move |source| LayerFileError::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl LayerFiles {
    /// The folder `dir` for the search described by `what` (made if
    /// missing); refused when it holds another search's layers.
    pub fn open(dir: &Path, what: &str) -> Result<LayerFiles, LayerFileError> {
        fs::create_dir_all(dir).map_err(io_error(dir))?;
        let tag = dir.join("search.txt");
        match fs::read_to_string(&tag) {
            Ok(found) if found.trim_end() == what.trim_end() => {}
            Ok(found) => {
                let first = found.lines().next().unwrap_or("").to_string();
                return Err(LayerFileError::Other(dir.to_path_buf(), first));
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                // Never write layers among files the user had.
                let mut entries = fs::read_dir(dir).map_err(io_error(dir))?;
                if entries.next().is_some() {
                    return Err(LayerFileError::NotEmpty(dir.to_path_buf()));
                }
                fs::write(&tag, format!("{}\n", what.trim_end())).map_err(io_error(&tag))?;
            }
            Err(e) => return Err(io_error(&tag)(e)),
        }
        Ok(LayerFiles {
            dir: dir.to_path_buf(),
        })
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self, depth: usize) -> PathBuf {
        self.dir.join(format!("layer-{depth:05}.bin"))
    }

    /// How many whole layers the folder holds (0, 1, ... without a gap).
    pub fn count(&self) -> usize {
        (0..).take_while(|&d| self.path(d).is_file()).count()
    }

    /// The keys in the layer file of `depth`, in a file's bytes.
    pub fn len_of<K: LayerKey>(&self, depth: usize) -> Result<u64, LayerFileError> {
        let path = self.path(depth);
        let bytes = fs::metadata(&path).map_err(io_error(&path))?.len();
        Ok(bytes / K::BYTES as u64)
    }

    /// Writes the layer of `depth` (whole, or not at all).
    pub fn write<K: LayerKey>(&self, depth: usize, keys: &[K]) -> Result<(), LayerFileError> {
        let path = self.path(depth);
        let part = path.with_extension("part");
        let file = fs::File::create(&part).map_err(io_error(&part))?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        let mut buf = Vec::with_capacity(1 << 16);
        for chunk in keys.chunks((1 << 16) / K::BYTES.max(1)) {
            buf.clear();
            chunk.iter().for_each(|k| k.put(&mut buf));
            out.write_all(&buf).map_err(io_error(&part))?;
        }
        let file = out
            .into_inner()
            .map_err(|e| io_error(&part)(e.into_error()))?;
        file.sync_all().map_err(io_error(&part))?;
        fs::rename(&part, &path).map_err(io_error(&path))
    }

    /// Reads the layer of `depth`, checking that it is sorted.
    pub fn read<K: LayerKey>(&self, depth: usize) -> Result<Vec<K>, LayerFileError> {
        let path = self.path(depth);
        let bytes = fs::read(&path).map_err(io_error(&path))?;
        if bytes.len() % K::BYTES != 0 {
            return Err(LayerFileError::Damaged(path));
        }
        let keys: Vec<K> = bytes.chunks_exact(K::BYTES).map(K::get).collect();
        if keys.windows(2).any(|w| w[0] >= w[1]) {
            return Err(LayerFileError::Damaged(path));
        }
        Ok(keys)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("gridbot-layers-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn layers_come_back_as_written_and_another_search_is_refused() {
        let dir = folder("roundtrip");
        let files = LayerFiles::open(&dir, "puzzle A").unwrap();
        let keys: Vec<[u64; 2]> = vec![[1, 2], [1, 3], [u64::MAX, 0]];
        files.write(0, &keys[..1]).unwrap();
        files.write(1, &keys).unwrap();
        assert_eq!(files.count(), 2);
        assert_eq!(files.read::<[u64; 2]>(1).unwrap(), keys);
        assert_eq!(files.len_of::<[u64; 2]>(1).unwrap(), 3);
        assert!(LayerFiles::open(&dir, "puzzle A").is_ok());
        let err = LayerFiles::open(&dir, "puzzle B").unwrap_err();
        assert!(err.to_string().contains("puzzle A"), "{err}");
        let mine = folder("theirs");
        fs::create_dir_all(&mine).unwrap();
        fs::write(mine.join("notes.txt"), "the user's").unwrap();
        let err = LayerFiles::open(&mine, "puzzle A").unwrap_err();
        assert!(matches!(err, LayerFileError::NotEmpty(_)), "{err}");
        assert_eq!(
            fs::read_to_string(mine.join("notes.txt")).unwrap(),
            "the user's"
        );
        let _ = fs::remove_dir_all(&mine);
        fs::write(dir.join("layer-00001.bin"), [0u8; 5]).unwrap();
        assert!(matches!(
            files.read::<[u64; 2]>(1),
            Err(LayerFileError::Damaged(_))
        ));
        let _ = fs::remove_dir_all(&dir);
    }
}
