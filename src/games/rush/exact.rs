//! The exact breadth-first search of Rush Hour (the `bfs` strategy): the
//! fewest moves and, among solutions of that length, the fewest steps, or
//! a proof that the board is unsolvable once its whole cluster has been
//! expanded.
//!
//! Why the game keeps its own loop rather than the core's
//! [`crate::solver::bfs`]: it breaks ties by steps (a duplicate found
//! again in the layer being generated with fewer steps takes the new
//! parent), it stops one layer early at positions whose primary piece sees
//! the exit, and it carries each position's occupancy bitboards in its
//! arena entry so that expanding a position reads no per-piece tables.
//! None of that fits the generic `Problem`/`Keyed` interface without
//! costing the other games.
//!
//! Layout (one arena per thread, reused by the next search):
//! - [`Entry`]: 32 bytes per discovered position: packed key, occupancy of
//!   the board and of the transposed board, parent index, steps, and the
//!   move that reached it. The arena is also the FIFO queue.
//! - duplicate detection: [`PosTable`], open addressing over `u64` keys
//!   with a multiplicative hash; clearing it between searches is O(1) and
//!   shrinks it to a small prefix of its memory, so a small search after a
//!   large one stays in the cache.
//! - pruning: two rules skip the pieces whose moves would only give
//!   positions already found or found again by another position of the
//!   layer with no more steps (see `bfs_in`); they cut the table probes
//!   from 26.0 M to 5.7 M and the pieces examined from 35.4 M to 4.6 M
//!   on the benchmark file.
//! - move generation: per piece, the free run on each side from its line
//!   of the occupancy bits (one leading- and one trailing-zero count, a
//!   sentinel bit at the board's edge); the child's occupancy is the
//!   parent's with the piece's old cells swapped for its new ones.

use std::cell::RefCell;
use std::time::Instant;

use super::board::{transpose, Board, Move, Position, MAX_PIECES, MAX_SIZE};
use super::table::PosTable;
use crate::solver::{Budget, Outcome};

/// How often (in expansions) the search checks its budget.
const CHECK_EVERY: u64 = 4096;

/// Most children of a position: a piece of length 2 has at most
/// `MAX_SIZE - 2` moves.
const MAX_CHILDREN: usize = (MAX_SIZE - 2) * MAX_PIECES;

/// No piece moved yet (the start position).
const NO_PIECE: u8 = 0xff;

/// The static tables of one board, in fixed-size arrays for the inner loop.
struct Kernel {
    n: u32,
    pieces: usize,
    masks: [[u64; 8]; MAX_PIECES],
    tmasks: [[u64; 8]; MAX_PIECES],
    /// Per piece: shift of its line in the (transposed, when vertical)
    /// occupancy, its length, 1 when vertical.
    lanes: [(u8, u8, u8); MAX_PIECES],
    exit: [u64; 8],
    /// `indep[a][from][to]`: the pieces whose line misses every cell piece
    /// `a` covers or crosses when it slides from offset `from` to `to`
    /// (their moves and that one commute).
    indep: [[[u32; 8]; 8]; MAX_PIECES],
    /// `vacated[a][from][to]`: the cells piece `a` leaves or crosses when
    /// it slides from `from` to `to` (free after the move), on the board
    /// and transposed.
    vacated: [[[[u64; 2]; 8]; 8]; MAX_PIECES],
    /// False: the commuting tables are empty and the crossing pieces are
    /// not checked (see [`Kernel::new`]).
    prune: bool,
    goal: u8,
    /// One bit per piece.
    all: u32,
    walls: u64,
    twalls: u64,
}

impl Kernel {
    /// The tables of `b`; with `prune` false the commuting tables stay
    /// empty and only the piece just moved is skipped (the search before
    /// the pruning rules, kept for the tests to compare with).
    fn new(b: &Board, prune: bool) -> Kernel {
        let n = b.size();
        let mut k = Kernel {
            n: n as u32,
            pieces: b.pieces().len(),
            masks: [[0; 8]; MAX_PIECES],
            tmasks: [[0; 8]; MAX_PIECES],
            lanes: [(0, 0, 0); MAX_PIECES],
            exit: [0; 8],
            indep: [[[0; 8]; 8]; MAX_PIECES],
            vacated: [[[[0; 2]; 8]; 8]; MAX_PIECES],
            prune,
            goal: b.goal_offset(),
            all: ((1u64 << b.pieces().len()) - 1) as u32,
            walls: b.walls(),
            twalls: transpose(b.walls(), n),
        };
        for (i, p) in b.pieces().iter().enumerate() {
            for o in 0..=b.max_offset(i) {
                k.masks[i][o as usize] = b.mask(i, o);
                k.tmasks[i][o as usize] = transpose(b.mask(i, o), n);
            }
            k.lanes[i] = (p.line * n as u8, p.len, (!p.horizontal) as u8);
        }
        let mut lines = [0u64; MAX_PIECES];
        for (i, cells) in lines.iter_mut().enumerate().take(k.pieces) {
            for o in 0..=b.max_offset(i) {
                *cells |= b.mask(i, o);
            }
        }
        for a in (0..k.pieces).filter(|_| prune) {
            let top = b.max_offset(a);
            for from in 0..=top {
                for to in 0..=top {
                    let (f, t) = (from as usize, to as usize);
                    let offsets = f.min(t)..=f.max(t);
                    let swept = offsets.clone().fold(0, |s, o| s | k.masks[a][o]);
                    let tswept = offsets.fold(0, |s, o| s | k.tmasks[a][o]);
                    k.indep[a][f][t] = (0..k.pieces)
                        .filter(|&p| lines[p] & swept == 0)
                        .fold(0, |m, p| m | 1 << p);
                    k.vacated[a][f][t] = [swept & !k.masks[a][t], tswept & !k.tmasks[a][t]];
                }
            }
        }
        for a in 0..=k.goal {
            k.exit[a as usize] = b.exit_path(a);
        }
        k
    }

    /// The occupied cells of `pos`, on the board and transposed.
    fn occupancy(&self, pos: u64) -> (u64, u64) {
        let (mut occ, mut tocc) = (self.walls, self.twalls);
        for i in 0..self.pieces {
            let o = ((pos >> (3 * i)) & 7) as usize;
            occ |= self.masks[i][o];
            tocc |= self.tmasks[i][o];
        }
        (occ, tocc)
    }
}

/// One discovered position.
#[derive(Debug, Clone, Copy)]
struct Entry {
    key: u64,
    occ: u64,
    tocc: u64,
    parent: u32,
    /// Cells travelled from the start (a shortest-move path needs at most
    /// 7 steps a move, far below `u16::MAX` for any real cluster depth).
    steps: u16,
    piece: u8,
    delta: i8,
    /// Pieces whose every move from here leads to a position no deeper
    /// than this one (see [`bfs_in`]).
    shallow: u32,
    /// Pieces whose moves from here another position of this layer
    /// generates with no more steps (see [`bfs_in`]).
    later: u32,
}

#[derive(Default)]
struct Arena {
    entries: Vec<Entry>,
    table: PosTable,
    /// Positions of the layer being generated whose primary piece sees the
    /// exit: one more move (or none, at the exit) solves them, and every
    /// shortest solution ends with that move from such a position.
    clear: Vec<u32>,
}

thread_local! {
    static ARENA: RefCell<Arena> = RefCell::new(Arena::default());
}

/// Exact breadth-first search: the fewest moves, and among those the
/// fewest steps; proves the board unsolvable when it exhausts the
/// positions reachable from `start` (`nodes` is then their number).
pub fn bfs(board: &Board, start: Position, budget: &Budget) -> Outcome<Move> {
    bfs_pruned(board, start, budget, true)
}

/// [`bfs`], with the pruning rules or without them.
fn bfs_pruned(board: &Board, start: Position, budget: &Budget, prune: bool) -> Outcome<Move> {
    let t0 = Instant::now();
    if board.is_solved(start) {
        return Outcome::optimal(Vec::new(), 0, t0.elapsed());
    }
    let k = Kernel::new(board, prune);
    ARENA.with(|a| bfs_in(&k, start.0, budget, &mut a.borrow_mut(), t0))
}

fn path(entries: &[Entry], mut i: u32) -> Vec<Move> {
    let mut moves = Vec::new();
    while entries[i as usize].parent != u32::MAX {
        let x = entries[i as usize];
        moves.push(Move {
            piece: x.piece,
            delta: x.delta,
        });
        i = x.parent;
    }
    moves.reverse();
    moves
}

/// The search loop. Two rules skip whole pieces when expanding a position
/// `y` of depth `d + 1`; neither drops a position of depth `d + 2` nor
/// raises its fewest steps, and the positions they skip are already in the
/// table, so the answers (moves, then steps) and the proof of an
/// unsolvable board are those of the plain search. Below, piece `b`
/// *commutes* at `y` with the move of piece `a` from `x` to `y` when `b`'s
/// run at `y` (its cells and the free ones it can slide over) misses
/// every cell `a` left or crossed (`Kernel::vacated`): then every move of
/// `b` from `y` is legal from `x` too, and `a`'s move stays legal after
/// it, so `y + b = (x + b) + a`. A `b` whose line misses every cell `a`
/// covers or crosses always commutes (`Kernel::indep`, applied to every
/// parent when the child is made); the pieces crossing those cells are
/// checked when `y` is expanded, for its recorded parent only (its run
/// is computed there anyway), and their `shallow` bits are written back
/// to `y`'s entry for its children.
///
/// - `shallow`: pieces every move of which leads to depth `<= d + 1`. Each
///   parent `x` (depth `d`) that reached `y` by moving `a` contributes `a`
///   (moving `a` again gives `x` or another child of `x`) and the pieces
///   of `x`'s own set that commute with that move (`y + b = (x + b) + a`,
///   with `x + b` at depth `<= d`). A skipped child is at depth `<= d + 1`:
///   already found, and the plain loop would not touch it either (it only
///   relaxes positions of depth `d + 2`).
/// - `later`: pieces `b` below the piece `a` of a move that reaches `y`
///   from a parent `x` with the fewest steps (all such parents count) and
///   that commute with that move. A
///   child `z = y + b` is also `y' + a` with `y' = x + b`, and
///   `steps(y') + |a| <= steps(x) + |b| + |a| = steps(y) + |b|`. So for a
///   `z` of depth `d + 2`, the generator `(y, b)` with the fewest steps and
///   the highest piece is never skipped: skipping it would name a generator
///   `(y', a)` with as few steps and a higher piece (and `shallow` never
///   skips a generator of a position of depth `d + 2`).
fn bfs_in(k: &Kernel, start: u64, budget: &Budget, a: &mut Arena, t0: Instant) -> Outcome<Move> {
    a.start_at(k, start);
    let Arena {
        entries: e,
        table,
        clear,
    } = a;
    let (mut layer_start, mut layer_end) = (0usize, 1usize);
    let mut depth = 0u32;
    let mut nodes = 0u64;
    let node_limit = budget.node_limit();
    loop {
        if let Some(moves) = best_clear(e, clear, k.goal) {
            return Outcome::optimal(moves, nodes, t0.elapsed());
        }
        if layer_start == layer_end {
            break;
        }
        for i in layer_start..layer_end {
            nodes += 1;
            if nodes.is_multiple_of(CHECK_EVERY) || nodes >= node_limit {
                let bytes = e.capacity() * size_of::<Entry>() + table.bytes();
                if let Err(why) = budget.check_nodes(nodes, bytes) {
                    return Outcome::stopped(None, depth + 1, why, nodes, t0.elapsed());
                }
            }
            // Room for every child: the inserts below do not check.
            table.reserve(MAX_CHILDREN);
            e.reserve(MAX_CHILDREN);
            let mut x = Expansion {
                k,
                i,
                x: e[i],
                layer_end,
                shallow: e[i].shallow,
            };
            let mut skip = x.x.shallow | x.x.later;
            if k.prune && x.x.piece != NO_PIECE {
                skip |= x.commuting_crossers(e, skip);
                // Read by the children when they are expanded.
                e[i].shallow = x.shallow;
            }
            let mut todo = k.all & !skip;
            while todo != 0 {
                let p = todo.trailing_zeros() as usize;
                todo &= todo - 1;
                x.slide(p, e, table, clear);
            }
        }
        depth += 1;
        layer_start = layer_end;
        layer_end = e.len();
    }
    Outcome::unsolvable(nodes, t0.elapsed())
}

impl Arena {
    /// Empties the arena and enters `start` (clear when its primary piece
    /// sees the exit).
    fn start_at(&mut self, k: &Kernel, start: u64) {
        self.entries.clear();
        self.table.clear();
        self.clear.clear();
        let (occ0, tocc0) = k.occupancy(start);
        self.entries.push(Entry {
            key: start,
            occ: occ0,
            tocc: tocc0,
            parent: u32::MAX,
            steps: 0,
            piece: NO_PIECE,
            delta: 0,
            shallow: 0,
            later: 0,
        });
        let _ = self.table.get_or_insert(start, 0);
        if occ0 & k.exit[(start & 7) as usize] == 0 {
            self.clear.push(0);
        }
    }
}

/// The solution through the best clear position of the layer just
/// generated (fewest moves, then steps, then index), ending with the
/// primary piece's slide to the exit; `None` when none is clear.
#[inline]
fn best_clear(e: &[Entry], clear: &[u32], goal: u8) -> Option<Vec<Move>> {
    let (_, _, best) = clear
        .iter()
        .map(|&g| {
            let x = e[g as usize];
            let a = (x.key & 7) as u8;
            ((a != goal) as u32, x.steps as u32 + (goal - a) as u32, g)
        })
        .min()?;
    let mut moves = path(e, best);
    let a = (e[best as usize].key & 7) as u8;
    if a != goal {
        moves.push(Move {
            piece: 0,
            delta: (goal - a) as i8,
        });
    }
    Some(moves)
}

/// The expansion of entry `i` (a copy of it in `x`): the kernel, the end
/// of the layer being expanded, and the `shallow` set its children build
/// on.
struct Expansion<'a> {
    k: &'a Kernel,
    i: usize,
    x: Entry,
    layer_end: usize,
    shallow: u32,
}

impl Expansion<'_> {
    /// The occupied cells, on the board and transposed.
    #[inline(always)]
    fn occs(&self) -> [u64; 2] {
        [self.x.occ, self.x.tocc]
    }

    /// The free-run bits of piece `p`'s line: a set bit for every
    /// occupied cell and one just past the edge, which ends every free run
    /// there.
    #[inline(always)]
    fn line_bits(&self, p: usize) -> u32 {
        let (shift, _, vertical) = self.k.lanes[p];
        let line = (1u32 << self.k.n) - 1;
        ((self.occs()[vertical as usize] >> shift) as u32 & line) | 1u32 << self.k.n
    }

    /// The pieces crossing the cells of the recorded move whose runs here
    /// miss the cells it freed also commute with it: returned to be
    /// skipped, and those the parent had in `shallow` added to
    /// `self.shallow`.
    #[inline(always)]
    fn commuting_crossers(&mut self, e: &[Entry], skip: u32) -> u32 {
        let (k, x) = (self.k, self.x);
        let pos = x.key;
        let a = x.piece as usize;
        let to = ((pos >> (3 * a)) & 7) as usize;
        let from = (to as i32 - x.delta as i32) as usize;
        let parent = e[x.parent as usize].shallow;
        let mut crossing =
            (parent | ((1 << a) - 1)) & !k.indep[a][from][to] & !skip & !(1 << a) & k.all;
        let freed = &k.vacated[a][from][to];
        let mut more = 0;
        while crossing != 0 {
            let p = crossing.trailing_zeros() as usize;
            crossing &= crossing - 1;
            let cur = ((pos >> (3 * p)) & 7) as u32;
            let (shift, len, vertical) = k.lanes[p];
            let bits = self.line_bits(p);
            // The cells of the run: the piece and the free ones on each
            // side.
            let lo = 32 - (bits & ((1 << cur) - 1)).leading_zeros();
            let hi = cur + len as u32 + (bits >> (cur + len as u32)).trailing_zeros();
            let run = (1u32 << hi) - (1u32 << lo);
            if run & (freed[vertical as usize] >> shift) as u32 == 0 {
                more |= 1 << p;
                self.shallow |= parent & 1 << p;
            }
        }
        more
    }

    /// Every slide of piece `p`: new children enter the arena (and
    /// `clear` when their primary piece sees the exit); a child found
    /// again in the layer being generated gains this parent's `shallow`
    /// and, with fewer or as many steps, its `later`.
    #[inline(always)]
    fn slide(&self, p: usize, e: &mut Vec<Entry>, table: &mut PosTable, clear: &mut Vec<u32>) {
        let (k, x) = (self.k, self.x);
        let pos = x.key;
        let cur = ((pos >> (3 * p)) & 7) as u32;
        let (_, len, _) = k.lanes[p];
        let bits = self.line_bits(p);
        // Free cells before the piece: up to the nearest occupied one.
        let below = bits & ((1 << cur) - 1);
        let back = cur - (32 - below.leading_zeros());
        // Free cells after it: up to the nearest occupied one or the edge.
        let fwd = (bits >> (cur + len as u32)).trailing_zeros();
        if back + fwd == 0 {
            return;
        }
        let exit_now = k.exit[(pos & 7) as usize];
        let unit = 1i64 << (3 * p);
        let base = x.occ ^ k.masks[p][cur as usize];
        let tbase = x.tocc ^ k.tmasks[p][cur as usize];
        let indep = &k.indep[p][cur as usize];
        let lower = (1u32 << p) - 1;
        // A plain counter: an inclusive range costs a check more per step.
        let (mut d, end) = (-(back as i32) - 1, fwd as i32);
        while d < end {
            d += 1;
            if d == 0 {
                continue;
            }
            let off = (cur as i32 + d) as usize;
            let child = (pos as i64 + d as i64 * unit) as u64;
            let ns = x.steps + d.unsigned_abs() as u16;
            let idx = e.len() as u32;
            let shallow = (self.shallow & indep[off]) | 1 << p;
            let later = indep[off] & lower;
            match table.get_or_insert_reserved(child, idx) {
                Err(_) => {
                    let cells = base | k.masks[p][off];
                    let exit = if p == 0 { k.exit[off] } else { exit_now };
                    if cells & exit == 0 {
                        clear.push(idx);
                    }
                    e.push(Entry {
                        key: child,
                        occ: cells,
                        tocc: tbase | k.tmasks[p][off],
                        parent: self.i as u32,
                        steps: ns,
                        piece: p as u8,
                        delta: d as i8,
                        shallow,
                        later,
                    });
                }
                Ok(j) if j as usize >= self.layer_end => {
                    // Found again in the layer being generated: every
                    // parent adds to `shallow`; keep the parent with the
                    // fewest steps, and the `later` of every parent with
                    // that many.
                    let y = &mut e[j as usize];
                    y.shallow |= shallow;
                    if y.steps == ns {
                        y.later |= later;
                    } else if y.steps > ns {
                        y.steps = ns;
                        y.parent = self.i as u32;
                        y.piece = p as u8;
                        y.delta = d as i8;
                        y.later = later;
                    }
                }
                Ok(_) => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse::parse_board;
    use super::super::reference;
    use super::super::search::steps;
    use super::*;

    #[test]
    fn hard_puzzles_match_a_plain_search_in_moves_and_steps() {
        // The pruning rules matter most on full 6x6 boards: the sample's
        // puzzles with clusters of at most 11000 positions (18 of 20,
        // 30 to 60 moves), against the reference's Dijkstra on (moves,
        // steps).
        let text = include_str!("../../../tests/data/rush-sample.txt");
        let mut checked = 0;
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let cols: Vec<&str> = line.split_whitespace().collect();
            if cols[2].parse::<u64>().unwrap() > 11_000 {
                continue;
            }
            let (b, pos) = parse_board(cols[1]).unwrap();
            let o = bfs(&b, pos, &Budget::unlimited());
            let m = o.moves.as_ref().unwrap();
            let found = (m.len() as u32, steps(m));
            assert_eq!(Some(found), reference::solve(cols[1], 6), "{line}");
            assert_eq!(found.0, cols[0].parse::<u32>().unwrap(), "{line}");
            checked += 1;
        }
        assert_eq!(checked, 18);
    }

    /// A random board of side `n` from a xorshift `seed`: the reference's
    /// random pieces, then up to `walls` walls on free cells; drawn again
    /// when it has too many pieces.
    fn random_board(n: usize, seed: &mut u64, tries: usize, walls: usize) -> String {
        loop {
            let text = reference::random_board(n, seed, tries);
            let mut g = text.into_bytes();
            for _ in 0..walls {
                *seed ^= *seed << 13;
                *seed ^= *seed >> 7;
                *seed ^= *seed << 17;
                let i = (*seed % (n * n) as u64) as usize;
                if g[i] == b'o' {
                    g[i] = b'x';
                }
            }
            let mut letters: Vec<u8> = g.iter().copied().filter(|c| *c != b'o').collect();
            letters.sort_unstable();
            letters.dedup();
            let valid = letters.iter().all(|&c| c == b'x' || c.is_ascii_uppercase());
            if valid && letters.iter().filter(|c| c.is_ascii_uppercase()).count() <= MAX_PIECES {
                return String::from_utf8(g).unwrap();
            }
        }
    }

    #[test]
    fn the_pruning_rules_change_no_answer_on_large_boards() {
        // 6x6 to 8x8 boards with walls, against the search without the
        // rules: the same number of moves and steps, the same positions
        // expanded, the same proofs of unsolvable boards. Boards whose
        // search would expand more than 100000 positions are skipped.
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let (mut solvable, mut unsolvable) = (0, 0);
        for i in 0..240 {
            let n = 6 + i % 3;
            let text = random_board(n, &mut seed, [2 * n, 3 * n, 4 * n][i % 3], i / 3 % 4);
            let (b, pos) = parse_board(&text).unwrap();
            let budget = || Budget::unlimited().with_node_limit(100_000);
            let plain = bfs_pruned(&b, pos, &budget(), false);
            if plain.stopped.is_some() {
                continue;
            }
            let o = bfs(&b, pos, &budget());
            let answer = |o: &Outcome<Move>| o.moves.as_ref().map(|m| (m.len(), steps(m)));
            assert_eq!(answer(&o), answer(&plain), "{text}");
            assert_eq!(o.nodes, plain.nodes, "{text}");
            assert_eq!(o.proven_unsolvable, plain.proven_unsolvable, "{text}");
            if o.proven_unsolvable {
                unsolvable += 1;
            } else {
                solvable += 1;
            }
        }
        assert!(solvable > 100 && unsolvable > 20, "{solvable} {unsolvable}");
    }

    #[test]
    fn a_small_search_after_a_large_one_finds_the_same_answer() {
        // 15 moves, a cluster of 541934 positions; then a 2-move board.
        let (big, bp) = parse_board("BBoCoooDoCEEoDAAFGHoIIFGHoJKKoLLJooo").unwrap();
        let (small, sp) = parse_board("ooooooooooooAAoBoooooBoooooooooooooo").unwrap();
        let first = bfs(&small, sp, &Budget::unlimited());
        let o = bfs(&big, bp, &Budget::unlimited());
        assert_eq!(o.len(), Some(15));
        let again = bfs(&small, sp, &Budget::unlimited());
        assert_eq!(first.moves, again.moves);
        assert_eq!(first.nodes, again.nodes);
    }
}
