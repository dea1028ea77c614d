//! Bitboards of at most 128 cells for one geometry: neighbours, edges,
//! flood fills and the edge templates H-search does not find by itself.

use crate::board::{Cell, Color, Edge, Geometry, Position};

/// The largest board this module handles, in cells.
pub const MAX_BITS: usize = 128;

/// Bitboard helpers for one geometry.
#[derive(Clone, Debug)]
pub struct Bits {
    pub n: usize,
    pub all: u128,
    nbr: Vec<u128>,
    edge: [u128; 4],
    /// The edge templates H-search does not find by itself
    /// ([`crate::knowledge::templates`]) placed on this board: anchor
    /// cell, edge, carrier.
    pub(super) templates: Vec<(u8, Edge, u128)>,
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
        let mut templates = Vec::new();
        for e in Edge::ALL {
            for p in crate::knowledge::templates::PATTERNS {
                for (anchor, carrier) in crate::knowledge::templates::placements(g, e, p) {
                    let c = carrier.iter().fold(0u128, |acc, x| acc | bit(x.index()));
                    templates.push((anchor.index() as u8, e, c));
                }
            }
        }
        Some(Bits {
            n,
            all,
            nbr,
            edge,
            templates,
        })
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
