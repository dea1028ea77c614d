//! One colour's groups of connected stones, with the edges each touches and
//! the empty cells around each: the contraction two-distance works on.

use crate::board::{Cell, Color, Edge, MAX_CELLS, Position};

/// No group: the cell is not one of the colour's stones.
pub const NO_GROUP: u16 = u16::MAX;

pub struct Groups {
    /// Group id of each own stone, `NO_GROUP` elsewhere.
    pub gid: [u16; MAX_CELLS],
    pub count: usize,
    /// Edge bits (`Edge::bit`) each group touches.
    pub edges: [u8; MAX_CELLS],
    /// The empty cells next to each group: `adj[start[g]..start[g + 1]]`.
    adj: Vec<u16>,
    start: Vec<u32>,
    seen: [u32; MAX_CELLS],
    stamp: u32,
    stack: Vec<u16>,
}

impl Groups {
    pub fn new() -> Groups {
        Groups {
            gid: [NO_GROUP; MAX_CELLS],
            count: 0,
            edges: [0; MAX_CELLS],
            adj: Vec::with_capacity(4 * MAX_CELLS),
            start: Vec::with_capacity(MAX_CELLS + 1),
            seen: [0; MAX_CELLS],
            stamp: 0,
            stack: Vec::with_capacity(MAX_CELLS),
        }
    }

    /// The empty cells next to group `g`, as cell indices.
    #[inline]
    pub fn adjacent(&self, g: u16) -> &[u16] {
        let g = g as usize;
        &self.adj[self.start[g] as usize..self.start[g + 1] as usize]
    }

    /// Labels `color`'s groups in `pos`.
    pub fn build(&mut self, pos: &Position, color: Color) {
        let g = pos.geometry();
        let n = g.num_cells();
        let own = pos.stones(color);
        self.gid[..n].fill(NO_GROUP);
        self.count = 0;
        self.adj.clear();
        self.start.clear();
        for s in own.iter() {
            if self.gid[s.index()] != NO_GROUP {
                continue;
            }
            let id = self.count;
            self.count += 1;
            self.start.push(self.adj.len() as u32);
            self.stamp = self.stamp.wrapping_add(1);
            if self.stamp == 0 {
                self.seen.fill(0);
                self.stamp = 1;
            }
            self.edges[id] = 0;
            self.gid[s.index()] = id as u16;
            self.stack.clear();
            self.stack.push(s.index() as u16);
            while let Some(i) = self.stack.pop() {
                let c = Cell::from_index(i as usize);
                for e in Edge::ALL {
                    if g.touches(c, e) {
                        self.edges[id] |= e.bit();
                    }
                }
                for &nb in g.neighbours(c) {
                    let j = nb.index();
                    if own.contains(nb) {
                        if self.gid[j] == NO_GROUP {
                            self.gid[j] = id as u16;
                            self.stack.push(j as u16);
                        }
                    } else if pos.is_empty(nb) && self.seen[j] != self.stamp {
                        self.seen[j] = self.stamp;
                        self.adj.push(j as u16);
                    }
                }
            }
        }
        self.start.push(self.adj.len() as u32);
    }
}
