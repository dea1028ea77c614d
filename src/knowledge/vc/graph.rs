//! Runs along a line: seeding a run with the closure an earlier position
//! left, exporting one; and what else a run's lists are read for: the
//! decomposition of a colour's groups, the connection graph the circuits
//! are solved over.

use super::*;

impl<B: Bitboard> Hsearch<B> {
    /// Adds the still valid connections of `seed`: first those the new
    /// stones left as they were (their combinations are in the seed
    /// already), then the changed ones, queued for AND and tried for OR
    /// (see [`Origin`]). `grown`: the groups holding new own stones.
    pub(super) fn seed(&mut self, seed: &Closure<B>, node_of: &[Id], own: B, opp: B, grown: B) {
        let node_at = |e: Id| -> Option<usize> {
            match e {
                END_E1 => Some(E1),
                END_E2 => Some(E2),
                i => match node_of.get(i as usize).copied().unwrap_or(NO_NODE) {
                    NO_NODE => None,
                    n => Some(n as usize),
                },
            }
        };
        let mut changed = std::mem::take(&mut self.changed);
        changed.clear();
        // A capped list that loses a connection to the new opponent stones
        // may have turned away others that the new stones leave alone:
        // such pairs are derived again (AND and OR) once the seeds are in.
        let mut damaged = std::mem::take(&mut self.damaged);
        for &(a, _) in &damaged {
            self.damaged_with[node::<B>(a as usize)] = B::ZERO;
        }
        damaged.clear();
        for &i in &seed.capped {
            let conn = &seed.conns[i as usize];
            if (conn.carrier() & opp).is_empty() {
                continue;
            }
            if let (Some(a), Some(b)) = (node_at(conn.a), node_at(conn.b))
                && a != b
                && !self.damaged_with[node::<B>(a)].has(b)
            {
                self.damaged_with[node::<B>(a)] |= bit(b);
                damaged.push((a as Id, b as Id));
            }
        }
        self.grown = grown;
        self.origin = Origin::Old;
        for conn in &seed.conns {
            let full_carrier = conn.carrier();
            if (full_carrier & opp).any() {
                continue;
            }
            let (Some(a), Some(b)) = (node_at(conn.a), node_at(conn.b)) else {
                continue;
            };
            if a == b {
                continue;
            }
            let carrier = full_carrier & !own;
            let key_taken = conn.key != NO_KEY && own.has(conn.key as usize);
            let at_grown = (grown & (bit::<B>(a) | bit(b))).any();
            let origin = if key_taken || (at_grown && carrier != full_carrier) {
                Origin::New
            } else if at_grown {
                Origin::Grown
            } else if carrier != full_carrier {
                Origin::Shrunk
            } else {
                self.append_old(a, b, carrier, conn.key);
                if self.stopped {
                    break;
                }
                continue;
            };
            let key = if key_taken { NO_KEY } else { conn.key };
            changed.push((Conn::new(carrier, a as Id, b as Id, key), origin));
        }
        for &(conn, origin) in &changed {
            if self.stopped {
                break;
            }
            self.origin = origin;
            let (a, b) = (conn.a as usize, conn.b as usize);
            if conn.key == NO_KEY {
                self.add_full(a, b, conn.carrier());
            } else {
                self.add_semi(a, b, conn.carrier(), conn.key);
            }
        }
        self.origin = Origin::New;
        for &(a, b) in &damaged {
            if self.stopped {
                break;
            }
            self.rederive(a as usize, b as usize);
            if !self.stopped {
                self.reor(a as usize, b as usize);
            }
        }
        self.changed = changed;
        self.damaged = damaged;
    }

    /// The AND rule for the one pair (a, b), through every middle node
    /// both have fulls with.
    pub(super) fn rederive(&mut self, a: usize, b: usize) {
        let (a, b) = (node::<B>(a), node::<B>(b));
        let xs = self.adj[a] & self.adj[b] & !bit::<B>(E1) & !bit::<B>(E2);
        for x in xs.ones() {
            let x = node::<B>(x);
            let p = ix::<B>(a, x);
            let fc = self.caps.fulls;
            let at = self.fat(p);
            for k in 0..(self.nf[p] as usize).min(fc) {
                let c = self.fulls[at + k];
                if (c & self.cell_bit[b]).is_empty() {
                    self.and_pair(a, x, b, c, 0);
                }
                if self.stopped {
                    return;
                }
            }
        }
    }

    /// The OR rule again over the semis the pair (a, b) keeps, each with
    /// those before it (as when they were added): a full list that lost
    /// connections has room for the fulls it turned away.
    pub(super) fn reor(&mut self, a: usize, b: usize) {
        let (a, b) = (node::<B>(a), node::<B>(b));
        let p = ix::<B>(a.min(b), a.max(b));
        let n = (self.ns[p] as usize).min(self.caps.semis);
        if n < 2 {
            return;
        }
        let at = self.sat(p);
        for i in 1..n {
            if self.stopped {
                return;
            }
            self.or_rule(a, b, at, i, self.semis[at + i]);
        }
    }

    /// Saves the last run's connections into `out` (for [`run_seeded`]
    /// on later positions); false when that run stopped early or gave up,
    /// so that its lists are not the whole closure.
    ///
    /// [`run_seeded`]: Hsearch::run_seeded
    pub fn export(&self, stones: [B; 2], hash: u64, color: Color, out: &mut Closure<B>) -> bool {
        out.conns.clear();
        out.capped.clear();
        out.color = None;
        if !self.finished() {
            return false;
        }
        let m = self.m;
        self.for_each_full_list(|a, b, fulls| {
            for &carrier in fulls {
                out.push(
                    Conn::new(carrier, self.rep[a], self.rep[b], NO_KEY),
                    fulls.len() == self.caps.fulls,
                );
            }
        });
        // The edge semis: every one found, not only those the list kept,
        // since the mustplay is the common cells of all of them.
        for &(carrier, key) in &self.edge_list {
            out.push(
                Conn::new(carrier, END_E1, END_E2, key),
                self.edge_list.len() == EDGE_LIST_MAX,
            );
        }
        for a in 0..m {
            // (The edge pair's semis are the list above.)
            let bs = self.sadj[a] & !bit::<B>(E2);
            for b in bs.ones() {
                let p = ix::<B>(a, b);
                let sc = self.caps.semis;
                let ns = (self.ns[p] as usize).min(sc);
                let at = self.sat(p);
                for k in 0..ns {
                    let (carrier, key) = (self.semis[at + k], self.keys[at + k]);
                    out.push(Conn::new(carrier, self.rep[a], self.rep[b], key), ns == sc);
                }
            }
        }
        out.stones = stones;
        out.hash = hash;
        out.color = Some(color);
        true
    }

    /// A carrier `color` captures by decomposition on `stones`, from the
    /// last run (for `color` on `stones`, gone to the end): the smallest
    /// full connection between two of its groups (not the two edges) that
    /// lies in a pocket no `color` chain from its other edges reaches
    /// without passing a cell next to one of the two. A chain of `color`
    /// through the pocket can only go from one of the groups to the other
    /// (a combinatorial decomposition), which the full connection already
    /// guarantees, so filling the carrier with `color`'s stones keeps the
    /// winner; the carrier belongs to every proof that relies on it, as
    /// captured cells do.
    pub fn decomposition(&self, bits: &Bits<B>, stones: [B; 2], color: Color) -> Option<B> {
        if !self.finished() {
            return None;
        }
        let opp = stones[color.opponent().index()];
        let empty = bits.all & !stones[0] & !stones[1];
        let (e1, e2) = color.edges();
        let edge = [bits.edge(e1), bits.edge(e2)];
        let near = |k: usize| {
            let mut n = bits.spread(self.group_cells[k]);
            if k < 2 {
                n |= edge[k];
            }
            n & empty
        };
        let mut best: Option<B> = None;
        for a in 0..self.groups {
            let bs = self.adj[a] & B::above(a);
            for b in bs.ones() {
                if b >= self.groups || (a, b) == (E1, E2) {
                    continue;
                }
                let p = ix::<B>(a, b);
                let fulls = self.full_list(p);
                let better =
                    |c: B, best: Option<B>| c.any() && best.is_none_or(|x| c.count() < x.count());
                if !fulls.iter().any(|&c| better(c, best)) {
                    continue;
                }
                let stop = near(a) | near(b);
                let blocked = self.group_cells[a] | self.group_cells[b] | opp;
                let mut reached = B::ZERO;
                for (k, &cells) in edge.iter().enumerate() {
                    if k != a && k != b {
                        reached |= cells & !blocked;
                    }
                }
                let mut frontier = reached & !stop;
                while frontier.any() {
                    let next = bits.spread(frontier) & !blocked & !reached;
                    reached |= next;
                    frontier = next & !stop;
                }
                let pocket = empty & !reached;
                for &c in fulls {
                    if better(c, best) && (c & !pocket).is_empty() {
                        best = Some(c);
                    }
                }
            }
        }
        best
    }

    /// The kept fulls of the pair at table index `p`.
    #[inline]
    fn full_list(&self, p: usize) -> &[B] {
        let n = (self.nf[p] as usize).min(self.caps.fulls);
        if n == 0 {
            return &[];
        }
        let at = self.fat(p);
        &self.fulls[at..at + n]
    }

    /// The last finished run's connection graph: its number of nodes
    /// (node 0 is the colour's first edge, node 1 its second; then its
    /// groups, then the empty cells); 0 when the run stopped early.
    pub fn graph_nodes(&self) -> usize {
        self.m
    }

    /// The node of cell `i` in the last finished run (its group's, or its
    /// own when empty); `None` for cells the run left out (the
    /// opponent's stones, cells on no chain of the colour's).
    pub fn node_at(&self, i: usize) -> Option<usize> {
        let k = *self.node_of.get(i)? as usize;
        (self.finished() && k < self.m).then_some(k)
    }

    /// The connections the last finished run kept between nodes `a` and
    /// `b`: the fulls' carriers, and the semis' carriers with their key
    /// cells. (Node 0 is the colour's first edge, node 1 its second.)
    pub fn between(&self, a: usize, b: usize) -> (Vec<B>, Vec<(B, usize)>) {
        if !self.finished() || a == b || a.max(b) >= self.m {
            return (Vec::new(), Vec::new());
        }
        let fulls = self.full_list(ix::<B>(a, b)).to_vec();
        let p = ix::<B>(a.min(b), a.max(b));
        let n = (self.ns[p] as usize).min(self.caps.semis);
        let at = self.sat(p);
        let semis = (0..n)
            .map(|k| (self.semis[at + k], self.keys[at + k] as usize))
            .collect();
        (fulls, semis)
    }

    /// The cell index of node `k` when it is an empty cell.
    #[inline]
    pub fn node_cell(&self, k: usize) -> Option<usize> {
        let k = node::<B>(k);
        self.cell_bit[k].any().then(|| self.cell_of[k] as usize)
    }

    /// Calls `f(a, b)` for every node pair `a < b` of the last finished
    /// run with a full connection.
    pub fn for_each_link(&self, mut f: impl FnMut(usize, usize)) {
        self.for_each_full_list(|a, b, _| f(a, b));
    }

    /// Calls `f(a, b, fulls)` for every node pair `a < b` of the last run
    /// with full connections, `fulls` being the pair's kept carriers.
    pub(super) fn for_each_full_list(&self, mut f: impl FnMut(usize, usize, &[B])) {
        for a in 0..self.m {
            let bs = self.adj[a] & B::above(a);
            for b in bs.ones() {
                let p = ix::<B>(a, b);
                f(a, b, self.full_list(p));
            }
        }
    }
}
