//! H-search's rules: AND over a middle node, OR over semis of one pair,
//! and the per-pair lists they add to (superset pruning, caps).

use super::*;

impl<B: Bitboard> Hsearch<B> {
    /// AND rule for the full (a, b, c) with `b` in the middle.
    #[inline]
    pub(super) fn and_from(&mut self, a: usize, b: usize, c: B, shrunk: bool) {
        if b < 2 {
            return;
        }
        let (a, b) = (node::<B>(a), node::<B>(b));
        // A pair whose ends touch (a full with an empty carrier) takes no
        // new connection: no partner there is tried.
        let zs = self.adj[b] & !bit::<B>(a) & !self.touching[a];
        let middle = self.middle(a, b, c);
        for z in zs.ones() {
            let z = node::<B>(z);
            if (self.cell_bit[z] & c).any() {
                continue;
            }
            let skip = if shrunk { self.oldm[ix::<B>(b, z)] } else { 0 };
            self.and_through(a, b, z, c, skip, middle);
            if self.stopped {
                return;
            }
        }
    }

    /// The AND rule for the full (a, b, c) and each full of (b, z) except
    /// those flagged in `skip`: a full (a, z) through a group `b`, a semi
    /// keyed at `b` through an empty cell. (`c` must not hold `z`.)
    #[inline]
    pub(super) fn and_pair(&mut self, a: usize, b: usize, z: usize, c: B, skip: u8) {
        let middle = self.middle(a, b, c);
        self.and_through(a, b, z, c, skip, middle);
    }

    /// What the AND rule through `b` for the full (a, b, c) reads of `b`
    /// for every partner: the middle cell (empty when `b` is a group),
    /// its key, and the cells a partner's full may not hold.
    #[inline(always)]
    fn middle(&self, a: usize, b: usize, c: B) -> (B, Id, B) {
        (self.cell_bit[b], self.cell_of[b], c | self.cell_bit[a])
    }

    /// [`Hsearch::and_pair`] with `b`'s [`Hsearch::middle`].
    #[inline(always)]
    fn and_through(
        &mut self,
        a: usize,
        b: usize,
        z: usize,
        c: B,
        skip: u8,
        (mid, key, block): (B, Id, B),
    ) {
        // The list (b, z) cannot change below: only the pair (a, z) does.
        let p = ix::<B>(b, z);
        let fc = self.caps.fulls;
        let nf = (self.nf[p] as usize).min(fc);
        let at = self.fat(p);
        for k in 0..nf {
            let d = self.fulls[at + k];
            if (d & block).any() || skip >> k & 1 != 0 {
                continue;
            }
            let u = c | d;
            if mid.any() {
                self.add_semi(a, z, u | mid, key);
            } else {
                self.add_full(a, z, u);
            }
            if self.stopped {
                return;
            }
        }
    }

    #[inline]
    pub(super) fn add_full(&mut self, a: usize, b: usize, c: B) {
        if a == b {
            return;
        }
        let p = ix::<B>(a, b);
        let q = ix::<B>(b, a);
        let nf = self.nf[p] as usize;
        let fc = self.caps.fulls;
        if nf == 0 {
            self.make_full_room(p, q);
        }
        let at = self.fat(p);
        let fl = &mut self.fulls[at..at + fc];
        if fl.iter().take(nf).any(|&f| (f & !c).is_empty()) {
            return;
        }
        // Drop the kept fulls that contain the new one.
        let mut old = self.oldm[p];
        let mut k = 0;
        let mut n = nf;
        while k < n {
            if (c & !fl[k]).is_empty() {
                fl[k] = fl[n - 1];
                old = old & !(1 << k) | (old >> (n - 1) & 1) << k;
                n -= 1;
            } else {
                k += 1;
            }
        }
        old &= ((1u16 << n) - 1) as u8;
        if n < fc {
            fl[n] = c;
            old |= u8::from(self.origin == Origin::Old) << n;
        }
        // Element by element: the lists are short, and a copy of a
        // length known only at run time would be a call to memmove.
        let to = self.fat(q);
        for k in 0..n + usize::from(n < fc) {
            self.fulls[to + k] = self.fulls[at + k];
        }
        self.oldm[p] = old;
        self.oldm[q] = old;
        if n == fc {
            self.nf[p] = n as u8;
            self.nf[q] = n as u8;
            return;
        }
        self.nf[p] = (n + 1) as u8;
        self.nf[q] = (n + 1) as u8;
        self.full_stored(node::<B>(a), node::<B>(b), c);
        if a + b == E1 + E2 && a.max(b) == E2 {
            self.edge_full = self.edge_full.or(Some(c));
            if self.goal != Goal::Whole {
                self.stopped = true;
                return;
            }
        }
        let how = match self.origin {
            Origin::Old => return,
            Origin::Shrunk => SHRUNK,
            Origin::Grown => {
                // Only a grown group is a middle node here (never an edge).
                let through = |x: usize, flag: u8| {
                    if x >= 2 && self.grown.has(x) { 0 } else { flag }
                };
                let how = through(a, NOT_THROUGH_X) | through(b, NOT_THROUGH_Y);
                if how == NOT_THROUGH_X | NOT_THROUGH_Y {
                    return;
                }
                how
            }
            Origin::New => 0,
        };
        self.queue.push((a as Id, b as Id, how, c));
    }

    /// Marks the nodes `a` and `b` (masked) as joined by the full `c` just
    /// stored: linked, and touching when `c` is empty.
    #[inline(always)]
    fn full_stored(&mut self, a: usize, b: usize, c: B) {
        self.adj[a] |= bit(b);
        self.adj[b] |= bit(a);
        if c.is_empty() {
            self.touching[a] |= bit(b);
            self.touching[b] |= bit(a);
        }
    }

    /// Counts an edge-to-edge semi for the mustplay, and stops the run
    /// when its goal is reached.
    pub(super) fn edge_semi_found(&mut self, s: B, key: Id) {
        if self.edge_list.len() < EDGE_LIST_MAX {
            self.edge_list.push((s, key));
        }
        self.edge_semis += 1;
        self.edge_cap &= s;
        self.edge_union |= s;
        if self.edge_semi.is_none() {
            self.edge_semi = Some((key as usize, s));
        }
        let stop = match self.goal {
            Goal::Mover => true,
            Goal::Opponent => self.edge_cap.is_empty(),
            Goal::Closure | Goal::Whole => false,
        };
        if stop {
            self.stopped = true;
        }
    }

    /// Adds a seed the new stones left as it was ([`Origin::Old`]) without
    /// the checks [`Hsearch::add_full`] and [`Hsearch::add_semi`] make:
    /// the seed's lists held no connection containing another, and its
    /// unchanged ends are the same nodes as before, so only its own list
    /// mates (the only connections added so far) share its list.
    #[inline]
    pub(super) fn append_old(&mut self, a: usize, b: usize, c: B, key: Id) {
        let (a, b) = (node::<B>(a), node::<B>(b));
        if key == NO_KEY {
            let (p, q) = (ix::<B>(a, b), ix::<B>(b, a));
            let n = self.nf[p] as usize;
            let fc = self.caps.fulls;
            if n >= fc {
                return;
            }
            if n == 0 {
                self.make_full_room(p, q);
            }
            let (at, to) = (self.fat(p), self.fat(q));
            self.fulls[at + n] = c;
            self.fulls[to + n] = c;
            self.oldm[p] |= 1 << n;
            self.oldm[q] = self.oldm[p];
            self.nf[p] = (n + 1) as u8;
            self.nf[q] = (n + 1) as u8;
            self.full_stored(a, b, c);
            if a + b == E1 + E2 && a.max(b) == E2 {
                self.edge_full = Some(c);
                self.stopped = true;
            }
        } else {
            let p = ix::<B>(a.min(b), a.max(b));
            let n = self.ns[p] as usize;
            let sc = self.caps.semis;
            if n < sc {
                if n == 0 {
                    self.make_semi_room(p);
                }
                let at = self.sat(p);
                self.semis[at + n] = c;
                self.keys[at + n] = key;
                self.ns[p] = (n + 1) as u8;
                self.sadj[a.min(b)] |= bit(a.max(b));
            }
            if p == ix::<B>(E1, E2) {
                self.edge_semi_found(c, key);
            }
        }
    }

    #[inline(always)]
    pub(super) fn add_semi(&mut self, a: usize, b: usize, s: B, key: Id) {
        debug_assert!(a != b);
        let p = ix::<B>(a, b);
        let nf = self.nf[p] as usize;
        let fc = self.caps.fulls;
        if nf > 0 {
            let at = self.fat(p);
            if self.fulls[at..at + nf.min(fc)]
                .iter()
                .any(|&f| (f & !s).is_empty())
            {
                return;
            }
        }
        let p = if a < b { p } else { ix::<B>(b, a) };
        let ns = self.ns[p] as usize;
        let sc = self.caps.semis;
        if ns == 0 {
            self.make_semi_room(p);
        }
        let at = self.sat(p);
        let sl = &mut self.semis[at..at + sc];
        if sl.iter().take(ns).any(|&x| (x & !s).is_empty()) {
            return;
        }
        let kl = &mut self.keys[at..at + sc];
        let mut k = 0;
        let mut n = ns;
        while k < n {
            if (s & !sl[k]).is_empty() {
                sl[k] = sl[n - 1];
                kl[k] = kl[n - 1];
                n -= 1;
            } else {
                k += 1;
            }
        }
        // A full list keeps its semis, but the new one still counts for
        // the edges' mustplay and may still complete an OR.
        if n == sc {
            self.ns[p] = n as u8;
        } else {
            sl[n] = s;
            kl[n] = key;
            self.ns[p] = (n + 1) as u8;
            self.sadj[node::<B>(a.min(b))] |= bit(a.max(b));
        }
        if p == ix::<B>(E1, E2) {
            self.edge_semi_found(s, key);
            if self.stopped {
                return;
            }
        }
        // OR: the new semi with others whose carriers leave no common cell,
        // every such set (each gives a full of its own: keeping only the
        // first lost fulls that later ANDs and ORs need).
        if n >= 1 && self.origin != Origin::Old {
            self.or_rule(a, b, at, n, s);
        }
    }

    /// The OR rule for the semi `s` of the pair (a, b) with the `n` semis
    /// kept at `at` in `semis`: each full it gives is added as derived in
    /// this run ([`Origin::New`]).
    pub(super) fn or_rule(&mut self, a: usize, b: usize, at: usize, n: usize, s: B) {
        let mut found = [B::ZERO; Caps::MAX_FULLS];
        let k = or_combine(&self.semis[at..at + n], s, &mut found);
        let origin = std::mem::replace(&mut self.origin, Origin::New);
        for &u in &found[..k] {
            self.add_full(a, b, u);
            if self.stopped {
                break;
            }
        }
        self.origin = origin;
    }
}

/// Searches the semis `list` (in order, depth first) for sets of up to
/// `ORMAX - 1` of them that with `s` leave no common cell, each extending
/// a smaller set only where it shrinks the common cells and none
/// extending a set that already leaves none; writes the union of each
/// set's carriers into `out` (at most its length) and returns how many.
#[inline]
pub(super) fn or_combine<B: Bitboard>(list: &[B], s: B, out: &mut [B]) -> usize {
    const _: () = assert!(ORMAX == 4, "or_combine is unrolled for ORMAX = 4");
    // A set's common cells hold those of the whole list and `s`.
    if list.iter().fold(s, |common, &x| common & x).any() {
        return 0;
    }
    let mut k = 0;
    let mut emit = |u: B| {
        if k < out.len() {
            out[k] = u;
            k += 1;
        }
        k < out.len()
    };
    for (i, &x) in list.iter().enumerate() {
        let i1 = s & x;
        if i1 == s {
            continue;
        }
        let u1 = s | x;
        if i1.is_empty() {
            if !emit(u1) {
                return k;
            }
            continue;
        }
        for (j, &y) in list[i + 1..].iter().enumerate() {
            let i2 = i1 & y;
            if i2 == i1 {
                continue;
            }
            let u2 = u1 | y;
            if i2.is_empty() {
                if !emit(u2) {
                    return k;
                }
                continue;
            }
            for &w in &list[i + j + 2..] {
                if (i2 & w).is_empty() && !emit(u2 | w) {
                    return k;
                }
            }
        }
    }
    k
}
