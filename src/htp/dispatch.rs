//! Runs typed commands against the engine and produces the answer text.

use super::answer;
use super::command::{COMMANDS, Command, ParamSetting, is_known};
use crate::board::Geometry;
use crate::engine::{Engine, ParamGroup};
use crate::present::overlay;
use crate::search::SearchReport;
use crate::solver::Progress;

/// Where a long command's progress goes while it runs.
pub struct Observers<'a> {
    pub search: &'a mut dyn FnMut(&SearchReport),
    pub solver: &'a mut dyn FnMut(&Progress),
}

/// The analysis commands HexGui lists in its Analyze menu, in GoGui's
/// `type/label/command` form; `%c` is replaced by a colour.
const ANALYZE_COMMANDS: &[&str] = &[
    "param/Game Param/param_game",
    "param/Engine Param/param_ferrohex",
    "param/Solver Param/param_dfpn",
    "string/Solve State/dfpn-solve-state %c",
    "plist/Find Winning Moves/dfpn-solver-find-winning %c",
    "none/Clear Solver Table/dfpn-clear-tt",
    "inferior/VC Build (inferior cells)/vc-build %c",
    "plist/Mustplay/vc-get-mustplay %c",
    "vc/VC Between Cells Full/vc-between-cells-full %c %p %p",
    "vc/VC Between Cells Semi/vc-between-cells-semi %c %p %p",
    "string/Show Board/showboard",
    "string/Final Score/final_score",
    "plist/All Legal Moves/all_legal_moves %c",
    "pspairs/Evaluation/eval %c",
    "pspairs/Show Distance/eval-dist %c",
    "pspairs/Show TwoDistance/eval-twod %c",
    "pspairs/Show Cell Energy/eval-resist-cells %c",
    "string/Show Resist/eval-resist %c",
    "string/Evaluation Summary/eval-summary %c",
    "var/Principal Variation/ferrohex-pv",
];

/// What the driver should do after answering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// Executes one command. The answer is the text after `=`, or the reason
/// after `?`. Failed commands leave the engine as it was.
pub fn execute(
    engine: &mut Engine,
    command: &Command,
    observers: &mut Observers,
) -> (Result<String, String>, Flow) {
    let done = |r: Result<(), String>| r.map(|()| String::new());
    let answer = match command {
        Command::ProtocolVersion => Ok("2".into()),
        Command::Name => Ok("ferrohex".into()),
        Command::Version => Ok(env!("CARGO_PKG_VERSION").into()),
        Command::KnownCommand(name) => Ok(is_known(&name.to_ascii_lowercase()).to_string()),
        Command::ListCommands => Ok(COMMANDS
            .iter()
            .map(|(n, _)| *n)
            .collect::<Vec<_>>()
            .join("\n")),
        Command::Quit => return (Ok(String::new()), Flow::Quit),
        Command::BoardSize { width, height } => done(engine.boardsize(*width, *height)),
        Command::ClearBoard => {
            engine.clear_board();
            Ok(String::new())
        }
        Command::Play(color, mv) => done(engine.play(*color, *mv)),
        Command::GenMove { color, play } => {
            let g = engine.game().position().shared_geometry().clone();
            engine
                .genmove(*color, *play, observers.search)
                .map(|r| answer::choice(&g, r.choice))
        }
        Command::Undo => done(engine.undo()),
        Command::ShowBoard => Ok(crate::present::diagram::showboard(engine.game())),
        Command::FinalScore => engine.final_score().map(answer::final_score),
        Command::AllLegalMoves(color) => Ok(answer::cells(g(engine), engine.legal_moves(*color))),
        Command::LoadSgf { path, move_number } => done(engine.load_sgf(path, *move_number)),
        Command::PrintSgf(None) => Ok(answer::sgf(engine.game()).trim_end().to_string()),
        Command::PrintSgf(Some(path)) => done(engine.write_file(path, &answer::sgf(engine.game()))),
        Command::LoadBoard { path, letters } => done(engine.load_diagram(path, *letters)),
        Command::ShowBoardSvg(None) => Ok(answer::svg(engine.game())),
        Command::ShowBoardSvg(Some(path)) => {
            done(engine.write_file(path, &answer::svg(engine.game())))
        }
        Command::TimeLeft {
            color,
            seconds,
            stones,
        } => {
            engine.time_left(*color, *seconds, *stones);
            Ok(String::new())
        }
        Command::TimeSettings {
            main,
            byo_time,
            byo_stones,
        } => {
            engine.time_settings(*main, *byo_time, *byo_stones);
            Ok(String::new())
        }
        Command::ParamGame(setting) => param(engine, ParamGroup::Game, setting),
        Command::ParamFerrohex(setting) => param(engine, ParamGroup::Engine, setting),
        Command::AnalyzeCommands => Ok(ANALYZE_COMMANDS.join("\n")),
        Command::GoguiInterrupt => Ok(String::new()),
        Command::EvalCells { kind, color } => engine
            .eval_cells(*kind, *color)
            .map(|v| answer::cell_values(g(engine), &v)),
        Command::EvalSummary { kinds, color } => engine
            .eval_summary(kinds, *color)
            .map(|m| answer::measures(&m, *color)),
        Command::Pv => Ok(engine
            .last_pv()
            .map(|(first, moves)| answer::line(g(engine), first, moves))
            .unwrap_or_default()),
        Command::SolveState(color) => {
            Ok(answer::winner(engine.solve_state(*color, observers.solver)))
        }
        Command::SolveWinningMoves(color) => engine
            .solve_winning_moves(*color, observers.solver)
            .map(|m| answer::cells(g(engine), m)),
        Command::SolverClearTable => {
            engine.clear_solver_table();
            Ok(String::new())
        }
        Command::ParamDfpn(setting) => param(engine, ParamGroup::Solver, setting),
        Command::VcBuild(color) => engine
            .inferior_cells(*color)
            .map(|cells| overlay::inferior(g(engine), &cells)),
        Command::VcMustplay(color) => engine
            .mustplay(*color)
            .map(|set| answer::cells(g(engine), set.iter())),
        Command::VcBetween {
            color,
            from,
            to,
            full,
        } => engine
            .connections(*color, from, to, *full)
            .map(|c| overlay::connections(g(engine), c.color, c.ends, &c.fulls, &c.semis)),
    };
    (answer, Flow::Continue)
}

/// The board's geometry, for naming cells.
fn g(engine: &Engine) -> &Geometry {
    engine.game().geometry()
}

/// A `param_*` command: the group's listing, or one parameter set.
fn param(engine: &mut Engine, group: ParamGroup, setting: &ParamSetting) -> Result<String, String> {
    match setting {
        None => Ok(answer::settings(&engine.params(group))),
        Some((name, value)) => engine.set_param(group, name, value).map(|()| String::new()),
    }
}
