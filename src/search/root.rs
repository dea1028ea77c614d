//! The root split both alpha-beta searches use: the first root move alone
//! with a full window, the others shared among the searchers (one per
//! thread on the rayon pool), each with a null window against the best
//! score so far (an atomic) and searched again with a full window when it
//! beats it.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::connsearch::{Analyst, Verdict};
use super::worker::INF;
use super::*;
use super::{score_is_loss, score_is_win};
use crate::knowledge::vc::Caps;

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
    /// How long the whole iteration took.
    pub time: Duration,
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
    let first = |s: &mut [S]| child(&mut s[0], 0, -INF, INF);
    split_with_first(searchers, pool, n, &first, child, stopped)
}

/// [`split`], with the first move's full-window score from `first`, which
/// may use every searcher (`searchers[0]` tells whether it was cut off).
pub(crate) fn split_with_first<S: Send>(
    searchers: &mut [S],
    pool: Option<&rayon::ThreadPool>,
    n: usize,
    first: &dyn Fn(&mut [S]) -> i32,
    child: &(dyn Fn(&mut S, usize, i32, i32) -> i32 + Sync),
    stopped: &(dyn Fn(&S) -> bool + Sync),
) -> Option<RootScores> {
    let t0 = Instant::now();
    let first = first(searchers);
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
        time: t0.elapsed(),
    })
}

impl RootScores {
    /// The debug log's line for the iteration at `depth`: where its best
    /// move was, the first move's time and the others'.
    pub(crate) fn log(&self, depth: u32, complete: bool) {
        log::debug!(
            "depth {depth}{}: best at {}, first move {:.3}s, the other {} {:.3}s",
            if complete { "" } else { " (cut off)" },
            self.best,
            self.first_time.as_secs_f64(),
            self.scores.len().saturating_sub(1),
            (self.time - self.first_time).as_secs_f64()
        );
    }
}

/// The times the root's knowledge keeps to.
#[derive(Clone, Copy)]
pub(super) struct RootTimes {
    /// The end of the search for a won position's simplest winning move.
    pub simplest: Instant,
    /// When the connections' builds stop combining.
    pub build: Instant,
    /// The search's deadline, which bounds the connections' updates in it.
    pub search: Instant,
}

/// The root's verdict from the knowledge.
pub(super) enum RootKnowledge {
    /// Play this move at once, with this score.
    Play(Cell, i32),
    /// Search the root moves in `only` (all when `None`), with knowledge
    /// below the root when `inner`.
    Search { only: Option<CellSet>, inner: bool },
    /// A proven loss, with this score: search the root moves in `only`
    /// (all when `None`) without knowledge below the root.
    Lost(Option<CellSet>, i32),
}

/// The root moves' indices for the next depth: the best first, then by
/// score, ties (and moves that failed low, whose scores are only bounds)
/// in their present order. Moves an iteration cut off never reached
/// (`-INF`) come before the moves it proved lost: they may yet hold.
pub(super) fn best_first(scores: &[i32], best_idx: usize) -> Vec<usize> {
    let rank = |s: i32| match s {
        s if s == -INF => (1, 0),
        s if score_is_loss(s) => (0, s),
        s => (2, s),
    };
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|&a, &b| {
        (b == best_idx)
            .cmp(&(a == best_idx))
            .then(rank(scores[b]).cmp(&rank(scores[a])))
            .then(a.cmp(&b))
    });
    order
}

impl Searcher {
    /// What the knowledge says at the root, for `me` to move in `pos`.
    /// Has every worker's analyst analyse the root as a side effect.
    ///
    /// - Decided for `me`: play the winning key (or a cell keeping the
    ///   winning connection) at once.
    /// - Decided against `me`: search, without knowledge below the root,
    ///   only the cells of the carrier of the opponent's winning full
    ///   connection (where it can still be made to answer), so the move
    ///   resists as long as the search can tell.
    /// - Otherwise: a consider set of one cell is played at once; a larger
    ///   one that leaves out some empty cells restricts the root moves.
    pub(super) fn root_knowledge(
        workers: &mut [Worker],
        pool: Option<&rayon::ThreadPool>,
        pos: &Position,
        me: Color,
        times: RootTimes,
        caps: Caps,
    ) -> RootKnowledge {
        // Each worker's analyst analyses the root (its fill-in, the
        // decompositions' captures, both colours' connections), which its
        // nodes' analyses start from; worker 0's verdict is the root's.
        let prepare = |w: &mut Worker| -> Option<Verdict> {
            if !w.know.as_ref().is_some_and(|k| k.is_for(pos, caps)) {
                w.know = Analyst::new(pos, caps);
            }
            let k = w.know.as_mut()?;
            k.set_deadline(Some(times.build));
            let v = k.verdict(pos, me);
            k.set_deadline(Some(times.search));
            w.knows = true;
            Some(v)
        };
        let mut verdicts: Vec<Option<Verdict>> = vec![None; workers.len()];
        match pool {
            Some(pool) if workers.len() > 1 => pool.scope(|scope| {
                for (w, v) in workers.iter_mut().zip(verdicts.iter_mut()) {
                    scope.spawn(move |_| *v = prepare(w));
                }
            }),
            _ => verdicts[0] = prepare(&mut workers[0]),
        }
        // Connections that could not be built in two fifths of the move's
        // time cannot be kept up at every node in the rest of it either:
        // then the distance search runs over the consider set without them
        // below the root.
        let too_slow = Instant::now() >= times.build;
        if too_slow {
            workers.iter_mut().for_each(|w| w.knows = false);
        }
        let w0 = &mut workers[0];
        let opp = me.opponent();
        let d_me = w0.distance(me).max(1) as i32;
        let d_opp = w0.distance(opp).max(1) as i32;
        let empty = pos.empty_cells();
        let Some(verdict) = verdicts.swap_remove(0) else {
            return RootKnowledge::Search {
                only: None,
                inner: false,
            };
        };
        match verdict {
            Verdict::Won(key) => {
                // The simplest win, within the time set aside for it.
                let simplest = match w0.know.as_mut() {
                    Some(k) if Instant::now() < times.simplest => {
                        k.set_deadline(Some(times.simplest));
                        let c = k.simplest_win(pos, me, times.simplest);
                        k.set_deadline(Some(times.search));
                        c
                    }
                    _ => None,
                };
                if let Some(c) = simplest.or(key).filter(|&c| pos.is_empty(c)) {
                    return RootKnowledge::Play(c, WIN - (2 * d_me - 1).max(1));
                }
                // Won by the filled-in stones alone: any move keeps the
                // win; let the search pick one.
                RootKnowledge::Search {
                    only: None,
                    inner: !too_slow,
                }
            }
            Verdict::Lost(only) => RootKnowledge::Lost(only, -(WIN - 2 * d_opp)),
            Verdict::Open(moves) => {
                let mut set: CellSet = moves.into_iter().filter(|&c| empty.contains(c)).collect();
                // The inferior-cell analysis with fill-in domination prunes
                // what the connections' consider set keeps: cells the
                // fill-in after another move fills, and cells a neighbour's
                // reply kills (each only while a cell at least as good
                // stays: the two analyses break cycles of equal cells
                // differently). A few milliseconds on the boards the
                // connection search plays from the first move, where a
                // shorter root list is a deeper search; a tenth of a second
                // on 26x26, so not above them.
                if connsearch::from_first_move(pos) && Instant::now() < times.build {
                    set = crate::knowledge::inferior::analyze(pos, me).prune_from(&set);
                }
                if set.len() == 1 {
                    let c = set.iter().next().expect("one cell");
                    w0.pos.play(me, c);
                    let score = -w0.eval.evaluate(&w0.pos, opp);
                    w0.pos.unplay();
                    return RootKnowledge::Play(c, score);
                }
                RootKnowledge::Search {
                    only: (!set.is_empty() && set.len() < empty.len()).then_some(set),
                    inner: !too_slow,
                }
            }
        }
    }

    /// One iteration at the root: the first move alone with a full window,
    /// the rest in parallel with a null window against the shared alpha,
    /// re-searched when they beat it. Returns each move's score (exact for
    /// the best, bounds for the others) and the best index, or `None` when
    /// aborted.
    pub(super) fn root_iteration(
        workers: &mut [Worker],
        pool: Option<&rayon::ThreadPool>,
        sh: &Shared,
        depth: u32,
        me: Color,
        moves: &[Cell],
        kn: bool,
    ) -> Option<(Vec<i32>, usize, bool)> {
        let opp = me.opponent();
        let child = |w: &mut Worker, c: Cell, alpha: i32, beta: i32| -> i32 {
            let ckn = w.child_knows(sh, kn, 0);
            w.make(me, c);
            let s = if w.pos.has_won(me) {
                WIN - 1
            } else {
                -w.negamax(sh, depth - 1, 1, (-beta, -alpha), opp, ckn)
            };
            w.unmake();
            s
        };
        let r = root::split(
            workers,
            pool,
            moves.len(),
            &|w: &mut Worker, i, alpha, beta| child(w, moves[i], alpha, beta),
            &|_: &Worker| sh.aborted(),
        )?;
        let complete = r.complete && !sh.aborted();
        r.log(depth, complete);
        Some((r.scores, r.best, complete))
    }
}
