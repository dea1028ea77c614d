//! `ferrohex bench`: the fixed benchmark. Evaluations per second for each
//! evaluation, then the bench positions searched to a fixed depth with one
//! thread (its node count is the search's signature) and with all threads,
//! and the time-to-depth speed-up between them.

use std::process::ExitCode;

use crate::eval::EvalKind;
use crate::search::{BENCH_DEPTH, BENCH_SIGNATURE, BenchResult, bench, eval_speed};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Search depth for every position.
    #[arg(long, default_value_t = BENCH_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
    /// Threads for the parallel run (0: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// The search's evaluation.
    #[arg(long, default_value_t = EvalKind::default())]
    eval: EvalKind,
    /// Passes over the positions when timing the evaluations.
    #[arg(long, default_value_t = 2000)]
    eval_rounds: usize,
}

fn print_search(title: &str, r: &BenchResult) {
    println!("{title}");
    for l in &r.lines {
        println!(
            "  {:<8} depth {:>2} {:>10} nodes {:>8.3} s  {:>9.0} nodes/s  score {:>7}  best {}",
            l.name,
            l.depth,
            l.nodes,
            l.elapsed.as_secs_f64(),
            l.nodes as f64 / l.elapsed.as_secs_f64().max(1e-9),
            l.score,
            l.best
        );
    }
    println!(
        "  total    {} nodes in {:.3} s: {:.0} nodes/s",
        r.nodes,
        r.elapsed.as_secs_f64(),
        r.nodes_per_second()
    );
}

pub fn run(args: Args) -> ExitCode {
    println!("evaluations (bench positions, both sides to move):");
    for kind in EvalKind::ALL {
        let (count, plain, cells) = eval_speed(kind, args.eval_rounds.max(1));
        println!(
            "  {:<10} {:>9.3} us/eval ({:>10.0}/s)   with per-cell values {:>9.3} us",
            kind.name(),
            plain.as_secs_f64() * 1e6 / count as f64,
            count as f64 / plain.as_secs_f64().max(1e-9),
            cells.as_secs_f64() * 1e6 / count as f64,
        );
    }
    let one = bench(args.depth, 1, args.eval);
    print_search(
        &format!(
            "search, 1 thread, depth {}, eval {}:",
            args.depth, args.eval
        ),
        &one,
    );
    let threads = if args.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        args.threads
    };
    let all = bench(args.depth, threads, args.eval);
    print_search(
        &format!("search, {threads} threads, depth {}:", args.depth),
        &all,
    );
    println!(
        "time to depth {}: {:.2}x faster with {threads} threads",
        args.depth,
        one.elapsed.as_secs_f64() / all.elapsed.as_secs_f64().max(1e-9)
    );
    println!("signature (1 thread): {}", one.nodes);
    if args.depth == BENCH_DEPTH && args.eval == EvalKind::default() && one.nodes != BENCH_SIGNATURE
    {
        println!(
            "  (the recorded signature is {BENCH_SIGNATURE}: the search's behaviour has changed)"
        );
    }
    ExitCode::SUCCESS
}
