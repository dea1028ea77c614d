//! The 0-1 BFS "stones still needed" distance (seed 000).
//!
//! A player's own stones cost 0 to cross, an empty cell costs 1 and the
//! opponent's stones are walls. The cheapest path from one of the player's
//! edges to the other is the number of stones the player still needs.
//!
//! The search runs this at every node, so instead of a queue of cells it
//! runs the same breadth-first layers on bitboards: `R_k`, the cells
//! reachable at cost at most `k`, is `R_{k-1}` plus its empty neighbours
//! (and the empty cells of the starting edge), closed under adjacency
//! through own stones (the 0-cost steps). A neighbour set is six word
//! shifts with column masks, so a layer costs a few dozen word operations
//! on an 11x11 board (two 64-bit words). The code is generic over the
//! number of words, so each board size runs a loop of fixed length; no
//! allocation per call.

#![allow(clippy::needless_range_loop)] // word-parallel loops index several arrays at once

use crate::board::{CellSet, Color, Edge, MAX_CELLS, Position};

/// The distance of a cell (or a player) that cannot be reached.
pub const UNREACHABLE: u16 = u16::MAX;

pub(super) const WORDS: usize = MAX_CELLS.div_ceil(64);

/// Per-geometry masks, rebuilt when the board size changes.
#[derive(Clone)]
pub(super) struct Masks {
    pub shape: (usize, usize),
    pub words: usize,
    pub board: [u64; WORDS],
    /// Cells not in the first / last column.
    pub not_first: [u64; WORDS],
    pub not_last: [u64; WORDS],
    pub edges: [[u64; WORDS]; 4],
}

impl Masks {
    pub fn new() -> Masks {
        Masks {
            shape: (0, 0),
            words: 0,
            board: [0; WORDS],
            not_first: [0; WORDS],
            not_last: [0; WORDS],
            edges: [[0; WORDS]; 4],
        }
    }

    /// Rebuilds the masks when the board size changed.
    pub fn prepare(&mut self, pos: &Position) {
        let g = pos.geometry();
        let shape = (g.width(), g.height());
        if self.shape == shape {
            return;
        }
        self.shape = shape;
        self.words = g.num_cells().div_ceil(64);
        self.board = words_of(g.all_cells());
        let mut first = CellSet::EMPTY;
        let mut last = CellSet::EMPTY;
        for c in g.cells() {
            let (col, _) = g.coords(c);
            if col == 0 {
                first.insert(c);
            }
            if col + 1 == g.width() {
                last.insert(c);
            }
        }
        self.not_first = words_of(&g.all_cells().difference(&first));
        self.not_last = words_of(&g.all_cells().difference(&last));
        for e in Edge::ALL {
            self.edges[e as usize] = words_of(g.edge_cells(e));
        }
    }

    /// The cells next to a cell of `s`, on the board.
    #[inline(always)]
    pub fn dilate<const N: usize>(&self, s: &[u64; N]) -> [u64; N] {
        let w = self.shape.0 as u32;
        let a = bits::shl(s, 1);
        let b = bits::shr(s, 1);
        let c = bits::shl(s, w);
        let d = bits::shr(s, w);
        let e = bits::shl(s, w - 1);
        let f = bits::shr(s, w - 1);
        let mut o = [0; N];
        for k in 0..N {
            o[k] = ((a[k] & self.not_first[k])
                | (b[k] & self.not_last[k])
                | c[k]
                | d[k]
                | (e[k] & self.not_last[k])
                | (f[k] & self.not_first[k]))
                & self.board[k];
        }
        o
    }

    /// The six one-direction neighbour sets of `s` (cells whose neighbour
    /// in that direction is in `s`), for counting neighbours.
    #[inline(always)]
    pub fn directions<const N: usize>(&self, s: &[u64; N]) -> [[u64; N]; 6] {
        let w = self.shape.0 as u32;
        let mut out = [
            bits::shl(s, 1),
            bits::shr(s, 1),
            bits::shl(s, w),
            bits::shr(s, w),
            bits::shl(s, w - 1),
            bits::shr(s, w - 1),
        ];
        for k in 0..N {
            out[0][k] &= self.not_first[k] & self.board[k];
            out[1][k] &= self.not_last[k] & self.board[k];
            out[2][k] &= self.board[k];
            out[3][k] &= self.board[k];
            out[4][k] &= self.not_last[k] & self.board[k];
            out[5][k] &= self.not_first[k] & self.board[k];
        }
        out
    }
}

/// Reusable state for the 0-1 distance.
#[derive(Clone)]
pub struct Dist01 {
    masks: Masks,
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

pub(super) fn words_of(set: &CellSet) -> [u64; WORDS] {
    let mut w = [0; WORDS];
    w.copy_from_slice(&set.words()[..WORDS]);
    w
}

/// What a layered expansion should do.
struct Job<'a> {
    own: &'a [u64],
    empty: &'a [u64],
    from: &'a [u64],
    to: &'a [u64],
    /// Stop at the first layer touching `to`.
    stop_at_target: bool,
    /// Stop after this layer.
    max_level: u16,
    /// Record each cell's layer here.
    out: Option<&'a mut [u16; MAX_CELLS]>,
}

/// Bitboard helpers over `N` words.
pub(super) mod bits {
    #[inline(always)]
    pub fn shl<const N: usize>(x: &[u64; N], s: u32) -> [u64; N] {
        if s == 0 {
            return *x;
        }
        let mut o = [0; N];
        o[0] = x[0] << s;
        for k in 1..N {
            o[k] = (x[k] << s) | (x[k - 1] >> (64 - s));
        }
        o
    }

    #[inline(always)]
    pub fn shr<const N: usize>(x: &[u64; N], s: u32) -> [u64; N] {
        if s == 0 {
            return *x;
        }
        let mut o = [0; N];
        for k in 0..N - 1 {
            o[k] = (x[k] >> s) | (x[k + 1] << (64 - s));
        }
        o[N - 1] = x[N - 1] >> s;
        o
    }
}

impl Dist01 {
    pub fn new() -> Dist01 {
        Dist01 {
            masks: Masks::new(),
        }
    }

    fn prepare(&mut self, pos: &Position) {
        self.masks.prepare(pos);
    }

    /// How many more stones `color` needs to join its two edges: 0 when it
    /// has already won, `None` when the opponent has cut it off.
    pub fn distance(&mut self, pos: &Position, color: Color) -> Option<u32> {
        let (from, to) = color.edges();
        let d = self.run(pos, color, (from, to), None);
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
        let n = pos.geometry().num_cells();
        out[..n].fill(UNREACHABLE);
        let other = match edge {
            Edge::North => Edge::South,
            Edge::South => Edge::North,
            Edge::West => Edge::East,
            Edge::East => Edge::West,
        };
        self.run(pos, color, (edge, other), Some(out));
    }

    /// The empty cells where one more `color` stone joins its edges.
    pub fn one_move_wins(&mut self, pos: &Position, color: Color) -> CellSet {
        let (e1, e2) = color.edges();
        let a = self.reach(pos, color, e1, 1);
        let b = self.reach(pos, color, e2, 1);
        a.intersection(&b).intersection(&pos.empty_cells())
    }

    /// The cells reachable from `color`'s `edge` at cost at most `level`.
    pub fn reach(&mut self, pos: &Position, color: Color, edge: Edge, level: u16) -> CellSet {
        let mut out = [0u64; WORDS];
        self.prepare(pos);
        let own = words_of(pos.stones(color));
        let opp = words_of(pos.stones(color.opponent()));
        let mut empty = self.masks.board;
        for k in 0..WORDS {
            empty[k] &= !(own[k] | opp[k]);
        }
        let from = self.masks.edges[edge as usize];
        let job = Job {
            own: &own,
            empty: &empty,
            from: &from,
            to: &[0; WORDS],
            stop_at_target: false,
            max_level: level,
            out: None,
        };
        dispatch(&self.masks, job, Some(&mut out));
        CellSet::from_words(&out)
    }

    /// The 0-1 distance from edge `from` to edge `to` for `color`; with
    /// `out`, the expansion runs to the end and leaves each cell's
    /// distance from `from` there, without it stops at `to`.
    fn run(
        &mut self,
        pos: &Position,
        color: Color,
        (from, to): (Edge, Edge),
        out: Option<&mut [u16; MAX_CELLS]>,
    ) -> u16 {
        let stop_at_target = out.is_none();
        self.prepare(pos);
        let own = words_of(pos.stones(color));
        let opp = words_of(pos.stones(color.opponent()));
        let mut empty = self.masks.board;
        for k in 0..WORDS {
            empty[k] &= !(own[k] | opp[k]);
        }
        let job = Job {
            own: &own,
            empty: &empty,
            from: &self.masks.edges[from as usize],
            to: &self.masks.edges[to as usize],
            stop_at_target,
            max_level: u16::MAX,
            out,
        };
        dispatch(&self.masks, job, None)
    }
}

/// Runs `expand` with the word count of the board.
fn dispatch(m: &Masks, job: Job, reached: Option<&mut [u64; WORDS]>) -> u16 {
    macro_rules! go {
        ($($n:literal)*) => {
            match m.words {
                $($n => expand::<$n>(m, job, reached),)*
                _ => unreachable!("at most {WORDS} words"),
            }
        };
    }
    go!(1 2 3 4 5 6 7 8 9 10 11)
}

#[inline(always)]
pub(super) fn load<const N: usize>(x: &[u64]) -> [u64; N] {
    let mut o = [0; N];
    o.copy_from_slice(&x[..N]);
    o
}

/// The layered expansion on `N`-word bitboards. Returns the first layer
/// touching the target (when asked to stop there) or `UNREACHABLE`.
fn expand<const N: usize>(m: &Masks, job: Job, reached: Option<&mut [u64; WORDS]>) -> u16 {
    let own: [u64; N] = load(job.own);
    let empty: [u64; N] = load(job.empty);
    let from: [u64; N] = load(job.from);
    let to: [u64; N] = load(job.to);
    let dilate = |s: &[u64; N]| m.dilate(s);
    // Closes a set under steps onto own stones.
    let flood = |mut r: [u64; N]| -> [u64; N] {
        loop {
            let d = dilate(&r);
            let mut changed = 0;
            for k in 0..N {
                let add = d[k] & own[k] & !r[k];
                changed |= add;
                r[k] |= add;
            }
            if changed == 0 {
                return r;
            }
        }
    };
    let hits = |r: &[u64; N]| (0..N).any(|k| r[k] & to[k] != 0);
    let mut out = job.out;
    let record = |out: &mut Option<&mut [u16; MAX_CELLS]>, new: &[u64; N], level: u16| {
        if let Some(o) = out.as_deref_mut() {
            for (k, &word) in new.iter().enumerate() {
                let mut bitsw = word;
                while bitsw != 0 {
                    let b = bitsw.trailing_zeros() as usize;
                    bitsw &= bitsw - 1;
                    o[k * 64 + b] = level;
                }
            }
        }
    };

    let mut r = [0u64; N];
    for k in 0..N {
        r[k] = from[k] & own[k];
    }
    r = flood(r);
    record(&mut out, &r, 0);
    let mut level = 0u16;
    let result = loop {
        if job.stop_at_target && hits(&r) {
            break level;
        }
        if level >= job.max_level {
            break UNREACHABLE;
        }
        level += 1;
        let d = dilate(&r);
        let mut nr = [0u64; N];
        for k in 0..N {
            nr[k] = r[k] | ((d[k] | from[k]) & empty[k]);
        }
        let nr = flood(nr);
        let mut new = [0u64; N];
        let mut any = 0;
        for k in 0..N {
            new[k] = nr[k] & !r[k];
            any |= new[k];
        }
        if any == 0 {
            break UNREACHABLE;
        }
        record(&mut out, &new, level);
        r = nr;
    };
    if let Some(dst) = reached {
        dst[..N].copy_from_slice(&r);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Cell, Geometry};
    use std::sync::Arc;

    fn pos_from(size: usize, black: &[&str], white: &[&str]) -> Position {
        Position::from_names(size, size, black, white)
    }

    /// The seed's 0-1 BFS with a deque, written plainly, as the reference.
    fn reference(pos: &Position, color: Color, from: Edge) -> Vec<u16> {
        let g = pos.geometry();
        let mut dist = vec![UNREACHABLE; g.num_cells()];
        let mut dq = std::collections::VecDeque::new();
        let cost = |c: Cell| if pos.stone(c) == Some(color) { 0 } else { 1 };
        for c in g.edge_cells(from).iter() {
            if pos.stone(c) != Some(color.opponent()) {
                dist[c.index()] = cost(c);
                if cost(c) == 0 {
                    dq.push_front(c);
                } else {
                    dq.push_back(c);
                }
            }
        }
        while let Some(c) = dq.pop_front() {
            for &nb in g.neighbours(c) {
                if pos.stone(nb) == Some(color.opponent()) {
                    continue;
                }
                let d = dist[c.index()] + cost(nb);
                if d < dist[nb.index()] {
                    dist[nb.index()] = d;
                    if cost(nb) == 0 {
                        dq.push_front(nb);
                    } else {
                        dq.push_back(nb);
                    }
                }
            }
        }
        dist
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
        // White can still run along row 1 or row 4: 4 stones.
        assert_eq!(d.distance(&p, Color::White), Some(4));
        // A black column joining top and bottom cuts White off.
        let p = pos_from(3, &["b1", "b2", "b3"], &[]);
        assert_eq!(d.distance(&p, Color::Black), Some(0));
        assert_eq!(d.distance(&p, Color::White), None);
    }

    #[test]
    fn winding_path_through_own_stones() {
        let mut d = Dist01::new();
        // 5x5: White stones a3..d3: White needs 1 (e3 or e2).
        let p = pos_from(5, &[], &["a3", "b3", "c3", "d3"]);
        assert_eq!(d.distance(&p, Color::White), Some(1));
        assert_eq!(
            d.one_move_wins(&p, Color::White)
                .iter()
                .map(|c| p.geometry().name(c))
                .collect::<Vec<_>>(),
            ["e2", "e3"]
        );
        // Black must cross row 3 at e3: e1 e2 e3 e4 e5.
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
        assert!(d.one_move_wins(&p2, Color::White).is_empty());
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

    /// The bitboard layers agree with the plain deque BFS on random
    /// positions of many shapes, including multi-word and 1-wide boards.
    #[test]
    fn matches_the_deque_bfs_on_random_positions() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut d = Dist01::new();
        let mut out = [0u16; MAX_CELLS];
        for _ in 0..300 {
            let w = 1 + (rnd() % 26) as usize;
            let h = 1 + (rnd() % 26) as usize;
            let fill = rnd() % 70;
            let p = Position::random_fill(w, h, fill, &mut rnd);
            for color in Color::BOTH {
                let (e1, e2) = color.edges();
                for e in [e1, e2] {
                    let want = reference(&p, color, e);
                    d.edge_distances(&p, color, e, &mut out);
                    assert_eq!(&out[..w * h], &want[..], "{w}x{h} {color} {e:?}");
                }
                let want = reference(&p, color, e1);
                let best = p
                    .geometry()
                    .edge_cells(e2)
                    .iter()
                    .map(|c| want[c.index()])
                    .min()
                    .unwrap();
                let best = (best != UNREACHABLE).then_some(best as u32);
                assert_eq!(d.distance(&p, color), best, "{w}x{h} {color}");
            }
        }
    }
}
