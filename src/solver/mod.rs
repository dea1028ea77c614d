//! The solver: depth-first proof-number search with connection-decided
//! leaves, and the swap tables.
//!
//! [`Solver`] proves who wins a position. It runs df-pn (see [`dfpn`]) over
//! a transposition table that is kept between calls (so a game's later
//! positions reuse earlier proofs) until the root is proved, the time limit
//! passes or the caller raises the stop flag.
//!
//! At every node the solver asks an oracle (see [`oracle`]) whether the
//! position is already decided and which moves need searching. By default
//! that is the knowledge core's bitboard H-search
//! ([`crate::knowledge::vc`], boards of at most 254 cells, up to 15x15,
//! on the bitboard type of their size): an
//! edge-to-edge semi wins for the mover, an opponent's edge-to-edge full
//! loses, and the moves are limited to the common cells
//! of the opponent's edge-to-edge semis (the mustplay). Before that, dead
//! cells and captured pairs are filled in ([`crate::knowledge::ice`]),
//! then the carriers decompositions capture
//! ([`crate::knowledge::vc::Hsearch::decomposition`]), and moves
//! another move kills or captures are left out, as are moves an opponent
//! reply kills (vulnerable cells). The fill-in is what makes the 7x7
//! openings solvable (the 6x6 file takes about 12 s with it, 180 s
//! without); decompositions prove 31 of the 40 endgame.tst positions at
//! 10 s each against 24 without. On boards above 254 cells (or with
//! `use_vc` off) the board alone answers: plain one-move
//! threats and dead cells. Proof sets are 128-bit: on boards above 11x11
//! one that would hold a cell from index 128 on is all cells (nothing is
//! pruned on its account). With the H-search, moves are ordered by each
//! cell's energy in both colours' circuits over the node's connections
//! ([`MoveOrder::Connections`]); on the board alone, by an evaluator's
//! per-cell values (resistance).
//!
//! [`swap`] holds the swap decision and the opening tables.

pub mod dfpn;
pub mod oracle;
mod params;
mod play;
pub mod swap;
pub mod tt;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::board::{Bitboard, Cell, Color, Position, Wide, zobrist_key};
use crate::knowledge::vc::Width;

use dfpn::{Search, Settings};
use oracle::{BoardOracle, Expansion, HsearchOracle, Oracle};
use tt::Table;

pub use params::{MoveOrder, SolverParams};
pub use play::BestMove;

/// A solve's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveOutcome {
    /// Proved: this colour wins with the given side to move.
    Win(Color),
    /// Not proved: the time ran out or the search was stopped.
    Unknown,
}

/// The state of one of the root's moves, for the player to move at the
/// root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChildStatus {
    /// The move is proved to win.
    Win,
    /// The move is proved to lose.
    Loss,
    /// Unknown yet: the proof and disproof numbers of the move for the
    /// root's player (small proof number: looks winning).
    Unknown(u32, u32),
    /// Not searched yet (with widening, most of a big root's moves wait
    /// until the first ones look bad).
    Unexplored,
}

/// The root move a solve finds most promising among those not proved to
/// lose: a proved win first, then the least proof number (ties by cell),
/// then the first move not searched yet (in the root's order).
fn most_promising(children: &[(Cell, ChildStatus)]) -> Option<Cell> {
    children
        .iter()
        .enumerate()
        .filter_map(|(i, &(c, s))| match s {
            ChildStatus::Win => Some(((0u64, 0), c)),
            ChildStatus::Unknown(proof, _) => Some(((proof as u64 + 1, c.index()), c)),
            ChildStatus::Unexplored => Some(((u64::MAX, i), c)),
            ChildStatus::Loss => None,
        })
        .min_by_key(|&(k, _)| k)
        .map(|(_, c)| c)
}

/// When an unfinished solve has already proved `choice` a losing root move:
/// a root move it has proved to win, else the first move of the search's
/// `ranked` list (best first) among the solve's root moves not proved to
/// lose, else the solve's [`most_promising`] other move; `None` when
/// `choice` is not known to lose or every move is. The search's ranking
/// comes before the proof numbers: the search has looked at every move,
/// where a proof number mostly says how easy a move's proof looks.
pub fn avoid_proven_loss(
    choice: Cell,
    ranked: &[Cell],
    children: &[(Cell, ChildStatus)],
) -> Option<Cell> {
    let status = |x: Cell| children.iter().find(|&&(c, _)| c == x).map(|&(_, s)| s);
    if status(choice) != Some(ChildStatus::Loss) {
        return None;
    }
    // A proved win first; then the search's order, among the solve's own
    // open moves (one it does not list is outside its mustplay or
    // inferior).
    let won = children.iter().find(|&&(_, s)| s == ChildStatus::Win);
    won.map(|&(c, _)| c)
        .or_else(|| {
            ranked
                .iter()
                .copied()
                .find(|&c| status(c).is_some_and(|s| s != ChildStatus::Loss))
        })
        .or_else(|| most_promising(children))
}

/// A snapshot of a running solve (for HexGui's live display).
#[derive(Clone, Debug)]
pub struct Progress {
    pub to_move: Color,
    /// The line the search currently prefers, from the root.
    pub pv: Vec<Cell>,
    /// Every move the search considers at the root, with its status.
    pub children: Vec<(Cell, ChildStatus)>,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Whether this is the final report of the solve.
    pub done: bool,
}

/// Counters of the last solve, and the table's fill.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SolverStats {
    pub nodes: u64,
    pub elapsed: Duration,
    pub nodes_per_second: f64,
    pub tt_entries: usize,
    pub tt_capacity: usize,
}

/// A df-pn solver with its transposition table.
pub struct Solver {
    params: SolverParams,
    table: Table,
    /// The board size the table's entries belong to.
    size: Option<(usize, usize)>,
    stats: SolverStats,
    /// The end set by [`Solver::solve_until`]: the solve stops there,
    /// keeping what it learned in the table.
    slice_end: Option<Instant>,
}

impl Solver {
    /// [`Solver::new`], or a message when its table cannot be had.
    pub fn try_new(params: &SolverParams) -> Result<Solver, String> {
        Ok(Solver {
            params: params.clone(),
            table: Table::try_new(params.tt_mb)?,
            size: None,
            stats: SolverStats::default(),
            slice_end: None,
        })
    }

    pub fn new(params: &SolverParams) -> Solver {
        Solver {
            params: params.clone(),
            table: Table::new(params.tt_mb),
            size: None,
            stats: SolverStats::default(),
            slice_end: None,
        }
    }

    pub fn params(&self) -> &SolverParams {
        &self.params
    }

    /// New parameters, with a table of the new size allocated first: when
    /// that memory cannot be had, a message, and nothing changes.
    pub fn try_set_params(&mut self, params: &SolverParams) -> Result<(), String> {
        if params.tt_mb != self.params.tt_mb {
            self.table = Table::try_new(params.tt_mb)?;
            self.size = None;
        }
        self.params = params.clone();
        Ok(())
    }

    /// New parameters; the table is rebuilt (emptied) only if its size
    /// changes.
    pub fn set_params(&mut self, params: &SolverParams) {
        if params.tt_mb != self.params.tt_mb {
            self.table = Table::new(params.tt_mb);
            self.size = None;
        }
        self.params = params.clone();
    }

    pub fn clear_tt(&mut self) {
        self.table.clear();
        self.size = None;
    }

    pub fn stats(&self) -> SolverStats {
        SolverStats {
            tt_entries: self.table.len(),
            tt_capacity: self.table.capacity(),
            ..self.stats
        }
    }

    fn oracle(&self, pos: &Position) -> Box<dyn Oracle> {
        if self.params.use_vc
            && let Some(f) = self.hsearch_oracle(pos)
        {
            f
        } else {
            Box::new(BoardOracle::new(pos, self.params.ordering.eval()))
        }
    }

    /// The bitboard H-search oracle on the bitboard type of the board's
    /// size; `None` above 254 cells.
    fn hsearch_oracle(&self, pos: &Position) -> Option<Box<dyn Oracle>> {
        fn of<B: Bitboard>(p: &SolverParams, pos: &Position) -> Option<Box<dyn Oracle>> {
            let o = HsearchOracle::<B>::new(
                pos,
                p.ordering,
                p.incremental,
                p.vulnerable,
                p.decompositions,
            )?;
            Some(Box::new(o))
        }
        match Width::of(pos.geometry()) {
            Width::Narrow => of::<u128>(&self.params, pos),
            Width::Three => of::<Wide<3>>(&self.params, pos),
            Width::Four => of::<Wide<4>>(&self.params, pos),
            // Not tried in games: the board alone answers ([`Width::searched`]).
            Width::Eleven => None,
        }
    }

    fn settings(&self) -> Settings {
        let frac = |x: f64| (x.clamp(0.0, 64.0) * 1024.0).round() as u64;
        Settings {
            epsilon_1024: frac(self.params.epsilon),
            widening_1024: frac(self.params.widening),
            lookahead: self.params.lookahead,
        }
    }

    /// Entries of another board size are meaningless: drop them.
    fn prepare(&mut self, pos: &Position) {
        let g = pos.geometry();
        let size = Some((g.width(), g.height()));
        if self.size != size {
            self.table.clear();
            self.size = size;
        }
    }

    /// Runs one public call with fresh statistics, timed from its start.
    fn counted<T>(&mut self, call: impl FnOnce(&mut Self, Instant) -> T) -> T {
        let start = Instant::now();
        self.stats = SolverStats::default();
        let out = call(self, start);
        self.finish_stats(start);
        out
    }

    /// Who wins `pos` with `to_move` to play.
    pub fn solve(
        &mut self,
        pos: &Position,
        to_move: Color,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> SolveOutcome {
        self.counted(|s, start| s.solve_inner(pos, to_move, stop, progress, start, true))
    }

    fn finish_stats(&mut self, start: Instant) {
        let elapsed = start.elapsed();
        self.stats.elapsed = elapsed;
        self.stats.nodes_per_second = self.stats.nodes as f64 / elapsed.as_secs_f64().max(1e-9);
    }

    /// One solve, adding to the stats; `report_end` sends a final progress.
    fn solve_inner(
        &mut self,
        pos: &Position,
        to_move: Color,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
        start: Instant,
        report_end: bool,
    ) -> SolveOutcome {
        if let Some(w) = pos.winner() {
            return SolveOutcome::Win(w);
        }
        self.prepare(pos);
        let deadline = match (self.params.max_time.map(|t| start + t), self.slice_end) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let mut oracle = self.oracle(pos);
        // The root's moves, for progress reports.
        let (hash, moves) = root_moves(oracle.as_mut(), to_move);
        let root = Root {
            to_move,
            hash,
            moves: &moves,
        };
        let interval = self.params.progress_interval;
        let mut last_report = Instant::now();
        let base_nodes = self.stats.nodes;
        // A second oracle for following the principal variation while the
        // search holds the first.
        let mut pv_oracle = self.oracle(pos);
        let mut tick = |table: &Table, nodes: u64| {
            if last_report.elapsed() >= interval {
                last_report = Instant::now();
                let counts = (base_nodes + nodes, start.elapsed());
                progress(&snapshot(table, pv_oracle.as_mut(), &root, counts, false));
            }
        };
        let settings = self.settings();
        let mut search = Search {
            oracle: oracle.as_mut(),
            tt: &mut self.table,
            stop,
            deadline,
            max_nodes: None,
            settings,
            nodes: 0,
            aborted: false,
            tick: &mut tick,
            tick_every: 1024,
        };
        let result = search.run(to_move);
        let nodes = search.nodes;
        self.stats.nodes += nodes;
        if report_end {
            let counts = (self.stats.nodes, start.elapsed());
            progress(&snapshot(&self.table, oracle.as_mut(), &root, counts, true));
        }
        match result {
            Some(true) => SolveOutcome::Win(to_move),
            Some(false) => SolveOutcome::Win(to_move.opponent()),
            None => SolveOutcome::Unknown,
        }
    }

    /// All of `to_move`'s winning moves, in cell order (empty when
    /// `to_move` loses); `None` if the limits stopped the search first.
    pub fn winning_moves(
        &mut self,
        pos: &Position,
        to_move: Color,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> Option<Vec<Cell>> {
        self.counted(|s, start| s.winning_moves_inner(pos, to_move, stop, progress, start))
    }

    fn winning_moves_inner(
        &mut self,
        pos: &Position,
        to_move: Color,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
        start: Instant,
    ) -> Option<Vec<Cell>> {
        if pos.winner().is_some() {
            return Some(Vec::new());
        }
        match self.solve_inner(pos, to_move, stop, progress, start, true) {
            SolveOutcome::Unknown => return None,
            SolveOutcome::Win(w) if w != to_move => return Some(Vec::new()),
            SolveOutcome::Win(_) => {}
        }
        let mut wins = Vec::new();
        let mut child = pos.clone();
        for cell in pos.empty_cells().iter() {
            child.play(to_move, cell);
            let r = self.solve_inner(&child, to_move.opponent(), stop, &mut |_| {}, start, false);
            child.unplay();
            match r {
                SolveOutcome::Unknown => return None,
                SolveOutcome::Win(w) if w == to_move => wins.push(cell),
                SolveOutcome::Win(_) => {}
            }
        }
        Some(wins)
    }

    /// [`Solver::solve`] until `until` at the latest: one slice of a
    /// longer job, whose next slice starts from what the table learned.
    pub fn solve_until(
        &mut self,
        pos: &Position,
        to_move: Color,
        stop: &AtomicBool,
        until: Instant,
    ) -> SolveOutcome {
        self.slice_end = Some(until);
        let out = self.solve(pos, to_move, stop, &mut |_| {});
        self.slice_end = None;
        out
    }
}

/// The root after fill-in: its hash and the moves the search considers
/// (none when it is decided).
fn root_moves(oracle: &mut dyn Oracle, to_move: Color) -> (u64, Vec<Cell>) {
    let (filled, _) = oracle.fill(to_move);
    let hash = oracle.position().hash();
    let moves = match oracle.expand(to_move) {
        Expansion::Moves(m, _) => m,
        Expansion::Decided(..) => Vec::new(),
    };
    for _ in 0..filled {
        oracle.undo();
    }
    (hash, moves)
}

/// A solve's root, as its progress reports see it.
struct Root<'a> {
    to_move: Color,
    /// The root's hash after its fill-in.
    hash: u64,
    moves: &'a [Cell],
}

/// The progress report from the table's current contents, after `nodes`
/// in `elapsed`; `done` for the last one.
fn snapshot(
    table: &Table,
    oracle: &mut dyn Oracle,
    root: &Root,
    (nodes, elapsed): (u64, Duration),
    done: bool,
) -> Progress {
    let Root {
        to_move,
        hash: root_hash,
        moves: root_moves,
    } = *root;
    let children = root_moves
        .iter()
        .map(|&c| {
            let k = tt::key(root_hash ^ zobrist_key(to_move, c), to_move.opponent());
            let status = match table.get(k) {
                Some(e) if e.delta == 0 => ChildStatus::Win,
                Some(e) if e.phi == 0 => ChildStatus::Loss,
                // The child's delta is the root player's proof number.
                Some(e) => ChildStatus::Unknown(e.delta, e.phi),
                None => ChildStatus::Unexplored,
            };
            (c, status)
        })
        .collect::<Vec<_>>();
    // Until the root is stored (when its search returns), the line starts
    // with the root move that looks best for the player to move.
    let first = most_promising(&children);
    Progress {
        to_move,
        pv: principal_variation(table, oracle, to_move, first),
        children,
        nodes,
        elapsed,
        done,
    }
}

/// Follows the table's preferred moves from the oracle's position, filling
/// in as the search does (entries are keyed by the position before its
/// fill-in, their moves belong to the filled one); `first` stands in for
/// a root not in the table yet. Leaves the oracle as it found it.
fn principal_variation(
    table: &Table,
    oracle: &mut dyn Oracle,
    to_move: Color,
    first: Option<Cell>,
) -> Vec<Cell> {
    let mut pv = Vec::new();
    let mut color = to_move;
    let mut played = 0;
    while oracle.position().winner().is_none() && pv.len() < 64 {
        let key = tt::key(oracle.position().hash(), color);
        let stored = table.get(key).and_then(|e| e.best_move());
        let Some(m) = stored.or(if pv.is_empty() { first } else { None }) else {
            break;
        };
        played += oracle.fill(color).0;
        if !oracle.position().is_empty(m) {
            break;
        }
        pv.push(m);
        oracle.play(color, m);
        played += 1;
        color = color.opponent();
    }
    for _ in 0..played {
        oracle.undo();
    }
    pv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proven_losing_choice_gives_way_to_the_searchs_next_move_or_the_most_promising() {
        let c = Cell::from_index;
        let children = [
            (c(1), ChildStatus::Loss),
            (c(2), ChildStatus::Unknown(7, 3)),
            (c(3), ChildStatus::Unknown(2, 9)),
            (c(4), ChildStatus::Loss),
        ];
        assert_eq!(avoid_proven_loss(c(1), &[], &children), Some(c(3)));
        // The search's ranking first, skipping moves proved to lose and
        // moves the solve does not list (c(8)).
        let ranked = [c(1), c(4), c(8), c(2), c(3)];
        assert_eq!(avoid_proven_loss(c(1), &ranked, &children), Some(c(2)));
        // Not known to lose (or not a root move of the solve): kept.
        assert_eq!(avoid_proven_loss(c(2), &ranked, &children), None);
        assert_eq!(avoid_proven_loss(c(9), &ranked, &children), None);
        // A proved win comes first.
        // A move not searched yet comes after every searched one.
        let fresh = [
            (c(6), ChildStatus::Unexplored),
            (c(1), ChildStatus::Loss),
            (c(2), ChildStatus::Unknown(900, 3)),
            (c(3), ChildStatus::Unexplored),
        ];
        assert_eq!(avoid_proven_loss(c(1), &[], &fresh), Some(c(2)));
        let fresh = [
            (c(6), ChildStatus::Unexplored),
            (c(3), ChildStatus::Unexplored),
        ];
        assert_eq!(most_promising(&fresh), Some(c(6)));
        let won = [(c(1), ChildStatus::Loss), (c(5), ChildStatus::Win)];
        assert_eq!(avoid_proven_loss(c(1), &[c(1)], &won), Some(c(5)));
        // Every move lost: nothing better to offer.
        let all_lost = [(c(1), ChildStatus::Loss), (c(4), ChildStatus::Loss)];
        assert_eq!(avoid_proven_loss(c(1), &[c(4)], &all_lost), None);
    }
}
