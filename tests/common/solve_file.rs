//! Measuring the solver on the regression files that ask the winner after
//! every first move (`dfpn-solve-6x6.tst`, `dfpn-solve-7x7.tst`): each case
//! is `play b CELL`, `dfpn-solve-state white`, with the table cleared
//! between cases as the files do.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use ferrohex::board::{Cell, Color, Geometry, Position};

use ferrohex::solver::{SolveOutcome, Solver, SolverParams};

/// One case of a solve file: stones played, side to move, expected winner.
#[derive(Clone, Debug)]
pub struct Case {
    pub id: String,
    pub moves: Vec<(Color, Cell)>,
    pub to_move: Color,
    pub expected: Color,
}

/// Reads the cases of a `dfpn-solve-*.tst` file (the subset of the
/// regression format those files use: `boardsize`, `play`, `undo`,
/// `dfpn-clear-tt`, `NN dfpn-solve-state COLOR` and `#? [COLOR]`).
pub fn parse_solve_file(text: &str) -> Result<(Arc<Geometry>, Vec<Case>), String> {
    let mut geometry: Option<Arc<Geometry>> = None;
    let mut moves: Vec<(Color, Cell)> = Vec::new();
    let mut cases = Vec::new();
    let mut pending: Option<(String, Color)> = None;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        let err = |m: &str| format!("line {}: {m}: {line}", n + 1);
        if let Some(rest) = line.strip_prefix("#?") {
            let (id, to_move) = pending
                .take()
                .ok_or_else(|| err("answer without a command"))?;
            let want = rest
                .trim()
                .trim_start_matches('[')
                .trim_end_matches(['*', ']']);
            let expected = Color::parse(want).ok_or_else(|| err("expected a colour"))?;
            cases.push(Case {
                id,
                moves: moves.clone(),
                to_move,
                expected,
            });
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words: Vec<&str> = line.split_whitespace().collect();
        let id = if words[0].bytes().all(|b| b.is_ascii_digit()) {
            Some(words.remove(0).to_string())
        } else {
            None
        };
        match words.as_slice() {
            ["boardsize", w] | ["boardsize", w, _] => {
                let w: usize = w.parse().map_err(|_| err("bad size"))?;
                let h: usize = match words.get(2) {
                    Some(h) => h.parse().map_err(|_| err("bad size"))?,
                    None => w,
                };
                geometry = Some(Arc::new(Geometry::new(w, h).map_err(|e| err(&e))?));
                moves.clear();
            }
            ["play", color, cell] => {
                let g = geometry.as_ref().ok_or_else(|| err("no board size"))?;
                let color = Color::parse(color).ok_or_else(|| err("bad colour"))?;
                let cell = g.parse_cell(cell).ok_or_else(|| err("bad cell"))?;
                moves.push((color, cell));
            }
            ["undo"] => {
                moves.pop();
            }
            ["dfpn-clear-tt"] => {}
            ["dfpn-solve-state", color] => {
                let color = Color::parse(color).ok_or_else(|| err("bad colour"))?;
                pending = Some((id.unwrap_or_default(), color));
            }
            _ => return Err(err("unsupported command")),
        }
    }
    let g = geometry.ok_or("no boardsize in the file")?;
    Ok((g, cases))
}

/// How one case went.
#[derive(Clone, Debug)]
pub struct CaseReport {
    pub case: Case,
    pub got: SolveOutcome,
    pub nodes: u64,
    pub elapsed: Duration,
}

impl CaseReport {
    pub fn passed(&self) -> bool {
        self.got == SolveOutcome::Win(self.case.expected)
    }
}

/// Solves every case with a fresh table, as the files ask.
pub fn run_cases(
    geometry: &Arc<Geometry>,
    cases: &[Case],
    params: &SolverParams,
    mut each: impl FnMut(&CaseReport),
) -> Vec<CaseReport> {
    let mut solver = Solver::new(params);
    let stop = AtomicBool::new(false);
    let mut out = Vec::new();
    for case in cases {
        solver.clear_tt();
        let mut pos = Position::new(geometry.clone());
        for &(c, cell) in &case.moves {
            pos.play(c, cell);
        }
        let start = Instant::now();
        let got = solver.solve(&pos, case.to_move, &stop, &mut |_| {});
        let report = CaseReport {
            case: case.clone(),
            got,
            nodes: solver.stats().nodes,
            elapsed: start.elapsed(),
        };
        each(&report);
        out.push(report);
    }
    out
}
