//! Depth-first proof-number search (Nagai's df-pn) in negamax form.
//!
//! Every node is seen from its side to move: `phi` is its proof number
//! (the work it looks to take to prove the mover wins), `delta` its
//! disproof number. A node's `phi` is the least `delta` of its children and
//! its `delta` the sum of their `phi`s. The search descends into the child
//! with the least `delta` while the node's numbers stay under thresholds:
//! the child may work until its `phi` reaches the parent's `delta`
//! threshold less the other children's share, or until its `delta` passes
//! the second-best child's `delta`. With Pawlewicz and Lew's "1 + epsilon"
//! trick the second bound is `(1 + epsilon)` times the second-best, which
//! stops the search from switching back and forth between two siblings of
//! nearly equal promise.
//!
//! Hex has no cycles (stones are only added), so the transposition table
//! needs no graph-history care; numbers may be overestimated where the DAG
//! shares subtrees, which costs time, never correctness.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::board::{Cell, Color, zobrist_key};

use super::oracle::{ALL, Expansion, Oracle, Proof};
use super::tt::{self, Entry, INF, NO_MOVE, Table};

/// Search settings that do not change during one solve.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// The "epsilon" of the 1 + epsilon trick, in 1/1024ths.
    pub epsilon_1024: u64,
    /// Widening: the proof number is the minimum over only the first
    /// `1 + ceil(widening * unresolved)` children in order (0 = all).
    pub widening_1024: u64,
    /// Expand each new child once when its parent is expanded (decided
    /// children are settled at once; the others' disproof numbers start
    /// at their move counts).
    pub lookahead: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            epsilon_1024: 256,
            widening_1024: 0,
            lookahead: false,
        }
    }
}

/// One solve in progress.
pub struct Search<'a> {
    pub oracle: &'a mut dyn Oracle,
    pub tt: &'a mut Table,
    pub stop: &'a AtomicBool,
    pub deadline: Option<Instant>,
    /// Give up after this many nodes.
    pub max_nodes: Option<u64>,
    pub settings: Settings,
    pub nodes: u64,
    pub aborted: bool,
    /// Called every so many nodes with the search's node count; returns
    /// nothing, may look at the table.
    pub tick: &'a mut dyn FnMut(&Table, u64),
    pub tick_every: u64,
}

/// A child's numbers as the search keeps them locally.
#[derive(Clone, Copy)]
struct Child {
    cell: Cell,
    phi: u32,
    delta: u32,
    /// Known to lose through a sibling's proof set.
    pruned: bool,
}

/// A losing move's proof set `proof` shows that every other move outside
/// it loses as well: the opponent's win after the move survives any extra
/// stone of ours outside the set, and a position with fewer of our stones
/// is no better for us. Marks those moves lost.
fn prune(children: &mut [Child], proof: Proof) {
    if proof == ALL {
        return;
    }
    for c in children.iter_mut() {
        if c.phi != 0 && (c.cell.index() >= 128 || proof >> c.cell.index() & 1 == 0) {
            c.phi = 0;
            c.delta = INF;
            c.pruned = true;
        }
    }
}

#[inline]
fn add(a: u64, b: u32) -> u64 {
    if b == INF {
        INF as u64
    } else {
        (a + b as u64).min(INF as u64)
    }
}

impl Search<'_> {
    fn check_abort(&mut self) {
        // A node costs tens to hundreds of microseconds, so looking at the
        // clock every few nodes is free and keeps a stop prompt: genmove
        // wants its solver back for the next move.
        if self.nodes.is_multiple_of(4) {
            if self.stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
            if let Some(d) = self.deadline
                && Instant::now() >= d
            {
                self.aborted = true;
            }
        }
        if self.max_nodes.is_some_and(|m| self.nodes > m) {
            self.aborted = true;
        }
        if self.tick_every > 0 && self.nodes.is_multiple_of(self.tick_every) {
            (self.tick)(self.tt, self.nodes);
        }
    }

    /// The key of the position after `to_move` plays `cell`, given the key
    /// of the current position's stones `hash`.
    #[inline]
    fn child_key(hash: u64, to_move: Color, cell: Cell) -> u64 {
        tt::key(hash ^ zobrist_key(to_move, cell), to_move.opponent())
    }

    /// Searches the current position (side `to_move`, table key `key`) until
    /// its numbers reach a threshold. Returns its (phi, delta).
    pub fn mid(&mut self, key: u64, to_move: Color, th_phi: u32, th_delta: u32) -> (u32, u32) {
        self.nodes += 1;
        self.check_abort();
        let start_nodes = self.nodes;
        let (filled, fill_proof) = self.oracle.fill(to_move);
        let result = self.mid_filled(key, to_move, th_phi, th_delta, start_nodes, fill_proof);
        for _ in 0..filled {
            self.oracle.undo();
        }
        result
    }

    fn mid_filled(
        &mut self,
        key: u64,
        to_move: Color,
        th_phi: u32,
        th_delta: u32,
        start_nodes: u64,
        fill_proof: Proof,
    ) -> (u32, u32) {
        let (moves, must_proof) = match self.oracle.expand(to_move) {
            Expansion::Decided(w, proof) => {
                let (phi, delta) = if w == to_move { (0, INF) } else { (INF, 0) };
                self.store(key, phi, delta, NO_MOVE, 1, proof | fill_proof);
                return (phi, delta);
            }
            Expansion::Moves(m, proof) => (m, proof),
        };
        let hash = self.oracle.position().hash();
        let mut children: Vec<Child> = Vec::with_capacity(moves.len());
        for &cell in &moves {
            let ck = Self::child_key(hash, to_move, cell);
            let (phi, delta) = match self.tt.get(ck) {
                Some(e) => (e.phi, e.delta),
                None if self.settings.lookahead => self.look_at(ck, to_move, cell),
                None => (1, 1),
            };
            children.push(Child {
                cell,
                phi,
                delta,
                pruned: false,
            });
        }
        // Moves already known to lose prune the siblings outside their
        // proof sets.
        for i in 0..children.len() {
            if children[i].phi == 0 && !children[i].pruned {
                let proof = self.child_proof(hash, to_move, children[i].cell);
                prune(&mut children, proof);
            }
        }
        let prior_work = self.tt.get(key).map_or(0, |e| e.work as u64);
        loop {
            // phi = min delta over (a prefix of) the children, delta = sum phi.
            let mut best = 0;
            let mut phi = INF;
            let mut second = INF;
            let mut delta: u64 = 0;
            let limit = self.widened(&children);
            let mut open = 0;
            for (i, c) in children.iter().enumerate() {
                delta = add(delta, c.phi);
                if c.phi != 0 {
                    open += 1;
                    if open > limit && c.delta != 0 {
                        continue;
                    }
                }
                if c.delta < phi {
                    second = phi;
                    phi = c.delta;
                    best = i;
                } else if c.delta < second {
                    second = c.delta;
                }
            }
            let delta = delta as u32;
            if phi >= th_phi || delta >= th_delta || self.aborted {
                let work = prior_work + (self.nodes - start_nodes) + 1;
                let best_move = children[best].cell.index() as u16;
                let proof = if phi == 0 {
                    let c = children[best].cell;
                    // A proof set cannot name cells from 128 on: it is then
                    // all cells, so that nothing is pruned on its account.
                    match c.index() {
                        i if i < 128 => self.child_proof(hash, to_move, c) | 1u128 << i,
                        _ => ALL,
                    }
                } else if delta == 0 {
                    let mut p = must_proof;
                    for c in children.iter().filter(|c| !c.pruned) {
                        p |= self.child_proof(hash, to_move, c.cell);
                    }
                    p
                } else {
                    0
                };
                let proof = if phi == 0 || delta == 0 {
                    proof | fill_proof
                } else {
                    0
                };
                self.store(key, phi, delta, best_move, work, proof);
                return (phi, delta);
            }
            let c = children[best];
            // The child's phi may grow until the parent's delta reaches its
            // threshold; its delta until it is no longer clearly the best.
            let child_th_phi =
                (th_delta as u64 - delta as u64 + c.phi as u64).min(INF as u64) as u32;
            let by_eps = if second == INF {
                INF as u64
            } else {
                (second as u64 + 1).max(
                    second as u64 + (second as u64 * self.settings.epsilon_1024).div_ceil(1024),
                )
            };
            let child_th_delta = (th_phi as u64).min(by_eps).min(INF as u64) as u32;
            self.oracle.before_children();
            self.oracle.play(to_move, c.cell);
            let ck = tt::key(self.oracle.position().hash(), to_move.opponent());
            let (p, d) = self.mid(ck, to_move.opponent(), child_th_phi, child_th_delta);
            self.oracle.undo();
            children[best].phi = p;
            children[best].delta = d;
            if p == 0 {
                let proof = self.child_proof(hash, to_move, c.cell);
                prune(&mut children, proof);
            }
        }
    }

    /// A first look at a child not in the table: decided children are
    /// stored with their proofs; the others start with a disproof number
    /// equal to their number of moves (a forced reply is easier to refute).
    fn look_at(&mut self, ck: u64, to_move: Color, cell: Cell) -> (u32, u32) {
        self.oracle.play(to_move, cell);
        let e = self.oracle.peek(to_move.opponent());
        self.oracle.undo();
        match e {
            Expansion::Decided(w, proof) => {
                let (phi, delta) = if w == to_move { (INF, 0) } else { (0, INF) };
                self.store(ck, phi, delta, NO_MOVE, 1, proof);
                (phi, delta)
            }
            Expansion::Moves(m, _) => (1, m.len().max(1) as u32),
        }
    }

    /// The proof set stored for the child reached by `to_move` playing
    /// `cell` (every cell when it is not in the table).
    fn child_proof(&self, hash: u64, to_move: Color, cell: Cell) -> Proof {
        self.tt
            .get(Self::child_key(hash, to_move, cell))
            .filter(|e| e.proved().is_some())
            .map_or(ALL, |e| e.proof)
    }

    /// How many children (in order) the proof number looks at.
    fn widened(&self, children: &[Child]) -> usize {
        let w = self.settings.widening_1024;
        if w == 0 {
            return children.len();
        }
        let open = children.iter().filter(|c| c.phi != 0).count() as u64;
        (1 + (open * w).div_ceil(1024)) as usize
    }

    fn store(&mut self, key: u64, phi: u32, delta: u32, best: u16, work: u64, proof: Proof) {
        self.tt.store(Entry {
            key,
            phi,
            delta,
            work: work.min(u32::MAX as u64) as u32,
            best,
            proof,
        });
    }

    /// Proves or disproves the current position, within the limits.
    /// `Some(true)` when `to_move` wins.
    pub fn run(&mut self, to_move: Color) -> Option<bool> {
        let key = tt::key(self.oracle.position().hash(), to_move);
        let (phi, delta) = self.mid(key, to_move, INF, INF);
        if phi == 0 {
            Some(true)
        } else if delta == 0 {
            Some(false)
        } else {
            None
        }
    }
}
