//! The Hex board: geometry, stones as bitboards, Zobrist hashing and the
//! union-find winner. Depends on nothing else in the crate.
//!
//! Conventions (Benzene's and HexGui's): columns are letters `a`..`z`, rows
//! numbers `1`..`26`, `a1` is the top-left cell and each row is drawn shifted
//! half a cell further right than the one above. Black moves first and joins
//! the top and bottom rows; White joins the left and right columns.

mod bitboard;
mod cellset;
mod geometry;
mod position;
mod zobrist;

pub use bitboard::{Bitboard, Ones, Wide};
pub use cellset::CellSet;
pub use geometry::{Cell, Edge, Geometry, MAX_CELLS, MAX_SIZE};
pub use position::Position;
pub use zobrist::zobrist_key;

use std::fmt;

/// A player. Black joins top and bottom, White left and right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Black,
    White,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];

    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: an index into per-colour tables.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The two edges this colour must join.
    pub fn edges(self) -> (Edge, Edge) {
        match self {
            Color::Black => (Edge::North, Edge::South),
            Color::White => (Edge::West, Edge::East),
        }
    }

    /// Parses `b`, `black`, `w`, `white` in any case.
    pub fn parse(s: &str) -> Option<Color> {
        match s.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Color::Black),
            "w" | "white" => Some(Color::White),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// The one-letter form used in diagrams and SGF (`B`, `W`).
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
