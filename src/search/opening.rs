//! The opening's region: the cells the root keeps to while the board is
//! nearly empty.

use super::*;

/// The cells the root keeps to in the opening: those within 2 cells of the
/// centre while at most 2 stones are on the board, within 3 with 3 stones
/// (on 11x11; in proportion to the board's shorter side elsewhere,
/// rounded); `None` later, or on boards under 10 cells a side.
///
/// On a nearly empty board the resistance sees little beyond its
/// horizon: its best moves are often next to the mover's own edge, where
/// templates connect a stone at once (after `a2`, `b10` and `c9`), which
/// strong players and opening books do not play. Wolve's opening book on
/// 11x11 answers within 2 cells of the centre in 183 of its 192 one-stone
/// positions and 203 of 228 two-stone ones, within 3 in 179 of 192
/// three-stone ones. Moves the position forces (the mustplay) are kept
/// when none of them is central. On 9x9, where Wolve has no book and the
/// search sees further, the rule cost games (8-12 twice against 10-10 on
/// the same openings), so smaller boards go without.
pub fn opening_region(pos: &Position) -> Option<CellSet> {
    let g = pos.geometry();
    let side = g.width().min(g.height());
    let stones = pos.num_stones();
    if side < 10 || stones > 3 {
        return None;
    }
    let radius = if stones <= 2 { 2 } else { 3 };
    let radius = ((radius * side + 5) / 11).max(1) as i32;
    // `centre_key` measures in doubled steps; an even side has no central
    // cell, so its distances are odd.
    let limit = 2 * radius + i32::from(g.width().is_multiple_of(2) || g.height().is_multiple_of(2));
    Some(
        pos.empty_cells()
            .iter()
            .filter(|&c| centre_key(pos, c).0 <= limit)
            .collect(),
    )
}

/// Closeness to the board's centre as a tie-break key (smaller = closer),
/// then the cell index, so ties resolve the same way every time.
pub(super) fn centre_key(pos: &Position, cell: Cell) -> (i32, usize) {
    let g = pos.geometry();
    let (c, r) = g.coords(cell);
    // Doubled coordinates so even sizes have an exact centre.
    let dc = 2 * c as i32 - (g.width() as i32 - 1);
    let dr = 2 * r as i32 - (g.height() as i32 - 1);
    let d = dc.abs().max(dr.abs()).max((dc + dr).abs());
    (d, cell.index())
}
