//! Resistance over a colour's connection graph as the bitboard H-search
//! ([`crate::knowledge::vc::Hsearch`]) left it: one resistor across every
//! node pair with a full connection, the colour's two edges as the
//! circuit's terminals. Conductance: 1 between two empty cells, 2 between
//! a group (or an edge) and an empty cell, none between two groups.
//!
//! The second edge is grounded and unit current enters at the first, so
//! the first edge's voltage is the resistance; the reduced Laplacian is
//! symmetric positive definite and solved by a Cholesky factorisation
//! over its envelope (at most one unknown a node, the empty cells in
//! reverse Cuthill-McKee order, which on the bench's positions cuts the
//! envelope by a fifth and the factorisation's work by a third). Nodes
//! not linked to both edges are left out (they would make the matrix
//! singular). The current through each empty cell (its energy) orders
//! moves.

use crate::board::Bitboard;
use crate::knowledge::vc::{Hsearch, bit};

/// Reusable buffers for one circuit solve at a time.
pub struct Circuit<B: Bitboard> {
    links: Vec<(u16, u16, f64)>,
    adj: Vec<B>,
    index: Vec<u16>,
    /// The empty cells' nodes in their unknowns' order, and a buffer.
    order: Vec<usize>,
    next: Vec<(u32, usize)>,
    lap: Vec<f64>,
    /// Per unknown: the first column of its row in the factor's envelope.
    first: Vec<usize>,
    rhs: Vec<f64>,
}

impl<B: Bitboard> Default for Circuit<B> {
    fn default() -> Self {
        Circuit::new()
    }
}

const NONE: u16 = u16::MAX;

/// Conductance of a full connection between two empty cells.
const EMPTY_TO_EMPTY: f64 = 1.0;
/// Conductance of a full connection between a group (or an edge) and an
/// empty cell. Two groups conduct only through empty cells: a full
/// connection between them adds no resistor (the values Benzene's
/// resistance uses).
const STONE_TO_EMPTY: f64 = 2.0;

impl<B: Bitboard> Circuit<B> {
    /// The nodes of `hs`'s last run (of `m`) that are empty cells.
    fn cell_nodes(&self, hs: &Hsearch<B>, m: usize) -> B {
        (0..m)
            .filter(|&x| hs.node_cell(x).is_some())
            .fold(B::ZERO, |acc, x| acc | bit(x))
    }

    pub fn new() -> Circuit<B> {
        Circuit {
            links: Vec::with_capacity(4096),
            adj: vec![B::ZERO; B::BITS],
            index: vec![NONE; B::BITS],
            order: Vec::new(),
            next: Vec::new(),
            lap: Vec::new(),
            first: Vec::new(),
            rhs: Vec::new(),
        }
    }

    /// The resistance between the edges of the graph `hs` found last
    /// (`f64::INFINITY` when they are not linked), adding each empty
    /// cell's energy into `energy` (indexed by cell).
    pub fn solve(&mut self, hs: &Hsearch<B>, energy: &mut [f64]) -> f64 {
        let m = hs.graph_nodes();
        if m < 2 {
            return f64::INFINITY;
        }
        let cell_nodes = self.cell_nodes(hs, m);
        self.links.clear();
        self.adj[..m].fill(B::ZERO);
        let links = &mut self.links;
        let adj = &mut self.adj;
        hs.for_each_link(|a, b| {
            let g = match (hs.node_cell(a).is_some(), hs.node_cell(b).is_some()) {
                (true, true) => EMPTY_TO_EMPTY,
                (false, false) => return,
                _ => STONE_TO_EMPTY,
            };
            links.push((a as u16, b as u16, g));
            adj[a] |= bit(b);
            adj[b] |= bit(a);
        });
        let flood = |from: usize| {
            let mut seen = bit::<B>(from);
            let mut frontier = seen;
            while frontier.any() {
                let mut next = B::ZERO;
                for x in frontier.ones() {
                    next |= adj[x];
                }
                frontier = next & !seen;
                seen |= next;
            }
            seen
        };
        let (src, sink) = (0usize, 1usize);
        let from_src = flood(src);
        if !from_src.has(sink) {
            return f64::INFINITY;
        }
        let kept = from_src & flood(sink) & !bit::<B>(sink);
        // Unknowns in an order that keeps the factor's envelope narrow:
        // the empty cells in reverse Cuthill-McKee order (breadth first
        // from a cell with the fewest links among them, each cell's
        // unnumbered neighbours fewest links first, the whole reversed),
        // then the groups and the source edge, which link to cells all
        // over the board and would fill the whole factor if they came
        // first.
        self.index[..m].fill(NONE);
        let cells = kept & cell_nodes;
        let adj = &self.adj;
        let degree = |x: usize| (adj[x] & cells).count();
        self.order.clear();
        let mut seen = B::ZERO;
        while let Some(start) = (cells & !seen).ones().min_by_key(|&x| (degree(x), x)) {
            seen |= bit(start);
            let mut head = self.order.len();
            self.order.push(start);
            while head < self.order.len() {
                let x = self.order[head];
                head += 1;
                self.next.clear();
                self.next
                    .extend((adj[x] & cells & !seen).ones().map(|y| (degree(y), y)));
                self.next.sort_unstable();
                for &(_, y) in &self.next {
                    seen |= bit(y);
                    self.order.push(y);
                }
            }
        }
        let mut u = 0usize;
        for &x in self.order.iter().rev() {
            self.index[x] = u as u16;
            u += 1;
        }
        for set in [kept & !cells & !bit::<B>(src), kept & bit::<B>(src)] {
            for x in set.ones() {
                self.index[x] = u as u16;
                u += 1;
            }
        }
        // Each row's envelope (from its first linked column to the
        // diagonal) is all the factorisation reads: only it is cleared
        // and filled, the lower triangle alone.
        let keep = |x: u16, i: u16| i != NONE || x as usize == sink;
        self.first.clear();
        self.first.extend(0..u);
        let index = &self.index;
        for &(a, b, _) in self.links.iter() {
            let (ia, ib) = (index[a as usize], index[b as usize]);
            if ia != NONE && ib != NONE {
                let (lo, hi) = (ia.min(ib) as usize, ia.max(ib) as usize);
                self.first[hi] = self.first[hi].min(lo);
            }
        }
        if self.lap.len() < u * u {
            self.lap.resize(u * u, 0.0);
        }
        for (i, &f) in self.first.iter().enumerate() {
            self.lap[i * u + f..=i * u + i].fill(0.0);
        }
        let lap = &mut self.lap;
        for &(a, b, g) in self.links.iter() {
            let (ia, ib) = (index[a as usize], index[b as usize]);
            if !keep(a, ia) || !keep(b, ib) {
                continue;
            }
            let (ia, ib) = (ia as usize, ib as usize);
            if ia != NONE as usize {
                lap[ia * u + ia] += g;
            }
            if ib != NONE as usize {
                lap[ib * u + ib] += g;
            }
            if ia != NONE as usize && ib != NONE as usize {
                lap[ia.max(ib) * u + ia.min(ib)] -= g;
            }
        }
        self.rhs.clear();
        self.rhs.resize(u, 0.0);
        let s = index[src] as usize;
        self.rhs[s] = 1.0;
        if !cholesky_solve(&mut self.lap, &self.first, u, &mut self.rhs) {
            return f64::INFINITY;
        }
        let v = &self.rhs;
        let volt = |x: u16| {
            let i = index[x as usize];
            if i == NONE { 0.0 } else { v[i as usize] }
        };
        for &(a, b, g) in self.links.iter() {
            let keep = |x: u16| index[x as usize] != NONE || x as usize == sink;
            if !keep(a) || !keep(b) {
                continue;
            }
            let i = g * (volt(a) - volt(b)).abs() * 0.5;
            for x in [a, b] {
                if let Some(c) = hs.node_cell(x as usize) {
                    energy[c] += i;
                }
            }
        }
        v[s]
    }
}

/// Solves `a x = b` in place for a symmetric positive definite `a`
/// (row-major, `m` x `m`, given by its lower triangle and overwritten by
/// its lower factor) whose row `i` has no entry left of column
/// `first[i]`: the factor keeps that envelope, so only it is read and
/// computed. False when `a` is not positive definite.
fn cholesky_solve(a: &mut [f64], first: &[usize], m: usize, b: &mut [f64]) -> bool {
    for i in 0..m {
        let fi = first[i];
        let (done, rest) = a.split_at_mut(i * m);
        let row_i = &mut rest[..m];
        for j in fi..i {
            let row_j = &done[j * m..j * m + m];
            let lo = fi.max(first[j]);
            let s = row_i[j] - dot(&row_i[lo..j], &row_j[lo..j]);
            row_i[j] = s / row_j[j];
        }
        let d = row_i[i] - dot(&row_i[fi..i], &row_i[fi..i]);
        if d <= 1e-12 {
            return false;
        }
        row_i[i] = d.sqrt();
    }
    for i in 0..m {
        let fi = first[i];
        let s = b[i] - dot(&a[i * m + fi..i * m + i], &b[fi..i]);
        b[i] = s / a[i * m + i];
    }
    for i in (0..m).rev() {
        b[i] /= a[i * m + i];
        let bi = b[i];
        for k in first[i]..i {
            b[k] -= a[i * m + k] * bi;
        }
    }
    true
}

#[inline]
fn dot(x: &[f64], y: &[f64]) -> f64 {
    // Four accumulators, so the loop vectorises.
    let mut acc = [0.0f64; 4];
    let chunks = x.len() / 4;
    for k in 0..chunks {
        for l in 0..4 {
            acc[l] += x[4 * k + l] * y[4 * k + l];
        }
    }
    let mut s = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    for k in chunks * 4..x.len() {
        s += x[k] * y[k];
    }
    s
}
