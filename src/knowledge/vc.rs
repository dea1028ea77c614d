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

    fn list(&mut self, key: u32) -> &mut PairList {
        self.pairs.entry(key).or_default()
    }

    fn push_full(&mut self, key: u32, c: CellSet) {
        let list = self.list(key);
        list.fulls.push(c);
        let first = list.fulls.len() == 1;
        if self.logging {
            self.log.push(Op::PushFull(key));
        }
        if first {
            let (a, b) = unpair(key);
            self.adj[a as usize].insert(b);
            self.adj[b as usize].insert(a);
        }
    }

    fn remove_full(&mut self, key: u32, i: usize) {
        let list = self.list(key);
        let c = list.fulls.swap_remove(i);
        let now_empty = list.fulls.is_empty();
        if self.logging {
            self.log.push(Op::RemoveFull(key, i as u32, c));
        }
        if now_empty {
            let (a, b) = unpair(key);
            self.adj[a as usize].remove(b);
            self.adj[b as usize].remove(a);
        }
    }

    fn push_semi(&mut self, key: u32, s: Semi) {
        self.list(key).semis.push(s);
        if self.logging {
            self.log.push(Op::PushSemi(key));
        }
    }

    fn remove_semi(&mut self, key: u32, i: usize) {
        let s = self.list(key).semis.swap_remove(i);
        if self.logging {
            self.log.push(Op::RemoveSemi(key, i as u32, s));
        }
    }

    fn set_full(&mut self, key: u32, i: usize, c: CellSet) {
        let old = std::mem::replace(&mut self.list(key).fulls[i], c);
        if self.logging {
            self.log.push(Op::SetFull(key, i as u32, old));
        }
    }

    fn set_semi(&mut self, key: u32, i: usize, s: Semi) {
        let old = std::mem::replace(&mut self.list(key).semis[i], s);
        if self.logging {
            self.log.push(Op::SetSemi(key, i as u32, old));
        }
    }

    fn undo_op(&mut self, op: Op) {
        let key = match op {
            Op::SetFull(k, i, c) => {
                self.list(k).fulls[i as usize] = c;
                return;
            }
            Op::SetSemi(k, i, s) => {
                self.list(k).semis[i as usize] = s;
                return;
            }
            Op::PushFull(k) => {
                self.list(k).fulls.pop();
                k
            }
            Op::PushSemi(k) => {
                self.list(k).semis.pop();
                k
            }
            Op::RemoveFull(k, i, c) => {
                let l = &mut self.list(k).fulls;
                l.push(c);
                let last = l.len() - 1;
                l.swap(i as usize, last);
                k
            }
            Op::RemoveSemi(k, i, s) => {
                let l = &mut self.list(k).semis;
                l.push(s);
                let last = l.len() - 1;
                l.swap(i as usize, last);
                k
            }
        };
        let has = !self.list(key).fulls.is_empty();
        let (a, b) = unpair(key);
        if has {
            self.adj[a as usize].insert(b);
            self.adj[b as usize].insert(a);
        } else {
            self.adj[a as usize].remove(b);
            self.adj[b as usize].remove(a);
        }
    }

    // ---- adding connections -------------------------------------------------

    /// Adds a full unless an existing one is a subset; drops fulls and semis
    /// that are supersets of it. Returns whether it was added.
    fn add_full(&mut self, a: Node, b: Node, c: CellSet) -> bool {
        let key = pair_key(a, b);
        let mut drop_fulls: Vec<usize> = Vec::new();
        let mut drop_semis: Vec<usize> = Vec::new();
        let max = self.params.max_fulls;
        {
            let list = self.list(key);
            for (i, f) in list.fulls.iter().enumerate() {
                if subset(f, &c) {
                    return false;
                }
                if subset(&c, f) {
                    drop_fulls.push(i);
                }
            }
            if list.fulls.len() - drop_fulls.len() >= max {
                return false;
            }
            for (i, s) in list.semis.iter().enumerate() {
                if subset(&c, &s.carrier) {
                    drop_semis.push(i);
                }
            }
        }
        // Highest index first, so swap-removes leave the others in place.
        for &i in drop_fulls.iter().rev() {
            self.remove_full(key, i);
        }
        self.push_full(key, c);
        for &i in drop_semis.iter().rev() {
            self.remove_semi(key, i);
        }
        self.queue.push_back((key, c));
        true
    }

    /// Adds a semi unless a full or a semi with a subset carrier exists;
    /// drops semis that are supersets; then tries the OR rule with it.
    fn add_semi(&mut self, a: Node, b: Node, s: Semi) -> bool {
        let key = pair_key(a, b);
        let mut drop: Vec<usize> = Vec::new();
        let max = self.params.max_semis;
        {
            let list = self.list(key);
            if list.fulls.iter().any(|f| subset(f, &s.carrier)) {
                return false;
            }
            for (i, t) in list.semis.iter().enumerate() {
                if subset(&t.carrier, &s.carrier) {
                    return false;
                }
                if subset(&s.carrier, &t.carrier) {
                    drop.push(i);
                }
            }
            if list.semis.len() - drop.len() >= max {
                return false;
            }
        }
        for &i in drop.iter().rev() {
            self.remove_semi(key, i);
        }
        self.push_semi(key, s);
        self.or_rule(a, b, s.carrier);
        true
    }

    /// OR: sets of up to `max_or` semis (including the new one) whose
    /// carriers have an empty common intersection give a full over their
    /// union.
    fn or_rule(&mut self, a: Node, b: Node, carrier: CellSet) {
        // The costliest rule: past the deadline, semis are kept but no
        // longer combined.
        if self.expired() {
            return;
        }
        let key = pair_key(a, b);
        let others: Vec<CellSet> = self.list(key).semis.iter().map(|s| s.carrier).collect();
        let mut found = Vec::new();
        or_search(
            &others,
            0,
            carrier,
            carrier,
            1,
            self.params.max_or,
            &mut found,
        );
        for u in found {
            self.add_full(a, b, u);
        }
    }

    /// Runs the AND rule over queued fulls until nothing new appears.
    fn run(&mut self) {
        let mut popped = 0u32;
        while let Some((key, f)) = self.queue.pop_front() {
            popped += 1;
            if popped.is_multiple_of(32) && self.expired() {
                self.queue.clear();
                return;
            }
            // Skip fulls dropped since they were queued.
            if !self
                .pairs
                .get(&key)
                .is_some_and(|l| l.fulls.iter().any(|g| same(g, &f)))
            {
                continue;
            }
            let (x, y) = unpair(key);
            self.and_rule(x, y, f);
            self.and_rule(y, x, f);
        }
    }

    /// AND through `mid`: full(a, mid) = f combined with each full(mid, z).
    fn and_rule(&mut self, a: Node, mid: Node, f: CellSet) {
        if mid as usize >= self.n {
            // Not through edges: it only links things already tied to an edge.
            return;
        }
        let mid_empty = self.is_empty_node(mid);
        let a_cell =
            ((a as usize) < self.n && self.is_empty_node(a)).then(|| Cell::from_index(a as usize));
        let mut cands = std::mem::take(&mut self.scratch);
        cands.clear();
        for z in self.adj[mid as usize].iter() {
            if z == a {
                continue;
            }
            let z_cell = ((z as usize) < self.n && self.is_empty_node(z))
                .then(|| Cell::from_index(z as usize));
            if z_cell.is_some_and(|zc| f.contains(zc)) {
                continue;
            }
            if let Some(l) = self.pairs.get(&pair_key(mid, z)) {
                for g in &l.fulls {
                    if f.is_disjoint(g) && !a_cell.is_some_and(|ac| g.contains(ac)) {
                        cands.push((z, f.union(g)));
                    }
                }
            }
        }
        for &(z, u) in &cands {
            if mid_empty {
                let key = Cell::from_index(mid as usize);
                let mut carrier = u;
                carrier.insert(key);
                self.add_semi(a, z, Semi { key, carrier });
            } else {
                self.add_full(a, z, u);
            }
        }
        self.scratch = cands;
    }

    // ---- incremental update ------------------------------------------------

    /// Updates the connections for a stone of `color` at `cell`.
    pub fn play(&mut self, color: Color, cell: Cell) {
        self.marks.push(Mark {
            log_len: self.log.len(),
            node_of: self.node_of.clone(),
            own: self.own,
            opp: self.opp,
            won: self.won,
        });
        if self.won {
            if color == self.color {
                self.own.insert(cell);
            } else {
                self.opp.insert(cell);
            }
            return;
        }
        if color == self.color {
            self.play_own(cell);
        } else {
            self.play_opponent(cell);
        }
        self.run();
    }

    /// Takes back the last `play`.
    pub fn undo(&mut self) {
        let mark = self.marks.pop().expect("undo without play");
        while self.log.len() > mark.log_len {
            let op = self.log.pop().expect("non-empty");
            self.undo_op(op);
        }
        self.node_of = mark.node_of;
        self.own = mark.own;
        self.opp = mark.opp;
        self.won = mark.won;
    }

    fn play_opponent(&mut self, cell: Cell) {
        self.opp.insert(cell);
        let p = cell.index() as Node;
        self.node_of[cell.index()] = NONE;
        // Only pairs that hold the cell as an endpoint or in a carrier.
        let keys: Vec<u32> = self
            .pairs
            .iter()
            .filter(|&(&k, l)| {
                let (a, b) = unpair(k);
                a == p
                    || b == p
                    || l.fulls.iter().any(|f| f.contains(cell))
                    || l.semis.iter().any(|s| s.carrier.contains(cell))
            })
            .map(|(&k, _)| k)
            .collect();
        let mut touched = Vec::new();
        for key in keys {
            let (a, b) = unpair(key);
            let endpoint = a == p || b == p;
            let mut changed = false;
            let mut i = 0;
            while i < self.pairs[&key].fulls.len() {
                if endpoint || self.pairs[&key].fulls[i].contains(cell) {
                    self.remove_full(key, i);
                    changed = true;
                } else {
                    i += 1;
                }
            }
            let mut i = 0;
            while i < self.pairs[&key].semis.len() {
                if endpoint || self.pairs[&key].semis[i].carrier.contains(cell) {
                    self.remove_semi(key, i);
                    changed = true;
                } else {
                    i += 1;
                }
            }
            if changed && !endpoint {
                touched.push(key);
            }
        }
        // Pairs that lost connections may now combine remaining semis that
        // the limits had kept apart.
        for key in touched {
            let (a, b) = unpair(key);
            let semis: Vec<CellSet> = self.pairs[&key].semis.iter().map(|s| s.carrier).collect();
            if semis.len() >= 2 && self.pairs[&key].fulls.is_empty() {
                let mut found = Vec::new();
                for (i, s) in semis.iter().enumerate() {
                    or_search(&semis, i + 1, *s, *s, 1, self.params.max_or, &mut found);
                    if !found.is_empty() {
                        break;
                    }
                }
                for u in found {
                    self.add_full(a, b, u);
                }
            }
        }
    }

    fn play_own(&mut self, cell: Cell) {
        let g = self.geometry.clone();
        let p = cell.index() as Node;
        self.own.insert(cell);
        // The nodes that merge: the cell, adjacent groups, touched edges.
        let mut merged: Vec<Node> = vec![p];
        for &nb in g.neighbours(cell) {
            if self.own.contains(nb) {
                let r = self.node_of[nb.index()];
                if !merged.contains(&r) {
                    merged.push(r);
                }
            }
        }
        let (e1, e2) = self.color.edges();
        for e in [e1, e2] {
            if g.touches(cell, e) && !merged.contains(&self.edge_node(e)) {
                merged.push(self.edge_node(e));
            }
        }
        let edges: Vec<Node> = merged
            .iter()
            .copied()
            .filter(|&m| m as usize >= self.n)
            .collect();
        let rep = match edges.len() {
            0 => *merged.iter().min().expect("non-empty"),
            1 => edges[0],
            _ => {
                self.won = true;
                edges[0]
            }
        };
        for v in self.node_of.iter_mut() {
            if *v != NONE && merged.contains(v) {
                *v = rep;
            }
        }
        self.node_of[cell.index()] = rep;
        if self.won {
            return;
        }
        // Connections with an endpoint in `merged` are taken out and put
        // back renamed (and re-queued: the merged group has new partners).
        // Elsewhere the cell simply leaves carriers in place: a connection
        // stays valid with an own stone in its carrier, and the ones built
        // from it shrink the same way. Semis keyed at the cell become fulls
        // and pairs whose semis shrank retry the OR rule.
        // Only pairs with a merged endpoint or the cell in a carrier.
        let keys: Vec<u32> = self
            .pairs
            .iter()
            .filter(|&(&k, l)| {
                let (a, b) = unpair(k);
                merged.contains(&a)
                    || merged.contains(&b)
                    || l.fulls.iter().any(|f| f.contains(cell))
                    || l.semis.iter().any(|s| s.carrier.contains(cell))
            })
            .map(|(&k, _)| k)
            .collect();
        let mut readd: Vec<(Node, Node, Option<Cell>, CellSet)> = Vec::new();
        let mut retry_or: Vec<(u32, CellSet)> = Vec::new();
        for key in keys {
            let (a, b) = unpair(key);
            let ra = if merged.contains(&a) { rep } else { a };
            let rb = if merged.contains(&b) { rep } else { b };
            let renamed = ra != a || rb != b;
            let mut i = 0;
            while i < self.pairs[&key].fulls.len() {
                let f = self.pairs[&key].fulls[i];
                if renamed {
                    self.remove_full(key, i);
                    let mut f = f;
                    f.remove(cell);
                    readd.push((ra, rb, None, f));
                } else {
                    if f.contains(cell) {
                        let mut f = f;
                        f.remove(cell);
                        self.set_full(key, i, f);
                    }
                    i += 1;
                }
            }
            let mut i = 0;
            while i < self.pairs[&key].semis.len() {
                let s = self.pairs[&key].semis[i];
                if renamed || s.key == cell {
                    self.remove_semi(key, i);
                    let mut c = s.carrier;
                    c.remove(cell);
                    let key_cell = (s.key != cell).then_some(s.key);
                    readd.push((ra, rb, key_cell, c));
                } else {
                    if s.carrier.contains(cell) {
                        let mut c = s.carrier;
                        c.remove(cell);
                        self.set_semi(
                            key,
                            i,
                            Semi {
                                key: s.key,
                                carrier: c,
                            },
                        );
                        retry_or.push((key, c));
                    }
                    i += 1;
                }
            }
        }
        // Only combinations with a shrunk semi can be new.
        for (key, shrunk) in retry_or {
            let (a, b) = unpair(key);
            let semis: Vec<CellSet> = self.pairs[&key].semis.iter().map(|s| s.carrier).collect();
            if semis.len() >= 2 && semis.iter().any(|s| same(s, &shrunk)) {
                let mut found = Vec::new();
                or_search(&semis, 0, shrunk, shrunk, 1, self.params.max_or, &mut found);
                for u in found {
                    self.add_full(a, b, u);
                }
            }
        }
        // Fulls first so that semis dominated by them are not kept.
        readd.sort_by_key(|r| r.2.is_some());
        for (a, b, key, c) in readd {
            if a == b {
                continue;
            }
            match key {
                None => {
                    self.add_full(a, b, c);
                }
                Some(k) => {
                    self.add_semi(a, b, Semi { key: k, carrier: c });
                }
            }
        }
    }
}

#[inline]
fn subset(a: &CellSet, b: &CellSet) -> bool {
    a.words().iter().zip(b.words()).all(|(x, y)| x & !y == 0)
}

/// Equality word by word (inlined, unlike the derived comparison's memcmp).
#[inline]
fn same(a: &CellSet, b: &CellSet) -> bool {
    a.words().iter().zip(b.words()).all(|(x, y)| x == y)
}

/// Depth-first search for sets of semis (including the one given as
/// `inter`/`uni`) whose carriers intersect in nothing. Only extensions that
/// shrink the intersection are tried. Works on the words the board uses
/// only (two on 11x11 instead of eleven).
fn or_search(
    semis: &[CellSet],
    from: usize,
    inter: CellSet,
    uni: CellSet,
    depth: usize,
    max: usize,
    found: &mut Vec<CellSet>,
) {
    let used = semis
        .iter()
        .chain([&inter, &uni])
        .map(|s| s.words().iter().rposition(|&w| w != 0).map_or(0, |i| i + 1))
        .max()
        .unwrap_or(0);
    const W: usize = 11;
    let words = |s: &CellSet| {
        let mut a = [0u64; W];
        a[..used].copy_from_slice(&s.words()[..used]);
        a
    };
    let list: Vec<[u64; W]> = semis.iter().map(words).collect();
    let mut out: Vec<[u64; W]> = Vec::new();
    /// `lim` is (words used, semis per OR at most).
    fn go(
        list: &[[u64; W]],
        lim: (usize, usize),
        from: usize,
        inter: [u64; W],
        uni: [u64; W],
        depth: usize,
        out: &mut Vec<[u64; W]>,
    ) {
        let (used, max) = lim;
        if depth >= max {
            return;
        }
        for (j, s) in list.iter().enumerate().skip(from) {
            let mut i2 = [0u64; W];
            let mut shrinks = false;
            let mut empty = true;
            for w in 0..used {
                i2[w] = inter[w] & s[w];
                shrinks |= i2[w] != inter[w];
                empty &= i2[w] == 0;
            }
            if !shrinks {
                continue;
            }
            let mut u2 = uni;
            for w in 0..used {
                u2[w] |= s[w];
            }
            if empty {
                let sub = |a: &[u64; W], b: &[u64; W]| (0..used).all(|w| a[w] & !b[w] == 0);
                if !out.iter().any(|f| sub(f, &u2)) {
                    out.retain(|f| !sub(&u2, f));
                    out.push(u2);
                }
            } else {
                go(list, lim, j + 1, i2, u2, depth + 1, out);
            }
        }
    }
    go(
        &list,
        (used, max),
        from,
        words(&inter),
        words(&uni),
        depth,
        &mut out,
    );
    for u in out {
        let c = CellSet::from_words(&u[..used]);
        if !found.iter().any(|f| subset(f, &c)) {
            found.retain(|f| !subset(&c, f));
            found.push(c);
        }
    }
}
