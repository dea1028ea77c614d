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

#[derive(Clone, Copy, Default)]
struct Lists {
    nf: u8,
    ns: u8,
}

/// Reusable H-search buffers.
pub struct Hsearch {
    m: usize,
    counts: Vec<Lists>,
    fulls: Vec<[u128; FMAX]>,
    semis: Vec<[u128; SMAX]>,
    keys: Vec<[u8; SMAX]>,
    /// Per node: the nodes it has a full connection with.
    adj: Vec<u128>,
    /// Per node: its cell's bit when it is an empty cell, else 0.
    cell_bit: Vec<u128>,
    /// Per node: whether it is an empty cell.
    is_cell: Vec<bool>,
    /// Per node: the cell index (empty cells only).
    cell_of: Vec<u8>,
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

impl Hsearch {
    pub fn new() -> Hsearch {
        Hsearch {
            m: 0,
            counts: Vec::new(),
            fulls: Vec::new(),
            semis: Vec::new(),
            keys: Vec::new(),
            adj: Vec::new(),
            cell_bit: Vec::new(),
            is_cell: Vec::new(),
            cell_of: Vec::new(),
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

    #[inline]
    fn pair(&self, a: usize, b: usize) -> usize {
        if a < b {
            a * self.m + b
        } else {
            b * self.m + a
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
        let open = bits.all & !stones[color.opponent().index()];
        let live = bits.flood(bits.edge(e1) & open, open) & bits.flood(bits.edge(e2) & open, open);
        let opp = bits.all & !(live & open);
        let own = own & live;
        let empty = bits.all & !own & !opp;
        // Number the nodes: edges, groups, empty cells.
        let mut node_of = [u8::MAX; MAX_BITS];
        let mut node_cells: Vec<u128> = Vec::with_capacity(64);
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
        node_cells.push(edge1);
        node_cells.push(edge2);
        let mut rest = own & !edge1 & !edge2;
        while rest != 0 {
            let g = bits.flood(rest & rest.wrapping_neg(), own);
            rest &= !g;
            node_cells.push(g);
        }
        let groups = node_cells.len();
        let mut e = empty;
        while e != 0 {
            let i = e.trailing_zeros() as usize;
            e &= e - 1;
            node_cells.push(bit(i));
        }
        let m = node_cells.len();
        if m > 128 {
            return EdgeInfo {
                semi_cap: bits.all,
                ..EdgeInfo::default()
            };
        }
        for (k, &cells) in node_cells.iter().enumerate() {
            let mut c = cells;
            while c != 0 {
                let i = c.trailing_zeros() as usize;
                c &= c - 1;
                node_of[i] = k as u8;
            }
        }
        self.m = m;
        self.counts.clear();
        self.counts.resize(m * m, Lists::default());
        if self.fulls.len() < m * m {
            self.fulls.resize(m * m, [0; FMAX]);
            self.semis.resize(m * m, [0; SMAX]);
            self.keys.resize(m * m, [0; SMAX]);
        }
        self.adj.clear();
        self.adj.resize(m, 0);
        self.cell_bit.clear();
        self.is_cell.clear();
        self.cell_of.clear();
        for (k, &cells) in node_cells.iter().enumerate() {
            let is_cell = k >= groups;
            self.is_cell.push(is_cell);
            self.cell_bit.push(if is_cell { cells } else { 0 });
            self.cell_of.push(if is_cell {
                cells.trailing_zeros() as u8
            } else {
                0
            });
        }
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
    fn and_from(&mut self, a: usize, b: usize, c: u128) {
        if b < 2 {
            return;
        }
        let mut zs = self.adj[b] & !bit(a);
        while zs != 0 && !self.stopped {
            let z = zs.trailing_zeros() as usize;
            zs &= zs - 1;
            if self.cell_bit[z] & c != 0 {
                continue;
            }
            let p = self.pair(b, z);
            let nf = self.counts[p].nf as usize;
            let fl = self.fulls[p];
            for &d in &fl[..nf] {
                if d & c != 0 || d & self.cell_bit[a] != 0 {
                    continue;
                }
                let u = c | d;
                if self.is_cell[b] {
                    let key = self.cell_of[b];
                    self.add_semi(a, z, u | self.cell_bit[b], key);
                } else {
                    self.add_full(a, z, u);
                }
                if self.stopped {
                    return;
                }
            }
        }
    }

    fn add_full(&mut self, a: usize, b: usize, c: u128) {
        if a == b {
            return;
        }
        let p = self.pair(a, b);
        let nf = self.counts[p].nf as usize;
        let fl = &mut self.fulls[p];
        if fl[..nf].iter().any(|&f| f & !c == 0) {
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
        if n == FMAX {
            self.counts[p].nf = n as u8;
            return;
        }
        fl[n] = c;
        self.counts[p].nf = (n + 1) as u8;
        self.adj[a] |= bit(b);
        self.adj[b] |= bit(a);
        if (a, b) == (E1, E2) || (a, b) == (E2, E1) {
            self.edge_full = Some(c);
            self.stopped = true;
            return;
        }
        self.queue.push((a as u8, b as u8, c));
    }

    fn add_semi(&mut self, a: usize, b: usize, s: u128, key: u8) {
        if a == b {
            return;
        }
        let p = self.pair(a, b);
        let nf = self.counts[p].nf as usize;
        if self.fulls[p][..nf].iter().any(|&f| f & !s == 0) {
            return;
        }
        let ns = self.counts[p].ns as usize;
        let sl = &mut self.semis[p];
        if sl[..ns].iter().any(|&x| x & !s == 0) {
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
        if n == SMAX {
            self.counts[p].ns = n as u8;
            return;
        }
        sl[n] = s;
        kl[n] = key;
        self.counts[p].ns = (n + 1) as u8;
        let edge_pair = (a.min(b), a.max(b)) == (E1, E2);
        if edge_pair {
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
        if n >= 1 {
            let list = self.semis[p];
            if let Some(u) = or_combine(&list[..n], s, s, 1) {
                self.add_full(a, b, u);
            }
        }
    }
}

/// Searches semis (in order) to add to the running intersection `inter`
/// until it is empty; returns the union of the carriers used.
fn or_combine(semis: &[u128], inter: u128, union: u128, used: usize) -> Option<u128> {
    for (i, &s) in semis.iter().enumerate() {
        let ni = inter & s;
        if ni == inter {
            continue;
        }
        if ni == 0 {
            return Some(union | s);
        }
        if used + 1 < ORMAX
            && let Some(u) = or_combine(&semis[i + 1..], ni, union | s, used + 1)
        {
            return Some(u);
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
