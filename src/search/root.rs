//! The root split both alpha-beta searches use: the first root move alone
//! with a full window, the others shared among the searchers (one per
//! thread on the rayon pool), each with a null window against the best
//! score so far (an atomic) and searched again with a full window when it
//! beats it.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::score_is_win;
use super::worker::INF;

/// One root iteration's scores.
pub(crate) struct RootScores {
    /// Per root move: exact for the best, bounds for the others, `-INF`
    /// for moves not searched.
    pub scores: Vec<i32>,
    /// The best move's index.
    pub best: usize,
    /// Whether every move was searched (none was cut off by a stop).
    pub complete: bool,
    /// How long the first move took.
    pub first_time: Duration,
}

/// Searches the `n` root moves with `child(searcher, index, alpha, beta)`;
/// `stopped(searcher)` tells when a searcher's work was cut off. `None`
/// when the first move was.
pub(crate) fn split<S: Send>(
    searchers: &mut [S],
    pool: Option<&rayon::ThreadPool>,
    n: usize,
    child: &(dyn Fn(&mut S, usize, i32, i32) -> i32 + Sync),
    stopped: &(dyn Fn(&S) -> bool + Sync),
) -> Option<RootScores> {
    let t0 = Instant::now();
    let first = child(&mut searchers[0], 0, -INF, INF);
    if stopped(&searchers[0]) {
        return None;
    }
    let first_time = t0.elapsed();
    let scores: Vec<AtomicI32> = (0..n).map(|_| AtomicI32::new(-INF)).collect();
    let done: Vec<AtomicBool> = (0..n).map(|_| AtomicBool::new(false)).collect();
    scores[0].store(first, Ordering::Relaxed);
    done[0].store(true, Ordering::Relaxed);
    let alpha = AtomicI32::new(first);
    let best = Mutex::new((first, 0usize));
    let next = AtomicUsize::new(1);
    let work = |s: &mut S| {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= n || stopped(s) {
                break;
            }
            let a = alpha.load(Ordering::Relaxed);
            if score_is_win(a) {
                // A win is found; the rest cannot beat it by much.
                break;
            }
            let mut v = child(s, i, a, a + 1);
            if v > a && !stopped(s) {
                let a2 = alpha.load(Ordering::Relaxed);
                if v > a2 {
                    v = child(s, i, a2, INF);
                }
            }
            if stopped(s) {
                break;
            }
            scores[i].store(v, Ordering::Relaxed);
            done[i].store(true, Ordering::Relaxed);
            if v > alpha.load(Ordering::Relaxed) {
                let mut b = best.lock().unwrap_or_else(|e| e.into_inner());
                if v > b.0 || (v == b.0 && i < b.1) {
                    *b = (v, i);
                }
                alpha.fetch_max(v, Ordering::Relaxed);
            }
        }
    };
    match pool {
        Some(pool) if n > 1 && searchers.len() > 1 => {
            let work = &work;
            pool.scope(|scope| {
                for s in searchers.iter_mut() {
                    scope.spawn(move |_| work(s));
                }
            });
        }
        _ => work(&mut searchers[0]),
    }
    let (_, idx) = *best.lock().unwrap_or_else(|e| e.into_inner());
    Some(RootScores {
        scores: scores.iter().map(|s| s.load(Ordering::Relaxed)).collect(),
        best: idx,
        complete: done.iter().all(|d| d.load(Ordering::Relaxed)),
        first_time,
    })
}
