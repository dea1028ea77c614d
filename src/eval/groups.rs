//! One colour's groups of connected stones, with the edges each touches and
//! the empty cells around each: the contraction both two-distance and the
//! resistance circuit work on.

use crate::board::{CellSet, Color, Edge, MAX_CELLS, Position};

/// No group: the cell is not one of the colour's stones.
pub const NO_GROUP: u16 = u16::MAX;

pub struct Groups {
    /// Group id of each own stone, `NO_GROUP` elsewhere.
    pub gid: [u16; MAX_CELLS],
    pub count: usize,
    /// Edge bits (`Edge::bit`) each group touches.
    pub edges: [u8; MAX_CELLS],
    /// The empty cells next to each group.
    pub adj: Vec<CellSet>,
    stack: Vec<u16>,
}

impl Groups {
    pub fn new() -> Groups {
        Groups {
            gid: [NO_GROUP; MAX_CELLS],
            count: 0,
            edges: [0; MAX_CELLS],
            adj: vec![CellSet::EMPTY; MAX_CELLS],
            stack: Vec::with_capacity(MAX_CELLS),
        }
    }

    /// Labels `color`'s groups in `pos`.
    pub fn build(&mut self, pos: &Position, color: Color) {
        let g = pos.geometry();
        let n = g.num_cells();
        let own = pos.stones(color);
        self.gid[..n].fill(NO_GROUP);
        self.count = 0;
        for s in own.iter() {
            if self.gid[s.index()] != NO_GROUP {
                continue;
            }
            let id = self.count;
            self.count += 1;
            self.edges[id] = 0;
            self.adj[id] = CellSet::EMPTY;
            self.gid[s.index()] = id as u16;
            self.stack.clear();
            self.stack.push(s.index() as u16);
            while let Some(i) = self.stack.pop() {
                let c = crate::board::Cell::from_index(i as usize);
                for e in Edge::ALL {
                    if g.touches(c, e) {
                        self.edges[id] |= e.bit();
                    }
                }
                for &nb in g.neighbours(c) {
                    if own.contains(nb) {
                        if self.gid[nb.index()] == NO_GROUP {
                            self.gid[nb.index()] = id as u16;
                            self.stack.push(nb.index() as u16);
                        }
                    } else if pos.is_empty(nb) {
                        self.adj[id].insert(nb);
                    }
                }
            }
        }
    }
}
