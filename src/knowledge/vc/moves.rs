//! Incremental play and undo: a stone of either colour updates the graph
//! in place of a rebuild.

use super::rules::{or_search, same};
use super::*;

impl VcGraph {
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

    pub(super) fn play_opponent(&mut self, cell: Cell) {
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

    pub(super) fn play_own(&mut self, cell: Cell) {
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
