//! Inferior cell analysis with every cell's reason, for HexGui's
//! `vc-build` overlay and the choice among winning moves, on the bitboard
//! core the searches use ([`super::ice`]): nothing here tests a cell by
//! itself, it asks `ice` and records why.
//!
//! - **dead** and **captured** cells: [`ice::fill_in`] to a fixpoint. In
//!   Hex a cell useless to one side is useless to the other (see `ice`'s
//!   notes), so a cell irrelevant to one side only (Benzene's "permanently
//!   inferior") is dead and filled as such;
//! - **vulnerable** cells of the player to move, with their killers: an
//!   opponent reply that leaves the cell dead ([`ice::vulnerable`], either
//!   side's test). A reply that leaves the mover's stone useless to the
//!   mover only (Benzene's "reversible") leaves it dead by the same fact,
//!   so it is a killer;
//! - **dominated** cells, with their dominators: by neighbourhood
//!   ([`ice::Neighbourhoods`]), and by fill-in: when the fill-in after the
//!   mover plays `d` fills `c` (other than with an opponent capture), `d`
//!   is at least as good as `c` (see [`fill_domination`]).
//!
//! Pruning keeps, through chains of dominators and killers, at least one
//! cell of every cycle: every pruned cell has such a chain to a kept cell.

use crate::board::{Bitboard, Cell, CellSet, Color, Position};

use super::ice;
use super::vc::{Bits, bit, cells, stones};

/// What inferior cell analysis found, for the player `to_move`.
#[derive(Clone, Debug, Default)]
pub struct Inferior {
    /// Dead cells, by the colour they were filled with (index = colour).
    pub dead: [CellSet; 2],
    /// Captured cells, by the colour that captured (and fills) them.
    pub captured: [CellSet; 2],
    /// Vulnerable cells of the player to move, with their killers.
    pub vulnerable: Vec<(Cell, CellSet)>,
    /// Dominated cells of the player to move, with their dominators.
    pub dominated: Vec<(Cell, CellSet)>,
    /// The cells pruned from the player to move's moves (fills included).
    pruned: CellSet,
}

impl Inferior {
    /// Every cell filled with `color`.
    pub fn fill(&self, color: Color) -> CellSet {
        let i = color.index();
        self.dead[i].union(&self.captured[i])
    }

    /// Every filled cell.
    pub fn filled(&self) -> CellSet {
        self.fill(Color::Black).union(&self.fill(Color::White))
    }

    /// The cells the player to move need not consider: filled cells and
    /// the vulnerable and dominated ones kept out by the pruning.
    pub fn pruned(&self) -> CellSet {
        self.pruned
    }
}

fn set<B: Bitboard>(b: B) -> CellSet {
    cells(b).collect()
}

/// The bitboard geometry of `pos`'s board (every board up to 26x26 fits
/// the type [`super::vc::Width::of`] gives).
fn bits_of<B: Bitboard>(pos: &Position) -> Bits<B> {
    Bits::new(pos.geometry()).expect("the board fits its width's bitboards")
}

/// [`ice::fill_in`] on `pos`, dead cells filled with `dead`: the filled
/// position (fill stones played on a copy) and the cells filled with each
/// colour. It stops early when a side has joined its edges.
pub fn fill_in(pos: &Position, dead: Color) -> (Position, [CellSet; 2]) {
    super::on_bitboard!(pos, fill_in_on(pos, dead))
}

fn fill_in_on<B: Bitboard>(pos: &Position, dead: Color) -> (Position, [CellSet; 2]) {
    let bits = bits_of::<B>(pos);
    let mut st = stones::<B>(pos);
    let f = ice::fill_in(&bits, &mut st, dead);
    let fills = f.stones.map(set);
    let mut out = pos.clone();
    for color in Color::BOTH {
        for c in fills[color.index()].iter() {
            out.play(color, c);
        }
    }
    (out, fills)
}

/// The full analysis for the player `to_move`: the fill-in to a fixpoint
/// (dead cells filled with the opponent's colour, as the connection
/// search's root does), then vulnerable and dominated cells on the filled
/// board, and the pruned set. Nothing is pruned beyond the fill-in when a
/// side has joined its edges (before or after it).
pub fn analyze(pos: &Position, to_move: Color) -> Inferior {
    super::on_bitboard!(pos, analyze_on(pos, to_move))
}

fn analyze_on<B: Bitboard>(pos: &Position, to_move: Color) -> Inferior {
    let mut inf = Inferior::default();
    if pos.winner().is_some() {
        return inf;
    }
    let bits = bits_of::<B>(pos);
    let mut st = stones::<B>(pos);
    let dead = to_move.opponent();
    let f = ice::fill_in(&bits, &mut st, dead);
    for color in Color::BOTH {
        let s = f.stones[color.index()];
        inf.dead[color.index()] = set(s & !f.captured);
        inf.captured[color.index()] = set(s & f.captured);
    }
    inf.pruned = inf.filled();
    if Color::BOTH.iter().any(|&c| ice::joined(&bits, st, c)) {
        return inf;
    }
    let empty = bits.all & !st[0] & !st[1];
    // Per cell: the cells at least as good for the mover.
    let mut better = vec![B::ZERO; bits.n];
    let view = ice::Neighbourhoods::new(&bits, st, to_move);
    let doms = fill_domination(&bits, st, to_move, dead);
    for c in empty.ones() {
        // Each neighbour's reply on its own: `ice::vulnerable` stops at a
        // cell's first killer.
        let mut killers = B::ZERO;
        for y in (bits.nbr(c) & empty).ones() {
            let (pruned, _) = ice::vulnerable(&bits, st, to_move, bit(c), B::ZERO, bit(y));
            if pruned.any() {
                killers |= bit(y);
            }
        }
        let dominators = view.dominators(&bits, c, empty) | doms[c];
        if killers.any() {
            inf.vulnerable.push((Cell::from_index(c), set(killers)));
        }
        if dominators.any() {
            inf.dominated.push((Cell::from_index(c), set(dominators)));
        }
        better[c] = killers | dominators;
    }
    inf.pruned = inf.pruned.union(&set(prune(empty, &better)));
    inf
}

/// Domination through fill-in, on the filled board `st` (at its
/// fixpoint): per cell `c`, the cells `d` such that the fill-in after
/// `to_move` plays `d` ([`ice::fill_in_near`]) fills `c` other than with
/// an opponent capture. Then `d` is at least as good as `c`:
/// `P + K(c) <= P + K(c) + K(d)`, and that position equals `P + K(d)`
/// because each fill step that led to `c` stays valid with one more stone
/// (dead and captured stay so) and `c`'s own step says its colour does not
/// matter. Opponent captures are left out: those cells are filled on the
/// condition that the opponent answers in them.
fn fill_domination<B: Bitboard>(bits: &Bits<B>, st: [B; 2], to_move: Color, dead: Color) -> Vec<B> {
    let empty = bits.all & !st[0] & !st[1];
    let opp = to_move.opponent().index();
    let mut doms = vec![B::ZERO; bits.n];
    for d in empty.ones() {
        let mut after = st;
        after[to_move.index()] |= bit(d);
        let near = ice::touched_by(bits, after, d);
        let f = ice::fill_in_near(bits, &mut after, dead, near);
        let taken = (f.stones[0] | f.stones[1]) & !(f.captured & f.stones[opp]);
        for c in taken.ones() {
            doms[c] |= bit(d);
        }
    }
    doms
}

/// Which of the `cells` to prune given `better[c]`, the cells at least as
/// good as `c`: `c` goes when one of them cannot reach back to it (through
/// such edges), or one of a lower index in the same cycle. Every pruned
/// cell then has a chain of edges ending at a kept cell.
fn prune<B: Bitboard>(cells: B, better: &[B]) -> B {
    let mut reach = better.to_vec();
    // Transitive closure (only cells with out-edges can extend paths).
    let sources: Vec<usize> = cells.ones().filter(|&c| better[c].any()).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for &c in &sources {
            let mut r = reach[c];
            for d in reach[c].ones() {
                r |= reach[d];
            }
            if r != reach[c] {
                reach[c] = r;
                changed = true;
            }
        }
    }
    let mut pruned = B::ZERO;
    for &c in &sources {
        if better[c].ones().any(|d| !reach[d].has(c) || d < c) {
            pruned |= bit(c);
        }
    }
    pruned
}

/// When `cell` is an inferior move for `to_move` (dominated, or vulnerable
/// to an opponent reply), the cells at least as good as it, through chains
/// of dominators and killers, that are not inferior themselves; nearest
/// first. Empty when `cell` is not inferior (or is a fill-in cell, which
/// has no such chain).
pub fn superior_cells(pos: &Position, to_move: Color, cell: Cell) -> Vec<Cell> {
    analyze(pos, to_move).superior(cell)
}

impl Inferior {
    /// [`superior_cells`] of this analysis.
    pub fn superior(&self, cell: Cell) -> Vec<Cell> {
        let pruned = self.pruned();
        if !pruned.contains(cell) {
            return Vec::new();
        }
        let better = |c: Cell| {
            let find = |list: &[(Cell, CellSet)]| {
                list.iter()
                    .find(|(x, _)| *x == c)
                    .map_or(CellSet::EMPTY, |(_, s)| *s)
            };
            find(&self.dominated).union(&find(&self.vulnerable))
        };
        let mut seen = CellSet::EMPTY;
        seen.insert(cell);
        let (mut queue, mut out) = (std::collections::VecDeque::from([cell]), Vec::new());
        while let Some(c) = queue.pop_front() {
            for d in better(c).iter() {
                if seen.contains(d) {
                    continue;
                }
                seen.insert(d);
                if !pruned.contains(d) {
                    out.push(d);
                }
                queue.push_back(d);
            }
        }
        out
    }

    /// `moves` (a set that keeps a winning move whenever the player to move
    /// has one, such as a consider set pruned by another analysis) less the
    /// inferior cells of this analysis, each only while one of its
    /// [`Inferior::superior`] cells (at least as good) stays. Two analyses
    /// may break a cycle of equal cells at different cells; this keeps one
    /// of them. Filled cells stay: another analysis's set may hold one in
    /// place of a winning cell it filled differently.
    pub fn prune_from(&self, moves: &CellSet) -> CellSet {
        let kept = moves.difference(&self.pruned());
        let mut out = kept;
        for c in moves.intersection(&self.pruned()).iter() {
            if !self.superior(c).iter().any(|&s| kept.contains(s)) {
                out.insert(c);
            }
        }
        out
    }
}
