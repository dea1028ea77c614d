//! A fixed-size bitboard over the cells of any board up to 26x26.

use super::geometry::{Cell, MAX_CELLS};

const WORDS: usize = MAX_CELLS.div_ceil(64);

/// A set of cells as a bitboard. Copyable and allocation-free, so the search
/// and the evaluation can keep as many as they like on the stack.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CellSet {
    words: [u64; WORDS],
}

impl CellSet {
    pub const EMPTY: CellSet = CellSet { words: [0; WORDS] };

    pub fn new() -> CellSet {
        CellSet::EMPTY
    }

    #[inline]
    pub fn contains(&self, cell: Cell) -> bool {
        let i = cell.index();
        self.words[i / 64] >> (i % 64) & 1 == 1
    }

    #[inline]
    pub fn insert(&mut self, cell: Cell) {
        let i = cell.index();
        self.words[i / 64] |= 1 << (i % 64);
    }

    #[inline]
    pub fn remove(&mut self, cell: Cell) {
        let i = cell.index();
        self.words[i / 64] &= !(1 << (i % 64));
    }

    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    pub fn union(&self, other: &CellSet) -> CellSet {
        let mut out = *self;
        for (a, b) in out.words.iter_mut().zip(other.words.iter()) {
            *a |= b;
        }
        out
    }

    pub fn intersection(&self, other: &CellSet) -> CellSet {
        let mut out = *self;
        for (a, b) in out.words.iter_mut().zip(other.words.iter()) {
            *a &= b;
        }
        out
    }

    pub fn difference(&self, other: &CellSet) -> CellSet {
        let mut out = *self;
        for (a, b) in out.words.iter_mut().zip(other.words.iter()) {
            *a &= !b;
        }
        out
    }

    pub fn is_disjoint(&self, other: &CellSet) -> bool {
        self.words
            .iter()
            .zip(other.words.iter())
            .all(|(a, b)| a & b == 0)
    }

    /// The raw bitboard: bit `i % 64` of word `i / 64` is the cell of
    /// index `i`. For code that works on whole words (the evaluation).
    #[inline]
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// A set from raw words as `words` gives them; missing words are empty
    /// and extra ones ignored.
    pub fn from_words(words: &[u64]) -> CellSet {
        let mut set = CellSet::EMPTY;
        for (a, b) in set.words.iter_mut().zip(words) {
            *a = *b;
        }
        set
    }

    /// The cells in increasing index order.
    pub fn iter(&self) -> impl Iterator<Item = Cell> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(Cell::from_index(w * 64 + b))
            })
        })
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Self {
        let mut set = CellSet::new();
        for c in iter {
            set.insert(c);
        }
        set
    }
}

impl std::fmt::Debug for CellSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set()
            .entries(self.iter().map(|c| c.index()))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let a: CellSet = [0, 5, 64, 675]
            .iter()
            .map(|&i| Cell::from_index(i))
            .collect();
        let b: CellSet = [5, 100].iter().map(|&i| Cell::from_index(i)).collect();
        assert_eq!(a.len(), 4);
        assert!(a.contains(Cell::from_index(675)));
        assert_eq!(a.intersection(&b).len(), 1);
        assert_eq!(a.union(&b).len(), 5);
        assert_eq!(a.difference(&b).len(), 3);
        assert!(!a.is_disjoint(&b));
        let idx: Vec<usize> = a.iter().map(|c| c.index()).collect();
        assert_eq!(idx, vec![0, 5, 64, 675]);
    }
}
