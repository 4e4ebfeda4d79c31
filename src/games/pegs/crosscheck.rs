//! Tests of the fast searches against plain exhaustive search on random
//! small boards (up to 5x5 cells, random shapes and positions, lost ones
//! included): winnability, pagoda pruning and fewest moves.

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, HashSet, VecDeque};

    use crate::games::pegs::beam::{unlimited_beam, Aimed};
    use crate::games::pegs::fewest::{chains, fewest_moves, fewest_moves_to};
    use crate::games::pegs::pagoda::Pagodas;
    use crate::games::pegs::rules::{apply, Board, Cells, Game, JumpProblem};
    use crate::games::pegs::solve::{solve, SolveOptions, WinSolver};
    use crate::solver::{wins, Budget};

    /// xorshift64*: a fixed, dependency-free random sequence.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    fn random_game(rng: &mut Rng) -> Game {
        loop {
            let w = 1 + rng.below(5) as usize;
            let h = 1 + rng.below(5) as usize;
            let mut cells = 0u128;
            let mut pegs = 0u128;
            for i in 0..w * h {
                if rng.below(10) < 8 {
                    cells |= 1 << i;
                    if rng.below(10) < 7 {
                        pegs |= 1 << i;
                    }
                }
            }
            if pegs != 0 {
                return Game {
                    board: Board::new(w, h, cells).unwrap(),
                    pegs,
                };
            }
        }
    }

    /// The solver's options with the beams off.
    fn options(pagoda: bool, symmetry: bool, ordering: bool) -> SolveOptions {
        SolveOptions {
            pagoda,
            symmetry,
            ordering,
            beam: false,
        }
    }

    /// Runs `check(game, truth)` on 300 random games seeded by `seed`,
    /// `truth` saying whether exhaustive search wins the game; at least
    /// `min + 1` must be won and as many lost.
    fn each_game(seed: u64, min: u32, mut check: impl FnMut(&Game, bool)) {
        let mut rng = Rng(seed);
        let (mut won, mut lost) = (0, 0);
        for _ in 0..300 {
            let g = random_game(&mut rng);
            let truth = reference_winnable(&g.board, g.pegs, &mut HashMap::new());
            check(&g, truth);
            if truth {
                won += 1
            } else {
                lost += 1
            }
        }
        assert!(won > min && lost > min, "won {won} lost {lost}");
    }

    /// Runs `check(game, t, goal, truth)` for every cell `t` of 150 random
    /// games seeded by `seed`, `goal` being one peg on `t` and `truth`
    /// whether exhaustive search reaches it; at least 16 targets must be
    /// reached and 301 not.
    fn each_target(seed: u64, mut check: impl FnMut(&Game, u8, Cells, bool)) {
        let mut rng = Rng(seed);
        let (mut won, mut lost) = (0, 0);
        for _ in 0..150 {
            let g = random_game(&mut rng);
            for t in crate::games::pegs::rules::cells_of(g.board.cells()) {
                let goal = 1u128 << t;
                let truth = reference_reaches(&g.board, g.pegs, goal, &mut HashMap::new());
                check(&g, t, goal, truth);
                if truth {
                    won += 1
                } else {
                    lost += 1
                }
            }
        }
        assert!(won > 15 && lost > 300, "won {won} lost {lost}");
    }

    /// Plain memoised search over every jump: true when some sequence of
    /// jumps from `pegs` reaches a position `end` accepts (`end` gives a
    /// position's verdict once no further jump counts, `None` before).
    fn reference_search(
        board: &Board,
        pegs: Cells,
        end: &dyn Fn(Cells) -> Option<bool>,
        memo: &mut HashMap<Cells, bool>,
    ) -> bool {
        if let Some(v) = end(pegs) {
            return v;
        }
        if let Some(&w) = memo.get(&pegs) {
            return w;
        }
        let mut js = Vec::new();
        board.jumps(pegs, &mut js);
        let w = js
            .iter()
            .any(|&j| reference_search(board, apply(pegs, j), end, memo));
        memo.insert(pegs, w);
        w
    }

    /// True when the jumps from `pegs` can leave one peg.
    fn reference_winnable(board: &Board, pegs: Cells, memo: &mut HashMap<Cells, bool>) -> bool {
        reference_search(
            board,
            pegs,
            &|p| (p.count_ones() == 1).then_some(true),
            memo,
        )
    }

    /// Every position reachable from `pegs`.
    fn reachable(board: &Board, pegs: Cells) -> HashSet<Cells> {
        let mut seen = HashSet::from([pegs]);
        let mut stack = vec![pegs];
        let mut js = Vec::new();
        while let Some(p) = stack.pop() {
            js.clear();
            board.jumps(p, &mut js);
            for &j in &js {
                let q = apply(p, j);
                if seen.insert(q) {
                    stack.push(q);
                }
            }
        }
        seen
    }

    /// Fewest chain moves by plain breadth-first search (to one peg
    /// anywhere, or on `finish`).
    fn reference_fewest_to(board: &Board, pegs: Cells, finish: Option<u8>) -> Option<usize> {
        let mut dist = HashMap::from([(pegs, 0usize)]);
        let mut queue = VecDeque::from([pegs]);
        let mut cs = Vec::new();
        while let Some(p) = queue.pop_front() {
            let d = dist[&p];
            if p.count_ones() == 1 && finish.is_none_or(|f| p == 1u128 << f) {
                return Some(d);
            }
            cs.clear();
            chains(board, p, None, &mut cs);
            for c in &cs {
                let q = c.apply(p);
                if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(q) {
                    e.insert(d + 1);
                    queue.push_back(q);
                }
            }
        }
        None
    }

    fn reference_fewest(board: &Board, pegs: Cells) -> Option<usize> {
        reference_fewest_to(board, pegs, None)
    }

    #[test]
    fn fewest_moves_to_a_cell_matches_breadth_first_search() {
        let mut rng = Rng(0x0bad_cafe_1234_5678);
        let mut solved = 0;
        for _ in 0..120 {
            let g = random_game(&mut rng);
            let cells: Vec<u8> = crate::games::pegs::rules::cells_of(g.board.cells()).collect();
            let finish = cells[rng.below(cells.len() as u64) as usize];
            let truth = reference_fewest_to(&g.board, g.pegs, Some(finish));
            let f = fewest_moves_to(&g, Some(finish), &Budget::unlimited()).outcome;
            assert_eq!(f.len(), truth, "{} finish {finish}", g.id());
            if let Some(m) = &f.moves {
                assert!(f.proven_optimal);
                let mut p = g.pegs;
                for c in m {
                    p = c.apply(p);
                }
                assert_eq!(p, 1u128 << finish);
                solved += 1;
            } else {
                assert!(f.proven_unsolvable);
            }
        }
        assert!(solved > 10, "only {solved} boards solvable to their cell");
    }

    #[test]
    fn winnability_matches_exhaustive_search_with_every_option_set() {
        each_game(0x9e37_79b9_7f4a_7c15, 30, |g, truth| {
            for opts in [
                SolveOptions::default(),
                options(false, false, false),
                options(true, false, false),
                options(false, true, true),
            ] {
                let o = solve(g, opts, &Budget::unlimited());
                assert_eq!(o.moves.is_some(), truth, "{} {opts:?}", g.id());
                assert_eq!(o.proven_unsolvable, !truth, "{} {opts:?}", g.id());
                if let Some(m) = &o.moves {
                    assert!(wins(&JumpProblem { board: &g.board }, &g.pegs, m));
                }
            }
        });
    }

    /// Plain memoised search: can `pegs` end with exactly `goal` left?
    fn reference_reaches(
        board: &Board,
        pegs: Cells,
        goal: Cells,
        memo: &mut HashMap<Cells, bool>,
    ) -> bool {
        let end = |p: Cells| (p.count_ones() <= goal.count_ones()).then_some(p == goal);
        reference_search(board, pegs, &end, memo)
    }

    #[test]
    fn the_dual_search_matches_exhaustive_search_to_each_cell() {
        // The dual search (jumps on the complement, from the board full
        // but for the target down to exactly the start's holes) with its
        // pagoda functions and dead-peg test, against plain search for a
        // single peg on each cell; a win it finds, played forwards, must
        // end there.
        each_target(0x005e_ed0f_d0a1_2345, |g, t, goal, truth| {
            for opts in [SolveOptions::default(), options(false, false, false)] {
                let mut s = WinSolver::new(&g.board, opts);
                let found = s.decide_dual(g.pegs, t);
                assert_eq!(found.is_some(), truth, "{} to {t} {opts:?}", g.id());
                if let Some(m) = found {
                    let p = JumpProblem { board: &g.board };
                    assert!(wins(&p, &g.pegs, &m), "{} to {t}", g.id());
                    let end = m.iter().fold(g.pegs, |p, &j| apply(p, j));
                    assert_eq!(end, goal, "{} to {t}", g.id());
                }
            }
        });
    }

    #[test]
    fn an_uncut_beam_matches_exhaustive_search_to_each_cell() {
        // With no width limit the beam search (pagoda pruning on) is
        // breadth-first search over the layers: it must find a win on
        // every cell exhaustive search can reach and prove every other
        // one out of reach; a narrow beam's win must still replay there.
        each_target(0x00be_a5ea_4c40_ffee, |g, t, goal, truth| {
            let pagodas = Pagodas::for_target(&g.board, t);
            let p = Aimed::new(&g.board, t, &pagodas);
            for width in [usize::MAX, 2] {
                let o = unlimited_beam(&p, &g.pegs, width);
                if let Some(m) = &o.moves {
                    assert!(truth, "{} to {t}: a win where there is none", g.id());
                    let end = m.iter().fold(g.pegs, |q, &j| apply(q, j));
                    assert!(wins(&p, &g.pegs, m) && end == goal, "{} to {t}", g.id());
                }
                if width == usize::MAX {
                    assert_eq!(o.moves.is_some(), truth, "{} to {t}", g.id());
                    assert_eq!(o.proven_unsolvable, !truth, "{} to {t}", g.id());
                } else if o.moves.is_none() {
                    assert!(!o.proven_unsolvable || !truth, "{} to {t}", g.id());
                }
            }
        });
    }

    #[test]
    fn the_search_for_one_peg_anywhere_matches_exhaustive_search() {
        // The search with no target cell (pagoda functions needing their
        // smallest weight over the cells the position classes allow, the
        // dead-peg test asking for at most one stuck peg, on one of those
        // cells), uncapped, against plain search; a win it finds must
        // replay to one peg.
        each_game(0x0a11_ce11_5eed_0042, 20, |g, truth| {
            for opts in [SolveOptions::default(), options(true, false, false)] {
                let mut s = WinSolver::new(&g.board, opts);
                let found = s.decide_any(g.pegs);
                assert_eq!(found.is_some(), truth, "{} {opts:?}", g.id());
                if let Some(m) = found {
                    let p = JumpProblem { board: &g.board };
                    assert!(wins(&p, &g.pegs, &m), "{}", g.id());
                }
            }
        });
    }

    #[test]
    fn pagoda_pruning_never_prunes_a_winnable_position() {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        let mut pruned_lost = 0;
        for _ in 0..150 {
            let g = random_game(&mut rng);
            let pagodas = Pagodas::for_position(&g.board, g.pegs);
            let mut memo = HashMap::new();
            for p in reachable(&g.board, g.pegs) {
                let w = reference_winnable(&g.board, p, &mut memo);
                if pagodas.prunes(p) {
                    assert!(!w, "{} pruned winnable {p:#x}", g.id());
                    pruned_lost += 1;
                }
            }
        }
        assert!(pruned_lost > 0, "the pagodas never pruned anything");
    }

    #[test]
    fn fewest_moves_matches_breadth_first_search() {
        let mut rng = Rng(0xdead_beef_cafe_f00d);
        let mut solved = 0;
        for _ in 0..120 {
            let g = random_game(&mut rng);
            let truth = reference_fewest(&g.board, g.pegs);
            let f = fewest_moves(&g, &Budget::unlimited()).outcome;
            assert_eq!(f.len(), truth, "{}", g.id());
            if let Some(m) = &f.moves {
                assert!(f.proven_optimal);
                let mut p = g.pegs;
                for c in m {
                    p = c.apply(p);
                }
                assert_eq!(p.count_ones(), 1);
                solved += 1;
            } else {
                assert!(f.proven_unsolvable);
            }
        }
        assert!(solved > 20);
    }
}
