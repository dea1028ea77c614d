//! Edge templates H-search does not find by itself, as patterns valid on
//! every board size and on all four edges.
//!
//! A pattern is written for the North edge: the anchor (a stone, or an
//! empty cell standing for "if a stone were here") at distance `row` from
//! the edge (0 = on the edge row), and the carrier as (column offset from
//! the anchor, distance from the edge). Each pattern is also used mirrored
//! (the hex grid's reflection that keeps rows) and carried to the other
//! edges by the board's symmetries: 180-degree rotation for South, the
//! long-diagonal reflection for West, both for East.
//!
//! The carriers were derived with [`super::verify`]: a region known to
//! hold the template was shrunk cell by cell while the brute-force referee
//! still proved the connection, and the unit tests re-prove each pattern.

use crate::board::{Cell, CellSet, Color, Edge, Geometry};

/// An edge template in North-edge coordinates.
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    pub name: &'static str,
    /// The anchor's distance from the edge (0 = first row).
    pub row: usize,
    /// Carrier cells: (column offset from the anchor, distance from edge).
    pub carrier: &'static [(i32, i32)],
}

/// Template IVa: a stone on the 4th row joined to the edge.
pub const IVA: Pattern = Pattern {
    name: "IVa",
    row: 3,
    carrier: &[
        (-1, 2),
        (0, 2),
        (1, 2),
        (-2, 1),
        (-1, 1),
        (0, 1),
        (1, 1),
        (-3, 0),
        (-2, 0),
        (-1, 0),
        (0, 0),
        (1, 0),
        (2, 0),
        (-1, 3),
        (-2, 2),
        (-3, 1),
        (-4, 0),
    ],
};

/// The patterns added on top of H-search.
pub const PATTERNS: &[Pattern] = &[IVA];

/// The cell at `along` cells along `edge` and `dist` rows away from it.
pub fn place(g: &Geometry, edge: Edge, along: i32, dist: i32) -> Option<Cell> {
    let (w, h) = (g.width() as i32, g.height() as i32);
    let (c, r) = match edge {
        Edge::North => (along, dist),
        Edge::South => (w - 1 - along, h - 1 - dist),
        Edge::West => (dist, along),
        Edge::East => (w - 1 - dist, h - 1 - along),
    };
    if c < 0 || r < 0 || c >= w || r >= h {
        return None;
    }
    g.cell_at(c as usize, r as usize)
}

/// The length of `edge` (cells along it).
fn edge_len(g: &Geometry, edge: Edge) -> i32 {
    match edge {
        Edge::North | Edge::South => g.width() as i32,
        Edge::West | Edge::East => g.height() as i32,
    }
}

/// Every placement of `pattern` (and its mirror image) on `edge`, as
/// (anchor, carrier cells), whether or not the cells are free.
pub fn placements(g: &Geometry, edge: Edge, pattern: &Pattern) -> Vec<(Cell, CellSet)> {
    let mut out = Vec::new();
    let r0 = pattern.row as i32;
    for mirror in [false, true] {
        for x in 0..edge_len(g, edge) {
            let Some(anchor) = place(g, edge, x, r0) else {
                continue;
            };
            let mut carrier = CellSet::EMPTY;
            let mut fits = true;
            for &(dc, r) in pattern.carrier {
                let dc = if mirror { -dc - (r - r0) } else { dc };
                match place(g, edge, x + dc, r) {
                    Some(c) => carrier.insert(c),
                    None => {
                        fits = false;
                        break;
                    }
                }
            }
            if fits {
                out.push((anchor, carrier));
            }
        }
    }
    out
}

/// The templates that hold for `color` given its stones and the
/// opponent's: (anchor, edge, carrier of the empty cells). The anchor may
/// be empty (the connection holds once it is played) or an own stone.
pub fn edge_templates(
    g: &Geometry,
    color: Color,
    own: &CellSet,
    opp: &CellSet,
) -> Vec<(Cell, Edge, CellSet)> {
    let mut out = Vec::new();
    let (e1, e2) = color.edges();
    for edge in [e1, e2] {
        for p in PATTERNS {
            for (anchor, carrier) in placements(g, edge, p) {
                if opp.contains(anchor) || !carrier.is_disjoint(opp) {
                    continue;
                }
                out.push((anchor, edge, carrier.difference(own)));
            }
        }
    }
    out
}
