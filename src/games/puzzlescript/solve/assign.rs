//! The estimate's cost of `all X on Y` by assignment: each X not on a Y
//! goes to a Y no X holds, each such Y taken once (a greedy matching,
//! shortest ways first), instead of every X to its nearest Y (which
//! sends every X to the same Y, or to a Y another X already holds).

use super::{Game, Ways};

/// The most pairs of cells the assignment weighs; past it the estimate
/// falls back to nearest targets.
const PAIRS: usize = 1024;

/// An assignment's cost and the cells of the objects that have to move
/// to meet it (the player's next walk goes to the nearest of them).
pub(super) struct Assigned {
    /// The sum of the ways of the pairs, `far` for an X left without a Y.
    pub cost: usize,
    /// The cells of the movers among the pairs: the Xs when Xs move,
    /// else the Ys they were given.
    pub movers: Vec<usize>,
}

/// The pairs of `wrong` (X cells with no Y) and `free` (Y cells with no
/// X), shortest ways first (around the walls of `side`), each cell in
/// one pair at most; `from_wrong`: the ways are mapped from the X cells
/// (fixed ones, so their maps are kept), else from the Y cells; `x_moves`:
/// the Xs are the movers. `None` when there are too many pairs to weigh.
pub(super) fn assign(
    ways: &Ways,
    game: &Game,
    side: &[u64],
    (wrong, free): (&[usize], &[usize]),
    far: usize,
    (from_wrong, x_moves): (bool, bool),
) -> Option<Assigned> {
    if wrong.len() * free.len() > PAIRS {
        return None;
    }
    let (sources, sinks) = if from_wrong {
        (wrong, free)
    } else {
        (free, wrong)
    };
    let mut pairs: Vec<(usize, usize, usize)> = Vec::with_capacity(sources.len() * sinks.len());
    for (s, &cell) in sources.iter().enumerate() {
        ways.with_map(game, side, &[cell], far, |d| {
            pairs.extend(sinks.iter().enumerate().map(|(t, &c)| (d[c], s, t)));
        });
    }
    pairs.sort_unstable();
    let (mut source_used, mut sink_used) = (vec![false; sources.len()], vec![false; sinks.len()]);
    let (mut cost, mut matched) = (0, 0);
    let mut movers = Vec::new();
    for (d, s, t) in pairs {
        if source_used[s] || sink_used[t] || d >= far {
            continue;
        }
        (source_used[s], sink_used[t]) = (true, true);
        cost += d;
        matched += 1;
        let (x, y) = if from_wrong {
            (sources[s], sinks[t])
        } else {
            (sinks[t], sources[s])
        };
        movers.push(if x_moves { x } else { y });
    }
    cost += (wrong.len() - matched) * far;
    Some(Assigned { cost, movers })
}
