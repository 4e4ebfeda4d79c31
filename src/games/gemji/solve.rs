//! Solving Gemji levels: fewest moves by iterative deepening with a
//! depth-keyed table of exact position keys (the search core's
//! [`crate::solver::iddfs::iddfs`], the report's solver: a position reached
//! before with at least as many moves left is a dead end).
//!
//! - [`solve`]: a proven shortest solution, or a proof that none exists
//!   (every reachable position searched), or whatever the budget allowed.
//! - [`solve_within`]: the same with a move limit, for the generator:
//!   a proven shortest solution of at most `limit` moves, or a proof that
//!   none exists within it. The remaining move allowance is part of the
//!   state and of its key, so the limit never makes the table prune a
//!   position that still had room.

use crate::solver::iddfs::iddfs;
use crate::solver::{Budget, Keyed, Outcome, Problem};

use super::generate::Verdict;
use super::rules::{Level, Move, State, KEY_WORDS};

/// A shortest solution of `level` within `budget`.
pub fn solve(level: &Level, budget: &Budget) -> Outcome<Move> {
    iddfs(level, &level.start, budget)
}

/// `level` with at most `limit` moves.
struct Capped<'a> {
    level: &'a Level,
    limit: u8,
}

impl Problem for Capped<'_> {
    type State = (State, u8);
    type Move = Move;

    fn moves(&self, s: &(State, u8), out: &mut Vec<Move>) {
        if s.1 < self.limit {
            self.level.moves(&s.0, out);
        }
    }

    fn apply(&self, s: &(State, u8), mv: Move) -> (State, u8) {
        (Problem::apply(self.level, &s.0, mv), s.1 + 1)
    }

    fn is_goal(&self, s: &(State, u8)) -> bool {
        self.level.won(&s.0)
    }

    fn lower_bound(&self, s: &(State, u8)) -> u32 {
        self.level.lower_bound(&s.0)
    }
}

impl Keyed for Capped<'_> {
    type Key = ([u64; KEY_WORDS], u8);

    fn key(&self, s: &(State, u8)) -> Self::Key {
        (s.0.key(), s.1)
    }
}

/// A proven shortest solution of at most `limit` moves, a proof that
/// there is none, or [`Verdict::Unknown`] when the budget ran out first.
pub fn solve_within(level: &Level, limit: u32, budget: &Budget) -> Verdict {
    let p = Capped {
        level,
        limit: limit.min(u8::MAX as u32 - 1) as u8,
    };
    let o = iddfs(&p, &(level.start.clone(), 0), budget);
    match o.moves {
        Some(m) if o.proven_optimal => Verdict::Shortest(m),
        Some(_) => Verdict::Unknown,
        None if o.proven_unsolvable => Verdict::NoneWithin,
        None => Verdict::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::gemji::generate::{candidate, Rng, Spec};
    use crate::games::gemji::rules::Gem;
    use crate::solver::bfs::bfs;
    use crate::solver::wins;

    fn small_spec() -> Spec {
        Spec {
            width: 4,
            height: 4,
            gems: 4,
            types: Gem::ALL.to_vec(),
            min_moves: 1,
            max_moves: 5,
        }
    }

    #[test]
    fn iddfs_matches_breadth_first_search_on_small_levels() {
        let spec = small_spec();
        let mut rng = Rng::new(77);
        let mut checked = 0;
        while checked < 60 {
            let Some(l) = candidate(&spec, &mut rng) else {
                continue;
            };
            checked += 1;
            let exact = bfs(&l, &l.start, &Budget::unlimited());
            let o = solve(&l, &Budget::unlimited());
            assert_eq!(
                o.len(),
                exact.len(),
                "{}",
                super::super::parse::format_level(&l)
            );
            assert_eq!(o.proven_unsolvable, exact.proven_unsolvable);
            if let Some(m) = &o.moves {
                assert!(o.proven_optimal && wins(&l, &l.start, m));
            }
            // The capped search agrees within every limit.
            for limit in 0..=4u32 {
                let v = solve_within(&l, limit, &Budget::unlimited());
                match exact.len() {
                    Some(n) if n as u32 <= limit => {
                        assert!(matches!(v, Verdict::Shortest(ref m) if m.len() == n));
                    }
                    _ => assert_eq!(v, Verdict::NoneWithin),
                }
            }
        }
    }
}
