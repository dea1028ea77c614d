//! The alpha-beta searches and the simple baseline player.
//!
//! Public surface: [`Searcher`] (owned by the engine, `Send`), its
//! [`SearchParams`], [`TimeControl`], the per-depth [`SearchReport`] passed
//! to a callback, and the final [`SearchOutcome`]. The search never prints:
//! reports go through the callback and the `log` crate (one info line per
//! finished depth).
//!
//! On boards of at most 128 cells (up to 11x11), with the knowledge on
//! and at levels hard and max, the root's knowledge (below) is followed by
//! the connection search ([`connsearch`]): the Hex knowledge at every node
//! from the first move, deepening to the end of the move's time. What
//! follows is the distance search, which plays the other boards and
//! levels (`param_ferrohex connection_search 0` chooses it everywhere).
//!
//! How a move is chosen by the distance search (levels hard and max):
//! - Tactics first, from the 0-1 distance on bitboards: a move that wins at
//!   once is played; when the opponent has exactly one winning cell, it is
//!   blocked without searching.
//! - Iterative deepening negamax with alpha-beta and principal-variation
//!   search. Every node checks the same tactics (own one-move win: a win;
//!   two opponent threats: a loss; one threat: the block is the only move,
//!   searched without spending depth), then probes the lock-free
//!   transposition table (`tt.rs`), then orders the moves: table move,
//!   two killers per ply, then the evaluation's per-cell values plus a
//!   history score; below the root only the first `width` are searched.
//! - The root: the first move alone with a full window, the others on the
//!   rayon pool, each with a null window against the shared alpha (an
//!   atomic) and re-searched when it beats it. Moves are re-ordered by
//!   their scores after each depth.
//! - Time: the budget is `max_time`, cut to a share of the clock when one
//!   is given ([`time_budget`]). A depth whose predicted time (last depth's
//!   time times the larger of the last two growth ratios) does not fit is
//!   not started; the stop flag and the deadline are polled every 256
//!   nodes, and an unfinished depth is thrown away.
//! - Hex knowledge (`SearchParams::knowledge`, on by default; see
//!   `crate::knowledge`): at the root, after the 0-1 tactics, inferior
//!   cells are filled in and both colours' virtual connections built (one
//!   copy per thread). A position they decide for the mover is answered at
//!   once with the winning key (or a cell of the winning connection's
//!   carrier); a lost one is searched, without knowledge, over the cells
//!   in every carrier of the opponent's winning connections and reported
//!   as a proven loss; otherwise a consider set (mustplay minus inferior
//!   cells) of one cell is played at once and a larger one restricts the
//!   root moves. Nodes at plies below [`KNOW_PLIES`] score positions the
//!   connections decide as wins/losses and search only their consider
//!   set; the knowledge follows the search path lazily and its answers are
//!   cached by position, so it costs an incremental update (about 3 ms on
//!   11x11) only the first time a position is met.
//! - A proven win or loss ends the search. A lost position still gets the
//!   move that loses slowest (scores count plies to the end), or a
//!   resignation with `resign` on.
//!
//! Measured on the 2-core development machine (loaded by other builds, so
//! the figures are lower bounds): about 150,000 nodes/s with one thread on
//! 11x11 with the default two-distance evaluation; depth 7 with one thread
//! and depth 8 with two within a 10 s budget on an 11x11 middle game; two
//! threads reach bench depth 5 2.1 times faster than one. In self-play on
//! 9x9 (200 ms a move, 20 games, colours alternated) two-distance beat
//! 0-1 distance 16-4 and resistance 20-0 / 11-1; the search beat the
//! baseline 30-0 at 300 ms.

mod bench;
pub mod connsearch;
mod params;
mod root;
mod tt;
mod vcsearch;
mod worker;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::board::{Cell, CellSet, Color, Position};
use crate::eval::{Dist01, EvalKind};
use crate::knowledge::{self, Knowledge};
use crate::timeman::DepthClock;
pub use crate::timeman::{TimeControl, time_budget};
use tt::Tt;
use worker::{Shared, Worker};

pub use params::{Level, SearchParams};

pub use bench::{
    BENCH_DEPTH, BENCH_POSITIONS, BENCH_SIGNATURE, BenchLine, BenchResult, bench, bench_position,
    eval_speed,
};

/// Scores are from the side to move's point of view. A won position scores
/// `WIN - plies`, a lost one `-(WIN - plies)`, so shorter wins score higher.
pub const WIN: i32 = 1_000_000;
/// Scores at least this far from zero are proven wins/losses.
const WIN_BOUND: i32 = WIN - 10_000;

/// Whether `score` is a proven win for the side it belongs to.
pub fn score_is_win(score: i32) -> bool {
    score >= WIN_BOUND
}

/// Whether `score` is a proven loss for the side it belongs to.
pub fn score_is_loss(score: i32) -> bool {
    score <= -WIN_BOUND
}

/// One finished iteration of the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReport {
    pub depth: u32,
    /// From the side to move's point of view; see [`score_is_win`].
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Cell>,
}

/// What the engine should answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Move(Cell),
    Resign,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOutcome {
    pub decision: Decision,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Cell>,
    pub elapsed: Duration,
    /// The root moves the last finished depth searched, best first (the
    /// decision first): where to look when the decision is proved to lose.
    pub ranked: Vec<Cell>,
}

/// What the connection search is asked: the root, its moves (in order)
/// and the deepest iteration.
struct ConnRoot<'a> {
    pos: &'a Position,
    me: Color,
    moves: &'a [Cell],
    max_depth: u32,
}

/// The endgame and connection searches' answer: the last finished depth's
/// best move, its score and line, the root moves best first, and the
/// nodes of the whole search.
struct VcOutcome {
    best: Cell,
    score: i32,
    depth: u32,
    nodes: u64,
    pv: Vec<Cell>,
    ranked: Vec<Cell>,
}

/// The engine's search: keeps its transposition table between moves.
pub struct Searcher {
    params: SearchParams,
    tt: Tt,
    /// The connection search's table (its scores are on another scale).
    conn_tt: Tt,
    /// The connection search's searchers, one per thread, for the board
    /// of the last search.
    conn: Vec<connsearch::ConnSearch>,
    pool: Option<rayon::ThreadPool>,
    threads: usize,
    workers: Vec<Worker>,
    dist: Box<Dist01>,
    /// Mixed into the easy level's noise so games differ.
    noise_seed: u64,
    /// The early stop of the next search (see [`Searcher::halt_flag`]).
    halt: Arc<AtomicBool>,
}

/// What stops a running search: the user's interrupt, or the portfolio's
/// early stop when the solver has proved the game ([`Searcher::halt_flag`]).
/// Two flags, so that a proof never reads as an interrupt: the driver
/// clears the interrupt before each command, and the portfolio takes a
/// fresh halt flag for every move.
#[derive(Clone, Copy)]
pub struct Stop<'a> {
    interrupt: &'a AtomicBool,
    halt: &'a AtomicBool,
}

impl<'a> Stop<'a> {
    pub fn new(interrupt: &'a AtomicBool, halt: &'a AtomicBool) -> Stop<'a> {
        Stop { interrupt, halt }
    }

    /// Whether either flag is up.
    #[inline]
    pub fn load(&self, order: Ordering) -> bool {
        self.interrupt.load(order) || self.halt.load(order)
    }
}

/// The number of threads `threads` asks for (0 = all cores).
pub fn thread_count(threads: usize) -> usize {
    if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    }
}

impl Searcher {
    pub fn new(params: &SearchParams) -> Searcher {
        let mut s = Searcher {
            params: params.clone(),
            tt: Tt::new(params.tt_mb),
            conn_tt: Tt::new(CONN_TT_MB),
            conn: Vec::new(),
            pool: None,
            threads: 1,
            workers: Vec::new(),
            dist: Box::new(Dist01::new()),
            noise_seed: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0x1234_5678, |d| d.as_nanos() as u64),
            halt: Arc::new(AtomicBool::new(false)),
        };
        s.setup_threads();
        s
    }

    fn setup_threads(&mut self) {
        self.threads = thread_count(self.params.threads);
        self.pool = None;
        if self.threads > 1 {
            match rayon::ThreadPoolBuilder::new()
                .num_threads(self.threads)
                .thread_name(|i| format!("ferrohex-search-{i}"))
                .build()
            {
                Ok(p) => self.pool = Some(p),
                Err(e) => {
                    log::warn!(
                        "cannot start {} search threads ({e}); using one",
                        self.threads
                    );
                    self.threads = 1;
                }
            }
        }
        self.workers.clear();
    }

    /// [`Searcher::set_params`], with a table of a new size allocated
    /// first: when that memory cannot be had, a message, and nothing
    /// changes.
    pub fn try_set_params(&mut self, params: &SearchParams) -> Result<(), String> {
        if params.tt_mb != self.params.tt_mb {
            self.tt = Tt::try_new(params.tt_mb)?;
            self.params.tt_mb = params.tt_mb;
        }
        self.set_params(params);
        Ok(())
    }

    /// Applies new settings, resizing the table or thread pool if needed.
    pub fn set_params(&mut self, params: &SearchParams) {
        let old = std::mem::replace(&mut self.params, params.clone());
        if old.tt_mb != params.tt_mb {
            self.tt = Tt::new(params.tt_mb);
        }
        if thread_count(old.threads) != thread_count(params.threads) {
            self.setup_threads();
        }
        if old.eval != params.eval {
            self.workers.clear();
        }
    }

    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Forgets everything learnt (new game).
    /// A fresh early-stop flag for the next searches: raising it stops
    /// them as an interrupt would, without touching the interrupt flag
    /// (the portfolio raises it when the solver proves the game). A flag
    /// handed out earlier no longer reaches the search.
    pub fn halt_flag(&mut self) -> Arc<AtomicBool> {
        self.halt = Arc::new(AtomicBool::new(false));
        self.halt.clone()
    }

    pub fn clear(&mut self) {
        self.tt.clear();
        self.conn_tt.clear();
        self.workers.clear();
    }

    /// Memory held by the transposition table, in bytes.
    pub fn tt_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// Chooses a move for `to_move`.
    ///
    /// Precondition: `pos.winner()` is `None`. Never panics; returns a legal
    /// empty cell unless resigning (a proven loss with `params.resign`, or a
    /// full board, which cannot happen without a winner).
    pub fn search(
        &mut self,
        pos: &Position,
        to_move: Color,
        params: &SearchParams,
        time: &TimeControl,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchReport),
    ) -> SearchOutcome {
        self.search_excluding(pos, to_move, params, time, stop, CellSet::EMPTY, report)
    }

    /// [`Searcher::search`] without the root moves in `excluded` (moves
    /// the solver has proved to lose), unless that leaves none: the
    /// answer is then the search's best among all.
    #[allow(clippy::too_many_arguments)]
    pub fn search_excluding(
        &mut self,
        pos: &Position,
        to_move: Color,
        params: &SearchParams,
        time: &TimeControl,
        stop: &AtomicBool,
        excluded: CellSet,
        report: &mut dyn FnMut(&SearchReport),
    ) -> SearchOutcome {
        let start = Instant::now();
        if *params != self.params {
            self.set_params(params);
        }
        let empties = pos.empty_cells().len();
        if empties == 0 {
            return SearchOutcome {
                decision: Decision::Resign,
                score: -WIN,
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
                elapsed: start.elapsed(),
                ranked: Vec::new(),
            };
        }
        let budget = time_budget(time, empties, params.level);
        let halt = self.halt.clone();
        let stop = Stop::new(stop, &halt);
        match params.level {
            Level::Baseline => self.search_simple(pos, to_move, params, start, report),
            Level::Easy => self.search_easy(pos, to_move, params, start, report),
            _ => self.search_ab(pos, to_move, params, start, budget, stop, excluded, report),
        }
    }

    fn search_simple(
        &mut self,
        pos: &Position,
        to_move: Color,
        params: &SearchParams,
        start: Instant,
        report: &mut dyn FnMut(&SearchReport),
    ) -> SearchOutcome {
        let mut pos = pos.clone();
        let (cell, score) = simple_move(&mut pos, to_move, &mut self.dist)
            .expect("the caller checked for an empty cell");
        one_move_outcome(
            params,
            cell,
            score,
            pos.empty_cells().len() as u64,
            start,
            report,
        )
    }

    /// Easy: tactics, then one ply of the 0-1 evaluation with noise of up
    /// to one and a half stones, so it often plays a slightly worse move.
    fn search_easy(
        &mut self,
        pos: &Position,
        to_move: Color,
        params: &SearchParams,
        start: Instant,
        report: &mut dyn FnMut(&SearchReport),
    ) -> SearchOutcome {
        let mut w = Worker::new(pos.clone(), EvalKind::Dist01);
        let mut wins = Vec::new();
        let mut choice = None;
        w.one_move_wins(to_move, &mut wins);
        if let Some(&c) = wins.first() {
            choice = Some((c, WIN - 1));
        } else {
            w.one_move_wins(to_move.opponent(), &mut wins);
            if wins.len() == 1 {
                choice = Some((wins[0], 0));
            }
        }
        let mut nodes = 1;
        let (cell, score) = choice.unwrap_or_else(|| {
            self.noise_seed = splitmix(self.noise_seed ^ pos.hash());
            let seed = self.noise_seed;
            let mut best = (i32::MIN, None);
            for c in pos.empty_cells().iter() {
                w.pos.play(to_move, c);
                let s = -w.eval.evaluate(&w.pos, to_move.opponent());
                w.pos.unplay();
                nodes += 1;
                let noisy = s + (splitmix(seed ^ c.index() as u64) % 150) as i32;
                if noisy > best.0 {
                    best = (noisy, Some(c));
                }
            }
            let c = best.1.expect("there is an empty cell");
            (c, best.0)
        });
        one_move_outcome(params, cell, score, nodes, start, report)
    }

    #[allow(clippy::too_many_arguments)]
    #[allow(clippy::too_many_arguments)]
    fn search_ab(
        &mut self,
        pos: &Position,
        to_move: Color,
        params: &SearchParams,
        start: Instant,
        budget: Duration,
        stop: Stop,
        excluded: CellSet,
        report: &mut dyn FnMut(&SearchReport),
    ) -> SearchOutcome {
        let (width, depth_cap) = match params.level {
            Level::Medium => (params.width, 3),
            Level::Max => (params.width.saturating_mul(2), u32::MAX),
            _ => (params.width, u32::MAX),
        };
        let empties = pos.empty_cells().len() as u32;
        let max_depth = params
            .max_depth
            .unwrap_or(u32::MAX)
            .min(depth_cap)
            .min(empties)
            .max(1);
        let nthreads = self.threads.max(1);
        while self.workers.len() < nthreads {
            self.workers.push(Worker::new(pos.clone(), params.eval));
        }
        for w in self.workers.iter_mut() {
            w.pos = pos.clone();
            w.nodes = 0;
            w.know_nodes = 0;
            w.know_misses = 0;
            w.know_time = Duration::ZERO;
            w.set_knowledge(None, CellSet::EMPTY);
            w.reset_heuristics();
        }
        self.tt.new_search();
        let deadline = start + budget;
        let sh = Shared {
            tt: &self.tt,
            stop,
            abort: AtomicBool::new(false),
            deadline: Some(deadline),
            width,
            know_plies: 0,
        };
        let mut sh = sh;
        let done = |decision: Cell,
                    score: i32,
                    depth: u32,
                    nodes: u64,
                    pv: Vec<Cell>,
                    ranked: Vec<Cell>| SearchOutcome {
            decision: if params.resign && score_is_loss(score) {
                Decision::Resign
            } else {
                Decision::Move(decision)
            },
            score,
            depth,
            nodes,
            pv,
            elapsed: start.elapsed(),
            ranked,
        };

        // Tactics before any search.
        let w0 = &mut self.workers[0];
        let mut cells = Vec::new();
        w0.one_move_wins(to_move, &mut cells);
        if let Some(&c) = cells.first() {
            let out = done(c, WIN - 1, 1, 1, vec![c], vec![c]);
            report(&report_of(&out));
            return out;
        }
        w0.one_move_wins(to_move.opponent(), &mut cells);
        if cells.len() == 1 {
            let c = cells[0];
            w0.pos.play(to_move, c);
            let score = -w0.eval.evaluate(&w0.pos, to_move.opponent());
            w0.pos.unplay();
            let out = done(c, score, 1, 1, vec![c], vec![c]);
            report(&report_of(&out));
            return out;
        }

        let mut moves = w0.root_order(to_move);
        let mut root_kn = false;
        // A proven loss the knowledge found at the root: the score to
        // report whatever the search says.
        let mut known_loss = None;
        if params.knowledge {
            let t = Instant::now();
            // A won position may spend a tenth of the budget on finding
            // its simplest winning move; the connections' builds stop
            // combining at two fifths of it (on 13x13 a full closure can
            // take more than a short move's time), and their updates in
            // the search at its deadline.
            let times = RootTimes {
                simplest: t + budget / 10,
                build: t + budget * 2 / 5,
                search: deadline,
            };
            let verdict =
                Self::root_knowledge(&mut self.workers, self.pool.as_ref(), pos, to_move, times);
            log::debug!("knowledge at the root: {:.3}s", t.elapsed().as_secs_f64());
            match verdict {
                RootKnowledge::Play(c, score) => {
                    let out = done(c, score, 1, 1, vec![c], vec![c]);
                    report(&report_of(&out));
                    return out;
                }
                RootKnowledge::Lost(only, score) => {
                    if let Some(set) = only {
                        moves.retain(|&c| set.contains(c));
                    }
                    known_loss = Some(score);
                }
                RootKnowledge::Search { only, inner } => {
                    if let Some(set) = only {
                        moves.retain(|&c| set.contains(c));
                    }
                    root_kn = inner;
                    sh.know_plies = if inner { KNOW_PLIES } else { 0 };
                }
            }
        }
        if moves.is_empty() {
            moves = self.workers[0].root_order(to_move);
        }
        // Moves proved to lose leave the root (unless all would: the
        // position is lost, and a move is still wanted). When the
        // knowledge's consider set is all proved to lose, the other moves
        // lose too (they are no better), but one not yet proved to is the
        // better try against a fallible opponent.
        let any_open = |ms: &[Cell]| ms.iter().any(|c| !excluded.contains(*c));
        if !any_open(&moves) {
            let all = self.workers[0].root_order(to_move);
            if any_open(&all) {
                moves = all;
            }
        }
        if any_open(&moves) {
            moves.retain(|c| !excluded.contains(*c));
        }
        if params.opening_centre
            && matches!(params.level, Level::Hard | Level::Max)
            && let Some(region) = opening_region(pos)
            && moves.iter().any(|&c| region.contains(c))
        {
            moves.retain(|&c| region.contains(c));
        }
        if root_kn
            && params.connection_search
            && params.level != Level::Medium
            && connsearch::fits(pos)
        {
            let root = (pos, to_move);
            if let Some(o) =
                self.search_conn(root, &moves, stop, (start, budget), max_depth, report)
            {
                return done(o.best, o.score, o.depth, o.nodes, o.pv, o.ranked);
            }
            return done(moves[0], 0, 0, 1, vec![moves[0]], moves.clone());
        }
        if root_kn
            && empties as usize * 100 <= params.endgame_empty_pct * pos.geometry().num_cells()
            && params.level != Level::Medium
            && let Some(know) = self.workers[0].know.take()
        {
            let out = Self::search_vc(
                know, to_move, &moves, stop, start, budget, max_depth, pos, report,
            );
            if let Some(o) = out {
                return done(o.best, o.score, o.depth, o.nodes, o.pv, o.ranked);
            }
            return done(moves[0], 0, 0, 1, vec![moves[0]], moves.clone());
        }
        let mut best: Option<(Cell, i32, u32, Vec<Cell>)> = None;
        // Deepening goes on to the deadline: an iteration cut off there
        // still counts once its first move (the last depth's best) is
        // searched, since a move that beat it at the new depth is the
        // better one (Stockfish keeps a partial iteration's best move the
        // same way).
        for depth in 1..=max_depth {
            let Some((scores, best_idx, complete)) = Self::root_iteration(
                &mut self.workers,
                self.pool.as_ref(),
                &sh,
                depth,
                to_move,
                &moves,
                root_kn,
            ) else {
                break;
            };
            let score = scores[best_idx];
            let cell = moves[best_idx];
            if !complete && best.as_ref().is_some_and(|b| b.0 == cell) {
                // Cut off with the last depth's best still best: its new
                // score is exact, but the line and order stay as they were.
                if let Some(b) = best.as_mut() {
                    b.1 = score;
                }
                break;
            }
            moves = best_first(&scores, best_idx)
                .into_iter()
                .map(|i| moves[i])
                .collect();
            let pv = self.workers[0].pv(&self.tt, cell, to_move, depth as usize);
            let nodes: u64 = self.workers.iter().map(|w| w.nodes).sum();
            let elapsed = start.elapsed();
            let rep = SearchReport {
                depth,
                score,
                nodes,
                elapsed,
                pv: pv.clone(),
            };
            log::info!(
                "depth {depth} score {score} nodes {nodes} nps {:.0} time {:.3}s pv {}",
                nodes as f64 / elapsed.as_secs_f64().max(1e-6),
                elapsed.as_secs_f64(),
                line_names(pos, &pv)
            );
            report(&rep);
            best = Some((cell, score, depth, pv));
            if !complete || score_is_win(score) || score_is_loss(score) {
                break;
            }
        }
        let nodes: u64 = self.workers.iter().map(|w| w.nodes).sum();
        let know_nodes: u64 = self.workers.iter().map(|w| w.know_nodes).sum();
        let misses: u64 = self.workers.iter().map(|w| w.know_misses).sum();
        log::debug!("knowledge consulted at {know_nodes} of {nodes} nodes, {misses} computed");
        let best = match (best, known_loss) {
            (Some((cell, score, depth, pv)), Some(loss)) if !score_is_loss(score) => {
                Some((cell, loss, depth, pv))
            }
            (b, _) => b,
        };
        match best {
            Some((cell, score, depth, pv)) => done(cell, score, depth, nodes, pv, moves),
            // Not even depth 1 finished (stopped at once): the best-ordered
            // move.
            None => done(moves[0], 0, 0, nodes, vec![moves[0]], moves.clone()),
        }
    }

    /// The connection search ([`connsearch`]) over the root `moves`:
    /// iterative deepening to the deadline, the last depth cut off there
    /// and kept for the root moves it finished.
    fn search_conn(
        &mut self,
        (pos, me): (&Position, Color),
        moves: &[Cell],
        stop: Stop,
        (start, budget): (Instant, Duration),
        max_depth: u32,
        report: &mut dyn FnMut(&SearchReport),
    ) -> Option<VcOutcome> {
        // The searchers (their H-search tables and connection stacks, some
        // MiB each) are kept from move to move while the board stays.
        let nthreads = self.threads.max(1);
        let mut searchers = std::mem::take(&mut self.conn);
        searchers.retain(|s| s.is_for(pos));
        searchers.truncate(nthreads);
        while searchers.len() < nthreads {
            searchers.push(connsearch::ConnSearch::new(pos)?);
        }
        searchers.iter_mut().for_each(|s| s.reset());
        let root = ConnRoot {
            pos,
            me,
            moves,
            max_depth,
        };
        let out = self.search_conn_with(&mut searchers, root, stop, (start, budget), report);
        self.conn = searchers;
        out
    }

    fn search_conn_with(
        &self,
        searchers: &mut [connsearch::ConnSearch],
        root: ConnRoot,
        stop: Stop,
        (start, budget): (Instant, Duration),
        report: &mut dyn FnMut(&SearchReport),
    ) -> Option<VcOutcome> {
        let ConnRoot {
            pos,
            me,
            moves,
            max_depth,
        } = root;
        let allowed: CellSet = moves.iter().copied().collect();
        let mut order: Vec<Cell> = match searchers[0].root(pos, me) {
            Ok(consider) => consider
                .into_iter()
                .filter(|&c| allowed.contains(c))
                .collect(),
            Err(_) => Vec::new(),
        };
        if order.is_empty() {
            order = moves.to_vec();
        }
        let sh = connsearch::Shared {
            tt: &self.conn_tt,
            stop,
            deadline: start + budget,
            widths: if self.params.level == Level::Max {
                &connsearch::MAX_LEVEL_WIDTHS
            } else {
                &connsearch::DEFAULT_WIDTHS
            },
        };
        let mut best: Option<VcOutcome> = None;
        for depth in 1..=max_depth {
            let Some(it) =
                connsearch::iteration(searchers, self.pool.as_ref(), &sh, pos, me, depth, &order)
            else {
                break;
            };
            let nodes: u64 = searchers.iter().map(|s| s.nodes).sum();
            let elapsed = start.elapsed();
            let pv =
                searchers[0].principal_variation(pos, me, it.best, &self.conn_tt, depth as usize);
            log::info!(
                "connection search: depth {depth}{} score {} nodes {nodes} time {:.3}s pv {}",
                if it.complete { "" } else { " (part)" },
                it.score,
                elapsed.as_secs_f64(),
                line_names(pos, &pv),
            );
            report(&SearchReport {
                depth,
                score: it.score,
                nodes,
                elapsed,
                pv: pv.clone(),
            });
            log::debug!(
                "connection search: depth {depth} root order {}",
                line_names(pos, &it.order[..it.order.len().min(12)])
            );
            let decided = score_is_win(it.score) || score_is_loss(it.score);
            order = it.order.clone();
            best = Some(VcOutcome {
                best: it.best,
                score: it.score,
                depth,
                nodes,
                pv,
                ranked: it.order,
            });
            // Deepening goes on to the deadline: an iteration cut off there
            // still counts for the root moves it finished.
            if decided || !it.complete || start.elapsed() >= budget {
                break;
            }
        }
        if let Some(b) = best.as_mut() {
            b.nodes = searchers.iter().map(|s| s.nodes).sum();
        }
        best
    }

    /// The endgame search ([`vcsearch`]) over the root `moves`, deepening
    /// while the next depth is predicted to fit in `budget`: the best
    /// move, score, depth, nodes and line of the last finished depth.
    #[allow(clippy::too_many_arguments)]
    fn search_vc(
        know: Knowledge,
        me: Color,
        moves: &[Cell],
        stop: Stop,
        start: Instant,
        budget: Duration,
        max_depth: u32,
        pos: &Position,
        report: &mut dyn FnMut(&SearchReport),
    ) -> Option<VcOutcome> {
        let mut vs = vcsearch::VcSearch::new(know, stop, start + budget, VC_WIDTH);
        let mut order = vs.order(&moves.iter().copied().collect());
        if order.is_empty() {
            // Every root move is filled in (a position the fill-in alone
            // wins): the plain answer will do.
            return None;
        }
        let mut best = None;
        let mut clock = DepthClock::new();
        for depth in 1..=max_depth {
            let iter_start = Instant::now();
            let Some(it) = vs.iteration(me, depth, &order) else {
                break;
            };
            order = it.order.clone();
            let elapsed = start.elapsed();
            log::info!(
                "endgame search: depth {depth} score {} nodes {} time {:.3}s pv {}",
                it.score,
                vs.nodes,
                elapsed.as_secs_f64(),
                line_names(pos, &it.pv)
            );
            report(&SearchReport {
                depth,
                score: it.score,
                nodes: vs.nodes,
                elapsed,
                pv: it.pv.clone(),
            });
            let decided = score_is_win(it.score) || score_is_loss(it.score);
            best = Some(VcOutcome {
                best: it.best,
                score: it.score,
                depth,
                nodes: vs.nodes,
                pv: it.pv,
                ranked: it.order,
            });
            if decided {
                break;
            }
            if !clock.next_fits(iter_start.elapsed(), start, budget) {
                break;
            }
        }
        // The nodes of an unfinished last depth count too.
        if let Some(b) = best.as_mut() {
            b.nodes = vs.nodes;
        }
        best
    }

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
    fn root_knowledge(
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
    #[allow(clippy::too_many_arguments)]
    fn root_iteration(
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
                -w.negamax(sh, depth - 1, 1, -beta, -alpha, opp, ckn)
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

/// The deepest plies (exclusive) whose nodes use the knowledge: nodes at
/// plies `0..KNOW_PLIES` check for decided positions and search only the
/// consider set; deeper nodes use the plain search. Measured on
/// endgame.tst at 10 s a move (2 threads, loaded machine): 2 passed 16 of
/// 40 in 178 s, 3 passed 15 in 221 s (knowledge off: 13 in 143 s). With
/// the solver's bitboard oracle answering the knowledge nodes (four times
/// cheaper), 3 and 4 plies both passed 21 of 40 like 2 did, and 4 plies
/// scored 28-32 against 2 in 60 games on 9x9 at 0.5 s a move: not kept.
/// Nor was choosing the `width` moves of a first-ply knowledge node by the
/// energy of the resistance over the connections (`knowledge::resistance`,
/// Wolve's way) rather than by the evaluation's values: 30-30 in 60 games
/// on 9x9 at 0.5 s a move, and 21 of endgame.tst against 22.
pub const KNOW_PLIES: usize = 2;

/// The endgame search runs when at most this percentage of the cells are
/// empty (90 on 11x11, 60 on 9x9). On endgame.tst (11x11, 60 to 101
/// empty cells, 10 s a move) it passed 28 of 40 against 25 with the plain
/// search: tests 56, 59 and 65, at 72-87 empty cells. At 100% it passed 27
/// (test 28, at 100 empty cells, lost), and on 9x9, where that is every
/// move, it lost 2-8 to the plain search at 1 s a move: a few plies deep,
/// it is no opening player.
pub const DEFAULT_ENDGAME_EMPTY_PCT: usize = 75;

/// Moves searched per node below the root by the endgame search (Wolve's
/// ply width).
const VC_WIDTH: usize = 20;

/// The connection search's table, in MiB: it sees thousands of nodes a
/// second, so 16 MiB (a million entries) holds every node of a move.
const CONN_TT_MB: usize = 16;

/// The times the root's knowledge keeps to.
#[derive(Clone, Copy)]
struct RootTimes {
    /// The end of the search for a won position's simplest winning move.
    simplest: Instant,
    /// When the connections' builds stop combining.
    build: Instant,
    /// The search's deadline, which bounds the connections' updates in it.
    search: Instant,
}

/// The root's verdict from the knowledge.
enum RootKnowledge {
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
/// in their present order.
fn best_first(scores: &[i32], best_idx: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|&a, &b| {
        (b == best_idx)
            .cmp(&(a == best_idx))
            .then(scores[b].cmp(&scores[a]))
            .then(a.cmp(&b))
    });
    order
}

/// A line of moves as cell names, for the log.
fn line_names(pos: &Position, line: &[Cell]) -> String {
    line.iter()
        .map(|&c| pos.geometry().name(c))
        .collect::<Vec<_>>()
        .join(" ")
}

fn report_of(out: &SearchOutcome) -> SearchReport {
    SearchReport {
        depth: out.depth,
        score: out.score,
        nodes: out.nodes,
        elapsed: out.elapsed,
        pv: out.pv.clone(),
    }
}

fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The cells the root keeps to in the opening: those within 2 cells of the
/// centre while at most 2 stones are on the board, within 3 with 3 stones
/// (on 11x11; in proportion to the board's shorter side elsewhere,
/// rounded); `None` later, or on boards under 10 cells a side.
///
/// On a nearly empty board the resistance sees little beyond its
/// horizon: its best moves are often next to the mover's own edge, where
/// templates connect a stone at once (after `a2`, `b10` and `c9`), which
/// strong players and opening books do not play. Wolve's opening book on
/// 11x11 answers within 2 cells of the centre in 183 of its 192 one-stone
/// positions and 203 of 228 two-stone ones, within 3 in 179 of 192
/// three-stone ones. Moves the position forces (the mustplay) are kept
/// when none of them is central. On 9x9, where Wolve has no book and the
/// search sees further, the rule cost games (8-12 twice against 10-10 on
/// the same openings), so smaller boards go without.
pub fn opening_region(pos: &Position) -> Option<CellSet> {
    let g = pos.geometry();
    let side = g.width().min(g.height());
    let stones = pos.num_stones();
    if side < 10 || stones > 3 {
        return None;
    }
    let radius = if stones <= 2 { 2 } else { 3 };
    let radius = ((radius * side + 5) / 11).max(1) as i32;
    // `centre_key` measures in doubled steps; an even side has no central
    // cell, so its distances are odd.
    let limit = 2 * radius + i32::from(g.width().is_multiple_of(2) || g.height().is_multiple_of(2));
    Some(
        pos.empty_cells()
            .iter()
            .filter(|&c| centre_key(pos, c).0 <= limit)
            .collect(),
    )
}

/// Closeness to the board's centre as a tie-break key (smaller = closer),
/// then the cell index, so ties resolve the same way every time.
fn centre_key(pos: &Position, cell: Cell) -> (i32, usize) {
    let g = pos.geometry();
    let (c, r) = g.coords(cell);
    // Doubled coordinates so even sizes have an exact centre.
    let dc = 2 * c as i32 - (g.width() as i32 - 1);
    let dr = 2 * r as i32 - (g.height() as i32 - 1);
    let d = dc.abs().max(dr.abs()).max((dc + dr).abs());
    (d, cell.index())
}

/// The simple player: win at once if possible; else block the opponent's
/// only one-move win; else the empty cell that most lowers (own distance
/// minus opponent's), ties toward the centre. Returns `None` only on a full
/// board. The score is from `to_move`'s side (a win, a proven loss when the
/// opponent has two winning replies, else opponent distance minus own).
pub fn simple_move(pos: &mut Position, to_move: Color, dist: &mut Dist01) -> Option<(Cell, i32)> {
    let empties: Vec<Cell> = pos.empty_cells().iter().collect();
    if empties.is_empty() {
        return None;
    }
    let opp = to_move.opponent();
    let mut opp_wins = Vec::new();
    for &c in &empties {
        pos.play(to_move, c);
        let won = pos.has_won(to_move);
        pos.unplay();
        if won {
            return Some((c, WIN - 1));
        }
        pos.play(opp, c);
        if pos.has_won(opp) {
            opp_wins.push(c);
        }
        pos.unplay();
    }
    if opp_wins.len() == 1 {
        let c = opp_wins[0];
        pos.play(to_move, c);
        let s = diff(pos, to_move, dist);
        pos.unplay();
        return Some((c, s));
    }
    let mut best: Option<(i32, (i32, usize), Cell)> = None;
    for &c in &empties {
        pos.play(to_move, c);
        let s = diff(pos, to_move, dist);
        pos.unplay();
        let key = centre_key(pos, c);
        let better = match best {
            None => true,
            Some((bs, bk, _)) => s > bs || (s == bs && key < bk),
        };
        if better {
            best = Some((s, key, c));
        }
    }
    let (s, _, c) = best.expect("there is an empty cell");
    let s = if opp_wins.len() >= 2 { -(WIN - 2) } else { s };
    Some((c, s))
}

/// Opponent's 0-1 distance minus `me`'s, with cut-off sides counted as far.
fn diff(pos: &Position, me: Color, dist: &mut Dist01) -> i32 {
    let far = pos.geometry().num_cells() as i32 + 1;
    let mine = dist.distance(pos, me).map_or(far, |d| d as i32);
    let theirs = dist.distance(pos, me.opponent()).map_or(far, |d| d as i32);
    theirs - mine
}

/// The outcome of a one-ply choice (the baseline and easy players), also
/// sent as the search's only report.
fn one_move_outcome(
    params: &SearchParams,
    cell: Cell,
    score: i32,
    nodes: u64,
    start: Instant,
    report: &mut dyn FnMut(&SearchReport),
) -> SearchOutcome {
    let out = SearchOutcome {
        decision: if params.resign && score_is_loss(score) {
            Decision::Resign
        } else {
            Decision::Move(cell)
        },
        score,
        depth: 1,
        nodes,
        pv: vec![cell],
        elapsed: start.elapsed(),
        ranked: vec![cell],
    };
    report(&SearchReport {
        depth: 1,
        score,
        nodes,
        elapsed: out.elapsed,
        pv: out.pv.clone(),
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Geometry;
    use std::sync::Arc;
    use std::sync::atomic::Ordering;

    fn pos_from(size: usize, black: &[&str], white: &[&str]) -> Position {
        Position::from_names(size, size, black, white)
    }

    fn cell(p: &Position, s: &str) -> Cell {
        p.geometry().parse_cell(s).unwrap()
    }

    fn is_send<T: Send>() {}

    #[test]
    fn searcher_is_send_and_levels_parse() {
        is_send::<Searcher>();
        for l in Level::ALL {
            assert_eq!(l.to_string().parse::<Level>(), Ok(l));
        }
        assert_eq!("HARD".parse::<Level>(), Ok(Level::Hard));
        assert!("expert".parse::<Level>().is_err());
    }

    #[test]
    fn simple_player_opens_in_the_centre() {
        let mut d = Dist01::new();
        let mut p = pos_from(11, &[], &[]);
        let (c, _) = simple_move(&mut p, Color::Black, &mut d).unwrap();
        assert_eq!(p.geometry().name(c), "f6");
        let mut p = pos_from(5, &[], &[]);
        let (c, _) = simple_move(&mut p, Color::White, &mut d).unwrap();
        assert_eq!(p.geometry().name(c), "c3");
    }

    #[test]
    fn simple_player_wins_and_blocks() {
        let mut d = Dist01::new();
        // Black b1 b2 b3 on 4x4: b4 or a4 wins at once.
        let mut p = pos_from(4, &["b1", "b2", "b3"], &["a1"]);
        let (c, s) = simple_move(&mut p, Color::Black, &mut d).unwrap();
        assert!(["a4", "b4"].contains(&p.geometry().name(c).as_str()));
        assert!(score_is_win(s));
        // White to move must block: Black's only win needs... make Black's
        // single winning cell unique: Black a1 a2 a3 on 4x4 wins only at a4.
        let mut p = pos_from(4, &["a1", "a2", "a3"], &["d1"]);
        let (c, _) = simple_move(&mut p, Color::White, &mut d).unwrap();
        assert_eq!(c, cell(&p, "a4"));
    }

    /// Exhaustive minimax on a small board: does `me` (to move) win?
    /// Memoised on the position hash.
    fn solve(pos: &mut Position, me: Color) -> bool {
        fn go(
            pos: &mut Position,
            me: Color,
            memo: &mut std::collections::HashMap<u64, bool>,
        ) -> bool {
            let key = worker::tt_key(pos, me);
            if let Some(&v) = memo.get(&key) {
                return v;
            }
            let empties: Vec<Cell> = pos.empty_cells().iter().collect();
            let mut win = false;
            for c in empties {
                pos.play(me, c);
                win = pos.has_won(me) || !go(pos, me.opponent(), memo);
                pos.unplay();
                if win {
                    break;
                }
            }
            memo.insert(key, win);
            win
        }
        go(pos, me, &mut std::collections::HashMap::new())
    }

    fn params1(depth: u32) -> SearchParams {
        SearchParams {
            threads: 1,
            tt_mb: 1,
            max_depth: Some(depth),
            ..SearchParams::default()
        }
    }

    fn run(p: &Position, me: Color, params: &SearchParams) -> SearchOutcome {
        let mut s = Searcher::new(params);
        let stop = AtomicBool::new(false);
        s.search(p, me, params, &TimeControl::default(), &stop, &mut |_| {})
    }

    fn moved(out: &SearchOutcome) -> Cell {
        match out.decision {
            Decision::Move(c) => c,
            Decision::Resign => panic!("resigned"),
        }
    }

    #[test]
    fn search_wins_at_once_and_blocks() {
        for eval in EvalKind::ALL {
            let params = SearchParams { eval, ..params1(4) };
            let p = pos_from(5, &["c1", "c2", "c3", "c4"], &["a1", "b3", "e2"]);
            let out = run(&p, Color::Black, &params);
            assert!(["b5", "c5"].contains(&p.geometry().name(moved(&out)).as_str()));
            assert!(score_is_win(out.score));
            // White to move must take b5 or c5... both win for Black, so
            // White is lost: it still plays a legal move.
            let out = run(&p, Color::White, &params);
            assert!(p.is_empty(moved(&out)));
            assert!(score_is_loss(out.score));
            // Black's only winning cell is a5: White blocks it.
            let p = pos_from(5, &["a1", "a2", "a3", "a4"], &["e1", "c3"]);
            let out = run(&p, Color::White, &params);
            assert_eq!(moved(&out), cell(&p, "a5"));
        }
    }

    #[test]
    fn search_finds_a_two_threat_win() {
        // 4x4: Black b1 and a3 are bridged; a4 joins a3 to the bottom and
        // leaves two ways (a2, b2) to finish.
        let p = pos_from(4, &["b1", "a3"], &["c2", "d2"]);
        assert!(solve(&mut p.clone(), Color::Black));
        for eval in EvalKind::ALL {
            let out = run(&p, Color::Black, &SearchParams { eval, ..params1(5) });
            assert!(score_is_win(out.score), "{eval}: {out:?}");
            let c = moved(&out);
            let mut q = p.clone();
            q.play(Color::Black, c);
            assert!(
                !solve(&mut q, Color::White),
                "{eval}: {} does not win",
                p.geometry().name(c)
            );
        }
    }

    #[test]
    fn search_plays_winning_moves_on_small_boards() {
        // Solved 3x3 and 4x4 positions: whenever the side to move wins, a
        // deep enough search plays a winning move.
        let cases: [(usize, &[&str], &[&str], Color); 4] = [
            (3, &[], &[], Color::Black),
            (3, &["a1"], &[], Color::White),
            (4, &["b2"], &["c3"], Color::Black),
            (4, &["c2"], &["b3", "a4"], Color::White),
        ];
        for (n, b, w, me) in cases {
            let p = pos_from(n, b, w);
            let out = run(&p, me, &params1(16));
            let c = moved(&out);
            let mut q = p.clone();
            let winning = solve(&mut q, me);
            q.play(me, c);
            let wins_now = q.has_won(me) || !solve(&mut q, me.opponent());
            assert_eq!(
                winning,
                wins_now,
                "{n}x{n} {b:?} {w:?} played {}",
                p.geometry().name(c)
            );
        }
    }

    #[test]
    fn lost_positions_get_a_move_or_a_resignation() {
        // Black threatens b5 and c5; White cannot stop both.
        let p = pos_from(5, &["c1", "c2", "c3", "c4"], &["a1", "b3", "e2"]);
        let out = run(&p, Color::White, &params1(3));
        assert!(p.is_empty(moved(&out)));
        let params = SearchParams {
            resign: true,
            ..params1(3)
        };
        let out = run(&p, Color::White, &params);
        assert_eq!(out.decision, Decision::Resign);
    }

    #[test]
    fn stop_flag_is_obeyed() {
        let p = pos_from(11, &["f6"], &["e7"]);
        let params = SearchParams {
            threads: 2,
            tt_mb: 1,
            ..SearchParams::default()
        };
        let mut s = Searcher::new(&params);
        let stop = AtomicBool::new(true);
        let time = TimeControl {
            max_time: Duration::from_secs(3600),
            ..TimeControl::default()
        };
        let t = Instant::now();
        let out = s.search(&p, Color::Black, &params, &time, &stop, &mut |_| {});
        assert!(p.is_empty(moved(&out)));
        // Stopped before any real work: at most the first iteration's
        // first few hundred nodes.
        assert!(out.nodes < 1000, "{} nodes", out.nodes);
        assert!(t.elapsed() < Duration::from_secs(60));
        // Stopped from another thread mid-search.
        let stop = AtomicBool::new(false);
        let out = std::thread::scope(|sc| {
            sc.spawn(|| {
                std::thread::sleep(Duration::from_millis(100));
                stop.store(true, Ordering::Relaxed);
            });
            s.search(&p, Color::Black, &params, &time, &stop, &mut |_| {})
        });
        assert!(p.is_empty(moved(&out)));
        assert!(t.elapsed() < Duration::from_secs(60));
    }

    /// Every level returns a legal move on boards of many shapes,
    /// including 1xN and non-square ones, in random positions without a
    /// winner.
    #[test]
    fn legal_moves_on_odd_shapes_and_every_level() {
        let mut seed = 0xfeed_beef_1234_5678u64;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut s = Searcher::new(&params1(2));
        let stop = AtomicBool::new(false);
        let mut tried = 0;
        while tried < 60 {
            let w = 1 + (rnd() % 9) as usize;
            let h = 1 + (rnd() % 9) as usize;
            let mut p = Position::new(Arc::new(Geometry::new(w, h).unwrap()));
            for c in p.geometry().cells().collect::<Vec<_>>() {
                match rnd() % 6 {
                    0 => p.play(Color::Black, c),
                    1 => p.play(Color::White, c),
                    _ => {}
                }
            }
            if p.winner().is_some() || p.empty_cells().is_empty() {
                continue;
            }
            tried += 1;
            let me = if rnd() % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let level = Level::ALL[tried % Level::ALL.len()];
            let params = SearchParams {
                level,
                eval: EvalKind::ALL[tried % 3],
                ..params1(2)
            };
            let out = s.search(&p, me, &params, &TimeControl::default(), &stop, &mut |_| {});
            assert!(p.is_empty(moved(&out)), "{w}x{h} {level}");
        }
    }

    #[test]
    fn fixed_depth_single_thread_is_deterministic() {
        // With the knowledge, Black's d4-c5 is already joined to both
        // edges (templates), so the answer comes at once.
        let p = pos_from(7, &["d4", "c5"], &["e3", "b4"]);
        for knowledge in [false, true] {
            let params = SearchParams {
                knowledge,
                ..params1(3)
            };
            let a = run(&p, Color::Black, &params);
            let b = run(&p, Color::Black, &params);
            assert_eq!(a.decision, b.decision);
            assert_eq!(a.nodes, b.nodes);
            assert_eq!(a.pv, b.pv);
            if knowledge {
                assert!(score_is_win(a.score), "{a:?}");
            } else {
                assert_eq!(a.depth, 3);
            }
        }
    }

    #[test]
    fn excluded_root_moves_are_never_the_answer() {
        let p = pos_from(5, &["c3"], &["b3"]);
        let params = params1(4);
        let stop = AtomicBool::new(false);
        let search = |excluded: CellSet| {
            let time = TimeControl::default();
            let mut s = Searcher::new(&params);
            s.search_excluding(
                &p,
                Color::White,
                &params,
                &time,
                &stop,
                excluded,
                &mut |_| {},
            )
        };
        // Excluding the answer, then each next answer in turn, as the
        // solver refutes one choice after another: never an excluded move,
        // always the full depth.
        let mut excluded = CellSet::EMPTY;
        for _ in 0..4 {
            let out = search(excluded);
            let m = moved(&out);
            assert!(!excluded.contains(m), "{out:?} excluding {excluded:?}");
            // The full depth, unless the connections decided the game
            // sooner.
            let decided = score_is_win(out.score) || score_is_loss(out.score);
            assert!(out.depth == 4 || decided, "{out:?}");
            excluded.insert(m);
        }
        // Every move excluded: the position is lost, and a move still comes.
        let out = search(p.empty_cells());
        assert!(p.is_empty(moved(&out)));
    }

    #[test]
    fn the_opening_keeps_to_the_centre() {
        let names = |p: &Position, set: CellSet| -> Vec<String> {
            set.iter().map(|c| p.geometry().name(c)).collect()
        };
        let p = pos_from(11, &["a2"], &[]);
        let region = opening_region(&p).unwrap();
        // Within two cells of f6: 1 + 6 + 12.
        assert_eq!(region.len(), 19, "{:?}", names(&p, region));
        for c in ["f6", "d8", "h4", "e6", "g4", "d7"] {
            assert!(region.contains(cell(&p, c)), "{c}");
        }
        for c in ["d4", "h8", "b10", "c9", "f3"] {
            assert!(!region.contains(cell(&p, c)), "{c}");
        }
        // Three stones: within three, less the stones on it.
        let p = pos_from(11, &["a2", "e7"], &["f6"]);
        assert_eq!(opening_region(&p).unwrap().len(), 37 - 2);
        assert!(opening_region(&pos_from(11, &["a2", "e7"], &["f6", "g5"])).is_none());
        // Other sizes in proportion; none on small boards.
        assert_eq!(
            opening_region(&pos_from(13, &["a1"], &[])).unwrap().len(),
            19
        );
        assert_eq!(opening_region(&pos_from(10, &[], &[])).unwrap().len(), 24);
        assert!(opening_region(&pos_from(9, &["a1"], &[])).is_none());

        // The search answers an edge opening near the centre, and only
        // when asked to.
        let p = pos_from(11, &["a2"], &[]);
        let region = opening_region(&p).unwrap();
        let params = SearchParams {
            threads: 1,
            max_depth: Some(2),
            ..SearchParams::default()
        };
        let mut s = Searcher::new(&params);
        let stop = AtomicBool::new(false);
        let time = TimeControl {
            max_time: Duration::from_secs(30),
            time_left: None,
            stones_left: None,
        };
        let out = s.search(&p, Color::White, &params, &time, &stop, &mut |_| {});
        let Decision::Move(m) = out.decision else {
            panic!("{:?}", out.decision)
        };
        assert!(region.contains(m), "{}", p.geometry().name(m));
        assert!(out.ranked.iter().all(|&c| region.contains(c)));
        let free = SearchParams {
            opening_centre: false,
            ..params
        };
        let out = s.search(&p, Color::White, &free, &time, &stop, &mut |_| {});
        assert!(out.ranked.iter().any(|&c| !region.contains(c)));
    }

    #[test]
    fn search_returns_a_legal_move() {
        let p = pos_from(7, &["d4"], &["c5"]);
        let mut s = Searcher::new(&SearchParams::default());
        let stop = AtomicBool::new(false);
        let mut reports = 0;
        let time = TimeControl {
            max_time: Duration::from_millis(300),
            ..TimeControl::default()
        };
        let out = s.search(
            &p,
            Color::Black,
            &SearchParams::default(),
            &time,
            &stop,
            &mut |_| reports += 1,
        );
        match out.decision {
            Decision::Move(c) => assert!(p.is_empty(c)),
            Decision::Resign => panic!("resigned"),
        }
        assert!(reports >= 1);
    }
}
