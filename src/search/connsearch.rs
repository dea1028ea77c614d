//! The connection search: alpha-beta with the Hex knowledge at every node,
//! on the knowledge core's bitboard H-search and inferior-cell analysis,
//! on the [`Bitboard`] type of the board's size (see [`Searchers`]): from
//! the first move on boards of at most 254 cells, in the endgame on the
//! bigger ones ([`from_first_move`]).
//!
//! Each node:
//! 1. fills in its dead and captured cells ([`ice::fill_in`]);
//! 2. runs both colours' H-search, each seeded with the connections its
//!    parent found ([`Hsearch::run_seeded`]), so a child combines only
//!    what its new stones changed; a position the connections decide
//!    (the mover's edge-to-edge semi or full, the opponent's full, the
//!    opponent's semis with no common cell) is a win or a loss at once;
//!    a full connection whose carrier a decomposition captures
//!    ([`Hsearch::decomposition`]) is filled in with its colour, with the
//!    fill-in that follows, and the node analysed again;
//! 3. solves each colour's circuit over its connection graph
//!    ([`Circuit`]): the leaf score is `SCALE * ln(R_opp / R_own)`, and
//!    the current through each empty cell orders the moves;
//! 4. searches its consider set (the mustplay's cells on a live chain of
//!    either side, minus cells another move dominates), the best `width`
//!    of them by energy, the transposition table's move first, the late
//!    ones first two plies shallower ([`REDUCTION`]).
//!
//! Iterative deepening over the root moves, at depth 1 and then the even
//! depths ([`depths`]); one searcher per thread, the
//! root's moves after the first shared among them (the first with a full
//! window, the others against the best so far with a null window first,
//! the late ones first two plies shallower), the first move's own moves
//! shared the same way, and so on down its first line ([`shared_node`]),
//! and one lock-free transposition table. An iteration cut short by the
//! deadline still counts for the root moves it finished, when the first
//! of them (the last iteration's best) is among them; when genmove's
//! verifier has a use for the time, deepening stops instead after the
//! last depth predicted to fit. At level max a
//! depth may be searched a second time with wider move lists
//! ([`MAX_LEVEL_WIDTHS`]); the table keeps the two passes apart
//! ([`table_depth`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::WIN;
use super::params::DEFAULT_CONN_CAPS;
use super::tt::{Bound, Tt, TtEntry, side_key as tt_key, to_tt};
use super::worker::INF;
use crate::board::{Bitboard, Cell, CellSet, Color, Position, Wide, zobrist_key};
use crate::knowledge::MAX_DECOMPOSITIONS;
use crate::knowledge::circuit::Circuit;
use crate::knowledge::ice;
pub use crate::knowledge::vc::Width;
use crate::knowledge::vc::{Bits, Caps, Closure, Goal, Hsearch, bit, cells, stones};

/// The score's scale: `SCALE * ln(R_opp / R_own)`, clamped to
/// `SCALE * CLAMP` (the two-distance and resistance evaluations' scale).
const SCALE: f64 = 300.0;
const CLAMP: f64 = 10.0;

/// Moves searched per node below the root, by ply (the last for deeper
/// plies).
pub const DEFAULT_WIDTHS: [usize; 4] = [16, 12, 10, 8];

/// The widths of level max's widened pass over a depth: twice as many
/// moves a node.
pub const MAX_LEVEL_WIDTHS: [usize; 4] = [32, 24, 20, 16];

/// Late move reductions: a node's moves after its first `REDUCED_FROM` (in
/// its order: the table's move, then by energy), and the root's after its
/// first `ROOT_REDUCED_FROM` (in the last iteration's order), are searched
/// first `REDUCTION` plies shallower against a null window at alpha, and
/// to the full depth only when that does not fail low. Two plies keep the
/// leaves' parity (see [`depths`]). On 14 middle-game positions of 11x11
/// games, depth 6 with one thread took 2.0 times the nodes of depth 4
/// without reductions instead of 8.2, and chose the move of depth 6
/// without reductions in 12 of them, where depth 4 chose it in 7.
const REDUCTION: u32 = 2;
const REDUCED_FROM: usize = 6;
const ROOT_REDUCED_FROM: usize = 10;

/// The leaf score for the side whose resistance is `r_me`:
/// `SCALE * ln(r_opp / r_me)`, clamped; a side cut off from its edges has
/// an infinite resistance.
fn leaf_score(r_me: f64, r_opp: f64) -> i32 {
    let score = match (r_me.is_finite(), r_opp.is_finite()) {
        (true, true) => (r_opp.max(1e-9) / r_me.max(1e-9)).ln().clamp(-CLAMP, CLAMP),
        (true, false) => CLAMP,
        (false, true) => -CLAMP,
        (false, false) => 0.0,
    };
    (score * SCALE).round() as i32
}

/// A position as the connection search's leaf sees it (see
/// [`circuit_view`]).
#[derive(Clone, Debug, PartialEq)]
pub struct CircuitView {
    /// The leaf score for the side to move.
    pub score: i32,
    /// Each colour's resistance between its edges, by `Color::index()`:
    /// 0 when its connections already join them, infinite when it is cut
    /// off.
    pub resistance: [f64; 2],
    /// Each empty cell's energy (about the current through it), summed
    /// over both circuits; cells the fill-in took are left out.
    pub energy: Vec<(Cell, f64)>,
}

/// The connection search's evaluation of `pos` with `me` to move, laid
/// open: the fill-in for `me` played, each colour's whole H-search, and
/// the resistance of its circuit over the full connections (what
/// Benzene's `eval-resist` reports after `vc-build`). `None` when a
/// colour's H-search gives up (more nodes than its tables hold).
pub fn circuit_view(pos: &Position, me: Color) -> Option<CircuitView> {
    match Width::of(pos.geometry()) {
        Width::Narrow => ConnSearch::<u128>::new(pos)?.view(pos, me),
        Width::Three => ConnSearch::<Wide<3>>::new(pos)?.view(pos, me),
        Width::Four => ConnSearch::<Wide<4>>::new(pos)?.view(pos, me),
        Width::Eleven => ConnSearch::<Wide<11>>::new(pos)?.view(pos, me),
    }
}

/// The first of `moves` for `me` in `pos` whose reply position the
/// connections do not decide for the opponent (after the fill-in: a
/// connection the opponent already has, or one it can complete at once).
/// Moves are checked in order until `until`; once it has passed, the next
/// move unchecked is answered. `None` when every move is lost.
pub fn first_not_lost(pos: &Position, me: Color, moves: &[Cell], until: Instant) -> Option<Cell> {
    match Width::of(pos.geometry()) {
        Width::Narrow => first_not_lost_on::<u128>(pos, me, moves, until),
        Width::Three => first_not_lost_on::<Wide<3>>(pos, me, moves, until),
        Width::Four => first_not_lost_on::<Wide<4>>(pos, me, moves, until),
        Width::Eleven => first_not_lost_on::<Wide<11>>(pos, me, moves, until),
    }
}

fn first_not_lost_on<B: Bitboard>(
    pos: &Position,
    me: Color,
    moves: &[Cell],
    until: Instant,
) -> Option<Cell> {
    let Some(mut searcher) = ConnSearch::<B>::new(pos) else {
        return moves.first().copied();
    };
    searcher.set_deadline(Some(until));
    let opp = me.opponent();
    moves.iter().copied().find(|&c| {
        if Instant::now() >= until {
            return true;
        }
        let mut child = pos.clone();
        child.play(me, c);
        searcher.evaluate(&child, opp) != Err(opp)
    })
}

/// One searcher: its own H-search tables, circuit buffers and the
/// connections of each ply of its current line.
pub struct ConnSearch<B: Bitboard> {
    /// The board's width and height.
    dims: (usize, usize),
    bits: Bits<B>,
    hs: Hsearch<B>,
    circuit: Circuit<B>,
    /// Per ply: both colours' connections of the node there.
    frames: Vec<[Closure<B>; 2]>,
    /// The root [`ConnSearch::root`] prepared last, filled in, with the
    /// carriers decompositions capture.
    root: Option<Board<B>>,
    /// That root with only its dead and captured cells filled in: what
    /// tells whether a new search has the same root.
    root_of: Option<Board<B>>,
    /// Per cell: the energy of the node being analysed.
    energy: Vec<f64>,
    /// Whether a node's analysis solves the circuits (the leaf score and
    /// the moves' order); an [`Analyst`] needs neither.
    circuits: bool,
    pub nodes: u64,
    aborted: bool,
}

/// What the analysis of a node found.
enum Analysis<B> {
    /// The connections decide the position: the winner, and the empty
    /// cells of the connection that decides it (the key of the mover's
    /// semi, or a full's carrier; empty when the opponent's semis share
    /// no cell).
    Decided(Color, B),
    /// The leaf score for the mover, and (when asked for) the moves to
    /// search, best first.
    Open(i32, Vec<Cell>),
    /// A decomposition captures this carrier for this colour: to be
    /// filled in before the node is analysed again.
    Captured(Color, B),
}

/// A position on the search's line: the stones (Black, White), their
/// hash and the side to move.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Board<B> {
    st: [B; 2],
    hash: u64,
    me: Color,
    /// The colour the fill-in gives dead cells (either would do).
    dead: Color,
    /// What changed since the position was last filled in.
    unfilled: Unfilled,
}

/// What a [`Board`]'s fill-in has to test.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Unfilled {
    /// Nothing: it is filled in.
    Nothing,
    /// A filled-in position with one stone added: only cells near it
    /// ([`ice::fill_in_near`]).
    Stone(usize),
    /// Every cell.
    All,
}

impl<B: Bitboard> Board<B> {
    /// `pos` with `me` to move, its fill-in played (dead cells to the
    /// opponent).
    fn filled(bits: &Bits<B>, pos: &Position, me: Color) -> Board<B> {
        Board::filled_dead(bits, pos, me, me.opponent())
    }

    /// `pos` with `me` to move, its fill-in played, dead cells to `dead`.
    fn filled_dead(bits: &Bits<B>, pos: &Position, me: Color, dead: Color) -> Board<B> {
        let mut b = Board {
            st: stones(pos),
            hash: pos.hash(),
            me,
            dead,
            unfilled: Unfilled::All,
        };
        b.fill(bits);
        b
    }

    /// Plays the fill-in (dead cells go to `dead`), keeping the hash up
    /// to date.
    fn fill(&mut self, bits: &Bits<B>) {
        let near = match std::mem::replace(&mut self.unfilled, Unfilled::Nothing) {
            Unfilled::Nothing => return,
            Unfilled::Stone(x) => ice::touched_by(bits, self.st, x),
            Unfilled::All => bits.all,
        };
        let f = ice::fill_in_near(bits, &mut self.st, self.dead, near);
        for color in Color::BOTH {
            for c in cells(f.stones[color.index()]) {
                self.hash ^= zobrist_key(color, c);
            }
        }
    }

    /// Fills in `carrier` with `color` (a decomposition's capture), then
    /// the fill-in that follows.
    fn capture(&mut self, bits: &Bits<B>, color: Color, carrier: B) {
        let new = carrier & !self.st[0] & !self.st[1];
        self.st[color.index()] |= new;
        for c in cells(new) {
            self.hash ^= zobrist_key(color, c);
        }
        self.unfilled = Unfilled::All;
        self.fill(bits);
    }

    /// The position after `me` plays `c`.
    fn child(self, c: Cell) -> Board<B> {
        let mut st = self.st;
        st[self.me.index()] |= bit(c.index());
        Board {
            st,
            hash: self.hash ^ zobrist_key(self.me, c),
            me: self.me.opponent(),
            dead: self.me,
            unfilled: match self.unfilled {
                Unfilled::Nothing => Unfilled::Stone(c.index()),
                _ => Unfilled::All,
            },
        }
    }
}

/// What a search shares between its threads.
pub struct Shared<'a> {
    pub tt: &'a Tt,
    pub stop: super::Stop<'a>,
    pub deadline: Instant,
    /// Whether this is the widened second pass over a depth: the moves a
    /// node are [`MAX_LEVEL_WIDTHS`] instead of [`DEFAULT_WIDTHS`], and
    /// the results count as deeper ([`table_depth`]).
    pub wide: bool,
}

/// The depth a node's result is kept at in the table: a widened pass over
/// a depth searched more moves a node than the first pass, so its results
/// count as deeper than the first pass's, and the first pass's do not
/// cut off the widened one (their moves still order it). A leaf's score
/// is the same for both.
fn table_depth(depth: u32, wide: bool) -> u32 {
    if depth == 0 {
        0
    } else {
        depth * 2 + u32::from(wide)
    }
}

impl Shared<'_> {
    /// The moves searched at a node `ply` plies below the root.
    fn width(&self, ply: usize) -> usize {
        let widths: &[usize] = if self.wide {
            &MAX_LEVEL_WIDTHS
        } else {
            &DEFAULT_WIDTHS
        };
        widths[(ply - 1).min(widths.len() - 1)]
    }

    /// A node's moves (by energy) as searched at `ply`: the table's move
    /// first, cut to the ply's width.
    fn searched_moves(&self, moves: &mut Vec<Cell>, tt_move: Option<Cell>, ply: usize) {
        if let Some(t) = tt_move
            && let Some(i) = moves.iter().position(|&c| c == t)
        {
            moves[..=i].rotate_right(1);
        }
        moves.truncate(self.width(ply).max(1));
    }

    fn expired(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || Instant::now() >= self.deadline
    }
}

/// One finished (or partly finished) root iteration.
pub struct Iteration {
    pub best: Cell,
    pub score: i32,
    /// The root moves, best first, for the next iteration.
    pub order: Vec<Cell>,
    /// Whether every root move was searched.
    pub complete: bool,
}

/// Whether the connection search plays `pos`'s board from the first move
/// (boards of at most 254 cells: [`Width::searched`]). On bigger boards
/// it is the endgame search only.
pub fn from_first_move(pos: &Position) -> bool {
    Width::of(pos.geometry()).searched()
}

/// The searchers of one search (one a thread), on the bitboard type of
/// the board's size.
pub enum Searchers {
    Narrow(Vec<ConnSearch<u128>>),
    Three(Vec<ConnSearch<Wide<3>>>),
    Four(Vec<ConnSearch<Wide<4>>>),
    Eleven(Vec<ConnSearch<Wide<11>>>),
}

impl Default for Searchers {
    fn default() -> Self {
        Searchers::Narrow(Vec::new())
    }
}

impl Searchers {
    /// `n` searchers for `pos`'s board with H-search caps `caps`,
    /// keeping those of `self` that are for them (their tables are some
    /// MiB each), their counts reset. `None` when the board is too big
    /// for any bitboard type.
    pub fn for_board(self, pos: &Position, n: usize, caps: Caps) -> Option<Searchers> {
        fn keep<B: Bitboard>(
            mut v: Vec<ConnSearch<B>>,
            pos: &Position,
            n: usize,
            caps: Caps,
        ) -> Option<Vec<ConnSearch<B>>> {
            v.retain(|s| s.is_for(pos, caps));
            v.truncate(n);
            while v.len() < n {
                v.push(ConnSearch::with_caps(pos, caps)?);
            }
            v.iter_mut().for_each(|s| s.reset());
            Some(v)
        }
        Some(match (Width::of(pos.geometry()), self) {
            (Width::Narrow, Searchers::Narrow(v)) => Searchers::Narrow(keep(v, pos, n, caps)?),
            (Width::Narrow, _) => Searchers::Narrow(keep(Vec::new(), pos, n, caps)?),
            (Width::Three, Searchers::Three(v)) => Searchers::Three(keep(v, pos, n, caps)?),
            (Width::Three, _) => Searchers::Three(keep(Vec::new(), pos, n, caps)?),
            (Width::Four, Searchers::Four(v)) => Searchers::Four(keep(v, pos, n, caps)?),
            (Width::Four, _) => Searchers::Four(keep(Vec::new(), pos, n, caps)?),
            (Width::Eleven, Searchers::Eleven(v)) => Searchers::Eleven(keep(v, pos, n, caps)?),
            (Width::Eleven, _) => Searchers::Eleven(keep(Vec::new(), pos, n, caps)?),
        })
    }
}

impl<B: Bitboard> ConnSearch<B> {
    /// With the default caps ([`DEFAULT_CONN_CAPS`]); `None` when the
    /// board does not fit `B` ([`crate::knowledge::vc::fits`]).
    pub fn new(pos: &Position) -> Option<ConnSearch<B>> {
        ConnSearch::with_caps(pos, DEFAULT_CONN_CAPS)
    }

    /// With H-search caps `caps`.
    pub fn with_caps(pos: &Position, caps: Caps) -> Option<ConnSearch<B>> {
        let g = pos.geometry();
        Some(ConnSearch {
            dims: (g.width(), g.height()),
            bits: Bits::new(g)?,
            hs: Hsearch::with_caps(caps),
            circuit: Circuit::new(),
            frames: Vec::new(),
            root: None,
            root_of: None,
            energy: vec![0.0; B::BITS],
            circuits: true,
            nodes: 0,
            aborted: false,
        })
    }

    /// Whether this searcher is for `pos`'s board and H-search caps
    /// `caps`.
    pub fn is_for(&self, pos: &Position, caps: Caps) -> bool {
        self.dims == (pos.geometry().width(), pos.geometry().height())
            && self.hs.caps() == Caps::new(caps.fulls, caps.semis)
    }

    /// Its H-search's runs give up after `deadline`: one node's runs on
    /// the biggest boards can take longer than the rest of a short move.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.hs.set_deadline(deadline);
    }

    /// Starts a new search: no nodes counted yet.
    pub fn reset(&mut self) {
        self.nodes = 0;
        self.aborted = false;
    }

    fn frame(&mut self, ply: usize) {
        while self.frames.len() <= ply {
            self.frames.push([Closure::default(), Closure::default()]);
        }
    }

    /// Both colours' connections and circuits for the position `board`
    /// (already filled in), at `ply` of the line; with `children`, the
    /// moves to search and this node's connections kept for them. The
    /// carriers decompositions capture are filled into `board` first.
    fn analyse(&mut self, board: &mut Board<B>, ply: usize, children: bool) -> Analysis<B> {
        for n in 0..=MAX_DECOMPOSITIONS {
            match self.analyse_once(board, ply, children, n < MAX_DECOMPOSITIONS) {
                Analysis::Captured(color, carrier) => board.capture(&self.bits, color, carrier),
                a => return a,
            }
        }
        unreachable!("the last pass looks for no decomposition")
    }

    /// One pass of [`ConnSearch::analyse`]: stops at the first
    /// decomposition found when `decompose` is set.
    fn analyse_once(
        &mut self,
        board: &Board<B>,
        ply: usize,
        children: bool,
        decompose: bool,
    ) -> Analysis<B> {
        let Board { st, hash, me, .. } = *board;
        self.frame(ply);
        let (before, rest) = self.frames.split_at_mut(ply);
        let parent = before.last();
        let here = &mut rest[0];
        let energy = &mut self.energy;
        energy.fill(0.0);
        let mut resistance = [0.0f64; 2];
        let opp = me.opponent();
        let empty = self.bits.all & !st[0] & !st[1];
        let mut must = empty;
        for (color, goal) in [(me, Goal::Mover), (opp, Goal::Opponent)] {
            let seed = parent.map(|p| &p[color.index()]);
            let info = self.hs.run_seeded(&self.bits, st, color, goal, seed);
            if let Some(carrier) = info.full {
                return Analysis::Decided(color, carrier & empty);
            }
            if color == me
                && let Some((key, _)) = info.semi
            {
                return Analysis::Decided(me, bit(key));
            }
            if color == opp && info.semis > 0 {
                must &= info.semi_cap;
                if must.is_empty() {
                    return Analysis::Decided(opp, B::ZERO);
                }
            }
            if !self.hs.finished() {
                // Too many nodes for the tables: no knowledge here.
                resistance[color.index()] = 1.0;
                continue;
            }
            if decompose && let Some(carrier) = self.hs.decomposition(&self.bits, st, color) {
                return Analysis::Captured(color, carrier);
            }
            if self.circuits {
                resistance[color.index()] = self.circuit.solve(&self.hs, energy);
            }
            let slot = &mut here[color.index()];
            if children {
                self.hs.export(st, hash, color, slot);
            } else {
                slot.color = None;
            }
        }
        let score = leaf_score(resistance[me.index()], resistance[opp.index()]);
        if !children {
            return Analysis::Open(score, Vec::new());
        }
        let live = (self.bits.live(st, me) | self.bits.live(st, opp)) & must;
        let chosen = if live.any() { live } else { must.lowest() };
        let dominated = ice::dominated(&self.bits, st, me, chosen);
        let dominated =
            dominated | ice::neighbourhood_dominated(&self.bits, st, me, chosen, dominated);
        let kept = chosen & !dominated;
        let chosen = if kept.any() { kept } else { chosen };
        let mut moves: Vec<Cell> = cells(chosen).collect();
        moves.sort_by(|a, b| {
            energy[b.index()]
                .total_cmp(&energy[a.index()])
                .then(a.index().cmp(&b.index()))
        });
        Analysis::Open(score, moves)
    }

    /// Negamax with alpha-beta on `board` (not yet filled in).
    fn negamax(
        &mut self,
        sh: &Shared,
        board: Board<B>,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.aborted || sh.expired() {
            self.aborted = true;
            return 0;
        }
        let mut board = board;
        board.fill(&self.bits);
        let me = board.me;
        // The key of the position before any decomposition's fill-in: the
        // one a transposition reaches first.
        let key = tt_key(board.hash, me);
        let p = ply as i32;
        let mut tt_move = None;
        let stored = sh.tt.probe(key);
        let tdepth = table_depth(depth, sh.wide);
        if let Some(e) = stored {
            tt_move = e.mv;
            if let Some(s) = e.cutoff(tdepth, ply, alpha, beta) {
                return s;
            }
        }
        let analysis = self.analyse(&mut board, ply, depth > 0);
        if sh.expired() {
            // Its runs may have given up: nothing of it is kept.
            self.aborted = true;
            return 0;
        }
        let (score, mut moves) = match analysis {
            Analysis::Decided(w, _) => {
                let s = if w == me { WIN - p } else { -(WIN - p) };
                sh.tt.store(
                    key,
                    TtEntry {
                        mv: None,
                        score: to_tt(s, ply),
                        depth: u32::MAX >> 8,
                        bound: Bound::Exact,
                        generation: 0,
                    },
                );
                return s;
            }
            Analysis::Open(s, m) => (s, m),
            Analysis::Captured(..) => unreachable!("analyse fills captured carriers in"),
        };
        if depth == 0 || moves.is_empty() {
            // A leaf's score is exact at depth 0: a transposition to it
            // (the same moves in another order) takes it from the table.
            // A deeper entry of this position (a bound that did not cut
            // here) is worth more and stays.
            if stored.is_none() {
                sh.tt.store(
                    key,
                    TtEntry {
                        mv: None,
                        score: to_tt(score, ply),
                        depth: 0,
                        bound: Bound::Exact,
                        generation: 0,
                    },
                );
            }
            return score;
        }
        sh.searched_moves(&mut moves, tt_move, ply);
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for (n, c) in moves.into_iter().enumerate() {
            let s = self.child_score(sh, &board, c, n >= REDUCED_FROM, depth, ply, (alpha, beta));
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                best_move = Some(c);
                if s > alpha {
                    alpha = s;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        sh.tt.store(
            key,
            TtEntry::searched(best_move, best, tdepth, ply, alpha0, beta),
        );
        best
    }

    /// The score of move `c` of `board`, a node at `ply` searched to
    /// `depth` against `(alpha, beta)`: a `late` move (after the node's
    /// first [`REDUCED_FROM`]) is searched first [`REDUCTION`] plies
    /// shallower against a null window at alpha, and to the full depth
    /// only when that does not fail low (a fail-low's score is an upper
    /// bound, as a full search's would be).
    #[allow(clippy::too_many_arguments)]
    fn child_score(
        &mut self,
        sh: &Shared,
        board: &Board<B>,
        c: Cell,
        late: bool,
        depth: u32,
        ply: usize,
        (alpha, beta): (i32, i32),
    ) -> i32 {
        if late && depth > REDUCTION {
            let reduced = depth - 1 - REDUCTION;
            let s = -self.negamax(sh, board.child(c), reduced, ply + 1, -alpha - 1, -alpha);
            if s <= alpha || self.aborted {
                return s;
            }
        }
        -self.negamax(sh, board.child(c), depth - 1, ply + 1, -beta, -alpha)
    }

    /// Prepares the root (`pos`, `me` to move): its fill-in, and its
    /// connections for the root moves' runs to start from. Returns the
    /// consider set ordered by energy, or the winner when the connections
    /// decide the root.
    pub fn root(&mut self, pos: &Position, me: Color) -> Result<Vec<Cell>, Color> {
        match self.analyse_root(pos, me) {
            Analysis::Decided(w, _) => Err(w),
            Analysis::Open(_, moves) => Ok(moves),
            Analysis::Captured(..) => unreachable!("analyse fills captured carriers in"),
        }
    }

    /// Fills in the root `pos` (`me` to move) and analyses it, keeping it
    /// (`root`, `root_of`) and its connections (the frame of ply 0) for
    /// the positions below it.
    fn analyse_root(&mut self, pos: &Position, me: Color) -> Analysis<B> {
        let mut board = Board::filled(&self.bits, pos, me);
        self.root_of = Some(board);
        let a = self.analyse(&mut board, 0, true);
        self.root = Some(board);
        a
    }

    /// The score of root move `c` of the root [`ConnSearch::root`]
    /// prepared, searched to `depth` against the window `(alpha, beta)`.
    fn root_child(&mut self, sh: &Shared, c: Cell, depth: u32, (alpha, beta): (i32, i32)) -> i32 {
        let Some(root) = self.root else {
            return -INF + 1;
        };
        if (root.st[0] | root.st[1]).has(c.index()) {
            // Filled in at the root (a dead cell, or a captured one the
            // mover owns already): never better than a move searched.
            return -INF + 1;
        }
        -self.negamax(sh, root.child(c), depth - 1, 1, -beta, -alpha)
    }
}

/// The depths iterative deepening searches, up to `max_depth`: 1, then
/// the even depths, then `max_depth` itself when it is odd.
///
/// The leaf score takes no account of whose move it is, so it swings
/// with the parity of the depth (after `f6 e7 d9` on 11x11: +85 at
/// depth 1, -76 at 2, +91 at 3, -111 at 4), and a move chosen at an odd
/// depth, where the mover's own last stone is not answered, is the worse
/// one: on 93 positions of games against Wolve, judged by MoHex, moves
/// chosen at depth 3 lost 0.051 of a win per move against 0.020 at depth
/// 2, and at 0.4 s a move deepening through every depth lost 0.050
/// against 0.020 through the even ones. (Wolve 2.0 deepens through every
/// depth, but at 1 s a move on 11x11 it rarely finishes more than depth
/// 2.) Depth 1 stays, as the first ordering and the answer when nothing
/// deeper finishes.
pub fn depths(max_depth: u32) -> impl Iterator<Item = u32> {
    let max_depth = max_depth.max(1);
    (1..=max_depth).filter(move |&d| d == 1 || d % 2 == 0 || d == max_depth)
}

/// One iteration at `depth` over the root `moves` (in order) with one
/// searcher per thread (`searchers[0]` also searches the first move).
/// `None` when the deadline or the stop came before the first move was
/// done.
pub fn iteration<B: Bitboard>(
    searchers: &mut [ConnSearch<B>],
    pool: Option<&rayon::ThreadPool>,
    sh: &Shared,
    pos: &Position,
    me: Color,
    depth: u32,
    moves: &[Cell],
) -> Option<Iteration> {
    for s in searchers.iter_mut() {
        s.aborted = false;
        // The root's fill-in and connections, once per searcher and root.
        if s.root_of != Some(Board::filled(&s.bits, pos, me)) {
            s.root(pos, me).ok();
        }
    }
    let first = |ss: &mut [ConnSearch<B>]| match pool {
        Some(pool) if ss.len() > 1 => first_move_shared(ss, pool, sh, moves[0], depth),
        _ => ss[0].root_child(sh, moves[0], depth, (-INF, INF)),
    };
    let r = super::root::split_with_first(
        searchers,
        pool,
        moves.len(),
        &first,
        &|s: &mut ConnSearch<B>, i, alpha, beta| {
            if i >= ROOT_REDUCED_FROM && depth > REDUCTION + 1 && beta == alpha + 1 {
                let v = s.root_child(sh, moves[i], depth - REDUCTION, (alpha, beta));
                if v <= alpha || s.aborted {
                    return v;
                }
            }
            s.root_child(sh, moves[i], depth, (alpha, beta))
        },
        &|s: &ConnSearch<B>| s.aborted,
    )?;
    r.log(depth, r.complete);
    let (scores, idx) = (r.scores, r.best);
    let (score, complete) = (scores[idx], r.complete);
    let order = super::best_first(&scores, idx)
        .into_iter()
        .map(|i| moves[i])
        .collect();
    Some(Iteration {
        best: moves[idx],
        score,
        order,
        complete,
    })
}

/// The score of the root's first move `c` (the last iteration's best) at
/// `depth` with a full window, searched by all the searchers together
/// ([`shared_node`]). Searched by one searcher, it took a fifth of an
/// iteration while the others waited. `searchers[0]` is marked aborted
/// when the deadline cuts the move off.
fn first_move_shared<B: Bitboard>(
    ss: &mut [ConnSearch<B>],
    pool: &rayon::ThreadPool,
    sh: &Shared,
    c: Cell,
    depth: u32,
) -> i32 {
    match ss[0].root {
        // A filled-in cell is scored by root_child.
        Some(root) if !(root.st[0] | root.st[1]).has(c.index()) => {
            -shared_node(ss, pool, sh, root.child(c), depth - 1, 1)
        }
        _ => ss[0].root_child(sh, c, depth, (-INF, INF)),
    }
}

/// The score of `node` (not yet filled in) at `ply` of the principal
/// variation, searched to `depth` with a full window by all the
/// searchers: its moves are shared among them as [`super::root::split`]
/// shares the root's, with the reductions a node makes, and its first move
/// is searched the same way, down the line. Every searcher analyses the
/// node itself, for the connections its children start from.
fn shared_node<B: Bitboard>(
    ss: &mut [ConnSearch<B>],
    pool: &rayon::ThreadPool,
    sh: &Shared,
    node: Board<B>,
    depth: u32,
    ply: usize,
) -> i32 {
    let sequential = |ss: &mut [ConnSearch<B>]| ss[0].negamax(sh, node, depth, ply, -INF, INF);
    // Below depth 2 the node's children are leaves.
    if depth < 2 {
        return sequential(ss);
    }
    let mut filled = node;
    filled.fill(&ss[0].bits);
    let key = tt_key(filled.hash, filled.me);
    let tdepth = table_depth(depth, sh.wide);
    let stored = sh.tt.probe(key);
    if stored.is_some_and(|e| e.cutoff(tdepth, ply, -INF, INF).is_some()) {
        return sequential(ss);
    }
    let mut board = filled;
    let mut analysis = None;
    for (k, s) in ss.iter_mut().enumerate() {
        let mut b = filled;
        let a = s.analyse(&mut b, ply, true);
        if k == 0 {
            (board, analysis) = (b, Some(a));
        }
    }
    if sh.expired() {
        ss[0].aborted = true;
        return 0;
    }
    let mut moves = match analysis {
        Some(Analysis::Open(_, m)) if !m.is_empty() => m,
        // Decided, or no move: scored (and stored) at once.
        _ => return sequential(ss),
    };
    ss[0].nodes += 1;
    sh.searched_moves(&mut moves, stored.and_then(|e| e.mv), ply);
    let first = |ss: &mut [ConnSearch<B>]| {
        -shared_node(ss, pool, sh, board.child(moves[0]), depth - 1, ply + 1)
    };
    // The split's null-window searches take a node's reductions; its
    // full-window re-searches go to the full depth.
    let child = |s: &mut ConnSearch<B>, i: usize, alpha: i32, beta: i32| {
        let late = i >= REDUCED_FROM && beta == alpha + 1;
        s.child_score(sh, &board, moves[i], late, depth, ply, (alpha, beta))
    };
    let stopped = |s: &ConnSearch<B>| s.aborted;
    let r = super::root::split_with_first(ss, Some(pool), moves.len(), &first, &child, &stopped);
    match r {
        Some(r) if r.complete || super::score_is_win(r.scores[r.best]) => {
            let v = r.scores[r.best];
            // A win ends the split before the other moves: a lower bound.
            let beta = if r.complete { INF } else { v };
            sh.tt.store(
                key,
                TtEntry::searched(Some(moves[r.best]), v, tdepth, ply, -INF, beta),
            );
            v
        }
        _ => {
            ss[0].aborted = true;
            0
        }
    }
}

impl<B: Bitboard> ConnSearch<B> {
    /// The leaf score of `pos` for `me` to move (after the fill-in), or
    /// the winner when the connections decide it.
    pub fn evaluate(&mut self, pos: &Position, me: Color) -> Result<i32, Color> {
        let mut b = Board::filled(&self.bits, pos, me);
        match self.analyse(&mut b, 0, false) {
            Analysis::Decided(w, _) => Err(w),
            Analysis::Open(s, _) => Ok(s),
            Analysis::Captured(..) => unreachable!("analyse fills captured carriers in"),
        }
    }
}

impl<B: Bitboard> ConnSearch<B> {
    /// See [`circuit_view`].
    fn view(&mut self, pos: &Position, me: Color) -> Option<CircuitView> {
        let mut b = Board::filled(&self.bits, pos, me);
        let mut energy = vec![0.0f64; B::BITS];
        let mut resistance = [0.0f64; 2];
        let mut decompositions = 0;
        let mut colors = Color::BOTH.into_iter();
        while let Some(color) = colors.next() {
            let info = self
                .hs
                .run_seeded(&self.bits, b.st, color, Goal::Closure, None);
            if info.full.is_none()
                && self.hs.finished()
                && decompositions < MAX_DECOMPOSITIONS
                && let Some(carrier) = self.hs.decomposition(&self.bits, b.st, color)
            {
                // Filled in: both colours' connections again.
                b.capture(&self.bits, color, carrier);
                decompositions += 1;
                energy.fill(0.0);
                colors = Color::BOTH.into_iter();
                continue;
            }
            resistance[color.index()] = if info.full.is_some() {
                0.0
            } else if self.hs.finished() {
                self.circuit.solve(&self.hs, &mut energy)
            } else {
                return None;
            };
        }
        let empty = self.bits.all & !b.st[0] & !b.st[1];
        Some(CircuitView {
            score: leaf_score(resistance[me.index()], resistance[me.opponent().index()]),
            resistance,
            energy: cells(empty).map(|c| (c, energy[c.index()])).collect(),
        })
    }
}

/// A fixed-depth search of `pos` for `me` with one thread and a fresh
/// 16 MiB table, over the root's consider set: the best move, its score
/// and the nodes searched. `None` when the connections decide the root.
pub fn fixed_depth(pos: &Position, me: Color, depth: u32) -> Option<(Cell, i32, u64)> {
    match Width::of(pos.geometry()) {
        Width::Narrow => fixed_depth_on::<u128>(pos, me, depth),
        Width::Three => fixed_depth_on::<Wide<3>>(pos, me, depth),
        Width::Four => fixed_depth_on::<Wide<4>>(pos, me, depth),
        Width::Eleven => fixed_depth_on::<Wide<11>>(pos, me, depth),
    }
}

/// [`fixed_depth`] on the bitboard type `B` (`None` too when the board
/// does not fit it).
pub fn fixed_depth_on<B: Bitboard>(
    pos: &Position,
    me: Color,
    depth: u32,
) -> Option<(Cell, i32, u64)> {
    let mut s = vec![ConnSearch::<B>::new(pos)?];
    let moves = s[0].root(pos, me).ok()?;
    if moves.is_empty() {
        return None;
    }
    let tt = Tt::new(16);
    let stop = AtomicBool::new(false);
    let sh = Shared {
        tt: &tt,
        stop: super::Stop::new(&stop, &stop),
        deadline: Instant::now() + std::time::Duration::from_secs(24 * 3600),
        wide: false,
    };
    let mut order = moves;
    let mut out = None;
    for d in depths(depth) {
        let it = iteration(&mut s, None, &sh, pos, me, d, &order)?;
        order = it.order;
        out = Some((it.best, it.score));
    }
    out.map(|(c, v)| (c, v, s[0].nodes))
}

impl<B: Bitboard> ConnSearch<B> {
    /// The principal variation from the root of `pos` (`me` to move)
    /// through `first`: the table's best moves, at most `len` of them
    /// (fill-in stones are not part of it). The line stops early after a
    /// node where a decomposition's carrier was filled in: the table keeps
    /// its children under the filled position.
    pub fn principal_variation(
        &self,
        pos: &Position,
        me: Color,
        first: Cell,
        tt: &Tt,
        len: usize,
    ) -> Vec<Cell> {
        let filled = Board::filled(&self.bits, pos, me);
        // The root as the search saw it, its decompositions filled in.
        let mut board = match self.root {
            Some(root) if self.root_of == Some(filled) => root,
            _ => filled,
        };
        let mut line = Vec::new();
        let mut mv = first;
        loop {
            if (board.st[0] | board.st[1]).has(mv.index()) {
                break;
            }
            board = board.child(mv);
            line.push(mv);
            if line.len() >= len.max(1) {
                break;
            }
            board.fill(&self.bits);
            match tt.probe(tt_key(board.hash, board.me)).and_then(|e| e.mv) {
                Some(next) => mv = next,
                None => break,
            }
        }
        line
    }
}

/// What the connections say about a position with the mover to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The mover wins: a cell of the connection that wins (the key of its
    /// semi, a cell of its full's carrier), `None` when the fill-in's
    /// stones alone win.
    Won(Option<Cell>),
    /// The opponent wins: the cells where the mover can still make it
    /// answer (its full connection's carrier), `None` when any may do.
    Lost(Option<CellSet>),
    /// Undecided: the consider set (in cell order: an analyst solves no
    /// circuits).
    Open(Vec<Cell>),
}

/// What the connections say about a position below an analysed root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    /// The winner, when the connections decide the position.
    pub decided: Option<Color>,
    /// The consider set, when asked for and undecided.
    pub consider: Option<CellSet>,
}

impl<B: Bitboard> ConnSearch<B> {
    /// The verdict on `pos` with `me` to move, its connections kept for
    /// [`ConnSearch::facts`] on later positions of the line.
    pub fn verdict(&mut self, pos: &Position, me: Color) -> Verdict {
        let a = self.analyse_root(pos, me);
        let st = self.root.map_or([B::ZERO; 2], |r| r.st);
        let empty = pos.empty_cells();
        let on_board = |b: B| -> CellSet { cells(b).filter(|&c| empty.contains(c)).collect() };
        match a {
            Analysis::Decided(w, at) if w == me => Verdict::Won(on_board(at).iter().next()),
            Analysis::Decided(_, at) => {
                let only = on_board(at);
                Verdict::Lost((!only.is_empty()).then_some(only))
            }
            Analysis::Open(_, moves) => {
                // At the root, the moves an opponent reply kills go too
                // (their killers are searched).
                let set = moves.iter().fold(B::ZERO, |acc, c| acc | bit(c.index()));
                let (vulnerable, _) = ice::vulnerable(&self.bits, st, me, set, B::ZERO, B::ZERO);
                let kept: Vec<Cell> = moves
                    .iter()
                    .copied()
                    .filter(|c| !vulnerable.has(c.index()))
                    .collect();
                Verdict::Open(if kept.is_empty() { moves } else { kept })
            }
            Analysis::Captured(..) => unreachable!("analyse fills captured carriers in"),
        }
    }

    /// The facts of `pos` with `me` to move, a position on the line from
    /// the root [`ConnSearch::verdict`] analysed last (its runs start
    /// from the root's connections); the consider set when `consider`.
    pub fn facts(&mut self, pos: &Position, me: Color, consider: bool) -> Facts {
        // Dead cells go where the root's went, so that the root's
        // connections can seed this position's runs.
        let dead = self.root.map_or(me.opponent(), |r| r.dead);
        let mut board = Board::filled_dead(&self.bits, pos, me, dead);
        match self.analyse(&mut board, 1, consider) {
            Analysis::Decided(w, _) => Facts {
                decided: Some(w),
                consider: None,
            },
            Analysis::Open(_, moves) => Facts {
                decided: None,
                consider: consider.then(|| moves.into_iter().collect()),
            },
            Analysis::Captured(..) => unreachable!("analyse fills captured carriers in"),
        }
    }

    /// How many empty cells `color` still has to defend on `st`: the
    /// fewest in any of its edge-to-edge full connections (0 when its
    /// stones join its edges), `None` without one.
    fn cells_to_defend(&mut self, st: [B; 2], color: Color) -> Option<usize> {
        let info = self.hs.run_seeded(&self.bits, st, color, Goal::Whole, None);
        if info.full == Some(B::ZERO) && self.hs.graph_nodes() == 0 {
            return Some(0);
        }
        let (fulls, _) = self.hs.between(0, 1);
        let empty = self.bits.all & !st[0] & !st[1];
        fulls
            .into_iter()
            .map(|f| (f & empty).count() as usize)
            .min()
    }

    /// The winning move that leaves the most solid win, when the
    /// connections prove that `me` wins `pos` (not filled in: captured
    /// cells do not count as stones here): of the empty cells in its
    /// edge-to-edge connections, the one after which the fewest cells are
    /// left to defend ([`ConnSearch::cells_to_defend`]). Any winning move
    /// wins, but players and Benzene's endgame file expect the one that
    /// finishes soonest. Candidates go in the order most likely to
    /// matter (the semis' keys, the fulls' carriers smallest first, the
    /// semis' carriers), and none is started after `until`.
    pub fn simplest_win(&mut self, pos: &Position, me: Color, until: Instant) -> Option<Cell> {
        let st = stones::<B>(pos);
        let empty = self.bits.all & !st[0] & !st[1];
        self.hs.run_seeded(&self.bits, st, me, Goal::Whole, None);
        if self.hs.graph_nodes() < 2 {
            return None;
        }
        let (mut fulls, semis) = self.hs.between(0, 1);
        fulls.sort_by_key(|f| (*f & empty).count());
        let groups = std::iter::once(semis.iter().fold(B::ZERO, |acc, s| acc | bit(s.1)))
            .chain(fulls)
            .chain(semis.iter().map(|s| s.0));
        let mut seen = B::ZERO;
        let mut candidates = Vec::new();
        for g in groups {
            candidates.extend(cells(g & empty & !seen));
            seen |= g;
        }
        let mut best: Option<(usize, Cell)> = None;
        for c in candidates {
            if Instant::now() >= until {
                break;
            }
            let mut child = st;
            child[me.index()] |= bit(c.index());
            if let Some(n) = self.cells_to_defend(child, me)
                && best.is_none_or(|(m, _)| n < m)
            {
                best = Some((n, c));
            }
        }
        best.map(|(_, c)| c)
    }
}

/// One [`ConnSearch`] on the bitboard type of a board's size, for the
/// knowledge without the connection search: a root's verdict and the
/// facts of positions below it (the distance search's knowledge).
pub enum Analyst {
    Narrow(Box<ConnSearch<u128>>),
    Three(Box<ConnSearch<Wide<3>>>),
    Four(Box<ConnSearch<Wide<4>>>),
    Eleven(Box<ConnSearch<Wide<11>>>),
}

/// `$body` with `$s` the analyst's [`ConnSearch`], whatever its type.
macro_rules! with_search {
    ($a:expr, $s:ident => $body:expr) => {
        match $a {
            Analyst::Narrow($s) => $body,
            Analyst::Three($s) => $body,
            Analyst::Four($s) => $body,
            Analyst::Eleven($s) => $body,
        }
    };
}

impl Analyst {
    /// For `pos`'s board with H-search caps `caps`.
    pub fn new(pos: &Position, caps: Caps) -> Option<Analyst> {
        fn one<B: Bitboard>(pos: &Position, caps: Caps) -> Option<Box<ConnSearch<B>>> {
            let mut s = ConnSearch::with_caps(pos, caps)?;
            s.circuits = false;
            Some(Box::new(s))
        }
        Some(match Width::of(pos.geometry()) {
            Width::Narrow => Analyst::Narrow(one(pos, caps)?),
            Width::Three => Analyst::Three(one(pos, caps)?),
            Width::Four => Analyst::Four(one(pos, caps)?),
            Width::Eleven => Analyst::Eleven(one(pos, caps)?),
        })
    }

    /// Whether it is for `pos`'s board and these caps.
    pub fn is_for(&self, pos: &Position, caps: Caps) -> bool {
        with_search!(self, s => s.is_for(pos, caps))
    }

    /// Its H-search's runs give up after `deadline`
    /// ([`Hsearch::set_deadline`]).
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        with_search!(self, s => s.set_deadline(deadline))
    }

    /// Whether its runs' deadline has passed: they give up, and what they
    /// answer now is less than they would find.
    pub fn past_deadline(&self) -> bool {
        with_search!(self, s => s.hs.deadline().is_some_and(|d| Instant::now() >= d))
    }

    /// See [`ConnSearch::verdict`].
    pub fn verdict(&mut self, pos: &Position, me: Color) -> Verdict {
        with_search!(self, s => s.verdict(pos, me))
    }

    /// See [`ConnSearch::facts`].
    pub fn facts(&mut self, pos: &Position, me: Color, consider: bool) -> Facts {
        with_search!(self, s => s.facts(pos, me, consider))
    }

    /// See [`ConnSearch::simplest_win`].
    pub fn simplest_win(&mut self, pos: &Position, me: Color, until: Instant) -> Option<Cell> {
        with_search!(self, s => s.simplest_win(pos, me, until))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A widened pass over a depth already searched is a search of its
    /// own (more nodes than the narrow pass took): the narrow pass's
    /// table entries order it but do not cut it off, where a repeat of
    /// the narrow pass is answered by the table.
    #[test]
    fn a_widened_pass_is_not_answered_by_the_narrow_one() {
        let pos = Position::from_names(9, 9, &["e5", "c7"], &["d6", "f3"]);
        let me = Color::Black;
        let mut s = vec![ConnSearch::<u128>::new(&pos).expect("fits")];
        let moves = s[0].root(&pos, me).expect("undecided");
        let tt = Tt::new(16);
        let stop = AtomicBool::new(false);
        let far = Instant::now() + std::time::Duration::from_secs(24 * 3600);
        let mut sh = Shared {
            tt: &tt,
            stop: super::super::Stop::new(&stop, &stop),
            deadline: far,
            wide: false,
        };
        let mut order = moves;
        let mut first = 0;
        for d in depths(4) {
            let before = s[0].nodes;
            order = iteration(&mut s, None, &sh, &pos, me, d, &order)
                .unwrap()
                .order;
            first = s[0].nodes - before;
        }
        let pass = |s: &mut Vec<ConnSearch<u128>>, sh: &Shared| {
            let before = s[0].nodes;
            let it = iteration(s, None, sh, &pos, me, 4, &order).unwrap();
            assert!(it.complete);
            s[0].nodes - before
        };
        let repeat = pass(&mut s, &sh);
        sh.wide = true;
        let widened = pass(&mut s, &sh);
        // A repeated root move is a probe of the table, up to three times
        // (the reduced probe, the null window, the full window).
        assert!(
            repeat <= 3 * order.len() as u64,
            "{repeat} nodes to repeat {} moves",
            order.len()
        );
        assert!(
            widened > first,
            "{widened} nodes widened, {first} for the narrow pass"
        );
    }

    /// With two searchers the first root move's own moves are shared
    /// between them, and the move scores what one searcher finds (at
    /// depth 3 no reduction makes the result depend on the order the
    /// moves finish in).
    #[test]
    fn two_searchers_share_the_first_move_and_agree() {
        let pos = Position::from_names(9, 9, &["e5", "c7"], &["d6", "f3"]);
        let me = Color::Black;
        let far = Instant::now() + std::time::Duration::from_secs(24 * 3600);
        let stop = AtomicBool::new(false);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("pool");
        for depth in [3, 5] {
            let score = |n: usize| {
                let mut s: Vec<ConnSearch<u128>> = (0..n)
                    .map(|_| ConnSearch::new(&pos).expect("fits"))
                    .collect();
                let mut moves = Vec::new();
                for x in s.iter_mut() {
                    moves = x.root(&pos, me).expect("undecided");
                }
                let tt = Tt::new(16);
                let sh = Shared {
                    tt: &tt,
                    stop: super::super::Stop::new(&stop, &stop),
                    deadline: far,
                    wide: false,
                };
                let v = if n == 1 {
                    s[0].root_child(&sh, moves[0], depth, (-INF, INF))
                } else {
                    first_move_shared(&mut s, &pool, &sh, moves[0], depth)
                };
                assert!(!s[0].aborted);
                (v, s.iter().map(|x| x.nodes).collect::<Vec<u64>>())
            };
            let (one, _) = score(1);
            let (two, nodes) = score(2);
            assert!(
                nodes[1] > 0,
                "depth {depth}: the second searcher did nothing"
            );
            if depth == 3 {
                assert_eq!(one, two, "depth {depth}");
            }
        }
    }
}
