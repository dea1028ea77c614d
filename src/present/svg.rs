//! The board as an SVG picture (`showboard-svg`, `ferrohex render`).
//!
//! The board is drawn the way HexGui draws it: a rhombus of pointy-top
//! hexagons, `a1` at the top left, each row shifted half a hexagon to the
//! right of the one above. Around it runs a band in each side's colour:
//! dark along the top and bottom (Black's edges), white with an outline
//! along the left and right (White's). On top: the stones, the last move
//! marked with a red dot (or, with move numbers, a red rim), optional move numbers and
//! coordinates, and, once the game is won, the winning chain's cells
//! highlighted.
//!
//! The picture is plain SVG 1.1: one `<polygon class="cell">` per cell, one
//! `<circle class="stone black|white">` per stone, no scripts, no external
//! references, ASCII only, and no blank lines (so it can be an HTP answer).

use std::fmt::Write as _;

use crate::board::{Cell, CellSet, Color, Position};
use crate::game::{Game, Move};

/// What [`svg`] draws besides the board and stones.
#[derive(Clone, Debug, PartialEq)]
pub struct SvgOptions {
    /// Column letters above and below, row numbers on both sides.
    pub coords: bool,
    /// Each stone played as a move shows its move number.
    pub numbers: bool,
    /// Mark the last move (a red dot, or a red rim with `numbers`).
    pub last_move: bool,
    /// Highlight the cells of the winning chain once the game is won.
    pub winning_chain: bool,
    /// Distance from a hexagon's centre to its corners, in pixels.
    pub cell_size: f64,
}

impl Default for SvgOptions {
    fn default() -> Self {
        SvgOptions {
            coords: true,
            numbers: false,
            last_move: true,
            winning_chain: true,
            cell_size: 24.0,
        }
    }
}

const BLACK_STONE: &str = "#1a1a1a";
const WHITE_STONE: &str = "#fbfbf8";
const BLACK_EDGE: &str = "#262626";
const WHITE_EDGE: &str = "#f7f7f7";
const OUTLINE: &str = "#404040";
const CELL: &str = "#e8c98f";
const CELL_LINE: &str = "#7a5c2e";
const CHAIN: &str = "#f5a623";
const LAST: &str = "#d62728";
const LABEL: &str = "#333333";

/// The stones `color` has joining its two edges: every group that touches
/// both. Empty when `color` has not won.
pub fn winning_chain(pos: &Position, color: Color) -> CellSet {
    let Some(from_first) = pos.chain_between_edges(color) else {
        return CellSet::EMPTY;
    };
    // Keep the part that also reaches the second edge: flood back from it.
    let g = pos.geometry();
    let (_, second) = color.edges();
    let mut seen = g.edge_cells(second).intersection(&from_first);
    let mut stack: Vec<Cell> = seen.iter().collect();
    while let Some(c) = stack.pop() {
        for &n in g.neighbours(c) {
            if from_first.contains(n) && !seen.contains(n) {
                seen.insert(n);
                stack.push(n);
            }
        }
    }
    seen
}

/// The move number of each stone placed by a move (not set-up stones),
/// indexed by cell. A swapped stone carries the swap's number.
pub fn move_numbers(game: &Game) -> Vec<Option<usize>> {
    let g = game.geometry();
    let mut numbers = vec![None; g.num_cells()];
    let mut last_cell: Option<Cell> = None;
    for (i, (_, mv)) in game.moves().enumerate() {
        let cell = match mv {
            Move::Cell(c) => Some(c),
            Move::Swap => {
                let black = last_cell;
                if let Some(b) = black {
                    numbers[b.index()] = None;
                }
                black.and_then(|b| g.mirror(b))
            }
        };
        if let Some(c) = cell {
            numbers[c.index()] = Some(i + 1);
            last_cell = Some(c);
        }
    }
    numbers
}

/// A point of the picture.
#[derive(Clone, Copy, Debug)]
struct P(f64, f64);

/// Positions on the picture, in pixels, from board coordinates.
struct Layout {
    r: f64,
    w: f64,
}

impl Layout {
    /// The centre of the cell at (col, row); fractional and off-board
    /// coordinates give the points around the board.
    fn centre(&self, col: f64, row: f64) -> P {
        P((col + row / 2.0) * self.w, row * 1.5 * self.r)
    }

    fn hexagon(&self, c: P) -> [P; 6] {
        let (hw, r) = (self.w / 2.0, self.r);
        [
            P(c.0, c.1 - r),
            P(c.0 + hw, c.1 - r / 2.0),
            P(c.0 + hw, c.1 + r / 2.0),
            P(c.0, c.1 + r),
            P(c.0 - hw, c.1 + r / 2.0),
            P(c.0 - hw, c.1 - r / 2.0),
        ]
    }
}

fn num(v: f64) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

fn points(ps: &[P]) -> String {
    ps.iter()
        .map(|p| format!("{},{}", num(p.0), num(p.1)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A closed path through `ps`.
fn path(ps: &[P]) -> String {
    let mut d = String::new();
    for (i, p) in ps.iter().enumerate() {
        let _ = write!(
            d,
            "{}{},{} ",
            if i == 0 { 'M' } else { 'L' },
            num(p.0),
            num(p.1)
        );
    }
    d.push('Z');
    d
}

/// The game's current position as an SVG document (ending in a newline).
pub fn svg(game: &Game, options: &SvgOptions) -> String {
    let pos = game.position();
    let g = game.geometry();
    let (width, height) = (g.width(), g.height());
    let (wf, hf) = (width as f64, height as f64);
    let r = options.cell_size;
    let lay = Layout {
        r,
        w: 3f64.sqrt() * r,
    };

    // The frame runs through the centres of the ring of cells just outside
    // the board; the board's centre and the four frame corners cut it into
    // the four edge bands.
    let tl = lay.centre(-1.0, -1.0);
    let tr = lay.centre(wf, -1.0);
    let br = lay.centre(wf, hf);
    let bl = lay.centre(-1.0, hf);
    let mid = lay.centre((wf - 1.0) / 2.0, (hf - 1.0) / 2.0);

    // The picture's extent, with room for the coordinates.
    let margin = if options.coords { 1.6 * r } else { 0.3 * r };
    let min_x = tl.0.min(bl.0) - margin;
    let max_x = tr.0.max(br.0) + margin;
    let min_y = tl.1 - margin;
    let max_y = bl.1 + margin;
    let (view_w, view_h) = (max_x - min_x, max_y - min_y);

    let winner = pos.winner();
    let chain = match winner {
        Some(c) if options.winning_chain => winning_chain(pos, c),
        _ => CellSet::EMPTY,
    };
    let numbers = if options.numbers {
        move_numbers(game)
    } else {
        Vec::new()
    };
    let last = if options.last_move {
        game.last_move_cell()
    } else {
        None
    };

    let mut out = String::new();
    let _ = writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{}" height="{}" viewBox="{} {} {} {}">"#,
        num(view_w.ceil()),
        num(view_h.ceil()),
        num(min_x),
        num(min_y),
        num(view_w.ceil()),
        num(view_h.ceil())
    );
    let status = match winner {
        Some(c) => format!("{c} has won"),
        None => format!("{} to play", game.to_move()),
    };
    let _ = writeln!(
        out,
        "<title>Hex {width}x{height}, {} move{}, {status}</title>",
        game.num_moves(),
        if game.num_moves() == 1 { "" } else { "s" }
    );

    // Edge bands.
    let _ = writeln!(out, r#"<g class="edges" stroke-linejoin="round">"#);
    for (class, fill, stroke, corners) in [
        ("edge black", BLACK_EDGE, BLACK_EDGE, [mid, tl, tr]),
        ("edge black", BLACK_EDGE, BLACK_EDGE, [mid, br, bl]),
        ("edge white", WHITE_EDGE, OUTLINE, [mid, tr, br]),
        ("edge white", WHITE_EDGE, OUTLINE, [mid, bl, tl]),
    ] {
        let _ = writeln!(
            out,
            r#"<path class="{class}" d="{}" fill="{fill}" stroke="{stroke}" stroke-width="{}"/>"#,
            path(&corners),
            num(r * 0.08)
        );
    }
    let _ = writeln!(out, "</g>");

    // Cells.
    let _ = writeln!(
        out,
        r#"<g class="cells" stroke="{CELL_LINE}" stroke-width="{}" stroke-linejoin="round">"#,
        num(r * 0.06)
    );
    for cell in g.cells() {
        let (c, rw) = g.coords(cell);
        let centre = lay.centre(c as f64, rw as f64);
        let (class, fill) = if chain.contains(cell) {
            ("cell chain", CHAIN)
        } else {
            ("cell", CELL)
        };
        let _ = writeln!(
            out,
            r#"<polygon class="{class}" id="{}" points="{}" fill="{fill}"/>"#,
            g.name(cell),
            points(&lay.hexagon(centre))
        );
    }
    let _ = writeln!(out, "</g>");

    // Stones, numbers and the last-move mark.
    let _ = writeln!(out, r#"<g class="stones">"#);
    for cell in g.cells() {
        let Some(color) = pos.stone(cell) else {
            continue;
        };
        let (c, rw) = g.coords(cell);
        let p = lay.centre(c as f64, rw as f64);
        let (class, fill, ink) = match color {
            Color::Black => ("stone black", BLACK_STONE, "#f0f0f0"),
            Color::White => ("stone white", WHITE_STONE, "#1a1a1a"),
        };
        let is_last = last == Some(cell);
        let number = numbers.get(cell.index()).copied().flatten();
        // With numbers, the last move's stone gets a red rim; without, a
        // red dot.
        let (class, stroke, width) = if is_last && number.is_some() {
            (format!("{class} last"), LAST, r * 0.14)
        } else {
            (class.to_string(), OUTLINE, r * 0.06)
        };
        let _ = writeln!(
            out,
            r#"<circle class="{class}" cx="{}" cy="{}" r="{}" fill="{fill}" stroke="{stroke}" stroke-width="{}"/>"#,
            num(p.0),
            num(p.1),
            num(r * 0.68),
            num(width)
        );
        match number {
            Some(n) => {
                let digits = n.to_string().len() as f64;
                let size = r * if digits >= 3.0 { 0.5 } else { 0.65 };
                let weight = if is_last { "bold" } else { "normal" };
                let _ = writeln!(
                    out,
                    r#"<text class="number" x="{}" y="{}" font-size="{}" font-weight="{weight}" fill="{ink}" text-anchor="middle" dominant-baseline="central" font-family="sans-serif">{n}</text>"#,
                    num(p.0),
                    num(p.1),
                    num(size)
                );
            }
            None if is_last => {
                let _ = writeln!(
                    out,
                    r#"<circle class="last" cx="{}" cy="{}" r="{}" fill="{LAST}"/>"#,
                    num(p.0),
                    num(p.1),
                    num(r * 0.2)
                );
            }
            None => {}
        }
    }
    let _ = writeln!(out, "</g>");

    if options.coords {
        let _ = writeln!(
            out,
            r#"<g class="coords" font-family="sans-serif" font-size="{}" fill="{LABEL}" text-anchor="middle" dominant-baseline="central">"#,
            num(r * 0.7)
        );
        let gap = 1.5 + 0.75;
        for c in 0..width {
            let letter = (b'a' + c as u8) as char;
            let top = lay.centre(c as f64, 0.0);
            let bottom = lay.centre(c as f64, hf - 1.0);
            for (p, dy) in [(top, -gap * r), (bottom, gap * r)] {
                let _ = writeln!(
                    out,
                    r#"<text x="{}" y="{}">{letter}</text>"#,
                    num(p.0),
                    num(p.1 + dy)
                );
            }
        }
        for rw in 0..height {
            let left = lay.centre(-1.0 - 0.75, rw as f64);
            let right = lay.centre(wf + 0.75, rw as f64);
            for p in [left, right] {
                let _ = writeln!(
                    out,
                    r#"<text x="{}" y="{}">{}</text>"#,
                    num(p.0),
                    num(p.1),
                    rw + 1
                );
            }
        }
        let _ = writeln!(out, "</g>");
    }
    out.push_str("</svg>\n");
    out
}
