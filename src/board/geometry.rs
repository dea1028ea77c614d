//! Board geometry: size, cell ids and names, neighbour tables, edges.

use super::cellset::CellSet;

/// The largest width or height: one letter per column, `a`..`z`.
pub const MAX_SIZE: usize = 26;
/// The most cells any board has.
pub const MAX_CELLS: usize = MAX_SIZE * MAX_SIZE;

/// A cell of the board, as its index `row * width + column`. A cell only
/// means something together with the `Geometry` it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u16);

impl Cell {
    #[inline]
    pub fn from_index(i: usize) -> Cell {
        debug_assert!(i < MAX_CELLS);
        Cell(i as u16)
    }

    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The four board edges. Black owns North (row 1) and South (the last row),
/// White owns West (column a) and East (the last column).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Edge {
    North = 0,
    South = 1,
    West = 2,
    East = 3,
}

impl Edge {
    pub const ALL: [Edge; 4] = [Edge::North, Edge::South, Edge::West, Edge::East];

    pub fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// The fixed shape of a board: its size and every adjacency, computed once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Geometry {
    width: usize,
    height: usize,
    /// Six slots per cell; the first `degree[c]` are real neighbours.
    neighbours: Vec<Cell>,
    degree: Vec<u8>,
    /// Bitmask of the `Edge`s each cell touches.
    edge_mask: Vec<u8>,
    edge_cells: [CellSet; 4],
    all: CellSet,
}

/// Offsets (dcol, drow) of the six neighbours on a rhombus whose rows shift
/// right as they go down: left, right, up, up-right, down-left, down.
const DIRECTIONS: [(isize, isize); 6] = [(-1, 0), (1, 0), (0, -1), (1, -1), (-1, 1), (0, 1)];

impl Geometry {
    /// A board of `width` columns and `height` rows, each in 1..=26.
    pub fn new(width: usize, height: usize) -> Result<Geometry, String> {
        if !(1..=MAX_SIZE).contains(&width) || !(1..=MAX_SIZE).contains(&height) {
            return Err(format!(
                "board size {width}x{height} is not supported: each side must be 1 to {MAX_SIZE}"
            ));
        }
        let n = width * height;
        let mut neighbours = vec![Cell(0); 6 * n];
        let mut degree = vec![0u8; n];
        let mut edge_mask = vec![0u8; n];
        let mut edge_cells = [CellSet::EMPTY; 4];
        let mut all = CellSet::EMPTY;
        for row in 0..height {
            for col in 0..width {
                let i = row * width + col;
                let cell = Cell::from_index(i);
                all.insert(cell);
                for (dc, dr) in DIRECTIONS {
                    let (c, r) = (col as isize + dc, row as isize + dr);
                    if c >= 0 && r >= 0 && (c as usize) < width && (r as usize) < height {
                        neighbours[6 * i + degree[i] as usize] =
                            Cell::from_index(r as usize * width + c as usize);
                        degree[i] += 1;
                    }
                }
                let mut mask = 0;
                if row == 0 {
                    mask |= Edge::North.bit();
                }
                if row == height - 1 {
                    mask |= Edge::South.bit();
                }
                if col == 0 {
                    mask |= Edge::West.bit();
                }
                if col == width - 1 {
                    mask |= Edge::East.bit();
                }
                edge_mask[i] = mask;
                for e in Edge::ALL {
                    if mask & e.bit() != 0 {
                        edge_cells[e as usize].insert(cell);
                    }
                }
            }
        }
        Ok(Geometry {
            width,
            height,
            neighbours,
            degree,
            edge_mask,
            edge_cells,
            all,
        })
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    pub fn is_square(&self) -> bool {
        self.width == self.height
    }

    pub fn num_cells(&self) -> usize {
        self.width * self.height
    }

    /// Every cell of the board, in index order.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + use<> {
        (0..self.num_cells()).map(Cell::from_index)
    }

    pub fn all_cells(&self) -> &CellSet {
        &self.all
    }

    pub fn cell_at(&self, col: usize, row: usize) -> Option<Cell> {
        (col < self.width && row < self.height).then(|| Cell::from_index(row * self.width + col))
    }

    /// (column, row), both from 0.
    pub fn coords(&self, cell: Cell) -> (usize, usize) {
        (cell.index() % self.width, cell.index() / self.width)
    }

    #[inline]
    pub fn neighbours(&self, cell: Cell) -> &[Cell] {
        let i = cell.index();
        &self.neighbours[6 * i..6 * i + self.degree[i] as usize]
    }

    /// Whether `cell` lies on `edge`.
    #[inline]
    pub fn touches(&self, cell: Cell, edge: Edge) -> bool {
        self.edge_mask[cell.index()] & edge.bit() != 0
    }

    /// The cells along `edge`.
    pub fn edge_cells(&self, edge: Edge) -> &CellSet {
        &self.edge_cells[edge as usize]
    }

    /// The cell mirrored across the long diagonal (column and row exchanged),
    /// which is where the swap rule moves the first stone. `None` when the
    /// board is not square and the mirror falls off it.
    pub fn mirror(&self, cell: Cell) -> Option<Cell> {
        let (c, r) = self.coords(cell);
        self.cell_at(r, c)
    }

    /// The cell's name: column letter then row number, `a1` top left.
    pub fn name(&self, cell: Cell) -> String {
        let (c, r) = self.coords(cell);
        format!("{}{}", (b'a' + c as u8) as char, r + 1)
    }

    /// Parses a cell name such as `f6` or `F6`; `None` when it is malformed
    /// or off this board.
    pub fn parse_cell(&self, s: &str) -> Option<Cell> {
        let bytes = s.as_bytes();
        let (&letter, digits) = bytes.split_first()?;
        let letter = letter.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() || digits.is_empty() || digits.len() > 2 {
            return None;
        }
        if !digits.iter().all(u8::is_ascii_digit) || digits[0] == b'0' {
            return None;
        }
        let row: usize = std::str::from_utf8(digits).ok()?.parse().ok()?;
        self.cell_at((letter - b'a') as usize, row - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        let g = Geometry::new(26, 26).unwrap();
        for c in g.cells() {
            assert_eq!(g.parse_cell(&g.name(c)), Some(c));
        }
        assert_eq!(g.name(Cell::from_index(0)), "a1");
        assert_eq!(g.parse_cell("Z26").map(|c| g.coords(c)), Some((25, 25)));
        for bad in ["", "a", "a0", "a27", "1a", "aa1", "a01", "a1x", "é1", "a-1"] {
            assert_eq!(g.parse_cell(bad), None, "{bad}");
        }
    }

    #[test]
    fn sizes_out_of_range_are_refused() {
        assert!(Geometry::new(0, 5).is_err());
        assert!(Geometry::new(27, 5).is_err());
        assert!(Geometry::new(1, 1).is_ok());
        assert!(Geometry::new(4, 5).is_ok());
    }

    /// Every cell's neighbours, checked against the hexagonal adjacency
    /// written out independently: two cells touch when their offsets are one
    /// of the six directions of a rhombus whose rows shift right going down.
    #[test]
    fn every_cells_neighbours() {
        for (w, h) in [(1, 1), (2, 2), (3, 5), (5, 3), (11, 11), (26, 26)] {
            let g = Geometry::new(w, h).unwrap();
            for a in g.cells() {
                let (ac, ar) = g.coords(a);
                let mut expected: Vec<Cell> = g
                    .cells()
                    .filter(|&b| {
                        let (bc, br) = g.coords(b);
                        let dc = bc as i64 - ac as i64;
                        let dr = br as i64 - ar as i64;
                        matches!(
                            (dc, dr),
                            (-1, 0) | (1, 0) | (0, -1) | (0, 1) | (1, -1) | (-1, 1)
                        )
                    })
                    .collect();
                let mut got = g.neighbours(a).to_vec();
                expected.sort();
                got.sort();
                assert_eq!(got, expected, "{w}x{h} {}", g.name(a));
                // Interior cells have six neighbours; edge counts below.
                assert!(got.len() <= 6);
            }
        }
        let g = Geometry::new(11, 11).unwrap();
        let names = |c: &str| {
            let mut v: Vec<String> = g
                .neighbours(g.parse_cell(c).unwrap())
                .iter()
                .map(|&n| g.name(n))
                .collect();
            v.sort();
            v
        };
        assert_eq!(names("a1"), ["a2", "b1"]);
        assert_eq!(names("k1"), ["j1", "j2", "k2"]);
        assert_eq!(names("f6"), ["e6", "e7", "f5", "f7", "g5", "g6"]);
        assert_eq!(names("k11"), ["j11", "k10"]);
    }

    #[test]
    fn edges_and_mirror() {
        let g = Geometry::new(4, 5).unwrap();
        assert_eq!(g.edge_cells(Edge::North).len(), 4);
        assert_eq!(g.edge_cells(Edge::South).len(), 4);
        assert_eq!(g.edge_cells(Edge::West).len(), 5);
        assert_eq!(g.edge_cells(Edge::East).len(), 5);
        assert!(g.touches(g.parse_cell("d5").unwrap(), Edge::East));
        assert!(g.touches(g.parse_cell("d5").unwrap(), Edge::South));
        assert_eq!(g.mirror(g.parse_cell("a5").unwrap()), None);
        let g = Geometry::new(11, 11).unwrap();
        assert_eq!(g.mirror(g.parse_cell("c2").unwrap()), g.parse_cell("b3"));
    }
}
