//! Search budgets: a wall-clock deadline and a memory ceiling. Searches call
//! [`Budget::check`] every few thousand nodes with the number of bytes
//! their tables hold; when the budget is spent they stop and return the
//! best result found so far instead of failing.

use std::time::{Duration, Instant};

/// Why a search stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BudgetExceeded {
    /// The time limit was reached.
    Time,
    /// The memory held by the search reached the limit.
    Memory,
}

/// A time and memory budget for one search.
#[derive(Debug, Clone)]
pub struct Budget {
    start: Instant,
    deadline: Option<Instant>,
    memory_limit: usize,
}

impl Budget {
    /// A budget starting now.
    pub fn new(time_limit: Option<Duration>, memory_limit_bytes: usize) -> Self {
        let start = Instant::now();
        Budget {
            start,
            deadline: time_limit.map(|d| start + d),
            memory_limit: memory_limit_bytes,
        }
    }

    /// Time since the budget started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The memory ceiling in bytes.
    pub fn memory_limit(&self) -> usize {
        self.memory_limit
    }

    /// `Err` when the deadline has passed or `bytes_held` reached the limit.
    pub fn check(&self, bytes_held: usize) -> Result<(), BudgetExceeded> {
        if bytes_held >= self.memory_limit {
            return Err(BudgetExceeded::Memory);
        }
        if let Some(d) = self.deadline {
            if Instant::now() >= d {
                return Err(BudgetExceeded::Time);
            }
        }
        Ok(())
    }

    /// True when the deadline has passed.
    pub fn time_up(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
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
    }
}
