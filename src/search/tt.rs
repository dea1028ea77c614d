//! A lock-free transposition table.
//!
//! Each entry is two atomic 64-bit words: `key ^ data` and `data`. A reader
//! accepts an entry only when the two XOR back to the key it looks for, so a
//! torn write from another thread reads as a miss rather than as a wrong
//! entry. The table is sized once from `tt_mb` and never grows.

use std::sync::atomic::{AtomicU64, Ordering};

use super::WIN;
use crate::board::{Cell, Color};

/// How a stored score bounds the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true value is at least the score (a beta cutoff).
    Lower,
    /// The true value is at most the score (no move raised alpha).
    Upper,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    pub mv: Option<Cell>,
    pub score: i32,
    pub depth: u32,
    pub bound: Bound,
    pub generation: u8,
}

/// The table key of a position's stones `hash` with `to_move` to play.
pub fn side_key(hash: u64, to_move: Color) -> u64 {
    match to_move {
        Color::Black => hash,
        Color::White => hash ^ 0x5bd1_e995_7f4a_7c15,
    }
}

/// Scores this close to [`WIN`] are wins or losses: they are stored
/// relative to the node, not the root.
const MATE_BOUND: i32 = WIN - 10_000;

/// A score at `ply` as the table stores it.
pub fn to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score as a score at `ply`.
pub fn from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl TtEntry {
    /// The entry for a node at `ply` searched to `depth` with the window
    /// (`alpha`, `beta`) that scored `best` with `mv`.
    pub fn searched(
        mv: Option<Cell>,
        best: i32,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> TtEntry {
        let bound = if best <= alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        TtEntry {
            mv,
            score: to_tt(best, ply),
            depth,
            bound,
            generation: 0,
        }
    }

    /// The score a node at `ply` searched to `depth` with the window
    /// (`alpha`, `beta`) can return at once, when this entry settles it.
    pub fn cutoff(&self, depth: u32, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
        if self.depth < depth {
            return None;
        }
        let s = from_tt(self.score, ply);
        let cut = match self.bound {
            Bound::Exact => true,
            Bound::Lower => s >= beta,
            Bound::Upper => s <= alpha,
        };
        cut.then_some(s)
    }

    fn pack(&self) -> u64 {
        let mv = self.mv.map_or(0, |c| c.index() as u64 + 1);
        let bound = match self.bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        mv | ((self.score as u32 as u64) << 16)
            | ((self.depth.min(255) as u64) << 48)
            | (bound << 56)
            | (((self.generation & 63) as u64) << 58)
    }

    fn unpack(data: u64) -> Option<TtEntry> {
        let bound = match (data >> 56) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        let mv = (data & 0xffff) as usize;
        Some(TtEntry {
            mv: (mv != 0).then(|| Cell::from_index(mv - 1)),
            score: (data >> 16) as u32 as i32,
            depth: ((data >> 48) & 0xff) as u32,
            bound,
            generation: ((data >> 58) & 63) as u8,
        })
    }
}

/// Bytes per entry.
const ENTRY_BYTES: usize = 16;
/// The table never has fewer entries than this.
const MIN_ENTRIES: usize = 1 << 10;

pub struct Tt {
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
    generation: u8,
}

impl Tt {
    /// A table of at most `mb` MiB (a power-of-two number of entries; at
    /// least 1024 entries even when `mb` is 0).
    pub fn new(mb: usize) -> Tt {
        match Tt::try_new(mb) {
            Ok(t) => t,
            // The built-in sizes are small; a user's size goes through
            // `try_new` first.
            Err(e) => panic!("{e}"),
        }
    }

    /// [`Tt::new`], or a message when the memory cannot be had.
    pub fn try_new(mb: usize) -> Result<Tt, String> {
        let want = (mb.saturating_mul(1 << 20) / ENTRY_BYTES).max(MIN_ENTRIES);
        let entries = if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() / 2
        };
        let slots = crate::memory::try_zeroed_vec(entries, "transposition table")?;
        Ok(Tt {
            slots,
            mask: entries - 1,
            generation: 0,
        })
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Memory held by the entries, in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * ENTRY_BYTES
    }

    pub fn clear(&mut self) {
        crate::memory::clear_zeroed(&mut self.slots);
        self.generation = 0;
    }

    /// Marks a new search, so entries of older searches are replaced first.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let s = &self.slots[key as usize & self.mask];
        let w0 = s[0].load(Ordering::Relaxed);
        let w1 = s[1].load(Ordering::Relaxed);
        if w0 ^ w1 != key {
            return None;
        }
        TtEntry::unpack(w1)
    }

    /// Stores an entry, keeping a deeper one of the current search unless
    /// it is for another position of an older search.
    pub fn store(&self, key: u64, mut entry: TtEntry) {
        entry.generation = self.generation;
        let s = &self.slots[key as usize & self.mask];
        let w0 = s[0].load(Ordering::Relaxed);
        let w1 = s[1].load(Ordering::Relaxed);
        if let Some(old) = TtEntry::unpack(w1) {
            let same = w0 ^ w1 == key;
            if same {
                if entry.mv.is_none() {
                    entry.mv = old.mv;
                }
                if old.depth > entry.depth + 1 && entry.bound != Bound::Exact {
                    return;
                }
            } else if old.generation == self.generation && old.depth > entry.depth + 2 {
                return;
            }
        }
        let data = entry.pack();
        s[0].store(key ^ data, Ordering::Relaxed);
        s[1].store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_is_bounded_by_megabytes() {
        for mb in [0, 1, 3, 64] {
            let t = Tt::new(mb);
            assert!(t.len().is_power_of_two());
            assert!(t.bytes() <= (mb << 20).max(MIN_ENTRIES * ENTRY_BYTES));
            assert!(mb == 0 || t.bytes() * 2 > mb << 20);
        }
    }

    #[test]
    fn store_probe_round_trip_and_key_check() {
        let t = Tt::new(1);
        let e = TtEntry {
            mv: Some(Cell::from_index(120)),
            score: -999_990,
            depth: 7,
            bound: Bound::Lower,
            generation: 0,
        };
        let key = 0xdead_beef_1234_5678;
        t.store(key, e);
        assert_eq!(t.probe(key), Some(e));
        // Same slot, other key: a miss.
        assert_eq!(t.probe(key ^ (1 << 40)), None);
        // A shallower entry for the same key keeps the old move.
        let e2 = TtEntry {
            mv: None,
            score: 5,
            depth: 7,
            bound: Bound::Exact,
            generation: 0,
        };
        t.store(key, e2);
        assert_eq!(t.probe(key).unwrap().mv, e.mv);
        assert_eq!(t.probe(key).unwrap().score, 5);
    }
}
