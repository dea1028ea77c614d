//! ferrohex: a Hex engine speaking HTP, the GTP dialect of the Benzene
//! engines, for HexGui, match scripts and people at a shell.

pub mod board;
pub mod engine;
pub mod eval;
pub mod game;
pub mod htp;
pub mod knowledge;
pub mod memory;
pub mod params;
pub mod portfolio;
pub mod present;
pub mod search;
pub mod sgf;
pub mod solver;
pub mod timeman;
pub mod tools;
