//! Large zeroed arrays of atomic words for tables that are hit at random
//! (pattern databases, endgame tables): on Linux an anonymous memory map
//! advised for transparent huge pages, so a random access costs one cache
//! miss instead of a cache miss plus a page-table walk.
//!
//! [`AtomicWords::zeroed`] maps the memory untouched (the kernel hands out
//! zero pages on first touch, in 2 MiB pages where it can, see
//! `/sys/kernel/mm/transparent_hugepage/enabled`: `madvise` or `always`);
//! on other systems, or if the map fails, it falls back to a `Vec`. The
//! words read as a plain `&[AtomicU64]` either way.

use std::ops::Deref;
use std::sync::atomic::AtomicU64;

/// Bytes of a huge page on x86-64 and arm64 Linux.
const HUGE: usize = 2 << 20;

/// A fixed-length zeroed slice of `AtomicU64`, huge-page backed where the
/// system allows.
pub struct AtomicWords {
    inner: Inner,
}

enum Inner {
    #[cfg(target_os = "linux")]
    Mapped {
        base: *mut libc::c_void,
        map_len: usize,
        words: *const AtomicU64,
        len: usize,
    },
    Heap(Vec<AtomicU64>),
}

// SAFETY: the mapping is owned exclusively by this value and only ever
// accessed through `&[AtomicU64]`, which is Send and Sync.
unsafe impl Send for AtomicWords {}
// SAFETY: as above.
unsafe impl Sync for AtomicWords {}

impl std::fmt::Debug for AtomicWords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AtomicWords({} words)", self.len())
    }
}

impl AtomicWords {
    /// `len` words, all zero.
    pub fn zeroed(len: usize) -> AtomicWords {
        #[cfg(target_os = "linux")]
        if len * 8 >= HUGE {
            if let Some(w) = Self::mapped(len) {
                return w;
            }
        }
        AtomicWords {
            inner: Inner::Heap((0..len).map(|_| AtomicU64::new(0)).collect()),
        }
    }

    #[cfg(target_os = "linux")]
    fn mapped(len: usize) -> Option<AtomicWords> {
        let bytes = len.checked_mul(8)?;
        // One huge page extra, so the words can start on a huge-page
        // boundary.
        let map_len = bytes.checked_add(HUGE)?;
        // SAFETY: an anonymous private map of fresh memory; checked below.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                map_len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        let start = (base as usize).next_multiple_of(HUGE);
        // SAFETY: [start, start + bytes) lies inside the map. The advice is
        // only a hint; its failure (no THP support) changes nothing.
        unsafe {
            libc::madvise(start as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE);
        }
        Some(AtomicWords {
            inner: Inner::Mapped {
                base,
                map_len,
                words: start as *const AtomicU64,
                len,
            },
        })
    }
}

impl Deref for AtomicWords {
    type Target = [AtomicU64];

    fn deref(&self) -> &[AtomicU64] {
        match &self.inner {
            #[cfg(target_os = "linux")]
            // SAFETY: `words` points at `len` zero-initialised, 8-aligned
            // u64s inside a live mapping owned by self; AtomicU64 has the
            // layout of u64.
            Inner::Mapped { words, len, .. } => unsafe { std::slice::from_raw_parts(*words, *len) },
            Inner::Heap(v) => v,
        }
    }
}

impl Drop for AtomicWords {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        if let Inner::Mapped { base, map_len, .. } = self.inner {
            // SAFETY: unmapping exactly the map made in `mapped`; no
            // reference to it outlives self.
            unsafe {
                libc::munmap(base, map_len);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    #[test]
    fn small_and_large_are_zeroed_and_writable() {
        for len in [0usize, 1, 1000, (HUGE / 8) * 3 + 5] {
            let w = AtomicWords::zeroed(len);
            assert_eq!(w.len(), len);
            assert!(w.iter().all(|x| x.load(Relaxed) == 0));
            if len > 0 {
                w[len - 1].fetch_or(5, Relaxed);
                w[0].fetch_or(7, Relaxed);
                assert_eq!(w[len - 1].load(Relaxed) | w[0].load(Relaxed), 7);
            }
        }
    }
}
