//! The alpha-beta searches and the simple baseline player.
//!
//! Public surface: [`Searcher`] (owned by the engine, `Send`), its
//! [`SearchParams`], [`TimeControl`], the per-depth [`SearchReport`] passed
//! to a callback, and the final [`SearchOutcome`]. The search never prints:
//! reports go through the callback and the `log` crate (one info line per
//! finished depth).
//!
//! On boards of at most 254 cells (up to 15x15), with the knowledge on
//! and at levels hard and max, the root's knowledge (below) is followed by
//! the connection search ([`connsearch`]): the Hex knowledge at every node
//! from the first move, deepening to the end of the move's time. On bigger
//! boards (and with `param_ferrohex connection_search 0`) the distance
//! search described below plays until the endgame
//! ([`DEFAULT_ENDGAME_EMPTY_PCT`]), the connection search after; level
//! medium is the distance search throughout.
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
//! - Hex knowledge (`SearchParams::knowledge`, on by default): at the
//!   root, after the 0-1 tactics, each thread's [`connsearch::Analyst`]
//!   fills in the inferior cells and the carriers decompositions capture
//!   and builds both colours' virtual connections on bitboards. A position
//!   they decide for the mover is answered at once with its simplest
//!   winning move; a lost one is searched, without knowledge, over the
//!   cells of the opponent's winning connection and reported as a proven
//!   loss; otherwise a consider set (mustplay minus inferior cells) of one
//!   cell is played at once and a larger one restricts the root moves.
//!   Nodes at plies below [`KNOW_PLIES`] score positions the connections
//!   decide as wins/losses and search only their consider set; their
//!   H-search runs start from the root's connections, and the answers are
//!   cached by position.
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
mod deepen;
mod opening;
mod params;
mod root;
mod simple;
#[cfg(test)]
mod tests;
mod tt;
mod worker;

pub use opening::opening_region;
use root::{RootKnowledge, RootTimes, best_first};
pub use simple::simple_move;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::board::{Cell, CellSet, Color, Position};
use crate::eval::{Dist01, EvalKind};
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

/// The score of a win (or loss) proved without its length, as the
/// solvers prove them: the shortest win's bound, so it reads as proven.
pub fn proved_score(won: bool) -> i32 {
    if won { WIN_BOUND } else { -WIN_BOUND }
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

/// What a search is asked: the position, the side to move and the root
/// moves it must not answer.
#[derive(Clone, Copy)]
pub struct Request<'a> {
    pub pos: &'a Position,
    pub to_move: Color,
    pub excluded: CellSet,
    /// The caller has a use for the time the search leaves (genmove's
    /// verifier): the connection search stops after its last depth
    /// predicted to fit in the budget, where otherwise it starts the next
    /// one and is cut off at the deadline, keeping the root moves it
    /// finished.
    pub leave_rest: bool,
}

/// What the connection search is asked: the root, its moves (in order)
/// and the deepest iteration.
struct ConnRoot<'a> {
    pos: &'a Position,
    me: Color,
    moves: &'a [Cell],
    /// Moves the answer must not be (see [`Request::excluded`]).
    excluded: CellSet,
    max_depth: u32,
    /// See [`Request::leave_rest`].
    leave_rest: bool,
}

/// The connection search's answer: the last finished depth's
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
    conn: connsearch::Searchers,
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
            conn: connsearch::Searchers::default(),
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
        let request = Request {
            pos,
            to_move,
            excluded: CellSet::EMPTY,
            leave_rest: false,
        };
        self.search_excluding(request, params, time, stop, report)
    }

    /// [`Searcher::search`] of `request.pos` without the root moves in
    /// `request.excluded` (moves the solver has proved to lose), unless
    /// that leaves none: the answer is then the search's best among all.
    pub fn search_excluding(
        &mut self,
        request: Request,
        params: &SearchParams,
        time: &TimeControl,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchReport),
    ) -> SearchOutcome {
        let (pos, to_move) = (request.pos, request.to_move);
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
            _ => self.search_ab(request, params, stop, (start, budget), report),
        }
    }
}

/// The deepest plies (exclusive) whose nodes use the knowledge: nodes at
/// plies `0..KNOW_PLIES` check for decided positions and search only the
/// consider set; deeper nodes use the plain search. On endgame.tst at
/// 10 s a move 2 plies passed 16 of 40 and 3 passed 15 (knowledge off:
/// 13); with the bitboard analysis answering the knowledge nodes, 3 and 4
/// plies passed 21 like 2, and 4 plies scored 28-32 against 2 in 60 games
/// on 9x9 at 0.5 s a move. Ordering a first-ply node's moves by the
/// circuits' energy (Wolve's way) instead of the evaluation's values
/// scored 30-30 in 60 games on 9x9.
pub const KNOW_PLIES: usize = 2;

/// Where the connection search does not play from the first move (boards
/// above 254 cells, or `connection_search` off), it takes over from the
/// distance search when at most this percentage of the cells are empty
/// (90 on 11x11, 60 on 9x9): on endgame.tst (11x11, 60 to 101 empty
/// cells, 10 s a move) a search with the connections at every node (an
/// earlier one, on the `CellSet` connections) passed 28 of 40 against 25
/// for the distance search alone.
pub const DEFAULT_ENDGAME_EMPTY_PCT: usize = 75;

/// The connection search's table, in MiB: it sees thousands of nodes a
/// second, so 16 MiB (a million entries) holds every node of a move.
const CONN_TT_MB: usize = 16;

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
