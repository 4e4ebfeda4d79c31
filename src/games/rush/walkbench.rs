//! The benchmark of the enumeration's walk (`gridbot enumerate rush
//! --bench-walk`): a deterministic sample of piece sets (every `unit_step`-th
//! work unit from `first_unit`, every `set_step`-th set each owns), found
//! once (its discovery timed apart, the list optionally kept in a file so
//! that walks can be timed again and again on the same sets), then walked
//! by one design, timed by the thread's CPU clock.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use super::densewalk::DenseWalk;
use super::enumerate::{owned_sets, unit_index, units, EnumerateError, Rules};
use super::pieceset::{Layout, PieceSet, MAX_LINES};
use super::setbfs::SetBfs;
use super::setwalk::{SetResult, Walker};
use crate::measure::thread_cpu;

/// A sample of piece sets.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SetSample {
    /// The sets, in unit order, then set order.
    pub sets: Vec<PieceSet>,
    /// CPU time spent finding them (zero when read from a file).
    pub discovery: Duration,
    /// Units whose owned sets were listed.
    pub units: usize,
}

/// Every `set_step`-th set owned by every `unit_step`-th unit from
/// `first_unit` of side `n` with at most `walls` walls, under `rules`.
pub fn sample_sets(
    n: usize,
    walls: usize,
    rules: Rules,
    first_unit: usize,
    unit_step: usize,
    set_step: usize,
) -> Result<SetSample, EnumerateError> {
    let all = units(n, walls, rules)?;
    let index = unit_index(&all, n);
    let t0 = thread_cpu();
    let mut out = SetSample::default();
    for (k, u) in all
        .iter()
        .enumerate()
        .skip(first_unit)
        .step_by(unit_step.max(1))
    {
        let (sets, _) = owned_sets(k, u, n, walls, &index);
        out.sets.extend(sets.into_iter().step_by(set_step.max(1)));
        out.units += 1;
    }
    out.discovery = thread_cpu() - t0;
    Ok(out)
}

/// The sets as text, one a line: size, walls, the line codes (hex).
pub fn sets_to_text(sets: &[PieceSet]) -> String {
    let mut s = String::with_capacity(sets.len() * 50);
    for set in sets {
        let _ = write!(s, "{} {:x}", set.size, set.walls);
        for b in set.lines {
            let _ = write!(s, " {b:x}");
        }
        s.push('\n');
    }
    s
}

/// Reads [`sets_to_text`]; the number (from 1) of the first malformed
/// line when there is one.
pub fn sets_from_text(text: &str) -> Result<Vec<PieceSet>, usize> {
    text.lines()
        .enumerate()
        .map(|(at, l)| {
            let set = || {
                let mut w = l.split(' ');
                let size = w.next()?.parse().ok()?;
                let walls = u64::from_str_radix(w.next()?, 16).ok()?;
                let mut lines = [0u8; MAX_LINES];
                for b in &mut lines {
                    *b = u8::from_str_radix(w.next()?, 16).ok()?;
                }
                w.next()
                    .is_none()
                    .then_some(PieceSet { lines, walls, size })
            };
            set().ok_or(at + 1)
        })
        .collect()
}

/// [`sample_sets`], kept in `file`: read from it when it exists, else
/// found and written there.
pub fn sample_sets_cached(
    file: Option<&Path>,
    n: usize,
    walls: usize,
    rules: Rules,
    first_unit: usize,
    unit_step: usize,
    set_step: usize,
) -> Result<SetSample, EnumerateError> {
    // The sample's parameters: a file made for others is refused.
    let made_by = format!(
        "enumerate rush --bench-walk sets size={n} walls={walls} rules={} first={first_unit} \
         units-every={unit_step} sets-every={set_step}",
        rules.name()
    );
    if let Some(f) = file.filter(|f| std::fs::symlink_metadata(f).is_ok()) {
        let sealed = crate::files::read_text(&f.to_string_lossy(), 1 << 30, "a sets file")?;
        let text = crate::files::unseal_text(&sealed, f, &made_by)?;
        let sets =
            sets_from_text(text).map_err(|line| EnumerateError::SetsFile(f.into(), line + 1))?;
        return Ok(SetSample {
            sets,
            ..SetSample::default()
        });
    }
    let s = sample_sets(n, walls, rules, first_unit, unit_step, set_step)?;
    if let Some(f) = file {
        let sealed = crate::files::seal_text(&made_by, &sets_to_text(&s.sets));
        crate::files::write_all(f, sealed.as_bytes(), crate::files::Replace::Refuse)?;
    }
    Ok(s)
}

/// Walks every set with the flood-fill walker ([`Walker`]); the result and
/// the CPU time of the walk.
pub fn walk_flood(sets: &[PieceSet]) -> Result<(SetResult, Duration), EnumerateError> {
    let mut walker = Walker::new();
    timed_walk(sets, |layout, out| walker.walk(layout, out))
}

/// Walks every set with the one-search walker ([`SetBfs`]); the result
/// and the CPU time of the walk.
pub fn walk_bfs(sets: &[PieceSet]) -> Result<(SetResult, Duration), EnumerateError> {
    let mut walker = SetBfs::new();
    timed_walk(sets, |layout, out| walker.walk(layout, out))
}

/// Walks every set with the dense walker ([`DenseWalk`]); the result and
/// the CPU time of the walk.
pub fn walk_dense(sets: &[PieceSet]) -> Result<(SetResult, Duration), EnumerateError> {
    let mut walker = DenseWalk::new();
    timed_walk(sets, |layout, out| walker.walk(layout, out))
}

/// Lays out every set and hands it to `walk`; the results and the thread's
/// CPU time over all of them.
fn timed_walk(
    sets: &[PieceSet],
    mut walk: impl FnMut(&Layout, &mut SetResult),
) -> Result<(SetResult, Duration), EnumerateError> {
    let mut out = SetResult::default();
    let mut layout = Layout::default();
    let t0 = thread_cpu();
    for set in sets {
        layout.rebuild(set)?;
        walk(&layout, &mut out);
    }
    Ok((out, thread_cpu() - t0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_survive_their_text() {
        let s = sample_sets(5, 0, Rules::All, 3, 7, 5).unwrap();
        assert!(s.sets.len() > 10, "{}", s.sets.len());
        assert_eq!(sets_from_text(&sets_to_text(&s.sets)), Ok(s.sets));
        assert_eq!(sets_from_text("6 0 1 2"), Err(1));
    }

    #[test]
    fn a_sets_file_is_checked_when_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("sets.txt");
        let made = sample_sets_cached(Some(&f), 5, 0, Rules::All, 3, 7, 5).unwrap();
        let again = sample_sets_cached(Some(&f), 5, 0, Rules::All, 3, 7, 5).unwrap();
        assert_eq!(made.sets, again.sets);
        // Another sample's parameters: refused, naming the file.
        let e = sample_sets_cached(Some(&f), 5, 0, Rules::All, 3, 7, 4).unwrap_err();
        assert!(e.to_string().contains("made by"), "{e}");
        // An edited line: the checksum says so.
        let text = std::fs::read_to_string(&f).unwrap();
        let edited = text.replacen("\n5 ", "\n6 ", 1);
        std::fs::write(&f, edited).unwrap();
        let e = sample_sets_cached(Some(&f), 5, 0, Rules::All, 3, 7, 5).unwrap_err();
        assert!(
            e.to_string().contains("checksum") && e.to_string().contains("sets.txt"),
            "{e}"
        );
    }
}
