//! The search's settings: the playing level and [`SearchParams`], with
//! their registry for `param_ferrohex`.

use std::fmt;
use std::str::FromStr;

use super::DEFAULT_ENDGAME_EMPTY_PCT;
use crate::eval::EvalKind;
use crate::knowledge::vc::Caps;
use crate::params::Param;

/// The connection search's H-search caps by default.
pub const DEFAULT_CONN_CAPS: Caps = Caps::SOLVER;

/// Playing strength.
///
/// - `Baseline`: the simple one-ply player (win, block, best 0-1 distance
///   difference); the yardstick the search is measured against.
/// - `Easy`: a shallow, slightly randomised search a beginner can beat.
/// - `Medium`: a short search.
/// - `Hard` (the default): the full search within the time budget.
/// - `Max`: like `Hard`; when the connection search's next depth would not
///   fit in the move's time, the last depth is searched again with twice
///   the moves a node (the distance search, on boards the connection
///   search does not cover, has the wider lists throughout).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Level {
    Baseline,
    Easy,
    Medium,
    #[default]
    Hard,
    Max,
}

impl Level {
    pub const ALL: [Level; 5] = [
        Level::Baseline,
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Max,
    ];

    /// The names, in the order of [`Level::ALL`].
    pub const NAMES: [&'static str; 5] = {
        let mut names = [""; 5];
        let mut i = 0;
        while i < 5 {
            names[i] = Level::ALL[i].name();
            i += 1;
        }
        names
    };

    /// The level of a name as listed (lowercase).
    pub fn named(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name() == name)
    }

    pub const fn name(self) -> &'static str {
        match self {
            Level::Baseline => "baseline",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Max => "max",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = String;
    /// Accepts the names in any case.
    fn from_str(s: &str) -> Result<Level, String> {
        let word =
            crate::params::parse(crate::params::Kind::Choice(&Level::NAMES), "level", s, "")?;
        Level::named(word.as_word()).ok_or_else(|| format!("unknown name {s}"))
    }
}

/// Search settings, as set by command-line flags and `param_ferrohex`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Worker threads for the root split; 0 means all cores.
    pub threads: usize,
    /// Transposition table size in MiB (rounded down to a power-of-two
    /// number of entries; the table never grows).
    pub tt_mb: usize,
    /// Deepest iteration, in plies; `None` means as deep as time allows.
    pub max_depth: Option<u32>,
    pub level: Level,
    /// Resign a proven loss instead of playing the longest resistance.
    pub resign: bool,
    /// How many candidate moves are searched at each node below the root
    /// (the root always searches every move). 0 means no limit.
    pub width: usize,
    /// The evaluation used by the search levels (not by baseline/easy,
    /// which use the 0-1 distance).
    pub eval: EvalKind,
    /// Use the Hex knowledge (virtual connections, mustplay, inferior
    /// cells): decided positions at the root and near it, move lists cut
    /// to the consider set (`param_ferrohex knowledge 0|1`).
    pub knowledge: bool,
    /// With the knowledge on and at most this percentage of the board's
    /// cells empty, the connection search ([`connsearch`]) plays every
    /// board, whatever `connection_search` says. 0: never. See
    /// [`DEFAULT_ENDGAME_EMPTY_PCT`].
    pub endgame_empty_pct: usize,
    /// On boards of at most 254 cells, search with the connections at
    /// every node from the first move ([`connsearch`]) instead of the
    /// distance search until the endgame (`endgame_empty_pct`)
    /// (`param_ferrohex connection_search 0|1`).
    pub connection_search: bool,
    /// The connection search's H-search: how many full and semi
    /// connections it keeps per node pair (`param_ferrohex conn_fulls`,
    /// `conn_semis`).
    pub conn_caps: Caps,
    /// At levels hard and max, the first moves of a game keep to the
    /// board's centre ([`opening_region`]; `param_ferrohex opening_centre
    /// 0|1`).
    pub opening_centre: bool,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            threads: 0,
            tt_mb: 64,
            max_depth: None,
            level: Level::default(),
            resign: false,
            width: 15,
            eval: EvalKind::default(),
            knowledge: true,
            endgame_empty_pct: DEFAULT_ENDGAME_EMPTY_PCT,
            connection_search: true,
            conn_caps: DEFAULT_CONN_CAPS,
            opening_centre: true,
        }
    }
}

impl SearchParams {
    /// The search's parameters as `param_ferrohex` lists them (after the
    /// engine's own `max_time`), with the widest ranges; the engine narrows
    /// `threads` and `tt_mb` in safe mode and to the machine.
    pub fn registry() -> Vec<Param<SearchParams>> {
        type P = SearchParams;
        vec![
            Param::int(
                "max_depth",
                (0, 1000),
                "deepest search iteration, 0 for no limit",
                |p: &P| p.max_depth.unwrap_or(0) as usize,
                |p, d| p.max_depth = (d > 0).then_some(d as u32),
            ),
            Param::int(
                "threads",
                (0, 1024),
                "search threads, 0 for one per core",
                |p: &P| p.threads,
                |p, n| p.threads = n,
            ),
            Param::int(
                "tt_mb",
                (1, 65536),
                "transposition table size in MiB",
                |p: &P| p.tt_mb,
                |p, n| p.tt_mb = n,
            ),
            Param::choice(
                "level",
                &Level::NAMES,
                "playing strength",
                |p: &P| p.level.name(),
                |p, w| p.level = Level::named(w).unwrap_or(p.level),
            ),
            Param::choice(
                "eval",
                &EvalKind::NAMES,
                "the search's evaluation",
                |p: &P| p.eval.name(),
                |p, w| p.eval = EvalKind::named(w).unwrap_or(p.eval),
            ),
            Param::int(
                "width",
                (0, crate::board::MAX_CELLS),
                "candidate moves searched at each node below the root, 0 for all",
                |p: &P| p.width,
                |p, n| p.width = n,
            ),
            Param::flag(
                "knowledge",
                "use virtual connections, mustplay and inferior cells in the search",
                |p: &P| p.knowledge,
                |p, b| p.knowledge = b,
            ),
            Param::int(
                "endgame_empty_pct",
                (0, 100),
                "the connection search on every board when at most this percentage of the cells is empty",
                |p: &P| p.endgame_empty_pct,
                |p, n| p.endgame_empty_pct = n,
            ),
            Param::flag(
                "connection_search",
                "the connection search from the first move on boards of at most 254 cells",
                |p: &P| p.connection_search,
                |p, b| p.connection_search = b,
            ),
            Param::int(
                "conn_fulls",
                (1, Caps::MAX_FULLS),
                "full connections the connection search keeps per pair of its H-search's nodes",
                |p: &P| p.conn_caps.fulls,
                |p, n| p.conn_caps.fulls = n,
            ),
            Param::int(
                "conn_semis",
                (1, Caps::MAX_SEMIS),
                "semi connections the connection search keeps per pair of its H-search's nodes",
                |p: &P| p.conn_caps.semis,
                |p, n| p.conn_caps.semis = n,
            ),
            Param::flag(
                "opening_centre",
                "the first moves keep to the centre at levels hard and max",
                |p: &P| p.opening_centre,
                |p, b| p.opening_centre = b,
            ),
            Param::flag(
                "resign",
                "answer resign in a lost position",
                |p: &P| p.resign,
                |p, b| p.resign = b,
            ),
        ]
    }
}
