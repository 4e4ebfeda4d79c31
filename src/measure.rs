//! Timing and memory figures for the benchmarks: CPU time of a thread and
//! of the process, peak resident memory, and percentiles of sorted
//! samples. Every bench reads its clocks here, so that one figure means
//! one measurement everywhere.
//!
//! This module sits at the bottom of the layers beside the solver: it
//! knows nothing of games, hosts, the play loop or the command line.

use std::time::{Duration, Instant};

/// CPU time used so far by the calling thread (`CLOCK_THREAD_CPUTIME_ID`):
/// the figure a busy machine does not inflate.
pub fn thread_cpu() -> Duration {
    cpu_clock(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// CPU time used so far by the whole process, every thread, user and
/// system (`CLOCK_PROCESS_CPUTIME_ID`).
pub fn process_cpu() -> Duration {
    cpu_clock(libc::CLOCK_PROCESS_CPUTIME_ID)
}

fn cpu_clock(clock: libc::clockid_t) -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the timespec we own.
    let ok = unsafe { libc::clock_gettime(clock, &mut ts) } == 0;
    if ok {
        Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
    } else {
        Duration::ZERO
    }
}

/// Peak resident set size of the process in bytes (`VmHWM` of
/// `/proc/self/status`), when `/proc` is available.
pub fn peak_rss_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Bytes in MiB, for printing.
pub fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1u64 << 20) as f64
}

/// A duration in milliseconds, for printing.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The wall time and the calling thread's CPU time of one piece of work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Timing {
    /// Wall-clock time.
    pub wall: Duration,
    /// CPU time of the thread that did the work.
    pub cpu: Duration,
}

/// Runs `work` on the calling thread and returns its result with its wall
/// and thread CPU time.
pub fn timed<R>(work: impl FnOnce() -> R) -> (R, Timing) {
    let cpu0 = thread_cpu();
    let wall0 = Instant::now();
    let r = work();
    let wall = wall0.elapsed();
    let cpu = thread_cpu().saturating_sub(cpu0);
    (r, Timing { wall, cpu })
}

/// The sample at fraction `p` (0 to 1) of `sorted` (ascending), rounded to
/// the nearest rank: `p = 0.5` is the middle sample (the upper one of an
/// even count), `p = 1` the largest. `None` when there are no samples.
pub fn percentile<T: Copy>(sorted: &[T], p: f64) -> Option<T> {
    if sorted.is_empty() {
        return None;
    }
    let i = ((sorted.len() - 1) as f64 * p.clamp(0.0, 1.0)).round() as usize;
    Some(sorted[i])
}

/// The mean of `values`, 0 when there are none.
pub fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    if n == 0 {
        0.0
    } else {
        sum / n as f64
    }
}

/// The middle sample of `sorted` (the upper one of an even count).
pub fn median<T: Copy>(sorted: &[T]) -> Option<T> {
    percentile(sorted, 0.5)
}

/// Smallest, middle and largest of a set of samples.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Spread<T> {
    /// The smallest sample.
    pub min: T,
    /// The middle sample ([`median`]).
    pub median: T,
    /// The largest sample.
    pub max: T,
}

/// Sorts `samples` and returns their [`Spread`]; `None` when empty.
pub fn spread<T: Copy + PartialOrd>(samples: &mut [T]) -> Option<Spread<T>> {
    samples.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    Some(Spread {
        min: *samples.first()?,
        median: median(samples)?,
        max: *samples.last()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_round_to_the_nearest_rank() {
        let v = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(percentile(&v, 0.5), Some(3.0));
        assert_eq!(percentile(&v, 0.95), Some(5.0));
        assert_eq!(percentile(&v, 0.0), Some(1.0));
        assert_eq!(percentile::<f64>(&[], 0.5), None);
    }

    #[test]
    fn the_median_is_the_upper_middle_of_an_even_count() {
        for n in 1..40usize {
            let v: Vec<usize> = (0..n).collect();
            assert_eq!(median(&v), Some(v[n / 2]), "{n} samples");
        }
    }

    #[test]
    fn spread_sorts_first() {
        let mut v = [5, 1, 4, 2, 3];
        assert_eq!(
            spread(&mut v),
            Some(Spread {
                min: 1,
                median: 3,
                max: 5
            })
        );
        assert_eq!(spread::<u8>(&mut []), None);
    }

    #[test]
    fn clocks_move_forward() {
        let (sum, t) = timed(|| (0..200_000u64).map(std::hint::black_box).sum::<u64>());
        assert_eq!(sum, 199_999 * 100_000);
        assert!(t.cpu <= t.wall + Duration::from_millis(20), "{t:?}");
        assert!(process_cpu() >= t.cpu);
        if std::path::Path::new("/proc/self/status").exists() {
            assert!(peak_rss_bytes().unwrap() > 0);
        }
    }
}
