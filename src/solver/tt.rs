//! The solver's transposition table: a fixed-size array of buckets, each
//! entry holding one position's proof and disproof numbers (from the side
//! to move's view), the move the search last preferred there and how much
//! work the position has cost. Replacement keeps the most expensive
//! entries, so proofs of big subtrees survive a full table.

use crate::board::{Cell, Color};

/// Proof or disproof number standing for "infinite" (proved the other way).
pub const INF: u32 = u32::MAX;

/// Mixed into the key when White is to move, so one stone configuration
/// with either player to move is two entries.
const WHITE_TO_MOVE: u64 = 0x5bd1_e995_7f4a_7c15;

/// The table key of a position hash with `to_move` to play.
#[inline]
pub fn key(hash: u64, to_move: Color) -> u64 {
    let k = match to_move {
        Color::Black => hash,
        Color::White => hash ^ WHITE_TO_MOVE,
    };
    // 0 marks an empty slot; moving the one real 0 key out of the way costs
    // nothing.
    if k == 0 { 1 } else { k }
}

/// No move recorded.
pub const NO_MOVE: u16 = u16::MAX;

/// One stored position; all zeros is the empty slot (`Entry::default()`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    pub key: u64,
    /// Proof number: how hard it looks to prove a win for the side to move.
    pub phi: u32,
    /// Disproof number: how hard to prove that the side to move loses.
    pub delta: u32,
    /// Search effort below this position (nodes), saturating.
    pub work: u32,
    /// The preferred move (cell index) or `NO_MOVE`.
    pub best: u16,
    /// For a proved entry, its proof set (see `oracle::Expansion`).
    pub proof: u128,
}

impl Entry {
    pub fn best_move(&self) -> Option<Cell> {
        (self.best != NO_MOVE).then(|| Cell::from_index(self.best as usize))
    }

    /// Proved: the side to move wins (`Some(true)`) or loses.
    pub fn proved(&self) -> Option<bool> {
        if self.phi == 0 {
            Some(true)
        } else if self.delta == 0 {
            Some(false)
        } else {
            None
        }
    }
}

// SAFETY: integers only (key, numbers, move, proof set); zero is the
// empty entry `Entry::default()`.
unsafe impl crate::memory::Zeroed for Entry {}

const BUCKET: usize = 4;

pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
    used: usize,
}

impl Table {
    /// A table of about `mb` mebibytes (at least one bucket).
    pub fn new(mb: usize) -> Table {
        match Table::try_new(mb) {
            Ok(t) => t,
            // The built-in sizes are small; a user's size goes through
            // `try_new` first.
            Err(e) => panic!("{e}"),
        }
    }

    /// [`Table::new`], or a message when the memory cannot be had.
    pub fn try_new(mb: usize) -> Result<Table, String> {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let want = (bytes / std::mem::size_of::<Entry>()).max(BUCKET);
        // A power of two number of buckets.
        let buckets = (want / BUCKET).next_power_of_two();
        let buckets = if buckets * BUCKET > want && buckets > 1 {
            buckets / 2
        } else {
            buckets
        };
        Ok(Table {
            entries: crate::memory::try_zeroed_vec(buckets * BUCKET, "solver's table")?,
            mask: buckets - 1,
            used: 0,
        })
    }

    pub fn capacity(&self) -> usize {
        self.entries.len()
    }

    /// Entries in use.
    pub fn len(&self) -> usize {
        self.used
    }

    pub fn is_empty(&self) -> bool {
        self.used == 0
    }

    pub fn clear(&mut self) {
        crate::memory::clear_zeroed(&mut self.entries);
        self.used = 0;
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // The low bits index Zobrist-mixed hashes well; fold the high half
        // in for keys that differ only there.
        (((key ^ (key >> 32)) as usize) & self.mask) * BUCKET
    }

    #[inline]
    pub fn get(&self, key: u64) -> Option<&Entry> {
        let b = self.bucket(key);
        self.entries[b..b + BUCKET].iter().find(|e| e.key == key)
    }

    /// Stores `e` (its key included), replacing the same key, an empty slot
    /// or the entry with the least work. A proved entry is not replaced by
    /// an unproved one of the same key.
    pub fn store(&mut self, e: Entry) {
        let b = self.bucket(e.key);
        let slots = &mut self.entries[b..b + BUCKET];
        if let Some(s) = slots.iter_mut().find(|s| s.key == e.key) {
            if s.proved().is_none() || e.proved().is_some() {
                *s = e;
            }
            return;
        }
        if let Some(s) = slots.iter_mut().find(|s| s.key == 0) {
            *s = e;
            self.used += 1;
            return;
        }
        // Unproved entries go first, then the cheapest.
        let victim = slots
            .iter_mut()
            .min_by_key(|s| (s.proved().is_some(), s.work))
            .expect("bucket is not empty");
        *victim = e;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_replace() {
        let mut t = Table::new(1);
        assert!(t.capacity() >= BUCKET);
        assert!(t.capacity() * std::mem::size_of::<Entry>() <= 1 << 20);
        let e = Entry {
            key: 42,
            phi: 3,
            delta: 4,
            work: 10,
            best: 7,
            proof: 0,
        };
        t.store(e);
        assert_eq!(t.get(42).unwrap().phi, 3);
        assert_eq!(t.len(), 1);
        t.store(Entry { phi: 0, ..e });
        assert_eq!(t.get(42).unwrap().proved(), Some(true));
        // Unproved data does not overwrite a proof.
        t.store(Entry { phi: 9, ..e });
        assert_eq!(t.get(42).unwrap().proved(), Some(true));
        // A full bucket drops its cheapest unproved entry.
        let mask = t.mask as u64;
        let same = |i: u64| 42 + (i * (mask + 1));
        for i in 1..=BUCKET as u64 {
            t.store(Entry {
                key: same(i),
                work: 100 + i as u32,
                ..e
            });
        }
        assert!(t.get(42).is_some(), "the proved entry stays");
        assert!(t.get(same(1)).is_none(), "the cheapest goes");
        t.clear();
        assert!(t.get(42).is_none());
        assert!(t.is_empty());
        assert_ne!(key(0, Color::Black), 0);
        assert_ne!(key(7, Color::Black), key(7, Color::White));
    }
}
