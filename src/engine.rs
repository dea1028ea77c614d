//! The session facade the protocol driver calls: one game, the engine's
//! parameters and the searcher, with play, undo, genmove and stop.

use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::board::{Cell, CellSet, Color};
use crate::eval::{CellValues, EvalKind};
use crate::game::{Game, Move, TimeSettings};
use crate::htp::command::{MoveArg, ParamSetting};
use crate::knowledge::{Endpoint, Knowledge};
use crate::search::{Decision, Level, SearchParams, SearchReport, Searcher, TimeControl};
use crate::solver::swap;
use crate::solver::{BestMove, ChildStatus, Progress, SolveOutcome, Solver, SolverParams};
use crate::textboard::Letters;
use crate::tools::render::SvgOptions;

/// The largest file `loadsgf` or `loadboard` reads; real ones are a few
/// kilobytes.
const MAX_INPUT_BYTES: u64 = 16 << 20;

/// How long genmove waits, after its search, for the solver to stop.
const SOLVER_GRACE: Duration = Duration::from_millis(10);

/// The longest genmove waits for a solver still finishing the last move.
const LEND_WAIT: Duration = Duration::from_millis(300);

/// The least time left in a move for which genmove searches again when
/// the verifier refutes the search's answer.
const MIN_RESEARCH: Duration = Duration::from_millis(200);

/// The verifier's table, as a share of the solver's (its proofs are of
/// one move's subtree at a time).
const VERIFIER_TT_SHARE: usize = 2;

/// How long the verifier works on the search's choice before it turns to
/// the whole position.
const FOCUS_LIMIT: Duration = Duration::from_secs(2);

/// The verifier's settings: the solver's, with half the table and twice
/// the widening. On the whole position the two then make a portfolio:
/// df-pn's time to a proof varies a lot with its settings (at 10 s each,
/// widening 0.25 proves endgame.tst's close-endgame05 and random-endgame15
/// but not random-endgame04, and 0.5 the other way round).
fn verifier_params(p: &SolverParams) -> SolverParams {
    SolverParams {
        tt_mb: (p.tt_mb / VERIFIER_TT_SHARE).max(1),
        use_guifx: false,
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
    let params = solver.params().clone();
    let mut best = if params.late_widening != params.widening {
        let first = solver.best_move_until(pos, color, stop, halfway_to(move_end), progress);
        if first.outcome == SolveOutcome::Unknown && !stop.load(Ordering::SeqCst) {
            solver.set_params(&SolverParams {
                widening: params.late_widening,
                ..params.clone()
            });
            let late = solver.best_move(pos, color, stop, progress);
            solver.set_params(&params);
            late
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

/// Halfway from now to `end` (now, once `end` has passed).
fn halfway_to(end: Instant) -> Instant {
    let now = Instant::now();
    now + end.saturating_duration_since(now) / 2
}

/// The verifier's work on the search's choice `m`: up to [`FOCUS_LIMIT`]
/// proving or refuting it; if it stays open, the rest of the time goes to
/// the whole position, solved with another widening than the solver's
/// (see [`verifier_params`]).
fn verify(
    verifier: &mut Solver,
    pos: &crate::board::Position,
    color: Color,
    m: Cell,
    stop: &AtomicBool,
    move_end: Instant,
) -> Verdict {
    let mut child = pos.clone();
    child.play(color, m);
    let until = Instant::now() + FOCUS_LIMIT;
    let r = verifier.solve_until(&child, color.opponent(), stop, until);
    if r != SolveOutcome::Unknown || stop.load(Ordering::SeqCst) {
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
struct SolverSlot {
    params: SolverParams,
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
    fn get(&mut self) -> &mut Solver {
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

    fn try_set_params(&mut self, params: SolverParams) -> Result<(), String> {
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
const DEFAULT_SOLVER_EMPTY: usize = 100;

/// The largest table a `tt_mb` parameter may ask for, in MiB; a size
/// beyond what the process may still take is refused as well
/// ([`crate::memory::check_table`]).
pub const MAX_TABLE_MIB: usize = 65536;

/// In safe mode, the largest table a `tt_mb` parameter may ask for, in MiB.
pub const SAFE_TABLE_MIB: usize = 1024;

pub struct Engine {
    game: Game,
    params: SearchParams,
    max_time: Duration,
    /// Send HexGui live-graphics blocks during genmove.
    use_guifx: bool,
    searcher: Searcher,
    stop: Arc<AtomicBool>,
    /// The principal variation of the last search, from its first move.
    last_pv: Option<(Color, Vec<Cell>)>,
    solver: SolverSlot,
    /// A second solver, for the search's own answer: when the search ends
    /// before the move's time is up, its core is free, and the verifier
    /// tries to prove or refute the move the search chose (see genmove).
    verifier: SolverSlot,
    /// The solver joins genmove, on a thread of its own, when at most this
    /// many cells are empty (0: never).
    solver_in_genmove_empty: usize,
    /// Safe mode, for input the operator does not control: no command
    /// reads or writes files, and tables and threads are capped. Once on,
    /// it stays on.
    safe: bool,
}

/// What `genmove` decided, for the protocol layer to print.
pub struct GenMoveResult {
    pub text: String,
    pub elapsed: Duration,
}

impl Engine {
    pub fn new(params: SearchParams, max_time: Duration) -> Engine {
        Engine {
            game: Game::new(11, 11).expect("11x11 is a valid size"),
            searcher: Searcher::new(&params),
            params,
            max_time,
            use_guifx: false,
            stop: Arc::new(AtomicBool::new(false)),
            last_pv: None,
            solver: SolverSlot::new(SolverParams::default()),
            verifier: SolverSlot::new(verifier_params(&SolverParams::default())),
            solver_in_genmove_empty: DEFAULT_SOLVER_EMPTY,
            safe: false,
        }
    }

    /// Turns safe mode on for the rest of the session (`--safe`,
    /// `param_game safe 1`).
    pub fn set_safe(&mut self) {
        self.safe = true;
    }

    /// Refuses `what` on `path` in safe mode.
    fn file_access(&self, what: &str, path: &str) -> Result<(), String> {
        if self.safe {
            Err(format!(
                "safe mode: files are off limits (cannot {what} {path})"
            ))
        } else {
            Ok(())
        }
    }

    /// A table size for `name` in MiB, within the bounds (lower in safe
    /// mode).
    fn table_size(&self, name: &str, value: &str) -> Result<usize, String> {
        if self.safe {
            parse_number_why(name, value, (1, SAFE_TABLE_MIB), " in safe mode")
        } else {
            parse_number(name, value, 1, MAX_TABLE_MIB)
        }
    }

    pub fn use_guifx(&self) -> bool {
        self.use_guifx
    }

    /// The flag that stops a running search; the driver's reader thread
    /// raises it when `# interrupt` arrives.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    fn new_game(&mut self, game: Game) {
        self.game = game;
        self.searcher.clear();
        self.last_pv = None;
    }

    pub fn boardsize(&mut self, width: usize, height: usize) -> Result<(), String> {
        let mut game = Game::new(width, height)?;
        game.allow_swap = self.game.allow_swap;
        game.clocks = self.game.clocks.clone();
        self.new_game(game);
        Ok(())
    }

    pub fn clear_board(&mut self) {
        let game = self.game.cleared();
        self.new_game(game);
    }

    fn cell(&self, col: usize, row: usize) -> Result<Cell, String> {
        let g = self.game.geometry();
        g.cell_at(col, row).ok_or_else(|| {
            format!(
                "cell {} is off the {}x{} board",
                MoveArg::Cell { col, row }.describe(),
                g.width(),
                g.height()
            )
        })
    }

    pub fn play(&mut self, color: Color, mv: MoveArg) -> Result<(), String> {
        let mv = match mv {
            MoveArg::Cell { col, row } => Move::Cell(self.cell(col, row)?),
            MoveArg::Swap => Move::Swap,
        };
        self.game.play(color, mv)
    }

    pub fn undo(&mut self) -> Result<(), String> {
        self.game.undo()
    }

    /// Searches for `color`'s move and, when `commit`, plays it. `report`
    /// receives the search's progress after each finished depth.
    pub fn genmove(
        &mut self,
        color: Color,
        commit: bool,
        report: &mut dyn FnMut(&SearchReport),
    ) -> Result<GenMoveResult, String> {
        if let Some(w) = self.game.winner() {
            return Err(format!("the game is over: {w} has won"));
        }
        if let Some(text) = self.opening_decision(color, commit)? {
            return Ok(GenMoveResult {
                text,
                elapsed: Duration::ZERO,
            });
        }
        let left = self.game.clocks.left(color);
        let time = TimeControl {
            max_time: self.max_time,
            time_left: left.map(|(t, _)| t),
            stones_left: left.and_then(|(_, s)| s),
        };
        let start = Instant::now();
        let pos = self.game.position();
        let use_solver = self.solver_in_genmove_empty > 0
            && pos.empty_cells().len() <= self.solver_in_genmove_empty;
        // The solver runs on a thread of its own beside the search. When it
        // proves the game and has the move, it stops the search at once.
        // When the search ends first (time, or an interrupt), the solver is
        // told to stop and given a moment; if it is still busy, the move is
        // answered anyway and the solver finishes on its own, so genmove
        // keeps to its time whatever the solver is doing.
        let budget = crate::search::time_budget(&time, pos.empty_cells().len(), self.params.level);
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
            let (pos, stop, solver_stop) = (pos.clone(), self.stop.clone(), solver_stop.clone());
            std::thread::spawn(move || {
                let best =
                    solve_for_move(&mut solver, &pos, color, &solver_stop, move_end, &mut |p| {
                        let _ = root_tx.send(p.children.clone());
                    });
                if best.outcome == SolveOutcome::Win(color) && best.mv.is_some() {
                    stop.store(true, Ordering::SeqCst);
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
        let mut params = self.params.clone();
        let threads = crate::search::thread_count(params.threads);
        if use_solver && threads > 1 {
            params.threads = threads - 1;
        }
        // Moves the verifier has refuted, which searches again leave out.
        let mut refuted = CellSet::EMPTY;
        let mut outcome = self
            .searcher
            .search(pos, color, &params, &time, &self.stop, report);
        // A winning move the verifier proved.
        let mut verified = None;
        let proof = handle.and_then(|h| {
            let mut proof = None;
            loop {
                // A search that stopped early on its own (its next depth
                // would not fit) leaves the rest of the move's time to the
                // solver; after an interrupt or a proof, or when the root's
                // connections alone chose the move (a won position or a
                // forced reply), the solver gets only a moment.
                let settled = crate::search::score_is_win(outcome.score) || outcome.nodes <= 1;
                let interrupted = self.stop.load(Ordering::SeqCst);
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
                    Decision::Move(m) if !settled && !interrupted => Some(m),
                    _ => None,
                };
                // The verifier, on a thread of its own like the solver: at
                // the move's end it is told to stop and given a moment;
                // one still busy finishes on its own and misses a move, so
                // that genmove keeps to its time.
                let verify_stop = Arc::new(AtomicBool::new(false));
                let (verdict_tx, verdict_rx) = mpsc::channel();
                let job = choice.and_then(|m| {
                    let mut verifier = self.verifier.lend(Duration::ZERO)?;
                    let (pos, verify_stop) = (pos.clone(), verify_stop.clone());
                    Some(std::thread::spawn(move || {
                        let verdict = verify(&mut verifier, &pos, color, m, &verify_stop, move_end);
                        let _ = verdict_tx.send(verdict);
                        verifier
                    }))
                });
                let mut verdict = None;
                // In slices, so that an interrupt still ends the wait at
                // once.
                while proof.is_none() && verdict.is_none() {
                    let now = Instant::now();
                    if now >= until || self.stop.load(Ordering::SeqCst) {
                        break;
                    }
                    if let Ok(v) = verdict_rx.try_recv() {
                        verdict = Some(v);
                        break;
                    }
                    match rx.recv_timeout((until - now).min(Duration::from_millis(5))) {
                        Ok(p) => proof = Some(p),
                        Err(mpsc::RecvTimeoutError::Timeout) => {}
                        Err(mpsc::RecvTimeoutError::Disconnected) => {
                            // The solver ended without an answer (it
                            // panicked): wait for the verifier alone.
                            if job.is_none() {
                                break;
                            }
                            std::thread::sleep((until - now).min(Duration::from_millis(5)));
                        }
                    }
                }
                verify_stop.store(true, Ordering::SeqCst);
                if let Some(h) = job {
                    if verdict.is_none() {
                        verdict = verdict_rx.recv_timeout(SOLVER_GRACE).ok();
                    }
                    self.verifier.return_later(h);
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
                        log::info!("verifier: {} is proved to win", pos.geometry().name(m));
                        verified = Some(m);
                        break;
                    }
                    Some(Verdict::Choice(m, SolveOutcome::Win(_)))
                        if move_end.saturating_duration_since(Instant::now()) >= MIN_RESEARCH =>
                    {
                        // Refuted while there is time: search again without it.
                        log::info!(
                            "verifier: {} is proved to lose; searching again",
                            pos.geometry().name(m)
                        );
                        refuted.insert(m);
                        let again = TimeControl {
                            max_time: move_end.saturating_duration_since(Instant::now()),
                            time_left: None,
                            stones_left: None,
                        };
                        outcome = self.searcher.search_excluding(
                            pos, color, &params, &again, &self.stop, refuted, report,
                        );
                    }
                    Some(Verdict::Choice(m, SolveOutcome::Win(_))) => {
                        refuted.insert(m);
                        break;
                    }
                    _ => break,
                }
            }
            solver_stop.store(true, Ordering::SeqCst);
            self.solver.return_later(h);
            proof.or_else(|| rx.recv_timeout(SOLVER_GRACE).ok())
        });
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
            outcome.decision = Decision::Move(other);
            outcome.pv = vec![other];
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
            // leaving the least to defend (`Knowledge::simplest_win`); the
            // solver's (`Solver::simplest_win`) is the quickest among the
            // proofs it had time to find.
            let search_won = crate::search::score_is_win(outcome.score);
            if winner == color && search_won {
                log::info!("solver: the search's proved win stands");
            } else if winner == color || outcome.decision != Decision::Resign {
                outcome.decision = Decision::Move(cell);
                outcome.pv = vec![cell];
            }
        }
        let elapsed = start.elapsed();
        self.last_pv = Some((color, outcome.pv.clone()));
        let text = match outcome.decision {
            Decision::Resign => "resign".to_string(),
            Decision::Move(cell) => {
                if commit {
                    self.game.play(color, Move::Cell(cell))?;
                    self.game.clocks.charge(color, elapsed);
                }
                self.game.geometry().name(cell)
            }
        };
        log::info!(
            "genmove {color}: {text} (depth {}, score {}, {} nodes, {:.2} s)",
            outcome.depth,
            outcome.score,
            outcome.nodes,
            elapsed.as_secs_f64()
        );
        Ok(GenMoveResult { text, elapsed })
    }

    /// Under the swap rule, the first two moves come from the swap tables
    /// (see `solver::swap`): White swaps a first stone that wins for the
    /// first player, and Black opens where White should not swap.
    fn opening_decision(&mut self, color: Color, commit: bool) -> Result<Option<String>, String> {
        if !self.game.allow_swap {
            return Ok(None);
        }
        let g = self.game.geometry();
        if color == Color::White {
            if let Some(first) = self
                .game
                .swappable_stone()
                .filter(|&c| swap::swap_first_move(g, c))
            {
                log::info!("swap: {} wins for the first player", g.name(first));
                if commit {
                    self.game.play(color, Move::Swap)?;
                }
                return Ok(Some("swap-pieces".into()));
            }
        } else if self.game.position().num_stones() == 0
            && let Some(&cell) = swap::first_move_avoiding_swap(g).first()
        {
            let name = g.name(cell);
            log::info!("opening {name}: a first move the opponent should not swap");
            if commit {
                self.game.play(color, Move::Cell(cell))?;
            }
            return Ok(Some(name));
        }
        Ok(None)
    }

    /// The principal variation of the last search, as `b e5 w f6 ...`.
    pub fn last_pv(&self) -> String {
        let Some((mut color, pv)) = self.last_pv.clone() else {
            return String::new();
        };
        let g = self.game.geometry();
        let mut out = Vec::new();
        for cell in pv {
            out.push(format!(
                "{} {}",
                color.letter().to_ascii_lowercase(),
                g.name(cell)
            ));
            color = color.opponent();
        }
        out.join(" ")
    }

    fn evaluator_position(&self) -> Result<&crate::board::Position, String> {
        match self.game.winner() {
            Some(w) => Err(format!("the game is over: {w} has won")),
            None => Ok(self.game.position()),
        }
    }

    /// Each empty cell's value under evaluation `kind` (the search's own
    /// when `None`), for `color` to move: `CELL VALUE` pairs.
    pub fn eval_cells(&self, kind: Option<EvalKind>, color: Color) -> Result<String, String> {
        let pos = self.evaluator_position()?;
        let mut evaluator = kind.unwrap_or(self.params.eval).build();
        let mut values: Box<CellValues> = Box::new([0; crate::board::MAX_CELLS]);
        evaluator.evaluate_cells(pos, color, &mut values);
        let g = pos.geometry();
        Ok(pos
            .empty_cells()
            .iter()
            .map(|c| format!("{} {}", g.name(c), values[c.index()]))
            .collect::<Vec<_>>()
            .join(" "))
    }

    /// Every evaluation's score for `color` and each side's raw measure.
    pub fn eval_summary(&self, kinds: &[EvalKind], color: Color) -> Result<String, String> {
        let pos = self.evaluator_position()?;
        let mut lines = Vec::new();
        for &kind in kinds {
            let mut evaluator = kind.build();
            let score = evaluator.evaluate(pos, color);
            let [black, white] = evaluator.measures(pos);
            let what = match kind {
                EvalKind::Dist01 => "stones needed",
                EvalKind::TwoDistance => "best potential",
                EvalKind::Resistance => "resistance",
            };
            lines.push(format!(
                "{kind}: score {score} for {color}; {what}: black {black:.3} white {white:.3}"
            ));
        }
        Ok(lines.join("\n"))
    }

    fn solver_position(&mut self) -> Result<(), String> {
        match self.game.winner() {
            Some(w) => Err(format!("the game is over: {w} has won")),
            None => Ok(()),
        }
    }

    /// `dfpn-solve-state`: the winner with `color` to move, or `unknown`
    /// when the time limit or an interrupt came first.
    pub fn solve_state(
        &mut self,
        color: Color,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<String, String> {
        if let Some(w) = self.game.winner() {
            return Ok(w.name().to_string());
        }
        let outcome = self
            .solver
            .get()
            .solve(self.game.position(), color, &self.stop, progress);
        self.log_solver();
        Ok(match outcome {
            SolveOutcome::Win(w) => w.name().to_string(),
            SolveOutcome::Unknown => "unknown".to_string(),
        })
    }

    /// `dfpn-solver-find-winning`: every winning move for `color`.
    pub fn solve_winning_moves(
        &mut self,
        color: Color,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<String, String> {
        self.solver_position()?;
        let moves =
            self.solver
                .get()
                .winning_moves(self.game.position(), color, &self.stop, progress);
        self.log_solver();
        let moves = moves.ok_or("unknown: the solver stopped before proving every move")?;
        let g = self.game.geometry();
        Ok(moves
            .iter()
            .map(|&c| g.name(c))
            .collect::<Vec<_>>()
            .join(" "))
    }

    fn log_solver(&mut self) {
        let s = self.solver.get().stats();
        log::info!(
            "solver: {} nodes in {:.2} s ({:.0}/s), table {}/{}",
            s.nodes,
            s.elapsed.as_secs_f64(),
            s.nodes_per_second,
            s.tt_entries,
            s.tt_capacity
        );
    }

    pub fn clear_solver_table(&mut self) {
        self.solver.get().clear_tt();
        self.verifier.get().clear_tt();
    }

    pub fn solver_params(&self) -> &SolverParams {
        &self.solver.params
    }

    /// `param_dfpn`: lists the solver's parameters, or sets one.
    pub fn param_solver(&mut self, setting: &ParamSetting) -> Result<String, String> {
        let mut p = self.solver.params.clone();
        let Some((name, value)) = setting else {
            return Ok([
                format!(
                    "[string] max_time {}",
                    p.max_time.map_or(0.0, |t| t.as_secs_f64())
                ),
                format!("[string] tt_mb {}", p.tt_mb),
                format!("[bool] use_guifx {}", p.use_guifx as u8),
                format!("[bool] use_knowledge {}", p.use_knowledge as u8),
                format!("[bool] use_vc {}", p.use_vc as u8),
                format!("[bool] incremental {}", p.incremental as u8),
                format!("[string] ordering {}", p.ordering.name()),
                format!("[string] epsilon {}", p.epsilon),
                format!("[string] widening {}", p.widening),
                format!("[string] late_widening {}", p.late_widening),
                format!("[bool] lookahead {}", p.lookahead as u8),
                format!("[bool] vulnerable {}", p.vulnerable as u8),
                format!("[bool] decompositions {}", p.decompositions as u8),
                format!("[string] genmove_empty {}", self.solver_in_genmove_empty),
            ]
            .join("\n"));
        };
        match name.as_str() {
            "max_time" => {
                let secs: f64 = value
                    .parse()
                    .ok()
                    .filter(|s: &f64| s.is_finite() && (0.0..=1.0e6).contains(s))
                    .ok_or_else(|| {
                        format!("invalid max_time: {value} (seconds, 0 to 1000000, 0 for no limit)")
                    })?;
                p.max_time = (secs > 0.0).then(|| Duration::from_secs_f64(secs));
            }
            "tt_mb" => {
                p.tt_mb = self.table_size(name, value)?;
                // The verifier's table comes with it.
                let both = p.tt_mb + verifier_params(&p).tt_mb;
                crate::memory::check_table(both, "solver's tables")?;
            }
            "use_guifx" => p.use_guifx = parse_bool(value)?,
            "use_knowledge" => p.use_knowledge = parse_bool(value)?,
            "use_vc" => p.use_vc = parse_bool(value)?,
            "incremental" => p.incremental = parse_bool(value)?,
            "ordering" | "epsilon" | "widening" | "late_widening" | "lookahead" | "vulnerable"
            | "decompositions" => p.set(name, value)?,
            "genmove_empty" => {
                self.solver_in_genmove_empty =
                    parse_number(name, value, 0, crate::board::MAX_CELLS)?;
                return Ok(String::new());
            }
            _ => {
                return Err(format!(
                    "unknown parameter: {name} (param_dfpn knows max_time, tt_mb, use_guifx, use_knowledge, use_vc, incremental, vulnerable, decompositions, ordering, epsilon, widening, late_widening, lookahead, genmove_empty)"
                ));
            }
        }
        // The new tables are allocated before either is replaced, so a
        // size that cannot be had leaves both as they were.
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
        Ok(String::new())
    }

    /// `vc-build`: the inferior cells of the position for `color`, as
    /// HexGui draws them (`CELL CODE` pairs).
    pub fn inferior_cells(&self, color: Color) -> Result<String, String> {
        let pos = self.evaluator_position()?;
        Ok(crate::knowledge::gui::gui_inferior(pos, color))
    }

    /// `vc-get-mustplay`: the cells where `color` can avoid losing at once
    /// to one of the opponent's edge-to-edge semi-connections.
    pub fn mustplay(&self, color: Color) -> Result<String, String> {
        let pos = self.evaluator_position()?;
        let k = Knowledge::new(pos);
        Ok(crate::knowledge::gui::gui_mustplay(&k, color))
    }

    /// `vc-between-cells-full|semi`: `color`'s connections between two
    /// cells (or edges: north, south, west, east), in HexGui's VC-list form
    /// `COLOR FROM TO TYPE SOURCE [ CARRIER ] [ STONES ] [KEY]`.
    pub fn connections(
        &self,
        color: Color,
        from: &str,
        to: &str,
        full: bool,
    ) -> Result<String, String> {
        let pos = self.evaluator_position()?;
        let g = pos.geometry();
        let end = |s: &str| {
            Endpoint::parse(g, s).ok_or_else(|| {
                format!("invalid endpoint: {s} (a cell, or north, south, west, east)")
            })
        };
        let (a, b) = (end(from)?, end(to)?);
        let k = Knowledge::new(pos);
        let (fulls, semis) = crate::knowledge::connections(k.vcs(color), a, b);
        let names = |set: &crate::board::CellSet| {
            set.iter().map(|c| g.name(c)).collect::<Vec<_>>().join(" ")
        };
        let head = format!("{} {} {}", color.name(), a.name(g), b.name(g));
        let lines: Vec<String> = if full {
            fulls
                .iter()
                .map(|c| format!("{head} full hsearch [ {} ] [ ]", names(c)))
                .collect()
        } else {
            semis
                .iter()
                .map(|s| {
                    format!(
                        "{head} semi hsearch [ {} ] [ ] {}",
                        names(&s.carrier),
                        g.name(s.key)
                    )
                })
                .collect()
        };
        Ok(lines.join("\n"))
    }

    pub fn final_score(&self) -> Result<String, String> {
        match self.game.winner() {
            Some(Color::Black) => Ok("B+".into()),
            Some(Color::White) => Ok("W+".into()),
            None => Err("the game is not over: nobody has won yet".into()),
        }
    }

    /// The empty cells, or none once the game is won. The swap move is not
    /// listed: GUIs draw this answer as cells.
    pub fn legal_moves(&self, _color: Color) -> Vec<String> {
        if self.game.winner().is_some() {
            return Vec::new();
        }
        let g = self.game.geometry();
        self.game
            .position()
            .empty_cells()
            .iter()
            .map(|c| g.name(c))
            .collect()
    }

    pub fn load_sgf(&mut self, path: &str, before_move: Option<usize>) -> Result<(), String> {
        self.file_access("read", path)?;
        let text = read_capped(path)?;
        let record = crate::sgf::parse(&text).map_err(|e| format!("cannot load {path}: {e}"))?;
        let mut game = Game::from_sgf(&record, before_move, self.game.allow_swap)
            .map_err(|e| format!("cannot load {path}: {e}"))?;
        game.clocks = self.game.clocks.clone();
        self.new_game(game);
        Ok(())
    }

    /// `loadboard`: the position in a text diagram file (see
    /// `textboard`), with the letters read as `letters` say.
    pub fn load_diagram(&mut self, path: &str, letters: Letters) -> Result<(), String> {
        self.file_access("read", path)?;
        let text = read_capped(path)?;
        let mut game = crate::textboard::parse_game(&text, letters)
            .map_err(|e| format!("cannot load {path}: {e}"))?;
        game.allow_swap = self.game.allow_swap;
        game.clocks = self.game.clocks.clone();
        self.new_game(game);
        Ok(())
    }

    /// The position as an SVG picture.
    pub fn svg(&self) -> String {
        crate::tools::render::svg(&self.game, &SvgOptions::default())
    }

    pub fn save_svg(&self, path: &str) -> Result<(), String> {
        self.file_access("write", path)?;
        std::fs::write(path, self.svg()).map_err(|e| format!("cannot write {path}: {e}"))
    }

    pub fn sgf(&self) -> String {
        crate::sgf::write(&self.game.to_sgf())
    }

    pub fn save_sgf(&self, path: &str) -> Result<(), String> {
        self.file_access("write", path)?;
        std::fs::write(path, self.sgf()).map_err(|e| format!("cannot write {path}: {e}"))
    }

    pub fn time_left(&mut self, color: Color, seconds: f64, stones: Option<u32>) {
        self.game
            .clocks
            .set_left(color, Duration::from_secs_f64(seconds), stones);
    }

    pub fn time_settings(&mut self, main: f64, byo_time: f64, byo_stones: u32) {
        self.game.clocks.set_settings(TimeSettings {
            main: Duration::from_secs_f64(main),
            byo_time: Duration::from_secs_f64(byo_time),
            byo_stones,
        });
    }

    /// `param_game`: lists the game parameters, or sets one.
    pub fn param_game(&mut self, setting: &ParamSetting) -> Result<String, String> {
        match setting {
            None => Ok(format!(
                "[bool] allow_swap {}\n[bool] safe {}",
                self.game.allow_swap as u8, self.safe as u8
            )),
            Some((name, value)) => match name.as_str() {
                "allow_swap" => {
                    self.game.allow_swap = parse_bool(value)?;
                    Ok(String::new())
                }
                "safe" => match (parse_bool(value)?, self.safe) {
                    (true, _) => {
                        self.safe = true;
                        Ok(String::new())
                    }
                    (false, true) => Err("safe mode cannot be turned off".into()),
                    (false, false) => Ok(String::new()),
                },
                _ => Err(format!(
                    "unknown parameter: {name} (param_game knows allow_swap, safe)"
                )),
            },
        }
    }

    /// `param_ferrohex`: lists the engine parameters, or sets one.
    pub fn param_engine(&mut self, setting: &ParamSetting) -> Result<String, String> {
        let Some((name, value)) = setting else {
            let p = &self.params;
            let levels: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
            let evals: Vec<&str> = EvalKind::ALL.iter().map(|k| k.name()).collect();
            return Ok([
                format!("[string] max_time {}", self.max_time.as_secs_f64()),
                format!("[string] max_depth {}", p.max_depth.unwrap_or(0)),
                format!("[string] threads {}", p.threads),
                format!("[string] tt_mb {}", p.tt_mb),
                format!("[list/{}] level {}", levels.join("/"), p.level),
                format!("[list/{}] eval {}", evals.join("/"), p.eval),
                format!("[string] width {}", p.width),
                format!("[bool] knowledge {}", p.knowledge as u8),
                format!("[string] endgame_empty_pct {}", p.endgame_empty_pct),
                format!("[bool] connection_search {}", p.connection_search as u8),
                format!("[bool] opening_centre {}", p.opening_centre as u8),
                format!("[bool] resign {}", p.resign as u8),
                format!("[bool] use_guifx {}", self.use_guifx as u8),
            ]
            .join("\n"));
        };
        let mut p = self.params.clone();
        match name.as_str() {
            "max_time" => {
                let secs: f64 = value
                    .parse()
                    .ok()
                    .filter(|s: &f64| s.is_finite() && *s > 0.0 && *s <= 1.0e6)
                    .ok_or_else(|| {
                        format!("invalid max_time: {value} (seconds, above 0 and at most 1000000)")
                    })?;
                self.max_time = Duration::from_secs_f64(secs);
                return Ok(String::new());
            }
            "max_depth" => {
                let d = parse_number(name, value, 0, 1000)?;
                p.max_depth = (d > 0).then_some(d as u32);
            }
            "threads" => {
                p.threads = if self.safe {
                    let cores = crate::search::thread_count(0);
                    parse_number_why(name, value, (0, cores), " in safe mode: one per core")?
                } else {
                    parse_number(name, value, 0, 1024)?
                }
            }
            "tt_mb" => {
                p.tt_mb = self.table_size(name, value)?;
                crate::memory::check_table(p.tt_mb, "transposition table")?;
            }
            "width" => p.width = parse_number(name, value, 0, crate::board::MAX_CELLS)?,
            "eval" => p.eval = value.parse()?,
            "use_guifx" => {
                self.use_guifx = parse_bool(value)?;
                return Ok(String::new());
            }
            "level" => p.level = value.parse()?,
            "resign" => p.resign = parse_bool(value)?,
            "knowledge" => p.knowledge = parse_bool(value)?,
            "endgame_empty_pct" => p.endgame_empty_pct = parse_number(name, value, 0, 100)?,
            "connection_search" => p.connection_search = parse_bool(value)?,
            "opening_centre" => p.opening_centre = parse_bool(value)?,
            _ => {
                return Err(format!(
                    "unknown parameter: {name} (param_ferrohex knows max_time, max_depth, threads, tt_mb, level, eval, width, knowledge, endgame_empty_pct, connection_search, opening_centre, resign, use_guifx)"
                ));
            }
        }
        self.searcher.try_set_params(&p)?;
        self.params = p;
        Ok(String::new())
    }
}

/// Reads a regular file of at most `MAX_INPUT_BYTES`, lossily decoded.
fn read_capped(path: &str) -> Result<String, String> {
    let too_big = || format!("cannot read {path}: files over 16 MiB are refused");
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    if meta.is_dir() {
        return Err(format!("cannot read {path}: it is a directory"));
    }
    // Only regular files: a device such as /dev/zero would never end.
    if !meta.is_file() {
        return Err(format!("cannot read {path}: not a regular file"));
    }
    if meta.len() > MAX_INPUT_BYTES {
        return Err(too_big());
    }
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut bytes = Vec::new();
    // The size can change between the check and the read; cap the read too.
    file.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {path}: {e}"))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(too_big());
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn parse_bool(value: &str) -> Result<bool, String> {
    match value {
        "1" | "true" => Ok(true),
        "0" | "false" => Ok(false),
        _ => Err(format!("invalid value: {value} (expected 0 or 1)")),
    }
}

fn parse_number(name: &str, value: &str, min: usize, max: usize) -> Result<usize, String> {
    parse_number_why(name, value, (min, max), "")
}

/// [`parse_number`] with a note on why the bounds are what they are.
fn parse_number_why(
    name: &str,
    value: &str,
    (min, max): (usize, usize),
    why: &str,
) -> Result<usize, String> {
    value
        .parse::<usize>()
        .ok()
        .filter(|v| (min..=max).contains(v))
        .ok_or_else(|| format!("invalid {name}: {value} (expected {min} to {max}{why})"))
}

#[cfg(test)]
mod tests {
    use super::*;

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
