//! The solver's own virtual connections: H-search (Anshelevich) from
//! scratch at every node, on 128-bit bitboards, for boards of at most 121
//! cells (11x11). Small fixed-size lists and early exits make it far
//! cheaper than a general incremental engine on the small boards the
//! solver proves.
//!
//! Nodes of one colour's graph are its two edges (a group touching an edge
//! belongs to it), its other groups and every empty cell. Base full
//! connections join adjacent nodes with an empty carrier. AND: full(a, b)
//! and full(b, z) with disjoint carriers (neither containing the other
//! end) give a full when `b` is a group, a semi keyed at `b` when it is an
//! empty cell. OR: semis between one pair whose carriers have no common
//! cell give a full over their union. Connections that are supersets of
//! kept ones are dropped; per-pair lists are capped, which loses only
//! completeness, never soundness.

use crate::board::{Cell, Color, Edge, Geometry, Position};

/// The largest board this module handles, in cells.
pub const MAX_BITS: usize = 128;

const FMAX: usize = 4;
const SMAX: usize = 8;
const ORMAX: usize = 4;

/// Bitboard helpers for one geometry.
#[derive(Clone, Debug)]
pub struct Bits {
    pub n: usize,
    pub all: u128,
    nbr: Vec<u128>,
    edge: [u128; 4],
}

#[inline]
pub fn bit(i: usize) -> u128 {
    1u128 << i
}

impl Bits {
    /// `None` when the board has more than 128 cells.
    pub fn new(g: &Geometry) -> Option<Bits> {
        let n = g.num_cells();
        if n > MAX_BITS {
            return None;
        }
        let mut nbr = vec![0u128; n];
        for c in g.cells() {
            for &d in g.neighbours(c) {
                nbr[c.index()] |= bit(d.index());
            }
        }
        let mut edge = [0u128; 4];
        for e in Edge::ALL {
            for c in g.edge_cells(e).iter() {
                edge[e as usize] |= bit(c.index());
            }
        }
        let all = if n == 128 { u128::MAX } else { bit(n) - 1 };
        Some(Bits { n, all, nbr, edge })
    }

    #[inline]
    pub fn nbr(&self, i: usize) -> u128 {
        self.nbr[i]
    }

    /// Every cell adjacent to some cell of `set`.
    #[inline]
    pub fn spread(&self, set: u128) -> u128 {
        let mut out = 0;
        let mut s = set;
        while s != 0 {
            let i = s.trailing_zeros() as usize;
            s &= s - 1;
            out |= self.nbr[i];
        }
        out
    }

    /// The cells of `within` connected to `seed` through `within`.
    #[inline]
    pub fn flood(&self, seed: u128, within: u128) -> u128 {
        let mut reach = seed & within;
        let mut frontier = reach;
        while frontier != 0 {
            let next = self.spread(frontier) & within & !reach;
            reach |= next;
            frontier = next;
        }
        reach
    }

    pub fn edge(&self, e: Edge) -> u128 {
        self.edge[e as usize]
    }

    /// Cells of `color`'s possible chains: reachable from both of its
    /// edges through empty cells and its own stones (`st`: Black, White).
    pub fn live(&self, st: [u128; 2], color: Color) -> u128 {
        let open = self.all & !st[color.opponent().index()];
        let (e1, e2) = color.edges();
        self.flood(self.edge(e1) & open, open) & self.flood(self.edge(e2) & open, open)
    }
}

/// The stones of a position as bitboards.
pub fn stones(pos: &Position) -> [u128; 2] {
    Color::BOTH.map(|c| {
        let w = pos.stones(c).words();
        w[0] as u128 | (w.get(1).copied().unwrap_or(0) as u128) << 64
    })
}

/// What H-search found for one colour that the solver uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EdgeInfo {
    /// An edge-to-edge full connection exists (with its carrier).
    pub full: Option<u128>,
    /// An edge-to-edge semi: (key cell index, carrier).
    pub semi: Option<(usize, u128)>,
    /// The intersection of the carriers of all edge-to-edge semis found
    /// (`all` when there are none).
    pub semi_cap: u128,
    /// The union of the carriers of the edge-to-edge semis found.
    pub semi_union: u128,
    /// How many edge-to-edge semis were found.
    pub semis: usize,
}

/// Reusable H-search buffers.
///
/// Pair lists live in fixed `W * W` tables indexed by [`ix`] (masked
/// indices need no bounds checks). Full lists are stored twice, at
/// `ix(a, b)` and `ix(b, a)`, so that the AND step walks one row for its
/// middle node; semi lists (only ever looked up by pair) are stored once,
/// at `ix(min, max)`. Only the counts are cleared between runs.
pub struct Hsearch {
    /// Per ordered pair: how many fulls (mirrored).
    nf: Box<[u8; W * W]>,
    /// Per ordered pair: the fulls (mirrored).
    fulls: Box<[[u128; FMAX]; W * W]>,
    /// Per unordered pair: how many semis.
    ns: Box<[u8; W * W]>,
    semis: Box<[[u128; SMAX]; W * W]>,
    keys: Box<[[u8; SMAX]; W * W]>,
    /// Per node: the nodes it has a full connection with.
    adj: [u128; W],
    /// Per node: its cell's bit when it is an empty cell, else 0.
    cell_bit: [u128; W],
    /// Per node: the cell index (empty cells only).
    cell_of: [u8; W],
    queue: Vec<(u8, u8, u128)>,
    /// Stop when this is found: 0 never, 1 an edge full, 2 a full or semi.
    stop_at: u8,
    stopped: bool,
    /// Edge semis: running intersection and count (for mustplay).
    edge_cap: u128,
    edge_union: u128,
    edge_semis: usize,
    edge_semi: Option<(usize, u128)>,
    edge_full: Option<u128>,
    /// Give up the edge semis when their intersection is already empty.
    cap_empty_stops: bool,
}

impl Default for Hsearch {
    fn default() -> Self {
        Hsearch::new()
    }
}

const E1: usize = 0;
const E2: usize = 1;

/// Nodes per table row: the most nodes a run handles.
const W: usize = 128;

/// The table index of the ordered node pair (a, b).
#[inline(always)]
fn ix(a: usize, b: usize) -> usize {
    (a * W + b) & (W * W - 1)
}

/// A zeroed boxed table (allocated zeroed, not built on the stack).
fn table<T: Clone + Default, const N: usize>() -> Box<[T; N]> {
    match vec![T::default(); N].into_boxed_slice().try_into() {
        Ok(t) => t,
        Err(_) => unreachable!(),
    }
}

impl Hsearch {
    pub fn new() -> Hsearch {
        Hsearch {
            nf: table(),
            fulls: table(),
            ns: table(),
            semis: table(),
            keys: table(),
            adj: [0; W],
            cell_bit: [0; W],
            cell_of: [0; W],
            queue: Vec::new(),
            stop_at: 0,
            stopped: false,
            edge_cap: 0,
            edge_union: 0,
            edge_semis: 0,
            edge_semi: None,
            edge_full: None,
            cap_empty_stops: false,
        }
    }

    /// H-search for `color` on `stones` (Black, White). With `for_mover`
    /// the search stops at the first edge-to-edge semi or full (the mover
    /// wins); otherwise it collects the edge semis' common cells, stopping
    /// at an edge full or when that intersection becomes empty.
    pub fn run(
        &mut self,
        bits: &Bits,
        stones: [u128; 2],
        color: Color,
        for_mover: bool,
    ) -> EdgeInfo {
        let own = stones[color.index()];
        let (e1, e2) = color.edges();
        // Cells on no possible chain of this colour (not reachable from
        // both its edges through empty cells and own stones) can be
        // treated as opponent stones: no connection of ours needs them.
        let live = bits.live(stones, color);
        let opp = bits.all & !live;
        let own = own & live;
        let empty = bits.all & !own & !opp;
        // Number the nodes: edges, groups, empty cells.
        let mut node_of = [u8::MAX; MAX_BITS];
        let mut node_cells = [0u128; MAX_BITS + 2];
        let edge1 = bits.flood(bits.edge(e1) & own, own);
        let edge2 = bits.flood(bits.edge(e2) & own, own);
        let info_won = edge1 & edge2 != 0;
        if info_won {
            return EdgeInfo {
                full: Some(0),
                semi: None,
                semi_cap: 0,
                semi_union: 0,
                semis: 0,
            };
        }
        node_cells[0] = edge1;
        node_cells[1] = edge2;
        let mut m = 2;
        let mut rest = own & !edge1 & !edge2;
        while rest != 0 {
            let g = bits.flood(rest & rest.wrapping_neg(), own);
            rest &= !g;
            node_cells[m] = g;
            m += 1;
        }
        let groups = m;
        if groups + empty.count_ones() as usize > 128 {
            return EdgeInfo {
                semi_cap: bits.all,
                ..EdgeInfo::default()
            };
        }
        for (k, &cells) in node_cells[..groups].iter().enumerate() {
            let mut c = cells;
            while c != 0 {
                let i = c.trailing_zeros() as usize;
                c &= c - 1;
                node_of[i] = k as u8;
            }
        }
        self.cell_bit[..groups].fill(0);
        self.cell_of[..groups].fill(0);
        let mut e = empty;
        while e != 0 {
            let i = e.trailing_zeros() as usize;
            e &= e - 1;
            node_of[i] = m as u8;
            node_cells[m] = bit(i);
            self.cell_bit[m] = bit(i);
            self.cell_of[m] = i as u8;
            m += 1;
        }
        for a in 0..m {
            self.nf[a * W..a * W + m].fill(0);
            self.ns[a * W..a * W + m].fill(0);
        }
        self.adj[..m].fill(0);
        self.queue.clear();
        self.stop_at = if for_mover { 2 } else { 1 };
        self.stopped = false;
        self.edge_cap = empty;
        self.edge_union = 0;
        self.edge_semis = 0;
        self.edge_semi = None;
        self.edge_full = None;
        self.cap_empty_stops = !for_mover;
        // Base: adjacent nodes. Edge nodes are adjacent to the empty cells
        // along their edge too.
        let edge_touch = [bits.edge(e1), bits.edge(e2)];
        for a in 0..m {
            let mut near = bits.spread(node_cells[a]);
            if a < 2 {
                near |= edge_touch[a];
            }
            near &= empty | own;
            while near != 0 {
                let i = near.trailing_zeros() as usize;
                near &= near - 1;
                let b = node_of[i] as usize;
                if b > a && b != usize::from(u8::MAX) {
                    self.add_full(a, b, 0);
                }
            }
        }
        // Two edges touching one empty cell directly (a 1-row board) are
        // found by AND through that cell.
        let mut qi = 0;
        while qi < self.queue.len() && !self.stopped {
            let (x, y, c) = self.queue[qi];
            qi += 1;
            let (x, y) = (x as usize, y as usize);
            self.and_from(x, y, c);
            if self.stopped {
                break;
            }
            self.and_from(y, x, c);
        }
        EdgeInfo {
            full: self.edge_full,
            semi: self.edge_semi,
            semi_cap: self.edge_cap,
            semi_union: self.edge_union,
            semis: self.edge_semis,
        }
    }

    /// AND rule for the full (a, b, c) with `b` in the middle.
    #[inline]
    fn and_from(&mut self, a: usize, b: usize, c: u128) {
        if b < 2 {
            return;
        }
        let (a, b) = (a & (W - 1), b & (W - 1));
        let mid = self.cell_bit[b];
        let key = self.cell_of[b];
        // A second full may not meet this carrier nor contain `a`.
        let block = c | self.cell_bit[a];
        let mut zs = self.adj[b] & !bit(a);
        while zs != 0 {
            let z = zs.trailing_zeros() as usize & (W - 1);
            zs &= zs - 1;
            if self.cell_bit[z] & c != 0 {
                continue;
            }
            // The list (b, z) cannot change below: only pairs (a, z) do.
            let p = ix(b, z);
            let nf = self.nf[p] as usize;
            for k in 0..nf.min(FMAX) {
                let d = self.fulls[p][k];
                if d & block != 0 {
                    continue;
                }
                let u = c | d;
                if mid != 0 {
                    self.add_semi(a, z, u | mid, key);
                } else {
                    self.add_full(a, z, u);
                }
                if self.stopped {
                    return;
                }
            }
        }
    }

    #[inline]
    fn add_full(&mut self, a: usize, b: usize, c: u128) {
        if a == b {
            return;
        }
        let p = ix(a, b);
        let nf = self.nf[p] as usize;
        let fl = &mut self.fulls[p];
        if fl.iter().take(nf).any(|&f| f & !c == 0) {
            return;
        }
        // Drop the kept fulls that contain the new one.
        let mut k = 0;
        let mut n = nf;
        while k < n {
            if c & !fl[k] == 0 {
                fl[k] = fl[n - 1];
                n -= 1;
            } else {
                k += 1;
            }
        }
        if n < FMAX {
            fl[n] = c;
        }
        let list = *fl;
        let q = ix(b, a);
        self.fulls[q] = list;
        if n == FMAX {
            self.nf[p] = n as u8;
            self.nf[q] = n as u8;
            return;
        }
        self.nf[p] = (n + 1) as u8;
        self.nf[q] = (n + 1) as u8;
        self.adj[a & (W - 1)] |= bit(b);
        self.adj[b & (W - 1)] |= bit(a);
        if a + b == E1 + E2 && a.max(b) == E2 {
            self.edge_full = Some(c);
            self.stopped = true;
            return;
        }
        self.queue.push((a as u8, b as u8, c));
    }

    #[inline(always)]
    fn add_semi(&mut self, a: usize, b: usize, s: u128, key: u8) {
        debug_assert!(a != b);
        let p = ix(a, b);
        let nf = self.nf[p] as usize;
        if self.fulls[p].iter().take(nf).any(|&f| f & !s == 0) {
            return;
        }
        let p = if a < b { p } else { ix(b, a) };
        let ns = self.ns[p] as usize;
        let sl = &mut self.semis[p];
        if sl.iter().take(ns).any(|&x| x & !s == 0) {
            return;
        }
        let kl = &mut self.keys[p];
        let mut k = 0;
        let mut n = ns;
        while k < n {
            if s & !sl[k] == 0 {
                sl[k] = sl[n - 1];
                kl[k] = kl[n - 1];
                n -= 1;
            } else {
                k += 1;
            }
        }
        // A full list keeps its semis, but the new one still counts for
        // the edges' mustplay and may still complete an OR.
        if n == SMAX {
            self.ns[p] = n as u8;
        } else {
            sl[n] = s;
            kl[n] = key;
            self.ns[p] = (n + 1) as u8;
        }
        if p == ix(E1, E2) {
            self.edge_semis += 1;
            self.edge_cap &= s;
            self.edge_union |= s;
            if self.edge_semi.is_none() {
                self.edge_semi = Some((key as usize, s));
            }
            if self.stop_at == 2 || (self.cap_empty_stops && self.edge_cap == 0) {
                self.stopped = true;
                return;
            }
        }
        // OR: the new semi with others whose carriers leave no common cell.
        if n >= 1
            && let Some(u) = or_combine(&self.semis[p][..n], s)
        {
            self.add_full(a, b, u);
        }
    }
}

/// Searches the semis `list` (in order, depth first) for up to
/// `ORMAX - 1` of them that with `s` leave no common cell; returns the
/// union of the carriers used.
#[inline]
fn or_combine(list: &[u128], s: u128) -> Option<u128> {
    const _: () = assert!(ORMAX == 4, "or_combine is unrolled for ORMAX = 4");
    for (i, &x) in list.iter().enumerate() {
        let i1 = s & x;
        if i1 == s {
            continue;
        }
        let u1 = s | x;
        if i1 == 0 {
            return Some(u1);
        }
        for (j, &y) in list[i + 1..].iter().enumerate() {
            let i2 = i1 & y;
            if i2 == i1 {
                continue;
            }
            let u2 = u1 | y;
            if i2 == 0 {
                return Some(u2);
            }
            for &w in &list[i + j + 2..] {
                let i3 = i2 & w;
                if i3 == 0 {
                    return Some(u2 | w);
                }
            }
        }
    }
    None
}

/// The cells of `bits` as cells.
pub fn cells(mut b: u128) -> impl Iterator<Item = Cell> {
    std::iter::from_fn(move || {
        if b == 0 {
            return None;
        }
        let i = b.trailing_zeros() as usize;
        b &= b - 1;
        Some(Cell::from_index(i))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn position(n: usize, black: &[&str], white: &[&str]) -> Position {
        let g = Arc::new(Geometry::new(n, n).unwrap());
        let mut p = Position::new(g.clone());
        for b in black {
            p.play(Color::Black, g.parse_cell(b).unwrap());
        }
        for w in white {
            p.play(Color::White, g.parse_cell(w).unwrap());
        }
        p
    }

    fn run(p: &Position, color: Color, for_mover: bool) -> EdgeInfo {
        let bits = Bits::new(p.geometry()).unwrap();
        Hsearch::new().run(&bits, stones(p), color, for_mover)
    }

    #[test]
    fn centre_stone_of_three_by_three_is_connected() {
        // b2 reaches row 1 through b1 or c1 and row 3 through a3 or b3.
        let p = position(3, &["b2"], &[]);
        let info = run(&p, Color::Black, false);
        let carrier = info.full.expect("a full connection");
        let g = p.geometry();
        let names: Vec<String> = cells(carrier).map(|c| g.name(c)).collect();
        assert_eq!(names, ["b1", "c1", "a3", "b3"]);
    }

    #[test]
    fn one_cell_board_is_a_semi() {
        let p = position(1, &[], &[]);
        let info = run(&p, Color::White, true);
        assert_eq!(info.semi.map(|s| s.0), Some(0));
        assert!(info.full.is_none());
    }

    #[test]
    fn blocked_side_has_nothing() {
        // A full row of White stones cuts Black off.
        let p = position(3, &[], &["a2", "b2", "c2"]);
        let info = run(&p, Color::Black, false);
        assert!(info.full.is_none() && info.semi.is_none() && info.semis == 0);
        let info = run(&p, Color::White, false);
        assert_eq!(info.full, Some(0), "already joined");
    }

    #[test]
    fn mustplay_is_the_common_cells_of_the_threats() {
        // Black b2 on 3x3 with White c1: b2 reaches the top only through
        // b1 now, so Black's threats all need b1 (and the bottom pair).
        let p = position(3, &["b2"], &["c1"]);
        let info = run(&p, Color::Black, false);
        assert!(info.full.is_none());
        assert!(info.semis > 0);
        let g = p.geometry();
        let b1 = g.parse_cell("b1").unwrap().index();
        assert!(info.semi_cap & bit(b1) != 0);
    }
}

#[cfg(test)]
mod regression {
    use super::*;

    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            let mut x = self.0;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            self.0 = x;
            x
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// Random disjoint (Black, White) stones on `n` cells: `k` stones
    /// alternating in colour, Black first.
    fn random_stones(rng: &mut Rng, n: usize, k: usize) -> [u128; 2] {
        let mut st = [0u128; 2];
        let mut placed = 0;
        while placed < k {
            let i = rng.below(n);
            if (st[0] | st[1]) & bit(i) != 0 {
                continue;
            }
            st[placed % 2] |= bit(i);
            placed += 1;
        }
        st
    }

    fn fold(h: &mut u64, v: u128) {
        for w in [v as u64, (v >> 64) as u64] {
            *h = (*h ^ w).wrapping_mul(0x100_0000_01b3).rotate_left(29);
        }
    }

    fn fold_info(h: &mut u64, info: &EdgeInfo) {
        match info.full {
            Some(c) => {
                fold(h, 1);
                fold(h, c);
            }
            None => fold(h, 2),
        }
        match info.semi {
            Some((k, c)) => {
                fold(h, 3);
                fold(h, k as u128);
                fold(h, c);
            }
            None => fold(h, 4),
        }
        fold(h, info.semi_cap);
        fold(h, info.semi_union);
        fold(h, info.semis as u128);
    }

    /// Pins `Hsearch::run`'s results on a few thousand random positions
    /// (one reused `Hsearch`, as the solver reuses its own).
    #[test]
    fn checksum_of_random_positions_is_pinned() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut hs = Hsearch::new();
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        let mut found = [0usize; 3];
        for round in 0..4000 {
            let (w, ht) = if round % 4 == 3 {
                (3 + rng.below(9), 3 + rng.below(9))
            } else {
                let s = 3 + rng.below(9);
                (s, s)
            };
            let g = Geometry::new(w, ht).unwrap();
            let bits = Bits::new(&g).unwrap();
            let n = bits.n;
            let k = rng.below(n * 2 / 3 + 1);
            let st = random_stones(&mut rng, n, k);
            for color in Color::BOTH {
                for for_mover in [true, false] {
                    let info = hs.run(&bits, st, color, for_mover);
                    found[0] += info.full.is_some() as usize;
                    found[1] += info.semi.is_some() as usize;
                    found[2] += info.semis;
                    fold_info(&mut h, &info);
                }
            }
        }
        println!("vc checksum {h:#018x} found {found:?}");
        assert_eq!(h, 0xfcc8_9b48_33c2_06ea);
    }

    /// Timing: `cargo test --release --lib solver::vc -- --ignored
    /// --nocapture` (`VC_BENCH_SIZE=n` for n x n instead of 7x7).
    #[test]
    #[ignore]
    fn time_random_seven_by_seven() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let size = std::env::var("VC_BENCH_SIZE").map_or(7, |v| v.parse().unwrap());
        let g = Geometry::new(size, size).unwrap();
        let bits = Bits::new(&g).unwrap();
        let cases: Vec<([u128; 2], Color, bool)> = (0..2000)
            .map(|i| {
                let k = rng.below((bits.n * 3 / 5 + 1).min(30));
                let st = random_stones(&mut rng, bits.n, k);
                (st, Color::BOTH[i % 2], i % 4 < 2)
            })
            .collect();
        let mut hs = Hsearch::new();
        let mut sink = 0usize;
        let reps = 20;
        let start = std::time::Instant::now();
        for _ in 0..reps {
            for &(st, color, for_mover) in &cases {
                let info = hs.run(&bits, st, color, for_mover);
                sink += info.semis + info.full.is_some() as usize;
            }
        }
        let ns = start.elapsed().as_nanos() as f64 / (reps * cases.len()) as f64;
        println!("vc run: {ns:.0} ns/run (sink {sink})");
    }
}
