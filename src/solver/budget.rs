//! Search budgets: a wall-clock deadline, a memory ceiling and a node
//! count. Searches call [`Budget::check`] (or [`Budget::check_nodes`]) every
//! few hundred nodes with the number of bytes their tables hold; when the
//! budget is spent they stop and return the best result found so far
//! instead of failing.

use std::time::{Duration, Instant};

use crate::measure::thread_cpu;

/// Why a search stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BudgetExceeded {
    /// The time limit was reached.
    Time,
    /// The memory held by the search reached the limit.
    Memory,
    /// The search expanded as many nodes as it was allowed.
    Nodes,
}

impl std::fmt::Display for BudgetExceeded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            BudgetExceeded::Time => "time limit",
            BudgetExceeded::Memory => "memory limit",
            BudgetExceeded::Nodes => "node limit",
        })
    }
}

/// A time and memory budget for one search.
#[derive(Debug, Clone)]
pub struct Budget {
    start: Instant,
    deadline: Option<Instant>,
    /// A limit on the CPU time of the thread that made the budget: where
    /// that thread's CPU clock ends it.
    cpu_deadline: Option<Duration>,
    memory_limit: usize,
    /// Bytes each state a search keeps holds outside the search's own
    /// tables (a buffer the state points to), counted with them.
    state_bytes: usize,
    node_limit: u64,
}

impl Budget {
    /// A budget starting now. A time limit too large to add to the clock
    /// counts as none.
    pub fn new(time_limit: Option<Duration>, memory_limit_bytes: usize) -> Self {
        let start = Instant::now();
        Budget {
            start,
            deadline: time_limit.and_then(|d| start.checked_add(d)),
            cpu_deadline: None,
            memory_limit: memory_limit_bytes,
            state_bytes: 0,
            node_limit: u64::MAX,
        }
    }

    /// No limit at all.
    pub fn unlimited() -> Self {
        Budget::new(None, usize::MAX)
    }

    /// The same budget, also ending after `nodes` expansions.
    pub fn with_node_limit(mut self, nodes: u64) -> Self {
        self.node_limit = nodes;
        self
    }

    /// The same budget, also ending when the calling thread has used
    /// `cpu` more CPU time: "so long on one thread", whatever else the
    /// machine runs. Only for searches that run on this thread.
    pub fn with_cpu_limit(mut self, cpu: Duration) -> Self {
        self.cpu_deadline = thread_cpu().checked_add(cpu);
        self
    }

    /// The same budget, counting `bytes` more for each state a search
    /// keeps ([`Budget::held`]): what its states hold outside the search.
    pub fn with_state_bytes(mut self, bytes: usize) -> Self {
        self.state_bytes = bytes;
        self
    }

    /// The bytes a search holds with `states` states kept and `tables`
    /// bytes of its own.
    pub fn held(&self, states: usize, tables: usize) -> usize {
        tables.saturating_add(states.saturating_mul(self.state_bytes))
    }

    /// The node ceiling (`u64::MAX` when there is none).
    pub fn node_limit(&self) -> u64 {
        self.node_limit
    }

    /// Time since the budget started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The memory ceiling in bytes.
    pub fn memory_limit(&self) -> usize {
        self.memory_limit
    }

    /// True when `bytes_held` is under the memory limit (the clock is not
    /// read: a search that asks whether something fits stops for memory
    /// only).
    pub fn fits(&self, bytes_held: usize) -> bool {
        bytes_held < self.memory_limit
    }

    /// `Err` when the deadline has passed or `bytes_held` reached the limit.
    pub fn check(&self, bytes_held: usize) -> Result<(), BudgetExceeded> {
        if bytes_held >= self.memory_limit {
            return Err(BudgetExceeded::Memory);
        }
        if self.past(None) {
            return Err(BudgetExceeded::Time);
        }
        Ok(())
    }

    /// Like [`Budget::check`], and also `Err` once `nodes` reached the node
    /// limit.
    pub fn check_nodes(&self, nodes: u64, bytes_held: usize) -> Result<(), BudgetExceeded> {
        if nodes >= self.node_limit {
            return Err(BudgetExceeded::Nodes);
        }
        self.check(bytes_held)
    }

    /// True when the deadline has passed.
    pub fn time_up(&self) -> bool {
        self.past(None)
    }

    /// True when the clock (`now`, read here when not given and there is
    /// a deadline) is past the deadline, or the thread's CPU time past its
    /// limit.
    fn past(&self, now: Option<Instant>) -> bool {
        self.deadline
            .is_some_and(|d| now.unwrap_or_else(Instant::now) >= d)
            || self.cpu_deadline.is_some_and(|d| thread_cpu() >= d)
    }
}

/// When a search reads the clock between its regular budget checks: a
/// search whose nodes are cheap reads it every 1,024 nodes at most, one
/// whose nodes are slow (a game whose single move plays thousands of
/// chained turns) every node, so that it stops close to its time limit
/// either way. Node and memory checks stay where the search puts them,
/// so where those stop a search never depends on the clock.
#[derive(Debug, Clone)]
pub struct Pacer {
    /// Nodes between clock reads.
    every: u64,
    /// The node count of the next read.
    next: u64,
    /// When the clock was last read.
    last: Instant,
}

impl Default for Pacer {
    fn default() -> Self {
        Pacer {
            every: 1,
            next: 0,
            last: Instant::now(),
        }
    }
}

impl Pacer {
    /// The most nodes between two reads.
    const MOST: u64 = 1024;

    /// True when `budget`'s deadline has passed, read when a read is due
    /// at `nodes` (false otherwise). Reads come twice as far apart after
    /// a gap under a millisecond, half as far after one over ten.
    pub fn time_up(&mut self, budget: &Budget, nodes: u64) -> bool {
        if nodes < self.next {
            return false;
        }
        let now = Instant::now();
        let gap = now.duration_since(self.last);
        self.last = now;
        if gap < Duration::from_millis(1) {
            self.every = (self.every * 2).min(Self::MOST);
        } else if gap > Duration::from_millis(10) {
            self.every = (self.every / 2).max(1);
        }
        self.next = nodes + self.every;
        budget.past(Some(now))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_and_time() {
        let b = Budget::new(None, 100);
        assert_eq!(b.check(10), Ok(()));
        assert_eq!(b.check(100), Err(BudgetExceeded::Memory));
        let b = Budget::new(Some(Duration::ZERO), 100);
        assert_eq!(b.check(0), Err(BudgetExceeded::Time));
        assert!(b.time_up());
        let b = Budget::unlimited().with_node_limit(10);
        assert_eq!(b.check_nodes(9, 0), Ok(()));
        assert_eq!(b.check_nodes(10, 0), Err(BudgetExceeded::Nodes));
        // A limit past the end of the clock is no limit, not a panic.
        let b = Budget::new(Some(Duration::MAX), 100);
        assert_eq!(b.check(0), Ok(()));
    }

    #[test]
    fn a_cpu_limit_counts_this_threads_work_not_the_clock() {
        let b = Budget::unlimited().with_cpu_limit(Duration::from_millis(20));
        // Sleeping uses no CPU time.
        std::thread::sleep(Duration::from_millis(40));
        assert_eq!(b.check(0), Ok(()));
        let mut x = 0u64;
        while b.check(0).is_ok() {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
        }
        assert_eq!(b.check(0), Err(BudgetExceeded::Time), "{x}");
        assert!(b.time_up());
    }

    #[test]
    fn the_pacer_reads_slow_nodes_every_time_and_fast_ones_rarely() {
        // Fast nodes: the reads spread out to one in 1,024.
        let b = Budget::unlimited();
        let mut pacer = Pacer::default();
        let mut reads = 0;
        for n in 0..100_000 {
            let next = pacer.next;
            assert!(!pacer.time_up(&b, n));
            reads += (pacer.next != next) as u32;
        }
        assert!(reads < 1_000, "{reads} reads");
        let b = Budget::new(Some(Duration::from_millis(30)), usize::MAX);
        // Slow nodes (20 ms each): after a few, every node reads the clock.
        let mut slow = Pacer::default();
        let mut n = 0;
        while !slow.time_up(&b, n) {
            std::thread::sleep(Duration::from_millis(20));
            n += 1;
            assert!(n < 5, "the deadline passed {n} slow nodes ago");
        }
    }
}
