//! The text of answers built from the engine's typed values, in one place.

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
