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
//! Computed level by level on bitboards (see `run_bits`): the cells
//! finalized so far form a set, and a cell joins at the next level when it
//! has two distinct finalized neighbours, direct or around an adjacent own
//! group. A cell-by-cell version with notification lists is kept for the
//! tests as the plain statement of the algorithm; the two agree on random
//! positions of every shape. About 3 microseconds for both sides of an
//! 11x11 middle-game position.

#![allow(clippy::needless_range_loop)] // word-parallel loops index several arrays at once

use super::dist01::{Masks, WORDS, load, words_of};
use super::groups::Groups;
#[cfg(test)]
use super::groups::NO_GROUP;
use super::{CellValues, EvalKind, Evaluator};
#[cfg(test)]
use crate::board::Cell;
use crate::board::{Color, Edge, MAX_CELLS, Position};

const FAR: u16 = u16::MAX;

/// Buffers of the cell-by-cell algorithm: notification counts, stamps,
/// per group the finalized cells around it so far (only two matter) and
/// the stamp of the last that counted, and the level lists.
#[cfg(test)]
struct Lists {
    count: Box<[u8; MAX_CELLS]>,
    stamp: Box<[u32; MAX_CELLS]>,
    stamp_id: u32,
    gdone: Box<[u8; MAX_CELLS]>,
    gstamp: Box<[u32; MAX_CELLS]>,
    cur: Vec<u16>,
    next: Vec<u16>,
}

pub struct TwoDistanceEval {
    groups: Box<Groups>,
    /// Two-distance from each of the colour's edges.
    d: Box<[[u16; MAX_CELLS]; 2]>,
    /// Scratch of the list algorithm (tests only).
    #[cfg(test)]
    lists: Lists,
    masks: Masks,
    /// Bitboard of the empty cells around each group.
    gadj: Vec<[u64; WORDS]>,
    singles: Vec<(u16, [u64; WORDS])>,
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
            #[cfg(test)]
            lists: Lists {
                count: Box::new([0; MAX_CELLS]),
                stamp: Box::new([0; MAX_CELLS]),
                stamp_id: 0,
                gdone: Box::new([0; MAX_CELLS]),
                gstamp: Box::new([0; MAX_CELLS]),
                cur: Vec::with_capacity(MAX_CELLS),
                next: Vec::with_capacity(MAX_CELLS),
            },
            masks: Masks::new(),
            gadj: vec![[0; WORDS]; MAX_CELLS],
            singles: Vec::with_capacity(MAX_CELLS),
        }
    }

    /// Two-distances from `edge` for `color` into `self.d[slot]`, cell by
    /// cell with notification lists; the groups must already be built for
    /// `color`. The bitboard version [`Self::run`] is what runs; this one
    /// is the plain statement of the algorithm the tests compare it with.
    #[cfg(test)]
    fn run_lists(&mut self, pos: &Position, edge: Edge, slot: usize) {
        let g = pos.geometry();
        let n = g.num_cells();
        let empty = pos.empty_cells();
        let dist = &mut self.d[slot];
        dist[..n].fill(FAR);
        self.lists.count[..n].fill(0);
        self.lists.cur.clear();
        self.lists.next.clear();
        // Level 1: empty cells on the edge or next to a group touching it.
        for c in g.edge_cells(edge).intersection(&empty).iter() {
            dist[c.index()] = 1;
            self.lists.cur.push(c.index() as u16);
        }
        for id in 0..self.groups.count {
            if self.groups.edges[id] & edge.bit() == 0 {
                continue;
            }
            for &y in self.groups.adjacent(id as u16) {
                if dist[y as usize] == FAR {
                    dist[y as usize] = 1;
                    self.lists.cur.push(y);
                }
            }
        }
        self.lists.gdone[..self.groups.count].fill(0);
        let mut level = 1u16;
        while !self.lists.cur.is_empty() {
            for k in 0..self.lists.cur.len() {
                let x = Cell::from_index(self.lists.cur[k] as usize);
                self.lists.stamp_id = self.lists.stamp_id.wrapping_add(1);
                if self.lists.stamp_id == 0 {
                    self.lists.stamp.fill(0);
                    self.lists.gstamp.fill(0);
                    self.lists.stamp_id = 1;
                }
                let sid = self.lists.stamp_id;
                self.lists.stamp[x.index()] = sid;
                for &nb in g.neighbours(x) {
                    let j = nb.index();
                    let id = self.groups.gid[j];
                    if id != NO_GROUP {
                        let done = &mut self.lists.gdone[id as usize];
                        if *done >= 2 || self.lists.gstamp[id as usize] == sid {
                            continue;
                        }
                        *done += 1;
                        self.lists.gstamp[id as usize] = sid;
                        for &y in self.groups.adjacent(id) {
                            let yi = y as usize;
                            if self.lists.stamp[yi] != sid {
                                self.lists.stamp[yi] = sid;
                                notify(
                                    dist,
                                    &mut self.lists.count,
                                    &mut self.lists.next,
                                    yi,
                                    level,
                                );
                            }
                        }
                    } else if empty.contains(nb) && self.lists.stamp[j] != sid {
                        self.lists.stamp[j] = sid;
                        notify(dist, &mut self.lists.count, &mut self.lists.next, j, level);
                    }
                }
            }
            std::mem::swap(&mut self.lists.cur, &mut self.lists.next);
            self.lists.next.clear();
            level += 1;
        }
    }

    /// Two-distances from `edge` into `self.d[slot]` on bitboards; the
    /// groups and `self.gadj` must be built for the colour.
    fn run(&mut self, pos: &Position, edge: Edge, slot: usize) {
        let n = pos.geometry().num_cells();
        self.d[slot][..n].fill(FAR);
        let empty = words_of(&pos.empty_cells());
        let mut seeds = self.masks.edges[edge as usize];
        for k in 0..WORDS {
            seeds[k] &= empty[k];
        }
        for id in 0..self.groups.count {
            if self.groups.edges[id] & edge.bit() != 0 {
                for k in 0..WORDS {
                    seeds[k] |= self.gadj[id][k];
                }
            }
        }
        macro_rules! go {
            ($($n:literal)*) => {
                match self.masks.words {
                    $($n => run_bits::<$n>(
                        &self.masks,
                        &empty,
                        &seeds,
                        &self.gadj[..self.groups.count],
                        &mut self.singles,
                        &mut self.d[slot],
                    ),)*
                    _ => unreachable!(),
                }
            };
        }
        go!(1 2 3 4 5 6 7 8 9 10 11)
    }

    /// Builds both distance maps for `color` and returns its potential.
    fn side(&mut self, pos: &Position, color: Color) -> Side {
        self.groups.build(pos, color);
        self.masks.prepare(pos);
        for id in 0..self.groups.count {
            let mut w = [0u64; WORDS];
            for &c in self.groups.adjacent(id as u16) {
                w[c as usize / 64] |= 1 << (c % 64);
            }
            self.gadj[id] = w;
        }
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
        let tie = (own.count as i32 - opp.count as i32) * 8;
        100 * (p(opp) - p(own)) + tie
    }
}

/// The level-by-level two-distance on `N`-word bitboards. `s` holds the
/// cells finalized so far; a cell outside it joins at the next level when
/// it has two distinct finalized neighbours, counting every cell around an
/// adjacent own group as a neighbour:
/// - two or more direct neighbours in `s` (six direction sets, counted
///   with a ones/twos adder);
/// - or a group with two or more finalized cells around it;
/// - or a group with exactly one, `y`, plus a direct neighbour other than
///   `y`, or another such group whose single cell is not `y`.
fn run_bits<const N: usize>(
    m: &Masks,
    empty: &[u64; WORDS],
    seeds: &[u64; WORDS],
    gadj: &[[u64; WORDS]],
    singles: &mut Vec<(u16, [u64; WORDS])>,
    out: &mut [u16; MAX_CELLS],
) {
    let empty: [u64; N] = load(empty);
    let mut s: [u64; N] = load(seeds);
    let record = |out: &mut [u16; MAX_CELLS], new: &[u64; N], level: u16| {
        for (k, &word) in new.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                out[k * 64 + b] = level;
            }
        }
    };
    record(out, &s, 1);
    let mut level = 1u16;
    loop {
        let dirs = m.directions(&s);
        let mut ones = [0u64; N];
        let mut twos = [0u64; N];
        for d in &dirs {
            for k in 0..N {
                twos[k] |= ones[k] & d[k];
                ones[k] |= d[k];
            }
        }
        let mut q = twos;
        singles.clear();
        for adj in gadj {
            let adj: [u64; N] = load(adj);
            let mut cnt = 0u32;
            let mut y = 0usize;
            for k in 0..N {
                let a = adj[k] & s[k];
                if a != 0 {
                    cnt += a.count_ones();
                    y = k * 64 + a.trailing_zeros() as usize;
                }
            }
            if cnt >= 2 {
                for k in 0..N {
                    q[k] |= adj[k];
                }
            } else if cnt == 1 {
                let mut yb = [0u64; N];
                yb[y / 64] = 1 << (y % 64);
                let near_y = m.dilate(&yb);
                let mut x = [0u64; WORDS];
                for k in 0..N {
                    x[k] = adj[k] & !s[k];
                    q[k] |= x[k] & (twos[k] | (ones[k] & !near_y[k]));
                }
                singles.push((y as u16, x));
            }
        }
        if singles.len() >= 2 {
            singles.sort_unstable_by_key(|e| e.0);
            let mut one = [0u64; N];
            let mut two = [0u64; N];
            let mut i = 0;
            while i < singles.len() {
                let mut u = [0u64; N];
                let y = singles[i].0;
                while i < singles.len() && singles[i].0 == y {
                    for k in 0..N {
                        u[k] |= singles[i].1[k];
                    }
                    i += 1;
                }
                for k in 0..N {
                    two[k] |= one[k] & u[k];
                    one[k] |= u[k];
                }
            }
            for k in 0..N {
                q[k] |= two[k];
            }
        }
        let mut new = [0u64; N];
        let mut any = 0;
        for k in 0..N {
            new[k] = q[k] & empty[k] & !s[k];
            any |= new[k];
        }
        if any == 0 {
            return;
        }
        level += 1;
        record(out, &new, level);
        for k in 0..N {
            s[k] |= new[k];
        }
    }
}

#[cfg(test)]
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

    fn pos_from(size: usize, black: &[&str], white: &[&str]) -> Position {
        Position::from_names(size, size, black, white)
    }

    #[test]
    fn edge_rows_and_second_best_neighbours() {
        let mut e = TwoDistanceEval::new();
        let p = pos_from(5, &[], &[]);
        e.side(&p, Color::Black);
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
        e.side(&p, Color::Black);
        let g = p.geometry();
        let d = |s: &str| e.d[0][g.parse_cell(s).unwrap().index()];
        // b3 is next to the group c2, whose empty neighbours c1 and d1 are
        // at 1: b3 = 2.
        assert_eq!(d("b3"), 2);
        // A single block: White on d1 leaves c2 with only c1 at 1: b3 is
        // then 1 + second best.
        let p = pos_from(5, &["c2"], &["d1"]);
        e.side(&p, Color::Black);
        let d = |s: &str| e.d[0][p.geometry().parse_cell(s).unwrap().index()];
        assert!(d("b3") > 2);
    }

    /// The bitboard levels agree with the cell-by-cell notification
    /// algorithm on random positions of many shapes.
    #[test]
    fn bitboards_match_the_list_algorithm() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut e = TwoDistanceEval::new();
        for _ in 0..400 {
            let w = 1 + (rnd() % 26) as usize;
            let h = 1 + (rnd() % 26) as usize;
            let fill = rnd() % 80;
            let p = Position::random_fill(w, h, fill, &mut rnd);
            for color in Color::BOTH {
                e.side(&p, color);
                let (e1, e2) = color.edges();
                for (slot, edge) in [(0, e1), (1, e2)] {
                    let fast = e.d[slot][..w * h].to_vec();
                    e.run_lists(&p, edge, slot);
                    assert_eq!(fast, &e.d[slot][..w * h], "{w}x{h} {color} {edge:?}");
                }
            }
        }
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
