//! The session facade the protocol driver calls: one game, the engine's
//! parameters and the searcher, with play, undo, genmove and stop.

mod settings;

pub use settings::ParamGroup;

use std::io::Read;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::board::{Cell, CellSet, Color};
use crate::eval::{CELL_VALUE_MAX, CellValues, EvalKind};
use crate::game::{Game, Move, MoveArg, TimeSettings};
use crate::knowledge::{Endpoint, Inferiority, Semi, queries};
use crate::portfolio::Portfolio;
use crate::present::textboard::Letters;
use crate::search::connsearch;
use crate::search::{Decision, SearchParams, SearchReport, TimeControl};
use crate::solver::swap;
use crate::solver::{Progress, SolveOutcome, SolverParams};

/// The largest file `loadsgf` or `loadboard` reads; real ones are a few
/// kilobytes.
const MAX_INPUT_BYTES: u64 = 16 << 20;

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
    /// Send HexGui live-graphics blocks while solving.
    solver_guifx: bool,
    /// The search and the solvers that think about genmove's move.
    portfolio: Portfolio,
    /// The user's interrupt (`# interrupt`), which the driver's reader
    /// thread raises.
    stop: Arc<AtomicBool>,
    /// The principal variation of the last search, from its first move.
    last_pv: Option<(Color, Vec<Cell>)>,
    /// Safe mode, for input the operator does not control: no command
    /// reads or writes files, and tables and threads are capped. Once on,
    /// it stays on.
    safe: bool,
}

/// What `genmove` chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Cell(Cell),
    /// The swap rule: take over the opponent's first stone.
    Swap,
    Resign,
}

/// What `genmove` decided and how long it thought.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenMove {
    pub choice: Choice,
    pub elapsed: Duration,
}

/// One evaluation's view of a position (`eval-summary`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measure {
    pub kind: EvalKind,
    /// The score for the colour asked about.
    pub score: i32,
    /// Each side's raw measure (stones needed, best potential, resistance).
    pub black: f64,
    pub white: f64,
}

/// One colour's connections between two endpoints (`vc-between-cells-*`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Connections {
    pub color: Color,
    pub ends: (Endpoint, Endpoint),
    pub fulls: Vec<CellSet>,
    pub semis: Vec<Semi>,
}

impl Engine {
    pub fn new(params: SearchParams, max_time: Duration) -> Engine {
        Engine {
            game: Game::new(11, 11).expect("11x11 is a valid size"),
            portfolio: Portfolio::new(&params),
            params,
            max_time,
            use_guifx: false,
            solver_guifx: false,
            stop: Arc::new(AtomicBool::new(false)),
            last_pv: None,
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

    pub fn use_guifx(&self) -> bool {
        self.use_guifx
    }

    pub fn solver_guifx(&self) -> bool {
        self.solver_guifx
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
        self.portfolio.searcher.clear();
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
    ) -> Result<GenMove, String> {
        if let Some(w) = self.game.winner() {
            return Err(format!("the game is over: {w} has won"));
        }
        if let Some(choice) = self.opening_decision(color, commit)? {
            return Ok(GenMove {
                choice,
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
        let outcome = self.portfolio.think(
            self.game.position(),
            color,
            &self.params,
            &time,
            &self.stop,
            report,
        );
        let elapsed = start.elapsed();
        self.last_pv = Some((color, outcome.pv.clone()));
        let choice = match outcome.decision {
            Decision::Resign => Choice::Resign,
            Decision::Move(cell) => {
                if commit {
                    self.game.play(color, Move::Cell(cell))?;
                    self.game.clocks.charge(color, elapsed);
                }
                Choice::Cell(cell)
            }
        };
        let what = match choice {
            Choice::Cell(c) => self.game.geometry().name(c),
            other => format!("{other:?}"),
        };
        log::info!(
            "genmove {color}: {what} (depth {}, score {}, {} nodes, {:.3} s)",
            outcome.depth,
            outcome.score,
            outcome.nodes,
            elapsed.as_secs_f64()
        );
        Ok(GenMove { choice, elapsed })
    }

    /// Under the swap rule, the first two moves come from the swap tables
    /// (see `solver::swap`): White swaps a first stone that wins for the
    /// first player, and Black opens where White should not swap.
    fn opening_decision(&mut self, color: Color, commit: bool) -> Result<Option<Choice>, String> {
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
                return Ok(Some(Choice::Swap));
            }
        } else if self.game.position().num_stones() == 0
            && let Some(&cell) = swap::first_move_avoiding_swap(g).first()
        {
            let name = g.name(cell);
            log::info!("opening {name}: a first move the opponent should not swap");
            if commit {
                self.game.play(color, Move::Cell(cell))?;
            }
            return Ok(Some(Choice::Cell(cell)));
        }
        Ok(None)
    }

    /// The principal variation of the last search: the colour of its
    /// first move and the moves.
    pub fn last_pv(&self) -> Option<(Color, &[Cell])> {
        self.last_pv.as_ref().map(|(c, pv)| (*c, pv.as_slice()))
    }

    fn evaluator_position(&self) -> Result<&crate::board::Position, String> {
        match self.game.winner() {
            Some(w) => Err(format!("the game is over: {w} has won")),
            None => Ok(self.game.position()),
        }
    }

    /// Each empty cell's value under evaluation `kind` (the search's own
    /// when `None`), for `color` to move.
    pub fn eval_cells(
        &self,
        kind: Option<EvalKind>,
        color: Color,
    ) -> Result<Vec<(Cell, i32)>, String> {
        let pos = self.evaluator_position()?;
        let kind = kind.unwrap_or(self.params.eval);
        if kind == EvalKind::Resistance
            && let Some(view) = connsearch::circuit_view(pos, color)
        {
            // Each circuit carries a unit current: a cell's energy summed
            // over the two is at most about 2.
            let scale = CELL_VALUE_MAX as f64 / 2.0;
            let mut energy = vec![0.0; pos.geometry().num_cells()];
            for (c, e) in view.energy {
                energy[c.index()] = e;
            }
            return Ok(pos
                .empty_cells()
                .iter()
                .map(|c| {
                    let v = (energy[c.index()] * scale).round();
                    (c, v.clamp(0.0, CELL_VALUE_MAX as f64) as i32)
                })
                .collect());
        }
        let mut evaluator = kind.build();
        let mut values: Box<CellValues> = Box::new([0; crate::board::MAX_CELLS]);
        evaluator.evaluate_cells(pos, color, &mut values);
        Ok(pos
            .empty_cells()
            .iter()
            .map(|c| (c, values[c.index()]))
            .collect())
    }

    /// Each evaluation's score for `color` and each side's raw measure.
    pub fn eval_summary(&self, kinds: &[EvalKind], color: Color) -> Result<Vec<Measure>, String> {
        let pos = self.evaluator_position()?;
        Ok(kinds
            .iter()
            .map(|&kind| {
                if kind == EvalKind::Resistance
                    && let Some(view) = connsearch::circuit_view(pos, color)
                {
                    let [black, white] = view.resistance;
                    return Measure {
                        kind,
                        score: view.score,
                        black,
                        white,
                    };
                }
                let mut evaluator = kind.build();
                let score = evaluator.evaluate(pos, color);
                let [black, white] = evaluator.measures(pos);
                Measure {
                    kind,
                    score,
                    black,
                    white,
                }
            })
            .collect())
    }

    /// `dfpn-solve-state`: the winner with `color` to move, or `None`
    /// when the time limit or an interrupt came first.
    pub fn solve_state(
        &mut self,
        color: Color,
        progress: &mut dyn FnMut(&Progress),
    ) -> Option<Color> {
        if let Some(w) = self.game.winner() {
            return Some(w);
        }
        let outcome =
            self.portfolio
                .solver
                .get()
                .solve(self.game.position(), color, &self.stop, progress);
        self.log_solver();
        match outcome {
            SolveOutcome::Win(w) => Some(w),
            SolveOutcome::Unknown => None,
        }
    }

    /// `dfpn-solver-find-winning`: every winning move for `color`.
    pub fn solve_winning_moves(
        &mut self,
        color: Color,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Vec<Cell>, String> {
        self.evaluator_position()?;
        let moves = self.portfolio.solver.get().winning_moves(
            self.game.position(),
            color,
            &self.stop,
            progress,
        );
        self.log_solver();
        moves.ok_or_else(|| "unknown: the solver stopped before proving every move".into())
    }

    fn log_solver(&mut self) {
        let s = self.portfolio.solver.get().stats();
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
        self.portfolio.clear_solver_tables();
    }

    pub fn solver_params(&self) -> &SolverParams {
        &self.portfolio.solver.params
    }

    /// `vc-build`: the cells outside `color`'s consider set, with why.
    pub fn inferior_cells(&self, color: Color) -> Result<Vec<(Cell, Inferiority)>, String> {
        let pos = self.evaluator_position()?;
        Ok(crate::knowledge::inferior_cells(pos, color))
    }

    /// `vc-get-mustplay`: the cells where `color` can avoid losing at once
    /// to one of the opponent's edge-to-edge semi-connections (none when
    /// the position is lost).
    pub fn mustplay(&self, color: Color) -> Result<CellSet, String> {
        let pos = self.evaluator_position()?;
        queries::mustplay(pos, color).ok_or_else(too_large)
    }

    /// `vc-between-cells-full|semi`: `color`'s full (`full`) or semi
    /// connections between two cells or edges (north, south, west, east).
    pub fn connections(
        &self,
        color: Color,
        from: &str,
        to: &str,
        full: bool,
    ) -> Result<Connections, String> {
        let pos = self.evaluator_position()?;
        let g = pos.geometry();
        let end = |s: &str| {
            Endpoint::parse(g, s).ok_or_else(|| {
                format!("invalid endpoint: {s} (a cell, or north, south, west, east)")
            })
        };
        let ends = (end(from)?, end(to)?);
        let (fulls, semis) =
            queries::connections(pos, color, ends.0, ends.1).ok_or_else(too_large)?;
        Ok(if full {
            Connections {
                color,
                ends,
                fulls,
                semis: Vec::new(),
            }
        } else {
            Connections {
                color,
                ends,
                fulls: Vec::new(),
                semis,
            }
        })
    }

    /// The winner, once there is one.
    pub fn final_score(&self) -> Result<Color, String> {
        self.game
            .winner()
            .ok_or_else(|| "the game is not over: nobody has won yet".into())
    }

    /// The empty cells, or none once the game is won. The swap move is not
    /// listed: GUIs draw this answer as cells.
    pub fn legal_moves(&self, _color: Color) -> Vec<Cell> {
        if self.game.winner().is_some() {
            return Vec::new();
        }
        self.game.position().empty_cells().iter().collect()
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
        let mut game = crate::present::textboard::parse_game(&text, letters)
            .map_err(|e| format!("cannot load {path}: {e}"))?;
        game.allow_swap = self.game.allow_swap;
        game.clocks = self.game.clocks.clone();
        self.new_game(game);
        Ok(())
    }

    /// Writes `text` (a picture or a game record the protocol layer made)
    /// to `path`; refused in safe mode.
    pub fn write_file(&self, path: &str, text: &str) -> Result<(), String> {
        self.file_access("write", path)?;
        std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))
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
}

/// The answer to a connection query the bitboards cannot hold (every
/// board size the engine accepts fits them: see [`crate::knowledge::vc::Width`]).
fn too_large() -> String {
    "the board is too large for the connection analysis".to_string()
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
