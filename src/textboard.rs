//! Reading positions from text diagrams (being written; see issue 6).
