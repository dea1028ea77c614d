//! The endgame search: Wolve's alpha-beta, with the Hex knowledge at every
//! node instead of near the root only.
//!
//! Each node brings a [`Knowledge`] (both colours' connections) up to date
//! incrementally, fills in the dead and captured cells the new stone
//! creates and the carriers decompositions capture
//! ([`knowledge::decompose`]), and then:
//! 1. a position the connections decide is a win or a loss at once;
//! 2. a leaf is scored by the resistance over the connection graph
//!    ([`resistance::score`]), not over plain adjacency;
//! 3. an inner node searches its consider set (mustplay minus inferior
//!    cells), ordered by the circuits' energy, the best `width` of them.
//!
//! A node costs milliseconds on 11x11 (the plain search's cost
//! microseconds), so this search is a few plies deep; near the end of a
//! game the connections decide most lines within those plies, which a
//! distance evaluation cannot see.

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::WIN;
use super::worker::INF;
use crate::board::{Cell, Color};
use crate::knowledge::{self, Knowledge, resistance};

/// The score is `SCALE * ln(R_opp / R_own)` (clamped by the circuit), on the
/// two-distance and resistance evaluations' scale.
const SCALE: f64 = 300.0;

/// One iteration's result: the best move, its score, the line.
pub(crate) struct VcIteration {
    pub best: Cell,
    pub score: i32,
    pub pv: Vec<Cell>,
    /// The root moves, best first, for the next iteration's order.
    pub order: Vec<Cell>,
}

pub(crate) struct VcSearch<'a> {
    know: Knowledge,
    stop: super::Stop<'a>,
    deadline: Instant,
    /// Moves searched per node below the root.
    width: usize,
    pub nodes: u64,
    aborted: bool,
}

impl<'a> VcSearch<'a> {
    /// `know` describes the root position (with its inferior cells filled
    /// in).
    pub fn new(
        know: Knowledge,
        stop: super::Stop<'a>,
        deadline: Instant,
        width: usize,
    ) -> VcSearch<'a> {
        VcSearch {
            know,
            stop,
            deadline,
            width: width.max(1),
            nodes: 0,
            aborted: false,
        }
    }

    /// The root's moves ordered by the circuits' energy; cells the root's
    /// fill-in has taken are left out (they are stones on the knowledge's
    /// board).
    pub fn order(&self, among: &crate::board::CellSet) -> Vec<Cell> {
        let open = among.intersection(&self.know.position().empty_cells());
        resistance::ordered_moves(&self.know, &open)
    }

    /// Plays `c` for `me`, then the fill-in it makes possible; returns how
    /// many stones to take back.
    ///
    /// Each update of the connections can take milliseconds on a big
    /// board, so the clock is looked at between them: past the deadline
    /// the fill-in stops (it only prunes) and the search is aborted.
    fn play(&mut self, me: Color, c: Cell) -> usize {
        self.know.play(me, c);
        let mut n = 1;
        self.poll();
        if self.know.position().winner().is_none() && !self.aborted {
            let (_, fills) = knowledge::fill_in(self.know.position());
            for color in Color::BOTH {
                for f in fills[color.index()].iter() {
                    if self.aborted {
                        break;
                    }
                    self.know.play(color, f);
                    n += 1;
                    self.poll();
                }
            }
            if !self.aborted {
                n += knowledge::decompose::fill_until(&mut self.know, self.deadline).0;
                self.poll();
            }
        }
        n
    }

    /// Takes back `n` stones, except once the search is aborted: its
    /// knowledge is not used again, and taking back a long line's updates
    /// would cost as much time again past the deadline.
    fn undo(&mut self, n: usize) {
        if self.aborted {
            return;
        }
        for _ in 0..n {
            self.know.undo();
        }
    }

    /// The leaf score for `me`.
    fn evaluate(&self, me: Color) -> i32 {
        let s = resistance::score(&self.know) * SCALE;
        let s = if me == Color::Black { s } else { -s };
        s.round() as i32
    }

    fn poll(&mut self) {
        if self.stop.load(Ordering::Relaxed) || Instant::now() >= self.deadline {
            self.aborted = true;
        }
    }

    /// Negamax with alpha-beta; the line found goes to `pv`.
    fn negamax(
        &mut self,
        me: Color,
        depth: u32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
        pv: &mut Vec<Cell>,
    ) -> i32 {
        self.nodes += 1;
        self.poll();
        if self.aborted {
            return 0;
        }
        pv.clear();
        if let Some(w) = self.know.decided(me) {
            return if w == me {
                WIN - ply - 1
            } else {
                -(WIN - ply - 2)
            };
        }
        if depth == 0 {
            return self.evaluate(me);
        }
        let consider = self.know.consider_set(me);
        let mut moves = resistance::ordered_moves(&self.know, &consider);
        moves.truncate(self.width);
        if moves.is_empty() {
            // Not reached: an empty consider set is a decided position.
            return self.evaluate(me);
        }
        let mut best = -INF;
        let mut line = Vec::new();
        for c in moves {
            let n = self.play(me, c);
            let s = -self.negamax(me.opponent(), depth - 1, ply + 1, -beta, -alpha, &mut line);
            self.undo(n);
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                pv.clear();
                pv.push(c);
                pv.extend_from_slice(&line);
                if s > alpha {
                    alpha = s;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// One iteration at `depth` over the root `moves` (in order); `None`
    /// when it was stopped before it finished.
    pub fn iteration(&mut self, me: Color, depth: u32, moves: &[Cell]) -> Option<VcIteration> {
        let mut scores: Vec<i32> = Vec::with_capacity(moves.len());
        let mut alpha = -INF;
        let mut best_pv = Vec::new();
        let mut line = Vec::new();
        for (i, &c) in moves.iter().enumerate() {
            let n = self.play(me, c);
            // The first move with a full window; each other one against the
            // best so far, a null window first and the full one when it
            // beats it.
            let opp = me.opponent();
            let s = if i == 0 {
                -self.negamax(opp, depth - 1, 1, -INF, INF, &mut line)
            } else {
                let s = -self.negamax(opp, depth - 1, 1, -alpha - 1, -alpha, &mut line);
                if s > alpha && !self.aborted {
                    -self.negamax(opp, depth - 1, 1, -INF, -alpha, &mut line)
                } else {
                    s
                }
            };
            self.undo(n);
            if self.aborted {
                return None;
            }
            if s > alpha || i == 0 {
                alpha = alpha.max(s);
                best_pv.clear();
                best_pv.push(c);
                best_pv.extend_from_slice(&line);
            }
            scores.push(s);
        }
        let best_idx = (0..scores.len()).max_by_key(|&i| (scores[i], std::cmp::Reverse(i)))?;
        Some(VcIteration {
            best: moves[best_idx],
            score: scores[best_idx],
            pv: best_pv,
            order: super::best_first(&scores, best_idx)
                .into_iter()
                .map(|i| moves[i])
                .collect(),
        })
    }
}
