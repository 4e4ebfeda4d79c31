//! The region graph of a board: cells merged into maximal same-colour
//! regions (4-connected), with region adjacency. Built once per board;
//! searches work on sets of regions, never on cells.

use super::board::Board;
use crate::solver::Bits;

/// Regions of a board and their adjacency.
#[derive(Debug, Clone)]
pub struct RegionGraph {
    /// Region id of each cell, row-major.
    pub region_of: Vec<u16>,
    /// Colour of each region.
    pub colour: Vec<u8>,
    /// Sorted neighbour lists.
    pub neighbours: Vec<Vec<u16>>,
    /// The region holding the start cell.
    pub start: usize,
    /// Number of colours of the board's palette.
    pub colours: u8,
}

impl RegionGraph {
    /// Builds the graph of `board` (flood fill, then adjacency).
    pub fn new(board: &Board) -> Self {
        let (w, h) = (board.width(), board.height());
        let cells = board.cells();
        let mut region_of = vec![u16::MAX; w * h];
        let mut colour = Vec::new();
        let mut stack = Vec::new();
        for s in 0..w * h {
            if region_of[s] != u16::MAX {
                continue;
            }
            let id = colour.len() as u16;
            colour.push(cells[s]);
            region_of[s] = id;
            stack.push(s);
            while let Some(i) = stack.pop() {
                for j in board.neighbours(i) {
                    if region_of[j] == u16::MAX && cells[j] == cells[s] {
                        region_of[j] = id;
                        stack.push(j);
                    }
                }
            }
        }
        let mut neighbours = vec![Vec::new(); colour.len()];
        for i in 0..w * h {
            let (r, c) = (i / w, i % w);
            let a = region_of[i];
            let mut link = |j: usize| {
                let b = region_of[j];
                if a != b {
                    neighbours[a as usize].push(b);
                    neighbours[b as usize].push(a);
                }
            };
            if c + 1 < w {
                link(i + 1);
            }
            if r + 1 < h {
                link(i + w);
            }
        }
        for n in &mut neighbours {
            n.sort_unstable();
            n.dedup();
        }
        let (sr, sc) = board.start();
        let start = region_of[sr * w + sc] as usize;
        RegionGraph {
            region_of,
            colour,
            neighbours,
            start,
            colours: board.colours(),
        }
    }

    /// Number of regions.
    pub fn len(&self) -> usize {
        self.colour.len()
    }

    /// Always false: a board has at least one cell.
    pub fn is_empty(&self) -> bool {
        self.colour.is_empty()
    }
}

/// The region graph as bitsets of `N` words, for the searches.
#[derive(Debug, Clone)]
pub struct BitGraph<const N: usize> {
    /// Neighbour set of each region, padded with empty sets to `64 * N`
    /// entries so that any bit of a `Bits<N>` indexes it without a bounds
    /// check (see [`BitGraph::or_neighbours`]).
    pub nbr: Vec<Bits<N>>,
    /// Regions of each colour (entries past `colours` are empty; a fixed
    /// array so the bounds' inner loops index it without checks).
    pub by_colour: [Bits<N>; 16],
    /// Colour of each region.
    pub colour: Vec<u8>,
    /// All regions.
    pub all: Bits<N>,
    /// The start region.
    pub start: usize,
    /// Palette size.
    pub colours: usize,
}

impl<const N: usize> BitGraph<N> {
    /// Converts `g`; panics if it has more than `64 * N` regions.
    pub fn new(g: &RegionGraph) -> Self {
        assert!(g.len() <= Bits::<N>::CAPACITY);
        let mut nbr: Vec<Bits<N>> = g
            .neighbours
            .iter()
            .map(|ns| {
                let mut b = Bits::new();
                for &n in ns {
                    b.insert(n as usize);
                }
                b
            })
            .collect();
        nbr.resize(Bits::<N>::CAPACITY, Bits::new());
        let mut by_colour = [Bits::new(); 16];
        for (r, &c) in g.colour.iter().enumerate() {
            by_colour[c as usize].insert(r);
        }
        BitGraph {
            nbr,
            by_colour,
            colour: g.colour.clone(),
            all: Bits::first_n(g.len()),
            start: g.start,
            colours: g.colours as usize,
        }
    }

    /// Union of the neighbour sets of the regions in `set`.
    #[inline]
    pub fn neighbours_of(&self, set: &Bits<N>) -> Bits<N> {
        let mut r = Bits::new();
        self.or_neighbours(set, &mut r);
        r
    }

    /// `acc |= neighbours of the regions in set` (the innermost loop of the
    /// bounds, written word by word).
    #[inline]
    pub fn or_neighbours(&self, set: &Bits<N>, acc: &mut Bits<N>) {
        // One checked slice of exactly `64 * N` entries; `wi < N` and the
        // bit index is masked to `< 64`, so the compiler drops the checks
        // in the loop.
        let nbr = &self.nbr[..Bits::<N>::CAPACITY];
        for (wi, &word) in set.0.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                let i = wi * 64 + (w.trailing_zeros() as usize & 63);
                w &= w - 1;
                let n = &nbr[i];
                for k in 0..N {
                    acc.0[k] |= n.0[k];
                }
            }
        }
    }

    /// The start state: the flooded set (start region) and its border.
    pub fn start_state(&self) -> (Bits<N>, Bits<N>) {
        let mut f = Bits::new();
        f.insert(self.start);
        (f, self.nbr[self.start])
    }

    /// Plays colour `c` on flooded set `f` with border `b` (the regions
    /// adjacent to `f`), returning the new flooded set and border.
    #[inline]
    pub fn play(&self, f: &Bits<N>, b: &Bits<N>, c: u8) -> (Bits<N>, Bits<N>) {
        let taken = b.and(&self.by_colour[c as usize]);
        let nf = f.or(&taken);
        let nb = b
            .and_not(&taken)
            .or(&self.neighbours_of(&taken).and_not(&nf));
        (nf, nb)
    }

    /// Bitmask of colours that still have regions outside `f`.
    #[inline]
    pub fn colours_left(&self, f: &Bits<N>) -> u32 {
        let mut m = 0u32;
        for (c, bc) in self.by_colour[..self.colours].iter().enumerate() {
            if !bc.is_subset(f) {
                m |= 1 << c;
            }
        }
        m
    }

    /// Bitmask of colours present in `set`.
    #[inline]
    pub fn colours_in(&self, set: &Bits<N>) -> u32 {
        let mut m = 0u32;
        for (c, bc) in self.by_colour[..self.colours].iter().enumerate() {
            if bc.intersects(set) {
                m |= 1 << c;
            }
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_and_adjacency() {
        // 0 0 1
        // 2 0 1
        let b = Board::new(3, 2, 3, vec![0, 0, 1, 2, 0, 1]);
        let g = RegionGraph::new(&b);
        assert_eq!(g.len(), 3);
        assert_eq!(g.region_of, vec![0, 0, 1, 2, 0, 1]);
        assert_eq!(g.neighbours[0], vec![1, 2]);
        assert_eq!(g.neighbours[1], vec![0]);
        let bg = BitGraph::<1>::new(&g);
        let (f, bd) = bg.start_state();
        let (f2, b2) = bg.play(&f, &bd, 1);
        assert_eq!(f2.iter().collect::<Vec<_>>(), vec![0, 1]);
        assert_eq!(b2.iter().collect::<Vec<_>>(), vec![2]);
        assert_eq!(bg.colours_left(&f2), 1 << 2);
    }
}
