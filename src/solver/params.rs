//! The solver's settings, with their registry for `param_dfpn`.

use std::str::FromStr;
use std::time::Duration;

use crate::eval::EvalKind;
use crate::params::{self, Param};

/// How the solver orders a node's moves, best first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveOrder {
    /// By each cell's energy in both colours' circuits over the node's own
    /// connections (the H-search's graph; the connection search orders
    /// its moves the same way). Without the H-search (`use_vc 0`, boards
    /// above 254 cells) it falls back to [`EvalKind::Resistance`].
    Connections,
    /// By an evaluation's per-cell values on the board alone.
    Eval(EvalKind),
}

impl MoveOrder {
    /// The names `param_dfpn ordering` takes: `connections`, then the
    /// evaluations' own.
    pub const NAMES: [&'static str; 1 + EvalKind::NAMES.len()] = {
        let mut names = ["connections"; 1 + EvalKind::NAMES.len()];
        let mut i = 0;
        while i < EvalKind::NAMES.len() {
            names[1 + i] = EvalKind::NAMES[i];
            i += 1;
        }
        names
    };

    pub fn name(self) -> &'static str {
        match self {
            MoveOrder::Connections => "connections",
            MoveOrder::Eval(k) => k.name(),
        }
    }

    pub fn named(name: &str) -> Option<MoveOrder> {
        if name == "connections" {
            Some(MoveOrder::Connections)
        } else {
            EvalKind::named(name).map(MoveOrder::Eval)
        }
    }

    /// The board evaluation it orders by where there are no connections.
    pub fn eval(self) -> EvalKind {
        match self {
            MoveOrder::Connections => EvalKind::Resistance,
            MoveOrder::Eval(k) => k,
        }
    }
}

impl FromStr for MoveOrder {
    type Err = String;
    /// Accepts the names in any case.
    fn from_str(s: &str) -> Result<MoveOrder, String> {
        let word = params::parse(params::Kind::Choice(&MoveOrder::NAMES), "ordering", s, "")?;
        MoveOrder::named(word.as_word()).ok_or_else(|| format!("unknown name {s}"))
    }
}

/// The solver's parameters (`param_dfpn` in HTP).
#[derive(Clone, Debug, PartialEq)]
pub struct SolverParams {
    /// Give up (answer unknown) after this long; `None`: no limit.
    pub max_time: Option<Duration>,
    /// Size of the transposition table in mebibytes.
    pub tt_mb: usize,
    /// Use the bitboard H-search and inferior cells (boards up to 254
    /// cells), else the board alone.
    pub use_vc: bool,
    /// Move ordering of `dfpn-solve-state` and the other solver commands
    /// (genmove has its own). By connections the 7x7 regression file took 31 s
    /// where by the board's resistance it took 44 s (its hardest
    /// position, a4: 71,850 nodes against 139,152).
    pub ordering: MoveOrder,
    /// The move ordering of genmove's solver and verifier. The board's
    /// resistance by default: at 1 s a move on 11x11 against MoHex 2.0
    /// (seeds 12-14 of the 1-ply openings), genmove with it scored 29 of
    /// 59 games, with the connections' ordering 19 of 60. Why is not
    /// established: the positions those games turned on were mostly
    /// proved lost at 90-100 empty cells with either ordering; one thing
    /// the ordering decides is the reply played in a lost position (the
    /// one whose refutation took the most work).
    pub genmove_ordering: MoveOrder,
    /// The 1 + epsilon trick's epsilon.
    pub epsilon: f64,
    /// Widening: the proof number looks at only the first
    /// 1 + ceil(widening x open children) children; 0 looks at all.
    /// 0.25 (Benzene's value) solves 24 of endgame.tst's 40 positions in
    /// 10 s each where 0 solves 22, 0.5 23 (all with vulnerable-cell
    /// pruning), and the 6x6 file in 76,224 nodes against 79,711.
    pub widening: f64,
    /// genmove's solver spends the second half of the move with this
    /// widening, on the same table (equal to `widening`: no switch).
    /// df-pn's time to a proof varies a lot with the widening; on the 40
    /// endgame.tst positions, 5 s at 0.25 then 5 s at 0.5 prove 26 where
    /// 10 s at 0.25 prove 24 (random-endgame04 and simple-endgame02 gained,
    /// random-endgame15 lost).
    pub late_widening: f64,
    /// Expand new children when their parent is expanded (settles
    /// decided ones at once, seeds disproof numbers with move counts).
    pub lookahead: bool,
    /// With the solver's own H-search: start each node's H-search from
    /// the connections of an earlier position on the line, combining only
    /// what the new stones changed (off: every node from scratch).
    pub incremental: bool,
    /// With the solver's own H-search: leave out moves an opponent reply
    /// kills (vulnerable cells; see [`ice::vulnerable`]).
    pub vulnerable: bool,
    /// With the solver's own H-search: fill in the carriers decompositions
    /// capture (see [`vc::Hsearch::decomposition`]). On the 40
    /// endgame.tst positions, 10 s each, it proves 30 where 24 without.
    pub decompositions: bool,
    /// How often progress is reported.
    pub progress_interval: Duration,
}

impl Default for SolverParams {
    fn default() -> Self {
        SolverParams {
            max_time: None,
            tt_mb: 64,
            use_vc: true,
            ordering: MoveOrder::Connections,
            genmove_ordering: MoveOrder::Eval(EvalKind::Resistance),
            epsilon: 0.25,
            widening: 0.25,
            late_widening: 0.5,
            lookahead: false,
            incremental: true,
            vulnerable: true,
            decompositions: true,
            progress_interval: Duration::from_secs(1),
        }
    }
}

impl SolverParams {
    /// The solver's parameters as `param_dfpn` lists them.
    pub fn registry() -> Vec<Param<SolverParams>> {
        type P = SolverParams;
        vec![
            Param::seconds(
                "max_time",
                1.0e6,
                true,
                "seconds per solve, 0 for no limit",
                |p: &P| p.max_time.map_or(0.0, |t| t.as_secs_f64()),
                |p, s| p.max_time = (s > 0.0).then(|| Duration::from_secs_f64(s)),
            ),
            Param::int(
                "tt_mb",
                (1, 65536),
                "solver table size in MiB",
                |p: &P| p.tt_mb,
                |p, n| p.tt_mb = n,
            ),
            Param::flag(
                "use_vc",
                "use the connection search and inferior cells (else the board alone)",
                |p: &P| p.use_vc,
                |p, b| p.use_vc = b,
            ),
            Param::flag(
                "incremental",
                "seed each connection search from an earlier position on the line",
                |p: &P| p.incremental,
                |p, b| p.incremental = b,
            ),
            Param::choice(
                "ordering",
                &MoveOrder::NAMES,
                "move ordering: by the circuits over the connections, or an evaluation's per-cell values",
                |p: &P| p.ordering.name(),
                |p, w| p.ordering = MoveOrder::named(w).unwrap_or(p.ordering),
            ),
            Param::choice(
                "genmove_ordering",
                &MoveOrder::NAMES,
                "the move ordering of genmove's solver and verifier",
                |p: &P| p.genmove_ordering.name(),
                |p, w| p.genmove_ordering = MoveOrder::named(w).unwrap_or(p.genmove_ordering),
            ),
            Param::real(
                "epsilon",
                (0.0, 64.0),
                "the 1 + epsilon trick's epsilon",
                |p: &P| p.epsilon,
                |p, x| p.epsilon = x,
            ),
            Param::real(
                "widening",
                (0.0, 64.0),
                "the proof number looks at the first 1 + ceil(widening x open) children",
                |p: &P| p.widening,
                |p, x| p.widening = x,
            ),
            Param::real(
                "late_widening",
                (0.0, 64.0),
                "the widening of the second half of genmove's solve",
                |p: &P| p.late_widening,
                |p, x| p.late_widening = x,
            ),
            Param::flag(
                "lookahead",
                "expand new children when their parent is expanded",
                |p: &P| p.lookahead,
                |p, b| p.lookahead = b,
            ),
            Param::flag(
                "vulnerable",
                "leave out moves an opponent reply kills",
                |p: &P| p.vulnerable,
                |p, b| p.vulnerable = b,
            ),
            Param::flag(
                "decompositions",
                "fill in the carriers decompositions capture",
                |p: &P| p.decompositions,
                |p, b| p.decompositions = b,
            ),
        ]
    }

    /// The parameters by name, with their values as `param_dfpn` lists them.
    pub fn list(&self) -> Vec<(&'static str, String)> {
        params::list(&SolverParams::registry(), self)
            .into_iter()
            .map(|s| (s.name, s.value.to_string()))
            .collect()
    }

    /// Sets one parameter by its `param_dfpn` name, or says why not.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        if let Some(why) = SolverParams::retired(name) {
            return Err(why);
        }
        params::set(&SolverParams::registry(), self, name, value).map(|_| ())
    }

    /// Why a parameter earlier versions had is gone, for its `?` answer:
    /// `use_knowledge` and `use_ice` chose a second copy of the connections
    /// and inferior cells, which the solver no longer has.
    pub fn retired(name: &str) -> Option<String> {
        matches!(name, "use_knowledge" | "use_ice").then(|| {
            format!(
                "{name} is no longer a parameter: the solver always uses the one connection \
                 search and inferior-cell analysis (use_vc 0 turns them off)"
            )
        })
    }
}
