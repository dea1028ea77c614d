//! Criterion benches for the Hex knowledge on an early-middle-game 11x11
//! position: the inferior cell analysis the analysis commands show, a
//! root's whole analysis (fill-in, decompositions, both colours'
//! connections and circuits, consider set), and the bitboard H-search the
//! connection search and the solver run at every node: from scratch, and a
//! child's update from its parent's connections. Run with
//! `cargo bench --bench knowledge`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use ferrohex::board::{Cell, Color};
use ferrohex::knowledge::vc::{Bits, Closure, Goal, Hsearch, bit, stones};
use ferrohex::knowledge::{analyze, bench_position_11};
use ferrohex::search::SearchParams;
use ferrohex::search::connsearch::Analyst;

fn knowledge(c: &mut Criterion) {
    let pos = bench_position_11();
    let mut group = c.benchmark_group("knowledge-11x11");
    group.sample_size(20);
    group.bench_function("inferior-cells", |b| {
        b.iter(|| black_box(analyze(black_box(&pos), Color::Black)))
    });
    let mut analyst = Analyst::new(&pos, SearchParams::default().conn_caps).expect("fits");
    group.bench_function("root-verdict", |b| {
        b.iter(|| black_box(analyst.verdict(black_box(&pos), Color::Black)))
    });
    group.finish();
}

/// The bitboard H-search, both colours, as a node of the connection search
/// runs it: from scratch, and for each move of Black's the child's update
/// from the parent's connections (a seeded run, then the export of the
/// child's own connections for its children; the parent's stay as they
/// are, so nothing needs undoing). The second bench's time divided by the
/// number of moves (the 109 empty cells) is one update.
fn bitboard_hsearch(c: &mut Criterion) {
    let pos = bench_position_11();
    let bits = Bits::<u128>::new(pos.geometry()).expect("fits");
    let st: [u128; 2] = stones(&pos);
    let mut hs = Hsearch::<u128>::new();
    let mut parent = [Closure::default(), Closure::default()];
    for color in Color::BOTH {
        hs.run_seeded(&bits, st, color, Goal::Closure, None);
        assert!(hs.export(st, pos.hash(), color, &mut parent[color.index()]));
    }
    let moves: Vec<Cell> = pos.empty_cells().iter().collect();
    let mut group = c.benchmark_group("bitboard-hsearch-11x11");
    group.sample_size(20);
    group.bench_function("from-scratch-both-colours", |b| {
        b.iter(|| {
            for color in Color::BOTH {
                black_box(hs.run_seeded(&bits, black_box(st), color, Goal::Closure, None));
            }
        })
    });
    let mut child = Closure::default();
    group.bench_function("child-update-both-colours-all-moves", |b| {
        b.iter(|| {
            for &m in &moves {
                let mut s = st;
                s[Color::Black.index()] |= bit::<u128>(m.index());
                for color in Color::BOTH {
                    let seed = Some(&parent[color.index()]);
                    black_box(hs.run_seeded(&bits, s, color, Goal::Closure, seed));
                    hs.export(s, 0, color, &mut child);
                }
            }
        })
    });
    group.finish();
}

criterion_group!(benches, knowledge, bitboard_hsearch);
criterion_main!(benches);
