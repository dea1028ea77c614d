//! Inferior cell analysis on the bitboards, at every node of the
//! connection search and the solver: dead cells and captured pairs filled
//! in to a fixpoint, and the moves domination and vulnerability prune.
//!
//! Facts used (Björnsson, Hayward, Johanson, van Rijswijck, "Dead cell
//! analysis in Hex and the Shannon game"; Henderson's thesis on inferior
//! cell analysis):
//!
//! - A cell is *dead* when it lies on no minimal winning chain. In Hex a
//!   cell is dead for one player exactly when it is dead for the other (a
//!   winning set's complement is the other side's losing set), so showing
//!   it useless to either side is enough; a dead cell may then be filled
//!   with either colour, and it stays dead whatever is played later.
//! - A cell is useless to a side when it cannot lie on that side's edge-to-
//!   edge chain at all (not reachable from both of its edges through empty
//!   cells and its stones), or when every two of its neighbours that the
//!   side could use (empty cells, its groups, its edges) already touch each
//!   other: a chain through the cell could step from one to the other
//!   directly. Two empty neighbours also count as touching when they lie on
//!   one of the side's edges together, or both touch one group of the
//!   side's stones: the chain can go round through the edge or the group.
//!   That local test stays true whatever is played around it.
//! - Two empty neighbours `a`, `b` are *captured* by a side X when X's
//!   reply in the pair to the other side's move in it leaves the other
//!   side's stone dead (by the local test), both ways round. X can then be
//!   given both cells: answering inside the pair, X never does worse.
//!
//! Proof sets: a dead cell may be refilled with any colour, so it need not
//! be in a proof; captured cells must (an opponent stone there breaks the
//! pattern), and [`Filled::captured`] lists them.

use crate::board::{Bitboard, Color};

use super::vc::{Bits, bit};

/// What [`fill_in`] added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Filled<B> {
    /// New stones by colour (Black, White).
    pub stones: [B; 2],
    /// The captured cells among them (they belong to any proof).
    pub captured: B,
}

/// A usable neighbour: (cells, touches edge 1, touches edge 2, is an
/// empty cell).
type Node<B> = (B, bool, bool, bool);

/// The stones and edges of one side, for the local tests.
struct Side<B> {
    own: B,
    opp: B,
    edge1: B,
    edge2: B,
}

impl<B: Bitboard> Side<B> {
    fn new(bits: &Bits<B>, st: [B; 2], color: Color) -> Side<B> {
        let (e1, e2) = color.edges();
        Side {
            own: st[color.index()],
            opp: st[color.opponent().index()],
            edge1: bits.edge(e1),
            edge2: bits.edge(e2),
        }
    }

    /// A node next to a cell that this side could use on a chain: its cells
    /// (empty cell or own group), which of its edges it touches, and
    /// whether it is an empty cell.
    fn node(&self, cells: B, is_cell: bool) -> Node<B> {
        (
            cells,
            (cells & self.edge1).any(),
            (cells & self.edge2).any(),
            is_cell,
        )
    }

    /// Whether every two of the side's usable neighbours of the empty cell
    /// `c` touch each other (or are the same group or edge).
    fn useless(&self, bits: &Bits<B>, c: usize) -> bool {
        let nb = bits.nbr(c) & !self.opp;
        let mut nodes: [Node<B>; 8] = [(B::ZERO, false, false, false); 8];
        let mut n = 0;
        // Empty neighbours. Most cells fail here already, on two empty
        // neighbours that do not touch (checked before any group flood).
        let empties = nb & !self.own;
        for i in (empties).ones() {
            let far = empties & !bits.nbr(i) & !bit::<B>(i);
            if far.any() && !self.joined(bits, i, far) {
                return false;
            }
            nodes[n] = self.node(bit(i), true);
            n += 1;
        }
        // Own groups next to the cell, each once.
        let mut s = nb & self.own;
        while s.any() {
            let g = bits.flood(s.lowest(), self.own);
            s &= !g;
            nodes[n] = self.node(g, false);
            n += 1;
        }
        // The side's edges the cell touches, as groups without stones.
        if self.edge1.has(c) {
            nodes[n] = (B::ZERO, true, false, false);
            n += 1;
        }
        if self.edge2.has(c) {
            nodes[n] = (B::ZERO, false, true, false);
            n += 1;
        }
        for i in 0..n {
            for j in i + 1..n {
                if !self.touch(bits, nodes[i], nodes[j]) {
                    return false;
                }
            }
        }
        true
    }

    /// Whether the empty cell `a` is joined to every cell of `others`
    /// without passing through the cell being tested: by sharing one of
    /// the side's edges, or by touching one of the side's groups that the
    /// other cell touches too (the group's stones stay whatever is
    /// played, so a chain can go round through them).
    fn joined(&self, bits: &Bits<B>, a: usize, others: B) -> bool {
        let mut rest = others;
        if self.edge1.has(a) {
            rest &= !self.edge1;
        }
        if self.edge2.has(a) {
            rest &= !self.edge2;
        }
        if rest.is_empty() {
            return true;
        }
        let groups = bits.nbr(a) & self.own;
        groups.any() && (rest & !bits.spread(bits.flood(groups, self.own))).is_empty()
    }

    fn touch(&self, bits: &Bits<B>, a: Node<B>, b: Node<B>) -> bool {
        let (ac, a1, a2, a_cell) = a;
        let (bc, b1, b2, b_cell) = b;
        // Sharing an edge: an empty cell on the edge touches it, and a
        // group on the edge is joined to it.
        if (a1 && b1) || (a2 && b2) {
            return true;
        }
        match (a_cell, b_cell) {
            (false, false) => ac.any() && ac == bc,
            // Two empty cells: [`Side::joined`], checked before the nodes
            // are compared.
            (true, true) => true,
            (true, false) => (bits.spread(ac) & bc).any(),
            (false, true) => (bits.spread(bc) & ac).any(),
        }
    }
}

/// Whether `color` has joined its edges.
pub fn joined<B: Bitboard>(bits: &Bits<B>, st: [B; 2], color: Color) -> bool {
    let own = st[color.index()];
    let (e1, e2) = color.edges();
    (bits.flood(bits.edge(e1) & own, own) & bits.edge(e2)).any()
}

/// Whether the empty cell `c` is dead by the local test for either side.
fn locally_dead<B: Bitboard>(bits: &Bits<B>, st: [B; 2], c: usize) -> bool {
    Color::BOTH
        .iter()
        .any(|&x| Side::new(bits, st, x).useless(bits, c))
}

/// Whether `color` captures the empty neighbours `a` and `b`.
fn captures<B: Bitboard>(bits: &Bits<B>, st: [B; 2], color: Color, a: usize, b: usize) -> bool {
    let x = color.index();
    [(a, b), (b, a)].iter().all(|&(theirs, reply)| {
        // The opponent's stone at `theirs` must be dead once X has replied;
        // the local test looks only at the cell's neighbours.
        let mut s = st;
        s[x] |= bit(reply);
        locally_dead(bits, s, theirs)
    })
}

/// Fills dead cells (with `dead_color`) and captured pairs (with their
/// owner) into `st` until none is left or a side has joined its edges.
pub fn fill_in<B: Bitboard>(bits: &Bits<B>, st: &mut [B; 2], dead_color: Color) -> Filled<B> {
    fill_in_near(bits, st, dead_color, bits.all)
}

/// The cells whose local tests ([`fill_in`]'s) a stone at `x` can change,
/// `st` holding it: those within two steps of its group. A test looks at
/// the cell's neighbours and at the groups next to them (their whole
/// extent); the stone changes only its own group, which it may have
/// joined to others, and its own neighbourhood.
pub fn touched_by<B: Bitboard>(bits: &Bits<B>, st: [B; 2], x: usize) -> B {
    let own = if st[0].has(x) { st[0] } else { st[1] };
    touched_by_stones(bits, own, bit(x))
}

/// [`touched_by`] for the stones `new` among `own` (one colour's stones,
/// `new` included) at once.
fn touched_by_stones<B: Bitboard>(bits: &Bits<B>, own: B, new: B) -> B {
    bits.spread(bits.spread(bits.flood(new, own)))
}

/// [`fill_in`] on a position that was at its fixpoint (nothing dead, no
/// captured pair) before the stones whose [`touched_by`] cells are `near`
/// were added: a cell or pair whose tests read nothing those stones
/// changed is still neither dead nor captured, so the first pass tests
/// only the others. The same holds after each pass: the next tests only
/// the cells and pairs near the stones it filled (and the pairs a pass
/// that stopped at dead cells left untested). It fills exactly what
/// testing every cell and pair in every pass fills, in the same order.
pub fn fill_in_near<B: Bitboard>(
    bits: &Bits<B>,
    st: &mut [B; 2],
    dead_color: Color,
    near: B,
) -> Filled<B> {
    let mut near = near;
    let mut out = Filled {
        stones: [B::ZERO; 2],
        captured: B::ZERO,
    };
    loop {
        if joined(bits, *st, Color::Black) || joined(bits, *st, Color::White) {
            return out;
        }
        let empty = bits.all & !st[0] & !st[1];
        if empty.is_empty() {
            return out;
        }
        let both = bits.live(*st, Color::Black) & bits.live(*st, Color::White);
        let mut dead = empty & !both;
        for c in (empty & both & near).ones() {
            if locally_dead(bits, *st, c) {
                dead |= bit(c);
            }
        }
        if dead.any() {
            st[dead_color.index()] |= dead;
            out.stones[dead_color.index()] |= dead;
            // This pass tested no pair: those near before stay near.
            near |= touched_by_stones(bits, st[dead_color.index()], dead);
            continue;
        }
        // The cells and pairs this pass's captures touch: all the next
        // pass has to test again.
        let mut next = B::ZERO;
        for a in empty.ones() {
            if (st[0] | st[1]).has(a) || !near.has(a) && (bits.nbr(a) & near).is_empty() {
                continue;
            }
            // Partners above `a` (the pairs below were tried from their
            // lower cell), still empty.
            for b in (bits.nbr(a) & empty & B::above(a) & !st[0] & !st[1]).ones() {
                if !near.has(a) && !near.has(b) {
                    continue;
                }
                for color in Color::BOTH {
                    if captures(bits, *st, color, a, b) {
                        let pair = bit::<B>(a) | bit(b);
                        st[color.index()] |= pair;
                        out.stones[color.index()] |= pair;
                        out.captured |= pair;
                        // Later pairs near it are tested in this pass.
                        let touched = touched_by_stones(bits, st[color.index()], pair);
                        near |= touched;
                        next |= touched;
                        break;
                    }
                }
                if (st[0] | st[1]).has(a) {
                    break;
                }
            }
        }
        if next.is_empty() {
            return out;
        }
        // Every pair near before was tested in this pass; only those near
        // its captures (and the cells near them) can have changed since.
        // (A capture that joins an earlier one's group touches that whole
        // group, so the union covers the groups as they end the pass.)
        near = next;
    }
}

/// Moves of `color` among `moves` that another move makes pointless: when
/// `color` playing `d` leaves `c` dead or captures `c` in a pair next to
/// `d`, the position after `d` is as good as one with stones on both, so
/// `c` is never better than `d` and need not be searched. The dominating
/// move may lie outside `moves` (then it loses, and so does `c`). Cycles
/// are broken by never pruning with a move already pruned.
///
/// The reasoning survives extra stones of either side anywhere (dead and
/// captured stay so), so a proof of the position needs no cells for it.
pub fn dominated<B: Bitboard>(bits: &Bits<B>, st: [B; 2], color: Color, moves: B) -> B {
    let empty = bits.all & !st[0] & !st[1];
    let x = color.index();
    let mut pruned = B::ZERO;
    for d in empty.ones() {
        if pruned.has(d) {
            continue;
        }
        let mut after = st;
        after[x] |= bit(d);
        let near = bits.nbr(d) & empty & moves & !pruned;
        for c in near.ones() {
            if locally_dead(bits, after, c) {
                pruned |= bit(c);
            }
        }
        // Pairs of d's empty neighbours captured by the move.
        let around = bits.nbr(d) & empty;
        for a in around.ones() {
            for b in (bits.nbr(a) & around & B::above(a)).ones() {
                let pair = bit::<B>(a) | bit(b);
                if (pair & moves & !pruned).any() && captures(bits, after, color, a, b) {
                    pruned |= pair & moves;
                }
            }
        }
    }
    pruned
}

/// `color`'s view of the board for neighbourhood domination: each empty
/// cell's closed neighbourhood as `color` sees it is the cell itself, its
/// empty neighbours, `color`'s groups next to it and the edges it touches
/// (a group on an edge counts as the edge). When that of `c` lies inside
/// that of an adjacent empty cell `d`, a chain through `c` can go through
/// `d` instead, so `d` is at least as good (neighbourhood domination,
/// Henderson's thesis). Extra stones of either side elsewhere keep the
/// inclusion.
pub struct Neighbourhoods<B> {
    own: B,
    empty: B,
    edge1: B,
    edge2: B,
    /// `color`'s groups on each edge.
    on1: B,
    on2: B,
    /// The cells that see each edge: on it, or next to a group on it.
    sees1: B,
    sees2: B,
}

/// What a cell's closed neighbourhood needs of a dominator's: the cell's
/// neighbours, the other groups next to it (each as the cells next to
/// it), and whether it sees each edge.
struct Needs<B> {
    nb: B,
    groups: [B; 6],
    n: usize,
    need1: bool,
    need2: bool,
}

impl<B: Bitboard> Neighbourhoods<B> {
    pub fn new(bits: &Bits<B>, st: [B; 2], color: Color) -> Neighbourhoods<B> {
        let own = st[color.index()];
        let (e1, e2) = color.edges();
        let (edge1, edge2) = (bits.edge(e1), bits.edge(e2));
        let on1 = bits.flood(edge1 & own, own);
        let on2 = bits.flood(edge2 & own, own);
        Neighbourhoods {
            own,
            empty: bits.all & !st[0] & !st[1],
            edge1,
            edge2,
            on1,
            on2,
            sees1: edge1 | bits.spread(on1),
            sees2: edge2 | bits.spread(on2),
        }
    }

    fn needs(&self, bits: &Bits<B>, c: usize) -> Needs<B> {
        let nb = bits.nbr(c);
        // Each other group next to `c`, as the cells next to it.
        let mut groups = [B::ZERO; 6];
        let mut n = 0;
        let mut rest = nb & self.own & !self.on1 & !self.on2;
        while rest.any() {
            let g = bits.flood(rest.lowest(), self.own);
            rest &= !g;
            groups[n] = bits.spread(g);
            n += 1;
        }
        Needs {
            nb,
            groups,
            n,
            need1: self.edge1.has(c) || (nb & self.on1).any(),
            need2: self.edge2.has(c) || (nb & self.on2).any(),
        }
    }

    /// Whether the closed neighbourhood of `d`, an empty neighbour of the
    /// cell `need` describes, holds that cell's.
    fn covers(&self, bits: &Bits<B>, need: &Needs<B>, d: usize) -> bool {
        let others = need.nb & self.empty & !bit::<B>(d);
        !((others & !bits.nbr(d)).any()
            || (need.need1 && !self.sees1.has(d))
            || (need.need2 && !self.sees2.has(d))
            || need.groups[..need.n].iter().any(|g| !g.has(d)))
    }

    /// The cells of `cands` that dominate the empty cell `c`: adjacent
    /// empty cells whose closed neighbourhood holds `c`'s.
    pub fn dominators(&self, bits: &Bits<B>, c: usize, cands: B) -> B {
        let need = self.needs(bits, c);
        let mut out = B::ZERO;
        for d in (need.nb & self.empty & cands).ones() {
            if self.covers(bits, &need, d) {
                out |= bit(d);
            }
        }
        out
    }
}

/// Moves of `color` among `moves` that an adjacent empty cell dominates
/// by neighbourhood ([`Neighbourhoods`]). The dominating cell may lie
/// outside `moves` (then it loses, and so does the pruned cell: `moves`
/// must hold every move that may win). Cells pruned by `already` or here
/// never dominate (cycles of equal neighbourhoods keep one cell).
pub fn neighbourhood_dominated<B: Bitboard>(
    bits: &Bits<B>,
    st: [B; 2],
    color: Color,
    moves: B,
    already: B,
) -> B {
    let view = Neighbourhoods::new(bits, st, color);
    let mut pruned = B::ZERO;
    for c in (moves & !already).ones() {
        let need = view.needs(bits, c);
        let cands = need.nb & view.empty & !already & !pruned;
        for d in cands.ones() {
            if view.covers(bits, &need, d) {
                pruned |= bit(c);
                break;
            }
        }
    }
    pruned
}

/// Whether an opponent stone at the empty cell `y` might disconnect
/// `color`'s open cells (empty or its own): false when `y` is off
/// `color`'s edges and its open neighbours are joined to each other
/// through neighbours of `y`, so every path through `y` can go round it.
fn may_cut<B: Bitboard>(bits: &Bits<B>, st: [B; 2], color: Color, y: usize) -> bool {
    let (e1, e2) = color.edges();
    if (bits.edge(e1) | bits.edge(e2)).has(y) {
        return true;
    }
    let open = bits.nbr(y) & !st[color.opponent().index()];
    if open.is_empty() {
        return false;
    }
    bits.flood(open.lowest(), open) != open
}

/// Moves of `color` among `moves` that an opponent reply kills: `c` is
/// *vulnerable* to `y` when, after the opponent plays `y`, the cell `c` is
/// dead (by the local test, or cut off from an edge). Then `color`'s move
/// `y` is at least as good as `c` (Björnsson, Hayward, Johanson and van
/// Rijswijck): whoever holds `y` plays as if holding `c`, and an opponent
/// stone at `c` answered in the imagined game by one at `y` leaves `c`
/// dead there, so the real position is never worse. So `c` need not be
/// searched while `y` is (or `y` lies outside `moves` and loses).
///
/// Returns the pruned moves and their killers. Unlike [`dominated`], the
/// reasoning needs the killer empty: an extra stone of `color` there would
/// undo it, so a proof that every move loses must include the killers.
/// Killers already pruned are never used (no cycles), and neither are the
/// cells `already` pruned by another rule; a killer must be one of `moves`
/// or one of the `losing` cells (known to lose, e.g. outside the mustplay).
pub fn vulnerable<B: Bitboard>(
    bits: &Bits<B>,
    st: [B; 2],
    color: Color,
    moves: B,
    already: B,
    losing: B,
) -> (B, B) {
    let empty = bits.all & !st[0] & !st[1];
    let y_side = color.opponent().index();
    let mut pruned = B::ZERO;
    let mut killers = B::ZERO;
    // A killer is next to its victim (the local test) or cuts it off; the
    // cells next to the moves cover the first kind and the usual second.
    let ys = bits.spread(moves) & empty & (moves | losing) & !already;
    // An opponent stone takes a cell from `color`'s chains only: the
    // opponent's own live cells stay as they are.
    let theirs_live = bits.live(st, color.opponent());
    for y in ys.ones() {
        if pruned.has(y) {
            continue;
        }
        let mut after = st;
        after[y_side] |= bit(y);
        let open = moves & !pruned & !already & !bit::<B>(y);
        // Only a cut vertex of `color`'s open cells can cut anything off;
        // the flood is skipped when `color`'s open neighbours of `y` hang
        // together around it (and it is not on `color`'s edges).
        let both = if may_cut(bits, st, color, y) {
            bits.live(after, color) & theirs_live
        } else {
            B::ONES
        };
        let mut dead = open & !both;
        for c in (open & bits.nbr(y) & both).ones() {
            if locally_dead(bits, after, c) {
                dead |= bit(c);
            }
        }
        if dead.any() {
            pruned |= dead;
            killers |= bit(y);
        }
    }
    (pruned, killers)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Geometry, Wide};
    use proptest::prelude::*;

    /// The fill-in by its definition: every cell and every pair tested in
    /// every pass, dead cells before pairs, pairs by their lower cell.
    fn fill_in_by_definition<B: Bitboard>(
        bits: &Bits<B>,
        st: &mut [B; 2],
        dead: Color,
    ) -> Filled<B> {
        let mut out = Filled {
            stones: [B::ZERO; 2],
            captured: B::ZERO,
        };
        loop {
            let empty = bits.all & !st[0] & !st[1];
            if joined(bits, *st, Color::Black)
                || joined(bits, *st, Color::White)
                || empty.is_empty()
            {
                return out;
            }
            let live = bits.live(*st, Color::Black) & bits.live(*st, Color::White);
            let mut dead_cells = empty & !live;
            for c in (empty & live).ones() {
                if locally_dead(bits, *st, c) {
                    dead_cells |= bit(c);
                }
            }
            if dead_cells.any() {
                st[dead.index()] |= dead_cells;
                out.stones[dead.index()] |= dead_cells;
                continue;
            }
            let mut found = false;
            for a in 0..bits.n {
                for b in a + 1..bits.n {
                    let taken = st[0] | st[1];
                    if !bits.nbr(a).has(b) || taken.has(a) || taken.has(b) {
                        continue;
                    }
                    if let Some(&x) = Color::BOTH.iter().find(|&&x| captures(bits, *st, x, a, b)) {
                        let pair = bit::<B>(a) | bit(b);
                        st[x.index()] |= pair;
                        out.stones[x.index()] |= pair;
                        out.captured |= pair;
                        found = true;
                    }
                }
            }
            if !found {
                return out;
            }
        }
    }

    /// Plays the cells of `order` (those on the board, not yet taken) in
    /// turn on a `w` x `h` board, each position filled in before the next
    /// stone (as the search and the solver keep them), and checks that
    /// [`fill_in`] and [`fill_in_near`] after each stone fill what the
    /// definition fills.
    fn check_line<B: Bitboard>(w: usize, h: usize, order: &[usize]) -> Result<(), TestCaseError> {
        let bits = Bits::<B>::new(&Geometry::new(w, h).unwrap()).unwrap();
        let mut st = [B::ZERO; 2];
        let mut color = Color::Black;
        fill_in_by_definition(&bits, &mut st, color.opponent());
        for &i in order.iter().filter(|&&i| i < w * h) {
            if (st[0] | st[1]).has(i) {
                continue;
            }
            st[color.index()] |= bit(i);
            color = color.opponent();
            let mut want = st;
            let filled = fill_in_by_definition(&bits, &mut want, color.opponent());
            let mut whole = st;
            prop_assert_eq!(fill_in(&bits, &mut whole, color.opponent()), filled);
            prop_assert_eq!(whole, want);
            let mut near = st;
            let touched = touched_by(&bits, st, i);
            prop_assert_eq!(
                fill_in_near(&bits, &mut near, color.opponent(), touched),
                filled
            );
            prop_assert_eq!(near, want);
            st = want;
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn the_fill_in_fills_what_testing_everything_fills(
            w in 1usize..=9,
            h in 1usize..=9,
            order in proptest::collection::vec(0usize..81, 0..81),
        ) {
            check_line::<u128>(w, h, &order)?;
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(100))]

        #[test]
        fn the_fill_in_fills_what_testing_everything_fills_on_wide_boards(
            w in 10usize..=13,
            h in 10usize..=13,
            order in proptest::collection::vec(0usize..169, 0..169),
        ) {
            check_line::<Wide<3>>(w, h, &order)?;
        }
    }
}
