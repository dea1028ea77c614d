//! The analysis commands' questions (HexGui's `vc-get-mustplay`,
//! `vc-between-cells-*`, and the decompositions `vc-build` shows) answered
//! by the bitboard H-search the search and
//! the solver use ([`crate::knowledge::vc::Hsearch`]), on the board's
//! [`Bitboard`] type, every board size (above 254 cells with shorter
//! lists: `SHOWN_LARGE`).

use super::{Endpoint, Semi};
use crate::board::{Bitboard, Cell, CellSet, Color, Position};
use crate::knowledge::vc::{Bits, Caps, Goal, Hsearch, cells, stones};

/// The lists the answers come from: longer than the search's (which
/// trades completeness for speed), as one query is cheap.
const SHOWN: Caps = Caps {
    fulls: Caps::MAX_FULLS,
    semis: 24,
};

/// The lists on boards above 254 cells, the solver's: on hundreds of
/// nodes every OR set of 24 semis a pair takes seconds (on a 26x26 middle
/// game, four queries take 1.7 s with these lists, 3.3 s with 6 fulls and
/// 12 semis a pair).
const SHOWN_LARGE: Caps = Caps::SOLVER;

/// The lists the answers on `B`'s boards come from.
fn shown<B: Bitboard>() -> Caps {
    if B::BITS > 256 { SHOWN_LARGE } else { SHOWN }
}

fn set<B: Bitboard>(b: B) -> CellSet {
    cells(b).collect()
}

/// The cells where `color` can avoid losing at once to one of the
/// opponent's edge-to-edge semi connections: the empty cells in all their
/// carriers (every empty cell when there are none); empty when the
/// opponent has an edge-to-edge full or its semis share no cell.
pub fn mustplay(pos: &Position, color: Color) -> Option<CellSet> {
    on_bitboard!(pos, mustplay_on(pos, color))
}

fn mustplay_on<B: Bitboard>(pos: &Position, color: Color) -> Option<CellSet> {
    let bits = Bits::<B>::new(pos.geometry())?;
    let st = stones::<B>(pos);
    let empty = bits.all & !st[0] & !st[1];
    let info = Hsearch::<B>::with_caps(shown::<B>()).run_seeded(
        &bits,
        st,
        color.opponent(),
        Goal::Opponent,
        None,
    );
    Some(if info.full.is_some() {
        CellSet::EMPTY
    } else {
        set(info.semi_cap & empty)
    })
}

/// `color`'s full connections (carriers) and semi connections between two
/// endpoints; an edge that is not one of `color`'s has none, nor has a
/// cell the opponent holds. Two endpoints in one group are joined by a
/// full with an empty carrier.
pub fn connections(
    pos: &Position,
    color: Color,
    a: Endpoint,
    b: Endpoint,
) -> Option<(Vec<CellSet>, Vec<Semi>)> {
    on_bitboard!(pos, connections_on(pos, color, a, b))
}

fn connections_on<B: Bitboard>(
    pos: &Position,
    color: Color,
    a: Endpoint,
    b: Endpoint,
) -> Option<(Vec<CellSet>, Vec<Semi>)> {
    let bits = Bits::<B>::new(pos.geometry())?;
    let mut hs = Hsearch::<B>::with_caps(shown::<B>());
    hs.run_seeded(&bits, stones::<B>(pos), color, Goal::Whole, None);
    let (e1, e2) = color.edges();
    let node = |e: Endpoint| match e {
        Endpoint::Cell(c) => hs.node_at(c.index()),
        Endpoint::Edge(e) if e == e1 => Some(0),
        Endpoint::Edge(e) if e == e2 => Some(1),
        Endpoint::Edge(_) => None,
    };
    Some(match (node(a), node(b)) {
        (Some(x), Some(y)) if x != y => {
            let (fulls, semis) = hs.between(x, y);
            (
                fulls.into_iter().map(set).collect(),
                semis
                    .into_iter()
                    .map(|(carrier, key)| Semi {
                        key: Cell::from_index(key),
                        carrier: set(carrier),
                    })
                    .collect(),
            )
        }
        (Some(_), Some(_)) => (vec![CellSet::EMPTY], Vec::new()),
        _ => (Vec::new(), Vec::new()),
    })
}

/// A carrier `color` captures by decomposition in `pos` (see
/// [`Hsearch::decomposition`]): the smallest full connection between two
/// of its groups in a pocket only those groups can use. `None` when there
/// is none, or when the connections already decide the game.
pub fn decomposition(pos: &Position, color: Color) -> Option<CellSet> {
    on_bitboard!(pos, decomposition_on(pos, color))
}

fn decomposition_on<B: Bitboard>(pos: &Position, color: Color) -> Option<CellSet> {
    let bits = Bits::<B>::new(pos.geometry())?;
    let st = stones::<B>(pos);
    let mut hs = Hsearch::<B>::with_caps(Caps::SOLVER);
    let info = hs.run_seeded(&bits, st, color, Goal::Closure, None);
    if info.full.is_some() {
        return None;
    }
    hs.decomposition(&bits, st, color).map(set)
}
