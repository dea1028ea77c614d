//! The solver's own virtual connections: H-search (Anshelevich) on
//! 128-bit bitboards, for boards of at most 121 cells (11x11), with small
//! fixed-size lists and early exits. A run can start from the connections
//! an earlier position of the same line found (a [`Closure`]) and combine
//! only what the new stones changed ([`Hsearch::run_seeded`]).
//!
//! Nodes of one colour's graph are its two edges (a group touching an edge
//! belongs to it), its other groups and every empty cell. Base full
//! connections join adjacent nodes with an empty carrier. AND: full(a, b)
//! and full(b, z) with disjoint carriers (neither containing the other
//! end) give a full when `b` is a group, a semi keyed at `b` when it is an
//! empty cell. OR: semis between one pair whose carriers have no common
//! cell give a full over their union. Connections that are supersets of
//! kept ones are dropped; per-pair lists are capped, which loses only
//! completeness, never soundness.

mod bits;
mod combine;
mod graph;
#[cfg(test)]
mod regression;
#[cfg(test)]
mod tests;

pub use bits::{Bits, MAX_BITS, bit, cells, stones};

use crate::board::Color;

const FMAX: usize = 4;
const SMAX: usize = 8;
const ORMAX: usize = 4;

/// What H-search found for one colour that the solver uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EdgeInfo {
    /// An edge-to-edge full connection exists (with its carrier).
    pub full: Option<u128>,
    /// An edge-to-edge semi: (key cell index, carrier).
    pub semi: Option<(usize, u128)>,
    /// The intersection of the carriers of all edge-to-edge semis found
    /// (`all` when there are none).
    pub semi_cap: u128,
    /// The union of the carriers of the edge-to-edge semis found.
    pub semi_union: u128,
    /// How many edge-to-edge semis were found.
    pub semis: usize,
}

/// Reusable H-search buffers.
///
/// Pair lists live in fixed `W * W` tables indexed by [`ix`] (masked
/// indices need no bounds checks). Full lists are stored twice, at
/// `ix(a, b)` and `ix(b, a)`, so that the AND step walks one row for its
/// middle node; semi lists (only ever looked up by pair) are stored once,
/// at `ix(min, max)`. Only the counts are cleared between runs.
pub struct Hsearch {
    /// Per ordered pair: how many fulls (mirrored).
    nf: Box<[u8; W * W]>,
    /// Per ordered pair: the fulls (mirrored).
    fulls: Box<[[u128; FMAX]; W * W]>,
    /// Per unordered pair: how many semis.
    ns: Box<[u8; W * W]>,
    semis: Box<[[u128; SMAX]; W * W]>,
    keys: Box<[[u8; SMAX]; W * W]>,
    /// Per node: the nodes it has a full connection with.
    adj: [u128; W],
    /// Per node: the later nodes it has a semi with.
    sadj: [u128; W],
    /// Per node: its cell's bit when it is an empty cell, else 0.
    cell_bit: [u128; W],
    /// Per node: the cell index (empty cells only).
    cell_of: [u8; W],
    /// Per ordered pair (mirrored): bit k set when full k was seeded
    /// unchanged from the parent run.
    oldm: Box<[u8; W * W]>,
    /// Fulls still to combine by AND: ends, carrier, and whether it is a
    /// seed that only lost carrier cells to new own stones.
    queue: Vec<(u8, u8, bool, u128)>,
    /// What the fulls being added are (see [`Origin`]).
    origin: Origin,
    /// When the run may stop early.
    goal: Goal,
    stopped: bool,
    /// Edge semis: running intersection and count (for mustplay).
    edge_cap: u128,
    edge_union: u128,
    edge_semis: usize,
    edge_semi: Option<(usize, u128)>,
    edge_full: Option<u128>,
    /// Per node: its endpoint code in a [`Closure`] (see [`END_E1`]).
    rep: [u8; W],
    /// Nodes in the last run.
    m: usize,
    /// Seeds the new stones changed, inserted after the unchanged ones.
    changed: Vec<(Conn, Origin)>,
    /// Node pairs whose capped lists lost a seed to new opponent stones.
    damaged: Vec<(u8, u8)>,
    /// Per node: the nodes it is in `damaged` with (as the pair's first).
    damaged_with: Box<[u128; W]>,
    /// The edge-to-edge semis found in this run, kept or not (at most
    /// [`EDGE_LIST_MAX`]), for [`Hsearch::export`].
    edge_list: Vec<(u128, u8)>,
    /// The last run's own groups: the stones of node `k < groups` (the
    /// two edges' nodes hold the stones touching them).
    group_cells: [u128; W],
    groups: usize,
}

const EDGE_LIST_MAX: usize = 256;

/// When a run may stop early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// For the player to move: at the first edge-to-edge semi or full.
    Mover,
    /// For the other player: at an edge-to-edge full, or when the edge
    /// semis' common cells run out (the mover has lost).
    Opponent,
    /// Only at an edge-to-edge full: the whole closure, to seed later runs.
    Closure,
}

/// Where a full connection being added comes from: it decides what the
/// AND rule still has to combine it with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    /// A seed the new stones left as it was: every combination of it with
    /// another such seed is in the seed already. Not queued.
    Old,
    /// A seed that only lost carrier cells to new own stones: combined
    /// with an `Old` full it gives the seeded combination minus those
    /// cells, which is seeded (shrunk) itself; so it is combined only with
    /// fulls that are not `Old`.
    Shrunk,
    /// Derived in this run, or a seed whose end grew or whose key became
    /// an own stone: combined with everything.
    New,
}

/// Endpoint codes of the two edges in a [`Closure`] (cells are below 128).
const END_E1: u8 = 254;
const END_E2: u8 = 255;
/// The key of a full connection in a [`Conn`].
const NO_KEY: u8 = 255;

/// One connection of a finished run, its ends named by cells (a group by
/// its lowest cell) or edge codes, so that it survives renumbering.
///
/// The carrier is kept as two words: a `u128` field would align the
/// struct to 16 bytes and pad it to 32; this way it takes 24, which the
/// seeding, a walk over every connection of a closure, reads faster.
#[derive(Clone, Copy, Debug)]
struct Conn {
    cells: [u64; 2],
    a: u8,
    b: u8,
    /// The key cell of a semi; [`NO_KEY`] for a full.
    key: u8,
}

impl Conn {
    fn new(carrier: u128, a: u8, b: u8, key: u8) -> Conn {
        Conn {
            cells: [carrier as u64, (carrier >> 64) as u64],
            a,
            b,
            key,
        }
    }

    #[inline]
    fn carrier(&self) -> u128 {
        self.cells[0] as u128 | (self.cells[1] as u128) << 64
    }
}

/// The connections a finished run found for one colour on a position.
///
/// They stay valid on every later position of the same line (a superset of
/// its stones) whose opponent stones miss their carriers and ends: own
/// stones only help a connection, and opponent stones outside its carrier
/// cannot touch it. [`Hsearch::run_seeded`] starts from them and combines
/// only what the new stones changed, which is what makes a child's
/// H-search cheap next to its parent's (Benzene's incremental build does
/// the same on its own connection sets).
#[derive(Clone, Debug, Default)]
pub struct Closure {
    /// The stones (Black, White) of the position it was built on.
    pub stones: [u128; 2],
    /// The Zobrist hash of those stones.
    pub hash: u64,
    /// The colour whose connections these are; `None` while empty.
    pub color: Option<Color>,
    conns: Vec<Conn>,
    /// The indices in `conns` of those from capped lists (lists that were
    /// full: connections may have been left out of them).
    capped: Vec<u32>,
}

impl Closure {
    fn push(&mut self, conn: Conn, capped: bool) {
        if capped {
            self.capped.push(self.conns.len() as u32);
        }
        self.conns.push(conn);
    }

    /// Whether it can seed a run for `color` on `stones`.
    pub fn seeds(&self, stones: [u128; 2], color: Color) -> bool {
        self.color == Some(color)
            && self.stones[0] & !stones[0] == 0
            && self.stones[1] & !stones[1] == 0
    }
}

impl Default for Hsearch {
    fn default() -> Self {
        Hsearch::new()
    }
}

const E1: usize = 0;
const E2: usize = 1;

/// Nodes per table row: the most nodes a run handles.
const W: usize = 128;

/// The table index of the ordered node pair (a, b).
#[inline(always)]
fn ix(a: usize, b: usize) -> usize {
    (a * W + b) & (W * W - 1)
}

/// A zeroed boxed table (allocated zeroed, not built on the stack).
fn table<T: Clone + Default, const N: usize>() -> Box<[T; N]> {
    match vec![T::default(); N].into_boxed_slice().try_into() {
        Ok(t) => t,
        Err(_) => unreachable!(),
    }
}

impl Hsearch {
    pub fn new() -> Hsearch {
        Hsearch {
            nf: table(),
            fulls: table(),
            ns: table(),
            semis: table(),
            keys: table(),
            adj: [0; W],
            sadj: [0; W],
            cell_bit: [0; W],
            cell_of: [0; W],
            oldm: table(),
            queue: Vec::new(),
            origin: Origin::New,
            goal: Goal::Closure,
            stopped: false,
            edge_cap: 0,
            edge_union: 0,
            edge_semis: 0,
            edge_semi: None,
            edge_full: None,
            rep: [0; W],
            m: 0,
            changed: Vec::new(),
            damaged: Vec::new(),
            damaged_with: Box::new([0; W]),
            edge_list: Vec::new(),
            group_cells: [0; W],
            groups: 0,
        }
    }

    /// H-search for `color` on `stones` (Black, White). With `for_mover`
    /// the search stops at the first edge-to-edge semi or full (the mover
    /// wins); otherwise it collects the edge semis' common cells, stopping
    /// at an edge full or when that intersection becomes empty.
    pub fn run(
        &mut self,
        bits: &Bits,
        stones: [u128; 2],
        color: Color,
        for_mover: bool,
    ) -> EdgeInfo {
        let goal = if for_mover {
            Goal::Mover
        } else {
            Goal::Opponent
        };
        self.run_seeded(bits, stones, color, goal, None)
    }

    /// [`Hsearch::run`], starting from the connections of `seed` (a
    /// finished run for `color` on an earlier position of this line: see
    /// [`Closure::seeds`]). What the seed already combined is not combined
    /// again; only seeds the new stones changed (a carrier that lost a cell
    /// to an own stone, an end in a group that grew, a semi whose key is
    /// now an own stone) and the new base connections go through AND and
    /// OR. The result can differ from a fresh run's only where the capped
    /// lists kept different connections.
    pub fn run_seeded(
        &mut self,
        bits: &Bits,
        stones: [u128; 2],
        color: Color,
        goal: Goal,
        seed: Option<&Closure>,
    ) -> EdgeInfo {
        self.m = 0;
        let own = stones[color.index()];
        let (e1, e2) = color.edges();
        // Cells on no possible chain of this colour (not reachable from
        // both its edges through empty cells and own stones) can be
        // treated as opponent stones: no connection of ours needs them.
        let live = bits.live(stones, color);
        let opp = bits.all & !live;
        let own = own & live;
        let empty = bits.all & !own & !opp;
        // Number the nodes: edges, groups, empty cells.
        let mut node_of = [u8::MAX; MAX_BITS];
        let mut node_cells = [0u128; MAX_BITS + 2];
        let edge1 = bits.flood(bits.edge(e1) & own, own);
        let edge2 = bits.flood(bits.edge(e2) & own, own);
        let info_won = edge1 & edge2 != 0;
        if info_won {
            return EdgeInfo {
                full: Some(0),
                semi: None,
                semi_cap: 0,
                semi_union: 0,
                semis: 0,
            };
        }
        node_cells[0] = edge1;
        node_cells[1] = edge2;
        let mut m = 2;
        let mut rest = own & !edge1 & !edge2;
        while rest != 0 {
            let g = bits.flood(rest & rest.wrapping_neg(), own);
            rest &= !g;
            node_cells[m] = g;
            m += 1;
        }
        let groups = m;
        self.group_cells[..groups].copy_from_slice(&node_cells[..groups]);
        self.groups = groups;
        if groups + empty.count_ones() as usize > 128 {
            return EdgeInfo {
                semi_cap: bits.all,
                ..EdgeInfo::default()
            };
        }
        self.rep[0] = END_E1;
        self.rep[1] = END_E2;
        for (k, &cells) in node_cells[..groups].iter().enumerate() {
            if k >= 2 {
                self.rep[k] = cells.trailing_zeros() as u8;
            }
            let mut c = cells;
            while c != 0 {
                let i = c.trailing_zeros() as usize;
                c &= c - 1;
                node_of[i] = k as u8;
            }
        }
        self.cell_bit[..groups].fill(0);
        self.cell_of[..groups].fill(0);
        let mut e = empty;
        while e != 0 {
            let i = e.trailing_zeros() as usize;
            e &= e - 1;
            node_of[i] = m as u8;
            node_cells[m] = bit(i);
            self.cell_bit[m] = bit(i);
            self.cell_of[m] = i as u8;
            self.rep[m] = i as u8;
            m += 1;
        }
        self.m = m;
        for a in 0..m {
            self.nf[a * W..a * W + m].fill(0);
            self.oldm[a * W..a * W + m].fill(0);
            self.ns[a * W..a * W + m].fill(0);
        }
        self.adj[..m].fill(0);
        self.sadj[..m].fill(0);
        self.queue.clear();
        self.edge_list.clear();
        self.origin = Origin::New;
        self.goal = goal;
        self.stopped = false;
        self.edge_cap = empty;
        self.edge_union = 0;
        self.edge_semis = 0;
        self.edge_semi = None;
        self.edge_full = None;
        if let Some(seed) = seed.filter(|s| s.seeds(stones, color)) {
            // Groups holding stones the seed's position did not have.
            let fresh = own & !seed.stones[color.index()];
            let mut grown = 0u128;
            for (k, &cells) in node_cells[..groups].iter().enumerate() {
                if cells & fresh != 0 {
                    grown |= bit(k);
                }
            }
            self.seed(seed, &node_of, own, opp, grown);
            if self.stopped {
                self.m = 0;
                return self.info();
            }
        }
        // Base: adjacent nodes. Edge nodes are adjacent to the empty cells
        // along their edge too.
        let edge_touch = [bits.edge(e1), bits.edge(e2)];
        for a in 0..m {
            let mut near = bits.spread(node_cells[a]);
            if a < 2 {
                near |= edge_touch[a];
            }
            near &= empty | own;
            while near != 0 {
                let i = near.trailing_zeros() as usize;
                near &= near - 1;
                let b = node_of[i] as usize;
                if b > a && b != usize::from(u8::MAX) {
                    self.add_full(a, b, 0);
                }
            }
        }
        // Edge templates whose carrier the opponent has not entered.
        for &(anchor, e, carrier) in &bits.templates {
            let end = if e == e1 {
                E1
            } else if e == e2 {
                E2
            } else {
                continue;
            };
            if (bit(anchor as usize) | carrier) & opp != 0 {
                continue;
            }
            let a = node_of[anchor as usize & (MAX_BITS - 1)] as usize;
            if a == usize::from(u8::MAX) || a == end {
                continue;
            }
            self.add_full(a, end, carrier & !own);
            if self.stopped {
                break;
            }
        }
        // Two edges touching one empty cell directly (a 1-row board) are
        // found by AND through that cell.
        let mut qi = 0;
        while qi < self.queue.len() && !self.stopped {
            let (x, y, shrunk, c) = self.queue[qi];
            qi += 1;
            let (x, y) = (x as usize, y as usize);
            self.and_from(x, y, c, shrunk);
            if self.stopped {
                break;
            }
            self.and_from(y, x, c, shrunk);
        }
        if self.stopped {
            self.m = 0;
        }
        self.info()
    }

    fn info(&self) -> EdgeInfo {
        EdgeInfo {
            full: self.edge_full,
            semi: self.edge_semi,
            semi_cap: self.edge_cap,
            semi_union: self.edge_union,
            semis: self.edge_semis,
        }
    }

    /// Whether the last run went to the end (it did not stop early or give
    /// up), so that [`Hsearch::export`] can save its connections.
    pub fn finished(&self) -> bool {
        self.m != 0
    }
}
