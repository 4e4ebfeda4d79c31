//! Which rules a write concerns: per bit of a cell (objects then
//! movements), the rules that read the bit and the rules that settle and
//! write it (see [`super::compile::Group::settles`]), kept as the nonzero
//! words of rule bit sets, so that marking them after a write ORs whole
//! words instead of visiting the rules one by one.

use std::collections::BTreeMap;

use super::bits;

/// One word of a bit's rule sets: rules `64 * index` to `64 * index + 63`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Word {
    index: u32,
    /// The rules that read the bit.
    readers: u64,
    /// The rules a write of the bit wakes: its readers and the rules that
    /// settle and write it.
    wakes: u64,
}

/// Per bit, the rules that read it and the rules a write of it wakes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RuleMarks {
    /// Per bit, where its words start in `words`; one more at the end.
    starts: Vec<u32>,
    words: Vec<Word>,
}

impl RuleMarks {
    /// The sets of `readers` and `writers`, per bit the numbers of the
    /// rules that read it and of those that settle and write it.
    pub fn new(readers: &[Vec<u32>], writers: &[Vec<u32>]) -> RuleMarks {
        let mut marks = RuleMarks {
            starts: vec![0],
            words: Vec::new(),
        };
        for (read, write) in readers.iter().zip(writers) {
            let mut words: BTreeMap<u32, (u64, u64)> = BTreeMap::new();
            for &r in read {
                let w = words.entry(r / 64).or_default();
                w.0 |= 1 << (r % 64);
                w.1 |= 1 << (r % 64);
            }
            for &r in write {
                words.entry(r / 64).or_default().1 |= 1 << (r % 64);
            }
            let words = words.into_iter().map(|(index, (readers, wakes))| Word {
                index,
                readers,
                wakes,
            });
            marks.words.extend(words);
            marks.starts.push(marks.words.len() as u32);
        }
        marks
    }

    /// Marks the readers of the bits of `written` in `dirty` (they must
    /// be matched) and clears the rules they wake from `idle`; both hold
    /// one bit a rule.
    pub fn mark(&self, written: &[u64], dirty: &mut [u64], idle: &mut [u64]) {
        for bit in bits::ones(written) {
            let (from, to) = (self.starts[bit] as usize, self.starts[bit + 1] as usize);
            for w in &self.words[from..to] {
                dirty[w.index as usize] |= w.readers;
                idle[w.index as usize] &= !w.wakes;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What marking does rule by rule, from the lists.
    fn mark_by_lists(
        readers: &[Vec<u32>],
        writers: &[Vec<u32>],
        written: &[u64],
        dirty: &mut [u64],
        idle: &mut [u64],
    ) {
        for bit in bits::ones(written) {
            for &r in &readers[bit] {
                bits::set(dirty, r as usize);
                bits::clear(idle, r as usize);
            }
            for &r in &writers[bit] {
                bits::clear(idle, r as usize);
            }
        }
    }

    #[test]
    fn marks_as_the_lists_do() {
        // 128 bits, 200 rules: rule r reads bits r % 7 and r % 64 + 64,
        // every third rule settles and writes bit r % 5.
        let mut readers = vec![Vec::new(); 128];
        let mut writers = vec![Vec::new(); 128];
        for r in 0..200u32 {
            readers[(r % 7) as usize].push(r);
            readers[(r % 64 + 64) as usize].push(r);
            if r % 3 == 0 {
                writers[(r % 5) as usize].push(r);
            }
        }
        let marks = RuleMarks::new(&readers, &writers);
        for written in [[0b1u64, 0], [0b10110, 1 << 3], [0, !0], [1 << 6, 0]] {
            let mut dirty = [0x5555_5555_5555_5555u64, 0, !0, 1];
            let mut idle = [!0u64, 0x00ff_00ff_00ff_00ff, 0, !0];
            let (mut want_dirty, mut want_idle) = (dirty, idle);
            marks.mark(&written, &mut dirty, &mut idle);
            mark_by_lists(
                &readers,
                &writers,
                &written,
                &mut want_dirty,
                &mut want_idle,
            );
            assert_eq!((dirty, idle), (want_dirty, want_idle), "{written:?}");
        }
    }
}
