//! The root split both alpha-beta searches use: the first root move alone
//! with a full window, the others shared among the searchers (one per
//! thread on the rayon pool), each with a null window against the best
//! score so far (an atomic) and searched again with a full window when it
//! beats it.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::worker::INF;
use super::*;
use super::{score_is_loss, score_is_win};

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
    /// Builds every worker's knowledge (on the position with inferior
    /// cells filled in) as a side effect.
    ///
    /// - Decided for `me`: play the winning key (or a cell keeping the
    ///   winning connection) at once.
    /// - Decided against `me`: search, without knowledge below the root,
    ///   only the cells in every carrier of the opponent's winning
    ///   connections (where it can still be made to answer), so the move
    ///   resists as long as the search can tell.
    /// - Otherwise: a consider set of one cell is played at once; a larger
    ///   one that leaves out some empty cells restricts the root moves.
    pub(super) fn root_knowledge(
        workers: &mut [Worker],
        pool: Option<&rayon::ThreadPool>,
        pos: &Position,
        me: Color,
        times: RootTimes,
    ) -> RootKnowledge {
        let until = times.simplest;
        // Connections are built on the board with its dead and captured
        // cells filled in (checked to keep the winner against brute force
        // in tests/solver.rs), which finds more of them.
        let (filled, fills) = knowledge::fill_in(pos);
        // Then the carriers decompositions capture (and what they fill in
        // turn), which need the connections (checked against brute force
        // in tests/decompose.rs).
        let mut k = Knowledge::new_until(&filled, times.build);
        let (_, more) = knowledge::decompose::fill_until(&mut k, times.build);
        let filled = k.position().clone();
        drop(k);
        let fills = fills[0].union(&fills[1]).union(&more[0]).union(&more[1]);
        let build = |w: &mut Worker| {
            let mut k = Knowledge::new_until(&filled, times.build);
            k.set_deadline(Some(times.search));
            w.set_knowledge(Some(k), fills)
        };
        match pool {
            Some(pool) if workers.len() > 1 => pool.scope(|scope| {
                for w in workers.iter_mut() {
                    scope.spawn(move |_| build(w));
                }
            }),
            _ => workers.iter_mut().for_each(build),
        }
        // Connections that could not be built in two fifths of the move's
        // time cannot be kept up at every node in the rest of it either:
        // then the distance search runs over the consider set (on 13x13 at
        // 0.2 s a move, the endgame search did not finish one depth and
        // answered up to 0.3 s late).
        let too_slow = Instant::now() >= times.build;
        let w0 = &mut workers[0];
        let opp = me.opponent();
        let d_me = w0.distance(me).max(1) as i32;
        let d_opp = w0.distance(opp).max(1) as i32;
        let k = w0.know.as_ref().expect("just built");
        let empty = pos.empty_cells();
        match k.decided(me) {
            Some(winner) if winner == me => {
                // The simplest win is measured on the real board: on the
                // filled one, captured cells already count as stones.
                let key = k.winning_key(me);
                let k = w0.know.as_mut().expect("just built");
                // Another build of the connections: only within the time
                // set aside for it (on big boards one build can take it all).
                let simplest = if Instant::now() < until {
                    Knowledge::new_until(pos, until)
                        .simplest_win(me, until)
                        .or_else(|| k.simplest_win(me, until))
                } else {
                    None
                };
                if let Some(c) = simplest.or(key).filter(|&c| pos.is_empty(c)) {
                    return RootKnowledge::Play(c, WIN - (2 * d_me - 1).max(1));
                }
                // Won by the filled-in stones alone: any move keeps the
                // win; let the search pick one.
                RootKnowledge::Search {
                    only: None,
                    inner: true,
                }
            }
            Some(_) => {
                let vc = k.vcs(opp);
                let carriers = vc
                    .edge_fulls()
                    .iter()
                    .copied()
                    .chain(vc.edge_semis().iter().map(|s| s.carrier));
                let mut common = empty;
                for c in carriers {
                    common = common.intersection(&c);
                }
                let only = if common.is_empty() {
                    vc.edge_fulls()
                        .iter()
                        .min_by_key(|c| c.len())
                        .map(|c| c.intersection(&empty))
                        .filter(|c| !c.is_empty())
                } else {
                    Some(common)
                };
                RootKnowledge::Lost(only, -(WIN - 2 * d_opp))
            }
            None => {
                let set = k.consider_set(me).intersection(&empty);
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
            let ckn = w.child_knows(sh, kn, 0, c);
            w.make(me, c, ckn);
            let s = if w.pos.has_won(me) {
                WIN - 1
            } else {
                -w.negamax(sh, depth - 1, 1, (-beta, -alpha), opp, ckn)
            };
            w.unmake(ckn);
            s
        };
        let t0 = Instant::now();
        let r = root::split(
            workers,
            pool,
            moves.len(),
            &|w: &mut Worker, i, alpha, beta| child(w, moves[i], alpha, beta),
            &|_: &Worker| sh.aborted(),
        )?;
        let complete = r.complete && !sh.aborted();
        log::debug!(
            "depth {depth}{}: first move {:.3}s, the other {} {:.3}s",
            if complete { "" } else { " (cut off)" },
            r.first_time.as_secs_f64(),
            moves.len() - 1,
            (t0.elapsed() - r.first_time).as_secs_f64()
        );
        Some((r.scores, r.best, complete))
    }
}
