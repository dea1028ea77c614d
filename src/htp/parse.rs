//! The HTP grammar, written with nom. Pure: a line of text in, a typed
//! `Command` (or the reason it is not one) out.
//!
//! Line handling follows GTP 2 section 3: control characters other than
//! tab and newline are dropped, tabs become spaces, everything from `#` on is
//! a comment, and blank lines are ignored. An optional number before the
//! command is its id, echoed in the answer.

use nom::branch::alt;
use nom::bytes::complete::{tag_no_case, take_till1};
use nom::character::complete::{digit1, satisfy, space0, space1};
use nom::combinator::{all_consuming, eof, map_res, opt, peek, value};
use nom::multi::many0;
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

use super::command::{Command, ParamSetting, is_known, usage};
use crate::board::Color;
use crate::eval::EvalKind;
use crate::game::MoveArg;
use crate::present::textboard::Letters;

/// A command with the id it came with.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub id: Option<u64>,
    pub command: Command,
}

/// A line that is not a valid command; the id is kept so the `?` answer can
/// still echo it.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    pub id: Option<u64>,
    pub message: String,
}

/// Applies GTP's preprocessing to one raw line. `None` for a line with
/// nothing left to execute (empty, blank or comment only).
pub fn clean(raw: &str) -> Option<String> {
    let code = raw.split('#').next().unwrap_or("");
    let cleaned: String = code
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let trimmed = cleaned.trim_matches(' ');
    (!trimmed.is_empty()).then(|| trimmed.to_string())
}

/// Whether a raw line is HexGui's / GoGui's interrupt request.
pub fn is_interrupt(raw: &str) -> bool {
    let t: String = raw.chars().filter(|c| !c.is_control()).collect();
    let t = t.trim();
    t.strip_prefix('#')
        .is_some_and(|rest| rest.trim() == "interrupt")
}

type Res<'a, T> = IResult<&'a str, T>;

/// An id: digits followed by a space or the end of the line.
fn id(i: &str) -> Res<'_, &str> {
    terminated(digit1, peek(alt((space1, eof)))).parse(i)
}

fn word(i: &str) -> Res<'_, &str> {
    take_till1(|c: char| c == ' ').parse(i)
}

/// `[id] name args...` split into its parts.
fn line(i: &str) -> Res<'_, (Option<&str>, Option<&str>, Vec<&str>)> {
    all_consuming((
        preceded(space0, opt(terminated(id, space0))),
        opt(word),
        terminated(many0(preceded(space1, word)), space0),
    ))
    .parse(i)
}

fn color(i: &str) -> Res<'_, Color> {
    alt((
        value(Color::Black, tag_no_case("black")),
        value(Color::White, tag_no_case("white")),
        value(Color::Black, tag_no_case("b")),
        value(Color::White, tag_no_case("w")),
    ))
    .parse(i)
}

fn cell(i: &str) -> Res<'_, MoveArg> {
    map_res(
        (satisfy(|c| c.is_ascii_alphabetic()), digit1),
        |(letter, digits): (char, &str)| {
            let row: usize = digits.parse().map_err(|_| ())?;
            if row == 0 || digits.starts_with('0') {
                return Err(());
            }
            Ok(MoveArg::Cell {
                col: (letter.to_ascii_lowercase() as u8 - b'a') as usize,
                row: row - 1,
            })
        },
    )
    .parse(i)
}

fn move_arg(i: &str) -> Res<'_, MoveArg> {
    alt((
        value(MoveArg::Swap, tag_no_case("swap-pieces")),
        value(MoveArg::Swap, tag_no_case("swap")),
        cell,
    ))
    .parse(i)
}

/// A whole token with one of the parsers above.
fn whole<'a, T>(
    mut p: impl Parser<&'a str, Output = T, Error = nom::error::Error<&'a str>>,
    s: &'a str,
) -> Option<T> {
    all_consuming(|i| p.parse(i)).parse(s).ok().map(|(_, v)| v)
}

fn arg_color(s: &str) -> Result<Color, String> {
    whole(color, s).ok_or_else(|| format!("invalid color: {s} (use b, black, w or white)"))
}

fn arg_move(s: &str) -> Result<MoveArg, String> {
    whole(move_arg, s)
        .ok_or_else(|| format!("invalid move: {s} (a cell such as f6, or swap-pieces)"))
}

fn arg_count<T: std::str::FromStr>(s: &str, what: &str) -> Result<T, String> {
    let digits =
        whole(digit1, s).ok_or_else(|| format!("invalid {what}: {s} (expected a whole number)"))?;
    digits
        .parse()
        .map_err(|_| format!("invalid {what}: {s} (too large)"))
}

fn arg_seconds(s: &str, what: &str) -> Result<f64, String> {
    let v: f64 = whole(nom::number::complete::recognize_float, s)
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| format!("invalid {what}: {s} (expected seconds)"))?;
    if !(0.0..=1.0e9).contains(&v) {
        return Err(format!(
            "invalid {what}: {s} (expected 0 to 1000000000 seconds)"
        ));
    }
    Ok(v)
}

fn param(args: &[&str]) -> Option<ParamSetting> {
    match args {
        [] => Some(None),
        [name, value] => Some(Some((name.to_string(), value.to_string()))),
        _ => None,
    }
}

/// Builds the typed command; `Err` says what is wrong with the arguments.
fn command(name: &str, args: &[&str]) -> Result<Command, String> {
    let wrong = || format!("wrong number of arguments: usage: {}", usage(name));
    let c = match (name, args) {
        ("protocol_version", []) => Command::ProtocolVersion,
        ("name", []) => Command::Name,
        ("version", []) => Command::Version,
        ("known_command", [n]) => Command::KnownCommand(n.to_string()),
        ("list_commands", []) => Command::ListCommands,
        ("quit", []) => Command::Quit,
        ("boardsize", [n]) => {
            let n = arg_count(n, "board size")?;
            Command::BoardSize {
                width: n,
                height: n,
            }
        }
        ("boardsize", [w, h]) => Command::BoardSize {
            width: arg_count(w, "board width")?,
            height: arg_count(h, "board height")?,
        },
        ("clear_board", []) => Command::ClearBoard,
        ("play", [c, m]) => Command::Play(arg_color(c)?, arg_move(m)?),
        ("genmove", [c]) => Command::GenMove {
            color: arg_color(c)?,
            play: true,
        },
        ("reg_genmove", [c]) => Command::GenMove {
            color: arg_color(c)?,
            play: false,
        },
        ("undo", []) => Command::Undo,
        ("showboard", []) => Command::ShowBoard,
        ("final_score", []) => Command::FinalScore,
        ("all_legal_moves", [c]) => Command::AllLegalMoves(arg_color(c)?),
        ("loadsgf", [f]) => Command::LoadSgf {
            path: f.to_string(),
            move_number: None,
        },
        ("loadsgf", [f, n]) => {
            let n: usize = arg_count(n, "move number")?;
            if n == 0 {
                return Err("invalid move number: 0 (moves count from 1)".into());
            }
            Command::LoadSgf {
                path: f.to_string(),
                move_number: Some(n),
            }
        }
        ("loadboard", [f]) => Command::LoadBoard {
            path: f.to_string(),
            letters: Letters::default(),
        },
        ("loadboard", [f, l]) => Command::LoadBoard {
            path: f.to_string(),
            letters: l.parse()?,
        },
        ("showboard-svg", []) => Command::ShowBoardSvg(None),
        ("showboard-svg", [f]) => Command::ShowBoardSvg(Some(f.to_string())),
        ("printsgf", []) => Command::PrintSgf(None),
        ("printsgf", [f]) => Command::PrintSgf(Some(f.to_string())),
        ("time_left", [c, s]) | ("time_left", [c, s, _]) => Command::TimeLeft {
            color: arg_color(c)?,
            seconds: arg_seconds(s, "time")?,
            stones: match args.get(2) {
                Some(n) => Some(arg_count(n, "stone count")?),
                None => None,
            },
        },
        ("time_settings", [m, t, s]) => Command::TimeSettings {
            main: arg_seconds(m, "main time")?,
            byo_time: arg_seconds(t, "byo-yomi time")?,
            byo_stones: arg_count(s, "byo-yomi stones")?,
        },
        ("param_game", a) => Command::ParamGame(param(a).ok_or_else(wrong)?),
        ("param_ferrohex", a) => Command::ParamFerrohex(param(a).ok_or_else(wrong)?),
        ("hexgui-analyze_commands", []) => Command::AnalyzeCommands,
        ("eval", [c]) => Command::EvalCells {
            kind: None,
            color: arg_color(c)?,
        },
        ("eval-dist", [c]) => Command::EvalCells {
            kind: Some(EvalKind::Dist01),
            color: arg_color(c)?,
        },
        ("eval-twod", [c]) => Command::EvalCells {
            kind: Some(EvalKind::TwoDistance),
            color: arg_color(c)?,
        },
        ("eval-resist-cells", [c]) => Command::EvalCells {
            kind: Some(EvalKind::Resistance),
            color: arg_color(c)?,
        },
        ("eval-resist", [c]) => Command::EvalSummary {
            kinds: vec![EvalKind::Resistance],
            color: arg_color(c)?,
        },
        ("eval-summary", [c]) => Command::EvalSummary {
            kinds: EvalKind::ALL.to_vec(),
            color: arg_color(c)?,
        },
        ("ferrohex-pv", []) => Command::Pv,
        ("dfpn-solve-state", [c]) => Command::SolveState(arg_color(c)?),
        ("dfpn-solver-find-winning", [c]) => Command::SolveWinningMoves(arg_color(c)?),
        ("dfpn-clear-tt", []) => Command::SolverClearTable,
        ("vc-build", [c]) => Command::VcBuild(arg_color(c)?),
        ("vc-get-mustplay", [c]) => Command::VcMustplay(arg_color(c)?),
        ("vc-between-cells-full", [c, a, b]) | ("vc-between-cells-semi", [c, a, b]) => {
            Command::VcBetween {
                color: arg_color(c)?,
                from: a.to_ascii_lowercase(),
                to: b.to_ascii_lowercase(),
                full: name == "vc-between-cells-full",
            }
        }
        ("param_dfpn", a) => Command::ParamDfpn(param(a).ok_or_else(wrong)?),
        ("gogui-interrupt", []) => Command::GoguiInterrupt,
        (n, _) if is_known(n) => return Err(wrong()),
        (n, _) => return Err(format!("unknown command: {n}")),
    };
    Ok(c)
}

/// Parses one raw input line. `None` when the line holds no command.
pub fn parse_line(raw: &str) -> Option<Result<Request, Failure>> {
    let text = clean(raw)?;
    let (_, (id_text, name, args)) = line(&text).ok()?;
    let Some(id_text) = id_text else {
        // No id: the line starts with the command name.
        let name = name?.to_ascii_lowercase();
        return Some(
            command(&name, &args)
                .map(|command| Request { id: None, command })
                .map_err(|message| Failure { id: None, message }),
        );
    };
    let Ok(id) = id_text.parse::<u64>() else {
        return Some(Err(Failure {
            id: None,
            message: format!("command id {id_text} is too large"),
        }));
    };
    let Some(name) = name else {
        return Some(Err(Failure {
            id: Some(id),
            message: "missing command after the id".into(),
        }));
    };
    let name = name.to_ascii_lowercase();
    Some(
        command(&name, &args)
            .map(|command| Request {
                id: Some(id),
                command,
            })
            .map_err(|message| Failure {
                id: Some(id),
                message,
            }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Request {
        parse_line(line).unwrap().unwrap()
    }

    fn err(line: &str) -> Failure {
        parse_line(line).unwrap().unwrap_err()
    }

    #[test]
    fn ids_comments_and_spacing() {
        assert_eq!(
            ok("12 name"),
            Request {
                id: Some(12),
                command: Command::Name
            }
        );
        assert_eq!(
            ok("  \tname  # hi"),
            Request {
                id: None,
                command: Command::Name
            }
        );
        assert_eq!(
            ok("name\r"),
            Request {
                id: None,
                command: Command::Name
            }
        );
        assert_eq!(parse_line("# just a comment"), None);
        assert_eq!(parse_line("   \t \r"), None);
        assert_eq!(err("7").id, Some(7));
        assert_eq!(err("99999999999999999999999 name").id, None);
        assert_eq!(err("3 frobnicate").message, "unknown command: frobnicate");
        assert_eq!(err("3 frobnicate").id, Some(3));
    }

    #[test]
    fn colours_and_moves_any_case() {
        let want = Command::Play(Color::White, MoveArg::Cell { col: 5, row: 5 });
        assert_eq!(ok("play W F6").command, want);
        assert_eq!(ok("play white f6").command, want);
        assert_eq!(ok("PLAY w f6").command, want);
        assert_eq!(
            ok("play w Swap-Pieces").command,
            Command::Play(Color::White, MoveArg::Swap)
        );
        assert_eq!(
            ok("play b z26").command,
            Command::Play(Color::Black, MoveArg::Cell { col: 25, row: 25 })
        );
        for bad in [
            "play x f6",
            "play b f0",
            "play b 6f",
            "play b ff6",
            "play b f06",
            "play b é6",
        ] {
            assert!(err(bad).message.starts_with("invalid"), "{bad}");
        }
    }

    #[test]
    fn argument_counts_and_numbers() {
        assert_eq!(
            ok("boardsize 4 5").command,
            Command::BoardSize {
                width: 4,
                height: 5
            }
        );
        assert!(err("play b").message.contains("usage: play COLOR MOVE"));
        assert!(err("boardsize -3").message.contains("invalid board size"));
        assert!(
            err("boardsize 99999999999999999999999")
                .message
                .contains("too large")
        );
        assert!(err("loadsgf x.sgf 0").message.contains("move number"));
        assert_eq!(
            ok("time_left b 12.5 3").command,
            Command::TimeLeft {
                color: Color::Black,
                seconds: 12.5,
                stones: Some(3)
            }
        );
        assert!(err("time_left b -1").message.contains("invalid time"));
        assert!(err("time_left b nan").message.contains("invalid time"));
        assert_eq!(ok("param_game").command, Command::ParamGame(None));
        assert!(
            err("param_game allow_swap")
                .message
                .contains("wrong number")
        );
    }

    #[test]
    fn interrupt_lines() {
        assert!(is_interrupt("# interrupt"));
        assert!(is_interrupt("#interrupt\r"));
        assert!(!is_interrupt("# interrupted"));
        assert!(!is_interrupt("genmove b # interrupt"));
    }
}
