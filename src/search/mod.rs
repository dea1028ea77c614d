//! The alpha-beta search (see issue 3).
