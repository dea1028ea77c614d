//! Position evaluation (issue 3).
//!
//! - [`Dist01`]: the 0-1 BFS "stones still needed" distance of seed 000.

mod dist01;

pub use dist01::{Dist01, UNREACHABLE};
