//! Electrical resistance (Anshelevich's Hexy, Melis's Six, Wolve).
//!
//! One circuit per colour. Its nodes are the colour's stones and the empty
//! cells (opponent stones are cut out); its two edges are the source and
//! the sink. Resistors join adjacent nodes: empty-empty conducts 1,
//! stone-empty and edge-empty 2, stone-stone and stone-edge are near short
//! circuits. Bridges (two own stones, or an own stone and its edge, with
//! both cells between them empty) conduct better, standing in for Six's
//! virtual-connection resistors: the four links through the two carrier
//! cells of a bridge (and the carriers' links to the edge for an edge
//! bridge) get a higher conductance. Boosting links that exist anyway keeps
//! the matrix band one board line wide; a resistor straight across a
//! bridge would double the band and quadruple the cost.
//!
//! The sink is grounded and unit current is injected at the source; the
//! source voltage is the resistance. The score is ln(R_opp / R_own),
//! clamped, and each empty cell's value for move ordering is the current
//! through it in both circuits (Hexy's "energy").
//!
//! The conductance matrix is symmetric positive definite once the sink is
//! grounded and nodes not connected to it are dropped. Numbering the cells
//! line by line from the sink side, with the source node last, gives it a
//! band of one board line, so a banded Cholesky factorisation costs
//! O(n b^2) instead of O(n^3). With the source last, the factor alone gives
//! the resistance: R = 1 / L[s][s]^2; the voltages (for the currents) need
//! one more back substitution.

use super::{CELL_VALUE_MAX, CellValues, EvalKind, Evaluator};
use crate::board::{Cell, CellSet, Color, MAX_CELLS, MAX_SIZE, Position};

/// Conductance between two empty cells.
const G_EMPTY: f64 = 1.0;
/// Between an empty cell and an own stone, or an empty cell and the edge.
const G_STONE: f64 = 2.0;
/// Between two adjacent own stones, or an own stone and its edge.
const G_SHORT: f64 = 100.0;
/// A link through a bridge carrier: stone-carrier, carrier-edge.
const G_BRIDGE: f64 = 50.0;
/// The score is `SCALE * ln(R_opp / R_own)`, the log ratio clamped to
/// `+/- LOG_CLAMP`.
const SCALE: f64 = 300.0;
const LOG_CLAMP: f64 = 10.0;

/// Largest band: one board line.
const MAX_BAND: usize = MAX_SIZE;
const MAX_NODES: usize = MAX_CELLS + 1;

/// One resistor: node indices (in the circuit numbering; `SINK` for the
/// grounded edge) and conductance.
#[derive(Clone, Copy)]
struct Link {
    a: u16,
    b: u16,
    g: f64,
}

const SINK: u16 = u16::MAX;

pub struct ResistanceEval {
    /// Banded matrix, row `i` holds columns `i - band ..= i`.
    m: Vec<f64>,
    v: Vec<f64>,
    /// 1 / L[i][i].
    inv: Vec<f64>,
    links: Vec<Link>,
    /// Circuit node of each cell, per colour; cell of each node.
    node_of: Box<[[u16; MAX_CELLS]; 2]>,
    cell_of: Box<[[u16; MAX_CELLS]; 2]>,
    /// Board shape the numbering was built for.
    shape: (usize, usize),
    current: Box<[f64; MAX_CELLS]>,
    stack: Vec<u16>,
    /// Per own stone: neighbour slots that carry one of its bridges.
    carrier: Box<[u8; MAX_CELLS]>,
    /// Empty edge cells carrying an edge bridge.
    edge_carrier: CellSet,
}

impl Default for ResistanceEval {
    fn default() -> Self {
        ResistanceEval::new()
    }
}

/// One side's circuit after solving.
struct Solved {
    /// Resistance; infinite when cut off.
    r: f64,
    /// Nodes solved (cells + source).
    nodes: usize,
    band: usize,
}

impl ResistanceEval {
    pub fn new() -> ResistanceEval {
        ResistanceEval {
            m: vec![0.0; MAX_NODES * (MAX_BAND + 1)],
            v: vec![0.0; MAX_NODES],
            inv: vec![0.0; MAX_NODES],
            links: Vec::with_capacity(MAX_CELLS * 8),
            node_of: Box::new([[0; MAX_CELLS]; 2]),
            cell_of: Box::new([[0; MAX_CELLS]; 2]),
            shape: (0, 0),
            current: Box::new([0.0; MAX_CELLS]),
            stack: Vec::with_capacity(MAX_CELLS),
            carrier: Box::new([0; MAX_CELLS]),
            edge_carrier: CellSet::EMPTY,
        }
    }

    /// Numbers the cells line by line from each colour's sink edge.
    fn number(&mut self, pos: &Position) {
        let g = pos.geometry();
        let (w, h) = (g.width(), g.height());
        if self.shape == (w, h) {
            return;
        }
        self.shape = (w, h);
        for cell in g.cells() {
            let (c, r) = g.coords(cell);
            // Black: sink South, so the last row comes first; columns run
            // right to left so the up-right neighbour is w - 1 away.
            let nb = (h - 1 - r) * w + (w - 1 - c);
            // White: sink East, so the last column comes first.
            let nw = (w - 1 - c) * h + (h - 1 - r);
            self.node_of[0][cell.index()] = nb as u16;
            self.node_of[1][cell.index()] = nw as u16;
            self.cell_of[0][nb] = cell.index() as u16;
            self.cell_of[1][nw] = cell.index() as u16;
        }
    }

    /// Builds `color`'s resistors and solves the circuit.
    fn solve(&mut self, pos: &Position, color: Color, want_voltages: bool) -> Solved {
        self.number(pos);
        let g = pos.geometry();
        let n = g.num_cells();
        let k = color.index();
        let line = if color == Color::Black {
            g.width()
        } else {
            g.height()
        };
        let band = line.min(n);
        let src = n as u16;
        let (from, to) = color.edges();
        let own = pos.stones(color);
        let opp = pos.stones(color.opponent());
        let allowed = g.all_cells().difference(opp);

        // Cells joined to the sink through allowed cells: the rest would
        // make the matrix singular.
        let mut live = g.edge_cells(to).intersection(&allowed);
        self.stack.clear();
        self.stack.extend(live.iter().map(|c| c.index() as u16));
        while let Some(i) = self.stack.pop() {
            for &nb in g.neighbours(Cell::from_index(i as usize)) {
                if allowed.contains(nb) && !live.contains(nb) {
                    live.insert(nb);
                    self.stack.push(nb.index() as u16);
                }
            }
        }
        if live.is_disjoint(g.edge_cells(from)) {
            return Solved {
                r: f64::INFINITY,
                nodes: 0,
                band,
            };
        }

        self.bridge_carriers(pos, color, &live);
        self.links.clear();
        for x in live.iter() {
            let node = |c: Cell| self.node_of[k][c.index()];
            let xo = own.contains(x);
            let xn = node(x);
            for (slot, &y) in g.neighbours(x).iter().enumerate() {
                // Each pair once: from the higher-numbered end.
                if !live.contains(y) || node(y) > xn {
                    continue;
                }
                let yo = own.contains(y);
                let gxy = match (xo, yo) {
                    (true, true) => G_SHORT,
                    (false, false) => G_EMPTY,
                    (true, false) if self.carrier[x.index()] & (1 << slot) != 0 => G_BRIDGE,
                    (false, true) if self.is_carrier_of(pos, y, x) => G_BRIDGE,
                    _ => G_STONE,
                };
                self.links.push(Link {
                    a: xn,
                    b: node(y),
                    g: gxy,
                });
            }
            let edge_g = if xo {
                G_SHORT
            } else if self.edge_carrier.contains(x) {
                G_BRIDGE
            } else {
                G_STONE
            };
            if g.touches(x, from) {
                self.links.push(Link {
                    a: src,
                    b: xn,
                    g: edge_g,
                });
            }
            if g.touches(x, to) {
                self.links.push(Link {
                    a: xn,
                    b: SINK,
                    g: edge_g,
                });
            }
        }

        // Assemble the banded matrix.
        let nodes = n + 1;
        let stride = band + 1;
        self.m[..nodes * stride].fill(0.0);
        for i in 0..n {
            if !live.contains(Cell::from_index(self.cell_of[k][i] as usize)) {
                self.m[i * stride + band] = 1.0;
            }
        }
        for l in &self.links {
            let (a, b) = (l.a as usize, l.b);
            self.m[a * stride + band] += l.g;
            if b != SINK {
                let b = b as usize;
                self.m[b * stride + band] += l.g;
                debug_assert!(b < a && a - b <= band);
                self.m[a * stride + band - (a - b)] -= l.g;
            }
        }
        // Banded Cholesky, in place, column by column ("right-looking"):
        // each column updates the rows below it with contiguous,
        // independent multiply-adds that the compiler vectorises, instead
        // of a chain of short dot products each waiting for the last.
        let mut col = [0.0f64; MAX_BAND];
        for j in 0..nodes {
            let rj = j * stride + band - j;
            let d = self.m[rj + j].max(1e-12).sqrt();
            self.m[rj + j] = d;
            let inv = 1.0 / d;
            self.inv[j] = inv;
            let hi = (j + band).min(nodes - 1);
            for i in j + 1..=hi {
                let at = i * stride + band - i + j;
                self.m[at] *= inv;
                col[i - j - 1] = self.m[at];
            }
            for i in j + 1..=hi {
                let l = col[i - j - 1];
                if l == 0.0 {
                    continue;
                }
                let ri = i * stride + band - i;
                let row = &mut self.m[ri + j + 1..=ri + i];
                for (a, c) in row.iter_mut().zip(&col[..i - j]) {
                    *a -= l * c;
                }
            }
        }
        let lss = self.m[n * stride + band];
        let r = 1.0 / (lss * lss);
        if want_voltages {
            // L^T v = e_src / L_ss, backwards.
            for i in (0..nodes).rev() {
                let mut s = if i == n { 1.0 / lss } else { 0.0 };
                for kk in i + 1..=(i + band).min(nodes - 1) {
                    s -= self.m[kk * stride + band - (kk - i)] * self.v[kk];
                }
                self.v[i] = s * self.inv[i];
            }
        }
        Solved { r, nodes, band }
    }

    /// Whether empty `c` carries a bridge of own stone `x`.
    fn is_carrier_of(&self, pos: &Position, x: Cell, c: Cell) -> bool {
        let bits = self.carrier[x.index()];
        bits != 0
            && pos
                .geometry()
                .neighbours(x)
                .iter()
                .enumerate()
                .any(|(slot, &n)| n == c && bits & (1 << slot) != 0)
    }

    /// Marks bridge carriers: for each own stone, which of its neighbour
    /// slots are carriers of a bridge to another own stone or to one of the
    /// colour's edges; and the edge cells that carry an edge bridge.
    fn bridge_carriers(&mut self, pos: &Position, color: Color, live: &CellSet) {
        let g = pos.geometry();
        let own = pos.stones(color);
        self.edge_carrier = CellSet::EMPTY;
        let (e1, e2) = color.edges();
        for x in own.iter() {
            let nbs = g.neighbours(x);
            let mut bits = 0u8;
            // Two empty neighbours of x that are adjacent to each other
            // carry a bridge when they share another own neighbour, or
            // both lie on an edge x does not touch.
            for (i, &a) in nbs.iter().enumerate() {
                if !pos.is_empty(a) || !live.contains(a) {
                    continue;
                }
                for (j, &b) in nbs.iter().enumerate().skip(i + 1) {
                    if !pos.is_empty(b) || !g.neighbours(a).contains(&b) {
                        continue;
                    }
                    let to_stone = g
                        .neighbours(a)
                        .iter()
                        .any(|&y| y != x && own.contains(y) && g.neighbours(b).contains(&y));
                    let to_edge = [e1, e2]
                        .into_iter()
                        .any(|e| !g.touches(x, e) && g.touches(a, e) && g.touches(b, e));
                    if to_stone || to_edge {
                        bits |= (1 << i) | (1 << j);
                    }
                    if to_edge {
                        self.edge_carrier.insert(a);
                        self.edge_carrier.insert(b);
                    }
                }
            }
            self.carrier[x.index()] = bits;
        }
    }

    /// Adds the current through each empty cell of the last solved circuit
    /// (of `color`) into `self.current`.
    ///
    /// Flow along boosted bridge links is left out: the carriers of a
    /// bridge carry much current but playing there wastes a move, and as
    /// move-ordering values they would crowd out the real candidates.
    fn add_currents(&mut self, pos: &Position, color: Color, s: &Solved) {
        let n = pos.geometry().num_cells();
        let k = color.index();
        let volt = |i: u16, v: &[f64]| if i == SINK { 0.0 } else { v[i as usize] };
        for l in &self.links {
            if l.g == G_BRIDGE {
                continue;
            }
            let f = l.g * (volt(l.a, &self.v) - volt(l.b, &self.v)).abs();
            for e in [l.a, l.b] {
                if e != SINK && (e as usize) < n {
                    let c = self.cell_of[k][e as usize] as usize;
                    self.current[c] += f;
                }
            }
        }
        let _ = s;
    }

    fn score(own: f64, opp: f64) -> i32 {
        let ratio = if own.is_infinite() && opp.is_infinite() {
            0.0
        } else if own.is_infinite() {
            -LOG_CLAMP
        } else if opp.is_infinite() {
            LOG_CLAMP
        } else {
            (opp / own).ln().clamp(-LOG_CLAMP, LOG_CLAMP)
        };
        (ratio * SCALE).round() as i32
    }
}

impl Evaluator for ResistanceEval {
    fn kind(&self) -> EvalKind {
        EvalKind::Resistance
    }

    fn evaluate(&mut self, pos: &Position, to_move: Color) -> i32 {
        let own = self.solve(pos, to_move, false).r;
        let opp = self.solve(pos, to_move.opponent(), false).r;
        Self::score(own, opp)
    }

    fn evaluate_cells(&mut self, pos: &Position, to_move: Color, values: &mut CellValues) -> i32 {
        let n = pos.geometry().num_cells();
        self.current[..n].fill(0.0);
        let mut r = [0.0; 2];
        for color in Color::BOTH {
            let s = self.solve(pos, color, true);
            r[color.index()] = s.r;
            if s.r.is_finite() {
                self.add_currents(pos, color, &s);
            }
            debug_assert!(s.nodes == 0 || s.band <= MAX_BAND);
        }
        let empty = pos.empty_cells();
        for c in pos.geometry().cells() {
            values[c.index()] = if empty.contains(c) {
                // Each unit of current enters and leaves a cell: half the
                // sum of |flow| is what passes through; two circuits.
                ((self.current[c.index()] * 0.25) * CELL_VALUE_MAX as f64)
                    .round()
                    .clamp(0.0, CELL_VALUE_MAX as f64) as i32
            } else {
                0
            };
        }
        Self::score(r[to_move.index()], r[to_move.opponent().index()])
    }

    fn measures(&mut self, pos: &Position) -> [f64; 2] {
        Color::BOTH.map(|c| self.solve(pos, c, false).r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Geometry;
    use std::sync::Arc;

    fn pos_from(w: usize, h: usize, black: &[&str], white: &[&str]) -> Position {
        Position::from_names(w, h, black, white)
    }

    #[test]
    fn one_by_two_circuits_by_hand() {
        let mut e = ResistanceEval::new();
        // 1 column, 2 rows, empty: Black's circuit is
        // top edge -2- a1 -1- a2 -2- bottom edge: R = 1/2 + 1 + 1/2 = 2.
        let p = pos_from(1, 2, &[], &[]);
        let [rb, rw] = e.measures(&p);
        assert!((rb - 2.0).abs() < 1e-9, "{rb}");
        // White: two parallel paths edge -2- cell -2- edge, each 1: R = 1/2.
        assert!((rw - 0.5).abs() < 1e-9, "{rw}");
        // A white stone on a1 cuts Black off.
        let p = pos_from(1, 2, &[], &["a1"]);
        assert!(e.measures(&p)[0].is_infinite());
    }

    #[test]
    fn symmetric_on_empty_boards_and_stones_help() {
        let mut e = ResistanceEval::new();
        for n in [3, 5, 11] {
            let p = pos_from(n, n, &[], &[]);
            let [rb, rw] = e.measures(&p);
            assert!((rb - rw).abs() < 1e-9 * rb, "{n}: {rb} {rw}");
            assert_eq!(e.evaluate(&p, Color::Black), 0);
        }
        let p = pos_from(7, 7, &["d4"], &[]);
        assert!(e.evaluate(&p, Color::Black) > 0);
        let mut v = [0; MAX_CELLS];
        let s = e.evaluate_cells(&p, Color::White, &mut v);
        assert_eq!(s, -e.evaluate(&p, Color::Black));
        assert_eq!(v[p.geometry().parse_cell("d4").unwrap().index()], 0);
        // Cells on the short lines near the stone carry more current than
        // a corner.
        let g = p.geometry();
        assert!(v[g.parse_cell("d3").unwrap().index()] > v[g.parse_cell("a1").unwrap().index()]);
    }

    /// Mirroring the board across the long diagonal and swapping colours
    /// swaps the two circuits: the resistances must swap too.
    #[test]
    fn mirror_symmetry_on_random_positions() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut e = ResistanceEval::new();
        for _ in 0..200 {
            let n = 2 + (rnd() % 12) as usize;
            let g = Arc::new(Geometry::new(n, n).unwrap());
            let mut p = Position::new(g.clone());
            let mut m = Position::new(g.clone());
            for c in g.cells() {
                let r = rnd() % 10;
                let color = match r {
                    0 | 1 => Color::Black,
                    2 | 3 => Color::White,
                    _ => continue,
                };
                p.play(color, c);
                m.play(color.opponent(), g.mirror(c).unwrap());
            }
            if p.winner().is_some() {
                continue;
            }
            let [pb, pw] = e.measures(&p);
            let [mb, mw] = e.measures(&m);
            let close = |a: f64, b: f64| {
                (a.is_infinite() && b.is_infinite()) || (a - b).abs() <= 1e-9 * a.max(1.0)
            };
            assert!(
                close(pb, mw) && close(pw, mb),
                "{n}: {pb} {pw} vs {mb} {mw}"
            );
        }
    }

    #[test]
    fn bridge_lowers_resistance() {
        let mut e = ResistanceEval::new();
        let bridged = pos_from(7, 7, &["c3", "d4"], &[]);
        let blocked = pos_from(7, 7, &["c3", "d4"], &["d3"]);
        let rb = e.measures(&bridged)[0];
        let rk = e.measures(&blocked)[0];
        assert!(rb < rk);
    }
}
