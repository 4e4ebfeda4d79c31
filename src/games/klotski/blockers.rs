//! A lower bound on the moves a Klotski position still needs, for
//! [`crate::solver::layered_astar`]: the target's own move, plus one for
//! every other block that, alone on the board, would cut the target from
//! every goal (such a block must move at least once, and one move is one
//! block however far).
//!
//! The bound is consistent: a block's move changes only its own term,
//! and the target's move never removes a term (a block that cuts the
//! target at `t` from the goal cuts it at every place the target reaches
//! from `t` with that block on the board), so one move lowers the bound by
//! one at most. A table per shape and place says which target places that
//! block cuts, so a position's bound is one bit test a block.

use super::board::Board;

/// Which target places each block, alone on the board, cuts from every
/// goal.
#[derive(Debug, Clone)]
pub struct Blockers {
    /// Anchors of the board (its cells).
    cells: usize,
    /// Words of a set of target anchors.
    words: usize,
    /// Per class and anchor of a block: the set of target anchors it cuts.
    cut: Vec<u64>,
}

impl Blockers {
    /// The table of `board`.
    pub fn new(board: &Board) -> Blockers {
        let cells = board.width() * board.height();
        let words = cells.div_ceil(64);
        let mut cut = vec![0u64; board.classes() * cells * words];
        let free = vec![false; cells];
        let open = reaching_goal(board, &free);
        let mut taken = free.clone();
        for class in 1..board.classes() {
            for anchor in board.fitting_anchors(class) {
                let shape = board.shape_cells(class, anchor).unwrap_or_default();
                shape.iter().for_each(|&c| taken[c as usize] = true);
                let reach = reaching_goal(board, &taken);
                let set = &mut cut[(class * cells + anchor as usize) * words..][..words];
                for t in 0..cells {
                    if target_fits(board, &taken, t) && open[t] && !reach[t] {
                        set[t / 64] |= 1 << (t % 64);
                    }
                }
                shape.iter().for_each(|&c| taken[c as usize] = false);
            }
        }
        Blockers { cells, words, cut }
    }

    /// The bound for the position with these anchors (by slot; slot 0 is
    /// the target): 0 when the target is on the goal.
    pub fn bound(&self, board: &Board, anchors: &[u16]) -> u32 {
        if board.is_goal_anchor(anchors[0]) {
            return 0;
        }
        1 + (1..anchors.len())
            .map(|slot| self.term(board, anchors, slot))
            .sum::<u32>()
    }

    /// 1 when the block in `slot` (not the target), alone on the board,
    /// cuts the target of `anchors` from every goal, else 0.
    pub fn term(&self, board: &Board, anchors: &[u16], slot: usize) -> u32 {
        let t = anchors[0] as usize;
        let at = board.class_of(slot) * self.cells + anchors[slot] as usize;
        (self.cut[at * self.words + t / 64] >> (t % 64)) as u32 & 1
    }
}

/// True when the target fits at anchor `a` on cells not `taken`.
fn target_fits(board: &Board, taken: &[bool], a: usize) -> bool {
    board
        .shape_cells(0, a as u16)
        .is_some_and(|c| c.iter().all(|&c| !taken[c as usize]))
}

/// Per anchor: the target there reaches a goal by single steps over cells
/// not `taken`.
fn reaching_goal(board: &Board, taken: &[bool]) -> Vec<bool> {
    let cells = board.width() * board.height();
    let fits = |a: usize| target_fits(board, taken, a);
    let mut reach = vec![false; cells];
    let mut queue: Vec<usize> = (0..cells)
        .filter(|&a| board.is_goal_anchor(a as u16) && fits(a))
        .collect();
    queue.iter().for_each(|&a| reach[a] = true);
    while let Some(a) = queue.pop() {
        for b in board.neighbours(a) {
            if !reach[b] && fits(b) {
                reach[b] = true;
                queue.push(b);
            }
        }
    }
    reach
}
