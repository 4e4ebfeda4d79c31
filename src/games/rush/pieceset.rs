//! Piece sets and their compact position index, for the enumeration.
//!
//! A move slides one piece along its line (its row or column) and never
//! past another piece of that line, so it changes neither which pieces are
//! on each line nor their order along it. That is a [`PieceSet`]: per line
//! the lengths of its pieces in order, plus the walls. Every cluster lies
//! inside one piece set.
//!
//! Inside a piece set a position is, per line, the index of its
//! arrangement (the offsets of that line's pieces, in a fixed order);
//! [`Layout`] numbers positions by the mixed-radix product of those
//! indices (its `space`; combinations where pieces of a row and a column
//! overlap are simply never reached), so a visited flag is one bit of a
//! bitset at the position's rank: no hashing. A state is the vector of
//! arrangement indices, 4 bits a line, in one `u64`; a move changes one
//! line's index, so the next state and its rank are one addition each,
//! with the cells the piece sweeps precomputed per (line, arrangement,
//! move).

use std::fmt;

use super::board::{free_run, OrderKey, MAX_SIZE, MIN_SIZE};

/// Most lines (rows, then columns) of a board.
pub const MAX_LINES: usize = 2 * MAX_SIZE;

/// Largest index space [`Layout::new`] accepts (bits of one bitset).
pub const MAX_SPACE: u64 = 1 << 36;

/// The pieces of a position without their places along their lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceSet {
    /// Per line (rows `0..N`, then columns `0..N`, unused lines 1): a 1
    /// bit, then one bit per piece in order along the line (left to right,
    /// top to bottom), 1 for a piece of length 3. The primary piece is the
    /// last piece of its row.
    pub lines: [u8; MAX_LINES],
    /// The wall cells.
    pub walls: u64,
    /// The board side.
    pub size: u8,
}

/// A line with pieces and its arrangements: (occupancy mask, offsets).
type LineArrangements = (Line, Vec<(u64, [u8; 4])>);

impl PieceSet {
    /// The piece set of pieces given as `(horizontal, len, row, col)` of
    /// their first cell, on a board of side `n` with `walls`.
    pub fn of(n: usize, walls: u64, pieces: impl IntoIterator<Item = (bool, u8, u8, u8)>) -> Self {
        // (line, place along the line, len)
        let mut placed: Vec<(usize, u8, u8)> = pieces
            .into_iter()
            .map(|(h, len, r, c)| {
                if h {
                    (r as usize, c, len)
                } else {
                    (n + c as usize, r, len)
                }
            })
            .collect();
        placed.sort_unstable();
        let mut lines = [1u8; MAX_LINES];
        for (line, _, len) in placed {
            lines[line] = (lines[line] << 1) | (len == 3) as u8;
        }
        PieceSet {
            lines,
            walls,
            size: n as u8,
        }
    }

    /// Line `k` (rows first, then columns) with its pieces' count and
    /// lengths, the other fields zero; `None` when it holds no piece.
    fn line(&self, k: usize) -> Option<Line> {
        let code = self.lines[k];
        if code == 1 {
            return None;
        }
        let n = self.size as usize;
        let count = 7 - code.leading_zeros() as u8;
        let mut lens = [0u8; 4];
        for (j, len) in lens.iter_mut().enumerate().take(count as usize) {
            *len = 2 + ((code >> (count as usize - 1 - j)) & 1);
        }
        let (horizontal, index) = if k < n { (true, k) } else { (false, k - n) };
        Some(Line {
            horizontal,
            index: index as u8,
            count,
            lens,
            ..Line::default()
        })
    }

    /// The lengths of line `k`'s pieces in order.
    pub fn lens(&self, k: usize) -> Vec<u8> {
        let code = self.lines[k];
        let count = 7 - code.leading_zeros();
        (0..count).rev().map(|b| 2 + ((code >> b) & 1)).collect()
    }
}

/// Why a piece set has no layout.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// The side is outside 4..=8.
    #[error("board side {0} is not supported (4 to 8)")]
    Size(usize),
    /// The mixed-radix index space is too large for a bitset.
    #[error("a piece set has {0} indexed positions, more than the {MAX_SPACE} supported")]
    Space(u128),
    /// The primary row does not end with a piece of length 2.
    #[error("the primary row holds no primary piece")]
    NoPrimary,
}

/// States of boards with at most 14 lines with pieces keep, from this
/// bit, a tag of the piece moved last (0: none), so that a breadth-first
/// walk does not move it again: every place it could reach was a
/// neighbour of the position before, already seen.
pub const TAG_SHIFT: u32 = 56;

/// The line fields of a tagged state.
pub const FIELDS: u64 = (1 << TAG_SHIFT) - 1;

/// One arrangement of one line.
#[derive(Debug, Clone, Copy, Default)]
struct Arrangement {
    /// Its cells, on the board and on the transposed board.
    mask: u64,
    tmask: u64,
    /// Its index times the line's stride.
    contrib: u64,
    /// The offsets of the line's pieces.
    offsets: [u8; 4],
    /// `targets[target + 8 * j + o]`: piece `j` moved to offset `o`.
    target: u32,
}

/// The change of rank and state when one piece of a line moves.
#[derive(Debug, Clone, Copy, Default)]
struct Target {
    drank: u64,
    dstate: u64,
}

/// One line with pieces.
#[derive(Debug, Clone, Copy, Default)]
struct Line {
    horizontal: bool,
    index: u8,
    /// Pieces on it and their lengths.
    count: u8,
    lens: [u8; 4],
    /// Its field in a state.
    shift: u32,
    /// Its cells' shift in the (transposed, for a column) occupancy.
    cells: u32,
    /// Its arrangements: `arrangements[base..base + len]`.
    base: u32,
    len: u32,
}

/// The compact index of one piece set: arrangements, moves, ranks. One
/// layout is rebuilt for each piece set, reusing its memory.
#[derive(Debug, Clone, Default)]
pub struct Layout {
    n: usize,
    walls: u64,
    twalls: u64,
    lines: Vec<Line>,
    arrangements: Vec<Arrangement>,
    targets: Vec<Target>,
    primary: usize,
    /// Bit `a`: the primary row's arrangement `a` has the primary piece at
    /// the exit.
    solved: u64,
    space: u64,
    tagged: bool,
    /// The bits of a state holding line fields, and those holding the tag.
    fields: u64,
    tags: u64,
    /// `spread[m]`: bit `c` of `m` moved to bit `c * n` (a line's cells
    /// seen across the board), for the board side `spread_n`.
    spread: Vec<u64>,
    spread_n: usize,
}

/// The cells of a piece of length `len` at `offset` on line `index`.
fn piece_mask(n: usize, horizontal: bool, index: usize, len: u8, offset: u8) -> u64 {
    let mut m = 0u64;
    for k in 0..len as usize {
        let o = offset as usize + k;
        m |= 1
            << if horizontal {
                index * n + o
            } else {
                o * n + index
            };
    }
    m
}

/// Per line mask `m` of a board of side `n`: bit `c` of `m` moved to bit
/// `c * n` (a line's cells seen across the board).
pub fn spread_table(n: usize) -> Vec<u64> {
    (0..1u64 << n)
        .map(|m| {
            (0..n)
                .filter(|c| m >> c & 1 != 0)
                .map(|c| 1 << (c * n))
                .sum()
        })
        .collect()
}

/// `cells` (cell `r * n + c`) on the transposed board (cell `c * n + r`).
fn transpose(cells: u64, n: usize) -> u64 {
    let mut t = 0;
    for r in 0..n {
        for c in 0..n {
            if cells & (1 << (r * n + c)) != 0 {
                t |= 1 << (c * n + r);
            }
        }
    }
    t
}

/// Appends every placement of pieces `lens` in order on a line of `n`
/// cells avoiding `walls` (offsets increasing, lexicographic order).
fn arrangements(n: usize, line: &Line, walls: u64, out: &mut Vec<[u8; 4]>) {
    fn rec(
        n: usize,
        line: &Line,
        walls: u64,
        from: usize,
        j: usize,
        cur: &mut [u8; 4],
        out: &mut Vec<[u8; 4]>,
    ) {
        if j == line.count as usize {
            out.push(*cur);
            return;
        }
        let rest: usize = line.lens[j..line.count as usize]
            .iter()
            .map(|&l| l as usize)
            .sum();
        let mut o = from;
        while o + rest <= n {
            let m = piece_mask(
                n,
                line.horizontal,
                line.index as usize,
                line.lens[j],
                o as u8,
            );
            if m & walls == 0 {
                cur[j] = o as u8;
                rec(n, line, walls, o + line.lens[j] as usize, j + 1, cur, out);
            }
            o += 1;
        }
    }
    rec(n, line, walls, 0, 0, &mut [0; 4], out);
}

impl Layout {
    /// The layout of `set`.
    pub fn new(set: &PieceSet) -> Result<Layout, LayoutError> {
        let mut l = Layout::default();
        l.rebuild(set)?;
        Ok(l)
    }

    /// Makes this the layout of `set`, reusing the memory.
    pub fn rebuild(&mut self, set: &PieceSet) -> Result<(), LayoutError> {
        let n = set.size as usize;
        if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
            return Err(LayoutError::Size(n));
        }
        let prow = super::enumerate::primary_row(n);
        self.n = n;
        self.walls = set.walls;
        self.twalls = transpose(set.walls, n);
        self.lines.clear();
        self.arrangements.clear();
        self.targets.clear();
        let mut stride: u128 = 1;
        let mut primary = None;
        self.solved = 0;
        let lines_used = (0..2 * n).filter(|&k| set.lines[k] != 1).count();
        self.tagged = 4 * lines_used as u32 <= TAG_SHIFT;
        let mut offsets: Vec<[u8; 4]> = Vec::with_capacity(16);
        for k in 0..2 * n {
            let Some(mut line) = set.line(k) else {
                continue;
            };
            let (horizontal, index, count, lens) =
                (line.horizontal, line.index as usize, line.count, line.lens);
            line.shift = 4 * self.lines.len() as u32;
            line.cells = (index * n) as u32;
            line.base = self.arrangements.len() as u32;
            offsets.clear();
            arrangements(n, &line, set.walls, &mut offsets);
            line.len = offsets.len() as u32;
            let last = count as usize - 1;
            if horizontal && index == prow {
                if lens[last] != 2 {
                    return Err(LayoutError::NoPrimary);
                }
                primary = Some(self.lines.len());
                for (a, offs) in offsets.iter().enumerate() {
                    if offs[last] as usize == n - 2 {
                        self.solved |= 1 << a;
                    }
                }
            }
            for (a, offs) in offsets.iter().enumerate() {
                let mask = (0..count as usize).fold(0, |m, j| {
                    m | piece_mask(n, horizontal, index, lens[j], offs[j])
                });
                let target = self.targets.len() as u32;
                for j in 0..count as usize {
                    for o in 0..8u8 {
                        let mut to = *offs;
                        to[j] = o;
                        let t = match offsets.iter().position(|x| *x == to) {
                            Some(b) if o != offs[j] => {
                                let diff = b as i64 - a as i64;
                                Target {
                                    drank: (diff as i128 * stride as i128) as i64 as u64,
                                    dstate: (diff << line.shift) as u64,
                                }
                            }
                            _ => Target::default(),
                        };
                        self.targets.push(t);
                    }
                }
                self.arrangements.push(Arrangement {
                    mask,
                    tmask: transpose(mask, n),
                    contrib: (a as u128 * stride) as u64,
                    offsets: *offs,
                    target,
                });
            }
            stride *= offsets.len() as u128;
            if stride > MAX_SPACE as u128 {
                return Err(LayoutError::Space(stride));
            }
            self.lines.push(line);
        }
        self.primary = primary.ok_or(LayoutError::NoPrimary)?;
        self.space = stride as u64;
        self.fields = if self.tagged { FIELDS } else { u64::MAX };
        self.tags = if self.tagged { !FIELDS } else { 0 };
        if self.spread_n != n || self.spread.is_empty() {
            self.spread = spread_table(n);
            self.spread_n = n;
        }
        Ok(())
    }

    /// Cells of the board (N x N).
    pub fn cells(&self) -> usize {
        self.n * self.n
    }

    /// Size of the index space: ranks are below it.
    pub fn space(&self) -> u64 {
        self.space
    }

    #[inline]
    fn arrangement(&self, state: u64, line: &Line) -> &Arrangement {
        &self.arrangements[line.base as usize + ((state >> line.shift) & 15) as usize]
    }

    /// The rank of `state`.
    #[inline]
    pub fn rank(&self, state: u64) -> u64 {
        self.lines
            .iter()
            .map(|l| self.arrangement(state, l).contrib)
            .sum()
    }

    /// True when the primary piece is at the exit.
    #[inline]
    pub fn is_solved(&self, state: u64) -> bool {
        let a = (state >> self.lines[self.primary].shift) & 15;
        self.solved & (1 << a) != 0
    }

    /// The rank of `state`, and `f(rank, state)` for every position one
    /// move away (not moving again the piece moved last, when `state` is
    /// tagged; the states passed to `f` are tagged when the board allows).
    /// The free cells on each side of a piece come from its line of the
    /// occupancy bits by one leading- and one trailing-zero count.
    #[inline]
    pub fn expand(&self, state: u64, mut f: impl FnMut(u64, u64)) -> u64 {
        let (occ, tocc, rank) = self.occupancy(state);
        let last = if self.tagged { state >> TAG_SHIFT } else { 0 };
        let fields = state & self.fields;
        self.for_each_piece(state, occ, tocc, last, |_, tag, p, _, back, fwd, base| {
            let tagbits = (tag << TAG_SHIFT) & self.tags;
            for o in (p - back)..=(p + fwd) {
                if o != p {
                    let t = self.targets[base + o as usize];
                    f(
                        rank.wrapping_add(t.drank),
                        fields.wrapping_add(t.dstate) | tagbits,
                    );
                }
            }
        });
        rank
    }

    /// Calls `f(line, tag, p, len, back, fwd, base)` for every piece of
    /// `state` (cells `occ`, on the transposed board `tocc`) but the one
    /// tagged `last`: its line, its tag, its offset and length, the free
    /// cells before and after it, and where its moves start in `targets`.
    #[inline(always)]
    fn for_each_piece(
        &self,
        state: u64,
        occ: u64,
        tocc: u64,
        last: u64,
        mut f: impl FnMut(&Line, u64, u32, u32, u32, u32, usize),
    ) {
        let n = self.n as u32;
        let full = (1u32 << n) - 1;
        for (k, l) in self.lines.iter().enumerate() {
            let a = self.arrangement(state, l);
            let bits = (if l.horizontal { occ } else { tocc } >> l.cells) as u32 & full;
            for j in 0..l.count as usize {
                let tag = if self.tagged {
                    1 + 4 * k as u64 + j as u64
                } else {
                    255
                };
                if tag == last {
                    continue;
                }
                let p = a.offsets[j] as u32;
                let len = l.lens[j] as u32;
                let (back, fwd) = free_run(bits, p, len, n);
                f(l, tag, p, len, back, fwd, a.target as usize + 8 * j);
            }
        }
    }

    /// The occupied cells of `state` on the board and on the transposed
    /// board (walls included), and its rank.
    #[inline(always)]
    fn occupancy(&self, state: u64) -> (u64, u64, u64) {
        let mut occ = self.walls;
        let mut tocc = self.twalls;
        let mut rank = 0u64;
        for l in &self.lines {
            let a = self.arrangement(state, l);
            occ |= a.mask;
            tocc |= a.tmask;
            rank += a.contrib;
        }
        (occ, tocc, rank)
    }

    /// [`Layout::expand`] with one more rule that drops moves whose
    /// positions are reached otherwise, no later: `state` was reached by
    /// moving piece A, whose free run (the cells it could occupy, in its
    /// line's frame) was `run`; a piece B listed before A (lower tag) whose
    /// free run now does not meet A's is not moved, as each of its moves
    /// commutes with A's: the same position is one move of A away from the
    /// parent's own move of B, which the search met before `state`. `f`
    /// gets the rank, the tagged state and the free run of the piece moved.
    #[inline]
    pub fn expand_pruned(&self, state: u64, run: u8, mut f: impl FnMut(u64, u64, u8)) {
        let (occ, tocc, rank) = self.occupancy(state);
        let last = if self.tagged { state >> TAG_SHIFT } else { 0 };
        // The last move's run on the board and on the transposed board.
        let (rn, rt) = if last == 0 {
            (0, 0)
        } else {
            let l = &self.lines[((last - 1) / 4) as usize];
            let m = run as u64;
            let across = self.spread[run as usize] << l.index;
            if l.horizontal {
                (m << l.cells, across)
            } else {
                (across, m << l.cells)
            }
        };
        let fields = state & self.fields;
        let full = (1u32 << self.n) - 1;
        self.for_each_piece(state, occ, tocc, last, |l, tag, p, len, back, fwd, base| {
            if back + fwd == 0 {
                return;
            }
            let from = p - back;
            let mine = ((1u32 << (back + fwd + len)) - 1) << from;
            let seen = if l.horizontal { rn } else { rt } >> l.cells;
            if tag < last && seen as u32 & full & mine == 0 {
                return;
            }
            let tagbits = (tag << TAG_SHIFT) & self.tags;
            for o in from..=(p + fwd) {
                if o != p {
                    let t = self.targets[base + o as usize];
                    f(
                        rank.wrapping_add(t.drank),
                        fields.wrapping_add(t.dstate) | tagbits,
                        mine as u8,
                    );
                }
            }
        });
    }

    /// `state` without its tag.
    #[inline]
    pub fn untagged(&self, state: u64) -> u64 {
        state & self.fields
    }

    /// Calls `f(state)` for every valid position with the primary piece at
    /// the exit. Lines are placed fewest arrangements first, rows and
    /// columns alternating, so that conflicts cut the search early.
    pub fn for_each_solved(&self, mut f: impl FnMut(u64)) {
        let mut order: Vec<(u32, usize, usize)> = self
            .lines
            .iter()
            .enumerate()
            .map(|(k, l)| {
                let count = if k == self.primary {
                    self.solved.count_ones()
                } else {
                    l.len
                };
                (count, 2 * l.index as usize + !l.horizontal as usize, k)
            })
            .collect();
        order.sort_unstable();
        let order: Vec<usize> = order.into_iter().map(|(_, _, k)| k).collect();
        self.solved_rec(&order, 0, self.walls, 0, &mut f);
    }

    fn solved_rec(
        &self,
        order: &[usize],
        at: usize,
        occ: u64,
        state: u64,
        f: &mut impl FnMut(u64),
    ) {
        if at == order.len() {
            f(state);
            return;
        }
        let k = order[at];
        let line = &self.lines[k];
        for a in 0..line.len as usize {
            if k == self.primary && self.solved & (1 << a) == 0 {
                continue;
            }
            let m = self.arrangements[line.base as usize + a].mask;
            if occ & m == 0 {
                self.solved_rec(order, at + 1, occ | m, state | (a as u64) << line.shift, f);
            }
        }
    }

    /// True when no piece but the primary one can slide left or up.
    pub fn is_pushed(&self, state: u64) -> bool {
        let (occ, tocc, _) = self.occupancy(state);
        for (k, l) in self.lines.iter().enumerate() {
            let a = self.arrangement(state, l);
            let bits = if l.horizontal { occ } else { tocc } >> l.cells;
            for j in 0..l.count as usize {
                if k == self.primary && j + 1 == l.count as usize {
                    continue;
                }
                let p = a.offsets[j];
                if p > 0 && bits & (1 << (p - 1)) == 0 {
                    return false;
                }
            }
        }
        true
    }

    /// What the first row holds, 3 bits a cell: 0 empty, 1 wall, 2 or 3
    /// the first cell of a horizontal piece of length 2 or 3, 4 or 5 the
    /// top of a vertical one, 6 the rest of a horizontal piece.
    pub fn first_row(&self, state: u64) -> u32 {
        first_row_key(
            self.n,
            self.walls,
            self.lines
                .iter()
                .map(|l| (l, self.arrangement(state, l).offsets)),
        )
    }

    /// The key of `state` in Fogleman's order ([`OrderKey`]).
    #[inline]
    pub fn order_key(&self, state: u64) -> OrderKey {
        let mut key = OrderKey::default();
        for line in &self.lines {
            let m = self.arrangement(state, line).mask;
            if line.horizontal {
                key.horizontal |= m;
            } else {
                key.vertical |= m;
            }
        }
        key
    }

    /// Writes the position as text into `out` (N x N bytes), pieces
    /// lettered `B`, `C`, .. in order of first appearance (row order).
    pub fn text_into(&self, state: u64, out: &mut [u8]) {
        let n = self.n;
        let g = &mut out[..n * n];
        g.fill(b'o');
        for (c, cell) in g.iter_mut().enumerate() {
            if self.walls & (1 << c) != 0 {
                *cell = b'x';
            }
        }
        // Pieces first get placeholder labels 0x80 + their number.
        let mut number = 0x80u8;
        for (k, line) in self.lines.iter().enumerate() {
            let a = self.arrangement(state, line);
            for j in 0..line.count as usize {
                let label = if k == self.primary && j + 1 == line.count as usize {
                    b'A'
                } else {
                    number += 1;
                    number - 1
                };
                let o = a.offsets[j] as usize;
                for t in 0..line.lens[j] as usize {
                    let c = if line.horizontal {
                        line.index as usize * n + o + t
                    } else {
                        (o + t) * n + line.index as usize
                    };
                    g[c] = label;
                }
            }
        }
        let mut map = [0u8; 128];
        let mut next = b'B';
        for cell in g.iter_mut() {
            if *cell >= 0x80 {
                let m = &mut map[(*cell - 0x80) as usize];
                if *m == 0 {
                    *m = next;
                    next += 1;
                }
                *cell = *m;
            }
        }
    }

    /// The position as text, pieces lettered in order of appearance.
    pub fn text(&self, state: u64) -> String {
        let mut buf = [0u8; 64];
        self.text_into(state, &mut buf);
        String::from_utf8(buf[..self.n * self.n].to_vec()).expect("ascii")
    }
}

/// One line with pieces of a [`Layout`], for walkers that build their own
/// tables over it ([`Layout::line_shapes`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineShape {
    /// A row (else a column).
    pub horizontal: bool,
    /// Its row or column number.
    pub index: usize,
    /// Pieces on it and their lengths in order.
    pub count: usize,
    /// The lengths (the first `count`).
    pub lens: [u8; 4],
    /// Its field in a state: arrangement index at bits `shift..shift + 4`.
    pub shift: u32,
    /// Its arrangements (numbered in lexicographic order of the offsets,
    /// avoiding the walls).
    pub arrangements: usize,
}

impl Layout {
    /// The board side.
    pub fn size(&self) -> usize {
        self.n
    }

    /// The wall cells.
    pub fn walls(&self) -> u64 {
        self.walls
    }

    /// The lines with pieces, rows first, in the order of their fields.
    pub fn line_shapes(&self) -> impl Iterator<Item = LineShape> + '_ {
        self.lines.iter().map(|l| LineShape {
            horizontal: l.horizontal,
            index: l.index as usize,
            count: l.count as usize,
            lens: l.lens,
            shift: l.shift,
            arrangements: l.len as usize,
        })
    }
}

impl PieceSet {
    /// The key of [`Layout::first_row`] for this set's least solved
    /// position, or `None` when it has none. Least: lines in order (rows,
    /// then columns), each line's arrangements in lexicographic order of
    /// its offsets. That position is pushed (no piece but the primary one
    /// can slide left or up: sliding one would give a smaller solved
    /// position), so the enumeration meets it in exactly one work unit,
    /// which owns the set; no other solved position needs listing.
    pub fn least_solved_first_row(&self) -> Option<u32> {
        let n = self.size as usize;
        let prow = super::enumerate::primary_row(n);
        // Per line with pieces: the line, its arrangements' masks and offsets.
        let mut lines: Vec<LineArrangements> = Vec::with_capacity(2 * n);
        let mut offsets: Vec<[u8; 4]> = Vec::with_capacity(16);
        for k in 0..2 * n {
            let Some(line) = self.line(k) else {
                continue;
            };
            let (horizontal, index, count, lens) =
                (line.horizontal, line.index as usize, line.count, line.lens);
            offsets.clear();
            arrangements(n, &line, self.walls, &mut offsets);
            let last = count as usize - 1;
            let arr: Vec<(u64, [u8; 4])> = offsets
                .iter()
                .filter(|o| !(horizontal && index == prow) || o[last] as usize == n - 2)
                .map(|o| {
                    let mask = (0..count as usize).fold(0, |m, j| {
                        m | piece_mask(n, horizontal, index, lens[j], o[j])
                    });
                    (mask, *o)
                })
                .collect();
            lines.push((line, arr));
        }
        fn first(lines: &[LineArrangements], at: usize, occ: u64, pick: &mut Vec<usize>) -> bool {
            if at == lines.len() {
                return true;
            }
            for (a, &(m, _)) in lines[at].1.iter().enumerate() {
                // Forward check: every later line must still fit somewhere.
                let occ2 = occ | m;
                if occ & m == 0
                    && lines[at + 1..]
                        .iter()
                        .all(|(_, arr)| arr.iter().any(|&(m2, _)| occ2 & m2 == 0))
                {
                    pick.push(a);
                    if first(lines, at + 1, occ | m, pick) {
                        return true;
                    }
                    pick.pop();
                }
            }
            false
        }
        let mut pick = Vec::with_capacity(lines.len());
        if !first(&lines, 0, self.walls, &mut pick) {
            return None;
        }
        Some(first_row_key(
            n,
            self.walls,
            lines.iter().zip(&pick).map(|((l, arr), &a)| (l, arr[a].1)),
        ))
    }
}

/// [`Layout::first_row`] of the position on a board of side `n` with
/// `walls` whose lines hold their pieces at the given offsets.
fn first_row_key<'l>(
    n: usize,
    walls: u64,
    lines: impl Iterator<Item = (&'l Line, [u8; 4])>,
) -> u32 {
    let mut key = 0u32;
    for c in 0..n {
        if walls & (1 << c) != 0 {
            key |= 1 << (3 * c);
        }
    }
    for (l, offsets) in lines {
        for (j, &off) in offsets.iter().enumerate().take(l.count as usize) {
            let (o, len) = (off as usize, l.lens[j] as u32);
            if l.horizontal && l.index == 0 {
                key |= len << (3 * o);
                for t in 1..len as usize {
                    key |= 6 << (3 * (o + t));
                }
            } else if !l.horizontal && o == 0 {
                key |= (len + 2) << (3 * l.index as usize);
            }
        }
    }
    key
}

impl fmt::Display for PieceSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size as usize;
        for k in 0..2 * n {
            let lens: String = self.lens(k).iter().map(|l| l.to_string()).collect();
            write!(f, "{}{}", if k == n { "|" } else { " " }, lens)?;
        }
        write!(f, " walls={:#x}", self.walls)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_arrangements_moves_and_ranks() {
        // A on row 2 (columns 4-5 when solved), B of length 3 in column 3.
        let set = PieceSet::of(6, 0, [(true, 2, 2, 4), (false, 3, 0, 3)]);
        assert_eq!(set.lens(2), vec![2]);
        assert_eq!(set.lens(6 + 3), vec![3]);
        assert!(set.lens(0).is_empty());
        let l = Layout::new(&set).unwrap();
        assert_eq!(l.space(), 5 * 4);
        let mut solved = Vec::new();
        l.for_each_solved(|s| solved.push(s));
        // B anywhere in its column: 4 solved positions.
        assert_eq!(solved.len(), 4);
        let s = solved[0];
        assert!(l.is_solved(s));
        assert_eq!(l.text(s), "oooBoooooBoooooBAAoooooooooooooooooo");
        let mut next = Vec::new();
        let r = l.expand(s, |r, st| next.push((r, st)));
        assert_eq!(r, l.rank(s));
        // A is blocked by B; B slides down 1, 2 or 3.
        assert_eq!(next.len(), 3);
        for &(r2, st) in &next {
            assert_eq!(r2, l.rank(st));
            assert!(l.is_solved(st));
        }
        let texts: Vec<String> = next.iter().map(|&(_, st)| l.text(st)).collect();
        assert_eq!(texts[2], "ooooooooooooooooAAoooBoooooBoooooBoo");
    }

    #[test]
    fn the_least_solved_position_is_pushed_and_solved() {
        // Every 4x4 piece set met by the enumeration with up to one wall.
        let mut checked = 0;
        for u in
            crate::games::rush::enumerate::units(4, 1, crate::games::rush::enumerate::Rules::All)
                .unwrap()
        {
            for set in crate::games::rush::enumerate::sets_of_unit(&u, 4, 1) {
                let key = set.least_solved_first_row().expect("a solved position");
                let l = Layout::new(&set).unwrap();
                let mut found = false;
                l.for_each_solved(|s| found |= l.is_pushed(s) && l.first_row(s) == key);
                assert!(found, "{set}");
                checked += 1;
            }
        }
        assert!(checked > 1000, "{checked}");
        // A set whose pieces cannot all fit has no solved position.
        let set = PieceSet::of(4, 0, [(true, 2, 1, 2), (true, 3, 1, 0)]);
        assert_eq!(set.least_solved_first_row(), None);
    }

    #[test]
    fn walls_remove_arrangements() {
        // A alone on row 2 with a wall at column 1: A at columns 2..=4.
        let set = PieceSet::of(6, 1 << (2 * 6 + 1), [(true, 2, 2, 4)]);
        let l = Layout::new(&set).unwrap();
        assert_eq!(l.space(), 3);
        assert_eq!(set.to_string(), "   2   |      walls=0x2000");
    }
}
