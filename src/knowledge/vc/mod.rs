//! The bitboard virtual connections: H-search (Anshelevich) on the
//! board's [`Bitboard`] type (every board size: see [`Width`]), with
//! small fixed-size lists and early exits. A run can
//! start from the connections an earlier position of the same line found
//! (a [`Closure`]) and combine only what the new stones changed
//! ([`Hsearch::run_seeded`]).
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

pub use bits::{Bits, Width, bit, cells, fits, stones};

use std::time::Instant;

use crate::board::{Bitboard, Color};

const ORMAX: usize = 4;

/// A node or cell code in the H-search's lists: a cell index, a node
/// index, or one of the codes at the top of its range ([`END_E1`],
/// [`END_E2`], [`NO_KEY`], [`NO_NODE`]).
type Id = u16;

/// How many connections H-search keeps per node pair: more find more
/// (each list's combinations), fewer are faster. A full list may hold
/// at most [`Caps::MAX_FULLS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    pub fulls: usize,
    pub semis: usize,
}

impl Caps {
    /// The solver's: 4 fulls and 8 semis a pair.
    pub const SOLVER: Caps = Caps { fulls: 4, semis: 8 };
    /// The most fulls a list may keep (their seeded flags are a byte).
    pub const MAX_FULLS: usize = 8;
    /// The most semis a list may keep.
    pub const MAX_SEMIS: usize = 64;

    /// `fulls` and `semis` brought into 1..=MAX_FULLS and 1..=MAX_SEMIS.
    pub fn new(fulls: usize, semis: usize) -> Caps {
        Caps {
            fulls: fulls.clamp(1, Caps::MAX_FULLS),
            semis: semis.clamp(1, Caps::MAX_SEMIS),
        }
    }
}

/// What H-search found for one colour that the solver uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdgeInfo<B: Bitboard> {
    /// An edge-to-edge full connection exists (with its carrier).
    pub full: Option<B>,
    /// An edge-to-edge semi: (key cell index, carrier).
    pub semi: Option<(usize, B)>,
    /// The intersection of the carriers of all edge-to-edge semis found
    /// (`all` when there are none).
    pub semi_cap: B,
    /// The union of the carriers of the edge-to-edge semis found.
    pub semi_union: B,
    /// How many edge-to-edge semis were found.
    pub semis: usize,
}

/// Reusable H-search buffers.
///
/// Pair lists are found by [`ix`] in `W * W` tables (`W` =
/// [`Bitboard::NODES`]). Full lists are stored twice, at `ix(a, b)` and
/// `ix(b, a)`, so that the AND step walks one row for its middle node;
/// semi lists (only ever looked up by pair) are stored once, at
/// `ix(min, max)`. Up to [`DENSE_NODES`] nodes every pair has its room in
/// the lists at `ix` times the cap; above, a pair is given room when its
/// list gets its first connection (`fslot`, `sslot`), as a table for every
/// pair of 26x26's nodes would take gigabytes. Only the counts are
/// cleared between runs.
pub struct Hsearch<B: Bitboard> {
    /// Per ordered pair: how many fulls (mirrored).
    nf: Box<[u8; MAXP]>,
    /// The list lengths.
    caps: Caps,
    /// Per ordered pair: the fulls (mirrored), `caps.fulls` a pair.
    fulls: Vec<B>,
    /// Sparse lists only: per ordered pair, its room in `fulls` (in lists
    /// of `caps.fulls`), valid while its count is not 0.
    fslot: Box<[u32]>,
    /// Per unordered pair: how many semis.
    ns: Box<[u8; MAXP]>,
    /// Per unordered pair: the semis and their keys, `caps.semis` a pair.
    semis: Vec<B>,
    keys: Vec<Id>,
    /// Sparse lists only: per unordered pair, its room in `semis` and
    /// `keys`, valid while its count is not 0.
    sslot: Box<[u32]>,
    /// Per node: the nodes it has a full connection with.
    adj: Box<[B; MAXN]>,
    /// Per node: the later nodes it has a semi with.
    sadj: Box<[B; MAXN]>,
    /// Per node: the nodes a full with an empty carrier joins it to (they
    /// touch): pairs to which no new connection can be added.
    touching: Box<[B; MAXN]>,
    /// Per node: its cell's bit when it is an empty cell, else empty.
    cell_bit: Box<[B; MAXN]>,
    /// Per node: the cell index (empty cells only).
    cell_of: Box<[Id; MAXN]>,
    /// Per ordered pair (mirrored): bit k set when full k was seeded
    /// unchanged from the parent run.
    oldm: Box<[u8; MAXP]>,
    /// Per cell: its node in the current run ([`NO_NODE`]: none).
    node_of: Box<[Id]>,
    /// Per node: its cells in the current run.
    node_cells: Box<[B]>,
    /// Fulls still to combine by AND: ends, flags ([`SHRUNK`],
    /// [`NOT_THROUGH_X`], [`NOT_THROUGH_Y`]), carrier.
    queue: Vec<(Id, Id, u8, B)>,
    /// The nodes whose groups grew in this run (see [`Origin::Grown`]).
    grown: B,
    /// What the fulls being added are (see [`Origin`]).
    origin: Origin,
    /// When the run may stop early.
    goal: Goal,
    stopped: bool,
    /// Edge semis: running intersection and count (for mustplay).
    edge_cap: B,
    edge_union: B,
    edge_semis: usize,
    edge_semi: Option<(usize, B)>,
    edge_full: Option<B>,
    /// Per node: its endpoint code in a [`Closure`] (see [`END_E1`]).
    rep: Box<[Id; MAXN]>,
    /// Nodes in the last run.
    m: usize,
    /// Seeds the new stones changed, inserted after the unchanged ones.
    changed: Vec<(Conn<B>, Origin)>,
    /// Node pairs whose capped lists lost a seed to new opponent stones.
    damaged: Vec<(Id, Id)>,
    /// Per node: the nodes it is in `damaged` with (as the pair's first).
    damaged_with: Box<[B; MAXN]>,
    /// The edge-to-edge semis found in this run, kept or not (at most
    /// [`EDGE_LIST_MAX`]), for [`Hsearch::export`].
    edge_list: Vec<(B, Id)>,
    /// The last run's own groups: the stones of node `k < groups` (the
    /// two edges' nodes hold the stones touching them).
    group_cells: Box<[B; MAXN]>,
    groups: usize,
    /// When runs give up (see [`Hsearch::set_deadline`]).
    deadline: Option<Instant>,
}

const EDGE_LIST_MAX: usize = 256;

/// A run with a deadline looks at the clock once every this many fulls
/// it combines.
const DEADLINE_EVERY: usize = 64;

/// The cells of a run's colour: its live stones, the cells it cannot
/// use (opponent stones and dead cells), the rest.
#[derive(Clone, Copy)]
struct Cells<B> {
    own: B,
    opp: B,
    empty: B,
}

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
    /// Never: every connection, an edge-to-edge full included, for
    /// showing them ([`Hsearch::between`]).
    Whole,
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
    /// A seed the new stones left as it was but for an end, a group
    /// that grew (new own stones joined it to other nodes). Its
    /// combinations through its other end are seeded already, under the
    /// grown end's old name; new are only those through the grown end,
    /// with connections that reached another part of it. So it is
    /// combined with the grown end as the middle node only (an edge is
    /// never a middle node: such a seed is not queued at all).
    Grown,
    /// Derived in this run, a seed whose key became an own stone, or one
    /// whose carrier shrank and whose end grew: combined with
    /// everything.
    New,
}

/// Queue flag: the full is an [`Origin::Shrunk`] seed.
const SHRUNK: u8 = 1;
/// Queue flag: the AND rule does not use the full's first end as the
/// middle node.
const NOT_THROUGH_X: u8 = 2;
/// Queue flag: the AND rule does not use the full's second end as the
/// middle node.
const NOT_THROUGH_Y: u8 = 4;

/// Endpoint codes of the two edges in a [`Closure`] (cells are below
/// them: see [`fits`]).
const END_E1: Id = Id::MAX - 1;
const END_E2: Id = Id::MAX;
/// The key of a full connection in a [`Conn`].
const NO_KEY: Id = Id::MAX;
/// A cell's node when it has none in the current run.
const NO_NODE: Id = Id::MAX;

/// One connection of a finished run, its ends named by cells (a group by
/// its lowest cell) or edge codes, so that it survives renumbering.
///
/// The carrier is kept packed ([`Bitboard::Packed`]): a `u128` field
/// would align the struct to 16 bytes and pad it to 32; packed it takes
/// 24, which the seeding, a walk over every connection of a closure,
/// reads faster.
#[derive(Clone, Copy, Debug)]
struct Conn<B: Bitboard> {
    cells: B::Packed,
    a: Id,
    b: Id,
    /// The key cell of a semi; [`NO_KEY`] for a full.
    key: Id,
}

impl<B: Bitboard> Conn<B> {
    fn new(carrier: B, a: Id, b: Id, key: Id) -> Conn<B> {
        Conn {
            cells: carrier.pack(),
            a,
            b,
            key,
        }
    }

    #[inline]
    fn carrier(&self) -> B {
        B::unpack(self.cells)
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
#[derive(Clone, Debug)]
pub struct Closure<B: Bitboard> {
    /// The stones (Black, White) of the position it was built on.
    pub stones: [B; 2],
    /// The Zobrist hash of those stones.
    pub hash: u64,
    /// The colour whose connections these are; `None` while empty.
    pub color: Option<Color>,
    conns: Vec<Conn<B>>,
    /// The indices in `conns` of those from capped lists (lists that were
    /// full: connections may have been left out of them).
    capped: Vec<u32>,
}

impl<B: Bitboard> Default for Closure<B> {
    fn default() -> Self {
        Closure {
            stones: [B::ZERO; 2],
            hash: 0,
            color: None,
            conns: Vec::new(),
            capped: Vec::new(),
        }
    }
}

impl<B: Bitboard> Closure<B> {
    fn push(&mut self, conn: Conn<B>, capped: bool) {
        if capped {
            self.capped.push(self.conns.len() as u32);
        }
        self.conns.push(conn);
    }

    /// Whether it can seed a run for `color` on `stones`.
    pub fn seeds(&self, stones: [B; 2], color: Color) -> bool {
        self.color == Some(color)
            && (self.stones[0] & !stones[0]).is_empty()
            && (self.stones[1] & !stones[1]).is_empty()
    }
}

impl<B: Bitboard> Default for Hsearch<B> {
    fn default() -> Self {
        Hsearch::new()
    }
}

const E1: usize = 0;
const E2: usize = 1;

/// The table index of the ordered node pair (a, b): row length `W` =
/// [`Bitboard::NODES`], a power of two, so the mask keeps it in bounds.
#[inline(always)]
fn ix<B: Bitboard>(a: usize, b: usize) -> usize {
    (a * B::NODES + b) & (B::NODES * B::NODES - 1)
}

/// Room for the nodes of the widest type (and its node-pair counts): the
/// per-node tables have this fixed length, so that a masked index needs
/// no bounds check. (The counts' pages beyond a narrower type's pairs are
/// never touched.)
const MAXN: usize = 1024;
const MAXP: usize = MAXN * MAXN;
const _: () = assert!(<crate::board::Wide<11> as Bitboard>::NODES <= MAXN);

/// The most nodes whose pair lists have a fixed room each (see
/// [`Hsearch`]).
const DENSE_NODES: usize = 256;

/// Whether `B`'s pair lists are given room as they fill (see [`Hsearch`]).
#[inline(always)]
const fn sparse<B: Bitboard>() -> bool {
    B::NODES > DENSE_NODES
}

/// Where the list of the pair at table index `p` starts in lists of
/// `cap`: its own room when lists are dense, the room `slots` gave it when
/// they are sparse.
#[inline(always)]
fn start<B: Bitboard>(slots: &[u32], p: usize, cap: usize) -> usize {
    let room = if sparse::<B>() { slots[p] as usize } else { p };
    room * cap
}

/// A boxed table of `N` copies of `x` (built on the heap, not the stack).
fn table<T: Clone, const N: usize>(x: T) -> Box<[T; N]> {
    match vec![x; N].into_boxed_slice().try_into() {
        Ok(t) => t,
        Err(_) => unreachable!(),
    }
}

/// A node index masked into its tables' rows.
#[inline(always)]
fn node<B: Bitboard>(a: usize) -> usize {
    a & (B::NODES - 1)
}

impl<B: Bitboard> Hsearch<B> {
    /// With the solver's caps ([`Caps::SOLVER`]).
    pub fn new() -> Hsearch<B> {
        Hsearch::with_caps(Caps::SOLVER)
    }

    pub fn with_caps(caps: Caps) -> Hsearch<B> {
        let caps = Caps::new(caps.fulls, caps.semis);
        let w = B::NODES;
        let t = |n: usize, x: Id| vec![x; n].into_boxed_slice();
        let sets = |n: usize| vec![B::ZERO; n].into_boxed_slice();
        // Dense: every pair's room; sparse: none yet, and the rooms' table.
        let (rooms, slots) = if sparse::<B>() {
            (0, w * w)
        } else {
            (w * w, 0)
        };
        Hsearch {
            nf: table(0),
            caps,
            fulls: vec![B::ZERO; rooms * caps.fulls],
            fslot: vec![0; slots].into_boxed_slice(),
            ns: table(0),
            semis: vec![B::ZERO; rooms * caps.semis],
            keys: vec![0; rooms * caps.semis],
            sslot: vec![0; slots].into_boxed_slice(),
            adj: table(B::ZERO),
            sadj: table(B::ZERO),
            touching: table(B::ZERO),
            cell_bit: table(B::ZERO),
            cell_of: table(0),
            oldm: table(0),
            node_of: t(w, NO_NODE),
            node_cells: sets(w + 2),
            queue: Vec::new(),
            grown: B::ZERO,
            origin: Origin::New,
            goal: Goal::Closure,
            stopped: false,
            edge_cap: B::ZERO,
            edge_union: B::ZERO,
            edge_semis: 0,
            edge_semi: None,
            edge_full: None,
            rep: table(0),
            m: 0,
            changed: Vec::new(),
            damaged: Vec::new(),
            damaged_with: table(B::ZERO),
            edge_list: Vec::new(),
            deadline: None,
            group_cells: table(B::ZERO),
            groups: 0,
        }
    }

    /// H-search for `color` on `stones` (Black, White). With `for_mover`
    /// the search stops at the first edge-to-edge semi or full (the mover
    /// wins); otherwise it collects the edge semis' common cells, stopping
    /// at an edge full or when that intersection becomes empty.
    pub fn run(
        &mut self,
        bits: &Bits<B>,
        stones: [B; 2],
        color: Color,
        for_mover: bool,
    ) -> EdgeInfo<B> {
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
        bits: &Bits<B>,
        stones: [B; 2],
        color: Color,
        goal: Goal,
        seed: Option<&Closure<B>>,
    ) -> EdgeInfo<B> {
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
        let edge1 = bits.flood(bits.edge(e1) & own, own);
        let edge2 = bits.flood(bits.edge(e2) & own, own);
        if (edge1 & edge2).any() {
            return EdgeInfo {
                full: Some(B::ZERO),
                semi: None,
                semi_cap: B::ZERO,
                semi_union: B::ZERO,
                semis: 0,
            };
        }
        // Number the nodes: edges, groups, empty cells.
        let mut node_cells = std::mem::take(&mut self.node_cells);
        let mut node_of = std::mem::take(&mut self.node_of);
        node_of[..bits.n].fill(NO_NODE);
        node_cells[0] = edge1;
        node_cells[1] = edge2;
        let mut m = 2;
        let mut rest = own & !edge1 & !edge2;
        while rest.any() {
            let g = bits.flood(rest.lowest(), own);
            rest &= !g;
            node_cells[m] = g;
            m += 1;
        }
        let groups = m;
        self.group_cells[..groups].copy_from_slice(&node_cells[..groups]);
        self.groups = groups;
        if groups + empty.count() as usize > B::BITS {
            self.node_cells = node_cells;
            self.node_of = node_of;
            return EdgeInfo {
                semi_cap: bits.all,
                full: None,
                semi: None,
                semi_union: B::ZERO,
                semis: 0,
            };
        }
        self.rep[0] = END_E1;
        self.rep[1] = END_E2;
        for (k, &cells) in node_cells[..groups].iter().enumerate() {
            if k >= 2 {
                self.rep[k] = cells.first() as Id;
            }
            for i in cells.ones() {
                node_of[i] = k as Id;
            }
        }
        self.cell_bit[..groups].fill(B::ZERO);
        self.cell_of[..groups].fill(0);
        for i in empty.ones() {
            node_of[i] = m as Id;
            node_cells[m] = bit(i);
            self.cell_bit[m] = bit(i);
            self.cell_of[m] = i as Id;
            self.rep[m] = i as Id;
            m += 1;
        }
        self.m = m;
        let w = B::NODES;
        for a in 0..m {
            self.nf[a * w..a * w + m].fill(0);
            self.oldm[a * w..a * w + m].fill(0);
            self.ns[a * w..a * w + m].fill(0);
        }
        if sparse::<B>() {
            self.fulls.clear();
            self.semis.clear();
            self.keys.clear();
        }
        self.adj[..m].fill(B::ZERO);
        self.sadj[..m].fill(B::ZERO);
        self.touching[..m].fill(B::ZERO);
        self.queue.clear();
        self.grown = B::ZERO;
        self.edge_list.clear();
        self.origin = Origin::New;
        self.goal = goal;
        self.stopped = false;
        self.edge_cap = empty;
        self.edge_union = B::ZERO;
        self.edge_semis = 0;
        self.edge_semi = None;
        self.edge_full = None;
        let cells = Cells { own, opp, empty };
        let out = self.combine(
            bits,
            (stones, color),
            seed,
            cells,
            (&node_of, &node_cells[..m]),
        );
        self.node_cells = node_cells;
        self.node_of = node_of;
        out
    }

    /// The run's rules once its nodes are numbered (`node_of` per cell,
    /// `node_cells` per node): the seed, the base connections and edge
    /// templates, then AND over the queue.
    fn combine(
        &mut self,
        bits: &Bits<B>,
        (stones, color): ([B; 2], Color),
        seed: Option<&Closure<B>>,
        Cells { own, opp, empty }: Cells<B>,
        (node_of, node_cells): (&[Id], &[B]),
    ) -> EdgeInfo<B> {
        let m = node_cells.len();
        let groups = self.groups;
        let (e1, e2) = color.edges();
        if let Some(seed) = seed.filter(|s| s.seeds(stones, color)) {
            // Groups holding stones the seed's position did not have.
            let fresh = own & !seed.stones[color.index()];
            let mut grown = B::ZERO;
            for (k, &cells) in node_cells[..groups].iter().enumerate() {
                if (cells & fresh).any() {
                    grown |= bit(k);
                }
            }
            self.seed(seed, node_of, own, opp, grown);
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
            for i in near.ones() {
                let b = node_of[i] as usize;
                if b > a && b != usize::from(NO_NODE) {
                    self.add_full(a, b, B::ZERO);
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
            if ((bit::<B>(anchor as usize) | carrier) & opp).any() {
                continue;
            }
            let a = node_of[anchor as usize] as usize;
            if a == usize::from(NO_NODE) || a == end {
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
            if qi % DEADLINE_EVERY == 0
                && let Some(d) = self.deadline
                && Instant::now() >= d
            {
                self.stopped = true;
                break;
            }
            let (x, y, how, c) = self.queue[qi];
            qi += 1;
            let (x, y) = (x as usize, y as usize);
            let shrunk = how & SHRUNK != 0;
            if how & NOT_THROUGH_Y == 0 {
                self.and_from(x, y, c, shrunk);
                if self.stopped {
                    break;
                }
            }
            if how & NOT_THROUGH_X == 0 {
                self.and_from(y, x, c, shrunk);
            }
        }
        if self.stopped {
            self.m = 0;
        }
        self.info()
    }

    fn info(&self) -> EdgeInfo<B> {
        EdgeInfo {
            full: self.edge_full,
            semi: self.edge_semi,
            semi_cap: self.edge_cap,
            semi_union: self.edge_union,
            semis: self.edge_semis,
        }
    }

    /// Where the full list of the pair at table index `p` starts in
    /// `fulls` (meaningful once it has a connection or a room).
    #[inline(always)]
    fn fat(&self, p: usize) -> usize {
        start::<B>(&self.fslot, p, self.caps.fulls)
    }

    /// Where the semi list of the pair at table index `p` starts in
    /// `semis` and `keys` (meaningful once it has a connection or a room).
    #[inline(always)]
    fn sat(&self, p: usize) -> usize {
        start::<B>(&self.sslot, p, self.caps.semis)
    }

    /// Gives the empty full lists of the pairs at `p` and `q` (the two
    /// orders of one pair) their room, when lists are sparse.
    #[inline(always)]
    fn make_full_room(&mut self, p: usize, q: usize) {
        if sparse::<B>() {
            let fc = self.caps.fulls;
            for x in [p, q] {
                self.fslot[x] = (self.fulls.len() / fc) as u32;
                self.fulls.resize(self.fulls.len() + fc, B::ZERO);
            }
        }
    }

    /// Gives the empty semi list of the pair at `p` its room, when lists
    /// are sparse.
    #[inline(always)]
    fn make_semi_room(&mut self, p: usize) {
        if sparse::<B>() {
            let sc = self.caps.semis;
            self.sslot[p] = (self.semis.len() / sc) as u32;
            self.semis.resize(self.semis.len() + sc, B::ZERO);
            self.keys.resize(self.keys.len() + sc, 0);
        }
    }

    /// Runs after `deadline` give up: they stop combining and are not
    /// [`Hsearch::finished`]. What they found is sound, only less (on the
    /// biggest boards one run can take longer than a short move).
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// The deadline set by [`Hsearch::set_deadline`].
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// The list lengths this H-search keeps.
    pub fn caps(&self) -> Caps {
        self.caps
    }

    /// Whether the last run went to the end (it did not stop early or give
    /// up), so that [`Hsearch::export`] can save its connections.
    pub fn finished(&self) -> bool {
        self.m != 0
    }
}
