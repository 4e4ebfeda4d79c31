//! Breadth-first search by sorted layers, for problems whose every move can
//! be taken back (the state graph is undirected) and whose states pack
//! into small fixed-size keys.
//!
//! In an undirected graph a neighbour of a state at depth `d` lies at depth
//! `d - 1`, `d` or `d + 1`, so a new layer is the successors of the last
//! one less those in the two layers before it: duplicate detection is a
//! sort and a merge against two sorted arrays (delayed duplicate detection,
//! as in Korf's frontier search), not a hash probe per successor. Each
//! layer is a sorted `Vec` of keys and nothing else: no hash table, no
//! parent links (a solution is traced back through the layers, each step
//! a search in the layer before), so a state costs its key's bytes. The
//! successors of a layer are generated in parallel chunks (rayon), each
//! chunk sorted and deduplicated before the chunks are merged.
//!
//! [`layered_bfs`] proves the fewest moves (goals are tested when a layer
//! is made; the layer is completed first, so the node count does not
//! depend on the order of the search) or, when a layer comes out empty,
//! that there is no solution. [`layered_reachable`] counts every state.

use rayon::prelude::*;
use std::borrow::Cow;
use std::mem::size_of;
use std::time::Instant;

use super::bfs::Reachable;
use super::budget::{Budget, BudgetExceeded};
use super::layer_files::{LayerFileError, LayerFiles, LayerKey};
use super::outcome::Outcome;

/// States per parallel chunk of a layer.
const CHUNK: usize = 1 << 12;
/// States per batch of a layer (see `next_layer`).
const BATCH: usize = 1 << 22;

/// A problem whose moves are all reversible, over packed keys.
pub trait LayeredProblem: Sync {
    /// A state, packed: its order is any total order (keys are sorted).
    type Key: LayerKey;
    /// What a solution is made of.
    type Move;

    /// Appends the key of every state one move from `key` (duplicates
    /// allowed). Every move must be reversible: `key` is then among the
    /// successors of each of them.
    fn successors(&self, key: &Self::Key, out: &mut Vec<Self::Key>);

    /// True when `key` is a goal.
    fn is_goal(&self, key: &Self::Key) -> bool;

    /// The move from `from` to `to`, which are one move apart.
    fn move_between(&self, from: &Self::Key, to: &Self::Key) -> Option<Self::Move>;

    /// A lower bound on the moves from `key` to a goal, consistent: one
    /// move lowers it by one at most, and it is 0 on a goal. Only
    /// [`layered_astar`] reads it; the default, 0, prunes nothing.
    fn bound(&self, _key: &Self::Key) -> u32 {
        0
    }

    /// Appends the successors of `key` whose [`Self::bound`] is at most
    /// `most`, and returns the least bound of those left out. A problem
    /// that knows a child's bound while making it may do this without
    /// unpacking the child again.
    fn successors_within(
        &self,
        key: &Self::Key,
        most: u32,
        out: &mut Vec<Self::Key>,
    ) -> Option<u32> {
        let from = out.len();
        self.successors(key, out);
        let mut left_out = None;
        let mut kept = from;
        for i in from..out.len() {
            let b = self.bound(&out[i]);
            if b <= most {
                out[kept] = out[i];
                kept += 1;
            } else {
                left_out = least(left_out, Some(b));
            }
        }
        out.truncate(kept);
        left_out
    }
}

/// How a layered walk ended.
enum End<K> {
    /// A goal was found in the layer of this depth (the first in key order).
    Goal(u32, K),
    /// A layer came out empty: every reachable state is in the layers.
    Exhausted,
    /// A budget ran out while the layer of this depth was being expanded.
    Stopped(u32, BudgetExceeded),
}

/// The sorted layers of a walk: all in memory, or in a folder with only
/// the last two in memory.
struct Layers<'f, K> {
    /// Each layer, `None` when it is only in its file.
    mem: Vec<Option<Vec<K>>>,
    /// Each layer's size.
    lens: Vec<u64>,
    files: Option<&'f LayerFiles>,
    /// New layers are written to the folder (not when a limit prunes them:
    /// the folder holds whole layers only).
    write: bool,
}

impl<K: LayerKey> Layers<'_, K> {
    /// Adds the next layer (written to its file first, when there is a
    /// folder; the layer two back then leaves memory).
    fn push(&mut self, layer: Vec<K>) -> Result<(), LayerFileError> {
        let depth = self.mem.len();
        if let Some(files) = self.files.filter(|_| self.write) {
            files.write(depth, &layer)?;
            if depth >= 2 {
                self.mem[depth - 2] = None;
            }
        }
        self.lens.push(layer.len() as u64);
        self.mem.push(Some(layer));
        Ok(())
    }

    /// The layer of `depth`, read back from its file if need be.
    fn get(&self, depth: usize) -> Result<Cow<'_, [K]>, LayerFileError> {
        match (&self.mem[depth], self.files) {
            (Some(layer), _) => Ok(Cow::Borrowed(layer)),
            (None, Some(files)) => Ok(Cow::Owned(files.read(depth)?)),
            (None, None) => unreachable!("a layer leaves memory only for its file"),
        }
    }

    /// Bytes of the layers in memory.
    fn held(&self) -> usize {
        let keys: usize = self.mem.iter().flatten().map(|l| l.len()).sum();
        keys * size_of::<K>()
    }

    /// The layers of a walk from `start`: the folder's, when it holds some
    /// (the first must be `start`), else `start` alone.
    fn resume(
        start: K,
        files: Option<&LayerFiles>,
        write: bool,
    ) -> Result<Layers<'_, K>, LayerFileError> {
        let mut layers = Layers {
            mem: Vec::new(),
            lens: Vec::new(),
            files,
            write,
        };
        let count = files.map_or(0, LayerFiles::count);
        let Some(f) = files.filter(|_| count > 0) else {
            layers.push(vec![start])?;
            return Ok(layers);
        };
        if f.read::<K>(0)? != [start] {
            return Err(LayerFileError::Other(
                f.dir().to_path_buf(),
                "another start".into(),
            ));
        }
        for depth in 0..count {
            layers.lens.push(f.len_of::<K>(depth)?);
            let recent = depth + 2 >= count;
            layers
                .mem
                .push(if recent { Some(f.read(depth)?) } else { None });
        }
        log::info!(
            "resumed after layer {} from {}",
            count - 1,
            f.dir().display()
        );
        Ok(layers)
    }
}

/// How a walk ended, and its layers.
struct Walk<'f, K> {
    layers: Layers<'f, K>,
    end: End<K>,
    /// States expanded (the layers before the last).
    nodes: u64,
    /// Of those, the states of the layers read from the folder.
    resumed: u64,
    /// The least depth plus bound of a state left out by the walk's limit.
    pruned: Option<u32>,
}

/// What a layer's walk keeps: every state, or only those whose depth
/// plus [`LayeredProblem::bound`] is at most a limit.
#[derive(Clone, Copy)]
struct Keep {
    /// The depth of the layer being made.
    depth: u32,
    /// The limit, when there is one.
    limit: Option<u32>,
}

/// A shortest solution from `start`, or the proof that there is none.
pub fn layered_bfs<P: LayeredProblem>(
    problem: &P,
    start: P::Key,
    budget: &Budget,
) -> Outcome<P::Move> {
    match layered_bfs_saved(problem, start, budget, None) {
        Ok(outcome) => outcome,
        Err(e) => unreachable!("a search without a folder writes no file: {e}"),
    }
}

/// [`layered_bfs`] with its layers in `files`, when given: only the last
/// two layers are held in memory, and a search stopped (by its budget, or
/// killed) goes on from its last whole layer when run again on the same
/// folder.
pub fn layered_bfs_saved<P: LayeredProblem>(
    problem: &P,
    start: P::Key,
    budget: &Budget,
    files: Option<&LayerFiles>,
) -> Result<Outcome<P::Move>, LayerFileError> {
    let t0 = Instant::now();
    let walk = walk(problem, start, budget, (true, None), files)?;
    Ok(match walk.end {
        End::Goal(depth, goal) => match trace(problem, &walk.layers, depth, goal)? {
            Some(path) => Outcome::optimal(path, walk.nodes, t0.elapsed()),
            None => unreachable!("a goal in layer {depth} has a parent in the layer before"),
        },
        End::Exhausted => Outcome::unsolvable(walk.nodes, t0.elapsed()),
        End::Stopped(depth, why) => {
            Outcome::stopped(None, depth + 1, why, walk.nodes, t0.elapsed())
        }
    })
}

/// A shortest solution from `start`, or the proof that there is none, by
/// layered walks that keep only states whose depth plus
/// [`LayeredProblem::bound`] is within a limit: the first walk's limit is
/// the start's bound, each next one the least depth plus bound a walk left
/// out (as IDA* raises its threshold), so every walk but the last proves
/// the minimum above its limit. `from` raises the first limit: a walk
/// within any limit at or above the minimum finds it, proven (every state
/// of a shortest solution is within it), so a guess too high costs time,
/// never the proof. A consistent bound keeps every state of a shortest
/// solution within the limit of the last walk, and a layer still needs
/// only the two before it for its duplicates: a state left out of an
/// earlier layer is left out again at any later depth.
pub fn layered_astar<P: LayeredProblem>(
    problem: &P,
    start: P::Key,
    budget: &Budget,
    from: u32,
) -> Outcome<P::Move> {
    match layered_astar_saved(problem, start, budget, from, None) {
        Ok(outcome) => outcome,
        Err(e) => unreachable!("a search without a folder reads no file: {e}"),
    }
}

/// [`layered_astar`] whose walks start from the whole layers a
/// [`layered_bfs_saved`] search left in `files` (read, never written):
/// whole layers are supersets of a walk's, so its layers after them are
/// still exact, and a limit a few moves past the last whole layer cuts
/// almost everything.
pub fn layered_astar_saved<P: LayeredProblem>(
    problem: &P,
    start: P::Key,
    budget: &Budget,
    from: u32,
    files: Option<&LayerFiles>,
) -> Result<Outcome<P::Move>, LayerFileError> {
    let t0 = Instant::now();
    // `proven`: the minimum is at least this (the whole layers hold no
    // goal, or the first walk returns it); `limit` may be a guess.
    let whole = files.map_or(0, LayerFiles::count) as u32;
    let mut proven = problem.bound(&start).max(whole);
    let mut limit = proven.max(from);
    // The whole layers are expanded once; each walk's own layers count.
    let mut walked = 0;
    loop {
        let walk = walk(problem, start, budget, (true, Some(limit)), files)?;
        walked += walk.nodes - walk.resumed;
        let nodes = walk.resumed + walked;
        match (walk.end, walk.pruned) {
            (End::Goal(depth, goal), _) => {
                return match trace(problem, &walk.layers, depth, goal)? {
                    Some(path) => Ok(Outcome::optimal(path, nodes, t0.elapsed())),
                    None => {
                        unreachable!("a goal in layer {depth} has a parent in the layer before")
                    }
                };
            }
            (End::Exhausted, None) => return Ok(Outcome::unsolvable(nodes, t0.elapsed())),
            (End::Exhausted, Some(next)) => {
                log::info!("no solution within {limit} moves; next limit {next}");
                (proven, limit) = (next, next);
            }
            (End::Stopped(depth, why), _) => {
                // Layers 0 to `depth` are made: a minimum within the limit
                // would have shown in them.
                let bound = proven.max(limit.min(depth) + 1);
                return Ok(Outcome::stopped(None, bound, why, nodes, t0.elapsed()));
            }
        }
    }
}

/// Counts the states reachable from `start`, as
/// [`super::count_reachable`] does (goals counted and expanded like any
/// other state).
pub fn layered_reachable<P: LayeredProblem>(
    problem: &P,
    start: P::Key,
    budget: &Budget,
) -> Reachable {
    let walk = match walk(problem, start, budget, (false, None), None) {
        Ok(walk) => walk,
        Err(e) => unreachable!("a walk without a folder writes no file: {e}"),
    };
    let layers = walk.layers.mem.iter().flatten();
    let goals = layers
        .map(|l| l.par_iter().filter(|k| problem.is_goal(k)).count() as u64)
        .sum();
    let lens = &walk.layers.lens;
    let last = lens.iter().rposition(|&l| l > 0).unwrap_or(0);
    let stopped = match walk.end {
        End::Stopped(_, why) => Some(why),
        _ => None,
    };
    Reachable {
        states: lens.iter().sum(),
        max_depth: last as u32,
        exhausted: stopped.is_none(),
        goals,
        stopped,
    }
}

/// Builds the layers from `start` (or from the folder's last layers) until
/// a goal (when `stop_at_goal`), an empty layer or the budget, keeping
/// only states within `limit` (see [`Keep`]) when there is one.
fn walk<'f, P: LayeredProblem>(
    problem: &P,
    start: P::Key,
    budget: &Budget,
    (stop_at_goal, limit): (bool, Option<u32>),
    files: Option<&'f LayerFiles>,
) -> Result<Walk<'f, P::Key>, LayerFileError> {
    let mut layers = Layers::resume(start, files, limit.is_none())?;
    let mut depth = layers.lens.len() - 1;
    let mut nodes: u64 = layers.lens[..depth].iter().sum();
    let resumed = nodes;
    let mut pruned = None;
    let last_goal = |layers: &Layers<P::Key>, depth: usize| -> Result<_, LayerFileError> {
        let layer = layers.get(depth)?;
        Ok(stop_at_goal
            .then(|| layer.iter().find(|k| problem.is_goal(k)).copied())
            .flatten())
    };
    let end = loop {
        if let Some(goal) = last_goal(&layers, depth)? {
            break End::Goal(depth as u32, goal);
        }
        if layers.lens[depth] == 0 {
            break End::Exhausted;
        }
        let held = layers.held();
        if let Err(why) = budget.check_nodes(nodes, held) {
            break End::Stopped(depth as u32, why);
        }
        let before = if depth > 0 {
            layers.get(depth - 1)?
        } else {
            Cow::Borrowed(&[][..])
        };
        let current = layers.get(depth)?;
        let keep = Keep {
            depth: depth as u32 + 1,
            limit,
        };
        let (next, left_out) = match next_layer(problem, (&before, &current), budget, held, keep) {
            Ok(next) => next,
            Err(why) => break End::Stopped(depth as u32, why),
        };
        pruned = least(pruned, left_out);
        nodes += current.len() as u64;
        drop((before, current));
        log::info!(
            "layer {}: {} states; {nodes} expanded; {:.1} s",
            depth + 1,
            next.len(),
            budget.elapsed().as_secs_f64()
        );
        layers.push(next)?;
        depth += 1;
    };
    Ok(Walk {
        layers,
        end,
        nodes,
        resumed,
        pruned,
    })
}

/// The successors of `chunk`, sorted, without repeats and without those
/// `keep` leaves out; and the least depth plus bound of those left out.
fn chunk_successors<P: LayeredProblem>(
    problem: &P,
    chunk: &[P::Key],
    keep: Keep,
) -> (Vec<P::Key>, Option<u32>) {
    let mut out = Vec::new();
    let mut left_out = None;
    for key in chunk {
        match keep.limit {
            None => problem.successors(key, &mut out),
            Some(limit) => {
                let most = limit.saturating_sub(keep.depth);
                let out_bound = problem.successors_within(key, most, &mut out);
                left_out = least(left_out, out_bound.map(|b| b + keep.depth));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    (out, left_out)
}

/// The layer after `current`: its successors, sorted, without repeats and
/// without those in `before` or `current` or left out by `keep` (the
/// least depth plus bound of those comes second). `held` is what the
/// layers take. The layer is expanded in batches, each batch's successors
/// reduced to its new states before the next batch is expanded, so the
/// raw successors of only one batch are held at a time.
fn next_layer<P: LayeredProblem>(
    problem: &P,
    (before, current): (&[P::Key], &[P::Key]),
    budget: &Budget,
    held: usize,
    keep: Keep,
) -> Result<(Vec<P::Key>, Option<u32>), BudgetExceeded> {
    let mut parts: Vec<Vec<P::Key>> = Vec::new();
    let mut kept = 0usize;
    let mut left_out: Option<u32> = None;
    for batch in current.chunks(BATCH) {
        let chunks: Vec<(Vec<P::Key>, Option<u32>)> = batch
            .par_chunks(CHUNK)
            .map(|chunk| {
                if budget.time_up() {
                    return (Vec::new(), None);
                }
                chunk_successors(problem, chunk, keep)
            })
            .collect();
        let generated: usize = chunks.iter().map(|c| c.0.capacity()).sum();
        budget.check(held + (kept + 2 * generated) * size_of::<P::Key>())?;
        let mut new = Vec::with_capacity(chunks.iter().map(|c| c.0.len()).sum());
        for (keys, out) in chunks {
            new.extend_from_slice(&keys);
            left_out = least(left_out, out);
        }
        new.par_sort_unstable();
        new.dedup();
        retain_absent(&mut new, before);
        retain_absent(&mut new, current);
        new.shrink_to_fit();
        kept += new.len();
        parts.push(new);
    }
    budget.check(held + 2 * kept * size_of::<P::Key>())?;
    let mut next = parts.concat();
    drop(parts);
    next.par_sort_unstable();
    next.dedup();
    Ok((next, left_out))
}

/// The lesser of two values, either of which may be missing: how a
/// [`LayeredProblem::successors_within`] keeps the least bound it left out.
pub fn least(a: Option<u32>, b: Option<u32>) -> Option<u32> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        _ => a.or(b),
    }
}

/// Removes from the sorted `keys` those in the sorted `other`, by a merge.
fn retain_absent<K: Ord>(keys: &mut Vec<K>, other: &[K]) {
    let mut j = 0;
    keys.retain(|k| {
        while j < other.len() && other[j] < *k {
            j += 1;
        }
        j >= other.len() || other[j] != *k
    });
}

/// The moves from the start to `goal` in layer `depth`: each step back
/// finds a successor of the state in the layer before.
fn trace<P: LayeredProblem>(
    problem: &P,
    layers: &Layers<P::Key>,
    depth: u32,
    goal: P::Key,
) -> Result<Option<Vec<P::Move>>, LayerFileError> {
    let mut path = Vec::with_capacity(depth as usize);
    let mut at = goal;
    let mut around = Vec::new();
    for d in (0..depth as usize).rev() {
        around.clear();
        problem.successors(&at, &mut around);
        let layer = layers.get(d)?;
        let Some(&parent) = around.iter().find(|k| layer.binary_search(k).is_ok()) else {
            return Ok(None);
        };
        let Some(mv) = problem.move_between(&parent, &at) else {
            return Ok(None);
        };
        path.push(mv);
        at = parent;
    }
    path.reverse();
    Ok(Some(path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::bfs::bfs;
    use crate::solver::problem::wins;
    use crate::solver::testing::Rng;
    use crate::solver::{count_reachable, Keyed, Problem};

    /// A random undirected graph on `n` vertices: `edges[v]` its
    /// neighbours; goal: the vertices in `goals`.
    struct Graph {
        edges: Vec<Vec<u32>>,
        goals: Vec<u32>,
    }

    impl Graph {
        fn random(rng: &mut Rng, n: u32) -> Graph {
            let mut edges = vec![Vec::new(); n as usize];
            for _ in 0..n + rng.below(n as u64) as u32 {
                let (a, b) = (rng.below(n as u64) as u32, rng.below(n as u64) as u32);
                edges[a as usize].push(b);
                edges[b as usize].push(a);
            }
            let goals = (0..1 + rng.below(3))
                .map(|_| rng.below(n as u64) as u32)
                .collect();
            Graph { edges, goals }
        }
    }

    impl LayeredProblem for Graph {
        type Key = u32;
        type Move = u32;
        fn successors(&self, key: &u32, out: &mut Vec<u32>) {
            out.extend(&self.edges[*key as usize]);
        }
        fn is_goal(&self, key: &u32) -> bool {
            self.goals.contains(key)
        }
        fn move_between(&self, from: &u32, to: &u32) -> Option<u32> {
            self.edges[*from as usize].contains(to).then_some(*to)
        }
    }

    impl Problem for Graph {
        type State = u32;
        type Move = u32;
        fn moves(&self, s: &u32, out: &mut Vec<u32>) {
            out.extend(&self.edges[*s as usize]);
        }
        fn apply(&self, _: &u32, mv: u32) -> u32 {
            mv
        }
        fn is_goal(&self, s: &u32) -> bool {
            self.goals.contains(s)
        }
    }

    impl Keyed for Graph {
        type Key = u32;
        fn key(&self, s: &u32) -> u32 {
            *s
        }
    }

    #[test]
    fn agrees_with_the_hashed_search_on_random_graphs() {
        let mut rng = Rng::new(11);
        let (mut solved, mut unsolvable) = (0, 0);
        for i in 0..400 {
            let n = 2 + rng.below(40) as u32;
            let g = Graph::random(&mut rng, n);
            let start = rng.below(g.edges.len() as u64) as u32;
            let plain = bfs(&g, &start, &Budget::unlimited());
            let ours = layered_bfs(&g, start, &Budget::unlimited());
            assert_eq!(ours.len(), plain.len(), "graph {i}");
            assert_eq!(ours.proven_unsolvable, plain.proven_unsolvable, "graph {i}");
            if let Some(m) = &ours.moves {
                assert!(ours.proven_optimal && wins(&g, &start, m), "graph {i}");
                solved += 1;
            } else {
                unsolvable += 1;
            }
            let r = count_reachable(&g, &start, &Budget::unlimited());
            assert_eq!(
                layered_reachable(&g, start, &Budget::unlimited()),
                r,
                "graph {i}"
            );
        }
        assert!(solved > 200 && unsolvable > 20, "{solved} {unsolvable}");
    }

    /// `graph` with half the distance to its nearest goal as the bound:
    /// consistent (neighbours' distances differ by one at most).
    struct Halved {
        graph: Graph,
        dist: Vec<u32>,
    }

    impl Halved {
        fn new(graph: Graph) -> Halved {
            let mut dist = vec![u32::MAX; graph.edges.len()];
            let mut queue: std::collections::VecDeque<u32> = graph.goals.iter().copied().collect();
            graph.goals.iter().for_each(|&g| dist[g as usize] = 0);
            while let Some(v) = queue.pop_front() {
                for &n in &graph.edges[v as usize] {
                    if dist[n as usize] == u32::MAX {
                        dist[n as usize] = dist[v as usize] + 1;
                        queue.push_back(n);
                    }
                }
            }
            // Cut off from every goal: any constant is consistent there.
            let dist = dist
                .into_iter()
                .map(|d| if d == u32::MAX { 0 } else { d / 2 })
                .collect();
            Halved { graph, dist }
        }
    }

    impl LayeredProblem for Halved {
        type Key = u32;
        type Move = u32;
        fn successors(&self, key: &u32, out: &mut Vec<u32>) {
            self.graph.successors(key, out)
        }
        fn is_goal(&self, key: &u32) -> bool {
            self.graph.goals.contains(key)
        }
        fn move_between(&self, from: &u32, to: &u32) -> Option<u32> {
            self.graph.move_between(from, to)
        }
        fn bound(&self, key: &u32) -> u32 {
            self.dist[*key as usize]
        }
    }

    #[test]
    fn walks_within_a_limit_find_the_same_minimum() {
        let dir = std::env::temp_dir().join(format!("gridbot-astar-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut rng = Rng::new(17);
        let (mut solved, mut cut) = (0, 0);
        for i in 0..300 {
            let n = 2 + rng.below(60) as u32;
            let h = Halved::new(Graph::random(&mut rng, n));
            let start = rng.below(n as u64) as u32;
            let plain = bfs(&h.graph, &start, &Budget::unlimited());
            let from = rng.below(12) as u32;
            let o = layered_astar(&h, start, &Budget::unlimited(), from);
            assert_eq!(o.len(), plain.len(), "graph {i} from {from}");
            assert_eq!(o.proven_unsolvable, plain.proven_unsolvable, "graph {i}");
            if let Some(m) = &o.moves {
                assert!(o.proven_optimal && wins(&h.graph, &start, m), "graph {i}");
                solved += 1;
                cut += usize::from(o.nodes < plain.nodes);
            }
            // From whole layers a breadth-first search left in a folder.
            let what = format!("graph {i}");
            let files = LayerFiles::open(&dir.join(&what), &what).unwrap();
            let stop = Budget::unlimited().with_node_limit(rng.below(8));
            let first = layered_bfs_saved(&h, start, &stop, Some(&files)).unwrap();
            let kept = files.count();
            let again = layered_astar_saved(&h, start, &Budget::unlimited(), from, Some(&files));
            let again = again.unwrap();
            assert_eq!(again.len(), plain.len(), "{what}: saved");
            assert_eq!(again.proven_unsolvable, plain.proven_unsolvable, "{what}");
            assert_eq!(files.count(), kept, "{what}: nothing written");
            if first.stopped.is_some() {
                assert!(again.lower_bound >= first.lower_bound, "{what}");
            }
        }
        assert!(solved > 150 && cut > 10, "{solved} {cut}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A path 0 - 1 - ... - 99, the goal at its end.
    fn path_to_99() -> Graph {
        Graph {
            edges: (0..100u32)
                .map(|v| {
                    [v.checked_sub(1), (v < 99).then_some(v + 1)]
                        .into_iter()
                        .flatten()
                        .collect()
                })
                .collect(),
            goals: vec![99],
        }
    }

    #[test]
    fn a_stopped_walk_claims_only_what_it_proved() {
        // With no bound, a guessed first limit proves nothing when the
        // walk is stopped.
        let g = path_to_99();
        let o = layered_astar(&g, 0, &Budget::unlimited().with_node_limit(10), 200);
        assert_eq!(o.stopped, Some(BudgetExceeded::Nodes));
        assert_eq!(o.lower_bound, 11);
        let o = layered_astar(&g, 0, &Budget::unlimited(), 200);
        assert_eq!(o.len(), Some(99));
    }

    #[test]
    fn a_node_limit_stops_it_with_a_bound() {
        let g = path_to_99();
        let o = layered_bfs(&g, 0, &Budget::unlimited().with_node_limit(10));
        assert_eq!(o.stopped, Some(BudgetExceeded::Nodes));
        assert!(o.moves.is_none());
        assert_eq!(o.lower_bound, 11);
        let o = layered_bfs(&g, 0, &Budget::unlimited());
        assert_eq!((o.len(), o.nodes), (Some(99), 99));
    }

    #[test]
    fn a_search_in_a_folder_resumes_where_it_stopped() {
        let dir = std::env::temp_dir().join(format!("gridbot-layered-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut rng = Rng::new(5);
        let mut resumed = 0;
        for i in 0..60 {
            let n = 20 + rng.below(30) as u32;
            let g = Graph::random(&mut rng, n);
            let start = rng.below(n as u64) as u32;
            let whole = layered_bfs(&g, start, &Budget::unlimited());
            let what = format!("graph {i}");
            let files = LayerFiles::open(&dir.join(&what), &what).unwrap();
            let stop = Budget::unlimited().with_node_limit(1 + rng.below(6));
            let first = layered_bfs_saved(&g, start, &stop, Some(&files)).unwrap();
            let again = layered_bfs_saved(&g, start, &Budget::unlimited(), Some(&files)).unwrap();
            assert_eq!(
                (again.len(), again.nodes),
                (whole.len(), whole.nodes),
                "{what}"
            );
            assert_eq!(again.proven_unsolvable, whole.proven_unsolvable, "{what}");
            if let Some(m) = &again.moves {
                assert!(wins(&g, &start, m), "{what}");
            }
            resumed += usize::from(first.stopped.is_some());
            let other = layered_bfs_saved(&g, start ^ 1, &Budget::unlimited(), Some(&files));
            assert!(matches!(other, Err(LayerFileError::Other(..))), "{what}");
        }
        assert!(resumed > 20, "{resumed}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn merge_removes_exactly_the_common_keys() {
        let mut keys = vec![1, 3, 4, 7, 9];
        retain_absent(&mut keys, &[0, 3, 5, 9, 12]);
        assert_eq!(keys, vec![1, 4, 7]);
    }
}
