//! Fixed-width bitboards for the knowledge's inner loops: one trait,
//! [`Bitboard`], with a representation per board size, chosen once where
//! the board is set: `u128` for boards of at most 128 cells (up to 11x11),
//! [`Wide<3>`] up to 192 (13x13) and [`Wide<4>`] up to 256 (15x15).
//!
//! Bit `i` is the cell of index `i`, as in [`super::CellSet`]; a value of
//! a type holds cells (or, in H-search, graph nodes) below its [`BITS`].
//!
//! [`BITS`]: Bitboard::BITS

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of at most [`Bitboard::BITS`] small indices as a bitboard.
pub trait Bitboard:
    Copy
    + Eq
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// How many indices it holds.
    const BITS: usize;
    /// A power of two at least [`Bitboard::BITS`]: the row length of the
    /// H-search's node-pair tables, so that masking an index keeps it in
    /// bounds.
    const NODES: usize;
    const ZERO: Self;
    const ONES: Self;
    /// How a set is stored in bulk lists: a `u128` as two words, since its
    /// 16-byte alignment would pad the structs holding it.
    type Packed: Copy + Debug + Send + Sync + 'static;

    fn pack(self) -> Self::Packed;
    fn unpack(p: Self::Packed) -> Self;

    /// The set of index `i` alone (`i < BITS`).
    fn bit(i: usize) -> Self;
    fn is_empty(self) -> bool;
    /// The lowest index; meaningless on the empty set.
    fn first(self) -> usize;
    /// The set of the lowest index alone.
    fn lowest(self) -> Self;
    /// The set without its lowest index.
    fn without_lowest(self) -> Self;
    fn count(self) -> u32;
    /// The indices above `i` (`i < BITS`).
    fn above(i: usize) -> Self;
    /// The indices below `n` (`n <= BITS`).
    fn below(n: usize) -> Self;
    /// From raw words as [`super::CellSet::words`] gives them (bit
    /// `i % 64` of word `i / 64`); indices from `BITS` on are dropped.
    fn from_words(words: &[u64]) -> Self;
    /// The indices below 128, as a `u128`.
    fn low128(self) -> u128;

    #[inline(always)]
    fn any(self) -> bool {
        !self.is_empty()
    }

    #[inline(always)]
    fn has(self, i: usize) -> bool {
        (self & Self::bit(i)).any()
    }

    /// The indices in increasing order.
    #[inline(always)]
    fn ones(self) -> Ones<Self> {
        Ones(self)
    }
}

/// The indices of a [`Bitboard`], lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Ones<B>(B);

impl<B: Bitboard> Iterator for Ones<B> {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            return None;
        }
        let i = self.0.first();
        self.0 = self.0.without_lowest();
        Some(i)
    }
}

impl Bitboard for u128 {
    const BITS: usize = 128;
    const NODES: usize = 128;
    const ZERO: u128 = 0;
    const ONES: u128 = u128::MAX;
    type Packed = [u64; 2];

    #[inline(always)]
    fn pack(self) -> [u64; 2] {
        [self as u64, (self >> 64) as u64]
    }
    #[inline(always)]
    fn unpack(p: [u64; 2]) -> u128 {
        p[0] as u128 | (p[1] as u128) << 64
    }

    #[inline(always)]
    fn bit(i: usize) -> u128 {
        1u128 << i
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn first(self) -> usize {
        self.trailing_zeros() as usize
    }
    #[inline(always)]
    fn lowest(self) -> u128 {
        self & self.wrapping_neg()
    }
    #[inline(always)]
    fn without_lowest(self) -> u128 {
        self & self.wrapping_sub(1)
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn above(i: usize) -> u128 {
        (u128::MAX << i) << 1
    }
    #[inline(always)]
    fn below(n: usize) -> u128 {
        if n >= 128 {
            u128::MAX
        } else {
            (1u128 << n) - 1
        }
    }
    fn from_words(words: &[u64]) -> u128 {
        let w = |k: usize| words.get(k).copied().unwrap_or(0) as u128;
        w(0) | w(1) << 64
    }
    #[inline(always)]
    fn low128(self) -> u128 {
        self
    }
}

/// `N` 64-bit words: `64 * N` indices.
#[derive(Clone, Copy, Eq)]
pub struct Wide<const N: usize>([u64; N]);

impl<const N: usize> PartialEq for Wide<N> {
    /// Word by word in registers (the derived comparison of the array
    /// goes through memory).
    #[inline(always)]
    fn eq(&self, o: &Wide<N>) -> bool {
        (0..N).fold(0, |a, k| a | (self.0[k] ^ o.0[k])) == 0
    }
}

impl<const N: usize> Debug for Wide<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.ones()).finish()
    }
}

macro_rules! wide_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl<const N: usize> $tr for Wide<N> {
            type Output = Wide<N>;
            #[inline(always)]
            fn $f(self, o: Wide<N>) -> Wide<N> {
                let mut out = self.0;
                for k in 0..N {
                    out[k] = self.0[k] $op o.0[k];
                }
                Wide(out)
            }
        }
        impl<const N: usize> $atr for Wide<N> {
            #[inline(always)]
            fn $af(&mut self, o: Wide<N>) {
                for k in 0..N {
                    self.0[k] = self.0[k] $op o.0[k];
                }
            }
        }
    };
}

wide_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
wide_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
wide_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<const N: usize> Not for Wide<N> {
    type Output = Wide<N>;
    #[inline(always)]
    fn not(self) -> Wide<N> {
        Wide(self.0.map(|w| !w))
    }
}

impl<const N: usize> Bitboard for Wide<N> {
    const BITS: usize = 64 * N;
    const NODES: usize = (64 * N).next_power_of_two();
    const ZERO: Wide<N> = Wide([0; N]);
    const ONES: Wide<N> = Wide([u64::MAX; N]);
    type Packed = Wide<N>;

    #[inline(always)]
    fn pack(self) -> Wide<N> {
        self
    }
    #[inline(always)]
    fn unpack(p: Wide<N>) -> Wide<N> {
        p
    }

    #[inline(always)]
    fn bit(i: usize) -> Wide<N> {
        // Built word by word without an indexed store, so that the set
        // stays in registers instead of going through the stack.
        let (word, b) = (i / 64, 1u64 << (i % 64));
        Wide(std::array::from_fn(|k| if k == word { b } else { 0 }))
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self.0.iter().fold(0, |a, &w| a | w) == 0
    }
    #[inline(always)]
    fn first(self) -> usize {
        for k in 0..N {
            if self.0[k] != 0 {
                return 64 * k + self.0[k].trailing_zeros() as usize;
            }
        }
        64 * N
    }
    #[inline(always)]
    fn lowest(self) -> Wide<N> {
        // Word by word, as in `bit`: no indexed store.
        let mut seen = false;
        Wide(std::array::from_fn(|k| {
            let x = self.0[k];
            let out = if seen { 0 } else { x & x.wrapping_neg() };
            seen |= x != 0;
            out
        }))
    }
    #[inline(always)]
    fn without_lowest(self) -> Wide<N> {
        let mut seen = false;
        Wide(std::array::from_fn(|k| {
            let x = self.0[k];
            let out = if seen { x } else { x & x.wrapping_sub(1) };
            seen |= x != 0;
            out
        }))
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline(always)]
    fn above(i: usize) -> Wide<N> {
        !Self::below(i + 1)
    }
    #[inline(always)]
    fn below(n: usize) -> Wide<N> {
        let mut w = [0; N];
        for (k, x) in w.iter_mut().enumerate() {
            let lo = 64 * k;
            *x = if n >= lo + 64 {
                u64::MAX
            } else if n > lo {
                (1u64 << (n - lo)) - 1
            } else {
                0
            };
        }
        Wide(w)
    }
    fn from_words(words: &[u64]) -> Wide<N> {
        let mut w = [0; N];
        for (a, b) in w.iter_mut().zip(words) {
            *a = *b;
        }
        Wide(w)
    }
    #[inline(always)]
    fn low128(self) -> u128 {
        let w = |k: usize| self.0.get(k).copied().unwrap_or(0) as u128;
        w(0) | w(1) << 64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every operation of `B` agrees with the same one on a `u128`, over
    /// sets of indices below 128 that cross word boundaries.
    fn agrees<B: Bitboard>() {
        let samples: [&[usize]; 5] = [&[], &[0], &[63, 64], &[5, 70, 127], &[1, 2, 3, 100]];
        let of = |xs: &[usize]| xs.iter().fold(B::ZERO, |a, &i| a | B::bit(i));
        let of128 = |xs: &[usize]| xs.iter().fold(0u128, |a, &i| a | 1 << i);
        for a in samples {
            let (x, y) = (of(a), of128(a));
            assert_eq!(x.ones().collect::<Vec<_>>(), y.ones().collect::<Vec<_>>());
            assert_eq!(x.count(), y.count());
            assert_eq!(x.is_empty(), y.is_empty());
            if !a.is_empty() {
                assert_eq!(x.first(), y.first());
                assert_eq!(x.lowest().ones().collect::<Vec<_>>(), vec![a[0]]);
                assert_eq!(x.without_lowest().count(), y.count() - 1);
            }
            for b in samples {
                let (u, v) = (of(b), of128(b));
                let same = |p: B, q: u128| p.ones().eq(q.ones());
                assert!(same(x & u, y & v));
                assert!(same(x | u, y | v));
                assert!(same(x ^ u, y ^ v));
                assert!(same(x & !u & B::below(128), y & !v));
            }
        }
        for i in [0, 1, 63, 64, 100, 126] {
            assert!(
                B::above(i)
                    .ones()
                    .take_while(|&j| j < 128)
                    .eq(u128::above(i).ones())
            );
            assert!(B::below(i).ones().eq(u128::below(i).ones()));
        }
        let w = [u64::MAX, 5];
        assert!(B::from_words(&w).ones().eq(u128::from_words(&w).ones()));
    }

    #[test]
    fn wide_boards_agree_with_u128() {
        agrees::<Wide<2>>();
        agrees::<Wide<3>>();
        agrees::<Wide<4>>();
    }

    #[test]
    fn wide_boards_reach_their_last_index() {
        let last = Wide::<3>::bit(191);
        assert_eq!(last.first(), 191);
        assert_eq!(Wide::<3>::below(192), Wide::<3>::ONES);
        assert_eq!(Wide::<3>::above(190), last);
        assert_eq!(Wide::<4>::NODES, 256);
        assert_eq!(Wide::<3>::NODES, 256);
    }
}
