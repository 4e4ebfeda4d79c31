//! Measures IDA* speed (nodes per second) on random 8-puzzle instances
//! with the Manhattan-distance bound:
//! `cargo run --release --example idastar_speed [INSTANCES]`.

use gridbot::solver::{idastar, Budget, Problem};
use std::time::Instant;

/// The 8-puzzle: tile in cell `i` at bits `4i..4i+4` (0 = blank), blank
/// cell in bits 36..40.
struct Eight;

const GOAL: u64 = 0x80_8765_4321;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Slide {
    Up,
    Down,
    Left,
    Right,
}

impl Problem for Eight {
    type State = u64;
    type Move = Slide;
    fn moves(&self, s: &u64, out: &mut Vec<Slide>) {
        let b = (*s >> 36) as u32;
        if b >= 3 {
            out.push(Slide::Up);
        }
        if b < 6 {
            out.push(Slide::Down);
        }
        if !b.is_multiple_of(3) {
            out.push(Slide::Left);
        }
        if b % 3 < 2 {
            out.push(Slide::Right);
        }
    }
    fn apply(&self, s: &u64, mv: Slide) -> u64 {
        let b = (*s >> 36) as u32;
        let t = match mv {
            Slide::Up => b - 3,
            Slide::Down => b + 3,
            Slide::Left => b - 1,
            Slide::Right => b + 1,
        };
        let tile = (*s >> (4 * t)) & 15;
        let board = (*s & !(15u64 << (4 * t)) | (tile << (4 * b))) & !(15u64 << 36);
        board | ((t as u64) << 36)
    }
    fn is_goal(&self, s: &u64) -> bool {
        *s == GOAL
    }
    fn lower_bound(&self, s: &u64) -> u32 {
        let mut d = 0;
        for cell in 0..9u32 {
            let t = ((*s >> (4 * cell)) & 15) as u32;
            if t != 0 {
                let home = t - 1;
                d += (cell / 3).abs_diff(home / 3) + (cell % 3).abs_diff(home % 3);
            }
        }
        d
    }
    fn prune_after(&self, prev: Slide, mv: Slide) -> bool {
        matches!(
            (prev, mv),
            (Slide::Up, Slide::Down)
                | (Slide::Down, Slide::Up)
                | (Slide::Left, Slide::Right)
                | (Slide::Right, Slide::Left)
        )
    }
}

/// CPU time of this thread in seconds (wall time is meaningless on a
/// shared machine).
fn cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2000);
    assert_eq!(Eight.lower_bound(&GOAL), 0);
    // Random walks from the goal (xorshift), so every instance is solvable.
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut starts = Vec::with_capacity(n);
    let mut mv = Vec::new();
    for _ in 0..n {
        let mut s = GOAL;
        for _ in 0..400 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            mv.clear();
            Eight.moves(&s, &mut mv);
            s = Eight.apply(&s, mv[(x % mv.len() as u64) as usize]);
        }
        starts.push(s);
    }
    let t0 = Instant::now();
    let c0 = cpu_seconds();
    let (mut nodes, mut moves) = (0u64, 0usize);
    for s in &starts {
        let o = idastar(&Eight, s, &Budget::unlimited());
        assert!(o.proven_optimal);
        nodes += o.nodes;
        moves += o.len().unwrap();
    }
    let secs = t0.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - c0;
    println!(
        "idastar: {n} instances, mean length {:.2}, {nodes} nodes, {:.3} s CPU ({:.3} s wall) = {:.1} M nodes/s of CPU",
        moves as f64 / n as f64,
        cpu,
        secs,
        nodes as f64 / cpu / 1e6
    );
}
