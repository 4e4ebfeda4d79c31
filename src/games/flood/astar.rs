//! Exact A* over flooded sets of regions.
//!
//! - State: the flooded set `f` (a bitset over regions) plus its border `b`,
//!   kept incrementally so a move costs a few word operations.
//! - Heuristic: Puchert's layered bound ([`layered_bound`]), with pathmax.
//! - Transposition table: an [`IndexTable`] of node indices keyed by the
//!   flooded set (stored once, in the node arena; lookups for all children
//!   of a node are prefetched together); a state reached again with no
//!   smaller depth is dropped, a shorter path re-opens it.
//! - Commutation pruning: after move `a`, a move `b` that takes nothing `a`
//!   uncovered is skipped when `b` then `a` reaches a superset of the state
//!   (or the same state and `b < a`).
//! - Colour elimination: if a move takes every remaining region of a colour
//!   it is always optimal, so it is the only child generated.
//! - Only colours present on the border are played (every move gains).
//! - Open list: buckets by `f`, deepest first ([`BucketQueue`]).
//! - Upper bound: an incumbent solution (greedy; on hard boards beam
//!   searches of growing width try to improve it) prunes every node with
//!   `f >= incumbent`; states with at most one colour left are completed on
//!   the spot and improve the incumbent.
//! - Bound proof: the largest `f` popped so far is a lower bound on the
//!   optimum; when it meets the incumbent the incumbent is optimal.
//!
//! Budgets are checked every 256 expansions and before every allocation
//! growth, so the search stops promptly with the incumbent and the proven
//! lower bound.

use super::greedy;
use super::heuristic::{layered_bound, layered_bound_capped};
use super::regions::BitGraph;
use crate::solver::{Bits, BucketQueue, Budget, BudgetExceeded, IndexTable, Probe};

/// The result of one search.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Best solution found (colours).
    pub moves: Vec<u8>,
    /// Proven lower bound on the optimum.
    pub lower_bound: usize,
    /// Nodes expanded.
    pub nodes: u64,
    /// Why the search stopped early, if it did.
    pub stopped: Option<BudgetExceeded>,
}

struct Node<const N: usize> {
    f: Bits<N>,
    b: Bits<N>,
    parent: u32,
    /// Depth (moves from the start; boards can need more than 255).
    g: u16,
    colour: u8,
    /// [`DEAD`] and [`FORCED`].
    flags: u8,
}

/// A shorter path to the same state was found later; skip this node.
const DEAD: u8 = 1;
/// The move into this node was forced by colour elimination (its siblings
/// were not generated, so the commutation pruning must not rely on them).
const FORCED: u8 = 2;

impl<const N: usize> Node<N> {
    fn dead(&self) -> bool {
        self.flags & DEAD != 0
    }
    fn forced(&self) -> bool {
        self.flags & FORCED != 0
    }
}

/// After so many expansions A* runs a beam search of so many states a
/// depth for a better incumbent.
const BEAMS: [(u64, usize); 3] = [(20_000, 64), (100_000, 256), (500_000, 1024)];

/// How many moves back [`dominated_deeper`] tries to move a move.
const COMMUTE_DEPTH: usize = 4;

/// True when playing `c` (which takes `taken` from node `idx`, giving `nf`)
/// earlier, before the last 2..=COMMUTE_DEPTH moves, reaches a strict
/// superset of `nf` in the same number of moves; then this child is
/// dominated by a path A* explores anyway. Only ancestors whose children
/// were all generated (not forced by colour elimination) are used, and `c`
/// must take exactly the same regions there.
fn dominated_deeper<const N: usize>(
    g: &BitGraph<N>,
    arena: &[Node<N>],
    idx: u32,
    c: u8,
    taken: &Bits<N>,
    nf: &Bits<N>,
) -> bool {
    // path[0] = idx, path[i+1] = parent of path[i].
    let mut path = [0u32; COMMUTE_DEPTH + 1];
    path[0] = idx;
    for d in 1..=COMMUTE_DEPTH {
        let child = &arena[path[d - 1] as usize];
        if path[d - 1] == 0 || child.forced() {
            return false;
        }
        path[d] = child.parent;
        let anc = &arena[path[d] as usize];
        if !taken.is_subset(&anc.b) {
            return false;
        }
        if d < 2 {
            continue;
        }
        // Replay: `c` first, then the moves from the ancestor down to idx.
        let (mut sf, mut sb) = g.play(&anc.f, &anc.b, c);
        for i in (0..d).rev() {
            (sf, sb) = g.play(&sf, &sb, arena[path[i] as usize].colour);
        }
        if sf != *nf {
            return true; // a strict superset (it always contains nf)
        }
    }
    false
}

fn path<const N: usize>(arena: &[Node<N>], mut idx: u32) -> Vec<u8> {
    let mut moves = Vec::new();
    while idx != 0 {
        let n = &arena[idx as usize];
        moves.push(n.colour);
        idx = n.parent;
    }
    moves.reverse();
    moves
}

/// A child generated during an expansion, before its table lookup.
struct Child<const N: usize> {
    f: Bits<N>,
    b: Bits<N>,
    left: u32,
    colour: u8,
    hash: u64,
}

/// Runs A* from the start state, with `incumbent` as a known solution.
pub fn astar<const N: usize>(g: &BitGraph<N>, budget: &Budget, incumbent: Vec<u8>) -> Outcome {
    let (f0, b0) = g.start_state();
    let left0 = g.colours_left(&f0);
    let h0 = layered_bound(g, &f0, &b0, left0);
    let mut best = incumbent;
    let mut lb = h0;
    let mut nodes = 0u64;
    if lb >= best.len() {
        return Outcome {
            moves: best,
            lower_bound: lb,
            nodes,
            stopped: None,
        };
    }
    let mut arena: Vec<Node<N>> = Vec::with_capacity(1024);
    arena.push(Node {
        f: f0,
        b: b0,
        parent: 0,
        colour: 0,
        g: 0,
        flags: FORCED,
    });
    let mut seen = IndexTable::with_capacity(8192);
    if let Probe::Vacant(slot) = seen.find(f0.hash64(), |_| false) {
        seen.insert(slot, f0.hash64(), 0);
    }
    let mut open: BucketQueue<u32> = BucketQueue::new();
    open.push(h0, 0, 0);
    let node_bytes = std::mem::size_of::<Node<N>>();
    let mut stopped = None;
    let mut kids: Vec<Child<N>> = Vec::with_capacity(16);

    while let Some((fv, gv, idx)) = open.pop() {
        if fv >= best.len() {
            // Every open node is at least as long as the incumbent.
            lb = best.len();
            break;
        }
        lb = lb.max(fv);
        let node = &arena[idx as usize];
        if node.dead() {
            continue; // a shorter path to this state was found later
        }
        let (f, b) = (node.f, node.b);
        nodes += 1;
        if let Some(w) = BEAMS
            .iter()
            .find(|b| b.0 == nodes && best.len() > lb + 1)
            .map(|b| b.1)
        {
            // A hard board: a beam search usually gets within a move of the
            // optimum, which lets the bound evaluation stop earlier and keeps
            // hopeless children out of memory.
            if let Some(m) = greedy::beam(g, w, budget) {
                if m.len() < best.len() {
                    best = m;
                    open.truncate_f(best.len());
                    if best.len() <= lb {
                        break;
                    }
                }
            }
        }
        if nodes & 255 == 0 {
            let held = arena.capacity() * node_bytes + seen.bytes() + open.bytes();
            if let Err(e) = budget.check(held) {
                stopped = Some(e);
                open.push(fv, gv, idx);
                break;
            }
        }
        let on_border = g.colours_in(&b);
        let left_here = g.colours_left(&f);
        // Colour elimination: a border colour with no region beyond the border.
        let fb = f.or(&b);
        let mut moves = on_border;
        let mut m = on_border;
        while m != 0 {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            if g.by_colour[c].is_subset(&fb) {
                moves = 1 << c;
                break;
            }
        }
        let forced = moves.count_ones() == 1 && on_border.count_ones() > 1;
        let ng = gv + 1;
        // The previous move `a`, the border before it, and whether its
        // siblings were generated (for the commutation pruning).
        let (prev_colour, prev_forced) = (node.colour, node.forced());
        let prev_b = arena[node.parent as usize].b;

        // Pass 1: generate the children, prefetch their table slots.
        kids.clear();
        while moves != 0 {
            let c = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let taken = b.and(&g.by_colour[c as usize]);
            let reach = g.neighbours_of(&taken);
            if !prev_forced && taken.is_subset(&prev_b) {
                // `c` takes nothing that the previous move `a` uncovered, so
                // playing `c` before `a` reaches a superset of this state
                // (or the same state: keep the smaller colour first).
                let a_more = reach.and(&g.by_colour[prev_colour as usize]).and_not(&f);
                if !a_more.is_empty() || c < prev_colour {
                    continue;
                }
                // Same state after one swap: try moving `c` further back.
                if dominated_deeper(g, &arena, idx, c, &taken, &f.or(&taken)) {
                    continue;
                }
            }
            let nf = f.or(&taken);
            let nb = b.and_not(&taken).or(&reach.and_not(&nf));
            // Only the colour played can become complete.
            let left = if g.by_colour[c as usize].is_subset(&nf) {
                left_here & !(1 << c)
            } else {
                left_here
            };
            if left.count_ones() <= 1 {
                let len = ng + left.count_ones() as usize;
                if len < best.len() {
                    let mut p = path(&arena, idx);
                    p.push(c);
                    if left != 0 {
                        p.push(left.trailing_zeros() as u8);
                    }
                    best = p;
                    open.truncate_f(best.len());
                }
                continue;
            }
            let hash = nf.hash64();
            seen.prefetch(hash);
            kids.push(Child {
                f: nf,
                b: nb,
                left,
                colour: c,
                hash,
            });
        }

        // Pass 2: table lookups, bounds, pushes.
        for k in kids.iter() {
            let probe = seen.find(k.hash, |i| arena[i as usize].f == k.f);
            if let Probe::Found(_, j) = probe {
                if arena[j as usize].g as usize <= ng {
                    continue;
                }
            }
            let h = layered_bound_capped(g, &k.f, &k.b, k.left, best.len().saturating_sub(ng));
            let nfv = (ng + h).max(fv);
            if nfv >= best.len() {
                continue;
            }
            if arena.len() == arena.capacity() || seen.bytes_after_growth() > seen.bytes() {
                let after = arena.capacity()
                    * node_bytes
                    * if arena.len() == arena.capacity() {
                        2
                    } else {
                        1
                    }
                    + seen.bytes_after_growth()
                    + seen.bytes()
                    + open.bytes();
                if budget.check(after).is_err() {
                    stopped = Some(BudgetExceeded::Memory);
                    break;
                }
            }
            let new = arena.len() as u32;
            arena.push(Node {
                f: k.f,
                b: k.b,
                parent: idx,
                colour: k.colour,
                g: ng as u16,
                flags: if forced { FORCED } else { 0 },
            });
            match probe {
                Probe::Found(slot, j) => {
                    arena[j as usize].flags |= DEAD;
                    seen.replace(slot, new);
                }
                Probe::Vacant(slot) => seen.insert(slot, k.hash, new),
            }
            open.push(nfv, ng, new);
        }
        if best.len() <= lb {
            break;
        }
        if stopped.is_some() {
            open.push(fv, gv, idx);
            break;
        }
    }
    if stopped.is_none() && open.min_f().is_none() {
        // Open list exhausted: nothing shorter than the incumbent exists.
        lb = best.len();
    }
    if stopped.is_some() {
        // The smallest f on the open list is a lower bound too.
        if let Some(f) = open.min_f() {
            lb = lb.max(f.min(best.len()));
        }
        // Complete the most promising open node greedily; keep it if shorter.
        while let Some((_, _, idx)) = open.pop() {
            let n = &arena[idx as usize];
            if n.dead() {
                continue;
            }
            let mut p = path(&arena, idx);
            p.extend(greedy::complete(g, n.f, n.b, 1));
            if p.len() < best.len() {
                best = p;
            }
            break;
        }
    }
    Outcome {
        lower_bound: lb.min(best.len()),
        moves: best,
        nodes,
        stopped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_stay_small() {
        // Two 3-word bitsets and 8 bytes of bookkeeping (a 14x14 board).
        assert_eq!(std::mem::size_of::<Node<3>>(), 56);
    }
}
