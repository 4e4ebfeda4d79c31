//! Test-only reference: a plain search on text grids, written without the
//! packed positions or bitboards, to check the specialised searches
//! against. It finds the fewest moves and, among those, the fewest steps
//! (Dijkstra on the pair), or `None` after exhausting the cluster.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// Every grid one move from `grid` (side `n`) with that move's steps.
fn neighbours(grid: &[u8], n: usize) -> Vec<(Vec<u8>, u32)> {
    let mut out = Vec::new();
    let mut letters: Vec<u8> = grid
        .iter()
        .copied()
        .filter(u8::is_ascii_uppercase)
        .collect();
    letters.sort_unstable();
    letters.dedup();
    for l in letters {
        let cells: Vec<usize> = (0..n * n).filter(|&i| grid[i] == l).collect();
        let horizontal = cells[1] == cells[0] + 1;
        let (dr, dc): (isize, isize) = if horizontal { (0, 1) } else { (1, 0) };
        for sign in [-1isize, 1] {
            let mut g = grid.to_vec();
            let mut dist = 0;
            loop {
                // Shift the piece one cell in direction sign.
                let mut moved = Vec::new();
                let mut ok = true;
                for &c in cells.iter() {
                    let (r, col) = ((c / n) as isize, (c % n) as isize);
                    let (r2, c2) = (r + sign * (dist + 1) * dr, col + sign * (dist + 1) * dc);
                    if r2 < 0 || c2 < 0 || r2 >= n as isize || c2 >= n as isize {
                        ok = false;
                        break;
                    }
                    moved.push(r2 as usize * n + c2 as usize);
                }
                if !ok || moved.iter().any(|&m| grid[m] != b'o' && grid[m] != l) {
                    break;
                }
                dist += 1;
                for &c in &cells {
                    g[c] = b'o';
                }
                for &m in &moved {
                    g[m] = l;
                }
                out.push((g.clone(), dist as u32));
                g = grid.to_vec();
            }
        }
    }
    out
}

/// True when `A` touches the right edge.
fn solved(grid: &[u8], n: usize) -> bool {
    (0..n).any(|r| grid[r * n + n - 1] == b'A')
}

/// Fewest (moves, steps) from `text` (side `n`, `o` empty), or `None`.
pub fn solve(text: &str, n: usize) -> Option<(u32, u32)> {
    let start = text.as_bytes().to_vec();
    let mut best: HashMap<Vec<u8>, (u32, u32)> = HashMap::new();
    let mut heap = BinaryHeap::new();
    best.insert(start.clone(), (0, 0));
    heap.push(Reverse(((0u32, 0u32), start)));
    while let Some(Reverse((cost, g))) = heap.pop() {
        if best.get(&g) != Some(&cost) {
            continue;
        }
        if solved(&g, n) {
            return Some(cost);
        }
        for (next, s) in neighbours(&g, n) {
            let c = (cost.0 + 1, cost.1 + s);
            if best.get(&next).is_none_or(|&b| c < b) {
                best.insert(next.clone(), c);
                heap.push(Reverse((c, next)));
            }
        }
    }
    None
}

/// A random board of side `n` from a xorshift `seed`: the primary piece
/// in a random row, then up to `tries` random pieces where they fit.
pub fn random_board(n: usize, seed: &mut u64, tries: usize) -> String {
    let mut rnd = |m: usize| {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        (*seed % m as u64) as usize
    };
    let mut g = vec![b'o'; n * n];
    let r = rnd(n);
    let c = rnd(n - 1);
    g[r * n + c] = b'A';
    g[r * n + c + 1] = b'A';
    let mut label = b'B';
    for _ in 0..tries {
        let len = 2 + rnd(2);
        let horizontal = rnd(2) == 0;
        let (r, c) = if horizontal {
            (rnd(n), rnd(n + 1 - len))
        } else {
            (rnd(n + 1 - len), rnd(n))
        };
        let cells = super::generate::piece_cells(n, (r, c), len, horizontal);
        if cells.iter().all(|&i| g[i] == b'o') {
            for i in cells {
                g[i] = label;
            }
            label += 1;
        }
    }
    String::from_utf8(g).unwrap()
}
