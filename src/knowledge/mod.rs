//! Hex knowledge, on the board's bitboards: virtual connections found by
//! H-search, edge templates, inferior cells, the
//! carriers decompositions capture, mustplay and decided positions, and
//! resistance over the connections. The connection search, the distance
//! search's knowledge plies, the solver and HexGui's analysis commands
//! (through `crate::present::overlay`) all ask this one core.
//!
//! Sub-modules:
//! - [`vc`]: H-search on the board's [`crate::board::Bitboard`] type
//!   (every size up to 26x26), seeded runs along a line, decompositions;
//! - [`ice`]: the fill-in of dead and captured cells, domination and
//!   vulnerable cells on the same bitboards, at every node;
//! - [`templates`]: edge templates H-search misses (IVa and the 2nd-row
//!   ladder pieces), valid on every board size and edge;
//! - [`circuit`]: resistance over a colour's connection graph (score and
//!   per-cell energy for move ordering);
//! - [`queries`]: the analysis commands' answers (connections between two
//!   endpoints, mustplay, a decomposition's carrier) on every board size;
//! - [`inferior`]: `ice`'s analysis with every inferior cell's reason
//!   (killers, dominators) and the pruned set, for HexGui's overlay and
//!   the choice among winning moves.

/// Calls `$f::<B>($args)` with `B` the bitboard type `$pos`'s board fits
/// ([`vc::Width`]).
macro_rules! on_bitboard {
    ($pos:expr, $f:ident($($arg:expr),*)) => {
        match $crate::knowledge::vc::Width::of($pos.geometry()) {
            $crate::knowledge::vc::Width::Narrow => $f::<u128>($($arg),*),
            $crate::knowledge::vc::Width::Three => $f::<$crate::board::Wide<3>>($($arg),*),
            $crate::knowledge::vc::Width::Four => $f::<$crate::board::Wide<4>>($($arg),*),
            $crate::knowledge::vc::Width::Eleven => $f::<$crate::board::Wide<11>>($($arg),*),
        }
    };
}
pub(crate) use on_bitboard;

pub mod circuit;
pub mod ice;
pub mod inferior;
pub mod queries;
pub mod templates;
pub mod vc;

use std::sync::Arc;

use crate::board::{Cell, CellSet, Color, Edge, Geometry, Position};

pub use inferior::{Inferior, analyze, fill_in};

/// One end of a connection: a cell (empty or a stone, standing for its
/// group) or one of the four edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Endpoint {
    Cell(Cell),
    Edge(Edge),
}

impl Endpoint {
    /// Parses a cell name or an edge name (`north`/`top`, `south`/`bottom`,
    /// `west`/`left`, `east`/`right`, any case).
    pub fn parse(g: &Geometry, s: &str) -> Option<Endpoint> {
        let edge = match s.to_ascii_lowercase().as_str() {
            "north" | "top" | "n" => Some(Edge::North),
            "south" | "bottom" | "s" => Some(Edge::South),
            "west" | "left" | "w" => Some(Edge::West),
            "east" | "right" | "e" => Some(Edge::East),
            _ => None,
        };
        edge.map(Endpoint::Edge)
            .or_else(|| g.parse_cell(s).map(Endpoint::Cell))
    }

    pub fn name(&self, g: &Geometry) -> String {
        match self {
            Endpoint::Cell(c) => g.name(*c),
            Endpoint::Edge(e) => edge_name(*e).to_string(),
        }
    }
}

pub fn edge_name(e: Edge) -> &'static str {
    match e {
        Edge::North => "north",
        Edge::South => "south",
        Edge::West => "west",
        Edge::East => "east",
    }
}

/// A semi connection: connected if the owner plays `key` first. The carrier
/// contains the key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Semi {
    pub key: Cell,
    pub carrier: CellSet,
}

/// Why a cell is left out of a colour's consider set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inferiority {
    /// Dead: filled with a stone of this colour.
    Dead(Color),
    /// Captured by this colour (a pattern, or a carrier a decomposition
    /// captures).
    Captured(Color),
    /// Vulnerable: the listed opponent replies kill it.
    Vulnerable(CellSet),
    /// Dominated by the listed cells.
    Dominated(CellSet),
}

/// Decompositions filled in at one position at most, by
/// [`fill_decompositions`] and at a node of the connection search: each
/// costs the position's H-search runs again.
pub const MAX_DECOMPOSITIONS: usize = 4;

/// `pos` (already filled in) with each carrier a decomposition captures
/// ([`queries::decomposition`]) filled with its owner's stones, then the
/// fill-in again (dead cells to `dead`), until none is left, the game is
/// decided or [`MAX_DECOMPOSITIONS`] are filled. `step` is told each
/// carrier: its colour, its cells and the position with it played (before
/// the fill-in it leads to).
pub fn fill_decompositions(
    pos: &Position,
    dead: Color,
    mut step: impl FnMut(Color, CellSet, &Position),
) -> Position {
    let mut board = pos.clone();
    for _ in 0..MAX_DECOMPOSITIONS {
        if board.winner().is_some() {
            break;
        }
        let found = Color::BOTH
            .into_iter()
            .find_map(|col| queries::decomposition(&board, col).map(|c| (col, c)));
        let Some((col, carrier)) = found else { break };
        for c in carrier.iter() {
            board.play(col, c);
        }
        step(col, carrier, &board);
        board = fill_in(&board, dead).0;
    }
    board
}

/// Every cell outside `color`'s consider set (mustplay ignored) with the
/// reason, in cell order: the fill-in (dead cells to the opponent), then
/// (as the search's root does) each carrier a decomposition captures and
/// the fill-in it leads to, then the pruning of the last board, which the
/// consider set comes from. A cell both vulnerable and dominated is shown
/// vulnerable.
pub fn inferior_cells(pos: &Position, color: Color) -> Vec<(Cell, Inferiority)> {
    let mut entries: Vec<(Cell, Inferiority)> = Vec::new();
    let fills = |inf: &Inferior, entries: &mut Vec<(Cell, Inferiority)>| {
        for col in Color::BOTH {
            for (set, mark) in [
                (&inf.dead[col.index()], Inferiority::Dead(col)),
                (&inf.captured[col.index()], Inferiority::Captured(col)),
            ] {
                entries.extend(set.iter().map(|c| (c, mark.clone())));
            }
        }
    };
    let mut inf = analyze(pos, color);
    fills(&inf, &mut entries);
    if pos.winner().is_none() {
        let dead = color.opponent();
        fill_decompositions(&fill_in(pos, dead).0, dead, |col, carrier, after| {
            entries.extend(carrier.iter().map(|c| (c, Inferiority::Captured(col))));
            inf = analyze(after, color);
            fills(&inf, &mut entries);
        });
    }
    let pruned = inf.pruned().difference(&inf.filled());
    for c in pruned.iter() {
        let find = |list: &[(Cell, CellSet)]| list.iter().find(|(v, _)| *v == c).map(|e| e.1);
        if let Some(k) = find(&inf.vulnerable) {
            entries.push((c, Inferiority::Vulnerable(k)));
        } else if let Some(d) = find(&inf.dominated) {
            entries.push((c, Inferiority::Dominated(d)));
        }
    }
    entries.sort_by_key(|e| e.0);
    entries
}

/// The early-middle-game 11x11 position the knowledge figures are measured
/// on: 12 stones, Black to move.
pub fn bench_position_11() -> Position {
    let g = Arc::new(Geometry::new(11, 11).expect("11x11"));
    let mut p = Position::new(g);
    let moves = [
        "f6", "e7", "g4", "d9", "c8", "h5", "i3", "g7", "e9", "h8", "j6", "c4",
    ];
    let mut color = Color::Black;
    for m in moves {
        let c = p.geometry().parse_cell(m).expect("cell");
        p.play(color, c);
        color = color.opponent();
    }
    p
}
