//! One search thread: negamax alpha-beta with PVS, the shared
//! transposition table, killer and history move ordering, a width limit
//! below the root and 0-1-distance tactics at every node.
//!
//! Near the root (plies below [`Shared::know_plies`]) a worker also asks
//! its [`Analyst`] (the connection search's analysis of a node, its runs
//! starting from the root's connections): a position the connections
//! decide is scored as a win or loss at once, and the moves searched are
//! the consider set (mustplay minus inferior cells) instead of every empty
//! cell. Deeper nodes use the plain search, which is far cheaper per node.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::WIN;
use super::connsearch::{Analyst, Facts};
use super::tt::{Tt, TtEntry};
use crate::board::{Cell, CellSet, Color, MAX_CELLS, Position};
use crate::eval::{CellValues, Dist01, EvalKind, Evaluator};

/// Deepest ply a search can reach (a full 26x26 board plus slack).
pub(crate) const MAX_PLY: usize = MAX_CELLS + 8;
/// Larger than any score.
pub(crate) const INF: i32 = WIN + 1;
/// Nodes between two looks at the clock and the stop flag.
const POLL_NODES: u64 = 256;

/// What all threads of one search share.
pub(crate) struct Shared<'a> {
    pub tt: &'a Tt,
    pub stop: super::Stop<'a>,
    pub abort: AtomicBool,
    pub deadline: Option<Instant>,
    /// Moves searched per node below the root; 0 = all.
    pub width: usize,
    /// Nodes at plies below this use the workers' knowledge (0 = none).
    pub know_plies: usize,
}

impl Shared<'_> {
    #[inline]
    pub fn aborted(&self) -> bool {
        self.abort.load(Ordering::Relaxed)
    }

    fn poll(&self) {
        if self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.abort.store(true, Ordering::Relaxed);
        }
    }
}

/// The hash of a position with a side to move.
#[inline]
pub(crate) fn tt_key(pos: &Position, to_move: Color) -> u64 {
    super::tt::side_key(pos.hash(), to_move)
}

/// What the 0-1 distances say about a node before any search.
pub(crate) enum Tactics {
    /// The side to move wins (in this many plies from the node).
    Win(i32),
    /// The side to move loses (in this many plies).
    Loss(i32),
    /// The opponent threatens to win at this cell: the only move.
    Forced(Cell),
    /// Nothing urgent.
    Open,
}

pub(crate) struct Worker {
    pub pos: Position,
    pub eval: Box<dyn Evaluator>,
    dist: Box<Dist01>,
    values: Box<CellValues>,
    killers: Vec<[Option<Cell>; 2]>,
    history: Box<[[u32; MAX_CELLS]; 2]>,
    /// One reusable move list per ply.
    lists: Vec<Vec<(i64, Cell)>>,
    pub nodes: u64,
    /// The knowledge's analyst, kept from search to search while the
    /// board stays (its tables are some MiB).
    pub know: Option<Analyst>,
    /// Whether `know` has analysed this search's root, so that nodes
    /// below it may ask it.
    pub knows: bool,
    /// What the knowledge said about positions already seen, by `tt_key`.
    know_cache: HashMap<u64, Facts>,
    /// Nodes where the knowledge was consulted, and those that missed the
    /// cache.
    pub know_nodes: u64,
    pub know_misses: u64,
    /// Time spent bringing the knowledge up to date and asking it.
    pub know_time: std::time::Duration,
}

/// Cache entries kept at most; the cache is emptied when it grows past.
const KNOW_CACHE_MAX: usize = 1 << 16;

impl Worker {
    pub fn new(pos: Position, kind: EvalKind) -> Worker {
        Worker {
            pos,
            eval: kind.build(),
            dist: Box::new(Dist01::new()),
            values: Box::new([0; MAX_CELLS]),
            killers: vec![[None; 2]; MAX_PLY],
            history: Box::new([[0; MAX_CELLS]; 2]),
            lists: Vec::new(),
            nodes: 0,
            know: None,
            knows: false,
            know_cache: HashMap::new(),
            know_nodes: 0,
            know_misses: 0,
            know_time: std::time::Duration::ZERO,
        }
    }

    /// Resets the per-search heuristics (killers, history).
    pub fn reset_heuristics(&mut self) {
        for k in self.killers.iter_mut() {
            *k = [None; 2];
        }
        for h in self.history.iter_mut() {
            for v in h.iter_mut() {
                *v /= 8;
            }
        }
    }

    /// `color`'s 0-1 distance (stones still needed), 0 when cut off.
    pub fn distance(&mut self, color: Color) -> u32 {
        self.dist.distance(&self.pos, color).unwrap_or(0)
    }

    /// The cells where `color` wins with one more stone.
    pub fn one_move_wins(&mut self, color: Color, out: &mut Vec<Cell>) {
        out.clear();
        out.extend(self.dist.one_move_wins(&self.pos, color).iter());
    }

    /// Tactics for `me` to move: immediate win, a cut-off side, the
    /// opponent's one-move threats.
    pub fn tactics(&mut self, me: Color) -> Tactics {
        let opp = me.opponent();
        let d_me = self.dist.distance(&self.pos, me);
        let d_opp = self.dist.distance(&self.pos, opp);
        match (d_me, d_opp) {
            (Some(1), _) => Tactics::Win(1),
            // Cut off: the opponent wins, at the latest once it has placed
            // the stones it needs.
            (None, Some(d)) => Tactics::Loss(2 * d as i32),
            (Some(d), None) => Tactics::Win(2 * d as i32 - 1),
            (_, Some(1)) => {
                let threats = self.dist.one_move_wins(&self.pos, opp);
                let mut it = threats.iter();
                match (it.next(), it.next()) {
                    (Some(_), Some(_)) => Tactics::Loss(2),
                    (Some(c), None) => Tactics::Forced(c),
                    _ => Tactics::Open,
                }
            }
            _ => Tactics::Open,
        }
    }

    /// Fills `self.lists[ply]` with the moves for `me`, best first.
    fn order_moves(&mut self, me: Color, ply: usize, tt_move: Option<Cell>, only: Option<CellSet>) {
        while self.lists.len() <= ply {
            self.lists.push(Vec::with_capacity(MAX_CELLS));
        }
        self.eval.evaluate_cells(&self.pos, me, &mut self.values);
        let killers = self.killers[ply];
        let hist = &self.history[me.index()];
        let list = &mut self.lists[ply];
        list.clear();
        let cells = match only {
            Some(set) => set.intersection(&self.pos.empty_cells()),
            None => self.pos.empty_cells(),
        };
        for c in cells.iter() {
            let key = if Some(c) == tt_move {
                1 << 40
            } else if Some(c) == killers[0] {
                1 << 39
            } else if Some(c) == killers[1] {
                1 << 38
            } else {
                ((self.values[c.index()] as i64) << 20) + hist[c.index()].min((1 << 20) - 1) as i64
            };
            list.push((key, c));
        }
        // Stable: equal keys stay in cell order, so the search is
        // deterministic.
        list.sort_by_key(|e| std::cmp::Reverse(e.0));
    }

    /// Starts a new search: the knowledge describes no root yet.
    pub fn forget_root(&mut self) {
        self.knows = false;
        if self.know_cache.len() > KNOW_CACHE_MAX {
            self.know_cache.clear();
        }
    }

    /// Whether a child of a node at `ply` can use the knowledge: the
    /// parent can (`kn`) and the child is shallow enough.
    #[inline]
    pub fn child_knows(&self, sh: &Shared, kn: bool, ply: usize) -> bool {
        kn && ply + 1 < sh.know_plies && self.knows
    }

    /// Plays `c` for `me`.
    #[inline]
    pub fn make(&mut self, me: Color, c: Cell) {
        self.pos.play(me, c);
    }

    /// Takes back [`Worker::make`].
    #[inline]
    pub fn unmake(&mut self) {
        self.pos.unplay();
    }

    /// The knowledge's answers at this node for `me` to move (the consider
    /// set too when `consider`), from the cache or from the analyst.
    fn know_info(&mut self, me: Color, consider: bool) -> Facts {
        self.know_nodes += 1;
        let key = tt_key(&self.pos, me);
        if let Some(info) = self.know_cache.get(&key).copied()
            && (!consider || info.decided.is_some() || info.consider.is_some())
        {
            return info;
        }
        self.know_misses += 1;
        let t = Instant::now();
        let (info, whole) = match self.know.as_mut() {
            Some(k) if self.knows => (k.facts(&self.pos, me, consider), !k.past_deadline()),
            _ => (
                Facts {
                    decided: None,
                    consider: None,
                },
                false,
            ),
        };
        // Answers from runs that gave up at the deadline are not kept for
        // later searches.
        if whole {
            self.know_cache.insert(key, info);
        }
        self.know_time += t.elapsed();
        info
    }

    /// The score of a position the knowledge decides, for `me` to move at
    /// `ply`: the number of plies to the end is estimated from the
    /// winner's 0-1 distance, so nearer wins still score higher.
    fn decided_score(&mut self, me: Color, winner: Color, ply: usize) -> i32 {
        let d = self.dist.distance(&self.pos, winner).unwrap_or(1).max(1) as i32;
        if winner == me {
            WIN - ply as i32 - (2 * d - 1)
        } else {
            -(WIN - ply as i32 - 2 * d)
        }
    }

    /// Negamax alpha-beta with PVS over the window `(alpha, beta)`. `me`
    /// is to move, `ply` plies from root; `kn`: the worker's knowledge
    /// describes this node.
    pub fn negamax(
        &mut self,
        sh: &Shared,
        depth: u32,
        ply: usize,
        (mut alpha, beta): (i32, i32),
        me: Color,
        kn: bool,
    ) -> i32 {
        self.nodes += 1;
        // Knowledge nodes can cost milliseconds each: they look at the
        // clock every time.
        if kn || self.nodes.is_multiple_of(POLL_NODES) {
            sh.poll();
        }
        if sh.aborted() {
            return 0;
        }
        let mut forced = match self.tactics(me) {
            Tactics::Win(p) => return WIN - ply as i32 - p,
            Tactics::Loss(p) => return -(WIN - ply as i32 - p),
            Tactics::Forced(c) => Some(c),
            Tactics::Open => None,
        };
        // The consider set is asked for at once where it will be needed,
        // so that one analysis answers both questions.
        if kn && let Some(w) = self.know_info(me, depth > 0 && forced.is_none()).decided {
            return self.decided_score(me, w, ply);
        }
        if depth == 0 && forced.is_none() {
            return self.eval.evaluate(&self.pos, me);
        }
        let key = tt_key(&self.pos, me);
        let mut tt_move = None;
        if let Some(e) = sh.tt.probe(key) {
            tt_move = e.mv.filter(|&c| self.pos.is_empty(c));
            if let Some(s) = e.cutoff(depth, ply, alpha, beta) {
                return s;
            }
        }
        if ply + 1 >= MAX_PLY {
            return self.eval.evaluate(&self.pos, me);
        }
        // The knowledge's move list: the consider set. A single move is
        // searched like a forced block, without spending depth.
        let mut only = None;
        if kn
            && forced.is_none()
            && let Some(set) = self.know_info(me, true).consider
        {
            let set = set.intersection(&self.pos.empty_cells());
            match set.len() {
                0 => {}
                1 => forced = set.iter().next(),
                _ => only = Some(set),
            }
        }
        let alpha0 = alpha;
        let opp = me.opponent();
        let mut best = -INF;
        let mut best_move = None;
        if let Some(c) = forced {
            // A forced block is searched without spending depth.
            let ckn = self.child_knows(sh, kn, ply);
            self.make(me, c);
            best = -self.negamax(sh, depth, ply + 1, (-beta, -alpha), opp, ckn);
            self.unmake();
            best_move = Some(c);
        } else {
            self.order_moves(me, ply, tt_move, only);
            let mut list = std::mem::take(&mut self.lists[ply]);
            if sh.width > 0 && list.len() > sh.width {
                list.truncate(sh.width);
            }
            for (i, &(_, c)) in list.iter().enumerate() {
                let ckn = self.child_knows(sh, kn, ply);
                self.make(me, c);
                let mut s;
                if i == 0 {
                    s = -self.negamax(sh, depth - 1, ply + 1, (-beta, -alpha), opp, ckn);
                } else {
                    // (Late-move reductions were tried: 9-21 against this
                    // in 30 games on 9x9 at 0.3 s a move. Not used.)
                    s = -self.negamax(sh, depth - 1, ply + 1, (-alpha - 1, -alpha), opp, ckn);
                    if s > alpha && s < beta && !sh.aborted() {
                        s = -self.negamax(sh, depth - 1, ply + 1, (-beta, -alpha), opp, ckn);
                    }
                }
                self.unmake();
                if sh.aborted() {
                    self.lists[ply] = list;
                    return 0;
                }
                if s > best {
                    best = s;
                    best_move = Some(c);
                    if s > alpha {
                        alpha = s;
                        if alpha >= beta {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(c) {
                                k[1] = k[0];
                                k[0] = Some(c);
                            }
                            let h = &mut self.history[me.index()][c.index()];
                            *h = h.saturating_add(depth * depth);
                            break;
                        }
                    }
                }
            }
            self.lists[ply] = list;
        }
        if sh.aborted() {
            return 0;
        }
        sh.tt.store(
            key,
            TtEntry::searched(best_move, best, depth, ply, alpha0, beta),
        );
        best
    }

    /// The principal variation from the table, starting with `first`.
    pub fn pv(&mut self, tt: &Tt, first: Cell, me: Color, max_len: usize) -> Vec<Cell> {
        let mut pv = vec![first];
        self.pos.play(me, first);
        let mut color = me.opponent();
        while pv.len() < max_len && self.pos.winner().is_none() {
            let Some(c) = tt
                .probe(tt_key(&self.pos, color))
                .and_then(|e| e.mv)
                .filter(|&c| self.pos.is_empty(c))
            else {
                break;
            };
            pv.push(c);
            self.pos.play(color, c);
            color = color.opponent();
        }
        for _ in 0..pv.len() {
            self.pos.unplay();
        }
        pv
    }

    /// Root ordering: per-cell values of the evaluation, cell order on ties.
    pub fn root_order(&mut self, me: Color) -> Vec<Cell> {
        self.order_moves(me, 0, None, None);
        self.lists[0].iter().map(|&(_, c)| c).collect()
    }
}
