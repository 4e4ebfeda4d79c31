//! Flood-It for the play loop: how sgt-flood's window is read (through the
//! capture module), solved (through the Flood-It solver), which cell to
//! click for a colour, and what its status line says.

use std::cell::RefCell;
use std::time::{Duration, Instant};

use crate::actuator::Gesture;
use crate::calibration::{Calibration, GeometryHints};
use crate::capture::screen::Screenshot;
use crate::capture::Lattice;
use crate::play::game::{cells_diff, size_diff};
use crate::play::{Acting, Plan, PlanError, ReadFailure, Reading, Rect, Rules, Solving, Text};

use super::parse::parse_game_id;
use super::screen::read_board;
use super::{solve, Board, SolveOptions, Strategy};

/// A Flood-It board read off the screen and where its cells are.
#[derive(Debug, Clone)]
pub struct FloodScreen {
    /// The board, colours in the game's order.
    pub board: Board,
    /// Where the cells are on the screenshot.
    pub lattice: Lattice,
}

/// Flood-It as the play loop sees it.
pub struct FloodGame {
    calibration: Calibration,
    /// The lattice of the last board read with more than one colour: a
    /// board that is all one colour (a win) has no inner edges to measure
    /// cells by, so it is read again with this geometry.
    remembered: RefCell<Option<GeometryHints>>,
    /// Solver strategy.
    pub strategy: Strategy,
    /// Solver memory budget.
    pub memory_limit_bytes: usize,
}

impl FloodGame {
    /// Flood-It read with `calibration` (palette in the game's order).
    pub fn new(calibration: Calibration) -> Self {
        FloodGame {
            calibration,
            remembered: RefCell::new(None),
            strategy: Strategy::Astar,
            memory_limit_bytes: 1 << 30,
        }
    }

    /// The calibration in use.
    pub fn calibration(&self) -> &Calibration {
        &self.calibration
    }

    fn read_with(
        &self,
        shot: &Screenshot,
        hints: Option<&GeometryHints>,
    ) -> Result<FloodScreen, String> {
        let reading = match hints {
            None => read_board(&shot.image, Some(&self.calibration)),
            Some(h) => {
                let mut c = self.calibration.clone();
                c.geometry = h.clone();
                read_board(&shot.image, Some(&c))
            }
        }
        .map_err(|e| e.to_string())?;
        Ok(FloodScreen {
            board: reading.board,
            lattice: reading.grid.lattice,
        })
    }
}

fn hints_of(lattice: &Lattice) -> GeometryHints {
    GeometryHints {
        columns: Some(lattice.columns),
        rows: Some(lattice.rows),
        cell_size: Some((lattice.pitch_x + lattice.pitch_y) / 2.0),
    }
}

impl Rules for FloodGame {
    type State = Board;
    type Move = u8;

    fn predict(&self, state: &Board, mv: u8) -> Board {
        let mut next = state.clone();
        next.play(mv);
        next
    }

    fn is_won(&self, state: &Board) -> bool {
        state.is_won()
    }

    fn dimensions(&self, state: &Board) -> (usize, usize) {
        (state.width(), state.height())
    }
}

impl Reading for FloodGame {
    type Reading = FloodScreen;

    fn begin_game(&self) {
        *self.remembered.borrow_mut() = None;
    }

    fn read(&self, shot: &Screenshot) -> Result<FloodScreen, ReadFailure> {
        // Once a game's board was read, its cell counts are known: reading
        // with them is robust where the edge-based count is not (a board
        // of large one-coloured areas, or all one colour after the win).
        let remembered = self.remembered.borrow().clone();
        let mut hinted_error = None;
        if let Some(h) = &remembered {
            match self.read_with(shot, Some(h)) {
                Ok(r) => return Ok(r),
                Err(e) => hinted_error = Some(e),
            }
        }
        match self.read_with(shot, None) {
            Ok(r) => {
                let l = &r.lattice;
                let square = (l.pitch_x / l.pitch_y - 1.0).abs() < 0.05;
                if !r.board.is_won() && square {
                    *self.remembered.borrow_mut() = Some(hints_of(l));
                }
                Ok(r)
            }
            Err(e) => Err(ReadFailure(match hinted_error {
                Some(h) => format!("{e} (and with the last known geometry: {h})"),
                None => e,
            })),
        }
    }

    fn state<'a>(&self, reading: &'a FloodScreen) -> &'a Board {
        &reading.board
    }

    fn board_area(&self, reading: &FloodScreen) -> Rect {
        let l = &reading.lattice;
        let x = l.origin_x.max(0.0).floor() as u32;
        let y = l.origin_y.max(0.0).floor() as u32;
        let width = (l.pitch_x * l.columns as f64).ceil() as u32;
        let height = (l.pitch_y * l.rows as f64).ceil() as u32;
        Rect {
            x,
            y,
            width,
            height,
        }
    }
}

impl Solving for FloodGame {
    fn plan(&self, state: &Board, budget: Duration) -> Result<Plan<u8>, PlanError> {
        let started = Instant::now();
        let run = |strategy: Strategy, limit: Duration| {
            let options = SolveOptions {
                strategy,
                time_limit: Some(limit),
                memory_limit_bytes: self.memory_limit_bytes,
            };
            solve(state, &options).map_err(PlanError::solver)
        };
        if self.strategy != Strategy::Astar {
            let sol = run(self.strategy, budget)?;
            return Ok(Plan {
                moves: sol.moves,
                proven_optimal: sol.proven_optimal,
                lower_bound: sol.lower_bound,
                elapsed: started.elapsed(),
            });
        }
        // Portfolio: exact A* on half the budget proves most boards up to
        // 16x16 in milliseconds. When it runs out, its best line can be
        // poor, so the anytime searches get the rest and the shortest wins.
        let mut best = run(Strategy::Astar, budget / 2)?;
        if !best.proven_optimal {
            let mut lower_bound = best.lower_bound;
            let lookahead = sgt_lookahead(state);
            if lookahead.len() < best.moves.len() && state.wins_with(&lookahead) {
                best.moves = lookahead;
            }
            for strategy in [Strategy::Beam, Strategy::Optimise, Strategy::BranchAndBound] {
                let left = budget.saturating_sub(started.elapsed());
                let sol = run(strategy, left.max(Duration::from_millis(10)))?;
                lower_bound = lower_bound.max(sol.lower_bound);
                if sol.moves.len() < best.moves.len() {
                    best = sol;
                }
            }
            best.lower_bound = lower_bound;
            best.proven_optimal = best.moves.len() <= lower_bound;
        }
        Ok(Plan {
            moves: best.moves,
            proven_optimal: best.proven_optimal,
            lower_bound: best.lower_bound,
            elapsed: started.elapsed(),
        })
    }
}

impl Acting for FloodGame {
    fn gesture(&self, reading: &FloodScreen, state: &Board, mv: u8) -> Option<Gesture<(f64, f64)>> {
        let (r, c) = click_cell(state, mv)?;
        Some(Gesture::Click(reading.lattice.cell_centre(r, c)))
    }
}

impl Text for FloodGame {
    fn name(&self) -> &str {
        "Flood-It"
    }

    fn describe_move(&self, _state: &Board, mv: u8) -> String {
        colour_name(mv)
    }

    fn describe_state(&self, state: &Board) -> String {
        board_text(state)
    }

    fn diff(&self, expected: &Board, seen: &Board) -> String {
        board_diff(expected, seen)
    }
}

/// Names of sgt-flood's colours, in the game's own order.
pub const COLOUR_NAMES: [&str; 10] = [
    "red",
    "yellow",
    "green",
    "blue",
    "orange",
    "purple",
    "brown",
    "light blue",
    "light green",
    "pink",
];

/// The name of colour `c`.
pub fn colour_name(c: u8) -> String {
    COLOUR_NAMES
        .get(c as usize)
        .map_or_else(|| format!("colour {c}"), |s| s.to_string())
}

/// The cell to click to play `colour`: a cell of that colour outside the
/// flooded region, preferably one adjacent to it (the one the move absorbs),
/// nearest the start cell. `None` when the colour is not on the board
/// outside the region.
pub fn click_cell(board: &Board, colour: u8) -> Option<(usize, usize)> {
    let (w, h) = (board.width(), board.height());
    let region = board.flooded_region();
    let (sr, sc) = board.start();
    let mut best: Option<(bool, usize, (usize, usize))> = None;
    for r in 0..h {
        for c in 0..w {
            let i = r * w + c;
            if region[i] || board.get(r, c) != colour {
                continue;
            }
            let adjacent = (c > 0 && region[i - 1])
                || (c + 1 < w && region[i + 1])
                || (r > 0 && region[i - w])
                || (r + 1 < h && region[i + w]);
            let distance = r.abs_diff(sr) + c.abs_diff(sc);
            let key = (!adjacent, distance, (r, c));
            if best.is_none_or(|b| key < b) {
                best = Some(key);
            }
        }
    }
    best.map(|b| b.2)
}

/// Compact board text: rows of colour digits separated by `/`.
pub fn board_text(board: &Board) -> String {
    let digit = |c: u8| {
        char::from_digit(c as u32, 36)
            .unwrap_or('?')
            .to_ascii_uppercase()
    };
    (0..board.height())
        .map(|r| {
            (0..board.width())
                .map(|c| digit(board.get(r, c)))
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// What differs between two boards, for the log: the number of cells and
/// the first few of them.
pub fn board_diff(expected: &Board, seen: &Board) -> String {
    let size = |b: &Board| (b.width(), b.height());
    if let Some(d) = size_diff(size(expected), size(seen)) {
        return d;
    }
    let mut cells = Vec::new();
    for r in 0..expected.height() {
        for c in 0..expected.width() {
            if expected.get(r, c) != seen.get(r, c) {
                cells.push(format!(
                    "({r},{c}) {} instead of {}",
                    colour_name(seen.get(r, c)),
                    colour_name(expected.get(r, c))
                ));
            }
        }
    }
    cells_diff(&cells)
}

/// sgt-flood's own solver, re-implemented from its description: at each
/// move, look three moves ahead and take the move whose best continuation
/// leaves the smallest "distance" to the farthest cell (then the fewest
/// cells at that distance, then the largest flooded area); a move that
/// wins at once is taken first. With leniency 0 the game's move limit is
/// exactly this solver's count, so a plan never longer than this one never
/// exceeds the limit. Colours are those up to the largest on the board.
pub fn sgt_lookahead(board: &Board) -> Vec<u8> {
    const DEPTH: usize = 3;
    let (w, h) = (board.width(), board.height());
    let colours = board.cells().iter().copied().max().unwrap_or(0) + 1;
    let start = board.start().0 * w + board.start().1;
    let mut grid = board.cells().to_vec();
    let mut scratch = Lookahead {
        w,
        h,
        start,
        colours,
        stack: Vec::new(),
        dist: vec![0; w * h],
        deque: Default::default(),
    };
    let mut moves = Vec::new();
    while !grid.iter().all(|&c| c == grid[0]) && moves.len() < w * h {
        let (mv, _) = scratch.choose(&grid, 0, DEPTH);
        scratch.fill(&mut grid, mv);
        moves.push(mv);
    }
    moves
}

struct Lookahead {
    w: usize,
    h: usize,
    start: usize,
    colours: u8,
    stack: Vec<usize>,
    dist: Vec<u32>,
    deque: std::collections::VecDeque<usize>,
}

impl Lookahead {
    fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> {
        let (w, h) = (self.w, self.h);
        let (r, c) = (i / w, i % w);
        [
            (c + 1 < w).then(|| i + 1),
            (c > 0).then(|| i.wrapping_sub(1)),
            (r + 1 < h).then(|| i + w),
            (r > 0).then(|| i.wrapping_sub(w)),
        ]
        .into_iter()
        .flatten()
    }

    fn fill(&mut self, grid: &mut [u8], colour: u8) {
        let old = grid[self.start];
        if old == colour {
            return;
        }
        grid[self.start] = colour;
        self.stack.clear();
        self.stack.push(self.start);
        while let Some(i) = self.stack.pop() {
            for j in self.neighbours(i) {
                if grid[j] == old {
                    grid[j] = colour;
                    self.stack.push(j);
                }
            }
        }
    }

    /// (farthest distance, cells at it, cells at distance 0), with a step
    /// into a cell of another colour costing one move.
    fn search(&mut self, grid: &[u8]) -> (i64, i64, i64) {
        self.dist.iter_mut().for_each(|d| *d = u32::MAX);
        self.deque.clear();
        self.dist[self.start] = 0;
        self.deque.push_back(self.start);
        while let Some(i) = self.deque.pop_front() {
            let d = self.dist[i];
            for j in self.neighbours(i) {
                let nd = d + u32::from(grid[j] != grid[i]);
                if nd < self.dist[j] {
                    self.dist[j] = nd;
                    if nd == d {
                        self.deque.push_front(j);
                    } else {
                        self.deque.push_back(j);
                    }
                }
            }
        }
        let max = self.dist.iter().copied().max().unwrap_or(0);
        let number = self.dist.iter().filter(|&&d| d == max).count();
        let control = self.dist.iter().filter(|&&d| d == 0).count();
        (i64::from(max), number as i64, control as i64)
    }

    /// Best move at `depth` and its score (lower is better).
    fn choose(&mut self, grid: &[u8], depth: usize, max_depth: usize) -> (u8, (i64, i64, i64)) {
        let mut best: Option<(u8, (i64, i64, i64))> = None;
        for mv in 0..self.colours {
            if grid[self.start] == mv {
                continue;
            }
            let mut next = grid.to_vec();
            self.fill(&mut next, mv);
            if next.iter().all(|&c| c == next[0]) {
                // A win now beats everything; sooner beats later.
                return (mv, (-1, depth as i64, -((self.w * self.h) as i64)));
            }
            let score = if depth + 1 < max_depth {
                self.choose(&next, depth + 1, max_depth).1
            } else {
                let (dist, number, control) = self.search(&next);
                (dist, number, -control)
            };
            if best.is_none_or(|(_, b)| score < b) {
                best = Some((mv, score));
            }
        }
        best.unwrap_or((0, (i64::MAX, 0, 0)))
    }
}

/// Why sgt-flood parameters or a game ID were refused, or no game came.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FloodIdError {
    /// Parameters not of the form `WxHcKmL`.
    #[error("bad sgt-flood parameters {0:?}: expected WxHcKmL, e.g. 12x12c6m5")]
    Params(String),
    /// A colour count sgt-flood does not take.
    #[error("sgt-flood needs 3 to 10 colours, not {0}")]
    Colours(u8),
    /// A board size out of range.
    #[error("board size {0}x{1} is out of range (2 to {max})", max = Board::MAX_SIDE)]
    Size(usize, usize),
    /// A full game ID without the `:` after its parameters.
    #[error("game ID {0:?} has no ':'")]
    NoColon(String),
    /// A game ID that does not parse.
    #[error("cannot parse game ID {0:?}: {1}")]
    Id(String, super::ParseError),
    /// A game ID without the move limit sgt-flood writes.
    #[error("game ID {0:?} has no move limit")]
    NoLimit(String),
    /// A game ID of another size than asked for.
    #[error("game ID {0:?} is not {1}x{2}")]
    NotSize(String, usize, usize),
    /// sgt-flood could not be run.
    #[error(transparent)]
    Program(#[from] crate::hosts::sgt::SgtError),
}

/// sgt-flood parameters such as `12x12c6m5`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SgtParams {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Colours (3 to 10).
    pub colours: u8,
    /// Extra moves allowed over the game's own solver.
    pub leniency: usize,
}

impl SgtParams {
    /// Parses `WxH[cK][mL]` (defaults as sgt-flood's: 6 colours, leniency 5).
    pub fn parse(text: &str) -> Result<Self, FloodIdError> {
        let bad = || FloodIdError::Params(text.to_string());
        let t = text.trim();
        let digits = |s: &str| s.chars().take_while(char::is_ascii_digit).count();
        let n = digits(t);
        let width: usize = t[..n].parse().map_err(|_| bad())?;
        let mut rest = &t[n..];
        let mut height = width;
        if let Some(r) = rest.strip_prefix('x') {
            let n = digits(r);
            height = r[..n].parse().map_err(|_| bad())?;
            rest = &r[n..];
        }
        let (mut colours, mut leniency) = (6u8, 5usize);
        while let Some(c) = rest.chars().next() {
            let r = &rest[1..];
            let n = digits(r);
            match c {
                'c' => colours = r[..n].parse().map_err(|_| bad())?,
                'm' => leniency = r[..n].parse().map_err(|_| bad())?,
                _ => return Err(bad()),
            }
            rest = &r[n..];
        }
        if !(3..=10).contains(&colours) {
            return Err(FloodIdError::Colours(colours));
        }
        if width < 2 || height < 2 || width > Board::MAX_SIDE || height > Board::MAX_SIDE {
            return Err(FloodIdError::Size(width, height));
        }
        Ok(SgtParams {
            width,
            height,
            colours,
            leniency,
        })
    }

    /// The canonical text, e.g. `12x12c6m5`.
    pub fn text(&self) -> String {
        format!(
            "{}x{}c{}m{}",
            self.width, self.height, self.colours, self.leniency
        )
    }
}

/// A game generated by sgt-flood itself.
#[derive(Debug, Clone)]
pub struct GeneratedGame {
    /// The parameters it was generated with.
    pub params: SgtParams,
    /// The game ID with full parameters: `WxHcKmL:<cells>,<limit>`.
    pub id: String,
    /// The board of the ID.
    pub board: Board,
    /// The move limit: the game's own solver's moves plus the leniency.
    pub limit: usize,
}

impl GeneratedGame {
    /// Moves of the game's own solver (the limit less the leniency).
    pub fn solver_moves(&self) -> usize {
        self.limit.saturating_sub(self.params.leniency)
    }

    /// Parses a game ID with full parameters, `WxHcKmL:<cells>,<limit>`
    /// (as [`GeneratedGame::id`] writes it).
    pub fn from_id(id: &str) -> Result<Self, FloodIdError> {
        let (params, rest) = id
            .trim()
            .split_once(':')
            .ok_or_else(|| FloodIdError::NoColon(id.to_string()))?;
        let params = SgtParams::parse(params)?;
        parse_generated(
            &params,
            &format!("{}x{}:{rest}", params.width, params.height),
        )
    }
}

/// Parses what `sgt-flood --generate` prints: `WxH:<cells>,<limit>`.
pub fn parse_generated(params: &SgtParams, line: &str) -> Result<GeneratedGame, FloodIdError> {
    let line = line.trim();
    let parsed = parse_game_id(line).map_err(|e| FloodIdError::Id(line.to_string(), e))?;
    let limit = parsed
        .move_limit
        .ok_or_else(|| FloodIdError::NoLimit(line.to_string()))?;
    let board = parsed.board;
    if board.width() != params.width || board.height() != params.height {
        return Err(FloodIdError::NotSize(
            line.to_string(),
            params.width,
            params.height,
        ));
    }
    let cells = line
        .split_once(':')
        .and_then(|(_, rest)| rest.split(',').next())
        .unwrap_or("");
    Ok(GeneratedGame {
        params: params.clone(),
        id: format!("{}:{cells},{limit}", params.text()),
        board: board.with_palette_size(params.colours),
        limit,
    })
}

/// Asks sgt-flood for a new game (`--generate 1 PARAMS[#SEED]`).
pub fn generate(params: &SgtParams, seed: Option<&str>) -> Result<GeneratedGame, FloodIdError> {
    let env = [("FLOOD_DEFAULT".to_string(), params.text())];
    let line = crate::hosts::sgt::generate("flood", &params.text(), seed, &env)?;
    parse_generated(params, &line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn click_cell_prefers_a_neighbour_of_the_region() {
        // 0 0 1
        // 2 1 1
        // 1 2 2
        let b = Board::new(3, 3, 3, vec![0, 0, 1, 2, 1, 1, 1, 2, 2]);
        assert_eq!(click_cell(&b, 1), Some((0, 2)));
        assert_eq!(click_cell(&b, 2), Some((1, 0)));
        assert_eq!(
            click_cell(&b, 0),
            None,
            "the region's own colour has no cell to click"
        );
        // A colour only present away from the region is still clickable.
        let b = Board::new(3, 1, 3, vec![0, 1, 2]);
        assert_eq!(click_cell(&b, 2), Some((0, 2)));
    }

    #[test]
    fn sgt_params_and_ids() {
        let p = SgtParams::parse("12x12c3m0").unwrap();
        assert_eq!((p.width, p.height, p.colours, p.leniency), (12, 12, 3, 0));
        assert_eq!(SgtParams::parse("16").unwrap().text(), "16x16c6m5");
        assert!(SgtParams::parse("12x12c11").is_err());
        assert!(SgtParams::parse("12y12").is_err());
        let p = SgtParams::parse("3x2c4m1").unwrap();
        let g = parse_generated(&p, "3x2:012330,4\n").unwrap();
        assert_eq!(g.id, "3x2c4m1:012330,4");
        assert_eq!((g.limit, g.solver_moves(), g.board.colours()), (4, 3, 4));
        assert_eq!(g.board.cells(), &[0, 1, 2, 3, 3, 0]);
        assert!(parse_generated(&p, "4x2:01233000,4").is_err());
        let again = GeneratedGame::from_id(&g.id).unwrap();
        assert_eq!(
            (again.id, again.limit, again.board),
            (g.id, g.limit, g.board)
        );
        assert!(GeneratedGame::from_id("3x2c4m1").is_err());
    }

    #[test]
    fn portfolio_plan_is_proven_on_a_small_board() {
        let cal = Calibration::parse(
            include_str!("../../../calibration/sgt-flood.toml"),
            Path::new("x"),
        )
        .unwrap();
        let game = FloodGame::new(cal);
        let board = Board::new(
            4,
            4,
            4,
            vec![0, 1, 2, 3, 1, 2, 3, 0, 2, 3, 0, 1, 3, 0, 1, 2],
        );
        let plan = game.plan(&board, Duration::from_millis(500)).unwrap();
        assert!(plan.proven_optimal);
        let mut b = board.clone();
        for &m in &plan.moves {
            b.play(m);
        }
        assert!(b.is_won());
        assert_eq!(plan.lower_bound, plan.moves.len());
    }

    #[test]
    fn sgt_lookahead_matches_the_games_own_move_counts() {
        // IDs printed by `sgt-flood --generate 1 PARAMS#SEED` with leniency
        // 0: the limit after the comma is the game's solver's move count.
        let ids = [
            ("12x12c6m0", "12x12:321425505553353112200511050032151200501552441430421412550513545454202315042552445232024252404354342250321343410211341410343251542134345002301100,19"),
            ("12x12c3m0", "12x12:021122101210200221200020020222011200012100100011101021222210110002110120121010122120210200012022211200222110222122100120120001111111200002120122,10"),
        ];
        for (params, id) in ids {
            let p = SgtParams::parse(params).unwrap();
            let g = parse_generated(&p, id).unwrap();
            let moves = sgt_lookahead(&g.board);
            assert!(g.board.wins_with(&moves));
            assert_eq!(moves.len(), g.limit, "{params}");
        }
    }

    #[test]
    fn text_and_diff() {
        let a = Board::new(2, 2, 3, vec![0, 1, 2, 0]);
        let b = Board::new(2, 2, 3, vec![0, 2, 2, 0]);
        assert_eq!(board_text(&a), "01/20");
        let d = board_diff(&a, &b);
        assert!(
            d.starts_with("1 cells differ: (0,1) green instead of yellow"),
            "{d}"
        );
    }
}
