//! The alpha-beta search (issue 3) and the simple baseline player.
//!
//! Public surface: [`Searcher`] (owned by the engine, `Send`), its
//! [`SearchParams`], [`TimeControl`], the per-depth [`SearchReport`] passed
//! to a callback, and the final [`SearchOutcome`]. The search never prints:
//! reports go through the callback and the `log` crate.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::board::{Cell, Color, Position};
use crate::eval::Dist01;

/// Scores are from the side to move's point of view. A won position scores
/// `WIN - plies`, a lost one `-(WIN - plies)`, so shorter wins score higher.
pub const WIN: i32 = 1_000_000;
/// Scores at least this far from zero are proven wins/losses.
const WIN_BOUND: i32 = WIN - 10_000;

/// Whether `score` is a proven win for the side it belongs to.
pub fn score_is_win(score: i32) -> bool {
    score >= WIN_BOUND
}

/// Whether `score` is a proven loss for the side it belongs to.
pub fn score_is_loss(score: i32) -> bool {
    score <= -WIN_BOUND
}

/// Playing strength.
///
/// - `Baseline`: the simple one-ply player (win, block, best 0-1 distance
///   difference); the yardstick the search is measured against.
/// - `Easy`: a shallow, slightly randomised search a beginner can beat.
/// - `Medium`: a short search.
/// - `Hard` (the default): the full search within the time budget.
/// - `Max`: like `Hard`, with wider move lists and no depth cap.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Level {
    Baseline,
    Easy,
    Medium,
    #[default]
    Hard,
    Max,
}

impl Level {
    pub const ALL: [Level; 5] = [
        Level::Baseline,
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Max,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Level::Baseline => "baseline",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Max => "max",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = String;
    /// Accepts the lowercase names in any case.
    fn from_str(s: &str) -> Result<Level, String> {
        let s = s.to_ascii_lowercase();
        Level::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| {
                format!("unknown level '{s}': expected baseline, easy, medium, hard or max")
            })
    }
}

/// Search settings, as set by command-line flags and `param_ferrohex`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Worker threads for the root split; 0 means all cores.
    pub threads: usize,
    /// Transposition table size in MiB (rounded down to a power-of-two
    /// number of entries; the table never grows).
    pub tt_mb: usize,
    /// Deepest iteration, in plies; `None` means as deep as time allows.
    pub max_depth: Option<u32>,
    pub level: Level,
    /// Resign a proven loss instead of playing the longest resistance.
    pub resign: bool,
    /// How many candidate moves are searched at each node below the root
    /// (the root always searches every move). 0 means no limit.
    pub width: usize,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            threads: 0,
            tt_mb: 64,
            max_depth: None,
            level: Level::default(),
            resign: false,
            width: 15,
        }
    }
}

/// How much time a move may take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Per-move cap (`param_ferrohex max_time`, default 10 s).
    pub max_time: Duration,
    /// Clock remaining for the side to move, from `time_left`.
    pub time_left: Option<Duration>,
    /// Stones to play in the current period; `None` or 0 = sudden death.
    pub stones_left: Option<u32>,
}

impl Default for TimeControl {
    fn default() -> Self {
        TimeControl {
            max_time: Duration::from_secs(10),
            time_left: None,
            stones_left: None,
        }
    }
}

/// One finished iteration of the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReport {
    pub depth: u32,
    /// From the side to move's point of view; see [`score_is_win`].
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Cell>,
}

/// What the engine should answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Move(Cell),
    Resign,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOutcome {
    pub decision: Decision,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Cell>,
    pub elapsed: Duration,
}

/// The engine's search: keeps its transposition table between moves.
pub struct Searcher {
    params: SearchParams,
    dist: Box<Dist01>,
}

impl Searcher {
    pub fn new(params: &SearchParams) -> Searcher {
        Searcher {
            params: params.clone(),
            dist: Box::new(Dist01::new()),
        }
    }

    /// Applies new settings, resizing the table or thread pool if needed.
    pub fn set_params(&mut self, params: &SearchParams) {
        self.params = params.clone();
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {}

    /// Chooses a move for `to_move`.
    ///
    /// Precondition: `pos.winner()` is `None`. Never panics; returns a legal
    /// empty cell unless resigning (a proven loss with `params.resign`, or a
    /// full board, which cannot happen without a winner).
    pub fn search(
        &mut self,
        pos: &Position,
        to_move: Color,
        params: &SearchParams,
        _time: &TimeControl,
        _stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchReport),
    ) -> SearchOutcome {
        if *params != self.params {
            self.set_params(params);
        }
        let start = Instant::now();
        let mut pos = pos.clone();
        let (cell, score) = match simple_move(&mut pos, to_move, &mut self.dist) {
            Some(x) => x,
            None => {
                return SearchOutcome {
                    decision: Decision::Resign,
                    score: -WIN,
                    depth: 0,
                    nodes: 0,
                    pv: Vec::new(),
                    elapsed: start.elapsed(),
                };
            }
        };
        let out = SearchOutcome {
            decision: if params.resign && score_is_loss(score) {
                Decision::Resign
            } else {
                Decision::Move(cell)
            },
            score,
            depth: 1,
            nodes: pos.empty_cells().len() as u64,
            pv: vec![cell],
            elapsed: start.elapsed(),
        };
        report(&SearchReport {
            depth: out.depth,
            score: out.score,
            nodes: out.nodes,
            elapsed: out.elapsed,
            pv: out.pv.clone(),
        });
        out
    }
}

/// Closeness to the board's centre as a tie-break key (smaller = closer),
/// then the cell index, so ties resolve the same way every time.
fn centre_key(pos: &Position, cell: Cell) -> (i32, usize) {
    let g = pos.geometry();
    let (c, r) = g.coords(cell);
    // Doubled coordinates so even sizes have an exact centre.
    let dc = 2 * c as i32 - (g.width() as i32 - 1);
    let dr = 2 * r as i32 - (g.height() as i32 - 1);
    let d = dc.abs().max(dr.abs()).max((dc + dr).abs());
    (d, cell.index())
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
fn diff(pos: &Position, me: Color, dist: &mut Dist01) -> i32 {
    let far = pos.geometry().num_cells() as i32 + 1;
    let mine = dist.distance(pos, me).map_or(far, |d| d as i32);
    let theirs = dist.distance(pos, me.opponent()).map_or(far, |d| d as i32);
    theirs - mine
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Geometry;
    use std::sync::Arc;

    fn pos_from(size: usize, black: &[&str], white: &[&str]) -> Position {
        let mut p = Position::new(Arc::new(Geometry::new(size, size).unwrap()));
        for s in black {
            let c = p.geometry().parse_cell(s).unwrap();
            p.play(Color::Black, c);
        }
        for s in white {
            let c = p.geometry().parse_cell(s).unwrap();
            p.play(Color::White, c);
        }
        p
    }

    fn cell(p: &Position, s: &str) -> Cell {
        p.geometry().parse_cell(s).unwrap()
    }

    fn is_send<T: Send>() {}

    #[test]
    fn searcher_is_send_and_levels_parse() {
        is_send::<Searcher>();
        for l in Level::ALL {
            assert_eq!(l.to_string().parse::<Level>(), Ok(l));
        }
        assert_eq!("HARD".parse::<Level>(), Ok(Level::Hard));
        assert!("expert".parse::<Level>().is_err());
    }

    #[test]
    fn simple_player_opens_in_the_centre() {
        let mut d = Dist01::new();
        let mut p = pos_from(11, &[], &[]);
        let (c, _) = simple_move(&mut p, Color::Black, &mut d).unwrap();
        assert_eq!(p.geometry().name(c), "f6");
        let mut p = pos_from(5, &[], &[]);
        let (c, _) = simple_move(&mut p, Color::White, &mut d).unwrap();
        assert_eq!(p.geometry().name(c), "c3");
    }

    #[test]
    fn simple_player_wins_and_blocks() {
        let mut d = Dist01::new();
        // Black b1 b2 b3 on 4x4: b4 or a4 wins at once.
        let mut p = pos_from(4, &["b1", "b2", "b3"], &["a1"]);
        let (c, s) = simple_move(&mut p, Color::Black, &mut d).unwrap();
        assert!(["a4", "b4"].contains(&p.geometry().name(c).as_str()));
        assert!(score_is_win(s));
        // White to move must block: Black's only win needs... make Black's
        // single winning cell unique: Black a1 a2 a3 on 4x4 wins only at a4.
        let mut p = pos_from(4, &["a1", "a2", "a3"], &["d1"]);
        let (c, _) = simple_move(&mut p, Color::White, &mut d).unwrap();
        assert_eq!(c, cell(&p, "a4"));
    }

    #[test]
    fn search_returns_a_legal_move() {
        let p = pos_from(7, &["d4"], &["c5"]);
        let mut s = Searcher::new(&SearchParams::default());
        let stop = AtomicBool::new(false);
        let mut reports = 0;
        let out = s.search(
            &p,
            Color::Black,
            &SearchParams::default(),
            &TimeControl::default(),
            &stop,
            &mut |_| reports += 1,
        );
        match out.decision {
            Decision::Move(c) => assert!(p.is_empty(c)),
            Decision::Resign => panic!("resigned"),
        }
        assert!(reports >= 1);
    }
}
