//! Thinking about one move: the search, the solver and the verifier as a
//! portfolio. The solver works on the whole position on a thread of its
//! own beside the search (when few enough cells are empty); when it proves
//! a win and has the move, it stops the search through the search's early
//! stop (not the user's interrupt). With the verifier in use the search
//! has the first part of the move ([`SEARCH_SHARE_PCT`]; in short moves at
//! most [`SHORT_SEARCH_SHARE_PCT`], stopping after its last depth predicted
//! to fit), and the verifier takes its core for the rest to prove or
//! refute the search's choice; a
//! refuted choice is searched again without it, or, with too little time
//! left, gives way to the search's next move. Both
//! solvers are lent to their threads and come back later when they are
//! still busy at the move's end, so the move keeps to its time whatever
//! they are doing.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::board::{Cell, CellSet, Color, Geometry, Position};
use crate::knowledge::vc::Width;
use crate::search::{
    Decision, Request, SearchOutcome, SearchParams, SearchReport, Searcher, TimeControl,
};
use crate::solver::{BestMove, ChildStatus, Progress, SolveOutcome, Solver, SolverParams};
use crate::timeman::{
    ANSWER_ROOM, FOCUS_LIMIT, LEND_WAIT, MIN_RESEARCH, SEARCH_SHARE_PCT, SHORT_SEARCH_SHARE_PCT,
    SOLVER_GRACE,
};

/// The verifier's table, as a share of the solver's (its proofs are of
/// one move's subtree at a time).
const VERIFIER_TT_SHARE: usize = 2;

/// The verifier's settings: the solver's, with half the table and twice
/// the widening. On the whole position the two then make a portfolio:
/// df-pn's time to a proof varies a lot with its settings (at 10 s each,
/// widening 0.25 proves endgame.tst's close-endgame05 and random-endgame15
/// but not random-endgame04, and 0.5 the other way round).
pub fn verifier_params(p: &SolverParams) -> SolverParams {
    SolverParams {
        tt_mb: (p.tt_mb / VERIFIER_TT_SHARE).max(1),
        widening: (p.widening * 2.0).min(64.0),
        // One widening for the whole move: the other member of the
        // portfolio.
        late_widening: (p.widening * 2.0).min(64.0),
        ..p.clone()
    }
}

/// What the verifier settled: the search's choice, or (when the choice
/// stayed open) the whole position.
enum Verdict {
    Choice(Cell, SolveOutcome),
    Root(BestMove),
}

/// Whether `v` proves its move a win for `color`.
fn proves_win(v: &Option<Verdict>, color: Color) -> bool {
    matches!(v, Some(Verdict::Choice(_, SolveOutcome::Win(w))) if *w == color)
}

/// `work` done by `solver` with the parameters `change` makes of its own,
/// its own back after (the table stays: `change` keeps its size).
fn with_params<T>(
    solver: &mut Solver,
    change: impl FnOnce(&SolverParams) -> SolverParams,
    work: impl FnOnce(&mut Solver) -> T,
) -> T {
    let params = solver.params().clone();
    solver.set_params(&change(&params));
    let out = work(solver);
    solver.set_params(&params);
    out
}

/// `work` done by `solver` with `widening`.
fn with_widening<T>(solver: &mut Solver, widening: f64, work: impl FnOnce(&mut Solver) -> T) -> T {
    with_params(
        solver,
        |p| SolverParams {
            widening,
            ..p.clone()
        },
        work,
    )
}

/// `work` done by `solver` as genmove's: with its genmove ordering.
fn for_genmove<T>(solver: &mut Solver, work: impl FnOnce(&mut Solver) -> T) -> T {
    with_params(
        solver,
        |p| SolverParams {
            ordering: p.genmove_ordering,
            ..p.clone()
        },
        work,
    )
}

/// The whole position solved for genmove: the solver's best move, and
/// for a proved win the quickest winning move found in half the time
/// left until `move_end` (a proved win may have simpler winning moves
/// than the one proved first).
fn solve_for_move(
    solver: &mut Solver,
    pos: &crate::board::Position,
    color: Color,
    stop: &AtomicBool,
    move_end: Instant,
    progress: &mut dyn FnMut(&Progress),
) -> BestMove {
    // The first half of the move with the solver's widening, the second
    // with its late widening, on the same table: a portfolio in time.
    let (widening, late_widening) = (solver.params().widening, solver.params().late_widening);
    let mut best = if late_widening != widening {
        let first = solver.best_move_until(pos, color, stop, halfway_to(move_end), progress);
        if first.outcome == SolveOutcome::Unknown && !stop.load(Ordering::SeqCst) {
            with_widening(solver, late_widening, |s| {
                s.best_move(pos, color, stop, progress)
            })
        } else {
            first
        }
    } else {
        solver.best_move(pos, color, stop, progress)
    };
    if let (SolveOutcome::Win(w), Some(first)) = (best.outcome, best.mv)
        && w == color
    {
        best.mv = Some(solver.simplest_win(pos, color, first, stop, halfway_to(move_end)));
    }
    best
}

/// The search's part of `time` when the verifier has the rest, and whether
/// it stops after its last depth predicted to fit
/// ([`SEARCH_SHARE_PCT`], [`SHORT_SEARCH_SHARE_PCT`]).
fn share_of(time: Duration) -> (Duration, bool) {
    let share = time * SEARCH_SHARE_PCT / 100;
    if time - share < FOCUS_LIMIT {
        (time * SHORT_SEARCH_SHARE_PCT / 100, true)
    } else {
        (share, false)
    }
}

/// Plays `cell` instead of the search's choice: the move the solvers
/// settled on, its line that move alone.
fn play_instead(outcome: &mut SearchOutcome, cell: Cell) {
    outcome.decision = Decision::Move(cell);
    outcome.pv = vec![cell];
}

/// How many of the search's next moves [`next_unrefuted`] checks.
const FALLBACK_CHECKS: usize = 8;

/// How long [`next_unrefuted`] may check them: the fallback can come at
/// the move's end, and one check is a connection-search node (about a
/// millisecond on 11x11, a few on 13x13).
const FALLBACK_CHECK_TIME: Duration = Duration::from_millis(10);

/// The first of the search's `ranked` moves for `color` in `pos` that is
/// not `refuted` and whose reply position the connections do not decide
/// against it. A deadline can cut the search's last iteration short, and
/// the moves it did not reach are unjudged; played unverified, one lost at
/// once throws the game away.
/// Past [`FALLBACK_CHECK_TIME`] or [`FALLBACK_CHECKS`] candidates, the next
/// one unchecked; when every move left is lost, the first not refuted.
fn next_unrefuted(pos: &Position, color: Color, ranked: &[Cell], refuted: CellSet) -> Option<Cell> {
    let open: Vec<Cell> = ranked
        .iter()
        .copied()
        .filter(|&c| !refuted.contains(c))
        .collect();
    let first = *open.first()?;
    let checked = &open[..open.len().min(FALLBACK_CHECKS)];
    let until = Instant::now() + FALLBACK_CHECK_TIME;
    Some(
        crate::search::connsearch::first_not_lost(pos, color, checked, until)
            .or_else(|| open.get(checked.len()).copied())
            .unwrap_or(first),
    )
}

/// Halfway from now to `end` (now, once `end` has passed).
fn halfway_to(end: Instant) -> Instant {
    let now = Instant::now();
    now + end.saturating_duration_since(now) / 2
}

/// How a verifier works on one move: it proves or refutes the move with
/// `widening`; with `then_root`, a move that stays open gives way to the
/// whole position.
#[derive(Clone, Copy)]
struct Focus {
    widening: f64,
    then_root: bool,
}

/// The verifier's work on the search's choice `m`: up to [`FOCUS_LIMIT`]
/// proving or refuting it with the focus's widening; if it stays open and
/// the focus says `then_root`, the rest of the time goes to the whole
/// position, solved with another widening than the solver's (see
/// [`verifier_params`]). Without `then_root`, `m` alone until `move_end`.
fn verify(
    verifier: &mut Solver,
    pos: &crate::board::Position,
    color: Color,
    m: Cell,
    stop: &AtomicBool,
    move_end: Instant,
    focus: Focus,
) -> Verdict {
    let mut child = pos.clone();
    child.play(color, m);
    let until = if focus.then_root {
        Instant::now() + FOCUS_LIMIT
    } else {
        move_end
    };
    let r = with_widening(verifier, focus.widening, |s| {
        s.solve_until(&child, color.opponent(), stop, until)
    });
    if r != SolveOutcome::Unknown || stop.load(Ordering::SeqCst) || !focus.then_root {
        return Verdict::Choice(m, r);
    }
    Verdict::Root(solve_for_move(
        verifier,
        pos,
        color,
        stop,
        move_end,
        &mut |_| {},
    ))
}

/// The solver, which genmove lends to a thread of its own; that thread may
/// still be finishing when the move has been answered.
pub struct SolverSlot {
    pub params: SolverParams,
    idle: Option<Solver>,
    busy: Option<JoinHandle<Solver>>,
}

impl SolverSlot {
    fn new(params: SolverParams) -> SolverSlot {
        SolverSlot::with(Solver::new(&params), params)
    }

    fn with(solver: Solver, params: SolverParams) -> SolverSlot {
        SolverSlot {
            idle: Some(solver),
            busy: None,
            params,
        }
    }

    /// The solver, waiting for a lent one to come back.
    pub fn get(&mut self) -> &mut Solver {
        if let Some(h) = self.busy.take() {
            // A solver thread that panicked leaves a fresh solver behind.
            self.idle = Some(h.join().unwrap_or_else(|_| Solver::new(&self.params)));
        }
        let params = &self.params;
        self.idle.get_or_insert_with(|| Solver::new(params))
    }

    /// The solver, unless a lent one is still busy. A lent solver has been
    /// told to stop and normally returns within a node or two, but the
    /// next genmove can come sooner than that (a script's `loadsgf` and
    /// `genmove` right after a move): it is given up to `wait` before the
    /// move goes on without it.
    fn lend(&mut self, wait: Duration) -> Option<Solver> {
        let until = Instant::now() + wait;
        while self.busy.as_ref().is_some_and(|h| !h.is_finished()) {
            if Instant::now() >= until {
                log::info!("solver still busy: this move goes without it");
                return None;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        self.get();
        self.idle.take()
    }

    fn return_later(&mut self, handle: JoinHandle<Solver>) {
        self.busy = Some(handle);
    }

    pub fn try_set_params(&mut self, params: SolverParams) -> Result<(), String> {
        self.get().try_set_params(&params)?;
        self.params = params;
        Ok(())
    }
}

/// With this many empty cells or fewer the solver runs beside the search in
/// genmove. Larger positions are far beyond a proof in a move's time, so the
/// solver would only take a core from the search. On endgame.tst (11x11
/// endgames with 63-101 empty cells, 10 s a move) 64 passed 15 tests and
/// 121 passed 20: the gains were positions with about 86 empty cells.
pub const DEFAULT_SOLVER_EMPTY: usize = 100;

/// With this many empty cells or fewer the verifier checks the search's
/// choice at the end of each move ([`SEARCH_SHARE_PCT`]); above the
/// solver's reach the search's next move is verified beside it, on the
/// solver's core. At least [`DEFAULT_SOLVER_EMPTY`], and from the 25th
/// stone on boards the bitboard H-search covers (145 on 13x13; 100 on
/// 11x11 and smaller). On 11x11 at 1 s a move, 110 (which refutes many of
/// the search's choices at 101-110 empty cells in under 0.3 s) scored 20-20
/// against Wolve over 40 games where 100 scored 21-19, and 4-16 against
/// MoHex over 20 where 100 scored 6-14. On 13x13 the games against MoHex
/// turned on moves at 95-139 empty cells, which the solver refutes in
/// 0.05-2.5 s (7 of 11 under 1.5 s); with 145 and the verifiers' focus
/// widening, 20 games each scored 6-14 against MoHex (5-15 with 100) and
/// 11-9 against Wolve (8-12 with 100).
pub fn default_verify_empty(g: &Geometry) -> usize {
    const STONES: usize = 24;
    if Width::of(g).searched() {
        DEFAULT_SOLVER_EMPTY.max(g.num_cells().saturating_sub(STONES))
    } else {
        DEFAULT_SOLVER_EMPTY
    }
}

/// The search and the two solvers of genmove.
pub struct Portfolio {
    pub searcher: Searcher,
    pub solver: SolverSlot,
    /// A second solver, for the search's own answer: when the search ends
    /// before the move's time is up, its core is free, and the verifier
    /// tries to prove or refute the move the search chose.
    pub verifier: SolverSlot,
    /// The solver joins the search when at most this many cells are empty
    /// (0: never).
    pub solver_empty: usize,
    /// The verifier checks the search's choice when at most this many
    /// cells are empty (0: never); `None`: [`default_verify_empty`] for the
    /// board's size.
    pub verify_empty: Option<usize>,
}

impl Portfolio {
    pub fn new(params: &SearchParams) -> Portfolio {
        Portfolio {
            searcher: Searcher::new(params),
            solver: SolverSlot::new(SolverParams::default()),
            verifier: SolverSlot::new(verifier_params(&SolverParams::default())),
            solver_empty: DEFAULT_SOLVER_EMPTY,
            verify_empty: None,
        }
    }

    /// New solver parameters for both solvers (the verifier's derived from
    /// them); the new tables are allocated before either is replaced, so a
    /// size that cannot be had leaves both as they were.
    pub fn set_solver_params(&mut self, p: SolverParams) -> Result<(), String> {
        let vp = verifier_params(&p);
        if vp.tt_mb != self.verifier.get().params().tt_mb {
            let fresh = Solver::try_new(&vp)?;
            self.solver.try_set_params(p)?;
            self.verifier = SolverSlot::with(fresh, vp);
        } else {
            self.solver.try_set_params(p)?;
            self.verifier.get().set_params(&vp);
            self.verifier.params = vp;
        }
        Ok(())
    }

    /// The most empty cells at which the verifier checks the search's
    /// choice, on a board of `g`'s size.
    pub fn verify_reach(&self, g: &Geometry) -> usize {
        self.verify_empty.unwrap_or_else(|| default_verify_empty(g))
    }

    pub fn clear_solver_tables(&mut self) {
        self.solver.get().clear_tt();
        self.verifier.get().clear_tt();
    }

    /// `color`'s move in `pos`: the search's outcome, its decision replaced
    /// by the solvers' where they proved more. `interrupt` is the user's
    /// stop; `report` receives the search's progress after each depth.
    pub fn think(
        &mut self,
        pos: &Position,
        color: Color,
        params: &SearchParams,
        time: &TimeControl,
        interrupt: &AtomicBool,
        report: &mut dyn FnMut(&SearchReport),
    ) -> SearchOutcome {
        // The search's early stop, which the solver raises on a proof.
        let halt = self.searcher.halt_flag();
        let start = Instant::now();
        let empties = pos.empty_cells().len();
        let use_solver = self.solver_empty > 0 && empties <= self.solver_empty;
        // The verifier checks the search's choice at the move's end.
        let reach = self.verify_reach(pos.geometry());
        let verifying = reach > 0 && empties <= reach;
        // The solver runs on a thread of its own beside the search. When it
        // proves the game and has the move, it stops the search at once.
        // When the search ends first (time, or an interrupt), the solver is
        // told to stop and given a moment; if it is still busy, the move is
        // answered anyway and the solver finishes on its own, so genmove
        // keeps to its time whatever the solver is doing.
        let budget = crate::search::time_budget(time, pos.empty_cells().len(), params.level);
        // Waiting for the last move's solver is charged to this move: at
        // most a tenth of its budget.
        let lend_wait = LEND_WAIT.min(budget / 10);
        let move_end = start + budget;
        let lent = if use_solver {
            self.solver.lend(lend_wait)
        } else {
            None
        };
        let solver_stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel();
        // The solver's progress reports: which root moves it has proved to
        // lose so far.
        let (root_tx, root_rx) = mpsc::channel();
        let handle = lent.map(|mut solver| {
            let (pos, halt, solver_stop) = (pos.clone(), halt.clone(), solver_stop.clone());
            std::thread::spawn(move || {
                let best = for_genmove(&mut solver, |s| {
                    solve_for_move(s, &pos, color, &solver_stop, move_end, &mut |p| {
                        let _ = root_tx.send(p.children.clone());
                    })
                });
                if best.outcome == SolveOutcome::Win(color) && best.mv.is_some() {
                    halt.store(true, Ordering::SeqCst);
                }
                let _ = tx.send(best);
                solver
            })
        });
        // The solver's thread takes one of the search's: on a machine with
        // as many cores as search threads, three busy threads on two cores
        // slow both the solver and the search's own split. (Decided by the
        // position, not by whether the solver was free this move: changing
        // the thread count rebuilds the search's thread pool.)
        let mut params = params.clone();
        let threads = crate::search::thread_count(params.threads);
        if use_solver && threads > 1 {
            params.threads = threads - 1;
        }
        // Moves the verifier has refuted, which searches again leave out.
        let mut refuted = CellSet::EMPTY;
        // With the verifier in use, the search has the first part of the
        // move and the verifier the rest, to prove or refute the search's
        // choice: against Wolve, most lost games turned on a move the
        // solver proves a loss in under a second. In short moves the
        // search stops after its last depth predicted to fit in its part
        // (`Request::leave_rest`): a next depth cut off at the deadline
        // seldom finishes its first root move, and the verifier has the
        // time instead. Otherwise the search ends at the move's end. What
        // waiting for the solver took comes off the search's time (its
        // budget keeps the same room for the answer that `time_budget`
        // took off the move's).
        let (search_end, leave_rest) = if verifying {
            let (share, leave_rest) = share_of(budget);
            (start + share, leave_rest)
        } else {
            (move_end, false)
        };
        let search_time = TimeControl {
            max_time: search_end.saturating_duration_since(Instant::now()) + ANSWER_ROOM,
            time_left: None,
            stones_left: None,
        };
        let first = Request {
            pos,
            to_move: color,
            excluded: CellSet::EMPTY,
            leave_rest,
        };
        let mut outcome =
            self.searcher
                .search_excluding(first, &params, &search_time, interrupt, report);
        // A winning move the verifier proved.
        let mut verified = None;
        let mut proof = None;
        while handle.is_some() || verifying {
            // A search that stopped early on its own (its next depth
            // would not fit) leaves the rest of the move's time to the
            // solvers; after an interrupt or a proof (a search that proved
            // its loss has already chosen the longest resistance), or when
            // the root's connections alone chose the move (a won position
            // or a forced reply), they get only a moment.
            let settled = crate::search::score_is_win(outcome.score)
                || crate::search::score_is_loss(outcome.score)
                || outcome.nodes <= 1;
            let interrupted = interrupt.load(Ordering::SeqCst) || halt.load(Ordering::SeqCst);
            let until = if settled || interrupted {
                Instant::now() + SOLVER_GRACE
            } else {
                move_end.max(Instant::now() + SOLVER_GRACE)
            };
            // Meanwhile the search's core is free: the verifier works on
            // the search's move. The whole position is seldom proved in
            // a move's time on a big board, but the search's choice
            // often is: on endgame.tst the moves the search chose in
            // its failures were refuted in 0.3 to 3 s, where the whole
            // position took minutes.
            let choice = match outcome.decision {
                Decision::Move(m) if verifying && !settled && !interrupted => Some(m),
                _ => None,
            };
            // Without the whole-position solver its core is free too: it
            // verifies the search's next move, the one played if the
            // choice is refuted.
            let second = choice.filter(|_| handle.is_none()).and_then(|m| {
                outcome
                    .ranked
                    .iter()
                    .copied()
                    .find(|&c| c != m && !refuted.contains(c))
            });
            // The verifiers, on threads of their own like the solver: at
            // the move's end they are told to stop and given a moment;
            // one still busy finishes on its own and misses a move, so
            // that genmove keeps to its time.
            let verify_stop = Arc::new(AtomicBool::new(false));
            let (verdict_tx, verdict_rx) = mpsc::channel();
            // One move is proved or refuted with the solver's widening,
            // whichever solver works on it: on 21 positions after moves
            // that lost 13x13 games to MoHex, widening 0.25 settled 20 in
            // 3 s, 18 of them sooner than 0.5, which settled 17.
            let focus_widening = self.solver.params.widening;
            let spawn = |slot: &mut SolverSlot, m: Cell, then_root: bool| {
                let mut verifier = slot.lend(Duration::ZERO)?;
                let (pos, verify_stop, verdict_tx) =
                    (pos.clone(), verify_stop.clone(), verdict_tx.clone());
                Some(std::thread::spawn(move || {
                    let verdict = for_genmove(&mut verifier, |v| {
                        verify(
                            v,
                            &pos,
                            color,
                            m,
                            &verify_stop,
                            move_end,
                            Focus {
                                widening: focus_widening,
                                then_root,
                            },
                        )
                    });
                    let _ = verdict_tx.send((then_root, verdict));
                    verifier
                }))
            };
            let job = choice.and_then(|m| spawn(&mut self.verifier, m, true));
            let second_job = second.and_then(|m| spawn(&mut self.solver, m, false));
            drop(verdict_tx);
            let mut verdict = None;
            let mut second_verdict = None;
            let proved_win = |v: &Option<Verdict>| proves_win(v, color);
            // In slices, so that an interrupt still ends the wait at once.
            while proof.is_none() && verdict.is_none() && !proved_win(&second_verdict) {
                let now = Instant::now();
                if now >= until || interrupt.load(Ordering::SeqCst) || halt.load(Ordering::SeqCst) {
                    break;
                }
                for (of_choice, v) in verdict_rx.try_iter() {
                    if of_choice {
                        verdict = Some(v);
                    } else {
                        second_verdict = Some(v);
                    }
                }
                if verdict.is_some() || proved_win(&second_verdict) {
                    break;
                }
                let slice = (until - now).min(Duration::from_millis(5));
                match rx.recv_timeout(slice) {
                    Ok(p) => proof = Some(p),
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        // No solver answers (none runs, or it panicked):
                        // wait for the verifiers alone.
                        if job.is_none() && second_job.is_none() {
                            break;
                        }
                        std::thread::sleep(slice);
                    }
                }
            }
            verify_stop.store(true, Ordering::SeqCst);
            let pending = usize::from(job.is_some() && verdict.is_none())
                + usize::from(second_job.is_some() && second_verdict.is_none());
            let grace_end = Instant::now() + SOLVER_GRACE;
            for _ in 0..pending {
                let left = grace_end.saturating_duration_since(Instant::now());
                match verdict_rx.recv_timeout(left) {
                    Ok((true, v)) => verdict = Some(v),
                    Ok((false, v)) => second_verdict = Some(v),
                    Err(_) => break,
                }
            }
            if let Some(h) = job {
                self.verifier.return_later(h);
            }
            if let Some(h) = second_job {
                self.solver.return_later(h);
            }
            let name = |m: Cell| pos.geometry().name(m);
            log::debug!(
                "verifier: {:?} on {:?}, {:?} on {:?}",
                verdict.as_ref().map(|v| match v {
                    Verdict::Choice(m, r) => format!("{} {r:?}", name(*m)),
                    Verdict::Root(b) => format!("root {:?}", b.outcome),
                }),
                choice.map(name),
                second_verdict.as_ref().map(|v| match v {
                    Verdict::Choice(m, r) => format!("{} {r:?}", name(*m)),
                    Verdict::Root(b) => format!("root {:?}", b.outcome),
                }),
                second.map(name),
            );
            // The next move proved to win, or refuted.
            match second_verdict {
                Some(Verdict::Choice(m, SolveOutcome::Win(w))) if w != color => {
                    log::info!("verifier: {} is proved to lose", name(m));
                    refuted.insert(m);
                }
                Some(Verdict::Choice(m, SolveOutcome::Win(_)))
                    if !proved_win(&verdict) && proof.is_none() =>
                {
                    log::info!("verifier: {} is proved to win", name(m));
                    verified = Some(m);
                    break;
                }
                _ => {}
            }
            match verdict {
                _ if proof.is_some() => break,
                Some(
                    Verdict::Choice(m, SolveOutcome::Win(w))
                    | Verdict::Root(BestMove {
                        outcome: SolveOutcome::Win(w),
                        mv: Some(m),
                    }),
                ) if w == color => {
                    log::info!("verifier: {} is proved to win", name(m));
                    verified = Some(m);
                    break;
                }
                Some(Verdict::Choice(m, SolveOutcome::Win(_)))
                    if move_end.saturating_duration_since(Instant::now()) >= MIN_RESEARCH =>
                {
                    // Refuted while there is time: search again without it.
                    log::info!("verifier: {} is proved to lose; searching again", name(m));
                    refuted.insert(m);
                    let (share, leave_rest) =
                        share_of(move_end.saturating_duration_since(Instant::now()));
                    let again = TimeControl {
                        max_time: share,
                        time_left: None,
                        stones_left: None,
                    };
                    let request = Request {
                        excluded: refuted,
                        leave_rest,
                        ..first
                    };
                    outcome = self
                        .searcher
                        .search_excluding(request, &params, &again, interrupt, report);
                }
                Some(Verdict::Choice(m, SolveOutcome::Win(_))) => {
                    // Refuted with too little time to search again: the
                    // search's next move in its order, verified in turn
                    // while the move's time lasts.
                    refuted.insert(m);
                    let Some(next) = next_unrefuted(pos, color, &outcome.ranked, refuted) else {
                        break;
                    };
                    log::info!(
                        "verifier: {} is proved to lose; trying {}",
                        name(m),
                        name(next)
                    );
                    play_instead(&mut outcome, next);
                    // Past the move's end the next move is played as it
                    // is: trying one after another, each with its grace,
                    // would run on for as many moves as the search ranked.
                    if Instant::now() >= move_end {
                        break;
                    }
                }
                _ => break,
            }
        }
        if let Some(h) = handle {
            solver_stop.store(true, Ordering::SeqCst);
            self.solver.return_later(h);
            proof = proof.or_else(|| rx.recv_timeout(SOLVER_GRACE).ok());
        }
        // Without a proof of the whole position, the solver may still have
        // proved the search's move a loss: then play its best other move.
        let proof = match (proof, verified) {
            (None | Some(BestMove { mv: None, .. }), Some(m)) => Some(BestMove {
                outcome: SolveOutcome::Win(color),
                mv: Some(m),
            }),
            (p, _) => p,
        };
        let proved = matches!(
            proof,
            Some(BestMove {
                outcome: SolveOutcome::Win(_),
                mv: Some(_)
            })
        );
        // The root's last report, with the moves refuted on their own as
        // losses too (they may have come after it).
        let mut children = root_rx.try_iter().last().unwrap_or_default();
        for c in refuted.iter() {
            match children.iter_mut().find(|(x, _)| *x == c) {
                Some(entry) => entry.1 = ChildStatus::Loss,
                None => children.push((c, ChildStatus::Loss)),
            }
        }
        if let (false, Decision::Move(choice)) = (proved, outcome.decision)
            && let Some(other) =
                crate::solver::avoid_proven_loss(choice, &outcome.ranked, &children)
        {
            log::info!(
                "solver: {} is proved to lose; playing {}",
                pos.geometry().name(choice),
                pos.geometry().name(other)
            );
            play_instead(&mut outcome, other);
        }
        if let Some(BestMove {
            outcome: SolveOutcome::Win(winner),
            mv: Some(cell),
        }) = proof
        {
            log::info!(
                "solver: {winner} wins; {} {}",
                if winner == color {
                    "winning move"
                } else {
                    "longest resistance"
                },
                pos.geometry().name(cell)
            );
            // A win the search has proved as well keeps the search's move:
            // its wins are the shortest it found, and at the root the one
            // leaving the least to defend (`ConnSearch::simplest_win`); the
            // solver's (`Solver::simplest_win`) is the quickest among the
            // proofs it had time to find.
            let search_won = crate::search::score_is_win(outcome.score);
            if winner == color && search_won {
                log::info!("solver: the search's proved win stands");
            } else {
                if winner == color || outcome.decision != Decision::Resign {
                    play_instead(&mut outcome, cell);
                }
                // The move is the proof's, and so is its score: a proved
                // position reads as one in the log and the reports, not
                // with the evaluation the search left behind.
                outcome.score = crate::search::proved_score(winner == color);
            }
        }
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::EvalKind;
    use crate::solver::MoveOrder;

    #[test]
    fn genmove_solves_with_its_own_ordering_and_gives_the_solver_back_as_it_was() {
        let mut solver = Solver::new(&SolverParams {
            tt_mb: 1,
            ..SolverParams::default()
        });
        let during = for_genmove(&mut solver, |s| s.params().ordering);
        assert_eq!(during, MoveOrder::Eval(EvalKind::Resistance));
        // dfpn-solve-state, which shares the solver, keeps its ordering.
        assert_eq!(solver.params().ordering, MoveOrder::Connections);
        assert_eq!(solver.params().tt_mb, 1);
    }

    #[test]
    fn in_short_moves_the_search_leaves_the_verifier_what_it_does_not_need() {
        // At 1 s the verifier's 0.4 s is short of its focus on the choice:
        // the search may take up to 0.8 s, but stops after its last depth
        // that fits.
        assert_eq!(
            share_of(Duration::from_secs(1)),
            (Duration::from_millis(800), true)
        );
        // At 10 s the verifier's 4 s covers that focus: the search runs
        // to its 6 s and keeps what its last depth finished.
        assert_eq!(
            share_of(Duration::from_secs(10)),
            (Duration::from_secs(6), false)
        );
    }

    #[test]
    fn the_fallback_after_refutations_passes_over_a_move_lost_at_once() {
        // Black's b2 on 4x4 joins both edges unless White breaks at b3
        // (its mustplay): a1 leaves Black the connection to play.
        let pos = Position::from_names(4, 4, &["b2"], &[]);
        let cell = |s: &str| pos.geometry().parse_cell(s).unwrap();
        let ranked = [cell("d1"), cell("a1"), cell("b3"), cell("c3")];
        let refuted = CellSet::from_iter([cell("d1")]);
        assert_eq!(
            next_unrefuted(&pos, Color::White, &ranked, refuted),
            Some(cell("b3")),
            "a1 loses at once"
        );
        // With every candidate left lost, the first of them is played.
        let lost = [cell("a1"), cell("d4")];
        assert_eq!(
            next_unrefuted(&pos, Color::White, &lost, CellSet::EMPTY),
            Some(cell("a1"))
        );
        assert_eq!(
            next_unrefuted(
                &pos,
                Color::White,
                &lost[..1],
                CellSet::from_iter([cell("a1")])
            ),
            None
        );
        // On a board the connection search does not cover, the search's
        // order stands.
        let big = Position::from_names(17, 17, &[], &[]);
        let ranked: Vec<Cell> = ["i9", "h9", "j9", "i8", "i10", "h10", "j8", "g9", "k9", "a1"]
            .iter()
            .map(|s| big.geometry().parse_cell(s).unwrap())
            .collect();
        assert_eq!(
            next_unrefuted(&big, Color::White, &ranked, CellSet::EMPTY),
            Some(ranked[0])
        );
    }

    #[test]
    fn a_solver_finishing_the_last_move_is_waited_for() {
        // A script sends the next genmove as soon as the last one is
        // answered, while the solver lent to it is still winding down.
        let mut slot = SolverSlot::new(SolverParams::default());
        let solver = slot.lend(Duration::ZERO).expect("an idle solver");
        slot.return_later(std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            solver
        }));
        assert!(
            slot.lend(LEND_WAIT).is_some(),
            "the next move must get the solver"
        );
    }
}
