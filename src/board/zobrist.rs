//! Zobrist keys: one fixed random 64-bit word per (colour, cell), generated
//! at compile time so hashes are identical across runs and machines.

use super::Color;
use super::geometry::{Cell, MAX_CELLS};

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const KEYS: [[u64; MAX_CELLS]; 2] = {
    let mut keys = [[0u64; MAX_CELLS]; 2];
    let mut state = 0x6665_7272_6f68_6578; // "ferrohex"
    let mut color = 0;
    while color < 2 {
        let mut i = 0;
        while i < MAX_CELLS {
            let (s, k) = splitmix64(state);
            state = s;
            keys[color][i] = k;
            i += 1;
        }
        color += 1;
    }
    keys
};

/// The key XORed into a position's hash when `color` has a stone on `cell`.
#[inline]
pub fn zobrist_key(color: Color, cell: Cell) -> u64 {
    KEYS[color.index()][cell.index()]
}
