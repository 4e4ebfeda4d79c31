//! The Gemji level generator and the report's difficulty score.
//!
//! Pre-conditions (the inputs): board size, number of gems and the types
//! they are drawn from, the range of the minimum number of moves. A
//! candidate level places the gems on distinct random cells, then plays a
//! random sequence of legal moves (as many as the top of the range) and
//! puts between one and three finishes (never more than the movable gems)
//! on cells where that play left a gem and that are empty at the start,
//! each asking for that gem's type or (one time in two) for any gem. So
//! gems and finishes never overlap, finishes never outnumber gems, and
//! most candidates are solvable. A candidate is kept only when the solver
//! proves its minimum number of moves is in the range.
//!
//! Post-conditions (from the solution found): turns, effects activated
//! (gems moved by effects that then activated: the player's own gem is
//! not counted), turns that move the gem the previous turn moved, gem
//! density (gems / cells). The difficulty is the report's formula
//! (Figure 5):
//!
//! ```text
//! effect_density = 2 - effects / turns
//! same_turn_density = moved_twice / turns
//! normalized_gem_density = 0.5 + gem_density * 0.5
//! same_turn_factor = (0.51 - same_turn_density)^2
//! difficulty = normalized_gem_density * turns * effect_density^2 * same_turn_factor
//! ```
//!
//! The report's C++ divides two unsigned integers for `same_turn_density`
//! (so it is 0 unless every turn repeats a gem); here the division is in
//! floating point, which is what the formula means.

use super::rules::{Finish, Gem, Level, Move, State};

/// What the generator is asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Gems per level.
    pub gems: usize,
    /// The types gems are drawn from (uniformly).
    pub types: Vec<Gem>,
    /// Fewest moves a kept level needs.
    pub min_moves: u32,
    /// Most moves a kept level needs.
    pub max_moves: u32,
}

/// Why a spec cannot be generated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// More gems than cells.
    #[error("{gems} gems do not fit on {cells} cells")]
    TooManyGems {
        /// Gems asked for.
        gems: usize,
        /// Cells of the board.
        cells: usize,
    },
    /// No gem type the player can move.
    #[error("the types must include one the player can move (red, yellow, blue or purple)")]
    NothingMovable,
    /// An empty or reversed move range.
    #[error("moves {min}..{max}: the range is empty or starts at 0")]
    BadRange {
        /// Low end.
        min: u32,
        /// High end.
        max: u32,
    },
    /// Fewer than two gems.
    #[error("at least 2 gems are needed, {0} asked for")]
    TooFewGems(usize),
}

impl Spec {
    /// Checks the spec.
    pub fn check(&self) -> Result<(), SpecError> {
        let cells = self.width * self.height;
        if self.gems < 2 {
            return Err(SpecError::TooFewGems(self.gems));
        }
        if self.gems + 1 > cells {
            return Err(SpecError::TooManyGems {
                gems: self.gems,
                cells,
            });
        }
        if !self.types.iter().any(|g| g.player_movable()) {
            return Err(SpecError::NothingMovable);
        }
        if self.min_moves == 0 || self.min_moves > self.max_moves {
            return Err(SpecError::BadRange {
                min: self.min_moves,
                max: self.max_moves,
            });
        }
        Ok(())
    }
}

/// The post-conditions of a solution and its difficulty.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Score {
    /// Turns of the solution.
    pub turns: u32,
    /// Gems moved by effects that activated, over the solution.
    pub effects: u32,
    /// Turns that move the gem the previous turn moved.
    pub moved_twice: u32,
    /// Gems per cell.
    pub gem_density: f64,
    /// The report's difficulty formula.
    pub difficulty: f64,
}

/// The report's difficulty formula (see the module doc).
pub fn difficulty(turns: u32, effects: u32, moved_twice: u32, gem_density: f64) -> f64 {
    if turns == 0 {
        return 0.0;
    }
    let t = turns as f64;
    let effect_density = 2.0 - effects as f64 / t;
    let same_turn_density = moved_twice as f64 / t;
    let normalized_gem_density = 0.5 + gem_density * 0.5;
    let same_turn_factor = (0.51 - same_turn_density) * (0.51 - same_turn_density);
    normalized_gem_density * t * effect_density * effect_density * same_turn_factor
}

/// Plays `moves` on `level` and scores them; `None` if one is illegal.
pub fn score(level: &Level, moves: &[Move]) -> Option<Score> {
    let mut s = level.start.clone();
    let mut effects = 0;
    let mut moved_twice = 0;
    let mut last_end: Option<usize> = None;
    for &mv in moves {
        if last_end == Some(mv.cell as usize) {
            moved_twice += 1;
        }
        let to = level.neighbour(mv.cell as usize, mv.dir)?;
        let (next, rep) = level.play(&s, mv)?;
        effects += rep.activations.saturating_sub(1);
        // Where the moved gem is now (a blue one springs back).
        last_end = Some(if next.cells[to] == s.cells[mv.cell as usize] {
            to
        } else {
            mv.cell as usize
        });
        s = next;
    }
    let gem_density = level.gem_count() as f64 / level.cells() as f64;
    let turns = moves.len() as u32;
    Some(Score {
        turns,
        effects,
        moved_twice,
        gem_density,
        difficulty: difficulty(turns, effects, moved_twice, gem_density),
    })
}

/// A small, fast, repeatable random generator (xorshift64*).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

/// One random candidate level for `spec` (not yet solved).
pub fn candidate(spec: &Spec, rng: &mut Rng) -> Option<Level> {
    let cells = spec.width * spec.height;
    let mut start = State::empty();
    let mut placed = 0;
    while placed < spec.gems {
        let c = rng.below(cells);
        if start.cells[c] == 0 {
            start.cells[c] = spec.types[rng.below(spec.types.len())] as u8;
            placed += 1;
        }
    }
    let mut level = Level {
        width: spec.width,
        height: spec.height,
        start,
        finishes: Vec::new(),
    };
    // A random play of max_moves moves.
    let mut s = level.start.clone();
    let mut moves = Vec::new();
    for _ in 0..spec.max_moves {
        moves.clear();
        level.moves(&s, &mut moves);
        if moves.is_empty() {
            break;
        }
        s = level.play(&s, moves[rng.below(moves.len())])?.0;
    }
    let mut spots: Vec<usize> = (0..cells)
        .filter(|&c| s.cells[c] != 0 && level.start.cells[c] == 0 && s.cells[c] != Gem::Black as u8)
        .collect();
    if spots.is_empty() {
        return None;
    }
    let movable = (0..cells)
        .filter(|&c| level.start.cells[c] != 0 && level.start.cells[c] != Gem::Black as u8)
        .count();
    let want = (1 + rng.below(3)).min(spots.len()).min(movable);
    for _ in 0..want {
        let i = rng.below(spots.len());
        let c = spots.swap_remove(i);
        let gem = if rng.below(2) == 0 { None } else { s.gem(c) };
        level.finishes.push(Finish { cell: c as u8, gem });
    }
    level.finishes.sort_by_key(|f| f.cell);
    Some(level)
}

/// What a solver says about a level within a move limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// A proven shortest solution.
    Shortest(Vec<Move>),
    /// Proven: no solution of at most the limit.
    NoneWithin,
    /// The solver stopped before proving either.
    Unknown,
}

/// A generated level with its proven shortest solution and its score.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The level.
    pub level: Level,
    /// A proven shortest solution.
    pub solution: Vec<Move>,
    /// Its post-conditions and difficulty.
    pub score: Score,
}

/// Figures of a generator run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct GenStats {
    /// Candidates drawn.
    pub candidates: u64,
    /// Rejected: solved in fewer moves than asked.
    pub too_easy: u64,
    /// Rejected: no solution within the range (or not proven).
    pub too_hard: u64,
}

/// Generates `count` levels for `spec`, asking `solve(level, limit)` for a
/// proven shortest solution of at most `limit` moves; gives up after
/// `max_candidates` candidates.
pub fn generate(
    spec: &Spec,
    count: usize,
    seed: u64,
    max_candidates: u64,
    mut solve: impl FnMut(&Level, u32) -> Verdict,
) -> Result<(Vec<Generated>, GenStats), SpecError> {
    spec.check()?;
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut st = GenStats::default();
    while out.len() < count && st.candidates < max_candidates {
        st.candidates += 1;
        let Some(level) = candidate(spec, &mut rng) else {
            continue;
        };
        match solve(&level, spec.max_moves) {
            Verdict::Shortest(m) if (m.len() as u32) < spec.min_moves => st.too_easy += 1,
            Verdict::Shortest(m) => {
                let score = score(&level, &m).expect("the solver's moves are legal");
                out.push(Generated {
                    level,
                    solution: m,
                    score,
                });
            }
            Verdict::NoneWithin | Verdict::Unknown => st.too_hard += 1,
        }
    }
    Ok((out, st))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn difficulty_follows_the_report_formula() {
        // 4 turns, 2 effects, no repeats, density 0.25:
        // (0.5+0.125) * 4 * (2-0.5)^2 * 0.51^2.
        let d = difficulty(4, 2, 0, 0.25);
        assert!((d - 0.625 * 4.0 * 2.25 * 0.2601).abs() < 1e-9);
        assert_eq!(difficulty(0, 0, 0, 0.5), 0.0);
    }

    #[test]
    fn candidates_meet_the_pre_conditions() {
        let spec = Spec {
            width: 6,
            height: 6,
            gems: 6,
            types: Gem::ALL.to_vec(),
            min_moves: 4,
            max_moves: 8,
        };
        spec.check().unwrap();
        let mut rng = Rng::new(5);
        let mut made = 0;
        for _ in 0..200 {
            let Some(l) = candidate(&spec, &mut rng) else {
                continue;
            };
            made += 1;
            assert_eq!(l.gem_count(), 6);
            assert!(!l.finishes.is_empty() && l.finishes.len() <= 3);
            let movable = l
                .start
                .cells
                .iter()
                .filter(|&&c| c != 0 && c != Gem::Black as u8)
                .count();
            assert!(l.finishes.len() <= movable);
            for f in &l.finishes {
                assert_eq!(l.start.cells[f.cell as usize], 0, "a finish under a gem");
                assert_ne!(f.gem, Some(Gem::Black));
            }
            let text = super::super::parse::format_level(&l);
            assert_eq!(super::super::parse::parse_level(&text).unwrap(), l);
        }
        assert!(made > 100);
    }

    #[test]
    fn bad_specs_are_refused() {
        let mut spec = Spec {
            width: 2,
            height: 2,
            gems: 4,
            types: vec![Gem::Red],
            min_moves: 1,
            max_moves: 2,
        };
        assert!(matches!(spec.check(), Err(SpecError::TooManyGems { .. })));
        spec.gems = 2;
        spec.types = vec![Gem::White, Gem::Black];
        assert_eq!(spec.check(), Err(SpecError::NothingMovable));
        spec.types = vec![Gem::Red];
        spec.min_moves = 3;
        assert!(matches!(spec.check(), Err(SpecError::BadRange { .. })));
    }
}
