//! A fixed benchmark: the same positions searched to the same depth, for
//! `ferrohex bench`, the criterion benches and the signature test.
//!
//! With one thread the node count is a signature of the search's
//! behaviour: a change to ordering, pruning or evaluation changes it.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::{Decision, SearchParams, Searcher, TimeControl};
use crate::board::{Color, Geometry, Position};
use crate::eval::{CellValues, EvalKind};

/// The depth `ferrohex bench` searches to by default.
pub const BENCH_DEPTH: u32 = 4;

/// Total nodes of `bench(BENCH_DEPTH, 1, EvalKind::default())`, with the
/// default parameters (knowledge on, so every position is searched by the
/// connection search; 39780 with the knowledge off).
pub const BENCH_SIGNATURE: u64 = 4041;

/// The bench positions: name, board size, moves from the empty board
/// (Black first, alternating).
pub const BENCH_POSITIONS: [(&str, usize, &str); 6] = [
    ("9x9-a", 9, "e5 d6 d7 c7 c8 f4 e4 f3 g2"),
    ("9x9-b", 9, "c3 g7 e4 e6 f5 d5 d6 c7"),
    ("11x11-a", 11, "f6 e7 g4 d9 c8 h3 g9 f3 b10 i6 e4 c5 h8 g7"),
    ("11x11-b", 11, "c9 f6 g5 e8 d8 e9 d10 h3 i4 b6"),
    ("13x13-a", 13, "g7 f8 h5 e10 d9 i4 j3 g11 c12 k6"),
    ("13x13-b", 13, "d4 j10 g7 g6 h6 f8 e9 i5"),
];

/// A bench position and its side to move.
pub fn bench_position(size: usize, moves: &str) -> (Position, Color) {
    let geometry = Arc::new(Geometry::new(size, size).expect("bench sizes are valid"));
    let mut pos = Position::new(geometry);
    let mut color = Color::Black;
    for m in moves.split_whitespace() {
        let cell = pos.geometry().parse_cell(m).expect("bench moves are valid");
        pos.play(color, cell);
        color = color.opponent();
    }
    (pos, color)
}

/// One position's result.
#[derive(Clone, Debug)]
pub struct BenchLine {
    pub name: &'static str,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub score: i32,
    /// The chosen move's name, or `resign`.
    pub best: String,
}

#[derive(Clone, Debug)]
pub struct BenchResult {
    pub lines: Vec<BenchLine>,
    /// Total nodes: with one thread, the signature.
    pub nodes: u64,
    pub elapsed: Duration,
}

impl BenchResult {
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Searches every bench position to `depth` with `threads` threads (0 =
/// all cores) and evaluation `eval`, a fresh 16 MiB table per position and
/// no time limit.
pub fn bench(depth: u32, threads: usize, eval: EvalKind) -> BenchResult {
    let params = SearchParams {
        threads,
        tt_mb: 16,
        max_depth: Some(depth),
        eval,
        ..SearchParams::default()
    };
    let time = TimeControl {
        max_time: Duration::from_secs(24 * 3600),
        ..TimeControl::default()
    };
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new(&params);
    let mut lines = Vec::new();
    for (name, size, moves) in BENCH_POSITIONS {
        let (pos, color) = bench_position(size, moves);
        searcher.clear();
        let out = searcher.search(&pos, color, &params, &time, &stop, &mut |_| {});
        lines.push(BenchLine {
            name,
            depth: out.depth,
            nodes: out.nodes,
            elapsed: out.elapsed,
            score: out.score,
            best: match out.decision {
                Decision::Move(c) => pos.geometry().name(c),
                Decision::Resign => "resign".to_string(),
            },
        });
    }
    BenchResult {
        nodes: lines.iter().map(|l| l.nodes).sum(),
        elapsed: lines.iter().map(|l| l.elapsed).sum(),
        lines,
    }
}

/// Evaluation speed: `rounds` passes of `evaluate` (both sides to move)
/// and of `evaluate_cells` over the bench positions. Returns
/// (evaluations, time for `evaluate`, time for `evaluate_cells`).
pub fn eval_speed(eval: EvalKind, rounds: usize) -> (u64, Duration, Duration) {
    let positions: Vec<(Position, Color)> = BENCH_POSITIONS
        .iter()
        .map(|&(_, size, moves)| bench_position(size, moves))
        .collect();
    let mut e = eval.build();
    let mut values: Box<CellValues> = Box::new([0; crate::board::MAX_CELLS]);
    let mut sink = 0i64;
    let mut count = 0u64;
    let t = Instant::now();
    for _ in 0..rounds {
        for (p, c) in &positions {
            sink += e.evaluate(p, *c) as i64;
            count += 1;
        }
    }
    let plain = t.elapsed();
    let t = Instant::now();
    for _ in 0..rounds {
        for (p, c) in &positions {
            sink += e.evaluate_cells(p, *c, &mut values) as i64;
        }
    }
    let cells = t.elapsed();
    std::hint::black_box(sink);
    (count, plain, cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The node-count signature of the fixed single-thread search. A change
    /// to move ordering, pruning, tactics or the default evaluation changes
    /// it; update the number deliberately when that is intended.
    #[test]
    fn bench_signature_is_stable() {
        let r = bench(BENCH_DEPTH, 1, EvalKind::default());
        let again = bench(BENCH_DEPTH, 1, EvalKind::default());
        assert_eq!(
            r.nodes, again.nodes,
            "single-thread search is deterministic"
        );
        let moves: Vec<&str> = r.lines.iter().map(|l| l.best.as_str()).collect();
        assert_eq!(
            r.nodes, BENCH_SIGNATURE,
            "bench signature changed; moves {moves:?}"
        );
    }
}
