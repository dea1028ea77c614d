//! The simple players: the baseline (the 0-1 distance's best cell, or a
//! one-move win or block) and level easy (the two-distance's values with
//! noise, no search).

use super::opening::centre_key;
use super::*;

impl Searcher {
    pub(super) fn search_simple(
        &mut self,
        pos: &Position,
        to_move: Color,
        params: &SearchParams,
        start: Instant,
        report: &mut dyn FnMut(&SearchReport),
    ) -> SearchOutcome {
        let mut pos = pos.clone();
        let (cell, score) = simple_move(&mut pos, to_move, &mut self.dist)
            .expect("the caller checked for an empty cell");
        one_move_outcome(
            params,
            cell,
            score,
            pos.empty_cells().len() as u64,
            start,
            report,
        )
    }

    /// Easy: tactics, then one ply of the 0-1 evaluation with noise of up
    /// to one and a half stones, so it often plays a slightly worse move.
    pub(super) fn search_easy(
        &mut self,
        pos: &Position,
        to_move: Color,
        params: &SearchParams,
        start: Instant,
        report: &mut dyn FnMut(&SearchReport),
    ) -> SearchOutcome {
        let mut w = Worker::new(pos.clone(), EvalKind::Dist01);
        let mut wins = Vec::new();
        let mut choice = None;
        w.one_move_wins(to_move, &mut wins);
        if let Some(&c) = wins.first() {
            choice = Some((c, WIN - 1));
        } else {
            w.one_move_wins(to_move.opponent(), &mut wins);
            if wins.len() == 1 {
                choice = Some((wins[0], 0));
            }
        }
        let mut nodes = 1;
        let (cell, score) = choice.unwrap_or_else(|| {
            self.noise_seed = splitmix(self.noise_seed ^ pos.hash());
            let seed = self.noise_seed;
            let mut best = (i32::MIN, None);
            for c in pos.empty_cells().iter() {
                w.pos.play(to_move, c);
                let s = -w.eval.evaluate(&w.pos, to_move.opponent());
                w.pos.unplay();
                nodes += 1;
                let noisy = s + (splitmix(seed ^ c.index() as u64) % 150) as i32;
                if noisy > best.0 {
                    best = (noisy, Some(c));
                }
            }
            let c = best.1.expect("there is an empty cell");
            (c, best.0)
        });
        one_move_outcome(params, cell, score, nodes, start, report)
    }
}

pub(super) fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The simple player: win at once if possible; else block the opponent's
/// only one-move win; else the empty cell that most lowers (own distance
/// minus opponent's), ties toward the centre. Returns `None` only on a full
/// board. The score is from `to_move`'s side (a win, a proven loss when the
/// opponent has two winning replies, else opponent distance minus own).
pub fn simple_move(pos: &mut Position, to_move: Color, dist: &mut Dist01) -> Option<(Cell, i32)> {
    let empties: Vec<Cell> = pos.empty_cells().iter().collect();
    if empties.is_empty() {
        return None;
    }
    let opp = to_move.opponent();
    let mut opp_wins = Vec::new();
    for &c in &empties {
        pos.play(to_move, c);
        let won = pos.has_won(to_move);
        pos.unplay();
        if won {
            return Some((c, WIN - 1));
        }
        pos.play(opp, c);
        if pos.has_won(opp) {
            opp_wins.push(c);
        }
        pos.unplay();
    }
    if opp_wins.len() == 1 {
        let c = opp_wins[0];
        pos.play(to_move, c);
        let s = diff(pos, to_move, dist);
        pos.unplay();
        return Some((c, s));
    }
    let mut best: Option<(i32, (i32, usize), Cell)> = None;
    for &c in &empties {
        pos.play(to_move, c);
        let s = diff(pos, to_move, dist);
        pos.unplay();
        let key = centre_key(pos, c);
        let better = match best {
            None => true,
            Some((bs, bk, _)) => s > bs || (s == bs && key < bk),
        };
        if better {
            best = Some((s, key, c));
        }
    }
    let (s, _, c) = best.expect("there is an empty cell");
    let s = if opp_wins.len() >= 2 { -(WIN - 2) } else { s };
    Some((c, s))
}

/// Opponent's 0-1 distance minus `me`'s, with cut-off sides counted as far.
pub(super) fn diff(pos: &Position, me: Color, dist: &mut Dist01) -> i32 {
    let far = pos.geometry().num_cells() as i32 + 1;
    let mine = dist.distance(pos, me).map_or(far, |d| d as i32);
    let theirs = dist.distance(pos, me.opponent()).map_or(far, |d| d as i32);
    theirs - mine
}

/// The outcome of a one-ply choice (the baseline and easy players), also
/// sent as the search's only report.
pub(super) fn one_move_outcome(
    params: &SearchParams,
    cell: Cell,
    score: i32,
    nodes: u64,
    start: Instant,
    report: &mut dyn FnMut(&SearchReport),
) -> SearchOutcome {
    let out = SearchOutcome {
        decision: if params.resign && score_is_loss(score) {
            Decision::Resign
        } else {
            Decision::Move(cell)
        },
        score,
        depth: 1,
        nodes,
        pv: vec![cell],
        elapsed: start.elapsed(),
        ranked: vec![cell],
    };
    report(&SearchReport {
        depth: 1,
        score,
        nodes,
        elapsed: out.elapsed,
        pv: out.pv.clone(),
    });
    out
}
