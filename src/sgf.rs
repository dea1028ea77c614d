//! SGF FF[4] GM[11]: reading and writing Hex game records.
