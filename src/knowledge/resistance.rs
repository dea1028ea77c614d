//! Electrical resistance over the virtual connection graph of
//! [`super::Knowledge`] (the endgame search's evaluation; the connection
//! search uses [`super::circuit`]): one circuit per colour whose nodes
//! are the colour's groups, its two edges and the empty cells, with a
//! resistor across every pair that has a full connection. Conductance: 1
//! between two empty cells, 2 when a stone group or an edge is involved,
//! divided by 1 + the size of the intersection of the pair's full carriers
//! (a pair that can be cut in one place conducts less). The sink edge is
//! grounded, unit current is injected at the source edge, and the source's
//! voltage is the resistance. With the sink grounded the reduced Laplacian
//! is symmetric positive definite, so it is solved by a dense Cholesky
//! factorisation (about 125 unknowns on 11x11). Nodes not linked to both
//! edges are dropped (they would make the matrix singular).

use crate::board::{Cell, CellSet, Color};

use super::{Knowledge, vc::Node};

/// The score's bound: `ln(R_white / R_black)` is clamped to +/- this.
pub const CLAMP: f64 = 10.0;

/// One colour's circuit solved: the resistance between its edges
/// (`f64::INFINITY` when they are not linked) and the energy (current
/// through each node) per cell, indexed by cell.
#[derive(Clone, Debug)]
pub struct Circuit {
    pub resistance: f64,
    pub energy: Vec<f64>,
}

/// Solves `color`'s circuit.
pub fn circuit(k: &Knowledge, color: Color) -> Circuit {
    let vc = k.vcs(color);
    let n = k.geometry().num_cells();
    let mut energy = vec![0.0; n];
    let (src, sink) = vc.edge_nodes();
    if vc.is_won() {
        return Circuit {
            resistance: 0.0,
            energy,
        };
    }
    // Edges of the circuit.
    let mut links: Vec<(Node, Node, f64)> = Vec::new();
    for ((a, b), list) in vc.pairs() {
        if list.fulls.is_empty() {
            continue;
        }
        let inter = list
            .fulls
            .iter()
            .skip(1)
            .fold(list.fulls[0], |acc, f| acc.intersection(f));
        let is_empty =
            |x: Node| (x as usize) < n && k.position().is_empty(Cell::from_index(x as usize));
        let base = if is_empty(a) && is_empty(b) { 1.0 } else { 2.0 };
        links.push((a, b, base / (1.0 + inter.len() as f64)));
    }
    // Nodes linked to both edges.
    let total = n + 4;
    let mut adj: Vec<Vec<(usize, f64)>> = vec![Vec::new(); total];
    for &(a, b, g) in &links {
        adj[a as usize].push((b as usize, g));
        adj[b as usize].push((a as usize, g));
    }
    let reach = |from: usize| {
        let mut seen = vec![false; total];
        seen[from] = true;
        let mut stack = vec![from];
        while let Some(x) = stack.pop() {
            for &(y, _) in &adj[x] {
                if !seen[y] {
                    seen[y] = true;
                    stack.push(y);
                }
            }
        }
        seen
    };
    let (from_src, from_sink) = (reach(src as usize), reach(sink as usize));
    if !from_src[sink as usize] {
        return Circuit {
            resistance: f64::INFINITY,
            energy,
        };
    }
    // Unknowns: kept nodes other than the grounded sink.
    let mut index = vec![usize::MAX; total];
    let mut nodes = Vec::new();
    for x in 0..total {
        if from_src[x] && from_sink[x] && x != sink as usize {
            index[x] = nodes.len();
            nodes.push(x);
        }
    }
    let m = nodes.len();
    let mut l = vec![0.0f64; m * m];
    for &(a, b, g) in &links {
        let (ia, ib) = (index[a as usize], index[b as usize]);
        let keep = |x: Node| x == sink || index[x as usize] != usize::MAX;
        if !keep(a) || !keep(b) {
            continue;
        }
        if ia != usize::MAX {
            l[ia * m + ia] += g;
        }
        if ib != usize::MAX {
            l[ib * m + ib] += g;
        }
        if ia != usize::MAX && ib != usize::MAX {
            l[ia * m + ib] -= g;
            l[ib * m + ia] -= g;
        }
    }
    let mut rhs = vec![0.0; m];
    rhs[index[src as usize]] = 1.0;
    let Some(v) = cholesky_solve(&mut l, m, rhs) else {
        return Circuit {
            resistance: f64::INFINITY,
            energy,
        };
    };
    let volt = |x: Node| {
        if x == sink { 0.0 } else { v[index[x as usize]] }
    };
    for &(a, b, g) in &links {
        let keep = |x: Node| x == sink || index[x as usize] != usize::MAX;
        if !keep(a) || !keep(b) {
            continue;
        }
        let i = g * (volt(a) - volt(b)).abs();
        for x in [a, b] {
            if (x as usize) < n {
                energy[x as usize] += i / 2.0;
            }
        }
    }
    Circuit {
        resistance: v[index[src as usize]],
        energy,
    }
}

/// Solves `a x = b` for a symmetric positive definite `a` (row-major,
/// `m` x `m`, overwritten by its factor). `None` if it is not positive
/// definite.
fn cholesky_solve(a: &mut [f64], m: usize, mut b: Vec<f64>) -> Option<Vec<f64>> {
    for j in 0..m {
        let mut d = a[j * m + j];
        for k in 0..j {
            d -= a[j * m + k] * a[j * m + k];
        }
        if d <= 1e-12 {
            return None;
        }
        let d = d.sqrt();
        a[j * m + j] = d;
        for i in j + 1..m {
            let mut s = a[i * m + j];
            for k in 0..j {
                s -= a[i * m + k] * a[j * m + k];
            }
            a[i * m + j] = s / d;
        }
    }
    for i in 0..m {
        let mut s = b[i];
        for k in 0..i {
            s -= a[i * m + k] * b[k];
        }
        b[i] = s / a[i * m + i];
    }
    for i in (0..m).rev() {
        let mut s = b[i];
        for k in i + 1..m {
            s -= a[k * m + i] * b[k];
        }
        b[i] = s / a[i * m + i];
    }
    Some(b)
}

/// The position's score from Black's side: `ln(R_white / R_black)`,
/// clamped to +/- [`CLAMP`] (an unlinked side has infinite resistance).
pub fn score(k: &Knowledge) -> f64 {
    let rb = circuit(k, Color::Black).resistance;
    let rw = circuit(k, Color::White).resistance;
    match (rb.is_finite(), rw.is_finite()) {
        (true, true) => (rw.max(1e-9) / rb.max(1e-9)).ln().clamp(-CLAMP, CLAMP),
        (true, false) => CLAMP,
        (false, true) => -CLAMP,
        (false, false) => 0.0,
    }
}

/// The empty cells ordered by the energy of both circuits summed, highest
/// first: a move ordering.
pub fn ordered_moves(k: &Knowledge, among: &CellSet) -> Vec<Cell> {
    let b = circuit(k, Color::Black).energy;
    let w = circuit(k, Color::White).energy;
    let mut cells: Vec<(Cell, f64)> = among
        .iter()
        .map(|c| (c, b[c.index()] + w[c.index()]))
        .collect();
    cells.sort_by(|x, y| y.1.total_cmp(&x.1));
    cells.into_iter().map(|(c, _)| c).collect()
}
