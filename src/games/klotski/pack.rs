//! Positions packed into fixed-size keys of 64-bit words: each block's
//! anchor as its rank among the anchors where its shape fits on the floor,
//! in as many bits as its class needs (a block that fits in one place
//! takes none). The layered search holds a position as nothing but its
//! key, so the key's size is what a position costs.

use std::ops::Range;

use super::board::Board;

/// The most words a key may take ([`Packer::words`]); larger boards are
/// searched with unpacked positions.
pub const MAX_WORDS: usize = 16;

/// How one board's positions pack.
#[derive(Debug, Clone)]
pub struct Packer {
    /// Per slot: its class.
    class_of: Vec<usize>,
    /// Per slot: the first bit of its field.
    offset: Vec<u32>,
    /// Per class: the bits of a field.
    bits: Vec<u32>,
    /// Per class: the rank of each anchor (`u16::MAX` where it does not fit).
    rank: Vec<Vec<u16>>,
    /// Per class: the anchor of each rank.
    anchor: Vec<Vec<u16>>,
    /// Words a key takes.
    words: usize,
}

impl Packer {
    /// The packing of `board`'s positions.
    pub fn new(board: &Board) -> Packer {
        let cells = board.width() * board.height();
        let mut rank = Vec::new();
        let mut anchor = Vec::new();
        let mut bits = Vec::new();
        for class in 0..board.classes() {
            let fits = board.fitting_anchors(class);
            let mut r = vec![u16::MAX; cells];
            for (i, &a) in fits.iter().enumerate() {
                r[a as usize] = i as u16;
            }
            bits.push(usize::BITS - fits.len().saturating_sub(1).leading_zeros());
            rank.push(r);
            anchor.push(fits);
        }
        let class_of: Vec<usize> = (0..board.blocks()).map(|s| board.class_of(s)).collect();
        let mut offset = Vec::with_capacity(class_of.len());
        let mut at = 0u32;
        for &c in &class_of {
            offset.push(at);
            at += bits[c];
        }
        Packer {
            class_of,
            offset,
            bits,
            rank,
            anchor,
            words: (at as usize).div_ceil(64).max(1),
        }
    }

    /// The words a key takes.
    pub fn words(&self) -> usize {
        self.words
    }

    /// The key of the position with `anchors`, in `N` words (at least
    /// [`Packer::words`]).
    pub fn pack<const N: usize>(&self, anchors: &[u16]) -> [u64; N] {
        let mut key = [0u64; N];
        for (slot, &a) in anchors.iter().enumerate() {
            let class = self.class_of[slot];
            let v = u64::from(self.rank[class][a as usize]);
            let (at, bits) = (self.offset[slot], self.bits[class]);
            if bits == 0 {
                continue;
            }
            let (w, off) = ((at / 64) as usize, at % 64);
            key[w] |= v << off;
            if off + bits > 64 {
                key[w + 1] |= v >> (64 - off);
            }
        }
        key
    }

    /// `key` with the fields of `slots` rewritten from `anchors` (the
    /// other slots' anchors unchanged): a child's key from its parent's
    /// when one class moved.
    pub fn repack<const N: usize>(&self, key: &mut [u64; N], anchors: &[u16], slots: Range<usize>) {
        for slot in slots {
            let class = self.class_of[slot];
            let (at, bits) = (self.offset[slot], self.bits[class]);
            if bits == 0 {
                continue;
            }
            let v = u64::from(self.rank[class][anchors[slot] as usize]);
            let mask = u64::MAX >> (64 - bits);
            let (w, off) = ((at / 64) as usize, at % 64);
            key[w] = (key[w] & !(mask << off)) | (v << off);
            if off + bits > 64 {
                let high = 64 - off;
                key[w + 1] = (key[w + 1] & !(mask >> high)) | (v >> high);
            }
        }
    }

    /// The anchors of the position packed in `key`, into `out` (one per
    /// slot).
    pub fn unpack<const N: usize>(&self, key: &[u64; N], out: &mut [u16]) {
        for (slot, a) in out.iter_mut().enumerate() {
            *a = self.anchor_of(key, slot);
        }
    }

    /// The anchor of the block in `slot` of the position packed in `key`.
    pub fn anchor_of<const N: usize>(&self, key: &[u64; N], slot: usize) -> u16 {
        let class = self.class_of[slot];
        let (at, bits) = (self.offset[slot], self.bits[class]);
        if bits == 0 {
            return self.anchor[class][0];
        }
        let (w, off) = ((at / 64) as usize, at % 64);
        let mut v = key[w] >> off;
        if off + bits > 64 {
            v |= key[w + 1] << (64 - off);
        }
        self.anchor[class][(v & (u64::MAX >> (64 - bits))) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::klotski::parse::parse_puzzles;

    /// Every position near each puzzle's start unpacks from its key to
    /// itself (so distinct positions have distinct keys), in the words the
    /// packer says.
    #[test]
    fn keys_give_back_their_positions() {
        let puzzles = parse_puzzles(include_str!("../../../fixtures/klotski/puzzles.txt")).unwrap();
        for p in &puzzles {
            let packer = Packer::new(&p.board);
            assert!(packer.words() <= MAX_WORDS, "{}", p.name);
            let mut frontier = vec![p.start.clone()];
            let (mut moves, mut back) = (Vec::new(), vec![0u16; p.board.blocks()]);
            for _ in 0..2000 {
                let Some(pos) = frontier.pop() else { break };
                let key: [u64; MAX_WORDS] = packer.pack(pos.anchors());
                assert!(key[packer.words()..].iter().all(|&w| w == 0), "{}", p.name);
                packer.unpack(&key, &mut back);
                assert_eq!(back, pos.anchors(), "{}", p.name);
                let mut again: [u64; MAX_WORDS] = packer.pack(p.start.anchors());
                packer.repack(&mut again, pos.anchors(), 0..p.board.blocks());
                assert_eq!(again, key, "{}", p.name);
                moves.clear();
                p.board.moves(&pos, &mut moves);
                frontier.extend(moves.iter().map(|&m| p.board.apply(&pos, m)));
            }
        }
    }
}
