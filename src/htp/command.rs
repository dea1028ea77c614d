//! The commands ferrohex understands, as typed values.

use crate::board::Color;
use crate::eval::EvalKind;
use crate::game::MoveArg;
use crate::present::textboard::Letters;

/// A parameter command's arguments: none (list all) or one name and value.
pub type ParamSetting = Option<(String, String)>;

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    ProtocolVersion,
    Name,
    Version,
    KnownCommand(String),
    ListCommands,
    Quit,
    BoardSize {
        width: usize,
        height: usize,
    },
    ClearBoard,
    Play(Color, MoveArg),
    /// `genmove` (plays the move) and `reg_genmove` (does not).
    GenMove {
        color: Color,
        play: bool,
    },
    Undo,
    ShowBoard,
    FinalScore,
    AllLegalMoves(Color),
    LoadSgf {
        path: String,
        move_number: Option<usize>,
    },
    PrintSgf(Option<String>),
    /// A position from a text diagram file.
    LoadBoard {
        path: String,
        letters: Letters,
    },
    /// The position as SVG, answered or written to a file.
    ShowBoardSvg(Option<String>),
    TimeLeft {
        color: Color,
        seconds: f64,
        stones: Option<u32>,
    },
    TimeSettings {
        main: f64,
        byo_time: f64,
        byo_stones: u32,
    },
    ParamGame(ParamSetting),
    ParamFerrohex(ParamSetting),
    AnalyzeCommands,
    /// Per-cell values of an evaluation (`None`: the search's own).
    EvalCells {
        kind: Option<EvalKind>,
        color: Color,
    },
    /// Scores and each side's measure under the given evaluations.
    EvalSummary {
        kinds: Vec<EvalKind>,
        color: Color,
    },
    /// The principal variation of the last search.
    Pv,
    /// `dfpn-solve-state COLOR`: the winner with COLOR to move.
    SolveState(Color),
    /// `dfpn-solver-find-winning COLOR`: COLOR's winning moves.
    SolveWinningMoves(Color),
    /// `dfpn-clear-tt`: empty the solver's table.
    SolverClearTable,
    ParamDfpn(ParamSetting),
    /// `vc-build COLOR`: inferior cells in HexGui's `CELL CODE` form.
    VcBuild(Color),
    /// `vc-between-cells-full|semi COLOR A B`: connections, HexGui's form.
    VcBetween {
        color: Color,
        from: String,
        to: String,
        full: bool,
    },
    /// `vc-get-mustplay COLOR`: the cells that can avoid an immediate loss.
    VcMustplay(Color),
    /// GoGui's declaration that `# interrupt` lines are understood.
    GoguiInterrupt,
}

/// Every command name with its usage, in the order `list_commands` prints
/// them. The parser and `known_command` both read this table.
pub const COMMANDS: &[(&str, &str)] = &[
    ("all_legal_moves", "all_legal_moves COLOR"),
    ("boardsize", "boardsize SIZE | boardsize WIDTH HEIGHT"),
    ("clear_board", "clear_board"),
    ("dfpn-clear-tt", "dfpn-clear-tt"),
    ("dfpn-solve-state", "dfpn-solve-state COLOR"),
    ("dfpn-solver-find-winning", "dfpn-solver-find-winning COLOR"),
    ("eval", "eval COLOR"),
    ("eval-dist", "eval-dist COLOR"),
    ("eval-resist", "eval-resist COLOR"),
    ("eval-resist-cells", "eval-resist-cells COLOR"),
    ("eval-summary", "eval-summary COLOR"),
    ("eval-twod", "eval-twod COLOR"),
    ("ferrohex-pv", "ferrohex-pv"),
    ("final_score", "final_score"),
    ("genmove", "genmove COLOR"),
    ("gogui-interrupt", "gogui-interrupt"),
    ("hexgui-analyze_commands", "hexgui-analyze_commands"),
    ("known_command", "known_command NAME"),
    ("list_commands", "list_commands"),
    ("loadboard", "loadboard FILE [common|seed]"),
    ("loadsgf", "loadsgf FILE [MOVE_NUMBER]"),
    ("name", "name"),
    ("param_dfpn", "param_dfpn [NAME VALUE]"),
    ("param_ferrohex", "param_ferrohex [NAME VALUE]"),
    ("param_game", "param_game [NAME VALUE]"),
    ("play", "play COLOR MOVE"),
    ("printsgf", "printsgf [FILE]"),
    ("protocol_version", "protocol_version"),
    ("quit", "quit"),
    ("reg_genmove", "reg_genmove COLOR"),
    ("showboard", "showboard"),
    ("showboard-svg", "showboard-svg [FILE]"),
    ("time_left", "time_left COLOR SECONDS [STONES]"),
    (
        "time_settings",
        "time_settings MAIN_TIME BYO_YOMI_TIME BYO_YOMI_STONES",
    ),
    ("undo", "undo"),
    (
        "vc-between-cells-full",
        "vc-between-cells-full COLOR FROM TO",
    ),
    (
        "vc-between-cells-semi",
        "vc-between-cells-semi COLOR FROM TO",
    ),
    ("vc-build", "vc-build COLOR"),
    ("vc-get-mustplay", "vc-get-mustplay COLOR"),
    ("version", "version"),
];

pub fn is_known(name: &str) -> bool {
    COMMANDS.iter().any(|(n, _)| *n == name)
}

pub fn usage(name: &str) -> &'static str {
    COMMANDS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, u)| *u)
        .unwrap_or("")
}
