//! Criterion benches: evaluation speed per evaluation and a fixed-depth
//! single-thread search, on the bench positions of `ferrohex::search`.
//! Run with `cargo bench --bench search`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use ferrohex::board::MAX_CELLS;
use ferrohex::eval::{Dist01, EvalKind};
use ferrohex::search::{BENCH_POSITIONS, bench, bench_position};

fn evaluations(c: &mut Criterion) {
    let (pos, color) = {
        let (_, size, moves) = BENCH_POSITIONS[2];
        bench_position(size, moves)
    };
    let mut group = c.benchmark_group("eval-11x11");
    let mut d = Dist01::new();
    group.bench_function("dist01-one-side", |b| {
        b.iter(|| black_box(d.distance(black_box(&pos), color)))
    });
    for kind in EvalKind::ALL {
        let mut e = kind.build();
        group.bench_function(format!("{kind}-evaluate"), |b| {
            b.iter(|| black_box(e.evaluate(black_box(&pos), color)))
        });
        let mut values = Box::new([0i32; MAX_CELLS]);
        group.bench_function(format!("{kind}-evaluate-cells"), |b| {
            b.iter(|| black_box(e.evaluate_cells(black_box(&pos), color, &mut values)))
        });
    }
    group.finish();
}

fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.bench_function("bench-depth-3-threads-1", |b| {
        b.iter(|| black_box(bench(3, 1, EvalKind::default()).nodes))
    });
    group.finish();
}

criterion_group!(benches, evaluations, search);
criterion_main!(benches);
