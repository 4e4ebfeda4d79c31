//! The analysis the Fling! paper does, applied to Pegs: how many positions
//! can be reached from the start, how many first jumps still win, and
//! which single peg added or removed changes whether the board can be won.
//!
//! Reachable positions are counted by forward breadth-first search with
//! duplicates removed, up to the symmetries of the board that map the
//! start onto itself. Every jump removes a peg, so the layers are the peg
//! counts and a position can only repeat inside its own layer: each layer
//! is deduplicated on its own and dropped once the next one is built.
//! Boards of at most 64 cells pack positions into a `u64` over their own
//! cells and build each layer in parallel (rayon), deduplicating by a
//! parallel sort; larger boards use one hash set per layer.

use rustc_hash::FxHashSet;
use serde::Serialize;

use super::rules::{apply, bit, cells_of, Board, Cells, Game, Jump};
use super::solve::{SolveOptions, WinSolver};
use super::symmetry::Symmetries;
use crate::solver::{Budget, BudgetExceeded};

/// Positions reachable from a start.
#[derive(Debug, Clone, Serialize)]
pub struct Reachable {
    /// Distinct positions (up to symmetry), the start included.
    pub positions: u64,
    /// Distinct positions without symmetry reduction (each position
    /// counted with all its distinct mirror images), when the fast count
    /// finished.
    pub positions_without_symmetry: Option<u64>,
    /// Positions per peg count (up to symmetry), from the start's count
    /// down.
    pub per_layer: Vec<u64>,
    /// The symmetries used (1 = none): those of the board that also map
    /// the start onto itself.
    pub symmetries: usize,
    /// False when the budget ended the count (then `positions` is a lower
    /// bound).
    pub exhausted: bool,
    /// Largest layer held, in positions.
    pub widest_layer: u64,
    /// Wall time of the count, ms.
    pub time_ms: f64,
}

/// Counts the positions reachable from `game` (see the module docs).
///
/// Boards of at most 64 cells (every sgt-pegs preset but 9x9 random)
/// take the fast path: positions packed into a `u64` over the board's own
/// cells, each layer expanded in parallel (rayon), canonicalised by byte
/// tables and deduplicated by a parallel sort. Larger boards use a hash
/// set per layer.
pub fn count_reachable(game: &Game, budget: &Budget) -> Reachable {
    let t0 = std::time::Instant::now();
    let mut r = if game.board.len() <= 64 {
        count_compact(game, budget)
    } else {
        count_hashed(game, budget)
    };
    r.time_ms = t0.elapsed().as_secs_f64() * 1e3;
    r
}

/// The board's cells packed into the low bits of a `u64`, with the jumps
/// and symmetries in that numbering.
struct Compact {
    /// Cell number of each compact index.
    cells: Vec<u8>,
    /// Every jump as (from|over mask, to mask).
    jumps: Vec<(u64, u64)>,
    /// Per non-identity symmetry, per byte: the image of each byte value.
    tables: Vec<Vec<[u64; 256]>>,
}

impl Compact {
    fn new(board: &Board, syms: &Symmetries) -> Compact {
        let cells: Vec<u8> = cells_of(board.cells()).collect();
        let mut index = [u8::MAX; 128];
        for (k, &c) in cells.iter().enumerate() {
            index[c as usize] = k as u8;
        }
        let jumps = board
            .all_jumps()
            .iter()
            .map(|j| {
                let b = |c: u8| 1u64 << index[c as usize];
                (b(j.from) | b(j.over), b(j.to))
            })
            .collect();
        let n = cells.len();
        let tables = (0..syms.order() - 1)
            .map(|s| {
                (0..n.div_ceil(8))
                    .map(|byte| {
                        let mut t = [0u64; 256];
                        for (v, slot) in t.iter_mut().enumerate() {
                            for b in 0..8 {
                                let k = byte * 8 + b;
                                if v & (1 << b) != 0 && k < n {
                                    let img = syms.map_cell(s, cells[k]);
                                    *slot |= 1u64 << index[img as usize];
                                }
                            }
                        }
                        t
                    })
                    .collect()
            })
            .collect();
        Compact {
            cells,
            jumps,
            tables,
        }
    }

    fn pack(&self, pegs: Cells) -> u64 {
        self.cells
            .iter()
            .enumerate()
            .fold(0, |acc, (k, &c)| acc | (((pegs >> c) & 1) as u64) << k)
    }

    #[inline]
    fn image(&self, s: usize, p: u64) -> u64 {
        self.tables[s].iter().enumerate().fold(0, |acc, (byte, t)| {
            acc | t[((p >> (8 * byte)) & 0xff) as usize]
        })
    }

    #[inline]
    fn canonical(&self, p: u64) -> u64 {
        (0..self.tables.len()).fold(p, |best, s| best.min(self.image(s, p)))
    }

    /// Number of distinct images of `p` (its orbit under the symmetries).
    fn orbit(&self, p: u64) -> u64 {
        let mut imgs = [p; 8];
        for s in 0..self.tables.len() {
            imgs[s + 1] = self.image(s, p);
        }
        let imgs = &mut imgs[..=self.tables.len()];
        imgs.sort_unstable();
        1 + imgs.windows(2).filter(|w| w[0] != w[1]).count() as u64
    }
}

fn count_compact(game: &Game, budget: &Budget) -> Reachable {
    use rayon::prelude::*;
    let syms = Symmetries::of(&game.board).fixing_position(game.pegs);
    let cp = Compact::new(&game.board, &syms);
    let mut layer: Vec<u64> = vec![cp.canonical(cp.pack(game.pegs))];
    let mut per_layer = vec![1u64];
    let mut total = 1u64;
    let mut total_all = cp.orbit(layer[0]);
    let mut widest = 1u64;
    let mut exhausted = true;
    loop {
        if budget.check(layer.len() * 8).is_err() {
            exhausted = false;
            break;
        }
        let stop = std::sync::atomic::AtomicBool::new(false);
        let mut next: Vec<u64> = layer
            .par_chunks(1 << 14)
            .flat_map_iter(|chunk| {
                let mut out = Vec::with_capacity(chunk.len() * 8);
                if stop.load(std::sync::atomic::Ordering::Relaxed) || budget.time_up() {
                    stop.store(true, std::sync::atomic::Ordering::Relaxed);
                    return out.into_iter();
                }
                for &p in chunk {
                    for &(fo, t) in &cp.jumps {
                        if p & fo == fo && p & t == 0 {
                            out.push(cp.canonical(p ^ fo ^ t));
                        }
                    }
                }
                out.sort_unstable();
                out.dedup();
                out.into_iter()
            })
            .collect();
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            exhausted = false;
            break;
        }
        next.par_sort_unstable();
        next.dedup();
        if next.is_empty() {
            break;
        }
        total += next.len() as u64;
        total_all += next.par_iter().map(|&p| cp.orbit(p)).sum::<u64>();
        widest = widest.max(next.len() as u64);
        per_layer.push(next.len() as u64);
        layer = next;
    }
    Reachable {
        positions: total,
        positions_without_symmetry: exhausted.then_some(total_all),
        per_layer,
        symmetries: syms.order(),
        exhausted,
        widest_layer: widest,
        time_ms: 0.0,
    }
}

/// The hash-set count for boards of more than 64 cells.
fn count_hashed(game: &Game, budget: &Budget) -> Reachable {
    let syms = Symmetries::of(&game.board).fixing_position(game.pegs);
    let board = &game.board;
    let mut layer: Vec<Cells> = vec![syms.canonical(game.pegs)];
    let mut per_layer = vec![1u64];
    let mut total = 1u64;
    let mut widest = 1u64;
    let mut exhausted = true;
    let mut jumps = Vec::new();
    'outer: while !layer.is_empty() {
        let mut next: FxHashSet<Cells> = FxHashSet::default();
        for (k, &p) in layer.iter().enumerate() {
            if k & 4095 == 0 && budget.check(next.len() * 32 + layer.len() * 16).is_err() {
                exhausted = false;
                break 'outer;
            }
            jumps.clear();
            board.jumps(p, &mut jumps);
            for &j in &jumps {
                next.insert(syms.canonical(apply(p, j)));
            }
        }
        if next.is_empty() {
            break;
        }
        total += next.len() as u64;
        widest = widest.max(next.len() as u64);
        per_layer.push(next.len() as u64);
        layer = next.into_iter().collect();
    }
    Reachable {
        positions: total,
        positions_without_symmetry: None,
        per_layer,
        symmetries: syms.order(),
        exhausted,
        widest_layer: widest,
        time_ms: 0.0,
    }
}

/// One single-peg change that flips whether the board can be won.
#[derive(Debug, Clone, Serialize)]
pub struct Toggle {
    /// Row of the cell.
    pub row: usize,
    /// Column of the cell.
    pub col: usize,
    /// True when a peg is added to a hole, false when one is removed.
    pub added: bool,
    /// Whether the changed board can be won.
    pub winnable: bool,
}

/// One legal first jump and whether it still wins.
#[derive(Debug, Clone, Serialize)]
pub struct FirstMove {
    /// (row, col) the peg leaves.
    pub from: (usize, usize),
    /// (row, col) it lands on.
    pub to: (usize, usize),
    /// `Some(true)` wins, `Some(false)` proven lost, `None` unproven.
    pub wins: Option<bool>,
}

/// The whole analysis of one start position.
#[derive(Debug, Clone, Serialize)]
pub struct Analysis {
    /// The game ID analysed.
    pub id: String,
    /// Pegs at the start.
    pub pegs: u32,
    /// `Some(true)` winnable, `Some(false)` proven lost, `None` unproven.
    pub winnable: Option<bool>,
    /// Reachable positions.
    pub reachable: Reachable,
    /// Each legal first jump.
    pub first_moves: Vec<FirstMove>,
    /// How many of them still win.
    pub winning_first_moves: usize,
    /// Single-peg changes that flip winnability.
    pub changing_toggles: Vec<Toggle>,
    /// Single-peg changes tried (cells on the board, minus those that
    /// would leave no peg).
    pub toggles_tried: usize,
    /// Single-peg changes left undecided by the budget.
    pub toggles_unproven: usize,
    /// Why the budget stopped a part, if it did.
    pub stopped: Option<String>,
}

/// Analyses `game`: `count_budget` for the reachable count, `solve_budget`
/// (fresh per question) for each winnability question.
pub fn analyse(game: &Game, count_budget: &Budget, solve_budget: impl Fn() -> Budget) -> Analysis {
    let reachable = count_reachable(game, count_budget);
    let mut stopped: Option<BudgetExceeded> = None;
    let mut solver = WinSolver::new(&game.board, SolveOptions::default());
    let mut decide = |pegs: Cells| {
        let o = solver.solve(pegs, &solve_budget());
        if let Some(w) = o.stopped {
            stopped = Some(w);
        }
        super::solve::verdict(&o)
    };
    let winnable = decide(game.pegs);
    let mut jumps: Vec<Jump> = Vec::new();
    game.board.jumps(game.pegs, &mut jumps);
    let first_moves: Vec<FirstMove> = jumps
        .iter()
        .map(|&j| FirstMove {
            from: game.board.row_col(j.from),
            to: game.board.row_col(j.to),
            wins: decide(apply(game.pegs, j)),
        })
        .collect();
    let winning_first_moves = first_moves.iter().filter(|m| m.wins == Some(true)).count();
    let mut changing_toggles = Vec::new();
    let mut toggles_tried = 0;
    let mut toggles_unproven = 0;
    for r in 0..game.board.height() {
        for c in 0..game.board.width() {
            if !game.board.on_board(r, c) {
                continue;
            }
            let b = bit(game.board.index(r, c));
            let pegs = game.pegs ^ b;
            if pegs == 0 {
                continue;
            }
            toggles_tried += 1;
            match (decide(pegs), winnable) {
                (Some(w), Some(base)) if w != base => changing_toggles.push(Toggle {
                    row: r,
                    col: c,
                    added: game.pegs & b == 0,
                    winnable: w,
                }),
                (None, _) | (_, None) => toggles_unproven += 1,
                _ => {}
            }
        }
    }
    if !reachable.exhausted {
        stopped.get_or_insert(BudgetExceeded::Time);
    }
    Analysis {
        id: game.id(),
        pegs: game.peg_count(),
        winnable,
        reachable,
        first_moves,
        winning_first_moves,
        changing_toggles,
        toggles_tried,
        toggles_unproven,
        stopped: stopped.map(|w| w.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pegs::parse::parse_game;

    /// Every position reachable from `pegs`, without symmetry reduction.
    fn plain_reachable(g: &Game) -> usize {
        let mut seen = std::collections::HashSet::from([g.pegs]);
        let mut stack = vec![g.pegs];
        let mut js = Vec::new();
        while let Some(p) = stack.pop() {
            js.clear();
            g.board.jumps(p, &mut js);
            for &j in &js {
                let q = apply(p, j);
                if seen.insert(q) {
                    stack.push(q);
                }
            }
        }
        seen.len()
    }

    #[test]
    fn packed_and_hashed_counts_agree_with_a_plain_count() {
        let mut reduced = 0;
        for id in [
            "4x4:PPPPPHPPPPPPPPPP",
            "5x5:OPPPOPPPPPPPHPPPPPPPOPPPO",
            "5x5:OOPOOOPPPOPPHPPOPPPOOOPOO",
            "6x3:PPPPPPPPHPPPPPPPPP",
            "5x4:PPPPOPHPPPPPPPPOPPPP",
        ] {
            let g = parse_game(id).unwrap();
            let packed = count_compact(&g, &Budget::unlimited());
            let hashed = count_hashed(&g, &Budget::unlimited());
            assert!(packed.exhausted && hashed.exhausted);
            assert_eq!(packed.per_layer, hashed.per_layer, "{id}");
            assert_eq!(packed.positions, hashed.positions, "{id}");
            let plain = plain_reachable(&g) as u64;
            assert_eq!(packed.positions_without_symmetry, Some(plain), "{id}");
            assert!(packed.positions <= plain, "{id}");
            reduced += (packed.positions < plain) as usize;
        }
        assert!(reduced >= 2, "symmetry reduced only {reduced} counts");
    }

    #[test]
    fn tiny_board_counts_and_toggles() {
        // P P H: one jump, then won.
        let g = parse_game("3x1:PPH").unwrap();
        let a = analyse(&g, &Budget::unlimited(), Budget::unlimited);
        assert_eq!(a.reachable.positions, 2);
        assert_eq!(a.winnable, Some(true));
        assert_eq!(a.winning_first_moves, 1);
        // Adding a peg on the hole makes it PPP: stuck with 3 pegs, lost.
        assert!(a
            .changing_toggles
            .iter()
            .any(|t| t.added && t.col == 2 && !t.winnable));
    }
}
