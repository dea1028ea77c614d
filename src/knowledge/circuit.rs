//! Resistance over a colour's connection graph as the bitboard H-search
//! ([`crate::solver::vc::Hsearch`]) left it: one resistor across every
//! node pair with a full connection, the colour's two edges as the
//! circuit's terminals. Conductance follows [`super::resistance`]: 1
//! between two empty cells, 2 when a group or an edge is involved,
//! divided by 1 + the number of cells all of the pair's full carriers
//! share (a link one stone can cut conducts less).
//!
//! The second edge is grounded and unit current enters at the first, so
//! the first edge's voltage is the resistance; the reduced Laplacian is
//! symmetric positive definite and solved by a dense Cholesky
//! factorisation (at most 127 unknowns). Nodes not linked to both edges
//! are left out (they would make the matrix singular). The current
//! through each empty cell (its energy) orders moves.

use crate::solver::vc::{Hsearch, bit};

/// Reusable buffers for one circuit solve at a time.
pub struct Circuit {
    links: Vec<(u8, u8, f64)>,
    adj: [u128; 128],
    index: [u8; 128],
    lap: Vec<f64>,
    rhs: Vec<f64>,
}

impl Default for Circuit {
    fn default() -> Self {
        Circuit::new()
    }
}

const NONE: u8 = u8::MAX;

impl Circuit {
    pub fn new() -> Circuit {
        Circuit {
            links: Vec::with_capacity(4096),
            adj: [0; 128],
            index: [NONE; 128],
            lap: Vec::new(),
            rhs: Vec::new(),
        }
    }

    /// The resistance between the edges of the graph `hs` found last
    /// (`f64::INFINITY` when they are not linked), adding each empty
    /// cell's energy into `energy` (indexed by cell).
    pub fn solve(&mut self, hs: &Hsearch, energy: &mut [f64; 128]) -> f64 {
        let m = hs.graph_nodes();
        if m < 2 {
            return f64::INFINITY;
        }
        self.links.clear();
        self.adj[..m].fill(0);
        let links = &mut self.links;
        let adj = &mut self.adj;
        hs.for_each_link(|a, b, common| {
            let base = if hs.node_cell(a).is_some() && hs.node_cell(b).is_some() {
                1.0
            } else {
                2.0
            };
            let g = base / (1.0 + common.count_ones() as f64);
            links.push((a as u8, b as u8, g));
            adj[a] |= bit(b);
            adj[b] |= bit(a);
        });
        let flood = |from: usize| {
            let mut seen = bit(from);
            let mut frontier = seen;
            while frontier != 0 {
                let mut next = 0;
                let mut f = frontier;
                while f != 0 {
                    let x = f.trailing_zeros() as usize;
                    f &= f - 1;
                    next |= adj[x];
                }
                frontier = next & !seen;
                seen |= next;
            }
            seen
        };
        let (src, sink) = (0usize, 1usize);
        let from_src = flood(src);
        if from_src & bit(sink) == 0 {
            return f64::INFINITY;
        }
        let kept = from_src & flood(sink) & !bit(sink);
        self.index[..m].fill(NONE);
        let mut u = 0usize;
        let mut k = kept;
        while k != 0 {
            let x = k.trailing_zeros() as usize;
            k &= k - 1;
            self.index[x] = u as u8;
            u += 1;
        }
        self.lap.clear();
        self.lap.resize(u * u, 0.0);
        let lap = &mut self.lap;
        let index = &self.index;
        for &(a, b, g) in self.links.iter() {
            let (ia, ib) = (index[a as usize], index[b as usize]);
            let keep = |x: u8, i: u8| i != NONE || x as usize == sink;
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
                lap[ia * u + ib] -= g;
                lap[ib * u + ia] -= g;
            }
        }
        self.rhs.clear();
        self.rhs.resize(u, 0.0);
        let s = index[src] as usize;
        self.rhs[s] = 1.0;
        if !cholesky_solve(&mut self.lap, u, &mut self.rhs) {
            return f64::INFINITY;
        }
        let v = &self.rhs;
        let volt = |x: u8| {
            let i = index[x as usize];
            if i == NONE { 0.0 } else { v[i as usize] }
        };
        for &(a, b, g) in self.links.iter() {
            let keep = |x: u8| index[x as usize] != NONE || x as usize == sink;
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
/// (row-major, `m` x `m`, overwritten by its lower factor); false when it
/// is not positive definite.
fn cholesky_solve(a: &mut [f64], m: usize, b: &mut [f64]) -> bool {
    for j in 0..m {
        let (head, tail) = a.split_at_mut(j * m + m);
        let row_j = &mut head[j * m..j * m + m];
        let d = row_j[j] - dot(&row_j[..j], &row_j[..j]);
        if d <= 1e-12 {
            return false;
        }
        let d = d.sqrt();
        row_j[j] = d;
        let inv = 1.0 / d;
        for i in j + 1..m {
            let row_i = &mut tail[(i - j - 1) * m..(i - j - 1) * m + m];
            let s = row_i[j] - dot(&row_i[..j], &row_j[..j]);
            row_i[j] = s * inv;
        }
    }
    for i in 0..m {
        let s = b[i] - dot(&a[i * m..i * m + i], &b[..i]);
        b[i] = s / a[i * m + i];
    }
    for i in (0..m).rev() {
        let mut s = b[i];
        for k in i + 1..m {
            s -= a[k * m + i] * b[k];
        }
        b[i] = s / a[i * m + i];
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
