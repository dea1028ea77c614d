//! Bitboards for one geometry: neighbours, edges, flood fills and the
//! edge templates H-search does not find by itself, on the board's
//! [`Bitboard`] type.

use crate::board::{Bitboard, Cell, Color, Edge, Geometry, Position, Wide};

/// Bitboard helpers for one geometry.
#[derive(Clone, Debug)]
pub struct Bits<B: Bitboard> {
    pub n: usize,
    pub all: B,
    nbr: Vec<B>,
    edge: [B; 4],
    /// The edge templates H-search does not find by itself
    /// ([`crate::knowledge::templates`]) placed on this board: anchor
    /// cell, edge, carrier.
    pub(super) templates: Vec<(u16, Edge, B)>,
}

/// The set of the cell of index `i` alone.
#[inline(always)]
pub fn bit<B: Bitboard>(i: usize) -> B {
    B::bit(i)
}

/// Whether boards of `g`'s size fit `B`: its cells and the two edges'
/// nodes. (A run needs its graph's nodes, the two edges, the groups and
/// the live empty cells, below [`Bitboard::BITS`], and gives up on a
/// position where they are not.)
pub fn fits<B: Bitboard>(g: &Geometry) -> bool {
    g.num_cells() + 2 <= B::BITS
}

/// The bitboard types, by the board sizes they serve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// At most 126 cells (up to 11x11): `u128`.
    Narrow,
    /// At most 190 cells (12x12, 13x13): three words.
    Three,
    /// At most 254 cells (14x14, 15x15): four words.
    Four,
    /// At most 702 cells (16x16 to 26x26): eleven words, with the
    /// H-search's pair lists kept sparse.
    Eleven,
}

impl Width {
    /// The narrowest type a board of `g`'s size fits (every board up to
    /// 26x26 fits one).
    pub fn of(g: &Geometry) -> Width {
        if fits::<u128>(g) {
            Width::Narrow
        } else if fits::<Wide<3>>(g) {
            Width::Three
        } else if fits::<Wide<4>>(g) {
            Width::Four
        } else {
            Width::Eleven
        }
    }

    /// Whether the connection search plays from the first move and the
    /// solver asks the H-search on boards of this width: up to 254 cells.
    /// Above, where they have not been tried in games, the distance search
    /// plays until the endgame and the solver asks the board alone.
    pub fn searched(self) -> bool {
        self != Width::Eleven
    }
}

impl<B: Bitboard> Bits<B> {
    /// `None` when the board does not fit `B` ([`fits`]).
    pub fn new(g: &Geometry) -> Option<Bits<B>> {
        if !fits::<B>(g) {
            return None;
        }
        let n = g.num_cells();
        let mut nbr = vec![B::ZERO; n];
        for c in g.cells() {
            for &d in g.neighbours(c) {
                nbr[c.index()] |= bit(d.index());
            }
        }
        let mut edge = [B::ZERO; 4];
        for e in Edge::ALL {
            for c in g.edge_cells(e).iter() {
                edge[e as usize] |= bit(c.index());
            }
        }
        let all = B::below(n);
        let mut templates = Vec::new();
        for e in Edge::ALL {
            for p in crate::knowledge::templates::PATTERNS {
                for (anchor, carrier) in crate::knowledge::templates::placements(g, e, p) {
                    let c = carrier.iter().fold(B::ZERO, |acc, x| acc | bit(x.index()));
                    templates.push((anchor.index() as u16, e, c));
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

    /// Without the edge templates: H-search's own connections only (to
    /// check the templates with).
    #[cfg(test)]
    pub(crate) fn without_templates(mut self) -> Bits<B> {
        self.templates.clear();
        self
    }

    #[inline]
    pub fn nbr(&self, i: usize) -> B {
        self.nbr[i]
    }

    /// Every cell adjacent to some cell of `set`.
    #[inline]
    pub fn spread(&self, set: B) -> B {
        let mut out = B::ZERO;
        for i in set.ones() {
            out |= self.nbr[i];
        }
        out
    }

    /// The cells of `within` connected to `seed` through `within`.
    #[inline]
    pub fn flood(&self, seed: B, within: B) -> B {
        let mut reach = seed & within;
        let mut frontier = reach;
        while frontier.any() {
            let next = self.spread(frontier) & within & !reach;
            reach |= next;
            frontier = next;
        }
        reach
    }

    pub fn edge(&self, e: Edge) -> B {
        self.edge[e as usize]
    }

    /// Cells of `color`'s possible chains: reachable from both of its
    /// edges through empty cells and its own stones (`st`: Black, White).
    pub fn live(&self, st: [B; 2], color: Color) -> B {
        let open = self.all & !st[color.opponent().index()];
        let (e1, e2) = color.edges();
        self.flood(self.edge(e1) & open, open) & self.flood(self.edge(e2) & open, open)
    }
}

/// The stones of a position as bitboards.
pub fn stones<B: Bitboard>(pos: &Position) -> [B; 2] {
    Color::BOTH.map(|c| B::from_words(pos.stones(c).words()))
}

/// The cells of `bits` as cells.
pub fn cells<B: Bitboard>(b: B) -> impl Iterator<Item = Cell> {
    b.ones().map(Cell::from_index)
}
