//! Virtual connections of one colour, built by H-search and kept up to date
//! move by move.
//!
//! Nodes of the connection graph are the colour's groups (a group touching
//! one of the colour's edges *is* that edge), its two edges and every empty
//! cell. A node id is a cell index for empty cells and groups (a group is
//! named by one of its stones) and `num_cells + edge` for an edge. Opponent
//! stones are not nodes.
//!
//! Every change to the connection lists goes through a logged primitive
//! (push or swap-remove), so `undo` rolls a move back exactly by replaying
//! the log backwards: no snapshot of the lists is copied.

mod log;
mod moves;
mod rules;

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;
use std::time::Instant;

use crate::board::{Cell, CellSet, Color, Edge, Geometry, Position};

use super::templates;

/// Node id: a cell index, or `num_cells + edge` for an edge.
pub type Node = u16;
const NONE: Node = Node::MAX;

/// Tuning parameters of H-search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VcParams {
    /// At most this many full connections kept per pair of nodes.
    pub max_fulls: usize,
    /// At most this many semi connections kept per pair of nodes.
    pub max_semis: usize,
    /// At most this many semis combined by one OR.
    pub max_or: usize,
    /// Add precomputed edge templates (IVa and others) that H-search does
    /// not find by itself.
    pub edge_templates: bool,
}

impl Default for VcParams {
    fn default() -> Self {
        VcParams {
            max_fulls: 6,
            max_semis: 12,
            max_or: 4,
            edge_templates: true,
        }
    }
}

/// A semi connection: connected if the owner plays `key` first. The carrier
/// contains the key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Semi {
    pub key: Cell,
    pub carrier: CellSet,
}

/// The connections between one pair of nodes.
#[derive(Clone, Debug, Default)]
pub struct PairList {
    pub fulls: Vec<CellSet>,
    pub semis: Vec<Semi>,
}

/// A set of nodes as a bitboard (cells plus four edges).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct NodeSet([u64; 11]);

impl NodeSet {
    fn insert(&mut self, n: Node) {
        self.0[n as usize / 64] |= 1 << (n % 64);
    }
    fn remove(&mut self, n: Node) {
        self.0[n as usize / 64] &= !(1 << (n % 64));
    }
    fn iter(&self) -> impl Iterator<Item = Node> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some((w * 64 + b) as Node)
            })
        })
    }
}

/// A tiny multiplicative hasher for the pair keys (u32): far cheaper than
/// SipHash, and the keys are not attacker-controlled.
#[derive(Default, Clone, Copy)]
pub(crate) struct PairHasher(u64);

impl Hasher for PairHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }
    fn write_u32(&mut self, i: u32) {
        self.0 = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 7;
    }
}

type PairMap = HashMap<u32, PairList, BuildHasherDefault<PairHasher>>;

fn pair_key(a: Node, b: Node) -> u32 {
    let (a, b) = if a < b { (a, b) } else { (b, a) };
    (a as u32) << 16 | b as u32
}

fn unpair(k: u32) -> (Node, Node) {
    ((k >> 16) as Node, (k & 0xffff) as Node)
}

/// One logged change to a pair's lists.
#[derive(Clone, Copy)]
enum Op {
    PushFull(u32),
    PushSemi(u32),
    RemoveFull(u32, u32, CellSet),
    RemoveSemi(u32, u32, Semi),
    /// A full's carrier replaced in place: (pair, index, old carrier).
    SetFull(u32, u32, CellSet),
    /// A semi replaced in place: (pair, index, old semi).
    SetSemi(u32, u32, Semi),
}

/// What `play` saved to restore on `undo`.
struct Mark {
    log_len: usize,
    node_of: Vec<Node>,
    own: CellSet,
    opp: CellSet,
    won: bool,
}

/// The virtual connections of one colour.
pub struct VcGraph {
    color: Color,
    geometry: Arc<Geometry>,
    params: VcParams,
    n: usize,
    /// Node of each cell: itself when empty, its group's node for an own
    /// stone, `NONE` for an opponent stone.
    node_of: Vec<Node>,
    own: CellSet,
    opp: CellSet,
    /// Own stones already join the two edges.
    won: bool,
    pairs: PairMap,
    /// For each node, the nodes it has at least one full connection with.
    adj: Vec<NodeSet>,
    log: Vec<Op>,
    logging: bool,
    marks: Vec<Mark>,
    queue: VecDeque<(u32, CellSet)>,
    scratch: Vec<(Node, CellSet)>,
    /// When set, the AND and OR rules stop combining at this time: the
    /// connections found by then are all real ones, only fewer (a search
    /// with a deadline cannot wait for a full closure on a big board).
    deadline: Option<Instant>,
}

impl VcGraph {
    /// Builds `color`'s connections in `pos` from scratch.
    pub fn build(pos: &Position, color: Color, params: VcParams) -> VcGraph {
        VcGraph::build_until(pos, color, params, None)
    }

    /// [`VcGraph::build`], combining only until `deadline` (see
    /// [`VcGraph::set_deadline`]).
    pub fn build_until(
        pos: &Position,
        color: Color,
        params: VcParams,
        deadline: Option<Instant>,
    ) -> VcGraph {
        let geometry = pos.shared_geometry().clone();
        let n = geometry.num_cells();
        let mut vc = VcGraph {
            color,
            params,
            n,
            node_of: vec![NONE; n],
            own: *pos.stones(color),
            opp: *pos.stones(color.opponent()),
            won: false,
            pairs: PairMap::default(),
            adj: vec![NodeSet::default(); n + 4],
            log: Vec::new(),
            logging: false,
            marks: Vec::new(),
            queue: VecDeque::new(),
            scratch: Vec::new(),
            deadline,
            geometry,
        };
        vc.label_nodes();
        if !vc.won {
            vc.add_base();
            vc.run();
        }
        vc.logging = true;
        vc
    }

    pub fn color(&self) -> Color {
        self.color
    }

    fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// From now on the AND and OR rules stop combining at `deadline` (`None`: never),
    /// in updates as in builds; what it has found stays valid.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    pub fn params(&self) -> &VcParams {
        &self.params
    }

    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// Whether the colour's stones already join its edges.
    pub fn is_won(&self) -> bool {
        self.won
    }

    pub fn edge_node(&self, e: Edge) -> Node {
        (self.n + e as usize) as Node
    }

    /// The node a cell belongs to: itself when empty, its group when an own
    /// stone (the edge when the group touches one), `None` for an opponent
    /// stone.
    pub fn node(&self, cell: Cell) -> Option<Node> {
        let v = self.node_of[cell.index()];
        (v != NONE).then_some(v)
    }

    /// Whether `node` is an empty cell.
    fn is_empty_node(&self, node: Node) -> bool {
        (node as usize) < self.n && !self.own.contains(Cell::from_index(node as usize))
    }

    /// The connections between two nodes (empty when there are none).
    pub fn between(&self, a: Node, b: Node) -> Option<&PairList> {
        if a == b {
            return None;
        }
        self.pairs.get(&pair_key(a, b))
    }

    /// The full carriers between two nodes.
    pub fn fulls(&self, a: Node, b: Node) -> &[CellSet] {
        self.between(a, b).map_or(&[], |p| &p.fulls)
    }

    /// The semis between two nodes.
    pub fn semis(&self, a: Node, b: Node) -> &[Semi] {
        self.between(a, b).map_or(&[], |p| &p.semis)
    }

    /// The colour's own edges as nodes.
    pub fn edge_nodes(&self) -> (Node, Node) {
        let (a, b) = self.color.edges();
        (self.edge_node(a), self.edge_node(b))
    }

    /// Edge-to-edge full carriers.
    pub fn edge_fulls(&self) -> &[CellSet] {
        let (a, b) = self.edge_nodes();
        self.fulls(a, b)
    }

    /// Edge-to-edge semis.
    pub fn edge_semis(&self) -> &[Semi] {
        let (a, b) = self.edge_nodes();
        self.semis(a, b)
    }

    /// Number of (full, semi) connections stored.
    pub fn counts(&self) -> (usize, usize) {
        self.pairs
            .values()
            .fold((0, 0), |(f, s), p| (f + p.fulls.len(), s + p.semis.len()))
    }

    /// Every pair with its lists, in no particular order.
    pub fn pairs(&self) -> impl Iterator<Item = ((Node, Node), &PairList)> {
        self.pairs
            .iter()
            .filter(|(_, p)| !p.fulls.is_empty() || !p.semis.is_empty())
            .map(|(&k, p)| (unpair(k), p))
    }

    // ---- node labelling -------------------------------------------------

    fn label_nodes(&mut self) {
        let g = self.geometry.clone();
        let (e1, e2) = self.color.edges();
        self.node_of.fill(NONE);
        for c in g.cells() {
            if !self.own.contains(c) && !self.opp.contains(c) {
                self.node_of[c.index()] = c.index() as Node;
            }
        }
        let mut stack = Vec::new();
        for s in self.own.iter() {
            if self.node_of[s.index()] != NONE {
                continue;
            }
            let mut group = Vec::new();
            let mut edges = 0u8;
            self.node_of[s.index()] = s.index() as Node;
            stack.push(s);
            while let Some(c) = stack.pop() {
                group.push(c);
                for e in [e1, e2] {
                    if g.touches(c, e) {
                        edges |= e.bit();
                    }
                }
                for &nb in g.neighbours(c) {
                    if self.own.contains(nb) && self.node_of[nb.index()] == NONE {
                        self.node_of[nb.index()] = s.index() as Node;
                        stack.push(nb);
                    }
                }
            }
            let rep = if edges == e1.bit() | e2.bit() {
                self.won = true;
                self.edge_node(e1)
            } else if edges & e1.bit() != 0 {
                self.edge_node(e1)
            } else if edges & e2.bit() != 0 {
                self.edge_node(e2)
            } else {
                group.iter().min().expect("non-empty").index() as Node
            };
            for c in group {
                self.node_of[c.index()] = rep;
            }
        }
    }

    /// Fulls with empty carriers between adjacent nodes, and templates.
    fn add_base(&mut self) {
        let g = self.geometry.clone();
        let (e1, e2) = self.color.edges();
        for c in g.cells() {
            let a = self.node_of[c.index()];
            if a == NONE {
                continue;
            }
            for &nb in g.neighbours(c) {
                let b = self.node_of[nb.index()];
                if b != NONE && b != a && (a < b || !self.is_empty_node(b)) {
                    self.add_full(a, b, CellSet::EMPTY);
                }
            }
            for e in [e1, e2] {
                let en = self.edge_node(e);
                if g.touches(c, e) && a != en {
                    self.add_full(a, en, CellSet::EMPTY);
                }
            }
        }
        if self.params.edge_templates {
            let found = templates::edge_templates(&g, self.color, &self.own, &self.opp);
            for (cell, edge, carrier) in found {
                let a = self.node_of[cell.index()];
                let b = self.edge_node(edge);
                if a != NONE && a != b {
                    self.add_full(a, b, carrier);
                }
            }
        }
    }

    // ---- logged primitives ------------------------------------------------

    // ---- adding connections -------------------------------------------------

    // ---- incremental update ------------------------------------------------
}
