//! Test support for the engines: small problems with known answers
//! (the 8-puzzle, random directed graphs) and a deterministic random
//! number generator, so every engine can be checked against exhaustive
//! breadth-first search on many random instances ([`check_eight_puzzle`],
//! [`check_graphs`]).

use super::astar::AstarProblem;
use super::bfs::{bfs, bfs_distances};
use super::budget::Budget;
use super::greedy::Scored;
use super::outcome::Outcome;
use super::problem::{wins, Keyed, Problem};

/// Checks `solve` on `count` 8-puzzles (Manhattan bound), each `walk`
/// random moves from the goal (seeded by `seed`), against breadth-first
/// search: every answer proven optimal, as long as the BFS distance, and
/// winning.
pub fn check_eight_puzzle(
    seed: u64,
    count: usize,
    walk: usize,
    mut solve: impl FnMut(&Eight, &EightState) -> Outcome<Slide>,
) {
    let md = Eight { manhattan: true };
    let dist = bfs_distances(&md, &Eight::goal(), &Budget::unlimited());
    let mut rng = Rng::new(seed);
    for i in 0..count {
        let s = Eight::scrambled(&mut rng, walk);
        let o = solve(&md, &s);
        assert!(o.proven_optimal, "instance {i}");
        assert_eq!(o.len(), Some(dist.depth[&s] as usize), "instance {i}");
        assert!(wins(&md, &s, o.moves.as_ref().unwrap()), "instance {i}");
    }
}

/// Checks `solve` on `count` random 40-node graphs (seeded by `seed`;
/// instance `i` uses the informed bound when `informed(i)`), starting at
/// node 0, against breadth-first search: the same verdict and length, and
/// any solution proven optimal and winning.
pub fn check_graphs(
    seed: u64,
    count: usize,
    informed: impl Fn(usize) -> bool,
    mut solve: impl FnMut(&Graph) -> Outcome<u8>,
) {
    let mut rng = Rng::new(seed);
    for i in 0..count {
        let mut g = Graph::random(&mut rng, 40, 3, 15);
        g.informed = informed(i);
        let exact = bfs(&g, &0, &Budget::unlimited());
        let o = solve(&g);
        assert_eq!(o.proven_unsolvable, exact.proven_unsolvable, "instance {i}");
        assert_eq!(o.len(), exact.len(), "instance {i}");
        if let Some(m) = &o.moves {
            assert!(o.proven_optimal && wins(&g, &0, m), "instance {i}");
        }
    }
}

/// A tiny deterministic generator (xorshift64*), enough for test instances.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any value, 0 included).
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A value in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// A sliding-tile move: the direction the blank moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Slide {
    /// Blank moves up.
    Up,
    /// Blank moves down.
    Down,
    /// Blank moves left.
    Left,
    /// Blank moves right.
    Right,
}

impl Slide {
    fn opposite(self) -> Slide {
        match self {
            Slide::Up => Slide::Down,
            Slide::Down => Slide::Up,
            Slide::Left => Slide::Right,
            Slide::Right => Slide::Left,
        }
    }
}

/// The 8-puzzle (3x3 sliding tiles). A state packs the tile in each cell
/// into 4 bits (cell `i` at bits `4i..4i+4`, 0 is the blank) with the blank
/// position in bits 36..40. The goal is `1 2 3 / 4 5 6 / 7 8 _`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Eight {
    /// Use the Manhattan-distance lower bound (else 0).
    pub manhattan: bool,
}

/// A packed 8-puzzle position.
pub type EightState = u64;

impl Eight {
    /// The goal position.
    pub fn goal() -> EightState {
        let mut s = 0u64;
        for i in 0..8 {
            s |= ((i + 1) as u64) << (4 * i);
        }
        s | (8u64 << 36)
    }

    /// The tile in `cell`.
    pub fn tile(s: EightState, cell: u32) -> u32 {
        ((s >> (4 * cell)) & 15) as u32
    }

    /// The blank's cell.
    pub fn blank(s: EightState) -> u32 {
        ((s >> 36) & 15) as u32
    }

    /// A position `walk` random moves from the goal (solvable, any distance
    /// up to `walk`).
    pub fn scrambled(rng: &mut Rng, walk: usize) -> EightState {
        let p = Eight::default();
        let mut s = Eight::goal();
        let mut mv = Vec::new();
        for _ in 0..walk {
            mv.clear();
            p.moves(&s, &mut mv);
            s = p.apply(&s, mv[rng.below(mv.len() as u64) as usize]);
        }
        s
    }

    /// A uniformly random arrangement, half of which are unsolvable.
    pub fn random(rng: &mut Rng) -> EightState {
        let mut tiles: Vec<u64> = (0..9).collect();
        for i in (1..9).rev() {
            tiles.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let mut s = 0u64;
        for (cell, &t) in tiles.iter().enumerate() {
            s |= t << (4 * cell);
            if t == 0 {
                s |= (cell as u64) << 36;
            }
        }
        s
    }
}

impl Problem for Eight {
    type State = EightState;
    type Move = Slide;

    fn moves(&self, s: &EightState, out: &mut Vec<Slide>) {
        let b = Eight::blank(*s);
        if b >= 3 {
            out.push(Slide::Up);
        }
        if b < 6 {
            out.push(Slide::Down);
        }
        if !b.is_multiple_of(3) {
            out.push(Slide::Left);
        }
        if b % 3 < 2 {
            out.push(Slide::Right);
        }
    }

    fn apply(&self, s: &EightState, mv: Slide) -> EightState {
        let b = Eight::blank(*s);
        let t = match mv {
            Slide::Up => b - 3,
            Slide::Down => b + 3,
            Slide::Left => b - 1,
            Slide::Right => b + 1,
        };
        let tile = (*s >> (4 * t)) & 15;
        let board = *s & !(15u64 << (4 * t)) | (tile << (4 * b));
        (board & !(15u64 << 36)) | ((t as u64) << 36)
    }

    fn is_goal(&self, s: &EightState) -> bool {
        *s == Eight::goal()
    }

    fn lower_bound(&self, s: &EightState) -> u32 {
        if !self.manhattan {
            return 0;
        }
        let mut d = 0;
        for cell in 0..9 {
            let t = Eight::tile(*s, cell);
            if t != 0 {
                let home = t - 1;
                d += (cell / 3).abs_diff(home / 3) + (cell % 3).abs_diff(home % 3);
            }
        }
        d
    }

    fn prune_after(&self, prev: Slide, mv: Slide) -> bool {
        mv == prev.opposite()
    }
}

impl Scored for Eight {
    fn score(&self, s: &EightState) -> i64 {
        self.lower_bound(s) as i64
    }
}

impl Keyed for Eight {
    type Key = u64;
    fn key(&self, s: &EightState) -> u64 {
        *s
    }
}

/// A random directed graph: `n` nodes, each with a few out-edges, goal
/// nodes marked at random (possibly none reachable). Moves are edge
/// indices; the lower bound is the exact distance to the nearest goal
/// scaled down (`dist / 2`), admissible but weak, or 0.
#[derive(Debug, Clone)]
pub struct Graph {
    /// Out-edges of each node.
    pub edges: Vec<Vec<u32>>,
    /// True for goal nodes.
    pub goal: Vec<bool>,
    /// Exact distance to the nearest goal (`u32::MAX` when none).
    pub dist: Vec<u32>,
    /// Use `dist / 2` as the lower bound.
    pub informed: bool,
}

impl Graph {
    /// A random graph with `n` nodes, up to `degree` out-edges per node, each
    /// node a goal with probability `1/goal_one_in`.
    pub fn random(rng: &mut Rng, n: usize, degree: usize, goal_one_in: u64) -> Graph {
        let edges: Vec<Vec<u32>> = (0..n)
            .map(|_| {
                let d = rng.below(degree as u64 + 1) as usize;
                (0..d).map(|_| rng.below(n as u64) as u32).collect()
            })
            .collect();
        let goal: Vec<bool> = (0..n).map(|_| rng.below(goal_one_in) == 0).collect();
        // Backward BFS from the goals for exact distances.
        let mut rev = vec![Vec::new(); n];
        for (u, es) in edges.iter().enumerate() {
            for &v in es {
                rev[v as usize].push(u as u32);
            }
        }
        let mut dist = vec![u32::MAX; n];
        let mut frontier: Vec<u32> = (0..n as u32).filter(|&v| goal[v as usize]).collect();
        for &v in &frontier {
            dist[v as usize] = 0;
        }
        let mut d = 0;
        while !frontier.is_empty() {
            d += 1;
            let mut next = Vec::new();
            for &v in &frontier {
                for &u in &rev[v as usize] {
                    if dist[u as usize] == u32::MAX {
                        dist[u as usize] = d;
                        next.push(u);
                    }
                }
            }
            frontier = next;
        }
        Graph {
            edges,
            goal,
            dist,
            informed: false,
        }
    }
}

impl Problem for Graph {
    type State = u32;
    type Move = u8;

    fn moves(&self, s: &u32, out: &mut Vec<u8>) {
        out.extend(0..self.edges[*s as usize].len() as u8);
    }

    fn apply(&self, s: &u32, mv: u8) -> u32 {
        self.edges[*s as usize][mv as usize]
    }

    fn is_goal(&self, s: &u32) -> bool {
        self.goal[*s as usize]
    }

    fn lower_bound(&self, s: &u32) -> u32 {
        if self.informed {
            let d = self.dist[*s as usize];
            if d == u32::MAX {
                0
            } else {
                d / 2
            }
        } else {
            0
        }
    }
}

impl AstarProblem for Eight {}

impl AstarProblem for Graph {}

impl Scored for Graph {
    fn score(&self, s: &u32) -> i64 {
        self.lower_bound(s) as i64
    }
}

impl Keyed for Graph {
    type Key = u32;
    fn key(&self, s: &u32) -> u32 {
        *s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{
        astar, beam, count_reachable, dfbnb, greedy_scored, idastar, iddfs, optimise,
    };

    /// Every engine's node count on one fixed 8-puzzle: a change that
    /// alters a search (its order, pruning or counting) shows here.
    #[test]
    fn engines_pin_their_node_counts() {
        let md = Eight { manhattan: true };
        let s = Eight::scrambled(&mut Rng::new(3), 300);
        let b = Budget::unlimited();
        let exact = bfs(&md, &s, &b);
        let narrow = beam(&md, &s, 50, &b);
        let runs = [
            ("bfs", exact.nodes, 26_989),
            ("idastar", idastar(&md, &s, &b).nodes, 400),
            ("iddfs", iddfs(&md, &s, &b).nodes, 714),
            ("dfbnb", dfbnb(&md, &s, &b).nodes, 214_639),
            ("astar", astar(&md, &s, &b).nodes, 528),
            ("greedy_scored", greedy_scored(&md, &s, 3, &b).nodes, 414),
            ("beam", narrow.nodes, 802),
            (
                "count_reachable",
                count_reachable(&md, &s, &b).states,
                181_440,
            ),
        ];
        for (engine, nodes, pinned) in runs {
            assert_eq!(nodes, pinned, "{engine}");
        }
        let long = narrow.moves.unwrap();
        let short = optimise(&md, &s, long.clone(), 2, &b);
        assert_eq!((exact.len(), long.len(), short.len()), (Some(20), 22, 22));
        assert!(wins(&md, &s, &short));
    }
}
