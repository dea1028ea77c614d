//! Iterative deepening: the distance search's loop over depths and the
//! connection search's.

use super::*;
use crate::board::Bitboard;
use crate::knowledge::vc::Caps;
use connsearch::Searchers;

/// The H-search caps of the root's verdict where the connection search
/// takes the root (at least these; more when the search's own are more).
/// At the search's 4 fulls and 8 semis a pair, the root of an 11x11 game
/// against Wolve had a lost position it did not see (the solver proves it)
/// and a reply it did not see forced; with 6 and 12 or more it sees both,
/// in 4 to 5 ms.
const ROOT_CAPS: Caps = Caps {
    fulls: 8,
    semis: 16,
};

/// The time [`Searcher::superior_win`] may take.
const SUPERIOR_CHECK: Duration = Duration::from_millis(20);

/// What the connection search's deepening does after a finished depth
/// that did not decide the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    /// The next depth (a last one cut off at the deadline still counts
    /// for the root moves it finished).
    Deeper,
    /// The same depth again with wider move lists (level max).
    Widen,
    /// Answer now and leave the rest of the time to the caller.
    Stop,
}

/// [`Next`] for a search whose next depth is predicted to fit in its
/// budget or not (`fits`; always with a depth limit), after its `last`
/// depth or not, at level max or not with its widened pass done or not
/// (`(widen, wide)`), and with the caller using the time it leaves or not
/// ([`Request::leave_rest`]).
fn after_depth(fits: bool, last: bool, (widen, wide): (bool, bool), leave_rest: bool) -> Next {
    if widen {
        if !wide && (last || !fits) {
            Next::Widen
        } else {
            Next::Deeper
        }
    } else if leave_rest && !fits {
        Next::Stop
    } else {
        Next::Deeper
    }
}

impl Searcher {
    pub(super) fn search_ab(
        &mut self,
        request: Request,
        params: &SearchParams,
        stop: Stop,
        (start, budget): (Instant, Duration),
        report: &mut dyn FnMut(&SearchReport),
    ) -> SearchOutcome {
        let Request {
            pos,
            to_move,
            excluded,
            leave_rest,
        } = request;
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
            w.forget_root();
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
        // The connection search: from the first move on boards of at most
        // 254 cells, and in the endgame (at most `endgame_empty_pct` of the
        // cells empty) on every board and with `connection_search` off.
        let endgame =
            empties as usize * 100 <= params.endgame_empty_pct * pos.geometry().num_cells();
        let conn_root = params.level != Level::Medium
            && (endgame || (params.connection_search && connsearch::from_first_move(pos)));
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
            // Where the connection search takes the root, the root's
            // verdict is one analysis a move, not one a node: it keeps
            // more connections a pair ([`ROOT_CAPS`]) and finds more
            // decided positions and narrower mustplays (the distance
            // search's knowledge plies start from its connections, so
            // they keep the search's caps).
            let caps = if conn_root {
                Caps::new(
                    params.conn_caps.fulls.max(ROOT_CAPS.fulls),
                    params.conn_caps.semis.max(ROOT_CAPS.semis),
                )
            } else {
                params.conn_caps
            };
            let verdict = Self::root_knowledge(
                &mut self.workers,
                self.pool.as_ref(),
                pos,
                to_move,
                times,
                caps,
            );
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
        if root_kn && conn_root {
            let root = ConnRoot {
                pos,
                me: to_move,
                moves: &moves,
                excluded,
                max_depth,
                leave_rest,
            };
            if let Some(o) = self.search_conn(root, stop, (start, budget), report) {
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
    pub(super) fn search_conn(
        &mut self,
        root: ConnRoot,
        stop: Stop,
        (start, budget): (Instant, Duration),
        report: &mut dyn FnMut(&SearchReport),
    ) -> Option<VcOutcome> {
        let pos = root.pos;
        // The searchers (their H-search tables and connection stacks, some
        // MiB each) are kept from move to move while the board stays.
        let nthreads = self.threads.max(1);
        let caps = self.params.conn_caps;
        let mut searchers = std::mem::take(&mut self.conn).for_board(pos, nthreads, caps)?;
        let clock = (start, budget);
        let out = match &mut searchers {
            Searchers::Narrow(v) => self.search_conn_with(v, root, stop, clock, report),
            Searchers::Three(v) => self.search_conn_with(v, root, stop, clock, report),
            Searchers::Four(v) => self.search_conn_with(v, root, stop, clock, report),
            Searchers::Eleven(v) => self.search_conn_with(v, root, stop, clock, report),
        };
        self.conn = searchers;
        out
    }

    pub(super) fn search_conn_with<B: Bitboard>(
        &self,
        searchers: &mut [connsearch::ConnSearch<B>],
        root: ConnRoot,
        stop: Stop,
        (start, budget): (Instant, Duration),
        report: &mut dyn FnMut(&SearchReport),
    ) -> Option<VcOutcome> {
        let ConnRoot {
            pos,
            me,
            moves,
            excluded,
            max_depth,
            leave_rest,
        } = root;
        for s in searchers.iter_mut() {
            s.set_deadline(Some(start + budget));
        }
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
        let mut sh = connsearch::Shared {
            tt: &self.conn_tt,
            stop,
            deadline: start + budget,
            wide: false,
        };
        // At level max, when the next depth is not predicted to fit, the
        // depth just searched is searched again with twice the moves a
        // node, where the next depth would seldom finish its first move.
        // With a depth limit only the last depth is, whatever the clock
        // says, so that a search with one thread stays deterministic.
        let widen = self.params.level == Level::Max;
        let limited = self.params.max_depth.is_some();
        let mut clock = DepthClock::new();
        let mut best: Option<VcOutcome> = None;
        let depths: Vec<u32> = connsearch::depths(max_depth).collect();
        let mut i = 0;
        while let Some(&depth) = depths.get(i) {
            let iter_start = Instant::now();
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
                "connection search: depth {depth}{}{} score {} nodes {nodes} time {:.3}s pv {}",
                if sh.wide { " (wide)" } else { "" },
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
            let fits = limited || clock.next_fits(iter_start.elapsed(), start, budget);
            let last = i + 1 == depths.len();
            match after_depth(fits, last, (widen, sh.wide), leave_rest) {
                Next::Deeper => i += 1,
                Next::Widen => sh.wide = true,
                Next::Stop => break,
            }
        }
        if let Some(b) = best.as_mut() {
            b.nodes = searchers.iter().map(|s| s.nodes).sum();
            // A won position's answer is worth a short check, past the
            // deadline only on boards where the inferior-cell analysis
            // takes about a millisecond.
            if score_is_win(b.score)
                && (connsearch::from_first_move(pos) || start.elapsed() < budget)
            {
                searchers[0].set_deadline(Some(Instant::now() + SUPERIOR_CHECK));
                let c = Self::superior_win(&mut searchers[0], pos, me, b.best, &excluded);
                if c != b.best {
                    b.best = c;
                    b.pv = vec![c];
                    // The decision leads the ranking.
                    b.ranked.retain(|&x| x != c);
                    b.ranked.insert(0, c);
                }
            }
        }
        best
    }

    /// A winning root move that is not inferior: the search stops at its
    /// first winning move, which may be a cell a player would never choose
    /// (dominated, or vulnerable to a reply) when a cell at least as good
    /// wins as well; that cell is played when it is not `excluded` and the
    /// connections show at once that it wins too.
    fn superior_win<B: Bitboard>(
        searcher: &mut connsearch::ConnSearch<B>,
        pos: &Position,
        me: Color,
        best: Cell,
        excluded: &CellSet,
    ) -> Cell {
        let opp = me.opponent();
        crate::knowledge::inferior::superior_cells(pos, me, best)
            .into_iter()
            .filter(|&c| !excluded.contains(c))
            .find(|&c| {
                let mut child = pos.clone();
                child.play(me, c);
                child.has_won(me) || searcher.evaluate(&child, opp) == Err(me)
            })
            .unwrap_or(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_depth_that_will_not_fit_leaves_its_time_only_to_a_caller_that_uses_it() {
        let hard = (false, false);
        // genmove's verifier has the time a next depth would not use.
        assert_eq!(after_depth(false, false, hard, true), Next::Stop);
        assert_eq!(after_depth(true, false, hard, true), Next::Deeper);
        // Alone, the search goes on to its deadline.
        assert_eq!(after_depth(false, false, hard, false), Next::Deeper);
        // Level max widens the depth that filled its time, then deepens,
        // whoever waits for it: it spends the whole move.
        assert_eq!(after_depth(false, false, (true, false), true), Next::Widen);
        assert_eq!(after_depth(true, true, (true, false), false), Next::Widen);
        assert_eq!(after_depth(true, false, (true, false), false), Next::Deeper);
        assert_eq!(after_depth(false, false, (true, true), true), Next::Deeper);
    }
}
