//! Stones on a board, with an incremental Zobrist hash and an undoable
//! union-find that knows the winner the moment a connecting stone lands.

use std::sync::Arc;

use super::Color;
use super::cellset::CellSet;
use super::geometry::{Cell, Edge, Geometry};
use super::zobrist::zobrist_key;

/// A placement of stones. Every stone goes through `play` and comes off with
/// `unplay`, in stack order, so both the hash and the union-find roll back
/// exactly.
///
/// The union-find has one node per cell and four more for the edges
/// (seed 002's edge nodes). It uses union by size *without* path
/// compression: finds stay O(log n), and each union changes one parent
/// pointer, which we log so that `unplay` can undo it. That makes the same
/// structure usable both for the game and for make/unmake in a search.
#[derive(Clone, Debug)]
pub struct Position {
    geometry: Arc<Geometry>,
    stones: [CellSet; 2],
    hash: u64,
    parent: Vec<u16>,
    size: Vec<u16>,
    /// Roots that were hung under another root, in order.
    union_log: Vec<u16>,
    /// Each stone played, its colour and how many unions it caused.
    played: Vec<(Color, Cell, u8)>,
}

impl PartialEq for Position {
    /// Same board and same stones. The hash and union-find follow from these.
    fn eq(&self, other: &Self) -> bool {
        self.geometry == other.geometry && self.stones == other.stones
    }
}

impl Eq for Position {}

impl Position {
    pub fn new(geometry: Arc<Geometry>) -> Position {
        let nodes = geometry.num_cells() + 4;
        Position {
            stones: [CellSet::EMPTY; 2],
            hash: 0,
            parent: (0..nodes as u16).collect(),
            size: vec![1; nodes],
            union_log: Vec::new(),
            played: Vec::new(),
            geometry,
        }
    }

    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// A `width` x `height` board where each cell holds, at random, a
    /// Black stone with probability `fill`/200, a White one with the same
    /// probability, or nothing (for tests; `rnd` is the caller's generator).
    #[cfg(test)]
    pub(crate) fn random_fill(
        width: usize,
        height: usize,
        fill: u64,
        rnd: &mut impl FnMut() -> u64,
    ) -> Position {
        let mut pos = Position::new(Arc::new(Geometry::new(width, height).expect("valid size")));
        for c in pos.geometry().cells() {
            let r = rnd() % 100;
            if r < fill / 2 {
                pos.play(Color::Black, c);
            } else if r < fill {
                pos.play(Color::White, c);
            }
        }
        pos
    }

    /// A `width` x `height` board with Black's and White's stones on the
    /// named cells (for tests and examples). Panics on a bad name.
    pub fn from_names(width: usize, height: usize, black: &[&str], white: &[&str]) -> Position {
        let mut pos = Position::new(Arc::new(Geometry::new(width, height).expect("valid size")));
        for (color, names) in [(Color::Black, black), (Color::White, white)] {
            for name in names {
                let cell = pos
                    .geometry()
                    .parse_cell(name)
                    .expect("a cell of this board");
                pos.play(color, cell);
            }
        }
        pos
    }

    pub fn shared_geometry(&self) -> &Arc<Geometry> {
        &self.geometry
    }

    #[inline]
    pub fn stone(&self, cell: Cell) -> Option<Color> {
        if self.stones[0].contains(cell) {
            Some(Color::Black)
        } else if self.stones[1].contains(cell) {
            Some(Color::White)
        } else {
            None
        }
    }

    #[inline]
    pub fn is_empty(&self, cell: Cell) -> bool {
        self.stone(cell).is_none()
    }

    pub fn stones(&self, color: Color) -> &CellSet {
        &self.stones[color.index()]
    }

    pub fn empty_cells(&self) -> CellSet {
        self.geometry
            .all_cells()
            .difference(&self.stones[0].union(&self.stones[1]))
    }

    pub fn num_stones(&self) -> usize {
        self.played.len()
    }

    /// The Zobrist hash of the stones (side to move not included).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The stones in the order they were placed.
    pub fn placed(&self) -> impl DoubleEndedIterator<Item = (Color, Cell)> + '_ {
        self.played.iter().map(|&(c, cell, _)| (c, cell))
    }

    pub fn last_placed(&self) -> Option<(Color, Cell)> {
        self.played.last().map(|&(c, cell, _)| (c, cell))
    }

    fn edge_node(&self, edge: Edge) -> usize {
        self.geometry.num_cells() + edge as usize
    }

    #[inline]
    fn find(&self, mut node: usize) -> usize {
        while self.parent[node] as usize != node {
            node = self.parent[node] as usize;
        }
        node
    }

    /// Joins two sets; returns whether a union happened (and was logged).
    fn union(&mut self, a: usize, b: usize) -> bool {
        let (mut ra, mut rb) = (self.find(a), self.find(b));
        if ra == rb {
            return false;
        }
        if self.size[ra] < self.size[rb] {
            std::mem::swap(&mut ra, &mut rb);
        }
        self.parent[rb] = ra as u16;
        self.size[ra] += self.size[rb];
        self.union_log.push(rb as u16);
        true
    }

    /// Places a stone. The cell must be empty.
    pub fn play(&mut self, color: Color, cell: Cell) {
        assert!(self.is_empty(cell), "play on an occupied cell");
        self.stones[color.index()].insert(cell);
        self.hash ^= zobrist_key(color, cell);
        let mut unions = 0u8;
        let i = cell.index();
        for k in 0..self.geometry.neighbours(cell).len() {
            let n = self.geometry.neighbours(cell)[k];
            if self.stones[color.index()].contains(n) && self.union(i, n.index()) {
                unions += 1;
            }
        }
        let (e1, e2) = color.edges();
        for edge in [e1, e2] {
            if self.geometry.touches(cell, edge) && self.union(i, self.edge_node(edge)) {
                unions += 1;
            }
        }
        self.played.push((color, cell, unions));
    }

    /// Takes back the most recent stone; `None` when there is none.
    pub fn unplay(&mut self) -> Option<(Color, Cell)> {
        let (color, cell, unions) = self.played.pop()?;
        for _ in 0..unions {
            let child = self.union_log.pop().expect("union log matches plays") as usize;
            let root = self.parent[child] as usize;
            self.size[root] -= self.size[child];
            self.parent[child] = child as u16;
        }
        self.stones[color.index()].remove(cell);
        self.hash ^= zobrist_key(color, cell);
        Some((color, cell))
    }

    /// Whether `color`'s stones join its two edges.
    pub fn has_won(&self, color: Color) -> bool {
        let (e1, e2) = color.edges();
        self.find(self.edge_node(e1)) == self.find(self.edge_node(e2))
    }

    /// The player whose stones join their edges, if any. At most one player
    /// can: a chain across the board separates the other pair of edges.
    pub fn winner(&self) -> Option<Color> {
        Color::BOTH.into_iter().find(|&c| self.has_won(c))
    }

    /// Whether two cells hold stones of one connected group.
    pub fn same_group(&self, a: Cell, b: Cell) -> bool {
        self.find(a.index()) == self.find(b.index())
    }

    /// The winner by a plain flood fill from one edge, independent of the
    /// union-find. For tests and for checking positions built without
    /// `play` order mattering.
    pub fn winner_by_flood(&self) -> Option<Color> {
        Color::BOTH
            .into_iter()
            .find(|&c| self.chain_between_edges(c).is_some())
    }

    /// The cells of `color`'s stones reachable from its first edge, if they
    /// reach its second edge too.
    pub fn chain_between_edges(&self, color: Color) -> Option<CellSet> {
        let g = &self.geometry;
        let own = self.stones(color);
        let (from, to) = color.edges();
        let mut seen = g.edge_cells(from).intersection(own);
        let mut stack: Vec<Cell> = seen.iter().collect();
        while let Some(c) = stack.pop() {
            for &n in g.neighbours(c) {
                if own.contains(n) && !seen.contains(n) {
                    seen.insert(n);
                    stack.push(n);
                }
            }
        }
        (!seen.is_disjoint(g.edge_cells(to))).then_some(seen)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small xorshift generator so the test is reproducible without a
    /// dependency.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    fn board(w: usize, h: usize) -> Position {
        Position::new(Arc::new(Geometry::new(w, h).unwrap()))
    }

    /// Fills thousands of boards at random, stone by stone: the union-find
    /// winner must equal a flood fill after every stone, and a full board
    /// has exactly one winner.
    #[test]
    fn union_find_winner_matches_flood_fill_on_random_boards() {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        for game in 0..3000 {
            let w = 1 + rng.below(13);
            let h = if game % 3 == 0 { 1 + rng.below(13) } else { w };
            let mut pos = board(w, h);
            let mut cells: Vec<Cell> = pos.geometry().cells().collect();
            for i in (1..cells.len()).rev() {
                cells.swap(i, rng.below(i + 1));
            }
            let mut first_win = None;
            for (k, &cell) in cells.iter().enumerate() {
                let color = if k % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                pos.play(color, cell);
                assert_eq!(pos.winner(), pos.winner_by_flood(), "{w}x{h} game {game}");
                if first_win.is_none() {
                    first_win = pos.winner();
                }
            }
            let winners: Vec<Color> = Color::BOTH
                .into_iter()
                .filter(|&c| pos.chain_between_edges(c).is_some())
                .collect();
            assert_eq!(winners.len(), 1, "a full board has exactly one winner");
            assert_eq!(
                Some(winners[0]),
                first_win,
                "the first winner stays the winner"
            );
        }
    }

    #[test]
    fn unplay_restores_position_hash_and_connectivity() {
        let mut rng = Rng(99);
        for _ in 0..200 {
            let n = 2 + rng.below(10);
            let mut pos = board(n, n);
            let mut snapshots = vec![(pos.clone(), pos.hash(), pos.winner())];
            let mut cells: Vec<Cell> = pos.geometry().cells().collect();
            for i in (1..cells.len()).rev() {
                cells.swap(i, rng.below(i + 1));
            }
            for (k, &c) in cells.iter().enumerate() {
                pos.play(
                    if k % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    },
                    c,
                );
                snapshots.push((pos.clone(), pos.hash(), pos.winner()));
            }
            while let Some((snap, hash, winner)) = snapshots.pop() {
                assert_eq!(pos, snap);
                assert_eq!(pos.hash(), hash);
                assert_eq!(pos.winner(), winner);
                assert_eq!(pos.parent, snap.parent);
                pos.unplay();
            }
            assert_eq!(pos.hash(), 0);
        }
    }

    #[test]
    fn one_by_one_is_won_by_its_first_stone() {
        let mut pos = board(1, 1);
        pos.play(Color::White, Cell::from_index(0));
        assert_eq!(pos.winner(), Some(Color::White));
        pos.unplay();
        pos.play(Color::Black, Cell::from_index(0));
        assert_eq!(pos.winner(), Some(Color::Black));
    }

    #[test]
    fn hash_depends_on_stones_not_order() {
        let mut a = board(5, 5);
        let mut b = board(5, 5);
        let g = a.geometry().clone();
        let c1 = g.parse_cell("a1").unwrap();
        let c2 = g.parse_cell("c3").unwrap();
        a.play(Color::Black, c1);
        a.play(Color::White, c2);
        b.play(Color::White, c2);
        b.play(Color::Black, c1);
        assert_eq!(a.hash(), b.hash());
        assert_ne!(a.hash(), 0);
    }
}
