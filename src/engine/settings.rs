//! The engine's parameter groups, one per `param_*` command: each lists
//! its registry's settings and sets one through it, then applies the new
//! settings (allocating a table may still fail, which keeps the old ones).

use std::time::Duration;

use super::{Engine, MAX_TABLE_MIB, SAFE_TABLE_MIB};
use crate::params::{self, Kind, Param, Setting};
use crate::search::SearchParams;
use crate::solver::SolverParams;

/// A group of parameters: `param_game`, `param_ferrohex`, `param_dfpn`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamGroup {
    Game,
    Engine,
    Solver,
}

#[derive(Clone)]
struct GameSettings {
    allow_swap: bool,
    safe: bool,
}

#[derive(Clone)]
struct EngineSettings {
    max_time: f64,
    use_guifx: bool,
    search: SearchParams,
}

#[derive(Clone)]
struct SolverSettings {
    solver: SolverParams,
    use_guifx: bool,
    genmove_empty: usize,
    /// The verifier's reach as set by name (`None`: it follows the board,
    /// `board_reach`).
    verify_empty: Option<usize>,
    board_reach: usize,
}

fn game_registry() -> Vec<Param<GameSettings>> {
    vec![
        Param::flag(
            "allow_swap",
            "the swap rule",
            |g: &GameSettings| g.allow_swap,
            |g, b| g.allow_swap = b,
        ),
        Param::flag(
            "safe",
            "safe mode for untrusted input (cannot be turned off)",
            |g: &GameSettings| g.safe,
            |g, b| g.safe = b,
        ),
    ]
}

/// A `tt_mb` parameter with the machine's range, or safe mode's; any
/// other parameter as it is.
fn with_table_range<T: 'static>(p: Param<T>, safe: bool) -> Param<T> {
    if p.name != "tt_mb" {
        return p;
    }
    let (max, note) = if safe {
        (SAFE_TABLE_MIB, "in safe mode")
    } else {
        (MAX_TABLE_MIB, "")
    };
    let kind = Kind::Int {
        min: 1,
        max: max as u64,
    };
    p.with_range(kind, note)
}

fn engine_registry(safe: bool) -> Vec<Param<EngineSettings>> {
    type E = EngineSettings;
    let mut r = vec![Param::seconds(
        "max_time",
        1.0e6,
        false,
        "seconds per move",
        |e: &E| e.max_time,
        |e, s| e.max_time = s,
    )];
    for p in SearchParams::registry() {
        let p = match p.name {
            "threads" if safe => {
                let cores = crate::search::thread_count(0) as u64;
                p.with_range(
                    Kind::Int { min: 0, max: cores },
                    "in safe mode: one per core",
                )
            }
            _ => with_table_range(p, safe),
        };
        r.push(p.lift(|e: &E| &e.search, |e: &mut E| &mut e.search));
    }
    r.push(Param::flag(
        "use_guifx",
        "send HexGui live graphics during genmove",
        |e: &E| e.use_guifx,
        |e, b| e.use_guifx = b,
    ));
    r
}

fn solver_registry(safe: bool) -> Vec<Param<SolverSettings>> {
    type S = SolverSettings;
    let mut r: Vec<Param<S>> = Vec::new();
    for p in SolverParams::registry() {
        let after_table = p.name == "tt_mb";
        r.push(with_table_range(p, safe).lift(|s: &S| &s.solver, |s: &mut S| &mut s.solver));
        if after_table {
            r.push(Param::flag(
                "use_guifx",
                "send HexGui live graphics while solving",
                |s: &S| s.use_guifx,
                |s, b| s.use_guifx = b,
            ));
        }
    }
    r.push(Param::int(
        "genmove_empty",
        (0, crate::board::MAX_CELLS),
        "the solver runs beside genmove's search with at most this many empty cells",
        |s: &S| s.genmove_empty,
        |s, n| s.genmove_empty = n,
    ));
    r.push(Param::int(
        "verify_empty",
        (0, crate::board::MAX_CELLS),
        "genmove's verifier checks the search's choice with at most this many empty cells",
        |s: &S| s.verify_empty.unwrap_or(s.board_reach),
        |s, n| s.verify_empty = Some(n),
    ));
    r
}

impl Engine {
    fn game_settings(&self) -> GameSettings {
        GameSettings {
            allow_swap: self.game.allow_swap,
            safe: self.safe,
        }
    }

    fn engine_settings(&self) -> EngineSettings {
        EngineSettings {
            max_time: self.max_time.as_secs_f64(),
            use_guifx: self.use_guifx,
            search: self.params.clone(),
        }
    }

    fn solver_settings(&self) -> SolverSettings {
        SolverSettings {
            solver: self.portfolio.solver.params.clone(),
            use_guifx: self.solver_guifx,
            genmove_empty: self.portfolio.solver_empty,
            verify_empty: self.portfolio.verify_empty,
            board_reach: crate::portfolio::default_verify_empty(self.game.geometry()),
        }
    }

    /// A group's parameters with their current values, in listing order.
    pub fn params(&self, group: ParamGroup) -> Vec<Setting> {
        match group {
            ParamGroup::Game => params::list(&game_registry(), &self.game_settings()),
            ParamGroup::Engine => {
                params::list(&engine_registry(self.safe), &self.engine_settings())
            }
            ParamGroup::Solver => {
                params::list(&solver_registry(self.safe), &self.solver_settings())
            }
        }
    }

    /// Sets one parameter of a group, or says why not and changes nothing.
    pub fn set_param(&mut self, group: ParamGroup, name: &str, value: &str) -> Result<(), String> {
        match group {
            ParamGroup::Game => {
                let mut g = self.game_settings();
                params::set(&game_registry(), &mut g, name, value)?;
                if self.safe && !g.safe {
                    return Err("safe mode cannot be turned off".into());
                }
                self.game.allow_swap = g.allow_swap;
                self.safe = g.safe;
            }
            ParamGroup::Engine => {
                let mut e = self.engine_settings();
                params::set(&engine_registry(self.safe), &mut e, name, value)?;
                if e.search != self.params {
                    if e.search.tt_mb != self.params.tt_mb {
                        crate::memory::check_table(e.search.tt_mb, "transposition table")?;
                    }
                    self.portfolio.searcher.try_set_params(&e.search)?;
                    self.params = e.search;
                }
                self.max_time = Duration::from_secs_f64(e.max_time);
                self.use_guifx = e.use_guifx;
            }
            ParamGroup::Solver => {
                if let Some(why) = SolverParams::retired(name) {
                    return Err(why);
                }
                let mut s = self.solver_settings();
                params::set(&solver_registry(self.safe), &mut s, name, value)?;
                if s.solver != self.portfolio.solver.params {
                    if s.solver.tt_mb != self.portfolio.solver.params.tt_mb {
                        // The verifier's table comes with it.
                        let both =
                            s.solver.tt_mb + crate::portfolio::verifier_params(&s.solver).tt_mb;
                        crate::memory::check_table(both, "solver's tables")?;
                    }
                    // The new tables are allocated before either is
                    // replaced, so a size that cannot be had leaves both
                    // as they were.
                    self.portfolio.set_solver_params(s.solver)?;
                }
                self.portfolio.solver_empty = s.genmove_empty;
                self.portfolio.verify_empty = s.verify_empty;
                self.solver_guifx = s.use_guifx;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine() -> Engine {
        let p = SearchParams {
            threads: 1,
            tt_mb: 1,
            ..SearchParams::default()
        };
        Engine::new(p, Duration::from_millis(50))
    }

    /// Every parameter a listing shows takes the value it shows, and the
    /// listing is the same after.
    #[test]
    fn every_listed_parameter_can_be_set_to_its_value() {
        for safe in [false, true] {
            let mut e = engine();
            if safe {
                e.set_safe();
            }
            for group in [ParamGroup::Game, ParamGroup::Engine, ParamGroup::Solver] {
                let before = e.params(group);
                assert!(!before.is_empty());
                for s in &before {
                    let text = s.value.to_string();
                    e.set_param(group, s.name, &text)
                        .unwrap_or_else(|err| panic!("{} {text}: {err}", s.name));
                }
                assert_eq!(e.params(group), before);
            }
        }
    }

    #[test]
    fn every_parameter_can_be_changed() {
        let mut e = engine();
        for group in [ParamGroup::Game, ParamGroup::Engine, ParamGroup::Solver] {
            for s in e.params(group) {
                let other = match s.kind {
                    Kind::Bool => (!s.value.as_bool() as u8).to_string(),
                    Kind::Int { min, max } => {
                        let n = s.value.as_int();
                        (if n < max { n + 1 } else { min }).to_string()
                    }
                    Kind::Real { max, .. } | Kind::Seconds { max, .. } => {
                        let x = s.value.as_real();
                        (if x + 0.5 <= max { x + 0.5 } else { x / 2.0 }).to_string()
                    }
                    Kind::Choice(words) => words
                        .iter()
                        .find(|w| **w != s.value.as_word())
                        .unwrap()
                        .to_string(),
                };
                // Safe mode is one way; the rest must take the new value.
                if s.name == "safe" {
                    continue;
                }
                e.set_param(group, s.name, &other)
                    .unwrap_or_else(|err| panic!("{} {other}: {err}", s.name));
                let now = e.params(group);
                let now = now.iter().find(|n| n.name == s.name).unwrap();
                assert_eq!(now.value.to_string(), other, "{}", s.name);
            }
        }
    }
}
