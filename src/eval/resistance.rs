//! Placeholder, being written.

use super::{CellValues, Dist01Eval, EvalKind, Evaluator};
use crate::board::{Color, Position};

pub struct ResistanceEval {
    inner: Dist01Eval,
}

impl Default for ResistanceEval {
    fn default() -> Self {
        ResistanceEval::new()
    }
}

impl ResistanceEval {
    pub fn new() -> ResistanceEval {
        ResistanceEval { inner: Dist01Eval::new() }
    }
}

impl Evaluator for ResistanceEval {
    fn kind(&self) -> EvalKind {
        EvalKind::Resistance
    }
    fn evaluate(&mut self, pos: &Position, to_move: Color) -> i32 {
        self.inner.evaluate(pos, to_move)
    }
    fn evaluate_cells(&mut self, pos: &Position, to_move: Color, values: &mut CellValues) -> i32 {
        self.inner.evaluate_cells(pos, to_move, values)
    }
    fn measures(&mut self, pos: &Position) -> [f64; 2] {
        self.inner.measures(pos)
    }
}
