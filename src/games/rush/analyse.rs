//! The cluster of a position: every position reachable from it (moves are
//! reversible, so they are all mutually reachable), how many are solved,
//! the distance of each to the nearest solved one, the farthest position
//! and the difficulty class of the start.

use serde::Serialize;

use super::board::{Board, Position};
use super::search::hash;
use crate::solver::{Budget, BudgetExceeded, IndexTable, Probe};

/// Difficulty classes by the fewest moves (the seed's four classes plus
/// unsolvable): easy 0-10, medium 11-20, hard 21-35, very hard 36 and more.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Difficulty {
    /// At most 10 moves.
    Easy,
    /// 11 to 20 moves.
    Medium,
    /// 21 to 35 moves.
    Hard,
    /// 36 moves or more.
    VeryHard,
    /// No solution.
    Unsolvable,
}

impl Difficulty {
    /// The class of a puzzle needing `moves` moves (`None`: unsolvable).
    pub fn of(moves: Option<u32>) -> Difficulty {
        match moves {
            None => Difficulty::Unsolvable,
            Some(0..=10) => Difficulty::Easy,
            Some(11..=20) => Difficulty::Medium,
            Some(21..=35) => Difficulty::Hard,
            Some(_) => Difficulty::VeryHard,
        }
    }

    /// The range of moves of the class (`None` for unsolvable).
    pub fn moves(self) -> Option<(u32, u32)> {
        match self {
            Difficulty::Easy => Some((0, 10)),
            Difficulty::Medium => Some((11, 20)),
            Difficulty::Hard => Some((21, 35)),
            Difficulty::VeryHard => Some((36, u32::MAX)),
            Difficulty::Unsolvable => None,
        }
    }
}

/// Every position of a cluster with its distance to the nearest solved
/// position (`u8::MAX` when the cluster has none).
#[derive(Debug, Clone)]
pub struct Cluster {
    /// Packed positions, the start first, in breadth-first order.
    pub positions: Vec<u64>,
    /// Fewest moves from each position to a solved one.
    pub distance: Vec<u8>,
}

/// Unreachable-goal marker in [`Cluster::distance`].
pub const NO_SOLUTION: u8 = u8::MAX;

/// Explores the whole cluster of `start` and the distance of each position
/// to a solved one (a breadth-first search backwards from every solved
/// position).
pub fn cluster(board: &Board, start: Position, budget: &Budget) -> Result<Cluster, BudgetExceeded> {
    cluster_unless(board, start, budget, |_| false).map(|c| c.expect("never abandoned"))
}

/// [`cluster`], abandoned (`Ok(None)`) as soon as a position for which
/// `abandon` is true is reached.
pub fn cluster_unless(
    board: &Board,
    start: Position,
    budget: &Budget,
    mut abandon: impl FnMut(Position) -> bool,
) -> Result<Option<Cluster>, BudgetExceeded> {
    let mut positions = vec![start.0];
    let mut table = IndexTable::with_capacity(1 << 10);
    if let Probe::Vacant(slot) = table.find(hash(start.0), |_| false) {
        table.insert(slot, hash(start.0), 0);
    }
    let mut i = 0;
    let mut edges: Vec<u32> = Vec::new();
    let mut first_edge: Vec<u32> = Vec::new();
    let mut abandoned = false;
    while i < positions.len() && !abandoned {
        if i % 4096 == 4095 {
            budget.check_nodes(
                i as u64,
                positions.len() * 12 + edges.len() * 4 + table.bytes(),
            )?;
        }
        first_edge.push(edges.len() as u32);
        board.for_each_move(Position(positions[i]), |_, next| {
            let h = hash(next.0);
            let idx = match table.find(h, |j| positions[j as usize] == next.0) {
                Probe::Found(_, j) => j,
                Probe::Vacant(slot) => {
                    abandoned |= abandon(next);
                    let j = positions.len() as u32;
                    positions.push(next.0);
                    table.insert(slot, h, j);
                    j
                }
            };
            edges.push(idx);
        });
        i += 1;
    }
    if abandoned {
        return Ok(None);
    }
    first_edge.push(edges.len() as u32);
    let mut distance = vec![NO_SOLUTION; positions.len()];
    let mut queue: Vec<u32> = Vec::new();
    for (j, &p) in positions.iter().enumerate() {
        if board.is_solved(Position(p)) {
            distance[j] = 0;
            queue.push(j as u32);
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let j = queue[head] as usize;
        head += 1;
        let d = distance[j].saturating_add(1).min(NO_SOLUTION - 1);
        for &k in &edges[first_edge[j] as usize..first_edge[j + 1] as usize] {
            if distance[k as usize] == NO_SOLUTION {
                distance[k as usize] = d;
                queue.push(k);
            }
        }
    }
    Ok(Some(Cluster {
        positions,
        distance,
    }))
}

/// What `analyse` reports about a position's cluster.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClusterReport {
    /// The position analysed, as text.
    pub board: String,
    /// Positions reachable from it (itself included).
    pub positions: u64,
    /// How many of them are solved.
    pub solved: u64,
    /// Fewest moves from the start (`None`: unsolvable).
    pub moves: Option<u32>,
    /// The difficulty class of the start.
    pub difficulty: Difficulty,
    /// The farthest position from a solution (the least in Fogleman's
    /// order among the farthest, see [`super::board::OrderKey`]), when the cluster has
    /// a solved position.
    pub farthest: Option<String>,
    /// Its fewest moves.
    pub farthest_moves: Option<u32>,
}

/// Analyses the cluster of `start`.
pub fn analyse(
    board: &Board,
    start: Position,
    budget: &Budget,
) -> Result<ClusterReport, BudgetExceeded> {
    let c = cluster(board, start, budget)?;
    let solved = c.distance.iter().filter(|&&d| d == 0).count() as u64;
    let moves = (c.distance[0] != NO_SOLUTION).then(|| c.distance[0] as u32);
    let (farthest, farthest_moves) = match hardest(board, &c) {
        Some((p, d)) => (Some(board.to_text(p)), Some(d)),
        None => (None, None),
    };
    Ok(ClusterReport {
        board: board.to_text(start),
        positions: c.positions.len() as u64,
        solved,
        moves,
        difficulty: Difficulty::of(moves),
        farthest,
        farthest_moves,
    })
}

/// The farthest position of a cluster from a solution (the least in
/// Fogleman's order, [`super::board::OrderKey`], among the farthest) and its distance;
/// `None` without a solved position.
pub fn hardest(board: &Board, c: &Cluster) -> Option<(Position, u32)> {
    let max = c
        .distance
        .iter()
        .copied()
        .filter(|&d| d != NO_SOLUTION)
        .max()?;
    c.positions
        .iter()
        .zip(&c.distance)
        .filter(|(_, &d)| d == max)
        .map(|(&p, _)| Position(p))
        .min_by_key(|&p| board.order_key(p))
        .map(|p| (p, max as u32))
}

#[cfg(test)]
mod tests {
    use super::super::parse::parse_line;
    use super::*;

    #[test]
    fn the_hardest_puzzle_is_the_farthest_of_its_cluster() {
        let p = parse_line("51 BCDDEoBCFoEGBoFAAGHHHIoGooJIKKLLJMMo 4780", 1).unwrap();
        let r = analyse(&p.board, p.start, &Budget::unlimited()).unwrap();
        assert_eq!(r.positions, 4780);
        assert_eq!(r.moves, Some(51));
        assert_eq!(r.farthest_moves, Some(51));
        // The enumeration's line for this cluster: its least farthest
        // position in Fogleman's order, another board than the famous one.
        let far = super::super::generate::canonical_text(&r.farthest.unwrap());
        assert_eq!(far, "BCCoDoBEFoDGBEFAAGHHHIoGooJIKKLLJMMo");
        assert_eq!(r.difficulty, Difficulty::VeryHard);
        assert!(r.solved > 0);
        assert_eq!(Difficulty::of(Some(10)), Difficulty::Easy);
        assert_eq!(Difficulty::of(Some(11)), Difficulty::Medium);
        assert_eq!(Difficulty::of(None), Difficulty::Unsolvable);
    }
}
