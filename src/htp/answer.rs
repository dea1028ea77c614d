//! The text of answers built from the engine's typed values, in one place.

use crate::board::{Cell, Color, Geometry};
use crate::engine::{Choice, Measure};
use crate::eval::EvalKind;
use crate::game::Game;
use crate::params::{Kind, Setting};

/// A parameter listing in HexGui's parameter-dialog form: `[bool] name
/// 0|1`, `[list/a/b/c] name value`, `[string] name value`.
pub fn settings(list: &[Setting]) -> String {
    list.iter()
        .map(|s| {
            let kind = match s.kind {
                Kind::Bool => "bool".to_string(),
                Kind::Choice(words) => format!("list/{}", words.join("/")),
                Kind::Int { .. } | Kind::Real { .. } | Kind::Seconds { .. } => "string".into(),
            };
            format!("[{kind}] {} {}", s.name, s.value)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `genmove`'s answer: a cell, `swap-pieces` or `resign`.
pub fn choice(g: &Geometry, choice: Choice) -> String {
    match choice {
        Choice::Cell(c) => g.name(c),
        Choice::Swap => "swap-pieces".into(),
        Choice::Resign => "resign".into(),
    }
}

/// Cell names separated by spaces.
pub fn cells(g: &Geometry, cells: impl IntoIterator<Item = Cell>) -> String {
    cells
        .into_iter()
        .map(|c| g.name(c))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A line of play as HexGui's `var` form reads it: `b e5 w f6 ...`, the
/// colours alternating from `first`.
pub fn line(g: &Geometry, first: Color, moves: &[Cell]) -> String {
    let mut color = first;
    let mut out = Vec::new();
    for &cell in moves {
        out.push(format!(
            "{} {}",
            color.letter().to_ascii_lowercase(),
            g.name(cell)
        ));
        color = color.opponent();
    }
    out.join(" ")
}

/// `CELL VALUE` pairs, HexGui's `pspairs` form.
pub fn cell_values(g: &Geometry, values: &[(Cell, i32)]) -> String {
    values
        .iter()
        .map(|(c, v)| format!("{} {v}", g.name(*c)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `eval-summary`: one line per evaluation.
pub fn measures(list: &[Measure], color: Color) -> String {
    list.iter()
        .map(|m| {
            let what = match m.kind {
                EvalKind::Dist01 => "stones needed",
                EvalKind::TwoDistance => "best potential",
                EvalKind::Resistance => "resistance",
            };
            format!(
                "{}: score {} for {color}; {what}: black {:.3} white {:.3}",
                m.kind, m.score, m.black, m.white
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `dfpn-solve-state`: the winner, or `unknown`.
pub fn winner(w: Option<Color>) -> String {
    w.map_or_else(|| "unknown".to_string(), |w| w.name().to_string())
}

/// `final_score`: `B+` or `W+`.
pub fn final_score(w: Color) -> String {
    format!("{}+", w.letter())
}

/// `printsgf`'s record of the game.
pub fn sgf(game: &Game) -> String {
    crate::sgf::write(&game.to_sgf())
}

/// `showboard-svg`'s picture of the game.
pub fn svg(game: &Game) -> String {
    crate::present::svg::svg(game, &crate::present::svg::SvgOptions::default())
}
