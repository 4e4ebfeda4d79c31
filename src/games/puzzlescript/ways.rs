//! Distances that go around walls, for the win conditions' estimate: an
//! object can never enter a cell that holds a *fixed* object of its own
//! collision layer ([`super::walk::fixed`]: no rule removes it or moves its
//! layer, and it is not a player object), so the way from one cell to
//! another is the shortest path through the cells it can enter, not the
//! Manhattan distance. The fixed objects are read from the level's start:
//! rules may add more walls later (the distance is then too short, never
//! too long), and a rule may carry an object over a wall (a teleport),
//! which is why the estimate that uses these distances is never called
//! admissible.

use std::cell::RefCell;
use std::collections::VecDeque;

use super::bits::{self, Bits};
use super::compile::Game;
use super::walk::around;

/// What a cell no object of a side can enter costs: as far as the level
/// is wide and high, like a missing object.
pub type Far = usize;

/// The walls of a level, per collision layer, and the last distance maps
/// asked for (the targets of most games never move: their map is made
/// once).
#[derive(Debug)]
pub struct Ways {
    /// The fixed objects ([`super::walk::fixed`]).
    fixed: Bits,
    height: usize,
    cells: usize,
    /// Per cell, the layers a fixed object occupies there.
    walled: Vec<Bits>,
    /// Per side (a mask of objects), the cells none of its objects can
    /// enter.
    blocked: RefCell<Vec<(Bits, Vec<bool>)>>,
    /// The last few maps.
    maps: RefCell<Vec<Map>>,
}

/// A distance map: the side it was made for, the cells it starts from,
/// and the distance of every cell.
type Map = (Bits, Vec<usize>, Vec<usize>);

/// How many distance maps [`Ways`] keeps.
const KEPT: usize = 32;

impl Ways {
    /// The walls of a level whose cells (column-major, `height` a column)
    /// hold `objects` at its start; `fixed` are the game's fixed objects.
    pub fn new(game: &Game, fixed: &[u64], objects: &[u64], height: usize) -> Ways {
        let words = game.object_words.max(1);
        let cells = objects.len() / words;
        let walled = (0..cells)
            .map(|i| {
                let c = &objects[i * words..(i + 1) * words];
                let mut layers = bits::zero(bits::words_for(game.layers));
                for o in bits::ones(c).filter(|&o| o < game.objects.len()) {
                    if bits::get(fixed, o) {
                        bits::set(&mut layers, game.objects[o].layer);
                    }
                }
                layers
            })
            .collect();
        Ways {
            fixed: fixed.into(),
            height: height.max(1),
            cells,
            walled,
            blocked: RefCell::new(Vec::new()),
            maps: RefCell::new(Vec::new()),
        }
    }

    /// The objects of `a` and `b` that can move or go (all of them when
    /// every one is fixed): the side whose walls count on the way
    /// between them.
    pub fn movers(&self, a: &[u64], b: &[u64]) -> Bits {
        let mut both: Bits = a.into();
        bits::or(&mut both, b);
        let moving: Bits = both.iter().zip(&self.fixed).map(|(o, f)| o & !f).collect();
        if bits::is_zero(&moving) {
            both
        } else {
            moving
        }
    }

    /// True when some object of `set` is not fixed (it can move or go).
    pub fn any_changes(&self, set: &[u64]) -> bool {
        set.iter().zip(&self.fixed).any(|(o, f)| o & !f != 0)
    }

    /// The cells no object of `side` can enter: each of its objects'
    /// layers holds a fixed object there.
    fn blocked(&self, game: &Game, side: &[u64]) -> Vec<bool> {
        if let Some((_, b)) = self.blocked.borrow().iter().find(|(s, _)| **s == *side) {
            return b.clone();
        }
        let layers: Vec<usize> = bits::ones(side)
            .filter(|&o| o < game.objects.len())
            .map(|o| game.objects[o].layer)
            .collect();
        let b: Vec<bool> = self
            .walled
            .iter()
            .map(|w| !layers.is_empty() && layers.iter().all(|&l| bits::get(w, l)))
            .collect();
        self.blocked.borrow_mut().push((side.into(), b.clone()));
        b
    }

    /// `f` of the distance of every cell from the nearest of `from`,
    /// walking through cells an object of `side` can enter (`far` where
    /// none of `from` can be reached). The cells of `from` themselves
    /// always count as entered.
    pub fn with_map<R>(
        &self,
        game: &Game,
        side: &[u64],
        from: &[usize],
        far: Far,
        f: impl FnOnce(&[usize]) -> R,
    ) -> R {
        let mut kept = self.maps.borrow_mut();
        let at = kept.iter().position(|(s, c, _)| **s == *side && c == from);
        let k = match at {
            Some(k) => k,
            None => {
                if kept.len() == KEPT {
                    kept.remove(0);
                }
                let dist = self.distances(game, side, from, far);
                kept.push((side.into(), from.to_vec(), dist));
                kept.len() - 1
            }
        };
        f(&kept[k].2)
    }

    /// The distances of [`Ways::with_map`], breadth first.
    fn distances(&self, game: &Game, side: &[u64], from: &[usize], far: Far) -> Vec<usize> {
        let blocked = self.blocked(game, side);
        let mut dist = vec![far; self.cells];
        let mut queue = VecDeque::with_capacity(self.cells);
        for &f in from {
            dist[f] = 0;
            queue.push_back(f);
        }
        while let Some(i) = queue.pop_front() {
            for j in around(i, self.height, self.cells).into_iter().flatten() {
                if dist[j] == far && !blocked[j] && dist[i] + 1 < far {
                    dist[j] = dist[i] + 1;
                    queue.push_back(j);
                }
            }
        }
        dist
    }
}
