//! Position evaluation (owned by the search work; see issue 3).
