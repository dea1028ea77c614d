//! Depth-first proof-number solver and swap tables (issue 5, being written).
