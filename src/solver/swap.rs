//! The swap decision and opening choice.
//!
//! With the swap rule, White may take over Black's first stone. White
//! should do so exactly when that opening wins for the first player.
//! [`swap_first_move`] answers from per-size tables; coordinates are
//! ferrohex's (Black joins the top and bottom rows, `a1` top left).
//!
//! Sources of the tables:
//! - 1x1 to 5x5: the list of swap moves shipped with the Benzene engines
//!   (`share/swap-moves.txt`), whose coordinates are transposed relative
//!   to ours (its "vertical" Black names cells column-for-row); we list
//!   them transposed, and a test (tests/solver.rs) re-derives every entry
//!   of 1x1 to 5x5 with ferrohex's own solver.
//! - 6x6 and 7x7: the winner after every first move in Benzene's
//!   regression files `dfpn-solve-6x6.tst` and `dfpn-solve-7x7.tst`
//!   (solved by Benzene's DFPN; the 7x7 file lists a1-d4 and the rest
//!   follows by 180-degree rotation, which maps Black's game onto itself).
//!   They agree with the transposed Benzene table except for its 7x7 slip
//!   (`e3` listed twice, `e2` missing: our `b5`).
//! - 8x8: Benzene's table transposed; the results of Henderson, Arneson and
//!   Hayward, "Solving 8x8 Hex" (IJCAI 2009), who solved every opening.
//!   The 32 cells are closed under 180-degree rotation (checked in tests).
//! - 9x9 and larger: no table here; the accepted rule that on boards this
//!   large almost every opening wins for the first player. Benzene's 11x11
//!   table swaps 98 of 121 cells: all but (in our coordinates) column `a`
//!   rows 1..n-1, the last column rows 2..n, and a couple of others; the
//!   obtuse corners (`a{n}` and the last column's row 1) are swapped. We
//!   use that rule for every size from 9 up: swap unless the stone is on
//!   White's edge columns outside the obtuse corners.
//! - Non-square boards: the side with the shorter distance wins whatever
//!   happens, so White swaps when Black's distance (the height) is the
//!   shorter one and the stone has a mirror cell on the board.

use crate::board::{Cell, Geometry};

/// Swapped openings of the solved sizes, in ferrohex coordinates.
const TABLES: [(usize, &str); 8] = [
    (1, "a1"),
    (2, "a2 b1"),
    (3, "a2 a3 b2 c1 c2"),
    (4, "a4 b3 c2 d1"),
    (5, "a4 a5 b2 b3 b4 c2 c3 c4 d2 d3 d4 e1 e2"),
    // dfpn-solve-6x6.tst: every cell whose answer is black.
    (
        6,
        "a3 a4 a5 a6 b2 b3 b4 b5 c2 c3 c4 c5 d2 d3 d4 d5 e2 e3 e4 e5 f1 f2 f3 f4",
    ),
    // dfpn-solve-7x7.tst (a1-d4) and their 180-degree rotations.
    (
        7,
        "a4 a6 a7 b3 b4 b5 b6 c2 c3 c4 c5 c6 d3 d4 d5 \
         e2 e3 e4 e5 e6 f2 f3 f4 f5 g1 g2 g4",
    ),
    (
        8,
        "a8 b7 b8 c2 c3 c4 c5 c6 c7 d2 d3 d4 d5 d6 d7 d8 \
         e1 e2 e3 e4 e5 e6 e7 f2 f3 f4 f5 f6 f7 g1 g2 h1",
    ),
];

/// The table of swapped openings for a square board of size `n`, if
/// there is one.
pub fn solved_table(g: &Geometry) -> Option<Vec<Cell>> {
    if !g.is_square() {
        return None;
    }
    let (_, cells) = TABLES.iter().find(|(n, _)| *n == g.width())?;
    Some(
        cells
            .split_whitespace()
            .map(|c| g.parse_cell(c).expect("table cell"))
            .collect(),
    )
}

/// Whether White should swap Black's first stone at `first`: true when
/// that opening wins for the first player (see the module notes for the
/// sources and the rule on boards without a solved table).
pub fn swap_first_move(g: &Geometry, first: Cell) -> bool {
    let (w, h) = (g.width(), g.height());
    if w != h {
        return h < w && g.mirror(first).is_some();
    }
    if let Some(table) = solved_table(g) {
        return table.contains(&first);
    }
    let (c, r) = g.coords(first);
    let on_white_edge = c == 0 || c == w - 1;
    let obtuse = (c == 0 && r == h - 1) || (c == w - 1 && r == 0);
    !on_white_edge || obtuse
}

/// Openings for Black that White should not swap, most promising first:
/// losing openings next to the winning region (close to balanced), then
/// nearer the centre. On boards where every cell would be swapped, empty.
pub fn first_move_avoiding_swap(g: &Geometry) -> Vec<Cell> {
    let mut out: Vec<Cell> = g.cells().filter(|&c| !swap_first_move(g, c)).collect();
    let (w, h) = (g.width() as i64, g.height() as i64);
    let key = |c: &Cell| {
        let winning_neighbours = g
            .neighbours(*c)
            .iter()
            .filter(|&&n| swap_first_move(g, n))
            .count() as i64;
        let (x, y) = g.coords(*c);
        // Doubled distance from the centre, in cells along each axis.
        let dist = (2 * x as i64 - (w - 1)).abs() + (2 * y as i64 - (h - 1)).abs();
        (-winning_neighbours, dist, c.index())
    };
    out.sort_by_key(key);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rotate(g: &Geometry, c: Cell) -> Cell {
        let (x, y) = g.coords(c);
        g.cell_at(g.width() - 1 - x, g.height() - 1 - y).unwrap()
    }

    #[test]
    fn tables_are_symmetric_under_rotation() {
        for n in 1..=19 {
            let g = Geometry::new(n, n).unwrap();
            for c in g.cells() {
                assert_eq!(
                    swap_first_move(&g, c),
                    swap_first_move(&g, rotate(&g, c)),
                    "{n}x{n} {}",
                    g.name(c)
                );
            }
        }
    }

    #[test]
    fn known_entries() {
        let g = Geometry::new(6, 6).unwrap();
        let at = |g: &Geometry, s: &str| swap_first_move(g, g.parse_cell(s).unwrap());
        // From dfpn-solve-6x6.tst.
        assert!(at(&g, "f1") && at(&g, "a6") && at(&g, "c3") && at(&g, "b2"));
        assert!(!at(&g, "a1") && !at(&g, "a2") && !at(&g, "f6") && !at(&g, "e1"));
        let g = Geometry::new(7, 7).unwrap();
        assert!(at(&g, "d4") && at(&g, "a4") && at(&g, "b5") && at(&g, "g1"));
        assert!(!at(&g, "a5") && !at(&g, "b7") && !at(&g, "c7") && !at(&g, "d2"));
        let g = Geometry::new(8, 8).unwrap();
        assert_eq!(solved_table(&g).unwrap().len(), 32);
        assert!(at(&g, "a8") && at(&g, "h1") && at(&g, "d4") && !at(&g, "a1"));
        let g = Geometry::new(11, 11).unwrap();
        assert!(at(&g, "f6") && at(&g, "a11") && at(&g, "k1") && at(&g, "b1"));
        assert!(!at(&g, "a1") && !at(&g, "a3") && !at(&g, "k11"));
        let swapped = g.cells().filter(|&c| swap_first_move(&g, c)).count();
        assert_eq!(swapped, 121 - 20);
        // The centre always wins on odd boards.
        for n in [1, 3, 5, 7, 9, 13] {
            let g = Geometry::new(n, n).unwrap();
            assert!(swap_first_move(&g, g.cell_at(n / 2, n / 2).unwrap()), "{n}");
        }
    }

    #[test]
    fn avoiding_swap_gives_unswapped_cells() {
        for n in 1..=13 {
            let g = Geometry::new(n, n).unwrap();
            let cells = first_move_avoiding_swap(&g);
            assert!(cells.iter().all(|&c| !swap_first_move(&g, c)));
            let expected = g.cells().filter(|&c| !swap_first_move(&g, c)).count();
            assert_eq!(cells.len(), expected);
        }
        let g = Geometry::new(1, 1).unwrap();
        assert!(first_move_avoiding_swap(&g).is_empty());
        let g = Geometry::new(11, 11).unwrap();
        let first = first_move_avoiding_swap(&g)[0];
        let (c, _) = g.coords(first);
        assert!(c == 0 || c == 10, "{}", g.name(first));
    }

    #[test]
    fn non_square_boards() {
        // Black (top-bottom) has the shorter way on a wide board.
        let g = Geometry::new(5, 3).unwrap();
        assert!(swap_first_move(&g, g.parse_cell("b2").unwrap()));
        let g = Geometry::new(3, 5).unwrap();
        assert!(!swap_first_move(&g, g.parse_cell("b2").unwrap()));
    }
}
