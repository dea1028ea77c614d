//! HexGui live graphics: `gogui-gfx:` blocks written on stdout while a
//! command runs. HexGui reads each block up to its blank line, hands it to
//! its drawing code and keeps waiting for the real answer.

use crate::board::{Color, Geometry};
use crate::search::{SearchReport, score_is_loss, score_is_win};
use crate::solver::{ChildStatus, Progress};

/// One finished search depth: the principal variation, the first move
/// labelled with its value (`W`/`L` when proven), and a status line.
pub fn search_block(geometry: &Geometry, to_move: Color, r: &SearchReport) -> String {
    let mut var = String::from("VAR");
    let mut color = to_move;
    for &cell in &r.pv {
        var.push_str(&format!(" {} {}", color.letter(), geometry.name(cell)));
        color = color.opponent();
    }
    let value = if score_is_win(r.score) {
        "W".to_string()
    } else if score_is_loss(r.score) {
        "L".to_string()
    } else {
        r.score.to_string()
    };
    let label =
        r.pv.first()
            .map(|&c| format!("LABEL {} {value}\n", geometry.name(c)))
            .unwrap_or_default();
    let secs = r.elapsed.as_secs_f64();
    format!(
        "gogui-gfx:\nab\n{var}\n{label}TEXT depth {} score {value} nodes {} nps {:.0} time {secs:.2}s\n\n",
        r.depth,
        r.nodes,
        r.nodes as f64 / secs.max(1e-6),
    )
}

/// The solver's progress: the line it is working on, every root move
/// labelled `W`/`L` once proved (for the player to move) or with its proof
/// number while open, and a summary.
pub fn solver_block(geometry: &Geometry, p: &Progress) -> String {
    let mut var = String::from("VAR");
    let mut color = p.to_move;
    for &cell in &p.pv {
        var.push_str(&format!(" {} {}", color.letter(), geometry.name(cell)));
        color = color.opponent();
    }
    let mut label = String::from("LABEL");
    let (mut wins, mut losses) = (0, 0);
    for &(cell, status) in &p.children {
        let value = match status {
            ChildStatus::Win => {
                wins += 1;
                "W".to_string()
            }
            ChildStatus::Loss => {
                losses += 1;
                "L".to_string()
            }
            ChildStatus::Unknown(pn, _) => pn.to_string(),
            ChildStatus::Unexplored => "?".to_string(),
        };
        label.push_str(&format!(" {} {value}", geometry.name(cell)));
    }
    let secs = p.elapsed.as_secs_f64();
    format!(
        "gogui-gfx:\ndfpn\n{var}\n{label}\nTEXT {} to move: {wins} winning, {losses} losing, {} open; {} nodes {:.0}/s time {secs:.1}s\n\n",
        p.to_move,
        p.children.len() - wins - losses,
        p.nodes,
        p.nodes as f64 / secs.max(1e-6),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn block_names_the_variation_and_ends_with_a_blank_line() {
        let g = Geometry::new(5, 5).unwrap();
        let r = SearchReport {
            depth: 3,
            score: 42,
            nodes: 1000,
            elapsed: Duration::from_millis(500),
            pv: vec![g.parse_cell("c3").unwrap(), g.parse_cell("b4").unwrap()],
        };
        assert_eq!(
            search_block(&g, Color::White, &r),
            "gogui-gfx:\nab\nVAR W c3 B b4\nLABEL c3 42\nTEXT depth 3 score 42 nodes 1000 nps 2000 time 0.50s\n\n"
        );
    }
}
