//! A bucketed priority queue for A* with small integer costs: entries are
//! kept in buckets by `f = g + h` and, inside a bucket, by `g`; popping takes
//! the smallest `f` and, among those, the largest `g` (deepest first, which
//! reaches goals sooner), LIFO inside a `(f, g)` bucket. Push and pop are
//! O(1) amortised.

/// A priority queue of `T` keyed by small `(f, g)` pairs.
#[derive(Debug)]
pub struct BucketQueue<T> {
    buckets: Vec<Vec<Vec<T>>>,
    min_f: usize,
    len: usize,
}

impl<T> Default for BucketQueue<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> BucketQueue<T> {
    /// An empty queue.
    pub fn new() -> Self {
        BucketQueue {
            buckets: Vec::new(),
            min_f: usize::MAX,
            len: 0,
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds `item` with cost estimate `f` and depth `g`.
    pub fn push(&mut self, f: usize, g: usize, item: T) {
        if self.buckets.len() <= f {
            self.buckets.resize_with(f + 1, Vec::new);
        }
        let b = &mut self.buckets[f];
        if b.len() <= g {
            b.resize_with(g + 1, Vec::new);
        }
        b[g].push(item);
        self.len += 1;
        self.min_f = self.min_f.min(f);
    }

    /// The smallest `f` in the queue.
    pub fn min_f(&mut self) -> Option<usize> {
        if self.len == 0 {
            return None;
        }
        while self.buckets[self.min_f].iter().all(|v| v.is_empty()) {
            self.min_f += 1;
        }
        Some(self.min_f)
    }

    /// Removes the entry with the smallest `f`, largest `g`; returns `(f, g, item)`.
    pub fn pop(&mut self) -> Option<(usize, usize, T)> {
        let f = self.min_f()?;
        let b = &mut self.buckets[f];
        let g = b.iter().rposition(|v| !v.is_empty())?;
        let item = b[g].pop()?;
        self.len -= 1;
        Some((f, g, item))
    }

    /// Drops every entry with `f >= bound` (used when a solution of length
    /// `bound` is known and only shorter ones are of interest).
    pub fn truncate_f(&mut self, bound: usize) {
        while self.buckets.len() > bound {
            let b = self.buckets.pop().unwrap();
            self.len -= b.iter().map(Vec::len).sum::<usize>();
        }
        if self.len == 0 {
            self.min_f = usize::MAX;
        }
    }

    /// Approximate bytes held by the entries (capacity, not length).
    pub fn bytes(&self) -> usize {
        self.buckets
            .iter()
            .flat_map(|b| b.iter())
            .map(|v| v.capacity() * std::mem::size_of::<T>())
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_is_min_f_then_max_g() {
        let mut q = BucketQueue::new();
        q.push(5, 1, 'a');
        q.push(4, 1, 'b');
        q.push(4, 3, 'c');
        q.push(6, 0, 'd');
        assert_eq!(q.pop(), Some((4, 3, 'c')));
        assert_eq!(q.pop(), Some((4, 1, 'b')));
        q.truncate_f(6);
        assert_eq!(q.len(), 1);
        assert_eq!(q.pop(), Some((5, 1, 'a')));
        assert_eq!(q.pop(), None);
    }
}
