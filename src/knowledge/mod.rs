//! Hex knowledge: virtual connections, mustplay, inferior cells (issue 4, being written).
