//! The pair lists' changes, each logged so that [`VcGraph::undo`] puts
//! the graph back exactly.

use super::*;

impl VcGraph {
    pub(super) fn list(&mut self, key: u32) -> &mut PairList {
        self.pairs.entry(key).or_default()
    }

    pub(super) fn push_full(&mut self, key: u32, c: CellSet) {
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

    pub(super) fn remove_full(&mut self, key: u32, i: usize) {
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

    pub(super) fn push_semi(&mut self, key: u32, s: Semi) {
        self.list(key).semis.push(s);
        if self.logging {
            self.log.push(Op::PushSemi(key));
        }
    }

    pub(super) fn remove_semi(&mut self, key: u32, i: usize) {
        let s = self.list(key).semis.swap_remove(i);
        if self.logging {
            self.log.push(Op::RemoveSemi(key, i as u32, s));
        }
    }

    pub(super) fn set_full(&mut self, key: u32, i: usize, c: CellSet) {
        let old = std::mem::replace(&mut self.list(key).fulls[i], c);
        if self.logging {
            self.log.push(Op::SetFull(key, i as u32, old));
        }
    }

    pub(super) fn set_semi(&mut self, key: u32, i: usize, s: Semi) {
        let old = std::mem::replace(&mut self.list(key).semis[i], s);
        if self.logging {
            self.log.push(Op::SetSemi(key, i as u32, old));
        }
    }

    pub(super) fn undo_op(&mut self, op: Op) {
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
}
