//! H-search's rules on the graph: adding a full or a semi (superset
//! pruning, the per-pair caps), the AND and OR rules and the work queue
//! they run from.

use super::*;

impl VcGraph {
    /// Adds a full unless an existing one is a subset; drops fulls and semis
    /// that are supersets of it. Returns whether it was added.
    pub(super) fn add_full(&mut self, a: Node, b: Node, c: CellSet) -> bool {
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
    pub(super) fn add_semi(&mut self, a: Node, b: Node, s: Semi) -> bool {
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
    pub(super) fn or_rule(&mut self, a: Node, b: Node, carrier: CellSet) {
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
    pub(super) fn run(&mut self) {
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
    pub(super) fn and_rule(&mut self, a: Node, mid: Node, f: CellSet) {
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
}

#[inline]
pub(super) fn subset(a: &CellSet, b: &CellSet) -> bool {
    a.words().iter().zip(b.words()).all(|(x, y)| x & !y == 0)
}

/// Equality word by word (inlined, unlike the derived comparison's memcmp).
#[inline]
pub(super) fn same(a: &CellSet, b: &CellSet) -> bool {
    a.words().iter().zip(b.words()).all(|(x, y)| x == y)
}

/// Depth-first search for sets of semis (including the one given as
/// `inter`/`uni`) whose carriers intersect in nothing. Only extensions that
/// shrink the intersection are tried. Works on the words the board uses
/// only (two on 11x11 instead of eleven).
pub(super) fn or_search(
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
    pub(super) fn go(
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
