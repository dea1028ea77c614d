//! Hex knowledge: virtual connections built by H-search and kept up to
//! date move by move, edge templates, decided positions, mustplay and
//! inferior cell analysis (HexGui's analysis commands show it through
//! `crate::present::overlay`).
//!
//! The search uses [`Knowledge`]: build it once for the root position, then
//! `play`/`undo` along with the search's own make/unmake; ask `decided`,
//! `winning_key`, `mustplay` and `consider_set` at each node.
//!
//! Sub-modules:
//! - [`vc`]: one colour's connections ([`VcGraph`]), H-search with AND/OR
//!   rules, superset pruning, limits, incremental play and exact undo;
//! - [`templates`]: edge templates H-search misses (IVa and the 2nd-row
//!   ladder pieces), valid on every board size and edge;
//! - [`ice`]: dead, captured and permanently inferior cells filled to a
//!   fixpoint; vulnerable and dominated cells;
//! - [`decompose`]: carriers captured by decomposition (a full connection
//!   between two own groups in a pocket only those groups can use),
//!   which need the connections and so are filled after them;
//! - [`resistance`]: resistance over the connection graph (score and
//!   per-cell energy for move ordering);

pub mod circuit;
pub mod decompose;
pub mod ice;
pub mod queries;
pub mod resistance;
pub mod templates;
pub mod vc;

use std::sync::Arc;
use std::time::Instant;

use crate::board::{Cell, CellSet, Color, Edge, Geometry, Position};

pub use ice::{Inferior, analyze, fill_in};
pub use vc::{Node, PairList, Semi, VcGraph, VcParams};

/// One end of a connection: a cell (empty or a stone, standing for its
/// group) or one of the four edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Endpoint {
    Cell(Cell),
    Edge(Edge),
}

impl Endpoint {
    /// Parses a cell name or an edge name (`north`/`top`, `south`/`bottom`,
    /// `west`/`left`, `east`/`right`, any case).
    pub fn parse(g: &Geometry, s: &str) -> Option<Endpoint> {
        let edge = match s.to_ascii_lowercase().as_str() {
            "north" | "top" | "n" => Some(Edge::North),
            "south" | "bottom" | "s" => Some(Edge::South),
            "west" | "left" | "w" => Some(Edge::West),
            "east" | "right" | "e" => Some(Edge::East),
            _ => None,
        };
        edge.map(Endpoint::Edge)
            .or_else(|| g.parse_cell(s).map(Endpoint::Cell))
    }

    pub fn name(&self, g: &Geometry) -> String {
        match self {
            Endpoint::Cell(c) => g.name(*c),
            Endpoint::Edge(e) => edge_name(*e).to_string(),
        }
    }
}

pub fn edge_name(e: Edge) -> &'static str {
    match e {
        Edge::North => "north",
        Edge::South => "south",
        Edge::West => "west",
        Edge::East => "east",
    }
}

/// Both colours' connections for a position, updated along a line of play.
pub struct Knowledge {
    pos: Position,
    vcs: [VcGraph; 2],
}

impl Knowledge {
    /// Builds both colours' connections for `pos` with default parameters.
    pub fn new(pos: &Position) -> Knowledge {
        Knowledge::with_params(pos, VcParams::default())
    }

    pub fn with_params(pos: &Position, params: VcParams) -> Knowledge {
        Knowledge::built_until(pos, params, None)
    }

    /// [`Knowledge::new`], its H-search combining only until `deadline`
    /// (here and in later updates, until [`Knowledge::set_deadline`]): on
    /// a big board a full closure can take longer than a move. The
    /// connections found are real ones, only fewer, so what the knowledge
    /// decides stays sound; it decides less.
    pub fn new_until(pos: &Position, deadline: Instant) -> Knowledge {
        Knowledge::built_until(pos, VcParams::default(), Some(deadline))
    }

    fn built_until(pos: &Position, params: VcParams, deadline: Option<Instant>) -> Knowledge {
        Knowledge {
            pos: pos.clone(),
            vcs: [
                VcGraph::build_until(pos, Color::Black, params, deadline),
                VcGraph::build_until(pos, Color::White, params, deadline),
            ],
        }
    }

    /// Sets both H-searches' deadline (see [`VcGraph::set_deadline`]).
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        for vc in &mut self.vcs {
            vc.set_deadline(deadline);
        }
    }

    /// The position the knowledge describes.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    pub fn geometry(&self) -> &Geometry {
        self.pos.geometry()
    }

    pub fn shared_geometry(&self) -> &Arc<Geometry> {
        self.pos.shared_geometry()
    }

    /// One colour's connections.
    pub fn vcs(&self, color: Color) -> &VcGraph {
        &self.vcs[color.index()]
    }

    /// Places a stone and updates both colours' connections incrementally.
    pub fn play(&mut self, color: Color, cell: Cell) {
        self.pos.play(color, cell);
        for vc in &mut self.vcs {
            vc.play(color, cell);
        }
    }

    /// Takes back the last `play`, restoring the connections exactly.
    pub fn undo(&mut self) {
        self.pos.unplay();
        for vc in &mut self.vcs {
            vc.undo();
        }
    }

    /// The winner, when the connections decide the game with `to_move` to
    /// play: a finished game; an edge-to-edge full for either side; an
    /// edge-to-edge semi for the mover; opponent semis whose carriers have
    /// no common cell (every move loses).
    pub fn decided(&self, to_move: Color) -> Option<Color> {
        if let Some(w) = self.pos.winner() {
            return Some(w);
        }
        for c in Color::BOTH {
            if !self.vcs(c).edge_fulls().is_empty() {
                return Some(c);
            }
        }
        if !self.vcs(to_move).edge_semis().is_empty() {
            return Some(to_move);
        }
        if self.mustplay(to_move).is_empty() {
            return Some(to_move.opponent());
        }
        None
    }

    /// A winning move for `to_move` when its connections prove one: the key
    /// of its smallest edge-to-edge semi, or a cell of its smallest
    /// edge-to-edge full's carrier (any own stone keeps a full).
    pub fn winning_key(&self, to_move: Color) -> Option<Cell> {
        let vc = self.vcs(to_move);
        if let Some(f) = vc.edge_fulls().iter().min_by_key(|c| c.len()) {
            return f
                .iter()
                .next()
                .or_else(|| self.pos.empty_cells().iter().next());
        }
        vc.edge_semis()
            .iter()
            .min_by_key(|s| s.carrier.len())
            .map(|s| s.key)
    }

    /// How many empty cells `color` still has to defend: the fewest in
    /// any of its edge-to-edge full connections, 0 when it has won, `None`
    /// without such a connection.
    pub fn cells_to_defend(&self, color: Color) -> Option<usize> {
        if self.pos.winner() == Some(color) {
            return Some(0);
        }
        self.vcs(color).edge_fulls().iter().map(|f| f.len()).min()
    }

    /// The winning move that leaves the most solid win, when the
    /// connections prove that `to_move` wins: of the empty cells in its
    /// winning connections' carriers, the one that leaves the fewest
    /// [`Knowledge::cells_to_defend`]. Any winning
    /// move wins, but players and Benzene's endgame file expect the one
    /// that finishes soonest; the first cell of a carrier can prolong the
    /// game for nothing. `None` when the connections do not prove a win.
    ///
    /// Each candidate costs an incremental update (milliseconds on 11x11,
    /// tens of them on 19x19), so candidates are tried in the order most
    /// likely to matter (semis' keys, then the smallest full's carrier,
    /// then the other carriers; by cell within each) and no new one is
    /// started after `until`.
    pub fn simplest_win(&mut self, to_move: Color, until: std::time::Instant) -> Option<Cell> {
        let vc = self.vcs(to_move);
        let empty = self.pos.empty_cells();
        let mut groups: Vec<CellSet> = Vec::new();
        groups.push(vc.edge_semis().iter().map(|s| s.key).collect());
        let mut fulls: Vec<&CellSet> = vc.edge_fulls().iter().collect();
        fulls.sort_by_key(|f| f.len());
        groups.extend(fulls.into_iter().copied());
        groups.extend(vc.edge_semis().iter().map(|s| s.carrier));
        let mut seen = CellSet::EMPTY;
        let mut candidates = Vec::new();
        for g in groups {
            for c in g.intersection(&empty).difference(&seen).iter() {
                candidates.push(c);
            }
            seen = seen.union(&g);
        }
        let mut best: Option<(usize, Cell)> = None;
        for c in candidates {
            if best.is_some() && std::time::Instant::now() >= until {
                break;
            }
            self.play(to_move, c);
            let left = self.cells_to_defend(to_move);
            self.undo();
            if let Some(n) = left
                && best.is_none_or(|(m, _)| n < m)
            {
                best = Some((n, c));
            }
        }
        best.map(|(_, c)| c)
    }

    /// The moves that can avoid an immediate proven loss: the empty cells
    /// in every carrier of the opponent's edge-to-edge semis (all empty
    /// cells when it has none). Empty when the opponent already has an
    /// edge-to-edge full or its semis' carriers share no cell: the position
    /// is lost.
    pub fn mustplay(&self, to_move: Color) -> CellSet {
        let opp = self.vcs(to_move.opponent());
        let empty = self.pos.empty_cells();
        if self.pos.winner().is_some() || !opp.edge_fulls().is_empty() {
            return CellSet::EMPTY;
        }
        opp.edge_semis()
            .iter()
            .fold(empty, |acc, s| acc.intersection(&s.carrier))
    }

    /// The moves worth searching: the mustplay minus cells that inferior
    /// cell analysis fills or prunes (dead, captured, vulnerable,
    /// dominated). Never empty while the mustplay is not: if the pruning
    /// removes every move, the mustplay is returned.
    pub fn consider_set(&self, to_move: Color) -> CellSet {
        let must = self.mustplay(to_move);
        if must.is_empty() {
            return must;
        }
        let inf = analyze(&self.pos, to_move);
        let kept = must.difference(&inf.pruned());
        if kept.is_empty() { must } else { kept }
    }

    /// Number of (full, semi) connections stored for each colour.
    pub fn counts(&self) -> [(usize, usize); 2] {
        [self.vcs[0].counts(), self.vcs[1].counts()]
    }
}

/// The connections between two endpoints for `color` as
/// (full carriers, semis). Opponent stones and opponent edges have none.
pub fn connections(vc: &VcGraph, a: Endpoint, b: Endpoint) -> (Vec<CellSet>, Vec<Semi>) {
    let node = |e: Endpoint| match e {
        Endpoint::Cell(c) => vc.node(c),
        Endpoint::Edge(e) => {
            let (e1, e2) = vc.color().edges();
            (e == e1 || e == e2).then(|| vc.edge_node(e))
        }
    };
    match (node(a), node(b)) {
        (Some(x), Some(y)) if x != y => (vc.fulls(x, y).to_vec(), vc.semis(x, y).to_vec()),
        (Some(_), Some(_)) => (vec![CellSet::EMPTY], Vec::new()),
        _ => (Vec::new(), Vec::new()),
    }
}

/// Why a cell is left out of a colour's consider set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inferiority {
    /// Dead: filled with a stone of this colour.
    Dead(Color),
    /// Captured by this colour (a pattern, or a carrier a decomposition
    /// captures).
    Captured(Color),
    /// Permanently inferior for this colour, filled with its stone.
    Permanent(Color),
    /// Vulnerable: the listed opponent replies kill it.
    Vulnerable(CellSet),
    /// Reversible: the listed replies make it useless to the mover.
    Reversible(CellSet),
    /// Dominated by the listed cells.
    Dominated(CellSet),
}

/// Every cell outside `color`'s consider set (mustplay ignored) with the
/// reason, in cell order: the fill-in, then (as the search's root does)
/// each carrier a decomposition captures and the fill-in it leads to, then
/// the pruning of the last board, which the consider set comes from.
pub fn inferior_cells(pos: &Position, color: Color) -> Vec<(Cell, Inferiority)> {
    let mut entries: Vec<(Cell, Inferiority)> = Vec::new();
    let fills = |inf: &Inferior, entries: &mut Vec<(Cell, Inferiority)>| {
        for col in Color::BOTH {
            for (set, mark) in [
                (&inf.dead[col.index()], Inferiority::Dead(col)),
                (&inf.captured[col.index()], Inferiority::Captured(col)),
                (&inf.perm[col.index()], Inferiority::Permanent(col)),
            ] {
                entries.extend(set.iter().map(|c| (c, mark.clone())));
            }
        }
    };
    let mut inf = analyze(pos, color);
    fills(&inf, &mut entries);
    if pos.winner().is_none() {
        let mut k = Knowledge::new(&fill_in(pos).0);
        decompose::fill_steps(&mut k, |col, carrier, after| {
            entries.extend(carrier.iter().map(|c| (c, Inferiority::Captured(col))));
            inf = analyze(after, color);
            fills(&inf, &mut entries);
        });
    }
    let pruned = inf.pruned().difference(&inf.filled());
    for c in pruned.iter() {
        let find = |list: &[(Cell, CellSet)]| list.iter().find(|(v, _)| *v == c).map(|e| e.1);
        if let Some(k) = find(&inf.vulnerable) {
            entries.push((c, Inferiority::Vulnerable(k)));
        } else if let Some(r) = find(&inf.reversible) {
            entries.push((c, Inferiority::Reversible(r)));
        } else if let Some(d) = find(&inf.dominated) {
            entries.push((c, Inferiority::Dominated(d)));
        }
    }
    entries.sort_by_key(|e| e.0);
    entries
}

/// For benchmarks: builds both colours' connections of `pos` from scratch
/// and returns how many (fulls, semis) were stored.
pub fn bench_build(pos: &Position) -> usize {
    let k = Knowledge::new(pos);
    let [(a, b), (c, d)] = k.counts();
    a + b + c + d
}

/// For benchmarks: plays each of `moves` (alternating colours from
/// `first`) incrementally on `k` and undoes it again, returning a count so
/// the work is not optimised away.
pub fn bench_play_undo(k: &mut Knowledge, first: Color, moves: &[Cell]) -> usize {
    let mut total = 0;
    for &m in moves {
        k.play(first, m);
        total += usize::from(k.decided(first.opponent()).is_some());
        k.undo();
    }
    total
}

/// The early-middle-game 11x11 position the knowledge figures are measured
/// on: 12 stones, Black to move.
pub fn bench_position_11() -> Position {
    let g = Arc::new(Geometry::new(11, 11).expect("11x11"));
    let mut p = Position::new(g);
    let moves = [
        "f6", "e7", "g4", "d9", "c8", "h5", "i3", "g7", "e9", "h8", "j6", "c4",
    ];
    let mut color = Color::Black;
    for m in moves {
        let c = p.geometry().parse_cell(m).expect("cell");
        p.play(color, c);
        color = color.opponent();
    }
    p
}
