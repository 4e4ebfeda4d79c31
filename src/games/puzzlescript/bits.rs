//! Bit sets as slices of 64-bit words: one bit per object for a cell's
//! contents, five bits per collision layer for its movements (twelve layers
//! to a word, so that no layer's field straddles two words).

/// A bit set of fixed width.
pub type Bits = Box<[u64]>;

/// Words for `n` bits.
pub fn words_for(n: usize) -> usize {
    n.div_ceil(64).max(1)
}

/// Words for the movements of `layers` layers.
pub fn movement_words(layers: usize) -> usize {
    layers.div_ceil(12).max(1)
}

/// An empty set of `words` words.
pub fn zero(words: usize) -> Bits {
    vec![0u64; words].into_boxed_slice()
}

/// Sets bit `i`.
pub fn set(b: &mut [u64], i: usize) {
    b[i / 64] |= 1 << (i % 64);
}

/// Clears bit `i`.
pub fn clear(b: &mut [u64], i: usize) {
    b[i / 64] &= !(1 << (i % 64));
}

/// True if bit `i` is set.
pub fn get(b: &[u64], i: usize) -> bool {
    b[i / 64] >> (i % 64) & 1 == 1
}

/// `a |= b`.
pub fn or(a: &mut [u64], b: &[u64]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x |= y;
    }
}

/// `a &= b`.
pub fn and(a: &mut [u64], b: &[u64]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x &= y;
    }
}

/// `a &= !b`.
pub fn and_not(a: &mut [u64], b: &[u64]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x &= !y;
    }
}

/// True if every bit of `a` is in `b`.
pub fn subset(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).all(|(x, y)| x & !y == 0)
}

/// True if `a` and `b` share a bit.
pub fn meets(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).any(|(x, y)| x & y != 0)
}

/// True if `have` holds every bit of `all` and a bit of each of `any`
/// (what a rule cell asks of a cell: its objects and one of each of its
/// properties).
pub fn has_all_and_one_of_each(all: &[u64], any: &[Bits], have: &[u64]) -> bool {
    subset(all, have) && any.iter().all(|a| meets(a, have))
}

/// True if no bit is set.
pub fn is_zero(a: &[u64]) -> bool {
    a.iter().all(|x| *x == 0)
}

/// The word and shift of layer `layer`'s movement field.
pub fn layer_field(layer: usize) -> (usize, u32) {
    (layer / 12, (layer % 12) as u32 * 5)
}

/// ORs the five-bit `value` into layer `layer`'s field of `b`.
pub fn or_field(b: &mut [u64], layer: usize, value: u64) {
    let (w, s) = layer_field(layer);
    b[w] |= (value & 0x1f) << s;
}

/// Layer `layer`'s five-bit field of `b`.
pub fn field(b: &[u64], layer: usize) -> u64 {
    let (w, s) = layer_field(layer);
    b[w] >> s & 0x1f
}

/// A word with the five-bit `value` in each of its twelve layer fields.
pub fn every_field(value: u64) -> u64 {
    (0..12).fold(0, |all, k| all | (value & 0x1f) << (5 * k))
}

/// Clears layer `layer`'s field of `b`.
pub fn clear_field(b: &mut [u64], layer: usize) {
    let (w, s) = layer_field(layer);
    b[w] &= !(0x1f << s);
}

/// The indices of the set bits, ascending.
pub fn ones(b: &[u64]) -> impl Iterator<Item = usize> + '_ {
    b.iter().enumerate().flat_map(|(w, &x)| {
        let mut x = x;
        std::iter::from_fn(move || {
            let i = x.trailing_zeros() as usize;
            x &= x.wrapping_sub(1);
            (i < 64).then_some(w * 64 + i)
        })
    })
}

/// The OR of every record of `records` (records of `out.len()` words each,
/// back to back) into `out` (overwritten).
pub fn or_records(records: &[u64], out: &mut [u64]) {
    if let [only] = out {
        // One word a record: a plain fold, which the compiler vectorises.
        *only = records.iter().fold(0, |all, &w| all | w);
        return;
    }
    out.fill(0);
    for record in records.chunks_exact(out.len().max(1)) {
        or(out, record);
    }
}

/// The indices of the records of `width` words (back to back in
/// `records`) that have a bit set, in order, into `out` (not cleared).
/// Blocks of zero words, the common case, are skipped eight at a time.
pub fn nonzero_records(records: &[u64], width: usize, out: &mut Vec<usize>) {
    const BLOCK: usize = 8;
    for (b, block) in records.chunks(BLOCK).enumerate() {
        if block.iter().fold(0, |all, &w| all | w) == 0 {
            continue;
        }
        for (k, &w) in block.iter().enumerate() {
            let record = (b * BLOCK + k) / width.max(1);
            if w != 0 && out.last() != Some(&record) {
                out.push(record);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_needs_every_object_and_one_of_each_property() {
        let (crate_, target, wall) = (1u64, 2u64, 4u64);
        let property: Vec<Bits> = vec![Box::new([target | wall])];
        let all: Bits = Box::new([crate_]);
        assert!(has_all_and_one_of_each(&all, &property, &[crate_ | wall]));
        assert!(!has_all_and_one_of_each(&all, &property, &[crate_]));
        assert!(!has_all_and_one_of_each(&all, &property, &[target]));
        assert!(has_all_and_one_of_each(&[0], &[], &[0]));
    }

    #[test]
    fn fields_do_not_straddle_words() {
        let mut b = zero(movement_words(13));
        or_field(&mut b, 11, 0x1f);
        or_field(&mut b, 12, 0b00100);
        assert_eq!(field(&b, 11), 0x1f);
        assert_eq!(field(&b, 12), 0b00100);
        assert_eq!(b[1], 0b00100);
        let every = every_field(0b10101);
        assert!((0..12).all(|l| field(&[every], l) == 0b10101));
        assert_eq!(every >> 60, 0, "the four bits past the fields stay clear");
        clear_field(&mut b, 11);
        assert_eq!(field(&b, 11), 0);
        let mut o = zero(words_for(70));
        set(&mut o, 3);
        set(&mut o, 66);
        assert_eq!(ones(&o).collect::<Vec<_>>(), vec![3, 66]);
        assert!(subset(&o, &o) && meets(&o, &o) && !is_zero(&o));
    }

    #[test]
    fn records_are_folded_and_found_by_their_set_bits() {
        for width in 1..4 {
            let mut records = vec![0u64; 40 * width];
            let marked = [0usize, 9, 17, 39];
            for (k, &r) in marked.iter().enumerate() {
                records[r * width + k % width] = 1 << (k + 1);
            }
            let mut found = Vec::new();
            nonzero_records(&records, width, &mut found);
            assert_eq!(found, marked, "width {width}");
            let mut all = vec![!0u64; width];
            or_records(&records, &mut all);
            let expected: u64 = (1..=4).map(|k| 1u64 << k).sum();
            assert_eq!(all.iter().fold(0, |a, &w| a | w), expected);
            assert_eq!(all[0] & 1, 0, "width {width}: overwritten, not ORed");
        }
    }
}
