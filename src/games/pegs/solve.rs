//! Deciding whether a position can be won, and finding a win.
//!
//! Depth-first search over single jumps on the bitboard. Every jump removes
//! a peg, so no position repeats on one path and every win has exactly
//! `pegs - 1` jumps (any win is shortest in jumps). The last peg can only
//! stand on cells of the start's position class; each is a *target*,
//! searched with pagoda functions aimed at it ([`super::pagoda`]) and a
//! dead-peg test (pegs that can never leave); one more search aims at no
//! cell (a single peg on any of them wins; weaker pruning, no win cut).
//! One transposition table of (position, target) pairs proven lost, keyed
//! up to the board's symmetries, serves every search; a child's symmetric
//! images are its parent's with three bits toggled, and children are
//! looked up (their slots prefetched) before they are entered. The
//! searches run as a portfolio: in
//! two rounds with a doubling node cap, every live target is searched
//! under each of several move orderings, targets nearer the middle
//! getting the larger share; then in rounds with caps on the Luby
//! sequence, under noisy orderings only (restarts). The first target is also searched as the dual problem
//! (the board full but for the target, jumped down to exactly the start's
//! holes: a reverse jump on a position is a jump on its complement); its
//! jumps, last first, are a win. Between the depth-first searches, beam
//! searches of the search core ([`super::beam`]) aimed at the first live
//! target, 4 wide first and each twice as wide as the one before, get
//! about as much time as the depth-first searches have used. Winning is
//! proven by the moves found; losing by
//! exhausting every target; when the budget ends first the answer is
//! `unproven`.

use super::beam::Aimed;
use super::bits::{fits_u64, Bits, BoardMasks, Masks, NSYM};
use super::classes::final_cells;
use super::pagoda::{Pagodas, EPS as PAGODA_EPS};
use super::rules::{bit, cells_of, Board, Cells, Game, Jump};
use super::symmetry::Symmetries;
use crate::solver::{beam_scored, Budget, BudgetExceeded, Duplicates, KeySet, Outcome};

/// Which prunings the search uses (all on by default; tests switch them
/// off to check they never change an answer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SolveOptions {
    /// Prune with pagoda functions and the dead-peg test
    /// ([`WinSolver`]'s fixpoint of cells that may ever be emptied).
    pub pagoda: bool,
    /// Key the lost table up to the board's symmetries.
    pub symmetry: bool,
    /// Try jumps leaving fewer isolated pegs first.
    pub ordering: bool,
    /// Run beam searches ([`super::beam`]) between the depth-first searches.
    pub beam: bool,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            pagoda: true,
            symmetry: true,
            ordering: true,
            beam: true,
        }
    }
}

/// The lost-table mark of the dual search (no cell has this number).
const DUAL: u8 = 127;

/// The target of a search for one peg on any cell the position classes
/// allow (no cell has this number).
const ANY: u8 = 126;

/// Most pagoda functions per target (see [`Pagodas::for_target`]).
const MAXP: usize = 8;

/// The images of a position under the non-identity symmetries in use.
type Images<T> = [T; NSYM];

/// One move-ordering style: the score of a jump is `isolated` times the
/// isolated pegs it leaves, plus `inward` times the weight it moves away
/// from the middle (squared distances), minus `mobility` times the jumps
/// left after it, plus up to `noise` of random tie-breaking. Lower first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Style {
    isolated: i32,
    inward: i32,
    mobility: i32,
    noise: u32,
}

/// A [`Style`] from its four weights, in field order.
const fn style(isolated: i32, inward: i32, mobility: i32, noise: u32) -> Style {
    Style {
        isolated,
        inward,
        mobility,
        noise,
    }
}

/// The portfolio of orderings tried in turn (each with the round's node
/// cap). Searches on random boards have heavy-tailed costs: one ordering
/// solves a board in a few thousand nodes where another needs millions,
/// and which one wins differs from board to board. Measured on 20
/// generated 9x9 boards and 20 octagons (nodes to a win, cap 1 M): the
/// first style alone solved 12/20 and 0/20; the portfolio 18/20 and
/// 19/20 with medians of about 2,000 nodes; the noisy styles settle most
/// of the remaining ones. The order is by how many of 100 generated
/// octagons and 100 generated 9x9 boards each style wins alone within
/// about 0.1 s (octagon / 9x9): 72/66, 50/72, 63/28, 61/42, 44/35, 22/48,
/// 5/41, 5/31, 33/8; putting the best first cut the median nodes of the
/// whole portfolio from 13,129 to 9,056 (octagons) and 15,043 to 6,237
/// (9x9).
const STYLES: [Style; 9] = [
    style(1024, 1, 16, 32),
    style(64, 1, 0, 32),
    style(16, 1, 0, 0),
    style(1024, 1, 16, 0),
    style(1024, 1, 4, 0),
    style(1024, 1, 0, 32),
    style(64, 1, 0, 0),
    style(1024, 1, 0, 0),
    style(1024, 0, 1, 0),
];

/// No ordering at all (tests switch ordering off).
const PLAIN: Style = style(0, 0, 0, 0);

/// Node cap of each (target, style) search in the quick round that comes
/// before the broad ones. A winning search on a generated board often
/// needs only a few hundred nodes, and which ordering finds it differs
/// from board to board (on 100 generated 9x9 boards, 35 of the searches
/// that won in the first broad round needed under 250 nodes of their
/// 1,000), so every ordering first gets this much: a board whose winning
/// ordering is the sixth then costs 1,250 nodes instead of 5,000. Measured
/// (median nodes, before and after): 300 freshly generated 9x9 boards 4,087
/// -> 1,839, the 200 of the benchmark sets 6,102 -> 2,737, 100 octagons
/// 2,273 -> 1,166. It runs only with the search for one peg anywhere,
/// that is with three live targets or more: it multiplies each failing
/// ordering's cost by fewer targets otherwise, and on the English board
/// (two) it cost 27,388 nodes instead of 23,118.
const QUICK_CAP: u64 = 256;

/// Node cap of the first broad round of each (target, style) search;
/// doubled every broad round.
const FIRST_CAP: u64 = 1000;

/// Rounds with every style of [`STYLES`] (caps `FIRST_CAP`, doubled each
/// round) before the restarts of [`RESTART_STYLES`] take over. Two keep
/// the octagons' and the English board's node counts as they were (they
/// are won within these rounds).
const BROAD_ROUNDS: u64 = 2;

/// Node cap unit of the restart rounds: round `i` after the broad ones
/// gets `RESTART_UNIT` times the `i`-th term of the Luby sequence.
const RESTART_UNIT: u64 = 250;

/// The orderings of the restart rounds: the three noisy styles that won
/// most of the hard 9x9 boards (64 of the 78 among 200 generated boards
/// that needed over 20,000 nodes were won by a noisy style), with twice
/// their noise, each twice a round. A capped search that is started
/// again with the same order resumes nearly where it stopped (every
/// subtree it finished is in the lost table), so deterministic orders
/// gain nothing from short caps; noisy ones start afresh in another part
/// of the tree each time, which is what cuts the heavy tail (as restarts
/// do in SAT solvers), and the lost table keeps what every earlier
/// restart refuted.
const RESTART_STYLES: [Style; 6] = {
    const fn noisier(s: Style) -> Style {
        Style {
            noise: 2 * s.noise,
            ..s
        }
    }
    let (a, b, c) = (noisier(STYLES[0]), noisier(STYLES[1]), noisier(STYLES[5]));
    [a, b, c, a, b, c]
};

/// One call of [`WinSolver::solve_to`]: the start, its final cells, the
/// live targets, the beams so far and the jumps of the last search.
struct Run {
    pegs: Cells,
    finals: Cells,
    /// The solver's node count when the call began.
    nodes0: u64,
    live: Vec<(u8, Pagodas)>,
    /// 1 when `live[0]` is the search for one peg on any final cell.
    dual_at: usize,
    beams: Beams,
    path: Vec<Jump>,
}

/// Which search found a win: its jumps stand in a different order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Won {
    /// A depth-first search (its jumps deepest first).
    Search,
    /// The dual search (its jumps, last first, are the win as they stand).
    Dual,
    /// A beam search (first jump first).
    Beam,
}

/// What a target's searches with every style came to.
enum Attempt {
    /// A search won with this style.
    Won(Style),
    /// A search ended under its cap: the target is lost.
    Lost,
    /// Every style used up its share.
    Capped,
    /// A beam search between two styles won.
    Beam,
    /// A budget stopped the search.
    Stopped(BudgetExceeded),
}

/// What a target's turn in a round leaves.
enum Turn {
    /// Go on with the next target.
    Next,
    /// The target is lost: drop it.
    Lost,
    /// The call's answer.
    Done(Result<Option<Won>, BudgetExceeded>),
}

/// The beam searches of one call to [`WinSolver::solve_to`]: the width of
/// the next one and the nodes (positions expanded) they used.
struct Beams {
    width: usize,
    nodes: u64,
}

/// What [`WinSolver::beam_if_due`] did.
enum BeamStep {
    /// Nothing due, or a beam that found no win.
    Idle,
    /// A beam found this win (first jump first).
    Won(Vec<Jump>),
    /// The budget ended during a beam.
    Stopped(BudgetExceeded),
}

/// What a beam search's node costs in depth-first nodes (measured: about
/// 770 ns a beam node, generating and scoring its children and dropping
/// duplicates, against 260 ns a depth-first node, on generated 9x9
/// boards).
const BEAM_NODE_COST: u64 = 3;

/// Width of the first beam search ([`super::beam`]); each later one is
/// twice as wide, up to [`BEAM_MAX_WIDTH`]. On 800 generated 9x9 boards,
/// one beam aimed at the middle cell wins 230 at width 4 (0.12 ms a
/// board), 428 at 8, 625 at 16, 718 at 32 and 757 at 64 (1.8 ms a board);
/// started at 64 after the broad rounds, as first built, the beams won the
/// tail but left the medians where the depth-first searches had them
/// (0.59-1.84 ms); started at 4 from the first search, 0.46-0.66 ms.
const BEAM_FIRST_WIDTH: usize = 4;

/// Widest beam search: 44 layers of 2^18 positions of a 9x9 board and the
/// children of one layer take some 200 MB.
const BEAM_MAX_WIDTH: usize = 1 << 18;

/// The `i`-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1,
/// 1, 2, 1, 1, 2, 4, 8, ...: the restart caps (in units), which give
/// every cap length about equal total time.
fn luby(mut i: u64) -> u64 {
    loop {
        // The smallest k with i <= 2^k - 1.
        let k = 64 - i.leading_zeros();
        if i == (1u64 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

/// A solver for one board shape; its table of lost positions survives
/// between calls (facts about positions, not about a start).
pub struct WinSolver<'a> {
    board: &'a Board,
    syms: Symmetries,
    opts: SolveOptions,
    /// (position, target) pairs proven lost, as `pegs | target << 121`
    /// (canonical under the board's symmetries when they are used).
    lost: KeySet,
    nodes: u64,
    pagoda_prunes: u64,
    /// The board's masks (taken out while a search runs, see
    /// [`WinSolver::search`]).
    masks: BoardMasks,
    /// Squared distance (x4) of each cell from the board's middle cell.
    outer: Vec<i32>,
    /// Per jump (`from * 4 + direction`): how much it moves pegs away
    /// from the middle (`outer` of its target minus its two others).
    outward: Vec<i32>,
    /// Per jump: what it adds to each pagoda total (the weight of its
    /// target cell minus those of its two others), for the current
    /// functions.
    deltas: Vec<[f64; MAXP]>,
    /// Node count at which the current search ends.
    cap: u64,
    /// True when the last stop was the round's cap, not the budget.
    capped: bool,
    /// The ordering in use.
    style: Style,
    /// xorshift state for the noisy styles.
    rng: u64,
    /// Per-depth move buffers (no allocation per node).
    buffers: Vec<Vec<(i32, Jump, u16, u128)>>,
    /// The cell the last peg must stand on, in the current call.
    finish: Option<u8>,
    /// The target of the current search ([`DUAL`] for the dual search).
    target: u8,
    /// The exact position that wins the current search (the target's bit
    /// for a forward search), and its peg count.
    goal: Cells,
    goal_n: u32,
    /// Pagoda functions of the current target: how many, the weight of
    /// each cell under each, and the total a win needs.
    npag: usize,
    weights: Vec<[f64; MAXP]>,
    need: [f64; MAXP],
    /// Symmetries the current search keys by (0 for the dual search).
    nsym: usize,
    /// Per non-identity symmetry: the current target's image, shifted to
    /// the key's top bits.
    tags: [u128; NSYM],
    /// The symmetries whose tag is the smallest (the key is the smallest
    /// tagged image, so only their images can give it), how many, and
    /// whether the identity's tag is that small too; the tag itself.
    key_syms: [usize; NSYM],
    nkey_syms: usize,
    key_ident: bool,
    key_tag: u128,
}

/// What a win search's outcome says about its position: `Some(true)`
/// won, `Some(false)` proven lost, `None` when a budget ended it first.
pub(crate) fn verdict(o: &Outcome<Jump>) -> Option<bool> {
    if o.moves.is_some() {
        Some(true)
    } else if o.proven_unsolvable {
        Some(false)
    } else {
        None
    }
}

impl<'a> WinSolver<'a> {
    /// A solver for positions on `board`.
    pub fn new(board: &'a Board, opts: SolveOptions) -> Self {
        let syms = if opts.symmetry {
            Symmetries::of(board)
        } else {
            Symmetries::identity(board)
        };
        // The middle cell (where sgt-pegs grows its random boards from).
        let (cr, cc) = (
            2 * (board.height() / 2) as i32,
            2 * (board.width() / 2) as i32,
        );
        let n = board.width() * board.height();
        // Per jump (`from * 4 + direction`): the images of its three cells
        // under each non-identity symmetry, so a child's images are its
        // parent's with three bits toggled (no canonicalisation from
        // scratch).
        let mut jump_imgs = Vec::new();
        if syms.order() > 1 {
            jump_imgs = vec![[0; NSYM]; n * 4];
            for (i, j) in board.indexed_jumps() {
                for (s, e) in jump_imgs[i].iter_mut().enumerate().take(syms.order() - 1) {
                    *e = bit(syms.map_cell(s, j.from))
                        | bit(syms.map_cell(s, j.over))
                        | bit(syms.map_cell(s, j.to));
                }
            }
        }
        let outer: Vec<i32> = (0..n)
            .map(|i| {
                let (r, c) = ((i / board.width()) as i32, (i % board.width()) as i32);
                (2 * r - cr).pow(2) + (2 * c - cc).pow(2)
            })
            .collect();
        let mut outward = vec![0; n * 4];
        let o = |i: u8| outer[i as usize];
        for (i, j) in board.indexed_jumps() {
            outward[i] = o(j.to) - o(j.from) - o(j.over);
        }
        WinSolver {
            outer,
            outward,
            deltas: vec![[0.0; MAXP]; n * 4],
            cap: u64::MAX,
            capped: false,
            style: PLAIN,
            rng: 0x9e37_79b9_7f4a_7c15,
            buffers: Vec::new(),
            finish: None,
            board,
            syms,
            opts,
            lost: KeySet::default(),
            nodes: 0,
            pagoda_prunes: 0,
            masks: BoardMasks::new(board, &jump_imgs),
            target: 0,
            goal: 0,
            goal_n: 1,
            npag: 0,
            weights: vec![[0.0; MAXP]; n],
            need: [0.0; MAXP],
            nsym: 0,
            tags: [0; NSYM],
            key_syms: [0; NSYM],
            nkey_syms: 0,
            key_ident: true,
            key_tag: 0,
        }
    }

    /// Positions expanded so far (over all calls).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Positions pruned by a pagoda function so far.
    pub fn pagoda_prunes(&self) -> u64 {
        self.pagoda_prunes
    }

    /// Entries of the lost table.
    pub fn lost_positions(&self) -> usize {
        self.lost.len()
    }

    /// Decides `pegs`: the jumps of a win (`moves`), a proof that none
    /// exists (`proven_unsolvable`), or a stop by the budget.
    pub fn solve(&mut self, pegs: Cells, budget: &Budget) -> Outcome<Jump> {
        self.solve_to(pegs, None, budget)
    }

    /// Makes `t` (with `pagodas`) the target of the searches that follow.
    fn aim(&mut self, t: u8, pagodas: &Pagodas) {
        self.target = t;
        self.goal = bit(t);
        self.goal_n = 1;
        self.nsym = self.syms.order() - 1;
        for s in 0..self.nsym {
            self.tags[s] = (self.syms.map_cell(s, t) as u128) << 121;
        }
        self.clear_pagodas();
        self.npag = pagodas.list.len().min(MAXP);
        for (k, p) in pagodas.list.iter().take(MAXP).enumerate() {
            for (cell, w) in self.weights.iter_mut().enumerate() {
                w[k] = p.weights[cell];
            }
            self.need[k] = p.need - PAGODA_EPS;
        }
        self.set_deltas();
        self.choose_key_syms();
    }

    /// Recomputes [`WinSolver::deltas`] from the current weights.
    fn set_deltas(&mut self) {
        for (i, j) in self.board.indexed_jumps() {
            let (wf, wo, wt) = (
                &self.weights[j.from as usize],
                &self.weights[j.over as usize],
                &self.weights[j.to as usize],
            );
            for k in 0..MAXP {
                self.deltas[i][k] = wt[k] - wf[k] - wo[k];
            }
        }
    }

    /// No pagoda function: every weight 0 and every need -inf, so that the
    /// inner loop can test all [`MAXP`] lanes without a count (unused
    /// lanes never prune).
    fn clear_pagodas(&mut self) {
        self.npag = 0;
        for w in self.weights.iter_mut() {
            *w = [0.0; MAXP];
        }
        self.need = [f64::NEG_INFINITY; MAXP];
        for e in self.deltas.iter_mut() {
            *e = [0.0; MAXP];
        }
    }

    /// Finds the symmetries whose tag can give the key (see
    /// [`WinSolver::key_syms`]) for the current target and tags.
    fn choose_key_syms(&mut self) {
        let own = (self.target as u128) << 121;
        let least = self.tags[..self.nsym].iter().copied().fold(own, u128::min);
        self.key_tag = least;
        self.key_ident = own == least;
        self.nkey_syms = 0;
        for s in 0..self.nsym {
            if self.tags[s] == least {
                self.key_syms[self.nkey_syms] = s;
                self.nkey_syms += 1;
            }
        }
    }

    /// Makes the search for one peg anywhere in `finals` (with `pagodas`,
    /// each needing its smallest weight there) current.
    fn aim_any(&mut self, finals: Cells, pagodas: &Pagodas) {
        self.aim(0, pagodas);
        self.target = ANY;
        self.goal = finals;
        for s in 0..self.nsym {
            self.tags[s] = (ANY as u128) << 121;
        }
        self.choose_key_syms();
    }

    /// Makes the dual search with exact goal `goal` current: pagoda
    /// functions aimed at goal cells (nearest the middle first), each
    /// needing its total over the goal.
    fn aim_dual(&mut self, goal: Cells) {
        self.target = DUAL;
        self.goal = goal;
        self.goal_n = goal.count_ones();
        self.nsym = 0;
        self.clear_pagodas();
        self.choose_key_syms();
        if !self.opts.pagoda {
            return;
        }
        let mut cells: Vec<u8> = cells_of(goal).collect();
        cells.sort_by_key(|&g| self.outer[g as usize]);
        for g in cells {
            if self.npag == MAXP {
                break;
            }
            let ps = Pagodas::for_target(self.board, g);
            let Some(p) = ps.list.first() else { continue };
            let k = self.npag;
            for (cell, w) in self.weights.iter_mut().enumerate() {
                w[k] = p.weights[cell];
            }
            self.need[k] = p.value(goal) - PAGODA_EPS;
            self.npag += 1;
        }
        self.set_deltas();
    }

    /// The pagoda totals of `pegs` under the current target's functions.
    fn values(&self, pegs: Cells) -> [f64; MAXP] {
        let mut v = [0.0; MAXP];
        for c in cells_of(pegs) {
            let w = &self.weights[c as usize];
            for (v, w) in v.iter_mut().zip(w).take(self.npag) {
                *v += w;
            }
        }
        v
    }

    /// As [`WinSolver::solve`], with the last peg on cell `finish` (one peg
    /// anywhere when `None`).
    pub fn solve_to(&mut self, pegs: Cells, finish: Option<u8>, budget: &Budget) -> Outcome<Jump> {
        self.finish = finish;
        let nodes0 = self.nodes;
        let finals = final_cells(self.board, pegs) & finish.map_or(!0, |f| 1u128 << f);
        let (live, dual_at) = self.live_targets(pegs, finals, finish);
        let mut run = Run {
            pegs,
            finals,
            nodes0,
            live,
            dual_at,
            beams: Beams {
                width: BEAM_FIRST_WIDTH,
                nodes: 0,
            },
            path: Vec::new(),
        };
        let res = self.rounds(&mut run, budget);
        let nodes = self.nodes - nodes0;
        let elapsed = budget.elapsed();
        match res {
            Ok(Some(won)) => {
                // The search pushed its jumps deepest first. Each jump of
                // the dual, played on the complements, is the same jump
                // (pegs on from and over, a hole on to, the other way
                // round), from the start towards one peg: the dual's
                // jumps, last first, are the win as they stand.
                // A beam's jumps come first jump first.
                if won == Won::Search {
                    run.path.reverse();
                }
                Outcome::optimal(run.path, nodes, elapsed)
            }
            Ok(None) => Outcome::unsolvable(nodes, elapsed),
            Err(why) => {
                let lb = pegs.count_ones().saturating_sub(1);
                Outcome::stopped(None, lb, why, nodes, elapsed)
            }
        }
    }

    /// The targets worth searching from `pegs` (cells of `finals`, nearest
    /// the middle first, one of each family a symmetry fixing the start
    /// maps onto each other, those their pagoda functions do not already
    /// refute) with their pagoda functions, and the index of the first
    /// real target (1 when a search for one peg on any final cell goes
    /// first).
    fn live_targets(
        &mut self,
        pegs: Cells,
        finals: Cells,
        finish: Option<u8>,
    ) -> (Vec<(u8, Pagodas)>, usize) {
        // One search per cell the last peg can stand on (position
        // classes), nearest the middle first, each pruned by pagoda
        // functions aimed at that cell.
        let mut targets: Vec<u8> = cells_of(finals).collect();
        targets.sort_by_key(|&t| self.outer[t as usize]);
        // A symmetry of the board that maps the start onto itself maps a
        // win on one target to a win on its image: search one of each
        // such family (the English board's four off-centre targets).
        let same = self.syms.fixing_position(pegs);
        let mut kept: Vec<u8> = Vec::new();
        targets.retain(|&t| {
            let dup = (0..same.order() - 1).any(|s| kept.contains(&same.map_cell(s, t)));
            if !dup {
                kept.push(t);
            }
            !dup
        });
        let mut live: Vec<(u8, Pagodas)> = Vec::new();
        for t in targets {
            let pagodas = if self.opts.pagoda {
                Pagodas::for_target(self.board, t)
            } else {
                Pagodas::none()
            };
            if pagodas.prunes(pegs) {
                self.pagoda_prunes += 1;
            } else {
                live.push((t, pagodas));
            }
        }
        // Before the targets, one search for a single peg on any cell the
        // position classes allow: pagoda functions needing their smallest
        // weight over those cells, the dead-peg test allowing one stuck
        // peg on one of them. It prunes less than a search aimed at one
        // cell but never cuts a win on another cell; on the 100 octagons
        // of the benchmark it cut the nodes from 2.55 M to 0.44 M (median
        // 9,056 to 2,961). It gets the first target's share of each
        // round, so that target loses nothing. Proven lost, every target
        // is lost. With two targets or fewer it costs more than it saves
        // (the English board: 50,031 nodes with it, 23,118 without), so it
        // runs only with three or more.
        if finish.is_none() && live.len() > 2 {
            let pagodas = if self.opts.pagoda {
                Pagodas::for_position(self.board, pegs)
            } else {
                Pagodas::none()
            };
            live.insert(0, (ANY, pagodas));
            return (live, 1);
        }
        (live, 0)
    }

    /// Rounds of iterative broadening: every live target is searched with
    /// every ordering style under a node cap (QUICK_CAP in a first quick
    /// round, then FIRST_CAP doubling each round), so neither a wrong
    /// first target nor an unlucky ordering can starve the others; after
    /// BROAD_ROUNDS of them, restarts: the noisy styles only, caps on the
    /// Luby sequence (see RESTART_STYLES). The lost table is shared by all
    /// of them (a lost (position, target) pair is a fact whatever the
    /// order), so a later search skips what an earlier one refuted. A
    /// search that ends under its cap proves its target lost. Beam
    /// searches aimed at the first live target run between the
    /// depth-first searches, each twice as wide as the one before,
    /// whenever those have spent BEAM_NODE_COST times the beams' nodes.
    /// `Ok(Some(_))` when won (the jumps in `run.path`), `Ok(None)` when
    /// every target is lost.
    fn rounds(&mut self, run: &mut Run, budget: &Budget) -> Result<Option<Won>, BudgetExceeded> {
        let mut quick = run.dual_at == 1;
        let mut cap = if quick { QUICK_CAP } else { FIRST_CAP };
        let mut round = 0;
        while !run.live.is_empty() {
            let broad = quick || round < BROAD_ROUNDS;
            let styles: &[Style] = if !self.opts.ordering {
                &[PLAIN]
            } else if broad {
                &STYLES
            } else {
                &RESTART_STYLES
            };
            let floor = if quick {
                QUICK_CAP
            } else if broad {
                FIRST_CAP
            } else {
                RESTART_UNIT
            };
            let mut k = 0;
            while k < run.live.len() {
                if run.dual_at == 1 && run.live.len() == 1 {
                    // Every target proven lost: so is the position.
                    return Ok(None);
                }
                // Targets nearer the middle get more of each round (the
                // k-th live one half the cap of the one before it, at
                // least the first round's): sgt-pegs grows its random
                // boards from the middle cell, and on 11 generated 9x9
                // boards the portfolio left unsolved at 2 M nodes, this
                // and the dead-peg test below solved 7 (3 without).
                let rank = k.saturating_sub(run.dual_at);
                let share = (cap >> rank.min(63)).max(floor);
                match self.target_turn(run, k, styles, cap, share, budget) {
                    Turn::Next => k += 1,
                    Turn::Lost => {
                        run.live.remove(k);
                    }
                    Turn::Done(res) => return res,
                }
            }
            if quick {
                quick = false;
                cap = FIRST_CAP;
                continue;
            }
            round += 1;
            cap = if round < BROAD_ROUNDS {
                cap.saturating_mul(2)
            } else {
                RESTART_UNIT.saturating_mul(luby(round + 1 - BROAD_ROUNDS))
            };
        }
        Ok(None)
    }

    /// Live target `k`'s turn in a round: its search with each style in
    /// `styles` under `share` nodes, then (for the first real target) the
    /// dual search: from the board full but for the target, jump down to
    /// exactly the start's holes (a reverse jump on a position is a jump
    /// on its complement), reversed into a win when found. The dual is
    /// skipped when it is the same search (the English board's central
    /// game is its own dual).
    fn target_turn(
        &mut self,
        run: &mut Run,
        k: usize,
        styles: &[Style],
        cap: u64,
        share: u64,
        budget: &Budget,
    ) -> Turn {
        let pegs = run.pegs;
        let t = run.live[k].0;
        let pagodas = run.live[k].1.clone();
        if t == ANY {
            self.aim_any(run.finals, &pagodas);
        } else {
            self.aim(t, &pagodas);
        }
        let values = self.values(pegs);
        let uncapped = run.live.len() == 1 && styles.len() == 1;
        match self.try_styles(run, pegs, &values, styles, share, uncapped, budget) {
            Attempt::Won(style) => {
                log::debug!(
                    "won by target {t} style {:?} cap {cap} share {share} after {} nodes",
                    style,
                    self.nodes - run.nodes0
                );
                return Turn::Done(Ok(Some(Won::Search)));
            }
            // No peg can be the last one: every target is lost.
            Attempt::Lost if t == ANY => return Turn::Done(Ok(None)),
            Attempt::Lost => return Turn::Lost,
            Attempt::Capped => {}
            Attempt::Beam => return Turn::Done(Ok(Some(Won::Beam))),
            Attempt::Stopped(why) => return Turn::Done(Err(why)),
        }
        let dual_goal = self.board.cells() & !pegs;
        let start = self.board.cells() & !bit(t);
        if k != run.dual_at || t == ANY || dual_goal == 0 || (start, dual_goal) == (pegs, bit(t)) {
            return Turn::Next;
        }
        self.aim_dual(dual_goal);
        let values = self.values(start);
        match self.try_styles(run, start, &values, styles, share, false, budget) {
            Attempt::Won(style) => {
                log::debug!(
                    "won by the dual of {t} style {:?} cap {cap} after {} nodes",
                    style,
                    self.nodes - run.nodes0
                );
                Turn::Done(Ok(Some(Won::Dual)))
            }
            Attempt::Lost => Turn::Lost,
            Attempt::Capped => Turn::Next,
            Attempt::Beam => Turn::Done(Ok(Some(Won::Beam))),
            Attempt::Stopped(why) => Turn::Done(Err(why)),
        }
    }

    /// Searches from `from` (pagoda totals `values`, the current aim) with
    /// each of `styles` in turn under `share` nodes (no cap when
    /// `uncapped`), running a beam search first whenever one is due.
    #[allow(clippy::too_many_arguments)]
    fn try_styles(
        &mut self,
        run: &mut Run,
        from: Cells,
        values: &[f64; MAXP],
        styles: &[Style],
        share: u64,
        uncapped: bool,
        budget: &Budget,
    ) -> Attempt {
        for &style in styles {
            let spent = self.nodes - run.nodes0;
            match self.beam_if_due(&mut run.beams, &run.live, run.pegs, budget, spent) {
                BeamStep::Idle => {}
                BeamStep::Won(win) => {
                    run.path = win;
                    return Attempt::Beam;
                }
                BeamStep::Stopped(why) => return Attempt::Stopped(why),
            }
            self.style = style;
            self.cap = if uncapped {
                u64::MAX
            } else {
                self.nodes.saturating_add(share)
            };
            self.capped = false;
            run.path.clear();
            match self.search(from, values, budget, &mut run.path) {
                Ok(true) => return Attempt::Won(style),
                Ok(false) => return Attempt::Lost,
                Err(_) if self.capped => {}
                Err(e) => return Attempt::Stopped(e),
            }
        }
        Attempt::Capped
    }

    /// Runs the next beam search ([`super::beam`]) when it is due: the
    /// depth-first searches of this call have spent `BEAM_NODE_COST`
    /// times the beams' nodes (`spent` counts both). It aims at the first
    /// live target. A beam cut to its width that finds no win proves
    /// nothing; one that was never cut and finds none leaves nothing
    /// wider to try (its target is lost, which the depth-first searches
    /// will prove in their turn), so the beams stop.
    fn beam_if_due(
        &mut self,
        beams: &mut Beams,
        live: &[(u8, Pagodas)],
        pegs: Cells,
        budget: &Budget,
        spent: u64,
    ) -> BeamStep {
        let dfs_nodes = spent - beams.nodes;
        if !self.opts.beam
            || beams.width > BEAM_MAX_WIDTH
            || dfs_nodes < BEAM_NODE_COST.saturating_mul(beams.nodes)
        {
            return BeamStep::Idle;
        }
        let Some((t, pagodas)) = live.iter().find(|(t, _)| *t != ANY) else {
            return BeamStep::Idle;
        };
        let problem = Aimed::new(self.board, *t, pagodas);
        let left = budget.node_limit().saturating_sub(self.nodes);
        let o = beam_scored(
            &problem,
            &pegs,
            beams.width,
            Duplicates::WithinLayer,
            &budget.clone().with_node_limit(left),
        );
        self.nodes += o.nodes;
        beams.nodes += o.nodes;
        log::debug!(
            "beam width {} on {t}: {} after {} nodes",
            beams.width,
            if o.moves.is_some() { "won" } else { "no win" },
            spent + o.nodes
        );
        beams.width = if o.proven_unsolvable {
            usize::MAX
        } else {
            beams.width.saturating_mul(2)
        };
        match (o.moves, o.stopped) {
            (Some(win), _) => BeamStep::Won(win),
            (None, Some(why)) => BeamStep::Stopped(why),
            (None, None) => BeamStep::Idle,
        }
    }

    /// Decides by the dual search alone whether `pegs` can end with one
    /// peg on `t`: the jumps of such a win, `None` when there is none.
    #[cfg(test)]
    pub(crate) fn decide_dual(&mut self, pegs: Cells, t: u8) -> Option<Vec<Jump>> {
        self.finish = None;
        self.style = if self.opts.ordering { STYLES[0] } else { PLAIN };
        self.cap = u64::MAX;
        let start = self.board.cells() & !bit(t);
        let goal = self.board.cells() & !pegs;
        if goal == 0 {
            return (pegs == bit(t)).then(Vec::new);
        }
        self.aim_dual(goal);
        let values = self.values(start);
        let mut path = Vec::new();
        let won = self
            .search(start, &values, &Budget::unlimited(), &mut path)
            .expect("no budget");
        won.then_some(path)
    }

    /// Decides by the search for one peg anywhere alone (no target cell,
    /// no cap) whether `pegs` can be won: the jumps of a win, `None` when
    /// there is none.
    #[cfg(test)]
    pub(crate) fn decide_any(&mut self, pegs: Cells) -> Option<Vec<Jump>> {
        self.finish = None;
        self.style = if self.opts.ordering { STYLES[0] } else { PLAIN };
        self.cap = u64::MAX;
        let finals = final_cells(self.board, pegs);
        if finals == 0 {
            return None;
        }
        let pagodas = if self.opts.pagoda {
            Pagodas::for_position(self.board, pegs)
        } else {
            Pagodas::none()
        };
        if pagodas.prunes(pegs) {
            return None;
        }
        self.aim_any(finals, &pagodas);
        let values = self.values(pegs);
        let mut path = Vec::new();
        let won = self
            .search(pegs, &values, &Budget::unlimited(), &mut path)
            .expect("no budget");
        path.reverse();
        won.then_some(path)
    }

    /// True when `pegs` can be won (`None` when the budget ended first).
    pub fn winnable(&mut self, pegs: Cells, budget: &Budget) -> Option<bool> {
        verdict(&self.solve(pegs, budget))
    }

    /// Pegs with no orthogonal neighbour peg.
    #[inline(always)]
    fn isolated<const W: u32, T: Bits>(m: &Masks<T>, p: T) -> u32 {
        let nb = ((p << 1) & m.not_col0) | ((p >> 1) & m.not_col_last) | (p << W) | (p >> W);
        (p & !nb).ones()
    }

    /// The images of `pegs` under the current search's symmetries.
    fn images(&self, pegs: Cells) -> Images<Cells> {
        let mut imgs = [0; NSYM];
        for (s, i) in imgs.iter_mut().enumerate().take(self.nsym) {
            *i = self.syms.apply(s, pegs);
        }
        imgs
    }

    /// The lost-table key of a position with images `imgs` for the
    /// current search: the smallest tagged image (exactly
    /// [`Symmetries::canonical_tagged`] for a forward search).
    #[inline]
    fn key(&self, pegs: Cells, imgs: &Images<Cells>) -> u128 {
        let mut best = pegs | (self.target as u128) << 121;
        for (img, tag) in imgs.iter().zip(self.tags.iter()).take(self.nsym) {
            best = best.min(*img | *tag);
        }
        best
    }

    /// Searches from `pegs` (the root of one search): true when it wins,
    /// with the jumps pushed on `path` deepest first.
    fn search(
        &mut self,
        pegs: Cells,
        values: &[f64; MAXP],
        budget: &Budget,
        path: &mut Vec<Jump>,
    ) -> Result<bool, BudgetExceeded> {
        if pegs.count_ones() <= self.goal_n {
            return Ok(self.is_goal(pegs));
        }
        let imgs = self.images(pegs);
        let key = self.key(pegs, &imgs);
        if self.lost.contains(key) {
            return Ok(false);
        }
        // The inner loop is instantiated per board width, so that its
        // bit shifts are constants (a u128 shift by a variable amount costs
        // several instructions and a branch), and per word (u64 when the
        // board fits). The masks leave `self` while it runs, so that the
        // loop can borrow them and still update the solver.
        let masks = std::mem::take(&mut self.masks);
        let narrow = fits_u64(self.board);
        macro_rules! by_width {
            ($($w:literal)*) => {
                match (self.board.width(), narrow) {
                    $(($w, true) => self.dfs::<$w, u64>(
                        &masks.narrow, u64::narrow(pegs), &imgs.map(u64::narrow), key, values, budget, path),
                    ($w, false) => self.dfs::<$w, u128>(
                        &masks.wide, pegs, &imgs, key, values, budget, path),)*
                    (w, _) => unreachable!("board width {w} above MAX_SIDE"),
                }
            };
        }
        let res = by_width!(1 2 3 4 5 6 7 8 9 10 11);
        self.masks = masks;
        res
    }

    /// True when `pegs` (with at most the goal's peg count) wins the
    /// current search.
    #[inline]
    fn is_goal<T: Bits>(&self, pegs: T) -> bool {
        if self.target == DUAL {
            return pegs == T::narrow(self.goal);
        }
        // Forward: any single peg is a win (the target's pagodas only
        // steer towards it), unless a finish cell is asked for.
        pegs.ones() == 1 && self.finish.is_none_or(|f| pegs == T::narrow(bit(f)))
    }

    /// Expands `pegs` (more pegs than the goal, key `key` not in the
    /// lost table, images `imgs`). Children are looked up in the lost
    /// table here, their slots prefetched while the others are generated.
    #[allow(clippy::too_many_arguments)]
    fn dfs<const W: u32, T: Bits>(
        &mut self,
        m: &Masks<T>,
        pegs: T,
        imgs: &Images<T>,
        key: u128,
        values: &[f64; MAXP],
        budget: &Budget,
        path: &mut Vec<Jump>,
    ) -> Result<bool, BudgetExceeded> {
        let n = pegs.ones();
        self.nodes += 1;
        if self.nodes >= self.cap {
            self.capped = true;
            return Err(BudgetExceeded::Nodes);
        }
        if self.nodes & 1023 == 0 {
            budget.check_nodes(self.nodes, self.lost.bytes())?;
        }
        if self.opts.pagoda && self.dead_pegs::<W, T>(m, pegs, T::narrow(self.goal)) {
            self.lost.insert(key);
            return Ok(false);
        }
        let depth = 128 - n as usize;
        if self.buffers.len() <= depth {
            self.buffers.resize_with(depth + 1, Vec::new);
        }
        let mut jumps = std::mem::take(&mut self.buffers[depth]);
        jumps.clear();
        let src = m.sources::<W>(pegs);
        let ordering = self.style != PLAIN;
        let npag = self.npag;
        let nsym = self.nsym;
        // Children at the goal's peg count are decided on the spot.
        let last = n - 1 <= self.goal_n;
        for (d, &set) in src.iter().enumerate() {
            let mut s = set;
            while s != T::ZERO {
                let f = s.lowest();
                s = s.drop_lowest();
                let j = self.board.jump(f, d);
                let ji = f as usize * 4 + d;
                let next = pegs ^ m.jump[ji];
                if last {
                    if self.is_goal(next) {
                        path.push(j);
                        self.buffers[depth] = jumps;
                        return Ok(true);
                    }
                    continue;
                }
                if npag > 0 {
                    // All lanes, no early exit: the compiler vectorises it.
                    let dl = &self.deltas[ji];
                    let mut short = false;
                    for k in 0..MAXP {
                        short |= values[k] + dl[k] < self.need[k];
                    }
                    if short {
                        self.pagoda_prunes += 1;
                        continue;
                    }
                }
                // The smallest tagged image: the tag dominates, so only the
                // images under the symmetries with the smallest tag count,
                // compared in the narrow word.
                let mut best = next;
                if nsym > 0 {
                    let ji = &m.jump_imgs[ji];
                    let ks = &self.key_syms[..self.nkey_syms];
                    if !self.key_ident {
                        best = imgs[ks[0]] ^ ji[ks[0]];
                    }
                    for &s in ks {
                        best = best.min(imgs[s] ^ ji[s]);
                    }
                }
                let ckey = best.wide() | self.key_tag;
                self.lost.prefetch(ckey);
                let score = if ordering {
                    self.score::<W, T>(m, next, ji)
                } else {
                    0
                };
                jumps.push((score, j, ji as u16, ckey));
            }
        }
        if ordering {
            jumps.sort_by_key(|&(s, ..)| s);
        }
        let mut found = false;
        for &(_, j, ji, ckey) in &jumps {
            if self.lost.contains(ckey) {
                continue;
            }
            let ji = ji as usize;
            let next = pegs ^ m.jump[ji];
            let mut cimgs = [T::ZERO; NSYM];
            if nsym > 0 {
                let ji = &m.jump_imgs[ji];
                for s in 0..nsym {
                    cimgs[s] = imgs[s] ^ ji[s];
                }
            }
            let mut child = *values;
            let dl = &self.deltas[ji];
            for k in 0..MAXP {
                child[k] += dl[k];
            }
            match self.dfs::<W, T>(m, next, &cimgs, ckey, &child, budget, path) {
                Ok(true) => {
                    path.push(j);
                    found = true;
                    break;
                }
                Ok(false) => {}
                Err(e) => {
                    self.buffers[depth] = jumps;
                    return Err(e);
                }
            }
        }
        self.buffers[depth] = jumps;
        if found {
            return Ok(true);
        }
        self.lost.insert(key);
        Ok(false)
    }

    /// True when `pegs` cannot be won with the last peg on `target`
    /// because of pegs that can never go: the cells that may ever hold a
    /// peg (`may_peg`) and that may ever be empty (`may_hole`) are grown
    /// to a fixpoint by every jump whose three cells allow it (an
    /// over-approximation of every future position, ignoring order and
    /// the pegs each jump uses up). A peg on a cell that can never be
    /// emptied stays to the end: two such pegs, or one off the target, or
    /// a target that can never hold a peg, and the position is lost for
    /// that target.
    fn dead_pegs<const W: u32, T: Bits>(&self, masks: &Masks<T>, pegs: T, goal: T) -> bool {
        let m = masks.from;
        let mut may_peg = pegs;
        let mut may_hole = masks.cells & !pegs;
        loop {
            let (p0, h0) = (may_peg, may_hole);
            // Dir::ALL order: up (-W), down (+W), left (-1), right (+1).
            let src = may_peg & (may_peg << W) & (may_hole << (2 * W)) & m[0];
            may_hole |= src | (src >> W);
            may_peg |= src >> (2 * W);
            let src = may_peg & (may_peg >> W) & (may_hole >> (2 * W)) & m[1];
            may_hole |= src | (src << W);
            may_peg |= src << (2 * W);
            let src = may_peg & (may_peg << 1) & (may_hole << 2) & m[2];
            may_hole |= src | (src >> 1);
            may_peg |= src >> 2;
            let src = may_peg & (may_peg >> 1) & (may_hole >> 2) & m[3];
            may_hole |= src | (src << 1);
            may_peg |= src << 2;
            if may_peg == p0 && may_hole == h0 {
                break;
            }
            // Both sets only grow, so the pegs stuck so far only shrink and
            // the goal cells that may hold a peg only grow: once neither
            // test below can fail, no further round changes the answer
            // (most positions get there in a round or two).
            let stuck = pegs & !may_hole;
            let alive = if self.target == DUAL {
                goal & !may_peg == T::ZERO
            } else {
                stuck.ones() <= 1 && goal & may_peg != T::ZERO
            };
            if alive && stuck & !goal == T::ZERO {
                return false;
            }
        }
        let stuck = pegs & !may_hole;
        if self.target == DUAL {
            // Exactly the goal: every goal cell must be able to hold a peg.
            stuck & !goal != T::ZERO || goal & !may_peg != T::ZERO
        } else {
            // One peg on some goal cell.
            stuck & !goal != T::ZERO || stuck.ones() > 1 || goal & may_peg == T::ZERO
        }
    }

    /// Ordering score of jump `ji` (`from * 4 + direction`), leading to
    /// `next`, under the current style (lower first).
    #[inline]
    fn score<const W: u32, T: Bits>(&mut self, m: &Masks<T>, next: T, ji: usize) -> i32 {
        let st = self.style;
        let mut score =
            st.isolated * Self::isolated::<W, T>(m, next) as i32 + st.inward * self.outward[ji];
        if st.mobility != 0 {
            let mobility: u32 = m.sources::<W>(next).iter().map(|s| s.ones()).sum();
            score -= st.mobility * mobility as i32;
        }
        if st.noise != 0 {
            self.rng ^= self.rng << 13;
            self.rng ^= self.rng >> 7;
            self.rng ^= self.rng << 17;
            score += (self.rng % st.noise as u64) as i32;
        }
        score
    }
}

/// Decides `game` with a fresh solver (see [`WinSolver::solve`]).
pub fn solve(game: &Game, opts: SolveOptions, budget: &Budget) -> Outcome<Jump> {
    WinSolver::new(&game.board, opts).solve(game.pegs, budget)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pegs::parse::{parse_game, ENGLISH};
    use crate::games::pegs::rules::JumpProblem;
    use crate::solver::wins;

    #[test]
    fn luby_sequence() {
        let terms: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(terms, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn english_board_is_won() {
        let g = parse_game(ENGLISH).unwrap();
        let o = solve(&g, SolveOptions::default(), &Budget::unlimited());
        let moves = o.moves.expect("the English board can be won");
        assert_eq!(moves.len(), 31);
        let p = crate::games::pegs::rules::JumpProblem { board: &g.board };
        assert!(wins(&p, &g.pegs, &moves));
    }

    #[test]
    fn a_board_too_large_for_a_u64_searches_as_the_same_board_in_one() {
        // The English board padded to 9x9 (81 cells: the u128 loop) keeps
        // its middle, its symmetries and its cell order, so the search
        // must expand exactly the same positions as on 7x7 (the u64 loop).
        let small = parse_game(ENGLISH).unwrap();
        let cells: String = ENGLISH[4..].chars().collect();
        let mut padded = String::from("9x9:");
        padded.push_str(&"O".repeat(9));
        for row in cells.as_bytes().chunks(7) {
            padded.push('O');
            padded.push_str(std::str::from_utf8(row).unwrap());
            padded.push('O');
        }
        padded.push_str(&"O".repeat(9));
        let large = parse_game(&padded).unwrap();
        assert!(fits_u64(&small.board) && !fits_u64(&large.board));
        let budget = Budget::unlimited();
        let a = solve(&small, SolveOptions::default(), &budget);
        let b = solve(&large, SolveOptions::default(), &budget);
        assert!(a.moves.is_some() && b.moves.is_some());
        assert_eq!(a.nodes, b.nodes);
        let p = crate::games::pegs::rules::JumpProblem {
            board: &large.board,
        };
        assert!(wins(&p, &large.pegs, &b.moves.unwrap()));
    }

    #[test]
    fn dead_pegs_are_seen() {
        // Cell 3 is off the board: the peg on 6 can never leave (5 can never
        // hold a peg), so no win ends on 2.
        let g = parse_game("7x1:PPHOHHP").unwrap();
        let s = WinSolver::new(&g.board, SolveOptions::default());
        assert!(s.dead_pegs::<7, u128>(&s.masks.wide, g.pegs, bit(2)));
        assert!(s.dead_pegs::<7, u64>(&s.masks.narrow, g.pegs as u64, 1 << 2));
        // On 6 the test sees nothing (it over-approximates the rest).
        assert!(!s.dead_pegs::<7, u128>(&s.masks.wide, g.pegs, bit(6)));
        // Two in a row with room: nothing is dead for target 3.
        let g = parse_game("5x1:HPPHH").unwrap();
        let s = WinSolver::new(&g.board, SolveOptions::default());
        assert!(!s.dead_pegs::<5, u128>(&s.masks.wide, g.pegs, bit(3)));
    }

    #[test]
    fn a_stuck_position_is_proven_lost() {
        let g = parse_game("5x1:PHHHP").unwrap();
        let o = solve(&g, SolveOptions::default(), &Budget::unlimited());
        assert!(o.proven_unsolvable);
        let g = parse_game("3x1:PPH").unwrap();
        assert_eq!(
            solve(&g, SolveOptions::default(), &Budget::unlimited()).len(),
            Some(1)
        );
        let g = parse_game("1x1:P").unwrap();
        assert_eq!(
            solve(&g, SolveOptions::default(), &Budget::unlimited()).len(),
            Some(0)
        );
    }

    #[test]
    fn the_beam_searches_win_a_board_the_depth_first_ones_cannot_soon() {
        // A generated 9x9 board whose depth-first searches needed 41.6 M
        // nodes (won by the dual search); with the beams between its
        // depth-first searches it is won in well under a million.
        let g = parse_game(
            "9x9:PPOOOOOOOHPPOOOOOOPPOOOOOOOPPPOPOOOOPHPPPPPOOPPPPPPPPOPPPPOPPHPPPPPOOPPPPHPPOPHPP",
        )
        .unwrap();
        let budget = || Budget::unlimited().with_node_limit(1_000_000);
        let without = SolveOptions {
            beam: false,
            ..SolveOptions::default()
        };
        let o = solve(&g, without, &budget());
        assert_eq!(o.stopped, Some(BudgetExceeded::Nodes));
        let o = solve(&g, SolveOptions::default(), &budget());
        let m = o.moves.expect("won by a beam");
        assert!(wins(&JumpProblem { board: &g.board }, &g.pegs, &m));
        assert_eq!(m.len() as u32, g.peg_count() - 1);
    }
}
