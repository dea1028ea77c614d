//! Two-distance (van Rijswijck's Queenbee).
//!
//! A cell's two-distance to an edge is 1 for a cell next to the edge (or to
//! an own group touching it), else 1 + the *second*-smallest two-distance
//! among its neighbours: the opponent is assumed to block the best one.
//! Own groups are contracted, so every empty cell around a group is a
//! neighbour of every other. A cell's potential is the sum of its two edge
//! distances; a side's potential is its smallest, and more cells at that
//! potential is better.
//!
//! Computed in increasing distance order with one list per level: when a
//! cell is finalized it notifies its neighbours, and a neighbour's second
//! notification (from a distinct cell) fixes its distance at one more than
//! the current level. Through a group, only the first two finalized cells
//! around it need to notify the others: that already gives every cell
//! around the group two distinct finalized neighbours, so the work stays
//! linear in the group's size.

use super::groups::{Groups, NO_GROUP};
use super::{CellValues, EvalKind, Evaluator};
use crate::board::{Cell, Color, Edge, MAX_CELLS, Position};

const FAR: u16 = u16::MAX;

pub struct TwoDistanceEval {
    groups: Box<Groups>,
    /// Two-distance from each of the colour's edges.
    d: Box<[[u16; MAX_CELLS]; 2]>,
    count: Box<[u8; MAX_CELLS]>,
    stamp: Box<[u32; MAX_CELLS]>,
    stamp_id: u32,
    /// Per group: finalized cells around it so far (only two matter), and
    /// the last cell's stamp that counted.
    gdone: Box<[u8; MAX_CELLS]>,
    gstamp: Box<[u32; MAX_CELLS]>,
    cur: Vec<u16>,
    next: Vec<u16>,
}

impl Default for TwoDistanceEval {
    fn default() -> Self {
        TwoDistanceEval::new()
    }
}

/// One side's result.
#[derive(Clone, Copy, Debug)]
struct Side {
    /// Smallest potential (`FAR` as u32 when cut off).
    pot: u32,
    /// Cells at that potential.
    count: u32,
}

impl TwoDistanceEval {
    pub fn new() -> TwoDistanceEval {
        TwoDistanceEval {
            groups: Box::new(Groups::new()),
            d: Box::new([[FAR; MAX_CELLS]; 2]),
            count: Box::new([0; MAX_CELLS]),
            stamp: Box::new([0; MAX_CELLS]),
            stamp_id: 0,
            gdone: Box::new([0; MAX_CELLS]),
            gstamp: Box::new([0; MAX_CELLS]),
            cur: Vec::with_capacity(MAX_CELLS),
            next: Vec::with_capacity(MAX_CELLS),
        }
    }

    /// Two-distances from `edge` for `color` into `self.d[slot]`; the
    /// groups must already be built for `color`.
    fn run(&mut self, pos: &Position, edge: Edge, slot: usize) {
        let g = pos.geometry();
        let n = g.num_cells();
        let empty = pos.empty_cells();
        let dist = &mut self.d[slot];
        dist[..n].fill(FAR);
        self.count[..n].fill(0);
        self.cur.clear();
        self.next.clear();
        // Level 1: empty cells on the edge or next to a group touching it.
        for c in g.edge_cells(edge).intersection(&empty).iter() {
            dist[c.index()] = 1;
            self.cur.push(c.index() as u16);
        }
        for id in 0..self.groups.count {
            if self.groups.edges[id] & edge.bit() == 0 {
                continue;
            }
            for &y in self.groups.adjacent(id as u16) {
                if dist[y as usize] == FAR {
                    dist[y as usize] = 1;
                    self.cur.push(y);
                }
            }
        }
        self.gdone[..self.groups.count].fill(0);
        let mut level = 1u16;
        while !self.cur.is_empty() {
            for k in 0..self.cur.len() {
                let x = Cell::from_index(self.cur[k] as usize);
                self.stamp_id = self.stamp_id.wrapping_add(1);
                if self.stamp_id == 0 {
                    self.stamp.fill(0);
                    self.gstamp.fill(0);
                    self.stamp_id = 1;
                }
                let sid = self.stamp_id;
                self.stamp[x.index()] = sid;
                for &nb in g.neighbours(x) {
                    let j = nb.index();
                    let id = self.groups.gid[j];
                    if id != NO_GROUP {
                        let done = &mut self.gdone[id as usize];
                        if *done >= 2 || self.gstamp[id as usize] == sid {
                            continue;
                        }
                        *done += 1;
                        self.gstamp[id as usize] = sid;
                        for &y in self.groups.adjacent(id) {
                            let yi = y as usize;
                            if self.stamp[yi] != sid {
                                self.stamp[yi] = sid;
                                notify(dist, &mut self.count, &mut self.next, yi, level);
                            }
                        }
                    } else if empty.contains(nb) && self.stamp[j] != sid {
                        self.stamp[j] = sid;
                        notify(dist, &mut self.count, &mut self.next, j, level);
                    }
                }
            }
            std::mem::swap(&mut self.cur, &mut self.next);
            self.next.clear();
            level += 1;
        }
    }

    /// Builds both distance maps for `color` and returns its potential.
    fn side(&mut self, pos: &Position, color: Color) -> Side {
        self.groups.build(pos, color);
        let (e1, e2) = color.edges();
        self.run(pos, e1, 0);
        self.run(pos, e2, 1);
        let mut best = Side {
            pot: FAR as u32,
            count: 0,
        };
        for c in pos.empty_cells().iter() {
            let (a, b) = (self.d[0][c.index()], self.d[1][c.index()]);
            if a == FAR || b == FAR {
                continue;
            }
            let p = a as u32 + b as u32;
            if p < best.pot {
                best = Side { pot: p, count: 1 };
            } else if p == best.pot {
                best.count += 1;
            }
        }
        best
    }

    fn score(pos: &Position, own: Side, opp: Side) -> i32 {
        let far = 4 * pos.geometry().num_cells() as i32;
        let p = |s: Side| {
            if s.pot == FAR as u32 {
                far
            } else {
                s.pot as i32
            }
        };
        let tie = ((own.count as i32 - opp.count as i32) * 8).clamp(-80, 80);
        100 * (p(opp) - p(own)) + tie
    }
}

#[inline]
fn notify(
    dist: &mut [u16; MAX_CELLS],
    count: &mut [u8; MAX_CELLS],
    next: &mut Vec<u16>,
    y: usize,
    level: u16,
) {
    if dist[y] != FAR {
        return;
    }
    count[y] += 1;
    if count[y] == 2 {
        dist[y] = level + 1;
        next.push(y as u16);
    }
}

impl Evaluator for TwoDistanceEval {
    fn kind(&self) -> EvalKind {
        EvalKind::TwoDistance
    }

    fn evaluate(&mut self, pos: &Position, to_move: Color) -> i32 {
        let own = self.side(pos, to_move);
        let opp = self.side(pos, to_move.opponent());
        Self::score(pos, own, opp)
    }

    fn evaluate_cells(&mut self, pos: &Position, to_move: Color, values: &mut CellValues) -> i32 {
        let n = pos.geometry().num_cells();
        values[..n].fill(0);
        let empty = pos.empty_cells();
        let mut sides = [Side { pot: 0, count: 0 }; 2];
        for color in Color::BOTH {
            let s = self.side(pos, color);
            sides[color.index()] = s;
            if s.pot == FAR as u32 {
                continue;
            }
            for c in empty.iter() {
                let (a, b) = (self.d[0][c.index()], self.d[1][c.index()]);
                if a == FAR || b == FAR {
                    continue;
                }
                let slack = (a as u32 + b as u32 - s.pot) as i32;
                values[c.index()] += (6 - slack).max(0) * 80;
            }
        }
        Self::score(
            pos,
            sides[to_move.index()],
            sides[to_move.opponent().index()],
        )
    }

    fn measures(&mut self, pos: &Position) -> [f64; 2] {
        Color::BOTH.map(|c| {
            let s = self.side(pos, c);
            if s.pot == FAR as u32 {
                f64::INFINITY
            } else {
                s.pot as f64
            }
        })
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
    fn edge_rows_and_second_best_neighbours() {
        let mut e = TwoDistanceEval::new();
        let p = pos_from(5, &[], &[]);
        e.groups.build(&p, Color::Black);
        e.run(&p, Edge::North, 0);
        let g = p.geometry();
        let d = |s: &str| e.d[0][g.parse_cell(s).unwrap().index()];
        assert_eq!(d("c1"), 1);
        // Row 2 has two row-1 neighbours except... every row-2 cell has
        // two neighbours in row 1 (up and up-right) but e2's up-right is off
        // the board: its second-best is d2 or e1... e1 (1) and d2 (2).
        assert_eq!(d("c2"), 2);
        assert_eq!(d("e2"), 3);
        assert_eq!(d("a3"), 3);
    }

    #[test]
    fn a_bridge_to_the_edge_counts_as_connected() {
        let mut e = TwoDistanceEval::new();
        // Black c2 is bridged to row 1 (c1, d1): c2's group touches no edge,
        // so cells around it get 2 from the two row-1 cells.
        let p = pos_from(5, &["c2"], &[]);
        e.groups.build(&p, Color::Black);
        e.run(&p, Edge::North, 0);
        let g = p.geometry();
        let d = |s: &str| e.d[0][g.parse_cell(s).unwrap().index()];
        // b3 is next to the group c2, whose empty neighbours c1 and d1 are
        // at 1: b3 = 2.
        assert_eq!(d("b3"), 2);
        // A single block: White on d1 leaves c2 with only c1 at 1: b3 is
        // then 1 + second best.
        let p = pos_from(5, &["c2"], &["d1"]);
        e.groups.build(&p, Color::Black);
        e.run(&p, Edge::North, 0);
        let d = |s: &str| e.d[0][p.geometry().parse_cell(s).unwrap().index()];
        assert!(d("b3") > 2);
    }

    #[test]
    fn empty_board_is_balanced_and_stones_help() {
        let mut e = TwoDistanceEval::new();
        let p = pos_from(7, &[], &[]);
        assert_eq!(e.evaluate(&p, Color::Black), 0);
        let p = pos_from(7, &["d4"], &[]);
        assert!(e.evaluate(&p, Color::Black) > 0);
        assert!(e.evaluate(&p, Color::White) < 0);
        let mut v = [0; MAX_CELLS];
        e.evaluate_cells(&p, Color::White, &mut v);
        assert_eq!(v[p.geometry().parse_cell("d4").unwrap().index()], 0);
        assert!(v.iter().any(|&x| x > 0));
    }
}
