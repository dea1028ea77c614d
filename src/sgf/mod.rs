//! SGF FF[4] GM[11]: reading and writing Hex game records the way Benzene
//! and HexGui do.
//!
//! Cells are written by name (`a1` top left, `k11`), not as Go-style letter
//! pairs; the swap move is `swap-pieces`, and a board that is not square has
//! `SZ[width:height]`. [`parse`] keeps only the main line of the first game
//! in the file (at every branching, the first variation) and reduces each
//! node to the properties that change the position: `AB`, `AW`, `AE`, `B`,
//! `W` and `PL`. Everything else (`C`, `PB`, `RE`, `AP`, ...) is skipped.
//!
//! The grammar is lexed with `nom`, one token at a time, and the tree is
//! walked by a loop with a depth counter, so deep nesting cannot overflow the
//! stack and the time taken is linear in the input.

use crate::board::{Color, MAX_SIZE};
use nom::branch::alt;
use nom::bytes::complete::{is_not, take_while, take_while1};
use nom::character::complete::{anychar, char};
use nom::combinator::recognize;
use nom::multi::many0_count;
use nom::sequence::pair;
use nom::{IResult, Parser};

/// The value of a `B[]` or `W[]` property.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SgfMove {
    /// A stone on the cell, by its lowercase name as written, e.g. `f6`.
    Cell(String),
    /// The swap rule, `swap-pieces` (also read: `swap`).
    Swap,
    /// `resign` (also read: HexGui's `forfeit`).
    Resign,
    /// `pass`, or an empty value.
    Pass,
}

/// One position-changing property value of a node, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SgfAction {
    /// `AB[cell]` / `AW[cell]`: a setup stone, one action per cell.
    Setup(Color, String),
    /// `AE[cell]`: clears a cell.
    Clear(String),
    /// `B[move]` / `W[move]`.
    Move(Color, SgfMove),
    /// `PL[B]` / `PL[W]`: the colour to move next.
    ToPlay(Color),
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SgfNode {
    pub actions: Vec<SgfAction>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfRecord {
    pub width: usize,
    pub height: usize,
    /// The main line, root node first. [`parse`] always gives at least one.
    pub nodes: Vec<SgfNode>,
}

/// The size Benzene and HexGui assume when `SZ` is missing.
const DEFAULT_SIZE: usize = 11;

const GM_HEX: u32 = 11;

/// Reads the first game of an SGF file. Errors are one lowercase line,
/// suitable to show a user.
pub fn parse(text: &str) -> Result<SgfRecord, String> {
    let raw = main_line(text)?;
    let props = || raw.iter().flat_map(|node| node.iter());

    for p in props() {
        match p.ident {
            "GM" => {
                let v = simple_text(p.values[0]);
                if v.parse::<u32>() != Ok(GM_HEX) {
                    return Err(format!("SGF game type {} is not Hex (GM[11])", show(&v)));
                }
            }
            "FF" => {
                let v = simple_text(p.values[0]);
                if !matches!(v.parse::<u32>(), Ok(1..=4)) {
                    return Err(format!(
                        "SGF version FF[{}] is not supported (1 to 4)",
                        show(&v)
                    ));
                }
            }
            _ => {}
        }
    }

    let mut size: Option<(String, (usize, usize))> = None;
    for p in props().filter(|p| p.ident == "SZ") {
        let v = simple_text(p.values[0]);
        let dims = parse_size(&v)?;
        match &size {
            None => size = Some((v, dims)),
            Some((first, d)) if *d != dims => {
                return Err(format!(
                    "SGF board size is given twice, as {} and {}",
                    show(first),
                    show(&v)
                ));
            }
            Some(_) => {}
        }
    }
    let (width, height) = size.map_or((DEFAULT_SIZE, DEFAULT_SIZE), |(_, d)| d);

    let mut nodes = Vec::with_capacity(raw.len());
    for raw_node in &raw {
        let mut actions = Vec::new();
        for p in raw_node {
            for &value in &p.values {
                let action = match p.ident {
                    "AB" => SgfAction::Setup(Color::Black, point(value, width, height)?),
                    "AW" => SgfAction::Setup(Color::White, point(value, width, height)?),
                    "AE" => SgfAction::Clear(point(value, width, height)?),
                    "B" => SgfAction::Move(Color::Black, sgf_move(value, width, height)?),
                    "W" => SgfAction::Move(Color::White, sgf_move(value, width, height)?),
                    "PL" => {
                        let v = simple_text(value);
                        match Color::parse(&v) {
                            Some(c) => SgfAction::ToPlay(c),
                            None => {
                                return Err(format!("SGF PL[{}] is not B or W", show(&v)));
                            }
                        }
                    }
                    _ => break,
                };
                actions.push(action);
            }
        }
        nodes.push(SgfNode { actions });
    }
    Ok(SgfRecord {
        width,
        height,
        nodes,
    })
}

/// Writes a record as one game tree on one line, ending in a newline. The
/// root node gets `FF`, `GM`, `AP` and `SZ` (`SZ[w:h]` when not square).
/// Within a node, the values of one property are gathered under it, the
/// properties in the order their first action comes.
pub fn write(record: &SgfRecord) -> String {
    let mut out = String::from("(;FF[4]GM[11]AP[ferrohex:");
    out.push_str(env!("CARGO_PKG_VERSION"));
    out.push_str("]SZ[");
    out.push_str(&record.width.to_string());
    if record.width != record.height {
        out.push(':');
        out.push_str(&record.height.to_string());
    }
    out.push(']');
    for (i, node) in record.nodes.iter().enumerate() {
        if i > 0 {
            out.push(';');
        }
        write_node(&mut out, node);
    }
    out.push_str(")\n");
    out
}

fn write_node(out: &mut String, node: &SgfNode) {
    let mut groups: Vec<(&'static str, Vec<&str>)> = Vec::new();
    for action in &node.actions {
        let (ident, value): (&'static str, &str) = match action {
            SgfAction::Setup(c, cell) => (if *c == Color::Black { "AB" } else { "AW" }, cell),
            SgfAction::Clear(cell) => ("AE", cell),
            SgfAction::Move(c, m) => (
                if *c == Color::Black { "B" } else { "W" },
                match m {
                    SgfMove::Cell(cell) => cell,
                    SgfMove::Swap => "swap-pieces",
                    SgfMove::Resign => "resign",
                    SgfMove::Pass => "pass",
                },
            ),
            SgfAction::ToPlay(c) => ("PL", if *c == Color::Black { "B" } else { "W" }),
        };
        match groups.iter_mut().find(|(id, _)| *id == ident) {
            Some((_, values)) => values.push(value),
            None => groups.push((ident, vec![value])),
        }
    }
    for (ident, values) in groups {
        out.push_str(ident);
        for v in values {
            out.push('[');
            for c in v.chars() {
                if c == ']' || c == '\\' {
                    out.push('\\');
                }
                out.push(c);
            }
            out.push(']');
        }
    }
}

// ---------------------------------------------------------------------------
// Lexing and the tree walk.

/// A property as written: its identifier and its raw (still escaped) values,
/// of which there is at least one.
struct RawProp<'a> {
    ident: &'a str,
    values: Vec<&'a str>,
}

type RawNode<'a> = Vec<RawProp<'a>>;

fn ws(i: &str) -> IResult<&str, &str> {
    take_while(char::is_whitespace).parse(i)
}

fn prop_ident(i: &str) -> IResult<&str, &str> {
    take_while1(|c: char| c.is_ascii_alphabetic()).parse(i)
}

/// The inside of a value up to, not including, its closing `]`: any text in
/// which `\` escapes the next character.
fn value_body(i: &str) -> IResult<&str, &str> {
    recognize(many0_count(alt((
        is_not("\\]"),
        recognize(pair(char('\\'), anychar)),
    ))))
    .parse(i)
}

/// Where the walk stands: just after `(` (a node must follow), inside a node
/// (properties, `;`, `(` or `)` may follow), or just after a `)` closing a
/// variation (only `(` or `)` may follow).
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    TreeStart,
    InNode,
    AfterTree,
}

/// Walks the first game tree in `text` and returns the properties of its
/// main-line nodes; the other variations are checked for syntax only.
fn main_line(text: &str) -> Result<Vec<RawNode<'_>>, String> {
    let start = game_start(text).ok_or_else(|| "not an SGF file".to_string())?;
    let line_of = |rest: &str| text[..text.len() - rest.len()].matches('\n').count() + 1;
    let syntax =
        |rest: &str, what: &str| format!("SGF syntax error at line {}: {what}", line_of(rest));
    let truncated = |what: char| format!("SGF truncated: missing '{what}'");

    // Past the opening '('.
    let mut rest = &text[start + 1..];
    let mut depth = 1usize;
    let mut state = State::TreeStart;
    let mut main_done = false;
    let mut nodes: Vec<RawNode> = Vec::new();

    loop {
        rest = ws(rest).map_or(rest, |(r, _)| r);
        let Some(c) = rest.chars().next() else {
            return Err(truncated(')'));
        };
        match (c, state) {
            (';', State::TreeStart | State::InNode) => {
                rest = &rest[1..];
                if !main_done {
                    nodes.push(Vec::new());
                }
                state = State::InNode;
            }
            ('(', State::InNode | State::AfterTree) => {
                rest = &rest[1..];
                depth += 1;
                state = State::TreeStart;
            }
            (')', State::InNode | State::AfterTree) => {
                rest = &rest[1..];
                depth -= 1;
                // Everything before the first ')' is the main line.
                main_done = true;
                if depth == 0 {
                    break;
                }
                state = State::AfterTree;
            }
            (_, State::InNode) if c.is_ascii_alphabetic() => {
                let (r, ident) = prop_ident(rest).map_err(|_| syntax(rest, "bad property"))?;
                rest = r;
                let mut values = Vec::new();
                loop {
                    let after_ws = ws(rest).map_or(rest, |(r, _)| r);
                    let Some(body) = after_ws.strip_prefix('[') else {
                        break;
                    };
                    let (r, value) = value_body(body).map_err(|_| truncated(']'))?;
                    let Some(r) = r.strip_prefix(']') else {
                        // The body stops only at ']', at the end, or at a
                        // lone '\' ending the text.
                        return Err(truncated(']'));
                    };
                    values.push(value);
                    rest = r;
                }
                if values.is_empty() {
                    return Err(syntax(
                        rest,
                        &format!("property {} has no value", show(ident)),
                    ));
                }
                if !main_done && let Some(node) = nodes.last_mut() {
                    node.push(RawProp { ident, values });
                }
            }
            (_, State::TreeStart) => return Err(syntax(rest, "expected ';' after '('")),
            (_, State::AfterTree) if c == ';' || c.is_ascii_alphabetic() => {
                return Err(syntax(rest, "a node follows a variation"));
            }
            _ => return Err(syntax(rest, &format!("unexpected {}", describe(c)))),
        }
    }
    Ok(nodes)
}

/// The byte offset of the first `(` followed, after any whitespace, by `;`.
/// Text before it (mail headers, a byte-order mark) is skipped, as HexGui
/// does.
fn game_start(text: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text[from..].find('(') {
        let open = from + i;
        let after = &text[open + 1..];
        let after = after.trim_start();
        if after.starts_with(';') {
            return Some(open);
        }
        // Whatever followed the '(' and its whitespace is not ';', so the
        // next '(' can be no earlier than that: the scan stays linear.
        from = text.len() - after.len();
    }
    None
}

// ---------------------------------------------------------------------------
// Values.

/// A value unescaped: `\` followed by a line break is removed, `\x` is `x`;
/// then trimmed.
fn simple_text(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\r') => {
                chars.next_if_eq(&'\n');
            }
            Some('\n') => {
                chars.next_if_eq(&'\r');
            }
            Some(e) => out.push(e),
            None => {}
        }
    }
    out.trim().to_string()
}

/// `n` or `w:h`, each side 1 to 26.
fn parse_size(v: &str) -> Result<(usize, usize), String> {
    let side = |s: &str| -> Option<usize> {
        let s = s.trim();
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some(s.parse().unwrap_or(usize::MAX))
    };
    let dims = match v.split_once(':') {
        None => side(v).map(|n| (n, n)),
        Some((w, h)) => side(w).zip(side(h)),
    };
    let Some((w, h)) = dims else {
        return Err(format!("SGF board size {} is malformed", show(v)));
    };
    if !(1..=MAX_SIZE).contains(&w) || !(1..=MAX_SIZE).contains(&h) {
        return Err(format!(
            "SGF board size {} is not supported (1 to {MAX_SIZE})",
            show(v)
        ));
    }
    Ok((w, h))
}

/// A cell, lowercase and canonical (`a1`), on the board. Besides names,
/// reads the Go-style letter pairs of Little Golem (`ba` is `b1`), as HexGui
/// does.
fn point(raw: &str, width: usize, height: usize) -> Result<String, String> {
    let v = simple_text(raw).to_ascii_lowercase();
    match cell_coords(&v) {
        Some(coords) => on_board(coords, width, height),
        None => Err(format!("SGF value {} is not a cell", show(&v))),
    }
}

fn sgf_move(raw: &str, width: usize, height: usize) -> Result<SgfMove, String> {
    let v = simple_text(raw).to_ascii_lowercase();
    match v.as_str() {
        "" | "pass" => Ok(SgfMove::Pass),
        "swap-pieces" | "swap" => Ok(SgfMove::Swap),
        "resign" | "forfeit" => Ok(SgfMove::Resign),
        "swap-sides" => Err("SGF move swap-sides is not supported (only swap-pieces)".to_string()),
        _ => match cell_coords(&v) {
            Some(coords) => on_board(coords, width, height).map(SgfMove::Cell),
            None => Err(format!(
                "SGF move {} is not a cell, swap-pieces, resign or pass",
                show(&v)
            )),
        },
    }
}

/// (column, row), both from 0, of a lowercase `a1`-style name or Go-style
/// pair; `None` when malformed.
fn cell_coords(v: &str) -> Option<(usize, usize)> {
    let b = v.as_bytes();
    let (&letter, tail) = b.split_first()?;
    if !letter.is_ascii_lowercase() {
        return None;
    }
    let col = (letter - b'a') as usize;
    if let [second] = tail
        && second.is_ascii_lowercase()
    {
        return Some((col, (second - b'a') as usize));
    }
    if tail.is_empty() || tail.len() > 3 || !tail.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let row: usize = std::str::from_utf8(tail).ok()?.parse().ok()?;
    Some((col, row.checked_sub(1)?))
}

fn on_board((col, row): (usize, usize), width: usize, height: usize) -> Result<String, String> {
    let name = format!("{}{}", (b'a' + col as u8) as char, row + 1);
    if col < width && row < height {
        Ok(name)
    } else {
        Err(format!("SGF cell {name} is off the {width}x{height} board"))
    }
}

/// Text from the file made safe for a one-line message: escaped, shortened.
fn show(v: &str) -> String {
    const MAX: usize = 24;
    let mut s: String = v.chars().take(MAX).flat_map(char::escape_debug).collect();
    if v.chars().nth(MAX).is_some() {
        s.push_str("...");
    }
    if s.is_empty() { "''".to_string() } else { s }
}

fn describe(c: char) -> String {
    if c.is_ascii_graphic() {
        format!("'{c}'")
    } else {
        format!("character U+{:04X}", c as u32)
    }
}

#[cfg(test)]
mod tests;
