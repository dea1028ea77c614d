//! The solver as a player: the best move of a position (a proved win, the
//! simplest of them, or the move that resists a proved loss longest).

use super::*;

/// Table size (MiB) for comparing the proofs of winning moves: each is
/// a small proof of its own.
const SIMPLEST_TT_MB: usize = 4;

/// The result of [`Solver::best_move`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BestMove {
    pub outcome: SolveOutcome,
    /// A proved winning move; for a proved loss the move that resists
    /// longest; `None` when unknown (or the game is over).
    pub mv: Option<Cell>,
}

impl Solver {
    /// [`Solver::best_move`] whose solve ends by `until` at the latest (one
    /// slice; the next starts from what the table learned). Finding the
    /// move after a proof is not cut short: a proved win always comes with
    /// its move.
    pub fn best_move_until(
        &mut self,
        pos: &Position,
        to_move: Color,
        stop: &AtomicBool,
        until: Instant,
        progress: &mut dyn FnMut(&Progress),
    ) -> BestMove {
        self.slice_end = Some(until);
        self.best_move(pos, to_move, stop, progress)
    }

    /// Solves and picks a move: a proved winning move; for a proved loss,
    /// the move whose refutation cost the most work (it resists longest).
    pub fn best_move(
        &mut self,
        pos: &Position,
        to_move: Color,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> BestMove {
        let outcome =
            self.counted(|s, start| s.solve_inner(pos, to_move, stop, progress, start, true));
        // A slice bounds the solve only (see `best_move_until`).
        self.slice_end = None;
        let mv = match outcome {
            SolveOutcome::Unknown => None,
            _ if pos.winner().is_some() => None,
            SolveOutcome::Win(w) if w == to_move => self.winning_move(pos, to_move, stop),
            SolveOutcome::Win(_) => Some(self.resisting_move(pos, to_move)),
        };
        BestMove { outcome, mv }
    }

    /// Among `to_move`'s winning moves, the one that wins soonest: its
    /// proof (found on a table of its own) has the fewest moves in its
    /// longest line before connections decide, then the fewest nodes.
    /// `first` is a winning move already known. When several moves win,
    /// the quickest is the one a player expects (and the one regression
    /// files ask for); the first move df-pn happened to prove is often a
    /// longer way round.
    ///
    /// The candidates are the root's moves, those that leave the opponent
    /// the fewest replies first, each given at most twice the nodes of the
    /// best proof so far (a much bigger proof is seldom shorter: on
    /// endgame.tst's random-endgame16, thirteen winning moves, the quickest
    /// proof is also the smallest), until `deadline` or `stop`: the answer
    /// is the best found by then, `first` at worst. The heights are those
    /// of the proofs df-pn finds, not the least possible, so this is a
    /// preference, not a guarantee.
    pub fn simplest_win(
        &self,
        pos: &Position,
        to_move: Color,
        first: Cell,
        stop: &AtomicBool,
        deadline: Instant,
    ) -> Cell {
        let opp = to_move.opponent();
        let mut table = Table::new(SIMPLEST_TT_MB);
        // One oracle for every candidate: its caches serve them all.
        let mut oracle = self.oracle(pos);
        let settings = self.settings();
        // (height, nodes) of the proof that `cell` wins.
        let mut proof_size = |oracle: &mut dyn Oracle, cell: Cell, limit: Option<u64>| {
            oracle.play(to_move, cell);
            table.clear();
            let mut search = Search {
                oracle: &mut *oracle,
                tt: &mut table,
                stop,
                deadline: Some(deadline),
                max_nodes: limit,
                settings,
                nodes: 0,
                aborted: false,
                tick: &mut |_, _| {},
                tick_every: 0,
            };
            let lost = search.run(opp) == Some(false);
            let nodes = search.nodes;
            let size = lost.then(|| {
                let height = proof_height(&table, oracle, opp, to_move, &mut HashMap::new());
                (height, nodes)
            });
            oracle.undo();
            size
        };
        let Some(mut best_size) = proof_size(oracle.as_mut(), first, None) else {
            return first;
        };
        let mut best = first;
        log::debug!(
            "simplest win: first {} {best_size:?}",
            pos.geometry().name(first)
        );
        // The candidates, fewest opponent replies first (a reply count of
        // zero: the move wins by connections at once).
        let (_, moves) = root_moves(oracle.as_mut(), to_move);
        let (filled, _) = oracle.fill(to_move);
        let mut candidates: Vec<(usize, Cell)> = Vec::new();
        for &c in moves.iter().filter(|&&c| c != first) {
            // Each look is an H-search: keep to the time here too.
            if Instant::now() >= deadline || stop.load(Ordering::Relaxed) {
                break;
            }
            oracle.play(to_move, c);
            match oracle.peek(opp) {
                Expansion::Decided(w, _) if w == opp => {}
                Expansion::Decided(..) => candidates.push((0, c)),
                Expansion::Moves(m, _) => candidates.push((m.len(), c)),
            }
            oracle.undo();
        }
        for _ in 0..filled {
            oracle.undo();
        }
        candidates.sort_by_key(|&(n, _)| n);
        for (_, c) in candidates {
            if best_size <= (0, 1) || Instant::now() >= deadline || stop.load(Ordering::Relaxed) {
                break;
            }
            let size = proof_size(oracle.as_mut(), c, Some(2 * best_size.1));
            log::debug!("simplest win: {} {size:?}", pos.geometry().name(c));
            if let Some(size) = size
                && size < best_size
            {
                (best, best_size) = (c, size);
            }
        }
        // Players (and the regression files) expect a move that is not
        // inferior: a dominated or vulnerable winner gives way to a cell at
        // least as good, when its proof is no longer.
        for c in crate::knowledge::inferior::superior_cells(pos, to_move, best) {
            if Instant::now() >= deadline || stop.load(Ordering::Relaxed) {
                break;
            }
            let size = proof_size(oracle.as_mut(), c, None);
            log::debug!("simplest win: superior {} {size:?}", pos.geometry().name(c));
            if let Some(size) = size
                && size.0 <= best_size.0
            {
                return c;
            }
        }
        best
    }

    /// A proved winning move from the table (after a winning solve).
    pub(super) fn winning_move(
        &mut self,
        pos: &Position,
        to_move: Color,
        stop: &AtomicBool,
    ) -> Option<Cell> {
        let mut oracle = self.oracle(pos);
        let (hash, moves) = root_moves(oracle.as_mut(), to_move);
        let wins = |c: &Cell| {
            self.table
                .get(tt::key(hash ^ zobrist_key(to_move, *c), to_move.opponent()))
                .is_some_and(|e| e.delta == 0)
        };
        if let Some(c) = moves.iter().find(|c| wins(c)) {
            return Some(*c);
        }
        // Decided at the root by connections: the knowledge's key, or a
        // move checked by a (fast) solve of each candidate.
        if let Some(c) = oracle.winning_key(to_move)
            && pos.is_empty(c)
        {
            return Some(c);
        }
        let mut child = pos.clone();
        let start = Instant::now();
        for cell in pos.empty_cells().iter() {
            child.play(to_move, cell);
            let r = self.solve_inner(&child, to_move.opponent(), stop, &mut |_| {}, start, false);
            child.unplay();
            if r == SolveOutcome::Win(to_move) {
                return Some(cell);
            }
        }
        None
    }

    /// For a lost position: the root move whose subtree took the most work,
    /// else the best-ordered move.
    pub(super) fn resisting_move(&mut self, pos: &Position, to_move: Color) -> Cell {
        let mut oracle = self.oracle(pos);
        let (hash, moves) = root_moves(oracle.as_mut(), to_move);
        let mut best: Option<(u32, Cell)> = None;
        for &c in &moves {
            let k = tt::key(hash ^ zobrist_key(to_move, c), to_move.opponent());
            let w = self.table.get(k).map_or(0, |e| e.work);
            if best.is_none_or(|(bw, _)| w > bw) {
                best = Some((w, c));
            }
        }
        if let Some((_, c)) = best {
            return c;
        }
        // Decided at the root: the best-ordered empty cell.
        let mut all: Vec<Cell> = pos.empty_cells().iter().collect();
        let mut eval = self.params.ordering.eval().build();
        let mut values = Box::new([0; crate::board::MAX_CELLS]);
        oracle::order(eval.as_mut(), pos, to_move, &mut all, &mut values);
        all[0]
    }
}

/// The height of the proof in `table` that `winner` wins the oracle's
/// position with `to_move` to play: the most moves (of both sides) a line
/// of the proof takes before connections decide. At the winner's turns it
/// follows the stored move; at the loser's, every move the table proves
/// lost (moves a sibling's proof set pruned have no entry: that sibling's
/// proof answers them too).
pub(super) fn proof_height(
    table: &Table,
    oracle: &mut dyn Oracle,
    to_move: Color,
    winner: Color,
    memo: &mut HashMap<u64, u32>,
) -> u32 {
    let key = tt::key(oracle.position().hash(), to_move);
    if let Some(&h) = memo.get(&key) {
        return h;
    }
    let (filled, _) = oracle.fill(to_move);
    let hash = oracle.position().hash();
    let child = |c: Cell| tt::key(hash ^ zobrist_key(to_move, c), to_move.opponent());
    let moves: Vec<Cell> = match oracle.expand(to_move) {
        Expansion::Decided(..) => Vec::new(),
        Expansion::Moves(m, _) if to_move == winner => table
            .get(key)
            .and_then(|e| e.best_move())
            .filter(|&c| m.contains(&c))
            .into_iter()
            .collect(),
        Expansion::Moves(m, _) => m
            .into_iter()
            .filter(|&c| table.get(child(c)).is_some_and(|e| e.phi == 0))
            .collect(),
    };
    let mut height = 0;
    for c in moves {
        oracle.play(to_move, c);
        let h = proof_height(table, oracle, to_move.opponent(), winner, memo);
        oracle.undo();
        height = height.max(1 + h);
    }
    for _ in 0..filled {
        oracle.undo();
    }
    memo.insert(key, height);
    height
}
