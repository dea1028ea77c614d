//! Criterion benches for the Hex knowledge of issue 4: H-search from
//! scratch, one incremental play + undo, and inferior cell analysis, on an
//! early-middle-game 11x11 position. Run with `cargo bench --bench knowledge`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use ferrohex::board::{Cell, Color};
use ferrohex::knowledge::{Knowledge, analyze, bench_build, bench_play_undo, bench_position_11};

fn knowledge(c: &mut Criterion) {
    let pos = bench_position_11();
    let mut group = c.benchmark_group("knowledge-11x11");
    group.sample_size(20);
    group.bench_function("hsearch-build-both-colours", |b| {
        b.iter(|| black_box(bench_build(black_box(&pos))))
    });
    let mut k = Knowledge::new(&pos);
    let moves: Vec<Cell> = pos.empty_cells().iter().collect();
    group.bench_function("incremental-play-undo-all-moves", |b| {
        b.iter(|| black_box(bench_play_undo(&mut k, Color::Black, &moves)))
    });
    group.bench_function("inferior-cells", |b| {
        b.iter(|| black_box(analyze(black_box(&pos), Color::Black)))
    });
    group.bench_function("consider-set", |b| {
        b.iter(|| black_box(k.consider_set(Color::Black)))
    });
    group.finish();
}

criterion_group!(benches, knowledge);
criterion_main!(benches);
