//! What the solver knows about a position besides its proof numbers:
//! whether it is already decided, which moves need searching and in what
//! order. Two implementations, named by what they know:
//!
//! - [`BoardOracle`]: the board alone. A side that can join its edges with one
//!   stone wins; a side facing two such threats loses; facing one it must
//!   block. Cells cut off from one of the mover's edges *and* one of the
//!   opponent's are dead and skipped. Always correct, but blind to bridges.
//! - [`HsearchOracle`] (the default): the solver's own bitboard H-search
//!   ([`crate::knowledge::vc`]): connection-decided positions and the mustplay, after
//!   the fill-in and pruning of [`crate::knowledge::ice`]; expansions and fill-ins
//!   are cached per position.
//!
//! The board oracle orders moves by an evaluation's per-cell values (see
//! [`order`]); the H-search oracle by default by the circuits over its own
//! connections ([`MoveOrder::Connections`]).

use std::collections::HashMap;

use crate::board::{Bitboard, Cell, CellSet, Color, Position, zobrist_key};
use crate::eval::{CellValues, EvalKind, Evaluator};
use crate::knowledge::circuit::Circuit;

use super::MoveOrder;
use crate::knowledge::ice;
use crate::knowledge::vc::{Bits, Closure, EdgeInfo, Goal, Hsearch, cells, stones};

/// A set of cells as a 128-bit bitboard ([`crate::knowledge::vc`]); [`ALL`] stands
/// for "every cell" on any board.
pub type Proof = u128;

/// The proof set that claims nothing: every cell.
pub const ALL: Proof = u128::MAX;

/// A bitboard's cells as a proof set: [`ALL`] when it holds a cell a
/// proof set cannot name (index 128 or more, on boards above 11x11), so
/// that no move is pruned on its account.
fn proof<B: Bitboard>(cells: B) -> Proof {
    if B::BITS > 128 && (cells & !B::below(128)).any() {
        return ALL;
    }
    cells.low128()
}

/// A node's expansion: decided, or the moves to search, best first.
///
/// Proof sets: a set of cells outside which extra stones of the losing
/// side cannot change the result. `Decided` carries the proof of its
/// winner; `Moves` carries the cells that justify leaving the other moves
/// out (the carriers of the opponent's threats behind the mustplay), which
/// belong to the proof if every move turns out to lose.
pub enum Expansion {
    Decided(Color, Proof),
    Moves(Vec<Cell>, Proof),
}

pub trait Oracle {
    fn position(&self) -> &Position;
    fn play(&mut self, color: Color, cell: Cell);
    fn undo(&mut self);
    /// Plays fill-in stones that cannot change the result, `to_move`
    /// being the side to play; returns how many were played (the caller
    /// undoes exactly that many) and the cells any proof of the filled
    /// position must include (an opponent stone there would undo the
    /// fill-in's reasoning).
    fn fill(&mut self, to_move: Color) -> (usize, Proof);
    fn expand(&mut self, to_move: Color) -> Expansion;
    /// Like `expand`, but the moves need not be ordered (a cheap first
    /// look at a child).
    fn peek(&mut self, to_move: Color) -> Expansion {
        self.expand(to_move)
    }

    /// A move proved to win at once (by a connection), when known.
    fn winning_key(&mut self, _to_move: Color) -> Option<Cell> {
        None
    }

    /// Called before the search goes down into a child of the current
    /// position: an oracle that builds a child's answers from its
    /// parent's can make sure the parent's are at hand.
    fn before_children(&mut self) {}
}

/// The cells where `color` would join its two edges with one stone.
pub fn winning_cells(pos: &Position, color: Color) -> CellSet {
    let g = pos.geometry();
    let own = pos.stones(color);
    let empty = pos.empty_cells();
    let (e1, e2) = color.edges();
    let reach = |edge| {
        let mut seen = g.edge_cells(edge).intersection(own);
        let mut stack: Vec<Cell> = seen.iter().collect();
        while let Some(c) = stack.pop() {
            for &n in g.neighbours(c) {
                if own.contains(n) && !seen.contains(n) {
                    seen.insert(n);
                    stack.push(n);
                }
            }
        }
        seen
    };
    let (a, b) = (reach(e1), reach(e2));
    let mut out = CellSet::EMPTY;
    for c in empty.iter() {
        let mut ta = g.touches(c, e1);
        let mut tb = g.touches(c, e2);
        for &n in g.neighbours(c) {
            ta |= a.contains(n);
            tb |= b.contains(n);
        }
        if ta && tb {
            out.insert(c);
        }
    }
    out
}

/// Cells of `color`'s empty-or-own region reachable from `edge`.
fn region(pos: &Position, color: Color, edge: crate::board::Edge) -> CellSet {
    let g = pos.geometry();
    let open = *pos.stones(color.opponent());
    let open = g.all_cells().difference(&open);
    let mut seen = g.edge_cells(edge).intersection(&open);
    let mut stack: Vec<Cell> = seen.iter().collect();
    while let Some(c) = stack.pop() {
        for &n in g.neighbours(c) {
            if open.contains(n) && !seen.contains(n) {
                seen.insert(n);
                stack.push(n);
            }
        }
    }
    seen
}

/// Cells on some possible winning chain of `color`: reachable from both of
/// its edges through empty cells and its own stones. (Necessary, not
/// sufficient, for a cell to matter to that colour.)
fn live_for(pos: &Position, color: Color) -> CellSet {
    let (e1, e2) = color.edges();
    region(pos, color, e1).intersection(&region(pos, color, e2))
}

/// Orders moves by an evaluator's per-cell values (both sides' urgency),
/// highest first; ties by cell index for reproducibility.
pub fn order(
    eval: &mut dyn Evaluator,
    pos: &Position,
    to_move: Color,
    moves: &mut [Cell],
    values: &mut CellValues,
) {
    if moves.len() < 2 {
        return;
    }
    eval.evaluate_cells(pos, to_move, values);
    moves.sort_by_key(|c| (std::cmp::Reverse(values[c.index()]), c.index()));
}

/// The board alone (see the module notes).
pub struct BoardOracle {
    pos: Position,
    eval: Box<dyn Evaluator>,
    values: Box<CellValues>,
}

impl BoardOracle {
    pub fn new(pos: &Position, eval: EvalKind) -> BoardOracle {
        BoardOracle {
            pos: pos.clone(),
            eval: eval.build(),
            values: Box::new([0; crate::board::MAX_CELLS]),
        }
    }
}

impl Oracle for BoardOracle {
    fn position(&self) -> &Position {
        &self.pos
    }

    fn play(&mut self, color: Color, cell: Cell) {
        self.pos.play(color, cell);
    }

    fn undo(&mut self) {
        self.pos.unplay();
    }

    fn fill(&mut self, _: Color) -> (usize, Proof) {
        (0, 0)
    }

    fn expand(&mut self, to_move: Color) -> Expansion {
        if let Some(w) = self.pos.winner() {
            return Expansion::Decided(w, 0);
        }
        if !winning_cells(&self.pos, to_move).is_empty() {
            return Expansion::Decided(to_move, ALL);
        }
        let threats = winning_cells(&self.pos, to_move.opponent());
        match threats.len() {
            0 => {}
            1 => return Expansion::Moves(threats.iter().collect(), ALL),
            _ => return Expansion::Decided(to_move.opponent(), ALL),
        }
        // A cell on no chain of either side is dead: playing it is a pass,
        // and passing never helps in Hex. Keep one if all are dead.
        let live = live_for(&self.pos, to_move).union(&live_for(&self.pos, to_move.opponent()));
        let empty = self.pos.empty_cells();
        let mut moves: Vec<Cell> = empty.intersection(&live).iter().collect();
        if moves.is_empty() {
            moves.extend(empty.iter().take(1));
        }
        order(
            self.eval.as_mut(),
            &self.pos,
            to_move,
            &mut moves,
            &mut self.values,
        );
        Expansion::Moves(moves, ALL)
    }
}

/// An H-search run remembered: its position hash, colour, goal and answer.
type Recent<B> = (u64, Color, Goal, EdgeInfo<B>);

/// The solver's own bitboard H-search (boards of at most 254 cells, on the
/// bitboard type of their size): the mover wins with an edge-to-edge semi
/// or full; loses to an opponent full or when the opponent's edge semis
/// share no cell; otherwise must play in their common cells. Dead cells and captured pairs are filled in
/// first ([`ice::fill_in`]), and dominated and vulnerable moves are left
/// out ([`ice::dominated`], [`ice::vulnerable`]).
pub struct HsearchOracle<B: Bitboard> {
    pos: Position,
    bits: Bits<B>,
    hs: Hsearch<B>,
    /// How moves are ordered; `eval` serves [`MoveOrder::Eval`].
    move_order: MoveOrder,
    circuit: Circuit<B>,
    /// The position (hash) and colour of the finished run `hs`'s tables
    /// hold, which the circuits are solved over.
    tables: Option<(u64, Color)>,
    /// The energies of the circuit of the mover's last finished run
    /// ([`Goal::Mover`]), with that run's position (hash) and colour: the
    /// expansion that follows orders its moves with them, and so needs a
    /// run of the opponent's alone.
    mover_energy: Box<[f64; 256]>,
    mover_energy_of: Option<(u64, Color)>,
    eval: Box<dyn Evaluator>,
    values: Box<CellValues>,
    /// Expansions already computed, by table key: the search re-enters a
    /// node many times, and H-search plus ordering is most of a node's cost.
    cache: HashMap<u64, Cached>,
    /// Fill-ins already computed, by table key (the search re-enters
    /// nodes, and the analysis is a fifth of a node's cost).
    fills: HashMap<u64, ice::Filled<B>>,
    /// Hashes of positions filled in to their fixpoint, by their low bits
    /// (a newer one takes an older one's place): a child of one needs
    /// its fill-in tested only near its move ([`ice::fill_in_near`]).
    fixpoints: Box<[Option<u64>; FIXPOINTS]>,
    /// Seed each H-search with the connections of an earlier position of
    /// the line ([`Hsearch::run_seeded`]).
    incremental: bool,
    /// The connections of recent finished runs.
    closures: Closures<B>,
    /// Leave out moves an opponent reply kills ([`ice::vulnerable`]).
    vulnerable: bool,
    /// Fill in the carriers decompositions capture
    /// ([`Hsearch::decomposition`]).
    decompose: bool,
    /// Per colour: the last H-search run's position hash, colour, goal and
    /// answer.
    recent: [Option<Recent<B>>; 2],
}

/// The connections of the last [`CLOSURES`] finished H-search runs, found
/// by the hash of their stones and their colour. A run looks here for the
/// closest position of its line: the df-pn search comes back to a node's
/// subtree many times, each time to expand one new leaf below it, so the
/// closures of its recent ancestors are what the new leaf can start from.
struct Closures<B: Bitboard> {
    slots: Vec<Closure<B>>,
    /// Per slot: used as a seed since the eviction hand last passed it
    /// (such a slot is passed over once: "second chance" eviction keeps
    /// the ancestors a subtree keeps starting from).
    used: Vec<bool>,
    by_key: HashMap<(u64, Color), usize>,
    /// The slot the next closure replaces (oldest first).
    next: usize,
}

/// How many closures are kept (on 11x11 a closure holds 4,000-8,000
/// connections of 24 bytes, 100-200 kB: the cache adds up to about 50 MB
/// to a solve).
const CLOSURES: usize = 256;

/// How many moves back a run looks for a closure to start from.
const LOOK_BACK: usize = 24;

impl<B: Bitboard> Closures<B> {
    fn new() -> Closures<B> {
        Closures {
            slots: Vec::new(),
            used: Vec::new(),
            by_key: HashMap::new(),
            next: 0,
        }
    }

    /// The closure for `color` of the latest position of `pos`'s line
    /// (itself or up to [`LOOK_BACK`] moves back) that has one.
    fn find(&mut self, pos: &Position, st: [B; 2], color: Color) -> Option<&Closure<B>> {
        let mut hash = pos.hash();
        let mut back = pos.placed().rev();
        for _ in 0..=LOOK_BACK {
            if let Some(&i) = self.by_key.get(&(hash, color))
                && self.slots[i].seeds(st, color)
            {
                self.used[i] = true;
                return Some(&self.slots[i]);
            }
            let (c, cell) = back.next()?;
            hash ^= zobrist_key(c, cell);
        }
        None
    }

    /// Whether the closure of the position with `hash` for `color` is
    /// here (it is then kept through the next eviction pass).
    fn keep(&mut self, hash: u64, color: Color) -> bool {
        match self.by_key.get(&(hash, color)) {
            Some(&i) => {
                self.used[i] = true;
                true
            }
            None => false,
        }
    }

    /// Keeps the connections of `hs`'s last run (which went to the end)
    /// in the slot the eviction hand reaches, evicting what it held.
    fn store(&mut self, hs: &Hsearch<B>, st: [B; 2], hash: u64, color: Color) {
        if self.next == self.slots.len() {
            self.slots.push(Closure::default());
            self.used.push(false);
        }
        while self.used[self.next] {
            self.used[self.next] = false;
            self.next = (self.next + 1) % self.slots.len();
        }
        let slot = &mut self.slots[self.next];
        if let Some(old) = slot.color {
            self.by_key.remove(&(slot.hash, old));
        }
        if hs.export(st, hash, color, slot) {
            self.by_key.insert((hash, color), self.next);
            self.next = (self.next + 1) % CLOSURES;
        }
    }
}

/// A stored expansion (moves possibly not ordered yet).
enum Cached {
    Decided(Color, Proof),
    Moves(Box<[Cell]>, Proof, bool),
}

/// Entries kept before the cache is emptied and started again.
const CACHE_MAX: usize = 100_000;

/// Slots of [`HsearchOracle`]'s fixpoint table (a power of two).
const FIXPOINTS: usize = 1024;

impl<B: Bitboard> HsearchOracle<B> {
    /// `None` when the board is too big for the bitboards.
    pub fn new(
        pos: &Position,
        move_order: MoveOrder,
        incremental: bool,
        vulnerable: bool,
        decompose: bool,
    ) -> Option<HsearchOracle<B>> {
        Some(HsearchOracle {
            incremental,
            vulnerable,
            decompose,
            recent: [None; 2],
            closures: Closures::new(),
            bits: Bits::new(pos.geometry())?,
            pos: pos.clone(),
            hs: Hsearch::new(),
            move_order,
            circuit: Circuit::new(),
            tables: None,
            mover_energy: Box::new([0.0; 256]),
            mover_energy_of: None,
            eval: move_order.eval().build(),
            values: Box::new([0; crate::board::MAX_CELLS]),
            cache: HashMap::new(),
            fills: HashMap::new(),
            fixpoints: Box::new([None; FIXPOINTS]),
        })
    }
}

impl<B: Bitboard> Oracle for HsearchOracle<B> {
    fn position(&self) -> &Position {
        &self.pos
    }

    fn play(&mut self, color: Color, cell: Cell) {
        self.pos.play(color, cell);
    }

    fn undo(&mut self) {
        self.pos.unplay();
    }

    fn fill(&mut self, to_move: Color) -> (usize, Proof) {
        if self.pos.winner().is_some() {
            return (0, 0);
        }
        let key = super::tt::key(self.pos.hash(), to_move);
        if let Some(f) = self.fills.get(&key).copied() {
            let n = self.play_filled(f.stones);
            self.note_fixpoint();
            return (n, proof(f.captured));
        }
        let mut st = stones(&self.pos);
        let near = match self.pos.placed().last() {
            Some((color, cell)) if self.is_fixpoint(self.pos.hash() ^ zobrist_key(color, cell)) => {
                ice::touched_by(&self.bits, st, cell.index())
            }
            _ => self.bits.all,
        };
        let mut total = ice::fill_in_near(&self.bits, &mut st, to_move.opponent(), near);
        let mut n = self.play_filled(total.stones);
        // Then the carriers decompositions capture, each followed by the
        // fill-in it allows. The H-search runs are the expansion's own (it
        // reuses their answers); one that stops early decides the position,
        // and nothing more is filled.
        while self.decompose && self.pos.winner().is_none() {
            let opp = to_move.opponent();
            let mut found = None;
            for (color, goal) in [(to_move, Goal::Mover), (opp, Goal::Opponent)] {
                self.hsearch(st, color, goal);
                if !self.hs.finished() {
                    break;
                }
                found = self
                    .hs
                    .decomposition(&self.bits, st, color)
                    .map(|c| (color, c));
                if found.is_some() {
                    break;
                }
            }
            let Some((color, carrier)) = found else {
                break;
            };
            let mut add = [B::ZERO; 2];
            add[color.index()] = carrier;
            st[color.index()] |= carrier;
            let more = ice::fill_in(&self.bits, &mut st, to_move.opponent());
            for ((a, m), t) in add.iter_mut().zip(more.stones).zip(&mut total.stones) {
                *a |= m;
                *t |= *a;
            }
            total.captured |= carrier | more.captured;
            n += self.play_filled(add);
        }
        if self.fills.len() >= CACHE_MAX {
            self.fills.clear();
        }
        self.fills.insert(key, total);
        self.note_fixpoint();
        (n, proof(total.captured))
    }

    fn expand(&mut self, to_move: Color) -> Expansion {
        self.expand_cached(to_move, true)
    }

    fn peek(&mut self, to_move: Color) -> Expansion {
        self.expand_cached(to_move, false)
    }

    fn winning_key(&mut self, to_move: Color) -> Option<Cell> {
        self.winning_key_fresh(to_move)
    }

    /// Keeps (or builds again) both colours' closures of this position,
    /// so that its children's runs start from them: the df-pn search
    /// expands a node's children over many visits, long after the node's
    /// own runs left the [`Closures`].
    fn before_children(&mut self) {
        if !self.incremental || self.pos.winner().is_some() {
            return;
        }
        let st: [B; 2] = stones(&self.pos);
        for color in Color::BOTH {
            if !self.closures.keep(self.pos.hash(), color) {
                self.hsearch(st, color, Goal::Closure);
            }
        }
    }
}

impl<B: Bitboard> HsearchOracle<B> {
    fn is_fixpoint(&self, hash: u64) -> bool {
        self.fixpoints[hash as usize % FIXPOINTS] == Some(hash)
    }

    /// Notes the position, just filled in, as a fixpoint of the fill-in
    /// (unless someone has won, where the fill-in stops short).
    fn note_fixpoint(&mut self) {
        if self.pos.winner().is_none() {
            let hash = self.pos.hash();
            self.fixpoints[hash as usize % FIXPOINTS] = Some(hash);
        }
    }

    /// Plays fill-in stones (Black, White); returns how many.
    fn play_filled(&mut self, add: [B; 2]) -> usize {
        let mut n = 0;
        for color in Color::BOTH {
            for c in cells(add[color.index()]) {
                self.pos.play(color, c);
                n += 1;
            }
        }
        n
    }

    fn expand_cached(&mut self, to_move: Color, ordered: bool) -> Expansion {
        let key = super::tt::key(self.pos.hash(), to_move);
        if let Some(c) = self.cache.get_mut(&key) {
            return match c {
                Cached::Decided(w, p) => Expansion::Decided(*w, *p),
                Cached::Moves(m, p, is_ordered) => {
                    let (mut m, p) = (m.to_vec(), *p);
                    if !ordered || *is_ordered {
                        return Expansion::Moves(m, p);
                    }
                    *is_ordered = true;
                    self.order_moves(to_move, &mut m);
                    if let Some(Cached::Moves(kept, ..)) = self.cache.get_mut(&key) {
                        kept.copy_from_slice(&m);
                    }
                    Expansion::Moves(m, p)
                }
            };
        }
        let e = self.expand_fresh(to_move, ordered);
        if self.cache.len() >= CACHE_MAX {
            self.cache.clear();
        }
        let c = match &e {
            Expansion::Decided(w, p) => Cached::Decided(*w, *p),
            Expansion::Moves(m, p) => Cached::Moves(m.clone().into_boxed_slice(), *p, ordered),
        };
        self.cache.insert(key, c);
        e
    }

    fn expand_fresh(&mut self, to_move: Color, ordered: bool) -> Expansion {
        if let Some(w) = self.pos.winner() {
            return Expansion::Decided(w, 0);
        }
        let st: [B; 2] = stones(&self.pos);
        let empty = self.bits.all & !st[0] & !st[1];
        let mine = self.hsearch_again(st, to_move, Goal::Mover);
        if let Some(carrier) = mine.full {
            return Expansion::Decided(to_move, proof(carrier));
        }
        if let Some((_, carrier)) = mine.semi {
            return Expansion::Decided(to_move, proof(carrier));
        }
        let opp = to_move.opponent();
        let theirs = self.hsearch_again(st, opp, Goal::Opponent);
        if let Some(carrier) = theirs.full {
            return Expansion::Decided(opp, proof(carrier));
        }
        let must = if theirs.semis > 0 {
            theirs.semi_cap & empty
        } else {
            empty
        };
        if must.is_empty() {
            return Expansion::Decided(opp, proof(theirs.semi_union));
        }
        let live = (self.bits.live(st, to_move) | self.bits.live(st, opp)) & must;
        let chosen = if live.any() { live } else { must.lowest() };
        // Moves another move makes pointless; if that leaves nothing, the
        // dominating moves lie outside the mustplay and lose.
        let dominated = ice::dominated(&self.bits, st, to_move, chosen);
        let (vulnerable, killers) = if self.vulnerable {
            ice::vulnerable(&self.bits, st, to_move, chosen, dominated, empty & !must)
        } else {
            (B::ZERO, B::ZERO)
        };
        let chosen = chosen & !dominated & !vulnerable;
        // The killers must stay empty for their pruning to hold.
        let left_out = theirs.semi_union | killers;
        if chosen.is_empty() {
            return Expansion::Decided(opp, proof(left_out));
        }
        let mut moves: Vec<Cell> = cells(chosen).collect();
        if ordered {
            self.order_moves(to_move, &mut moves);
        }
        Expansion::Moves(moves, proof(left_out))
    }

    /// Orders `moves` of the current position (undecided, `to_move` to
    /// play), best first, ties by cell index.
    fn order_moves(&mut self, to_move: Color, moves: &mut [Cell]) {
        if moves.len() < 2 {
            return;
        }
        if let MoveOrder::Eval(_) = self.move_order {
            order(
                self.eval.as_mut(),
                &self.pos,
                to_move,
                moves,
                &mut self.values,
            );
            return;
        }
        // Each colour's circuit over its connections, as the connection
        // search's nodes solve them; the colour whose run the tables hold
        // already goes first, the other needs a run of its own (seeded
        // with this position's closure when it is kept: a copy, no
        // combining).
        let st: [B; 2] = stones(&self.pos);
        let hash = self.pos.hash();
        let opp = to_move.opponent();
        let colors = if self.tables == Some((hash, opp)) {
            [opp, to_move]
        } else {
            [to_move, opp]
        };
        let mut energy = [0.0f64; 256];
        let mover_known = self.mover_energy_of == Some((hash, to_move));
        if mover_known {
            energy.copy_from_slice(&self.mover_energy[..]);
        }
        for color in colors {
            if color == to_move && mover_known {
                continue;
            }
            if self.tables != Some((hash, color)) {
                self.hsearch(st, color, Goal::Closure);
            }
            if self.hs.finished() {
                self.circuit.solve(&self.hs, &mut energy);
            }
        }
        moves.sort_by(|a, b| {
            energy[b.index()]
                .total_cmp(&energy[a.index()])
                .then(a.index().cmp(&b.index()))
        });
    }

    /// H-search for `color` on `st`, seeded with the closest closure of
    /// the line when `incremental`; a finished run's connections are kept
    /// for the runs below it.
    fn hsearch(&mut self, st: [B; 2], color: Color, goal: Goal) -> EdgeInfo<B> {
        let info = if self.incremental {
            let seed = self.closures.find(&self.pos, st, color);
            let info = self.hs.run_seeded(&self.bits, st, color, goal, seed);
            // A run that stopped early has no whole closure to keep.
            if self.hs.finished() {
                self.closures.store(&self.hs, st, self.pos.hash(), color);
            }
            info
        } else {
            self.hs.run_seeded(&self.bits, st, color, goal, None)
        };
        let entry = (self.pos.hash(), color, goal, info);
        self.recent[color.index()] = Some(entry);
        self.tables = self.hs.finished().then_some((self.pos.hash(), color));
        if goal == Goal::Mover && self.hs.finished() && self.move_order == MoveOrder::Connections {
            self.mover_energy.fill(0.0);
            self.circuit.solve(&self.hs, &mut self.mover_energy[..]);
            self.mover_energy_of = Some((self.pos.hash(), color));
        }
        info
    }

    /// [`HsearchOracle::hsearch`], or its answer when the last run for `color` was
    /// the same (the fill-in's runs, which the expansion repeats).
    fn hsearch_again(&mut self, st: [B; 2], color: Color, goal: Goal) -> EdgeInfo<B> {
        match self.recent[color.index()] {
            Some((hash, c, g, info)) if hash == self.pos.hash() && c == color && g == goal => info,
            _ => self.hsearch(st, color, goal),
        }
    }

    fn winning_key_fresh(&mut self, to_move: Color) -> Option<Cell> {
        let st: [B; 2] = stones(&self.pos);
        let mine = self.hs.run(&self.bits, st, to_move, true);
        self.tables = None;
        if let Some((key, _)) = mine.semi {
            return Some(Cell::from_index(key));
        }
        let empty = self.bits.all & !st[0] & !st[1];
        let carrier = mine.full?;
        let pick = if (carrier & empty).any() {
            carrier & empty
        } else {
            empty
        };
        cells(pick).next()
    }
}
