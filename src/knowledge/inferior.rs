//! Inferior cell analysis on `CellSet`s, with every kind Benzene's
//! analysis shows (HexGui's `vc-build` overlay, and the choice among
//! winning moves): cells whose colour cannot change the result (filled
//! in, to a fixpoint) and moves that can be pruned, with their reasons.
//!
//! The core test is *irrelevance*: an empty cell `c` is irrelevant to
//! player K when no K winning chain needs it. Two sufficient conditions:
//! - **clique**: K's view of `c`'s neighbourhood (empty cells, K groups, K
//!   edges; a K group touching a K edge is part of that edge) is a clique,
//!   two empty cells touching when they are adjacent, lie on one K edge
//!   together, or both touch one K group (or one touches a K group that
//!   touches the other's K edge): the chain can go round through them.
//!   Any K chain through `c` enters and leaves through two neighbourhood
//!   items, which then touch directly, so `c` can be skipped;
//! - **cut off**: `c`'s component in the graph of empty cells and K stones
//!   does not touch both K edges.
//!
//! An opponent stone at a K-irrelevant cell never changes the result, and
//! an opponent stone never hurts the opponent, so:
//! - irrelevant to both players: **dead**, filled with either colour;
//! - irrelevant to K only: **permanently inferior** for K, filled with the
//!   opponent's colour;
//! - **captured** by K: a pair of empty cells where, whichever the
//!   opponent takes, K's answer at the other makes the opponent's stone
//!   irrelevant to the opponent: both filled with K.
//!
//! Irrelevance only grows as stones are added (groups merge, neighbourhood
//! items vanish), so fills can be made one after another and repeated to a
//! fixpoint.
//!
//! For the player to move, on the filled board:
//! - **reversible**: after the mover plays `c`, an opponent reply `d`
//!   (the *reverser*) makes `c` irrelevant to the mover: the mover's stone
//!   could as well be the opponent's, so `c` then `d` is no better for the
//!   mover than the opponent owning both; pruned in favour of `d`;
//! - **vulnerable**: the special case where the reply (a *killer*) makes
//!   `c` dead, irrelevant to both players;
//! - **dominated**: the mover's closed neighbourhood of `c` (as above) is
//!   inside that of an adjacent `d`: any chain through `c` can go through
//!   `d` instead, so `d` is at least as good; and also when the fill-in
//!   after the mover plays `d` fills `c` (see [`fill_domination`]).
//!
//! Pruning keeps, through chains of dominators, at least one cell of every
//! domination cycle.

use crate::board::{Cell, CellSet, Color, Edge, Geometry, Position};

/// What inferior cell analysis found, for the player `to_move`.
#[derive(Clone, Debug, Default)]
pub struct Inferior {
    /// Dead cells, by the colour they were filled with (index = colour).
    pub dead: [CellSet; 2],
    /// Captured cells, by the colour that captured (and fills) them.
    pub captured: [CellSet; 2],
    /// Permanently inferior cells, by the colour that fills them.
    pub perm: [CellSet; 2],
    /// Vulnerable cells of the player to move, with their killers.
    pub vulnerable: Vec<(Cell, CellSet)>,
    /// Reversible cells of the player to move that are not vulnerable,
    /// with their reversers.
    pub reversible: Vec<(Cell, CellSet)>,
    /// Dominated cells of the player to move, with their dominators.
    pub dominated: Vec<(Cell, CellSet)>,
    /// The cells pruned from the player to move's moves (fills included).
    pruned: CellSet,
}

impl Inferior {
    /// Every cell filled with `color`.
    pub fn fill(&self, color: Color) -> CellSet {
        let i = color.index();
        self.dead[i].union(&self.captured[i]).union(&self.perm[i])
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

/// Stones on a working board.
struct Board<'a> {
    g: &'a Geometry,
    stones: [CellSet; 2],
}

/// Item of a neighbourhood: a K group (possibly merged with K edges), a
/// bare K edge, or an empty cell.
struct Item {
    stones: CellSet,
    edges: u8,
    empty: Option<Cell>,
}

impl Board<'_> {
    fn empty(&self) -> CellSet {
        self.g
            .all_cells()
            .difference(&self.stones[0].union(&self.stones[1]))
    }

    fn group(&self, color: Color, start: Cell) -> (CellSet, u8) {
        self.group_in(color, &self.stones[color.index()], start)
    }

    /// `start`'s group among `own` (a set of `color` stones) and the edges
    /// of `color` it touches.
    fn group_in(&self, color: Color, own: &CellSet, start: Cell) -> (CellSet, u8) {
        let (e1, e2) = color.edges();
        let mut seen = CellSet::EMPTY;
        seen.insert(start);
        let mut stack = vec![start];
        let mut edges = 0;
        while let Some(c) = stack.pop() {
            for e in [e1, e2] {
                if self.g.touches(c, e) {
                    edges |= e.bit();
                }
            }
            for &n in self.g.neighbours(c) {
                if own.contains(n) && !seen.contains(n) {
                    seen.insert(n);
                    stack.push(n);
                }
            }
        }
        (seen, edges)
    }

    /// Whether `color`'s view of `c`'s neighbourhood is a clique. A stone
    /// at `c` itself is ignored: the question is whether `c` matters.
    fn clique(&self, color: Color, c: Cell) -> bool {
        let mut own = self.stones[color.index()];
        own.remove(c);
        let own = &own;
        let opp = &self.stones[color.opponent().index()];
        let (e1, e2) = color.edges();
        let mut items: Vec<Item> = Vec::with_capacity(8);
        for e in [e1, e2] {
            if self.g.touches(c, e) {
                items.push(Item {
                    stones: CellSet::EMPTY,
                    edges: e.bit(),
                    empty: None,
                });
            }
        }
        for &n in self.g.neighbours(c) {
            if opp.contains(n) {
                continue;
            }
            if !own.contains(n) {
                items.push(Item {
                    stones: CellSet::EMPTY,
                    edges: 0,
                    empty: Some(n),
                });
                continue;
            }
            if items.iter().any(|it| it.stones.contains(n)) {
                continue;
            }
            let (stones, edges) = self.group_in(color, own, n);
            items.push(Item {
                stones,
                edges,
                empty: None,
            });
        }
        // Merge groups and edges that share an edge.
        let mut merged: Vec<Item> = Vec::with_capacity(items.len());
        for it in items {
            if it.empty.is_none()
                && let Some(m) = merged
                    .iter_mut()
                    .find(|m| m.empty.is_none() && m.edges & it.edges != 0)
            {
                m.stones = m.stones.union(&it.stones);
                m.edges |= it.edges;
                continue;
            }
            merged.push(it);
        }
        for i in 0..merged.len() {
            for j in i + 1..merged.len() {
                if !self.touch(color, own, &merged[i], &merged[j]) {
                    return false;
                }
            }
        }
        true
    }

    fn touch(&self, color: Color, own: &CellSet, a: &Item, b: &Item) -> bool {
        match (a.empty, b.empty) {
            (Some(x), Some(y)) => self.cells_joined(color, own, x, y),
            (Some(x), None) => self.cell_touches(x, b),
            (None, Some(y)) => self.cell_touches(y, a),
            (None, None) => false,
        }
    }

    /// Whether two empty cells are joined for `color` (its stones `own`)
    /// without the cell being tested: adjacent, on one of its edges
    /// together, or both touching one of its groups or a group and an edge
    /// it touches. The group's stones stay whatever is played, so a chain
    /// can go round through them.
    fn cells_joined(&self, color: Color, own: &CellSet, x: Cell, y: Cell) -> bool {
        if self.g.neighbours(x).contains(&y) {
            return true;
        }
        let (e1, e2) = color.edges();
        if [e1, e2]
            .iter()
            .any(|&e| self.g.touches(x, e) && self.g.touches(y, e))
        {
            return true;
        }
        self.g.neighbours(x).iter().any(|&n| {
            if !own.contains(n) {
                return false;
            }
            let (stones, edges) = self.group_in(color, own, n);
            self.cell_touches(
                y,
                &Item {
                    stones,
                    edges,
                    empty: None,
                },
            )
        })
    }

    fn cell_touches(&self, x: Cell, it: &Item) -> bool {
        Edge::ALL
            .iter()
            .any(|&e| it.edges & e.bit() != 0 && self.g.touches(x, e))
            || self.g.neighbours(x).iter().any(|&n| it.stones.contains(n))
    }

    /// Empty cells whose component of empty cells and `color` stones does
    /// not reach both of `color`'s edges.
    fn cut_off(&self, color: Color) -> CellSet {
        let (e1, e2) = color.edges();
        let open = self.empty().union(&self.stones[color.index()]);
        let mut seen = CellSet::EMPTY;
        let mut out = CellSet::EMPTY;
        for s in open.iter() {
            if seen.contains(s) {
                continue;
            }
            let (comp, edges) = self.group_in(color, &open, s);
            seen = seen.union(&comp);
            if edges != e1.bit() | e2.bit() {
                out = out.union(&comp);
            }
        }
        out.difference(&self.stones[color.index()])
    }

    /// Whether `color` may ignore `c` (clique or cut-off test).
    fn irrelevant(&self, color: Color, c: Cell, cut: &CellSet) -> bool {
        cut.contains(c) || self.clique(color, c)
    }

    /// Whether `color` captures the pair: whichever the opponent takes,
    /// `color`'s answer at the other leaves the opponent's stone irrelevant
    /// to the opponent.
    fn captures(&mut self, color: Color, a: Cell, b: Cell) -> bool {
        let opp = color.opponent();
        [(a, b), (b, a)].into_iter().all(|(o, k)| {
            self.stones[opp.index()].insert(o);
            self.stones[color.index()].insert(k);
            let ok = self.clique(opp, o);
            self.stones[opp.index()].remove(o);
            self.stones[color.index()].remove(k);
            ok
        })
    }

    /// Fills to a fixpoint, recording each fill.
    fn fixpoint(&mut self, inf: &mut Inferior) {
        loop {
            let mut changed = false;
            let cuts = [self.cut_off(Color::Black), self.cut_off(Color::White)];
            for c in self.empty().iter() {
                changed |= self.fill_if_irrelevant(c, &cuts, inf);
            }
            let g = self.g;
            for a in self.empty().iter() {
                for &b in g.neighbours(a) {
                    if b < a || !self.empty().contains(a) || !self.empty().contains(b) {
                        continue;
                    }
                    changed |= self.fill_if_captured(a, b, None, inf);
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// [`Board::fixpoint`] after a few stones were added to a board that
    /// was at its fixpoint: only cells near what changed are examined. A
    /// cell's tests look at its neighbours, their groups and the edges, so
    /// a new stone can change them only for cells next to its (merged)
    /// group, and for cells newly cut off, which the floods find. `seeds`
    /// are those cells for the added stones.
    /// `added`: when the only added stone is `color`'s at a cell, the
    /// first pass skips what it cannot have changed: `color`'s cut-off
    /// cells (its open cells are the same, and its cut-off cells were
    /// filled), and captures by the opponent; `color`'s captures can only
    /// be new in pairs next to the stone (no other cell's view for the
    /// opponent changed). Skipping a test only finds fewer fills.
    fn fixpoint_from(&mut self, inf: &mut Inferior, seeds: CellSet, added: Option<(Color, Cell)>) {
        let g = self.g;
        let mut todo = seeds;
        let mut added = added;
        loop {
            let cut = |color: Color| match added {
                Some((k, _)) if k == color => CellSet::EMPTY,
                _ => self.cut_off(color),
            };
            let cuts = [cut(Color::Black), cut(Color::White)];
            // On the first pass after one stone: only its colour's captures,
            // in pairs next to it.
            let (capturer, pair_cells) = match added.take() {
                Some((k, d)) => (
                    Some(k),
                    Some(g.neighbours(d).iter().copied().collect::<CellSet>()),
                ),
                None => (None, None),
            };
            let cand = todo
                .union(&cuts[0].union(&cuts[1]))
                .intersection(&self.empty());
            let mut newly = CellSet::EMPTY;
            for c in cand.iter() {
                if self.fill_if_irrelevant(c, &cuts, inf) {
                    newly.insert(c);
                }
            }
            for a in cand.iter() {
                for &b in g.neighbours(a) {
                    if !self.empty().contains(a) || !self.empty().contains(b) {
                        continue;
                    }
                    if pair_cells.is_some_and(|p| !p.contains(a) && !p.contains(b)) {
                        continue;
                    }
                    if self.fill_if_captured(a, b, capturer, inf) {
                        newly.insert(a);
                        newly.insert(b);
                    }
                }
            }
            if newly.is_empty() {
                break;
            }
            todo = self.near_groups(&newly);
        }
    }

    /// The empty cells next to the groups of `stones`.
    fn near_groups(&self, stones: &CellSet) -> CellSet {
        let mut groups = CellSet::EMPTY;
        for color in Color::BOTH {
            for s in stones.intersection(&self.stones[color.index()]).iter() {
                if !groups.contains(s) {
                    groups = groups.union(&self.group(color, s).0);
                }
            }
        }
        let empty = self.empty();
        let mut near = CellSet::EMPTY;
        for c in groups.iter() {
            for &n in self.g.neighbours(c) {
                if empty.contains(n) {
                    near.insert(n);
                }
            }
        }
        near
    }

    /// Fills the empty pair `a`, `b` with the first colour (of `only`, or
    /// of both) that captures it, recording the fill; whether it did.
    fn fill_if_captured(
        &mut self,
        a: Cell,
        b: Cell,
        only: Option<Color>,
        inf: &mut Inferior,
    ) -> bool {
        for color in Color::BOTH {
            if only.is_some_and(|k| k != color) || !self.captures(color, a, b) {
                continue;
            }
            for x in [a, b] {
                self.stones[color.index()].insert(x);
                inf.captured[color.index()].insert(x);
            }
            return true;
        }
        false
    }

    /// Fills the empty cell `c` if it is irrelevant to either player (see
    /// the module's notes), recording the fill; whether it did.
    fn fill_if_irrelevant(&mut self, c: Cell, cuts: &[CellSet; 2], inf: &mut Inferior) -> bool {
        let b = self.irrelevant(Color::Black, c, &cuts[0]);
        let w = self.irrelevant(Color::White, c, &cuts[1]);
        let (fill, kind) = match (b, w) {
            (true, true) => (self.dead_fill_colour(c), &mut inf.dead),
            (true, false) => (Color::White, &mut inf.perm),
            (false, true) => (Color::Black, &mut inf.perm),
            (false, false) => return false,
        };
        self.stones[fill.index()].insert(c);
        kind[fill.index()].insert(c);
        true
    }

    /// The colour of most of a dead cell's stone neighbours (Black on a
    /// tie): fills that merge groups.
    fn dead_fill_colour(&self, c: Cell) -> Color {
        let count = |col: Color| {
            self.g
                .neighbours(c)
                .iter()
                .filter(|&&n| self.stones[col.index()].contains(n))
                .count()
        };
        if count(Color::White) > count(Color::Black) {
            Color::White
        } else {
            Color::Black
        }
    }

    /// `color`'s closed neighbourhood of `c` as item ids: empty cells by
    /// index, groups by their smallest stone, edges (and the groups on
    /// them) by `num_cells + edge`.
    fn closed_neighbourhood(&self, color: Color, c: Cell) -> Vec<usize> {
        let n = self.g.num_cells();
        let own = &self.stones[color.index()];
        let opp = &self.stones[color.opponent().index()];
        let (e1, e2) = color.edges();
        let mut ids = vec![c.index()];
        for e in [e1, e2] {
            if self.g.touches(c, e) {
                ids.push(n + e as usize);
            }
        }
        for &x in self.g.neighbours(c) {
            if opp.contains(x) {
                continue;
            }
            if !own.contains(x) {
                ids.push(x.index());
                continue;
            }
            let (stones, edges) = self.group(color, x);
            let id = if edges & e1.bit() != 0 {
                n + e1 as usize
            } else if edges & e2.bit() != 0 {
                n + e2 as usize
            } else {
                stones.iter().next().expect("non-empty").index()
            };
            ids.push(id);
        }
        ids.sort_unstable();
        ids.dedup();
        ids
    }
}

/// Fills dead, captured and permanently inferior cells to a fixpoint.
/// Returns the filled position (fill stones played on a copy) and the
/// cells filled with each colour.
pub fn fill_in(pos: &Position) -> (Position, [CellSet; 2]) {
    let mut inf = Inferior::default();
    let mut board = Board {
        g: pos.geometry(),
        stones: [*pos.stones(Color::Black), *pos.stones(Color::White)],
    };
    board.fixpoint(&mut inf);
    let fills = [inf.fill(Color::Black), inf.fill(Color::White)];
    let mut out = pos.clone();
    for color in Color::BOTH {
        for c in fills[color.index()].iter() {
            out.play(color, c);
        }
    }
    (out, fills)
}

/// The full analysis for the player `to_move`: fill-in to a fixpoint,
/// then vulnerable and dominated cells on the filled board, and the pruned
/// set.
pub fn analyze(pos: &Position, to_move: Color) -> Inferior {
    let mut inf = Inferior::default();
    let g = pos.geometry();
    let mut board = Board {
        g,
        stones: [*pos.stones(Color::Black), *pos.stones(Color::White)],
    };
    if pos.winner().is_some() {
        return inf;
    }
    board.fixpoint(&mut inf);
    let empty = board.empty();
    let opp = to_move.opponent();
    // Domination edges: cell -> cells at least as good.
    let mut better: Vec<(Cell, CellSet)> = Vec::new();
    for c in empty.iter() {
        // Reversers; those that leave `c` dead are killers.
        let (mut killers, mut dead) = (CellSet::EMPTY, CellSet::EMPTY);
        board.stones[to_move.index()].insert(c);
        for &d in g.neighbours(c) {
            if !empty.contains(d) {
                continue;
            }
            board.stones[opp.index()].insert(d);
            if board.clique(to_move, c) {
                killers.insert(d);
                if board.clique(opp, c) {
                    dead.insert(d);
                }
            }
            board.stones[opp.index()].remove(d);
        }
        board.stones[to_move.index()].remove(c);
        if !dead.is_empty() {
            inf.vulnerable.push((c, dead));
        } else if !killers.is_empty() {
            inf.reversible.push((c, killers));
        }
        let nc = board.closed_neighbourhood(to_move, c);
        let mut doms = CellSet::EMPTY;
        for &d in g.neighbours(c) {
            if !empty.contains(d) {
                continue;
            }
            let nd = board.closed_neighbourhood(to_move, d);
            if nc.iter().all(|x| nd.binary_search(x).is_ok()) {
                doms.insert(d);
            }
        }
        if !doms.is_empty() {
            inf.dominated.push((c, doms));
        }
        let all = killers.union(&doms);
        if !all.is_empty() {
            better.push((c, all));
        }
    }
    fill_domination(&board, to_move, &mut inf, &mut better);
    inf.pruned = inf.filled().union(&prune(g, &better));
    inf
}

/// When `cell` is an inferior move for `to_move` (dominated, or vulnerable
/// to an opponent reply), the cells at least as good as it, through chains
/// of dominators and killers, that are not inferior themselves; nearest
/// first. Empty when `cell` is not inferior (or is a fill-in cell, which
/// has no such chain).
pub fn superior_cells(pos: &Position, to_move: Color, cell: Cell) -> Vec<Cell> {
    let inf = analyze(pos, to_move);
    let pruned = inf.pruned();
    if !pruned.contains(cell) {
        return Vec::new();
    }
    let better = |c: Cell| {
        let find = |list: &[(Cell, CellSet)]| {
            list.iter()
                .find(|(x, _)| *x == c)
                .map_or(CellSet::EMPTY, |(_, s)| *s)
        };
        find(&inf.dominated).union(&find(&inf.vulnerable))
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

/// Domination through fill-in: when the fill-in after `to_move` plays `d`
/// fills a cell `c` (other than with an opponent capture), then `d` is at
/// least as good as `c`: `P + K(c) <= P + K(c) + K(d)`, and that position
/// equals `P + K(d)` because each fill step that led to `c` stays valid
/// with one more stone (irrelevance only grows) and `c`'s own step says its
/// colour does not matter. Opponent captures are left out: those cells
/// are filled on the condition that the opponent answers in them.
fn fill_domination(
    board: &Board,
    to_move: Color,
    inf: &mut Inferior,
    better: &mut Vec<(Cell, CellSet)>,
) {
    let empty = board.empty();
    let n = board.g.num_cells();
    let mut doms = vec![CellSet::EMPTY; n];
    for d in empty.iter() {
        let mut after = Board {
            g: board.g,
            stones: board.stones,
        };
        after.stones[to_move.index()].insert(d);
        let mut fills = Inferior::default();
        let mut one = CellSet::EMPTY;
        one.insert(d);
        let seeds = after.near_groups(&one);
        after.fixpoint_from(&mut fills, seeds, Some((to_move, d)));
        let taken = fills
            .filled()
            .difference(&fills.captured[to_move.opponent().index()]);
        for c in taken.iter() {
            doms[c.index()].insert(d);
        }
    }
    for c in empty.iter() {
        let ds = doms[c.index()];
        if ds.is_empty() {
            continue;
        }
        add_cells(better, c, ds);
        add_cells(&mut inf.dominated, c, ds);
    }
}

/// Adds `cells` to `c`'s entry in `list` (a new entry if it has none).
fn add_cells(list: &mut Vec<(Cell, CellSet)>, c: Cell, cells: CellSet) {
    match list.iter_mut().find(|(x, _)| *x == c) {
        Some((_, s)) => *s = s.union(&cells),
        None => list.push((c, cells)),
    }
}

/// Which cells to prune given "c is no better than each of these" edges:
/// c goes when it has a dominator that cannot reach back to it, or one of
/// a lower index in the same cycle. Every pruned cell then has a chain of
/// dominators ending at a kept cell.
fn prune(g: &Geometry, better: &[(Cell, CellSet)]) -> CellSet {
    let n = g.num_cells();
    let mut reach = vec![CellSet::EMPTY; n];
    for (c, d) in better {
        reach[c.index()] = *d;
    }
    let sources: Vec<Cell> = better.iter().map(|(c, _)| *c).collect();
    // Transitive closure (only cells with out-edges can extend paths).
    let mut changed = true;
    while changed {
        changed = false;
        for &c in &sources {
            let mut r = reach[c.index()];
            for d in reach[c.index()].iter() {
                r = r.union(&reach[d.index()]);
            }
            if r != reach[c.index()] {
                reach[c.index()] = r;
                changed = true;
            }
        }
    }
    let mut pruned = CellSet::EMPTY;
    for (c, doms) in better {
        if doms
            .iter()
            .any(|d| !reach[d.index()].contains(*c) || d < *c)
        {
            pruned.insert(*c);
        }
    }
    pruned
}
