//! The portfolio's round robin: breadth-first search, best-first width
//! search (key by key and on [`Strides`]) and weighted A* (two weights),
//! each paused between its slices
//! (its tables kept) and resumed where it stopped. Round `r` of `R`
//! brings each search's time to its share of the limit times `2^(r-R)`
//! (slices that double from round to round), so a level one of them
//! solves quickly is solved early whichever it is, and each still gets
//! its whole share by the last round. The first that solves the level
//! (or proves it unwinnable) stops the others; breadth first is handed
//! back, paused, to prove a solution shortest. Every live search's
//! tables count against the memory limit at once; when it runs out, the
//! search holding the most is dropped.

use std::time::Duration;

use super::strides::Strides;
use super::{unproven, Informed, Input, Method, Paused, Run};
use crate::solver::{BudgetExceeded, Outcome, ResumableAstar, ResumableBfws, Weighted};

/// A weighted A* on a level's [`Informed`] view.
type Heavy<'a, 'g> = ResumableAstar<'a, Weighted<'a, Informed<'a, 'g>>>;

/// One search of the round robin, between two slices.
enum Racer<'a, 'g> {
    Breadth(Paused<'g>),
    Width(ResumableBfws<'a, Informed<'a, 'g>>),
    Strides(ResumableBfws<'a, Strides<'a, 'g>>, &'a Strides<'a, 'g>),
    Heavy(Heavy<'a, 'g>, &'a Weighted<'a, Informed<'a, 'g>>),
}

/// A racer, its share of the time limit (parts in 10,000) and the time
/// it used so far on the limits' clock.
struct Entrant<'a, 'g> {
    racer: Racer<'a, 'g>,
    share: u32,
    used: Duration,
}

impl Racer<'_, '_> {
    /// The search's method, as [`super::Solved::search`] names it.
    fn method(&self) -> Method {
        match self {
            Racer::Breadth(_) => Method::Bfs,
            Racer::Width(_) => Method::Bfws,
            Racer::Strides(..) => Method::Strides,
            Racer::Heavy(..) => Method::WeightedAstar,
        }
    }

    fn nodes(&self) -> u64 {
        match self {
            Racer::Breadth(b) => b.nodes(),
            Racer::Width(w) => w.nodes(),
            Racer::Strides(w, _) => w.nodes(),
            Racer::Heavy(h, _) => h.nodes(),
        }
    }
}

/// What the round robin ended with: the outcome (nodes of every search),
/// the method that settled the level (when one did), and breadth first,
/// paused, unless it settled the level or was dropped.
pub(super) struct Finish<'g> {
    pub outcome: Outcome<Input>,
    pub settled_by: Option<Method>,
    pub breadth: Option<Paused<'g>>,
}

impl<'g> Run<'g> {
    /// The round robin over `rounds` rounds (see the module's doc), with
    /// `informed` the level's estimate for width search and weighted A*,
    /// `strides` the level stride by stride for the second width search
    /// (none when its share is 0), `weights` the two weighted problems
    /// built on it.
    pub(super) fn race<'a>(
        &'a self,
        informed: &'a Informed<'a, 'g>,
        strides: Option<&'a Strides<'a, 'g>>,
        weights: &'a [Weighted<'a, Informed<'a, 'g>>],
        rounds: u32,
    ) -> Finish<'g> {
        let mut field = self.entrants(informed, strides, weights);
        let total = self.limits.time.unwrap_or(Duration::MAX);
        let mut last = Outcome::stopped(None, 0, BudgetExceeded::Time, 0, Duration::ZERO);
        // Nodes of the searches that left the field.
        let mut gone = 0;
        for round in 0..=rounds {
            let part = 1u64 << (rounds - round);
            let mut i = 0;
            while i < field.len() {
                let goal = share_of(total, field[i].share) / part as u32;
                let Some(slice) = goal.checked_sub(field[i].used).filter(|s| !s.is_zero()) else {
                    i += 1;
                    continue;
                };
                let o = self.slice(&mut field, i, slice);
                let method = field[i].racer.method();
                if o.moves.is_some() || o.proven_unsolvable {
                    return self.finish(field, gone, o, Some(method));
                }
                let done = o.stopped == Some(BudgetExceeded::Nodes) || o.stopped.is_none();
                let memory = o.stopped == Some(BudgetExceeded::Memory);
                last = o;
                if done {
                    gone += field.remove(i).racer.nodes();
                } else if memory {
                    let (k, nodes) = self.drop_largest(&mut field);
                    gone += nodes;
                    i += (k > i) as usize;
                } else {
                    i += 1;
                }
            }
        }
        self.finish(field, gone, last, None)
    }

    /// The five entrants, with the limits' shares: breadth first
    /// [`super::Limits::bfs_share`], width search on strides
    /// [`super::Limits::stride_share`] of the rest, width search key by
    /// key [`super::Limits::width_share`] of what is left, weighted A*
    /// three quarters and a quarter of the remainder (none for a share
    /// of 0).
    fn entrants<'a>(
        &'a self,
        informed: &'a Informed<'a, 'g>,
        strides: Option<&'a Strides<'a, 'g>>,
        weights: &'a [Weighted<'a, Informed<'a, 'g>>],
    ) -> Vec<Entrant<'a, 'g>> {
        let l = &self.limits;
        let bfs = l.bfs_share * 100;
        let stride = (10_000 - bfs) * l.stride_share / 100;
        let width = (10_000 - bfs - stride) * l.width_share / 100;
        let rest = 10_000 - bfs - stride - width;
        let heavy = if weights.len() > 1 {
            rest * 3 / 4
        } else {
            rest
        };
        let mut field = vec![Entrant {
            racer: Racer::Breadth(self.fresh()),
            share: bfs,
            used: Duration::ZERO,
        }];
        field.push(Entrant {
            racer: Racer::Width(ResumableBfws::new(informed, &self.start)),
            share: width,
            used: Duration::ZERO,
        });
        if let Some(strides) = strides.filter(|_| stride > 0) {
            field.push(Entrant {
                racer: Racer::Strides(ResumableBfws::new(strides, &self.start), strides),
                share: stride,
                used: Duration::ZERO,
            });
        }
        for (k, w) in weights.iter().enumerate() {
            field.push(Entrant {
                racer: Racer::Heavy(ResumableAstar::new(w, &self.start, true), w),
                share: if k == 0 { heavy } else { rest - heavy },
                used: Duration::ZERO,
            });
        }
        field.retain(|e| e.share > 0);
        field
    }

    /// Entrant `i` resumed for `slice` beside the others' tables; its
    /// outcome (unproven for the estimate's searches).
    fn slice(&self, field: &mut [Entrant<'_, 'g>], i: usize, slice: Duration) -> Outcome<Input> {
        let held: usize = (0..field.len())
            .filter(|&k| k != i)
            .map(|k| self.bytes(&field[k].racer))
            .sum();
        let before = self.spent();
        let mut limits = self.limits;
        limits.nodes = limits
            .nodes
            .map(|n| n.saturating_sub(field[i].racer.nodes()));
        let budget = || super::budget_for(&limits, Some(slice), self.buffers(), held);
        let o = match &mut field[i].racer {
            Racer::Breadth(b) => self.resume_beside(b, Some(slice), held, &limits),
            Racer::Width(w) => unproven(w.run(&budget())),
            Racer::Strides(w, s) => unproven(s.in_keys(&self.start, w.run(&budget()))),
            Racer::Heavy(h, w) => unproven(w.claims(&self.start, h.run(&budget()))),
        };
        field[i].used += self.spent().saturating_sub(before);
        o
    }

    /// The bytes `racer` holds, its states' buffers included.
    fn bytes(&self, racer: &Racer<'_, 'g>) -> usize {
        match racer {
            Racer::Breadth(b) => self.held(b),
            Racer::Width(w) => self.with_buffers(w.states(), w.bytes()),
            Racer::Strides(w, _) => self.with_buffers(w.states(), w.bytes()),
            Racer::Heavy(h, _) => self.with_buffers(h.states(), h.bytes()),
        }
    }

    /// The end of the round robin: `o` with the nodes of every search,
    /// and breadth first if it is still paused.
    fn finish(
        &self,
        field: Vec<Entrant<'_, 'g>>,
        gone: u64,
        o: Outcome<Input>,
        settled_by: Option<Method>,
    ) -> Finish<'g> {
        let nodes = gone + field.iter().map(|e| e.racer.nodes()).sum::<u64>();
        let mut breadth = None;
        for e in field {
            if let Racer::Breadth(b) = e.racer {
                breadth = Some(b);
            }
        }
        if settled_by == Some(Method::Bfs) {
            breadth = None;
        }
        Finish {
            outcome: self.after(0, Outcome { nodes, ..o }),
            settled_by,
            breadth,
        }
    }

    /// Drops the entrant holding the most memory; its index and nodes.
    fn drop_largest(&self, field: &mut Vec<Entrant<'_, 'g>>) -> (usize, u64) {
        let largest = (0..field.len()).max_by_key(|&k| self.bytes(&field[k].racer));
        let k = largest.expect("the entrant that ran out of memory");
        log::debug!("memory: dropping {}", field[k].racer.method().name());
        (k, field.remove(k).racer.nodes())
    }
}

/// `share` parts in 10,000 of `total`.
fn share_of(total: Duration, share: u32) -> Duration {
    if total == Duration::MAX {
        return total;
    }
    total * share / 10_000
}
