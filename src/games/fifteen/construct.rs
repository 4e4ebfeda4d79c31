//! A fast first solution for boards of any size: the constructive method
//! people use by hand.
//!
//! The board is reduced line by line (the top row or the left column of
//! what is left, whichever is longer; on a square what is left, the row)
//! until a region of at most 3x3 remains in the bottom-right corner, which
//! is solved exactly by the core's IDA* as a small board of its own.
//!
//! - Each tile of a line but the last two is brought home by a shortest
//!   sequence that leaves the fixed cells alone: breadth-first search
//!   over where that tile and the gap are (the other tiles do not matter
//!   for the subgoal), at most `cells^2` states.
//! - The last two tiles of a line cannot be placed one after the other
//!   (the first would block the second's way in); they are placed
//!   together by the same search over where both are and the gap (at
//!   most `cells^3` states: 46,656 on 6x6), which finds the classic
//!   corner manoeuvre or anything shorter.
//!
//! Every stage works on a region at least 2 cells deep beyond the fixed
//! ones, where these searches always succeed; if one ever failed the
//! caller would get `None` (never a wrong answer). The moves are then stripped
//! of loops ([`super::solve::cut_loops`]). This guarantees a solution, not
//! a short one; [`construct_searching`] first tries each stage by a short
//! IDA* towards the stage's subgoal (shortest for that stage when it
//! finishes) and falls back to the hand method, which keeps it complete.

use std::collections::VecDeque;

use super::problem::{BoundKind, Slide};
use super::rules::{Board, Dir};
use crate::solver::idastar::idastar;
use crate::solver::Budget;

/// The working board: cells, where each tile is, which cells are fixed
/// (tiles placed for good), and the moves played.
struct Work<'a> {
    w: usize,
    h: usize,
    cells: Vec<u8>,
    pos: Vec<usize>,
    fixed: Vec<bool>,
    moves: Vec<Dir>,
    /// Nodes a stage's IDA* may spend (0: no search, by hand only).
    stage_nodes: u64,
    budget: &'a Budget,
    /// Nodes spent by the stages' searches.
    nodes: u64,
}

impl<'a> Work<'a> {
    fn new(board: &Board, stage_nodes: u64, budget: &'a Budget) -> Work<'a> {
        let cells = board.cells().to_vec();
        let mut pos = vec![0; cells.len()];
        for (c, &t) in cells.iter().enumerate() {
            pos[t as usize] = c;
        }
        Work {
            w: board.width(),
            h: board.height(),
            fixed: vec![false; cells.len()],
            cells,
            pos,
            moves: Vec::new(),
            stage_nodes,
            budget,
            nodes: 0,
        }
    }

    /// Plays a gap move.
    fn play(&mut self, d: Dir) {
        let g = self.pos[0];
        let (r, c) = (g / self.w, g % self.w);
        let to = match d {
            Dir::Up => (r - 1) * self.w + c,
            Dir::Down => (r + 1) * self.w + c,
            Dir::Left => r * self.w + c - 1,
            Dir::Right => r * self.w + c + 1,
        };
        self.step(to);
    }

    /// Tries to bring the tiles homed on `cells` home by a shortest
    /// search (IDA* towards "every fixed tile and these home", at most
    /// `stage_nodes` nodes); true when it did (the moves are played).
    fn search_stage(&mut self, cells: &[usize]) -> bool {
        if self.stage_nodes == 0 || self.budget.time_up() {
            return false;
        }
        let mut targets: Vec<u8> = (0..self.cells.len())
            .filter(|&c| self.fixed[c])
            .map(|c| c as u8 + 1)
            .collect();
        targets.extend(cells.iter().map(|&c| c as u8 + 1));
        let nums: Vec<usize> = self.cells.iter().map(|&t| t as usize).collect();
        let board = Board::try_new(self.w, self.h, &nums).expect("a board");
        let p = Slide::new(self.w, self.h, BoundKind::LinearConflict).with_targets(&targets);
        let b = self.budget.clone().with_node_limit(self.stage_nodes);
        let o = idastar(&p, &p.node(&board), &b);
        self.nodes += o.nodes;
        match o.moves {
            Some(m) => {
                for d in m {
                    self.play(d);
                }
                true
            }
            None => false,
        }
    }

    /// The cells next to `c`.
    fn neighbours(&self, c: usize) -> impl Iterator<Item = usize> {
        let (w, h) = (self.w, self.h);
        let (r, col) = (c / w, c % w);
        [
            (r > 0).then(|| c - w),
            (r + 1 < h).then(|| c + w),
            (col > 0).then(|| c - 1),
            (col + 1 < w).then(|| c + 1),
        ]
        .into_iter()
        .flatten()
    }

    /// The direction of the step from `a` to its neighbour `b`.
    fn dir(&self, a: usize, b: usize) -> Dir {
        if b + self.w == a {
            Dir::Up
        } else if b == a + self.w {
            Dir::Down
        } else if b + 1 == a {
            Dir::Left
        } else {
            debug_assert_eq!(b, a + 1);
            Dir::Right
        }
    }

    /// Moves the gap one step onto its neighbour `to`.
    fn step(&mut self, to: usize) {
        let g = self.pos[0];
        let d = self.dir(g, to);
        let t = self.cells[to];
        self.cells.swap(g, to);
        self.pos[t as usize] = g;
        self.pos[0] = to;
        self.moves.push(d);
    }

    /// Brings each tile `t` of `stage` (one or two `(t, home)`) home by a
    /// shortest sequence that keeps off the fixed cells: breadth-first
    /// search over where these tiles and the gap are (the other tiles do
    /// not matter for this subgoal; at most `cells^3` states). False when
    /// no sequence exists.
    fn place(&mut self, stage: &[(u8, usize)]) -> bool {
        let n = self.cells.len();
        let k = stage.len();
        debug_assert!(k == 1 || k == 2);
        // State: (tile positions..., gap) in base n.
        let encode = |p: &[usize; 3]| -> usize { p[..=k].iter().fold(0, |acc, &c| acc * n + c) };
        let decode = |mut code: usize| -> [usize; 3] {
            let mut p = [0usize; 3];
            for i in (0..=k).rev() {
                p[i] = code % n;
                code /= n;
            }
            p
        };
        let mut start = [0usize; 3];
        for (i, &(t, _)) in stage.iter().enumerate() {
            start[i] = self.pos[t as usize];
        }
        start[k] = self.pos[0];
        let is_goal = |p: &[usize; 3]| stage.iter().enumerate().all(|(i, &(_, home))| p[i] == home);
        if is_goal(&start) {
            return true;
        }
        let states = n.pow(k as u32 + 1);
        const UNSEEN: u32 = u32::MAX;
        let mut parent = vec![UNSEEN; states];
        let s0 = encode(&start);
        parent[s0] = s0 as u32;
        let mut queue = VecDeque::from([s0]);
        let mut found = None;
        'search: while let Some(code) = queue.pop_front() {
            let p = decode(code);
            let g = p[k];
            for c in self.neighbours(g) {
                if self.fixed[c] {
                    continue;
                }
                let mut q = p;
                q[k] = c;
                for i in 0..k {
                    if p[i] == c {
                        q[i] = g;
                    }
                }
                let next = encode(&q);
                if parent[next] == UNSEEN {
                    parent[next] = code as u32;
                    if is_goal(&q) {
                        found = Some(next);
                        break 'search;
                    }
                    queue.push_back(next);
                }
            }
        }
        let Some(mut code) = found else {
            return false;
        };
        // The gap's cells from the goal back to the start, then played.
        let mut gaps = Vec::new();
        while code != s0 {
            gaps.push(decode(code)[k]);
            code = parent[code] as usize;
        }
        for &c in gaps.iter().rev() {
            self.step(c);
        }
        true
    }

    /// Places the tiles of `line` (cells in order, all in one row or one
    /// column at the edge of the region left): one at a time, the last
    /// two together.
    fn place_line(&mut self, line: &[usize]) -> bool {
        let k = line.len();
        for &c in &line[..k - 2] {
            if !self.search_stage(&[c]) && !self.place(&[(c as u8 + 1, c)]) {
                return false;
            }
            self.fixed[c] = true;
        }
        let (a, b) = (line[k - 2], line[k - 1]);
        if !self.search_stage(&[a, b]) && !self.place(&[(a as u8 + 1, a), (b as u8 + 1, b)]) {
            return false;
        }
        self.fixed[a] = true;
        self.fixed[b] = true;
        true
    }

    /// Solves the unfixed bottom-right region (rows `top..`, columns
    /// `left..`, at most 16 cells) exactly, as a board of its own.
    fn finish(&mut self, top: usize, left: usize) -> bool {
        let (sw, sh) = (self.w - left, self.h - top);
        let mut nums = Vec::with_capacity(sw * sh);
        for r in top..self.h {
            for c in left..self.w {
                let t = self.cells[r * self.w + c] as usize;
                nums.push(if t == 0 {
                    0
                } else {
                    // Tile t's home is (r', c') in the region: renumber it.
                    let g = t - 1;
                    let (gr, gc) = (g / self.w, g % self.w);
                    if gr < top || gc < left {
                        return false;
                    }
                    (gr - top) * sw + (gc - left) + 1
                });
            }
        }
        let Ok(sub) = Board::try_new(sw, sh, &nums) else {
            return false;
        };
        if sub.solvability().is_err() {
            return false;
        }
        let p = Slide::new(sw, sh, BoundKind::LinearConflict);
        let o = idastar(&p, &p.node(&sub), &Budget::unlimited());
        let Some(m) = o.moves else {
            return false;
        };
        self.nodes += o.nodes;
        for d in m {
            self.play(d);
        }
        true
    }
}

/// A solution of `board` (of a solvable board of any size; `None` for an
/// unsolvable one) by the constructive method of the module docs: fast
/// (about a millisecond on 6x6), not short.
pub fn construct(board: &Board) -> Option<Vec<Dir>> {
    construct_searching(board, 0, &Budget::unlimited()).map(|(m, _)| m)
}

/// The same, each stage (a tile, or the last two of a line) first tried
/// by IDA* towards "the tiles placed so far and this stage's home" with
/// at most `stage_nodes` nodes (while `budget` lasts), which places it in
/// the fewest moves when it finishes; by hand otherwise. Always a
/// solution for a solvable board, usually shorter; with the nodes spent.
pub fn construct_searching(
    board: &Board,
    stage_nodes: u64,
    budget: &Budget,
) -> Option<(Vec<Dir>, u64)> {
    board.solvability().ok()?;
    let mut work = Work::new(board, stage_nodes, budget);
    let (w, h) = (work.w, work.h);
    let (mut top, mut left) = (0usize, 0usize);
    while h - top > 3 || w - left > 3 {
        let ok = if h - top >= w - left {
            let line: Vec<usize> = (left..w).map(|c| top * w + c).collect();
            top += 1;
            work.place_line(&line)
        } else {
            let line: Vec<usize> = (top..h).map(|r| r * w + left).collect();
            left += 1;
            work.place_line(&line)
        };
        if !ok {
            return None;
        }
    }
    if !work.finish(top, left) {
        return None;
    }
    debug_assert!(work
        .cells
        .iter()
        .enumerate()
        .all(|(c, &t)| if c + 1 == work.cells.len() {
            t == 0
        } else {
            t as usize == c + 1
        }));
    Some((super::solve::cut_loops(board, &work.moves), work.nodes))
}

/// A random solvable board (tests): a random permutation, fixed up for
/// parity by swapping two tiles.
#[cfg(test)]
pub(crate) fn random_board(w: usize, h: usize, rng: &mut crate::solver::testing::Rng) -> Board {
    let n = w * h;
    let mut nums: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        nums.swap(i, j);
    }
    let b = Board::try_new(w, h, &nums).expect("a permutation");
    if b.solvability().is_ok() {
        return b;
    }
    // Swapping two tiles (not the gap) flips the parity.
    let mut tiles = (0..n).filter(|&i| nums[i] != 0);
    let (i, j) = (tiles.next().expect("tiles"), tiles.next().expect("tiles"));
    nums.swap(i, j);
    Board::try_new(w, h, &nums).expect("a permutation")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::testing::Rng;

    #[test]
    fn solves_random_boards_of_many_sizes() {
        let mut rng = Rng::new(11);
        for &(w, h) in &[
            (3, 3),
            (4, 4),
            (5, 5),
            (6, 6),
            (7, 7),
            (8, 8),
            (5, 4),
            (4, 6),
            (9, 2),
            (2, 9),
            (3, 7),
            (7, 3),
            (10, 10),
        ] {
            for _ in 0..if w * h > 64 { 2 } else { 10 } {
                let b = random_board(w, h, &mut rng);
                let m = construct(&b).unwrap_or_else(|| panic!("no solution for\n{b}"));
                let mut end = b.clone();
                end.play_all(&m).unwrap();
                assert!(end.is_solved(), "{w}x{h}: not solved by its moves\n{b}");
            }
        }
    }

    #[test]
    fn searching_stages_give_solutions_too() {
        let mut rng = Rng::new(5);
        let (mut by_hand, mut searched) = (0, 0);
        for &(w, h) in &[(5, 5), (6, 6), (4, 5), (3, 6)] {
            for _ in 0..3 {
                let b = random_board(w, h, &mut rng);
                let plain = construct(&b).unwrap();
                let (m, nodes) = construct_searching(&b, 20_000, &Budget::unlimited()).unwrap();
                assert!(nodes > 0);
                let mut end = b.clone();
                end.play_all(&m).unwrap();
                assert!(end.is_solved(), "{w}x{h}\n{b}");
                by_hand += plain.len();
                searched += m.len();
            }
        }
        // Shortest stages: shorter than by hand overall.
        assert!(searched < by_hand, "{searched} vs {by_hand}");
    }

    #[test]
    fn refuses_an_unsolvable_board_and_keeps_a_solved_one() {
        let b = Board::try_new(3, 3, &[2, 1, 3, 4, 5, 6, 7, 8, 0]).unwrap();
        assert_eq!(construct(&b), None);
        let mut rng = Rng::new(2);
        for _ in 0..20 {
            assert!(random_board(4, 5, &mut rng).solvability().is_ok());
        }
        assert_eq!(construct(&Board::goal(6, 6)), Some(Vec::new()));
    }
}
