//! The 0-1 BFS "stones still needed" distance (seed 000).
//!
//! A player's own stones cost 0 to cross, an empty cell costs 1 and the
//! opponent's stones are walls. The cheapest path from one of the player's
//! edges to the other is the number of stones the player still needs.
//!
//! The search runs this at every leaf, so it works on fixed-size arrays held
//! in a reusable scratch struct: no allocation per call. Costs are 0 or 1,
//! so instead of a deque it keeps one list per cost level (the current level
//! and the next one); a cell improved to the current level goes on the
//! current list, to the next level on the next list, and stale entries are
//! skipped when popped.

use crate::board::{Cell, Color, Edge, MAX_CELLS, Position};

/// The distance of a cell (or a player) that cannot be reached.
pub const UNREACHABLE: u16 = u16::MAX;

/// Reusable buffers for the 0-1 BFS.
#[derive(Clone)]
pub struct Dist01 {
    dist: [u16; MAX_CELLS],
    cur: [u16; MAX_CELLS],
    next: [u16; MAX_CELLS],
}

impl Default for Dist01 {
    fn default() -> Self {
        Dist01::new()
    }
}

impl std::fmt::Debug for Dist01 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Dist01")
    }
}

impl Dist01 {
    pub fn new() -> Dist01 {
        Dist01 {
            dist: [UNREACHABLE; MAX_CELLS],
            cur: [0; MAX_CELLS],
            next: [0; MAX_CELLS],
        }
    }

    /// How many more stones `color` needs to join its two edges: 0 when it
    /// has already won, `None` when the opponent has cut it off.
    pub fn distance(&mut self, pos: &Position, color: Color) -> Option<u32> {
        let (from, to) = color.edges();
        let d = self.run(pos, color, from, Some(to));
        (d != UNREACHABLE).then_some(d as u32)
    }

    /// Fills `out[cell]` with the cost of the cheapest path from `color`'s
    /// `edge` to `cell`, that cell's own cost included (0 for an own stone,
    /// 1 for an empty cell); opponent stones and cut-off cells get
    /// `UNREACHABLE`. Only the first `num_cells` entries are written.
    pub fn edge_distances(
        &mut self,
        pos: &Position,
        color: Color,
        edge: Edge,
        out: &mut [u16; MAX_CELLS],
    ) {
        self.run(pos, color, edge, None);
        let n = pos.geometry().num_cells();
        out[..n].copy_from_slice(&self.dist[..n]);
    }

    /// The BFS itself. With a target edge it stops at the first target cell
    /// popped and returns its cost; without one it fills `self.dist` and
    /// returns `UNREACHABLE`.
    fn run(&mut self, pos: &Position, color: Color, from: Edge, to: Option<Edge>) -> u16 {
        let g = pos.geometry();
        let n = g.num_cells();
        let own = pos.stones(color);
        let opp = pos.stones(color.opponent());
        let dist = &mut self.dist[..n];
        dist.fill(UNREACHABLE);
        let (mut ncur, mut nnext) = (0usize, 0usize);
        // Seed: edge cells, own stones at level 0, empty ones at level 1.
        for c in g.edge_cells(from).iter() {
            if own.contains(c) {
                dist[c.index()] = 0;
                self.cur[ncur] = c.index() as u16;
                ncur += 1;
            } else if !opp.contains(c) {
                dist[c.index()] = 1;
                self.next[nnext] = c.index() as u16;
                nnext += 1;
            }
        }
        let mut level: u16 = 0;
        if ncur == 0 {
            std::mem::swap(&mut self.cur, &mut self.next);
            ncur = nnext;
            nnext = 0;
            level = 1;
        }
        while ncur > 0 {
            while ncur > 0 {
                ncur -= 1;
                let i = self.cur[ncur] as usize;
                if dist[i] != level {
                    continue; // stale: improved later
                }
                let cell = Cell::from_index(i);
                if let Some(t) = to
                    && g.touches(cell, t)
                {
                    return level;
                }
                for &nb in g.neighbours(cell) {
                    let j = nb.index();
                    if own.contains(nb) {
                        if dist[j] > level {
                            dist[j] = level;
                            self.cur[ncur] = j as u16;
                            ncur += 1;
                        }
                    } else if !opp.contains(nb) && dist[j] > level + 1 {
                        dist[j] = level + 1;
                        self.next[nnext] = j as u16;
                        nnext += 1;
                    }
                }
            }
            std::mem::swap(&mut self.cur, &mut self.next);
            ncur = nnext;
            nnext = 0;
            level += 1;
        }
        UNREACHABLE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Geometry;
    use std::sync::Arc;

    fn pos_from(size: usize, black: &[&str], white: &[&str]) -> Position {
        let mut p = Position::new(Arc::new(Geometry::new(size, size).unwrap()));
        for s in black {
            let c = p.geometry().parse_cell(s).unwrap();
            p.play(Color::Black, c);
        }
        for s in white {
            let c = p.geometry().parse_cell(s).unwrap();
            p.play(Color::White, c);
        }
        p
    }

    #[test]
    fn empty_board_needs_size_stones() {
        let mut d = Dist01::new();
        for n in 1..=13 {
            let p = pos_from(n, &[], &[]);
            assert_eq!(d.distance(&p, Color::Black), Some(n as u32));
            assert_eq!(d.distance(&p, Color::White), Some(n as u32));
        }
        let p = Position::new(Arc::new(Geometry::new(3, 5).unwrap()));
        // Black joins rows 1 and 5: 5 stones; White joins columns: 3.
        assert_eq!(d.distance(&p, Color::Black), Some(5));
        assert_eq!(d.distance(&p, Color::White), Some(3));
    }

    #[test]
    fn own_stones_are_free_and_opponent_stones_are_walls() {
        let mut d = Dist01::new();
        // 4x4: Black on b2 and b3 (a column chain) needs the two ends.
        let p = pos_from(4, &["b2", "b3"], &[]);
        assert_eq!(d.distance(&p, Color::Black), Some(2));
        // White's path along row 2 is unaffected by a diagonal? Black b2,b3
        // block column b in rows 2..3 but White can use row 1 or 4: 4 stones.
        assert_eq!(d.distance(&p, Color::White), Some(4));
        // A black wall across the whole board cuts White off.
        let p = pos_from(3, &["b1", "b2", "b3"], &[]);
        assert_eq!(d.distance(&p, Color::Black), Some(0));
        assert_eq!(d.distance(&p, Color::White), None);
    }

    #[test]
    fn winding_path_through_own_stones() {
        let mut d = Dist01::new();
        // 5x5: White stones a3..d3 except a gap at e3: White needs 1 (e3).
        let p = pos_from(5, &[], &["a3", "b3", "c3", "d3"]);
        assert_eq!(d.distance(&p, Color::White), Some(1));
        // Black then has to get round: the only gap is e3 region.
        // Black walls: White a3-d3 means Black must go through e3 (or d4/e2
        // neighbours of e3): path e1 e2 e3 e4 e5 = 5.
        assert_eq!(d.distance(&p, Color::Black), Some(5));
        // d3 also touches e2, so Black on e3 leaves White one stone short
        // still; with Black on e2 too, White must go round by d4 and e4.
        let mut p2 = p.clone();
        p2.play(Color::Black, p2.geometry().parse_cell("e3").unwrap());
        assert_eq!(d.distance(&p2, Color::White), Some(1));
        assert_eq!(d.distance(&p2, Color::Black), Some(4));
        p2.play(Color::Black, p2.geometry().parse_cell("e2").unwrap());
        assert_eq!(d.distance(&p2, Color::White), Some(2));
        assert_eq!(d.distance(&p2, Color::Black), Some(3));
    }

    #[test]
    fn edge_distances_match_through_paths() {
        let mut d = Dist01::new();
        let p = pos_from(5, &["c3"], &["b2"]);
        let mut a = [0u16; MAX_CELLS];
        let mut b = [0u16; MAX_CELLS];
        d.edge_distances(&p, Color::Black, Edge::North, &mut a);
        d.edge_distances(&p, Color::Black, Edge::South, &mut b);
        let g = p.geometry();
        let c3 = g.parse_cell("c3").unwrap().index();
        let b2 = g.parse_cell("b2").unwrap().index();
        assert_eq!(a[b2], UNREACHABLE);
        // c3 is an own stone: c1 c2 then c3 free.
        assert_eq!(a[c3], 2);
        assert_eq!(b[c3], 2);
        // The minimum over cells of through-path cost equals the distance.
        let best = (0..25)
            .filter(|&i| a[i] != UNREACHABLE && b[i] != UNREACHABLE)
            .map(|i| {
                let own = p.stone(Cell::from_index(i)).is_some() as u16;
                a[i] + b[i] - (1 - own)
            })
            .min()
            .unwrap();
        assert_eq!(Some(best as u32), d.distance(&p, Color::Black));
        assert_eq!(best, 4);
    }
}
